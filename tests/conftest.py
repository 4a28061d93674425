"""The order the suite runs in: the tests marked slow (whole games over HTTP, the fuzzers,
the schema run: each from several seconds to most of a minute) first, the others as
collected. Under xdist (`make test`) the workers then end on short tests, at about the
same time, not one of them on a long test while the other has nothing left to do."""

from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.hookimpl(trylast=True)  # after pytest's own grouping by fixture parameters
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


@pytest.fixture(autouse=True)
def databases_disposed(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every Database a test opens in this process is disposed when the test ends, its
    pooled connections closed rather than left to the garbage collector (which Python 3.13
    reports, in whichever test it happens to run, as an unclosed sqlite3 database)."""
    from app.games.db import Database

    opened: list[Database] = []
    connect = Database.connect.__func__  # type: ignore[attr-defined]

    def connect_and_keep(cls: type[Database], url: str) -> Database:
        db: Database = connect(cls, url)
        opened.append(db)
        return db

    monkeypatch.setattr(Database, "connect", classmethod(connect_and_keep))
    yield
    for db in opened:
        db.dispose()
