"""Issue 21, item 4: PPO's update in the main job, its settings chosen by measurement.

``OneCopyRolloutBuffer`` makes each minibatch with one copy, not two: it must hand the update exactly
the samples of sb3_contrib's own ``MaskableRolloutBuffer``, in tensors that share no memory with the
buffer (the update may write to them), and the main job's learner must be built with it.  The
minibatch is the game's own (docs/training.md, "The update's settings").
"""
import numpy as np
import pytest

pytest.importorskip("sb3_contrib")


def filled(buffer_class, seed=0):
    import torch
    from gymnasium import spaces

    observation_space = spaces.Box(-5, 100, (7,), np.float32)
    action_space = spaces.Discrete(5)
    buffer = buffer_class(6, observation_space, action_space, device="cpu", n_envs=3)
    rng = np.random.default_rng(seed)
    for _ in range(6):
        buffer.add(rng.normal(size=(3, 7)).astype(np.float32), rng.integers(0, 5, (3, 1)),
                   rng.normal(size=3).astype(np.float32), rng.random(3) < 0.2, torch.as_tensor(rng.normal(size=3)),
                   torch.as_tensor(rng.normal(size=3)), action_masks=rng.random((3, 5)) < 0.7)
    buffer.compute_returns_and_advantage(torch.as_tensor(rng.normal(size=3)), rng.random(3) < 0.5)
    return buffer


def test_the_samples_are_the_mask_buffers_own_in_tensors_of_their_own():
    from sb3_contrib.common.maskable.buffers import MaskableRolloutBuffer

    from agents.learned.features import OneCopyRolloutBuffer

    theirs, ours = filled(MaskableRolloutBuffer), filled(OneCopyRolloutBuffer)
    np.random.seed(3)   # the buffers draw their minibatches' order from numpy's global generator
    expected = list(theirs.get(4))
    np.random.seed(3)
    got = list(ours.get(4))
    assert len(got) == len(expected) == 5
    for a, b in zip(got, expected):
        for name in a._fields:
            assert getattr(a, name).dtype == getattr(b, name).dtype, name
            assert np.array_equal(getattr(a, name).numpy(), getattr(b, name).numpy()), name
    before = ours.observations.copy()
    for batch in got:
        batch.observations.add_(1.0)   # a sample tensor is the minibatch's own, not a view of the buffer
        batch.action_masks.zero_()
    assert np.array_equal(ours.observations, before)
    assert ours.action_masks.any()


def test_the_main_job_builds_its_learner_with_it(tmp_path):
    from stable_baselines3.common.vec_env import VecMonitor

    import makemake_env.core  # noqa: F401  (agents.games reads <package>.core)
    from agents.learned.features import OneCopyRolloutBuffer
    from agents.training.batched import BatchedSelfPlayEnv
    from agents.training.train import _learner, parse_args

    args = parse_args(["--game", "makemake", "--envs", "2", "--n-steps", "4", "--batch-size", "4"])
    model = _learner(args, VecMonitor(BatchedSelfPlayEnv("makemake", 2, 2, opponents=["random"], seed=0)),
                     tmp_path, None)
    assert type(model.rollout_buffer) is OneCopyRolloutBuffer


def test_the_minibatch_is_the_games_own_unless_given(capsys):
    from agents.training.train import parse_args

    assert parse_args(["--game", "makabana"]).batch_size == 256
    assert parse_args(["--game", "makabana", "--variant", "mao"]).batch_size == 256
    assert parse_args(["--game", "makemake"]).batch_size == 1024
    assert parse_args(["--game", "maunakea"]).batch_size == 1024
    assert parse_args(["--game", "makabana", "--batch-size", "1024"]).batch_size == 1024
    with pytest.raises(SystemExit):
        parse_args(["--game", "makabana", "--batch-size", "0"])
    assert "--batch-size must be a positive integer, got 0" in capsys.readouterr().err
