"""The uniform random agent: the baseline every rating is anchored to."""
from ..base import Agent


class RandomAgent(Agent):
    """Plays a uniformly random legal action, drawn with its own seeded generator (``reset``'s seed),
    so that a game replays exactly."""

    name = "random"

    def act(self, observation, action_mask, state=None):
        legal = self.legal_actions(observation, action_mask, state)
        return int(legal[self.rng.integers(legal.size)])
