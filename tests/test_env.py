"""ginrummy.env: the PettingZoo AEC environment (PRODUCT.md: "a standard multi-agent RL
environment interface").

PettingZoo's own API conformance and seed tests, then ours: the action mask is exactly the
engine's legal actions, illegal steps raise and change nothing, rewards follow R-7 / R-10 and are
zero-sum, observations hold nothing hidden (DESIGN.md principle 6).
"""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from ginrummy.actions import Action, ActionKind  # noqa: E402
from ginrummy.cards import parse_card  # noqa: E402
from ginrummy.env import (  # noqa: E402
    N_ACTIONS,
    OBSERVATION_SIZE,
    GinRummyEnv,
    action_index,
    index_action,
    observation_of,
)
from ginrummy.errors import IllegalActionError  # noqa: E402
from ginrummy.hand import HandState  # noqa: E402
from ginrummy.rules import Rules  # noqa: E402
from ginrummy.views import view_of  # noqa: E402


@pytest.mark.parametrize(("rules", "episode"), [("standard", "hand"), ("oklahoma", "game"),
                                                ("straight", "hand"), ("pagat", "game")])
def test_pettingzoo_api(rules: str, episode: str) -> None:
    with warnings.catch_warnings():  # dict observations with an action mask, as in PettingZoo's
        warnings.simplefilter("ignore")  # own classic card games
        api_test(GinRummyEnv(rules=rules, episode=episode), num_cycles=1500,
                 verbose_progress=False)


def test_pettingzoo_seed() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        seed_test(lambda: GinRummyEnv(rules="eaai"), num_cycles=300)


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
