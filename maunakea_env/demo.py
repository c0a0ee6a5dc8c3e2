"""Play one game of Mauna Kea between random players and show the island and the final scores.

    python -m maunakea_env.demo [--players N] [--seed S]
"""
from pacific_common.demo import main

from . import env, raw_env

if __name__ == "__main__":
    main(env, "Mauna Kea", raw_env.players)
