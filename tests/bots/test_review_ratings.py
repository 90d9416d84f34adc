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
    # before the first deal, the chance is the Elo expectation of the gap (to the rounding)
    first = rated.deals[0].scores[rated.deals[0].players.index(0)]
    assert float(first.win_chance(np.zeros(1))[0]) == pytest.approx(
        elo_expected(1230.0, 1658.0), abs=0.005)


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


def test_the_review_says_the_ratings_and_moves_its_chances_with_them(kernel_ready: None
                                                                     ) -> None:
    rec = play_record("easy", "expert", seed=4, max_deals=2)
    even = review_record(copy.deepcopy(rec), budget=SMALL).to_json()
    rated = review_record(copy.deepcopy(rec), budget=SMALL, ratings=(1230.0, 1762.0)).to_json()
    assert even["ratings"] is None and rated["ratings"] == [1230.0, 1762.0]
    wins = {(d["hand"], d["index"], d["seat"]): d["played"]["win"]
            for h in even["hands"] for d in h["decisions"]}
    rated_wins = {(d["hand"], d["index"], d["seat"]): d["played"]["win"]
                  for h in rated["hands"] for d in h["decisions"]}
    assert wins.keys() == rated_wins.keys() and wins
    # the same sampled worlds, valued with a table that favours seat 1 from the next deal on
    for (_n, _i, seat), w in wins.items():
        r = rated_wins[(_n, _i, seat)]
        assert (r <= w + 1e-9) if seat == 0 else (r >= w - 1e-9)
    assert any(abs(rated_wins[k] - wins[k]) > 0.02 for k in wins)


def test_the_other_forms_are_valued_as_even_whatever_the_ratings() -> None:
    _game, web, _engine = play_form("three_player", hands=2)
    assert read_record(web, (1500.0, 1600.0, 1700.0)).deals[0].scores == \
        read_record(web).deals[0].scores
