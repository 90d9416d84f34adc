"""The new-game dialog's games in progress (issue 21 item 16): a partnership is listed with its
teams' names and score like a two-player game with its score, and every game's buttons line up
at the same right edge. Phone (390x844) and desktop (1440x900)."""

from __future__ import annotations

import os
import re
from typing import Any

import pytest
from browser_helpers import DESKTOP, PHONE, LiveServer, wait_ready

from chance import fix_chance

pytestmark = pytest.mark.browser

SHOTS = os.environ.get("GINRUMMY_SHOTS")  # a folder: screenshots for a person to look at


def _deal(page: Any, scoring: str) -> None:
    page.wait_for_selector("#dlg-new[open] [data-testid=start-game]")
    page.select_option("[data-testid=new-scoring]", scoring)
    with page.expect_response(lambda r: r.url.endswith("/api/games")
                              and r.request.method == "POST") as resp:
        page.click("[data-testid=start-game]")
    assert resp.value.status == 201, resp.value.text()
    page.wait_for_selector("#dlg-new", state="hidden")
    wait_ready(page)


def _keep_for_later(page: Any) -> None:
    page.click("[data-testid=new-game]")
    page.wait_for_selector("#dlg-leave[open]")
    page.click("[data-testid=leave-later]")


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_partnership_in_progress_has_teams_and_score(new_context: Any, server: LiveServer,
                                                       size: dict[str, int],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    # the deals fixed (tests/chance.py); a computer may still score before the person's first
    # move (a knock on the upcard), so the scores are read as numbers
    fix_chance(monkeypatch, 21)
    page = new_context(viewport=size).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.base + "/")
    _deal(page, "standard")
    _keep_for_later(page)
    _deal(page, "partnership")
    _keep_for_later(page)
    page.wait_for_selector("[data-testid=games-in-progress] li >> nth=1")
    rows = page.locator("#resume-list li")
    assert rows.count() == 2
    lines = [rows.nth(i).locator(".resume-what").inner_text() for i in range(2)]
    teams = next(x for x in lines if x.startswith("Partnership"))
    assert re.search(r"Us \(You, Partner C\) \d+, Them \(Opponent B, Opponent D\) \d+$",
                     teams), lines
    standard = next(x for x in lines if not x.startswith("Partnership"))
    assert re.search(r"you \d+, Computer \d+$", standard), lines
    if SHOTS:
        page.locator("[data-testid=games-in-progress]").screenshot(
            path=f"{SHOTS}/resume-{size['width']}.png")
    # the buttons of every line end at the same right edge, on the line's middle or under it
    rights = []
    for i in range(2):
        box = rows.nth(i).locator(".resume-buttons").bounding_box()
        rights.append(round(box["x"] + box["width"]))
    assert len(set(rights)) == 1, rights
    assert errors == []
