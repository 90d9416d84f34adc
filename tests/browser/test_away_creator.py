"""An away creator no longer stalls the table (issue 21 item 11): once the creator's seat has
had no connection for a while, the other person's page offers "Let the computer play" on it;
the computer then plays the seat and the table goes on. Phone size; the away times shortened
(1 s away, 2 s to anyone's hand-over) in this test's own server."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import PHONE, LiveServer
from test_friends import IDLE, WAITING, create_table, join_table, person, ready, start

from ginrummy.web.tables import seat_state as table_state

pytestmark = pytest.mark.browser


@pytest.fixture
def quick_away(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[LiveServer]:
    monkeypatch.setattr(table_state, "AWAY_AFTER", 1.0)
    monkeypatch.setattr(table_state, "HAND_OVER_AFTER", 2.0)
    srv = LiveServer(tmp_path / "games.sqlite3").start()
    yield srv
    srv.stop()


def test_the_other_person_hands_an_away_creator_to_the_computer(
        new_context: Any, quick_away: LiveServer) -> None:
    ann = person(new_context, viewport=PHONE)
    bo = person(new_context, viewport=PHONE)
    url = create_table(ann, quick_away.base, name="Ann")
    join_table(bo, url, "Bo")
    start(ann)
    bo.wait_for_selector(WAITING, state="hidden", timeout=10_000)
    bo.wait_for_selector(IDLE)
    chip = "[data-testid=seats] .seat-chip[data-seat='0']"
    assert bo.locator(f"{chip} [data-testid=hand-to-computer]").count() == 0  # Ann is here
    ann.context.close()  # the creator goes (a closed tab)
    bo.wait_for_selector(f"{chip}[data-presence=away]", timeout=10_000)
    button = bo.locator(f"{chip} [data-testid=hand-to-computer]")
    button.wait_for(state="visible", timeout=10_000)  # a while after: anyone may
    assert button.inner_text() == "Let the computer play"
    with bo.expect_response(lambda r: "/seats/0" in r.url and r.request.method == "PUT") as resp:
        button.click()
    assert resp.value.status == 200, resp.value.text()
    bo.wait_for_selector(f"{chip}[data-presence=computer_for_away]", timeout=10_000)
    # the table goes on: Bo gets his move, whoever was to play
    for _ in range(200):
        if ready(bo) in ("offer", "draw", "discard"):
            break
        bo.wait_for_timeout(50)
    else:
        raise AssertionError("Bo never got his move")
    assert bo.errors == []
