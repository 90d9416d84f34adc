"""One deal as a state machine (RULES.md sections 2-7): :class:`HandState`.

All chance is in the deck order given at construction (DESIGN.md principle 5); the engine never
shuffles on its own. Seats are 0 and 1.

>>> from .cards import parse_cards
>>> deck = parse_cards(
...     "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH "
...     "AD 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC")
>>> h = HandState(Rules.preset("standard"), dealer=0, deck=deck)
>>> h.phase, h.current, [a.text for a in h.legal_actions()]
(<Phase.OFFER: 'offer'>, 1, ['take', 'pass'])
>>> h.apply(Action.parse("pass")); h.current
0
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from .actions import BIG_GIN, DRAW_DISCARD, DRAW_STOCK, PASS, TAKE, Action, ActionKind
from .cards import POINTS, CardSet, card_rank, card_suit, card_text, parse_card
from .errors import IllegalActionError, InvalidNotationError
from .melds import (
    Arrangement,
    _discard_deadwoods,
    default_spread,
    min_deadwood_mask,
    validate_spread,
)
from .rules import Rules
from .scoring import Showdown, score_showdown

__all__ = ["Phase", "HandState", "HandOutcome", "Event", "STOCK_FLOOR", "oklahoma_limit"]

#: the last two stock cards are never drawn (R-8.1).
STOCK_FLOOR = 2
# the discard, knock (default spread) and gin of every card: equal values, made once
_DISCARDS = tuple(Action(ActionKind.DISCARD, c) for c in range(52))
_KNOCKS = tuple(Action(ActionKind.KNOCK, c) for c in range(52))
_GINS = tuple(Action(ActionKind.GIN, c) for c in range(52))


class Phase(StrEnum):
    """The phases of a deal (DESIGN.md principle 3)."""

    OFFER = "offer"  #: first-turn offer of the upcard (R-3.1)
    DRAW = "draw"  #: an ordinary draw (R-3.3), or the forced stock draw after both passed
    DISCARD = "discard"  #: holding 11: discard, knock, gin or big gin
    FIFTIETH = "fiftieth"  #: R-8.2: take the last discard only to knock or gin, or pass
    DONE = "done"


@dataclass(frozen=True, slots=True)
class Event:
    """One applied action as history: ``card`` is the card drawn, taken or discarded (for a
    stock draw, the drawn card, which only its drawer may see; for a knock, the face-down
    knock discard)."""

    seat: int
    action: Action
    card: int | None


@dataclass(frozen=True, slots=True)
class HandOutcome:
    """How a deal ended. ``kind``: knock | gin | big_gin | undercut | tie | dead.

    ``winner`` is a seat or ``None`` (dead hand, tie); ``points`` what it scores; ``boxes`` the
    boxes it earns; ``showdown`` is set unless the hand is dead; ``knocker`` is the seat that
    knocked (or went gin / big gin).
    """

    kind: str
    winner: int | None
    points: int
    boxes: int
    knocker: int | None
    showdown: Showdown | None
    knock_discard: int | None


def oklahoma_limit(rules: Rules, upcard: int) -> int:
    """The knock limit of a deal (O-1, O-2): the upcard's value under Oklahoma, else the rules'
    limit. An ace upcard means gin only (limit 0) unless ``oklahoma_ace == "one"``."""
    if not rules.oklahoma:
        return rules.knock_limit
    if card_rank(upcard) == 0:
        return 1 if rules.oklahoma_ace == "one" else 0
    return POINTS[upcard]


class HandState:
    """One deal between seats 0 and 1.

    :param rules: the table's rules.
    :param dealer: seat 0 or 1.
    :param deck: the 52 cards in deal order, as card ints or card texts (``"7H"``, as a fairness
        record publishes them): ``deck[0]`` goes to the non-dealer, then alternately (R-2.2);
        ``deck[20]`` is the upcard; ``deck[21]`` is the top of the stock.
    :raises InvalidNotationError: if the deck is not a permutation of the 52 cards.
    """

    __slots__ = (
        "rules", "dealer", "deck", "hands", "stock_pos", "discard_pile", "phase", "current",
        "offer_passes", "forced_stock", "taken_card", "drawn_card", "knock_limit", "upcard",
        "history", "outcome", "known", "must_knock",
    )

    def __init__(self, rules: Rules, dealer: int, deck: Sequence[int | str]) -> None:
        if dealer not in (0, 1):
            raise InvalidNotationError(f"dealer must be seat 0 or 1, not {dealer!r}")
        d = tuple(parse_card(c) if isinstance(c, str) else c for c in deck)
        if any(isinstance(c, bool) or not isinstance(c, int) for c in d):
            raise InvalidNotationError("a deck is 52 cards: card ints 0..51 or texts like 7H")
        if len(d) != 52 or sorted(d) != list(range(52)):
            raise InvalidNotationError("a deck must hold each of the 52 cards exactly once")
        self.rules = rules
        self.dealer = dealer
        self.deck = d
        nd = 1 - dealer
        hands = [0, 0]
        for i in range(20):
            seat = nd if i % 2 == 0 else dealer
            hands[seat] |= 1 << d[i]
        self.hands = hands
        self.upcard = d[20]
        self.discard_pile: list[int] = [d[20]]
        self.stock_pos = 21
        self.phase = Phase.OFFER
        self.current = nd
        self.offer_passes = 0
        self.forced_stock = False
        self.taken_card: int | None = None  # taken from the discard pile this turn
        self.drawn_card: int | None = None
        self.knock_limit = oklahoma_limit(rules, d[20])
        self.history: list[Event] = []
        self.outcome: HandOutcome | None = None
        self.known = [0, 0]  # cards each seat took from the discard pile and still holds
        self.must_knock = False

    # ----------------------------------------------------------------------------------- queries
    @property
    def non_dealer(self) -> int:
        return 1 - self.dealer

    @property
    def stock_count(self) -> int:
        """Cards left in the stock (31 after the deal)."""
        return 52 - self.stock_pos

    def hand(self, seat: int) -> CardSet:
        """The cards seat ``seat`` holds."""
        return CardSet(self.hands[seat])

    def stock(self) -> list[int]:
        """The stock from top to bottom (hidden information)."""
        return list(self.deck[self.stock_pos:])

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.DONE

    def discard_top(self) -> int | None:
        return self.discard_pile[-1] if self.discard_pile else None

    def _knock_possible(self, mask: int, forbidden: int) -> bool:
        """Any legal knock or gin from these 11 cards (R-1.6, R-3.6)."""
        limit = self.knock_limit
        m = mask & ~forbidden
        while m:
            low = m & -m
            m ^= low
            if min_deadwood_mask(mask ^ low) <= limit:
                return True
        return False

    def legal_actions(self) -> list[Action]:
        """Every legal action of the seat to act (``current``); empty when the hand is over.

        Knocks are listed with their default spread (R-4.5); any other legal spread may be
        applied too (:meth:`verify`).
        """
        ph = self.phase
        if ph is Phase.OFFER:
            return [TAKE, PASS]
        if ph is Phase.DRAW:
            out = [DRAW_STOCK]
            if not self.forced_stock and self.discard_pile:
                out.append(DRAW_DISCARD)
            return out
        if ph is Phase.FIFTIETH:
            top = self.discard_pile[-1]
            mask = self.hands[self.current] | 1 << top
            return [DRAW_DISCARD, PASS] if self._knock_possible(mask, 1 << top) else [PASS]
        if ph is Phase.DISCARD:
            mask = self.hands[self.current]
            taken = self.taken_card
            out = []
            knocks = []
            limit = self.knock_limit
            plain = not self.must_knock
            for c, dw in _discard_deadwoods(mask).items():  # in card order
                if c == taken:
                    continue
                if plain:
                    out.append(_DISCARDS[c])
                if dw == 0:
                    knocks.append(_GINS[c])
                elif dw <= limit:
                    knocks.append(_KNOCKS[c])
            out.extend(knocks)
            if self.rules.big_gin_bonus is not None and min_deadwood_mask(mask) == 0:
                out.append(BIG_GIN)
            return out
        return []

    def verify(self, action: Action) -> None:
        """Check that ``action`` is legal now. :raises IllegalActionError: with the reason."""
        if not isinstance(action, Action) or not isinstance(action.kind, ActionKind):
            raise IllegalActionError(f"not an action: {action!r}")
        ph = self.phase
        k = action.kind
        with_card = k in (ActionKind.DISCARD, ActionKind.KNOCK, ActionKind.GIN)
        c0 = action.card
        if with_card and (isinstance(c0, bool) or not isinstance(c0, int) or not 0 <= c0 < 52):
            raise IllegalActionError(f"{k.value} needs a card 0..51, not {c0!r}")
        if not with_card and c0 is not None:
            raise IllegalActionError(f"{k.value} takes no card")
        if action.melds is not None and k is not ActionKind.KNOCK:
            raise IllegalActionError("only a knock may name its spread", "spread_only_knock")
        if ph is Phase.DONE:
            raise IllegalActionError("the hand is over", "hand_over")
        if ph is Phase.OFFER:
            if k not in (ActionKind.TAKE, ActionKind.PASS):
                raise IllegalActionError("first-turn offer: take the upcard or pass (R-3.1)",
                                         "offer_take_or_pass")
            return
        if ph is Phase.FIFTIETH:
            if k is ActionKind.PASS:
                return
            if k is not ActionKind.DRAW_DISCARD:
                raise IllegalActionError("the stock is exhausted: take the discard to knock or "
                                         "go gin at once, or pass (R-8.2)",
                                         "fiftieth_take_or_pass")
            if DRAW_DISCARD not in self.legal_actions():
                raise IllegalActionError("that discard gives no knock or gin (R-8.2)",
                                         "fiftieth_no_gain")
            return
        if ph is Phase.DRAW:
            if k is ActionKind.DRAW_STOCK:
                return
            if k is ActionKind.DRAW_DISCARD:
                if self.forced_stock:
                    raise IllegalActionError("both passed the upcard: draw from the stock (R-3.1)",
                                             "stock_after_passes")
                return
            raise IllegalActionError("draw first: from the stock or the discard pile (R-3.3)",
                                     "draw_first")
        # DISCARD phase
        if k in (ActionKind.TAKE, ActionKind.PASS, ActionKind.DRAW_STOCK, ActionKind.DRAW_DISCARD):
            raise IllegalActionError("you already drew: discard, knock or go gin", "already_drew")
        mask = self.hands[self.current]
        if k is ActionKind.BIG_GIN:
            if self.rules.big_gin_bonus is None:
                raise IllegalActionError("big gin is not played at this table", "big_gin_off")
            if min_deadwood_mask(mask) != 0:
                raise IllegalActionError(
                    f"not big gin: deadwood {min_deadwood_mask(mask)} with 11 cards",
                    "not_big_gin", deadwood=min_deadwood_mask(mask))
            return
        c = action.card
        assert c is not None
        if not mask >> c & 1:
            raise IllegalActionError(f"{card_text(c)} is not in your hand", "not_in_hand",
                                     card=card_text(c))
        if c == self.taken_card:
            raise IllegalActionError(f"you may not discard {card_text(c)}: you took it from the "
                                     "discard pile this turn (R-3.6)", "taken_card",
                                     card=card_text(c))
        if k is ActionKind.DISCARD:
            if self.must_knock:
                raise IllegalActionError("you took the last discard: knock or go gin (R-8.2)",
                                         "must_knock")
            return
        dw = min_deadwood_mask(mask ^ (1 << c))
        if k is ActionKind.GIN:
            if dw != 0:
                raise IllegalActionError(f"not gin: deadwood {dw} after discarding {card_text(c)}",
                                         "not_gin", deadwood=dw, card=card_text(c))
            return
        # knock: the shown spread's deadwood must be within the limit; a spread with no
        # deadwood is a gin, allowed under any limit (O-3, SG)
        shown = dw
        if action.melds is not None:
            try:
                shown = validate_spread(CardSet(mask ^ (1 << c)), action.melds).deadwood_points
            except InvalidNotationError as e:
                raise IllegalActionError(str(e), e.reason, **e.params) from None
        if shown == 0:
            return
        if self.knock_limit == 0:
            straight = self.rules.knock_limit == 0
            reason = ("straight gin: no knocking, only gin" if straight
                      else "Oklahoma ace upcard: gin only (O-2)")
            raise IllegalActionError(f"may not knock: {reason}",
                                     "no_knocking" if straight else "gin_only")
        if shown > self.knock_limit:
            raise IllegalActionError(f"may not knock: deadwood {shown} > {self.knock_limit}",
                                     "over_knock_limit", deadwood=shown, limit=self.knock_limit)

    def is_legal(self, action: Action | str) -> bool:
        """Whether ``action`` (an Action or its text) is legal now; malformed text is not."""
        try:
            self.verify(Action.parse(action) if isinstance(action, str) else action)
        except (IllegalActionError, InvalidNotationError):
            return False
        return True

    # ------------------------------------------------------------------------------------ apply
    def apply(self, action: Action | str) -> None:
        """Apply a legal action of the seat to act.

        :raises IllegalActionError: the action is illegal now (the state is unchanged).
        :raises InvalidNotationError: the action text is malformed (the state is unchanged).
        """
        a = Action.parse(action) if isinstance(action, str) else action
        self.verify(a)
        self._apply(a)

    def _apply(self, a: Action) -> None:
        seat = self.current
        k = a.kind
        card: int | None = None
        if k is ActionKind.TAKE or k is ActionKind.DRAW_DISCARD:
            card = self.discard_pile.pop()
            self.hands[seat] |= 1 << card
            self.known[seat] |= 1 << card
            self.taken_card = card
            self.drawn_card = card
            if self.phase is Phase.FIFTIETH:
                self.must_knock = True
            self.phase = Phase.DISCARD
        elif k is ActionKind.PASS:
            if self.phase is Phase.FIFTIETH:
                self.history.append(Event(seat, a, None))
                self._end_dead()
                return
            self.offer_passes += 1
            if self.offer_passes == 1:
                self.current = self.dealer
            else:
                self.current = self.non_dealer
                self.phase = Phase.DRAW
                self.forced_stock = True
        elif k is ActionKind.DRAW_STOCK:
            card = self.deck[self.stock_pos]
            self.stock_pos += 1
            self.hands[seat] |= 1 << card
            self.taken_card = None
            self.drawn_card = card
            self.phase = Phase.DISCARD
        elif k is ActionKind.DISCARD:
            card = a.card
            assert card is not None
            self.hands[seat] &= ~(1 << card)
            self.known[seat] &= ~(1 << card)
            self.discard_pile.append(card)
            self.history.append(Event(seat, a, card))
            self.taken_card = None
            self.drawn_card = None
            self.forced_stock = False
            self.current = 1 - seat
            if self.stock_count <= STOCK_FLOOR:
                if self.rules.dead_hand_rule == "fiftieth_card":
                    self.phase = Phase.FIFTIETH
                else:
                    self._end_dead()
            else:
                self.phase = Phase.DRAW
            return
        else:  # knock, gin, big gin
            self._showdown(seat, a)
            return
        self.history.append(Event(seat, a, card))

    def _end_dead(self) -> None:
        self.phase = Phase.DONE
        self.outcome = HandOutcome("dead", None, 0, 0, None, None, None)

    def _showdown(self, seat: int, a: Action) -> None:
        mask = self.hands[seat]
        big = a.kind is ActionKind.BIG_GIN
        if big:
            spread = default_spread(CardSet(mask))
            discard = None
        else:
            discard = a.card
            assert discard is not None
            kept = CardSet(mask & ~(1 << discard))
            if a.melds is not None:
                spread = validate_spread(kept, a.melds)
            else:
                seen = CardSet(mask | self._pile_mask())
                spread = default_spread(kept, seen)
        spade = (self.rules.oklahoma and self.rules.oklahoma_spade_double
                 and card_suit(self.upcard) == 0)
        sd = score_showdown(self.rules, spread, CardSet(self.hands[1 - seat]), big_gin=big,
                            knock_limit=self.knock_limit, spade_double=spade)
        if discard is not None:  # only now, so that a failure above changes nothing
            self.hands[seat] = mask & ~(1 << discard)
            self.known[seat] &= ~(1 << discard)
        winner = None if sd.winner is None else (seat if sd.winner == "knocker" else 1 - seat)
        self.history.append(Event(seat, a, discard))
        self.phase = Phase.DONE
        self.drawn_card = None
        self.taken_card = None
        self.outcome = HandOutcome(sd.kind, winner, sd.points, sd.boxes, seat, sd, discard)

    def _pile_mask(self) -> int:
        m = 0
        for c in self.discard_pile:
            m |= 1 << c
        return m

    # ------------------------------------------------------------------------------------ misc
    def clone(self) -> HandState:
        """An independent copy (for search)."""
        h = HandState.__new__(HandState)
        for name in HandState.__slots__:
            setattr(h, name, getattr(self, name))
        h.hands = list(self.hands)
        h.discard_pile = list(self.discard_pile)
        h.history = list(self.history)
        h.known = list(self.known)
        return h

    def arrangement(self, seat: int) -> Arrangement:
        """The best arrangement of a seat's cards (10, or 11 while it holds 11)."""
        from .melds import best_arrangement

        return best_arrangement(CardSet(self.hands[seat]))

    def __repr__(self) -> str:
        return (f"<HandState {self.phase.value} seat {self.current} to act, stock "
                f"{self.stock_count}, hands {self.hand(0)} | {self.hand(1)}>")
