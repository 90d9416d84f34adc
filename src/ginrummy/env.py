"""A standard multi-agent reinforcement-learning environment: Gin Rummy as a PettingZoo AEC game,
in every form of the game (RULES.md sections 8 and 9).

Needs the ``rl`` extra (``pip install 'ginrummy[rl]'``: PettingZoo and Gymnasium); the engine
itself does not. The table is the engine's :class:`~ginrummy.game.Game`; each agent observes
only what its player may know (DESIGN.md principle 6): its own
:class:`~ginrummy.views.PlayerView` and, at a table of three or four, the public view of the
deal it does not play. The observation never depends on an opponent's unknown cards or the
stock order.

>>> env = GinRummyEnv(rules="eaai")
>>> env.reset(seed=1)
>>> obs, reward, terminated, truncated, info = env.last()
>>> obs["observation"].shape, int(obs["action_mask"].sum()), info["legal"]
((376,), 2, ['take', 'pass'])
>>> env.step(action_index("pass"))

**Forms** (``scoring``): ``"standard"`` (one game to the target) and ``"hollywood"`` (H: three
games scored at once) have two agents; ``"three_player"`` (3P) three; ``"partnership"`` (4P)
four, players 0 and 2 against 1 and 3.

**Agents**: ``"player_0"`` .. ``"player_<n-1>"``, the table's players. Only an agent that is to
act is ever selected (``agent_selection``): three players, the dealer sits the deal out (3P)
and is never selected while it does; it still observes the deal (the public part of its
observation), its mask is all zeros, and it receives its rewards. Partnership: each hand is
two deals at two tables played at once; the selection takes the tables in turn, one action
each, in table order, as the engine's bot loop (:func:`ginrummy.bots.play.advance`) moves
computers; once one table's deal is over the other plays on alone. Only the selected agent
has legal actions in its mask (the other table's mover waits for its turn with a zero mask).
Every agent stays in ``agents`` until the episode ends.

**Actions** (``Discrete(161)``; :func:`action_index` / :func:`index_action` convert):

=========  ===========================================================================
0          ``take``: the upcard of the first-turn offer (R-3.1)
1          ``pass``: the first-turn offer, or the last discard once the stock is down to
           the last cards (R-8.2)
2          ``draw stock`` (R-3.3)
3          ``draw discard`` (R-3.3, R-8.2)
4 + c      ``discard c`` (c = card int 0..51, suit-major: ``c = 13 * suit + rank``)
56 + c     ``knock c``: discard ``c`` face down and knock with the default spread (R-4.5)
108 + c    ``gin c`` (R-4.6)
160        ``big gin`` (R-5.3)
=========  ===========================================================================

Layoffs are made optimally by the engine (R-6), as at the web table. Only the actions legal now
are 1 in ``action_mask``; stepping another one raises :class:`~ginrummy.errors.IllegalActionError`
and changes nothing.

**Observation** (``float32``, values 0..1), from the agent's own view: two players, 376 values
(see :func:`observation_of`): 7 planes of 52 cards (own hand; top of the discard pile; the rest
of the pile; cards the opponent took from the pile and still holds; cards it discarded;
face-up cards it declined; cards not seen) then 12 scalars (stock size, knock limit, phase,
seat roles, score progress). Three and four players (:func:`observation_size`: 709 and 704;
:func:`table_observation_of`): the same 376 for the deal the agent plays (zeros while it sits
out), 326 for the deal it does not play (the public view: discard pile, the cards each of its
players took and discarded, stock, phase, who acts, who dealt, card counts), and a few table
values (who sits out; each side's progress toward the target).

**Rewards** (zero-sum between the sides; partners get their team's): ``reward="points"``
(default): when a hand is entered on the sheet, the side that scored gets ``+points`` and the
other ``-points`` (R-7; Hollywood: times the games the points went into; three players: the
deal's winner and loser, 0 to the one who sat out; partnership: the team's net of the two
tables, 4P); in ``episode="game"`` the end of the game adds the settlement (game bonus, boxes,
shutout: R-10) so that each agent's rewards sum to its side's final total minus the other's
(three players: the winner the sum of its margins over each opponent, each opponent minus its
own). ``reward="win"``: +1 / -1 at the end of the episode to the winning and losing side (three
players: -0.5 to each loser of a game; a hand episode: the deal's winner and loser, 0 to the
player who sat out); 0 for a dead hand, a net tie or a tied Hollywood match.

**Episodes**: ``episode="hand"`` (default) is one hand (one deal; partnership: both tables'
deals); ``"game"`` plays hands to the end of the game (Hollywood: of its three games), dealing
each new deck (and each pair's cut, 4P) from the environment's seeded generator. An episode is
truncated after ``max_actions`` actions (the rules let two players trade face-up cards for ever).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]

from .actions import BIG_GIN, DRAW_DISCARD, DRAW_STOCK, PASS, TAKE, Action, ActionKind
from .bots import make_bot
from .bots.knowledge import read_view
from .bots.play import context_of
from .cards import card_text
from .game import Game
from .hand import HandState, Phase
from .rules import Rules
from .sheets import PartnershipSheet, ThreePlayerSheet
from .variants import PLAYER_COUNT, SCORINGS, check_table
from .views import PlayerView, TableView, table_view, view_of

__all__ = ["GinRummyEnv", "env", "action_index", "index_action", "observation_of",
           "table_observation_of", "observation_size", "N_ACTIONS", "OBSERVATION_SIZE",
           "PUBLIC_SIZE"]

N_ACTIONS = 161
_DISCARD, _KNOCK, _GIN = 4, 56, 108
_PLAIN_INDEX = {ActionKind.TAKE: 0, ActionKind.PASS: 1, ActionKind.DRAW_STOCK: 2,
                ActionKind.DRAW_DISCARD: 3, ActionKind.BIG_GIN: 160}
_WITH_CARD_BASE = {ActionKind.DISCARD: _DISCARD, ActionKind.KNOCK: _KNOCK, ActionKind.GIN: _GIN}
_PLAIN_ACTION = {0: TAKE, 1: PASS, 2: DRAW_STOCK, 3: DRAW_DISCARD, 160: BIG_GIN}
_PHASES = (Phase.OFFER, Phase.DRAW, Phase.DISCARD, Phase.FIFTIETH, Phase.DONE)
_PLANES = 7
OBSERVATION_SIZE = _PLANES * 52 + 12
_MAX_STOCK = 31  # 52 - 2 x 10 dealt - 1 upcard
_FULL = (1 << 52) - 1


def action_index(action: Action | str) -> int:
    """The index (0..160) of an action or its text (``"knock 3D"``).

    :raises ValueError: a knock that names its own spread (only the default spread has an
        index), or an unreadable text (:class:`~ginrummy.errors.InvalidNotationError`).
    """
    a = Action.parse(action) if isinstance(action, str) else action
    if a.kind in _PLAIN_INDEX:
        return _PLAIN_INDEX[a.kind]
    if a.melds is not None:
        raise ValueError("only a knock with the default spread has an action index (R-4.5)")
    assert a.card is not None
    return _WITH_CARD_BASE[a.kind] + a.card


def index_action(index: int) -> Action:
    """The action of an index (0..160). :raises ValueError: out of range."""
    if isinstance(index, bool) or not isinstance(index, int | np.integer):
        raise ValueError(f"an action index is an integer 0..{N_ACTIONS - 1}, not {index!r}")
    i = int(index)
    if not 0 <= i < N_ACTIONS:
        raise ValueError(f"action index must be 0..{N_ACTIONS - 1}, not {index!r}")
    if i in _PLAIN_ACTION:
        return _PLAIN_ACTION[i]
    if i < _KNOCK:
        return Action(ActionKind.DISCARD, i - _DISCARD)
    if i < _GIN:
        return Action(ActionKind.KNOCK, i - _KNOCK)
    return Action(ActionKind.GIN, i - _GIN)


#: every index's action and its text (actions are immutable values).
_INDEX_ACTIONS = tuple(index_action(i) for i in range(N_ACTIONS))
_INDEX_TEXTS = tuple(a.text for a in _INDEX_ACTIONS)


def observation_of(view: PlayerView, progress: tuple[int, int] = (0, 0),
                   target: int | None = None) -> np.ndarray:
    """The observation vector of a view (shape ``(376,)``, ``float32``, values in 0..1).

    Planes of 52 (index ``52 * k + card``): 0 own hand; 1 top of the discard pile; 2 the rest of
    the pile; 3 cards the opponent took from the pile and still holds; 4 cards the opponent
    discarded this deal; 5 face-up cards the opponent declined (offer passed, or stock drawn
    instead); 6 cards this seat has not seen (opponent's hand or stock). Then: 364 stock size /
    31; 365 knock limit / 10; 366-370 phase one-hot (offer, draw, discard, fiftieth, done); 371
    it is this seat's turn; 372 this seat dealt; 373 the opponent's cards / 11; 374-375 this
    seat's and the opponent's points toward the target (``progress``, over ``target``; 0 when
    ``target`` is None).

    This is the reference form, from a :class:`PlayerView`; :class:`GinRummyEnv` builds the same
    vector incrementally (the test suite checks that they agree at every step).
    """
    k = read_view(view)
    discarded = passed = 0
    for c in k.opp_discards:
        discarded |= 1 << c
    for c in k.opp_passed:
        passed |= 1 << c
    return _vector(view.hand.mask, view.discard_pile, view.opponent_known.mask, discarded,
                   passed, k.unseen, view.stock_count, view.knock_limit, view.phase,
                   view.to_act, view.dealer == view.seat, view.opponent_card_count, progress,
                   target)


def _vector(hand: int, pile: tuple[int, ...] | list[int], opp_known: int, opp_discarded: int,
            opp_passed: int, unseen: int, stock_count: int, knock_limit: int, phase: Phase,
            to_act: bool, dealt: bool, opp_cards: int, progress: tuple[int, int],
            target: int | None, pile_mask: int | None = None,
            out: np.ndarray | None = None) -> np.ndarray:
    """The 376 values of :func:`observation_of` (into the first 376 of ``out`` if given)."""
    top = rest = 0
    if pile:
        top = 1 << pile[-1]
        if pile_mask is not None:  # the pile's cards, known
            rest = pile_mask ^ top
        else:
            for c in pile[:-1]:
                rest |= 1 << c
    # the seven 52-bit planes side by side, 56 bits (7 bytes) apart, in one integer
    planes = np.unpackbits(np.frombuffer(
        (hand | top << 56 | rest << 112 | opp_known << 168 | opp_discarded << 224
         | opp_passed << 280 | unseen << 336).to_bytes(49, "little"), dtype=np.uint8),
        bitorder="little")
    if out is None:
        out = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    out[:_PLANES * 52].reshape(_PLANES, 52)[:] = planes.reshape(_PLANES, 56)[:, :52]
    base = _PLANES * 52
    out[base] = stock_count / _MAX_STOCK
    out[base + 1] = min(knock_limit, 10) / 10
    out[base + 2 + _PHASES.index(phase)] = 1.0
    out[base + 7] = 1.0 if to_act else 0.0
    out[base + 8] = 1.0 if dealt else 0.0
    out[base + 9] = opp_cards / 11
    if target:
        out[base + 10] = min(progress[0], target) / target
        out[base + 11] = min(progress[1], target) / target
    return out


# ------------------------------------------------------------------ tables of 3 and 4 players
#: the values of the public part (a deal the agent does not play) and of the table part.
PUBLIC_SIZE = 6 * 52 + 14
_TABLE_SIZE = {3: 7, 4: 2}


def observation_size(scoring: str = "standard") -> int:
    """The length of the observation vector at a table of ``scoring``: 376 for the two-player
    forms (``standard``, ``hollywood``); 376 + 326 + 7 = 709 for ``three_player``; 376 + 326 +
    2 = 704 for ``partnership`` (see :func:`table_observation_of`).

    :raises ValueError: an unknown scoring.
    """
    if scoring not in PLAYER_COUNT:
        raise ValueError(f"unknown scoring {scoring!r}; scorings: {', '.join(SCORINGS)}")
    n = PLAYER_COUNT[scoring]
    return OBSERVATION_SIZE if n == 2 else OBSERVATION_SIZE + PUBLIC_SIZE + _TABLE_SIZE[n]


def _order(me: int, players: tuple[int, int], seats: int) -> tuple[int, int]:
    """The engine seats of a deal ``me`` watches, in the order its observation lists them: the
    partner first (partnership), else by seat to ``me``'s left (``(p - me) % seats``)."""
    def key(seat: int) -> tuple[int, int]:
        off = (players[seat] - me) % seats
        return (0 if seats == 4 and off == 2 else 1, off)
    a, b = sorted((0, 1), key=key)
    return a, b


def _public_vector(out: np.ndarray, base: int, order: tuple[int, int], pile: Sequence[int],
                   pile_mask: int, known: Sequence[int], discarded: Sequence[int],
                   stock_count: int, knock_limit: int, phase: Phase, current: int, dealer: int,
                   counts: Sequence[int]) -> None:
    """Write the public part (:data:`PUBLIC_SIZE` values) of a deal into ``out[base:]``;
    ``known``, ``discarded`` and ``counts`` are by engine seat, ``order`` the seats listed."""
    a, b = order
    top = rest = 0
    if pile:
        top = 1 << pile[-1]
        rest = pile_mask ^ top
    planes = np.unpackbits(np.frombuffer(
        (top | rest << 56 | known[a] << 112 | known[b] << 168 | discarded[a] << 224
         | discarded[b] << 280).to_bytes(42, "little"), dtype=np.uint8), bitorder="little")
    out[base:base + 6 * 52].reshape(6, 52)[:] = planes.reshape(6, 56)[:, :52]
    k = base + 6 * 52
    out[k] = stock_count / _MAX_STOCK
    out[k + 1] = min(knock_limit, 10) / 10
    out[k + 2 + _PHASES.index(phase)] = 1.0
    if phase is not Phase.DONE:
        out[k + 7 + (0 if current == a else 1)] = 1.0
    out[k + 9 + (0 if dealer == a else 1)] = 1.0
    out[k + 11] = counts[a] / 11
    out[k + 12] = counts[b] / 11
    out[k + 13] = 1.0


def _table_vector(out: np.ndarray, base: int, me: int, seats: int, sits_out: bool,
                  sitter: int | None, progress: Sequence[int], target: int | None) -> None:
    """Write the table part into ``out[base:]``: three players: 1 when ``me`` sits the deal out,
    who sits out (one-hot by seat to ``me``'s left: ``me``, left, right), each player's points
    toward the target over ``target`` (same order); partnership: the two teams' (``me``'s
    first). ``progress`` is by side (players; partnership: teams)."""
    if seats == 3:
        out[base] = 1.0 if sits_out else 0.0
        if sitter is not None:
            out[base + 1 + (sitter - me) % 3] = 1.0
        if target:
            for off in range(3):
                out[base + 4 + off] = min(progress[(me + off) % 3], target) / target
    elif target:
        team = me % 2
        out[base] = min(progress[team], target) / target
        out[base + 1] = min(progress[1 - team], target) / target


def table_observation_of(view: TableView, target: int | None = None) -> np.ndarray:
    """The observation vector of a player's :class:`~ginrummy.views.TableView` at a table of
    three or four players (:func:`observation_size` values, ``float32``, 0..1), the reference
    form :class:`GinRummyEnv` builds incrementally (the tests check that they agree).

    Layout: 0-375 the deal the player plays, as :func:`observation_of` (its points toward the
    target and its opponent's in that deal, over ``target``); all zeros while it sits out (three
    players). 376-701 the deal it does not play (:class:`~ginrummy.views.PublicView`: the
    three-player dealer watches the deal; the other partnership table), for its two players A
    and B (the partner first, else by seat to the player's left): planes of 52 for the top of
    the discard pile, the rest of the pile, the cards A and B took from the pile and still hold,
    the cards A and B discarded; then stock size / 31, knock limit / 10, phase one-hot (5), A or
    B to act (2), A or B dealt (2), A's and B's cards / 11, and 1 (present); all zeros when
    there is no such deal. Then the table part: three players: sits out, who sits out (one-hot:
    the player, its left, its right), the three players' points toward the target over
    ``target`` (same order); partnership: the player's team's and the other team's.

    :raises ValueError: a spectator's view, or a two-player table (use :func:`observation_of`).
    """
    me = view.player
    if me is None or view.seats == 2:
        raise ValueError("a player's view of a table of three or four players")
    sheet = view.sheet
    out = np.zeros(observation_size(view.scoring), dtype=np.float32)
    current = [i for i, s in enumerate(view.seatings) if s.hand == view.seatings[-1].hand] \
        if view.seatings else []
    mine = [i for i in current if view.seatings[i].plays(me)]
    if view.own is not None:
        s = view.seatings[mine[0]]
        opp = s.players[1 - view.own.seat]
        own = observation_of(view.own, (sheet.progress(me), sheet.progress(opp)), target)
        out[:OBSERVATION_SIZE] = own
    for i, pv in view.others.items():
        s = view.seatings[i]
        discarded = [0, 0]
        for e in pv.history:
            if e.kind is ActionKind.DISCARD and e.card is not None:
                discarded[e.seat] |= 1 << e.card
        pile_mask = 0
        for c in pv.discard_pile:
            pile_mask |= 1 << c
        _public_vector(out, OBSERVATION_SIZE, _order(me, s.players, view.seats),
                       pv.discard_pile, pile_mask, (pv.known[0].mask, pv.known[1].mask),
                       discarded, pv.stock_count, pv.knock_limit, pv.phase, pv.current,
                       pv.dealer, pv.card_counts)
    sits_out = view.seats == 3 and not mine
    sitter = None
    if view.seats == 3 and current:
        sitter = view.seatings[current[0]].dealer
    sides = [sheet.progress(side[0]) for side in sheet.sides]
    _table_vector(out, OBSERVATION_SIZE + PUBLIC_SIZE, me, view.seats, sits_out, sitter, sides,
                  target)
    return out


class _Seen:
    """What one seat has seen of the deal beyond the table as it is now, kept up to date action
    by action (the same facts :func:`~ginrummy.bots.knowledge.read_view` replays from a view):
    the opponent's face-up discards, the face-up cards it declined, this seat's own face-down
    knock discard."""

    __slots__ = ("opp_discarded", "opp_passed", "own_knock")

    def __init__(self) -> None:
        self.opp_discarded = 0
        self.opp_passed = 0
        self.own_knock = 0


class _Track:
    """One deal as the environment follows it: what each engine seat has seen (:class:`_Seen`)
    and the cards of its discard pile (a mask)."""

    __slots__ = ("seen", "pile_mask")

    def __init__(self, h: HandState) -> None:
        self.seen = (_Seen(), _Seen())
        self.pile_mask = 0
        for c in h.discard_pile:
            self.pile_mask |= 1 << c

    def track(self, seat: int, a: Action, top: int | None, offer: bool) -> None:
        """Update both seats' :class:`_Seen` after ``seat`` played ``a`` (``top``: the pile's
        top card before it; ``offer``: it was the first-turn offer, R-3.1). A stock draw
        declines the top card; the forced one after two offer passes (R-3.2) declines the
        upcard already passed, so it changes nothing."""
        other = self.seen[1 - seat]
        k = a.kind
        if k is ActionKind.DISCARD:
            assert a.card is not None
            other.opp_discarded |= 1 << a.card
        elif top is not None and ((k is ActionKind.PASS and offer)
                                  or k is ActionKind.DRAW_STOCK):
            other.opp_passed |= 1 << top
        elif k in (ActionKind.KNOCK, ActionKind.GIN):
            assert a.card is not None
            self.seen[seat].own_knock |= 1 << a.card


class GinRummyEnv(AECEnv):  # type: ignore[misc]
    """Gin Rummy of any form under any :class:`~ginrummy.rules.Rules` as a PettingZoo AEC
    environment (see the module docstring for agents, actions, observations and rewards).

    :param rules: a preset name, a :class:`Rules`, or a dict of fields with an optional
        ``"preset"`` (:meth:`Rules.from_dict`).
    :param episode: ``"hand"`` (one hand: one deal; partnership: both tables' deals) or
        ``"game"`` (hands to the end of the game; Hollywood: of its three games).
    :param reward: ``"points"`` or ``"win"``.
    :param max_actions: the episode is truncated after this many actions (all deals together).
    :param render_mode: ``None``, ``"ansi"`` (render returns text) or ``"human"`` (prints it).
    :param scoring: the form of the game (:data:`ginrummy.variants.SCORINGS`): ``"standard"``,
        ``"hollywood"`` (two agents), ``"three_player"`` (three), ``"partnership"`` (four).
    :raises ValueError: an unknown option (:class:`~ginrummy.errors.RulesError` for rules, or
        rules the form cannot honour: :func:`ginrummy.variants.check_table`).
    """

    metadata = {"name": "ginrummy_v0", "render_modes": ["ansi", "human"],
                "is_parallelizable": False}

    def __init__(self, rules: Rules | str | dict[str, Any] = "standard", episode: str = "hand",
                 reward: str = "points", max_actions: int = 2000,
                 render_mode: str | None = None, scoring: str = "standard") -> None:
        super().__init__()
        if isinstance(rules, str):
            rules = Rules.preset(rules)
        elif isinstance(rules, dict):
            rules = Rules.from_dict(rules)
        elif not isinstance(rules, Rules):
            raise ValueError("rules must be a preset name, a Rules or a dict of Rules fields")
        if scoring not in PLAYER_COUNT:
            raise ValueError(f"unknown scoring {scoring!r}; scorings: {', '.join(SCORINGS)}")
        check_table(rules, scoring)
        self.rules = rules
        self.scoring = scoring
        if episode not in ("hand", "game"):
            raise ValueError(f"episode must be 'hand' or 'game', not {episode!r}")
        if reward not in ("points", "win"):
            raise ValueError(f"reward must be 'points' or 'win', not {reward!r}")
        if render_mode not in (None, "ansi", "human"):
            raise ValueError(f"render_mode must be None, 'ansi' or 'human', not {render_mode!r}")
        if max_actions < 1:
            raise ValueError("max_actions must be at least 1")
        self.episode = episode
        self.reward_kind = reward
        self.max_actions = max_actions
        self.render_mode = render_mode
        self._n = PLAYER_COUNT[scoring]
        self.possible_agents = [f"player_{p}" for p in range(self._n)]
        self._player = {a: p for p, a in enumerate(self.possible_agents)}
        self._size = observation_size(scoring)
        self._obs_space = spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, (self._size,), np.float32),
            "action_mask": spaces.Box(0, 1, (N_ACTIONS,), np.int8),
        })
        self._act_space: spaces.Space[Any] = spaces.Discrete(N_ACTIONS)
        self._rng = random.Random()
        self._bot_rng = random.Random()
        self.game: Game | None = None
        self._bots: dict[str, Any] = {}
        self._tracks: dict[int, _Track] = {}
        self._turn = 0  # the deal the selected agent acts in
        # per player: (deal index, engine seat) of its deal of the hand, or None (sits out)
        self._own: list[tuple[int, int] | None] = []
        # per player: the index of the hand's deal it does not play, or None
        self._watch: list[int | None] = []
        self._legal: list[int] = []
        self._legal_text: list[str] = []
        self._legal_key: tuple[int, int] = (-1, -1)

    # --------------------------------------------------------------------------- spaces
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._act_space

    # ---------------------------------------------------------------------------- state
    @property
    def hand(self) -> HandState:
        """The deal the selected agent acts in (or the last deal, once the episode is over).

        :raises RuntimeError: before :meth:`reset`."""
        if self.game is None or self.game.current is None:
            raise RuntimeError("call reset() first")
        return self.game.deals[self._turn]

    def view(self, agent: str) -> PlayerView:
        """``agent``'s view of the deal it plays in the current hand.

        :raises ValueError: ``agent`` sits this hand out (three players: the dealer)."""
        own = self._own[self._player[agent]] if self.game is not None else None
        if own is None:
            raise ValueError(f"{agent} sits this hand out: see table_view()")
        return view_of(self.game.deals[own[0]], own[1])  # type: ignore[union-attr]

    def table_view(self, agent: str) -> TableView:
        """All ``agent`` may know of the table (:func:`ginrummy.views.table_view`)."""
        if self.game is None:
            raise RuntimeError("call reset() first")
        return table_view(self.game, self._player[agent])

    def legal_actions(self, agent: str) -> list[int]:
        """Indices of ``agent``'s legal actions now (empty unless it is the selected agent:
        the other partnership table's mover waits for its turn)."""
        own = self._own[self._player[agent]] if self.game is not None else None
        if own is None or own[0] != self._turn:
            return []
        return list(self._legal_of(*own))

    def _legal_of(self, index: int, seat: int) -> list[int]:
        """The legal actions of ``seat`` in deal ``index``, the cached list itself (not to be
        changed); empty unless that seat is to act."""
        assert self.game is not None
        h = self.game.deals[index]
        if seat != h.current or h.phase is Phase.DONE:
            return []
        key = (index, len(h.history))
        if self._legal_key != key:
            self._legal = [action_index(a) for a in h.legal_actions()]
            self._legal_text = [_INDEX_TEXTS[i] for i in self._legal]
            self._legal_key = key
        return self._legal

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``agent``'s observation (:func:`observation_of`'s layout; three or four players:
        :func:`table_observation_of`'s) and action mask."""
        p = self._player[agent]
        g = self.game
        assert g is not None
        own = self._own[p]
        target = self.rules.target if self.episode == "game" else None
        mask = np.zeros(N_ACTIONS, dtype=np.int8)
        out = None if self._n == 2 else np.zeros(self._size, dtype=np.float32)
        if own is not None:
            i, seat = own
            h = g.deals[i]
            if i == self._turn:  # the other partnership table's mover is not selected: no action
                mask[self._legal_of(i, seat)] = 1
            tr = self._tracks[i]
            seen = tr.seen[seat]
            hand = h.hands[seat]
            opp_known = h.known[1 - seat]
            pile_mask = tr.pile_mask
            unseen = _FULL & ~hand & ~opp_known & ~pile_mask & ~seen.own_knock
            opp = g.seatings[i].players[1 - seat]
            obs = _vector(hand, h.discard_pile, opp_known, seen.opp_discarded, seen.opp_passed,
                          unseen, h.stock_count, h.knock_limit, h.phase,
                          h.current == seat and not h.is_over, h.dealer == seat,
                          h.hands[1 - seat].bit_count(), (g.progress(p), g.progress(opp)),
                          target, pile_mask, out)
            if out is None:
                return {"observation": obs, "action_mask": mask}
        assert out is not None
        w = self._watch[p]
        if w is not None:
            h = g.deals[w]
            tr = self._tracks[w]
            s = g.seatings[w]
            _public_vector(out, OBSERVATION_SIZE, _order(p, s.players, self._n), h.discard_pile,
                           tr.pile_mask, h.known,
                           (tr.seen[1].opp_discarded, tr.seen[0].opp_discarded),
                           h.stock_count, h.knock_limit, h.phase, h.current, h.dealer,
                           (h.hands[0].bit_count(), h.hands[1].bit_count()))
        sitter = g.seatings[self._turn].dealer if self._n == 3 else None
        sides = [g.progress(side[0]) for side in g.sheet.sides]
        _table_vector(out, OBSERVATION_SIZE + PUBLIC_SIZE, p, self._n, own is None, sitter,
                      sides, target)
        return {"observation": out, "action_mask": mask}

    # ------------------------------------------------------------------------------ play
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start an episode; ``seed`` makes its decks, cuts (and so the whole episode)
        reproducible. ``options={"first_dealer": p}`` fixes the first dealer (a seat 0 or 1;
        three players: a player 0..2; ignored in partnership, where each pair cuts), else drawn
        from the seeded generator."""
        if seed is not None:
            self._rng = random.Random(seed)
            # the computer players' own generator: asking bot_action() never changes the deals
            self._bot_rng = random.Random(f"bots:{seed}")
        first: Any = (options or {}).get("first_dealer")
        n = 3 if self._n == 3 else 2
        if first not in range(n) or isinstance(first, bool):
            first = self._rng.randrange(n)
        self.game = Game(self.rules, int(first), self.scoring)
        self._deal()
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self._paid = [0.0] * self._n
        self._actions = 0
        self._set_infos()

    def _deal(self) -> None:
        """Deal the next hand (each deck, and each pair's cut, from the seeded generator) and
        select its first agent to act (the first table's, as :func:`ginrummy.bots.play.advance`
        moves them)."""
        g = self.game
        assert g is not None
        self._tracks = {}
        for plan in g.next_deals():
            deck = list(range(52))
            self._rng.shuffle(deck)
            h = g.new_hand(deck, None if plan.dealer is not None else self._rng.randrange(2))
            self._tracks[len(g.deals) - 1] = _Track(h)
        self._legal_key = (-1, -1)
        hand = list(self._tracks)
        self._own = [None] * self._n
        self._watch = [None] * self._n
        for i in hand:
            s = g.seatings[i]
            for p in range(self._n):
                if s.plays(p):
                    self._own[p] = (i, s.players.index(p))
                elif self._n > 2:
                    self._watch[p] = i
        self._turn = hand[0]
        self.agent_selection = self.possible_agents[g.seatings[hand[0]].players[
            g.deals[hand[0]].current]]

    def _set_infos(self) -> None:
        g = self.game
        assert g is not None
        h = self.hand
        if self._n == 2:
            number = len(g.deals)
            # only the seat to act has legal actions (none once the deal is over)
            to_act = None if h.is_over else self.possible_agents[h.current]
            if to_act is not None and not self._legal_of(self._turn, h.current):
                to_act = None
            self.infos = {a: {"legal": list(self._legal_text) if a == to_act else [],
                              "hand_number": number}
                          for a in self.agents}
            if h.is_over and h.outcome is not None:
                for a in self.agents:
                    self.infos[a]["outcome"] = {"kind": h.outcome.kind,
                                                "winner": h.outcome.winner,
                                                "points": h.outcome.points}
            return
        number = g.seatings[-1].hand
        mover = g.mover(self._turn)
        legal = self._legal_of(self._turn, h.current) if mover is not None else []
        self.infos = {}
        for a in self.agents:
            p = self._player[a]
            own = self._own[p]
            i = own[0] if own is not None else self._watch[p]
            info: dict[str, Any] = {
                "legal": [_INDEX_TEXTS[x] for x in legal] if p == mover else [],
                "hand_number": number, "deal": i, "seat": None if own is None else own[1]}
            o = None if i is None else g.deals[i].outcome
            if o is not None:
                info["outcome"] = {"kind": o.kind, "winner": o.winner, "points": o.points,
                                   "winner_player": g.winner_of(i)}  # type: ignore[arg-type]
            self.infos[a] = info

    def step(self, action: int | np.integer[Any] | None) -> None:
        """Apply the selected agent's action (an index; ``None`` for an agent that is done).

        :raises IllegalActionError: the action is not legal now (nothing changes).
        :raises ValueError: not an index 0..160.
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError("an agent that is still playing must act (action None)")
        if isinstance(action, bool) or not isinstance(action, int | np.integer):
            raise ValueError(f"an action is an integer index 0..{N_ACTIONS - 1}, "
                             f"not {action!r}")
        i = int(action)
        a = _INDEX_ACTIONS[i] if 0 <= i < N_ACTIONS else index_action(i)  # (which raises)
        g = self.game
        assert g is not None
        d = self._turn
        h = g.deals[d]
        if i not in self._legal_of(d, h.current):
            h.verify(a)  # raises (with the reason) before anything changes
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {x: 0.0 for x in self.agents}
        seat = h.current
        pile = h.discard_pile
        n_pile = len(pile)
        top = pile[-1] if pile else None
        offer = h.phase is Phase.OFFER
        g.apply(a, d)
        tr = self._tracks[d]
        # the pile gains or loses at most its top card per action
        if len(pile) > n_pile:
            tr.pile_mask |= 1 << pile[-1]
        elif len(pile) < n_pile:
            assert top is not None
            tr.pile_mask &= ~(1 << top)
        tr.track(seat, a, top, offer)
        self._actions += 1
        if h.is_over and g.hand_over():
            self._end_of_hand(d)
        elif self._actions >= self.max_actions:
            self.truncations = {x: True for x in self.agents}
        if not (all(self.terminations.values()) or all(self.truncations.values())):
            self._select(d)
        self._set_infos()
        self._accumulate_rewards()
        if self.render_mode == "human":
            print(self.render())

    def _select(self, last: int) -> None:
        """Select the agent to act next after an action in deal ``last``: the deals in play
        take turns, one action each, in deal order (as :func:`ginrummy.bots.play.advance`)."""
        g = self.game
        assert g is not None
        if self._n == 2:
            self._turn = len(g.deals) - 1
            self.agent_selection = self.possible_agents[g.deals[self._turn].current]
            return
        live = g.in_play()
        d = next((i for i in live if i > last), live[0])
        self._turn = d
        self.agent_selection = self.possible_agents[g.seatings[d].players[g.deals[d].current]]

    # --------------------------------------------------------------------------- rewards
    def _end_of_hand(self, last: int) -> None:
        """Every deal of the hand is over and entered on the sheet: pay the rewards, then end
        the episode or deal the next hand."""
        g = self.game
        assert g is not None
        game_end = self.episode == "hand" or g.is_over
        if self.reward_kind == "points":
            pay = self._hand_points(last)
            if self.episode == "game" and g.is_over:
                final = self._final_points()
                pay = [final[p] - self._paid[p] for p in range(self._n)]
            for p in range(self._n):
                self.rewards[self.possible_agents[p]] = pay[p]
                self._paid[p] += pay[p]
        elif game_end:
            for p, r in enumerate(self._win(last)):
                self.rewards[self.possible_agents[p]] = r
        if game_end:
            self.terminations = {x: True for x in self.agents}
        else:
            self._deal()

    def _hand_points(self, last: int) -> list[float]:
        """Per player, the hand points its side won (+) or lost (-) in the hand just entered on
        the sheet: the deal's winner and loser (Hollywood: times the games the points went
        into; three players: the one who sat out gets 0); partnership: each partner the team's
        net for the hand (4P)."""
        g = self.game
        assert g is not None
        pay = [0.0] * self._n
        sh = g.sheet
        if isinstance(sh, PartnershipSheet):
            line = sh.game.hands[-1]
            if line.winner is not None:
                for p in range(4):
                    pay[p] = float(line.points if p % 2 == line.winner else -line.points)
            return pay
        o = g.deals[last].outcome
        assert o is not None
        if o.winner is not None and o.points:
            players = g.seatings[last].players
            won = float(o.points * len(g.entered.get(last, (1,))))
            pay[players[o.winner]] = won
            pay[players[1 - o.winner]] = -won
        return pay

    def _final_points(self) -> list[float]:
        """Per player, once the game is over: its side's settled total minus the other side's
        (R-10.5; Hollywood: over the three games); three players: the winner the sum of its
        margins over each opponent, each opponent minus its own."""
        g = self.game
        assert g is not None
        sh = g.sheet
        if isinstance(sh, ThreePlayerSheet):
            net = [0.0] * 3
            for opp, f in sh.settlements().items():
                assert sh.winner is not None
                net[sh.winner] += f.margin
                net[opp] -= f.margin
            return net
        t = sh.totals()
        return [float(t[g.side_of(p)] - t[1 - g.side_of(p)]) for p in range(self._n)]

    def _win(self, last: int) -> list[float]:
        """Per player, at the end of the episode: +1 to the winning side, -1 to the losing one
        (three players: -0.5 to each loser of the game; the one who sat out a hand episode's
        deal 0); all 0 for a dead hand, a net tie or a tied match."""
        g = self.game
        assert g is not None
        out = [0.0] * self._n
        if self.episode == "hand":
            sh = g.sheet
            if isinstance(sh, PartnershipSheet):
                w = sh.game.hands[-1].winner
                if w is not None:
                    out = [1.0 if p % 2 == w else -1.0 for p in range(4)]
                return out
            o = g.deals[last].outcome
            assert o is not None
            if o.winner is not None:
                players = g.seatings[last].players
                out[players[o.winner]] = 1.0
                out[players[1 - o.winner]] = -1.0
            return out
        winners = g.winners()
        if winners:
            lose = -1.0 / (self._n - 1) if self._n == 3 else -1.0
            out = [1.0 if p in winners else lose for p in range(self._n)]
        return out

    # ----------------------------------------------------------------------------- bots
    def bot_action(self, level: str = "hard", seed: int | None = None) -> int:
        """The index of the action the computer player ``level`` (``ginrummy.bots``) would play
        for the agent to act, from that agent's view only (an opponent to train against), with
        the context the one bot loop gives it (:func:`ginrummy.bots.play.context_of`: the score
        toward the target of its deal's two sides). A knock the bot would make with a spread of
        its choice is given as that knock's index (the environment spreads by default, R-4.5).
        Without ``seed`` the bot draws from the environment's own bot generator (seeded by
        :meth:`reset`), never from the one that shuffles the decks: asking for a bot's move
        does not change the deals."""
        bot = self._bots.get(level)
        if bot is None:
            bot = self._bots[level] = make_bot(level)
        g = self.game
        assert g is not None
        d = self._turn
        h = g.deals[d]
        rng = random.Random(seed if seed is not None else self._bot_rng.random())
        a = bot.choose(view_of(h, h.current), context_of(g, d, rng))
        if a.melds is not None:
            a = Action(a.kind, a.card)
        return action_index(a)

    def render(self) -> str | None:
        """A one-screen text picture of the deal (the seat to act's own view) for ``"ansi"``;
        printed by :meth:`step` for ``"human"``."""
        if self.render_mode is None or self.game is None:
            return None
        g = self.game
        h = self.hand
        if self.scoring == "standard":
            score = f"points {tuple(g.hand_points)}"
        else:
            score = "points " + str(tuple(g.progress(side[0]) for side in g.sheet.sides))
        lines = [f"deal {len(g.deals)}, phase {h.phase.value}, stock {len(h.stock())}, {score}"]
        agent = self.agent_selection
        s = g.seatings[self._turn]
        v = view_of(h, s.players.index(self._player[agent]))
        top = card_text(v.discard_pile[-1]) if v.discard_pile else "-"
        lines.append(f"{agent} holds {v.hand.format()}; discard pile top {top}")
        if v.legal:
            lines.append("legal: " + ", ".join(a.text for a in v.legal))
        if h.outcome is not None:
            lines.append(f"outcome: {h.outcome.kind}, winner {h.outcome.winner}, "
                         f"{h.outcome.points} points")
        return "\n".join(lines)

    def close(self) -> None:
        pass


def env(**kwargs: Any) -> GinRummyEnv:
    """PettingZoo's usual constructor name: ``ginrummy.env.env(rules="oklahoma")``."""
    return GinRummyEnv(**kwargs)
