"""Expert iteration (``agents.training.expert_iteration``): a tiny round end to end, resuming, the fit
(it lowers its loss, and what it writes plays as it was fitted), and clear errors for bad options."""
import json

import numpy as np
import pytest

from agents.games import game_info
from agents.learned.network import SnapshotAgent, read_network, read_value, write_network
from agents.registry import shipped_path

pytest.importorskip("torch")
from agents.training import expert_iteration as exit_  # noqa: E402


def tiny(out, *more):
    return ["--game", "makemake", "--rounds", "1", "--games", "2", "--simulations", "12", "--gate-games", "2", "--gate-simulations", "8",
            "--measure-games", "0", "--workers", "1", "--out", str(out), *more]


def test_a_tiny_round_runs_and_resumes(tmp_path):
    """One round writes the self-play decisions, the fitted network, the gate's verdict and the
    state; ``--resume`` plays the next round and keeps the history."""
    out = tmp_path / "run"
    state = exit_.main(tiny(out), log=lambda *_: None)
    assert state["round"] == 1 and (out / "round-1.npz").is_file() and (out / "network-1.npz").is_file()
    assert (out / "curve.png").is_file()   # the gate's two win rates, drawn with --measure-games 0 too
    assert (out / "init.npz").read_bytes() == shipped_path(game_info("makemake", 2)).read_bytes()
    entry = state["history"][0]
    assert entry["loss_after"] < entry["loss_before"]
    assert 0 <= entry["gate_current"] <= 1 and entry["accepted"] == (entry["gate_fitted"] > entry["gate_current"])
    with np.load(out / "round-1.npz") as data:
        game = game_info("makemake", 2)
        assert data["observation"].shape[1:] == (game.obs_size,) and data["mask"].shape[1:] == (game.num_actions,)
        assert len(data["observation"]) == len(data["mask"]) == len(data["visits"]) == entry["decisions"] > 0
        # the search visits only legal actions, and each recorded decision was searched
        assert not (data["visits"] * (data["mask"] == 0)).any() and (data["visits"].sum(1) == 12).all()
        # every decision carries its player's result in the game, the value network's target
        assert len(data["outcome"]) == entry["decisions"] and set(data["outcome"]) <= {-1.0, 0.0, 1.0}
    current = SnapshotAgent.load(out / "current.npz", game)   # a network the search and the arena play
    expected = out / "network-1.npz" if entry["accepted"] else shipped_path(game)
    assert all(np.array_equal(a, b) for (a, _), (b, _) in zip(read_network(out / "current.npz")[0],
                                                              read_network(expected)[0]))
    assert current.layers[0][0].shape == (128, game.obs_size)
    # the value fitted to the round's outcomes is kept whatever the gate says of the policy
    value = read_value(out / "network-1.npz")
    assert [w.shape for w, _ in value] == [(64, game.obs_size), (1, 64)]
    assert all(np.array_equal(a, b) for (a, _), (b, _) in zip(current.value_layers, value))
    state = exit_.main(tiny(out, "--resume"), log=lambda *_: None)
    assert state["round"] == 2 and [h["round"] for h in state["history"]] == [1, 2]
    assert json.loads((out / "state.json").read_text())["round"] == 2
    assert (out / "progress.csv").read_text().count("\n") == 3
    with pytest.raises(SystemExit, match="holds a run of makemake"):
        exit_.main(["--game", "makemake", "--players", "3", "--out", str(out), "--resume"], log=lambda *_: None)
    # a resumed run goes on from its own network: another --init did nothing, without a word
    other = tmp_path / "other.npz"
    other.write_bytes((out / "network-1.npz").read_bytes())
    with pytest.raises(SystemExit, match="--init .*other.npz: the run in .* started from"):
        exit_.main(tiny(out, "--resume", "--init", str(other)), log=lambda *_: None)
    assert json.loads((out / "state.json").read_text())["round"] == 2   # and nothing was played
    # without --resume the run's networks and history would have been replaced
    with pytest.raises(SystemExit, match="already holds a run: pass --resume"):
        exit_.main(tiny(out), log=lambda *_: None)
    # what the next round reads is looked for before its self-play, not after
    import shutil
    broken = tmp_path / "broken"
    shutil.copytree(out, broken)
    (broken / "round-1.npz").unlink()
    with pytest.raises(SystemExit, match="round-1.npz, which the next round reads"):
        exit_.main(tiny(broken, "--resume"), log=lambda *_: None)
    for text, message in (("{not json", "cannot be read as an expert-iteration state"),
                          ('{"agents": {}}', "is not an expert-iteration state"), ("[1, 2]", "is not an")):
        (broken / "state.json").write_text(text)
        with pytest.raises(SystemExit, match=message):
            exit_.main(tiny(broken, "--resume"), log=lambda *_: None)
    with pytest.raises(SystemExit):
        exit_.parse_args(tiny(out / "state.json"))   # --out a file
    # a file cut short (an interrupted copy of current.npz) was a traceback, a round file's after a self-play
    (broken / "state.json").write_text((out / "state.json").read_text())
    shutil.copy(out / "round-1.npz", broken / "round-1.npz")
    for name in ("current.npz", "round-2.npz"):
        (broken / name).write_bytes((out / name).read_bytes()[:100])
        with pytest.raises(SystemExit, match=f"{name}, which the next round reads, is damaged"):
            exit_.main(tiny(broken, "--resume"), log=lambda *_: None)
        shutil.copy(out / name, broken / name)


def test_a_fixed_guide_leads_every_rounds_self_play(tmp_path, monkeypatch):
    """``--guide``: the self-play of every round is guided by that network, not by the current one,
    which the fits and the gate still carry forward."""
    guide = tmp_path / "guide.npz"
    guide.write_bytes(shipped_path(game_info("makemake", 2)).read_bytes())
    guides, self_play = [], exit_.self_play
    monkeypatch.setattr(exit_, "self_play", lambda game, network, *rest: guides.append(network) or self_play(
        game, network, *rest))
    out = tmp_path / "run"
    exit_.main(tiny(out, "--guide", str(guide)), log=lambda *_: None)
    assert guides == [guide]
    guides.clear()
    exit_.main(tiny(out, "--resume"), log=lambda *_: None)
    assert guides == [out / "current.npz"]


def test_labelled_games_record_the_searchs_labels_of_the_networks_own_moves(monkeypatch):
    """In a labelled game the network plays the heuristic, seats rotated: every move of the labelled
    seat is the network's, and what is recorded is the search's visits at those decisions."""
    game = game_info("makabana", 2)
    network = shipped_path(game)
    moves, seats = [], set()
    original = exit_.Recorder.act

    def act(self, observation, action_mask, state=None):
        action = original(self, observation, action_mask, state)
        moves.append((action, self.plays.act(observation, action_mask, state), self.search.last_visits))
        seats.add(self.player)
        return action

    monkeypatch.setattr(exit_.Recorder, "act", act)
    for index in (0, 1):
        moves.clear()
        seats = set()
        _, decisions = exit_._self_play_game(((game.name, 2, game.variant, game.max_turns), str(network), 12, False,
                                              (0, 1, index), True, 0.0))
        searched = [m for m in moves if m[2] is not None]
        assert len(decisions) == len(searched) > 10 and all(a == b for a, b, _ in moves)
        assert all(np.array_equal(d[2], v) for d, (_, _, v) in zip(decisions, searched))
        assert all(d[2].sum() == 12 for d in decisions) and seats == {index}
        # and the network's result in the game, the same at each of its decisions
        assert len({d[3] for d in decisions}) == 1 and decisions[0][3] in (-1.0, 0.0, 1.0)


def synthetic_decisions(game, n, seed=0):
    """Decisions where the 'search' visited mostly the legal action whose observation entry, read as
    a position in the legal list, says so: learnable from the observation."""
    rng = np.random.default_rng(seed)
    obs = rng.integers(0, 3, size=(n, game.obs_size)).astype(np.int8)
    mask = (rng.random((n, game.num_actions)) < 0.05).astype(np.int8)
    mask[:, :2] = 1
    visits = np.zeros((n, game.num_actions), np.int32)
    for i in range(n):
        legal = np.flatnonzero(mask[i])
        visits[i, legal] = 1
        visits[i, legal[obs[i, 0] % legal.size]] += 40
    return dict(observation=obs, mask=mask, visits=visits)


def test_the_network_fit_lowers_its_loss_and_plays_as_fitted(tmp_path):
    """Fitting lowers the cross-entropy to the visit shares; the file it writes, played by numpy, has
    the loss the fit computed (the torch forward pass is the snapshot's)."""
    game = game_info("makemake", 2)
    data = synthetic_decisions(game, 600)
    network = read_network(shipped_path(game))
    fitted, before, after = exit_.fit_network(network, data, epochs=3, lr=1e-3, seed=0, log=None)
    assert after < before - 0.1
    for net, loss in ((network, before), (fitted, after)):
        path = tmp_path / "net.npz"
        write_network(path, *net)
        agent = SnapshotAgent(*read_network(path))
        shares = data["visits"] / data["visits"].sum(1, keepdims=True)
        ce = [-(s[m > 0] * np.log(np.maximum(agent.action_probabilities(o, m)[m > 0], 1e-300))).sum()
              for o, m, s in zip(data["observation"], data["mask"], shares)]
        assert np.mean(ce) == pytest.approx(loss, rel=1e-3)


def test_the_value_fit_lowers_its_error_and_plays_as_fitted(tmp_path):
    """The value network learns the outcomes (here a function of the observation), and the file it
    writes, played by numpy (``SnapshotAgent.value``) and by the search's Numba pass, has the error
    the fit computed."""
    from agents.search.prior import pack_value, value as numba_value

    game = game_info("makemake", 2)
    data = synthetic_decisions(game, 600)
    data["outcome"] = np.where(data["observation"][:, :40].sum(1) > np.median(data["observation"][:, :40].sum(1)),
                               1.0, -1.0).astype(np.float32)
    network = read_network(shipped_path(game))
    value, before, after = exit_.fit_value(None, network, data, 16, seed=0, log=None)
    assert after < before - 0.1
    path = tmp_path / "net.npz"
    write_network(path, *network, value=value)
    agent = SnapshotAgent.load(path, game)
    values = np.array([agent.value(o) for o in data["observation"]])
    assert np.mean((values - data["outcome"]) ** 2) == pytest.approx(after, rel=1e-3)
    packed = pack_value(agent.value_layers, *agent.network_settings()[:2])
    np.testing.assert_allclose([numba_value(packed, o) for o in data["observation"][:50]], values[:50], atol=1e-4)


def test_the_scorer_fit_starts_from_the_current_scorer_and_lowers_its_loss():
    """Mauna Kea's action scorer is fitted from its own weights: the loss before is the current
    scorer's, and it falls."""
    from agents.learned.scorer import ScorerAgent
    from agents.training.distill import fit

    scorer = ScorerAgent.load(shipped_path(game_info("maunakea", 2)))
    rng = np.random.default_rng(1)
    sizes = rng.integers(2, 9, size=300)
    decision = np.repeat(np.arange(300), sizes)
    x = rng.normal(size=(len(decision), scorer.layers[0][0].shape[1])).astype(np.float32)
    visits = np.where(x[:, 0] > 1.0, 30.0, 1.0).astype(np.float32)
    losses = []
    layers = fit(x, visits, decision, None, 100, 1e-2, 0, log=None, init=scorer.layers, losses=losses)
    logits = scorer.logits(x.astype(np.float64))
    expected = np.mean([-(visits[decision == d] / visits[decision == d].sum()
                          * (logits[decision == d] - np.logaddexp.reduce(logits[decision == d]))).sum()
                        for d in range(300)])
    assert losses[0] == pytest.approx(expected, rel=1e-4) and losses[1] < losses[0] - 0.1
    assert [w.shape for w, _ in layers] == [w.shape for w, _ in scorer.layers]


@pytest.mark.parametrize("args,message", [
    (["--rounds", "0"], "--rounds must be a positive integer"),
    (["--temperature", "-1"], "--temperature must be in [0, 100), got -1.0"),
    (["--gate-simulations", "0"], "--gate-simulations must be a positive integer"),
    (["--simulations", "2000000"], "--simulations is at most 1000000, got 2000000"),   # the search's own limit
    (["--measure-simulations", "1000001"], "--measure-simulations is at most 1000000"),
    (["--init", "nowhere.npz"], "--init: no network at nowhere.npz"),
    (["--players", "7"], "--players: num_players must be"),
    (["--variant", "bogus"], "--variant: variant must be one of"),
    (["--rounds", "١"], "argument --rounds: must be an integer, written in the digits 0-9"),
    (["--seed", "1_0"], "argument --seed: must be an integer, written in the digits 0-9"),
    (["--seed", str(2 ** 63 - 1)], "--seed must be an integer from 0 to 2**63 - 2**32"),   # the gates' seeds ran past
    (["--out", ""], "--out is empty"),   # was the default folder
    (["--workers", "100000"], "--workers must be at most 1024"),
    (["--measure-games", "-1"], "--measure-games must be non-negative (0 for no measurement), got -1"),
    (["--measure-simulations", "0"], "--measure-simulations must be a positive integer, got 0"),
    (["--labelled-games", "-1"], "--labelled-games must be non-negative"),
    (["--value-mix", "1.5"], "--value-mix is a share of a leaf's value, in [0, 1]"),
    (["--value-width", "-1"], "--value-width must be from 0 (no value network) to 4096, got -1"),
    (["--value-width", "99999999999"], "--value-width must be from 0 (no value network) to 4096"),
    (["--guide", "nowhere.npz"], "--guide: no network at nowhere.npz"),
    (["--guide", "agents/shipped/maunakea.npz"], "must both be action scorers or both policy networks"),
    # was a traceback: the kind of the guide was asked before the guide was checked to be a network
    (["--guide", __file__], "--guide: " + repr(__file__) + " is not an agent file"),
])
def test_bad_options_are_refused_with_a_reason(args, message, capsys):
    with pytest.raises(SystemExit):
        exit_.parse_args(["--game", "makemake", *args])
    assert message in capsys.readouterr().err


@pytest.mark.parametrize("name,job", [("config.json", "agents.train's"), ("decisions.npz", "agents.distill's"),
                                      ("checkpoints", "agents.train's or agents.train_rllib's")])
def test_another_jobs_folder_is_refused(tmp_path, capsys, name, job):
    """Pointed at an agents.train run (with --resume or without), it wrote its networks there and would
    have replaced that run's progress.csv and curve.png after a round."""
    (tmp_path / name).write_text("{}")
    for resume in ([], ["--resume"]):
        with pytest.raises(SystemExit):
            exit_.parse_args(["--game", "makemake", "--out", str(tmp_path), *resume])
        assert f"holds another job's run ({name}, {job}); choose another --out" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]


def test_a_variant_takes_its_own_defaults_over_its_games():
    """Mao's rounds are smaller than Haapii's (its games are longer); the rest is Maka Bana's, and a
    given option still wins."""
    haapii = exit_.parse_args(["--game", "makabana"])
    mao = exit_.parse_args(["--game", "makabana", "--variant", "mao"])
    assert (haapii.rounds, haapii.games) == (exit_.GAME_DEFAULTS["makabana"]["rounds"],
                                             exit_.GAME_DEFAULTS["makabana"]["games"])
    assert (mao.rounds, mao.games) == (2, 32) and (mao.keep, mao.epochs) == (haapii.keep, haapii.epochs)
    assert exit_.parse_args(["--game", "makabana", "--variant", "mao", "--games", "5"]).games == 5


def test_the_targets_are_the_visits_sharpened_by_the_temperature():
    """Temperature 1: the visit shares; 0.5: squared; 0: the most visited action alone (the first of
    ties), for rows of a policy network and for an action scorer's candidates alike."""
    visits = np.array([[0, 4, 2, 4], [1, 0, 3, 0]])
    assert np.allclose(exit_.sharpen(visits, 1.0), visits / visits.max(1, keepdims=True))
    assert np.allclose(exit_.sharpen(visits, 0.5), (visits / visits.max(1, keepdims=True)) ** 2)
    assert exit_.sharpen(visits, 0).tolist() == [[0, 1, 0, 0], [0, 0, 1, 0]]
    flat, decision = np.array([4, 2, 4, 1, 3, 3]), np.array([0, 0, 0, 1, 1, 1])
    assert exit_.sharpen(flat, 0, decision).tolist() == [1, 0, 0, 0, 1, 0]
    assert np.allclose(exit_.sharpen(flat, 1.0, decision), [1, 0.5, 1, 1 / 3, 1, 1])


def test_keep_mixes_the_anchors_policy_into_the_targets():
    """With ``keep`` k the targets are (1 - k) * visit shares + k * the anchor's policy (the network's
    own when no anchor is given; a run's starting network, ``DIR/init.npz``): the loss before any
    step is that cross-entropy, computed here with the numpy player."""
    game = game_info("makemake", 2)
    data = synthetic_decisions(game, 50, seed=3)
    network = read_network(shipped_path(game))
    layers, *rest = network
    rng = np.random.default_rng(0)
    anchor = ([(w + rng.normal(0, 0.05, w.shape).astype(w.dtype), b) for w, b in layers], *rest)
    agent, anchor_agent = SnapshotAgent(*network), SnapshotAgent(*anchor)
    for given, keeper in ((None, agent), (anchor, anchor_agent)):
        _, before, _ = exit_.fit_network(network, data, epochs=0, lr=1e-3, seed=0, keep=0.3, anchor=given, log=None)
        expected = []
        for o, m, v in zip(data["observation"], data["mask"], data["visits"]):
            p = agent.action_probabilities(o, m)
            target = 0.7 * v / v.sum() + 0.3 * keeper.action_probabilities(o, m)
            expected.append(-(target[m > 0] * np.log(p[m > 0])).sum())
        assert before == pytest.approx(np.mean(expected), rel=1e-3)
    assert not np.allclose(anchor_agent.action_probabilities(data["observation"][0], data["mask"][0]),
                           agent.action_probabilities(data["observation"][0], data["mask"][0]))


@pytest.mark.parametrize("game_name,variant", [("makabana", "mao"), ("maunakea", "advanced")])
def test_a_tiny_round_of_the_other_games(tmp_path, game_name, variant):
    """Maka Bana (its policy network, here Mao's) and Mauna Kea (its action scorer, here the rules for
    advanced players) run a round too: the scorer's decisions are its candidates' features with the
    visits of those candidates, and its fit lowers its loss."""
    out = tmp_path / "run"
    args = tiny(out)
    args[args.index("makemake")] = game_name
    state = exit_.main(args + ["--variant", variant], log=lambda *_: None)
    entry = state["history"][0]
    assert state["variant"] == variant and entry["loss_after"] < entry["loss_before"]
    with np.load(out / "round-1.npz") as data:
        if game_name == "maunakea":
            assert set(data.files) == {"x", "visits", "decision"} and data["decision"].max() + 1 == entry["decisions"]
            assert len(data["x"]) == len(data["visits"]) == len(data["decision"])
        else:
            assert set(data.files) == {"observation", "mask", "visits", "outcome"}
            assert (data["visits"].sum(1) == 12).all()


def test_a_scorer_is_widened_to_the_turn_features(tmp_path, capsys):
    """``--features turn``: the run's scorer starts as ``--init`` with the eight turn features added,
    their weights zero (it plays as ``--init`` until fitted); its self-play keeps 24 features per
    candidate and its fit reads them.  A policy network, an unknown set or a narrower one is refused."""
    from agents.learned.scorer import ScorerAgent
    from agents.search import maunakea as rules

    out = tmp_path / "run"
    args = tiny(out, "--features", "turn")
    args[args.index("makemake")] = "maunakea"
    state = exit_.main(args, log=lambda *_: None)
    guide = ScorerAgent.load("agents/shipped/maunakea-guide.npz")
    start = ScorerAgent.load(out / "init.npz")
    assert start.num_features == len(rules.FEATURE_NAMES) == 24
    assert np.array_equal(start.layers[0][0][:, :16], guide.layers[0][0]) and not start.layers[0][0][:, 16:].any()
    with np.load(out / "round-1.npz") as data:
        assert data["x"].shape[1] == 24 and data["decision"].max() + 1 == state["history"][0]["decisions"]
    assert ScorerAgent.load(out / "network-1.npz").num_features == 24
    for game, features, message in (("makemake", "turn", "only action scorers read feature sets"),
                                    ("maunakea", "all", "maunakea's scorers read one-step, turn, not 'all'")):
        with pytest.raises(SystemExit):
            exit_.parse_args(["--game", game, "--features", features])
        assert message in capsys.readouterr().err
    with pytest.raises(SystemExit):
        exit_.parse_args(["--game", "maunakea", "--init", str(out / "init.npz"), "--features", "one-step"])
    assert "reads 24 features, more than 'one-step''s 16" in capsys.readouterr().err


def test_the_curve_is_drawn_from_the_history(tmp_path):
    """``curve.png`` shows each measurement and the gate, round by round; rounds without
    measurements leave gaps rather than failing."""
    history = [dict(round=1, gate_fitted=0.7, gate_current=0.8, network_vs_heuristic=1.0, network_vs_mcts=0.3,
                    guided_vs_mcts=0.6), dict(round=2, gate_fitted=0.75, gate_current=0.8)]
    exit_.plot(history, tmp_path / "curve.png")
    assert (tmp_path / "curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    exit_.plot([dict(round=1, gate_fitted=0.6, gate_current=0.5)], tmp_path / "gate.png")   # --measure-games 0
    assert (tmp_path / "gate.png").is_file()
    exit_.plot([dict(round=1, loss_before=2.0, loss_after=1.0)], tmp_path / "none.png")      # nothing to draw
    assert not (tmp_path / "none.png").exists()
