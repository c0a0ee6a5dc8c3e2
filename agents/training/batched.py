"""Self-play on the batched engine: many games in one state array, as one stable-baselines3 ``VecEnv``.

``BatchedSelfPlayEnv(game, num_envs, ...)`` plays ``num_envs`` games at once, the learner in one seat of
each, and is what ``agents.training.train`` trains ``sb3_contrib.MaskablePPO`` on.  Each game is what a
``SelfPlayEnv`` (``agents.training.selfplay``) with the same options plays: the learner's seat rotates
(or is drawn) per game, every other seat gets an opponent drawn from the pool at the game's start, the
rewards, the ``truncation`` modes and the ``shaping`` are the same, and so are the draws -- game ``i``
draws its seat, opponents and seeds from its own generator exactly as a ``SelfPlayEnv`` seeded alike
does, so that with opponents that draw alike the two play the same games (``tests/test_batched_selfplay.py``).

What is different is where the opponents play.  After the learners' actions, one Numba call
(``agents.baselines.batched.<game>``) plays every random and heuristic opponent of every game until
the learner must act again, the game is over, or an opponent played outside Numba is to act.  Those
wait together: a network snapshot plays all its waiting games with one forward pass over their stacked
observations, an action scorer (``ScorerNetwork``) with one feature call and one forward pass, any
other agent (a search agent, a ``.zip`` policy) one game at a time, and the Numba call goes on.  The
only Python per game is at its start and end.

The ``VecEnv`` side: ``step`` returns the learners' observations, rewards, dones and infos; a finished
game starts again at once (autoreset), its last observation in ``info["terminal_observation"]`` and
``info["TimeLimit.truncated"]`` set for a game cut by ``max_turns``, as ``DummyVecEnv`` does.  The info
of a game's last step also holds the learner's ``seat``, the ``opponents``, the ``scores`` and the
``win_share``, as ``SelfPlayEnv`` reports them.  ``action_masks()`` (and ``env_method("action_masks")``,
which MaskablePPO calls) gives the learners' masks as one array.  A learner action that is in the
action space but masked ends that game as a loss (-1), with ``info["illegal_action"] = True`` (and
the ``scores`` as the learner can count them, as ``SelfPlayEnv`` gives them).

``network_seconds`` adds up the time of the snapshots' forward passes, for ``benchmarks.training_speed``.
"""
import importlib
import time

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from stable_baselines3.common.vec_env import VecEnv, VecEnvWrapper

from pacific_common.batch import PARALLEL_FROM, ThreadChoice
from pacific_common.checked import integer, integer_array
from pacific_common.options import NUM_ENVS_LIMIT, REWARD_MODES, SEED_LIMIT, check_seed, is_integer
from pacific_common.rng import seed_rng

from ..base import GameInfo
from ..baselines.batched.common import (
    GAME_OVER, KIND_EXTERNAL, KIND_LEARNER, KIND_NAMES, OPPONENT_ILLEGAL, PLAN_SIZE, WAIT_EXTERNAL, uniforms,
)
from ..games import game_info
from ..learned.network import ACTIVATIONS, SnapshotAgent, policy_layers, scorer_layers, squash
from ..learned.scorer import ScorerAgent, features_module, is_scorer_file, scorer_logits
from .selfplay import BASELINES, OpponentPool, check_options, game_win_share, is_network, make_opponent

# what set_attr may change (attribute -> SelfPlayEnv's option of the same meaning): options that the
# next games read as they start; the rest is fixed at construction, the arrays' sizes included
SETTABLE = {"seat_mode": "seat", "truncation": "truncation", "shaping": "shaping"}
CLOSED = "the environment is closed: make a new one"


class SnapshotNetwork:
    """A snapshot's policy network (``agents.learned.network.save_snapshot``) over stacked observations:
    the forward pass of ``SnapshotAgent.logits`` for many rows at once."""

    reads = "observation"

    def __init__(self, layers, activation="tanh", features="none", skip=False):
        self.activation = ACTIVATIONS[activation]
        self.squash, self.skip = features == "log", bool(skip)
        self.transposed = [(np.ascontiguousarray(w.T), b) for w, b in layers]

    @classmethod
    def load(cls, path, game):
        """The network of a snapshot file, checked against ``game``'s spaces (``SnapshotAgent.load``)."""
        agent = SnapshotAgent.load(path, game)
        network = cls(agent.layers, skip=agent.skip)
        network.activation, network.squash = agent.activation, agent.squash
        return network

    def greedy(self, observations, masks):
        """The most likely legal action of every row, as ``SnapshotAgent(deterministic=True)`` plays."""
        return np.argmax(np.where(masks != 0, self.logits(observations), -np.inf), axis=1)

    def logits(self, observations):
        x = observations.astype(np.float32)
        if self.squash:
            x = squash(x)
        h = x
        for w, b in self.transposed[:-1]:
            h = self.activation(h @ w + b)
        w, b = self.transposed[-1]
        return (np.concatenate([h, x], axis=1) if self.skip else h) @ w + b


class ScorerNetwork:
    """An action scorer (``agents.learned.scorer``) over many games' feature rows: ``greedy`` plays
    what ``ScorerAgent`` plays, the first candidate of the highest logit."""

    reads = "features"

    def __init__(self, layers, game):
        self.layers = [(np.asarray(w, np.float64), np.asarray(b, np.float64)) for w, b in layers]
        self.num_actions = game.num_actions
        self.num_features = self.layers[0][0].shape[1]
        self.rules = features_module(game.name)

    @classmethod
    def load(cls, path, game):
        return cls(ScorerAgent.load(path, game).layers, game)

    def greedy(self, observations, masks):
        """``observations``: (games, actions, features) feature rows, or ``ScorerFeaturesEnv``'s flat
        observations; only the candidates' rows (``masks``) are scored."""
        width = self.num_features
        rows = np.asarray(observations)
        if rows.ndim == 2:
            rows = rows[:, :self.num_actions * width].reshape(-1, self.num_actions, width)
        candidates = masks != 0
        logits = np.full(candidates.shape, -np.inf)
        logits[candidates] = scorer_logits(self.layers, rows[candidates].astype(np.float64))
        return np.argmax(logits, axis=1)


def load_network(path, game):
    """A ``.npz`` policy file for batched play: a ``ScorerNetwork`` or a ``SnapshotNetwork``."""
    return (ScorerNetwork if is_scorer_file(path) else SnapshotNetwork).load(path, game)


def model_network(model, game):
    """The policy of a MaskablePPO ``model`` for batched greedy play, without torch."""
    layers = scorer_layers(model.policy)
    return ScorerNetwork(layers, game) if layers is not None else SnapshotNetwork(*policy_layers(model.policy))


def sample_actions(logits, masks, draws):
    """``SnapshotAgent.act`` row by row: the action whose cumulative masked softmax first reaches the
    row's uniform draw (inverse-CDF sampling, one draw per row)."""
    legal = masks != 0
    logits = np.where(legal, logits, -np.inf)
    p = np.exp(logits - logits.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    reached = (np.cumsum(p, axis=1) >= (draws * p.sum(axis=1))[:, None]) & legal
    # rounding can leave the last legal action just short of the draw: it is the one then
    last = legal.shape[1] - 1 - np.argmax(legal[:, ::-1], axis=1)
    return np.where(reached.any(axis=1), np.argmax(reached, axis=1), last)


def _check_options(num_envs, seat, reward, truncation, shaping):
    integer("num_envs", num_envs, 1, NUM_ENVS_LIMIT)   # BatchEnv's bound: a typo must not ask for terabytes
    check_options(seat, reward, truncation, shaping)


class BatchedSelfPlayEnv(VecEnv):
    """``num_envs`` self-play games of ``game`` as one ``VecEnv`` (see the module docstring).

    ``game``: a name or a ``GameInfo``; ``num_players``, ``variant``, ``max_turns``: the game's options
    (ignored for a ``GameInfo``).  ``opponents``, ``seat``, ``reward``, ``shaping``, ``truncation``: as for
    ``SelfPlayEnv``, the pool shared by all games.  ``seed``: game ``i`` draws from a generator seeded
    ``seed + i`` at the first ``reset`` (as ``VecEnv.seed`` does for a ``DummyVecEnv``).
    ``first_seats``: with ``seat="rotate"``, the learner's seat in each game's first game instead of a
    drawn one (the draw is still made, so the games stay those of the seed): evaluations balance the
    seats with it.  ``autoreset=False`` (evaluations): a game that ends stays over until ``reset``; it is
    marked in ``over``, its learner's mask is all zeros, its action is ignored and nothing of it is
    played or computed any more, so that the games still running do not wait on games started only to
    be thrown away (``ScorerFeaturesEnv`` computes no features for it either)."""

    render_mode = None

    def __init__(self, game, num_envs=32, num_players=None, opponents=BASELINES, seat="rotate",
                 reward="win_loss", shaping=0.0, truncation="draw", variant=None, max_turns=None, seed=None,
                 first_seats=None, autoreset=True):
        _check_options(num_envs, seat, reward, truncation, shaping)
        seed = check_seed(seed)   # here, not at the first reset
        if not isinstance(autoreset, (bool, np.bool_)):   # 1.0 and 0 are == True and False
            raise ValueError(f"autoreset must be True or False, got {autoreset!r}")
        self.autoreset = bool(autoreset)
        self.game = game if isinstance(game, GameInfo) else game_info(game, num_players, variant, max_turns)
        self.pool = OpponentPool.of(opponents, self.game)
        self.seat_mode, self.reward_mode, self.shaping = seat, REWARD_MODES.index(reward), float(shaping)
        self.truncation = truncation
        self.kernels = importlib.import_module(f"{self.game.name}_env.kernels")
        self.loops = importlib.import_module(f"agents.baselines.batched.{self.game.name}")
        k, n, g = self.kernels, self.game.num_players, num_envs
        self.num_players = n
        if first_seats is not None:
            first_seats = first_seats if isinstance(first_seats, np.ndarray) else np.asarray(first_seats)
            if seat != "rotate" or first_seats.shape != (g,) or not integer_array(first_seats) \
                    or not ((0 <= first_seats) & (first_seats < n)).all():
                raise ValueError(f"first_seats must give, with seat='rotate', one seat from 0 to {n - 1} for "
                                 f"each of the {g} games, got {first_seats!r} with seat={seat!r}")
        self._first_seats = first_seats
        super().__init__(g, spaces.Box(-128, 127, (self.game.obs_size,), np.int8),
                         spaces.Discrete(self.game.num_actions))
        self.states = np.zeros((g, k.STATE_SIZE), dtype=np.int64)
        self.seats = np.zeros(g, dtype=np.int64)
        self.kinds = np.zeros((g, n), dtype=np.int64)
        self.gens = np.zeros((g, n), dtype=np.int64)        # each opponent seat's generator
        self.plans = np.zeros((g, n, PLAN_SIZE), dtype=np.int64)
        self.entries = np.full((g, n), -1, dtype=np.int64)  # external opponents: index in self.specs
        self.observations = np.zeros((g, self.game.obs_size), dtype=np.int8)
        self.masks = np.zeros((g, self.game.num_actions), dtype=np.int8)
        self._opponent_obs = np.zeros_like(self.observations)
        self._opponent_masks = np.zeros_like(self.masks)
        self.over = np.zeros(g, dtype=np.bool_)   # games ended and left over (autoreset=False only)
        self._waiting = np.zeros(g, dtype=np.int64)
        self._actors = np.zeros(g, dtype=np.int64)
        self._margins = np.zeros(g, dtype=np.int64)
        self._scores = np.zeros(n, dtype=np.int64)
        self._rewards = np.zeros(n, dtype=np.float64)
        self._actions = np.zeros(g, dtype=np.int64)
        self._rngs = [None] * g
        self._seat_offsets = [None] * g
        self._games_started = [0] * g
        self.opponents = [[None] * n for _ in range(g)]
        self.specs = []            # the external opponents' specs, by index
        self._spec_index = {}
        self._networks = {}        # snapshot spec -> SnapshotNetwork
        self._agents = {}          # (spec, game, seat) -> a Python agent
        # The opponents' loops take Numba's thread pool, as BatchEnv's steps do, where that measures
        # cheaper.  (They once stayed on one thread: torch in the same process had run 3-15 times
        # slower after the pool, which no longer shows, with OpenMP's threads spinning or sleeping;
        # docs/training.md, "Threads".)
        self._threads = ThreadChoice(g >= PARALLEL_FROM)
        self._scorer_rows, self._scorer_candidates = {}, None   # scorer opponents' features (_scorer_buffers)
        self.network_seconds = 0.0
        self._refusal = "call reset() before step()"   # why step() refuses, None while it may play
        self._actions_given = False
        if seed is not None:
            self.seed(seed)

    # -- the pool -----------------------------------------------------------------------------------
    def add_opponent(self, snapshot):
        """Add a snapshot (path) to the pool (``env_method("add_opponent", path)``, as for ``SelfPlayEnv``),
        after checking that it plays this game (ValueError otherwise); networks no game can draw any
        more and none plays are let go."""
        self.pool.add(snapshot, self.game)
        drawable = set(self.pool.candidates()[0])
        seated = {spec for row in self.opponents for spec in row}
        for spec in [s for s in self._networks if s not in drawable | seated]:
            del self._networks[spec]
        for key in [key for key in self._agents if key[0] not in drawable | seated]:
            del self._agents[key]

    def _external_index(self, spec):
        if spec not in self._spec_index:
            self._spec_index[spec] = len(self.specs)
            self.specs.append(spec)
        if is_network(spec) and spec not in self._networks:
            self._networks[spec] = load_network(spec, self.game)
        return self._spec_index[spec]

    def _python_agent(self, spec, g, p):
        key = (spec, g, p)
        if key not in self._agents:
            agent = make_opponent(spec, self.game)
            agent.name = spec
            self._agents[key] = agent
        return self._agents[key]

    # -- starting games ---------------------------------------------------------------------------------
    def _draw_game(self, g, seed):
        """Set up game ``g`` with the draws of ``SelfPlayEnv.reset``, in its order: the seat, the
        opponents, the game's seed, each opponent's seed."""
        if seed is not None or self._rngs[g] is None:
            self._rngs[g] = seeding.np_random(seed)[0]
        rng, n = self._rngs[g], self.num_players
        if self.seat_mode == "rotate":
            if seed is not None or self._seat_offsets[g] is None:
                self._seat_offsets[g], self._games_started[g] = int(rng.integers(n)), 0
                if self._first_seats is not None:
                    self._seat_offsets[g] = int(self._first_seats[g])
            seat = (self._seat_offsets[g] + self._games_started[g]) % n
        else:
            seat = int(rng.integers(n))
        self._games_started[g] += 1
        self.seats[g] = seat
        specs = [None if p == seat else self.pool.sample(rng) for p in range(n)]
        self.opponents[g] = specs
        self.kernels.init(self.states[g], n, self.game.variant_id, self.game.max_turns, int(rng.integers(2 ** 62)))
        self.plans[g] = 0
        for p, spec in enumerate(specs):
            if spec is None:
                self.kinds[g, p] = KIND_LEARNER
                continue
            agent_seed = int(rng.integers(2 ** 62))
            self.gens[g, p] = seed_rng(agent_seed)
            self.kinds[g, p] = KIND_NAMES.get(spec, KIND_EXTERNAL)
            if self.kinds[g, p] == KIND_EXTERNAL:
                self.entries[g, p] = self._external_index(spec)
                if spec not in self._networks:
                    self._python_agent(spec, g, p).reset(self.game, p, agent_seed)

    def _start_games(self, games, seeds=None):
        """Start ``games`` and play their opponents up to the learner's first move; a game over before
        it (a tiny ``max_turns``) is replaced by the next, as ``SelfPlayEnv.reset`` does."""
        games = np.asarray(games, dtype=np.int64)
        while games.size:
            for j, g in enumerate(games):
                self._draw_game(int(g), None if seeds is None else seeds[j])
                self.reset_infos[g] = {"seat": int(self.seats[g]), "opponents": list(self.opponents[g])}
            seeds = None
            todo = np.zeros(self.num_envs, dtype=np.bool_)
            todo[games] = True
            self._play_opponents(todo)
            games = games[self._waiting[games] == GAME_OVER]

    # -- the opponents ----------------------------------------------------------------------------------
    def _play_opponents(self, todo):
        """Play every opponent of the games in ``todo`` until their learners must act or they are over."""
        while todo.any():
            self._threads.call(self.loops.advance_serial, self.loops.advance_parallel, self.states, self.seats,
                               self.kinds, self.gens, self.plans, todo, self._opponent_obs, self._opponent_masks,
                               self._waiting, self._actors)
            refused = np.flatnonzero(todo & (self._waiting == OPPONENT_ILLEGAL))
            if refused.size:
                g = int(refused[0])
                raise RuntimeError(f"{self.game.name}: the batched opponent of player {int(self._actors[g])} "
                                   f"in game {g} chose an action the core refused")
            waiting = np.flatnonzero(todo & (self._waiting == WAIT_EXTERNAL))
            if not waiting.size:
                return
            actions = self._external_actions(waiting)
            if not self.loops.play_actions(self.states, waiting, actions):
                raise RuntimeError(f"{self.game.name}: the core refused an action its mask offered")
            todo = np.zeros(self.num_envs, dtype=np.bool_)
            todo[waiting] = True

    def _external_actions(self, games):
        """The actions of the external opponents to act in ``games``: one forward pass per snapshot over
        all its games, Python agents one game at a time."""
        players = self._actors[games]
        entries = self.entries[games, players]
        actions = np.empty(games.size, dtype=np.int64)
        for entry in np.unique(entries):
            chosen = np.flatnonzero(entries == entry)
            spec = self.specs[entry]
            network = self._networks.get(spec)
            if network is not None and network.reads == "features":
                # a scorer plays greedily, as ScorerAgent does (SelfPlayEnv's scorer opponents too)
                rows = games[chosen]
                features, candidates = self._scorer_buffers(network.num_features)
                network.rules.candidate_features(self.states, self._actors, rows, candidates, features)
                started = time.perf_counter()
                actions[chosen] = network.greedy(features[rows], candidates[rows])
                self.network_seconds += time.perf_counter() - started
                continue
            if network is not None:
                rows = games[chosen]
                started = time.perf_counter()
                logits = network.logits(self._opponent_obs[rows])
                self.network_seconds += time.perf_counter() - started
                draws = np.empty(rows.size)
                uniforms(self.gens, rows, players[chosen], draws)
                actions[chosen] = sample_actions(logits, self._opponent_masks[rows], draws)
                continue
            for j in chosen:
                g, p = int(games[j]), int(players[j])
                agent = self._agents[(spec, g, p)]
                mask = self._opponent_masks[g].copy()
                action = int(agent.act(self._opponent_obs[g].copy(), mask.copy(),
                                       self.states[g].copy() if agent.needs_state else None))
                if not (0 <= action < mask.size and mask[action]):
                    raise ValueError(f"opponent {spec!r} (player {p}) chose illegal action {action}")
                actions[j] = action
        return actions

    def _scorer_buffers(self, num_features):
        """Feature rows (``num_features`` per action) and candidates of every game, for scorer opponents
        (made at their first move)."""
        if self._scorer_candidates is None:
            self._scorer_candidates = np.zeros((self.num_envs, self.game.num_actions), np.int8)
        if num_features not in self._scorer_rows:
            self._scorer_rows[num_features] = np.zeros((self.num_envs, self.game.num_actions, num_features))
        return self._scorer_rows[num_features], self._scorer_candidates

    # -- VecEnv -----------------------------------------------------------------------------------------
    def reset(self):
        if self._refusal == CLOSED:
            raise RuntimeError(CLOSED)
        self.over[:] = False
        try:
            self._start_games(np.arange(self.num_envs), list(self._seeds))
        except BaseException:
            self._stop("the last reset() failed: call reset() again before step()")
            raise
        self._reset_seeds()
        self._reset_options()
        self._refusal = None
        self._update_margins()
        self.loops.observe_seats(self.states, self.seats, self.observations, self.masks)
        return self.observations.copy()

    def step_async(self, actions):
        actions = actions if isinstance(actions, np.ndarray) else np.asarray(actions)
        if actions.shape != (self.num_envs,) or not integer_array(actions):
            kind = "a masked array" if isinstance(actions, np.ma.MaskedArray) else actions.dtype
            raise ValueError(f"actions must be an integer array of shape ({self.num_envs},), one per game, got "
                             f"{kind} of shape {actions.shape}")
        if ((actions < 0) | (actions >= self.game.num_actions)).any():
            raise ValueError(f"actions must lie in the action space [0, {self.game.num_actions}), got "
                             f"{actions[(actions < 0) | (actions >= self.game.num_actions)][:5].tolist()}")
        self._actions[:] = actions
        self._actions_given = True

    def step_wait(self):
        if self._refusal is not None:
            raise RuntimeError(self._refusal)
        if not self._actions_given:   # else the last step's actions, or zeros, would be played again
            raise RuntimeError("step_wait() without step_async(actions) first; step(actions) does both")
        self._actions_given = False
        try:
            return self._play_step()
        except BaseException:
            self._stop("the last step() failed: call reset() before step()")
            raise

    def _stop(self, refusal):
        """Refuse steps until a reset succeeds: after a failure some games moved on and some did not,
        or were half started, and a learner's action would meet an opponent's turn."""
        self._refusal = refusal
        self.masks[:] = 0

    def _play_step(self):
        k, everything = self.kernels, np.arange(self.num_envs)
        actions = self._actions
        running = ~self.over
        legal = (self.masks[everything, actions] != 0) & running
        played = np.flatnonzero(legal)
        if not self.loops.play_actions(self.states, played, actions[played]):
            raise RuntimeError(f"{self.game.name}: the core refused a learner action its mask offered")
        self._play_opponents(legal)
        rewards = np.zeros(self.num_envs)   # float64 until the end, as SelfPlayEnv adds them up
        if self.shaping:
            before = self._margins.copy()
            self._update_margins()
            rewards += self.shaping * (self._margins - before) * running
        status = self.states[:, k.STATUS]
        terminated = ((status == k.STATUS_TERMINATED) | ~legal) & running
        truncated = (status == k.STATUS_TRUNCATED) & running
        dones = terminated | truncated
        infos = [{"TimeLimit.truncated": False} for _ in range(self.num_envs)]
        finished = np.flatnonzero(dones)
        for g in finished:
            rewards[g] += self._final_reward(g, legal[g], truncated[g])
            infos[g].update(self._final_info(g, illegal=not legal[g]))
            infos[g]["TimeLimit.truncated"] = bool(truncated[g] and not terminated[g])
        if finished.size and self.autoreset:
            self._start_games(finished)
            self._update_margins()
        elif finished.size:
            self.over[finished] = True
        self.loops.observe_seats(self.states, self.seats, self.observations, self.masks)
        self.masks[self.over] = 0   # also a game that ended on an illegal action (its state runs on)
        return self.observations.copy(), rewards.astype(np.float32), dones, infos

    def _final_reward(self, g, legal, truncated):
        """What the game's end is worth to the learner, as ``SelfPlayEnv.step`` counts it."""
        k, seat = self.kernels, self.seats[g]
        if not legal:
            return -1.0   # the state did not change: no shaping either
        if self.states[g, k.STATUS] == k.STATUS_TERMINATED:
            k.rewards(self.states[g], self.reward_mode, self._rewards)
            return float(self._rewards[seat])
        if truncated and self.truncation == "loss":
            return -1.0
        if truncated and self.truncation == "standings":
            k.player_scores(self.states[g], self._scores)
            best = self._scores.max()
            if self._scores[seat] < best:
                return -1.0
            return 1.0 if (self._scores == best).sum() == 1 else 0.0
        return 0.0

    def _final_info(self, g, illegal):
        """``SelfPlayEnv``'s info of a game's last step, and its last observation."""
        k, seat = self.kernels, int(self.seats[g])
        obs = np.empty(self.game.obs_size, dtype=np.int8)
        mask = np.empty(self.game.num_actions, dtype=np.int8)
        k.observe_player(self.states[g], seat, obs, mask)
        if illegal:   # the game runs on: no hidden points (SelfPlayEnv._end_on_illegal_action)
            k.scores_known_to(self.states[g], seat, self._scores)
        else:
            k.player_scores(self.states[g], self._scores)
        info = {"seat": seat, "opponents": list(self.opponents[g]), "scores": self._scores.tolist(),
                "terminal_observation": obs}
        if illegal:
            info["illegal_action"] = True
            info["win_share"] = 0.0
        else:
            k.rewards(self.states[g], 0, self._rewards)  # win_loss decides first place
            info["win_share"] = game_win_share(self._rewards, self._scores,
                                               self.states[g, k.STATUS] == k.STATUS_TRUNCATED, seat)
        return info

    def _update_margins(self):
        if self.shaping:
            self.loops.margins(self.states, self.seats, self._margins)

    def action_masks(self):
        """The learners' legal actions, one row per game (bool)."""
        return self.masks.astype(bool)

    def close(self):
        self._refusal = CLOSED
        self._agents.clear()

    def seed(self, seed=None):
        """SB3's ``VecEnv.seed``: game ``i`` draws from ``seed + i`` at the next ``reset``, so every one of
        those must be a seed (``SelfPlayEnv`` refuses the others at its reset)."""
        seed = check_seed(seed)
        if seed is not None and seed + self.num_envs - 1 > SEED_LIMIT:
            raise ValueError(f"seed must be at most {SEED_LIMIT - self.num_envs + 1} for {self.num_envs} games "
                             f"(game i draws from seed + i, at most {SEED_LIMIT}), got {seed}")
        return super().seed(seed)

    def _get_indices(self, indices):
        if indices is None:
            return list(range(self.num_envs))
        if isinstance(indices, np.ndarray):
            indices = indices.tolist()
        if is_integer(indices):
            indices = [indices]
        if not isinstance(indices, (list, tuple, range)) \
                or not all(is_integer(i) and 0 <= i < self.num_envs for i in indices):
            raise ValueError(f"indices must be game numbers from 0 to {self.num_envs - 1} (one, a list of them, "
                             f"or None for all), got {indices!r}")
        return list(indices)

    def get_attr(self, attr_name, indices=None):
        return [getattr(self, attr_name)] * len(self._get_indices(indices))

    def set_attr(self, attr_name, value, indices=None):
        """Change an option for the games that start from now on: ``seat_mode`` ("rotate" or "random"),
        ``truncation`` or ``shaping`` (as ``SelfPlayEnv``'s ``seat``, ``truncation``, ``shaping``), checked
        as the constructor checks them.  The games share one setting: ``indices`` must name them all
        (None does).  Everything else is fixed at construction."""
        if attr_name not in SETTABLE:
            raise ValueError(f"set_attr can change only {sorted(SETTABLE)}, got {attr_name!r}; the other "
                             f"attributes are fixed at construction")
        if sorted(set(self._get_indices(indices))) != list(range(self.num_envs)):
            raise ValueError(f"{attr_name} is one setting for all {self.num_envs} games: indices must be None "
                             f"or name every game, got {indices!r}")
        options = {"seat": self.seat_mode, "reward": REWARD_MODES[self.reward_mode],
                   "truncation": self.truncation, "shaping": self.shaping, SETTABLE[attr_name]: value}
        check_options(**options)
        setattr(self, attr_name, float(value) if attr_name == "shaping" else value)
        if attr_name == "shaping" and self._refusal is None:
            self._update_margins()   # margins are not kept while shaping is 0: count from now

    def env_method(self, method_name, *method_args, indices=None, **method_kwargs):
        """The method called once for the whole batch.  ``action_masks`` returns the (games, actions)
        array itself, which ``np.stack`` (MaskablePPO's ``get_action_masks``) takes as it is; any other
        method's result is repeated for every index."""
        result = getattr(self, method_name)(*method_args, **method_kwargs)
        if method_name == "action_masks" and indices is None:
            return result
        count = len(list(self._get_indices(indices)))
        return result[list(self._get_indices(indices))] if method_name == "action_masks" else [result] * count

    def env_is_wrapped(self, wrapper_class, indices=None):
        return [False] * len(list(self._get_indices(indices)))


class ScorerFeaturesEnv(VecEnvWrapper):
    """A ``BatchedSelfPlayEnv`` whose learners read action features, for ``agents.learned.features.ScorerPolicy``.

    Each observation is one float32 vector: the learner's ``action_features`` row for every action
    (``agents.learned.scorer``: zeros for the actions that are not candidates), then the game's own
    observation, which the value network reads.  ``action_masks()`` gives the candidates (the legal
    actions less the pointless free moves, ``search_mask``), which is what a scorer chooses among.
    A finished game has no candidates: its ``terminal_observation`` holds zero features and the last
    observation.  One Numba call computes every game's features after each step.  Learners only:
    the opponents that are scorers compute theirs in ``BatchedSelfPlayEnv``."""

    def __init__(self, venv: BatchedSelfPlayEnv):
        game = venv.game
        self.rules = features_module(game.name)
        self.num_features = self.rules.NUM_ACTION_FEATURES
        self.feature_size = game.num_actions * self.num_features
        space = spaces.Box(-np.inf, np.inf, (self.feature_size + game.obs_size,), np.float32)
        super().__init__(venv, observation_space=space)
        self.features = np.zeros((venv.num_envs, game.num_actions, self.num_features), np.float32)
        self.candidates = np.zeros((venv.num_envs, game.num_actions), np.int8)
        self._everything = np.arange(venv.num_envs)
        # the features are most of a step's cost (one evaluation per candidate action): they take
        # Numba's threads while that measures faster (on a busy machine it may not)
        self._threads = ThreadChoice(venv.num_envs > 1)

    def _observe(self, observations):
        games = self._everything if not self.venv.over.any() else np.flatnonzero(~self.venv.over)
        self.candidates[self.venv.over] = 0
        self._threads.call(self.rules.candidate_features, self.rules.candidate_features_parallel, self.venv.states,
                           self.venv.seats, games, self.candidates, self.features)
        return np.concatenate([self.features.reshape(self.num_envs, -1), observations.astype(np.float32)], axis=1)

    def reset(self):
        return self._observe(self.venv.reset())

    def step_wait(self):
        observations, rewards, dones, infos = self.venv.step_wait()
        for g in np.flatnonzero(dones):
            last = infos[g]["terminal_observation"].astype(np.float32)
            infos[g]["terminal_observation"] = np.concatenate([np.zeros(self.feature_size, np.float32), last])
        return self._observe(observations), rewards, dones, infos

    def action_masks(self):
        """The learners' candidate actions, one row per game (bool)."""
        return self.candidates.astype(bool)

    def env_method(self, method_name, *method_args, indices=None, **method_kwargs):
        if method_name == "action_masks":
            masks = self.action_masks()
            return masks if indices is None else masks[list(self.venv._get_indices(indices))]
        return self.venv.env_method(method_name, *method_args, indices=indices, **method_kwargs)


def learner_env(venv, reads):
    """``venv`` as a learner that reads ``reads`` sees it: the observation as it is, or action features."""
    return ScorerFeaturesEnv(venv) if reads == "features" else venv


def evaluate(network, game, opponent, games, seed, num_players=None):
    """Win rate of ``network`` (a ``SnapshotNetwork`` or ``ScorerNetwork``, played greedily) with
    ``opponent`` (an agent spec) in every other seat: ``games`` games played at once, the learner in seat
    ``g % players`` of game ``g``, the games' draws from ``seed``.  A game that ends stays over
    (``autoreset=False``): the network plays only the games still running.  Returns the win rate, counted
    as the tournament counts it (``win_share``: ties for first split, a truncated game adjudicated on
    the points)."""
    game = game if isinstance(game, GameInfo) else game_info(game, num_players)
    env = learner_env(BatchedSelfPlayEnv(game, games, opponents=[opponent], seed=seed, autoreset=False,
                                         first_seats=np.arange(games) % game.num_players), network.reads)
    observations = env.reset()
    over = env.unwrapped.over
    shares = np.full(games, np.nan)
    actions = np.zeros(games, dtype=np.int64)
    while not over.all():
        running = np.flatnonzero(~over)
        actions[running] = network.greedy(observations[running], env.action_masks()[running])
        observations, _, dones, infos = env.step(actions)
        for g in np.flatnonzero(dones):
            shares[g] = infos[g]["win_share"]
    env.close()
    return float(shares.mean())
