"""Properties of the HandState phase machine over random play (Hypothesis picks the seeds).

* random playouts always end (only stock draws shrink the stock, R-8.1, so this is a
  probabilistic property: see MAX_STEPS);
* the 52 cards always partition into the two hands, the stock, the discard pile and the knock
  discard (R-2.x, R-4.3), and the hand sizes are right for the phase (R-3.3);
* legal_actions() is exactly what the rules allow (checked against an independent statement of
  R-3.1..R-3.6, R-4.1, R-4.2, R-4.6, R-5.3, R-8.2, O-1, O-2, SG), and every listed action applies;
* random illegal actions always raise IllegalActionError with a reason and change nothing;
* knocks with a chosen spread (R-4.5) are legal exactly when the spread is within the limit;
* clone() is independent of the original in both directions.

(Record replay and player views are tested elsewhere.)
"""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ginrummy.actions import BIG_GIN, DRAW_DISCARD, DRAW_STOCK, PASS, TAKE, Action, ActionKind
from ginrummy.cards import POINTS, CardSet, card_text
from ginrummy.errors import IllegalActionError
from ginrummy.hand import HandState, Phase
from ginrummy.melds import all_arrangements, min_deadwood_mask
from ginrummy.rules import Rules
from hand_helpers import snapshot

N = int(os.environ.get("GINRUMMY_HAND_EXAMPLES", "120"))
SETTINGS = settings(max_examples=N, deadline=None, suppress_health_check=[HealthCheck.too_slow])

RULESETS = [
    Rules.preset("standard"),
    Rules.preset("pagat"),
    Rules.preset("eaai"),
    Rules.preset("oklahoma"),
    Rules.preset("oklahoma", oklahoma_ace="one"),
    Rules.preset("straight"),
    Rules.preset("standard", dead_hand_rule="fiftieth_card"),
    Rules.preset("standard", big_gin_bonus=31, undercut_on_tie=False),
    Rules.preset("straight", big_gin_bonus=31, dead_hand_rule="fiftieth_card"),
]

MAX_STEPS = 2000
UNIVERSE: list[Action] = [TAKE, PASS, DRAW_STOCK, DRAW_DISCARD, BIG_GIN] + [
    Action(kind, c) for kind in (ActionKind.DISCARD, ActionKind.KNOCK, ActionKind.GIN)
    for c in range(52)]


# ------------------------------------------------------------------------------- checks

def hand_limit(rules: Rules, upcard: int) -> int:
    """O-1, O-2, SG: the knock limit of the deal, stated independently of hand.py."""
    if not rules.oklahoma:
        return rules.knock_limit
    if upcard % 13 == 0:
        return 1 if rules.oklahoma_ace == "one" else 0
    return POINTS[upcard]


def check_partition(h: HandState) -> None:
    """The 52 cards are in exactly one place each; hand sizes fit the phase."""
    parts = [h.hand(0).mask, h.hand(1).mask, CardSet.of(h.stock()).mask,
             CardSet.of(h.discard_pile).mask]
    if h.outcome is not None and h.outcome.knock_discard is not None:
        parts.append(1 << h.outcome.knock_discard)
    assert sum(p.bit_count() for p in parts) == 52
    union = 0
    for p in parts:
        union |= p
    assert union == (1 << 52) - 1
    assert len(h.stock()) == h.stock_count >= 2
    assert len(h.discard_pile) == len(set(h.discard_pile))
    sizes = sorted((len(h.hand(0)), len(h.hand(1))))
    if h.phase is Phase.DISCARD:
        assert len(h.hand(h.current)) == 11 and sizes == [10, 11]
    elif h.phase is Phase.DONE and h.outcome is not None and h.outcome.kind == "big_gin":
        assert sizes == [10, 11]
    else:
        assert sizes == [10, 10]  # 10 cards between turns


def expected_legal(h: HandState) -> set[str]:
    """The legal actions (as texts, knocks with the default spread) from the rules alone."""
    rules = h.rules
    limit = hand_limit(rules, h.upcard)
    ph = h.phase
    seat = h.current
    mask = h.hand(seat).mask
    if ph is Phase.DONE:
        return set()
    if ph is Phase.OFFER:
        return {"take", "pass"}
    if ph is Phase.DRAW:  # after both passed, the forced stock draw
        kinds = [e.action.kind for e in h.history]
        forced = kinds == [ActionKind.PASS, ActionKind.PASS]
        return {"draw stock"} if forced else {"draw stock", "draw discard"}
    if ph is Phase.FIFTIETH:
        top = h.discard_pile[-1]
        m = mask | 1 << top
        can = any(min_deadwood_mask(m & ~(1 << c)) <= limit for c in CardSet(mask))
        return {"pass", "draw discard"} if can else {"pass"}
    # DISCARD: R-3.6 (no taken card), R-4.2 / R-4.6 (limits), R-5.3 (big gin), R-8.2 (must knock)
    taken = h.taken_card
    must_knock = bool(getattr(h, "must_knock", False))
    out = set()
    for c in CardSet(mask):
        if c == taken:
            continue
        if not must_knock:
            out.add(f"discard {card_text(c)}")
        dw = min_deadwood_mask(mask & ~(1 << c))
        if dw == 0:
            out.add(f"gin {card_text(c)}")
        elif dw <= limit:
            out.add(f"knock {card_text(c)}")
    if rules.big_gin_bonus is not None and min_deadwood_mask(mask) == 0:
        out.add("big gin")
    return out


def check_illegal(h: HandState, a: Action) -> None:
    """``a`` is not legal: applying it raises with a reason and changes nothing."""
    before = snapshot(h)
    assert not h.is_legal(a), a.text
    with pytest.raises(IllegalActionError) as info:
        h.apply(a)
    assert str(info.value).strip(), a.text
    assert snapshot(h) == before, a.text


def check_chosen_spreads(h: HandState, rng: random.Random) -> None:
    """R-4.5: a knock may show any disjoint melds; legal iff the deadwood shown is within the
    limit (and the discard is legal). A legal one is scored as shown."""
    mask = h.hand(h.current).mask
    limit = hand_limit(h.rules, h.upcard)
    cards = CardSet(mask).cards()
    for c in rng.sample(cards, 3):
        kept = CardSet(mask & ~(1 << c))
        arrs = all_arrangements(kept)
        for arr in rng.sample(arrs, min(3, len(arrs))):
            a = Action(ActionKind.KNOCK, c, arr.melds)
            ok = c != h.taken_card and limit > 0 and arr.deadwood_points <= limit
            if not ok:
                check_illegal(h, a)
                continue
            assert h.is_legal(a), a.text
            g = h.clone()
            g.apply(a)
            assert g.outcome is not None and g.outcome.showdown is not None
            shown = g.outcome.showdown.knocker_spread
            assert {m.mask for m in shown.melds} == {m.mask for m in arr.melds}
            assert shown.deadwood_points == arr.deadwood_points


def choose(h: HandState, legal: list[Action], rng: random.Random, end_bias: float) -> Action:
    """A random legal action; with probability ``end_bias`` a knock or gin when there is one."""
    enders = [a for a in legal if a.kind in (ActionKind.KNOCK, ActionKind.GIN,
                                             ActionKind.BIG_GIN)]
    if enders and rng.random() < end_bias:
        return rng.choice(enders)
    return rng.choice(legal)


def new_hand(seed: int, rules: Rules, dealer: int) -> tuple[HandState, random.Random]:
    rng = random.Random(seed)
    deck = list(range(52))
    rng.shuffle(deck)
    return HandState(rules, dealer, deck), rng


# ------------------------------------------------------------------------------ properties

@SETTINGS
@given(st.integers(0, 2**64 - 1), st.sampled_from(RULESETS), st.sampled_from([0, 1]),
       st.sampled_from([0.0, 0.05, 0.3, 1.0]))
def test_random_playout(seed: int, rules: Rules, dealer: int, end_bias: float) -> None:
    """Random playouts end; at every step the cards partition, legal_actions() is exactly what
    the rules allow, each legal action applies, and random others raise and change nothing."""
    h, rng = new_hand(seed, rules, dealer)
    steps = 0
    while not h.is_over:
        check_partition(h)
        legal = h.legal_actions()
        texts = [a.text for a in legal]
        assert len(texts) == len(set(texts)), texts
        assert set(texts) == expected_legal(h), (h, texts)
        for a in legal:  # every legal action applies
            assert h.is_legal(a)
            h.clone().apply(a)
        for a in rng.sample(UNIVERSE, 6):  # random illegal ones raise
            if a.text in texts:
                continue
            if a.kind is ActionKind.KNOCK and f"gin {card_text(a.card or 0)}" in texts:
                continue  # "knock X" holding gin is gin: accepted, scored as gin
            check_illegal(h, a)
        if h.phase is Phase.DISCARD and rng.random() < 0.2:
            check_chosen_spreads(h, rng)
        h.apply(choose(h, legal, rng, end_bias))
        steps += 1
        # Only stock draws shrink the stock, so a deal has no hard bound if both
        # players keep taking discards; random play ends with probability 1, long before this.
        assert steps <= MAX_STEPS, "the playout did not end"
    check_partition(h)
    assert h.legal_actions() == []
    o = h.outcome
    assert o is not None
    assert (o.kind == "dead") == (o.winner is None and o.knocker is None) or o.kind == "tie"
    if o.kind == "dead":
        assert o.points == 0 and h.stock_count == 2
    for a in rng.sample(UNIVERSE, 10):
        check_illegal(h, a)


@SETTINGS
@given(st.integers(0, 2**64 - 1), st.sampled_from(RULESETS), st.integers(0, 70))
def test_clone_is_independent(seed: int, rules: Rules, stop: int) -> None:
    """Playing on a clone never touches the original, and playing on the original never
    touches an earlier clone."""
    h, rng = new_hand(seed, rules, seed % 2)
    for _ in range(stop):
        if h.is_over:
            break
        h.apply(choose(h, h.legal_actions(), rng, 0.02))
    before = snapshot(h)
    c = h.clone()
    assert snapshot(c) == before
    while not c.is_over:
        c.apply(choose(c, c.legal_actions(), rng, 0.5))
    assert snapshot(h) == before
    c2 = h.clone()
    while not h.is_over:
        h.apply(choose(h, h.legal_actions(), rng, 0.5))
    assert snapshot(c2) == before


@SETTINGS
@given(st.integers(0, 2**64 - 1), st.sampled_from(RULESETS))
def test_same_deck_same_actions_same_result(seed: int, rules: Rules) -> None:
    """All chance is in the deck (DESIGN principle 5): replaying the chosen actions on a new
    HandState with the same deck gives the same states and outcome."""
    h, rng = new_hand(seed, rules, 1)
    chosen = []
    while not h.is_over:
        a = choose(h, h.legal_actions(), rng, 0.1)
        chosen.append(a)
        h.apply(a)
    g = HandState(rules, 1, h.deck)
    for a in chosen:
        g.apply(a.text)  # through the text form too
    assert snapshot(g) == snapshot(h)
