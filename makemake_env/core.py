"""The rules core of Make Make as users and tests call it: every public function of
``makemake_env.kernels``, with the same name and signature, checked before it runs.

Why two modules: the Numba kernels trust their arguments, so a row of the wrong size, a float array,
a clan or territory out of range or a row of arbitrary numbers reads and writes outside the arrays
and can kill the interpreter.  The kernels stay unchecked because the hot loops (``env.py``,
``batch.py``, the agents, other kernels) call them millions of times with arguments they built
themselves.  Everything else comes through here, where

- arrays must be 1-D, C-contiguous numpy arrays of the kernel's dtype and size, writeable where the
  kernel writes;
- integers must be integer-like (numpy integers and 0-d arrays included) and in range: a clan of the
  game, a territory 0 … 35, a ground 0 … 47; an action may be any int64, since ``step`` answers an
  action outside 0 … 911 as it answers any illegal one (``STEP_ILLEGAL``, the state untouched);
- a state row must pass ``kernels.validate``: ``check_state`` raises the ``ValueError`` naming the
  field, its value and the rule it breaks.

Each bad argument gets a ``ValueError`` naming it.  Constants (offsets, action bases, ``FIELDS``,
``REASONS``, board tables) are the kernels' own, re-exported unchanged.
"""
import numpy as np

from pacific_common import checked

from . import kernels

# The constants, unchanged: every upper-case name of the kernels module (offsets, phases, action
# bases, board tables, FIELDS and REASONS).
globals().update({name: value for name, value in vars(kernels).items() if name.isupper()})

INT64_MAX = np.iinfo(np.int64).max
NO_ACTION = kernels.NO_ACTION


# -- states ------------------------------------------------------------------------------------------
def check_state(state):
    """Raise ``ValueError`` unless ``state`` is a row the rules can reach (``kernels.validate``): the
    message names the entry (e.g. ``OWNER[3]``), its value and the rule.  Any integer array of
    ``STATE_SIZE`` entries is accepted for checking; returns None when valid."""
    row = _as_row(state)
    code, offset = kernels.validate(row)
    if code:
        raise checked.invalid_state(kernels.FIELDS, kernels.REASONS, row, code, offset)


def _as_row(state):
    """``state`` as a contiguous int64 row of ``STATE_SIZE`` entries (a copy where needed)."""
    size = kernels.STATE_SIZE
    if isinstance(state, np.ma.MaskedArray):   # its mask would be dropped, the hidden values read
        raise ValueError(f"state must be an integer array of {size} entries, got a masked array")
    if not isinstance(state, np.ndarray):
        try:
            state = np.asarray(state)
        except (TypeError, ValueError) as error:
            raise ValueError(f"state must be an integer array of {size} entries, got {type(state).__name__}"
                             ) from error
    if not checked.integer_array(state) or state.shape != (size,):
        raise ValueError(f"state must be an integer array of shape ({size},), got {state.dtype} {state.shape}")
    if state.dtype == np.uint64 and state.max() > INT64_MAX:
        raise ValueError(f"state entries must fit in int64, got {int(state.max())}")
    return np.ascontiguousarray(state, dtype=np.int64)


def _array(name, value, dtype, size, writeable=False):
    """``checked.array``, with the common case of a right array answered first (building the message
    of a refusal costs more than the kernel it guards)."""
    if (type(value) is np.ndarray and value.dtype == dtype and value.shape == (size,)
            and value.flags.c_contiguous and (value.flags.writeable or not writeable)):
        return value
    return checked.array(name, value, dtype, size, writeable=writeable)


def _state(state, writeable=False):
    """A valid int64 state row that the kernel may use as it is (written into where ``writeable``)."""
    _array("state", state, np.int64, kernels.STATE_SIZE, writeable=writeable)
    code, offset = kernels.validate(state)
    if code:
        raise checked.invalid_state(kernels.FIELDS, kernels.REASONS, state, code, offset)
    return state


def _clan(state, clan, name="clan"):
    return checked.integer(name, clan, 0, int(state[kernels.NUM_PLAYERS]) - 1)


def _territory(t, name="t"):
    return checked.integer(name, t, 0, kernels.NUM_TERRITORIES - 1)


def _ground(g):
    return checked.integer("g", g, 0, kernels.NUM_GROUNDS - 1)


def _action(action):
    # any int64: the kernels themselves answer an action outside 0 … 911 as illegal
    return checked.integer("action", action, np.iinfo(np.int64).min, INT64_MAX)


def _flag(name, value):
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    return bool(checked.integer(name, value, 0, 1))


def _out(name, value, dtypes, size):
    """An output array of one of ``dtypes`` with ``size`` entries, writeable."""
    for dtype in dtypes:
        if isinstance(value, np.ndarray) and value.dtype == dtype:
            return _array(name, value, dtype, size, writeable=True)
    wanted = " or ".join(np.dtype(d).name for d in dtypes)
    got = f"a {value.dtype} array" if isinstance(value, np.ndarray) else type(value).__name__
    raise ValueError(f"{name} must be a 1-D numpy array of {wanted} with {size} entries, got {got}")


# -- the kernels' faces -------------------------------------------------------------------------------
def validate(state):
    """``(code, offset)``: ``(0, 0)`` for a valid row, else the broken rule (``REASONS[code]``) and the
    first offending entry (``FIELDS``)."""
    checked.array("state", state, np.int64, kernels.STATE_SIZE)
    code, offset = kernels.validate(state)
    return int(code), int(offset)


def init(state, num_players, variant, max_turns, seed):
    """Set up a new game in ``state`` (rulebook, Preparation of the Game)."""
    checked.array("state", state, np.int64, kernels.STATE_SIZE, writeable=True)
    num_players = checked.integer("num_players", num_players, 2, kernels.MAX_CLANS)
    variant = checked.integer("variant", variant, kernels.VARIANT_STANDARD, kernels.VARIANT_STANDARD)
    max_turns = checked.integer("max_turns", max_turns, 1, INT64_MAX)
    seed = checked.integer("seed", seed, 0, INT64_MAX)
    kernels.init(state, num_players, variant, max_turns, seed)


def step(state, action):
    """Apply the decision of the clan to act: ``STEP_OK``, or ``STEP_ILLEGAL`` / ``STEP_GAME_OVER`` with
    the state untouched."""
    _state(state, writeable=True)
    return int(kernels.step(state, _action(action)))


def is_legal(state, action):
    _state(state)
    return bool(kernels.is_legal(state, _action(action)))


def legal_action_mask(state, mask):
    _state(state)
    _array("mask", mask, np.int8, kernels.NUM_ACTIONS, writeable=True)
    checked.apart(state, mask=mask)
    kernels.legal_action_mask(state, mask)


def observe(state, view, obs):
    _state(state)
    view = _clan(state, view, "view")
    _array("obs", obs, np.int8, kernels.OBS_SIZE, writeable=True)
    checked.apart(state, obs=obs)
    kernels.observe(state, view, obs)


def observe_player(state, player, obs, mask):
    _state(state)
    player = _clan(state, player, "player")
    _array("obs", obs, np.int8, kernels.OBS_SIZE, writeable=True)
    _array("mask", mask, np.int8, kernels.NUM_ACTIONS, writeable=True)
    checked.apart(state, obs=obs, mask=mask)
    kernels.observe_player(state, player, obs, mask)


def random_action(state):
    """A uniformly random legal action from the game's own generator (advancing it); -1 once over."""
    _state(state, writeable=True)
    return int(kernels.random_action(state))


def play_random_games(state, num_steps):
    _state(state, writeable=True)
    num_steps = checked.integer("num_steps", num_steps, 0, INT64_MAX)
    return int(kernels.play_random_games(state, num_steps))


def random_action_with(state, gens, g):
    """``random_action`` drawn from the generator ``gens[g]`` (which it advances), not the game's own."""
    _state(state)
    g = checked.generator(state, gens, g)
    return int(kernels.random_action_with(state, gens, g))


def play_random_games_with(state, gens, g, num_steps):
    """``play_random_games`` with the moves drawn from the generator ``gens[g]``."""
    _state(state, writeable=True)
    g = checked.generator(state, gens, g)
    num_steps = checked.integer("num_steps", num_steps, 0, INT64_MAX)
    return int(kernels.play_random_games_with(state, gens, g, num_steps))


def player_scores(state, out):
    _state(state)
    checked.apart(state, out=out)
    kernels.player_scores(state, _out("out", out, (np.int64, np.float64, np.float32),
                                      int(state[kernels.NUM_PLAYERS])))


def scores_known_to(state, view, out):
    """Points per player as player ``view`` can count them (all of them: Make Make hides nothing)."""
    _state(state)
    _clan(state, view, "view")
    player_scores(state, out)


def rewards(state, mode, out):
    _state(state)
    mode = checked.integer("mode", mode, kernels.REWARD_WIN_LOSS, kernels.REWARD_MARGIN)
    checked.apart(state, out=out)
    kernels.rewards(state, mode, _out("out", out, (np.float64, np.float32), int(state[kernels.NUM_PLAYERS])))


def end_code(state):
    return int(kernels.end_code(_state(state)))


def next_seed(state):
    return int(kernels.next_seed(_state(state)))


def player_to_act(state):
    return int(kernels.player_to_act(_state(state)))


def turn_percent(state):
    return int(kernels.turn_percent(_state(state)))


def manu_on_board(state, clan):
    _state(state)
    return int(kernels.manu_on_board(state, _clan(state, clan)))


def strength(state, t):
    _state(state)
    return int(kernels.strength(state, _territory(t)))


def counts_for(state, t, clan):
    _state(state)
    return bool(kernels.counts_for(state, _territory(t), _clan(state, clan)))


def territory_bits(state, clan):
    _state(state)
    return int(kernels.territory_bits(state, _clan(state, clan)))


def manu_bits(state, clan):
    _state(state)
    return int(kernels.manu_bits(state, _clan(state, clan)))


def all_of(bits, required):
    low = np.iinfo(np.int64).min
    return bool(kernels.all_of(checked.integer("bits", bits, low, INT64_MAX),
                               checked.integer("required", required, low, INT64_MAX)))


def protected(state, g, clan):
    _state(state)
    return bool(kernels.protected(state, _ground(g), _clan(state, clan)))


def sacred_count(state, clan):
    _state(state)
    return int(kernels.sacred_count(state, _clan(state, clan)))


def placement_legal(state, clan, t, k, chief):
    _state(state)
    return bool(kernels.placement_legal(state, _clan(state, clan), _territory(t),
                                        checked.integer("k", k, 1, kernels.TOKENS_PER_CLAN), _flag("chief", chief)))


def withdraw_legal(state, clan, t):
    _state(state)
    return bool(kernels.withdraw_legal(state, _clan(state, clan), _territory(t)))


def moai_possible(state, clan, t):
    _state(state)
    return bool(kernels.moai_possible(state, _clan(state, clan), _territory(t)))


def moai_count(state, clan):
    _state(state)
    return int(kernels.moai_count(state, _clan(state, clan)))


def ceremony_possible(state, clan, g):
    _state(state)
    return bool(kernels.ceremony_possible(state, _clan(state, clan), _ground(g)))


def ceremony_count(state, clan):
    _state(state)
    return int(kernels.ceremony_count(state, _clan(state, clan)))


def has_dominance_action(state, clan):
    _state(state)
    return bool(kernels.has_dominance_action(state, _clan(state, clan)))


def has_ceremonial_work(state, clan):
    _state(state)
    return bool(kernels.has_ceremonial_work(state, _clan(state, clan)))
