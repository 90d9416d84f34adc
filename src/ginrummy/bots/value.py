"""The chance of winning the game from a score, for valuing a deal's outcome (``expert``).

:func:`win_table` solves a small dynamic programme: deals are won by either side with equal chance,
and a won deal is worth points drawn from a model of deal results under the table's rules (knocks
worth a few points, gins worth the gin bonus plus the loser's deadwood, undercuts worth the
undercut bonus plus a little). ``table[a, b]`` is the chance that the player with ``a`` hand points
beats the one with ``b`` (both below the target); rows and columns past the target are padded
(1 = won, 0 = lost) so that ``table[min(a + x, pad), b]`` can be read directly.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ..rules import Rules

__all__ = ["win_table", "deal_points_model", "win_chance_after"]

_MAX_POINTS = 160


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


@lru_cache(maxsize=16)
def _table(target: int, gin_bonus: int, undercut_bonus: int) -> np.ndarray:
    dist = deal_points_model(gin_bonus, undercut_bonus)
    xs = np.nonzero(dist)[0]
    ps = dist[xs]
    pad = target + _MAX_POINTS
    v = np.zeros((pad + 1, pad + 1))
    v[target:, :target] = 1.0
    for a in range(target - 1, -1, -1):
        across = 0.5 * (ps @ v[a + xs, :])  # A wins the deal: rows above a are solved already
        row = v[a]
        for b in range(target - 1, -1, -1):
            row[b] = across[b] + 0.5 * float(ps @ row[b + xs])
    v.setflags(write=False)
    return v


def win_table(rules: Rules, target: int | None = None) -> np.ndarray:
    """The game-win table for ``rules`` (see the module docstring); cached."""
    return _table(target if target is not None else rules.target, rules.gin_bonus,
                  rules.undercut_bonus)


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
