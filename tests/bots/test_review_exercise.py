"""What the server's review (issue 20) asks of the evaluator beyond a whole review: its progress
as it goes, and one decision graded for each of its moves (the "try again" exercise), with the
same values and grade as the review gives the move played. Small searches; every assertion
holds for any deal."""

from __future__ import annotations

import pytest
from review_helpers import play_record

from ginrummy.bots.review import (
    DealInput,
    ReviewBudget,
    TwoPlayerScore,
    grade_moves,
    position_at,
    read_record,
    review_record,
)
from ginrummy.bots.review.position import candidate_moves, same_move
from ginrummy.rules import Rules
from ginrummy.views import view_of

SMALL = ReviewBudget(8)


def test_progress_counts_every_action_of_the_deals_reviewed(kernel_ready: None) -> None:
    rec = play_record("easy", "hard", seed=11, max_deals=2)
    seen: list[tuple[int, int]] = []
    review_record(rec, budget=SMALL, progress=lambda d, t: seen.append((d, t)))
    total = sum(len(h["actions"]) for h in rec["hands"])
    assert seen[0] == (0, total) and seen[-1] == (total, total)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)
    assert {t for _, t in seen} == {total}
    one: list[tuple[int, int]] = []
    review_record(rec, hands={2}, budget=SMALL, progress=lambda d, t: one.append((d, t)))
    assert one[-1] == (len(rec["hands"][1]["actions"]),) * 2


def test_each_move_of_a_decision_is_graded_as_the_review_grades_the_move_played(
        kernel_ready: None) -> None:
    rec = play_record("easy", "medium", seed=4, max_deals=1)
    review = review_record(rec, budget=SMALL)
    deal = read_record(rec).deals[0]
    decisions = review.deals[0].decisions
    assert decisions
    for d in decisions[:6]:
        h = position_at(deal, d.index)
        assert h.current == d.seat and len(h.history) == d.index
        graded = grade_moves(deal, d.index, SMALL)
        view = view_of(h, d.seat)
        assert [g.played.action for g in graded] == list(candidate_moves(view))
        mine = [g for g in graded if same_move(g.played.action, d.played.action)]
        assert len(mine) == 1
        g = mine[0]
        assert (g.grade, g.drop, g.z, g.best, g.moves) == (d.grade, d.drop, d.z, d.best, d.moves)
        for other in graded:  # every move against the same best move, in the same values
            assert other.best == d.best and other.moves == d.moves
            assert other.drop >= 0
            assert (other.grade == "best") == same_move(other.played.action, d.best.action)


def test_a_confirmed_grade_is_the_same_in_the_review_and_in_its_exercise(
        kernel_ready: None) -> None:
    """With play-outs (ReviewBudget.confirm), the move played gets in the exercise the grade,
    drop and play-outs the review gave it; every other move the search graded a mistake or a
    blunder carries its own play-outs."""
    budget = ReviewBudget(SMALL.worlds, confirm=8, judge="hard")
    rec = play_record("easy", "expert", seed=25, max_deals=3)
    deal_of = {d.number: d for d in read_record(rec).deals}
    review = review_record(rec, seats=(0,), budget=budget)
    confirmed = [d for h in review.deals for d in h.decisions if d.confirmation is not None]
    assert confirmed, "no decision of this game was confirmed: pick another seed"
    for d in confirmed[:3]:
        graded = grade_moves(deal_of[d.number], d.index, budget)
        mine = [g for g in graded if same_move(g.played.action, d.played.action)]
        assert len(mine) == 1 and mine[0] == d
        for g in graded:
            if g.confirmation is None:
                assert g.grade in ("best", "good", "inaccuracy")
            else:
                assert g.confirmation.playouts == 8
                assert g.confirmation.search_grade in ("mistake", "blunder")


def test_a_forced_move_is_no_exercise() -> None:
    rules = Rules.preset("standard")
    scores = {0: TwoPlayerScore(rules, 0, 0), 1: TwoPlayerScore(rules, 0, 0)}
    deal = DealInput(1, rules, 0, tuple(range(52)), ("pass", "pass", "draw stock"), None,
                     scores)
    h = position_at(deal, 2)  # both passed the upcard: the non-dealer draws
    assert [a.text for a in view_of(h, h.current).legal] == ["draw stock"]
    assert grade_moves(deal, 2, SMALL) == ()
    with pytest.raises(ValueError):
        position_at(deal, 3)
