"""Mauna Kea BatchEnv: the batched engine must play exactly like single games, reuse its arrays, reject
illegal actions without touching any game, and reset finished games as documented."""
import numba
import numpy as np
import pytest

import maunakea_env
from maunakea_env import core
from maunakea_env.batch import PARALLEL_FROM, BatchEnv
from maunakea_env.board import NUM_FIELDS, NUM_ISLAND_TILES, START_TILE_SPACES
from maunakea_positions import assert_conserved
from pacific_common.rng import following_seed


def single_game_trajectory(num_players, seed, num_steps, max_turns, reward):
    """Observations, masks, agents, rewards and final scores of one game driven by core.random_action,
    through raw_env, restarting with unseeded resets (which take core.next_seed, like autoreset)."""
    env = maunakea_env.raw_env(num_players=num_players, max_turns=max_turns, reward=reward)
    env.reset(seed=seed)
    rows = []
    for _ in range(num_steps):
        agent = env.agent_selection
        action = int(core.random_action(env._state))
        env.step(action)
        done = any(env.terminations.values()) or any(env.truncations.values())
        rewards = [env.rewards[a] for a in env.possible_agents]
        scores = list(env.scores().values())
        if done:
            env.reset()
        obs = env.observe(env.agent_selection)
        rows.append((agent, action, rewards, done, scores, obs["observation"].copy(), obs["action_mask"].copy()))
    return rows


@pytest.mark.parametrize("reward", ["win_loss", "score"])
@pytest.mark.parametrize("num_envs", [3, PARALLEL_FROM + 1])
@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_game_i_plays_like_a_single_game_seeded_seed_plus_i(num_players, num_envs, reward):
    seed, num_steps, max_turns = 100, 400, 12
    batch = BatchEnv(num_envs, seed=seed, num_players=num_players, max_turns=max_turns, reward=reward)
    actions = np.zeros(num_envs, dtype=np.int64)
    checked = [0, num_envs - 1]
    expected = {g: single_game_trajectory(num_players, seed + g, num_steps, max_turns, reward) for g in checked}
    ends = 0
    for t in range(num_steps):
        agents = batch.agent_to_act.copy()
        batch.random_actions(actions)
        batch.step(actions)
        for g in checked:
            agent, action, rewards, done, scores, obs, mask = expected[g][t]
            assert f"player_{agents[g]}" == agent and actions[g] == action
            assert batch.rewards[g].tolist() == rewards
            assert bool(batch.terminated[g] or batch.truncated[g]) == done
            if done:
                assert batch.scores[g].tolist() == scores
            ends += done
            np.testing.assert_array_equal(batch.observations[g], obs)
            np.testing.assert_array_equal(batch.action_masks[g], mask)
    assert ends > 0, "no game ended: the autoreset path was not compared"


def test_same_seed_same_trajectories_whatever_the_number_of_threads():
    runs = []
    for threads in (1, numba.config.NUMBA_NUM_THREADS):
        numba.set_num_threads(threads)
        try:
            batch = BatchEnv(PARALLEL_FROM * 2, seed=7, max_turns=30)
            batch.play_random(300)
            for _ in range(50):
                batch.step(batch.random_actions())
            runs.append(batch.states.copy())
        finally:
            numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    np.testing.assert_array_equal(runs[0], runs[1])


def play_until_a_game_ends(batch):
    for _ in range(20_000):
        batch.step(batch.random_actions())
        if batch.terminated.any() or batch.truncated.any():
            return
    raise AssertionError("no game ended")


def test_autoreset_reports_the_finished_game_and_starts_the_next():
    batch = BatchEnv(4, seed=3, num_players=3, reward="score", max_turns=60)
    play_until_a_game_ends(batch)
    g = int(np.flatnonzero(batch.terminated | batch.truncated)[0])
    # the step that ended the game still reports its final scores (rewards in score mode) ...
    if batch.terminated[g]:
        assert batch.rewards[g].tolist() == batch.scores[g].tolist()
    else:
        assert not batch.rewards[g].any()
    assert (batch.scores[g] >= 0).all() and batch.scores[g].sum() <= 8 * 3 + 17 + 7 * 2 + 3
    # ... while the row already holds a new game with the next seed
    state = batch.states[g]
    assert state[core.STATUS] == core.STATUS_RUNNING and state[core.TURN] == 0
    assert state[core.PHASE] == core.PHASE_PLACEMENT and state[core.PLACED] == 0
    assert state[core.SEED] == following_seed(3 + g)
    fields = state[core.FIELD_TILE:core.FIELD_TILE + NUM_FIELDS]
    assert (np.delete(fields, START_TILE_SPACES) == -1).all() and (fields[START_TILE_SPACES] >= NUM_ISLAND_TILES).all()
    assert (state[core.BOAT_OWNER:core.BOAT_OWNER + 8] == -1).all()
    assert (state[core.TILE_WHERE:core.TILE_WHERE + NUM_ISLAND_TILES] == core.IN_BAG).all()
    assert batch.action_masks[g].sum() == 16 and batch.agent_to_act[g] == 0
    assert_conserved(state)


def test_without_autoreset_a_finished_game_stays_finished():
    batch = BatchEnv(4, seed=3, autoreset=False, max_turns=2)
    play_until_a_game_ends(batch)
    done = batch.terminated | batch.truncated
    g = int(np.flatnonzero(done)[0])
    assert batch.states[g, core.STATUS] != core.STATUS_RUNNING
    assert batch.action_masks[g].sum() == 0 and batch.agent_to_act[g] == -1
    frozen = batch.states[g].copy()
    actions = batch.random_actions()
    assert actions[g] == -1
    batch.step(actions)
    np.testing.assert_array_equal(batch.states[g], frozen)
    assert not batch.terminated[g] and not batch.truncated[g] and not batch.rewards[g].any()
    actions = batch.random_actions()
    actions[g] = 0
    with pytest.raises(ValueError, match=f"game {g}: illegal action 0 .*game over.*-1"):
        batch.step(actions)
    batch.reset(seed=3)
    assert (batch.states[:, core.STATUS] == core.STATUS_RUNNING).all()


@pytest.mark.parametrize("num_envs", [5, PARALLEL_FROM])
def test_illegal_action_raises_naming_the_game_and_changes_nothing(num_envs):
    batch = BatchEnv(num_envs, seed=1)
    for _ in range(15):
        batch.step(batch.random_actions())
    actions = batch.random_actions()
    before = [a.copy() for a in (batch.states, batch.observations, batch.action_masks, batch.rewards)]
    bad = num_envs - 2
    actions[bad] = int(np.flatnonzero(batch.action_masks[bad] == 0)[0])
    with pytest.raises(ValueError, match=f"game {bad}: illegal action {actions[bad]} .*decision is asked"):
        batch.step(actions)
    for old, new in zip(before, (batch.states, batch.observations, batch.action_masks, batch.rewards)):
        np.testing.assert_array_equal(old, new)
    for out_of_range in (-1, core.NUM_ACTIONS):
        actions[bad] = out_of_range
        with pytest.raises(ValueError, match=f"game {bad}: illegal action {out_of_range}"):
            batch.step(actions)
    for wrong in (np.zeros(num_envs + 1, dtype=np.int64), np.zeros(num_envs, dtype=np.float64)):
        with pytest.raises(ValueError, match="actions must be an integer array"):
            batch.step(wrong)


def test_illegal_action_message_names_the_decision():
    batch = BatchEnv(2, seed=0, num_players=2)
    actions = batch.random_actions()
    actions[1] = core.END_TURN
    with pytest.raises(ValueError, match="game 1: illegal action 2039 \\(end the turn\\).*placement decision"):
        batch.step(actions)


def test_bad_options_are_refused():
    for kwargs in ({"num_envs": 0}, {"num_envs": 2, "num_players": 5}, {"num_envs": 2, "num_players": 1},
                   {"num_envs": 2, "reward": "x"}, {"num_envs": 2, "seed": -1},
                   {"num_envs": 2, "variant": "advanced"}, {"num_envs": 2, "max_turns": 0}):
        with pytest.raises(ValueError):
            BatchEnv(**kwargs)


def test_outputs_are_written_into_the_same_arrays_every_step():
    batch = BatchEnv(8, seed=0, max_turns=30)
    arrays = (batch.observations, batch.action_masks, batch.rewards, batch.terminated, batch.truncated,
              batch.agent_to_act, batch.scores, batch.states)
    pointers = [a.__array_interface__["data"][0] for a in arrays]
    actions = np.zeros(8, dtype=np.int64)
    for _ in range(300):
        returned = batch.step(batch.random_actions(actions))
        assert returned[0] is batch.observations and returned[1] is batch.action_masks
        assert returned[2] is batch.rewards and returned[3] is batch.terminated
        assert returned[4] is batch.truncated
    assert [a.__array_interface__["data"][0] for a in arrays] == pointers


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_random_play_inside_numba_finishes_games_and_keeps_invariants(num_players):
    batch = BatchEnv(16, seed=0, num_players=num_players, max_turns=60)
    finished = batch.play_random(3000)
    assert finished >= 16
    for g in range(16):
        assert_conserved(batch.states[g])
    assert (batch.states[:, core.STATUS] == core.STATUS_RUNNING).all()
