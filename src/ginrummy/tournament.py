"""Bot-against-bot tournaments: full games to the target, seat-swapped pairs of identical deals.

Pure Python on the engine and the bots (no I/O but the optional process pool). Game ``2i`` and
game ``2i+1`` of a tournament use the same first dealer and the same sequence of decks, with the
two players in swapped seats, so each player gets the other's cards (the decks diverge only as the
games do). Every random choice is seeded from ``seed``: a tournament replays exactly.

>>> r = run_tournament("simple", "random", games=2, rules=Rules.preset("eaai"), seed=1)
>>> r.games, r.wins_a
(2, 2)
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Any

from .bots import Context, make_bot
from .game import Game
from .hand import HandState
from .rules import Rules
from .views import view_of

__all__ = ["TournamentResult", "run_tournament", "format_table", "wilson", "play_game",
           "play_pairs", "pair_batches", "summarise", "FINISH_KINDS", "TIMING_FIELDS"]

#: the fields of :meth:`TournamentResult.to_json` that are measured times (they differ from run to
#: run and machine to machine); every other field depends only on the players, rules, games and
#: seed, whatever ran the games (one process, ``jobs`` processes or a Ray cluster).
TIMING_FIELDS = ("decision_ms_p50", "decision_ms_p99", "decision_ms_max", "decision_cpu_ms_p50",
                 "decision_cpu_ms_p99", "elapsed_s")
#: how hands end, in the order they are reported.
FINISH_KINDS = ("knock", "gin", "big_gin", "undercut", "tie", "dead")
#: a game that has not ended after this many deals is abandoned (only absurd players get there).
MAX_DEALS = 400
#: ... and so is a game whose deal has gone on for this many actions (a deal is ~60 actions).
MAX_ACTIONS_PER_DEAL = 3000


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


@dataclass
class GameSummary:
    """One game seen from player A: whether A won, its hands, A's decision times (ms)."""

    a_won: bool | None
    hands: list[tuple[str, int, int | None]] = field(default_factory=list)
    """(kind, points from A's side: + A scored / - B scored, knocker: 1 = A, 0 = B, None)."""
    a_times_ms: list[float] = field(default_factory=list)
    a_cpu_ms: list[float] = field(default_factory=list)
    """A's decision times as CPU time of the process (what a decision costs on an idle core)."""


def _deck_stream(seed: int, pair: int) -> tuple[int, Callable[[int], list[int]]]:
    rng = random.Random(f"ginrummy-tournament:{seed}:{pair}")
    first_dealer = rng.randrange(2)
    decks: list[list[int]] = []

    def deck(i: int) -> list[int]:
        while len(decks) <= i:
            d = list(range(52))
            rng.shuffle(d)
            decks.append(d)
        return decks[i]

    return first_dealer, deck


def play_game(a: str, b: str, rules: Rules, seed: int, pair: int, a_seat: int, *,
              a_bot: Any = None, before_a: Callable[[HandState], None] | None = None
              ) -> GameSummary:
    """Play one full game of pair ``pair`` with player ``a`` in seat ``a_seat``.

    For measuring tools (benchmarks/bots.py ``--see``): ``a_bot``, a bot object, plays A
    instead of ``make_bot(a)``; ``before_a(hand)`` is called before each of A's decisions
    (outside its timing). Neither changes the decks, seats or the bots' random generators."""
    first_dealer, deck = _deck_stream(seed, pair)
    bots = [(a_bot if a_bot is not None else make_bot(a)) if s == a_seat else make_bot(b)
            for s in (0, 1)]
    rngs = [random.Random(f"ginrummy-bot:{seed}:{pair}:{a_seat}:{s}") for s in (0, 1)]
    game = Game(rules, first_dealer)
    out = GameSummary(None)
    clock = time.perf_counter
    cpu = time.process_time
    deals = 0
    while not game.is_over and deals < MAX_DEALS:
        h = game.new_hand(deck(deals))
        deals += 1
        steps = 0
        while not h.is_over:
            steps += 1
            if steps > MAX_ACTIONS_PER_DEAL:  # two players trading face-up cards for ever
                return out
            seat = h.current
            view = view_of(h, seat)
            ctx = Context(rngs[seat], (game.hand_points[0], game.hand_points[1]), rules.target)
            if before_a is not None and seat == a_seat:
                before_a(h)
            t0 = clock()
            c0 = cpu()
            action = bots[seat].choose(view, ctx)
            dt = clock() - t0
            if seat == a_seat:
                out.a_times_ms.append(dt * 1000.0)
                out.a_cpu_ms.append((cpu() - c0) * 1000.0)
            game.apply(action)
        o = h.outcome
        assert o is not None
        sign = 0 if o.winner is None else (1 if o.winner == a_seat else -1)
        knocker = None if o.knocker is None else int(o.knocker == a_seat)
        out.hands.append((o.kind, sign * o.points, knocker))
    if game.winner is not None:
        out.a_won = game.winner == a_seat
    return out


def play_pairs(a: str, b: str, rules: Rules, seed: int, pairs: list[int]) -> list[GameSummary]:
    """Play the two seat-swapped games of each pair in ``pairs``, in that order (A in seat 0,
    then in seat 1): the unit of work a worker process or a Ray task runs."""
    res = []
    for p in pairs:
        res.append(play_game(a, b, rules, seed, p, 0))
        res.append(play_game(a, b, rules, seed, p, 1))
    return res


_play_pairs = play_pairs  # the name benchmarks/bots.py imports


@dataclass
class TournamentResult:
    """Totals of a tournament, from player A's side."""

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

    @property
    def win_rate(self) -> float:
        """Games won by A over finished games."""
        n = self.wins_a + self.wins_b
        return self.wins_a / n if n else 0.0

    @property
    def ci(self) -> tuple[float, float]:
        return wilson(self.wins_a, self.wins_a + self.wins_b)

    @property
    def points_per_hand(self) -> float:
        """A's hand points minus B's, per deal (dead hands included)."""
        return (self.points_a - self.points_b) / self.hands if self.hands else 0.0

    @property
    def a_undercut_rate(self) -> float:
        """Share of A's knocks (gin excluded) that were undercut."""
        return self.a_knocks_undercut / self.a_knocks if self.a_knocks else 0.0

    def outcome_json(self) -> dict[str, Any]:
        """:meth:`to_json` without :data:`TIMING_FIELDS`: equal for equal players, rules, games
        and seed, however the games were run."""
        return {k: v for k, v in self.to_json().items() if k not in TIMING_FIELDS}

    def to_json(self) -> dict[str, Any]:
        lo, hi = self.ci
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
        }


def _percentile(sorted_vals: list[float], q: float) -> float:
    if not sorted_vals:
        return 0.0
    i = min(len(sorted_vals) - 1, max(0, math.ceil(q * len(sorted_vals)) - 1))
    return sorted_vals[i]


def pair_batches(npairs: int, workers: int, max_chunk: int = 8) -> list[list[int]]:
    """Pairs ``0 .. npairs - 1`` cut into consecutive batches for ``workers`` workers: about 8
    batches per worker (so that a slow batch does not leave the others idle), at most
    ``max_chunk`` pairs each.

    >>> pair_batches(3, 2)
    [[0], [1], [2]]
    >>> b = pair_batches(1000, 2)
    >>> len(b), b[0], sum(b, []) == list(range(1000))
    (125, [0, 1, 2, 3, 4, 5, 6, 7], True)
    """
    chunk = max(1, min(max_chunk, npairs // (max(1, workers) * 8) or 1))
    return [list(range(i, min(npairs, i + chunk))) for i in range(0, npairs, chunk)]


def summarise(a: str, b: str, rules: Rules, seed: int, games: list[GameSummary],
              elapsed: float) -> TournamentResult:
    """The totals of ``games`` (in pair order: pair 0 with A in seat 0, then in seat 1, ...)."""
    finish = dict.fromkeys(FINISH_KINDS, 0)
    pa = pb = hands = knocks = under = gins = 0
    times: list[float] = []
    cpus: list[float] = []
    wins_a = wins_b = unfinished = 0
    for g in games:
        if g.a_won is None:
            unfinished += 1
        elif g.a_won:
            wins_a += 1
        else:
            wins_b += 1
        times.extend(g.a_times_ms)
        cpus.extend(g.a_cpu_ms)
        for kind, pts, knocker in g.hands:
            hands += 1
            finish[kind] = finish.get(kind, 0) + 1
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
        a, b, rules, seed, len(games), wins_a, wins_b, unfinished, hands, pa, pb, finish, knocks,
        under, gins, len(times), _percentile(times, 0.5), _percentile(times, 0.99),
        times[-1] if times else 0.0, elapsed, _percentile(cpus, 0.5), _percentile(cpus, 0.99))


def run_tournament(a: str, b: str, games: int, rules: Rules, seed: int = 0, jobs: int = 1,
                   progress: Callable[[int, int], None] | None = None) -> TournamentResult:
    """Play ``games`` games (rounded up to an even number: seat-swapped pairs) of ``a`` against
    ``b``. ``progress(done, total)`` is called after each pair. ``jobs`` > 1 uses processes;
    :func:`ginrummy.tournament_ray.run_tournament_ray` runs the same games on a Ray cluster.
    The same arguments give the same :meth:`TournamentResult.outcome_json` whatever ``jobs``.

    :raises ValueError: unknown player name, or ``games`` < 1.
    """
    make_bot(a)
    make_bot(b)
    if games < 1:
        raise ValueError("games must be at least 1")
    npairs = (games + 1) // 2
    total = npairs * 2
    t0 = time.perf_counter()
    results: list[GameSummary] = []
    if jobs <= 1:
        for p in range(npairs):
            results.extend(play_pairs(a, b, rules, seed, [p]))
            if progress is not None:
                progress(len(results), total)
    else:
        batches = pair_batches(npairs, jobs)
        by_batch: dict[int, list[GameSummary]] = {}
        with ProcessPoolExecutor(max_workers=jobs) as ex:
            futs = {ex.submit(play_pairs, a, b, rules, seed, bt): i
                    for i, bt in enumerate(batches)}
            done = 0
            for f in as_completed(futs):
                by_batch[futs[f]] = f.result()
                done += len(by_batch[futs[f]])
                if progress is not None:
                    progress(done, total)
        for i in range(len(batches)):
            results.extend(by_batch[i])
    return summarise(a, b, rules, seed, results, time.perf_counter() - t0)


def format_table(result: TournamentResult) -> str:
    """A plain-text summary of a tournament (no terminal styling)."""
    r = result
    lo, hi = r.ci
    name = r.rules.preset_name() or "custom"
    lines = [
        f"{r.a} vs {r.b}: {r.games} games ({r.games // 2} seat-swapped pairs), rules {name}, "
        f"seed {r.seed}",
        f"  games won by {r.a:<10} {r.wins_a:>6}  {100 * r.win_rate:5.1f}%  "
        f"(95% CI {100 * lo:.1f}-{100 * hi:.1f}%)",
        f"  games won by {r.b:<10} {r.wins_b:>6}",
    ]
    if r.unfinished:
        lines.append(f"  unfinished games      {r.unfinished:>6}")
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
