"""The rules core as users and tests call it: every public kernel of ``makabana_env.kernels`` under its
own name and signature, as a Python function that checks its arguments before the kernel runs.

Why two modules.  The Numba kernels trust their arguments: a row of the wrong size, a hut colour of
10**6 or a mask one entry short reads and writes outside the arrays and can kill the interpreter.
Checking costs a few microseconds a call, which the hot loops cannot pay: ``env.py``, ``batch.py``,
the agents and other Numba code call ``kernels`` directly, on rows they made themselves.  Everything
else calls ``core``: here arrays are checked for dtype, shape, contiguity and (where written)
writeability, integers for range, and state rows with ``kernels.validate``.  A bad argument raises a
``ValueError`` naming it; a call that returns has read and written only inside its arrays.

Constants (offsets, action numbers, phases, ``FIELDS``, ``REASONS``, ...) are the kernels' own,
re-exported unchanged.  ``check_state(state)`` is the Python face of the validator.
"""
import numpy as np

from pacific_common import checked

from . import kernels
from .board import MAX_COLOURS, NUM_BEACHES, NUM_SPOTS

# Every constant of the kernels (upper-case names: offsets, actions, phases, tables), unchanged.
globals().update({name: value for name, value in vars(kernels).items() if name.isupper() and not name.startswith("_")})

_INT64_MIN, _INT64_MAX = -(2 ** 63), 2 ** 63 - 1


# -- argument checks -------------------------------------------------------------------------------
def _row(state, writeable=False):
    """``state`` as a checked row: an int64 array of STATE_SIZE entries that ``kernels.validate``
    accepts."""
    checked.array("state", state, np.int64, kernels.STATE_SIZE, writeable=writeable)
    check_state(state)
    return state


def _colour(state, colour, name="colour"):
    return checked.integer(name, colour, 0, int(state[kernels.NUM_COLOURS]) - 1)


def _player(state, player):
    return checked.integer("player", player, 0, int(state[kernels.NUM_PLAYERS]) - 1)


def _action(action):
    """Any int64 action: the kernels answer one outside the space as illegal."""
    return checked.integer("action", action, _INT64_MIN, _INT64_MAX)


def _float_out(name, out, size):
    """An output array of float64 or float32 (the environments' and the batches' reward buffers)."""
    dtype = out.dtype if isinstance(out, np.ndarray) and out.dtype in (np.float32, np.float64) else np.float64
    return checked.array(name, out, dtype, size, writeable=True)


def _variant_size(state, sizes):
    return sizes[int(state[kernels.VARIANT])]


def check_state(state):
    """None when ``state`` is a row the rules can reach; otherwise a ``ValueError`` naming the entry,
    its value and what is allowed, e.g. ``invalid state: HUT[3] = 1000000: a hut is -1 (none) or a
    colour in play``."""
    checked.array("state", state, np.int64, kernels.STATE_SIZE)
    code, offset = kernels.validate(state)
    if code != kernels.VALID:
        raise checked.invalid_state(kernels.FIELDS, kernels.REASONS, state, code, offset)


def validate(state):
    """``(code, offset)`` of ``kernels.validate``: ``(VALID, -1)``, or the reason (``REASONS[code]``)
    and the offset of the first offending entry (named by ``FIELDS``)."""
    checked.array("state", state, np.int64, kernels.STATE_SIZE)
    code, offset = kernels.validate(state)
    return int(code), int(offset)


# -- set-up and play -------------------------------------------------------------------------------
def init(state, num_players, variant, max_turns, seed):
    """Set up a new game in ``state`` (rulebook, Setup)."""
    checked.array("state", state, np.int64, kernels.STATE_SIZE, writeable=True)
    num_players = checked.integer("num_players", num_players, 2, MAX_COLOURS)
    variant = checked.integer("variant", variant, kernels.VARIANT_HAAPII, kernels.VARIANT_MAO)
    max_turns = checked.integer("max_turns", max_turns, 1, _INT64_MAX)
    seed = checked.integer("seed", seed, 0, _INT64_MAX)
    kernels.init(state, num_players, variant, max_turns, seed)


def step(state, action):
    """Apply the decision of the colour to act: STEP_OK, or STEP_ILLEGAL / STEP_GAME_OVER with the
    state untouched."""
    _row(state, writeable=True)
    return int(kernels.step(state, _action(action)))


def is_legal(state, action):
    _row(state)
    return bool(kernels.is_legal(state, _action(action)))


def legal_action_mask(state, mask):
    """Write the int8 legal-action mask (the variant's number of actions) into ``mask``."""
    _row(state)
    checked.array("mask", mask, np.int8, _variant_size(state, kernels.NUM_ACTIONS_OF_VARIANT), writeable=True)
    checked.apart(state, mask=mask)
    kernels.legal_action_mask(state, mask)


def random_action(state):
    """A uniformly random legal action from the game's own generator (advances it); -1 if none."""
    _row(state, writeable=True)
    return int(kernels.random_action(state))


def play_random_games(state, num_steps):
    """Play ``num_steps`` random decisions, starting a new game whenever one ends; games finished."""
    _row(state, writeable=True)
    num_steps = checked.integer("num_steps", num_steps, 0, _INT64_MAX)
    return int(kernels.play_random_games(state, num_steps))


def random_action_with(state, gens, g):
    """``random_action`` drawn from the generator ``gens[g]`` (which it advances), not the game's own."""
    _row(state)
    g = checked.generator(state, gens, g)
    return int(kernels.random_action_with(state, gens, g))


def play_random_games_with(state, gens, g, num_steps):
    """``play_random_games`` with the moves drawn from the generator ``gens[g]``."""
    _row(state, writeable=True)
    g = checked.generator(state, gens, g)
    num_steps = checked.integer("num_steps", num_steps, 0, _INT64_MAX)
    return int(kernels.play_random_games_with(state, gens, g, num_steps))


def next_seed(state):
    return int(kernels.next_seed(_row(state)))


def end_code(state):
    return int(kernels.end_code(_row(state)))


def mao_choices(state):
    """The decision asked in a Mao game as ``(base, bits)``: legal actions are ``base + i`` for every
    set bit ``i``."""
    base, bits = kernels.mao_choices(_row(state))
    return int(base), int(bits)


def asked_card(state, colour):
    _row(state)
    return int(kernels.asked_card(state, _colour(state, colour)))


# -- observation -----------------------------------------------------------------------------------
def viewpoint(state, player):
    _row(state)
    return int(kernels.viewpoint(state, _player(state, player)))


def observe(state, view, obs):
    """Write what colour ``view`` may know into the int8 ``obs`` (the variant's observation size)."""
    _row(state)
    view = _colour(state, view, "view")
    checked.array("obs", obs, np.int8, _variant_size(state, kernels.OBS_SIZE_OF_VARIANT), writeable=True)
    checked.apart(state, obs=obs)
    kernels.observe(state, view, obs)


def observe_player(state, player, obs, mask):
    """A player's observation and (if one of its colours is to act) legal-action mask."""
    _row(state)
    player = _player(state, player)
    checked.array("obs", obs, np.int8, _variant_size(state, kernels.OBS_SIZE_OF_VARIANT), writeable=True)
    checked.array("mask", mask, np.int8, _variant_size(state, kernels.NUM_ACTIONS_OF_VARIANT), writeable=True)
    checked.apart(state, obs=obs, mask=mask)
    kernels.observe_player(state, player, obs, mask)


# -- queries ---------------------------------------------------------------------------------------
def owner(state, colour):
    """The player who controls a colour."""
    _row(state)
    return int(kernels.owner(state, _colour(state, colour)))


def player_to_act(state):
    """The player whose decision is asked, -1 once the game is over."""
    return int(kernels.player_to_act(_row(state)))


def spot_in_play(state, spot):
    _row(state)
    return bool(kernels.spot_in_play(state, checked.integer("spot", spot, 0, NUM_SPOTS - 1)))


def shown_card(spot, shown):
    """Index of the shown card among the 11 non-paint cards (4 beaches, 4 areas, 3 themes)."""
    spot = checked.integer("spot", spot, 0, NUM_SPOTS - 1)
    shown = checked.integer("shown", shown, kernels.SHOWN_BEACH, kernels.SHOWN_THEME)
    return int(kernels.shown_card(spot, shown))


def paint_shown(state):
    return bool(kernels.paint_shown(_row(state)))


def tiki_spots(state, colour):
    _row(state)
    return int(kernels.tiki_spots(state, _colour(state, colour)))


def has_tiki_placement(state, colour):
    _row(state)
    return bool(kernels.has_tiki_placement(state, _colour(state, colour)))


def beach_full(state, beach):
    _row(state)
    return bool(kernels.beach_full(state, checked.integer("beach", beach, 0, NUM_BEACHES - 1)))


def huts_of(state, colour):
    """Bit set of the spots holding this colour's huts."""
    _row(state)
    return int(kernels.huts_of(state, _colour(state, colour)))


def card_count(state, colour):
    _row(state)
    return int(kernels.card_count(state, _colour(state, colour)))


def cheating_level(count):
    return int(kernels.cheating_level(checked.integer("count", count, 0, kernels.NUM_CARDS + 1)))


# -- scoring ---------------------------------------------------------------------------------------
def group_points(huts):
    """Group points of a bit set of one colour's huts."""
    return int(kernels.group_points(checked.integer("huts", huts, 0, (1 << NUM_SPOTS) - 1)))


def colour_score(state, colour):
    _row(state)
    return int(kernels.colour_score(state, _colour(state, colour)))


def scores(state):
    """Write every colour's points to ``state[SCORE + colour]``."""
    kernels.scores(_row(state, writeable=True))


def player_scores(state, out):
    """Points per player as the board stands, into ``out`` (int64, float64 or float32; one entry per
    player)."""
    _row(state)
    size = int(state[kernels.NUM_PLAYERS])
    if isinstance(out, np.ndarray) and out.dtype == np.int64:
        checked.array("out", out, np.int64, size, writeable=True)
    else:
        _float_out("out", out, size)
    checked.apart(state, out=out)
    kernels.player_scores(state, out)


def scores_known_to(state, view, out):
    """Points per player as player ``view`` can count them (all of them: the board shows them), into
    ``out`` as ``player_scores`` takes it."""
    _row(state)
    checked.integer("view", view, 0, int(state[kernels.NUM_PLAYERS]) - 1)
    player_scores(state, out)


def rewards(state, mode, out):
    """End-of-game reward per player into ``out`` (float64 or float32, one entry per player)."""
    _row(state)
    mode = checked.integer("mode", mode, kernels.REWARD_WIN_LOSS, kernels.REWARD_MARGIN)
    _float_out("out", out, int(state[kernels.NUM_PLAYERS]))
    checked.apart(state, out=out)
    kernels.rewards(state, mode, out)
