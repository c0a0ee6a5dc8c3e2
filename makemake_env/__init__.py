"""Make Make: area control on the hex island of Rapa Nui, as a PettingZoo environment.

``env()`` / ``raw_env`` are the AEC environment (see ``makemake_env.env`` for the spaces);
``makemake_env.core`` is the rules core (checked faces of the Numba ``makemake_env.kernels``);
``makemake_env.reference`` the plain-Python rules.  ``describe_action`` / ``parse_action`` name actions,
``to_text`` / ``from_text`` write and read positions, ``last_actions`` tells what every clan did last
(``makemake_env.notation``; RULES.md, Notation).
"""
from pacific_common.numba_cache import drop_stale_cache
from pacific_common.registry import register

drop_stale_cache(__file__)  # before the Numba modules below are imported

from .batch import BatchEnv  # noqa: E402
from .env import env, raw_env  # noqa: E402
from .notation import LastAction, describe_action, from_text, last_actions, parse_action, to_text  # noqa: E402
from .render import action_place, render_svg  # noqa: E402

__all__ = ["BatchEnv", "LastAction", "action_place", "describe_action", "env", "from_text", "last_actions",
           "parse_action", "raw_env", "render_svg", "to_text"]

register("makemake-v0", "makemake_env:env")
