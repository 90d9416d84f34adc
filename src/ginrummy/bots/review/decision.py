"""One decision graded: the move played against the best move, as the ``expert`` decides on
the values of every move (:mod:`ginrummy.bots.review.position`), with its grade
(:mod:`ginrummy.bots.review.grades`), its notes (:mod:`ginrummy.bots.review.notes`) and the
hints' explanation of both moves."""

from __future__ import annotations

import random

import numpy as np

from ...actions import Action, ActionKind
from ...hand import Phase
from ...melds import best_discard_deadwood, min_deadwood_mask
from ...views import PlayerView
from ..base import Context
from ..expert import ExpertBot, paired_z
from ..heuristic import HardBot
from ..hints import explain
from .grades import accuracy_of, grade_of
from .model import Decision, MoveValue
from .notes import notes_for
from .position import PositionValues

__all__ = ["grade_decision", "decision_kind", "best_row"]


def decision_kind(view: PlayerView) -> str:
    """``offer``, ``draw``, ``knock`` (holding 11 with a knock or gin legal), ``discard`` or
    ``fiftieth`` (see :class:`~ginrummy.bots.review.model.Decision`)."""
    ph = view.phase
    if ph is Phase.OFFER:
        return "offer"
    if ph is Phase.DRAW:
        return "draw"
    if ph is Phase.FIFTIETH:
        return "fiftieth"
    outs = (ActionKind.KNOCK, ActionKind.GIN, ActionKind.BIG_GIN)
    return "knock" if any(a.kind in outs for a in view.legal) else "discard"


def best_row(values: PositionValues, prefer: int | None = None,
             anchor: int | None = None, anchor_z: float = 0.0) -> int:
    """The row of the best move, as the ``expert`` decides (:class:`ExpertBot`, ``anchor_z``):
    the highest mean chance of winning (then the most mean points; an exact tie goes to
    ``prefer``, the move played, then to the earlier row), unless ``anchor`` (the row of
    ``hard``'s move) is within ``anchor_z`` standard errors of it (paired over the worlds):
    then the anchor."""
    win = values.win.mean(axis=1)
    pts = values.points.mean(axis=1)
    order = sorted(range(len(values.moves)),
                   key=lambda i: (-round(float(win[i]), 12), -round(float(pts[i]), 9),
                                  i != prefer, i))
    best = order[0]
    if anchor is not None and anchor != best and anchor_z > 0 \
            and paired_z(values.win, best, anchor) < anchor_z:
        return anchor
    return best


def _hard_row(view: PlayerView, values: PositionValues, seed: int,
              hand_points: tuple[int, int] | None, target: int) -> int | None:
    """The row of ``hard``'s move here (the move the ``expert`` keeps unless its search is
    confident of a better one), or None when it is not among the moves."""
    move = HardBot().choose(view, Context(random.Random(seed), hand_points, target))
    try:
        return values.index(move)
    except ValueError:  # pragma: no cover - hard plays legal moves
        return None


def grade_decision(view: PlayerView, values: PositionValues, played: Action, number: int,
                   index: int, hand_points: tuple[int, int] | None = None,
                   target: int = 100, seed: int = 0) -> Decision:
    """The graded decision of ``view``'s seat, which played ``played``.

    The best move is the ``expert``'s decision on these values (:func:`best_row`): the
    search's best, or ``hard``'s move when the search is not sure of better (its ``anchor_z``).

    :param values: every move of ``view`` valued (:func:`evaluate_position`).
    :param number: the deal's number; ``index`` the action's index in the deal.
    :param hand_points: hand points by seat before the deal, and the game's ``target``: the
        hints' and ``hard``'s knock rule weigh them (None outside a two-player game).
    :param seed: the decision's seed (:func:`decision_seed`), for ``hard``'s random choices.
    :raises ValueError: ``played`` is not a move of ``values``.
    """
    p = values.index(played)
    b = best_row(values, p, _hard_row(view, values, seed, hand_points, target),
                 ExpertBot.anchor_z)
    win = values.win.mean(axis=1)
    pts = values.points.mean(axis=1)
    chance = win if values.chance is None else values.chance
    moves = tuple(MoveValue(values.moves[i], float(win[i]), float(pts[i]), float(chance[i]))
                  for i in sorted(range(len(values.moves)),
                                  key=lambda i: (i != b, -win[i], -pts[i], i)))
    drop = max(0.0, float(win[b] - win[p]))
    z = 0.0 if b == p else paired_z(values.win, b, p)
    grade = grade_of(b == p, drop, z)
    played_mv = MoveValue(played, float(win[p]), float(pts[p]), float(chance[p]))
    best_mv = MoveValue(values.moves[b], float(win[b]), float(pts[b]), float(chance[b]))
    hand = view.hand.mask
    if len(view.hand) == 11:
        taken = 0 if view.taken_card is None else 1 << view.taken_card
        deadwood = best_discard_deadwood(hand, taken)
    else:
        deadwood = min_deadwood_mask(hand)
    played_hint = explain(view, played, hand_points, target)
    best_hint = None if b == p else explain(view, values.moves[b], hand_points, target)
    return Decision(number, index, view.seat, decision_kind(view), played_mv, best_mv, moves,
                    drop, float(pts[b] - pts[p]), float(z) if np.isfinite(z) else 99.0, grade,
                    accuracy_of(drop) if b != p else 100.0, deadwood,
                    notes_for(view, played, values.moves[b], values.points[p]), played_hint,
                    best_hint)
