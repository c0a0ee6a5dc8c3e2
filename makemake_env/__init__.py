"""Make Make: area control on the hex island of Rapa Nui, as a PettingZoo environment.

``env()`` / ``raw_env`` are the AEC environment (see ``makemake_env.env`` for the spaces);
``makemake_env.core`` is the Numba rules core; ``makemake_env.reference`` the plain-Python rules.
"""
from .batch import BatchEnv
from .env import env, raw_env

__all__ = ["BatchEnv", "env", "raw_env"]

try:
    from pettingzoo import register as _register
except ImportError:  # older PettingZoo without a registry
    _register = None
if _register is not None:
    _register("aec", "makemake-v0", entry_point="makemake_env:env")
