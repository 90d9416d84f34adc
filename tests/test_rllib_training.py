"""The PettingZoo environment trains with RLlib: examples/rllib_selfplay.py (PPO self-play with
an action-masked module) runs a few small training iterations, its policy never picks an illegal
action, and the example script runs end to end with a checkpoint.

Needs the ``rllib`` extra, which the test command (scripts/test.sh) installs; under CI (``CI``
set) a missing RLlib fails instead of skipping. One local Ray of two workers serves the module
(RLlib starts Ray when it builds an algorithm; starting it takes seconds on a small machine).
The sizes are small so that the training itself takes seconds: 3 iterations of 256 steps.
"""

from __future__ import annotations

import importlib.util
import math
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from ginrummy.env import N_ACTIONS, GinRummyEnv

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "rllib_selfplay.py"
ITERATIONS = 3
BATCH = 256


def _require(name: str) -> Any:
    try:
        return importlib.import_module(name)
    except ImportError:
        if os.environ.get("CI"):
            pytest.fail(f"{name} is missing: the test command installs the rllib extra")
        pytest.skip(f"{name} is not installed (pip install -e '.[rllib]')")


@pytest.fixture(scope="module")
def example() -> ModuleType:
    _require("ray.rllib")
    _require("torch")
    spec = importlib.util.spec_from_file_location("rllib_selfplay", EXAMPLE)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules["rllib_selfplay"] = mod
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def ray_session(example: ModuleType) -> Iterator[Any]:
    ray = _require("ray")
    if ray.is_initialized():  # pragma: no cover (another module's session left open)
        ray.shutdown()
    ray.init(num_cpus=2, include_dashboard=False, logging_level="warning",
             object_store_memory=100 * 1024 * 1024)
    try:
        yield ray
    finally:
        ray.shutdown()


@pytest.fixture(scope="module")
def algo(example: ModuleType, ray_session: Any) -> Iterator[Any]:
    a = example.build_config(batch=BATCH, minibatch=64, epochs=1, hidden=64,
                             seed=1).build_algo()
    try:
        yield a
    finally:
        a.stop()


def _weights(module: Any) -> dict[str, np.ndarray]:
    return {k: v.detach().cpu().numpy().copy() for k, v in module.state_dict().items()}


def test_the_masked_module_gives_illegal_actions_no_probability(example: ModuleType,
                                                                algo: Any) -> None:
    import torch
    from ray.rllib.core.columns import Columns

    module = algo.get_module(example.MODULE)
    env = GinRummyEnv(rules="eaai")
    checked = 0
    for seed in range(3):
        env.reset(seed=seed)
        for _ in range(12):  # the offer, draws and discards of a deal's first turns
            if env.terminations[env.agent_selection]:
                break
            obs = env.observe(env.agent_selection)
            batch = {Columns.OBS: {k: torch.as_tensor(v[None]) for k, v in obs.items()}}
            with torch.no_grad():
                logits = module.forward_exploration(batch)[Columns.ACTION_DIST_INPUTS][0]
            probs = torch.softmax(logits, dim=-1).numpy()
            legal = obs["action_mask"].astype(bool)
            assert probs.shape == (N_ACTIONS,)
            assert probs[~legal].sum() == 0.0 and probs[legal].sum() == pytest.approx(1.0)
            action = example.choose(module, obs)
            assert legal[action]
            env.step(action)
            checked += 1
    assert checked >= 30


def test_a_few_training_iterations(example: ModuleType, algo: Any) -> None:
    module = algo.get_module(example.MODULE)
    before = _weights(module)
    for _ in range(ITERATIONS):
        result = algo.train()
    runners = result["env_runners"]
    # every sampled step was legal: an illegal index raises in the environment and stops training
    assert runners["num_env_steps_sampled_lifetime"] == ITERATIONS * BATCH
    assert runners["num_episodes_lifetime"] >= 1
    stats = result["learners"][example.MODULE]
    for key in ("total_loss", "policy_loss", "vf_loss", "entropy"):
        assert math.isfinite(float(stats[key])), key
    assert float(stats["entropy"]) > 0
    after = _weights(algo.get_module(example.MODULE))
    assert before.keys() == after.keys()
    assert any(not np.array_equal(before[k], after[k]) for k in before)  # it learned something
    score = example.evaluate(algo, deals=6, seed=2)
    assert 0.0 <= score["points_share"] <= 1.0
    assert score["deals_won"] + score["deals_lost"] <= 1.0


@pytest.mark.filterwarnings("ignore:.*Overriding environment")
def test_the_example_script_runs_and_saves(example: ModuleType, ray_session: Any,
                                           tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    out_dir = tmp_path / "checkpoint"
    example.main(["--iterations", "1", "--batch", "128", "--minibatch", "64", "--epochs", "1",
                  "--hidden", "32", "--eval-deals", "4", "--seed", "3",
                  "--save", str(out_dir)])
    out = capsys.readouterr().out
    assert "iteration 1: 128 steps" in out
    assert "against random:" in out and "% of the points" in out
    assert "checkpoint:" in out and any(out_dir.iterdir())
