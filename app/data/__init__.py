"""The game's data: units, charts, boards and scenarios, loaded from `scenarios/*.toml`.

`catalog()` loads and validates everything once; the records are frozen.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from app.data.loader import load_catalog
from app.data.records import (
    SIDES,
    AirFace,
    AirUnit,
    BoardSpec,
    Bonus,
    CarrierPlanes,
    Catalog,
    Command,
    ForceSetup,
    Landing,
    Reinforcement,
    Scenario,
    ShipFace,
    ShipUnit,
    Side,
    Teams,
    TheatreRules,
    TimeRecordTrack,
    TurnBox,
    VictoryPointsChart,
)

SCENARIOS_DIR = Path(__file__).parents[2] / "scenarios"

__all__ = [
    "SCENARIOS_DIR",
    "SIDES",
    "AirFace",
    "AirUnit",
    "BoardSpec",
    "Bonus",
    "CarrierPlanes",
    "Catalog",
    "Command",
    "ForceSetup",
    "Landing",
    "Reinforcement",
    "Scenario",
    "ShipFace",
    "ShipUnit",
    "Side",
    "Teams",
    "TheatreRules",
    "TimeRecordTrack",
    "TurnBox",
    "VictoryPointsChart",
    "catalog",
    "load_catalog",
]


@cache
def catalog() -> Catalog:
    """The catalogue from the repository's `scenarios/` folder, loaded once."""
    return load_catalog(SCENARIOS_DIR)
