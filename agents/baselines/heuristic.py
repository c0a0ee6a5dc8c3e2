"""The heuristic agent: one hand-written strategy per game, deciding from the observation and the
action mask alone (never from the state row, which holds the other players' secrets).

Each strategy scores the legal actions with what a decent human would look at, one step ahead on
the public situation rebuilt from the observation; the strategies are described in their modules:

- Maka Bana (Haapii): ``agents.baselines.makabana`` -- grow groups and contest beach majorities,
  take back when worth more than building, show the least revealing card, place the tiki where the
  opponents' shown cards point.  Maka Bana Mao: ``agents.baselines.variants`` -- honest 3-card
  projects chosen as in Haapii, denounce a visible paint card when clean.
- Make Make: ``agents.baselines.makemake`` -- race for three sacred territories and safe ceremonial
  grounds around them, defend what carries ceremonies, stop an opponent about to summon Make Make.
- Mauna Kea (basic game): ``agents.baselines.maunakea`` -- route explorers through artifacts to the
  best boat they can reach, lay tiles to open those routes, keep explorers out of the lava's way.
  The advanced game: ``agents.baselines.variants`` -- keep the easiest task cards, then the basic
  strategy.

Randomness only breaks ties, from the generator seeded in ``reset``.
"""
import numpy as np

from ..base import Agent, GameInfo, ObservationError

TIE_NOISE = 1e-6


# The variants each game's strategies know.
STRATEGY_VARIANTS = {"makabana": ("haapii", "mao"), "makemake": ("standard",), "maunakea": ("basic", "advanced")}


def _strategy(name, variant):
    """The strategy module, or for a variant a fresh strategy object (it remembers its plans)."""
    if variant in ("mao", "advanced"):
        from .variants import AdvancedStrategy, MaoStrategy
        return MaoStrategy() if variant == "mao" else AdvancedStrategy()
    if name == "makabana":
        from . import makabana as strategy
    elif name == "makemake":
        from . import makemake as strategy
    else:
        from . import maunakea as strategy
    return strategy


class HeuristicAgent(Agent):
    """Hand-written strategy per game (see the module docstring)."""

    name = "heuristic"
    needs_state = False

    def reset(self, game: GameInfo, player: int, seed=None) -> None:
        super().reset(game, player, seed)
        if game.name not in STRATEGY_VARIANTS:
            raise ValueError(f"HeuristicAgent does not know the game {game.name!r}; "
                             f"it plays {', '.join(STRATEGY_VARIANTS)}")
        if game.variant not in STRATEGY_VARIANTS[game.name]:
            raise ValueError(f"HeuristicAgent has no strategy for {game.name} variant {game.variant!r}")
        self._strategy = _strategy(game.name, game.variant)

    def act(self, observation, action_mask, state=None):
        legal = self.legal_actions(observation, action_mask, state)
        if legal.size == 1:
            return int(legal[0])
        noise = self.rng.random(action_mask.shape[0]) * TIE_NOISE
        seed = int(self.rng.integers(1 << 31))   # for strategies that sample (Mauna Kea's lava)
        obs = np.ascontiguousarray(observation, dtype=np.int8)
        mask = np.ascontiguousarray(action_mask, dtype=np.int8)
        try:
            action = self._strategy.act(obs, mask, noise, self.game.num_players, seed)
            chose = f"it chose {action}"
        except ObservationError:   # the strategy's own check (Mauna Kea's): the user's to hear as it is
            raise
        except (IndexError, KeyError, ValueError) as error:   # a strategy reading two decisions as one
            action, chose = -1, f"{type(error).__name__}: {error}"
        if not (0 <= action < mask.shape[0] and mask[action]):
            # with the observation and mask of one decision the strategies always find an action: not a
            # ValueError, which a command would report as its user's mistake
            raise RuntimeError(f"the {self.game.name} heuristic found no action of the mask that fits the "
                               f"observation ({chose}): observation and action_mask must come "
                               f"from the same decision, or else the heuristic has a bug")
        return int(action)
