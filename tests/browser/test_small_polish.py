"""Small things a tester found at tables of people (issue 21 item 16): the new-game dialog's
summary names the target chosen, not the preset's; the join dialog's title names whose table
it is, or why one cannot sit; the quick messages stay in the move log."""

from __future__ import annotations

from typing import Any

import pytest
from browser_helpers import DESKTOP, PHONE, LiveServer
from table_driver import Table

pytestmark = pytest.mark.browser

NOTE = "#new-preset-note"


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_new_game_summary_names_the_target_chosen(new_context: Any, server: LiveServer,
                                                      size: str) -> None:
    page = new_context(**({"viewport": PHONE} if size == "phone" else {})).new_page()
    page.goto(server.base + "/")
    page.wait_for_selector("#dlg-new[open] [data-testid=start-game]")
    assert "First to 100." in page.inner_text(NOTE)
    page.click("#new-fields-wrap > summary")
    page.fill("#f-target", "250")
    page.wait_for_function("() => document.querySelector('#new-preset-note').textContent"
                           ".includes('First to 250.')", timeout=3_000)
    assert "100." not in page.inner_text(NOTE).replace("game 100.", "")
    page.screenshot(path=f"/tmp/f3_first_to_{size}.png")
    page.select_option("#new-preset", "oklahoma")
    assert "First to 150." in page.inner_text(NOTE)
    page.select_option("[data-testid=opponent-kind]", "friends")  # a table of people: the same
    assert "First to 150." in page.inner_text(NOTE)


def test_the_join_dialog_names_the_creator_or_says_why_one_cannot_sit(
        new_context: Any, server: LiveServer) -> None:
    made = server.api("POST", "/api/games", body={
        "seats": [{"kind": "person"}, {"kind": "open"}], "name": "Ann"})
    url = made["invite"]["url"]
    url = url if url.startswith("http") else server.base + url
    bo = new_context(viewport=PHONE).new_page()
    bo.goto(url)
    bo.wait_for_selector("#dlg-join[open] [data-testid=join-name]")
    assert bo.inner_text("#join-h") == "Join Ann's table"
    bo.screenshot(path="/tmp/f3_join_named_phone.png")
    server.api("POST", f"/api/invites/{made['invite']['code']}/join", body={"name": "Cy"})
    late = new_context().new_page()
    late.goto(url)
    late.wait_for_selector("#dlg-join[open] [data-testid=join-state]")
    assert late.inner_text("#join-h") == "This table is full"
    assert "every seat is taken" in late.inner_text("[data-testid=join-state]")
    late.screenshot(path="/tmp/f3_join_full_desktop.png")
    server.api("POST", f"/api/games/{made['game_id']}/start", token=made["token"])
    later = new_context(viewport=PHONE).new_page()
    later.goto(url)
    later.wait_for_selector("#dlg-join[open] [data-testid=join-state]")
    assert later.inner_text("#join-h") == "This game has started"
    # Bo, whose dialog was open all along, tries anyway: the title says why he cannot
    bo.fill("[data-testid=join-name]", "Bo")
    bo.click("[data-testid=join-table]")
    bo.wait_for_selector("#dlg-join[open] [data-testid=join-state]:visible")
    assert bo.inner_text("#join-h") == "This game has started"
    later.goto(server.base + "/join/nosuchcode")
    later.wait_for_selector("#dlg-join[open] [data-testid=join-state]")
    assert later.inner_text("#join-h") == "No table at this link"


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_quick_messages_stay_in_the_move_log(new_context: Any, server: LiveServer,
                                             size: str) -> None:
    table = Table.of_people(server, "standard", 2)
    viewport = PHONE if size == "phone" else DESKTOP
    pages = []
    for seat in (0, 1):
        p = new_context(viewport=viewport).new_page()
        table.open(p, seat)
        p.wait_for_selector("#table[aria-busy=false] [data-testid=hand] [data-card]")
        pages.append(p)
    ann, bo = pages
    ann.click("[data-testid=quick-messages]")
    with ann.expect_response(lambda r: r.url.endswith("/messages")) as resp:
        ann.click("[data-testid=quick-good_luck]")
    assert resp.value.status == 200
    line = "#moves-list li[data-type=message]"
    bo.wait_for_selector(f"{line}:has-text('Ann: “Good luck!”')", state="attached", timeout=10_000)
    ann.wait_for_selector(f"{line}:has-text('You: “Good luck!”')", state="attached", timeout=10_000)
    # still there once the bubble is gone, and after a reload
    bo.wait_for_selector("#bubble-0.show", state="hidden", timeout=10_000)
    bo.reload()
    bo.wait_for_selector(f"{line}:has-text('Ann: “Good luck!”')", state="attached", timeout=10_000)
    bo.locator("#moves").scroll_into_view_if_needed()
    bo.screenshot(path=f"/tmp/f3_log_message_{size}.png")


OVERLAP = """() => {
  const r = document.getElementById('toast').getBoundingClientRect();
  return [...document.querySelectorAll('footer a, footer span')].filter((a) => {
    const b = a.getBoundingClientRect();
    return b.width && r.left < b.right && b.left < r.right && r.top < b.bottom && b.top < r.bottom;
  }).map((a) => a.textContent);
}"""


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_link_copied_notice_leaves_the_footer_links_free(new_context: Any, server: LiveServer,
                                                             size: str) -> None:
    made = server.api("POST", "/api/games", body={
        "seats": [{"kind": "person"}, {"kind": "open"}], "name": "Ann"})
    table = Table(server, made["game_id"], {0: made["token"]})
    ctx = new_context(viewport=PHONE if size == "phone" else DESKTOP)
    ctx.grant_permissions(["clipboard-read", "clipboard-write"])
    page = ctx.new_page()
    table.open(page, 0)
    page.wait_for_selector("[data-testid=copy-invite]:visible")
    page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
    page.click("[data-testid=copy-invite]")
    page.wait_for_selector("#toast:visible")
    page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
    page.wait_for_timeout(100)
    assert page.evaluate(OVERLAP) == []
    page.screenshot(path=f"/tmp/f3_toast_{size}.png")
    # scrolled back up (the footer out of sight): the notice at the window's bottom again
    page.evaluate("() => window.scrollTo(0, 0)")
    page.wait_for_timeout(100)
    assert page.evaluate(OVERLAP) == []
