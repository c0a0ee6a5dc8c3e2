"""The trained policies sample their actions by ``InverseCdfCategorical`` (agents.learned.features): one
uniform number per row instead of torch's exponential number per action.  It must be the same masked
distribution: every legal action at its probability, no masked action ever."""
import numpy as np
import pytest
import torch

from agents.learned.features import (
    InverseCdfCategorical, InverseCdfCategoricalDistribution, InverseCdfSampling, MlpPolicy, ScorerPolicy,
    SkipPolicy,
)


def _distribution(logits, masks):
    d = InverseCdfCategorical(logits=logits)
    d.apply_masking(masks)
    return d


def test_samples_follow_the_masked_probabilities():
    """Rows with one legal action, a few, all of them, and 2,040 of which a few are legal (Mauna Kea's
    space): 100,000 draws of each row, every action's count within 5 standard errors of its expected
    count (the actions expected fewer than 20 times counted together), the masked ones never drawn."""
    torch.manual_seed(0)
    logits = torch.randn(5, 2040) * 2
    masks = torch.zeros(5, 2040, dtype=torch.bool)
    masks[0, 7] = True
    masks[1, [0, 3, 2039]] = True
    masks[2, :] = True
    masks[3, torch.randperm(2040)[:40]] = True
    masks[4, 2039] = True
    draws, rounds = 100_000, 50
    d = _distribution(logits.repeat(draws // rounds, 1), masks.repeat(draws // rounds, 1))
    counts = np.zeros((5, 2040))
    for _ in range(rounds):
        actions = d.sample().view(-1, 5).numpy()
        for row in range(5):
            counts[row] += np.bincount(actions[:, row], minlength=2040)
    probs = _distribution(logits, masks).probs.double().numpy()
    assert counts[~masks.numpy()].sum() == 0
    assert counts[0, 7] == draws and counts[4, 2039] == draws
    for row in range(5):
        # actions expected at least 20 times each on their own, the rarer ones together
        common = probs[row] * draws >= 20
        observed = np.append(counts[row, common], counts[row, ~common].sum())
        expected = np.append(probs[row, common], probs[row, ~common].sum()) * draws
        error = np.sqrt(expected * (1 - expected / draws))
        assert np.all(np.abs(observed - expected) <= 5 * error + 1e-9), row


def test_a_uniform_number_at_the_total_draws_the_last_legal_action(monkeypatch):
    """``u`` is a uniform number times the total probability, which can round up to the total: the
    draw is then the last legal action, never an action past it (a masked one, or outside the space)."""
    logits = torch.zeros(2, 6)
    masks = torch.tensor([[1, 0, 1, 0, 0, 0], [0, 0, 0, 0, 1, 0]], dtype=torch.bool)
    d = _distribution(logits, masks)
    monkeypatch.setattr(torch, "rand", lambda *shape, **kw: torch.ones(*shape, **kw))
    assert d.sample().tolist() == [2, 4]
    monkeypatch.setattr(torch, "rand", lambda *shape, **kw: torch.zeros(*shape, **kw))
    assert d.sample().tolist() == [0, 4]


def test_the_draws_follow_torchs_seed():
    logits = torch.randn(64, 912)
    masks = torch.rand(64, 912) < 0.2
    masks[:, 0] = True
    torch.manual_seed(3)
    first = _distribution(logits, masks).sample()
    torch.manual_seed(3)
    assert torch.equal(first, _distribution(logits, masks).sample())


@pytest.mark.parametrize("policy", [MlpPolicy, SkipPolicy])
def test_the_trained_policies_sample_by_the_inverse_cdf(policy):
    import gymnasium as gym
    from sb3_contrib import MaskablePPO

    from agents.learned.features import LogFeatures

    class Spaces(gym.Env):
        observation_space = gym.spaces.Box(0, 1, (5,), dtype=np.int8)
        action_space = gym.spaces.Discrete(4)

        def reset(self, seed=None, options=None):
            return np.zeros(5, np.int8), {}

        def step(self, action):
            return np.zeros(5, np.int8), 0.0, True, False, {}

        def action_masks(self):
            return np.array([True, False, True, False])

    model = MaskablePPO(policy, Spaces(), n_steps=8, batch_size=8, device="cpu", seed=0,
                        policy_kwargs=dict(features_extractor_class=LogFeatures))
    assert isinstance(model.policy.action_dist, InverseCdfCategoricalDistribution)
    obs = torch.zeros(200, 5)
    masks = np.tile([True, False, True, False], (200, 1))
    actions, _, _ = model.policy.forward(obs, action_masks=masks)
    assert set(actions.tolist()) == {0, 2}


def test_the_action_scorer_policy_samples_by_the_inverse_cdf_too():
    assert issubclass(ScorerPolicy, InverseCdfSampling)
