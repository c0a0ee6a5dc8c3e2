"""Rules tests for Mauna Kea (the basic game).

Each test names the rulebook section it checks (``shared/rulebooks/maunakea-rulebook-en.txt``);
decisions the rulebook leaves open are taken from ``shared/RULINGS.md`` and ``maunakea_env/RULES.md``.
Everything is driven through the public AEC API (``maunakea_env.raw_env``: ``step``, ``observe``,
``last``, ``state`` / ``set_state``); crafted positions are written with ``set_state`` (see
``maunakea_positions``), with every tile, artifact, explorer and boat conserved, and then played with
``step``.
"""
import numpy as np
import pytest

from maunakea_positions import (
    BLACK, E, EAST_FLOW, END_TURN, FORK, GRAY, LEFT_BEND, N, NORTH_FLOW, RIGHT_BEND, S, SOUTH_FLOW, STRAIGHT, W,
    WEST_FLOW, WHITE,
    act, artifacts_on, artifacts_to_square, assert_conserved, bag, bag_tile, board, boat_at, boat_load,
    boat_owner, boat_to_landing, branch, carried, commit, drop, entry_squares, explorer_square,
    explorer_status, field, field_terrain, field_tile, give_artifacts, give_boat, hand, hand_points, lava_tile,
    lay, lay_lava, lay_terrain, legal, lose_explorer, mask, move, new_game, only_in_bag, pass_turn, pattern,
    pick, place_explorer, pool, put_explorer, removed_artifacts, rewrite, rig_next_draw, running, set_hand,
    spend, square, started_game, to_act, where,
)
from maunakea_env import core
from maunakea_env.board import (
    ARTIFACT_COUNTS, FIELD_NAMES, FIELD_SQUARES, FIRST_LAVA_TILE, IS_TILE_FIELD,
    LANDING_NAMES, LAVA, NUM_FIELDS, NUM_ISLAND_TILES, NUM_LANDINGS, NUM_SQUARES, NUM_START_TILES, NO_TILE,
    SQUARE_NAMES, START_FIELDS, START_SQUARES, START_TILE_ARTIFACTS, START_TILE_SPACES, START_TILE_SQUARES,
    TERRAIN_KIND_NAMES, TERRAIN_KIND_POINTS, TERRAIN_TILE_KIND, TERRAIN_TILE_POINTS, TERRAIN_TILE_SQUARES,
    LAVA_FLOW_EXIT_FIELD, LAVA_TILE_FLOW, LAVA_TILE_SHAPE, VOLCANO_FIELD, rotate_tile,
)
from pacific_common.rng import draw, seed_rng

EXPLORERS = {2: 5, 3: 4, 4: 3}


def assert_refused(env, action):
    """raw_env refuses an action the mask does not offer with ValueError, and changes nothing."""
    before = env.state()
    selection = env.agent_selection
    assert mask(env)[action] == 0, f"{env.describe_action(action)} is offered"
    with pytest.raises(ValueError, match="illegal action"):
        env.step(action)
    np.testing.assert_array_equal(before, env.state())
    assert env.agent_selection == selection


def final_rewards(env):
    return {a: env.rewards[a] for a in env.possible_agents}


def craft(num_players=2, seed=0, **options):
    """A started game (``player_1`` to act, start field D4 free) with every hand back in the bag;
    returns the env and a copy of its state to edit."""
    env = started_game(num_players, seed, **options)
    s = env.state()
    for p in range(num_players):
        set_hand(s, p, [])
    return env, s


def move_actions(env):
    return {a for a in legal(env) if core.MOVE_BASE <= a < core.PICK_BASE}


def board_actions(env):
    return {a for a in legal(env) if core.BOARD_BASE <= a < core.END_TURN}


def erupt(env, tile):
    """The player to act ends his turn with an empty hand and draws ``tile``, the only tile in the
    bag: a forced [Volcanic eruption]."""
    s = env.state()
    set_hand(s, to_act(env), [])
    only_in_bag(s, [tile])
    commit(env, s, pool=0)
    act(env, END_TURN)
    assert where(env, tile) != core.IN_BAG


def simulated_deal(seed):
    """RULES.md Set-up, steps 1 and 2, replayed with the game's generator: the start tile and rotation
    for each start-tile space, then the boat for each landing."""
    rng = np.array([seed_rng(seed)], dtype=np.int64)
    tiles_left, deal = list(range(NUM_START_TILES)), []
    for _ in START_TILE_SPACES:
        tile = tiles_left.pop(draw(rng, 0, len(tiles_left)))
        deal.append((tile, draw(rng, 0, 4)))
    boats_left, boats = list(range(8)), []
    for _ in range(NUM_LANDINGS):
        boats.append(boats_left.pop(draw(rng, 0, len(boats_left))))
    return deal, boats


# =====================================================================================================
# Preparation of the Game: Set-up
@pytest.mark.parametrize("num_players", [2, 3, 4])
@pytest.mark.parametrize("seed", [0, 1, 7])
def test_set_up_24_start_tiles_on_their_spaces_with_their_artifacts(num_players, seed):
    """Rulebook Set-up: the 24 starting tiles are distributed randomly, face up, on the 24 spaces
    marked for them; the markings show where the artifacts go (17 white, 7 gray, 1 black).  RULES.md
    Set-up fixes the order of the draws and that the tiles are turned at random."""
    env = new_game(num_players, seed)
    s = env.state()
    assert_conserved(s)
    deal, _ = simulated_deal(seed)
    on_spaces = set()
    for space, (tile, rotation) in zip(START_TILE_SPACES.tolist(), deal):
        assert s[core.FIELD_TILE + space] == NUM_ISLAND_TILES + tile
        assert s[core.FIELD_ROTATION + space] == rotation
        assert s[core.TILE_WHERE + NUM_ISLAND_TILES + tile] == core.ON_BOARD
        squares = FIELD_SQUARES[space]
        np.testing.assert_array_equal(s[core.TERRAIN + squares], rotate_tile(START_TILE_SQUARES[tile], rotation))
        marks = rotate_tile(START_TILE_ARTIFACTS[tile], rotation)
        for q, mark in zip(squares.tolist(), marks.tolist()):
            expected = [int(mark == c + 1) for c in range(3)]
            assert s[core.ARTIFACTS + 3 * q:core.ARTIFACTS + 3 * q + 3].tolist() == expected
            on_spaces.add(q)
        on_spaces.update(squares.tolist())
    # the whole set: every start tile once, nothing on any other field, 17/7/1 artifacts on the board
    fields = s[core.FIELD_TILE:core.FIELD_TILE + NUM_FIELDS]
    assert sorted(fields[START_TILE_SPACES].tolist()) == list(range(NUM_ISLAND_TILES, NUM_ISLAND_TILES + 24))
    assert (np.delete(fields, START_TILE_SPACES) == -1).all()
    lying = s[core.ARTIFACTS:core.ARTIFACTS + 3 * NUM_SQUARES].reshape(NUM_SQUARES, 3)
    assert lying.sum(axis=0).tolist() == [17, 7, 1] == ARTIFACT_COUNTS[1:].tolist()
    assert not lying[sorted(set(range(NUM_SQUARES)) - on_spaces)].any()
    # the 94 island tiles are in the bag; nothing has been drawn before the explorers are placed
    assert bag(env) == list(range(NUM_ISLAND_TILES))
    assert removed_artifacts(env) == (0, 0, 0)


@pytest.mark.parametrize("seed", [0, 3])
def test_set_up_8_boats_one_on_each_landing(seed):
    """Rulebook Set-up: the 8 boats are mixed and distributed randomly, one on each of the 8 boat
    landings (RULES.md Set-up step 2 for the order of the draws)."""
    env = new_game(4, seed)
    s = env.state()
    _, boats = simulated_deal(seed)
    assert s[core.LANDING_BOAT:core.LANDING_BOAT + NUM_LANDINGS].tolist() == boats
    assert sorted(boats) == list(range(8))
    assert (s[core.BOAT_OWNER:core.BOAT_OWNER + 8] == -1).all()
    assert not s[core.BOAT_LOAD:core.BOAT_LOAD + 24].any()
    for name in LANDING_NAMES:
        assert len(entry_squares(name)) == 4        # "each boat has 4 neighbouring spaces"


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_material_for_the_players_5_4_3_explorers_each(num_players):
    """Rulebook Material for the players: 5 explorers each with 2 players, 4 with 3, 3 with 4; the
    others are out of the game.  Placing them takes exactly that many decisions."""
    env = new_game(num_players)
    k = EXPLORERS[num_players]
    assert env.state()[core.EXPLORERS_EACH] == k
    decisions = 0
    while env.decision() == "placement":
        act(env, int(np.flatnonzero(mask(env))[0]))
        decisions += 1
    assert decisions == num_players * k
    for p in range(4):
        for e in range(5):
            expected = core.ON_ISLAND if p < num_players and e < k else core.UNPLACED
            assert explorer_status(env, p, e) == expected
    assert_conserved(env.state())


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_placing_explorers_counter_clockwise_from_player_0_only_on_free_starting_spaces(num_players):
    """Rulebook Placing explorers: the starting player (player_0, RULINGS) places one explorer on any
    of the 16 starting spaces, then the players in counter-clockwise order (decreasing seat) one at a
    time until all are placed; one explorer per space.  The mask offers exactly the free starting
    spaces; explorer e of a player is the e-th he placed."""
    env = new_game(num_players, seed=5)
    rng = np.random.default_rng(num_players)
    free = set(START_SQUARES.tolist())
    order, chosen = [], {}
    while env.decision() == "placement":
        player = to_act(env)
        assert legal(env) == {core.PLACE_BASE + q for q in free}
        q = int(rng.choice(sorted(free)))
        order.append(player)
        chosen.setdefault(player, []).append(SQUARE_NAMES[q])
        if len(order) == 3:
            assert_refused(env, place_explorer("E5-nw"))                 # the volcano
            assert_refused(env, place_explorer("F3-nw"))                 # a start tile, not a start space
            taken = sorted(set(START_SQUARES.tolist()) - free)[0]
            assert_refused(env, core.PLACE_BASE + taken)                  # an occupied start space
            assert_refused(env, END_TURN)
        act(env, core.PLACE_BASE + q)
        free.remove(q)
    n, k = num_players, EXPLORERS[num_players]
    assert order == [(-i) % n for i in range(n * k)]
    for p, names in chosen.items():
        assert [explorer_square(env, p, e) for e in range(k)] == names


def simulated_initial_draw(s):
    """RULES.md Set-up, initial draw, replayed on a copy of the state before the last placement:
    counter-clockwise from player_0, each player below 5 points draws one tile per round; a lava tile
    is set aside and the same player draws again."""
    s = s.copy()
    n = int(s[core.NUM_PLAYERS])
    bag_tiles = list(range(NUM_ISLAND_TILES))
    hands = {p: [] for p in range(n)}
    set_aside = []
    while True:
        drew = False
        for i in range(n):
            p = (-i) % n
            if sum(TERRAIN_TILE_POINTS[t] for t in hands[p]) >= 5:
                continue
            while bag_tiles:
                t = bag_tiles.pop(draw(s, core.RNG, len(bag_tiles)))
                drew = True
                if t >= FIRST_LAVA_TILE:
                    set_aside.append(t)
                    continue
                hands[p].append(t)
                break
        if not drew:
            return hands, set_aside


@pytest.mark.parametrize("num_players", [2, 3, 4])
@pytest.mark.parametrize("seed", [0, 11, 12])
def test_drawing_tiles_up_to_5_points_lava_set_aside_and_mixed_back(num_players, seed):
    """Rulebook Drawing tiles: one tile at a time, counter-clockwise from the starting player, until a
    player's tiles show 5 or more points; a lava tile is put aside and another tile drawn; afterwards
    the lava tiles put aside go back into the bag."""
    env = new_game(num_players, seed)
    while True:
        before = env.state()
        act(env, int(np.flatnonzero(mask(env))[0]))
        if env.decision() != "placement":
            break
    hands, set_aside = simulated_initial_draw(before)
    s = env.state()
    assert_conserved(s)
    for p in range(num_players):
        assert hand(env, p) == hands[p]
        points = [TERRAIN_TILE_POINTS[t] for t in hand(env, p)]
        assert sum(points) >= 5 and sum(points[:-1]) < 5       # stopped as soon as 5 were reached
        assert all(t < FIRST_LAVA_TILE for t in hand(env, p))
    for t in set_aside:
        assert where(env, t) == core.IN_BAG
    assert all(where(env, t) == core.IN_BAG for t in range(FIRST_LAVA_TILE, NUM_ISLAND_TILES))
    assert len(bag(env)) == NUM_ISLAND_TILES - sum(len(h) for h in hands.values())


def test_drawing_tiles_the_example_2_then_1_then_3_points_makes_6_and_the_drawing_stops():
    """Rulebook Drawing tiles, the example: "The player draws, one after another, one tile with 2
    movement points, then one with 1 point, and finally, one with 3 points. Now he has tiles with 6
    points overall and may not continue drawing."  The first deal, among the games of seeds 0, 1, ...,
    in which a player draws 2 then 1 then 3 points: his hand is those three tiles (in drawing order),
    with tiles left in the bag.  Rules that stopped below 5 points or drew on past them would never deal
    such a hand."""
    for seed in range(2000):
        env = started_game(2, seed)
        hands = [[int(TERRAIN_TILE_POINTS[t]) for t in hand(env, p)] for p in range(2)]
        if [2, 1, 3] in hands:
            break
        assert all(sum(h) >= 5 and sum(h[:-1]) < 5 for h in hands)
    else:
        raise AssertionError("no deal of 2, 1 and 3 points in 2,000 games")
    assert len(bag(env)) > 0


def test_playing_tiles_the_example_one_tile_laid_then_two_tiles_of_5_points_move_the_explorers():
    """Rulebook Playing tiles, the example: "Yellow first plays one tile as a terrain tile, placing it
    on the gameboard. Then, he still has 2 tiles with overall 5 movement points available that he uses
    to advance his explorers."  Here the 5 points take an explorer into water twice (2 + 2) and into
    jungle once (1)."""
    env, s = craft()
    lay_terrain(s, "D1", "JJ/JJ")
    lay_terrain(s, "E1", "WW/WW")
    lay_terrain(s, "F1", "JJ/JJ")
    put_explorer(s, 1, 0, "D1-se")
    laid, two, three = set_hand(s, 1, ["lake", "jungle shore", "jungle"])   # 1, 2 and 3 points
    commit(env, s, player=1, pool=0)
    act(env, next(a for a in sorted(legal(env)) if core.LAY_BASE <= a < core.SPEND_BASE))   # tile 0 laid
    assert where(env, laid) == core.ON_BOARD and hand(env, 1) == [two, three]
    act(env, spend(0))
    act(env, spend(0))
    assert pool(env) == 5 and hand(env, 1) == []
    for name, left in [("E1-sw", 3), ("E1-se", 1), ("F1-sw", 0)]:
        act(env, move(0, E))
        assert explorer_square(env, 1, 0) == name and pool(env) == left
    assert END_TURN in legal(env)


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_beginning_the_game_the_last_placer_player_1_starts_then_clockwise(num_players):
    """Rulebook Beginning the game: the last player to place an explorer begins (with counter-clockwise
    placement from player_0 that is player_1), then play goes clockwise (increasing seat)."""
    env = started_game(num_players)
    assert env.decision() == "turn" and env.agent_selection == "player_1"
    seen = []
    for _ in range(2 * num_players):
        seen.append(pass_turn(env))
    assert seen == [(1 + i) % num_players for i in range(2 * num_players)]


# =====================================================================================================
# Course of the Game: Moving explorers (the illustrated move)
def test_movement_costs_the_illustrated_move_2_2_1_1_with_a_white_artifact():
    """Rulebook Movement costs, and the illustration of Reaching the boats: "2 points (into water) + 2
    points (into water) + 1 point (into the jungle) + 1 point (into the jungle). In doing so, the
    explorer takes the white artifact with him" -- without extra points, and carrying it does not change
    the costs.  (The boarding at the end of that illustration: test_reaching_the_boats_* below, and
    the reference rules' test_illustrated_move_*.)"""
    env, s = craft()
    lay_terrain(s, "D1", "JJ/JJ")
    lay_terrain(s, "E1", "WW/WW")
    lay_terrain(s, "F1", "JJ/JJ")
    put_explorer(s, 1, 0, "D1-se")
    artifacts_to_square(s, "F1-sw", white=1)
    set_hand(s, 1, ["jungle", "jungle"])                # 3 + 3 points
    commit(env, s, player=1, pool=0)
    act(env, spend(0))
    act(env, spend(0))
    assert pool(env) == 6
    path = [("E1-sw", 4), ("E1-se", 2), ("F1-sw", 1)]
    for name, left in path:
        act(env, move(0, E))
        assert explorer_square(env, 1, 0) == name and pool(env) == left
    act(env, pick(0, WHITE))
    assert pool(env) == 1 and carried(env, 1, 0) == (1, 0, 0) and artifacts_on(env, "F1-sw") == (0, 0, 0)
    act(env, move(0, E))
    assert explorer_square(env, 1, 0) == "F1-se" and pool(env) == 0 and carried(env, 1, 0) == (1, 0, 0)
    assert move_actions(env) == set()
    assert legal(env) == {END_TURN, core.DROP_BASE + WHITE}
    assert_conserved(env.state())


def test_movement_directions_not_onto_lava_or_another_explorer():
    """Rulebook Movement directions: only to an orthogonally adjacent space; never onto lava (the
    printed lava exits beside a start field) or onto a space where another explorer stands."""
    env, s = craft()
    put_explorer(s, 1, 0, "D4-se")
    put_explorer(s, 0, 0, "D4-ne")
    commit(env, s, player=1, pool=6)
    assert terrain_of(env, "E4-sw") == LAVA and terrain_of(env, "D5-ne") == LAVA
    assert_refused(env, move(0, E))          # E4-sw: lava
    assert_refused(env, move(0, S))          # D5-ne: lava
    assert_refused(env, move(0, N))          # D4-ne: another explorer (an opponent's)
    act(env, move(0, W))                     # D4-sw: free jungle
    assert explorer_square(env, 1, 0) == "D4-sw" and pool(env) == 5
    # an own explorer blocks too
    env, s = craft()
    put_explorer(s, 1, 0, "D4-se")
    put_explorer(s, 1, 1, "D4-sw")
    commit(env, s, player=1, pool=6)
    assert_refused(env, move(0, W))
    assert_refused(env, move(1, E))


def terrain_of(env, name):
    return int(env.state()[core.TERRAIN + square(name)])


def test_movement_directions_not_onto_mountain_an_empty_field_or_off_the_board():
    """Rulebook Movement directions: not onto mountain spaces, not onto spaces without a tile, and not
    off the board."""
    env, s = craft()
    lay_terrain(s, "A2", "JM/JJ")
    put_explorer(s, 1, 0, "A2-nw")
    commit(env, s, player=1, pool=6)
    assert field_tile(env, "A1") is None and terrain_of(env, "A1-sw") == NO_TILE
    assert_refused(env, move(0, N))          # A1-sw: no tile yet
    assert_refused(env, move(0, W))          # off the board
    assert_refused(env, move(0, E))          # A2-ne: mountain
    assert {a for a in move_actions(env) if a < move(1, N)} == {move(0, S)}
    act(env, move(0, S))
    assert explorer_square(env, 1, 0) == "A2-sw"


def test_movement_costs_too_few_points_and_points_of_several_tiles_combine():
    """Rulebook Movement costs / Moving explorers: jungle costs 1, water 2; an explorer cannot enter
    water with 1 point; "You can combine the points of several tiles" -- two 1-point tiles pay for one
    water step."""
    env, s = craft()
    lay_terrain(s, "D1", "JJ/JJ")
    lay_terrain(s, "E1", "WW/WW")
    put_explorer(s, 1, 0, "D1-se")
    set_hand(s, 1, ["lake", "lake"])                   # 1 point each
    commit(env, s, player=1, pool=0)
    assert move_actions(env) == set()                  # no points, no move
    act(env, spend(0))
    assert pool(env) == 1
    assert_refused(env, move(0, E))                    # water needs 2
    assert move(0, W) in legal(env) and move(0, N) in legal(env)
    act(env, spend(0))
    assert pool(env) == 2
    act(env, move(0, E))
    assert explorer_square(env, 1, 0) == "E1-sw" and pool(env) == 0


def test_moving_explorers_unspent_points_are_lost_at_the_end_of_the_turn():
    """Rulebook Moving explorers: "You don't have to use up all points"; RULES.md: points left in the
    pool at the end of the turn are lost."""
    env, s = craft()
    put_explorer(s, 1, 0, "D4-se")
    set_hand(s, 1, ["jungle"])
    commit(env, s, player=1, pool=0)
    act(env, spend(0))
    act(env, move(0, W))
    assert pool(env) == 2 and END_TURN in legal(env)
    act(env, END_TURN)
    assert pool(env) == 0 and to_act(env) == 0
    pass_turn(env)
    assert to_act(env) == 1 and pool(env) == 0
    assert move_actions(env) == set()


def test_a_turn_is_a_sequence_of_decisions_as_the_rulings_set_it():
    """RULINGS.md, Mauna Kea, "Turn as a sequence of decisions": "Place a hand tile (tile, field,
    rotation), or spend it for movement points; move an explorer one square; pick up or drop an
    artifact; board a boat ...; end the turn once no tile is left in hand (unspent points are lost)"."""
    kinds = {"lay": (core.LAY_BASE, core.SPEND_BASE), "spend": (core.SPEND_BASE, core.MOVE_BASE),
             "move": (core.MOVE_BASE, core.PICK_BASE), "pick": (core.PICK_BASE, core.DROP_BASE),
             "drop": (core.DROP_BASE, core.BOARD_BASE), "board": (core.BOARD_BASE, core.END_TURN),
             "end": (core.END_TURN, core.END_TURN + 1)}

    def offered(env):
        return {kind for kind, (low, high) in kinds.items() if any(low <= a < high for a in legal(env))}

    env, s = craft()
    put_explorer(s, 1, 0, "D4-se")
    artifacts_to_square(s, "D4-se", white=1)
    set_hand(s, 1, ["jungle shore", "jungle"])
    commit(env, s, player=1, pool=0)
    assert offered(env) == {"lay", "spend", "pick"}          # no points yet: no move; tiles in hand: no end
    act(env, spend(0))
    assert offered(env) == {"lay", "spend", "pick", "move"}
    act(env, pick(0, WHITE))
    assert offered(env) == {"lay", "spend", "drop", "move"}
    act(env, spend(0))
    assert offered(env) == {"drop", "move", "end"} and pool(env) == 5
    act(env, END_TURN)                                       # the 5 points unspent are lost
    assert to_act(env) == 0 and pool(env) == 0


# =====================================================================================================
# Course of the Game: Playing tiles
def test_playing_tiles_every_tile_must_be_played_before_the_turn_ends():
    """Rulebook Playing tiles: "On your turn, you have to play all your tiles" -- ending the turn is
    offered only once the hand is empty."""
    env = started_game(3)
    assert len(hand(env, 1)) >= 2
    assert END_TURN not in legal(env)
    assert_refused(env, END_TURN)
    act(env, lay(0, "B2", 0))
    while len(hand(env, 1)) > 1:
        assert END_TURN not in legal(env)
        act(env, spend(0))
    assert_refused(env, END_TURN)
    act(env, spend(0))
    assert END_TURN in legal(env)
    act(env, END_TURN)
    assert to_act(env) == 2


def test_using_movement_points_the_tile_goes_back_into_the_bag():
    """Rulebook Using movement points: the tile's points can move explorers; the tile is then mixed
    back into the bag and cannot be laid any more.  RULES.md: the hand keeps drawing order and closes
    the gap."""
    env, s = craft()
    a, b, c = set_hand(s, 1, ["jungle", "jungle shore", "lake"])     # 3, 2, 1 points
    commit(env, s, player=1, pool=0)
    in_bag = len(bag(env))
    act(env, spend(1))
    assert pool(env) == 2 and hand(env, 1) == [a, c]
    assert where(env, b) == core.IN_BAG and len(bag(env)) == in_bag + 1
    assert not any(lay(2, "B2", r) in legal(env) for r in range(4))   # no third tile to lay
    assert spend(2) not in legal(env)
    act(env, spend(1))
    assert pool(env) == 3 and hand(env, 1) == [a]
    act(env, spend(0))
    assert pool(env) == 6 and hand(env, 1) == []


EXPECTED_ROTATIONS = {0: "JJ/WM", 1: "WJ/MJ", 2: "MW/JJ", 3: "JM/JW"}


@pytest.mark.parametrize("rotation", [0, 1, 2, 3])
def test_expanding_the_terrain_in_each_of_the_4_orientations(rotation):
    """Rulebook Expanding the terrain: the tile is placed face up on an empty space in any of the 4
    orientations; its movement points are not counted.  RULES.md: rotation r = r quarter turns
    clockwise ("jungle, pool and rock" JJ/WM turned once shows WJ/MJ)."""
    env, s = craft()
    (t,) = set_hand(s, 1, ["jungle, pool and rock"])
    commit(env, s, player=1, pool=0)
    assert [lay(0, "B2", r) in legal(env) for r in range(4)] == [True] * 4
    act(env, lay(0, "B2", rotation))
    assert field_terrain(env, "B2") == pattern(EXPECTED_ROTATIONS[rotation])
    assert field_terrain(env, "B2") == rotate_tile(TERRAIN_TILE_SQUARES[t], rotation).tolist()
    assert field_tile(env, "B2") == t and env.state()[core.FIELD_ROTATION + field("B2")] == rotation
    assert where(env, t) == core.ON_BOARD and hand(env, 1) == [] and pool(env) == 0
    assert_conserved(env.state())


def test_expanding_the_terrain_only_on_empty_tile_spaces():
    """Rulebook Expanding the terrain: "on any one empty space" -- not on a field that holds a tile (a
    start tile, a laid terrain tile, lava), and never on the printed fields: the start fields, the
    volcano and the lava exits (RULES.md)."""
    env, s = craft()
    set_hand(s, 1, ["jungle", "lake"])
    lay_terrain(s, "A5", "JJ/JJ")
    rewrite(s, "tile E3: L0 turned 0 (single arrow straight)",           # the north flow's first lava
            "flow single arrow: E3 north 1 open; - north 0 closed")
    commit(env, s, player=1, pool=0)
    state = env.state()
    empty = {f for f in range(NUM_FIELDS) if IS_TILE_FIELD[f] and state[core.FIELD_TILE + f] < 0}
    assert len(empty) == 48 - 2
    for h in (0, 1):
        offered = {(a - core.LAY_BASE) // 4 % NUM_FIELDS for a in legal(env)
                   if core.LAY_BASE + 4 * NUM_FIELDS * h <= a < core.LAY_BASE + 4 * NUM_FIELDS * (h + 1)}
        assert offered == empty
    for name in ["A5", "E3", FIELD_NAMES[START_TILE_SPACES[0]], FIELD_NAMES[START_FIELDS[0]],
                 FIELD_NAMES[VOLCANO_FIELD], FIELD_NAMES[LAVA_FLOW_EXIT_FIELD[1]]]:
        for r in range(4):
            assert_refused(env, lay(0, name, r))
    act(env, lay(0, "B2", 3))
    assert all(lay(0, "B2", r) not in legal(env) for r in range(4))    # taken now


# =====================================================================================================
# Collecting and taking artifacts
def test_collecting_artifacts_at_most_3_and_dropping_any_time():
    """Rulebook Collecting and taking artifacts: an explorer carries at most 3 artifacts; he may leave
    one on his space at any time and take more as long as he carries no more than 3.  Both are free
    (RULES.md), even with no points."""
    env, s = craft()
    put_explorer(s, 1, 0, "D4-se")
    artifacts_to_square(s, "D4-se", white=3, gray=1)
    commit(env, s, player=1, pool=0)
    assert {a for a in legal(env) if core.PICK_BASE <= a < core.BOARD_BASE} == {pick(0, WHITE), pick(0, GRAY)}
    assert_refused(env, pick(0, BLACK))
    for i in range(3):
        act(env, pick(0, WHITE))
    assert carried(env, 1, 0) == (3, 0, 0) and artifacts_on(env, "D4-se") == (0, 1, 0)
    assert_refused(env, pick(0, GRAY))                    # a fourth one
    act(env, drop(0, WHITE))
    assert carried(env, 1, 0) == (2, 0, 0) and artifacts_on(env, "D4-se") == (1, 1, 0)
    assert_refused(env, drop(0, GRAY))                    # not carried
    act(env, pick(0, GRAY))
    assert carried(env, 1, 0) == (2, 1, 0) and pool(env) == 0
    assert_conserved(env.state())


def test_collecting_artifacts_free_actions_are_limited_per_turn():
    """Rulebook Collecting and taking artifacts, with RULES.md's decision: picking up and dropping are
    free, so at most 20 of them are allowed in a turn (otherwise a turn could last for ever); the count
    starts again with the next turn."""
    env, s = craft()
    put_explorer(s, 1, 0, "D4-se")
    artifacts_to_square(s, "D4-se", white=1)
    commit(env, s, player=1, pool=0)
    for i in range(core.FREE_ACTIONS_PER_TURN // 2):
        act(env, pick(0, WHITE))
        act(env, drop(0, WHITE))
    assert_refused(env, pick(0, WHITE))
    assert not any(core.PICK_BASE <= a < core.BOARD_BASE for a in legal(env))
    obs = env.observe("player_1")["observation"]
    assert obs[core.OBS_FREE_ACTIONS] == 0
    for h in range(len(hand(env, 1))):
        act(env, spend(0))
    act(env, core.END_TURN)
    assert env.state()[core.FREE_ACTIONS] == 0


def test_collecting_artifacts_only_from_the_explorers_own_space():
    """Rulebook Collecting and taking artifacts: artifacts are taken when the explorer is on their
    space; an explorer elsewhere gets no pick-up."""
    env, s = craft()
    put_explorer(s, 1, 0, "D4-se")
    artifacts_to_square(s, "D4-sw", white=1)
    commit(env, s, player=1, pool=1)
    assert not any(core.PICK_BASE <= a < core.DROP_BASE for a in legal(env))
    act(env, move(0, W))
    assert legal(env) >= {pick(0, WHITE)}


# =====================================================================================================
# Reaching the boats
def boat_position(num_players=2, boat="green boat (2 places) #1", at="C1-nw", load=(1, 1, 1), pool_points=1,
                  **options):
    """Player_1's explorer 0 on ``at`` (B1 and C1 laid with jungle) carrying ``load``; the named boat
    waits at landing B1-C1."""
    env, s = craft(num_players, **options)
    lay_terrain(s, "B1", "JJ/JJ")
    lay_terrain(s, "C1", "JJ/JJ")
    put_explorer(s, 1, 0, at)
    white, gray, black = load
    give_artifacts(s, 1, 0, white=white, gray=gray, black=black)
    boat_index = boat_to_landing(s, boat, "B1-C1")
    commit(env, s, player=1, pool=pool_points)
    return env, boat_index


def test_reaching_the_boats_board_for_1_point_the_most_valuable_artifacts_go_aboard():
    """Rulebook Reaching the boats: from one of the 4 spaces next to a boat the explorer goes on board
    for 1 point with his artifacts; what does not fit stays on his space (RULES.md: the most valuable
    go aboard).  The boat, explorer and load, is taken off the board and put in front of the player."""
    assert entry_squares("B1-C1") == ["B1-nw", "B1-ne", "C1-nw", "C1-ne"]
    env, b = boat_position(load=(1, 1, 1))
    assert board_actions(env) == {board(0, "B1-C1")}
    for other in LANDING_NAMES[1:]:
        assert_refused(env, board(0, other))
    act(env, board(0, "B1-C1"))
    assert boat_owner(env, b) == 1 and boat_at(env, "B1-C1") is None
    assert boat_load(env, b) == (0, 1, 1)
    assert artifacts_on(env, "C1-nw") == (1, 0, 0)
    assert explorer_status(env, 1, 0) == core.IN_BOAT and explorer_square(env, 1, 0) is None
    assert env.state()[core.OCCUPANT + square("C1-nw")] == -1
    assert pool(env) == 0 and running(env)
    assert env.scores() == {"player_0": 0, "player_1": 3 + 2 + 3}
    obs = env.observe("player_1")["observation"]
    assert not obs[core.OBS_BOAT_ENTRY + square("C1-nw")] and obs[core.OBS_LANDINGS + 0] == 0
    assert_conserved(env.state())


def test_reaching_the_boats_a_1_place_boat_leaves_the_least_valuable_behind():
    """Rulebook Reaching the boats: "he must leave the excess artifacts behind on his space" -- with a
    1-place boat the gray goes aboard, both white stay."""
    env, b = boat_position(boat="brown boat (1 place)", at="B1-nw", load=(2, 1, 0))
    act(env, board(0, "B1-C1"))
    assert boat_load(env, b) == (0, 1, 0) and artifacts_on(env, "B1-nw") == (2, 0, 0)
    assert env.scores()["player_1"] == 3 + 2


def test_reaching_the_boats_drop_first_to_choose_the_load():
    """RULES.md Reaching the boats: drop first to choose otherwise -- the white alone goes aboard."""
    env, b = boat_position(boat="brown boat (1 place)", at="C1-ne", load=(1, 1, 0))
    act(env, drop(0, GRAY))
    act(env, board(0, "B1-C1"))
    assert boat_load(env, b) == (1, 0, 0) and artifacts_on(env, "C1-ne") == (0, 1, 0)


def test_reaching_the_boats_only_from_an_entry_space_with_a_point_and_while_the_boat_is_there():
    """Rulebook Reaching the boats: only from the 4 neighbouring spaces of a boat, for 1 point: not
    from the space just inland, not without a point, not once the boat has left."""
    env, _ = boat_position(at="C1-sw")                    # inland of the entry square C1-nw
    assert board_actions(env) == set()
    assert_refused(env, board(0, "B1-C1"))
    env, _ = boat_position(at="C1-nw", pool_points=0)
    assert board_actions(env) == set()
    assert_refused(env, board(0, "B1-C1"))
    # the boat has gone: explorer 1 of player_1 on B1-ne finds nothing to board
    env, _ = boat_position(at="C1-nw")
    s = env.state()
    put_explorer(s, 1, 1, "B1-ne")
    commit(env, s, pool=2)
    assert board_actions(env) == {board(0, "B1-C1"), board(1, "B1-C1")}
    act(env, board(0, "B1-C1"))
    assert board_actions(env) == set()
    assert_refused(env, board(1, "B1-C1"))


def test_reaching_the_boats_the_scoring_examples_7_and_4_points_in_a_3_place_boat():
    """Rulebook Scoring examples: explorer (3) + white + white + gray = 7 VP; in a boat without the
    gray: explorer + white + white + one empty place (-1) = 4 VP."""
    env, b = boat_position(boat="brown boat (3 places)", load=(2, 1, 0))
    act(env, board(0, "B1-C1"))
    assert boat_load(env, b) == (2, 1, 0) and env.scores()["player_1"] == 7
    env, b = boat_position(boat="orange boat (3 places)", load=(2, 0, 0))
    act(env, board(0, "B1-C1"))
    assert boat_load(env, b) == (2, 0, 0) and env.scores()["player_1"] == 4


# =====================================================================================================
# Drawing other tiles
def test_drawing_other_tiles_up_to_5_points_after_the_turn():
    """Rulebook Drawing other tiles: after playing all his tiles the player draws until his tiles show
    5 or more points."""
    env = started_game(2, seed=4)
    for _ in range(6):
        player = pass_turn(env)
        points = [TERRAIN_TILE_POINTS[t] for t in hand(env, player)]
        assert sum(points) >= 5 and sum(points[:-1]) < 5
        assert_conserved(env.state())


def test_drawing_other_tiles_lava_is_laid_at_once_then_the_player_draws_on():
    """Rulebook Lava tiles: a lava tile drawn is laid on the board at once; then the player keeps
    drawing until he has at least 5 points."""
    env, s = craft(seed=2)
    tile = lava_tile(NORTH_FLOW, STRAIGHT)
    rig_next_draw(s, tile)
    commit(env, s, player=1, pool=0)
    act(env, END_TURN)
    assert field_tile(env, "E3") == tile and field_terrain(env, "E3") == [LAVA] * 4
    assert hand_points(env, 1) >= 5 and all(t < FIRST_LAVA_TILE for t in hand(env, 1))
    assert_conserved(env.state())


def test_drawing_other_tiles_stops_when_the_bag_is_empty():
    """RULES.md Ending your turn: if the bag is empty, drawing stops; the next turn the player has
    nothing to play and may end it at once."""
    env, s = craft()
    only_in_bag(s, [])
    commit(env, s, player=1, pool=0)
    act(env, END_TURN)
    assert hand(env, 1) == [] and to_act(env) == 0
    act(env, END_TURN)
    assert legal(env) == {END_TURN}


# =====================================================================================================
# Volcanic eruption
def test_volcanic_eruption_lava_removes_explorers_and_artifacts_it_covers():
    """Rulebook Volcanic eruption: a lava tile extends its flow (the north flow's first tile goes
    beyond its printed exit E4, onto E3) and is laid on top of the terrain tile there; the explorer
    there, with what he carries, and the artifacts there are removed from the game.  The section's
    example: "The lava flow reaches 2 artifacts and 1 explorer; therefore they have to be removed from
    the game. Then the lava tile is placed on top of the terrain tile" (here one artifact carried by
    the explorer and one lying on the tile)."""
    env, s = craft()
    covered = lay_terrain(s, "E3", "JJ/JJ")
    put_explorer(s, 0, 0, "E3-nw")
    give_artifacts(s, 0, 0, white=1)
    artifacts_to_square(s, "E3-se", gray=1)
    commit(env, s, player=1, pool=0)
    tile = lava_tile(NORTH_FLOW, STRAIGHT)
    erupt(env, tile)
    assert field_tile(env, "E3") == tile and field_terrain(env, "E3") == [LAVA] * 4
    assert where(env, tile) == core.ON_BOARD and where(env, covered) == core.REMOVED
    assert explorer_status(env, 0, 0) == core.LOST and explorer_square(env, 0, 0) is None
    assert carried(env, 0, 0) == (0, 0, 0) and artifacts_on(env, "E3-se") == (0, 0, 0)
    assert removed_artifacts(env) == (1, 1, 0)
    assert branch(env, NORTH_FLOW, 0) == ("E3", N, 1, 1)
    assert running(env) and env.state()[core.END_TRIGGERED] == 0      # player_0 has explorers left
    assert_conserved(env.state())


def test_volcanic_eruption_lava_tunnels_under_a_crossing_flow():
    """Rulebook Volcanic eruption: "If another lava tile is already lying there ... the new tile is
    placed one space further in the direction of the flow"; lava flows can cross.  The east flow bends
    north through G4 and G3; the north flow bends east at E3, runs on to F3 and tunnels under G3 to
    H3."""
    env, s = craft()
    # this lava walls the start field F4 in; with nothing else in the bag, explorers left there would
    # end the game walled in (RULES.md "Settled end"), so they wait on the free start field D4
    d4 = [SQUARE_NAMES[q] for q in FIELD_SQUARES[field("D4")]]
    for p in range(2):
        for e in range(5):
            if SQUARE_NAMES[s[core.EXPLORER_SQUARE + 5 * p + e]].startswith("F4-"):
                put_explorer(s, p, e, d4.pop())
    commit(env, s)
    erupt(env, lava_tile(EAST_FLOW, LEFT_BEND))
    assert field_tile(env, "G5") == lava_tile(EAST_FLOW, LEFT_BEND) and branch(env, EAST_FLOW, 0)[:2] == ("G5", N)
    erupt(env, lava_tile(EAST_FLOW, STRAIGHT, 0))
    erupt(env, lava_tile(EAST_FLOW, STRAIGHT, 1))
    assert field_tile(env, "G4") == lava_tile(EAST_FLOW, STRAIGHT, 0)
    assert field_tile(env, "G3") == lava_tile(EAST_FLOW, STRAIGHT, 1)
    erupt(env, lava_tile(NORTH_FLOW, RIGHT_BEND))
    assert field_tile(env, "E3") == lava_tile(NORTH_FLOW, RIGHT_BEND) and branch(env, NORTH_FLOW, 0)[:2] == ("E3", E)
    erupt(env, lava_tile(NORTH_FLOW, STRAIGHT, 0))
    assert field_tile(env, "F3") == lava_tile(NORTH_FLOW, STRAIGHT, 0)
    erupt(env, lava_tile(NORTH_FLOW, STRAIGHT, 1))
    assert field_tile(env, "G3") == lava_tile(EAST_FLOW, STRAIGHT, 1)          # the crossing stays
    assert field_tile(env, "H3") == lava_tile(NORTH_FLOW, STRAIGHT, 1)
    assert branch(env, NORTH_FLOW, 0) == ("H3", E, 3, 1)                       # E3, F3, H3
    assert_conserved(env.state())


def test_volcanic_eruption_after_a_fork_the_shorter_branch_first_the_dot_branch_on_ties():
    """Rulebook Volcanic eruption: after a fork the branch with fewer tiles is extended; with equal
    lengths the branch marked "•" (RULES.md: the left one)."""
    env, _ = craft()
    erupt(env, lava_tile(NORTH_FLOW, FORK))                   # E3: left branch west, right branch east
    assert branch(env, NORTH_FLOW, 0) == ("E3", W, 0, 1) and branch(env, NORTH_FLOW, 1) == ("E3", E, 0, 1)
    steps = [
        (lava_tile(NORTH_FLOW, STRAIGHT, 0), "D3"),         # 0 - 0: the • branch
        (lava_tile(NORTH_FLOW, STRAIGHT, 1), "F3"),         # 1 - 0: the shorter one
        (lava_tile(NORTH_FLOW, STRAIGHT, 2), "C3"),         # 1 - 1: the • branch
        (lava_tile(NORTH_FLOW, LEFT_BEND), "G3"),           # 2 - 1: the shorter one, turning north
        (lava_tile(NORTH_FLOW, RIGHT_BEND), "B3"),          # 2 - 2: the • branch, turning north
    ]
    for tile, name in steps:
        erupt(env, tile)
        assert field_tile(env, name) == tile, f"{name}"
    assert branch(env, NORTH_FLOW, 0) == ("B3", N, 3, 1)
    assert branch(env, NORTH_FLOW, 1) == ("G3", N, 2, 1)
    assert_conserved(env.state())


def test_volcanic_eruption_a_branch_leaving_the_board_discards_the_tile_and_closes():
    """Rulebook Volcanic eruption: "If a lava tile cannot be placed anymore (e.g., at the edge of the
    gameboard), it is removed from the game."  RULES.md: the branch is closed and no longer counts, so
    the other branch takes the next tile even when longer; the lava covers a start tile with its
    artifacts."""
    env, _ = craft()
    erupt(env, lava_tile(NORTH_FLOW, STRAIGHT, 0))           # E3
    erupt(env, lava_tile(NORTH_FLOW, STRAIGHT, 1))           # E2
    erupt(env, lava_tile(NORTH_FLOW, RIGHT_BEND))            # E1, now east
    erupt(env, lava_tile(NORTH_FLOW, FORK))                  # F1: left branch north, right branch south
    assert branch(env, NORTH_FLOW, 0) == ("F1", N, 0, 1) and branch(env, NORTH_FLOW, 1) == ("F1", S, 0, 1)
    fields_before = env.state()[core.FIELD_TILE:core.FIELD_TILE + NUM_FIELDS].copy()
    off = lava_tile(NORTH_FLOW, STRAIGHT, 2)
    erupt(env, off)                                           # the • branch: off the board
    assert where(env, off) == core.REMOVED
    np.testing.assert_array_equal(env.state()[core.FIELD_TILE:core.FIELD_TILE + NUM_FIELDS], fields_before)
    assert branch(env, NORTH_FLOW, 0)[3] == 0
    start_tile = field_tile(env, "F2")
    assert start_tile >= NUM_ISLAND_TILES
    on_f2 = np.array([artifacts_on(env, q) for q in (SQUARE_NAMES[i] for i in FIELD_SQUARES[field("F2")])]).sum(axis=0)
    removed = np.array(removed_artifacts(env))
    bend = lava_tile(NORTH_FLOW, LEFT_BEND)
    erupt(env, bend)                                          # the open branch, south onto F2
    assert field_tile(env, "F2") == bend and where(env, start_tile) == core.REMOVED
    assert removed_artifacts(env) == tuple((removed + on_f2).tolist())
    assert branch(env, NORTH_FLOW, 1) == ("F2", E, 1, 1)
    assert_conserved(env.state())


def test_volcanic_eruption_tunnelling_off_the_board_discards_the_tile():
    """Rulebook Volcanic eruption: a flow that would tunnel under lava at the edge of the board finds
    no space further on: the tile is removed from the game and the branch closes (RULES.md)."""
    env, s = craft()
    lay_lava(s, "E1", lava_tile(EAST_FLOW, STRAIGHT))        # another flow's lava on the edge
    commit(env, s)
    erupt(env, lava_tile(NORTH_FLOW, STRAIGHT, 0))           # E3
    erupt(env, lava_tile(NORTH_FLOW, STRAIGHT, 1))           # E2
    tile = lava_tile(NORTH_FLOW, STRAIGHT, 2)
    erupt(env, tile)                                          # E1 is lava, beyond it the sea
    assert where(env, tile) == core.REMOVED and field_tile(env, "E1") == lava_tile(EAST_FLOW, STRAIGHT)
    assert branch(env, NORTH_FLOW, 0) == ("E2", N, 2, 0)
    assert_conserved(env.state())


def test_volcanic_eruption_a_flow_without_open_branch_discards_every_tile():
    """Rulebook Volcanic eruption / RULES.md: a straight flow leaves the board at the edge; the tile
    is removed from the game and so is every later tile of that flow."""
    env, _ = craft()
    for i, name in enumerate(("E3", "E2", "E1")):
        erupt(env, lava_tile(NORTH_FLOW, STRAIGHT, i))
        assert field_tile(env, name) == lava_tile(NORTH_FLOW, STRAIGHT, i)
    fields_before = env.state()[core.FIELD_TILE:core.FIELD_TILE + NUM_FIELDS].copy()
    for tile in (lava_tile(NORTH_FLOW, LEFT_BEND), lava_tile(NORTH_FLOW, FORK)):
        erupt(env, tile)
        assert where(env, tile) == core.REMOVED
        assert branch(env, NORTH_FLOW, 0)[3] == 0 and branch(env, NORTH_FLOW, 1)[3] == 0
    np.testing.assert_array_equal(env.state()[core.FIELD_TILE:core.FIELD_TILE + NUM_FIELDS], fields_before)
    assert_conserved(env.state())


def test_volcanic_eruption_a_branchs_length_is_the_tiles_laid_on_it():
    """Rulebook Volcanic eruption: "you have to extend the branch that consists of fewer tiles", so a
    branch's length counts its flow's lava tiles laid since the fork.  Play keeps the first branch's
    length equal to the flow's tiles on the board until the fork; a row claiming more (a position text
    saying 3 with no tile laid) is refused, since play would then run the branch past the six tiles a
    flow has."""
    env, _ = craft()
    for i in range(2):
        erupt(env, lava_tile(NORTH_FLOW, STRAIGHT, i))
        assert branch(env, NORTH_FLOW, 0)[2] == i + 1
    row = env.state()
    row[core.BRANCH_LENGTH + 2 * NORTH_FLOW] = 3   # two tiles of the flow on the board
    with pytest.raises(ValueError, match=r"BRANCH_LENGTH\[\d+\] = 3: .*no more than the flow's lava tiles"):
        env.set_state(row)
    row[core.BRANCH_LENGTH + 2 * NORTH_FLOW] = 1   # fewer: a hand-made position may lay lava as scenery
    env.set_state(row)


def lava_ends_seen(env, viewer):
    """The end fields an observation gives for the 8 branches: names, None for a closed branch."""
    obs = env.observe(f"player_{viewer}")["observation"]
    ends = obs[core.OBS_LAVA_ENDS:core.OBS_LAVA_ENDS + 2 * 2 * 4].reshape(8, 2).astype(int)
    return [FIELD_NAMES[(y - 1) * 9 + (x - 1)] if x else None for x, y in ends]


def test_volcanic_eruption_the_observation_shows_where_each_branch_ends():
    """Rulebook Volcanic eruption: lava tiles lie on the board showing their flow's arrows, so every
    player sees where each flow ends and where its next tile falls (RULINGS.md: an observation holds
    everything its player may know)."""
    env, _ = craft()
    exits = [FIELD_NAMES[f] for f in LAVA_FLOW_EXIT_FIELD]
    for viewer in (0, 1):
        assert lava_ends_seen(env, viewer) == [exits[0], None, exits[1], None, exits[2], None, exits[3], None]
    for tile in (lava_tile(NORTH_FLOW, FORK), lava_tile(NORTH_FLOW, STRAIGHT, 0), lava_tile(NORTH_FLOW, STRAIGHT, 1)):
        erupt(env, tile)
        for viewer in (0, 1):
            seen = lava_ends_seen(env, viewer)
            for flow in range(4):
                for b in range(2):
                    name, _, _, is_open = branch(env, flow, b)
                    assert seen[2 * flow + b] == (name if is_open else None)
    assert lava_ends_seen(env, 0)[:2] == ["D3", "F3"]


def test_volcanic_eruption_the_same_lava_laid_in_another_order_is_seen_apart():
    """The same eight lava tiles on the same fields, drawn in two orders, leave the west flow ending on
    different fields (B6 or B4), and its next tile falls on A6 or A4: the board's arrows tell them
    apart, and so does the observation, in nothing but where the branches end."""
    north = [lava_tile(NORTH_FLOW, LEFT_BEND), lava_tile(NORTH_FLOW, STRAIGHT, 0),
             lava_tile(NORTH_FLOW, STRAIGHT, 1), lava_tile(NORTH_FLOW, FORK)]
    west = [lava_tile(WEST_FLOW, STRAIGHT, 0), lava_tile(WEST_FLOW, LEFT_BEND), lava_tile(WEST_FLOW, RIGHT_BEND)]
    last_north = lava_tile(NORTH_FLOW, STRAIGHT, 2)
    games = []
    for order in (north + [last_north] + west, north + [west[0], west[2], west[1], last_north]):
        env, _ = craft()
        for tile in order:
            erupt(env, tile)
        games.append(env)
    a, b = games
    lava_a, lava_b = ({name for name in FIELD_NAMES
                       if FIRST_LAVA_TILE <= (field_tile(env, name) or 0) < NUM_ISLAND_TILES} for env in games)
    assert lava_a == lava_b and len(lava_a) == 8
    assert branch(a, WEST_FLOW, 0)[0] == "B6" and branch(b, WEST_FLOW, 0)[0] == "B4"
    ends = slice(core.OBS_LAVA_ENDS, core.OBS_LAVA_ENDS + 16)
    for viewer in (0, 1):
        obs_a, obs_b = (env.observe(f"player_{viewer}")["observation"] for env in games)
        differ = np.flatnonzero(obs_a != obs_b)
        assert differ.size and all(ends.start <= i < ends.stop for i in differ)


def _bag_tiles(env, viewer):
    obs = env.observe(f"player_{viewer}")["observation"]
    return obs[core.OBS_BAG_TILES:core.OBS_LAVA]


def test_volcanic_eruption_the_lava_shapes_left_in_the_bag_are_observed():
    """[Volcanic eruption] / RULINGS.md "Conventions": a lava tile drawn is turned over and laid, or
    removed when its branch has left the board, in everyone's sight, so every player can know which
    shapes of a flow are still in the bag; and the next one turns the flow.  Two games differ only in
    which north tile the branch that left the board took away (a straight or the left bend): the
    north flow's next tile turns differently, and the observation tells the two games apart in the bag
    block and nowhere else."""
    kept = {"straight": lava_tile(NORTH_FLOW, LEFT_BEND), "left bend": lava_tile(NORTH_FLOW, STRAIGHT, 2)}
    games = {}
    for discarded, other in kept.items():
        env, s = craft()
        commit(env, s)
        for tile in (lava_tile(NORTH_FLOW, STRAIGHT, 0), lava_tile(NORTH_FLOW, STRAIGHT, 1),
                     lava_tile(NORTH_FLOW, RIGHT_BEND), lava_tile(NORTH_FLOW, FORK)):
            erupt(env, tile)      # E3, E2, E1 (turning east), the fork on F1: the "•" branch heads north
        gone = lava_tile(NORTH_FLOW, STRAIGHT, 2) if discarded == "straight" else lava_tile(NORTH_FLOW, LEFT_BEND)
        erupt(env, gone)          # the "•" branch runs off the board: the tile leaves the game
        assert where(env, gone) == core.REMOVED
        s = env.state()
        only_in_bag(s, [other])
        commit(env, s)
        games[discarded] = env
    north = core.NUM_TERRAIN_KINDS + core.NUM_LAVA_SHAPES * NORTH_FLOW
    for viewer in (0, 1):
        a, b = (_bag_tiles(games[name], viewer) for name in ("straight", "left bend"))
        assert a[north:north + core.NUM_LAVA_SHAPES].tolist() == [0, 1, 0, 0]     # the left bend is left
        assert b[north:north + core.NUM_LAVA_SHAPES].tolist() == [1, 0, 0, 0]     # a straight is left
        obs_a, obs_b = (games[name].observe(f"player_{viewer}")["observation"] for name in games)
        differ = np.flatnonzero(obs_a != obs_b)
        assert differ.size and all(core.OBS_BAG_TILES <= i < core.OBS_LAVA for i in differ)
    for name, env in games.items():
        erupt(env, kept[name])
    assert branch(games["straight"], NORTH_FLOW, 1)[1] != branch(games["left bend"], NORTH_FLOW, 1)[1]


def test_drawing_other_tiles_the_terrain_kinds_left_in_the_bag_are_observed():
    """[Drawing other tiles] / RULINGS.md "Conventions": tiles are drawn, laid and covered face up, so
    the bag's composition is public knowledge, kind by kind, not only by points: a lake and a massif
    are both worth 1 point, and a game where lava covered the lake (the massif left in the bag) is told
    apart from one where it covered the massif."""
    games = {}
    for covered in ("lake", "massif"):
        env, s = craft()
        t = bag_tile(s, kind=covered)
        s[core.FIELD_TILE + field("G3")] = t
        s[core.TILE_WHERE + t] = core.ON_BOARD
        lay_lava(s, "G3", lava_tile(EAST_FLOW, STRAIGHT, 0))     # covers it: the tile leaves the game
        commit(env, s)
        games[covered] = env
    lake, massif = (TERRAIN_KIND_NAMES.index(name) for name in ("lake", "massif"))
    for viewer in (0, 1):
        a, b = (_bag_tiles(games[name], viewer) for name in ("lake", "massif"))
        assert a[lake] == b[lake] - 1 and a[massif] == b[massif] + 1
        obs_a, obs_b = (games[name].observe(f"player_{viewer}")["observation"] for name in games)
        assert np.array_equal(obs_a[core.OBS_BAG:core.OBS_BAG + 7], obs_b[core.OBS_BAG:core.OBS_BAG + 7])
        differ = np.flatnonzero(obs_a != obs_b)
        assert differ.size and all(core.OBS_BAG_TILES <= i < core.OBS_LAVA for i in differ)


def test_drawing_other_tiles_the_bag_block_counts_every_tile_left():
    """RULINGS.md "Conventions": at every decision of random games, for every viewer, the bag block
    holds the number of each terrain kind and of each flow's lava shape still in the bag, and agrees
    with the counts by points and by flow."""
    rng = np.random.default_rng(5)
    for num_players, variant in ((2, "basic"), (3, "advanced"), (4, "basic")):
        env = new_game(num_players, seed=num_players, variant=variant, max_turns=60)
        while running(env):
            s = env.state()
            in_bag = [t for t in range(NUM_ISLAND_TILES) if s[core.TILE_WHERE + t] == core.IN_BAG]
            kinds = np.bincount([TERRAIN_TILE_KIND[t] for t in in_bag if t < FIRST_LAVA_TILE],
                                minlength=core.NUM_TERRAIN_KINDS)
            shapes = np.zeros((4, core.NUM_LAVA_SHAPES), np.int64)
            for t in in_bag:
                if t >= FIRST_LAVA_TILE:
                    shapes[LAVA_TILE_FLOW[t - FIRST_LAVA_TILE], LAVA_TILE_SHAPE[t - FIRST_LAVA_TILE]] += 1
            for viewer in range(num_players):
                obs = env.observe(f"player_{viewer}")["observation"]
                block = obs[core.OBS_BAG_TILES:core.OBS_LAVA]
                assert block[:core.NUM_TERRAIN_KINDS].tolist() == kinds.tolist()
                assert block[core.NUM_TERRAIN_KINDS:].tolist() == shapes.ravel().tolist()
                by_points = np.bincount(TERRAIN_KIND_POINTS - 1, weights=kinds, minlength=3)
                assert obs[core.OBS_BAG:core.OBS_BAG + 3].tolist() == by_points.tolist()
                assert obs[core.OBS_BAG + 3:core.OBS_BAG + 7].tolist() == shapes.sum(axis=1).tolist()
            act(env, int(rng.choice(sorted(legal(env)))))


# =====================================================================================================
# End of the Game
def test_end_of_the_game_a_player_without_explorers_on_the_island_triggers_the_last_round():
    """Rulebook End of the Game (and Object of the Game: "The game ends as soon as one player has no
    explorers left on the island. After that, the scoring takes place"): the game ends when a player has
    no explorer left on the board; the player whose turn it is still plays all his tiles; then every
    other player gets one more turn.
    RULES.md: nobody draws after the trigger.  Then scoring: the sole winner +1, the others -1."""
    env, s = craft(3, seed=6)
    lay_terrain(s, "B1", "JJ/JJ")
    lay_terrain(s, "C1", "JJ/JJ")
    put_explorer(s, 1, 0, "C1-nw")
    give_artifacts(s, 1, 0, white=1, gray=1)
    for e in (1, 2, 3):
        lose_explorer(s, 1, e)
    boat = boat_to_landing(s, "green boat (2 places) #1", "B1-C1")
    set_hand(s, 1, ["lake", "lake"])
    set_hand(s, 2, ["jungle", "jungle shore"])
    set_hand(s, 0, ["lagoon", "jungle", "marsh"])
    commit(env, s, player=1, pool=0)
    act(env, spend(0))
    act(env, board(0, "B1-C1"))
    assert env.state()[core.END_TRIGGERED] == 1 and running(env)
    assert_refused(env, END_TURN)                            # a tile is still in his hand
    act(env, spend(0))
    rng_before, bag_before = env.state()[core.RNG], bag(env)
    act(env, END_TURN)
    assert hand(env, 1) == [] and bag(env) == bag_before and env.state()[core.RNG] == rng_before
    # player_2 and player_0: one more turn each, with the tiles in front of them, without drawing
    for player in (2, 0):
        assert to_act(env) == player and running(env)
        assert len(hand(env, player)) >= 2
        pass_turn(env)
        assert hand(env, player) == [] and env.state()[core.RNG] == rng_before
    assert not running(env) and env.decision() == "over"
    assert all(env.terminations.values()) and not any(env.truncations.values())
    assert env.scores() == {"player_0": 0, "player_1": 3 + 1 + 2, "player_2": 0}
    assert final_rewards(env) == {"player_0": -1, "player_1": 1, "player_2": -1}
    for agent in env.possible_agents:
        assert env.infos[agent]["scores"] == env.scores()
        assert env.infos[agent]["boats"] == {"player_0": [], "player_1": ["green boat (2 places) #1"],
                                              "player_2": []}
    assert boat_owner(env, boat) == 1


def test_end_of_the_game_triggered_by_lava_while_drawing_the_player_plays_the_tiles_drawn():
    """Rulebook End of the Game: "The player whose turn it is may still play all tiles that he has
    lying face up in front of him", with RULINGS.md (Ending): lava takes player_0's last explorer
    while player_0 draws; his drawing stops there and his turn goes on with the tile drawn before the
    lava (the same turn for ``max_turns``); then player_1 plays one more turn and the game is scored.
    Scores tie at 0; player_1 has explorers on the island and wins."""
    env, s = craft(2, seed=8)
    lay_terrain(s, "E3", "JJ/JJ")
    put_explorer(s, 0, 0, "E3-ne")
    for e in range(1, 5):
        lose_explorer(s, 0, e)
    set_hand(s, 1, ["jungle", "jungle"])
    lava = lava_tile(NORTH_FLOW, STRAIGHT)
    drawn = bag_tile(s, points=1)
    rest = [t for t in bag_of(s) if t < FIRST_LAVA_TILE and t != drawn][:6]
    only_in_bag(s, rest + [drawn, lava])
    rng = np.zeros(1, dtype=np.int64)
    for candidate in range(1, 1_000_000):   # a generator state that draws the 1-point tile, then the lava
        rng[0] = candidate
        if draw(rng, 0, len(rest) + 2) == sorted(rest + [drawn, lava]).index(drawn) and \
                draw(rng, 0, len(rest) + 1) == sorted(rest + [lava]).index(lava):
            break
    s[core.RNG] = candidate
    commit(env, s, player=0, pool=0)
    turn = env.state()[core.TURN]
    act(env, END_TURN)
    assert explorer_status(env, 0, 0) == core.LOST and env.state()[core.END_TRIGGERED] == 1
    assert hand(env, 0) == [drawn] and sorted(bag(env)) == sorted(rest)
    assert to_act(env) == 0 and env.state()[core.TURN] == turn and running(env)
    assert_refused(env, END_TURN)                     # the drawn tile must be played first
    pass_turn(env)
    assert to_act(env) == 1 and running(env) and sorted(bag(env)) == sorted(rest + [drawn])
    pass_turn(env)
    assert hand(env, 1) == [] and not running(env) and all(env.terminations.values())
    assert env.state()[core.TURN] == turn + 2
    assert env.scores() == {"player_0": 0, "player_1": 0}
    assert final_rewards(env) == {"player_0": -1, "player_1": 1}
    assert env.infos["player_0"]["end"] == "rules" and env.infos["player_0"]["end_trigger"] == "no explorer left"


def bag_of(s):
    return [t for t in range(NUM_ISLAND_TILES) if s[core.TILE_WHERE + t] == core.IN_BAG]


def last_turn(num_players, boats, on_island, carrying, reward="win_loss"):
    """The last turn of the final round: each player p owns ``boats[p]`` (boat name, white artifacts
    aboard), keeps ``on_island[p]`` explorers on the island, the first carrying ``carrying[p]`` white
    artifacts; the others are lost.  The player to act has played his tiles and ends the game."""
    env, s = craft(num_players, reward=reward)
    k = EXPLORERS[num_players]
    for p in range(num_players):
        e = 0
        for name, white in boats.get(p, []):
            give_boat(s, p, e, name, white=white)
            e += 1
        for i in range(k - e):
            if i >= on_island[p]:
                lose_explorer(s, p, e + i)
        if on_island[p]:
            give_artifacts(s, p, e, white=carrying[p])
    commit(env, s, player=0, pool=0, end_triggered=1, final_turns_left=1)
    act(env, END_TURN)
    assert not running(env) and all(env.terminations.values())
    return env


def test_scoring_explorer_3_artifacts_1_2_3_empty_place_minus_1():
    """Rulebook Scoring: 3 VP per explorer aboard, white 1, gray 2, black 3, -1 per unoccupied place."""
    env, s = craft(2)
    give_boat(s, 0, 0, "brown boat (3 places)", white=1)                 # 3 + 1 - 2
    give_boat(s, 0, 1, "brown boat (1 place)")                           # 3 - 1
    give_boat(s, 1, 0, "green boat (2 places) #1", black=1)              # 3 + 3 - 1
    give_boat(s, 1, 1, "orange boat (3 places)", white=1, gray=1)        # 3 + 1 + 2 - 1
    commit(env, s, player=1, pool=0)
    assert env.scores() == {"player_0": 2 + 2, "player_1": 5 + 5}


def test_resolving_ties_more_explorers_on_the_island_wins():
    """Rulebook Resolving ties: with equal points, the player with more explorers on the island wins."""
    env = last_turn(2, {0: [("green boat (2 places) #1", 2)], 1: [("green boat (2 places) #2", 2)]},
                    on_island={0: 0, 1: 1}, carrying={0: 0, 1: 0})
    assert env.scores() == {"player_0": 5, "player_1": 5}
    assert final_rewards(env) == {"player_0": -1, "player_1": 1}


def test_resolving_ties_more_explorers_on_the_island_beat_more_artifacts_carried():
    """Rulebook Resolving ties: the explorers on the island decide before the artifacts they carry
    (the two criteria pointing opposite ways: player_0 has more explorers, player_1 carries more)."""
    env = last_turn(2, {0: [("green boat (2 places) #1", 2)], 1: [("green boat (2 places) #2", 2)]},
                    on_island={0: 2, 1: 1}, carrying={0: 0, 1: 3})
    assert env.scores() == {"player_0": 5, "player_1": 5}
    assert final_rewards(env) == {"player_0": 1, "player_1": -1}


def test_resolving_ties_then_more_artifacts_carried_on_the_island_wins():
    """Rulebook Resolving ties: still tied, the player whose explorers on the island carry the most
    artifacts overall wins (their number: 2 white beat 1 black)."""
    env, s = craft(3)
    for p in (0, 1):
        give_boat(s, p, 0, ("green boat (2 places) #1", "green boat (2 places) #2")[p], white=2)
        for e in (2, 3):
            lose_explorer(s, p, e)
    for e in range(4):
        lose_explorer(s, 2, e)
    give_artifacts(s, 0, 1, white=2)
    give_artifacts(s, 1, 1, black=1)
    commit(env, s, player=1, pool=0, end_triggered=1, final_turns_left=1)
    act(env, END_TURN)
    assert env.scores() == {"player_0": 5, "player_1": 5, "player_2": 0}
    assert final_rewards(env) == {"player_0": 1, "player_1": -1, "player_2": -1}


def test_resolving_ties_a_full_tie_is_a_draw_between_the_tied_players():
    """Rulebook Resolving ties: "If there is still more than one player with the same result, the game
    ends as a draw" -- RULINGS: tied winners get 0, the others -1."""
    env = last_turn(3, {0: [("green boat (2 places) #1", 1)], 1: [("pink boat (2 places) #1", 1)]},
                    on_island={0: 1, 1: 1, 2: 0}, carrying={0: 2, 1: 2, 2: 0})
    assert env.scores() == {"player_0": 3, "player_1": 3, "player_2": 0}
    assert final_rewards(env) == {"player_0": 0, "player_1": 0, "player_2": -1}
    env = last_turn(2, {}, on_island={0: 0, 1: 0}, carrying={0: 0, 1: 0})
    assert final_rewards(env) == {"player_0": 0, "player_1": 0}


@pytest.mark.parametrize("reward,expected", [
    ("score", {"player_0": 3, "player_1": 5, "player_2": 0}),
    ("margin", {"player_0": -2, "player_1": 2, "player_2": -5}),
])
def test_rewards_score_and_margin(reward, expected):
    """RULES.md rewards: ``score`` gives the victory points, ``margin`` the points minus the best other
    player's."""
    env = last_turn(3, {0: [("green boat (2 places) #1", 1)], 1: [("pink boat (2 places) #1", 2)]},
                    on_island={0: 1, 1: 1, 2: 0}, carrying={0: 0, 1: 0, 2: 0}, reward=reward)
    assert final_rewards(env) == expected


def test_truncation_after_max_turns_with_rewards_0():
    """RULINGS conventions / RULES.md: ``max_turns`` player turns truncate the game; rewards 0."""
    env = started_game(2, max_turns=3)
    for i in range(3):
        assert running(env) and env.state()[core.TURN] == i
        pass_turn(env)
    assert not running(env) and env.state()[core.TURN] == 3
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert final_rewards(env) == {"player_0": 0, "player_1": 0}
    assert env.decision() == "over"
    assert not mask(env).any()


@pytest.mark.parametrize("reward", ["score", "margin"])
def test_truncation_gives_0_in_every_reward_mode(reward):
    """env docstring: truncation after ``max_turns`` gives rewards 0 whatever the reward option, even
    to a player who has boarded a boat."""
    env, boat = boat_position(max_turns=1, reward=reward)
    act(env, board(0, "B1-C1"))
    assert env.scores()["player_1"] > 0
    act(env, END_TURN)
    assert all(env.truncations.values())
    assert final_rewards(env) == {"player_0": 0, "player_1": 0}
    assert env.infos["player_1"]["scores"] == env.scores()


# =====================================================================================================
# Ending your turn
def rig_draws(s, order):
    """Choose the generator state so that the next draws from the bag take the tiles of ``order`` one
    after another (each draw is the ``draw(b)``-th of the ``b`` tiles in the bag, RULES.md Set-up; a
    tile drawn, lava or terrain, leaves the bag)."""
    in_bag = bag_of(s)
    trial = np.zeros(1, dtype=np.int64)
    for candidate in range(1, 1_000_000):
        trial[0] = candidate
        left = list(in_bag)
        for tile in order:
            if left[draw(trial, 0, len(left))] != tile:
                break
            left.remove(tile)
        else:
            s[core.RNG] = candidate
            return
    raise AssertionError("no generator state found")


def test_ending_your_turn_draw_until_5_points_lava_laid_at_once_then_the_next_player():
    """[Ending your turn] with [Drawing other tiles] and [Lava tiles]: after playing all his tiles the
    player draws until his tiles show at least 5 points: 1 point, then a lava tile, laid on the board
    at once (the north flow's first field E3), then 1 and 3 points: 5, and drawing stops there, the
    other tiles stay in the bag.  "When you have finished drawing your new tiles, your turn is over
    and it is the next player's turn": player_2, clockwise after player_1."""
    env, s = craft(3, seed=5)
    one_a = bag_tile(s, points=1)
    one_b = bag_tile(s, points=1, avoid={one_a})
    three = bag_tile(s, points=3)
    spare = [bag_tile(s, points=3, avoid={three}), bag_tile(s, points=2)]
    lava = lava_tile(NORTH_FLOW, STRAIGHT)
    set_hand(s, 2, [("tile", bag_tile(s, kind="jungle", avoid={three} | set(spare)))])
    only_in_bag(s, [one_a, lava, one_b, three] + spare)
    rig_draws(s, [one_a, lava, one_b, three])
    commit(env, s, player=1, pool=0)
    hand_2 = hand(env, 2)
    turn = int(env.state()[core.TURN])
    act(env, END_TURN)
    assert hand(env, 1) == [one_a, one_b, three] and hand_points(env, 1) == 5
    assert field_tile(env, "E3") == lava and field_terrain(env, "E3") == [LAVA] * 4
    assert sorted(bag(env)) == sorted(spare)
    assert to_act(env) == 2 and env.state()[core.TURN] == turn + 1 and running(env)
    assert hand(env, 2) == hand_2 and pool(env) == 0
    assert_conserved(env.state())


def test_ending_your_turn_with_the_bag_empty_the_turn_ends_with_what_the_player_has():
    """[Ending your turn] / RULES.md "If the bag is empty, drawing stops": the bag holds a 1-point tile
    and a lava tile; both are drawn (the lava laid at once), the hand shows 1 point, below 5, and the
    turn is over all the same: player_0 is to act."""
    env, s = craft(2, seed=5)
    one = bag_tile(s, points=1)
    lava = lava_tile(NORTH_FLOW, STRAIGHT)
    only_in_bag(s, [one, lava])
    rig_draws(s, [one, lava])
    commit(env, s, player=1, pool=0)
    act(env, END_TURN)
    assert hand(env, 1) == [one] and hand_points(env, 1) == 1
    assert field_tile(env, "E3") == lava and bag(env) == []
    assert to_act(env) == 0 and running(env)
    assert_conserved(env.state())


# =====================================================================================================
# Volcanic eruption: lava tiles always extend their flow
_FLOW_EXIT = {NORTH_FLOW: ("E4", N), EAST_FLOW: ("F5", E), SOUTH_FLOW: ("E6", S), WEST_FLOW: ("D5", W)}
_SHAPE_EXITS = {STRAIGHT: (0,), LEFT_BEND: (3,), RIGHT_BEND: (1,), FORK: (3, 1)}   # turns; fork: • left first


def _next_field(f, d):
    """The field beside ``f`` in direction d (N, E, S, W), by the fields' names, or None off the board."""
    name = FIELD_NAMES[f]
    x, y = "ABCDEFGHI".index(name[0]), int(name[1:]) - 1
    x, y = x + (0, 1, 0, -1)[d], y + (-1, 0, 1, 0)[d]
    if 0 <= x < 9 and 0 <= y < 9:
        return FIELD_NAMES.index(f"{'ABCDEFGHI'[x]}{y + 1}")
    return None


def _lava_fields(s):
    """Fields lying under lava: a lava tile, a printed flow exit, the volcano."""
    return {f for f in range(NUM_FIELDS)
            if all(s[core.TERRAIN + q] in (LAVA, core.VOLCANO) for q in FIELD_SQUARES[f])}


def _extend(placed, lava, branches):
    """An order in which the lava tiles ``placed`` [(field, tile)] of one step each extend an end of
    their own flow: the field beside the branch's end in its direction, or beyond fields under lava
    (tunnelling).  Returns the flows' branches after them, or None if no order does."""
    if not placed:
        return branches
    for i, (f, tile) in enumerate(placed):
        flow, shape = LAVA_TILE_FLOW[tile - FIRST_LAVA_TILE], LAVA_TILE_SHAPE[tile - FIRST_LAVA_TILE]
        for j, (end, d) in enumerate(branches[flow]):
            target = _next_field(end, d)
            while target is not None and target in lava:
                target = _next_field(target, d)
            if target != f:
                continue
            grown = dict(branches)
            grown[flow] = branches[flow][:j] + [(f, (d + t) % 4) for t in _SHAPE_EXITS[shape]] + branches[flow][j + 1:]
            result = _extend(placed[:i] + placed[i + 1:], lava | {f}, grown)
            if result is not None:
                return result
    return None


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_volcanic_eruption_every_lava_tile_extends_its_flow_side_by_side_in_random_games(num_players):
    """[Volcanic eruption] "A lava tile must be placed adjacent to a space with a lava flow so that the
    flow is extended ... connected to the matching lava flow"; "You may not place a lava tile that
    would interrupt the lava flow"; a tile is placed one space further only to tunnel under lava.  At
    every eruption of random games, the new tile's field shares a side with the end field of a branch
    of its own flow (the flow's printed exit next to the volcano at first) in that branch's direction,
    or lies beyond it in that direction past fields under lava; the branch then ends there, turned by
    the tile's shape (a fork opens two branches).  So each flow's lava stays one chain: at the end
    every lava tile of the flow on the board is one of these."""
    rng = np.random.default_rng(100 + num_players)
    eruptions = tunnels = 0
    for seed in range(3):
        env = new_game(num_players, seed=seed, max_turns=150)
        branches = {flow: [(field(name), d)] for flow, (name, d) in _FLOW_EXIT.items()}
        laid = set()
        while running(env):
            before = env.state()
            env.step(int(rng.choice(sorted(legal(env)))))
            after = env.state()
            placed = [(f, int(after[core.FIELD_TILE + f])) for f in range(NUM_FIELDS)
                      if FIRST_LAVA_TILE <= after[core.FIELD_TILE + f] < NUM_ISLAND_TILES
                      and after[core.FIELD_TILE + f] != before[core.FIELD_TILE + f]]
            if not placed:
                continue
            lava = _lava_fields(before)
            grown = _extend(placed, lava, branches)
            assert grown is not None, (
                f"seed {seed}: lava {[(FIELD_NAMES[f], t) for f, t in placed]} extends no branch end "
                f"{[(flow, FIELD_NAMES[end], 'NESW'[d]) for flow, ends in branches.items() for end, d in ends]}")
            tunnels += sum(1 for f, _ in placed if f not in {_next_field(end, d) for ends in branches.values()
                                                             for end, d in ends})
            branches = grown
            eruptions += len(placed)
            laid |= {t for _, t in placed}
        s = env.state()
        on_board = {int(t) for t in s[core.FIELD_TILE:core.FIELD_TILE + NUM_FIELDS]
                    if FIRST_LAVA_TILE <= t < NUM_ISLAND_TILES}
        assert on_board == laid          # every lava tile on the board came in as a link of its flow
    assert eruptions >= 40 and tunnels >= 1   # the games did erupt, and tunnel under lava


def test_resolving_ties_explorers_saved_in_boats_are_not_on_the_island():
    """Rulebook Resolving ties: "the player who has more explorers on the island at the end of the game
    wins" -- explorers in boats are not on the island.  player_0 keeps 2 on the island with 1 boat,
    player_1 keeps 1 with 2 boats, both 5 points; player_1's explorer carries an artifact, so a count of
    explorers on the island *and in boats* (3 against 3) would hand player_1 the win on the artifacts."""
    env = last_turn(2, {0: [("green boat (2 places) #1", 2)],
                        1: [("brown boat (1 place)", 0), ("pink boat (2 places) #1", 1)]},
                    on_island={0: 2, 1: 1}, carrying={0: 0, 1: 1})
    assert env.scores() == {"player_0": 5, "player_1": 5}
    assert final_rewards(env) == {"player_0": 1, "player_1": -1}


def test_resolving_ties_artifacts_in_boats_are_not_carried_on_the_island():
    """Rulebook Resolving ties: "the player whose explorers on the island carry the most artifacts
    overall wins" -- the artifacts already in the boats are not carried on the island.  Both 5 points and
    1 explorer on the island; player_0's carries 2 artifacts and his 3 boats are empty, player_1's
    carries 1 and his boat holds 2: counting the boats' loads too (2 against 3) would reverse it."""
    env = last_turn(2, {0: [("brown boat (1 place)", 0), ("orange boat (1 place)", 0),
                            ("green boat (2 places) #1", 0)],
                        1: [("green boat (2 places) #2", 2)]},
                    on_island={0: 1, 1: 1}, carrying={0: 2, 1: 1})
    assert env.scores() == {"player_0": 5, "player_1": 5}
    assert final_rewards(env) == {"player_0": 1, "player_1": -1}


def test_reaching_the_boats_loading_costs_1_point_in_all_whatever_the_load():
    """Rulebook Reaching the boats: "Loading the boat with the explorer and the artifacts costs a total
    of 1 movement point."  With 4 points, boarding a 3-place boat with 3 artifacts leaves 3 points for
    the turn, where 1 point for the explorer and 1 per artifact would leave none (with a 1-point pool,
    as the other boarding tests have, nothing is left either way)."""
    env, b = boat_position(boat="brown boat (3 places)", load=(1, 1, 1), pool_points=4)
    act(env, board(0, "B1-C1"))
    assert boat_load(env, b) == (1, 1, 1)
    assert pool(env) == 3


def test_reaching_the_boats_only_the_artifacts_he_carries_go_aboard():
    """Rulebook Reaching the boats: "he can go on board and take the artifacts he's carrying with him" --
    not the artifacts lying on his space, even with places free (he would have to pick them up first,
    within his 3).  A 3-place boat, 1 white carried, 1 gray lying on the entry space: only the white goes
    aboard."""
    env, b = boat_position(boat="brown boat (3 places)", at="C1-nw", load=(1, 0, 0))
    s = env.state()
    artifacts_to_square(s, "C1-nw", gray=1)
    commit(env, s)
    act(env, board(0, "B1-C1"))
    assert boat_load(env, b) == (1, 0, 0)
    assert artifacts_on(env, "C1-nw") == (0, 1, 0)
