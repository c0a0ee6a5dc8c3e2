"""PettingZoo AEC environment for Maka Bana.

=====================  ==========================================================================
Import                 ``from makabana_env import env, raw_env``
Agents                 ``player_0`` … ``player_{n-1}``; n = ``num_players`` in 2 … 5
Action space           ``Discrete(273)`` — every decision kind in one space (below)
Observation space      ``Dict(observation=Box(0, 100, (OBS_SIZE,), int8),
                       action_mask=Box(0, 1, (273,), int8))``
Rewards                at the end only: ``win_loss`` (default) +1 sole winner, 0 tied winners,
                       −1 others; ``score``: final points; ``margin``: points − best other
Termination            out of huts, or the season after a beach fills up (rulebook "Game Ends")
Truncation             after ``max_turns`` seasons (default 100); rewards 0, scores still reported
=====================  ==========================================================================

Actions
-------
=============  ================================================================================
0 … 116        construction project: spot ``a // 3``, shown card ``a % 3`` (0 beach, 1 area, 2 theme)
117 … 233      take-back project: spot ``(a − 117) // 3``, shown card ``(a − 117) % 3`` plus paint
234 … 272      place the tiki on spot ``a − 234``
=============  ================================================================================

The mask offers only the actions of the decision being asked (projects, or tiki placements).
Spots are numbered as in ``makabana_env.board.SPOT_NAMES``.

Observation (int8, from the acting colour's point of view; relative colour k = k seats clockwise
from the viewer, so the viewer's own pieces come first; ``makabana_env.core`` holds the offsets)
-------------------------------------------------------------------------------------------------
==========================  =======  ===========================================================
block                       size     content
==========================  =======  ===========================================================
``OBS_HUT``                 5 × 39   hut of relative colour k on each spot
``OBS_TIKI``                5 × 39   tiki of relative colour k on each spot
``OBS_IN_PLAY``             39       spot is in play (Bikini is out with 3 players)
``OBS_COLOUR``              5 × 19   present, mine, first player, to act, huts in reserve, paint
                                     cards, project prepared, paint shown, shown card (11 one-hot)
``OBS_OWN_PROJECT``         5 × 40   full project (spot one-hot, take-back flag) of own colours
``OBS_LAST``                5 × 41   last season's revealed projects: spot, take-back, success
``OBS_PHASE``               3        project / tiki / game over
``OBS_LAST_SEASON``         1        a full beach has made this the last season
``OBS_TWO_PLAYER``          1        two-player game (each player has two colours)
``OBS_SEASON``              1        seasons played, capped at 100
==========================  =======  ===========================================================

Other players' projects are hidden except their shown cards, which appear once every colour has
chosen (the rulebook reveals hints simultaneously).

Illegal actions
---------------
``raw_env`` raises ``ValueError`` naming the action and the decision asked. ``env()`` wraps it the
way PettingZoo's classic games are wrapped: an illegal action ends the game with reward −1 for the
offender and 0 for everybody else (``TerminateIllegalWrapper``), an action outside the space fails
an assertion, and calling methods out of order is caught.

Version history
---------------
* v0: Haapii Maka Bana (the basic game) for 2 – 5 players.
"""
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from . import core
from .board import SPOT_NAMES

VARIANTS = {"haapii": core.VARIANT_HAAPII}
REWARDS = {"win_loss": core.REWARD_WIN_LOSS, "score": core.REWARD_SCORE, "margin": core.REWARD_MARGIN}
RENDER_MODES = ["human", "ansi", "rgb_array"]


def check_options(num_players, variant, max_turns, render_mode, reward):
    """Raise ValueError for an option the game does not offer, saying what is allowed."""
    if isinstance(num_players, bool) or not isinstance(num_players, (int, np.integer)) or not 2 <= num_players <= 5:
        raise ValueError(f"num_players must be an integer from 2 to 5, got {num_players!r}")
    if variant not in VARIANTS:
        raise ValueError(f"variant must be one of {sorted(VARIANTS)}, got {variant!r}")
    if isinstance(max_turns, bool) or not isinstance(max_turns, (int, np.integer)) or max_turns < 1:
        raise ValueError(f"max_turns must be a positive integer (seasons), got {max_turns!r}")
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(f"render_mode must be None or one of {RENDER_MODES}, got {render_mode!r}")
    if reward not in REWARDS:
        raise ValueError(f"reward must be one of {sorted(REWARDS)}, got {reward!r}")


def describe_action(action):
    """A readable name for an action, e.g. 'construct Azzura-Rock-Flower showing the beach'."""
    shown = ("beach", "area", "theme")
    if not 0 <= action < core.NUM_ACTIONS:
        return f"action {action}, outside 0 … {core.NUM_ACTIONS - 1}"
    if action < core.TAKE_BACK_BASE:
        return f"construct {SPOT_NAMES[action // 3]} showing the {shown[action % 3]}"
    if action < core.TIKI_BASE:
        a = action - core.TAKE_BACK_BASE
        return f"take back {SPOT_NAMES[a // 3]} showing paint and the {shown[a % 3]}"
    return f"tiki on {SPOT_NAMES[action - core.TIKI_BASE]}"


def env(**kwargs):
    """The Maka Bana AEC environment, wrapped like PettingZoo's classic games."""
    e = raw_env(**kwargs)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


class raw_env(AECEnv):
    metadata = {"name": "makabana_v0", "render_modes": RENDER_MODES, "is_parallelizable": False,
                "render_fps": 1}

    def __init__(self, num_players=4, variant="haapii", max_turns=100, render_mode=None, reward="win_loss"):
        super().__init__()
        check_options(num_players, variant, max_turns, render_mode, reward)
        self.num_players = int(num_players)
        self.variant = variant
        self.max_turns = int(max_turns)
        self.render_mode = render_mode
        self.reward = reward
        self.possible_agents = [f"player_{i}" for i in range(self.num_players)]
        self.agents = self.possible_agents[:]
        self._agent_index = {a: i for i, a in enumerate(self.possible_agents)}
        self.action_spaces = {a: spaces.Discrete(core.NUM_ACTIONS) for a in self.possible_agents}
        obs_space = spaces.Dict({
            "observation": spaces.Box(0, core.OBS_MAX, (core.OBS_SIZE,), np.int8),
            "action_mask": spaces.Box(0, 1, (core.NUM_ACTIONS,), np.int8),
        })
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.state_space = spaces.Box(np.iinfo(np.int64).min, np.iinfo(np.int64).max, (core.STATE_SIZE,), np.int64)
        self._state = np.zeros(core.STATE_SIZE, dtype=np.int64)
        self._reward_buffer = np.zeros(self.num_players, dtype=np.float64)
        self._score_buffer = np.zeros(self.num_players, dtype=np.int64)
        self._seed = None
        self.reset()

    # -- spaces ------------------------------------------------------------------------------------
    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    # -- core API ----------------------------------------------------------------------------------
    def reset(self, seed=None, options=None):
        if seed is not None:
            if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
                raise ValueError(f"seed must be None or a non-negative integer, got {seed!r}")
            self._seed = int(seed) & 0x7FFFFFFFFFFFFFFF
        elif self._seed is None:
            self._seed = int(np.random.SeedSequence().entropy) & 0x7FFFFFFFFFFFFFFF
        else:
            # an unseeded reset moves on to the next seed, as the batched environment's autoreset does
            self._seed = int(core.next_seed(self._state))
        core.init(self._state, self.num_players, VARIANTS[self.variant], self.max_turns, self._seed)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self._agent_to_act()

    def _agent_to_act(self):
        return self.possible_agents[int(self._state[core.TO_ACT]) % self.num_players]

    def observe(self, agent):
        observation = np.empty(core.OBS_SIZE, dtype=np.int8)
        mask = np.empty(core.NUM_ACTIONS, dtype=np.int8)
        core.observe_player(self._state, self._agent_index[agent], observation, mask)
        return {"observation": observation, "action_mask": mask}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            return self._was_dead_step(action)
        if isinstance(action, bool) or not isinstance(action, (int, np.integer)):
            raise ValueError(f"{agent} must give an integer action in 0 … {core.NUM_ACTIONS - 1}, got "
                             f"{action!r}; None is only for agents whose game is over")
        action = int(action)
        result = core.step(self._state, action)
        if result != core.STEP_OK:
            raise ValueError(f"illegal action {action} ({describe_action(action)}) for {agent}: "
                             f"the {self.decision()} decision is asked; see the action_mask")
        self._cumulative_rewards[agent] = 0
        self.rewards = {a: 0 for a in self.agents}
        status = self._state[core.STATUS]
        if status == core.STATUS_RUNNING:
            self.agent_selection = self._agent_to_act()
        else:
            core.rewards(self._state, REWARDS[self.reward], self._reward_buffer)
            scores = self.scores()
            for i, a in enumerate(self.agents):
                self.rewards[a] = float(self._reward_buffer[i])
                self.terminations[a] = status == core.STATUS_TERMINATED
                self.truncations[a] = status == core.STATUS_TRUNCATED
                self.infos[a] = {"scores": scores, "colour_scores": self.colour_scores()}
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    # -- information -------------------------------------------------------------------------------
    def decision(self):
        """The kind of decision asked now: 'project', 'tiki' or 'over'."""
        return ("project", "tiki", "over")[self._state[core.PHASE]]

    def scores(self):
        """Points per agent as they stand (final once the game is over)."""
        if self._state[core.STATUS] == core.STATUS_RUNNING:
            snapshot = self._state.copy()
            core.scores(snapshot)
            core.player_scores(snapshot, self._score_buffer)
        else:
            core.player_scores(self._state, self._score_buffer)
        return {a: int(self._score_buffer[i]) for i, a in enumerate(self.possible_agents)}

    def colour_scores(self):
        """Points per colour (two colours per player in the two-player game)."""
        snapshot = self._state.copy()
        core.scores(snapshot)
        return [int(v) for v in snapshot[core.SCORE:core.SCORE + self._state[core.NUM_COLOURS]]]

    def state(self):
        """The complete game state as a copy of the core's int64 row (hidden cards included)."""
        return self._state.copy()

    def set_state(self, state):
        """Restore a state previously returned by ``state()`` (same number of players)."""
        state = np.asarray(state)
        if state.shape != (core.STATE_SIZE,) or not np.issubdtype(state.dtype, np.integer):
            raise ValueError(f"state must be an integer array of shape ({core.STATE_SIZE},), got "
                             f"{state.dtype} {state.shape}")
        if state[core.NUM_PLAYERS] != self.num_players:
            raise ValueError(f"state is a {state[core.NUM_PLAYERS]}-player game; this environment has "
                             f"{self.num_players} players")
        self._state[:] = state
        self.agents = self.possible_agents[:]
        status = self._state[core.STATUS]
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: status == core.STATUS_TERMINATED for a in self.agents}
        self.truncations = {a: status == core.STATUS_TRUNCATED for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        if status == core.STATUS_RUNNING:
            self.agent_selection = self._agent_to_act()
        else:
            self.agent_selection = self.agents[0]

    # -- presentation ------------------------------------------------------------------------------
    def render(self):
        from .render import render_ansi, render_rgb

        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn("render() called without a render_mode; pass render_mode= to env()")
            return None
        if self.render_mode == "rgb_array":
            return render_rgb(self._state)
        viewer = self.possible_agents.index(self.agent_selection) if self.agents else None
        text = render_ansi(self._state, viewer)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self):
        pass
