"""What one seat may know (DESIGN.md principle 6): :class:`PlayerView`, :class:`PublicView`
and :class:`TableView`.

A view is the only thing a bot, the browser or an API client ever receives. A
:class:`PlayerView` holds the seat's own cards, the public history (the opponent's stock draws
and its face-down knock discard are hidden, R-3.4, R-4.3), the cards the opponent is known to
hold because it took them from the discard pile, and the legal actions when the seat is to act.
It never holds the opponent's other cards, nor the stock order. A :class:`PublicView` is a deal
as someone who does not play it sees it (a spectator, the three-player dealer who sits out, the
other partnership table): no hand at all. A :class:`TableView` is a whole table of any form
(:class:`~ginrummy.game.Game`) from one player's side (or a spectator's): the player's own deal
as a :class:`PlayerView`, every other deal of the hand as a :class:`PublicView`, the seating and
the score sheet (public on paper too).
"""

from __future__ import annotations

from dataclasses import dataclass

from .actions import Action, ActionKind
from .cards import FULL_DECK, CardSet
from .game import Game, Seating
from .hand import HandOutcome, HandState, Phase
from .rules import Rules
from .sheets import Sheet

__all__ = ["PlayerView", "ViewEvent", "view_of", "PublicView", "public_view_of", "TableView",
           "table_view"]


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
    events = _events(state, seat)
    outcome = _outcome(state, seat)
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
        history=events,
        legal=tuple(state.legal_actions()) if to_act else (),
        outcome=outcome,
    )


_HIDDEN = (ActionKind.DRAW_STOCK, ActionKind.KNOCK, ActionKind.GIN)


def _events(state: HandState, seat: int | None) -> tuple[ViewEvent, ...]:
    """The history as ``seat`` saw it (``None``: someone who does not play the deal): the
    others' stock cards and face-down knock discards hidden (R-3.4, R-4.3)."""
    return tuple(ViewEvent(e.seat, e.action.kind,
                           None if e.seat != seat and e.action.kind in _HIDDEN else e.card)
                 for e in state.history)


def _outcome(state: HandState, seat: int | None) -> HandOutcome | None:
    """The end of the deal without the face-down knock discard, unless ``seat`` made it."""
    o = state.outcome
    if o is not None and o.knocker != seat and o.knock_discard is not None:
        return HandOutcome(o.kind, o.winner, o.points, o.boxes, o.knocker, o.showdown, None)
    return o


@dataclass(frozen=True, slots=True)
class PublicView:
    """A deal as anyone at the table sees it who does not play it: no cards of either hand but
    those taken from the discard pile (R-3.4) and, at the end, the shown-down hands.

    :ivar card_counts: cards held by engine seats 0 and 1.
    :ivar known: per engine seat, the cards it took from the discard pile and still holds.
    :ivar history: every action, stock cards and face-down knock discards hidden.
    :ivar outcome: the end of the deal without the face-down knock discard, or None.
    """

    rules: Rules
    phase: Phase
    current: int
    dealer: int
    card_counts: tuple[int, int]
    known: tuple[CardSet, CardSet]
    stock_count: int
    discard_pile: tuple[int, ...]
    upcard: int
    knock_limit: int
    history: tuple[ViewEvent, ...]
    outcome: HandOutcome | None


def public_view_of(state: HandState) -> PublicView:
    """The view of ``state`` for someone who does not play it.

    >>> h = HandState(Rules.preset("standard"), 0, list(range(52)))
    >>> h.apply("pass"); h.apply("pass"); h.apply("draw stock")
    >>> v = public_view_of(h)
    >>> v.card_counts, v.stock_count, [(e.kind.value, e.card) for e in v.history][-1]
    ((10, 11), 30, ('draw_stock', None))
    """
    return PublicView(
        rules=state.rules, phase=state.phase, current=state.current, dealer=state.dealer,
        card_counts=(state.hands[0].bit_count(), state.hands[1].bit_count()),
        known=(CardSet(state.known[0]), CardSet(state.known[1])),
        stock_count=state.stock_count, discard_pile=tuple(state.discard_pile),
        upcard=state.upcard, knock_limit=state.knock_limit, history=_events(state, None),
        outcome=_outcome(state, None))


@dataclass(frozen=True, slots=True)
class TableView:
    """A table of any form from one player's side, or a spectator's (``player`` None).

    :ivar deal: the index of the deal shown to the player: their own deal of the current hand,
        else the current hand's first deal (three players: the dealer watches the deal it sits
        out); ``None`` before the first deal.
    :ivar own: the player's :class:`PlayerView` of ``deal`` when they play it, else None.
    :ivar others: ``{deal index: PublicView}`` of the current hand's deals the player does not
        play (a partnership's other table; ``deal`` itself when the player sits it out).
    :ivar seatings: who played every deal so far (public).
    :ivar sheet: the score sheet (public, as on paper; read it, do not change it).
    :ivar card_counts: ``{player: cards held}`` at the current hand's deals.
    """

    player: int | None
    scoring: str
    rules: Rules
    seats: int
    deal: int | None
    own: PlayerView | None
    others: dict[int, PublicView]
    seatings: tuple[Seating, ...]
    sheet: Sheet
    card_counts: dict[int, int]
    is_over: bool
    winners: tuple[int, ...]


def table_view(game: Game, player: int | None) -> TableView:
    """What ``player`` (a seat 0..seats-1, or ``None`` for a spectator) may know of ``game``.

    :raises ValueError: ``player`` is not a seat of the table.

    >>> g = Game(Rules.preset("partnership"), scoring="partnership")
    >>> for d in (0, 1):
    ...     _ = g.new_hand(list(range(52)), dealer=d)
    >>> v = table_view(g, 2)
    >>> v.deal, v.own.seat, sorted(v.others), v.card_counts
    (1, 0, [0], {0: 10, 1: 10, 2: 10, 3: 10})
    """
    if player is not None and (isinstance(player, bool) or player not in range(game.seats)):
        raise ValueError(f"player must be a seat 0..{game.seats - 1} or None, not {player!r}")
    current: list[int] = []
    if game.deals:
        hand = game.seatings[-1].hand
        current = [i for i, s in enumerate(game.seatings) if s.hand == hand]
    mine = [i for i in current if player is not None and game.seatings[i].plays(player)]
    deal = mine[0] if mine else (current[0] if current else None)
    own = None
    if mine:
        seat = game.seatings[mine[0]].seat_of(player)  # type: ignore[arg-type]
        assert seat is not None
        own = view_of(game.deals[mine[0]], seat)
    others = {i: public_view_of(game.deals[i]) for i in current if i not in mine}
    counts = {}
    for i in current:
        h = game.deals[i]
        for k, p in enumerate(game.seatings[i].players):
            counts[p] = h.hands[k].bit_count()
    return TableView(player, game.scoring, game.rules, game.seats, deal, own, others,
                     tuple(game.seatings), game.sheet, counts, game.is_over, game.winners())
