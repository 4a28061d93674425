"""The browser front end (DESIGN.md, Browser): server-rendered pages made live by htmx,
the Searchboard, Battleboard and counters in SVG. Pages are rendered from a seat's view
only, never from the game state.

`router` holds the pages, their regions, the live websocket and the static files;
`create_app()` includes it.
"""

from fastapi import APIRouter

from app.web import between_pages, live, routes

router = APIRouter()
router.include_router(routes.router)
router.include_router(live.router)
router.include_router(between_pages.router)

__all__ = ["router"]
