"""Pacific Theatre Via Midway: Bombers 3-7, Bases 3-4 and Destroyers on the 1991 Battleboard.

Bombers 3: land bombers (the 1991 H and M units, `theatre.is_land_bomber`) attack ships as a
wave of their own, all on one ship, "like dive bombers (from directly above), except that every
three bombers count as one attack factor (drop fractions)": they bomb in the dive bombing
category (4d1.1, `BOMBERS_CATEGORY`) with a combined bombing factor of their planes left / 3
(`bombing_factor`), not their units' own bombing factors; their losses come from the odds band:
the same attack factors against the target's defense factor plus the screening factors
(defense factors) of the defender's free CAP fighters. Bombers 4-7, Bases 4: any attack on a
theatre base - fighter cover (restated on 14's air combat), then the base's AA (Bases 4: one
die per six bombers or fraction, in planes), then one hit and one plane on the ground per two
bombers (per four T/D, Bombers 6); the hits go to the base's knockout (Bases 3). Bombers
5: escorts fight 14's air combat first, and the defender may peel excess CAP fighters off onto
the bombers (action "peel", optional/fighters.py). Bombers 6: land bombers and T/D attack in
separate waves, the attacker choosing which goes first (step "strike order",
app/rules/base/battle_setup.py). No aborts (Bombers 7: the 1991 rules have none, 3d4). Destroyers:
once a Turn, Japan adds two AA factors to one anti-aircraft combat against an air unit
attacking one of its ships (action "destroyers", app/rules/base/air_attack.py).

A damage point on an air unit is one of its planes (theatre.py). The pure rules here take what
they need (planes, factors, dice); `bomber_losses` and `base_strike` apply them to a battle.

# RULES? RULES-NOTES.md reads Bombers 3's losses as 4c AA fire and 14 air combat; the 1964
# odds band is used instead, as printed ("Bomber losses are determined by the odds").
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from app.data.records import BaseSpec
from app.rules.base.combat import roll_combat
from app.rules.base.units import aboard, add_damage, air_combat, defense, engage
from app.rules.board.boards import is_base
from app.rules.board.time_record import turn_box
from app.rules.engine.actions import add_kinds
from app.rules.engine.dice import Dice
from app.rules.engine.events import ALL, Event
from app.rules.engine.state import GONE, Battle, Side, State, Unit, UnitKey, other
from app.rules.expansions.ptvm import bases
from app.rules.expansions.ptvm.record import record
from app.rules.expansions.ptvm.theatre import (
    base_spec,
    is_land_bomber,
    is_theatre,
    planes,
    ptvm_type,
    today,
)
from app.rules.hooks import DESTROYERS, destroyer_bonus
from app.rules.modes import hooks as mode_hooks

add_kinds({"peel": ("unit",)})  # Bombers 5: an excess CAP fighter peeled off onto the bombers

PLANES_PER_FACTOR = 3  # Bombers 3: "every three bombers count as one attack factor"
BOMBERS_CATEGORY = "dive"  # Bombers 3: "Bombers attack ships like dive bombers" (4d1.1)
LOST_PER_THREE = {"1-3": 2, "1-2": 1, "1-1": 0}  # Bombers 3: bombers lost of every three
BOMBERS_PER_HIT = 2  # Bombers 4: "For every two bombers, one hit"
TD_PER_HIT = 4  # Bombers 6: "For every four T/D, one hit"
BOMBERS_PER_MULTIPLE = 12  # Bombers 4: losses multiplied per 12 bombers
POINTS = {"miss": 0, "hit": 1, "flip": 3, "eliminated": 6}  # 4b4, 4b5
LOSSES_DONE = "bomber-losses"  # Battle.bombed marks: "<ship>/bomber-losses"
STRUCK = "base-strike"  # "<base>/base-strike"
KNOCKED = (bases.KNOCKED_OUT, bases.AUTOMATIC, bases.ALREADY)  # Bases 3: the base is out

# ---------------------------------------------------------------- Bombers 3: the odds band


@dataclass(frozen=True, slots=True)
class Odds:
    """Bombers 3: the attack's odds and the band of the loss table they fall in."""

    attack: int
    defense: int
    band: str  # "1-3" (or less), "1-2", "1-1" (or more)

    @property
    def lost_per_three(self) -> int:
        return LOST_PER_THREE[self.band]

    @property
    def text(self) -> str:
        return f"{self.attack}-{self.defense}"


def _hurt(state: State, u: Unit, points: int, out: list[Event], cause: str) -> None:
    """Damage from the expansion's strikes (4b4); in the umpired modes the side that fought
    the unit is told it through the umpire (18c2), as after any other combat."""
    before = u.damage
    add_damage(state, u, points, out, cause)
    mode_hooks.of(state).damage_done(state, u, before, "bombing", out)


def attack_factors(bombers: Iterable[int]) -> int:
    """Bombers 3: every three bombers (the planes of all the attacking units) one attack
    factor, fractions dropped."""
    return sum(bombers) // PLANES_PER_FACTOR


def bombing_factor(state: State, side: Side, bombers: Iterable[str]) -> int:
    """Bombers 3: the combined bombing factor of land bombers on a ship - every three bombers
    (the planes left of all of them, so hit markers count as planes lost) one factor,
    fractions dropped. It is 4d3's summed bombing factors for their dive bombing combat.

    # RULES? "like dive bombers" is read as the whole of the dive bombing category: the
    # modifiers 4d3 gives dive bombing apply to bombers too - 4d3.3's +4 against a ship with
    # a combat air unit in its Ready box (the 1991 system's only dive bombing modifier; 4d3.1
    # and 4d3.2 are torpedo bombing's) - and no AA level modifier (4c2 has none for dive
    # bombing; the bombers' losses are the odds band's anyway, not 4c's).
    """
    units = state.units[side]
    return attack_factors(planes(units[a]) for a in bombers)


def odds(attack: int, defense: int) -> Odds:
    """Bombers 3: the band of attack factors against defense factors; below 1-3 is 1-3.

    # RULES? Odds between two columns round to the defender's favour, as on Avalon Hill's
    # odds tables: 2-3 (1-1.5) is 1-2, 2-5 (1-2.5) is 1-3; no defense at all is 1-1 or more.
    """
    if attack < 0 or defense < 0:
        raise ValueError(f"factors are not negative, got {attack}-{defense}")
    if attack >= defense:
        band = "1-1"
    elif 2 * attack >= defense:
        band = "1-2"
    else:
        band = "1-3"
    return Odds(attack, defense, band)


def bombers_lost(bombers: int, band: Odds) -> int:
    """Bombers 3: "2 of every three" (1-3), "1 of every three" (1-2), none at 1-1 or more.

    # RULES? Counted on whole threes: 8 bombers at 1-3 lose 4 (two threes), the fraction
    # left is not counted (as "every three bombers count as one attack factor").
    """
    return (bombers // PLANES_PER_FACTOR) * band.lost_per_three


def spread(points: int, planes_left: Mapping[str, int]) -> dict[str, int]:
    """Losses in planes spread over units, one at a time on the unit with the most planes
    left (the first listed on a tie), never more than a unit has: {unit: damage points}.

    # RULES? Losses of bombers and planes on the ground are not chosen by their owner: they
    # are spread this way, so that they fall as evenly as the units allow.
    """
    left = dict(planes_left)
    out: dict[str, int] = {}
    for _ in range(points):
        live = [u for u, n in left.items() if n > 0]
        if not live:
            break
        uid = max(live, key=lambda u: left[u])
        left[uid] -= 1
        out[uid] = out.get(uid, 0) + 1
    return out


# ---------------------------------------------------------------- Bombers 4-6: bases


def base_hits(surviving: int, kind: str) -> int:
    """Bombers 4, 6: one hit (and one plane on the ground) per two bombers, per four T/D."""
    return surviving // (BOMBERS_PER_HIT if kind == "B" else TD_PER_HIT)


def loss_multiple(bombers: int) -> int:
    """Bombers 4: losses multiplied by the multiples of 12 bombers (37 bombers: three times).

    # RULES? Fewer than 12 bombers take the losses once, not none.
    """
    return max(1, bombers // BOMBERS_PER_MULTIPLE)


def knockout_spec(spec: BaseSpec) -> BaseSpec:
    """Bases 3 counted in the expansion's hits.

    # RULES? Bombers 4 scores "one hit on the base" per two bombers, in the expansion's own
    # hits, so the day's hits count against the printed knockout number (`knockout_hits`),
    # not the damage points of bases.py; `BaseDamage.damage` of a theatre base holds hits.
    """
    return dataclasses.replace(spec, knockout=spec.knockout_hits)


def knockout(
    dice: Dice, spec: BaseSpec, day: bases.BaseDamage, hits: int, date: str = ""
) -> bases.KnockoutCheck:
    """Bases 3: an attack's hits on the base on the date `date`, against its printed
    knockout number."""
    return bases.damage_base(dice, knockout_spec(spec), day, hits, date)


# ---------------------------------------------------------------- in a battle


def theatre_battle(state: State) -> bool:
    return state.battle is not None and is_theatre(state)


def _attackers(state: State, b: Battle) -> dict[str, Unit]:
    return state.units[b.attacker]


def land_bombers(state: State, b: Battle) -> list[str]:
    """The battle's live land bombers (Bombers 3)."""
    units = _attackers(state, b)
    return [a for a in b.air if units[a].box != GONE and is_land_bomber(units[a])]


def on_base(state: State, b: Battle, uid: str) -> bool:
    """Whether an attacking air unit is set up against a base (Bombers 4-7)."""
    target = b.targets.get(uid)
    return target is not None and is_base(state, other(b.attacker), target)


def ship_bomber(state: State, b: Battle, uid: str) -> bool:
    """A land bomber attacking a ship: its losses are the odds band's (Bombers 3)."""
    return is_land_bomber(_attackers(state, b)[uid]) and not on_base(state, b, uid)


def outside_4c(state: State, b: Battle, uid: str) -> bool:
    """In a theatre game, an attacking air unit that neither 4c AA fire nor 14e breakthroughs
    reach: land bombers on a ship (Bombers 3) and anything on a base (Bases 4, Bombers 4)."""
    return (
        is_theatre(state)
        and uid in b.air
        and (on_base(state, b, uid) or ship_bomber(state, b, uid))
    )


def outside_why(state: State, b: Battle, uid: str, what: str) -> tuple[str, str] | None:
    """The rule by which `what` (4c AA fire, a 14e breakthrough) does not reach `uid`."""
    if not outside_4c(state, b, uid):
        return None
    if on_base(state, b, uid):
        return (
            "Bombers 4",
            f"{uid} attacks a base: it meets the fighter cover, then the base's AA, not {what}",
        )
    return (
        "Bombers 3",
        f"{uid}'s losses against a ship are by the odds of the attack, not {what}; "
        "fighters defend as screening factors",
    )


def may_peel(state: State, b: Battle) -> bool:
    """Bombers 5: "with fighter escort, fight a normal fighter vs fighter combat, with the
    defender peeling off excess fighters of his choice to fight the bombers" - in a theatre
    battle where land bombers attack a ship or planes attack a base.

    # RULES? "Excess" fighters are those beyond one on every escort (14a2.2): once every
    # escort is faced, the defender may peel a CAP fighter off (action "peel") instead of
    # doubling up; peeled fighters screen (Bombers 3) or cover the base (Bombers 4), and do
    # not break through (14e).
    """
    return is_theatre(state) and any(outside_4c(state, b, a) for a in b.air)


def bomber_target(state: State, b: Battle) -> str | None:
    """Bombers 3: the one target the battle's land bombers are set up against, if any yet."""
    return next((b.targets[a] for a in land_bombers(state, b) if a in b.targets), None)


def wave_split(state: State, waves: list[list[str]], attacker: Side) -> list[list[str]]:
    """Bombers 3 ("bombers may not attack in the same wave as other planes", "may not attack
    more than one ship in a single battle"): the battle's land bombers leave their waves for
    one wave of their own, right after the first wave that held any.

    # RULES? The fighters of a wave go with its land bombers only where it has no other
    # bombers: they escort them (Bombers 5, against a base; against a ship they fight CAP by
    # 14 and the bombers' losses stay the odds band's). Bombers of separate strikes make one
    # wave, so that "one ship in a single battle" is one ship for the wave. The order of
    # groups against a base (Bombers 6) is this wave order, not the attacker's choice.
    """
    own = state.units[attacker]
    out: list[list[str]] = []
    bombers: list[str] = []
    at: int | None = None
    for wave in waves:
        mine = [u for u in wave if is_land_bomber(own[u])]
        rest = [u for u in wave if u not in mine]
        if mine and all(ptvm_type(own[u]) == "F" for u in rest):
            mine, rest = wave, []
        if mine and at is None:
            at = len(out) + (1 if rest else 0)
        bombers += mine
        if rest:
            out.append(rest)
    if at is not None:
        out.insert(at, bombers)
    return out


def order_choice(state: State, b: Battle) -> bool:
    """Bombers 6: "Attacker has the choice of what type planes will attack first" - offered
    where the land bombers' wave comes next after a wave with dive or torpedo bombers, in a
    battle on a base of the defender.

    # RULES? The choice is offered whatever 13b's dice said of the two waves' arrival, and
    # only between the bombers' wave and the one before it; it is made before any setup.
    """
    if not is_theatre(state) or not b.waves:
        return False
    own = state.units[b.attacker]
    if not any(is_base(state, other(b.attacker), t) for t in b.ships):
        return False
    bombers_next = all(is_land_bomber(own[u]) for u in b.waves[0])
    return bombers_next and any(ptvm_type(own[u]) in ("D", "T") for u in b.air)


# ---------------------------------------------------------------- Bombers 3 in a battle


def screening(state: State, cover: list[str], side: Side) -> int:
    """Bombers 3: "Fighters must defend ... as additional screening factors": the defense
    factors of the defender's free CAP fighters in the hex."""
    return sum(defense(state.units[side][c]) for c in cover)


def bomber_losses(state: State, b: Battle, cover: list[str], out: list[Event]) -> None:
    """Bombers 3: the losses of the land bombers on each ship, before they bomb (4d)."""
    defender = other(b.attacker)
    units = _attackers(state, b)
    by_target: dict[str, list[str]] = {}
    for a in land_bombers(state, b):
        if a in b.targets and not on_base(state, b, a):
            by_target.setdefault(b.targets[a], []).append(a)
    for target, group in by_target.items():
        if f"{target}/{LOSSES_DONE}" in b.bombed:
            continue
        b.bombed.append(f"{target}/{LOSSES_DONE}")
        left = {a: planes(units[a]) for a in group}
        screen = screening(
            state, [c for c in cover if state.units[defender][c].box != GONE], defender
        )
        band = odds(attack_factors(left.values()), defense(state.units[defender][target]) + screen)
        lost = spread(bombers_lost(sum(left.values()), band), left)
        engage(state, [UnitKey(b.attacker, a) for a in group])
        for uid, points in lost.items():
            _hurt(state, units[uid], points, out, "Bombers 3: the odds of the attack")
        data = {
            "target": target,
            "units": group,
            "bombers": sum(left.values()),
            "attack": band.attack,
            "screening": screen,
            "defense": band.defense,
            "odds": band.text,
            "band": band.band,
            "losses": lost,
            "rule": "Bombers 3",
        }
        out.append(Event("bomber-losses", ALL, state.turn, state.step, data))


# ---------------------------------------------------------------- Bombers 4-7 in a battle


def fighter_cover(
    state: State, b: Battle, group: list[str], cover: list[str], out: list[Event]
) -> dict[str, object]:
    """Bombers 4 on 14's air combat: the bombers attack first, their summed air combat
    factors halved (round down), against one cover fighter's defense; then the cover
    fighters left fire their summed air combat factors against the bombers' defense, and
    the result's damage points, multiplied per 12 bombers, are planes lost spread over them.

    # RULES? The fighter-vs-fighter table is 14c's combat: "the bombers as the attacker"
    # fire first; the bombers fire at the cover fighter with the highest air combat factor,
    # and the fighters' roll is against the defense of the bomber unit with most planes left.
    # Bombers 5 (escorts) is 14 as played before this: the fighters here are those no escort
    # holds (14e's free CAP), all of them on the first group (Bombers 6's "at least enough").
    # Rolls here are not combats the 11a free roll marker re-rolls.
    """
    defender = other(b.attacker)
    own, theirs = _attackers(state, b), state.units[defender]
    live_cover = [c for c in cover if theirs[c].box != GONE]
    if not live_cover or not group:
        return {}
    bombers = sum(planes(own[a]) for a in group)
    engage(
        state, [UnitKey(b.attacker, a) for a in group] + [UnitKey(defender, c) for c in live_cover]
    )
    target = max(live_cover, key=lambda c: air_combat(theirs[c]))
    first = roll_combat(state, sum(air_combat(own[a]) for a in group) // 2, defense(theirs[target]))
    points = POINTS[first.result]
    if points:
        _hurt(state, theirs[target], points, out, "Bombers 4: bombers against fighter cover")
    fighters = [c for c in live_cover if theirs[c].box != GONE]
    data: dict[str, object] = {"bombers_fire": {"target": target, **first.to_json()}}
    if fighters:
        left = {a: planes(own[a]) for a in group}
        aim = max(left, key=lambda a: left[a])
        back = roll_combat(state, sum(air_combat(theirs[c]) for c in fighters), defense(own[aim]))
        multiple = loss_multiple(bombers)
        lost = spread(POINTS[back.result] * multiple, left)
        for uid, n in lost.items():
            _hurt(state, own[uid], n, out, "Bombers 4: fighter cover")
        data["fighters_fire"] = {
            "units": fighters,
            **back.to_json(),
            "multiple": multiple,
            "losses": lost,
        }
    return data


def _ground_planes(state: State, base: Unit) -> dict[str, int]:
    """Bombers 4: the planes on the ground - air units in the base's Ready and Arming boxes."""
    return {u.id: planes(u) for u in aboard(state, base) if u.box != GONE}


def base_strike(state: State, b: Battle, base_id: str, cover: list[str], out: list[Event]) -> None:
    """Bombers 4-7, Bases 3-4: each group on the base (land bombers, then T/D, Bombers 6)
    meets the fighter cover, then the base's AA, then scores its hits and planes on the
    ground; the hits count toward the base's knockout, on the Turn's date.

    # RULES? Bases 4 rolls its dice for the group's planes, not for each air unit; the hits
    # of all the dice are planes lost spread over the group's units as the other losses of
    # bombers are (`spread`), the owner not choosing.

    In the umpired modes (18c2) the "base-strike" event is the umpire's; the attacker hears
    of the base's hits today and its knockout through his report (the mode's `base_struck`),
    of the planes it destroyed on the ground as of any combat's damage (`damage_done`),
    and the defender of his own losses as after any combat.
    """
    defender = other(b.attacker)
    base = state.units[defender][base_id]
    spec = base_spec(state, base)
    if spec.zone is None:  # Off-Board Bases 4: never in a battle; checked all the same
        return
    own = _attackers(state, b)
    attackers = [a for a in b.air if own[a].box != GONE and b.targets.get(a) == base_id]
    groups = {
        "B": [a for a in attackers if is_land_bomber(own[a])],
        "T/D": [a for a in attackers if not is_land_bomber(own[a])],
    }
    for kind, group in groups.items():
        if not group:
            continue
        fight = fighter_cover(state, b, group, cover, out)
        group = [a for a in group if own[a].box != GONE]
        aa_dice = bases.aa_fire(state, spec, sum(planes(own[a]) for a in group))
        aa_hits = spread(sum(aa_dice), {a: planes(own[a]) for a in group})
        for uid, n in aa_hits.items():
            _hurt(state, own[uid], n, out, f"Bases 4: {spec.name}'s AA fire")
        survivors = [a for a in group if own[a].box != GONE]
        bombers = sum(planes(own[a]) for a in survivors)
        hits = base_hits(bombers, "B" if kind == "B" else "T/D")
        ground = spread(hits, _ground_planes(state, base))
        for uid, n in ground.items():
            _hurt(
                state,
                state.units[defender][uid],
                n,
                out,
                f"Bombers 4: on the ground at {spec.name}",
            )
        check = knockout(state, spec, today(state, base), hits, turn_box(state).date)
        data = {
            "base": base_id,
            "group": kind,
            "units": group,
            "fighter_cover": fight,
            "aa_dice": aa_dice,
            "aa": aa_hits,
            "bombers": bombers,
            "hits": hits,
            "on_the_ground": ground,
            "knockout": {"result": check.result, "die": check.die, "hits": check.damage},
            "knockout_number": spec.knockout_hits,
            "rule": "Bombers 4" if kind == "B" else "Bombers 6",
        }
        out.append(Event("base-strike", ALL, state.turn, state.step, data))
        knocked_out = check.result in KNOCKED  # 18c2: the attacker hears of it by the umpire
        mode_hooks.of(state).base_struck(state, base, check.damage, knocked_out, out)
    b.bombed.append(f"{base_id}/{STRUCK}")


def bases_to_strike(state: State, b: Battle) -> list[str]:
    """The bases in the battle with air units on them not yet struck (theatre games)."""
    if not is_theatre(state):
        return []
    own = _attackers(state, b)
    targets = {b.targets[a] for a in b.air if a in b.targets and own[a].box != GONE}
    return [
        t
        for t in b.ships
        if t in targets and is_base(state, other(b.attacker), t) and f"{t}/{STRUCK}" not in b.bombed
    ]


# ---------------------------------------------------------------- Destroyers


def destroyers_refused(state: State, b: Battle) -> str | None:
    """Why the destroyers' AA may not be added to the anti-aircraft combat being formed."""
    bonus = destroyer_bonus(state)
    defender = other(b.attacker)
    if not is_theatre(state) or bonus is None or bonus[0] != defender:
        who = bonus[0] if bonus else "japan"
        return f"{DESTROYERS}: only {who} adds destroyer AA, in the expansion's scenarios"
    if record(state).dd_bonus_used == state.turn:
        return f"{DESTROYERS}: the two AA factors are added once each Turn, and were this Turn"
    if not b.aa_ships or b.aa_target is None:
        return f"{DESTROYERS}: the factors go to an anti-aircraft combat being formed"
    target = b.targets.get(b.aa_target)
    if target is None or is_base(state, defender, target):
        return f"{DESTROYERS}: the factors go to an attack on one ship"
    return None
