"""What a deal's result is worth in each form of the game (RULES.md H, 3P, 4P): the chance that
the player to act wins the game (Hollywood: the match), as a function of the deal's signed
points for it, read from the table's public state (its :class:`~ginrummy.game.Game`: the score
sheet, the seating and, in partnership, the other table's deal as a
:class:`~ginrummy.views.PublicView`).

- Three players (3P): the player's race against both others, where the loser of a deal sits the
  next one out and the winner plays the one who sat out
  (:func:`~ginrummy.bots.value.three_player_tables`).
- Partnership (4P): the team's race, a hand scoring the net of the two tables' results: the
  other table's result when it is over (its outcome is public), else its chance of each result
  (:func:`~ginrummy.bots.value.signed_deal_model`), both through
  :func:`~ginrummy.bots.value.partnership_table`.
- Hollywood (H): the deal's result is entered on a copy of the sheet (the three games, exactly
  as :class:`~ginrummy.sheets.HollywoodSheet` does), then the match is valued by playing its
  rest over a fixed set of futures (:func:`~ginrummy.bots.match_sim.match_chance`: shutouts,
  entries not opened yet and the games moving together included).

The standard game has no value here: the ``expert`` reads its own two-player table from the
context's ``hand_points`` and ``target``. Every value is memoised per signed point value and
per table state (a deal's decisions share one).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

import numpy as np

from ..game import Game
from ..rules import Rules
from ..sheets import HollywoodGame, HollywoodSheet, PartnershipSheet, ThreePlayerSheet
from ..views import public_view_of
from .match_sim import futures, match_chance
from .value import (
    partnership_table,
    signed_deal_model,
    three_player_tables,
    win_table,
)

__all__ = ["DealValue", "deal_value", "three_player_value", "partnership_value",
           "hollywood_value", "prepare"]


#: the signed points a :class:`DealValue` tells apart (beyond: the nearest end; a deal scores
#: at most about 250, an Oklahoma spade gin doubled).
SPAN = 400


class DealValue:
    """The chance of winning for each signed point value of a deal (``+k``: the deciding
    player scores ``k``; ``-k``: its opponent does; 0: nobody), memoised per value in a
    vector over ``-SPAN..SPAN`` (so that a decision's thousands of outcomes are read at once).

    :param chance: ``chance(points) -> float`` in [0, 1].
    """

    __slots__ = ("_chance", "_vec")

    def __init__(self, chance: Callable[[int], float]) -> None:
        self._chance = chance
        self._vec = np.full(2 * SPAN + 1, np.nan)

    def __call__(self, out: np.ndarray) -> np.ndarray:
        """The chance for each entry of ``out`` (an int array of signed points, any shape)."""
        idx = np.clip(out, -SPAN, SPAN) + SPAN
        vals = self._vec[idx]
        missing = np.isnan(vals)
        if missing.any():
            for i in np.unique(idx[missing]).tolist():
                self._vec[i] = float(self._chance(i - SPAN))
            vals = self._vec[idx]
        return np.asarray(vals, dtype=np.float64)

    def chance(self, points: int) -> float:
        """The chance for one signed point value."""
        return float(self(np.array([points]))[0])


# ------------------------------------------------------------------------------ three players
@lru_cache(maxsize=256)
def three_player_value(rules: Rules, me: int, opp: int, sitter: int) -> DealValue:
    """The value of a three-player deal (3P) for a player with ``me`` points playing one with
    ``opp`` while the third (``sitter`` points) sits out; points toward the target (R-10.1).
    Without numba: the two-player race of the deal's pair."""
    t = rules.target
    x, y, z = (min(p, t - 1) for p in (me, opp, sitter))
    tables = three_player_tables(rules)
    if tables is None:  # pragma: no cover - numba is a dependency of the expert
        w = win_table(rules)
        pad = w.shape[0] - 1
        return DealValue(lambda k: w[min(x + max(k, 0), pad), min(y + max(-k, 0), pad)])
    a, b = tables

    def chance(k: int) -> float:
        if k > 0:  # I win: the opponent sits out next, I play the one who sat out
            return 1.0 if x + k >= t else float(a[x + k, z, y])
        if k < 0:  # the opponent wins: I sit out next
            return 0.0 if y - k >= t else float(b[x, y - k, z])
        return float(a[x, y, z])  # a dead hand: the same dealer and pair

    return DealValue(chance)


# -------------------------------------------------------------------------------- partnership
#: the signed points a partnership value covers (beyond: the nearest end, a sure result).
_NET = 320


@lru_cache(maxsize=256)
def partnership_value(rules: Rules, mine: int, theirs: int, other: int | None) -> DealValue:
    """The value of a partnership deal (4P) for a player whose team has ``mine`` points
    against ``theirs``; ``other`` is the other table's result for the team (signed points, 0
    for a dead hand) when it is over, ``None`` while it is in play (then each of its results
    weighs by its chance, :func:`~ginrummy.bots.value.signed_deal_model`)."""
    table = partnership_table(rules)
    t = rules.target
    pad = table.shape[0] - 1
    a, b = min(mine, t - 1), min(theirs, t - 1)
    y = signed_deal_model(rules) if other is None else np.array([1.0])
    m = len(y) // 2
    span = _NET + m + abs(other or 0)
    n = np.arange(-span, span + 1)
    w = np.where(n > 0, table[np.minimum(a + np.maximum(n, 0), pad), b],
                 table[a, np.minimum(b + np.maximum(-n, 0), pad)])
    # v[k] = sum_s y[s] w[k + s + other]: the team's chance after this table's k
    shift = other or 0
    v = np.correlate(w, y, mode="valid")  # index i <-> k + shift = i - (span - m)
    lo = -(span - m) - shift

    def chance(k: int) -> float:
        i = min(max(k, -_NET), _NET) - lo
        return float(v[i])

    return DealValue(chance)


# ---------------------------------------------------------------------------------- Hollywood
#: one Hollywood game's state: (hand points, entries, boxes, hand it closed at, winner).
GameState = tuple[tuple[int, int], tuple[bool, bool], tuple[int, int], int | None, int | None]


@lru_cache(maxsize=256)
def hollywood_value(rules: Rules, games: tuple[GameState, ...], me: int) -> DealValue:
    """The value of a Hollywood deal (H) for seat ``me`` with the three games at ``games``."""

    def chance(k: int) -> float:
        sheet = HollywoodSheet(rules, [HollywoodGame(list(hp), list(e), list(bx), [], c, wn)
                                       for hp, e, bx, c, wn in games])
        if k:
            sheet.add_result(me if k > 0 else 1 - me, abs(k))
        return match_chance(sheet, me)

    return DealValue(chance)


def _game_state(g: HollywoodGame) -> GameState:
    return ((g.hand_points[0], g.hand_points[1]), (g.entries[0], g.entries[1]),
            (g.boxes[0], g.boxes[1]), g.closed_at, g.winner)


# ------------------------------------------------------------------------------------ the game
def deal_value(game: Game, index: int) -> DealValue | None:
    """The value of deal ``index`` of ``game`` for the player to act in it, in the game's form
    (see the module docstring); ``None`` for the standard game (the two-player table) or when
    nobody is to act.

    :raises IndexError: no deal ``index``.
    """
    h = game.deals[index]
    if h.is_over:
        return None
    sheet = game.sheet
    seating = game.seatings[index]
    me = seating.players[h.current]
    opp = seating.players[1 - h.current]
    rules = game.rules
    if isinstance(sheet, ThreePlayerSheet):
        (sitter,) = game.sitting_out(index)
        return three_player_value(rules, sheet.progress(me), sheet.progress(opp),
                                  sheet.progress(sitter))
    if isinstance(sheet, PartnershipSheet):
        other = None
        for j, s in enumerate(game.seatings):
            if j != index and s.hand == seating.hand:
                o = public_view_of(game.deals[j]).outcome
                if o is not None:
                    won = None if o.winner is None else s.players[o.winner]
                    other = 0 if won is None else (o.points if won % 2 == me % 2 else -o.points)
        return partnership_value(rules, sheet.progress(me), sheet.progress(opp), other)
    if isinstance(sheet, HollywoodSheet):
        return hollywood_value(rules, tuple(_game_state(g) for g in sheet.games), me)
    return None


def prepare(rules: Rules, scoring: str) -> None:
    """Build the tables that :func:`deal_value` reads for ``scoring`` under ``rules`` now (the
    three-player race takes 0.7 s of CPU for a target of 100), e.g. before a tournament's
    worker processes are forked or a server listens. Nothing to do for the standard game."""
    if scoring == "three_player":
        three_player_tables(rules)
    elif scoring == "partnership":
        partnership_table(rules)
    elif scoring == "hollywood":  # the futures, and the compiled play-out loaded or compiled
        futures(rules.gin_bonus, rules.undercut_bonus)
        match_chance(HollywoodSheet(rules), 0)
