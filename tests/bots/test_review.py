"""The review's evaluator (issue 20): values from the seat's view only, deterministic, grades
and notes on known positions, the luck bookkeeping, and records it refuses. Small searches
(16-32 worlds) keep it fast; nothing here depends on how a deal falls: each assertion holds for
any deal."""

from __future__ import annotations

import copy
import random
from typing import Any

import numpy as np
import pytest
from kernel_replay import kernel_deal
from review_helpers import play_record

from ginrummy.actions import Action, ActionKind
from ginrummy.bots import kernel as K
from ginrummy.bots.review import (
    GRADES,
    ReviewBudget,
    ReviewError,
    TwoPlayerScore,
    accuracy_of,
    decision_seed,
    evaluate_position,
    grade_of,
    read_record,
    review_game,
    review_record,
)
from ginrummy.bots.review.deal import review_deal
from ginrummy.bots.review.decision import grade_decision
from ginrummy.bots.review.notes import notes_for
from ginrummy.bots.review.position import candidate_moves, policy_weights
from ginrummy.cards import card_text, parse_cards
from ginrummy.hand import HandState, Phase
from ginrummy.replay import HandNotOverError
from ginrummy.rules import Rules
from ginrummy.views import view_of

SMALL = ReviewBudget(16)


def deck_of(non_dealer: str, dealer: str, upcard: str, stock: str = "") -> list[int]:
    """A deck dealing ``non_dealer`` and ``dealer`` (10 cards each, R-2.2), then ``upcard``,
    then ``stock`` on top of the stock and the other cards after it."""
    nd, de = parse_cards(non_dealer), parse_cards(dealer)
    deck = [c for pair in zip(nd, de, strict=True) for c in pair] + parse_cards(upcard)
    deck += parse_cards(stock)
    return deck + [c for c in range(52) if c not in deck]


def state_after(deck: list[int], actions: list[str], dealer: int = 0,
                rules: Rules | None = None) -> HandState:
    h = HandState(rules or Rules.preset("standard"), dealer, deck)
    for a in actions:
        h.apply(Action.parse(a))
    return h


# ------------------------------------------------------------------------------ grades
def test_grades_follow_the_thresholds_and_need_confidence() -> None:
    assert grade_of(True, 0.0, 0.0) == "best"
    assert grade_of(False, 0.005, 9.0) == "good"
    assert grade_of(False, 0.015, 9.0) == "inaccuracy"
    assert grade_of(False, 0.03, 9.0) == "mistake"
    assert grade_of(False, 0.2, 9.0) == "blunder"
    assert grade_of(False, 0.2, 1.0) == "good"  # not sure of it: never called a blunder
    accs = [accuracy_of(d) for d in (0.0, 0.01, 0.025, 0.05, 0.5)]
    assert accs[0] == 100.0 and accs[-1] == 0.0
    assert accs == sorted(accs, reverse=True) and len(set(accs)) == 5


# ------------------------------------------------------------------------------ positions
def test_every_gin_is_one_move_and_each_discard_its_own() -> None:
    # T-4: 3C 4C 5C 2D 3D 4D 5D 2H 3H 4H + 5S: discarding 5S (or 5D, or 2D...) may give gin
    deck = deck_of("3C 4C 5C 2D 3D 4D 5D 2H 3H 5S", "6S 7S 8S 9S TS JS QS KS AH 6H", "4H")
    v = view_of(state_after(deck, ["take"]), 1)
    moves = candidate_moves(v)
    kinds = [m.kind for m in moves]
    assert kinds.count(ActionKind.GIN) == 1
    assert {m.card for m in moves if m.kind is ActionKind.DISCARD} \
        == {c for c in v.hand if c != v.taken_card}


@pytest.mark.parametrize("seat_policy", [(1, 1, 10), (1, 1, 0)])
def test_policy_weights_play_the_kernel_rollout_policy(seat_policy: tuple[int, int, int],
                                                       kernel_ready: None) -> None:
    """Every move of a kernel rollout (the expert's own rollout policy) gets weight from
    policy_weights at the same position of the engine's deal."""
    rules = Rules.preset("standard")
    rng = random.Random(7)
    checked = 0
    for t in range(40):
        deck = list(range(52))
        rng.shuffle(deck)
        dealer = t % 2
        policy = K.make_policy(seat_policy, (0, 0, 10))
        _, trace, _ = kernel_deal(rules, dealer, deck, policy, t)
        h = HandState(rules, dealer, deck)
        for seat, kind, card in trace:
            if h.is_over:
                break
            if seat == 0 and h.phase is not Phase.FIFTIETH:
                v = view_of(h, 0)
                moves = candidate_moves(v)
                w = policy_weights(v, moves, [(seat_policy, 1)])[:, 0]
                assert abs(w.sum() - 1.0) < 1e-9
                names = {K.K_TAKE: (ActionKind.TAKE, ActionKind.DRAW_DISCARD),
                         K.K_PASS: (ActionKind.PASS,), K.K_STOCK: (ActionKind.DRAW_STOCK,),
                         K.K_DISCARD: (ActionKind.DISCARD,), K.K_KNOCK: (ActionKind.KNOCK,),
                         K.K_GIN: (ActionKind.GIN,), K.K_BIG_GIN: (ActionKind.BIG_GIN,)}
                rows = [i for i, m in enumerate(moves) if m.kind in names[kind]
                        and (m.kind is ActionKind.GIN or kind in (K.K_TAKE, K.K_PASS, K.K_STOCK)
                             or m.card == card)]
                assert rows and w[rows].sum() > 0, (t, seat, kind, card_text(card))
                checked += 1
            a = _trace_action(h, kind, card)
            h.apply(a)
    assert checked > 300


def _trace_action(h: HandState, kind: int, card: int) -> Action:
    if kind == K.K_TAKE:
        return Action(ActionKind.TAKE if h.phase is Phase.OFFER else ActionKind.DRAW_DISCARD)
    return {K.K_PASS: Action(ActionKind.PASS), K.K_STOCK: Action(ActionKind.DRAW_STOCK),
            K.K_DISCARD: Action(ActionKind.DISCARD, card),
            K.K_KNOCK: Action(ActionKind.KNOCK, card), K.K_GIN: Action(ActionKind.GIN, card),
            K.K_BIG_GIN: Action(ActionKind.BIG_GIN)}[kind]


def test_a_position_has_the_same_values_whatever_the_hidden_cards(kernel_ready: None) -> None:
    """No leak: two deals that differ only in cards the seat cannot see (the opponent's hidden
    cards and the stock) give the seat the same view, and the same values at every one of its
    decisions; the cards it could see are the same."""
    rec = play_record("medium", "hard", seed=11, max_deals=1)
    h0 = rec["hands"][0]
    deck = parse_cards(h0["deck"])
    actions = [Action.parse(a) for a in h0["actions"]]
    score = TwoPlayerScore(Rules.preset("standard"), 0, 0)
    compared = 0
    for stop in range(len(actions)):
        state = HandState(Rules.preset("standard"), h0["dealer"], deck)
        for a in actions[:stop]:
            state.apply(a)
        seat = state.current
        view = view_of(state, seat)
        if len(candidate_moves(view)) < 2 or view.phase is Phase.FIFTIETH:
            continue
        other = _with_hidden_cards_swapped(state, seat, random.Random(stop))
        if other is None:
            continue
        twin = view_of(other, seat)
        assert twin == view
        seed = decision_seed("00" * 16, 1, seat, stop, view)
        a = evaluate_position(view, score, seed, SMALL)
        b = evaluate_position(twin, score, decision_seed("00" * 16, 1, seat, stop, twin), SMALL)
        assert a is not None and b is not None
        assert np.array_equal(a.win, b.win) and np.array_equal(a.points, b.points)
        compared += 1
    assert compared >= 10


def _with_hidden_cards_swapped(state: HandState, seat: int, rng: random.Random
                               ) -> HandState | None:
    """The same deal up to now with one card of the opponent's hidden hand exchanged for one
    of the stock: a deal that only differs where ``seat`` cannot see; None when the opponent
    holds no hidden card."""
    opp = 1 - seat
    hidden = [c for c in range(52) if state.hands[opp] >> c & 1 and not state.known[opp] >> c & 1]
    stock = state.stock()
    if not hidden or len(stock) < 2:
        return None
    x, y = rng.choice(hidden), rng.choice(stock)
    other = state.clone()
    other.hands[opp] = (state.hands[opp] & ~(1 << x)) | 1 << y
    deck = list(state.deck)
    deck[deck.index(y)] = x
    other.deck = tuple(deck)
    return other


def test_the_same_record_gets_the_same_review(kernel_ready: None) -> None:
    rec = play_record("easy", "expert", seed=3, max_deals=2)
    a = review_record(copy.deepcopy(rec), budget=SMALL).to_json()
    b = review_record(copy.deepcopy(rec), budget=SMALL).to_json()
    assert a == b
    salted = copy.deepcopy(rec)
    salted["hands"][0]["salt"] = "ff" * 16
    c = review_record(salted, hands={1}, budget=SMALL).to_json()
    # another salt, another sample of worlds: the values move (the grades may not)
    assert [d["played"]["win"] for d in c["hands"][0]["decisions"]] \
        != [d["played"]["win"] for d in a["hands"][0]["decisions"]]


# ------------------------------------------------------------------------------ decisions
def test_every_real_choice_of_the_seats_is_graded_once(kernel_ready: None) -> None:
    rec = play_record("medium", "hard", seed=5, max_deals=2)
    review = review_record(rec, seats=(1,), budget=SMALL)
    for deal, h in zip(review.deals, rec["hands"], strict=True):
        state = HandState(Rules.preset("standard"), h["dealer"], parse_cards(h["deck"]))
        want = []
        for i, a in enumerate(h["actions"]):
            if state.current == 1 and len(candidate_moves(view_of(state, 1))) >= 2:
                want.append((i, a))
            state.apply(Action.parse(a))
        got = [(d.index, d.played.action.text) for d in deal.decisions]
        assert [i for i, _ in got] == [i for i, _ in want]
        for d in deal.decisions:
            assert d.seat == 1 and d.grade in GRADES
            assert d.moves[0] == d.best and d.played in d.moves
            assert d.drop >= 0 and 0 <= d.accuracy <= 100
            assert (d.grade == "best") == (d.best.action == d.played.action)
            assert d.kind in ("offer", "draw", "discard", "knock", "fiftieth")


def test_luck_events_are_the_deal_and_each_stock_draw(kernel_ready: None) -> None:
    rec = play_record("hard", "hard", seed=8, max_deals=3)
    review = review_record(rec, budget=SMALL)
    for deal, h in zip(review.deals, rec["hands"], strict=True):
        state = HandState(Rules.preset("standard"), h["dealer"], parse_cards(h["deck"]))
        draws = []
        for i, a in enumerate(h["actions"]):
            if a == "draw stock":
                draws.append((state.current, i, card_text(state.stock()[0])))
            state.apply(Action.parse(a))
        got = [(e.seat, e.index, card_text(e.card)) for e in deal.luck
               if e.kind == "draw" and e.card is not None]
        assert sorted(got) == sorted(draws)
        assert sorted(e.seat for e in deal.luck if e.kind == "deal") == [0, 1]
    for s in review.seats:
        assert s.result_win == pytest.approx(s.cards_win + s.skill_win + s.rest_win)
        assert s.skill_points == pytest.approx(-s.lost_points)


def test_a_deal_in_play_is_not_reviewed(kernel_ready: None) -> None:
    rec = play_record("hard", "hard", seed=2, max_deals=1)
    h = rec["hands"][0]
    from ginrummy.bots.review.deal import DealInput

    rules = Rules.preset("standard")
    scores = {0: TwoPlayerScore(rules, 0, 0), 1: TwoPlayerScore(rules, 0, 0)}
    deal = DealInput(1, rules, h["dealer"], tuple(parse_cards(h["deck"])),
                     tuple(h["actions"][:-1]), h["salt"], scores)
    with pytest.raises(HandNotOverError):
        review_deal(deal, budget=SMALL)


def test_the_fiftieth_card_choice_is_priced_exactly(kernel_ready: None) -> None:
    """R-8.2: passing the last discard ends the deal with no score (the chance of winning stays
    the score's); taking it is worth the best knock or gin that must follow."""
    rules = Rules.preset("straight", dead_hand_rule="fiftieth_card")
    for seed in range(60):
        rec = play_record("hard", "hard", "straight", seed=seed, max_deals=1,
                          dead_hand_rule="fiftieth_card")
        h = rec["hands"][0]
        state = HandState(rules, h["dealer"], parse_cards(h["deck"]))
        for a in h["actions"]:
            if state.phase is Phase.FIFTIETH and len(state.legal_actions()) == 2:
                break
            state.apply(Action.parse(a))
        else:
            continue
        review = review_record(rec, budget=SMALL)
        d = next(d for d in review.deals[0].decisions if d.kind == "fiftieth")
        values = {m.action.kind: m for m in d.moves}
        assert values[ActionKind.PASS].points == 0.0
        assert values[ActionKind.PASS].win == pytest.approx(0.5)
        assert values[ActionKind.DRAW_DISCARD].points > 0  # a gin at once scores
        return
    pytest.fail("no fiftieth-card choice in 60 straight-gin deals")


# ------------------------------------------------------------------------------ notes
def test_notes_name_the_broken_meld_the_fed_card_and_the_undercut_risk() -> None:
    # seat 1 (non-dealer) holds AS 2S 3S | 4H 5H 6H | 7C 8C 9C + KD; takes QD, throws KD; the
    # dealer takes the KD; seat 1 draws the JH from the stock
    deck = deck_of("AS 2S 3S 4H 5H 6H 7C 8C 9C KD", "TS JS 2D 4D 6D 8D TD 3C 5C KH", "QD",
                   "JH")
    h = state_after(deck, ["take", "discard KD", "draw discard", "discard KH", "draw stock"])
    v = view_of(h, 1)
    assert card_text(v.drawn_card or 0) == "JH"
    codes = {n.code: n.params for n in notes_for(v, Action.parse("discard 8C"),
                                                 Action.parse("discard QD"))}
    assert codes["breaks_meld"] == {"card": "8C", "meld": ["7C", "8C", "9C"]}
    fed = notes_for(v, Action.parse("discard QD"), Action.parse("discard QD"))
    assert [(n.code, n.params) for n in fed] == [("feeds", {"card": "QD", "taken": "KD"})]
    knock = notes_for(v, Action.parse("knock QD"), Action.parse("knock QD"))
    risk = next(n.params for n in knock if n.code == "undercut_risk")
    assert risk["k"] == 10 and 0.0 < risk["risk"] < 1.0  # the JH is left
    missed = notes_for(v, Action.parse("discard JH"), Action.parse("knock QD"))
    assert [(n.code, n.params) for n in missed] == [("missed_knock", {"k": 10})]
    # given the knock's points in the search's worlds, the risk is the share where it is
    # undercut (the other side scores): what its value comes from
    worlds = np.array([12, -35, 4, -27, 8, 0, -26, 30], dtype=np.int64)
    seen = notes_for(v, Action.parse("knock QD"), Action.parse("knock QD"), worlds)
    assert next(n.params for n in seen if n.code == "undercut_risk") == {"k": 10, "risk": 0.38}


def test_a_knocks_undercut_risk_is_the_share_of_its_worlds_undercut() -> None:
    """The review's note agrees with the knock's value: a knock valued below nothing in the
    search's worlds is noted with the risk those worlds give, not the hints' estimate."""
    deck = deck_of("AS 2S 3S 4H 5H 6H 7C 8C 9C KD", "TS JS 2D 4D 6D 8D TD 3C 5C KH", "QD",
                   "JH")
    h = state_after(deck, ["take", "discard KD", "draw discard", "discard KH", "draw stock"])
    v = view_of(h, 1)
    values = evaluate_position(v, TwoPlayerScore(v.rules, 0, 0), 7, ReviewBudget(48))
    assert values is not None
    knock = Action.parse("knock QD")
    d = grade_decision(v, values, knock, 1, 5)
    row = values.points[values.index(knock)]
    risk = next(n.params["risk"] for n in d.notes if n.code == "undercut_risk")
    assert risk == round(float(np.mean(row < 0)), 2)


def test_a_discard_instead_of_gin_is_noted() -> None:
    deck = deck_of("3C 4C 5C 2D 3D 4D 5D 2H 3H 5S", "6S 7S 8S 9S TS JS QS KS AH 6H", "4H")
    v = view_of(state_after(deck, ["take"]), 1)
    notes = notes_for(v, Action.parse("discard 3C"), Action.parse("gin 5S"))
    assert [n.code for n in notes] == ["breaks_meld", "missed_gin"]


# ------------------------------------------------------------------------------ records
def _bad(record: Any, message: str) -> None:
    with pytest.raises(ReviewError, match=message):
        read_record(record)


def test_bad_records_are_refused_with_the_reason(kernel_ready: None) -> None:
    rec = play_record("hard", "hard", seed=4, max_deals=2)
    _bad([1, 2], "not a game record")
    _bad({"rules": "standard"}, "no list of")
    _bad({**rec, "format": "other/9"}, "unknown record format")
    _bad({**rec, "scoring": "bridge"}, "unknown scoring")
    _bad({**rec, "rules": {"preset": "nope"}}, "bad rules")
    _bad({**rec, "first_dealer": 2}, "first_dealer")
    broken = copy.deepcopy(rec)
    broken["hands"][0]["actions"][0] = "discard 7H"
    _bad(broken, "hand 1")
    wrong = copy.deepcopy(rec)
    wrong["hands"][1]["dealer"] = 1 - wrong["hands"][1]["dealer"]
    _bad(wrong, "dealer")
    cut = copy.deepcopy(rec)
    cut["hands"][0]["actions"] = cut["hands"][0]["actions"][:3]
    _bad(cut, "did not end")
    game = read_record(rec)
    with pytest.raises(ReviewError, match="no finished hand 9"):
        review_game(game, hands={9}, budget=SMALL)
    with pytest.raises(ReviewError, match="seats"):
        review_game(game, seats=(2,), budget=SMALL)


def test_the_score_before_each_deal_comes_from_the_replayed_game(kernel_ready: None) -> None:
    rec = play_record("hard", "easy", seed=6)
    game = read_record(rec)
    assert game.complete
    points = [0, 0]
    for deal, h in zip(game.deals, rec["hands"], strict=True):
        assert deal.hand_points == (points[0], points[1])
        assert deal.salt == h["salt"]
        r = h["result"]
        if r["winner"] is not None:
            points[r["winner"]] += r["points"]
    assert max(points) >= 100


def test_an_engine_game_record_is_read_too(kernel_ready: None) -> None:
    """ginrummy.records.GameRecord JSON: no salts, no numbers, no dealers; the dealers follow
    from the rules (R-9.1, R-9.2) and the search is seeded from the views alone."""
    rec = play_record("hard", "medium", seed=9, max_deals=2)
    engine = {"version": 1, "rules": rec["rules"], "first_dealer": rec["first_dealer"],
              "hands": [{"deck": h["deck"], "actions": h["actions"]} for h in rec["hands"]]}
    game = read_record(engine)
    assert [d.salt for d in game.deals] == [None, None]
    assert [d.dealer for d in game.deals] == [h["dealer"] for h in rec["hands"]]
    a = review_game(game, budget=SMALL).to_json()
    assert a == review_game(read_record(engine), budget=SMALL).to_json()
