"""Train a Gin Rummy player with RLlib (PPO, self-play) on ginrummy's PettingZoo environment.

Install: ``pip install 'ginrummy[rllib]'`` (Ray RLlib, PyTorch, PettingZoo). Run::

    python examples/rllib_selfplay.py --iterations 50 --rules eaai --save /tmp/ginrummy-ppo

Each iteration samples ``--batch`` environment steps of both seats playing the same policy
(parameter sharing: seat 0 and seat 1 are one network, each seeing only its own view), then runs
PPO on them. At the end the policy plays ``--eval-deals`` deals against the ``random`` computer
player, seats alternating, and the share of points it won is printed. See docs/research.md.

Three things make a card game of the AEC kind work in RLlib, all below:

- RLlib's ``PettingZooEnv`` turns the AEC environment into an RLlib ``MultiAgentEnv``: at each
  step only the seat to act gets an observation, and both seats get their reward at the end of
  the deal.
- The observation is a dict of the 376-value ``observation`` and the 161-value ``action_mask``
  (PettingZoo's convention for card games). :class:`MaskedPPOModule` feeds the observation to
  RLlib's default PPO network and pushes the logits of illegal actions to -inf, so that the
  policy never samples an action the engine would refuse.
- One module (``"shared"``) plays both seats: ``policy_mapping_fn`` maps every agent to it.
"""

from __future__ import annotations

import argparse
import random
from typing import Any

import numpy as np
import torch
from ray.rllib.algorithms.algorithm import Algorithm
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.algorithms.ppo.torch.default_ppo_torch_rl_module import DefaultPPOTorchRLModule
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModule, RLModuleSpec
from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv
from ray.tune.registry import register_env

from ginrummy.env import GinRummyEnv

ENV_NAME = "ginrummy"
MODULE = "shared"
#: a logit far below any real one: an illegal action's probability is 0.
_MASKED = -1e9


def make_env(config: dict[str, Any]) -> PettingZooEnv:
    """The RLlib environment: ginrummy's AEC environment (``config``: its keyword arguments,
    e.g. ``{"rules": "eaai", "episode": "hand"}``) in RLlib's PettingZoo wrapper."""
    return PettingZooEnv(GinRummyEnv(**config))


class MaskedPPOModule(DefaultPPOTorchRLModule):
    """RLlib's default PPO network on the ``observation`` part of the observation, with the
    logits of actions outside ``action_mask`` set to -1e9 (probability 0)."""

    def __init__(self, *, observation_space: Any = None, **kwargs: Any) -> None:
        self._space_with_mask = observation_space
        super().__init__(observation_space=observation_space["observation"], **kwargs)

    def setup(self) -> None:
        super().setup()  # the network is built for the 376 values only
        self.observation_space = self._space_with_mask

    @staticmethod
    def _split(batch: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
        obs = batch[Columns.OBS]
        return obs["action_mask"], {**batch, Columns.OBS: obs["observation"]}

    @staticmethod
    def _mask(out: dict[str, Any], mask: Any) -> dict[str, Any]:
        logits = out[Columns.ACTION_DIST_INPUTS]
        out[Columns.ACTION_DIST_INPUTS] = torch.where(mask.bool(), logits,
                                                      torch.full_like(logits, _MASKED))
        return out

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        mask, inner = self._split(batch)
        return self._mask(super()._forward(inner, **kwargs), mask)

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        mask, inner = self._split(batch)
        return self._mask(super()._forward_train(inner, **kwargs), mask)

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> Any:
        if embeddings is None and isinstance(batch[Columns.OBS], dict):
            batch = self._split(batch)[1]
        return super().compute_values(batch, embeddings)


def build_config(rules: str = "eaai", batch: int = 2000, minibatch: int = 250, epochs: int = 4,
                 hidden: int = 256, lr: float = 3e-4, seed: int = 0) -> PPOConfig:
    """PPO self-play on one process: sampling in this process (no remote env runners), one
    local learner. ``batch``: environment steps per iteration (both seats' actions)."""
    register_env(ENV_NAME, make_env)
    return (
        PPOConfig()
        # RLlib's check of a new environment steps random actions, most of which the rules
        # forbid (the environment raises IllegalActionError): the mask is the contract here
        .environment(ENV_NAME, env_config={"rules": rules, "episode": "hand"},
                     disable_env_checking=True)
        .multi_agent(policies={MODULE},
                     policy_mapping_fn=lambda agent_id, episode, **kw: MODULE)
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={
            MODULE: RLModuleSpec(module_class=MaskedPPOModule,
                                 model_config={"fcnet_hiddens": [hidden, hidden]})}))
        .env_runners(num_env_runners=0, num_envs_per_env_runner=1)
        .learners(num_learners=0)
        .training(train_batch_size_per_learner=batch, minibatch_size=minibatch,
                  num_epochs=epochs, lr=lr, gamma=1.0, lambda_=0.95, entropy_coeff=0.01)
        .debugging(seed=seed)
    )


def choose(module: RLModule, obs: dict[str, np.ndarray]) -> int:
    """The module's most probable legal action for one observation (greedy play)."""
    batch = {Columns.OBS: {
        "observation": torch.as_tensor(obs["observation"][None]),
        "action_mask": torch.as_tensor(obs["action_mask"][None]),
    }}
    with torch.no_grad():
        logits = module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS][0]
    return int(torch.argmax(logits))


def evaluate(algo: Algorithm, deals: int = 100, opponent: str = "random", rules: str = "eaai",
             seed: int = 0) -> dict[str, float]:
    """The trained policy against the computer player ``opponent`` over ``deals`` deals (seats
    alternating): its share of the points scored, and of the deals won."""
    module = algo.get_module(MODULE)
    env = GinRummyEnv(rules=rules, episode="hand")
    rng = random.Random(seed)
    won = lost = wins = losses = 0
    for d in range(deals):
        seat = d % 2
        env.reset(seed=rng.randrange(2**31))
        outcome: dict[str, Any] = {}
        for agent in env.agent_iter():
            obs, _reward, term, trunc, info = env.last()
            if term or trunc:
                outcome = info.get("outcome") or outcome
                env.step(None)
                continue
            mine = agent == env.possible_agents[seat]
            env.step(choose(module, obs) if mine else env.bot_action(opponent))
        if outcome.get("winner") == seat:
            won += outcome["points"]
            wins += 1
        elif outcome.get("winner") is not None:
            lost += outcome["points"]
            losses += 1
    return {"points_share": won / (won + lost) if won + lost else 0.5,
            "deals_won": wins / deals, "deals_lost": losses / deals}


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--iterations", type=int, default=20)
    p.add_argument("--rules", default="eaai")
    p.add_argument("--batch", type=int, default=2000, help="environment steps per iteration")
    p.add_argument("--minibatch", type=int, default=250, help="PPO minibatch size")
    p.add_argument("--epochs", type=int, default=4, help="PPO passes over each batch")
    p.add_argument("--hidden", type=int, default=256, help="units of each of the 2 layers")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--eval-deals", type=int, default=200)
    p.add_argument("--save", help="directory for the final checkpoint")
    args = p.parse_args(argv)
    algo = build_config(rules=args.rules, batch=args.batch, minibatch=args.minibatch,
                        epochs=args.epochs, hidden=args.hidden, seed=args.seed).build_algo()
    for i in range(1, args.iterations + 1):
        result = algo.train()
        runners = result["env_runners"]
        print(f"iteration {i}: {int(runners['num_env_steps_sampled_lifetime'])} steps, "
              f"{int(runners.get('num_episodes_lifetime', 0))} deals, mean deal length "
              f"{runners.get('episode_len_mean', float('nan')):.1f}")
    score = evaluate(algo, deals=args.eval_deals, rules=args.rules, seed=args.seed)
    print(f"against random: {100 * score['points_share']:.1f}% of the points, "
          f"{100 * score['deals_won']:.1f}% of the deals won, "
          f"{100 * score['deals_lost']:.1f}% lost")
    if args.save:
        print("checkpoint:", algo.save_to_path(args.save))
    algo.stop()


if __name__ == "__main__":
    main()
