"""Benchmarks of the game review (issue 20; not run in CI). Results go to
benchmarks/results/review-*.md.

Usage (from the repository root, with the project's virtual environment; nice it on a shared
machine)::

    python benchmarks/review.py speed --games 40                  # CPU seconds per game, per hand
    python benchmarks/review.py collect --games 500 --out runs/review.jsonl   # resumable
    python benchmarks/review.py report runs/review.jsonl          # calibration, accuracy by level
    python benchmarks/review.py confirm --positions 500 --out runs/confirm.jsonl  # resumable
    python benchmarks/review.py confirm-report runs/confirm.jsonl

``speed`` plays games between the computer levels and reviews each whole (both seats, the
default search), timing the review in CPU seconds of this process (what it costs one idle core,
whatever else the machine runs). ``collect`` plays games of mixed levels (each ordered pair of
``--levels`` in turn, standard rules to 100), reviews both seats, and writes one JSON line per
game: every graded decision's predicted chance of winning (after the move played) and grade,
each seat's accuracy and luck, and who won (``--pairs mirror``: each level against itself
instead; ``--pairs all``: both). ``report`` reads them: the reliability table of the predicted
chances against the games' results (ten buckets, mean absolute calibration error),
accuracy by level with 95% intervals, grades by level, and the mean luck (which should be near
zero). ``confirm`` takes positions graded mistake or blunder in games of ``easy`` and ``medium``
against ``expert``, samples worlds from the seat's view (the search's own sampler), and plays
out the move played and the best move in each with the ``expert`` playing both seats to the
end of the deal, valuing each by the chance of winning the game; it also plays them out from
the true hidden cards with the stock reshuffled. ``confirm-report`` sums them up.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from ginrummy.actions import Action
from ginrummy.bots import Context, make_bot, warmup
from ginrummy.bots.expert import ExpertBot
from ginrummy.bots.review import (
    DEFAULT_BUDGET,
    ReviewBudget,
    TwoPlayerScore,
    accuracy_of,
    grade_of,
    playout_drops,
    position_at,
    read_record,
    review_game,
)
from ginrummy.bots.review.confirm import play_out
from ginrummy.cards import card_text
from ginrummy.fairness import FORMAT, commitment_of
from ginrummy.game import Game
from ginrummy.hand import HandState
from ginrummy.rules import Rules
from ginrummy.views import view_of

LEVELS = ["random", "easy", "medium", "hard", "expert"]
MAX_DEALS = 40


def play_record(a: str, b: str, seed: int, preset: str = "standard") -> dict[str, Any]:
    """A game of ``a`` (seat 0) against ``b`` (seat 1) as the fairness record the web serves
    (docs/fairness.md), from ``seed``; at most MAX_DEALS deals."""
    rng = random.Random(f"review-bench:{seed}")
    rules = Rules.preset(preset)
    game = Game(rules, rng.randrange(2))
    bots = [make_bot(a), make_bot(b)]
    ctxs = [Context(rng=random.Random(f"review-bench:{seed}:{s}")) for s in (0, 1)]
    hands = []
    while not game.is_over and len(hands) < MAX_DEALS:
        deck = list(range(52))
        rng.shuffle(deck)
        salt = f"{rng.getrandbits(128):032x}"
        h = game.new_hand(deck)
        steps = 0
        while not h.is_over and steps < 400:
            s = h.current
            ctxs[s].hand_points = (game.hand_points[0], game.hand_points[1])
            ctxs[s].target = rules.target
            game.apply(bots[s].choose(view_of(h, s), ctxs[s]))
            steps += 1
        if not h.is_over:
            break
        o = h.outcome
        assert o is not None
        texts = [card_text(c) for c in deck]
        hands.append({"number": len(hands) + 1, "dealer": h.dealer, "deck": texts,
                      "salt": salt, "commitment": commitment_of(salt, texts),
                      "actions": [e.action.text for e in h.history],
                      "result": {"kind": o.kind, "winner": o.winner, "points": o.points}})
    return {"format": FORMAT, "game_id": f"bench-{seed}",
            "rules": {"preset": preset, **rules.to_dict()}, "first_dealer": game.first_dealer,
            "hands": hands, "current": None, "winner": game.winner}


def pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, math.ceil(q * len(s)) - 1))]


def load_line() -> str:
    try:
        la = os.getloadavg()
        return f"load average {la[0]:.2f} {la[1]:.2f} {la[2]:.2f} on {os.cpu_count()} cores"
    except OSError:  # pragma: no cover
        return "load unknown"


# ------------------------------------------------------------------------------ speed
def cmd_speed(args: argparse.Namespace) -> None:
    warmup()
    budget = ReviewBudget(args.worlds, args.confirm)
    pairs = [(a, b) for a in ("easy", "medium", "hard", "expert")
             for b in ("easy", "medium", "hard", "expert") if a != b]
    game_s: list[float] = []
    hand_s: list[float] = []
    seat_s: list[float] = []
    decisions = checked = 0
    print(f"# {load_line()} at start", file=sys.stderr)
    for g in range(args.games):
        a, b = pairs[g % len(pairs)]
        rec = play_record(a, b, args.seed + g)
        game = read_record(rec)
        t0 = time.process_time()
        r = review_game(game, (0, 1), None, budget)
        dt = time.process_time() - t0
        game_s.append(dt)
        t1 = time.process_time()
        review_game(game, (0,), None, budget)
        seat_s.append(time.process_time() - t1)
        for d in game.deals[:2]:
            t2 = time.process_time()
            review_game(game, (0, 1), {d.number}, budget)
            hand_s.append(time.process_time() - t2)
        decisions += sum(len(d.decisions) for d in r.deals)
        checked += sum(d.confirmation is not None for h in r.deals for d in h.decisions)
        print(f"game {g + 1}: {a} v {b}, {len(game.deals)} hands, {dt:.2f} s", file=sys.stderr)
    out = {"games": len(game_s), "worlds": args.worlds, "confirm": args.confirm,
           "decisions": decisions, "checked_by_playouts": checked,
           "game_cpu_s": {"mean": statistics.mean(game_s), "p50": pct(game_s, .5),
                          "p95": pct(game_s, .95), "max": max(game_s)},
           "one_seat_game_cpu_s": {"mean": statistics.mean(seat_s), "p95": pct(seat_s, .95)},
           "hand_cpu_s": {"n": len(hand_s), "mean": statistics.mean(hand_s),
                          "p50": pct(hand_s, .5), "p95": pct(hand_s, .95),
                          "max": max(hand_s)},
           "decision_cpu_ms_mean": 1000 * sum(game_s) / max(decisions, 1),
           "load_end": load_line()}
    print(json.dumps(out, indent=1))


# ------------------------------------------------------------------------------ collect
class _PlayedPoints:
    """Keeps, per graded decision, the deal points of the move played in each sampled world
    (as ``[[points, count], ...]``), by wrapping the review's ``grade_decision`` (a measuring
    hook of this script only): the calibration can then be recomputed with another score
    context without searching again."""

    def __init__(self) -> None:
        import ginrummy.bots.review.deal as deal_mod

        self.mod = deal_mod
        self.orig = deal_mod.grade_decision
        self.seen: dict[tuple[int, int], list[list[int]]] = {}

        def hook(view: Any, values: Any, played: Action, number: int, index: int,
                 *a: Any, **k: Any) -> Any:
            row = values.points[values.index(played)]
            u, c = np.unique(row, return_counts=True)
            self.seen[(number, index)] = [[int(x), int(n)] for x, n in zip(u, c, strict=True)]
            return self.orig(view, values, played, number, index, *a, **k)

        deal_mod.grade_decision = hook

    def take(self) -> dict[tuple[int, int], list[list[int]]]:
        out, self.seen = self.seen, {}
        return out


def _game_line(g: int, a: str, b: str, worlds: int, seats: tuple[int, ...] = (0, 1),
               hook: _PlayedPoints | None = None, strength: bool = False,
               confirm: int = 0, judge: str = "expert-light") -> dict[str, Any]:
    """One game of ``a`` (seat 0) against ``b`` reviewed; with ``confirm`` the decisions the
    search graded mistake or blunder are checked by that many play-outs, and each checked
    decision's row ends with ``{"search": [drop, grade], "playouts": n}`` (the search's own
    drop and grade before the check), so one run gives the accuracies with and without the
    check on the same decisions."""
    rec = play_record(a, b, g)
    game = read_record(rec, _level_ratings(a, b) if strength else None)
    r = review_game(game, seats, None, ReviewBudget(worlds, confirm, judge))
    hist = hook.take() if hook is not None else {}
    levels = [a, b]
    decisions = [[d.seat, d.number, d.index, d.kind, round(d.played.win, 5),
                  round(d.best.win, 5), round(d.drop, 5), round(d.drop_points, 3), d.grade,
                  round(d.z, 2)] + ([hist[(d.number, d.index)]] if hist else [])
                 + ([{"search": [round(d.confirmation.search_drop, 5),
                                 d.confirmation.search_grade],
                      "playouts": d.confirmation.playouts}]
                    if d.confirmation is not None else [])
                 for deal in r.deals for d in deal.decisions]
    luck_events = [[e.seat, e.kind, round(e.win, 5), round(e.points, 3)]
                   for deal in r.deals for e in deal.luck]
    deals = [[deal.number, round(deal.win_after[0], 5), round(deal.win_after[1], 5),
              deal.result[0], list(d_in.hand_points or (0, 0))]
             for deal, d_in in zip(r.deals, game.deals, strict=True)]
    def _chance(v: Any) -> float:
        return round(v.win if v.chance is None else v.chance, 5)

    # per decision: the move played's chance counting who plays, and the search's own when the
    # play-outs replaced it (for the calibration of the checked values against the search's)
    chances = [[_chance(d.played)] + ([_chance(d.confirmation.search_played)]
                                      if d.confirmation is not None else [])
               for deal in r.deals for d in deal.decisions]
    return {"game": g, "levels": levels, "ratings": game.ratings, "complete": game.complete,
            "winner": rec["winner"], "hands": len(game.deals), "worlds": worlds,
            "reviewed": list(seats),
            "seats": [s.to_json() for s in r.seats], "decisions": decisions,
            "chances": chances, "luck": luck_events, "deals": deals}


def _level_ratings(a: str, b: str) -> tuple[float, float] | None:
    """The measured ratings of levels ``a`` and ``b`` (``bots/ratings.json``), as the web gives
    a review of a game against the computer; None when one has none."""
    from ginrummy.bots.strength import level_ratings

    r = level_ratings()
    return (r[a].rating, r[b].rating) if a in r and b in r else None


def _pairs(spec: str, levels: list[str]) -> list[tuple[str, str, tuple[int, ...]]]:
    """``(seat 0, seat 1, seats reviewed)`` in turn: ``mixed`` each ordered pair of two
    levels, ``mirror`` each level against itself, ``all`` both (both seats reviewed);
    ``against:L`` each level against ``L``, seated first then second, only its seat
    reviewed."""
    if spec.startswith("against:"):
        other = spec.split(":", 1)[1]
        out: list[tuple[str, str, tuple[int, ...]]] = []
        for a in levels:
            out.append((a, other, (0,)))
        for a in levels:
            out.append((other, a, (1,)))
        return out
    return [(a, b, (0, 1)) for a in levels for b in levels
            if spec == "all" or (a == b) == (spec == "mirror")]


def cmd_collect(args: argparse.Namespace) -> None:
    warmup()
    levels = args.levels.split(",")
    pairs = _pairs(args.pairs, levels)
    hook = _PlayedPoints() if args.hist else None
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    done = len(out.read_text().splitlines()) if out.exists() else 0
    print(f"# {load_line()} at start, {done} games done", file=sys.stderr)
    with out.open("a") as f:
        for g in range(done, args.games):
            a, b, seats = pairs[g % len(pairs)]
            t0 = time.process_time()
            line = _game_line(args.seed + g, a, b, args.worlds, seats, hook, args.strength,
                              args.confirm, args.judge)
            line["confirm"] = args.confirm
            line["cpu_s"] = round(time.process_time() - t0, 3)
            f.write(json.dumps(line) + "\n")
            f.flush()
            if (g + 1) % 10 == 0:
                print(f"{g + 1} games; {load_line()}", file=sys.stderr)


# ------------------------------------------------------------------------------ calibration
def _sampled(key: str, share: float) -> bool:
    """A fixed pseudo-random choice of ``share`` of the decisions, by a hash of ``key`` (never
    by anything that depends on how the game went on)."""
    import hashlib

    h = int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big")
    return h < share * 2 ** 64


def _played_values(game: Any, seats: tuple[int, ...], worlds: int, bot: ExpertBot,
                   share: float = 1.0, key: str = "") -> list[list[Any]]:
    """Per decision with a real choice of ``seats``: ``[seat, deal, index, kind, win,
    points, [[points, count], ...]]`` of the move played, valued exactly as the review values
    it (the same seed, the same sampled worlds: a move's row of the search does not depend on
    the other moves searched, common random numbers), without valuing the other moves."""
    from ginrummy.bots.review.decision import decision_kind
    from ginrummy.bots.review.position import candidate_moves, decision_seed, same_move

    rows: list[list[Any]] = []
    for d in game.deals:
        h = HandState(d.rules, d.dealer, d.deck)
        for i, text in enumerate(d.actions):
            act = Action.parse(text)
            seat = h.current
            if seat in seats:
                view = view_of(h, seat)
                moves = candidate_moves(view)
                if len(moves) >= 2 and (share >= 1.0 or _sampled(
                        f"{key}:{d.number}:{i}:{seat}", share)):
                    seed = decision_seed(d.salt, d.number, seat, i, view)
                    score = d.scores[seat]
                    if view.phase.value == "fiftieth":
                        g = h.clone()
                        g.apply(Action.parse("draw discard"))
                        from ginrummy.bots.review import evaluate_position

                        vals = evaluate_position(view, score, seed, ReviewBudget(worlds),
                                                 view_of(g, seat) if any(
                                                     m.text == "draw discard" for m in moves)
                                                 else None, bot)
                        assert vals is not None
                        pts = vals.points[vals.index(act)]
                    else:
                        move = next(m for m in moves if same_move(m, act))
                        out = bot.evaluate_moves(view, Context(rng=random.Random(seed)),
                                                 (move,), worlds)
                        assert out is not None
                        pts = out[0]
                    win = float(np.mean(score.win_chance(pts)))
                    u, c = np.unique(pts, return_counts=True)
                    rows.append([seat, d.number, i, decision_kind(view), round(win, 5),
                                 round(float(np.mean(pts)), 3),
                                 [[int(x), int(n)] for x, n in zip(u, c, strict=True)]])
            h.apply(act)
    return rows


def cmd_calib(args: argparse.Namespace) -> None:
    """Games of ``--pairs`` (``mirror``: each level against itself in turn; ``mixed``: each
    ordered pair of two different levels; ``all``: both), and at every decision with a real
    choice of both seats the review's chance of winning after the move played (see
    :func:`_played_values`); one JSON line per game, resumable."""
    warmup()
    levels = args.levels.split(",")
    pairs = _pairs(args.pairs, levels)
    bot = ExpertBot()
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    done = len(out.read_text().splitlines()) if out.exists() else 0
    print(f"# {load_line()} at start, {done} games done", file=sys.stderr)
    with out.open("a") as f:
        for g in range(done, args.games):
            a, b, _seats = pairs[g % len(pairs)]
            t0 = time.process_time()
            rec = play_record(a, b, args.seed + g)
            t1 = time.process_time()
            game = read_record(rec)
            rows = _played_values(game, (0, 1), args.worlds, bot,
                                  1.0 if args.check and g == done else args.share,
                                  f"calib:{args.seed + g}")
            if args.check and g == done:  # the same values as the full review
                r = review_game(game, (0, 1), None, ReviewBudget(args.worlds))
                full = {(x.seat, x.number, x.index): x.played.win
                        for deal in r.deals for x in deal.decisions}
                mine = {(x[0], x[1], x[2]): x[4] for x in rows}
                assert full.keys() == mine.keys(), "not the review's decisions"
                bad = [k for k in full if abs(full[k] - mine[k]) > 1e-4]
                assert not bad, f"values differ from the review's at {bad[:3]}"
                print(f"check: {len(full)} decisions equal to the full review's",
                      file=sys.stderr)
            line = {"game": args.seed + g, "levels": [a, b], "complete": game.complete,
                    "winner": rec["winner"], "hands": len(game.deals), "worlds": args.worlds,
                    "share": args.share,
                    "deals": [[d.number, list(d.hand_points or (0, 0)),
                               rec["hands"][d.number - 1]["result"]] for d in game.deals],
                    "decisions": rows, "play_cpu_s": round(t1 - t0, 3),
                    "cpu_s": round(time.process_time() - t0, 3)}
            f.write(json.dumps(line) + "\n")
            f.flush()
            if (g + 1) % 10 == 0:
                print(f"{g + 1} games; {load_line()}", file=sys.stderr)


def _reliability(rows: list[tuple[int, float, float]], n_games: int, boot: int = 1000,
                 label: str = "share won") -> dict[str, Any]:
    """Ten buckets of predicted chance: ``rows`` are ``(game, predicted, outcome)``; the mean
    absolute calibration error over the buckets with rows (and weighted by rows), with a 95%
    interval from resampling whole games (the decisions of one game share its outcome)."""
    g = np.array([r[0] for r in rows])
    p = np.array([r[1] for r in rows])
    y = np.array([r[2] for r in rows])
    b = np.minimum(9, (p * 10).astype(int))
    games, gi = np.unique(g, return_inverse=True)
    cube = np.zeros((len(games), 10, 3))
    np.add.at(cube, (gi, b, 0), 1.0)
    np.add.at(cube, (gi, b, 1), p)
    np.add.at(cube, (gi, b, 2), y)

    def mace(c: np.ndarray) -> tuple[float, float]:
        n = c[:, 0]
        ok = n > 0
        gap = np.abs(c[ok, 1] - c[ok, 2]) / n[ok]
        return float(gap.mean()), float((gap * n[ok]).sum() / n[ok].sum())

    tot = cube.sum(axis=0)
    m, w = mace(tot)
    rng = np.random.default_rng(0)
    bs = [mace(cube[rng.integers(0, len(games), len(games))].sum(axis=0)) for _ in range(boot)]
    lo, hi = np.percentile([x[0] for x in bs], [2.5, 97.5])
    table = []
    for i in range(10):
        n = tot[i, 0]
        games_in = int((cube[:, i, 0] > 0).sum())
        table.append({"bucket": f"{i / 10:.1f}-{(i + 1) / 10:.1f}", "decisions": int(n),
                      "games": games_in,
                      "mean_predicted": None if n == 0 else round(tot[i, 1] / n, 4),
                      label.replace(" ", "_"): None if n == 0 else round(tot[i, 2] / n, 4)})
    return {"games": len(games), "decisions": len(rows), "table": table,
            "mace": round(100 * m, 2), "mace_ci": [round(100 * lo, 2), round(100 * hi, 2)],
            "mace_weighted": round(100 * w, 2), "complete_games": n_games}


def _print_reliability(r: dict[str, Any], label: str = "share won") -> None:
    print(f"| predicted chance of winning | decisions | games | mean predicted | {label} | gap |")
    print("|---|---|---|---|---|---|")
    key = label.replace(" ", "_")
    for row in r["table"]:
        if not row["decisions"]:
            print(f"| {row['bucket']} | 0 | 0 | - | - | - |")
            continue
        gap = 100 * (row[key] - row["mean_predicted"])
        print(f"| {row['bucket']} | {row['decisions']} | {row['games']} | "
              f"{row['mean_predicted']:.3f} | {row[key]:.3f} | {gap:+.1f} |")
    print(f"\nmean absolute calibration error: **{r['mace']:.2f} points** (95% CI "
          f"{r['mace_ci'][0]:.2f}-{r['mace_ci'][1]:.2f}, resampling whole games) over the "
          f"buckets with decisions; weighted by decisions {r['mace_weighted']:.2f}; "
          f"{r['games']} games, {r['decisions']} decisions")


def cmd_calib_report(args: argparse.Namespace) -> None:
    """The reliability table of :func:`cmd_calib`'s files, against the games' results and
    against the chance after each deal as it fell; overall and per level (a seat's level).
    With ``--strength`` each seat's chances are recomputed (from the points of the move played
    in each sampled world, no search again) with the table of the players' strengths: the
    share of later deals the seat wins from its level's and its opponent's ratings
    (``bots/ratings.json``, fitted on other games), as the review does when it is given the
    players' ratings (:func:`ginrummy.bots.value.deal_share`)."""
    from ginrummy.bots.strength import level_ratings
    from ginrummy.bots.value import deal_share

    lines = [json.loads(x) for f in args.files for x in Path(f).read_text().splitlines()]
    games = [g for g in lines if g["complete"] and g["winner"] is not None]
    levels = sorted({lv for g in games for lv in g["levels"]}, key=LEVELS.index)
    pairs: dict[tuple[str, str], int] = {}
    for g in games:
        pairs[tuple(g["levels"])] = pairs.get(tuple(g["levels"]), 0) + 1
    print(f"games: {len(lines)} played, {len(games)} complete with a winner; by pair: "
          + ", ".join(f"{a}-{b} {n}" for (a, b), n in sorted(pairs.items())))
    rules = Rules.preset("standard")
    ratings = {k: v.rating for k, v in level_ratings().items()} if args.strength else {}
    if args.strength:
        print("strengths: " + ", ".join(f"{lv} {ratings[lv]:.0f}" for lv in levels)
              + " (bots/ratings.json)")

    def share(g: dict[str, Any], seat: int) -> float:
        if not ratings:
            return 0.5
        lv = g["levels"]
        return deal_share(ratings[lv[seat]] - ratings[lv[1 - seat]])

    def rows_of(gs: list[dict[str, Any]], level: str | None = None
                ) -> tuple[list[Any], list[Any]]:
        res, deal = [], []
        for g in gs:
            after = {}
            hps = {}
            for number, hp, result in g["deals"]:
                hps[number] = hp
                for seat in (0, 1):
                    w = result.get("winner")
                    k = 0 if w is None else (result["points"] if w == seat
                                             else -result["points"])
                    sc = TwoPlayerScore(rules, hp[seat], hp[1 - seat], share=share(g, seat))
                    after[(number, seat)] = float(sc.chance_values(np.array([[k]]))[0, 0])
            for seat, number, _i, _k, win, _p, hist in g["decisions"]:
                if level is not None and g["levels"][seat] != level:
                    continue
                if ratings:
                    hp = hps[number]
                    sc = TwoPlayerScore(rules, hp[seat], hp[1 - seat], share=share(g, seat))
                    pts = np.repeat([h[0] for h in hist], [h[1] for h in hist])
                    # untilted: each world on its own (the later deals only)
                    win = float(sc.chance_values(pts[:, None] if args.untilted
                                                 else pts[None, :]).mean())
                res.append((g["game"], win, float(g["winner"] == seat)))
                deal.append((g["game"], win, after[(number, seat)]))
        return res, deal

    res, deal = rows_of(games)
    print("\n### Against the game's result, all levels\n")
    r = _reliability(res, len(games))
    _print_reliability(r)
    if ratings:  # the same decisions valued as even (the values the files keep)
        even = [(g["game"], x[4], float(g["winner"] == x[0])) for g in games
                for x in g["decisions"]]
        print("\nthe players' strengths against the even values (first: even, second: "
              "with the strengths)")
        _paired(even, res)
    print("\n### Against the chance after the deal as it fell (the search alone), all levels\n")
    _print_reliability(_reliability(deal, len(games), label="mean after"), "mean after")
    print("\n### Per level (the decisions of its seats), against the game's result\n")
    print("| level | games | decisions | MACE (95% CI) | weighted | at the deal's end |")
    print("|---|---|---|---|---|---|")
    for level in levels:
        gs = [g for g in games if level in g["levels"]]
        a, b = rows_of(gs, level)
        ra, rb = _reliability(a, len(gs)), _reliability(b, len(gs), label="mean after")
        print(f"| {level} | {ra['games']} | {ra['decisions']} | {ra['mace']:.2f} "
              f"({ra['mace_ci'][0]:.2f}-{ra['mace_ci'][1]:.2f}) | {ra['mace_weighted']:.2f} | "
              f"{rb['mace']:.2f} |")
    if args.json:
        print(json.dumps(r))


def _margins(games: list[dict[str, Any]], gin_bonus: int = 25, undercut_bonus: int = 25
             ) -> dict[str, np.ndarray]:
    """The scored deals of ``games`` (calib or deal-points lines, standard rules) by kind:
    counts of each margin (a knock's, a gin's loser deadwood, an undercut's; big gin counts as
    gin), as :data:`ginrummy.bots.review.table.MEASURED` keeps them."""
    out = {k: np.zeros(160) for k in ("knock", "gin", "undercut")}
    for g in games:
        results = ([[r.get("kind"), r.get("winner"), r.get("points")] for _n, _hp, r in g["deals"]]
                   if "deals" in g else g["results"])
        for kind, winner, points in results:
            if winner is None:
                continue
            if kind == "knock":
                out["knock"][min(159, points)] += 1
            elif kind in ("gin", "big_gin"):
                out["gin"][min(159, max(0, points - gin_bonus))] += 1
            elif kind == "undercut":
                out["undercut"][min(159, max(0, points - undercut_bonus))] += 1
    return out


def cmd_deal_points(args: argparse.Namespace) -> None:
    """Mirror games played (not reviewed), levels in turn as :func:`cmd_calib` plays them but
    from another seed, and the result of every deal: one JSON line per game
    ``{"game", "level", "results": [[kind, winner, points], ...]}``, resumable. The scored
    deals' points are what the review's game-win table is solved from (``recalib --fit``)."""
    warmup()
    levels = args.levels.split(",")
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    done = len(out.read_text().splitlines()) if out.exists() else 0
    with out.open("a") as f:
        for g in range(done, args.games):
            level = levels[g % len(levels)]
            rec = play_record(level, level, args.seed + g)
            f.write(json.dumps({"game": args.seed + g, "level": level,
                                "complete": rec["winner"] is not None,
                                "results": [[h["result"]["kind"], h["result"]["winner"],
                                             h["result"]["points"]] for h in rec["hands"]]})
                    + "\n")
            f.flush()


def _paired(rows_a: list[tuple[int, float, float]], rows_b: list[tuple[int, float, float]],
            boot: int = 1000) -> None:
    """Two predictions of the same decisions, compared by resampling whole games: the
    difference in mean absolute calibration error (10 buckets) and in Brier score (a - b: > 0
    when b is better), with 95% intervals."""
    g = np.array([r[0] for r in rows_a])
    pa = np.array([r[1] for r in rows_a])
    pb = np.array([r[1] for r in rows_b])
    y = np.array([r[2] for r in rows_a])
    games, gi = np.unique(g, return_inverse=True)

    def cube(p: np.ndarray) -> np.ndarray:
        c = np.zeros((len(games), 10, 3))
        b = np.minimum(9, (p * 10).astype(int))
        np.add.at(c, (gi, b, 0), 1.0)
        np.add.at(c, (gi, b, 1), p)
        np.add.at(c, (gi, b, 2), y)
        return c

    ca, cb = cube(pa), cube(pb)
    bri = np.zeros((len(games), 3))
    np.add.at(bri, (gi, 0), 1.0)
    np.add.at(bri, (gi, 1), (pa - y) ** 2)
    np.add.at(bri, (gi, 2), (pb - y) ** 2)

    def mace(c: np.ndarray) -> float:
        n = c[:, 0]
        ok = n > 0
        return float((np.abs(c[ok, 1] - c[ok, 2]) / n[ok]).mean())

    def stats(idx: np.ndarray) -> tuple[float, float]:
        t = bri[idx].sum(axis=0)
        return (mace(ca[idx].sum(axis=0)) - mace(cb[idx].sum(axis=0)),
                (t[1] - t[2]) / t[0])

    full = stats(np.arange(len(games)))
    rng = np.random.default_rng(1)
    bs = np.array([stats(rng.integers(0, len(games), len(games))) for _ in range(boot)])
    lo, hi = np.percentile(bs, [2.5, 97.5], axis=0)
    print(f"\npaired over {len(games)} games: MACE first - second {100 * full[0]:+.2f} points "
          f"(95% CI {100 * lo[0]:+.2f}..{100 * hi[0]:+.2f}); Brier score first - second "
          f"{full[1]:+.5f} (95% CI {lo[1]:+.5f}..{hi[1]:+.5f}; > 0: the second is better)")


def points_model_from(counts: dict[str, np.ndarray], gin_bonus: int, undercut_bonus: int,
                      bandwidth: float = 3.0) -> np.ndarray:
    """The chance of each point value 0..159 of a scored deal's winner under rules with these
    bonuses (R-7.2, R-7.4), from counts of margins by kind (:func:`_margins`): a knock scores
    its margin, a gin the gin bonus plus the loser's deadwood, an undercut the undercut bonus
    plus its margin; smoothed with a Gaussian kernel of ``bandwidth`` points."""
    raw = np.zeros(160)
    for kind, shift in (("knock", 0), ("gin", gin_bonus), ("undercut", undercut_bonus)):
        c = np.asarray(counts.get(kind, ()), dtype=float)
        for margin in np.nonzero(c)[0]:
            raw[min(159, int(margin) + shift)] += c[margin]
    k = np.arange(-int(4 * bandwidth), int(4 * bandwidth) + 1)
    kernel = np.exp(-0.5 * (k / bandwidth) ** 2)
    smooth = np.convolve(raw, kernel / kernel.sum(), mode="same")
    smooth[0] = 0.0
    return np.asarray(smooth / smooth.sum())


def cmd_recalib(args: argparse.Namespace) -> None:
    """Offline: the calibration of :func:`cmd_calib`'s games with the game-win table solved
    from deal points measured in other games, from the points of the move played in each
    sampled world (no search again). With ``--fit`` files: fitted on them, tested on the
    files; without: a cross-fit, each file tested with the table fitted on the other files
    (the predictions pooled)."""
    from ginrummy.bots.value import deal_points_model, race_table, win_chance_after, win_table

    def read(f: str) -> list[dict[str, Any]]:
        return [json.loads(x) for x in Path(f).read_text().splitlines()]

    if args.fit:
        folds = [([g for f in args.files for g in read(f)],
                  [g for f in args.fit for g in read(f)])]
    else:
        data = {f: read(f) for f in args.files}
        folds = [(data[f], [g for o in args.files if o != f for g in data[o]])
                 for f in args.files]
    rules = Rules.preset("standard")
    old_table = win_table(rules)
    model = deal_points_model(rules.gin_bonus, rules.undercut_bonus)
    x = np.arange(160)
    rows_old, rows_new = [], []
    n_test = 0
    for test_lines, fit in folds:
        test = [g for g in test_lines if g["complete"] and g["winner"] is not None]
        n_test += len(test)
        margins = _margins(fit, rules.gin_bonus, rules.undercut_bonus)
        dist = points_model_from(margins, rules.gin_bonus, rules.undercut_bonus,
                                 args.bandwidth)
        new_table = race_table(rules.target, dist)
        raw = points_model_from(margins, rules.gin_bonus, rules.undercut_bonus, 1e-3)
        mean = (raw * x).sum()
        sd = np.sqrt((raw * x * x).sum() - mean ** 2)
        n = int(sum(c.sum() for c in margins.values()))
        print(f"fit: {n} scored deals of {len(fit)} games (" + ", ".join(
            f"{k} {int(c.sum())}" for k, c in margins.items()) + f"), mean {mean:.1f} points, "
              f"sd {sd:.1f} (the expert's model: mean {(model * x).sum():.1f}, sd "
              f"{np.sqrt((model * x * x).sum() - (model * x).sum() ** 2):.1f}); tested on "
              f"{len(test)} games")
        for g in test:
            hps = {n: hp for n, hp, _r in g["deals"]}
            for seat, number, _i, _k, win, _p, hist in g["decisions"]:
                hp = hps[number]
                pts = np.array([h[0] for h in hist])
                w = np.array([h[1] for h in hist], dtype=float)
                y = float(g["winner"] == seat)
                new = float((win_chance_after(new_table, rules.target, hp[seat], hp[1 - seat],
                                              pts) * w).sum() / w.sum())
                old = float((win_chance_after(old_table, rules.target, hp[seat], hp[1 - seat],
                                              pts) * w).sum() / w.sum())
                assert abs(old - win) < 1e-4, "not the review's table"
                rows_old.append((g["game"], old, y))
                rows_new.append((g["game"], new, y))
    print("\n#### the table of the expert (the review as it is)\n")
    _print_reliability(_reliability(rows_old, n_test))
    print("\n#### the table solved from the measured deal points (fitted on other games)\n")
    _print_reliability(_reliability(rows_new, n_test))
    _paired(rows_old, rows_new)
    if args.out:
        every = [g for f in args.files + (args.fit or []) for g in read(f)]
        margins = _margins(every, rules.gin_bonus, rules.undercut_bonus)
        Path(args.out).write_text(json.dumps({k: [int(v) for v in np.trim_zeros(c, "b")]
                                              for k, c in margins.items()}))


def _search_only(g: dict[str, Any]) -> dict[str, Any]:
    """A ``collect --confirm`` game line as the search alone graded it: each checked decision
    given back the search's drop and grade (its last element), each seat's accuracy the mean of
    its decisions' (:mod:`ginrummy.bots.review.grades`); the check's own accuracy is verified
    to be recomputed the same way first (to the 0.1 it is rounded to)."""
    decisions, per_seat, checked_seat = [], {}, {}
    for d in g["decisions"]:
        row = list(d[:10])
        a = 100.0 if row[8] == "best" else accuracy_of(row[6])
        checked_seat.setdefault(row[0], []).append(a)
        if isinstance(d[-1], dict) and "search" in d[-1]:
            row[6], row[8] = d[-1]["search"]
            a = 100.0 if row[8] == "best" else accuracy_of(row[6])
        per_seat.setdefault(row[0], []).append(a)
        decisions.append(row)
    seats = []
    for s in g["seats"]:
        s = dict(s)
        if s["accuracy"] is not None:
            mine = statistics.mean(checked_seat[s["seat"]])
            if abs(mine - s["accuracy"]) > 0.051:  # to_json rounds it to 0.1
                raise SystemExit(f"game {g['game']} seat {s['seat']}: accuracy {s['accuracy']} "
                                 f"is not the mean of its decisions' ({mine})")
            s["accuracy"] = statistics.mean(per_seat[s["seat"]])
            s["checked_accuracy"] = mine  # unrounded, as the search's
        seats.append(s)
    return {**g, "decisions": decisions, "seats": seats}


def cmd_acc_report(args: argparse.Namespace) -> None:
    """Accuracy by level from ``collect --pairs against:L`` files: per level the mean of its
    seats' game accuracies with a 95% interval (one seat per game), the difference between
    neighbouring levels (Welch), the grades, and by kind of decision the share of decisions,
    the mean accuracy and the mean drop."""
    lines = [json.loads(x) for f in args.files for x in _text(f).splitlines()]
    if args.search:
        lines = [_search_only(g) for g in lines]
    acc: dict[str, list[float]] = {}
    kinds: dict[str, dict[str, list[float]]] = {}
    grades: dict[str, dict[str, int]] = {}
    for g in lines:
        for s in g["seats"]:
            if s["accuracy"] is None:
                continue
            level = g["levels"][s["seat"]]
            acc.setdefault(level, []).append(s["accuracy"])
        for d in g["decisions"]:
            seat, _n, _i, kind, win, best, drop, _dp, grade, _z = d[:10]
            level = g["levels"][seat]
            a = 100.0 if grade == "best" else accuracy_of(drop)
            kinds.setdefault(level, {}).setdefault(kind, []).append(a)
            kinds[level].setdefault(kind + ":drop", []).append(drop)
            gr = grades.setdefault(level, {})
            gr[grade] = gr.get(grade, 0) + 1
    print(f"games: {len(lines)}")
    print("\n| level | games (seats) | accuracy (95% CI) | best | good | inaccuracy | mistake | "
          "blunder |")
    print("|---|---|---|---|---|---|---|---|")
    present = [lv for lv in LEVELS if lv in acc]
    for level in present:
        m, lo, hi = _mean_ci(acc[level])
        gr = grades[level]
        n = sum(gr.values())
        shares = " | ".join(f"{100 * gr.get(k, 0) / n:.1f}%" for k in
                            ("best", "good", "inaccuracy", "mistake", "blunder"))
        print(f"| {level} | {len(acc[level])} | {m:.1f} ({lo:.1f}-{hi:.1f}) | {shares} |")
    print("\n| levels | difference in accuracy (95% CI, Welch) |")
    print("|---|---|")
    for a, b in zip(present, present[1:], strict=False):
        xa, xb = acc[a], acc[b]
        diff = statistics.mean(xb) - statistics.mean(xa)
        se = math.sqrt(statistics.variance(xa) / len(xa) + statistics.variance(xb) / len(xb))
        print(f"| {b} - {a} | {diff:+.2f} ({diff - 1.96 * se:+.2f}..{diff + 1.96 * se:+.2f}) |")
    print("\n| level | " + " | ".join(f"{k}: share, accuracy, mean drop" for k in
                                      ("offer", "draw", "discard", "knock")) + " |")
    print("|---|---|---|---|---|")
    for level in present:
        k = kinds[level]
        total = sum(len(v) for key, v in k.items() if ":" not in key)
        cells = []
        for kind in ("offer", "draw", "discard", "knock"):
            v = k.get(kind, [])
            if not v:
                cells.append("-")
                continue
            cells.append(f"{100 * len(v) / total:.0f}%, {statistics.mean(v):.1f}, "
                         f"{100 * statistics.mean(k[kind + ':drop']):.2f}")
        print(f"| {level} | " + " | ".join(cells) + " |")
    if not args.search and any(isinstance(d[-1], dict) for g in lines for d in g["decisions"]):
        _check_effect(lines)


def _check_effect(lines: list[dict[str, Any]]) -> None:
    """Per level, the seats' accuracy as the search alone graded and as checked, paired seat
    by seat (the same decisions), and how the check moved the search's mistakes and blunders."""
    both: dict[str, list[tuple[float, float]]] = {}
    moved: dict[str, dict[tuple[str, str], int]] = {}
    for g in lines:
        for s in _search_only(g)["seats"]:
            if s["accuracy"] is None:
                continue
            level = g["levels"][s["seat"]]
            both.setdefault(level, []).append((s["accuracy"], s["checked_accuracy"]))
        for d in g["decisions"]:
            if isinstance(d[-1], dict) and "search" in d[-1]:
                key = (d[-1]["search"][1], d[8])
                m = moved.setdefault(g["levels"][d[0]], {})
                m[key] = m.get(key, 0) + 1
    print("\n| level | seats | the search alone | checked | checked - search (95% CI, paired) "
          "| the search's mistakes, blunders checked: kept (mistake, blunder), inaccuracy, "
          "good |")
    print("|---|---|---|---|---|---|")
    for level in [lv for lv in LEVELS if lv in both]:
        xs = both[level]
        a = statistics.mean(x[0] for x in xs)
        b = statistics.mean(x[1] for x in xs)
        m, lo, hi = _mean_ci([x[1] - x[0] for x in xs])
        mv = moved.get(level, {})
        n = sum(mv.values())
        kept = sum(v for (was, now), v in mv.items() if now in ("mistake", "blunder"))
        mist = sum(v for (was, now), v in mv.items() if now == "mistake")
        inacc = sum(v for (was, now), v in mv.items() if now == "inaccuracy")
        good = sum(v for (was, now), v in mv.items() if now == "good")
        print(f"| {level} | {len(xs)} | {a:.1f} | {b:.1f} | {m:+.2f} ({lo:+.2f}..{hi:+.2f}) | "
              f"{n}: {kept} ({mist}, {kept - mist}), {inacc}, {good} |")


def cmd_acc_calib(args: argparse.Namespace) -> None:
    """The calibration of the checked review's chances, from ``collect --confirm --strength``
    files: per reviewed decision the chance of winning after the move played (counting who
    plays) against whether that seat won the game: as the checked review gives it (the
    play-outs' value where a decision was checked) and as the search alone gave it, on the same
    decisions, paired by resampling whole games; then the checked decisions alone, both ways."""
    lines = [json.loads(x) for f in args.files for x in _text(f).splitlines()]
    games = [g for g in lines if "chances" in g and g["complete"] and g["winner"] is not None]
    checked_rows: list[tuple[int, float, float]] = []
    search_rows: list[tuple[int, float, float]] = []
    only_checked: list[tuple[int, float, float]] = []
    only_search: list[tuple[int, float, float]] = []
    for gi, g in enumerate(games):
        for d, c in zip(g["decisions"], g["chances"], strict=True):
            y = 1.0 if g["winner"] == d[0] else 0.0
            checked_rows.append((gi, c[0], y))
            search_rows.append((gi, c[-1], y))
            if len(c) == 2:
                only_checked.append((gi, c[0], y))
                only_search.append((gi, c[1], y))
    print(f"games: {len(lines)} in the files, {len(games)} complete with a winner and the "
          f"chances kept; decisions {len(checked_rows)}, of them checked {len(only_checked)}")
    for title, rows in (("the checked review (play-outs' values where checked)", checked_rows),
                        ("the search alone, the same decisions", search_rows)):
        print(f"\n### {title}\n")
        _print_reliability(_reliability(rows, len(games)))
    print("\nfirst: the search alone; second: the checked review")
    _paired(search_rows, checked_rows)
    for title, rows in (("the checked decisions: the play-outs' values", only_checked),
                        ("the checked decisions: the search's values", only_search)):
        print(f"\n### {title}\n")
        _print_reliability(_reliability(rows, len({r[0] for r in rows})))
    if only_checked:
        print("\nfirst: the search's values; second: the play-outs' (the checked decisions)")
        _paired(only_search, only_checked)


# ------------------------------------------------------------------------------ report
def _mean_ci(xs: list[float]) -> tuple[float, float, float]:
    m = statistics.mean(xs)
    if len(xs) < 2:
        return m, m, m
    h = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs))
    return m, m - h, m + h


def cmd_report(args: argparse.Namespace) -> None:
    lines = [json.loads(x) for f in args.files for x in Path(f).read_text().splitlines()]
    games = [g for g in lines if g["complete"] and g["winner"] is not None]
    buckets: list[list[tuple[float, int]]] = [[] for _ in range(10)]
    acc: dict[str, list[float]] = {}
    grades: dict[str, dict[str, int]] = {}
    lost: dict[str, list[float]] = {}
    deal_luck: list[float] = []
    draw_luck: list[float] = []
    draw_luck_pts: list[float] = []
    for g in games:
        per_seat: dict[int, list[float]] = {0: [], 1: []}
        for seat, _n, _i, _k, win, best, drop, _dp, _gr, z in (d[:10] for d in g["decisions"]):
            won = int(g["winner"] == seat)
            buckets[min(9, int(win * 10))].append((win, won))
            # grades and accuracy from the stored drops, by the code's current thresholds
            grade = grade_of(win >= best, drop, z)
            per_seat[seat].append(accuracy_of(drop) if win < best else 100.0)
            gr = grades.setdefault(g["levels"][seat], {})
            gr[grade] = gr.get(grade, 0) + 1
        for s in g["seats"]:
            level = g["levels"][s["seat"]]
            if per_seat[s["seat"]]:
                acc.setdefault(level, []).append(statistics.mean(per_seat[s["seat"]]))
            lost.setdefault(level, []).append(s["lost"]["points"] / max(1, g["hands"]))
        for _seat, kind, w, p in g["luck"]:
            (deal_luck if kind == "deal" else draw_luck).append(w)
            if kind == "draw":
                draw_luck_pts.append(p)
    print(f"games: {len(games)} complete of {len(lines)}; decisions: "
          f"{sum(len(b) for b in buckets)}")
    print("\n| predicted chance of winning | decisions | mean predicted | share won | gap |")
    print("|---|---|---|---|---|")
    errs = []
    werr = 0.0
    total = 0
    for i, b in enumerate(buckets):
        if not b:
            print(f"| {i / 10:.1f}-{(i + 1) / 10:.1f} | 0 | - | - | - |")
            continue
        mp = statistics.mean(x for x, _ in b)
        sw = statistics.mean(y for _, y in b)
        errs.append(abs(mp - sw))
        werr += abs(mp - sw) * len(b)
        total += len(b)
        print(f"| {i / 10:.1f}-{(i + 1) / 10:.1f} | {len(b)} | {mp:.3f} | {sw:.3f} | "
              f"{(sw - mp) * 100:+.1f} |")
    print(f"\nmean absolute calibration error: {100 * statistics.mean(errs):.2f} points "
          f"(over the {len(errs)} buckets with decisions); weighted by decisions: "
          f"{100 * werr / total:.2f} points")
    _deal_calibration([g for g in lines if "deals" in g])
    print("\n| level | seats | accuracy (95% CI) | points lost per hand | best | good | "
          "inaccuracy | mistake | blunder |")
    print("|---|---|---|---|---|---|---|---|---|")
    for level in LEVELS:
        if level not in acc:
            continue
        m, lo, hi = _mean_ci(acc[level])
        gr = grades[level]
        n = sum(gr.values())
        shares = " | ".join(f"{100 * gr.get(k, 0) / n:.1f}%" for k in
                            ("best", "good", "inaccuracy", "mistake", "blunder"))
        print(f"| {level} | {len(acc[level])} | {m:.1f} ({lo:.1f}-{hi:.1f}) | "
              f"{statistics.mean(lost[level]):.2f} | {shares} |")
    for name, xs in (("deal", deal_luck), ("draw", draw_luck)):
        if xs:
            m, lo, hi = _mean_ci(xs)
            print(f"\nmean luck of a {name} (chance of winning): {m * 100:+.3f} points "
                  f"(95% CI {lo * 100:+.3f}..{hi * 100:+.3f}, n = {len(xs)})")
    if draw_luck_pts:
        m, lo, hi = _mean_ci(draw_luck_pts)
        print(f"mean luck of a draw (hand points): {m:+.3f} (95% CI {lo:+.3f}..{hi:+.3f})")


def _deal_calibration(games: list[dict[str, Any]]) -> None:
    """The search alone, at the deal's end: each decision's predicted chance against the
    chance the score gives after the deal as it fell (the same table), and its predicted
    points against the deal's points; many more independent outcomes than whole games."""
    if not games:
        return
    buckets: list[list[tuple[float, float]]] = [[] for _ in range(10)]
    pts_err: list[float] = []
    for g in games:
        after = {d[0]: (d[1], d[2], d[3]) for d in g["deals"]}
        for seat, n, _i, _k, win, _b, _d, _dp, _gr, _z in (d[:10] for d in g["decisions"]):
            buckets[min(9, int(win * 10))].append((win, after[n][seat]))
    print("\nat the end of the deal (predicted chance against the chance after the deal as "
          "it fell):\n")
    print("| predicted | decisions | mean predicted | mean after the deal | gap |")
    print("|---|---|---|---|---|")
    errs = []
    for i, b in enumerate(buckets):
        if not b:
            continue
        mp = statistics.mean(x for x, _ in b)
        ma = statistics.mean(y for _, y in b)
        errs.append(abs(mp - ma))
        print(f"| {i / 10:.1f}-{(i + 1) / 10:.1f} | {len(b)} | {mp:.3f} | {ma:.3f} | "
              f"{(ma - mp) * 100:+.1f} |")
    print(f"\nmean absolute calibration error at the deal's end: "
          f"{100 * statistics.mean(errs):.2f} points over {len(errs)} buckets, "
          f"{sum(len(g['deals']) for g in games)} deals")
    del pts_err


# ------------------------------------------------------------------------------ confirm
def cmd_confirm(args: argparse.Namespace) -> None:
    warmup()
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    have = [json.loads(x) for x in out.read_text().splitlines()] if out.exists() else []
    done_games = {x["game"] for x in have}
    count = len(have)
    g = args.seed + (max(done_games) + 1 - args.seed if done_games else 0)
    with out.open("a") as f:
        while count < args.positions:
            weak = ("easy", "medium")[g % 2]
            a, b = (weak, "expert") if g % 4 < 2 else ("expert", weak)
            weak_seat = 0 if a == weak else 1
            rec = play_record(a, b, g)
            game = read_record(rec)
            r = review_game(game, (weak_seat,), None,
                            ReviewBudget(args.worlds, args.confirm, args.judge))
            for deal, d_in in zip(r.deals, game.deals, strict=True):
                for d in deal.decisions:
                    if d.grade not in ("mistake", "blunder") or count >= args.positions:
                        continue
                    res = _confirm_one(d_in, d, 0x5A17 + 1_000_003 * g + 1009 * d.number
                                       + d.index, args.samples, args.truth)
                    if not args.confirm:
                        res.update(_fresh(d_in, d, args.worlds))
                    elif d.confirmation is not None:
                        res["confirmation"] = d.confirmation.to_json()
                    res.update({"game": g, "levels": [a, b], "grade": d.grade,
                                "hand": d.number, "index": d.index,
                                "graded_drop": d.drop, "graded_drop_points": d.drop_points,
                                "played": d.played.action.text, "best": d.best.action.text})
                    f.write(json.dumps(res) + "\n")
                    f.flush()
                    count += 1
            searched = [d for deal in r.deals for d in deal.decisions
                        if (d.grade if d.confirmation is None else d.confirmation.search_grade)
                        in ("mistake", "blunder")]
            with Path(f"{out}.games").open("a") as gf:
                gf.write(json.dumps({"game": g, "decisions": sum(len(x.decisions)
                                                                 for x in r.deals),
                                     "searched": len(searched),
                                     "kept": sum(d.grade in ("mistake", "blunder")
                                                 for d in searched)}) + "\n")
            print(f"game {g}: {count} positions", file=sys.stderr)
            g += 1


def _confirm_one(d_in: Any, d: Any, seed: int, samples: int, truth: bool = False
                 ) -> dict[str, Any]:
    """Play out the best move and the move played from ``samples`` worlds sampled from the
    seat's view (the search's own sampler), the ``expert`` continuing both seats with the same
    random sources for both moves (:func:`ginrummy.bots.review.playout_drops`, seeded by
    ``seed``: other worlds than a review's confirmation samples); per world the difference in
    the chance of winning the game (best - played) and in points. ``truth``: the same from the
    true hidden cards, the stock reshuffled per play-out."""
    h = position_at(d_in, d.index)
    seat = h.current
    hp = d_in.hand_points
    score = d_in.scores[seat]
    played, best = d.played.action, d.best.action
    measured = playout_drops(h, best, played, score, seed, samples, "expert", hp, d_in.target)
    assert measured is not None
    win, pts = measured
    out: dict[str, Any] = {"measured_drop": float(win.mean()),
                           "measured_drop_points": float(pts.mean()),
                           "samples": samples, "diffs": [round(float(x), 5) for x in win],
                           "diffs_points": [int(x) for x in pts], "kind": d.kind, "z": d.z}
    if truth:  # the true hidden cards, the stock reshuffled
        bots = [ExpertBot(), ExpertBot()]
        truth_w = []
        for w in range(samples):
            t = h.clone()
            stock = list(t.deck[t.stock_pos:])
            random.Random(w).shuffle(stock)
            t.deck = tuple(t.deck[:t.stock_pos]) + tuple(stock)
            tb = play_out(t, best, f"truth:{w}", bots, hp, d_in.target)
            tp = play_out(t, played, f"truth:{w}", bots, hp, d_in.target)
            twb, twp = score.win_chance(np.array([tb, tp]))
            truth_w.append(float(twb - twp))
        out["truth_drop"] = statistics.mean(truth_w)
    return out


def _fresh(d_in: Any, d: Any, worlds: int) -> dict[str, Any]:
    """The decision valued again as the review values it but in other sampled worlds (another
    seed): the best move's chance of winning minus the played move's. Tells the search's noise
    (a drop that shrinks here was partly chance: the best of several noisy values is picked)
    from a difference between the search's rollouts and the expert's own play."""
    from ginrummy.bots.review.position import evaluate_position, same_move

    h = HandState(d_in.rules, d_in.dealer, d_in.deck)
    for a in d_in.actions[:d.index]:
        h.apply(Action.parse(a))
    view = view_of(h, h.current)
    if d.kind == "fiftieth":
        return {}
    vals = evaluate_position(view, d_in.scores[view.seat], 0x5EED + 7919 * d.index + d.number,
                             ReviewBudget(worlds))
    if vals is None:  # pragma: no cover - a view made by the engine adds up
        return {}
    win = vals.win.mean(axis=1)
    b = next(i for i, m in enumerate(vals.moves) if same_move(m, d.best.action))
    p = next(i for i, m in enumerate(vals.moves) if same_move(m, d.played.action))
    return {"fresh_drop": round(float(win[b] - win[p]), 5)}


def _text(path: str) -> str:
    """A results file's text (gzip-compressed when its name ends with .gz)."""
    if path.endswith(".gz"):
        import gzip

        return gzip.decompress(Path(path).read_bytes()).decode("utf-8")
    return Path(path).read_text()


def cmd_confirm_report(args: argparse.Namespace) -> None:
    """Sums up ``confirm``: per position the measured drop (the mean over its play-outs of the
    best move's chance of winning minus the played move's) and its standard error; the share of
    positions where the best move came out ahead, significantly ahead or significantly behind
    (two standard errors); the share that would come out ahead if every graded drop were exact,
    given each position's noise (the most this many play-outs can show); the mean measured drop
    against the mean graded one, overall and by kind of decision."""
    from statistics import NormalDist

    rows = [json.loads(x) for f in args.files for x in _text(f).splitlines()]
    n = len(rows)
    if not n:
        raise SystemExit("no positions")
    phi = NormalDist().cdf
    for r in rows:
        d = r["diffs"]
        r["se"] = statistics.stdev(d) / math.sqrt(len(d)) if len(d) > 1 else float("inf")
    ahead = sum(r["measured_drop"] > 0 for r in rows)
    sig = sum(r["measured_drop"] > 2 * r["se"] for r in rows)
    behind = sum(r["measured_drop"] < -2 * r["se"] for r in rows)
    ceiling = sum(phi(r["graded_drop"] / r["se"]) if r["se"] > 0 else 1.0 for r in rows) / n
    samples = sorted({r["samples"] for r in rows})
    print(f"positions: {n} ({sum(r['grade'] == 'blunder' for r in rows)} blunders, "
          f"{sum(r['grade'] == 'mistake' for r in rows)} mistakes), play-outs per move and "
          f"position: {samples}")
    print(f"best move ahead: {ahead} ({100 * ahead / n:.1f}%); significantly ahead: {sig} "
          f"({100 * sig / n:.1f}%); significantly behind: {behind} ({100 * behind / n:.1f}%)")
    print(f"if every graded drop were exact, the noise of these play-outs would leave the best "
          f"move ahead in {100 * ceiling:.1f}% of the positions")
    z = 1.959964
    p_hat = ahead / n
    mid = (p_hat + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p_hat * (1 - p_hat) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    g_all = np.array([r["graded_drop"] for r in rows])
    m_all = np.array([r["measured_drop"] for r in rows])
    rng = np.random.default_rng(20)
    idx = rng.integers(0, n, size=(2000, n))
    ratios = m_all[idx].mean(axis=1) / g_all[idx].mean(axis=1)
    print(f"best move ahead: Wilson 95% CI {100 * (mid - half):.1f}-{100 * (mid + half):.1f}%; "
          f"measured / graded {m_all.mean() / g_all.mean():.2f} (bootstrap 95% CI "
          f"{np.quantile(ratios, 0.025):.2f}-{np.quantile(ratios, 0.975):.2f})")

    def line(name: str, rs: list[dict[str, Any]]) -> None:
        g = [r["graded_drop"] for r in rs]
        m = [r["measured_drop"] for r in rs]
        mm, lo, hi = _mean_ci(m)
        gm = statistics.mean(g)
        print(f"| {name} | {len(rs)} | {100 * gm:.2f} | {100 * mm:.2f} ({100 * lo:.2f}.."
              f"{100 * hi:.2f}) | {mm / gm:.2f} | "
              f"{100 * sum(r['measured_drop'] > 0 for r in rs) / len(rs):.0f}% |")

    print("\n| positions | n | mean graded drop | mean measured drop (95% CI) | measured / graded "
          "| best ahead |")
    print("|---|---|---|---|---|---|")
    line("all", rows)
    for kind in ("offer", "draw", "discard", "knock", "fiftieth"):
        rs = [r for r in rows if r.get("kind") == kind]
        if rs:
            line(kind, rs)
    for grade in ("mistake", "blunder"):
        rs = [r for r in rows if r["grade"] == grade]
        if rs:
            line(grade, rs)
    fr = [r for r in rows if "fresh_drop" in r]
    if fr:
        f = [r["fresh_drop"] for r in fr]
        g = [r["graded_drop"] for r in fr]
        print(f"\nvalued again by the review's search in other worlds ({len(fr)} positions): "
              f"mean drop {100 * statistics.mean(f):.2f} against {100 * statistics.mean(g):.2f} "
              f"graded (ratio {statistics.mean(f) / statistics.mean(g):.2f}); best ahead "
              f"{100 * sum(x > 0 for x in f) / len(f):.1f}%")
    if any("truth_drop" in r for r in rows):
        t = [r["truth_drop"] for r in rows if "truth_drop" in r]
        print(f"\nfrom the true hidden cards: mean {100 * statistics.mean(t):.2f}, best ahead "
              f"{100 * sum(x > 0 for x in t) / len(t):.1f}% ({len(t)} positions)")
    conf = [r for r in rows if "confirmation" in r]
    if conf:
        s = [r["confirmation"]["search_drop"] for r in conf]
        m = [r["measured_drop"] for r in conf]
        print(f"\nthese positions' search drops: mean {100 * statistics.mean(s):.2f} (measured "
              f"/ search {statistics.mean(m) / statistics.mean(s):.2f}); graded by the search "
              f"as {sum(r['confirmation']['search_grade'] == 'blunder' for r in conf)} "
              f"blunders, {sum(r['confirmation']['search_grade'] == 'mistake' for r in conf)} "
              "mistakes")
    games = [json.loads(x) for f in args.files for g in (f"{f}.games",
                                                         f"{f.removesuffix('.gz')}.games.gz")
             if Path(g).exists() for x in _text(g).splitlines()]
    if games:
        searched = sum(g["searched"] for g in games)
        kept = sum(g["kept"] for g in games)
        print(f"in the {len(games)} games reviewed ({sum(g['decisions'] for g in games)} "
              f"decisions of the weaker seat): the search graded {searched} mistakes or "
              f"blunders, {kept} ({100 * kept / max(searched, 1):.0f}%) kept by the play-outs")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("speed")
    s.add_argument("--games", type=int, default=40)
    s.add_argument("--worlds", type=int, default=DEFAULT_BUDGET.worlds)
    s.add_argument("--confirm", type=int, default=0,
                   help="play-outs checking the search's mistakes (the web's default: 32)")
    s.add_argument("--seed", type=int, default=0)
    s.set_defaults(func=cmd_speed)
    c = sub.add_parser("collect")
    c.add_argument("--games", type=int, default=500)
    c.add_argument("--levels", default=",".join(LEVELS))
    c.add_argument("--pairs", default="mixed",
                   help="mixed: each ordered pair of two levels; mirror: each level against "
                        "itself; all: both; against:LEVEL: each level against LEVEL (only "
                        "its seat reviewed)")
    c.add_argument("--hist", action="store_true",
                   help="keep the played move's points in each sampled world")
    c.add_argument("--worlds", type=int, default=DEFAULT_BUDGET.worlds)
    c.add_argument("--confirm", type=int, default=0,
                   help="play-outs checking each mistake and blunder (0: the search alone)")
    c.add_argument("--judge", default="expert-light", help="who plays those play-outs")
    c.add_argument("--strength", action="store_true",
                   help="review with the levels' ratings (bots/ratings.json), as the web does")
    c.add_argument("--seed", type=int, default=1000)
    c.add_argument("--out", required=True)
    c.set_defaults(func=cmd_collect)
    cb = sub.add_parser("calib")
    cb.add_argument("--games", type=int, default=2000)
    cb.add_argument("--levels", default="easy,medium,hard,expert")
    cb.add_argument("--pairs", default="mirror", choices=["mirror", "mixed", "all"])
    cb.add_argument("--worlds", type=int, default=DEFAULT_BUDGET.worlds)
    cb.add_argument("--seed", type=int, default=70000)
    cb.add_argument("--share", type=float, default=1.0,
                    help="value this share of the decisions (a fixed hash choice)")
    cb.add_argument("--check", action="store_true",
                    help="check the first game's values against the full review")
    cb.add_argument("--out", required=True)
    cb.set_defaults(func=cmd_calib)
    cr = sub.add_parser("calib-report")
    cr.add_argument("files", nargs="+")
    cr.add_argument("--json", action="store_true")
    cr.add_argument("--strength", action="store_true",
                    help="value later deals by the levels' ratings (bots/ratings.json)")
    cr.add_argument("--untilted", action="store_true",
                    help="with --strength: the later deals only, not the deal in play "
                         "(a comparison; the review tilts both)")
    cr.set_defaults(func=cmd_calib_report)
    dp = sub.add_parser("deal-points")
    dp.add_argument("--games", type=int, default=2000)
    dp.add_argument("--levels", default="easy,medium,hard,easy,medium,hard,easy,medium,hard,"
                                        "expert")
    dp.add_argument("--seed", type=int, default=60000)
    dp.add_argument("--out", required=True)
    dp.set_defaults(func=cmd_deal_points)
    rc = sub.add_parser("recalib")
    rc.add_argument("files", nargs="+")
    rc.add_argument("--fit", nargs="*", default=None,
                    help="calib or deal-points files to fit on (default: cross-fit over the "
                         "files)")
    rc.add_argument("--bandwidth", type=float, default=3.0)
    rc.add_argument("--out", default=None, help="write the fitted counts (JSON)")
    rc.set_defaults(func=cmd_recalib)
    ar = sub.add_parser("acc-report")
    ar.add_argument("files", nargs="+")
    ar.add_argument("--search", action="store_true",
                    help="as the search alone graded (collect --confirm files: before the check)")
    ar.set_defaults(func=cmd_acc_report)
    ac = sub.add_parser("acc-calib")
    ac.add_argument("files", nargs="+")
    ac.set_defaults(func=cmd_acc_calib)

    r = sub.add_parser("report")
    r.add_argument("files", nargs="+")
    r.set_defaults(func=cmd_report)
    k = sub.add_parser("confirm")
    k.add_argument("--positions", type=int, default=500)
    k.add_argument("--samples", type=int, default=24)
    k.add_argument("--truth", action="store_true",
                   help="also play out from the true hidden cards (twice the cost)")
    k.add_argument("--worlds", type=int, default=DEFAULT_BUDGET.worlds)
    k.add_argument("--confirm", type=int, default=0,
                   help="the review confirms its mistakes by this many play-outs (0: none)")
    k.add_argument("--judge", default="expert-light", help="who plays those play-outs")
    k.add_argument("--seed", type=int, default=50000)
    k.add_argument("--out", required=True)
    k.set_defaults(func=cmd_confirm)
    q = sub.add_parser("confirm-report")
    q.add_argument("files", nargs="+")
    q.set_defaults(func=cmd_confirm_report)
    args = p.parse_args()
    args.func(args)


if __name__ == "__main__":
    main()
