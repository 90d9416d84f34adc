"""Variant score sheets: Hollywood (H), three players (3P), partnership (4P)."""

import pytest

from ginrummy.errors import IllegalActionError
from ginrummy.rules import Rules
from ginrummy.sheets import (
    HollywoodSheet,
    PartnershipSheet,
    ThreePlayerSheet,
    partnership_pairings,
)

A, B = 0, 1


def test_H_5_worked_example_every_cell():
    """RULES.md H-5: wins A18, B12, A25, B30, A15, A22, B20, A25, B40 (target 100, pagat)."""
    h = HollywoodSheet(Rules.preset("pagat"))
    wins = [(A, 18), (B, 12), (A, 25), (B, 30), (A, 15), (A, 22), (B, 20), (A, 25), (B, 40)]
    expected_into = [[0], [0], [0, 1], [0, 1], [0, 1, 2], [0, 1, 2], [0, 1, 2], [0, 1, 2], [1, 2]]
    cells = []
    for (w, p), into in zip(wins, expected_into, strict=True):
        assert h.add_result(w, p) == into
        cells.append([list(g.hand_points) for g in h.games])
    # After hand 8: A 105/87/62, B 62/50/20; game 1 closes.
    assert cells[7] == [[105, 62], [87, 50], [62, 20]]
    assert h.games[0].closed_at == 8 and h.games[0].winner == A
    f = h.final(0)
    assert f.totals == (305, 122)  # 105 + 100 + 5x20 ; 62 + 3x20
    assert f.boxes == (5, 3) and not f.shutout
    # hand 9 (B 40) skips the closed game 1 and goes to games 2 and 3 where B has entries.
    assert cells[8] == [[105, 62], [87, 90], [62, 60]]
    assert not h.games[1].is_closed and not h.is_over
    # every cell, hand by hand
    assert cells[0] == [[18, 0], [0, 0], [0, 0]]
    assert cells[1] == [[18, 12], [0, 0], [0, 0]]
    assert cells[2] == [[43, 12], [25, 0], [0, 0]]
    assert cells[3] == [[43, 42], [25, 30], [0, 0]]
    assert cells[4] == [[58, 42], [40, 30], [15, 0]]
    assert cells[5] == [[80, 42], [62, 30], [37, 0]]
    assert cells[6] == [[80, 62], [62, 50], [37, 20]]


def test_H_shutout_is_no_entry_and_match_ends_when_all_closed():
    h = HollywoodSheet(Rules.preset("pagat"))
    while not h.is_over:
        h.add_result(A, 50)
    # A's wins: 50 -> g1; 50 -> g1,g2; then g1 closes at 100 ...
    assert all(g.winner == A for g in h.games)
    for i in range(3):
        f = h.final(i)
        assert f.shutout and f.game_bonus == 200  # flat: game bonus doubled
    with pytest.raises(IllegalActionError):
        h.add_result(A, 10)


def test_3P_rotation_loser_deals_winner_plays_previous_dealer():
    s = ThreePlayerSheet(Rules.preset("standard"), first_dealer=2)
    assert s.players == (0, 1)
    s.add_result(0, 20)  # 1 lost: 1 deals, 0 plays the previous dealer 2
    assert s.dealer == 1 and s.players == (0, 2)
    s.add_result(None, 0)  # dead hand: same dealer, same pair
    assert s.dealer == 1 and s.players == (0, 2)
    with pytest.raises(IllegalActionError):
        s.add_result(1, 10)  # player 1 sits out
    s.add_result(2, 30)
    assert s.dealer == 0 and s.players == (1, 2)
    s.add_result(2, 80)
    assert s.is_over and s.winner == 2
    st = s.settlements()
    # against player 0 (20 points): no shutout; against player 1 (0 points): shutout doubles
    assert st[0].totals == (110 + 50 + 100, 20 + 25)
    assert st[1].shutout and st[1].totals == ((110 + 50 + 100) * 2, 0)


def test_4P_pairings_switch_every_hand():
    assert partnership_pairings(1) == ((0, 1), (2, 3))
    assert partnership_pairings(2) == ((0, 3), (2, 1))
    assert partnership_pairings(3) == ((0, 1), (2, 3))


def test_4P_net_team_result_box_and_dead_table():
    s = PartnershipSheet(Rules.preset("partnership"))
    assert s.rules.target == 125
    assert s.add_hand((0, 20), (2, 15)) == 0  # A and C both win: sum 35
    assert s.game.hand_points == [35, 0]
    assert s.add_hand((3, 30), (2, 10)) == 1  # D 30 vs C 10: B+D net 20
    assert s.game.hand_points == [35, 20]
    assert s.add_hand((0, 10), (3, 10)) is None  # net tie scores nothing
    assert s.add_hand((None, 0), (2, 12)) == 0  # dead table counts nothing
    assert s.game.hand_points == [47, 20] and s.game.boxes == [2, 1]
    s2 = PartnershipSheet(Rules.preset("partnership"))
    with pytest.raises(IllegalActionError):
        s2.add_hand((2, 10), (3, 10))  # player 2 did not sit at table A-B
    while not s2.is_over:
        s2.add_hand((0, 40), (None, 0))
    f = s2.final()
    assert f.winner == 0 and f.hand_points[0] >= 125 and f.shutout
