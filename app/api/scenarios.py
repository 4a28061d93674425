"""GET /api/scenarios: the scenarios and optional rules this server can run."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from app.api.answers import Scenario
from app.api.contract import operation_id
from app.api.deps import ServiceDep

router = APIRouter(prefix="/api", tags=["scenarios"], generate_unique_id_function=operation_id)


@router.get("/scenarios", response_model=list[Scenario])
async def list_scenarios(service: ServiceDep) -> list[dict[str, Any]]:
    return service.scenarios()
