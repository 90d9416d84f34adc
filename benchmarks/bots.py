"""Benchmarks of the computer players (not run in CI). Results go to benchmarks/results/bots-*.md.

Usage (from the repository root, with the project's virtual environment)::

    python benchmarks/bots.py tournament --a expert --b simple --games 4000 --rules eaai --jobs 2
    python benchmarks/bots.py long --a expert --b simple --games 4000 --out runs/x.jsonl
    python benchmarks/bots.py decision-time --level expert --deals 200
    python benchmarks/bots.py openspiel --level expert --deals 1000 --jobs 2
    python benchmarks/bots.py deadwood-table --level medium --deals 1500

``tournament`` is ``ginrummy tournament`` without the progress bar (one JSON line at the end).
``decision-time`` times one level's decisions in one process against ``simple``: wall-clock
and CPU time (the CPU time is what a decision costs on an idle core, whatever else the machine
runs). ``openspiel`` plays duplicate deals of OpenSpiel's single-hand ``gin_rummy``
between a level (through an adapter: a shadow HandState gives the level its PlayerView) and
OpenSpiel's ``SimpleGinRummyBot``, and reports the level's mean paired points per hand with a 95%
confidence interval. ``deadwood-table`` measures the opponent deadwood model used by ``hard``.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from ginrummy.actions import DRAW_DISCARD, DRAW_STOCK, PASS, TAKE, Action, ActionKind
from ginrummy.bots import Context, make_bot
from ginrummy.bots.knowledge import read_view
from ginrummy.cards import CardSet
from ginrummy.hand import HandState, Phase
from ginrummy.melds import best_layoff, default_spread, min_deadwood_mask
from ginrummy.rules import Rules
from ginrummy.tournament import format_table, run_tournament
from ginrummy.views import view_of


# --------------------------------------------------------------------------------- tournament
def apply_overrides(sets: list[str]) -> None:
    """``level.attribute=value`` settings of the bot classes (e.g. ``expert.rollouts=1200``,
    ``hard.late_max=3``), for experiments; worker processes inherit them (fork)."""
    from ginrummy.bots.expert import ExpertBot
    from ginrummy.bots.heuristic import EasyBot, HardBot, MediumBot

    classes = {"expert": ExpertBot, "hard": HardBot, "medium": MediumBot, "easy": EasyBot}
    for item in sets:
        key, _, value = item.partition("=")
        level, _, attr = key.partition(".")
        cls = classes[level]
        old = getattr(cls, attr)
        new = json.loads(value.lower() if value in ("True", "False") else value)
        setattr(cls, attr, new if old is None or new is None else type(old)(new))


def cmd_tournament(args: argparse.Namespace) -> None:
    apply_overrides(args.set)
    if "expert" in (args.a, args.b):
        from ginrummy.bots.kernel import warmup

        warmup()
    r = run_tournament(args.a, args.b, args.games, Rules.preset(args.rules), seed=args.seed,
                       jobs=args.jobs)
    print(format_table(r))
    print(json.dumps(r.to_json()))


# ------------------------------------------------------------------ long tournament, resumable
def cmd_long(args: argparse.Namespace) -> None:
    """Play pairs in batches and append each game to a JSON-lines file, so that a long run can be
    stopped, resumed and summarised at any point (``--summarise`` only reads the file)."""
    import dataclasses
    import os

    from ginrummy.tournament import GameSummary, _play_pairs, summarise

    t0 = time.perf_counter()
    rules = Rules.preset(args.rules)
    done: dict[int, list[dict[str, Any]]] = {}
    if os.path.exists(args.out):
        with open(args.out, encoding="utf-8") as f:
            for line in f:
                row = json.loads(line)
                done.setdefault(row["pair"], []).append(row)
    if not args.summarise:
        apply_overrides(args.set)
        if "expert" in (args.a, args.b):
            from ginrummy.bots.kernel import warmup

            warmup()
        todo = [p for p in range(args.games // 2) if len(done.get(p, [])) < 2]
        batches = [todo[i:i + args.batch] for i in range(0, len(todo), args.batch)]
        with ProcessPoolExecutor(args.jobs) as ex, open(args.out, "a", encoding="utf-8") as f:
            if args.see:
                futs = [ex.submit(play_pairs_seeing, args.a, args.b, rules, args.seed, b,
                                  args.see) for b in batches]
            else:
                futs = [ex.submit(_play_pairs, args.a, args.b, rules, args.seed, b)
                        for b in batches]
            for b, fut in zip(batches, futs, strict=True):
                games = fut.result()
                for i, g in enumerate(games):
                    row = dataclasses.asdict(g)
                    row["pair"] = b[i // 2]
                    f.write(json.dumps(row) + "\n")
                    done.setdefault(row["pair"], []).append(row)
                f.flush()
    games = []
    for p in sorted(done):
        rows = done[p]
        if len(rows) < 2:
            continue  # only whole seat-swapped pairs count
        for row in rows[:2]:
            g = GameSummary(row["a_won"], [tuple(x) for x in row["hands"]],
                            row["a_times_ms"], row.get("a_cpu_ms", []))
            if row.get("deals") is not None:  # rows written since the runner took every form
                g.winners = None if row["winners"] is None else tuple(row["winners"])
                g.deals = [(d[0], d[1], d[2], d[3], (d[4][0], d[4][1])) for d in row["deals"]]
                g.totals = tuple(row["totals"])
                g.times_ms, g.cpu_ms = row["times_ms"], row["cpu_ms"]
            games.append(g)
    # elapsed: this invocation only (a resumed run's earlier parts are not counted)
    r = summarise(args.a, args.b, rules, args.seed, games, time.perf_counter() - t0)
    print(format_table(r))
    print(json.dumps(r.to_json()))


# ------------------------------------------------------------------ all-seeing upper bound
def seeing_expert(mode: str) -> Any:
    """An ``expert`` whose search sees the hidden cards (a measuring tool for the ceiling of
    the search, never a level): ``mode`` "hand" gives every world the opponent's true hand (the
    stock a random order of the rest), "all" also the true stock order. The caller sets
    ``bot.truth = (opponent's hand mask, stock top first)`` before each decision."""
    import numpy as np

    from ginrummy.bots.expert import ExpertBot

    if mode not in ("hand", "all"):
        raise ValueError(f"unknown --see mode {mode!r}: hand or all")

    class SeeingExpert(ExpertBot):
        name = "expert"

        def __init__(self) -> None:
            super().__init__()
            self.truth: tuple[int, list[int]] | None = None

        def _worlds(self, view: Any, know: Any, p: Any, nw: int, seed: int,
                    blocks: Any = None) -> tuple[Any, Any]:
            if self.truth is None:
                raise RuntimeError("SeeingExpert needs .truth before each decision")
            opp, stock = self.truth
            if len(stock) != view.stock_count:
                raise RuntimeError("the truth does not match the view")
            hands = np.full(nw, opp, dtype=np.int64)
            if mode == "all":
                stocks = np.tile(np.array(stock, dtype=np.int64), (nw, 1))
            else:
                gen = np.random.default_rng(seed)
                rest = np.array(sorted(stock), dtype=np.int64)
                stocks = gen.permuted(np.tile(rest, (nw, 1)), axis=1)
            return hands, np.ascontiguousarray(stocks)

    return SeeingExpert()


def play_game_seeing(b: str, rules: Rules, seed: int, pair: int, a_seat: int,
                     mode: str) -> Any:
    """:func:`ginrummy.tournament.play_pair_game` with A an all-seeing ``expert``
    (:func:`seeing_expert`), told the truth before each of its decisions: the same decks,
    seats and bot random generators."""
    from ginrummy.tournament import play_pair_game

    seeing = seeing_expert(mode)

    def tell(h: Any) -> None:
        seeing.truth = (h.hands[1 - h.current], h.stock())

    return play_pair_game("expert", b, rules, seed, pair, a_seat, a_bot=seeing, before_a=tell)


def play_pairs_seeing(a: str, b: str, rules: Rules, seed: int, pairs: list[int],
                      mode: str) -> list[Any]:
    if a != "expert":
        raise SystemExit("--see needs --a expert")
    res = []
    for p in pairs:
        res.append(play_game_seeing(b, rules, seed, p, 0, mode))
        res.append(play_game_seeing(b, rules, seed, p, 1, mode))
    return res


def _load_games(path: str) -> dict[tuple[int, int], dict[str, Any]]:
    """Games of a ``long`` run keyed by (pair, game within the pair)."""
    rows: dict[int, list[dict[str, Any]]] = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            row = json.loads(line)
            rows.setdefault(row["pair"], []).append(row)
    return {(p, i): r for p, rs in rows.items() if len(rs) >= 2 for i, r in enumerate(rs[:2])}


def cmd_compare(args: argparse.Namespace) -> None:
    """Paired comparison of two ``long`` runs on the same seed (same decks per game): the mean
    difference in games won (new - base) and in points per hand, with 95% normal intervals."""
    base, new = _load_games(args.base), _load_games(args.new)
    keys = sorted(set(base) & set(new))
    if not keys:
        raise SystemExit("no games in common")
    dw = [float(bool(new[k]["a_won"])) - float(bool(base[k]["a_won"])) for k in keys]

    def pph(r: dict[str, Any]) -> float:
        hs = r["hands"]
        return sum(h[1] for h in hs) / max(1, len(hs))

    dp = [pph(new[k]) - pph(base[k]) for k in keys]
    out = {"games": len(keys)}
    for name, xs in (("win_diff", dw), ("pph_diff", dp)):
        m = statistics.fmean(xs)
        se = statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else float("nan")
        out[name] = round(m, 4)
        out[name + "_ci"] = [round(m - 1.96 * se, 4), round(m + 1.96 * se, 4)]
    out["base_win_rate"] = round(statistics.fmean(float(bool(base[k]["a_won"])) for k in keys), 4)
    out["new_win_rate"] = round(statistics.fmean(float(bool(new[k]["a_won"])) for k in keys), 4)
    print(json.dumps(out))


# ------------------------------------------------------------------ the expert's knock choices
def cmd_knock_log(args: argparse.Namespace) -> None:
    """Play ``expert`` against ``--b`` (tournament decks of ``--seed``) and write one JSON line
    per ``expert`` decision that had a knock among its searched candidates: the deadwood of the
    knock, the opponent's draws and discards so far, the stock count, the game score (own,
    opponent's), ``hard``'s estimated undercut chance, whether the expert knocked, and the
    searched value of the knock minus the best other candidate's (the data of a knock rule for
    ``hard`` learned from the search)."""
    import ginrummy.bots.expert as E
    from ginrummy.bots.heuristic import layoff_exposure, undercut_probability
    from ginrummy.bots.kernel import warmup
    from ginrummy.bots.knowledge import min_spreads, opponent_belief
    from ginrummy.tournament import play_pair_game

    warmup()
    out = open(args.out, "a", encoding="utf-8")  # noqa: SIM115  # closed below

    class Logging(E.ExpertBot):
        def choose(self, view: Any, ctx: Context) -> Action:
            a = super().choose(view, ctx)
            vals = self.last_values
            if vals and any(x.kind is ActionKind.KNOCK for x, _ in vals):
                kv = max(v for x, v in vals if x.kind is ActionKind.KNOCK)
                other = max((v for x, v in vals if x.kind is not ActionKind.KNOCK),
                            default=float("nan"))
                know = read_view(view)
                p = opponent_belief(know)
                k = next(x for x, _ in vals if x.kind is ActionKind.KNOCK)
                kept = view.hand.mask & ~(1 << (k.card or 0))
                dw = min_deadwood_mask(kept)
                exp = min(layoff_exposure(m, p, know.opp_known) for m in min_spreads(kept, dw))
                hp = ctx.hand_points or (0, 0)
                row = {"dw": dw, "opp_draws": know.opp_draws, "opp_discards":
                       len(know.opp_discards), "my_draws": know.my_draws,
                       "stock": view.stock_count, "mine": hp[view.seat],
                       "theirs": hp[1 - view.seat], "exposure": round(exp, 2),
                       "risk": round(undercut_probability(dw, know.opp_draws, exp), 4),
                       "knocked": a.kind is ActionKind.KNOCK, "gain": round(kv - other, 5)}
                out.write(json.dumps(row) + "\n")
            return a

    E.ExpertBot = Logging  # type: ignore[misc]  # make_bot("expert") builds it
    rules = Rules.preset(args.rules)
    for pair in range(args.games // 2):
        for seat in (0, 1):
            play_pair_game("expert", args.b, rules, args.seed, pair, seat)
        out.flush()
    out.close()


def cmd_fit_knock(args: argparse.Namespace) -> None:
    """Fit ``hard``'s learned knock rule (:attr:`~ginrummy.bots.heuristic.HardBot.knock_weights`)
    to a ``knock-log`` file: a logistic regression of "the expert knocked" on
    :func:`~ginrummy.bots.heuristic.knock_features` (Newton steps, a small ridge), fitted on the
    first ``1 - holdout`` of the rows. Prints the weights and the agreement with the expert on
    the held-out rows, for the fitted rule and for ``hard``'s own rule."""
    import numpy as np

    from ginrummy.bots.heuristic import KNOCK_FEATURES, HardBot, knock_features

    with open(args.log, encoding="utf-8") as f:
        rows = [json.loads(line) for line in f]
    x = np.array([knock_features(r["dw"], r["opp_draws"], r["stock"], r["mine"], r["theirs"],
                                 args.target, r["risk"]) for r in rows])
    y = np.array([1.0 if r["knocked"] else 0.0 for r in rows])
    n_fit = int(len(rows) * (1 - args.holdout))
    w = np.zeros(x.shape[1])
    for _ in range(50):
        z = x[:n_fit] @ w
        pr = 1.0 / (1.0 + np.exp(-z))
        g = x[:n_fit].T @ (pr - y[:n_fit]) + args.ridge * w
        hmat = (x[:n_fit] * (pr * (1 - pr))[:, None]).T @ x[:n_fit] + args.ridge * np.eye(len(w))
        w -= np.linalg.solve(hmat, g)
    hard = HardBot()

    def hard_rule(r: dict[str, Any]) -> bool:
        limit = hard.max_undercut
        if r["mine"] + 15 >= args.target:
            limit += 0.12
        if r["theirs"] + 25 + 5 >= args.target:
            limit -= 0.1
        if r["stock"] <= 4:
            limit += 0.2
        if r["risk"] > limit:
            return False
        return not (r["opp_draws"] > hard.early_draws and r["dw"] > hard.late_max
                    and r["stock"] > 4)

    test = range(n_fit, len(rows))
    fitted = sum(((x[i] @ w) > 0) == bool(y[i]) for i in test)
    own = sum(hard_rule(rows[i]) == bool(y[i]) for i in test)
    print(json.dumps({"rows": len(rows), "fit_rows": n_fit, "knock_share": round(y.mean(), 3),
                      "weights": [round(float(v), 3) for v in w],
                      "features": list(KNOCK_FEATURES),
                      "held_out_agreement_fitted": round(fitted / max(1, len(test)), 3),
                      "held_out_agreement_hard": round(own / max(1, len(test)), 3)}))


# ----------------------------------------------------------------------------- decision time
def cmd_decision_time(args: argparse.Namespace) -> None:
    from ginrummy.bots.hints import hint

    apply_overrides(args.set)
    if args.level == "expert" or args.hint:
        from ginrummy.bots.kernel import warmup

        warmup()
    rules = Rules.preset(args.rules)
    rng = random.Random(args.seed)
    bot = make_bot(args.level)
    opp = make_bot("simple")
    times: list[float] = []
    cpu: list[float] = []
    by_phase: dict[str, list[float]] = {}
    for d in range(args.deals):
        deck = list(range(52))
        rng.shuffle(deck)
        h = HandState(rules, d % 2, deck)
        while not h.is_over:
            v = view_of(h, h.current)
            if h.current == 0:
                ctx = Context(random.Random(rng.random()), (rng.randrange(90), rng.randrange(90)),
                              rules.target)
                t0 = time.perf_counter()
                c0 = time.process_time()
                if args.hint:  # the explained hint of GET /hint (the expert's move + numbers)
                    a = hint(v, ctx.hand_points, rules.target).action
                else:
                    a = bot.choose(v, ctx)
                dt = (time.perf_counter() - t0) * 1000
                cpu.append((time.process_time() - c0) * 1000)
                times.append(dt)
                by_phase.setdefault(v.phase.value, []).append(dt)
            else:
                a = opp.choose(v, Context(rng))
            h.apply(a)
    times.sort()

    def pct(xs: list[float], q: float) -> float:
        xs = sorted(xs)
        return xs[min(len(xs) - 1, max(0, math.ceil(q * len(xs)) - 1))]

    out = {"level": "hint" if args.hint else args.level, "decisions": len(times),
           "mean_ms": round(statistics.fmean(times), 2),
           "cpu_mean_ms": round(statistics.fmean(cpu), 2),
           "p50_ms": round(pct(times, 0.5), 2),
           "p90_ms": round(pct(times, 0.9), 2), "p99_ms": round(pct(times, 0.99), 2),
           "max_ms": round(times[-1], 2),
           "cpu_p50_ms": round(pct(cpu, 0.5), 2), "cpu_p90_ms": round(pct(cpu, 0.9), 2),
           "cpu_p99_ms": round(pct(cpu, 0.99), 2), "cpu_max_ms": round(max(cpu), 2),
           "load_avg_1min_at_end": round(__import__("os").getloadavg()[0], 2),
           "by_phase_p99_ms": {k: round(pct(v, 0.99), 2) for k, v in by_phase.items()}}
    print(json.dumps(out))


# ---------------------------------------------------------------------------- deadwood table
def cmd_deadwood_table(args: argparse.Namespace) -> None:
    rules = Rules.preset(args.rules)
    bots = [make_bot(args.level), make_bot(args.level)]
    rng = random.Random(args.seed)
    by: dict[int, list[int]] = {}
    for g in range(args.deals):
        deck = list(range(52))
        rng.shuffle(deck)
        h = HandState(rules, g % 2, deck)
        while not h.is_over:
            v = view_of(h, h.current)
            if v.phase is Phase.DISCARD:
                k = read_view(v)
                by.setdefault(min(k.opp_draws, 16), []).append(
                    min_deadwood_mask(h.hands[1 - h.current]))
            h.apply(bots[h.current].choose(v, Context(rng)))
    for t in sorted(by):
        xs = by[t]
        print(t, len(xs), round(statistics.mean(xs), 1), round(statistics.pstdev(xs), 1))


# --------------------------------------------------------------------------------- openspiel
# OpenSpiel's card ints are suit-major with suits s c d h; ours are s h d c.
_OS_SUIT = (0, 3, 2, 1)


def os_to_ours(c: int) -> int:
    return _OS_SUIT[c // 13] * 13 + c % 13


def ours_to_os(c: int) -> int:
    return _OS_SUIT.index(c // 13) * 13 + c % 13


class Diverged(Exception):
    """The two engines disagree about a move (a known departure of OpenSpiel, RULES.md 12)."""


def _play_openspiel_deal(level: str, os_deck: list[int], our_seat: int,
                         seed: int, layoffs: bool = True) -> tuple[float, str]:
    """One deal of OpenSpiel's gin_rummy: ``level`` in OpenSpiel seat ``our_seat`` against
    SimpleGinRummyBot. ``os_deck``: OpenSpiel card ints in chance order (10 to player 0, 10 to
    player 1, the upcard, then the stock top first). ``layoffs=False``: as defender we lay off
    nothing, as SimpleGinRummyBot does ("Bot never lays off"). Returns (our return, how it
    ended)."""
    import pyspiel

    game = pyspiel.load_game("gin_rummy")
    util = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
    s = game.new_initial_state()
    feed = iter(os_deck)
    while s.is_chance_node():
        s.apply_action(next(feed))
    their = pyspiel.make_simple_gin_rummy_bot(game.get_parameters(), 1 - our_seat)
    # our shadow deal: OpenSpiel's player 0 acts first, so it is the non-dealer; seat = player id
    ours = [os_to_ours(c) for c in os_deck]
    deck = [0] * 52
    for i in range(10):
        deck[2 * i] = ours[i]
        deck[2 * i + 1] = ours[10 + i]
    deck[20:] = ours[20:]
    rules = Rules.preset("eaai", undercut_on_tie=False, dead_hand_rule="fiftieth_card")
    h = HandState(rules, 1, deck)
    bot = make_bot(level)
    rng = random.Random(seed)
    gs = pyspiel.gin_rummy

    def os_apply(a: int) -> None:
        if a not in s.legal_actions():
            raise Diverged(f"OpenSpiel refuses {s.action_to_string(s.current_player(), a)}")
        s.apply_action(a)
        while s.is_chance_node():
            s.apply_action(next(feed))

    while not s.is_terminal():
        p = s.current_player()
        phase = s.current_phase()
        if phase in (gs.Phase.KNOCK, gs.Phase.LAYOFF) or h.is_over:
            # showdown bookkeeping: the knocker lays its melds, the defender lays off and melds
            if p == our_seat:
                _our_showdown(s, util, h, our_seat, os_apply, layoffs)
            else:
                os_apply(their.step(s))
            continue
        if p == our_seat:
            view = view_of(h, our_seat)
            a = bot.choose(view, Context(rng, None, 100))
            _apply_ours_to_os(a, h, s, os_apply)
            h.apply(a)
        else:
            a_os = their.step(s)
            a = _os_to_our_action(a_os, s, h)
            os_apply(a_os)
            if a is None:  # a knock: its discard and melds follow in OpenSpiel's knock phase
                _follow_their_knock(s, util, h, their, os_apply)
            else:
                if not h.is_legal(a):
                    raise Diverged(f"our engine refuses their {a.text}")
                h.apply(a)
    r = s.returns()[our_seat]
    kind = h.outcome.kind if h.outcome is not None else "openspiel-only"
    return r, kind


def _os_to_our_action(a: int, s: Any, h: HandState) -> Action | None:
    import pyspiel

    gs = pyspiel.gin_rummy
    if a == gs.DRAW_UPCARD_ACTION:
        return TAKE if h.phase is Phase.OFFER else DRAW_DISCARD
    if a == gs.DRAW_STOCK_ACTION:
        return DRAW_STOCK
    if a == gs.PASS_ACTION:
        return PASS
    if a == gs.KNOCK_ACTION:
        return None
    if a < 52:
        return Action(ActionKind.DISCARD, os_to_ours(a))
    raise Diverged(f"unexpected action {a}")


def _follow_their_knock(s: Any, util: Any, h: HandState, their: Any, os_apply: Any) -> None:
    """Their knock in OpenSpiel (discard, melds, pass): mirror it as one knock in our engine."""
    import pyspiel

    gs = pyspiel.gin_rummy
    discard = None
    melds: list[CardSet] = []
    while not s.is_terminal() and s.current_phase() == gs.Phase.KNOCK:
        a = their.step(s)
        if a < 52:
            discard = os_to_ours(a)
        elif a >= gs.MELD_ACTION_BASE:
            melds.append(CardSet.of(os_to_ours(c)
                                    for c in util.int_to_meld[a - gs.MELD_ACTION_BASE]))
        os_apply(a)
        if a == gs.PASS_ACTION:
            break
    if discard is None:
        raise Diverged("their knock without a discard")
    kept = CardSet(h.hands[h.current] & ~(1 << discard))
    used = 0
    for m in melds:
        used |= m.mask
    dw = (kept - CardSet(used)).points()
    kind = ActionKind.GIN if dw == 0 else ActionKind.KNOCK
    a = Action(kind, discard, melds=tuple(melds) if kind is ActionKind.KNOCK else None)
    if not h.is_legal(a):
        raise Diverged(f"our engine refuses their {a.text}")
    h.apply(a)


def _apply_ours_to_os(a: Action, h: HandState, s: Any, os_apply: Any) -> None:
    import pyspiel

    gs = pyspiel.gin_rummy
    k = a.kind
    if k in (ActionKind.TAKE, ActionKind.DRAW_DISCARD):
        os_apply(gs.DRAW_UPCARD_ACTION)
    elif k is ActionKind.DRAW_STOCK:
        os_apply(gs.DRAW_STOCK_ACTION)
    elif k is ActionKind.PASS:
        os_apply(gs.PASS_ACTION)
    elif k is ActionKind.DISCARD:
        assert a.card is not None
        os_apply(ours_to_os(a.card))
    elif k in (ActionKind.KNOCK, ActionKind.GIN):
        assert a.card is not None
        if gs.KNOCK_ACTION not in s.legal_actions():
            raise Diverged("OpenSpiel refuses our knock (its 11-card deadwood shortcut)")
        os_apply(gs.KNOCK_ACTION)
        os_apply(ours_to_os(a.card))
        kept = CardSet(h.hands[h.current] & ~(1 << a.card))
        melds = a.melds if a.melds is not None else default_spread(kept).melds
        util = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
        for m in _os_melds(melds):
            os_apply(gs.MELD_ACTION_BASE + util.meld_to_int([ours_to_os(c) for c in m]))
        os_apply(gs.PASS_ACTION)
    else:
        raise Diverged(f"no OpenSpiel move for {a.text}")


def _os_melds(melds: Any) -> list[list[int]]:
    """OpenSpiel's meld actions cover 3 to 5 cards: split longer runs (6 = 3 + 3, 7 = 4 + 3...)."""
    out = []
    for m in melds:
        cards = sorted(m)
        while len(cards) > 5:
            out.append(cards[:3])
            cards = cards[3:]
        out.append(cards)
    return out


def _our_showdown(s: Any, util: Any, h: HandState, seat: int, os_apply: Any,
                  layoffs: bool = True) -> None:
    """As the defender in OpenSpiel's layoff phase: our best layoffs (R-6.4; none when not
    ``layoffs``), then our melds."""
    import pyspiel

    gs = pyspiel.gin_rummy
    legal = s.legal_actions()
    hand = CardSet.of(os_to_ours(c) for c in s.hands()[seat])
    knocker_melds = [CardSet.of(os_to_ours(c) for c in util.int_to_meld[m])
                     for m in s.layed_melds()[1 - seat]]
    if s.current_phase() == gs.Phase.LAYOFF and not s.finished_layoffs():
        plan = best_layoff(hand, knocker_melds) if knocker_melds and layoffs else None
        if plan is not None:
            for lo in plan.layoffs:
                c = ours_to_os(CardSet.parse(lo.card).cards()[0])
                if c in s.legal_actions():
                    os_apply(c)
        os_apply(gs.PASS_ACTION)
        return
    # lay our own melds (the best arrangement of what is left), then pass
    from ginrummy.melds import best_arrangement

    arr = best_arrangement(hand)
    for m in _os_melds(arr.melds):
        a = gs.MELD_ACTION_BASE + util.meld_to_int([ours_to_os(c) for c in m])
        if a in s.legal_actions():
            os_apply(a)
    if gs.PASS_ACTION in s.legal_actions():
        os_apply(gs.PASS_ACTION)
    elif legal:
        os_apply(legal[0])


def _openspiel_pair(level: str, seed: int, i: int,
                    layoffs: bool = True) -> tuple[float | None, float | None, str]:
    rng = random.Random(f"openspiel:{seed}:{i}")
    deck = list(range(52))
    rng.shuffle(deck)
    swapped = deck[10:20] + deck[:10] + deck[20:]
    res: list[float | None] = []
    notes = []
    for seat, d in ((0, deck), (1, swapped)):
        try:
            r, kind = _play_openspiel_deal(level, d, seat, seed * 100003 + i * 2 + seat,
                                           layoffs)
            res.append(r)
            notes.append(kind)
        except Diverged as e:
            res.append(None)
            notes.append(f"diverged: {e}")
    return res[0], res[1], "; ".join(notes)


def cmd_openspiel(args: argparse.Namespace) -> None:
    if args.level == "expert":
        from ginrummy.bots.kernel import warmup

        warmup()
    t0 = time.perf_counter()
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as ex:
            rows = list(ex.map(_openspiel_pair, [args.level] * args.deals,
                               [args.seed] * args.deals, range(args.deals),
                               [not args.no_layoffs] * args.deals, chunksize=8))
    else:
        rows = [_openspiel_pair(args.level, args.seed, i, not args.no_layoffs)
                for i in range(args.deals)]
    paired = [(a + b) / 2 for a, b, _ in rows if a is not None and b is not None]
    diverged = sum(1 for a, b, _ in rows if a is None or b is None)
    n = len(paired)
    mean = statistics.mean(paired) if paired else 0.0
    sd = statistics.stdev(paired) if n > 1 else 0.0
    half = 1.96 * sd / math.sqrt(n) if n else 0.0
    reasons: dict[str, int] = {}
    for _, _, note in rows:
        for part in note.split("; "):
            if part.startswith("diverged"):
                reasons[part] = reasons.get(part, 0) + 1
    out = {"level": args.level, "opponent": "openspiel SimpleGinRummyBot", "deal_pairs": n,
           "our_layoffs": not args.no_layoffs,
           "diverged_pairs": diverged, "mean_paired_points_per_hand": round(mean, 3),
           "ci_low": round(mean - half, 3), "ci_high": round(mean + half, 3),
           "elapsed_s": round(time.perf_counter() - t0, 1),
           "divergences": dict(sorted(reasons.items(), key=lambda kv: -kv[1])[:5])}
    print(json.dumps(out))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    t = sub.add_parser("tournament")
    t.add_argument("--a", default="hard")
    t.add_argument("--b", default="simple")
    t.add_argument("--games", type=int, default=200)
    t.add_argument("--rules", default="eaai")
    t.add_argument("--seed", type=int, default=0)
    t.add_argument("--jobs", type=int, default=2)
    t.add_argument("--set", action="append", default=[], metavar="LEVEL.ATTR=VALUE",
                   help="override a bot class attribute (experiments)")
    t.set_defaults(func=cmd_tournament)
    lg = sub.add_parser("long")
    lg.add_argument("--a", default="expert")
    lg.add_argument("--b", default="simple")
    lg.add_argument("--games", type=int, default=4000)
    lg.add_argument("--rules", default="eaai")
    lg.add_argument("--seed", type=int, default=0)
    lg.add_argument("--jobs", type=int, default=2)
    lg.add_argument("--batch", type=int, default=10, help="pairs per batch")
    lg.add_argument("--out", required=True, help="JSON-lines file of finished games")
    lg.add_argument("--summarise", action="store_true", help="only summarise --out")
    lg.add_argument("--see", choices=("hand", "all"), default=None,
                    help="A (expert) searches seeing the opponent's hand (hand) or every "
                         "hidden card (all): the search's ceiling, a measuring tool")
    lg.add_argument("--set", action="append", default=[], metavar="LEVEL.ATTR=VALUE",
                    help="override a bot class attribute (experiments)")
    lg.set_defaults(func=cmd_long)
    cp = sub.add_parser("compare")
    cp.add_argument("--base", required=True, help="JSON-lines file of a long run")
    cp.add_argument("--new", required=True, help="the same seed with a change")
    cp.set_defaults(func=cmd_compare)
    kl = sub.add_parser("knock-log")
    kl.add_argument("--b", default="simple")
    kl.add_argument("--games", type=int, default=100)
    kl.add_argument("--rules", default="eaai")
    kl.add_argument("--seed", type=int, default=99)
    kl.add_argument("--out", required=True)
    kl.set_defaults(func=cmd_knock_log)
    fk = sub.add_parser("fit-knock")
    fk.add_argument("--log", required=True, help="a knock-log file")
    fk.add_argument("--target", type=int, default=100)
    fk.add_argument("--holdout", type=float, default=0.3)
    fk.add_argument("--ridge", type=float, default=1.0)
    fk.set_defaults(func=cmd_fit_knock)
    d = sub.add_parser("decision-time")
    d.add_argument("--level", default="expert")
    d.add_argument("--deals", type=int, default=200)
    d.add_argument("--rules", default="eaai")
    d.add_argument("--seed", type=int, default=0)
    d.add_argument("--hint", action="store_true", help="time ginrummy.bots.hints.hint instead")
    d.add_argument("--set", action="append", default=[], metavar="LEVEL.ATTR=VALUE",
                   help="override a bot class attribute (experiments)")
    d.set_defaults(func=cmd_decision_time)
    o = sub.add_parser("openspiel")
    o.add_argument("--level", default="expert")
    o.add_argument("--deals", type=int, default=500, help="duplicate deal pairs")
    o.add_argument("--seed", type=int, default=0)
    o.add_argument("--jobs", type=int, default=2)
    o.add_argument("--no-layoffs", action="store_true",
                   help="as defender lay off nothing, as SimpleGinRummyBot does")
    o.set_defaults(func=cmd_openspiel)
    w = sub.add_parser("deadwood-table")
    w.add_argument("--level", default="medium")
    w.add_argument("--deals", type=int, default=1500)
    w.add_argument("--rules", default="eaai")
    w.add_argument("--seed", type=int, default=7)
    w.set_defaults(func=cmd_deadwood_table)
    args = ap.parse_args(argv)
    args.func(args)


if __name__ == "__main__":
    sys.exit(main())
