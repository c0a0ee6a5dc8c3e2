"""Self-play training: the single-seat environment, its opponent pool, the masks MaskablePPO gets, a
tiny training run through ``agents.training.train`` (the shipped policies are tested in test_agents.py: they
need no torch).

Everything here needs the train extra (torch, stable-baselines3, sb3-contrib): without it the module
is skipped.
"""
import csv
import json
import re

import numpy as np
import pytest

pytest.importorskip("sb3_contrib", reason="self-play training needs the train extra: pip install -e \".[train]\"")

from agents.arena.match import play_game  # noqa: E402
from agents.baselines.random_agent import RandomAgent  # noqa: E402
from agents.games import GAMES, game_info  # noqa: E402
from agents.learned.network import SnapshotAgent, save_snapshot  # noqa: E402
from agents.registry import make_agent  # noqa: E402
from agents.training.selfplay import OpponentPool, SelfPlayEnv  # noqa: E402


def play_episode(env, learner=None, rng=None):
    """Play the learner's seat to the end of a game, by ``learner`` (an agent) or at random; return
    (reward, terminated, truncated, info, ended_on_an_opponent_move)."""
    core = env.game.core
    rng = rng or np.random.default_rng(0)
    if learner is not None:
        learner.reset(env.game, env.seat, 0)
    obs = env._observe()
    while True:
        mask = env.action_masks()
        action = (int(rng.choice(np.flatnonzero(mask))) if learner is None
                  else learner.act(obs, mask.astype(np.int8)))
        before = env.state.copy()
        obs, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            core.step(before, action)  # did the learner's own move end it, or the opponents' after it?
            return reward, terminated, truncated, info, bool(before[core.STATUS] == core.STATUS_RUNNING)
        assert info == {} and (env.shaping or reward == 0.0)
        assert obs.shape == env.observation_space.shape and env.action_masks().any()


def tiny_model(env, **kwargs):
    from sb3_contrib import MaskablePPO

    return MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=32, n_epochs=1, device="cpu", seed=0,
                       policy_kwargs=dict(net_arch=[16, 16]), **kwargs)


# ---------------------------------------------------------------------------------------------------
# Rewards
# Who ends the game: Maka Bana and Make Make games end on the heuristic's winning move against a
# random learner; a Mauna Kea game ends with the last turn after the trigger, so there the learner
# (playing the heuristic's moves) triggers it and the random opponent's last turn ends it.
END_CASES = {"makabana": (None, "heuristic", -1.0), "makemake": (None, "heuristic", -1.0),
             "maunakea": ("heuristic", "random", 1.0)}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_learner_gets_its_own_end_of_game_reward(name):
    """The reward of the last step is the core's win_loss reward of the learner's seat, also when the
    opponents' moves ended the game: a learner that loses that way gets -1 (a winner +1)."""
    learner_spec, opponent, wanted = END_CASES[name]
    env = SelfPlayEnv(name, 2, opponents=[opponent], seed=1)
    learner = make_agent(learner_spec, env.game) if learner_spec else None
    core, seen = env.game.core, set()
    for _ in range(20):
        env.reset()
        reward, terminated, truncated, info, by_opponent = play_episode(env, learner)
        expected = np.zeros(2)
        core.rewards(env.state, 0, expected)
        assert reward == expected[env.seat]
        assert terminated == (env.state[core.STATUS] == core.STATUS_TERMINATED) and terminated != truncated
        assert info["seat"] == env.seat and len(info["scores"]) == 2
        seen.add((by_opponent, reward))
        if (True, wanted) in seen:
            break
    assert (True, wanted) in seen, f"no {name} game ended on the opponent's move with reward {wanted}"


def test_truncation_is_reported_and_scored_as_asked():
    """A game cut by max_turns ends with truncated=True; the learner's reward is 0 ("draw", the
    core's), -1 ("loss") or the standings by points ("standings"); its win share is adjudicated on the
    points, as a tournament ranks a truncated game."""
    for truncation in ("draw", "loss", "standings"):
        env = SelfPlayEnv("makabana", 2, opponents=["random"], max_turns=2, truncation=truncation, seed=0)
        for _ in range(6):
            env.reset()
            reward, terminated, truncated, info, _ = play_episode(env)
            mine, theirs = info["scores"][env.seat], info["scores"][1 - env.seat]
            # the win share is the tournaments' (on the points as they stand), whatever the reward
            assert truncated and not terminated and info["win_share"] == {1: 1.0, 0: 0.5, -1: 0.0}[np.sign(mine - theirs)]
            expected = {"draw": 0.0, "loss": -1.0, "standings": float(np.sign(mine - theirs))}[truncation]
            assert reward == expected


def test_shaping_adds_up_to_the_points_margin():
    """Potential-based: the shaped rewards of a game sum to c x the final margin plus the win/loss."""
    c = 0.1
    env = SelfPlayEnv("makabana", 2, opponents=["random"], shaping=c, seed=3)
    rng, total = np.random.default_rng(3), 0.0
    while True:
        _, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        total += reward
        if terminated or truncated:
            break
    scores = info["scores"]
    margin = scores[env.seat] - max(s for p, s in enumerate(scores) if p != env.seat)
    win_loss = np.zeros(2)
    env.game.core.rewards(env.state, 0, win_loss)
    assert total == pytest.approx(c * margin + win_loss[env.seat])


def test_bad_arguments_and_actions_outside_the_space_are_clear_errors():
    with pytest.raises(ValueError, match="seat must be one of"):
        SelfPlayEnv("makabana", 2, seat="first")
    with pytest.raises(ValueError, match="reward must be one of"):
        SelfPlayEnv("makabana", 2, reward="points")
    with pytest.raises(ValueError, match="truncation must be one of"):
        SelfPlayEnv("makabana", 2, truncation="win")
    with pytest.raises(ValueError, match="unknown game"):
        SelfPlayEnv("chess")
    with pytest.raises(ValueError, match="pool is empty"):
        SelfPlayEnv("makabana", 2, opponents=[])
    env = SelfPlayEnv("makabana", 2, opponents=["random"], seed=0)
    # issue 23 item 5: an illegal action inside the space ends the game (tests/test_hardening.py);
    # outside the space it is refused
    for outside in (env.action_space.n, -1, 2**70, 1.5, "3"):
        with pytest.raises(ValueError, match="action must be an integer"):
            env.step(outside)


# ---------------------------------------------------------------------------------------------------
# Seats and opponents
def test_seats_rotate_or_are_sampled():
    env = SelfPlayEnv("makemake", 3, opponents=["random"], seed=5)
    seats = [env.seat] + [env.reset()[1]["seat"] for _ in range(6)]
    assert [(s - seats[0]) % 3 for s in seats] == [0, 1, 2, 0, 1, 2, 0]
    env = SelfPlayEnv("makemake", 3, opponents=["random"], seat="random", seed=5)
    assert {env.reset()[1]["seat"] for _ in range(60)} == {0, 1, 2}


def test_every_other_seat_gets_an_opponent():
    env = SelfPlayEnv("maunakea", 4, opponents=["random", "heuristic"], seed=2)
    for _ in range(10):
        _, info = env.reset()
        assert info["opponents"][info["seat"]] is None
        assert all(o in ("random", "heuristic") for p, o in enumerate(info["opponents"]) if p != info["seat"])


def test_pool_draws_baselines_and_the_latest_snapshots(tmp_path):
    pool = OpponentPool(["random", "heuristic"], [], baseline_share=0.25, window=2)
    assert pool.candidates() == (["random", "heuristic"], [0.5, 0.5])  # no snapshot yet
    for k in range(3):
        pool.add(f"snap{k}.npz")
    entries, p = pool.candidates()
    assert entries == ["random", "heuristic", "snap1.npz", "snap2.npz"]
    assert p == pytest.approx([0.125, 0.125, 0.375, 0.375])
    rng = np.random.default_rng(0)
    draws = [pool.sample(rng) for _ in range(4000)]
    for entry, share in zip(entries, p):
        assert draws.count(entry) / len(draws) == pytest.approx(share, abs=0.03)
    assert OpponentPool.of(["random", "a.npz"]).candidates() == (["random", "a.npz"], [0.5, 0.5])
    assert OpponentPool([], ["a.npz"]).candidates() == (["a.npz"], [1.0])


def test_env_draws_snapshots_from_its_pool(tmp_path):
    env = SelfPlayEnv("makabana", 2, opponents=OpponentPool(["random"], [], baseline_share=0.0), seed=0)
    path = save_snapshot(tiny_model(env), tmp_path / "snapshot_1.npz")
    env.add_opponent(str(path))
    opponents = {o for _ in range(10) for o in env.reset()[1]["opponents"] if o is not None}
    assert opponents == {str(path)}
    reward, *_ = play_episode(env)
    assert reward in (-1.0, 0.0, 1.0)


def test_bad_pool_entries_are_refused_when_added(tmp_path):
    # they were taken, and failed at whichever later reset drew them, again and again
    game = game_info("makemake", 2)
    with pytest.raises(ValueError, match="unknown agent 'nosuch'"):
        SelfPlayEnv(game, opponents=["random", "nosuch"])
    with pytest.raises(ValueError, match="unknown agent 'nosuch'"):
        SelfPlayEnv(game, opponents=OpponentPool(["random", "nosuch"]))   # a pool made without a game
    with pytest.raises(ValueError, match="no snapshot file"):
        OpponentPool(["random"], ["missing.npz"], game=game)
    env = SelfPlayEnv(game, opponents=["random"], seed=0)
    with pytest.raises(ValueError, match="opponent .*missing.npz' cannot play makemake: no snapshot file"):
        env.add_opponent(str(tmp_path / "missing.npz"))
    assert env.pool.entries == ["random"]


def test_after_a_failed_reset_or_step_only_reset_plays_on(tmp_path, monkeypatch):
    # a failed reset left the old position with a new seat: the learner's step moved for another
    # player, and the next step crashed on the opponent that was never made
    env = SelfPlayEnv("makemake", 2, opponents=OpponentPool(["random"], [], baseline_share=0.0), seed=0)
    path = save_snapshot(tiny_model(env), tmp_path / "snapshot_1.npz")
    env.add_opponent(str(path))
    path.unlink()   # checked when added, gone by the reset
    with pytest.raises(ValueError, match="no snapshot file"):
        env.reset()
    assert not env.action_masks().any()
    with pytest.raises(RuntimeError, match=r"the last reset\(\) failed: call reset\(\)"):
        env.step(0)
    # an opponent that fails in a step leaves an opponent to move
    env = SelfPlayEnv("makemake", 2, opponents=["random"], seed=0)
    opponent = next(agent for agent in env._agents_by_seat if agent is not None)
    monkeypatch.setattr(opponent, "act", lambda *args: 1 / 0)
    with pytest.raises(ZeroDivisionError):
        env.step(int(np.flatnonzero(env.action_masks())[0]))
    with pytest.raises(RuntimeError, match=r"an opponent failed in the last step\(\): call reset\(\)"):
        env.step(0)
    monkeypatch.undo()
    env.reset()
    env.step(int(np.flatnonzero(env.action_masks())[0]))


def test_shaping_takes_numpy_reals_and_refuses_what_is_no_finite_number():
    env = SelfPlayEnv("makemake", 2, opponents=["random"], shaping=np.float32(0.25))
    assert env.shaping == 0.25 and type(env.shaping) is float
    for bad in (np.inf, np.float32("nan"), 10**400, np.bool_(True), -0.5, "1"):
        with pytest.raises(ValueError, match="shaping must be a finite non-negative number"):
            SelfPlayEnv("makemake", 2, opponents=["random"], shaping=bad)


def test_snapshot_plays_like_the_greedy_policy(tmp_path):
    """The numpy forward pass of a snapshot picks the same action as MaskablePPO's greedy predict."""
    env = SelfPlayEnv("makabana", 2, opponents=["random"], seed=0)
    model = tiny_model(env)
    snapshot = SnapshotAgent.load(save_snapshot(model, tmp_path / "s.npz"), env.game, deterministic=True)
    rng = np.random.default_rng(0)
    for _ in range(50):
        obs, mask = env._observe(), env.action_masks()
        expected, _ = model.predict(obs, action_masks=mask, deterministic=True)
        assert snapshot.act(obs, mask.astype(np.int8)) == int(expected)
        _, _, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(mask))))
        if terminated or truncated:
            env.reset()
    with pytest.raises(ValueError, match="takes observations of size"):
        SnapshotAgent.load(tmp_path / "s.npz", game_info("makemake", 2))


# ---------------------------------------------------------------------------------------------------
# MaskablePPO
@pytest.mark.parametrize("game, variant, opponents", [
    ("makemake", None, ["heuristic", "agents/shipped/makemake.npz"]),       # a strategy module, a network
    ("makabana", None, ["heuristic", "agents/shipped/makabana.npz"]),
    ("maunakea", "advanced", ["lookahead"]),                                 # a strategy object
    ("maunakea", None, ["shipped"]),                                         # an action scorer's features
    ("makabana", None, ["mcts:8"]),                                          # a search's rules module
    ("maunakea", None, ["mcts:8+agents/shipped/maunakea-guide.npz"]),        # a search guided by a scorer
])
def test_the_environment_copies_and_pickles_mid_game_and_plays_on_alike(game, variant, opponents):
    """Gymnasium environments copy and pickle; this one did not (its game's module, the modules its
    opponents hold and the network's activation function would not pickle)."""
    import copy
    import pickle

    env = SelfPlayEnv(game, 2, opponents=opponents, variant=variant)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    copies = []
    for t in range(300):
        if not copies and t >= 20 and {spec for spec, _ in env._agents} == set(opponents):  # all of them built
            copies = [pickle.loads(pickle.dumps(env)), copy.deepcopy(env)]
        action = int(rng.choice(np.flatnonzero(env.action_masks())))
        step = env.step(action)
        for other in copies:
            again = other.step(action)
            assert np.array_equal(again[0], step[0]) and again[1:4] == step[1:4]
        if step[2] or step[3]:
            first = env.reset()[0]
            assert all(np.array_equal(other.reset()[0], first) for other in copies)
    assert copies


def test_masks_given_to_maskable_ppo_are_the_legal_actions(monkeypatch):
    """Every mask MaskablePPO collects is the rules core's legal-action mask of the learner's state."""
    import sb3_contrib.ppo_mask.ppo_mask as ppo_mask
    from stable_baselines3.common.vec_env import DummyVecEnv

    envs = DummyVecEnv([lambda i=i: SelfPlayEnv("makabana", 2, opponents=["random"], seed=i) for i in range(2)])
    original, checked = ppo_mask.get_action_masks, []

    def checking_get_action_masks(vec_env):
        masks = original(vec_env)
        for env, mask in zip(vec_env.envs, masks):
            legal = np.zeros(env.game.num_actions, dtype=np.int8)
            env.game.core.legal_action_mask(env.state, legal)
            assert np.array_equal(mask, legal.astype(bool)) and mask.any()
            checked.append(1)
        return masks

    monkeypatch.setattr(ppo_mask, "get_action_masks", checking_get_action_masks)
    model = tiny_model(envs)
    model.learn(128)
    assert len(checked) >= 128
    buffer_masks = model.rollout_buffer.action_masks.reshape(-1, envs.envs[0].game.num_actions)
    assert buffer_masks.any(axis=1).all()


def test_tiny_training_run_resumes_and_plays(tmp_path, capsys):
    from agents.training import train

    out = tmp_path / "run"
    common = ["--game", "makemake", "--out", str(out), "--envs", "2", "--n-steps", "64", "--batch-size", "64",
              "--net", "16", "--snapshot-every", "256", "--eval-every", "512", "--eval-games", "2",
              "--final-games", "2", "--imitate", "300", "--imitate-epochs", "1"]
    train.main(common + ["--timesteps", "1024"])
    text = capsys.readouterr().out
    assert "the final policy against random" in text and "the final policy against heuristic" in text
    # The closing line's interval is Wilson's: never a margin of 0, even at 0% or 100% of 2 games.
    intervals = re.findall(r"wins (\d+\.\d)% \[(\d+\.\d)%, (\d+\.\d)%\] \(95% interval", text)
    assert len(intervals) == 2
    assert all(float(low) <= float(rate) <= float(high) and float(high) - float(low) > 30
               for rate, low, high in intervals)
    assert (out / "final.zip").is_file() and (out / "curve.png").is_file()
    assert json.loads((out / "config.json").read_text())["game"] == "makemake"
    with pytest.raises(SystemExit, match="--resume"):
        train.main(common + ["--timesteps", "1024"])  # would overwrite the run

    config = (out / "config.json").read_text()
    with pytest.raises(SystemExit, match=r"--resume: the run was trained with --net 16, --gamma .* \(not 32, 0.5\)"):
        train.main(common + ["--timesteps", "2048", "--resume", "--net", "32", "--gamma", "0.5"])
    assert (out / "config.json").read_text() == config   # what the checkpoint keeps is not rewritten
    # resumed without the warm start's options and against other opponents: config.json keeps the
    # imitation the run had (it wrote the defaults, never used) and says what the resume changed
    train.main(common[:-4] + ["--timesteps", "2048", "--resume", "--opponents", "random"])
    written = json.loads((out / "config.json").read_text())
    assert (written["imitate"], written["imitate_epochs"], written["opponents"]) == (300, 1, "random")
    assert written["resumes"] == [{"timesteps": 1024, "before": {"timesteps": 1024, "opponents": "random,heuristic"}}]
    with open(out / "progress.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert [int(r["timesteps"]) for r in rows] == [0, 512, 1024, 1536, 2048]  # 0: after the imitation
    assert int(rows[-1]["snapshots"]) == 8 and len(list((out / "pool").glob("*.npz"))) == 8

    # a folder that is not a run of agents.train is named as such, and left as it was
    for name, text in (("broken", "{oops"), ("foreign", '{"foo": 1}')):
        other = tmp_path / name
        (other / "checkpoints").mkdir(parents=True)
        (other / "checkpoints" / "model_64.zip").write_bytes((out / "final.zip").read_bytes())
        (other / "config.json").write_text(text)
        with pytest.raises(SystemExit, match="is not the config of an agents.train run|cannot be read as the config"):
            train.main(common[:2] + ["--out", str(other), "--resume"] + common[4:])
        assert sorted(p.name for p in other.iterdir()) == ["checkpoints", "config.json"]
    (tmp_path / "foreign" / "config.json").write_text(config)
    (tmp_path / "foreign" / "checkpoints" / "model_64.zip").write_bytes(b"not a zip")
    with pytest.raises(SystemExit, match="is not a MaskablePPO checkpoint"):
        train.main(common[:2] + ["--out", str(tmp_path / "foreign"), "--resume"] + common[4:])

    game = game_info("makemake", 2)
    agent = make_agent(str(out / "final.zip"), game)
    result = play_game(game, [agent, RandomAgent()], seed=0)  # raises on an illegal move
    assert result.decisions > 0


def test_training_defaults_are_per_game_and_can_be_overridden():
    from agents.training.train import GAME_DEFAULTS, parse_args
    for game in GAME_DEFAULTS:
        args = parse_args(["--game", game])
        assert args.lr == GAME_DEFAULTS[game]["lr"] and args.imitate == GAME_DEFAULTS[game]["imitate"]
    # Mauna Kea's learner is an action scorer that starts from the lookahead agent's play
    maunakea = parse_args(["--game", "maunakea"])
    assert (maunakea.policy, maunakea.teacher, maunakea.lr, maunakea.envs, maunakea.n_steps) == \
        ("scorer", "lookahead", 3e-4, 64, 32)
    mlp = parse_args(["--game", "maunakea", "--lr", "1e-3", "--policy", "mlp"])
    assert (mlp.lr, mlp.envs, mlp.n_steps) == (1e-3, 256, 8)
    # Maka Bana's pool leans on the heuristic and its learning rate decays; the others' do not
    makabana = parse_args(["--game", "makabana"])
    assert (makabana.opponents, makabana.baseline_share) == ("random,heuristic,heuristic,heuristic", 0.75)
    assert (makabana.lr, makabana.lr_end) == (1e-4, 1e-5)
    makemake = parse_args(["--game", "makemake"])
    assert (makemake.opponents, makemake.baseline_share, makemake.lr_end) == ("random,heuristic", 0.5, None)
    assert (makemake.policy, makemake.teacher) == ("mlp", "heuristic")
    overridden = parse_args(["--game", "makabana", "--opponents", "random", "--baseline-share", "1"])
    assert (overridden.opponents, overridden.baseline_share) == ("random", 1.0)
    # games at once x steps per game: Maka Bana's batched run sees fewer games for longer
    assert (makabana.envs, makabana.n_steps) == (64, 32)
    assert (makemake.envs, makemake.n_steps) == (256, 8)
    old_path = parse_args(["--game", "makabana", "--vec-env", "dummy"])
    assert (old_path.envs, old_path.n_steps) == (32, 64)
    assert parse_args(["--game", "makabana", "--envs", "128"]).envs == 128


@pytest.mark.parametrize("args,message", [
    (["--gamma", "1.5"], "--gamma must be in [0, 1], got 1.5"),
    (["--ent-coef", "-1"], "--ent-coef must be a non-negative number, got -1.0"),
    (["--lr", "0"], "--lr must be in (0, 1), got 0.0"),
    (["--lr", "nan"], "--lr must be in (0, 1), got nan"),
    (["--lr-end", "-1"], "--lr-end must be in [0, 1), got -1.0"),
    (["--imitate-lr", "0"], "--imitate-lr must be in (0, 1), got 0.0"),
    (["--shaping", "-2"], "--shaping must be a non-negative number, got -2.0"),
    (["--baseline-share", "2"], "--baseline-share must be in [0, 1], got 2.0"),
    # these failed only after the imitation phase, or deep in the first update or in sb3's seeding
    (["--opponents", "random,nonsense"], "--opponents: unknown agent 'nonsense'"),
    (["--opponents", ","], "--opponents: name at least one agent"),
    # an empty name was dropped, and config.json kept the list as typed; a teacher unused with --imitate 0
    # was recorded there unchecked
    (["--opponents", "random,,heuristic"], "--opponents 'random,,heuristic' has an empty name between commas"),
    (["--imitate", "0", "--teacher", "bogus"], "--teacher: unknown agent 'bogus'"),
    (["--seed", "5000000000"], "--seed must be an integer from 0 to 4294967295, got 5000000000"),
    (["--batch-size", "1"], "--batch-size must be at least 2, got 1"),
    (["--envs", "100000000"], "--envs must be at most 65536, got 100000000"),
    # torch could not allocate the first, and overflowed its C int on the second after a rollout
    (["--net", "1000000000000"], "--net must be at most 4096, got 1000000000000"),
    (["--update-threads", "99999999999999999999"], "--update-threads must be at most 256, got 9999"),
    (["--out", __file__], "is a file; name a folder"),
    (["--out", ""], "--out is empty"),   # was the default folder
    # NaN in the first update; an allocation of 849 TiB; a traceback after training, no curve written
    (["--envs", "3", "--n-steps", "1", "--batch-size", "2"], "leaves a last minibatch of one step"),
    (["--envs", "1", "--n-steps", "1"], "(1 x 1 = 1 learner steps a rollout) leaves a last minibatch"),
    (["--envs", "65536"], "--envs x --n-steps is the rollout's learner steps, at most 262,144; got 65536 x 8"),
    (["--eval-games", "100000000"], "--eval-games must be at most 100,000, got 100000000"),
    (["--final-games", "1000000000"], "--final-games must be at most 100,000, got 1000000000"),
    (["--timesteps", "١٠٠"], "argument --timesteps: must be an integer, written in the digits 0-9"),
    (["--players", " 2 "], "argument --players: must be an integer, written in the digits 0-9"),
])
def test_the_main_jobs_numbers_are_checked_before_any_work(args, message, capsys):
    """A discount above 1 or a negative entropy bonus trained without a word, and a negative shaping
    failed with a traceback once the games were built: each is now a usage error, at once."""
    pytest.importorskip("sb3_contrib")
    from agents.training import train

    with pytest.raises(SystemExit):
        train.parse_args(["--game", "makemake", *args])
    assert message in capsys.readouterr().err


def test_resume_skips_stray_pool_files_and_a_partial_last_csv_row(tmp_path, capsys):
    """A copy a user made in pool/ crashed the resume, and so did the partial last row an interrupted
    write of progress.csv leaves; a damaged row before the last is refused, named."""
    import zipfile

    from agents.training import train

    out = tmp_path / "run"
    args = train.parse_args(["--game", "makemake", "--out", str(out), "--resume"])
    (out / "checkpoints").mkdir(parents=True)
    with zipfile.ZipFile(out / "checkpoints" / "model_000000128.zip", "w") as archive:
        archive.writestr("data", "{}")
        archive.writestr("policy.pth", "")
    (out / "config.json").write_text(json.dumps({k: str(v) if k == "out" else v for k, v in vars(args).items()}))
    (out / "pool").mkdir()
    for name in ("snapshot_000000064.npz", "snapshot_000000064 (copy).npz", "snapshot_000000192.npz"):
        np.savez(out / "pool" / name, w0=np.zeros((2, 2)), b0=np.zeros(2))
    header = ",".join(train.CSV_FIELDS)
    csv_path = out / "progress.csv"

    csv_path.write_text(f"{header}\n64,1.2,0.5,0.0,1\n128,1\n")
    _, steps, snapshots, rows, seconds = train._start_point(args, out, out / "config.json", csv_path)
    assert steps == 128 and [p.name for p in snapshots] == ["snapshot_000000064.npz"]
    assert [r["timesteps"] for r in rows] == ["64"] and seconds == 1.2
    err = capsys.readouterr().err
    assert "(copy).npz is not named snapshot_<steps>.npz" in err and "line 3" in err

    csv_path.write_text(f"{header}\n64,1.2\n128,2.5,0.5,0.0,1\n")
    with pytest.raises(SystemExit, match=r"progress.csv, line 2, is not a row of timesteps,seconds"):
        train._start_point(args, out, out / "config.json", csv_path)
    csv_path.write_text(f"{header}\n64,1.2,0.5,0.0,1\n")
    whole = (out / "pool" / "snapshot_000000064.npz").read_bytes()
    (out / "pool" / "snapshot_000000064.npz").write_bytes(whole[:50])   # a copy cut short: a traceback at its first game
    with pytest.raises(SystemExit, match=r"snapshot_000000064.npz, an opponent of the pool, is damaged"):
        train._start_point(args, out, out / "config.json", csv_path)
    (out / "pool" / "snapshot_000000064.npz").write_bytes(whole)
    # the newest checkpoint cut short: the message names the one before, which checkpoint() kept
    newest = out / "checkpoints" / "model_000000128.zip"
    kept = newest.read_bytes()
    (out / "checkpoints" / "model_000000064.zip").write_bytes(kept)
    newest.write_bytes(b"PK")
    with pytest.raises(SystemExit, match=r"remove it to resume from model_000000064.zip, the one before"):
        train._start_point(args, out, out / "config.json", csv_path)
    (out / "checkpoints" / "model_000000064.zip").unlink()
    newest.write_bytes(kept)
    # nothing to train: refused, and config.json is not rewritten to say --timesteps 64
    config = (out / "config.json").read_text()
    short = train.parse_args(["--game", "makemake", "--out", str(out), "--resume", "--timesteps", "64"])
    with pytest.raises(SystemExit, match=r"the run is at 128 steps, past --timesteps 64; give at least 128"):
        train._start_point(short, out, out / "config.json", csv_path)
    assert (out / "config.json").read_text() == config
    # the run's own --timesteps, which its last checkpoint went past (steps come --envs at a time), resumes
    (out / "config.json").write_text(json.dumps(dict(json.loads(config), timesteps=100)))
    own = train.parse_args(["--game", "makemake", "--out", str(out), "--resume", "--timesteps", "100"])
    assert train._start_point(own, out, out / "config.json", csv_path)[1] == 128
    # any other --timesteps short of the steps trained resumed and trained nothing (the guard read the
    # smaller of the two), and config.json then said --timesteps 120 of a run at 128 steps
    (out / "config.json").write_text(json.dumps(dict(json.loads(config), timesteps=100)))
    other = train.parse_args(["--game", "makemake", "--out", str(out), "--resume", "--timesteps", "120"])
    with pytest.raises(SystemExit, match=r"the run is at 128 steps, past --timesteps 120"):
        train._start_point(other, out, out / "config.json", csv_path)
    # a run that ended before its first checkpoint (fewer --timesteps than --eval-every) was overwritten
    # by a fresh start into its folder, final policy and all
    ended = tmp_path / "ended"
    ended.mkdir()
    (ended / "config.json").write_text(config)
    fresh = train.parse_args(["--game", "makemake", "--out", str(ended)])
    with pytest.raises(SystemExit, match=r"already holds a run \(its config.json\), which has no checkpoint"):
        train._start_point(fresh, ended, ended / "config.json", ended / "progress.csv")
    assert (ended / "config.json").read_text() == config


def test_timesteps_short_of_a_rollout_are_said_to_train_the_whole_rollout(capsys):
    from agents.training import train

    train.parse_args(["--game", "makemake", "--timesteps", "1", "--envs", "4", "--n-steps", "8"])
    assert "--timesteps 1 trains 32" in capsys.readouterr().err
    train.parse_args(["--game", "makemake", "--timesteps", "64", "--envs", "4", "--n-steps", "8"])
    assert "note" not in capsys.readouterr().err


def test_training_speed_checks_its_own_options(capsys):
    """--envs past agents.train's bound was refused by agents.train's parser, with its usage line."""
    from benchmarks import training_speed

    for option, message in (("--envs", "--envs must be at most 65536"),
                            ("--update-threads", "--update-threads must be at most 256")):
        with pytest.raises(SystemExit):
            training_speed.main([option, "99999999999", "--games", "makemake"])
        err = capsys.readouterr().err
        assert message in err and "[--quick]" in err and "--vec-env" not in err
    # a game named twice was measured twice, its rows mixed under one repeat number
    with pytest.raises(SystemExit):
        training_speed.main(["--quick", "--games", "makemake,makemake"])
    assert "--games 'makemake,makemake' names makemake twice" in capsys.readouterr().err


def test_update_threads(tmp_path, monkeypatch, capsys):
    """PPO's update runs on ``--update-threads`` torch threads, the rollouts (every step of the training
    games) on one; the option takes positive integers only."""
    import torch
    from sb3_contrib import MaskablePPO

    from agents.training import train
    from agents.training.batched import BatchedSelfPlayEnv

    assert train.parse_args(["--game", "makemake"]).update_threads == train.UPDATE_THREADS
    with pytest.raises(SystemExit):
        train.parse_args(["--game", "makemake", "--update-threads", "0"])
    assert "--update-threads must be a positive integer" in capsys.readouterr().err

    seen = {"step": set(), "update": set()}
    step_wait, update = BatchedSelfPlayEnv.step_wait, MaskablePPO.train

    def recorded_step_wait(self):
        seen["step"].add(torch.get_num_threads())
        return step_wait(self)

    def recorded_update(self):
        seen["update"].add(torch.get_num_threads())
        return update(self)

    monkeypatch.setattr(BatchedSelfPlayEnv, "step_wait", recorded_step_wait)
    monkeypatch.setattr(MaskablePPO, "train", recorded_update)
    train.main(["--game", "makemake", "--out", str(tmp_path / "run"), "--envs", "4", "--n-steps", "16",
                "--batch-size", "32", "--net", "16", "--eval-every", "64", "--eval-games", "2",
                "--final-games", "2", "--imitate", "0", "--timesteps", "128", "--update-threads", "2"])
    assert seen == {"step": {1}, "update": {2}}


def test_training_run_of_another_variant(tmp_path, capsys):
    """``--variant`` trains on that variant's spaces and says so in the run's files; a wrong name is a
    clear error naming the option."""
    from agents.training import train

    assert train.parse_args(["--game", "makabana", "--variant", "mao"]).out.name == "makabana-mao-2p-s0"
    assert train.parse_args(["--game", "makabana"]).out.name == "makabana-2p-s0"
    with pytest.raises(SystemExit):
        train.parse_args(["--game", "makabana", "--variant", "advanced"])
    assert "--variant" in capsys.readouterr().err

    out = tmp_path / "mao"
    train.main(["--game", "makabana", "--variant", "mao", "--out", str(out), "--envs", "2", "--n-steps", "64",
                "--batch-size", "64", "--net", "16", "--snapshot-every", "128", "--eval-every", "128",
                "--eval-games", "2", "--final-games", "2", "--imitate", "100", "--imitate-epochs", "1",
                "--timesteps", "128"])
    assert json.loads((out / "config.json").read_text())["variant"] == "mao"
    game = game_info("makabana", 2, "mao")
    agent = make_agent(str(out / "final.npz"), game)
    assert play_game(game, [agent, RandomAgent()], seed=0).decisions > 0
    with pytest.raises(ValueError, match="actions"):  # the Mao network does not fit the Haapii game
        make_agent(str(out / "final.npz"), game_info("makabana", 2))


@pytest.mark.parametrize("batched", [False, True])
def test_the_shaped_reward_counts_only_the_points_the_learner_can_see(batched):
    """Advanced rules, set-up: each player keeps his cards hidden during the game, and the task cards
    score only at the end.  The shaped reward followed every player's points, hidden task points
    included, and told the learner when an opponent's boat completed a task."""
    from agents.training.batched import BatchedSelfPlayEnv
    from maunakea_env import kernels as K

    def known_margins(states, seats):
        return np.array([K.score(s, p) - max(K.public_score(s, q) for q in range(2) if q != p)
                         for s, p in zip(states, seats)])

    options = dict(variant="advanced", opponents=["heuristic"], shaping=1.0, seed=3)
    if batched:
        env = BatchedSelfPlayEnv("maunakea", 4, 2, **options)
        env.reset()
        states, seats = (lambda: env.states), (lambda: env.seats)
    else:
        env = SelfPlayEnv("maunakea", 2, **options)
        env.reset(seed=3)
        states, seats = (lambda: env.state[None]), (lambda: [env.seat])
    rng = np.random.default_rng(0)
    before, hidden_points_seen = known_margins(states(), seats()), 0
    for _ in range(600):
        masks = np.atleast_2d(env.action_masks())
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        if batched:
            _, rewards, dones, _ = env.step(actions)
        else:
            _, reward, terminated, truncated, _ = env.step(int(actions[0]))
            rewards, dones = np.array([reward]), np.array([terminated or truncated])
            if dones[0]:
                env.reset()
        now = known_margins(states(), seats())
        running = ~dones
        assert np.allclose(rewards[running], (now - before)[running])
        hidden_points_seen += sum(K.task_points(s, 1 - p) > 0 for s, p in zip(states(), seats()))
        before = now
    assert hidden_points_seen   # opponents held task points that the reward would have shown


@pytest.mark.parametrize("batched", [False, True])
def test_an_illegal_action_ends_the_game_with_only_the_scores_the_learner_can_count(batched):
    """The game runs on after the learner's illegal action: its info's scores leave out the others'
    hidden task cards (advanced rules, set-up), as the observation does."""
    from agents.training.batched import BatchedSelfPlayEnv
    from maunakea_env import kernels as K

    options = dict(variant="advanced", opponents=["heuristic"], seed=3)
    env = BatchedSelfPlayEnv("maunakea", 1, 2, autoreset=False, **options) if batched else \
        SelfPlayEnv("maunakea", 2, **options)
    env.reset()
    rng = np.random.default_rng(0)
    state = (lambda: env.states[0]) if batched else (lambda: env.state)
    for _ in range(5000):   # until an opponent holds task points
        seat = int(env.seats[0]) if batched else env.seat
        if K.task_points(state(), 1 - seat):
            break
        mask = np.atleast_2d(env.action_masks())[0]
        action = int(rng.choice(np.flatnonzero(mask)))
        if env.step(np.array([action]))[2][0] if batched else any(env.step(action)[2:4]):
            env.reset()
    assert K.task_points(state(), 1 - seat)
    illegal = int(np.flatnonzero(~np.atleast_2d(env.action_masks())[0])[0])
    info = env.step(np.array([illegal]))[3][0] if batched else env.step(illegal)[4]
    assert info["illegal_action"]
    assert info["scores"] == [K.score(state(), seat) if p == seat else K.public_score(state(), p) for p in range(2)]
    assert info["scores"][1 - seat] < K.score(state(), 1 - seat)
