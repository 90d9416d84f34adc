""""New game" at a table of people (issue 10, found by a fresh tester): the page asks first, in
its own dialog, whether the table is waiting for people or in play, and says what leaving does;
the table left stays reachable: a waiting table is listed under "Games in progress" with who
has joined and how many seats are open, and reopens where it was (same invite link, same seats),
as a game in progress does."""

from __future__ import annotations

from typing import Any

import pytest
from browser_helpers import LiveServer, wait_ready
from test_friends import (
    WAITING,
    _started_pair,
    create_table,
    join_table,
    person,
    start,
)

pytestmark = pytest.mark.browser

LEAVE = "#dlg-leave[open]"


def ask_new_game(page: Any) -> Any:
    page.get_by_test_id("new-game").click()
    page.wait_for_selector(LEAVE)
    return page.get_by_test_id("leave-dialog")


def resume_rows(page: Any) -> Any:
    listed = page.get_by_test_id("games-in-progress")
    listed.wait_for(state="visible")
    return listed.locator("li")


def test_new_game_at_a_waiting_table_asks_and_the_table_stays_listed(
        new_context: Any, server: LiveServer) -> None:
    ann = person(new_context)
    bo = person(new_context)
    url = create_table(ann, server.base, name="Ann", scoring="three_player",
                       seats=("open", "open"))
    join_table(bo, url, "Bo")
    ann.wait_for_selector("#waiting-seats li[data-seat='1'][data-kind=person]", timeout=10_000)
    game_id = ann.evaluate("() => JSON.parse(localStorage.getItem('ginrummy.current')).game_id")
    # before the start the variant bar names the table only: no score, no "Computer 2" for the
    # open seat
    assert ann.get_by_test_id("variant-bar").inner_text().strip() == "Three players"
    # the host asks for a new game while a seat is still open: the page asks first
    dlg = ask_new_game(ann)
    assert dlg.locator("h2").inner_text() == "Leave this table for now?"
    text = ann.inner_text("#leave-text")
    assert "has not started yet: You, Bo · 1 seat open." in text, text
    assert "invite link keeps working" in text
    assert not ann.get_by_test_id("leave-resign").is_visible()  # a table of people: no resigning
    assert ann.get_by_test_id("leave-keep").inner_text() == "Keep waiting"
    assert ann.evaluate("() => document.activeElement.id") == "leave-keep"
    ann.get_by_test_id("leave-keep").click()
    ann.wait_for_selector(LEAVE, state="detached")
    assert ann.locator(f"{WAITING}:visible").count() == 1
    assert not ann.locator("#dlg-new[open]").count()
    # the person who joined is asked too (their seat waits for the start)
    ask_new_game(bo)
    assert "has not started yet: Ann, You · 1 seat open." in bo.inner_text("#leave-text")
    bo.keyboard.press("Escape")
    bo.wait_for_selector(LEAVE, state="detached")
    # now the host leaves it for later: it is listed as waiting, with who has joined
    ask_new_game(ann)
    ann.get_by_test_id("leave-later").click()
    ann.wait_for_selector("#dlg-new[open]")
    row = resume_rows(ann).filter(has_text="Waiting for players")
    row.wait_for(state="visible")
    assert row.get_attribute("data-game") == game_id
    assert "Three players" in row.inner_text()
    assert "Waiting for players: You, Bo · 1 seat open" in row.inner_text()
    assert row.get_by_test_id("resign-game").count() == 0
    # the dialog describes a table of friends as one (never "You and two computers")
    assert ann.get_by_test_id("opponent-kind").input_value() == "friends"
    note = ann.inner_text("#new-preset-note")
    assert "Three players. The dealer sits out" in note and "computers" not in note, note
    # a game against the computer in the meantime
    ann.select_option("[data-testid=opponent-kind]", "computer")
    assert "You and two computers." in ann.inner_text("#new-preset-note")
    with ann.expect_response(lambda r: r.url.endswith("/api/games")
                             and r.request.method == "POST") as resp:
        ann.get_by_test_id("start-game").click()
    assert resp.value.status == 201
    ann.wait_for_selector("#dlg-new", state="hidden")
    wait_ready(ann)
    # back to the waiting table through the list (the game against the computer kept for later)
    ask_new_game(ann)
    assert ann.locator("#dlg-leave h2").inner_text() == "Leave this game?"
    assert ann.get_by_test_id("leave-resign").is_visible()
    ann.get_by_test_id("leave-later").click()
    ann.wait_for_selector("#dlg-new[open]")
    rows = resume_rows(ann)
    rows.filter(has_text="Waiting for players").wait_for(state="visible")
    rows.filter(has_text="Hand 1").wait_for(state="visible")
    rows.filter(has_text="Waiting for players").get_by_test_id("resume-game").click()
    ann.wait_for_selector(f"{WAITING}:visible")
    assert ann.get_attribute("[data-testid=invite-link]", "href") == url
    assert ann.locator("#waiting-seats li[data-kind=open]").count() == 1
    assert "Bo" in ann.inner_text("#waiting-seats")
    # and the table goes on: a third person joins, the host starts it, all are dealt in
    cy = person(new_context)
    join_table(cy, url, "Cy")
    start(ann)
    for p in (bo, cy):
        p.wait_for_selector(WAITING, state="hidden", timeout=10_000)
    assert not ann.errors and not bo.errors and not cy.errors


def test_new_game_in_play_at_a_table_of_people_says_who_waits(new_context: Any,
                                                               server: LiveServer) -> None:
    ann, bo, _url = _started_pair(new_context, server.base)
    dlg = ask_new_game(ann)
    assert dlg.locator("h2").inner_text() == "Leave this game?"
    text = ann.inner_text("#leave-text")
    assert text.startswith("Hand 1 of this game is in play.")
    assert "Bo will see you as away until you come back." in text, text
    assert not ann.get_by_test_id("leave-resign").is_visible()
    # in the page's language after a change of language
    ann.get_by_test_id("leave-keep").click()
    ann.select_option("#lang-select", "id")
    ask_new_game(ann)
    assert ann.locator("#dlg-leave h2").inner_text() == "Tinggalkan permainan ini?"
    assert "Bo akan melihatmu sedang pergi" in ann.inner_text("#leave-text")
    assert not ann.errors and not bo.errors


def test_the_new_game_dialog_describes_a_table_of_friends_from_the_start(page: Any,
                                                                         server: LiveServer
                                                                         ) -> None:
    """The choices remembered from last time (friends, three players): the note under them
    speaks of three players, not of "two computers", as soon as the dialog opens."""
    page.goto(server.base + "/")
    page.evaluate("() => localStorage.setItem('ginrummy.newgame', JSON.stringify("
                  "{kind: 'friends', scoring: 'three_player', preset: 'standard'}))")
    page.reload()
    page.wait_for_selector("#dlg-new[open]")
    assert page.get_by_test_id("opponent-kind").input_value() == "friends"
    note = page.inner_text("#new-preset-note")
    assert "Three players. The dealer sits out" in note and "computers" not in note, note
