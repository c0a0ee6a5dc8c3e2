"""Seat arithmetic and end-of-game margins shared by the Numba cores.

Seat arithmetic avoids ``%``: an integer division costs tens of cycles, more than the rest of a
typical rules check, and these run in every observation.
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
