"""Variant tables through the JSON API (docs/variants.md): Hollywood (H), three players (3P),
partnership (4P). Each to the end or several hands; reload and restart; nothing of another seat's
hidden cards in what the person receives."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from web_helpers import Table, choose

from ginrummy.actions import ActionKind
from ginrummy.cards import card_text
from ginrummy.fairness import replay_check
from ginrummy.sheets import partnership_pairings

PHASES = {"offer", "draw", "discard", "opponent", "hand-over", "game-over"}
CARD_EVENTS_PUBLIC = {"take", "draw_discard", "discard"}


def _stable(state: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in state.items() if k not in ("events", "duplicate")}


def _engine(client: TestClient, game_id: str) -> Any:
    """The server's own table (hidden cards included), rebuilt from the store."""
    svc = client.app.state.service  # type: ignore[attr-defined]
    return svc.engine_of(game_id)


def _cards_in(obj: Any) -> set[str]:
    """Every card text anywhere in a JSON value."""
    out: set[str] = set()
    if isinstance(obj, str):
        for part in obj.replace(":", " ").split():
            if len(part) == 2 and part[0] in "A23456789TJQK" and part[1] in "SHDC":
                out.add(part)
    elif isinstance(obj, dict):
        for v in obj.values():
            out |= _cards_in(v)
    elif isinstance(obj, list):
        for v in obj:
            out |= _cards_in(v)
    return out


def check_no_leak(client: TestClient, t: Table, s: dict[str, Any]) -> None:
    """What the person may know, against the server's truth (DESIGN.md principle 6)."""
    engine = _engine(client, t.id)
    m = engine.game
    i = engine.shown(0)
    h = m.deals[i]
    seat = m.seatings[i]
    # the person's own cards are exactly the person's
    if seat.plays(0):
        assert sorted(s["hand"]) == sorted(h.hand(0).texts())
        assert set(s["opponent"]["known"]) <= set(h.hand(1).texts())
    else:
        assert s["hand"] == [] and s["opponent"] == {"card_count": 0, "known": []}
    # events: a card only where it was face up, or for the person's own draws and knocks
    for e in s["events"]:
        if "card" in e and e["type"] not in CARD_EVENTS_PUBLIC:
            assert e["seat"] == 0 and seat.plays(0) and e["hand"] == s["hand_number"], e
    # in play: no card name of the deal in play that the person cannot have seen
    if not h.is_over:
        seen = set(h.hand(0).texts()) if seat.plays(0) else set()
        seen |= {card_text(h.upcard)}
        for ev in h.history:
            if ev.action.kind in (ActionKind.DISCARD,) or (
                    ev.seat == 0 and seat.plays(0) and ev.card is not None):
                seen.add(card_text(ev.card))  # type: ignore[arg-type]
        current = [e for e in s["events"] if e["hand"] == s["hand_number"]]
        visible = {k: v for k, v in s.items()
                   if k not in ("fairness", "score", "table", "events", "rules")}
        assert _cards_in(visible) | _cards_in(current) <= seen
        assert s["fairness"]["revealed"] is None
    else:
        assert s["fairness"]["revealed"] is not None
    # the other table (partnership): public information only while in play
    other = (s.get("table") or {}).get("other")
    if other:
        (j,) = [k for k, x in enumerate(m.seatings) if x.hand == seat.hand and k != i]
        oh = m.deals[j]
        for e in other["events"]:
            if "card" in e:
                assert e["type"] in CARD_EVENTS_PUBLIC, e
        if not oh.is_over:
            assert other["result"] is None and other["revealed"] is None
            face_up = {card_text(oh.upcard)} | {card_text(ev.card) for ev in oh.history
                                               if ev.action.kind is ActionKind.DISCARD}
            assert _cards_in({k: v for k, v in other.items() if k != "commitment"}) <= face_up
    # a deal the person did not play never shows a face-down knock discard
    if not seat.plays(0) and s["result"]:
        assert "knock_discard" not in s["result"]


def play(client: TestClient, t: Table, rng: random.Random, max_hands: int | None = None,
         check: Callable[[dict[str, Any]], None] | None = None) -> int:
    """Play until the game is over (or ``max_hands`` hands are over); returns hands seen."""
    hands = 0
    while t.state["phase"] != "game-over":
        s = t.state
        assert s["phase"] in PHASES
        if check:
            check(s)
        if s["phase"] == "hand-over":
            hands += 1
            if max_hands is not None and hands >= max_hands:
                break
        t.act(choose(s, rng))
    return hands


# --------------------------------------------------------------------------------- creating
def test_meta_offers_scorings_and_field_dependencies(client: TestClient) -> None:
    m = client.get("/api/meta").json()
    assert [s["name"] for s in m["scorings"]] == ["standard", "hollywood", "three_player",
                                                 "partnership"]
    four = next(s for s in m["scorings"] if s["name"] == "partnership")
    assert four["players"] == 4 and four["preset"] == "partnership"
    assert four["fixed"] == {"next_dealer": "winner", "extra_boxes": False}
    assert m["requires"]["oklahoma_ace"] == [{"field": "oklahoma", "is": True, "hard": True}]
    assert m["defaults"]["knock_limit"] == 10


@pytest.mark.parametrize(("body", "reason", "words"), [
    ({"scoring": "three_player", "preset": "eaai", "rules": {"next_dealer": "alternate"}},
     "scoring_fixed", "Three players decides “Next dealer” itself"),
    ({"scoring": "partnership", "preset": "partnership", "rules": {"extra_boxes": True}},
     "scoring_fixed", "Partnership decides “Extra boxes for gin and undercut” itself"),
    ({"scoring": "hollywood", "preset": "oklahoma", "rules": {"knock_limit": 0}},
     "oklahoma_straight", "cannot be played with straight gin"),
    ({"preset": "standard", "rules": {"oklahoma_ace": "one"}}, "oklahoma_ace_off",
     "turn Oklahoma on first"),
    ({"scoring": "three_player", "rules": {"oklahoma_spade_double": False}},
     "oklahoma_spade_off", "turn Oklahoma on first"),
    ({"scoring": "four_hands"}, "unknown_scoring", "no way of scoring called four_hands"),
])
def test_incoherent_tables_are_refused_with_a_clear_error(client: TestClient,
                                                          body: dict[str, Any], reason: str,
                                                          words: str) -> None:
    r = client.post("/api/games", json={"level": "easy", **body})
    assert r.status_code == 422, r.text
    assert r.json()["detail"]["code"] == "rules"
    assert r.json()["detail"]["reason"]["code"] == reason
    assert words in r.json()["detail"]["message"]


def test_coherent_variant_combinations_are_accepted(client: TestClient) -> None:
    for body in ({"scoring": "three_player", "preset": "eaai",
                  "rules": {"next_dealer": "winner"}},
                 # a preset whose dealer rule the table replaces with its own (3P, 4P)
                 {"scoring": "three_player", "preset": "eaai"},
                 {"scoring": "partnership", "preset": "oklahoma"},
                 {"scoring": "hollywood", "preset": "oklahoma",
                  "rules": {"oklahoma_ace": "one", "big_gin_bonus": 31}},
                 {"scoring": "partnership", "preset": "straight"}):
        r = client.post("/api/games", json={"level": "easy", **body})
        assert r.status_code == 201, (body, r.text)
        s = r.json()["state"]
        assert s["scoring"] == body["scoring"] and s["table"]["scoring"] == body["scoring"]


# -------------------------------------------------------------------------------- Hollywood
def test_hollywood_to_the_end_three_games_closed(client: TestClient,
                                                 new_table: Callable[..., Table]) -> None:
    rng = random.Random(3)
    t = new_table({"level": "easy", "scoring": "hollywood", "preset": "pagat",
                   "rules": {"target": 40}})
    s = t.state
    assert s["table"]["seats"] == [0, 1] and s["score"]["scoring"] == "hollywood"
    assert len(s["score"]["games"]) == 3
    play(client, t, rng, check=lambda st: check_no_leak(client, t, st))
    s = t.state
    games = s["score"]["games"]
    assert all(g["closed_after"] is not None and g["final"] for g in games)
    # H: a win goes to every open game where its winner has an entry, and opens one more
    for h in s["score"]["hands"]:
        if h["winner"] is not None:
            assert h["games"] and h["games"] == list(range(h["games"][0], h["games"][-1] + 1))
    totals = [sum(g["final"]["totals"][p] for g in games) for p in (0, 1)]
    assert s["score"]["totals"] == totals
    final = s["score"]["final"]
    assert final["winner"] == (0 if totals[0] > totals[1] else 1)
    assert s["events"][-1]["type"] == "game_over"
    assert s["legal"] == []
    rep = replay_check(client.get(f"/api/games/{t.id}/record", headers=t.headers).json())
    assert rep.ok, rep.lines()
    stats = client.get("/api/stats").json()
    assert stats["games_played"] == 1


# ----------------------------------------------------------------------------- three players
def test_three_players_rotation_sitting_out_and_reload(client: TestClient,
                                                       make_client: Callable[..., TestClient],
                                                       new_table: Callable[..., Table]) -> None:
    rng = random.Random(5)
    t = new_table({"level": "easy", "scoring": "three_player", "rules": {"target": 60}})
    sat_out = 0
    prev: dict[str, Any] | None = None
    while t.state["phase"] != "game-over":
        s = t.state
        check_no_leak(client, t, s)
        tb = s["table"]
        assert tb["players"] == 3 and tb["sitting_out"] == s["dealer"]
        assert s["dealer"] not in tb["seats"] and sorted([*tb["seats"], s["dealer"]]) == [0, 1, 2]
        if tb["spectating"]:
            sat_out += 1
            assert s["dealer"] == 0 and s["phase"] == "hand-over" and s["hand"] == []
            assert [a["type"] for a in s["legal"]] == ["next_hand"]
            r = t.post("discard " + "AS")
            assert r.status_code == 422 and "sit out" in r.json()["detail"]["message"]
        if prev is not None and prev["hand_number"] != s["hand_number"]:
            last = prev["score"]["hands"][-1]
            if last["winner"] is None:  # 3P: a dead hand keeps the dealer and the pair
                assert s["dealer"] == last["dealer"]
            else:  # the loser deals next and sits out
                loser = next(p for p in last["players"] if p != last["winner"])
                assert s["dealer"] == loser
        if s["phase"] == "hand-over" and s["hand_number"] == 3:
            # reload and restart give the same state
            again = t.get()
            assert _stable(again) == _stable(s)
            other = make_client()
            r = other.get(f"/api/games/{t.id}", headers=t.headers)
            assert r.status_code == 200 and _stable(r.json()) == _stable(s)
        if s["phase"] == "hand-over":
            prev = s
        t.act(choose(s, rng))
    s = t.state
    sc = s["score"]
    w = sc["final"]["winner"]
    assert sc["hand_points"][w] >= 60
    assert sorted(x["opponent"] for x in sc["final"]["settlements"]) == \
        sorted(p for p in range(3) if p != w)
    assert sum(sc["final"]["net"]) == 0
    rep = replay_check(client.get(f"/api/games/{t.id}/record", headers=t.headers).json())
    assert rep.ok, rep.lines()
    assert sat_out >= 0


def test_three_players_when_the_person_deals_the_computers_play(
        client: TestClient, new_table: Callable[..., Table]) -> None:
    rng = random.Random(11)
    for _ in range(8):
        t = new_table({"level": "easy", "scoring": "three_player"})
        for _hand in range(6):
            s = t.state
            if s["table"]["spectating"]:
                evs = [e for e in s["events"] if e["hand"] == s["hand_number"]]
                assert evs[0]["type"] == "deal" and evs[0]["players"] == s["table"]["seats"]
                assert evs[-1]["type"] in ("hand_over", "game_over")
                assert evs[0]["seat"] == evs[0]["dealer"] == 0  # the person deals
                assert {e["seat"] for e in evs[1:] if e["seat"] is not None} <= \
                    {*s["table"]["seats"]}
                assert all("card" not in e for e in evs if e["type"] == "draw_stock")
                assert s["result"]["players"] == s["table"]["seats"]
                return
            while t.state["phase"] not in ("hand-over", "game-over"):
                t.act(choose(t.state, rng))
            if t.state["phase"] == "game-over":
                break
            t.act("next hand")
    pytest.fail("the person never dealt in 48 hands")


# ------------------------------------------------------------------------------- partnership
def test_partnership_tables_team_score_and_the_other_table(
        client: TestClient, make_client: Callable[..., TestClient],
        new_table: Callable[..., Table]) -> None:
    rng = random.Random(8)
    # a high target: one lopsided hand (a gin against a full hand at both tables) could reach
    # the preset's 125 and end the game before the checks of the second hand
    t = new_table({"level": "easy", "scoring": "partnership", "preset": "partnership",
                   "rules": {"target": 400}})
    s = t.state
    assert s["rules"]["target"] == 400 and s["table"]["teams"] == [[0, 2], [1, 3]]
    hands = 0
    while hands < 4 and t.state["phase"] != "game-over":
        s = t.state
        check_no_leak(client, t, s)
        n = s["hand_number"]
        mine, other = partnership_pairings(n)
        assert s["table"]["seats"] == list(mine)
        o = s["table"]["other"]
        assert o["players"] == list(other) and o["hand"] == n
        own_moves = len([e for e in s["events"] if e["hand"] == n and e["type"] not in
                         ("deal", "dead_hand", "hand_over", "game_over")])
        if s["phase"] in ("hand-over", "game-over"):
            assert o["over"] and o["result"] is not None and o["revealed"] is not None
            row = s["score"]["hands"][-1]
            assert row["number"] == n
            assert [tb["players"] for tb in row["tables"]] == [list(mine), list(other)]
            wins = [0, 0]
            for tb in row["tables"]:
                if tb["winner"] is not None:
                    wins[tb["winner"] % 2] += tb["points"]
            if wins[0] == wins[1]:
                assert row["team"] is None
            else:
                assert row["team"] == (0 if wins[0] > wins[1] else 1)
                assert row["net"] == abs(wins[0] - wins[1])
            hands += 1
            if hands == 2:
                other_client = make_client()
                r = other_client.get(f"/api/games/{t.id}", headers=t.headers)
                assert _stable(r.json()) == _stable(s)
        elif s["events"] and s["events"][0]["type"] == "deal":
            # the other table keeps pace with the person's
            assert o["over"] or o["moves"] >= own_moves
        t.act(choose(s, rng))
    assert hands >= 2
    rep = replay_check(client.get(f"/api/games/{t.id}/record", headers=t.headers).json())
    assert rep.ok, rep.lines()


def test_partnership_to_the_end(client: TestClient, new_table: Callable[..., Table]) -> None:
    rng = random.Random(21)
    t = new_table({"level": "easy", "scoring": "partnership", "preset": "partnership",
                   "rules": {"target": 50}})
    play(client, t, rng)
    sc = t.state["score"]
    f = sc["final"]
    assert f and max(sc["hand_points"]) >= 50
    assert f["winner"] == (0 if sc["hand_points"][0] > sc["hand_points"][1] else 1)
    assert sc["boxes"] == [sum(1 for h in sc["hands"] if h["team"] == k) for k in (0, 1)]
    assert t.state["events"][-1]["type"] == "game_over"


# --------------------------------------------------------------------------------- protocol
def test_variant_duplicates_stale_order_and_ownership(client: TestClient,
                                                      new_table: Callable[..., Table]) -> None:
    t = new_table({"level": "easy", "scoring": "hollywood"})
    s = t.state
    action = s["legal"][0]["action"]
    first = t.post(action)
    assert first.status_code == 200
    again = t.post(action, seq=s["seq"])
    assert again.status_code == 200 and again.json().get("duplicate") is True
    t.state = first.json()
    stale = t.post("draw stock", seq=0)
    assert stale.status_code == 409 and stale.json()["detail"]["code"] == "stale"
    cards = list(reversed(t.state["hand"]))
    r = client.put(f"/api/games/{t.id}/order", json={"cards": cards}, headers=t.headers)
    assert r.status_code == 200
    assert t.get()["hand"][:len(cards)] == [c for c in cards if c in t.state["hand"]]
    bad = client.get(f"/api/games/{t.id}", headers={"Authorization": "Bearer nope"})
    assert bad.status_code == 404
    assert client.get(f"/api/games/{t.id}/record").status_code == 404


def test_variant_state_is_json_and_names_players(client: TestClient,
                                                 new_table: Callable[..., Table]) -> None:
    t = new_table({"level": "easy", "scoring": "partnership", "preset": "partnership"})
    s = t.state
    json.dumps(s)
    assert s["you"] == 0 and s["turn"] in (0, *s["table"]["seats"])
    assert set(s["rules_inactive"]) >= {"next_dealer", "extra_boxes"}
    assert s["knock_limit"] == 10 and s["fairness"]["commitment"]
    assert s["table"]["other"]["commitment"] != s["fairness"]["commitment"]
