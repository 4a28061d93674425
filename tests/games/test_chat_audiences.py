"""Chat by audience (issue 14, 17c1, 17c3): a property over random seats and random
messages - each message reaches exactly its audience, and a side's channel is open only
before play starts and only to a side of two players."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.games.chat import ALL, Chat, channels, may_read, printing, readers, side_channel, side_of
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


def make_chat(folder: Path, status: str, mode: str = "two-player") -> tuple[Chat, str]:
    db = Database.connect(f"sqlite:///{folder / 'chat.db'}")
    Base.metadata.create_all(db.writer)
    game_id = "0123456789abcdef"
    with db.write() as session:
        session.execute(
            GAMES_T.insert().values(
                id=game_id,
                scenario="one",
                options=[],
                mode=mode,
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


UMPIRED_SEATS = ("japan-i", "japan-vi", "usa-tf16", "usa-tf17", "umpire")


def refused(chat: Chat, game_id: str, seat: str, audience: str, seats: tuple[str, ...]) -> str:
    try:
        chat.post(game_id, seat, audience, "the plan", seats)
    except BadRequest as exc:
        return str(exc.extra["rule"])
    raise AssertionError(f"{seat} to {audience} was taken")


@pytest.mark.parametrize("status", ["setup", "in progress"])
def test_18a_in_an_umpired_game_a_player_writes_to_the_umpire_only(
    tmp_path: Path, status: str
) -> None:
    """18a: the players are separated; 18c: all information goes through the umpire. The
    chat's "all" would let them talk around him; his own channel is open."""
    chat, game_id = make_chat(tmp_path, status, "umpired")
    seats = UMPIRED_SEATS
    assert refused(chat, game_id, "usa-tf16", ALL, seats) == "18a"
    assert refused(chat, game_id, "usa-tf16", "seat:japan-i", seats) == "18a"
    chat.post(game_id, "usa-tf16", "seat:umpire", "TF 16 heads north", seats)
    assert [m["text"] for m in chat.read(game_id, "umpire")] == ["TF 16 heads north"]
    assert [m["text"] for m in chat.read(game_id, "usa-tf16")] == ["TF 16 heads north"]
    for other in ("usa-tf17", "japan-i", "japan-vi"):
        assert chat.read(game_id, other) == []
    # 17c1 before play, 17c3 from the first Turn: the side's own channel
    if status == "setup":
        chat.post(game_id, "usa-tf17", "side:usa", "I take the carriers", seats)
        assert [m["text"] for m in chat.read(game_id, "usa-tf16")][-1] == "I take the carriers"
        assert chat.read(game_id, "japan-i") == []
    else:
        assert refused(chat, game_id, "usa-tf17", "side:usa", seats) == "17c3"
    chat.db.dispose()


def test_18c_the_umpire_writes_to_all_a_side_or_one_player(tmp_path: Path) -> None:
    chat, game_id = make_chat(tmp_path, "in progress", "umpired")
    seats = UMPIRED_SEATS
    for audience in (ALL, "side:japan", "seat:usa-tf17"):
        chat.post(game_id, "umpire", audience, f"to {audience}", seats)
    got = {s: [m["text"] for m in chat.read(game_id, s)] for s in seats}
    assert got == {
        "japan-i": ["to all", "to side:japan"],
        "japan-vi": ["to all", "to side:japan"],
        "usa-tf16": ["to all"],
        "usa-tf17": ["to all", "to seat:usa-tf17"],
        "umpire": ["to all", "to side:japan", "to seat:usa-tf17"],
    }
    assert refused(chat, game_id, "umpire", "seat:umpire", seats) == "18c"
    assert refused(chat, game_id, "umpire", "seat:nobody", seats) == "18c"
    chat.db.dispose()


def test_18a_in_double_blind_a_player_writes_to_nobody_once_play_starts(tmp_path: Path) -> None:
    """18a: the server is the umpire and reads no chat: no channel to the enemy, and
    from the first Turn none to a teammate either (17c3)."""
    chat, game_id = make_chat(tmp_path, "in progress", "double-blind")
    for seats in (("japan", "usa"), UMPIRED_SEATS[:-1]):
        seat = seats[-1]
        assert refused(chat, game_id, seat, ALL, seats) == "18a"
        assert refused(chat, game_id, seat, "seat:umpire", seats) == "18a"
        offered = channels(seat, seats, True, "double-blind")
        assert offered["to"] == [] and "18a" in offered["closed"]
    assert channels("usa-tf16", UMPIRED_SEATS[:-1], False, "double-blind")["to"] == [
        {"audience": "side:usa", "label": "My side only"}
    ]
    chat.db.dispose()


def test_17c_channels_offered_are_those_taken() -> None:
    """The page offers exactly the channels the server takes (17c1, 17c3, 18a, 18c)."""
    two = ("japan", "usa-tf16", "usa-tf17")
    assert [c["audience"] for c in channels("usa-tf16", two, False, "two-player")["to"]] == [
        ALL,
        "side:usa",
    ]
    assert [c["audience"] for c in channels("usa-tf16", two, True, "two-player")["to"]] == [ALL]
    assert [c["audience"] for c in channels("japan", two, False, "two-player")["to"]] == [ALL]
    umpire = channels("umpire", UMPIRED_SEATS, True, "umpired")["to"]
    assert [c["audience"] for c in umpire] == [
        ALL,
        "side:japan",
        "side:usa",
        "seat:japan-i",
        "seat:japan-vi",
        "seat:usa-tf16",
        "seat:usa-tf17",
    ]
    alone = channels("umpire", ("japan", "usa", "umpire"), True, "umpired")["to"]
    assert [c["audience"] for c in alone] == [ALL, "side:japan", "side:usa"]
    player = channels("japan-i", UMPIRED_SEATS, True, "umpired")
    assert [c["audience"] for c in player["to"]] == ["seat:umpire"]
