"""The chance of winning a Hollywood match (RULES.md H) from any state of its three games, by
playing the rest of the match many times over a fixed set of futures.

A future is a sequence of scored deals: each won by either player with equal chance, for
points drawn from :func:`~ginrummy.bots.value.deal_points_model` (the same model as the
two-player race of :func:`~ginrummy.bots.value.win_table`; a dead hand changes no sheet, so it
is left out). Each future is entered into a copy of the sheet exactly as
:class:`~ginrummy.sheets.HollywoodSheet` enters a hand (the open games in order, the first
game without the winner's entry opening it and taking the last of the points), every game is
settled as :func:`~ginrummy.sheets.settle` settles it (the game bonus, each side's boxes, the
shutout when the loser has no entry) and the match goes to the higher sum of settled totals
(a tie counts half). Unlike a normal approximation of the final margin this keeps what decides
many matches: the shutouts of the second and third games, entries not opened yet, and the games
moving together.

The futures are the same for every state (common random numbers: the difference between two
results of one deal is measured on the same futures) and come in mirrored pairs (each future
and the one with every deal's winner swapped), so a state and its mirror image add up to 1.
Deterministic: the futures are drawn from a fixed seed. Costs about 0.3 ms a state (numba).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ..rules import Rules
from ..sheets import HollywoodSheet
from .kernel import njit
from .value import deal_points_model

__all__ = ["FUTURES", "HANDS", "match_chance", "futures"]

#: futures per state (half of them the mirror images of the other half)
FUTURES = 2048
#: deals per future: a match that has not ended after them is judged on its settled and open
#: totals (at target 100 a match lasts about 12 deals; 64 are almost never all needed)
HANDS = 64
_SEED = 20261206
_SHUTOUT = {"none": 0, "flat": 1, "double_hand_points": 2, "double_total": 3}


@lru_cache(maxsize=8)
def futures(gin_bonus: int, undercut_bonus: int) -> tuple[np.ndarray, np.ndarray]:
    """The futures of the deal model ``(gin_bonus, undercut_bonus)``: winners (``int8`` 0 or
    1, shape ``(FUTURES, HANDS)``, the rows of the second half the first half's swapped) and
    points (``int32``, same shape, the same in both halves); read-only."""
    rng = np.random.default_rng(_SEED)
    dist = deal_points_model(gin_bonus, undercut_bonus)
    half = FUTURES // 2
    w = rng.integers(0, 2, size=(half, HANDS)).astype(np.int8)
    p = rng.choice(len(dist), size=(half, HANDS), p=dist).astype(np.int32)
    wins = np.concatenate([w, 1 - w])
    points = np.concatenate([p, p])
    wins.setflags(write=False)
    points.setflags(write=False)
    return wins, points


@njit(cache=True, nogil=True)
def _play_out(hp0: np.ndarray, entries0: np.ndarray, boxes0: np.ndarray, winner0: np.ndarray,
              wins: np.ndarray, points: np.ndarray, target: int, box_bonus: int,
              toward: bool, game_bonus: int, shutout: int
              ) -> tuple[float, float]:  # pragma: no cover - numba
    """(the share of the futures won, ties half; the mean final margin, totals 0 minus 1)."""
    n, hands = wins.shape
    hp = np.empty((3, 2), np.int64)
    ent = np.empty((3, 2), np.bool_)
    bx = np.empty((3, 2), np.int64)
    gw = np.empty(3, np.int64)
    score = 0.0
    margin = 0.0
    for i in range(n):
        hp[:, :] = hp0
        ent[:, :] = entries0
        bx[:, :] = boxes0
        gw[:] = winner0
        left = 0
        for g in range(3):
            if gw[g] < 0:
                left += 1
        j = 0
        while left > 0 and j < hands:
            w = wins[i, j]
            s = points[i, j]
            j += 1
            for g in range(3):
                if gw[g] >= 0:
                    continue
                opened = not ent[g, w]
                ent[g, w] = True
                hp[g, w] += s
                bx[g, w] += 1
                prog = hp[g, w] + (bx[g, w] * box_bonus if toward else 0)
                if prog >= target:
                    gw[g] = w
                    left -= 1
                if opened:
                    break
        t0 = 0
        t1 = 0
        for g in range(3):
            w = gw[g]
            if w < 0:  # still open after HANDS deals: its points and boxes as they stand
                t0 += hp[g, 0] + bx[g, 0] * box_bonus
                t1 += hp[g, 1] + bx[g, 1] * box_bonus
                continue
            lo = 1 - w
            shut = shutout != 0 and not ent[g, lo]
            bonus = game_bonus
            whp = hp[g, w]
            if shut and shutout == 1:
                bonus *= 2
            if shut and shutout == 2:
                whp *= 2
            wt = whp + bx[g, w] * box_bonus + bonus
            if shut and shutout == 3:
                wt *= 2
            lt = hp[g, lo] + bx[g, lo] * box_bonus
            if w == 0:
                t0 += wt
                t1 += lt
            else:
                t0 += lt
                t1 += wt
        margin += t0 - t1
        if t0 > t1:
            score += 1.0
        elif t0 == t1:
            score += 0.5
    return float(score / n), float(margin / n)


def _arrays(sheet: HollywoodSheet, me: int
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    order = (me, 1 - me)
    hp = np.array([[g.hand_points[s] for s in order] for g in sheet.games], np.int64)
    ent = np.array([[g.entries[s] for s in order] for g in sheet.games], np.bool_)
    bx = np.array([[g.boxes[s] for s in order] for g in sheet.games], np.int64)
    gw = np.array([-1 if g.winner is None else order.index(g.winner) for g in sheet.games],
                  np.int64)
    return hp, ent, bx, gw


def match_chance(sheet: HollywoodSheet, me: int) -> float:
    """The chance that seat ``me`` (0 or 1) wins the match from ``sheet``'s state, in [0, 1]
    (module docstring); a match that is over: 1, 0, or 0.5 for a tie.

    :raises ValueError: ``me`` is not 0 or 1.
    """
    if me not in (0, 1):
        raise ValueError(f"me must be seat 0 or 1, not {me!r}")
    r: Rules = sheet.rules
    wins, points = futures(r.gin_bonus, r.undercut_bonus)
    hp, ent, bx, gw = _arrays(sheet, me)
    won, _margin = _play_out(hp, ent, bx, gw, wins, points, r.target, r.box_bonus,
                             r.boxes_count_toward_target, r.game_bonus, _SHUTOUT[r.shutout])
    return float(won)
