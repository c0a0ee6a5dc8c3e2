"""Play one game of Maka Bana between random players and show the island and the final scores.

    python -m makabana_env.demo [--players N] [--seed S]
"""
import argparse

import numpy as np

import makabana_env
from makabana_env import core


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4, help="number of players, 2 to 5")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    game = makabana_env.env(num_players=args.players, render_mode="ansi")
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
    final = game.unwrapped
    print(f"Game over after {final.state()[core.SEASON]} seasons.")
    for agent, points in final.scores().items():
        print(f"  {agent}: {points} points, reward {rewards[agent]:+g}")


if __name__ == "__main__":
    main()
