"""WS /games/{id}/live: a seat page kept live with HTML fragments (DESIGN.md, Realtime).

The page's htmx websocket extension connects and sends `{"token": ..., "version": V}`
first, V being the version its regions were rendered at. The socket then follows the
seat's view through the game service like any API socket (full view, then RFC 6902
patches, from the seat's view only), and after each change sends the regions whose HTML
changed, as out-of-band fragments (of the Operations Cards, only the areas that changed,
while the cards' skeleton stands: render.PARTED), and of each only what changed in it
(app.web.patches). On reconnect the page sends its version
again: if the view moved on meanwhile, every region that differs is sent, whole; nothing
is lost.

    AUTHENTICATING --token ok--> LIVE --page leaves / server stops--> CLOSED
          |
          +--bad token, unknown game, bad first message--> a message, then CLOSED (44xx)
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any

import jsonpatch
from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from app.api.inbound import BadFrame, BadJson, parse_json, receive_text
from app.games import GameError, GameService, Subscriber
from app.games.stages import STAGES
from app.web import render
from app.web.patches import Shown
from app.web.render import Seat

log = logging.getLogger(__name__)
router = APIRouter()

FIRST_MESSAGE_SECONDS = 10.0
MAX_MESSAGE = 4096


class BadFirstMessage(Exception):
    pass


def parse_first(raw: str) -> tuple[str, int | None]:
    """`{"token": "...", "version": N}` -> (token, N)."""
    try:
        message = parse_json(raw, MAX_MESSAGE)
    except BadJson as exc:
        raise BadFirstMessage(f"expected a JSON object as the first message: {exc}") from exc
    token = message.get("token") if isinstance(message, dict) else None
    if not isinstance(token, str) or not token:
        raise BadFirstMessage('expected {"token": "<seat token>", "version": N} first')
    version = message.get("version")
    if isinstance(version, bool) or not isinstance(version, int) or version < 0:
        version = None
    return token, version


class LivePage:
    def __init__(self, ws: WebSocket, game_id: str, service: GameService, heartbeat: float):
        self.ws = ws
        self.game_id = game_id
        self.service = service
        self.heartbeat = heartbeat
        self.who = Seat(game_id, "")
        self.page_version: int | None = None
        self.view: dict[str, Any] | None = None  # shared with the service: read only
        # each region (or a region's part, render.part_name) as the page has it (issue 34:
        # what changed in it is sent, not the whole)
        self.shown = Shown()
        self.regions = render.LiveRegions()
        # The events the seat may read, through action `log_seq` of the log (None: to be
        # read again), kept up by the news of this process's commits (`on_log`).
        self.log: list[dict[str, Any]] | None = None
        self.log_seq = 0
        self.computer: list[str] = []  # issue 35: the seats the computer plays

    async def run(self) -> None:
        await self.ws.accept()
        sub: Subscriber | None = None
        try:
            token, self.page_version = await self.first_message()
            seat = await self.service.authenticate(self.game_id, token)
            self.who = Seat(self.game_id, seat)
            self.computer = sorted(await self.service.computer_seats(self.game_id))
            sub = Subscriber(self.game_id, seat, self.on_message, None, on_log=self.on_log)
            await self.service.follow(sub)
            await self.live(sub)
        except GameError as exc:
            await self.fail(exc.message, 4000 + exc.status)
        except BadFirstMessage as exc:
            await self.fail(str(exc), 4400)
        except BadFrame as exc:  # once live, the page sends nothing; a binary frame ends it
            await self.fail(str(exc), 4400)
        except WebSocketDisconnect:
            pass
        finally:
            if sub is not None:
                self.service.unfollow(sub)

    async def first_message(self) -> tuple[str, int | None]:
        try:
            raw = await asyncio.wait_for(receive_text(self.ws), FIRST_MESSAGE_SECONDS)
        except TimeoutError as exc:
            raise BadFirstMessage("no first message within 10 seconds") from exc
        except BadFrame as exc:
            raise BadFirstMessage(str(exc)) from exc
        return parse_first(raw)

    async def live(self, sub: Subscriber) -> None:
        beat = asyncio.create_task(self.beat(sub))
        try:
            while True:
                await receive_text(self.ws)  # nothing to say; reading notices the close
        finally:
            beat.cancel()
            with contextlib.suppress(BaseException):
                await beat

    async def beat(self, sub: Subscriber) -> None:
        """Now and then make sure nothing was missed (DESIGN.md: a lost broker message)."""
        while True:
            await asyncio.sleep(self.heartbeat)
            await self.service.recheck(sub)

    async def on_message(self, message: dict[str, Any]) -> None:
        """The game service's news for this seat: a whole view, or a patch to the last."""
        if message.get("type") == "view":
            self.view = message["view"]  # shared: read only
            if message.get("version") == self.page_version and not self.shown.regions:
                for name, html in (await self.render()).items():
                    self.shown.has(name, html)
                await self.ws.send_text(render.synced(self.version))  # the page has it all
                return
        elif message.get("type") == "patch" and self.view is not None:
            t = STAGES.clock()
            # The document the patch leads to, as the commit made it, when this process
            # holds it (no copy, nothing applied); else the patch applied to a copy.
            known = self.service.doc_in_memory(self.game_id, self.who.seat, message["version"])
            try:
                self.view = known or patched(self.view, message["patch"])
            except (jsonpatch.JsonPatchException, jsonpatch.JsonPointerException):
                self.view = await self.service.view(self.game_id, self.who.seat)
            STAGES.lap("page", t)
        elif message.get("type") == "redraw" and self.view is not None:
            pass  # issue 30: the seat's standing Done changed
        else:
            return
        await self.push()

    def on_log(self, seq: int | None, events: list[dict[str, Any]]) -> None:
        """Action `seq` of the log was committed here, and these are the seat's events of
        it; None: the log changed otherwise (a take-back, another process), read it again."""
        if seq is not None and self.log is not None and seq == self.log_seq + 1:
            self.log.extend(events)
            self.log_seq = seq
        else:
            self.log = None

    @property
    def version(self) -> int:
        return int((self.view or {}).get("version") or 0)

    async def render(self) -> dict[str, str]:
        """The regions whose inputs changed since they were last rendered."""
        assert self.view is not None
        if self.log is None:
            self.log_seq, self.log = await self.service.log_through(self.game_id, self.who.seat)
        view = {**self.view, "computer": self.computer} if self.computer else self.view
        view = await self.service.with_standing(self.game_id, self.who.seat, view)
        t = STAGES.clock()
        regions = self.regions.render(view, self.log, self.who)
        STAGES.lap("page", t)
        return regions

    async def push(self) -> None:
        fresh = await self.render()
        t = STAGES.clock()
        out = [render.synced(self.version)]
        out.append(self.shown.message(fresh))
        t = STAGES.lap("page", t)
        await self.ws.send_text("".join(out))
        STAGES.lap("send", t)

    async def fail(self, message: str, code: int) -> None:
        with contextlib.suppress(Exception):
            await self.ws.send_text(render.flash(message, "error"))
            await self.ws.close(code=code)


def patched(view: dict[str, Any], patch: list[Any]) -> dict[str, Any]:
    """`patch` applied to the view as its JSON says it is. The service's documents share
    objects between their parts (one list for Midway's Normal Strike box under two keys,
    a unit's factors on the board and on the card, an umpire's report and its truth), and
    a patch names each part by its own path: in a copy that kept such a part shared (a
    deep copy does), an insertion into it would be made twice. Nor may the patch's
    values, which the service and its other sockets share, be changed by a later
    operation of the same patch."""
    doc: dict[str, Any] = json.loads(json.dumps(view))
    result: dict[str, Any] = jsonpatch.apply_patch(doc, json.loads(json.dumps(patch)), True)
    return result


@router.websocket("/games/{game_id}/live")
async def live_page(ws: WebSocket, game_id: str) -> None:
    settings = ws.app.state.settings
    await LivePage(ws, game_id, ws.app.state.service, settings.heartbeat_seconds).run()
