"""Engine benchmark: ginrummy side by side with OpenSpiel (C++ through pyspiel) and RLCard,
in one process, on the same hands.

    .venv/bin/python benchmarks/engine.py            # full run, writes benchmarks/results/
    .venv/bin/python benchmarks/engine.py --quick    # smaller, for a smoke test
    .venv/bin/python benchmarks/engine.py --no-write

Workloads (rates are per second of process CPU time, so that other load on the machine does not
count; best of ``--repeat`` timed passes, interleaved between the libraries; our solver caches are
cleared before every pass, so every hand is solved cold):

* 10-card minimum deadwood (R-1.5): random hands, and meld-dense hands (10 cards from a 20-card
  window of 5 consecutive ranks x 4 suits).
  ours ``melds.min_deadwood_mask`` | OpenSpiel ``GinRummyUtils.min_deadwood`` | RLCard
  ``melding.get_best_meld_clusters`` + ``utils.get_deadwood_count``.
* exact 11-card evaluation (R-1.6): ours ``melds.best_discard_deadwood``; OpenSpiel's own
  11-card ``min_deadwood`` takes the shortcut that R-1.6 forbids (not exact), and its exact
  per-discard path is ``legal_discards(hand, 10)`` (one 10-card solve per discard); both are
  listed. Also ours ``evaluate_discards`` (the best arrangement for every discard).
* full random-play hands per second: ours through ``HandState`` (legal_actions + apply of a
  random legal action); OpenSpiel through ``pyspiel.load_game("gin_rummy")`` with random legal
  actions and chance outcomes taken from the same deck order; RLCard through its
  ``gin-rummy`` env with two ``RandomAgent``s (its own shuffles; its API builds observations).

Each library gets the hands in its own native form, converted before timing. The ratio column
is ours / theirs: above 1 means ours is faster.
"""

from __future__ import annotations

import argparse
import datetime as dt
import gc
import os
import platform
import random
import shlex
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from ginrummy import melds  # noqa: E402
from ginrummy.cards import CardSet, card_text  # noqa: E402
from ginrummy.hand import HandState  # noqa: E402
from ginrummy.rules import Rules  # noqa: E402

try:
    import pyspiel
except ImportError:  # pragma: no cover
    pyspiel = None

try:
    import rlcard
    from rlcard.agents import RandomAgent
    from rlcard.games.gin_rummy.utils import melding as rl_melding
    from rlcard.games.gin_rummy.utils import utils as rl_utils
except ImportError:  # pragma: no cover
    rlcard = None


# ------------------------------------------------------------------------------ hands

def dense_window(rng: random.Random) -> list[int]:
    lo = rng.randrange(9)
    return [s * 13 + r for s in range(4) for r in range(lo, lo + 5)]


def make_hands(seed: int, n: int, size: int, dense: bool) -> list[list[int]]:
    rng = random.Random(seed)
    if dense:
        return [rng.sample(dense_window(rng), size) for _ in range(n)]
    return [rng.sample(range(52), size) for _ in range(n)]


def to_mask(hand: Sequence[int]) -> int:
    m = 0
    for c in hand:
        m |= 1 << c
    return m


# ------------------------------------------------------------------------------ timing

def clear_caches() -> None:
    for name in ("_CACHE", "_CACHE11"):
        cache = getattr(melds, name, None)
        if isinstance(cache, dict):
            cache.clear()
    clear = getattr(melds, "_clear_caches", None)
    if clear is not None:
        clear()


#: ``--no-gc``: the cyclic garbage collector is off during the timed passes (as in ``timeit``),
#: for both libraries; by default it runs as in a program that keeps the results.
GC_OFF = False


def best_rate(run: Callable[[], Any], count: int, repeat: int, ours: bool) -> float:
    """Items per second of the fastest of ``repeat`` passes."""
    best = float("inf")
    for _ in range(repeat):
        if ours:
            clear_caches()
        gc.collect()
        if GC_OFF:
            gc.disable()
        try:
            t0 = time.process_time()
            run()
            best = min(best, time.process_time() - t0)
        finally:
            gc.enable()
    return count / best


def compare(runs: dict[str, tuple[Callable[[], Any], int, bool]], repeat: int
            ) -> dict[str, float]:
    """Interleave the libraries: one pass of each, ``repeat`` times; keep each one's best."""
    best: dict[str, float] = {k: 0.0 for k in runs}
    for _ in range(repeat):
        for name, (run, count, ours) in runs.items():
            best[name] = max(best[name], best_rate(run, count, 1, ours))
    return best


# ---------------------------------------------------------------------- deadwood workloads

def openspiel_utils() -> Any:
    return pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)


def openspiel_card_map(utils: Any) -> list[int]:
    return [utils.card_int(card_text(c)[0] + card_text(c)[1].lower()) for c in range(52)]


def rl_min_deadwood(hand: list[Any]) -> int:
    clusters = rl_melding.get_best_meld_clusters(hand=hand)
    if not clusters:
        return sum(rl_utils.get_deadwood_value(c) for c in hand)
    return rl_utils.get_deadwood_count(hand=hand, meld_cluster=clusters[0])


def bench_10(hands: list[list[int]], repeat: int, rl_count: int) -> tuple[dict[str, float],
                                                                            int]:
    masks = [to_mask(h) for h in hands]
    runs: dict[str, tuple[Callable[[], Any], int, bool]] = {}
    mdm = melds.min_deadwood_mask
    runs["ours"] = (lambda: [mdm(m) for m in masks], len(masks), True)
    mismatches = 0
    if pyspiel is not None:
        u = openspiel_utils()
        cmap = openspiel_card_map(u)
        theirs = [[cmap[c] for c in h] for h in hands]
        f = u.min_deadwood
        runs["openspiel"] = (lambda: [f(h) for h in theirs], len(theirs), False)
        clear_caches()
        mismatches += sum(mdm(m) != f(h) for m, h in zip(masks, theirs, strict=True))
    if rlcard is not None:
        rl_hands = [[rl_utils.get_card(c) for c in h] for h in hands[:rl_count]]
        runs["rlcard"] = (lambda: [rl_min_deadwood(h) for h in rl_hands], len(rl_hands), False)
        mismatches += sum(mdm(m) != rl_min_deadwood(h)
                          for m, h in zip(masks, rl_hands, strict=False))
    return compare(runs, repeat), mismatches


def bench_11(hands: list[list[int]], repeat: int, exact_count: int
             ) -> tuple[dict[str, float], int, int]:
    masks = [to_mask(h) for h in hands]
    bdd = melds.best_discard_deadwood
    runs: dict[str, tuple[Callable[[], Any], int, bool]] = {
        "ours": (lambda: [bdd(m) for m in masks], len(masks), True),
    }
    shortcut_worse = exact_gap = 0
    if pyspiel is not None:
        u = openspiel_utils()
        cmap = openspiel_card_map(u)
        theirs = [[cmap[c] for c in h] for h in hands]
        f = u.min_deadwood
        ld = u.legal_discards
        exact = theirs[:exact_count]
        runs["openspiel_shortcut"] = (lambda: [f(h) for h in theirs], len(theirs), False)
        runs["openspiel_exact"] = (lambda: [ld(h, 10) for h in exact], len(exact), False)
        clear_caches()
        shortcut_worse = sum(bdd(m) < f(h) for m, h in zip(masks, theirs, strict=True))
        # the exact path agrees: knock-legal discards (deadwood <= 10) are the same cards
        for m, h in zip(masks, exact, strict=False):
            ours = {cmap[c] for c in CardSet(m)
                    if melds.min_deadwood_mask(m & ~(1 << c)) <= 10}
            exact_gap += ours != set(ld(h, 10))
    return compare(runs, repeat), shortcut_worse, exact_gap


# ------------------------------------------------------- arrangements, discards, layoffs

def os_deadwood(utils: Any, hand: Sequence[int], meld_group: Sequence[Sequence[int]]) -> int:
    """Deadwood points of ``hand`` (OpenSpiel card ints) outside the melds of ``meld_group``."""
    used = {c for m in meld_group for c in m}
    return sum(utils.card_value(c) for c in hand if c not in used)


def bench_arrangement(hands: list[list[int]], repeat: int) -> tuple[dict[str, float], int]:
    """10 cards: ours ``best_arrangement`` (melds as CardSet objects) | OpenSpiel
    ``best_meld_group`` (melds as lists of card ints)."""
    sets = [CardSet(to_mask(h)) for h in hands]
    ba = melds.best_arrangement
    runs: dict[str, tuple[Callable[[], Any], int, bool]] = {
        "ours": (lambda: [ba(s) for s in sets], len(sets), True)}
    mismatches = 0
    if pyspiel is not None:
        u = openspiel_utils()
        cmap = openspiel_card_map(u)
        theirs = [[cmap[c] for c in h] for h in hands]
        bmg = u.best_meld_group
        runs["openspiel"] = (lambda: [bmg(h) for h in theirs], len(theirs), False)
        clear_caches()
        for s, h in zip(sets, theirs, strict=True):
            a = ba(s)
            used = 0
            for m in a.melds:
                assert melds.is_meld(m) and not m.mask & used
                used |= m.mask
            assert used | a.deadwood.mask == s.mask and not used & a.deadwood.mask
            mismatches += (a.deadwood_points != os_deadwood(u, h, bmg(h))
                           or a.deadwood_points != a.deadwood.points())
    return compare(runs, repeat), mismatches


def bench_evaluate(hands: list[list[int]], repeat: int) -> tuple[dict[str, float], int]:
    """11 cards: ours ``evaluate_discards`` (every legal discard with its best arrangement) |
    OpenSpiel ``legal_discards(hand, 10)`` + ``best_meld_group`` of the 10 cards kept after each
    knock-legal discard."""
    sets = [CardSet(to_mask(h)) for h in hands]
    ev = melds.evaluate_discards

    def ev_knock(s: CardSet) -> list[Any]:
        """The same work as OpenSpiel's path: the options, then the arrangement (melds as
        objects) of every knock-legal discard read (options come best first)."""
        opts = ev(s)
        for o in opts:
            if o.deadwood_points > 10:
                break
            o.arrangement  # noqa: B018 -- reading it builds it
        return opts

    runs: dict[str, tuple[Callable[[], Any], int, bool]] = {
        "ours": (lambda: [ev(s) for s in sets], len(sets), True),
        "ours_knock": (lambda: [ev_knock(s) for s in sets], len(sets), True)}
    mismatches = 0
    if pyspiel is not None:
        u = openspiel_utils()
        cmap = openspiel_card_map(u)
        back = {cmap[c]: c for c in range(52)}
        theirs = [[cmap[c] for c in h] for h in hands]
        ld = u.legal_discards
        bmg = u.best_meld_group

        def os_evaluate(h: list[int]) -> list[tuple[int, list[list[int]]]]:
            return [(d, bmg([x for x in h if x != d])) for d in ld(h, 10)]

        runs["openspiel"] = (lambda: [os_evaluate(h) for h in theirs], len(theirs), False)
        clear_caches()
        for s, h in zip(sets, theirs, strict=True):
            opts = ev_knock(s)
            ours = {o.discard: o.deadwood_points for o in opts}
            assert set(ours) == set(s.texts())
            for o in opts:  # every arrangement: disjoint valid melds of the 10 kept cards
                kept, a, used = s.mask & ~CardSet.parse(o.discard).mask, o.arrangement, 0
                for m in a.melds:
                    assert melds.is_meld(m) and not m.mask & used
                    used |= m.mask
                assert used | a.deadwood.mask == kept and not used & a.deadwood.mask
                mismatches += a.deadwood_points != a.deadwood.points()
            os_dw = {card_text(back[d]): os_deadwood(u, [x for x in h if x != d], g)
                     for d, g in os_evaluate(h)}
            knock = {k: v for k, v in ours.items() if v <= 10}
            mismatches += knock != os_dw
    return compare(runs, repeat), mismatches


def make_showdowns(seed: int, n: int, dense: bool) -> list[tuple[list[int], list[int]]]:
    """(knocker's 10 cards with deadwood <= 10, defender's 10 other cards). ``dense``: the
    defender's cards come from the ranks around the knocker's (many layoffs and chains)."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        knocker = rng.sample(dense_window(rng), 10)
        km = to_mask(knocker)
        if melds.min_deadwood_mask(km) > 10:
            continue
        rest = [c for c in range(52) if not km >> c & 1]
        if dense:
            lo = min(c % 13 for c in knocker)
            near = [c for c in rest if lo - 2 <= c % 13 <= lo + 6]
            if len(near) < 10:
                continue
            defender = rng.sample(near, 10)
        else:
            defender = rng.sample(rest, 10)
        out.append((knocker, defender))
    return out


def os_best_layoff(utils: Any, defender: list[int], meld_ids: list[int]
                   ) -> tuple[int, int, list[list[int]]]:
    """OpenSpiel's layoff path: every set of cards the defender can lay off (``all_layoffs``,
    chains included: each card laid off opens the next), each priced with ``min_deadwood``; the
    best one (least deadwood, then fewest cards laid off)'s ``best_meld_group``. Returns
    (deadwood points, cards laid off, meld group)."""
    al = utils.all_layoffs
    mdw = utils.min_deadwood
    held = set(defender)
    best_v, best_laid = mdw(defender), frozenset()
    seen = {best_laid}
    stack = [best_laid]
    while stack:
        laid = stack.pop()
        for c in al(meld_ids, list(laid)):
            if c in held and c not in laid:
                nxt = laid | {c}
                if nxt in seen:
                    continue
                seen.add(nxt)
                stack.append(nxt)
                v = mdw([x for x in defender if x not in nxt])
                if v < best_v or (v == best_v and len(nxt) < len(best_laid)):
                    best_v, best_laid = v, nxt
    group = utils.best_meld_group([x for x in defender if x not in best_laid])
    return best_v, len(best_laid), group


def bench_layoff(showdowns: list[tuple[list[int], list[int]]], repeat: int
                 ) -> tuple[dict[str, float], int]:
    """The defender's optimal layoffs (R-6.4): ours ``best_layoff`` | OpenSpiel's layoff path
    (:func:`os_best_layoff`), on the same showdowns (the knocker shows its best arrangement)."""
    ours_in = [(CardSet(to_mask(d)), melds.best_arrangement(CardSet(to_mask(k))).melds)
               for k, d in showdowns]
    bl = melds.best_layoff
    runs: dict[str, tuple[Callable[[], Any], int, bool]] = {
        "ours": (lambda: [bl(d, ms) for d, ms in ours_in], len(ours_in), True)}
    mismatches = 0
    if pyspiel is not None:
        u = openspiel_utils()
        cmap = openspiel_card_map(u)
        theirs = [([cmap[c] for c in d], [u.meld_to_int(sorted(cmap[c] for c in m))
                                          for m in ms])
                  for (_, d), (_, ms) in zip(showdowns, ours_in, strict=True)]
        runs["openspiel"] = (lambda: [os_best_layoff(u, d, ids) for d, ids in theirs],
                             len(theirs), False)
        clear_caches()
        for (d, ms), (od, ids) in zip(ours_in, theirs, strict=True):
            r = bl(d, ms)
            v, n, _ = os_best_layoff(u, od, ids)
            mismatches += ((r.deadwood_points, len(r.layoffs)) != (v, n)
                           or r.deadwood_points != r.deadwood.points())
    return compare(runs, repeat), mismatches


# ---------------------------------------------------------------------------- full hands

def ours_hands(decks: list[list[int]], seed: int) -> Callable[[], None]:
    rules = Rules.preset("standard")

    def run() -> None:
        rng = random.Random(seed)
        choice = rng.choice
        for i, deck in enumerate(decks):
            h = HandState(rules, i & 1, deck)
            while not h.is_over:
                h.apply(choice(h.legal_actions()))
    return run


def openspiel_hands(decks: list[list[int]], seed: int) -> Callable[[], None]:
    game = pyspiel.load_game("gin_rummy")
    u = openspiel_utils()
    cmap = openspiel_card_map(u)
    their_decks = [[cmap[c] for c in d] for d in decks]

    def run() -> None:
        rng = random.Random(seed)
        choice = rng.choice
        for deck in their_decks:
            s = game.new_initial_state()
            k = 0
            while not s.is_terminal():
                if s.is_chance_node():
                    # deal / stock draw: the next card of our deck order
                    s.apply_action(deck[k])
                    k += 1
                else:
                    s.apply_action(choice(s.legal_actions()))
    return run


def rlcard_hands(n: int, seed: int) -> Callable[[], None]:
    env = rlcard.make("gin-rummy", config={"seed": seed})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(2)])

    def run() -> None:
        for _ in range(n):
            env.run(is_training=False)
    return run


def bench_full(n: int, n_rl: int, seed: int, repeat: int) -> dict[str, float]:
    rng = random.Random(seed)
    decks = []
    for _ in range(n):
        d = list(range(52))
        rng.shuffle(d)
        decks.append(d)
    runs: dict[str, tuple[Callable[[], Any], int, bool]] = {
        "ours": (ours_hands(decks, seed), n, False)}
    if pyspiel is not None:
        runs["openspiel"] = (openspiel_hands(decks, seed), n, False)
    if rlcard is not None:
        runs["rlcard"] = (rlcard_hands(n_rl, seed), n_rl, False)
    return compare(runs, repeat)


# ---------------------------------------------------------------------------------- report

def fmt_rate(x: float | None) -> str:
    if x is None:
        return "n/a"
    return f"{x:,.0f}" if x >= 100 else f"{x:,.1f}"


def ratio(a: float | None, b: float | None) -> str:
    if not a or not b:
        return "n/a"
    return f"{a / b:.2f}x"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="small counts (smoke test)")
    ap.add_argument("--repeat", type=int, default=5, help="timed passes per workload")
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--no-write", action="store_true", help="do not write the results file")
    ap.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results")
    ap.add_argument("--only", default="", metavar="WORDS",
                    help="comma-separated words: run only the workloads whose label has one "
                         "(e.g. best_arrangement,layoff); implies --no-write")
    ap.add_argument("--no-gc", action="store_true",
                    help="cyclic garbage collector off during the timed passes (both sides)")
    args = ap.parse_args(argv)
    global GC_OFF
    GC_OFF = args.no_gc
    q = args.quick
    n10, n11, n_exact = (2_000, 1_000, 300) if q else (20_000, 10_000, 3_000)
    n_arr, n_ev, n_lay = (2_000, 1_000, 300) if q else (20_000, 10_000, 3_000)
    n_rl10 = 200 if q else 2_000
    n_full, n_full_rl = (40, 20) if q else (400, 100)
    repeat = 2 if q else args.repeat

    rows: list[tuple[str, str, float | None, float | None, str, str]] = []
    notes: list[str] = []
    only = [w.strip() for w in args.only.split(",") if w.strip()]
    if only:
        args.no_write = True

    def want(label: str) -> bool:
        return not only or any(w in label for w in only)

    for label, dense in (("10-card min deadwood, random hands", False),
                         ("10-card min deadwood, dense hands", True)):
        if not want(label):
            continue
        hands = make_hands(args.seed + dense, n10, 10, dense)
        r, bad = bench_10(hands, repeat, n_rl10)
        rows.append((label, "OpenSpiel C++", r["ours"], r.get("openspiel"),
                     ratio(r["ours"], r.get("openspiel")), f"{n10:,} hands"))
        rows.append((label, "RLCard", r["ours"], r.get("rlcard"),
                     ratio(r["ours"], r.get("rlcard")), f"{n_rl10:,} hands (RLCard)"))
        notes.append(f"{label}: values differing from the references: {bad}")

    for label, dense in (("exact 11-card evaluation, random hands", False),
                         ("exact 11-card evaluation, dense hands", True)):
        if not want(label):
            continue
        hands = make_hands(args.seed + 10 + dense, n11, 11, dense)
        r, worse, gap = bench_11(hands, repeat, n_exact)
        rows.append((label, "OpenSpiel 11-card min_deadwood (shortcut, NOT exact)", r["ours"],
                     r.get("openspiel_shortcut"), ratio(r["ours"], r.get("openspiel_shortcut")),
                     f"{n11:,} hands"))
        rows.append((label, "OpenSpiel legal_discards(hand, 10) (exact, per discard)",
                     r["ours"], r.get("openspiel_exact"),
                     ratio(r["ours"], r.get("openspiel_exact")), f"{n_exact:,} hands"))
        notes.append(f"{label}: hands where OpenSpiel's shortcut is above the exact value: "
                     f"{worse} of {n11:,}; knock-legal discard sets differing from OpenSpiel's "
                     f"exact legal_discards: {gap} of {n_exact:,}")

    for label, dense in (("best_arrangement (melds as objects), random 10-card hands", False),
                         ("best_arrangement (melds as objects), dense 10-card hands", True)):
        if not want(label):
            continue
        hands = make_hands(args.seed + dense, n_arr, 10, dense)
        r, bad = bench_arrangement(hands, repeat)
        rows.append((label, "OpenSpiel best_meld_group", r["ours"], r.get("openspiel"),
                     ratio(r["ours"], r.get("openspiel")), f"{n_arr:,} hands"))
        notes.append(f"{label}: deadwood differing from OpenSpiel's best_meld_group: {bad} "
                     f"of {n_arr:,} (every arrangement also checked: disjoint valid melds "
                     "covering the hand with the deadwood)")
    for label, dense in (("evaluate_discards, random 11-card hands", False),
                         ("evaluate_discards, dense 11-card hands", True)):
        if not want(label):
            continue
        hands = make_hands(args.seed + 10 + dense, n_ev, 11, dense)
        r, bad = bench_evaluate(hands, repeat)
        rows.append((label, "OpenSpiel legal_discards(hand, 10) + best_meld_group per "
                     "knock-legal discard", r["ours"], r.get("openspiel"),
                     ratio(r["ours"], r.get("openspiel")), f"{n_ev:,} hands"))
        rows.append((label + ", knock-legal arrangements read",
                     "the same OpenSpiel path (same work)", r["ours_knock"],
                     r.get("openspiel"), ratio(r["ours_knock"], r.get("openspiel")),
                     f"{n_ev:,} hands"))
        notes.append(f"{label}: hands whose knock-legal discards or their deadwood differ from "
                     f"OpenSpiel's: {bad} of {n_ev:,}")
    for label, dense in (("best_layoff (the defender's optimal layoffs), random defenders",
                          False),
                         ("best_layoff (the defender's optimal layoffs), near defenders", True)):
        if not want(label):
            continue
        showdowns = make_showdowns(args.seed + 30 + dense, n_lay, dense)
        r, bad = bench_layoff(showdowns, repeat)
        rows.append((label, "OpenSpiel all_layoffs search + min_deadwood + best_meld_group",
                     r["ours"], r.get("openspiel"), ratio(r["ours"], r.get("openspiel")),
                     f"{n_lay:,} showdowns"))
        notes.append(f"{label}: (deadwood, cards laid off) differing from OpenSpiel's layoff "
                     f"path: {bad} of {n_lay:,}")

    label = "full random-play hands per second"
    if want(label):
        r = bench_full(n_full, n_full_rl, args.seed + 20, repeat)
        rows.append((label, "OpenSpiel (pyspiel Python API)", r["ours"], r.get("openspiel"),
                     ratio(r["ours"], r.get("openspiel")), f"{n_full} hands"))
        rows.append((label, "RLCard env + RandomAgent", r["ours"], r.get("rlcard"),
                     ratio(r["ours"], r.get("rlcard")), f"{n_full_rl} hands (RLCard)"))

    notes.append("evaluate_discards returns, for every legal discard (11), an option (card, "
                 "deadwood, best arrangement), best first; each option builds its Arrangement "
                 "(melds and deadwood as CardSets) when it is first read, so the plain row "
                 "builds no melds. OpenSpiel's path returns the meld groups of the knock-legal "
                 "discards only; the 'knock-legal arrangements read' row does that same work "
                 "(the options, then the arrangement of every knock-legal discard). RLCard has no "
                 "11-card evaluation. Knockers in the layoff rows hold 10 cards of a 5-rank "
                 "window with deadwood <= 10 and show their best arrangement; 'near' defenders "
                 "hold 10 cards of the ranks around them.")
    today = dt.date.today().isoformat()
    command = " ".join([".venv/bin/python", "benchmarks/engine.py",
                        *[shlex.quote(a) for a in (argv if argv is not None else sys.argv[1:])]])
    versions = [f"Python {platform.python_version()} ({platform.python_implementation()})",
                f"{platform.system()} {platform.machine()}, {os.cpu_count()} CPUs"]
    if pyspiel is not None:
        try:
            from importlib.metadata import version
            versions.append(f"open-spiel {version('open_spiel')}")
        except Exception:  # pragma: no cover
            versions.append("open-spiel (version unknown)")
    if rlcard is not None:
        versions.append(f"rlcard {getattr(rlcard, '__version__', '?')}")

    head = ("| workload | reference | ours /s | theirs /s | ours/theirs | sample |\n"
            "|---|---|---:|---:|---:|---|")
    body = "\n".join(f"| {w} | {ref} | {fmt_rate(a)} | {fmt_rate(b)} | {x} | {n} |"
                     for w, ref, a, b, x, n in rows)
    text = (f"# Engine benchmark, {today}\n\n"
            f"Command: `{command}` (from the repository root)\n\n"
            f"Environment: {'; '.join(versions)}. Rates per second of process CPU time, best of "
            f"{repeat} interleaved passes; our caches cleared before each pass; each pass keeps "
            f"its results in a list; the garbage collector "
            f"{'off (--no-gc)' if GC_OFF else 'on'} while timing.\n\n"
            f"{head}\n{body}\n\n"
            "ours/theirs > 1 means ours is faster.\n\n"
            + "\n".join(f"- {n}" for n in notes) + "\n")
    print(text)
    if not args.no_write:
        args.out.mkdir(parents=True, exist_ok=True)
        path = args.out / f"engine-{today}.md"
        path.write_text(text, encoding="utf-8")
        print(f"written to {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
