"""Explained hints: the move a strong player would make now, and why, in numbers.

:func:`hint` asks the ``expert`` level (:class:`~ginrummy.bots.expert.ExpertBot`, the strongest)
for its move, with a fixed seed, so that one view always gives the same hint (among discards
leaving the same deadwood: the card the hand's "extra card" marker shows, :func:`tie_agreeing`),
and explains it
with the exact meld functions of :mod:`ginrummy.melds` (R-1.5, R-1.6). It reads the person's
:class:`~ginrummy.views.PlayerView` only, never a hidden card (DESIGN.md principle 6).

Besides the numbers below, a hint says whether the search overrules the plain deadwood count:
``plain`` is the move that counts deadwood only (take the face-up card iff that lowers the
deadwood; knock or gin as soon as allowed; else discard a card leaving the least deadwood),
``overrules`` is true when the suggested move is another one, and ``value`` / ``plain_value`` are
the search's estimates of both moves (``value_kind`` ``"win_chance"``: the chance, 0..1, of
winning the game from the score; ``"points"`` outside a game: mean signed points of the deal),
``None`` where the move was not searched.

Numbers are deadwood in points (R-1.2):

* ``deadwood``: the person's deadwood now: of the 10 cards, or, holding 11 (after the draw),
  the least after a legal discard (R-1.6, R-3.6), as the table's counter shows it.
* ``deadwood_after``: after the suggested move. Taking the face-up card (``take``,
  ``draw_discard``): after the best discard that follows (``then_discard``; the taken card may
  not be discarded, R-3.6). A discard: of the 10 cards kept. A knock: the deadwood shown with
  the spread (R-4.2, R-4.5); gin and big gin: 0 (R-4.6, R-5.3). A stock draw or a pass: ``None``
  (the stock card is unknown).
* ``alternative``: for a stock draw or a pass, what the face-up card would have given
  (``deadwood_after`` and ``then_discard``).

>>> from ginrummy.hand import HandState
>>> from ginrummy.rules import Rules
>>> from ginrummy.views import view_of
>>> h = HandState(Rules.preset("standard"), 0, list(range(52)))
>>> hint(view_of(h, 1)).to_json()["kind"] in ("take", "pass")
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any

from ..actions import Action, ActionKind
from ..cards import POINTS, CardSet, card_text, parse_card
from ..hand import STOCK_FLOOR, Phase
from ..melds import best_arrangement, best_discard_deadwood, evaluate_discards, min_deadwood
from ..views import PlayerView
from .base import Context
from .heuristic import (
    HardBot,
    discard_danger,
    expected_after_draw,
    layoff_exposure,
    taking_back,
    undercut_probability,
)
from .knowledge import min_spreads, opponent_belief, read_view

__all__ = ["Hint", "Alternative", "Comparison", "hint", "explain", "plain_move", "tie_agreeing",
           "HINT_SEED", "HINT_LEVEL", "knock_limit_now"]

#: the level whose move is suggested.
HINT_LEVEL = "expert"
#: the fixed seed of the suggesting player's random source: the same view, the same hint.
HINT_SEED = 0x61CE


@dataclass(frozen=True, slots=True)
class Alternative:
    """The face-up card not taken: taking it would leave ``deadwood_after`` points after
    discarding ``then_discard`` (R-1.6, R-3.6)."""

    kind: ActionKind
    card: int
    deadwood_after: int
    then_discard: int | None

    def to_json(self) -> dict[str, Any]:
        """``{"kind", "card", "deadwood_after", "then_discard"}`` (cards as text)."""
        return {"kind": self.kind.value, "card": card_text(self.card),
                "deadwood_after": self.deadwood_after,
                "then_discard": None if self.then_discard is None
                else card_text(self.then_discard)}


@dataclass(frozen=True, slots=True)
class Comparison:
    """A discard compared with the one that leaves the least deadwood now.

    :ivar card: the lowest-deadwood discard; ``deadwood`` the points it leaves.
    :ivar expected: expected deadwood (points) after the next draw, keeping the suggested
        cards; ``expected_other`` the same keeping ``card``'s (one decimal).
    :ivar danger: the estimated chance (0..1) that the suggested discard completes a meld of
        the opponent's; ``danger_other`` that of ``card`` (two decimals).
    """

    card: int
    deadwood: int
    expected: float
    expected_other: float
    danger: float
    danger_other: float

    def to_json(self) -> dict[str, Any]:
        return {"card": card_text(self.card), "deadwood": self.deadwood,
                "expected": self.expected, "expected_other": self.expected_other,
                "danger": self.danger, "danger_other": self.danger_other}


@dataclass(frozen=True, slots=True)
class Hint:
    """A suggested move with the numbers that explain it (see the module docstring).

    :ivar action: the suggested action, one of the view's legal actions (a knock may name the
        suggested spread, R-4.5).
    :ivar card: the card the move is about: the face-up card taken or passed, the card
        discarded (also by a knock or gin); ``None`` for a stock draw or big gin.
    :ivar reason: why, as a code: ``gin``, ``knock``, ``meld``, ``lower`` (a take); ``only``,
        ``no_gain``, ``small_gain``, ``own_discard`` (a stock draw or pass); ``fiftieth_none``,
        ``fiftieth_pass`` (a pass on the last discard once the stock is used up, R-8.2);
        ``lowest``, ``chances``, ``safer``, ``wait_risk``, ``wait_late``, ``wait_gin`` (a
        discard);
        ``last_dead`` (the discard that ends a dead hand, R-8.1), ``last_safe`` (the last
        discard, which the opponent may take only to knock or go gin, R-8.2); ``knock``,
        ``gin``, ``big_gin``.
    :ivar could_knock: a discard when a knock was legal: the least deadwood it could show.
    :ivar undercut_risk: with ``wait_risk``, the estimated chance (0..1) of being undercut.
    :ivar late_max: with ``wait_late``, the most deadwood a strong player knocks with now
        (``hard``'s knock rule at this moment, :func:`knock_limit_now`); with ``wait_gin``, 0
        (that rule would knock with no deadwood at all now: it waits for gin).
    :ivar danger: with ``last_safe``, the estimated chance (0..1) that the discard completes a
        meld of the opponent's.
    :ivar plain: the plain deadwood-count move (see the module docstring); ``overrules`` true
        when the suggestion differs from it; ``value`` and ``plain_value`` the search's estimates
        of the two moves (three decimals; ``None`` if not searched), in ``value_kind`` units.
    """

    action: Action
    card: int | None
    reason: str
    deadwood: int
    deadwood_after: int | None
    then_discard: int | None
    knock_limit: int
    alternative: Alternative | None = None
    comparison: Comparison | None = None
    could_knock: int | None = None
    undercut_risk: float | None = None
    late_max: int | None = None
    danger: float | None = None
    plain: Action | None = None
    overrules: bool = False
    value: float | None = None
    plain_value: float | None = None
    value_kind: str | None = None

    @property
    def kind(self) -> ActionKind:
        return self.action.kind

    def to_json(self) -> dict[str, Any]:
        """``{"action", "kind", "card", "reason", "deadwood", "deadwood_after",
        "then_discard", "knock_limit", "alternative", "comparison", "could_knock",
        "undercut_risk", "late_max", "danger", "plain", "overrules", "value", "plain_value",
        "value_kind"}``: cards as text, ``action`` and ``plain`` the texts to post."""
        return {
            "action": self.action.text,
            "kind": self.action.kind.value,
            "card": None if self.card is None else card_text(self.card),
            "reason": self.reason,
            "deadwood": self.deadwood,
            "deadwood_after": self.deadwood_after,
            "then_discard": None if self.then_discard is None else card_text(self.then_discard),
            "knock_limit": self.knock_limit,
            "alternative": None if self.alternative is None else self.alternative.to_json(),
            "comparison": None if self.comparison is None else self.comparison.to_json(),
            "could_knock": self.could_knock,
            "undercut_risk": self.undercut_risk,
            "late_max": self.late_max,
            "danger": self.danger,
            "plain": None if self.plain is None else self.plain.text,
            "overrules": self.overrules,
            "value": self.value,
            "plain_value": self.plain_value,
            "value_kind": self.value_kind,
        }


def _after_taking(view: PlayerView, card: int) -> tuple[int, int | None]:
    """Deadwood after taking ``card`` and the best discard that follows, and that discard
    (R-1.6; the taken card may not be discarded, R-3.6)."""
    hand = view.hand | CardSet.of([card])
    options = evaluate_discards(hand, CardSet.of([card]))
    best = options[0]
    return best.deadwood_points, parse_card(best.discard)


def _knock_deadwood(view: PlayerView, action: Action) -> int:
    """The deadwood a knock shows: of its named spread, else of the default (R-4.5)."""
    assert action.card is not None
    kept = view.hand.mask & ~(1 << action.card)
    if action.melds is None:
        return min_deadwood(kept)
    used = 0
    for m in action.melds:
        used |= m.mask
    return CardSet(kept & ~used).points()


def plain_move(view: PlayerView) -> Action:
    """The move that counts deadwood only (R-1.5, R-1.6): take the face-up card iff that lowers
    the deadwood after the best legal discard; big gin, gin, or a knock (least deadwood, highest
    card) as soon as allowed; else discard a card that leaves the least deadwood (the highest
    such card). :raises ValueError: not the view's turn."""
    legal = view.legal
    if not legal:
        raise ValueError("not this seat's turn")
    hand = view.hand
    ph = view.phase
    if ph in (Phase.OFFER, Phase.DRAW, Phase.FIFTIETH):
        take = next((a for a in legal if a.kind in (ActionKind.TAKE, ActionKind.DRAW_DISCARD)),
                    None)
        if take is not None and view.discard_pile:
            after, _ = _after_taking(view, view.discard_pile[-1])
            if after < min_deadwood(hand) or ph is Phase.FIFTIETH:
                return take
        return next(a for a in legal if a.kind not in (ActionKind.TAKE,
                                                       ActionKind.DRAW_DISCARD))
    big = next((a for a in legal if a.kind is ActionKind.BIG_GIN), None)
    if big is not None:
        return big
    outs = [a for a in legal if a.card is not None]
    best = min(outs, key=lambda a: (min_deadwood(hand.mask & ~(1 << (a.card or 0))),
                                    a.kind is ActionKind.DISCARD, -POINTS[a.card or 0],
                                    a.card or 0))
    return best


def _same_move(a: Action, b: Action, view: PlayerView) -> bool:
    """Equal moves for the overrule test: the same kind, and for a discard one leaving the
    same deadwood (among equally low discards the choice is not the search's doing)."""
    if a.kind is not b.kind:
        return False
    if a.card is None or b.card is None or a.kind is not ActionKind.DISCARD:
        return True
    hand = view.hand.mask
    return min_deadwood(hand & ~(1 << a.card)) == min_deadwood(hand & ~(1 << b.card))


def _search_note(view: PlayerView, action: Action, bot: object,
                 hand_points: tuple[int, int] | None) -> dict[str, Any]:
    """``plain``, ``overrules``, ``value``, ``plain_value`` and ``value_kind`` of a hint."""
    plain = plain_move(view)
    values = getattr(bot, "last_values", None)
    value = plain_value = None
    if values:
        for a, v in values:
            if a == action or (a.kind is action.kind and a.card == action.card):
                value = round(v, 3)
            if a.kind is plain.kind and (a.card == plain.card or plain.card is None):
                plain_value = round(v, 3) if plain_value is None else plain_value
    return {"plain": plain, "overrules": not _same_move(action, plain, view),
            "value": value, "plain_value": plain_value,
            "value_kind": None if value is None
            else ("win_chance" if hand_points is not None else "points")}


def hint(view: PlayerView, hand_points: tuple[int, int] | None = None,
         target: int = 100) -> Hint:
    """The ``expert`` level's move for ``view``, explained (see the module docstring).

    :param view: the person's view; it must be the person's turn (``view.legal`` not empty).
    :param hand_points: hand points so far indexed by seat (the knock policy weighs them), or
        ``None`` outside a game; ``target`` the game's target.
    :raises ValueError: it is not the view's seat's turn.
    """
    if not view.legal:
        raise ValueError("not this seat's turn")
    from .registry import make_bot

    ctx = Context(rng=random.Random(HINT_SEED), hand_points=hand_points, target=target)
    bot = make_bot(HINT_LEVEL)
    chosen = bot.choose(view, ctx)
    action = tie_agreeing(view, chosen)
    h = _explain(view, action, hand_points, target)
    note = _search_note(view, action, bot, hand_points)
    if note["value"] is None and action is not chosen:  # the search priced its own card
        own = _search_note(view, chosen, bot, hand_points)
        note["value"], note["value_kind"] = own["value"], own["value_kind"]
    return replace(h, **note)


def explain(view: PlayerView, action: Action, hand_points: tuple[int, int] | None = None,
            target: int = 100) -> Hint:
    """The numbers and reason of the module docstring for any legal ``action`` of ``view``
    (not only the suggested one; no search: ``plain``, ``value`` and the like are left unset).
    The review of a game (:mod:`ginrummy.bots.review`) explains the move played and the best
    move with it, in the hints' words. ``hand_points`` and ``target`` as for :func:`hint`.

    :raises ValueError: it is not the view's seat's turn.
    """
    if not view.legal:
        raise ValueError("not this seat's turn")
    return _explain(view, action, hand_points, target)


def tie_agreeing(view: PlayerView, action: Action) -> Action:
    """``action`` (a discard, knock or gin of an 11-card hand), or the same kind of move with
    the card the hand's "extra card" marker shows when both leave the same deadwood: one rule
    for the tie, that of :func:`ginrummy.melds.evaluate_discards` (least deadwood, then the
    higher value, then card order; R-1.6, R-3.6), which the web state's ``arrangement`` uses
    too. A knock is changed only for one showing the same deadwood (R-4.5). Any other move is
    returned as is.
    """
    if action.kind not in (ActionKind.DISCARD, ActionKind.KNOCK, ActionKind.GIN) \
            or action.card is None or len(view.hand) != 11:
        return action
    taken = None if view.taken_card is None else CardSet.of([view.taken_card])
    options = evaluate_discards(view.hand, taken)
    if not options:
        return action
    spare = parse_card(options[0].discard)
    hand = view.hand.mask
    if spare == action.card \
            or min_deadwood(hand & ~(1 << spare)) != min_deadwood(hand & ~(1 << action.card)):
        return action
    for a in view.legal:
        if a.kind is action.kind and a.card == spare:
            if a.kind is ActionKind.KNOCK \
                    and _knock_deadwood(view, a) != _knock_deadwood(view, action):
                continue
            return a
    return action


def knock_limit_now(view: PlayerView, hand_points: tuple[int, int] | None, target: int,
                    exposure: float) -> int:
    """The most deadwood (0..``view.knock_limit``) that ``hard``'s learned knock rule
    (:meth:`HardBot.learned_knock`) would knock with at this moment, every lower deadwood
    included (0: gin only), the undercut risk of each taken with the layoff ``exposure`` of the
    person's best spread; ``view.knock_limit`` when ``hard`` has no learned rule (R-4.2)."""
    bot = HardBot()
    if bot.knock_weights is None:
        return view.knock_limit
    draws = read_view(view).opp_draws
    most = 0
    for dw in range(1, view.knock_limit + 1):
        risk = undercut_probability(dw, draws, exposure)
        if not bot.learned_knock(view, hand_points, target, draws, dw, risk):
            break
        most = dw
    return most


def _explain(view: PlayerView, action: Action, hand_points: tuple[int, int] | None = None,
             target: int = 100) -> Hint:
    """The numbers of the module docstring for ``action`` (``hand_points`` and ``target`` as
    for :func:`hint`: the knock rule weighs them)."""
    kind = action.kind
    hand = view.hand
    limit = view.knock_limit
    if len(hand) == 11:
        forbidden = 0 if view.taken_card is None else 1 << view.taken_card
        now = best_discard_deadwood(hand.mask, forbidden)
    else:
        now = min_deadwood(hand)
    top = view.discard_pile[-1] if view.discard_pile else None

    if kind in (ActionKind.TAKE, ActionKind.DRAW_DISCARD):
        assert top is not None
        after, then = _after_taking(view, top)
        if after == 0:
            reason = "gin"
        elif 0 < after <= limit:
            reason = "knock"
        else:
            melded = best_arrangement((hand | CardSet.of([top])).mask
                                      & ~(0 if then is None else 1 << then))
            reason = "meld" if any(top in m for m in melded.melds) else "lower"
        return Hint(action, top, reason, now, after, then, limit)

    if kind in (ActionKind.DRAW_STOCK, ActionKind.PASS):
        alt_kind = ActionKind.TAKE if view.phase is Phase.OFFER else ActionKind.DRAW_DISCARD
        alt = None
        if top is not None and any(a.kind is alt_kind for a in view.legal):
            after, then = _after_taking(view, top)
            alt = Alternative(alt_kind, top, after, then)
        if view.phase is Phase.FIFTIETH:  # the last discard, only to knock or go gin
            reason = "fiftieth_none" if alt is None else "fiftieth_pass"
        elif alt is None:
            reason = "only"
        elif taking_back(view, alt.card):
            reason = "own_discard"
        else:
            reason = "no_gain" if alt.deadwood_after >= now else "small_gain"
        card = top if kind is ActionKind.PASS else None
        return Hint(action, card, reason, now, now if kind is ActionKind.PASS else None, None,
                    limit, alternative=alt)

    if kind is ActionKind.BIG_GIN:
        return Hint(action, None, "big_gin", now, 0, None, limit)
    if kind is ActionKind.GIN:
        return Hint(action, action.card, "gin", now, 0, None, limit)
    if kind is ActionKind.KNOCK:
        return Hint(action, action.card, "knock", now, _knock_deadwood(view, action), None,
                    limit)

    # a plain discard
    assert kind is ActionKind.DISCARD and action.card is not None
    c = action.card
    after = min_deadwood(hand.mask & ~(1 << c))
    knocks = [_knock_deadwood(view, a) for a in view.legal if a.kind is ActionKind.KNOCK]
    know = read_view(view)
    if view.stock_count <= STOCK_FLOOR:  # no draw follows this discard
        if view.rules.dead_hand_rule != "fiftieth_card":
            return Hint(action, c, "last_dead", now, after, None, limit)
        p = opponent_belief(know)
        return Hint(action, c, "last_safe", now, after, None, limit,
                    danger=round(discard_danger(c, p, know.opp_known), 2))
    if knocks:
        best_knock = min(knocks)
        bot = HardBot()
        p = opponent_belief(know)
        kc = next(a.card for a in view.legal if a.kind is ActionKind.KNOCK
                  and _knock_deadwood(view, a) == best_knock)
        assert kc is not None
        kept = hand.mask & ~(1 << kc)
        exposure = min(layoff_exposure(s, p, know.opp_known)
                       for s in min_spreads(kept, best_knock))
        if bot.knock_weights is not None:
            most = knock_limit_now(view, hand_points, target, exposure)
            risk = undercut_probability(best_knock, know.opp_draws, exposure)
            if most < best_knock and not bot.learned_knock(view, hand_points, target,
                                                           know.opp_draws, best_knock, risk):
                return Hint(action, c, "wait_late" if most > 0 else "wait_gin", now, after,
                            None, limit, could_knock=best_knock, late_max=most)
        elif (know.opp_draws > bot.early_draws and best_knock > bot.late_max
              and view.stock_count > 4):
            return Hint(action, c, "wait_late", now, after, None, limit,
                        could_knock=best_knock, late_max=bot.late_max)
        risk = undercut_probability(best_knock, know.opp_draws, exposure)
        return Hint(action, c, "wait_risk", now, after, None, limit, could_knock=best_knock,
                    undercut_risk=round(risk, 2))
    if after == now:
        return Hint(action, c, "lowest", now, after, None, limit)
    taken = None if view.taken_card is None else CardSet.of([view.taken_card])
    low = parse_card(evaluate_discards(hand, taken)[0].discard)
    p = opponent_belief(know)
    odds = HardBot().draw_odds(know, p)
    exp_c = expected_after_draw(hand.mask & ~(1 << c), odds)
    exp_l = expected_after_draw(hand.mask & ~(1 << low), odds)
    cmp = Comparison(low, now, round(exp_c, 1), round(exp_l, 1),
                     round(discard_danger(c, p, know.opp_known), 2),
                     round(discard_danger(low, p, know.opp_known), 2))
    reason = "chances" if exp_c < exp_l else "safer"
    return Hint(action, c, reason, now, after, None, limit, comparison=cmp)
