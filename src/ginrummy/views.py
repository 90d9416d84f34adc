"""What one seat may know (DESIGN.md principle 6): :class:`PlayerView`.

A view is the only thing a bot, the browser or an API client ever receives. It holds the seat's
own cards, the public history (the opponent's stock draws and its face-down knock discard are
hidden, R-3.4, R-4.3), the cards the opponent is known to hold because it took them from the
discard pile, and the legal actions when the seat is to act. It never holds the opponent's
other cards, nor the stock order.
"""

from __future__ import annotations

from dataclasses import dataclass

from .actions import Action, ActionKind
from .cards import FULL_DECK, CardSet
from .hand import HandOutcome, HandState, Phase
from .rules import Rules

__all__ = ["PlayerView", "ViewEvent", "view_of"]


@dataclass(frozen=True, slots=True)
class ViewEvent:
    """One event as ``seat`` saw it: ``card`` is None where it was hidden from the viewer."""

    seat: int
    kind: ActionKind
    card: int | None


@dataclass(frozen=True, slots=True)
class PlayerView:
    """One seat's knowledge of a deal.

    :ivar seat: the viewer (0 or 1).
    :ivar hand: the viewer's cards (10, or 11 while it must discard).
    :ivar opponent_known: cards the opponent took from the discard pile and still holds.
    :ivar discard_pile: face-up discards, bottom first (the last is the top).
    :ivar taken_card: the card the viewer took from the discard pile this turn (R-3.6).
    :ivar drawn_card: the card the viewer drew this turn, or None.
    :ivar legal: the viewer's legal actions (empty unless it is to act).
    :ivar outcome: the end of the deal as the viewer may see it (the opponent's face-down knock
        discard removed), or None.
    """

    seat: int
    rules: Rules
    phase: Phase
    current: int
    dealer: int
    hand: CardSet
    opponent_card_count: int
    opponent_known: CardSet
    stock_count: int
    discard_pile: tuple[int, ...]
    upcard: int
    knock_limit: int
    taken_card: int | None
    drawn_card: int | None
    history: tuple[ViewEvent, ...]
    legal: tuple[Action, ...]
    outcome: HandOutcome | None

    @property
    def to_act(self) -> bool:
        return self.current == self.seat and self.phase is not Phase.DONE

    def unseen(self) -> CardSet:
        """Cards the viewer cannot place: in the opponent's hand (beyond the known ones), in the
        stock, or a face-down knock discard."""
        m = FULL_DECK & ~self.hand.mask & ~self.opponent_known.mask
        for c in self.discard_pile:
            m &= ~(1 << c)
        for e in self.history:
            if e.seat == self.seat and e.kind in (ActionKind.KNOCK, ActionKind.GIN) \
                    and e.card is not None:
                m &= ~(1 << e.card)  # the viewer's own face-down knock discard
        return CardSet(m)


def view_of(state: HandState, seat: int) -> PlayerView:
    """The view of ``state`` for ``seat`` (0 or 1).

    >>> from .cards import parse_cards
    >>> h = HandState(Rules.preset("standard"), 0, list(range(52)))
    >>> v = view_of(h, 1)
    >>> len(v.hand), v.opponent_card_count, v.stock_count, [a.text for a in v.legal]
    (10, 10, 31, ['take', 'pass'])
    """
    if seat not in (0, 1):
        raise ValueError(f"seat must be 0 or 1, not {seat!r}")
    opp = 1 - seat
    events = []
    for e in state.history:
        k = e.action.kind
        card = e.card
        if e.seat != seat and k in (ActionKind.DRAW_STOCK, ActionKind.KNOCK, ActionKind.GIN):
            card = None  # the opponent's stock card and face-down knock discard
        events.append(ViewEvent(e.seat, k, card))
    outcome = state.outcome
    if outcome is not None and outcome.knocker == opp and outcome.knock_discard is not None:
        outcome = HandOutcome(outcome.kind, outcome.winner, outcome.points, outcome.boxes,
                              outcome.knocker, outcome.showdown, None)
    to_act = state.current == seat and not state.is_over
    return PlayerView(
        seat=seat,
        rules=state.rules,
        phase=state.phase,
        current=state.current,
        dealer=state.dealer,
        hand=CardSet(state.hands[seat]),
        opponent_card_count=state.hands[opp].bit_count(),
        opponent_known=CardSet(state.known[opp]),
        stock_count=state.stock_count,
        discard_pile=tuple(state.discard_pile),
        upcard=state.upcard,
        knock_limit=state.knock_limit,
        taken_card=state.taken_card if to_act else None,
        drawn_card=state.drawn_card if to_act else None,
        history=tuple(events),
        legal=tuple(state.legal_actions()) if to_act else (),
        outcome=outcome,
    )
