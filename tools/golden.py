"""Golden playthroughs (issue 33): what every seat received in seeded games, kept as files.

    python -m tools.golden               compare every playthrough with its file
    python -m tools.golden --regenerate  write the files anew (after an intended change)
    python -m tools.golden --only one-    only the playthroughs whose name holds "one-"

A playthrough is a scenario in a mode, with or without teams (where 17a offers them), with
no optional rule or with every one the scenario and the mode accept. A seeded agent plays
it through the engine as the server loads it (app/games/engine.py) for at most
`MAX_ACTIONS` actions; before the first action and after each one, every seat of the game
and a spectator get what the server gives them: the view (`views`, whose prompt holds
the seat's legal actions), the legal actions, and the events of the action each may read
(app/games/states.py `told`, with "all": the finished game's replay).

Each playthrough is one gzip file of JSON lines under tests/golden/ (written with mtime 0:
the same game gives the same bytes). A line holds one step: the action, and per seat the
events, the legal actions and the view as a patch against the seat's view of the step
before (the first line holds the views whole). Reading a file rebuilds the views whole,
so a difference is told as the first field that differs, at which step, for which seat.

The agent is this module's own (not the fuzzer's: a change to the fuzzer must not change
the goldens), and knows the game through the engine's contract only, so that the engine's
modules and state may be rearranged under it. Like the fuzzer's it leans toward the
enemy, reading his true positions (the omniscient view), so that searches and battles
happen within the actions played.
"""

from __future__ import annotations

import argparse
import gzip
import io
import json
import random
import sys
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import zip_longest
from pathlib import Path
from typing import Any

from app.data import catalog
from app.data.options import optional_rules
from app.games.diff import same
from app.games.engine import OMNISCIENT, SPECTATOR, Engine, load_engine, side_of
from app.games.states import told
from app.rules.base.setup import playable
from app.rules.board.boards import board_of
from app.rules.modes.audiences import MODES, mode_of
from app.rules.modes.seats import teams_offered

GOLDEN = Path(__file__).resolve().parents[1] / "tests" / "golden"
MAX_ACTIONS = 500
SEED = 33
REGENERATE = "python -m tools.golden --regenerate"

Json = dict[str, Any]


@dataclass(frozen=True)
class Playthrough:
    scenario: str
    mode: str
    teams: bool
    options: str  # "none" or "all"

    @property
    def name(self) -> str:
        teams = "-teams" if self.teams else ""
        return f"{self.scenario}-{self.mode}{teams}-{self.options}"

    @property
    def path(self) -> Path:
        return GOLDEN / f"{self.name}.jsonl.gz"

    def chosen(self) -> frozenset[str]:
        """None, or every optional rule the scenario offers that the mode accepts (18:
        the umpired modes refuse 11a); the scenario adds those it brings (7e)."""
        if self.options == "none":
            return frozenset()
        refused = {rule for rule, _ in mode_of(self.mode).refuses}
        return frozenset(o for o in optional_rules().offered(self.scenario) if o not in refused)


def playthroughs() -> list[Playthrough]:
    """Every playable scenario x mode x teams (where offered) x options none and all."""
    out = []
    for spec in catalog().scenarios.values():
        if not playable(spec):
            continue
        for mode in MODES:
            for teams in (False, True) if teams_offered(spec) else (False,):
                for options in ("none", "all"):
                    out.append(Playthrough(spec.id, mode, teams, options))
    return out


# ---------------------------------------------------------------- the agent

# 18c: how often the umpire acts between two of the players' actions, with a report
# waiting for him and without
_UMPIRE_ACTS = (0.3, 0.02)
_UMPIRE_WEIGHTS = {"release-report": 8.0, "edit-report": 3.0, "hold-report": 2.0}
_SAID = ("nothing", "something", "smoke on the horizon", "12 ships")  # 18d
_DAMAGE_SAID = ("eliminated", "flipped", "flipped and 1 hit", "1 hit", "2 hits")  # 18c2
_WORDS = ("strike", "at", "dawn", "hold", "east", "of", "Midway", "carriers", "in", "M5")
_SIDES = ("japan", "usa")


class Agent:
    """A seeded player of every seat, umpire included. It knows the game through the
    engine's contract only (seats, legal actions, views; the enemy's positions from the
    omniscient view, the reports from the umpire's) and the board's geometry: however
    the engine's modules and state are arranged, the same game gives the same choices."""

    def __init__(self, engine: Engine, play: Playthrough, state: Any) -> None:
        self.engine = engine
        self.rng = random.Random(f"{SEED}:{play.name}")
        self.board = board_of(play.scenario)
        seats = engine.seats(state)
        self.players: list[str] = [s["seat"] for s in seats if s["side"] is not None]
        self.umpire: str | None = next((s["seat"] for s in seats if s["side"] is None), None)

    def act(self, state: Any) -> tuple[str, Any, list[Any], Json]:
        """Who acts, and the state, events and action after his action. Should the rules
        refuse the words written (an edited report's, 18c2), that kind of action is left
        alone and another picked."""
        seat = self._seat(state)
        refused: set[str] = set()
        while True:
            action = self._written(state, self._pick(state, seat, refused))
            try:
                nxt, events = self.engine.apply(state, seat, action)
            except self.engine.illegal_action:
                if action.template is action:  # nothing written: no legal action taken
                    raise
                refused.add(action.kind)
                continue
            return seat, nxt, events, self.engine.action_json(action)

    def _seat(self, state: Any) -> str:
        rng, legal = self.rng, self.engine.legal_actions
        if self.umpire is not None:
            waiting = any(a.kind == "release-report" for a in legal(state, self.umpire))
            if rng.random() < _UMPIRE_ACTS[0 if waiting else 1] and legal(state, self.umpire):
                return self.umpire
        ready = [s for s in self.players if legal(state, s)]
        if not ready:
            raise AssertionError("dead end: no seat has an action")
        return ready[0] if len(ready) == 1 else rng.choice(ready)

    def _pick(self, state: Any, seat: str, refused: set[str]) -> Any:
        """A random legal action, leaning toward the enemy's true positions (so that
        battles happen) and toward taking off, landing and finishing steps."""
        rng = self.rng
        acts = [a for a in self.engine.legal_actions(state, seat) if a.kind not in refused]
        by_kind: dict[str, list[Any]] = {}
        for a in acts:
            by_kind.setdefault(a.kind, []).append(a)
        kinds = sorted(by_kind)
        if seat == self.umpire:
            kind = rng.choices(kinds, [_UMPIRE_WEIGHTS.get(k, 1.0) for k in kinds])[0]
            return rng.choice(by_kind[kind])
        for kind, lean in (("fly", 0.7), ("route", 0.7), ("move", 0.6), ("enter", 0.6)):
            if kind in by_kind and rng.random() < lean:
                enemy = self._enemy(state, seat)
                return min(
                    by_kind[kind],
                    key=lambda a: (self._nearest(enemy, a.get("hex")), rng.random()),
                )
        for kind, lean in (("launch", 0.8), ("land", 0.9)):
            if kind in by_kind and rng.random() < lean:
                return rng.choice(by_kind[kind])
        if "done" in by_kind and (len(acts) == 1 or rng.random() < 0.35):
            return by_kind["done"][0]
        kind = rng.choice(kinds)
        return rng.choice(by_kind[kind])

    def _enemy(self, state: Any, seat: str) -> list[str]:
        """Where the enemy's task forces are, in truth (a test's agent may cheat)."""
        enemy = next(s for s in _SIDES if s != side_of(seat))
        boards = self.engine.view(state, OMNISCIENT)["searchboards"]
        return list(boards[enemy]["forces"].values())

    def _nearest(self, enemy: list[str], hex_: str) -> int:
        return min((self.board.distance(hex_, h) for h in enemy), default=0)

    def _written(self, state: Any, action: Any) -> Any:
        """The action with its text written: the words of a note or a message (17c3,
        18c), of an edited report the words its rule reads (18c2, 18d)."""
        if action.is_written:
            return action
        if action.kind == "edit-report":
            assert self.umpire is not None
            reports = self.engine.view(state, self.umpire)["umpire"]["reports"]
            kind = next(r["reports"] for r in reports if r["report"] == action.get("report"))
            return action.written(text=self.rng.choice(_DAMAGE_SAID if kind == "damage" else _SAID))
        words = (self.rng.choice(_WORDS) for _ in range(self.rng.randint(1, 6)))
        return action.written(text=" ".join(words))


# ---------------------------------------------------------------- the records


def steps(engine: Engine, play: Playthrough) -> Iterator[Json]:
    """The records of `play`, one a step, each view whole as the engine made it (read
    them, never change them): step 0 is the new game."""
    state = engine.new_game(play.scenario, play.chosen(), SEED, play.mode, play.teams)
    agent = Agent(engine, play, state)
    seats = (*engine.seat_ids(state), SPECTATOR)
    by: str | None = None
    action: Json | None = None
    events: list[Any] = []
    for i in range(MAX_ACTIONS + 1):
        seen = told(engine, state, events)
        views = engine.views(state, seats)
        record: Json = {"step": i, "by": by, "action": action, "all": seen["all"]}
        record["seats"] = {
            s: {
                "events": seen[s],
                "legal": [engine.action_json(a) for a in engine.legal_actions(state, s)],
                "view": views[s],
            }
            for s in seats
        }
        yield record
        if views[SPECTATOR]["status"] == "finished" or i == MAX_ACTIONS:
            return
        by, state, events, action = agent.act(state)


def lines(engine: Engine, play: Playthrough) -> Iterator[bytes]:
    """The records of `play` as the lines of its file: JSON, keys sorted, each view a
    patch of the seat's view of the step before."""
    last: dict[str, Any] = {}
    for record in steps(engine, play):
        seats = {}
        for seat, got in record["seats"].items():
            view = got["view"]
            seats[seat] = {**got, "view": diff(last[seat], view) if seat in last else {"=": view}}
            last[seat] = view
        line = {**record, "seats": seats}
        yield json.dumps(line, sort_keys=True, separators=(",", ":"), allow_nan=False).encode()


def diff(old: Any, new: Any) -> Json:
    """`new` as a patch of `old`: of two objects, {"~": {key: patch}, "-": [removed]};
    anything else is replaced whole, {"=": new}. Equal means equal as JSON (1 is not
    true, app/games/diff.py `same`)."""
    if isinstance(old, dict) and isinstance(new, dict):
        changed = {
            k: diff(old[k], v) if k in old else {"=": v}
            for k, v in new.items()
            if k not in old or not same(old[k], v)
        }
        removed = sorted(k for k in old if k not in new)
        patch: Json = {}
        if changed:
            patch["~"] = changed
        if removed:
            patch["-"] = removed
        return patch
    return {"=": new}


def patched(old: Any, patch: Json) -> Any:
    """The inverse of `diff`."""
    if "=" in patch:
        return patch["="]
    out = dict(old)
    for k in patch.get("-", ()):
        del out[k]
    for k, p in patch.get("~", {}).items():
        out[k] = patched(out.get(k), p)
    return out


def encode(lines: Iterable[bytes]) -> bytes:
    """The lines gzip-compressed, the same bytes for the same lines (mtime 0)."""
    buf = io.BytesIO()
    with gzip.GzipFile(fileobj=buf, mode="wb", mtime=0, compresslevel=9) as z:
        for line in lines:
            z.write(line + b"\n")
    return buf.getvalue()


def decode(lines: Iterable[bytes]) -> Iterator[Json]:
    """The records of a file's lines, each view whole again."""
    last: dict[str, Any] = {}
    for line in lines:
        record = json.loads(line)
        for seat, got in record["seats"].items():
            got["view"] = last[seat] = patched(last.get(seat), got["view"])
        yield record


def read(play: Playthrough) -> list[bytes]:
    return gzip.decompress(play.path.read_bytes()).splitlines()


# ---------------------------------------------------------------- comparing


def first_difference(old: Any, new: Any, path: str = "") -> str | None:
    """Where `new` first differs from `old`, and how: a path and both values, or None."""
    if isinstance(old, dict) and isinstance(new, dict):
        for k in sorted(set(old) | set(new)):
            if k not in new:
                return f"{path}/{k}: was {_short(old[k])}, now missing"
            if k not in old:
                return f"{path}/{k}: was missing, now {_short(new[k])}"
            found = first_difference(old[k], new[k], f"{path}/{k}")
            if found is not None:
                return found
        return None
    if isinstance(old, list) and isinstance(new, list):
        for n, (a, b) in enumerate(zip(old, new, strict=False)):
            found = first_difference(a, b, f"{path}/{n}")
            if found is not None:
                return found
        if len(new) > len(old):
            return f"{path}/{len(old)}: was missing, now {_short(new[len(old)])}"
        if len(old) > len(new):
            return f"{path}/{len(new)}: was {_short(old[len(new)])}, now missing"
        return None
    if old != new or type(old) is not type(new):
        return f"{path or '/'}: was {_short(old)}, now {_short(new)}"
    return None


def _short(value: Any, most: int = 300) -> str:
    text = json.dumps(value, sort_keys=True)
    return text if len(text) <= most else text[:most] + f"... ({len(text)} characters)"


def compare(engine: Engine, play: Playthrough) -> str | None:
    """None when the engine gives what the file holds; else what first differs."""
    if not play.path.exists():
        return f"{play.name}: no golden file {play.path}; make it with `{REGENERATE}`"
    return compare_lines(play, read(play), lines(engine, play))


def compare_lines(play: Playthrough, golden: list[bytes], fresh: Iterable[bytes]) -> str | None:
    """None when the lines are the same; else which step, which seat and which field
    first differs, both values, and how to regenerate."""
    now: list[bytes] = []
    for want, got in zip_longest(golden, fresh):
        if got is not None:
            now.append(got)
        if want != got:
            break
    else:
        return None
    if want is None:
        where = f"{len(golden)} steps recorded, the game now goes on after them"
    elif got is None:
        where = f"{len(golden)} steps recorded, the game now ends after {len(now)}"
    else:
        old = list(decode(golden[: len(now)]))[-1]
        new = list(decode(now))[-1]
        before = (
            "the new game"
            if old["by"] is None
            else f"after {old['by']}'s {_short(old['action'], 120)}"
        )
        where = f"step {old['step']} ({before}): " + (_where(old, new) or "the same once read back")
    return (
        f"{play.name} ({play.path.name}), {where}\nIf the change is intended, regenerate the "
        f"goldens with `{REGENERATE}` and commit them in a commit of their own saying why."
    )


def _where(want: Json, got: Json) -> str | None:
    """The first difference of two records: the action, then seat by seat."""
    for key in ("by", "action"):
        found = first_difference(want[key], got[key])
        if found is not None:
            return f"{key} {found}"
    found = first_difference(sorted(want["seats"]), sorted(got["seats"]))
    if found is not None:
        return f"seats {found}"
    for seat in want["seats"]:
        for part in ("events", "legal", "view"):
            found = first_difference(want["seats"][seat][part], got["seats"][seat][part])
            if found is not None:
                return f"seat {seat}, {part} {found}"
    found = first_difference(want["all"], got["all"])
    return None if found is None else f"the replay's events (all) {found}"


def summary(records: Iterable[Json]) -> tuple[int, int, int]:
    """How many actions, searches and battles (the air battles of 4, the surface combats
    of 16) a playthrough has: issue 33 asks for battles in most."""
    actions = searches = battles = 0
    for r in records:
        actions = r["step"]
        kinds = [e["kind"] for e in r["all"]]
        searches += sum(1 for k in kinds if "search" in k)
        battles += sum(1 for k in kinds if k in ("battle", "surface-set-up"))
    return actions, searches, battles


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--regenerate", action="store_true", help="write the files anew")
    parser.add_argument("--only", default="", help="the playthroughs whose name holds this")
    args = parser.parse_args()
    engine = load_engine("app.rules")
    failed = 0
    total = 0
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for play in playthroughs():
        if args.only not in play.name:
            continue
        start = time.perf_counter()
        if args.regenerate:
            data = encode(lines(engine, play))
            play.path.write_bytes(data)
            total += len(data)
            actions, searches, battles = summary(decode(read(play)))
            print(
                f"{play.name}: actions={actions} searches={searches} battles={battles} "
                f"bytes={len(data)} "
                f"seconds={time.perf_counter() - start:.1f}"
            )
            continue
        problem = compare(engine, play)
        if problem is not None:
            failed += 1
            print(f"DIFFERS {problem}", file=sys.stderr)
        else:
            print(f"{play.name}: same ({time.perf_counter() - start:.1f} s)")
    if args.regenerate:
        print(f"total bytes={total}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
