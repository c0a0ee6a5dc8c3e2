"""``python -m agents.play``: play a game against the agents in the terminal (the code is ``agents.arena.play``)."""
from agents.arena.play import main

if __name__ == "__main__":
    main()
