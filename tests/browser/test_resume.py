"""Resume: a reload or a server restart returns the player to the same game, same state; the
hand order chosen with Sort by suit / by rank survives a reload."""

from __future__ import annotations

from typing import Any

import pytest
from browser_helpers import (
    LiveServer,
    choose_discard,
    click_action,
    discard,
    hand,
    hand_info,
    new_game,
    phase,
    saved_game,
    to_discard_phase,
    to_draw_phase,
    wait_ready,
)

pytestmark = pytest.mark.browser

SUIT_SORT = "SHCD"
RANKS = "A23456789TJQK"


def snapshot(page: Any) -> dict[str, Any]:
    """What the player sees of the deal in play."""
    return {
        "phase": phase(page),
        "hand": hand(page),
        "tags": [(c["card"], c["group"], c["taken"], c["fresh"]) for c in hand_info(page)],
        "top": page.get_by_test_id("discard-pile").get_attribute("data-top"),
        "deadwood": page.get_by_test_id("deadwood").inner_text(),
        "game": saved_game(page)["game_id"],
    }


def test_reload_mid_hand_resumes(page: Any, server: LiveServer) -> None:
    new_game(page, server.base)
    for _attempt in range(3):
        to_discard_phase(page)
        before = snapshot(page)
        assert before["phase"] == "discard" and len(before["hand"]) == 11
        page.reload()
        wait_ready(page)
        assert snapshot(page) == before

        # one more move (the card just drawn stays where the page showed it), then a reload in
        # the draw phase
        if discard(page, choose_discard(hand_info(page))) == "draw":
            before = snapshot(page)
            page.reload()
            wait_ready(page)
            assert snapshot(page) == before
            return
        to_draw_phase(page)  # the computer ended the hand: once more in the next one
    raise AssertionError("the computer ended three hands in a row at once")


def test_server_restart_mid_hand_resumes(new_context: Any, fresh_server: LiveServer) -> None:
    page = new_context().new_page()
    new_game(page, fresh_server.base)
    to_discard_phase(page)
    before = snapshot(page)

    fresh_server.stop()
    fresh_server.start()  # same SQLite file, same port (same page origin)
    page.reload()
    wait_ready(page)
    assert snapshot(page) == before
    # and the game goes on
    card = choose_discard(hand_info(page))
    assert discard(page, card) in ("draw", "hand-over", "game-over")
    assert card not in hand(page)


def _sorted_by(cards: list[str], by: str) -> list[str]:
    if by == "suit":
        return sorted(cards, key=lambda c: (SUIT_SORT.index(c[1]), RANKS.index(c[0])))
    return sorted(cards, key=lambda c: (RANKS.index(c[0]), SUIT_SORT.index(c[1])))


@pytest.mark.parametrize("order", [("suit", "rank"), ("rank", "suit")])
def test_sorted_hand_order_survives_reload(page: Any, server: LiveServer,
                                           order: tuple[str, str]) -> None:
    ph = new_game(page, server.base)
    while ph == "hand-over":  # the computer knocked at its first turn (a random deal): next hand
        ph = click_action(page, "[data-testid=next-hand]")
    for by in order:
        with page.expect_response(lambda r: r.url.endswith("/order")
                                  and r.request.method == "PUT") as resp:
            page.get_by_test_id(f"sort-{by}").click()
        assert resp.value.status == 200
        shown = hand(page)
        # melds stay together; inside the deadwood the chosen order is plain to see
        loose = [c["card"] for c in hand_info(page) if c["group"] != "meld"]
        assert loose == _sorted_by(loose, by)
        page.reload()
        wait_ready(page)
        assert hand(page) == shown
