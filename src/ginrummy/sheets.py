"""Score sheets of the variants that are more than one game to the target (RULES.md section 9):
Hollywood (H), three players (3P) and partnership (4P). Each takes hand results (who won, how many
points) in order, so it serves both engine-played deals and games played with real cards.

>>> h = HollywoodSheet(Rules.preset("pagat"))
>>> for w, p in [(0, 18), (1, 12), (0, 25), (1, 30), (0, 15), (0, 22), (1, 20), (0, 25)]:
...     _ = h.add_result(w, p)
>>> [g.hand_points for g in h.games]
[[105, 62], [87, 50], [62, 20]]
>>> h.final(0).totals
(305, 122)
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .errors import IllegalActionError
from .game import FinalScore, Game, HandSummary, settle
from .rules import Rules

__all__ = ["HollywoodSheet", "HollywoodGame", "ThreePlayerSheet", "PartnershipSheet",
           "partnership_pairings"]


def _check_result(winner: int | None, points: int, seats: int) -> None:
    if winner is not None and (isinstance(winner, bool) or winner not in range(seats)):
        raise IllegalActionError(f"winner must be a player 0..{seats - 1} or none, not {winner!r}")
    if not isinstance(points, int) or isinstance(points, bool) or points < 0:
        raise IllegalActionError(f"points must be a whole number >= 0, not {points!r}")
    if winner is None and points:
        raise IllegalActionError("a dead hand scores no points")


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

    rules: Rules
    games: list[HollywoodGame] = field(default_factory=lambda: [HollywoodGame() for _ in range(3)])
    hands: list[HandSummary] = field(default_factory=list)

    @property
    def is_over(self) -> bool:
        """True when all three games are closed (H)."""
        return all(g.is_closed for g in self.games)

    def add_result(self, winner: int | None, points: int, *, kind: str | None = None,
                   boxes: int = 1) -> list[int]:
        """Enter one hand. Returns the indexes of the games the points went into.

        :raises IllegalActionError: the match is over, or a bad winner/points value.
        """
        if self.is_over:
            raise IllegalActionError("the Hollywood match is over", "sheet_over")
        _check_result(winner, points, 2)
        number = len(self.hands) + 1
        self.hands.append(HandSummary(number, 0, kind or ("dead" if winner is None else "knock"),
                                      winner, points, boxes if winner is not None else 0))
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
            prog = g.hand_points[winner]
            if self.rules.boxes_count_toward_target:
                prog += g.boxes[winner] * self.rules.box_bonus
            if prog >= self.rules.target:
                g.closed_at = number
                g.winner = winner
            if opened:
                break
        return into

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


# ---------------------------------------------------------------------------------- three players
@dataclass
class ThreePlayerSheet:
    """Three players (3P): the dealer sits out; after a scored hand the loser deals next and
    sits out, and the winner plays the previous dealer; a dead hand keeps dealer and pair. Each
    player keeps own hand points and boxes; the first to the target wins the game bonus.

    :param first_dealer: the player (0..2) who cut lowest (chosen by the caller).
    """

    rules: Rules
    first_dealer: int = 0
    dealer: int = field(init=False)
    hand_points: list[int] = field(default_factory=lambda: [0, 0, 0])
    boxes: list[int] = field(default_factory=lambda: [0, 0, 0])
    hands: list[HandSummary] = field(default_factory=list)
    pairs: list[tuple[int, int]] = field(default_factory=list)
    winner: int | None = None

    def __post_init__(self) -> None:
        if self.first_dealer not in (0, 1, 2):
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
                   boxes: int = 1) -> None:
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
                                      points, boxes if winner is not None else 0))
        if winner is None:
            return
        loser = pair[0] if pair[1] == winner else pair[1]
        self.hand_points[winner] += points
        self.boxes[winner] += boxes
        self.dealer = loser
        prog = self.hand_points[winner]
        if self.rules.boxes_count_toward_target:
            prog += self.boxes[winner] * self.rules.box_bonus
        if prog >= self.rules.target:
            self.winner = winner

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
    nothing. Uses the rules' target (125 for the ``partnership`` preset) and game bonus."""

    rules: Rules
    game: Game = field(init=False)
    tables: list[tuple[tuple[int | None, int], tuple[int | None, int]]] = field(
        default_factory=list)

    def __post_init__(self) -> None:
        self.game = Game(self.rules, 0)

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

    def final(self) -> FinalScore:
        return self.game.final()
