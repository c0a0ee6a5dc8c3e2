"""Many Maka Bana games stepped together in one Numba call.

``BatchEnv(num_envs, seed=None, autoreset=True, **options)`` holds ``num_envs`` games as rows of one
state array and steps all of them with one call, in parallel across cores (``prange``).  Everything a
learner reads is written into arrays allocated once, at construction:

=====================  ==========================  =================================================
attribute              shape, dtype                content after ``reset`` / ``step``
=====================  ==========================  =================================================
``states``             (num_envs, STATE_SIZE) i64  the games themselves (core row layout)
``agent_to_act``       (num_envs,) int64           player index whose decision is asked
``observations``       (num_envs, OBS_SIZE) int8   observation of that player
``action_masks``       (num_envs, 273) int8        legal actions of that player
``rewards``            (num_envs, num_players) f32 rewards of this step (non-zero when a game ends)
``terminated``         (num_envs,) bool            a game ended by the rules on this step
``truncated``          (num_envs,) bool            a game hit ``max_turns`` on this step
``scores``             (num_envs, num_players) i64 final points of a game that ended on this step
=====================  ==========================  =================================================

Autoreset: with ``autoreset=True`` (default) a game that ends is set up again at once, with the next
seed (``core.next_seed``), inside the same step; that step still reports the finished game's
``rewards``, ``terminated``/``truncated`` and ``scores``, while ``observations``, ``action_masks`` and
``agent_to_act`` already describe the new game.  With ``autoreset=False`` a finished game stays
finished: its mask is all zeros and the only action it accepts is ``-1`` (nothing happens); ``reset``
starts every game again.

Seeding: game ``i`` is set up with seed ``seed + i`` and plays exactly like ``raw_env`` reset with that
seed.  Each game's random generator lives in its own row, so results do not depend on the number of
threads.
"""
import numpy as np
from numba import njit, prange

from . import core
from .env import REWARDS, VARIANTS, check_options, describe_action

_DECISIONS = ("project", "tiki", "game over")
# Below this many games one thread is faster than waking the pool (measured in benchmarks/).
PARALLEL_FROM = 256


@njit(cache=True)
def _write_outputs(state, g, observations, masks, agent_to_act):
    colour = state[core.TO_ACT]
    if colour < 0:
        masks[g, :] = 0
        core.observe(state, state[core.FIRST], observations[g])
        agent_to_act[g] = -1
        return
    core.observe(state, colour, observations[g])
    core.legal_action_mask(state, masks[g])
    agent_to_act[g] = core.owner(state, colour)


@njit(cache=True, parallel=True)
def batch_reset(states, seeds, num_players, variant, max_turns, observations, masks, agent_to_act):
    for g in prange(states.shape[0]):
        core.init(states[g], num_players, variant, max_turns, seeds[g])
        _write_outputs(states[g], g, observations, masks, agent_to_act)


@njit(cache=True, parallel=True)
def batch_first_illegal(states, actions, autoreset, bad):
    """Index of the first game whose action is illegal, or -1.  A finished game (without autoreset)
    accepts only -1."""
    for g in prange(states.shape[0]):
        if states[g, core.STATUS] != core.STATUS_RUNNING and not autoreset:
            bad[g] = actions[g] != -1
        else:
            bad[g] = not core.is_legal(states[g], actions[g])
    for g in range(states.shape[0]):
        if bad[g]:
            return g
    return -1


@njit(cache=True)
def _step_game(g, states, actions, autoreset, reward_mode, observations, masks, agent_to_act, rewards,
               terminated, truncated, scores):
    state = states[g]
    terminated[g] = False
    truncated[g] = False
    rewards[g, :] = 0.0
    if state[core.STATUS] != core.STATUS_RUNNING:
        return  # finished and left finished (autoreset=False)
    core.step(state, actions[g])
    if state[core.STATUS] != core.STATUS_RUNNING:
        terminated[g] = state[core.STATUS] == core.STATUS_TERMINATED
        truncated[g] = state[core.STATUS] == core.STATUS_TRUNCATED
        core.rewards(state, reward_mode, rewards[g])
        core.player_scores(state, scores[g])
        if autoreset:
            core.init(state, state[core.NUM_PLAYERS], state[core.VARIANT], state[core.MAX_TURNS],
                      core.next_seed(state))
    _write_outputs(state, g, observations, masks, agent_to_act)


@njit(cache=True, parallel=True)
def batch_step(states, actions, autoreset, reward_mode, observations, masks, agent_to_act, rewards,
               terminated, truncated, scores):
    """Step every game by its action (already checked legal), in parallel."""
    for g in prange(states.shape[0]):
        _step_game(g, states, actions, autoreset, reward_mode, observations, masks, agent_to_act,
                   rewards, terminated, truncated, scores)


@njit(cache=True)
def batch_step_serial(states, actions, autoreset, reward_mode, observations, masks, agent_to_act,
                      rewards, terminated, truncated, scores):
    """``batch_step`` on one thread: for small batches, waking the thread pool costs more than it saves."""
    for g in range(states.shape[0]):
        _step_game(g, states, actions, autoreset, reward_mode, observations, masks, agent_to_act,
                   rewards, terminated, truncated, scores)


@njit(cache=True)
def first_illegal_serial(states, actions, autoreset):
    for g in range(states.shape[0]):
        if states[g, core.STATUS] != core.STATUS_RUNNING and not autoreset:
            if actions[g] != -1:
                return g
        elif not core.is_legal(states[g], actions[g]):
            return g
    return -1


@njit(cache=True, parallel=True)
def batch_play_random(states, num_steps):
    """Play ``num_steps`` random legal decisions in every game, entirely inside Numba, starting new
    games as they end.  Returns the number of finished games per row."""
    finished = np.zeros(states.shape[0], dtype=np.int64)
    for g in prange(states.shape[0]):
        finished[g] = core.play_random_games(states[g], num_steps)
    return finished


@njit(cache=True, parallel=True)
def batch_random_actions(states, out):
    """A uniformly random legal action per game from each game's own generator (-1 if finished)."""
    for g in prange(states.shape[0]):
        out[g] = core.random_action(states[g])


class BatchEnv:
    """``num_envs`` Maka Bana games stepped together; see the module docstring."""

    def __init__(self, num_envs, seed=None, autoreset=True, num_players=4, variant="haapii",
                 max_turns=100, reward="win_loss"):
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive integer, got {num_envs!r}")
        check_options(num_players, variant, max_turns, None, reward)
        self.num_envs = int(num_envs)
        self.num_players = int(num_players)
        self.variant = variant
        self.max_turns = int(max_turns)
        self.reward = reward
        self.autoreset = bool(autoreset)
        self.num_actions = core.NUM_ACTIONS
        self.states = np.zeros((self.num_envs, core.STATE_SIZE), dtype=np.int64)
        self.observations = np.zeros((self.num_envs, core.OBS_SIZE), dtype=np.int8)
        self.action_masks = np.zeros((self.num_envs, core.NUM_ACTIONS), dtype=np.int8)
        self.agent_to_act = np.zeros(self.num_envs, dtype=np.int64)
        self.rewards = np.zeros((self.num_envs, self.num_players), dtype=np.float32)
        self.terminated = np.zeros(self.num_envs, dtype=np.bool_)
        self.truncated = np.zeros(self.num_envs, dtype=np.bool_)
        self.scores = np.zeros((self.num_envs, self.num_players), dtype=np.int64)
        self._bad = np.zeros(self.num_envs, dtype=np.bool_)
        self._actions = np.zeros(self.num_envs, dtype=np.int64)
        self.reset(seed)

    def reset(self, seed=None):
        """Start every game again; game i gets seed ``seed + i`` (a fresh random seed if None)."""
        if seed is None:
            seed = int(np.random.SeedSequence().entropy) & 0x3FFFFFFFFFFFFFFF
        elif isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
            raise ValueError(f"seed must be None or a non-negative integer, got {seed!r}")
        seeds = (np.arange(self.num_envs, dtype=np.int64) + np.int64(seed)) & 0x7FFFFFFFFFFFFFFF
        batch_reset(self.states, seeds, self.num_players, VARIANTS[self.variant], self.max_turns,
                    self.observations, self.action_masks, self.agent_to_act)
        self.rewards[:] = 0
        self.terminated[:] = False
        self.truncated[:] = False
        self.scores[:] = 0
        return self.observations, self.action_masks

    def step(self, actions):
        """Apply one action per game.  Returns ``(observations, action_masks, rewards, terminated,
        truncated)``, the same arrays as the attributes (overwritten by the next call)."""
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,) or not np.issubdtype(actions.dtype, np.integer):
            raise ValueError(f"actions must be an integer array of shape ({self.num_envs},), got "
                             f"{actions.dtype} {actions.shape}")
        if actions.dtype != np.int64:
            self._actions[:] = actions
            actions = self._actions
        parallel = self.num_envs >= PARALLEL_FROM
        if parallel:
            g = batch_first_illegal(self.states, actions, self.autoreset, self._bad)
        else:
            g = first_illegal_serial(self.states, actions, self.autoreset)
        if g >= 0:
            a = int(actions[g])
            decision = _DECISIONS[self.states[g, core.PHASE]]
            allowed = "-1 (the game is over)" if decision == "game over" else "an action its action_mask allows"
            raise ValueError(f"game {g}: illegal action {a} ({describe_action(a)}); the {decision} decision "
                             f"is asked and it accepts {allowed}. No game was changed.")
        kernel = batch_step if parallel else batch_step_serial
        kernel(self.states, actions, self.autoreset, REWARDS[self.reward], self.observations,
               self.action_masks, self.agent_to_act, self.rewards, self.terminated, self.truncated,
               self.scores)
        return self.observations, self.action_masks, self.rewards, self.terminated, self.truncated

    def random_actions(self, out=None):
        """One uniformly random legal action per game, drawn from each game's own generator."""
        if out is None:
            out = np.empty(self.num_envs, dtype=np.int64)
        batch_random_actions(self.states, out)
        return out

    def play_random(self, num_steps):
        """Play ``num_steps`` random decisions in every game inside Numba; returns games finished."""
        return int(batch_play_random(self.states, int(num_steps)).sum())
