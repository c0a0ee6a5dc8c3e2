"""The input layer of the trained policies: ``sign(x) log(1 + |x|)`` of the observation vector.

Observations hold flags (0/1) beside counts up to 100 (seasons, turns, reserves).  Fed as they are,
the few large counts swamp the many flags in the first layer and learning crawls; squashed, both
weigh alike.  Checkpoints name this class, so it must stay importable as
``agents.learned.features.LogFeatures`` (older ones: ``agents.features``); ``agents.learned.network.squash``
is the same function for numpy.
"""
import numpy as np
import torch
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor, MlpExtractor
from torch import nn


class LogFeatures(BaseFeaturesExtractor):
    """``sign(x) log(1 + |x|)`` of the flat observation."""

    def __init__(self, observation_space):
        super().__init__(observation_space, int(np.prod(observation_space.shape)))

    def forward(self, observations):
        x = torch.flatten(observations, start_dim=1).float()
        return torch.sign(x) * torch.log1p(torch.abs(x))


class SkipMlpExtractor(nn.Module):
    """``MlpExtractor`` whose actor output also carries the features themselves, so that the action
    head sees the observation directly beside the hidden layers ("wide and deep")."""

    def __init__(self, feature_dim, net_arch, activation_fn, device="auto"):
        super().__init__()
        base = MlpExtractor(feature_dim, net_arch, activation_fn, device)
        self.policy_net, self.value_net = base.policy_net, base.value_net
        self.latent_dim_pi = base.latent_dim_pi + feature_dim
        self.latent_dim_vf = base.latent_dim_vf

    def forward(self, features):
        return self.forward_actor(features), self.forward_critic(features)

    def forward_actor(self, features):
        return torch.cat([self.policy_net(features), features], dim=1)

    def forward_critic(self, features):
        return self.value_net(features)


class SkipPolicy(MaskableActorCriticPolicy):
    """MaskablePPO's MLP policy with a linear path from the (squashed) observation to the action
    logits.  Many decisions hinge on one input per action -- is the spot of this construction free,
    is this territory mine -- which a linear weight learns at once, while the hidden layers have to
    find room for every such pair first."""

    def _build_mlp_extractor(self):
        self.mlp_extractor = SkipMlpExtractor(self.features_dim, self.net_arch, self.activation_fn, self.device)
