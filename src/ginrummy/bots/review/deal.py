"""One finished deal reviewed: its record replayed on the engine, each decision of the seats
asked for graded from that seat's view at that moment, and their luck events.

The per-deal interface every form of the game plugs into (:class:`DealInput`): a deal's record
(rules, dealer seat, deck, actions: ginrummy.records.HandRecord's fields), its number, the
revealed salt, and per engine seat (0, 1) the :class:`~ginrummy.bots.review.score.ScoreContext`
that says what the deal's points are worth toward winning. A two-player game builds them from
its score sheet (:mod:`ginrummy.bots.review.records`); Hollywood, three players and partnership
will build their own contexts and reuse this unchanged.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass

import numpy as np

from ...actions import Action, ActionKind
from ...hand import HandState, Phase
from ...replay import HandNotOverError
from ...rules import Rules
from ...views import PlayerView, view_of
from ..expert import ExpertBot
from .decision import grade_decision
from .luck import move_value, policy_value
from .model import DealReview, Decision, LuckEvent
from .position import (
    DEFAULT_BUDGET,
    PositionValues,
    ReviewBudget,
    candidate_moves,
    decision_seed,
    evaluate_position,
)
from .score import ScoreContext

__all__ = ["DealInput", "review_deal"]


@dataclass(frozen=True, slots=True)
class DealInput:
    """A finished deal to review.

    :ivar number: its number in the game (1-based).
    :ivar rules: the table's rules; ``dealer`` its dealer seat (0 or 1).
    :ivar deck: 52 card ints in deal order (R-2.2); ``actions`` the action texts played.
    :ivar salt: the deal's revealed salt (docs/fairness.md), or None; it seeds the search.
    :ivar scores: the score context of each engine seat (0 and 1).
    :ivar hand_points: hand points by seat before the deal and the ``target``, for the hints'
        knock rule in the explanations (None outside a two-player game).
    """

    number: int
    rules: Rules
    dealer: int
    deck: tuple[int, ...]
    actions: tuple[str, ...]
    salt: str | None
    scores: Mapping[int, ScoreContext]
    hand_points: tuple[int, int] | None = None
    target: int = 100


def review_deal(deal: DealInput, seats: Collection[int] = (0, 1),
                budget: ReviewBudget = DEFAULT_BUDGET,
                bot: ExpertBot | None = None) -> DealReview:
    """Grade every decision with a real choice of ``seats`` in ``deal`` and value their luck.

    A decision has a real choice when the seat has two or more distinct legal moves
    (:func:`~ginrummy.bots.review.position.candidate_moves`); a forced stock draw (R-3.1) is
    not graded but its card's luck is valued.

    :raises HandNotOverError: the actions do not finish the deal (a deal in play is never
        reviewed: its hidden cards are not revealed).
    :raises GinRummyError: a malformed deck or an illegal action.
    """
    bot = bot if bot is not None else ExpertBot()
    h = HandState(deal.rules, deal.dealer, deal.deck)
    actions = [Action.parse(a) for a in deal.actions]
    decisions: list[Decision] = []
    luck: list[LuckEvent] = []
    first_seen: set[int] = set()
    stock_before: dict[int, tuple[float, float]] = {}
    for i, act in enumerate(actions):
        if h.is_over:
            raise HandNotOverError(f"action {i + 1} comes after the end of the deal")
        seat = h.current
        if seat in seats:
            view = view_of(h, seat)
            score = deal.scores[seat]
            real = len(candidate_moves(view)) >= 2
            after_draw = seat in stock_before and view.phase is Phase.DISCARD
            forced_draw = view.phase is Phase.DRAW and not real
            if real or after_draw or forced_draw:
                values = _values(deal, h, view, i, act, score, budget, bot)
                if values is not None:
                    if real:
                        decisions.append(grade_decision(
                            view, values, act, deal.number, i, deal.hand_points, deal.target,
                            decision_seed(deal.salt, deal.number, seat, i, view)))
                    luck.extend(_luck(deal, view, i, values, act, score, first_seen,
                                      stock_before, real))
        h.apply(act)
    if not h.is_over or h.outcome is None:
        raise HandNotOverError("the deal is not over: only a finished deal is reviewed")
    o = h.outcome
    signed = [0, 0]
    if o.winner is not None:
        signed[o.winner] = o.points
        signed[1 - o.winner] = -o.points
    before = tuple(float(deal.scores[s].win_chance(np.zeros(1, dtype=np.int64))[0])
                   for s in (0, 1))
    after = tuple(float(deal.scores[s].win_chance(np.array([signed[s]]))[0]) for s in (0, 1))
    return DealReview(deal.number, deal.dealer, tuple(sorted(seats)), tuple(decisions),
                      tuple(luck), (signed[0], signed[1]), o.kind, (before[0], before[1]),
                      (after[0], after[1]))


def _values(deal: DealInput, h: HandState, view: PlayerView, i: int, act: Action,
            score: ScoreContext, budget: ReviewBudget, bot: ExpertBot) -> PositionValues | None:
    after_take = None
    if view.phase is Phase.FIFTIETH and any(a.kind is ActionKind.DRAW_DISCARD
                                            for a in view.legal):
        g = h.clone()
        g.apply(Action(ActionKind.DRAW_DISCARD))
        after_take = view_of(g, view.seat)
    seed = decision_seed(deal.salt, deal.number, view.seat, i, view)
    return evaluate_position(view, score, seed, budget, after_take, bot)


def _luck(deal: DealInput, view: PlayerView, i: int, values: PositionValues, act: Action,
          score: ScoreContext, first_seen: set[int], stock_before: dict[int, tuple[float, float]],
          real: bool) -> list[LuckEvent]:
    """The luck events that end at this decision (see :mod:`ginrummy.bots.review.luck`)."""
    seat = view.seat
    out: list[LuckEvent] = []
    if values.policy is None:  # the fiftieth-card choice: no chance here
        first_seen.add(seat)
        return out
    if seat not in first_seen and real:
        first_seen.add(seat)
        w, p = policy_value(values)
        prior = float(score.win_chance(np.zeros(1, dtype=np.int64))[0])
        out.append(LuckEvent(deal.number, i, seat, "deal", None, w - prior, p))
    before = stock_before.pop(seat, None)
    if before is not None and view.phase is Phase.DISCARD:
        w, p = policy_value(values)
        out.append(LuckEvent(deal.number, i - 1, seat, "draw", view.drawn_card,
                             w - before[0], p - before[1]))
    if act.kind is ActionKind.DRAW_STOCK:
        stock_before[seat] = move_value(values, ActionKind.DRAW_STOCK)
    return out
