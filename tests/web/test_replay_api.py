"""``GET /api/games/{id}/hands/{number}/replay`` and the ``/replay`` page: a finished deal face
up; never the deal in play (hidden information, DESIGN.md principle 6)."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient
from web_helpers import Table, choose

from ginrummy.cards import card_text, parse_cards
from ginrummy.hand import HandState
from ginrummy.rules import Rules

CARD_RE = re.compile(r"\b[A2-9TJQK][SHDC]\b")


def finish_hand(t: Table, seed: int = 1) -> dict[str, Any]:
    """Play the person's moves until the deal in play is over."""
    rng = random.Random(seed)
    for _ in range(300):
        if t.state["phase"] in ("hand-over", "game-over"):
            return t.state
        t.act(choose(t.state, rng))
    raise AssertionError("the hand does not end")


def url(t: Table, number: int) -> str:
    return f"/api/games/{t.id}/hands/{number}/replay"


def test_finished_hand_is_replayed_face_up(new_table: Callable[..., Table],
                                           client: TestClient) -> None:
    t = new_table({"level": "easy"})
    finish_hand(t)
    r = client.get(url(t, 1), headers=t.headers)
    assert r.status_code == 200, r.text
    data = r.json()
    record = client.get(f"/api/games/{t.id}/record", headers=t.headers).json()
    (hand,) = record["hands"]
    assert data["number"] == 1 and data["you"] == 0 and data["players"] == [0, 1]
    assert data["finished_hands"] == [1] and data["scoring"] == "standard"
    assert data["deck"] == hand["deck"] and data["dealer"] == hand["dealer"]
    assert [f["action"] for f in data["frames"][1:]] == hand["actions"]
    shown = ("kind", "winner", "points")  # the record's result may say more (winner_player)
    assert {k: data["result"][k] for k in shown} == {k: hand["result"][k] for k in shown}
    # the frames agree with the engine replaying the revealed deck
    h = HandState(Rules.from_dict(data["rules"]), data["dealer"], parse_cards(data["deck"]))
    for frame, action in zip(data["frames"][1:], hand["actions"], strict=True):
        h.apply(action)
        for seat in (0, 1):
            assert frame["hands"][seat]["cards"] == h.hand(seat).texts()
        assert frame["stock_count"] == h.stock_count
    first = data["frames"][0]
    assert [len(x["cards"]) for x in first["hands"]] == [10, 10]
    assert first["discard_pile"] == [hand["deck"][20]] and first["next_stock"] == hand["deck"][21]
    assert data["frames"][-1]["to_act"] is None
    for m in data["markers"]:
        assert m["kind"] in ("missed_gin", "missed_knock", "undercut")
        assert m in data["frames"][m["step"]]["markers"]


def test_deal_in_play_is_refused_and_nothing_of_it_is_answered(
        new_table: Callable[..., Table], client: TestClient) -> None:
    t = new_table({"level": "easy"})
    r = client.get(url(t, 1), headers=t.headers)
    assert r.status_code == 409
    assert r.json()["detail"]["code"] == "hand_in_play"
    assert not CARD_RE.search(r.text), r.text
    finish_hand(t)
    t.act("next hand")
    assert t.state["hand_number"] == 2
    r = client.get(url(t, 2), headers=t.headers)
    assert r.status_code == 409 and not CARD_RE.search(r.text), r.text
    assert set(r.json()) == {"detail"}
    # the finished hand is answered; it shows nothing of the deal in play
    r = client.get(url(t, 1), headers=t.headers)
    assert r.status_code == 200
    data = r.json()
    assert data["finished_hands"] == [1]
    game = client.app.state.service.game(t.id)  # type: ignore[attr-defined]
    first, playing = ([card_text(c) for c in h.deck] for h in game.deals)
    assert data["deck"] == first and data["deck"] != playing


def test_wrong_token_and_unknown_game_are_404(new_table: Callable[..., Table],
                                              client: TestClient) -> None:
    t = new_table({"level": "easy"})
    finish_hand(t)
    assert client.get(url(t, 1), headers=t.headers).status_code == 200
    for headers in ({}, {"Authorization": "Bearer nope-nope-nope"},
                    {"Authorization": t.headers["Authorization"] + "x"},
                    {"Authorization": "Basic " + t.token}):
        r = client.get(url(t, 1), headers=headers)
        assert r.status_code == 404 and r.json()["detail"]["code"] == "not_found"
        assert not CARD_RE.search(r.text)
    other = new_table({"level": "easy"})
    assert client.get(url(t, 1), headers=other.headers).status_code == 404
    r = client.get("/api/games/nosuchgame123/hands/1/replay", headers=t.headers)
    assert r.status_code == 404


def test_unknown_hand_number(new_table: Callable[..., Table], client: TestClient) -> None:
    t = new_table({"level": "easy"})
    finish_hand(t)
    for n in (0, 2, 99, -1):
        r = client.get(url(t, n), headers=t.headers)
        assert r.status_code == 404, (n, r.text)
        assert r.json()["detail"] == {"code": "not_found",
                                      "message": f"There is no hand {n} in this game.",
                                      "reason": {"code": "no_hand", "params": {"number": n}}}
    assert client.get(f"/api/games/{t.id}/hands/one/replay", headers=t.headers
                      ).status_code == 422


def test_variant_table_hand_is_replayed(new_table: Callable[..., Table],
                                        client: TestClient) -> None:
    t = new_table({"level": "easy", "scoring": "hollywood"})
    assert client.get(url(t, 1), headers=t.headers).status_code == 409
    finish_hand(t, seed=4)
    r = client.get(url(t, 1), headers=t.headers)
    assert r.status_code == 200, r.text
    data = r.json()
    assert data["scoring"] == "hollywood" and data["players"] == [0, 1] and data["you"] == 0
    record = client.get(f"/api/games/{t.id}/record", headers=t.headers).json()
    assert [f["action"] for f in data["frames"][1:]] == record["hands"][0]["actions"]


def test_replay_page_is_served_with_the_csp(client: TestClient) -> None:
    r = client.get("/replay?lang=id")
    assert r.status_code == 200
    assert 'lang="id"' in r.text and "/static/replay.js" in r.text
    assert "script-src 'self'" in r.headers["content-security-policy"]
    assert "<script>" not in r.text  # no inline script: only /static/replay.js
    assert not re.search(r"(src|href)\s*=\s*[\"']?(https?:)?//", r.text)  # nothing outside
    for f in ("replay.js", "replay.css"):
        assert client.get(f"/static/{f}").status_code == 200
