"""Maka Bana: bluffing and hut building on a Pacific island, as a PettingZoo environment.

``env()`` / ``raw_env`` are the AEC environment (see ``makabana_env.env`` for the spaces);
``makabana_env.core`` is the Numba rules core; ``makabana_env.reference`` the plain-Python rules.
"""
from .batch import BatchEnv
from .env import env, raw_env

__all__ = ["BatchEnv", "env", "raw_env"]

try:
    from pettingzoo import register as _register
except ImportError:  # older PettingZoo without a registry
    _register = None
if _register is not None:
    _register("aec", "makabana-v0", entry_point="makabana_env:env")
