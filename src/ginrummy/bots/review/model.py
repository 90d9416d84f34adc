"""The review's results and their JSON: a graded decision, a luck event, a deal, a seat's
summary, a game. Cards are card texts in JSON; chances are 0..1, points are hand points (R-7.x),
signed from the seat's side (+: the seat scores them)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...actions import Action
from ...cards import card_text
from ..hints import Hint

__all__ = ["MoveValue", "Note", "Confirmation", "Decision", "LuckEvent", "DealReview",
           "SeatSummary", "TurningPoint", "GameReview"]


def _r(x: float, n: int = 4) -> float:
    return round(float(x), n)


@dataclass(frozen=True, slots=True)
class MoveValue:
    """One move's value: ``win`` the chance (0..1) of winning the game after it between players
    of equal strength (what grades are made of), ``points`` the mean signed hand points of the
    deal after it (+: the seat scores), ``chance`` the chance of winning after it counting who
    plays (the players' ratings; None: the same as ``win``; docs/review.md "Who is playing")."""

    action: Action
    win: float
    points: float
    chance: float | None = None

    def to_json(self) -> dict[str, Any]:
        """``{"action", "kind", "card", "win", "points", "chance"}`` (``action``: the text to
        post)."""
        return {"action": self.action.text, "kind": self.action.kind.value,
                "card": None if self.action.card is None else card_text(self.action.card),
                "win": _r(self.win), "points": _r(self.points, 2),
                "chance": _r(self.win if self.chance is None else self.chance)}


@dataclass(frozen=True, slots=True)
class Note:
    """One fact behind a grade, as a code and its parameters (cards as texts) for the words of
    the catalogue (``review.note.<code>``): ``breaks_meld`` {card, meld}, ``feeds`` {card,
    taken}, ``undercut_risk`` {k, risk}, ``missed_gin`` {}, ``missed_knock`` {k}."""

    code: str
    params: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "params": dict(self.params)}


@dataclass(frozen=True, slots=True)
class Confirmation:
    """The play-outs that confirmed (or not) a decision the search graded a mistake or a blunder
    (:mod:`ginrummy.bots.review.confirm`).

    :ivar playouts: worlds played out (each move once in each).
    :ivar judge: the bot that played both seats (a name of
        :data:`~ginrummy.bots.review.confirm.JUDGES`).
    :ivar drop: mean over the worlds of the chance of winning the game (0..1) after the best
        move minus after the move played; ``drop_points`` the same in hand points;
        ``z`` the drop in standard errors (paired over the worlds; 99 when every world agrees).
    :ivar search_drop: the search's drop; ``search_grade`` its grade before the play-outs;
        ``search_played`` and ``search_best`` its values of the two moves (the decision's
        ``played`` and ``best`` are the play-outs').
    """

    playouts: int
    judge: str
    drop: float
    drop_points: float
    z: float
    search_drop: float
    search_grade: str
    search_played: MoveValue
    search_best: MoveValue

    def to_json(self) -> dict[str, Any]:
        """``{"playouts", "judge", "drop", "drop_points", "z", "search_drop", "search_grade",
        "search_played", "search_best"}`` (the moves as :meth:`MoveValue.to_json`)."""
        return {"playouts": self.playouts, "judge": self.judge, "drop": _r(self.drop),
                "drop_points": _r(self.drop_points, 2), "z": _r(min(self.z, 99.0), 2),
                "search_drop": _r(self.search_drop), "search_grade": self.search_grade,
                "search_played": self.search_played.to_json(),
                "search_best": self.search_best.to_json()}



@dataclass(frozen=True, slots=True)
class Decision:
    """One graded decision of a seat.

    :ivar number: the deal's number in the game (1-based); ``index`` the action's index in the
        deal (0-based: the replay's step ``index + 1``, ginrummy.replay).
    :ivar kind: ``offer`` (take or pass the first upcard, R-3.1), ``draw`` (stock or pile,
        R-3.3), ``discard`` (holding 11, no knock possible), ``knock`` (holding 11 with a knock
        or gin possible: knock now or play on, R-4.x), ``fiftieth`` (R-8.2).
    :ivar played: the move played; ``best`` the search's best (the same when played best);
        ``moves`` every legal move, best first, as the search values them (``played`` and
        ``best`` as the play-outs value them when ``confirmation`` is set).
    :ivar drop: ``best.win - played.win`` (0..1, >= 0); ``drop_points`` the same in points;
        ``z`` the drop in standard errors of its estimate (paired over the sampled worlds).
    :ivar grade: one of :data:`~ginrummy.bots.review.grades.GRADES`; ``accuracy`` 0..100.
    :ivar deadwood: the seat's deadwood at the decision (of 10 cards, or the least of 11 after
        a legal discard, R-1.6), points.
    :ivar notes: facts behind the grade; ``best_hint`` / ``played_hint`` the hint's explanation
        of each move (:mod:`ginrummy.bots.hints`, the same reasons and numbers), None when the
        move played is the best (then only ``played_hint``).
    :ivar confirmation: the play-outs that re-measured ``drop``, ``drop_points``, ``z``,
        ``grade`` and ``accuracy`` (:mod:`ginrummy.bots.review.confirm`); None when the search's
        are kept (not a mistake or blunder by the search, or a review without play-outs).
    """

    number: int
    index: int
    seat: int
    kind: str
    played: MoveValue
    best: MoveValue
    moves: tuple[MoveValue, ...]
    drop: float
    drop_points: float
    z: float
    grade: str
    accuracy: float
    deadwood: int
    notes: tuple[Note, ...]
    played_hint: Hint | None
    best_hint: Hint | None
    confirmation: Confirmation | None = None

    @property
    def is_best(self) -> bool:
        return self.grade == "best"

    def to_json(self) -> dict[str, Any]:
        """``{"hand", "index", "step", "seat", "kind", "played", "best", "moves", "drop",
        "drop_points", "z", "grade", "accuracy", "deadwood", "notes", "played_hint",
        "best_hint", "confirmation"}``."""
        return {"hand": self.number, "index": self.index, "step": self.index + 1,
                "seat": self.seat, "kind": self.kind, "played": self.played.to_json(),
                "best": self.best.to_json(), "moves": [m.to_json() for m in self.moves],
                "drop": _r(self.drop), "drop_points": _r(self.drop_points, 2),
                "z": _r(min(self.z, 99.0), 2), "grade": self.grade,
                "accuracy": _r(self.accuracy, 1), "deadwood": self.deadwood,
                "notes": [n.to_json() for n in self.notes],
                "played_hint": None if self.played_hint is None else self.played_hint.to_json(),
                "best_hint": None if self.best_hint is None else self.best_hint.to_json(),
                "confirmation": None if self.confirmation is None
                else self.confirmation.to_json()}


@dataclass(frozen=True, slots=True)
class LuckEvent:
    """A chance event of a seat and what it brought against the average
    (:mod:`ginrummy.bots.review.luck`): ``kind`` ``deal`` (the cards dealt, up to the seat's
    first decision) or ``draw`` (a stock card, ``card``); ``win`` in chance of winning the game,
    ``points`` in hand points."""

    number: int
    index: int
    seat: int
    kind: str
    card: int | None
    win: float
    points: float

    def to_json(self) -> dict[str, Any]:
        return {"hand": self.number, "index": self.index, "seat": self.seat, "kind": self.kind,
                "card": None if self.card is None else card_text(self.card),
                "win": _r(self.win), "points": _r(self.points, 2)}


@dataclass(frozen=True, slots=True)
class DealReview:
    """One finished deal reviewed.

    :ivar number: its number in the game; ``dealer`` its dealer's engine seat.
    :ivar seats: the players reviewed (two players: the seats).
    :ivar decisions: their graded decisions in order of play; ``luck`` their chance events.
    :ivar result: the deal's signed points per engine seat (index = seat; + that seat scored).
    :ivar kind: how it ended (knock, gin, big_gin, undercut, tie, dead).
    :ivar win_before: per engine seat, the chance of winning the game (the match; a
        partnership: the team's) before the deal (from the score); ``win_after`` after it.
    :ivar players: the players at engine seats 0 and 1.
    """

    number: int
    dealer: int
    seats: tuple[int, ...]
    decisions: tuple[Decision, ...]
    luck: tuple[LuckEvent, ...]
    result: tuple[int, int]
    kind: str
    win_before: tuple[float, float]
    win_after: tuple[float, float]
    players: tuple[int, int] = (0, 1)

    def to_json(self) -> dict[str, Any]:
        return {"hand": self.number, "dealer": self.dealer, "seats": list(self.seats),
                "players": list(self.players),
                "kind": self.kind, "result": list(self.result),
                "win_before": [_r(x) for x in self.win_before],
                "win_after": [_r(x) for x in self.win_after],
                "decisions": [d.to_json() for d in self.decisions],
                "luck": [e.to_json() for e in self.luck]}


@dataclass(frozen=True, slots=True)
class SeatSummary:
    """One seat over the deals reviewed (:mod:`ginrummy.bots.review.summary`).

    :ivar decisions: graded decisions; ``grades`` how many of each grade.
    :ivar accuracy: mean decision accuracy (0..100), None without a decision.
    :ivar lost_win / lost_points: the sum of the drops (chance, points) of all its decisions;
        ``mistakes_points``: the part of ``lost_points`` from inaccuracies, mistakes and
        blunders.
    :ivar result_win: the change in its chance of winning over the deals (the game's end minus
        its start); ``result_points``: its hand points minus the opponent's over them.
    :ivar cards_win / cards_points: its luck (the deal and its stock draws against the
        average); ``skill_win`` / ``skill_points``: its decisions (minus the drops);
        ``rest_win`` / ``rest_points``: the remainder: its opponent's play and the cards it
        could not see (``result = cards + skill + rest``).
    """

    seat: int
    decisions: int
    grades: dict[str, int]
    accuracy: float | None
    lost_win: float
    lost_points: float
    mistakes_points: float
    result_win: float
    result_points: float
    cards_win: float
    cards_points: float
    skill_win: float
    skill_points: float
    rest_win: float
    rest_points: float

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "decisions": self.decisions, "grades": dict(self.grades),
                "accuracy": None if self.accuracy is None else _r(self.accuracy, 1),
                "lost": {"win": _r(self.lost_win), "points": _r(self.lost_points, 1)},
                "mistakes_points": _r(self.mistakes_points, 1),
                "result": {"win": _r(self.result_win), "points": _r(self.result_points, 1)},
                "luck": {"cards": {"win": _r(self.cards_win), "points": _r(self.cards_points, 1)},
                         "decisions": {"win": _r(self.skill_win),
                                       "points": _r(self.skill_points, 1)},
                         "rest": {"win": _r(self.rest_win), "points": _r(self.rest_points, 1)}}}


@dataclass(frozen=True, slots=True)
class TurningPoint:
    """One of the decisions that cost the most chance of winning, whoever made them."""

    decision: Decision

    def to_json(self) -> dict[str, Any]:
        d = self.decision
        return {"hand": d.number, "index": d.index, "step": d.index + 1, "seat": d.seat,
                "played": d.played.action.text, "best": d.best.action.text, "grade": d.grade,
                "drop": _r(d.drop), "drop_points": _r(d.drop_points, 2)}


@dataclass(frozen=True, slots=True)
class GameReview:
    """A game (or the deals of it asked for) reviewed.

    :ivar scoring: the record's form (``standard`` for two players).
    :ivar deals: each deal reviewed; ``seats`` the summary of each seat reviewed;
        ``turning_points``: the three costliest decisions.
    :ivar complete: the record's game is over (else the deals finished so far).
    :ivar ratings: the players' ratings the chances were valued with (one per player, None
        where unknown), or None: the later deals valued as even
        (:func:`~ginrummy.bots.review.score.score_context`).
    """

    scoring: str
    rules: dict[str, Any]
    deals: tuple[DealReview, ...]
    seats: tuple[SeatSummary, ...]
    turning_points: tuple[TurningPoint, ...]
    complete: bool
    budget: dict[str, Any]
    ratings: tuple[float | None, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        """The whole review: ``{"format", "scoring", "rules", "complete", "budget", "ratings",
        "seats", "turning_points", "hands"}`` (docs/cli.md, ``ginrummy review --json``)."""
        return {"format": "ginrummy-review/1", "scoring": self.scoring, "rules": self.rules,
                "complete": self.complete, "budget": dict(self.budget),
                "ratings": None if self.ratings is None else list(self.ratings),
                "seats": [s.to_json() for s in self.seats],
                "turning_points": [t.to_json() for t in self.turning_points],
                "hands": [d.to_json() for d in self.deals]}
