"""No response ever names a card the person may not know at that moment (DESIGN.md
principle 6): the computer's unknown cards, the stock, the computer's face-down knock discard.

Many games are played through the API with random (but hand-ending) choices over several rule
sets; after every response the true deal is rebuilt on the server side and every card-looking
string in the JSON is checked against what seat 0 may know.
"""

from __future__ import annotations

import random
import re
from typing import Any

from fastapi.testclient import TestClient
from web_helpers import Table, choose

from ginrummy.bots import LEVELS
from ginrummy.cards import CardSet, card_text
from ginrummy.game import Game

CARD = re.compile(r"(?:10|[A2-9TJQK])[SHDC]")
#: keys whose values are random ids or hashes, not cards.
NOT_CARDS = {"game_id", "token", "commitment", "salt"}


def card_strings(obj: Any, hand_number: int, path: str = "") -> dict[str, str]:
    """Every card text found in ``obj`` -> where it was found (events of earlier deals
    skipped)."""
    found: dict[str, str] = {}
    if isinstance(obj, dict):
        if "type" in obj and isinstance(obj.get("hand"), int) and obj["hand"] != hand_number:
            return found  # an event of an earlier deal
        for k, v in obj.items():
            if k in NOT_CARDS:
                continue
            found.update(card_strings(v, hand_number, f"{path}.{k}"))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            found.update(card_strings(v, hand_number, f"{path}[{i}]"))
    elif isinstance(obj, str):
        for m in CARD.finditer(obj):
            found[m.group(0).replace("10", "T")] = path
    return found


def hidden_now(game: Game) -> set[str]:
    """Cards seat 0 may not know now in the deal in play (or just ended)."""
    h = game.current
    assert h is not None
    hidden = set(CardSet.of(h.stock()).texts())
    o = h.outcome
    if o is None or o.kind == "dead":
        hidden |= set(CardSet(h.hands[1] & ~h.known[1]).texts())
    if o is not None and o.knocker == 1 and o.knock_discard is not None:
        hidden.add(card_text(o.knock_discard))
    return hidden


def check(state: dict[str, Any], game: Game, where: str) -> None:
    h = game.current
    assert h is not None
    over = h.is_over
    fair = state["fairness"]
    if not over:
        assert fair["revealed"] is None, where
    # earlier deals' reveals; this deal's deck once it is over (that is the point)
    assert [r["hand"] for r in fair["history"]] == list(range(1, state["hand_number"])), where
    body = dict(state)
    body["fairness"] = {k: v for k, v in fair.items()
                        if k != "history" and (k != "revealed" or not over)}
    text = repr(body)
    assert "'deck'" not in text and "'salt'" not in text, where
    leaked = {c: p for c, p in card_strings(body, state["hand_number"]).items()
              if c in hidden_now(game)}
    assert not leaked, f"{where}: hidden cards in the response: {leaked}"


def test_no_response_names_a_hidden_card(client: TestClient) -> None:
    service = client.app.state.service  # type: ignore[attr-defined]
    rng = random.Random(2024)
    configs: list[dict[str, Any]] = [
        {"preset": "standard", "rules": {"target": 60}},
        {"preset": "oklahoma", "rules": {"target": 40}},
        {"preset": "straight", "rules": {"target": 30}},
        {"preset": "pagat", "rules": {"target": 40, "big_gin_bonus": 31,
                                      "dead_hand_rule": "fiftieth_card"}},
        {"preset": "standard", "rules": {"target": 50, "dead_hand_rule": "fiftieth_card"}},
        {"preset": "eaai", "rules": {"target": 40}},
    ]
    responses = 0
    kinds: set[str] = set()
    for i, cfg in enumerate(configs * 2):
        if responses > 800:  # enough; keeps the test fast
            break
        body = {**cfg, "level": LEVELS[i % min(3, len(LEVELS))]}
        t = Table(client, body)
        check(t.state, service.game(t.id), f"game {i} created")
        finish = i % 2 == 0
        steps = 0
        while t.state["phase"] != "game-over" and steps < 400:
            steps += 1
            t.act(choose(t.state, rng, finish=finish or rng.random() < 0.5))
            game = service.game(t.id)
            check(t.state, game, f"game {i} seq {t.state['seq']}")
            responses += 1
            if t.state["result"]:
                kinds.add(t.state["result"]["kind"])
            if steps % 25 == 0:  # a reload from scratch too
                check(t.get(since=0), game, f"game {i} reload")
    assert responses > 300
    assert {"knock", "dead"} & kinds
