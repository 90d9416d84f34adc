"""``expert``: determinized Monte Carlo search on top of ``hard``.

For each decision with a real choice, the player samples *worlds* consistent with its view: the
opponent's unknown cards drawn from the per-card belief of ``hard``
(:func:`~ginrummy.bots.knowledge.opponent_belief`, what the opponent took, passed and discarded)
and the stock as a random order of the rest. A random hand looks nothing like a hand that has been
played for a while (its deadwood is far higher), so each sampled opponent hand is then "aged": it
makes as many greedy draw-and-discard steps from the unseen cards as the opponent has drawn
(:func:`~ginrummy.bots.kernel.evolve_hands`); in games against ``simple`` this raised the share
of games won from 68.5% to 76.5% (200 games each, seed 11). Each candidate move (take or leave the
face-up card; the most promising discards; the knock) is then played out to the end of the deal in
the *same* worlds by the compiled rollout kernel (:mod:`ginrummy.bots.kernel`), with a deadwood-
greedy policy for both seats (the opponent's modelled on ``simple``), and valued by the chance of
winning the game from the resulting score (:func:`~ginrummy.bots.value.win_table`); the best mean
wins. The knock shows the spread with the fewest expected layoffs, as ``hard`` does.

The opponent is rolled out as what it may be (``opp_model = "adaptive"``): in a share of the
worlds as a gin camper (like ``marjj``: knocks only in its first three turns), the share being the
posterior chance of a camper given how long it has stayed silent (prior ``camper_prior`` 0.25),
in the rest as a knocker (like ``simple``). Paired runs on the same decks
(benchmarks/results/bots-2026-12-01.md, 200 games each on a loaded machine): against ``marjj``
+13.0 points of games won (CI +5.0..+21.0), against ``simple`` +4.0 (CI -3.1..+11.1) with -1.4
points per hand (CI -3.1..+0.4); with prior 0.5 the ``simple`` side lost 3.1 points per hand.
``consistent = True`` (keep first the sampled hands that make no meld with a card the opponent
passed or discarded) showed no gain (140 paired games against ``marjj`` on 2026-12-02: +0.0
points of games won, CI -10.1..+10.1) and is off; "patient" own rollouts (``my_policy`` knock
threshold 0: our side knocks only with gin in the simulated future) gave +6.4 (CI -4.3..+17.2)
against ``marjj`` and were not measured enough against ``simple`` to be switched on.

Only the view and the context are read; the worlds come from the context's random generator.
"""

from __future__ import annotations

import numpy as np

from ..actions import BIG_GIN, DRAW_DISCARD, DRAW_STOCK, PASS, TAKE, Action, ActionKind
from ..cards import POINTS, CardSet, card_suit
from ..hand import Phase
from ..melds import min_deadwood_mask
from ..views import PlayerView
from . import kernel as K
from .base import Context
from .heuristic import HardBot, _legal_discard_cards, layoff_exposure
from .knowledge import Knowledge, bits, min_spreads, neighbours, opponent_belief, read_view
from .value import win_table

__all__ = ["ExpertBot"]


#: chance that a knocker (``simple``'s policy) has not yet reached a knockable hand after n of its
#: own draws (index n): 3,000 simulated stock-only deals, seed 3 (an upper bound: it also takes
#: face-up cards that meld, which gets it there sooner).
KNOCKER_SILENT = (1.0, 0.997, 0.989, 0.968, 0.936, 0.887, 0.83, 0.762, 0.686, 0.612, 0.532,
                  0.458, 0.384, 0.32, 0.254, 0.2)


def consistent_hands(hands: np.ndarray, cards: list[int]) -> np.ndarray:
    """Per hand (int64 masks): True when none of ``cards`` (face-up cards the opponent passed or
    discarded) would make a meld with it (R-1.3): a hand that explains why those cards went."""
    ok = np.ones(hands.shape[0], dtype=bool)
    one = np.int64(1)
    for c in set(cards):
        r = c % 13
        same = np.zeros(hands.shape[0], dtype=np.int64)
        for x in range(r, 52, 13):
            if x != c:
                same += (hands >> np.int64(x)) & one
        hit = same >= 2
        lo = c - r
        b1, b2, a1, a2 = (((hands >> np.int64(x)) & one).astype(bool) if lo <= x < lo + 13
                          else np.zeros(hands.shape[0], dtype=bool)
                          for x in (c - 1, c - 2, c + 1, c + 2))
        hit |= (b1 & b2) | (b1 & a1) | (a1 & a2)
        ok &= ~hit
    return ok


def camper_chance(prior: float, opp_discards: int) -> float:
    """Posterior chance that the opponent camps for gin, given it has discarded ``opp_discards``
    times without knocking (a camper stays silent with chance 1)."""
    s = KNOCKER_SILENT[min(opp_discards, len(KNOCKER_SILENT) - 1)]
    return prior / (prior + (1.0 - prior) * s)


class ExpertBot:
    """Search over sampled worlds (see the module docstring)."""

    name = "expert"
    #: rollouts per decision (split over the candidates), and bounds on worlds per candidate.
    rollouts = 1800
    min_worlds = 64
    max_worlds = 400
    #: discards searched besides the knock (those leaving the least deadwood now).
    shortlist = 5
    #: rollout policies: (take rule, tie rule, knock threshold) for the bot and the opponent.
    my_policy = (1, 1, 10)
    opp_policy = (0, 0, 10)
    #: make sampled opponent hands look played (see :func:`ginrummy.bots.kernel.evolve_hands`).
    evolve = True
    #: ... but never down to a deadwood the opponent could have knocked with (not measured yet).
    evolve_floor = False
    #: the opponent's knocking in the rollouts: "knocker" (as soon as it may, like ``simple``),
    #: "camper" (gin only once it has discarded ``camper_turns`` times, like ``marjj``), or
    #: "adaptive": a share of the worlds rolled out with each, the camper's share being the
    #: posterior chance of a camper given how long the opponent has stayed silent
    #: (:data:`KNOCKER_SILENT`, prior ``camper_prior``).
    opp_model = "adaptive"
    camper_turns = 3
    camper_prior = 0.25
    #: sample ``oversample`` x the worlds and keep first those whose (aged) opponent hand makes
    #: no meld with a card it passed or discarded (:func:`consistent_hands`).
    consistent = False
    oversample = 2

    def evolve_steps(self, know: Knowledge) -> int:
        """Played-looking opponent hands: as many improving draws as the opponent has drawn."""
        return min(know.opp_draws, 12) if self.evolve else 0

    def __init__(self) -> None:
        self.hard = HardBot()
        #: the candidates of the last searched decision and their values (the chance of winning
        #: the game, or mean signed points outside a game), for explanations; None when the
        #: last decision needed no search.
        self.last_values: list[tuple[Action, float]] | None = None
        if not K.HAVE_NUMBA:  # pragma: no cover - the plain-Python kernel is ~100x slower
            self.rollouts = 96
            self.min_worlds = 16

    # ------------------------------------------------------------------------------ decisions
    def choose(self, view: PlayerView, ctx: Context) -> Action:
        if not view.legal:
            raise ValueError("not this seat's turn")
        self.last_values = None
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        ph = view.phase
        if ph is Phase.FIFTIETH:
            return DRAW_DISCARD if DRAW_DISCARD in legal else PASS
        if ph is Phase.DISCARD and BIG_GIN in legal:
            return BIG_GIN
        know = read_view(view)
        p = opponent_belief(know)
        if ph in (Phase.OFFER, Phase.DRAW):
            top = view.discard_pile[-1]
            if top in know.my_discards:  # never take back its own discard (no endless trades)
                return PASS if ph is Phase.OFFER else DRAW_STOCK
            if not view.hand.mask & neighbours(top) and POINTS[top] > 3:
                # the face-up card can join nothing and saves little: leave it without a search
                return PASS if ph is Phase.OFFER else DRAW_STOCK
            if ph is Phase.OFFER:
                cands = [(K.K_TAKE, -1, TAKE), (K.K_PASS, -1, PASS)]
            else:
                cands = [(K.K_TAKE, -1, DRAW_DISCARD), (K.K_STOCK, -1, DRAW_STOCK)]
        else:
            gins = [a for a in legal if a.kind is ActionKind.GIN and a.card is not None]
            if gins:
                return max(gins, key=lambda a: (POINTS[a.card or 0], a.card or 0))
            cands = self._discard_candidates(view, ctx, know, p)
        if len(cands) == 1:
            return cands[0][2]
        values = self._evaluate(view, ctx, know, p, cands)
        if values is None:
            return self.hard.choose(view, ctx)
        self.last_values = [(c[2], v) for c, v in zip(cands, values, strict=True)]
        best = max(range(len(cands)), key=lambda i: (values[i], -i))
        return cands[best][2]

    def _discard_candidates(self, view: PlayerView, ctx: Context, know: Knowledge,
                            p: dict[int, float]) -> list[tuple[int, int, Action]]:
        hand = view.hand.mask
        cards, may_discard = _legal_discard_cards(view)
        now = {c: min_deadwood_mask(hand & ~(1 << c)) for c in cards}
        out: list[tuple[int, int, Action]] = []
        best_now = min(now.values())
        if 0 < best_now <= view.knock_limit:
            kc = max((c for c in cards if now[c] == best_now), key=lambda c: (POINTS[c], c))
            kept = hand & ~(1 << kc)
            arrs = min_spreads(kept, best_now)
            scored = [(layoff_exposure(a, p, know.opp_known), i) for i, a in enumerate(arrs)]
            _, idx = min(scored)
            melds = tuple(CardSet(m) for m in arrs[idx])
            out.append((K.K_KNOCK, kc, Action(ActionKind.KNOCK, kc, melds=melds)))
        if may_discard:
            order = sorted(cards, key=lambda c: (now[c], -POINTS[c], c))
            for c in order[:self.shortlist]:
                if now[c] > best_now + 10 and len(out) >= 2:
                    break
                out.append((K.K_DISCARD, c, Action(ActionKind.DISCARD, c)))
        return out

    # ------------------------------------------------------------------------------ search
    def _evaluate(self, view: PlayerView, ctx: Context, know: Knowledge, p: dict[int, float],
                  cands: list[tuple[int, int, Action]]) -> list[float] | None:
        unseen = bits(know.unseen)
        n_opp = view.opponent_card_count - view.opponent_known.mask.bit_count()
        n_stock = view.stock_count
        if len(unseen) != n_opp + n_stock or n_opp < 0:
            return None
        nc = len(cands)
        nw = max(self.min_worlds, min(self.max_worlds, self.rollouts // nc))
        seed = ctx.rng.getrandbits(31)
        gen = np.random.default_rng(seed)
        u = np.array(unseen, dtype=np.int64)
        probs = np.array([min(0.97, max(0.01, p.get(c, 0.0))) for c in unseen])
        logw = np.log(probs / (1.0 - probs))
        evidence = know.opp_passed + know.opp_discards
        filt = self.consistent and bool(evidence) and n_opp > 0
        ns = nw * self.oversample if filt else nw
        keys = logw[None, :] + gen.gumbel(size=(ns, len(unseen)))
        order = np.argsort(-keys, axis=1)
        opp_idx = order[:, :n_opp]
        rest = order[:, n_opp:]
        bitvals = np.left_shift(np.int64(1), u)
        opp_hands = (bitvals[opp_idx].sum(axis=1) + np.int64(view.opponent_known.mask)
                     ).astype(np.int64)
        stocks = np.ascontiguousarray(u[rest])
        steps = self.evolve_steps(know)
        K.evolve_hands(opp_hands, stocks, n_stock, view.opponent_known.mask, steps,
                       seed, view.knock_limit if self.evolve_floor else -1)
        if filt:
            ok = consistent_hands(opp_hands, evidence)
            keep = np.argsort(~ok, kind="stable")[:nw]
            opp_hands = np.ascontiguousarray(opp_hands[keep])
            stocks = np.ascontiguousarray(stocks[keep])
        pile = np.zeros(64, dtype=np.int64)
        pile[:len(view.discard_pile)] = view.discard_pile
        rules = view.rules
        spade = rules.oklahoma and rules.oklahoma_spade_double and card_suit(view.upcard) == 0
        krules = K.make_rules(view.knock_limit, rules.gin_bonus, rules.undercut_bonus,
                              rules.undercut_on_tie, rules.big_gin_bonus, spade,
                              rules.dead_hand_rule == "fiftieth_card")
        me = view.seat
        phase = {Phase.OFFER: K.OFFER, Phase.DRAW: K.DRAW}.get(view.phase, K.DISCARD)
        forced = 1 if (view.phase is Phase.DRAW and DRAW_DISCARD not in view.legal) else 0
        taken = view.taken_card if view.taken_card is not None else -1
        ck = np.array([c[0] for c in cands], dtype=np.int64)
        cc = np.array([c[1] for c in cands], dtype=np.int64)
        n_opp_disc = len(know.opp_discards)
        camper = (self.opp_policy[0], self.opp_policy[1],
                  self.opp_policy[2] if n_opp_disc < self.camper_turns else 0)
        if self.opp_model == "camper":
            groups = [(camper, nw)]
        elif self.opp_model == "adaptive":
            k = int(round(nw * camper_chance(self.camper_prior, n_opp_disc)))
            groups = [(camper, k), (self.opp_policy, nw - k)]
        else:
            groups = [(self.opp_policy, nw)]
        outs = []
        start = 0
        for gi, (opp_pol, n) in enumerate(groups):
            if n <= 0:
                continue
            pol = [self.my_policy, opp_pol] if me == 0 else [opp_pol, self.my_policy]
            policy = K.make_policy(pol[0], pol[1])
            sl = slice(start, start + n)
            outs.append(K.search(me, view.hand.mask, opp_hands[sl],
                                 np.ascontiguousarray(stocks[sl]), pile,
                                 len(view.discard_pile), phase, view.dealer, know.offer_passes,
                                 forced, taken, ck, cc, krules, policy, seed + gi))
            start += n
        out = outs[0] if len(outs) == 1 else np.concatenate(outs, axis=1)
        return self._value(view, ctx, out)

    def _value(self, view: PlayerView, ctx: Context, out: np.ndarray) -> list[float]:
        if ctx.hand_points is None:
            return [float(x) for x in out.mean(axis=1)]
        table = win_table(view.rules, ctx.target)
        target = ctx.target
        mine = min(ctx.hand_points[view.seat], target - 1)
        theirs = min(ctx.hand_points[1 - view.seat], target - 1)
        pad = table.shape[0] - 1
        gain = np.clip(out, 0, None)
        loss = np.clip(-out, 0, None)
        a = np.minimum(mine + gain, pad)
        b = np.minimum(theirs + loss, pad)
        vals = table[a, b]
        return [float(x) for x in vals.mean(axis=1)]


