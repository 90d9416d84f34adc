"""The one loop that lets computer players move, at a table of any form
(:class:`~ginrummy.game.Game`): :func:`advance` moves them until a person is to act (the server,
the environment), :func:`play_game` plays a whole game of computers (the tournament).

Each computer decides from its own :class:`~ginrummy.views.PlayerView` of its deal and a
:class:`~ginrummy.bots.base.Context` (its random source and the score it weighs), nothing else.
Where two deals are in play at once (a partnership hand's two tables), the computers of both
move in turn, one action per deal per round, so the order of play is fixed by the game alone.

>>> import random
>>> from ginrummy.rules import Rules
>>> from ginrummy.bots import make_bot
>>> g = Game(Rules.preset("standard"), first_dealer=0, scoring="three_player")
>>> bots = [make_bot("simple") for _ in range(3)]
>>> rngs = [random.Random(p) for p in range(3)]
>>> decks = random.Random(7)
>>> def deck(i):
...     d = list(range(52)); decks.shuffle(d); return d
>>> _ = play_game(g, bots, rngs, deck)
>>> g.is_over, len(g.winners())
(True, 1)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from ..actions import Action
from ..game import Game
from ..views import view_of
from .base import Bot, Context

__all__ = ["advance", "move", "play_game", "context_of", "MAX_MOVES", "MAX_DEALS",
           "MAX_ACTIONS_PER_DEAL", "GameAbandoned", "OnAction", "OnFault", "Rngs"]

#: the most computer moves one :func:`advance` makes before it gives up (a deal has ~60 actions;
#: two tables at once ~120).
MAX_MOVES: Final = 1000
#: :func:`play_game` abandons a game that has not ended after this many deals ...
MAX_DEALS: Final = 400
#: ... or whose deal has gone on for this many actions (two players trading face-up cards).
MAX_ACTIONS_PER_DEAL: Final = 3000

#: ``on_action(deal index, player, action)``: called after each computer action is applied.
OnAction = Callable[[int, int, Action], None]
#: ``on_fault(deal index, player, error)``: a computer's choice failed (it raised, or chose an
#: action the deal refuses); a random legal action of its random source was played instead.
OnFault = Callable[[int, int, Exception], None]
#: the random sources of :func:`advance`: one per player, or ``rng_of(deal index)`` giving the
#: source of the next move in that deal (a server seeds each move on its own).
Rngs = Sequence[random.Random] | Callable[[int], random.Random]


class GameAbandoned(RuntimeError):
    """Computers that do not finish a deal (only absurd players get there)."""


class _FormValue:
    """The value of deal ``index``'s results in the game's form
    (:func:`ginrummy.bots.stakes.deal_value`), built when first called (so that players who
    never ask for it cost nothing, and numpy is imported only by those who do)."""

    __slots__ = ("game", "index", "value", "scoring")

    def __init__(self, game: Game, index: int) -> None:
        self.game = game
        self.index = index
        self.value: Callable[[Any], Any] | None = None
        #: the form whose value this is (a player may use the value of some forms only).
        self.scoring = game.scoring

    def __call__(self, out: Any) -> Any:
        if self.value is None:
            from .stakes import deal_value

            v = deal_value(self.game, self.index)
            if v is None:
                raise ValueError("no player is to act in this deal")
            self.value = v
        return self.value(out)


def context_of(game: Game, index: int, rng: random.Random) -> Context:
    """The context of the player to act in deal ``index``: ``rng``, the score that deal's
    two engine seats play to (:meth:`ginrummy.game.Game.score_of`) and, in every form but the
    standard game, what the deal's result is worth in the form
    (:func:`ginrummy.bots.stakes.deal_value`, built when first used)."""
    points, target = game.score_of(index)
    value = None if game.scoring == "standard" else _FormValue(game, index)
    return Context(rng, points, target, value)


def move(game: Game, index: int, bot: Bot, rng: random.Random,
         on_fault: OnFault | None = None) -> Action:
    """One move of the player to act in deal ``index``: ``bot`` chooses from its own view and
    :func:`context_of`. With ``on_fault``, a choice that fails (the bot raises, or the deal
    refuses its action) is told to ``on_fault`` and replaced by a random legal action drawn
    from ``rng``; without it the error is raised (nothing applied).

    :returns: the action applied.
    """
    h = game.deals[index]
    view = view_of(h, h.current)
    if on_fault is None:
        action = bot.choose(view, context_of(game, index, rng))
        game.apply(action, index)
        return action
    try:
        action = bot.choose(view, context_of(game, index, rng))
        game.apply(action, index)
    except Exception as e:  # a faulty computer player must not stop the game
        on_fault(index, game.seatings[index].players[h.current], e)
        action = rng.choice(view.legal)
        game.apply(action, index)
    return action


def _pace_allows(game: Game, index: int, pace: Mapping[int, int]) -> bool:
    """Deal ``index`` may move: it keeps pace with no deal, or has made fewer actions than the
    deal it keeps pace with, or that one is over."""
    lead = pace.get(index)
    if lead is None:
        return True
    led = game.deals[lead]
    return led.is_over or len(game.deals[index].history) < len(led.history)


def advance(game: Game, players: Sequence[Bot | None], rngs: Rngs, *,
            on_action: OnAction | None = None, limit: int = MAX_MOVES, by_deal: bool = False,
            pace: Mapping[int, int] | None = None,
            on_fault: OnFault | None = None) -> list[tuple[int, int]]:
    """Let the computers move in every deal in play while one of them is to act.

    :param players: per player (seat 0..seats-1), its :class:`Bot`, or ``None`` for a person.
    :param rngs: per player, the random source its bot draws from (seeded by the caller); or
        ``rng_of(deal index)``, the random source of each move (:data:`Rngs`).
    :param by_deal: the deals in play one after the other, in deal order, each until a person
        is to act in it or it is over (the order a server numbers the moves of two tables
        by); by default one action per deal per round.
    :param pace: ``{deal: deal it keeps pace with}``: such a deal moves only while it has made
        fewer actions than the other, or the other is over (a partnership's other table played
        by computers while a person plays the first).
    :param on_fault: see :func:`move`.
    :returns: ``(deal index, player)`` of every person now to act (``[]``: no deal in play).
    :raises GameAbandoned: more than ``limit`` moves without a person to act or the deals'
        end (the moves made are kept).
    """
    moves = 0
    kept = pace or {}

    def one(i: int, p: int) -> bool:
        nonlocal moves
        bot = players[p]
        if bot is None or not _pace_allows(game, i, kept):
            return False
        rng = rngs(i) if callable(rngs) else rngs[p]
        action = move(game, i, bot, rng, on_fault)
        moves += 1
        if on_action is not None:
            on_action(i, p, action)
        if moves > limit:
            raise GameAbandoned(f"the computers made {moves} moves without an end")
        return True

    if by_deal:
        for i in game.in_play():
            while True:
                p = game.mover(i)
                if p is None or not one(i, p):
                    break
        return game.to_act()
    while True:
        moved = False
        for i, p in game.to_act():
            moved = one(i, p) or moved
        if not moved:
            return game.to_act()


def play_game(game: Game, players: Sequence[Bot], rngs: Sequence[random.Random],
              deck: Callable[[int], Sequence[int]], cut: Callable[[int], int] | None = None, *,
              on_action: OnAction | None = None, max_deals: int = MAX_DEALS,
              max_actions_per_deal: int = MAX_ACTIONS_PER_DEAL) -> Game:
    """Play ``game`` to its end with a computer in every seat.

    :param deck: ``deck(i)`` gives deal ``i``'s deck (0-based deal index; 52 card ints).
    :param cut: ``cut(i)`` gives deal ``i``'s dealer seat where the pair cuts for the deal
        (partnership, R-2.1); by default a draw from a generator seeded with ``i``.
    :returns: ``game`` itself, over unless abandoned (:attr:`~ginrummy.game.Game.is_over`
        False: more than ``max_deals`` deals, or a deal longer than ``max_actions_per_deal``).
    """
    cut = cut or (lambda i: random.Random(f"ginrummy-cut:{i}").randrange(2))
    while not game.is_over and len(game.deals) < max_deals:
        for plan in game.next_deals():
            i = len(game.deals)
            game.new_hand(deck(i), cut(i) if plan.dealer is None else None)
        hand = game.seatings[-1].hand
        deals = [i for i, s in enumerate(game.seatings) if s.hand == hand]
        try:
            advance(game, players, rngs, on_action=on_action,
                    limit=max_actions_per_deal * len(deals))
        except GameAbandoned:
            return game
    return game
