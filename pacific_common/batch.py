"""The Python side of every game's ``BatchEnv``: many games as rows of one state array, stepped by one
Numba call per step.

``BatchEnv(num_envs, seed=None, autoreset=True, outputs="observations", **options)`` holds ``num_envs``
games.  Everything a
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
                                                   the others); ``END_NAMES[code]`` names it
=====================  ==========================  =================================================

Autoreset: with ``autoreset=True`` (default) a game that ends is set up again at once, with the next
seed (``core.next_seed``), inside the same step; that step still reports the finished game's
``rewards``, ``terminated``/``truncated``, ``scores`` and ``ends``, while ``observations``,
``action_masks`` and ``agent_to_act`` already describe the new game.  With ``autoreset=False`` a
finished game stays finished: its mask is all zeros, ``agent_to_act`` is -1 and the only action it
accepts is ``-1`` (nothing happens); ``reset`` starts every game again.

Seeding: game ``i`` is set up with seed ``seed + i`` and, given the same actions, plays exactly like
the game's ``raw_env`` reset with that seed.  Each game's random generator lives in its own row, so
results do not depend on the number of threads.  ``random_actions`` and ``play_random`` draw their
moves from generators of the batch's own, one per game (seeded from the same seeds at ``reset``, apart
from the games' own), as a player's randomness is apart from the game's: they never change a game's
chance (Mauna Kea's tiles), so a game played with them replays move for move in ``raw_env``.  Those
generators are the batch's, not the games': ``state(g)`` and ``set_state(g, row)`` neither read nor
reset them (a row put back plays on with other random moves); ``reset(seed)`` seeds them again.

What a step writes: ``outputs="observations"`` (default) writes every game's observation and mask;
``outputs="masks"`` writes the masks only; ``outputs="state"`` neither (``agent_to_act``, ``rewards``,
``terminated``, ``truncated``, ``scores`` and ``ends`` are always written).  Writing observations is much of a
step's cost (``python -m benchmarks.throughput`` prints the split), so a caller that needs them for some
games only names those: ``step(actions, observe=seats)`` and ``reset(seed, observe=seats)`` take a
bool array of shape ``(num_envs, num_players)`` (or ``(num_envs,)``, every seat of a game) and write
game ``g``'s observation and mask only when the player to act in it is a seat marked in ``seats[g]``
-- a learner's own seat, say, and the seats of opponents that need observations.  Rows not written
keep what they held.

Checked arguments: every public method checks its arguments before any kernel runs (an array of the
wrong dtype, shape or layout, or a read-only ``out``, is a ``ValueError``), so no call writes outside
an array.  ``step`` takes any integer array of shape ``(num_envs,)`` whose values are actions of the
space or -1; a value outside ``-1 … num_actions - 1``, or an action a game's mask forbids, is a
``ValueError`` naming the game, and no game is changed.  ``set_state(g, row)`` puts a game's row
(``state(g)`` returns a copy of one) into game ``g`` after the same checks as ``raw_env.set_state``.
The arrays above are the batch's own: a caller that writes into ``states`` directly bypasses every
check.

Threads: from ``PARALLEL_FROM`` games on, the kernels of ``step`` and ``random_actions`` run on Numba's
thread pool or on one thread, whichever ``ThreadChoice`` measures faster on this machine at this
moment.  ``play_random``, one long call, runs on the thread pool whatever the number of games.

Each game's ``batch`` module holds its Numba kernels (they call that game's core directly, which keeps
Numba's on-disk cache working) and a ``BatchEnv`` subclass naming them.
"""
import math
import os
import time

import numpy as np
from numba import njit

from .aec import checked_row
from .checked import array, integer, integer_array
from .ends import END_NAMES
from .options import (NUM_ENVS_LIMIT, REWARD_MODES, check_flag, check_options, check_seed, fresh_seed,
                      is_real, space_sizes)
from .rng import seed_generators

# Below this many games one thread is faster than waking the thread pool (measured in benchmarks/).
PARALLEL_FROM = 256
# Mixed into each game's seed to seed the generator of its random actions, apart from the game's own.
ACTION_STREAM = 0x2545F4914F6CDD1D


def seed_action_generators(seeds, out):
    """Into ``out``, the generators that ``BatchEnv.random_actions`` and ``play_random`` draw from for
    games seeded ``seeds`` (an int64 array): where a game's moves can be drawn again outside the batch,
    with the cores' ``random_action_with``."""
    array("seeds", seeds, np.int64)
    array("out", out, np.int64, seeds.shape[0], writeable=True)
    if seeds.shape[0] and seeds.min() < 0:
        raise ValueError(f"seeds must be from 0 to 2**63 - 1, got {int(seeds.min())}")
    seed_generators(seeds ^ ACTION_STREAM, out)

OUTPUTS = ("observations", "masks", "state")


@njit(cache=True)
def first_outside(actions, num_actions):
    """The first game whose action is outside ``-1 … num_actions - 1`` (-1: none).  The games' step
    kernels check this for every game before any legality, so that the error names such an action
    first."""
    for g in range(actions.shape[0]):
        if actions[g] < -1 or actions[g] >= num_actions:
            return g
    return -1


class ThreadChoice:
    """Whether a batch's kernels run on one thread or on Numba's thread pool, chosen by measuring.

    The pool wins on an idle machine and can lose badly on a busy one: a parallel loop ends when its
    last thread does, and a thread that shares its core with another process may wait a scheduler
    slice or more (on the 2-core machine with one core kept busy, most of Make Make's 1024-game steps
    on the pool took 16 ms against 0.7 ms on one thread, and Maka Bana's took 0.24 ms, less than one
    thread's 0.46, except one in a dozen or so that took 16 ms).  So each choice's cost is its mean
    time per step, an average that forgets slowly (``WEIGHT``) so that rare stalls count as often as
    they come; the choice in use is timed every step and left as soon as it costs more than the
    other, and the other is tried once now and then, as rarely as it costs: after a try, the next
    comes when the steps between would take ``1 / TRY_SHARE`` times what the try is expected to cost
    beyond a step of the choice in use (``FIRST_GAP`` steps at the least, and no more than
    ``LONGEST_WAIT`` seconds of them, so that one freak step cannot keep the other choice away for
    long).  Results do not depend on the choice (each game's generators are its own)."""

    WEIGHT = 1 / 8       # a new step time's weight in its choice's mean
    TRY_SHARE = 0.01     # the share of the time the tries may cost beyond the choice in use
    FIRST_GAP = 16       # steps between two tries at the least
    LONGEST_WAIT = 5.0   # seconds of steps between two tries at the most

    def __init__(self, may_parallel):
        # a truthy "no" or 2 would put a small batch on the pool, or hand record() a seat it has not
        self.may_parallel = check_flag("may_parallel", may_parallel)
        self.parallel = self.may_parallel
        self.seconds = [None, None]   # mean seconds per step: one thread, the pool
        self.samples = [0, 0]
        self.steps = 0
        self.next_try = 2
        self.trying = False

    def next(self):
        """The choice for the next step: the cheaper one, or the other one on a try."""
        if not self.may_parallel:
            return False
        self.steps += 1
        self.trying = self.steps >= self.next_try
        return self.parallel != self.trying

    def call(self, serial, parallel, *args):
        """``serial(*args)`` or ``parallel(*args)``, as the choice says, timed for it; returns the result."""
        on_pool = self.next()
        started = time.perf_counter()
        result = (parallel if on_pool else serial)(*args)
        self.record(on_pool, time.perf_counter() - started)
        return result

    def record(self, parallel, seconds):
        """Count a step of ``seconds`` made on the pool (``parallel`` True) or on one thread (False).
        A NaN would stay in the mean for good, a negative time make its choice look ever cheaper."""
        try:   # a check of two comparisons: this runs every step
            fine = parallel.__class__ is bool and 0.0 <= seconds < math.inf
        except TypeError:   # seconds that are no number
            fine = False
        if not fine:
            parallel = self._checked(parallel, seconds)
        if not self.may_parallel:
            return
        self.samples[parallel] += 1
        if self.samples[parallel] == 1:  # a first call may load or compile the kernel: not timed
            if self.trying:
                self.next_try = self.steps + 1   # try again at once
            return
        old = self.seconds[parallel]
        self.seconds[parallel] = seconds if old is None else old + self.WEIGHT * (seconds - old)
        if None in self.seconds:
            if self.trying:
                self.next_try = self.steps + 2   # time the choice in use once more, then decide
            return
        cheaper = self.seconds[True] < self.seconds[False]
        if cheaper != self.parallel or self.trying:
            # the choice in use now costs more than the other: switch at once; either way, a try
            # (or a switch) sets the time of the next try by what that try is expected to cost
            self.parallel = cheaper
            in_use = max(self.seconds[cheaper], 1e-9)
            extra = max(self.seconds[not cheaper], seconds if parallel != cheaper else 0.0) - in_use
            gap = min(extra / self.TRY_SHARE, self.LONGEST_WAIT) / in_use
            self.next_try = self.steps + max(self.FIRST_GAP, int(gap))

    @staticmethod
    def _checked(parallel, seconds):
        """``parallel`` as a bool where ``record`` may take it (numpy's bool too), else ValueError."""
        if not isinstance(parallel, (bool, np.bool_)):
            raise ValueError(f"parallel must be True (the thread pool) or False (one thread), got {parallel!r}")
        if not (is_real(seconds) and 0.0 <= seconds < math.inf):
            raise ValueError(f"seconds must be a finite number of at least 0, got {seconds!r}")
        return bool(parallel)


def _not_masked(name, value):
    """Refuse a numpy masked array: ``np.asarray`` would drop its mask, and the hidden values would be used."""
    if isinstance(value, np.ma.MaskedArray):
        raise ValueError(f"{name} must be a plain array, not a masked array: its mask would be ignored")


def physical_memory():
    """This machine's memory in bytes, or None where the system does not say."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, OSError, ValueError):
        return None


def _check_memory(num_envs, per_game, package):
    """MemoryError, before anything is allocated, for a batch whose arrays alone exceed this machine's
    memory: numpy's zeros are only promised, so 2**20 games of 4-player Mauna Kea (27 GB) were
    allocated on a 23 GB machine, and the first reset was killed for memory."""
    needed, memory = num_envs * per_game, physical_memory()
    if memory is not None and needed > memory:
        raise MemoryError(f"num_envs={num_envs:,} games of {package} need {needed / 1e9:.1f} GB for their arrays, "
                          f"more than this machine's {memory / 1e9:.1f} GB of memory; play fewer at once (it holds the "
                          f"arrays of {memory // per_game:,} at most)")


class CoreBatchEnv:
    core = None        # the game's Numba kernels module
    checked = None     # the game's checked core module (``check_state``), where it has one
    kernels = None     # the game's batch module (batch_reset, batch_step, …)
    players = (2, 5)
    variants = {}
    decisions = ()
    END_NAMES = END_NAMES  # ``END_NAMES[batch.ends[g]]``: "win", "stalemate", … (None: no end)

    def __init__(self, num_envs, seed, autoreset, num_players, variant, max_turns, reward,
                 outputs="observations"):
        self.num_envs = integer("num_envs", num_envs, 1, NUM_ENVS_LIMIT)
        if not isinstance(outputs, str) or outputs not in OUTPUTS:
            raise ValueError(f"outputs must be one of {', '.join(map(repr, OUTPUTS))}, got {outputs!r}")
        self.num_players, self.variant, self.max_turns, _, self.reward = check_options(
            num_players, variant, max_turns, None, reward, players=self.players, variants=self.variants)
        self.autoreset = check_flag("autoreset", autoreset)
        check_seed(seed)  # before anything is allocated
        core = self.core
        self.outputs = str(outputs)  # plain str, as check_options gives the others
        self.num_actions, obs_size = space_sizes(core, self.variants[self.variant])
        # per game: the state row, observation, mask, and the bookkeeping below (players' rewards, scores
        # and observe flags, actions, action generators, flags)
        per_game = 8 * core.STATE_SIZE + obs_size + self.num_actions + 14 * self.num_players + 28
        _check_memory(self.num_envs, per_game, type(self).__module__.partition(".")[0])
        self.states = np.zeros((self.num_envs, core.STATE_SIZE), dtype=np.int64)
        self.observations = np.zeros((self.num_envs, obs_size), dtype=np.int8)
        self.action_masks = np.zeros((self.num_envs, self.num_actions), dtype=np.int8)
        self.agent_to_act = np.zeros(self.num_envs, dtype=np.int64)
        self.rewards = np.zeros((self.num_envs, self.num_players), dtype=np.float32)
        self.terminated = np.zeros(self.num_envs, dtype=np.bool_)
        self.truncated = np.zeros(self.num_envs, dtype=np.bool_)
        self.scores = np.zeros((self.num_envs, self.num_players), dtype=np.int64)
        self.ends = np.zeros(self.num_envs, dtype=np.int8)
        self._outputs = (self.rewards, self.terminated, self.truncated, self.scores, self.ends)
        self._action_gens = np.zeros(self.num_envs, dtype=np.int64)   # random_actions' and play_random's
        self._bad = np.zeros(self.num_envs, dtype=np.bool_)
        self._actions = np.zeros(self.num_envs, dtype=np.int64)
        self.threads = ThreadChoice(self.num_envs >= PARALLEL_FROM)
        self._write_masks = outputs != "state"
        self._observe_default = np.full((self.num_envs, self.num_players), outputs == "observations")
        self._observe = np.zeros((self.num_envs, self.num_players), dtype=np.bool_)
        self.reset(seed)

    def reset(self, seed=None, observe=None):
        """Start every game again; game i gets seed ``seed + i`` (a fresh random seed if None).
        ``observe``: the seats whose observations to write (see above).  Returns ``(observations,
        action_masks)``."""
        seed = check_seed(seed)
        if seed is None:
            seed = fresh_seed()
        observe = self._seats(observe)
        # seed + i, wrapped into the non-negative int64 a row holds
        seeds = ((np.arange(self.num_envs, dtype=np.uint64) + np.uint64(seed))
                 & np.uint64(0x7FFFFFFFFFFFFFFF)).astype(np.int64)
        self.kernels.batch_reset(self.states, seeds, self.num_players, self.variants[self.variant],
                                 self.max_turns, self._write_masks, observe, self.observations,
                                 self.action_masks, self.agent_to_act)
        seed_action_generators(seeds, self._action_gens)
        self.rewards[:] = 0
        self.terminated[:] = False
        self.truncated[:] = False
        self.scores[:] = 0
        self.ends[:] = 0
        return self.observations, self.action_masks

    def _seats(self, observe):
        """``observe`` as the (num_envs, num_players) bool array the kernels read."""
        if observe is None:
            return self._observe_default
        _not_masked("observe", observe)
        observe = np.asarray(observe)  # a copy into _observe follows: any bool array-like will do
        if observe.dtype != np.bool_ or observe.shape not in ((self.num_envs,), self._observe.shape):
            raise ValueError(f"observe must be a bool array of shape ({self.num_envs},) or "
                             f"{self._observe.shape}, got {observe.dtype} {observe.shape}")
        self._observe[:] = observe if observe.ndim == 2 else observe[:, None]
        return self._observe

    def step(self, actions, observe=None):
        """Apply one action per game.  ``observe``: the seats whose observations to write (see above;
        default: as ``outputs`` says).  Returns ``(observations, action_masks, rewards, terminated,
        truncated)``: the attributes themselves, overwritten by the next call."""
        actions = self._checked_actions(actions)
        observe = self._seats(observe)
        g = self.threads.call(self.kernels.batch_step_serial, self.kernels.batch_step, self.states, actions,
                              self.num_actions, self.autoreset, REWARD_MODES.index(self.reward), self._write_masks,
                              observe, self.observations, self.action_masks, self.agent_to_act, *self._outputs,
                              self._bad)
        if g >= 0:
            self._refuse(g, int(actions[g]))
        return self.observations, self.action_masks, self.rewards, self.terminated, self.truncated

    def _checked_actions(self, actions):
        """``actions`` as a C-contiguous int64 array of shape ``(num_envs,)``; the step kernel checks the
        values (``-1 … num_actions - 1``, then legality) before it changes any game.  A view (of the
        states, say) or ``agent_to_act`` is copied first: the kernel checks every action before it steps
        any game, and a game stepped must not rewrite the actions of the games after it."""
        if (type(actions) is np.ndarray and actions.dtype == np.int64 and actions.shape == (self.num_envs,)
                and actions.flags.c_contiguous and actions.base is None and actions is not self.agent_to_act):
            return actions  # the common case, without any numpy call
        _not_masked("actions", actions)
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,) or not integer_array(actions):
            raise ValueError(f"actions must be an integer array of shape ({self.num_envs},), got "
                             f"{actions.dtype} {actions.shape}")
        # checked before the int64 copy, where an unsigned 2**64 - 1 would become -1
        outside = (actions < -1) | (actions >= self.num_actions)
        if outside.any():
            g = int(np.argmax(outside))
            self._refuse(g, int(actions[g]))
        self._actions[:] = actions
        return self._actions

    def _refuse(self, g, action):
        if not -1 <= action < self.num_actions:
            raise ValueError(f"game {g}: illegal action {action}, outside the actions 0 … "
                             f"{self.num_actions - 1} (and -1, for a finished game). No game was changed.")
        if self.states[g, self.core.STATUS] != self.core.STATUS_RUNNING:
            asked = "the game is over (game over: it accepts only -1)"
        else:
            decision = self.decisions[self.states[g, self.core.PHASE]]
            asked = f"the {decision} decision is asked: choose an action its action_mask allows"
        # -1 is no action of the game (describe_action would call it outside every variant's range)
        described = "no action: only for a finished game" if action == -1 else self.describe_action(action)
        raise ValueError(f"game {g}: illegal action {action} ({described}); {asked}. No game was changed.")

    def describe_action(self, action):
        return f"action {action}"

    def random_actions(self, out=None):
        """One uniformly random legal action per game (-1 for a finished game), drawn from the batch's
        generator for that game, which leaves the game itself as it was."""
        if out is None:
            out = np.empty(self.num_envs, dtype=np.int64)
        else:
            array("out", out, np.int64, self.num_envs, writeable=True)
            own = (self.states, self.observations, self.action_masks, self.agent_to_act) + self._outputs
            if any(np.may_share_memory(out, array_) for array_ in own):
                raise ValueError("out must be an array of its own, not a view of the batch's states, observations, "
                                 "masks, agent_to_act, rewards, flags, scores or ends, which the actions would overwrite")
        if self.threads.parallel:
            self.kernels.batch_random_actions(self.states, self._action_gens, out)
        else:
            self.kernels.random_actions_serial(self.states, self._action_gens, out)
        return out

    def play_random(self, num_steps):
        """Play ``num_steps`` random decisions in every game inside Numba, starting new games as they
        end (with ``autoreset``; without it, a game that ends stays finished); returns the number of
        games finished.  The moves are drawn as ``random_actions`` draws them.  The observations, masks
        and ``agent_to_act`` are then those of the positions reached, written as ``outputs`` says, and
        the rewards and flags are cleared: they belong to no step."""
        num_steps = integer("num_steps", num_steps, 0, np.iinfo(np.int64).max)
        finished = self.kernels.batch_play_random(self.states, self._action_gens, num_steps, self.autoreset,
                                                  self._write_masks, self._observe_default, self.observations,
                                                  self.action_masks, self.agent_to_act)
        for output in self._outputs:
            output[:] = 0
        return int(finished.sum())

    # -- one game of the batch ------------------------------------------------------------------------
    def _game(self, game_index):
        return integer("game_index", game_index, 0, self.num_envs - 1)

    def state(self, game_index):
        """A copy of game ``game_index``'s row, as ``raw_env.state()`` returns it."""
        return self.states[self._game(game_index)].copy()

    def set_state(self, game_index, state):
        """Put ``state`` (a row, as ``state()`` or ``raw_env.state()`` returns it) into game
        ``game_index``, which then continues from there.  A row that is not a valid game of this batch
        raises ValueError and changes nothing.  With ``autoreset`` a finished game is refused: the batch
        never holds one (it would be started again before anyone saw it).  The row keeps its own
        truncation limit (``MAX_TURNS``), part of the position.  With ``autoreset`` it must be the
        batch's ``max_turns``: a game restarts with its row's limit, so every later game in that slot
        would keep another limit than the batch's."""
        g = self._game(game_index)
        row = checked_row(self, state)
        if self.autoreset and row[self.core.STATUS] != self.core.STATUS_RUNNING:
            raise ValueError(f"state is a finished game (STATUS = {int(row[self.core.STATUS])}); a batch "
                             f"with autoreset=True holds running games only: use autoreset=False")
        if self.autoreset and row[self.core.MAX_TURNS] != self.max_turns:
            raise ValueError(f"state has MAX_TURNS = {int(row[self.core.MAX_TURNS])}, this batch max_turns="
                             f"{self.max_turns}; with autoreset=True every game that "
                             f"follows in this slot would keep the row's limit: make the batch with max_turns="
                             f"{int(row[self.core.MAX_TURNS])}, or with autoreset=False")
        self.states[g] = row
        # what the last step reported belongs to the game replaced
        self.rewards[g] = 0
        self.terminated[g] = False
        self.truncated[g] = False
        self.scores[g] = 0
        self.ends[g] = 0
        self.kernels._write_outputs(self.states[g], g, self._write_masks, self._observe_default,
                                    self.observations, self.action_masks, self.agent_to_act)

    def close(self):
        """Nothing to release (the arrays go with the object): here for code written for Gymnasium's
        and stable-baselines3's vector environments, which close what they have stepped."""
