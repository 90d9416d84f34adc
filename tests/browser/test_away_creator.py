"""Presence and away seats at phone size, on one server and on two server processes sharing a
PostgreSQL database (issue 21 items 10 and 11), the away times shortened (1 s away, 2 s to
anyone's hand-over) in this module's servers:

- an away creator no longer stalls the table: once the creator's seat has had no connection for
  a while, the other person's page (on the other process) offers "Let the computer play" on
  it; the computer then plays the seat and the table goes on;
- a person with a live tab on one process is not shown away or disconnected when their tab on
  the other process closes; their last tab's close shows them gone.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import PHONE, LiveServer
from table_driver import Table
from test_friends import IDLE, WAITING, create_table, join_table, person, ready, start
from two_servers import ONE, TWO, Sites, TwoProcesses, serve_two, served_by

from ginrummy.web.tables import seat_state as table_state

pytestmark = pytest.mark.browser

AWAY, HAND_OVER = 1.0, 2.0


@pytest.fixture
def one_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[LiveServer]:
    monkeypatch.setattr(table_state, "AWAY_AFTER", AWAY)
    monkeypatch.setattr(table_state, "HAND_OVER_AFTER", HAND_OVER)
    srv = LiveServer(tmp_path / "games.sqlite3").start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def two_processes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TwoProcesses]:
    with serve_two(tmp_path_factory.mktemp("two-away"), away=AWAY, hand_over=HAND_OVER) as two:
        yield two


def chip(seat: int) -> str:
    return f"[data-testid=seats] .seat-chip[data-seat='{seat}']"


@pytest.mark.parametrize("sites", [ONE, TWO], indirect=True)
def test_the_other_person_hands_an_away_creator_to_the_computer(sites: Sites,
                                                                new_context: Any) -> None:
    sites.fix(2111)
    ann = person(new_context, viewport=PHONE)
    bo = person(new_context, viewport=PHONE)
    url = create_table(ann, sites.first.base, name="Ann")
    join_table(bo, served_by(url, sites.second), "Bo")
    start(ann)
    bo.wait_for_selector(WAITING, state="hidden", timeout=10_000)
    bo.wait_for_selector(IDLE)
    assert bo.locator(f"{chip(0)} [data-testid=hand-to-computer]").count() == 0  # Ann is here
    ann.context.close()  # the creator goes (a closed tab)
    bo.wait_for_selector(f"{chip(0)}[data-presence=away]", timeout=10_000)
    button = bo.locator(f"{chip(0)} [data-testid=hand-to-computer]")
    button.wait_for(state="visible", timeout=10_000)  # a while after: anyone may
    assert button.inner_text() == "Let the computer play"
    with bo.expect_response(lambda r: "/seats/0" in r.url and r.request.method == "PUT") as resp:
        button.click()
    assert resp.value.status == 200, resp.value.text()
    bo.wait_for_selector(f"{chip(0)}[data-presence=computer_for_away]", timeout=10_000)
    # the table goes on: Bo gets his move, whoever was to play
    for _ in range(200):
        if ready(bo) in ("offer", "draw", "discard"):
            break
        bo.wait_for_timeout(50)
    else:
        raise AssertionError("Bo never got his move")
    assert bo.errors == []


def _holders(two: TwoProcesses, game_id: str, seat: int) -> int:
    """How many processes hold a live stream of the seat (their leases in ``seat_holders``)."""
    import sqlalchemy as sa

    engine = sa.create_engine(two.first.url)
    try:
        with engine.connect() as conn:
            return int(conn.execute(sa.text(
                "SELECT count(*) FROM seat_holders WHERE game_id = :g AND seat = :s "
                "AND until > :now"), {"g": game_id, "s": seat, "now": time.time()}).scalar_one())
    finally:
        engine.dispose()


def test_a_live_tab_on_the_other_process_keeps_the_person_here(
        new_context: Any, two_processes: TwoProcesses) -> None:
    """Bo has a tab on each process; the one on the first closes: Ann (first process) keeps
    seeing him connected well past the away time, and no hand-over is offered; his last tab's
    close then shows him away to her."""
    two = two_processes
    two.fix(2113)
    table = Table.of_people(two.first, "standard", 2)
    ann = person(new_context, viewport=PHONE)
    table.open(ann, 0)
    bo = new_context(viewport=PHONE)  # one person, two tabs (one on each process)
    tabs = [bo.new_page(), bo.new_page()]
    table.open(tabs[0], 1)
    table.at(two.second).open(tabs[1], 1)
    for p in (ann, *tabs):
        p.wait_for_selector("#table[aria-busy=false] [data-testid=hand] [data-card]")
    ann.wait_for_selector(f"{chip(1)}[data-presence=connected]", timeout=10_000)
    deadline = time.monotonic() + 10
    while _holders(two, table.game_id, 1) < 2:  # both processes hold his seat
        assert time.monotonic() < deadline, "Bo's two streams are not both held"
        time.sleep(0.05)

    tabs[0].close()
    deadline = time.monotonic() + 10
    while _holders(two, table.game_id, 1) > 1:  # the first process let go of his seat
        assert time.monotonic() < deadline, "the first process still holds Bo's seat"
        time.sleep(0.05)
    seen = set()
    end = time.monotonic() + AWAY + HAND_OVER + 1.0  # past away, and past anyone's hand-over
    while time.monotonic() < end:
        seen.add(ann.get_attribute(chip(1), "data-presence"))
        ann.wait_for_timeout(50)
    assert seen == {"connected"}, seen
    assert ann.locator(f"{chip(1)} [data-testid=hand-to-computer]").count() == 0
    ann.screenshot(path="/tmp/f5_presence_two_tabs_phone.png")

    tabs[1].close()  # his last tab: gone, then away for everyone
    ann.wait_for_selector(f"{chip(1)}[data-presence=away]", timeout=10_000)
    ann.locator(f"{chip(1)} [data-testid=hand-to-computer]").wait_for(state="visible")
    assert ann.errors == []
