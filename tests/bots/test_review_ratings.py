"""The review told who plays (issue 20, docs/review.md "Who is playing"): with the players'
ratings a two-player game's later deals are valued as won in proportion to their strengths
(``read_record(record, ratings)``); without them, or in the other forms, as even."""

from __future__ import annotations

import copy

import numpy as np
import pytest
from review_helpers import play_form, play_record

from ginrummy.bots.review import (
    ReviewBudget,
    ReviewError,
    TwoPlayerScore,
    read_record,
    review_record,
)
from ginrummy.bots.value import deal_share
from ginrummy.rating import elo_expected

SMALL = ReviewBudget(16)


def test_ratings_set_each_seats_share_of_the_later_deals() -> None:
    rec = play_record("easy", "hard", seed=11, max_deals=3)
    even = read_record(rec)
    rated = read_record(rec, (1230.0, 1658.0))
    assert even.ratings is None and rated.ratings == (1230.0, 1658.0)
    for deal in rated.deals:
        mine = deal.scores[deal.players.index(0)]
        theirs = deal.scores[deal.players.index(1)]
        assert isinstance(mine, TwoPlayerScore) and isinstance(theirs, TwoPlayerScore)
        assert mine.share == deal_share(1230.0 - 1658.0) < 0.5
        assert theirs.share == deal_share(1658.0 - 1230.0) > 0.5
    for deal in even.deals:
        assert all(s.share == 0.5 for s in deal.scores.values())  # type: ignore[attr-defined]
    # before the first deal, the chance counting who plays is the Elo expectation of the gap
    # (to the rounding); the chance between equals stays even
    first = rated.deals[0].scores[rated.deals[0].players.index(0)]
    assert float(first.chance_values(np.zeros((1, 1), dtype=np.int64))[0, 0]) == pytest.approx(
        elo_expected(1230.0, 1658.0), abs=0.005)
    assert float(first.win_chance(np.zeros(1, dtype=np.int64))[0]) == pytest.approx(0.5, abs=1e-12)


def test_one_rating_unknown_values_the_deals_as_even() -> None:
    rec = play_record("easy", "hard", seed=11, max_deals=2)
    game = read_record(rec, (None, 1658.0))
    assert all(s.share == 0.5 for d in game.deals  # type: ignore[attr-defined]
               for s in d.scores.values())


@pytest.mark.parametrize("bad", [(1500.0,), (1500.0, 1600.0, 1700.0), (1500.0, "x"),
                                 (float("nan"), 1500.0), (True, 1500.0)])
def test_ratings_that_are_not_one_number_per_player_are_refused(bad: tuple[object, ...]) -> None:
    rec = play_record("easy", "hard", seed=11, max_deals=1)
    with pytest.raises(ReviewError, match="ratings"):
        read_record(rec, bad)  # type: ignore[arg-type]


def test_ratings_move_the_chances_and_never_a_grade(kernel_ready: None) -> None:
    rec = play_record("easy", "expert", seed=4, max_deals=2)
    even = review_record(copy.deepcopy(rec), budget=SMALL).to_json()
    rated = review_record(copy.deepcopy(rec), budget=SMALL, ratings=(1230.0, 1762.0)).to_json()
    assert even["ratings"] is None and rated["ratings"] == [1230.0, 1762.0]
    # grades, drops, accuracy, luck and the turning points compare moves between equals
    assert {k: v for k, v in even.items() if k not in ("ratings", "hands")} == \
        {k: v for k, v in rated.items() if k not in ("ratings", "hands")}
    pairs = [(d, e) for h, g in zip(rated["hands"], even["hands"], strict=True)
             for d, e in zip(h["decisions"], g["decisions"], strict=True)]
    assert pairs
    for d, e in pairs:
        for key in ("grade", "drop", "z", "accuracy"):
            assert d[key] == e[key]
        assert d["played"]["win"] == e["played"]["win"] == e["played"]["chance"]
        # the chance counting who plays: the same worlds, valued for seat 1 the stronger
        c, w = d["played"]["chance"], d["played"]["win"]
        assert (c <= w + 1e-9) if d["seat"] == 0 else (c >= w - 1e-9)
    assert any(abs(d["played"]["chance"] - d["played"]["win"]) > 0.02 for d, _e in pairs)


def test_the_other_forms_are_valued_as_even_whatever_the_ratings() -> None:
    _game, web, _engine = play_form("three_player", hands=2)
    assert read_record(web, (1500.0, 1600.0, 1700.0)).deals[0].scores == \
        read_record(web).deals[0].scores
