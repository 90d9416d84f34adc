"""At a table of people, each thing about a seat is shown once (issue 21 item 16): the seat
chips above the table and the opponent's place just below them do not both carry the
opponent's name, card count and dealer mark. Phone (390x844) and desktop (1440x900)."""

from __future__ import annotations

import os
from typing import Any

import pytest
from browser_helpers import DESKTOP, PHONE, LiveServer
from test_friends import IDLE, create_table, join_table, person, start

pytestmark = pytest.mark.browser

SHOTS = os.environ.get("GINRUMMY_SHOTS")  # a folder: screenshots for a person to look at

#: the texts in sight in the seats above the table and the opponent's place, one per element
#: that has no child element (the move log and the status may name the seat too)
SEEN = """(sel) => [...document.querySelectorAll(sel)]
  .filter((e) => e.children.length === 0 && e.checkVisibility())
  .map((e) => e.textContent.trim()).filter(Boolean)"""


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_opponent_is_named_counted_and_marked_once(new_context: Any, server: LiveServer,
                                                       size: dict[str, int]) -> None:
    ann = person(new_context, viewport=size)
    url = create_table(ann, server.base, name="Ann")
    bo = person(new_context, viewport=size)
    join_table(bo, url, "Bo")
    start(ann)
    for p in (ann, bo):
        p.wait_for_selector(IDLE)
        p.wait_for_selector("[data-testid=seat-cards]", state="attached")
    if SHOTS:
        bo.screenshot(path=f"{SHOTS}/seats-{size['width']}.png")
    for me, other in ((ann, "Bo"), (bo, "Ann")):
        seen = me.evaluate(SEEN, "#seats-strip *, #opp *, #me-dealer")
        assert sum(other in s for s in seen) == 1, " | ".join(seen)  # the opponent's name, once
        counts = [s for s in seen if s.endswith(" cards")]
        assert len([s for s in counts if s in ("10 cards", "11 cards")]) == 1, seen
        assert seen.count("Dealer") <= 1, seen
        assert seen.count("Dealer") == 1, seen  # one of the two deals: the mark is shown
    for p in (ann, bo):
        assert p.errors == []
