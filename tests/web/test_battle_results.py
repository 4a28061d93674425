"""Issue 30, battles in view: a battle's result is the seat's own log lines of its steps,
set-up lines left out, one result per battle ended; the Battleboard names a base it attacks."""

from __future__ import annotations

from app.web.battleboard import _attacked, results
from app.web.counters import Counter
from app.web.events import Line


def line(n: int, step: str, kind: str, text: str) -> Line:
    return Line(n, 8, step, kind, text)


def test_issue_30_each_ended_battle_is_its_own_lines_latest_first() -> None:
    lines = [
        line(1, "air movement and search", "search", "United States: search J2"),
        line(2, "battle setup", "ships-set-up", "Japan sets up its ships"),
        line(3, "anti-aircraft combat", "anti-aircraft", "Anti-aircraft (4c): hit"),
        line(4, "bombing combat", "bombing", "Dive bombing (4d): one hit"),
        line(5, "bombing combat", "battle-end", "The battle in J2 ends (4e)"),
        line(6, "air attack setup", "air-set-up", "the air units set up"),
        line(7, "bombing combat", "base-strike", "Attack on Midway (4e2)"),
        line(8, "bombing combat", "battle-end", "The battle in F5 ends (4e)"),
        line(9, "bombing combat", "bombing", "a battle still being fought"),
    ]
    got = [(r.hex, r.lines) for r in results(lines)]
    assert got == [
        ("F5", ["Attack on Midway (4e2)"]),
        ("J2", ["Anti-aircraft (4c): hit", "Dive bombing (4d): one hit"]),
    ]


def _counter(uid: str, kind: str, name: str) -> Counter:
    return Counter(f"u:japan:{uid}", "japan", uid, name, False, kind, (), False, 0, False)


def test_issue_30_a_raid_on_a_base_names_the_base() -> None:
    ships = {"Rabaul": _counter("Rabaul", "base", "Rabaul"), "Aoba": _counter("Aoba", "CA", "Aoba")}
    assert _attacked({"ships": ["Rabaul"], "targets": {}}, ships, "Japan") == "Rabaul"
    both = {"ships": ["Rabaul", "Aoba"], "targets": {"B1": "Rabaul"}}
    assert _attacked(both, ships, "Japan") == "Rabaul and Japan ships"
    assert _attacked({"ships": ["Aoba"], "targets": {}}, ships, "Japan") == "Japan ships"
