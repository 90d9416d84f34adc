"""Statistics of every person at a table (issue 10): each browser's ``GET /api/stats`` counts the
tables it created and those it joined, each from its own seat's side (its deals, its wins; a
partnership: its team's), checked against the engine's own record of the games."""

from __future__ import annotations

import random
import warnings
from collections.abc import Callable
from typing import Any

import pytest
import sqlalchemy as sa

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from table_helpers import Seat, join, new_table, play_until

from ginrummy.bots import LEVELS
from ginrummy.store import SCHEMA_VERSION, Store
from ginrummy.web.tables.engine import TableEngine

ME = {"kind": "person"}
OPEN = {"kind": "open"}
CPU = {"kind": "computer", "level": LEVELS[0]}


def expected(engine: TableEngine, seat: int) -> dict[str, Any]:
    """The statistics of one finished game from ``seat``'s side, from the engine's deals."""
    pairs = [s.players for s in engine.game.seatings]
    won = lost = dead = gins = big = against = knocks = knocks_won = uc_by = uc_against = 0
    played = 0
    for h, players in zip(engine.deals(), pairs, strict=True):
        o = h.outcome
        if seat not in players or o is None:
            continue
        played += 1
        w = None if o.winner is None else players[o.winner]
        k = None if o.knocker is None else players[o.knocker]
        won += w == seat
        lost += w is not None and w != seat
        dead += o.kind == "dead"
        gins += o.kind == "gin" and w == seat
        big += o.kind == "big_gin" and w == seat
        against += o.kind in ("gin", "big_gin") and w is not None and w != seat
        knocks += k == seat and o.kind in ("knock", "undercut", "tie")
        knocks_won += o.kind == "knock" and w == seat
        uc_by += o.kind == "undercut" and w == seat
        uc_against += o.kind == "undercut" and w is not None and w != seat
    winners = engine.winner_seats()
    assert winners is not None
    return {"games_played": 1, "games_won": int(seat in winners),
            "games_lost": int(seat not in winners), "games_in_progress": 0,
            "hands_played": played, "hands_won": won, "hands_lost": lost, "hands_dead": dead,
            "gins": gins, "big_gins": big, "gins_against": against, "knocks": knocks,
            "knocks_won": knocks_won, "undercuts_by_you": uc_by,
            "undercuts_against_you": uc_against}


@pytest.mark.parametrize("scoring, seats, target", [
    ("standard", [ME, OPEN], 40),
    ("three_player", [ME, CPU, OPEN], 60),
    ("partnership", [ME, OPEN, CPU, CPU], 50),
])
def test_each_person_gets_statistics_from_their_own_seat(
        make_client: Callable[..., TestClient], scoring: str, seats: list[dict[str, Any]],
        target: int) -> None:
    ann_browser = make_client()
    bo_browser = TestClient(ann_browser.app)  # another browser: its own player cookie
    ann, code = new_table(ann_browser, seats, scoring=scoring, rules={"target": target})
    bo = join(bo_browser, code, "Bo")
    assert bo_browser.get("/api/stats").json()["games_in_progress"] == 0  # not started yet
    r = ann.call("POST", "/start")
    assert r.status_code == 200, r.text
    assert bo_browser.get("/api/stats").json()["games_in_progress"] == 1
    rng = random.Random(3)
    people: list[Seat] = [ann, bo]
    for _ in range(60):
        # every deal of the hand over (a partnership: both tables), the next one may be dealt
        play_until(people, rng, lambda ss: all(
            s["phase"] == "game-over" or (s["phase"] == "hand-over" and any(
                a["type"] == "next_hand" for a in s["legal"])) for s in ss))
        if ann.state["phase"] == "game-over":
            break
        ann.act("next hand")
    assert ann.get()["phase"] == "game-over", "the game did not end in 60 hands"
    engine = ann_browser.app.state.service.engine_of(ann.id)  # type: ignore[attr-defined]
    for browser, seat in ((ann_browser, ann.seat), (bo_browser, bo.seat)):
        got = browser.get("/api/stats").json()
        want = expected(engine, seat)
        assert {k: got[k] for k in want} == want, (seat, got, want)
        assert got["hands_played"] > 0
    a, b = (br.get("/api/stats").json() for br in (ann_browser, bo_browser))
    if scoring != "three_player":  # two sides: one's win is the other's loss
        assert a["games_won"] + b["games_won"] == 1
    if scoring == "standard":  # the same deals, seen from both sides
        assert a["hands_won"] == b["hands_lost"] and a["gins"] + a["big_gins"] == \
            b["gins_against"]
    # a third browser, which sat nowhere, has none
    c = TestClient(ann_browser.app).get("/api/stats").json()
    assert c["games_played"] == 0 and c["hands_played"] == 0


def test_a_rematch_keeps_each_persons_statistics(make_client: Callable[..., TestClient]
                                                 ) -> None:
    ann_browser = make_client()
    bo_browser = TestClient(ann_browser.app)
    ann, code = new_table(ann_browser, [ME, OPEN], rules={"target": 20})
    bo = join(bo_browser, code, "Bo")
    assert ann.call("POST", "/start").status_code == 200
    play_until([ann, bo], random.Random(9), lambda ss: ss[0]["phase"] == "game-over")
    r = ann.call("POST", "/rematch")
    assert r.status_code == 201, r.text
    assert bo_browser.get("/api/stats").json()["games_in_progress"] == 1  # the new table
    assert bo_browser.get("/api/stats").json()["games_played"] == 1


def test_schema_3_databases_gain_the_seat_columns(db_url: str,
                                                  make_client: Callable[..., TestClient]
                                                  ) -> None:
    """Migrations 3 -> 4 -> 5: a database without the seat result columns and the deals' turn
    times gets them."""
    store = Store(db_url)
    try:
        with store.engine.begin() as c:
            c.execute(sa.text("DROP INDEX IF EXISTS ix_seats_player_id"))
            for table, column in (("games", "winner_seats"), ("deals", "players"),
                                  ("deals", "winner_seat"), ("deals", "knocker_seat"),
                                  ("deals", "turn_at"), ("seats", "player_id")):
                c.execute(sa.text(f"ALTER TABLE {table} DROP COLUMN {column}"))
            c.execute(sa.text("UPDATE schema_info SET value = 3 WHERE name = 'version'"))
    finally:
        store.close()
    browser = make_client()
    with browser.app.state.store.engine.connect() as c:  # type: ignore[attr-defined]
        assert c.execute(sa.text("SELECT value FROM schema_info")).scalar_one() == SCHEMA_VERSION
        cols = {x["name"] for x in sa.inspect(c).get_columns("seats")}
        assert "player_id" in cols
        cols = {x["name"] for x in sa.inspect(c).get_columns("deals")}
        assert {"players", "winner_seat", "knocker_seat", "turn_at"} <= cols
    other = TestClient(browser.app)
    _ann, code = new_table(browser, [ME, OPEN])
    join(other, code, "Bo")
    assert other.get("/api/stats").json()["games_in_progress"] == 0  # waiting: not counted
