"""Play one game of Maka Bana between random players and show the island and the final scores.

    python -m makabana_env.demo [--players N] [--seed S]
"""
from pacific_common.demo import main

from . import env, raw_env

if __name__ == "__main__":
    main(env, "Maka Bana", raw_env.players)
