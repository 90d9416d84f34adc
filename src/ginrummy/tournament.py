"""Bot-against-bot tournaments in every form of the game: full games (Hollywood: full matches)
on the same deck streams with the players rotated over the seats.

A tournament is a :class:`Lineup` (the form, ``standard``, ``hollywood``, ``three_player`` or
``partnership`` (:data:`ginrummy.variants.SCORINGS`), and a player name for each seat), rules, a
number of games and a seed. The games come in *sets* (a set is what ``pair`` meant when every
tournament had two players): the games of set ``k`` share the first dealer, the partnership cuts
and the sequence of decks (the decks diverge only as the games do), with the lineup rotated by one
seat from game to game, so that every seat's cards go to every player:

- two players (standard, Hollywood): the seat-swapped pair, A in seat 0 then in seat 1;
- three players: the three rotations (A in seat 0, 1, 2; the first dealer is a seat, so A is
  also the first dealer, first to play and first to sit out once each);
- partnership: the teams swapped (A+C, then B+D) when each team is one level; all four rotations
  for four different players.

Every game is played by the one bot loop, :func:`ginrummy.bots.play.play_game`, and every random
choice is seeded from ``seed``, the set and the rotation: a tournament replays exactly, in one
process, with ``jobs`` processes or on Ray (:mod:`ginrummy.tournament_ray`).

>>> r = run_tournament("simple", "random", games=2, rules=Rules.preset("eaai"), seed=1)
>>> r.games, r.wins_a
(2, 2)
>>> r = run_tournament("simple", "random", games=3, rules=Rules.preset("standard"), seed=1,
...                    scoring="three_player")
>>> r.lineup.players, r.games, r.wins_a + r.wins_b + r.ties + r.unfinished
(('simple', 'random', 'random'), 3, 3)
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Any

from .actions import Action
from .bots import Bot, Context, make_bot
from .bots.play import MAX_ACTIONS_PER_DEAL, MAX_DEALS
from .bots.play import play_game as play_bots
from .errors import RulesError
from .game import Game
from .hand import HandState
from .rules import PRESETS, Rules
from .variants import PLAYER_COUNT, SCORING_FIXED, SCORINGS, check_table
from .views import PlayerView

__all__ = ["Lineup", "TournamentResult", "GameSummary", "run_tournament", "run_lineup",
           "format_table", "table_rules", "DEFAULT_PRESET", "sets_for",
           "wilson", "play_one", "play_sets", "play_pair_game", "play_pairs", "pair_batches",
           "summarise", "FINISH_KINDS", "TIMING_FIELDS", "MAX_DEALS", "MAX_ACTIONS_PER_DEAL"]

#: the fields of :meth:`TournamentResult.to_json` that are measured times (they differ from run to
#: run and machine to machine); every other field depends only on the players, rules, games and
#: seed, whatever ran the games (one process, ``jobs`` processes or a Ray cluster).
TIMING_FIELDS = ("decision_ms_p50", "decision_ms_p99", "decision_ms_max", "decision_cpu_ms_p50",
                 "decision_cpu_ms_p99", "elapsed_s", "timing")
#: how hands end, in the order they are reported.
FINISH_KINDS = ("knock", "gin", "big_gin", "undercut", "tie", "dead")


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval of a proportion (95% for z = 1.96).

    >>> [round(x, 3) for x in wilson(60, 100)]
    [0.502, 0.691]
    """
    if n == 0:
        return 0.0, 1.0
    ph = wins / n
    den = 1 + z * z / n
    centre = (ph + z * z / (2 * n)) / den
    half = z * math.sqrt(ph * (1 - ph) / n + z * z / (4 * n * n)) / den
    return max(0.0, centre - half), min(1.0, centre + half)


# -------------------------------------------------------------------------------------- rules
#: the rules preset a tournament of each form plays unless told otherwise (``eaai``: the AI
#: benchmark's rules, for two players; the ``partnership`` preset for the partnership form).
DEFAULT_PRESET: dict[str, str] = {"standard": "eaai", "hollywood": "standard",
                                  "three_player": "standard", "partnership": "partnership"}


def table_rules(preset: str | None, scoring: str | None
                ) -> tuple[str, str, Rules, dict[str, Any]]:
    """The form and the rules a tournament plays, from a preset name and a form, either left
    out: ``(scoring, preset, rules, fitted)``.

    - No form: the ``partnership`` preset means the partnership form (4P); any other preset,
      or none, two players (``standard``).
    - No preset: :data:`DEFAULT_PRESET` of the form.
    - The ``partnership`` preset with another form is refused: it is the partnership form's
      rules (target 125), not a two- or three-player game's.
    - A field the form decides itself (:data:`ginrummy.variants.SCORING_FIXED`: the three-player
      dealer rotation, the partnership's cut and single box) takes the form's value, as at the
      web's tables (:func:`ginrummy.variants.fit_to_table`); ``fitted`` names each field so
      changed with its new value (``eaai``'s alternating dealer at a three-player table:
      ``{"next_dealer": "winner"}``), and the command line says so.

    :raises RulesError: an unknown preset or form, or the ``partnership`` preset with another
        form.

    >>> table_rules("partnership", None)[:2]
    ('partnership', 'partnership')
    >>> table_rules("eaai", "three_player")[3]
    {'next_dealer': 'winner'}
    """
    if scoring is not None and scoring not in SCORINGS:
        raise RulesError(f"unknown form {scoring!r}; forms: {', '.join(SCORINGS)}",
                         "unknown_scoring", scoring=repr(scoring)[:60], choices=list(SCORINGS))
    if scoring is None:
        scoring = "partnership" if preset == "partnership" else "standard"
    if preset is None:
        preset = DEFAULT_PRESET[scoring]
    base = Rules.preset(preset)
    if preset == "partnership" and scoring != "partnership":
        fits = [p for p in PRESETS if p != "partnership"]
        raise RulesError(
            f"the partnership preset is the rules of the partnership form (4P, target 125), "
            f"not of a {scoring} table: give --scoring partnership, or another preset "
            f"({', '.join(fits)})")
    fitted = {k: v for k, v in SCORING_FIXED[scoring].items() if getattr(base, k) != v}
    rules = base.with_changes(**fitted)
    check_table(rules, scoring)
    return scoring, preset, rules, fitted


# ------------------------------------------------------------------------------------ lineups
@dataclass(frozen=True, slots=True)
class Lineup:
    """Who plays a tournament: the form and a player name (a level, :data:`ALL_PLAYERS`) for
    each seat of the first game of every set; later games rotate it (:meth:`players_at`).

    :ivar scoring: the form, one of :data:`ginrummy.variants.SCORINGS`.
    :ivar players: one name per seat (2, 3 or 4: :data:`ginrummy.variants.PLAYER_COUNT`).
    :raises ValueError: an unknown form or player, or the wrong number of players.

    >>> Lineup.of("partnership", "expert", "simple").players
    ('expert', 'simple', 'expert', 'simple')
    >>> Lineup.of("three_player", "expert", "simple").rotations
    3
    """

    scoring: str
    players: tuple[str, ...]

    def __post_init__(self) -> None:
        if self.scoring not in SCORINGS:
            raise ValueError(f"unknown form {self.scoring!r}; forms: {', '.join(SCORINGS)}")
        n = PLAYER_COUNT[self.scoring]
        if len(self.players) != n:
            raise ValueError(f"a {self.scoring} table has {n} seats: name {n} players, not "
                             f"{len(self.players)}")
        for name in self.players:
            make_bot(name)  # ValueError for an unknown name

    @classmethod
    def of(cls, scoring: str, a: str, b: str) -> Lineup:
        """``a`` against ``b`` in form ``scoring``: two players ``(a, b)``; three players
        ``a`` against two ``b`` ``(a, b, b)``; partnership team A+C = ``a``, team B+D = ``b``."""
        n = PLAYER_COUNT.get(scoring)
        if n is None:
            raise ValueError(f"unknown form {scoring!r}; forms: {', '.join(SCORINGS)}")
        if scoring == "partnership":
            return cls(scoring, (a, b, a, b))
        return cls(scoring, (a,) + (b,) * (n - 1))

    @property
    def seats(self) -> int:
        return len(self.players)

    @property
    def rotations(self) -> int:
        """Games in a set: the number of seats, but in partnership only the rotations that
        differ (2 when each team is one level: the teams swapped)."""
        n = self.seats
        if self.scoring != "partnership":
            return n
        return next(r for r in range(1, n + 1)
                    if self.players[r:] + self.players[:r] == self.players)

    def slot_at(self, seat: int, rotation: int) -> int:
        """The lineup seat (index into :attr:`players`) that sits at ``seat`` in the game of
        ``rotation``: lineup seat ``j`` sits at seat ``(j + rotation) % seats``."""
        return (seat - rotation) % self.seats

    def players_at(self, rotation: int) -> tuple[str, ...]:
        """The name at each seat in the game of ``rotation``."""
        return tuple(self.players[self.slot_at(s, rotation)] for s in range(self.seats))

    def side_of(self, slot: int) -> tuple[int, ...]:
        """The lineup seats that win or lose with lineup seat ``slot`` (partnership: the team
        of seats ``slot`` and ``slot + 2``; otherwise ``slot`` alone)."""
        if self.scoring == "partnership":
            return (slot % 2, slot % 2 + 2)
        return (slot,)

    @property
    def a(self) -> str:
        """Player A: the first seat's name."""
        return self.players[0]

    @property
    def b(self) -> str:
        """The other side's name(s), in seat order, joined by ``+`` when they differ."""
        a_side = self.side_of(0)
        names: list[str] = []
        for i, p in enumerate(self.players):
            if i not in a_side and p not in names:
                names.append(p)
        return "+".join(names) if names else self.a

    def to_json(self) -> dict[str, Any]:
        return {"scoring": self.scoring, "players": list(self.players)}


# --------------------------------------------------------------------------------- one game
#: one deal of a game, in lineup seats: ``(kind, winner, knocker, points, players)``; winner and
#: knocker are ``None`` when there was none; ``points`` the hand points the winner scored.
DealRow = tuple[str, int | None, int | None, int, tuple[int, int]]


@dataclass
class GameSummary:
    """One game (a Hollywood match) of a tournament.

    :ivar a_won: whether A's side won (``None``: unfinished, or a Hollywood tie).
    :ivar hands: the deals A's side played, from its side: ``(kind, points: + A's side scored /
        - the other scored, knocker: 1 = A's side, 0 = the other, None)``.
    :ivar a_times_ms: A's decision times in wall-clock ms; ``a_cpu_ms`` in CPU ms of the process
        (what a decision costs on an idle core).
    :ivar set_index: the set (``pair``) and ``rotation`` of the game.
    :ivar winners: the lineup seats that won (both partners); ``()`` on a tie; ``None`` when the
        game did not finish.
    :ivar deals: every deal (:data:`DealRow`), in order.
    :ivar totals: per lineup seat, its side's settled total (R-10.5; Hollywood: summed over the
        three games; zeros when unfinished).
    :ivar times_ms: per lineup seat, its decision times (ms); ``cpu_ms`` the CPU times.
    """

    a_won: bool | None
    hands: list[tuple[str, int, int | None]] = field(default_factory=list)
    a_times_ms: list[float] = field(default_factory=list)
    a_cpu_ms: list[float] = field(default_factory=list)
    set_index: int = 0
    rotation: int = 0
    winners: tuple[int, ...] | None = None
    deals: list[DealRow] = field(default_factory=list)
    totals: tuple[int, ...] = ()
    times_ms: list[list[float]] = field(default_factory=list)
    cpu_ms: list[list[float]] = field(default_factory=list)


def _deck_stream(seed: int, index: int, seats: int
                 ) -> tuple[int, Callable[[int], list[int]], Callable[[int], int]]:
    """Set ``index``'s first dealer (a seat), decks (by deal index) and partnership cuts (the
    dealer seat of deal ``i``'s pair): the same for every game of the set."""
    rng = random.Random(f"ginrummy-tournament:{seed}:{index}")
    first_dealer = rng.randrange(seats if seats == 3 else 2)
    decks: list[list[int]] = []

    def deck(i: int) -> list[int]:
        while len(decks) <= i:
            d = list(range(52))
            rng.shuffle(d)
            decks.append(d)
        return decks[i]

    def cut(i: int) -> int:
        return random.Random(f"ginrummy-tournament-cut:{seed}:{index}:{i}").randrange(2)

    return first_dealer, deck, cut


#: ``before(game, deal index, lineup seat)``: called before each decision (outside its timing).
Before = Callable[[Game, int, int], None]


class _Timed:
    """A bot whose decisions are timed (wall clock and CPU) into per-seat lists."""

    def __init__(self, bot: Bot, slot: int, player: int, game: Game, times: list[float],
                 cpus: list[float], before: Before | None) -> None:
        self.bot = bot
        self.name = bot.name
        self.slot = slot
        self.player = player
        self.game = game
        self.times = times
        self.cpus = cpus
        self.before = before

    def choose(self, view: PlayerView, ctx: Context) -> Action:
        if self.before is not None:
            i = self.game.deal_of(self.player)
            assert i is not None
            self.before(self.game, i, self.slot)
        t0 = time.perf_counter()
        c0 = time.process_time()
        action = self.bot.choose(view, ctx)
        self.times.append((time.perf_counter() - t0) * 1000.0)
        self.cpus.append((time.process_time() - c0) * 1000.0)
        return action


def play_one(lineup: Lineup, rules: Rules, seed: int, index: int, rotation: int, *,
             bots: dict[int, Bot] | None = None, before: Before | None = None) -> GameSummary:
    """Play game ``rotation`` of set ``index`` to its end (:func:`ginrummy.bots.play.play_game`).

    For measuring tools (benchmarks/bots.py ``--see``): ``bots`` maps a lineup seat to a bot
    object that plays it instead of ``make_bot``; ``before(game, deal index, lineup seat)`` is
    called before each decision of a computer (outside its timing). Neither changes the decks,
    seats or the bots' random generators.

    :raises RulesError: the form cannot honour ``rules``
        (:func:`ginrummy.variants.check_table`).
    """
    n = lineup.seats
    first_dealer, deck, cut = _deck_stream(seed, index, n)
    game = Game(rules, first_dealer, lineup.scoring)
    times: list[list[float]] = [[] for _ in range(n)]
    cpus: list[list[float]] = [[] for _ in range(n)]
    players: list[Bot] = []
    for seat in range(n):
        slot = lineup.slot_at(seat, rotation)
        own = (bots or {}).get(slot)
        bot = own if own is not None else make_bot(lineup.players[slot])
        players.append(_Timed(bot, slot, seat, game, times[slot], cpus[slot], before))
    rngs = [random.Random(f"ginrummy-bot:{seed}:{index}:{rotation}:{s}") for s in range(n)]
    play_bots(game, players, rngs, deck, cut)
    return _summary(game, lineup, index, rotation, times, cpus)


def _summary(game: Game, lineup: Lineup, index: int, rotation: int,
             times: list[list[float]], cpus: list[list[float]]) -> GameSummary:
    def slot(player: int | None) -> int | None:
        return None if player is None else lineup.slot_at(player, rotation)

    a_side = lineup.side_of(0)
    deals: list[DealRow] = []
    hands: list[tuple[str, int, int | None]] = []
    for i, s in enumerate(game.seatings):
        r = game.result_of(i)
        if r is None:  # abandoned in play
            continue
        p0, p1 = (lineup.slot_at(p, rotation) for p in s.players)
        w, k = slot(r.winner), slot(r.knocker)
        deals.append((r.kind, w, k, r.points, (p0, p1)))
        if p0 in a_side or p1 in a_side:
            sign = 0 if w is None else (1 if w in a_side else -1)
            hands.append((r.kind, sign * r.points, None if k is None else int(k in a_side)))
    out = GameSummary(None, hands, times[0], cpus[0], index, rotation, None, deals,
                      times_ms=times, cpu_ms=cpus)
    if game.is_over:
        won = tuple(sorted(lineup.slot_at(p, rotation) for p in game.winners()))
        out.winners = won
        out.a_won = bool(set(won) & set(a_side)) if won else None
        totals = game.sheet.totals()
        out.totals = tuple(totals[game.side_of((j + rotation) % lineup.seats)]
                           for j in range(lineup.seats))
    else:
        out.totals = (0,) * lineup.seats
    return out


def play_sets(lineup: Lineup, rules: Rules, seed: int, sets: list[int]) -> list[GameSummary]:
    """Every game of each set in ``sets``, in that order (rotation 0, 1, ...): the unit of
    work a worker process or a Ray task runs."""
    return [play_one(lineup, rules, seed, k, r) for k in sets for r in range(lineup.rotations)]


def play_pair_game(a: str, b: str, rules: Rules, seed: int, pair: int, a_seat: int, *,
              a_bot: Any = None, before_a: Callable[[HandState], None] | None = None
              ) -> GameSummary:
    """A two-player game of pair ``pair`` with player ``a`` in seat ``a_seat``
    (:func:`play_one` of the standard form; the tournament's ``play_game`` before every form
    was played: the name is now the bot loop's, :func:`ginrummy.bots.play.play_game`).
    ``a_bot``, a bot object, plays A instead of ``make_bot(a)``; ``before_a(hand)`` is called
    before each of A's decisions."""
    before: Before | None = None
    if before_a is not None:
        hook = before_a

        def before(game: Game, i: int, slot: int) -> None:
            if slot == 0:
                hook(game.deals[i])

    return play_one(Lineup("standard", (a, b)), rules, seed, pair, a_seat,
                    bots=None if a_bot is None else {0: a_bot}, before=before)


def play_pairs(a: str, b: str, rules: Rules, seed: int, pairs: list[int]) -> list[GameSummary]:
    """The two seat-swapped standard games of each pair in ``pairs`` (:func:`play_sets`)."""
    return play_sets(Lineup("standard", (a, b)), rules, seed, pairs)


_play_pairs = play_pairs  # the name benchmarks/bots.py imports


# ----------------------------------------------------------------------------------- results
@dataclass
class TournamentResult:
    """Totals of a tournament. The ``a``/``b`` fields are from player A's side (the first
    seat's side: its team in partnership) against the rest; :attr:`seats` and :attr:`sides`
    give every lineup seat and every player name.

    ``wins_a``/``wins_b``: games won by A's side / by another; ``ties``: Hollywood matches
    whose totals tied; ``unfinished``: abandoned games (only absurd players get there).
    ``hands``: every deal played; ``points_a``/``points_b``: hand points scored by A's side /
    against it in the deals it played (``a_hands`` of them). Decision times are A's
    (the first seat's).
    """

    a: str
    b: str
    rules: Rules
    seed: int
    games: int
    wins_a: int
    wins_b: int
    unfinished: int
    hands: int
    points_a: int
    points_b: int
    finish: dict[str, int]
    a_knocks: int
    a_knocks_undercut: int
    a_gins: int
    decisions: int
    decision_ms_p50: float
    decision_ms_p99: float
    decision_ms_max: float
    elapsed_s: float
    decision_cpu_ms_p50: float = 0.0
    decision_cpu_ms_p99: float = 0.0
    lineup: Lineup | None = None
    ties: int = 0
    a_hands: int = 0
    seats: list[dict[str, Any]] = field(default_factory=list)
    sides: dict[str, dict[str, Any]] = field(default_factory=dict)
    timing: dict[str, dict[str, float]] = field(default_factory=dict)

    @property
    def scoring(self) -> str:
        return self.lineup.scoring if self.lineup is not None else "standard"

    @property
    def win_rate(self) -> float:
        """Games won by A's side over games won by a side (ties and unfinished left out)."""
        n = self.wins_a + self.wins_b
        return self.wins_a / n if n else 0.0

    @property
    def ci(self) -> tuple[float, float]:
        return wilson(self.wins_a, self.wins_a + self.wins_b)

    @property
    def points_per_hand(self) -> float:
        """A's side's hand points minus the others', per deal it played (dead hands
        included)."""
        n = self.a_hands or self.hands
        return (self.points_a - self.points_b) / n if n else 0.0

    @property
    def a_undercut_rate(self) -> float:
        """Share of A's side's knocks (gin excluded) that were undercut."""
        return self.a_knocks_undercut / self.a_knocks if self.a_knocks else 0.0

    def outcome_json(self) -> dict[str, Any]:
        """:meth:`to_json` without :data:`TIMING_FIELDS`: equal for equal players, rules, games
        and seed, however the games were run."""
        return {k: v for k, v in self.to_json().items() if k not in TIMING_FIELDS}

    def to_json(self) -> dict[str, Any]:
        lo, hi = self.ci
        lineup = self.lineup or Lineup("standard", (self.a, self.b))
        return {
            "a": self.a, "b": self.b,
            "rules": self.rules.preset_name() or self.rules.to_dict(),
            "seed": self.seed, "games": self.games, "wins_a": self.wins_a,
            "wins_b": self.wins_b, "unfinished": self.unfinished,
            "win_rate": round(self.win_rate, 4), "ci_low": round(lo, 4), "ci_high": round(hi, 4),
            "hands": self.hands, "points_per_hand": round(self.points_per_hand, 3),
            "finish": dict(self.finish),
            "a_knocks": self.a_knocks, "a_knocks_undercut": self.a_knocks_undercut,
            "a_undercut_rate": round(self.a_undercut_rate, 4), "a_gins": self.a_gins,
            "decisions": self.decisions,
            "decision_ms_p50": round(self.decision_ms_p50, 3),
            "decision_ms_p99": round(self.decision_ms_p99, 3),
            "decision_ms_max": round(self.decision_ms_max, 3),
            "decision_cpu_ms_p50": round(self.decision_cpu_ms_p50, 3),
            "decision_cpu_ms_p99": round(self.decision_cpu_ms_p99, 3),
            "elapsed_s": round(self.elapsed_s, 1),
            "scoring": lineup.scoring, "lineup": list(lineup.players),
            "rotations": lineup.rotations, "ties": self.ties, "a_hands": self.a_hands,
            "seats": [dict(s) for s in self.seats],
            "sides": {k: dict(v) for k, v in self.sides.items()},
            "timing": {k: dict(v) for k, v in self.timing.items()},
        }


def _percentile(sorted_vals: list[float], q: float) -> float:
    if not sorted_vals:
        return 0.0
    i = min(len(sorted_vals) - 1, max(0, math.ceil(q * len(sorted_vals)) - 1))
    return sorted_vals[i]


def pair_batches(npairs: int, workers: int, max_chunk: int = 8) -> list[list[int]]:
    """Sets ``0 .. npairs - 1`` cut into consecutive batches for ``workers`` workers: about 8
    batches per worker (so that a slow batch does not leave the others idle), at most
    ``max_chunk`` sets each.

    >>> pair_batches(3, 2)
    [[0], [1], [2]]
    >>> b = pair_batches(1000, 2)
    >>> len(b), b[0], sum(b, []) == list(range(1000))
    (125, [0, 1, 2, 3, 4, 5, 6, 7], True)
    """
    chunk = max(1, min(max_chunk, npairs // (max(1, workers) * 8) or 1))
    return [list(range(i, min(npairs, i + chunk))) for i in range(0, npairs, chunk)]


def _share(won: int, n: int) -> dict[str, Any]:
    lo, hi = wilson(won, n)
    return {"won": won, "games": n, "share": round(won / n, 4) if n else 0.0,
            "ci_low": round(lo, 4), "ci_high": round(hi, 4)}


def _seat_rows(lineup: Lineup, games: list[GameSummary]) -> list[dict[str, Any]]:
    """Per lineup seat: games won (a game it finished on the winning side) with a Wilson
    interval, its deals, hand points for and against, knocks and gins, the mean settled total."""
    rows = []
    finished = [g for g in games if g.winners is not None]
    for j, name in enumerate(lineup.players):
        won = sum(1 for g in finished if j in (g.winners or ()))
        hands = pw = pl = knocks = under = gins = 0
        for g in games:
            for kind, w, k, pts, pair in g.deals:
                if j not in pair:
                    continue
                hands += 1
                if w == j:
                    pw += pts
                elif w is not None:
                    pl += pts
                if k == j:
                    if kind in ("knock", "undercut", "tie"):
                        knocks += 1
                        under += kind == "undercut"
                    elif kind in ("gin", "big_gin"):
                        gins += 1
        total = sum(g.totals[j] for g in finished if g.totals)
        rows.append({"seat": j, "player": name, **_share(won, len(finished)), "hands": hands,
                     "points_won": pw, "points_lost": pl,
                     "points_per_hand": round((pw - pl) / hands, 3) if hands else 0.0,
                     "knocks": knocks, "knocks_undercut": under, "gins": gins,
                     "mean_total": round(total / len(finished), 2) if finished else 0.0})
    return rows


def _side_rows(lineup: Lineup, games: list[GameSummary]) -> dict[str, dict[str, Any]]:
    """Per player name: the games won by a side with a player of that name."""
    finished = [g for g in games if g.winners is not None]
    out: dict[str, dict[str, Any]] = {}
    for name in dict.fromkeys(lineup.players):
        slots = {j for j, p in enumerate(lineup.players) if p == name}
        won = sum(1 for g in finished if slots & set(g.winners or ()))
        out[name] = {**_share(won, len(finished)), "seats": sorted(slots)}
    return out


def _timing(lineup: Lineup, games: list[GameSummary]) -> dict[str, dict[str, float]]:
    out: dict[str, dict[str, float]] = {}
    for name in dict.fromkeys(lineup.players):
        slots = [j for j, p in enumerate(lineup.players) if p == name]
        ts = sorted(t for g in games for j in slots if j < len(g.times_ms) for t in g.times_ms[j])
        cs = sorted(t for g in games for j in slots if j < len(g.cpu_ms) for t in g.cpu_ms[j])
        out[name] = {"decisions": len(ts), "ms_p50": round(_percentile(ts, 0.5), 3),
                     "ms_p99": round(_percentile(ts, 0.99), 3),
                     "ms_max": round(ts[-1], 3) if ts else 0.0,
                     "cpu_ms_p50": round(_percentile(cs, 0.5), 3),
                     "cpu_ms_p99": round(_percentile(cs, 0.99), 3)}
    return out


def summarise(a: str, b: str, rules: Rules, seed: int, games: list[GameSummary],
              elapsed: float, lineup: Lineup | None = None) -> TournamentResult:
    """The totals of ``games`` (in set order: set 0's rotations, then set 1's...).
    ``lineup`` defaults to ``a`` against ``b`` at a standard table."""
    lineup = lineup or Lineup("standard", (a, b))
    finish = dict.fromkeys(FINISH_KINDS, 0)
    pa = pb = a_hands = knocks = under = gins = 0
    times: list[float] = []
    cpus: list[float] = []
    wins_a = wins_b = unfinished = ties = 0
    deals = 0
    for g in games:
        if g.a_won is None:
            if g.winners == ():
                ties += 1
            else:
                unfinished += 1
        elif g.a_won:
            wins_a += 1
        else:
            wins_b += 1
        times.extend(g.a_times_ms)
        cpus.extend(g.a_cpu_ms)
        for row in g.deals:
            finish[row[0]] = finish.get(row[0], 0) + 1
        deals += len(g.deals)
        for kind, pts, knocker in g.hands:
            a_hands += 1
            if not g.deals:  # a summary without its deals (older records): A's are all
                finish[kind] = finish.get(kind, 0) + 1
                deals += 1
            if pts > 0:
                pa += pts
            else:
                pb -= pts
            if knocker == 1:
                if kind in ("knock", "undercut", "tie"):
                    knocks += 1
                    if kind == "undercut":
                        under += 1
                elif kind in ("gin", "big_gin"):
                    gins += 1
    times.sort()
    cpus.sort()
    return TournamentResult(
        a, b, rules, seed, len(games), wins_a, wins_b, unfinished, deals, pa, pb, finish,
        knocks, under, gins, len(times), _percentile(times, 0.5), _percentile(times, 0.99),
        times[-1] if times else 0.0, elapsed, _percentile(cpus, 0.5), _percentile(cpus, 0.99),
        lineup, ties, a_hands, _seat_rows(lineup, games), _side_rows(lineup, games),
        _timing(lineup, games))


def sets_for(lineup: Lineup, games: int) -> int:
    """The number of sets that play at least ``games`` games (whole sets only).

    :raises ValueError: ``games`` < 1."""
    if games < 1:
        raise ValueError("games must be at least 1")
    return -(-games // lineup.rotations)


def run_tournament(a: str, b: str, games: int, rules: Rules, seed: int = 0, jobs: int = 1,
                   progress: Callable[[int, int], None] | None = None, *,
                   scoring: str = "standard", lineup: Sequence[str] | None = None
                   ) -> TournamentResult:
    """Play ``games`` games (rounded up to whole sets: seat-swapped pairs with two players) of
    ``a`` against ``b`` in form ``scoring`` (:meth:`Lineup.of`), or of an explicit ``lineup``
    (a name per seat; then ``a`` and ``b`` are ignored). ``progress(done, total)`` is called
    after each set. ``jobs`` > 1 uses processes; :func:`ginrummy.tournament_ray.run_tournament_ray`
    runs the same games on a Ray cluster. The same arguments give the same
    :meth:`TournamentResult.outcome_json` whatever ``jobs``.

    :raises ValueError: unknown form or player name, a lineup of the wrong size, or
        ``games`` < 1.
    :raises RulesError: the form cannot honour ``rules`` (:func:`ginrummy.variants.check_table`;
        :func:`ginrummy.variants.fit_to_table` makes a preset fit).
    """
    table = Lineup(scoring, tuple(lineup)) if lineup is not None else Lineup.of(scoring, a, b)
    return run_lineup(table, games, rules, seed, jobs, progress)


def run_lineup(lineup: Lineup, games: int, rules: Rules, seed: int = 0, jobs: int = 1,
               progress: Callable[[int, int], None] | None = None) -> TournamentResult:
    """:func:`run_tournament` of a :class:`Lineup`."""
    check_table(rules, lineup.scoring)
    nsets = sets_for(lineup, games)
    total = nsets * lineup.rotations
    t0 = time.perf_counter()
    results: list[GameSummary] = []
    if jobs <= 1:
        for k in range(nsets):
            results.extend(play_sets(lineup, rules, seed, [k]))
            if progress is not None:
                progress(len(results), total)
    else:
        batches = pair_batches(nsets, jobs)
        by_batch: dict[int, list[GameSummary]] = {}
        with ProcessPoolExecutor(max_workers=jobs) as ex:
            futs = {ex.submit(play_sets, lineup, rules, seed, bt): i
                    for i, bt in enumerate(batches)}
            done = 0
            for f in as_completed(futs):
                by_batch[futs[f]] = f.result()
                done += len(by_batch[futs[f]])
                if progress is not None:
                    progress(done, total)
        for i in range(len(batches)):
            results.extend(by_batch[i])
    return summarise(lineup.a, lineup.b, rules, seed, results, time.perf_counter() - t0, lineup)


_FORM_WORDS = {"standard": "two-player games", "hollywood": "Hollywood matches",
               "three_player": "three-player games", "partnership": "partnership matches"}


def format_table(result: TournamentResult, rules_name: str | None = None) -> str:
    """A plain-text summary of a tournament (no terminal styling); ``rules_name`` names the
    rules (by default their preset, or ``custom``)."""
    r = result
    lo, hi = r.ci
    name = rules_name or r.rules.preset_name() or "custom"
    lineup = r.lineup or Lineup("standard", (r.a, r.b))
    if lineup.scoring == "standard" and lineup.players == (r.a, r.b):
        lines = [f"{r.a} vs {r.b}: {r.games} games ({r.games // 2} seat-swapped pairs), "
                 f"rules {name}, seed {r.seed}"]
    else:
        sets = r.games // lineup.rotations
        lines = [f"{r.a} vs {r.b}: {r.games} {_FORM_WORDS[lineup.scoring]} ({sets} "
                 f"{'set' if sets == 1 else 'sets'} of "
                 f"{lineup.rotations} rotations of the lineup {', '.join(lineup.players)}), "
                 f"rules {name}, seed {r.seed}"]
    lines += [
        f"  games won by {r.a:<10} {r.wins_a:>6}  {100 * r.win_rate:5.1f}%  "
        f"(95% CI {100 * lo:.1f}-{100 * hi:.1f}%)",
        f"  games won by {r.b:<10} {r.wins_b:>6}",
    ]
    if r.ties:
        lines.append(f"  tied matches          {r.ties:>6}")
    if r.unfinished:
        lines.append(f"  unfinished games      {r.unfinished:>6}")
    if lineup.scoring != "standard" or len(set(lineup.players)) > 2:
        lines.append("  per seat (share of finished games, 95% CI; points per hand played):")
        for s in r.seats:
            slo, shi = wilson(s["won"], s["games"])
            lines.append(f"    seat {s['seat']} {s['player']:<10} {s['won']:>6}  "
                         f"{100 * s['share']:5.1f}%  (95% CI {100 * slo:.1f}-{100 * shi:.1f}%)"
                         f"  {s['points_per_hand']:+.2f}/hand")
        if len(r.sides) > 1:
            lines.append("  per side (a side wins when one of its players does):")
            for side, v in r.sides.items():
                vlo, vhi = wilson(v["won"], v["games"])
                lines.append(f"    {side:<15} {v['won']:>6}  {100 * v['share']:5.1f}%  "
                             f"(95% CI {100 * vlo:.1f}-{100 * vhi:.1f}%)")
    lines += [
        f"  hands                 {r.hands:>6}",
        f"  points per hand ({r.a}) {r.points_per_hand:+.2f}",
        "  finishes              " + ", ".join(f"{k} {v}" for k, v in r.finish.items()
                                                 if v or k in ("knock", "gin", "undercut",
                                                                "dead")),
        f"  {r.a}'s knocks undercut {r.a_knocks_undercut}/{r.a_knocks} "
        f"({100 * r.a_undercut_rate:.1f}%)",
        f"  {r.a}'s decision time  p50 {r.decision_ms_p50:.2f} ms, p99 {r.decision_ms_p99:.2f} ms"
        f" (max {r.decision_ms_max:.1f} ms, {r.decisions} decisions)"
        + (f"; CPU time p50 {r.decision_cpu_ms_p50:.2f} ms, p99 {r.decision_cpu_ms_p99:.2f} ms"
           if r.decision_cpu_ms_p99 > 0 else ""),
        f"  elapsed               {r.elapsed_s:.1f} s",
    ]
    return "\n".join(lines)
