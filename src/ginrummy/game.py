"""A game to the target (RULES.md section 8): dealer rotation, boxes, bonuses, shutout.

The game never shuffles: the caller hands each deal's deck to :meth:`Game.new_hand`.

>>> g = Game(Rules.preset("pagat"), first_dealer=0)
>>> for w, p in [(0, 30), (1, 12), (0, 25)]:
...     g.add_result(w, p)
>>> g.is_over
False
>>> g.add_result(0, 50)
>>> g.is_over, g.final().totals
(True, (265, 32))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .actions import Action
from .errors import IllegalActionError
from .hand import HandOutcome, HandState
from .rules import Rules

__all__ = ["Game", "HandSummary", "FinalScore", "settle"]


@dataclass(frozen=True, slots=True)
class HandSummary:
    """One finished deal on the score sheet.

    ``kind``: knock | gin | big_gin | undercut | tie | dead; ``winner``: seat or ``None``;
    ``points``: hand points scored; ``boxes``: boxes earned (R-10.6 extras included).
    """

    number: int
    dealer: int
    kind: str
    winner: int | None
    points: int
    boxes: int
    knocker: int | None = None


@dataclass(frozen=True, slots=True)
class FinalScore:
    """End-of-game settlement (R-10.2..R-10.5); every tuple is indexed by seat, in points.

    ``totals`` are (0, 0) while the game is not over.
    """

    winner: int | None
    hand_points: tuple[int, int]
    boxes: tuple[int, int]
    box_points: tuple[int, int]
    game_bonus: int
    shutout: bool
    shutout_rule: str
    totals: tuple[int, int]

    @property
    def margin(self) -> int:
        """Winner's total minus loser's total (R-10.5)."""
        if self.winner is None:
            return 0
        return self.totals[self.winner] - self.totals[1 - self.winner]

    def to_json(self) -> dict[str, object]:
        return {
            "winner": self.winner, "hand_points": list(self.hand_points),
            "boxes": list(self.boxes), "box_points": list(self.box_points),
            "game_bonus": self.game_bonus, "shutout": self.shutout,
            "shutout_rule": self.shutout_rule, "totals": list(self.totals), "margin": self.margin,
        }


@dataclass
class Game:
    """Two seats playing deals until one reaches ``rules.target`` (R-10.1).

    :param rules: the table's rules.
    :param first_dealer: seat 0 or 1, chosen at random by the caller (R-2.1).
    """

    rules: Rules
    first_dealer: int
    dealer: int = field(init=False)
    hand_points: list[int] = field(default_factory=lambda: [0, 0])
    boxes: list[int] = field(default_factory=lambda: [0, 0])
    hands: list[HandSummary] = field(default_factory=list)
    current: HandState | None = None
    deals: list[HandState] = field(default_factory=list)
    winner: int | None = None

    def __post_init__(self) -> None:
        if self.first_dealer not in (0, 1):
            raise IllegalActionError(f"first_dealer must be seat 0 or 1, not {self.first_dealer!r}")
        self.dealer = self.first_dealer

    # ------------------------------------------------------------------------------------ play
    @property
    def is_over(self) -> bool:
        return self.winner is not None

    def new_hand(self, deck: Sequence[int]) -> HandState:
        """Deal the next hand from ``deck`` (52 card ints, deal order) with the current dealer.

        :raises IllegalActionError: the game is over or the current hand is not finished.
        """
        if self.is_over:
            raise IllegalActionError("the game is over", "game_over")
        if self.current is not None and not self.current.is_over:
            raise IllegalActionError("the current hand is not finished", "hand_not_over")
        self.current = HandState(self.rules, self.dealer, deck)
        self.deals.append(self.current)
        return self.current

    def apply(self, action: Action | str) -> None:
        """Apply an action to the current hand; settle the hand when it ends.

        :raises IllegalActionError: no hand in play, or the action is illegal.
        """
        h = self.current
        if h is None or h.is_over:
            raise IllegalActionError("no hand in play: deal the next hand", "hand_over")
        h.apply(action)
        if h.is_over:
            assert h.outcome is not None
            self._settle(h.outcome, h.dealer)

    def _settle(self, o: HandOutcome, dealer: int) -> None:
        self.add_result(o.winner, o.points, kind=o.kind, boxes=o.boxes, knocker=o.knocker,
                        dealer=dealer)

    def add_result(self, winner: int | None, points: int, *, kind: str | None = None,
                   boxes: int | None = None, knocker: int | None = None,
                   dealer: int | None = None) -> None:
        """Record a deal's result on the sheet (also for scoring games played with real cards).

        ``winner`` None = dead hand (or an unscored tie); ``boxes`` defaults to 1 for a winner.
        Rotates the dealer (R-9.1, R-9.2) and ends the game at the target (R-10.1).

        :raises IllegalActionError: the game is over, or points are negative.
        """
        if self.is_over:
            raise IllegalActionError("the game is over", "game_over")
        if points < 0 or (winner is None and points):
            raise IllegalActionError("a hand scores a non-negative amount for its winner only")
        if winner not in (0, 1, None):
            raise IllegalActionError(f"winner must be seat 0 or 1 or none, not {winner!r}")
        d = self.dealer if dealer is None else dealer
        if kind is None:
            kind = "dead" if winner is None else "knock"
        if boxes is None:
            boxes = 0 if winner is None else 1
        self.hands.append(HandSummary(len(self.hands) + 1, d, kind, winner, points, boxes,
                                      knocker))
        if winner is None:
            if kind == "tie" and self.rules.next_dealer == "alternate":
                self.dealer = 1 - d
            return  # same dealer after a dead hand
        self.hand_points[winner] += points
        self.boxes[winner] += boxes
        nd = self.rules.next_dealer
        self.dealer = winner if nd == "winner" else (1 - winner if nd == "loser" else 1 - d)
        if self.progress(winner) >= self.rules.target:
            self.winner = winner

    def progress(self, seat: int) -> int:
        """Points that count toward the target for ``seat`` (R-10.1)."""
        p = self.hand_points[seat]
        if self.rules.boxes_count_toward_target:
            p += self.boxes[seat] * self.rules.box_bonus
        return p

    # ---------------------------------------------------------------------------------- result
    def final(self) -> FinalScore:
        """The settlement: game bonus, boxes, shutout (R-10.2..R-10.5)."""
        hp = (self.hand_points[0], self.hand_points[1])
        shutout = self.winner is not None and hp[1 - self.winner] == 0
        return settle(self.rules, hp, (self.boxes[0], self.boxes[1]), self.winner, shutout)


def settle(rules: Rules, hand_points: tuple[int, int], boxes: tuple[int, int],
           winner: int | None, shutout: bool) -> FinalScore:
    """Settle a two-party game (R-10.2..R-10.5): ``winner`` gets the game bonus; ``shutout``
    (the loser scored nothing; in Hollywood: has no entry) applies ``rules.shutout``.

    >>> settle(Rules.preset("pagat"), (105, 0), (3, 0), 0, True).totals
    (365, 0)
    """
    r = rules
    hp = hand_points
    bx = boxes
    bp = (bx[0] * r.box_bonus, bx[1] * r.box_bonus)
    w = winner
    if w is None:
        return FinalScore(None, hp, bx, bp, 0, False, r.shutout, (0, 0))
    loser = 1 - w
    shutout = shutout and r.shutout != "none"
    bonus = r.game_bonus
    win_hp = hp[w]
    if shutout and r.shutout == "flat":
        bonus *= 2
    if shutout and r.shutout == "double_hand_points":
        win_hp *= 2
    win_total = win_hp + bp[w] + bonus
    if shutout and r.shutout == "double_total":
        win_total *= 2
    totals = [0, 0]
    totals[w] = win_total
    totals[loser] = hp[loser] + bp[loser]
    return FinalScore(w, hp, bx, bp, bonus, shutout, r.shutout, (totals[0], totals[1]))
