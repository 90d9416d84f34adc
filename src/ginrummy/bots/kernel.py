"""A lean rollout simulator on int masks for the ``expert`` search (compiled with numba when it is
installed; the same code runs as plain Python otherwise, only much slower).

One deal is a handful of ints: the two hands as 52-bit masks (bit ``c`` = card ``c``, as in
:mod:`ginrummy.cards`), the stock as an array of cards read from ``stock_pos`` on, the discard
pile as an array with its length, and the phase. The rules follow RULES.md exactly where a rollout
can reach them: the first-turn offer and the forced stock draw (R-3.1, R-3.2), the taken card may
not be discarded (R-3.6), knocking and gin from 11 cards (R-1.6, R-4.x), big gin (R-5.3), the
defender's best layoffs with chains (R-6.x), scoring with undercuts and ties (R-7.x), the dead hand
at two stock cards and the fiftieth-card option (R-8.x), Oklahoma's doubled spade hands (O-4).
``tests/bots/test_kernel.py`` checks that a rollout and :class:`~ginrummy.hand.HandState` agree
action by action and on the outcome when fed the same deck.

The rollout policy of each seat is a few numbers (see :data:`POLICY_FIELDS`): take the face-up card
when it joins a meld (and optionally when it lets the seat knock at once), discard the card that
leaves the least deadwood (ties at random or toward the highest card), knock when the deadwood is
at most a threshold, and always go gin.

The compiled functions release the GIL (``nogil=True``; they touch no Python object), so a web
server's threads search for several games at once on several cores: 200 games against ``expert``
on one server process (benchmarks/load.py, 2026-12-02, quiet machine, two alternating pairs)
answered at p99 190 / 321 ms with the GIL released against 414 / 1,224 ms holding it.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from ..cards import POINTS as _POINTS
from ..melds import _RUN_DW, _RUN_MELDS


def _writable(path: Path) -> bool:
    """True when ``path`` (or, if it does not exist yet, its nearest existing parent) can be
    written by this process."""
    p = path
    while not p.exists() and p.parent != p:
        p = p.parent
    return os.access(p, os.W_OK)


def needs_cache_fallback(env: dict[str, str], package_dir: Path, user_cache: Path,
                         writable: Callable[[Path], bool] = _writable) -> bool:
    """Whether numba would find no writable place for the compiled kernel.

    numba caches in ``$NUMBA_CACHE_DIR`` when set, else next to this file
    (``package_dir/__pycache__``), else in the user's cache directory (``user_cache``,
    ``~/.cache/numba`` on Linux); when none of them is writable (a read-only install run by a
    user without a home) it refuses to compile ``cache=True`` functions at all."""
    if env.get("NUMBA_CACHE_DIR"):
        return False
    return not (writable(package_dir / "__pycache__") or writable(user_cache))


def _ensure_cache_dir() -> None:
    """When :func:`needs_cache_fallback`, point numba at a new private temporary directory
    (mode 0700, this process and its children only: a shared one could be filled by another
    user), before the first ``@njit(cache=True)`` below. The kernel then compiles at each start
    (10-30 s) instead of failing."""
    import numba.core.config
    import platformdirs

    if needs_cache_fallback(dict(os.environ), Path(__file__).parent,
                            Path(platformdirs.user_cache_dir("numba", appauthor=False))):
        d = tempfile.mkdtemp(prefix="ginrummy-numba-")
        os.environ["NUMBA_CACHE_DIR"] = d  # inherited by worker processes
        numba.core.config.CACHE_DIR = d  # type: ignore[attr-defined]  # read at numba import


try:  # pragma: no cover - exercised by whichever is installed
    from numba import njit as _njit

    _ensure_cache_dir()

    HAVE_NUMBA = True
except ImportError:  # pragma: no cover
    HAVE_NUMBA = False

    def _njit(*args: Any, **kwargs: Any) -> Any:  # type: ignore[no-redef]
        if args and callable(args[0]):
            return args[0]
        return lambda f: f

#: numba's ``njit`` (a no-op without numba), for the bots' other compiled helpers
#: (:func:`ginrummy.bots.value.three_player_tables`).
njit = _njit

__all__ = ["HAVE_NUMBA", "njit", "rollout", "search", "min_dw", "discard_fit", "OFFER", "DRAW",
           "DISCARD", "DONE",
           "K_TAKE", "K_PASS", "K_STOCK", "K_DISCARD", "K_KNOCK", "K_GIN", "K_BIG_GIN",
           "R_KNOCK", "R_GIN", "R_BIG_GIN", "R_UNDERCUT", "R_TIE", "R_DEAD", "RESULT_NAMES",
           "POLICY_FIELDS", "make_rules", "make_policy", "warmup", "evolve_hands"]

LANE = 0x1FFF
RUN_DW = np.array(_RUN_DW, dtype=np.int64)
RUN_MELDS = np.zeros((8192, 4), dtype=np.int64)
for _lane, _runs in enumerate(_RUN_MELDS):
    for _i, _r in enumerate(_runs):
        RUN_MELDS[_lane, _i] = _r
PTS = np.array(_POINTS, dtype=np.int64)
POP13 = np.array([bin(i).count("1") for i in range(8192)], dtype=np.int64)
LOW13 = np.array([((i & -i).bit_length() - 1) if i else -1 for i in range(8192)], dtype=np.int64)
HIGH13 = np.array([i.bit_length() - 1 for i in range(8192)], dtype=np.int64)
COL = 1 | 1 << 13 | 1 << 26 | 1 << 39

# phases
OFFER, DRAW, DISCARD, DONE = 0, 1, 2, 3
# action kinds (trace and search candidates)
K_TAKE, K_PASS, K_STOCK, K_DISCARD, K_KNOCK, K_GIN, K_BIG_GIN = 0, 1, 2, 3, 4, 5, 6
# results
R_KNOCK, R_GIN, R_BIG_GIN, R_UNDERCUT, R_TIE, R_DEAD = 0, 1, 2, 3, 4, 5
RESULT_NAMES = ("knock", "gin", "big_gin", "undercut", "tie", "dead")
#: a rollout longer than this (only possible when both seats keep taking each other's discards,
#: which the engine allows) ends as a dead hand with knocker -2.
MAX_STEPS = 400

#: rules vector: knock limit of the deal, gin bonus, undercut bonus, undercut on tie (0/1),
#: big gin bonus (-1 = off), spade double (0/1), fiftieth-card rule (0/1)
RULE_FIELDS = ("knock_limit", "gin_bonus", "undercut_bonus", "undercut_on_tie", "big_gin_bonus",
               "spade_double", "fiftieth")
#: per-seat policy vector: take rule (0 = meld only, 1 = meld or a knock at once), tie rule
#: (0 = random among the least deadwood, 1 = highest card), knock threshold (points)
POLICY_FIELDS = ("take_rule", "tie_rule", "knock_max")


def make_rules(knock_limit: int, gin_bonus: int, undercut_bonus: int, undercut_on_tie: bool,
               big_gin_bonus: int | None, spade_double: bool, fiftieth: bool) -> np.ndarray:
    return np.array([knock_limit, gin_bonus, undercut_bonus, int(undercut_on_tie),
                     -1 if big_gin_bonus is None else big_gin_bonus, int(spade_double),
                     int(fiftieth)], dtype=np.int64)


def make_policy(seat0: tuple[int, int, int], seat1: tuple[int, int, int]) -> np.ndarray:
    return np.array([list(seat0), list(seat1)], dtype=np.int64)


# ------------------------------------------------------------------------------ random numbers
@_njit(cache=True, nogil=True)
def _rand(state: np.ndarray) -> int:  # pragma: no cover - compiled
    """A 63-bit linear congruential generator (the same numbers compiled or not): the next
    31-bit random int; ``state`` is an int64 array of one."""
    x = (int(state[0]) * 6364136223846793005 + 1442695040888963407) & 0x7FFFFFFFFFFFFFFF
    state[0] = x
    return (x >> 32) & 0x7FFFFFFF


# ------------------------------------------------------------------------------ deadwood
@_njit(cache=True, nogil=True)
def _lanes_dw(m: int) -> int:  # pragma: no cover - compiled
    return int(RUN_DW[m & LANE] + RUN_DW[(m >> 13) & LANE] + RUN_DW[(m >> 26) & LANE]
               + RUN_DW[(m >> 39) & LANE])


@_njit(cache=True, nogil=True)
def popcount(m: int) -> int:  # pragma: no cover - compiled
    return int(POP13[m & LANE] + POP13[(m >> 13) & LANE] + POP13[(m >> 26) & LANE]
               + POP13[(m >> 39) & LANE])


@_njit(cache=True, nogil=True)
def _set_opt(mask: int, r: int, cnt: int, i: int) -> int:  # pragma: no cover - compiled
    """Option ``i`` of the set choices at rank ``r``: 0 none, 1 the whole set, 2..5 the 3-card
    set without suit i-2 (only for a 4-of-a-kind)."""
    if i == 0:
        return 0
    col = mask & (COL << r)
    if i == 1:
        return col
    return col & ~(1 << (13 * (i - 2) + r))


@_njit(cache=True, nogil=True)
def _multi_ranks(mask: int) -> tuple[int, int]:  # pragma: no cover - compiled
    """13-bit masks of the ranks held at least three times, and of those held four times."""
    a = mask & LANE
    b = (mask >> 13) & LANE
    c = (mask >> 26) & LANE
    d = (mask >> 39) & LANE
    ab = a & b
    cd = c & d
    return (ab & (c | d)) | (cd & (a | b)), ab & cd


@_njit(cache=True, nogil=True)
def min_dw(mask: int) -> int:  # pragma: no cover - compiled
    """Minimum deadwood of the cards in ``mask`` (R-1.5); at most three ranks may be held 3+
    times (true of any hand of up to 11 cards)."""
    multi, four = _multi_ranks(mask)
    if multi == 0:
        return _lanes_dw(mask)
    r0 = LOW13[multi]
    multi &= multi - 1
    r1 = LOW13[multi] if multi else -1
    if multi:
        multi &= multi - 1
    r2 = LOW13[multi] if multi else -1
    c0 = 4 if (four >> r0) & 1 else 3
    c1 = 4 if r1 >= 0 and (four >> r1) & 1 else 3
    c2 = 4 if r2 >= 0 and (four >> r2) & 1 else 3
    n0 = 2 if c0 == 3 else 6
    n1 = 1 if r1 < 0 else (2 if c1 == 3 else 6)
    n2 = 1 if r2 < 0 else (2 if c2 == 3 else 6)
    best = 1000
    for i in range(n0):
        m0 = mask & ~_set_opt(mask, r0, c0, i)
        for j in range(n1):
            m1 = m0
            if r1 >= 0:
                m1 = m0 & ~_set_opt(mask, r1, c1, j)
            for k in range(n2):
                m2 = m1
                if r2 >= 0:
                    m2 = m1 & ~_set_opt(mask, r2, c2, k)
                v = _lanes_dw(m2)
                if v < best:
                    best = v
    return best


@_njit(cache=True, nogil=True)
def _arrangement(mask: int, out: np.ndarray) -> int:  # pragma: no cover - compiled
    """One minimum-deadwood arrangement of ``mask``: its melds into ``out``; returns how many."""
    target = min_dw(mask)
    multi, four = _multi_ranks(mask)
    r0 = LOW13[multi] if multi else -1
    if multi:
        multi &= multi - 1
    r1 = LOW13[multi] if multi else -1
    if multi:
        multi &= multi - 1
    r2 = LOW13[multi] if multi else -1
    c0 = 4 if r0 >= 0 and (four >> r0) & 1 else 3
    c1 = 4 if r1 >= 0 and (four >> r1) & 1 else 3
    c2 = 4 if r2 >= 0 and (four >> r2) & 1 else 3
    n0 = 1 if r0 < 0 else (2 if c0 == 3 else 6)
    n1 = 1 if r1 < 0 else (2 if c1 == 3 else 6)
    n2 = 1 if r2 < 0 else (2 if c2 == 3 else 6)
    for i in range(n0):
        s0 = _set_opt(mask, r0, c0, i) if r0 >= 0 else 0
        for j in range(n1):
            s1 = _set_opt(mask, r1, c1, j) if r1 >= 0 else 0
            for k in range(n2):
                s2 = _set_opt(mask, r2, c2, k) if r2 >= 0 else 0
                m = mask & ~s0 & ~s1 & ~s2
                if _lanes_dw(m) == target:
                    n = 0
                    if s0:
                        out[n] = s0
                        n += 1
                    if s1:
                        out[n] = s1
                        n += 1
                    if s2:
                        out[n] = s2
                        n += 1
                    for s in range(4):
                        lane = (m >> (13 * s)) & LANE
                        for q in range(4):
                            run = RUN_MELDS[lane, q]
                            if run:
                                out[n] = run << (13 * s)
                                n += 1
                    return n
    return 0


@_njit(cache=True, nogil=True)
def _in_meld_with(hand: int, c: int) -> bool:  # pragma: no cover - compiled
    r = c % 13
    same = 0
    for s in range(4):
        x = 13 * s + r
        if x != c and (hand >> x) & 1:
            same += 1
    if same >= 2:
        return True
    lo = c - r
    run = 0
    x = c - 1
    while x >= lo and (hand >> x) & 1:
        run += 1
        x -= 1
    x = c + 1
    while x < lo + 13 and (hand >> x) & 1:
        run += 1
        x += 1
    return run >= 2


@_njit(cache=True, nogil=True)
def _best_discard(hand: int, forbidden: int, tie_rule: int, rng: np.ndarray) -> tuple[int, int]:
    """(least 10-card deadwood, a card that leaves it) over the cards of ``hand`` except
    ``forbidden`` (-1 = none). Ties: random (0) or highest card (1), then random."""
    best = 1000
    card = -1
    nties = 0
    m = hand
    while m:
        low = m & -m
        m ^= low
        c = _bit_index(low)
        if c == forbidden:
            continue
        v = min_dw(hand ^ low)
        if v < best:
            best = v
            card = c
            nties = 1
        elif v == best:
            if tie_rule == 1:
                if PTS[c] > PTS[card]:
                    card = c
                    nties = 1
                    continue
                if PTS[c] < PTS[card]:
                    continue
            nties += 1
            if _rand(rng) % nties == 0:
                card = c
    return best, card


@_njit(cache=True, nogil=True)
def _bit_index(m: int) -> int:  # pragma: no cover - compiled
    """Index of the highest set bit of ``m`` > 0 (for a single bit: its card)."""
    for s in range(3, -1, -1):
        lane = (m >> (13 * s)) & LANE
        if lane:
            return int(13 * s + HIGH13[lane])
    return -1


@_njit(cache=True, nogil=True)
def _defender_deadwood(defn: int, kmelds: np.ndarray, nk: int) -> int:  # pragma: no cover
    """The defender's least deadwood over its layoffs onto the knocker's melds (R-6.x)."""
    opts = np.zeros((4, 64), dtype=np.int64)
    nopt = np.zeros(4, dtype=np.int64)
    for i in range(nk):
        mm = kmelds[i]
        low = _bit_index(mm & -mm)
        r = low % 13
        is_set = (mm & ~(COL << r)) == 0
        nopt[i] = 1
        opts[i, 0] = 0
        if is_set:
            if popcount(mm) == 3:
                miss = (COL << r) & ~mm
                if defn & miss:
                    opts[i, 1] = miss
                    nopt[i] = 2
            continue
        hb = _bit_index(mm)  # the highest card of the run
        base = low - r
        downs = np.zeros(14, dtype=np.int64)
        nd = 1
        acc = 0
        c = low - 1
        while c >= base and (defn >> c) & 1:
            acc |= 1 << c
            downs[nd] = acc
            nd += 1
            c -= 1
        ups = np.zeros(14, dtype=np.int64)
        nu = 1
        acc = 0
        c = hb + 1
        while c < base + 13 and (defn >> c) & 1:
            acc |= 1 << c
            ups[nu] = acc
            nu += 1
            c += 1
        k = 0
        for a in range(nd):
            for b in range(nu):
                if k < 64:
                    opts[i, k] = downs[a] | ups[b]
                    k += 1
        nopt[i] = k
    best = 1000
    idx = np.zeros(4, dtype=np.int64)
    while True:
        laid = 0
        ok = True
        for i in range(nk):
            o = opts[i, idx[i]]
            if laid & o:
                ok = False
                break
            laid |= o
        if ok:
            v = min_dw(defn & ~laid)
            if v < best:
                best = v
        # next combination
        i = 0
        while i < nk:
            idx[i] += 1
            if idx[i] < nopt[i]:
                break
            idx[i] = 0
            i += 1
        if i >= nk:
            break
    return best


@_njit(cache=True, nogil=True)
def _showdown(knocker: int, kept: int, defn: int, big: bool, rules: np.ndarray,
              kmelds: np.ndarray, nk: int) -> tuple[int, int, int]:  # pragma: no cover
    """(result kind, winner seat or -1, points) of a knock, gin or big gin by ``knocker``
    showing ``kmelds`` over ``kept`` (R-5.x, R-6.x, R-7.x, O-4)."""
    used = 0
    for i in range(nk):
        used |= kmelds[i]
    k = 0
    dead = kept & ~used
    while dead:
        low = dead & -dead
        dead ^= low
        k += PTS[_bit_index(low)]
    if big:
        d = min_dw(defn)
        kind = R_BIG_GIN
        winner = knocker
        pts = d + rules[4]
    elif k == 0:
        d = min_dw(defn)
        kind = R_GIN
        winner = knocker
        pts = d + rules[1]
    else:
        d = _defender_deadwood(defn, kmelds, nk)
        if k < d:
            kind = R_KNOCK
            winner = knocker
            pts = d - k
        elif k > d or rules[3] == 1:
            kind = R_UNDERCUT
            winner = 1 - knocker
            pts = k - d + rules[2]
        else:
            return R_TIE, -1, 0
    if rules[5] == 1:
        pts *= 2
    return kind, winner, pts


@_njit(cache=True, nogil=True)
def _record(trace: np.ndarray, nt: int, seat: int, kind: int, card: int) -> int:  # pragma: no cover
    if nt < trace.shape[0]:
        trace[nt, 0] = seat
        trace[nt, 1] = kind
        trace[nt, 2] = card
    return nt + 1


@_njit(cache=True, nogil=True)
def rollout(hands: np.ndarray, stock: np.ndarray, stock_pos: int, pile: np.ndarray,
            pile_len: int, phase: int, cur: int, dealer: int, offer_passes: int, forced: int,
            taken: int, rules: np.ndarray, policy: np.ndarray, rng: np.ndarray,
            trace: np.ndarray, kmelds: np.ndarray) -> tuple[int, int, int, int, int]:
    """Play the deal to its end with the policies; ``hands`` and ``pile`` are modified.

    ``stock[stock_pos:]`` is the stock, top first. Returns (result kind, winner or -1, points,
    knocker or -1 (-2: cut off after MAX_STEPS), actions traced). When ``trace`` has rows,
    each action is written as (seat,
    kind, card) and a knock's melds are left in ``kmelds`` (a zero ends them).
    """
    limit = rules[0]
    nt = 0
    steps = 0
    while True:
        steps += 1
        if steps > MAX_STEPS:  # both seats keep trading face-up cards: call the deal dead
            return R_DEAD, -1, 0, -2, nt
        if phase == OFFER:
            top = pile[pile_len - 1]
            if _in_meld_with(hands[cur], top):
                pile_len -= 1
                hands[cur] |= 1 << top
                taken = top
                phase = DISCARD
                nt = _record(trace, nt, cur, K_TAKE, top)
            else:
                nt = _record(trace, nt, cur, K_PASS, -1)
                offer_passes += 1
                if offer_passes == 1:
                    cur = dealer
                else:
                    cur = 1 - dealer
                    phase = DRAW
                    forced = 1
        elif phase == DRAW:
            take = False
            if forced == 0 and pile_len > 0:
                top = pile[pile_len - 1]
                if _in_meld_with(hands[cur], top):
                    take = True
                elif policy[cur, 0] == 1:
                    dw, _c = _best_discard(hands[cur] | (1 << top), top, 1, rng)
                    take = dw <= limit and dw <= policy[cur, 2]
            if take:
                top = pile[pile_len - 1]
                pile_len -= 1
                hands[cur] |= 1 << top
                taken = top
                nt = _record(trace, nt, cur, K_TAKE, top)
            else:
                c = stock[stock_pos]
                stock_pos += 1
                hands[cur] |= 1 << c
                taken = -1
                nt = _record(trace, nt, cur, K_STOCK, c)
            forced = 0
            phase = DISCARD
        else:  # DISCARD
            h = hands[cur]
            if rules[4] >= 0 and min_dw(h) == 0:
                nt = _record(trace, nt, cur, K_BIG_GIN, -1)
                nk = _arrangement(h, kmelds)
                if nk < kmelds.shape[0]:
                    kmelds[nk] = 0
                kind, winner, pts = _showdown(cur, h, hands[1 - cur], True, rules, kmelds, nk)
                return kind, winner, pts, cur, nt
            dw, c = _best_discard(h, taken, policy[cur, 1], rng)
            if dw == 0 or (limit > 0 and dw <= limit and dw <= policy[cur, 2]):
                kept = h & ~(1 << c)
                nk = _arrangement(kept, kmelds)
                if nk < kmelds.shape[0]:
                    kmelds[nk] = 0
                nt = _record(trace, nt, cur, K_GIN if dw == 0 else K_KNOCK, c)
                kind, winner, pts = _showdown(cur, kept, hands[1 - cur], False, rules, kmelds,
                                              nk)
                return kind, winner, pts, cur, nt
            hands[cur] = h & ~(1 << c)
            pile[pile_len] = c
            pile_len += 1
            nt = _record(trace, nt, cur, K_DISCARD, c)
            taken = -1
            cur = 1 - cur
            phase = DRAW
            if stock.shape[0] - stock_pos <= 2:
                if rules[6] == 0:
                    return R_DEAD, -1, 0, -1, nt
                # the other seat may take the last discard only to knock or go gin
                top = pile[pile_len - 1]
                h2 = hands[cur] | (1 << top)
                dw2, c2 = _best_discard(h2, top, policy[cur, 1], rng)
                if dw2 == 0 or (limit > 0 and dw2 <= limit):
                    pile_len -= 1
                    nt = _record(trace, nt, cur, K_TAKE, top)
                    kept = h2 & ~(1 << c2)
                    nk = _arrangement(kept, kmelds)
                    if nk < kmelds.shape[0]:
                        kmelds[nk] = 0
                    nt = _record(trace, nt, cur, K_GIN if dw2 == 0 else K_KNOCK, c2)
                    kind, winner, pts = _showdown(cur, kept, hands[1 - cur], False, rules,
                                                  kmelds, nk)
                    return kind, winner, pts, cur, nt
                nt = _record(trace, nt, cur, K_PASS, -1)
                return R_DEAD, -1, 0, -1, nt


@_njit(cache=True, nogil=True)
def search(me: int, my_hand: int, opp_hands: np.ndarray, stocks: np.ndarray, pile: np.ndarray,
           pile_len: int, phase: int, dealer: int, offer_passes: int, forced: int, taken: int,
           cand_kind: np.ndarray, cand_card: np.ndarray, rules: np.ndarray,
           policy: np.ndarray, seed: int) -> np.ndarray:  # pragma: no cover - compiled
    """Signed points (+ ``me`` scores, - the opponent scores) of each candidate action (rows) in
    each sampled world (columns: an opponent hand and a stock order), rolled out with the
    policies. Candidates share each world's random numbers (common random numbers)."""
    nc = cand_kind.shape[0]
    nw = opp_hands.shape[0]
    out = np.zeros((nc, nw), dtype=np.int64)
    hands = np.zeros(2, dtype=np.int64)
    pl = np.zeros(64, dtype=np.int64)
    rng = np.zeros(1, dtype=np.int64)
    trace = np.zeros((0, 3), dtype=np.int64)
    kmelds = np.zeros(5, dtype=np.int64)
    opp = 1 - me
    limit = rules[0]
    for w in range(nw):
        stock = stocks[w]
        for ci in range(nc):
            hands[me] = my_hand
            hands[opp] = opp_hands[w]
            for i in range(pile_len):
                pl[i] = pile[i]
            plen = pile_len
            rng[0] = (seed * 1000003 + w * 7919 + 12345) | 1
            kind = cand_kind[ci]
            card = cand_card[ci]
            ph = phase
            cur = me
            op = offer_passes
            fo = forced
            tk = taken
            spos = 0
            res_kind = -1
            winner = -1
            pts = 0
            if kind == K_TAKE:
                top = pl[plen - 1]
                plen -= 1
                hands[me] |= 1 << top
                tk = top
                ph = DISCARD
                fo = 0
            elif kind == K_PASS:
                op += 1
                if op == 1:
                    cur = dealer
                else:
                    cur = 1 - dealer
                    ph = DRAW
                    fo = 1
            elif kind == K_STOCK:
                c = stock[spos]
                spos += 1
                hands[me] |= 1 << c
                tk = -1
                ph = DISCARD
                fo = 0
            elif kind == K_DISCARD:
                hands[me] &= ~(1 << card)
                pl[plen] = card
                plen += 1
                tk = -1
                cur = opp
                ph = DRAW
                fo = 0
                if stock.shape[0] - spos <= 2:
                    if rules[6] == 0:
                        res_kind = R_DEAD
                    else:
                        h2 = hands[opp] | (1 << card)
                        dw2, c2 = _best_discard(h2, card, policy[opp, 1], rng)
                        if dw2 == 0 or (limit > 0 and dw2 <= limit):
                            kept = h2 & ~(1 << c2)
                            nk = _arrangement(kept, kmelds)
                            res_kind, winner, pts = _showdown(opp, kept, hands[me], False,
                                                              rules, kmelds, nk)
                        else:
                            res_kind = R_DEAD
            elif kind in (K_KNOCK, K_GIN):
                kept = hands[me] & ~(1 << card)
                nk = _arrangement(kept, kmelds)
                res_kind, winner, pts = _showdown(me, kept, hands[opp], False, rules, kmelds, nk)
            elif kind == K_BIG_GIN:
                nk = _arrangement(hands[me], kmelds)
                res_kind, winner, pts = _showdown(me, hands[me], hands[opp], True, rules, kmelds,
                                                  nk)
            if res_kind < 0:
                res_kind, winner, pts, _k, _n = rollout(hands, stock, spos, pl, plen, ph, cur,
                                                        dealer, op, fo, tk, rules, policy, rng,
                                                        trace, kmelds)
            if winner == me:
                out[ci, w] = pts
            elif winner == opp:
                out[ci, w] = -pts
    return out


def warmup() -> float:
    """Compile (or load from numba's cache) every kernel function; returns the seconds spent."""
    import time

    t0 = time.perf_counter()
    rng_deck = np.random.default_rng(0)
    deck = rng_deck.permutation(52).astype(np.int64)
    hands = np.zeros(2, dtype=np.int64)
    for i in range(20):
        hands[1 - (i % 2)] |= 1 << int(deck[i])
    pile = np.zeros(64, dtype=np.int64)
    pile[0] = deck[20]
    rules = make_rules(10, 25, 25, True, None, False, False)
    policy = make_policy((1, 1, 10), (0, 0, 10))
    rollout(hands, deck[21:].copy(), 0, pile, 1, OFFER, 0, 1, 0, 0, -1, rules, policy,
            np.array([7], dtype=np.int64), np.zeros((200, 3), dtype=np.int64),
            np.zeros(5, dtype=np.int64))
    search(0, int(hands[0]), np.array([int(hands[1])], dtype=np.int64),
           deck[21:].copy().reshape(1, -1), pile, 1, OFFER, 1, 0, 0, -1,
           np.array([K_TAKE, K_PASS], dtype=np.int64), np.array([-1, -1], dtype=np.int64),
           rules, policy, 1)
    evolve_hands(np.array([int(hands[1])], dtype=np.int64), deck[21:].copy().reshape(1, -1), 31,
                 0, 2, 1, -1)
    discard_fit(np.array([int(hands[1])], dtype=np.int64), int(deck[20]), -1,
                np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int64))
    return time.perf_counter() - t0


@_njit(cache=True, nogil=True)
def evolve_hands(hands: np.ndarray, pools: np.ndarray, pool_len: int, keep: int, steps: int,
                 seed: int, floor: int = -1) -> None:  # pragma: no cover - compiled
    """Make sampled opponent hands look played: ``steps`` times, each hand (``hands[w]``) draws a
    random card of its world's pool (``pools[w, :pool_len]``, the cards not in the hand) and throws
    away the card that leaves the least deadwood, never one of ``keep`` (cards it is known to
    hold). The thrown card goes back to the pool, whose order is then shuffled (the stock).
    A step that would bring the hand's deadwood to ``floor`` or less is skipped (an opponent who
    knocks at once cannot be sitting on a knock)."""
    rng = np.zeros(1, dtype=np.int64)
    for w in range(hands.shape[0]):
        rng[0] = (seed * 2654435761 + w * 40503 + 99991) | 1
        h = hands[w]
        for _s in range(steps):
            j = _rand(rng) % pool_len
            c = pools[w, j]
            h11 = h | (1 << c)
            best = 1000
            out = -1
            nties = 0
            m = h11 & ~keep
            while m:
                low = m & -m
                m ^= low
                v = min_dw(h11 ^ low)
                if v < best:
                    best = v
                    out = _bit_index(low)
                    nties = 1
                elif v == best:
                    nties += 1
                    if _rand(rng) % nties == 0:
                        out = _bit_index(low)
            if best <= floor:
                continue
            h = h11 & ~(1 << out)
            pools[w, j] = out
        hands[w] = h
        for i in range(pool_len - 1, 0, -1):  # Fisher-Yates: the stock order
            j = _rand(rng) % (i + 1)
            t = pools[w, i]
            pools[w, i] = pools[w, j]
            pools[w, j] = t


@_njit(cache=True, nogil=True)
def discard_fit(hands: np.ndarray, d: int, forbidden: int, regret: np.ndarray,
                dw: np.ndarray) -> None:  # pragma: no cover - compiled
    """How well each opponent hand explains its last discard ``d``: for ``hands[w]`` (its hand
    now, int64 mask), ``regret[w]`` = its deadwood now minus the least deadwood it could have kept
    from its 11 cards before the discard (``hands[w] | d``), throwing any card but ``forbidden``
    (the face-up card it took that turn, -1 = none); 0 when ``d`` was a least-deadwood discard (as
    ``simple`` plays, R-1.5). ``dw[w]``: that least deadwood (a knocker could have knocked when it
    is within the knock limit)."""
    rng = np.ones(1, dtype=np.int64)  # ties are not looked at: only the least deadwood
    for w in range(hands.shape[0]):
        h = hands[w]
        best, _card = _best_discard(h | (1 << d), forbidden, 1, rng)
        regret[w] = min_dw(h) - best
        dw[w] = best
