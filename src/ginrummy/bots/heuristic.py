"""The levels without search: ``easy``, ``medium`` and ``hard``.

* ``easy``: takes the face-up card only when it completes a meld, throws away an unmelded card
  (often the highest, sometimes another one: never a card of a meld), knocks at once. Sensible but
  beatable; it reads nothing but its own hand and the top discard.
* ``medium``: a one-card lookahead. Each discard is scored by the deadwood it leaves and the
  expected deadwood after the next draw (over the cards it has not seen); it takes the face-up
  card when that beats the average stock draw; it knocks at once.
* ``hard``: ``medium`` plus opponent modelling. A per-card belief of the opponent's hand
  (:func:`~ginrummy.bots.knowledge.opponent_belief`: what it took, passed and discarded) gives
  the draw odds and each discard's danger (the chance that it completes an opponent meld); the
  knock policy weighs the undercut risk (a model of the opponent's deadwood by the number of its
  draws, minus the expected layoffs on the spread) against the game score, and after the
  opponent's fifth draw knocks only with 5 points or less (staying low and waiting undercuts
  opponents who knock as soon as they can: 62.3% against ``simple`` instead of 56.3%, 300 games,
  seed 13); the spread shown is the one that leaves the fewest expected layoffs. Those two knock
  rules are now replaced by a rule learned from ``expert``'s own knock decisions
  (:attr:`HardBot.knock_weights`, a linear score of :func:`knock_features`): it knocks about a
  quarter as often. Paired on the same 4,000 games against ``simple`` (seed 2026,
  benchmarks/results/bots-2026-12-02c.md): 65.7% of games won instead of 64.6% (+1.1, CI
  -0.4..+2.5), +1.09 points per hand (CI +0.85..+1.34); against ``marjj`` +2.4 (CI -0.9..+5.7)
  and -0.77 points per hand (CI -1.77..+0.23) on 1,000 games. The learned rule waits for gin
  late in every deal, down to the last turn, where that lets the deal die (R-8.1); so at its
  last chance to knock (:func:`last_knock_chance`: its discard leaves the stock at two cards
  or lets the opponent make the last draw) ``hard`` knocks when the knock is worth more than
  the dead hand's 0 points on average (:func:`knock_expectation`), and under the
  fiftieth-card rule (R-8.2) takes the last discard only for a gin or such a knock. Likewise
  it takes a face-up card that would let it knock at once only when its knock rule would knock
  with it (``medium``'s take rule, which it inherits, assumes a knock at once): the review found
  it taking such cards and then waiting, graded worse than a stock draw. The last-chance rule,
  paired on the same 1,000 games (seed 2026, benchmarks/results/bots-2026-12-06.md): 2% of the games
  change and fewer deals die; games won +0.1 (CI -0.5..+0.7) against ``simple``, +0.2 (CI
  -0.1..+0.5) against ``medium``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from ..actions import BIG_GIN, DRAW_DISCARD, DRAW_STOCK, PASS, TAKE, Action, ActionKind
from ..cards import POINTS, CardSet
from ..hand import STOCK_FLOOR, Phase
from ..melds import best_arrangement, best_discard_deadwood, min_deadwood_mask
from ..views import PlayerView
from .base import Context
from .knowledge import (
    SAME_RANK,
    Knowledge,
    bits,
    in_meld_with,
    min_spreads,
    neighbours,
    opponent_belief,
    read_view,
)

__all__ = ["EasyBot", "MediumBot", "HardBot", "expected_after_draw", "discard_danger",
           "undercut_probability", "knock_expectation", "last_knock_chance", "layoff_exposure",
           "taking_back", "knock_features", "KNOCK_FEATURES"]


def expected_after_draw(kept: int, draw_odds: Iterable[tuple[int, float]]) -> float:
    """Expected 10-card deadwood (points) after drawing one card from ``draw_odds`` ((card,
    weight) pairs, weights summing to anything > 0) and discarding the best card.

    A drawn card with no rank or suit neighbour in ``kept`` is deadwood in every arrangement, so
    its value is ``min(dw(kept), min_c dw(kept - c) + points(u))`` without a search.
    """
    tot = 0.0
    wsum = 0.0
    base = min_deadwood_mask(kept)
    d9 = -1
    for u, w in draw_odds:
        if kept & neighbours(u):
            v = best_discard_deadwood(kept | 1 << u)
        else:
            if d9 < 0:
                d9 = best_discard_deadwood(kept)
            v = min(base, d9 + POINTS[u])
        tot += w * v
        wsum += w
    return tot / wsum if wsum else float(base)


def discard_danger(c: int, p: dict[int, float], opp_known: int) -> float:
    """Chance that discarding ``c`` completes a meld in the opponent's hand (``p``: belief)."""

    def q(x: int) -> float:
        if opp_known >> x & 1:
            return 1.0
        return p.get(x, 0.0)

    others = [q(x) for x in bits(SAME_RANK[c])]
    none = 1.0
    for v in others:
        none *= 1.0 - v
    one = 0.0
    for i, v in enumerate(others):
        t = v
        for j, w in enumerate(others):
            if j != i:
                t *= 1.0 - w
        one += t
    p_set = max(0.0, 1.0 - none - one)
    r = c % 13
    miss = 1.0 - p_set
    pairs = []
    if r >= 2:
        pairs.append((c - 2, c - 1))
    if 1 <= r <= 11:
        pairs.append((c - 1, c + 1))
    if r <= 10:
        pairs.append((c + 1, c + 2))
    for a, b in pairs:
        miss *= 1.0 - q(a) * q(b)
    return 1.0 - miss


def layoff_exposure(melds: Iterable[int], p: dict[int, float], opp_known: int) -> float:
    """Expected points the opponent could lay off on ``melds`` (direct layoffs and one chained
    card), from the belief ``p``."""
    exp = 0.0

    def q(x: int) -> float:
        if opp_known >> x & 1:
            return 1.0
        return p.get(x, 0.0)

    for mm in melds:
        low = (mm & -mm).bit_length() - 1
        if mm & ~(SAME_RANK[low] | 1 << low) == 0:  # a set
            if mm.bit_count() == 3:
                x = ((SAME_RANK[low] | 1 << low) & ~mm).bit_length() - 1
                exp += q(x) * POINTS[x]
            continue
        high = mm.bit_length() - 1
        base = low - low % 13
        if low - 1 >= base:
            a = q(low - 1)
            exp += a * POINTS[low - 1]
            if low - 2 >= base:
                exp += a * q(low - 2) * POINTS[low - 2]
        if high + 1 < base + 13:
            a = q(high + 1)
            exp += a * POINTS[high + 1]
            if high + 2 < base + 13:
                exp += a * q(high + 2) * POINTS[high + 2]
    return exp


# Opponent deadwood model for the knock decision: the distribution of a competent opponent's
# 10-card deadwood (before layoffs) after it has drawn ``t`` times, as a normal approximation
# (mean, standard deviation) by ``t``. Measured in self-play of ``medium`` against ``medium``
# (1,500 deals, seed 7; the script is benchmarks/bots.py deadwood-table).
_OPP_DW_MEAN = (57.5, 46.0, 38.0, 31.9, 27.8, 24.7, 22.7, 21.0, 19.8, 18.8, 18.4, 17.1, 16.0,
                15.5, 15.2, 15.0, 15.0)
_OPP_DW_SD = (13.6, 14.8, 14.2, 13.0, 11.5, 10.3, 9.3, 8.0, 7.2, 6.6, 6.4, 4.9, 4.1, 3.6, 3.4,
              3.4, 3.4)


def undercut_probability(k: int, opp_draws: int, layoff_points: float) -> float:
    """Estimated chance that an opponent who has drawn ``opp_draws`` times ends with deadwood
    <= ``k`` after laying off about ``layoff_points`` points."""
    t = min(opp_draws, len(_OPP_DW_MEAN) - 1)
    mu = _OPP_DW_MEAN[t] - layoff_points
    sd = _OPP_DW_SD[t]
    z = (k + 0.5 - mu) / sd
    return 0.5 * (1.0 + math.erf(z / math.sqrt(2.0)))


def knock_expectation(k: int, opp_draws: int, layoff_points: float, undercut_bonus: int,
                      undercut_on_tie: bool) -> float:
    """Expected hand points of a knock with ``k`` points of deadwood (+: the knocker scores),
    against an opponent who has drawn ``opp_draws`` times and is expected to lay off about
    ``layoff_points`` points: the opponent's deadwood after layoffs ``D`` follows the normal
    model of :func:`undercut_probability` (rounded to whole points, 0 at least); the knocker
    scores ``D - k`` when ``D > k`` (R-7.2), the opponent ``k - D + undercut_bonus`` when
    ``D < k``, or on a tie when ``undercut_on_tie`` (R-7.4; else a tie scores nothing).

    >>> knock_expectation(1, 15, 2.0, 25, True) > 0 > knock_expectation(10, 15, 6.0, 25, True)
    True
    """
    t = min(opp_draws, len(_OPP_DW_MEAN) - 1)
    mu = _OPP_DW_MEAN[t] - layoff_points
    sd = _OPP_DW_SD[t]

    def cdf(x: float) -> float:
        return 0.5 * (1.0 + math.erf((x - mu) / (sd * math.sqrt(2.0))))

    total = 0.0
    below = 0.0  # P(D <= d - 1)
    top = int(mu + 8 * sd) + 2
    for d in range(0, max(top, k + 2)):
        at_most = cdf(d + 0.5)
        pd = at_most - below
        below = at_most
        if d > k:
            total += pd * (d - k)
        elif d < k or undercut_on_tie:
            total -= pd * (k - d + undercut_bonus)
    return total


def last_knock_chance(view: PlayerView) -> bool:
    """True when ``view``'s seat, about to draw or holding 11 cards, knocks this turn or never
    in this deal: its discard leaves the stock at :data:`~ginrummy.hand.STOCK_FLOOR` cards
    (R-8.1: the deal ends, or R-8.2: only the opponent may take that discard) or lets the
    opponent make the last draw; playing on is then worth no more than a dead hand (0 points)
    to it."""
    return view.phase in (Phase.DRAW, Phase.DISCARD) and view.stock_count <= STOCK_FLOOR + 1


def taking_back(view: PlayerView, card: int) -> bool:
    """True when ``card`` is one that the viewer itself discarded earlier in this deal.

    The rules let two players trade face-up cards forever (nothing shrinks the stock); a player
    who never takes back its own discard breaks every such cycle, since a cycle must return each
    card to the hand that threw it.
    """
    return any(e.seat == view.seat and e.kind is ActionKind.DISCARD and e.card == card
               for e in view.history)


def _legal_discard_cards(view: PlayerView) -> tuple[list[int], bool]:
    """Cards that may leave the hand now, and whether a plain discard is allowed."""
    discards = sorted(a.card for a in view.legal
                      if a.kind is ActionKind.DISCARD and a.card is not None)
    if discards:
        return discards, True
    knock_cards = sorted({a.card for a in view.legal
                          if a.kind in (ActionKind.KNOCK, ActionKind.GIN) and a.card is not None})
    return knock_cards, False


def _finish(view: PlayerView, card: int, kept: int, dw: int,
            melds: tuple[CardSet, ...] | None) -> Action:
    if dw == 0:
        return Action(ActionKind.GIN, card)
    return Action(ActionKind.KNOCK, card, melds=melds)


class EasyBot:
    """A gentle beginner (see the module docstring)."""

    name = "easy"
    #: chance of throwing a random unmelded card instead of the highest one.
    slip = 0.5

    def choose(self, view: PlayerView, ctx: Context) -> Action:
        if not view.legal:
            raise ValueError("not this seat's turn")
        hand = view.hand.mask
        ph = view.phase
        legal = view.legal
        if ph is Phase.OFFER:
            return TAKE if in_meld_with(hand, view.discard_pile[-1]) else PASS
        if ph in (Phase.DRAW, Phase.FIFTIETH):
            top = view.discard_pile[-1]
            if DRAW_DISCARD in legal and in_meld_with(hand, top) and not taking_back(view, top):
                return DRAW_DISCARD
            return DRAW_STOCK if ph is Phase.DRAW else PASS
        if BIG_GIN in legal:
            return BIG_GIN
        cands, may_discard = _legal_discard_cards(view)
        # knock or gin at once when it can
        best_dw = 1000
        best_c = cands[0]
        for c in cands:
            v = min_deadwood_mask(hand & ~(1 << c))
            if v < best_dw or v == best_dw and POINTS[c] > POINTS[best_c]:
                best_dw, best_c = v, c
        if best_dw == 0 or (0 < best_dw <= view.knock_limit) or not may_discard:
            return _finish(view, best_c, hand & ~(1 << best_c), best_dw, None)
        arr = best_arrangement(CardSet(hand))
        loose = [c for c in arr.deadwood if c in cands]
        if not loose:
            loose = cands
        if ctx.rng.random() < self.slip:
            card = ctx.rng.choice(loose)
        else:
            top = max(POINTS[c] for c in loose)
            card = ctx.rng.choice([c for c in loose if POINTS[c] == top])
        return Action(ActionKind.DISCARD, card)


class MediumBot:
    """One-card lookahead on deadwood; knocks at once (see the module docstring)."""

    name = "medium"
    #: weight of the deadwood left now against the expected deadwood after the next draw.
    now_weight = 0.35
    #: points a face-up card must save over the average stock draw to be taken.
    take_margin = 1.5
    #: a face-up card that makes a meld with the hand: None, always taken; a number, taken only
    #: when it leaves fewer points of deadwood than the average stock draw less this margin (or
    #: lets the seat knock at once).
    meld_take_margin: float | None = None
    use_belief = False
    #: discards searched (the ones that leave the least deadwood now).
    shortlist = 4

    # --- overridable parts -------------------------------------------------------------------
    def draw_odds(self, know: Knowledge, p: dict[int, float] | None) -> list[tuple[int, float]]:
        """(card, weight) of the next stock card: unseen cards, weighted by 1 - P(opponent)."""
        if p is None:
            return [(u, 1.0) for u in bits(know.unseen)]
        return [(u, max(0.02, 1.0 - p.get(u, 0.0))) for u in bits(know.unseen)]

    def danger_weight(self, view: PlayerView, know: Knowledge) -> float:
        return 0.0

    def should_knock(self, view: PlayerView, ctx: Context, know: Knowledge, dw: int,
                     kept: int, p: dict[int, float] | None) -> tuple[bool, tuple[CardSet, ...] |
                                                                    None]:
        return True, None

    def take_to_knock(self, view: PlayerView, know: Knowledge, p: dict[int, float] | None,
                      ctx: Context | None, dw: int) -> bool:
        """Whether to take the face-up card that lets this seat knock at once with ``dw``
        points (R-4.2): ``medium`` always does (it knocks at once)."""
        return True

    # --- decisions -----------------------------------------------------------------------------
    def choose(self, view: PlayerView, ctx: Context) -> Action:
        if not view.legal:
            raise ValueError("not this seat's turn")
        know = read_view(view)
        return self.choose_known(view, ctx, know,
                                 opponent_belief(know) if self.use_belief else None)

    def choose_known(self, view: PlayerView, ctx: Context, know: Knowledge,
                     p: dict[int, float] | None) -> Action:
        """:meth:`choose` with the view's record already read: ``know`` is
        :func:`~ginrummy.bots.knowledge.read_view` of ``view`` and ``p`` its
        :func:`~ginrummy.bots.knowledge.opponent_belief` (None unless ``use_belief``), neither
        changed here; the expert, which reads them for its own search, anchors on this bot's
        move without reading them twice."""
        ph = view.phase
        if ph is Phase.OFFER:
            return TAKE if self._want_top(view, know, p, ctx) else PASS
        if ph is Phase.DRAW:
            if DRAW_DISCARD in view.legal and self._want_top(view, know, p, ctx):
                return DRAW_DISCARD
            return DRAW_STOCK
        if ph is Phase.FIFTIETH:
            return DRAW_DISCARD if DRAW_DISCARD in view.legal else PASS
        return self._discard(view, ctx, know, p)

    def _want_top(self, view: PlayerView, know: Knowledge, p: dict[int, float] | None,
                  ctx: Context | None = None) -> bool:
        hand = view.hand.mask
        top = view.discard_pile[-1]
        if top in know.my_discards:
            return False  # never take back a card thrown this deal: no endless exchanges
        meld = in_meld_with(hand, top)
        if meld and self.meld_take_margin is None:
            return True
        with_top = hand | 1 << top
        take_dw = 1000
        m = hand
        while m:
            low = m & -m
            m ^= low
            v = min_deadwood_mask(with_top ^ low)
            take_dw = min(take_dw, v)
        if take_dw <= view.knock_limit:
            return meld or self.take_to_knock(view, know, p, ctx, take_dw)
        if take_dw >= min_deadwood_mask(hand):
            return False  # it saves nothing now; the stock draw is never worse on average
        stock_dw = expected_after_draw(hand, self.draw_odds(know, p))
        if meld:
            assert self.meld_take_margin is not None
            return take_dw < stock_dw - self.meld_take_margin
        return take_dw < stock_dw - self.take_margin

    def _discard(self, view: PlayerView, ctx: Context, know: Knowledge,
                 p: dict[int, float] | None) -> Action:
        legal = view.legal
        if BIG_GIN in legal:
            return BIG_GIN
        hand = view.hand.mask
        cands, may_discard = _legal_discard_cards(view)
        now = {c: min_deadwood_mask(hand & ~(1 << c)) for c in cands}
        best_now = min(now.values())
        gin = [c for c in cands if now[c] == 0]
        if gin:
            return Action(ActionKind.GIN, max(gin, key=lambda c: (POINTS[c], c)))
        if 0 < best_now <= view.knock_limit:
            kc = max((c for c in cands if now[c] == best_now), key=lambda c: (POINTS[c], c))
            kept = hand & ~(1 << kc)
            ok, melds = self.should_knock(view, ctx, know, best_now, kept, p)
            if ok or not may_discard:
                return Action(ActionKind.KNOCK, kc, melds=melds)
        odds = self.draw_odds(know, p)
        dweight = self.danger_weight(view, know)
        scored = []
        shortlist = sorted(cands, key=lambda c: (now[c], -POINTS[c]))[:self.shortlist]
        for c in shortlist:
            kept = hand & ~(1 << c)
            s = self.now_weight * now[c] + (1 - self.now_weight) * expected_after_draw(kept, odds)
            if dweight and p is not None:
                s += dweight * discard_danger(c, p, know.opp_known)
            scored.append((s, -POINTS[c], c))
        scored.sort()
        card = scored[0][2]
        return Action(ActionKind.DISCARD, card)


#: names of :func:`knock_features`, in order.
KNOCK_FEATURES = ("bias", "dw", "opp_draws", "dw_x_opp_draws", "undercut_risk", "stock_low",
                  "my_score", "their_score")


def knock_features(dw: int, opp_draws: int, stock: int, mine: int, theirs: int, target: int,
                   risk: float) -> tuple[float, ...]:
    """The knock-or-continue features of :attr:`HardBot.knock_weights` (names in
    :data:`KNOCK_FEATURES`): deadwood of the knock (points / 10), the opponent's draws (/ 10,
    at most 1.6), their product, ``hard``'s estimated undercut chance, whether the stock holds
    4 cards or fewer, and the two game scores as shares of the target."""
    t = min(opp_draws, 16) / 10.0
    d = dw / 10.0
    return (1.0, d, t, d * t, risk, 1.0 if stock <= 4 else 0.0, mine / target, theirs / target)


class HardBot(MediumBot):
    """Opponent modelling, discard danger, undercut-aware knocking (see the module docstring)."""

    name = "hard"
    use_belief = True
    #: points of expected cost per unit of discard danger, by stage.
    danger_points = 7.0
    #: a face-up card that makes a meld is taken only when it leaves less deadwood than the
    #: average stock draw (or lets it knock at once): the review graded hard's takes that leave
    #: more as its costliest draws, and on the same 4,000 games (eaai, seed 2026) the rule wins
    #: 1.7 points more against simple (CI +0.6..+2.7) and 1.1 more against medium (CI
    #: +0.2..+2.0) than taking every such card (benchmarks/results/review-2026-12-06b.md).
    meld_take_margin: float | None = 0.0
    #: knock when the estimated undercut chance is at most this.
    max_undercut = 0.28
    #: after the opponent's ``early_draws``-th draw, knock only with at most ``late_max`` points.
    early_draws = 5
    late_max = 5
    #: the learned knock rule (None: the two rules above instead): knock when the weights' dot
    #: product with :func:`knock_features` is positive. A logistic regression of ``expert``'s
    #: own knock-or-continue decisions against ``simple`` (``benchmarks/bots.py knock-log``,
    #: 160 games of seed 99, 1,188 decisions; ``fit-knock``); it agrees with the expert on 87.4%
    #: of 2,946 fresh decisions (seed 98), the old rules on about 60%.
    knock_weights: tuple[float, ...] | None = (0.817, 1.74, -4.429, -2.774, -1.493, 0.99,
                                               1.038, -0.826)

    def danger_weight(self, view: PlayerView, know: Knowledge) -> float:
        return self.danger_points * (0.6 if know.opp_draws < 3 else 1.0)

    def learned_knock(self, view: PlayerView, hand_points: tuple[int, int] | None, target: int,
                      opp_draws: int, dw: int, risk: float) -> bool:
        """Whether the learned rule (``knock_weights``, not None) knocks with ``dw`` points of
        deadwood (R-4.2) at ``view``'s moment, the opponent having drawn ``opp_draws`` times and
        the estimated undercut chance being ``risk``; ``hand_points`` by seat (None: 0 each)."""
        assert self.knock_weights is not None
        hp = hand_points if hand_points is not None else (0, 0)
        x = knock_features(dw, opp_draws, view.stock_count, hp[view.seat], hp[1 - view.seat],
                           target, risk)
        return sum(w * f for w, f in zip(self.knock_weights, x, strict=True)) > 0.0

    @staticmethod
    def knock_worth(view: PlayerView, opp_draws: int, dw: int, exposure: float) -> float:
        """Expected hand points of knocking now with ``dw`` points of deadwood and a spread of
        layoff ``exposure`` (:func:`knock_expectation` under ``view``'s rules)."""
        rules = view.rules
        return knock_expectation(dw, opp_draws, exposure, rules.undercut_bonus,
                                 rules.undercut_on_tie)

    def choose_known(self, view: PlayerView, ctx: Context, know: Knowledge,
                     p: dict[int, float] | None) -> Action:
        if view.phase is Phase.FIFTIETH and DRAW_DISCARD in view.legal:
            return DRAW_DISCARD if self._take_fiftieth(view) else PASS
        return super().choose_known(view, ctx, know, p)

    def _take_fiftieth(self, view: PlayerView) -> bool:
        """R-8.2: take the last discard (then knock or go gin at once) only when that beats the
        dead hand that passing gives: a gin, or a knock worth more than 0 points on average."""
        top = view.discard_pile[-1]
        hand = view.hand.mask | 1 << top
        cards = bits(view.hand.mask)
        now = {c: min_deadwood_mask(hand & ~(1 << c)) for c in cards}
        dw = min(now.values())
        if dw == 0:
            return True
        know = read_view(view)
        p = opponent_belief(know)
        kc = max((c for c in cards if now[c] == dw), key=lambda c: (POINTS[c], c))
        kept = hand & ~(1 << kc)
        exposure = min(layoff_exposure(a, p, know.opp_known) for a in min_spreads(kept, dw))
        return self.knock_worth(view, know.opp_draws, dw, exposure) > 0.0

    def take_to_knock(self, view: PlayerView, know: Knowledge, p: dict[int, float] | None,
                      ctx: Context | None, dw: int) -> bool:
        """Take the face-up card that lets it knock with ``dw`` points only when its own knock
        rule (:meth:`knock_now`) would knock with that hand now (the spread of the fewest
        expected layoffs after the best discard; R-3.6: not the taken card): a card taken for
        a knock it will not make improves the deadwood only, shows the opponent what it keeps,
        and gives up a stock card's chance at gin."""
        assert p is not None
        top = view.discard_pile[-1]
        hand = view.hand.mask | 1 << top
        best = min((c for c in bits(view.hand.mask)),
                   key=lambda c: (min_deadwood_mask(hand & ~(1 << c)), -POINTS[c], c))
        kept = hand & ~(1 << best)
        exposure = min(layoff_exposure(a, p, know.opp_known) for a in min_spreads(kept, dw))
        hp = ctx.hand_points if ctx is not None else None
        target = ctx.target if ctx is not None else 100
        return self.knock_now(view, hp, target, know.opp_draws, dw, exposure)

    def knock_now(self, view: PlayerView, hand_points: tuple[int, int] | None, target: int,
                  opp_draws: int, dw: int, exposure: float) -> bool:
        """``hard``'s knock-or-continue rule: whether it knocks with ``dw`` points of deadwood
        (R-4.2) at ``view``'s moment, showing a spread of layoff ``exposure``, the opponent
        having drawn ``opp_draws`` times; ``hand_points`` by seat (None: 0 each), ``target``
        the game's.

        At its last chance to knock in the deal (:func:`last_knock_chance`) the choice is a
        knock or a dead hand: it knocks when the knock is worth more than 0 points on average
        (:meth:`knock_worth`). Otherwise the learned rule (``knock_weights``) decides, or
        without it the undercut-risk and late rules."""
        if last_knock_chance(view):
            # playing on is worth a dead hand at most; neither rule below knows that (the
            # learned one waits for gin late in every deal: it would let the hand die)
            return self.knock_worth(view, opp_draws, dw, exposure) > 0.0
        risk = undercut_probability(dw, opp_draws, exposure)
        if self.knock_weights is not None:
            return self.learned_knock(view, hand_points, target, opp_draws, dw, risk)
        limit = self.max_undercut
        if hand_points is not None:
            mine = hand_points[view.seat]
            theirs = hand_points[1 - view.seat]
            if mine + 15 >= target:
                limit += 0.12  # a won knock probably ends the game
            if theirs + view.rules.undercut_bonus + 5 >= target:
                limit -= 0.1  # an undercut probably loses it
        if view.stock_count <= 4:
            limit += 0.2  # the hand is about to die: take what is there
        if risk > limit:
            return False
        # Later in the deal, a modest knock is worth less than staying low and waiting: an
        # opponent who knocks as soon as it can is then often undercut.
        return not (opp_draws > self.early_draws and dw > self.late_max
                    and view.stock_count > 4)

    def should_knock(self, view: PlayerView, ctx: Context, know: Knowledge, dw: int,
                     kept: int, p: dict[int, float] | None) -> tuple[bool, tuple[CardSet, ...] |
                                                                    None]:
        assert p is not None
        arrs = min_spreads(kept, dw)
        scored = [(layoff_exposure(a, p, know.opp_known), i) for i, a in enumerate(arrs)]
        exposure, idx = min(scored)
        melds = tuple(CardSet(m) for m in arrs[idx])
        return self.knock_now(view, ctx.hand_points, ctx.target, know.opp_draws, dw,
                              exposure), melds
