"""The agent framework: the random agent, the game loop, the registry, ratings, the tournament and
human play.

Tests that take an agent run once per agent in ``AGENT_SPECS``; the heuristic and search agents are
written apart, so until their module (or a game's part of it) exists those cases are skipped with
the missing module named.  Games and variants come from the environments themselves, so a new
variant (Maka Bana Mao) is covered as soon as its environment offers it.
"""
import json
import re
import sys
import time
import zipfile
from contextlib import contextmanager

import numpy as np
import pytest

import agents
from agents import registry
from agents.arena import tournament
from agents.arena.match import IllegalActionError, finishing_ranks, play_game, win_shares
from agents.arena.play import SECRET_DECISIONS, play
from agents.arena.ratings import fit_ratings, plackett_luce, wilson_interval
from agents.base import Agent
from agents.baselines.random_agent import RandomAgent
from agents.games import GAMES, describe_action, game_info

AGENT_SPECS = ["random", "heuristic", "mcts:4"]
# short games for the slower agents: seasons (Maka Bana), clan turns, player turns
SHORT = {"makabana": 3, "makemake": 12, "maunakea": 6}
VARIANTS = [(name, variant) for name in GAMES for variant in GAMES[name].raw_env.variants]
PLAYER_COUNTS = [(name, n) for name in GAMES for n in range(GAMES[name].raw_env.players[0],
                                                             GAMES[name].raw_env.players[1] + 1)]


@contextmanager
def skip_if_unwritten():
    """Skip (naming it) when an agents.* module that a case needs is not written yet."""
    try:
        yield
    except ImportError as error:
        missing = error if isinstance(error, ModuleNotFoundError) else error.__cause__
        name = getattr(missing, "name", None) or ""
        if name.startswith("agents."):
            pytest.skip(f"{name} is not written yet")
        raise


class Recorder(RandomAgent):
    """A random agent that checks what it is given and counts its decisions."""

    def reset(self, game, player, seed=None):
        super().reset(game, player, seed)
        self.decisions = 0

    def act(self, observation, action_mask, state=None):
        assert action_mask.shape == (self.game.num_actions,) and observation.shape == (self.game.obs_size,)
        assert action_mask.any() and state is None
        action = super().act(observation, action_mask)
        assert action_mask[action] == 1
        self.decisions += 1
        return action


# ---------------------------------------------------------------------------------------------------
# The random agent and the game loop
@pytest.mark.parametrize("name,variant", VARIANTS)
def test_random_agent_only_plays_legal_actions(name, variant):
    game = game_info(name, variant=variant)
    players = [Recorder() for _ in range(game.num_players)]
    decisions, seed = 0, 0
    while decisions < 3000:
        result = play_game(game, players, seed=seed)
        assert result.decisions == sum(p.decisions for p in players)
        decisions += result.decisions
        seed += 1


@pytest.mark.parametrize("name,num_players", PLAYER_COUNTS)
def test_play_game_every_player_count(name, num_players):
    game = game_info(name, num_players)
    result = play_game(game, [RandomAgent() for _ in range(num_players)], seed=(7, 1))
    assert result.seats == list(range(num_players)) and result.decisions > 0
    assert all(1 <= r <= num_players for r in result.ranks) and min(result.ranks) == 1
    assert sum(result.win_shares) == pytest.approx(1.0)
    assert result.ranks == finishing_ranks(result.rewards, result.scores, result.truncated)
    again = play_game(game, [RandomAgent() for _ in range(num_players)], seed=(7, 1))
    assert again == result
    # seats given: the same deal and seat seeds, so moving the (identical) agents changes nothing
    moved = play_game(game, [RandomAgent() for _ in range(num_players)], seed=(7, 1),
                      seats=list(reversed(range(num_players))))
    assert moved.scores == list(reversed(result.scores))


@pytest.mark.parametrize("spec", AGENT_SPECS)
@pytest.mark.parametrize("name", list(GAMES))
def test_every_agent_plays_every_game(spec, name):
    game = game_info(name, max_turns=SHORT[name])
    with skip_if_unwritten():
        agent = agents.make_agent(spec, game)
        others = [RandomAgent() for _ in range(game.num_players - 1)]
        seats = [1, 0] + list(range(2, game.num_players))  # not the first seat
        result = play_game(game, [agent] + others, seed=3, seats=seats)
    assert result.seats[0] == 1 and sum(result.win_shares) == pytest.approx(1.0)


def test_finishing_ranks_and_win_shares():
    assert finishing_ranks([1, -1, -1, -1], [20, 5, 9, 9]) == [1, 4, 2, 2]
    assert finishing_ranks([0, 0, -1], [12, 12, 3]) == [1, 1, 3]
    assert finishing_ranks([0, 0, 0], [1, 5, 2]) == [1, 1, 1]  # a Make Make stalemate: a draw
    assert finishing_ranks([0, 0, 0], [1, 5, 5], truncated=True) == [3, 1, 1]  # by points as they stand
    assert win_shares([1, 1, 3]) == [0.5, 0.5, 0.0]


class Vandal(Agent):
    """A search agent that scribbles over the state and mask it is given."""

    name = "vandal"
    needs_state = True

    def act(self, observation, action_mask, state=None):
        legal = np.flatnonzero(action_mask)
        action = int(legal[self.rng.integers(legal.size)])
        state[:] = 0
        action_mask[:] = 0
        return action


def test_agents_only_get_copies():
    game = game_info("makabana", 3)
    calm = play_game(game, [RandomAgent(), RandomAgent(), RandomAgent()], seed=5)
    vandalised = play_game(game, [Vandal(), RandomAgent(), RandomAgent()], seed=5)
    assert vandalised == calm  # same seeds, same draws: the scribbling changed nothing


class Cheat(RandomAgent):
    name = "cheat"

    def __init__(self, action):
        self.action = action

    def act(self, observation, action_mask, state=None):
        return self.action


@pytest.mark.parametrize("name", list(GAMES))
def test_a_mask_from_another_decision_is_a_clear_error(name):
    """A search plays the state row's legal actions, and the heuristics trust the observation: given a
    mask that disagrees, they chose an action the mask did not offer and failed with a RuntimeError
    that said nothing of the mask (the heuristic's stays a RuntimeError: in a game it would be a bug)."""
    game = game_info(name, 2)
    state = np.zeros(game.core.STATE_SIZE, np.int64)
    game.core.init(state, 2, game.variant_id, game.max_turns, 3)
    player = int(game.core.player_to_act(state))
    obs, mask = np.zeros(game.obs_size, np.int8), np.zeros(game.num_actions, np.int8)
    game.core.observe_player(state, player, obs, mask)
    other = np.zeros_like(mask)
    other[np.flatnonzero(mask == 0)[:3]] = 1    # three actions this decision does not allow
    first = int(np.flatnonzero(mask != other)[0])
    verb, allows = ("offers", "does not allow") if other[first] else ("leaves out", "allows")
    for spec in ("mcts:8", "mcts:8+shipped"):
        agent = registry.make_agent(spec, game)
        agent.reset(game, player, 0)
        with pytest.raises(ValueError, match=rf"action_mask {verb} action {first}, which the state row {allows}"):
            agent.act(obs, other, state.copy())
        assert agent.act(obs, mask, state.copy()) in np.flatnonzero(mask)
    heuristic = registry.make_agent("heuristic", game)
    heuristic.reset(game, player, 0)
    if name == "maunakea":   # its heuristic finds a move among the mask's, whatever the observation
        assert other[heuristic.act(obs, other, state.copy())]
    else:
        with pytest.raises(RuntimeError, match="observation and action_mask must come from the same decision"):
            heuristic.act(obs, other, state.copy())


@pytest.mark.parametrize("name", list(GAMES))
def test_illegal_action_is_a_clear_error(name):
    game = game_info(name)
    state = np.zeros(game.core.STATE_SIZE, np.int64)
    game.core.init(state, game.num_players, game.variant_id, game.max_turns, 1)
    mask = np.zeros(game.num_actions, np.int8)
    game.core.observe_player(state, game.core.player_to_act(state), np.zeros(game.obs_size, np.int8), mask)
    illegal = int(np.flatnonzero(mask == 0)[-1])
    with pytest.raises(IllegalActionError, match=r"agent 'cheat' \(Cheat, player \d\) chose illegal action "
                                                 rf"{illegal} \({describe_action(game, illegal)}\)"):
        play_game(game, [Cheat(illegal) for _ in range(game.num_players)], seed=1)
    with pytest.raises(IllegalActionError, match="outside"):
        play_game(game, [Cheat(game.num_actions) for _ in range(game.num_players)], seed=1)
    with pytest.raises(IllegalActionError, match="returned 1.5"):
        play_game(game, [Cheat(1.5) for _ in range(game.num_players)], seed=1)
    # a policy's predict gives a numpy 0-d array: an action like any integer (issue 23, item 3)
    with pytest.raises(IllegalActionError, match=rf"chose illegal action {illegal} "):
        play_game(game, [Cheat(np.array(illegal)) for _ in range(game.num_players)], seed=1)
    with pytest.raises(ValueError, match="needs"):
        play_game(game, [RandomAgent()], seed=1)
    with pytest.raises(ValueError, match="permutation"):
        play_game(game, [RandomAgent() for _ in range(game.num_players)], seed=1, seats=[0] * game.num_players)


# ---------------------------------------------------------------------------------------------------
# Registry
def test_registry_names_and_errors(tmp_path, monkeypatch):
    game = game_info("makabana")
    monkeypatch.setattr(registry, "SHIPPED_DIR", tmp_path / "shipped")  # as before any policy shipped
    assert isinstance(agents.make_agent("random", game), RandomAgent)
    for bad, message in [("foo", "unknown agent 'foo'.*random, heuristic, mcts"), ("", "non-empty"),
                         ("mcts:abc", "positive number of simulations"), ("mcts:0", "positive"),
                         ("random:3", "takes no ':' argument"), (str(tmp_path / "none.zip"), "no checkpoint"),
                         ("shipped", r"no shipped policy exists yet for makabana \(haapii\)")]:
        with pytest.raises(ValueError, match=message):
            agents.make_agent(bad, game)
    with pytest.raises(ValueError, match="no shipped policy"):
        agents.load("makabana")
    not_a_model = tmp_path / "model.zip"
    not_a_model.write_bytes(b"not a model")
    monkeypatch.setitem(sys.modules, "sb3_contrib", None)  # as if not installed
    # issue 23: a file that is no checkpoint says so, not that sb3_contrib is missing (tests/test_cli.py)
    with pytest.raises(ValueError, match="is not an agent file.*found text beginning 'not a model'"):
        agents.make_agent(str(not_a_model), game)
    checkpoint = tmp_path / "checkpoint.zip"   # what stable-baselines3 writes, as far as the registry looks
    with zipfile.ZipFile(checkpoint, "w") as archive:
        archive.writestr("data", "{}")
        archive.writestr("policy.pth", b"")
    with pytest.raises(ImportError, match=r'pip install -e "\.\[train\]"'):
        agents.make_agent(str(checkpoint), game)


# A search's settings in its name: what comparisons of settings are run with from the command line.
@pytest.mark.parametrize("spec,options", [
    ("mcts@c=0.5", dict(c=0.5)),
    ("mcts:1000@pw_k=1@pw_alpha=0.4", dict(simulations=1000, pw_k=1.0, pw_alpha=0.4)),
    ("mcts@rollout_depth=3@horizon=40@max_depth=12", dict(rollout_depth=3, horizon=40, max_depth=12)),
    ("mcts@value_scale=2.5@value_weight=1e-1@bias=0", dict(value_scale=2.5, value_weight=0.1, bias=0.0)),
    ("mcts:7@trees=single@belief=uniform", dict(simulations=7, trees="single", belief="uniform")),
    ("mcts:300@halving=8", dict(simulations=300, halving=8))])
def test_a_search_name_carries_its_settings(spec, options):
    game = game_info("makabana" if "belief" in spec else "makemake", 2)   # belief samples hidden projects
    agent = agents.make_agent(spec, game)
    assert agent.name == spec
    given = {key: agent.options[key] for key in options}
    assert given == options and [type(v) for v in given.values()] == [type(v) for v in options.values()]
    agent.reset(game, 0, 0)
    assert {key: agent.settings[key] for key in options} == options  # they reach the search



@pytest.mark.parametrize("game_name, spec, kwargs, words", [
    # setting values in ASCII digits only, as mcts:N (int() and float() also read these)
    ("makemake", "mcts@rollout_depth=\u0663", {}, "setting 'rollout_depth' takes a whole number, got"),
    ("makemake", "mcts@rollout_depth=3_0", {}, "setting 'rollout_depth' takes a whole number, got"),
    ("makemake", "mcts@c= 1", {}, "setting 'c' takes a number, got"),
    ("makemake", "mcts+shipped@scorer_after=\u0663", {}, "setting 'scorer_after' takes a whole number"),
    # a value Numba cannot take was an OverflowError at the first move
    ("maunakea", "mcts:64+shipped@scorer_after=" + "9" * 23, {}, "scorer_after is the visits a node has"),
    ("maunakea", "mcts:64+shipped@scorer_after=" + "9" * 400, {}, "scorer_after is the visits a node has"),
    # settings that would do nothing: refused, not reported in a table as if they had mattered
    ("makemake", "mcts:64@belief=plausible", {}, "belief says how Maka Bana's hidden projects are sampled"),
    ("maunakea", "mcts:64@belief=weighted", {}, "belief says how Maka Bana's hidden projects are sampled"),
    ("makabana", "mcts:64+shipped@value_mix=1", {}, "value_mix applies to a guide that holds a value network"),
    ("makemake", "mcts:64+shipped@in_tree=0@value_mix=0.5", {}, "'shipped' does not guide the tree"),
    ("makabana", "mcts:64+shipped@scorer_after=1", {}, "'shipped' is a policy network"),
    # the name's simulations and an argument's: neither silently wins, as for every other setting
    ("makemake", "mcts:8", {"simulations": 16}, "simulations given both in the name 'mcts:8' and as an argument"),
    ("makemake", "mcts:8+shipped", {"simulations": 16}, "simulations given both in the name"),
    # a space after the '+' made Mauna Kea's guide the shipped scorer instead of the shipped guide
    ("maunakea", "mcts:64+ shipped", {}, "without spaces around the '+'"),
])
def test_a_search_setting_that_is_misread_or_would_do_nothing_is_refused(game_name, spec, kwargs, words):
    with pytest.raises(ValueError, match=re.escape(words)):
        agents.make_agent(spec, game_info(game_name, 2), **kwargs)


def test_a_guided_search_checks_its_guide_and_settings_when_made_directly():
    from agents.search.mcts import GuidedMCTSAgent

    game = game_info("makemake", 2)
    guide = agents.make_agent("shipped", game)
    for options, words in [({}, "guided only by a policy network or an action scorer"),
                           ({"in_tree": "no"}, "in_tree is true or false"),
                           ({"value_mix": "0.5"}, "value_mix is the value network's share"),
                           ({"scorer_after": float("nan")}, "scorer_after is the visits a node has")]:
        with pytest.raises(ValueError, match=words):
            GuidedMCTSAgent(None if not options else guide, **options)
    agent = GuidedMCTSAgent(guide, value_mix=0.25)            # Make Make's network holds a value network
    assert agent.value_mix == 0.25 and agent._value is not None

def test_a_guided_search_name_carries_its_settings_over_the_guided_defaults():
    from agents.search.mcts import GUIDED_TREE_DEFAULTS, GUIDED_VALUE_MIX

    game = game_info("makabana")
    assert GUIDED_TREE_DEFAULTS[(game.name, game.variant)]["pw_k"] == 0.5
    agent = agents.make_agent("mcts+shipped@pw_k=0.25", game)
    agent.reset(game, 0, 0)
    assert agent.name == "mcts+shipped@pw_k=0.25" and agent.settings["pw_k"] == 0.25
    assert agent.guide.name == "shipped"  # the settings are the search's, never the guide's
    assert agent._network is not None and agent.value_mix == GUIDED_VALUE_MIX
    agent = agents.make_agent("mcts:2000+shipped@pw_k=0.5@value_mix=0@in_tree=false", game)
    assert agent.options["simulations"] == 2000 and agent.options["pw_k"] == 0.5
    assert agent.value_mix == 0.0 and agent._network is None
    for flag, in_tree in [("true", True), ("1", True), ("False", False), ("0", False)]:
        assert (agents.make_agent(f"mcts+shipped@in_tree={flag}", game)._network is not None) == in_tree


def test_a_scorer_guided_search_name_carries_scorer_after():
    from agents.search.mcts import SCORER_AFTER

    game = game_info("maunakea")
    assert agents.make_agent("mcts+shipped", game).scorer_after == SCORER_AFTER
    agent = agents.make_agent("mcts:300+shipped@scorer_after=3@pw_k=2", game)
    agent.reset(game, 0, 0)
    assert agent.scorer_after == 3 and agent.settings["pw_k"] == 2.0 and agent._scorer is not None
    assert agents.make_agent("mcts+shipped@in_tree=0", game)._scorer is None
    with pytest.raises(ValueError, match="scorer_after is the visits a node has"):
        agents.make_agent("mcts+shipped@scorer_after=0", game)
    with pytest.raises(ValueError, match="setting 'scorer_after' takes a whole number, got '2.5'"):
        agents.make_agent("mcts+shipped@scorer_after=2.5", game)


@pytest.mark.parametrize("spec,message", [
    ("mcts@foo=1", r"unknown setting 'foo' in 'mcts@foo=1': a search takes c, rollout_depth, horizon, "
                   r"value_scale, value_weight, trees, belief, max_depth, pw_k, pw_alpha, bias, puct, halving; "
                   r"a guided search \(mcts\+<policy>\) also in_tree, value_mix"),
    ("mcts:20@value_mix=0", r"'value_mix' applies only to a guided search \(mcts\+<policy>\).*a search takes c,"),
    ("mcts@in_tree=false", r"'in_tree' applies only to a guided search \(mcts\+<policy>\)"),
    ("mcts:200@simulations=5", r"number of simulations is given as mcts:N"),
    ("mcts@c", r"written @<setting>=<value>, got '@c' in 'mcts@c'"),
    ("mcts@", r"written @<setting>=<value>, got '@'"),
    ("mcts@c=", r"setting 'c' has no value"),
    ("mcts@c=0.5x", r"setting 'c' takes a number, got '0.5x'"),
    ("mcts@pw_k=nan", r"setting 'pw_k' takes a number, got 'nan'"),
    ("mcts@max_depth=2.5", r"setting 'max_depth' takes a whole number, got '2.5'"),
    ("mcts@halving=4.0", r"setting 'halving' takes a whole number, got '4.0'"),
    ("mcts+shipped@in_tree=yes", r"setting 'in_tree' takes true, false, 1 or 0, got 'yes'"),
    ("mcts@pw_k=1@pw_alpha=0.4@pw_k=2", r"setting 'pw_k' is given twice"),
    ("heuristic@c=1", r"settings are only for a search \(mcts, mcts:N, mcts\+<policy>\), got 'heuristic@c=1'"),
    ("shipped@pw_k=1", r"settings are only for a search"),
    ("runs/policy.npz@c=1", r"settings are only for a search")])
def test_a_bad_setting_in_a_name_says_what_is_allowed(spec, message):
    with pytest.raises(ValueError, match=message):
        agents.make_agent(spec, game_info("makemake", 2))


def test_a_setting_in_the_name_and_as_an_argument_is_an_error():
    game = game_info("makemake", 2)
    with pytest.raises(ValueError, match=r"c given both in the name 'mcts@c=1' and as an argument"):
        agents.make_agent("mcts@c=1", game, c=2)
    with pytest.raises(ValueError, match=r"bias, pw_k given both in the name"):
        agents.make_agent("mcts+shipped@pw_k=1@bias=0.1", game, bias=0.25, pw_k=1)
    agent = agents.make_agent("mcts@c=1", game, pw_k=2)  # different settings add up
    assert (agent.options["c"], agent.options["pw_k"]) == (1.0, 2)


def test_settings_begin_after_the_last_slash_and_values_are_checked_by_the_search(tmp_path):
    game = game_info("makemake", 2)
    folder = tmp_path / "runs@2"
    folder.mkdir()
    (folder / "net.npz").write_bytes(registry.shipped_path(game).read_bytes())
    agent = agents.make_agent(f"mcts+{folder}/net.npz@pw_k=2", game)
    assert agent.options["pw_k"] == 2.0 and agent.guide.name == "net"
    (tmp_path / "net@2.npz").write_bytes(registry.shipped_path(game).read_bytes())
    assert agents.make_agent(str(tmp_path / "net@2.npz"), game).name == "net@2"  # a file, not settings
    guided = agents.make_agent(f"mcts+{tmp_path}/net@2.npz", game)   # as a guide too (was "got '@2.npz'")
    assert guided.guide.name == "net@2"
    with pytest.raises(ValueError, match="trees must be 'multi' or 'single', got 'many'"):
        agents.make_agent("mcts@trees=many", game).reset(game, 0, 0)


def test_checkpoint_and_shipped_policy(tmp_path, monkeypatch):
    sb3_contrib = pytest.importorskip("sb3_contrib")
    import gymnasium

    game = game_info("makemake", 3)

    class Spaces(gymnasium.Env):
        observation_space = gymnasium.spaces.Box(0, 100, (game.obs_size,), np.int8)
        action_space = gymnasium.spaces.Discrete(game.num_actions)

        def reset(self, seed=None, options=None):
            return np.zeros(game.obs_size, np.int8), {}

        def step(self, action):
            return np.zeros(game.obs_size, np.int8), 0.0, True, False, {}

    model = sb3_contrib.MaskablePPO("MlpPolicy", Spaces(), n_steps=8, batch_size=8, device="cpu",
                                    policy_kwargs={"net_arch": [8]})
    model.save(tmp_path / "tiny.zip")
    agent = agents.make_agent(str(tmp_path / "tiny.zip"), game)
    assert agent.name == "tiny"
    result = play_game(game_info("makemake", 3, max_turns=9), [agent, RandomAgent(), RandomAgent()], seed=0)
    assert result.decisions > 0  # every policy move was legal (play_game checks)
    with pytest.raises(ValueError, match="was trained on observations"):
        agents.make_agent(str(tmp_path / "tiny.zip"), game_info("makabana"))
    agent.reset(game, 0, 0)
    with pytest.raises(ValueError, match="no legal action in the mask"):   # it played action 0
        agent.act(np.zeros(game.obs_size, np.int8), np.zeros(game.num_actions, np.int8))
    with zipfile.ZipFile(tmp_path / "junk.zip", "w") as archive:   # the names of a checkpoint, not its contents
        archive.writestr("data", "{}")
        archive.writestr("policy.pth", b"x" * 16)
    with pytest.raises(ValueError, match="holds 'data' and 'policy.pth' but is not a MaskablePPO checkpoint"):
        agents.make_agent(str(tmp_path / "junk.zip"), game)


def test_shipped_policy_is_a_numpy_network_loaded_by_name(tmp_path, monkeypatch):
    """``shipped`` reads agents/shipped/<game>.npz (agents.learned.network.save_snapshot's format) and plays it
    greedily with numpy alone; a network made for another game is a clear error."""
    game = game_info("makemake", 3)
    rng = np.random.default_rng(0)
    layers = [(rng.normal(size=(8, game.obs_size)), rng.normal(size=8)),
              (rng.normal(size=(game.num_actions, 8)), rng.normal(size=game.num_actions))]
    np.savez(tmp_path / "makemake.npz", activation=np.array("relu"), features=np.array("log"), skip=np.array(False),
             **{f"w{i}": w.astype(np.float32) for i, (w, _) in enumerate(layers)},
             **{f"b{i}": b.astype(np.float32) for i, (_, b) in enumerate(layers)})
    (tmp_path / "maunakea.npz").write_bytes((tmp_path / "makemake.npz").read_bytes())
    monkeypatch.setattr(registry, "SHIPPED_DIR", tmp_path)
    monkeypatch.setitem(sys.modules, "torch", None)  # as if the train extra were not installed
    agent = agents.load("makemake", 3)
    assert agent.name == "shipped" and agent.deterministic
    result = play_game(game_info("makemake", 3, max_turns=9), [agent, RandomAgent(), RandomAgent()], seed=0)
    assert result.decisions > 0  # every move legal (play_game checks)
    with pytest.raises(ValueError, match="takes observations of size"):
        agents.load("maunakea")
    by_path = agents.make_agent(str(tmp_path / "makemake.npz"), game)  # any policy network, by its path
    assert by_path.name == "makemake" and by_path.deterministic
    with pytest.raises(ValueError, match="no snapshot file"):
        agents.make_agent(str(tmp_path / "missing.npz"), game)


# every game and variant ships a policy (issue 26: a person meets it in the browser in every variant)
SHIPPED = [(name, variant) for name in sorted(GAMES) for variant in GAMES[name].raw_env.variants]


def test_every_variant_has_its_own_shipped_file():
    paths = {(name, variant): registry.shipped_path(game_info(name, 2, variant)) for name, variant in SHIPPED}
    assert paths[("makabana", "haapii")].name == "makabana.npz"
    assert paths[("makabana", "mao")].name == "makabana_mao.npz"
    assert paths[("maunakea", "advanced")].name == "maunakea_advanced.npz"
    assert all(path.is_file() for path in paths.values()), paths


def test_the_guided_search_takes_a_guide_shipped_beside_the_policy(tmp_path, monkeypatch):
    """``mcts+shipped`` is guided by ``<shipped file>-guide.npz`` where one is shipped, and by the
    shipped policy elsewhere; ``shipped`` alone always plays the policy."""
    from agents.learned.scorer import ScorerAgent, save_scorer

    policy = ScorerAgent.load(registry.SHIPPED_DIR / "maunakea.npz")
    monkeypatch.setattr(registry, "SHIPPED_DIR", tmp_path)
    game = game_info("maunakea", 2)
    save_scorer(tmp_path / "maunakea.npz", "maunakea", policy.layers)
    assert registry.shipped_guide_path(game) == tmp_path / "maunakea.npz"
    assert np.array_equal(registry.make_agent("mcts+shipped", game).guide.layers[0][0], policy.layers[0][0])
    other = [(w * 2.0, b) for w, b in policy.layers]
    save_scorer(tmp_path / "maunakea-guide.npz", "maunakea", other)
    assert registry.shipped_guide_path(game) == tmp_path / "maunakea-guide.npz"
    assert np.array_equal(registry.make_agent("mcts+shipped", game).guide.layers[0][0], other[0][0])
    assert np.array_equal(registry.make_agent("shipped", game).layers[0][0], policy.layers[0][0])
    # the guide of one variant is not another's
    assert registry.shipped_guide_path(game_info("maunakea", 2, "advanced")) == tmp_path / "maunakea_advanced.npz"


def test_root_shipped_ranks_the_root_by_the_shipped_policy_and_the_tree_by_the_guide():
    """``mcts+shipped@root=shipped``: the root's prior is the shipped policy's, the tree's scorer the
    shipped guide's; ``@root=guide`` is the default, and any other value is refused by name."""
    game = game_info("maunakea", 2)
    agent = registry.make_agent("mcts:16+shipped@root=shipped", game)
    plain = registry.make_agent("mcts:16+shipped", game)
    shipped = registry.make_agent("shipped", game)
    assert agent.root_guide is not agent.guide and plain.root_guide is plain.guide
    assert np.array_equal(agent.guide.layers[0][0], plain.guide.layers[0][0])          # the tree: the guide
    assert np.array_equal(agent.root_guide.layers[0][0], shipped.layers[0][0])        # the root: the policy
    assert np.array_equal(agent.tree_scorer()[0][0], plain.tree_scorer()[0][0])
    from agents.search.mcts import random_positions
    state = random_positions(game, 1, seed=3)[0]
    player = int(game.core.player_to_act(state))
    obs = np.zeros(game.obs_size, np.int8)
    mask = np.zeros(game.num_actions, np.int8)
    game.core.observe_player(state, player, obs, mask)
    for a in (agent, shipped):
        a.reset(game, player, 0)
    assert np.allclose(agent.root_policy(obs, mask, state.copy()), shipped.action_probabilities(obs, mask, state.copy()))
    assert registry.make_agent("mcts:16+shipped@root=guide", game).root_guide is not None
    with pytest.raises(ValueError, match="setting 'root' names the policy that ranks the root's actions, one of "
                                         "guide, shipped; got 'best'"):
        registry.make_agent("mcts+shipped@root=best", game)
    with pytest.raises(ValueError, match="applies only to a guided search"):
        registry.make_agent("mcts@root=shipped", game)


@pytest.mark.parametrize("name, variant", SHIPPED)
def test_shipped_policy_plays_full_games_in_the_environment(name, variant):
    """agents.load(game) plays whole games through the PettingZoo environment, legal moves only, with
    2 players (what it was trained for) and with the game's default number; agents that read the
    state row (``needs_state``) get ``env.unwrapped.state()``."""
    package = GAMES[name].package
    for players in sorted({2, GAMES[name].default_players}):
        shipped = agents.load(name, num_players=players, variant=variant)
        opponent = RandomAgent()
        game = game_info(name, players, variant)
        shipped.reset(game, 0, 0)
        opponent.reset(game, 1, 1)
        env = package.env(num_players=players, variant=variant)
        env.reset(seed=players)
        for agent_id in env.agent_iter():
            obs, reward, termination, truncation, info = env.last()
            if termination or truncation:
                action = None
            else:
                player = env.possible_agents.index(agent_id)
                agent = shipped if player == 0 else opponent
                # an action scorer (Mauna Kea's) reads the state row, as search agents do
                state = env.unwrapped.state() if agent.needs_state else None
                action = agent.act(obs["observation"], obs["action_mask"], state)
                assert obs["action_mask"][action]
            env.step(action)
        assert set(info["scores"]) == set(env.possible_agents)
        assert not env.agents  # the game was played to its end


# ---------------------------------------------------------------------------------------------------
# Ratings
def test_ratings_recover_a_strong_and_a_weak_agent():
    rng = np.random.default_rng(0)
    wins = rng.random(2000) < 0.8
    games = [{"strong": 1, "weak": 2} if won else {"strong": 2, "weak": 1} for won in wins]
    games += [{"strong": 1, "weak": 1}] * 100  # draws count half each way
    ratings = fit_ratings(games, anchor="weak")
    assert ratings["weak"] == 1000
    # 80% wins is 400 log10(4) = 241 Elo points
    assert 210 < ratings["strong"] - 1000 < 250
    shuffled = fit_ratings(list(reversed(games)), anchor="weak")
    assert shuffled["strong"] == pytest.approx(ratings["strong"], abs=1e-6)


def test_plackett_luce_recovers_multiplayer_strengths():
    rng = np.random.default_rng(1)
    true = {"a": 0.0, "b": 150.0, "c": 300.0, "d": -100.0}
    strength = {k: 10 ** (v / 400) for k, v in true.items()}
    games = []
    for _ in range(3000):
        left = list(rng.choice(list(true), 3, replace=False))
        order = []
        while left:
            p = np.array([strength[x] for x in left])
            order.append(left.pop(rng.choice(len(left), p=p / p.sum())))
        games.append({x: place for place, x in enumerate(order, 1)})
    ratings = fit_ratings(games, anchor="a")
    for label, value in true.items():
        assert ratings[label] == pytest.approx(1000 + value, abs=30)
    no_anchor = fit_ratings(games)
    assert np.mean(list(no_anchor.values())) == pytest.approx(1000)
    assert no_anchor["c"] - no_anchor["a"] == pytest.approx(ratings["c"] - ratings["a"])


def test_ratings_handle_ties_and_one_sided_records():
    tied = fit_ratings([{"x": 1, "y": 1, "z": 1}] * 50)
    assert all(r == pytest.approx(1000) for r in tied.values())
    sweep = fit_ratings([{"x": 1, "y": 2}] * 20, anchor="y")  # finite thanks to the prior
    assert 1300 < sweep["x"] < 2500
    assert plackett_luce([], labels=["a"]) == {"a": pytest.approx(1.0)}
    with pytest.raises(ValueError, match="not in labels"):
        plackett_luce([{"q": 1, "a": 2}], labels=["a"])


def test_wilson_interval():
    low, high = wilson_interval(5, 10)
    assert (low, high) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    assert wilson_interval(0, 20)[0] == 0.0 and wilson_interval(20, 20)[1] == 1.0
    for wins, games in [(1, 3), (2.5, 10), (70, 100)]:
        low, high = wilson_interval(wins, games)
        assert 0 <= low < wins / games < high <= 1
    assert np.diff(wilson_interval(50, 100)) > np.diff(wilson_interval(500, 1000))
    with pytest.raises(ValueError):
        wilson_interval(11, 10)


# ---------------------------------------------------------------------------------------------------
# Tournament
@pytest.mark.parametrize("num_agents,num_players", [(2, 2), (3, 3), (4, 3), (5, 4), (4, 2)])
def test_seats_are_balanced(num_agents, num_players):
    cycle = tournament.seating_cycle(num_agents, num_players)
    seatings = tournament.schedule(num_agents, num_players, 2 * cycle)
    seat_counts = np.zeros((num_agents, num_players), int)
    for seating in seatings:
        assert len(set(seating)) == num_players
        for seat, agent in enumerate(seating):
            seat_counts[agent, seat] += 1
    assert (seat_counts == seat_counts[0, 0]).all()


def test_duplicate_agents_get_labels():
    assert tournament.agent_labels(["random", "heuristic", "random", "runs/a.zip"]) == [
        "random#1", "heuristic", "random#2", "a"]


def test_a_guided_search_is_not_labelled_as_its_guide():
    assert tournament.agent_labels(["mcts:300+runs/net.npz", "runs/net.npz", "mcts+shipped", "mcts",
                                    "mcts_net.npz"]) == [
        "mcts:300+net", "net", "mcts+shipped", "mcts", "mcts_net"]
    # settings stay in the label, so the table tells the compared settings apart
    assert tournament.agent_labels(["mcts:300+runs/net.npz@pw_k=0.5", "mcts+shipped@c=1", "mcts@c=1",
                                    "runs/net@2.npz"]) == [
        "mcts:300+net@pw_k=0.5", "mcts+shipped@c=1", "mcts@c=1", "net@2"]


def test_a_search_guided_by_a_file_with_an_at_in_its_name_is_labelled_by_the_files_stem(tmp_path):
    guide = tmp_path / "net@2.npz"    # read whole where the file exists, as make_agent reads it
    guide.write_bytes(b"")
    assert tournament.agent_labels([f"mcts:30+{guide}", f"mcts+{tmp_path}/gone@2.npz"]) == [
        "mcts:30+net@2", f"mcts+{tmp_path}/gone@2.npz"]


def test_tournament_is_reproducible_whatever_the_workers():
    args = ("makabana", 3, ["random", "random", "random", "random"], 24)
    one = tournament.run_tournament(*args, seed=11, workers=1)
    again = tournament.run_tournament(*args, seed=11, workers=1)
    two = tournament.run_tournament(*args, seed=11, workers=2)
    untimed = tournament.games_only
    assert untimed(one["records"]) == untimed(again["records"]) == untimed(two["records"])
    assert untimed(one)["agents"] == untimed(two)["agents"] and one["balanced"]
    # the warm-up is reported on its own, not in the seconds the games took
    assert all(report["warm_up_seconds"] > 0 and report["seconds"] > 0 for report in (one, two))
    assert "warm_up_seconds" not in untimed(one)
    other = tournament.run_tournament(*args, seed=12, workers=1)
    assert other["records"] != one["records"]
    assert one["rating_anchor"] == "random#1" and one["ratings"]["random#1"] == 1000
    assert all(row["games"] == 18 for row in one["agents"].values())
    assert sum(row["wins"] for row in one["agents"].values()) == pytest.approx(24)


def _counting_acts(table, monkeypatch):
    """The names of the table's agents in the order they act."""
    acted = []
    for agent in table.agents:
        monkeypatch.setattr(agent, "act", lambda *args, _act=agent.act, _name=agent.name:
                            acted.append(_name) or _act(*args))
    return acted


def test_tournament_warms_every_agent_up_before_its_timed_games(monkeypatch):
    labels = ["random#1", "random#2", "heuristic"]
    table = tournament.Table(("makemake", 2, None, 40), ["random", "random", "heuristic"], labels)
    acted = _counting_acts(table, monkeypatch)
    [record] = table.play(5, [(0, [0, 1])])
    timed = sum(record["agent_decisions"])
    warm_up = acted[:-timed]
    assert set(warm_up) == set(labels)   # the heuristic too, which this game does not seat
    assert acted[-timed:] == [name for name in acted[-timed:] if name in ("random#1", "random#2")]
    before = len(acted)
    [again] = table.play(5, [(1, [2, 0])])
    assert len(acted) - before == sum(again["agent_decisions"])   # warmed once per table


def test_tournament_warm_up_changes_no_result_and_stops_when_due(monkeypatch):
    args = (("makabana", 3, None, None), ["random", "heuristic", "random"], ["random#1", "heuristic", "random#2"])
    games = [(g, tournament.seating(g, 3, 3)) for g in range(3)]
    cold = tournament.Table(*args, warm_up=False)   # plays at once
    warmed = tournament.Table(*args)
    untimed = tournament.games_only
    acted = _counting_acts(cold, monkeypatch)
    cold_records = cold.play(8, games)
    assert untimed(warmed.play(8, games)) == untimed(cold_records)
    assert len(acted) == sum(sum(record["agent_decisions"]) for record in cold_records)  # no untimed game

    monkeypatch.setattr(tournament, "WARM_UP_SECONDS", 0.0)
    hurried = tournament.Table(*args)
    acted = _counting_acts(hurried, monkeypatch)
    hurried.warm_up()
    assert len(acted) == 1 and hurried.warm   # the first decision, then the deadline has passed


def test_tournament_cli_writes_json_and_png(tmp_path, capsys):
    out_json, out_png = tmp_path / "t.json", tmp_path / "t.png"
    tournament.main(["--game", "makemake", "--players", "2", "--agents", "random,random", "--games", "6",
                     "--max-turns", "40", "--workers", "1", "--json", str(out_json), "--plot", str(out_png)])
    printed = capsys.readouterr().out
    assert "random#1" in printed and "win rate" in printed and "decisions/s" in printed
    report = json.loads(out_json.read_text())
    assert set(report["agents"]) == {"random#1", "random#2"}
    assert {"games", "wins", "win_rate", "win_rate_ci95", "rating", "ms_per_decision"} <= set(
        report["agents"]["random#1"])
    assert len(report["records"]) == 6
    assert out_png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with pytest.raises(SystemExit):
        tournament.main(["--game", "makemake", "--agents", "random,random", "--games", "2"])  # 4 seats
    assert "at least 4 agents" in capsys.readouterr().err


class SlowRandom(RandomAgent):
    """A random agent that takes 2 ms over every decision."""

    def act(self, observation, action_mask, state=None):
        time.sleep(0.002)
        return super().act(observation, action_mask, state)


def test_each_agents_decisions_are_timed_and_the_tournament_reports_them():
    """The 2-ms-a-decision targets of the learned agents are measured by the tournament's
    ``ms/decision``: each game times every agent's ``act`` calls, not the game's own steps."""
    game = game_info("makemake", 2, max_turns=20)
    result = play_game(game, [SlowRandom(), RandomAgent()], seed=3)
    assert sum(result.agent_decisions) == result.decisions and min(result.agent_decisions) > 0
    slow, fast = (s / d for s, d in zip(result.agent_seconds, result.agent_decisions))
    assert slow >= 0.002 > fast

    records = [{"agents": ["slow", "random"], "win_shares": [1.0, 0.0], "scores": [3, 1], "ranks": [1, 2],
                "truncated": False, "decisions": result.decisions, "agent_decisions": result.agent_decisions,
                "agent_seconds": result.agent_seconds}]
    older = [{k: v for k, v in records[0].items() if not k.startswith("agent_")} | {"agents": ["slow", "random"]}]
    report = tournament.summarize(records + older, ["slow", "random"], ["slow", "random"])
    assert report["agents"]["slow"]["ms_per_decision"] == pytest.approx(1000 * slow)  # the timed game only
    assert report["agents"]["slow"]["games"] == 2
    report.update(game="makemake", players=2)
    lines = tournament.table_text(report).splitlines()
    assert lines[0].split()[-1] == "ms/decision" and f"{1000 * slow:.3f}" in lines[1] + lines[2]
    untimed = tournament.summarize(older, ["slow", "random"], ["slow", "random"])
    assert untimed["agents"]["slow"]["ms_per_decision"] is None
    assert all(line.split()[-1] == "-" for line in tournament.table_text(untimed).splitlines()[1:])




def test_ratings_refuse_numbers_no_float_holds_and_fractions_of_games():
    """A 400-digit place or count was an OverflowError, a tiny fraction of a game a ZeroDivisionError."""
    from agents.arena.ratings import fit_ratings, wilson_interval
    with pytest.raises(ValueError, match="each game is a mapping label -> finishing place"):
        fit_ratings([{"a": 1, "b": 10**400}])
    with pytest.raises(ValueError, match="wins and games must be finite numbers"):
        wilson_interval(10**400, 10**400)
    with pytest.raises(ValueError, match="games must be a count of games, a whole number of at least 0"):
        wilson_interval(0, 1e-300)
    assert wilson_interval(1.5, 3) == wilson_interval(1.5, 3.0) and wilson_interval(0, 0) == (0.0, 1.0)

def test_an_agent_that_played_no_game_shows_no_figures():
    """With --games under the seating cycle an agent may play no game: its win rate, mean score and
    rating were shown as 0.000 [0.000, 1.000], 0.00 and a rating of the prior alone (1131, above
    random), and its score sum stayed in the JSON."""
    records = [{"agents": ["heuristic", "random"], "win_shares": [1.0, 0.0], "scores": [5, 1], "ranks": [1, 2],
                "truncated": False, "decisions": 10}]
    labels = ["heuristic", "random", "mcts:8"]
    report = tournament.summarize(records, labels, labels, anchor="random")
    assert "score_sum" not in report["agents"]["mcts:8"] and report["agents"]["mcts:8"]["games"] == 0
    report.update(game="makemake", players=2)
    last = tournament.table_text(report).splitlines()[-1].split()
    assert last[0] == "mcts:8" and last[1:] == ["0", "0.00", "-", "-", "-", "-"]


# ---------------------------------------------------------------------------------------------------
# Human play
def scripted(*answers, then="1", limit=20000):
    """An input function that gives ``answers``, then ``then`` (up to ``limit`` times), then q."""
    feed = iter(list(answers) + [then] * limit + ["q"])
    return lambda prompt="": next(feed)


@pytest.mark.parametrize("name", list(GAMES))
def test_human_plays_a_whole_game(name):
    lines = []
    result = play(name, players=3, against="random", seat=1, seed=4, max_turns=SHORT[name],
                  input_fn=scripted("", "abc", "0", "100000", "1_0", "١", "9" * 5000), print_fn=lines.append)
    text = "\n".join(map(str, lines))
    assert result is not None and "Final scores" in text
    assert "Please type the number" in text and "'abc' is not a number" in text
    # what int() alone would read: an underscore, another script's digits; and more digits than it reads
    assert "'1_0' is not a number" in text and "'١' is not a number" in text
    assert "There is no action 999999999999...: choose from 1 to " in text   # a number, cut short
    assert "There is no action 0" in text and "There is no action 100000" in text
    assert "Winner:" in text or "Tied for first" in text or "No winner" in text
    assert "player 1 (you)" in text and "Your move (player 1)" in text
    # the seed deals the whole game, the others' hidden facts included: it is said once the game is over
    said = [i for i, line in enumerate(lines) if "seed" in str(line)]
    assert said == [lines.index("The game's seed was 4: --seed 4 deals it again.")]
    assert said[0] > max(i for i, line in enumerate(lines) if "Your move" in str(line))


@pytest.mark.parametrize("name", list(GAMES))
def test_human_can_quit(name):
    lines = []
    assert play(name, against="random", seed=2, input_fn=scripted("q"), print_fn=lines.append) is None
    assert lines[-2:] == ["You left the game.", "The game's seed was 2: --seed 2 deals it again."]
    assert play(name, against="random", seed=2, input_fn=lambda prompt="": (_ for _ in ()).throw(EOFError),
                print_fn=lines.append) is None
    with pytest.raises(TypeError, match="input_fn must return the line typed, a str, got None"):
        play(name, against="random", seed=2, input_fn=lambda prompt="": None, print_fn=lines.append)


SECRETS = [("makabana", v, ("showing", "project:")) for v in GAMES["makabana"].raw_env.variants]
SECRETS += [("maunakea", v, ("dealt card",)) for v in GAMES["maunakea"].raw_env.variants if v != "basic"]


@pytest.mark.parametrize("name,variant,revealing", SECRETS)
def test_machine_secrets_stay_secret(name, variant, revealing):
    """Machine players' secret decisions are announced without their content: Maka Bana projects
    (Haapii "construct/take back <spot> showing ...", Mao "project: ..."), advanced Mauna Kea's
    removed cards ("remove the dealt card ...")."""
    lines = []
    play(name, players=4, against="random", seat=0, seed=9, variant=variant, max_turns=3,
         input_fn=scripted(), print_fn=lines.append)
    machine = [line for line in lines if line.startswith("player ") and "(you)" not in line.split(":")[0]]
    assert not any(word in line for line in machine for word in revealing)
    secret = [line for line in machine if line.endswith(tuple(SECRET_DECISIONS.values()))]
    if name == "makabana":
        assert len(secret) == 3 * 3  # three machine colours, three seasons, once each
    else:
        assert len(secret) == 3  # each machine player once, however many cards it removed


def test_play_rejects_a_bad_seat():
    with pytest.raises(ValueError, match="seat must be"):
        play("makemake", players=3, against="random", seat=3, seed=0, input_fn=scripted(), print_fn=print)



def test_agents_may_answer_with_numpy_0d_arrays():
    """A policy's ``predict`` returns its action as a 0-d array; the arena plays it as the integer."""
    class ArrayAnswers(RandomAgent):
        def act(self, observation, action_mask, state=None):
            return np.array(super().act(observation, action_mask, state))

    game = game_info("makemake", num_players=2)
    as_arrays = play_game(game, [ArrayAnswers(), ArrayAnswers()], seed=4)
    as_ints = play_game(game, [RandomAgent(), RandomAgent()], seed=4)
    assert as_arrays.actions == as_ints.actions and len(as_arrays.actions) > 0


# -- what an agent is given is checked before it reads it ---------------------------------------------
def _decision(game, seed=0):
    """A position of ``game`` after a few random moves: the state row, the player to act, and what
    that player is shown."""
    from agents.search.mcts import random_positions

    state = random_positions(game, 1, seed=seed)[0]
    player = int(game.core.player_to_act(state))
    obs = np.zeros(game.obs_size, dtype=np.int8)
    mask = np.zeros(game.num_actions, dtype=np.int8)
    game.core.observe_player(state, player, obs, mask)
    return state, player, obs, mask


AGENT_KINDS = [("makabana", "random"), ("makemake", "heuristic"), ("maunakea", "heuristic"),
               ("makabana", "shipped"), ("maunakea", "shipped"), ("makemake", "mcts:8"),
               ("makabana", "mcts:8+shipped")]


@pytest.mark.parametrize("name,spec", AGENT_KINDS)
def test_an_agent_refuses_a_seat_or_seed_outside_the_game(name, spec):
    """``reset(game, 99)`` made a search hang or crash, and a scorer play another player's move."""
    game = game_info(name, 2)
    agent = agents.make_agent(spec, game)
    for player in (2, -1, 1.0, True, None):
        with pytest.raises(ValueError, match="player is the agent's seat, an integer from 0 to 1"):
            agent.reset(game, player, 0)
    for seed in (-1, 1.5, "7", (1, -2)):
        with pytest.raises(ValueError, match="seed must be a non-negative integer, a tuple of them or None"):
            agent.reset(game, 0, seed)


@pytest.mark.parametrize("name,spec", AGENT_KINDS)
def test_an_agent_refuses_an_observation_mask_or_row_it_cannot_read(name, spec):
    """A heuristic read past a short observation (and played another move), a short row crashed the
    search and the scorer, a list for a mask failed in numpy: each is now a ValueError first."""
    game = game_info(name, 2)
    state, player, obs, mask = _decision(game)
    agent = agents.make_agent(spec, game)
    if agent.sizes_without_a_game() is None:   # a network may act before any reset: it knows its sizes
        with pytest.raises(ValueError, match="must be reset"):
            agent.act(obs, mask, state)
    agent.reset(game, player, 0)
    bad_calls = [
        ((obs, list(mask), state), r"action_mask must be a numpy array of shape \(%d,\)" % game.num_actions),
        ((obs, mask[:-1], state), "action_mask must be a numpy array"),
        ((obs, np.zeros_like(mask), state), "no legal action in the mask")]
    if agent.reads_observation:   # the scorer and the plain search play from the row: any observation will do
        bad_calls += [((obs[:3], mask, state), r"observation must be a numpy array of shape \(%d,\)" % game.obs_size),
                      ((obs[None], mask, state), "observation must be a numpy array")]
    else:
        assert mask[agent.act(None, mask, state)] == 1
    if agent.needs_state:
        other = _decision(game_info(name, 3))[0]
        bad_calls += [((obs, mask, state[:10].copy()), "state must be"),
                      ((obs, mask, None), "needs the state row"),
                      ((obs, mask, other), "the state row is a 3-player game")]
    for args, message in bad_calls:
        with pytest.raises(ValueError, match=message):
            agent.act(*args)
    if agent.needs_state:
        agent.reset(game, 1 - player, 0)
        wrong_seat = f"plays player {1 - player}, but the state row has player {player} to act"
        with pytest.raises(ValueError, match=wrong_seat):
            agent.act(obs, mask, state)
        agent.reset(game, player, 0)
    assert mask[agent.act(obs, mask, state)] == 1   # and the good call still plays


@pytest.mark.parametrize("layers,message", [
    ([(np.full((8, 935), np.nan), np.zeros(8)), (np.zeros((273, 8)), np.zeros(273))], "not finite"),
    ([(np.zeros((8, 935)), np.zeros(8)), (np.zeros((273, 9)), np.zeros(273))], r"layer 1 has weights \(273, 9\) and bias \(273,\), but takes 8 inputs"),
    ([(np.zeros((8, 935)), np.zeros(3)), (np.zeros((273, 8)), np.zeros(273))], "one bias per row")])
def test_a_network_file_that_cannot_play_is_refused_when_loaded(tmp_path, layers, message):
    """Such files loaded, then failed at the first move with a numpy shape error or played the first
    legal action on every move (weights that are not finite).  ``write_network`` no longer writes
    them, so this one is written by hand, as a changed or truncated file would be."""
    from agents.learned.network import write_network

    game = game_info("makabana", 2)
    path = tmp_path / "net.npz"
    with pytest.raises(ValueError, match=rf"the policy network.*{message}"):
        write_network(path, layers, "tanh", "none", False)
    assert not path.exists()
    arrays = {f"{kind}{i}": array for i, layer in enumerate(layers) for kind, array in zip("wb", layer)}
    np.savez(path, activation=np.array("tanh"), features=np.array("none"), skip=np.array(False), **arrays)
    with pytest.raises(ValueError, match=rf"snapshot '{path}': the policy network.*{message}"):
        agents.make_agent(str(path), game)


def test_writing_a_network_refuses_settings_it_could_not_play_back(tmp_path):
    from agents.learned.network import write_network

    layers = [(np.zeros((273, 935)), np.zeros(273))]
    for settings, message in ((("sigmoid", "none"), "activation must be one of tanh, relu"),
                              (("tanh", "sqrt"), "features must be one of none, log")):
        with pytest.raises(ValueError, match=message):
            write_network(tmp_path / "net.npz", layers, *settings, False)
    with pytest.raises(ValueError, match="the value network: layer 0 .*not finite"):
        write_network(tmp_path / "net.npz", layers, "tanh", "none", False, value=[(np.full((1, 935), np.inf),
                                                                                    np.zeros(1))])
    assert not (tmp_path / "net.npz").exists()


@pytest.mark.parametrize("seed", [1.5, None, True, "7", -1, (1, -2), ()])
def test_play_game_refuses_a_seed_that_is_not_one(seed):
    """A float or None failed with "'float' object is not iterable"; a float in a tuple was truncated."""
    game = game_info("makemake", 2)
    with pytest.raises(ValueError, match="seed must be a non-negative integer or a tuple of them"):
        play_game(game, [RandomAgent(), RandomAgent()], seed=seed)


def test_a_network_refuses_a_game_of_other_sizes_at_reset():
    """It failed at the first move, with numpy's shape error."""
    agent = agents.make_agent("shipped", game_info("makabana", 2))
    with pytest.raises(ValueError, match="takes observations of size 935 and has 273 actions; makemake"):
        agent.reset(game_info("makemake", 2), 0, 0)


@pytest.mark.parametrize("name,spec", AGENT_KINDS + [("maunakea", "lookahead")])
def test_reset_refuses_a_game_that_is_not_a_game_info(name, spec):
    """A game's name failed with "'str' object has no attribute 'num_players'" (or 'obs_size', 'name')."""
    agent = agents.make_agent(spec, game_info(name, 2))
    with pytest.raises(ValueError, match=r"game must be a GameInfo \(agents.game_info\(name, ...\)\), got 'makemake'"):
        agent.reset("makemake", 0)


def test_a_sampling_network_acts_before_reset():
    """A deterministic network could act before any reset, a sampling one failed: it had no generator."""
    game = game_info("makabana", 2)
    state, player, obs, mask = _decision(game)
    agent = agents.make_agent("shipped", game, deterministic=False)
    assert mask[agent.act(obs, mask)] == 1


def test_play_game_refuses_one_agent_in_two_seats():
    """A search failed later with a misleading message; a Maka Bana Mao heuristic shared its plans
    between the seats without a word."""
    mao = game_info("makabana", 2, "mao")
    for game, agent in ((game_info("makemake", 2), agents.make_agent("mcts:4", game_info("makemake", 2))),
                        (mao, agents.make_agent("heuristic", mao))):
        with pytest.raises(ValueError, match=r"is given for more than one seat; make one agent per seat"):
            play_game(game, [agent, agent], seed=0)


@pytest.mark.parametrize("name,spec", AGENT_KINDS)
def test_an_agent_refuses_a_mask_that_is_not_zeros_and_ones_and_an_observation_with_nan(name, spec):
    """A mask of halves made the heuristic "choose illegal action -1" (blaming itself); the random
    agent took NaN and -1 entries for legal actions."""
    game = game_info(name, 2)
    state, player, obs, mask = _decision(game)
    agent = agents.make_agent(spec, game)
    agent.reset(game, player, 0)
    for bad, got in ((mask * 0.5, "float64"), (np.where(mask != 0, 1.0, np.nan), "float64"),
                     (-mask, "values from -1 to 0"), (mask * 2, "values from 0 to 2")):
        with pytest.raises(ValueError, match=r"action_mask must hold 0 and 1 \(a bool or integer array\) in .*, "
                                             rf"got {got}"):
            agent.act(obs, bad, state)
    if agent.reads_observation:
        nan = obs.astype(np.float32)
        nan[5] = np.nan
        with pytest.raises(ValueError, match="observation must hold finite numbers in .*, got nan at index 5"):
            agent.act(nan, mask, state)
        assert mask[agent.act(obs.astype(np.float32), mask, state)] == 1   # a float observation is fine
    for good in (mask.astype(bool), mask.astype(np.uint8), mask.astype(np.int64)):
        assert mask[agent.act(obs, good, state)] == 1


def test_ratings_refuse_labels_anchor_and_counts_that_are_none():
    """``labels=5`` was a TypeError, an unhashable anchor "unhashable type", and 3 wins in 0 games
    the whole interval."""
    games = [{"a": 1, "b": 2}]
    for labels in (5, "ab", [["a"], "b"], ["a", "a", "b"]):
        with pytest.raises(ValueError, match="labels must be"):
            plackett_luce(games, labels=labels)
    with pytest.raises(ValueError, match=r"anchor must be one label \(a player's name\) or None, got \['a'\]"):
        fit_ratings(games, anchor=["a"])
    assert fit_ratings(games, labels=("a", "b"), anchor="a")["a"] == pytest.approx(1000.0)
    for wins, count in ((3, 0), (-1, 5), (0.5, 0)):
        with pytest.raises(ValueError, match=r"wins must lie between 0 and games"):
            wilson_interval(wins, count)
    assert wilson_interval(0, 0) == (0.0, 1.0)


# -- the drawing helpers of the games' renderers ---------------------------------------------------------
def test_outline_refuses_what_is_not_a_2d_boolean_mask():
    """None failed with AttributeError, a 1-D mask with IndexError."""
    from pacific_common.draw import outline

    for mask, got in ((None, "None"), (np.ones(5, bool), r"bool array of shape \(5,\)"),
                      (np.ones((3, 3), np.int8), r"int8 array of shape \(3, 3\)")):
        with pytest.raises(ValueError, match=rf"mask must be a 2-D numpy array of bools \(rows, columns\), got {got}"):
            outline(mask)
    square = np.zeros((5, 5), bool)
    square[1:4, 1:4] = True
    assert outline(square).sum() == 8 and not outline(square)[2, 2]


def test_hatch_stripes_cover_the_pixels_of_hatch():
    """The SVG's stripes of a finished game's bar (Make Make's and Mauna Kea's) hold exactly the pixel
    centres that ``hatch`` darkens in the picture: a stripe one pixel off passed the SVG tests."""
    from pacific_common.draw import hatch, hatch_stripes

    def inside(polygon, x, y):   # even-odd, edges included: the masks hold their boundary
        result = False
        for (x1, y1), (x2, y2) in zip(polygon, polygon[1:] + polygon[:1]):
            if abs((x2 - x1) * (y - y1) - (y2 - y1) * (x - x1)) < 1e-9 and \
                    min(x1, x2) <= x <= max(x1, x2) and min(y1, y2) <= y <= max(y1, y2):
                return True
            if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
                result = not result
        return result

    for height, width in ((12, 600), (12, 528), (14, 37)):
        stripes = hatch_stripes(height, width)
        painted = np.array([[any(inside(p, x + 0.5, y + 0.5) for p in stripes) for x in range(width)]
                            for y in range(height)])
        np.testing.assert_array_equal(painted, hatch(height, width))


def test_outline_runs_along_the_edge_of_a_stamp_the_shape_fills():
    """Beyond the array is outside the shape: a mask filling its stamp to the edge (Mauna Kea's
    swatches, hand tiles and boat hulls) got no outline there, so a 4 x 4 stamp got none at all."""
    from pacific_common.draw import outline

    full = outline(np.ones((4, 4), bool))
    assert full.sum() == 12 and not full[1:3, 1:3].any()
    half = np.zeros((4, 4), bool)
    half[:, :2] = True
    np.testing.assert_array_equal(outline(half), half)
