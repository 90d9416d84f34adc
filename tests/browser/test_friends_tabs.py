"""A table of people in two tabs of one browser (issue 10: "a reload; a stale tab"), found by
trying to break it in Chromium:

- a person who leaves the table in one tab: the other tab of the same seat says so and goes to a
  new game, instead of showing the old table as "Not connected" and asking the server for it
  again every 0.8 s for ever; and it leaves the game the first tab moved on to as that tab's
  current game (a reload there keeps it);
- the invite link open in two tabs before joining: joining in the second tab after the first
  joined puts the person back in the seat they hold, never in a second seat (nor refused for
  their own name);
- a reload of the waiting table, and of the table in play, by the person who joined.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from browser_helpers import LiveServer
from test_friends import (
    IDLE,
    WAITING,
    _started_pair,
    create_table,
    join_table,
    person,
    start,
)

pytestmark = pytest.mark.browser


def current(page: Any) -> Any:
    return page.evaluate("() => JSON.parse(localStorage.getItem('ginrummy.current'))")


def test_leaving_in_one_tab_ends_the_table_in_the_other(new_context: Any,
                                                        server: LiveServer) -> None:
    ann, bo, url = _started_pair(new_context, server.base)
    bo2 = bo.context.new_page()  # the same person, a second tab on the same seat
    errors: list[str] = []
    bo2.on("pageerror", lambda e: errors.append(str(e)))
    bo2.goto(url)
    bo2.wait_for_selector("[data-testid=hand] [data-card]")
    bo2.wait_for_selector(IDLE)
    table_id = current(bo2)["game_id"]
    asked: list[float] = []
    bo2.on("request", lambda r: asked.append(time.monotonic())
           if f"/api/games/{table_id}" in r.url else None)
    # Bo leaves in his first tab, then starts a game against the computer there
    bo.get_by_test_id("leave-table").click()  # the page asks first, in its own dialog
    bo.get_by_test_id("confirm-dialog").wait_for(state="visible")
    with bo.expect_response(lambda r: r.url.endswith("/leave")) as resp:
        bo.get_by_test_id("confirm-ok").click()
    assert resp.value.status == 200
    bo.wait_for_selector("#dlg-new[open]")
    bo.select_option("[data-testid=opponent-kind]", "computer")
    with bo.expect_response(lambda r: r.url.endswith("/api/games")
                            and r.request.method == "POST") as resp:
        bo.get_by_test_id("start-game").click()
    assert resp.value.status == 201
    new_id = resp.value.json()["game_id"]
    # the second tab learns that the seat is gone: it says so and offers a new game
    bo2.wait_for_selector("#dlg-new[open]", timeout=15_000)
    toast = bo2.locator("#toast")
    assert "You left this table" in toast.inner_text(), toast.inner_text()
    assert bo2.locator("[data-testid=hand] [data-card]").count() == 0
    # ...and stops asking for it
    settled = time.monotonic()
    bo2.wait_for_timeout(3_000)
    assert [t for t in asked if t > settled + 0.5] == []
    # the first tab's new game is still the browser's current game: a reload there keeps it
    assert current(bo)["game_id"] == new_id
    bo.reload()
    bo.wait_for_selector("[data-testid=hand] [data-card]")
    assert current(bo)["game_id"] == new_id
    assert not errors


def test_the_invite_open_in_two_tabs_seats_the_person_once(new_context: Any,
                                                           server: LiveServer) -> None:
    ann = person(new_context)
    url = create_table(ann, server.base, name="Ann", scoring="three_player",
                       seats=("open", "open"))
    code = url.rsplit("/", 1)[1]
    bo = person(new_context)
    stale = []
    for _ in range(2):  # two more tabs of Bo's browser show the join dialog, before he joins
        tab = bo.context.new_page()
        tab.goto(url)
        tab.wait_for_selector("#dlg-join[open] [data-testid=join-name]")
        stale.append(tab)
    joined = join_table(bo, url, "Bo")
    # in a stale tab he types his name again, or another, and takes a seat: he is back in the
    # seat he holds (never a second seat, never refused for his own name)
    for tab, name in zip(stale, ("Bo", "Bobby"), strict=True):
        tab.fill("[data-testid=join-name]", name)
        tab.get_by_test_id("join-table").click()
        tab.wait_for_selector("#dlg-join", state="hidden")
        tab.wait_for_selector(f"{WAITING}:visible")
        assert tab.locator("#waiting-seats li[data-kind=open]").count() == 1
        mine = tab.inner_text(f"#waiting-seats li[data-seat='{joined['seat']}']")
        assert mine.startswith("Bo (You)"), mine
        seats = server.api("GET", f"/api/invites/{code}")["seats"]
        assert [s["kind"] for s in seats] == ["person", "person", "open"], seats
    assert not bo.errors


def test_the_person_who_joined_reloads_while_waiting_and_in_play(new_context: Any,
                                                                  server: LiveServer) -> None:
    ann = person(new_context)
    bo = person(new_context)
    url = create_table(ann, server.base, name="Ann")
    join_table(bo, url, "Bo")
    bo.reload()
    bo.wait_for_selector(f"{WAITING}:visible")
    assert not bo.locator("#dlg-join[open]").count()
    assert "Ann" in bo.inner_text("#waiting-seats")
    start(ann)
    bo.wait_for_selector(WAITING, state="hidden", timeout=10_000)
    bo.wait_for_selector(IDLE)
    cards = sorted(bo.locator("[data-testid=hand] [data-card]").evaluate_all(
        "els => els.map(e => e.dataset.card)"))
    bo.goto(server.base + "/")  # the site's address, not the link
    bo.wait_for_selector("[data-testid=hand] [data-card]")
    assert sorted(bo.locator("[data-testid=hand] [data-card]").evaluate_all(
        "els => els.map(e => e.dataset.card)")) == cards
    assert "Ann" in bo.inner_text("#opp-name")
    assert not bo.errors and not ann.errors
