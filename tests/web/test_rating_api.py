"""A person's rating in ``GET /api/stats`` (issue 22; docs/api.md "Statistics", ``rating``):
Glicko-2 over the browser's finished games, the levels held at their measured ratings, both
people moving at a table of people; each figure recomputed here from the games' results with
``ginrummy.rating`` (the levels' ratings are set by the test, not the shipped file)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from table_helpers import join, new_table, play_until
from web_helpers import Table, choose

from ginrummy.bots import strength
from ginrummy.rating import NEW_PLAYER, Glicko, glicko2_update

#: the levels' ratings the tests use (no "medium": a level without a measured rating)
RATINGS = {"easy": (1210.0, 21.0), "hard": (1580.0, 19.0), "expert": (1730.0, 22.0)}


@pytest.fixture(autouse=True)
def measured(monkeypatch: pytest.MonkeyPatch) -> None:
    data = {"ratings": {k: {"rating": r, "se": se} for k, (r, se) in RATINGS.items()}}
    monkeypatch.setattr(strength, "ratings_file", lambda: data)


def level(name: str) -> Glicko:
    r, se = RATINGS[name]
    return Glicko(r, se)


def rating_of(client: TestClient) -> dict[str, Any]:
    r = client.get("/api/stats")
    assert r.status_code == 200, r.text
    return dict(r.json()["rating"])


def won_count(client: TestClient) -> int:
    return int(client.get("/api/stats").json()["games_won"])


def play_out(t: Table, rng: random.Random) -> None:
    for _ in range(3000):
        if t.state["phase"] == "game-over":
            return
        t.act(choose(t.state, rng))
    raise AssertionError("the game did not end")


def close(got: dict[str, Any], want: Glicko) -> None:
    assert got["rating"] == round(want.rating, 1)
    assert got["rd"] == round(want.rd, 1)
    lo, hi = want.interval
    assert (got["low"], got["high"]) == (round(lo, 1), round(hi, 1))


def test_a_new_browser_is_unrated(client: TestClient) -> None:
    got = rating_of(client)
    assert (got["rating"], got["rd"], got["games"], got["history"]) == (1500.0, 350.0, 0, [])
    assert got["suggested_level"] is None
    assert got["levels"] == {"easy": 1210.0, "hard": 1580.0, "expert": 1730.0}


def test_games_against_the_computer(client: TestClient,
                                    new_table: Callable[..., Table]) -> None:
    rng = random.Random(22)
    want = NEW_PLAYER
    history: list[tuple[str, bool]] = []
    for lv in ("easy", "hard", "expert", "easy"):
        before = won_count(client)
        t = new_table({"level": lv, "rules": {"target": 25}})
        play_out(t, rng)
        won = won_count(client) == before + 1
        want = glicko2_update(want, [(level(lv), 1.0 if won else 0.0)])
        history.append((lv, won))
        got = rating_of(client)
        close(got, want)
    # a resigned game is a lost one
    t = new_table({"level": "hard"})
    while t.state["phase"] not in ("offer", "draw", "discard"):
        t = new_table({"level": "hard"})
    assert client.post(f"/api/games/{t.id}/resign", headers=t.headers).status_code == 200
    want = glicko2_update(want, [(level("hard"), 0.0)])
    history.append(("hard", False))
    # not rated: a game in play, a level without a measured rating, a Hollywood table
    new_table({"level": "easy"})
    m = new_table({"level": "medium", "rules": {"target": 25}})
    play_out(m, rng)
    h = new_table({"level": "easy", "scoring": "hollywood", "rules": {"target": 25}})
    play_out(h, rng)
    got = rating_of(client)
    close(got, want)
    assert got["games"] == 5
    assert [(x["opponent"], x["won"]) for x in got["history"]] == history
    assert [x["game"] for x in got["history"]] == [1, 2, 3, 4, 5]
    assert got["history"][-1]["rating"] == got["rating"]
    times = [x["finished_at"] for x in got["history"]]
    assert times == sorted(times)
    # the suggestion: the level nearest the rating
    near = min(RATINGS, key=lambda k: abs(RATINGS[k][0] - want.rating))
    assert got["suggested_level"] == near
    assert want.rd < 350


def test_a_table_of_people_moves_both(make_client: Callable[..., TestClient]) -> None:
    ann_browser = make_client()
    bo_browser = TestClient(ann_browser.app)
    rng = random.Random(5)
    # Ann first loses a game to easy (resigned): her rating is no longer a new player's
    t = Table(ann_browser, {"level": "easy"})
    while t.state["phase"] not in ("offer", "draw", "discard"):
        t = Table(ann_browser, {"level": "easy"})
    assert ann_browser.post(f"/api/games/{t.id}/resign", headers=t.headers).status_code == 200
    ann_before = glicko2_update(NEW_PLAYER, [(level("easy"), 0.0)])
    close(rating_of(ann_browser), ann_before)
    # then Ann and Bo play each other
    ann, code = new_table(ann_browser, [{"kind": "person"}, {"kind": "open"}],
                          rules={"target": 25})
    bo = join(bo_browser, code, "Bo")
    assert ann.call("POST", "/start").status_code == 200
    play_until([ann, bo], rng, lambda ss: ss[0]["phase"] == "game-over")
    ann_won = won_count(ann_browser) == 1
    a_score = 1.0 if ann_won else 0.0
    ann_now = glicko2_update(ann_before, [(NEW_PLAYER, a_score)])
    bo_now = glicko2_update(NEW_PLAYER, [(ann_before, 1.0 - a_score)])
    a, b = rating_of(ann_browser), rating_of(bo_browser)
    close(a, ann_now)
    close(b, bo_now)
    assert a["history"][-1]["opponent"] is None and a["history"][-1]["won"] is ann_won
    assert b["games"] == 1 and b["history"][0]["won"] is not ann_won
    # Bo's later game against the computer changes Bo's rating, not Ann's
    t2 = Table(bo_browser, {"level": "hard"})
    while t2.state["phase"] not in ("offer", "draw", "discard"):
        t2 = Table(bo_browser, {"level": "hard"})
    assert bo_browser.post(f"/api/games/{t2.id}/resign", headers=t2.headers).status_code == 200
    close(rating_of(bo_browser), glicko2_update(bo_now, [(level("hard"), 0.0)]))
    close(rating_of(ann_browser), ann_now)
    # a third browser that sat nowhere is unrated
    assert rating_of(TestClient(ann_browser.app))["games"] == 0
