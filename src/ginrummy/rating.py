"""Ratings: the computer players' strengths from a round robin, and a person's Glicko-2 rating.

Pure (no I/O, no web, standard library ``math`` only). Two jobs on one scale, the Elo scale: a
difference of ``D`` points means the stronger side wins ``1 / (1 + 10 ** (-D / 400))`` of its
games (400 points: 10 to 1). One result is one *game* to the target (100 points under the
standard rules): won (1) or lost (0), never a hand's points.

**The levels** (:func:`fit_round_robin`) are fixed strengths fitted by maximum likelihood to the
games of a round robin (the Bradley-Terry model on the Elo scale), with 95% intervals from the
Fisher information (the inverse of the observed information at the fit, the anchor's row and
column removed; games counted as independent: the round robin's seat-swapped pairs of identical
deals make the two games of a pair, if anything, less alike than two independent games, so the
interval errs wide). The scale is anchored at one player held at a given rating: by our choice
``simple`` at 1500 (:data:`ANCHOR`), the EAAI challenge's reference player, a fixed policy that
never changes when our levels do, so a re-fit after a change to a level moves only that level's
figure (anchoring the mean would move every figure; anchoring ``random`` would tie the scale to
its rare, noisy wins). Each interval is relative to the anchor (the anchor's own is 0). Each pair
of players also gets one virtual drawn game (half a win to each, as BayesElo's prior): a player
that never won a game keeps a finite rating, and at 400 games a pair the shift is small.

**A person** (:func:`glicko2_update`) is rated by Glicko-2 (Mark Glickman, "Example of the
Glicko-2 system", 2012), one game per rating period, from 1500 with a rating deviation (RD) of
350 (:data:`NEW_PLAYER`). Why Glicko-2 and not Elo for a luck-heavy game: between players a few
hundred points apart one game is close to a coin toss (the deal decides much of it), so a single
result says little and a strength is only known after many games. Glicko-2 keeps that knowledge
as the RD: a new person's rating moves fast while the RD is wide and slowly once it has narrowed,
the interval shown (rating +- 2 RD) tells the truth about how little a few games prove, and a
result against an opponent whose own rating is uncertain (a person new to the tables) counts for
less (the ``g(phi)`` factor). Elo's fixed step is either too slow for a newcomer or too jumpy for
a settled player, and says nothing about its own certainty. The volatility lets the rating follow
a person who improves; its constraint ``tau`` (:data:`TAU`) is 0.3, the low end of Glickman's
range (0.3 to 1.2), because in a luck-heavy game long runs of wins or losses happen to a player
of constant strength and should not be read as a change of strength. One period per game (as
lichess.org rates) keeps the rating current after every game; with no calendar decay, the RD of a
person who plays on settles near 60 points.

>>> p = glicko2_update(Glicko(1500, 200, 0.06),
...                    [(Glicko(1400, 30), 1), (Glicko(1550, 100), 0), (Glicko(1700, 300), 0)],
...                    tau=0.5)
>>> round((p.rating - 1500) / SCALE, 4), round(p.rd / SCALE, 4), round(p.volatility, 6)
(-0.2069, 0.8722, 0.059996)

(The paper's mu' and phi'; its r' = 1464.06 and RD' = 151.52 are 173.7178 times those rounded
values: unrounded, 1464.05 and 151.52.)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

__all__ = ["Glicko", "NEW_PLAYER", "TAU", "SCALE", "ANCHOR", "ANCHOR_RATING", "glicko2_update",
           "rate_games", "elo_expected", "FittedRating", "fit_round_robin", "nearest_level"]

#: Glicko-2's conversion between the Glicko scale and its internal one (Glickman, step 2).
SCALE = 173.7178
#: the system constant: how much the volatility may change (see the module docstring).
TAU = 0.3
#: convergence tolerance of the volatility iteration (Glickman, step 5).
EPSILON = 1e-6
#: the round robin's anchor and its rating (see the module docstring).
ANCHOR = "simple"
ANCHOR_RATING = 1500.0
#: 1.96: the 95% two-sided normal quantile.
Z95 = 1.959964


@dataclass(frozen=True)
class Glicko:
    """A Glicko-2 rating: ``rating`` and ``rd`` (rating deviation) in Elo-scale points,
    ``volatility`` (Glicko-2's sigma, on its internal scale; 0.06 for a new player)."""

    rating: float
    rd: float
    volatility: float = 0.06

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% interval, ``rating -+ 1.96 rd`` (points)."""
        return self.rating - Z95 * self.rd, self.rating + Z95 * self.rd


#: a person before any rated game (Glickman's recommended start).
NEW_PLAYER = Glicko(1500.0, 350.0, 0.06)


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _new_volatility(sigma: float, phi: float, v: float, delta: float, tau: float,
                    epsilon: float) -> float:
    """Glickman's step 5: the root of f by the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        d = phi * phi + v + ex
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau)

    lo = a
    if delta * delta > phi * phi + v:
        hi = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        hi = a - k * tau
    f_lo, f_hi = f(lo), f(hi)
    while abs(hi - lo) > epsilon:
        c = lo + (lo - hi) * f_lo / (f_hi - f_lo)
        f_c = f(c)
        if f_c * f_hi <= 0:
            lo, f_lo = hi, f_hi
        else:
            f_lo /= 2.0
        hi, f_hi = c, f_c
    return math.exp(lo / 2.0)


def glicko2_update(player: Glicko, games: Sequence[tuple[Glicko, float]], tau: float = TAU,
                   epsilon: float = EPSILON) -> Glicko:
    """The player's rating after one rating period (Glickman 2012, steps 2-8).

    :param games: (opponent's rating before the period, the player's score: 1 won, 0 lost,
        0.5 drawn), any number; none: only the RD grows (step 6).
    :param tau: the system constant (:data:`TAU` unless testing Glickman's example, 0.5).
    :raises ValueError: a score outside 0..1, the player's RD or volatility not above 0, or an
        opponent's RD below 0 (0: an opponent whose rating is known exactly).
    """
    if player.rd <= 0 or player.volatility <= 0:
        raise ValueError(f"rd and volatility must be > 0: {player}")
    mu = (player.rating - 1500.0) / SCALE
    phi = player.rd / SCALE
    sigma = player.volatility
    if not games:
        return Glicko(player.rating, SCALE * math.sqrt(phi * phi + sigma * sigma), sigma)
    inv_v = 0.0
    total = 0.0
    for opp, score in games:
        if not 0.0 <= score <= 1.0:
            raise ValueError(f"a score is 0, 0.5 or 1, not {score}")
        if opp.rd < 0:
            raise ValueError(f"an opponent's rd must be >= 0: {opp}")
        mu_j = (opp.rating - 1500.0) / SCALE
        phi_j = opp.rd / SCALE
        g = _g(phi_j)
        e = _expected(mu, mu_j, phi_j)
        inv_v += g * g * e * (1.0 - e)
        total += g * (score - e)
    v = 1.0 / inv_v
    delta = v * total
    sigma2 = _new_volatility(sigma, phi, v, delta, tau, epsilon)
    phi_star = math.sqrt(phi * phi + sigma2 * sigma2)
    phi2 = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu2 = mu + phi2 * phi2 * total
    return Glicko(SCALE * mu2 + 1500.0, SCALE * phi2, sigma2)


def rate_games(results: Iterable[tuple[Glicko, float]], start: Glicko = NEW_PLAYER,
               tau: float = TAU) -> list[Glicko]:
    """A person's rating after each game, one game per rating period, in the order given.

    :param results: (the opponent's rating before the game, the person's score 1 or 0).
    :returns: one :class:`Glicko` per game (the last is the current rating).
    """
    out = []
    r = start
    for opp, score in results:
        r = glicko2_update(r, [(opp, score)], tau)
        out.append(r)
    return out


def elo_expected(rating_a: float, rating_b: float) -> float:
    """The share of games A wins against B on the Elo scale (400-point logistic).

    >>> round(elo_expected(1900, 1500), 4)
    0.9091
    """
    return 1.0 / (1.0 + math.pow(10.0, (rating_b - rating_a) / 400.0))


@dataclass(frozen=True)
class FittedRating:
    """A player's fitted rating (Elo-scale points) and its standard error (points, relative to
    the anchor: 0 for the anchor itself)."""

    name: str
    rating: float
    se: float

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% interval (points)."""
        return self.rating - Z95 * self.se, self.rating + Z95 * self.se


_LN10_400 = math.log(10.0) / 400.0


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """x with a x = b (Gauss-Jordan, partial pivoting). :raises ValueError: a singular."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for col in range(n):
        piv = max(range(col, n), key=lambda r: abs(m[r][col]))
        if abs(m[piv][col]) < 1e-300:
            raise ValueError("singular system: is every player connected to the anchor?")
        m[col], m[piv] = m[piv], m[col]
        p = m[col][col]
        m[col] = [x / p for x in m[col]]
        for r in range(n):
            if r != col and m[r][col] != 0.0:
                f = m[r][col]
                m[r] = [x - f * y for x, y in zip(m[r], m[col], strict=True)]
    return [m[i][n] for i in range(n)]


def fit_round_robin(results: Mapping[tuple[str, str], tuple[float, float]],
                    anchor: str = ANCHOR, anchor_rating: float = ANCHOR_RATING,
                    prior_draws: float = 1.0, tol: float = 1e-9) -> list[FittedRating]:
    """Fixed strengths from games between pairs (maximum likelihood, Bradley-Terry on the Elo
    scale), anchored, with standard errors from the Fisher information (module docstring).

    :param results: ``{(a, b): (games a won, games b won)}``; a pair may appear in both orders
        (they add up).
    :param prior_draws: virtual drawn games of every pair played (each is half a win to each).
    :returns: one :class:`FittedRating` per player, strongest first.
    :raises ValueError: the anchor played no game, a negative count, or a player not connected
        to the anchor by games.

    >>> r = fit_round_robin({("simple", "x"): (24, 76)})
    >>> [(f.name, round(f.rating)) for f in r]
    [('x', 1698), ('simple', 1500)]
    """
    wins: dict[tuple[str, str], float] = {}
    names: list[str] = []
    for (a, b), (wa, wb) in results.items():
        if wa < 0 or wb < 0:
            raise ValueError(f"negative count for {a} vs {b}")
        if a == b:
            continue
        for n in (a, b):
            if n not in names:
                names.append(n)
        wins[a, b] = wins.get((a, b), 0.0) + wa
        wins[b, a] = wins.get((b, a), 0.0) + wb
    if anchor not in names:
        raise ValueError(f"the anchor {anchor!r} played no game")
    for a, b in list(wins):
        wins[a, b] += prior_draws / 2.0
    free = [n for n in names if n != anchor]
    idx = {n: i for i, n in enumerate(free)}
    r = {n: anchor_rating for n in names}

    def grad_hess() -> tuple[list[float], list[list[float]]]:
        k = len(free)
        g = [0.0] * k
        h = [[0.0] * k for _ in range(k)]
        for (a, b), w_ab in wins.items():
            n_ab = w_ab + wins[b, a]
            p = elo_expected(r[a], r[b])
            if a in idx:
                g[idx[a]] += _LN10_400 * (w_ab - n_ab * p)
            # each unordered pair is met twice (a, b) and (b, a): half the information each
            info = _LN10_400 * _LN10_400 * n_ab * p * (1.0 - p) / 2.0
            for x, y, sign in ((a, a, 1.0), (b, b, 1.0), (a, b, -1.0), (b, a, -1.0)):
                if x in idx and y in idx:
                    h[idx[x]][idx[y]] += sign * info
        return g, h

    for _ in range(200):
        g, h = grad_hess()
        step = _solve(h, g)
        for n, s in zip(free, step, strict=True):
            r[n] += s
        if max((abs(s) for s in step), default=0.0) < tol:
            break
    _, h = grad_hess()
    se = {anchor: 0.0}
    for n in free:
        e = [0.0] * len(free)
        e[idx[n]] = 1.0
        se[n] = math.sqrt(max(_solve(h, e)[idx[n]], 0.0))
    out = [FittedRating(n, r[n], se[n]) for n in names]
    out.sort(key=lambda f: -f.rating)
    return out


def nearest_level(rating: float, levels: Mapping[str, float]) -> str:
    """The level whose rating is nearest ``rating`` (points); a tie goes to the weaker level.

    :raises ValueError: no levels.

    >>> nearest_level(1620, {"easy": 1200, "medium": 1450, "hard": 1700})
    'hard'
    """
    if not levels:
        raise ValueError("no levels to choose from")
    return min(levels, key=lambda n: (abs(levels[n] - rating), levels[n]))
