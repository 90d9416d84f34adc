"""Leaving a game in play (issue 13, item 5): "New game" asks first (a dialog worked by
keyboard: Escape keeps playing), a game kept for later is listed in the new-game dialog and
resumed where it was, and a resigned game is over and counted as lost."""

from __future__ import annotations

from typing import Any

import pytest
from browser_helpers import (
    LiveServer,
    hand,
    new_game,
    saved_game,
    wait_ready,
)

pytestmark = pytest.mark.browser


def open_leave(page: Any) -> None:
    page.get_by_test_id("new-game").focus()
    page.keyboard.press("Enter")
    page.get_by_test_id("leave-dialog").wait_for(state="visible")
    assert page.evaluate("() => document.activeElement.id") == "leave-keep"


def test_new_game_asks_first_and_escape_keeps_playing(page: Any, server: LiveServer) -> None:
    new_game(page, server.base)
    game = saved_game(page)["game_id"]
    cards = hand(page)
    open_leave(page)
    text = page.get_by_test_id("leave-dialog").inner_text()
    assert "Hand 1 of this game is in play." in text and "counts as a lost game" in text
    assert page.get_by_test_id("leave-resign").is_visible()
    page.keyboard.press("Escape")
    page.get_by_test_id("leave-dialog").wait_for(state="hidden")
    assert saved_game(page)["game_id"] == game and hand(page) == cards
    assert not page.locator("#dlg-new").is_visible()
    open_leave(page)  # Keep playing, by keyboard
    page.keyboard.press("Enter")
    page.get_by_test_id("leave-dialog").wait_for(state="hidden")
    assert saved_game(page)["game_id"] == game


def test_a_game_kept_for_later_is_resumed(page: Any, server: LiveServer) -> None:
    new_game(page, server.base, level="easy")
    first = saved_game(page)
    cards = hand(page)
    open_leave(page)
    page.get_by_test_id("leave-later").click()
    page.wait_for_selector("#dlg-new[open]")
    listed = page.get_by_test_id("games-in-progress")
    listed.wait_for(state="visible")
    row = listed.locator(f"li[data-game='{first['game_id']}']")
    st = server.api("GET", f"/api/games/{first['game_id']}", first["token"])
    you, them = st["score"]["hand_points"]  # 0, 0 unless the computer ended hand 1 at once
    assert f"Hand {st['hand_number']} · you {you}, Computer {them}" in row.inner_text()
    assert "Easy" in row.inner_text()
    # a second game, then back to the first from the list
    new_game(page, server.base, goto=False, dialog_open=True)
    second = saved_game(page)["game_id"]
    assert second != first["game_id"]
    open_leave(page)
    page.get_by_test_id("leave-later").click()
    page.wait_for_selector("#dlg-new[open]")
    row = page.get_by_test_id("games-in-progress").locator(f"li[data-game='{first['game_id']}']")
    row.wait_for(state="visible")
    assert page.get_by_test_id("games-in-progress").locator("li").count() == 2
    row.get_by_test_id("resume-game").click()
    page.wait_for_selector("#dlg-new", state="hidden")
    wait_ready(page)
    assert saved_game(page)["game_id"] == first["game_id"] and sorted(hand(page)) == sorted(cards)
    stats = server.api("GET", f"/api/games/{first['game_id']}", first["token"])
    assert stats["phase"] != "game-over"


def test_resign_and_start_a_new_game(page: Any, server: LiveServer) -> None:
    new_game(page, server.base)
    first = saved_game(page)
    open_leave(page)
    with page.expect_response(lambda r: r.url.endswith("/resign")) as resp:
        page.get_by_test_id("leave-resign").click()
    assert resp.value.status == 200
    page.wait_for_selector("#dlg-new[open]")
    # the resigned game is over, lost, and not offered to resume
    st = server.api("GET", f"/api/games/{first['game_id']}", first["token"])
    assert st["phase"] == "game-over" and st["resigned"] == {"seat": 0}
    assert not page.get_by_test_id("games-in-progress").is_visible()
    stored = page.evaluate("() => JSON.parse(localStorage.getItem('ginrummy.games') || '[]')")
    assert first["game_id"] not in [g["game_id"] for g in stored]
    # behind the dialog, the table says it was resigned
    page.click("#new-cancel")
    assert page.locator("#result-h").inner_text() == "You resigned: the game counts as lost."
    assert page.locator("#btn-again").is_visible()
    assert not page.get_by_test_id("next-hand").is_visible()
    # after a reload too
    page.reload()
    page.wait_for_selector("[data-testid=result]:not([hidden])")
    assert page.locator("#result-h").inner_text() == "You resigned: the game counts as lost."


def test_resign_from_the_list(page: Any, server: LiveServer) -> None:
    new_game(page, server.base)
    first = saved_game(page)
    open_leave(page)
    page.get_by_test_id("leave-later").click()
    row = page.get_by_test_id("games-in-progress").locator(f"li[data-game='{first['game_id']}']")
    row.wait_for(state="visible")
    row.get_by_test_id("resign-game").click()  # the page asks first, in its own dialog
    ask = page.get_by_test_id("confirm-dialog")
    ask.wait_for(state="visible")
    assert ask.locator("h2").inner_text() == "Resign this game?"
    assert page.evaluate("() => document.activeElement.id") == "confirm-cancel"  # the safe answer
    page.get_by_test_id("confirm-cancel").click()  # not now: nothing is resigned
    ask.wait_for(state="hidden")
    kept = server.api("GET", f"/api/games/{first['game_id']}", first["token"])
    assert kept.get("resigned") is None
    row.get_by_test_id("resign-game").click()
    ask.wait_for(state="visible")
    with page.expect_response(lambda r: r.url.endswith("/resign")) as resp:
        page.get_by_test_id("confirm-ok").click()
    assert resp.value.status == 200
    page.get_by_test_id("games-in-progress").wait_for(state="hidden")
    st = server.api("GET", f"/api/games/{first['game_id']}", first["token"])
    assert st["resigned"] == {"seat": 0}
