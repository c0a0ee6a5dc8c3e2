"""Bit sets in one int64: the cores keep sets of spots and cards as bits."""
from numba import njit


@njit(cache=True, inline="always")
def popcount(x):
    """Number of set bits of a non-negative int64."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    # Sum the byte counts with shifts: the usual multiplication by 0x0101010101010101 overflows, and
    # LLVM may then fold later comparisons of the result wrongly (signed overflow is undefined).
    x = x + (x >> 8)
    x = x + (x >> 16)
    x = x + (x >> 32)
    return x & 0x7F


@njit(cache=True, inline="always")
def nth_bit(x, r):
    """The index of the ``r``-th set bit of ``x``, counting from 0 at the lowest: with ``r`` drawn
    uniformly below ``popcount(x)``, a uniform member of the set."""
    for _ in range(r):
        x &= x - 1   # drop the lowest set bit until the chosen one is lowest
    return popcount((x & -x) - 1)
