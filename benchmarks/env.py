"""RL environment benchmark: ``ginrummy.env.GinRummyEnv`` side by side with OpenSpiel's
``gin_rummy`` and RLCard's ``gin-rummy`` environment, in one process, random legal play.

    .venv/bin/python benchmarks/env.py            # writes benchmarks/results/env-DATE.md
    .venv/bin/python benchmarks/env.py --quick --no-write
    .venv/bin/python benchmarks/env.py --baseline main   # and the env of main, side by side

One episode = one deal played to its end by two uniformly random legal players, with what a
learning agent needs at every decision built each step:

* ours: PettingZoo's loop, ``env.last()`` (the 376-value observation and the action mask) and
  ``env.step(index)``;
* OpenSpiel (C++ through pyspiel): ``state.observation_tensor(player)`` and
  ``state.legal_actions_mask(player)`` at every decision, ``apply_action``; chance outcomes (the
  deal and stock draws) from the same deck orders as ours;
* RLCard: ``env.run`` with two ``RandomAgent``s (its loop builds its observation dict per step).

``--baseline REV`` also runs the environment as it was at git revision ``REV`` (its
``src/ginrummy/env.py``, loaded beside today's engine in the same process) on the same deals and
moves, interleaved with the others: a before/after comparison of the environment's own code. The
two must play the same episodes (the same decisions and observations, checked first).

Rates are episodes per second of process CPU time, best of ``--repeat`` interleaved passes
(see benchmarks/engine.py). ours/theirs > 1 means ours is faster.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import importlib.util
import os
import platform
import random
import shlex
import subprocess
import sys
import tempfile
from collections.abc import Callable
from importlib.metadata import version
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from engine import compare, fmt_rate, openspiel_card_map, openspiel_utils, ratio  # noqa: E402

from ginrummy.env import GinRummyEnv  # noqa: E402

try:
    import pyspiel
except ImportError:  # pragma: no cover
    pyspiel = None

try:
    import rlcard
    from rlcard.agents import RandomAgent
except ImportError:  # pragma: no cover
    rlcard = None


def decks_for(n: int, seed: int) -> list[list[int]]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        d = list(range(52))
        rng.shuffle(d)
        out.append(d)
    return out


def env_at(rev: str) -> type[Any]:
    """``GinRummyEnv`` as ``src/ginrummy/env.py`` was at git revision ``rev``, loaded as the
    module ``ginrummy._env_at_rev`` (its relative imports reach today's engine)."""
    text = subprocess.run(["git", "show", f"{rev}:src/ginrummy/env.py"], cwd=ROOT, check=True,
                          capture_output=True, text=True).stdout
    path = Path(tempfile.mkdtemp()) / "env_at_rev.py"
    path.write_text(text, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("ginrummy._env_at_rev", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module.GinRummyEnv  # type: ignore[no-any-return]


def same_episodes(a: type[Any], b: type[Any], n: int, seed: int) -> int:
    """Play ``n`` seeded deals on both environments with the same random legal moves; every
    agent, observation, mask and reward must be equal. Returns the decisions compared.

    :raises AssertionError: the first difference."""
    ea, eb = a(rules="standard"), b(rules="standard")
    compared = 0
    for i in range(n):
        ea.reset(seed=seed + i)
        eb.reset(seed=seed + i)
        rng = random.Random(seed + i)
        for agent in ea.agent_iter():
            assert agent == eb.agent_selection, (i, compared)
            oa, ra, ta, ua, _ = ea.last()
            ob, rb, tb, ub, _ = eb.last()
            assert (ra, ta, ua) == (rb, tb, ub), (i, compared)
            assert np.array_equal(oa["observation"], ob["observation"]), (i, compared)
            assert np.array_equal(oa["action_mask"], ob["action_mask"]), (i, compared)
            compared += 1
            if ta or ua:
                ea.step(None)
                eb.step(None)
                continue
            legal = np.flatnonzero(oa["action_mask"])
            x = int(legal[rng.randrange(len(legal))])
            ea.step(x)
            eb.step(x)
    return compared


def ours(n: int, seed: int, steps: list[int], cls: type[Any] = GinRummyEnv
         ) -> Callable[[], None]:
    env = cls(rules="standard")

    def run() -> None:
        rng = random.Random(seed)
        total = 0
        for i in range(n):
            env.reset(seed=seed + i)
            for _agent in env.agent_iter():
                obs, _r, term, trunc, _info = env.last()
                if term or trunc:
                    env.step(None)
                    continue
                legal = np.flatnonzero(obs["action_mask"])
                env.step(int(legal[rng.randrange(len(legal))]))
                total += 1
        steps.append(total)
    return run


def openspiel(decks: list[list[int]], seed: int, steps: list[int]) -> Callable[[], None]:
    game = pyspiel.load_game("gin_rummy")
    cmap = openspiel_card_map(openspiel_utils())
    their = [[cmap[c] for c in d] for d in decks]

    def run() -> None:
        rng = random.Random(seed)
        total = 0
        for deck in their:
            s = game.new_initial_state()
            k = 0
            while not s.is_terminal():
                if s.is_chance_node():
                    s.apply_action(deck[k])
                    k += 1
                    continue
                p = s.current_player()
                s.observation_tensor(p)
                s.legal_actions_mask(p)
                legal = s.legal_actions()
                s.apply_action(legal[rng.randrange(len(legal))])
                total += 1
        steps.append(total)
    return run


def rlcard_run(n: int, seed: int, steps: list[int]) -> Callable[[], None]:
    env = rlcard.make("gin-rummy", config={"seed": seed})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(2)])

    def run() -> None:
        total = 0
        for _ in range(n):
            trajectories, _payoffs = env.run(is_training=False)
            total += sum((len(t) - 1) // 2 for t in trajectories)
        steps.append(total)
    return run


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="small counts (smoke test)")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--no-write", action="store_true")
    ap.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results")
    ap.add_argument("--baseline", metavar="REV",
                    help="also run src/ginrummy/env.py as it was at this git revision")
    args = ap.parse_args(argv)
    n, n_rl = (30, 10) if args.quick else (300, 100)
    repeat = 2 if args.quick else args.repeat
    decks = decks_for(n, args.seed)
    counts: dict[str, list[int]] = {"ours": [], "openspiel": [], "rlcard": [], "baseline": []}
    runs: dict[str, tuple[Callable[[], Any], int, bool]] = {
        "ours": (ours(n, args.seed, counts["ours"]), n, False)}
    checked = 0
    if args.baseline:
        before = env_at(args.baseline)
        checked = same_episodes(GinRummyEnv, before, n // 3, args.seed)
        runs["baseline"] = (ours(n, args.seed, counts["baseline"], before), n, False)
    if pyspiel is not None:
        runs["openspiel"] = (openspiel(decks, args.seed, counts["openspiel"]), n, False)
    if rlcard is not None:
        runs["rlcard"] = (rlcard_run(n_rl, args.seed, counts["rlcard"]), n_rl, False)
    r = compare(runs, repeat)

    def per_step(name: str, episodes: int) -> str:
        c = counts[name]
        return f"{c[-1] / episodes:.0f}" if c else "n/a"

    rows = [("OpenSpiel gin_rummy (pyspiel), observation tensor + mask per decision",
             r.get("openspiel"), ratio(r["ours"], r.get("openspiel")), per_step("openspiel", n),
             f"{n} deals"),
            ("RLCard gin-rummy env + RandomAgent", r.get("rlcard"),
             ratio(r["ours"], r.get("rlcard")), per_step("rlcard", n_rl), f"{n_rl} deals")]
    if args.baseline:
        assert counts["baseline"] == counts["ours"], "the two environments played differently"
        rows.insert(0, (f"ginrummy.env at `{args.baseline}` (before), same deals and moves",
                        r["baseline"], ratio(r["ours"], r["baseline"]), per_step("baseline", n),
                        f"{n} deals"))
    versions = [f"Python {platform.python_version()}",
                f"{platform.system()} {platform.machine()}, {os.cpu_count()} CPUs",
                f"pettingzoo {version('pettingzoo')}"]
    for dist in ("open_spiel", "rlcard"):
        with contextlib.suppress(Exception):
            versions.append(f"{dist} {version(dist)}")
    today = dt.date.today().isoformat()
    command = " ".join([".venv/bin/python", "benchmarks/env.py",
                        *[shlex.quote(a) for a in (argv if argv is not None else sys.argv[1:])]])
    head = ("| reference | ours episodes/s | theirs episodes/s | ours/theirs | "
            "their decisions per episode | sample |\n|---|---:|---:|---:|---:|---|")
    body = "\n".join(f"| {ref} | {fmt_rate(r['ours'])} | {fmt_rate(b)} | {x} | {d} | {s} |"
                     for ref, b, x, d, s in rows)
    text = (f"# RL environment benchmark, {today}\n\n"
            f"Command: `{command}` (from the repository root)\n\n"
            f"Environment: {'; '.join(versions)}. Episodes (one deal, random legal play) per "
            f"second of process CPU time, best of {repeat} interleaved passes. Ours: "
            f"`ginrummy.env.GinRummyEnv` through PettingZoo's `agent_iter`/`last`/`step`, "
            f"{per_step('ours', n)} decisions per episode."
            + (f" Before the timing, {checked} decisions of {n // 3} deals were played on "
               f"both ours and the environment at `{args.baseline}`: the same agents, "
               "observations, masks and rewards at every one." if args.baseline else "")
            + f"\n\n{head}\n{body}\n")
    print(text)
    if not args.no_write:
        args.out.mkdir(parents=True, exist_ok=True)
        path = args.out / f"env-{today}.md"
        path.write_text(text, encoding="utf-8")
        print(f"written to {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
