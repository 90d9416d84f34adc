"""Conformance of ``marjj`` to the MARJJ v5 Java (``aqib-a99/MARJJ``, ``MARJJ_v5-1.java``) and to
../shared/MARJJ.md: hand-worked positions for each rule, the expected decision derived by hand from
the Java's logic (the arithmetic is in the comments), quirks included.

Card ints are ``suit * 13 + rank`` with our suit order S, H, D, C (the Java's is C, H, S, D). Two
rules depend on the Java's order, not ours: a set's "next suit" in the layoff estimate (the Java's
``(id + 13) % 52``: C -> H -> S -> D -> C) and which of two equally estimated arrangements
selectSpread keeps (the first its breadth-first search of meld sets finds); ``TestJavaOrder``
works positions for both, and ``TestAgainstTheJavaSearch`` checks selectSpread against an
independent re-enactment of that search.
"""

from __future__ import annotations

import random

from ginrummy.actions import Action, ActionKind
from ginrummy.bots import Context, make_bot
from ginrummy.bots.marjj import (
    NEXT_SUIT,
    danger,
    discard_candidates,
    discard_scores,
    future_term,
    java_order,
    layoff_estimate,
    read_state,
    select_spread,
    wants_face_up,
)
from ginrummy.cards import FULL_DECK, POINTS, CardSet, card_text, parse_card, parse_cards
from ginrummy.hand import HandState, Phase
from ginrummy.rules import Rules
from ginrummy.views import view_of

EAAI = Rules.preset("eaai")


def m(text: str) -> int:
    """Mask of space-separated card texts."""
    return CardSet.parse(text).mask


def c(text: str) -> int:
    return parse_card(text)


def melds(*texts: str) -> set[int]:
    return {m(t) for t in texts}


def rig(nondealer: str, dealer: str, up: str, stock: str = "") -> HandState:
    """A deal with seat 0 dealing: seat 1 (non-dealer) gets ``nondealer``, seat 0 ``dealer``, then
    the upcard and the top of the stock in order; the rest of the stock ascending."""
    nd, de, st = parse_cards(nondealer), parse_cards(dealer), parse_cards(stock)
    assert len(nd) == len(de) == 10
    u = parse_card(up)
    used = set(nd) | set(de) | {u} | set(st)
    deck = [x for pair in zip(nd, de, strict=True) for x in pair] + [u] + st
    deck += [x for x in range(52) if x not in used]
    return HandState(EAAI, 0, deck)


def decide(h: HandState, seed: int = 0) -> Action:
    return make_bot("marjj").choose(view_of(h, h.current), Context(rng=random.Random(seed)))


# ----------------------------------------------------------------------------- danger table
class TestDanger:
    def test_no_information_hits_the_unavail_same_typo(self) -> None:
        # 7H, nothing about 5H 6H 8H 9H: run part 0. Rank: 7H itself is in the hand ->
        # unavailSame = 1, oppSame = 0 -> the typo branch (unavailSame == 1) adds +4. D = +4.
        assert danger(m("7H"), c("7H"), m("7H"), 0) == 4.0

    def test_run_bonus(self) -> None:
        # 6H and 8H seen: u-1 and u+1 unavailable -> -10 (no separate -5s). Rank +4. D = -6.
        assert danger(m("7H"), c("7H"), m("7H 6H 8H"), 0) == -6.0

    def test_two_away_bonus(self) -> None:
        # only 9H seen: u+2 -> -3; +4 -> D = 1.
        assert danger(m("7H"), c("7H"), m("7H 9H"), 0) == 1.0

    def test_opponent_run_penalty(self) -> None:
        # opponent took 6H and 8H: +20; unavail run part 0; rank +4 -> 24.
        assert danger(m("7H"), c("7H"), m("7H 6H 8H"), m("6H 8H")) == 24.0

    def test_opponent_and_unavail_mixed(self) -> None:
        # opponent took 8H (+5), 5H seen (u-2: -3); no run shape on either side; rank +4 -> 6.
        assert danger(m("7H"), c("7H"), m("7H 5H 8H"), m("8H")) == 6.0

    def test_queen_quirk_marks_plus_one(self) -> None:
        # QH (rank 11), nothing known. The +2 check (rank < 11 fails) sets unavail(+1) = True:
        # -5 for u+1; rank +4 -> D = -1 (without the quirk it would be +4).
        assert danger(m("QH"), c("QH"), m("QH"), 0) == -1.0
        # ... and with JH seen, u+1 (quirk) and u-1 make the run shape: -10 + 4 = -6.
        assert danger(m("QH"), c("QH"), m("QH JH"), 0) == -6.0

    def test_queen_quirk_with_the_king_taken(self) -> None:
        # QH, opponent took KH: opp(+1) = True (+5) AND the quirk marks unavail(+1) (-5); +4 -> 4.
        assert danger(m("QH"), c("QH"), m("QH KH"), m("KH")) == 4.0

    def test_edges(self) -> None:
        # KH: +1 off the edge unavail (and again by the quirk); QH, JH unknown: -5, rank +4 -> -1.
        assert danger(m("KH"), c("KH"), m("KH"), 0) == -1.0
        # AH: -1 and -2 off the edge unavail: -5 - 3 (no run shape without u+1); +4 -> -4.
        assert danger(m("AH"), c("AH"), m("AH"), 0) == -4.0
        # 2H: -2 off the edge unavail (-3), AH unknown; +4 -> 1.
        assert danger(m("2H"), c("2H"), m("2H"), 0) == 1.0

    def test_rank_part(self) -> None:
        # 7S and 7D also held: unavailSame = 3 -> -10 (no +4: the typo needs exactly 1).
        assert danger(m("7H 7S 7D"), c("7H"), m("7H 7S 7D"), 0) == -10.0
        # 7S seen: unavailSame = 2 -> -4.
        assert danger(m("7H"), c("7H"), m("7H 7S"), 0) == -4.0
        # opponent took 7S and 7D: oppSame = 2 -> +20 (unavailSame = 1, but the elif is skipped).
        assert danger(m("7H"), c("7H"), m("7H 7S 7D"), m("7S 7D")) == 20.0
        # opponent took 7S, 7D seen: oppSame = 1, unavailSame = 2 -> -4 only; the typo means the
        # +4 meant for oppSame == 1 does not fire (the intended rule would give 0).
        assert danger(m("7H"), c("7H"), m("7H 7S 7D"), m("7S")) == -4.0


# ----------------------------------------------------------------------------- selectSpread
class TestSelectSpread:
    def test_run_low_card_off_by_one(self) -> None:
        # run 4H 5H 6H, 3H unseen, 7H seen: the low end adds the value of 4H (4), not of the
        # layoff card 3H (3); the high end adds nothing (7H seen, not taken by the opponent).
        assert layoff_estimate((m("4H 5H 6H"),), m("4H 5H 6H 7H"), 0) == 4
        # 7H taken by the opponent counts again: + value of 6H (the high card) -> 10.
        assert layoff_estimate((m("4H 5H 6H"),), m("4H 5H 6H 7H"), m("7H")) == 10

    def test_run_edges(self) -> None:
        # AH 2H 3H: no low check (rank 0); 4H unseen -> + value of 3H = 3.
        assert layoff_estimate((m("AH 2H 3H"),), m("AH 2H 3H"), 0) == 3
        # JH QH KH: no high check (rank 12); TH unseen -> + value of JH = 10.
        assert layoff_estimate((m("JH QH KH"),), m("JH QH KH"), 0) == 10

    def test_set(self) -> None:
        # 7S 7H 7D: exactly one card's "next suit" is the missing 7C: +7 if it counts.
        assert layoff_estimate((m("7S 7H 7D"),), m("7S 7H 7D"), 0) == 7
        assert layoff_estimate((m("7S 7H 7D"),), m("7S 7H 7D 7C"), 0) == 0
        assert layoff_estimate((m("7S 7H 7D"),), m("7S 7H 7D 7C"), m("7C")) == 7
        assert layoff_estimate((m("7S 7H 7D 7C"),), m("7S 7H 7D 7C"), 0) == 0

    def test_picks_the_smallest_estimate(self) -> None:
        # TH JH QH QS QD AS 2S 3S 5C 6C: two arrangements of 31 deadwood:
        #  A = TH-QH run + AS-3S, dead QS QD 5C 6C; B = QH QS QD + AS-3S, dead TH JH 5C 6C.
        # All else unseen: A = 10 (9H: TH's value) + 10 (KH: QH's value) + 3 (4S) = 23;
        # B = 10 (QC) + 3 = 13 -> B.
        hand = m("TH JH QH QS QD AS 2S 3S 5C 6C")
        assert set(select_spread(hand, hand, 0) or ()) == melds("QH QS QD", "AS 2S 3S")
        # 9H and KH seen, QC unseen: A = 3, B = 13 -> A.
        seen = hand | m("9H KH")
        assert set(select_spread(hand, seen, 0) or ()) == melds("TH JH QH", "AS 2S 3S")

    def test_no_meld(self) -> None:
        assert select_spread(m("AS 3H 5D 7C 9S JH KD 2C 4S 6H"), 0, 0) is None


# --------------------------------------------------------------- the Java's suit and search order
# A hand whose 11 cards have two minimum arrangements of 23 deadwood (issue 22):
#   A = AC 2C 3C + 3H 4H 5H 6H, dead 3S 6S 7S 7C;  B = 3S 3H 3C + 4H 5H 6H, dead AC 2C 6S 7S 7C.
HAND_T = "3S 6S 7S 3H 4H 5H 6H AC 3C 7C"


class TestJavaOrder:
    def test_next_suit_is_the_java_cycle(self) -> None:
        # C -> H -> S -> D -> C, whatever our own suit order (S H D C) is.
        assert [card_text(NEXT_SUIT[c(x)]) for x in ("7C", "7H", "7S", "7D")] == \
            ["7H", "7S", "7D", "7C"]

    def test_set_estimate_with_a_stale_opponent_card(self) -> None:
        # 7S 7H 7D with 7C seen: each card adds 7 when its next card (7S -> 7D, 7H -> 7S,
        # 7D -> 7C) counts. The opponent took 7S once and threw it back (stale opp_cards):
        # 7H -> 7S counts -> 7. Under our own suit order (7S -> 7H, 7H -> 7D, 7D -> 7C) it
        # would be 0.
        seen = m("7S 7H 7D 7C")
        assert layoff_estimate((m("7S 7H 7D"),), seen, m("7S")) == 7
        # 7H stale instead: nothing points at 7H in the Java's cycle (7C -> 7H, 7C not in
        # the set) -> 0 (our order's 7S -> 7H would have made it 7).
        assert layoff_estimate((m("7S 7H 7D"),), seen, m("7H")) == 0

    def test_the_cycle_decides_a_draw(self) -> None:
        # 10 cards 7S 7H 7D 6D AC 2C 3C KH QS JC (deadwood 36: the set + AC-3C, dead 6D KH QS
        # JC), 8D offered. 11 cards: two arrangements of 44: S = 7S 7H 7D + AC-3C (dead 6D 8D
        # KH QS JC) and R = 6D 7D 8D + AC-3C (dead 7S 7H KH QS JC). The club run adds 3 (4C
        # unseen) to both. 5D seen, 9D unseen: R = 8 (9D: 8D's value) + 3 = 11. The opponent
        # took 7S and threw it back: S = 7 (7H -> 7S, stale) + 7 (7D -> 7C unseen) + 3 = 17.
        # R is kept, 8D is melded, and the best discard (KH) leaves 34 < 36: take.
        # (Under our own suit order S would be 7 + 3 = 10 and 8D would be left.)
        hand = m("7S 7H 7D 6D AC 2C 3C KH QS JC")
        seen = hand | m("8D 5D")
        assert set(select_spread(hand | m("8D"), seen, m("7S")) or ()) == \
            melds("6D 7D 8D", "AC 2C 3C")
        assert wants_face_up(hand, c("8D"), seen, m("7S"))
        # without the stale 7S: S = 10 < R = 11 -> S, 8D is deadwood: leave it.
        assert not wants_face_up(hand, c("8D"), seen, 0)

    def test_search_order(self) -> None:
        # fewer melds first; then the melds' places in the Java's table: runs by the Java's suit
        # (C H S D), lowest rank, length; then sets by rank, the one without C, H, S, D, then
        # the four.
        a, b = m("AC 2C 3C"), m("3H 4H 5H 6H")
        assert java_order((m("9S 9H 9D 9C"),)) < java_order((a, b))
        assert java_order((a, b)) < java_order((m("3S 3H 3C"), m("4H 5H 6H")))
        assert java_order((m("AC 2C 3C"),)) < java_order((m("AC 2C 3C 4C"),)) \
            < java_order((m("2C 3C 4C"),)) < java_order((m("AH 2H 3H"),)) \
            < java_order((m("AS 2S 3S"),)) < java_order((m("AD 2D 3D"),)) \
            < java_order((m("AH AS AD"),)) < java_order((m("AC AS AD"),)) \
            < java_order((m("AC AH AD"),)) < java_order((m("AC AH AS"),)) \
            < java_order((m("AC AH AS AD"),)) < java_order((m("2H 2S 2D"),))

    def test_a_tie_goes_to_the_java_first(self) -> None:
        # HAND_T + 2C offered, the opponent having discarded 2H (seen): A = 3 (4C: 3C's value)
        # + 0 (2H seen) + 6 (7H: 6H's value) = 9; B = 3 (3S -> 3D unseen; 3H -> 3S and
        # 3C -> 3H held) + 6 (7H) = 9. A tie: the Java's search finds A first (two runs, the
        # club run first in its table; B holds a set, after every run) -> A, 2C is melded, and
        # the best discard (7C) leaves 16 < 21 (HAND_T's best: 3S 3H 3C + 4H-6H, dead AC 6S
        # 7S 7C): take. (Our own solver's order finds B first, which would leave 2C.)
        hand = m(HAND_T)
        seen = hand | m("2C 2H")
        assert set(select_spread(hand | m("2C"), seen, 0) or ()) == \
            melds("AC 2C 3C", "3H 4H 5H 6H")
        assert wants_face_up(hand, c("2C"), seen, 0)
        # with 2H unseen, A = 12 > B = 9: no tie, B, and 2C is left.
        assert not wants_face_up(hand, c("2C"), hand | m("2C"), 0)

    def test_a_tie_goes_to_the_java_first_end_to_end(self) -> None:
        # MARJJ deals (seat 0) HAND_T; KD up, both pass; the opponent draws 2H and throws it;
        # MARJJ draws KS and throws it; the opponent draws 2C and throws it: MARJJ takes 2C.
        h = rig("4S 5S 8S 9D TD JD QD 8C 9C TC", HAND_T, "KD", "2H KS 2C")
        for a in ("pass", "pass", "draw stock", "discard 2H", "draw stock", "discard KS",
                  "draw stock", "discard 2C"):
            h.apply(a)
        assert h.current == 0 and h.phase is Phase.DRAW
        assert read_state(view_of(h, 0)).seen == m(HAND_T) | m("KD 2H KS 2C")
        assert decide(h).kind is ActionKind.DRAW_DISCARD


# The Java's search, re-enacted independently (from reading GinRummyUtil's cardsToBestMeldSets
# and MARJJ's getBestMeld, in the Java's own card ids): its meld table, a breadth-first search
# over sets of meld indices yielding each maximal set when first dequeued, the minimum-deadwood
# ones kept in that order, then the first with the smallest layoff estimate.
_JAVA_SUITS = "CHSD"


def _jid(x: int) -> int:
    return _JAVA_SUITS.index(card_text(x)[1]) * 13 + x % 13


def _from_jid(j: int) -> int:
    return parse_card("A23456789TJQK"[j % 13] + _JAVA_SUITS[j // 13])


def _java_table() -> list[list[int]]:
    """Lists of meld masks (our ints); within a list each meld extends the one before."""
    lists = []
    for s in _JAVA_SUITS:
        for lo in range(11):
            run, grown = [], 0
            for r in range(lo, 13):
                grown |= 1 << parse_card("A23456789TJQK"[r] + s)
                if r >= lo + 2:
                    run.append(grown)
            lists.append(run)
    for r in "A23456789TJQK":
        four = m(" ".join(r + s for s in _JAVA_SUITS))
        lists += [[four & ~m(r + s)] for s in _JAVA_SUITS] + [[four]]
    return lists


_TABLE = _java_table()


def _java_best_meld_sets(hand: int) -> list[list[int]]:
    from collections import deque

    found = []
    for lst in _TABLE:
        for x in lst:
            if x & hand != x:
                break
            found.append(x)
    queue = deque(frozenset([i]) for i in range(len(found)))
    closed: set[frozenset[int]] = set()
    maximal = []
    while queue:
        ids = queue.popleft()
        if ids in closed:
            continue
        closed.add(ids)
        used = 0
        for i in ids:
            used |= found[i]
        grew = False
        for i in range(len(found)):
            if i not in ids and not used & found[i]:
                grew = True
                queue.append(ids | {i})
        if not grew:
            maximal.append([found[i] for i in sorted(ids)])
    best: list[list[int]] = []
    least = None
    for arr in maximal:
        used = 0
        for x in arr:
            used |= x
        dw = sum(POINTS[x] for x in range(52) if hand >> x & 1 and not used >> x & 1)
        if least is None or dw < least:
            least, best = dw, []
        if dw == least:
            best.append(arr)
    return best


def _java_estimate(arr: list[int], seen: int, opp: int) -> int:
    def counts(jid: int) -> bool:
        x = _from_jid(jid)
        return bool(opp >> x & 1) or not seen >> x & 1

    total = 0
    for meld in arr:
        ids = sorted(_jid(x) for x in range(52) if meld >> x & 1)
        if ids[0] // 13 == ids[1] // 13:
            if ids[0] % 13 > 0 and counts(ids[0] - 1):
                total += min(ids[0] % 13 + 1, 10)
            if ids[-1] % 13 < 12 and counts(ids[-1] + 1):
                total += min(ids[-1] % 13 + 1, 10)
        else:
            total += sum(min(j % 13 + 1, 10) for j in ids if counts((j + 13) % 52))
    return total


def _java_select(hand: int, seen: int, opp: int) -> set[int] | None:
    best = _java_best_meld_sets(hand)
    if not best:
        return None
    pick, least = best[0], None
    for arr in best:
        v = _java_estimate(arr, seen, opp)
        if least is None or v < least:
            pick, least = arr, v
    return set(pick)


class TestAgainstTheJavaSearch:
    def test_the_re_enactment_on_the_worked_positions(self) -> None:
        hand = m(HAND_T) | m("2C")
        assert _java_select(hand, hand | m("2H"), 0) == melds("AC 2C 3C", "3H 4H 5H 6H")
        assert _java_select(hand, hand, 0) == melds("3S 3H 3C", "4H 5H 6H")

    def test_select_spread_matches_on_meld_rich_hands(self) -> None:
        # 3,000 hands of 10 or 11 cards from the aces to fives (meld-rich: equal arrangements
        # in one hand of eight), 0 to 47 random cards seen besides, random stale opponent cards
        # (two of them in the hand).
        rng = random.Random(22)
        small = [x for x in range(52) if x % 13 < 5]
        ties = 0
        for _ in range(3000):
            cards = rng.sample(small, rng.choice((10, 11)))
            hand = sum(1 << x for x in cards)
            seen = hand | sum(1 << x for x in rng.sample(range(52), rng.randrange(0, 48)))
            opp = sum(1 << x for x in rng.sample(range(52), 6)) | \
                sum(1 << x for x in rng.sample(cards, 2))
            want = _java_select(hand, seen, opp)
            got = select_spread(hand, seen, opp)
            assert (None if got is None else set(got)) == want, CardSet(hand).format()
            best = _java_best_meld_sets(hand)
            vals = [_java_estimate(a, seen, opp) for a in best]
            ties += vals.count(min(vals)) > 1 if vals else 0
        assert ties >= 40  # the tie rule is exercised, not only the estimate (69 with seed 22)


# ------------------------------------------------------------------------------------- draw
HAND_W = "5H 6H 7H 6S 9C TC JC KC 2D AS"


class TestDraw:
    def test_takes_a_card_that_melds_and_lowers_deadwood(self) -> None:
        # 5H 6H + 7H: one 11-card arrangement (5H-7H run); 61 deadwood, best discard (a 10)
        # 51 < 72 (the 10 cards have no meld: 5+6+9+9+10+10+2+3+8+10).
        hand = m("5H 6H 9S 9D KC QC 2D 3C 8S JD")
        assert wants_face_up(hand, c("7H"), hand | m("7H"), 0)

    def test_strictly_lower(self) -> None:
        # a gin hand: 5S extends AS-4S but 0 is not < 0 -> pass.
        hand = m("AS 2S 3S 4S 4H 5H 6H 9C 9D 9S")
        assert not wants_face_up(hand, c("5S"), hand | m("5S"), 0)

    def test_the_chosen_arrangement_decides(self) -> None:
        # HAND_W (deadwood 6S KC 2D AS = 19) + 6D: two arrangements of 25:
        #   A = 6H 6S 6D + 9C-JC, dead 5H 7H KC 2D AS;  B = 5H-7H + 9C-JC, dead 6S 6D KC 2D AS.
        # Improvement holds (discard KC: 15 < 19). The 9C-JC run scores 9 (8C) + 10 (QC) = 19
        # in both. Nothing else seen: A = 6 (6C) + 19 = 25, B = 5 (4H: 5H's value) + 7 (8H:
        # 7H's value) + 19 = 31 -> A, 6D melded -> take.
        hand = m(HAND_W)
        seen = hand | m("6D")
        assert wants_face_up(hand, c("6D"), seen, 0)
        # with 4H and 8H seen: B = 19 < A = 25 -> B, where 6D is deadwood -> leave it.
        assert not wants_face_up(hand, c("6D"), seen | m("4H 8H"), 0)

    def test_draw_end_to_end(self) -> None:
        # the same position reached in play: seat 1 was dealt 4H and 8H too and (scripted)
        # threw them; the dealer now discards 6D. MARJJ draws from the stock; simple takes 6D.
        h = rig("5H 6H 7H 6S 9C TC JC 4H 8H 2D", "6D 3S 4S 7S 8S 3D 4D 8D 9D TD", "2S",
                "KC 2C AS 3C")
        for a in ("pass", "pass", "draw stock", "discard 4H", "draw stock", "discard 2C",
                  "draw stock", "discard 8H", "draw stock", "discard 6D"):
            h.apply(a)
        assert h.current == 1 and h.phase is Phase.DRAW
        assert h.hand(1).mask == m(HAND_W)
        assert decide(h).kind is ActionKind.DRAW_STOCK
        assert make_bot("simple").choose(view_of(h, 1), Context()).kind \
            is ActionKind.DRAW_DISCARD


# ---------------------------------------------------------------------------------- discard
class TestDiscardFilters:
    def test_a_one_left(self) -> None:
        # 5H-7H, 8S 8D 8C, AS-3S melded; KC and 4D unmelded. Largest 10: keep >= 5 -> only KC.
        order = parse_cards("5H 6H 7H 8S 8D 8C AS 2S 3S KC 4D")
        cands = discard_candidates(order, None)
        assert cands.final == c("KC")

    def test_a_boundary_and_c_never_bites(self) -> None:
        # unmelded KC (10), 5D (5), 4D (4) besides 5H-7H, 8S 8D 8C, AS-3S:
        # 5H-7H and 8S 8D 8C melded; AS 2S KC 5D 4D unmelded (M = 1+2+10+5+4 = 22).
        # (a) keeps >= 10 - 5: KC and 5D (4D, AS, 2S dropped). d = M - value: d(KC) = 12,
        # d(5D) = 17 = least + 5, kept by (c) (only d > least + 5 goes; after (a) none can,
        # since d = M - value for a card unmelded in a minimum arrangement).
        order = parse_cards("5H 6H 7H 8S 8D 8C AS 2S KC 5D 4D")
        cands = discard_candidates(order, None)
        assert cands.final is None
        assert cands.cards == [c("KC"), c("5D")]
        assert cands.d == {c("KC"): 12, c("5D"): 17}

    def test_face_up_never_a_candidate(self) -> None:
        # the same hand with KC just taken: KC is out; the largest left is 5D (5), so (a) keeps
        # >= 0: AS, 2S, 5D, 4D in hand order; d = 21, 20, 17, 18, all <= 17 + 5.
        order = parse_cards("5H 6H 7H 8S 8D 8C AS 2S KC 5D 4D")
        cands = discard_candidates(order, c("KC"))
        assert cands.cards == parse_cards("AS 2S 5D 4D")

    def test_b_first_gin_in_hand_order(self) -> None:
        # all 11 melded: no candidate -> every card but the face-up one, in hand order; the
        # first whose discard leaves 0 deadwood: 2S (AS 3S 4S left: 8), 3S (7), 4S -> 0: 4S.
        order = parse_cards("2S 3S 4S 9S 5H 6H 7H 8H 9D 9C AS")
        assert discard_candidates(order, None).final == c("4S")
        # with AS first in the hand, AS itself keeps 2S-4S: AS.
        order = parse_cards("AS 2S 3S 4S 9S 5H 6H 7H 8H 9D 9C")
        assert discard_candidates(order, None).final == c("AS")

    def test_gin_by_hand_order_end_to_end(self) -> None:
        # seat 1 is dealt 2S 3S 4S 9S 5H-8H 9D 9C (gin already), passes KD (no meld), the dealer
        # passes, the forced stock draw brings AS (appended last in hand order) -> gin 4S.
        h = rig("2S 3S 4S 9S 5H 6H 7H 8H 9D 9C", "3D 4D 6D 7D 8D 3C 4C 6C 7C 8C", "KD", "AS")
        h.apply(decide(h))
        assert h.history[-1].action.kind is ActionKind.PASS
        h.apply("pass")
        h.apply("draw stock")
        a = decide(h)
        assert (a.kind, a.card) == (ActionKind.GIN, c("4S"))


U = "4H 8H AC 4C QD 5S 6D KS"
HAND_F = "5H 6H 7H 9S 9D 9C 2C 3C KD QS JD"


class TestScore:
    def seen(self) -> int:
        return FULL_DECK & ~m(U)

    def test_future_term(self) -> None:
        # c = JD, 10 left: 5H-7H, 9S 9D 9C, dead 2C 3C KD QS = 25. Per unseen u (best discard):
        # 4H 15, 8H 15 (a 4-run, discard a 10), AC 10, 4C 10 (a club run, dead 20 -> 10),
        # QD 25 (no meld with KD), 5S 20, 6D 21, KS 25. Seven smallest: 10+10+15+15+20+21+25.
        hand = m(HAND_F)
        assert future_term(hand, c("JD"), self.seen()) == 116 / 7
        # c = QS keeps JD KD: QD makes JD-QD-KD (dead 2C 3C -> discard 3C -> 2):
        # 2+10+10+15+15+20+21 = 93.
        assert future_term(hand, c("QS"), self.seen()) == 93 / 7

    def test_scores_choose_the_gap(self) -> None:
        # candidates after (a): KD, QS, JD (2C, 3C below 10 - 5), d = 35 - 10 = 25 each.
        # D: JD: TD seen (-1), KD and 9D held (+2, -2): run shape -10; JS JH JC seen: -10 -> -20.
        #    KD: +1 edge, QD unseen, JD held (-2): -10; KH KC seen, KS unseen -> 3: -10 -> -20.
        #    QS: quirk +1, JS TS seen: -10; QH QC seen, QD unseen -> 3: -10 -> -20.
        # S = 25 + 18 * F * 0.9 ** 0 - 20: JD = KD = 5 + 18 * 116/7, QS = 5 + 18 * 93/7 -> QS.
        order = parse_cards(HAND_F)
        cands = discard_candidates(order, None)
        assert cands.cards == parse_cards("KD QS JD")
        s = discard_scores(m(HAND_F), cands, self.seen(), 0, turns=1)
        assert s[c("QS")] == 25 + 18.0 * (93 / 7) * 1.0 + -20.0
        assert s[c("JD")] == s[c("KD")] == 25 + 18.0 * (116 / 7) * 1.0 + -20.0
        assert min(s, key=lambda k: s[k]) == c("QS")
        # the F weight decays: 0.9 ** (turns - 1)
        s3 = discard_scores(m(HAND_F), cands, self.seen(), 0, turns=3)
        assert s3[c("JD")] == 25 + 18.0 * (116 / 7) * 0.9 ** 2 + -20.0

    def test_exact_ties_are_seeded_random(self) -> None:
        # seat 1: 5H-7H, 8S 8D 8C, AS-3S + KC, passes 2H; forced stock draw KD. KC and KD are
        # the candidates (equal d = 10); the position is symmetric under swapping clubs and
        # diamonds (seen = hand + 2H), so F and D are equal: an exact tie, broken by the seeded
        # generator (and the 10 left knock: turn 1).
        picks = set()
        for seed in range(12):
            h = rig("5H 6H 7H 8S 8D 8C AS 2S 3S KC", "9S TS JS QS KS 4H 3D 4C 6D 6C", "2H", "KD")
            h.apply(decide(h, seed))
            h.apply("pass")
            h.apply("draw stock")
            a = decide(h, seed)
            assert a.kind is ActionKind.KNOCK
            assert decide(h, seed) == a  # replays
            picks.add(a.card)
        assert picks == {c("KC"), c("KD")}


# ------------------------------------------------------------------------------------ knock
def _four_turns(first_three: bool) -> HandState:
    """Seat 1 holds 5H-7H, 8S 8D 8C, AS-3S + 4D (deadwood 4), passes the KC upcard; its
    stock draws are junk it throws back (when ``first_three``), then KH."""
    junk = ["QD", "JD", "TD"]
    dealer_junk = ["2H", "3H", "4H"]
    stock = []
    if first_three:
        for j, d in zip(junk, dealer_junk, strict=True):
            stock += [j, d]
    stock.append("KH")
    h = rig("5H 6H 7H 8S 8D 8C AS 2S 3S 4D", "9S TS JS QS KS 9C TC JC 2C 3C", "KC",
            " ".join(stock))
    h.apply(decide(h))  # seat 1: KC makes no meld -> pass
    h.apply("pass")  # dealer
    if first_three:
        for j, d in zip(junk, dealer_junk, strict=True):
            h.apply("draw stock")
            h.apply(f"discard {j}")
            h.apply("draw stock")
            h.apply(f"discard {d}")
    h.apply("draw stock")  # KH: the forced draw, or the 4th turn's draw
    return h


class TestKnock:
    def test_knocks_in_its_first_three_turns(self) -> None:
        # 11 cards: KH and 4D unmelded -> (a) keeps KH alone; 4 deadwood left, turns = 1 < 4:
        # knock, showing the only minimum spread.
        h = _four_turns(first_three=False)
        assert read_state(view_of(h, 1)).turns == 0
        a = decide(h)
        assert (a.kind, a.card) == (ActionKind.KNOCK, c("KH"))
        assert {x.mask for x in a.melds or ()} == melds("5H 6H 7H", "8S 8D 8C", "AS 2S 3S")

    def test_only_gin_from_the_fourth_turn(self) -> None:
        h = _four_turns(first_three=True)
        assert read_state(view_of(h, 1)).turns == 3
        a = decide(h)
        assert (a.kind, a.card) == (ActionKind.DISCARD, c("KH"))


# ------------------------------------------------------------------------------------ state
class TestState:
    def test_upcard_taken_before_it_was_offered_is_not_seen(self) -> None:
        # seat 0 deals; seat 1 takes the upcard 9C at once and discards 2C: MARJJ (seat 0) was
        # never offered 9C: in opp_cards, not in seen. 2C (an opponent discard) is seen and is
        # the face-up card it is offered now.
        h = rig("9S TS JS QS KS 9D TC JC 3C 4C", "5H 6H 7H 8S 8D 8C AS 2S 3S 4D", "9C")
        h.apply("take")
        h.apply("discard 3C")
        st = read_state(view_of(h, 0))
        assert st.opp_cards == m("9C")
        assert not st.seen >> c("9C") & 1
        assert st.seen & m("3C")
        assert st.face_up == c("3C") and st.turns == 0
        assert st.seen == m("5H 6H 7H 8S 8D 8C AS 2S 3S 4D 3C")

    def test_opp_cards_stay_after_a_rediscard(self) -> None:
        # the opponent takes 9C then throws it back next turn: still in opp_cards (stale).
        h = rig("9S TS JS QS KS 9D TC JC 3C 4C", "5H 6H 7H 8S 8D 8C AS 2S 3S 4D", "9C",
                "2D 2H")
        h.apply("take")
        h.apply("discard 3C")
        h.apply("draw stock")  # MARJJ (scripted)
        h.apply("discard 2D")
        h.apply("draw stock")
        h.apply("discard 9C")
        st = read_state(view_of(h, 0))
        assert st.opp_cards == m("9C")
        assert st.seen & m("9C 2D") == m("9C 2D")
        assert st.turns == 1


# ------------------------------------------------------------------------- availability
def test_marjj_in_the_tournament_cli_not_at_the_table() -> None:
    import json

    from typer.testing import CliRunner

    from ginrummy import cli
    from ginrummy.bots import ALL_PLAYERS, LEVELS

    assert "marjj" in ALL_PLAYERS and "marjj" not in LEVELS
    r = CliRunner().invoke(cli.app, ["tournament", "--a", "marjj", "--b", "random", "--games",
                                     "2", "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.output.strip().splitlines()[-1])
    assert out["a"] == "marjj" and out["games"] == 2 and out["wins_a"] == 2
