"""A graded mistake confirmed by play-outs (issue 20, bots/review/confirm.py): judged from the
seat's view only, deterministic, paired, and re-grading only what the search called a mistake
or a blunder. The ``hard`` judge and a few play-outs keep it fast; every assertion holds for
any deal."""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np
import pytest
from review_helpers import play_record
from test_review import _with_hidden_cards_swapped

from ginrummy.actions import Action, ActionKind
from ginrummy.bots.review import (
    CONFIRMED_GRADES,
    JUDGES,
    ReviewBudget,
    TwoPlayerScore,
    confirm_decision,
    decision_seed,
    playout_drops,
    read_record,
    review_game,
)
from ginrummy.bots.review.confirm import _world, confirmed_grade, paired_stats
from ginrummy.bots.review.grades import accuracy_of, grade_of
from ginrummy.bots.review.position import candidate_moves
from ginrummy.cards import parse_cards
from ginrummy.hand import HandState, Phase
from ginrummy.rules import Rules
from ginrummy.views import view_of

STANDARD = Rules.preset("standard")


def _positions(seed: int) -> list[HandState]:
    """The states before each real choice of a played deal (not the fiftieth card)."""
    rec = play_record("medium", "hard", seed=seed, max_deals=1)
    h0 = rec["hands"][0]
    deck = parse_cards(h0["deck"])
    actions = [Action.parse(a) for a in h0["actions"]]
    out = []
    for stop in range(len(actions)):
        state = HandState(STANDARD, h0["dealer"], deck)
        for a in actions[:stop]:
            state.apply(a)
        view = view_of(state, state.current)
        if len(candidate_moves(view)) >= 2 and view.phase is not Phase.FIFTIETH:
            out.append(state)
    return out


def test_the_play_outs_see_only_what_the_seat_saw(kernel_ready: None) -> None:
    """No leak: a deal that differs only in cards the seat cannot see (one hidden card of the
    opponent exchanged for a stock card) gets the same play-outs at every decision compared."""
    score = TwoPlayerScore(STANDARD, 0, 0)
    compared = 0
    for i, state in enumerate(_positions(21)):
        seat = state.current
        other = _with_hidden_cards_swapped(state, seat, random.Random(i))
        if other is None:
            continue
        view = view_of(state, seat)
        assert view_of(other, seat) == view
        moves = candidate_moves(view)
        seed = decision_seed("ab" * 16, 1, seat, i, view)
        a = playout_drops(state, moves[0], moves[-1], score, seed, 4, "hard", (0, 0))
        b = playout_drops(other, moves[0], moves[-1], score, seed, 4, "hard", (0, 0))
        assert a is not None and b is not None
        assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1]), f"decision {i}"
        compared += 1
    assert compared >= 8


def test_a_world_hides_the_opponents_stock_draws_and_keeps_what_the_seat_saw() -> None:
    state = _positions(22)[-1]
    seat, opp = state.current, 1 - state.current
    draws = [e for e in state.history if e.action.kind is ActionKind.DRAW_STOCK]
    assert {e.seat for e in draws} == {0, 1}, "both seats drew from the stock: another seed"
    stock = np.array(list(reversed(state.stock())), dtype=np.int64)
    world = _world(state, seat, state.hands[opp], stock)
    assert view_of(world, seat) == view_of(state, seat)
    assert list(world.stock()) == [int(c) for c in stock] != list(state.stock())
    after = [e for e in world.history if e.action.kind is ActionKind.DRAW_STOCK]
    assert [e.card is None for e in after] == [e.seat == opp for e in draws]
    assert [e.card for e in after if e.seat == seat] == [e.card for e in draws if e.seat == seat]


def test_the_same_move_both_ways_measures_no_drop(kernel_ready: None) -> None:
    """Paired: the same worlds and random sources for both moves, so a move against itself
    differs nowhere; and the same seed gives the same play-outs."""
    state = _positions(23)[2]
    move = candidate_moves(view_of(state, state.current))[0]
    score = TwoPlayerScore(STANDARD, 40, 70)
    win, pts = playout_drops(state, move, move, score, 7, 6, "hard") or (None, None)
    assert win is not None and pts is not None
    assert not win.any() and not pts.any()
    moves = candidate_moves(view_of(state, state.current))
    x = playout_drops(state, moves[0], moves[1], score, 7, 6, "hard")
    y = playout_drops(state, moves[0], moves[1], score, 7, 6, "hard")
    assert x is not None and y is not None
    assert np.array_equal(x[0], y[0]) and np.array_equal(x[1], y[1])


def test_bad_requests_are_refused() -> None:
    state = _positions(24)[0]
    move = candidate_moves(view_of(state, state.current))[0]
    score = TwoPlayerScore(STANDARD, 0, 0)
    with pytest.raises(ValueError, match="at least 2"):
        playout_drops(state, move, move, score, 1, 1, "hard")
    with pytest.raises(KeyError):
        playout_drops(state, move, move, score, 1, 4, "nobody")
    with pytest.raises(ValueError, match="not a legal move"):
        playout_drops(state, Action(ActionKind.BIG_GIN), move, score, 1, 4, "hard")
    for bad in ({"confirm": 1}, {"confirm": 7}, {"confirm": -2}, {"confirm": 4097},
                {"judge": "nobody"}):
        with pytest.raises(ValueError):
            ReviewBudget(16, **bad)  # type: ignore[arg-type]
    assert set(JUDGES) >= {"expert-light", "expert", "hard"}


def test_a_confirmed_grade_needs_both_measures_sure_of_a_mistake() -> None:
    """z >= 2 on the play-outs: graded on their drop as the search's are; unsure play-outs
    that still lean the same way: an inaccuracy at most; else good."""
    assert confirmed_grade(0.06, 2.5) == grade_of(False, 0.06, 2.5) == "blunder"
    assert confirmed_grade(0.03, 2.0) == "mistake"
    assert confirmed_grade(0.012, 4.0) == "inaccuracy"
    for drop in (0.01, 0.03, 0.2):
        assert confirmed_grade(drop, 1.99) == "inaccuracy"
    assert confirmed_grade(0.009, 1.0) == confirmed_grade(0.0, 0.0) == "good"
    assert confirmed_grade(0.004, 9.0) == "good"


def test_paired_stats() -> None:
    assert paired_stats(np.array([0.1, 0.1, 0.1])) == (pytest.approx(0.1), 99.0)
    assert paired_stats(np.array([0.0, 0.0])) == (0.0, 0.0)
    mean, z = paired_stats(np.array([0.1, 0.3]))
    assert mean == pytest.approx(0.2) and z == pytest.approx(0.2 / (0.1414214 / 2 ** 0.5), 1e-4)


def test_only_the_searchs_mistakes_are_graded_again_by_their_play_outs(
        kernel_ready: None) -> None:
    """With ``confirm``, every decision the search grades a mistake or a blunder carries its
    play-outs and is graded on them (grade_of on their drop and z); every other decision is
    exactly what the review without play-outs gives."""
    rec = play_record("easy", "expert", seed=25, max_deals=3)
    game = read_record(rec)
    plain = review_game(game, (0,), None, ReviewBudget(16))
    checked = review_game(game, (0,), None, ReviewBudget(16, confirm=8, judge="hard"))
    assert checked.to_json()["budget"] == {"worlds": 16, "confirm": 8, "judge": "hard"}
    assert plain.to_json()["budget"] == {"worlds": 16}
    pairs = [(p, c) for dp, dc in zip(plain.deals, checked.deals, strict=True)
             for p, c in zip(dp.decisions, dc.decisions, strict=True)]
    flagged = 0
    for p, c in pairs:
        if p.grade not in CONFIRMED_GRADES:
            assert c == p
            continue
        flagged += 1
        conf = c.confirmation
        assert conf is not None and conf.playouts == 8 and conf.judge == "hard"
        assert conf.search_grade == p.grade and conf.search_drop == p.drop
        assert c.drop == max(0.0, conf.drop) and c.z == conf.z
        assert c.drop_points == max(0.0, conf.drop_points)
        assert c.grade == confirmed_grade(c.drop, c.z) and c.accuracy == accuracy_of(c.drop)
        # the card's two moves valued by the play-outs (their difference is the drop), the
        # search's values kept beside, every move's values still the search's
        assert (c.played.action, c.best.action, c.moves) == (p.played.action, p.best.action,
                                                             p.moves)
        assert (conf.search_played, conf.search_best) == (p.played, p.best)
        assert c.best.win - c.played.win == pytest.approx(conf.drop, abs=1e-12)
        assert c.best.points - c.played.points == pytest.approx(conf.drop_points, abs=1e-9)
        assert c.to_json()["confirmation"]["search_grade"] == p.grade
    assert flagged >= 1, "no mistake by the search in this game: pick another seed"
    assert all(p.to_json()["confirmation"] is None for p, _ in pairs)


def test_a_decision_not_flagged_is_returned_as_it_is(kernel_ready: None) -> None:
    rec = play_record("easy", "expert", seed=26, max_deals=1)
    game = read_record(rec)
    d = review_game(game, (0,), None, ReviewBudget(16)).deals[0].decisions[0]
    good = replace(d, grade="good")
    state = HandState(STANDARD, game.deals[0].dealer, game.deals[0].deck)
    assert confirm_decision(good, state, game.deals[0].scores[0], 1, 4, "hard") is good
