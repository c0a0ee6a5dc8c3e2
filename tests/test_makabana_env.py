"""Tests of the Maka Bana PettingZoo environment (``makabana_env.env`` / ``raw_env``).

They cover the PettingZoo API checks, hidden information, bad input, game invariants under random
play, copying and pickling, seeding, rendering and the demo script.  Random play always draws from
the action mask with a seeded ``numpy.random.Generator``, so every test is deterministic.
"""
import copy
import os
import pickle
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]

import pettingzoo
from pettingzoo.test import api_test, render_test, seed_test
from pettingzoo.utils.env_logger import EnvLogger

import makabana_env  # registers "makabana-v0"
from makabana_env import core
from makabana_env.board import BIKINI, HUTS_PER_COLOUR, NUM_SPOTS, SPOT_BEACH, SPOT_INDEX, SPOT_NAMES

PLAYER_COUNTS = [2, 3, 4, 5]
SHOW_BEACH, SHOW_AREA, SHOW_THEME = core.SHOWN_BEACH, core.SHOWN_AREA, core.SHOWN_THEME


# ---------------------------------------------------------------------------------------------------
# helpers
def construct(name, shown):
    return 3 * SPOT_INDEX[name] + shown


def take_back(name, shown):
    return core.TAKE_BACK_BASE + 3 * SPOT_INDEX[name] + shown


def tiki(name):
    return core.TIKI_BASE + SPOT_INDEX[name]


def num_colours(num_players):
    return 4 if num_players == 2 else num_players


def random_legal(mask, rng, only_constructions=False):
    legal = np.flatnonzero(mask)
    if only_constructions:
        legal = legal[(legal < core.TAKE_BACK_BASE) | (legal >= core.TIKI_BASE)]
    assert legal.size > 0
    return int(rng.choice(legal))


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


# ---------------------------------------------------------------------------------------------------
# 1. PettingZoo API, seed and render tests; registration
@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_api_test_wrapped(num_players):
    api_test(makabana_env.env(num_players=num_players), num_cycles=300)


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_api_test_raw(num_players):
    api_test(makabana_env.raw_env(num_players=num_players), num_cycles=300)


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_seed_test(num_players):
    seed_test(lambda: makabana_env.env(num_players=num_players), num_cycles=300)


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_render_test(num_players, capsys):
    render_test(lambda **kwargs: makabana_env.env(num_players=num_players, **kwargs))
    capsys.readouterr()


def test_pettingzoo_make():
    e = pettingzoo.make("aec", "makabana-v0", num_players=3)
    assert isinstance(e, pettingzoo.AECEnv)
    e.reset(seed=0)
    assert e.possible_agents == ["player_0", "player_1", "player_2"]
    assert e.unwrapped.num_players == 3
    play_out(e, np.random.default_rng(0))
    with pytest.raises(ValueError, match="num_players"):
        pettingzoo.make("aec", "makabana-v0", num_players=7)


def test_numpy_integer_options_accepted():
    e = makabana_env.raw_env(num_players=np.int64(3), max_turns=np.int32(5))
    assert e.num_players == 3 and e.max_turns == 5


# ---------------------------------------------------------------------------------------------------
# 2. Hidden information
def _pair_of_games(num_players, warmup_seasons, target_offset, seed):
    """Two raw games played identically up to the project decision of the target colour in season
    ``warmup_seasons``.  The target colour makes only constructions before, so it keeps its paint."""
    a, b = makabana_env.raw_env(num_players=num_players), makabana_env.raw_env(num_players=num_players)
    a.reset(seed=seed)
    b.reset(seed=seed)
    rng = np.random.default_rng(seed)
    n = num_colours(num_players)
    target = (warmup_seasons + target_offset) % n  # the first player card moves on every season
    while True:
        s = a.state()
        assert s[core.STATUS] == core.STATUS_RUNNING, "warm-up ended the game; pick another seed"
        if s[core.SEASON] == warmup_seasons and s[core.TO_ACT] == target:
            assert s[core.PHASE] == core.PHASE_PROJECT and s[core.FIRST] == warmup_seasons % n
            assert s[core.PAINTS + target] == 2
            return a, b, rng, target
        mask = a.observe(a.agent_selection)["action_mask"]
        action = random_legal(mask, rng, only_constructions=(s[core.TO_ACT] == target))
        a.step(action)
        b.step(action)


def _compare_until(a, b, rng, others, stop):
    """Step both games with the same random actions, comparing the observations of ``others`` at
    every decision until ``stop(state)``.  Returns the phases at which comparisons were made."""
    phases = []
    while not stop(a.state()):
        assert a.agent_selection == b.agent_selection
        for agent in others:
            assert_obs_equal(a.observe(agent), b.observe(agent), f"{agent} sees the hidden project")
        phases.append(int(a.state()[core.PHASE]))
        mask = a.observe(a.agent_selection)["action_mask"]
        np.testing.assert_array_equal(mask, b.observe(b.agent_selection)["action_mask"])
        action = random_legal(mask, rng)
        a.step(action)
        b.step(action)
    return phases


SAME_HINT_PAIRS = {
    "construct-beach": (construct("Azzura-Rock-Flower", SHOW_BEACH), construct("Azzura-Grass-Fish", SHOW_BEACH)),
    "construct-theme": (construct("Azzura-Grass-Flower", SHOW_THEME), construct("Coquito-Sand-Flower", SHOW_THEME)),
    "takeback-area": (take_back("Coquito-Grass-Flower", SHOW_AREA), take_back("Diabolo-Grass-Tattoo", SHOW_AREA)),
    "takeback-beach": (take_back("Azzura-Rock-Flower", SHOW_BEACH), take_back("Azzura-Lagoon-Fish", SHOW_BEACH)),
}


@pytest.mark.parametrize("pair", sorted(SAME_HINT_PAIRS))
@pytest.mark.parametrize("target_offset", ["first", "last"])
@pytest.mark.parametrize("warmup_seasons", [0, 2])
@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_hidden_project_same_hint(num_players, warmup_seasons, target_offset, pair):
    n = num_colours(num_players)
    offset = 0 if target_offset == "first" else n - 1
    a, b, rng, target = _pair_of_games(num_players, warmup_seasons, offset, seed=11 + num_players)
    owner = target % num_players
    me = f"player_{owner}"
    others = [p for p in a.possible_agents if p != me]
    season = a.state()[core.SEASON]
    action_a, action_b = SAME_HINT_PAIRS[pair]
    assert a.observe(me)["action_mask"][action_a] and b.observe(me)["action_mask"][action_b]
    a.step(action_a)
    b.step(action_b)
    # the swap is real: the owner's own view differs (full project of its own colour)
    assert not np.array_equal(a.observe(me)["observation"], b.observe(me)["observation"])
    phases = _compare_until(a, b, rng, others, lambda s: s[core.SEASON] != season or s[core.STATUS] != 0)
    assert core.PHASE_TIKI in phases, "the tiki phase was never compared"
    if offset == 0:
        assert core.PHASE_PROJECT in phases, "later players' project decisions were never compared"


DIFFERENT_HINTS = (construct("Azzura-Rock-Flower", SHOW_BEACH), take_back("Coquito-Sand-Fish", SHOW_THEME))


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_shown_card_hidden_until_everybody_has_chosen(num_players):
    """A later player does not see an earlier player's shown card (nor its paint card) while the
    projects are being chosen; all hints appear together in the tiki phase."""
    a, b, rng, target = _pair_of_games(num_players, 0, 0, seed=5)
    me = f"player_{target % num_players}"
    others = [p for p in a.possible_agents if p != me]
    a.step(DIFFERENT_HINTS[0])
    b.step(DIFFERENT_HINTS[1])
    phases = _compare_until(a, b, rng, others, lambda s: s[core.PHASE] != core.PHASE_PROJECT)
    assert phases and set(phases) == {core.PHASE_PROJECT}
    # revealed together: now every other player sees the differing hints
    for agent in others:
        assert not np.array_equal(a.observe(agent)["observation"], b.observe(agent)["observation"])


NUM_SHOWN_CARDS = 11  # 4 beaches, 4 areas, 3 themes
# The shown-card one-hot as far as it fits in a colour block (see test_colour_block_fits_shown_card).
SHOWN_SLOTS = min(NUM_SHOWN_CARDS, core.COLOUR_FEATURES - core.CF_SHOWN_CARD)


def _colour_block(obs, k):
    base = core.OBS_COLOUR + k * core.COLOUR_FEATURES
    return obs[base: base + core.COLOUR_FEATURES]


def _shown_cards(obs, k):
    base = core.OBS_COLOUR + k * core.COLOUR_FEATURES + core.CF_SHOWN_CARD
    return obs[base: base + SHOWN_SLOTS]


def _own_block(obs, k):
    base = core.OBS_OWN_PROJECT + k * (NUM_SPOTS + 1)
    return obs[base: base + NUM_SPOTS + 1]


def _shown_index(name, shown):
    return int(core.shown_card(SPOT_INDEX[name], shown))


def test_two_player_sees_both_own_projects_not_the_opponents():
    e = makabana_env.raw_env(num_players=2)
    e.reset(seed=0)
    plan = [  # colour: (action, spot, take-back, shown)
        (construct("Azzura-Rock-Flower", SHOW_BEACH), "Azzura-Rock-Flower", 0, SHOW_BEACH),
        (take_back("Coquito-Sand-Fish", SHOW_AREA), "Coquito-Sand-Fish", 1, SHOW_AREA),
        (take_back("Diabolo-Rock-Tattoo", SHOW_AREA), "Diabolo-Rock-Tattoo", 1, SHOW_AREA),
        (construct("Bikini-Sand-Flower", SHOW_THEME), "Bikini-Sand-Flower", 0, SHOW_THEME),
    ]
    for colour in range(3):
        assert e.agent_selection == f"player_{colour % 2}"
        e.step(plan[colour][0])
    # colour 3 (player_1) to act; player_0 looks from colour 0, player_1 from colour 3
    for agent, view in (("player_0", 0), ("player_1", 3)):
        obs = e.observe(agent)["observation"]
        player = int(agent[-1])
        for colour in range(4):
            k = (colour - view) % 4
            own, block = _own_block(obs, k), _colour_block(obs, k)
            submitted = colour < 3
            assert block[core.CF_SUBMITTED] == submitted
            assert block[core.CF_MINE] == (colour % 2 == player)
            if colour % 2 == player and submitted:
                _, name, flag, shown = plan[colour]
                expected = np.zeros(NUM_SPOTS + 1, np.int8)
                expected[SPOT_INDEX[name]] = 1
                expected[NUM_SPOTS] = flag
                np.testing.assert_array_equal(own, expected, err_msg=f"{agent} own colour {colour}")
                cards = np.zeros(SHOWN_SLOTS, np.int8)
                cards[_shown_index(name, shown)] = 1
                np.testing.assert_array_equal(_shown_cards(obs, k), cards)
                assert block[core.CF_PAINT_SHOWN] == flag
            else:
                assert not own.any(), f"{agent} sees colour {colour}'s project"
                assert not _shown_cards(obs, k).any(), f"{agent} sees colour {colour}'s shown card"
                assert block[core.CF_PAINT_SHOWN] == 0
    e.step(plan[3][0])
    assert e.decision() == "tiki"
    # now every shown card is public, the hidden cards of the opponent still are not
    for agent in e.possible_agents:
        player = int(agent[-1])
        obs = e.observe(agent)["observation"]
        view = core.viewpoint(e.state(), player)
        assert view % 2 == player
        for colour in range(4):
            k = (colour - view) % 4
            _, name, flag, shown = plan[colour]
            block = _colour_block(obs, k)
            cards = np.zeros(SHOWN_SLOTS, np.int8)
            cards[_shown_index(name, shown)] = 1
            np.testing.assert_array_equal(_shown_cards(obs, k), cards)
            assert block[core.CF_PAINT_SHOWN] == flag
            own = _own_block(obs, k)
            assert own.any() == (colour % 2 == player)


def test_colour_block_fits_shown_card():
    """The env docstring promises an 11-way one-hot of the shown card inside each colour block;
    CF_SHOWN_CARD + 11 must not run into the next block."""
    assert core.CF_SHOWN_CARD + NUM_SHOWN_CARDS <= core.COLOUR_FEATURES


@pytest.mark.parametrize("num_players", [3, 4, 5])
def test_tattoo_hint_stays_in_its_colour_block(num_players):
    """A revealed Tattoo hint (the 11th card) of the last relative colour must be written in that
    colour's block, not in the next one: with fewer than 5 colours it must not mark an absent colour
    as present, with 5 colours it must not add a spot to the viewer's own project."""
    e = makabana_env.raw_env(num_players=num_players)
    e.reset(seed=0)
    for _ in range(num_players - 1):
        e.step(construct("Coquito-Sand-Fish", SHOW_BEACH))
    e.step(construct("Diabolo-Rock-Tattoo", SHOW_THEME))  # the last colour shows the Tattoo theme
    assert e.decision() == "tiki" and e.agent_selection == "player_0"
    obs = e.observe("player_0")["observation"]
    for k in range(core.MAX_COLOURS):
        assert obs[core.OBS_COLOUR + k * core.COLOUR_FEATURES + core.CF_PRESENT] == (k < num_players), \
            f"relative colour {k} present flag wrong"
    own = _own_block(obs, 0)
    assert np.flatnonzero(own[:NUM_SPOTS]).tolist() == [SPOT_INDEX["Coquito-Sand-Fish"]], \
        "the viewer's own project names more than one spot"
    # and the Tattoo card itself is visible in the last colour's block
    last = core.OBS_COLOUR + (num_players - 1) * core.COLOUR_FEATURES
    tattoo = _shown_index("Diabolo-Rock-Tattoo", SHOW_THEME)
    assert tattoo == NUM_SHOWN_CARDS - 1
    assert last + core.CF_SHOWN_CARD + tattoo < last + core.COLOUR_FEATURES, \
        "the Tattoo one-hot slot lies outside the colour block"


# ---------------------------------------------------------------------------------------------------
# 3. Bad input
BAD_OPTIONS = [
    ("num_players", 1, "2 to 5"), ("num_players", 6, "2 to 5"), ("num_players", "4", "2 to 5"),
    ("num_players", 2.5, "2 to 5"), ("num_players", True, "2 to 5"),
    ("variant", "mao", "haapii"), ("variant", "foo", "haapii"),
    ("max_turns", 0, "positive integer"), ("max_turns", -1, "positive integer"),
    ("max_turns", "x", "positive integer"),
    ("render_mode", "foo", "rgb_array"),
    ("reward", "foo", "win_loss"),
]


@pytest.mark.parametrize("factory", ["env", "raw_env"])
@pytest.mark.parametrize("option,value,allowed", BAD_OPTIONS)
def test_bad_options(factory, option, value, allowed):
    with pytest.raises(ValueError) as info:
        getattr(makabana_env, factory)(**{option: value})
    message = str(info.value)
    assert option in message
    assert allowed in message
    assert repr(value) in message


def _snapshot(e):
    return (e.state(), e.agent_selection, list(e.agents), dict(e.rewards), dict(e._cumulative_rewards),
            dict(e.terminations), dict(e.truncations), copy.deepcopy(e.infos))


def _assert_snapshot_equal(before, after):
    np.testing.assert_array_equal(before[0], after[0])
    assert before[1:] == after[1:]


@pytest.mark.parametrize("action", [273, 10**9, -1, -5, -(10**9)])
@pytest.mark.parametrize("num_players", [2, 4])
def test_raw_out_of_range_action_raises_value_error(num_players, action):
    e = makabana_env.raw_env(num_players=num_players)
    e.reset(seed=1)
    before = _snapshot(e)
    with pytest.raises(ValueError, match=str(action)):
        e.step(action)
    _assert_snapshot_equal(before, _snapshot(e))


def _assert_illegal_raises(e, action, decision):
    before = _snapshot(e)
    assert e.observe(e.agent_selection)["action_mask"][action] == 0
    with pytest.raises(ValueError) as info:
        e.step(action)
    assert str(action) in str(info.value)
    assert decision in str(info.value)
    _assert_snapshot_equal(before, _snapshot(e))


def test_raw_illegal_actions_raise_and_leave_state_unchanged():
    e = makabana_env.raw_env(num_players=3)
    e.reset(seed=2)
    _assert_illegal_raises(e, tiki("Azzura-Grass-Flower"), "project")  # tiki during the project phase
    _assert_illegal_raises(e, construct("Bikini-Sand-Flower", SHOW_BEACH), "project")  # out of play
    # take-back without paint
    state = e.state()
    state[core.PAINTS + 0] = 0
    e.set_state(state)
    mask = e.observe("player_0")["action_mask"]
    assert not mask[core.TAKE_BACK_BASE:core.TIKI_BASE].any() and mask[:core.TAKE_BACK_BASE].any()
    _assert_illegal_raises(e, take_back("Azzura-Rock-Flower", SHOW_AREA), "project")
    # None for a live agent
    before = _snapshot(e)
    with pytest.raises(ValueError, match="None"):
        e.step(None)
    _assert_snapshot_equal(before, _snapshot(e))
    # tiki phase: projects and occupied spots are illegal
    e.step(construct("Azzura-Rock-Flower", SHOW_BEACH))
    e.step(construct("Coquito-Sand-Fish", SHOW_BEACH))
    e.step(construct("Diabolo-Rock-Tattoo", SHOW_BEACH))
    assert e.decision() == "tiki" and e.agent_selection == "player_0"
    _assert_illegal_raises(e, construct("Azzura-Rock-Flower", SHOW_BEACH), "tiki")
    _assert_illegal_raises(e, take_back("Azzura-Rock-Flower", SHOW_BEACH), "tiki")
    _assert_illegal_raises(e, tiki("Bikini-Sand-Flower"), "tiki")
    e.step(tiki("Azzura-Grass-Flower"))
    _assert_illegal_raises(e, tiki("Azzura-Grass-Flower"), "tiki")  # already has a tiki
    # own hut without a paint card shown: not protectable
    state = e.state()
    state[core.HUT + SPOT_INDEX["Coquito-Lagoon-Fish"]] = 1
    state[core.RESERVE + 1] -= 1
    e.set_state(state)
    _assert_illegal_raises(e, tiki("Coquito-Lagoon-Fish"), "tiki")


def _illegal_in_range_action(mask):
    return int(np.flatnonzero(mask == 0)[0])


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
@pytest.mark.parametrize("legal_steps", [0, 3])
def test_wrapped_illegal_action_ends_game(num_players, legal_steps):
    e = makabana_env.env(num_players=num_players)
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


@pytest.mark.parametrize("action", [-1, 273, 10**9])
def test_wrapped_out_of_range_action_asserts(action):
    e = makabana_env.env(num_players=3)
    e.reset(seed=0)
    state = e.state()
    with pytest.raises(AssertionError):
        e.step(action)
    np.testing.assert_array_equal(state, e.state())
    assert not any(e.terminations.values())


def test_wrapped_none_for_live_agent_asserts():
    e = makabana_env.env(num_players=3)
    e.reset(seed=0)
    with pytest.raises(AssertionError):
        e.step(None)


def test_wrapped_step_after_game_over():
    e = makabana_env.env(num_players=4)
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
    for action in (0, 5, core.TIKI_BASE):
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


def test_wrapped_step_before_reset():
    e = makabana_env.env(num_players=3)
    with pytest.raises(AssertionError, match="reset"):
        e.step(0)
    with pytest.raises(AssertionError, match="reset"):
        e.observe("player_0")


@pytest.mark.parametrize("bad", [
    np.zeros(5, np.int64),
    np.zeros(core.STATE_SIZE + 1, np.int64),
    np.zeros((1, core.STATE_SIZE), np.int64),
    np.zeros(core.STATE_SIZE, np.float64),
])
def test_set_state_wrong_shape_or_dtype(bad):
    e = makabana_env.raw_env(num_players=3)
    e.reset(seed=0)
    before = _snapshot(e)
    with pytest.raises(ValueError, match="shape"):
        e.set_state(bad)
    _assert_snapshot_equal(before, _snapshot(e))


@pytest.mark.parametrize("source,target", [(3, 4), (2, 4), (4, 2), (5, 3)])
def test_set_state_other_player_count(source, target):
    state = makabana_env.raw_env(num_players=source).state()
    e = makabana_env.raw_env(num_players=target)
    before = _snapshot(e)
    with pytest.raises(ValueError) as info:
        e.set_state(state)
    assert f"{source}-player" in str(info.value) and f"{target} players" in str(info.value)
    _assert_snapshot_equal(before, _snapshot(e))


# ---------------------------------------------------------------------------------------------------
# 4. Invariants under random play
def _check_invariants(e, state, previous):
    n, p = int(state[core.NUM_COLOURS]), e.num_players
    huts, tikis = state[core.HUT:core.HUT + NUM_SPOTS], state[core.TIKI:core.TIKI + NUM_SPOTS]
    assert ((huts >= -1) & (huts < n)).all() and ((tikis >= -1) & (tikis < n)).all()
    for c in range(n):
        assert (huts == c).sum() + state[core.RESERVE + c] == HUTS_PER_COLOUR
        assert 0 <= state[core.RESERVE + c] <= HUTS_PER_COLOUR
        assert (tikis == c).sum() <= 1, f"colour {c} has more than one tiki"
        assert 0 <= state[core.PAINTS + c] <= 2
        assert state[core.PAINTS + c] <= previous[core.PAINTS + c], "paint cards increased"
    for c in range(n, core.MAX_COLOURS):
        assert state[core.RESERVE + c] == 0 and state[core.PAINTS + c] == 0
    if n == 3:
        bikini = SPOT_BEACH == BIKINI
        assert (huts[bikini] == -1).all() and (tikis[bikini] == -1).all()
    for agent in e.possible_agents:
        obs = e.observe(agent)
        assert e.observation_space(agent).contains(obs), f"observation of {agent} outside its space"
        if agent != e.agent_selection or state[core.STATUS] != core.STATUS_RUNNING:
            assert not obs["action_mask"].any()
    if state[core.STATUS] == core.STATUS_RUNNING:
        assert e.agent_selection == f"player_{state[core.TO_ACT] % p}"
        assert e.observe(e.agent_selection)["action_mask"].any()
        assert not any(e.terminations.values()) and not any(e.truncations.values())


@pytest.mark.parametrize("max_turns", [100, 3])
@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_invariants_random_games(num_players, seed, max_turns):
    e = makabana_env.raw_env(num_players=num_players, max_turns=max_turns)
    e.reset(seed=seed)
    rng = np.random.default_rng(1000 * num_players + seed)
    previous = e.state()
    _check_invariants(e, previous, previous)
    steps = 0
    while e.state()[core.STATUS] == core.STATUS_RUNNING:
        e.step(random_legal(e.observe(e.agent_selection)["action_mask"], rng))
        state = e.state()
        _check_invariants(e, state, previous)
        previous = state
        steps += 1
        assert steps < 10_000
    status = state[core.STATUS]
    assert state[core.PHASE] == core.PHASE_OVER
    assert all(e.terminations.values()) or all(e.truncations.values())
    assert all(e.terminations[a] == (status == core.STATUS_TERMINATED) for a in e.agents)
    assert all(e.truncations[a] == (status == core.STATUS_TRUNCATED) for a in e.agents)
    if max_turns == 3 and status == core.STATUS_TRUNCATED:
        assert state[core.SEASON] == 3
    scores = e.scores()
    for agent in e.possible_agents:
        assert e.infos[agent]["scores"] == scores
    best = max(scores.values())
    winners = [a for a, v in scores.items() if v == best]
    for agent in e.possible_agents:
        if status == core.STATUS_TRUNCATED:
            expected = 0
        elif scores[agent] == best:
            expected = 1 if len(winners) == 1 else 0
        else:
            expected = -1
        assert e.rewards[agent] == expected
        assert e._cumulative_rewards[agent] == expected
    # the agents then leave with None
    while e.agents:
        e.step(None)


# ---------------------------------------------------------------------------------------------------
# 5. Copies, pickles and state round trips
@pytest.mark.parametrize("how", ["deepcopy", "pickle"])
@pytest.mark.parametrize("factory", ["env", "raw_env"])
@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_copy_continues_identically(num_players, factory, how):
    e = getattr(makabana_env, factory)(num_players=num_players, reward="margin")
    e.reset(seed=21)
    rng = np.random.default_rng(21)
    for _ in range(4 * num_players + 3):
        e.step(random_legal(e.observe(e.agent_selection)["action_mask"], rng))
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


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_state_round_trip(num_players):
    e = makabana_env.raw_env(num_players=num_players)
    e.reset(seed=8)
    rng = np.random.default_rng(8)
    for _ in range(3 * num_players + 1):
        e.step(random_legal(e.observe(e.agent_selection)["action_mask"], rng))
    saved = e.state()
    selection = e.agent_selection
    observations = {a: e.observe(a) for a in e.agents}
    actions = []
    seen = play_out(e, rng, record=actions)
    for target in (e, makabana_env.raw_env(num_players=num_players)):
        target.set_state(saved)
        np.testing.assert_array_equal(target.state(), saved)
        assert target.agent_selection == selection and target.agents == target.possible_agents
        for agent, obs in observations.items():
            assert_obs_equal(target.observe(agent), obs)
        assert_same_trajectory(seen, replay(target, actions))
    # the returned array is a copy: writing to it changes nothing
    s = e.state()
    s[:] = 0
    assert e.state()[core.NUM_PLAYERS] == num_players


def test_set_state_of_finished_game():
    e = makabana_env.raw_env(num_players=3)
    e.reset(seed=9)
    rng = np.random.default_rng(9)
    while e.state()[core.STATUS] == core.STATUS_RUNNING:
        e.step(random_legal(e.observe(e.agent_selection)["action_mask"], rng))
    final, scores = e.state(), e.scores()
    f = makabana_env.raw_env(num_players=3)
    f.set_state(final)
    assert all(f.terminations.values()) or all(f.truncations.values())
    assert f.scores() == scores
    while f.agents:
        f.step(None)


# ---------------------------------------------------------------------------------------------------
# 6. Seeding
@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_reset_with_seed_is_reproducible(num_players):
    e = makabana_env.env(num_players=num_players)
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
    e.reset(seed=78)
    assert e.state()[core.RNG] != runs[0][0][core.RNG]
    e.reset(seed=77)
    f = makabana_env.raw_env(num_players=num_players)
    f.reset(seed=77)
    s1, s2 = e.state(), f.state()
    assert [core.random_action(s1) for _ in range(20)] == [core.random_action(s2) for _ in range(20)]


def test_unseeded_resets_continue_reproducibly():
    a, b = makabana_env.raw_env(num_players=3), makabana_env.raw_env(num_players=3)
    a.reset(seed=3)
    b.reset(seed=3)
    a.reset()
    b.reset()
    np.testing.assert_array_equal(a.state(), b.state())
    c = makabana_env.raw_env(num_players=3)
    c.reset(seed=3)
    assert a.state()[core.RNG] != c.state()[core.RNG]


# ---------------------------------------------------------------------------------------------------
# 7. Rendering
@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_render_ansi(num_players):
    e = makabana_env.env(num_players=num_players, render_mode="ansi")
    e.reset(seed=0)
    text = e.render()
    assert isinstance(text, str)
    for name in SPOT_NAMES:
        assert name in text
    play_out(e, np.random.default_rng(0))
    assert isinstance(e.render(), str)


@pytest.mark.parametrize("num_players", [2, 3, 5])
def test_render_rgb(num_players):
    e = makabana_env.env(num_players=num_players, render_mode="rgb_array")
    e.reset(seed=0)
    img = e.render()
    assert isinstance(img, np.ndarray) and img.dtype == np.uint8
    assert img.ndim == 3 and img.shape[2] == 3 and img.shape[0] > 0 and img.shape[1] > 0
    state = e.state()
    rng = np.random.default_rng(0)
    for _ in range(10):
        e.step(random_legal(e.last()[0]["action_mask"], rng))
    img2 = e.render()
    assert img2.shape == img.shape and img2.dtype == np.uint8
    assert not np.array_equal(state, e.state())


def test_render_human_prints(capsys):
    e = makabana_env.env(num_players=3, render_mode="human")
    e.reset(seed=0)
    capsys.readouterr()
    assert e.render() is None
    out = capsys.readouterr().out
    assert SPOT_NAMES[0] in out


def test_render_without_mode_warns():
    e = makabana_env.env(num_players=3)
    e.reset(seed=0)
    with pytest.warns(UserWarning, match="render_mode"):
        assert e.render() is None


def _without_project(state, colour):
    state = state.copy()
    state[core.PROJECT_KIND + colour] = core.NO_PROJECT
    state[core.PROJECT_SPOT + colour] = -1
    state[core.PROJECT_SHOWN + colour] = -1
    return state


def _check_ansi_hides_projects(render_ansi, state, num_players):
    """For every viewer (and a spectator), a colour's current project adds its spot's name to the
    text only if the viewer owns that colour.  This does not depend on the layout of the text: the
    text is compared with the text of the same state without that project."""
    for viewer in list(range(num_players)) + [None]:
        text = render_ansi(state, viewer)
        assert isinstance(text, str)
        for colour in range(num_colours(num_players)):
            if state[core.PROJECT_KIND + colour] == core.NO_PROJECT:
                continue
            name = SPOT_NAMES[state[core.PROJECT_SPOT + colour]]
            plain = render_ansi(_without_project(state, colour), viewer)
            if viewer is not None and colour % num_players == viewer:
                assert text.count(name) > plain.count(name), "own project not shown (check is void)"
            else:
                assert text.count(name) == plain.count(name), \
                    f"viewer {viewer} sees colour {colour}'s project spot {name}:\n{text}"


@pytest.mark.parametrize("pair", sorted(SAME_HINT_PAIRS))
@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_render_ansi_hides_other_projects(num_players, pair):
    from makabana_env.render import render_ansi

    a, b, rng, target = _pair_of_games(num_players, 1, 0, seed=31)
    owner = target % num_players
    season = a.state()[core.SEASON]
    action_a, action_b = SAME_HINT_PAIRS[pair]
    a.step(action_a)
    b.step(action_b)
    phases = set()
    while a.state()[core.SEASON] == season:
        state_a, state_b = a.state(), b.state()
        phases.add(int(state_a[core.PHASE]))
        _check_ansi_hides_projects(render_ansi, state_a, num_players)
        _check_ansi_hides_projects(render_ansi, state_b, num_players)
        for viewer in list(range(num_players)) + [None]:
            if viewer != owner:
                assert render_ansi(state_a, viewer) == render_ansi(state_b, viewer), \
                    f"viewer {viewer} can tell the two projects apart"
        action = random_legal(a.observe(a.agent_selection)["action_mask"], rng)
        a.step(action)
        b.step(action)
    assert core.PHASE_TIKI in phases and core.PHASE_PROJECT in phases


def test_render_does_not_change_state():
    from makabana_env.render import render_ansi, render_rgb

    e = makabana_env.raw_env(num_players=4)
    e.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(6):
        e.step(random_legal(e.observe(e.agent_selection)["action_mask"], rng))
    state = e.state()
    render_ansi(state, 1)
    render_ansi(state, None)
    render_rgb(state)
    np.testing.assert_array_equal(state, e.state())


# ---------------------------------------------------------------------------------------------------
# 8. Demo
def test_demo_runs():
    env_vars = dict(os.environ)
    env_vars["PYTHONPATH"] = str(ROOT) + os.pathsep + env_vars.get("PYTHONPATH", "")
    result = subprocess.run([sys.executable, "-m", "makabana_env.demo", "--players", "3", "--seed", "1"],
                            cwd=ROOT, env=env_vars, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert "Final scores:" in result.stdout
    for p in range(3):
        assert f"player_{p}:" in result.stdout and "points" in result.stdout
