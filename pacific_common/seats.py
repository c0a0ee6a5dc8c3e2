"""Seat arithmetic and end-of-game margins shared by the Numba cores.

Seat arithmetic avoids ``%``: an integer division costs tens of cycles, more than the rest of a
typical rules check, and these run in every observation.

Unchecked, like each game's ``kernels.py``: for the same reason nothing here checks its arguments, and
the caller (a core, whose checked face has checked the row and the player count) guarantees:

- ``relative(seat, view, n)``: ``0 <= seat, view < n``; ``seat_after(seat, k, n)``: ``0 <= seat < n``
  and ``0 <= k <= n``.  Other values give a seat outside ``0 … n-1`` silently (``seat_after(0, 7, 3)``
  is 4), which a core would then use as an index.
- ``margins(out, n)``: ``out`` a writeable 1-D float array of at least ``n`` entries and ``n >= 2``.
  Numba does not check the index, so a shorter ``out`` (a view ``a[:2]`` with ``n = 3``) is written
  past its end, into the array it views or into memory no array owns; one player gets a margin of
  10**300 over nobody.  ``maunakea_env.core.margins`` is a checked face of it.
"""
from numba import njit


@njit(cache=True, inline="always")
def relative(seat, view, n):
    """Seats clockwise from ``view`` to ``seat`` (both in 0 … n-1)."""
    r = seat - view
    return r + n if r < 0 else r


@njit(cache=True, inline="always")
def seat_after(seat, k, n):
    """The seat ``k`` places clockwise (0 <= k <= n) from ``seat``."""
    r = seat + k
    return r - n if r >= n else r


@njit(cache=True)
def margins(out, n):
    """Turn the points in ``out[:n]`` into margins: each player's points minus the best other's."""
    best = -1e300
    second = -1e300
    for i in range(n):
        if out[i] > best:
            second = best
            best = out[i]
        elif out[i] > second:
            second = out[i]   # also a second player on the best points: then every leader's margin is 0
    for i in range(n):
        out[i] -= second if out[i] == best else best
