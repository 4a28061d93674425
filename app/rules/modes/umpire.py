"""18: umpired games - who hears of what, and the umpire's secret dice.

In the umpired modes (app/rules/modes/audiences.py) the players are separated (18a) and "all
information must go through the umpire" (18c). `umpired_audience` is those modes' policy:
the audience each event has when the Operations Cards are private (18b). Events the
rulebook's own game shows everyone keep that audience only where both sides see the thing
anyway (the Turn, Sides A and B, a battle both sides fight on the Battleboard, the end);
a side's own doings go to that side; a combat's result to the side whose unit it hit
(18c2: "players are informed as to the damage to their own units"); a search's result to
the searching side, every player of it (18c1); the umpire's dice to the umpire. Anything
else is the umpire's: a new kind of event reaches a player only once it is listed here.

The umpire's secret dice (each an event for the umpire's audience only, so shown in the
replay once the game ends):

- 18c1, with 15a: a "lie" about the number of ships - 1-3 halve, 4-7 actual, 8-10 double.
- 18c2: a damage report - 1-2 two hits under, 3-4 one under, 5-6 actual, 7-8 one over,
  9-10 two over, a flip counting three hits and elimination six; never an impossible
  report (`told_damage`). What a side was told of each enemy unit is its Board's `told`.

The reports themselves - a search's answer, a damage report - wait for the umpire's
release in the umpired mode, and go at once in double-blind: app/rules/modes/reports.py.
"""

from __future__ import annotations

from typing import Any

from app.rules.engine.dice import roll_d10
from app.rules.engine.events import ALL, Event
from app.rules.engine.state import ELIMINATED, FLIP, SIDES, Side, State, Unit, other

UMPIRE = "umpire"  # the audience of the umpire (and of nobody else until the end)

# Seen by both sides alike: the Turn and the Sides (18c1: the umpire tells them), a battle
# both fight on the Battleboard (4a, 16a: "exact information on the ship units present is
# given to both sides"), and the end.
PUBLIC = frozenset(
    {
        "game-started",
        "sides",
        "turn",
        "game-over",
        "battle",
        "wave",
        "ships-set-up",
        "air-set-up",
        "battle-end",
        "surface-combat",
        "surface-set-up",
        "setup-line",
        "surface-sides",
        "surprise",
        "surprised-move",
        "surface-shift",
        "torpedo-marker",
        "torpedo-removed",
        "breakoff-designated",
        "breakoff",
        "surface-turn-end",
        "surface-combat-end",
        "bombardment-set-up",
        "bombardment-prevented",
        "bombardment-end",
        # RULES? 11e1 is a competitive roll in the rulebook's game; here the umpire rolls,
        # but the submarine attack that follows shows who has one, so the roll is told
        "submarine-roll",
        "umpire-message",  # 18c: to "all"; to a side or a player it keeps its audience
    }
)

# 18c1, 18c2: "the umpire handles all dice rolls" - the rolls themselves are his.
UMPIRE_ROLLS = frozenset(
    {
        "sides-roll",
        "search-roll",
        "wave-roll",
        "scout-meets-cap",
        "surface-sides-roll",
        "dice",
        "free-roll",
    }
)

# 11b: a carrier's own air units checked for damage - no enemy fired, so nothing to report.
UNREPORTED = frozenset({"aircraft damage"})


def umpired_audience(event: Event) -> str:
    """18b, 18c: the audience of `event` when the players are separated."""
    if event.audience != ALL or event.kind in PUBLIC:
        return event.audience  # a side's or a seat's already, or seen by both sides
    if event.kind in UMPIRE_ROLLS:
        return UMPIRE
    data = event.data
    if "outcome" in data and data.get("target_side") in SIDES:
        return str(data["target_side"])  # 18c2: a player learns his own damage exactly
    if data.get("side") in SIDES:
        return str(data["side"])  # the side's own doings; a search's result (18c1)
    return UMPIRE


def secret_die(state: State, purpose: str, out: list[Event], **truth: Any) -> int:
    """18c1, 18c2: the umpire's secret die, an event only the umpire sees."""
    die = roll_d10(state)
    out.append(
        Event("umpire-die", UMPIRE, state.turn, state.step, {"for": purpose, "die": die, **truth})
    )
    return die


def lie(die: int, actual: int) -> int:
    """18c1: the number of ships the umpire states - 1-3 halve (rounded up, as 15a1.2's
    "half"), 4-7 the actual number, 8-10 double."""
    if die <= 3:
        return (actual + 1) // 2
    if die <= 7:
        return actual
    return 2 * actual


def stated_ships(state: State, searcher: Side, hex_: str, actual: int, out: list[Event]) -> int:
    """18c1 with 15a: a "lie" result - the umpire's secret die decides the number stated."""
    die = secret_die(state, "lie", out, side=searcher, hex=hex_, actual=actual)
    return lie(die, actual)


# 18c2: the secret die -> hits under (-) or over (+) reported.
REPORT_SHIFT = {1: -2, 2: -2, 3: -1, 4: -1, 5: 0, 6: 0, 7: 1, 8: 1, 9: 2, 10: 2}


def told_damage(told_before: int, points: int, die: int, actual: int) -> int:
    """18c2: the damage a side is told an enemy unit now has, in damage points (a flip 3,
    eliminated 6), after a combat that did `points` to it, by the report die `die`.

    Never an impossible report:
    - RULES? a report never takes back damage told before, nor goes below nothing;
    - RULES? an eliminated unit is reported eliminated and a surviving one never is: it
      leaves the Battleboard, or stays on it, in both sides' sight (4a, 16a);
    - a report that would turn a unit's front-side hits into its back side reports the
      unit "flipped" and no hits besides, unless that is the truth (18c2's own example:
      one hit more on a unit with one, two over, is "just report that the unit is flipped").
    `actual` is the unit's damage points after the combat."""
    if actual >= ELIMINATED:
        return ELIMINATED
    told = max(told_before, min(ELIMINATED - 1, told_before + points + REPORT_SHIFT[die]))
    if told_before < FLIP < told and told != actual:
        return FLIP
    return told


def face(damage: int) -> dict[str, Any]:
    """A counter as damage points show it (4b5): its side up and hit markers."""
    if damage >= ELIMINATED:
        return {"face": "eliminated", "hits": 0}
    flipped = damage >= FLIP
    return {"face": "back" if flipped else "front", "hits": damage - FLIP if flipped else damage}


def believed(state: State, side: Side, target: Unit, seen: bool) -> int:
    """What `side` believes of an enemy unit's damage: what it was told (18c2), else, for
    a unit in its sight on the Battleboard, what shows on it then (RULES? first sight is
    exact, as 16a gives "exact information on the ship units present")."""
    told = state.boards[side].told.get(target.id)
    if told is not None:
        return told
    return target.damage if seen else 0


def in_sight(state: State, side: Side) -> frozenset[str]:
    """The enemy units `side` sees now on the Battleboard: those in the battle it fights
    (4a: its attacking air units, or the ships and CAP it attacks) and in a surface combat
    or bombardment (16a, 16j)."""
    enemy = other(side)
    seen: set[str] = set()
    b = state.battle
    if b is not None:
        if b.attacker == side:
            seen.update(b.ships, b.caps)
        else:
            seen.update(b.air, b.escorts)
        seen.update(k.id for k in b.held if k.side == enemy)
    surface = state.surface
    if surface is not None and surface.combat is not None:
        seen.update(surface.combat.ships[enemy])
    if surface is not None and surface.bombardment is not None:
        seen.update(_bombardment_units(surface.bombardment.stacks, enemy))
    return frozenset(seen)


def _bombardment_units(stacks: dict[str, list[str]], enemy: Side) -> list[str]:
    """16j: Japan's bombarding ships face the Midway base unit."""
    return [uid for ships in stacks.values() for uid in ships] if enemy == "japan" else ["Midway"]
