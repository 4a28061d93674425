"""Pacific Theatre Via Midway, Bombers 3-7, Bases 3-4 and Destroyers, in Coral Sea battles
built by hand (the forces placed, the strike flying over them) and played with forced dice."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

import pytest

from app.rules import IllegalAction, State, apply, events_for, legal_actions, new_game
from app.rules.board.boards import theatre
from app.rules.engine.events import Event
from app.rules.engine.state import FLYING, HIGH_CAP, Draft, Flight, Side, other
from app.rules.engine.steps import StepId, goto
from app.rules.expansions.ptvm.bases import AUTOMATIC, BELOW, KNOCKED_OUT, aa_dice
from app.rules.expansions.ptvm.record import record
from app.rules.expansions.ptvm.strikes import (
    attack_factors,
    base_hits,
    bombers_lost,
    loss_multiple,
    odds,
    spread,
)
from app.rules.expansions.ptvm.theatre import knocked_out, planes, today
from app.rules.modes.seats import acting

from ..helpers import edited, kinds, play

BOMBERS = ["CS-MoresbyB1", "CS-MoresbyB2", "CS-MoresbyB3", "CS-MoresbyB4"]  # H, 6 planes each


def battle(
    attacker: Side,
    zone: str,
    flying: Iterable[str],
    forces: dict[str, str] | None = None,
    caps: dict[str, str] | None = None,
    dice: Iterable[int] = (),
    groups: dict[str, str] | None = None,
    mode: str = "two-player",
) -> tuple[State, list[Event]]:
    """A Coral Sea Combat Phase with one battle: the defender's task forces `forces` (marker:
    zone) and the attacker's air units `flying` over `zone`; `caps` the defender's fighters
    in its High CAP boxes (unit: task force marker or base)."""
    s = new_game("coral-sea", frozenset({"14"}), 1, mode)
    s.status, s.turn, s.side_a = "playing", 3, "japan"
    defender = other(attacker)
    for marker, where in (forces or {}).items():
        s.boards[defender].forces[marker] = where
    for uid in flying:
        u = s.units[attacker][uid]
        u = s.put(replace(u, box=FLYING, area=""))
        group = (groups or {}).get(uid, "strike")
        s.boards[attacker].flights[uid] = Flight(hex=zone, group=group, path=[zone])
    for uid, area in (caps or {}).items():
        s.put(replace(s.units[defender][uid], box=HIGH_CAP, area=area))
    s.forced_dice = list(dice)
    s.battles = [(zone, attacker)]
    out: list[Event] = []
    goto(s, StepId.COMBAT, out)
    return s, out


def on_ships(flying: list[str], targets: dict[str, str], **kw: object) -> tuple[State, list[Event]]:
    """The Allied strike over the Striking Force (Shokaku, Zuikaku, Myoko, Haguro) in E3E."""
    s, out = battle("usa", "E3E", flying, {"StrikingForce": "E3E"}, **kw)  # type: ignore[arg-type]
    s, ev = play(s, "japan", "face N", "formation")
    s, ev2 = play(s, "usa", *(f"target {u} {t}" for u, t in targets.items()))
    return s, out + ev + ev2


def on_base(base: str, zone: str, flying: list[str], **kw: object) -> tuple[State, list[Event]]:
    s, out = battle("usa", zone, flying, **kw)  # type: ignore[arg-type]
    s, ev = play(s, "usa", *(f"target {u} {base}" for u in flying))
    return s, out + ev


# ---------------------------------------------------------------- Bombers 3


def test_ptvm_bombers_3_own_wave() -> None:
    """Land bombers striking with a dive bomber and a fighter attack in a wave of their own."""
    s, _ = battle(
        "usa", "E3E", [*BOMBERS[:2], "CS-MoresbyD1", "CS-MoresbyF1"], {"StrikingForce": "E3E"}
    )
    b = s.battle
    assert b is not None
    assert (b.air, b.escorts, b.waves) == (["CS-MoresbyD1"], ["CS-MoresbyF1"], [BOMBERS[:2]])


def test_ptvm_bombers_3_one_ship() -> None:
    s, _ = battle("usa", "E3E", BOMBERS[:2], {"StrikingForce": "E3E"})
    s, _ = play(
        s,
        "japan",
        "face N",
        "formation",
    )
    s, _ = play(s, "usa", "target CS-MoresbyB1 Shokaku")
    assert [a.text() for a in legal_actions(s, "usa")] == ["target CS-MoresbyB2 Shokaku"]
    with pytest.raises(IllegalAction) as err:
        apply(s, "usa", {"kind": "target", "unit": "CS-MoresbyB2", "target": "Zuikaku"})
    assert err.value.rule == "Bombers 3"
    assert "may not attack more than one ship in a single battle" in str(err.value)


def test_ptvm_bombers_3_odds_bands() -> None:
    """1-3 or less: two of every three lost; 1-2: one of three; 1-1 or more: none."""
    assert attack_factors([6, 6, 5]) == 5  # every three bombers one factor, fractions dropped
    assert [odds(a, d).band for a, d in [(1, 9), (2, 5), (3, 6), (2, 3), (4, 4), (9, 2)]] == [
        "1-3",
        "1-3",
        "1-2",
        "1-2",
        "1-1",
        "1-1",
    ]
    assert [bombers_lost(24, odds(a, 9)) for a in (1, 5, 9)] == [16, 8, 0]
    assert bombers_lost(8, odds(1, 9)) == 4  # whole threes only
    assert spread(5, {"a": 6, "b": 6, "c": 2}) == {"a": 3, "b": 2}


def test_ptvm_bombers_3_losses_one_in_three_at_1_2() -> None:
    """24 B-17s (8 attack factors) on Shokaku (defense 3) screened by three CAP fighters
    (defense 2 each): 8-9 is 1-2, one of every three lost - 8 planes, 2 on each unit; then
    the 16 left bomb like dive bombers (4d1.1) at 16 // 3 = 5, and 4d3.3's +4 (Shokaku's
    dive bomber is in its Ready box).

    Updated: this test had them bomb at high level with their units' factors less hit
    markers (4); Bombers 3 as printed is the dive bombing category at planes / 3."""
    caps = {"CS-ShkF1": "StrikingForce", "CS-ShkF2": "StrikingForce", "CS-ZkkF1": "StrikingForce"}
    s, ev = on_ships(BOMBERS, dict.fromkeys(BOMBERS, "Shokaku"), caps=caps, dice=[5, 2])
    (loss,) = kinds(ev, "bomber-losses")
    assert (loss.data["odds"], loss.data["band"], loss.data["screening"]) == ("8-9", "1-2", 6)
    assert loss.data["losses"] == dict.fromkeys(BOMBERS, 2)
    assert [s.units["usa"][u].damage for u in BOMBERS] == [2, 2, 2, 2]
    (bombing,) = kinds(ev, "bombing")
    assert (bombing.data["category"], bombing.data["units"]) == ("dive", BOMBERS)
    assert bombing.data["modifiers"] == ["combat air unit in Ready box (4d3.3)"]
    assert bombing.data["attacker_modifier"] == 16 // 3 + 4
    assert not kinds(ev, "anti-aircraft") and not kinds(ev, "breakthrough")  # not 4c, not 14e
    assert not s.forced_dice


def test_ptvm_bombers_3_losses_two_in_three_at_1_3() -> None:
    """6 bombers (2 factors) on Shokaku (3) with five CAP fighters (10): 2-13 is 1-3 or less."""
    caps = {u: "StrikingForce" for u in ["CS-ShkF1", "CS-ShkF2", "CS-ZkkF1", "CS-ZkkF2"]}
    caps["CS-KamF1"] = "StrikingForce"  # defense 1
    s, ev = on_ships(BOMBERS[:1], {BOMBERS[0]: "Shokaku"}, caps=caps, dice=[1, 10])
    (loss,) = kinds(ev, "bomber-losses")
    assert (loss.data["odds"], loss.data["band"]) == ("2-12", "1-3")
    assert s.units["usa"][BOMBERS[0]].damage == 4  # two of each of its two threes


def test_ptvm_bombers_3_no_losses_at_1_1() -> None:
    s, ev = on_ships(BOMBERS, dict.fromkeys(BOMBERS, "Myoko"), dice=[1, 10])
    (loss,) = kinds(ev, "bomber-losses")
    assert (loss.data["odds"], loss.data["band"], loss.data["losses"]) == ("8-3", "1-1", {})
    assert all(s.units["usa"][u].damage == 0 for u in BOMBERS)


# ---------------------------------------------------------------- Bombers 4-7, Bases 3-4


def test_ptvm_bases_4_aa_one_die_per_six_bombers() -> None:
    """Four B-17 units (24 bombers) on Rabaul (AA 4): four dice, 1 2 4 6 scoring 0 1 2 2 hits
    (Bases 4), five planes lost spread over the units (2 1 1 1); the 19 planes left score 9
    hits (Bombers 4), below Rabaul's knockout number 25 (no die).

    Updated (was "one die per unit", each die's hits on its own unit): the dice are counted
    in planes, and their hits spread as the other losses of bombers are."""
    s, ev = on_base("Rabaul", "C2B", BOMBERS, dice=[1, 2, 4, 6])
    (strike,) = kinds(ev, "base-strike")
    assert strike.data["aa_dice"] == [0, 1, 2, 2]
    assert strike.data["aa"] == dict(zip(BOMBERS, [2, 1, 1, 1], strict=True))
    assert [s.units["usa"][u].damage for u in BOMBERS] == [2, 1, 1, 1]
    assert (strike.data["bombers"], strike.data["hits"]) == (19, 9)
    assert strike.data["knockout"] == {"result": BELOW, "die": None, "hits": 9}
    assert today(s, s.units["japan"]["Rabaul"]).damage == 9
    assert not s.forced_dice and not kinds(ev, "bombing")  # no 4d bombing of the base


def test_ptvm_bases_4_aa_dice_count_planes_not_units() -> None:
    """Bases 4: "rolling one die ... for every six bombers or fraction thereof": two B-17
    units with three planes left each are six bombers - one die (a 6 at Rabaul's AA 4: two
    hits), not one a unit; seven bombers are two dice."""
    s, _ = battle("usa", "C2B", BOMBERS[:2], dice=[6, 1])
    for uid in BOMBERS[:2]:
        s.put(replace(s.units["usa"][uid], damage=3))
    s = edited(s)
    assert [planes(s.units["usa"][u]) for u in BOMBERS[:2]] == [3, 3]
    s, ev = play(s, "usa", *(f"target {u} Rabaul" for u in BOMBERS[:2]))
    (strike,) = kinds(ev, "base-strike")
    assert strike.data["aa_dice"] == [2]
    assert sum(strike.data["aa"].values()) == 2
    assert s.forced_dice == [1]  # the second die was not rolled
    assert (strike.data["bombers"], strike.data["hits"]) == (4, 2)
    assert aa_dice(6) == 1 and aa_dice(7) == 2 and aa_dice(24) == 4 and aa_dice(0) == 0


def test_ptvm_bombers_4_two_bombers_a_hit() -> None:
    """One hit and one plane on the ground destroyed per two bombers."""
    assert [base_hits(n, "B") for n in (1, 2, 9, 24)] == [0, 1, 4, 12]
    s, ev = on_base("Rabaul", "C2B", BOMBERS[:1], dice=[1])
    (strike,) = kinds(ev, "base-strike")
    assert (strike.data["bombers"], strike.data["hits"]) == (6, 3)
    ground = strike.data["on_the_ground"]
    assert sum(ground.values()) == 3
    assert all(s.units["japan"][u].damage == n for u, n in ground.items())
    assert set(ground) <= {u.id for u in s.units["japan"].values() if u.area == "Rabaul"}


def test_ptvm_bombers_4_planes_on_the_ground_reported_by_the_umpire_18c2() -> None:
    """In a double-blind game the attacker learns the planes it destroyed on the ground as
    any other combat's damage, through the umpire's report (18c2), and nothing more."""
    s, ev = on_base("Rabaul", "C2B", BOMBERS[:1], dice=[1], mode="double-blind")
    (strike,) = kinds(ev, "base-strike")
    ground = strike.data["on_the_ground"]
    reported = {d.data["target"] for d in s.drafts if d.kind == "damage" and d.side == "usa"}
    assert ground and reported == set(ground)
    assert all(d.status == "released" for d in s.drafts)  # 18: the server is the umpire
    two_player, _ = on_base("Rabaul", "C2B", BOMBERS[:1], dice=[1])
    assert two_player.drafts == []  # open cards: no reports


def base_reports(s: State) -> list[Draft]:
    return [d for d in s.drafts if d.kind == "base"]


def test_ptvm_bases_3_hits_and_knockout_reported_by_the_umpire_18c2() -> None:
    """In an umpired game the attacker learns a base's hits today and its knockout only from
    the umpire's report (18c2), through the same drafts as a unit's damage: 12 bombers on
    Tulagi score 6 hits, at its knockout number 5, and a 5 knocks it out. The strike itself
    is the umpire's; the report waits for him; released, it reaches the Allied side only."""
    s, ev = on_base("Tulagi", "F4C", BOMBERS[:2], dice=[1, 1, 5], mode="umpired")
    (strike,) = kinds(ev, "base-strike")
    assert strike.audience == "umpire"
    (draft,) = base_reports(s)
    expected = {"base": "Tulagi", "base_side": "japan", "hits_today": 6, "knocked_out": True}
    assert (draft.side, draft.status, draft.data, draft.truth) == (
        "usa",
        "waiting",
        expected,
        expected,
    )
    seen = [e["kind"] for e in events_for(ev, "usa")]
    assert "base-strike" not in seen and "base-report" not in seen
    offered = {a.text() for a in legal_actions(s, "umpire")}
    assert f"release-report {draft.id}" in offered and "auto-release base on" in offered
    s, out = apply(s, "umpire", {"kind": "release-report", "report": draft.id})
    (told,) = kinds(out, "base-report")
    assert (told.audience, told.data) == ("usa", expected)
    assert not [e for e in events_for(out, "japan") if e["kind"] == "base-report"]


def test_ptvm_bases_3_the_umpire_words_a_base_report_18d() -> None:
    """18d: the umpire may tell the base's damage in his own words - a number of hits and
    whether it is knocked out; what his words do not say is not told."""
    s, _ = on_base("Tulagi", "F4C", BOMBERS[:2], dice=[1, 1, 5], mode="umpired")
    (draft,) = base_reports(s)
    words = "3 hits, not knocked out"
    edit = {"kind": "edit-report", "report": draft.id, "text": words}
    t, out = apply(s, "umpire", edit)
    (told,) = kinds(out, "base-report")
    assert (told.data["hits_today"], told.data["knocked_out"], told.data["said"]) == (
        3,
        False,
        words,
    )
    t, out = apply(s, "umpire", edit | {"text": "Smoke over Tulagi"})
    (told,) = kinds(out, "base-report")
    assert (told.data["hits_today"], told.data["knocked_out"]) == (None, None)
    assert t.drafts[-1].truth["hits_today"] == 6  # the truth stays beside it, for the replay


def test_ptvm_bases_3_base_reports_at_once_in_double_blind_none_in_two_player() -> None:
    """Double-blind: the server is the umpire, the report goes at once; the rulebook's game
    with open cards has no reports."""
    s, ev = on_base("Tulagi", "F4C", BOMBERS[:2], dice=[1, 1, 5], mode="double-blind")
    (draft,) = base_reports(s)
    assert draft.status == "released"
    (told,) = kinds(ev, "base-report")
    assert told.audience == "usa" and told.data["knocked_out"] is True
    s, _ = on_base("Tulagi", "F4C", BOMBERS[:2], dice=[1, 1, 5])
    assert base_reports(s) == []


def test_ptvm_bombers_4_fighter_cover_first() -> None:
    """Rabaul's CAP (two Zeros) fights the 24 bombers before the AA: the bombers first, their
    air combat factors halved (8 // 2 = 4) against a Zero's defense 2 (6+4 against 1+2:
    eliminated); the other Zero's 6 against a B-17's defense 4 (8+6 against 2+4: flipped,
    3 points) times two (24 bombers: two multiples of 12) - six planes lost. The 18 left
    take three AA dice (Bases 4: one per six bombers; updated from four, one a unit)."""
    caps = {"CS-RabaulF1": "Rabaul", "CS-RabaulF2": "Rabaul"}
    s, ev = on_base("Rabaul", "C2B", BOMBERS, caps=caps, dice=[6, 1, 8, 2, 1, 1, 1])
    (strike,) = kinds(ev, "base-strike")
    cover = strike.data["fighter_cover"]
    assert cover["bombers_fire"]["attacker_modifier"] == 4
    assert cover["bombers_fire"]["result"] == "eliminated"
    assert s.units["japan"]["CS-RabaulF1"].eliminated
    assert (cover["fighters_fire"]["result"], cover["fighters_fire"]["multiple"]) == ("flip", 2)
    assert [s.units["usa"][u].damage for u in BOMBERS] == [2, 2, 1, 1]
    assert strike.data["bombers"] == sum(planes(s.units["usa"][u]) for u in BOMBERS) == 18
    assert loss_multiple(37) == 3 and loss_multiple(11) == 1
    assert not s.forced_dice


def test_ptvm_bombers_6_four_td_a_hit() -> None:
    """A dive bomber (3 planes) and a torpedo unit (5) on Tulagi: 8 T/D, two hits."""
    assert [base_hits(n, "T/D") for n in (3, 4, 8, 11)] == [0, 1, 2, 2]
    s, ev = on_base("Tulagi", "F4C", ["CS-MoresbyD1", "CS-MoresbyT1"], dice=[1, 1])
    (strike,) = kinds(ev, "base-strike")
    assert (strike.data["group"], strike.data["bombers"], strike.data["hits"]) == ("T/D", 8, 2)
    assert strike.data["rule"] == "Bombers 6"
    assert today(s, s.units["japan"]["Tulagi"]).damage == 2


def test_ptvm_bases_3_knockout_roll_through_an_attack() -> None:
    """12 bombers on Tulagi (knockout number 5): 6 hits reach it, a 5 knocks it out."""
    s, ev = on_base("Tulagi", "F4C", BOMBERS[:2], dice=[1, 1, 5])
    (strike,) = kinds(ev, "base-strike")
    assert strike.data["knockout"] == {"result": KNOCKED_OUT, "die": 5, "hits": 6}
    assert knocked_out(s, s.units["japan"]["Tulagi"])


def test_ptvm_bases_3_knockout_twice_the_number() -> None:
    """24 bombers on Tulagi: 12 hits, twice its knockout number 5 - out without a roll."""
    s, ev = on_base("Tulagi", "F4C", BOMBERS, dice=[1, 1, 1, 1])
    (strike,) = kinds(ev, "base-strike")
    assert strike.data["knockout"] == {"result": AUTOMATIC, "die": None, "hits": 12}
    assert knocked_out(s, s.units["japan"]["Tulagi"]) and not s.forced_dice


# ---------------------------------------------------------------- Destroyers


def test_ptvm_destroyers_aa_bonus_once_a_turn() -> None:
    """Japan adds two AA factors to one anti-aircraft combat on an attack on one ship, once
    a Turn; asked again, the rule says no."""
    dive = ["CS-YorkD1", "CS-YorkD2"]
    s, _ = on_ships(dive, {"CS-YorkD1": "Myoko", "CS-YorkD2": "Haguro"}, dice=[1, 10, 1, 10])
    assert s.step == "anti-aircraft combat"
    s, _ = play(s, "japan", "aa Myoko CS-YorkD1")
    assert "destroyers" in [a.text() for a in legal_actions(s, "japan")]
    s, ev = play(s, "japan", "destroyers")
    (fire,) = kinds(ev, "anti-aircraft")
    assert fire.data["attacker_modifier"] == 1 + 2  # Myoko's AA 1 and the destroyers' 2
    assert fire.data["destroyers"] == {"aa": 2, "ship": "Myoko", "rule": "Destroyers"}
    assert record(s).dd_bonus_used == s.turn
    s, _ = play(s, "japan", "aa Haguro CS-YorkD2")
    assert "destroyers" not in [a.text() for a in legal_actions(s, "japan")]
    with pytest.raises(IllegalAction) as err:
        apply(s, "japan", {"kind": "destroyers"})
    assert err.value.rule == "Destroyers" and "once each Turn" in str(err.value)


def test_ptvm_bases_4_the_base_fires_on_its_own_attackers_not_by_4c() -> None:
    """A dive bomber on Yubari and a torpedo unit on Rabaul, in Rabaul's zone: Yubari's AA
    (4c) fires at the dive bomber only; Rabaul's AA is the AA table's (Bases 4); the torpedo
    unit's 5 planes score one hit on the base (Bombers 6), after 4d bombing of Yubari."""
    s, _ = battle(
        "usa", "C2B", ["CS-MoresbyD1", "CS-MoresbyT1"], {"InvasionForce": "C2B"},
        dice=[1, 10, 1, 10, 1],
    )  # fmt: skip
    s, _ = play(s, "japan", "face N", "formation")
    s, _ = play(s, "usa", "target CS-MoresbyD1 Yubari", "target CS-MoresbyT1 Rabaul")
    assert s.step == "anti-aircraft combat"
    offered = [a.text() for a in legal_actions(s, "japan")]
    assert "aa Yubari CS-MoresbyD1" in offered
    assert not [a for a in offered if "Rabaul" in a or "CS-MoresbyT1" in a]
    with pytest.raises(IllegalAction) as err:
        apply(s, "japan", {"kind": "aa", "ship": "Yubari", "unit": "CS-MoresbyT1"})
    assert err.value.rule == "Bombers 4"
    with pytest.raises(IllegalAction) as err:
        apply(s, "japan", {"kind": "aa", "ship": "Rabaul", "unit": "CS-MoresbyD1"})
    assert err.value.rule == "Bases 4"
    s, ev = play(s, "japan", "aa Yubari CS-MoresbyD1", "fire", "done")
    assert [e.data["target"] for e in kinds(ev, "bombing")] == ["Yubari"]
    (strike,) = kinds(ev, "base-strike")
    assert (strike.data["units"], strike.data["hits"]) == (["CS-MoresbyT1"], 1)
    assert ev.index(kinds(ev, "bombing")[0]) < ev.index(strike)
    assert not s.forced_dice


def test_ptvm_bombers_3_no_4c_fire_at_land_bombers() -> None:
    """Land bombers on a ship are not 4c targets: the refusal names Bombers 3."""
    s, _ = battle(
        "usa", "E3E", ["CS-MoresbyD1", BOMBERS[0]], {"StrikingForce": "E3E"},
        groups={"CS-MoresbyD1": "a", BOMBERS[0]: "b"},
    )  # fmt: skip
    b = s.battle
    assert b is not None and b.air == ["CS-MoresbyD1"] and b.waves == [[BOMBERS[0]]]
    s, _ = play(s, "japan", "face N", "formation")
    s, _ = play(s, "usa", "target CS-MoresbyD1 Myoko")
    s = edited(s)
    b = s.battle
    assert b is not None and s.step == "anti-aircraft combat"
    b.air.append(BOMBERS[0])  # both in one wave, by hand
    b.targets[BOMBERS[0]], b.air_hexes[BOMBERS[0]] = "Myoko", b.positions["Myoko"]
    with pytest.raises(IllegalAction) as err:
        apply(s, "japan", {"kind": "aa", "ship": "Myoko", "unit": BOMBERS[0]})
    assert err.value.rule == "Bombers 3"


@pytest.mark.parametrize(
    ("first", "order"), [("bombers", ["B", "T/D"]), ("dive-torpedo", ["T/D", "B"])]
)
def test_ptvm_bombers_6_attacker_chooses_which_type_goes_first(
    first: str, order: list[str]
) -> None:
    """A B-17 and a dive bomber of one strike over Rabaul: two groups, the attacker says which
    attacks first."""
    s, _ = battle("usa", "C2B", ["CS-MoresbyD1", BOMBERS[0]], dice=[1, 1])
    assert s.step == "strike order" and s.waiting == ["usa"]
    assert [a.text() for a in legal_actions(s, "usa")] == ["first bombers", "first dive-torpedo"]
    s, ev = play(s, "usa", f"first {first}")
    b = s.battle
    assert b is not None and b.air == ([BOMBERS[0]] if first == "bombers" else ["CS-MoresbyD1"])
    s, out = play(s, "usa", f"target {b.air[0]} Rabaul")
    b = s.battle
    assert b is not None and s.step == "air attack setup"  # the next wave (13b2)
    s, out2 = play(s, "usa", f"target {b.air[0]} Rabaul")
    ev += out + out2
    assert [e.data["group"] for e in kinds(ev, "base-strike")] == order
    assert not s.forced_dice


def test_ptvm_bombers_5_excess_fighters_peel_off_onto_the_bombers() -> None:
    """Four B-17 units escorted by a fighter over Rabaul, three Zeros on CAP: one Zero must
    face the escort (14a2.2), the other two may peel off onto the bombers - a normal 14
    combat first, then the peeled fighters are the base's fighter cover (Bombers 4)."""
    caps = dict.fromkeys(["CS-RabaulF1", "CS-RabaulF2", "CS-RabaulF3"], "Rabaul")
    s, _ = battle(
        "usa", "C2B", [*BOMBERS, "CS-MoresbyF1"], caps=caps,
        dice=[1, 10, 1, 10, 1, 10, 1, 10, 1, 1, 1, 1],
    )  # fmt: skip
    b = s.battle
    assert b is not None and b.escorts == ["CS-MoresbyF1"] and not b.waves
    s, _ = play(s, "usa", *(f"target {u} Rabaul" for u in BOMBERS))
    assert "peel CS-RabaulF2" not in [a.text() for a in legal_actions(s, "japan")]
    with pytest.raises(IllegalAction) as err:
        apply(s, "japan", {"kind": "peel", "unit": "CS-RabaulF2"})
    assert err.value.rule == "Bombers 5"
    s, _ = play(s, "japan", "dogfight CS-RabaulF1 CS-MoresbyF1", "peel CS-RabaulF2")
    s, _ = play(s, "japan", "peel CS-RabaulF3")
    s, ev = play(s, "usa", "attack CS-RabaulF1")
    s, out = play(s, "japan", "attack CS-MoresbyF1")
    ev += out
    assert len(kinds(ev, "air combat")) == 2  # 14c, both missed
    (strike,) = kinds(ev, "base-strike")
    assert strike.data["fighter_cover"]["fighters_fire"]["units"] == ["CS-RabaulF2", "CS-RabaulF3"]
    assert not s.forced_dice


def test_ptvm_bombers_3_japanese_bombers_bomb_like_dive_bombers() -> None:
    """Japanese G4Ms (1991 M units) on a ship bomb like dive bombers too, not at medium level:
    12 bombers (4 factors) on Yorktown (defense 3) are at 1-1, none lost, and bomb at 12 // 3
    = 4 in the dive bombing category, +4 for Yorktown's Ready box (4d3.3).

    Updated: this test (then "bomb by their 1991 category") had them bomb at medium level
    with their units' bombing factors (8); Bombers 3 as printed says otherwise."""
    raiders = ["CS-RabaulB1", "CS-RabaulB2"]
    s, _ = battle("japan", "E3E", raiders, {"TF17": "E3E"}, dice=[1, 10])
    s, _ = play(s, "usa", "face N", "formation")
    s, ev = play(s, "japan", *(f"target {u} Yorktown" for u in raiders))
    (loss,) = kinds(ev, "bomber-losses")
    assert (loss.data["odds"], loss.data["band"], loss.data["losses"]) == ("4-3", "1-1", {})
    (bombing,) = kinds(ev, "bombing")
    assert (bombing.data["category"], bombing.data["attacker_modifier"]) == ("dive", 4 + 4)
    assert bombing.data["target"] == "Yorktown" and not s.forced_dice


def test_ptvm_bombers_3_dive_bombing_category_against_ships() -> None:
    """Bombers 3: "Bombers attack ships like dive bombers (from directly above)": 24 B-17s
    (1991 H units) on Myoko bomb in the dive bombing category (4d1.1), not at high level
    (4d1.2), at 24 / 3 = 8 - not their four units' own factors (3 each, 12). Myoko has no
    Ready box: no 4d3.3. The dice: the bombers' 9 + 8 = 17 against Myoko's 5 + 3 = 8, two
    times - flipped."""
    s, ev = on_ships(BOMBERS, dict.fromkeys(BOMBERS, "Myoko"), dice=[9, 5])
    (bombing,) = kinds(ev, "bombing")
    assert (bombing.data["category"], bombing.data["units"]) == ("dive", BOMBERS)
    assert (bombing.data["attacker_modifier"], bombing.data["modifiers"]) == (8, [])
    assert bombing.data["result"] == "flip"
    assert s.units["japan"]["Myoko"].damage == 3 and not s.forced_dice


def test_ptvm_bombers_3_every_three_bombers_one_attack_factor_drop_fractions() -> None:
    """Bombers 3: "every three bombers count as one attack factor (drop fractions)", for the
    bombing itself: two B-17 units with a plane lost each (5 + 5 = 10 bombers) bomb at
    10 // 3 = 3 - not at their factors less a hit marker each (2 + 2 = 4)."""
    s, _ = battle("usa", "E3E", BOMBERS[:2], {"StrikingForce": "E3E"}, dice=[1, 10])
    for uid in BOMBERS[:2]:
        s.put(replace(s.units["usa"][uid], damage=1))
    s = edited(s)
    assert [planes(s.units["usa"][u]) for u in BOMBERS[:2]] == [5, 5]
    s, _ = play(s, "japan", "face N", "formation")
    s, ev2 = play(s, "usa", *(f"target {u} Haguro" for u in BOMBERS[:2]))
    (loss,) = kinds(ev2, "bomber-losses")
    assert (loss.data["bombers"], loss.data["attack"]) == (10, 3)
    (bombing,) = kinds(ev2, "bombing")
    assert (bombing.data["category"], bombing.data["attacker_modifier"]) == ("dive", 3)
    assert not s.forced_dice


# ---------------------------------------------------------------- a Coral Sea game played


def flown_to_rabaul() -> State:
    """Coral Sea from its setup: the Japanese forces at Rabaul (C2B), the Allied carriers far
    off; Port Moresby's four B-17 units launch and fly zone by zone to Rabaul."""
    s = new_game("coral-sea", frozenset({"14"}), 1)
    places = [f"place {m} C2B" for m in ("StrikingForce", "CoveringGroup", "InvasionForce")]
    s, _ = play(s, "japan", *places, "place SupportGroup C2B", "done")
    s, _ = play(s, "usa", "place TF17 H7H", "place TF44 H7G", "done")
    grid = theatre()
    while s.battle is None:
        (seat, *_) = acting(s)
        offered = [a.text() for a in legal_actions(s, seat)]
        flights = s.boards["usa"].flights
        fly = [a for a in offered if a.startswith("fly ")]
        if seat == "usa" and f"launch {BOMBERS[0]}" in offered:
            s, _ = play(s, "usa", *(f"launch {u}" for u in BOMBERS))
        elif seat == "usa" and fly and all(f.hex != "C2B" for f in flights.values()):
            s, _ = play(s, "usa", min(fly, key=lambda a: grid.distance(a.split()[-1], "C2B")))
        else:
            s, _ = play(s, seat, "done")
    return s


def test_ptvm_bombers_3_in_a_played_coral_sea_battle() -> None:
    """Over Rabaul the B-17s are their own wave, all on Shokaku: 24 bombers (8 factors)
    against its defense 3 are at 1-1 or more - none lost - and they bomb like dive bombers
    (updated: this test had them bomb at high level, against Bombers 3 as printed); Rabaul,
    not attacked, takes no hits."""
    s = flown_to_rabaul()
    assert s.battle is not None and sorted(s.battle.air) == BOMBERS
    assert "Rabaul" in s.battle.ships
    s, _ = play(s, "japan", "face N", "formation")
    s, ev = play(s, "usa", *(f"target {u} Shokaku" for u in BOMBERS))
    (loss,) = kinds(ev, "bomber-losses")
    assert (loss.data["odds"], loss.data["band"], loss.data["losses"]) == ("8-3", "1-1", {})
    assert [e.data["category"] for e in kinds(ev, "bombing")] == ["dive"]
    assert not kinds(ev, "anti-aircraft") and not kinds(ev, "base-strike")
    assert today(s, s.units["japan"]["Rabaul"]).damage == 0
