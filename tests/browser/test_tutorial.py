"""The tutorial in real Chromium: every step done by clicking (and one card by keyboard), a wrong
answer on each step that gets the "try again" feedback, then the button to the real table; on a
phone and on a desktop, under the page's real Content-Security-Policy."""

from __future__ import annotations

from typing import Any

import pytest
from browser_helpers import DESKTOP, PHONE, STRICT_CSP, LiveServer

pytestmark = pytest.mark.browser

FEEDBACK = "[data-testid=tu-feedback]"


def card(page: Any, name: str) -> Any:
    """A card button by its accessible name ("8 of spades")."""
    return page.locator("[data-testid=tu-board]").get_by_role("button", name=name, exact=True)


def verdict(page: Any, expected: str) -> str:
    page.wait_for_selector(f"{FEEDBACK}[data-verdict={expected}]")
    return str(page.inner_text(FEEDBACK))


def step(page: Any, name: str) -> None:
    page.wait_for_selector(f"[data-testid=tu-step][data-step={name}]")
    assert page.locator("[data-testid=tu-dots] li[aria-current=step]").count() == 1


def check(page: Any) -> None:
    page.get_by_test_id("tu-check").click()


def next_step(page: Any) -> None:
    nxt = page.get_by_test_id("tu-next")
    assert nxt.is_enabled()
    nxt.click()


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_every_step_by_clicking(new_context: Any, server: LiveServer, viewport: dict[str, int]
                                ) -> None:
    page = new_context(viewport=viewport, bypass_csp=False).new_page()
    STRICT_CSP.add(page)
    messages: list[str] = []
    errors: list[str] = []
    page.on("console", lambda m: messages.append(m.text))
    page.on("pageerror", lambda e: errors.append(str(e)))
    response = page.goto(server.base + "/tutorial?lang=en")
    assert response is not None and "script-src 'self'" in response.headers[
        "content-security-policy"]

    # 1. a set: a wrong pick first, then the set (one card chosen with the keyboard)
    step(page, "set")
    assert page.get_by_test_id("tu-next").is_disabled()
    for c in ("8 of spades", "8 of hearts", "king of diamonds"):
        card(page, c).click()
    check(page)
    assert "Try again" in verdict(page, "wrong")
    assert page.get_by_test_id("tu-next").is_disabled()
    page.get_by_test_id("tu-clear").click()
    card(page, "8 of spades").click()
    card(page, "8 of hearts").click()
    card(page, "8 of diamonds").focus()
    page.keyboard.press("Enter")
    assert card(page, "8 of diamonds").get_attribute("aria-pressed") == "true"
    check(page)
    assert "Right" in verdict(page, "right")
    next_step(page)

    # 2. a run: Q-K-A does not wrap
    step(page, "run")
    for c in ("queen of hearts", "king of hearts", "ace of hearts"):
        card(page, c).click()
    check(page)
    assert "ace is always low" in verdict(page, "wrong")
    page.get_by_test_id("tu-clear").click()
    for c in ("ace of hearts", "2 of hearts", "3 of hearts"):
        card(page, c).click()
    check(page)
    verdict(page, "right")
    next_step(page)

    # 3. deadwood: a melded card is not deadwood; the counter adds the values
    step(page, "deadwood")
    card(page, "8 of clubs").click()
    check(page)
    assert "in a meld" in verdict(page, "wrong")
    card(page, "8 of clubs").click()
    for c in ("king of hearts", "ace of diamonds", "6 of clubs", "2 of clubs"):
        card(page, c).click()
    assert "= 19" in page.inner_text("[data-testid=tu-counter]")
    check(page)
    assert "19" in verdict(page, "right")
    next_step(page)

    # 4. a turn: the stock is the worse draw; the card taken may not be discarded
    step(page, "turn")
    page.get_by_test_id("tu-stock").click()
    verdict(page, "wrong")
    page.locator("[data-testid=tu-pile]").get_by_role("button").click()
    verdict(page, "right")
    card(page, "7 of hearts").click()
    assert "may not discard" in verdict(page, "wrong")
    card(page, "4 of clubs").click()
    assert "25" in verdict(page, "wrong")
    card(page, "king of clubs").click()
    assert "19" in verdict(page, "right")
    next_step(page)

    # 5. knock or gin: deadwood exactly 10 knocks, it is not gin
    step(page, "knock")
    page.get_by_test_id("tu-gin").click()
    assert "Not gin" in verdict(page, "wrong")
    page.get_by_test_id("tu-knock").click()
    verdict(page, "right")
    next_step(page)

    # 6. layoffs and the undercut: 6S, then 7S onto the extended run
    step(page, "layoff")
    card(page, "6 of spades").click()
    check(page)
    assert "One more" in verdict(page, "wrong")
    card(page, "7 of spades").click()
    check(page)
    text = verdict(page, "right")
    assert "Undercut" in text and "26" in text
    next_step(page)

    # 7. to the real table
    step(page, "play")
    assert page.locator("[data-testid=tu-dots] li.done").count() == 7
    assert page.get_by_test_id("tu-next").is_hidden()
    page.get_by_test_id("tu-back").click()
    step(page, "layoff")
    next_step(page)
    play = page.get_by_test_id("tu-play")
    assert play.get_attribute("href") == "/?lang=en"
    play.click()
    page.wait_for_url(server.base + "/?lang=en")

    violations = [m for m in messages if "Content Security Policy" in m]
    assert not violations and not errors, (violations, errors)


def test_in_indonesian(page: Any, server: LiveServer) -> None:
    page.goto(server.base + "/tutorial?lang=id")
    step(page, "set")
    assert page.inner_text("#tu-title") == "Kombinasi: set"
    assert card(page, "8 sekop").count() == 1
    assert page.get_by_test_id("tu-next").inner_text() == "Berikutnya"
