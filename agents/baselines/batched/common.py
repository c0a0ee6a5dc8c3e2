"""What the batched opponents of every game share: the opponent kinds, the tie-break generator each
opponent seat keeps, and the uniformly random player.

An opponent's randomness (the heuristic's tie-break noise and lava seed, the random player's choice, a
snapshot's sample) comes from a generator of its own, one int64 per game and seat, seeded from the
agent seed that ``SelfPlayEnv`` hands to ``Agent.reset``.  ``KernelGenerator`` is the same generator
with the two methods of ``numpy.random.Generator`` that the Python agents call (``random`` and
``integers``): an agent given one draws exactly what its kernel draws, which is how the tests compare
the two decision by decision and game by game.
"""
import numpy as np
from numba import njit

from pacific_common import checked
from pacific_common.options import SEED_LIMIT
from pacific_common.rng import draw, seed_rng

# What plays a seat.  EXTERNAL: an opponent played outside Numba (a network snapshot, a search agent);
# the loops stop and hand its observation back.
KIND_LEARNER, KIND_RANDOM, KIND_HEURISTIC, KIND_EXTERNAL = 0, 1, 2, 3
KIND_NAMES = {"random": KIND_RANDOM, "heuristic": KIND_HEURISTIC}

# Why the loop over a game stopped.
WAIT_LEARNER, WAIT_EXTERNAL, GAME_OVER, OPPONENT_ILLEGAL = 0, 1, 2, 3

TIE_NOISE = 1e-6        # as agents.baselines.heuristic: noise only breaks ties
SEED_BOUND = 1 << 31    # the heuristic's seed for strategies that sample (Mauna Kea's lava)
PLAN_SIZE = 4           # a seat's memory between decisions: Maka Bana Mao's planned cards (count, cards)


@njit(cache=True)
def uniform(gens, i):
    """A float in [0, 1) from the generator at ``gens[i]`` (xorshift64*, its top 53 bits)."""
    x = np.uint64(gens[i])
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    gens[i] = np.int64(x)
    return np.float64((x * np.uint64(0x2545F4914F6CDD1D)) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def tie_noise(gens, i, noise):
    for a in range(noise.shape[0]):
        noise[a] = uniform(gens, i) * TIE_NOISE


@njit(cache=True)
def legal_count(mask):
    count = 0
    only = -1
    for a in range(mask.shape[0]):
        if mask[a] != 0:
            count += 1
            only = a
    return count, only


@njit(cache=True)
def random_choice(mask, gens, i):
    """``agents.baselines.random_agent.RandomAgent.act``: a uniformly random legal action."""
    count, _ = legal_count(mask)
    if count == 0:
        return -1
    k = draw(gens, i, count)
    for a in range(mask.shape[0]):
        if mask[a] != 0:
            if k == 0:
                return a
            k -= 1
    return -1


@njit(cache=True)
def uniforms(gens, games, seats, out):
    """One uniform draw from the generator of each (game, seat)."""
    for j in range(games.shape[0]):
        out[j] = uniform(gens[games[j]], seats[j])


class KernelGenerator:
    """A seat's kernel generator behind the face of ``numpy.random.Generator`` that the agents use:
    ``random(size)`` and ``integers(high)``.  Slow (one Numba call per number): for tests and for
    Python agents that must draw what the kernels draw."""

    def __init__(self, seed):
        # an agent's seed (agents.base.check_seed): 2**70 was an OverflowError, -1 or 2.5 a generator
        seed = checked.integer("seed", seed, 0, SEED_LIMIT)
        self.state = np.zeros(1, dtype=np.int64)
        self.state[0] = seed_rng(np.int64(seed))

    def random(self, size=None):
        if size is None:
            return uniform(self.state, 0)
        size = checked.whole_number("size", size)   # -1 gave an empty array, 2.5 two numbers
        if size < 0:
            raise ValueError(f"size must be a non-negative integer or None, got {size}")
        return np.array([uniform(self.state, 0) for _ in range(size)])

    def integers(self, high):
        high = checked.whole_number("high", high)   # 2.5 was always 0
        if not 1 <= high <= SEED_LIMIT:   # the kernel draws below an int64 bound
            raise ValueError(f"integers(high) needs high >= 1 (and at most 2**63 - 1), got {high!r}")
        return int(draw(self.state, 0, np.int64(high)))
