"""The one interface every agent speaks: the tournament, training and human play all use it.

An agent is told which game it is about to play (``reset``), then asked for one action at a time
(``act``) with what its player may know: the observation and the legal-action mask, exactly as the
PettingZoo environment hands them out.  Search agents may also read the full core state row
(``state``), but it holds the other players' secrets too, so they must never read hidden parts of
it directly: they determinize (sample the hidden parts again, consistently with what the player has
observed) before searching.
"""
from dataclasses import dataclass
from types import ModuleType

import numpy as np

from pacific_common.options import space_sizes


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
        num_actions, obs_size = space_sizes(self.core, self.variant_id)
        if not self.num_actions:
            object.__setattr__(self, "num_actions", int(num_actions))
        if not self.obs_size:
            object.__setattr__(self, "obs_size", int(obs_size))


class Agent:
    """Observation and mask in, action out."""

    name = "agent"
    needs_state = False  # True for search agents, which are also given the core state row

    def reset(self, game: GameInfo, player: int, seed=None) -> None:
        """A new game starts, in which this agent plays ``player``; ``seed`` makes its own randomness
        reproducible.  Forget everything from earlier games here: the tournament plays games in any
        order on any worker and must get the same results."""
        self.game = game
        self.player = player
        self.rng = np.random.default_rng(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray, state: np.ndarray = None) -> int:
        raise NotImplementedError
