"""A graded mistake confirmed by playing it out: the move played and the best move, each
played to the end of the deal by a judge at both seats in worlds sampled from the deciding
seat's view.

The review's search (:mod:`ginrummy.bots.review.position`) values moves by rollouts in which
both seats play the rollout kernel's fixed policies; those cannot recover from a poor move the
way the ``expert`` does, so the search sees moves further apart than they are under expert
play (benchmarks/results/review-confirm-2026-12-06.md: the drop it grades is about 1.5 times
what play-outs by the ``expert`` measure, most of all for the draw). A confirmation measures
the drop again the way that benchmark does, with a judge playing on:

* ``playouts`` worlds (the opponent's hidden hand and the stock order) are sampled from the
  seat's view by the search's own sampler
  (:meth:`~ginrummy.bots.expert.ExpertBot.sample_worlds`), seeded from the decision's seed
  (:func:`~ginrummy.bots.review.position.decision_seed`: the revealed salt and what the seat
  saw), never from a hidden card;
* in each world the best move and the move played are each played out by the judge at both
  seats, with the same random sources for both moves (paired); the opponent's past stock draws
  are hidden from it as they were from the seat (R-3.4): in a sampled world its hand is not
  the one it drew;
* each play-out's signed deal points become the seat's chance of winning the game by its
  :class:`~ginrummy.bots.review.score.ScoreContext`; the drop is the mean over the worlds of
  best minus played, ``z`` its paired standard errors.

The judge (:data:`JUDGES`): ``expert-light``, the ``expert`` with 300 rollouts a decision
(min 15, max 75 worlds a candidate) instead of 1,800, whose play-outs measured much what the
full ``expert``'s do at about a sixth of the cost (the pilot in the results file above).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Final

import numpy as np

from ...actions import Action, ActionKind
from ...errors import GinRummyError
from ...hand import Event, HandState
from ...views import view_of
from ..base import Bot, Context
from ..expert import ExpertBot
from ..heuristic import HardBot
from .grades import THRESHOLDS, accuracy_of, grade_of
from .model import Confirmation, Decision, MoveValue
from .score import ScoreContext

__all__ = ["JUDGES", "CONFIRMED_GRADES", "confirmed_grade", "confirm_decision",
           "confirm_decisions",
           "playout_points", "playout_drops", "play_out", "paired_stats", "light_expert",
           "MAX_STEPS"]

#: a play-out that has not ended after this many actions counts as a dead hand (none has:
#: R-8.2 ends every deal with the stock)
MAX_STEPS: Final = 400


def light_expert() -> ExpertBot:
    """The ``expert`` with a sixth of its search: 300 rollouts a decision, 15 to 75 worlds a
    candidate (the default judge of a confirmation)."""
    bot = ExpertBot()
    bot.rollouts, bot.min_worlds, bot.max_worlds = 300, 15, 75
    return bot


#: the judges a confirmation may play on with, by name: a new bot per seat and play-out set.
JUDGES: Final[dict[str, Callable[[], Bot]]] = {
    "expert-light": light_expert,
    "expert": ExpertBot,
    "hard": HardBot,
}


def _world(h: HandState, seat: int, opp_hand: int, stock: np.ndarray) -> HandState:
    """``h`` with the opponent's hand and the stock of one sampled world, and the opponent's
    stock draws hidden from its own record (its hand there is not the one it drew)."""
    w = h.clone()
    opp = 1 - seat
    w.hands[opp] = int(opp_hand)
    w.deck = tuple(w.deck[:w.stock_pos]) + tuple(int(c) for c in stock)
    w.history = [Event(e.seat, e.action, None)
                 if e.seat == opp and e.action.kind is ActionKind.DRAW_STOCK else e
                 for e in w.history]
    return w


def play_out(w: HandState, first: Action, seed: str, bots: list[Bot],
              hand_points: tuple[int, int] | None, target: int) -> int:
    """Signed deal points for the seat to act in ``w`` after it plays ``first`` and ``bots``
    play both seats to the end of the deal (random sources from ``seed``)."""
    h = w.clone()
    seat = h.current
    h.apply(first)
    rngs = [random.Random(f"{seed}:0"), random.Random(f"{seed}:1")]
    steps = 0
    while not h.is_over and steps < MAX_STEPS:
        s = h.current
        h.apply(bots[s].choose(view_of(h, s),
                               Context(rng=rngs[s], hand_points=hand_points, target=target)))
        steps += 1
    o = h.outcome
    if o is None or o.winner is None:
        return 0
    return o.points if o.winner == seat else -o.points


def playout_points(h: HandState, moves: Sequence[Action], seed: int, playouts: int,
                   judge: str = "expert-light", hand_points: tuple[int, int] | None = None,
                   target: int = 100, sampler: ExpertBot | None = None) -> np.ndarray | None:
    """Each of ``moves`` played out in the same ``playouts`` worlds sampled from the view of
    the seat to act in ``h``, with the same random sources for every move (see the module
    docstring): the signed deal points for that seat, int64, shape (len(moves), playouts). A
    move's row depends only on the move, ``h``'s view and ``seed``, not on the other moves.

    :param h: the deal before the decision (:func:`~ginrummy.bots.review.position_at`); only
        what its seat to act can see is used: the opponent's hand and the stock are sampled.
    :param seed: the decision's seed; ``hand_points`` by engine seat and ``target``: the
        bots' game score.
    :returns: None when the view's card counts do not add up (a view not made by the engine).
    :raises KeyError: ``judge`` is not one of :data:`JUDGES`.
    :raises ValueError: ``playouts`` < 2, or a move is not legal there.
    """
    if playouts < 2:
        raise ValueError("a confirmation needs at least 2 play-outs")
    make = JUDGES[judge]
    seat = h.current
    view = view_of(h, seat)
    for m in moves:
        try:
            h.clone().apply(m)
        except GinRummyError as e:
            raise ValueError(f"{m.text!r} is not a legal move of this position: {e}") from e
    sampler = sampler if sampler is not None else ExpertBot()
    worlds = sampler.sample_worlds(view, Context(rng=random.Random(seed ^ 0xC0F1)), playouts)
    if worlds is None:
        return None
    opp_hands, stocks = worlds
    bots = [make(), make()]
    pts = np.zeros((len(moves), playouts), dtype=np.int64)
    for i in range(playouts):
        w = _world(h, seat, int(opp_hands[i]), stocks[i])
        for row, move in enumerate(moves):
            pts[row, i] = play_out(w, move, f"{seed}:{i}", bots, hand_points, target)
    return pts


def playout_drops(h: HandState, best: Action, played: Action, score: ScoreContext, seed: int,
                  playouts: int, judge: str = "expert-light",
                  hand_points: tuple[int, int] | None = None, target: int = 100,
                  sampler: ExpertBot | None = None) -> tuple[np.ndarray, np.ndarray] | None:
    """Per sampled world (:func:`playout_points`), the seat's chance of winning the game after
    ``best`` minus after ``played`` (``score``: its score context), and the same in signed
    deal points: two arrays of shape (``playouts``,), float64 and int64; None, and errors,
    as :func:`playout_points`."""
    pts = playout_points(h, (best, played), seed, playouts, judge, hand_points, target, sampler)
    if pts is None:
        return None
    win = score.win_chance(pts)
    return win[0] - win[1], pts[0] - pts[1]


def paired_stats(diffs: np.ndarray) -> tuple[float, float]:
    """The mean of ``diffs`` and its value in standard errors, at most 99 (99 when all are
    equal and the mean is positive, 0 when it is not positive)."""
    mean = float(diffs.mean())
    sd = float(diffs.std(ddof=1)) if len(diffs) > 1 else 0.0
    if sd <= 1e-12:
        return mean, 99.0 if mean > 0 else 0.0
    return mean, max(-99.0, min(99.0, mean / (sd / float(np.sqrt(len(diffs))))))


#: the search's grades a confirmation re-measures (with :attr:`ReviewBudget.confirm` > 0)
CONFIRMED_GRADES: Final = ("mistake", "blunder")


def confirmed_grade(drop: float, z: float) -> str:
    """The grade of a decision the search was sure was a mistake or a blunder, on its
    play-outs' ``drop`` (0..1) and ``z``: :func:`~ginrummy.bots.review.grades.grade_of` when
    they are sure too (z >= 2); when they are not, ``inaccuracy`` if they still found the move
    played at least an inaccuracy's drop worse (two measures leaning the same way, one of
    them unsure), else ``good``.

    >>> confirmed_grade(0.06, 3.0), confirmed_grade(0.06, 1.2), confirmed_grade(0.004, 0.5)
    ('blunder', 'inaccuracy', 'good')
    """
    grade = grade_of(False, drop, z)
    if grade == "good" and drop >= THRESHOLDS["inaccuracy"]:
        return "inaccuracy"
    return grade


def confirm_decision(decision: Decision, h: HandState, score: ScoreContext, seed: int,
                     playouts: int, judge: str = "expert-light",
                     hand_points: tuple[int, int] | None = None,
                     target: int = 100) -> Decision:
    """``decision`` graded again on play-outs when the search graded it one of
    :data:`CONFIRMED_GRADES` (:func:`confirm_decisions` of one decision)."""
    return confirm_decisions((decision,), h, score, seed, playouts, judge, hand_points,
                             target)[0]


def confirm_decisions(decisions: Sequence[Decision], h: HandState, score: ScoreContext,
                      seed: int, playouts: int, judge: str = "expert-light",
                      hand_points: tuple[int, int] | None = None,
                      target: int = 100) -> tuple[Decision, ...]:
    """``decisions`` of one position (the same best move; each a move that could be played
    there), each graded again on play-outs (:func:`playout_points`) when the search graded it
    one of :data:`CONFIRMED_GRADES`: its ``drop``, ``drop_points``, ``z``, ``grade`` and
    ``accuracy`` (the drops at least 0, as the search's), and the values of its ``played``
    and ``best`` moves, become the play-outs' (:func:`confirmed_grade`), the search's kept in
    its ``confirmation``; its ``moves`` stay the search's values of every move. The others
    are returned as they are. A best move is played out once for all the decisions it is best
    of, and a decision gets the same play-outs alone or with others.

    :param h: the deal before the decision; ``score`` its seat's score context, ``seed`` the
        decision's seed (:func:`~ginrummy.bots.review.position.decision_seed`).
    :raises KeyError, ValueError: as :func:`playout_points`.
    """
    out = list(decisions)
    groups: dict[Action, list[int]] = {}  # by best move (one, unless the search ties exactly)
    for i, d in enumerate(decisions):
        if d.grade in CONFIRMED_GRADES:
            groups.setdefault(d.best.action, []).append(i)
    for best, rows in groups.items():
        pts = playout_points(h, [best, *(decisions[i].played.action for i in rows)], seed,
                             playouts, judge, hand_points, target)
        if pts is None:  # pragma: no cover - a position made by the engine adds up
            continue
        win = score.win_chance(pts)
        chance = score.chance_values(pts).mean(axis=1)
        mean_win, mean_pts = win.mean(axis=1), pts.mean(axis=1)
        for row, i in enumerate(rows, 1):
            d = decisions[i]
            drop, z = paired_stats(win[0] - win[row])
            points = float((pts[0] - pts[row]).mean())
            kept = max(0.0, drop)
            out[i] = replace(
                d, drop=kept, drop_points=max(0.0, points), z=z, grade=confirmed_grade(kept, z),
                accuracy=accuracy_of(kept),
                played=MoveValue(d.played.action, float(mean_win[row]), float(mean_pts[row]),
                                 float(chance[row])),
                best=MoveValue(d.best.action, float(mean_win[0]), float(mean_pts[0]),
                               float(chance[0])),
                confirmation=Confirmation(playouts, judge, drop, points, z, d.drop, d.grade,
                                          d.played, d.best))
    return tuple(out)
