"""The input layer of the trained policies: ``sign(x) log(1 + |x|)`` of the observation vector.

Observations hold flags (0/1) beside counts up to 100 (seasons, turns, reserves).  Fed as they are,
the few large counts swamp the many flags in the first layer and learning crawls; squashed, both
weigh alike.  Checkpoints name this class, so it must stay importable as
``agents.learned.features.LogFeatures`` (older ones: ``agents.features``); ``agents.learned.network.squash``
is the same function for numpy.

Beside it: the Skip, Scorer and plain MLP policies, which sample their actions by ``InverseCdfCategorical``,
and ``OneCopyRolloutBuffer``, the main job's rollout buffer (checkpoints name these classes too).
"""
import numpy as np
import torch
from sb3_contrib.common.maskable.buffers import MaskableRolloutBuffer
from sb3_contrib.common.maskable.distributions import MaskableCategorical, MaskableCategoricalDistribution
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor, MlpExtractor
from torch import nn

from pacific_common import checked

from .scorer import check_variant, feature_names


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


class InverseCdfCategorical(MaskableCategorical):
    """MaskablePPO's masked categorical distribution, sampled with one uniform number per row: the
    first action whose cumulative probability exceeds it.  torch's ``Categorical.sample`` draws an
    exponential number for every action of every row (``torch.multinomial``): a random number and a
    logarithm for each of Mauna Kea's 2,040 actions in every game at every step (docs/training.md
    measures the rollouts with both).  The same distribution; masked actions (probability 0) are
    never drawn."""

    def sample(self, sample_shape=torch.Size()):
        if sample_shape != torch.Size():
            return super().sample(sample_shape)
        cumulative = self.probs.double().cumsum(-1)
        total = cumulative[..., -1:].contiguous()
        u = torch.rand(total.shape, dtype=cumulative.dtype, device=cumulative.device) * total
        action = torch.searchsorted(cumulative, u, right=True)
        # u may round up to the total: then the last action with a probability, the first whose
        # cumulative probability reaches the total
        last = torch.searchsorted(cumulative, total, right=False)
        return torch.minimum(action, last).squeeze(-1)


class InverseCdfCategoricalDistribution(MaskableCategoricalDistribution):
    """``MaskableCategoricalDistribution`` over ``InverseCdfCategorical``."""

    def proba_distribution(self, action_logits):
        self.distribution = InverseCdfCategorical(logits=action_logits.view(-1, self.action_dim))
        return self


class InverseCdfSampling:
    """A ``MaskableActorCriticPolicy`` mixin: the policy samples its actions by ``InverseCdfCategorical``
    (the action head built by the parent is the same linear layer)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.action_dist = InverseCdfCategoricalDistribution(int(self.action_space.n))


class MlpPolicy(InverseCdfSampling, MaskableActorCriticPolicy):
    """MaskablePPO's ``"MlpPolicy"`` (``--skip 0``), sampling by ``InverseCdfCategorical``."""


class SkipPolicy(InverseCdfSampling, MaskableActorCriticPolicy):
    """MaskablePPO's MLP policy with a linear path from the (squashed) observation to the action
    logits.  Many decisions hinge on one input per action -- is the spot of this construction free,
    is this territory mine -- which a linear weight learns at once, while the hidden layers have to
    find room for every such pair first."""

    def _build_mlp_extractor(self):
        self.mlp_extractor = SkipMlpExtractor(self.features_dim, self.net_arch, self.activation_fn, self.device)


class ScorerInputs(BaseFeaturesExtractor):
    """The learner's input for an action-scorer policy (``ScorerPolicy``): one flat float vector that
    holds, first, ``num_actions`` rows of ``num_features`` action features
    (``agents.learned.scorer``: zeros for actions that are not candidates), then the game's
    observation.  Passed on as it is; ``ScorerExtractor`` splits it.  ``game`` and ``variant`` name
    what the features belong to, so that a snapshot of the policy is a scorer file of that game."""

    def __init__(self, observation_space, num_actions, num_features, game, variant, hidden=32):
        super().__init__(observation_space, int(np.prod(observation_space.shape)))
        # a game or variant without scorers made a policy whose snapshot no game loads, and rows wider
        # than the observation failed in torch ("negative dimension") when the extractor was built
        check_variant(game, variant)
        feature_names(game, num_features)
        num_actions = checked.integer("num_actions", num_actions, 1, self.features_dim)
        if num_actions * num_features >= self.features_dim:
            raise ValueError(f"the observation of {self.features_dim} numbers cannot hold {num_actions} rows of "
                             f"{num_features} action features and then the game's observation")
        self.num_actions, self.num_features, self.hidden = num_actions, int(num_features), int(hidden)
        self.game, self.variant = str(game), str(variant)

    def forward(self, observations):
        return torch.flatten(observations, start_dim=1).float()


class ScorerExtractor(nn.Module):
    """Actor: the action scorer's MLP applied to every action's feature row, one logit each (the
    action head is then the identity).  Critic: an MLP over the squashed observation, as the other
    policies' value networks read it.  Non-candidates' logits do not matter: the mask removes them."""

    def __init__(self, inputs: ScorerInputs, net_arch, activation_fn):
        super().__init__()
        self.num_actions, self.num_features = inputs.num_actions, inputs.num_features
        h = inputs.hidden
        self.scorer = nn.Sequential(nn.Linear(self.num_features, h), nn.ReLU(), nn.Linear(h, h), nn.ReLU(),
                                    nn.Linear(h, 1))
        observation_size = inputs.features_dim - self.num_actions * self.num_features
        widths = net_arch["vf"] if isinstance(net_arch, dict) else net_arch
        layers, width = [], observation_size
        for w in widths:
            layers += [nn.Linear(width, w), activation_fn()]
            width = w
        self.value_net = nn.Sequential(*layers)
        self.latent_dim_pi, self.latent_dim_vf = self.num_actions, width

    def forward(self, features):
        return self.forward_actor(features), self.forward_critic(features)

    def forward_actor(self, features):
        rows = features[:, :self.num_actions * self.num_features].reshape(-1, self.num_actions, self.num_features)
        # a candidate's row is never all zeros (one of its kind flags is set): only those are scored,
        # a twentieth of Mauna Kea's 2,040 rows in a typical position.  (``any`` reads the rows once; a
        # sum of absolute values first made a float copy of them all, a sixth of the update's time.)
        candidates = rows.any(dim=2)
        logits = torch.zeros(rows.shape[:2], dtype=rows.dtype, device=rows.device)
        logits[candidates] = self.scorer(rows[candidates]).squeeze(-1)
        return logits

    def forward_critic(self, features):
        x = features[:, self.num_actions * self.num_features:]
        return self.value_net(torch.sign(x) * torch.log1p(torch.abs(x)))


class ScorerPolicy(InverseCdfSampling, MaskableActorCriticPolicy):
    """MaskablePPO's policy as an action scorer (``agents.learned.scorer``): the logit of each action
    is the scorer's output for that action's features, so the actor is a scorer file as it stands
    (``agents.learned.network.save_snapshot`` writes it as one) and plays like the shipped Mauna Kea
    scorers.  Needs ``features_extractor_class=ScorerInputs``; the environment is
    ``agents.training.batched.ScorerFeaturesEnv``."""

    def _build_mlp_extractor(self):
        if not isinstance(self.features_extractor, ScorerInputs):
            raise ValueError("ScorerPolicy reads its inputs through ScorerInputs: pass "
                             "features_extractor_class=ScorerInputs and its kwargs")
        if self.features_extractor.num_actions != self.action_space.n:   # a logit per action, or a misfit
            raise ValueError(f"ScorerInputs has num_actions={self.features_extractor.num_actions}, the action "
                             f"space {self.action_space.n} actions")
        self.mlp_extractor = ScorerExtractor(self.features_extractor, self.net_arch, self.activation_fn)

    def _build(self, lr_schedule):
        super()._build(lr_schedule)
        # the scorer's last layer gives the logits: no action head (and no Linear(actions, actions))
        self.action_net = nn.Identity()
        self.optimizer = self.optimizer_class(self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs)


class OneCopyRolloutBuffer(MaskableRolloutBuffer):
    """MaskablePPO's rollout buffer, making each minibatch with one copy instead of two: its rows are
    gathered by numpy's fancy indexing, already a fresh array, which SB3 then copied again into a
    tensor.  For Mauna Kea's action-scorer learner (37,794 floats a step, 155 MB a minibatch of 1,024)
    the second copy was a fifth of the update's time.  The samples are the same values."""

    def to_torch(self, array, copy=True):
        # its only caller, ``_get_samples``, hands over arrays of its own (fancy-indexed rows)
        return torch.as_tensor(array, device=self.device)
