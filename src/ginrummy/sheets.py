"""Score sheets: one :class:`Sheet` protocol and one registry (:data:`SHEETS`) for every
scoring of RULES.md sections 8 and 9: ``standard`` (one game to the target), ``hollywood`` (H),
``three_player`` (3P) and ``partnership`` (4P). A sheet takes hand results (who won, how many
points) in order, so it serves engine-played deals (:class:`ginrummy.game.Game`), games played
with real cards (:mod:`ginrummy.keeper`), records and the server alike.

Players are numbered from 0 (the table's seats). Each sheet also has its own entry point that
takes plain results (``add_result`` / ``add_hand``), as a paper sheet would; :meth:`Sheet.enter`
takes the :class:`DealResult` of the deals of one hand, whatever the scoring.

>>> h = HollywoodSheet(Rules.preset("pagat"))
>>> for w, p in [(0, 18), (1, 12), (0, 25), (1, 30), (0, 15), (0, 22), (1, 20), (0, 25)]:
...     _ = h.add_result(w, p)
>>> [g.hand_points for g in h.games]
[[105, 62], [87, 50], [62, 20]]
>>> h.final(0).totals
(305, 122)
>>> s = new_sheet("partnership", Rules.preset("partnership"))
>>> s.sides, s.enter([DealResult((0, 1), 1, "gin", 0, 40), DealResult((2, 3), 2, "knock", 3, 9)])
(((0, 2), (1, 3)), 0)
>>> s.progress(2), s.progress(1)
(31, 0)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import ClassVar, Protocol

from .errors import IllegalActionError
from .rules import Rules

__all__ = ["Sheet", "SHEETS", "new_sheet", "DealResult", "HandSummary", "FinalScore", "settle",
           "StandardSheet", "HollywoodSheet", "HollywoodGame", "ThreePlayerSheet",
           "PartnershipSheet", "partnership_pairings", "side_of"]


# ---------------------------------------------------------------------------------- results
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
class DealResult:
    """One deal's result as a sheet takes it, in players (the table's seats).

    :ivar players: the two players of the deal, at its engine seats 0 and 1.
    :ivar dealer: the player who dealt (three players: the one who sat out).
    :ivar kind: knock | gin | big_gin | undercut | tie | dead.
    :ivar winner: the player who scored, or ``None`` (dead hand, unscored tie).
    :ivar points: hand points the winner scores (0 without a winner).
    :ivar boxes: boxes the winner earns (R-10.6 extras included; 0 without a winner).
    :ivar knocker: the player who knocked or went gin, or ``None``.
    """

    players: tuple[int, int]
    dealer: int
    kind: str
    winner: int | None
    points: int
    boxes: int = 1
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


def _check_result(winner: int | None, points: int, seats: int) -> None:
    if winner is not None and (isinstance(winner, bool) or winner not in range(seats)):
        raise IllegalActionError(f"winner must be a player 0..{seats - 1} or none, not {winner!r}")
    if not isinstance(points, int) or isinstance(points, bool) or points < 0:
        raise IllegalActionError(f"points must be a whole number >= 0, not {points!r}")
    if winner is None and points:
        raise IllegalActionError("a dead hand scores no points")


def _progress(rules: Rules, points: int, boxes: int) -> int:
    """Points that count toward the target (R-10.1)."""
    return points + (boxes * rules.box_bonus if rules.boxes_count_toward_target else 0)


# ---------------------------------------------------------------------------------- protocol
class Sheet(Protocol):
    """What every score sheet offers (:data:`SHEETS`).

    ``seats`` players sit at the table; ``sides`` are the parties that win or lose together
    (a player each, or the two partnership teams); ``deals_per_hand`` deals make one hand.
    ``variant`` is false for the one game to the target of RULES.md section 8 only (the form
    played before the other scorings existed: its records and answers keep their first shape),
    true for the variants of section 9.
    """

    scoring: ClassVar[str]
    variant: ClassVar[bool]
    seats: ClassVar[int]
    deals_per_hand: ClassVar[int]
    rules: Rules

    @property
    def is_over(self) -> bool:
        """True when the game (the match: Hollywood's three games) is over."""
        ...

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        """The players of each side, by side number."""
        ...

    def enter(self, results: Sequence[DealResult]) -> int | None:
        """Enter one hand's deals (``deals_per_hand`` of them, in table order). Returns the
        side that scored, or ``None``.

        :raises IllegalActionError: the game is over, or a result that cannot be (a winner who
            did not play, negative points...); the sheet is unchanged."""
        ...

    def progress(self, player: int) -> int:
        """The points toward the target that matter now for ``player``'s side (Hollywood: in
        the first open game), R-10.1."""
        ...

    def winners(self) -> tuple[int, ...]:
        """The players who won the game once it is over (a team's two partners); ``()``
        while it goes on, or on a tie (Hollywood's totals may tie)."""
        ...

    def totals(self) -> tuple[int, ...]:
        """The settled totals per side (R-10.5; Hollywood: the sum over its closed games);
        zeros while nothing is settled."""
        ...


# ---------------------------------------------------------------------------------- standard
@dataclass
class StandardSheet:
    """One game to the target between two players (RULES.md section 8): hand points, boxes,
    game bonus, shutout. The dealer rotation is the game's (:class:`ginrummy.game.Game`)."""

    scoring: ClassVar[str] = "standard"
    variant: ClassVar[bool] = False
    seats: ClassVar[int] = 2
    deals_per_hand: ClassVar[int] = 1
    sides: ClassVar[tuple[tuple[int, ...], ...]] = ((0,), (1,))

    rules: Rules
    hand_points: list[int] = field(default_factory=lambda: [0, 0])
    boxes: list[int] = field(default_factory=lambda: [0, 0])
    hands: list[HandSummary] = field(default_factory=list)
    winner: int | None = None

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    def add_result(self, winner: int | None, points: int, *, kind: str | None = None,
                   boxes: int | None = None, knocker: int | None = None,
                   dealer: int = 0) -> None:
        """Enter one deal: ``winner`` None = dead hand (or an unscored tie); ``boxes``
        defaults to 1 for a winner. Ends the game at the target (R-10.1).

        :raises IllegalActionError: the game is over, or a bad winner/points value.
        """
        if self.is_over:
            raise IllegalActionError("the game is over", "game_over")
        if points < 0 or (winner is None and points):
            raise IllegalActionError("a hand scores a non-negative amount for its winner only")
        if winner not in (0, 1, None):
            raise IllegalActionError(f"winner must be seat 0 or 1 or none, not {winner!r}")
        if kind is None:
            kind = "dead" if winner is None else "knock"
        if boxes is None:
            boxes = 0 if winner is None else 1
        self.hands.append(HandSummary(len(self.hands) + 1, dealer, kind, winner, points, boxes,
                                      knocker))
        if winner is None:
            return
        self.hand_points[winner] += points
        self.boxes[winner] += boxes
        if self.progress(winner) >= self.rules.target:
            self.winner = winner

    def enter(self, results: Sequence[DealResult]) -> int | None:
        (r,) = results
        self.add_result(r.winner, r.points, kind=r.kind, boxes=r.boxes if r.winner is not None
                        else 0, knocker=r.knocker, dealer=r.dealer)
        return r.winner

    def progress(self, player: int) -> int:
        return _progress(self.rules, self.hand_points[player], self.boxes[player])

    def final(self) -> FinalScore:
        """The settlement: game bonus, boxes, shutout (R-10.2..R-10.5)."""
        hp = (self.hand_points[0], self.hand_points[1])
        shutout = self.winner is not None and hp[1 - self.winner] == 0
        return settle(self.rules, hp, (self.boxes[0], self.boxes[1]), self.winner, shutout)

    def winners(self) -> tuple[int, ...]:
        return () if self.winner is None else (self.winner,)

    def totals(self) -> tuple[int, ...]:
        return self.final().totals


# ------------------------------------------------------------------------------------- Hollywood
@dataclass
class HollywoodGame:
    """One of the three Hollywood games (one column pair on the paper sheet).

    ``entries[seat]`` tells whether the seat has an entry; ``boxes`` counts the wins entered;
    ``closed_at`` is the hand number after which the game closed; ``winner`` its winner.
    """

    hand_points: list[int] = field(default_factory=lambda: [0, 0])
    entries: list[bool] = field(default_factory=lambda: [False, False])
    boxes: list[int] = field(default_factory=lambda: [0, 0])
    lines: list[tuple[int, int, int]] = field(default_factory=list)  # (hand number, seat, points)
    closed_at: int | None = None
    winner: int | None = None

    @property
    def is_closed(self) -> bool:
        return self.closed_at is not None


@dataclass
class HollywoodSheet:
    """Three games scored at once (RULES.md H): a win of ``s`` by P is added to each open game
    where P has an entry, and to the first open game where P has none (opening it), then stops.
    Each game closes when a player reaches the target in it and is settled on its own: game bonus,
    its own boxes (wins entered in it), shutout = the loser has no entry in it.
    """

    scoring: ClassVar[str] = "hollywood"
    variant: ClassVar[bool] = True
    seats: ClassVar[int] = 2
    deals_per_hand: ClassVar[int] = 1
    sides: ClassVar[tuple[tuple[int, ...], ...]] = ((0,), (1,))

    rules: Rules
    games: list[HollywoodGame] = field(default_factory=lambda: [HollywoodGame() for _ in range(3)])
    hands: list[HandSummary] = field(default_factory=list)

    @property
    def is_over(self) -> bool:
        """True when all three games are closed (H)."""
        return all(g.is_closed for g in self.games)

    def add_result(self, winner: int | None, points: int, *, kind: str | None = None,
                   boxes: int = 1, dealer: int = 0, knocker: int | None = None) -> list[int]:
        """Enter one hand. Returns the indexes of the games the points went into.

        :raises IllegalActionError: the match is over, or a bad winner/points value.
        """
        if self.is_over:
            raise IllegalActionError("the Hollywood match is over", "sheet_over")
        _check_result(winner, points, 2)
        number = len(self.hands) + 1
        self.hands.append(HandSummary(number, dealer,
                                      kind or ("dead" if winner is None else "knock"),
                                      winner, points, boxes if winner is not None else 0,
                                      knocker))
        if winner is None:
            return []
        into = []
        for i, g in enumerate(self.games):
            if g.is_closed:
                continue
            opened = not g.entries[winner]
            g.entries[winner] = True
            g.hand_points[winner] += points
            g.boxes[winner] += boxes
            g.lines.append((number, winner, points))
            into.append(i)
            if _progress(self.rules, g.hand_points[winner], g.boxes[winner]) \
                    >= self.rules.target:
                g.closed_at = number
                g.winner = winner
            if opened:
                break
        return into

    def enter(self, results: Sequence[DealResult]) -> int | None:
        (r,) = results
        self.add_result(r.winner, r.points if r.winner is not None else 0, kind=r.kind,
                        boxes=max(r.boxes, 1), dealer=r.dealer, knocker=r.knocker)
        return r.winner

    def final(self, index: int) -> FinalScore:
        """Settlement of game ``index`` (0..2); totals are (0, 0) while it is open."""
        g = self.games[index]
        w = g.winner
        shutout = w is not None and not g.entries[1 - w]
        return settle(self.rules, (g.hand_points[0], g.hand_points[1]), (g.boxes[0], g.boxes[1]),
                      w, shutout)

    def totals(self) -> tuple[int, int]:
        """Sum of the settled totals of the closed games, per seat."""
        t = [0, 0]
        for i, g in enumerate(self.games):
            if g.is_closed:
                f = self.final(i)
                t[0] += f.totals[0]
                t[1] += f.totals[1]
        return (t[0], t[1])

    def progress(self, player: int) -> int:
        for g in self.games:
            if not g.is_closed:
                return _progress(self.rules, g.hand_points[player], g.boxes[player])
        return 0

    def winners(self) -> tuple[int, ...]:
        if not self.is_over:
            return ()
        t = self.totals()
        return () if t[0] == t[1] else ((0,) if t[0] > t[1] else (1,))


# ---------------------------------------------------------------------------------- three players
@dataclass
class ThreePlayerSheet:
    """Three players (3P): the dealer sits out; after a scored hand the loser deals next and
    sits out, and the winner plays the previous dealer; a dead hand keeps dealer and pair. Each
    player keeps own hand points and boxes; the first to the target wins the game bonus.

    :param first_dealer: the player (0..2) who cut lowest (chosen by the caller).
    """

    scoring: ClassVar[str] = "three_player"
    variant: ClassVar[bool] = True
    seats: ClassVar[int] = 3
    deals_per_hand: ClassVar[int] = 1
    sides: ClassVar[tuple[tuple[int, ...], ...]] = ((0,), (1,), (2,))

    rules: Rules
    first_dealer: int = 0
    dealer: int = field(init=False)
    hand_points: list[int] = field(default_factory=lambda: [0, 0, 0])
    boxes: list[int] = field(default_factory=lambda: [0, 0, 0])
    hands: list[HandSummary] = field(default_factory=list)
    pairs: list[tuple[int, int]] = field(default_factory=list)
    winner: int | None = None

    def __post_init__(self) -> None:
        if self.first_dealer not in (0, 1, 2) or isinstance(self.first_dealer, bool):
            raise IllegalActionError("first_dealer must be player 0, 1 or 2")
        self.dealer = self.first_dealer

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    @property
    def players(self) -> tuple[int, int]:
        """The two players of the next hand (everyone but the dealer), in seat order."""
        a, b = (p for p in range(3) if p != self.dealer)
        return (a, b)

    def add_result(self, winner: int | None, points: int, *, kind: str | None = None,
                   boxes: int = 1, knocker: int | None = None) -> None:
        """Enter the current hand: ``winner`` must be one of :attr:`players`, or None (dead).

        :raises IllegalActionError: over, or a winner who did not play this hand.
        """
        if self.is_over:
            raise IllegalActionError("the game is over", "sheet_over")
        _check_result(winner, points, 3)
        pair = self.players
        if winner is not None and winner not in pair:
            raise IllegalActionError(f"player {winner} sat out this hand (dealer {self.dealer})")
        self.pairs.append(pair)
        self.hands.append(HandSummary(len(self.hands) + 1, self.dealer,
                                      kind or ("dead" if winner is None else "knock"), winner,
                                      points, boxes if winner is not None else 0, knocker))
        if winner is None:
            return
        loser = pair[0] if pair[1] == winner else pair[1]
        self.hand_points[winner] += points
        self.boxes[winner] += boxes
        self.dealer = loser
        if self.progress(winner) >= self.rules.target:
            self.winner = winner

    def enter(self, results: Sequence[DealResult]) -> int | None:
        (r,) = results
        if tuple(sorted(r.players)) != self.players or r.dealer != self.dealer:
            raise IllegalActionError(f"players {list(self.players)} play this hand, dealt by "
                                     f"player {self.dealer} (3P)")
        self.add_result(r.winner, r.points if r.winner is not None else 0, kind=r.kind,
                        boxes=max(r.boxes, 1), knocker=r.knocker)
        return r.winner

    def progress(self, player: int) -> int:
        return _progress(self.rules, self.hand_points[player], self.boxes[player])

    def settlements(self) -> dict[int, FinalScore]:
        """At game end, the winner's settlement against each opponent (shutout judged per
        opponent), keyed by the opponent; empty while the game goes on."""
        w = self.winner
        if w is None:
            return {}
        out = {}
        for o in range(3):
            if o == w:
                continue
            out[o] = settle(self.rules, (self.hand_points[w], self.hand_points[o]),
                            (self.boxes[w], self.boxes[o]), 0, self.hand_points[o] == 0)
        return out

    def winners(self) -> tuple[int, ...]:
        return () if self.winner is None else (self.winner,)

    def totals(self) -> tuple[int, ...]:
        """Per player, once the game is over: hand points + boxes x box bonus, and the game
        bonus to the winner (the score keeper's totals; each settlement against one opponent,
        shutout included, is :meth:`settlements`); zeros while the game goes on."""
        w = self.winner
        if w is None:
            return (0, 0, 0)
        return tuple(self.hand_points[p] + self.boxes[p] * self.rules.box_bonus
                     + (self.rules.game_bonus if p == w else 0) for p in range(3))

    @property
    def margin(self) -> int:
        """At the end: the winner's margins over each opponent, summed (0 while going on)."""
        return sum(f.margin for f in self.settlements().values())


# ----------------------------------------------------------------------------------- partnership
def partnership_pairings(hand_number: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """The two tables of hand ``hand_number`` (1-based), players A0 B1 C2 D3, teams A+C vs B+D:
    odd hands A-B and C-D, even hands A-D and C-B (opponents switch every hand, 4P)."""
    if hand_number % 2 == 1:
        return ((0, 1), (2, 3))
    return ((0, 3), (2, 1))


@dataclass
class PartnershipSheet:
    """Partnership (4P): each hand is two two-player games; each team adds its players' winning
    scores, the team with more scores the difference, a net tie scores nothing, one box to the
    net winner; team 0 = A+C (players 0, 2), team 1 = B+D (players 1, 3). A dead table counts
    nothing. Uses the rules' target (125 for the ``partnership`` preset) and game bonus; the
    teams' tally is a :class:`StandardSheet` (``game``: seats = teams)."""

    scoring: ClassVar[str] = "partnership"
    variant: ClassVar[bool] = True
    seats: ClassVar[int] = 4
    deals_per_hand: ClassVar[int] = 2
    sides: ClassVar[tuple[tuple[int, ...], ...]] = ((0, 2), (1, 3))

    rules: Rules
    game: StandardSheet = field(init=False)
    tables: list[tuple[tuple[int | None, int], tuple[int | None, int]]] = field(
        default_factory=list)

    def __post_init__(self) -> None:
        self.game = StandardSheet(self.rules)

    @property
    def is_over(self) -> bool:
        return self.game.is_over

    def add_hand(self, first: tuple[int | None, int], second: tuple[int | None, int]) -> int | None:
        """Enter both tables' results ``(winning player or None, points)`` in the order of
        :func:`partnership_pairings`. Returns the team that scored, or None.

        :raises IllegalActionError: a winner who did not sit at that table, bad points, or over.
        """
        if self.is_over:
            raise IllegalActionError("the game is over", "sheet_over")
        number = len(self.tables) + 1
        pairs = partnership_pairings(number)
        team = [0, 0]
        for (w, p), pair in zip((first, second), pairs, strict=True):
            _check_result(w, p, 4)
            if w is not None and w not in pair:
                raise IllegalActionError(f"player {w} did not play at table {pair} in hand "
                                         f"{number}")
            if w is not None:
                team[w % 2] += p
        self.tables.append((first, second))
        if team[0] == team[1]:
            self.game.add_result(None, 0, kind="tie")
            return None
        t = 0 if team[0] > team[1] else 1
        self.game.add_result(t, abs(team[0] - team[1]))
        return t

    def enter(self, results: Sequence[DealResult]) -> int | None:
        first, second = results
        pairs = partnership_pairings(len(self.tables) + 1)
        for r, pair in zip((first, second), pairs, strict=True):
            if r.players not in (pair, pair[::-1]):
                raise IllegalActionError(f"players {list(pair)} play at this table (4P)")
        return self.add_hand((first.winner, first.points if first.winner is not None else 0),
                             (second.winner, second.points if second.winner is not None else 0))

    def progress(self, player: int) -> int:
        return self.game.progress(player % 2)

    def final(self) -> FinalScore:
        """The teams' settlement (seats of the result = teams 0 and 1)."""
        return self.game.final()

    def winners(self) -> tuple[int, ...]:
        w = self.game.winner
        return () if w is None else (w, w + 2)

    def totals(self) -> tuple[int, ...]:
        return self.game.final().totals


#: every scoring's sheet, by name (RULES.md 8, H, 3P, 4P).
SHEETS: dict[str, type[StandardSheet] | type[HollywoodSheet] | type[ThreePlayerSheet]
             | type[PartnershipSheet]] = {
    "standard": StandardSheet, "hollywood": HollywoodSheet, "three_player": ThreePlayerSheet,
    "partnership": PartnershipSheet,
}


def new_sheet(scoring: str, rules: Rules, first_dealer: int = 0) -> Sheet:
    """A new sheet of ``scoring`` (:data:`SHEETS`); ``first_dealer`` matters to three players
    only (the player who cut lowest).

    :raises IllegalActionError: an unknown scoring, or a bad first dealer.
    """
    if scoring == "three_player":
        return ThreePlayerSheet(rules, first_dealer)
    cls = SHEETS.get(scoring)
    if cls is None:
        raise IllegalActionError(f"unknown scoring {scoring!r}; scorings: {', '.join(SHEETS)}")
    return cls(rules)


def side_of(sheet: Sheet, player: int) -> int:
    """The side (:attr:`Sheet.sides`) ``player`` belongs to.

    :raises IllegalActionError: no such player at the table."""
    for i, side in enumerate(sheet.sides):
        if player in side:
            return i
    raise IllegalActionError(f"no player {player!r} at this table")
