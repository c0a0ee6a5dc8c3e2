"""Numba kernels that step many Maka Bana games at once, and ``BatchEnv`` over them.

See ``pacific_common.batch`` for the attributes, autoreset and seeding of ``BatchEnv``.  The kernels
run in parallel across games (``prange``) or, below ``PARALLEL_FROM`` games or where the thread pool
is measured slower (``pacific_common.batch.ThreadChoice``), as their serial twins.

Every game's batch module has these same kernels, word for word, over its own ``core``: a kernel that
received the core's functions as arguments, or was built by a factory, would miss Numba's on-disk
cache and be compiled again in every process.
"""
import sys

import numpy as np
from numba import njit, prange

from pacific_common.batch import PARALLEL_FROM, CoreBatchEnv, first_outside  # noqa: F401  (PARALLEL_FROM: re-exported)

from . import core as checked_core
from . import kernels
from .env import raw_env
from .notation import describe_action


@njit(cache=True, inline="always")
def _write_outputs(state, g, write_masks, observe, observations, masks, agent_to_act):
    """The player to act, and what the caller asked for of this game: its observation and mask if
    that player's seat is in ``observe[g]``, else its mask if ``write_masks``."""
    player = kernels.player_to_act(state)
    agent_to_act[g] = player
    seat = max(player, 0)
    if observe[g, seat]:
        kernels.observe_player(state, seat, observations[g], masks[g])
    elif write_masks:
        if player >= 0:
            kernels.legal_action_mask(state, masks[g])
        else:
            masks[g, :] = 0


@njit(cache=True, parallel=True)
def batch_reset(states, seeds, num_players, variant, max_turns, write_masks, observe, observations, masks,
                agent_to_act):
    for g in prange(states.shape[0]):
        kernels.init(states[g], num_players, variant, max_turns, seeds[g])
        _write_outputs(states[g], g, write_masks, observe, observations, masks, agent_to_act)


@njit(cache=True, inline="always")
def _refused(g, states, actions, autoreset):
    """Whether game ``g`` must refuse its action (inside the space): forbidden by its mask, or other
    than -1 for a finished game (without autoreset)."""
    if states[g, kernels.STATUS] != kernels.STATUS_RUNNING and not autoreset:
        return actions[g] != -1
    return not kernels.is_legal(states[g], actions[g])


@njit(cache=True, inline="always")
def _step_game(g, states, actions, autoreset, reward_mode, write_masks, observe, observations, masks,
               agent_to_act, rewards, terminated, truncated, scores, ends):
    state = states[g]
    ends[g] = kernels.END_NONE
    terminated[g] = False
    truncated[g] = False
    rewards[g, :] = 0.0
    scores[g, :] = 0
    if state[kernels.STATUS] != kernels.STATUS_RUNNING:
        return  # finished and left finished (autoreset=False)
    kernels.step(state, actions[g])
    if state[kernels.STATUS] != kernels.STATUS_RUNNING:
        terminated[g] = state[kernels.STATUS] == kernels.STATUS_TERMINATED
        truncated[g] = state[kernels.STATUS] == kernels.STATUS_TRUNCATED
        kernels.rewards(state, reward_mode, rewards[g])
        kernels.player_scores(state, scores[g])
        ends[g] = kernels.end_code(state)
        if autoreset:
            kernels.init(state, state[kernels.NUM_PLAYERS], state[kernels.VARIANT], state[kernels.MAX_TURNS],
                      kernels.next_seed(state))
    _write_outputs(state, g, write_masks, observe, observations, masks, agent_to_act)


@njit(cache=True, parallel=True)
def batch_step(states, actions, num_actions, autoreset, reward_mode, write_masks, observe, observations,
               masks, agent_to_act, rewards, terminated, truncated, scores, ends, bad):
    """Step every game by its action, in parallel, if every action is legal; else change nothing and
    return the index of the first game that refuses its action (-1: all stepped).  One call per step:
    the check and the step share the call, and ``bad`` (one flag per game) holds the checks."""
    outside = first_outside(actions, num_actions)
    if outside >= 0:
        return outside
    for g in prange(states.shape[0]):
        bad[g] = _refused(g, states, actions, autoreset)
    for g in range(states.shape[0]):
        if bad[g]:
            return g
    for g in prange(states.shape[0]):
        _step_game(g, states, actions, autoreset, reward_mode, write_masks, observe, observations, masks,
                   agent_to_act, rewards, terminated, truncated, scores, ends)
    return -1


@njit(cache=True)
def batch_step_serial(states, actions, num_actions, autoreset, reward_mode, write_masks, observe,
                      observations, masks, agent_to_act, rewards, terminated, truncated, scores, ends, bad):
    """``batch_step`` on one thread: for small batches, waking the thread pool costs more than it saves."""
    outside = first_outside(actions, num_actions)
    if outside >= 0:
        return outside
    for g in range(states.shape[0]):
        if _refused(g, states, actions, autoreset):
            return g
    for g in range(states.shape[0]):
        _step_game(g, states, actions, autoreset, reward_mode, write_masks, observe, observations, masks,
                   agent_to_act, rewards, terminated, truncated, scores, ends)
    return -1


@njit(cache=True, parallel=True)
def batch_play_random(states, gens, num_steps, autoreset, write_masks, observe, observations, masks,
                      agent_to_act):
    """Play ``num_steps`` random legal decisions in every game, entirely inside Numba, starting new
    games as they end (with ``autoreset``; else a game that ends stays finished), then write the
    outputs of the positions reached.  Game ``g``'s moves are drawn from the generator ``gens[g]``.
    Returns the number of games finished per row."""
    finished = np.zeros(states.shape[0], dtype=np.int64)
    for g in prange(states.shape[0]):
        state = states[g]
        if autoreset:
            finished[g] = kernels.play_random_games_with(state, gens, g, num_steps)
        else:
            for _ in range(num_steps):
                if state[kernels.STATUS] != kernels.STATUS_RUNNING:
                    break
                kernels.step(state, kernels.random_action_with(state, gens, g))
                finished[g] += state[kernels.STATUS] != kernels.STATUS_RUNNING
        _write_outputs(state, g, write_masks, observe, observations, masks, agent_to_act)
    return finished


@njit(cache=True, parallel=True)
def batch_random_actions(states, gens, out):
    """A uniformly random legal action per game, game ``g``'s from the generator ``gens[g]`` (-1 if
    finished)."""
    for g in prange(states.shape[0]):
        out[g] = kernels.random_action_with(states[g], gens, g)


@njit(cache=True)
def random_actions_serial(states, gens, out):
    for g in range(states.shape[0]):
        out[g] = kernels.random_action_with(states[g], gens, g)


class BatchEnv(CoreBatchEnv):
    """``num_envs`` Maka Bana games stepped together; see ``pacific_common.batch``."""

    core = kernels
    checked = checked_core     # the checked faces: set_state validates rows with checked.check_state
    kernels = sys.modules[__name__]
    players = raw_env.players
    variants = raw_env.variants
    decisions = raw_env.decisions

    def __init__(self, num_envs, seed=None, autoreset=True, num_players=4, variant="haapii",
                 max_turns=100, reward="win_loss", outputs="observations"):
        super().__init__(num_envs, seed, autoreset, num_players, variant, max_turns, reward, outputs)

    describe_action = staticmethod(describe_action)
