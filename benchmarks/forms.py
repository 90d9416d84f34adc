"""Long tournaments in every form, resumable, and paired comparisons of two runs (not run in CI).
Results go to benchmarks/results/forms-*.md.

Usage (from the repository root, with the project's virtual environment)::

    python benchmarks/forms.py run --scoring three_player --a expert --b simple --games 1002 \\
        --jobs 2 --out runs/3p-base.jsonl
    python benchmarks/forms.py run ... --set expert.form_value=false --out runs/3p-2p.jsonl
    python benchmarks/forms.py run ... --summarise --out runs/3p-base.jsonl
    python benchmarks/forms.py compare --base runs/3p-2p.jsonl --new runs/3p-base.jsonl
    python benchmarks/forms.py decision-time --scoring hollywood --games 4

``run`` plays the games of :func:`ginrummy.tournament.run_tournament` (the same sets, seeds and
results as ``ginrummy tournament --scoring ...``) in batches of sets and appends each game to a
JSON-lines file as it finishes, so that a long run can be stopped, resumed and summarised at any
point (``--summarise`` only reads the file; only whole sets count). ``--set
level.attribute=value`` changes a bot class's attribute in every worker (benchmarks/bots.py's
``apply_overrides``). ``compare`` pairs two runs of the same seed game by game (the same decks
and seats): the mean difference in games won by A's side (new - base) and in A's side's points
per hand, with 95% normal intervals. ``decision-time`` plays a few games with ``expert`` in
seat 0 and makes each of its decisions twice, with and without the form's value (in turn
first), from the same view and random state: the CPU time of each, and how often they differ.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import os
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bots import apply_overrides  # noqa: E402  (benchmarks/bots.py)
from ginrummy.rules import Rules  # noqa: E402
from ginrummy.tournament import (  # noqa: E402
    GameSummary,
    Lineup,
    format_table,
    pair_batches,
    play_one,
    play_sets,
    summarise,
    table_rules,
)


def _play(sets_: list[str], lineup: Lineup, rules: Rules, seed: int,
          batch: list[int]) -> list[GameSummary]:
    apply_overrides(sets_)  # also in spawned workers
    return play_sets(lineup, rules, seed, batch)


def _row(g: GameSummary) -> dict[str, Any]:
    row = dataclasses.asdict(g)
    for k in ("a_times_ms", "times_ms"):  # wall-clock times: kept as CPU times only
        row.pop(k)
    row["a_cpu_ms"] = [round(x, 3) for x in row["a_cpu_ms"]]
    row["cpu_ms"] = [[round(x, 3) for x in xs] for xs in row["cpu_ms"]]
    return row


def _game(row: dict[str, Any]) -> GameSummary:
    return GameSummary(
        row["a_won"], [tuple(h) for h in row["hands"]], [], row.get("a_cpu_ms", []),
        row["set_index"], row["rotation"],
        None if row["winners"] is None else tuple(row["winners"]),
        [(d[0], d[1], d[2], d[3], tuple(d[4])) for d in row["deals"]], tuple(row["totals"]),
        [], row.get("cpu_ms", []))


def _load(path: str) -> dict[tuple[int, int], dict[str, Any]]:
    out: dict[tuple[int, int], dict[str, Any]] = {}
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            for line in f:
                row = json.loads(line)
                out[(row["set_index"], row["rotation"])] = row
    return out


def cmd_run(args: argparse.Namespace) -> None:
    form, preset, rules, fitted = table_rules(args.rules, args.scoring)
    lineup = (Lineup(form, tuple(args.lineup.split(","))) if args.lineup
              else Lineup.of(form, args.a, args.b))
    nsets = -(-args.games // lineup.rotations)
    done = _load(args.out)
    t0 = time.perf_counter()
    if not args.summarise:
        apply_overrides(args.set)
        if "expert" in lineup.players:
            from ginrummy.bots.kernel import warmup

            warmup()
        todo = [k for k in range(nsets)
                if any((k, r) not in done for r in range(lineup.rotations))]
        batches = [b for b in pair_batches(len(todo), args.jobs, args.batch)]
        batches = [[todo[i] for i in b] for b in batches]
        with ProcessPoolExecutor(args.jobs) as ex, open(args.out, "a", encoding="utf-8") as f:
            futs = [ex.submit(_play, args.set, lineup, rules, args.seed, b) for b in batches]
            for fut in futs:
                for g in fut.result():
                    row = _row(g)
                    f.write(json.dumps(row) + "\n")
                    done[(g.set_index, g.rotation)] = row
                f.flush()
    games = [_game(done[(k, r)]) for k in range(nsets)
             if all((k, r) in done for r in range(lineup.rotations))
             for r in range(lineup.rotations)]
    # elapsed: this invocation only (a resumed run's earlier parts are not counted)
    res = summarise(lineup.a, lineup.b, rules, args.seed, games, time.perf_counter() - t0,
                    lineup)
    print(format_table(res, f"{preset} (fitted)" if fitted else preset))
    data = res.to_json()
    data["preset"], data["fitted"], data["set"] = preset, fitted, args.set
    print(json.dumps(data))


def _mean_ci(xs: list[float]) -> tuple[float, float, float]:
    m = statistics.fmean(xs)
    se = statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else float("nan")
    return m, m - 1.96 * se, m + 1.96 * se


def cmd_compare(args: argparse.Namespace) -> None:
    """Paired: the same (set, rotation) in both runs; only games finished in both count."""
    base, new = _load(args.base), _load(args.new)
    keys = sorted(k for k in set(base) & set(new)
                  if base[k]["winners"] is not None and new[k]["winners"] is not None)
    if not keys:
        raise SystemExit("no games in common")

    def won(r: dict[str, Any]) -> float:
        return float(bool(r["a_won"]))

    def pph(r: dict[str, Any]) -> float:
        hs = r["hands"]
        return sum(h[1] for h in hs) / max(1, len(hs))

    out: dict[str, Any] = {"games": len(keys)}
    for name, f in (("win_diff", won), ("pph_diff", pph)):
        m, lo, hi = _mean_ci([f(new[k]) - f(base[k]) for k in keys])
        out[name] = round(m, 4)
        out[name + "_ci"] = [round(lo, 4), round(hi, 4)]
    out["base_win_rate"] = round(statistics.fmean(won(base[k]) for k in keys), 4)
    out["new_win_rate"] = round(statistics.fmean(won(new[k]) for k in keys), 4)
    out["discordant"] = sum(1 for k in keys if won(base[k]) != won(new[k]))
    print(json.dumps(out))


def cmd_decision_time(args: argparse.Namespace) -> None:
    import copy

    from ginrummy.bots.expert import ExpertBot
    from ginrummy.bots.kernel import warmup
    from ginrummy.bots.stakes import prepare

    form, preset, rules, _ = table_rules(args.rules, args.scoring)
    warmup()
    prepare(rules, form)
    lineup = Lineup.of(form, "expert", "simple")
    times: dict[bool, list[float]] = {True: [], False: []}
    differ = [0]

    class Both(ExpertBot):
        def choose(self, view: Any, ctx: Any) -> Any:
            state = ctx.rng.getstate()
            order = [True, False] if len(times[True]) % 2 == 0 else [False, True]
            got = {}
            for on in order:
                ctx.rng.setstate(state)
                self.form_value = on
                c0 = time.process_time()
                got[on] = super().choose(view, copy.copy(ctx))
                times[on].append((time.process_time() - c0) * 1000.0)
            differ[0] += got[True] != got[False]
            ctx.rng.setstate(state)
            self.form_value = True
            return super().choose(view, ctx)

    for k in range(args.games):  # the games of a tournament's set k, rotation 0
        play_one(lineup, rules, args.seed, k, 0, bots={0: Both()})
    out: dict[str, Any] = {"scoring": form, "preset": preset, "games": args.games,
                           "decisions": len(times[True]), "differ": differ[0]}
    for on in (True, False):
        xs = sorted(times[on])
        out["form" if on else "two_player"] = {
            "cpu_ms_mean": round(statistics.fmean(xs), 3),
            "cpu_ms_p50": round(xs[len(xs) // 2], 3),
            "cpu_ms_p99": round(xs[min(len(xs) - 1, int(0.99 * len(xs)))], 3)}
    print(json.dumps(out))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(required=True)
    r = sub.add_parser("run")
    r.add_argument("--scoring", default=None)
    r.add_argument("--rules", default=None)
    r.add_argument("--a", default="expert")
    r.add_argument("--b", default="simple")
    r.add_argument("--lineup", default=None)
    r.add_argument("--games", type=int, default=1000)
    r.add_argument("--seed", type=int, default=0)
    r.add_argument("--jobs", type=int, default=2)
    r.add_argument("--batch", type=int, default=4, help="sets per task (at most)")
    r.add_argument("--set", action="append", default=[], help="level.attribute=value")
    r.add_argument("--out", required=True)
    r.add_argument("--summarise", action="store_true")
    r.set_defaults(func=cmd_run)
    c = sub.add_parser("compare")
    c.add_argument("--base", required=True)
    c.add_argument("--new", required=True)
    c.set_defaults(func=cmd_compare)
    d = sub.add_parser("decision-time")
    d.add_argument("--scoring", default="three_player")
    d.add_argument("--rules", default=None)
    d.add_argument("--games", type=int, default=4)
    d.add_argument("--seed", type=int, default=0)
    d.set_defaults(func=cmd_decision_time)
    args = ap.parse_args(argv)
    args.func(args)


if __name__ == "__main__":
    main()
