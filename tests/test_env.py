"""Tests shared by the three PettingZoo AEC environments (Maka Bana, Make Make and Mauna Kea).

Every game's ``env`` / ``raw_env`` follows the same conventions: the PettingZoo api, seed and render
tests pass; the game is registered with ``pettingzoo.make``; bad options, seeds and actions raise a
``ValueError`` naming the bad value and change nothing; the wrapped env ends the game on an illegal
move; copies, pickles and ``state()`` / ``set_state()`` continue a game exactly; seeding is
reproducible; rendering works in every mode; and the demo script runs.  Each test here runs once per
game (and player count) from the table ``GAMES``; what only one game has (hidden information,
invariants, observation content, its own illegal moves) stays in ``test_<game>_env.py``, which also
imports the helpers below.  Random play always draws from the action mask with a seeded
``numpy.random.Generator``, so every test is deterministic.
"""
import copy
import importlib
import os
import pickle
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pytest

import pettingzoo
from pettingzoo.test import api_test, render_test, seed_test
from pettingzoo.utils.env_logger import EnvLogger

import makabana_env  # noqa: F401  (each import registers "<game>-v0")
import makemake_env  # noqa: F401
import maunakea_env  # noqa: F401

ROOT = Path(__file__).resolve().parents[1]


# ---------------------------------------------------------------------------------------------------
# The games
@dataclass(frozen=True)
class Game:
    package: str                 # "makabana_env", ...: has env, raw_env, core, render and demo
    env_id: str                  # the pettingzoo.make id
    player_counts: tuple
    num_actions: int
    bad_variants: tuple          # (values, the word of the allowed variants the error must name)
    options: dict = field(default_factory=dict)  # keeps random games short (max_turns)
    legal_steps: tuple = (0, 5)  # legal moves before the illegal one that ends a wrapped game
    short_game: dict = field(default_factory=dict)  # options of a game played to its end
    late_action: str = "END_TURN"  # a core action constant from late in the action space
    warmup: int = 1              # scales the random moves made before copying / saving a game
    render_steps: int = 12       # random moves before rendering a state
    human_text: str = ""         # text the human render must print
    label: str = ""              # test id, where one game has two rows (a variant)

    @property
    def module(self):
        return importlib.import_module(self.package)

    @property
    def core(self):
        return importlib.import_module(self.package + ".core")

    def env(self, **kwargs):
        return self.module.env(**{**self.options, **kwargs})

    def raw_env(self, **kwargs):
        return self.module.raw_env(**{**self.options, **kwargs})


GAMES = [
    Game("makabana_env", "makabana-v0", (2, 3, 4, 5), 273, (("advanced", "foo"), "haapii"),
         legal_steps=(0, 3), late_action="TIKI_BASE", render_steps=6, human_text="Azzura-Grass-Flower"),
    Game("makabana_env", "makabana-v0", (2, 3, 4, 5), 343, (("Mao", "foo"), "mao"), options={"variant": "mao"},
         legal_steps=(0, 3, 40), late_action="MAO_STOP", render_steps=30, human_text="Azzura-Grass-Flower",
         label="makabana-mao"),
    Game("makemake_env", "makemake-v0", (2, 3, 4), 912, (("foo",), "standard"), options={"max_turns": 150},
         short_game={"max_turns": 20}, late_action="CEREMONY_BASE"),
    Game("maunakea_env", "maunakea-v0", (2, 3, 4), 2040, (("Advanced", "foo"), "basic"),
         options={"max_turns": 40}, legal_steps=(0, 5, 40), short_game={"max_turns": 8}, warmup=5,
         render_steps=60),
    Game("maunakea_env", "maunakea-v0", (2, 3, 4), 3052, (("Advanced", "foo"), "advanced"),
         options={"max_turns": 40, "variant": "advanced"}, legal_steps=(0, 5, 40),
         short_game={"max_turns": 8}, late_action="QUAKE_LAY_BASE", warmup=5, render_steps=60,
         label="maunakea-advanced"),
]


def _short(game):
    return game.label or game.package.split("_")[0]


def games():
    return [pytest.param(g, id=_short(g)) for g in GAMES]


def games_and_players():
    return [pytest.param(g, n, id=f"{_short(g)}-{n}") for g in GAMES for n in g.player_counts]


def games_and(values_of):
    """One case per game and value of ``values_of(game)``."""
    return [pytest.param(g, v, id=f"{_short(g)}-{v!r}") for g in GAMES for v in values_of(g)]


# ---------------------------------------------------------------------------------------------------
# Helpers (also imported by the per-game test modules)
def random_legal(mask, rng):
    legal = np.flatnonzero(mask)
    assert legal.size > 0
    return int(rng.choice(legal))


def random_steps(e, rng, count):
    for _ in range(count):
        e.step(random_legal(e.observe(e.agent_selection)["action_mask"], rng))


def assert_obs_equal(o1, o2, msg=""):
    assert set(o1) == {"observation", "action_mask"} == set(o2)
    np.testing.assert_array_equal(o1["observation"], o2["observation"], err_msg=msg)
    np.testing.assert_array_equal(o1["action_mask"], o2["action_mask"], err_msg=msg)


def play_out(e, rng, record=None, max_steps=100_000):
    """Play a (wrapped or raw) env to the end with random legal actions; dead agents step None.
    Returns the list of (agent, last()) seen, and appends the actions taken to ``record``."""
    seen = []
    for _ in range(max_steps):
        if not e.agents:
            return seen
        agent = e.agent_selection
        obs, reward, term, trunc, info = e.last()
        seen.append((agent, obs, reward, term, trunc, copy.deepcopy(info)))
        action = None if term or trunc else random_legal(obs["action_mask"], rng)
        if record is not None:
            record.append(action)
        e.step(action)
    raise AssertionError("game did not end")


def replay(e, actions):
    seen = []
    for action in actions:
        agent = e.agent_selection
        obs, reward, term, trunc, info = e.last()
        seen.append((agent, obs, reward, term, trunc, copy.deepcopy(info)))
        e.step(action)
    assert not e.agents
    return seen


def assert_same_trajectory(seen1, seen2):
    assert len(seen1) == len(seen2)
    for i, (a, b) in enumerate(zip(seen1, seen2)):
        assert a[0] == b[0], f"agent differs at decision {i}"
        assert_obs_equal(a[1], b[1], f"decision {i}")
        assert a[2:] == b[2:], f"reward/termination/truncation/info differ at decision {i}"


def snapshot(e):
    return (e.state(), e.agent_selection, list(e.agents), dict(e.rewards), dict(e._cumulative_rewards),
            dict(e.terminations), dict(e.truncations), copy.deepcopy(e.infos))


def assert_snapshot_equal(before, after):
    np.testing.assert_array_equal(before[0], after[0])
    assert before[1:] == after[1:]


def assert_illegal_raises(e, action, decision):
    """A masked-out action raises a ValueError naming the action and the decision, changing nothing."""
    before = snapshot(e)
    assert e.observe(e.agent_selection)["action_mask"][action] == 0
    with pytest.raises(ValueError) as info:
        e.step(action)
    assert str(action) in str(info.value)
    assert decision in str(info.value)
    assert_snapshot_equal(before, snapshot(e))


# ---------------------------------------------------------------------------------------------------
# 1. PettingZoo API, seed and render tests; registration
@pytest.mark.parametrize("game,num_players", games_and_players())
def test_api_test_wrapped(game, num_players):
    api_test(game.env(num_players=num_players), num_cycles=300)


@pytest.mark.parametrize("game,num_players", games_and_players())
def test_api_test_raw(game, num_players):
    api_test(game.raw_env(num_players=num_players), num_cycles=300)


@pytest.mark.parametrize("game,num_players", games_and_players())
def test_seed_test(game, num_players):
    seed_test(lambda: game.env(num_players=num_players), num_cycles=300)


@pytest.mark.parametrize("game,num_players", games_and_players())
def test_render_test(game, num_players, capsys):
    render_test(lambda **kwargs: game.env(num_players=num_players, **kwargs))
    capsys.readouterr()


@pytest.mark.parametrize("game", games())
def test_pettingzoo_make(game):
    e = pettingzoo.make("aec", game.env_id, num_players=3, **game.options)
    assert isinstance(e, pettingzoo.AECEnv)
    e.reset(seed=0)
    assert e.possible_agents == ["player_0", "player_1", "player_2"]
    assert e.unwrapped.num_players == 3
    play_out(e, np.random.default_rng(0))
    with pytest.raises(ValueError, match="num_players"):
        pettingzoo.make("aec", game.env_id, num_players=7)


@pytest.mark.parametrize("game", games())
def test_numpy_integer_options_accepted(game):
    e = game.raw_env(num_players=np.int64(3), max_turns=np.int32(5))
    assert e.num_players == 3 and e.max_turns == 5


# ---------------------------------------------------------------------------------------------------
# 2. Bad options, seeds and actions
def bad_options(game):
    most = max(game.player_counts)
    players = f"2 to {most}"
    variants, allowed = game.bad_variants
    return ([("num_players", 1, players), ("num_players", most + 1, players),
             ("num_players", str(most - 1), players), ("num_players", 2.5, players),
             ("num_players", True, players)]
            + [("variant", v, allowed) for v in variants]
            + [("max_turns", 0, "integer from 1 to"), ("max_turns", -1, "integer from 1 to"),
               ("max_turns", "x", "integer from 1 to"),
               ("render_mode", "foo", "rgb_array"),
               ("reward", "foo", "win_loss")])


@pytest.mark.parametrize("factory", ["env", "raw_env"])
@pytest.mark.parametrize("game,bad", games_and(bad_options))
def test_bad_options(game, bad, factory):
    option, value, allowed = bad
    with pytest.raises(ValueError) as info:
        getattr(game.module, factory)(**{option: value})
    message = str(info.value)
    assert option in message
    assert allowed in message
    assert repr(value) in message


@pytest.mark.parametrize("seed", [-1, 1.5, "1"])
@pytest.mark.parametrize("game", games())
def test_bad_seed(game, seed):
    e = game.raw_env(num_players=3)
    with pytest.raises(ValueError, match="seed"):
        e.reset(seed=seed)


@pytest.mark.parametrize("num_players", [2, 4])
@pytest.mark.parametrize("game,action", games_and(lambda g: [g.num_actions, 10**9, -1, -5, -(10**9)]))
def test_raw_out_of_range_action_raises_value_error(game, action, num_players):
    e = game.raw_env(num_players=num_players)
    e.reset(seed=1)
    before = snapshot(e)
    with pytest.raises(ValueError, match=str(action)):
        e.step(action)
    assert_snapshot_equal(before, snapshot(e))


@pytest.mark.parametrize("action", [None, 1.0, "3", np.float64(2), [4]])
@pytest.mark.parametrize("game", games())
def test_raw_non_integer_action_raises_value_error(game, action):
    e = game.raw_env(num_players=3)
    e.reset(seed=1)
    before = snapshot(e)
    with pytest.raises(ValueError, match="integer action"):
        e.step(action)
    assert_snapshot_equal(before, snapshot(e))
    if action is None:  # and the message says None is only for finished agents
        with pytest.raises(ValueError, match="None"):
            e.step(None)
        assert_snapshot_equal(before, snapshot(e))


# ---------------------------------------------------------------------------------------------------
# 3. The wrapped env: TerminateIllegalWrapper, stepping before reset and after the end
def _illegal_in_range_action(mask):
    return int(np.flatnonzero(mask == 0)[0])


@pytest.mark.parametrize("game,num_players,legal_steps", [
    pytest.param(g, n, k, id=f"{_short(g)}-{n}-{k}") for g in GAMES for n in g.player_counts for k in g.legal_steps])
def test_wrapped_illegal_action_ends_game(game, num_players, legal_steps):
    e = game.env(num_players=num_players)
    e.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(legal_steps):
        e.step(random_legal(e.last()[0]["action_mask"], rng))
    offender = e.agent_selection
    obs = e.last()[0]
    EnvLogger.flush()
    e.step(_illegal_in_range_action(obs["action_mask"]))
    assert any("Illegal move" in str(m) for m in EnvLogger.mqueue)
    assert all(e.terminations.values()) and len(e.terminations) == num_players
    assert e.rewards == {a: (-1 if a == offender else 0) for a in e.possible_agents}
    # a non-None action for a finished agent is refused clearly, and changes nothing
    state = e.state()
    with pytest.raises(ValueError, match="None"):
        e.step(0)
    np.testing.assert_array_equal(state, e.state())
    finals = {}
    while e.agents:
        agent = e.agent_selection
        _, reward, term, trunc, _ = e.last()
        assert term or trunc
        finals[agent] = reward
        e.step(None)
    assert finals == {a: (-1 if a == offender else 0) for a in e.possible_agents}


@pytest.mark.parametrize("game,action", games_and(lambda g: [-1, g.num_actions, 10**9]))
def test_wrapped_out_of_range_action_asserts(game, action):
    e = game.env(num_players=3)
    e.reset(seed=0)
    state = e.state()
    with pytest.raises(AssertionError):
        e.step(action)
    np.testing.assert_array_equal(state, e.state())
    assert not any(e.terminations.values())


@pytest.mark.parametrize("game", games())
def test_wrapped_none_for_live_agent_asserts(game):
    e = game.env(num_players=3)
    e.reset(seed=0)
    with pytest.raises(AssertionError):
        e.step(None)


@pytest.mark.parametrize("game", games())
def test_wrapped_step_before_reset(game):
    e = game.env(num_players=3)
    with pytest.raises(AssertionError, match="reset"):
        e.step(0)
    with pytest.raises(AssertionError, match="reset"):
        e.observe("player_0")


@pytest.mark.parametrize("game", games())
def test_wrapped_attributes_before_reset(game):
    """As PettingZoo's ``OrderEnforcingWrapper``: the game's attributes cannot be read before reset.
    (Properties that raised AttributeError sent Python on to ``BaseWrapper.__getattr__``, which
    read them from the raw env.)"""
    e = game.env(num_players=3)
    for name in ("agents", "agent_selection", "rewards", "terminations", "truncations", "infos",
                 "num_agents"):
        with pytest.raises(AttributeError, match=f"{name} cannot be accessed before reset"):
            getattr(e, name)
    assert e.possible_agents == ["player_0", "player_1", "player_2"]
    e.reset(seed=0)
    assert e.num_agents == 3 and e.agent_selection in e.agents and set(e.infos) == set(e.agents)


@pytest.mark.parametrize("game", games())
def test_wrapped_step_after_game_over(game):
    e = game.env(num_players=4, **game.short_game)
    e.reset(seed=4)
    rng = np.random.default_rng(4)
    # play until the game is over (first dead agent selected)
    while True:
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            break
        e.step(random_legal(obs["action_mask"], rng))
    state, agents = e.state(), list(e.agents)
    assert not e.last()[0]["action_mask"].any()
    for action in (0, 5, getattr(game.core, game.late_action)):
        with pytest.raises(ValueError, match="only valid action is None"):
            e.step(action)
        np.testing.assert_array_equal(state, e.state())
        assert e.agents == agents
    while e.agents:
        e.step(None)
    # with every agent gone PettingZoo warns and ignores the step
    EnvLogger.flush()
    e.step(0)
    e.step(None)
    assert any("after all agents are terminated" in str(m) for m in EnvLogger.mqueue)
    np.testing.assert_array_equal(state, e.state())


# ---------------------------------------------------------------------------------------------------
# 4. Copies, pickles and state round trips; set_state errors
@pytest.mark.parametrize("how", ["deepcopy", "pickle"])
@pytest.mark.parametrize("factory", ["env", "raw_env"])
@pytest.mark.parametrize("game,num_players", games_and_players())
def test_copy_continues_identically(game, num_players, factory, how):
    e = getattr(game, factory)(num_players=num_players, reward="margin")
    e.reset(seed=21)
    rng = np.random.default_rng(21)
    random_steps(e, rng, 4 * game.warmup * num_players + 3)
    clone = copy.deepcopy(e) if how == "deepcopy" else pickle.loads(pickle.dumps(e))
    assert type(clone) is type(e)
    np.testing.assert_array_equal(clone.state(), e.state())
    actions = []
    seen = play_out(e, rng, record=actions)
    # the clone was not affected by the original's play, and replays it exactly
    assert clone.agents == e.possible_agents
    assert_same_trajectory(seen, replay(clone, actions))
    assert clone.unwrapped.scores() == e.unwrapped.scores()
    np.testing.assert_array_equal(clone.state(), e.state())


@pytest.mark.parametrize("game,num_players", games_and_players())
def test_state_round_trip(game, num_players):
    e = game.raw_env(num_players=num_players)
    e.reset(seed=8)
    rng = np.random.default_rng(8)
    random_steps(e, rng, 3 * game.warmup * num_players + 1)
    saved = e.state()
    selection = e.agent_selection
    observations = {a: e.observe(a) for a in e.agents}
    actions = []
    seen = play_out(e, rng, record=actions)
    for target in (e, game.raw_env(num_players=num_players)):
        target.set_state(saved)
        np.testing.assert_array_equal(target.state(), saved)
        assert target.agent_selection == selection and target.agents == target.possible_agents
        for agent, obs in observations.items():
            assert_obs_equal(target.observe(agent), obs)
        assert_same_trajectory(seen, replay(target, actions))
    # the returned array is a copy: writing to it changes nothing
    s = e.state()
    s[:] = 0
    assert e.state()[game.core.NUM_PLAYERS] == num_players


@pytest.mark.parametrize("game", games())
def test_set_state_of_finished_game(game):
    e = game.raw_env(num_players=3)
    e.reset(seed=9)
    rng = np.random.default_rng(9)
    while e.state()[game.core.STATUS] == game.core.STATUS_RUNNING:
        random_steps(e, rng, 1)
    final, scores = e.state(), e.scores()
    f = game.raw_env(num_players=3)
    f.set_state(final)
    assert all(f.terminations.values()) or all(f.truncations.values())
    assert f.scores() == scores
    assert f.infos == e.infos  # the final infos of the game that ended, "end" included where reported
    assert not f.observe(f.agent_selection)["action_mask"].any()
    while f.agents:
        f.step(None)


BAD_STATES = {  # a wrong shape or dtype, made for a game's state size
    "short": lambda size: np.zeros(5, np.int64),
    "long": lambda size: np.zeros(size + 1, np.int64),
    "2-d": lambda size: np.zeros((1, size), np.int64),
    "float": lambda size: np.zeros(size, np.float64),
}


@pytest.mark.parametrize("bad", sorted(BAD_STATES))
@pytest.mark.parametrize("game", games())
def test_set_state_wrong_shape_or_dtype(game, bad):
    e = game.raw_env(num_players=3)
    e.reset(seed=0)
    before = snapshot(e)
    with pytest.raises(ValueError, match="shape"):
        e.set_state(BAD_STATES[bad](game.core.STATE_SIZE))
    assert_snapshot_equal(before, snapshot(e))


def other_player_counts(game):
    pairs = [(3, 4), (2, 4), (4, 2)]
    return pairs + [(5, 3)] if 5 in game.player_counts else pairs


@pytest.mark.parametrize("game,counts", games_and(other_player_counts))
def test_set_state_other_player_count(game, counts):
    source, target = counts
    state = game.raw_env(num_players=source).state()
    e = game.raw_env(num_players=target)
    before = snapshot(e)
    with pytest.raises(ValueError) as info:
        e.set_state(state)
    assert f"{source}-player" in str(info.value) and f"{target} players" in str(info.value)
    assert_snapshot_equal(before, snapshot(e))


# ---------------------------------------------------------------------------------------------------
# 5. Seeding
@pytest.mark.parametrize("game,num_players", games_and_players())
def test_reset_with_seed_is_reproducible(game, num_players):
    e = game.env(num_players=num_players)
    runs = []
    for _ in range(2):
        e.reset(seed=77)
        start = e.state()
        actions = []
        seen = play_out(e, np.random.default_rng(5), record=actions)
        runs.append((start, actions, seen, e.state()))
    np.testing.assert_array_equal(runs[0][0], runs[1][0])
    assert runs[0][1] == runs[1][1]
    assert_same_trajectory(runs[0][2], runs[1][2])
    np.testing.assert_array_equal(runs[0][3], runs[1][3])
    # another seed gives another generator; the game's own random moves follow the seed
    core = game.core
    e.reset(seed=78)
    assert e.state()[core.RNG] != runs[0][0][core.RNG]
    e.reset(seed=77)
    f = game.raw_env(num_players=num_players)
    f.reset(seed=77)
    s1, s2 = e.state(), f.state()
    assert [core.random_action(s1) for _ in range(20)] == [core.random_action(s2) for _ in range(20)]


@pytest.mark.parametrize("game", games())
def test_unseeded_resets_continue_reproducibly(game):
    a, b = game.raw_env(num_players=3), game.raw_env(num_players=3)
    a.reset(seed=3)
    b.reset(seed=3)
    a.reset()
    b.reset()
    np.testing.assert_array_equal(a.state(), b.state())
    c = game.raw_env(num_players=3)
    c.reset(seed=3)
    assert a.state()[game.core.RNG] != c.state()[game.core.RNG]


# ---------------------------------------------------------------------------------------------------
# 6. Rendering
@pytest.mark.parametrize("game,num_players", games_and_players())
def test_render_ansi_and_rgb(game, num_players):
    for mode in ("ansi", "rgb_array"):
        e = game.env(num_players=num_players, render_mode=mode)
        e.reset(seed=0)
        first = e.render()
        play_out(e, np.random.default_rng(0))
        last = e.render()
        if mode == "ansi":
            assert isinstance(first, str) and isinstance(last, str)
        else:
            for img in (first, last):
                assert isinstance(img, np.ndarray) and img.dtype == np.uint8 and img.ndim == 3
                assert img.shape[2] == 3 and img.shape == first.shape



@pytest.mark.parametrize("game,num_players", games_and_players())
def test_render_ansi_lines_stay_within_100_characters_and_count_in_good_english(game, num_players):
    """render_ansi promises lines of at most 100 characters (Mauna Kea's advanced card lines ran to 177,
    Mao's project lines to 128; long lines are wrapped now, every word kept), and a count of one takes
    the singular ("1 card", "Bag: 1 tile"), for every viewer at every step of random games."""
    import re

    from pacific_common.draw import TEXT_WIDTH, text_lines

    render = importlib.import_module(game.package + ".render")
    e = game.raw_env(num_players=num_players, **game.short_game)
    e.reset(seed=num_players)
    rng = np.random.default_rng(num_players)
    for step in range(3000):
        state = e.state()
        for viewer in [None, *range(num_players)]:
            text = render.render_ansi(state, viewer)
            assert max(map(len, text.splitlines())) <= TEXT_WIDTH, (step, viewer, text)
            one = re.search(r"(?<![\d.])1 (cards|tiles|points|tokens|turns|huts)\b", text)
            assert one is None, (step, viewer, one and one.group(0), text)
        if not e.agents or all(e.terminations.values()) or all(e.truncations.values()):
            break
        e.step(random_legal(e.observe(e.agent_selection)["action_mask"], rng))
    long = "  cards: " + "; ".join(["helicopter rescue"] * 12)
    wrapped = text_lines(["top", long])
    assert wrapped.split() == ["top", *long.split()]                # every word kept, in order
    assert all(len(line) <= TEXT_WIDTH for line in wrapped.splitlines())
    assert all(line.startswith("      ") for line in wrapped.splitlines()[2:])   # its indentation + 4

@pytest.mark.parametrize("game", games())
def test_render_human_prints(game, capsys):
    e = game.env(num_players=3, render_mode="human")
    e.reset(seed=0)
    capsys.readouterr()
    assert e.render() is None
    out = capsys.readouterr().out
    assert out.strip() and game.human_text in out


@pytest.mark.parametrize("game", games())
def test_render_shows_every_mode_as_a_spectator_sees_it(game, capsys):
    """render() drew the text as the player to act sees it, so a stream of frames showed each
    player's hidden projects or cards in turn: every mode now shows what every player may see, the
    spectator's view of render_ansi(state, None), whoever is to act."""
    render = importlib.import_module(game.package + ".render")
    envs = {mode: game.env(num_players=3, render_mode=mode) for mode in ("ansi", "human", "rgb_array")}
    for e in envs.values():
        e.reset(seed=5)
    rng = np.random.default_rng(5)
    for _ in range(game.render_steps):
        state = envs["ansi"].state()
        assert envs["ansi"].render() == render.render_ansi(state, None)
        capsys.readouterr()
        envs["human"].render()
        assert capsys.readouterr().out == render.render_ansi(state, None) + "\n"
        np.testing.assert_array_equal(envs["rgb_array"].render(), render.render_rgb(state))
        action = random_legal(envs["ansi"].last()[0]["action_mask"], rng)
        for e in envs.values():
            e.step(action)


@pytest.mark.parametrize("game", games())
def test_a_game_ended_by_an_illegal_move_says_so_in_its_text(game, capsys):
    """The wrapped env ends the game for an illegal move, which the game's own row never sees: its
    text says so on a last line (the picture shows the position as it stands)."""
    e = game.env(num_players=3, render_mode="ansi")
    e.reset(seed=3)
    offender = e.agent_selection
    e.step(_illegal_in_range_action(e.last()[0]["action_mask"]))
    render = importlib.import_module(game.package + ".render")
    ending = f"Game over: {offender} made an illegal move, which ends the game"
    assert e.render() == render.render_ansi(e.state(), None) + "\n" + ending
    e.unwrapped.render_mode = "human"
    capsys.readouterr()
    assert e.render() is None and capsys.readouterr().out.rstrip("\n").endswith(ending)
    human = game.env(num_players=3, render_mode="human")   # prints it on the illegal step itself
    human.reset(seed=3)
    capsys.readouterr()
    human.step(_illegal_in_range_action(human.last()[0]["action_mask"]))
    assert capsys.readouterr().out.rstrip("\n").endswith(ending)
    e.reset(seed=3)   # a new game: the line is gone
    e.unwrapped.render_mode = "ansi"
    assert e.render() == render.render_ansi(e.state(), None)


@pytest.mark.parametrize("game", games())
def test_a_render_mode_set_after_construction_is_checked_when_drawing(game):
    """check_options refuses a bad render_mode at construction; one set on the env afterwards got
    the text instead of an error."""
    e = game.raw_env(num_players=3, render_mode="ansi")
    e.render_mode = "rgb"
    with pytest.raises(ValueError, match=r"render_mode must be None or one of \['human', 'ansi', 'rgb_array'\], got 'rgb'"):
        e.render()


@pytest.mark.parametrize("game", games())
def test_render_without_mode_warns(game):
    e = game.env(num_players=3)
    e.reset(seed=0)
    with pytest.warns(UserWarning, match="render_mode"):
        assert e.render() is None


@pytest.mark.parametrize("game", games())
def test_render_does_not_change_state(game):
    render = importlib.import_module(game.package + ".render")
    e = game.raw_env(num_players=4)
    e.reset(seed=0)
    random_steps(e, np.random.default_rng(0), game.render_steps)
    state = e.state()
    render.render_ansi(state, 1)
    render.render_ansi(state, None)
    render.render_rgb(state)
    np.testing.assert_array_equal(state, e.state())


@pytest.mark.parametrize("game", games())
def test_render_ansi_refuses_a_viewer_who_is_not_a_player(game):
    """Make Make and Mauna Kea failed with IndexError for viewer 99; Maka Bana drew a board for a
    "player 99" or "player -1" who owns no colour."""
    render = importlib.import_module(game.package + ".render")
    e = game.raw_env(num_players=2)
    e.reset(seed=0)
    for viewer in (-1, 2, 99, 1.5, "0", True):
        with pytest.raises(ValueError, match="viewer_player must be an integer from 0 to 1"):
            render.render_ansi(e.state(), viewer)


# ---------------------------------------------------------------------------------------------------
# 7. Demo
@pytest.mark.parametrize("game", games())
def test_demo_runs(game):
    env_vars = dict(os.environ)
    env_vars["PYTHONPATH"] = str(ROOT) + os.pathsep + env_vars.get("PYTHONPATH", "")
    result = subprocess.run([sys.executable, "-m", game.package + ".demo", "--players", "3", "--seed", "1"],
                            cwd=ROOT, env=env_vars, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert "Final scores:" in result.stdout
    for p in range(3):
        assert f"player_{p}:" in result.stdout and "points" in result.stdout
