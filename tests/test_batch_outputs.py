"""BatchEnv's ``outputs`` modes and ``observe`` seat selection: whatever is written equals what the
default BatchEnv writes, nothing else changes, and the games play the same."""
import numpy as np
import pytest

import makabana_env
import makemake_env
import maunakea_env
from pacific_common.batch import PARALLEL_FROM

PACKAGES = {"makabana": (makabana_env, {}), "makemake": (makemake_env, {"max_turns": 100}),
            "maunakea": (maunakea_env, {"max_turns": 20})}


def games():
    return [pytest.param(package, options, id=name) for name, (package, options) in PACKAGES.items()]


@pytest.mark.parametrize("num_envs", [5, PARALLEL_FROM + 3])
@pytest.mark.parametrize("package,options", games())
def test_masks_and_state_modes_play_the_default_games(package, options, num_envs):
    full = package.BatchEnv(num_envs, seed=11, num_players=3, **options)
    masks = package.BatchEnv(num_envs, seed=11, num_players=3, outputs="masks", **options)
    state = package.BatchEnv(num_envs, seed=11, num_players=3, outputs="state", **options)
    np.testing.assert_array_equal(masks.action_masks, full.action_masks)
    assert not masks.observations.any() and not state.observations.any() and not state.action_masks.any()
    ended = 0
    for _ in range(200):
        actions = full.random_actions()
        full.step(actions)
        for env in (masks, state):
            # each batch draws from generators seeded from the same seeds: the same draws, the same actions
            np.testing.assert_array_equal(env.random_actions(), actions)
            env.step(actions)
            np.testing.assert_array_equal(env.states, full.states)
            np.testing.assert_array_equal(env.agent_to_act, full.agent_to_act)
            np.testing.assert_array_equal(env.rewards, full.rewards)
            np.testing.assert_array_equal(env.terminated, full.terminated)
            np.testing.assert_array_equal(env.truncated, full.truncated)
        np.testing.assert_array_equal(masks.action_masks, full.action_masks)
        ended += int((full.terminated | full.truncated).sum())
    assert not masks.observations.any() and not state.observations.any() and not state.action_masks.any()
    assert ended > 0, "no game ended: the autoreset path was not compared"


@pytest.mark.parametrize("num_envs", [6, PARALLEL_FROM + 1])
@pytest.mark.parametrize("package,options", games())
def test_observe_writes_the_chosen_seats_only(package, options, num_envs):
    full = package.BatchEnv(num_envs, seed=5, num_players=3, **options)
    rng = np.random.default_rng(0)
    seats = rng.random((num_envs, 3)) < 0.5
    chosen = package.BatchEnv(num_envs, seed=5, num_players=3, outputs="masks", **options)
    chosen.reset(seed=5, observe=seats)
    observed = seats[np.arange(num_envs), chosen.agent_to_act]
    np.testing.assert_array_equal(chosen.observations[observed], full.observations[observed])
    assert not chosen.observations[~observed].any()
    for t in range(200):
        np.testing.assert_array_equal(chosen.action_masks, full.action_masks)
        before = chosen.observations.copy()
        actions = full.random_actions()
        np.testing.assert_array_equal(chosen.random_actions(), actions)
        full.step(actions)
        games = rng.random(num_envs) < 0.5  # a per-game selection on every other step
        chosen.step(actions, observe=games if t % 2 else seats)
        wanted = games if t % 2 else seats[np.arange(num_envs), np.maximum(chosen.agent_to_act, 0)]
        np.testing.assert_array_equal(chosen.observations[wanted], full.observations[wanted])
        np.testing.assert_array_equal(chosen.observations[~wanted], before[~wanted])


@pytest.mark.parametrize("package,options", games())
def test_bad_outputs_and_observe_are_refused(package, options):
    with pytest.raises(ValueError, match="outputs must be one of"):
        package.BatchEnv(2, outputs="obs")
    env = package.BatchEnv(4, seed=0, num_players=2, **options)
    actions = env.random_actions()
    states = env.states.copy()
    for observe in (np.ones(4), np.ones(5, dtype=bool), np.ones((4, 3), dtype=bool), [True] * 3):
        with pytest.raises(ValueError, match="observe must be a bool array"):
            env.step(actions, observe=observe)
    np.testing.assert_array_equal(env.states, states)


@pytest.mark.parametrize("num_envs", [5, PARALLEL_FROM + 3])
@pytest.mark.parametrize("package,options", games())
def test_scores_are_those_of_the_games_that_ended_on_this_step_only(package, options, num_envs):
    """``scores`` holds the final scores of a game that ended on this step (pacific_common.batch), and
    0 on every other step: the scores of a game that ended earlier are not left behind."""
    options = {**options, "max_turns": 300} if package is maunakea_env else options   # time to board a boat
    batch = package.BatchEnv(num_envs, seed=3, num_players=3, **options)
    scored = 0
    for _ in range(3000):
        batch.step(batch.random_actions())
        ended = batch.terminated | batch.truncated
        assert not batch.scores[~ended].any()
        scored += int(batch.scores[ended].any(axis=1).sum())
    assert scored > 0, "no game ended with a score: nothing was left to leave behind"
