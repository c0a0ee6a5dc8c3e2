"""Mauna Kea component data (``maunakea_env/board.py``): the totals of the rulebook's Game Materials,
the board geometry of ``shared/RULINGS.md`` and the reconstruction choices of ``maunakea_env/RULES.md``.
"""
from collections import Counter

import numpy as np

from maunakea_env import board as b


def turn_fields(fields, quarter_turns=1):
    fields = np.asarray(fields)
    for _ in range(quarter_turns):
        fields = b.FIELD_ROTATE_CW[fields]
    return fields


def turn_squares(squares, quarter_turns=1):
    squares = np.asarray(squares)
    for _ in range(quarter_turns):
        squares = b.SQUARE_ROTATE_CW[squares]
    return squares


def fields(*names):
    return [b.FIELD_INDEX[n] for n in names]


# --- Game Materials: totals ------------------------------------------------------------------------

def test_square_tiles_total_118():
    assert b.NUM_TERRAIN_TILES == 70 and b.NUM_LAVA_TILES == 24 and b.NUM_START_TILES == 24
    assert b.NUM_ISLAND_TILES == 94 and b.NUM_SQUARE_TILES == 118
    assert b.TERRAIN_TILE_SQUARES.shape == (70, 4) and b.TERRAIN_TILE_POINTS.shape == (70,)
    assert b.START_TILE_SQUARES.shape == (24, 4) and b.START_TILE_ARTIFACTS.shape == (24, 4)


def test_start_tiles_mark_17_white_7_gray_1_black():
    counts = np.bincount(b.START_TILE_ARTIFACTS.ravel(), minlength=4)
    assert counts[b.WHITE] == 17 and counts[b.GRAY] == 7 and counts[b.BLACK] == 1
    assert counts[1:].sum() == 25 == b.ARTIFACT_COUNTS.sum()


def test_eight_boats_capacities_and_colours():
    assert b.NUM_BOATS == 8
    assert sorted(b.BOAT_CAPACITY.tolist()) == [1, 1, 2, 2, 2, 2, 3, 3]
    for colour in range(len(b.BOAT_COLOURS)):
        mine = b.BOAT_CAPACITY[b.BOAT_COLOUR == colour]
        assert len(mine) == 2 and mine.sum() == 4          # each colour: 1 + 3 or 2 + 2 places
    assert len(set(b.BOAT_NAMES)) == 8
    assert b.BOAT_NAMES[b.BOAT_INDEX["brown boat (3 places)"]] == "brown boat (3 places)"


def test_lava_tiles_six_per_flow_3_straight_1_left_1_right_1_fork():
    for flow in range(4):
        shapes = Counter(b.LAVA_TILE_SHAPE[b.LAVA_TILE_FLOW == flow].tolist())
        assert shapes == {b.STRAIGHT: 3, b.LEFT_BEND: 1, b.RIGHT_BEND: 1, b.FORK: 1}
    forks = b.LAVA_TILE_SHAPE == b.FORK
    assert (b.LAVA_TILE_DOT_BRANCH[forks] >= 0).all() and (b.LAVA_TILE_DOT_BRANCH[~forks] == -1).all()
    assert len(set(b.LAVA_FLOW_SYMBOLS)) == 4


def test_explorers_per_player_count():
    assert b.EXPLORERS_PER_PLAYER == {2: 5, 3: 4, 4: 3}
    assert len(b.EXPLORER_COLOURS) * b.EXPLORERS_PER_COLOUR == 20
    assert max(b.EXPLORERS_PER_PLAYER.values()) <= b.EXPLORERS_PER_COLOUR


def test_scoring_and_movement_values():
    assert b.EXPLORER_POINTS == 3 and b.EMPTY_PLACE_POINTS == -1
    assert b.ARTIFACT_POINTS[[b.WHITE, b.GRAY, b.BLACK]].tolist() == [1, 2, 3]
    assert b.MOVE_COST[b.JUNGLE] == 1 and b.MOVE_COST[b.WATER] == 2
    for t in (b.MOUNTAIN, b.LAVA, b.VOLCANO, b.NO_TILE):
        assert b.MOVE_COST[t] == b.IMPASSABLE


# --- Board geometry ----------------------------------------------------------------------------------

def test_grid_indices_and_names():
    assert b.FIELD_NAMES[b.VOLCANO_FIELD] == "E5"
    assert b.SQUARE_NAMES[b.square_index(0, 0)] == "A1-nw"
    assert b.SQUARE_NAMES[b.square_index(17, 17)] == "I9-se"
    for f in range(b.NUM_FIELDS):
        assert (b.SQUARE_FIELD[b.FIELD_SQUARES[f]] == f).all()
        assert b.SQUARE_CORNER[b.FIELD_SQUARES[f]].tolist() == [0, 1, 2, 3]
    assert sorted(b.FIELD_SQUARES.ravel().tolist()) == list(range(324))
    assert len(set(b.FIELD_NAMES)) == 81 and len(set(b.SQUARE_NAMES)) == 324


def test_square_neighbours_orthogonal_and_symmetric():
    opposite = [b.S, b.W, b.N, b.E]
    for s in range(b.NUM_SQUARES):
        for d in range(4):
            t = b.SQUARE_NEIGHBOURS[s, d]
            if t >= 0:
                assert np.abs(b.SQUARE_XY[s] - b.SQUARE_XY[t]).sum() == 1
                assert b.SQUARE_NEIGHBOURS[t, opposite[d]] == s
    assert (b.SQUARE_NEIGHBOURS >= 0).sum() == 4 * 18 * 17


def test_rotations_are_quarter_turns():
    assert sorted(b.FIELD_ROTATE_CW.tolist()) == list(range(81))
    assert sorted(b.SQUARE_ROTATE_CW.tolist()) == list(range(324))
    assert (turn_fields(np.arange(81), 4) == np.arange(81)).all()
    assert (turn_squares(np.arange(324), 4) == np.arange(324)).all()
    assert turn_fields(b.VOLCANO_FIELD) == b.VOLCANO_FIELD
    assert b.FIELD_NAMES[turn_fields(b.FIELD_INDEX["E1"])] == "I5"       # north turns to east
    assert (b.SQUARE_FIELD[b.SQUARE_ROTATE_CW] == b.FIELD_ROTATE_CW[b.SQUARE_FIELD]).all()


def test_start_fields_and_lava_exits_around_the_volcano():
    assert sorted(b.FIELD_NAMES[f] for f in b.START_FIELDS) == ["D4", "D6", "F4", "F6"]
    assert [b.FIELD_NAMES[f] for f in b.LAVA_FLOW_EXIT_FIELD] == ["E4", "F5", "E6", "D5"]
    for k in range(4):
        assert turn_fields(b.START_FIELDS[k]) == b.START_FIELDS[(k + 1) % 4]
        assert turn_fields(b.LAVA_FLOW_EXIT_FIELD[k]) == b.LAVA_FLOW_EXIT_FIELD[(k + 1) % 4]
        # the flow points away from the volcano: its exit field lies in its direction from E5
        assert b.FIELD_NEIGHBOURS[b.VOLCANO_FIELD, b.LAVA_FLOW_DIRECTION[k]] == b.LAVA_FLOW_EXIT_FIELD[k]
    assert (b.INITIAL_TERRAIN[b.FIELD_SQUARES[b.LAVA_FLOW_EXIT_FIELD]] == b.LAVA).all()
    assert (b.INITIAL_TERRAIN[b.FIELD_SQUARES[b.VOLCANO_FIELD]] == b.VOLCANO).all()
    assert not b.IS_TILE_FIELD[b.START_FIELDS].any() and not b.IS_TILE_FIELD[b.LAVA_FLOW_EXIT_FIELD].any()
    assert b.IS_TILE_FIELD.sum() == 81 - 9


def test_sixteen_start_squares_on_jungle():
    assert len(b.START_SQUARES) == 16 == len(set(b.START_SQUARES.tolist())) == b.IS_START_SQUARE.sum()
    assert b.IS_START_FIELD[b.SQUARE_FIELD[b.START_SQUARES]].all()
    assert (b.INITIAL_TERRAIN[b.START_SQUARES] == b.JUNGLE).all()
    assert set(np.flatnonzero(b.INITIAL_TERRAIN == b.JUNGLE).tolist()) == set(b.START_SQUARES.tolist())


def test_start_tile_spaces_24_in_rings_2_3_quarter_turn_symmetric():
    spaces = b.START_TILE_SPACES
    assert len(spaces) == 24 == len(set(spaces.tolist())) == b.IS_START_TILE_SPACE.sum()
    assert set(b.FIELD_RING[spaces].tolist()) <= {2, 3}
    assert not np.isin(spaces, np.r_[b.START_FIELDS, b.LAVA_FLOW_EXIT_FIELD, b.VOLCANO_FIELD]).any()
    assert (turn_fields(spaces) == np.roll(spaces, -6)).all()            # quadrant k -> quadrant k + 1
    assert set(turn_fields(spaces).tolist()) == set(spaces.tolist())
    # 6 per quadrant: quadrant of (dx, dy) from the volcano, half-open so the four partition the ring
    d = b.FIELD_XY[spaces] - b.CENTRE
    quadrant = np.select([(d[:, 0] > 0) & (d[:, 1] <= 0), (d[:, 0] >= 0) & (d[:, 1] > 0),
                          (d[:, 0] < 0) & (d[:, 1] >= 0)], [0, 1, 2], 3)
    assert np.bincount(quadrant).tolist() == [6, 6, 6, 6]


def test_start_tile_spaces_form_small_separate_patches():
    spaces = set(b.START_TILE_SPACES.tolist())
    seen, sizes = set(), []
    for f in spaces:
        if f in seen:
            continue
        stack, size = [f], 0
        seen.add(f)
        while stack:
            g = stack.pop()
            size += 1
            for h in b.FIELD_NEIGHBOURS[g]:
                if h in spaces and h not in seen:
                    seen.add(h)
                    stack.append(h)
        sizes.append(size)
    assert sorted(sizes) == [3] * 8


def test_start_tile_spaces_reachable_from_the_start_fields():
    # not beside the volcano, and each start field opens onto two start-tile spaces on its outer sides
    assert not np.isin(b.START_TILE_SPACES, b.FIELD_NEIGHBOURS[b.VOLCANO_FIELD]).any()
    for f in b.START_FIELDS:
        assert np.isin(b.FIELD_NEIGHBOURS[f], b.START_TILE_SPACES).sum() == 2
    assert set(fields("F3", "G4")) <= set(b.START_TILE_SPACES.tolist())


def test_landings_two_per_side_quarter_turn_symmetric():
    assert b.NUM_LANDINGS == 8
    assert np.bincount(b.LANDING_SIDE, minlength=4).tolist() == [2, 2, 2, 2]
    assert b.LANDING_NAMES[0] == "landing B1-C1"
    for k in range(8):
        assert (turn_fields(b.LANDING_FIELDS[k]) == b.LANDING_FIELDS[(k + 2) % 8]).all()
        assert (turn_squares(b.LANDING_ENTRY_SQUARES[k]) == b.LANDING_ENTRY_SQUARES[(k + 2) % 8]).all()
        a, c = b.LANDING_FIELDS[k]
        assert b.FIELD_RING[a] == b.FIELD_RING[c] == 4 and np.abs(b.FIELD_XY[a] - b.FIELD_XY[c]).sum() == 1
        assert (b.FIELD_NEIGHBOURS[[a, c], b.LANDING_SIDE[k]] == -1).all()    # both on the boat's side
        x, y = b.LANDING_XY[k]
        assert not (0 <= x <= 18 and 0 <= y <= 18)                          # the boat lies off the board


def test_landing_entry_squares_four_on_the_edge():
    entries = b.LANDING_ENTRY_SQUARES
    assert entries.shape == (8, 4) and len(set(entries.ravel().tolist())) == 32
    for k in range(8):
        assert (b.SQUARE_NEIGHBOURS[entries[k], b.LANDING_SIDE[k]] == -1).all()
        assert b.ON_EDGE_SQUARE[entries[k]].all()
        assert set(b.SQUARE_FIELD[entries[k]].tolist()) == set(b.LANDING_FIELDS[k].tolist())
        assert (b.SQUARE_LANDING[entries[k]] == k).all()
        steps = np.abs(np.diff(b.SQUARE_XY[entries[k]], axis=0)).sum(axis=1)
        assert (steps == 1).all()                                             # a straight stretch of edge
    assert (b.SQUARE_LANDING >= 0).sum() == 32


# --- Tiles -------------------------------------------------------------------------------------------

def test_terrain_tiles_points_1_to_3_more_jungle_never_fewer_points():
    assert set(b.TERRAIN_TILE_POINTS.tolist()) == {1, 2, 3}
    jungle = (b.TERRAIN_TILE_SQUARES == b.JUNGLE).sum(axis=1)
    order = np.argsort(jungle, kind="stable")
    assert (np.diff(b.TERRAIN_TILE_POINTS[order]) >= 0).all()
    assert np.isin(b.TERRAIN_TILE_SQUARES, [b.JUNGLE, b.WATER, b.MOUNTAIN]).all()
    assert (b.TERRAIN_KIND_COUNTS > 0).all() and len(set(b.TERRAIN_KIND_NAMES)) == len(b.TERRAIN_KIND_NAMES)


def test_terrain_mix_is_walkable():
    share = np.bincount(b.TERRAIN_TILE_SQUARES.ravel(), minlength=4)[1:] / (70 * 4)
    jungle, water, mountain = share
    assert jungle > 0.4 and water > 0.2 and 0.1 < mountain < jungle
    assert 1.8 <= b.TERRAIN_TILE_POINTS.mean() <= 2.2


def test_start_tiles_markings_never_on_mountain():
    marked = b.START_TILE_ARTIFACTS > 0
    assert not (marked & (b.START_TILE_SQUARES == b.MOUNTAIN)).any()
    assert np.isin(b.START_TILE_SQUARES[marked], [b.JUNGLE, b.WATER]).all()
    assert set(marked.sum(axis=1).tolist()) <= {0, 1, 2}
    assert np.isin(b.START_TILE_SQUARES, [b.JUNGLE, b.WATER, b.MOUNTAIN]).all()


def test_tile_rotation_four_quarter_turns_is_identity():
    tiles = np.r_[b.TERRAIN_TILE_SQUARES, b.START_TILE_SQUARES]
    for r in range(4):
        assert (b.rotate_tile(b.rotate_tile(tiles, r), 4 - r) == tiles).all()
    assert (b.rotate_tile(tiles, 4) == tiles).all()
    turned = tiles
    for _ in range(4):
        turned = b.rotate_tile(turned, 1)
    assert (turned == tiles).all()
    # one quarter turn clockwise: the bottom-left square comes to the top-left
    assert b.rotate_tile(np.array(["nw", "ne", "sw", "se"]), 1).tolist() == ["sw", "nw", "se", "ne"]


def test_tile_rotation_matches_turning_the_board():
    """A tile laid with rotation r + 1 on the turned field shows what the turned board shows."""
    rng = np.random.default_rng(0)
    tile = b.TERRAIN_TILE_SQUARES[rng.integers(70)]
    for f in range(b.NUM_FIELDS):
        for r in range(4):
            terrain = np.zeros(b.NUM_SQUARES, dtype=np.int64)
            terrain[b.FIELD_SQUARES[f]] = b.rotate_tile(tile, r)
            turned = np.zeros_like(terrain)
            turned[b.SQUARE_ROTATE_CW] = terrain
            expected = np.zeros_like(terrain)
            expected[b.FIELD_SQUARES[b.FIELD_ROTATE_CW[f]]] = b.rotate_tile(tile, r + 1)
            assert (turned == expected).all()


def test_lava_shapes_turn_the_flow():
    assert b.LAVA_SHAPE_EXIT_TURNS[b.STRAIGHT].tolist() == [0, -1]
    assert (b.N + b.LAVA_SHAPE_EXIT_TURNS[b.LEFT_BEND, 0]) % 4 == b.W
    assert (b.N + b.LAVA_SHAPE_EXIT_TURNS[b.RIGHT_BEND, 0]) % 4 == b.E
    fork = b.LAVA_SHAPE_EXIT_TURNS[b.FORK]
    assert [(b.N + t) % 4 for t in fork] == [b.W, b.E]
