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


def play_form(scoring: str, level: str = "simple", seed: int = 0, hands: int = 3,
              preset: str = "standard") -> tuple[Game, dict[str, Any], dict[str, Any]]:
    """The first ``hands`` hands (partnership: both tables of each) of a game of ``scoring``
    between computers of ``level`` (the one bot loop, :mod:`ginrummy.bots.play`), and its two
    records: the web's (``GET /api/games/{id}/record``, the shape of
    ``ginrummy.web.tables.engine.TableEngine.record``) and the engine's
    (:class:`ginrummy.records.GameRecord` JSON)."""
    from ginrummy.bots.play import advance
    from ginrummy.records import GameRecord
    from ginrummy.variants import PLAYER_COUNT

    rng = random.Random(f"review-form:{scoring}:{seed}")
    n = PLAYER_COUNT[scoring]
    rules = Rules.preset(preset)
    game = Game(rules, rng.randrange(n) if scoring != "partnership" else 0, scoring)
    bots = [make_bot(level) for _ in range(n)]
    rngs = [random.Random(f"{seed}:{p}") for p in range(n)]
    salts: list[str] = []
    for _ in range(hands):
        if game.is_over:
            break
        for plan in game.next_deals():
            deck = list(range(52))
            rng.shuffle(deck)
            salts.append(f"{rng.getrandbits(128):032x}")
            game.new_hand(deck, rng.randrange(2) if plan.dealer is None else None)
        advance(game, bots, rngs)
    out = []
    for i, h in enumerate(game.deals):
        s = game.seatings[i]
        o = h.outcome
        assert o is not None
        texts = [card_text(c) for c in h.deck]
        out.append({"number": s.number, "hand": s.hand, "table": s.table,
                    "players": list(s.players), "dealer": h.dealer, "deck": texts,
                    "salt": salts[i], "commitment": commitment_of(salts[i], texts),
                    "actions": [e.action.text for e in h.history],
                    "result": {"kind": o.kind, "winner": o.winner, "points": o.points,
                               "winner_player": None if o.winner is None
                               else s.players[o.winner]}})
    web = {"format": FORMAT, "game_id": f"form-{scoring}-{seed}", "scoring": scoring,
           "rules": {"preset": preset, **rules.to_dict()}, "first_dealer": game.first_dealer,
           "hands": out, "current": None}
    return game, web, GameRecord.of(game).to_json()
