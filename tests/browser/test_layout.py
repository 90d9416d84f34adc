"""Phone (390x844) and desktop (1440x900): no horizontal scroll, all 11 cards visible and
clickable, the header's controls inside the screen."""

from __future__ import annotations

import json
from typing import Any

import pytest
from browser_helpers import (
    DESKTOP,
    HAND_SLOTS,
    PHONE,
    LiveServer,
    click_action,
    hand,
    new_game,
    phase,
    play_until,
    to_discard_phase,
)
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

CASES = {
    "phone": (PHONE, {}),
    "phone-large-cards": (PHONE, {"largeCards": True}),
    "desktop": (DESKTOP, {}),
}


def no_horizontal_scroll(page: Any) -> None:
    sw, cw = page.evaluate("() => [document.documentElement.scrollWidth, "
                           "document.documentElement.clientWidth]")
    assert sw <= cw, f"horizontal scroll: content {sw}px wide in {cw}px"


def inside_viewport(page: Any, selector: str, width: int) -> None:
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    assert box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, (selector, box)


@pytest.mark.parametrize("case", list(CASES))
def test_eleven_cards_fit_and_each_is_clickable(new_context: Any, server: LiveServer,
                                                case: str) -> None:
    viewport, settings = CASES[case]
    page = new_context(viewport=viewport).new_page()
    if settings:
        page.add_init_script(
            f"localStorage.setItem('ginrummy.settings', {json.dumps(json.dumps(settings))})")
    new_game(page, server.base)
    no_horizontal_scroll(page)
    for sel in ("[data-testid=new-game]", "[data-testid=language]", "[data-testid=stock]",
                "[data-testid=discard-pile]", "[data-testid=discard]", "[data-testid=knock]",
                "[data-testid=gin]", "[data-testid=sort-suit]"):
        inside_viewport(page, sel, viewport["width"])
    to_discard_phase(page)
    cards = hand(page)
    assert len(cards) == 11
    no_horizontal_scroll(page)
    for card in cards:
        slot = page.locator(f"{HAND_SLOTS}[data-card='{card}']")
        expect(slot).to_be_visible()
        inside_viewport(page, f"{HAND_SLOTS}[data-card='{card}']", viewport["width"])
        slot.click()  # Playwright checks that this very card receives the click
        expect(slot).to_have_attribute("aria-pressed", "true")
    assert phase(page) == "discard" and sorted(hand(page)) == sorted(cards)
    # the discard goes through on this size too
    click_action(page, "[data-testid=discard]")
    assert cards[-1] not in hand(page)


@pytest.mark.parametrize("case", ["phone", "desktop"])
def test_hand_over_panel_fits(new_context: Any, server: LiveServer, case: str) -> None:
    viewport, _ = CASES[case]
    page = new_context(viewport=viewport).new_page()
    new_game(page, server.base)
    play_until(page, ("hand-over", "game-over"))
    no_horizontal_scroll(page)
    result = page.get_by_test_id("result")
    expect(result).to_be_visible()
    inside_viewport(page, "[data-testid=result]", viewport["width"])
    button = page.get_by_test_id("next-hand")
    if phase(page) == "hand-over":
        expect(button).to_be_visible()
        inside_viewport(page, "[data-testid=next-hand]", viewport["width"])
