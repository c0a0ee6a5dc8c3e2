"""Make Make: area control on the hex island of Rapa Nui, as a PettingZoo environment.

``env()`` / ``raw_env`` are the AEC environment (see ``makemake_env.env`` for the spaces);
``makemake_env.core`` is the Numba rules core; ``makemake_env.reference`` the plain-Python rules.
"""
from pacific_common.registry import register

from .batch import BatchEnv
from .env import env, raw_env

__all__ = ["BatchEnv", "env", "raw_env"]

register("makemake-v0", "makemake_env:env")
