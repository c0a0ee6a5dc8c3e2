"""``python -m agents.distill``: distil the search into an action scorer (the code is ``agents.training.distill``)."""
from agents.training.distill import main

if __name__ == "__main__":
    main()
