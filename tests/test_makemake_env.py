"""Tests of the Make Make PettingZoo environment (``makemake_env.env`` / ``raw_env``).

They cover the PettingZoo API checks, bad input, game invariants under random play, copying and
pickling, seeding, the absence of hidden information and rendering.  Random play always draws from
the action mask with a seeded ``numpy.random.Generator``, so every test is deterministic.
"""
import copy
import pickle
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]

import pettingzoo
from pettingzoo.test import api_test, render_test, seed_test
from pettingzoo.utils.env_logger import EnvLogger

import makemake_env  # registers "makemake-v0"
from makemake_env import core
from makemake_env.board import (
    GROUND_TERRITORIES, MOAI_SITES, NEIGHBOURS, NUM_GROUNDS, NUM_MOAI, NUM_TERRITORIES, SACRED,
    TANGATA_MANU_PER_CLAN, TERRITORY_NAMES, TOKENS_PER_CLAN,
)

PLAYER_COUNTS = [2, 3, 4]
MAX_TURNS = 150


# ---------------------------------------------------------------------------------------------------
# helpers
def random_legal(mask, rng):
    legal = np.flatnonzero(mask)
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


def clustering_action(e, rng):
    """A random legal action biased towards small placements next to the clan's own territories (or a
    Moai), bringing the chief along: unlike uniform play, it encloses grounds, builds Moai and wins."""
    s = e.state()
    legal = np.flatnonzero(e.observe(e.agent_selection)["action_mask"])
    if s[core.PHASE] != core.PHASE_DOMINANCE or rng.random() < 0.15:
        return int(rng.choice(legal))
    clan = s[core.TO_ACT]
    weighted = []
    for a in legal[legal < core.WITHDRAW_BASE].tolist():
        t, r = divmod(a, 22)
        k, chief = r // 2 + 1, r % 2
        near = sum(1 for u in NEIGHBOURS[t] if u >= 0 and (s[core.OWNER + u] == clan or s[core.MOAI + u]))
        if k <= 2 and near >= 1:
            weighted += [a] * (near + 2 * chief)
    return int(rng.choice(weighted)) if weighted else int(rng.choice(legal))


def uniform_action(e, rng):
    return random_legal(e.observe(e.agent_selection)["action_mask"], rng)


POLICIES = {"uniform": uniform_action, "clustering": clustering_action}


def random_steps(e, rng, count):
    for _ in range(count):
        e.step(random_legal(e.observe(e.agent_selection)["action_mask"], rng))


# ---------------------------------------------------------------------------------------------------
# 1. PettingZoo API, seed and render tests; registration
@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_api_test_wrapped(num_players):
    api_test(makemake_env.env(num_players=num_players, max_turns=MAX_TURNS), num_cycles=300)


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_api_test_raw(num_players):
    api_test(makemake_env.raw_env(num_players=num_players, max_turns=MAX_TURNS), num_cycles=300)


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_seed_test(num_players):
    seed_test(lambda: makemake_env.env(num_players=num_players, max_turns=MAX_TURNS), num_cycles=300)


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_render_test(num_players, capsys):
    render_test(lambda **kwargs: makemake_env.env(num_players=num_players, max_turns=MAX_TURNS, **kwargs))
    capsys.readouterr()


def test_pettingzoo_make():
    e = pettingzoo.make("aec", "makemake-v0", num_players=3)
    assert isinstance(e, pettingzoo.AECEnv)
    e.reset(seed=0)
    assert e.possible_agents == ["player_0", "player_1", "player_2"]
    assert e.unwrapped.num_players == 3
    play_out(e, np.random.default_rng(0))
    with pytest.raises(ValueError, match="num_players"):
        pettingzoo.make("aec", "makemake-v0", num_players=7)


def test_defaults_and_spaces():
    e = makemake_env.raw_env()
    assert e.num_players == 4 and e.max_turns == 1000 and e.variant == "standard" and e.reward == "win_loss"
    for agent in e.possible_agents:
        assert e.action_space(agent).n == 912 == core.NUM_ACTIONS
        space = e.observation_space(agent)
        assert space["observation"].shape == (core.OBS_SIZE,) and space["action_mask"].shape == (912,)


def test_numpy_integer_options_accepted():
    e = makemake_env.raw_env(num_players=np.int64(3), max_turns=np.int32(5))
    assert e.num_players == 3 and e.max_turns == 5


# ---------------------------------------------------------------------------------------------------
# 2. Bad input
BAD_OPTIONS = [
    ("num_players", 1, "2 to 4"), ("num_players", 5, "2 to 4"), ("num_players", "3", "2 to 4"),
    ("num_players", 2.5, "2 to 4"), ("num_players", True, "2 to 4"),
    ("variant", "foo", "standard"),
    ("max_turns", 0, "positive integer"), ("max_turns", -1, "positive integer"),
    ("max_turns", "x", "positive integer"),
    ("render_mode", "foo", "rgb_array"),
    ("reward", "foo", "win_loss"),
]


@pytest.mark.parametrize("factory", ["env", "raw_env"])
@pytest.mark.parametrize("option,value,allowed", BAD_OPTIONS)
def test_bad_options(factory, option, value, allowed):
    with pytest.raises(ValueError) as info:
        getattr(makemake_env, factory)(**{option: value})
    message = str(info.value)
    assert option in message
    assert allowed in message
    assert repr(value) in message


@pytest.mark.parametrize("seed", [-1, 1.5, "1"])
def test_bad_seed(seed):
    e = makemake_env.raw_env(num_players=3)
    with pytest.raises(ValueError, match="seed"):
        e.reset(seed=seed)


def _snapshot(e):
    return (e.state(), e.agent_selection, list(e.agents), dict(e.rewards), dict(e._cumulative_rewards),
            dict(e.terminations), dict(e.truncations), copy.deepcopy(e.infos))


def _assert_snapshot_equal(before, after):
    np.testing.assert_array_equal(before[0], after[0])
    assert before[1:] == after[1:]


@pytest.mark.parametrize("action", [912, 10**9, -1, -5, -(10**9)])
@pytest.mark.parametrize("num_players", [2, 4])
def test_raw_out_of_range_action_raises_value_error(num_players, action):
    e = makemake_env.raw_env(num_players=num_players)
    e.reset(seed=1)
    before = _snapshot(e)
    with pytest.raises(ValueError, match=str(action)):
        e.step(action)
    _assert_snapshot_equal(before, _snapshot(e))


@pytest.mark.parametrize("action", [None, 1.0, "3", np.float64(2), [4]])
def test_raw_non_integer_action_raises_value_error(action):
    e = makemake_env.raw_env(num_players=3)
    e.reset(seed=1)
    before = _snapshot(e)
    with pytest.raises(ValueError, match="integer action"):
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
    e = makemake_env.raw_env(num_players=3)
    e.reset(seed=2)
    t = TERRITORY_NAMES.index("Sacred-1")
    _assert_illegal_raises(e, core.WITHDRAW_BASE + t, "dominance")   # withdraw from nothing
    _assert_illegal_raises(e, core.MOAI_BASE + MOAI_SITES[0], "dominance")
    _assert_illegal_raises(e, core.CEREMONY_BASE, "dominance")
    e.step(22 * t + 2 * 2 + 1)                                           # 3 tokens and the chief
    e.step(22 * (t + 1))
    e.step(22 * (t + 2))
    assert e.agent_selection == "player_0"
    _assert_illegal_raises(e, 22 * t, "dominance")                       # own territory
    _assert_illegal_raises(e, 22 * (t + 1), "dominance")                 # 1 token against 1
    _assert_illegal_raises(e, 22 * (t + 3) + 1, "dominance")             # the chief is on the board
    _assert_illegal_raises(e, 22 * (t + 3) + 2 * 8, "dominance")         # 9 tokens, 8 in supply


def _illegal_in_range_action(mask):
    return int(np.flatnonzero(mask == 0)[0])


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
@pytest.mark.parametrize("legal_steps", [0, 5])
def test_wrapped_illegal_action_ends_game(num_players, legal_steps):
    e = makemake_env.env(num_players=num_players)
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


@pytest.mark.parametrize("action", [-1, 912, 10**9])
def test_wrapped_out_of_range_action_asserts(action):
    e = makemake_env.env(num_players=3)
    e.reset(seed=0)
    state = e.state()
    with pytest.raises(AssertionError):
        e.step(action)
    np.testing.assert_array_equal(state, e.state())
    assert not any(e.terminations.values())


def test_wrapped_none_for_live_agent_asserts():
    e = makemake_env.env(num_players=3)
    e.reset(seed=0)
    with pytest.raises(AssertionError):
        e.step(None)


def test_wrapped_step_before_reset():
    e = makemake_env.env(num_players=3)
    with pytest.raises(AssertionError, match="reset"):
        e.step(0)
    with pytest.raises(AssertionError, match="reset"):
        e.observe("player_0")


def test_wrapped_step_after_game_over():
    e = makemake_env.env(num_players=4, max_turns=20)
    e.reset(seed=4)
    rng = np.random.default_rng(4)
    while True:
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            break
        e.step(random_legal(obs["action_mask"], rng))
    state, agents = e.state(), list(e.agents)
    assert not e.last()[0]["action_mask"].any()
    for action in (0, 5, core.CEREMONY_BASE):
        with pytest.raises(ValueError, match="only valid action is None"):
            e.step(action)
        np.testing.assert_array_equal(state, e.state())
        assert e.agents == agents
    while e.agents:
        e.step(None)
    EnvLogger.flush()
    e.step(0)
    e.step(None)
    assert any("after all agents are terminated" in str(m) for m in EnvLogger.mqueue)
    np.testing.assert_array_equal(state, e.state())


@pytest.mark.parametrize("bad", [
    np.zeros(5, np.int64),
    np.zeros(core.STATE_SIZE + 1, np.int64),
    np.zeros((1, core.STATE_SIZE), np.int64),
    np.zeros(core.STATE_SIZE, np.float64),
])
def test_set_state_wrong_shape_or_dtype(bad):
    e = makemake_env.raw_env(num_players=3)
    e.reset(seed=0)
    before = _snapshot(e)
    with pytest.raises(ValueError, match="shape"):
        e.set_state(bad)
    _assert_snapshot_equal(before, _snapshot(e))


@pytest.mark.parametrize("source,target", [(3, 4), (2, 4), (4, 2)])
def test_set_state_other_player_count(source, target):
    state = makemake_env.raw_env(num_players=source).state()
    e = makemake_env.raw_env(num_players=target)
    before = _snapshot(e)
    with pytest.raises(ValueError) as info:
        e.set_state(state)
    assert f"{source}-player" in str(info.value) and f"{target} players" in str(info.value)
    _assert_snapshot_equal(before, _snapshot(e))


# ---------------------------------------------------------------------------------------------------
# 3. Invariants under random play
def _leader(state, p):
    """The clan meeting both conditions of Spiritual Supremacy, or None."""
    counts = [int(sum(state[core.OWNER + t] == c for t in SACRED)) for c in range(p)]
    best = max(counts)
    return counts.index(best) if best >= 3 and counts.count(best) == 1 else None


def _check_invariants(e, state, previous):
    p = e.num_players
    owner = state[core.OWNER:core.OWNER + NUM_TERRITORIES]
    tokens = state[core.TOKENS:core.TOKENS + NUM_TERRITORIES]
    moai = state[core.MOAI:core.MOAI + NUM_TERRITORIES]
    grounds = state[core.GROUND:core.GROUND + NUM_GROUNDS]
    # one clan per territory (the OWNER slot of each of the 36 territories; the centre is none of them),
    # at least one token wherever a clan rules, nothing on a Moai
    assert ((owner >= -1) & (owner < p)).all()
    assert ((tokens >= 1) == (owner >= 0)).all() and (tokens <= TOKENS_PER_CLAN).all()
    assert set(np.unique(moai).tolist()) <= {0, 1}
    assert (owner[moai == 1] == -1).all() and (tokens[moai == 1] == 0).all()
    assert set(np.flatnonzero(moai).tolist()) <= set(MOAI_SITES.tolist())
    # Moai: at most 12, never removed
    built = int(moai.sum())
    assert built + state[core.MOAI_LEFT] == NUM_MOAI and 0 <= built <= NUM_MOAI
    assert (moai >= previous[core.MOAI:core.MOAI + NUM_TERRITORIES]).all(), "a Moai disappeared"
    # pieces conserved per clan
    for c in range(p):
        assert tokens[owner == c].sum() + state[core.TOKEN_SUPPLY + c] == TOKENS_PER_CLAN
        assert (grounds == c).sum() + state[core.MANU_SUPPLY + c] == TANGATA_MANU_PER_CLAN
        assert state[core.TOKEN_SUPPLY + c] >= 0 and state[core.MANU_SUPPLY + c] >= 0
        chief = state[core.CHIEF_AT + c]
        assert -1 <= chief < NUM_TERRITORIES
        if chief >= 0:
            assert owner[chief] == c and moai[chief] == 0, f"clan {c}'s chief on {TERRITORY_NAMES[chief]}"
    for c in range(p, 4):
        assert state[core.TOKEN_SUPPLY + c] == 0 and state[core.MANU_SUPPLY + c] == 0
        assert state[core.CHIEF_AT + c] == -1
    # Tangata Manu only on protected grounds
    assert ((grounds >= -1) & (grounds < p)).all()
    for g in np.flatnonzero(grounds >= 0):
        c = grounds[g]
        assert all(moai[t] == 1 or owner[t] == c for t in GROUND_TERRITORIES[g]), f"unprotected ground {g}"
    # the amulet: a valid clan, never given back, and with the clan meeting both conditions
    holder = state[core.AMULET]
    assert -1 <= holder < p
    assert previous[core.AMULET] < 0 or holder >= 0
    leader = _leader(state, p)
    if leader is not None:
        assert holder == leader, "Spiritual Supremacy not handed over"
    # turns, status, winner
    assert previous[core.TURN] <= state[core.TURN] <= state[core.MAX_TURNS]
    status = state[core.STATUS]
    if status == core.STATUS_RUNNING:
        assert state[core.WINNER] == -1
        assert e.agent_selection == f"player_{state[core.TO_ACT]}"
        mask = e.observe(e.agent_selection)["action_mask"]
        legal = np.flatnonzero(mask)
        assert legal.size > 0
        phase, clan = state[core.PHASE], state[core.TO_ACT]
        if phase == core.PHASE_DOMINANCE:
            assert (legal < core.MOAI_BASE).all()
        elif phase == core.PHASE_MOAI:
            assert ((legal >= core.MOAI_BASE) & (legal < core.CEREMONY_BASE)).all() and legal.size >= 2
        else:
            assert phase == core.PHASE_CEREMONY and (legal >= core.CEREMONY_BASE).all()
            assert legal.size > state[core.MANU_SUPPLY + clan] > 0
        assert not any(e.terminations.values()) and not any(e.truncations.values())
    else:
        assert state[core.PHASE] == core.PHASE_OVER
        winner = state[core.WINNER]
        if winner >= 0:
            assert status == core.STATUS_TERMINATED and winner == holder
            assert state[core.MANU_SUPPLY + winner] == 0
    for agent in e.possible_agents:
        obs = e.observe(agent)
        assert e.observation_space(agent).contains(obs), f"observation of {agent} outside its space"
        if status != core.STATUS_RUNNING or agent != e.agent_selection:
            assert not obs["action_mask"].any()


@pytest.mark.parametrize("max_turns", [MAX_TURNS, 7])
@pytest.mark.parametrize("seed", [0, 1, 2, 3])
@pytest.mark.parametrize("policy", sorted(POLICIES))
@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_invariants_random_games(num_players, policy, seed, max_turns):
    e = makemake_env.raw_env(num_players=num_players, max_turns=max_turns)
    e.reset(seed=seed)
    rng = np.random.default_rng(1000 * num_players + seed)
    previous = e.state()
    _check_invariants(e, previous, previous)
    steps = 0
    while e.state()[core.STATUS] == core.STATUS_RUNNING:
        e.step(POLICIES[policy](e, rng))
        state = e.state()
        _check_invariants(e, state, previous)
        previous = state
        steps += 1
        assert steps < 10_000
    status = state[core.STATUS]
    assert all(e.terminations[a] == (status == core.STATUS_TERMINATED) for a in e.agents)
    assert all(e.truncations[a] == (status == core.STATUS_TRUNCATED) for a in e.agents)
    if status == core.STATUS_TRUNCATED:
        assert state[core.TURN] == max_turns
    scores = e.scores()
    winner = state[core.WINNER]
    for agent in e.possible_agents:
        assert e.infos[agent]["scores"] == scores
        assert e.infos[agent]["winner"] == (None if winner < 0 else f"player_{winner}")
        expected = 0 if winner < 0 else (1 if agent == f"player_{winner}" else -1)
        assert e.rewards[agent] == expected and e._cumulative_rewards[agent] == expected
    while e.agents:
        e.step(None)


def test_random_games_reach_every_part_of_the_rules():
    """The invariant tests are not vacuous: over a few clustering games there are ceremonies, Moai,
    ceremony choices, victories and stalemates or truncations.  (A choice between two Moai is rare in
    play; the rules tests craft it.)"""
    seen = set()
    for num_players in PLAYER_COUNTS:
        for seed in range(10):
            e = makemake_env.raw_env(num_players=num_players, max_turns=MAX_TURNS)
            e.reset(seed=seed)
            rng = np.random.default_rng(1000 * num_players + seed)
            while e.state()[core.STATUS] == core.STATUS_RUNNING:
                seen.add(e.decision())
                e.step(clustering_action(e, rng))
            s = e.state()
            seen.add("win" if s[core.WINNER] >= 0 else "no winner")
            if s[core.MOAI_LEFT] < NUM_MOAI:
                seen.add("Moai built")
            if (s[core.GROUND:core.GROUND + NUM_GROUNDS] >= 0).any():
                seen.add("ceremony held")
    assert seen >= {"dominance", "ceremony", "win", "no winner", "Moai built", "ceremony held"}


def test_random_action_is_always_legal():
    """The core's own random policy (used by the batched environment) draws from the mask."""
    e = makemake_env.raw_env(num_players=4, max_turns=MAX_TURNS)
    e.reset(seed=5)
    while e.state()[core.STATUS] == core.STATUS_RUNNING:
        state = e.state()
        action = int(core.random_action(state))
        assert e.observe(e.agent_selection)["action_mask"][action] == 1
        e.step(action)


# ---------------------------------------------------------------------------------------------------
# 4. Copies, pickles and state round trips
@pytest.mark.parametrize("how", ["deepcopy", "pickle"])
@pytest.mark.parametrize("factory", ["env", "raw_env"])
@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_copy_continues_identically(num_players, factory, how):
    e = getattr(makemake_env, factory)(num_players=num_players, reward="margin", max_turns=MAX_TURNS)
    e.reset(seed=21)
    rng = np.random.default_rng(21)
    random_steps(e, rng, 4 * num_players + 3)
    clone = copy.deepcopy(e) if how == "deepcopy" else pickle.loads(pickle.dumps(e))
    assert type(clone) is type(e)
    np.testing.assert_array_equal(clone.state(), e.state())
    actions = []
    seen = play_out(e, rng, record=actions)
    assert clone.agents == e.possible_agents
    assert_same_trajectory(seen, replay(clone, actions))
    assert clone.unwrapped.scores() == e.unwrapped.scores()
    np.testing.assert_array_equal(clone.state(), e.state())


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_state_round_trip(num_players):
    e = makemake_env.raw_env(num_players=num_players, max_turns=MAX_TURNS)
    e.reset(seed=8)
    rng = np.random.default_rng(8)
    random_steps(e, rng, 3 * num_players + 1)
    saved = e.state()
    selection = e.agent_selection
    observations = {a: e.observe(a) for a in e.agents}
    actions = []
    seen = play_out(e, rng, record=actions)
    for target in (e, makemake_env.raw_env(num_players=num_players, max_turns=MAX_TURNS)):
        target.set_state(saved)
        np.testing.assert_array_equal(target.state(), saved)
        assert target.agent_selection == selection and target.agents == target.possible_agents
        for agent, obs in observations.items():
            assert_obs_equal(target.observe(agent), obs)
        assert_same_trajectory(seen, replay(target, actions))
    s = e.state()
    s[:] = 0
    assert e.state()[core.NUM_PLAYERS] == num_players


def test_set_state_of_finished_game():
    e = makemake_env.raw_env(num_players=3, max_turns=MAX_TURNS)
    e.reset(seed=9)
    rng = np.random.default_rng(9)
    while e.state()[core.STATUS] == core.STATUS_RUNNING:
        random_steps(e, rng, 1)
    final, scores = e.state(), e.scores()
    f = makemake_env.raw_env(num_players=3)
    f.set_state(final)
    assert all(f.terminations.values()) or all(f.truncations.values())
    assert f.scores() == scores
    assert not f.observe(f.agent_selection)["action_mask"].any()
    while f.agents:
        f.step(None)


# ---------------------------------------------------------------------------------------------------
# 5. Seeding
@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_reset_with_seed_is_reproducible(num_players):
    e = makemake_env.env(num_players=num_players, max_turns=MAX_TURNS)
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
    f = makemake_env.raw_env(num_players=num_players)
    f.reset(seed=77)
    s1, s2 = e.state(), f.state()
    assert [core.random_action(s1) for _ in range(20)] == [core.random_action(s2) for _ in range(20)]


def test_unseeded_resets_continue_reproducibly():
    a, b = makemake_env.raw_env(num_players=3), makemake_env.raw_env(num_players=3)
    a.reset(seed=3)
    b.reset(seed=3)
    a.reset()
    b.reset()
    np.testing.assert_array_equal(a.state(), b.state())
    c = makemake_env.raw_env(num_players=3)
    c.reset(seed=3)
    assert a.state()[core.RNG] != c.state()[core.RNG]


# ---------------------------------------------------------------------------------------------------
# 6. No hidden information: every clan sees the same, relative to its own seat
RELATIVE_BLOCKS = [(core.OBS_CONTROL, NUM_TERRITORIES), (core.OBS_CHIEF, NUM_TERRITORIES),
                   (core.OBS_MANU, NUM_GROUNDS), (core.OBS_CLAN, core.CLAN_FEATURES)]


def _seen_from(obs0, k, p):
    """Player 0's observation rewritten from player k's seat: relative clan j of player k is relative
    clan (j + k) mod p of player 0."""
    out = obs0.copy()
    for base, size in RELATIVE_BLOCKS:
        for j in range(p):
            src = base + ((j + k) % p) * size
            out[base + j * size: base + (j + 1) * size] = obs0[src: src + size]
    return out


def _check_same_information(e):
    p = e.num_players
    obs0 = e.observe("player_0")["observation"]
    for k in range(1, p):
        obs = e.observe(f"player_{k}")["observation"]
        np.testing.assert_array_equal(obs, _seen_from(obs0, k, p), err_msg=f"player_{k}")
        np.testing.assert_array_equal(obs[core.OBS_CONTROL:core.OBS_CONTROL + NUM_TERRITORIES],
                                      obs0[core.OBS_CONTROL + k * NUM_TERRITORIES:
                                           core.OBS_CONTROL + (k + 1) * NUM_TERRITORIES])


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_every_clan_sees_the_same_information(num_players):
    e = makemake_env.raw_env(num_players=num_players, max_turns=MAX_TURNS)
    e.reset(seed=12)
    rng = np.random.default_rng(12)
    steps = 0
    while e.state()[core.STATUS] == core.STATUS_RUNNING:
        _check_same_information(e)
        random_steps(e, rng, 1)
        steps += 1
    _check_same_information(e)
    assert steps > 10


def test_observation_content_from_each_seat():
    """The blocks of the documented layout, checked on one position from every seat."""
    e = makemake_env.raw_env(num_players=3)
    e.reset(seed=0)
    s1, c4 = TERRITORY_NAMES.index("Sacred-1"), TERRITORY_NAMES.index("Coast-4")
    e.step(22 * s1 + 2 * 2 + 1)          # Red: 3 tokens and the chief on Sacred-1
    e.step(22 * c4 + 2 * 1)              # Blue: 2 tokens on Coast-4
    for view in range(3):
        obs = e.observe(f"player_{view}")["observation"]
        red, blue = (0 - view) % 3, (1 - view) % 3
        assert obs[core.OBS_CONTROL + red * NUM_TERRITORIES + s1] == 1
        assert obs[core.OBS_CONTROL + blue * NUM_TERRITORIES + c4] == 1
        assert obs[core.OBS_CONTROL:core.OBS_TOKENS].sum() == 2
        assert obs[core.OBS_TOKENS + s1] == 3 and obs[core.OBS_TOKENS + c4] == 2
        assert obs[core.OBS_CHIEF + red * NUM_TERRITORIES + s1] == 1
        assert obs[core.OBS_CHIEF:core.OBS_MOAI].sum() == 1
        for k in range(4):
            block = obs[core.OBS_CLAN + k * core.CLAN_FEATURES: core.OBS_CLAN + (k + 1) * core.CLAN_FEATURES]
            if k >= 3:
                assert not block.any()
                continue
            clan = (view + k) % 3
            assert block[core.CF_PRESENT] == 1
            assert block[core.CF_TO_ACT] == (clan == 2)
            assert block[core.CF_AMULET] == 0
            assert block[core.CF_TOKENS] == {0: 8, 1: 9, 2: 11}[clan]
            assert block[core.CF_CHIEF_IN_SUPPLY] == (clan != 0)
            assert block[core.CF_MANU_SUPPLY] == 5
            assert block[core.CF_SACRED] == (clan == 0)
        assert obs[core.OBS_PHASE + core.PHASE_DOMINANCE] == 1
        assert obs[core.OBS_PHASE:core.OBS_PHASE + 4].sum() == 1
        assert obs[core.OBS_MOAI_LEFT] == 12 and obs[core.OBS_TURN] == 2


# ---------------------------------------------------------------------------------------------------
# 7. Rendering
@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_render_ansi_and_rgb(num_players):
    for mode in ("ansi", "rgb_array"):
        e = makemake_env.env(num_players=num_players, render_mode=mode, max_turns=MAX_TURNS)
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


def test_render_human_prints(capsys):
    e = makemake_env.env(num_players=3, render_mode="human")
    e.reset(seed=0)
    capsys.readouterr()
    assert e.render() is None
    assert capsys.readouterr().out.strip()


def test_render_without_mode_warns():
    e = makemake_env.env(num_players=3)
    e.reset(seed=0)
    with pytest.warns(UserWarning, match="render_mode"):
        assert e.render() is None


def test_render_does_not_change_state():
    from makemake_env.render import render_ansi, render_rgb

    e = makemake_env.raw_env(num_players=4)
    e.reset(seed=0)
    random_steps(e, np.random.default_rng(0), 12)
    state = e.state()
    render_ansi(state, 1)
    render_ansi(state, None)
    render_rgb(state)
    np.testing.assert_array_equal(state, e.state())
