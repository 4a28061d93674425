"""The order the suite runs in: the tests marked slow (whole games over HTTP, the fuzzers,
the schema run: each from several seconds to most of a minute) first, the others as
collected. Under xdist (`make test`) the workers then end on short tests, at about the
same time, not one of them on a long test while the other has nothing left to do."""

from __future__ import annotations

import pytest


@pytest.hookimpl(trylast=True)  # after pytest's own grouping by fixture parameters
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)
