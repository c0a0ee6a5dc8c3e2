"""Agents for the three games, one room per kind: ``baselines`` (random, the hand-written strategies),
``search`` (ISMCTS), ``learned`` (trained networks and scorers), ``training`` (the jobs that train them)
and ``arena`` (games, tournaments with ratings, human play); docs/agents.md, "Layout".

``make_agent(spec, game_info(...))`` builds an agent by name (``agents.registry``);
``agents.arena.match.play_game`` plays one game between agents; ``python -m agents.tournament`` rates
them and ``python -m agents.play`` lets a human play against them.
"""
from pathlib import Path

import makabana_env
import makemake_env
import maunakea_env
from pacific_common.numba_cache import drop_stale_cache

# The strategies and the search call the game cores: their cached machine code goes stale with them.
# Each room keeps its own cache (``<room>/__pycache__``), checked against its own sources; every room
# is checked, so that Numba code added to any of them is covered.
for _room in sorted(Path(__file__).resolve().parent.glob("*/__init__.py")):
    drop_stale_cache(_room, depends_on=(makabana_env.__file__, makemake_env.__file__, maunakea_env.__file__))
del _room

from .base import Agent, GameInfo  # noqa: E402
from .games import GAMES, game_info  # noqa: E402
from .registry import load, make_agent  # noqa: E402

__all__ = ["Agent", "GAMES", "GameInfo", "game_info", "load", "make_agent"]
