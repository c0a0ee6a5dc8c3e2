"""The one interface every agent speaks: the tournament, training and human play all use it.

An agent is told which game it is about to play (``reset``), then asked for one action at a time
(``act``) with what its player may know: the observation and the legal-action mask, exactly as the
PettingZoo environment hands them out.  Search agents may also read the full core state row
(``state``), but it holds the other players' secrets too, so they must never read hidden parts of
it directly: they determinize (sample the hidden parts again, consistently with what the player has
observed) before searching.
"""
import importlib
import sys
from dataclasses import dataclass
from types import ModuleType

import numpy as np

from pacific_common.options import check_options, is_integer, space_sizes


@dataclass(frozen=True)
class GameInfo:
    """Which game an agent is playing, and with which options."""
    name: str            # "makabana", "makemake" or "maunakea"
    core: ModuleType     # the game's Numba rules core
    num_players: int
    variant: str         # e.g. "haapii", "standard", "basic"
    variant_id: int      # the core's constant for ``variant``
    max_turns: int
    # Buffer sizes of this variant; a variant may have its own spaces (Maka Bana Mao does), so size
    # observation and mask buffers from these, never from ``core.NUM_ACTIONS`` alone.  Left at 0,
    # they are looked up for the variant.
    num_actions: int = 0
    obs_size: int = 0

    def __post_init__(self):
        # Every field reaches the unchecked kernels (a 9-player row corrupts the heap), so a GameInfo
        # made by hand, or changed with ``dataclasses.replace``, must describe a game the rules allow.
        # The game's package is the core's own (``<name>_env``); agents.games, above this module, is not
        # read.
        name = getattr(self.core, "__name__", "") if isinstance(self.core, ModuleType) else ""
        package = sys.modules.get(name.rpartition(".")[0])
        if not isinstance(self.name, str) or package is None or package.__name__ != f"{self.name}_env" \
                or getattr(package, "kernels", None) is not self.core:
            raise ValueError(f"GameInfo.core must be the kernels of the game named {self.name!r} "
                             f"(<name>_env.kernels), got {self.core!r}")
        env = package.raw_env
        check_options(self.num_players, self.variant, self.max_turns, None, "win_loss",
                      players=env.players, variants=env.variants)
        if type(self.num_players) is not int or type(self.max_turns) is not int:
            raise ValueError(f"GameInfo.num_players and max_turns must be Python ints, got "
                             f"{self.num_players!r} and {self.max_turns!r}")
        if self.variant_id != env.variants[self.variant] or type(self.variant_id) is not int:
            raise ValueError(f"GameInfo.variant_id of {self.name} {self.variant!r} is {env.variants[self.variant]}, "
                             f"got {self.variant_id!r}")
        num_actions, obs_size = (int(size) for size in space_sizes(self.core, self.variant_id))
        for field_name, size in (("num_actions", num_actions), ("obs_size", obs_size)):
            given = getattr(self, field_name)
            if not given:
                object.__setattr__(self, field_name, size)
            elif given != size:
                raise ValueError(f"GameInfo.{field_name} of {self.name} {self.variant!r} is {size}, got {given!r}; "
                                 f"leave it out")

    def __reduce__(self):
        # a module cannot be pickled: the core goes by its name, so that copies and pickles of what holds
        # a GameInfo (an environment of the agents, a tournament's table) work
        return _game_info, (self.name, self.core.__name__, self.num_players, self.variant, self.variant_id,
                            self.max_turns, self.num_actions, self.obs_size)


def _game_info(name, core, *options):
    return GameInfo(name, importlib.import_module(core), *options)


def check_game_info(game):
    """Raise ValueError unless ``game`` is a ``GameInfo``: a game's name alone says neither its players
    nor its variant, and an agent sizes its buffers from them."""
    if not isinstance(game, GameInfo):
        raise ValueError(f"game must be a GameInfo (agents.game_info(name, ...)), got {game!r}")


def check_seed(seed):
    """Raise ValueError unless ``seed`` is one an agent can seed its randomness with: None, a
    non-negative integer or a non-empty tuple or list of them (the tournament's seed and the game's)."""
    seeds = seed if isinstance(seed, (tuple, list)) and seed else [seed]
    if seed is not None and not all(is_integer(s) and s >= 0 for s in seeds):
        raise ValueError(f"seed must be a non-negative integer, a tuple of them or None, got {seed!r}")


class ObservationError(ValueError):
    """An observation that no environment of the game writes, refused before a kernel reads it."""


class _ModuleName(str):
    """A module's name where the module stood, in a pickled object's state."""


class ModulesByName:
    """Copies and pickles the modules an object holds (a game's rules, a strategy) by their names: a
    module cannot be pickled, and an environment holding agents as opponents must copy and pickle."""

    def __getstate__(self):
        return {key: _ModuleName(value.__name__) if isinstance(value, ModuleType) else value
                for key, value in self.__dict__.items()}

    def __setstate__(self, state):
        self.__dict__.update({key: importlib.import_module(value) if isinstance(value, _ModuleName) else value
                              for key, value in state.items()})


class Agent(ModulesByName):
    """Observation and mask in, action out."""

    name = "agent"
    needs_state = False  # True for search agents, which are also given the core state row
    reads_observation = True   # False for agents that play from the state row alone (any observation will do)

    def reset(self, game: GameInfo, player: int, seed=None) -> None:
        """A new game starts, in which this agent plays ``player``; ``seed`` makes its own randomness
        reproducible.  Forget everything from earlier games here: the tournament plays games in any
        order on any worker and must get the same results.  A subclass that reads ``game`` before
        calling this checks it first (``check_game_info``)."""
        check_game_info(game)
        if not is_integer(player) or not 0 <= player < game.num_players:
            raise ValueError(f"player is the agent's seat, an integer from 0 to {game.num_players - 1} in this "
                             f"{game.num_players}-player game, got {player!r}")
        check_seed(seed)
        self.game = game
        self.player = int(player)
        self.rng = np.random.default_rng(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray, state: np.ndarray = None) -> int:
        raise NotImplementedError

    def legal_actions(self, observation, action_mask, state=None):
        """The legal actions of a decision, after checking what ``act`` was given against the game of
        the last ``reset``: an observation (where the agent reads it) and a mask of the game's sizes,
        a legal action, and for an agent that reads the state row, a valid row in which its player is
        to act.  A ValueError says what is wrong; an agent never reads past an array or searches a row
        that is no position."""
        game = getattr(self, "game", None)
        sizes = self.sizes_without_a_game() if game is None else (game.obs_size, game.num_actions)
        if sizes is None:
            raise ValueError(f"{self.name} must be reset(game, player) before it acts")
        obs_size, num_actions = sizes
        where = f"for {self.name}" if game is None else f"in {game.name} ({game.variant})"
        for what, array, size in (("observation", observation, obs_size),
                                  ("action_mask", action_mask, num_actions))[not self.reads_observation:]:
            if not isinstance(array, np.ndarray) or array.shape != (size,) or array.dtype == object:
                got = f"{array.dtype} {array.shape}" if isinstance(array, np.ndarray) else type(array).__name__
                raise ValueError(f"{what} must be a numpy array of shape ({size},) {where}, got {got}")
        # A float mask (0.5, NaN) or a -1 in an integer one is no mask: nonzero entries counted as legal
        # made the random agent play illegal moves and the heuristic's kernels choose none.
        kind = action_mask.dtype.kind
        if kind not in "biu" or kind != "b" and not 0 <= action_mask.min() <= action_mask.max() <= 1:
            got = (f"{action_mask.dtype}" if kind not in "biu" else
                   f"values from {action_mask.min()} to {action_mask.max()}")
            raise ValueError(f"action_mask must hold 0 and 1 (a bool or integer array) {where}, got {got}")
        # NaN has no integer value (the heuristic's cast made one up) and no place in a network's input;
        # only float arrays can hold it, so integer observations cost nothing here
        if self.reads_observation and observation.dtype.kind == "f" and not np.isfinite(observation).all():
            bad = int(np.flatnonzero(~np.isfinite(observation))[0])
            raise ValueError(f"observation must hold finite numbers {where}, got {observation[bad]} at index {bad}")
        legal = np.flatnonzero(action_mask)
        if legal.size == 0:
            raise ValueError(f"{self.name} was asked to act with no legal action in the mask")
        if self.needs_state:
            if state is None:
                raise ValueError(f"{self.name} needs the state row (needs_state = True)")
            checked = importlib.import_module(game.core.__name__.rpartition(".")[0] + ".core")
            checked.check_state(state)   # the game's own validation: a ValueError naming the bad entry
            row = np.ascontiguousarray(state, dtype=np.int64)
            core = game.core
            if (row[core.NUM_PLAYERS], row[core.VARIANT]) != (game.num_players, game.variant_id):
                raise ValueError(f"the state row is a {row[core.NUM_PLAYERS]}-player game of variant "
                                 f"{row[core.VARIANT]}, not the {game.num_players}-player {game.variant} game "
                                 f"{self.name} was reset for")
            to_act = int(core.player_to_act(row))
            if to_act != self.player:
                raise ValueError(f"{self.name} plays player {self.player}, but the state row has player {to_act} "
                                 f"to act")
            # a search plays the row's legal actions: a mask from another decision made it choose one
            # the mask did not offer, and fail with no word of why
            allowed = np.zeros(num_actions, dtype=np.int8)
            core.legal_action_mask(row, allowed)
            if not np.array_equal(allowed != 0, action_mask != 0):
                differ = int(np.flatnonzero((allowed != 0) != (action_mask != 0))[0])
                raise ValueError(f"action_mask {'offers' if action_mask[differ] else 'leaves out'} action {differ}, "
                                 f"which the state row {'does not allow' if action_mask[differ] else 'allows'}: "
                                 f"{self.name} needs the mask observed with the row")
        return legal

    def sizes_without_a_game(self):
        """``(observation size, number of actions)`` for an agent that may act before any ``reset``
        (a network knows them from its layers); None: it must be reset first."""
        return None
