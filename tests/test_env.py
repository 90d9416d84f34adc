"""ginrummy.env: the PettingZoo AEC environment (PRODUCT.md: "a standard multi-agent RL
environment interface").

PettingZoo's own API conformance and seed tests, then ours: the action mask is exactly the
engine's legal actions, illegal steps raise and change nothing, rewards follow R-7 / R-10 and are
zero-sum, observations hold nothing hidden (DESIGN.md principle 6).
"""

from __future__ import annotations

import random
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from ginrummy.actions import Action, ActionKind  # noqa: E402
from ginrummy.cards import CardSet, parse_card  # noqa: E402
from ginrummy.env import (  # noqa: E402
    N_ACTIONS,
    OBSERVATION_SIZE,
    PUBLIC_SIZE,
    GinRummyEnv,
    action_index,
    index_action,
    observation_of,
    observation_size,
    table_observation_of,
)
from ginrummy.errors import IllegalActionError  # noqa: E402
from ginrummy.hand import HandState  # noqa: E402
from ginrummy.rules import Rules  # noqa: E402
from ginrummy.variants import PLAYER_COUNT  # noqa: E402
from ginrummy.views import table_view, view_of  # noqa: E402

#: every form with rules that go with it (a low target: games of a few hands)
FORMS = [("hollywood", Rules.preset("pagat", target=40)),
         ("three_player", Rules.preset("standard", target=60)),
         ("partnership", Rules.preset("partnership", target=60))]


@pytest.mark.parametrize(("rules", "episode", "scoring"), [
    ("standard", "hand", "standard"), ("oklahoma", "game", "standard"),
    ("straight", "hand", "standard"), ("pagat", "game", "standard"),
    *[(r, e, s) for s, r in FORMS for e in ("hand", "game")]])
def test_pettingzoo_api(rules: str | Rules, episode: str, scoring: str) -> None:
    with warnings.catch_warnings():  # dict observations with an action mask, as in PettingZoo's
        warnings.simplefilter("ignore")  # own classic card games
        api_test(GinRummyEnv(rules=rules, episode=episode, scoring=scoring), num_cycles=1500,
                 verbose_progress=False)


@pytest.mark.parametrize(("rules", "scoring"), [("eaai", "standard"), *[(r, s)
                                                                       for s, r in FORMS]])
def test_pettingzoo_seed(rules: str | Rules, scoring: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        seed_test(lambda: GinRummyEnv(rules=rules, scoring=scoring, episode="game"),
                  num_cycles=300)


def test_action_indices_round_trip() -> None:
    seen = set()
    for i in range(N_ACTIONS):
        a = index_action(i)
        assert action_index(a) == i
        assert action_index(a.text) == i
        seen.add(a.text)
    assert len(seen) == N_ACTIONS
    assert action_index("knock 3D") == 56 + parse_card("3D")
    assert index_action(160).kind is ActionKind.BIG_GIN
    with pytest.raises(ValueError):
        index_action(161)
    with pytest.raises(ValueError):
        index_action(-1)
    with pytest.raises(ValueError, match="default spread"):
        action_index("knock 3D: 4S5S6S 9C9D9H")


def _play(env: GinRummyEnv, rng: random.Random) -> None:
    for _agent in env.agent_iter():
        obs, _r, term, trunc, _info = env.last()
        if term or trunc:
            env.step(None)
            continue
        env.step(int(rng.choice(list(np.flatnonzero(obs["action_mask"])))))


@pytest.mark.parametrize("rules", ["standard", "oklahoma", "straight", "eaai"])
def test_mask_is_the_engines_legal_actions(rules: str) -> None:
    env = GinRummyEnv(rules=rules)
    rng = random.Random(3)
    for episode in range(20):
        env.reset(seed=episode)
        while env.agents:
            agent = env.agent_selection
            obs, _r, term, trunc, info = env.last()
            if term or trunc:
                env.step(None)
                continue
            h = env.hand
            assert env.possible_agents[h.current] == agent
            want = sorted(action_index(a) for a in h.legal_actions())
            assert list(np.flatnonzero(obs["action_mask"])) == want
            assert info["legal"] == [index_action(i).text for i in want]
            other = env.possible_agents[1 - h.current]
            assert not env.observe(other)["action_mask"].any()
            env.step(int(rng.choice(want)))


def test_illegal_step_raises_and_changes_nothing() -> None:
    env = GinRummyEnv(rules="standard")
    env.reset(seed=5)
    before = (len(env.hand.history), env.agent_selection, env.hand.phase)
    obs = env.observe(env.agent_selection)["observation"].copy()
    illegal = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError):
        env.step(illegal)
    with pytest.raises(ValueError):
        env.step(999)
    with pytest.raises(ValueError):
        env.step(None)
    assert (len(env.hand.history), env.agent_selection, env.hand.phase) == before
    assert np.array_equal(env.observe(env.agent_selection)["observation"], obs)


def _play_ending_fast(env: GinRummyEnv, seed: int, rng: random.Random) -> dict[str, float]:
    """One episode where each player knocks or goes gin as soon as it may (else plays a random
    legal action); the sum of each agent's rewards."""
    env.reset(seed=seed)
    total = dict.fromkeys(env.possible_agents, 0.0)
    while env.agents:
        agent = env.agent_selection
        obs, r, term, trunc, _info = env.last()
        total[agent] += r
        if term or trunc:
            env.step(None)
            continue
        legal = [index_action(i) for i in np.flatnonzero(obs["action_mask"])]
        ends = [a for a in legal if a.kind in (ActionKind.KNOCK, ActionKind.GIN)]
        env.step(action_index(ends[0] if ends else rng.choice(legal)))
    return total


def test_hand_rewards_are_the_deals_points() -> None:
    """R-7: the winner scores the hand's points; the env pays +points / -points."""
    env = GinRummyEnv(rules="standard")
    rng = random.Random(11)
    kinds = set()
    for s in range(40):
        total = _play_ending_fast(env, s, rng)
        o = env.hand.outcome
        assert o is not None
        kinds.add(o.kind)
        want = {a: 0.0 for a in env.possible_agents}
        if o.winner is not None:
            want[env.possible_agents[o.winner]] = o.points
            want[env.possible_agents[1 - o.winner]] = -o.points
        assert total == want
    assert "knock" in kinds


def test_game_rewards_sum_to_the_final_margin() -> None:
    """R-10: over a game episode each agent's rewards add up to its total minus the other's."""
    env = GinRummyEnv(rules=Rules.preset("standard", target=40), episode="game")
    rng = random.Random(2)
    for s in range(6):
        total = _play_ending_fast(env, s, rng)
        g = env.game
        assert g is not None and g.is_over
        t = g.final().totals
        assert total["player_0"] == t[0] - t[1]
        assert total["player_1"] == t[1] - t[0]
        assert len(g.deals) >= 1


def test_win_rewards() -> None:
    env = GinRummyEnv(rules=Rules.preset("standard", target=30), episode="game", reward="win")
    env.reset(seed=9)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    rng = random.Random(9)
    while env.agents:
        agent = env.agent_selection
        obs, r, term, trunc, _ = env.last()
        totals[agent] += r
        if term or trunc:
            env.step(None)
            continue
        env.step(env.bot_action("medium", seed=rng.randrange(10**6)))
    assert sorted(totals.values()) == [-1.0, 1.0]
    assert env.game is not None
    assert totals[env.possible_agents[env.game.winner]] == 1.0


def test_truncation_after_max_actions() -> None:
    env = GinRummyEnv(rules="standard", max_actions=5)
    env.reset(seed=1)
    _play(env, random.Random(1))
    assert not env.agents
    assert len(env.hand.history) == 5
    assert env.hand.outcome is None


def test_bot_action_is_legal() -> None:
    env = GinRummyEnv(rules="eaai")
    env.reset(seed=4)
    for _ in range(60):
        if not env.agents or env.terminations[env.agent_selection]:
            break
        i = env.bot_action("hard", seed=1)
        assert env.observe(env.agent_selection)["action_mask"][i] == 1
        env.step(i)


def test_bad_options() -> None:
    with pytest.raises(ValueError):
        GinRummyEnv(episode="match")
    with pytest.raises(ValueError):
        GinRummyEnv(reward="money")
    with pytest.raises(ValueError):
        GinRummyEnv(max_actions=0)
    with pytest.raises(RuntimeError):
        _ = GinRummyEnv().hand


def test_render_shows_only_the_acting_seats_cards() -> None:
    env = GinRummyEnv(rules="standard", render_mode="ansi")
    env.reset(seed=2)
    text = env.render()
    assert text is not None
    seat = env.hand.current
    other = env.hand.hands[1 - seat]
    assert view_of(env.hand, seat).hand.format() in text
    from ginrummy.cards import CardSet
    for c in CardSet(other).texts():
        assert f" {c}" not in text.split("holds", 1)[1].split(";")[0]


# ------------------------------------------------------------------- nothing hidden leaks
@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 60), st.integers(0, 2**32 - 1))
def test_observation_ignores_hidden_cards(deck_seed: int, steps: int, perm_seed: int) -> None:
    """Permuting the cards a seat has not seen (between the opponent's hand and the stock) and
    replaying the same actions gives that seat the same observation."""
    rules = Rules.preset("standard")
    rng = random.Random(deck_seed)
    deck = list(range(52))
    rng.shuffle(deck)
    h = HandState(rules, 0, deck)
    actions: list[Action] = []
    for _ in range(steps):
        if h.is_over:
            break
        legal = h.legal_actions()
        a = rng.choice([x for x in legal if x.kind not in (ActionKind.KNOCK, ActionKind.GIN,
                                                          ActionKind.BIG_GIN)] or legal)
        h.apply(a)
        actions.append(a)
    if h.is_over:
        return
    for seat in (0, 1):
        unseen = set(view_of(h, seat).unseen())
        positions = [i for i, c in enumerate(deck) if c in unseen]
        moved = [deck[i] for i in positions]
        random.Random(perm_seed).shuffle(moved)
        deck2 = list(deck)
        for i, c in zip(positions, moved, strict=True):
            deck2[i] = c
        h2 = HandState(rules, 0, deck2)
        try:
            for a in actions:
                h2.apply(a)
        except IllegalActionError:
            continue  # the other seat's hidden cards made one of its moves illegal
        assert np.array_equal(observation_of(view_of(h, seat)), observation_of(view_of(h2, seat)))
        assert observation_of(view_of(h, seat)).shape == (OBSERVATION_SIZE,)


@pytest.mark.parametrize(("rules", "episode"), [
    ("standard", "hand"), ("oklahoma", "game"), ("straight", "hand"),
    ("pagat", "game"),  # pagat: the fiftieth-card rule, big gin
])
def test_incremental_observation_equals_the_view_based_one(rules: str, episode: str) -> None:
    """The env keeps what each seat has seen action by action; at every step (both seats, the
    end of each deal included) it must equal :func:`observation_of` of the seat's view."""
    env = GinRummyEnv(rules=Rules.preset(rules, target=60) if episode == "game" else rules,
                      episode=episode)
    rng = random.Random(7)
    checked = 0
    for s in range(12 if episode == "hand" else 3):
        env.reset(seed=s)
        while env.agents:
            g = env.game
            assert g is not None
            for seat, agent in enumerate(env.possible_agents):
                target = env.rules.target if episode == "game" else None
                want = observation_of(view_of(env.hand, seat),
                                      (g.progress(seat), g.progress(1 - seat)), target)
                assert np.array_equal(env.observe(agent)["observation"], want), \
                    (s, len(env.hand.history), agent)
                checked += 1
            obs, _r, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = list(np.flatnonzero(obs["action_mask"]))
            env.step(int(rng.choice(legal)) if rng.random() < 0.9
                     else env.bot_action("medium", seed=rng.randrange(1000)))
    assert checked > 500


def test_asking_a_bot_does_not_change_the_deals() -> None:
    """Same seed, same moves: the decks of every deal are the same whether or not bot_action()
    was asked in between (it has its own generator)."""
    decks = []
    for ask in (False, True):
        env = GinRummyEnv(rules=Rules.preset("standard", target=60), episode="game")
        env.reset(seed=11)
        rng = random.Random(5)
        while env.agents:
            obs, _r, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            if ask:
                env.bot_action("easy")
            legal = [index_action(i) for i in np.flatnonzero(obs["action_mask"])]
            ends = [a for a in legal if a.kind in (ActionKind.KNOCK, ActionKind.GIN)]
            env.step(action_index(ends[0] if ends else rng.choice(legal)))
        assert env.game is not None
        decks.append([h.deck for h in env.game.deals])
    assert len(decks[0]) > 1 and decks[0] == decks[1]


def test_actions_must_be_integer_indices() -> None:
    env = GinRummyEnv(rules="standard")
    env.reset(seed=1)
    legal = int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0])
    for bad in (float(legal) + 0.7, True, "pass", [legal]):
        with pytest.raises(ValueError, match="integer"):
            env.step(bad)  # type: ignore[arg-type]
    assert env.hand.history == []
    env.step(np.int64(legal))  # numpy integers are fine
    assert len(env.hand.history) == 1


def test_rules_as_a_dict() -> None:
    env = GinRummyEnv(rules={"preset": "pagat", "knock_limit": 5})
    assert env.rules.knock_limit == 5 and env.rules.gin_bonus == 20
    with pytest.raises(ValueError):
        GinRummyEnv(rules=5)  # type: ignore[arg-type]


# ------------------------------------------------------------ the two-player env, unchanged
def _fingerprint(rules: str | Rules, episode: str, reward: str, seeds: range,
                 bots: bool) -> str:
    """SHA-256 of every agent, observation, mask, reward, flag and info of seeded episodes
    (random legal play, with computer moves when ``bots``)."""
    import hashlib

    h = hashlib.sha256()
    env = GinRummyEnv(rules=rules, episode=episode, reward=reward)
    for s in seeds:
        env.reset(seed=s)
        rng = random.Random(s)
        for agent in env.agent_iter():
            obs, r, term, trunc, info = env.last()
            h.update(agent.encode())
            h.update(obs["observation"].tobytes())
            h.update(obs["action_mask"].tobytes())
            h.update(repr((float(r), term, trunc, sorted(info.items()))).encode())
            if term or trunc:
                env.step(None)
                continue
            if bots and rng.random() < 0.3:
                a = env.bot_action("medium", seed=rng.randrange(1000))
            else:
                legal = np.flatnonzero(obs["action_mask"])
                a = int(legal[rng.randrange(len(legal))])
            env.step(a)
    return h.hexdigest()


@pytest.mark.parametrize(("rules", "episode", "reward", "seeds", "bots", "digest"), [
    ("standard", "hand", "points", range(6), True,
     "5122ac3585ca82557f09419fa6fd52086f3540ed0e3225eb851ef73c25fd0fc0"),
    (Rules.preset("pagat", target=60), "game", "points", range(2), True,
     "40d7ecb838fa0e43b34a055e3d9dd922cbdb22998ea42c98232a4beeb230cdac"),
    (Rules.preset("oklahoma", target=60), "game", "win", range(2), False,
     "94a82436d7e278665297f987c48782b34a8005aaeb0f2205eec9c53ef7fa89a7"),
])
def test_two_player_episodes_are_the_same_as_before_the_forms(
        rules: str | Rules, episode: str, reward: str, seeds: range, bots: bool,
        digest: str) -> None:
    """The digests were taken from the environment as it was before it took the forms of the
    game (commit 1669411): the same decks, agents, observations, masks, rewards and infos."""
    assert _fingerprint(rules, episode, reward, seeds, bots) == digest


# ---------------------------------------------------------------- every form of the game
def _play_form(env: GinRummyEnv, seed: int, rng: random.Random,
               each: Callable[[GinRummyEnv], None] | None = None,
               first_dealer: int | None = None) -> dict[str, float]:
    """One seeded episode, random legal moves or a ``simple`` computer's; ``each(env)`` before
    every step; each agent's rewards summed."""
    env.reset(seed=seed, options={"first_dealer": first_dealer})
    total = dict.fromkeys(env.possible_agents, 0.0)
    while env.agents:
        if each is not None:
            each(env)
        for a in env.agents:
            total[a] += env.rewards[a]
        obs, _r, term, trunc, _info = env.last()
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(rng.choice(legal)) if rng.random() < 0.5
                 else env.bot_action("simple", seed=rng.randrange(1000)))
    return total


@pytest.mark.parametrize(("scoring", "rules"), FORMS)
def test_the_agents_of_every_form(scoring: str, rules: Rules) -> None:
    """One agent per player; only the one to act is selected; the three-player dealer sits the
    deal out with no action (a zero mask, no legal actions) but observes it."""
    env = GinRummyEnv(rules=rules, scoring=scoring, episode="game")
    n = PLAYER_COUNT[scoring]
    assert env.possible_agents == [f"player_{p}" for p in range(n)]
    assert env.observation_space("player_0")["observation"].shape == (observation_size(scoring),)
    sat_out: set[str] = set()

    def check(env: GinRummyEnv) -> None:
        g = env.game
        agent = env.agent_selection
        if env.terminations[agent]:
            return
        assert g is not None and env.agents == env.possible_agents
        assert (env._turn, env._player[agent]) in g.to_act()
        for a in env.agents:
            p = env._player[a]
            obs = env.observe(a)
            if a == agent:
                legal = env.hand.legal_actions()
                want = sorted(action_index(x) for x in legal)
                assert list(np.flatnonzero(obs["action_mask"])) == want
                assert env.infos[a]["legal"] == [x.text for x in legal]
            else:
                assert not obs["action_mask"].any() and env.infos[a]["legal"] == []
            if scoring == "three_player" and g.deal_of(p) != len(g.deals) - 1:
                sat_out.add(a)  # the dealer: nothing of its own, the deal seen from outside
                assert p == g.seatings[-1].dealer and env.infos[a]["seat"] is None
                assert not obs["observation"][:OBSERVATION_SIZE].any()
                assert obs["observation"][OBSERVATION_SIZE + PUBLIC_SIZE - 1] == 1.0
                with pytest.raises(ValueError, match="sits this hand out"):
                    env.view(a)

    rng = random.Random(4)
    for s in range(3):  # each player deals first once (three players)
        _play_form(env, s, rng, check, first_dealer=s if scoring == "three_player" else None)
    if scoring == "three_player":
        assert len(sat_out) == 3, "each player dealt the first deal of a game and sat it out"


@pytest.mark.parametrize(("scoring", "rules"), FORMS)
def test_incremental_observation_equals_the_table_view_one(scoring: str, rules: Rules) -> None:
    """At every step, every agent's observation is :func:`table_observation_of` of its own
    :class:`~ginrummy.views.TableView` (two players: :func:`observation_of` of its view)."""
    env = GinRummyEnv(rules=rules, scoring=scoring, episode="game")
    checked = [0]

    def check(env: GinRummyEnv) -> None:
        g = env.game
        assert g is not None
        for p, a in enumerate(env.possible_agents):
            got = env.observe(a)["observation"]
            if g.seats == 2:
                want = observation_of(view_of(g.deals[-1], p), (g.progress(p),
                                                              g.progress(1 - p)), rules.target)
            else:
                want = table_observation_of(table_view(g, p), rules.target)
            assert np.array_equal(got, want), (a, len(g.deals), len(g.order))
            checked[0] += 1

    rng = random.Random(7)
    for s in range(2):
        _play_form(env, s, rng, check)
    assert checked[0] > 500
    with pytest.raises(ValueError):
        table_observation_of(table_view(env.game, None))  # type: ignore[arg-type]


@given(st.integers(0, 2**32 - 1), st.integers(0, 120), st.integers(0, 2**32 - 1))
@settings(max_examples=25, deadline=None)
def test_partnership_observation_ignores_hidden_cards(seed: int, steps: int,
                                                     perm_seed: int) -> None:
    """The other table's part holds only what is public there: exchanging the cards nobody
    outside that table can see (its two hands beyond the cards taken from the pile, and its
    stock) leaves every observation of a player of the first table unchanged."""
    from ginrummy.game import Game

    rules = Rules.preset("partnership")
    rng = random.Random(seed)
    decks = [rng.sample(range(52), 52), rng.sample(range(52), 52)]
    acts: list[tuple[int, Action]] = []
    g = Game(rules, scoring="partnership")
    g.new_hand(decks[0], 0)
    g.new_hand(decks[1], 1)
    for _ in range(steps):
        live = g.in_play()
        if not live:
            break
        i = live[rng.randrange(len(live))]
        legal = g.deals[i].legal_actions()
        a = rng.choice([x for x in legal if x.kind not in (ActionKind.KNOCK, ActionKind.GIN,
                                                          ActionKind.BIG_GIN)] or legal)
        g.apply(a, i)
        acts.append((i, a))
    if not g.in_play():
        return
    h = g.deals[1]
    hidden = {c for s in (0, 1) for c in CardSet(h.hands[s] & ~h.known[s])} | set(h.stock())
    pos = [k for k, c in enumerate(decks[1]) if c in hidden]
    moved = [decks[1][k] for k in pos]
    random.Random(perm_seed).shuffle(moved)
    deck2 = list(decks[1])
    for k, c in zip(pos, moved, strict=True):
        deck2[k] = c
    g2 = Game(rules, scoring="partnership")
    g2.new_hand(decks[0], 0)
    g2.new_hand(deck2, 1)
    try:
        for i, a in acts:
            g2.apply(a, i)
    except IllegalActionError:
        return  # a hidden card made one of that table's moves illegal
    for p in (0, 1):  # the players of table 0
        assert np.array_equal(table_observation_of(table_view(g, p)),
                              table_observation_of(table_view(g2, p)))


def test_partnership_tables_take_turns_as_the_bot_loop_moves_computers() -> None:
    """The order in which the agents of a partnership hand act is the order
    :func:`ginrummy.bots.play.advance` makes computers act on the same deals."""
    from ginrummy.bots.play import advance
    from ginrummy.game import Game

    env = GinRummyEnv(rules="partnership", scoring="partnership", episode="hand")
    rng = random.Random(12)
    alternations = 0
    for s in range(6):
        selected: list[str] = []

        def note(env: GinRummyEnv, selected: list[str] = selected) -> None:
            if not env.terminations[env.agent_selection]:
                selected.append(env.agent_selection)

        _play_form(env, s, rng, note)
        g = env.game
        assert g is not None and len(g.deals) == 2 and g.hand_over()
        alternations += sum(1 for x, y in zip(selected, selected[1:], strict=False)
                            if (int(x[-1]) in g.seatings[0].players)
                            != (int(y[-1]) in g.seatings[0].players))
        # the same deals and each player's same moves, made by the one loop
        scripts: dict[int, list[Action]] = {p: [] for p in range(4)}
        for (i, seat), a in zip(_movers(g), _actions_in_order(g), strict=True):
            scripts[g.seatings[i].players[seat]].append(a)

        class Script:
            def __init__(self, moves: list[Action]) -> None:
                self.moves = iter(moves)

            def choose(self, view: object, ctx: object) -> Action:
                return next(self.moves)

        loop = Game(g.rules, scoring="partnership")
        for h in g.deals:
            loop.new_hand(h.deck, h.dealer)
        advance(loop, [Script(scripts[p]) for p in range(4)],  # type: ignore[misc]
                [random.Random(0)] * 4)
        assert loop.order == g.order and selected == [
            f"player_{loop.seatings[i].players[s_]}" for i, s_ in _movers(loop)]
    assert alternations > 50


def _actions_in_order(g: Any) -> list[Action]:
    """Every action of ``g`` in the order made (``g.order``)."""
    done = [0] * len(g.deals)
    out = []
    for i in g.order:
        out.append(g.deals[i].history[done[i]].action)
        done[i] += 1
    return out


def _movers(g: Any) -> list[tuple[int, int]]:
    """``(deal index, engine seat)`` of every action of ``g`` in the order made."""
    done = [0] * len(g.deals)
    out = []
    for i in g.order:
        out.append((i, g.deals[i].history[done[i]].seat))
        done[i] += 1
    return out



def _final_by_player(g: Any) -> list[float]:
    """What each player's rewards of a game episode must add up to."""
    from ginrummy.sheets import ThreePlayerSheet

    sh = g.sheet
    if isinstance(sh, ThreePlayerSheet):
        net = [0.0, 0.0, 0.0]
        for opp, f in sh.settlements().items():
            net[sh.winner] += f.margin
            net[opp] -= f.margin
        return net
    t = sh.totals()
    return [float(t[g.side_of(p)] - t[1 - g.side_of(p)]) for p in range(g.seats)]


@pytest.mark.parametrize(("scoring", "rules"), FORMS)
def test_game_rewards_of_every_form_are_zero_sum_and_sum_to_the_settlement(
        scoring: str, rules: Rules) -> None:
    """Points: zero-sum at every step, partners paid alike, and over the game each agent's
    rewards add up to its side's final total minus the other's (three players: the winner's
    margins over each opponent, each opponent minus its own)."""
    env = GinRummyEnv(rules=rules, scoring=scoring, episode="game")

    def check(env: GinRummyEnv) -> None:
        r = [env.rewards[a] for a in env.agents]
        assert sum(r) == 0
        if scoring == "partnership" and len(r) == 4:
            assert r[0] == r[2] and r[1] == r[3]

    rng = random.Random(5)
    seen_nonzero_sitter = False
    for s in range(4):
        total = _play_form(env, s, rng, check)
        g = env.game
        assert g is not None and g.is_over
        assert [total[a] for a in env.possible_agents] == _final_by_player(g)
        seen_nonzero_sitter |= scoring == "three_player" and all(total.values())
    if scoring == "three_player":
        assert seen_nonzero_sitter, "every player, the last dealer too, is paid at the end"


@pytest.mark.parametrize(("scoring", "rules"), FORMS)
def test_hand_rewards_of_every_form(scoring: str, rules: Rules) -> None:
    """One hand: the deal's winner +points and loser -points (three players: the dealer who
    sat out 0); partnership: each partner the team's net of both tables (4P); win: +1 / -1."""
    kinds = set()
    for reward in ("points", "win"):
        env = GinRummyEnv(rules=rules, scoring=scoring, reward=reward)
        rng = random.Random(8)
        for s in range(12):
            total = _play_form(env, s, rng)
            g = env.game
            assert g is not None and g.hand_over()
            want = [0.0] * g.seats
            if scoring == "partnership":
                line = g.sheet.game.hands[-1]  # type: ignore[union-attr]
                if line.winner is not None:
                    v = line.points if reward == "points" else 1
                    want = [float(v if p % 2 == line.winner else -v) for p in range(4)]
                kinds.add(line.winner)
            else:
                (r,) = [g.result_of(i) for i in range(len(g.deals))]
                assert r is not None
                kinds.add(r.kind)
                if r.winner is not None:
                    v = r.points if reward == "points" else 1
                    loser = next(p for p in r.players if p != r.winner)
                    want[r.winner], want[loser] = float(v), -float(v)
            assert [total[a] for a in env.possible_agents] == want, (reward, s)
    assert len(kinds) > 1


@pytest.mark.parametrize(("scoring", "rules"), FORMS)
def test_game_win_rewards_of_every_form(scoring: str, rules: Rules) -> None:
    env = GinRummyEnv(rules=rules, scoring=scoring, episode="game", reward="win")
    rng = random.Random(3)
    for s in range(3):
        total = _play_form(env, s, rng)
        g = env.game
        assert g is not None and g.is_over
        winners = g.winners()
        if not winners:  # a tied Hollywood match
            assert not any(total.values())
            continue
        lose = -0.5 if scoring == "three_player" else -1.0
        assert [total[a] for a in env.possible_agents] == [
            1.0 if p in winners else lose for p in range(g.seats)]


@pytest.mark.parametrize(("scoring", "rules"), FORMS)
def test_bot_action_of_every_form_is_the_one_loops_move(scoring: str, rules: Rules) -> None:
    """bot_action: the computer's move from the selected agent's view, with the context of the
    one bot loop (:func:`ginrummy.bots.play.context_of`); always legal."""
    from ginrummy.bots import make_bot
    from ginrummy.bots.play import context_of

    env = GinRummyEnv(rules=rules, scoring=scoring, episode="game")
    env.reset(seed=2)
    bot = make_bot("medium")
    for k in range(150):
        if not env.agents or env.terminations[env.agent_selection]:
            break
        i = env.bot_action("medium", seed=k)
        g, d = env.game, env._turn
        assert g is not None
        h = g.deals[d]
        a = bot.choose(view_of(h, h.current), context_of(g, d, random.Random(k)))
        assert i == action_index(Action(a.kind, a.card) if a.melds is not None else a)
        assert env.observe(env.agent_selection)["action_mask"][i] == 1
        env.step(i)


def test_forms_refuse_rules_they_cannot_honour() -> None:
    from ginrummy.errors import RulesError

    with pytest.raises(ValueError, match="unknown scoring"):
        GinRummyEnv(scoring="four_hands")
    with pytest.raises(RulesError, match="three-player table"):
        GinRummyEnv(rules="eaai", scoring="three_player")
    assert observation_size("three_player") == OBSERVATION_SIZE + PUBLIC_SIZE + 7
    assert observation_size("partnership") == OBSERVATION_SIZE + PUBLIC_SIZE + 2
    assert observation_size("hollywood") == observation_size() == OBSERVATION_SIZE
