"""Games set up over the HTTP API (a seed is allowed: the test server runs with
MIDWAY_ALLOW_SEED=1), for the tests that are about the page rather than the clicking."""

from __future__ import annotations

from dataclasses import dataclass
from http.cookiejar import CookieJar, DefaultCookiePolicy
from typing import Any

import httpx

SEED = 10
# The API calls of the page tests, on one client: httpx.get() and httpx.post() make a
# client of their own each time, and with it an SSL context (about 45 ms; 955 of them
# took 49 s of the page checks' and the team game's 140 s). It keeps no cookie, so each
# call is still sent as by a client of its own.
HTTP = httpx.Client(cookies=CookieJar(policy=DefaultCookiePolicy(allowed_domains=[])))


@dataclass
class ApiGame:
    base: str
    id: str
    tokens: dict[str, str]

    @classmethod
    def create(cls, base: str, seed: int = SEED, scenario: str = "one") -> ApiGame:
        r = HTTP.post(f"{base}/api/games", json={"scenario": scenario, "seed": seed})
        assert r.status_code == 201, r.text
        body = r.json()
        return cls(base, body["id"], {s["seat"]: s["token"] for s in body["seats"]})

    def link(self, seat: str) -> str:
        return f"{self.base}/games/{self.id}/seat/{seat}#token={self.tokens[seat]}"

    def auth(self, seat: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[seat]}"}

    def view(self, seat: str) -> dict[str, Any]:
        r = HTTP.get(f"{self.base}/api/games/{self.id}", headers=self.auth(seat))
        assert r.status_code == 200, r.text
        view: dict[str, Any] = r.json()
        return view

    def act(self, seat: str, **action: str) -> None:
        version = self.view(seat)["version"]
        r = HTTP.post(
            f"{self.base}/api/games/{self.id}/actions",
            json={"version": version, "action": action},
            headers=self.auth(seat),
        )
        assert r.status_code == 200, (action, r.text)

    def regions(self, seat: str) -> str:
        r = HTTP.get(f"{self.base}/games/{self.id}/regions", headers=self.auth(seat))
        assert r.status_code == 200, r.text
        return r.text

    def pass_until(self, step: str, turn: int | None = None) -> None:
        """Both sides say Done, in turn, until `step` (of `turn`) asks something."""
        for _ in range(100):
            seat = next(s for s in ("japan", "usa") if self.view(s)["prompt"]["actions"])
            view = self.view(seat)
            if view["step"] == step and (turn is None or view["turn"] == turn):
                return
            self.act(seat, kind="done")
        raise AssertionError(f"never reached {step}")

    def finish(self) -> None:
        """Both sides say Done until the game is over."""
        for _ in range(500):
            seats = [s for s in ("japan", "usa") if self.view(s)["prompt"]["actions"]]
            if not seats:
                return
            self.act(seats[0], kind="done")
        raise AssertionError("the game did not end")

    # -- the moves of the end-to-end test, without the clicking ---------------------------

    def set_up(self, japan_hex: str = "J2") -> None:
        self.act("japan", kind="place", force="MobileForce", hex=japan_hex)
        self.act("japan", kind="done")
        self.act("usa", kind="place", force="TF17", hex="L2")
        self.act("usa", kind="place", force="TF16", hex="N4")
        self.act("usa", kind="done")

    def to_air_movement(self) -> None:
        self.pass_until("assembly", turn=8)
        for unit in ("O", "B3", "B5", "T3"):
            self.act("usa", kind="launch", unit=unit)
        self.pass_until("air movement and search")

    def to_anti_aircraft(self) -> None:
        self.to_torpedo_approach()
        self.act("usa", kind="approach", unit="T3", target="Akagi", hex="I11")
        self.act("japan", kind="aa", ship="Akagi", unit="B5")
        self.act("japan", kind="fire")

    def to_torpedo_approach(self) -> None:
        """Hex J2: Akagi in J11 facing N, the rest in formation, B3 and B5 on Akagi; T3
        still to approach (4a3.2)."""
        for h in ("K2", "J2"):
            self.act("usa", kind="fly", group="O", hex=h)
        self.act("usa", kind="search", hex="J2")
        for h in ("K2", "J2"):
            self.act("usa", kind="fly", group="L2-strike", hex=h)
        self.act("usa", kind="done")
        self.act("japan", kind="done")
        self.act("japan", kind="face", direction="N")
        self.act("japan", kind="position", unit="Akagi", hex="J11")
        self.act("japan", kind="formation")
        for unit in ("B3", "B5"):
            self.act("usa", kind="target", unit=unit, target="Akagi")

    def to_turn_nine(self) -> None:
        self.act("japan", kind="done")
        self.act("usa", kind="bomb", target="Akagi", category="dive")
        self.pass_until("air return")
        for unit in ("B3", "B5", "T3", "O"):
            self.act("usa", kind="land", unit=unit, at="Yorktown")
