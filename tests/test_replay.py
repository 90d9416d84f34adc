"""Hand replay (ginrummy.replay): scenario deals with their markers, frames checked against a
step-by-step HandState, and the refusal of a deal in play."""

from __future__ import annotations

import json
import random

import pytest

from ginrummy.actions import ActionKind
from ginrummy.cards import card_text
from ginrummy.hand import HandState, Phase
from ginrummy.melds import best_discard_deadwood, min_deadwood
from ginrummy.records import HandRecord
from ginrummy.replay import HandNotOverError, HandReplay, replay_hand
from ginrummy.rules import Rules
from hand_helpers import deal, make_deck, play

STANDARD = Rules.preset("standard")

# Dealer seat 0, non-dealer seat 1. The non-dealer's 11 cards after taking the upcard
# TC hold gin with KD discarded.
GIN_ND = "AS 2S 3S 4H 5H 6H 7C 8C 9C KD"
GIN_DEALER = "TS JS 2D 4D 6D 8D TD 3H 5C KH"

# The undercut of T-5: the knocker shows 3S4S5S 9H9D9C JDQDKD with 4H (4); the
# defender lays off 6S 7S and keeps AC 2D (3): 4 - 3 + 25 = 26 to the defender.
KNOCKER = "3S 4S 5S 9H 9D 9C JD QD KD 4H"
DEFENDER = "6S 7S QC QH QS 4C 5C 6C AC 2D"


def kinds(r: HandReplay) -> list[tuple[int, str, int]]:
    return [(m.step, m.kind, m.seat) for m in r.markers]


def test_missed_gin_R_4_6_is_marked_at_the_discard() -> None:
    h = play(deal(GIN_ND, GIN_DEALER, "TC", "2C 3C"),
             ["take", "discard KD", "draw stock", "discard 2C", "draw stock", "gin 3C"])
    r = HandReplay.of(h)
    assert kinds(r) == [(2, "missed_gin", 1)]
    (m,) = r.frames[2].markers
    assert [card_text(c) for c in m.cards] == ["KD"]
    assert r.outcome.kind == "gin" and r.outcome.winner == 1
    assert not r.frames[6].markers  # the gin itself is not a missed gin


def test_gin_taken_at_once_has_no_marker() -> None:
    h = play(deal(GIN_ND, GIN_DEALER, "TC"), ["take", "gin KD"])
    r = HandReplay.of(h)
    assert r.markers == () and r.outcome.kind == "gin"


def test_knock_with_gin_in_hand_is_a_missed_gin_R_4_4() -> None:
    # knocking is never compulsory, nor is gin: knocking 7C away keeps 8C9CTC and shows
    # KD (10), so the gin was missed
    h = play(deal(GIN_ND, GIN_DEALER, "TC"), ["take", "knock 7C"])
    r = HandReplay.of(h)
    assert h.outcome is not None and h.outcome.kind == "knock"
    assert kinds(r) == [(2, "missed_gin", 1)]


def test_undercut_R_7_4_is_marked_with_the_defender() -> None:
    # both pass, the non-dealer draws KC from the stock and knocks it away
    h = play(deal(KNOCKER, DEFENDER, "8C", "KC"), ["pass", "pass", "draw stock", "knock KC"])
    r = HandReplay.of(h)
    assert kinds(r) == [(4, "undercut", 0)]
    assert r.markers[0].deadwood_points == 3
    assert (r.outcome.kind, r.outcome.winner, r.outcome.points) == ("undercut", 0, 26)
    data = r.to_json()
    res = data["result"]
    assert res["knock_discard"] == "KC"
    defender = res["hands"][0]
    assert defender["role"] == "defender"
    assert sorted(lo["card"] for lo in defender["layoffs"]) == ["6S", "7S"]
    last = r.frames[-1]
    # the last frame shows the knocker's spread as shown, 10 cards
    assert last.hands[1].arrangement.deadwood.texts() == ["4H"]
    assert len(last.hands[1].cards) == 10 and last.to_act is None


def test_missed_knock_then_undercut() -> None:
    h = play(deal(KNOCKER, DEFENDER, "8C", "KC TC 2H"),
             ["pass", "pass", "draw stock", "discard KC", "draw stock", "discard TC",
              "draw stock", "knock 2H"])
    r = HandReplay.of(h)
    assert kinds(r) == [(4, "missed_knock", 1), (8, "undercut", 0)]
    assert r.markers[0].deadwood_points == 4


def test_plain_knock_has_no_markers_R_7_3() -> None:
    h = play(deal(GIN_ND, GIN_DEALER, "QD"), ["take", "knock KD"])
    r = HandReplay.of(h)
    assert r.markers == ()
    # the defender lays 3H off onto 4H5H6H: 65 - 10 = 55 to the knocker
    assert (r.outcome.kind, r.outcome.winner, r.outcome.points) == ("knock", 1, 55)
    assert r.to_json()["result"]["hands"][0]["layoffs"] == [{"card": "3H",
                                                              "onto": ["4H", "5H", "6H"]}]
    assert all(not f.markers for f in r.frames)


def _random_finished(seed: int) -> HandState:
    rng = random.Random(seed)
    deck = list(range(52))
    rng.shuffle(deck)
    h = HandState(STANDARD, seed % 2, deck)
    while not h.is_over:
        legal = h.legal_actions()
        finish = [a for a in legal if a.kind in (ActionKind.GIN, ActionKind.KNOCK)]
        h.apply(rng.choice(finish) if finish and rng.random() < 0.4 else rng.choice(legal))
    return h


@pytest.mark.parametrize("seed", range(12))
def test_frames_agree_with_handstate(seed: int) -> None:
    finished = _random_finished(seed)
    rec = HandRecord.of(finished)
    r = HandReplay.of_record(rec)
    assert len(r.frames) == len(rec.actions) + 1
    h = HandState(rec.rules, rec.dealer, rec.deck)
    missed = []
    for step, frame in enumerate(r.frames):
        if step:
            before = h.clone()
            h.apply(rec.actions[step - 1])
            assert frame.action is not None and frame.action.text == rec.actions[step - 1]
            assert frame.seat == before.current and frame.card == h.history[-1].card
            gin_ok = before.phase is Phase.DISCARD and any(
                a.kind in (ActionKind.GIN, ActionKind.BIG_GIN) for a in before.legal_actions())
            if gin_ok and (h.outcome is None or h.outcome.kind not in ("gin", "big_gin")):
                missed.append(step)
        assert frame.phase is h.phase and frame.stock_count == h.stock_count
        assert list(frame.discard_pile) == h.discard_pile
        assert frame.next_stock == h.deck[h.stock_pos]
        assert frame.to_act == (None if h.is_over else h.current)
        for seat in (0, 1):
            sh = frame.hands[seat]
            assert sh.cards == h.hand(seat)
            if h.is_over and h.outcome is not None and h.outcome.knocker == seat:
                continue  # the spread as shown
            if len(sh.cards) == 11:
                forbidden = 1 << h.taken_card if h.taken_card is not None else 0
                assert sh.spare is not None and sh.spare in sh.cards
                assert sh.arrangement.deadwood_points == best_discard_deadwood(
                    sh.cards.mask, forbidden)
            else:
                assert sh.spare is None
                assert sh.arrangement.deadwood_points == min_deadwood(sh.cards)
    assert [m.step for m in r.markers if m.kind == "missed_gin"] == missed
    assert r.outcome == h.outcome
    json.dumps(r.to_json())


def test_a_deal_in_play_is_refused() -> None:
    h = deal(GIN_ND, GIN_DEALER, "TC")
    h.apply("take")
    with pytest.raises(HandNotOverError):
        HandReplay.of(h)
    with pytest.raises(HandNotOverError):
        replay_hand(STANDARD, 0, make_deck(GIN_ND, GIN_DEALER, "TC"), [])
    with pytest.raises(HandNotOverError):  # an action after the end
        replay_hand(STANDARD, 0, make_deck(GIN_ND, GIN_DEALER, "TC"),
                    ["take", "gin KD", "pass"])


def test_dead_hand_R_8_1_replays() -> None:
    rng = random.Random(5)
    deck = list(range(52))
    rng.shuffle(deck)
    d = HandState(STANDARD, 0, deck)
    while not d.is_over:  # never knock: the stock runs down to 2
        legal = [a for a in d.legal_actions()
                 if a.kind not in (ActionKind.GIN, ActionKind.KNOCK, ActionKind.BIG_GIN,
                                   ActionKind.DRAW_DISCARD)]
        d.apply(legal[0])
    r = HandReplay.of(d)
    assert r.outcome.kind == "dead" and r.frames[-1].stock_count == 2
    assert r.to_json()["result"]["hands"] == []
    assert [m.kind for m in r.markers if m.kind == "undercut"] == []


@pytest.mark.parametrize("seed", range(30))
def test_missed_knock_names_the_discards_of_its_deadwood_R_4_2(seed: int) -> None:
    """A "could knock" marker names exactly the discards that knock with its deadwood, the
    least any legal knock could show."""
    finished = _random_finished(seed)
    rec = HandRecord.of(finished)
    r = HandReplay.of_record(rec)
    h = HandState(rec.rules, rec.dealer, rec.deck)
    states = [h.clone()]
    for a in rec.actions:
        h.apply(a)
        states.append(h.clone())
    for m in (m for m in r.markers if m.kind == "missed_knock"):
        before = states[m.step - 1]
        mask = before.hands[m.seat]
        left = {a.card: min_deadwood(mask & ~(1 << a.card)) for a in before.legal_actions()
                if a.kind is ActionKind.KNOCK and a.card is not None}
        assert left and m.deadwood_points == min(left.values())
        assert set(m.cards) == {c for c, dw in left.items() if dw == m.deadwood_points}
