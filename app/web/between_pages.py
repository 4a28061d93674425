"""The browser's side of between moves (issue 14): opening a game in the lobby from the
home page's form. My games, the lobby list and the seat page's pulse and chat are the
script between.js over the JSON routes of app.api.between."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response

from app.api.between import BetweenDep
from app.api.deps import ServiceDep, SettingsDep
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
    # Post/Redirect/Get, as a created game's (app/web/routes.py): the kept seat's token
    # rides in the fragment, and a reload of the page never opens another game.
    base = settings.base_url.rstrip("/")  # configured, never the request's Host
    fragment = "&".join(f"{s.seat}={s.token}" for s in created.seats if s.seat not in free)
    location = f"{base}/games/{created.id}/opened#{fragment}"
    return html(request, "", 303, {"Location": location})


@router.get("/games/{game_id}/opened")
async def opened_page(
    request: Request,
    game_id: str,
    service: ServiceDep,
    settings: SettingsDep,
    between: BetweenDep,
) -> Response:
    """The page an opening redirects to: the seats still free in the lobby, and the kept
    seats' links (its token put in by created.js from the fragment, as the created page's)."""
    try:
        summary = await service.summary(game_id)
        seats = await service.seats(game_id)
        offered = await between.offered(game_id)
    except GameError as exc:
        return html(request, render.flash("No such game.", "error"), exc.status)
    base = settings.base_url.rstrip("/")
    page = render.page(
        "opened.html",
        game_id=game_id,
        scenario_name=between.scenario_names().get(summary["scenario"], summary["scenario"]),
        mode=render.mode_named(summary["mode"]),
        free=[seat for seat, taken in offered.items() if not taken],
        seats=[
            {
                "seat": about["seat"],
                "title": render.seat_of(game_id, about["seat"], seats)
                or render.Seat(game_id, about["seat"]),
                "url": f"{base}/games/{game_id}/seat/{about['seat']}",
            }
            for about in seats
            if about["seat"] not in offered  # the seats its opener kept
        ],
    )
    return html(request, page)
