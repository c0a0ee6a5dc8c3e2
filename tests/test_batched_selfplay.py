"""Issue 21, item 1: ``agents.training.batched.BatchedSelfPlayEnv``, self-play over one batched state array.

The reference is ``SelfPlayEnv`` in a ``DummyVecEnv``, the old path: seeded alike, and with opponents
whose Python agents draw from the kernels' generators (``KernelGenerator``), the two must play the same
games move for move -- random, heuristic and snapshot opponents, every reward and truncation mode.
"""
import makabana_env.core  # noqa: F401  (agents.games reads <package>.core, which no package imports itself)
import makemake_env.core  # noqa: F401
import maunakea_env.core  # noqa: F401
import numpy as np
import pytest

from agents.baselines.batched.common import KernelGenerator
from agents.games import game_info
from agents.training.batched import BatchedSelfPlayEnv
from agents.training.selfplay import OpponentPool, SelfPlayEnv
from pacific_common.batch import ThreadChoice

pytest.importorskip("sb3_contrib")
from stable_baselines3.common.vec_env import DummyVecEnv  # noqa: E402


class KernelDrawingSelfPlayEnv(SelfPlayEnv):
    """``SelfPlayEnv`` whose opponents draw their randomness from the kernels' generator, seeded with the
    seed ``SelfPlayEnv`` hands them: what the batched opponents draw."""

    def _opponent(self, spec, seat):
        agent = super()._opponent(spec, seat)
        if not getattr(agent, "draws_like_kernels", False):
            plain_reset = agent.reset

            def reset(game, player, seed=None):
                plain_reset(game, player, seed)
                agent.rng = KernelGenerator(seed)

            agent.reset, agent.draws_like_kernels = reset, True
        return agent


def write_snapshot(path, game, hidden=24, skip=False, seed=0):
    """A random policy network in the ``save_snapshot`` format: logits that differ enough to matter."""
    rng = np.random.default_rng(seed)
    sizes = [game.obs_size, hidden, hidden]
    arrays = {}
    for i in range(2):
        arrays[f"w{i}"] = rng.normal(0, 1 / np.sqrt(sizes[i]), (sizes[i + 1], sizes[i])).astype(np.float32)
        arrays[f"b{i}"] = rng.normal(0, 0.1, sizes[i + 1]).astype(np.float32)
    head_in = hidden + (game.obs_size if skip else 0)
    arrays["w2"] = rng.normal(0, 2 / np.sqrt(head_in), (game.num_actions, head_in)).astype(np.float32)
    arrays["b2"] = rng.normal(0, 0.5, game.num_actions).astype(np.float32)
    np.savez(path, activation=np.array("relu"), features=np.array("log"), skip=np.array(skip), **arrays)
    return str(path)


def learner_actions(masks, rng):
    """The learner's moves for both paths: a seeded uniform choice among each game's legal actions."""
    return np.array([rng.choice(np.flatnonzero(row)) for row in masks])


class AlwaysThePool(ThreadChoice):
    """A ``ThreadChoice`` that always picks Numba's thread pool."""

    def __init__(self):
        super().__init__(True)

    def next(self):
        return True


def play_both(name, players, opponents, steps, num_envs=6, seed=11, pool=False,
              old_env=KernelDrawingSelfPlayEnv, **options):
    """Step the old and the new path side by side with the same learner moves (the new path's
    opponents on Numba's thread pool with ``pool``); returns the number of games that ended.  Python
    opponents (a search) play both paths on their own generators: ``old_env=SelfPlayEnv``."""
    old = DummyVecEnv([lambda: old_env(name, players, opponents=opponents, **options) for _ in range(num_envs)])
    new = BatchedSelfPlayEnv(name, num_envs, players, opponents=opponents, **options)
    if pool:
        new._threads = AlwaysThePool()
    old.seed(seed)
    new.seed(seed)
    old_obs, new_obs = old.reset(), new.reset()
    assert np.array_equal(old_obs, new_obs)
    assert [e.seat for e in old.envs] == new.seats.tolist()
    rng = np.random.default_rng(seed)
    ended = 0
    for step in range(steps):
        masks = np.stack(old.env_method("action_masks"))
        assert np.array_equal(masks, new.action_masks()), f"masks differ at step {step}"
        actions = learner_actions(masks, rng)
        old_obs, old_rewards, old_dones, old_infos = old.step(actions)
        new_obs, new_rewards, new_dones, new_infos = new.step(actions)
        assert np.array_equal(old_dones, new_dones), f"step {step}"
        assert np.array_equal(old_rewards, new_rewards), f"step {step}"
        assert np.array_equal(old_obs, new_obs), f"step {step}"
        for g in np.flatnonzero(old_dones):
            ended += 1
            for key in ("seat", "opponents", "scores", "win_share", "TimeLimit.truncated"):
                assert old_infos[g][key] == new_infos[g][key], (step, g, key)
            assert np.array_equal(old_infos[g]["terminal_observation"], new_infos[g]["terminal_observation"])
            assert old.envs[g].seat == new.seats[g]
    return ended


@pytest.mark.parametrize("name, players", [("makabana", 2), ("makemake", 3), ("maunakea", 2)])
def test_plays_the_games_selfplayenv_plays(name, players, tmp_path):
    # issue 21 "Done when": the same games for the same seeds, with random, heuristic and snapshot
    # opponents (the snapshot with its skip connection, as SkipPolicy saves it)
    snapshot = write_snapshot(tmp_path / "snapshot_1.npz", game_info(name, players), skip=name != "maunakea")
    steps = {"makabana": 160, "makemake": 160, "maunakea": 80}[name]
    ended = play_both(name, players, ["random", "heuristic", snapshot], steps, shaping=0.05)
    assert ended >= 2


@pytest.mark.parametrize("name, players", [("makabana", 3), ("makemake", 2), ("maunakea", 2)])
def test_the_opponents_on_the_thread_pool_play_the_same_games(name, players, tmp_path):
    # from PARALLEL_FROM games on the opponents' loops may run on the pool (ThreadChoice): each game
    # draws from its own generators, so the games are the same as on one thread
    snapshot = write_snapshot(tmp_path / "snapshot_1.npz", game_info(name, players))
    ended = play_both(name, players, ["random", "heuristic", snapshot], 60, num_envs=8, pool=True, max_turns=6)
    assert ended >= 8


def test_a_guided_search_named_by_its_guides_file_is_an_opponent_not_a_snapshot():
    # its name ends with '.npz': it was taken for a snapshot's file, and no pool would hold it
    guided = "mcts:4+agents/shipped/maunakea-guide.npz"
    pool = OpponentPool.of(["random", guided])
    assert pool.baselines == ["random", guided] and pool.snapshots == []
    assert play_both("maunakea", 2, [guided], 30, num_envs=2, old_env=SelfPlayEnv, max_turns=4) >= 2


@pytest.mark.parametrize("truncation", ["draw", "loss", "standings"])
def test_truncation_modes_and_autoreset_match_selfplayenv(truncation):
    # SelfPlayEnv's truncation modes, on games cut by a small max_turns; autoreset as DummyVecEnv does
    ended = play_both("makemake", 2, ["random", "heuristic"], 60, truncation=truncation, max_turns=6,
                      reward="margin")
    assert ended >= 6


def test_the_masks_and_observations_are_the_learners():
    env = BatchedSelfPlayEnv("makabana", 8, 3, opponents=["random", "heuristic"], seed=5)
    env.reset()
    k, rng = env.kernels, np.random.default_rng(0)
    obs = np.empty(env.game.obs_size, dtype=np.int8)
    mask = np.empty(env.game.num_actions, dtype=np.int8)
    for _ in range(40):
        for g in range(env.num_envs):
            assert k.player_to_act(env.states[g]) == env.seats[g]
            k.observe_player(env.states[g], int(env.seats[g]), obs, mask)
            assert np.array_equal(env.observations[g], obs)
            assert np.array_equal(env.action_masks()[g], mask.astype(bool))
        assert np.array_equal(env.env_method("action_masks"), env.action_masks())
        assert np.array_equal(env.env_method("action_masks", indices=[2, 5]), env.action_masks()[[2, 5]])
        env.step(learner_actions(env.action_masks(), rng))


def test_the_learner_gets_its_reward_when_an_opponent_ends_the_game():
    env = BatchedSelfPlayEnv("makemake", 16, 2, opponents=["heuristic"], seed=1)
    env.reset()
    k, rng = env.kernels, np.random.default_rng(1)
    by_opponent = 0
    for _ in range(400):
        actions = learner_actions(env.action_masks(), rng)
        after_learner = env.states.copy()
        for g in range(env.num_envs):
            k.step(after_learner[g], actions[g])
        _, rewards, dones, infos = env.step(actions)
        for g in np.flatnonzero(dones):
            if after_learner[g, k.STATUS] != k.STATUS_RUNNING or infos[g]["TimeLimit.truncated"]:
                continue
            by_opponent += 1   # still running after the learner's move: an opponent's move ended it
            share = infos[g]["win_share"]
            assert rewards[g] == (1.0 if share == 1.0 else -1.0 if share == 0.0 else 0.0)
    assert by_opponent >= 5


def test_an_illegal_learner_action_ends_the_game_as_a_loss():
    """As in SelfPlayEnv: reward -1, the game over, ``info["illegal_action"] = True`` -- True even for
    action 0, so that ``if info.get("illegal_action")`` sees it."""
    env = BatchedSelfPlayEnv("makemake", 4, 2, opponents=["random"], seed=2)
    env.reset()
    masks = env.action_masks()
    actions = np.array([np.flatnonzero(row)[0] for row in masks])
    actions[1] = np.flatnonzero(~masks[1])[0]
    before = env.states[1].copy()
    _, rewards, dones, infos = env.step(actions)
    assert dones[1] and rewards[1] == -1.0
    assert infos[1]["illegal_action"] is True and infos[1]["win_share"] == 0.0
    assert np.array_equal(infos[1]["terminal_observation"], _observe(env, before, infos[1]["seat"]))
    assert "illegal_action" not in infos[0]
    with pytest.raises(ValueError, match="action space"):
        env.step(np.full(4, env.game.num_actions))


def _observe(env, state, seat):
    obs = np.empty(env.game.obs_size, dtype=np.int8)
    env.kernels.observe_player(state, seat, obs, np.empty(env.game.num_actions, dtype=np.int8))
    return obs


@pytest.mark.parametrize("options, message", [
    (dict(num_envs=0), "num_envs must be an integer from 1 to 1048576"),
    (dict(num_envs=2**40), "num_envs must be an integer from 1 to 1048576"),   # BatchEnv's bound; was killed
    (dict(opponents=["random", "nosuch"]), "unknown agent 'nosuch'"),          # was refused at a later reset
    (dict(seat="left"), "seat must be one of"),
    (dict(truncation="maybe"), "truncation must be one of"),
    (dict(shaping=-1.0), "shaping must be a finite non-negative number"),
    (dict(reward="points"), "reward must be one of"),
    (dict(shaping=True), "shaping must be a finite non-negative number"),   # not 1.0
    (dict(seed=-1), "seed must be an integer from 0"),               # was refused only at the first reset
    (dict(seed=1.5), "seed must be an integer from 0"),
    (dict(first_seats=[0.5, 1.7]), "first_seats must give"),        # was truncated to [0, 1]
    (dict(first_seats=[True, False]), "first_seats must give"),
])
def test_bad_options_are_refused(options, message):
    with pytest.raises(ValueError, match=message):
        BatchedSelfPlayEnv("makemake", **{"num_envs": 2, **options})


def test_a_failed_step_or_reset_leaves_the_batch_refusing_steps_until_a_reset(tmp_path):
    # a failed autoreset left games half started: the next step met an opponent's turn ("the core
    # refused a learner action its mask offered")
    env = BatchedSelfPlayEnv("makemake", 4, 2, opponents=OpponentPool(["random"], [], baseline_share=0.0),
                             max_turns=3, seed=0)
    env.reset()
    path = write_snapshot(tmp_path / "snapshot_1.npz", env.game)
    with pytest.raises(ValueError, match="no snapshot file"):
        env.add_opponent(str(tmp_path / "missing.npz"))
    env.add_opponent(path)
    (tmp_path / "snapshot_1.npz").unlink()   # checked when added, gone by the games that draw it
    with pytest.raises(ValueError, match="snapshot_1.npz"):
        for _ in range(10):
            env.step(learner_actions(env.action_masks(), np.random.default_rng(0)))
    assert not env.action_masks().any()
    with pytest.raises(RuntimeError, match=r"the last step\(\) failed: call reset\(\)"):
        env.step(np.zeros(4, np.int64))
    with pytest.raises(ValueError, match="snapshot_1.npz"):
        env.reset()
    with pytest.raises(RuntimeError, match=r"the last reset\(\) failed: call reset\(\) again"):
        env.step(np.zeros(4, np.int64))
    write_snapshot(tmp_path / "snapshot_1.npz", env.game)
    env.reset()
    env.step(learner_actions(env.action_masks(), np.random.default_rng(0)))


def test_set_attr_changes_only_the_options_the_next_games_read():
    env = BatchedSelfPlayEnv("makemake", 4, 2, opponents=["random"], seed=0)
    env.reset()
    with pytest.raises(ValueError, match="indices must be game numbers from 0 to 3"):
        env.set_attr("seat_mode", "random", indices=99)
    with pytest.raises(ValueError, match="one setting for all 4 games: indices must be None or name every game"):
        env.set_attr("seat_mode", "random", indices=[0])
    with pytest.raises(ValueError, match="seat must be one of"):
        env.set_attr("seat_mode", "bogus")
    with pytest.raises(ValueError, match=r"set_attr can change only \['seat_mode', 'shaping', 'truncation'\]"):
        env.set_attr("num_envs", 2)   # then a broadcast error at the next step
    assert (env.seat_mode, env.num_envs) == ("rotate", 4)
    env.set_attr("seat_mode", "random", indices=range(4))
    env.set_attr("shaping", np.float32(0.5))
    assert env.get_attr("shaping") == [0.5] * 4 and env.seat_mode == "random"
    margins = np.zeros(4, np.int64)
    env.loops.margins(env.states, env.seats, margins)
    assert np.array_equal(env._margins, margins)   # the shaping counts from the change, not from 0
    env.step(learner_actions(env.action_masks(), np.random.default_rng(0)))


def test_odd_indices_actions_and_a_closed_env_are_clear_errors():
    env = BatchedSelfPlayEnv("makemake", 4, 2, opponents=["mcts:4"], seed=0)
    env.reset()
    with pytest.raises(ValueError, match="indices must be game numbers from 0 to 3"):
        env.get_attr("seat_mode", indices=1.0)   # was a TypeError
    assert env.get_attr("seat_mode", indices=np.int64(1)) == ["rotate"]
    with pytest.raises(ValueError, match=r"actions must be an integer array of shape \(4,\)"):
        env.step(np.zeros((2, 2), np.int64))   # was taken as 4 actions
    env.close()
    with pytest.raises(RuntimeError, match="the environment is closed"):   # was a KeyError
        env.step(learner_actions(env.action_masks(), np.random.default_rng(0)))
    with pytest.raises(RuntimeError, match="the environment is closed"):
        env.reset()


def test_a_tiny_maskable_ppo_run_completes(tmp_path):
    # issue 21 "Done when": MaskablePPO trains on it unchanged, snapshots join the pool as in training
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import VecMonitor

    from agents.learned.network import save_snapshot

    env = VecMonitor(BatchedSelfPlayEnv("makemake", 8, 2, opponents=["random", "heuristic"], seed=0))
    model = MaskablePPO("MlpPolicy", env, n_steps=16, batch_size=64, n_epochs=1, seed=0, device="cpu",
                        policy_kwargs=dict(net_arch=[16]))
    model.learn(256)
    path = save_snapshot(model, tmp_path / "snapshot_1.npz")
    env.env_method("add_opponent", str(path))
    model.learn(256, reset_num_timesteps=False)
    assert model.num_timesteps >= 512
    assert str(path) in env.venv.pool.snapshots


def test_snapshot_network_plays_like_the_snapshot_agent(tmp_path):
    # one forward pass over stacked observations: the greedy action of SnapshotAgent row by row
    from agents.learned.network import SnapshotAgent
    from agents.training.batched import SnapshotNetwork

    game = game_info("makabana", 2)
    path = write_snapshot(tmp_path / "s.npz", game, skip=True)
    network, agent = SnapshotNetwork.load(path, game), SnapshotAgent.load(path, game, deterministic=True)
    env = BatchedSelfPlayEnv(game, 16, opponents=["random"], seed=4)
    env.reset()
    rng = np.random.default_rng(4)
    for _ in range(10):
        greedy = network.greedy(env.observations, env.masks)
        assert greedy.tolist() == [agent.act(o, m) for o, m in zip(env.observations, env.masks)]
        env.step(learner_actions(env.action_masks(), rng))


def test_evaluation_rotates_the_learners_seat_and_replays_the_same_games(tmp_path):
    # the curve's evaluations (issue 21, item 3): batched, seats balanced, the same games every time
    from agents.training.batched import SnapshotNetwork, evaluate

    game = game_info("makemake", 2)
    network = SnapshotNetwork.load(write_snapshot(tmp_path / "s.npz", game), game)
    rate = evaluate(network, game, "heuristic", 12, seed=3)
    assert 0.0 <= rate <= 1.0 and rate == evaluate(network, game, "heuristic", 12, seed=3)
    env = BatchedSelfPlayEnv(game, 6, opponents=["random"], seed=3, first_seats=np.arange(6) % 2)
    env.reset()
    assert env.seats.tolist() == [0, 1, 0, 1, 0, 1]
    with pytest.raises(ValueError, match="first_seats must give"):
        BatchedSelfPlayEnv(game, 6, first_seats=[0, 1])


def _first_results(network, game, opponent, games, seed):
    """Each game's first result on the autoresetting env, the network playing every step of every game."""
    from agents.training.batched import learner_env

    env = learner_env(BatchedSelfPlayEnv(game, games, opponents=[opponent], seed=seed,
                                         first_seats=np.arange(games) % 2), network.reads)
    observations, shares = env.reset(), np.full(games, np.nan)
    while np.isnan(shares).any():
        observations, _, dones, infos = env.step(network.greedy(observations, env.action_masks()))
        for g in np.flatnonzero(dones & np.isnan(shares)):
            shares[g] = infos[g]["win_share"]
    return shares


def test_without_autoreset_an_ended_game_stays_over(tmp_path):
    # evaluations play only the games still running: an ended game is neither restarted nor stepped
    from agents.training.batched import SnapshotNetwork, evaluate

    game = game_info("makabana", 2)
    network = SnapshotNetwork.load(write_snapshot(tmp_path / "s.npz", game), game)
    env = BatchedSelfPlayEnv(game, 6, opponents=["random"], seed=5, autoreset=False,
                             first_seats=np.arange(6) % 2)
    observations, shares = env.reset(), np.full(6, np.nan)
    ended = {}
    while not env.over.all():
        was_over = env.over.copy()
        frozen = {g: env.states[g].copy() for g in np.flatnonzero(was_over)}
        actions = network.greedy(observations, env.action_masks())
        actions[was_over] = 0   # ignored, even where it is not legal
        observations, rewards, dones, infos = env.step(actions)
        assert not (dones & was_over).any() and (rewards[was_over] == 0).all()
        for g, row in frozen.items():
            assert np.array_equal(env.states[g], row) and not env.action_masks()[g].any()
        for g in np.flatnonzero(dones):
            shares[g] = infos[g]["win_share"]
            ended[g] = env.states[g, env.kernels.STATUS]
        assert np.array_equal(env.over, ~np.isnan(shares))
    assert all(status != env.kernels.STATUS_RUNNING for status in ended.values())
    # the same games, and the same results, as the first game of each slot with autoreset
    assert np.array_equal(shares, _first_results(network, game, "random", 6, 5))
    assert evaluate(network, game, "random", 6, 5) == shares.mean()
    env.reset()
    assert not env.over.any() and env.action_masks().any(axis=1).all()
    with pytest.raises(ValueError, match="autoreset must be True or False"):
        BatchedSelfPlayEnv(game, 2, autoreset="no")


def test_the_main_job_trains_batched_by_default():
    from agents.training.train import parse_args

    args = parse_args(["--game", "makemake"])
    assert (args.vec_env, args.envs, args.n_steps) == ("batched", 256, 8)
    old = parse_args(["--game", "makemake", "--vec-env", "dummy"])
    assert (old.envs, old.n_steps) == (32, 64)
    assert parse_args(["--game", "makemake", "--envs", "64"]).envs == 64
