"""Play one game between random players and show the final board and scores; each game package's
``demo`` module calls ``main`` with its own environment (``python -m makemake_env.demo``).  This module
run by itself has no game to play, and says so."""
import argparse
import sys

import numpy as np

from .cli import integer_option, reader_left
from .options import SEED_LIMIT


DEMOS = ("makabana_env.demo", "makemake_env.demo", "maunakea_env.demo")


def main(make_env, title, players, argv=None):
    # four players where the game allows them (every game so far), else the nearest count it does:
    # a default outside ``players`` would play a game the options refuse
    default = min(max(4, players[0]), players[1])
    parser = argparse.ArgumentParser(prog=f"python -m {make_env.__module__.partition('.')[0]}.demo",
                                     description=f"Play one game of {title} between random players.")
    parser.add_argument("--players", type=integer_option(*players), default=default,
                        help=f"number of players, {players[0]} to {players[1]} (default {default})")
    parser.add_argument("--seed", type=integer_option(0, SEED_LIMIT), default=0,
                        help="seed of the deal and the players' choices, 0 to 2**63 - 1 (default 0)")
    args = parser.parse_args(argv)
    try:
        _play(make_env, args)
    except BrokenPipeError:   # | head
        reader_left()


def _play(make_env, args):

    game = make_env(num_players=args.players, render_mode="ansi")
    game.reset(seed=args.seed)
    rng = np.random.default_rng(args.seed)
    rewards = {}
    for agent in game.agent_iter():
        observation, reward, termination, truncation, info = game.last()
        rewards[agent] = rewards.get(agent, 0) + reward
        if termination or truncation:
            action = None
        else:
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        game.step(action)
    print(game.render())
    print("Final scores:")
    for agent, points in game.unwrapped.scores().items():
        print(f"  {agent}: {points} points, reward {rewards[agent]:+g}")


if __name__ == "__main__":
    # argparse would be run by no one here: without this, any options were ignored and nothing shown
    sys.exit(f"pacific_common.demo is the part the games' demos share and plays no game itself; run "
             f"{' or '.join(f'python -m {demo}' for demo in DEMOS)} [--players N] [--seed S]")
