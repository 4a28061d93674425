"""The replay page's grains (app/games/replays.py `mark_of`): after each action, the Turn,
the step of the sequence of play (2b) and which battle is on the Battleboard - an air
battle (4a) or a surface combat (16) - counted in the order fought."""

from __future__ import annotations

from app.games.replays import Mark, battle_key, mark_of
from app.rules import apply, new_game
from tools.fuzz import play_game


def marks_of(scenario: str, seed: int, options: frozenset[str] = frozenset()) -> list[Mark]:
    result = play_game(scenario, seed, options=options)
    state = new_game(scenario, options, seed)
    marks = [mark_of(state, None, None)]
    for seat, action in result.log:
        before = battle_key(state)
        state, _ = apply(state, seat, action)
        marks.append(mark_of(state, marks[-1], before))
    return marks


def test_4a_each_air_battle_is_counted_once_in_the_order_fought() -> None:
    # the first of the fuzzer's seeded games with more than one air battle
    games = (marks_of("one", seed) for seed in range(1, 40))
    marks = next((m for m in games if len({x.battle for x in m if x.battle}) > 1), [])
    numbers = [m.battle for m in marks if m.battle]
    assert numbers, "a game has battles"
    starts = [n for i, n in enumerate(numbers) if i == 0 or numbers[i - 1] != n]
    assert starts == list(range(1, len(starts) + 1))  # 1, 2, 3 ... each begun once
    assert [m.turn for m in marks] == sorted(m.turn for m in marks)  # Turns only go on


def test_16_a_surface_combat_is_a_battle_of_its_own() -> None:
    marks = marks_of("four", 1, frozenset({"16"}))
    assert any(m.battle for m in marks), "Scenario Four is one surface combat (7e)"
    assert {m.step for m in marks if m.battle} & {"surface movement", "gunnery"}
