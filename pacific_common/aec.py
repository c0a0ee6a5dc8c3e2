"""The PettingZoo AEC environment over a game's Numba core.

A game's ``raw_env`` subclasses ``CoreAECEnv`` and names its core module, its options and its
presentation; everything else -- agents, spaces, rewards, seeding, illegal actions, ``state()`` -- is
the same for every game.  The core module provides ``STATE_SIZE``, ``OBS_SIZE``, ``OBS_MAX`` (and
``OBS_MIN`` if observations can be negative), ``NUM_ACTIONS`` (and ``NUM_ACTIONS_OF_VARIANT`` /
``OBS_SIZE_OF_VARIANT`` where a variant has spaces of its own), the ``STATUS``, ``PHASE`` and
``NUM_PLAYERS`` offsets with the ``STATUS_*`` and ``STEP_OK`` constants, and the Numba functions
``init``, ``step``, ``observe_player``, ``player_to_act``, ``player_scores``, ``rewards`` and
``next_seed``.  Where the game's class also names ``checked`` (the game's checked ``core`` module),
``set_state`` runs its ``check_state`` on a row before taking it.

Actions: every integer-like value (``int``, a numpy integer, a 0-d integer array as
stable-baselines3's ``predict`` returns) in ``0 … num_actions - 1`` is an action.  ``raw_env.step``
raises ``ValueError`` for anything else, and for an action the mask forbids; ``env().step`` raises
``ActionOutsideSpace`` (a ``ValueError`` that is also the ``AssertionError`` PettingZoo's
``AssertOutOfBoundsWrapper`` raises) for anything outside the space, and ends the game for an
illegal one inside it.

Resets: ``reset(seed=None, options=None)`` takes a seed from 0 to 2**63 - 1 (None: the next game's
seed, or a fresh one at first); a refused seed changes nothing.  ``options`` is accepted and not read,
as PettingZoo's ``api_test`` asks (it resets with ``options={"options": 1}``): the game's options are
given when the environment is made.
"""
import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.env import AECIterable, AECIterator
from pettingzoo.utils.env_logger import EnvLogger

from .checked import integer, integer_array
from .options import RENDER_MODES, REWARD_MODES, check_options, check_seed, fresh_seed, is_integer, space_sizes


class ActionOutsideSpace(ValueError, AssertionError):
    """An action that is not an integer of the action space.  A ``ValueError``, as every bad input
    here, and an ``AssertionError``, as PettingZoo's ``AssertOutOfBoundsWrapper`` raises for it."""


def wrap(env):
    """Wrap a raw environment the way PettingZoo's classic games are: an illegal action ends the game
    with −1 for the offender and 0 for the others, an action outside the space fails an assertion,
    and calls out of order are caught."""
    return CheckedEnv(env, illegal_reward=-1)


def _guarded(name):
    """A property forwarding ``name`` to the raw env, unreadable before the first reset (as
    ``OrderEnforcingWrapper`` makes it)."""
    def get(self):
        if not self._has_reset and not self._position_set():
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self.env, name)

    def set(self, value):
        setattr(self.env, name, value)

    return property(get, set)


_GUARDED = ("agents", "agent_selection", "rewards", "terminations", "truncations", "infos", "num_agents")


def _forwarded(name):
    return property(lambda self: getattr(self.env, name), lambda self, value: setattr(self.env, name, value))


class CheckedEnv(wrappers.BaseWrapper):
    """PettingZoo's ``TerminateIllegalWrapper``, ``AssertOutOfBoundsWrapper`` and
    ``OrderEnforcingWrapper`` in one layer, with the same behaviour and messages.

    Stacked, the three wrappers resolve every attribute the AEC loop reads (``agent_selection``,
    ``terminations``, …) through three ``__getattr__`` calls, which cost more than the game's own
    step.  Here the loop's attributes are properties, and ``last``, ``step``, ``observe`` and the
    agent iterator read the raw env directly.
    """

    agents = _guarded("agents")
    agent_selection = _guarded("agent_selection")
    rewards = _guarded("rewards")
    terminations = _guarded("terminations")
    truncations = _guarded("truncations")
    infos = _guarded("infos")
    _cumulative_rewards = _forwarded("_cumulative_rewards")
    possible_agents = _forwarded("possible_agents")

    def __init__(self, env, illegal_reward=-1):
        assert isinstance(env, AECEnv), "CheckedEnv is only compatible with AEC environments"
        super().__init__(env)
        self._illegal_reward = illegal_reward
        self._has_reset = False      # OrderEnforcingWrapper: nothing is played before reset()
        self._has_updated = False    # … and agent_iter() needs a step() between two agents
        self._prev_obs = None        # TerminateIllegalWrapper: the mask the acting agent was shown
        self._terminated = False     # the game was ended by an illegal move
        # The raw env's position_version when the wrapper last looked: a position set or played on
        # ``env.unwrapped`` behind the wrapper's back makes the mask above stale.
        self._raw = env.unwrapped
        self._seen = self._raw.position_version
        # every agent of a CoreAECEnv has the same Discrete(num_actions) space starting at 0
        self._num_actions = env.unwrapped.action_space(env.unwrapped.possible_agents[0]).n

    @property
    def num_agents(self):
        if not self._has_reset and not self._position_set():
            raise AttributeError("num_agents cannot be accessed before reset")
        return len(self.env.agents)

    def __getattr__(self, name):
        # A property that raises AttributeError sends Python on to __getattr__, and BaseWrapper's
        # would read the raw env's value: the refusal before reset must be repeated here.
        if name in _GUARDED and "_raw" in self.__dict__ and not self._has_reset and not self._position_set():
            raise AttributeError(f"{name} cannot be accessed before reset")
        return super().__getattr__(name)

    def _position_set(self):
        """Before the first reset: whether a position was set on the raw env since it was wrapped
        (``env.unwrapped.set_state`` or ``reset``), which starts the game as ``reset()`` does."""
        if self._raw.position_version != self._seen:
            self._has_reset = self._has_updated = True
        return self._has_reset

    def reset(self, seed=None, options=None):
        self.env.reset(seed=seed, options=options)   # first: a refused seed resets nothing
        self._has_reset = True
        self._has_updated = True
        self._terminated = False
        self._prev_obs = None
        self._seen = self._raw.position_version

    def observe(self, agent):
        if not self._has_reset and not self._position_set():
            EnvLogger.error_observe_before_reset()
        obs = self.env.observe(agent)
        if agent == self.env.agent_selection:
            self._prev_obs = obs
        return obs

    def last(self, observe=True):
        if not self._has_reset and not self._position_set():
            raise AttributeError("agent_selection cannot be accessed before reset")
        env = self.env
        agent = env.agent_selection
        assert agent is not None
        observation = self.observe(agent) if observe else None
        return (observation, env._cumulative_rewards[agent], env.terminations[agent],
                env.truncations[agent], env.infos[agent])

    def step(self, action):
        if not self._has_reset and not self._position_set():
            EnvLogger.error_step_before_reset()
        env = self.env
        if not env.agents:
            self._has_updated = True
            EnvLogger.warn_step_after_terminated_truncated()
            return
        self._has_updated = True
        raw = self._raw
        if raw.position_version != self._seen:   # set or played on env.unwrapped meanwhile
            self._prev_obs = None
            self._terminated = False
        agent = env.agent_selection
        done = env.terminations[agent] or env.truncations[agent]
        if type(action) is not int or not 0 <= action < self._num_actions:  # a plain int is the common case
            action = self._action_in_space(action, done)
        if self._prev_obs is None:
            self.observe(agent)
        mask = self._prev_obs["action_mask"]
        self._prev_obs = None
        if done:
            if self._terminated:
                raw._was_dead_step(action)
            else:
                env.step(action)
        elif not mask[action]:
            self._end_on_illegal_move(agent)
        else:
            env.step(action)
        self._seen = raw.position_version

    def _action_in_space(self, action, done):
        """``action`` as an int of the space (None stays None for a finished agent), else
        ``ActionOutsideSpace``."""
        if action is None and done:
            return None
        try:
            return integer("action", action, 0, self._num_actions - 1)
        except ValueError as error:
            raise ActionOutsideSpace(f"action is not in action space: {error}") from None

    def _end_on_illegal_move(self, offender):
        EnvLogger.warn_on_illegal_move()
        raw = self.env.unwrapped
        raw._cumulative_rewards[offender] = 0
        raw.terminations = dict.fromkeys(raw.agents, True)
        raw.truncations = dict.fromkeys(raw.agents, True)
        raw.rewards = dict.fromkeys(raw.truncations, 0)
        raw.rewards[offender] = float(self._illegal_reward)
        raw._accumulate_rewards()
        raw._deads_step_first()
        self._terminated = True
        self._offender = offender
        if raw.render_mode == "human":   # as the raw env prints after each of its own steps
            self.render()

    def agent_iter(self, max_iter=2**63):
        if not self._has_reset and not self._position_set():
            EnvLogger.error_agent_iter_before_reset()
        return _CheckedIterable(self, max_iter)

    def render(self):
        if not self._has_reset and not self._position_set():
            EnvLogger.error_render_before_reset()
        if self._terminated and self._raw.position_version == self._seen:
            # the game's own row knows nothing of the illegal move that ended it here
            return self._raw._render(f"Game over: {self._offender} made an illegal move, which ends the game")
        return self.env.render()

    def state(self):
        if not self._has_reset and not self._position_set():
            EnvLogger.error_state_before_reset()
        return self.env.state()

    def set_state(self, state):
        """The raw environment's ``set_state``; the mask kept for the illegal-move check belonged to
        the position replaced, and a game ended by an illegal move is over no longer.  Before the
        first ``reset()`` it starts the game at that position, as ``reset()`` would at the first."""
        self.env.set_state(state)
        self._prev_obs = None
        self._terminated = False
        self._has_reset = self._has_updated = True
        self._seen = self._raw.position_version

    def __str__(self):
        return str(self.env)


class _CheckedIterable(AECIterable):
    def __iter__(self):
        return _CheckedIterator(self.env, self.max_iter)


class _CheckedIterator(AECIterator):
    def __next__(self):
        checked = self.env
        env = checked.env
        if not env.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        assert checked._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        checked._has_updated = False
        return env.agent_selection


def checked_row(env, state):
    """``state`` as a fresh int64 row, after raising ValueError if it is not a valid game of ``env``
    (a ``CoreAECEnv`` or a batch: its ``core``, ``num_players``, ``variant``, ``variants`` and, where
    the game has one, ``checked``).  Nothing of ``env`` is touched, so a refused row changes nothing."""
    core = env.core
    if isinstance(state, (list, tuple)):  # a row written out, e.g. a game record's final state
        state = np.asarray(state)
    if not isinstance(state, np.ndarray) or isinstance(state, np.ma.MaskedArray) or \
            state.shape != (core.STATE_SIZE,) or not integer_array(state):
        plain = isinstance(state, np.ndarray) and not isinstance(state, np.ma.MaskedArray)
        what = f"a {state.dtype} array of shape {state.shape}" if plain else type(state).__name__
        raise ValueError(f"state must be an integer numpy array of shape ({core.STATE_SIZE},) as state() "
                         f"returns, got {what}")
    if state.dtype == np.uint64 and int(state.max()) > np.iinfo(np.int64).max:
        raise ValueError("state must hold int64 values, as state() returns; got a uint64 value above 2**63 - 1")
    row = state.astype(np.int64)  # always a copy: the checks and the copy in see the same values
    if row[core.NUM_PLAYERS] != env.num_players:
        raise ValueError(f"state is a {int(row[core.NUM_PLAYERS])}-player game (NUM_PLAYERS); this "
                         f"environment has {env.num_players} players")
    variant = env.variants[env.variant]
    if row[core.VARIANT] != variant:
        raise ValueError(f"state is a game of variant {int(row[core.VARIANT])} (VARIANT); this environment "
                         f"plays {env.variant!r} ({variant})")
    checked = getattr(env, "checked", None)
    if checked is not None:
        checked.check_state(row)
    return row


class CoreAECEnv(AECEnv):
    core = None                # the game's Numba kernels module
    checked = None             # the game's checked core module (``check_state``), where it has one
    players = (2, 5)           # allowed num_players
    variants = {}              # variant name -> core constant
    decisions = ()             # names of the core's phases, for messages and ``decision()``

    def __init__(self, num_players, variant, max_turns, render_mode, reward):
        super().__init__()
        self.num_players, self.variant, self.max_turns, self.render_mode, self.reward = check_options(
            num_players, variant, max_turns, render_mode, reward, players=self.players, variants=self.variants)
        core = self.core
        self.possible_agents = [f"player_{i}" for i in range(self.num_players)]
        self.agents = self.possible_agents[:]
        self._agent_index = {a: i for i, a in enumerate(self.possible_agents)}
        self.num_actions, self.obs_size = space_sizes(core, self.variants[self.variant])
        self.action_spaces = {a: spaces.Discrete(self.num_actions) for a in self.possible_agents}
        obs_space = spaces.Dict({
            "observation": spaces.Box(getattr(core, "OBS_MIN", 0), core.OBS_MAX, (self.obs_size,), np.int8),
            "action_mask": spaces.Box(0, 1, (self.num_actions,), np.int8),
        })
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.state_space = spaces.Box(np.iinfo(np.int64).min, np.iinfo(np.int64).max, (core.STATE_SIZE,),
                                      np.int64)
        self._state = np.zeros(core.STATE_SIZE, dtype=np.int64)
        # Counts the changes of position (reset, step, set_state), so that a wrapper can tell that a
        # mask it kept belongs to an earlier position (``CheckedEnv``).
        self.position_version = 0
        self._reward_buffer = np.zeros(self.num_players, dtype=np.float64)
        self._score_buffer = np.zeros(self.num_players, dtype=np.int64)
        self._seed = None
        self.reset()

    # -- spaces ------------------------------------------------------------------------------------
    def observation_space(self, agent):
        return self.observation_spaces[self._known(agent)]

    def action_space(self, agent):
        return self.action_spaces[self._known(agent)]

    def _known(self, agent):
        if not isinstance(agent, str) or agent not in self._agent_index:
            raise ValueError(f"agent must be one of {self.possible_agents}, got {agent!r}")
        return agent

    # -- core API ----------------------------------------------------------------------------------
    def reset(self, seed=None, options=None):
        seed = check_seed(seed)
        if seed is not None:
            self._seed = seed
        elif self._seed is None:
            self._seed = fresh_seed()
        else:
            # an unseeded reset moves on to the next seed, as the batched environment's autoreset does
            self._seed = int(self.core.next_seed(self._state))
        self.core.init(self._state, self.num_players, self.variants[self.variant], self.max_turns, self._seed)
        self.position_version += 1
        self._sync_agents()

    def _sync_agents(self):
        """Rebuild PettingZoo's bookkeeping from the core state (after reset or set_state)."""
        status = int(self._state[self.core.STATUS])
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: status == self.core.STATUS_TERMINATED for a in self.agents}
        self.truncations = {a: status == self.core.STATUS_TRUNCATED for a in self.agents}
        # a restored finished game tells what a finished game tells
        info = {} if status == self.core.STATUS_RUNNING else self.final_info()
        self.infos = {a: dict(info) for a in self.agents}
        self.agent_selection = self._agent_to_act() if status == self.core.STATUS_RUNNING else self.agents[0]

    def _agent_to_act(self):
        return self.possible_agents[self.core.player_to_act(self._state)]

    def observe(self, agent):
        seat = self._agent_index[self._known(agent)]
        observation = np.empty(self.obs_size, dtype=np.int8)
        mask = np.empty(self.num_actions, dtype=np.int8)
        self.core.observe_player(self._state, seat, observation, mask)
        return {"observation": observation, "action_mask": mask}

    def step(self, action):
        if not self.agents:
            raise ValueError("the game is over and every agent has left; call reset() to play again")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            return self._was_dead_step(action)
        core = self.core
        try:
            action = integer("action", action, 0, self.num_actions - 1)
        except ValueError:
            if is_integer(action):   # an integer outside the space
                raise ValueError(f"illegal action {action} for {agent}: an integer action is in 0 … "
                                 f"{self.num_actions - 1}") from None
            raise ValueError(f"{agent} must give an integer action in 0 … {self.num_actions - 1}, got "
                             f"{action!r}; None is only for agents whose game is over") from None
        if core.step(self._state, action) != core.STEP_OK:
            raise ValueError(f"illegal action {action} ({self.describe_action(action)}) for {agent}: "
                             f"the {self.decision()} decision is asked; see the action_mask")
        self.position_version += 1
        self._cumulative_rewards[agent] = 0
        self.rewards = {a: 0 for a in self.agents}
        status = int(self._state[core.STATUS])
        if status == core.STATUS_RUNNING:
            self.agent_selection = self._agent_to_act()
        else:
            core.rewards(self._state, REWARD_MODES.index(self.reward), self._reward_buffer)
            info = self.final_info()
            for i, a in enumerate(self.agents):
                self.rewards[a] = float(self._reward_buffer[i])
                self.terminations[a] = status == core.STATUS_TERMINATED
                self.truncations[a] = status == core.STATUS_TRUNCATED
                self.infos[a] = dict(info)
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    # -- information -------------------------------------------------------------------------------
    def decision(self):
        """The kind of decision asked now, in the game's words."""
        return self.decisions[self._state[self.core.PHASE]]

    def scores(self):
        """Points per agent as they stand (final once the game is over): a judge's count, like
        ``state()``, with what is still hidden (Mauna Kea's task cards) included; what a player can
        count is ``core.scores_known_to``."""
        self.core.player_scores(self._state, self._score_buffer)
        return {a: int(self._score_buffer[i]) for i, a in enumerate(self.possible_agents)}

    def final_info(self):
        """What ``infos`` carries for every agent once the game is over."""
        return {"scores": self.scores()}

    def describe_action(self, action):
        return f"action {action}"

    def state(self):
        """The complete game state: a copy of the core's int64 row, hidden information included."""
        return self._state.copy()

    def set_state(self, state):
        """Restore a state returned by ``state()`` (same game, variant and number of players).  A row
        that is not a valid game of this environment raises ValueError and changes nothing.  The row
        keeps its own truncation limit (``MAX_TURNS``), which is part of the position, as in a position
        text; the environment's ``max_turns`` applies again from the next ``reset``."""
        self._state[:] = checked_row(self, state)
        self.position_version += 1
        self._sync_agents()

    # -- presentation ------------------------------------------------------------------------------
    def render(self):
        """The position in the ``render_mode`` chosen: ``"ansi"`` returns the text board,
        ``"human"`` prints it, ``"rgb_array"`` returns the picture.  Each shows what every player
        may see (a spectator's view: no one's hidden cards), whoever is to act; ``render_ansi`` and
        ``render_svg`` with a ``viewer_player`` draw one player's own view."""
        return self._render()

    def _render(self, last_line=None):
        mode = self.render_mode
        if mode is None:
            gymnasium.logger.warn("render() called without a render_mode; pass render_mode= to env()")
            return None
        if mode not in RENDER_MODES:   # set after construction, where check_options did not see it
            raise ValueError(f"render_mode must be None or one of {RENDER_MODES}, got {mode!r}")
        if mode == "rgb_array":
            return self.render_rgb(self._state)
        text = self.render_ansi(self._state, None)
        if last_line is not None:
            text += "\n" + last_line
        if mode == "human":
            print(text)
            return None
        return text

    def close(self):
        pass
