"""Tests of the Make Make PettingZoo environment (``makemake_env.env`` / ``raw_env``).

They cover what is Make Make's own: defaults and spaces, illegal moves, game invariants under random
play and the absence of hidden information; the checks all three environments share are in
``test_env.py``.  Random play always draws from
the action mask with a seeded ``numpy.random.Generator``, so every test is deterministic.
"""
import numpy as np
import pytest

import makemake_env
from makemake_env import core
from makemake_env.board import (
    GROUND_TERRITORIES, MOAI_SITES, NEIGHBOURS, NUM_GROUNDS, NUM_MOAI, NUM_TERRITORIES, SACRED,
    TANGATA_MANU_PER_CLAN, TERRITORY_NAMES, TOKENS_PER_CLAN,
)
from test_env import assert_illegal_raises, random_legal, random_steps

PLAYER_COUNTS = [2, 3, 4]
MAX_TURNS = 150


# ---------------------------------------------------------------------------------------------------
# helpers


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


# ---------------------------------------------------------------------------------------------------
# 1. Defaults and spaces


def test_defaults_and_spaces():
    e = makemake_env.raw_env()
    assert e.num_players == 4 and e.max_turns == 1000 and e.variant == "standard" and e.reward == "win_loss"
    for agent in e.possible_agents:
        assert e.action_space(agent).n == 912 == core.NUM_ACTIONS
        space = e.observation_space(agent)
        assert space["observation"].shape == (core.OBS_SIZE,) and space["action_mask"].shape == (912,)


# ---------------------------------------------------------------------------------------------------
# 2. Illegal moves


def test_raw_illegal_actions_raise_and_leave_state_unchanged():
    e = makemake_env.raw_env(num_players=3)
    e.reset(seed=2)
    t = TERRITORY_NAMES.index("Sacred-1")
    assert_illegal_raises(e, core.WITHDRAW_BASE + t, "dominance")   # withdraw from nothing
    assert_illegal_raises(e, core.MOAI_BASE + MOAI_SITES[0], "dominance")
    assert_illegal_raises(e, core.CEREMONY_BASE, "dominance")
    e.step(22 * t + 2 * 2 + 1)                                           # 3 tokens and the chief
    e.step(22 * (t + 1))
    e.step(22 * (t + 2))
    assert e.agent_selection == "player_0"
    assert_illegal_raises(e, 22 * t, "dominance")                       # own territory
    assert_illegal_raises(e, 22 * (t + 1), "dominance")                 # 1 token against 1
    assert_illegal_raises(e, 22 * (t + 3) + 1, "dominance")             # the chief is on the board
    assert_illegal_raises(e, 22 * (t + 3) + 2 * 8, "dominance")         # 9 tokens, 8 in supply


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
    end = "truncated" if status == core.STATUS_TRUNCATED else "stalemate" if winner < 0 else "win"
    for agent in e.possible_agents:
        assert e.infos[agent]["scores"] == scores
        assert e.infos[agent]["winner"] == (None if winner < 0 else f"player_{winner}")
        assert e.infos[agent]["end"] == end
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
# 4. No hidden information: every clan sees the same, relative to its own seat
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
    e = makemake_env.raw_env(num_players=3, max_turns=50)
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
        assert obs[core.OBS_MOAI_LEFT] == 12 and obs[core.OBS_TURN] == 4  # 2 of 50 clan turns: 4%


@pytest.mark.parametrize("max_turns", [150, 1000, 5000])
def test_observed_turn_is_the_share_of_max_turns_played_past_100_turns(max_turns):
    """OBS_TURN is the share of ``max_turns`` played in percent, rounded down: it keeps growing after
    100 clan turns (the old counter stopped there), reaches 100 only on the truncated game's last
    observation, and stays within the int8 observation space."""
    e = makemake_env.raw_env(num_players=2, max_turns=max_turns)
    e.reset(seed=5)
    space = e.observation_space("player_0")["observation"]
    seen = {}
    later = min(200, max_turns - 1)
    for turn in sorted({0, 1, 99, 100, 101, later, max_turns // 2, max_turns - 1}):
        s = e.state()
        s[core.TURN] = turn
        s[core.TO_ACT] = turn % 2   # clans play in turn (a valid row: RULES.md, "Valid states")
        e.set_state(s)
        obs = e.observe(e.agent_selection)["observation"]
        assert space.contains(obs) and obs.dtype == np.int8
        seen[turn] = int(obs[core.OBS_TURN])
        assert seen[turn] == 100 * turn // max_turns
    assert seen[max_turns - 1] == 99 and seen[max_turns // 2] == 50
    assert list(seen.values()) == sorted(seen.values())
    assert seen[100] < seen[later]  # distinguishable beyond 100 clan turns
    # play the last turn: the truncated game's observation reads 100 for every clan
    e.step(random_legal(e.observe(e.agent_selection)["action_mask"], np.random.default_rng(0)))
    assert all(e.truncations.values())
    for agent in e.possible_agents:
        obs = e.observe(agent)["observation"]
        assert obs[core.OBS_TURN] == 100 and space.contains(obs)


def test_observation_stays_within_int8_and_its_space_in_long_random_games():
    """Every observation of every clan fits the declared Box (0 … OBS_MAX, int8) over whole random games,
    the turn share included."""
    rng = np.random.default_rng(3)
    for num_players, max_turns in [(2, 1000), (3, 300), (4, 120)]:
        e = makemake_env.raw_env(num_players=num_players, max_turns=max_turns)
        e.reset(seed=num_players)
        space = e.observation_space("player_0")["observation"]
        while e.state()[core.STATUS] == core.STATUS_RUNNING:
            for agent in e.possible_agents:
                assert space.contains(e.observe(agent)["observation"])
            random_steps(e, rng, 1)
        for agent in e.possible_agents:
            assert space.contains(e.observe(agent)["observation"])
