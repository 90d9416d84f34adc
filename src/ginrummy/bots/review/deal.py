"""One finished deal reviewed: its record replayed on the engine, each decision of the seats
asked for graded from that seat's view at that moment, and their luck events.

The per-deal interface every form of the game plugs into (:class:`DealInput`): a deal's record
(rules, dealer seat, deck, actions: ginrummy.records.HandRecord's fields), its number, the
revealed salt, the players at its engine seats, and per engine seat (0, 1) the
:class:`~ginrummy.bots.review.score.ScoreContext` that says what the deal's points are worth
toward winning. Every form builds them from its score sheet
(:mod:`ginrummy.bots.review.records`, :func:`~ginrummy.bots.review.score.score_context`).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, replace

import numpy as np

from ...actions import Action, ActionKind
from ...hand import HandState, Phase
from ...replay import HandNotOverError
from ...rules import Rules
from ...views import PlayerView, view_of
from ..expert import ExpertBot
from .confirm import confirm_decision, confirm_decisions
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

__all__ = ["DealInput", "review_deal", "position_at", "grade_moves"]


@dataclass(frozen=True, slots=True)
class DealInput:
    """A finished deal to review.

    :ivar number: its number in the game (1-based).
    :ivar rules: the table's rules; ``dealer`` its dealer seat (0 or 1).
    :ivar deck: 52 card ints in deal order (R-2.2); ``actions`` the action texts played.
    :ivar salt: the deal's revealed salt (docs/fairness.md), or None; it seeds the search.
    :ivar scores: the score context of each engine seat (0 and 1).
    :ivar hand_points: by engine seat, the points toward the target of its side before the
        deal, and the ``target``, for the hints' and ``hard``'s knock rule (None: 0 each).
    :ivar players: the players at engine seats 0 and 1 (two players: (0, 1); three players,
        partnership: as the game seats them); decisions and luck events name the player.
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
    players: tuple[int, int] = (0, 1)


def review_deal(deal: DealInput, seats: Collection[int] = (0, 1),
                budget: ReviewBudget = DEFAULT_BUDGET,
                bot: ExpertBot | None = None,
                on_step: Callable[[int], None] | None = None) -> DealReview:
    """Grade every decision with a real choice of ``seats`` (engine seats 0 and/or 1) in
    ``deal`` and value their luck. The decisions, luck events and ``seats`` of the result name
    players (``deal.players``); its per-seat fields are indexed by engine seat.

    A decision has a real choice when the seat has two or more distinct legal moves
    (:func:`~ginrummy.bots.review.position.candidate_moves`); a forced stock draw (R-3.1) is
    not graded but its card's luck is valued.

    :param on_step: called with the number of the deal's actions gone through so far, after
        each (progress: ``len(deal.actions)`` in all).

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
                        seed = decision_seed(deal.salt, deal.number, seat, i, view)
                        decisions.append(_confirmed(deal, h, grade_decision(
                            view, values, act, deal.number, i, deal.hand_points, deal.target,
                            seed), score, seed, budget))
                    luck.extend(_luck(deal, view, i, values, act, score, first_seen,
                                      stock_before, real))
        h.apply(act)
        if on_step is not None:
            on_step(i + 1)
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
    players = deal.players
    if players != (0, 1):
        decisions = [replace(d, seat=players[d.seat]) for d in decisions]
        luck = [replace(e, seat=players[e.seat]) for e in luck]
    return DealReview(deal.number, deal.dealer, tuple(sorted(players[s] for s in seats)),
                      tuple(decisions), tuple(luck), (signed[0], signed[1]), o.kind,
                      (before[0], before[1]), (after[0], after[1]), players)


def position_at(deal: DealInput, index: int) -> HandState:
    """The deal as it stood before its action ``index`` (0-based): server side, every card in
    it (the seat to act is ``current``; its view is ``view_of(h, h.current)``).

    :raises ValueError: ``index`` is not an action of the deal.
    :raises GinRummyError: a malformed deck or an illegal action before it.
    """
    if not 0 <= index < len(deal.actions):
        raise ValueError(f"the deal has no action {index}")
    h = HandState(deal.rules, deal.dealer, deal.deck)
    for a in deal.actions[:index]:
        h.apply(Action.parse(a))
    return h


def grade_moves(deal: DealInput, index: int, budget: ReviewBudget = DEFAULT_BUDGET,
                bot: ExpertBot | None = None) -> tuple[Decision, ...]:
    """The decision before action ``index`` graded as if each of its distinct legal moves had
    been played (the "try again" of a review: how a chosen move compares), in the order of
    :func:`~ginrummy.bots.review.position.candidate_moves`. The values and the seed are those
    :func:`review_deal` grades that decision with, so the move actually played gets the
    review's grade.

    :returns: empty when the seat to act had no real choice there (fewer than two moves).
    :raises ValueError: ``index`` is not an action of the deal.
    """
    bot = bot if bot is not None else ExpertBot()
    h = position_at(deal, index)
    view = view_of(h, h.current)
    if len(candidate_moves(view)) < 2:
        return ()
    act = Action.parse(deal.actions[index])
    values = _values(deal, h, view, index, act, deal.scores[view.seat], budget, bot)
    if values is None:  # pragma: no cover - a view made by the engine adds up
        return ()
    seed = decision_seed(deal.salt, deal.number, view.seat, index, view)
    graded = tuple(grade_decision(view, values, m, deal.number, index, deal.hand_points,
                                  deal.target, seed) for m in values.moves)
    if budget.confirm:
        graded = confirm_decisions(graded, h, deal.scores[view.seat], seed, budget.confirm,
                                   budget.judge, deal.hand_points, deal.target)
    return tuple(replace(d, seat=deal.players[d.seat]) for d in graded)


def _confirmed(deal: DealInput, h: HandState, d: Decision, score: ScoreContext, seed: int,
               budget: ReviewBudget) -> Decision:
    """``d`` confirmed by play-outs when ``budget`` asks for them
    (:func:`~ginrummy.bots.review.confirm.confirm_decision`)."""
    if budget.confirm == 0:
        return d
    return confirm_decision(d, h, score, seed, budget.confirm, budget.judge, deal.hand_points,
                            deal.target)


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
