"""The server's logs: one JSON object per line on standard error, never a secret.

Every logger of the process (ours, uvicorn's, alembic's, the root) writes through one
handler with `JsonFormatter`. A seat token may reach a log only by a URL's query string
(`/api/games/G/ws?token=...`) or an `Authorization` header; so every line's text loses
its query strings and anything after `token=` or `Bearer ` before it is written, and the
request log (`app.api.access`) records paths without their query in the first place.

uvicorn's own line per websocket handshake (`"WebSocket /path?query" [accepted]`) is
dropped: the request log already has one line per socket, with its outcome.
"""

from __future__ import annotations

import json
import logging
import logging.config
import re
import traceback
from datetime import UTC, datetime
from typing import Any

# `/path?anything` -> `/path`; `token=...`, `Bearer ...` -> redacted.
_QUERY = re.compile(r"(/[^\s\"'?#]*)\?[^\s\"']*")
_SECRET = re.compile(r"(?i)(token[\"']?\s*[=:]\s*[\"']?|bearer\s+)[^\s\"'&,;}]+")
REDACTED = "[redacted]"
_SOCKET_NOISE = frozenset({"connection open", "connection closed"})

# Attributes every LogRecord has; anything else was passed in `extra=` and is logged.
# (uvicorn's `color_message` repeats the message with terminal colours: left out.)
_STANDARD = frozenset(logging.makeLogRecord({}).__dict__) | {"message", "asctime", "color_message"}


def scrub(text: str) -> str:
    """The text without query strings, and without what follows `token=` or `Bearer`."""
    if "?" not in text and not _MAYBE_SECRET.search(text):
        return text  # most lines: nothing to take out, and no substitution made
    return _SECRET.sub(lambda m: m.group(1) + REDACTED, _QUERY.sub(r"\1", text))


_MAYBE_SECRET = re.compile(r"(?i)token|bearer")  # what _SECRET can match starts so


def _scrub_value(value: Any) -> Any:
    if isinstance(value, str):
        return scrub(value)
    if isinstance(value, dict):
        return {k: _scrub_value(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_scrub_value(v) for v in value]
    return value


class JsonFormatter(logging.Formatter):
    """`{"ts", "level", "logger", "message", ...extra fields, "exc"}`, scrubbed."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": scrub(record.getMessage()),
        }
        for key, value in record.__dict__.items():
            if key not in _STANDARD and not key.startswith("_") and key not in line:
                line[key] = _scrub_value(value)
        if record.exc_info:
            text = "".join(traceback.format_exception(*record.exc_info))
            line["exc"] = scrub(text)
        return json.dumps(line, default=str, ensure_ascii=False)


class DropHandshakeLines(logging.Filter):
    """uvicorn's lines per websocket: `'%s - "WebSocket %s" ...'`, which carry the query
    string, and "connection open" / "connection closed"."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not (isinstance(record.msg, str) and record.name.startswith("uvicorn")):
            return True
        return '"WebSocket %s"' not in record.msg and record.msg not in _SOCKET_NOISE


def config(level: str = "info") -> dict[str, Any]:
    """A `logging.config.dictConfig` document (uvicorn's `log_config` too)."""
    level = level.upper()
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"json": {"()": JsonFormatter}},
        "filters": {"handshakes": {"()": DropHandshakeLines}},
        "handlers": {
            "json": {
                "class": "logging.StreamHandler",
                "formatter": "json",
                "filters": ["handshakes"],
                "stream": "ext://sys.stderr",
            }
        },
        "root": {"handlers": ["json"], "level": level},
        "loggers": {
            # uvicorn's loggers send their lines to the root's one handler.
            "uvicorn": {"handlers": [], "level": level, "propagate": True},
            "uvicorn.error": {"handlers": [], "level": level, "propagate": True},
            "uvicorn.access": {"handlers": [], "level": "WARNING", "propagate": True},
        },
    }


def configure(level: str = "info") -> None:
    # A line names no thread, process or source line (JsonFormatter writes only the
    # message and the extra fields): the records need not look them up (Python's logging
    # HOWTO, Optimization).
    logging.logThreads = False
    logging.logProcesses = False
    logging.logMultiprocessing = False
    logging.config.dictConfig(config(level))
