"""Hand replay: a finished deal step by step, face up, with its markers (PRODUCT.md "Hand
replay").

Built from a deal's record (rules, dealer, deck, actions: :class:`~ginrummy.records.HandRecord`),
exactly, by replaying it on :class:`~ginrummy.hand.HandState`. Only a FINISHED deal can be
replayed: a deal in play has hidden cards (the stock order, the opponent's hand), and a replay
shows everything (:class:`HandNotOverError` otherwise).

Frame 0 is the deal (R-2.2, R-2.3); frame ``i`` (1-based) is the table after action ``i``. Each
frame shows both hands with their best arrangement (R-1.5; while a seat holds 11 cards, the best
10 over its legal discards, R-1.6 and R-3.6, with the left-out card as ``spare``), the discard
pile, the stock count and the next stock card.

Markers (:class:`Marker`):

* ``missed_gin``: a seat holding 11 cards could have gone gin (a ``gin`` or ``big gin`` action
  was legal, R-4.6, R-5.3) and did something else (knocking with deadwood or discarding; R-4.4
  allows it, but it is worth seeing).
* ``missed_knock``: a seat holding 11 cards could have knocked (R-4.2; no gin possible) and
  discarded instead. Often good play (waiting for gin); shown as information.
* ``undercut``: the knock was undercut (R-7.4): the defender's deadwood after layoffs was not
  more than the knocker's.

>>> from .cards import parse_cards
>>> nd = parse_cards("AS 2S 3S 4H 5H 6H 7C 8C 9C KD")  # the non-dealer's cards (seat 1)
>>> de = parse_cards("TS JS 2D 4D 6D 8D TD 3C 5C KH")  # the dealer's (seat 0)
>>> deck = [c for pair in zip(nd, de) for c in pair] + parse_cards("QD")  # QD: the upcard
>>> deck += [c for c in range(52) if c not in deck]
>>> r = replay_hand(Rules.preset("standard"), 0, deck, ["take", "knock KD"])
>>> f = r.frames[1]  # after the non-dealer took the upcard: 11 cards, KD the spare
>>> len(r.frames), f.hands[1].cards.format(), card_text(f.hands[1].spare or 0)
(3, 'AS 2S 3S 4H 5H 6H QD KD 7C 8C 9C', 'KD')
>>> r.frames[2].action.text, r.outcome.kind, r.outcome.points, [m.kind for m in r.markers]
('knock KD', 'knock', 58, [])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .actions import Action, ActionKind
from .cards import CardSet, card_text
from .errors import GinRummyError
from .hand import HandOutcome, HandState, Phase
from .melds import Arrangement, best_arrangement, evaluate_discards
from .records import HandRecord
from .rules import Rules

__all__ = ["HandReplay", "Frame", "SeatHand", "Marker", "HandNotOverError", "MARKER_KINDS",
           "replay_hand", "seat_hand"]

#: the kinds of :class:`Marker`, in the order they are listed at one step.
MARKER_KINDS = ("missed_gin", "missed_knock", "undercut")


class HandNotOverError(GinRummyError):
    """The deal is not over: it cannot be replayed face up (its cards are hidden)."""


@dataclass(frozen=True, slots=True)
class SeatHand:
    """One seat's cards at a frame, face up.

    :ivar cards: every card the seat holds (10, or 11 between its draw and its discard).
    :ivar arrangement: the best arrangement (R-1.5) of the 10 cards, or of the best 10 of 11
        over the legal discards (R-1.6, R-3.6); on the last frame of a knock, the knocker's
        spread as shown (R-4.5).
    :ivar spare: holding 11, the card left out of ``arrangement`` (the best discard), else
        ``None``.
    """

    cards: CardSet
    arrangement: Arrangement
    spare: int | None

    def to_json(self) -> dict[str, Any]:
        """``{"cards", "melds", "deadwood", "deadwood_points", "spare"}`` in card texts."""
        return {"cards": self.cards.texts(), **self.arrangement.to_json(),
                "spare": None if self.spare is None else card_text(self.spare)}


@dataclass(frozen=True, slots=True)
class Marker:
    """Something worth seeing at one step.

    :ivar step: the frame it belongs to (the frame after the action concerned).
    :ivar kind: one of :data:`MARKER_KINDS`.
    :ivar seat: the seat concerned: who missed the gin or the knock; the defender who undercut.
    :ivar cards: ``missed_gin``: the discards that gave gin (none for a big gin);
        ``missed_knock``: the discards that knock with the least deadwood (``deadwood_points``;
        other discards may have allowed a knock with more); ``undercut``: empty.
    :ivar deadwood_points: ``missed_knock``: the least deadwood a knock could show;
        ``undercut``: the defender's deadwood after layoffs (points); else 0.
    """

    step: int
    kind: str
    seat: int
    cards: tuple[int, ...] = ()
    deadwood_points: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"step": self.step, "kind": self.kind, "seat": self.seat,
                "cards": [card_text(c) for c in self.cards],
                "deadwood_points": self.deadwood_points}


@dataclass(frozen=True, slots=True)
class Frame:
    """The table after one step, everything face up.

    :ivar step: 0 for the deal, else the number of actions applied (1-based).
    :ivar seat: who acted (``None`` at the deal).
    :ivar action: what that seat did (``None`` at the deal).
    :ivar card: the card of the action: drawn (stock), taken (upcard or discard), discarded, or
        the face-down knock discard (R-4.3); ``None`` for a pass or a big gin.
    :ivar hands: the two seats' hands (tuple of two :class:`SeatHand`, indexed by seat).
    :ivar discard_pile: bottom to top (card ints).
    :ivar stock_count: cards left in the stock (31 after the deal, R-2.3).
    :ivar next_stock: the top card of the stock (who draws from the stock next gets it).
    :ivar phase: the phase after the step; ``to_act`` the seat to act (``None`` once over).
    :ivar markers: the markers of this step.
    """

    step: int
    seat: int | None
    action: Action | None
    card: int | None
    hands: tuple[SeatHand, SeatHand]
    discard_pile: tuple[int, ...]
    stock_count: int
    next_stock: int | None
    phase: Phase
    to_act: int | None
    markers: tuple[Marker, ...]

    def to_json(self) -> dict[str, Any]:
        return {"step": self.step, "seat": self.seat,
                "action": None if self.action is None else self.action.text,
                "type": "deal" if self.action is None else self.action.kind.value,
                "card": None if self.card is None else card_text(self.card),
                "hands": [h.to_json() for h in self.hands],
                "discard_pile": [card_text(c) for c in self.discard_pile],
                "stock_count": self.stock_count,
                "next_stock": None if self.next_stock is None else card_text(self.next_stock),
                "phase": self.phase.value, "to_act": self.to_act,
                "markers": [m.to_json() for m in self.markers]}


def seat_hand(h: HandState, seat: int) -> SeatHand:
    """``seat``'s cards in ``h`` arranged as a frame shows them (holding 11: the best 10 over
    its legal discards and the ``spare``)."""
    cards = h.hand(seat)
    if len(cards) == 11:
        forbidden = None
        if seat == h.current and h.taken_card is not None:
            forbidden = CardSet.of([h.taken_card])
        options = evaluate_discards(cards, forbidden)
        if options:
            best = options[0]
            spare = next(iter(cards - _cards_of(best.arrangement)))
            return SeatHand(cards, best.arrangement, spare)
    return SeatHand(cards, best_arrangement(cards), None)


def _cards_of(a: Arrangement) -> CardSet:
    out = a.deadwood
    for m in a.melds:
        out = out | m
    return out


def _frame(h: HandState, step: int, seat: int | None, action: Action | None, card: int | None,
           markers: tuple[Marker, ...]) -> Frame:
    hands = (seat_hand(h, 0), seat_hand(h, 1))
    o = h.outcome
    if o is not None and o.showdown is not None and o.knocker is not None:
        k = o.knocker  # the knocker's spread as shown
        shown = SeatHand(hands[k].cards, o.showdown.knocker_spread, None)
        hands = (shown, hands[1]) if k == 0 else (hands[0], shown)
    return Frame(step, seat, action, card, hands, tuple(h.discard_pile), h.stock_count,
                 h.deck[h.stock_pos] if h.stock_pos < len(h.deck) else None, h.phase,
                 None if h.is_over else h.current, markers)


def _missed(h: HandState, step: int, action: Action, after: HandState) -> list[Marker]:
    """The ``missed_gin`` / ``missed_knock`` markers of ``action``, played in ``h``."""
    if h.phase is not Phase.DISCARD:
        return []
    legal = h.legal_actions()
    seat = h.current
    gins = [a for a in legal if a.kind in (ActionKind.GIN, ActionKind.BIG_GIN)]
    done = after.outcome
    if gins:
        if done is not None and done.kind in ("gin", "big_gin"):
            return []
        return [Marker(step, "missed_gin", seat,
                       tuple(a.card for a in gins if a.card is not None))]
    knocks = [a for a in legal if a.kind is ActionKind.KNOCK]
    if knocks and action.kind is ActionKind.DISCARD:
        mask = h.hands[seat]
        left = {a.card: best_arrangement(CardSet(mask & ~(1 << a.card))).deadwood_points
                for a in knocks if a.card is not None}
        best = min(left.values())
        return [Marker(step, "missed_knock", seat,
                       tuple(c for c, dw in left.items() if dw == best), best)]
    return []


@dataclass(frozen=True, slots=True)
class HandReplay:
    """A finished deal, face up, step by step.

    :ivar rules: the table's rules; ``dealer`` the dealer seat; ``deck`` the 52 card ints in
        deal order (R-2.2: ``deck[20]`` the upcard).
    :ivar frames: ``len(actions) + 1`` frames: the deal, then one after each action.
    :ivar markers: every frame's markers, in step order.
    :ivar outcome: how the deal ended (kind, winner, points, the knocker's spread and the
        defender's melds, layoffs and deadwood: R-6.x, R-7.x), as the engine scored it.
    :ivar knock_limit: the deal's knock limit (O-1: the upcard's value under Oklahoma).
    """

    rules: Rules
    dealer: int
    deck: tuple[int, ...]
    frames: tuple[Frame, ...]
    markers: tuple[Marker, ...]
    outcome: HandOutcome
    knock_limit: int

    @classmethod
    def of(cls, state: HandState) -> HandReplay:
        """The replay of a finished deal. :raises HandNotOverError: the deal is in play."""
        return cls.of_record(HandRecord.of(state))

    @classmethod
    def of_record(cls, record: HandRecord) -> HandReplay:
        """The replay of a finished deal's record.

        :raises HandNotOverError: the actions do not end the deal.
        :raises GinRummyError: a malformed deck or an illegal action (as
            :meth:`HandRecord.replay`).
        """
        return replay_hand(record.rules, record.dealer, record.deck, record.actions)

    def to_json(self) -> dict[str, Any]:
        """The replay as JSON (card texts; seats 0 and 1), the shape of docs/api.md
        ("Hand replay")."""
        return {"rules": self.rules.to_dict(), "dealer": self.dealer,
                "deck": [card_text(c) for c in self.deck],
                "upcard": card_text(self.deck[20]), "knock_limit": self.knock_limit,
                "frames": [f.to_json() for f in self.frames],
                "markers": [m.to_json() for m in self.markers],
                "result": _outcome_json(self.outcome)}


def _outcome_json(o: HandOutcome) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": o.kind, "winner": o.winner, "points": o.points,
                           "boxes": o.boxes, "knocker": o.knocker,
                           "knock_discard": None if o.knock_discard is None
                           else card_text(o.knock_discard),
                           "doubled": False, "breakdown": [], "hands": []}
    sd = o.showdown
    if sd is not None and o.knocker is not None:
        k = sd.knocker_spread
        kmelds = [m.texts() for m in k.melds]
        d = sd.defender
        hands = [{"seat": o.knocker, "role": "knocker", "melds": kmelds,
                  "deadwood": k.deadwood.texts(), "deadwood_points": k.deadwood_points,
                  "layoffs": []},
                 {"seat": 1 - o.knocker, "role": "defender", "melds": [m.texts() for m in d.melds],
                  "deadwood": d.deadwood.texts(), "deadwood_points": d.deadwood_points,
                  "layoffs": [{"card": lo.card, "onto": kmelds[lo.onto]} for lo in d.layoffs]}]
        out["hands"] = sorted(hands, key=lambda x: x["seat"])
        out["breakdown"] = [{"code": c, "points": p} for c, p in sd.breakdown]
        out["doubled"] = sd.doubled
    return out


def replay_hand(rules: Rules, dealer: int, deck: Sequence[int],
                actions: Sequence[str | Action]) -> HandReplay:
    """The replay of one finished deal: ``deck`` (52 card ints in deal order) and ``actions``
    (texts or :class:`Action`) as in a :class:`~ginrummy.records.HandRecord`.

    :raises HandNotOverError: the actions do not end the deal (nothing of it is shown).
    :raises GinRummyError: a malformed deck, or an illegal or malformed action.
    """
    h = HandState(rules, dealer, deck)
    frames = [_frame(h, 0, None, None, None, ())]
    for i, a in enumerate(actions, start=1):
        if h.is_over:
            raise HandNotOverError(f"action {i} comes after the end of the deal")
        act = Action.parse(a) if isinstance(a, str) else a
        before = h.clone()
        seat = h.current
        h.apply(act)
        markers = _missed(before, i, act, h)
        o = h.outcome
        if o is not None and o.kind == "undercut" and o.knocker is not None:
            assert o.showdown is not None
            markers.append(Marker(i, "undercut", 1 - o.knocker, (),
                                  o.showdown.defender_deadwood_points))
        frames.append(_frame(h, i, seat, act, h.history[-1].card, tuple(markers)))
    if not h.is_over or h.outcome is None:
        raise HandNotOverError("the deal is not over: only a finished deal can be replayed")
    return HandReplay(rules, dealer, h.deck, tuple(frames),
                      tuple(m for f in frames for m in f.markers), h.outcome, h.knock_limit)
