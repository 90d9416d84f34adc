"""``POST /api/games/{id}/resign`` (docs/api.md; issue 13, item 5): a game in play against the
computer is given up: it is over, counts as lost in the statistics, takes no more actions and
reveals nothing of the deal in play; a finished game, a second resignation, a table of people
and a wrong token are refused and change nothing."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient
from test_web_leak import card_strings, hidden_now
from web_helpers import Table, choose


def resign(t: Table, headers: dict[str, str] | None = None) -> Any:
    return t.client.post(f"/api/games/{t.id}/resign",
                         headers=t.headers if headers is None else headers)


def test_resign_ends_the_game_as_lost(client: TestClient,
                                      new_table: Callable[..., Table]) -> None:
    rng = random.Random(4)
    for _attempt in range(20):  # a deal still in play a few moves in (the computer may end it)
        client.cookies.clear()  # a new browser: its statistics are this game's alone
        t = new_table({"level": "easy"})
        for _ in range(6):  # a few moves into the deal
            if t.state["phase"] in ("offer", "draw", "discard"):
                t.act(choose(t.state, rng, finish=False))
        if t.state["phase"] in ("offer", "draw", "discard"):
            break
    else:
        raise AssertionError("no deal of 20 was still in play after six moves")
    before = t.get()
    service = client.app.state.service  # type: ignore[attr-defined]
    hidden = hidden_now(service.game(t.id))  # the computer's cards and the stock now
    r = resign(t)
    assert r.status_code == 200, r.text
    st = r.json()
    assert st["phase"] == "game-over" and st["resigned"] == {"seat": 0}
    assert st["legal"] == [] and st["turn"] is None
    assert not st["knock"]["allowed"] and not st["gin"]["allowed"]
    assert st["seq"] == before["seq"] and st["hand"] == before["hand"]
    # the abandoned deal stays hidden: no card of the computer's hand or of the stock
    leaked = {c: p for c, p in card_strings(st, st["hand_number"]).items() if c in hidden}
    assert not leaked, leaked
    assert st["fairness"]["revealed"] is None
    record = client.get(f"/api/games/{t.id}/record", headers=t.headers).json()
    assert all(h["number"] != st["hand_number"] for h in record["hands"])
    assert t.get() == st  # as stored, seen again
    # no more moves, no hint
    for a in ("draw stock", "pass", "next hand", "discard " + st["hand"][0]):
        r = t.post(a)
        assert r.status_code == 422 and r.json()["detail"]["code"] == "illegal", a
    assert client.get(f"/api/games/{t.id}/hint", headers=t.headers).json() == {
        "seq": st["seq"], "hint": None, "reason": "game_over"}
    s = client.get("/api/stats").json()
    assert (s["games_played"], s["games_lost"], s["games_resigned"],
            s["games_in_progress"]) == (1, 1, 1, 0)
    assert s["current_streak"] == {"kind": "lost", "length": 1} and s["win_rate"] == 0.0
    assert s["by_level"] == {"easy": {"played": 1, "won": 0, "lost": 1, "win_rate": 0.0}}


def test_refusals_change_nothing(client: TestClient, new_table: Callable[..., Table]) -> None:
    t = new_table({"level": "easy"})
    before = t.get()
    for headers in ({}, {"Authorization": "Bearer nope"}, {"Authorization": t.token}):
        r = resign(t, headers)
        assert r.status_code == 404 and r.json()["detail"]["code"] == "not_found"
    assert t.get() == before
    assert resign(t).status_code == 200
    r = resign(t)  # once only
    assert r.status_code == 409 and r.json()["detail"]["code"] == "game_over"
    # a game that ended by points is not resigned afterwards
    rng = random.Random(2)
    done = new_table({"level": "easy", "rules": {"target": 1}})
    for _ in range(400):
        if done.state["phase"] == "game-over":
            break
        done.act(choose(done.state, rng))
    assert done.state["phase"] == "game-over"
    r = resign(done)
    assert r.status_code == 409 and r.json()["detail"]["code"] == "game_over"
    assert "resigned" not in done.get()
    s = client.get("/api/stats").json()
    assert s["games_resigned"] == 1 and s["games_played"] == 2


def test_a_table_of_people_is_left_not_resigned(client: TestClient) -> None:
    made = client.post("/api/games", json={"seats": [{"kind": "person"}, {"kind": "open"}],
                                           "name": "Ann"}).json()
    r = client.post(f"/api/games/{made['game_id']}/resign",
                    headers={"Authorization": f"Bearer {made['token']}"})
    assert r.status_code == 409 and r.json()["detail"]["code"] == "people"


def test_a_variant_table_against_the_computer_is_resigned(
        client: TestClient, new_table: Callable[..., Table]) -> None:
    t = new_table({"level": "easy", "scoring": "hollywood"})
    r = resign(t)
    assert r.status_code == 200, r.text
    assert r.json()["phase"] == "game-over" and r.json()["resigned"] == {"seat": 0}
    s = client.get("/api/stats").json()
    assert s["by_variant"] == {"hollywood": {"played": 1, "won": 0, "lost": 1, "win_rate": 0.0}}
