"""The one bot loop's options the server moves its computers with
(:func:`ginrummy.bots.play.advance`): a random source per move, the deals one after the other,
a deal that keeps pace with another, and a faulty computer replaced by a random legal move."""

from __future__ import annotations

import random

import pytest

from ginrummy.actions import Action
from ginrummy.bots import make_bot
from ginrummy.bots.base import Context
from ginrummy.bots.play import advance
from ginrummy.errors import IllegalActionError
from ginrummy.game import Game
from ginrummy.rules import Rules
from ginrummy.views import PlayerView


def partnership(seed: int) -> Game:
    """A partnership game with its first hand dealt from decks of ``seed`` (both pairs cut:
    seat 0 deals)."""
    g = Game(Rules.preset("partnership"), scoring="partnership")
    rng = random.Random(f"decks:{seed}")
    for _ in g.next_deals():
        g.new_hand(rng.sample(range(52), 52), 0)
    return g


def per_move(g: Game, seed: int):
    """The random source of each move: by the deal and its action count (as the server)."""
    return lambda i: random.Random(f"{seed}:{i}:{len(g.deals[i].history)}")


@pytest.mark.parametrize("seed", range(6))
def test_a_deal_keeps_pace_with_the_persons_deal(seed: int) -> None:
    g = partnership(seed)
    players = [None] + [make_bot("simple") for _ in range(3)]
    for _ in range(40):  # the person plays table 0 (a bounded number of turns)
        advance(g, players, per_move(g, seed), by_deal=True, pace={1: 0})
        mine, other = g.deals
        if mine.is_over:
            assert other.is_over, f"seed {seed}: the other table finishes with the person's"
            break
        assert len(other.history) == len(mine.history) or other.is_over, (
            f"seed {seed}: {len(other.history)} moves at the other table, "
            f"{len(mine.history)} at the person's")
        g.apply(random.Random(seed).choice(mine.legal_actions()), 0)


@pytest.mark.parametrize("seed", range(4))
def test_the_deals_one_after_the_other_and_the_same_moves_either_way(seed: int) -> None:
    bots = [make_bot("simple") for _ in range(4)]
    by_deal, rounds = partnership(seed), partnership(seed)
    advance(by_deal, bots, per_move(by_deal, seed), by_deal=True)
    advance(rounds, bots, per_move(rounds, seed))
    n0 = len(by_deal.deals[0].history)
    assert by_deal.order == [0] * n0 + [1] * len(by_deal.deals[1].history), seed
    assert rounds.order != by_deal.order  # one action per deal per round
    for a, b in zip(by_deal.deals, rounds.deals, strict=True):  # a random source per move:
        assert [e.action for e in a.history] == [e.action for e in b.history], seed
    assert by_deal.sheet.totals() == rounds.sheet.totals()


class Faulty:
    """A computer that raises, or chooses an action the deal refuses."""

    name = "faulty"

    def __init__(self, how: str) -> None:
        self.how = how

    def choose(self, view: PlayerView, ctx: Context) -> Action:
        if self.how == "raise":
            raise RuntimeError("no idea")
        return Action.parse("discard AS") if "AS" not in view.hand.texts() else \
            Action.parse("discard 2S")


@pytest.mark.parametrize("how", ["raise", "illegal"])
def test_a_faulty_computer_is_replaced_by_a_random_legal_move(how: str) -> None:
    g = Game(Rules.preset("standard"), first_dealer=0)
    g.new_hand(random.Random(3).sample(range(52), 52))
    faults: list[tuple[int, int, str]] = []
    bots = [None, Faulty(how)]  # a person at seat 0: the loop stops at its turn
    advance(g, bots, [random.Random(1), random.Random(2)],
            on_fault=lambda i, p, e: faults.append((i, p, type(e).__name__)))
    assert g.current is not None and g.current.history and g.mover(0) == 0
    assert faults == [(0, 1, "RuntimeError" if how == "raise" else "IllegalActionError")] \
        * len(g.current.history)
    with pytest.raises((RuntimeError, IllegalActionError)):  # without on_fault: raised
        h = Game(Rules.preset("standard"), first_dealer=0)
        h.new_hand(random.Random(3).sample(range(52), 52))
        advance(h, bots, [random.Random(1), random.Random(2)])
