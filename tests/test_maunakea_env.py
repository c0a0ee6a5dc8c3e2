"""Tests of the Mauna Kea PettingZoo environment (``maunakea_env.env`` / ``raw_env``).

They cover what is Mauna Kea's own: defaults, spaces and action names, illegal moves, game
invariants under random play, chance and seeding, the absence of hidden information and the
observation content; the checks all three environments share are in ``test_env.py``.  Random play always draws from
the action mask with a seeded ``numpy.random.Generator``, so every test is deterministic.  Uniform
random play is enough to reach the boats (see ``test_random_play_reaches_the_boats``), so no biased
policy is needed.
"""
import numpy as np
import pytest

import maunakea_env
from maunakea_env import core
from maunakea_env.board import (
    BOAT_CAPACITY, BOAT_COLOUR, BOAT_INDEX, BOAT_NAMES, FIELD_SQUARES, FIRST_LAVA_TILE, INITIAL_TERRAIN, JUNGLE,
    LAVA, NUM_BOATS, NUM_FIELDS, NUM_ISLAND_TILES, NUM_LANDINGS, NUM_SQUARES,
    START_SQUARES, START_TILE_SQUARES, TERRAIN_TILE_POINTS, TERRAIN_TILE_SQUARES, WATER, rotate_tile,
)
from maunakea_positions import (
    assert_conserved, commit, hand, lay_terrain, put_explorer, set_hand, square, started_game,
)
from test_env import assert_illegal_raises, random_legal, random_steps

PLAYER_COUNTS = [2, 3, 4]
MAX_TURNS = 40


# ---------------------------------------------------------------------------------------------------
# 1. Defaults, spaces and action names


def test_defaults_and_spaces():
    e = maunakea_env.raw_env()
    assert e.num_players == 4 and e.max_turns == 300 and e.variant == "basic" and e.reward == "win_loss"
    for agent in e.possible_agents:
        assert e.action_space(agent).n == 2040 == core.NUM_ACTIONS
        space = e.observation_space(agent)
        assert space["observation"].shape == (core.OBS_SIZE,) and space["action_mask"].shape == (2040,)
        assert space["observation"].dtype == np.int8
    # the documented action ranges
    assert (core.LAY_BASE, core.SPEND_BASE, core.MOVE_BASE, core.PICK_BASE, core.DROP_BASE, core.BOARD_BASE,
            core.END_TURN) == (324, 1944, 1949, 1969, 1984, 1999, 2039)


def test_describe_action_names_every_kind():
    d = maunakea_env.raw_env.describe_action
    assert d(square("D4-se")) == "place an explorer on D4-se"
    assert d(324 + 4 * (81 * 1 + 10) + 3) == "lay hand tile 1 on B2 turned 3 quarter turns"
    assert d(1944 + 2) == "spend hand tile 2 for its movement points"
    assert d(1949 + 4 * 2 + 3) == "move explorer 2 west"
    assert d(1969 + 3 * 1 + 2) == "explorer 1 picks up a black artifact"
    assert d(1984 + 3 * 4 + 1) == "explorer 4 drops a gray artifact"
    assert d(1999 + 8 * 3 + 0) == "explorer 3 boards the boat at landing B1-C1"
    assert d(2039) == "end the turn"
    assert "outside" in d(3052) and "outside" in d(-1)


# ---------------------------------------------------------------------------------------------------
# 2. Illegal moves


def test_raw_illegal_actions_raise_and_leave_state_unchanged():
    e = maunakea_env.raw_env(num_players=2)
    e.reset(seed=2)
    # placement: only free starting spaces
    assert_illegal_raises(e, square("E5-nw"), "placement")              # the volcano
    assert_illegal_raises(e, square("A1-nw"), "placement")              # not a starting space
    assert_illegal_raises(e, core.LAY_BASE, "placement")
    assert_illegal_raises(e, core.SPEND_BASE, "placement")
    assert_illegal_raises(e, core.END_TURN, "placement")
    e.step(square("D4-nw"))
    assert_illegal_raises(e, square("D4-nw"), "placement")              # taken
    while e.decision() == "placement":
        e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[-1]))
    assert e.agent_selection == "player_1"
    size = int(e.state()[core.HAND_SIZE + 1])
    assert_illegal_raises(e, square("F6-nw"), "turn")                   # placement is over
    assert_illegal_raises(e, core.END_TURN, "turn")                     # tiles left in hand
    assert_illegal_raises(e, core.SPEND_BASE + size, "turn")            # no such hand tile
    assert_illegal_raises(e, core.LAY_BASE + 4 * (81 * size + 10), "turn")
    assert_illegal_raises(e, core.LAY_BASE + 4 * 40, "turn")            # the volcano E5
    for d in range(4):
        assert_illegal_raises(e, core.MOVE_BASE + d, "turn")            # no points yet
    assert_illegal_raises(e, core.PICK_BASE, "turn")                    # nothing to pick up
    assert_illegal_raises(e, core.DROP_BASE, "turn")                    # nothing carried
    assert_illegal_raises(e, core.BOARD_BASE, "turn")                   # not beside a boat


# ---------------------------------------------------------------------------------------------------
# 3. Invariants under random play
def _expected_terrain(state, f):
    """The terrain a field must show: its tile turned as it lies, lava, or the printed board."""
    t = state[core.FIELD_TILE + f]
    if t < 0:
        return INITIAL_TERRAIN[FIELD_SQUARES[f]].tolist()
    if FIRST_LAVA_TILE <= t < NUM_ISLAND_TILES:
        return [LAVA] * 4
    squares = TERRAIN_TILE_SQUARES[t] if t < FIRST_LAVA_TILE else START_TILE_SQUARES[t - NUM_ISLAND_TILES]
    return rotate_tile(squares, state[core.FIELD_ROTATION + f]).tolist()


def _hand_points(state, p):
    size = state[core.HAND_SIZE + p]
    return int(sum(TERRAIN_TILE_POINTS[t] for t in state[core.HAND + 5 * p:core.HAND + 5 * p + size]))


def _check_invariants(e, state, previous, action):
    n = e.num_players
    assert_conserved(state)
    terrain = state[core.TERRAIN:core.TERRAIN + NUM_SQUARES]
    for f in range(NUM_FIELDS):
        assert terrain[FIELD_SQUARES[f]].tolist() == _expected_terrain(state, f)
    # what has gone stays gone: lost and boarded explorers, boats taken, removed artifacts and tiles
    for x in range(4 * 5):
        if previous[core.EXPLORER_STATUS + x] in (core.LOST, core.IN_BOAT):
            assert state[core.EXPLORER_STATUS + x] == previous[core.EXPLORER_STATUS + x]
    owners, before = state[core.BOAT_OWNER:core.BOAT_OWNER + 8], previous[core.BOAT_OWNER:core.BOAT_OWNER + 8]
    assert (owners[before >= 0] == before[before >= 0]).all()
    removed = slice(core.REMOVED_ARTIFACTS, core.REMOVED_ARTIFACTS + 3)
    assert (state[removed] >= previous[removed]).all()
    assert not (previous[core.TILE_WHERE:core.TILE_WHERE + 118][state[core.TILE_WHERE:core.TILE_WHERE + 118]
                                                                 != core.REMOVED] == core.REMOVED).any()
    # lava branches end on lava
    for k in range(8):
        if state[core.BRANCH_OPEN + k]:
            assert terrain[FIELD_SQUARES[state[core.BRANCH_FIELD + k], 0]] == LAVA
    # drawing: up to 5 points after a turn, never once the end is triggered
    if action == core.END_TURN and previous[core.PHASE] == core.PHASE_TURN:
        p = previous[core.TO_ACT]
        bag_left = (state[core.TILE_WHERE:core.TILE_WHERE + NUM_ISLAND_TILES] == core.IN_BAG).any()
        if previous[core.END_TRIGGERED] or state[core.END_TRIGGERED]:
            assert _hand_points(state, p) <= 5 and (previous[core.END_TRIGGERED] == 0 or
                                                     state[core.HAND_SIZE + p] == 0)
        elif bag_left:
            assert _hand_points(state, p) >= 5
        assert state[core.POOL] == 0
    assert previous[core.TURN] <= state[core.TURN] <= state[core.MAX_TURNS]
    status = state[core.STATUS]
    if status == core.STATUS_RUNNING:
        player = state[core.TO_ACT]
        assert e.agent_selection == f"player_{player}"
        legal = np.flatnonzero(e.observe(e.agent_selection)["action_mask"])
        assert legal.size > 0
        if state[core.PHASE] == core.PHASE_PLACEMENT:
            free = [q for q in START_SQUARES.tolist() if state[core.OCCUPANT + q] < 0]
            assert legal.tolist() == free
        else:
            assert state[core.PHASE] == core.PHASE_TURN
            assert (legal >= core.LAY_BASE).all()
            assert (core.END_TURN in legal) == (state[core.HAND_SIZE + player] == 0)
            if state[core.POOL] == 0:
                assert not ((legal >= core.MOVE_BASE) & (legal < core.PICK_BASE)).any()
        assert not any(e.terminations.values()) and not any(e.truncations.values())
    else:
        assert state[core.PHASE] == core.PHASE_OVER
        if status == core.STATUS_TERMINATED:
            assert state[core.END_TRIGGERED] == 1 and state[core.FINAL_TURNS_LEFT] == 0
            # a player without explorers on the island, or an island where that can never happen
            assert min(sum(1 for x in range(5) if state[core.EXPLORER_STATUS + 5 * p + x] == core.ON_ISLAND)
                       for p in range(n)) == 0 or \
                state[core.END_REASON] in (core.END_BY_SETTLED, core.END_BY_WALLED_IN)
        else:
            assert state[core.TURN] == state[core.MAX_TURNS]
    for agent in e.possible_agents:
        obs = e.observe(agent)
        assert e.observation_space(agent).contains(obs), f"observation of {agent} outside its space"
        if status != core.STATUS_RUNNING or agent != e.agent_selection:
            assert not obs["action_mask"].any()


# short games for every player count, and long ones that board boats and end by the rules
# (2-9, 3-7 and 4-3 are terminated, 3-3 is truncated after boarding 5 boats)
INVARIANT_GAMES = [(n, seed, MAX_TURNS) for n in PLAYER_COUNTS for seed in (0, 1, 2)] + [
    (2, 9, 300), (3, 7, 300), (4, 3, 300), (3, 3, 300)]


@pytest.mark.parametrize("num_players,seed,max_turns", INVARIANT_GAMES)
def test_invariants_random_games(num_players, seed, max_turns):
    e = maunakea_env.raw_env(num_players=num_players, max_turns=max_turns)
    e.reset(seed=seed)
    rng = np.random.default_rng(1000 * num_players + seed)
    previous = e.state()
    _check_invariants(e, previous, previous, None)
    steps = 0
    while e.state()[core.STATUS] == core.STATUS_RUNNING:
        action = random_legal(e.observe(e.agent_selection)["action_mask"], rng)
        e.step(action)
        state = e.state()
        _check_invariants(e, state, previous, action)
        previous = state
        steps += 1
        assert steps < 20_000
    status = state[core.STATUS]
    assert all(e.terminations[a] == (status == core.STATUS_TERMINATED) for a in e.agents)
    assert all(e.truncations[a] == (status == core.STATUS_TRUNCATED) for a in e.agents)
    scores = e.scores()
    _check_same_information(e)
    load = {b: dict(zip(("white", "gray", "black"), state[core.BOAT_LOAD + 3 * b:][:3].tolist())) for b in range(NUM_BOATS)}
    boat_loads = {f"player_{p}": {BOAT_NAMES[b]: load[b] for b in range(NUM_BOATS) if state[core.BOAT_OWNER + b] == p}
                  for p in range(num_players)}
    for agent in e.possible_agents:
        assert e.infos[agent]["scores"] == scores
        assert e.infos[agent]["boat_loads"] == boat_loads
        assert {a: list(loads) for a, loads in boat_loads.items()} == e.infos[agent]["boats"]
        assert e.rewards[agent] == e._cumulative_rewards[agent]
    if status == core.STATUS_TRUNCATED:
        assert all(e.rewards[a] == 0 for a in e.possible_agents)
    else:
        assert sorted(e.rewards.values())[-1] >= 0 and set(e.rewards.values()) <= {-1, 0, 1}
    while e.agents:
        e.step(None)


def _play_uniform(num_players, seed, max_turns):
    """A whole game of uniform random play from the mask; returns the final state and what happened."""
    e = maunakea_env.raw_env(num_players=num_players, max_turns=max_turns)
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    seen = set()
    while e.state()[core.STATUS] == core.STATUS_RUNNING:
        action = random_legal(e.observe(e.agent_selection)["action_mask"], rng)
        for name, low, high in (("lay", core.LAY_BASE, core.SPEND_BASE), ("pick", core.PICK_BASE, core.DROP_BASE),
                                ("drop", core.DROP_BASE, core.BOARD_BASE), ("board", core.BOARD_BASE, core.END_TURN)):
            if low <= action < high:
                seen.add(name)
        e.step(action)
    s = e.state()
    statuses = s[core.EXPLORER_STATUS:core.EXPLORER_STATUS + 20]
    if (statuses == core.LOST).any():
        seen.add("lost to lava")
    if (s[core.TILE_WHERE + FIRST_LAVA_TILE:core.TILE_WHERE + NUM_ISLAND_TILES] == core.ON_BOARD).any():
        seen.add("eruption")
    seen.add("terminated" if s[core.STATUS] == core.STATUS_TERMINATED else "truncated")
    return s, seen


def test_random_play_reaches_the_boats():
    """Statistical check that the rules are playable: uniform random play (from the mask) boards a
    boat in most games of 300 turns, and over all games lays tiles, picks up and drops artifacts,
    erupts, loses explorers to lava, and ends games both by the rules and by truncation."""
    boats, games, seen = 0, 0, set()
    for num_players in PLAYER_COUNTS:
        for seed in range(5):
            s, what = _play_uniform(num_players, seed, 300)
            seen |= what
            games += 1
            boats += (s[core.BOAT_OWNER:core.BOAT_OWNER + 8] >= 0).any()
    assert boats >= 0.6 * games, f"boats reached in {boats} of {games} games"
    assert seen >= {"lay", "pick", "drop", "board", "lost to lava", "eruption", "terminated", "truncated"}


def test_random_action_is_always_legal():
    """The core's own random policy (used by the batched environment) draws from the mask.  It runs on
    a copy of the state with a generator of its own: picking up and dropping an artifact are free and
    draw nothing, so a policy reading the game's unchanged generator could repeat them for ever."""
    e = maunakea_env.raw_env(num_players=4, max_turns=MAX_TURNS)
    e.reset(seed=5)
    generator = core.seed_rng(99)
    while e.state()[core.STATUS] == core.STATUS_RUNNING:
        state = e.state()
        state[core.RNG] = generator
        action = int(core.random_action(state))
        generator = state[core.RNG]
        assert e.observe(e.agent_selection)["action_mask"][action] == 1
        e.step(action)


# ---------------------------------------------------------------------------------------------------
# 4. Chance and seeding
def test_another_seed_deals_another_board():
    """Beyond the shared seeding checks of test_env.py: another seed deals another board."""
    e = maunakea_env.env(num_players=3, max_turns=MAX_TURNS)
    e.reset(seed=77)
    first = e.state()
    e.reset(seed=78)
    other = e.state()
    assert other[core.RNG] != first[core.RNG]
    assert not np.array_equal(other[core.FIELD_TILE:core.FIELD_TILE + NUM_FIELDS],
                              first[core.FIELD_TILE:core.FIELD_TILE + NUM_FIELDS])


def test_chance_inside_a_step_replays_from_a_copied_state():
    """Drawing and lava happen inside END_TURN from the generator kept in the state, so a copy of the
    state replays the same draws."""
    e = started_game(3, seed=13)
    while e.state()[core.HAND_SIZE + 1] > 0:
        e.step(core.SPEND_BASE)
    saved = e.state()
    e.step(core.END_TURN)
    after = e.state()
    e.set_state(saved)
    e.step(core.END_TURN)
    np.testing.assert_array_equal(e.state(), after)
    assert hand(e, 1) and after[core.RNG] != saved[core.RNG]


# ---------------------------------------------------------------------------------------------------
# 5. No hidden information: every player sees the same, relative to its own seat
EXPLORER_BLOCK = core.MAX_EXPLORERS * core.EXPLORER_FEATURES
RELATIVE_BLOCKS = [(core.OBS_EXPLORERS, NUM_SQUARES), (core.OBS_PLAYER_EXPLORERS, EXPLORER_BLOCK),
                   (core.OBS_HANDS, core.HAND_SLOTS * core.HAND_FEATURES), (core.OBS_PLAYERS, core.PLAYER_FEATURES)]


def _seen_from(obs0, k, p):
    """Player 0's observation rewritten from player k's seat: relative player j of player k is
    relative player (j + k) mod p of player 0."""
    out = obs0.copy()
    for base, size in RELATIVE_BLOCKS:
        for j in range(p):
            src = base + ((j + k) % p) * size
            out[base + j * size: base + (j + 1) * size] = obs0[src: src + size]
    for b in range(NUM_BOATS):  # who took a boat: one-hot over relative players
        row = core.OBS_BOATS + b * core.BOAT_FEATURES
        for j in range(p):
            out[row + j] = obs0[row + (j + k) % p]
    return out


def _own(obs):
    return obs[core.OBS_OWN_EXPLORERS:core.OBS_OWN_EXPLORERS + EXPLORER_BLOCK]


def _explorer_rows(obs, k):
    """Relative player k's explorers as rows of EXPLORER_FEATURES."""
    base = core.OBS_PLAYER_EXPLORERS + k * EXPLORER_BLOCK
    return obs[base:base + EXPLORER_BLOCK].reshape(core.MAX_EXPLORERS, core.EXPLORER_FEATURES)


def _check_same_information(e):
    """Nothing is private: each player's observation is player 0's, seen from another seat.  The
    explorer rows and boat rows say what the state says."""
    p = e.num_players
    obs0 = e.observe("player_0")["observation"]
    state = e.state()
    for view in range(p):
        obs = e.observe(f"player_{view}")["observation"]
        np.testing.assert_array_equal(obs, _seen_from(obs0, view, p), err_msg=f"player_{view}")
        for k in range(core.MAX_PLAYERS):
            rows = _explorer_rows(obs, k)
            if k >= p:
                assert not rows.any()
                continue
            player = (view + k) % p
            for x in range(5):
                f = rows[x]
                status = state[core.EXPLORER_STATUS + 5 * player + x]
                assert f[:3].tolist() == [status == core.ON_ISLAND, status == core.IN_BOAT, status == core.LOST]
                if status == core.ON_ISLAND:
                    q = state[core.EXPLORER_SQUARE + 5 * player + x]
                    assert (f[3], f[4]) == (q % 18, q // 18)
                carried = state[core.CARRIED + 3 * (5 * player + x):core.CARRIED + 3 * (5 * player + x) + 3]
                assert f[5:].tolist() == carried.tolist()
        boats = obs[core.OBS_BOATS:core.OBS_BOATS + NUM_BOATS * core.BOAT_FEATURES].reshape(NUM_BOATS, -1)
        for b in range(NUM_BOATS):
            owner = state[core.BOAT_OWNER + b]
            taken_by = [0] * core.MAX_PLAYERS
            if owner >= 0:
                taken_by[(owner - view) % p] = 1
            assert boats[b, :core.MAX_PLAYERS].tolist() == taken_by
            assert boats[b, core.MAX_PLAYERS:].tolist() == state[core.BOAT_LOAD + 3 * b:core.BOAT_LOAD + 3 * b + 3].tolist()


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_every_player_sees_the_same_information(num_players):
    e = maunakea_env.raw_env(num_players=num_players, max_turns=20)
    e.reset(seed=12)
    rng = np.random.default_rng(12)
    steps = 0
    while e.state()[core.STATUS] == core.STATUS_RUNNING:
        _check_same_information(e)
        random_steps(e, rng, 1)
        steps += 1
    _check_same_information(e)
    assert steps > 50


def _hand_slot(obs, k, h):
    base = core.OBS_HANDS + (k * core.HAND_SLOTS + h) * core.HAND_FEATURES
    return obs[base:base + core.HAND_FEATURES]


def test_observation_hands_show_every_tile_in_its_own_slot():
    """env docstring, OBS_HANDS: per relative player and slot: present, points, and the terrain of the
    tile's 4 squares one-hot (jungle / water / mountain) -- 2 + 4 x 3 = 14 features.  A tile whose
    south-east square is mountain ("jungle with rock" JJ/JM) must neither lose that square nor mark
    the next, empty slot as present."""
    e = started_game(2, seed=0)
    s = e.state()
    (t,) = set_hand(s, 1, ["jungle with rock"])
    set_hand(s, 0, [])
    commit(e, s)
    for view, k in ((1, 0), (0, 1)):
        obs = e.observe(f"player_{view}")["observation"]
        assert _hand_slot(obs, k, 1)[0] == 0, "an empty slot is shown as present"
        slot = _hand_slot(obs, k, 0)
        assert slot[0] == 1 and slot[1] == TERRAIN_TILE_POINTS[t] == 3
        one_hot = slot[2:].tolist()
        assert len(one_hot) == 12, f"{len(one_hot)} features for the 4 squares of a tile"
        assert one_hot == [1, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 1]


def test_observation_content():
    """The blocks of the documented layout, checked on one crafted position from both seats."""
    e = started_game(2, seed=0)
    s = e.state()
    lay_terrain(s, "D1", "JW/JW")
    put_explorer(s, 1, 0, "D1-nw")
    s[core.CARRIED + 3 * 5] = 2
    # keep artifacts conserved: the two carried whites come off the board
    taken = 0
    for q in range(NUM_SQUARES):
        while taken < 2 and s[core.ARTIFACTS + 3 * q] > 0:
            s[core.ARTIFACTS + 3 * q] -= 1
            taken += 1
    commit(e, s, pool=4)
    for view in (0, 1):
        obs = e.observe(f"player_{view}")["observation"]
        rel = (1 - view) % 2
        q = square("D1-nw")
        assert obs[core.OBS_EXPLORERS + rel * NUM_SQUARES + q] == 1
        assert obs[core.OBS_TERRAIN + JUNGLE * NUM_SQUARES + q] == 1
        assert obs[core.OBS_TERRAIN + WATER * NUM_SQUARES + square("D1-ne")] == 1
        one_hot = obs[core.OBS_TERRAIN:core.OBS_EXPLORERS].reshape(6, NUM_SQUARES)
        assert one_hot.sum(axis=0).tolist() == [1] * NUM_SQUARES
        assert obs[core.OBS_EXPLORERS:core.OBS_ARTIFACTS].sum() == 10
        assert obs[core.OBS_ARTIFACTS:core.OBS_BOAT_ENTRY].sum() == 25 - 2
        assert obs[core.OBS_BOAT_ENTRY:core.OBS_OWN_EXPLORERS].sum() == 32
        assert sorted(obs[core.OBS_LANDINGS:core.OBS_LANDINGS + 8].tolist()) == [1, 1, 2, 2, 2, 2, 3, 3]
        assert obs[core.OBS_PHASE:core.OBS_PHASE + 3].tolist() == [0, 1, 0]
        assert obs[core.OBS_POOL] == 4 and obs[core.OBS_END_TRIGGERED] == 0 and obs[core.OBS_TURN] == 0
        players = obs[core.OBS_PLAYERS:core.OBS_PLAYERS + 4 * core.PLAYER_FEATURES].reshape(4, -1)
        assert players[rel].tolist()[:4] == [1, 1, 5, 0] and players[1 - rel].tolist()[:4] == [1, 0, 5, 0]
        assert not players[2:].any()
        bag = obs[core.OBS_BAG:core.OBS_BAG + 7]
        in_bag = [t for t in range(NUM_ISLAND_TILES) if s[core.TILE_WHERE + t] == core.IN_BAG]
        assert bag[:3].sum() == sum(1 for t in in_bag if t < FIRST_LAVA_TILE)
        assert bag[3:].tolist() == [6, 6, 6, 6]
        landing_colours = obs[core.OBS_LANDING_COLOURS:core.OBS_BOATS].reshape(NUM_LANDINGS, -1)
        boats_there = s[core.LANDING_BOAT:core.LANDING_BOAT + NUM_LANDINGS]
        assert landing_colours.argmax(axis=1).tolist() == BOAT_COLOUR[boats_there].tolist()
        assert landing_colours.sum(axis=1).tolist() == [1] * NUM_LANDINGS
        assert not obs[core.OBS_BOATS:core.OBS_BAG].any(), "no boat is taken yet"
        # player_1's explorer 0 and its two whites, whoever looks
        assert _explorer_rows(obs, rel)[0].tolist() == [1, 0, 0, 6, 0, 2, 0, 0]
    own = _own(e.observe("player_1")["observation"])
    assert own[:8].tolist() == [1, 0, 0, 6, 0, 2, 0, 0]


# ---------------------------------------------------------------------------------------------------
# 6. Public facts beyond the board planes.  RULINGS: an observation holds everything its player may
# know, and everything in Mauna Kea is public except the bag's order.  Each pair of positions below
# differs in one such fact and in nothing else the old observation showed, so only the blocks for
# every player's explorers, the boats' colours and the boats taken tell them apart.
VARIANTS = ["basic", "advanced"]


def _turn_phase_game(num_players, variant):
    """A game after the set-up (in the advanced game every player removes the first cards offered)
    and the placement, as ``started_game`` does it: player_1 is to act."""
    e = maunakea_env.raw_env(num_players=num_players, variant=variant)
    e.reset(seed=num_players)
    while e.decision() == "card choice":
        e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0]))
    while e.decision() == "placement":
        e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[-1]))
    assert e.decision() == "turn"
    return e


def _observations(e, s):
    e.set_state(s)
    return [e.observe(f"player_{v}")["observation"].copy() for v in range(e.num_players)]


def _assert_every_player_tells_apart(e, first, second, what):
    assert_conserved(first)
    assert_conserved(second)
    for p in range(e.num_players):
        assert core.score(first, p) == core.score(second, p)
        assert core.public_score(first, p) == core.public_score(second, p)
    for v, (a, b) in enumerate(zip(_observations(e, first), _observations(e, second))):
        assert not np.array_equal(a, b), f"player_{v} cannot tell {what}"


def _carrying(s, player, e, colour):
    """Explorer ``e`` of ``player`` carries one more artifact of ``colour``, from the start tiles."""
    q = int(np.flatnonzero(s[core.ARTIFACTS + colour:core.ARTIFACTS + 3 * NUM_SQUARES:3])[0])
    s[core.ARTIFACTS + 3 * q + colour] -= 1
    s[core.CARRIED + 3 * (5 * player + e) + colour] += 1


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_every_player_sees_which_explorer_carries_what(num_players, variant):
    """Which of a player's explorers carries the artifact decides who can bring it to a boat, and what
    explorers carry is the second tie-break: every player, the carrier's own and the others, tells
    apart "explorer 0 carries a gray artifact" from "explorer 1 does"."""
    e = _turn_phase_game(num_players, variant)
    start = e.state()
    for player in range(num_players):
        first, second = start.copy(), start.copy()
        _carrying(first, player, 0, 1)
        _carrying(second, player, 1, 1)
        _assert_every_player_tells_apart(e, first, second, f"which explorer of player_{player} carries")


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_every_player_sees_the_colour_of_the_boat_at_each_landing(num_players, variant):
    """Two boats of 2 places trade landings: the places at each landing stay the same, only the
    colours move, which the advanced task cards "+1 for a boat of colour X" count."""
    e = _turn_phase_game(num_players, variant)
    first = e.state()
    second = first.copy()
    boats = second[core.LANDING_BOAT:core.LANDING_BOAT + NUM_LANDINGS]
    green, pink = (int(np.flatnonzero(boats == BOAT_INDEX[name])[0])
                   for name in ("green boat (2 places) #1", "pink boat (2 places) #1"))
    boats[green], boats[pink] = boats[pink], boats[green]
    assert BOAT_CAPACITY[boats].tolist() == BOAT_CAPACITY[first[core.LANDING_BOAT:core.LANDING_BOAT + 8]].tolist()
    _assert_every_player_tells_apart(e, first, second, "which boat waits where")


def _taken(s, player, e, boat_name, colour, count):
    """Explorer ``e`` of ``player`` has left in the named boat with ``count`` artifacts of ``colour``."""
    b = BOAT_INDEX[boat_name]
    x = 5 * player + e
    for _ in range(count):
        _carrying(s, player, e, colour)
    s[core.BOAT_LOAD + 3 * b:core.BOAT_LOAD + 3 * b + 3] = s[core.CARRIED + 3 * x:core.CARRIED + 3 * x + 3]
    s[core.CARRIED + 3 * x:core.CARRIED + 3 * x + 3] = 0
    s[core.LANDING_BOAT:core.LANDING_BOAT + NUM_LANDINGS][s[core.LANDING_BOAT:core.LANDING_BOAT + 8] == b] = -1
    s[core.BOAT_OWNER + b] = player
    s[core.OCCUPANT + s[core.EXPLORER_SQUARE + x]] = -1
    s[core.EXPLORER_SQUARE + x] = -1
    s[core.EXPLORER_STATUS + x] = core.IN_BOAT


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_every_player_sees_what_each_boat_taken_carries(num_players, variant):
    """A player's green and pink boats (2 places each) carry 2 white and 1 gray artifacts, or the other
    way round: the same points and boats, but not the same boats for the task cards that count a
    colour of boat and artifacts in it."""
    e = _turn_phase_game(num_players, variant)
    start = e.state()
    for player in range(num_players):
        first, second = start.copy(), start.copy()
        _taken(first, player, 0, "green boat (2 places) #1", 0, 2)
        _taken(first, player, 1, "pink boat (2 places) #1", 1, 1)
        _taken(second, player, 0, "green boat (2 places) #1", 1, 1)
        _taken(second, player, 1, "pink boat (2 places) #1", 0, 2)
        _assert_every_player_tells_apart(e, first, second, f"what player_{player}'s boats carry")
        for v, obs in enumerate(_observations(e, first)):
            green = core.OBS_BOATS + BOAT_INDEX["green boat (2 places) #1"] * core.BOAT_FEATURES
            taken_by = [int(k == (player - v) % num_players) for k in range(core.MAX_PLAYERS)]
            assert obs[green:green + core.BOAT_FEATURES].tolist() == taken_by + [2, 0, 0]


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_the_bag_order_changes_no_observation(num_players, variant):
    """The one secret (RULINGS, docs): the bag's order is the state's generator; another one draws
    other tiles but shows the same to every player."""
    e = _turn_phase_game(num_players, variant)
    first = e.state()
    second = first.copy()
    second[core.RNG] = core.seed_rng(12345)
    for a, b in zip(_observations(e, first), _observations(e, second)):
        np.testing.assert_array_equal(a, b)
    draws = []
    for s in (first, second):
        e.set_state(s)
        while e.state()[core.HAND_SIZE + 1] > 0:
            e.step(core.SPEND_BASE)
        e.step(core.END_TURN)
        draws.append(hand(e, 1))
    assert draws[0] != draws[1], "the generator did not change the draw"


def test_infos_carry_each_boat_taken_with_its_load():
    """env docstring: at the end ``boats`` names the boats each player took and ``boat_loads`` says
    what each of them carries (the ends of whole games are checked in test_invariants_random_games)."""
    e = started_game(2, seed=0)
    s = e.state()
    _taken(s, 1, 0, "brown boat (3 places)", 0, 2)
    _taken(s, 1, 1, "green boat (2 places) #2", 1, 1)
    commit(e, s)
    info = e.final_info()
    # in the order of board.BOAT_NAMES
    assert info["boats"] == {"player_0": [], "player_1": ["green boat (2 places) #2", "brown boat (3 places)"]}
    assert info["boat_loads"] == {"player_0": {}, "player_1": {
        "brown boat (3 places)": {"white": 2, "gray": 0, "black": 0},
        "green boat (2 places) #2": {"white": 0, "gray": 1, "black": 0}}}
