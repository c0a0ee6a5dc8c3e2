"""Bit sets in one int64: the cores keep sets of spots and cards as bits.

Counting and finding bits go through LLVM's ``ctpop`` and ``cttz``, one instruction each where the
processor has one (``popcnt``, ``tzcnt``): the shifts-and-masks count they replaced cost a dozen
instructions, and the Maka Bana scorers count bits in every group they grow.

Unchecked, like each game's ``kernels.py``: these are single instructions inlined into the cores' hot
loops, so they check nothing, and the caller guarantees an int64 set (a larger Python int is an
``OverflowError``, a float a Numba typing error) and:

- ``popcount(x)``: ``x >= 0`` (a negative counts its sign bits: -1 has 64);
- ``lowest_bit(x)``: ``x != 0`` (0 gives 64, an index of no bit);
- ``nth_bit(x, r)``: ``0 <= r < popcount(x)`` (a larger ``r`` gives 64, a negative one the lowest bit).
"""
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic


@intrinsic
def _ctpop(typingctx, x):
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(context.cast(builder, args[0], x, types.int64))
    return types.int64(x), codegen


@intrinsic
def _cttz(typingctx, x):
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        # defined for 0 too: 64, as popcount((x & -x) - 1) gives
        return builder.cttz(context.cast(builder, args[0], x, types.int64), ir.Constant(ir.IntType(1), 0))
    return types.int64(x), codegen


@njit(cache=True, inline="always")
def popcount(x):
    """Number of set bits of a non-negative int64."""
    return _ctpop(x)


@njit(cache=True, inline="always")
def lowest_bit(x):
    """The index of the lowest set bit of a non-zero int64."""
    return _cttz(x)


@njit(cache=True, inline="always")
def nth_bit(x, r):
    """The index of the ``r``-th set bit of ``x``, counting from 0 at the lowest: with ``r`` drawn
    uniformly below ``popcount(x)``, a uniform member of the set."""
    for _ in range(r):
        x &= x - 1   # drop the lowest set bit until the chosen one is lowest
    return lowest_bit(x)
