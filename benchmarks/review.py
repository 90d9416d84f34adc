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
    read_record,
    review_game,
)
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
    budget = ReviewBudget(args.worlds)
    pairs = [(a, b) for a in ("easy", "medium", "hard", "expert")
             for b in ("easy", "medium", "hard", "expert") if a != b]
    game_s: list[float] = []
    hand_s: list[float] = []
    seat_s: list[float] = []
    decisions = 0
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
        print(f"game {g + 1}: {a} v {b}, {len(game.deals)} hands, {dt:.2f} s", file=sys.stderr)
    out = {"games": len(game_s), "worlds": args.worlds, "decisions": decisions,
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
def _game_line(g: int, a: str, b: str, worlds: int, luck: bool = True) -> dict[str, Any]:
    rec = play_record(a, b, g)
    game = read_record(rec)
    r = review_game(game, (0, 1), None, ReviewBudget(worlds))
    levels = [a, b]
    decisions = [[d.seat, d.number, d.index, d.kind, round(d.played.win, 5),
                  round(d.best.win, 5), round(d.drop, 5), round(d.drop_points, 3), d.grade,
                  round(d.z, 2)]
                 for deal in r.deals for d in deal.decisions]
    luck_events = [[e.seat, e.kind, round(e.win, 5), round(e.points, 3)]
                   for deal in r.deals for e in deal.luck]
    deals = [[deal.number, round(deal.win_after[0], 5), round(deal.win_after[1], 5),
              deal.result[0]] for deal in r.deals]
    return {"game": g, "levels": levels, "complete": game.complete,
            "winner": rec["winner"], "hands": len(game.deals), "worlds": worlds,
            "seats": [s.to_json() for s in r.seats], "decisions": decisions,
            "luck": luck_events, "deals": deals}


def cmd_collect(args: argparse.Namespace) -> None:
    warmup()
    levels = args.levels.split(",")
    pairs = [(a, b) for a in levels for b in levels
             if args.pairs == "all" or (a == b) == (args.pairs == "mirror")]
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    done = len(out.read_text().splitlines()) if out.exists() else 0
    with out.open("a") as f:
        for g in range(done, args.games):
            a, b = pairs[g % len(pairs)]
            t0 = time.process_time()
            line = _game_line(args.seed + g, a, b, args.worlds)
            line["cpu_s"] = round(time.process_time() - t0, 3)
            f.write(json.dumps(line) + "\n")
            f.flush()
            if (g + 1) % 10 == 0:
                print(f"{g + 1} games", file=sys.stderr)


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
        for seat, _n, _i, _k, win, best, drop, _dp, _gr, z in g["decisions"]:
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
        for seat, n, _i, _k, win, _b, _d, _dp, _gr, _z in g["decisions"]:
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
def _playout(state: HandState, first: Action, seed: int, hand_points: tuple[int, int],
             target: int, bots: list[Any]) -> int:
    """Signed points for the seat to act after ``first`` and the expert playing on."""
    h = state.clone()
    seat = h.current
    h.apply(first)
    rngs = [random.Random(f"{seed}:0"), random.Random(f"{seed}:1")]
    steps = 0
    while not h.is_over and steps < 400:
        s = h.current
        ctx = Context(rng=rngs[s], hand_points=hand_points, target=target)
        h.apply(bots[s].choose(view_of(h, s), ctx))
        steps += 1
    o = h.outcome
    if o is None or o.winner is None:
        return 0
    return o.points if o.winner == seat else -o.points


def cmd_confirm(args: argparse.Namespace) -> None:
    warmup()
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    have = [json.loads(x) for x in out.read_text().splitlines()] if out.exists() else []
    done_games = {x["game"] for x in have}
    count = len(have)
    bots = [ExpertBot(), ExpertBot()]
    sampler = ExpertBot()
    g = args.seed + (max(done_games) + 1 - args.seed if done_games else 0)
    with out.open("a") as f:
        while count < args.positions:
            weak = ("easy", "medium")[g % 2]
            a, b = (weak, "expert") if g % 4 < 2 else ("expert", weak)
            weak_seat = 0 if a == weak else 1
            rec = play_record(a, b, g)
            game = read_record(rec)
            r = review_game(game, (weak_seat,), None, ReviewBudget(args.worlds))
            for deal, d_in in zip(r.deals, game.deals, strict=True):
                for d in deal.decisions:
                    if d.grade not in ("mistake", "blunder") or count >= args.positions:
                        continue
                    res = _confirm_one(d_in, d, bots, sampler, args.samples)
                    res.update({"game": g, "levels": [a, b], "grade": d.grade,
                                "graded_drop": d.drop, "graded_drop_points": d.drop_points,
                                "played": d.played.action.text, "best": d.best.action.text})
                    f.write(json.dumps(res) + "\n")
                    f.flush()
                    count += 1
            print(f"game {g}: {count} positions", file=sys.stderr)
            g += 1


def _confirm_one(d_in: Any, d: Any, bots: list[Any], sampler: ExpertBot,
                 samples: int) -> dict[str, Any]:
    h = HandState(d_in.rules, d_in.dealer, d_in.deck)
    for a in d_in.actions[:d.index]:
        h.apply(Action.parse(a))
    seat = h.current
    view = view_of(h, seat)
    hp = d_in.hand_points
    score = TwoPlayerScore(d_in.rules, hp[seat], hp[1 - seat])
    worlds = sampler.sample_worlds(view, Context(rng=random.Random(d.index * 7 + 1)), samples)
    assert worlds is not None
    opp_hands, stocks = worlds
    played, best = d.played.action, d.best.action
    diffs_w, diffs_p, truth_w = [], [], []
    for w in range(samples):
        s = h.clone()
        s.hands[1 - seat] = int(opp_hands[w])
        s.deck = tuple(s.deck[:s.stock_pos]) + tuple(int(c) for c in stocks[w])
        pb = _playout(s, best, w, hp, d_in.target, bots)
        pp = _playout(s, played, w, hp, d_in.target, bots)
        wb, wp = score.win_chance(np.array([pb, pp]))
        diffs_w.append(float(wb - wp))
        diffs_p.append(pb - pp)
        # the true hidden cards, the stock reshuffled
        t = h.clone()
        stock = list(t.deck[t.stock_pos:])
        random.Random(w).shuffle(stock)
        t.deck = tuple(t.deck[:t.stock_pos]) + tuple(stock)
        tb = _playout(t, best, w, hp, d_in.target, bots)
        tp = _playout(t, played, w, hp, d_in.target, bots)
        twb, twp = score.win_chance(np.array([tb, tp]))
        truth_w.append(float(twb - twp))
    return {"measured_drop": statistics.mean(diffs_w),
            "measured_drop_points": statistics.mean(diffs_p),
            "truth_drop": statistics.mean(truth_w), "samples": samples}


def cmd_confirm_report(args: argparse.Namespace) -> None:
    rows = [json.loads(x) for f in args.files for x in Path(f).read_text().splitlines()]
    n = len(rows)
    ahead = sum(r["measured_drop"] > 0 for r in rows)
    tie = sum(r["measured_drop"] == 0 for r in rows)
    t_ahead = sum(r["truth_drop"] > 0 for r in rows)
    g = [r["graded_drop"] for r in rows]
    m = [r["measured_drop"] for r in rows]
    print(f"positions: {n} ({sum(r['grade'] == 'blunder' for r in rows)} blunders)")
    print(f"best move ahead in the sampled worlds: {ahead} ({100 * ahead / n:.1f}%), "
          f"even {tie}")
    print(f"best move ahead with the true hidden cards: {t_ahead} ({100 * t_ahead / n:.1f}%)")
    print(f"mean graded drop {100 * statistics.mean(g):.2f} points of winning chance, "
          f"mean measured {100 * statistics.mean(m):.2f} (ratio "
          f"{statistics.mean(m) / statistics.mean(g):.2f}); with the true cards "
          f"{100 * statistics.mean(r['truth_drop'] for r in rows):.2f}")
    rel = [abs(r["measured_drop"] - r["graded_drop"]) / r["graded_drop"] for r in rows]
    print(f"mean |measured - graded| / graded per position: {statistics.mean(rel):.2f}; "
          f"median {statistics.median(rel):.2f}")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("speed")
    s.add_argument("--games", type=int, default=40)
    s.add_argument("--worlds", type=int, default=DEFAULT_BUDGET.worlds)
    s.add_argument("--seed", type=int, default=0)
    s.set_defaults(func=cmd_speed)
    c = sub.add_parser("collect")
    c.add_argument("--games", type=int, default=500)
    c.add_argument("--levels", default=",".join(LEVELS))
    c.add_argument("--pairs", choices=("mixed", "mirror", "all"), default="mixed",
                   help="each ordered pair of two levels, each level against itself, or both")
    c.add_argument("--worlds", type=int, default=DEFAULT_BUDGET.worlds)
    c.add_argument("--seed", type=int, default=1000)
    c.add_argument("--out", required=True)
    c.set_defaults(func=cmd_collect)
    r = sub.add_parser("report")
    r.add_argument("files", nargs="+")
    r.set_defaults(func=cmd_report)
    k = sub.add_parser("confirm")
    k.add_argument("--positions", type=int, default=500)
    k.add_argument("--samples", type=int, default=24)
    k.add_argument("--worlds", type=int, default=DEFAULT_BUDGET.worlds)
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
