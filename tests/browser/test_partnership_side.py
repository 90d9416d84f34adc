"""A partnership is seen from each person's own side (issue 21 item 16): Ann at seat A and Bo
at seat B both read their own team first on the score sheet ("Us | Them") and in the team
score above the table, and the other seats are named partner / opponent relative to them."""

from __future__ import annotations

import os
from typing import Any

import pytest
from browser_helpers import DESKTOP, PHONE, LiveServer
from test_friends import IDLE, WAITING, create_table, join_table, person, seat_chip, start

pytestmark = pytest.mark.browser

SHOTS = os.environ.get("GINRUMMY_SHOTS")  # a folder: screenshots for a person to look at


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_each_person_reads_their_own_team_first(new_context: Any, server: LiveServer,
                                                size: dict[str, int]) -> None:
    ann = person(new_context, viewport=size)
    url = create_table(ann, server.base, name="Ann", scoring="partnership",
                       seats=("open", "easy", "easy"))
    bo = person(new_context, viewport=size)
    assert join_table(bo, url, "Bo")["seat"] == 1
    start(ann)
    bo.wait_for_selector(WAITING, state="hidden", timeout=10_000)
    for p in (ann, bo):
        p.wait_for_selector(IDLE)
        heads = p.locator("#score-body thead th").all_inner_texts()
        assert heads[1:] == ["Us", "Them"], heads
        chips = p.locator("[data-testid=team-score] .vt-chip").all_inner_texts()
        assert chips[0].startswith("Us") and chips[1].startswith("Them"), chips
    if SHOTS:
        bo.screenshot(path=f"{SHOTS}/partnership-b-{size['width']}.png", full_page=True)
    # Bo (seat B): D is his partner, A and C his opponents; Ann (seat A): C her partner
    assert "partner" in seat_chip(bo, 3).inner_text().lower()
    assert "opponent" in seat_chip(bo, 2).inner_text().lower()
    assert "opponent" in seat_chip(bo, 0).inner_text().lower()
    assert "partner" in seat_chip(ann, 2).inner_text().lower()
    assert "opponent" in seat_chip(ann, 1).inner_text().lower()
    for p in (ann, bo):
        assert p.errors == []
