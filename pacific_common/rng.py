"""The random generator every game keeps inside its state row (xorshift64*), so that a copied row
replays identically.  Numba functions over the row, shared by all cores.

Unchecked, like each game's ``kernels.py``: these run inside the cores' hot loops, every draw of every
step, so they check nothing, and the caller guarantees what each needs (the games' checked faces and
``pacific_common.options.check_seed`` see to it for every public entry point):

- ``seed_rng(seed)``, ``seed_generators(seeds, out)`` and ``following_seed(seed)``: ``seed`` (each of
  ``seeds``) an integer from 0 to 2**63 - 1.  Numba truncates a float (1.5 seeds as 1), takes NaN and
  negatives without a word, and a larger integer is an ``OverflowError``.
- ``draw(state, offset, bound)``: ``state`` a writeable 1-D int64 array, ``0 <= offset < len(state)``
  (nothing checks the index: another offset reads and writes outside the row, or counts from its end),
  ``state[offset]`` a generator state made by ``seed_rng`` (a zero state stays zero and draws 0 for
  ever), and ``bound`` an integer of at least 1 (0 is a ``ZeroDivisionError``, a negative one a huge
  unsigned bound).
"""
import numpy as np
from numba import njit

NEXT_SEED_STEP = 0x1E3779B97F4A7C15


@njit(cache=True)
def seed_rng(seed):
    """Generator state for a seed; splitmix64 spreads small consecutive seeds into non-zero states."""
    z = np.uint64(seed) + np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z = z ^ (z >> np.uint64(31))
    if z == np.uint64(0):
        z = np.uint64(1)
    return np.int64(z)


@njit(cache=True)
def seed_generators(seeds, out):
    """``out[i] = seed_rng(seeds[i])`` for every ``i``: the generators of many seeds in one call."""
    for i in range(seeds.shape[0]):
        out[i] = seed_rng(seeds[i])


@njit(cache=True)
def draw(state, offset, bound):
    """A uniform integer in [0, bound) from the generator stored at ``state[offset]``."""
    x = np.uint64(state[offset])
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    state[offset] = np.int64(x)
    return np.int64(((x * np.uint64(0x2545F4914F6CDD1D)) >> np.uint64(33)) % np.uint64(bound))


@njit(cache=True)
def following_seed(seed):
    """Seed of the game that follows one seeded ``seed`` when nobody gives a new seed (autoreset,
    unseeded reset)."""
    return (seed + NEXT_SEED_STEP) & 0x7FFFFFFFFFFFFFFF
