"""The browser's side of between moves (issue 14): opening a game in the lobby from the
home page's form. My games, the lobby list and the seat page's pulse and chat are the
script between.js over the JSON routes of app.api.between."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response

from app.api.between import BetweenDep
from app.api.deps import ServiceDep, SettingsDep
from app.api.games import seat_url
from app.games import GameError
from app.web import render
from app.web.responses import html
from app.web.routes import first, not_made, pace_of, read_form

router = APIRouter(include_in_schema=False)


@router.post("/games/open")
async def open_game(
    request: Request, service: ServiceDep, settings: SettingsDep, between: BetweenDep
) -> Response:
    form = await read_form(request)
    scenario, mode = first(form, "scenario"), first(form, "mode", "two-player")
    keep = first(form, "keep") or None
    teams = first(form, "teams") in ("1", "true", "on")
    options = form.get("options", [])
    try:
        pace = pace_of(form)
        created, free = await between.open_game(
            scenario, options, mode, keep, None, pace, teams=teams
        )
    except (GameError, ValueError) as exc:
        return not_made(request, service, settings.allow_seed, "opened", exc)
    base = settings.base_url.rstrip("/")  # configured, never the request's Host
    page = render.page(
        "opened.html",
        scenario_name=between.scenario_names().get(scenario, scenario),
        free=list(free),
        seats=[
            {
                "seat": s.seat,
                "title": render.seat_of(created.id, s.seat, (s.about,)) or render.Seat("", s.seat),
                "url": base + seat_url(created.id, s.seat, s.token),
            }
            for s in created.seats
            if s.seat == keep
        ],
    )
    return html(request, page, 201)
