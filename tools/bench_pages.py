"""Page figures of issue 34 (`make bench`; `python -m tools.bench_pages [theatre] [replay]`
alone), in process, one core:

theatre_view_ms_p50   a seat's GET of its page at a mid-game Coral Sea position (Pacific
                      Theatre Via Midway), what GET /games/{id}/regions does after the seat's
                      token is checked: the seat's view document read (app.games.store
                      seat_view: the game's rows, its state and document from memory as a
                      live game's are), its log read from the database (store.log) and every
                      region of the seat page rendered (app.web.render.regions). The game is
                      random, every option the scenario offers, played through a store on
                      SQLite; both seats GET after each of 40 successive actions from the
                      middle of it (each a new version: nothing of it rendered before). The
                      median, in CPU time of the thread (the machine is shared: its clock
                      counts the others' work too; `theatre_view_wall_ms_p50` is by the clock)
theatre_view_json_ms_p50  the API's GET of the same (GET /api/games/{id}): the view
                      document read and written as JSON (measured before the page's GET)
replay_page_cold_ms   a finished Scenario Two game (every option on) that this process does
                      not hold: the replay page's first GET (its last step, its first seat),
                      its record read from a SQLite database and the page rendered; the
                      median of 5, each with nothing of the game kept in memory, in CPU
                      time (`replay_page_cold_wall_ms` by the clock). The game was replayed
                      once before (`replay_page_first_ms`, by the clock: the first replay
                      ever, which keeps what the others read: app/games/replays.py)
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from app.data import catalog
from app.data.options import optional_rules
from app.games.db import Database
from app.games.engine import load_engine
from app.games.records import FORMAT, Records
from app.games.replays import Replays
from app.games.seeds import commitment
from app.games.store import GameStore
from app.rules import apply, new_game
from app.rules.base.setup import OPTIONS
from app.rules.engine.state import State
from app.web import render
from app.web.render import Seat
from tools.fuzz import _next_seat, choose


def _database(tmp: str) -> Database:
    from app.cli import migrate
    from app.settings import Settings

    url = f"sqlite:///{Path(tmp) / 'bench.db'}"
    migrate(Settings(DATABASE_URL=url))
    return Database.connect(url)


def theatre_view_ms(seed: int = 4242, count: int = 40) -> tuple[float, float, float, float]:
    """The medians of a seat's page GET and of its view document alone, in CPU ms and
    in wall-clock ms (the machine's other work in it), over `count` successive positions
    from the middle of a random Coral Sea game (every option it offers) played through a
    game store on SQLite, each seat's GET after each action."""
    catalog()
    options = sorted(optional_rules().offered("coral-sea"))
    engine = load_engine("app.rules")
    rng = random.Random(seed)
    length = sum(1 for _ in _random_play("coral-sea", frozenset(options), seed))
    cpu_pages, cpu_docs, wall_pages = [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        db = _database(tmp)
        store = GameStore(db=db, engine=engine)
        game_id = store.create("coral-sea", options, "two-player", seed).id
        for n in range(length // 2 + count):
            latest = store.cache.latest(game_id)
            assert latest is not None
            now = latest.state
            seat = _next_seat(now, rng)
            doc = store.seat_view(game_id, seat)
            store.act(game_id, seat, doc["version"], choose(now, seat, rng).to_json())
            if n < length // 2:
                continue
            for who in store.engine.seat_ids(now):
                cpu = time.thread_time()  # the API's GET: the document as JSON
                json.dumps(store.seat_view(game_id, who))
                cpu_docs.append(time.thread_time() - cpu)
                wall, cpu = time.perf_counter(), time.thread_time()  # the page's GET
                doc = store.seat_view(game_id, who)
                events = store.log(game_id, who)
                render.regions(doc, events, Seat(game_id, who))
                cpu_pages.append(time.thread_time() - cpu)
                wall_pages.append(time.perf_counter() - wall)
        db.reader.dispose()
        db.writer.dispose()
    ms = [1000 * statistics.median(x) for x in (cpu_pages, cpu_docs, wall_pages)]
    return ms[0], ms[1], ms[2], float(length)


def _random_play(scenario: str, options: frozenset[str], seed: int) -> Iterator[State]:
    rng = random.Random(seed)
    state = new_game(scenario, options, seed)
    while state.status != "finished":
        seat = _next_seat(state, rng)
        state, _ = apply(state, seat, choose(state, seat, rng))
        yield state


def finished_record(seed: int = 777) -> dict[str, Any]:
    """A finished random Scenario Two game, every option on, as a record to import."""
    options = frozenset(OPTIONS)
    rng = random.Random(seed)
    state = new_game("two", options, seed)
    actions = []
    while state.status != "finished":
        seat = _next_seat(state, rng)
        action = choose(state, seat, rng)
        state, _ = apply(state, seat, action)
        actions.append({"seat": seat, "action": action.to_json()})
    salt = "bench"
    return {
        "format": FORMAT,
        "scenario": "two",
        "options": sorted(options),
        "mode": "two-player",
        "seed": seed,
        "seed_salt": salt,
        "seed_sha256": commitment(seed, salt),
        "actions": actions,
    }


def replay_page_cold_ms(runs: int = 5) -> tuple[float, float, float, int]:
    """A finished game's replay page GET by a process that holds nothing of the game: the
    first ever (ms by the clock), then the median of `runs` more (CPU ms, and by the
    clock), and the game's actions."""
    catalog()
    record = finished_record()
    with tempfile.TemporaryDirectory() as tmp:
        db = _database(tmp)
        engine = load_engine("app.rules")
        game_id, other = (Records(db, engine).import_(record) for _ in range(2))
        render.replay(other, Replays(db, engine).step(other, None, None))  # templates read
        walls, cpus = [], []
        for _ in range(runs + 1):
            replays = Replays(db, engine)  # a process that holds nothing of the game
            wall, cpu = time.perf_counter(), time.thread_time()
            render.replay(game_id, replays.step(game_id, None, None))
            cpus.append((time.thread_time() - cpu) * 1000)
            walls.append((time.perf_counter() - wall) * 1000)
        db.reader.dispose()
        db.writer.dispose()
    first = walls.pop(0)
    cpus.pop(0)
    return first, statistics.median(cpus), statistics.median(walls), len(record["actions"])


def main(parts: tuple[str, ...] = ("theatre", "replay")) -> None:
    if "theatre" in parts:
        theatre()
    if "replay" in parts:
        replay()


def theatre() -> None:
    page, doc, wall, n = theatre_view_ms()
    print(f"theatre_view_ms_p50={page:.2f}  # CPU: Coral Sea seat page GET, {n:.0f}-action game")
    print(f"theatre_view_json_ms_p50={doc:.2f}  # CPU: the API's GET of the seat's view")
    print(f"theatre_view_wall_ms_p50={wall:.2f}  # the page GET by the clock (others' work in it)")


def replay() -> None:
    first, cold, wall, n = replay_page_cold_ms()
    print(f"replay_page_cold_ms={cold:.1f}  # CPU: Scenario Two, every option, {n} actions")
    print(f"replay_page_cold_wall_ms={wall:.1f}  # the same by the clock")
    print(f"replay_page_first_ms={first:.1f}  # the game's first replay ever, by the clock")


if __name__ == "__main__":
    main(tuple(sys.argv[1:]) or ("theatre", "replay"))
