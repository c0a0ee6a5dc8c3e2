"""A trained policy as an agent: a ``sb3_contrib.MaskablePPO`` checkpoint (``.zip``) playing greedily."""
from pathlib import Path

import numpy as np

from ..base import Agent

TRAIN_EXTRA = 'pip install -e ".[train]"'


class PolicyAgent(Agent):
    """Plays the policy's most likely legal action for the observation vector (``deterministic``), or
    samples from it; the mask goes to the policy, so only legal actions are ever chosen."""

    name = "policy"

    def __init__(self, model, name=None, deterministic=True):
        self.model = model
        self.deterministic = deterministic
        if name is not None:
            self.name = name

    def act(self, observation, action_mask, state=None):
        self.legal_actions(observation, action_mask, state)
        action, _ = self.model.predict(observation, action_masks=action_mask.astype(bool),
                                       deterministic=self.deterministic)
        return int(np.asarray(action).reshape(-1)[0])


def load_policy(path, game, name=None):
    """Load a MaskablePPO checkpoint for ``game`` (a ``GameInfo``), checking that its spaces fit: a
    ``PolicyAgent``, or for an action-scorer policy (``agents.learned.features.ScorerPolicy``) the
    ``ScorerAgent`` of its actor."""
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"no checkpoint file at {str(path)!r}")
    try:
        from sb3_contrib import MaskablePPO
    except ImportError as error:
        raise ImportError(f"loading the checkpoint {str(path)!r} needs sb3_contrib: {TRAIN_EXTRA}") from error
    try:
        model = MaskablePPO.load(str(path), device="cpu")
    except Exception as error:   # torch's unpickling, SB3's archive reading: any of their errors
        raise ValueError(f"{str(path)!r} holds 'data' and 'policy.pth' but is not a MaskablePPO checkpoint "
                         f"that can be read ({type(error).__name__}: {str(error).splitlines()[0][:120]})") from error
    from .network import scorer_layers

    scorer = scorer_layers(model.policy)
    if scorer is not None:   # it reads action features, not the observation: play it as the scorer it is
        from .scorer import ScorerAgent

        inputs = model.policy.features_extractor
        if (inputs.game, inputs.variant) != (game.name, game.variant):
            raise ValueError(f"checkpoint {str(path)!r} was trained for {inputs.game} ({inputs.variant}), not "
                             f"{game.name} ({game.variant})")
        return ScorerAgent(scorer, game.name, game.variant, name=name or path.stem)
    obs_shape, actions = model.observation_space.shape, getattr(model.action_space, "n", None)
    if obs_shape != (game.obs_size,) or actions != game.num_actions:
        raise ValueError(f"checkpoint {str(path)!r} was trained on observations of shape {obs_shape} and "
                         f"{actions} actions; {game.name} ({game.variant}) has ({game.obs_size},) and "
                         f"{game.num_actions}")
    return PolicyAgent(model, name=name or path.stem)
