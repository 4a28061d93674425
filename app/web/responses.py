"""HTML answers, gzipped when the browser accepts it, and the static files.

The pages compress themselves (a seat page's first load must stay small) rather than put
a middleware in front of the whole API. Static files are read once, compressed once, and
served with a content-hash URL (`render.static_url`), so browsers may keep them forever.
"""

from __future__ import annotations

import gzip
import mimetypes
from dataclasses import dataclass
from functools import cache

from fastapi import Request, Response

from app.web.render import STATIC

MIN_GZIP_BYTES = 512
NO_STORE = "no-store"
# Pages load nothing from any other host, run no inline script, and are never framed.
SECURITY = {
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
        "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
FOREVER = "public, max-age=31536000, immutable"


def _gzip_ok(request: Request) -> bool:
    return "gzip" in request.headers.get("accept-encoding", "").lower()


def html(
    request: Request, body: str, status: int = 200, headers: dict[str, str] | None = None
) -> Response:
    """An HTML page or fragment: never cached (it is one seat's view at one moment)."""
    data = body.encode()
    out = {"Cache-Control": NO_STORE, "Vary": "Accept-Encoding", **SECURITY, **(headers or {})}
    if len(data) >= MIN_GZIP_BYTES and _gzip_ok(request):
        data = gzip.compress(data, compresslevel=6, mtime=0)
        out["Content-Encoding"] = "gzip"
    return Response(data, status_code=status, media_type="text/html; charset=utf-8", headers=out)


@dataclass(frozen=True)
class StaticFile:
    raw: bytes
    gz: bytes
    media_type: str


@cache
def static_file(name: str) -> StaticFile | None:
    """A file of app/static by its plain name (no folders, no dotfiles)."""
    if "/" in name or "\\" in name or name.startswith("."):
        return None
    path = STATIC / name
    if not path.is_file() or path.suffix not in (".js", ".css", ".svg"):
        return None
    raw = path.read_bytes()
    media = mimetypes.guess_type(name)[0] or "application/octet-stream"
    if media.startswith("text/") or media.endswith("javascript"):
        media += "; charset=utf-8"
    return StaticFile(raw, gzip.compress(raw, compresslevel=9, mtime=0), media)


def static(request: Request, name: str) -> Response:
    found = static_file(name)
    if found is None:
        return Response("not found", status_code=404, media_type="text/plain")
    headers = {"Cache-Control": FOREVER, "Vary": "Accept-Encoding"}
    body = found.raw
    if _gzip_ok(request):
        body = found.gz
        headers["Content-Encoding"] = "gzip"
    return Response(body, media_type=found.media_type, headers=headers)
