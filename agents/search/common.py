"""Small Numba helpers shared by the per-game parts of the MCTS agent."""
import numpy as np
from numba import njit

from pacific_common.seats import margins as seat_margins

NO_EDGE = -2   # an observed key: the viewer cannot tell that the move was made, so its tree has no edge
FNV_OFFSET = np.int64(1469598103934665603)   # start of an event key's hash (64-bit FNV-1a)


@njit(cache=True, inline="always")
def fnv_mix(h, v):
    """The hash ``h`` with the value ``v`` mixed in (64-bit FNV-1a on whole values, wrapping)."""
    return (h ^ v) * np.int64(1099511628211)


@njit(cache=True)
def margins(points, p, out):
    """out[i]: player i's points minus the best other player's points (``pacific_common.seats.margins``,
    leaving ``points`` as it is)."""
    for i in range(p):
        out[i] = points[i]
    seat_margins(out, p)


@njit(cache=True)
def margin_values(points, p, base, scale, weight, out):
    """Values in [-1, 1] from the points of every player: with ``m`` a player's margin (its points
    minus the best other player's) and ``m0`` its margin at the root (``base``),
    ``weight * sign(m) + (1 - weight) * clip((m - m0) / scale, -1, 1)``.  The sign term stands for
    winning; the margin term is taken relative to the root so that it keeps its slope when a game is
    already far from even (sibling moves are only ever compared with each other)."""
    margins(points, p, out)
    for i in range(p):
        m = out[i]
        s = 1.0 if m > 0 else (-1.0 if m < 0 else 0.0)
        out[i] = weight * s + (1.0 - weight) * max(-1.0, min(1.0, (m - base[i]) / scale))
