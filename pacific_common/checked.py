"""Argument checks for everything a user can call with arrays and numbers: the checked faces of the
game cores (``<game>_env.core``), the environments and the batches.

Numba kernels trust their arguments: a row of the wrong size, a float array or an index out of range
reads and writes outside the arrays and can kill the interpreter.  So every public entry point turns
its arguments through these functions first, and each bad value becomes a ``ValueError`` that names
the argument, what it was and what is allowed.
"""
import functools
import numbers
import re

import numpy as np


def reads_text(read):
    """``read(text)``, a notation reader, with the errors of a line it could not take apart (an item
    missing, a number too large for a row) turned into the ``ValueError`` of any other wrong text, and
    a leading byte-order mark, as editors may write, read as nothing (not as part of the first key)."""
    @functools.wraps(read)
    def checked_read(text):
        if isinstance(text, str):
            text = text.removeprefix("\ufeff")
        try:
            return read(text)
        except (IndexError, AttributeError, OverflowError) as error:
            raise ValueError(f"the text cannot be read: a line is incomplete or holds a number too large for "
                             f"the state row ({type(error).__name__}: {error})") from None
    return checked_read


GAME_NAMES = {"makabana": "Maka Bana", "makemake": "Make Make", "maunakea": "Mauna Kea"}   # as game lines write them


def another_game(written, game):
    """Why a position text whose game line reads ``written`` is refused by the reader of ``game`` (a
    package name such as "maunakea"): another game's text, or a game unknown to this library."""
    other = re.sub(r"[\W_]", "", written.lower())
    if other == game:
        return f"the game is written {GAME_NAMES[game]!r}, got {written!r}"
    reads = f"{game}_env.from_text reads {GAME_NAMES[game]} positions"
    if other in GAME_NAMES:
        return f"this is a {GAME_NAMES[other]} position; {reads}"
    return f"unknown game {written!r}; {reads} ('game: {GAME_NAMES[game]}')"


# at most 4300 digits: int() refuses longer ones (sys.get_int_max_str_digits), and no option is that large
_DECIMAL = re.compile(r"[+-]?[0-9]{1,4300}")


def is_decimal(text):
    """``text`` is an integer written in ASCII digits, with a sign or not.  ``int()`` alone would also
    take '١٠' (Arabic-Indic digits), '10_0' and ' 7 ', which no reader of ours writes.  Where this
    holds, ``int(text)`` cannot fail."""
    return isinstance(text, str) and _DECIMAL.fullmatch(text) is not None


def is_integer(value):
    """An integer (any ``numbers.Integral``: int, numpy's, ...), not a bool nor a duration: numpy counts
    timedelta64 as an integer type, and int() of one in days or milliseconds fails (TypeError) while
    one of no unit passes as a count, so a duration is no count either way."""
    return (isinstance(value, numbers.Integral)
            and not isinstance(value, (bool, np.bool_, np.timedelta64, np.datetime64)))


def scalar(value):
    """A 0-d array's element (what a policy's ``predict`` returns for one game), else ``value`` itself."""
    return value[()] if isinstance(value, np.ndarray) and value.ndim == 0 else value


def _whole(name, value, wanted):
    """``value`` as a Python ``int`` when it is integer-like, else a ValueError saying that ``name``
    must be ``wanted``."""
    value = scalar(value)
    if not is_integer(value):
        raise ValueError(f"{name} must be {wanted}, got {value!r} ({type(value).__name__})")
    return int(value)


def whole_number(name, value):
    """``value`` as a Python ``int``, when it is integer-like (as ``integer`` takes it), of any size:
    for a value whose range is checked after (an action, by the legal actions)."""
    return _whole(name, value, "an integer")


def integer_array(value):
    """Whether ``value`` is a plain numpy array of integers: not of bools, nor of durations (numpy
    counts timedelta64 among its integers), nor masked (``np.asarray`` would drop the mask)."""
    return isinstance(value, np.ndarray) and not isinstance(value, np.ma.MaskedArray) and value.dtype.kind in "iu"


def integer(name, value, low, high):
    """``value`` as a Python ``int``, when it is integer-like (``int``, a numpy integer, a 0-d integer
    array such as stable-baselines3's ``predict`` returns) and ``low <= value <= high``."""
    wanted = f"an integer from {low} to {high}"
    value = _whole(name, value, wanted)
    if not low <= value <= high:
        raise ValueError(f"{name} must be {wanted}, got {value}")
    return value


def viewer(viewer_player, num_players):
    """The player a board is drawn for: ``None`` (a spectator), or a player of the game as an ``int``.
    Another number would be taken for a player who is not there, or (Maka Bana) for nobody at all."""
    return None if viewer_player is None else integer("viewer_player", viewer_player, 0, num_players - 1)


def array(name, value, dtype, size=None, *, writeable=False):
    """``value`` itself, when it is a 1-D, C-contiguous numpy array of ``dtype`` with ``size`` entries
    (any size for ``None``), writeable where the kernel writes into it."""
    if (isinstance(value, np.ndarray) and value.dtype == dtype and value.ndim == 1
            and (size is None or value.shape[0] == size) and value.flags.c_contiguous
            and (value.flags.writeable or not writeable) and not isinstance(value, np.ma.MaskedArray)):
        return value   # the common case, checked without building a message
    dtype = np.dtype(dtype)
    wanted = f"a 1-D C-contiguous numpy array of {dtype}" + ("" if size is None else f" with {size} entries")
    if not isinstance(value, np.ndarray) or isinstance(value, np.ma.MaskedArray):  # a mask the kernels would not see
        raise ValueError(f"{name} must be {wanted}, got {type(value).__name__}")
    if value.dtype != dtype or value.ndim != 1 or (size is not None and value.shape[0] != size):
        raise ValueError(f"{name} must be {wanted}, got a {value.dtype} array of shape {value.shape}")
    if not value.flags.c_contiguous:
        raise ValueError(f"{name} must be {wanted}, got a non-contiguous view")
    raise ValueError(f"{name} must be writeable: the result is written into it")


def generator(state, gens, g):
    """``g`` as an ``int`` when ``gens[g]`` is a generator a kernel may draw from instead of the game's
    own: ``gens`` a writeable 1-D int64 array apart from the state row, ``g`` an index into it, and
    the entry a generator state (``pacific_common.rng.seed_generators`` makes them; 0 would draw 0 for
    ever)."""
    array("gens", gens, np.int64, writeable=True)
    apart(state, gens=gens)
    if gens.shape[0] == 0:
        raise ValueError("gens must hold at least one generator state, got an empty array")
    g = integer("g", g, 0, gens.shape[0] - 1)
    if gens[g] == 0:
        raise ValueError(f"gens[{g}] must be a generator state (pacific_common.rng.seed_generators makes "
                         f"them), got 0")
    return g


def apart(state, **outputs):
    """Refuse outputs that share memory with the state row or with each other (``out=state[:2]``, a
    mask viewing the observation): the kernel would write into what it is still reading."""
    arrays = [("state", state)] + list(outputs.items())
    for i, (name, value) in enumerate(arrays[1:], 1):
        for other, earlier in arrays[:i]:
            if np.may_share_memory(value, earlier):
                raise ValueError(f"{name} shares memory with {other}: give it an array of its own")


def rows(name, value, dtype, width, count=None, *, writeable=False):
    """``value`` itself, when it is a 2-D C-contiguous array of ``dtype``, ``width`` entries per row
    (and ``count`` rows, where given): a batch of game rows, observations or masks."""
    dtype = np.dtype(dtype)
    shape = f"({'N' if count is None else count}, {width})"
    if not isinstance(value, np.ndarray) or isinstance(value, np.ma.MaskedArray):  # a mask the kernels would not see
        raise ValueError(f"{name} must be a numpy array of {dtype} and shape {shape}, got {type(value).__name__}")
    if (value.dtype != dtype or value.ndim != 2 or value.shape[1] != width
            or (count is not None and value.shape[0] != count)):
        raise ValueError(f"{name} must be a numpy array of {dtype} and shape {shape}, "
                         f"got a {value.dtype} array of shape {value.shape}")
    if not value.flags.c_contiguous:
        raise ValueError(f"{name} must be C-contiguous, got a non-contiguous view")
    if writeable and not value.flags.writeable:
        raise ValueError(f"{name} must be writeable: the result is written into it")
    return value


def field_name(fields, offset):
    """The name of the state entry at ``offset``, e.g. ``"HUT[3]"``, from ``fields``: a sequence of
    ``(name, start, length)`` covering the row (a field of length 1 is named without an index)."""
    for name, start, length in fields:
        if start <= offset < start + length:
            return name if length == 1 else f"{name}[{offset - start}]"
    return f"state[{offset}]"


def invalid_state(fields, reasons, state, code, offset):
    """The ``ValueError`` for a row the game's validator rejected with ``(code, offset)``."""
    where = field_name(fields, offset)
    value = int(state[offset]) if 0 <= offset < state.shape[0] else None
    return ValueError(f"invalid state: {where} = {value}: {reasons[code]}")
