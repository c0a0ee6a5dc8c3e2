"""How uniformly random games of Mauna Kea end: by the rules, or truncated at ``max_turns``.

    python -m benchmarks.maunakea_endings [--games 2000] [--variant basic] [--seed 1] [--max-turns 300]

For 2, 3 and 4 players, ``--games`` games (seeds ``--seed`` onwards) are played to the end with the
core's ``random_action``; the table gives the share truncated, how the others ended (the core's
``END_REASON``) and the mean number of player turns.  Random play is the worst case for truncation:
it walks nowhere on purpose, so lava walls explorers in and nobody boards (RULES.md, "Settled end").
"""
import argparse
import time

import numpy as np
from numba import njit

import maunakea_env
from maunakea_env import kernels as core
from pacific_common.cli import integer_option
from pacific_common.numba_cache import drop_stale_cache
from pacific_common.options import MAX_TURNS_LIMIT, SEED_LIMIT

drop_stale_cache(__file__, depends_on=(maunakea_env.__file__,))   # ``play`` below calls the core


@njit(cache=True)
def play(num_players, variant, max_turns, games, seed, ends):
    """Play ``games`` random games; ``ends[0]`` counts the truncated ones, ``ends[r]`` those ended by
    reason ``r``.  Returns the player turns played in all."""
    state = np.zeros(core.STATE_SIZE, dtype=np.int64)
    turns = 0
    for g in range(games):
        core.init(state, num_players, variant, max_turns, seed + g)
        while state[core.STATUS] == core.STATUS_RUNNING:
            core.step(state, core.random_action(state))
        ends[0 if state[core.STATUS] == core.STATUS_TRUNCATED else state[core.END_REASON]] += 1
        turns += state[core.TURN]
    return turns


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=integer_option(1, 10**9), default=2000)
    parser.add_argument("--variant", choices=("basic", "advanced"), default="basic")
    parser.add_argument("--seed", type=integer_option(0, SEED_LIMIT - 10**9), default=1)
    parser.add_argument("--max-turns", type=integer_option(1, MAX_TURNS_LIMIT), default=300)
    args = parser.parse_args(argv)
    variant = core.VARIANT_ADVANCED if args.variant == "advanced" else core.VARIANT_BASIC
    print(f"{args.games} uniformly random games of Mauna Kea ({args.variant}) per row, max_turns={args.max_turns}")
    names = ["truncated"] + list(core.END_REASON_NAMES[1:])
    print(f"{'players':>7} " + " ".join(f"{n:>16}" for n in names) + f" {'mean turns':>10} {'seconds':>8}")
    for n in (2, 3, 4):
        ends = np.zeros(len(core.END_REASON_NAMES), dtype=np.int64)
        start = time.perf_counter()
        turns = play(n, variant, args.max_turns, args.games, args.seed, ends)
        cells = " ".join(f"{100.0 * k / args.games:>15.1f}%" for k in ends)
        print(f"{n:>7} {cells} {turns / args.games:>10.1f} {time.perf_counter() - start:>8.1f}", flush=True)


if __name__ == "__main__":
    main()
