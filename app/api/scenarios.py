"""GET /api/scenarios: the scenarios and optional rules this server can run."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from app.api.answers import Scenario
from app.api.contract import operation_id
from app.api.deps import ServiceDep
from app.bots import LEVELS

router = APIRouter(prefix="/api", tags=["scenarios"], generate_unique_id_function=operation_id)


@router.get("/scenarios", response_model=list[Scenario])
async def list_scenarios(service: ServiceDep) -> list[dict[str, Any]]:
    """Each scenario as the engine describes it, and the computer's offer (issue 35: any
    of the game's seats may be left to it, at one of its levels)."""
    offer = {"seats": "any", "levels": list(LEVELS)}
    return [{**s, "computer": offer} for s in service.scenarios()]
