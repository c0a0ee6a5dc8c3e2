"""The rules core as users call it: the names of ``makabana_env.kernels`` (the Numba kernels, which trust
their arguments and are what hot loops call), each checked before it runs."""
from .kernels import *  # noqa: F401,F403
