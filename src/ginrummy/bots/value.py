"""The chance of winning the game from a score, for valuing a deal's outcome (``expert``), in
every form (RULES.md 8, H, 3P, 4P).

:func:`win_table` solves a small dynamic programme: deals are won by either side with equal chance,
and a won deal is worth points drawn from a model of deal results under the table's rules (knocks
worth a few points, gins worth the gin bonus plus the loser's deadwood, undercuts worth the
undercut bonus plus a little). ``table[a, b]`` is the chance that the player with ``a`` hand points
beats the one with ``b`` (both below the target); rows and columns past the target are padded
(1 = won, 0 = lost) so that ``table[min(a + x, pad), b]`` can be read directly.

The other forms' tables rest on the same model of a deal: :func:`partnership_table` is the race
of two teams whose hand scores the net of two tables' results (4P); :func:`three_player_tables`
the race of three players where the loser of a deal sits the next one out (3P); and
:func:`duration_table` the expected number of deals a game still lasts (for Hollywood's three
games, :mod:`ginrummy.bots.stakes`).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ..rules import Rules
from .kernel import HAVE_NUMBA, njit

#: whether :func:`three_player_tables` is compiled (numba); without it the 3P value falls back
#: to the two-player table.
HAVE_COMPILED_3P = HAVE_NUMBA

__all__ = ["win_table", "deal_points_model", "signed_deal_model", "partnership_table",
           "three_player_tables", "duration_table", "P_DEAD", "HAVE_COMPILED_3P",
           "win_chance_after", "deal_share"]

_MAX_POINTS = 160
#: the chance that a deal ends without a score (a dead hand, or a tie where it scores nothing):
#: 10 of the 3,595 deals (0.3%) of the first games of the runs of ``expert`` against ``simple``
#: in Hollywood, three players and partnership of 2026-12-06 (benchmarks/forms.py).
P_DEAD = 0.003


def deal_points_model(gin_bonus: int, undercut_bonus: int) -> np.ndarray:
    """Probability of each point value 0.._MAX_POINTS-1 for the winner of a scored deal."""
    x = np.arange(_MAX_POINTS, dtype=float)
    knock = np.where(x >= 1, np.exp(-x / 14.0), 0.0)
    knock /= knock.sum()
    d = x - gin_bonus
    gin = np.where(d >= 0, np.exp(-0.5 * ((d - 32.0) / 14.0) ** 2), 0.0)
    gin = gin / gin.sum() if gin.sum() else knock
    u = x - undercut_bonus
    under = np.where(u >= 0, np.exp(-u / 5.0), 0.0)
    under = under / under.sum() if under.sum() else knock
    dist = 0.76 * knock + 0.12 * gin + 0.12 * under
    dist[0] = 0.0
    return np.asarray(dist / dist.sum())


@lru_cache(maxsize=64)
def _table(target: int, gin_bonus: int, undercut_bonus: int, share: float = 0.5
           ) -> np.ndarray:
    return _solve(target, deal_points_model(gin_bonus, undercut_bonus), share)


def _solve(target: int, dist: np.ndarray, share: float = 0.5) -> np.ndarray:
    """The race table for ``dist`` (chance of each point value of a scored hand, index =
    points): each hand is won by the row's player with chance ``share`` and by the column's
    with ``1 - share`` (0.5: the module docstring's even race)."""
    xs = np.nonzero(dist)[0]
    ps = dist[xs]
    pad = target + len(dist)
    v = np.zeros((pad + 1, pad + 1))
    v[target:, :target] = 1.0
    lose = 1.0 - share
    for a in range(target - 1, -1, -1):
        across = share * (ps @ v[a + xs, :])  # A wins the deal: rows above a are solved already
        row = v[a]
        for b in range(target - 1, -1, -1):
            row[b] = across[b] + lose * float(ps @ row[b + xs])
    v.setflags(write=False)
    return v


def win_table(rules: Rules, target: int | None = None, share: float = 0.5) -> np.ndarray:
    """The game-win table for ``rules`` (see the module docstring); cached.

    ``share`` (0 < share < 1, rounded to 0.001) is the chance that the row's player wins each
    later scored deal: 0.5 for players of equal strength (what ``expert`` assumes), another
    value from the players' ratings (:func:`deal_share`).

    :raises ValueError: ``share`` not strictly between 0 and 1.
    """
    if not 0.0 < share < 1.0:
        raise ValueError(f"share must be strictly between 0 and 1, not {share!r}")
    return _table(target if target is not None else rules.target, rules.gin_bonus,
                  rules.undercut_bonus, round(float(share), 3))


#: the rules the computer players' ratings were fitted under (``bots/ratings.json``: standard
#: rules, 100-point games), for :func:`deal_share`
_RATED = (100, 25, 25)


@lru_cache(maxsize=256)
def _share_of_gap(gap: float) -> float:
    want = 1.0 / (1.0 + 10.0 ** (-gap / 400.0))
    lo, hi = 0.001, 0.999
    for _ in range(11):  # the table's first cell rises with the share: bisect it
        mid = round((lo + hi) / 2, 4)
        target, gin_bonus, undercut_bonus = _RATED
        if float(_solve(target, deal_points_model(gin_bonus, undercut_bonus), mid)[0, 0]) < want:
            lo = mid
        else:
            hi = mid
    return round((lo + hi) / 2, 3)


def deal_share(gap: float) -> float:
    """The chance (0..1, rounded to 0.001) that a player rated ``gap`` Elo points above its
    opponent (the 400-point logistic scale of ``bots/ratings.json``, one result per
    100-point game) wins a scored deal, for :func:`win_table`'s ``share``: the share of deals
    whose race to 100 under standard rules (R-10.1, the rules the ratings were fitted under)
    gives the game the expected score of that gap, ``1 / (1 + 10 ** (-gap / 400))``. Odd in
    the gap: ``deal_share(-g) == 1 - deal_share(g)`` to the rounding; a gap of 0 gives 0.5.

    >>> deal_share(0.0)
    0.5
    >>> 0.5 < deal_share(100.0) < 1 / (1 + 10 ** (-100 / 400))
    True
    """
    g = round(float(gap))
    if g == 0:
        return 0.5
    if g < 0:
        return round(1.0 - _share_of_gap(float(-g)), 3)
    return _share_of_gap(float(g))


def win_chance_after(table: np.ndarray, target: int, mine: int, theirs: int,
                     points: np.ndarray) -> np.ndarray:
    """The chance (0..1, float64, the shape of ``points``) of winning the game after a deal
    worth ``points`` (signed hand points: + the player with ``mine`` hand points scores them,
    - the one with ``theirs`` does, 0 a dead hand or a tie), read from ``table``
    (:func:`win_table` for ``target``); scores at or past the target count as just below it
    (R-10.1: the game would be over already).

    >>> t = win_table(Rules.preset("standard"))
    >>> [round(float(x), 2) for x in win_chance_after(t, 100, 90, 0, np.array([-5, 10]))]
    [0.91, 1.0]
    """
    mine = min(mine, target - 1)
    theirs = min(theirs, target - 1)
    pad = table.shape[0] - 1
    gain = np.clip(points, 0, None)
    loss = np.clip(-points, 0, None)
    a = np.minimum(mine + gain, pad)
    b = np.minimum(theirs + loss, pad)
    return np.asarray(table[a, b], dtype=np.float64)


def signed_deal_model(rules: Rules) -> np.ndarray:
    """The chance of each signed result of one deal for one player: index ``k + M`` (``M`` =
    159) is the chance of scoring ``k`` points (``-k``: the opponent scores ``k``; 0: no
    score, :data:`P_DEAD`); wins and losses equally likely. Shape (2M + 1,)."""
    return _signed(rules.gin_bonus, rules.undercut_bonus)


@lru_cache(maxsize=16)
def _signed(gin_bonus: int, undercut_bonus: int) -> np.ndarray:
    d = deal_points_model(gin_bonus, undercut_bonus)
    m = len(d) - 1
    y = np.zeros(2 * m + 1)
    y[m + 1:] = 0.5 * (1.0 - P_DEAD) * d[1:]
    y[:m] = y[m + 1:][::-1]
    y[m] = P_DEAD
    y.setflags(write=False)
    return y


@lru_cache(maxsize=16)
def _net_model(gin_bonus: int, undercut_bonus: int) -> np.ndarray:
    """The chance of each point value of a partnership hand's net score for the team that nets
    it (index = points; two independent tables, 4P)."""
    y = _signed(gin_bonus, undercut_bonus)
    net = np.convolve(y, y)
    c = len(net) // 2
    pos = net[c:].copy()
    pos[0] = 0.0
    return np.asarray(pos / pos.sum())


def partnership_table(rules: Rules) -> np.ndarray:
    """The team race of a partnership game (4P): ``table[a, b]`` is the chance that the team
    with ``a`` points beats the team with ``b`` when each hand scores the net of two tables
    (:func:`signed_deal_model` each); padded like :func:`win_table` (shape (pad + 1, pad + 1),
    pad = target + 319). Cached."""
    return _partnership(rules.target, rules.gin_bonus, rules.undercut_bonus)


@lru_cache(maxsize=8)
def _partnership(target: int, gin_bonus: int, undercut_bonus: int) -> np.ndarray:
    return _solve(target, _net_model(gin_bonus, undercut_bonus))


def duration_table(rules: Rules, target: int | None = None) -> np.ndarray:
    """``table[a, b]``: the expected number of scored deals before a two-player game at
    ``a`` to ``b`` points (both below the target) ends, under :func:`win_table`'s model;
    shape (target, target). Cached."""
    return _duration(target if target is not None else rules.target, rules.gin_bonus,
                     rules.undercut_bonus)


@lru_cache(maxsize=8)
def _duration(target: int, gin_bonus: int, undercut_bonus: int) -> np.ndarray:
    dist = deal_points_model(gin_bonus, undercut_bonus)
    xs = np.nonzero(dist)[0]
    ps = dist[xs]
    pad = target + len(dist)
    n = np.zeros((pad + 1, pad + 1))
    for a in range(target - 1, -1, -1):
        across = 0.5 * (ps @ n[a + xs, :])
        row = n[a]
        for b in range(target - 1, -1, -1):
            row[b] = 1.0 + across[b] + 0.5 * float(ps @ row[b + xs])
    out = n[:target, :target].copy()
    out.setflags(write=False)
    return out


# ------------------------------------------------------------------------------- three players
@njit(cache=True, nogil=True)
def _three_player_dp(target: int, xs: np.ndarray, ps: np.ndarray,
                     suffix: np.ndarray) -> tuple[np.ndarray, np.ndarray]:  # pragma: no cover
    """``A[x, y, z]``: the chance that player M (``x`` points) wins when M plays O1 (``y``)
    and O2 (``z``) sits out; ``B[x, y, z]``: the same when M sits out while O1 and O2 play.
    ``xs`` ascending point values of a scored deal, ``ps`` their chances, ``suffix[i]`` =
    ``ps[i:].sum()``. After a scored deal the loser sits out and the winner plays the one who
    sat out (3P); dead deals repeat the state and are left out. Solved for ``x`` from the
    target down, and within ``x`` by ``y + z`` from the top down; every inner loop reads
    contiguous memory (``at[x, z, y] = A[x, y, z]``, ``ax[y, z, x] = A[x, y, z]``,
    ``bt[x, z, y] = B[x, y, z]``)."""
    t = target
    n = xs.shape[0]
    at = np.zeros((t, t, t))
    ax = np.zeros((t, t, t))
    bt = np.zeros((t, t, t))
    for x in range(t - 1, -1, -1):
        for s in range(2 * t - 2, -1, -1):
            lo = max(0, s - t + 1)
            hi = min(t - 1, s)
            for y in range(lo, hi + 1):
                z = s - y
                b1 = 0.0
                for i in range(n):
                    if y + xs[i] >= t:
                        break
                    b1 += ps[i] * at[x, z, y + xs[i]]  # O1 wins: O2 sits, M plays O1
                b2 = 0.0
                for i in range(n):
                    if z + xs[i] >= t:
                        break
                    b2 += ps[i] * at[x, y, z + xs[i]]  # O2 wins: O1 sits, M plays O2
                bt[x, z, y] = 0.5 * (b1 + b2)
                a1 = 0.0
                for i in range(n):
                    if x + xs[i] >= t:
                        a1 += suffix[i]  # M reaches the target
                        break
                    a1 += ps[i] * ax[z, y, x + xs[i]]  # M wins: O1 sits, M plays O2
                a2 = 0.0
                for i in range(n):
                    if y + xs[i] >= t:
                        break
                    a2 += ps[i] * bt[x, z, y + xs[i]]  # O1 wins: M sits
                v = 0.5 * (a1 + a2)
                at[x, z, y] = v
                ax[y, z, x] = v
    a_ = np.ascontiguousarray(at.transpose(0, 2, 1))
    b_ = np.ascontiguousarray(bt.transpose(0, 2, 1))
    return a_, b_


def three_player_tables(rules: Rules) -> tuple[np.ndarray, np.ndarray] | None:
    """The three-player race (3P) for ``rules``: ``(A, B)``, each of shape (target, target,
    target), indexed by the points of player M, of the player M plays (A) or of the first of
    the two who play (B), and of the third. ``A[x, y, z]``: the chance that M wins the game
    when M plays the second and the third sits out; ``B[x, y, z]``: when M sits out. ``None``
    without numba (the plain-Python programme takes minutes). Cached (about 0.2 s for a target
    of 100 on one core, 0.6 s for 150)."""
    if not HAVE_COMPILED_3P:
        return None
    return _three_player(rules.target, rules.gin_bonus, rules.undercut_bonus)


@lru_cache(maxsize=4)
def _three_player(target: int, gin_bonus: int, undercut_bonus: int
                  ) -> tuple[np.ndarray, np.ndarray]:
    dist = deal_points_model(gin_bonus, undercut_bonus)
    xs = np.nonzero(dist)[0].astype(np.int64)
    ps = dist[xs].astype(np.float64)
    suffix = np.ascontiguousarray(np.cumsum(ps[::-1])[::-1])
    a_, b_ = _three_player_dp(target, xs, ps, suffix)
    a_.setflags(write=False)
    b_.setflags(write=False)
    return a_, b_


def race_table(target: int, dist: np.ndarray) -> np.ndarray:
    """The two-player race to ``target`` of :func:`win_table` for another model of a scored
    deal's points: ``dist`` the chance of each point value (index = points, 0 with no chance);
    the same shape and padding as :func:`win_table` for a ``dist`` of its length."""
    return _solve(target, np.asarray(dist, dtype=float))
