"""``python -m agents.tournament``: rate agents in seat-rotated games (the code is ``agents.arena.tournament``)."""
from agents.arena.tournament import main

if __name__ == "__main__":
    main()
