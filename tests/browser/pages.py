"""A seat page as a player uses it: click a counter, then a hex or a box; read what the
page shows. The test oracle (whose move it is, the seat's view version) comes from the
HTTP API with the seat's token, taken from the link the home page gave."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Locator, Page

from browser.games import HTTP

TIMEOUT_MS = 10_000
FOCUS_KEPT = """() => { const a = document.activeElement;
    return !!a && a !== document.body
        && !!a.closest('#r-prompt, #r-searchboard, #r-battle, #r-cards') }"""
# htmx has nothing under way. Predicates are functions, never bare expressions: Playwright
# polls an expression with eval(), which the page's Content Security Policy refuses.
SETTLED = (
    "() => !document.querySelector('.htmx-request, .htmx-settling, .htmx-swapping, .htmx-added')"
)
LINK = re.compile(r"/games/(?P<game>[0-9a-f]{16})/seat/(?P<seat>[\w-]+)#token=(?P<token>[\w-]+)")


def api_view(base: str, game: str, token: str) -> dict[str, Any]:
    r = HTTP.get(f"{base}/api/games/{game}", headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200, r.text
    view: dict[str, Any] = r.json()
    return view


@dataclass
class SeatPage:
    page: Page
    link: str
    folder: Path
    shots: list[Path] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        """Every script error and console error is kept: a test ends by checking none came."""
        self.page.on("pageerror", lambda e: self.errors.append(f"pageerror: {e}"))
        self.page.on("console", self._console)

    def _console(self, message: Any) -> None:
        expected = ("status of 409", "status of 401", "status of 404", "status of 422")
        if message.type == "error" and not any(e in message.text for e in expected):
            self.errors.append(f"console: {message.text}")

    @property
    def parts(self) -> dict[str, str]:
        m = LINK.search(self.link)
        assert m, self.link
        return m.groupdict()

    @property
    def seat(self) -> str:
        return self.parts["seat"]

    @property
    def base(self) -> str:
        return self.link.split("/games/")[0]

    def view(self) -> dict[str, Any]:
        return api_view(self.base, self.parts["game"], self.parts["token"])

    # -- reading the page ---------------------------------------------------------------

    def open(self) -> SeatPage:
        self.page.goto(self.link)
        self.live()
        return self

    def live(self) -> None:
        self.page.wait_for_selector("#conn[data-state=live]", timeout=TIMEOUT_MS)

    def version(self) -> int:
        v = self.page.get_attribute("#r-prompt", "data-v")
        return -1 if v is None else int(v)

    def pushed_version(self) -> int:
        """The version the live socket last brought the page to (its #sync stamp): a
        push re-sends only the regions that changed, so a region that did not (the
        umpire's prompt, say) keeps the version it was rendered at."""
        v = self.page.get_attribute("#sync", "data-v")
        return -1 if v is None else int(v)

    def synced(self) -> dict[str, Any]:
        """Wait until the page shows the seat's current view; return that view."""
        view = self.view()
        self._pushed(view["version"])
        return view

    def text(self, selector: str) -> str:
        return self.page.inner_text(selector)

    def keys(self, selector: str) -> list[str]:
        keys: list[str] = self.page.eval_on_selector_all(
            selector, "els => els.map(e => e.getAttribute('data-key'))"
        )
        return keys

    def board_keys(self) -> list[str]:
        return self.keys("#r-searchboard [data-key]")  # on the board and in its stacks

    def shot(self, name: str, selector: str = "") -> None:
        """A screenshot of the whole page, or of one element of it: a long game takes
        many, and the whole of a tall page costs about a second each."""
        path = self.folder / f"{len(self.shots) + 1:02d}-{self.seat}-{name}.png"
        if selector:
            self.page.locator(selector).first.screenshot(path=str(path))
        else:
            full_page_shot(self.page, path)
        self.shots.append(path)

    # -- acting -------------------------------------------------------------------------

    def _posting(self, locator: Locator, position: Any = None) -> None:
        """Click something that posts an action; wait until the page shows what followed."""
        before = self.version()
        locator.click(position=position)
        self.page.wait_for_function(
            "v => Number(document.getElementById('r-prompt').dataset.v) > v",
            arg=before,
            timeout=TIMEOUT_MS,
        )
        self._pushed(self.version())
        self.focus_kept()

    def focus_kept(self) -> None:
        """Issue 13: after every action the keyboard focus is on the board or the prompt
        (or the Operations Card clicked), never lost on <body>."""
        self.page.wait_for_function(FOCUS_KEPT, timeout=TIMEOUT_MS)

    def _pushed(self, version: int) -> None:
        """Wait for the websocket to have brought every region to `version`."""
        try:
            self.page.wait_for_function(
                "v => Number(document.getElementById('sync').dataset.v) >= v",
                arg=version,
                timeout=TIMEOUT_MS,
            )
        except PlaywrightError as exc:
            raise AssertionError(
                f"{self.seat} page not at version {version}: {self.state()}"
            ) from exc

    def state(self) -> dict[str, Any]:
        """For failure messages: what the page has, and what the server says."""
        state: dict[str, Any] = self.page.evaluate(
            """() => ({prompt: document.getElementById('r-prompt').dataset.v,
                sync: document.getElementById('sync').dataset.v,
                conn: document.getElementById('conn').textContent,
                flash: document.getElementById('flash').textContent})"""
        )
        view = self.view()
        return {**state, "server": view["version"], "step": view["step"]}

    def pick(self, selector: str) -> None:
        """Click a counter: it is selected and its targets light up. A counter in a stack
        on the board is reached by opening the stack first (issue 13)."""
        found = self.page.locator(selector)
        if not found.first.is_visible():
            at, key = found.first.get_attribute("data-at"), found.first.get_attribute("data-key")
            self.page.locator(f'[data-stack][data-at="{at}"]').click()
            found = self.page.locator(f'.stack-pop:not([hidden]) [data-key="{key}"]')
        found.first.click()
        self.page.wait_for_selector(f"{selector}.selected", timeout=TIMEOUT_MS)

    def target(self, selector: str, posts: bool = True) -> None:
        """Click a lit hex, box or counter: the matching legal action is posted. A hex is
        clicked near its top edge, by its code, where no counter stands."""
        lit = self.page.locator(f"{selector}.target").first
        lit.wait_for(state="attached", timeout=TIMEOUT_MS)
        if not lit.is_visible() and lit.get_attribute("data-at"):  # in a stack: open it
            at, key = lit.get_attribute("data-at"), lit.get_attribute("data-key")
            self.page.locator(f'[data-stack][data-at="{at}"]').click()
            lit = self.page.locator(f'.stack-pop:not([hidden]) [data-key="{key}"].target')
        lit.wait_for(timeout=TIMEOUT_MS)
        position = None
        if lit.get_attribute("data-hex") is not None:
            lit.scroll_into_view_if_needed()
            box = lit.bounding_box()
            assert box is not None
            position = {"x": box["width"] / 2, "y": box["height"] * 0.2}
        if posts:
            self._posting(lit, position)
        else:
            lit.click(position=position)

    def choose(self, label: str) -> None:
        """Click one of the prompt's buttons by its words, opening the folded list of all
        choices first when it is there (issue 13: at most 8 buttons in the bar)."""
        button = self.page.locator("#act button[name=action]", has_text=label).first
        # (`has` is matched inside each fold: the button by its own words, not from #act)
        inside = self.page.locator("button[name=action]", has_text=label)
        fold = self.page.locator("#act details.all-choices:not([open])", has=inside)
        if fold.count():
            fold.locator("summary").first.click()
        self._posting(button)

    def done(self) -> None:
        self._posting(self.page.locator("#act button.done"))


def place_by_clicking(jp: SeatPage, us: SeatPage) -> None:
    """7a2.2: Scenario One's task forces set up by clicking - the Mobile Force in J2,
    Task Force 17 in L2, Task Force 16 in N4."""
    jp.pick('#act .subject[data-key="tf:japan:MobileForce"]')
    jp.target('#r-searchboard [data-tkey="sb:J2"]')
    jp.done()
    us.synced()
    us.pick('#act .subject[data-key="tf:usa:TF17"]')
    us.target('#r-searchboard [data-tkey="sb:L2"]')
    us.pick('#act .subject[data-key="tf:usa:TF16"]')
    us.target('#r-searchboard [data-tkey="sb:N4"]')
    us.done()


def full_page_shot(page: Page, path: Path) -> None:
    """A screenshot of the whole page. After one, Chromium's scroll position as scripts see
    it and as clicks land can differ (the next click lands wide); scrolling to the top
    makes them agree again."""
    page.screenshot(path=str(path), full_page=True)
    page.evaluate("window.scrollTo(0, 0)")


def acting(pages: dict[str, SeatPage]) -> tuple[SeatPage, dict[str, Any]] | None:
    for page in pages.values():
        view = page.view()
        if view["prompt"]["actions"]:
            return page, view
    return None


def pass_until(pages: dict[str, SeatPage], step: str, turn: int | None = None) -> None:
    """Both players click Done, in the order the game asks, until `step` (of `turn`)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        found = acting(pages)
        assert found is not None, "nobody may act"
        page, view = found
        if view["step"] == step and (turn is None or view["turn"] == turn):
            page.synced()
            return
        page.synced()
        page.done()
    raise AssertionError(f"did not reach {step}")


def created_from_home(
    page: Page,
    base: str,
    scenario: str,
    mode: str = "two-player",
    *,
    teams: bool = False,
    seed: int | None = None,
) -> dict[str, str]:
    """A game made as a player makes one: the home page's form filled in and sent; the
    created page's seat links (tokens in their fragments), by seat. The seed field is
    the test server's (MIDWAY_ALLOW_SEED=1), so the game is the same every run."""
    page.goto(base + "/")
    page.check(f"input[name=scenario][value={scenario}]")
    page.check(f"input[name=mode][value={mode}]")
    if teams:
        page.check("input[name=teams]")
    if seed is not None:
        page.fill("input[name=seed]", str(seed))
    page.click("button[type=submit].primary")
    page.wait_for_selector("a.seat-link[href*='#token=']", timeout=TIMEOUT_MS)
    links: dict[str, str] = page.eval_on_selector_all(
        "a.seat-link", "els => Object.fromEntries(els.map(a => [a.dataset.seat, a.href]))"
    )
    return links


@dataclass
class Table:
    """A game created from the home page, every seat a player of its own: the seat links
    (tokens in their fragments) and each seat's page, open, in its own browser context."""

    links: dict[str, str]
    pages: dict[str, SeatPage]


@contextmanager
def seats_from_home(
    browser: Any,
    base: str,
    artifacts: Path,
    viewports: dict[str, dict[str, int]],
    scenario: str,
    mode: str = "two-player",
    *,
    teams: bool = False,
    seed: int | None = None,
) -> Iterator[Table]:
    """The game made in the first seat's browser (created_from_home), each seat of
    `viewports` opened in a context of its own. On a failure every page's screenshot is
    kept (FAILED); the contexts are closed however the test ends."""
    contexts = {seat: browser.new_context(viewport=v) for seat, v in viewports.items()}
    pages: dict[str, SeatPage] = {}
    try:
        host = contexts[next(iter(viewports))].new_page()
        links = created_from_home(host, base, scenario, mode, teams=teams, seed=seed)
        assert set(links) == set(contexts), (sorted(links), sorted(contexts))
        for seat, context in contexts.items():
            pages[seat] = SeatPage(context.new_page(), links[seat], artifacts).open()
        yield Table(links, pages)
    except Exception:
        for page in pages.values():
            page.shot("FAILED")
        raise
    finally:
        for context in contexts.values():
            context.close()
