"""The browser's pages (DESIGN.md, Browser): the home page that creates a game, and the
seat page with its regions. Routes parse, call the game service, render; every rule and
every check lives below them.

A seat page's URL carries no secret: the token rides in the fragment, which the page's
script keeps in sessionStorage and sends as `Authorization: Bearer` (htmx requests) or as
the first websocket message. The page shell is therefore the same for everyone; its
regions come from the seat's view, fetched with the token.
"""

from __future__ import annotations

import re
from typing import Annotated, Any
from urllib.parse import parse_qs

from fastapi import APIRouter, Header, Request, Response
from starlette.routing import Match, Route
from starlette.types import Scope

from app.api.deps import ServiceDep, SettingsDep, bearer_token
from app.api.inbound import parse_json
from app.bots import LEVELS
from app.data.options import optional_rules
from app.games import GameError, GameService, StaleVersion
from app.games.notices import check_pace
from app.games.seeds import MAX_SEED
from app.games.stages import STAGES
from app.rules.engine.actions import TEXT_FIELDS
from app.web import render
from app.web.names import in_words
from app.web.render import Seat
from app.web.responses import html, static

router = APIRouter(include_in_schema=False)

GAME_ID = re.compile(r"[0-9a-f]{16}")
AuthHeader = Annotated[str | None, Header()]
Form = dict[str, list[str]]
MAX_ACTION_BYTES = 4096


async def read_form(request: Request) -> Form:
    """An application/x-www-form-urlencoded body (what forms and htmx send)."""
    body = await request.body()
    return parse_qs(body.decode("utf-8", "replace"), keep_blank_values=True)


def first(form: Form, name: str, default: str = "") -> str:
    return (form.get(name) or [default])[0].strip()


LIVE_HEADER = "midway-live"  # midway.js: "1" when the page's live socket is open


def pushed(request: Request) -> bool:
    """The page says its live socket is open: the regions a move changes reach it there
    (the acting seat's view always changes), so the answer need not render them again."""
    return request.headers.get(LIVE_HEADER) == "1"


def refusal(request: Request, exc: GameError) -> Response:
    rule = exc.extra.get("rule")
    detail = f"Rule {rule}." if rule else ""
    return html(request, render.flash(exc.message, "error", detail), exc.status)


# -- home -----------------------------------------------------------------------------------


PRESETS = ("basic", "recommended", "everything")  # the create form's buttons, in this order


def home_page(service: GameService, allow_seed: bool, error: str = "") -> str:
    scenarios = service.scenarios()
    playable = [s for s in scenarios if s.get("playable")]
    offered = {o for s in scenarios for o in s.get("options") or []}
    rules = optional_rules()
    modes = next((s.get("modes") for s in playable), None) or []
    return render.page(
        "home.html",
        keep_seats=render.seats_offered(scenarios),
        team_scenarios=[s["name"] for s in playable if s.get("teams")],
        scenarios=scenarios,
        chosen=playable[0]["id"] if playable else "",
        options=[o for o in rules.options.values() if o.rule in offered],
        brings=rules.scenario_brings,
        refuses=rules.scenario_refuses,
        presets=[(name, rules.presets[name]) for name in PRESETS if name in rules.presets],
        modes=modes,
        computer_levels=LEVELS,
        allow_seed=allow_seed,
        error=error,
    )


@router.get("/")
async def home(request: Request, service: ServiceDep, settings: SettingsDep) -> Response:
    return html(request, home_page(service, settings.allow_seed))


def not_made(
    request: Request, service: GameService, allow_seed: bool, what: str, exc: Exception
) -> Response:
    """The home page again, saying why the game was not `what` (created, opened): a
    GameError's status, else 422 (a form field out of range)."""
    status = exc.status if isinstance(exc, GameError) else 422
    message = exc.message if isinstance(exc, GameError) else str(exc)
    page = home_page(service, allow_seed, f"The game was not {what}: {message}")
    return html(request, page, status)


def pace_of(form: Form) -> tuple[int | None, int]:
    """The form's pace: days per move (none when empty) and vacation days."""
    days, vacation = first(form, "pace_days"), first(form, "vacation_days", "0") or "0"
    if not (days == "" or days.isdigit()) or not vacation.isdigit() or len(days + vacation) > 6:
        raise ValueError("a pace and a vacation allowance are whole numbers of days")
    pace = (int(days) if days else None, int(vacation))
    check_pace(*pace)
    return pace


def computer_of(
    form: Form, scenarios: list[dict[str, Any]], scenario: str, mode: str, teams: bool
) -> dict[str, str]:
    """Issue 35: the form's "the computer plays": a side (every seat of it, with teams)
    or the umpire, at a level; {} when people play every seat."""
    plays, level = first(form, "computer"), first(form, "computer_level", "quick")
    if not plays:
        return {}
    if level not in LEVELS:
        raise ValueError(f"the computer's level is one of {', '.join(LEVELS)}, not {level!r}")
    seats = [
        str(seat["seat"])
        for s in scenarios
        if s["id"] == scenario
        for m in s["modes"]
        if m["mode"] == mode
        for seating in m["seatings"]
        if seating["teams"] == teams
        for seat in seating["seats"]
        if seat["seat"] == plays or seat.get("side") == plays
    ]
    if not seats:
        raise ValueError(f"the computer cannot play {plays!r} in this game")
    return dict.fromkeys(seats, level)


def _seed(raw: str) -> int | None:
    if not raw:
        return None
    if not raw.isdigit() or len(raw) > 39 or int(raw) >= MAX_SEED:
        raise ValueError("the seed is a whole number from 0 to 2^128 - 1")
    return int(raw)


@router.post("/games")
async def create(request: Request, service: ServiceDep, settings: SettingsDep) -> Response:
    form = await read_form(request)
    scenario, mode = first(form, "scenario"), first(form, "mode", "two-player")
    teams = first(form, "teams") in ("1", "true", "on")
    try:
        seed = _seed(first(form, "seed")) if settings.allow_seed else None
        pace = pace_of(form)
        computer = computer_of(form, service.scenarios(), scenario, mode, teams)
        created = await service.create(
            scenario, form.get("options", []), mode, seed, teams, computer
        )
        await request.app.state.between.set_pace(created.id, *pace)
    except (GameError, ValueError) as exc:
        return not_made(request, service, settings.allow_seed, "created", exc)
    # Post/Redirect/Get: the created page is its own URL, so a reload never makes another
    # game. The seat tokens ride in the redirect's fragment, which the browser keeps on the
    # new page and never sends back (nor is it in any request line the server logs).
    base = settings.base_url.rstrip("/")  # configured, never the request's Host
    fragment = "&".join(f"{s.seat}={s.token}" for s in created.seats if s.seat not in computer)
    location = f"{base}/games/{created.id}/created#{fragment}"
    return html(request, "", 303, {"Location": location})


@router.get("/games/{game_id}/created")
async def created_page(
    request: Request, game_id: str, service: ServiceDep, settings: SettingsDep
) -> Response:
    """The page a creation redirects to: the seat links (their tokens put in by created.js
    from the fragment, kept in the tab's sessionStorage), the options, the replay links."""
    try:
        summary = await service.summary(game_id)
        seats = await service.seats(game_id)
        computer = await service.computer_seats(game_id)
    except GameError as exc:
        return html(request, render.flash("No such game.", "error"), exc.status)
    base = settings.base_url.rstrip("/")
    names = {s["id"]: s["name"] for s in service.scenarios()}
    page = render.page(
        "created.html",
        game_id=game_id,
        scenario_name=names.get(summary["scenario"], summary["scenario"]),
        options=summary["options"],
        mode=render.mode_named(summary["mode"]),
        seats=[
            {
                "seat": about["seat"],
                "title": render.seat_of(game_id, about["seat"], seats)
                or Seat(game_id, about["seat"]),
                "url": f"{base}/games/{game_id}/seat/{about['seat']}",
            }
            for about in seats
            if about["seat"] not in computer  # issue 35: the computer's seats get no link
        ],
        computer=[
            render.seat_of(game_id, about["seat"], seats) or Seat(game_id, about["seat"])
            for about in seats
            if about["seat"] in computer
        ],
        replay_url=f"{base}/games/{game_id}/replay",
        record_url=f"{base}/api/games/{game_id}/replay",
    )
    return html(request, page)


# -- the seat page --------------------------------------------------------------------------


@router.get("/games/{game_id}/seat/{seat}")
async def seat_page(request: Request, game_id: str, seat: str, service: ServiceDep) -> Response:
    """The page shell of one of the game's seats (those its engine declares)."""
    who = None
    if GAME_ID.fullmatch(game_id):
        try:
            who = render.seat_of(game_id, seat, await service.seats(game_id))
        except GameError:
            who = None
    if who is None:
        return html(request, render.flash("No such game or seat.", "error"), 404)
    return html(request, render.page("seat.html", who=who))


async def _seat(service: GameService, game_id: str, authorization: str | None) -> str:
    return await service.authenticate(game_id, bearer_token(authorization))


async def _regions(service: GameService, who: Seat, names: tuple[str, ...]) -> str:
    view = await service.with_standing(
        who.game_id, who.seat, await service.view(who.game_id, who.seat)
    )
    events = await service.log(who.game_id, who.seat) if "log" in names or "dice" in names else []
    t = STAGES.clock()
    parts = render.regions(view, events, who, names)
    STAGES.lap("page", t)
    return "".join(parts[n] for n in names)


@router.get("/games/{game_id}/regions")
async def regions(
    request: Request, game_id: str, service: ServiceDep, authorization: AuthHeader = None
) -> Response:
    """Every region of the seat's page, as out-of-band fragments."""
    try:
        seat = await _seat(service, game_id, authorization)
        body = await _regions(service, Seat(game_id, seat), render.REGIONS)
    except GameError as exc:
        return refusal(request, exc)
    return html(request, render.flash() + body)


@router.get("/games/{game_id}/log")
async def full_log(
    request: Request,
    game_id: str,
    service: ServiceDep,
    before: int | None = None,
    authorization: AuthHeader = None,
) -> Response:
    """The seat's whole log, or the part before Turn `before`."""
    try:
        seat = await _seat(service, game_id, authorization)
        view = await service.view(game_id, seat)
        events = await service.log(game_id, seat)
    except GameError as exc:
        return refusal(request, exc)
    return html(request, render.full_log(view, events, Seat(game_id, seat), before))


def _parse_action(form: Form) -> tuple[int, dict[str, Any]]:
    version = int(first(form, "version"))
    action = parse_json(first(form, "action"), MAX_ACTION_BYTES)
    if not isinstance(action, dict):
        raise ValueError("an action is a JSON object")
    for name in TEXT_FIELDS & action.keys():  # 17c3: a field the player writes in the form
        if action[name] == "" and name in form:
            action[name] = first(form, name)
    return version, action


async def act(request: Request) -> Response:
    """One click: post the action; answer with the fresh status and prompt (or only the
    cleared flash when the page's live socket brings them), or why it was refused. The
    busiest route of the pages: its one parameter is the request, which it reads itself
    (a plain Starlette route, `PlainRoute`)."""
    game_id: str = request.path_params["game_id"]
    service: GameService = request.app.state.service
    try:
        who = Seat(game_id, await _seat(service, game_id, request.headers.get("authorization")))
    except GameError as exc:
        return refusal(request, exc)
    try:
        version, action = _parse_action(await read_form(request))
    except ValueError:
        return html(request, render.flash("That click could not be read.", "error"), 422)
    try:
        _version, view = await service.act_and_view(game_id, who.seat, version, action)
    except StaleVersion as exc:
        return await _stale(request, service, who, version, exc)
    except GameError as exc:
        return refusal(request, exc)
    if pushed(request):
        return html(request, render.flash())
    names = ("status", "prompt")
    view = await service.with_standing(game_id, who.seat, view)
    t = STAGES.clock()
    parts = render.regions(view, [], who, names)  # these two show nothing of the log
    STAGES.lap("page", t)
    return html(request, render.flash() + "".join(parts[n] for n in names))


class PlainRoute(Route):
    """Starlette's own route, which names itself in the request's scope as FastAPI's
    routes do (the access log and the metrics label a request by its route's path)."""

    def matches(self, scope: Scope) -> tuple[Match, Scope]:
        match, child = super().matches(scope)
        if match != Match.NONE:
            child["route"] = self
        return match, child


# The busiest route of the pages as a plain route: FastAPI's request handler (solving an
# empty list of dependencies, checking a response it has no model for) cost more than
# the route's own work before the service.
router.routes.append(PlainRoute("/games/{game_id}/act", act, methods=["POST"]))

CLICK_FIELDS = ("subject", "owner", "hex", "unit")


@router.post("/games/{game_id}/why")
async def why_not(
    request: Request, game_id: str, service: ServiceDep, authorization: AuthHeader = None
) -> Response:
    """A click on the board that makes no legal action (issue 13): the page says why,
    with the rule, in the rules engine's words. Nothing is posted, nothing changes."""
    try:
        seat = await _seat(service, game_id, authorization)
        form = await read_form(request)
        click = {k: first(form, k) for k in CLICK_FIELDS if first(form, k)}
        found = await service.why_not(game_id, seat, click)
        scenario = str((await service.summary(game_id))["scenario"]) if found else ""
    except GameError as exc:
        return refusal(request, exc)
    if found is None:
        return html(
            request, render.flash("That click makes a legal move: choose it again.", "info")
        )
    message, rule = found
    words = in_words(scenario, message)
    return html(request, render.flash(words, "error", f"Rule {rule}." if rule else ""))


@router.post("/games/{game_id}/takeback")
async def take_back(
    request: Request, game_id: str, service: ServiceDep, authorization: AuthHeader = None
) -> Response:
    """The Take back button (issue 14): the seat's last action taken back; answer with
    the fresh prompt, or why not (a die rolled, seen by the enemy: with the rule)."""
    try:
        who = Seat(game_id, await _seat(service, game_id, authorization))
    except GameError as exc:
        return refusal(request, exc)
    try:
        version = int(first(await read_form(request), "version"))
    except ValueError:
        return html(request, render.flash("That click could not be read.", "error"), 422)
    try:
        await service.take_back(game_id, who.seat, version)
    except StaleVersion as exc:
        return await _stale(request, service, who, version, exc)
    except GameError as exc:
        return refusal(request, exc)
    message = render.flash("Your last action was taken back.", "info")
    if pushed(request):
        return html(request, message)
    return html(request, message + await _regions(service, who, ("status", "prompt")))


@router.post("/games/{game_id}/standing")
async def standing(
    request: Request, game_id: str, service: ServiceDep, authorization: AuthHeader = None
) -> Response:
    """Done for this Turn (issue 30): `stand=on` gives the seat's standing order (the
    server says its Done in every quiet step of this Turn), `stand=off` cancels it;
    answer with the fresh prompt, or why it cannot stand now."""
    try:
        who = Seat(game_id, await _seat(service, game_id, authorization))
        if first(await read_form(request), "stand") == "off":
            await service.cancel_standing(game_id, who.seat)
            message = render.flash("Done for this Turn cancelled: say Done yourself.", "info")
        else:
            await service.stand(game_id, who.seat)
            message = render.flash()
    except GameError as exc:
        return refusal(request, exc)
    if pushed(request):
        return html(request, message)
    return html(request, message + await _regions(service, who, ("status", "prompt")))


async def _stale(
    request: Request, service: GameService, who: Seat, version: int, exc: StaleVersion
) -> Response:
    """409: the click was made on a view the seat no longer has. Say so; show the fresh one."""
    now = exc.extra.get("version")
    message = "Your view was out of date: the game moved on while you were choosing."
    detail = (
        f"You clicked on version {version} of your view; it is now at version {now}. "
        "Nothing was done. The board below is the current position: choose again."
    )
    body = render.flash(message, "stale", detail) + await _regions(service, who, render.REGIONS)
    return html(request, body, 409)


# -- the replay page -------------------------------------------------------------------------


@router.get("/games/{game_id}/replay")
async def replay_page(
    request: Request,
    game_id: str,
    service: ServiceDep,
    seat: str | None = None,
    at: int | None = None,
) -> Response:
    """A finished game, step by step, as any of its seats saw it then, or everything then
    (anyone with the link); its first seat when none is asked for."""
    try:
        step = await service.replay_at(game_id, seat, at)
    except GameError as exc:
        return refusal(request, exc)
    return html(request, render.replay(game_id, step))


@router.get("/rules")
async def rules_at_hand(request: Request) -> Response:
    """Every rule number the pages print, each with its short explanation (the page a
    rule number's link opens without script)."""
    return html(request, render.rules_page())


@router.get("/static/{name}")
async def static_files(request: Request, name: str) -> Response:
    return static(request, name)
