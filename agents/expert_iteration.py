"""``python -m agents.expert_iteration``: the guided search teaches the network (the code is
``agents.training.expert_iteration``)."""
from agents.training.expert_iteration import main

if __name__ == "__main__":
    main()
