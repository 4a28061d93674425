"""Chat by audience (issue 14, 17c1, 17c3): a property over random seats and random
messages - each message reaches exactly its audience, and a side's channel is open only
before play starts and only to a side of two players."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.games.chat import ALL, Chat, may_read, printing, readers, side_channel, side_of
from app.games.db import Database
from app.games.errors import BadRequest
from app.games.models import GAMES_T, Base

# Seat ids begin with their side (DESIGN.md): one seat a side, or a command each (17a).
SEATS = st.sampled_from(
    [
        ("japan", "usa"),
        ("japan", "usa-tf16", "usa-tf17"),
        ("japan-carriers", "japan-main", "usa-tf16", "usa-tf17"),
    ]
)


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 6, 4, tzinfo=UTC)

    def __call__(self) -> datetime:
        self.now += timedelta(seconds=3)  # slow enough never to be a flood
        return self.now


def make_chat(folder: Path, status: str) -> tuple[Chat, str]:
    db = Database.connect(f"sqlite:///{folder / 'chat.db'}")
    Base.metadata.create_all(db.writer)
    game_id = "0123456789abcdef"
    with db.write() as session:
        session.execute(
            GAMES_T.insert().values(
                id=game_id,
                scenario="one",
                options=[],
                mode="two-player",
                seed=1,
                seed_sha256="",
                status=status,
                actions=0,
                created_at=datetime.now(UTC),
            )
        )
    return Chat(db, clock=Clock()), game_id


@pytest.mark.parametrize("status", ["setup", "in progress"])
@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    seats=SEATS,
    posts=st.lists(
        st.tuples(st.integers(0, 3), st.booleans(), st.text(min_size=1, max_size=40)), max_size=12
    ),
)
def test_17c1_each_message_reaches_only_its_audience(
    tmp_path_factory: pytest.TempPathFactory,
    status: str,
    seats: tuple[str, ...],
    posts: list[tuple[int, bool, str]],
) -> None:
    chat, game_id = make_chat(tmp_path_factory.mktemp("chat"), status)
    sent: list[tuple[str, str, str]] = []
    for who, to_side, raw in posts:
        seat = seats[who % len(seats)]
        audience = side_channel(seat) if to_side else ALL
        open_channel = audience == ALL or (status == "setup" and len(readers(audience, seats)) >= 2)
        # issue 31: controls, format characters (bidi, zero-width), surrogates refused
        bad_text = not raw.strip() or not all(printing(c) for c in raw.strip())
        try:
            message = chat.post(game_id, seat, audience, raw, seats)
        except BadRequest as exc:
            assert bad_text or not open_channel, exc
            if not bad_text:
                pair = len(readers(audience, seats)) >= 2
                assert exc.extra["rule"] == ("17c3" if pair else "17c1")
            continue
        assert open_channel and not bad_text
        sent.append((seat, audience, message["text"]))
    for reader in seats:
        got = [(m["seat"], m["audience"], m["text"]) for m in chat.read(game_id, reader)]
        assert got == [m for m in sent if reader in readers(m[1], seats)]
        assert all(side_of(m[0]) == side_of(reader) for m in got if m[1] != ALL)
    assert [(m["seat"], m["audience"], m["text"]) for m in chat.read(game_id, None)] == sent
    chat.db.dispose()


def test_17c1_side_channel_reaches_the_side_and_no_other() -> None:
    seats = ("japan", "usa-tf16", "usa-tf17")
    assert readers("side:usa", seats) == {"usa-tf16", "usa-tf17"}
    assert readers(ALL, seats) == set(seats)
    assert may_read("usa-tf16", "side:usa") and not may_read("japan", "side:usa")
