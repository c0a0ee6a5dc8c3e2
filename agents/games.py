"""The three games as the agents see them: name -> environment package, core and default variant."""
import importlib
import inspect
from dataclasses import dataclass
from types import ModuleType

import makabana_env
import makemake_env
import maunakea_env

from .base import GameInfo


@dataclass(frozen=True)
class GameEntry:
    package: ModuleType
    default_players: int

    @property
    def core(self):
        # the unchecked kernels: the agents' loops step rows they made themselves, millions of times
        return self.package.kernels

    @property
    def raw_env(self):
        return self.package.raw_env


GAMES = {
    "makabana": GameEntry(makabana_env, 4),
    "makemake": GameEntry(makemake_env, 4),
    "maunakea": GameEntry(maunakea_env, 4),
}


def game_info(name, num_players=None, variant=None, max_turns=None):
    """A ``GameInfo`` for a game by name, with the environment's defaults for options not given."""
    if not isinstance(name, str) or name not in GAMES:
        raise ValueError(f"unknown game {name!r}; choose one of {sorted(GAMES)}")
    entry = GAMES[name]
    env = entry.raw_env(**{k: v for k, v in (("num_players", num_players), ("variant", variant),
                                              ("max_turns", max_turns)) if v is not None})
    agent = env.possible_agents[0]
    return GameInfo(name, entry.core, env.num_players, env.variant, env.variants[env.variant], env.max_turns,
                    num_actions=int(env.action_space(agent).n),
                    obs_size=int(env.observation_space(agent)["observation"].shape[0]))


# the game's own option names, as the command lines spell them
CLI_OPTIONS = {"num_players": "--players", "variant": "--variant", "max_turns": "--max-turns"}


def game_info_or_error(game, players, variant, max_turns=None):
    """``game_info`` with its errors naming the command-line option, e.g. "--players: num_players must …"."""
    try:
        return game_info(game, players, variant, max_turns)
    except ValueError as error:
        option = next((cli for name, cli in CLI_OPTIONS.items() if str(error).startswith(name)), None)
        raise ValueError(f"{option}: {error}" if option else str(error)) from None


def default_variant(name):
    """The variant a game's environment plays when none is asked for."""
    return inspect.signature(GAMES[name].raw_env).parameters["variant"].default


def run_label(name, variant):
    """How output folders name a game's variant: the game alone for its default variant."""
    return name if variant == default_variant(name) else f"{name}-{variant}"


def _module(game: GameInfo, name):
    # ``<package>.env`` is the env() function, which hides the module of the same name
    return importlib.import_module(f"{GAMES[game.name].package.__name__}.{name}")


def describe_action(game: GameInfo, action, state=None) -> str:
    """The game's words for an action (``<package>.env.describe_action``), in the words of the position
    ``state`` where it is given (Maka Bana Mao names the colour denounced, what a spot action does)."""
    return _module(game, "env").describe_action(action, state)


def render_ansi(game: GameInfo, state, viewer) -> str:
    """The game's text board for ``viewer`` (a player number; ``None`` for a spectator)."""
    return _module(game, "render").render_ansi(state, viewer)
