"""Soak run: random games of every game, variant and player count, inside Numba, with every game's
validator run after every step.

    python -m benchmarks.soak [--games 1000000] [--seed 1] [--game G ...] [--json PATH]

``--games`` is per game: it is shared out evenly over that game's variants and player counts.  Each
game starts from its own seed (``--seed`` onwards), is played to its end with the core's
``random_action``, and after every step (and after ``init``) ``kernels.validate`` must accept the row.
A game must also end: by the rules or at ``max_turns``.  The table gives, per game, the games played,
the steps, the violations (a rejected row, with the first one's seed, step, reason and field) and the
time taken; the exit status is 1 when any violation was found.
"""
import argparse
import inspect
import json
import time

import numpy as np
from numba import njit, prange

from pacific_common.checked import field_name
from pacific_common.cli import checked_output_file, integer_option
from pacific_common.options import SEED_LIMIT

GAMES = ("makabana", "makemake", "maunakea")
MAX_GAMES = 10**12   # a million games took 10 to 40 minutes on two cores


def _modules(game):
    import importlib
    package = importlib.import_module(f"{game}_env")
    return package.raw_env, importlib.import_module(f"{game}_env.kernels")


def _soak_kernel(kernels):
    """A Numba function playing random games of one core, validating every row it reaches.  Built per
    core (the kernels are compile-time constants in it), so not cached on disk."""
    init, step, random_action, validate = kernels.init, kernels.step, kernels.random_action, kernels.validate
    size, status_at, running = kernels.STATE_SIZE, kernels.STATUS, kernels.STATUS_RUNNING
    never_ends = 10 ** 7   # steps: far beyond any max_turns used here; a game this long is a violation

    @njit(parallel=True)
    def soak(num_players, variant, max_turns, first_seed, games, codes, offsets, steps):
        for g in prange(games):
            state = np.zeros(size, dtype=np.int64)
            init(state, num_players, variant, max_turns, first_seed + g)
            code, offset = validate(state)
            n = 0
            while code == 0 and state[status_at] == running:
                if n == never_ends:
                    code, offset = -1, status_at
                    break
                step(state, random_action(state))
                n += 1
                code, offset = validate(state)
            codes[g] = code
            offsets[g] = offset
            steps[g] = n
    return soak


def _setups(game):
    """(variant, variant id, players) of every way ``game`` can be set up."""
    raw_env, _ = _modules(game)
    low, high = raw_env.players
    return [(variant, vid, n) for variant, vid in raw_env.variants.items() for n in range(low, high + 1)]


def games_played(game, games):
    """How many games ``soak_game`` plays for ``games``: as many for every setup, rounded up."""
    setups = len(_setups(game))
    return -(-games // setups) * setups


def soak_game(game, games, seed, chunk=10_000, progress=None):
    """Play ``games`` games of ``game`` spread evenly over its variants and player counts
    (``games_played`` in all, seeds ``seed`` onwards); one result dict.  The setups take turns by
    chunks of ``chunk`` games, so that a run cut short still covers every setup; ``progress(result)``
    is called after each round."""
    raw_env, kernels = _modules(game)
    soak = _soak_kernel(kernels)
    setups = _setups(game)
    max_turns = inspect.signature(raw_env).parameters["max_turns"].default
    per_setup = -(-games // len(setups))
    result = {"game": game, "max_turns": max_turns, "games": 0, "steps": 0, "violations": 0,
              "first_violation": None, "seconds": 0.0}
    start = time.perf_counter()
    for done in range(0, per_setup, chunk):
        count = min(chunk, per_setup - done)
        for variant, vid, n in setups:
            codes = np.zeros(count, np.int64)
            offsets = np.zeros(count, np.int64)
            steps = np.zeros(count, np.int64)
            first_seed = seed + result["games"]
            soak(n, vid, max_turns, first_seed, count, codes, offsets, steps)
            bad = np.flatnonzero(codes)
            result["games"] += count
            result["steps"] += int(steps.sum())
            result["violations"] += int(bad.size)
            if bad.size and result["first_violation"] is None:
                g = int(bad[0])
                code = int(codes[g])
                result["first_violation"] = {
                    "variant": variant, "num_players": n, "seed": first_seed + g, "step": int(steps[g]),
                    "reason": "never ended" if code < 0 else kernels.REASONS[code],
                    "field": field_name(kernels.FIELDS, int(offsets[g]))}
        result["seconds"] = time.perf_counter() - start
        if progress is not None:
            progress(result)
    return result


def _progress(r):
    print(f"  {r['game']}: {r['games']:,} games, {r['steps']:,} steps, {r['violations']} violations, "
          f"{r['seconds']:.0f} s", flush=True)


def main(argv=None):
    parser = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()))
    parser.add_argument("--games", type=integer_option(1, MAX_GAMES), default=1_000_000,
                        help="games per game (default 1,000,000)")
    parser.add_argument("--seed", type=integer_option(0, SEED_LIMIT), default=1)
    parser.add_argument("--game", choices=GAMES, action="append", help="only these games (repeatable)")
    parser.add_argument("--progress", action="store_true", help="print the running totals after every round")
    parser.add_argument("--json", metavar="PATH", help="write the results as JSON to this file")
    args = parser.parse_args(argv)
    played = max(games_played(game, args.games) for game in args.game or GAMES)
    if args.seed > SEED_LIMIT - played:   # the games take seeds --seed onwards
        parser.error(f"--seed must be an integer from 0 to {SEED_LIMIT - played} (2**63 - 1 less the {played} "
                     f"games played, --games rounded up to as many for every setup), got {args.seed}")
    args.json = checked_output_file(parser, "--json", args.json)   # '' too: refused, not taken for "no file"
    results = []
    print(f"{'game':10} {'games':>10} {'steps':>13} {'violations':>10} {'seconds':>9}")
    for game in args.game or GAMES:
        r = soak_game(game, args.games, args.seed, progress=_progress if args.progress else None)
        results.append(r)
        print(f"{game:10} {r['games']:>10,} {r['steps']:>13,} {r['violations']:>10} {r['seconds']:>9.1f}")
        if r["first_violation"]:
            print(f"  first violation: {r['first_violation']}")
    if args.json is not None:
        args.json.write_text(json.dumps(results, indent=1) + "\n")
    return 1 if any(r["violations"] for r in results) else 0


if __name__ == "__main__":
    raise SystemExit(main())
