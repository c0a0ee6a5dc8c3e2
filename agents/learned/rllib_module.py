"""The policy network that ``agents.training.train_rllib`` trains on Ray RLlib: PPO's default actor-critic, with
the legal-action mask applied to its logits so that an illegal action is never sampled.

The environments hand every player ``{"observation": int8[OBS_SIZE], "action_mask": int8[A]}``.
RLlib's default PPO network is built for a flat ``Box`` observation, so the module builds it for the
``"observation"`` part alone (as float32) and keeps the mask aside: every forward pass (sampling,
greedy play, training and the value function) splits the two, runs the network on the observation,
and sets the logits of illegal actions to the lowest float, where their probability is exactly 0.

This module needs ``ray[rllib]`` and torch (``pip install -e ".[distributed]"``); the rest of the
package never imports it unless asked for an RLlib checkpoint.
"""
import gymnasium
import numpy as np
import torch
from ray.rllib.algorithms.ppo.torch.default_ppo_torch_rl_module import DefaultPPOTorchRLModule
from ray.rllib.core.columns import Columns

OBSERVATION, ACTION_MASK = "observation", "action_mask"


class MaskedPPOTorchRLModule(DefaultPPOTorchRLModule):
    """``DefaultPPOTorchRLModule`` over the ``"observation"`` of a Dict observation, with the logits of
    actions outside ``"action_mask"`` at the lowest float."""

    def __init__(self, *, observation_space=None, action_space=None, **kwargs):
        if not (isinstance(observation_space, gymnasium.spaces.Dict)
                and {OBSERVATION, ACTION_MASK} <= set(observation_space.spaces)):
            raise ValueError(f"{type(self).__name__} needs a Dict observation space with "
                             f"{OBSERVATION!r} and {ACTION_MASK!r}, got {observation_space!r}")
        if not isinstance(action_space, gymnasium.spaces.Discrete):
            raise ValueError(f"{type(self).__name__} needs a Discrete action space, got {action_space!r}")
        if observation_space[ACTION_MASK].shape != (action_space.n,):
            raise ValueError(f"the action mask has shape {observation_space[ACTION_MASK].shape}, the action "
                             f"space {action_space.n} actions")
        # Set before torch's Module.__init__ on purpose: ``setup`` (called by the parent's __init__)
        # restores it, and checkpoints must record the Dict space to rebuild the module.
        self.observation_space_with_mask = observation_space
        inner = observation_space[OBSERVATION]
        network_space = gymnasium.spaces.Box(inner.low.astype(np.float32), inner.high.astype(np.float32),
                                             inner.shape, np.float32)
        super().__init__(observation_space=network_space, action_space=action_space, **kwargs)

    def setup(self):
        super().setup()
        self.observation_space = self.observation_space_with_mask

    # -- forward passes -----------------------------------------------------------------------------
    def _forward(self, batch, **kwargs):
        mask, batch = self._split(batch)
        return self._masked(super()._forward(batch, **kwargs), mask)

    def _forward_train(self, batch, **kwargs):
        mask, batch = self._split(batch)
        return self._masked(super()._forward_train(batch, **kwargs), mask)

    def compute_values(self, batch, embeddings=None):
        if embeddings is None:
            _, batch = self._split(batch)
        return super().compute_values(batch, embeddings)

    # -- the mask -----------------------------------------------------------------------------------
    @staticmethod
    def _split(batch):
        """``(mask, batch with the float observation alone)``; the caller's batch is left as it was,
        because RLlib's learner reads the same batch again (value targets, then training)."""
        observation = batch[Columns.OBS]
        if not isinstance(observation, dict) or ACTION_MASK not in observation:
            raise ValueError(f"the batch's observations must be a dict with {OBSERVATION!r} and "
                             f"{ACTION_MASK!r}; wrap the environment so that it hands out both")
        batch = dict(batch)
        batch[Columns.OBS] = observation[OBSERVATION].float()
        return observation[ACTION_MASK], batch

    @staticmethod
    def _masked(output, mask):
        logits = output[Columns.ACTION_DIST_INPUTS]
        lowest = torch.finfo(logits.dtype).min
        output[Columns.ACTION_DIST_INPUTS] = torch.where(mask.bool(), logits, torch.full_like(logits, lowest))
        return output

    # -- playing ------------------------------------------------------------------------------------
    @torch.no_grad()
    def greedy_action(self, observation, action_mask):
        """The most likely legal action for one observation (numpy arrays, as the environment gives)."""
        observation, action_mask = np.asarray(observation), np.asarray(action_mask)
        for name, array in ((OBSERVATION, observation), (ACTION_MASK, action_mask)):
            if array.shape != self.observation_space[name].shape:
                raise ValueError(f"{name} must have shape {self.observation_space[name].shape}, got {array.shape}")
        # with no legal action every logit is the lowest float, and argmax said 0, an illegal action
        if not action_mask.any():
            raise ValueError("the action mask has no legal action: greedy_action needs at least one")
        batch = {Columns.OBS: {OBSERVATION: torch.as_tensor(observation[None]),
                               ACTION_MASK: torch.as_tensor(action_mask[None])}}
        logits = self._forward_inference(batch)[Columns.ACTION_DIST_INPUTS][0]
        return int(torch.argmax(logits))
