"""The engine side of a table, for every form of the game: :class:`TableEngine`, one
:class:`ginrummy.game.Game` (standard, Hollywood, three players, partnership) with what the
server adds to it: the numbers of its events (:mod:`ginrummy.web.tables.numbering`), its deals as
stored, its replay from them, and its computers moved by the engine's one loop
(:func:`ginrummy.bots.play.advance`).

Seats are players: 0..n-1 (docs/tables.md). Which seats are people and which computers is the
service's business: :meth:`TableEngine.advance` takes a bot (or ``None``) per seat and the
random source of each move.

A partnership whose other table is played by computers only (one person, at seat 0) is
*paced*: the other table keeps pace with the person's (after each answer it has made as many
moves, and it finishes with it), and its events are nobody's stream (not numbered). With
people at both tables both deals proceed as their movers act, every event is numbered in the
order it happened, and the table of each action is stored with the game (``games.turns``: the
table, ``0`` or ``1``, of each entry of :attr:`ginrummy.game.Game.order`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ...actions import Action
from ...bots import Bot
from ...bots.play import OnFault, advance
from ...cards import parse_card
from ...game import Game
from ...hand import HandState
from ...rules import Rules
from ...sheets import SHEETS
from ...store import DealRow
from ..http.errors import Illegal
from . import numbering

__all__ = ["TableEngine", "DealInfo", "YOU", "replay_engine", "MAX_COMPUTER_MOVES",
           "keeps_standard_shape"]

#: the creator's seat (the person playing the computers: seat 0).
YOU = 0


def keeps_standard_shape(scoring: str) -> bool:
    """Whether a table of ``scoring`` is answered and stored as before the other scorings
    existed: its ``state`` is docs/api.md's (no ``scoring`` nor ``table``), its fairness
    record's ``current`` is one deal (not a list) and it has no ``game_tables`` row. The
    sheet's registry decides (:attr:`ginrummy.sheets.Sheet.variant`), not the scoring's name.

    >>> keeps_standard_shape("standard"), keeps_standard_shape("hollywood")
    (True, False)
    """
    return not SHEETS[scoring].variant

#: the most computer moves in a row in one deal before the server gives up (a deal has far
#: fewer).
MAX_COMPUTER_MOVES = 400

NewDeck = Callable[[int], list[int]]


@dataclass(frozen=True)
class DealInfo:
    """What the server keeps about a deal besides the engine's state: its fairness data."""

    number: int
    salt: str
    commitment: str


class TableEngine:
    """One table's game and how its events are numbered. ``index``: a deal's position
    (0-based) in the game's deals; ``seat``: a player (0..players-1).

    :param paced: a partnership's other table is played by computers keeping pace with the
        person's (see the module's docstring); ignored for a form with one deal at a time.
    """

    def __init__(self, game: Game, paced: bool = False) -> None:
        self.game = game
        self.paced = paced and game.sheet.deals_per_hand > 1
        #: per deal index, the indices of its actions a computer played for a person's seat
        #: (stored as ``deals.auto``; the state's events say ``"by": "computer"``)
        self.auto: dict[int, set[int]] = {}

    @property
    def scoring(self) -> str:
        return self.game.scoring

    @property
    def players(self) -> int:
        return self.game.seats

    # ---------------------------------------------------------------------------- queries
    def seq(self) -> int:
        """The table's sequence number: how many numbered events it has had."""
        return numbering.seq(self.game, self.paced)

    def turns(self) -> str | None:
        """What ``games.turns`` stores: the table of every action in order, where both tables
        of a partnership are numbered; else ``None``."""
        g = self.game
        if self.paced or g.sheet.deals_per_hand == 1:
            return None
        return "".join(str(g.seatings[i].table) for i in g.order)

    def deals(self) -> list[HandState]:
        """Every deal so far, in order (server side: they hold hidden cards)."""
        return self.game.deals

    def shown(self, seat: int) -> int:
        """The deal ``seat``'s page shows: its own deal of the current hand, else the current
        hand's first (three players: the dealer watches the deal it sits out)."""
        g = self.game
        hand = g.seatings[-1].hand
        current = [i for i in range(len(g.deals)) if g.seatings[i].hand == hand]
        mine = [i for i in current if g.seatings[i].plays(seat)]
        return mine[0] if mine else current[0]

    def hand_number(self, seat: int) -> int:
        """The number of ``seat``'s deal shown (the one a hand order is kept for)."""
        return self.game.seatings[self.shown(seat)].number

    def deal_number(self, index: int) -> int:
        return self.game.seatings[index].number

    def result(self) -> tuple[int | None, int | None] | None:
        """``(winner, margin)`` from seat 0's side (0: seat 0 or its team won, 1: the others;
        ``None``: a tie) once the game is over, else ``None``."""
        g = self.game
        if not g.is_over:
            return None
        w = g.winner
        return (None if w is None else (0 if w == g.side_of(YOU) else 1)), g.margin()

    def winner_seats(self) -> tuple[int, ...] | None:
        """The seats that won the game (partnership: both partners; ``()``: a tie) once it is
        over, else ``None``."""
        return self.game.winners() if self.game.is_over else None

    def check_next_hand(self) -> int:
        """The index of the first deal to save when the next hand is dealt.

        :raises Illegal: a deal is still in play."""
        if not self.game.hand_over():
            raise Illegal("hand_not_over")
        return len(self.game.deals)

    def seat_hand(self, seat: int) -> tuple[HandState, int]:
        """The deal where ``seat`` is to move now, and its index.

        :raises Illegal: ``seat`` is not to move (``reason`` says why)."""
        g = self.game
        if not g.deals:
            raise Illegal("hand_over")
        i = self.shown(seat)
        s = g.seatings[i]
        if not s.plays(seat):
            raise Illegal("sitting_out")
        p = g.mover(i)
        if p is None:
            raise Illegal("hand_over")
        if p != seat:
            raise Illegal("not_your_turn")
        return g.deals[i], i

    def mover(self, index: int) -> int | None:
        """The seat to move in deal ``index``, or ``None`` when it is over."""
        return self.game.mover(index)

    def in_play(self) -> list[int]:
        return self.game.in_play()

    def deal_players(self, index: int) -> tuple[int, int]:
        """The seats playing deal ``index`` (at its engine seats 0 and 1)."""
        return self.game.seatings[index].players

    def card_counts(self) -> dict[int, int]:
        """How many cards each seat holds in the current hand's deal it plays (public: R-2.2
        deals ten each, and every draw and discard is seen): ``{seat: count}``; a seat that
        sits this hand out (three players) is absent. ``{}`` before the first deal."""
        g = self.game
        if not g.deals:
            return {}
        hand = g.seatings[-1].hand
        out: dict[int, int] = {}
        for h, s in zip(g.deals, g.seatings, strict=True):
            if s.hand == hand:  # partnership: both tables' deals of the hand
                out.update({p: len(h.hand(k)) for k, p in enumerate(s.players)})
        return out

    def score_of(self, index: int) -> tuple[tuple[int, int], int]:
        """The points toward the target of deal ``index``'s two engine seats, and the target
        (:meth:`ginrummy.game.Game.score_of`)."""
        return self.game.score_of(index)

    def numbered_deals(self, seat: int) -> list[tuple[int, HandState, dict[str, Any]]]:
        """Every deal so far: ``(number, deal, placement)``; ``placement`` is ``{"scoring",
        "hand", "table", "players", "you"}`` (who sat at the deal's two engine seats; ``you``:
        ``seat``'s engine seat, or None)."""
        g = self.game
        return [(s.number, h, {"scoring": g.scoring, "hand": s.hand, "table": s.table,
                               "players": list(s.players), "you": s.seat_of(seat)})
                for s, h in zip(g.seatings, g.deals, strict=True)]

    # ---------------------------------------------------------------------------- changes
    def deal_hand(self, new_deck: NewDeck, cut: Callable[[], int]) -> None:
        """Deal the next hand: ``new_deck(number)`` gives deal ``number``'s deck, ``cut()`` a
        dealer seat 0 or 1 where a new pair cuts for the deal (R-2.1)."""
        g = self.game
        for plan in g.next_deals():
            deck = new_deck(len(g.deals) + 1)
            g.new_hand(deck, cut() if plan.dealer is None else None)

    def apply(self, index: int, action: Action) -> None:
        """Apply a verified action to deal ``index``."""
        self.game.apply(action, index)

    def advance(self, players: Sequence[Bot | None], rng_of: Callable[[int], random.Random],
                on_fault: OnFault | None = None, *, limit: int | None = None,
                people: frozenset[int] = frozenset()) -> None:
        """Let the computers move while it is their turn (:func:`ginrummy.bots.play.advance`):
        the deals in play one after the other (their moves are numbered in that order), a
        paced game's other table keeping pace with the person's.

        :param players: per seat, its computer, or ``None`` for a person.
        :param rng_of: the random source of the next move in a deal.
        :param people: the seats of people: a move a computer makes for one of them is kept
            in :attr:`auto`.
        """
        before = [len(h.history) for h in self.game.deals]
        try:
            self._advance(players, rng_of, on_fault, limit)
        finally:
            if people:
                self._mark_auto(before, people)

    def _mark_auto(self, before: list[int], people: frozenset[int]) -> None:
        """Keep the moves made since ``before`` (each deal's action count) by people's seats."""
        g = self.game
        for i, h in enumerate(g.deals):
            players = g.seatings[i].players
            for j in range(before[i] if i < len(before) else 0, len(h.history)):
                if players[h.history[j].seat] in people:
                    self.auto.setdefault(i, set()).add(j)

    def _advance(self, players: Sequence[Bot | None], rng_of: Callable[[int], random.Random],
                 on_fault: OnFault | None, limit: int | None) -> None:
        g = self.game
        pace: dict[int, int] = {}
        if self.paced:
            for i in g.in_play():
                s = g.seatings[i]
                if s.table:
                    pace[i] = next(j for j in range(len(g.deals))
                                   if g.seatings[j].hand == s.hand and g.seatings[j].table == 0)
        moves = MAX_COMPUTER_MOVES * max(1, len(g.in_play())) if limit is None else limit
        advance(g, players, rng_of, by_deal=True, pace=pace, on_fault=on_fault, limit=moves)

    def computer_waiting(self, is_computer: Callable[[int], bool]) -> int | None:
        """The index of the first deal to save if a computer is to move (after a failure, or a
        seat handed to a computer), else ``None``; a paced game's other table waits for the
        person's."""
        g = self.game
        for i in g.in_play():
            if self.paced and g.seatings[i].table:
                continue
            p = g.mover(i)
            if p is not None and is_computer(p):
                return i
        return None

    # ------------------------------------------------------------------------------ stored
    def deal_row(self, index: int, info: DealInfo, deck: list[str]) -> DealRow:
        """Deal ``index`` as stored (``finished``, ``result_winner`` and ``result_knocker``
        from seat 0's side, for its statistics; the seats' results for every seat's)."""
        g = self.game
        h = g.deals[index]
        s = g.seatings[index]
        mine = s.plays(YOU)
        d = DealRow(info.number, h.dealer, deck, info.salt, info.commitment,
                    [e.action.text for e in h.history], h.is_over and mine,
                    players=s.players, auto=sorted(self.auto.get(index, ())))
        o = h.outcome
        if o is not None:
            d.result_kind = o.kind
            d.result_points = o.points
            d.winner_seat = None if o.winner is None else s.players[o.winner]
            d.knocker_seat = None if o.knocker is None else s.players[o.knocker]
        if mine and o is not None:
            rel = {s.seat_of(YOU): 0}
            d.result_winner = None if o.winner is None else rel.get(o.winner, 1)
            d.result_knocker = None if o.knocker is None else rel.get(o.knocker, 1)
        return d

    def extend(self, deal_rows: Sequence[DealRow], index: int = 0,
               turns: str | None = None) -> None:
        """Continue this engine with the stored deals from deal ``index`` on (``deal_rows[0]``
        is deal ``index``): a deal it has already gets the actions it lacks, the deals after
        are dealt and played. The actions are applied in the order they were made where it is
        stored (``turns``, see :meth:`turns`: both tables of a partnership numbered), else each
        deal's before the next deal's. ``extend(rows)`` on a new engine is the replay of the
        whole record (:func:`replay_engine`); a later ``index`` catches a cached engine up with
        what another process saved.

        :raises ValueError: (:class:`~ginrummy.errors.GinRummyError` included) the rows do not
            continue this engine (another deck, dealer or actions; an illegal action; a deal
            missing). The engine may then be half extended: drop it.
        """
        g = self.game
        pending: dict[int, list[str]] = {}
        decks: dict[int, tuple[tuple[int, ...], int]] = {}
        for k, d in enumerate(deal_rows):
            i = index + k
            if d.auto:
                self.auto[i] = set(d.auto)
            deck = tuple(parse_card(c) for c in d.deck)
            if i < len(g.deals):
                h = g.deals[i]
                done = [e.action.text for e in h.history]
                if tuple(h.deck) != deck or list(d.actions[:len(done)]) != done:
                    raise ValueError(f"deal {i + 1} is not this engine's")
                pending[i] = list(d.actions[len(done):])
            else:
                decks[i] = (deck, d.dealer)
                pending[i] = list(d.actions)
        if index > len(g.deals):
            raise ValueError(f"deal {len(g.deals) + 1} is missing")

        def deal(i: int) -> None:
            if i not in decks:
                raise ValueError(f"deal {i + 1} is missing")
            deck, dealer = decks[i]
            plan = g.next_deals()
            # the stored dealer where the pair cut for the deal; else the game knows it
            g.new_hand(deck, dealer if plan and plan[0].dealer is None else None)

        def apply(i: int) -> None:
            g.apply(Action.parse(pending[i].pop(0)), i)

        if turns is not None and self.turns() is not None:
            for mark in turns[len(g.order):]:  # the actions not applied yet, in order
                if g.hand_over() and len(g.deals) in decks:
                    for _ in g.next_deals():
                        deal(len(g.deals))
                hand = g.seatings[-1].hand if g.deals else None
                found = [i for i in range(len(g.deals)) if g.seatings[i].hand == hand
                         and str(g.seatings[i].table) == mark and pending.get(i)]
                if found:
                    apply(found[0])
        for i in sorted(pending):  # the rest: each deal's actions before the next deal
            while len(g.deals) <= i:
                deal(len(g.deals))
            while pending[i]:
                apply(i)


def replay_engine(scoring: str, rules: Rules, first_dealer: int,
                  deal_rows: Sequence[DealRow], turns: str | None) -> TableEngine:
    """A table's engine rebuilt from its stored deals and ``games.turns`` (``None`` in a
    partnership: a paced one)."""
    engine = TableEngine(Game(rules, first_dealer, scoring), paced=turns is None)
    engine.extend(deal_rows, 0, turns)
    return engine
