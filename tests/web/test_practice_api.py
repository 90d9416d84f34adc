"""A person's own past mistakes to practise (issue 20; docs/api.md "Practice"): ``GET
/api/practice`` lists the asking browser's mistakes and blunders in the reviews made of its own
games (its cookie, not a token: a game over whose token the page forgot is still there), newest
first, each the review's decision of the browser's own seat; its positions open as the same
exercise as the game's token opens, and answer a move tried the same. Nothing of another
browser's games, nor of a game not reviewed, nor of a deal in play. SQLite and PostgreSQL.

No luck of a deal decides a test: every deck comes from a seeded shuffle (the first the fixed
deal of test_review_api.py), the salts, the computers' seeds and the dealers are fixed, and the
person's moves come from a seeded chooser: each game and each review is the same on every run.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from test_review_api import COMPUTER, PERSON, UPCARD, deck_of
from test_review_every_form import SMALL, _fix
from test_web_leak import card_strings
from web_helpers import Table, choose

import ginrummy.web.tables.service as service_module

#: the person takes the gin card, then breaks the run it completes in place of going gin
FLAW = ["take", "discard 9D"]


@pytest.fixture
def pclient(make_client: Callable[..., TestClient], monkeypatch: pytest.MonkeyPatch
            ) -> TestClient:
    _fix(monkeypatch, 9, [deck_of(PERSON, COMPUTER, UPCARD)])
    salts = iter(f"{i:032x}" for i in range(10_000))
    monkeypatch.setattr(service_module, "new_salt", lambda: next(salts))
    return make_client(reviews=SMALL)


def _idle(client: TestClient) -> None:
    assert client.app.state.reviews.pool.wait_idle(120)  # type: ignore[attr-defined]


def _review(client: TestClient, t: Any, path: str) -> dict[str, Any]:
    """The review at ``path`` of game ``t`` (``/review`` or ``/hands/{n}/review``), made."""
    url = f"/api/games/{t.id}{path}"
    r = client.get(url, headers=t.headers)
    if r.status_code == 202:
        _idle(client)
        r = client.get(url, headers=t.headers)
    assert r.status_code == 200, r.text[:300]
    review: dict[str, Any] = r.json()["review"]
    return review


def _finished_game(client: TestClient, rng: random.Random, flaw: list[str] | None = None
                   ) -> Table:
    """A game against the computer played to its end (target 10: a hand or two)."""
    t = Table(client, {"level": "easy", "rules": {"target": 10}})
    for a in flaw or []:
        t.act(a)
    while t.state["phase"] != "game-over":
        t.act(choose(t.state, rng))
    return t


def _reviewed_with_a_mistake(client: TestClient) -> tuple[Table, dict[str, Any]]:
    """The browser's first game reviewed whose person's seat made a mistake or blunder (games
    played until one has, at most 8: the fixed deal first, then seeded ones) and the newest
    position of the practice list."""
    rng = random.Random(2)
    for tries in range(8):
        t = _finished_game(client, rng, FLAW if tries == 0 else None)
        _review(client, t, "/review")
        positions = client.get("/api/practice").json()["positions"]
        if positions:
            return t, positions[0]
    pytest.fail("8 games reviewed without a mistake of the person's to practise")


def _expected(review: dict[str, Any], game_id: str, seat: int) -> list[tuple[Any, ...]]:
    """The review's mistakes and blunders of ``seat``, latest first: (game, hand, step,
    grade, action played)."""
    out = [(game_id, h["hand"], d["step"], d["grade"], d["played"]["action"])
           for h in review["hands"] for d in h["decisions"]
           if d["seat"] == seat and d["grade"] in ("mistake", "blunder")]
    return sorted(out, key=lambda x: (-x[1], -x[2]))


def _listed(client: TestClient) -> list[tuple[Any, ...]]:
    r = client.get("/api/practice")
    assert r.status_code == 200, r.text
    body = r.json()
    assert set(body) == {"positions", "total"} and body["total"] == len(body["positions"])
    return [(p["game_id"], p["hand"], p["step"], p["grade"], p["played"]["action"])
            for p in body["positions"]]


def test_the_browsers_own_mistakes_newest_first_once_reviewed(pclient: TestClient) -> None:
    assert pclient.get("/api/practice").json() == {"positions": [], "total": 0}
    rng = random.Random(4)  # both games have mistakes of the person's
    first = _finished_game(pclient, rng, FLAW)
    second = _finished_game(pclient, rng)
    assert _listed(pclient) == []  # nothing reviewed yet: nothing to practise
    review = _review(pclient, first, "/review")
    want_first = _expected(review, first.id, 0)
    assert want_first, "the first game has no mistake of the person's to practise"
    assert _listed(pclient) == want_first
    # a hand's review of the same deals adds nothing twice
    _review(pclient, first, "/hands/1/review")
    assert _listed(pclient) == want_first
    # the newer game's positions come first once it is reviewed
    want_second = _expected(_review(pclient, second, "/review"), second.id, 0)
    assert want_second, "the second game has no mistake of the person's to practise"
    assert _listed(pclient) == want_second + want_first
    # each position as the review graded it, the move played without the best one
    positions = pclient.get("/api/practice").json()["positions"]
    p = next(x for x in positions if x["game_id"] == first.id)
    decision = next(d for h in review["hands"] for d in h["decisions"]
                    if (h["hand"], d["step"]) == (p["hand"], p["step"]))
    assert set(p) == {"game_id", "hand", "step", "seat", "grade", "kind", "played", "face_up",
                      "drop", "drop_points", "scoring", "preset", "at"}
    assert p["seat"] == 0 and p["scoring"] == "standard" and "best" not in json.dumps(p)
    assert (p["kind"], p["drop"], p["drop_points"], p["played"]) == (
        decision["kind"], decision["drop"], decision["drop_points"],
        {k: decision["played"][k] for k in ("action", "kind", "card")})


def test_a_position_opens_as_the_exercise_by_the_browser_alone(pclient: TestClient) -> None:
    t, p = _reviewed_with_a_mistake(pclient)
    path = f"/hands/{p['hand']}/exercises/{p['step']}"
    by_cookie = pclient.get(f"/api/practice/{t.id}{path}")
    by_token = pclient.get(f"/api/games/{t.id}{path}", headers=t.headers)
    assert by_cookie.status_code == 200 and by_cookie.json() == by_token.json()
    assert by_cookie.json()["position"]["moves"]
    _idle(pclient)
    move = {"action": p["played"]["action"]}
    tried = pclient.post(f"/api/practice/{t.id}{path}", json=move)
    if tried.status_code == 202:
        _idle(pclient)
        tried = pclient.post(f"/api/practice/{t.id}{path}", json=move)
    assert tried.status_code == 200, tried.text
    assert tried.json() == pclient.post(f"/api/games/{t.id}{path}", json=move,
                                        headers=t.headers).json()
    assert tried.json()["tried"]["grade"] == p["grade"]  # the move played: the review's grade
    bad = pclient.post(f"/api/practice/{t.id}{path}", json={"action": "discard ZZ"})
    assert bad.status_code == 422 and bad.json()["detail"]["code"] == "invalid"


def test_another_browser_sees_nothing_of_them(pclient: TestClient) -> None:
    t, p = _reviewed_with_a_mistake(pclient)
    other = TestClient(pclient.app)  # the same server, another browser (its own cookie)
    assert other.get("/api/practice").json() == {"positions": [], "total": 0}
    path = f"/api/practice/{t.id}/hands/{p['hand']}/exercises/{p['step']}"
    for method, body in (("GET", None), ("POST", {"action": p["played"]["action"]})):
        r = other.request(method, path, json=body)
        assert r.status_code == 404 and t.id not in r.text, r.text
        assert not card_strings(r.json(), -1)
        # nor with the game's token in place of the cookie
        r = other.request(method, path, json=body, headers=t.headers)
        assert r.status_code == 404, r.text
    r = pclient.get("/api/practice/no-such-game/hands/1/exercises/1")
    assert r.status_code == 404


def test_at_a_table_of_people_each_browser_practises_its_own_seat(
        make_client: Callable[..., TestClient], monkeypatch: pytest.MonkeyPatch) -> None:
    """Ann (seat 0) and Bo (seat 1), each in a browser of their own: once the game's review is
    made, each lists the mistakes of their own seat only; a deal in play is never offered."""
    from table_helpers import join, new_table, play_until

    _fix(monkeypatch, 12)
    monkeypatch.setattr(service_module, "new_salt", lambda: "7c" * 16)
    client = make_client(reviews=SMALL)
    ann_browser, bo_browser = client, TestClient(client.app)
    ann, code = new_table(ann_browser, [{"kind": "person"}, {"kind": "open"}],
                          rules={"target": 60})
    bo = join(bo_browser, code, "Bo")
    assert ann.call("POST", "/start").status_code == 200
    rng = random.Random(5)
    play_until([ann, bo], rng, lambda states: all(s["phase"] == "hand-over" for s in states))
    review = _review(ann_browser, ann, "/hands/1/review")
    want = {0: _expected(review, ann.id, 0), 1: _expected(review, ann.id, 1)}
    assert want[0] or want[1], "no mistake in the hand"
    assert _listed(ann_browser) == want[0]
    assert _listed(bo_browser) == want[1]
    assert all(p["seat"] == 1 for p in bo_browser.get("/api/practice").json()["positions"])
    # the next deal in play: its positions are refused, with nothing of it
    ann.act("next hand")
    r = ann_browser.get(f"/api/practice/{ann.id}/hands/2/exercises/1")
    assert r.status_code == 409 and r.json()["detail"]["code"] == "hand_in_play"
    assert not card_strings(r.json(), -1)
