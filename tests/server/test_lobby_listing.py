"""GET /api/lobby reads only what it lists (issue 31, item 8): the MAX_LISTED newest open
games, not every open game's every free seat (a lobby of thousands of open games was read
whole, then cut to a hundred). Run on the store, against SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

from sqlalchemy import event

from app.cli import migrate
from app.games.between_models import GamePace
from app.games.db import Database
from app.games.engine import load_engine
from app.games.lobby import MAX_LISTED, Lobby
from app.games.store import GameStore
from app.settings import Settings


def test_8_the_lobby_reads_only_the_newest_open_games(database_url: str) -> None:
    migrate(Settings(database_url=database_url))
    store = GameStore(db=Database.connect(database_url), engine=load_engine("app.rules"))
    lobby = Lobby(store.db)
    try:
        before = {g["id"] for g in lobby.listing()}
        opened = []
        for n in range(MAX_LISTED + 20):
            game = store.create("one", [], "two-player", 1000 + n).id
            lobby.open(game, ("usa",) if n % 2 else ("japan", "usa"))
            if n % 3 == 0:
                with store.db.write() as session:
                    session.add(GamePace(game_id=game, days_per_move=2, vacation_days=0))
            opened.append(game)
        full = opened[-1]
        for seat in lobby.offered(full):
            lobby.join(full, seat)  # no free seat left: not listed
        fetched: list[int] = []

        def count(conn: Any, cursor: Any, statement: str, *rest: Any) -> None:
            if "lobby_seats" in statement:
                fetched.append(cursor.rowcount)

        event.listen(store.db.reader, "after_cursor_execute", count)
        try:
            listed = lobby.listing()
        finally:
            event.remove(store.db.reader, "after_cursor_execute", count)
        assert len(listed) == MAX_LISTED
        newest = [g for g in reversed(opened[:-1]) if g not in before][:MAX_LISTED]
        assert [g["id"] for g in listed] == newest
        for g in listed:
            n = opened.index(g["id"])
            assert g["seats_free"] == (["usa"] if n % 2 else ["japan", "usa"])
            assert g["pace_days"] == (2 if n % 3 == 0 else None)
        assert len(fetched) == 1
        if fetched[0] >= 0:  # PostgreSQL's cursor says how many rows it read: those listed
            assert fetched[0] == sum(len(g["seats_free"]) for g in listed)
    finally:
        store.db.dispose()
