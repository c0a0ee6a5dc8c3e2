"""Mauna Kea: tile laying and escape from a volcano, as a PettingZoo environment.

``env()`` / ``raw_env`` are the AEC environment (see ``maunakea_env.env`` for the spaces);
``maunakea_env.core`` is the rules core (the checked faces of the Numba ``maunakea_env.kernels``);
``maunakea_env.reference`` the plain-Python rules.  ``describe_action`` / ``parse_action`` name actions,
``to_text`` / ``from_text`` write and read positions, ``explorers`` lists every explorer
(``maunakea_env.notation``).
"""
from pacific_common.numba_cache import drop_stale_cache
from pacific_common.registry import register

drop_stale_cache(__file__)  # before the Numba modules below are imported

from .batch import BatchEnv  # noqa: E402
from .env import env, raw_env  # noqa: E402
from .notation import Explorer, describe_action, explorers, from_text, parse_action, to_text  # noqa: E402
from .render import action_place, render_svg  # noqa: E402

__all__ = ["BatchEnv", "Explorer", "action_place", "describe_action", "env", "explorers", "from_text", "parse_action",
           "raw_env", "render_svg", "to_text"]

register("maunakea-v0", "maunakea_env:env")
