"""Maka Bana: bluffing and hut building on a Pacific island, as a PettingZoo environment.

``env()`` / ``raw_env`` are the AEC environment (see ``makabana_env.env`` for the spaces);
``makabana_env.core`` is the rules core (checked faces of the Numba ``makabana_env.kernels``);
``makabana_env.reference`` the plain-Python rules; ``makabana_env.notation`` actions by name
(``describe_action``, ``parse_action``), the position notation (``to_text``, ``from_text``) and
read-only views (``spot_owners``, ``colour_to_act``, ``colour_players``), all exported here.
"""
from pacific_common.numba_cache import drop_stale_cache
from pacific_common.registry import register

drop_stale_cache(__file__)  # before the Numba modules below are imported

from .batch import BatchEnv  # noqa: E402
from .env import env, raw_env  # noqa: E402
from .notation import (  # noqa: E402
    colour_players, colour_to_act, describe_action, from_text, parse_action, spot_owners, to_text,
)
from .render import action_place, render_svg  # noqa: E402

__all__ = ["BatchEnv", "action_place", "colour_players", "colour_to_act", "describe_action", "env", "from_text",
           "parse_action", "raw_env", "render_svg", "spot_owners", "to_text"]

register("makabana-v0", "makabana_env:env")
