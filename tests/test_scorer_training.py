"""Issue 21, item 5: Mauna Kea's learner as an action scorer (``--policy scorer``).

``ScorerFeaturesEnv`` shows the learner what ``ScorerAgent`` reads (its candidates and their
``action_features``, then the observation for the value network); ``ScorerPolicy`` is MaskablePPO's
policy whose actor is a scorer, saved as a scorer file; scorer snapshots play batched as
``ScorerAgent`` plays; and a tiny training run goes from the teacher's imitation to ``final.npz``.
"""
import maunakea_env.core  # noqa: F401  (agents.games reads <package>.core)
import numpy as np
import pytest

from agents.games import game_info
from agents.learned.scorer import ScorerAgent, is_scorer_file, save_scorer
from agents.search import maunakea as rules
from agents.training.batched import BatchedSelfPlayEnv, ScorerFeaturesEnv, ScorerNetwork

pytest.importorskip("sb3_contrib")

K = rules.NUM_ACTION_FEATURES


def random_scorer(seed=0, hidden=8):
    rng = np.random.default_rng(seed)
    return [(rng.normal(size=(hidden, K)), rng.normal(size=hidden)), (rng.normal(size=(1, hidden)), rng.normal(size=1))]


def features_of(game, state, player):
    mask = np.zeros(game.num_actions, np.int8)
    rules.search_mask(state.copy(), mask)
    out = np.zeros((game.num_actions, K))
    rules.action_features(state, player, mask, out)
    return mask, out


def candidate_actions(masks, rng):
    return np.array([rng.choice(np.flatnonzero(row)) for row in masks])


@pytest.mark.parametrize("variant", ["basic", "advanced"])
def test_the_learner_reads_its_candidates_features_and_observation(variant):
    game = game_info("maunakea", 2, variant, max_turns=6)
    env = ScorerFeaturesEnv(BatchedSelfPlayEnv(game, 3, opponents=["random", "heuristic"], seed=2))
    size = game.num_actions * K
    assert env.observation_space.shape == (size + game.obs_size,)
    obs, rng, ended = env.reset(), np.random.default_rng(2), 0
    for step in range(30):
        masks = env.action_masks()
        assert np.array_equal(masks, np.stack(env.env_method("action_masks")))   # what MaskablePPO asks
        for g in range(env.num_envs):
            mask, out = features_of(game, env.venv.states[g], int(env.venv.seats[g]))
            assert np.array_equal(masks[g], mask != 0), step         # the candidates: legal, pruned
            assert np.all(env.venv.masks[g][masks[g]])
            assert np.allclose(obs[g, :size].reshape(game.num_actions, K), out, atol=1e-5)
            assert np.array_equal(obs[g, size:], env.venv.observations[g])
        obs, _, dones, infos = env.step(candidate_actions(masks, rng))
        for g in np.flatnonzero(dones):
            ended += 1
            last = infos[g]["terminal_observation"]
            assert last.shape == (size + game.obs_size,) and not last[:size].any()   # no candidates left
    assert ended >= 2


def test_scorer_snapshots_play_batched_as_the_scorer_agent_plays(tmp_path):
    # the batched opponent loop plays a scorer with one feature call over its games, greedily
    from test_batched_selfplay import play_both
    path = save_scorer(tmp_path / "snapshot_1.npz", "maunakea", random_scorer(3))
    assert play_both("maunakea", 2, [str(path)], 50, num_envs=3) >= 0
    game = game_info("maunakea", 2)
    network, agent = ScorerNetwork.load(path, game), ScorerAgent.load(path, game)
    env = ScorerFeaturesEnv(BatchedSelfPlayEnv(game, 6, opponents=["random"], seed=1))
    obs, rng = env.reset(), np.random.default_rng(1)
    for _ in range(5):
        greedy = network.greedy(obs, env.action_masks())
        for g in range(env.num_envs):
            agent.reset(game, int(env.venv.seats[g]), 0)
            state = env.venv.states[g].copy()
            assert greedy[g] == agent.act(env.venv.observations[g], env.venv.masks[g], state)
        obs = env.step(candidate_actions(env.action_masks(), rng))[0]


def test_the_scorer_policy_is_the_scorer_file_it_saves(tmp_path):
    import torch
    from sb3_contrib import MaskablePPO

    from agents.learned.features import ScorerInputs, ScorerPolicy
    from agents.learned.network import save_snapshot
    from agents.learned.policy import load_policy

    game = game_info("maunakea", 2)
    env = ScorerFeaturesEnv(BatchedSelfPlayEnv(game, 4, opponents=["heuristic"], seed=0))
    inputs = dict(num_actions=game.num_actions, num_features=K, game="maunakea", variant="basic", hidden=8)
    model = MaskablePPO(ScorerPolicy, env, n_steps=8, batch_size=16, n_epochs=1, seed=0, device="cpu",
                        policy_kwargs=dict(net_arch=dict(pi=[], vf=[16]), features_extractor_class=ScorerInputs,
                                           features_extractor_kwargs=inputs))
    before = [p.detach().clone() for p in model.policy.mlp_extractor.scorer.parameters()]
    model.learn(32)
    assert any(not torch.equal(a, b) for a, b in zip(before, model.policy.mlp_extractor.scorer.parameters()))
    path = save_snapshot(model, tmp_path / "final.npz")
    assert is_scorer_file(path)
    agent = ScorerAgent.load(path, game)
    obs = env.reset()
    masks = env.action_masks()
    with torch.no_grad():
        logits = model.policy.get_distribution(torch.as_tensor(obs), action_masks=masks).distribution.logits
        mode = model.policy.get_distribution(torch.as_tensor(obs), action_masks=masks).mode().numpy()
    for g in range(env.num_envs):
        legal = np.flatnonzero(masks[g])
        rows = obs[g, :game.num_actions * K].reshape(game.num_actions, K)[legal]
        expected = agent.logits(rows.astype(np.float64))
        # the masked softmax's log-probabilities are the scorer's logits less a constant
        got = logits[g].numpy()[legal]
        assert np.allclose(got - got.max(), expected - expected.max(), atol=1e-4)
    assert np.array_equal(mode, ScorerNetwork.load(path, game).greedy(obs, masks))
    model.save(tmp_path / "final.zip")
    played = load_policy(tmp_path / "final.zip", game)   # agents.make_agent loads a .zip this way
    assert isinstance(played, ScorerAgent) and all(
        np.array_equal(a, b) for (a, _), (b, _) in zip(played.layers, agent.layers))
    with pytest.raises(ValueError, match="trained for maunakea"):
        load_policy(tmp_path / "final.zip", game_info("maunakea", 2, "advanced"))


def test_a_scorer_evaluation_computes_features_of_running_games_only():
    # evaluations (autoreset=False): a game that has ended gets no candidates and no features
    from agents.training.batched import evaluate, load_network

    game = game_info("maunakea", 2, max_turns=24)
    network = load_network("agents/shipped/maunakea-guide.npz", game)   # the 16 features the learner's env computes
    results = []
    for autoreset in (False, True):
        env = ScorerFeaturesEnv(BatchedSelfPlayEnv(game, 3, opponents=["heuristic"], seed=2, autoreset=autoreset,
                                                   first_seats=np.arange(3) % 2))
        observations, shares = env.reset(), np.full(3, np.nan)
        while np.isnan(shares).any():
            observations, _, dones, infos = env.step(network.greedy(observations, env.action_masks()))
            for g in np.flatnonzero(dones & np.isnan(shares)):
                shares[g] = infos[g]["win_share"]
            over = env.venv.over
            assert not env.action_masks()[over].any() and env.action_masks()[~over].any(axis=1).all()
            assert over.any() <= (not autoreset)
        results.append(shares)
    # the same games and results as each slot's first game with autoreset, and as evaluate's
    assert np.array_equal(results[0], results[1]) and evaluate(network, game, "heuristic", 3, 2) == results[0].mean()


def test_a_tiny_scorer_training_run(tmp_path, capsys):
    from agents.registry import make_agent
    from agents.training import train

    out = tmp_path / "run"
    train.main(["--game", "maunakea", "--policy", "scorer", "--out", str(out), "--envs", "2", "--n-steps", "16",
                "--batch-size", "32", "--net", "16", "--timesteps", "64", "--snapshot-every", "32",
                "--eval-every", "1000", "--eval-games", "1", "--final-games", "1", "--imitate", "40",
                "--imitate-epochs", "1", "--teacher", "heuristic"])
    text = capsys.readouterr().out
    assert "imitating 40 decisions of heuristic" in text and "the final policy against heuristic" in text
    assert is_scorer_file(out / "final.npz") and is_scorer_file(sorted((out / "pool").glob("*.npz"))[-1])
    assert isinstance(make_agent(str(out / "final.zip"), game_info("maunakea", 2)), ScorerAgent)


def test_a_teacher_that_is_no_agent_is_refused_before_training(capsys):
    from agents.training.train import parse_args
    with pytest.raises(SystemExit):
        parse_args(["--game", "makemake", "--teacher", "lookahead"])
    assert "--teacher: agent 'lookahead' plays maunakea only" in capsys.readouterr().err
    # with --imitate 0 too: config.json records the teacher, which was an agent of no use in this game
    with pytest.raises(SystemExit):
        parse_args(["--game", "makemake", "--teacher", "lookahead", "--imitate", "0"])
    assert "--teacher: agent 'lookahead' plays maunakea only" in capsys.readouterr().err
    assert parse_args(["--game", "makemake", "--teacher", "random", "--imitate", "0"]).imitate == 0


@pytest.mark.parametrize("argv", [["--game", "makabana", "--policy", "scorer"],
                                  ["--game", "maunakea", "--policy", "scorer", "--vec-env", "dummy"]])
def test_the_scorer_policy_is_refused_where_it_has_no_features(argv, capsys):
    from agents.training.train import parse_args
    with pytest.raises(SystemExit):
        parse_args(argv)
    assert "action features of a batch exist for maunakea only" in capsys.readouterr().err


def test_the_lookahead_agent_plays_the_best_one_step_margin():
    # the default teacher of Mauna Kea's scorer: one step of look-ahead with the search's evaluation
    import agents
    from agents.search.mcts import random_positions
    from maunakea_env import core as mk

    game = game_info("maunakea", 2)
    agent = agents.make_agent("lookahead", game)
    column = rules.ACTION_FEATURE_NAMES.index("margin after, less the best action's")
    for state in random_positions(game, 6, seed=4):
        player = int(mk.player_to_act(state))
        agent.reset(game, player, 0)
        mask, out = features_of(game, state, player)
        legal = np.flatnonzero(mask)
        expected = legal[np.argmax(out[legal, column])]
        full = np.zeros(game.num_actions, np.int8)
        mk.legal_action_mask(state, full)
        assert agent.act(np.zeros(game.obs_size, np.int8), full, state) == expected
    with pytest.raises(ValueError, match="plays maunakea only"):
        agents.make_agent("lookahead", game_info("makemake", 2))
