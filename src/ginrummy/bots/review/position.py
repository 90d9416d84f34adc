"""The value of every move of one decision, from the deciding seat's view only.

:func:`evaluate_position` prices each distinct legal move of a :class:`~ginrummy.views.PlayerView`
(take or pass the first upcard, R-3.1; stock or pile, R-3.3; each discard, knock and gin of an
11-card hand, R-1.6, R-4.x) with the ``expert`` player's search
(:meth:`ginrummy.bots.expert.ExpertBot.evaluate_moves`): the same sampled worlds (the opponent's
hidden hand and the stock order, drawn from the view alone) for every move, each played out to
the end of the deal, and the deal's signed points turned into the chance of winning the game by
the seat's :class:`~ginrummy.bots.review.score.ScoreContext`. The fiftieth-card choice (R-8.2)
is priced exactly: a pass ends the deal with no score, a take is worth its best knock or gin.

Its random source is seeded by :func:`decision_seed` from the deal's revealed salt and what the
seat saw, never from a hidden card: the same decision gets the same values on every machine, and
two deals that differ only in cards the seat could not see get the same values (DESIGN.md,
"Review").

It also gives, per world, the move the search's own rollout policy would play
(:func:`policy_weights`): the luck of a drawn card is priced against that policy
(:mod:`ginrummy.bots.review.luck`).
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass

import numpy as np

from ...actions import Action, ActionKind
from ...cards import POINTS
from ...hand import Phase
from ...melds import best_discard_deadwood, min_deadwood_mask
from ...views import PlayerView
from ..base import Context
from ..expert import ExpertBot
from ..knowledge import in_meld_with
from .score import ScoreContext

__all__ = ["ReviewBudget", "DEFAULT_BUDGET", "PositionValues", "candidate_moves", "decision_seed",
           "evaluate_position", "policy_weights", "same_move"]


#: the fewest and the most play-outs a review checks a mistake with (besides 0: none)
MIN_CONFIRM = 8
MAX_CONFIRM = 4096


@dataclass(frozen=True, slots=True)
class ReviewBudget:
    """How hard the review searches.

    :ivar worlds: sampled worlds per decision; every candidate move is played out in each
        (a decision with 11 candidates costs 11 x ``worlds`` rollouts).
    :ivar confirm: play-outs (worlds) that re-measure each decision the search grades a
        mistake or a blunder (:mod:`ginrummy.bots.review.confirm`), ``judge`` playing both
        seats; 0: none (the search's grades are kept), else :data:`MIN_CONFIRM` to
        :data:`MAX_CONFIRM` (fewer cannot make a grade sure).
    """

    worlds: int = 192
    confirm: int = 0
    judge: str = "expert-light"

    def __post_init__(self) -> None:
        if not isinstance(self.worlds, int) or self.worlds < 2:
            raise ValueError("a review needs at least 2 worlds per decision")
        if not isinstance(self.confirm, int) or not (
                self.confirm == 0 or MIN_CONFIRM <= self.confirm <= MAX_CONFIRM):
            raise ValueError(f"play-outs to check a mistake: 0 (none) or {MIN_CONFIRM} to "
                             f"{MAX_CONFIRM}, not {self.confirm!r}")
        from .confirm import JUDGES  # confirm imports this module

        if self.judge not in JUDGES:
            raise ValueError(f"no judge {self.judge!r} (one of {', '.join(JUDGES)})")


#: the review's default search (benchmarks/results/review-*.md measures its speed)
DEFAULT_BUDGET = ReviewBudget()


@dataclass(frozen=True, slots=True)
class PositionValues:
    """Every move of one decision, valued in the same worlds.

    :ivar moves: the distinct legal moves (:func:`candidate_moves`).
    :ivar points: signed deal points (+: the seat scores), int64, shape (moves, worlds).
    :ivar win: the seat's chance of winning the game after each, float64, same shape, the
        players valued as equals (what decisions are graded by).
    :ivar policy: per world, the weight of each move as the search's own rollout policy would
        play it (columns sum to 1), float64, same shape; ``None`` for the fiftieth-card choice.
    :ivar chance: the seat's chance of winning after each move counting who plays
        (:meth:`~ginrummy.bots.review.score.ScoreContext.chance_values`), float64, one per
        move; None: the mean of ``win``.
    """

    moves: tuple[Action, ...]
    points: np.ndarray
    win: np.ndarray
    policy: np.ndarray | None
    chance: np.ndarray | None = None

    def index(self, action: Action) -> int:
        """The row of ``action`` (same kind and card; any gin for a gin, R-5.1).

        :raises ValueError: not one of the moves."""
        for i, m in enumerate(self.moves):
            if same_move(m, action):
                return i
        raise ValueError(f"{action.text!r} is not a move of this position")


def same_move(a: Action, b: Action) -> bool:
    """The same move for the review: same kind and card (a knock's spread aside, R-4.5); every
    gin is the same move (the discard goes face down and the defender may not lay off: R-5.1)."""
    if a.kind is not b.kind:
        return False
    return a.kind is ActionKind.GIN or a.card == b.card


def candidate_moves(view: PlayerView) -> tuple[Action, ...]:
    """The distinct legal moves of ``view`` in the engine's order, one gin for all gins.

    >>> from ginrummy.hand import HandState
    >>> from ginrummy.rules import Rules
    >>> from ginrummy.views import view_of
    >>> [a.text for a in candidate_moves(view_of(HandState(Rules(), 0, list(range(52))), 1))]
    ['take', 'pass']
    """
    out: list[Action] = []
    for a in view.legal:
        if not any(same_move(a, b) for b in out):
            out.append(a)
    return tuple(out)


def decision_seed(salt: str | None, number: int, seat: int, index: int,
                  view: PlayerView) -> int:
    """The seed of the search at one decision: SHA-256 of the deal's revealed ``salt`` (None:
    the record has none), the deal's ``number``, the ``seat``, the action ``index`` in the deal
    and what the seat holds, as a 63-bit int. No hidden card enters it."""
    text = f"ginrummy-review:{salt or ''}:{number}:{seat}:{index}:{view.hand.mask:x}"
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


def evaluate_position(view: PlayerView, score: ScoreContext, seed: int,
                      budget: ReviewBudget = DEFAULT_BUDGET,
                      after_take: PlayerView | None = None,
                      bot: ExpertBot | None = None) -> PositionValues | None:
    """Every move of ``view`` valued in ``budget.worlds`` sampled worlds (see the module
    docstring).

    :param view: the deciding seat's view; it must be its turn with at least one legal move.
    :param score: the seat's score context.
    :param seed: from :func:`decision_seed`.
    :param after_take: the fiftieth-card choice only (R-8.2): the seat's view after taking the
        last discard (it must then knock or go gin).
    :returns: None when the view's card counts do not add up (a view not made by the engine).
    :raises ValueError: not the view's turn, or a fiftieth-card choice without ``after_take``.
    """
    if not view.legal:
        raise ValueError("not this seat's turn")
    bot = bot if bot is not None else ExpertBot()
    moves = candidate_moves(view)
    ctx = Context(rng=random.Random(seed))
    nw = budget.worlds
    if view.phase is Phase.FIFTIETH:
        return _fiftieth(view, score, ctx, moves, nw, after_take, bot)
    pts = bot.evaluate_moves(view, ctx, moves, nw)
    if pts is None:
        return None
    return PositionValues(moves, pts, score.win_chance(pts),
                          policy_weights(view, moves, bot.own_policies(view, nw)),
                          score.chance_values(pts).mean(axis=1))


def _fiftieth(view: PlayerView, score: ScoreContext, ctx: Context, moves: tuple[Action, ...],
              nw: int, after_take: PlayerView | None, bot: ExpertBot) -> PositionValues | None:
    pts = np.zeros((len(moves), nw), dtype=np.int64)
    for i, m in enumerate(moves):
        if m.kind is ActionKind.PASS:
            continue  # the hand ends with no score
        if after_take is None:
            raise ValueError("the fiftieth-card choice needs the view after the take")
        outs = candidate_moves(after_take)
        v = bot.evaluate_moves(after_take, ctx, outs, nw)
        if v is None:
            return None
        pts[i] = v[int(np.argmax(v.mean(axis=1)))]
    return PositionValues(moves, pts, score.win_chance(pts), None,
                          score.chance_values(pts).mean(axis=1))


def policy_weights(view: PlayerView, moves: tuple[Action, ...],
                   blocks: list[tuple[tuple[int, int, int], int]]) -> np.ndarray:
    """Per world (columns, in ``blocks`` of ``(policy, n)`` as
    :meth:`~ginrummy.bots.expert.ExpertBot.own_policies` gives them), the weight of each of
    ``moves`` (rows) under the rollout kernel's own policy (:mod:`ginrummy.bots.kernel`,
    ``rollout``): take the face-up card when it joins a meld, or (take rule 1) when it lets the
    seat knock at once within the policy's threshold; holding 11, big gin when allowed, else the
    discard that leaves the least deadwood (ties: the highest card by points, then at random,
    so equally weighted), knocking (or going gin) with it when its deadwood is 0 or within the
    knock limit and the threshold. Weights are 0 or 1 except for those random ties."""
    nw = sum(n for _, n in blocks)
    w = np.zeros((len(moves), nw), dtype=np.float64)
    start = 0
    for policy, n in blocks:
        take_rule, _tie, knock_max = policy
        col = slice(start, start + n)
        start += n
        for row, weight in _policy_rows(view, moves, take_rule, knock_max):
            w[row, col] += weight
    return w


def _row(moves: tuple[Action, ...], kind: ActionKind, card: int | None = None) -> int:
    a = Action(kind, card)
    for i, m in enumerate(moves):
        if same_move(m, a):
            return i
    raise ValueError(f"the policy's move {a.text!r} is not legal here")  # pragma: no cover


def _policy_rows(view: PlayerView, moves: tuple[Action, ...], take_rule: int,
                 knock_max: int) -> list[tuple[int, float]]:
    hand = view.hand.mask
    limit = view.knock_limit
    kinds = {m.kind for m in moves}
    if view.phase in (Phase.OFFER, Phase.DRAW):
        top = view.discard_pile[-1]
        take_kind = ActionKind.TAKE if view.phase is Phase.OFFER else ActionKind.DRAW_DISCARD
        leave_kind = ActionKind.PASS if view.phase is Phase.OFFER else ActionKind.DRAW_STOCK
        take = take_kind in kinds and in_meld_with(hand, top)
        if take_kind in kinds and not take and view.phase is Phase.DRAW and take_rule == 1:
            dw = best_discard_deadwood(hand | 1 << top, 1 << top)
            take = dw <= limit and dw <= knock_max
        return [(_row(moves, take_kind if take else leave_kind), 1.0)]
    # holding 11 cards
    if ActionKind.BIG_GIN in kinds:
        return [(_row(moves, ActionKind.BIG_GIN), 1.0)]
    cards = sorted({m.card for m in moves if m.card is not None})
    left = {c: min_deadwood_mask(hand & ~(1 << c)) for c in cards}
    least = min(left.values())
    ties = [c for c in cards if left[c] == least]
    top_pts = max(POINTS[c] for c in ties)
    ties = [c for c in ties if POINTS[c] == top_pts]
    out = []
    for c in ties:
        if least == 0:
            kind = ActionKind.GIN
        elif limit > 0 and least <= limit and least <= knock_max:
            kind = ActionKind.KNOCK
        else:
            kind = ActionKind.DISCARD
        if kind is ActionKind.DISCARD and kind not in kinds:  # a knock forced by
            kind = ActionKind.KNOCK
        out.append((_row(moves, kind, c), 1.0 / len(ties)))
    return out
