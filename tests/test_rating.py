"""``ginrummy.rating``: Glicko-2 against Glickman's published worked example, and the round-robin
fit against closed forms and data built from known strengths."""

from __future__ import annotations

import math

import pytest

from ginrummy.rating import (
    ANCHOR_RATING,
    NEW_PLAYER,
    SCALE,
    Glicko,
    elo_expected,
    fit_round_robin,
    glicko2_update,
    nearest_level,
    rate_games,
)
from ginrummy.rating import _expected as expected
from ginrummy.rating import _g as g

# Mark Glickman, "Example of the Glicko-2 system" (2012): a player rated 1500, RD 200, volatility
# 0.06 plays three opponents in one period, tau = 0.5.
PLAYER = Glicko(1500, 200, 0.06)
OPPONENTS = [Glicko(1400, 30), Glicko(1550, 100), Glicko(1700, 300)]
SCORES = [1, 0, 0]


class TestGlickmanExample:
    def test_intermediate_quantities(self) -> None:
        # step 3's table: g(phi_j) = 0.9955, 0.9531, 0.7242; E = 0.639, 0.432, 0.303.
        mu = 0.0
        gs = [round(g(o.rd / SCALE), 4) for o in OPPONENTS]
        es = [round(expected(mu, (o.rating - 1500) / SCALE, o.rd / SCALE), 3) for o in OPPONENTS]
        assert gs == [0.9955, 0.9531, 0.7242]
        assert es == [0.639, 0.432, 0.303]

    def test_published_result(self) -> None:
        p = glicko2_update(PLAYER, list(zip(OPPONENTS, SCORES, strict=True)), tau=0.5)
        # mu' = -0.2069, phi' = 0.8722, sigma' = 0.05999 (step 5's result, published truncated)
        assert round((p.rating - 1500) / SCALE, 4) == -0.2069
        assert round(p.rd / SCALE, 4) == 0.8722
        assert abs(p.volatility - 0.05999) < 1e-5
        # r' = 1464.06, RD' = 151.52 (the paper converts its rounded mu', phi')
        assert abs(p.rating - 1464.06) < 0.01
        assert round(p.rd, 2) == 151.52

    def test_no_game_widens_only(self) -> None:
        # step 6 alone: phi' = sqrt(phi^2 + sigma^2)
        p = glicko2_update(PLAYER, [])
        assert p.rating == 1500 and p.volatility == 0.06
        assert p.rd == pytest.approx(SCALE * math.sqrt((200 / SCALE) ** 2 + 0.06 ** 2))


class TestGlicko:
    def test_a_new_player_settles(self) -> None:
        # alternating wins and losses against an equal, settled opponent: the rating stays near
        # 1500 and the RD falls from 350 towards its floor (near 60 with one game a period).
        opp = Glicko(1500, 60)
        hist = rate_games([(opp, i % 2) for i in range(200)])
        rds = [h.rd for h in hist]
        assert rds[0] < 350 and all(b <= a + 1e-9 for a, b in zip(rds, rds[1:], strict=False))
        assert 50 < rds[-1] < 75
        assert abs(hist[-1].rating - 1500) < 40

    def test_uncertain_moves_more(self) -> None:
        new = glicko2_update(NEW_PLAYER, [(Glicko(1500, 60), 1)])
        settled = glicko2_update(Glicko(1500, 60), [(Glicko(1500, 60), 1)])
        assert new.rating - 1500 > 3 * (settled.rating - 1500) > 0

    def test_an_uncertain_opponent_counts_less(self) -> None:
        a = glicko2_update(Glicko(1500, 100), [(Glicko(1500, 60), 1)])
        b = glicko2_update(Glicko(1500, 100), [(Glicko(1500, 300), 1)])
        assert a.rating > b.rating > 1500

    def test_both_move(self) -> None:
        # two equal people: the winner gains what the loser loses
        x, y = Glicko(1600, 120), Glicko(1600, 120)
        x2 = glicko2_update(x, [(y, 1)])
        y2 = glicko2_update(y, [(x, 0)])
        assert x2.rating - 1600 == pytest.approx(1600 - y2.rating)
        assert x2.rd == pytest.approx(y2.rd) and x2.rd < 120

    def test_bad_input(self) -> None:
        with pytest.raises(ValueError):
            glicko2_update(PLAYER, [(OPPONENTS[0], 2)])
        with pytest.raises(ValueError):
            glicko2_update(Glicko(1500, 0), [(OPPONENTS[0], 1)])

    def test_interval(self) -> None:
        lo, hi = Glicko(1500, 100).interval
        assert (round(lo), round(hi)) == (1304, 1696)


Q = math.log(10) / 400


class TestFit:
    def test_two_players_closed_form(self) -> None:
        # one pair: p = (wins + 1/2) / (games + 1) (the virtual draw), D = 400 log10(p / (1-p)),
        # SE = 1 / (q sqrt(n p (1 - p))) with n = games + 1, q = ln 10 / 400.
        fit = {f.name: f for f in fit_round_robin({("simple", "x"): (130, 270)})}
        p = 270.5 / 401
        assert fit["simple"].rating == ANCHOR_RATING and fit["simple"].se == 0
        assert fit["x"].rating == pytest.approx(1500 + 400 * math.log10(p / (1 - p)), abs=1e-6)
        assert fit["x"].se == pytest.approx(1 / (Q * math.sqrt(401 * p * (1 - p))), rel=1e-6)

    def test_recovers_known_strengths(self) -> None:
        # counts exactly as expected from known ratings (fractional counts, no prior): the
        # maximum-likelihood fit is those ratings.
        true = {"simple": 1500.0, "a": 1180.0, "b": 1430.0, "c": 1760.0, "d": 1905.0}
        names = list(true)
        res = {}
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                p = elo_expected(true[a], true[b])
                res[a, b] = (400 * p, 400 * (1 - p))
        fit = fit_round_robin(res, prior_draws=0)
        assert [f.name for f in fit] == ["d", "c", "simple", "b", "a"]
        for f in fit:
            assert f.rating == pytest.approx(true[f.name], abs=1e-6)

    def test_standard_errors_are_the_inverse_information(self) -> None:
        # the observed information by finite differences of the log-likelihood, inverted by
        # hand for two free players (a 2 x 2 matrix).
        res = {("simple", "a"): (250, 150), ("simple", "b"): (120, 280), ("a", "b"): (90, 310)}
        fit = {f.name: f for f in fit_round_robin(res, prior_draws=0)}

        def loglik(ra: float, rb: float) -> float:
            r = {"simple": 1500.0, "a": ra, "b": rb}
            return sum(w1 * math.log(elo_expected(r[x], r[y]))
                       + w2 * math.log(elo_expected(r[y], r[x])) for (x, y), (w1, w2) in
                       res.items())

        ra, rb, h = fit["a"].rating, fit["b"].rating, 0.5
        faa = -(loglik(ra + h, rb) - 2 * loglik(ra, rb) + loglik(ra - h, rb)) / h ** 2
        fbb = -(loglik(ra, rb + h) - 2 * loglik(ra, rb) + loglik(ra, rb - h)) / h ** 2
        fab = -(loglik(ra + h, rb + h) - loglik(ra + h, rb - h) - loglik(ra - h, rb + h)
                + loglik(ra - h, rb - h)) / (4 * h * h)
        det = faa * fbb - fab * fab
        assert fit["a"].se == pytest.approx(math.sqrt(fbb / det), rel=1e-4)
        assert fit["b"].se == pytest.approx(math.sqrt(faa / det), rel=1e-4)
        # and the fit is the maximum: the gradient vanishes
        assert abs(loglik(ra + 1e-3, rb) - loglik(ra - 1e-3, rb)) < 1e-6

    def test_a_player_without_a_win_stays_finite(self) -> None:
        fit = {f.name: f for f in fit_round_robin({("simple", "random"): (400, 0),
                                                    ("easy", "random"): (400, 0),
                                                    ("easy", "simple"): (100, 300)})}
        assert 0 < 1500 - fit["random"].rating < 2000
        assert math.isfinite(fit["random"].se)

    def test_both_orders_add_up(self) -> None:
        one = fit_round_robin({("simple", "x"): (100, 300)})
        two = fit_round_robin({("simple", "x"): (60, 180), ("x", "simple"): (120, 40)})
        assert [f.rating for f in one] == pytest.approx([f.rating for f in two])

    def test_errors(self) -> None:
        with pytest.raises(ValueError, match="anchor"):
            fit_round_robin({("a", "b"): (1, 1)})
        with pytest.raises(ValueError, match="connected"):
            fit_round_robin({("simple", "a"): (5, 5), ("b", "c"): (5, 5)})
        with pytest.raises(ValueError):
            fit_round_robin({("simple", "a"): (-1, 5)})


def test_nearest_level() -> None:
    levels = {"easy": 1100.0, "medium": 1300.0, "hard": 1500.0}
    assert nearest_level(1390, levels) == "medium"
    assert nearest_level(1410, levels) == "hard"
    assert nearest_level(1400, levels) == "medium"  # a tie: the weaker
    assert nearest_level(2400, levels) == "hard"
    with pytest.raises(ValueError):
        nearest_level(1500, {})
