"""Pro mode (issue 13, "what a demanding player misses"): a setting that turns off the automatic
meld marks, the extra-card marker and the deadwood counter for players who count for themselves.
The hand then shows the person's own order in one group; play goes on as before; the setting is
remembered in the browser and worded in the person's language."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import (
    HAND_SLOTS,
    LiveServer,
    click_action,
    discard,
    hand,
    new_game,
    wait_ready,
)
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

LOCALES = Path(__file__).resolve().parents[2] / "src" / "ginrummy" / "web" / "locales"


def _holding_eleven(page: Any, server: LiveServer, games: int = 5) -> None:
    """A new game played (passing, drawing from the stock) until the person holds 11 cards; the
    computer may end a deal early, so up to ``games`` new games are dealt."""
    for g in range(games):
        new_game(page, server.base, goto=g == 0)
        for _ in range(60):
            ph = wait_ready(page)
            if ph == "discard":
                return
            if ph in ("hand-over", "game-over"):
                break
            if ph == "offer":
                click_action(page, "[data-testid=pass]")
            else:
                click_action(page, "[data-testid=stock]")
    raise AssertionError(f"never held 11 cards in {games} games")


def _set_pro(page: Any, on: bool) -> None:
    page.click("#btn-settings")
    box = page.get_by_test_id("pro-mode")
    expect(box).to_be_visible()
    box.set_checked(on)
    page.click("#dlg-settings .dlg-buttons button")
    page.wait_for_selector("#dlg-settings", state="hidden")


def test_pro_mode_hides_the_counts_and_keeps_the_persons_order(page: Any,
                                                               server: LiveServer) -> None:
    _holding_eleven(page, server)
    counter = page.locator("#deadwood")
    expect(counter).not_to_be_empty()
    cards = sorted(hand(page))
    assert len(cards) == 11
    # the server's grouping as usual: no group of the pro kind
    assert page.locator("[data-testid=hand] .group.free").count() == 0

    _set_pro(page, True)
    assert json.loads(page.evaluate("localStorage.getItem('ginrummy.settings')"))["pro"] is True
    expect(page.locator("body")).to_have_class(_contains("pro"))
    expect(counter).to_be_empty()
    expect(counter).to_be_hidden()
    groups = page.locator("[data-testid=hand] .group")
    expect(groups).to_have_count(1)
    expect(groups.first).to_have_class(_contains("free"))
    assert page.locator("[data-testid=hand] .group.meld, [data-testid=hand] .group.spare, "
                        "[data-testid=hand] .group.deadwood").count() == 0
    expect(groups.first.locator(".group-mark")).to_be_hidden()
    assert sorted(hand(page)) == cards  # the same cards, only shown differently
    # the knock and gin buttons' reasons name no deadwood count either ("Deadwood 35 > 10")
    assert not re.search(r"\d", page.inner_text("#knock-why") + page.inner_text("#gin-why"))

    # moving a card by keyboard is kept in pro mode (the person's own order, PUT .../order)
    first, second = hand(page)[:2]
    page.focus(f"{HAND_SLOTS}[data-card='{first}']")
    page.keyboard.press("Shift+ArrowRight")
    expect(page.locator(HAND_SLOTS).nth(1)).to_have_attribute("data-card", first)
    assert hand(page)[0] == second

    # play goes on: a discard is made as usual (not the card just taken: none was taken)
    card = hand(page)[-1]
    discard(page, card)
    assert card not in hand(page)

    # remembered across a reload; still no counter
    page.reload()
    wait_ready(page)
    expect(page.locator("[data-testid=hand] .group")).to_have_count(1)
    expect(page.locator("#deadwood")).to_be_empty()

    # off again: the counter and the server's groups come back
    _set_pro(page, False)
    expect(page.locator("#deadwood")).not_to_be_empty()
    assert page.locator("[data-testid=hand] .group.free").count() == 0


def test_pro_mode_is_worded_in_each_language(page: Any, server: LiveServer) -> None:
    for lang in ("en", "id", "ms", "jv"):
        cat = json.loads((LOCALES / f"{lang}.json").read_text(encoding="utf-8"))
        page.goto(server.base + f"/?lang={lang}")
        page.wait_for_selector("#dlg-new[open]")
        page.keyboard.press("Escape")  # the opening dialog may be closed to reach the settings
        page.wait_for_selector("#dlg-new", state="hidden")
        page.click("#btn-settings")
        expect(page.locator("#set-pro + span")).to_have_text(cat["settings.pro"])
        expect(page.locator("#set-pro-note")).to_have_text(cat["settings.pro_note"])
        page.click("#dlg-settings .dlg-buttons button")


def _contains(word: str) -> Any:
    return re.compile(rf"(^|\s){re.escape(word)}(\s|$)")
