"""The move log and the whole discard pile (issue 13, item 10): after a reload during the
computer's move the table says what it did; the log names only public cards (a stock draw never
names its card); the pile's view lists every card of the pile, bottom first, by keyboard too."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import (
    PHONE,
    LiveServer,
    choose_discard,
    discard,
    hand_info,
    new_game,
    play_turn,
    saved_game,
    wait_ready,
)

pytestmark = pytest.mark.browser

EN = json.loads((Path(__file__).parents[2] / "src/ginrummy/web/locales/en.json")
                .read_text(encoding="utf-8"))


def card_name(card: str) -> str:
    rank = EN.get(f"rankName.{card[0]}", "10" if card[0] == "T" else card[0])
    return EN["card.name"].replace("{rank}", rank).replace("{suit}", EN[f"suit.{card[1]}"])


def log_lines(page: Any) -> list[dict[str, str]]:
    return list(page.locator("#moves-list li").evaluate_all(
        "els => els.map(e => ({type: e.dataset.type || '', text: e.textContent}))"))


def server_state(server: LiveServer, page: Any) -> dict[str, Any]:
    g = saved_game(page)
    return dict(server.api("GET", f"/api/games/{g['game_id']}", g["token"]))


def play_until_computer_discarded(page: Any, server: LiveServer, pile: int = 1
                                  ) -> dict[str, Any]:
    """Play (never ending a hand on purpose) until the deal in play has a discard by the
    computer, the discard pile at least ``pile`` cards, and it is the person's turn to draw;
    the server's state then."""
    for _ in range(40):
        ph = wait_ready(page)
        if ph == "draw":
            st = server_state(server, page)
            if any(e["type"] == "discard" and e["seat"] == 1 for e in st["events"]) \
                    and len(st["discard_pile"]) >= pile:
                return st
        if ph == "discard":
            discard(page, choose_discard(hand_info(page)))
        else:
            play_turn(page, finish=False)
    raise AssertionError("the computer never discarded in 40 moves")


def check_log(page: Any, st: dict[str, Any]) -> None:
    lines = log_lines(page)
    events = [e for e in st["events"] if e["type"] != "game_over"]
    assert [ln["type"] for ln in lines] == [e["type"] for e in events]
    for ln, e in zip(lines, events, strict=True):
        if e["type"] == "discard":
            who = "You" if e["seat"] == 0 else "Computer"
            assert ln["text"] == f"{who} discarded the {card_name(e['card'])}.", ln
        if e["type"] == "draw_stock":
            # public: never the card, not even the person's own
            who = "You" if e["seat"] == 0 else "Computer"
            assert ln["text"] == f"{who} drew from the stock.", ln
    last = [e for e in events if e["seat"] == 1 and e["type"] != "deal"][-1]
    assert page.get_by_test_id("last-move").is_visible()
    assert page.get_by_test_id("last-move").inner_text().startswith("Last move: Computer")
    if last["type"] == "discard":
        assert card_name(last["card"]) in page.get_by_test_id("last-move").inner_text()


def test_move_log_survives_a_reload_and_names_no_stock_card(page: Any, server: LiveServer
                                                           ) -> None:
    new_game(page, server.base)
    st = play_until_computer_discarded(page, server)
    assert page.get_by_test_id("move-log").is_visible()
    check_log(page, st)
    own_stock = {e["card"] for e in st["events"] if e["type"] == "draw_stock" and e.get("card")}
    text = page.get_by_test_id("move-log").inner_text()
    assert not any(card_name(c) in text for c in own_stock
                   if not any(e.get("card") == c and e["type"] != "draw_stock"
                              for e in st["events"]))
    # a reload (as after one during the computer's move): the same log, from the server
    page.reload()
    wait_ready(page)
    check_log(page, server_state(server, page))


def test_whole_discard_pile_by_keyboard(page: Any, server: LiveServer) -> None:
    new_game(page, server.base)
    st = play_until_computer_discarded(page, server, pile=4)
    pile = st["discard_pile"]
    button = page.get_by_test_id("pile-view")
    assert button.inner_text() == f"See all ({len(pile)})"
    button.focus()
    page.keyboard.press("Enter")
    dlg = page.get_by_test_id("pile-dialog")
    dlg.wait_for(state="visible")
    shown = page.locator("#pile-list li").evaluate_all("els => els.map(e => e.dataset.card)")
    assert shown == pile  # every card, bottom first
    assert page.locator("#pile-list li.top").get_attribute("data-card") == pile[-1]
    # who put each card there (the log of the deal is complete): the top card's, from the events
    put = [e for e in st["events"] if e["type"] == "discard" and e.get("card") == pile[-1]]
    who = "upcard" if not put else ("You" if put[-1]["seat"] == 0 else "Computer")
    assert page.locator("#pile-list li.top [role=img]").get_attribute("aria-label") \
        == f"{card_name(pile[-1])}, {who}, top"
    assert page.locator("#pile-list li .pile-by").count() == len(pile)
    assert page.get_by_test_id("pile-dialog").inner_text().count(
        f"{len(pile)} cards, from the bottom up") == 1
    page.keyboard.press("Escape")
    dlg.wait_for(state="hidden")
    assert page.evaluate("() => document.activeElement.id") == "btn-pile"


def test_move_log_on_a_phone_fits(new_context: Any, server: LiveServer) -> None:
    page = new_context(viewport=PHONE).new_page()
    new_game(page, server.base)
    play_until_computer_discarded(page, server)
    box = page.get_by_test_id("move-log").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    page.get_by_test_id("pile-view").click()
    page.get_by_test_id("pile-dialog").wait_for(state="visible")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
