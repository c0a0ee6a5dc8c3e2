"""Simulations per second of the search agent (``agents.search.mcts``), beside OpenSpiel's C++ MCTS, in one run.

    python -m benchmarks.search_speed [--positions 20] [--json PATH]

For every game and variant (Maka Bana Haapii and Mao, Make Make, Mauna Kea basic and advanced;
2 players) the search agent runs its
default budget from ``--positions`` positions of random games, on one core; the first search, which
compiles, is not timed (``MCTSAgent.simulations_per_second``).  A simulation is a whole ISMCTS
iteration: determinization, selection in every player's tree, expansion, the playout and the backup.

The peer is OpenSpiel's C++ ``MCTSBot`` with a random-rollout evaluator (one rollout per leaf) on
Connect Four, the same number of simulations per decision (``pyspiel``, from the ``bench`` extra;
skipped with a message when missing).  Its games have nothing hidden and are short, so it does less
per simulation than ours: the ratio says how close to compiled C++ search the Numba search runs,
not which search is better.
"""
import argparse
import json
import time

from benchmarks.throughput import machine

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
    parser.add_argument("--positions", type=int, default=20, help="positions per game (default: %(default)s)")
    parser.add_argument("--json", metavar="PATH", help="write the rows as JSON")
    args = parser.parse_args(argv)
    if args.positions < 2:
        parser.error(f"--positions must be at least 2 (the first search is not timed), got {args.positions}")
    print(f"search speed on {machine()['cpu']}, one core")
    rows = our_rates(args.positions)
    peer = openspiel_rate(2000)
    if peer is not None:
        rows.append(peer)
        print()
        for row in rows[:-1]:
            print(f"  {row['search']:<34} {row['simulations_per_second'] / peer['simulations_per_second']:>6.2f}x "
                  f"OpenSpiel's")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"machine": machine(), "rows": rows}, f, indent=1)
        print(f"wrote {args.json}")


if __name__ == "__main__":
    main()
