"""Options spelled the same in every game, checked the same way.

Every bad value is a ``ValueError`` that names the option and says what is allowed; none reaches
Numba, where a value too large for an int64 is an ``OverflowError`` and a wrong type a typing error.

Upper bounds, from what a state row holds (int64 entries):

- ``max_turns``: 1 … ``MAX_TURNS_LIMIT`` (10**9).  Far more than any game lasts, and small enough that
  the kernels' arithmetic on turn counters (Make Make observes ``100 * turns // max_turns``) stays
  inside int64.
- ``seed``: 0 … ``SEED_LIMIT`` (2**63 - 1), the non-negative int64 a row stores its seed as.  A
  ``BatchEnv`` gives game ``i`` the seed ``(seed + i) mod 2**63``.
- ``num_envs``: 1 … ``NUM_ENVS_LIMIT`` (2**20, a million games; their Mauna Kea rows alone take 18 GB), so
  that a typo does not ask for terabytes.
"""
import math
import numbers

import numpy as np

from .checked import integer, is_integer  # noqa: F401  (is_integer: re-exported, the one rule of what an integer is)

RENDER_MODES = ["human", "ansi", "rgb_array"]
REWARD_MODES = ("win_loss", "score", "margin")  # index = the cores' REWARD_* constants

MAX_TURNS_LIMIT = 10**9
SEED_LIMIT = 2**63 - 1
NUM_ENVS_LIMIT = 2**20


def is_real(value):
    """A real number, not a bool (a count or a share given as True is a mistake, not 1)."""
    return isinstance(value, numbers.Real) and not isinstance(value, (bool, np.bool_, np.timedelta64))


def is_finite(number):
    """A number a float can hold, not infinite or NaN (``math.isfinite`` overflows on a 400-digit int)."""
    try:
        return math.isfinite(number)
    except OverflowError:
        return False


def check_options(num_players, variant, max_turns, render_mode, reward, *, players, variants):
    """The five options as plain Python values, ``(num_players, variant, max_turns, render_mode,
    reward)``, after raising ValueError for any option the game does not offer, saying what is
    allowed.  ``players`` is the allowed (low, high) range, ``variants`` the allowed variant names.
    A string option given as a ``str`` subclass comes back as a plain ``str``: numpy's ``str_`` would
    show in every later message as ``np.str_('…')``."""
    num_players = integer("num_players", num_players, *players)
    if not isinstance(variant, str) or variant not in variants:
        raise ValueError(f"variant must be one of {sorted(variants)}, got {variant!r}")
    max_turns = integer("max_turns", max_turns, 1, MAX_TURNS_LIMIT)
    if render_mode is not None and (not isinstance(render_mode, str) or render_mode not in RENDER_MODES):
        raise ValueError(f"render_mode must be None or one of {RENDER_MODES}, got {render_mode!r}")
    if not isinstance(reward, str) or reward not in REWARD_MODES:
        raise ValueError(f"reward must be one of {sorted(REWARD_MODES)}, got {reward!r}")
    return num_players, str(variant), max_turns, None if render_mode is None else str(render_mode), str(reward)


def check_seed(seed):
    """``seed`` as a Python int (or None), after raising ValueError for anything but None or an
    integer from 0 to ``SEED_LIMIT``."""
    if seed is None:
        return None
    try:
        return integer("seed", seed, 0, SEED_LIMIT)
    except ValueError as error:
        raise ValueError(f"{error} (or None for a fresh random seed)") from None


def check_flag(name, value):
    """``value`` as a bool, when it is one (Python's or numpy's); anything else is a ValueError."""
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def fresh_seed():
    return int(np.random.SeedSequence().entropy) & 0x3FFFFFFFFFFFFFFF


def space_sizes(core, variant_id):
    """``(number of actions, observation size)`` of a variant: a core whose variants differ in size
    lists them in ``NUM_ACTIONS_OF_VARIANT`` and ``OBS_SIZE_OF_VARIANT``."""
    actions = getattr(core, "NUM_ACTIONS_OF_VARIANT", None)
    sizes = getattr(core, "OBS_SIZE_OF_VARIANT", None)
    return (core.NUM_ACTIONS if actions is None else actions[variant_id],
            core.OBS_SIZE if sizes is None else sizes[variant_id])
