"""The computer players' ratings: a round robin of every player, fitted on one scale (issue 22).

Usage (from the repository root, with the project's virtual environment), whenever a bot changes::

    nice -n 19 python benchmarks/ratings.py --games 400 --jobs 2 --runs /tmp/ratings-runs

plays every pair of ``random easy medium hard expert simple marjj`` (``--games`` 100-point games
each, seat-swapped pairs of identical deals, :func:`ginrummy.tournament.run_tournament`, the
``standard`` preset), keeps each pair's result as JSON in ``--runs`` (a pair already there is not
played again: an interrupted run resumes where it stopped), fits the ratings
(:func:`ginrummy.rating.fit_round_robin`: Elo scale, ``simple`` = 1500, 95% intervals) and writes
``benchmarks/results/ratings-<date>.md`` and ``src/ginrummy/bots/ratings.json`` (the file the web
game reads for its level menu and a person's opponents: :mod:`ginrummy.bots.strength`).
``--fit-only`` re-fits the pairs already in ``--runs`` without playing.
"""

from __future__ import annotations

import argparse
import datetime as dt
import itertools
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from ginrummy.rating import ANCHOR, ANCHOR_RATING, elo_expected, fit_round_robin
from ginrummy.rules import Rules
from ginrummy.tournament import run_tournament

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = ["random", "easy", "medium", "hard", "expert", "simple", "marjj"]
#: the code that decides how the games go (git pathspecs): the engine and the players.
PLAY_CODE = [":(glob)src/ginrummy/*.py", ":(glob)src/ginrummy/bots/*.py"]


def _git(*args: str) -> str:
    try:
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def _cpu() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def pair_file(runs: Path, a: str, b: str) -> Path:
    return runs / f"{a}-vs-{b}.json"


def play(args: argparse.Namespace, command: str) -> None:
    runs = Path(args.runs)
    runs.mkdir(parents=True, exist_ok=True)
    rules = Rules.preset(args.rules)
    pairs = list(itertools.combinations(args.players, 2))
    for i, (a, b) in enumerate(pairs, 1):
        path = pair_file(runs, a, b)
        if path.exists():
            print(f"[{i}/{len(pairs)}] {a} vs {b}: kept from {path}", flush=True)
            continue
        start = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
        load0 = os.getloadavg()[0]
        r = run_tournament(a, b, games=args.games, rules=rules, seed=args.seed, jobs=args.jobs)
        rec = r.to_json() | {"started": start, "load_1min_start": round(load0, 2),
                             "load_1min_end": round(os.getloadavg()[0], 2),
                             "commit": _git("log", "-1", "--format=%h", "--", *PLAY_CODE),
                             "dirty": bool(_git("status", "--porcelain", "--", *PLAY_CODE)),
                             "command": command}
        path.write_text(json.dumps(rec) + "\n")
        print(f"[{i}/{len(pairs)}] {a} vs {b}: {r.wins_a}-{r.wins_b} "
              f"({r.elapsed_s:.0f} s, load {load0:.1f})", flush=True)


def load_pairs(runs: Path, players: list[str]) -> list[dict[str, Any]]:
    out = []
    for a, b in itertools.combinations(players, 2):
        path = pair_file(runs, a, b)
        if not path.exists():
            raise SystemExit(f"missing pair {a} vs {b} ({path}): play it first")
        out.append(json.loads(path.read_text()))
    return out


def fit_and_write(args: argparse.Namespace, command: str) -> None:
    recs = load_pairs(Path(args.runs), args.players)
    fit = fit_round_robin({(r["a"], r["b"]): (r["wins_a"], r["wins_b"]) for r in recs})
    by = {f.name: f for f in fit}
    day = args.date or dt.date.today().isoformat()
    games = sorted({r["games"] for r in recs})
    rules = sorted({str(r["rules"]) for r in recs})
    commits = sorted({r["commit"] + ("+dirty" if r.get("dirty") else "") for r in recs})
    data = {
        "fitted": day,
        "scale": "Elo (400-point logistic), one result per 100-point game",
        "anchor": ANCHOR, "anchor_rating": ANCHOR_RATING,
        "rules": rules[0] if len(rules) == 1 else rules,
        "games_per_pair": games[0] if len(games) == 1 else games,
        "commit": commits[0] if len(commits) == 1 else commits,
        "results": f"benchmarks/results/ratings-{day}.md",
        "ratings": {f.name: {"rating": round(f.rating, 1), "se": round(f.se, 1),
                             "low": round(f.interval[0], 1), "high": round(f.interval[1], 1)}
                    for f in fit},
    }
    lines = [
        f"# Ratings of the computer players, {day} (issue 22)",
        "",
        "A round robin of every computer player: each pair played "
        f"{', '.join(map(str, games))} full games to 100 under the `{', '.join(rules)}` preset, "
        "seat-swapped pairs of identical deals (`ginrummy.tournament`, seed "
        f"{recs[0]['seed']}). Ratings by maximum likelihood on the Elo scale (a difference of D "
        "points: the stronger wins 1 / (1 + 10^(-D/400)) of its games; `ginrummy.rating."
        f"fit_round_robin`), anchored at `{ANCHOR}` = {ANCHOR_RATING:.0f} (the EAAI "
        "challenge's reference player, a fixed policy); 95% intervals from the Fisher "
        "information, relative to the anchor; one virtual drawn game per pair.",
        "",
        "Commands: " + "; ".join(f"`{c}`" for c in sorted({r["command"] for r in recs}))
        + f" (the games), `{command}` (this fit)  ",
        f"Code (the last commit of the engine and the players): {', '.join(commits)}; "
        f"Python {platform.python_version()}; {_cpu()}, {os.cpu_count()} CPUs.  ",
        "Played: " + ", ".join(sorted({r["started"][:10] for r in recs})) + "; 1-minute load "
        f"average during the pairs {min(r['load_1min_start'] for r in recs):.1f}-"
        f"{max(max(r['load_1min_start'], r['load_1min_end']) for r in recs):.1f} (the machine is "
        "shared; the load changes times, not results).",
        "",
        "| player | rating | 95% interval | standard error |",
        "|---|---:|---|---:|",
    ]
    for f in fit:
        lo, hi = f.interval
        iv = "(anchor)" if f.name == ANCHOR else f"{lo:.0f} to {hi:.0f}"
        lines.append(f"| {f.name} | {f.rating:.0f} | {iv} | {f.se:.1f} |")
    lines += ["", "Each pair: games won by A, observed share and the share the fitted ratings "
              "predict.", "",
              "| A vs B | games | A won | B won | unfinished | A's share | fitted | elapsed s |",
              "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for r in recs:
        n = r["wins_a"] + r["wins_b"]
        pred = elo_expected(by[r["a"]].rating, by[r["b"]].rating)
        lines.append(f"| {r['a']} vs {r['b']} | {r['games']} | {r['wins_a']} | {r['wins_b']} | "
                     f"{r['unfinished']} | {100 * r['wins_a'] / n:.1f}% | {100 * pred:.1f}% | "
                     f"{r['elapsed_s']:.0f} |")
    if not args.no_write:
        md = ROOT / "benchmarks" / "results" / f"ratings-{day}.md"
        md.write_text("\n".join(lines) + "\n")
        js = ROOT / "src" / "ginrummy" / "bots" / "ratings.json"
        js.write_text(json.dumps(data, indent=1) + "\n")
        print(f"wrote {md.relative_to(ROOT)} and {js.relative_to(ROOT)}")
    print("\n".join(lines))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", nargs="+", default=PLAYERS)
    ap.add_argument("--games", type=int, default=400, help="games per pair (even)")
    ap.add_argument("--rules", default="standard")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--runs", required=True, help="directory of the pairs' results")
    ap.add_argument("--fit-only", action="store_true")
    ap.add_argument("--no-write", action="store_true", help="print only")
    ap.add_argument("--date", help="the date in the file names (default today)")
    args = ap.parse_args(argv)
    if ANCHOR not in args.players:
        raise SystemExit(f"the anchor {ANCHOR} must play")
    t0 = time.time()
    command = "python benchmarks/ratings.py " + " ".join(sys.argv[1:])
    if not args.fit_only:
        play(args, command)
    fit_and_write(args, command)
    print(f"{time.time() - t0:.0f} s")


if __name__ == "__main__":
    main()
