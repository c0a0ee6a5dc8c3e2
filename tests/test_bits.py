"""pacific_common.bits: counting and finding the bits of an int64 set (LLVM's ctpop and cttz), against
Python's own counting, at the edges of the range and on random sets."""
import numpy as np
from numba import njit

from pacific_common.bits import lowest_bit, nth_bit, popcount


@njit(cache=True)
def _all(xs, counts, lowest, third):
    for i in range(xs.shape[0]):
        counts[i] = popcount(xs[i])
        lowest[i] = lowest_bit(xs[i]) if xs[i] != 0 else -1
        third[i] = nth_bit(xs[i], 2) if popcount(xs[i]) > 2 else -1


def test_counts_and_positions_match_pythons():
    rng = np.random.default_rng(3)
    edges = [0, 1, 2, 3, (1 << 62), (1 << 63) - 1, (1 << 39) - 1, 0x5555555555555555, 0x2AAAAAAAAAAAAAAA]
    xs = np.array(edges + [int(v) for v in rng.integers(0, 1 << 63, 2000, dtype=np.int64)]
                  + [int(v) & int(w) for v, w in rng.integers(0, 1 << 63, (500, 2), dtype=np.int64)], dtype=np.int64)
    counts, lowest, third = (np.zeros_like(xs) for _ in range(3))
    _all(xs, counts, lowest, third)
    for x, c, low, t in zip(xs.tolist(), counts.tolist(), lowest.tolist(), third.tolist()):
        bits = [i for i in range(63) if (x >> i) & 1]
        assert c == len(bits)
        assert low == (bits[0] if bits else -1)
        assert t == (bits[2] if len(bits) > 2 else -1)
