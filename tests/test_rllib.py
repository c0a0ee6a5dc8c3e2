"""Self-play on Ray RLlib (``agents.training.train_rllib``): what the environments promise RLlib (pickling,
identical spaces, seeding), the masked policy network, the self-play mapping, and a tiny training run
on a local Ray instance whose checkpoint then plays full games through the registry.

The environment and option tests need nothing more than the package; the rest needs the distributed extra
(``pip install -e ".[distributed]"``) and is skipped without it.
"""
import csv
import pickle
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from agents.arena.match import play_game
from agents.baselines.random_agent import RandomAgent
from agents.games import GAMES, game_info
from agents.learned.rllib_agent import is_rllib_checkpoint
from agents.registry import make_agent

NO_EXTRA = "the distributed extra is not installed: pip install -e '.[distributed]'"
SETTINGS = [("makabana", 2, None), ("makabana", 2, "mao"), ("makemake", 2, None), ("maunakea", 2, None),
            ("maunakea", 3, "advanced")]


@pytest.fixture
def rllib():
    return pytest.importorskip("ray.rllib", reason=NO_EXTRA)


def make(game, players, variant):
    options = {"num_players": players} if variant is None else {"num_players": players, "variant": variant}
    return GAMES[game].package.env(**options)


def random_positions(game, players, variant, count, seed=0):
    """``count`` (observation, mask) pairs met in random games, from every seat."""
    env, rng, found = make(game, players, variant), np.random.default_rng(seed), []
    env.reset(seed=seed)
    while len(found) < count:
        for agent in env.agent_iter():
            obs, _, termination, truncation, _ = env.last()
            if termination or truncation:
                env.step(None)
                continue
            found.append((obs["observation"], obs["action_mask"]))
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        env.reset()
    return found[:count]


def run_to_end(env, seed, steps):
    """Play ``steps`` random moves (fewer if the game ends) and return the observations seen."""
    rng, seen = np.random.default_rng(seed), []
    for _ in range(steps):
        obs, _, termination, truncation, _ = env.last()
        if termination or truncation:
            break
        seen.append(obs["observation"].copy())
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return seen


# ---------------------------------------------------------------------------------------------------
# What RLlib needs from the environments (no Ray needed)
@pytest.mark.parametrize("game,players,variant", SETTINGS)
def test_pickled_environment_continues_the_same_game(game, players, variant):
    """RLlib ships environments and their creators between processes and nodes: a pickled game must
    carry on exactly as the original, and share no buffers with it."""
    env = make(game, players, variant)
    env.reset(seed=7)
    run_to_end(env, 0, 10)
    copy = pickle.loads(pickle.dumps(env))
    assert copy.agent_selection == env.agent_selection
    assert np.array_equal(copy.unwrapped.state(), env.unwrapped.state())
    assert [o.tolist() for o in run_to_end(copy, 1, 30)] == [o.tolist() for o in run_to_end(env, 1, 30)]
    copy.reset(seed=8)
    assert not np.array_equal(copy.unwrapped.state(), env.unwrapped.state())


@pytest.mark.parametrize("game,players,variant", SETTINGS)
def test_every_agent_has_the_same_spaces(game, players, variant):
    """One shared policy plays every seat: every agent must see the same spaces, also as dicts."""
    env = make(game, players, variant)
    env.reset(seed=0)
    agents = env.possible_agents
    assert agents == [f"player_{i}" for i in range(players)]
    raw = env.unwrapped
    assert set(raw.observation_spaces) == set(raw.action_spaces) == set(agents)
    for agent in agents:
        assert env.observation_space(agent) == env.observation_space(agents[0]) == raw.observation_spaces[agent]
        assert env.action_space(agent) == env.action_space(agents[0]) == raw.action_spaces[agent]
    obs = env.observe(env.agent_selection)
    assert env.observation_space(agents[0]).contains(obs)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_reset_seed_fixes_the_games_of_a_runner(game):
    """RLlib seeds each env runner's environment once (seed + runner index) and then resets it
    without a seed: the sequence of games must follow from that one seed and differ between runners.
    Maka Bana and Make Make have no chance, so there only the game's generator differs; in Mauna Kea
    the tiles drawn do too."""
    def games(seed, count=3):
        env = make(game, 2, None)
        env.reset(seed=seed)
        starts, seen = [], []
        for _ in range(count):
            starts.append(env.unwrapped.state().tolist())
            seen.append([o.tolist() for o in run_to_end(env, 0, 20)])
            env.reset()
        return starts, seen

    assert games(1) == games(1)
    (starts_1, seen_1), (starts_2, seen_2) = games(1), games(2)
    assert all(a != b for a, b in zip(starts_1, starts_2))
    assert len({str(s) for s in starts_1}) == 3  # every unseeded reset starts a new game
    if game == "maunakea":
        assert seen_1 != seen_2


# ---------------------------------------------------------------------------------------------------
# RLlib's side: the wrapper, the masked network, the mapping
def test_pettingzoo_wrapper_plays_a_seeded_game(rllib):
    from agents.training.train_rllib import make_env

    def game(seed):
        env = make_env({"game": "maunakea", "num_players": 2, "variant": None})  # a game with chance
        obs, _ = env.reset(seed=seed)
        rng, trace = np.random.default_rng(0), []
        while True:
            (agent, o), = obs.items()  # one player acts at a time
            trace.append((agent, o["observation"].tolist()))
            action = int(rng.choice(np.flatnonzero(o["action_mask"])))
            obs, rewards, terminated, truncated, _ = env.step({agent: action})
            if terminated["__all__"] or truncated["__all__"]:
                assert set(rewards) == {"player_0", "player_1"}  # every seat hears how the game ended
                return trace

    assert game(3) == game(3)
    assert game(3) != game(4)


@pytest.mark.parametrize("game,players,variant", [("makemake", 2, None), ("makabana", 2, "mao"),
                                                  ("maunakea", 2, None)])
def test_masked_module_never_samples_an_illegal_action(rllib, game, players, variant):
    import torch
    from ray.rllib.core.columns import Columns
    from ray.rllib.core.rl_module.default_model_config import DefaultModelConfig

    from agents.learned.rllib_module import MaskedPPOTorchRLModule

    env = make(game, players, variant)
    agent = env.possible_agents[0]
    torch.manual_seed(0)
    module = MaskedPPOTorchRLModule(observation_space=env.observation_space(agent),
                                    action_space=env.action_space(agent),
                                    model_config=DefaultModelConfig(fcnet_hiddens=[32, 32]))
    positions = random_positions(game, players, variant, 40)
    observations = torch.as_tensor(np.stack([o for o, _ in positions]))
    masks = torch.as_tensor(np.stack([m for _, m in positions]))
    batch = {Columns.OBS: {"observation": observations, "action_mask": masks}}

    with torch.no_grad():
        logits = module.forward_exploration(batch)[Columns.ACTION_DIST_INPUTS]
        distribution = module.get_exploration_action_dist_cls().from_logits(logits)
        samples = torch.stack([distribution.sample() for _ in range(200)])      # 200 draws per position
        assert masks.gather(1, samples.T).bool().all()
        greedy = module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS].argmax(-1)
        assert masks.gather(1, greedy[:, None]).bool().all()
        trained = module.forward_train(batch)[Columns.ACTION_DIST_INPUTS]
        assert (trained[~masks.bool()] == torch.finfo(trained.dtype).min).all()
        values = module.compute_values(batch)
    assert values.shape == (len(positions),)
    assert isinstance(batch[Columns.OBS], dict)  # the learner reads the same batch again
    for observation, mask in positions[:5]:
        assert mask[module.greedy_action(observation, mask)]


def test_masked_module_rejects_observations_without_a_mask(rllib):
    import gymnasium

    from agents.learned.rllib_module import MaskedPPOTorchRLModule

    with pytest.raises(ValueError, match="action_mask"):
        MaskedPPOTorchRLModule(observation_space=gymnasium.spaces.Box(0, 1, (4,)),
                               action_space=gymnasium.spaces.Discrete(3))


class Episode:
    def __init__(self, id_):
        self.id_ = id_


def test_self_play_mapping_puts_main_in_one_seat_at_least(rllib):
    from agents.training.train_rllib import SelfPlayMapping

    mapping = SelfPlayMapping(num_players=3, snapshots=2, self_share=0.0)
    seen = set()
    for k in range(200):
        episode = Episode(f"episode-{k}")
        seats = [mapping(f"player_{p}", episode) for p in range(3)]
        assert seats == [mapping(f"player_{p}", episode) for p in reversed(range(3))][::-1]  # any order
        assert seats.count("main") == 1  # self_share 0: the learner against snapshots only
        seen.update((p, m) for p, m in enumerate(seats))
    assert {m for _, m in seen} == {"main", "snapshot_0", "snapshot_1"}
    assert {p for p, m in seen if m == "main"} == {0, 1, 2}
    everyone = SelfPlayMapping(num_players=2, snapshots=1, self_share=1.0)
    assert {everyone(f"player_{p}", Episode(f"e{k}")) for p in range(2) for k in range(20)} == {"main"}


def test_bad_options_are_clear_errors(rllib, capsys):
    from agents.training.train_rllib import parse_args

    for argv, message in [(["--game", "makemake", "--players", "9"], "num_players"),
                          (["--game", "makemake", "--iterations", "0"], "--iterations"),
                          (["--game", "makemake", "--self-share", "2"], "--self-share"),
                          (["--game", "makemake", "--minibatch-size", "900", "--train-batch-size", "100"],
                           "--minibatch-size"),
                          (["--game", "makemake", "--address", "nowhere"], "--address"),
                          # the evaluation's and the output's problems, found before training, not after
                          (["--game", "makemake", "--eval-opponents", "heuristc"], "--eval-opponents: unknown agent"),
                          (["--game", "makemake", "--players", "3", "--eval-opponents", "random"],
                           "--eval-opponents: 3 players need 2 opponents"),
                          (["--game", "makemake", "--out", str(Path(__file__))], "is a file; name a folder")]:
        with pytest.raises(SystemExit):
            parse_args(argv)
        assert message in capsys.readouterr().err


@pytest.mark.parametrize("argv,message", [
    (["--hidden", "99999999999"], "--hidden must be at most 4,096"),
    (["--num-env-runners", "100000"], "--num-env-runners must be at most 1,024"),
    (["--learner-threads", "100000"], "--learner-threads must be at most 256"),
    (["--envs-per-runner", "100000000"], "--envs-per-runner must be at most 65,536"),
    (["--train-batch-size", "99999999999"], "--train-batch-size must be at most 4,194,304"),
    (["--eval-games", "99999999999"], "--eval-games must be at most 1,000,000"),
    (["--iterations", "٣"], "argument --iterations: must be an integer, written in the digits 0-9"),
    (["--address", ":"], "--address takes 'auto', 'HOST:PORT'"),
    (["--address", "ray://:10001"], "--address takes 'auto', 'HOST:PORT'"),
    (["--address", "127.0.0.1:99999"], "--address takes a port from 1 to 65535"),
    (["--address", "ray://[::1]:0"], "--address takes a port from 1 to 65535"),
    (["--players", "1"], "--players: num_players must be"),
    (["--variant", "bogus"], "--variant: variant must be one of"),
    (["--out", ""], "--out is empty"),
])
def test_numbers_addresses_and_folders_no_run_could_use_are_refused(argv, message, capsys):
    """Each was accepted, to fail in Ray or torch once started, or ran out of memory."""
    from agents.training.train_rllib import parse_args

    with pytest.raises(SystemExit):
        parse_args(["--game", "makemake", *argv])
    assert message in capsys.readouterr().err


def test_another_jobs_folder_is_refused(tmp_path, capsys):
    from agents.training.train_rllib import parse_args

    (tmp_path / "config.json").write_text("{}")   # an agents.train run
    with pytest.raises(SystemExit):
        parse_args(["--game", "makemake", "--out", str(tmp_path)])
    assert "holds another job's run (config.json, agents.train's); choose another --out" in capsys.readouterr().err
    for address in ("ray://head.example:10001", "ray://head.example", "10.0.0.1:6379", "[::1]:6379", "auto"):
        assert parse_args(["--game", "makemake", "--address", address,
                           "--out", str(tmp_path / "new")]).address == address


@pytest.mark.parametrize("form", ["{host}:{port}", "ray://{host}:{port}", "ray://[::1]"])
def test_an_address_where_nothing_answers_is_one_line_not_an_endless_wait(form):
    """``--address 127.0.0.1:1`` made Ray try the GCS there again and again (still at it after 280 s),
    and ``ray://127.0.0.1:1`` was a ConnectionError traceback: nothing listening is said at once."""
    import socket

    from agents.training.train_rllib import init_ray

    with socket.socket() as probe:   # a port just freed: nothing listens there
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    address = form.format(host="127.0.0.1", port=port)
    with pytest.raises(SystemExit, match=r"--address .*: nothing answers at .*; start a Ray cluster there"):
        init_ray(address, 1)


def test_seed_leaves_room_for_every_env_runner(capsys, tmp_path):
    """RLlib seeds numpy's global generator in runner i with seed + i, which must stay below 2**32:
    a seed past that failed inside Ray after the run's folder was written, so it is refused here."""
    from agents.training.train_rllib import parse_args

    base = ["--game", "makemake", "--out", str(tmp_path / "run")]
    top = 2**32 - 1
    assert parse_args(base + ["--seed", str(top), "--num-env-runners", "0"]).seed == top
    assert parse_args(base + ["--seed", str(top - 3), "--num-env-runners", "3"]).seed == top - 3
    for argv, message in [(["--seed", str(2**32), "--num-env-runners", "0"],
                           f"argument --seed: must be an integer from 0 to {top}"),
                          (["--seed", "-1"], f"argument --seed: must be an integer from 0 to {top}"),
                          (["--seed", str(top), "--num-env-runners", "1"],
                           f"--seed {top} is too large with --num-env-runners 1: runner i uses seed + i, at most {top}, "
                           f"so --seed must be at most {top - 1}"),
                          (["--seed", str(top - 2), "--num-env-runners", "3"], f"at most {top - 3}")]:
        with pytest.raises(SystemExit):
            parse_args(base + argv)
        assert message in capsys.readouterr().err
    assert not (tmp_path / "run").exists()  # nothing is written while options are checked


@pytest.mark.parametrize("value", ["inf", "-inf", "nan", "0", "-1e-3"])
def test_learning_rate_must_be_finite_and_positive(capsys, value):
    """An infinite or NaN --lr passed PPO's setup and failed an iteration later on NaN probabilities."""
    from agents.training.train_rllib import parse_args

    with pytest.raises(SystemExit):
        parse_args(["--game", "makemake", f"--lr={value}"])
    assert "--lr must be a finite positive number, got" in capsys.readouterr().err


@pytest.mark.parametrize("value", ["nan", "inf", "-0.1", "1.5"])
def test_self_share_must_be_a_share(capsys, value):
    from agents.training.train_rllib import parse_args

    with pytest.raises(SystemExit):
        parse_args(["--game", "makemake", f"--self-share={value}"])
    assert "--self-share must be between 0 and 1, got" in capsys.readouterr().err


@pytest.mark.parametrize("game,players,expected", [
    ("makemake", 2, ["random", "heuristic"]), ("makemake", 3, ["random", "heuristic"]),
    ("makabana", 4, ["random", "heuristic", "random"]),
    ("maunakea", 4, ["random", "heuristic", "random"]),
    ("makabana", 5, ["random", "heuristic", "random", "heuristic"])])
def test_default_eval_opponents_fill_the_seats(tmp_path, game, players, expected):
    """The default opponents repeat to fill every seat but the checkpoint's; a list given that is too
    short is still refused (test_bad_options_are_clear_errors)."""
    from agents.training.train_rllib import parse_args

    args = parse_args(["--game", game, "--players", str(players), "--out", str(tmp_path / "run")])
    assert args.eval_opponents == expected
    given = parse_args(["--game", game, "--players", str(players), "--eval-opponents", "heuristic," * (players - 1),
                        "--out", str(tmp_path / "run")])
    assert given.eval_opponents == ["heuristic"] * (players - 1)


def test_every_documented_command_parses(monkeypatch, tmp_path):
    """The commands of docs/distributed.md, as a reader would paste them (K as 2)."""
    import re
    import shlex

    from agents.training.train_rllib import parse_args

    text = (Path(__file__).parents[1] / "docs/distributed.md").read_text()
    commands = re.findall(r"^python -m agents\.train_rllib (.*)$", text, re.M)
    assert len(commands) >= 3
    monkeypatch.chdir(tmp_path)  # the default --out is relative
    for command in commands:
        args = parse_args(shlex.split(command.partition("#")[0].replace(" K ", " 2 ")))
        assert len(args.eval_opponents) >= args.players - 1


def test_progress_line_before_any_game_has_ended():
    from agents.training.train_rllib import progress_line

    row = {"iteration": 1, "env_steps": 64, "env_steps_per_s": 160.0, "episode_len_mean": float("nan")}
    assert progress_line(row, 2) == "iteration 1/2: 64 env steps, 160.0 steps/s, no game finished in this iteration"
    assert progress_line(dict(row, episode_len_mean=35.5), 2).endswith("mean game 35.5 steps")


def test_rllib_env_pre_check_is_off(rllib, tmp_path):
    """Its unmasked random moves made the game warn of illegal moves at every start; the environment
    tests above check what it would."""
    from agents.training.train_rllib import build_config, parse_args

    args = parse_args(["--game", "maunakea", "--out", str(tmp_path / "run")])
    assert build_config(args).disable_env_checking is True


def test_missing_ray_is_a_clear_error(monkeypatch):
    import sys

    from agents.training.train_rllib import require_ray

    monkeypatch.setitem(sys.modules, "ray", None)  # as if the extra were not installed
    with pytest.raises(SystemExit, match=r"pip install -e \"\.\[distributed\]\""):
        require_ray()


def test_a_folder_that_is_no_checkpoint_is_refused(tmp_path):
    assert not is_rllib_checkpoint(tmp_path)
    with pytest.raises(ValueError, match="not an RLlib checkpoint"):
        make_agent(str(tmp_path), game_info("makemake", 2))


# ---------------------------------------------------------------------------------------------------
# A tiny training run, its checkpoint as an agent
@pytest.fixture
def local_ray(rllib):
    import ray

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


def test_tiny_training_run_gives_a_checkpoint_that_plays_legal_moves(local_ray, tmp_path):
    """Two iterations of a small batch with one env runner (a separate process: the environment, the
    mapping and the snapshot weights all cross to it), then the checkpoint plays through the registry
    and the tournament.  One test, so that a parallel test run trains only once."""
    import torch
    from ray.rllib.core.rl_module.rl_module import RLModule

    from agents.arena.tournament import run_tournament
    from agents.training.train_rllib import parse_args, train

    args = parse_args(["--game", "makemake", "--players", "2", "--num-env-runners", "1", "--iterations", "2",
                       "--train-batch-size", "200", "--minibatch-size", "100", "--epochs", "1",
                       "--hidden", "32", "--snapshots", "2", "--snapshot-every", "1",
                       "--checkpoint-every", "1", "--eval-games", "0", "--out", str(tmp_path / "run")])
    final = train(args, log=lambda line: None)

    assert is_rllib_checkpoint(final) and is_rllib_checkpoint(tmp_path / "run/checkpoints/iter_0001")
    with open(tmp_path / "run/progress.csv") as handle:
        rows = list(csv.DictReader(handle))
    assert [int(r["iteration"]) for r in rows] == [1, 2]
    assert float(rows[-1]["env_steps"]) >= 400 and rows[-1]["snapshots_taken"] == "2"

    # snapshot_1 was taken after the last iteration, snapshot_0 one iteration earlier: frozen since
    modules = final / "learner_group/learner/rl_module"
    weights = {m: RLModule.from_checkpoint(modules / m).state_dict() for m in ("main", "snapshot_0", "snapshot_1")}
    assert all(torch.equal(weights["main"][k], weights["snapshot_1"][k]) for k in weights["main"])
    assert not all(torch.equal(weights["main"][k], weights["snapshot_0"][k]) for k in weights["main"])

    game = game_info("makemake", 2)
    agent = make_agent(str(final), game)
    assert agent.name == "final"
    for seed in range(3):  # play_game raises IllegalActionError on any move the mask did not offer
        for seats in ([agent, RandomAgent()], [RandomAgent(), agent]):
            result = play_game(game, seats, seed=seed)
            assert result.decisions > 0
    snapshot = make_agent(str(modules / "snapshot_0"), game)
    assert play_game(game, [snapshot, agent], seed=0).decisions > 0
    with pytest.raises(ValueError, match="was trained on observations"):
        make_agent(str(final), game_info("makabana", 2))

    report = run_tournament("makemake", 2, [str(final), "random"], games=4, seed=0, workers=1)
    assert set(report["agents"]) == {"final", "random"} and report["agents"]["final"]["games"] == 4

    # loaded in a process of its own, the checkpoint says nothing of Ray's deprecated RLModuleConfig
    root = Path(__file__).resolve().parents[1]
    load = subprocess.run([sys.executable, "-c", "import agents; agents.make_agent(" + repr(str(final)) +
                           ", agents.game_info('makemake', 2)); print('loaded')"], cwd=root,
                          capture_output=True, text=True, timeout=300)
    assert load.stdout.strip() == "loaded" and "RLModuleConfig" not in load.stderr, load.stderr
    # a second run into the same folder mixed its checkpoints with the first's
    with pytest.raises(SystemExit):
        parse_args(["--game", "makemake", "--out", str(tmp_path / "run")])
