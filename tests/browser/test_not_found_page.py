"""The 404 page in Chromium (issue 13 item 4): an unknown address shows a page in the person's
language, on a phone as on a desktop, whose link leads back to the game."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from browser_helpers import DESKTOP, PHONE, LiveServer
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("locale,viewport,title,back", [
    ("id-ID", PHONE, "Halaman tidak ditemukan", "Kembali ke permainan"),
    ("en-US", DESKTOP, "Page not found", "Back to the game"),
])
def test_unknown_address_leads_back_to_the_game(new_context: Callable[..., Any],
                                                server: LiveServer, locale: str,
                                                viewport: dict[str, int], title: str,
                                                back: str) -> None:
    page = new_context(locale=locale, viewport=viewport, bypass_csp=False).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    response = page.goto(server.base + "/static/nope.js")
    assert response is not None and response.status == 404
    expect(page.get_by_role("heading", level=1)).to_have_text(title)
    # the page is styled like the other content pages and fits the screen
    assert page.evaluate("[...document.styleSheets].some(s => s.cssRules.length > 0)")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= viewport["width"]
    link = page.locator("main").get_by_role("link", name=back)
    expect(link).to_be_visible()
    link.click()
    page.wait_for_url(lambda url: url.split("?")[0].rstrip("/") == server.base)
    expect(page.locator("#table")).to_be_attached()
    assert not errors, errors
