"""Helpers of the browser tests (and of ``scripts/screenshots.py``): a live server on a loopback
port, and a person at the table who acts only through the page (clicks, keys), reading only the
page's stable test hooks (``data-testid``) and the cards' ``data-card``.

No fixed sleeps: every wait is for something on the page (a selector, a response).
"""

from __future__ import annotations

import json
import socket
import threading
import time
import urllib.request
import weakref
from pathlib import Path
from typing import Any

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]

DESKTOP = {"width": 1440, "height": 900}
PHONE = {"width": 390, "height": 844}

#: the table is idle (nothing in flight, no animation) and it is the person's move or the end.
READY_PHASES = ("offer", "draw", "discard", "hand-over", "game-over")
READY = ("#table[aria-busy=false] [data-testid=status]:is("
         + ",".join(f"[data-phase={p}]" for p in READY_PHASES) + ")")
STATUS = "[data-testid=status]"
HAND_SLOTS = "[data-testid=hand] [data-card]"

POINTS = {r: min(i + 1, 10) for i, r in enumerate("A23456789TJQK")}
RANK_ORDER = {r: i for i, r in enumerate("A23456789TJQK")}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LiveServer:
    """The real app (``create_app``) under uvicorn in a background thread, on 127.0.0.1.

    ``stop()`` then ``start()`` again is a server restart on the same SQLite file and port (the
    page's origin, hence its localStorage, stays the same).
    """

    def __init__(self, db_path: Path, port: int | None = None, *, limits: bool = False,
                 reviews: Any = None) -> None:
        self.db_url = f"sqlite:///{db_path}"
        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.limits = limits
        self.reviews = reviews  # a ReviewSettings (the app's own when None)
        self._server: Any = None
        self._thread: threading.Thread | None = None

    def start(self, timeout: float = 20.0) -> LiveServer:
        import uvicorn

        from ginrummy.web import create_app
        from ginrummy.web.http.ratelimit import RateLimits

        kwargs: dict[str, Any] = {}
        if not self.limits:  # a test plays faster than a person: no per-minute limits
            kwargs["rate_limits"] = RateLimits(creates=None, requests=None)
        if self.reviews is not None:
            kwargs["reviews"] = self.reviews
        app = create_app(self.db_url, **kwargs)
        # a page's live stream does not end by itself: a stop waits 1 s for the open
        # requests, then cancels them (without, it waited for the page to close)
        config = uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning",
                                access_log=False, lifespan="on", timeout_graceful_shutdown=1)
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, name=f"uvicorn-{self.port}",
                                        daemon=True)
        self._thread.start()
        deadline = time.monotonic() + timeout
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError(f"the server on port {self.port} did not start")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        if self._server is not None and self._thread is not None:
            self._server.should_exit = True
            self._thread.join(timeout=15)
        self._server = None
        self._thread = None

    def api(self, method: str, path: str, token: str | None = None,
            body: dict[str, Any] | None = None) -> Any:
        """A JSON call to the server from the test (not through the page)."""
        return call_api(self.base, method, path, token, body)


def call_api(base: str, method: str, path: str, token: str | None = None,
             body: dict[str, Any] | None = None) -> Any:
    """A JSON call to the server at ``base`` from the test; its answer's JSON.

    :raises urllib.error.HTTPError: an answer other than 2xx."""
    headers = {"Accept": "application/json"}
    data = None
    if token:
        headers["Authorization"] = f"Bearer {token}"
    if body is not None:
        headers["Content-Type"] = "application/json"
        data = json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, headers=headers, method=method)
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read())


# ------------------------------------------------------------------------------ reading the page
READY_JS = ("() => document.getElementById('table').getAttribute('aria-busy') === 'false' && "
            f"{list(READY_PHASES)!r}.includes("
            "document.querySelector('[data-testid=status]').dataset.phase)")

#: pages whose context enforces the app's Content-Security-Policy (no ``bypass_csp``): there a
#: predicate cannot be evaluated in the page ('unsafe-eval' is not allowed), so waits poll a
#: selector instead (Playwright's selector polling backs off to 500 ms: slower).
STRICT_CSP: weakref.WeakSet[Any] = weakref.WeakSet()


def wait_ready(page: Any, timeout: float = 15_000) -> str:
    """Wait until it is the person's move (or the hand / game is over); the phase."""
    if page in STRICT_CSP:
        # attached, not visible: when a hand ends the result panel takes the table's place and
        # the status is not displayed (as READY_JS, which reads the phase only)
        page.wait_for_selector(READY, state="attached", timeout=timeout)
    else:
        page.wait_for_function(READY_JS, polling="raf", timeout=timeout)
    return phase(page)


def phase(page: Any) -> str:
    return str(page.get_attribute(STATUS, "data-phase"))


def hand(page: Any) -> list[str]:
    """The person's cards as shown, left to right."""
    return list(page.locator(HAND_SLOTS).evaluate_all("els => els.map(e => e.dataset.card)"))


def hand_info(page: Any) -> list[dict[str, Any]]:
    """Each shown card with its group (meld, deadwood, spare) and its tag (new, taken)."""
    return list(page.locator(HAND_SLOTS).evaluate_all(
        """els => els.map(e => {
             const g = e.closest('.group');
             const kind = g.classList.contains('meld') ? 'meld'
                        : g.classList.contains('spare') ? 'spare' : 'deadwood';
             const face = e.firstElementChild;
             return {card: e.dataset.card, group: kind,
                     taken: face.classList.contains('tag-taken'),
                     fresh: face.classList.contains('tag-new'),
                     pressed: e.getAttribute('aria-pressed') === 'true'};
           })"""))


def saved_game(page: Any) -> dict[str, str]:
    """``{game_id, token}`` the page keeps in localStorage to resume."""
    raw = page.evaluate("() => localStorage.getItem('ginrummy.current')")
    return dict(json.loads(raw)) if raw else {}


def is_action(response: Any) -> bool:
    return "/actions" in response.url and response.request.method == "POST"


def enabled(page: Any, testid: str) -> bool:
    loc = page.locator(f"[data-testid={testid}]")
    return bool(loc.is_visible() and loc.is_enabled())


# ------------------------------------------------------------------------------ acting
def new_game(page: Any, base: str, *, target: int | None = None, level: str | None = None,
             goto: bool = True, dialog_open: bool = False) -> str:
    """Open the page (which shows the new-game dialog to a fresh visitor), set the fields, deal;
    returns the first phase where the person acts."""
    if goto:
        page.goto(base + "/")
    elif not dialog_open:
        page.click("[data-testid=new-game]")
        # a game in play: the page asks first (issue 13, item 5); keep that game for later
        page.wait_for_selector("#dlg-new[open], #dlg-leave[open]")
        if page.locator("#dlg-leave[open]").count():
            page.click("[data-testid=leave-later]")
    page.wait_for_selector("#dlg-new[open] [data-testid=start-game]")
    if level:
        page.select_option("#new-level", level)
    if target is not None:
        if page.get_attribute("#new-fields-wrap", "open") is None:
            page.click("#new-fields-wrap > summary")
        page.fill("#f-target", str(target))
    with page.expect_response(lambda r: r.url.endswith("/api/games")
                              and r.request.method == "POST") as resp:
        page.click("[data-testid=start-game]")
    assert resp.value.status == 201, resp.value.text()
    page.wait_for_selector("#dlg-new", state="hidden")
    return wait_ready(page)


def click_action(page: Any, selector: str, timeout: float = 15_000) -> str:
    """Click something that posts an action; wait for the answer and for the table to be idle."""
    with page.expect_response(is_action, timeout=timeout) as resp:
        page.click(selector)
    assert resp.value.status == 200, resp.value.text()
    return wait_ready(page, timeout)


def choose_discard(info: list[dict[str, Any]]) -> str:
    """The player's policy: the highest card out of the melds (the spare card of 11 counts),
    never the card just taken from the discard pile."""
    free = [c for c in info if not c["taken"]]
    loose = [c for c in free if c["group"] != "meld"] or free
    best = max(loose, key=lambda c: (POINTS[c["card"][0]], RANK_ORDER[c["card"][0]],
                                     c["group"] == "spare"))
    return str(best["card"])


def draw(page: Any) -> str:
    """Draw from the stock (or the pile when the stock may not be drawn)."""
    if enabled(page, "stock"):
        return click_action(page, "[data-testid=stock]")
    if enabled(page, "discard-pile"):
        return click_action(page, "[data-testid=discard-pile]")
    return click_action(page, "[data-testid=pass]")


def discard(page: Any, card: str) -> str:
    page.click(f"[data-testid=hand] [data-card='{card}']")
    page.wait_for_selector(f"[data-testid=hand] [data-card='{card}'][aria-pressed=true]")
    return click_action(page, "[data-testid=discard]")


def play_turn(page: Any, *, take: bool = True, finish: bool = True) -> str:
    """One decision of the player's policy, by clicks only. Returns the phase after it.

    offer: take the upcard (``take``) or pass; draw: the stock; discard: big gin, gin or knock
    when lit (``finish``), else the highest loose card; hand over: next hand.
    """
    ph = wait_ready(page)
    if ph == "game-over":
        return ph
    if ph == "hand-over":
        return click_action(page, "[data-testid=next-hand]")
    if ph == "offer":
        if take and enabled(page, "take-upcard"):
            return click_action(page, "[data-testid=take-upcard]")
        return click_action(page, "[data-testid=pass]")
    if ph == "draw":
        return draw(page)
    assert ph == "discard", ph
    if finish:
        if enabled(page, "big-gin"):
            return click_action(page, "[data-testid=big-gin]")
        if enabled(page, "gin"):
            return click_action(page, "[data-testid=gin]")
        if enabled(page, "knock"):
            page.click("[data-testid=knock]")
            page.wait_for_selector("#dlg-knock[open] [data-testid=confirm-knock]")
            return click_action(page, "[data-testid=confirm-knock]")
    return discard(page, choose_discard(hand_info(page)))


def play_until(page: Any, phases: tuple[str, ...], max_steps: int = 400, **kw: Any) -> str:
    """Play the policy until the phase is one of ``phases``."""
    ph = wait_ready(page)
    for _ in range(max_steps):
        if ph in phases:
            return ph
        ph = play_turn(page, **kw)
    raise AssertionError(f"no {phases} after {max_steps} moves (phase {ph})")


def to_discard_phase(page: Any) -> None:
    """From a new deal, play (passing or drawing, never ending the hand) until the person
    holds 11 cards. The computer may knock before that (the deck is random: now and then it is
    dealt a hand it knocks with at its first turn): then on to the next hand, up to 5 times."""
    ended = 0
    for _ in range(60):
        ph = wait_ready(page)
        if ph == "discard":
            return
        if ph == "game-over" or (ph == "hand-over" and ended == 5):
            raise AssertionError(f"the hand ended early ({ended + 1} times)")
        if ph == "hand-over":
            ended += 1
            click_action(page, "[data-testid=next-hand]")
        elif ph == "offer":
            click_action(page, "[data-testid=pass]")
        else:
            draw(page)
    raise AssertionError("never reached the discard phase")


def to_draw_phase(page: Any) -> None:
    """Until the person is to draw: next hand after a hand-over, pass a first-turn offer,
    discard when holding 11."""
    for _ in range(20):
        ph = wait_ready(page)
        if ph == "draw":
            return
        if ph == "hand-over":
            click_action(page, "[data-testid=next-hand]")
        elif ph == "offer":
            click_action(page, "[data-testid=pass]")
        elif ph == "discard":
            discard(page, choose_discard(hand_info(page)))
        else:
            raise AssertionError(f"no draw phase: {ph}")
    raise AssertionError("never reached the draw phase")
