"""The one playing object for every form (:class:`ginrummy.game.Game`, issue 19): standard,
Hollywood (H), three players (3P) and partnership (4P), played by computers through the one bot
loop (:mod:`ginrummy.bots.play`), replayed from records, and seen through the views."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ginrummy.actions import ActionKind
from ginrummy.bots import make_bot
from ginrummy.bots.play import advance, play_game
from ginrummy.cards import FULL_DECK
from ginrummy.errors import GinRummyError, IllegalActionError, InvalidNotationError
from ginrummy.game import Game
from ginrummy.records import GameRecord
from ginrummy.rules import Rules
from ginrummy.sheets import PartnershipSheet, ThreePlayerSheet, partnership_pairings
from ginrummy.variants import PLAYER_COUNT
from ginrummy.views import public_view_of, table_view, view_of

FORMS = [("standard", "standard"), ("standard", "oklahoma"), ("standard", "straight"),
         ("hollywood", "pagat"), ("three_player", "standard"), ("partnership", "partnership")]


def decks(seed: int):
    rng = random.Random(f"decks:{seed}")
    return lambda i: rng.sample(range(52), 52)


def played(scoring: str, preset: str, seed: int, level: str = "simple",
           target: int | None = None) -> Game:
    rules = Rules.preset(preset) if target is None else Rules.preset(preset, target=target)
    n = PLAYER_COUNT[scoring]
    g = Game(rules, seed % n if scoring != "partnership" else 0, scoring)
    play_game(g, [make_bot(level) for _ in range(n)],
              [random.Random(f"{seed}:{p}") for p in range(n)], decks(seed))
    return g


@pytest.mark.parametrize(("scoring", "preset"), FORMS)
def test_a_game_of_every_form_is_played_to_its_end_and_replays_from_its_record(
        scoring: str, preset: str) -> None:
    g = played(scoring, preset, 3)
    assert g.is_over, f"replay: played({scoring!r}, {preset!r}, 3)"
    assert g.winners(), "a game of computers ends with a winner (a Hollywood tie is rare)"
    rec = GameRecord.from_json(GameRecord.of(g).to_json())
    r = rec.replay()
    assert r.is_over and r.winners() == g.winners() and r.sheet.totals() == g.sheet.totals()
    assert r.seatings == g.seatings and r.order == g.order
    assert [h.history for h in r.deals] == [h.history for h in g.deals]


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10_000), form=st.sampled_from(FORMS))
def test_seating_invariants_of_every_deal(seed: int, form: tuple[str, str]) -> None:
    scoring, preset = form
    g = played(scoring, preset, seed, level="random", target=60)
    assert g.is_over or len(g.deals) >= 400, f"played({scoring!r}, {preset!r}, {seed})"
    sh = g.sheet
    for i, s in enumerate(g.seatings):
        h = g.deals[i]
        assert s.number == i + 1 and len(set(s.players)) == 2
        assert s.players[h.dealer] == s.dealer or scoring == "three_player"
        if scoring == "three_player":  # 3P: the dealer sits out; its left is dealt to first
            assert g.sitting_out(i) == (s.dealer,)
            assert s.players[1 - h.dealer] == (s.dealer + 1) % 3
        elif scoring == "partnership":  # 4P: two tables a hand, opponents switch every hand
            assert s.players == partnership_pairings(s.hand)[s.table]
            assert s.table == i % 2 and s.hand == i // 2 + 1
        else:
            assert s.players == (0, 1)
    if isinstance(sh, ThreePlayerSheet):
        assert [tuple(sorted(s.players)) for s in g.seatings] == sh.pairs
    if isinstance(sh, PartnershipSheet):
        assert len(sh.tables) == len(g.deals) // 2


def test_3P_loser_deals_next_and_a_dead_hand_keeps_dealer_and_pair() -> None:
    """3P through the game: after every scored deal the loser deals (and sits out) next."""
    g = played("three_player", "standard", 11)
    for i in range(1, len(g.deals)):
        prev = g.result_of(i - 1)
        assert prev is not None
        s = g.seatings[i]
        if prev.winner is None:
            assert s.dealer == prev.dealer and s.players == g.seatings[i - 1].players
        else:
            loser = next(p for p in prev.players if p != prev.winner)
            assert s.dealer == loser and prev.winner in s.players and prev.dealer in s.players


def test_partnership_needs_a_cut_and_two_deals_in_play_need_a_deal_index() -> None:
    g = Game(Rules.preset("partnership"), scoring="partnership")
    with pytest.raises(IllegalActionError, match="cuts"):
        g.new_hand(list(range(52)))
    assert g.deals == []  # nothing dealt
    g.new_hand(list(range(52)), dealer=1)
    g.new_hand(list(range(52))[::-1], dealer=0)
    assert [s.dealer for s in g.seatings] == [1, 2]
    with pytest.raises(IllegalActionError, match="name the deal"):
        g.apply("pass")
    with pytest.raises(IllegalActionError):
        g.new_hand(list(range(52)), dealer=0)  # both tables are in play
    assert g.to_act() == [(0, 0), (1, 3)]  # the non-dealers: A at table 0, D at table 1
    with pytest.raises(IllegalActionError) as e:
        g.apply_as(1, "pass")
    assert e.value.reason == "not_your_turn"
    before = [len(h.history) for h in g.deals]
    with pytest.raises(IllegalActionError):
        g.apply("discard AS", 0)  # illegal in the offer: nothing changes
    assert [len(h.history) for h in g.deals] == before and g.order == []
    assert g.apply_as(3, "take") == 1 and g.order == [1]


def test_3P_the_dealer_sits_out_and_cannot_act() -> None:
    g = Game(Rules.preset("standard"), 1, "three_player")
    g.new_hand(list(range(52)))
    with pytest.raises(IllegalActionError) as e:
        g.apply_as(1, "pass")
    assert e.value.reason == "sitting_out"
    with pytest.raises(IllegalActionError, match="first_dealer"):
        Game(Rules.preset("standard"), 3, "three_player")


def test_hollywood_entered_games_follow_the_sheet() -> None:
    g = played("hollywood", "pagat", 5)
    assert g.entered and all(1 <= x <= 3 for v in g.entered.values() for x in v)
    assert all(gm.is_closed for gm in g.sheet.games)  # type: ignore[attr-defined]


def test_standard_only_helpers_refuse_other_forms() -> None:
    g = Game(Rules.preset("pagat"), 0, "hollywood")
    with pytest.raises(AttributeError, match="game.sheet"):
        _ = g.hand_points
    with pytest.raises(IllegalActionError):
        g.add_result(0, 10)


# ------------------------------------------------------------------------------------ views
def _hidden_cards(g: Game, index: int) -> int:
    """Cards of deal ``index`` nobody outside it may know: both hands but the cards taken from
    the pile, and the stock."""
    h = g.deals[index]
    m = (h.hands[0] | h.hands[1]) & ~(h.known[0] | h.known[1])
    for c in h.stock():
        m |= 1 << c
    return m


@pytest.mark.parametrize(("scoring", "preset"), [("three_player", "standard"),
                                                 ("partnership", "partnership")])
def test_table_view_shows_a_player_its_own_deal_and_only_public_parts_of_the_others(
        scoring: str, preset: str) -> None:
    n = PLAYER_COUNT[scoring]
    g = Game(Rules.preset(preset), 0, scoring)
    bots = [make_bot("simple") for _ in range(n)]
    rngs = [random.Random(p) for p in range(n)]
    deck = decks(1)
    checked = 0
    for _hand in range(6):
        if g.is_over:
            break
        for plan in g.next_deals():
            g.new_hand(deck(len(g.deals)), 0 if plan.dealer is None else None)
        for _step in range(40):  # a few moves at a time, looking at the views between
            for p in range(n):
                v = table_view(g, p)
                assert v.deal is not None
                if v.own is not None:
                    s = g.seatings[v.deal]
                    assert v.own == view_of(g.deals[v.deal], s.seat_of(p))  # type: ignore
                for i, pv in v.others.items():
                    assert not g.seatings[i].plays(p) or i != v.deal
                    shown = set(pv.discard_pile) | {e.card for e in pv.history
                                                    if e.card is not None}
                    shown |= set(pv.known[0]) | set(pv.known[1])
                    if not g.deals[i].is_over:
                        assert not any(_hidden_cards(g, i) >> c & 1 for c in shown)
                    assert all(e.card is None for e in pv.history
                               if e.kind in (ActionKind.DRAW_STOCK, ActionKind.KNOCK))
                    assert pv.outcome is None or pv.outcome.knock_discard is None
                    checked += 1
            live = g.to_act()
            if not live:
                break
            i, p = live[0]
            h = g.deals[i]
            g.apply(bots[p].choose(view_of(h, h.current), _ctx(g, i, rngs[p])), i)
        advance(g, bots, rngs)
    assert checked > 50


def _ctx(g: Game, i: int, rng: random.Random):
    from ginrummy.bots.play import context_of

    return context_of(g, i, rng)


def test_a_spectator_sees_no_hand() -> None:
    g = Game(Rules.preset("standard"), 0, "three_player")
    g.new_hand(list(range(52)))
    v = table_view(g, None)
    assert v.own is None and list(v.others) == [0] and v.card_counts == {1: 10, 2: 10}
    pv = public_view_of(g.deals[0])
    assert not hasattr(pv, "hand") and pv.known[0].mask == 0 and pv.stock_count == 31
    assert FULL_DECK  # the deck constant the hidden-card check above builds on
    with pytest.raises(ValueError):
        table_view(g, 3)


# ---------------------------------------------------------------------------------- records
def test_a_record_with_a_wrong_dealer_or_a_bad_order_is_refused() -> None:
    g = played("partnership", "partnership", 2)
    data = GameRecord.of(g).to_json()
    assert "order" in data and all("dealer" in h for h in data["hands"])
    bad = dict(data, order=data["order"][:-1])
    with pytest.raises(InvalidNotationError, match="order"):
        GameRecord.from_json(bad).replay()
    three = GameRecord.of(played("three_player", "standard", 4)).to_json()
    three["hands"][0]["dealer"] = 1 - three["hands"][0]["dealer"]
    with pytest.raises(GinRummyError, match="dealer"):
        GameRecord.from_json(three).replay()
    with pytest.raises(InvalidNotationError):
        GameRecord.from_json(dict(data, first_dealer="0"))


def test_an_old_standard_record_without_scoring_or_dealers_still_replays() -> None:
    g = played("standard", "standard", 6)
    data = GameRecord.of(g).to_json()
    assert "scoring" not in data
    for h in data["hands"]:
        del h["dealer"]
    r = GameRecord.from_json(data).replay()
    assert r.final() == g.final() and r.scoring == "standard"
