"""Maka Bana: bluffing and hut building on a Pacific island, as a PettingZoo environment.

``env()`` / ``raw_env`` are the AEC environment (see ``makabana_env.env`` for the spaces);
``makabana_env.core`` is the Numba rules core; ``makabana_env.reference`` the plain-Python rules.
"""
from pacific_common.registry import register

from .batch import BatchEnv
from .env import env, raw_env

__all__ = ["BatchEnv", "env", "raw_env"]

register("makabana-v0", "makabana_env:env")
