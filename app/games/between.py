"""What happens between moves (issue 14), for the web layer: a seat's glance at its game
(for "my games"), the page's pulse (presence and new chat), chat, the lobby and records.
Everything runs in worker threads, like the game service it sits beside."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from anyio import to_thread

from app.games.chat import Chat
from app.games.engine import Json
from app.games.lobby import Lobby, check_keep
from app.games.models import utcnow
from app.games.notices import CannotClaim, Notices, check_pace
from app.games.outbox import Notice, Outbox
from app.games.presence import Presence
from app.games.records import Records
from app.games.service import GameService
from app.games.store import Created, check_id
from app.games.webhooks import WebhookPolicy, parse_networks
from app.settings import Settings

log = logging.getLogger(__name__)


def glance(view: Json, names: dict[str, str]) -> Json:
    """What "my games" shows of a seat's game: nothing its view does not say."""
    status = str(view.get("status", ""))
    finished = status == "finished"
    mine = bool((view.get("prompt") or {}).get("actions"))
    about = view.get("scenario")
    scenario = str(about.get("id", "")) if isinstance(about, dict) else str(about or "")
    return {
        "id": view["id"],
        "seat": view["seat"],
        "scenario": scenario,
        "scenario_name": str(about.get("name", scenario))
        if isinstance(about, dict)
        else names.get(scenario, scenario),
        "turn": view.get("turn"),
        "status": status,
        "state": "finished" if finished else "your move" if mine else "waiting",
        "your_move": mine and not finished,
    }


@dataclass
class Between:
    service: GameService
    presence: Presence
    chat: Chat
    lobby: Lobby
    records: Records
    notices: Notices
    _ticker: asyncio.Task[None] | None = field(default=None, repr=False)

    @classmethod
    def build(cls, service: GameService, settings: Settings | None = None) -> Between:
        settings = settings or Settings()
        db, engine = service.store.db, service.store.engine
        webhooks = WebhookPolicy(parse_networks(settings.webhook_allow_networks))
        outbox = Outbox(
            settings.smtp_host,
            settings.smtp_port,
            settings.smtp_from,
            settings.notice_send_seconds,
            webhooks,
        )
        notices = Notices(
            db,
            outbox,
            lambda: between.scenario_names(),
            settings.base_url,
            webhooks,
            send_seconds=settings.notice_send_seconds,
        )
        between = cls(service, Presence(db), Chat(db), Lobby(db), Records(db, engine), notices)
        return between

    # -- the clock of notices and paces ---------------------------------------------------

    def start(self, every: float) -> None:
        if every > 0:
            self._ticker = asyncio.create_task(self._tick_every(every))

    async def stop(self) -> None:
        if self._ticker is not None:
            self._ticker.cancel()
            with contextlib.suppress(BaseException):
                await self._ticker
        await to_thread.run_sync(self.notices.close)

    async def _tick_every(self, every: float) -> None:
        while True:
            await asyncio.sleep(every)
            try:
                await self.tick(utcnow())
            except Exception:
                log.warning("the notices' tick failed", exc_info=True)

    def your_move(self, game_id: str, seat: str) -> bool:
        view = self.service.store.seat_view(game_id, seat)
        return bool(view["prompt"]["actions"]) and view.get("status") != "finished"

    async def tick(self, now: datetime) -> list[tuple[str, Notice]]:
        return await to_thread.run_sync(self.notices.tick, now, self.your_move)

    async def opt_in(
        self, game_id: str, seat: str, email: str | None, webhook: str | None, hours: int | None
    ) -> Json:
        return await to_thread.run_sync(self.notices.opt_in, game_id, seat, email, webhook, hours)

    async def set_pace(self, game_id: str, days: int | None, vacation: int) -> None:
        await to_thread.run_sync(self.notices.set_pace, game_id, days, vacation)

    async def claim(self, game_id: str, seat: str) -> None:
        about = await to_thread.run_sync(self.service.store.seats, game_id)
        sides = {str(s["seat"]): s.get("side") for s in about}
        if sides.get(seat, "") is None:
            raise CannotClaim("the umpire plays no side: only a player may claim the game (18)")
        await to_thread.run_sync(self.notices.claim, game_id, seat, self.your_move)

    def scenario_names(self) -> dict[str, str]:
        return {s["id"]: str(s.get("name", s["id"])) for s in self.service.scenarios()}

    async def glance(self, game_id: str, seat: str) -> Json:
        seen = glance(await self.service.view(game_id, seat), self.scenario_names())
        pace = await to_thread.run_sync(self.notices.pace, game_id, seat)
        if pace is not None and pace["claimed_by"]:
            seen.update(state="finished", your_move=False, status="claimed")
        return seen | {"pace": pace}

    async def pulse(self, game_id: str, seat: str, place: str, since: int) -> Json:
        await to_thread.run_sync(self.presence.seen, game_id, seat, place)
        presence = await to_thread.run_sync(self.presence.report, game_id, seat, place)
        chat = await to_thread.run_sync(self.chat.read, game_id, seat, since)
        seats = await to_thread.run_sync(self.seats, game_id)
        channels = await to_thread.run_sync(self.chat.channels, game_id, seat, seats)
        glance = await self.glance(game_id, seat)
        return {"glance": glance, "presence": presence, "chat": chat, "channels": channels}

    def seats(self, game_id: str) -> tuple[str, ...]:
        """The game's seats, as the engine declares them (not a list kept here)."""
        return tuple(str(s["seat"]) for s in self.service.store.seats(game_id))

    async def say(self, game_id: str, seat: str, audience: str, text: str) -> Json:
        seats = await to_thread.run_sync(self.seats, game_id)
        return await to_thread.run_sync(self.chat.post, game_id, seat, audience, text, seats)

    async def messages(self, game_id: str, seat: str, since: int) -> list[Json]:
        return await to_thread.run_sync(self.chat.read, game_id, seat, since)

    async def open_game(
        self,
        scenario: str,
        options: list[str],
        mode: str,
        keep: str | None,
        seed: int | None,
        pace: tuple[int | None, int] = (None, 0),
        teams: bool = False,
    ) -> tuple[Created, tuple[str, ...]]:
        """Create a game opened to anyone: (the creation, the seats left free)."""
        check_pace(*pace)
        created = await self.service.create(scenario, options, mode, seed, teams)
        everyone = check_keep(keep, tuple(s.seat for s in created.seats))
        # 18: the umpire's seat (the one of no side) is the creator's: never free to join
        players = {s.seat for s in created.seats if s.about.get("side") is not None}
        free = tuple(s for s in everyone if s in players)
        await to_thread.run_sync(self.lobby.open, created.id, free)
        await self.set_pace(created.id, *pace)
        return created, free

    async def offered(self, game_id: str) -> dict[str, bool]:
        check_id(game_id)
        return await to_thread.run_sync(self.lobby.offered, game_id)

    async def listing(self) -> list[Json]:
        names = self.scenario_names()
        games = await to_thread.run_sync(self.lobby.listing)
        out = []
        for g in games:
            days = g["pace_days"]
            out.append(
                g
                | {
                    "scenario_name": names.get(g["scenario"], g["scenario"]),
                    "pace": f"{days} day{'s' if days != 1 else ''} a move" if days else "no pace",
                }
            )
        return out

    async def join(self, game_id: str, seat: str | None) -> tuple[str, str]:
        check_id(game_id)
        joined = await to_thread.run_sync(self.lobby.join, game_id, seat)
        self.service.store.forget_tokens(game_id)
        return joined

    async def export(self, game_id: str) -> Json:
        check_id(game_id)
        replay = await self.service.replay(game_id)
        return await to_thread.run_sync(self.records.export, game_id, replay)

    async def import_(self, record: Any) -> str:
        return await to_thread.run_sync(self.records.import_, record)
