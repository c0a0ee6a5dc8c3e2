"""Options spelled the same in every game, checked the same way."""
import numpy as np

RENDER_MODES = ["human", "ansi", "rgb_array"]
REWARD_MODES = ("win_loss", "score", "margin")  # index = the cores' REWARD_* constants


def is_integer(value):
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def check_options(num_players, variant, max_turns, render_mode, reward, *, players, variants):
    """Raise ValueError for an option the game does not offer, saying what is allowed.
    ``players`` is the allowed (low, high) range, ``variants`` the allowed variant names."""
    low, high = players
    if not is_integer(num_players) or not low <= num_players <= high:
        raise ValueError(f"num_players must be an integer from {low} to {high}, got {num_players!r}")
    if variant not in variants:
        raise ValueError(f"variant must be one of {sorted(variants)}, got {variant!r}")
    if not is_integer(max_turns) or max_turns < 1:
        raise ValueError(f"max_turns must be a positive integer, got {max_turns!r}")
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(f"render_mode must be None or one of {RENDER_MODES}, got {render_mode!r}")
    if reward not in REWARD_MODES:
        raise ValueError(f"reward must be one of {sorted(REWARD_MODES)}, got {reward!r}")


def check_seed(seed):
    if seed is not None and (not is_integer(seed) or seed < 0):
        raise ValueError(f"seed must be None or a non-negative integer, got {seed!r}")


def fresh_seed():
    return int(np.random.SeedSequence().entropy) & 0x3FFFFFFFFFFFFFFF


def space_sizes(core, variant_id):
    """``(number of actions, observation size)`` of a variant: a core whose variants differ in size
    lists them in ``NUM_ACTIONS_OF_VARIANT`` and ``OBS_SIZE_OF_VARIANT``."""
    actions = getattr(core, "NUM_ACTIONS_OF_VARIANT", None)
    sizes = getattr(core, "OBS_SIZE_OF_VARIANT", None)
    return (core.NUM_ACTIONS if actions is None else actions[variant_id],
            core.OBS_SIZE if sizes is None else sizes[variant_id])
