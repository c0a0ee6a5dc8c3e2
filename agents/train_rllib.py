"""``python -m agents.train_rllib``: self-play training on Ray RLlib (the code is ``agents.training.train_rllib``)."""
from agents.training.train_rllib import main

if __name__ == "__main__":
    main()
