"""Self-play: one seat of a game as a Gymnasium environment, the other seats played by an opponent pool.

``SelfPlayEnv(game, num_players, opponents=pool)`` is what ``agents.training.train`` trains
``sb3_contrib.MaskablePPO`` on.  The learner plays one seat; at every reset the seat changes (rotated
or sampled) and every other seat gets an opponent drawn from the pool: the baselines ("random",
"heuristic", any ``agents.registry`` name) and earlier snapshots of the learner.

Like ``agents.arena.match.play_game`` it drives the Numba core directly: after the learner's action the
opponents' moves are played inside the same ``step`` until the learner must act again or the game is
over.  So the learner always gets its own end-of-game reward, also when the game ends on another
player's move: the step whose opponents' moves ended the game returns it (−1 for the losing seat).
Opponents see their own observation and mask only (Maka Bana hides cards); only search agents
(``needs_state``) get a copy of the state row, as in the tournament.

Rewards (``reward``, ``shaping``):
- ``reward="win_loss"`` (default): +1 to a sole winner, −1 to the others, 0 to players tied for first
  and to everybody after a truncation (``max_turns``) or a Make Make stalemate.  ``"score"`` and
  ``"margin"`` give the core's other end-of-game rewards (final points, points minus the best other).
- ``truncation``: what a game cut by ``max_turns`` is worth to the learner.  "draw" (default): the
  core's 0, as for everybody.  But a learner that is behind then gains by stalling (0 beats -1), and
  learns to, which also spoils its games against weak opponents; "loss" (-1) makes it finish games,
  "standings" scores the position at the cut by points (+1 sole leader, 0 tied leaders, -1 others).
  ``truncated`` is reported either way.
- ``shaping=c`` (default 0) adds, on every step, ``c`` times the change of the learner's points margin
  (its points minus the best other player's, as it can count them: ``core.scores_known_to``, which
  leaves out Mauna Kea's hidden task cards until the end) over the step.  It is
  potential-based (the sum over a game is ``c`` times the final margin), so it guides long games where
  a win alone is a rare signal without changing which play is best by much.

Snapshots of the learner are ``.npz`` policy networks (``agents.learned.network.save_snapshot``),
played by numpy as pool opponents.
"""
import math
from pathlib import Path

import gymnasium
import numpy as np

from pacific_common.checked import integer
from pacific_common.options import REWARD_MODES, check_seed, is_integer, is_real

from ..arena.match import finishing_ranks, win_shares
from ..base import GameInfo
from ..games import game_info
from ..learned.network import load_network
from ..registry import is_search, make_agent

SEAT_MODES = ("rotate", "random")
TRUNCATION_MODES = ("draw", "loss", "standings")
BASELINES = ("random", "heuristic")
SNAPSHOT_SUFFIXES = (".npz", ".zip")
ILLEGAL_REWARD = -1.0   # the learner's reward for an action its mask forbids (TerminateIllegalWrapper's)


def game_win_share(rewards, scores, truncated, seat):
    """``seat``'s share of the win of a finished game, as the tournaments count it
    (``arena.match.finishing_ranks``): 1/k when k players tie for first by the win_loss ``rewards``,
    and a truncated game adjudicated on the ``scores`` as they stand."""
    return float(win_shares(finishing_ranks(list(rewards), list(scores), bool(truncated)))[seat])


def is_snapshot(spec):
    """Whether a pool entry is a snapshot's file, not an agent's name: a guided search's name ends with
    its guide's file (``mcts+net.npz``)."""
    return isinstance(spec, (str, Path)) and str(spec).endswith(SNAPSHOT_SUFFIXES) and not is_search(str(spec))


def is_network(spec):
    """Whether a pool entry is a network's ``.npz`` file (the numpy forward pass plays it)."""
    return is_snapshot(spec) and str(spec).endswith(".npz")


def make_opponent(spec, game, **kwargs):
    """An agent for a pool entry: a ``.npz`` file (``load_network``: sampling, unless it is a
    scorer), else ``make_agent(spec)``."""
    if is_network(spec):
        return load_network(spec, game, **kwargs)
    return make_agent(str(spec), game, **kwargs)


def check_entries(specs, game):
    """Raise ValueError for an entry no opponent of ``game`` can be made of (an unknown name, a missing
    or foreign file): caught when it is added, not at whichever later reset first draws it, again and
    again, with the entry still in the pool."""
    for spec in specs:
        try:
            make_opponent(spec, game)
        except ValueError as error:
            raise ValueError(f"opponent {spec!r} cannot play {game.name}: {error}") from None


# ---------------------------------------------------------------------------------------------------
# The opponent pool
def _specs(what, specs):
    """Pool entries as strings: one name or path, or a list of them (a lone string is one entry, not
    its letters)."""
    if isinstance(specs, (str, Path)):
        specs = [specs]
    if isinstance(specs, (list, tuple)) and all(isinstance(spec, (str, Path)) and str(spec).strip()
                                                for spec in specs):
        return [str(spec).strip() for spec in specs]   # as make_agent reads a name: " heuristic" is one
    raise ValueError(f"{what} must be an agent name or path, or a list of them, got {specs!r}")


class OpponentPool:
    """The baselines and the learner's snapshots, and how an opponent is drawn from them.

    A draw takes, with probability ``baseline_share``, a baseline (uniformly); otherwise one of the
    ``window`` most recent snapshots (uniformly).  With no snapshot yet every draw is a baseline, with
    no baseline every draw a snapshot.  Entries are agent specs (strings): baselines are
    ``agents.registry`` names, snapshots the paths of ``.npz`` snapshots or ``.zip`` checkpoints.
    With a ``game`` (a ``GameInfo``) every entry, and every one ``add`` adds, is checked to make an
    opponent of that game (ValueError otherwise); the environments check the entries of a pool
    without one against their game themselves."""

    def __init__(self, baselines=BASELINES, snapshots=(), baseline_share=0.5, window=5, game=None):
        if not is_real(baseline_share) or not 0.0 <= baseline_share <= 1.0:
            raise ValueError(f"baseline_share must be a number between 0 and 1, got {baseline_share!r}")
        if not is_integer(window) or window < 1:
            raise ValueError(f"window must be a positive integer, got {window!r}")
        self.baselines = _specs("baselines", baselines)
        self.snapshots = _specs("snapshots", snapshots)
        if not self.baselines and not self.snapshots:
            raise ValueError("the opponent pool is empty: give at least one baseline or snapshot")
        self.baseline_share = float(baseline_share)
        self.window = window
        self.game = game
        if game is not None:
            check_entries(self.entries, game)

    @classmethod
    def of(cls, opponents, game=None):
        """A pool from ``opponents``: a pool (returned as is), one spec, or a list of specs; its
        entries checked against ``game`` when one is given."""
        if isinstance(opponents, OpponentPool):
            if game is not None and opponents.game is not game:
                check_entries(opponents.entries, game)
            return opponents
        opponents = _specs("opponents", opponents)
        return cls([o for o in opponents if not is_snapshot(o)], [o for o in opponents if is_snapshot(o)],
                   game=game)

    def add(self, snapshot, game=None):
        """Add snapshots, checked against ``game`` (default: the pool's own, if any)."""
        specs = _specs("snapshot", snapshot)
        game = self.game if game is None else game
        if game is not None:
            check_entries(specs, game)
        self.snapshots += specs

    @property
    def entries(self):
        return self.baselines + self.snapshots

    def candidates(self):
        """``(entries, probabilities)`` of the next draw."""
        recent = self.snapshots[-self.window:]
        share = self.baseline_share if recent else 1.0
        if not self.baselines:
            share = 0.0
        probabilities = [share / len(self.baselines)] * len(self.baselines) if share else []
        probabilities += [(1.0 - share) / len(recent)] * len(recent) if share < 1.0 else []
        entries = (self.baselines if share else []) + (recent if share < 1.0 else [])
        return entries, probabilities

    def sample(self, rng):
        entries, probabilities = self.candidates()
        return entries[rng.choice(len(entries), p=probabilities)]


# ---------------------------------------------------------------------------------------------------
# The environment
def check_options(seat, reward, truncation, shaping):
    """The training options both self-play environments take (this one and the batched one)."""
    # ``in`` alone would compare a numpy array of names element by element
    if not isinstance(seat, str) or seat not in SEAT_MODES:
        raise ValueError(f"seat must be one of {list(SEAT_MODES)}, got {seat!r}")
    if not isinstance(reward, str) or reward not in REWARD_MODES:
        raise ValueError(f"reward must be one of {list(REWARD_MODES)}, got {reward!r}")
    if not isinstance(truncation, str) or truncation not in TRUNCATION_MODES:
        raise ValueError(f"truncation must be one of {list(TRUNCATION_MODES)}, got {truncation!r}")
    try:
        finite = is_real(shaping) and 0 <= float(shaping) < math.inf
    except OverflowError:   # an int past the float range it is used in
        finite = False
    if not finite:
        raise ValueError(f"shaping must be a finite non-negative number, got {shaping!r}")


class SelfPlayEnv(gymnasium.Env):
    """One seat of ``game`` against opponents from a pool, for single-agent training (see the module
    docstring).

    ``game``: a name ("makabana", "makemake", "maunakea") or a ``GameInfo``; ``num_players``,
    ``variant``, ``max_turns``: the game's options (ignored for a ``GameInfo``).  ``opponents``: an
    ``OpponentPool`` or a list of agent specs (default: random and heuristic).  ``seat``: "rotate"
    (the learner's seat advances by one every game) or "random".  ``reward``, ``shaping``: see the
    module docstring; ``truncation``: the learner's reward for a game cut by ``max_turns`` (idem).

    Observation: the learner's observation vector (``Box`` of int8); action: ``Discrete``;
    ``action_masks()`` gives the legal actions, as ``sb3_contrib.MaskablePPO`` expects.

    Illegal actions: an action of the space (any integer-like value, a 0-d array included) that the
    mask forbids ends the learner's game as a loss, as PettingZoo's ``TerminateIllegalWrapper`` does:
    the step returns reward ``ILLEGAL_REWARD`` (−1, whatever ``reward`` and ``shaping`` say),
    ``terminated=True`` and ``info["illegal_action"] = True`` (with the ``seat``, ``opponents`` and the
    ``scores`` as the learner can count them: the game runs on, so another player's hidden points are
    left out, ``core.scores_known_to``; a game that ended gives everyone's final ``scores``).  Nothing
    is played; ``reset()`` starts the next game.  A value outside the space is a ``ValueError``.  So the
    environment passes Gymnasium's ``check_env``; it also copies and pickles, opponents included, and a
    copy plays on as the original does.  The info of
    ``reset`` and of the game's last step holds the learner's ``seat`` and the ``opponents``; the last
    step's also the ``scores`` and ``win_share`` (1/k when k players tie for first; a truncated game
    adjudicated on the points, as the tournaments rank it); the steps between return an empty info."""

    metadata = {"render_modes": []}

    def __init__(self, game, num_players=None, opponents=BASELINES, seat="rotate", reward="win_loss",
                 shaping=0.0, truncation="draw", variant=None, max_turns=None, seed=None):
        super().__init__()
        self.game = game if isinstance(game, GameInfo) else game_info(game, num_players, variant, max_turns)
        check_options(seat, reward, truncation, shaping)
        self.pool = OpponentPool.of(opponents, self.game)
        self.seat_mode, self.reward_mode, self.shaping = seat, REWARD_MODES.index(reward), float(shaping)
        self.truncation = truncation
        n = self.num_players = self.game.num_players
        self.observation_space = gymnasium.spaces.Box(-128, 127, (self.game.obs_size,), np.int8)
        self.action_space = gymnasium.spaces.Discrete(self.game.num_actions)
        self.state = np.zeros(self.core.STATE_SIZE, dtype=np.int64)
        self._mask = np.zeros(self.game.num_actions, dtype=np.int8)
        self._scores = np.zeros(n, dtype=np.int64)
        self._rewards = np.zeros(n, dtype=np.float64)
        self._agents = {}  # (spec, seat) -> agent, built once: snapshots load their file once
        self.games = 0
        self.seat = -1
        self._seat_offset = None
        self.opponents = [None] * n
        self._over = True
        self._refusal = "call reset() before step()"   # why step() refuses while self._over
        if check_seed(seed) is not None:
            self.reset(seed=seed)

    # -- pool -------------------------------------------------------------------------------------
    def add_opponent(self, snapshot):
        """Add a snapshot (path) to the pool, after checking that it plays this game (ValueError
        otherwise); ``VecEnv.env_method("add_opponent", path)`` reaches every training env."""
        self.pool.add(snapshot, self.game)

    def _opponent(self, spec, seat):
        key = (spec, seat)
        if key not in self._agents:
            drawable = set(self.pool.candidates()[0])
            for old in [k for k in self._agents if k[0] not in drawable]:  # snapshots out of the window
                del self._agents[old]
            agent = make_opponent(spec, self.game)
            agent.name = spec
            self._agents[key] = agent
        return self._agents[key]

    # -- gymnasium ----------------------------------------------------------------------------------
    def reset(self, *, seed=None, options=None):
        super().reset(seed=check_seed(seed))   # the batch's seeds: a bool or 2**64 is not one
        try:
            started = self._start_game(seed)
        except BaseException:
            self._stop("the last reset() failed: call reset() again before step()")
            raise
        self._refusal = "the game is over: call reset() before step()"
        return started

    def _stop(self, refusal):
        """Refuse steps until a reset succeeds: after a failure the position is no longer one where the
        learner is to move (the old game with new seats, or an opponent's turn)."""
        self._over, self._refusal = True, refusal
        self._mask[:] = 0

    def _start_game(self, seed):
        rng, n = self.np_random, self.num_players
        while True:  # a game that ended before the learner's first move (a tiny max_turns) is replayed
            if self.seat_mode == "rotate":
                if seed is not None or self._seat_offset is None:  # where this env's rotation starts
                    self._seat_offset, self.games = int(rng.integers(n)), 0
                    seed = None
                self.seat = (self._seat_offset + self.games) % n
            else:
                self.seat = int(rng.integers(n))
            self.games += 1
            self.opponents = [None if p == self.seat else self.pool.sample(rng) for p in range(n)]
            self._agents_by_seat = [None if spec is None else self._opponent(spec, p)
                                    for p, spec in enumerate(self.opponents)]
            self.core.init(self.state, n, self.game.variant_id, self.game.max_turns,
                           int(rng.integers(2 ** 62)))
            for p, agent in enumerate(self._agents_by_seat):
                if agent is not None:
                    agent.reset(self.game, p, int(rng.integers(2 ** 62)))
            self._over = False
            self._advance_opponents()
            if not self._over:
                break
        self._margin = self._points_margin()
        return self._observe(), self._info(start=True)

    def step(self, action):
        if self._over:
            raise RuntimeError(self._refusal)
        action = integer("action", action, 0, self.game.num_actions - 1)
        if not self._mask[action]:
            return self._end_on_illegal_action()
        if self.core.step(self.state, action) != self.core.STEP_OK:
            raise RuntimeError(f"{self.game.name}: the core refused action {action}, which its mask offered")
        try:
            self._advance_opponents()
        except BaseException:
            self._stop("an opponent failed in the last step(): call reset() before step()")
            raise
        reward = 0.0
        if self.shaping:
            margin = self._points_margin()
            reward += self.shaping * (margin - self._margin)
            self._margin = margin
        status = int(self.state[self.core.STATUS])
        terminated = status == self.core.STATUS_TERMINATED
        truncated = status == self.core.STATUS_TRUNCATED
        if terminated:
            self.core.rewards(self.state, self.reward_mode, self._rewards)
            reward += float(self._rewards[self.seat])
        elif truncated and self.truncation != "draw":
            reward += -1.0 if self.truncation == "loss" else self._standings()
        return self._observe(), reward, terminated, truncated, self._info()

    def _end_on_illegal_action(self):
        """The learner's game ends as a loss, the position untouched (see the class docstring)."""
        self._over = True
        self._mask[:] = 0
        obs = np.empty(self.game.obs_size, dtype=np.int8)
        self.core.observe_player(self.state, self.seat, obs, np.empty_like(self._mask))
        self.core.scores_known_to(self.state, self.seat, self._scores)   # the game runs on: no hidden points
        info = {"seat": self.seat, "opponents": list(self.opponents), "scores": self._scores.tolist(),
                "win_share": 0.0, "illegal_action": True}
        return obs, ILLEGAL_REWARD, True, False, info

    @property
    def core(self):
        # the game's kernels, read through the GameInfo, which pickles by name (a module does not)
        return self.game.core

    def action_masks(self):
        """The learner's legal actions (bool), all False once the game is over."""
        return self._mask.astype(bool)

    # -- the game loop --------------------------------------------------------------------------------
    def _advance_opponents(self):
        """Play the opponents' moves until the learner must act or the game is over."""
        core, state = self.core, self.state
        while state[core.STATUS] == core.STATUS_RUNNING:
            player = int(core.player_to_act(state))
            if player == self.seat:
                return
            agent = self._agents_by_seat[player]
            obs = np.empty(self.game.obs_size, dtype=np.int8)   # fresh: an agent may keep them
            mask = np.empty(self.game.num_actions, dtype=np.int8)
            core.observe_player(state, player, obs, mask)
            legal = mask.copy()
            action = int(agent.act(obs, mask, state.copy() if agent.needs_state else None))
            if not (0 <= action < legal.size and legal[action]):
                raise ValueError(f"opponent {agent.name!r} (player {player}) chose illegal action {action}")
            if core.step(state, action) != core.STEP_OK:
                raise RuntimeError(f"{self.game.name}: the core refused action {action}, which its mask offered")
        self._over = True

    def _observe(self):
        obs = np.empty(self.game.obs_size, dtype=np.int8)
        self.core.observe_player(self.state, self.seat, obs, self._mask)
        return obs

    def _points_margin(self):
        """The learner's points less the best other player's, as the learner can count them: a shaped
        reward must not tell it the others' hidden points (Mauna Kea's task cards)."""
        if not self.shaping:
            return 0.0
        self.core.scores_known_to(self.state, self.seat, self._scores)
        others = np.delete(self._scores, self.seat)
        return float(self._scores[self.seat] - others.max())

    def _standings(self):
        """win_loss by points as they stand: +1 sole leader, 0 tied leaders, -1 the others."""
        self.core.player_scores(self.state, self._scores)
        best = self._scores.max()
        if self._scores[self.seat] < best:
            return -1.0
        return 1.0 if (self._scores == best).sum() == 1 else 0.0

    def _info(self, start=False):
        # only at the start and the end of a game: vector envs deep-copy every step's info
        info = {"seat": self.seat, "opponents": list(self.opponents)} if start or self._over else {}
        if self._over:
            self.core.player_scores(self.state, self._scores)
            self.core.rewards(self.state, 0, self._rewards)  # win_loss decides first place
            info["scores"] = self._scores.tolist()
            info["win_share"] = game_win_share(self._rewards, self._scores,
                                               self.state[self.core.STATUS] == self.core.STATUS_TRUNCATED, self.seat)
        return info
