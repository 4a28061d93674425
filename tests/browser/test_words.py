"""Issue 30: the words a player reads, not the engine's names - a click's refusal gives
its reason without the action's syntax, each task force by its name, with the rule."""

from __future__ import annotations

import pytest

from browser.conftest import Server
from browser.games import HTTP, ApiGame

pytestmark = pytest.mark.browser


def coral_sea_sea_movement(base: str) -> ApiGame:
    """Coral Sea, the Invasion Force at Rabaul with its APs, Turn 1's sea movement."""
    game = ApiGame.create(base, scenario="coral-sea", seed=1)
    for force in ("StrikingForce", "CoveringGroup", "InvasionForce", "SupportGroup"):
        game.act("japan", kind="place", force=force, hex="C2B")
    game.act("japan", kind="done")
    game.act("usa", kind="place", force="TF17", hex="H7H")
    game.act("usa", kind="place", force="TF44", hex="H7G")
    game.act("usa", kind="done")
    while (
        game.view("japan")["step"] != "sea movement" or not game.view("japan")["prompt"]["actions"]
    ):
        seat = next(s for s in ("japan", "usa") if game.view(s)["prompt"]["actions"])
        game.act(seat, kind="done")
    return game


def why(game: ApiGame, seat: str, click: dict[str, str]) -> str:
    r = HTTP.post(f"{game.base}/games/{game.id}/why", data=click, headers=game.auth(seat))
    assert r.status_code == 200, r.text
    return r.text


def test_ptvm_starting_positions_the_invasion_force_clicked_says_why_in_words(
    server: Server,
) -> None:
    """Coral Sea's Invasion Force, clicked in sea movement, may not move: the page says
    that its APs cannot move until Turn 8 (Starting Positions), naming it "Invasion
    Force"; not "'exit InvasionForce' is not legal now" with another rule."""
    game = coral_sea_sea_movement(server.url)
    alone = why(game, "japan", {"subject": "InvasionForce", "owner": "japan"})
    assert "Invasion Force holds AP1" in alone and "APs cannot move until Turn 8" in alone
    assert "Starting Positions" in alone
    assert "InvasionForce" not in alone and "not legal now" not in alone
    # clicked then a zone: the same reason, in the same words
    to_zone = why(game, "japan", {"subject": "InvasionForce", "owner": "japan", "hex": "C3B"})
    assert "Invasion Force holds AP1" in to_zone and "Starting Positions" in to_zone
    assert "'move" not in to_zone and "InvasionForce" not in to_zone


def test_3c_the_sea_movement_prompt_says_no_hex_on_the_theatre_map(server: Server) -> None:
    """The theatre map has zones, and a task force may go more than one (3c, 12a): the
    prompt says neither "up to one hex" nor any hex."""
    prompt = coral_sea_sea_movement(server.url).regions("japan").split('id="r-prompt"')[1]
    prompt = prompt.split("</section>")[0]
    assert "Sea movement" in prompt and "as far as it may go" in prompt
    assert "one hex" not in prompt


def test_the_home_page_names_no_scenario_by_its_internal_rule_id(server: Server) -> None:
    """The expansion's scenarios are not numbered rules of the rulebook: the home page says
    where they come from, never "rule ptvm-coral-sea"."""
    home = HTTP.get(server.url + "/").text
    assert "rule ptvm-" not in home
    assert home.count("Pacific Theatre Via Midway, Turns") == 3
