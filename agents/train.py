"""``python -m agents.train``: self-play training of a MaskablePPO policy (the code is ``agents.training.train``)."""
from agents.training.train import main

if __name__ == "__main__":
    main()
