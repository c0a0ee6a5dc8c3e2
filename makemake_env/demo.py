"""Play one game of Make Make between random clans and show the island and the final scores.

    python -m makemake_env.demo [--players N] [--seed S]
"""
from pacific_common.demo import main

from . import env, raw_env

if __name__ == "__main__":
    main(env, "Make Make", raw_env.players)
