"""Views never hold hidden information; records replay exactly (DESIGN principles 5, 6)."""

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from ginrummy.actions import ActionKind
from ginrummy.game import Game
from ginrummy.hand import HandState, Phase
from ginrummy.records import GameRecord, HandRecord
from ginrummy.rules import Rules
from ginrummy.views import view_of

PRESETS = ["standard", "pagat", "eaai", "oklahoma", "straight"]


def _random_hand(seed: int, preset: str) -> tuple[HandState, list[HandState]]:
    rng = random.Random(seed)
    deck = list(range(52))
    rng.shuffle(deck)
    rules = Rules.preset(preset, big_gin_bonus=31 if seed % 3 == 0 else None,
                         dead_hand_rule="fiftieth_card" if seed % 2 else "standard")
    h = HandState(rules, seed % 2, deck)
    snapshots = [h.clone()]
    while not h.is_over:
        la = h.legal_actions()
        ends = [a for a in la if a.kind in (ActionKind.KNOCK, ActionKind.GIN, ActionKind.BIG_GIN)]
        h.apply(rng.choice(ends) if ends and rng.random() < 0.3 else rng.choice(la))
        snapshots.append(h.clone())
    return h, snapshots


def _card_values(view) -> set[int]:
    """Every card a view holds anywhere."""
    cards = set(view.hand) | set(view.opponent_known) | set(view.discard_pile) | {view.upcard}
    cards |= {e.card for e in view.history if e.card is not None}
    for a in view.legal:
        if a.card is not None:
            cards.add(a.card)
    if view.taken_card is not None:
        cards.add(view.taken_card)
    if view.drawn_card is not None:
        cards.add(view.drawn_card)
    o = view.outcome
    if o is not None:
        if o.knock_discard is not None:
            cards.add(o.knock_discard)
        if o.showdown is not None:
            sd = o.showdown
            for m in (*sd.knocker_spread.melds, sd.knocker_spread.deadwood, *sd.defender.melds,
                      sd.defender.deadwood):
                cards |= set(m)
    return cards


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**9), preset=st.sampled_from(PRESETS))
def test_view_never_holds_opponent_unseen_cards_or_stock(seed, preset):
    _, snaps = _random_hand(seed, preset)
    for h in snaps:
        for seat in (0, 1):
            v = view_of(h, seat)
            allowed = set(h.hand(seat)) | set(h.discard_pile) | {h.upcard}
            allowed |= set(h.hand(1 - seat)) & set(v.opponent_known)
            # cards this seat itself played or saw taken from the pile stay known
            for e in h.history:
                if e.card is None:
                    continue
                if e.seat == seat or e.action.kind in (ActionKind.TAKE, ActionKind.DRAW_DISCARD,
                                                        ActionKind.DISCARD):
                    allowed.add(e.card)
            if h.is_over and h.outcome is not None and h.outcome.showdown is not None:
                allowed |= set(h.hand(0)) | set(h.hand(1))  # both hands are shown down
            held = _card_values(v)
            assert held <= allowed, (seat, sorted(held - allowed))
            assert not (held & set(h.stock())), "a view holds a stock card"
            assert v.opponent_card_count == len(h.hand(1 - seat))
            assert v.stock_count == h.stock_count


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**9), preset=st.sampled_from(PRESETS))
def test_hand_record_replays_identically(seed, preset):
    h, snaps = _random_hand(seed, preset)
    rec = HandRecord.of(h)
    again = HandRecord.from_json(json.loads(json.dumps(rec.to_json()))).replay()
    assert again.hands == h.hands and again.discard_pile == h.discard_pile
    assert again.stock_count == h.stock_count and again.phase is Phase.DONE
    assert again.outcome == h.outcome


def test_game_record_replays_identically():
    rng = random.Random(7)
    for preset in PRESETS:
        g = Game(Rules.preset(preset), rng.randrange(2))
        while not g.is_over:
            deck = list(range(52))
            rng.shuffle(deck)
            h = g.new_hand(deck)
            while not h.is_over:
                la = h.legal_actions()
                ends = [a for a in la if a.kind in (ActionKind.KNOCK, ActionKind.GIN)]
                g.apply(ends[0] if ends else rng.choice(la))
        rec = GameRecord.of(g)
        g2 = GameRecord.from_json(json.loads(rec.dumps())).replay()
        assert g2.final() == g.final() and g2.hands == g.hands
