"""The Python side of every game's ``BatchEnv``: many games as rows of one state array, stepped by one
Numba call per step.

``BatchEnv(num_envs, seed=None, autoreset=True, **options)`` holds ``num_envs`` games.  Everything a
learner reads is written into arrays allocated once, at construction:

=====================  ==========================  =================================================
attribute              shape, dtype                content after ``reset`` / ``step``
=====================  ==========================  =================================================
``states``             (num_envs, STATE_SIZE) i64  the games themselves (the core's row layout)
``agent_to_act``       (num_envs,) int64           player index whose decision is asked (-1: over)
``observations``       (num_envs, OBS_SIZE) int8   observation of that player (size: the variant's)
``action_masks``       (num_envs, NUM_ACTIONS) i8  legal actions of that player (size: the variant's)
``rewards``            (num_envs, num_players) f32 rewards of this step (non-zero when a game ends)
``terminated``         (num_envs,) bool            a game ended by the rules on this step
``truncated``          (num_envs,) bool            a game hit ``max_turns`` on this step
``scores``             (num_envs, num_players) i64 final scores of a game that ended on this step
``ends``               (num_envs,) int8            how a game that ended on this step ended, as a
                                                   ``pacific_common.ends`` code (``END_NONE`` for
                                                   the others); ``END_NAMES[code]`` names it.
                                                   Only where the game's ``BatchEnv`` sets
                                                   ``reports_ends`` (Make Make so far)
=====================  ==========================  =================================================

Autoreset: with ``autoreset=True`` (default) a game that ends is set up again at once, with the next
seed (``core.next_seed``), inside the same step; that step still reports the finished game's
``rewards``, ``terminated``/``truncated``, ``scores`` and ``ends``, while ``observations``,
``action_masks`` and ``agent_to_act`` already describe the new game.  With ``autoreset=False`` a
finished game stays finished: its mask is all zeros, ``agent_to_act`` is -1 and the only action it
accepts is ``-1`` (nothing happens); ``reset`` starts every game again.

Seeding: game ``i`` is set up with seed ``seed + i`` and plays exactly like the game's ``raw_env``
reset with that seed.  Each game's random generator lives in its own row, so results do not depend on
the number of threads.

Each game's ``batch`` module holds its Numba kernels (they call that game's core directly, which keeps
Numba's on-disk cache working) and a ``BatchEnv`` subclass naming them.
"""
import numpy as np

from .ends import END_NAMES
from .options import REWARD_MODES, check_options, check_seed, fresh_seed, is_integer, space_sizes

# Below this many games one thread is faster than waking the thread pool (measured in benchmarks/).
PARALLEL_FROM = 256


class CoreBatchEnv:
    core = None        # the game's Numba core module
    kernels = None     # the game's batch module (batch_reset, batch_step, …)
    players = (2, 5)
    variants = {}
    decisions = ()
    reports_ends = False   # the game's step kernels take an ``ends`` array after ``scores``
    END_NAMES = END_NAMES  # ``END_NAMES[batch.ends[g]]``: "win", "stalemate", … (None: no end)

    def __init__(self, num_envs, seed, autoreset, num_players, variant, max_turns, reward):
        if not is_integer(num_envs) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive integer, got {num_envs!r}")
        check_options(num_players, variant, max_turns, None, reward, players=self.players,
                      variants=self.variants)
        core = self.core
        self.num_envs = int(num_envs)
        self.num_players = int(num_players)
        self.variant = variant
        self.max_turns = int(max_turns)
        self.reward = reward
        self.autoreset = bool(autoreset)
        self.num_actions, obs_size = space_sizes(core, self.variants[variant])
        self.states = np.zeros((self.num_envs, core.STATE_SIZE), dtype=np.int64)
        self.observations = np.zeros((self.num_envs, obs_size), dtype=np.int8)
        self.action_masks = np.zeros((self.num_envs, self.num_actions), dtype=np.int8)
        self.agent_to_act = np.zeros(self.num_envs, dtype=np.int64)
        self.rewards = np.zeros((self.num_envs, self.num_players), dtype=np.float32)
        self.terminated = np.zeros(self.num_envs, dtype=np.bool_)
        self.truncated = np.zeros(self.num_envs, dtype=np.bool_)
        self.scores = np.zeros((self.num_envs, self.num_players), dtype=np.int64)
        if self.reports_ends:
            self.ends = np.zeros(self.num_envs, dtype=np.int8)
        self._outputs = (self.rewards, self.terminated, self.truncated, self.scores) + (
            (self.ends,) if self.reports_ends else ())
        self._bad = np.zeros(self.num_envs, dtype=np.bool_)
        self._actions = np.zeros(self.num_envs, dtype=np.int64)
        self._parallel = self.num_envs >= PARALLEL_FROM
        self.reset(seed)

    def reset(self, seed=None):
        """Start every game again; game i gets seed ``seed + i`` (a fresh random seed if None).
        Returns ``(observations, action_masks)``."""
        check_seed(seed)
        if seed is None:
            seed = fresh_seed()
        seeds = (np.arange(self.num_envs, dtype=np.int64) + np.int64(seed)) & 0x7FFFFFFFFFFFFFFF
        self.kernels.batch_reset(self.states, seeds, self.num_players, self.variants[self.variant],
                                 self.max_turns, self.observations, self.action_masks, self.agent_to_act)
        self.rewards[:] = 0
        self.terminated[:] = False
        self.truncated[:] = False
        self.scores[:] = 0
        if self.reports_ends:
            self.ends[:] = 0
        return self.observations, self.action_masks

    def step(self, actions):
        """Apply one action per game.  Returns ``(observations, action_masks, rewards, terminated,
        truncated)``: the attributes themselves, overwritten by the next call."""
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,) or not np.issubdtype(actions.dtype, np.integer):
            raise ValueError(f"actions must be an integer array of shape ({self.num_envs},), got "
                             f"{actions.dtype} {actions.shape}")
        if actions.dtype != np.int64:
            self._actions[:] = actions
            actions = self._actions
        k = self.kernels
        if self._parallel:
            g = k.batch_first_illegal(self.states, actions, self.autoreset, self._bad)
        else:
            g = k.first_illegal_serial(self.states, actions, self.autoreset)
        if g >= 0:
            self._refuse(g, int(actions[g]))
        kernel = k.batch_step if self._parallel else k.batch_step_serial
        kernel(self.states, actions, self.autoreset, REWARD_MODES.index(self.reward), self.observations,
               self.action_masks, self.agent_to_act, *self._outputs)
        return self.observations, self.action_masks, self.rewards, self.terminated, self.truncated

    def _refuse(self, g, action):
        if self.states[g, self.core.STATUS] != self.core.STATUS_RUNNING:
            asked = "the game is over (game over: it accepts only -1)"
        else:
            decision = self.decisions[self.states[g, self.core.PHASE]]
            asked = f"the {decision} decision is asked: choose an action its action_mask allows"
        raise ValueError(f"game {g}: illegal action {action} ({self.describe_action(action)}); {asked}. "
                         f"No game was changed.")

    def describe_action(self, action):
        return f"action {action}"

    def random_actions(self, out=None):
        """One uniformly random legal action per game, drawn from each game's own generator (-1 for a
        finished game)."""
        if out is None:
            out = np.empty(self.num_envs, dtype=np.int64)
        if self._parallel:
            self.kernels.batch_random_actions(self.states, out)
        else:
            self.kernels.random_actions_serial(self.states, out)
        return out

    def play_random(self, num_steps):
        """Play ``num_steps`` random decisions in every game inside Numba, starting new games as they
        end; returns the number of games finished."""
        return int(self.kernels.batch_play_random(self.states, int(num_steps)).sum())
