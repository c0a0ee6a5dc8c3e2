"""Mauna Kea components: the island board, the tiles, the boats (reconstruction, see ``RULES.md``).

This is the one place where the printed components are described.  Everything here is data: anyone who
owns the physical game can correct a field, a tile or a boat without touching the rules code.  The
rulebook (``shared/rulebooks/maunakea-rulebook-en.txt``) gives only totals; ``shared/RULINGS.md`` gives
the board's shape; every other choice below is ours and carries a comment saying why.

Geometry.  The board is 9 × 9 *fields*, field ``(fx, fy)`` with x right and y down, index
``fy * 9 + fx``, named like a chess board: column letter ``A``…``I`` (fx), row number ``1``…``9`` (fy),
so the volcano is ``E5``.  A field is the size of one tile: 2 × 2 *squares* ("spaces" in the rulebook),
so the squares form an 18 × 18 grid, square ``(x, y)`` with index ``y * 18 + x`` belongs to field
``(x // 2, y // 2)`` and is named after its field and corner (``"E5-nw"``).  Explorers move between
orthogonally adjacent squares.  The four squares of a field or tile are always listed in *tile order*:
top-left, top-right, bottom-left, bottom-right (north-west, north-east, south-west, south-east).

Directions are ``N, E, S, W`` = 0, 1, 2, 3 (clockwise), so turning right is ``+1`` and left ``+3``
modulo 4.  A quarter turn of the board is clockwise about the centre of the volcano.
"""
import numpy as np

# ----------------------------------------------------------------------------------------------------
# Directions and the grid
# ----------------------------------------------------------------------------------------------------
DIRECTIONS = ("N", "E", "S", "W")
N, E, S, W = range(4)
DIRECTION_DXDY = np.array([(0, -1), (1, 0), (0, 1), (-1, 0)], dtype=np.int64)
TURN_RIGHT, TURN_LEFT = 1, 3  # added to a direction, modulo 4

FIELDS_PER_SIDE = 9
SQUARES_PER_SIDE = 2 * FIELDS_PER_SIDE
NUM_FIELDS = FIELDS_PER_SIDE * FIELDS_PER_SIDE      # 81
NUM_SQUARES = SQUARES_PER_SIDE * SQUARES_PER_SIDE   # 324
CENTRE = FIELDS_PER_SIDE // 2                       # the volcano's column and row: 4

TILE_CORNERS = ("nw", "ne", "sw", "se")  # tile order: top-left, top-right, bottom-left, bottom-right


def field_index(fx, fy):
    return fy * FIELDS_PER_SIDE + fx


def square_index(x, y):
    return y * SQUARES_PER_SIDE + x


FIELD_XY = np.array([(f % FIELDS_PER_SIDE, f // FIELDS_PER_SIDE) for f in range(NUM_FIELDS)], dtype=np.int64)
SQUARE_XY = np.array([(s % SQUARES_PER_SIDE, s // SQUARES_PER_SIDE) for s in range(NUM_SQUARES)],
                     dtype=np.int64)
FIELD_NAMES = tuple(f"{'ABCDEFGHI'[fx]}{fy + 1}" for fx, fy in FIELD_XY.tolist())
FIELD_INDEX = {name: f for f, name in enumerate(FIELD_NAMES)}
SQUARE_FIELD = np.array([field_index(x // 2, y // 2) for x, y in SQUARE_XY.tolist()], dtype=np.int64)
SQUARE_CORNER = np.array([2 * (y % 2) + x % 2 for x, y in SQUARE_XY.tolist()], dtype=np.int64)
SQUARE_NAMES = tuple(f"{FIELD_NAMES[SQUARE_FIELD[s]]}-{TILE_CORNERS[SQUARE_CORNER[s]]}"
                     for s in range(NUM_SQUARES))
SQUARE_INDEX = {name: s for s, name in enumerate(SQUARE_NAMES)}
# FIELD_SQUARES[f]: the field's four squares in tile order, so that square FIELD_SQUARES[f, i] shows
# square i of the (rotated) tile lying on f.
FIELD_SQUARES = np.array([[square_index(2 * fx + i % 2, 2 * fy + i // 2) for i in range(4)]
                          for fx, fy in FIELD_XY.tolist()], dtype=np.int64)


def _grid_neighbours(side):
    """[cell, direction] -> the orthogonal neighbour on a side × side grid, -1 beyond the edge."""
    table = np.full((side * side, 4), -1, dtype=np.int64)
    for c in range(side * side):
        x, y = c % side, c // side
        for d, (dx, dy) in enumerate(DIRECTION_DXDY.tolist()):
            if 0 <= x + dx < side and 0 <= y + dy < side:
                table[c, d] = (y + dy) * side + x + dx
    return table


SQUARE_NEIGHBOURS = _grid_neighbours(SQUARES_PER_SIDE)  # [square, N/E/S/W], -1 off the board
FIELD_NEIGHBOURS = _grid_neighbours(FIELDS_PER_SIDE)    # [field, N/E/S/W], -1 off the board (lava)
ON_EDGE_SQUARE = (SQUARE_NEIGHBOURS < 0).any(axis=1)

# A quarter turn clockwise about the board's centre: (dx, dy) -> (-dy, dx) relative to the volcano.
FIELD_ROTATE_CW = np.array([field_index(2 * CENTRE - fy, fx) for fx, fy in FIELD_XY.tolist()], dtype=np.int64)
SQUARE_ROTATE_CW = np.array([square_index(SQUARES_PER_SIDE - 1 - y, x) for x, y in SQUARE_XY.tolist()],
                            dtype=np.int64)
# Chebyshev distance from the volcano, in fields: 0 volcano, 1 start and lava-exit fields, 4 the coast.
FIELD_RING = np.abs(FIELD_XY - CENTRE).max(axis=1)

# ----------------------------------------------------------------------------------------------------
# Tile rotation
# ----------------------------------------------------------------------------------------------------
# A tile's squares are given in tile order for rotation 0.  Turned a quarter clockwise, the old
# bottom-left comes to the top-left, the old top-left to the top-right, and so on:
# rotated[i] = squares[TILE_ROTATION_SOURCE[r, i]] for r quarter turns clockwise (r = 0..3).
_QUARTER_SOURCE = np.array([2, 0, 3, 1], dtype=np.int64)
TILE_ROTATION_SOURCE = np.empty((4, 4), dtype=np.int64)
TILE_ROTATION_SOURCE[0] = np.arange(4)
for _r in range(1, 4):
    TILE_ROTATION_SOURCE[_r] = TILE_ROTATION_SOURCE[_r - 1][_QUARTER_SOURCE]


def rotate_tile(squares, rotation):
    """The tile's four squares (tile order) after ``rotation`` quarter turns clockwise (any integer)."""
    return np.asarray(squares)[..., TILE_ROTATION_SOURCE[rotation % 4]]


# ----------------------------------------------------------------------------------------------------
# Terrain, artifacts, scoring
# ----------------------------------------------------------------------------------------------------
# What a square shows.  NO_TILE: a tile space nothing has been laid on yet (may not be entered).
NO_TILE, JUNGLE, WATER, MOUNTAIN, LAVA, VOLCANO = range(6)
TERRAIN_NAMES = ("no tile", "jungle", "water", "mountain", "lava", "volcano")
_TERRAIN_LETTER = {"J": JUNGLE, "W": WATER, "M": MOUNTAIN}
IMPASSABLE = -1
# Movement costs [Moving explorers, Movement costs]: jungle 1, water 2; mountain, lava, the volcano and
# squares without a tile may not be entered.
MOVE_COST = np.array([IMPASSABLE, 1, 2, IMPASSABLE, IMPASSABLE, IMPASSABLE], dtype=np.int64)

NO_ARTIFACT, WHITE, GRAY, BLACK = range(4)
ARTIFACT_NAMES = ("none", "white", "gray", "black")
ARTIFACT_COUNTS = np.array([0, 17, 7, 1], dtype=np.int64)    # Game Materials
ARTIFACT_POINTS = np.array([0, 1, 2, 3], dtype=np.int64)     # Scoring
EXPLORER_POINTS = 3                                          # Scoring
EMPTY_PLACE_POINTS = -1                                      # Scoring: each unoccupied place in a boat
MAX_CARRIED = 3          # an explorer carries at most 3 artifacts [Collecting and taking artifacts]
BOARDING_COST = 1        # going on board, load included [Reaching the boats]
# Picking up and dropping cost nothing, so a turn of them could go on for ever; a learning agent
# needs every turn to end.  20 a turn is far more than any sensible turn uses (3 carried per explorer).
FREE_ACTIONS_PER_TURN = 20
HAND_POINTS = 5          # draw until the tiles in front of you show 5 or more points [Drawing tiles]

# Players and explorers [Material for the players].  The rulebook names Red and Yellow players; the
# other two colours are ours, chosen not to clash with the boat and artifact colours.
EXPLORER_COLOURS = ("Red", "Yellow", "Blue", "Purple")
EXPLORERS_PER_COLOUR = 5                                   # 20 explorers in 4 colours
EXPLORERS_PER_PLAYER = {2: 5, 3: 4, 4: 3}
MIN_PLAYERS, MAX_PLAYERS = 2, 4


def _squares(pattern):
    """'JJ/JW' (top row / bottom row) -> terrain codes in tile order."""
    top, bottom = pattern.split("/")
    return [_TERRAIN_LETTER[c] for c in top + bottom]


# ----------------------------------------------------------------------------------------------------
# The board
# ----------------------------------------------------------------------------------------------------
VOLCANO_FIELD = field_index(CENTRE, CENTRE)  # E5

# Start fields: the volcano's four diagonal neighbours, printed jungle (RULINGS).  Listed clockwise from
# the north-east so that start field k + 1 is start field k turned a quarter.
START_FIELDS = np.array([field_index(CENTRE + dx, CENTRE + dy)
                         for dx, dy in ((1, -1), (1, 1), (-1, 1), (-1, -1))], dtype=np.int64)
START_SQUARES = np.sort(FIELD_SQUARES[START_FIELDS].ravel())   # the 16 explorer starting spaces

# The four lava flows.  Each leaves the volcano through one of its orthogonal neighbours (RULINGS).
# Reading: those four fields are *printed lava* -- the first field of the flow, showing the flow's own
# arrow symbol pointing away from the volcano -- and never take a tile.  Only this reading lets the
# rulebook's rules work from the first eruption on: a lava tile "must be placed adjacent to a space with
# a lava flow so that the flow is extended" and "must be connected to the matching lava flow", which
# the printed symbol identifies; the volcano itself touches all four flows and could not say which side
# a flow's first tile goes to, nor which way its arrows point.  A flow's first tile therefore lies on
# the field beyond its exit field (N flow: E3), with the flow's direction as its entry direction.
# The flows differ only by their arrow symbol (Volcanic eruption: "4 different ones which can be
# identified by different arrow symbols"); the names describe our symbols.
_LAVA_FLOW_TABLE = (
    # name, symbol, exit field (offset from the volcano), direction away from the volcano
    ("single arrow", "→", (0, -1), N),
    ("double arrow", "⇒", (1, 0), E),
    ("triple arrow", "⇛", (0, 1), S),
    ("open arrow", "⇨", (-1, 0), W),
)
NUM_LAVA_FLOWS = len(_LAVA_FLOW_TABLE)
LAVA_FLOW_NAMES = tuple(r[0] for r in _LAVA_FLOW_TABLE)
LAVA_FLOW_SYMBOLS = tuple(r[1] for r in _LAVA_FLOW_TABLE)
LAVA_FLOW_EXIT_FIELD = np.array([field_index(CENTRE + dx, CENTRE + dy)
                                 for _, _, (dx, dy), _ in _LAVA_FLOW_TABLE], dtype=np.int64)
LAVA_FLOW_DIRECTION = np.array([r[3] for r in _LAVA_FLOW_TABLE], dtype=np.int64)

# Start-tile spaces: 6 per quadrant in rings 2-3 (RULINGS), as two L-shaped patches of 3 fields that
# wrap around the outer sides of the quadrant's start field.  Why: (1) the start field's only two sides
# that are not volcano or lava open onto start tiles, so explorers can walk out and reach artifacts at
# once; (2) the patches keep off the four axes (E3, E2, G5, H5, ...), the straight path of each lava
# flow, so no artifact is doomed before the game starts, while a bending flow can still reach them;
# (3) the diagonal fields (G3, H2, ...) and the axes stay open for terrain tiles, so the patches are
# small and separate (patches touch only at corners, which no explorer can cross).  Offsets are from
# the volcano (dx right, dy down) for the north-east quadrant; the other three are quarter turns.
_START_TILE_PATCHES_NE = (
    ((1, -2), (1, -3), (2, -3)),   # north of start field F4: F3, F2, G2
    ((2, -1), (3, -1), (3, -2)),   # east of start field F4: G4, H4, H3
)


def _turned(dx, dy, quarter_turns):
    for _ in range(quarter_turns):
        dx, dy = -dy, dx
    return dx, dy


# Quadrant by quadrant, clockwise from the north-east: start-tile space i + 6 is space i turned a quarter.
START_TILE_SPACES = np.array(
    [field_index(CENTRE + tx, CENTRE + ty)
     for q in range(4) for patch in _START_TILE_PATCHES_NE for dx, dy in patch
     for tx, ty in [_turned(dx, dy, q)]], dtype=np.int64)
NUM_START_TILE_SPACES = len(START_TILE_SPACES)

# Boat landings: 2 per side (RULINGS), each beside two neighbouring edge fields: the second and third
# field from each corner (B1-C1 and G1-H1 on the north side).  Why: the landings sit off the lava axes
# (the centre field of each side, where a straight flow leaves the board) and off the corners, and the
# layout is the same under a quarter turn and a mirror, so no seat or quadrant is favoured.  Landings
# are listed clockwise from B1-C1, so landing k + 2 is landing k turned a quarter; each landing's two
# fields and four entry squares are listed clockwise along the edge.
_LANDING_FIELD_X_NORTH = ((1, 2), (6, 7))


def _landings():
    fields, sides = [], []
    for q in range(4):
        for pair in _LANDING_FIELD_X_NORTH:
            cells = [_turned(fx - CENTRE, -CENTRE, q) for fx in pair]
            fields.append([field_index(CENTRE + dx, CENTRE + dy) for dx, dy in cells])
            sides.append((N + q) % 4)
    return np.array(fields, dtype=np.int64), np.array(sides, dtype=np.int64)


LANDING_FIELDS, LANDING_SIDE = _landings()   # LANDING_SIDE: direction from the board towards the boat
NUM_LANDINGS = len(LANDING_FIELDS)
LANDING_NAMES = tuple(f"landing {FIELD_NAMES[a]}-{FIELD_NAMES[b]}" for a, b in LANDING_FIELDS.tolist())
LANDING_INDEX = {name: k for k, name in enumerate(LANDING_NAMES)}


def _entry_squares():
    table = np.empty((NUM_LANDINGS, 4), dtype=np.int64)
    for k in range(NUM_LANDINGS):
        outer = [s for f in LANDING_FIELDS[k] for s in FIELD_SQUARES[f]
                 if SQUARE_NEIGHBOURS[s, LANDING_SIDE[k]] < 0]
        # clockwise along the edge: north side west to east, east side north to south, and so on
        key = {N: lambda s: SQUARE_XY[s, 0], E: lambda s: SQUARE_XY[s, 1],
               S: lambda s: -SQUARE_XY[s, 0], W: lambda s: -SQUARE_XY[s, 1]}[int(LANDING_SIDE[k])]
        table[k] = sorted(outer, key=key)
    return table


# The boat's "4 neighbouring spaces" [Reaching the boats]: the outer squares of its two fields.
LANDING_ENTRY_SQUARES = _entry_squares()
SQUARE_LANDING = np.full(NUM_SQUARES, -1, dtype=np.int64)  # the landing a square gives onto, or -1
for _k, _row in enumerate(LANDING_ENTRY_SQUARES):
    SQUARE_LANDING[_row] = _k
# Where to draw a boat: its centre in square units (the board spans 0..18 both ways, square (x, y)
# covering [x, x+1] × [y, y+1]), one and a half squares beyond the centres of its entry squares.
LANDING_XY = (SQUARE_XY[LANDING_ENTRY_SQUARES].mean(axis=1) + 0.5
              + 1.5 * DIRECTION_DXDY[LANDING_SIDE])

# What each field is.  KIND_TILE_SPACE: an empty space for terrain (and lava) tiles.
KIND_TILE_SPACE, KIND_START_TILE_SPACE, KIND_START_FIELD, KIND_LAVA_EXIT, KIND_VOLCANO = range(5)
FIELD_KIND_NAMES = ("tile space", "start-tile space", "start field", "lava exit", "volcano")
FIELD_KIND = np.full(NUM_FIELDS, KIND_TILE_SPACE, dtype=np.int64)
FIELD_KIND[START_TILE_SPACES] = KIND_START_TILE_SPACE
FIELD_KIND[START_FIELDS] = KIND_START_FIELD
FIELD_KIND[LAVA_FLOW_EXIT_FIELD] = KIND_LAVA_EXIT
FIELD_KIND[VOLCANO_FIELD] = KIND_VOLCANO
IS_START_FIELD = FIELD_KIND == KIND_START_FIELD
IS_START_TILE_SPACE = FIELD_KIND == KIND_START_TILE_SPACE
IS_LAVA_EXIT = FIELD_KIND == KIND_LAVA_EXIT
# Fields that can ever hold a tile: start tiles at set-up, then terrain and lava tiles.  The volcano,
# the start fields and the lava exits are printed and never take a tile.
IS_TILE_FIELD = (FIELD_KIND == KIND_TILE_SPACE) | IS_START_TILE_SPACE
IS_START_SQUARE = np.zeros(NUM_SQUARES, dtype=bool)
IS_START_SQUARE[START_SQUARES] = True

# The printed board before set-up: jungle start fields, lava exits, the volcano, everything else bare.
INITIAL_TERRAIN = np.full(NUM_SQUARES, NO_TILE, dtype=np.int64)
INITIAL_TERRAIN[FIELD_SQUARES[START_FIELDS].ravel()] = JUNGLE
INITIAL_TERRAIN[FIELD_SQUARES[LAVA_FLOW_EXIT_FIELD].ravel()] = LAVA
INITIAL_TERRAIN[FIELD_SQUARES[VOLCANO_FIELD]] = VOLCANO

# ----------------------------------------------------------------------------------------------------
# Terrain tiles (70)
# ----------------------------------------------------------------------------------------------------
# Movement points grow with the jungle on the tile (RULINGS): 0-1 jungle squares 1 point, 2 jungle
# squares 2 points, 3-4 jungle squares 3 points.  So the tiles best for walking on are also worth the
# most points in hand -- the rulebook's dilemma "what you want to use a terrain tile for".
JUNGLE_POINTS = np.array([1, 1, 2, 3, 3], dtype=np.int64)  # [number of jungle squares] -> points


def terrain_points(squares):
    return int(JUNGLE_POINTS[sum(1 for t in squares if t == JUNGLE)])


# The tile list, like a card list: (kind, squares "top row/bottom row" at rotation 0, copies).
# Distribution: 22 tiles of 3 points, 26 of 2, 22 of 1 (about 2 points a tile, so a hand of "5 or more"
# is 2-3 tiles); squares about half jungle, a third water and a sixth mountain, so paths can be
# laid everywhere but water slows them and mountains can wall them off.  Every tile but the massif
# has a walkable square on at least two of its sides.  The mirror-image pair (pool and rock / rock
# and pool) are two kinds because a tile is turned but never flipped.
_TERRAIN_TILE_TABLE = (
    # 3 points
    ("jungle", "JJ/JJ", 8),
    ("jungle with pool", "JJ/JW", 8),
    ("jungle with rock", "JJ/JM", 6),
    # 2 points
    ("jungle shore", "JJ/WW", 8),
    ("stepping stones", "JW/WJ", 4),
    ("jungle ridge", "JJ/MM", 3),
    ("mountain pass", "JM/MJ", 2),
    ("jungle, pool and rock", "JJ/WM", 4),
    ("jungle, rock and pool", "JJ/MW", 4),
    ("jungle, water and rock", "JW/JM", 1),
    # 1 point
    ("lagoon", "WW/WJ", 6),
    ("marsh", "JW/WW", 3),
    ("lake", "WW/WW", 4),
    ("mountain lake", "WW/MM", 3),
    ("peak", "MM/MJ", 2),
    ("mountain spring", "MM/MW", 2),
    ("massif", "MM/MM", 2),
)
TERRAIN_KIND_NAMES = tuple(r[0] for r in _TERRAIN_TILE_TABLE)
TERRAIN_KIND_SQUARES = np.array([_squares(r[1]) for r in _TERRAIN_TILE_TABLE], dtype=np.int64)
TERRAIN_KIND_POINTS = np.array([terrain_points(sq) for sq in TERRAIN_KIND_SQUARES.tolist()], dtype=np.int64)
TERRAIN_KIND_COUNTS = np.array([r[2] for r in _TERRAIN_TILE_TABLE], dtype=np.int64)
TERRAIN_TILE_KIND = np.repeat(np.arange(len(_TERRAIN_TILE_TABLE)), TERRAIN_KIND_COUNTS)
TERRAIN_TILE_SQUARES = TERRAIN_KIND_SQUARES[TERRAIN_TILE_KIND]   # [70, 4], tile order, rotation 0
TERRAIN_TILE_POINTS = TERRAIN_KIND_POINTS[TERRAIN_TILE_KIND]     # [70]
NUM_TERRAIN_TILES = len(TERRAIN_TILE_KIND)

# ----------------------------------------------------------------------------------------------------
# Start tiles (24)
# ----------------------------------------------------------------------------------------------------
# Terrain like the terrain tiles (no movement points: they never go into the bag) plus artifact
# markings, at most one per square and never on mountain (RULINGS: jungle or water).  25 markings on 24
# tiles: 3 tiles are blank, 17 carry one marking, 4 carry two -- so most start tiles draw an explorer,
# a few are worth a detour and a few are nothing.  The black artifact lies on water behind two
# mountain squares: the best prize is the hardest to fetch.  Start tiles are mostly jungle (two thirds;
# a quarter water, a twelfth mountain) because they are the first ground explorers walk on.
_ARTIFACT_LETTER = {".": NO_ARTIFACT, "w": WHITE, "g": GRAY, "b": BLACK}
_START_TILE_TABLE = (
    # kind, squares, markings (same layout), copies
    ("clearing", "JJ/JJ", "../..", 1),
    ("pool", "JJ/JW", "../..", 1),
    ("stepping stones", "JW/WJ", "../..", 1),
    ("white clearing", "JJ/JJ", "w./..", 3),
    ("white pool", "JJ/JW", "../.w", 2),
    ("white shore", "JJ/WW", "w./..", 2),
    ("white stepping stones", "JW/WJ", ".w/..", 1),
    ("white rock", "JJ/JM", "../w.", 2),
    ("white lagoon", "WW/WJ", "../.w", 1),
    ("gray clearing", "JJ/JJ", "../.g", 1),
    ("gray shore", "JJ/WW", "../g.", 1),
    ("gray ridge", "JJ/MM", ".g/..", 1),
    ("gray rock", "JJ/MJ", "../.g", 1),
    ("gray lagoon", "WW/JW", "g./..", 1),
    ("black spring", "MM/JW", "../.b", 1),
    ("two white", "JJ/JJ", "w./.w", 1),
    ("two white shore", "JW/JW", "ww/..", 1),
    ("white and gray", "JJ/WJ", ".w/g.", 1),
    ("white and gray rock", "JM/JJ", "../wg", 1),
)
START_KIND_NAMES = tuple(r[0] for r in _START_TILE_TABLE)
_start_counts = [r[3] for r in _START_TILE_TABLE]
START_TILE_KIND = np.repeat(np.arange(len(_START_TILE_TABLE)), _start_counts)
START_TILE_SQUARES = np.array([_squares(_START_TILE_TABLE[k][1]) for k in START_TILE_KIND.tolist()],
                              dtype=np.int64)   # [24, 4], tile order, rotation 0
START_TILE_ARTIFACTS = np.array([[_ARTIFACT_LETTER[c] for c in _START_TILE_TABLE[k][2].replace("/", "")]
                                 for k in START_TILE_KIND.tolist()], dtype=np.int64)  # [24, 4] 0/1/2/3
NUM_START_TILES = len(START_TILE_KIND)

# ----------------------------------------------------------------------------------------------------
# Lava tiles (24)
# ----------------------------------------------------------------------------------------------------
# 6 per flow, each showing its flow's symbol (RULINGS): 3 straight, 1 left bend, 1 right bend, 1 fork.
# All four squares of a lava tile are lava.  A lava tile is entered from the flow's previous field;
# its shape turns the flow: straight keeps the direction, a left bend turns it left, a right bend right
# (relative to the direction of flow).  The fork is a T: it splits the flow into a left and a right
# branch, and one of them carries the "•" that breaks ties in the branch rule [Volcanic eruption].
# Our forks all mark the left branch, so the four flows stay quarter turns of each other.
STRAIGHT, LEFT_BEND, RIGHT_BEND, FORK = range(4)
LAVA_SHAPE_NAMES = ("straight", "left bend", "right bend", "fork")
LEFT_BRANCH, RIGHT_BRANCH = 0, 1
# LAVA_SHAPE_EXIT_TURNS[shape, branch]: the exit direction = entry direction + turn (mod 4); -1: none.
LAVA_SHAPE_EXIT_TURNS = np.array([[0, -1], [TURN_LEFT, -1], [TURN_RIGHT, -1], [TURN_LEFT, TURN_RIGHT]],
                                 dtype=np.int64)
_LAVA_SHAPES_PER_FLOW = ((STRAIGHT, 3), (LEFT_BEND, 1), (RIGHT_BEND, 1), (FORK, 1))
FORK_DOT_BRANCH = LEFT_BRANCH
LAVA_TILE_FLOW = np.array([f for f in range(NUM_LAVA_FLOWS) for shape, n in _LAVA_SHAPES_PER_FLOW
                           for _ in range(n)], dtype=np.int64)
LAVA_TILE_SHAPE = np.array([shape for _ in range(NUM_LAVA_FLOWS) for shape, n in _LAVA_SHAPES_PER_FLOW
                            for _ in range(n)], dtype=np.int64)
# The branch with the "•" on each lava tile, -1 on tiles that are not forks.
LAVA_TILE_DOT_BRANCH = np.where(LAVA_TILE_SHAPE == FORK, FORK_DOT_BRANCH, -1).astype(np.int64)
NUM_LAVA_TILES = len(LAVA_TILE_FLOW)
LAVA_TILE_NAMES = tuple(f"{LAVA_FLOW_NAMES[f]} {LAVA_SHAPE_NAMES[s]}"
                        for f, s in zip(LAVA_TILE_FLOW.tolist(), LAVA_TILE_SHAPE.tolist()))

# The bag holds the 94 island tiles: island tile t is terrain tile t for t < 70, lava tile t - 70 after.
NUM_ISLAND_TILES = NUM_TERRAIN_TILES + NUM_LAVA_TILES
FIRST_LAVA_TILE = NUM_TERRAIN_TILES

# ----------------------------------------------------------------------------------------------------
# Boats (8)
# ----------------------------------------------------------------------------------------------------
# Each boat has one seat for an explorer and 1-3 places for artifacts; "unoccupied places" are empty
# artifact places (the seat is always taken: a boat leaves the board only with an explorer aboard).
# This matches the scoring example: explorer + 2 white + 1 empty place = 4 VP in a 3-place boat.
# Colours: the rulebook's task card names a green boat and its scoring example "the boat with the
# brown symbol", which carries an explorer, 2 white and 1 gray artifact: so brown has a 3-place boat.
# The other two colours are ours.  Each colour gets one pair with 4 places in all (1 + 3 or 2 + 2), so
# no colour -- and no "+1 for a boat of colour X" task card -- is worth more than another.
_BOAT_TABLE = (
    ("green", 2), ("green", 2),
    ("brown", 1), ("brown", 3),
    ("orange", 1), ("orange", 3),
    ("pink", 2), ("pink", 2),
)
BOAT_COLOURS = ("green", "brown", "orange", "pink")
BOAT_COLOUR = np.array([BOAT_COLOURS.index(c) for c, _ in _BOAT_TABLE], dtype=np.int64)
BOAT_CAPACITY = np.array([n for _, n in _BOAT_TABLE], dtype=np.int64)   # artifact places


def _boat_names():
    """"green boat (1 place)"; two identical boats are told apart by "#1" and "#2"."""
    plain = [f"{c} boat ({n} place{'s' if n > 1 else ''})" for c, n in _BOAT_TABLE]
    return tuple(name + (f" #{plain[:b].count(name) + 1}" if plain.count(name) > 1 else "")
                 for b, name in enumerate(plain))


BOAT_NAMES = _boat_names()
BOAT_INDEX = {name: b for b, name in enumerate(BOAT_NAMES)}
NUM_BOATS = len(_BOAT_TABLE)

NUM_SQUARE_TILES = NUM_START_TILES + NUM_ISLAND_TILES

assert NUM_SQUARE_TILES == 118 and NUM_TERRAIN_TILES == 70 and NUM_START_TILES == 24 and NUM_LAVA_TILES == 24
assert NUM_START_TILE_SPACES == 24 and len(START_SQUARES) == 16 and NUM_LANDINGS == 8 and NUM_BOATS == 8
assert (np.bincount(START_TILE_ARTIFACTS.ravel(), minlength=4)[1:] == ARTIFACT_COUNTS[1:]).all()

# ----------------------------------------------------------------------------------------------------
# Game cards of the advanced rules (30)
# ----------------------------------------------------------------------------------------------------
# RULINGS.md lists the kinds: 15 task cards and 15 action cards.  Cards of one kind are identical, so
# the rules only ever count cards by kind; the 30 cards are listed here so that dealing has something
# to draw from (card c is of kind CARD_KIND[c]).
# The rulebook prints one of the 7 artifact-set task cards ("2 VP for 3 white artifacts"); the other
# six are ours, each worth about one point per artifact beyond the first two, with the rarer colours
# worth more: sets are (white, gray, black) counts and their bonus.
ARTIFACT_SET_TASKS = (
    ((3, 0, 0), 2),   # printed in the rulebook
    ((4, 0, 0), 3),
    ((0, 2, 0), 2),
    ((1, 1, 0), 1),
    ((2, 1, 0), 2),
    ((0, 1, 1), 2),
    ((1, 1, 1), 3),
)
NUM_SET_TASKS = len(ARTIFACT_SET_TASKS)
SET_TASK_NEEDS = np.array([needs for needs, _ in ARTIFACT_SET_TASKS], dtype=np.int64)
SET_TASK_BONUS = np.array([bonus for _, bonus in ARTIFACT_SET_TASKS], dtype=np.int64)
# kinds 0..6 are the artifact sets above, then:
TASK_TWO_EXPLORERS = NUM_SET_TASKS          # +1 for 2 explorers saved (2 cards)
TASK_NO_DEDUCTION = TASK_TWO_EXPLORERS + 1  # no deductions for unoccupied places (2 cards)
TASK_BOAT = TASK_NO_DEDUCTION + 1           # + boat colour: +1 for a boat of that colour (1 card each)
ACTION_JUNGLE = TASK_BOAT + len(BOAT_COLOURS)  # 13: action cards, 3 of each kind
ACTION_WATER = ACTION_JUNGLE + 1
ACTION_MOUNTAIN = ACTION_WATER + 1
ACTION_EARTHQUAKE = ACTION_MOUNTAIN + 1
ACTION_HELICOPTER = ACTION_EARTHQUAKE + 1
NUM_CARD_KINDS = ACTION_HELICOPTER + 1      # 18
FIRST_ACTION_KIND = ACTION_JUNGLE
CARD_KIND_COPIES = np.array([1] * NUM_SET_TASKS + [2, 2] + [1] * len(BOAT_COLOURS) + [3] * 5, dtype=np.int64)
CARD_KIND = np.repeat(np.arange(NUM_CARD_KINDS), CARD_KIND_COPIES).astype(np.int64)
NUM_CARDS = len(CARD_KIND)
CARDS_DEALT, CARDS_KEPT = 6, 4
_COLOUR_WORDS = ("white", "gray", "black")
CARD_KIND_NAMES = tuple(
    [" + ".join(f"{n} {w}" for n, w in zip(needs, _COLOUR_WORDS) if n) + f" artifacts: +{bonus}"
     for needs, bonus in ARTIFACT_SET_TASKS]
    + ["2 explorers saved: +1", "no deduction for unoccupied places"]
    + [f"{c} boat: +1" for c in BOAT_COLOURS]
    + ["jungle movement", "water movement", "mountain movement", "earthquake", "helicopter rescue"])

assert NUM_CARDS == 30 and CARD_KIND_COPIES[:FIRST_ACTION_KIND].sum() == 15 == CARD_KIND_COPIES[FIRST_ACTION_KIND:].sum()
