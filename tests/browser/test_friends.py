"""Tables of people in real Chromium (docs/tables.md, issue 10): people in separate browser
contexts, each acting only by clicks on their own page through the invite link; the live
connection carries every move to the others.

- two people play a whole two-player hand;
- a partnership table with two people and two computers plays a hand;
- a network drop shows "reconnecting", then the page catches up with the move it missed;
- a reload puts the person back in their seat; a stale second tab of the same seat recovers;
- a full table says so.
"""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest
from browser_helpers import (
    PHONE,
    READY_PHASES,
    STATUS,
    LiveServer,
    choose_discard,
    enabled,
    hand,
    hand_info,
    phase,
)

pytestmark: Any = pytest.mark.browser

try:  # the tables backend (docs/tables.md); until it is merged these tests cannot run
    import ginrummy.web.api.tables  # noqa: F401
except ImportError:  # pragma: no cover - a branch without the backend
    pytestmark = [pytest.mark.browser, pytest.mark.skip(
        reason="the tables backend (ginrummy.web.api.tables) is missing")]

IDLE = "#table[aria-busy=false]"
#: the hand's cards at least 14 px apart (render.js fitHand's tightest overlap)
SPREAD = """() => {
  const xs = [...document.querySelectorAll('[data-testid=hand] .slot')]
    .map((e) => e.getBoundingClientRect().left).sort((a, b) => a - b);
  return xs.length >= 10 && xs.slice(1).every((x, i) => x - xs[i] >= 14);
}"""
WAITING = "[data-testid=waiting]"


# ------------------------------------------------------------------------------ helpers
def person(new_context: Any, **kw: Any) -> Any:
    """A page of its own browser context (its own localStorage: one person); page errors fail."""
    page = new_context(**kw).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    return page


def create_table(page: Any, base: str, *, name: str, scoring: str = "standard",
                 seats: tuple[str, ...] = ("open",), target: int | None = None,
                 clock: int | None = None) -> str:
    """Set up a table of friends in the new-game dialog; returns the invite URL it shows."""
    page.goto(base + "/")
    page.wait_for_selector("#dlg-new[open] [data-testid=start-game]")
    page.select_option("[data-testid=opponent-kind]", "friends")
    page.select_option("[data-testid=new-scoring]", scoring)
    page.fill("[data-testid=your-name]", name)
    for i, choice in enumerate(seats, start=1):
        page.select_option(f"[data-testid=seat-choice-{i}]", choice)
    if clock is not None:
        page.select_option("[data-testid=turn-clock]", str(clock))
    if target is not None:
        if page.get_attribute("#new-fields-wrap", "open") is None:
            page.click("#new-fields-wrap > summary")
        page.fill("#f-target", str(target))
    with page.expect_response(lambda r: r.url.endswith("/api/games")
                              and r.request.method == "POST") as resp:
        page.click("[data-testid=start-game]")
    assert resp.value.status == 201, resp.value.text()
    body = resp.value.json()
    assert "seats" in body["state"] and body["invite"], body.keys()
    page.wait_for_selector(f"{WAITING}:visible")
    link = page.locator("[data-testid=invite-link]")
    href = str(link.get_attribute("href"))
    assert href.startswith("http://127.0.0.1:") and href == link.inner_text().strip()
    assert href == body["invite"]["url"] or href.endswith(body["invite"]["url"])
    return href


def join_table(page: Any, url: str, name: str) -> dict[str, Any]:
    """Open the invite link, type a name, take a seat; the answer of the join."""
    page.goto(url)
    page.wait_for_selector("#dlg-join[open] [data-testid=join-name]")
    page.fill("[data-testid=join-name]", name)
    with page.expect_response(lambda r: "/join" in r.url and r.request.method == "POST") as resp:
        page.click("[data-testid=join-table]")
    assert resp.value.status == 201, resp.value.text()
    page.wait_for_selector("#dlg-join", state="hidden")
    return dict(resp.value.json())


def start(page: Any) -> None:
    page.wait_for_selector("[data-testid=start-table]:enabled", timeout=10_000)
    with page.expect_response(lambda r: r.url.endswith("/start")) as resp:
        page.click("[data-testid=start-table]")
    assert resp.value.status == 200, resp.value.text()
    page.wait_for_selector(WAITING, state="hidden")


def ready(page: Any) -> str | None:
    """The person's phase when it is their move (or the hand / game is over) and the page is
    idle; None while others are to act."""
    busy = page.get_attribute("#table", "aria-busy")
    ph = phase(page)
    return ph if busy == "false" and ph in READY_PHASES else None


def click_and_settle(page: Any, selector: str) -> None:
    """Click something that posts an action; wait for the answer and for the page to be idle."""
    with page.expect_response(lambda r: "/actions" in r.url and r.request.method == "POST") as resp:
        page.click(selector)
    assert resp.value.status == 200, resp.value.text()
    page.wait_for_selector(IDLE)


def move(page: Any, ph: str, *, finish: bool = True) -> None:
    """One decision of the simple policy (browser_helpers.play_turn's), by clicks."""
    if ph == "offer":
        click_and_settle(page, "[data-testid=take-upcard]" if enabled(page, "take-upcard")
                         else "[data-testid=pass]")
    elif ph == "draw":
        if enabled(page, "stock"):
            click_and_settle(page, "[data-testid=stock]")
        elif enabled(page, "discard-pile"):
            click_and_settle(page, "[data-testid=discard-pile]")
        else:
            click_and_settle(page, "[data-testid=pass]")
    elif ph == "discard":
        if finish and enabled(page, "gin"):
            click_and_settle(page, "[data-testid=gin]")
        elif finish and enabled(page, "knock"):
            page.click("[data-testid=knock]")
            page.wait_for_selector("#dlg-knock[open] [data-testid=confirm-knock]")
            click_and_settle(page, "[data-testid=confirm-knock]")
        else:
            card = choose_discard(hand_info(page))
            page.click(f"[data-testid=hand] [data-card='{card}']")
            page.wait_for_selector(f"[data-testid=hand] [data-card='{card}'][aria-pressed=true]")
            click_and_settle(page, "[data-testid=discard]")
    else:
        raise AssertionError(ph)


def play_hand(pages: list[Any], *, one_at_a_time: bool = True, max_moves: int = 300,
              timeout: float = 120.0) -> int:
    """Each person moves when their page says it is their move, until every page shows the
    hand's end; the number of moves made. ``one_at_a_time``: exactly one person may act at a
    time (a two-player table; checked at every step; at a partnership table the two deals go on
    side by side)."""
    moves = 0
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and moves < max_moves:
        phases = [ready(p) for p in pages]
        if all(ph in ("hand-over", "game-over") for ph in phases):
            return moves
        acting = [(p, ph) for p, ph in zip(pages, phases, strict=True)
                  if ph in ("offer", "draw", "discard")]
        if not acting:
            pages[0].wait_for_timeout(50)
            continue
        if one_at_a_time:
            assert len(acting) == 1, phases
        page, ph = acting[0]
        move(page, ph)
        moves += 1
    raise AssertionError(f"the hand did not end: {[phase(p) for p in pages]} after {moves} moves")


def seat_chip(page: Any, seat: int) -> Any:
    return page.locator(f"[data-testid=seats] .seat-chip[data-seat='{seat}']")


# ------------------------------------------------------------------------------ tests
def test_two_people_play_a_whole_hand_through_the_invite_link(new_context: Any,
                                                              server: LiveServer) -> None:
    ann = person(new_context)
    bo = person(new_context, viewport=PHONE)
    url = create_table(ann, server.base, name="Ann")
    assert re.search(r"/join/[A-Za-z0-9_-]+$", url), url
    # the creator may not start while the seat is open
    assert ann.locator("[data-testid=start-table]").is_disabled()
    assert ann.locator("#waiting-seats li[data-kind=open]").count() == 1
    # the invite page shows the table before joining
    bo.goto(url)
    bo.wait_for_selector("#dlg-join[open]")
    assert "Two players" in bo.inner_text("#join-table-desc")
    assert bo.locator("#join-seats li").count() == 2
    assert "Ann" in bo.inner_text("#join-seats")
    joined = join_table(bo, url, "Bo <b>")
    assert joined["seat"] == 1
    bo.wait_for_selector(f"{WAITING}:visible")
    # Ann sees Bo arrive, live, his name as text
    ann.wait_for_selector("#waiting-seats li[data-seat='1'][data-kind=person]", timeout=10_000)
    assert "Bo <b>" in ann.inner_text("#waiting-seats")
    assert ann.locator("#waiting-seats b >> text=Bo").count() == 1
    assert not bo.locator("[data-testid=start-table]").is_visible()  # the creator's right
    start(ann)
    bo.wait_for_selector(WAITING, state="hidden", timeout=10_000)
    for p, other in ((ann, "Bo <b>"), (bo, "Ann")):
        p.wait_for_selector(IDLE)
        assert other in p.inner_text("#opp-name")
        assert p.locator("[data-testid=hand] [data-card]").count() >= 10
        # the hand, laid out while the waiting view hid it, is spread once it shows (a fresh
        # tester saw the joiner's cards 4 px apart until a resize)
        p.wait_for_function(SPREAD, timeout=5_000)
        chip = seat_chip(p, 1 - (0 if p is ann else 1))
        assert chip.get_attribute("data-presence") == "connected"
    # exactly one of them acts; the other's status says another seat is to act
    p_ann, p_bo = phase(ann), phase(bo)
    assert sorted([p_ann == "opponent", p_bo == "opponent"]) == [False, True], (p_ann, p_bo)
    actor = ann if p_ann != "opponent" else bo
    waiter = bo if actor is ann else ann
    waiter_seat = 1 if waiter is bo else 0
    assert seat_chip(actor, waiter_seat).get_attribute("aria-current") is None
    assert seat_chip(waiter, 1 - waiter_seat).get_attribute("aria-current") == "true"
    # neither page ever holds the other's cards
    mine = set(hand(ann))
    assert not mine & set(hand(bo))
    moves = play_hand([ann, bo])
    assert moves >= 2
    for p in (ann, bo):
        p.wait_for_selector("[data-testid=result]:visible")
        assert phase(p) in ("hand-over", "game-over")
    # both see the same result, each from their own side
    heads = [p.inner_text("#result-h") for p in (ann, bo)]
    assert all(h for h in heads)
    assert ann.inner_text("[data-testid=score]") and bo.inner_text("[data-testid=score]")
    assert "Bo <b>" in ann.inner_text("[data-testid=score]")
    replay = str(ann.locator("[data-testid=replay-link]").get_attribute("href"))
    assert replay.startswith("/replay?game=")
    # the deal's reveal (verify this deal) is there for both seats
    for p in (ann, bo):
        assert p.locator("[data-testid=fair-reveal] details").count() == 1
    assert not ann.errors and not bo.errors


def test_partnership_with_two_people_and_two_computers(new_context: Any,
                                                       server: LiveServer) -> None:
    ann = person(new_context)
    cy = person(new_context)
    url = create_table(ann, server.base, name="Ann", scoring="partnership",
                       seats=("easy", "open", "easy"))
    joined = join_table(cy, url, "Cy")
    assert joined["seat"] == 2
    start(ann)
    cy.wait_for_selector(WAITING, state="hidden", timeout=10_000)
    for p in (ann, cy):
        p.wait_for_selector(IDLE)
        assert p.locator("[data-testid=seats] .seat-chip").count() == 3
        assert p.locator("[data-testid=team-score]").is_visible()
    # each sees the other as partner, by name, and the computers with their level
    assert "Cy" in seat_chip(ann, 2).inner_text()
    assert "Ann" in seat_chip(cy, 0).inner_text()
    assert "(Easy)" in seat_chip(ann, 1).inner_text()
    # every other seat shows its card count, the other table's seats too (counts are public)
    for p, others in ((ann, (1, 2, 3)), (cy, (0, 1, 3))):
        for n in others:
            count = seat_chip(p, n).locator("[data-testid=seat-cards]")
            assert re.fullmatch(r"1[01] cards", count.inner_text().strip()), (n, count.inner_text())
    play_hand([ann, cy], one_at_a_time=False, timeout=180.0)
    for p in (ann, cy):
        p.wait_for_selector("[data-testid=result]:visible")
    assert not ann.errors and not cy.errors


def _started_pair(new_context: Any, base: str) -> tuple[Any, Any, str]:
    ann = person(new_context)
    bo = person(new_context)
    url = create_table(ann, base, name="Ann")
    join_table(bo, url, "Bo")
    start(ann)
    bo.wait_for_selector(WAITING, state="hidden", timeout=10_000)
    for p in (ann, bo):
        p.wait_for_selector(IDLE)
    return ann, bo, url


def _actor(ann: Any, bo: Any) -> tuple[Any, Any]:
    for _ in range(200):
        if ready(ann) in ("offer", "draw", "discard"):
            return ann, bo
        if ready(bo) in ("offer", "draw", "discard"):
            return bo, ann
        ann.wait_for_timeout(50)
    raise AssertionError("nobody to act")


def test_a_network_drop_shows_reconnecting_then_catches_up(new_context: Any,
                                                          server: LiveServer) -> None:
    ann, bo, _ = _started_pair(new_context, server.base)
    actor, waiter = _actor(ann, bo)
    waiter.context.set_offline(True)
    waiter.wait_for_selector("[data-testid=connection]:visible", timeout=10_000)
    assert "Reconnecting" in waiter.inner_text("[data-testid=connection]")
    before = waiter.locator("[data-testid=discard-pile]").get_attribute("data-top")
    move(actor, str(ready(actor)), finish=False)  # a move the offline page misses
    waiter.wait_for_timeout(300)
    waiter.context.set_offline(False)
    waiter.wait_for_selector("[data-testid=connection]", state="hidden", timeout=15_000)
    # caught up: the waiter's page shows the actor's move (the pile or the phase changed)
    actor_top = actor.locator("[data-testid=discard-pile]").get_attribute("data-top")
    waiter.wait_for_function(
        "(top) => document.querySelector('[data-testid=discard-pile]').dataset.top === top",
        arg=actor_top, timeout=10_000)
    assert before is not None
    # and the game goes on by clicks on both pages
    for _ in range(2):
        a, _w = _actor(ann, bo)
        move(a, str(ready(a)), finish=False)


def test_a_reload_puts_the_person_back_in_their_seat(new_context: Any,
                                                     server: LiveServer) -> None:
    ann, bo, url = _started_pair(new_context, server.base)
    cards = sorted(hand(bo))
    tables = bo.evaluate("() => JSON.parse(localStorage.getItem('ginrummy.tables'))")
    assert len(tables) == 1 and next(iter(tables.values()))["seat"] == 1
    bo.reload()
    bo.wait_for_selector(IDLE)
    bo.wait_for_selector("[data-testid=hand] [data-card]")
    assert sorted(hand(bo)) == cards
    assert not bo.locator("#dlg-join").is_visible()
    # opening the invite link again also puts him back (no second seat)
    bo.goto(url)
    bo.wait_for_selector("[data-testid=hand] [data-card]")
    assert sorted(hand(bo)) == cards
    assert not bo.locator("#dlg-join").is_visible()
    # the creator, reloading at /, is back at the table too
    ann_cards = sorted(hand(ann))
    ann.reload()
    ann.wait_for_selector("[data-testid=hand] [data-card]")
    assert sorted(hand(ann)) == ann_cards
    # and the table still plays
    a, _w = _actor(ann, bo)
    move(a, str(ready(a)), finish=False)


def test_a_stale_tab_of_the_same_seat_recovers(new_context: Any, server: LiveServer) -> None:
    ann, bo, url = _started_pair(new_context, server.base)
    bo2 = bo.context.new_page()  # the same person (same browser), a second tab
    bo2.goto(url)
    bo2.wait_for_selector("[data-testid=hand] [data-card]")
    bo2.wait_for_selector(IDLE)
    assert sorted(hand(bo2)) == sorted(hand(bo))
    for _ in range(4):
        actor, _w = _actor(ann, bo)
        if actor is bo:
            # Bo acts in his first tab; the second follows live, then acts itself next time
            ph = str(ready(bo))
            move(bo, ph, finish=False)
            # the same pile and the same phase (a draw from the stock leaves the pile as it
            # was: the pile alone does not tell that the second tab has heard of the move)
            bo2.wait_for_function(
                "([top, ph]) => document.querySelector('[data-testid=discard-pile]')"
                ".dataset.top === top && document.querySelector('[data-testid=status]')"
                ".dataset.phase === ph",
                arg=[bo.locator("[data-testid=discard-pile]").get_attribute("data-top"),
                     phase(bo)],
                timeout=10_000)
            bo2.wait_for_selector(IDLE)
            assert phase(bo2) == phase(bo)
            bo, bo2 = bo2, bo  # the other tab acts next
        else:
            move(ann, str(ready(ann)), finish=False)
    # a tab that hears nothing (its live stream blocked) falls behind; when it posts on its old
    # state the server refuses it as stale and the tab shows the current state
    stale, fresh = bo2, bo
    for _ in range(60):  # until Bo is to draw
        actor, _w = _actor(ann, fresh)
        if actor is fresh and ready(fresh) == "draw":
            break
        move(actor, str(ready(actor)), finish=False)
    stale.wait_for_selector(f"{IDLE} {STATUS}[data-phase=draw]")
    stale.route("**/live?*", lambda route: route.abort())
    stale.evaluate("() => window.dispatchEvent(new Event('offline'))")  # drops the open stream
    stale.wait_for_selector("[data-testid=connection]:visible", timeout=10_000)
    assert ready(stale) == "draw" and enabled(stale, "discard-pile")
    old = sorted(hand(stale))
    click_and_settle(fresh, "[data-testid=stock]")  # Bo draws from the stock in one tab
    assert sorted(hand(stale)) == old  # the other tab has not heard of it
    selector = "[data-testid=discard-pile]"  # and takes the discard there: refused as stale
    with stale.expect_response(lambda r: "/actions" in r.url) as resp:
        stale.click(selector)
    assert resp.value.status == 409, resp.value.text()
    stale.wait_for_selector(IDLE)
    stale.wait_for_function("(h) => JSON.stringify([...document.querySelectorAll("
                            "'[data-testid=hand] [data-card]')].map(e => e.dataset.card).sort())"
                            " === h", arg=json.dumps(sorted(hand(fresh))).replace(" ", ""),
                            timeout=10_000)
    assert phase(stale) == phase(fresh) == "discard"
    assert len(hand(fresh)) == 11  # one draw, not two
    stale.unroute("**/live?*")
    stale.wait_for_selector("[data-testid=connection]", state="hidden", timeout=15_000)


def test_a_full_table_says_so(new_context: Any, server: LiveServer) -> None:
    ann = person(new_context)
    bo = person(new_context)
    cy = person(new_context)
    url = create_table(ann, server.base, name="Ann")
    join_table(bo, url, "Bo")
    cy.goto(url)
    cy.wait_for_selector("#dlg-join[open] [data-testid=join-state]:visible")
    assert "full" in cy.inner_text("[data-testid=join-state]").lower()
    assert not cy.locator("[data-testid=join-table]").is_visible()


def test_creator_opens_and_fills_seats_before_the_start(new_context: Any,
                                                        server: LiveServer) -> None:
    ann = person(new_context)
    create_table(ann, server.base, name="Ann", scoring="three_player", seats=("open", "open"))
    assert ann.locator("[data-testid=start-table]").is_disabled()
    with ann.expect_response(lambda r: "/seats/1" in r.url) as resp:
        ann.select_option("[data-testid=seat-kind-1]", "easy")
    assert resp.value.status == 200, resp.value.text()
    with ann.expect_response(lambda r: "/seats/2" in r.url) as resp:
        ann.select_option("[data-testid=seat-kind-2]", "easy")
    assert resp.value.status == 200, resp.value.text()
    ann.wait_for_selector("[data-testid=start-table]:enabled")
    with ann.expect_response(lambda r: "/seats/2" in r.url) as resp:
        ann.select_option("[data-testid=seat-kind-2]", "open")
    ann.wait_for_selector("[data-testid=start-table]:disabled")
    assert ann.get_attribute(STATUS, "data-phase") not in READY_PHASES


def _finish_game(ann: Any, bo: Any, *, limit: int = 8) -> None:
    """Play hands (next hand by whoever may deal it) until both pages show the game's end."""
    for _ in range(limit):
        play_hand([ann, bo])
        if phase(ann) == "game-over":
            bo.wait_for_selector(f"{STATUS}[data-phase=game-over]", state="attached",
                                 timeout=10_000)
            return
        for p in (ann, bo):
            if enabled(p, "next-hand"):
                click_and_settle(p, "[data-testid=next-hand]")
                # the other keeps the result until they go on too (issue 21 item 9)
                other = bo if p is ann else ann
                other.wait_for_selector("[data-testid=go-next]:visible", timeout=10_000)
                other.click("[data-testid=go-next]")
                break
        else:
            raise AssertionError("nobody can deal the next hand")
    raise AssertionError("the game did not end")


def test_quick_messages_rematch_and_leave(new_context: Any, server: LiveServer) -> None:
    ann = person(new_context)
    bo = person(new_context, locale="id-ID")  # Bo reads the page in Indonesian
    url = create_table(ann, server.base, name="Ann", target=1)
    join_table(bo, url, "Bo")
    assert bo.get_attribute("html", "lang") == "id"
    start(ann)
    bo.wait_for_selector(WAITING, state="hidden", timeout=10_000)
    # a preset quick message, shown to the other as a bubble in their own language
    ann.click("[data-testid=quick-messages]")
    with ann.expect_response(lambda r: r.url.endswith("/messages")) as resp:
        ann.click("[data-testid=quick-good_luck]")
    assert resp.value.status == 200, resp.value.text()
    bubble = bo.locator("#bubble-0.show.chat")
    bubble.wait_for(timeout=10_000)
    assert bubble.inner_text() == "Semoga beruntung!"
    assert ann.locator("#me-bubble.show.chat").inner_text() == "Good luck!"
    old_id = ann.evaluate("() => JSON.parse(localStorage.getItem('ginrummy.current')).game_id")
    _finish_game(ann, bo)
    # the rematch: the creator's button; the person who joined is told who can start it
    assert not bo.locator("[data-testid=rematch]").is_visible()
    assert bo.inner_text("[data-testid=rematch-wait]") == "Menunggu Ann memulai main lagi…"
    assert ann.locator("[data-testid=rematch]").is_visible()
    assert not ann.locator("[data-testid=rematch-wait]").is_visible()
    # a table of people has its own footer line, in each person's language
    assert ann.inner_text("[data-testid=foot-text]") == "Gin Rummy with friends. No ads, no coins."
    assert bo.inner_text("[data-testid=foot-text]") == (
        "Gin Rummy bersama teman. Tanpa iklan, tanpa koin.")
    with ann.expect_response(lambda r: r.url.endswith("/rematch")) as resp:
        ann.click("[data-testid=rematch]")
    assert resp.value.status == 201, resp.value.text()
    new_id = resp.value.json()["game_id"]
    assert new_id != old_id
    for p in (ann, bo):
        p.wait_for_function(
            "(id) => JSON.parse(localStorage.getItem('ginrummy.current')).game_id === id",
            arg=new_id, timeout=15_000)
        p.wait_for_selector(IDLE)
        p.wait_for_selector("[data-testid=result]", state="hidden")
        assert p.locator("[data-testid=hand] [data-card]").count() >= 10
    assert "Bo" in ann.inner_text("#opp-name") and "Ann" in bo.inner_text("#opp-name")
    assert not bo.locator("[data-testid=rematch-wait]").is_visible()
    # leaving: Bo's page goes back to a new game; a computer plays his seat for Ann
    bo.get_by_test_id("leave-table").click()  # the page asks first, in its own dialog
    bo.get_by_test_id("confirm-dialog").wait_for(state="visible")
    assert bo.inner_text("#confirm-h") == "Tinggalkan meja ini?"  # Bo reads Indonesian
    assert "komputer yang memainkan kursimu" in bo.inner_text("#confirm-text")
    with bo.expect_response(lambda r: r.url.endswith("/leave")) as resp:
        bo.get_by_test_id("confirm-ok").click()
    assert resp.value.status == 200, resp.value.text()
    bo.wait_for_selector("#dlg-new[open]")
    assert bo.evaluate("() => localStorage.getItem('ginrummy.current')") is None
    # back to the computer: today's footer line again
    bo.wait_for_function(
        "() => document.querySelector('[data-testid=foot-text]').dataset.i18n === 'app.footer'",
        timeout=10_000)
    ann.wait_for_function(
        "() => document.querySelector(\"[data-testid=seats] .seat-chip[data-seat='1']\")"
        ".dataset.presence === 'left'", timeout=15_000)
    assert "the computer plays" in seat_chip(ann, 1).inner_text()
    assert not ann.errors and not bo.errors


def test_creator_hands_an_away_seat_to_the_computer_and_it_is_taken_back(
        new_context: Any, server: LiveServer) -> None:
    ann, bo, url = _started_pair(new_context, server.base)
    bo_ctx = bo.context
    bo.close()  # Bo's phone sleeps: his stream ends
    chip = seat_chip(ann, 1)
    ann.wait_for_function(
        "() => document.querySelector(\"[data-testid=seats] .seat-chip[data-seat='1']\")"
        ".dataset.presence === 'away'", timeout=40_000)
    assert "away" in chip.inner_text()
    with ann.expect_response(lambda r: "/seats/1" in r.url) as resp:
        chip.locator("[data-testid=hand-to-computer]").click()
    assert resp.value.status == 200, resp.value.text()
    ann.wait_for_selector("[data-testid=seats] .seat-chip[data-seat='1']"
                          "[data-presence=computer_for_away]")
    # the table goes on: Ann can always play her moves while the computer plays Bo's
    for _ in range(3):
        ph = ann.wait_for_selector(
            "#table[aria-busy=false] [data-testid=status]:is([data-phase=offer],"
            "[data-phase=draw],[data-phase=discard],[data-phase=hand-over],"
            "[data-phase=game-over])", state="attached", timeout=20_000)
        # the status line is hidden once the hand is over (the result panel speaks): attached
        ph_name = str(ph.get_attribute("data-phase"))
        if ph_name in ("hand-over", "game-over"):
            break
        move(ann, ph_name, finish=False)
    # Bo comes back through the link and takes his seat back
    bo = bo_ctx.new_page()
    bo.goto(url)
    bo.wait_for_selector("[data-testid=take-back]:visible", timeout=10_000)
    with bo.expect_response(lambda r: "/seats/1" in r.url) as resp:
        bo.click("[data-testid=take-back]")
    assert resp.value.status == 200, resp.value.text()
    bo.wait_for_selector("[data-testid=take-back]", state="hidden")
    ann.wait_for_selector("[data-testid=seats] .seat-chip[data-seat='1'][data-presence=connected]",
                          timeout=15_000)


def test_the_turn_clock_counts_down_for_everyone(new_context: Any, server: LiveServer) -> None:
    ann = person(new_context)
    bo = person(new_context)
    url = create_table(ann, server.base, name="Ann", clock=60)
    join_table(bo, url, "Bo")
    start(ann)
    bo.wait_for_selector(WAITING, state="hidden", timeout=10_000)

    def left(p: Any) -> int:
        p.wait_for_selector("[data-testid=turn-left]:visible")
        m = re.fullmatch(r"(\d+) s left", p.inner_text("[data-testid=turn-left]").strip())
        assert m, p.inner_text("[data-testid=turn-left]")
        return int(m.group(1))

    first = left(ann)
    assert 50 <= first <= 60 and 50 <= left(bo) <= 60
    ann.wait_for_timeout(2_100)
    assert left(ann) < first
    actor, waiter = _actor(ann, bo)
    chip = seat_chip(waiter, 0 if actor is ann else 1)
    assert re.fullmatch(r"to play · \d+ s left", str(chip.locator(".chip-turn").text_content()))


def test_hint_stats_replay_and_reveal_work_for_the_second_seat(new_context: Any,
                                                              server: LiveServer) -> None:
    ann, bo, _ = _started_pair(new_context, server.base)
    # Bo (seat 1) asks for a hint on his own move
    for _ in range(6):
        actor, _w = _actor(ann, bo)
        if actor is bo:
            break
        move(ann, str(ready(ann)), finish=False)
    assert ready(bo) in ("offer", "draw", "discard")
    with bo.expect_response(lambda r: r.url.endswith("/hint"), timeout=30_000) as resp:
        bo.click("[data-testid=hint]")
    assert resp.value.status == 200, resp.value.text()
    bo.wait_for_selector("[data-testid=hint-text]:visible")
    assert bo.inner_text("[data-testid=hint-text]").strip()
    # statistics open for him
    bo.click("#btn-stats")
    bo.wait_for_selector("#dlg-stats[open] #stats-body :is(table, p)")
    bo.keyboard.press("Escape")
    play_hand([ann, bo])
    # the hand's reveal and its replay, from Bo's seat
    bo.wait_for_selector("[data-testid=fair-reveal] details")
    bo.click("[data-testid=fair-reveal] summary")
    assert "sha256sum" in bo.inner_text("[data-testid=fair-command]")
    href = str(bo.locator("[data-testid=replay-link]").get_attribute("href"))
    replay = bo.context.new_page()
    errors: list[str] = []
    replay.on("pageerror", lambda e: errors.append(str(e)))
    replay.goto(server.base + href)
    replay.wait_for_selector("[data-testid=replay-step]")
    assert replay.locator("[data-testid=replay-hand-0] [data-card]").count() == 10
    assert replay.locator("[data-testid=replay-hand-1] [data-card]").count() == 10
    assert not errors


def test_tables_of_people_work_under_the_pages_csp(new_context: Any, server: LiveServer) -> None:
    """Create, join, start and one move with the real Content-Security-Policy (no bypass)."""
    from browser_helpers import STRICT_CSP

    pages = []
    messages: list[str] = []
    for _ in range(2):
        p = person(new_context, bypass_csp=False)
        STRICT_CSP.add(p)
        p.on("console", lambda m: messages.append(m.text))
        pages.append(p)
    ann, bo = pages
    url = create_table(ann, server.base, name="Ann")
    join_table(bo, url, "Bo")
    start(ann)
    bo.wait_for_selector(WAITING, state="hidden", timeout=10_000)
    actor = ann if ready(ann) in ("offer", "draw", "discard") else bo
    waiter = bo if actor is ann else ann
    assert waiter.get_attribute(STATUS, "data-phase") == "opponent"
    for _ in range(3):  # the actor plays until it is the other's move, which arrives live
        move(actor, str(ready(actor)), finish=False)
        if ready(actor) is None:
            break
    waiter.wait_for_selector(f"{IDLE} {STATUS}:is([data-phase=offer],[data-phase=draw])",
                             timeout=10_000)
    violations = [m for m in messages if "Content Security Policy" in m]
    assert not violations and not ann.errors and not bo.errors, violations


def test_a_table_of_people_kept_for_later_names_the_other_person(new_context: Any,
                                                                  server: LiveServer) -> None:
    """The new-game dialog's list of games in progress says who the person plays against: at a
    table of people the other seat's name, never "Computer"."""
    ann, _bo, _url = _started_pair(new_context, server.base)
    ann.click("[data-testid=new-game]")
    ann.wait_for_selector("#dlg-leave[open], #dlg-new[open]")
    if ann.locator("#dlg-leave[open]").count():
        ann.get_by_test_id("leave-later").click()
    ann.wait_for_selector("#dlg-new[open]")
    listed = ann.get_by_test_id("games-in-progress")
    listed.wait_for(state="visible")
    row = listed.locator("li").first
    row.filter(has_text="Bo").wait_for(state="visible")
    assert "Computer" not in row.inner_text()
