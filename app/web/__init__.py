"""The browser front end (DESIGN.md, Browser): server-rendered pages made live by htmx,
the Searchboard, Battleboard and counters in SVG. Pages are rendered from a seat's view
only, never from the game state.

`routers` hold the pages, their regions, the live websocket and the static files;
`create_app()` adds their routes.
"""

from app.web import between_pages, live, routes

routers = (routes.router, live.router, between_pages.router)

__all__ = ["routers"]
