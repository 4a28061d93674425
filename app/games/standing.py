"""Done for this Turn (issue 30, quiet Turns): a seat's standing order, kept by the server,
to say Done for it in every quiet step of the current Turn.

The player gives it with one click; from then on the server (app.games.computer, the
machinery that plays the computer's seats) posts the seat's Done through
GameService.act, as the player's own click would, whenever the seat is to act in a step
where Done is a choice it may reasonably make without looking (`quiet`). The order ends
with the Turn, when the player cancels it or takes back an action, and it stops where the
seat has a decision it cannot skip (a battle, air units in the air, a task force that must
enter): the seat's page says why, and the player decides.

The rules engine knows nothing of it: every Done is an ordinary action of the seat, in
its log and the replay, and the other seats learn of it what a Done tells them. The
order itself is the seat's own (seats.standing_turn, seats.standing_stop), shown only on
its page and to its token.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from anyio import to_thread
from sqlalchemy import select, update

from app.games.db import Database
from app.games.models import Game, Seat
from app.rules.engine.steps import StepId

Json = dict[str, Any]

# The steps of a Turn (2b) where saying Done loses nothing the seat must do: launching
# (3a), readying (3b), moving task forces (3c), scout routes (18c1), air movement and
# search (3d, 4), air return with nothing in the air (5), a radio note (17c3).
QUIET_STEPS = frozenset(
    {StepId.RADIO, StepId.ASSEMBLY, StepId.READY, StepId.SEA_MOVEMENT, StepId.SCOUT_ROUTES}
    | {StepId.AIR_MOVEMENT_AND_SEARCH, StepId.AIR_RETURN}
)
# The choices a quiet step offers that the seat may skip. Any other choice in a quiet
# step means something of the seat's is under way and wants a decision: air units in
# flight ("fly", "land", scouts' "route"), a scout's 15a "spend", a task force that must
# enter ("enter", where Done is not even offered).
# RULES? "launch" (3a), "arm"/"ready" (3b) and "move"/"exit" (3c) are optional in the
# rulebook: a side may keep its air units below and its task forces where they are.
# RULES? "sea-search", "search" and "search-area" (4, PTVM's area search) are optional:
# a side need not search.
# RULES? "note" (17c3) is "may": a radio note is never required.
# RULES? "sortie" (7c4.4, 7d4.2: the off-board scout "may enter" at an M hex, on its Turns
# only; Off-Board Bases 1 likewise): optional, though a chance that comes back rarely; a
# player who said Done for the Turn has said he lets it pass.
SKIPPABLE = frozenset(
    {"done", "launch", "arm", "ready", "move", "exit", "sea-search", "search", "search-area"}
    | {"note", "radio", "sortie"}
)
DONE: Json = {"kind": "done"}


@dataclass(frozen=True)
class Order:
    """A seat's standing Done: the Turn it stands for, and why it stopped (None: it
    stands)."""

    turn: int
    stopped: str | None = None

    @property
    def stands(self) -> bool:
        return self.stopped is None

    def to_json(self) -> Json:
        return {"turn": self.turn, "stands": self.stands, "stopped": self.stopped}


def quiet(doc: Json) -> str | None:
    """None when the seat, to act now, may say Done without looking; else why not, in
    words for its page (the order stops there)."""
    prompt = doc.get("prompt") or {}
    actions: list[Json] = prompt.get("actions") or []
    step = str(doc.get("step") or "")
    rule = prompt.get("rule")
    at = f"{step} ({rule})" if rule else step
    if step not in QUIET_STEPS:
        if "battle" in step or "combat" in step or "surface" in step or step in FIGHTING:
            return f"a battle: {at}"
        return f"a decision in {at}"
    if not any(a.get("kind") == "done" for a in actions):
        return f"something you must do before Done, in {at}"
    if prompt.get("lost_if_done"):
        return "air units that cannot land would be lost (5)"
    kinds = {str(a.get("kind")) for a in actions} - SKIPPABLE
    if "land" in kinds:
        return "air units in the air must land (5)"
    if kinds & {"fly", "route", "route-to"}:
        return f"air units in the air, in {at}"
    if kinds:
        return f"a decision in {at} ({', '.join(sorted(kinds))})"
    return None


# The steps of a battle (4a, 16) whose names do not say so
FIGHTING = frozenset(
    {
        StepId.STRIKE_ORDER,
        StepId.BREAKTHROUGHS,
        StepId.FREE_ROLL,
        StepId.REORGANIZATION,
        StepId.AIRCRAFT_DAMAGE,
        StepId.TORPEDO_FIRE,
        StepId.GUNNERY,
        StepId.BREAKOFF,
        StepId.BOMBARDMENT,
        StepId.SUBMARINE_ATTACK,
        StepId.SURPRISE,
    }
)


def can_stand(doc: Json) -> bool:
    """Whether the page offers "Done for this Turn" now: the seat is to act in a quiet
    step of a Turn (not at set-up, not in a finished game)."""
    return (
        doc.get("status") != "finished"
        and isinstance(doc.get("turn"), int)
        and bool((doc.get("prompt") or {}).get("actions"))
        and quiet(doc) is None
    )


# -- the orders, in the seats table -------------------------------------------------------


def orders_of(db: Database, game_id: str) -> dict[str, Order]:
    """seat -> its order, of each seat of the game that gave one."""
    with db.read() as session:
        rows = session.execute(
            select(Seat.seat, Seat.standing_turn, Seat.standing_stop)
            .where(Seat.game_id == game_id)
            .where(Seat.standing_turn.is_not(None))
        ).all()
    return {str(seat): Order(int(turn or 0), stop) for seat, turn, stop in rows}


def games_with_orders(db: Database) -> list[str]:
    """The unfinished games where a seat's order stands (to resume at start-up: the
    server may have stopped before saying a Done it owed)."""
    with db.read() as session:
        rows = session.execute(
            select(Seat.game_id)
            .join(Game, Game.id == Seat.game_id)
            .where(Seat.standing_turn.is_not(None))
            .where(Seat.standing_stop.is_(None))
            .where(Game.status != "finished")
            .distinct()
        ).all()
    return sorted(str(r[0]) for r in rows)


def write_order(
    db: Database, game_id: str, seat: str, order: Order | None, was: Order | bool | None = True
) -> bool:
    """The seat's order as given (None: it has none); only in place of `was` unless it is
    True (whatever the seat had). Whether it was written."""
    query = update(Seat).where(Seat.game_id == game_id).where(Seat.seat == seat)
    if was is not True:
        old = was if isinstance(was, Order) else None
        query = query.where(
            Seat.standing_turn == old.turn if old else Seat.standing_turn.is_(None),
            Seat.standing_stop == old.stopped
            if old and old.stopped is not None
            else Seat.standing_stop.is_(None),
        )
    with db.write() as session:
        done = session.execute(
            query.values(
                standing_turn=order.turn if order else None,
                standing_stop=order.stopped if order else None,
            )
        )
        return bool(getattr(done, "rowcount", 1))


# -- the orders this process knows --------------------------------------------------------

MAX_GAMES_KEPT = 10_000


@dataclass
class StandingOrders:
    """The games' orders as this process knows them: read once per game, kept up by its
    own writes, read again after news of the game from another process (which may have
    written one). `on_change(game, seat)`: the seat's pages show it again."""

    db: Database
    on_change: Callable[[str, str], None] = lambda _game, _seat: None
    _kept: dict[str, dict[str, Order]] = field(default_factory=dict)

    def none_in(self, game_id: str) -> None:
        """A game just created: no seat has an order."""
        self._keep(game_id, {})

    def forget(self, game_id: str) -> None:
        self._kept.pop(game_id, None)

    def may_have(self, game_id: str) -> bool:
        """Whether the game may have an order (False only when known to have none)."""
        kept = self._kept.get(game_id)
        return kept is None or bool(kept)

    async def of(self, game_id: str) -> dict[str, Order]:
        kept = self._kept.get(game_id)
        if kept is None:
            kept = self._keep(game_id, await to_thread.run_sync(orders_of, self.db, game_id))
        return kept

    async def order(self, game_id: str, seat: str) -> Order | None:
        return (await self.of(game_id)).get(seat)

    async def give(
        self, game_id: str, seat: str, order: Order | None, was: Order | bool | None = True
    ) -> None:
        """Write the seat's order (None: it has none), and show it on its pages; in place
        of `was` only, unless True (the server ending or stopping an order it read must
        not undo one the player gave meanwhile)."""
        if not await to_thread.run_sync(write_order, self.db, game_id, seat, order, was):
            self.forget(game_id)  # another order was written: read them again
            return
        kept = dict(await self.of(game_id))
        if order is None:
            kept.pop(seat, None)
        else:
            kept[seat] = order
        self._keep(game_id, kept)
        self.on_change(game_id, seat)

    def _keep(self, game_id: str, orders: dict[str, Order]) -> dict[str, Order]:
        if len(self._kept) > MAX_GAMES_KEPT:
            self._kept.clear()
        self._kept[game_id] = orders
        return orders
