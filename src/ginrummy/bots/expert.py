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
winning the game from the resulting score (:func:`~ginrummy.bots.value.win_table`; in Hollywood,
three players and partnership the form's own chance, ``ctx.value`` from
:mod:`ginrummy.bots.stakes`, unless ``form_value`` is off); the best mean wins. The knock shows
the spread with the fewest expected layoffs, as ``hard`` does.

The opponent is rolled out as what it may be (``opp_model = "adaptive"``): in a share of the
worlds as a gin camper (like ``marjj``: knocks only in its first three turns), the share being the
posterior chance of a camper given how long it has stayed silent (prior ``camper_prior`` 0.25),
in the rest as a knocker (like ``simple``). Paired runs on the same decks
(benchmarks/results/bots-2026-12-01.md, 200 games each on a loaded machine): against ``marjj``
+13.0 points of games won (CI +5.0..+21.0), against ``simple`` +4.0 (CI -3.1..+11.1) with -1.4
points per hand (CI -3.1..+0.4); with prior 0.5 the ``simple`` side lost 3.1 points per hand.
``consistent = True`` (keep first the sampled hands that make no meld with a card the opponent
passed or discarded) showed no gain (140 paired games against ``marjj`` on 2026-12-02: +0.0
points of games won, CI -10.1..+10.1) and is off.

Our own side is patient against a camper (``my_policy_camper = (1, 1, 0)``): in the worlds where
the opponent is rolled out as a camper, our simulated future knocks only with gin; in the
knocker's worlds it knocks as ``my_policy`` says. Paired on the same games (seed 0,
benchmarks/results/bots-2026-12-02b.md): against ``marjj`` +8.3 points of games won (CI
+2.5..+14.0, 460 games; 55.0% instead of 46.7%), +3.06 points per hand (CI +1.18..+4.94);
against ``simple`` -2.0 (CI -6.2..+2.2, 500 games), +0.46 points per hand (CI -0.58..+1.50).
Continued to 1,300 / 1,220 games: 55.7% of games won against ``marjj`` (CI 53.0-58.4%), 75.5%
against ``simple`` (CI 73.0-77.8%).
Patient rollouts in every world (``my_policy`` knock threshold 0) gave +6.4 (CI -4.3..+17.2,
140 games) against ``marjj`` on 2026-12-02.

The search is anchored on ``hard`` (``anchor_z = 1``): it plays ``hard``'s move unless its best
candidate beats that move by more than one standard error, paired over the worlds (the search's
own model of the opponent is biased; ``hard`` reads what the opponent did). Paired on the same
games (seed 0, benchmarks/results/bots-2026-12-02c.md): against ``simple`` +3.4 points of games
won (CI +0.6..+6.3, 1,220 games; 78.9% instead of 75.5%), against ``marjj`` -0.9 (CI
-4.4..+2.5, 1,300 games; 54.8% instead of 55.7%), points per hand +0.36 and +0.12 (both CIs
contain 0). With ``hard``'s learned knock rule in the anchor (the default since the same
commit): 79.7% against ``simple`` (CI 77.3-81.8%, 1,220 games; paired +4.2, CI +1.4..+7.0, and
+0.76 points per hand, CI +0.02..+1.50), 55.1% against ``marjj`` (CI 52.4-57.8%, 1,300 games;
paired -0.5, CI -4.0..+2.9). The same search seeing the opponent's hand wins 99.0% of 300
games against ``simple`` (seeing the stock too: 100%): the gap to 80% is what the search does
not know about the opponent's hand.

The sampled worlds are weighed by what the opponent just did (``weigh``, on since 2026-12-02):
three times the worlds are sampled and aged, and the ones kept are drawn without replacement
by how well each opponent hand explains its last discard (the deadwood that discard left above
the least it could have kept, :func:`~ginrummy.bots.kernel.discard_fit`) and its silence (a
hand it could have knocked with, in a world that rolls it out as a player who would have).
Paired on the same 4,000 games (seed 0, benchmarks/results/bots-2026-12-02d.md): against
``simple`` 80.85% of games won instead of 78.8% (+2.1, CI +0.7..+3.5), against ``marjj`` 60.6%
instead of 56.25% (+4.4, CI +2.5..+6.3; +1.35 points per hand, CI +0.77..+1.93), for about
1.2 ms more CPU per decision (mean 4.2 ms, p99 7.4 ms).

Other search controls, off (see the class attributes): ``knock_factor`` (more worlds when a
knock is a candidate), ``close_z`` / ``close_rounds`` (fresh worlds for a close call; with
``stage_share`` a two-stage search), ``anchor_knocks = False`` (the search alone decides knocks).
``knock_factor = 3`` with ``close_z = 1`` changed nothing against ``simple`` (0.0 points of games
won, CI -4.4..+4.4, 500 paired games) for 36% more CPU; ``evolve_floor`` cost 1.05 points per
hand against ``simple`` (CI -1.99..-0.11, 500 games); ``consistent`` and two stages
(``close_z = 2``, ``stage_share = 0.5``) were flat (500 games each).

Only the view and the context are read; the worlds come from the context's random generator.
"""

from __future__ import annotations

from collections.abc import Sequence

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
from .value import win_chance_after, win_table

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


def last_discard(view: PlayerView, know: Knowledge) -> tuple[int, int] | None:
    """``(card, forbidden)`` when the opponent's latest move was a discard: the card it threw
    and the face-up card it took in that turn (which it could not throw, R-3.6; -1 when it drew
    from the stock); None when it has not discarded since its last draw (or at all)."""
    me = view.seat
    opp = [e for e in view.history if e.seat != me]
    if not opp or opp[-1].kind is not ActionKind.DISCARD or opp[-1].card is None:
        return None
    forbidden = -1
    if len(opp) >= 2 and opp[-2].kind in (ActionKind.TAKE, ActionKind.DRAW_DISCARD) \
            and know.opp_taken:
        forbidden = know.opp_taken[-1]
    return opp[-1].card, forbidden


def camper_chance(prior: float, opp_discards: int) -> float:
    """Posterior chance that the opponent camps for gin, given it has discarded ``opp_discards``
    times without knocking (a camper stays silent with chance 1)."""
    s = KNOCKER_SILENT[min(opp_discards, len(KNOCKER_SILENT) - 1)]
    return prior / (prior + (1.0 - prior) * s)


def top_two(vals: np.ndarray) -> tuple[int, int]:
    """Rows of the best and the second-best mean of ``vals`` (candidates x worlds, >= 2 rows);
    ties go to the earlier row, as the decision does."""
    means = vals.mean(axis=1)
    order = sorted(range(len(means)), key=lambda i: (-means[i], i))
    return order[0], order[1]


def paired_z(vals: np.ndarray, i: int, j: int) -> float:
    """How many standard errors row ``i``'s mean is above row ``j``'s, paired over the worlds
    (columns: common random numbers). Equal rows: 0; a lead with no spread at all: infinity."""
    d = vals[i] - vals[j]
    m = float(d.mean())
    if d.shape[0] < 2:
        return 0.0
    sd = float(d.std(ddof=1))
    if sd == 0.0:
        return 0.0 if m == 0.0 else (float("inf") if m > 0 else float("-inf"))
    return m / (sd / float(np.sqrt(d.shape[0])))


#: the rollout kernel's kind of each searchable move
_KERNEL_KIND = {ActionKind.TAKE: K.K_TAKE, ActionKind.DRAW_DISCARD: K.K_TAKE,
                ActionKind.PASS: K.K_PASS, ActionKind.DRAW_STOCK: K.K_STOCK,
                ActionKind.DISCARD: K.K_DISCARD, ActionKind.KNOCK: K.K_KNOCK,
                ActionKind.GIN: K.K_GIN, ActionKind.BIG_GIN: K.K_BIG_GIN}


def _same_move(a: Action, b: Action) -> bool:
    """Same kind and card (a knock's shown melds may differ)."""
    return a.kind is b.kind and a.card == b.card


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
    #: our own rollout policy in the worlds where the opponent is rolled out as a camper (None:
    #: ``my_policy``). ``(1, 1, 0)``: against a camper our simulated future waits for gin.
    my_policy_camper: tuple[int, int, int] | None = (1, 1, 0)
    #: when a knock is among the candidates, search with this many times the rollouts.
    knock_factor = 1.0
    #: close calls: when the best candidate's lead over the runner-up is under ``close_z``
    #: standard errors (paired over the worlds), search ``close_rounds`` more batches of fresh
    #: worlds (each as large as the first) and decide on all of them. 0 = off.
    close_z = 0.0
    close_rounds = 1
    #: with ``close_z`` on: each batch (the first and the extra ones) is this share of the
    #: usual worlds. ``stage_share = 0.5, close_rounds = 1``: a clear call is decided on half
    #: the worlds (half the CPU), a close one on all of them (a two-stage search).
    stage_share = 1.0
    #: deviate from ``hard``'s move only when the search's best beats it by more than
    #: ``anchor_z`` standard errors (paired); 0 = off (always the search's best).
    anchor_z = 1.0
    #: with ``anchor_z``: anchor the knock-or-continue decisions too (False: only decisions
    #: without a knock among the candidates; the search alone decides knocks).
    anchor_knocks = True
    #: weigh the sampled worlds by how well the opponent's hand in each explains its last move
    #: (:func:`last_discard`, :func:`~ginrummy.bots.kernel.discard_fit`): ``weigh_oversample``
    #: x the worlds are sampled and aged, and the worlds kept are drawn without replacement
    #: with log-weight ``-weigh_beta`` per point of deadwood its discard left above the least it
    #: could have kept, and ``-weigh_knock`` when it could have knocked (or gone gin) and the
    #: world rolls it out as a player who would have. False: the worlds as sampled.
    weigh = True
    weigh_oversample = 3
    weigh_beta = 2.0
    weigh_knock = 4.0
    #: value a deal's result by the form's own chance of winning (``ctx.value``: Hollywood,
    #: three players, partnership; :mod:`ginrummy.bots.stakes`) instead of the two-player
    #: table of ``ctx.hand_points``, in the forms of ``value_forms`` (a value that does not
    #: name its form, ``scoring``, is always used).
    form_value = True
    value_forms: frozenset[str] = frozenset({"hollywood", "three_player", "partnership"})

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
        if ph is Phase.FIFTIETH:  # take to knock only when it beats the dead hand
            return self.hard.choose(view, ctx)
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
        has_knock = any(c[0] == K.K_KNOCK for c in cands)
        factor = self.knock_factor if has_knock else 1.0
        if self.close_z > 0:
            factor *= self.stage_share
        vals = self._evaluate(view, ctx, know, p, cands, factor)
        if vals is None:
            return self.hard.choose(view, ctx)
        rounds = 0
        while self.close_z > 0 and rounds < self.close_rounds and \
                paired_z(vals, *top_two(vals)) < self.close_z:
            more = self._evaluate(view, ctx, know, p, cands, factor)
            assert more is not None
            vals = np.concatenate([vals, more], axis=1)
            rounds += 1
        values = [float(x) for x in vals.mean(axis=1)]
        self.last_values = [(c[2], v) for c, v in zip(cands, values, strict=True)]
        best = max(range(len(cands)), key=lambda i: (values[i], -i))
        if self.anchor_z > 0 and (self.anchor_knocks or not has_knock) and any(
                paired_z(vals, best, i) < self.anchor_z for i in range(len(cands)) if i != best):
            # ``hard``'s move is asked only when some candidate is within ``anchor_z`` of the
            # best: otherwise it cannot be chosen over it (hard draws nothing from ctx.rng)
            plain = self.hard.choose_known(view, ctx, know, p if self.hard.use_belief else None)
            idx = [i for i, c in enumerate(cands) if _same_move(c[2], plain)]
            if idx and idx[0] != best and paired_z(vals, best, idx[0]) < self.anchor_z:
                return cands[idx[0]][2]
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
    def evaluate_moves(self, view: PlayerView, ctx: Context, moves: Sequence[Action],
                       worlds: int) -> np.ndarray | None:
        """The signed points of the deal (+: the view's seat scores them, -: the opponent does;
        0: a dead hand or a tie) of each of ``moves`` (rows) in each of ``worlds`` sampled
        worlds (columns), played out as :meth:`choose` searches: the same worlds for every move
        (common random numbers, so that rows compare pair by pair), sampled from the view only,
        with everything random drawn from ``ctx.rng``. For the review of a game
        (:mod:`ginrummy.bots.review`), which grades every legal move, not only the candidates
        :meth:`choose` searches. A knock is valued with a least-deadwood spread (R-4.5); a gin
        with any card gives the same points (R-5.1).

        :param moves: legal moves of ``view`` (:meth:`~ginrummy.hand.HandState.legal_actions`)
            in the first-turn offer, a draw or holding 11 cards (not the fiftieth-card choice
            of R-8.2).
        :returns: an int64 array of shape ``(len(moves), worlds)``, or None when the view's card
            counts do not add up.
        :raises ValueError: a move the search cannot play from this phase.
        """
        phases = {Phase.OFFER: (ActionKind.TAKE, ActionKind.PASS),
                  Phase.DRAW: (ActionKind.DRAW_DISCARD, ActionKind.DRAW_STOCK),
                  Phase.DISCARD: (ActionKind.DISCARD, ActionKind.KNOCK, ActionKind.GIN,
                                  ActionKind.BIG_GIN)}
        allowed = phases.get(view.phase, ())
        cands: list[tuple[int, int, Action]] = []
        for a in moves:
            if a.kind not in allowed:
                raise ValueError(f"cannot search {a.text!r} in the {view.phase.value} phase")
            cands.append((_KERNEL_KIND[a.kind], -1 if a.card is None else a.card, a))
        know = read_view(view)
        return self._search_points(view, ctx, know, opponent_belief(know), cands, worlds)

    def _evaluate(self, view: PlayerView, ctx: Context, know: Knowledge, p: dict[int, float],
                  cands: list[tuple[int, int, Action]], factor: float = 1.0
                  ) -> np.ndarray | None:
        """The value of each candidate (rows) in each sampled world (columns), or None when the
        view's card counts do not add up (then ``hard`` decides)."""
        nc = len(cands)
        nw = max(self.min_worlds, min(int(self.max_worlds * factor),
                                      int(self.rollouts * factor) // nc))
        out = self._search_points(view, ctx, know, p, cands, nw)
        return None if out is None else self._value(view, ctx, out)

    def _search_points(self, view: PlayerView, ctx: Context, know: Knowledge,
                       p: dict[int, float], cands: list[tuple[int, int, Action]], nw: int
                       ) -> np.ndarray | None:
        """Signed points of each candidate (rows) in ``nw`` sampled worlds (columns), or None
        when the view's card counts do not add up."""
        unseen = bits(know.unseen)
        n_opp = view.opponent_card_count - view.opponent_known.mask.bit_count()
        n_stock = view.stock_count
        if len(unseen) != n_opp + n_stock or n_opp < 0:
            return None
        seed = ctx.rng.getrandbits(31)
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
        camper, groups = self._groups(n_opp_disc, nw)
        # the knock threshold each group's opponent had when it made its last discard
        was = self.opp_policy[2] if n_opp_disc - 1 < self.camper_turns else 0
        blocks = [(was if g[0] is camper else g[0][2], g[1]) for g in groups]
        opp_hands, stocks = self._worlds(view, know, p, nw, seed, blocks)
        outs = []
        start = 0
        mine = self._my_policies()
        for gi, (opp_pol, n) in enumerate(groups):
            if n <= 0:
                continue
            my_pol = mine[gi]
            pol = [my_pol, opp_pol] if me == 0 else [opp_pol, my_pol]
            policy = K.make_policy(pol[0], pol[1])
            sl = slice(start, start + n)
            outs.append(K.search(me, view.hand.mask, opp_hands[sl],
                                 np.ascontiguousarray(stocks[sl]), pile,
                                 len(view.discard_pile), phase, view.dealer, know.offer_passes,
                                 forced, taken, ck, cc, krules, policy, seed + gi))
            start += n
        return outs[0] if len(outs) == 1 else np.concatenate(outs, axis=1)

    def _groups(self, n_opp_disc: int, nw: int
                ) -> tuple[tuple[int, int, int], list[tuple[tuple[int, int, int], int]]]:
        """The camper's rollout policy, and the blocks of worlds (in column order): the
        opponent's rollout policy in each and how many worlds (see ``opp_model``)."""
        camper = (self.opp_policy[0], self.opp_policy[1],
                  self.opp_policy[2] if n_opp_disc < self.camper_turns else 0)
        if self.opp_model == "camper":
            return camper, [(camper, nw)]
        if self.opp_model == "adaptive":
            k = int(round(nw * camper_chance(self.camper_prior, n_opp_disc)))
            return camper, [(camper, k), (self.opp_policy, nw - k)]
        return camper, [(self.opp_policy, nw)]

    def _my_policies(self) -> list[tuple[int, int, int]]:
        """Our own rollout policy in each block of :meth:`_groups`."""
        mine = [self.my_policy, self.my_policy]
        cp = self.my_policy_camper
        if cp is not None and self.opp_model in ("adaptive", "camper"):
            mine[0] = (int(cp[0]), int(cp[1]), int(cp[2]))  # groups[0] is the camper's
        return mine

    def sample_worlds(self, view: PlayerView, ctx: Context, worlds: int
                      ) -> tuple[np.ndarray, np.ndarray] | None:
        """``worlds`` worlds as :meth:`evaluate_moves` samples them from ``view`` (the same
        belief, ageing and weighing; everything random from ``ctx.rng``): the opponent's
        hands (int64 card masks, shape (worlds,)) and the stock orders (card ints, shape
        (worlds, stock count), top first); None when the view's card counts do not add up.
        For measuring the review against play-outs (benchmarks/review.py)."""
        know = read_view(view)
        unseen = bits(know.unseen)
        n_opp = view.opponent_card_count - view.opponent_known.mask.bit_count()
        if len(unseen) != n_opp + view.stock_count or n_opp < 0:
            return None
        seed = ctx.rng.getrandbits(31)
        camper, groups = self._groups(len(know.opp_discards), worlds)
        was = self.opp_policy[2] if len(know.opp_discards) - 1 < self.camper_turns else 0
        blocks = [(was if g[0] is camper else g[0][2], g[1]) for g in groups]
        return self._worlds(view, know, opponent_belief(know), worlds, seed, blocks)

    def own_policies(self, view: PlayerView, worlds: int) -> list[tuple[tuple[int, int, int], int]]:
        """The rollout policy our own seat plays in the worlds of :meth:`evaluate_moves` for
        ``view`` and ``worlds``: ``[(policy, n), ...]`` in column order, ``policy`` as the
        kernel's ``(take rule, tie rule, knock threshold)``
        (:data:`~ginrummy.bots.kernel.POLICY_FIELDS`), the counts summing to ``worlds``. The
        review prices the luck of a drawn card with it (:mod:`ginrummy.bots.review`)."""
        n_opp_disc = len(read_view(view).opp_discards)
        _, groups = self._groups(n_opp_disc, worlds)
        mine = self._my_policies()
        return [(mine[i], n) for i, (_, n) in enumerate(groups) if n > 0]

    def _worlds(self, view: PlayerView, know: Knowledge, p: dict[int, float], nw: int,
                seed: int, blocks: list[tuple[int, int]] | None = None
                ) -> tuple[np.ndarray, np.ndarray]:
        """``nw`` sampled worlds: the opponent's hands (int64 masks, shape (nw,)) and the stock
        orders (shape (nw, stock count), top first), drawn from the belief ``p`` and aged
        (:func:`~ginrummy.bots.kernel.evolve_hands`), then (``weigh``) drawn again by how well
        each explains the opponent's last discard, in consecutive ``blocks`` of (the knock
        threshold the block's opponent model had at that discard, how many worlds); the caller
        has checked that the view's card counts add up. Everything random comes from ``seed``."""
        unseen = bits(know.unseen)
        n_opp = view.opponent_card_count - view.opponent_known.mask.bit_count()
        n_stock = view.stock_count
        gen = np.random.default_rng(seed)
        u = np.array(unseen, dtype=np.int64)
        probs = np.array([min(0.97, max(0.01, p.get(c, 0.0))) for c in unseen])
        logw = np.log(probs / (1.0 - probs))
        evidence = know.opp_passed + know.opp_discards
        filt = self.consistent and bool(evidence) and n_opp > 0
        last = last_discard(view, know) if self.weigh and blocks else None
        ns = nw * self.oversample if filt else nw
        if last is not None and not filt:
            ns = nw * self.weigh_oversample
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
        elif last is not None:
            assert blocks is not None
            keep = self._weighed(view, opp_hands, last, blocks, gen)
            opp_hands = np.ascontiguousarray(opp_hands[keep])
            stocks = np.ascontiguousarray(stocks[keep])
        return opp_hands, stocks

    def _weighed(self, view: PlayerView, opp_hands: np.ndarray, last: tuple[int, int],
                 blocks: list[tuple[int, int]], gen: np.random.Generator) -> np.ndarray:
        """Rows of ``opp_hands`` to keep, a block of ``n`` per ``(threshold, n)`` of ``blocks``
        (in order): each drawn without replacement (Gumbel top-k) from the rows not yet kept,
        with log-weight ``-weigh_beta`` x the discard's regret and ``-weigh_knock`` when the
        hand's deadwood was within ``threshold`` and the knock limit (its model would have
        knocked, R-4.1, instead of discarding)."""
        ns = opp_hands.shape[0]
        regret = np.zeros(ns, dtype=np.int64)
        dw = np.zeros(ns, dtype=np.int64)
        K.discard_fit(opp_hands, last[0], last[1], regret, dw)
        base = -self.weigh_beta * regret.astype(np.float64)
        free = np.ones(ns, dtype=bool)
        kept: list[np.ndarray] = []
        for threshold, n in blocks:
            if n <= 0:
                continue
            could = dw <= min(threshold, view.knock_limit)
            logw = base - self.weigh_knock * could
            keys = np.where(free, logw + gen.gumbel(size=ns), -np.inf)
            pick = np.argsort(-keys, kind="stable")[:n]
            free[pick] = False
            kept.append(pick)
        return np.concatenate(kept)

    def _value(self, view: PlayerView, ctx: Context, out: np.ndarray) -> np.ndarray:
        """Per candidate and world: the chance of winning the game after the deal's signed
        points ``out`` (in the form played: ``ctx.value``; or the points themselves outside a
        game)."""
        if self.form_value and ctx.value is not None \
                and getattr(ctx.value, "scoring", None) in self.value_forms | {None}:
            return np.asarray(ctx.value(out), dtype=np.float64)
        if ctx.hand_points is None:
            return out.astype(np.float64)
        return win_chance_after(win_table(view.rules, ctx.target), ctx.target,
                                ctx.hand_points[view.seat], ctx.hand_points[1 - view.seat], out)


