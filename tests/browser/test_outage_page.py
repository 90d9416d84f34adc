"""The page while the server cannot answer (issue 21 item 4): an action or a reload answered 503
(the database away; ``Retry-After``) or not at all keeps the table as it was, says
"Reconnecting…" and asks again with back-off until the server answers; then play goes on. No
toast of an error, no new-game dialog over an empty table. (The server's 503 itself is tested
with a real outage in tests/web/test_outage.py; here the answers are made by the browser's
router, so that the outage lasts exactly as long as the test says.)"""

from __future__ import annotations

import json
from typing import Any

import pytest
from browser_helpers import (
    PHONE,
    STATUS,
    LiveServer,
    draw,
    enabled,
    hand,
    new_game,
    phase,
    to_draw_phase,
    wait_ready,
)

pytestmark = pytest.mark.browser

UNAVAILABLE = json.dumps({"detail": {
    "code": "unavailable", "message": "The game is unavailable for a moment: trying again in 1 s.",
    "reason": {"code": "unavailable", "params": {"seconds": 1}}}})


class Outage:
    """The page's game API answered 503 (Retry-After 1 s) until :meth:`end`; counts them."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.answered: list[str] = []
        page.route(self._api, self._down)

    @staticmethod
    def _api(url: str) -> bool:
        return "/api/games/" in url and "/live" not in url

    def _down(self, route: Any) -> None:
        self.answered.append(route.request.method + " " + route.request.url)
        route.fulfill(status=503, body=UNAVAILABLE, content_type="application/json",
                      headers={"Retry-After": "1"})

    def end(self) -> None:
        self.page.unroute(self._api, self._down)


def _reconnecting(page: Any) -> bool:
    return page.get_attribute(STATUS, "data-reconnecting") == "true"


@pytest.mark.parametrize("viewport", [PHONE, None], ids=["phone", "desktop"])
def test_an_action_in_an_outage_says_reconnecting_and_goes_on(
        new_context: Any, server: LiveServer, viewport: Any) -> None:
    page = new_context(**({"viewport": viewport} if viewport else {})).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    new_game(page, server.base)
    to_draw_phase(page)
    cards = hand(page)
    outage = Outage(page)
    if enabled(page, "stock"):
        page.click("[data-testid=stock]")
    else:
        page.click("[data-testid=discard-pile]")
    page.wait_for_selector(f"{STATUS}[data-reconnecting=true]", timeout=5_000)
    assert page.inner_text(STATUS) == "Reconnecting…"
    # it asks again (at least a second apart: Retry-After), the table as it was meanwhile
    page.wait_for_timeout(2_600)
    assert len(outage.answered) >= 3, outage.answered
    assert hand(page) == cards and phase(page) == "draw"
    assert not page.is_visible("#dlg-new") and page.is_visible("[data-testid=hand]")
    assert page.locator(".toast:visible").count() == 0
    outage.end()
    page.wait_for_selector(f"{STATUS}[data-reconnecting=false]", timeout=10_000)
    assert wait_ready(page) == "draw" and hand(page) == cards  # the 503 applied nothing
    assert draw(page) == "discard" and len(hand(page)) == 11  # and the game goes on
    assert errors == []


def test_a_reload_in_an_outage_waits_for_the_table(new_context: Any, server: LiveServer) -> None:
    page = new_context().new_page()
    new_game(page, server.base)
    to_draw_phase(page)
    cards = hand(page)
    outage = Outage(page)
    page.reload()
    page.wait_for_selector(f"{STATUS}[data-reconnecting=true]", timeout=10_000)
    page.wait_for_timeout(1_500)
    assert not page.is_visible("#dlg-new")  # no new-game dialog over an empty table
    assert len(outage.answered) >= 2
    outage.end()
    assert wait_ready(page) == "draw" and hand(page) == cards
    assert not _reconnecting(page)
