"""Maka Bana: bluffing and hut building on a Pacific island, as a PettingZoo environment.

``env()`` / ``raw_env`` are the AEC environment (see ``makabana_env.env`` for the spaces);
``makabana_env.core`` is the Numba rules core; ``makabana_env.reference`` the plain-Python rules.
"""
from pacific_common.numba_cache import drop_stale_cache
from pacific_common.registry import register

drop_stale_cache(__file__)  # before the Numba modules below are imported

from .batch import BatchEnv  # noqa: E402
from .env import env, raw_env  # noqa: E402

__all__ = ["BatchEnv", "env", "raw_env"]

register("makabana-v0", "makabana_env:env")
