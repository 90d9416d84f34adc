"""``GET /api/games/{id}/hint`` (docs/api.md, "Hints"): its shape, that asking changes nothing,
ownership, the answer when the person is not to move, the variant tables, and that no hint names
a card the person may not know (DESIGN.md principle 6)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient
from test_web_leak import card_strings, hidden_now
from web_helpers import Table, choose, in_play

from ginrummy.actions import Action

KINDS = {"take", "pass", "draw_stock", "draw_discard", "discard", "knock", "gin", "big_gin"}
KEYS = {"action", "kind", "card", "reason", "deadwood", "deadwood_after", "then_discard",
        "knock_limit", "alternative", "comparison", "could_knock", "undercut_risk", "late_max",
        "danger", "plain", "overrules", "value", "plain_value", "value_kind"}
#: the search fields added by the expert hint (issue 11); web/http/schemas.py's HintBody (the web
#: services' file) does not declare them yet, so the OpenAPI check leaves them out until it does.
SEARCH_KEYS = {"plain", "overrules", "value", "plain_value", "value_kind"}


def get_hint(t: Table, headers: dict[str, str] | None = None) -> Any:
    return t.client.get(f"/api/games/{t.id}/hint",
                        headers=t.headers if headers is None else headers)


def check_hint(t: Table, state: dict[str, Any]) -> dict[str, Any]:
    """The hint for ``state`` (the person is to move): well formed, one of ``state["legal"]``
    (a knock may name its spread), and nothing changed by asking."""
    seq = state["seq"]
    before = t.get(since=0)
    r = get_hint(t)
    assert r.status_code == 200, r.text
    body = r.json()
    assert set(body) == {"seq", "hint"} and body["seq"] == seq
    h = body["hint"]
    assert set(h) == KEYS and h["kind"] in KINDS
    legal = {a["action"] for a in state["legal"]}
    action = Action.parse(h["action"])
    assert action.kind.value == h["kind"]
    if action.melds is not None:  # a chosen spread: its discard has a legal knock
        assert f"knock {h['card']}" in legal
    else:
        assert h["action"] in legal, (h, legal)
    assert isinstance(h["deadwood"], int) and h["deadwood"] >= 0
    assert h["deadwood"] == state["arrangement"]["deadwood_points"]
    assert h["knock_limit"] == state["knock_limit"]
    # asking changed nothing: same seq, same state, seen from scratch
    after = t.get(since=0)
    assert after == before and after["seq"] == seq
    again = get_hint(t).json()
    assert again == body  # a fixed seed: the same position, the same hint
    return dict(h)


def test_hint_shape_numbers_and_no_state_change(new_table: Callable[..., Table]) -> None:
    rng = random.Random(7)
    t = new_table({"level": "easy", "rules": {"target": 500}})
    kinds: set[str] = set()
    asked = 0
    while t.state["phase"] != "game-over" and asked < 80:
        s = t.state
        if s["phase"] in ("offer", "draw", "discard"):
            h = check_hint(t, s)
            asked += 1
            kinds.add(h["kind"])
            if h["kind"] in ("take", "draw_discard"):
                assert h["card"] == s["discard_pile"][-1] and h["then_discard"] is not None
                assert h["deadwood_after"] is not None
            if h["kind"] == "discard":
                assert h["deadwood_after"] >= h["deadwood"]
            # follow the hint half the time: the game goes on from the suggested move
            t.act(h["action"] if rng.random() < 0.5 else choose(s, rng))
        else:
            t.act(choose(s, rng))
    assert asked >= 20 and {"discard", "draw_stock"} <= kinds


def test_wrong_token_is_404(new_table: Callable[..., Table]) -> None:
    t = new_table()
    for headers in ({}, {"Authorization": "Bearer nope"}, {"Authorization": t.token}):
        r = get_hint(t, headers)
        assert r.status_code == 404 and r.json()["detail"]["code"] == "not_found"
    r = t.client.get("/api/games/not-a-real-game-id/hint", headers=t.headers)
    assert r.status_code == 404


def test_no_hint_when_the_hand_is_over(new_table: Callable[..., Table]) -> None:
    rng = random.Random(3)
    t = new_table({"level": "easy", "rules": {"target": 60}})
    seen = set()
    while t.state["phase"] != "game-over":
        s = t.state
        if s["phase"] == "hand-over":
            body = get_hint(t).json()
            assert body == {"seq": s["seq"], "hint": None, "reason": "hand_over"}
            seen.add("hand_over")
        t.act(choose(s, rng))
    body = get_hint(t).json()
    assert body == {"seq": t.state["seq"], "hint": None, "reason": "game_over"}
    # every hand but the last ends in "hand-over" (one big hand can reach the target at once)
    assert seen or t.state["hand_number"] == 1


def test_no_hint_while_the_computer_is_to_move(client: TestClient,
                                               new_table: Callable[..., Table]) -> None:
    """A computer that has still to move (only after a failure) is not moved by a hint."""
    service = client.app.state.service  # type: ignore[attr-defined]
    t = in_play(new_table, {"level": "easy"})
    row = service.store.get_game(t.id)
    loaded = service.records.load(row)
    h = loaded.engine.game.current
    assert h is not None and h.current == 0
    h.current = 1  # pretend it is the computer's turn (as after a failed computer move)
    try:
        body = get_hint(t).json()
        assert body == {"seq": t.state["seq"], "hint": None, "reason": "not_your_turn"}
        assert service.store.get_game(t.id).seq == row.seq
    finally:
        h.current = 0


def test_variant_tables_get_hints(new_table: Callable[..., Table]) -> None:
    rng = random.Random(9)
    for body in ({"level": "easy", "scoring": "hollywood"},
                 {"level": "easy", "scoring": "three_player"},
                 {"level": "easy", "scoring": "partnership", "preset": "partnership"}):
        hints = 0
        # a deal may give the person few turns (three players: the dealer sits out; the
        # computers may end it at once): more tables until four hints were checked
        for _table in range(8):
            t = new_table(body)
            reasons = set()
            for _ in range(60):
                s = t.state
                if s["phase"] == "game-over":
                    break
                if s["phase"] in ("offer", "draw", "discard"):
                    check_hint(t, s)
                    hints += 1
                else:
                    got = get_hint(t).json()
                    assert got["hint"] is None
                    reasons.add(got["reason"])
                    assert got["reason"] in ("hand_over", "sitting_out", "not_your_turn")
                t.act(choose(s, rng))
            if hints > 3:
                break
        assert hints > 3, body


def test_no_hint_names_a_hidden_card(client: TestClient,
                                     new_table: Callable[..., Table]) -> None:
    service = client.app.state.service  # type: ignore[attr-defined]
    rng = random.Random(11)
    checked = 0
    # targets no random game reaches within the 120 actions looked at each
    for cfg in ({"preset": "standard", "rules": {"target": 300}},
                {"preset": "oklahoma", "rules": {"target": 300}},
                {"preset": "pagat", "rules": {"target": 300, "big_gin_bonus": 31,
                                              "dead_hand_rule": "fiftieth_card"}}):
        t = new_table({**cfg, "level": "easy"})
        for _ in range(120):
            s = t.state
            if s["phase"] == "game-over":
                break
            body = get_hint(t).json()
            hidden = hidden_now(service.game(t.id))
            leaked = {c: p for c, p in card_strings(body, s["hand_number"]).items()
                      if c in hidden}
            assert not leaked, leaked
            checked += 1
            t.act(choose(s, rng))
    assert checked > 60


def test_hint_is_in_the_openapi_schema(client: TestClient) -> None:
    spec = client.get("/api/openapi.json").json()
    op = spec["paths"]["/api/games/{game_id}/hint"]["get"]
    assert {"200", "404"} <= set(op["responses"])
    ref = op["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
    name = ref.rsplit("/", 1)[-1]
    props = spec["components"]["schemas"][name]["properties"]
    assert {"seq", "hint", "reason"} <= set(props)
    body = spec["components"]["schemas"]["HintBody"]["properties"]
    assert set(body) >= KEYS


def _spare(state: dict[str, Any]) -> str | None:
    """The card the hand marks as the extra card of 11: held, in no meld and not deadwood of
    the state's arrangement (what model.js groupHand shows as "spare")."""
    arr = state["arrangement"]
    used = {c for m in arr["melds"] for c in m} | set(arr["deadwood"])
    rest = [c for c in state["hand"] if c not in used]
    return rest[0] if len(rest) == 1 else None


def test_hint_and_extra_card_marker_agree_on_equal_deadwood(
        new_table: Callable[..., Table]) -> None:
    """Issue 13, item 6 (R-1.6): holding 11, when the hinted discard (knock, gin) leaves the
    same deadwood as the card the hand marks as extra, the hint names the marked card. Games
    are played until 4 such ties were seen (bounded)."""
    from ginrummy.cards import CardSet
    from ginrummy.melds import min_deadwood

    rng = random.Random(13)
    ties = 0
    for _game in range(12):
        t = new_table({"level": "easy", "rules": {"target": 500}})
        for _step in range(120):
            s = t.state
            if s["phase"] == "game-over" or ties >= 4:
                break
            if s["phase"] == "discard" and len(s["hand"]) == 11:
                spare = _spare(s)
                h = get_hint(t).json()["hint"]
                assert spare is not None
                hand = CardSet.parse(" ".join(s["hand"])).mask

                def after(card: str, hand: int = hand) -> int:
                    return min_deadwood(hand & ~CardSet.parse(card).mask)

                if h["card"] and h["kind"] in ("discard", "knock", "gin") \
                        and h["card"] != s["taken_from_discard"]:
                    if any(after(c) == after(spare) for c in s["hand"]
                           if c != spare and c != s["taken_from_discard"]):
                        ties += 1  # another card leaves the same deadwood as the marked one
                    # a knock keeps a spread of its own only when it shows more deadwood
                    same = after(h["card"]) == after(spare) and (
                        h["kind"] != "knock" or h["deadwood_after"] == after(spare))
                    if same:
                        assert h["card"] == spare, (s["hand"], h, spare)
            t.act(choose(s, rng))
        if ties >= 4:
            return
    raise AssertionError(f"only {ties} positions with equal-deadwood discards in 12 games")
