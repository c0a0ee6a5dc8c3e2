"""One game between agents, played on the game's Numba core: the loop that the tournament,
evaluation, human play and training all share.

The loop skips the PettingZoo wrapper and calls the core directly (``init``, ``player_to_act``,
``observe_player``, ``step``), which is what makes thousands of tournament games cheap.  Each agent is
handed exactly what the AEC environment would hand its player -- observation and action mask -- plus,
for search agents (``needs_state``), a copy of the full state row; never the live row, so that no
agent can change the game by accident.

Seeds: one ``seed`` (an int, or a tuple of ints such as ``(tournament seed, game index)``) fixes
everything: the deal and the game's own chance come from one seed derived from it, and the agent in
seat ``p`` is reset with another, so the same seed replays the same game.
"""
import time
from dataclasses import dataclass, field

import numpy as np

from pacific_common.checked import is_integer, scalar

from ..base import Agent, check_game_info
from ..games import GAMES, describe_action

WIN_LOSS = 0  # the cores' REWARD_WIN_LOSS mode


class IllegalActionError(ValueError):
    """An agent chose an action its mask did not offer."""


@dataclass
class GameResult:
    """How one game ended.  Every list has one entry per agent, in the order the agents were given."""
    seats: list          # the player number each agent played
    scores: list         # final points (the core's ``player_scores``)
    rewards: list        # win_loss: +1 sole winner, -1 others; 0 for players tied for first, and
                         # for everybody after a truncation or a Make Make stalemate
    ranks: list          # finishing place, 1 = first; tied players share the better place
                         # (``finishing_ranks``: a truncated game is ranked by points)
    win_shares: list     # 1/k for each of the k players tied for first, 0 for the others
    truncated: bool      # stopped by max_turns rather than by the rules
    decisions: int       # actions asked of the agents
    core_seed: int = None     # the seed the game's kernels were set up with (``raw_env.reset(seed=...)``)
    actions: list = None      # every action, in the order played: with ``core_seed``, the whole game
    final_state: list = None  # the state row at the end, as ints
    agent_decisions: list = None  # actions asked of each agent
    # seconds each agent spent choosing them (its ``act`` calls): a measurement, not part of the game,
    # so two results of the same game compare equal whatever their timing
    agent_seconds: list = field(default=None, compare=False)


def finishing_ranks(rewards, scores, truncated=False):
    """Finishing places, 1 = first; equal places are ties ("1, 2, 2, 4").

    A game that ended by the rules is ranked by its own verdict, the win_loss reward: first the
    sole winner (+1) or the players tied for first (0; in a Make Make stalemate that is everybody),
    then the others (-1) by points.  Points alone would not do: Mauna Kea breaks ties on points by
    explorers and artifacts, and a stalemate has no winner whatever the points.  A truncated game has
    no verdict (its rewards are all 0), so it is adjudicated on the points as they stand -- otherwise
    an agent that wins but cannot make a weak opponent end the game would only ever draw."""
    if truncated:
        keys = list(scores)
    else:
        keys = [(r, s if r < 0 else 0) for r, s in zip(rewards, scores)]
    return [1 + sum(other > key for other in keys) for key in keys]


def win_shares(ranks):
    """One win, split evenly between the players tied for first place."""
    first = sum(r == 1 for r in ranks)
    return [1.0 / first if r == 1 else 0.0 for r in ranks]


def game_seeds(seed, num_players):
    """The core's seed and one seed per seat, all derived from ``seed`` (an int or a tuple of ints)."""
    entropy = [seed] if is_integer(seed) else list(seed) if isinstance(seed, (tuple, list)) else None
    if not entropy or not all(is_integer(s) and s >= 0 for s in entropy):
        raise ValueError(f"seed must be a non-negative integer or a tuple of them, got {seed!r}")
    entropy = [int(s) for s in entropy]
    words = np.random.SeedSequence(entropy).generate_state(num_players + 1, dtype=np.uint64)
    return [int(w) & 0x7FFFFFFFFFFFFFFF for w in words]  # the cores take non-negative int64 seeds


def play_game(game, agents, seed, seats=None, on_step=None) -> GameResult:
    """Play one game to its end between ``agents`` and return a ``GameResult``.

    ``game`` is a ``GameInfo`` (``agents.games.game_info``); ``agents`` has one agent per player;
    ``seats[i]`` is the player number of ``agents[i]`` (default: the order given).  ``on_step``, if
    given, is called after every action as ``on_step(player, action, before, after)`` with copies of
    the state rows around the step (human play uses it to announce moves).  An agent that returns an
    action its mask does not offer raises ``IllegalActionError``."""
    check_game_info(game)
    core, n = game.core, game.num_players
    if not isinstance(agents, (list, tuple)) or len(agents) != n:
        raise ValueError(f"{game.name} with {n} players needs a list of {n} agents, got {agents!r}")
    strangers = [a for a in agents if not isinstance(a, Agent)]
    if strangers:
        raise ValueError(f"agents must be Agent objects (agents.make_agent(name, game)), got {strangers[0]!r}")
    # an agent keeps its seat and its plans between moves: one object in two seats mixes them up
    twice = next((a for i, a in enumerate(agents) if any(a is b for b in agents[:i])), None)
    if twice is not None:
        raise ValueError(f"agent {twice.name!r} ({type(twice).__name__}) is given for more than one seat; make "
                         f"one agent per seat ([agents.make_agent(name, game) for _ in range({n})])")
    if seats is None:
        seats = list(range(n))
    elif not isinstance(seats, (list, tuple)) or not all(is_integer(s) for s in seats):
        raise ValueError(f"seats must be a list of {n} player numbers, got {seats!r}")
    seats = [int(s) for s in seats]
    if sorted(seats) != list(range(n)):
        raise ValueError(f"seats must be a permutation of 0 … {n - 1}, got {seats}")
    if on_step is not None and not callable(on_step):
        raise ValueError(f"on_step must be a function of (player, action, before, after) or None, got {on_step!r}")
    by_seat = [None] * n
    for agent, seat in zip(agents, seats):
        by_seat[seat] = agent

    core_seed, *seat_seeds = game_seeds(seed, n)
    state = np.zeros(core.STATE_SIZE, dtype=np.int64)
    core.init(state, n, game.variant_id, game.max_turns, core_seed)
    for seat, agent in enumerate(by_seat):
        agent.reset(game, seat, seat_seeds[seat])

    actions = []
    decisions, seconds = [0] * n, [0.0] * n   # per seat
    while state[core.STATUS] == core.STATUS_RUNNING:
        player = int(core.player_to_act(state))
        agent = by_seat[player]
        # fresh buffers every time: an agent may keep what it was given (training does)
        obs = np.empty(game.obs_size, dtype=np.int8)
        mask = np.empty(game.num_actions, dtype=np.int8)
        core.observe_player(state, player, obs, mask)
        legal = mask.copy()  # the agent may scribble on its mask; the check below uses this one
        given = state.copy() if agent.needs_state else None
        started = time.perf_counter()
        action = agent.act(obs, mask, given)
        seconds[player] += time.perf_counter() - started
        decisions[player] += 1
        action = check_action(game, state, agent, player, action, legal)
        before = state.copy() if on_step else None
        if core.step(state, int(action)) != core.STEP_OK:
            raise RuntimeError(f"{game.name}: the core refused action {action}, which its mask offered")
        actions.append(int(action))
        if on_step:
            on_step(player, int(action), before, state.copy())

    scores = np.zeros(n, dtype=np.int64)
    rewards = np.zeros(n, dtype=np.float64)
    core.player_scores(state, scores)
    core.rewards(state, WIN_LOSS, rewards)
    truncated = bool(state[core.STATUS] == core.STATUS_TRUNCATED)
    ranks = finishing_ranks(rewards.tolist(), scores.tolist(), truncated)
    shares = win_shares(ranks)
    return GameResult(seats=seats, scores=[int(scores[s]) for s in seats],
                      rewards=[float(rewards[s]) for s in seats], ranks=[ranks[s] for s in seats],
                      win_shares=[shares[s] for s in seats], truncated=truncated, decisions=len(actions),
                      core_seed=core_seed, actions=actions, final_state=state.tolist(),
                      agent_decisions=[decisions[s] for s in seats], agent_seconds=[seconds[s] for s in seats])


def check_action(game, state, agent, player, action, legal):
    """The agent's action as an int (a numpy 0-d array, as a policy's ``predict`` gives, included);
    an ``IllegalActionError`` naming the agent otherwise."""
    who = f"agent {agent.name!r} ({type(agent).__name__}, player {player})"
    action = scalar(action)
    if not is_integer(action):
        raise IllegalActionError(f"{who} returned {action!r}; an action is an integer in "
                                 f"0 … {len(legal) - 1}")
    action = int(action)
    if not 0 <= action < len(legal):
        raise IllegalActionError(f"{who} chose action {action}, outside {game.name}'s actions "
                                 f"0 … {len(legal) - 1}")
    if legal[action]:
        return action
    decisions = GAMES[game.name].raw_env.decisions
    phase = int(state[game.core.PHASE])
    decision = decisions[phase] if phase < len(decisions) else f"phase {phase}"
    raise IllegalActionError(f"{who} chose illegal action {action} ({describe_action(game, action, state)}) in "
                             f"{game.name}: the {decision} decision was asked, with "
                             f"{int(legal.sum())} legal actions in the mask")
