"""The Monte-Carlo tree search agent.

``MCTSAgent(simulations=None, c=None, seed=None, ...)`` searches inside Numba on the game's core: one
Numba call per decision (``agents.search.ismcts.search``), the trees in preallocated NumPy arrays, the
states plain copies of the core's row.  The design (details in ``agents.search.ismcts``):

- **Determinization.**  The agent is handed a copy of the full state row, which holds the other
  players' secrets, so every simulation starts from a fresh *determinization*: every hidden part of
  the row is re-sampled from what the searching player has observed, never copied
  (``agents.search.<game>.determinize``).  Maka Bana Haapii: other colours' current projects -- before
  the reveal a project of the colour, after it a spot showing the revealed card, with the revealed
  kind (paint shown or not).  ``belief`` says how: ``"uniform"`` samples uniformly among everything
  consistent with the observation; ``"plausible"`` keeps to the projects that could succeed on the
  board (when there are any); ``"weighted"`` (the default) also weights those as a player would
  choose them (``agents.search.makabana``: by what the hut would be worth to that colour).  All three
  read the hidden parts only through what was revealed.  Maka Bana Mao: every other colour's project
  not yet revealed at its execution, a set of cards dealt afresh around a target spot, keeping its
  visible card once shown and its count once a denunciation shows it.  Mauna Kea: the order of the
  bag, which is the state's random generator: it is reseeded, so the tiles still unseen and all
  future lava are drawn afresh; with the rules for advanced players also the other players' cards,
  dealt afresh from the cards the searching player cannot account for.  Make Make has nothing hidden
  (the generator, which only drives random play, is reseeded as everywhere).  One determinization
  per simulation.
- **Trees.**  Multiple-observer ISMCTS: one tree per player, whose edges are moves as that player
  sees them ("a colour has submitted a project", then the revealed hints; a hidden card added to a
  Mao project is no edge at all, since nobody can tell how many were added), walked down together; the
  player to act picks by UCB1 (``c``) in its own tree, with availability counts and progressive
  widening (``pw_k``, ``pw_alpha``; the root's moves in the order of a game-specific prior, with a
  progressive ``bias``).  Games where every move is public (Make Make, Mauna Kea) use one shared
  tree, which is the same thing.  Node statistics are kept from the point of view of the player
  who made the move into the node (max^n UCT).
- **Playouts and values.**  A game-specific rollout policy (``agents.search.<game>.playout``) plays on
  for ``rollout_depth`` steps or ``horizon`` seasons/turns, then the position is evaluated
  (``agents.search.<game>.evaluate``): points per player -- the board's score in Maka Bana (exact, as
  Maka Bana scores the final board), a "progress towards summoning Make Make" in Make Make, points
  scored plus what each explorer can still bring home in Mauna Kea -- and the final scores once the
  game is over.  The value of player ``i`` is ``value_weight * sign(m_i) + (1 - value_weight) *
  clip((m_i - m0_i) / value_scale, -1, 1)`` with ``m_i`` its margin (points minus the best other
  player's) and ``m0_i`` that margin at the root: the sign term stands for winning, the margin term
  (relative to the root, so that it keeps its slope in a game already far from even) for winning
  by more.  A truncated game is judged on its points, as ``agents.arena.match`` adjudicates it.
- **Budget.**  ``simulations`` per decision; the default per game (``DEFAULTS``) keeps a decision
  under about 0.2 s on one core.  A decision with a single legal action is answered without search,
  and so is one in a position the game's ``settled`` calls decided (Mauna Kea: no explorer left on
  the island can ever reach a boat), with the rollout policy's move.

Every variant is searched: Maka Bana Mao (``agents.search.makabana``) and Mauna Kea's rules for
advanced players (the other players' cards determinized, ``agents.search.maunakea``).
"""
import importlib
import math
import time

import numpy as np

from pacific_common.options import MAX_TURNS_LIMIT, is_finite, is_integer, is_real

from ..base import Agent, GameInfo, check_seed
from .prior import NO_NETWORK, NO_SCORER, pack, pack_scorer, pack_value

# Per-game defaults (measured choices, see the module docstring of each game's ``agents.search.<game>``
# and ``simulations_per_second``): simulations per decision, exploration constant, rollout steps and
# horizon (seasons / turns; 0: none) before the evaluation, value scale (points of margin change
# worth a full +-1), weight of the sign term, tree mode ("multi": one tree per player, "single": one
# shared tree), belief about hidden projects, tree depth cap, progressive widening and bias (growing with
# the square root of the root's visits with ``puct``, as in AlphaZero), and the
# root's sequential halving (0: the UCB root; with 16, Mauna Kea's guided search won 61.4% of 400
# games against plain mcts, no more than with UCB: docs/training.md).
DEFAULTS = {
    "makabana": dict(simulations=2000, c=0.7, rollout_depth=1000, horizon=2, value_scale=10.0, value_weight=0.1,
                     trees="multi", belief="weighted", max_depth=40, pw_k=2.0, pw_alpha=0.5, bias=0.5, puct=False,
                     halving=0),
    "makemake": dict(simulations=3000, c=0.7, rollout_depth=8, horizon=0, value_scale=20.0, value_weight=0.0,
                     trees="single", belief="uniform", max_depth=40, pw_k=2.0, pw_alpha=0.5, bias=0.5, puct=False,
                     halving=0),
    "maunakea": dict(simulations=1000, c=0.7, rollout_depth=60, horizon=1, value_scale=8.0, value_weight=0.1,
                     trees="single", belief="uniform", max_depth=40, pw_k=2.0, pw_alpha=0.5, bias=0.5, puct=False,
                     halving=0),
}
# What differs when a policy network guides the tree below the root (GuidedMCTSAgent), measured
# (docs/training.md, "The network below the root"): the network's favourites deserve a narrower tree.
# Against plain mcts, with one child per square root of the visits instead of two: Make Make 72.6% of
# 400 games (62.3% of 200 with two). Maka Bana narrower still, half a child per square root: 79.5% of
# 100 games where one child gave 65.0% and a quarter 57.5% on the same deals, and 72.3% of 400 on
# fresh deals (64.2% of 400 with one). Mao keeps one (58.8% of 40 games; with half, 50.0% of 100):
# its network, a PPO policy, wins 5% against the search, too weak to be trusted further.
# Keyed by game and variant.
# Mauna Kea's scorer, ordering the expansions of nodes visited SCORER_AFTER times, with one child per
# square root of the visits: 65.0% of 60 games against plain mcts, where the plain search so narrowed
# won 45.0% of the same deals; 62.3% of 400 on fresh deals.  Its playouts run on to the end of the
# next player's turn (horizon 2) instead of stopping at the end of the searching player's: 67.0% of
# 100 games, and 68.2% of 400 on fresh deals, where the plain search with that horizon won 53.3% of 60
# against itself without it (docs/training.md, "The network below the root").
GUIDED_TREE_DEFAULTS = {("makabana", "haapii"): dict(pw_k=0.5), ("makabana", "mao"): dict(pw_k=1.0),
                        ("makemake", "standard"): dict(pw_k=1.0), ("maunakea", "basic"): dict(pw_k=1.0, horizon=2)}
# The value network's share of a leaf's value where the guide has one (``GuidedMCTSAgent``), measured
# (docs/training.md, "A value network at the leaves"): in Make Make, with a value fitted to 96 games of
# the guided search, half the value and half the playout won 64.5% of 200 games against the same
# search without the value (1,000 simulations each); the value alone, without playouts, 14.2% of 60.
GUIDED_VALUE_MIX = 0.5
# The visits a node below the root has before an action scorer (Mauna Kea's guide) orders its
# expansions: its features cost a look-ahead per candidate, about 5 ms, as much as 50 simulations, so
# only nodes visited this often ask.  With 16 (and the game's widening) the guided search won 53.0% of
# 100 games against plain mcts; with 8 and a narrower tree, 62.3% of 400, at about twice the plain
# search's time per decision.
SCORER_AFTER = 8
BELIEFS = {"uniform": 0, "plausible": 1, "weighted": 2}
BELIEF_GAMES = ("makabana",)   # where ``belief`` changes a determinization: Make Make hides nothing, and
# Mauna Kea's bag and cards are dealt afresh whatever it says
NO_POLICY = np.zeros(0, dtype=np.float64)   # the search's root_policy when the game's prior ranks the root
NODES_PER_SIMULATION = 8


MAX_SIMULATIONS = 1_000_000   # a search's tree takes about 330 bytes a simulation
MAX_DEPTH = 100_000

# What each numeric setting is, and what it may be: (what, whole number?, lowest, highest, lowest allowed?).
# A value outside would not fail in the search: it would play nonsense (a negative exploration
# constant), ignore itself (a negative horizon is none) or choose no action at all (a depth of 0).
# rollout_depth, horizon, halving: no game lasts MAX_TURNS_LIMIT turns nor has as many actions, and the
# search adds a clock to the horizon in int64
LONGEST = MAX_TURNS_LIMIT

NUMERIC_SETTINGS = {
    "simulations": ("the number of simulations per decision", True, 1, MAX_SIMULATIONS, True),
    "c": ("the exploration constant", False, 0, math.inf, True),
    "rollout_depth": ("the most steps a playout takes (0: the leaf is evaluated as it is)", True, 0, LONGEST, True),
    "horizon": ("the seasons or turns a playout may go past the root's (0: no limit)", True, 0, LONGEST, True),
    "value_scale": ("the points of margin worth a full +-1", False, 0, math.inf, False),
    "value_weight": ("the sign term's share of a leaf's value", False, 0, 1, True),
    "max_depth": ("the tree's depth cap", True, 1, MAX_DEPTH, True),
    "pw_k": ("the progressive widening's factor (0: every legal action)", False, 0, math.inf, True),
    "pw_alpha": ("the progressive widening's exponent", False, 0, 1, True),
    "bias": ("the weight of the prior's progressive bias", False, 0, math.inf, True),
    "halving": ("how many of the root's actions sequential halving considers (0: the UCB root)", True, 0, LONGEST,
                True),
}


def check_settings(settings):
    """Raise a ValueError naming the first of the search's ``settings`` (a dict of some or all of them)
    that the search cannot use, and what it may be."""
    # names are strings (a list is no name, and no key of BELIEFS), flags bools (1.0 == True in Python)
    trees, belief = settings.get("trees", "multi"), settings.get("belief", "uniform")
    puct = settings.get("puct", False)
    if not isinstance(trees, str) or trees not in ("multi", "single"):
        raise ValueError(f"trees must be 'multi' or 'single', got {trees!r}")
    if not isinstance(belief, str) or belief not in BELIEFS:
        raise ValueError(f"belief must be one of {sorted(BELIEFS)}, got {belief!r}")
    if not isinstance(puct, (bool, np.bool_)):
        raise ValueError(f"puct is true or false (the root's bias growing with the square root of its "
                         f"visits), got {puct!r}")
    for key, (what, whole, low, high, low_allowed) in NUMERIC_SETTINGS.items():
        if key not in settings:
            continue
        value = settings[key]
        whole_number = is_integer(value)
        number = whole_number or (isinstance(value, (float, np.floating)) and math.isfinite(value))
        if number and (whole_number or not whole or value == int(value)) and \
                (low <= value if low_allowed else low < value) and value <= high:
            continue
        allowed = ("a whole number" if whole else "a number") + (
            f" from {low} to {high}" if high < math.inf else f" of at least {low}" if low_allowed else f" above {low}")
        raise ValueError(f"{key} is {what}: {allowed}; got {value!r}")


_SEARCH = None


def _search_module():
    # imported on first use, so that merely importing ``agents`` compiles nothing
    global _SEARCH
    if _SEARCH is None:  # (agents/__init__.py has dropped a stale Numba cache by now)
        from . import ismcts
        _SEARCH = ismcts
    return _SEARCH


class MCTSAgent(Agent):
    """Information-set Monte-Carlo tree search on the game's Numba core (see the module docstring)."""

    name = "mcts"
    needs_state = True
    reads_observation = False   # the plain search reads the state row; a guided one, what its guide reads

    def __init__(self, simulations=None, c=None, seed=None, rollout_depth=None, horizon=None, value_scale=None,
                 value_weight=None, trees=None, belief=None, max_depth=None, pw_k=None, pw_alpha=None,
                 bias=None, puct=None, halving=None):
        self.options = dict(simulations=simulations, c=c, rollout_depth=rollout_depth, horizon=horizon,
                            value_scale=value_scale, value_weight=value_weight, trees=trees,
                            belief=belief, max_depth=max_depth, pw_k=pw_k, pw_alpha=pw_alpha, bias=bias,
                            puct=puct, halving=halving)
        check_settings({k: v for k, v in self.options.items() if v is not None})  # before any game
        check_seed(seed)   # here, not at a reset that is given a seed of its own and never reads it
        self.default_seed = seed
        self.last_visits = None
        self._arrays = None

    # -----------------------------------------------------------------------------------------
    def check_game(self, game: GameInfo) -> None:
        """Raise ValueError for a setting given that would do nothing in ``game``: a table that names it
        must not report a setting that had no effect."""
        if game.name not in DEFAULTS:
            raise ValueError(f"MCTSAgent does not know the game {game.name!r}")
        if self.options["belief"] is not None and game.name not in BELIEF_GAMES:
            raise ValueError(f"belief says how Maka Bana's hidden projects are sampled; {game.name} has none "
                             f"(Make Make hides nothing, Mauna Kea's bag and cards are dealt afresh): leave it out")

    def reset(self, game: GameInfo, player: int, seed=None) -> None:
        super().reset(game, player, self.default_seed if seed is None else seed)
        self.check_game(game)
        settings = dict(DEFAULTS[game.name])
        settings.update({k: v for k, v in self.options.items() if v is not None})
        check_settings(settings)
        self.settings = settings
        search = _search_module()
        self._rules = importlib.import_module(f"agents.search.{game.name}")
        self._settled = getattr(self._rules, "settled", None)   # games that have positions decided early
        self._game_id = search.GAME_TOKENS[game.name]
        self._num_trees = game.num_players if settings["trees"] == "multi" else 1
        nodes = int(settings["simulations"]) * NODES_PER_SIMULATION + self._num_trees + 64
        if self._arrays is None or self._arrays[0].shape[0] < nodes:
            self._arrays = (np.zeros(nodes, np.int64), np.zeros(nodes, np.int32), np.zeros(nodes, np.int32),
                            np.zeros(nodes, np.int32), np.zeros(nodes, np.int32), np.zeros(nodes, np.float64),
                            np.zeros(nodes, np.int8), np.zeros(nodes, np.float64))
        self._visits = np.zeros(int(game.num_actions), np.int32)
        self.last_visits = None

    def act(self, observation, action_mask, state=None):
        legal = self.legal_actions(observation, action_mask, state)
        if legal.size == 1:
            self.last_visits = None
            return int(legal[0])
        if self._settled is not None and self._settled(np.ascontiguousarray(state, dtype=np.int64)):
            self.last_visits = None
            row = np.array(state, dtype=np.int64)   # the rollout policy's move, on a determinization
            self._rules.determinize(row, int(self.player), int(self.rng.integers(1 << 62)), 0)
            return int(self._rules.rollout_action(row))
        action = self.search(state, int(self.settings["simulations"]), int(self.rng.integers(1 << 62)),
                             self.root_policy(observation, action_mask, state))
        if action < 0 or action >= len(action_mask) or not action_mask[action]:
            raise RuntimeError(f"MCTS chose action {action}, which the mask does not offer")
        return action

    def root_policy(self, observation, action_mask, state):
        """The root's prior for the search: an empty array, for the game's own prior."""
        return NO_POLICY

    def tree_network(self):
        """The policy network guiding the search below its root (``agents.search.prior.pack``): none."""
        return NO_NETWORK

    def leaf_value(self):
        """The value network that values the leaves (``agents.search.prior.pack_value``) and its
        share of a leaf's value: none."""
        return NO_NETWORK, 0.0

    def tree_scorer(self):
        """The action scorer guiding the search below its root (``agents.search.prior.pack_scorer``)
        and the visits a node has before it asks the scorer: none."""
        return NO_SCORER, 0

    def search(self, state, simulations, seed, root_policy=None):
        """One search from ``state`` (a core row, the agent's player to act) with ``simulations``
        simulations and the given seed; returns the chosen action.  The visit count of every root
        action is kept in ``last_visits``.  ``root_policy`` (a probability per action) replaces the
        game's prior at the root."""
        st = self.settings
        ismcts = _search_module()
        state = np.ascontiguousarray(state, dtype=np.int64)
        action = ismcts.search(
            self._game_id, state, int(self.player), self._num_trees, seed, simulations, float(st["c"]),
            int(st["rollout_depth"]), int(st["horizon"]), int(st["max_depth"]), BELIEFS[st["belief"]], float(st["value_scale"]),
            float(st["value_weight"]), float(st["pw_k"]), float(st["pw_alpha"]), float(st["bias"]),
            bool(st["puct"]), int(st["halving"]), *self._arrays, self._visits,
            NO_POLICY if root_policy is None else np.ascontiguousarray(root_policy, dtype=np.float64),
            self.tree_network(), *self.leaf_value(), *self.tree_scorer())
        self.last_visits = self._visits.copy()
        return int(action)

    # -----------------------------------------------------------------------------------------
    def simulations_per_second(self, game: GameInfo, positions=20, simulations=None, seed=0):
        """Measured simulations per second (one core) over ``positions`` decisions of this agent's
        player taken from random games of ``game``; the first search (compilation) is not timed."""
        core = game.core
        self.reset(game, 0, seed)
        sims = int(simulations or self.settings["simulations"])
        states = random_positions(game, positions, seed, max_steps=60)
        elapsed = 0.0
        done = 0
        for i, st in enumerate(states):
            self.player = int(core.player_to_act(st))
            self._num_trees = game.num_players if self.settings["trees"] == "multi" else 1
            t0 = time.perf_counter()
            self.search(st, sims, i)
            if i > 0 or positions == 1:
                elapsed += time.perf_counter() - t0
                done += sims
        return done / elapsed


def random_positions(game, count, seed, max_steps=150):
    """``count`` positions of random games of ``game`` (a ``GameInfo``), each after up to ``max_steps``
    random moves, where the player to act has a choice."""
    core = game.core
    rng = np.random.default_rng(seed)
    state = np.zeros(core.STATE_SIZE, dtype=np.int64)
    mask = np.zeros(game.num_actions, dtype=np.int8)
    found = []
    while len(found) < count:
        core.init(state, game.num_players, game.variant_id, game.max_turns, int(rng.integers(1 << 31)))
        for _ in range(int(rng.integers(0, max_steps))):
            if state[core.STATUS] != core.STATUS_RUNNING:
                break
            core.step(state, core.random_action(state))
        if state[core.STATUS] != core.STATUS_RUNNING:
            continue
        core.legal_action_mask(state, mask)
        if mask.sum() > 1:
            found.append(state.copy())
    return found


class GuidedMCTSAgent(MCTSAgent):
    """The search with a learned policy as its prior (``mcts+shipped``).

    The root expands its actions in the order of the guide's probabilities instead of the game's
    prior, and each gets the progressive bias ``bias * p / (p_max * (visits + 1))`` (the game's
    ``bias`` unless given).  ``guide`` is any agent with ``action_probabilities(observation, mask,
    state)``: a policy network (``agents.learned.network.SnapshotAgent``) or an action scorer
    (``agents.learned.scorer.ScorerAgent``), such as the shipped policy.  It reads only the searching
    player's observation (the scorer: features of the player's own position, as when it plays).

    A policy network also guides the tree below the root (``in_tree``, the default): every node
    expands the action the network prefers for the player to act there, read from that player's
    observation of the simulation's determinization, with the same progressive bias
    (``agents.search.ismcts.search``), and the settings of ``GUIDED_TREE_DEFAULTS`` replace the game's
    defaults where not given.  An action scorer (Mauna Kea's) rates the candidates from a look-ahead
    per action that costs as much as 50 simulations, so below the root it orders the expansions of a
    node only once the node has ``scorer_after`` visits (``SCORER_AFTER`` unless given), computed once
    per node; nodes visited less expand as ``MCTSAgent``'s do.  ``in_tree=False`` keeps any guide
    at the root.

    A policy network file that also holds a value network (``agents.learned.network.read_value``)
    values the search's leaves too: each leaf's value is ``value_mix`` times the network's plus the
    rest of the playout's (``agents.search.ismcts.search``; ``GUIDED_VALUE_MIX`` unless given, 0
    for no value).

    ``root_guide``, where given, is another such agent whose probabilities replace the guide's at the
    root only (``mcts+shipped@root=shipped``: Mauna Kea's shipped scorer, the one that plays best
    alone, at the root, and its guide, fitted to the visit shares, in the tree)."""

    name = "mcts+guided"

    def __init__(self, guide, in_tree=True, value_mix=None, scorer_after=None, root_guide=None, **options):
        for agent in [guide] + ([] if root_guide is None else [root_guide]):
            if not callable(getattr(agent, "action_probabilities", None)):
                raise ValueError(f"the search can be guided only by a policy network or an action scorer "
                                 f"(an agent with action_probabilities), not {getattr(agent, 'name', agent)!r}")
        if in_tree not in (True, False):
            raise ValueError(f"in_tree is true or false (whether the guide guides the tree below the root), "
                             f"got {in_tree!r}")
        if value_mix is not None and not (is_real(value_mix) and 0 <= value_mix <= 1):
            raise ValueError(f"value_mix is the value network's share of a leaf's value, in [0, 1]; got {value_mix!r}")
        if scorer_after is not None and not (is_real(scorer_after) and is_finite(scorer_after)
                                             and int(scorer_after) == scorer_after
                                             and 1 <= scorer_after <= MAX_SIMULATIONS):
            raise ValueError(f"scorer_after is the visits a node has before an action scorer orders its "
                             f"expansions, a whole number from 1 to {MAX_SIMULATIONS}; got {scorer_after!r}")
        # a setting that would do nothing with this guide is refused, not reported as if it had mattered
        # (a value_mix of 0, no value, is true of every guide)
        network = in_tree and hasattr(guide, "network_settings")
        if value_mix and not (network and getattr(guide, "value_layers", None) is not None):
            raise ValueError("value_mix applies to a guide that holds a value network and guides the tree "
                             f"(in_tree); {getattr(guide, 'name', 'this guide')!r} "
                             f"{'does not guide the tree' if not in_tree else 'holds no value network'}")
        if scorer_after is not None and not (in_tree and not network and hasattr(guide, "game_name")):
            raise ValueError("scorer_after applies to an action scorer that guides the tree (in_tree); "
                             f"{getattr(guide, 'name', 'this guide')!r} "
                             f"{'does not guide the tree' if not in_tree else 'is a policy network'}")
        super().__init__(**options)
        self.guide = guide
        self.root_guide = guide if root_guide is None else root_guide
        self._network = self._value = self._scorer = None
        self.value_mix = GUIDED_VALUE_MIX if value_mix is None else float(value_mix)
        self.scorer_after = SCORER_AFTER if scorer_after is None else int(scorer_after)
        if in_tree and hasattr(guide, "network_settings"):   # a policy network (SnapshotAgent)
            self._network = pack(guide.layers, *guide.network_settings())
            if getattr(guide, "value_layers", None) is not None and self.value_mix > 0:
                activation, features, _skip = guide.network_settings()
                self._value = pack_value(guide.value_layers, activation, features)
        elif in_tree and hasattr(guide, "game_name"):         # an action scorer (ScorerAgent)
            self._scorer = pack_scorer(guide.layers, guide.num_features)

    @property
    def reads_observation(self):
        # the root's prior reads the observation, the tree a row; a guide is anything with action_probabilities
        return getattr(self.root_guide, "reads_observation", True)

    def tree_network(self):
        return super().tree_network() if self._network is None else self._network

    def leaf_value(self):
        return super().leaf_value() if self._value is None else (self._value, self.value_mix)

    def tree_scorer(self):
        return super().tree_scorer() if self._scorer is None else (self._scorer, self.scorer_after)

    def reset(self, game: GameInfo, player: int, seed=None) -> None:
        super().reset(game, player, seed)
        self.guide.reset(game, player, seed)
        if self.root_guide is not self.guide:
            self.root_guide.reset(game, player, seed)
        if self._network is None and self._scorer is None:
            return
        if self._network is not None:
            self.guide.check_game(game, "the guiding network")
        self.settings.update({k: v for k, v in GUIDED_TREE_DEFAULTS.get((game.name, game.variant), {}).items()
                              if self.options[k] is None})

    def root_policy(self, observation, action_mask, state):
        return self.root_guide.action_probabilities(observation, action_mask, state)
