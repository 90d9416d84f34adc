"""A standard multi-agent reinforcement-learning environment: Gin Rummy as a PettingZoo AEC game.

Needs the ``rl`` extra (``pip install 'ginrummy[rl]'``: PettingZoo and Gymnasium); the engine
itself does not. Each agent observes only its own :class:`~ginrummy.views.PlayerView` (DESIGN.md
principle 6): the observation never depends on the opponent's unknown cards or the stock order.

>>> env = GinRummyEnv(rules="eaai")
>>> env.reset(seed=1)
>>> obs, reward, terminated, truncated, info = env.last()
>>> obs["observation"].shape, int(obs["action_mask"].sum()), info["legal"]
((376,), 2, ['take', 'pass'])
>>> env.step(action_index("pass"))

**Agents**: ``"player_0"`` and ``"player_1"`` (seats 0 and 1).

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

**Observation** (``float32``, 376 values), from the acting agent's view (see
:func:`observation_of` for the layout): 7 planes of 52 cards (own hand; top of the discard pile;
the rest of the pile; cards the opponent took from the pile and still holds; cards it discarded;
face-up cards it declined; cards not seen) then 12 scalars (stock size, knock limit, phase, seat
roles, score progress).

**Rewards**: ``reward="points"`` (default): when a deal ends its winner gets ``+points`` and
the loser ``-points`` (R-7); in ``episode="game"`` the end of the game adds the settlement
(game bonus, boxes, shutout: R-10) so that each agent's rewards sum to its final total minus the
opponent's. ``reward="win"``: +1 / -1 at the end of the episode (0 for a dead hand or tie).

**Episodes**: ``episode="hand"`` (default) is one deal; ``"game"`` plays deals to the target
(R-10.1), dealing each new deck from the environment's seeded generator. An episode is
truncated after ``max_actions`` actions (the rules let two players trade face-up cards for ever).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]

from .actions import BIG_GIN, DRAW_DISCARD, DRAW_STOCK, PASS, TAKE, Action, ActionKind
from .bots import make_bot
from .bots.base import Context
from .bots.knowledge import read_view
from .cards import card_text
from .game import Game
from .hand import HandState, Phase
from .rules import Rules
from .views import PlayerView, view_of

__all__ = ["GinRummyEnv", "env", "action_index", "index_action", "observation_of",
           "N_ACTIONS", "OBSERVATION_SIZE"]

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
            target: int | None, pile_mask: int | None = None) -> np.ndarray:
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


class GinRummyEnv(AECEnv):  # type: ignore[misc]
    """Two-player Gin Rummy under any :class:`~ginrummy.rules.Rules` as a PettingZoo AEC
    environment (see the module docstring for actions, observations and rewards).

    :param rules: a preset name, a :class:`Rules`, or a dict of fields with an optional
        ``"preset"`` (:meth:`Rules.from_dict`). Two-player rules only: Hollywood, three players
        and partnership are tables of several games (:mod:`ginrummy.sheets`), not presets.
    :param episode: ``"hand"`` (one deal) or ``"game"`` (deals to the target).
    :param reward: ``"points"`` or ``"win"``.
    :param max_actions: the episode is truncated after this many actions.
    :param render_mode: ``None``, ``"ansi"`` (render returns text) or ``"human"`` (prints it).
    :raises ValueError: an unknown option (:class:`~ginrummy.errors.RulesError` for rules).
    """

    metadata = {"name": "ginrummy_v0", "render_modes": ["ansi", "human"],
                "is_parallelizable": False}

    def __init__(self, rules: Rules | str | dict[str, Any] = "standard", episode: str = "hand",
                 reward: str = "points", max_actions: int = 2000,
                 render_mode: str | None = None) -> None:
        super().__init__()
        if isinstance(rules, str):
            rules = Rules.preset(rules)
        elif isinstance(rules, dict):
            rules = Rules.from_dict(rules)
        elif not isinstance(rules, Rules):
            raise ValueError("rules must be a preset name, a Rules or a dict of Rules fields")
        self.rules = rules
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
        self.possible_agents = ["player_0", "player_1"]
        self._obs_space = spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, (OBSERVATION_SIZE,), np.float32),
            "action_mask": spaces.Box(0, 1, (N_ACTIONS,), np.int8),
        })
        self._act_space: spaces.Space[Any] = spaces.Discrete(N_ACTIONS)
        self._rng = random.Random()
        self._bot_rng = random.Random()
        self.game: Game | None = None
        self._bots: dict[str, Any] = {}
        self._seen = [_Seen(), _Seen()]
        self._legal: list[int] = []
        self._legal_text: list[str] = []
        self._legal_key: tuple[int, int] = (-1, -1)
        self._pile_mask = 0  # the cards of the deal's discard pile

    # --------------------------------------------------------------------------- spaces
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._act_space

    # ---------------------------------------------------------------------------- state
    @property
    def hand(self) -> HandState:
        """The deal in play (or just ended). :raises RuntimeError: before :meth:`reset`."""
        if self.game is None or self.game.current is None:
            raise RuntimeError("call reset() first")
        return self.game.current

    def view(self, agent: str) -> PlayerView:
        """``agent``'s view of the deal in play."""
        return view_of(self.hand, self.possible_agents.index(agent))

    def legal_actions(self, agent: str) -> list[int]:
        """Indices of ``agent``'s legal actions now (empty when it is not to act)."""
        return list(self._legal_of(self.possible_agents.index(agent)))

    def _legal_of(self, seat: int) -> list[int]:
        """:meth:`legal_actions` of ``seat``, the cached list itself (not to be changed)."""
        h = self.hand
        if seat != h.current or h.phase is Phase.DONE:
            return []
        key = (len(self.game.deals) if self.game else 0, len(h.history))
        if self._legal_key != key:
            self._legal = [action_index(a) for a in h.legal_actions()]
            self._legal_text = [_INDEX_TEXTS[i] for i in self._legal]
            self._legal_key = key
        return self._legal

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``agent``'s observation (:func:`observation_of`'s layout) and action mask."""
        seat = self.possible_agents.index(agent)
        g = self.game
        assert g is not None
        h = self.hand
        progress = (g.progress(seat), g.progress(1 - seat))
        target = self.rules.target if self.episode == "game" else None
        mask = np.zeros(N_ACTIONS, dtype=np.int8)
        mask[self._legal_of(seat)] = 1
        seen = self._seen[seat]
        hand = h.hands[seat]
        opp_known = h.known[1 - seat]
        pile_mask = self._pile_mask
        unseen = _FULL & ~hand & ~opp_known & ~pile_mask & ~seen.own_knock
        obs = _vector(hand, h.discard_pile, opp_known, seen.opp_discarded, seen.opp_passed,
                      unseen, h.stock_count, h.knock_limit, h.phase,
                      h.current == seat and not h.is_over, h.dealer == seat,
                      h.hands[1 - seat].bit_count(), progress, target, pile_mask)
        return {"observation": obs, "action_mask": mask}

    def _track(self, seat: int, a: Action, top: int | None, offer: bool) -> None:
        """Update both seats' :class:`_Seen` after ``seat`` played ``a`` (``top``: the pile's
        top card before it; ``offer``: it was the first-turn offer, R-3.1). A stock draw
        declines the top card; the forced one after two offer passes (R-3.2) declines the
        upcard already passed, so it changes nothing."""
        other = self._seen[1 - seat]
        k = a.kind
        if k is ActionKind.DISCARD:
            assert a.card is not None
            other.opp_discarded |= 1 << a.card
        elif top is not None and ((k is ActionKind.PASS and offer)
                                  or k is ActionKind.DRAW_STOCK):
            other.opp_passed |= 1 << top
        elif k in (ActionKind.KNOCK, ActionKind.GIN):
            assert a.card is not None
            self._seen[seat].own_knock |= 1 << a.card

    # ------------------------------------------------------------------------------ play
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start an episode; ``seed`` makes its decks (and so the whole episode) reproducible.
        ``options={"first_dealer": 0 or 1}`` fixes the first dealer (else drawn from the
        seeded generator)."""
        if seed is not None:
            self._rng = random.Random(seed)
            # the computer players' own generator: asking bot_action() never changes the deals
            self._bot_rng = random.Random(f"bots:{seed}")
        first = (options or {}).get("first_dealer")
        if first not in (0, 1):
            first = self._rng.randrange(2)
        self.game = Game(self.rules, first)
        self._deal()
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self._paid = [0.0, 0.0]
        self._actions = 0
        self._set_infos()
        self.agent_selection = self.possible_agents[self.hand.current]

    def _deal(self) -> None:
        assert self.game is not None
        deck = list(range(52))
        self._rng.shuffle(deck)
        self.game.new_hand(deck)
        self._seen = [_Seen(), _Seen()]
        self._legal_key = (-1, -1)
        self._pile_mask = 0
        for c in self.hand.discard_pile:
            self._pile_mask |= 1 << c

    def _set_infos(self) -> None:
        h = self.hand
        number = len(self.game.deals) if self.game else 0
        # only the seat to act has legal actions (none once the deal is over)
        to_act = None if h.is_over else self.possible_agents[h.current]
        if to_act is not None and not self._legal_of(h.current):
            to_act = None
        self.infos = {a: {"legal": list(self._legal_text) if a == to_act else [],
                          "hand_number": number}
                      for a in self.agents}
        if h.is_over and h.outcome is not None:
            for a in self.agents:
                self.infos[a]["outcome"] = {"kind": h.outcome.kind, "winner": h.outcome.winner,
                                            "points": h.outcome.points}

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
        h = self.hand
        if i not in self._legal_of(h.current):
            h.verify(a)  # raises (with the reason) before anything changes
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {x: 0.0 for x in self.agents}
        seat = h.current
        pile = h.discard_pile
        n_pile = len(pile)
        top = pile[-1] if pile else None
        offer = h.phase is Phase.OFFER
        g.apply(a)
        # the pile gains or loses at most its top card per action
        if len(pile) > n_pile:
            self._pile_mask |= 1 << pile[-1]
        elif len(pile) < n_pile:
            assert top is not None
            self._pile_mask &= ~(1 << top)
        self._track(seat, a, top, offer)
        self._actions += 1
        if h.is_over:
            self._end_of_deal(h)
        elif self._actions >= self.max_actions:
            self.truncations = {x: True for x in self.agents}
        if not (all(self.terminations.values()) or all(self.truncations.values())):
            self.agent_selection = self.possible_agents[self.hand.current]
        self._set_infos()
        self._accumulate_rewards()
        if self.render_mode == "human":
            print(self.render())

    def _end_of_deal(self, h: HandState) -> None:
        g = self.game
        assert g is not None and h.outcome is not None
        o = h.outcome
        game_end = self.episode == "hand" or g.is_over
        if self.reward_kind == "points":
            pay = [0.0, 0.0]
            if o.winner is not None and o.points:
                pay[o.winner] = float(o.points)
                pay[1 - o.winner] = -float(o.points)
            if self.episode == "game" and g.is_over:
                t = g.final().totals
                for s in (0, 1):
                    pay[s] = (t[s] - t[1 - s]) - self._paid[s]
            for s in (0, 1):
                self.rewards[self.possible_agents[s]] = pay[s]
                self._paid[s] += pay[s]
        elif game_end:
            w = o.winner if self.episode == "hand" else g.winner
            if w is not None:
                self.rewards[self.possible_agents[w]] = 1.0
                self.rewards[self.possible_agents[1 - w]] = -1.0
        if game_end:
            self.terminations = {x: True for x in self.agents}
        else:
            self._deal()

    def bot_action(self, level: str = "hard", seed: int | None = None) -> int:
        """The index of the action the computer player ``level`` (``ginrummy.bots``) would play
        for the agent to act, from that agent's view only (an opponent to train against). A
        knock the bot would make with a spread of its choice is given as that knock's index
        (the environment spreads by default, R-4.5). Without ``seed`` the bot draws from the
        environment's own bot generator (seeded by :meth:`reset`), never from the one that
        shuffles the decks: asking for a bot's move does not change the deals."""
        bot = self._bots.get(level)
        if bot is None:
            bot = self._bots[level] = make_bot(level)
        g = self.game
        assert g is not None
        seat = self.possible_agents.index(self.agent_selection)
        rng = random.Random(seed if seed is not None else self._bot_rng.random())
        ctx = Context(rng=rng, hand_points=(g.hand_points[seat], g.hand_points[1 - seat]),
                      target=self.rules.target)
        a = bot.choose(self.view(self.agent_selection), ctx)
        if a.melds is not None:
            a = Action(a.kind, a.card)
        return action_index(a)

    def render(self) -> str | None:
        """A one-screen text picture of the deal (the seat to act's own view) for ``"ansi"``;
        printed by :meth:`step` for ``"human"``."""
        if self.render_mode is None or self.game is None:
            return None
        h = self.hand
        lines = [f"deal {len(self.game.deals)}, phase {h.phase.value}, "
                 f"stock {len(h.stock())}, points {tuple(self.game.hand_points)}"]
        agent = self.agent_selection
        v = self.view(agent)
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
