"""The rules core as users and tests call it: every public function of ``maunakea_env.kernels`` under
the same name and signature, each checking its arguments before the kernel runs.

Why two modules.  The Numba kernels trust their arguments: a row of the wrong size, a float array, an
index out of range or an entry such as ``TERRAIN[5] = 10**6`` makes them read and write outside their
arrays, which can kill the interpreter.  Checking inside every kernel would slow the hot loops
(``env.py``, ``batch.py``, the agents), which only ever pass rows the rules made.  So those call
``kernels`` directly, and everything else calls this module, whose functions

* check every array (dtype, 1-D, size, C-contiguous, writeable where the kernel writes) and every
  integer (integer-like, numpy 0-d arrays included, and in range) with ``pacific_common.checked``;
* check every game row with ``kernels.validate`` (``check_state`` raises the ``ValueError`` naming
  the entry, e.g. ``OCCUPANT[17]``, its value and the reason);
* then call the kernel of the same name.

A bad argument gets a ``ValueError`` naming it and saying what is allowed; no call of this module can
read or write outside its arrays.  The constants (offsets, action bases, ``FIELDS``, ``REASONS``, …)
are those of ``kernels``, re-exported unchanged.
"""
import types

import numpy as np

from pacific_common import checked, rng, seats

from . import kernels

# every constant of the kernels, unchanged (functions get checked faces below)
globals().update({name: value for name, value in vars(kernels).items()
                  if not name.startswith("_") and not callable(value) and not isinstance(value, types.ModuleType)})

_INT64_MAX = 2**63 - 1
_INT64_MIN = -2**63


# -- argument checks ---------------------------------------------------------------------------------
def check_state(state):
    """Raise ``ValueError`` unless ``state`` is a game row that play can reach (``kernels.validate``);
    the message names the first offending entry, its value and the rule it breaks."""
    _row(state)


def validate(state):
    """``(code, offset)``: ``(0, 0)`` for a valid row, else the reason ``REASONS[code]`` and the offset
    of the first offending entry (``FIELDS`` names it).  ``state`` must be an int64 row."""
    checked.array("state", state, np.int64, kernels.STATE_SIZE)
    code, offset = kernels.validate(state)
    return int(code), int(offset)


def _row(state, *, writeable=False):
    checked.array("state", state, np.int64, kernels.STATE_SIZE, writeable=writeable)
    code, offset = kernels.validate(state)
    if code != 0:
        raise checked.invalid_state(kernels.FIELDS, kernels.REASONS, state, code, offset)
    return state


def _player(state, name, value):
    """A player of this game: 0 … num_players - 1."""
    return checked.integer(name, value, 0, int(state[kernels.NUM_PLAYERS]) - 1)


def _explorer(value):
    return checked.integer("e", value, 0, kernels.MAX_EXPLORERS - 1)


def _num_actions(state):
    return kernels.NUM_ACTIONS_OF_VARIANT[int(state[kernels.VARIANT])]


def _obs_size(state):
    return kernels.OBS_SIZE_OF_VARIANT[int(state[kernels.VARIANT])]


def _per_player(name, value, state):
    """An array with an entry per player (``float64``, ``float32`` or ``int64``), written into."""
    n = int(state[kernels.NUM_PLAYERS])
    if not isinstance(value, np.ndarray) or value.dtype not in (np.float64, np.float32, np.int64):
        got = type(value).__name__ if not isinstance(value, np.ndarray) else f"a {value.dtype} array"
        raise ValueError(f"{name} must be a 1-D numpy array of float64, float32 or int64 with at least "
                         f"{n} entries (one per player), got {got}")
    checked.array(name, value, value.dtype, writeable=True)
    if value.shape[0] < n:
        raise ValueError(f"{name} must have at least {n} entries (one per player), got {value.shape[0]}")
    return value


# -- set-up and play ---------------------------------------------------------------------------------
def init(state, num_players, variant, max_turns, seed):
    """Set up a new game in ``state`` (RULES.md, Set-up)."""
    checked.array("state", state, np.int64, kernels.STATE_SIZE, writeable=True)
    kernels.init(state, checked.integer("num_players", num_players, 2, kernels.MAX_PLAYERS),
                 checked.integer("variant", variant, kernels.VARIANT_BASIC, kernels.VARIANT_ADVANCED),
                 checked.integer("max_turns", max_turns, 1, _INT64_MAX),
                 checked.integer("seed", seed, 0, _INT64_MAX))


def step(state, action):
    """Apply the decision of the player to act: ``STEP_OK``, or ``STEP_ILLEGAL`` / ``STEP_GAME_OVER``
    with the state untouched.  Any int64 action: the kernels answer one outside the space as illegal,
    as in the other two games."""
    _row(state, writeable=True)
    return int(kernels.step(state, _action(action)))


def is_legal(state, action):
    _row(state)
    return bool(kernels.is_legal(state, _action(action)))


def _action(action):
    return checked.integer("action", action, _INT64_MIN, _INT64_MAX)


def legal_action_mask(state, mask):
    """Write the legal actions of the player to act into ``mask`` (int8, the variant's action count)."""
    _row(state)
    checked.array("mask", mask, np.int8, _num_actions(state), writeable=True)
    checked.apart(state, mask=mask)
    kernels.legal_action_mask(state, mask)


def random_action(state):
    """A uniformly random legal action from the game's own generator (which it advances; that generator
    also draws the tiles, so the tiles to come change); -1 if over.  ``BatchEnv.random_actions`` draws
    from generators apart from the games'."""
    _row(state, writeable=True)
    return int(kernels.random_action(state))


def play_random_games(state, num_steps):
    """Play ``num_steps`` random decisions, starting a new game each time one ends; returns how many
    ended."""
    _row(state, writeable=True)
    return int(kernels.play_random_games(state, checked.integer("num_steps", num_steps, 0, _INT64_MAX)))


def random_action_with(state, gens, g):
    """``random_action`` drawn from the generator ``gens[g]`` (which it advances), not the game's own:
    the tiles to come stay as they were."""
    _row(state, writeable=True)   # the kernel's walk takes the row for its mask argument too, as random_action's
    g = checked.generator(state, gens, g)
    return int(kernels.random_action_with(state, gens, g))


def play_random_games_with(state, gens, g, num_steps):
    """``play_random_games`` with the moves drawn from the generator ``gens[g]``."""
    _row(state, writeable=True)
    g = checked.generator(state, gens, g)
    return int(kernels.play_random_games_with(state, gens, g,
                                              checked.integer("num_steps", num_steps, 0, _INT64_MAX)))


def next_seed(state):
    return int(kernels.next_seed(_row(state)))


def end_code(state):
    return int(kernels.end_code(_row(state)))


def player_to_act(state):
    return int(kernels.player_to_act(_row(state)))


def settled(state):
    return bool(kernels.settled(_row(state)))


# -- observation ---------------------------------------------------------------------------------------
def observe(state, view, obs):
    """Write player ``view``'s observation into ``obs`` (int8, the variant's observation size)."""
    _row(state)
    view = _player(state, "view", view)
    checked.apart(state, obs=obs)
    kernels.observe(state, view, checked.array("obs", obs, np.int8, _obs_size(state), writeable=True))


def observe_player(state, player, obs, mask):
    _row(state)
    player = _player(state, "player", player)
    checked.array("obs", obs, np.int8, _obs_size(state), writeable=True)
    checked.array("mask", mask, np.int8, _num_actions(state), writeable=True)
    checked.apart(state, obs=obs, mask=mask)
    kernels.observe_player(state, player, obs, mask)


def card_reach(state, player, e, kind, reach):
    """The squares a jungle (0), water (1) or mountain (2) movement card takes explorer ``e`` of
    ``player`` to, as 1s in ``reach`` (int8, one per square); returns how many."""
    _row(state)
    player = _player(state, "player", player)
    e = _explorer(e)
    kind = checked.integer("kind", kind, 0, 2)
    checked.array("reach", reach, np.int8, kernels.NUM_SQUARES, writeable=True)
    checked.apart(state, reach=reach)
    return int(kernels.card_reach(state, player, e, kind, reach))


# -- small queries -------------------------------------------------------------------------------------
def explorer_index(player, e):
    return int(kernels.explorer_index(checked.integer("player", player, 0, kernels.MAX_PLAYERS - 1),
                                      _explorer(e)))


def hand_points(state, player):
    _row(state)
    return int(kernels.hand_points(state, _player(state, "player", player)))


def explorers_on_island(state, player):
    _row(state)
    return int(kernels.explorers_on_island(state, _player(state, "player", player)))


def carried_total(state, player, e):
    _row(state)
    return int(kernels.carried_total(state, _player(state, "player", player), _explorer(e)))


def field_is_lava(state, f):
    _row(state)
    return bool(kernels.field_is_lava(state, checked.integer("f", f, 0, kernels.NUM_FIELDS - 1)))


def move_cost(state, player, e, direction):
    _row(state)
    return int(kernels.move_cost(state, _player(state, "player", player), _explorer(e),
                                 checked.integer("direction", direction, 0, 3)))


# -- scoring ---------------------------------------------------------------------------------------------
def score(state, player):
    _row(state)
    return int(kernels.score(state, _player(state, "player", player)))


def public_score(state, player):
    _row(state)
    return int(kernels.public_score(state, _player(state, "player", player)))


def task_points(state, player):
    _row(state)
    return int(kernels.task_points(state, _player(state, "player", player)))


def standing(state, player):
    _row(state)
    return int(kernels.standing(state, _player(state, "player", player)))


def player_scores(state, out):
    """Write every player's points into ``out[:num_players]``."""
    _row(state)
    checked.apart(state, out=out)
    kernels.player_scores(state, _per_player("out", out, state))


def known_score(state, view, player):
    """``player``'s points as player ``view`` can count them: the others' task cards are left out while
    the game runs (advanced game)."""
    _row(state)
    return int(kernels.known_score(state, _player(state, "view", view), _player(state, "player", player)))


def scores_known_to(state, view, out):
    """Write every player's points as player ``view`` can count them into ``out[:num_players]``: the
    others' task cards are left out while the game runs (advanced game)."""
    _row(state)
    checked.apart(state, out=out)
    kernels.scores_known_to(state, _player(state, "view", view), _per_player("out", out, state))


def rewards(state, mode, out):
    """Write the end-of-game rewards (``REWARD_WIN_LOSS``, ``REWARD_SCORE`` or ``REWARD_MARGIN``)."""
    _row(state)
    mode = checked.integer("mode", mode, kernels.REWARD_WIN_LOSS, kernels.REWARD_MARGIN)
    checked.apart(state, out=out)
    kernels.rewards(state, mode, _per_player("out", out, state))


# -- the shared helpers the kernels module imports (pacific_common.rng, pacific_common.seats) -----------
def seed_rng(seed):
    return int(rng.seed_rng(checked.integer("seed", seed, _INT64_MIN, _INT64_MAX)))


def following_seed(seed):
    return int(rng.following_seed(checked.integer("seed", seed, 0, _INT64_MAX)))


def draw(state, offset, bound):
    """A uniform integer in ``[0, bound)`` from the generator kept at ``state[offset]`` (any int64
    array: the generator needs no game around it)."""
    checked.array("state", state, np.int64, writeable=True)
    offset = checked.integer("offset", offset, 0, state.shape[0] - 1)
    return int(rng.draw(state, offset, checked.integer("bound", bound, 1, _INT64_MAX)))


def relative(seat, view, n):
    n = checked.integer("n", n, 1, kernels.MAX_PLAYERS)
    return int(seats.relative(checked.integer("seat", seat, 0, n - 1), checked.integer("view", view, 0, n - 1), n))


def seat_after(seat, k, n):
    n = checked.integer("n", n, 1, kernels.MAX_PLAYERS)
    return int(seats.seat_after(checked.integer("seat", seat, 0, n - 1), checked.integer("k", k, 0, n), n))


def margins(out, n):
    """``pacific_common.seats.margins`` on ``out[:n]``: each player's points minus the best other's (so
    at least two players: one alone has no other)."""
    if not isinstance(out, np.ndarray) or out.dtype not in (np.float64, np.float32):
        raise ValueError(f"out must be a 1-D numpy array of float64 or float32, got "
                         f"{type(out).__name__ if not isinstance(out, np.ndarray) else out.dtype}")
    checked.array("out", out, out.dtype, writeable=True)
    if out.shape[0] < 2:
        raise ValueError(f"out must hold the points of at least two players, got {out.shape[0]} entries")
    seats.margins(out, checked.integer("n", n, 2, out.shape[0]))
