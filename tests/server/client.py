"""A small client of the HTTP contract (DESIGN.md, HTTP API), as a bot would write it."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any

import httpx
import jsonpatch
from websockets.asyncio.client import ClientConnection


@dataclass
class Game:
    id: str
    tokens: dict[str, str]
    body: dict[str, Any]

    def auth(self, seat: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[seat]}"}


class Api:
    def __init__(self, base_url: str) -> None:
        self.http = httpx.Client(base_url=base_url, timeout=30)

    def close(self) -> None:
        self.http.close()

    def __enter__(self) -> Api:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def create(self, seed: int | None = 7, scenario: str = "one", **extra: Any) -> Game:
        body: dict[str, Any] = {"scenario": scenario, **extra}
        if seed is not None:
            body["seed"] = seed
        r = self.http.post("/api/games", json=body)
        assert r.status_code == 201, r.text
        data = r.json()
        return Game(data["id"], {s["seat"]: s["token"] for s in data["seats"]}, data)

    def view(self, game: Game, seat: str) -> dict[str, Any]:
        r = self.http.get(f"/api/games/{game.id}", headers=game.auth(seat))
        assert r.status_code == 200, r.text
        view: dict[str, Any] = r.json()
        return view

    def act(self, game: Game, seat: str, version: int, action: dict[str, Any]) -> httpx.Response:
        return self.http.post(
            f"/api/games/{game.id}/actions",
            json={"version": version, "action": action},
            headers=game.auth(seat),
        )

    def acting_seat(self, game: Game) -> tuple[str, dict[str, Any]] | None:
        """A seat with something to do now, and its view."""
        for seat in game.tokens:
            view = self.view(game, seat)
            if view["prompt"]["actions"]:
                return seat, view
        return None

    def idle_seat(self, game: Game) -> tuple[str, dict[str, Any]] | None:
        """A seat with nothing to do now, and its view."""
        for seat in game.tokens:
            view = self.view(game, seat)
            if not view["prompt"]["actions"]:
                return seat, view
        return None

    def play(self, game: Game, steps: int, rng: random.Random) -> int:
        """Take up to `steps` random legal actions; the number taken."""
        for taken in range(steps):
            found = self.acting_seat(game)
            if found is None:
                return taken
            seat, view = found
            action = rng.choice(view["prompt"]["actions"])
            if action.get("text") == "":  # 17c3: a note's text is the writer's
                action = {**action, "text": "Holding course"}
            r = self.act(game, seat, view["version"], action)
            assert r.status_code == 200, r.text
        return steps


async def receive(ws: ClientConnection, timeout: float = 10) -> dict[str, Any]:
    """The next server message that is not a heartbeat."""
    import asyncio

    while True:
        message: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), timeout))
        if message["type"] != "heartbeat":
            return message


def apply_patch(doc: dict[str, Any], patch: list[dict[str, Any]]) -> dict[str, Any]:
    patched: dict[str, Any] = jsonpatch.apply_patch(doc, patch)
    return patched
