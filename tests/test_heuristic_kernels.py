"""Issue 21, item 2: the heuristics as Numba kernels (``agents.baselines.batched``) choose the action of
the Python heuristics (``agents.baselines.heuristic.HeuristicAgent`` with the strategies of
``agents.baselines.makabana``, ``makemake``, ``maunakea`` and ``variants``), decision by decision.

Both draw their tie-break noise (and Mauna Kea's lava seed) from the same kernel generator
(``KernelGenerator`` for the Python agent, the seat's generator state for the kernel), seeded alike, so
every decision must agree exactly.  The games mix the heuristic's own moves with random ones (a
quarter of the moves), for positions the heuristic would not reach alone; the heuristic is asked at
every position either way, so that Mao's plan goes through the same questions in both."""
import importlib

import makabana_env.core  # noqa: F401  (agents.games reads <package>.core, which no package imports itself)
import makemake_env.core  # noqa: F401
import maunakea_env.core  # noqa: F401
import numpy as np
import pytest

from agents.baselines.batched.common import PLAN_SIZE, KernelGenerator
from agents.baselines.heuristic import HeuristicAgent
from agents.games import game_info
from pacific_common.rng import seed_generators

POSITIONS = 10_000
VARIANTS = [("makabana", "haapii"), ("makabana", "mao"), ("makemake", "standard"), ("maunakea", "basic"),
            ("maunakea", "advanced")]


def compare_decisions(name, variant, positions, seed=0):
    """Play games until ``positions`` decisions with two or more legal actions were compared; returns
    (decisions compared, [(game, move, python's action, the kernel's action)] where they differ)."""
    module = importlib.import_module(f"agents.baselines.batched.{name}")
    kernels = importlib.import_module(f"{name}_env.kernels")
    rng = np.random.default_rng(seed)
    compared, differences, game_number = 0, [], 0
    while compared < positions:
        low, high = (2, 4)
        game = game_info(name, low + game_number % (high - low + 1), variant)
        n = game.num_players
        state = np.zeros(kernels.STATE_SIZE, dtype=np.int64)
        kernels.init(state, n, game.variant_id, game.max_turns, int(rng.integers(2 ** 62)))
        agent_seeds = rng.integers(2 ** 62, size=n)
        agents = []
        for p in range(n):
            agent = HeuristicAgent()
            agent.reset(game, p, int(agent_seeds[p]))
            agent.rng = KernelGenerator(int(agent_seeds[p]))   # the kernel's generator, seeded alike
            agents.append(agent)
        gens = np.zeros(n, dtype=np.int64)
        seed_generators(agent_seeds.astype(np.int64), gens)
        plans = np.zeros((n, PLAN_SIZE), dtype=np.int64)
        obs = np.zeros(game.obs_size, dtype=np.int8)
        mask = np.zeros(game.num_actions, dtype=np.int8)
        noise = np.zeros(game.num_actions)
        move = 0
        while state[kernels.STATUS] == kernels.STATUS_RUNNING:
            player = int(kernels.player_to_act(state))
            kernels.observe_player(state, player, obs, mask)
            expected = agents[player].act(obs.copy(), mask.copy())
            got = module.heuristic_action(obs, mask, n, game.variant_id, gens, player, plans[player], noise)
            if int(mask.sum()) > 1:
                compared += 1
                if got != expected:
                    differences.append((game_number, move, expected, int(got)))
            action = expected
            if rng.random() < 0.25:
                action = int(rng.choice(np.flatnonzero(mask)))
            assert kernels.step(state, action) == kernels.STEP_OK
            move += 1
        game_number += 1
    return compared, differences


@pytest.mark.parametrize("name, variant", VARIANTS)
def test_the_kernels_choose_the_python_heuristics_actions(name, variant):
    compared, differences = compare_decisions(name, variant, POSITIONS)
    assert compared >= POSITIONS
    assert differences == []


def test_kernel_generator_draws_like_a_numpy_generator_is_asked():
    # the two calls the agents make: random(size) in [0, 1), integers(high) in [0, high)
    generator = KernelGenerator(7)
    draws = generator.random(10_000)
    assert draws.shape == (10_000,) and 0.0 <= draws.min() and draws.max() < 1.0
    assert abs(draws.mean() - 0.5) < 0.02
    picks = [generator.integers(3) for _ in range(3_000)]
    assert set(picks) == {0, 1, 2}
    again = KernelGenerator(7)
    assert again.random(3).tolist() == draws[:3].tolist()
    with pytest.raises(ValueError, match="high >= 1"):
        generator.integers(0)
