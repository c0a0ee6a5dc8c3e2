"""Play one game between random players and show the final board and scores; each game package's
``demo`` module calls ``main`` with its own environment."""
import argparse

import numpy as np

from .cli import integer_option
from .options import SEED_LIMIT


def main(make_env, title, players, argv=None):
    parser = argparse.ArgumentParser(description=f"Play one game of {title} between random players.")
    parser.add_argument("--players", type=integer_option(*players), default=4,
                        help=f"number of players, {players[0]} to {players[1]} (default 4)")
    parser.add_argument("--seed", type=integer_option(0, SEED_LIMIT), default=0)
    args = parser.parse_args(argv)

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
