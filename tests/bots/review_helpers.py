"""Finished games as the records ``GET /api/games/{id}/record`` serves, played by computer
players from fixed seeds (no luck of a deal decides a test: each test picks its own seed and
asserts what holds for any deal)."""

from __future__ import annotations

import random
from typing import Any

from ginrummy.bots import Context, make_bot
from ginrummy.cards import card_text
from ginrummy.fairness import FORMAT, commitment_of
from ginrummy.game import Game
from ginrummy.rules import Rules
from ginrummy.views import view_of


def play_record(a: str, b: str, preset: str = "standard", seed: int = 0,
                max_deals: int = 40, **fields: Any) -> dict[str, Any]:
    """A whole game (at most ``max_deals`` deals) of ``a`` (seat 0) against ``b`` (seat 1) as a
    fairness record, under ``preset`` with rules ``fields`` changed."""
    rng = random.Random(f"review-test:{seed}")
    rules = Rules.preset(preset, **fields)
    game = Game(rules, rng.randrange(2))
    bots = [make_bot(a), make_bot(b)]
    ctxs = [Context(rng=random.Random(f"{seed}:{s}")) for s in (0, 1)]
    hands = []
    while not game.is_over and len(hands) < max_deals:
        deck = list(range(52))
        rng.shuffle(deck)
        salt = f"{rng.getrandbits(128):032x}"
        h = game.new_hand(deck)
        while not h.is_over:
            s = h.current
            ctx = ctxs[s]
            ctx.hand_points = (game.hand_points[0], game.hand_points[1])
            ctx.target = rules.target
            game.apply(bots[s].choose(view_of(h, s), ctx))
        o = h.outcome
        assert o is not None
        texts = [card_text(c) for c in deck]
        hands.append({"number": len(hands) + 1, "dealer": h.dealer, "deck": texts,
                      "salt": salt, "commitment": commitment_of(salt, texts),
                      "actions": [e.action.text for e in h.history],
                      "result": {"kind": o.kind, "winner": o.winner, "points": o.points}})
    return {"format": FORMAT, "game_id": f"test-{seed}",
            "rules": {"preset": preset, **rules.to_dict()}, "first_dealer": game.first_dealer,
            "hands": hands, "current": None}
