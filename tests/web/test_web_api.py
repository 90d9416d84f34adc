"""The JSON API of docs/api.md through FastAPI's TestClient."""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from web_helpers import Table, choose, in_play

from ginrummy.bots import LEVELS
from ginrummy.fairness import replay_check, verify_deal

PHASES = {"offer", "draw", "discard", "opponent", "hand-over", "game-over"}


def _stable(state: dict[str, Any]) -> dict[str, Any]:
    """A state without its events (which depend on ``since``)."""
    return {k: v for k, v in state.items() if k not in ("events", "duplicate")}


def play_hand(t: Table, rng: random.Random) -> dict[str, Any]:
    while t.state["phase"] not in ("hand-over", "game-over"):
        t.act(choose(t.state, rng))
    return t.state


# ------------------------------------------------------------------------------------ creation
def test_meta(client: TestClient) -> None:
    m = client.get("/api/meta").json()
    assert set(m["presets"]) >= {"standard", "pagat", "oklahoma", "straight"}
    assert m["presets"]["pagat"]["gin_bonus"] == 20
    names = [f["name"] for f in m["fields"]]
    assert "knock_limit" in names and "shutout" in names and "big_gin_bonus" in names
    shutout = next(f for f in m["fields"] if f["name"] == "shutout")
    assert shutout["type"] == "choice" and "flat" in shutout["choices"]
    target = next(f for f in m["fields"] if f["name"] == "target")
    assert target["type"] == "int" and target["min"] == 1
    assert m["levels"] == list(LEVELS) and m["default_level"] in m["levels"]
    assert m["languages"] == ["en", "id", "ms", "jv"] and m["language"] == "en"


def test_create_game(client: TestClient) -> None:
    # the computer may end the deal before the person's first move (it takes the upcard and
    # knocks: test_ended_at_once.py): here the first of 20 games in play
    for _ in range(20):
        r = client.post("/api/games", json={"level": LEVELS[0], "preset": "pagat",
                                            "rules": {"target": 150}})
        assert r.status_code == 201
        if r.json()["state"]["phase"] in ("offer", "draw"):
            break
    data = r.json()
    assert len(data["token"]) >= 40 and data["game_id"]
    s = data["state"]
    assert s["game_id"] == data["game_id"] and s["phase"] in PHASES and s["you"] == 0
    assert s["rules"]["preset"] == "pagat" and s["rules"]["target"] == 150
    assert s["rules"]["gin_bonus"] == 20 and s["level"] == LEVELS[0]
    assert s["hand_number"] == 1 and s["dealer"] in (0, 1)
    assert len(s["hand"]) == 10 and s["opponent"]["card_count"] in (10, 11)
    assert s["events"][0]["type"] == "deal" and s["events"][0]["seq"] == 1
    assert s["seq"] == s["events"][-1]["seq"]
    assert len(s["fairness"]["commitment"]) == 64 and s["fairness"]["revealed"] is None
    assert s["phase"] in ("offer", "draw")  # the computer has moved if it was its turn
    assert s["turn"] == 0 and s["legal"]
    assert r.cookies.get("ginrummy_player")
    assert "httponly" in r.headers["set-cookie"].lower()


def test_default_game_and_level(client: TestClient) -> None:
    s = client.post("/api/games", json={}).json()["state"]
    assert s["rules"]["preset"] == "standard" and s["level"] in LEVELS


def test_whole_game_to_game_over(new_table: Callable[..., Table], client: TestClient) -> None:
    rng = random.Random(7)
    t = new_table({"level": LEVELS[0], "rules": {"target": 40}})
    seen_seq = t.state["seq"]
    hands = 0
    while t.state["phase"] != "game-over":
        s = t.state
        assert s["phase"] in PHASES
        if s["phase"] == "hand-over":
            hands += 1
            assert s["result"] is not None and s["legal"] == [
                {"action": "next hand", "type": "next_hand"}]
            assert s["fairness"]["revealed"] is not None
            assert s["knock"]["reason"]["code"] == "hand_over"
        else:
            assert s["turn"] == 0 and s["result"] is None
        t.act(choose(s, rng))
        assert t.state["seq"] > seen_seq
        # events since our seq, numbered consecutively
        seqs = [e["seq"] for e in t.state["events"]]
        assert seqs == list(range(seen_seq + 1, t.state["seq"] + 1))
        seen_seq = t.state["seq"]
        assert hands < 60
    s = t.state
    final = s["score"]["final"]
    assert final is not None and final["winner"] in (0, 1)
    assert max(s["score"]["hand_points"]) >= 40 and s["legal"] == []
    assert s["events"][-1]["type"] == "game_over"
    assert final["totals"][final["winner"]] - final["totals"][1 - final["winner"]] \
        == final["margin"]
    # no more actions at game-over
    r = t.post("next hand")
    assert r.status_code == 422 and r.json()["detail"]["code"] == "illegal"
    stats = client.get("/api/stats").json()
    assert stats["games_played"] == 1 and stats["games_won"] + stats["games_lost"] == 1
    assert stats["hands_played"] == len(s["score"]["hands"])
    assert stats["hands_won"] + stats["hands_lost"] + stats["hands_dead"] <= stats["hands_played"]
    assert stats["current_streak"]["length"] == 1


def test_result_and_score_shapes(new_table: Callable[..., Table]) -> None:
    rng = random.Random(3)
    for _ in range(6):
        t = new_table({"level": LEVELS[0]})
        s = play_hand(t, rng)
        r = s["result"]
        assert r["kind"] in ("knock", "gin", "big_gin", "undercut", "dead", "tie")
        if r["kind"] == "dead":
            assert r["winner"] is None and r["points"] == 0
            continue
        assert {h["seat"] for h in r["hands"]} == {0, 1}
        assert sum(b["points"] for b in r["breakdown"]) == r["points"]
        for h in r["hands"]:
            cards = [c for m in h["melds"] for c in m] + h["deadwood"]
            cards += [lo["card"] for lo in h["layoffs"]]
            assert len(cards) == 10
        sheet = s["score"]["hands"][-1]
        assert sheet["winner"] == r["winner"] and sheet["points"] == r["points"]
        return


# --------------------------------------------------------------------------------- errors
def test_illegal_action_changes_nothing(new_table: Callable[..., Table]) -> None:
    t = new_table()
    before = t.get()
    not_held = next(c for c in before["discard_pile"])
    for bad in (f"discard {not_held}", "knock 2C", "big gin", "draw discard"
                if before["phase"] == "offer" else "take"):
        r = t.post(bad)
        assert r.status_code == 422, (bad, r.text)
        d = r.json()["detail"]
        assert d["code"] == "illegal" and d["message"]
        assert _stable(t.get()) == _stable(before)


def test_taken_card_may_not_be_discarded(new_table: Callable[..., Table]) -> None:
    rng = random.Random(11)
    for _ in range(30):
        t = new_table()
        while t.state["phase"] not in ("offer", "draw"):
            t.act(choose(t.state, rng))
        types = {a["type"] for a in t.state["legal"]}
        if "take" in types:
            t.act("take")
        elif "draw_discard" in types:
            t.act("draw discard")
        else:
            continue
        if t.state["phase"] != "discard":
            continue
        card = t.state["taken_from_discard"]
        assert card and card in t.state["hand"]
        assert all(a.get("card") != card for a in t.state["legal"])
        r = t.post(f"discard {card}")
        assert r.status_code == 422 and "just took it from the discard pile" in \
            r.json()["detail"]["message"]
        assert r.json()["detail"]["reason"] == {"code": "taken_card", "params": {"card": card}}
        return
    raise AssertionError("never got to take a discard")


def test_stale_seq_409(new_table: Callable[..., Table]) -> None:
    t = new_table()
    a = t.state["legal"][0]["action"]
    for seq in (t.state["seq"] - 1, t.state["seq"] + 5):
        r = t.post(a, seq=seq)
        assert r.status_code == 409
        body = r.json()
        assert body["detail"]["code"] == "stale"
        assert body["state"]["seq"] == t.state["seq"]
        assert _stable(body["state"]) == _stable(t.state)


def test_duplicate_is_not_applied_twice(new_table: Callable[..., Table]) -> None:
    t = new_table()
    seq0 = t.state["seq"]
    a = t.state["legal"][0]["action"]
    first = t.post(a, seq=seq0)
    assert first.status_code == 200 and "duplicate" not in first.json()
    again = t.post(a, seq=seq0)
    assert again.status_code == 200
    d = again.json()
    assert d["duplicate"] is True
    assert _stable(d) == _stable(first.json())
    assert d["events"] == first.json()["events"]
    assert t.get()["seq"] == first.json()["seq"]
    # a different action at the old seq is stale, not a duplicate
    other = t.post("discard 2C" if a != "discard 2C" else "take", seq=seq0)
    assert other.status_code == 409


def test_wrong_token_and_unknown_game_404(new_table: Callable[..., Table],
                                          client: TestClient) -> None:
    t = new_table()
    u = new_table()
    url = f"/api/games/{t.id}"
    for headers in ({}, {"Authorization": "Bearer nope"}, {"Authorization": t.token},
                    {"Authorization": f"Bearer {u.token}"}, {"Authorization": "Basic abc"}):
        assert client.get(url, headers=headers).status_code == 404
        r = client.post(url + "/actions", json={"action": "pass", "seq": t.state["seq"]},
                        headers=headers)
        assert r.status_code == 404 and r.json()["detail"]["code"] == "not_found"
        assert client.put(url + "/order", json={"cards": []}, headers=headers).status_code \
            == 404
    for gid in ("nosuchgame12345", "x", "../../etc", "%00"):
        assert client.get(f"/api/games/{gid}", headers=t.headers).status_code == 404


def test_malformed_bodies_422_never_500(new_table: Callable[..., Table],
                                        client: TestClient) -> None:
    t = new_table()
    url = f"/api/games/{t.id}/actions"
    seq = t.state["seq"]
    cases: list[Any] = [
        b"not json", b"", b"[]", b"null", b'{"action": "pass"}', b'{"seq": 1}',
        {"action": 5, "seq": seq}, {"action": "pass", "seq": "x"},
        {"action": "pass", "seq": -1}, {"action": "pass", "seq": 1.5},
        {"action": "", "seq": seq}, {"action": "x" * 500, "seq": seq},
    ]
    for body in cases:
        r = (client.post(url, content=body, headers={**t.headers,
                                                     "Content-Type": "application/json"})
             if isinstance(body, bytes) else client.post(url, json=body, headers=t.headers))
        assert r.status_code == 422, (body, r.status_code, r.text)
        assert "detail" in r.json()
    for text in ("discard ZZ", "discard 1H", "knock", "fly away", "knock 3D: XYZ", "discard"):
        r = client.post(url, json={"action": text, "seq": seq}, headers=t.headers)
        assert r.status_code == 422, (text, r.text)
        d = r.json()["detail"]
        assert d["code"] in ("invalid", "illegal") and d["message"]
    r = client.post(url, json={"action": "discard ZZ", "seq": seq}, headers=t.headers)
    assert r.json()["detail"]["code"] == "invalid"
    assert "zz" in r.json()["detail"]["message"].lower()
    # bad game creation bodies
    for body in ({"level": "godlike"}, {"preset": "nope"}, {"rules": {"target": -5}},
                 {"rules": {"shutout": "triple"}}, {"rules": {"knock_limit": "ten"}},
                 {"rules": {"no_such_field": 1}}, {"rules": {"target": [1]}},
                 {"rules": {"gin_bonus": 2.5}}, {"rules": {"oklahoma": True, "knock_limit": 0}},
                 {"rules": {"shutout": ["flat"]}}, {"rules": {"big_gin_bonus": {}}}):
        r = client.post("/api/games", json=body)
        assert r.status_code == 422, (body, r.text)
        assert r.json()["detail"]["code"] in ("level", "rules")
    assert client.post("/api/games", content=b"{", headers={
        "Content-Type": "application/json"}).status_code == 422
    # hand order
    o = f"/api/games/{t.id}/order"
    for body in ({"cards": ["ZZ"]}, {"cards": ["7H", "7h"]}, {"cards": "7H"}, {}):
        assert client.put(o, json=body, headers=t.headers).status_code == 422
    # since must be a number
    assert client.get(f"/api/games/{t.id}?since=abc", headers=t.headers).status_code == 422
    # the game is unharmed
    assert _stable(t.get()) == _stable(t.state)


def test_body_size_limit(new_table: Callable[..., Table], client: TestClient) -> None:
    t = new_table()
    big = {"action": "pass", "seq": t.state["seq"], "pad": "x" * 20000}
    r = client.post(f"/api/games/{t.id}/actions", json=big, headers=t.headers)
    assert r.status_code == 413 and r.json()["detail"]["code"] == "too_large"


def test_rate_limits(make_client: Callable[..., TestClient]) -> None:
    from ginrummy.web.http.ratelimit import RateLimits

    c = make_client(rate_limits=RateLimits(creates=3, requests=None))
    codes = [c.post("/api/games", json={}).status_code for _ in range(4)]
    assert codes == [201, 201, 201, 429]
    c2 = make_client(rate_limits=RateLimits(creates=None, requests=5))
    codes = [c2.get("/api/meta").status_code for _ in range(6)]
    assert codes[:5] == [200] * 5 and codes[5] == 429
    r = c2.get("/api/meta")
    assert r.json()["detail"]["code"] == "rate_limited" and int(r.headers["retry-after"]) >= 1


# ----------------------------------------------------------------------------- persistence
def test_restart_resumes_same_state(make_client: Callable[..., TestClient],
                                    db_url: str) -> None:
    rng = random.Random(5)
    a = make_client()
    t = Table(a, {"level": LEVELS[0]})
    for _ in range(5):
        if t.state["phase"] in ("hand-over", "game-over"):
            break
        t.act(choose(t.state, rng, finish=False))
    order = list(reversed(t.state["hand"]))
    assert a.put(f"/api/games/{t.id}/order", json={"cards": order},
                 headers=t.headers).json() == {"ok": True}
    before = t.get()
    assert before["hand"] == order
    a.app.state.store.close()  # type: ignore[attr-defined]

    b = make_client(db_url)  # a new server on the same database
    t.client = b
    after = t.get()
    assert _stable(after) == _stable(before)
    assert after["seq"] == before["seq"] and after["hand"] == order
    # and the game goes on from there
    if after["legal"]:
        t.state = after
        t.act(choose(after, rng))


@pytest.mark.sqlite_only
def test_computer_moves_reproducible_after_restart(make_client: Callable[..., TestClient],
                                                   db_url: str, tmp_path: Path) -> None:
    """The computer's random source is seeded from a server secret + hand + action count:
    the same action on two copies of the database gets the same reply."""
    a = make_client()
    t = Table(a, {"level": LEVELS[0]})
    src = db_url.removeprefix("sqlite:///")
    copy = tmp_path / "copy.sqlite3"
    with sqlite3.connect(src) as s, sqlite3.connect(copy) as d:
        s.backup(d)
    action = t.state["legal"][-1]["action"]
    r1 = t.post(action)
    b = make_client(f"sqlite:///{copy}")
    r2 = b.post(f"/api/games/{t.id}/actions", json={"action": action, "seq": t.state["seq"]},
                headers=t.headers)
    assert r1.status_code == r2.status_code == 200
    assert _stable(r1.json()) == _stable(r2.json())
    assert r1.json()["events"] == r2.json()["events"]


def test_events_since(new_table: Callable[..., Table]) -> None:
    rng = random.Random(2)
    t = new_table({"level": LEVELS[0]})
    for _ in range(4):
        if t.state["phase"] in ("hand-over", "game-over"):
            break
        t.act(choose(t.state, rng, finish=False))
    full = t.get(since=0)
    assert [e["seq"] for e in full["events"]] == list(range(1, full["seq"] + 1))
    assert t.get(since=full["seq"])["events"] == []
    tail = t.get(since=full["seq"] - 2)["events"]
    assert tail == full["events"][-2:]
    # default: the deal in play
    assert t.get()["events"][0]["type"] == "deal"
    for e in full["events"]:
        assert e["text"] and e["type"] and "hand" in e


def test_hand_order_kept_across_moves(new_table: Callable[..., Table],
                                      client: TestClient) -> None:
    t = in_play(new_table)
    hand = t.state["hand"]
    order = hand[5:] + hand[:5]
    r = client.put(f"/api/games/{t.id}/order", json={"cards": order}, headers=t.headers)
    assert r.status_code == 200 and r.json() == {"ok": True}
    s = t.get()
    assert s["hand"] == order
    types = {a["type"] for a in s["legal"]}
    t.state = s
    t.act("draw stock" if "draw_stock" in types else "pass")
    s = t.state
    if s["phase"] == "discard":
        assert s["hand"][:10] == order and s["hand"][10] == s["drawn"]


# ---------------------------------------------------------------------------- knock and gin
def test_knock_and_gin_reasons(new_table: Callable[..., Table]) -> None:
    rng = random.Random(9)
    seen: set[str] = set()
    for preset in ("standard", "straight"):
        t = new_table({"level": LEVELS[0], "preset": preset})
        for _ in range(40):
            s = t.state
            if s["phase"] in ("hand-over", "game-over"):
                break
            k, g = s["knock"], s["gin"]
            assert k["allowed"] == any(a["type"] == "knock" for a in s["legal"])
            assert g["allowed"] == any(a["type"] in ("gin", "big_gin") for a in s["legal"])
            if not k["allowed"]:
                seen.add(k["reason"]["code"])
                if preset == "straight":
                    assert k["reason"]["code"] == "no_knocking"
                elif s["phase"] == "discard":
                    r = k["reason"]
                    assert r["code"] == "deadwood_over_limit" and r["limit"] == 10
                    assert r["deadwood"] > 10
                else:
                    assert k["reason"]["code"] == "draw_first"
            if not g["allowed"]:
                seen.add(g["reason"]["code"])
                if s["phase"] == "discard":
                    assert g["reason"]["code"] == "not_gin"
                    assert g["reason"]["deadwood"] == s["arrangement"]["deadwood_points"]
            for a in s["legal"]:
                if a["type"] == "knock":
                    assert a["deadwood_points"] <= s["knock_limit"]
                    assert len([c for m in a["melds"] for c in m]) + len(a["deadwood"]) == 10
            t.act(choose(s, rng, finish=False))
    assert {"no_knocking", "draw_first", "not_gin"} <= seen


def test_arrangement_of_eleven_is_best_discard(new_table: Callable[..., Table]) -> None:
    from ginrummy.cards import CardSet
    from ginrummy.melds import best_discard_deadwood

    rng = random.Random(4)
    t = new_table({"level": LEVELS[0]})
    for _ in range(30):
        s = t.state
        if s["phase"] == "discard":
            hand = CardSet.parse(s["hand"])
            taken = s["taken_from_discard"]
            forbidden = CardSet.parse([taken]).mask if taken else 0
            arr = s["arrangement"]
            assert arr["deadwood_points"] == best_discard_deadwood(hand.mask, forbidden)
            assert len([c for m in arr["melds"] for c in m]) + len(arr["deadwood"]) == 10
        elif s["phase"] in ("hand-over", "game-over"):
            break
        else:
            assert len(s["hand"]) == 10
        t.act(choose(s, rng, finish=False))


# ---------------------------------------------------------------------------------- fairness
def test_fairness_commitment_verifies_after_the_hand(new_table: Callable[..., Table],
                                                     client: TestClient) -> None:
    rng = random.Random(8)
    t = new_table({"level": LEVELS[0], "rules": {"target": 500}})
    published = t.state["fairness"]["commitment"]
    dealt = set(t.state["hand"])
    s = play_hand(t, rng)
    rev = s["fairness"]["revealed"]
    assert rev is not None and rev["commitment"] == published
    assert verify_deal(rev["commitment"], rev["salt"], rev["deck"])
    assert not verify_deal(rev["commitment"], rev["salt"], rev["deck"][::-1])
    # the revealed deck really is the deal: my 10 cards (in deal order) are in it
    dealer = s["dealer"]
    mine = rev["deck"][0:20:2] if dealer == 1 else rev["deck"][1:20:2]
    assert rev["deck"][20] == s["initial_upcard"]
    assert set(mine) == dealt
    # the record replays, every commitment verifies
    t.act("next hand")
    second = t.state["fairness"]
    # the new deal's deck stays hidden while it is in play (the computer may end it at once)
    assert second["history"][0]["commitment"] == published
    if t.state["phase"] in ("offer", "draw", "discard"):
        assert second["revealed"] is None
    else:
        assert second["revealed"]["commitment"] == second["commitment"]
    assert second["commitment"] != published
    rec = client.get(f"/api/games/{t.id}/record", headers=t.headers).json()
    if t.state["phase"] in ("offer", "draw", "discard"):
        assert rec["current"]["commitment"] == second["commitment"]
        assert "deck" not in rec["current"] and "salt" not in rec["current"]
    else:  # the computer ended the second deal at once: it is a finished hand of the record
        assert rec["current"] is None, rec["current"]
        assert rec["hands"][-1]["commitment"] == second["commitment"]
    report = replay_check(rec)
    assert report.ok, str(report)
    assert replay_check(s).ok
    # tampering is caught
    rec["hands"][0]["deck"][0], rec["hands"][0]["deck"][1] = \
        rec["hands"][0]["deck"][1], rec["hands"][0]["deck"][0]
    assert not replay_check(rec).ok


def test_stats_per_browser(make_client: Callable[..., TestClient]) -> None:
    a = make_client()
    b = TestClient(a.app)
    Table(a, {})
    assert a.get("/api/stats").json()["games_in_progress"] == 1
    s = b.get("/api/stats").json()
    assert s["games_in_progress"] == 0 and s["games_played"] == 0
    assert s["best_margin"] is None and s["current_streak"] == {"kind": None, "length": 0}


def test_knock_with_a_chosen_spread(new_table: Callable[..., Table]) -> None:
    rng = random.Random(12)
    for _ in range(40):
        t = new_table({"level": LEVELS[0]})
        while t.state["phase"] not in ("hand-over", "game-over"):
            knocks = [a for a in t.state["legal"] if a["type"] == "knock"]
            if knocks:
                k = knocks[0]
                spread = " ".join("".join(m) for m in reversed(k["melds"]))
                text = f"knock {k['card']}: {spread}"
                s = t.act(text)
                assert s["phase"] in ("hand-over", "game-over")
                mine = next(h for h in s["result"]["hands"] if h["seat"] == 0)
                assert sorted(map(sorted, mine["melds"])) == sorted(map(sorted, k["melds"]))
                assert s["result"]["knocker"] == 0 and s["result"]["knock_discard"] == k["card"]
                # a retry of the same text is a duplicate
                again = t.post(text, seq=t.responses[-2]["seq"])
                assert again.status_code == 200 and again.json()["duplicate"] is True
                return
            t.act(choose(t.state, rng))
    raise AssertionError("never could knock")


def test_a_failing_computer_player_does_not_stop_the_game(client: TestClient,
                                                           new_table: Callable[..., Table]
                                                           ) -> None:
    class Broken:
        name = "broken"

        def choose(self, view: Any, ctx: Any) -> Any:
            raise RuntimeError("boom")

    service = client.app.state.service  # type: ignore[attr-defined]
    for level in LEVELS:
        service._bots[level] = Broken()
    rng = random.Random(1)
    t = new_table({"level": LEVELS[0]})
    for _ in range(30):
        if t.state["phase"] in ("hand-over", "game-over"):
            break
        assert t.state["phase"] != "opponent" and t.state["turn"] == 0
        t.act(choose(t.state, rng))


def test_database_url_from_environment(monkeypatch: Any, tmp_path: Path) -> None:
    from ginrummy.web import create_app

    url = f"sqlite:///{tmp_path / 'env.sqlite3'}"
    monkeypatch.setenv("GINRUMMY_DATABASE_URL", url)
    app = create_app()
    assert app.state.store.url == url
    app.state.store.close()
    assert (tmp_path / "env.sqlite3").exists()
