"""HTTP listeners on 127.0.0.1 for the webhook tests: each records what reached it (path,
Host header, JSON body, when) and answers as told: a status (204, 500, ...), a redirect,
or its status line one byte a second (a dribbling webhook)."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Got:
    path: str
    host: str
    body: dict[str, Any]
    at: float  # time.monotonic() when the request was read


@dataclass
class Listener:
    """`answers`: the statuses of the first requests, in order (204 after them);
    `location`: a 3xx's Location; `dribble`: seconds between the status line's bytes."""

    answers: list[int] = field(default_factory=list)
    location: str = ""
    dribble: float = 0.0
    got: list[Got] = field(default_factory=list)
    port: int = 0
    stop: threading.Event = field(default_factory=threading.Event)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def handler(self) -> type[BaseHTTPRequestHandler]:
        listener = self

        class Hook(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                size = int(self.headers.get("content-length", "0"))
                body = json.loads(self.rfile.read(size) or b"{}")
                listener.got.append(
                    Got(self.path, self.headers.get("host", ""), body, time.monotonic())
                )
                status = listener.answers.pop(0) if listener.answers else 204
                if listener.dribble:
                    try:
                        for byte in b"HTTP/1.1 204 No Content\r\n\r\n":
                            if listener.stop.wait(listener.dribble):
                                return
                            self.wfile.write(bytes([byte]))
                            self.wfile.flush()
                    except OSError:  # the client gave up: as it should
                        pass
                    self.close_connection = True
                    return
                self.send_response(status)
                if listener.location:
                    self.send_header("Location", listener.location)
                self.send_header("Content-Length", "0")
                self.end_headers()

            do_GET = do_POST

            def log_message(self, *args: Any) -> None:
                pass

        return Hook


@contextmanager
def listening(**how: Any) -> Iterator[Listener]:
    listener = Listener(**how)
    server = ThreadingHTTPServer(("127.0.0.1", 0), listener.handler())
    server.daemon_threads = True
    listener.port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield listener
    finally:
        listener.stop.set()
        server.shutdown()
        server.server_close()
