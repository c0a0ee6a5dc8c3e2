"""Simulations per second of the search agent (``agents.search.mcts``), beside OpenSpiel's C++ MCTS, in one run.

    python -m benchmarks.search_speed [--positions 20] [--leaves 512] [--json PATH]

For every game and variant (Maka Bana Haapii and Mao, Make Make, Mauna Kea basic and advanced;
2 players) the search agent runs its
default budget from ``--positions`` positions of random games, on one core; the first search, which
compiles, is not timed (``MCTSAgent.simulations_per_second``).  A simulation is a whole ISMCTS
iteration: determinization, selection in every player's tree, expansion, the playout and the backup.

The peer is OpenSpiel's C++ ``MCTSBot`` with a random-rollout evaluator (one rollout per leaf) on
Connect Four, 2,000 simulations per decision (Maka Bana's default; our games' budgets are 1,000 to
3,000, and a rate per simulation hardly depends on it), from ``pyspiel`` in the ``bench`` extra
(skipped with a message when missing).  Its games have nothing hidden and are short, so it does less
per simulation than ours: the ratio says how close to compiled C++ search the Numba search runs,
not which search is better.

The guided search (``mcts+shipped``) asks its policy network once per expansion, inside the search's
Numba loop (``agents.search.prior.policy``: one leaf a call, summing only the nonzero inputs and
computing the head for the legal actions only).  The run also times that forward pass on the shipped
Maka Bana and Make Make networks, at ``--leaves`` observations of random positions, beside the
alternative of batching the leaves (of one search's simulations, or of many games' searches) into one
dense numpy product per batch (single-threaded BLAS, as the search's worker processes run it): the
``network_rows`` of the JSON, microseconds per leaf.
"""
import argparse
import json
import time

from benchmarks.throughput import machine
from pacific_common.cli import check_ranges, checked_output_file, integer_option

# Upper bounds, so that a typo fails at once instead of after hours: each position is a whole default
# search of each of the five games (seconds), and the time per leaf settles within a few hundred leaves.
POSITIONS_MAX = 10**4
LEAVES_MAX = 10**4
GAMES = (("makabana", None), ("makabana", "mao"), ("makemake", None), ("maunakea", None), ("maunakea", "advanced"))


def our_rates(positions, say=print):
    from agents.games import game_info
    from agents.search.mcts import DEFAULTS, MCTSAgent

    rows = []
    for name, variant in GAMES:
        agent = MCTSAgent()
        rate = agent.simulations_per_second(game_info(name, 2, variant=variant), positions=positions)
        rows.append({"search": f"agents.search.mcts on {name}" + (f" {variant}" if variant else ""),
                     "simulations": DEFAULTS[name]["simulations"], "simulations_per_second": rate})
        say(f"  {rows[-1]['search']:<34} {rate:>10,.0f} simulations/s")
    return rows


def network_rates(leaves, batches=(1, 16, 64, 256), say=print):
    """Microseconds per leaf of the guide's forward pass: in Numba one leaf a call, and in numpy one
    dense product per batch of leaves, for the shipped Maka Bana and Make Make networks."""
    import numpy as np
    from threadpoolctl import threadpool_limits

    from agents.games import game_info
    from agents.learned.network import ACTIVATIONS, read_network, squash
    from agents.registry import shipped_path
    from agents.search.mcts import random_positions
    from agents.search.prior import pack, policy

    rows = []
    for name in ("makabana", "makemake"):
        game = game_info(name, 2)
        layers, activation, features, skip = read_network(shipped_path(game))
        obs = np.zeros((leaves, game.obs_size), np.int8)
        masks = np.zeros((leaves, game.num_actions), np.int8)
        for i, state in enumerate(random_positions(game, leaves, seed=1)):
            game.core.observe_player(state, int(game.core.player_to_act(state)), obs[i], masks[i])
        net, out = pack(layers, activation, features, skip), np.zeros(game.num_actions)
        policy(net, obs[0], masks[0], out)   # compiles

        def numba_pass():
            for i in range(leaves):
                policy(net, obs[i], masks[i], out)

        def numpy_pass(batch):
            act = ACTIVATIONS[activation]
            for s in range(0, leaves, batch):
                x = obs[s:s + batch].astype(np.float32)
                x = squash(x) if features == "log" else x
                h = x
                for w, b in layers[:-1]:
                    h = act(h @ w.T + b)
                w, b = layers[-1]
                logits = np.where(masks[s:s + batch] > 0, (np.hstack([h, x]) if skip else h) @ w.T + b, -np.inf)
                p = np.exp(logits - logits.max(1, keepdims=True))
                p /= p.sum(1, keepdims=True)

        def best_of(run, repeats=3):
            times = []
            for _ in range(repeats):
                start = time.perf_counter()
                run()
                times.append(time.perf_counter() - start)
            return min(times) / leaves * 1e6

        with threadpool_limits(1):
            timed = [("Numba, one leaf a call", best_of(numba_pass))]
            # a product of more leaves than there are would time --leaves of them under another name
            timed += [(f"numpy, {b} leaf a product" if b == 1 else f"numpy, {b} leaves a product",
                       best_of(lambda b=b: numpy_pass(b))) for b in batches if b <= leaves]
        for how, us in timed:
            rows.append({"network": f"shipped {name}", "forward_pass": how, "microseconds_per_leaf": us})
            say(f"  {name:<9} {how:<28} {us:>8.1f} us a leaf")
    return rows


def openspiel_rate(simulations, decisions=10, say=print):
    try:
        import pyspiel
    except ImportError:
        say("  OpenSpiel is not installed (pip install -e \".[bench]\"): no peer")
        return None
    game = pyspiel.load_game("connect_four")
    bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, 0), 2.0, simulations, 10 ** 8, False, 0, False)
    state = game.new_initial_state()
    bot.step(state)  # warm-up
    done, start = 0, time.perf_counter()
    while done < decisions and not state.is_terminal():
        state.apply_action(bot.step(state))
        done += 1
    rate = done * simulations / (time.perf_counter() - start)
    say(f"  {'OpenSpiel MCTSBot on connect_four':<34} {rate:>10,.0f} simulations/s")
    return {"search": "OpenSpiel MCTSBot (C++) on connect_four", "simulations": simulations,
            "simulations_per_second": rate}


def main(argv=None):
    parser = argparse.ArgumentParser(description="Search simulations per second, beside OpenSpiel's MCTS.")
    # the digits here, the range below: its messages say why a bound is there
    parser.add_argument("--positions", type=integer_option(None), default=20,
                        help=f"positions per game, 2 to {POSITIONS_MAX} (default: %(default)s)")
    parser.add_argument("--leaves", type=integer_option(None), default=512,
                        help=f"observations on which the guide's forward pass is timed, 1 to {LEAVES_MAX} "
                             f"(default: %(default)s)")
    parser.add_argument("--json", metavar="PATH", help="write the rows as JSON")
    args = parser.parse_args(argv)
    check_ranges(parser, args, (
        ("positions", f"at least 2 (the first search is not timed) and at most {POSITIONS_MAX}",
         lambda v: 2 <= v <= POSITIONS_MAX),
        ("leaves", f"a positive integer of at most {LEAVES_MAX}", lambda v: 1 <= v <= LEAVES_MAX)))
    checked_output_file(parser, "--json", args.json)   # '' too: refused, not taken for "no file"
    print(f"search speed on {machine()['cpu']}, one core")
    rows = our_rates(args.positions)
    peer = openspiel_rate(2000)
    if peer is not None:
        rows.append(peer)
        print()
        for row in rows[:-1]:
            print(f"  {row['search']:<34} {row['simulations_per_second'] / peer['simulations_per_second']:>6.2f}x "
                  f"OpenSpiel's")
    print("\nthe guided search's network, per leaf:")
    network_rows = network_rates(args.leaves)
    if args.json is not None:
        with open(args.json, "w") as f:
            json.dump({"machine": machine(), "rows": rows, "network_rows": network_rows}, f, indent=1)
        print(f"wrote {args.json}")


if __name__ == "__main__":
    main()
