"""Variant tables of the web game: Hollywood (H), three players (3P) and partnership (4P).

A :class:`Match` is the engine side of such a table: every deal is a plain two-seat
:class:`~ginrummy.hand.HandState`, and a :class:`Seating` says which players sit at its engine
seats 0 and 1. Players are numbered from 0 (the table's seats, docs/tables.md); any of them may
be a person or a computer: the match itself does not know which.

* ``hollywood``: the two-player table (person 0, computer 1); results go to a
  :class:`~ginrummy.sheets.HollywoodSheet`; the match ends when its three games are closed.
  Dealer rotation as in a standard game (R-9.1, R-9.2).
* ``three_player``: players 0, 1, 2. The dealer deals to the other two and sits out; the player
  on the dealer's left (``dealer + 1``) is dealt to first and is the engine's non-dealer. After a
  scored hand the loser deals next; a dead hand (or an unscored tie) keeps dealer and pair
  (3P, :class:`~ginrummy.sheets.ThreePlayerSheet`). When the person deals, the two computers
  play that deal.
* ``partnership``: A0 + C2 against B1 + D3. Each hand is two deals with their own packs, in the
  order of :func:`~ginrummy.sheets.partnership_pairings`: player 0's table first (table 0),
  then the other table (table 1). Each new pair cuts for the deal (R-2.1): the
  caller passes the dealer. Both results go to a :class:`~ginrummy.sheets.PartnershipSheet`
  once both deals are over.

Pure: no I/O, no randomness (decks and cut dealers come from the caller), so a match replays
exactly from its deals.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..actions import Action
from ..errors import IllegalActionError
from ..hand import HandState
from ..rules import Rules
from ..sheets import HollywoodSheet, PartnershipSheet, ThreePlayerSheet, partnership_pairings
from ..variants import PLAYER_COUNT, check_table

__all__ = ["Match", "Seating", "PERSON"]

#: the player number of the creator's seat (the person playing the computers).
PERSON = 0


@dataclass(frozen=True, slots=True)
class Seating:
    """Who plays one deal.

    :ivar number: the deal's number over the match (1-based).
    :ivar hand: the hand it belongs to (partnership: both tables' deals share the number).
    :ivar table: 0 = player 0's table (the only table but in partnership); 1 = the other.
    :ivar players: the players at engine seats 0 and 1.
    :ivar dealer: the player who deals (three players: the one who sits out).
    """

    number: int
    hand: int
    table: int
    players: tuple[int, int]
    dealer: int

    @property
    def person_plays(self) -> bool:
        return PERSON in self.players

    def plays(self, player: int) -> bool:
        """True when ``player`` sits at this deal."""
        return player in self.players

    def seat_of(self, player: int) -> int | None:
        return self.players.index(player) if player in self.players else None


@dataclass
class Match:
    """A variant table's deals and its score sheet.

    :param scoring: ``hollywood`` | ``three_player`` | ``partnership``.
    :param first_dealer: the first dealer (a player; ignored in partnership, where each pair
        cuts).
    :raises RulesError: the scoring cannot honour the rules (:func:`ginrummy.variants.check_table`).
    """

    scoring: str
    rules: Rules
    first_dealer: int
    deals: list[HandState] = field(default_factory=list)
    seatings: list[Seating] = field(default_factory=list)
    sheet: Any = field(init=False)
    #: per deal: the Hollywood games its points went into (1-based), when scored.
    entered: dict[int, list[int]] = field(default_factory=dict)
    _two_dealer: int = field(init=False, default=0)

    def __post_init__(self) -> None:
        check_table(self.rules, self.scoring)
        if self.scoring == "standard":
            raise ValueError("a standard table is a ginrummy.game.Game")
        n = PLAYER_COUNT[self.scoring]
        if self.scoring != "partnership" and self.first_dealer not in range(n):
            raise IllegalActionError(f"first_dealer must be a player 0..{n - 1}")
        if self.scoring == "hollywood":
            self.sheet = HollywoodSheet(self.rules)
            self._two_dealer = self.first_dealer
        elif self.scoring == "three_player":
            self.sheet = ThreePlayerSheet(self.rules, self.first_dealer)
        else:
            self.sheet = PartnershipSheet(self.rules)

    # -------------------------------------------------------------------------------- queries
    @property
    def players(self) -> int:
        return PLAYER_COUNT[self.scoring]

    @property
    def is_over(self) -> bool:
        return bool(self.sheet.is_over)

    def shown_index(self, player: int = PERSON) -> int:
        """The deal ``player``'s page shows: the last deal ``player`` plays (partnership), the
        last deal (otherwise: a three-player dealer watches the deal it sits out)."""
        for i in range(len(self.deals) - 1, -1, -1):
            if self.scoring != "partnership" or self.seatings[i].plays(player):
                return i
        raise IllegalActionError("nothing dealt yet")

    def other_index(self, player: int = PERSON) -> int | None:
        """Partnership: the deal of the current hand that ``player`` does not play (the other
        table's), if dealt."""
        if self.scoring != "partnership" or not self.deals:
            return None
        hand = self.seatings[-1].hand
        for i in range(len(self.deals) - 1, max(-1, len(self.deals) - 3), -1):
            s = self.seatings[i]
            if s.hand == hand and not s.plays(player):
                return i
        return None

    def hand_over(self) -> bool:
        """Every deal dealt so far is over (the next hand may be dealt)."""
        return all(h.is_over for h in self.deals)

    def can_deal(self) -> bool:
        return not self.is_over and self.hand_over()

    def stream(self, player: int = PERSON) -> list[int]:
        """The deals whose events ``player`` sees as its own stream: every deal but those of
        the other table (partnership: the deals ``player`` plays)."""
        return [i for i, s in enumerate(self.seatings)
                if self.scoring != "partnership" or s.plays(player)]

    def in_play(self) -> list[int]:
        """The deals dealt and not over (partnership: up to two at once)."""
        return [i for i, h in enumerate(self.deals) if not h.is_over]

    def points_of(self, player: int) -> int:
        """A player's points toward the target (for the computer's sense of the score): the
        first open Hollywood game's, the player's own (3P) or the team's (4P)."""
        if self.scoring == "hollywood":
            for g in self.sheet.games:
                if not g.is_closed:
                    return int(g.hand_points[player])
            return 0
        if self.scoring == "three_player":
            return int(self.sheet.hand_points[player])
        return int(self.sheet.game.hand_points[player % 2])

    # ---------------------------------------------------------------------------------- deals
    def next_plan(self) -> list[tuple[int, int, tuple[int, int], int | None]]:
        """The deals of the next hand: ``(hand, table, players, engine dealer seat)``; the
        dealer is ``None`` where the pair cuts for it (partnership)."""
        if not self.can_deal():
            return []
        if self.scoring == "hollywood":
            return [(len(self.deals) + 1, 0, (0, 1), self._two_dealer)]
        if self.scoring == "three_player":
            pair = self.sheet.players
            d = self.sheet.dealer
            return [(len(self.deals) + 1, 0, pair, pair.index((d + 2) % 3))]
        hand = len(self.sheet.tables) + 1
        a, b = partnership_pairings(hand)
        return [(hand, 0, a, None), (hand, 1, b, None)]

    def add_deal(self, deck: Sequence[int], dealer: int | None = None) -> HandState:
        """Deal the next deal from ``deck``. ``dealer`` is the engine dealer seat: required
        where the pair cuts (partnership), else checked against the rules if given.

        :raises IllegalActionError: the match is over, a deal is still in play, or a wrong
            dealer.
        """
        if self.scoring == "partnership" and self.deals and self.seatings[-1].table == 0:
            s0 = self.seatings[-1]
            hand, table, pair, fixed = s0.hand, 1, partnership_pairings(s0.hand)[1], None
        else:
            plan = self.next_plan()
            if not plan:
                raise IllegalActionError("the match is over" if self.is_over
                                         else "a deal is still in play",
                                         "game_over" if self.is_over else "hand_not_over")
            hand, table, pair, fixed = plan[0]
        if fixed is None:
            if dealer not in (0, 1):
                raise IllegalActionError("the pair cuts for the deal: give the dealer seat")
            fixed = dealer
        elif dealer is not None and dealer != fixed:
            raise IllegalActionError(f"dealt by seat {dealer}, but the rules make seat {fixed} "
                                     "the dealer")
        phys = self.sheet.dealer if self.scoring == "three_player" else pair[fixed]
        h = HandState(self.rules, fixed, deck)
        self.deals.append(h)
        self.seatings.append(Seating(len(self.deals), hand, table, pair, phys))
        return h

    def apply(self, index: int, action: Action | str) -> None:
        """Apply an action to deal ``index``; settle the sheet when a hand is complete.

        :raises IllegalActionError: the deal is over or the action is illegal.
        """
        h = self.deals[index]
        if h.is_over:
            raise IllegalActionError("that deal is over", "hand_over")
        h.apply(action)
        if h.is_over:
            self._settle(index)

    def winner_of(self, index: int) -> int | None:
        """The player who won deal ``index`` (None: dead, tie or in play)."""
        o = self.deals[index].outcome
        if o is None or o.winner is None:
            return None
        return self.seatings[index].players[o.winner]

    def _settle(self, index: int) -> None:
        o = self.deals[index].outcome
        assert o is not None
        s = self.seatings[index]
        w = self.winner_of(index)
        if self.scoring == "hollywood":
            into = self.sheet.add_result(w, o.points if w is not None else 0, kind=o.kind,
                                         boxes=max(o.boxes, 1))
            self.entered[index] = [g + 1 for g in into]
            self._rotate_two(o.kind, w, self.deals[index].dealer)
        elif self.scoring == "three_player":
            self.sheet.add_result(w, o.points if w is not None else 0, kind=o.kind,
                                  boxes=max(o.boxes, 1))
        else:
            pair = [i for i, x in enumerate(self.seatings) if x.hand == s.hand]
            if len(pair) == 2 and all(self.deals[i].is_over for i in pair):
                res = [(self.winner_of(i), self.deals[i].outcome.points  # type: ignore[union-attr]
                        if self.winner_of(i) is not None else 0) for i in pair]
                self.sheet.add_hand(res[0], res[1])

    def _rotate_two(self, kind: str, winner: int | None, dealer: int) -> None:
        """R-9.1, R-9.2 between seats 0 and 1 (as :meth:`ginrummy.game.Game.add_result`)."""
        nd = self.rules.next_dealer
        if winner is None:
            if kind == "tie" and nd == "alternate":
                self._two_dealer = 1 - dealer
            return
        self._two_dealer = winner if nd == "winner" else (1 - winner if nd == "loser"
                                                          else 1 - dealer)

    # ---------------------------------------------------------------------------------- result
    def winner_players(self) -> tuple[int, ...]:
        """At the end: the players who won (partnership: both partners, R-4P; ``()``: a
        Hollywood tie, or not over)."""
        if not self.is_over:
            return ()
        if self.scoring == "hollywood":
            t = self.sheet.totals()
            return () if t[0] == t[1] else ((0,) if t[0] > t[1] else (1,))
        if self.scoring == "three_player":
            w = self.sheet.winner
            return () if w is None else (int(w),)
        f = self.sheet.final()
        return (int(f.winner), int(f.winner) + 2)

    def person_result(self) -> tuple[int | None, int | None]:
        """At the end: ``(winner, margin)`` from the person's side: winner 0 = the person (or
        the person's team) won, 1 = the computers did; margin = the winner's margin."""
        if not self.is_over:
            return (None, None)
        if self.scoring == "hollywood":
            t = self.sheet.totals()
            if t[0] == t[1]:
                return (None, 0)
            return (0 if t[0] > t[1] else 1, abs(t[0] - t[1]))
        if self.scoring == "three_player":
            w = self.sheet.winner
            margin = sum(f.margin for f in self.sheet.settlements().values())
            return (0 if w == PERSON else 1, margin)
        f = self.sheet.final()
        return (0 if f.winner == 0 else 1, f.margin)


def menu_meta() -> dict[str, Any]:
    """What ``GET /api/meta`` adds for the new-game menu: the scorings (with the players of
    each and the fields each fixes) and when each field matters
    (:data:`ginrummy.variants.FIELD_REQUIRES`; the page applies them as
    :func:`ginrummy.variants.constrain` does)."""
    from ..variants import FIELD_REQUIRES, PLAYER_COUNT, SCORING_FIXED, SCORINGS

    return {
        "scorings": [{"name": s, "players": PLAYER_COUNT[s], "fixed": dict(SCORING_FIXED[s]),
                      **({"preset": "partnership"} if s == "partnership" else {})}
                     for s in SCORINGS],
        "requires": {k: [dict(c) for c in v] for k, v in FIELD_REQUIRES.items()},
        "defaults": Rules().to_dict(),
    }
