"""No agent cheats: an agent handed the whole state row (``needs_state``) decides as it would on any row
that differs only in what its player cannot know.

Each position of a game that hides something (Maka Bana's projects, in Haapii and Mao; advanced Mauna
Kea's cards, and the bag's order in both Mauna Kea games) is redrawn by the search's own
``determinize`` for the player to act, with a fresh game seed too (it fixes the bag and the deal).  The
player's observation and mask stay the same, and every agent, reset with the same seed, must choose
the same action on the real row and on each redrawn one.
"""
import importlib

import numpy as np
import pytest

from agents import game_info, make_agent
from agents.baselines.batched import common as kernel_common

GAMES = [("makabana", "haapii"), ("makabana", "mao"), ("maunakea", "advanced")]
AGENTS = ["heuristic", "shipped", "mcts:16", "mcts:16+shipped", "heuristic kernel"]
POSITIONS, REDRAWS = 12, 2


def observe(game, state, player):
    obs, mask = np.zeros(game.obs_size, np.int8), np.zeros(game.num_actions, np.int8)
    game.core.observe_player(state, player, obs, mask)
    return obs, mask


def positions(game, rng):
    """Rows of random play where the player to act has a choice, from the first decisions on."""
    core, found = game.core, []
    state = np.zeros(core.STATE_SIZE, np.int64)
    while len(found) < POSITIONS:
        core.init(state, game.num_players, game.variant_id, game.max_turns, int(rng.integers(1 << 40)))
        while state[core.STATUS] == core.STATUS_RUNNING and len(found) < POSITIONS:
            _, mask = observe(game, state, int(core.player_to_act(state)))
            if mask.sum() > 1 and rng.random() < 0.15:
                found.append(state.copy())
            core.step(state, int(rng.choice(np.flatnonzero(mask))))
    return found


def decide(name, game, state, player, seed):
    obs, mask = observe(game, state, player)
    if name == "heuristic kernel":   # the heuristic of the batched self-play opponents, in Numba
        kernels = importlib.import_module(f"agents.baselines.batched.{game.name}")
        gens = np.full(game.num_players, 0x5DEECE66D + seed, np.int64)
        return int(kernels.heuristic_action(obs, mask, game.num_players, game.variant_id, gens, player,
                                            np.zeros(kernel_common.PLAN_SIZE, np.int64), np.empty(game.num_actions)))
    agent = make_agent(name, game)
    agent.reset(game, player, seed)
    return int(agent.act(obs, mask, state.copy()))


@pytest.mark.parametrize("name,variant", GAMES)
def test_agents_decide_alike_whatever_their_player_cannot_know(name, variant):
    game = game_info(name, 3, variant)
    search = importlib.import_module(f"agents.search.{name}")
    rng = np.random.default_rng(7)
    hidden_changed = 0
    for state in positions(game, rng):
        player = int(game.core.player_to_act(state))
        seen = observe(game, state, player)
        redrawn = []
        for k in range(REDRAWS):
            row = state.copy()
            search.determinize(row, player, int(rng.integers(1 << 62)), k % 3 if name == "makabana" else 0)
            row[game.core.SEED] = int(rng.integers(1 << 40))
            assert all(np.array_equal(a, b) for a, b in zip(observe(game, row, player), seen))
            others = np.ones(game.core.STATE_SIZE, bool)
            others[[game.core.RNG, game.core.SEED]] = False
            hidden_changed += not np.array_equal(row[others], state[others])
            redrawn.append(row)
        seed = int(rng.integers(1 << 30))
        for agent in AGENTS:
            real = decide(agent, game, state, player, seed)
            assert [decide(agent, game, row, player, seed) for row in redrawn] == [real] * REDRAWS, \
                f"{agent} decides on what player {player} cannot know"
    # the redraws changed secrets beyond the generator, so an agent reading them would have been caught
    assert hidden_changed >= POSITIONS
