"""14: Fighters and air combats, fought after battle setup and before anti-aircraft fire.

Escorts are the attacker's fighter units in the battle hex; CAP the defender's fighters
in the High and Low CAP boxes of the task forces (and base) there. 14a2: every CAP
fighter faces an escort - at least one on each escort, if there are enough. 14a3: excess
escorts join a combat, strafe (14f), or stay out. 14c: in each individual combat the
escorts attack first, with their summed air combat factors against one CAP unit's
defense; then the surviving CAP units attack one escort. 14e: CAP fighters whose escorts
are all gone (all of them, if there were no escorts) break through to a bomber or a
strafing fighter - from Low CAP only one bombing at torpedo or medium level, or a strafer
- and attack first; the unit attacked then fires back. 14f: a ship faced by strafing
fighters fires its AA at -1. 14g: CAP fighters go back to their boxes, to Low CAP if
they fought a torpedo, medium-level or strafing unit.

# RULES? 14 without 12b2: fighters take off to either CAP box with the normal launch number.
# RULES? 14e3: the unit attacked fires back at the first breakthrough fighter facing it.
"""

from __future__ import annotations

from app.rules import hooks
from app.rules.base.battle import battle, category, live_air
from app.rules.base.battle_setup import approach_hexes
from app.rules.base.units import air_combat, defense, engage
from app.rules.board.boards import is_base
from app.rules.engine.actions import DONE, Action
from app.rules.engine.events import Event
from app.rules.engine.options import OptionId
from app.rules.engine.state import (
    GONE,
    Battle,
    PendingCombat,
    Side,
    State,
    UnitKey,
    other,
)
from app.rules.engine.steps import Step, StepId, advance, nothing, register
from app.rules.optional.free_roll import CONTINUATIONS, fight

FIGHTERS = OptionId.FIGHTERS
LOW_KINDS = ("torpedo", "medium")  # 14e1: what Low CAP may engage, with strafers


def air_combat_factor(state: State, side: Side, uid: str) -> int:
    """14b: the air combat factor (a "-" counts 0: 4b2), lowered by hit markers."""
    return air_combat(state.units[side][uid])


def _alive(state: State, side: Side, uid: str) -> bool:
    return state.units[side][uid].box != GONE


def _defender(b: Battle) -> Side:
    return other(b.attacker)


# ---------------------------------------------------------------- 14a2 CAP setup


def _cap_setup_actions(state: State, side: Side) -> list[Action]:
    b = battle(state)
    faced = set(b.facing_cap.values())
    unfaced = [e for e in b.escorts if e not in faced]
    targets = unfaced or b.escorts
    free = [c for c in b.caps if c not in b.facing_cap and c not in b.peeled]
    acts = [Action("dogfight", (c, e)) for c in free for e in targets]
    if not unfaced and hooks.of(state).may_peel(state, b):
        acts += [Action("peel", (c,)) for c in free]
    return acts


def _cap_setup_handle(state: State, side: Side, action: Action, out: list[Event]) -> None:
    b = battle(state)
    if action.kind == "peel":
        b.peeled.append(action.get("unit"))
    else:
        b.facing_cap[action.get("unit")] = action.get("target")
    if len(b.facing_cap) + len(b.peeled) == len(b.caps):
        advance(state, out)


def _cap_setup_enter(state: State, out: list[Event]) -> None:
    b = battle(state)
    if b.caps and b.escorts:
        state.waiting = [_defender(b)]
    else:
        advance(state, out)


def _cap_setup_why(state: State, side: Side, action: Action) -> tuple[str, str] | None:
    if action.kind == "peel":
        return (
            "Bombers 5",
            "excess fighters peel off onto land bombers, or onto planes attacking a base, once "
            "every escort is faced",
        )
    return (
        "14a2.2",
        "each CAP fighter faces an escort, at least one on every escort while any is unfaced",
    )


# ---------------------------------------------------------------- 14a3 escorts, 14f strafing


def _strafers(b: Battle) -> list[str]:
    return [e for e in b.escorts if e in b.targets]


def _excess(state: State, b: Battle) -> list[str]:
    """Escorts in no combat and not yet placed: 14a3 excess, or freed by 14c."""
    faced = set(b.facing_cap.values())
    combats = {
        e
        for e in faced
        if any(_alive(state, _defender(b), c) for c, f in b.facing_cap.items() if f == e)
    }
    return [
        e
        for e in b.escorts
        if _alive(state, b.attacker, e)
        and e not in combats
        and e not in b.joined
        and e not in b.targets
        and UnitKey(b.attacker, e) not in b.held
    ]


def _placements(state: State, b: Battle, escort: str, may_join: bool) -> list[Action]:
    acts = [Action("hold", (escort,))]
    if may_join:
        acts += [Action("dogfight", (escort, c)) for c in b.caps if _alive(state, _defender(b), c)]
    for t in b.ships:
        if not is_base(state, _defender(b), t) and _alive(state, _defender(b), t):
            acts += [Action("strafe", (escort, t, h)) for h in approach_hexes(state, b, t)]
    return acts


def _place(state: State, b: Battle, action: Action) -> None:
    escort = action.get("unit")
    if action.kind == "hold":
        b.held.append(UnitKey(b.attacker, escort))
    elif action.kind == "dogfight":
        b.joined[escort] = action.get("target")
    else:
        b.targets[escort] = action.get("target")
        b.air_hexes[escort] = action.get("hex")
        engage(state, [UnitKey(b.attacker, escort)])  # 11d: 14f strafing is combat


def _escort_setup_actions(state: State, side: Side) -> list[Action]:
    b = battle(state)
    return [a for e in _excess(state, b) for a in _placements(state, b, e, bool(b.caps))]


def _escort_setup_handle(state: State, side: Side, action: Action, out: list[Event]) -> None:
    b = battle(state)
    _place(state, b, action)
    if not _excess(state, b):
        advance(state, out)


def _escort_setup_enter(state: State, out: list[Event]) -> None:
    b = battle(state)
    if _excess(state, b):
        state.waiting = [b.attacker]
    else:
        advance(state, out)


def _escort_setup_why(state: State, side: Side, action: Action) -> tuple[str, str] | None:
    return "14a3", "an excess escort joins a combat, strafes next to a ship (14f), or stays out"


# ---------------------------------------------------------------- 14c individual air combats


def combats(state: State, b: Battle) -> dict[str, tuple[list[str], list[str]]]:
    """14a: each escort faced by CAP is an individual combat: (CAP units, escorts)."""
    out: dict[str, tuple[list[str], list[str]]] = {}
    for cap, escort in b.facing_cap.items():
        out.setdefault(escort, ([], [escort]))[0].append(cap)
    for escort, cap in b.joined.items():
        key = b.facing_cap.get(cap)
        if key in out:
            out[key][1].append(escort)
    return out


def _live(state: State, side: Side, ids: list[str]) -> list[str]:
    return [u for u in ids if _alive(state, side, u)]


def _air_combat_actions(state: State, side: Side) -> list[Action]:
    b = battle(state)
    acts: list[Action] = []
    escorting = side == b.attacker
    for key, (caps, escorts) in combats(state, b).items():
        caps, escorts = _live(state, _defender(b), caps), _live(state, b.attacker, escorts)
        fired = b.escort_fired if escorting else b.cap_fired
        if caps and escorts and key not in fired:
            acts += [Action("attack", (u,)) for u in (caps if escorting else escorts)]
    if escorting:
        acts += [a for e in _excess(state, b) for a in _placements(state, b, e, False)]
    return acts if acts else [DONE]


def _air_combat_owes(state: State, side: Side) -> list[Action]:
    """14c: every individual combat is fought before the side is done."""
    return [a for a in _air_combat_actions(state, side) if a != DONE]


def _air_combat_handle(state: State, side: Side, action: Action, out: list[Event]) -> None:
    b = battle(state)
    if action.kind in ("hold", "strafe"):
        _place(state, b, action)
        return
    target = action.get("unit")
    escorting = side == b.attacker
    key = next(
        k
        for k, (caps, escorts) in combats(state, b).items()
        if target in (caps if escorting else escorts)
    )
    caps, escorts = combats(state, b)[key]
    firing = _live(state, side, escorts if escorting else caps)
    (b.escort_fired if escorting else b.cap_fired).append(key)
    fire(state, side, firing, target, "air combat", out)


def _air_combat_enter(state: State, out: list[Event]) -> None:
    b = battle(state)
    state.waiting = [b.attacker, _defender(b)]


def _air_combat_why(state: State, side: Side, action: Action) -> tuple[str, str] | None:
    return (
        "14c",
        "escorts attack first, then CAP; each individual combat once, against one unit in it",
    )


# ---------------------------------------------------------------- 14e breakthroughs


def _breakers(state: State, b: Battle) -> list[str]:
    """14e: the free CAP units with something to break through to (in the expansion's
    scenarios the others stay free: they screen or cover, app/rules/expansions/ptvm/strikes.py)."""
    return hooks.of(state).breakers(state, b, free_cap(state, b))


def may_break_through(state: State, b: Battle, c: str) -> bool:
    """14e: whether the CAP unit has an attacker it may engage."""
    return any(_may_engage(state, b, c, t) for t in _intercept_targets(state, b))


def _intercept_targets(state: State, b: Battle) -> list[str]:
    """14e1: bombers and strafers; in the expansion's scenarios not land bombers on a ship
    (Bombers 3: the odds band) nor anything on a base (Bombers 4: fighter cover)."""
    targets = live_air(state, b) + _live(state, b.attacker, _strafers(b))
    return [t for t in targets if not hooks.of(state).outside_4c(state, b, t)]


def free_cap(state: State, b: Battle) -> list[str]:
    """14e: CAP units whose combat lost all its escorts; all CAP if there were no escorts;
    and those peeled off onto the bombers (Bombers 5)."""
    defender = _defender(b)
    if not b.escorts:
        free = list(b.caps)
    else:
        free = [
            c
            for key, (caps, escorts) in combats(state, b).items()
            if not _live(state, b.attacker, escorts)
            for c in caps
        ] + [c for c in b.caps if c in b.peeled]  # Bombers 5
    return [
        c
        for c in free
        if _alive(state, defender, c)
        and c not in b.breakthrough
        and UnitKey(defender, c) not in b.held
    ]


def _may_engage(state: State, b: Battle, cap: str, target: str) -> bool:
    """14e1: Low CAP engages only strafers and bombers at torpedo or medium level."""
    if b.caps[cap] == "high" or target in b.escorts:
        return True
    return category(state, b, target) in LOW_KINDS


def _breakthrough_actions(state: State, side: Side) -> list[Action]:
    b = battle(state)
    targets = _intercept_targets(state, b)
    acts = []
    for c in _breakers(state, b):
        acts.append(Action("hold", (c,)))
        acts += [Action("intercept", (c, t)) for t in targets if _may_engage(state, b, c, t)]
    return acts


def _breakthrough_handle(state: State, side: Side, action: Action, out: list[Event]) -> None:
    b = battle(state)
    cap = action.get("unit")
    if action.kind == "hold":
        b.held.append(UnitKey(_defender(b), cap))
    else:
        target = action.get("target")
        b.breakthrough[cap] = target
        if target in b.escorts or category(state, b, target) in LOW_KINDS:
            b.low_after.append(cap)  # 14g2
    if not _breakers(state, b):
        _next_interception(state, out)


def _next_interception(state: State, out: list[Event]) -> None:
    """14e3: breakthrough fighters attack first, then the unit they face fires back."""
    b = battle(state)
    defender = _defender(b)
    for target in dict.fromkeys(b.breakthrough.values()):
        caps = _live(state, defender, [c for c, t in b.breakthrough.items() if t == target])
        if f"cap/{target}" not in b.intercepted:
            b.intercepted.append(f"cap/{target}")
            if caps and _alive(state, b.attacker, target):
                fire(state, defender, caps, target, "breakthrough", out)
                return
        if f"back/{target}" not in b.intercepted:
            b.intercepted.append(f"back/{target}")
            if caps and _alive(state, b.attacker, target):
                fire(state, b.attacker, [target], caps[0], "breakthrough", out)
                return
    advance(state, out)


def fire(
    state: State, side: Side, firing: list[str], target: str, kind: str, out: list[Event]
) -> None:
    """14b: the firing units' summed air combat factors against the target's defense factor."""
    victim = other(side)
    engage(state, [UnitKey(side, u) for u in firing])  # 11d: firing is combat too
    modifier = sum(air_combat_factor(state, side, u) for u in firing)
    data: dict[str, object] = {"side": side, "units": firing, "target": target}
    cause = "air combat (14c)" if kind == "air combat" else "air combat (14e)"
    pending = PendingCombat(
        kind, victim, target, modifier, defense(state.units[victim][target]), 0, 0, cause, data
    )
    fight(state, pending, out)


def _breakthrough_enter(state: State, out: list[Event]) -> None:
    b = battle(state)
    if _breakers(state, b):
        state.waiting = [_defender(b)]
    else:
        _next_interception(state, out)


def _breakthrough_why(state: State, side: Side, action: Action) -> tuple[str, str] | None:
    if action.kind == "intercept":
        b = battle(state)
        target = action.get("target")
        outside = hooks.of(state).outside_why(state, b, target, "a 14e breakthrough")
        if outside is not None and target in b.air:
            return outside
    return "14e1", "a Low CAP fighter engages only strafers and torpedo or medium-level bombers"


def strafed(b: Battle, ship: str) -> bool:
    """14f: a ship faced by one or more strafing fighter units."""
    return any(b.targets.get(e) == ship for e in b.escorts)


CONTINUATIONS["air combat"] = nothing
CONTINUATIONS["breakthrough"] = _next_interception

register(
    Step(
        StepId.CAP_SETUP,
        "14a2",
        "CAP setup: face each CAP fighter at an escort",
        _cap_setup_actions,
        _cap_setup_handle,
        _cap_setup_enter,
        nothing,
        _cap_setup_why,
    )
)
register(
    Step(
        StepId.ESCORT_SETUP,
        "14a3",
        "Escort setup: excess escorts join a combat, strafe, or stay out",
        _escort_setup_actions,
        _escort_setup_handle,
        _escort_setup_enter,
        nothing,
        _escort_setup_why,
    )
)
register(
    Step(
        StepId.AIR_COMBAT,
        "14c",
        "Air combat: choose the unit each individual combat attacks",
        _air_combat_actions,
        _air_combat_handle,
        _air_combat_enter,
        advance,
        _air_combat_why,
        owes=_air_combat_owes,
    )
)
register(
    Step(
        StepId.BREAKTHROUGHS,
        "14e",
        "Breakthroughs: face each free CAP fighter at a bomber or strafer",
        _breakthrough_actions,
        _breakthrough_handle,
        _breakthrough_enter,
        nothing,
        _breakthrough_why,
    )
)
