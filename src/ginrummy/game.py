"""The one playing object for every form of the game (RULES.md sections 8 and 9): :class:`Game`.

A game is a :class:`~ginrummy.rules.Rules` plus a *scoring* (:data:`ginrummy.variants.SCORINGS`):
``standard`` (two players, one game to the target), ``hollywood`` (H: two players, three games
scored at once), ``three_player`` (3P) or ``partnership`` (4P). Every deal is a two-seat
:class:`~ginrummy.hand.HandState`; a :class:`Seating` says which players sit at its engine seats
0 and 1, who dealt, and which hand and table it belongs to. The game deals (from decks the caller
gives), rotates the dealer (R-9.1, R-9.2; 3P: the loser deals and sits out), seats the players of
each deal (3P: the dealer sits out; 4P: two tables, opponents switching every hand, each pair
cutting for the deal), applies actions, settles each hand on its sheet (:mod:`ginrummy.sheets`)
and says when the game is over and who won. The two-player game is its simplest case.

Pure: no I/O and no randomness of its own: each deck, and the dealer where a new pair cuts
(R-2.1, 4P), comes from the caller, so a game replays exactly from its record
(:class:`ginrummy.records.GameRecord`).

>>> g = Game(Rules.preset("pagat"), first_dealer=0)
>>> for w, p in [(0, 30), (1, 12), (0, 25)]:
...     g.add_result(w, p)
>>> g.is_over
False
>>> g.add_result(0, 50)
>>> g.is_over, g.final().totals
(True, (265, 32))

Three players: the first dealer sits out; the player on the dealer's left is dealt to first.

>>> g = Game(Rules.preset("standard"), first_dealer=2, scoring="three_player")
>>> [(p.players, p.dealer) for p in g.next_deals()]
[((0, 1), 1)]
>>> h = g.new_hand(list(range(52)))
>>> g.seatings[0].players, g.seatings[0].dealer, g.sitting_out(0)
((0, 1), 2, (2,))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .actions import Action
from .errors import IllegalActionError
from .hand import HandState
from .rules import Rules
from .sheets import (
    DealResult,
    FinalScore,
    HandSummary,
    HollywoodSheet,
    PartnershipSheet,
    Sheet,
    StandardSheet,
    ThreePlayerSheet,
    new_sheet,
    partnership_pairings,
    settle,
    side_of,
)
from .variants import PLAYER_COUNT, check_table

__all__ = ["Game", "Seating", "DealPlan", "HandSummary", "FinalScore", "settle", "next_dealer"]


@dataclass(frozen=True, slots=True)
class Seating:
    """Who plays one deal.

    :ivar number: the deal's number in the game (1-based).
    :ivar hand: the hand it belongs to (partnership: both tables' deals share the number).
    :ivar table: 0, or 1 for a partnership hand's second table (players 2 and 1 or 3).
    :ivar players: the players at the deal's engine seats 0 and 1.
    :ivar dealer: the player who deals (three players: the one who sits out).
    """

    number: int
    hand: int
    table: int
    players: tuple[int, int]
    dealer: int

    def plays(self, player: int) -> bool:
        """True when ``player`` sits at this deal."""
        return player in self.players

    def seat_of(self, player: int) -> int | None:
        """``player``'s engine seat (0 or 1) at this deal, or ``None``."""
        return self.players.index(player) if player in self.players else None


@dataclass(frozen=True, slots=True)
class DealPlan:
    """A deal the game will deal next (:meth:`Game.next_deals`).

    :ivar hand: its hand number; ``table`` its table (4P: 0 or 1).
    :ivar players: the players at its engine seats 0 and 1.
    :ivar dealer: the engine seat (0 or 1) that deals, or ``None`` where the pair cuts for the
        deal (4P, R-2.1): the caller then names the dealer seat.
    """

    hand: int
    table: int
    players: tuple[int, int]
    dealer: int | None


def next_dealer(rules: Rules, dealer: int, winner: int | None, kind: str) -> int:
    """The dealer seat of the next deal between two seats (R-9.1, R-9.2): a dead hand keeps the
    dealer (an unscored tie too, but under ``alternate``).

    >>> next_dealer(Rules.preset("standard"), 0, 1, "knock"), next_dealer(Rules(), 0, None, "dead")
    (1, 0)
    """
    nd = rules.next_dealer
    if winner is None:
        return 1 - dealer if kind == "tie" and nd == "alternate" else dealer
    return winner if nd == "winner" else (1 - winner if nd == "loser" else 1 - dealer)


class Game:
    """Deals played to the end of a game (a Hollywood match) under ``rules`` and ``scoring``.

    :param rules: the table's rules.
    :param first_dealer: the first dealer, chosen at random by the caller (R-2.1): a seat 0 or 1
        (two players), a player 0..2 (three players: the one who cut lowest); ignored in
        partnership, where each pair cuts (give the dealer to :meth:`new_hand`).
    :param scoring: ``standard``, ``hollywood``, ``three_player`` or ``partnership``.
    :raises RulesError: the scoring is unknown or cannot honour the rules
        (:func:`ginrummy.variants.check_table`).
    :raises IllegalActionError: a first dealer who is not a player of the table.

    Attributes: ``deals`` (every :class:`~ginrummy.hand.HandState` dealt, in order),
    ``seatings`` (the :class:`Seating` of each), ``sheet`` (the score sheet,
    :mod:`ginrummy.sheets`), ``order`` (the deal index of every action applied, in order: two
    partnership tables play at once), ``entered`` (Hollywood: per deal index, the games, 1-based,
    its points went into).
    """

    def __init__(self, rules: Rules, first_dealer: int = 0, scoring: str = "standard") -> None:
        check_table(rules, scoring)
        n = PLAYER_COUNT[scoring]
        if scoring != "partnership" and (isinstance(first_dealer, bool)
                                         or first_dealer not in range(n)):
            what = "seat 0 or 1" if n == 2 else f"a player 0..{n - 1}"
            raise IllegalActionError(f"first_dealer must be {what}, not {first_dealer!r}")
        self.rules = rules
        self.scoring = scoring
        self.first_dealer = first_dealer
        self.sheet: Sheet = new_sheet(scoring, rules, first_dealer if n == 3 else 0)
        self.deals: list[HandState] = []
        self.seatings: list[Seating] = []
        self.order: list[int] = []
        self.entered: dict[int, list[int]] = {}
        self._dealer = first_dealer if n == 2 else 0  # two players: the next dealer seat

    def __repr__(self) -> str:
        return (f"Game({self.scoring}, {len(self.deals)} deals, "
                f"{'over' if self.is_over else 'in play'})")

    # ------------------------------------------------------------------------------- queries
    @property
    def seats(self) -> int:
        """The number of players at the table (2, 3 or 4)."""
        return PLAYER_COUNT[self.scoring]

    @property
    def is_over(self) -> bool:
        """True when the game (Hollywood: all three games) is over."""
        return self.sheet.is_over

    @property
    def current(self) -> HandState | None:
        """The last deal dealt (in play or over), or ``None`` before the first deal."""
        return self.deals[-1] if self.deals else None

    @property
    def dealer(self) -> int | None:
        """Who deals next: the dealer seat (two players), the dealer player, who sits out (three
        players), or ``None`` (partnership: each pair cuts)."""
        if self.seats == 2:
            return self._dealer
        if isinstance(self.sheet, ThreePlayerSheet):
            return self.sheet.dealer
        return None

    def in_play(self) -> list[int]:
        """The indexes of the deals dealt and not over (partnership: up to two at once)."""
        return [i for i, h in enumerate(self.deals) if not h.is_over]

    def to_act(self) -> list[tuple[int, int]]:
        """``(deal index, player)`` for every deal in play: who is to act in each."""
        return [(i, self.seatings[i].players[self.deals[i].current]) for i in self.in_play()]

    def mover(self, index: int) -> int | None:
        """The player to act in deal ``index``, or ``None`` when it is over."""
        h = self.deals[index]
        return None if h.is_over else self.seatings[index].players[h.current]

    def deal_of(self, player: int) -> int | None:
        """The index of the latest deal ``player`` sits at (their own deal of the current hand
        in partnership), or ``None`` if they sit at none yet."""
        for i in range(len(self.deals) - 1, -1, -1):
            if self.seatings[i].plays(player):
                return i
        return None

    def sitting_out(self, index: int) -> tuple[int, ...]:
        """The players who do not sit at deal ``index`` (3P: the dealer; 4P: the other
        table's pair)."""
        s = self.seatings[index]
        return tuple(p for p in range(self.seats) if not s.plays(p))

    def side_of(self, player: int) -> int:
        """The side ``player`` wins or loses with: the player itself, or its team (4P: 0 for
        players 0 and 2, 1 for 1 and 3)."""
        return side_of(self.sheet, player)

    def progress(self, player: int) -> int:
        """The points toward the target that matter now for ``player``'s side (R-10.1; Hollywood:
        the first open game's)."""
        return self.sheet.progress(player)

    def score_of(self, index: int) -> tuple[tuple[int, int], int]:
        """The points toward the target of deal ``index``'s two engine seats' sides, and the
        target: the score a computer player at that deal weighs."""
        a, b = self.seatings[index].players
        return (self.progress(a), self.progress(b)), self.rules.target

    def hand_over(self) -> bool:
        """Every deal dealt so far is over (the next hand may be dealt)."""
        return all(h.is_over for h in self.deals)

    # ---------------------------------------------------------------------------------- deals
    def next_deals(self) -> list[DealPlan]:
        """The deals the next calls of :meth:`new_hand` deal, in order: the next hand's deal
        (partnership: its two tables, or the second table once the first is dealt); ``[]``
        while a deal is in play (but a partnership's second table) or once the game is over."""
        if self.is_over:
            return []
        sh = self.sheet
        if isinstance(sh, PartnershipSheet):
            if self.deals and self.seatings[-1].table == 0:
                hand = self.seatings[-1].hand
                return [DealPlan(hand, 1, partnership_pairings(hand)[1], None)]
            if not self.hand_over():
                return []
            hand = len(sh.tables) + 1
            a, b = partnership_pairings(hand)
            return [DealPlan(hand, 0, a, None), DealPlan(hand, 1, b, None)]
        if not self.hand_over():
            return []
        number = len(self.deals) + 1
        if isinstance(sh, ThreePlayerSheet):
            pair = sh.players
            # the player on the dealer's left is dealt to first: the engine's non-dealer
            return [DealPlan(number, 0, pair, pair.index((sh.dealer + 2) % 3))]
        return [DealPlan(number, 0, (0, 1), self._dealer)]

    def new_hand(self, deck: Sequence[int], dealer: int | None = None) -> HandState:
        """Deal the next deal (:meth:`next_deals`) from ``deck`` (52 card ints in deal order).

        :param dealer: the dealer's engine seat (0 or 1): required where the pair cuts for the
            deal (partnership), else checked against the rules when given.
        :raises IllegalActionError: the game is over, a deal is still in play, or a missing or
            wrong dealer (nothing is dealt).
        """
        plan = self.next_deals()
        if not plan:
            if self.is_over:
                raise IllegalActionError("the game is over", "game_over")
            raise IllegalActionError("the current hand is not finished", "hand_not_over")
        p = plan[0]
        seat = p.dealer
        if seat is None:
            if dealer not in (0, 1) or isinstance(dealer, bool):
                raise IllegalActionError("the pair cuts for the deal: give the dealer seat 0 or 1"
                                         f", not {dealer!r}")
            seat = dealer
        elif dealer is not None and dealer != seat:
            raise IllegalActionError(f"dealt by seat {dealer}, but the rules make seat {seat} "
                                     "the dealer (R-9.1, R-9.2)")
        h = HandState(self.rules, seat, deck)
        phys = self.sheet.dealer if isinstance(self.sheet, ThreePlayerSheet) else p.players[seat]
        self.deals.append(h)
        self.seatings.append(Seating(len(self.deals), p.hand, p.table, p.players, phys))
        return h

    def _index(self, deal: int | None) -> int:
        if deal is not None:
            if isinstance(deal, bool) or deal not in range(len(self.deals)):
                raise IllegalActionError(f"no deal {deal!r}: {len(self.deals)} dealt")
            return deal
        live = self.in_play()
        if len(live) == 1:
            return live[0]
        if not live:
            raise IllegalActionError("no hand in play: deal the next hand", "hand_over")
        raise IllegalActionError(f"deals {live} are in play: name the deal")

    def apply(self, action: Action | str, deal: int | None = None) -> None:
        """Apply an action to deal ``deal`` (its index; by default the one deal in play);
        settle the hand on the sheet when it is complete.

        :raises IllegalActionError: no such deal in play, or the action is illegal (nothing
            changes).
        """
        i = self._index(deal)
        h = self.deals[i]
        if h.is_over:
            raise IllegalActionError("that deal is over", "hand_over")
        h.apply(action)
        self.order.append(i)
        if h.is_over:
            self._settle(i)

    def apply_as(self, player: int, action: Action | str) -> int:
        """Apply ``player``'s action in the deal where ``player`` is to act; returns its index.

        :raises IllegalActionError: ``player`` is not to act (``sitting_out``, ``hand_over`` or
            ``not_your_turn``), or the action is illegal.
        """
        i = self.deal_of(player)
        if i is None or self.seatings[i].hand != self.seatings[-1].hand:
            raise IllegalActionError(f"player {player} sits this hand out", "sitting_out")
        if self.mover(i) is None:
            raise IllegalActionError("the hand is over", "hand_over")
        if self.mover(i) != player:
            raise IllegalActionError(f"it is not player {player}'s turn", "not_your_turn")
        self.apply(action, i)
        return i

    def result_of(self, index: int) -> DealResult | None:
        """Deal ``index``'s result in players, or ``None`` while it is in play."""
        o = self.deals[index].outcome
        if o is None:
            return None
        s = self.seatings[index]
        w = None if o.winner is None else s.players[o.winner]
        k = None if o.knocker is None else s.players[o.knocker]
        return DealResult(s.players, s.dealer, o.kind, w, o.points if w is not None else 0,
                          o.boxes if w is not None else 0, k)

    def winner_of(self, index: int) -> int | None:
        """The player who won deal ``index`` (None: dead, tie or in play)."""
        r = self.result_of(index)
        return None if r is None else r.winner

    def _settle(self, index: int) -> None:
        s = self.seatings[index]
        group = [i for i in range(len(self.deals)) if self.seatings[i].hand == s.hand]
        if len(group) < self.sheet.deals_per_hand or not all(self.deals[i].is_over
                                                             for i in group):
            return
        results = [r for r in (self.result_of(i) for i in group) if r is not None]
        sh = self.sheet
        if isinstance(sh, HollywoodSheet):
            (r,) = results
            into = sh.add_result(r.winner, r.points, kind=r.kind, boxes=max(r.boxes, 1),
                                 dealer=r.dealer, knocker=r.knocker)
            self.entered[index] = [g + 1 for g in into]
        else:
            sh.enter(results)
        if self.seats == 2:
            o = self.deals[index].outcome
            assert o is not None
            self._dealer = next_dealer(self.rules, self.deals[index].dealer, o.winner, o.kind)

    # ------------------------------------------------------------------------------- results
    def winners(self) -> tuple[int, ...]:
        """The players who won, once the game is over (partnership: both partners); ``()``
        while it goes on or on a tie (Hollywood's totals may tie)."""
        return self.sheet.winners()

    @property
    def winner(self) -> int | None:
        """The winning side once the game is over: a player, or a team (partnership: 0 for
        players 0 and 2, 1 for 1 and 3); ``None`` while it goes on or on a tie."""
        w = self.winners()
        return None if not w else self.side_of(w[0])

    def margin(self) -> int | None:
        """The winning side's margin once the game is over, else ``None``: the settlement's,
        the winner's total minus the loser's (R-10.5; partnership: between the teams); three
        players: the winner's margins over each opponent, summed; Hollywood: the difference of
        the match totals (a tie: 0)."""
        if not self.is_over:
            return None
        sh = self.sheet
        if isinstance(sh, ThreePlayerSheet):
            return sh.margin
        if isinstance(sh, StandardSheet | PartnershipSheet):
            return sh.final().margin
        t = sh.totals()
        return abs(t[0] - t[1])

    # --------------------------------------------- the two-seat sheet (standard, partnership)
    def _standard(self) -> StandardSheet:
        sh = self.sheet
        if isinstance(sh, StandardSheet):
            return sh
        if isinstance(sh, PartnershipSheet):
            return sh.game
        raise AttributeError(f"a {self.scoring} game has no single two-seat tally: read "
                             "game.sheet")

    @property
    def hand_points(self) -> list[int]:
        """Hand points by seat (partnership: by team); not for Hollywood or three players."""
        return self._standard().hand_points

    @property
    def boxes(self) -> list[int]:
        """Boxes by seat (partnership: by team); not for Hollywood or three players."""
        return self._standard().boxes

    @property
    def hands(self) -> list[HandSummary]:
        """The sheet's line per scored hand, in order."""
        sh = self.sheet
        if isinstance(sh, PartnershipSheet):
            return sh.game.hands
        assert isinstance(sh, StandardSheet | HollywoodSheet | ThreePlayerSheet)
        return sh.hands

    def final(self) -> FinalScore:
        """The settlement of a standard game (partnership: between the teams), R-10.2..R-10.5."""
        return self._standard().final()

    def add_result(self, winner: int | None, points: int, *, kind: str | None = None,
                   boxes: int | None = None, knocker: int | None = None,
                   dealer: int | None = None) -> None:
        """Record a deal's result on a standard game's sheet without playing it (games played
        with real cards): ``winner`` None = dead hand (or an unscored tie); ``boxes`` defaults
        to 1 for a winner. Rotates the dealer (R-9.1, R-9.2) and ends the game at the target
        (R-10.1).

        :raises IllegalActionError: not a standard game, the game is over, or bad points.
        """
        sh = self.sheet
        if not isinstance(sh, StandardSheet):
            raise IllegalActionError("add_result scores a standard game; enter other forms' "
                                     "hands on game.sheet")
        d = self._dealer if dealer is None else dealer
        sh.add_result(winner, points, kind=kind, boxes=boxes, knocker=knocker, dealer=d)
        self._dealer = next_dealer(self.rules, d, winner, kind or ("dead" if winner is None
                                                                   else "knock"))
