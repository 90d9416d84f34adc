"""The review of every form (issue 20): Hollywood, three players and partnership records, the
web's and the engine's, read with the players of each deal and each seat's chance of winning
the match (the race, the team's) from the score sheet before the deal; decisions and summaries
name players. Small searches; nothing depends on how a deal falls."""

from __future__ import annotations

import copy

import numpy as np
import pytest
from review_helpers import play_form

from ginrummy.bots.review import ReviewBudget, ReviewError, read_record, review_game
from ginrummy.bots.stakes import hollywood_value, partnership_value, three_player_value
from ginrummy.game import Game
from ginrummy.rules import Rules
from ginrummy.sheets import HollywoodSheet

SMALL = ReviewBudget(8)
#: Hollywood's three games before the first deal: (hand points, entries, boxes, closed at,
#: winner) each (ginrummy.bots.stakes.GameState)
EMPTY_GAMES = (((0, 0), (False, False), (0, 0), None, None),) * 3
PTS = np.array([0, 7, -7, 31, -31])
NEG = [0, 2, 1, 4, 3]  # the index of -PTS[i]


def _replayed_scores(game: Game) -> list[dict[int, int]]:
    """Per deal, each player's points toward the target before it, summed from the results
    (R-10.1; 3P: each player's own; 4P: the team's), independently of the review."""
    out = []
    pts = dict.fromkeys(range(game.seats), 0)
    hand_pts: dict[int, int] = {}
    for i, h in enumerate(game.deals):
        s = game.seatings[i]
        if game.scoring == "partnership" and s.table == 1:
            out.append(dict(out[-1]))
        else:
            out.append(dict(pts))
        o = h.outcome
        assert o is not None
        if o.winner is not None:
            w = s.players[o.winner]
            if game.scoring == "partnership":
                hand_pts[w % 2] = hand_pts.get(w % 2, 0) + o.points
            else:
                pts[w] += o.points
        if game.scoring == "partnership" and s.table == 1:  # the hand scores the net
            net = hand_pts.get(0, 0) - hand_pts.get(1, 0)
            if net:
                for p in range(4):
                    pts[p] += abs(net) if p % 2 == (0 if net > 0 else 1) else 0
            hand_pts = {}
    return out


@pytest.mark.parametrize("scoring", ["hollywood", "three_player", "partnership"])
def test_every_form_is_read_with_its_players_and_scores(scoring: str, kernel_ready: None
                                                        ) -> None:
    game, web, engine = play_form(scoring, hands=3, seed=1)
    for rec in (web, engine):
        got = read_record(rec)
        assert got.scoring == scoring and got.players == game.seats
        assert [d.players for d in got.deals] == [s.players for s in game.seatings]
        assert [d.dealer for d in got.deals] == [h.dealer for h in game.deals]
    got = read_record(web)
    before = _replayed_scores(game)
    rules = game.rules
    sheet = HollywoodSheet(rules)  # Hollywood: the sheet replayed here, deal by deal
    for k, d in enumerate(got.deals):
        a, b = d.players
        c0, c1 = d.scores[0].win_chance(PTS), d.scores[1].win_chance(PTS)
        assert np.all((c0 >= 0) & (c0 <= 1))
        if scoring == "three_player":
            (z,) = (p for p in range(3) if p not in d.players)
            want = three_player_value(rules, before[k][a], before[k][b], before[k][z])
            assert np.allclose(c0, want(PTS))
        elif scoring == "partnership":
            want = partnership_value(rules, before[k][a], before[k][b], None)
            assert np.allclose(c0, want(PTS))
            assert np.allclose(c0 + c1[NEG], 1.0)  # team against team
        else:  # Hollywood: one seat's match is the other's complement
            assert np.allclose(c0 + c1[NEG], 1.0)
            state = tuple(((g.hand_points[0], g.hand_points[1]), (g.entries[0], g.entries[1]),
                           (g.boxes[0], g.boxes[1]), g.closed_at, g.winner)
                          for g in sheet.games)
            assert np.allclose(c0, hollywood_value(rules, state, a)(PTS))
            assert np.allclose(c1, hollywood_value(rules, state, b)(PTS))
            if k == 0:
                assert state == EMPTY_GAMES and np.isclose(c0[0], 0.5)
            r = game.result_of(k)
            assert r is not None
            sheet.add_result(r.winner, r.points, kind=r.kind, boxes=max(r.boxes, 1),
                             dealer=r.dealer, knocker=r.knocker)
        if scoring != "hollywood":  # Hollywood's is the first open game's
            assert d.hand_points == (before[k][a], before[k][b])


def test_partners_at_a_hands_two_tables_weigh_the_same_team_race(kernel_ready: None) -> None:
    game, web, _ = play_form("partnership", hands=2, seed=3)
    got = read_record(web)
    for t0, t1 in zip(got.deals[0::2], got.deals[1::2], strict=True):
        for s in (0, 1):
            p = t0.players[s]
            partner_seat = [q % 2 for q in t1.players].index(p % 2)
            assert np.allclose(t0.scores[s].win_chance(PTS),
                               t1.scores[partner_seat].win_chance(PTS))


@pytest.mark.parametrize("scoring", ["three_player", "partnership"])
def test_a_form_review_names_players_and_sums_per_player(scoring: str, kernel_ready: None
                                                        ) -> None:
    game, web, _ = play_form(scoring, hands=1, seed=2)
    r = review_game(read_record(web), seats=range(game.seats), budget=SMALL)
    assert len(r.deals) == len(game.deals)
    for deal, s in zip(r.deals, game.seatings, strict=True):
        assert deal.players == s.players
        assert deal.decisions and {d.seat for d in deal.decisions} <= set(s.players)
        assert {e.seat for e in deal.luck} <= set(s.players)
    played = {p: sum(1 for s in game.seatings if s.plays(p)) for p in range(game.seats)}
    for summary in r.seats:
        n = sum(1 for deal in r.deals for d in deal.decisions if d.seat == summary.seat)
        assert summary.decisions == n
        assert (n > 0) == (played[summary.seat] > 0)
    sitter = [p for p in range(game.seats) if not game.seatings[0].plays(p)][0]
    alone = review_game(read_record(web), seats=(sitter,), budget=SMALL)
    assert all(sitter in deal.players for deal in alone.deals)
    assert len(alone.deals) == sum(1 for s in game.seatings if s.plays(sitter))
    with pytest.raises(ReviewError, match="players 0.."):
        review_game(read_record(web), seats=(game.seats,), budget=SMALL)


def test_a_partnership_table_over_while_the_other_is_in_play_is_read_alone(kernel_ready: None
                                                                          ) -> None:
    game, web, _ = play_form("partnership", hands=2, seed=4)
    rec = copy.deepcopy(web)
    t0 = rec["hands"][2]
    rec["hands"] = rec["hands"][:2] + rec["hands"][3:]
    rec["current"] = [{k: t0[k] for k in ("number", "hand", "table", "players", "dealer",
                                          "commitment")}]
    got = read_record(rec)
    assert [d.number for d in got.deals] == [1, 2, 4]
    assert got.deals[2].players == game.seatings[3].players and not got.complete
    full = read_record(web)
    assert np.allclose(got.deals[2].scores[0].win_chance(PTS),
                       full.deals[3].scores[0].win_chance(PTS))


def test_form_records_seated_or_dealt_against_the_rules_are_refused(kernel_ready: None) -> None:
    _, web, _ = play_form("three_player", hands=2, seed=5)
    bad = copy.deepcopy(web)
    bad["hands"][1]["players"] = bad["hands"][1]["players"][::-1]
    with pytest.raises(ReviewError, match="hand 2: seated players"):
        read_record(bad)
    _, web4, _ = play_form("partnership", hands=1, seed=5)
    cut = copy.deepcopy(web4)
    del cut["hands"][0]["dealer"]
    with pytest.raises(ReviewError, match="hand 1: the pair cuts"):
        read_record(cut)
    with pytest.raises(ReviewError, match="unknown scoring"):
        read_record({**web, "scoring": "bridge"})
    assert Rules.preset("standard") == read_record(web).rules
