"""The Numba rules core of Mauna Kea (the basic game), as ``maunakea_env/RULES.md`` describes it.

A game is one row of an ``int64`` array of length ``STATE_SIZE``; a batch of games is a 2-D array with
one row per game, as in the other games' cores.  Chance (dealing, the bag, lava) comes from the
generator kept in the row, drawn in the order RULES.md fixes.

Action encoding (``Discrete(NUM_ACTIONS)``, see RULES.md): place an explorer on square ``a``; lay hand
tile ``h`` on field ``f`` turned ``r`` (``324 + 4 (81 h + f) + r``); spend hand tile ``h``; move
explorer ``e`` north/east/south/west; pick up or drop an artifact of colour ``c``; board the boat at
landing ``l``; end the turn.
"""
import numpy as np
from numba import njit

from pacific_common.ends import END_NONE, END_RULES, END_SETTLED, END_TRUNCATED
from pacific_common.rng import draw, following_seed, seed_rng
from pacific_common.seats import margins, relative, seat_after

from .board import (
    ARTIFACT_COUNTS, ARTIFACT_POINTS, BOARDING_COST, BOAT_CAPACITY, EMPTY_PLACE_POINTS, EXPLORER_POINTS,
    FIELD_NEIGHBOURS, FIELD_SQUARES, FIELD_XY, FIRST_LAVA_TILE, FORK, FREE_ACTIONS_PER_TURN, HAND_POINTS,
    INITIAL_TERRAIN, IS_START_FIELD, IS_START_SQUARE, IS_START_TILE_SPACE, IS_TILE_FIELD, LANDING_ENTRY_SQUARES,
    LAVA, LAVA_FLOW_DIRECTION, LAVA_FLOW_EXIT_FIELD, LAVA_SHAPE_EXIT_TURNS, LAVA_SHAPE_NAMES, LAVA_TILE_FLOW,
    LAVA_TILE_SHAPE, MAX_CARRIED, MOVE_COST, NO_TILE, NUM_BOATS, NUM_FIELDS, NUM_ISLAND_TILES, NUM_LANDINGS,
    NUM_LAVA_FLOWS, NUM_LAVA_TILES, NUM_SQUARES, NUM_START_TILES, SQUARE_LANDING, SQUARE_NEIGHBOURS,
    START_TILE_ARTIFACTS, START_TILE_SPACES, START_TILE_SQUARES, TERRAIN_KIND_NAMES, TERRAIN_TILE_KIND,
    TERRAIN_TILE_POINTS, TERRAIN_TILE_SQUARES, TILE_ROTATION_SOURCE, VOLCANO,
)
from .board import (
    ACTION_EARTHQUAKE, ACTION_HELICOPTER, ACTION_JUNGLE, ACTION_MOUNTAIN, BOAT_COLOUR, BOAT_COLOURS, CARD_KIND,
    CARD_KIND_COPIES, CARDS_DEALT, CARDS_KEPT, FIRST_ACTION_KIND, JUNGLE, MOUNTAIN, NUM_CARD_KINDS, NUM_CARDS, NUM_SET_TASKS,
    SET_TASK_BONUS, SET_TASK_NEEDS, TASK_BOAT, TASK_NO_DEDUCTION, TASK_TWO_EXPLORERS, WATER,
)

MAX_PLAYERS = 4
MAX_EXPLORERS = 5
START_SQUARE_LIST = np.sort(np.flatnonzero(IS_START_SQUARE)).astype(np.int64)
TILE_FIELD_LIST = np.flatnonzero(IS_TILE_FIELD).astype(np.int64)     # fields a tile may be laid on
HAND_SLOTS = 5            # a hand drawn up to 5 points holds at most 5 tiles (every tile is worth >= 1)
NUM_COLOURS = 3           # artifact colours: white, gray, black (board codes 1, 2, 3)
NUM_BOAT_COLOURS = len(BOAT_COLOURS)   # green, brown, orange, pink
NUM_TILES = NUM_ISLAND_TILES + NUM_START_TILES   # 118: island tiles 0..93, start tile s is 94 + s

# ---------------------------------------------------------------------------------------------------
# Action encoding
PLACE_BASE = 0
LAY_BASE = NUM_SQUARES
SPEND_BASE = LAY_BASE + HAND_SLOTS * NUM_FIELDS * 4
MOVE_BASE = SPEND_BASE + HAND_SLOTS
PICK_BASE = MOVE_BASE + MAX_EXPLORERS * 4
DROP_BASE = PICK_BASE + MAX_EXPLORERS * NUM_COLOURS
BOARD_BASE = DROP_BASE + MAX_EXPLORERS * NUM_COLOURS
END_TURN = BOARD_BASE + MAX_EXPLORERS * NUM_LANDINGS
NUM_ACTIONS = END_TURN + 1
# The advanced rules' actions follow (RULES.md, "Rules for advanced players").
NUM_ACTION_KINDS = NUM_CARD_KINDS - FIRST_ACTION_KIND       # 5: jungle, water, mountain, quake, helicopter
REMOVE_CARD_BASE = NUM_ACTIONS                              # + card kind: remove a dealt card at set-up
CARD_MOVE_BASE = REMOVE_CARD_BASE + NUM_CARD_KINDS          # + 5 k + e: jungle / water / mountain movement
DESTINATION_BASE = CARD_MOVE_BASE + 3 * MAX_EXPLORERS       # + square: where the movement card goes
HELICOPTER_BASE = DESTINATION_BASE + NUM_SQUARES            # + e
EARTHQUAKE_BASE = HELICOPTER_BASE + MAX_EXPLORERS           # + 4 f + r
QUAKE_DRAW = EARTHQUAKE_BASE + 4 * NUM_FIELDS
QUAKE_NO_DRAW = QUAKE_DRAW + 1
QUAKE_LAY_BASE = QUAKE_NO_DRAW + 1                          # + 4 f + r: lay the tile the earthquake drew
NUM_ACTIONS_ADVANCED = QUAKE_LAY_BASE + 4 * NUM_FIELDS      # 3052

PHASE_PLACEMENT = 0
PHASE_TURN = 1
PHASE_OVER = 2
PHASE_CARDS = 3        # advanced: the set-up's choice of 4 cards out of 6
PHASE_CARD_MOVE = 4    # advanced: the destination of a movement card
PHASE_QUAKE_DRAW = 5   # advanced: draw a tile after an earthquake, or not
PHASE_QUAKE_LAY = 6    # advanced: lay the terrain tile drawn after an earthquake
NUM_PHASES = 7

STATUS_RUNNING = 0
STATUS_TERMINATED = 1
STATUS_TRUNCATED = 2

STEP_OK = 0
STEP_ILLEGAL = 1
STEP_GAME_OVER = 2

REWARD_WIN_LOSS = 0
REWARD_SCORE = 1
REWARD_MARGIN = 2

VARIANT_BASIC = 0
VARIANT_ADVANCED = 1

# why the end was triggered (END_REASON)
END_BY_EXPLORERS = 1   # a player has no explorer left on the island [End of the Game]
END_BY_SUPPLY = 2      # advanced: the supply of tiles is used up
END_BY_SETTLED = 3     # no explorer on the island can ever reach a boat (RULINGS.md, "Settled end")
END_BY_WALLED_IN = 4   # every player keeps an explorer that can never leave the island (RULES.md)
END_REASON_NAMES = ("", "no explorer left", "supply used up", "settled", "walled in")

# where a tile is
IN_BAG, IN_HAND, ON_BOARD, REMOVED, SET_ASIDE = range(5)
# what an explorer is doing
UNPLACED, ON_ISLAND, IN_BOAT, LOST, RESCUED = range(5)   # RESCUED: by helicopter (advanced)

# ---------------------------------------------------------------------------------------------------
# State layout
NUM_PLAYERS = 0
VARIANT = 1
MAX_TURNS = 2            # player turns after which the game is truncated
PHASE = 3
TO_ACT = 4
TURN = 5                 # player turns completed
STATUS = 6
RNG = 7
SEED = 8
POOL = 9                 # movement points of the current turn
END_TRIGGERED = 10
FINAL_TURNS_LEFT = 11    # after the trigger turn: turns the other players still have
PLACED = 12              # explorers placed so far
EXPLORERS_EACH = 13
FREE_ACTIONS = 14        # pick-ups and drops this turn, at most FREE_ACTIONS_PER_TURN
TERRAIN = 15                                            # [square] board terrain code
ARTIFACTS = TERRAIN + NUM_SQUARES                       # [square][colour] artifacts lying there
OCCUPANT = ARTIFACTS + NUM_SQUARES * NUM_COLOURS        # [square] player * 8 + explorer, -1
FIELD_TILE = OCCUPANT + NUM_SQUARES                     # [field] tile lying there (0..117), -1
FIELD_ROTATION = FIELD_TILE + NUM_FIELDS                # [field] its quarter turns
TILE_WHERE = FIELD_ROTATION + NUM_FIELDS                # [tile] IN_BAG / IN_HAND / ...
HAND = TILE_WHERE + NUM_TILES                           # [player][slot] island tile, -1
HAND_SIZE = HAND + MAX_PLAYERS * HAND_SLOTS             # [player]
EXPLORER_SQUARE = HAND_SIZE + MAX_PLAYERS               # [player][explorer] square, -1
EXPLORER_STATUS = EXPLORER_SQUARE + MAX_PLAYERS * MAX_EXPLORERS
CARRIED = EXPLORER_STATUS + MAX_PLAYERS * MAX_EXPLORERS  # [player][explorer][colour]
LANDING_BOAT = CARRIED + MAX_PLAYERS * MAX_EXPLORERS * NUM_COLOURS   # [landing] boat there, -1
BOAT_OWNER = LANDING_BOAT + NUM_LANDINGS                # [boat] player who took it, -1
BOAT_LOAD = BOAT_OWNER + NUM_BOATS                      # [boat][colour] artifacts aboard
BRANCH_FIELD = BOAT_LOAD + NUM_BOATS * NUM_COLOURS      # [flow][branch] field of the branch's end
BRANCH_DIRECTION = BRANCH_FIELD + NUM_LAVA_FLOWS * 2    # [flow][branch] direction of flow there
BRANCH_LENGTH = BRANCH_DIRECTION + NUM_LAVA_FLOWS * 2   # [flow][branch] tiles since the fork
BRANCH_OPEN = BRANCH_LENGTH + NUM_LAVA_FLOWS * 2        # [flow][branch] 1 while it can grow
REMOVED_ARTIFACTS = BRANCH_OPEN + NUM_LAVA_FLOWS * 2    # [colour] lost to lava
# advanced rules only
CARDS = REMOVED_ARTIFACTS + NUM_COLOURS                 # [player][kind] cards held (at set-up: dealt)
PLAYED = CARDS + MAX_PLAYERS * NUM_CARD_KINDS           # [player][action kind] action cards played
RESCUED_ARTIFACTS = PLAYED + MAX_PLAYERS * NUM_ACTION_KINDS   # [player][colour] on helicopter cards
CARDS_REMOVED = RESCUED_ARTIFACTS + MAX_PLAYERS * NUM_COLOURS  # [player] dealt cards removed, 0..2
REMOVE_FROM = CARDS_REMOVED + MAX_PLAYERS               # [player] lowest kind the next removal may be
REMOVED_CARDS = REMOVE_FROM + MAX_PLAYERS               # [player][kind] dealt cards he removed at set-up
CARD_MOVE_KIND = REMOVED_CARDS + MAX_PLAYERS * NUM_CARD_KINDS   # movement card being played: 0..2, -1
CARD_MOVE_EXPLORER = CARD_MOVE_KIND + 1                 # its explorer, -1
QUAKE_TILE = CARD_MOVE_EXPLORER + 1                     # terrain tile drawn after an earthquake, -1
SUPPLY_OUT = QUAKE_TILE + 1                             # 1: the bag is empty; 2: and that ended the game
END_REASON = SUPPLY_OUT + 1                             # why the end was triggered: END_BY_..., 0 before
STATE_SIZE = END_REASON + 1

# ---------------------------------------------------------------------------------------------------
# Observation layout (int8) from one player's point of view: relative player k is k seats clockwise.
# Everything in Mauna Kea is public (hands lie face up, the bag can be counted) except the order of
# the tiles in the bag.  So every player's explorers show with their loads (who can fill which boat,
# and the tie-break on artifacts carried), and every boat with its colour (the advanced "+1 for a boat
# of colour X" cards), who took it and what it carries.
NUM_TERRAINS = 6
OBS_TERRAIN = 0                                             # [terrain][square] one-hot board terrain
OBS_EXPLORERS = OBS_TERRAIN + NUM_TERRAINS * NUM_SQUARES    # [k][square] explorer of relative player k
OBS_ARTIFACTS = OBS_EXPLORERS + MAX_PLAYERS * NUM_SQUARES   # [colour][square] artifacts lying there
OBS_BOAT_ENTRY = OBS_ARTIFACTS + NUM_COLOURS * NUM_SQUARES  # [square] entry square of a boat still there
OBS_PLAYER_EXPLORERS = OBS_BOAT_ENTRY + NUM_SQUARES         # [k][e][EXPLORER_FEATURES] explorer e of player k
OBS_OWN_EXPLORERS = OBS_PLAYER_EXPLORERS                    # k = 0, the viewer's own, comes first
EXPLORER_FEATURES = 8   # on island, in boat, lost, x, y, white, gray, black carried
OBS_HANDS = OBS_PLAYER_EXPLORERS + MAX_PLAYERS * MAX_EXPLORERS * EXPLORER_FEATURES  # [k][slot][HAND_FEATURES]
HAND_FEATURES = 14      # present, points, 4 squares × one-hot jungle / water / mountain
OBS_PLAYERS = OBS_HANDS + MAX_PLAYERS * HAND_SLOTS * HAND_FEATURES  # [k][PLAYER_FEATURES]
PLAYER_FEATURES = 5     # present, to act, explorers on island, boats taken, score (clipped)
OBS_LANDINGS = OBS_PLAYERS + MAX_PLAYERS * PLAYER_FEATURES  # [landing] places of the boat there, 0
OBS_LANDING_COLOURS = OBS_LANDINGS + NUM_LANDINGS           # [landing][boat colour] one-hot, 0: gone
OBS_BOATS = OBS_LANDING_COLOURS + NUM_LANDINGS * NUM_BOAT_COLOURS  # [boat][BOAT_FEATURES], boats as in board
BOAT_FEATURES = MAX_PLAYERS + NUM_COLOURS   # taken by relative player k (one-hot), white, gray, black aboard
OBS_BAG = OBS_BOATS + NUM_BOATS * BOAT_FEATURES             # terrain tiles worth 1/2/3, lava per flow
# What is left in the bag, tile by tile: every tile that leaves it or comes back is seen face up, so a
# player at the table can know it (RULINGS.md, "Conventions"), and the next lava shape of a flow turns it
NUM_TERRAIN_KINDS = len(TERRAIN_KIND_NAMES)
NUM_LAVA_SHAPES = len(LAVA_SHAPE_NAMES)
OBS_BAG_TILES = OBS_BAG + 3 + NUM_LAVA_FLOWS                # [terrain kind], then [flow][lava shape]
# [flow][branch] open, length, direction 4
OBS_LAVA = OBS_BAG_TILES + NUM_TERRAIN_KINDS + NUM_LAVA_FLOWS * NUM_LAVA_SHAPES
OBS_LAVA_ENDS = OBS_LAVA + NUM_LAVA_FLOWS * 2 * 6           # [flow][branch] column + 1, row + 1 of its end field
OBS_PHASE = OBS_LAVA_ENDS + NUM_LAVA_FLOWS * 2 * 2          # one-hot: placement, turn, over
OBS_POOL = OBS_PHASE + 3
OBS_FREE_ACTIONS = OBS_POOL + 1                             # pick-ups and drops left this turn
OBS_END_TRIGGERED = OBS_FREE_ACTIONS + 1
OBS_TURN = OBS_END_TRIGGERED + 1                            # player turns played, capped at OBS_MAX
OBS_SIZE = OBS_TURN + 1
OBS_MIN, OBS_MAX = -100, 100   # a score can be negative
# Advanced rules: a block after the basic observation.  Another player's cards are hidden (only their
# number shows) until the game is over; played action cards and helicopter rescues are public.
OBS_A_PHASE = OBS_SIZE                                      # one-hot over the NUM_PHASES phases
OBS_A_CARDS = OBS_A_PHASE + NUM_PHASES                      # [kind] the viewer's cards
OBS_A_REMOVED = OBS_A_CARDS + NUM_CARD_KINDS                # [kind] the cards the viewer removed at set-up
OBS_A_CARD_COUNT = OBS_A_REMOVED + NUM_CARD_KINDS           # [k] cards held by relative player k
OBS_A_PLAYED = OBS_A_CARD_COUNT + MAX_PLAYERS               # [k][action kind] action cards played
OBS_A_RESCUED = OBS_A_PLAYED + MAX_PLAYERS * NUM_ACTION_KINDS   # [k][colour] helicopter artifacts
OBS_A_RESCUED_EXPLORERS = OBS_A_RESCUED + MAX_PLAYERS * NUM_COLOURS  # [k]
OBS_A_OWN_RESCUED = OBS_A_RESCUED_EXPLORERS + MAX_PLAYERS  # [e] the viewer's explorer e was rescued
OBS_A_CARD_MOVE = OBS_A_OWN_RESCUED + MAX_EXPLORERS         # movement card being played: kind 3, explorer 5
OBS_A_QUAKE_TILE = OBS_A_CARD_MOVE + 3 + MAX_EXPLORERS      # the tile drawn after an earthquake: HAND_FEATURES
OBS_A_SUPPLY_OUT = OBS_A_QUAKE_TILE + HAND_FEATURES
OBS_A_REVEALED = OBS_A_SUPPLY_OUT + 1                       # [k][kind] everyone's cards, once the game is over
OBS_SIZE_ADVANCED = OBS_A_REVEALED + MAX_PLAYERS * NUM_CARD_KINDS

NUM_ACTIONS_OF_VARIANT = (NUM_ACTIONS, NUM_ACTIONS_ADVANCED)
OBS_SIZE_OF_VARIANT = (OBS_SIZE, OBS_SIZE_ADVANCED)


# ---------------------------------------------------------------------------------------------------
# Small queries
@njit(cache=True, inline="always")
def explorer_index(player, e):
    return player * MAX_EXPLORERS + e


@njit(cache=True)
def hand_points(state, player):
    total = 0
    for h in range(state[HAND_SIZE + player]):
        total += TERRAIN_TILE_POINTS[state[HAND + player * HAND_SLOTS + h]]
    return total


@njit(cache=True)
def explorers_on_island(state, player):
    n = 0
    for e in range(state[EXPLORERS_EACH]):
        if state[EXPLORER_STATUS + explorer_index(player, e)] == ON_ISLAND:
            n += 1
    return n


@njit(cache=True)
def carried_total(state, player, e):
    base = CARRIED + explorer_index(player, e) * NUM_COLOURS
    return state[base] + state[base + 1] + state[base + 2]


@njit(cache=True)
def field_is_lava(state, f):
    """Lava already lies there (a lava tile, a printed exit field or the volcano): a new lava tile
    tunnels under it."""
    t = FIELD_SQUARES[f, 0]
    return state[TERRAIN + t] == LAVA or state[TERRAIN + t] == VOLCANO


# ---------------------------------------------------------------------------------------------------
# Legality
@njit(cache=True)
def is_legal(state, action):
    if state[VARIANT] == VARIANT_ADVANCED:
        return _advanced_is_legal(state, action)
    return _basic_is_legal(state, action)


@njit(cache=True)
def _basic_is_legal(state, action):
    if state[STATUS] != STATUS_RUNNING or action < 0 or action >= NUM_ACTIONS:
        return False
    player = state[TO_ACT]
    if state[PHASE] == PHASE_PLACEMENT:
        if action >= LAY_BASE:
            return False
        return IS_START_SQUARE[action] and state[OCCUPANT + action] < 0
    if action < LAY_BASE:
        return False
    if action < SPEND_BASE:
        a = action - LAY_BASE   # any of the four rotations
        f = (a // 4) % NUM_FIELDS
        h = a // (4 * NUM_FIELDS)
        return h < state[HAND_SIZE + player] and IS_TILE_FIELD[f] and state[FIELD_TILE + f] < 0
    if action < MOVE_BASE:
        return action - SPEND_BASE < state[HAND_SIZE + player]
    if action == END_TURN:
        return state[HAND_SIZE + player] == 0
    if action < PICK_BASE:
        e = (action - MOVE_BASE) // 4
        return move_cost(state, player, e, (action - MOVE_BASE) % 4) > 0
    if action < BOARD_BASE:
        drop = action >= DROP_BASE
        a = action - (DROP_BASE if drop else PICK_BASE)
        e = a // NUM_COLOURS
        c = a % NUM_COLOURS
        if e >= state[EXPLORERS_EACH]:
            return False
        x = explorer_index(player, e)
        if state[EXPLORER_STATUS + x] != ON_ISLAND or state[FREE_ACTIONS] >= FREE_ACTIONS_PER_TURN:
            return False
        if drop:
            return state[CARRIED + x * NUM_COLOURS + c] > 0
        square = state[EXPLORER_SQUARE + x]
        return state[ARTIFACTS + square * NUM_COLOURS + c] > 0 and carried_total(state, player, e) < MAX_CARRIED
    e = (action - BOARD_BASE) // NUM_LANDINGS
    landing = (action - BOARD_BASE) % NUM_LANDINGS
    if e >= state[EXPLORERS_EACH] or state[POOL] < BOARDING_COST:
        return False
    x = explorer_index(player, e)
    if state[EXPLORER_STATUS + x] != ON_ISLAND or state[LANDING_BOAT + landing] < 0:
        return False
    return SQUARE_LANDING[state[EXPLORER_SQUARE + x]] == landing


@njit(cache=True)
def move_cost(state, player, e, direction):
    """Points a step costs (jungle 1, water 2), or 0 if the step is not allowed [Moving explorers]."""
    if e >= state[EXPLORERS_EACH]:
        return 0
    x = explorer_index(player, e)
    if state[EXPLORER_STATUS + x] != ON_ISLAND:
        return 0
    target = SQUARE_NEIGHBOURS[state[EXPLORER_SQUARE + x], direction]
    if target < 0 or state[OCCUPANT + target] >= 0:
        return 0
    cost = MOVE_COST[state[TERRAIN + target]]
    if cost <= 0 or cost > state[POOL]:
        return 0
    return cost


@njit(cache=True)
def _walk_legal(state, mask, write, pick):
    """Walk the legal actions in increasing order without testing all 2040: write them into ``mask``
    (if ``write``) and return the ``pick``-th one, or -1 and the count when ``pick`` is negative or
    beyond the end.  ``legal_action_mask`` and ``random_action`` share this walk so that they agree."""
    count = 0
    player = state[TO_ACT]
    if state[VARIANT] == VARIANT_ADVANCED and state[PHASE] >= PHASE_CARDS:
        return _walk_advanced(state, mask, write, pick, 0)
    if state[PHASE] == PHASE_PLACEMENT:
        for i in range(START_SQUARE_LIST.shape[0]):
            square = START_SQUARE_LIST[i]
            if state[OCCUPANT + square] < 0:
                if write:
                    mask[square] = 1
                if count == pick:
                    return square, count
                count += 1
        return -1, count
    hand = state[HAND_SIZE + player]
    for h in range(hand):
        for i in range(TILE_FIELD_LIST.shape[0]):
            f = TILE_FIELD_LIST[i]
            if state[FIELD_TILE + f] < 0:
                first = LAY_BASE + 4 * (NUM_FIELDS * h + f)
                if write:
                    for r in range(4):
                        mask[first + r] = 1
                if pick >= count and pick < count + 4:
                    return first + pick - count, count
                count += 4
    for h in range(hand):
        if write:
            mask[SPEND_BASE + h] = 1
        if count == pick:
            return SPEND_BASE + h, count
        count += 1
    explorers = state[EXPLORERS_EACH]
    for e in range(explorers):
        for d in range(4):
            if move_cost(state, player, e, d) > 0:
                if write:
                    mask[MOVE_BASE + 4 * e + d] = 1
                if count == pick:
                    return MOVE_BASE + 4 * e + d, count
                count += 1
    for first in (PICK_BASE, DROP_BASE):
        for e in range(explorers):
            for c in range(NUM_COLOURS):
                a = first + NUM_COLOURS * e + c
                if _basic_is_legal(state, a):
                    if write:
                        mask[a] = 1
                    if count == pick:
                        return a, count
                    count += 1
    for e in range(explorers):
        x = explorer_index(player, e)
        if state[EXPLORER_STATUS + x] == ON_ISLAND:
            landing = SQUARE_LANDING[state[EXPLORER_SQUARE + x]]
            if landing >= 0 and state[LANDING_BOAT + landing] >= 0 and state[POOL] >= BOARDING_COST:
                a = BOARD_BASE + NUM_LANDINGS * e + landing
                if write:
                    mask[a] = 1
                if count == pick:
                    return a, count
                count += 1
    if hand == 0:
        if write:
            mask[END_TURN] = 1
        if count == pick:
            return END_TURN, count
        count += 1
    if state[VARIANT] == VARIANT_ADVANCED:
        return _walk_advanced(state, mask, write, pick, count)
    return -1, count


@njit(cache=True)
def legal_action_mask(state, mask):
    mask[:] = 0
    if state[STATUS] == STATUS_RUNNING:
        _walk_legal(state, mask, True, -1)


# ---------------------------------------------------------------------------------------------------
# Set-up
@njit(cache=True)
def _lay(state, tile, f, rotation, squares, artifacts):
    """Put a tile's (rotated) squares, and any artifacts it is marked with, on field f."""
    state[FIELD_TILE + f] = tile
    state[FIELD_ROTATION + f] = rotation
    state[TILE_WHERE + tile] = ON_BOARD
    for i in range(4):
        square = FIELD_SQUARES[f, i]
        source = TILE_ROTATION_SOURCE[rotation, i]
        state[TERRAIN + square] = squares[source]
        if artifacts is not None:
            colour = artifacts[source]
            if colour > 0:
                state[ARTIFACTS + square * NUM_COLOURS + colour - 1] += 1


@njit(cache=True)
def init(state, num_players, variant, max_turns, seed):
    state[:] = 0
    state[NUM_PLAYERS] = num_players
    state[VARIANT] = variant
    state[MAX_TURNS] = max_turns
    state[PHASE] = PHASE_PLACEMENT
    state[TO_ACT] = 0
    state[SEED] = seed
    state[RNG] = seed_rng(seed)
    state[EXPLORERS_EACH] = 5 if num_players == 2 else (4 if num_players == 3 else 3)
    for s in range(NUM_SQUARES):
        state[TERRAIN + s] = INITIAL_TERRAIN[s]
        state[OCCUPANT + s] = -1
    for f in range(NUM_FIELDS):
        state[FIELD_TILE + f] = -1
    for x in range(MAX_PLAYERS * MAX_EXPLORERS):
        state[EXPLORER_SQUARE + x] = -1
    for p in range(MAX_PLAYERS):
        for h in range(HAND_SLOTS):
            state[HAND + p * HAND_SLOTS + h] = -1
    for b in range(NUM_BOATS):
        state[BOAT_OWNER + b] = -1
    for flow in range(NUM_LAVA_FLOWS):
        state[BRANCH_FIELD + 2 * flow] = LAVA_FLOW_EXIT_FIELD[flow]
        state[BRANCH_DIRECTION + 2 * flow] = LAVA_FLOW_DIRECTION[flow]
        state[BRANCH_OPEN + 2 * flow] = 1
        state[BRANCH_FIELD + 2 * flow + 1] = -1
    for t in range(NUM_ISLAND_TILES):
        state[TILE_WHERE + t] = IN_BAG
    # deal the start tiles, then the boats, in the order RULES.md fixes
    for i in range(START_TILE_SPACES.shape[0]):
        k = draw(state, RNG, NUM_START_TILES - i)
        for s in range(NUM_START_TILES):
            tile = NUM_ISLAND_TILES + s
            if state[TILE_WHERE + tile] == ON_BOARD:
                continue
            if k == 0:
                _lay(state, tile, START_TILE_SPACES[i], draw(state, RNG, 4), START_TILE_SQUARES[s],
                     START_TILE_ARTIFACTS[s])
                break
            k -= 1
    placed = 0
    for landing in range(NUM_LANDINGS):
        k = draw(state, RNG, NUM_BOATS - landing)
        for b in range(NUM_BOATS):
            if (placed >> b) & 1:
                continue
            if k == 0:
                state[LANDING_BOAT + landing] = b
                placed |= 1 << b
                break
            k -= 1
    state[CARD_MOVE_KIND] = -1
    state[CARD_MOVE_EXPLORER] = -1
    state[QUAKE_TILE] = -1
    if variant == VARIANT_ADVANCED:
        _deal_cards(state)
        state[PHASE] = PHASE_CARDS
    state[STATUS] = STATUS_RUNNING


@njit(cache=True)
def _draw_from_bag(state):
    """The next island tile out of the bag, or -1 when it is empty."""
    in_bag = 0
    for t in range(NUM_ISLAND_TILES):
        if state[TILE_WHERE + t] == IN_BAG:
            in_bag += 1
    if in_bag == 0:
        return -1
    k = draw(state, RNG, in_bag)
    for t in range(NUM_ISLAND_TILES):
        if state[TILE_WHERE + t] == IN_BAG:
            if k == 0:
                return t
            k -= 1
    return -1


@njit(cache=True)
def _take_into_hand(state, player, tile):
    state[HAND + player * HAND_SLOTS + state[HAND_SIZE + player]] = tile
    state[HAND_SIZE + player] += 1
    state[TILE_WHERE + tile] = IN_HAND


@njit(cache=True)
def _initial_draw(state):
    """Counter-clockwise from the starting player, one tile per player per round until everybody has
    5 points; lava is set aside (the same player draws again) and returned at the end."""
    n = state[NUM_PLAYERS]
    while True:
        drew = False
        for i in range(n):
            player = seat_after(0, n - i, n) if i > 0 else 0
            if hand_points(state, player) >= HAND_POINTS:
                continue
            while True:
                tile = _draw_from_bag(state)
                if tile < 0:
                    break
                drew = True
                if tile >= FIRST_LAVA_TILE:
                    state[TILE_WHERE + tile] = SET_ASIDE
                    continue
                _take_into_hand(state, player, tile)
                break
        if not drew:
            break
    for t in range(FIRST_LAVA_TILE, NUM_ISLAND_TILES):
        if state[TILE_WHERE + t] == SET_ASIDE:
            state[TILE_WHERE + t] = IN_BAG


# ---------------------------------------------------------------------------------------------------
# Volcanic eruption
@njit(cache=True)
def _lose_explorer(state, player, e):
    x = explorer_index(player, e)
    for c in range(NUM_COLOURS):
        state[REMOVED_ARTIFACTS + c] += state[CARRIED + x * NUM_COLOURS + c]
        state[CARRIED + x * NUM_COLOURS + c] = 0
    state[OCCUPANT + state[EXPLORER_SQUARE + x]] = -1
    state[EXPLORER_SQUARE + x] = -1
    state[EXPLORER_STATUS + x] = LOST


@njit(cache=True)
def _place_lava(state, tile):
    """Extend the tile's flow as RULES.md says: the shorter open branch (• on ties), tunnelling under
    lava, discarded off the board; the lava covers terrain, explorers and artifacts."""
    lava = tile - FIRST_LAVA_TILE
    flow = LAVA_TILE_FLOW[lava]
    branch = -1
    for b in range(2):
        k = 2 * flow + b
        if state[BRANCH_OPEN + k] == 1:
            if branch < 0 or state[BRANCH_LENGTH + k] < state[BRANCH_LENGTH + 2 * flow + branch]:
                branch = b
    state[TILE_WHERE + tile] = REMOVED
    if branch < 0:
        return
    k = 2 * flow + branch
    direction = state[BRANCH_DIRECTION + k]
    target = FIELD_NEIGHBOURS[state[BRANCH_FIELD + k], direction]
    while target >= 0 and field_is_lava(state, target):
        target = FIELD_NEIGHBOURS[target, direction]
    if target < 0:
        state[BRANCH_OPEN + k] = 0
        _check_end_trigger(state)   # the flow's lava left in the bag may no longer be able to fall
        return
    covered = state[FIELD_TILE + target]
    if covered >= 0:
        state[TILE_WHERE + covered] = REMOVED
    state[FIELD_TILE + target] = tile
    state[FIELD_ROTATION + target] = direction
    state[TILE_WHERE + tile] = ON_BOARD
    for i in range(4):
        square = FIELD_SQUARES[target, i]
        state[TERRAIN + square] = LAVA
        for c in range(NUM_COLOURS):
            state[REMOVED_ARTIFACTS + c] += state[ARTIFACTS + square * NUM_COLOURS + c]
            state[ARTIFACTS + square * NUM_COLOURS + c] = 0
        occupant = state[OCCUPANT + square]
        if occupant >= 0:
            _lose_explorer(state, occupant // 8, occupant % 8)
    shape = LAVA_TILE_SHAPE[lava]
    state[BRANCH_FIELD + k] = target
    state[BRANCH_LENGTH + k] += 1
    if shape == FORK:
        for b in range(2):
            state[BRANCH_FIELD + 2 * flow + b] = target
            state[BRANCH_DIRECTION + 2 * flow + b] = (direction + LAVA_SHAPE_EXIT_TURNS[FORK, b]) % 4
            state[BRANCH_LENGTH + 2 * flow + b] = 0
            state[BRANCH_OPEN + 2 * flow + b] = 1
    else:
        state[BRANCH_DIRECTION + k] = (direction + LAVA_SHAPE_EXIT_TURNS[shape, 0]) % 4
    _check_end_trigger(state)


@njit(cache=True)
def _check_end_trigger(state):
    """End of the Game: a player with no explorer left on the island triggers the end, and so, in the
    same way, does an island where that can never happen (``_unending``)."""
    if state[END_TRIGGERED] == 1 or state[PHASE] != PHASE_TURN:
        return
    reason = 0
    for p in range(state[NUM_PLAYERS]):
        if explorers_on_island(state, p) == 0:
            reason = END_BY_EXPLORERS
            break
    if reason == 0:
        reason = _unending(state)
    if reason != 0:
        _trigger_end(state, reason)


@njit(cache=True)
def _trigger_end(state, reason):
    state[END_TRIGGERED] = 1
    state[END_REASON] = reason
    # basic: this turn and one more for each other player; advanced: scoring after this turn
    state[FINAL_TURNS_LEFT] = 1 if state[VARIANT] == VARIANT_ADVANCED else state[NUM_PLAYERS]


@njit(cache=True)
def _mark_boat_reach(state, mountains, buffer):
    """Flood from the entry squares of every landing where a boat still waits, over the squares an
    explorer may ever stand on: jungle, water, and the squares of empty tile spaces (a jungle tile may
    still be laid there).  Lava never opens again, and in the basic game neither do mountains; with
    ``mountains`` they count as open too (a mountain movement card crosses them).  Explorers are not
    walls: they move on, board or are lost.  ``buffer`` (int16, at least 2 * NUM_SQUARES): the queue,
    then a mark per square, 1 where a boat can be reached from.  Returns how many squares are marked."""
    mark = buffer[NUM_SQUARES:2 * NUM_SQUARES]
    mark[:] = 0
    tail = 0
    for landing in range(NUM_LANDINGS):
        if state[LANDING_BOAT + landing] < 0:
            continue
        for i in range(4):
            s = LANDING_ENTRY_SQUARES[landing, i]
            if mark[s] == 0 and _ever_open(state[TERRAIN + s], mountains):
                mark[s] = 1
                buffer[tail] = s
                tail += 1
    head = 0
    while head < tail:
        s = buffer[head]
        head += 1
        for d in range(4):
            t = SQUARE_NEIGHBOURS[s, d]
            if t >= 0 and mark[t] == 0 and _ever_open(state[TERRAIN + t], mountains):
                mark[t] = 1
                buffer[tail] = t
                tail += 1
    return tail


@njit(cache=True, inline="always")
def _ever_open(terrain, mountains):
    # NO_TILE only ever shows on an empty tile space: the printed fields are jungle, lava or volcano
    return terrain == JUNGLE or terrain == WATER or terrain == NO_TILE or (mountains and terrain == MOUNTAIN)


@njit(cache=True)
def _cut_off(state, buffer):
    """Count, per player, his explorers on the island that can never reach a boat, into
    ``buffer[2 * NUM_SQUARES + p]``; return how many explorers on the island still can.  ``buffer``:
    int16, ``CHECK_BUFFER`` long (the flood's queue and marks, then the counts).  In the advanced game
    the cards still held count (RULES.md): while anybody holds an earthquake (it may turn a tile out
    of the way) and a boat waits, every explorer can; an explorer whose owner holds a mountain
    movement card may cross mountains; a player who holds a helicopter rescue and has two explorers
    or more on the island can still fly any of them out, so none of his counts as cut off."""
    n = state[NUM_PLAYERS]
    advanced = state[VARIANT] == VARIANT_ADVANCED
    cut = buffer[2 * NUM_SQUARES:]
    mark = buffer[NUM_SQUARES:2 * NUM_SQUARES]
    boat_waits = False
    for landing in range(NUM_LANDINGS):
        if state[LANDING_BOAT + landing] >= 0:
            boat_waits = True
    quake = False
    if advanced and boat_waits:
        for p in range(n):
            if _holds(state, p, ACTION_EARTHQUAKE):
                quake = True
    if boat_waits and not quake:
        _mark_boat_reach(state, False, buffer)
    free = 0
    climbers = False   # a player with an explorer cut off holds a mountain movement card
    for p in range(n):
        cut[p] = 0
        rescue = advanced and _holds(state, p, ACTION_HELICOPTER) and explorers_on_island(state, p) >= 2
        for e in range(state[EXPLORERS_EACH]):
            x = explorer_index(p, e)
            if state[EXPLORER_STATUS + x] != ON_ISLAND:
                continue
            if quake or rescue or (boat_waits and mark[state[EXPLORER_SQUARE + x]] == 1):
                free += 1
            else:
                cut[p] += 1
                if advanced and boat_waits and _holds(state, p, ACTION_MOUNTAIN):
                    climbers = True
    if climbers:
        _mark_boat_reach(state, True, buffer)
        for p in range(n):
            if cut[p] == 0 or not _holds(state, p, ACTION_MOUNTAIN):
                continue
            still = 0     # cut off even over the mountains (the flood over them holds the one on foot)
            for e in range(state[EXPLORERS_EACH]):
                x = explorer_index(p, e)
                if state[EXPLORER_STATUS + x] == ON_ISLAND and mark[state[EXPLORER_SQUARE + x]] == 0:
                    still += 1
            free += cut[p] - still
            cut[p] = still
    return free


CHECK_BUFFER = 2 * NUM_SQUARES + MAX_PLAYERS


@njit(cache=True)
def _lava_can_fall(state):
    """A lava tile is still in the bag whose flow has an open branch to extend."""
    for t in range(FIRST_LAVA_TILE, NUM_ISLAND_TILES):
        if state[TILE_WHERE + t] == IN_BAG:
            flow = LAVA_TILE_FLOW[t - FIRST_LAVA_TILE]
            if state[BRANCH_OPEN + 2 * flow] == 1 or state[BRANCH_OPEN + 2 * flow + 1] == 1:
                return True
    return False


@njit(cache=True)
def _unending(state):
    """Why the end must be triggered although every player still has an explorer on the island, or
    0: END_BY_SETTLED (RULINGS.md, "Settled end": no explorer on the island can ever reach a boat) or,
    in the basic game, END_BY_WALLED_IN (RULES.md: every player keeps an explorer that can never reach
    a boat, and no lava can fall any more to take it, so nobody can ever have no explorer left).  The
    advanced game's end always comes, when the bag is used up: there a walled-in island plays on, and
    the explorers that can still reach a boat keep every turn until then to board."""
    buffer = np.empty(CHECK_BUFFER, dtype=np.int16)   # the one allocation of the check
    if _cut_off(state, buffer) == 0:
        return END_BY_SETTLED
    if state[VARIANT] == VARIANT_ADVANCED or _lava_can_fall(state):
        return 0
    for p in range(state[NUM_PLAYERS]):
        if buffer[2 * NUM_SQUARES + p] == 0:
            return 0
    return END_BY_WALLED_IN


@njit(cache=True)
def settled(state):
    """RULINGS.md, "Settled end": True when no explorer still on the island can ever reach a boat (the
    cards still held counted in the advanced game, see ``_cut_off``), so that nobody's points can
    change any more."""
    if state[STATUS] != STATUS_RUNNING or state[PHASE] == PHASE_PLACEMENT or state[PHASE] == PHASE_CARDS:
        return False
    buffer = np.empty(CHECK_BUFFER, dtype=np.int16)
    return _cut_off(state, buffer) == 0


# ---------------------------------------------------------------------------------------------------
# Game flow
@njit(cache=True)
def _remove_from_hand(state, player, h):
    base = HAND + player * HAND_SLOTS
    tile = state[base + h]
    for i in range(h, state[HAND_SIZE + player] - 1):
        state[base + i] = state[base + i + 1]
    state[HAND_SIZE + player] -= 1
    state[base + state[HAND_SIZE + player]] = -1
    return tile


@njit(cache=True)
def _board(state, player, e, landing):
    """Reaching the boats: the boat takes the explorer and as many artifacts as it has places, the
    most valuable first; the rest stay on the square.  The boat is the player's."""
    x = explorer_index(player, e)
    boat = state[LANDING_BOAT + landing]
    square = state[EXPLORER_SQUARE + x]
    places = BOAT_CAPACITY[boat]
    for c in range(NUM_COLOURS - 1, -1, -1):
        carried = state[CARRIED + x * NUM_COLOURS + c]
        loaded = min(carried, places)
        places -= loaded
        state[BOAT_LOAD + boat * NUM_COLOURS + c] = loaded
        state[ARTIFACTS + square * NUM_COLOURS + c] += carried - loaded
        state[CARRIED + x * NUM_COLOURS + c] = 0
    state[LANDING_BOAT + landing] = -1
    state[BOAT_OWNER + boat] = player
    state[OCCUPANT + square] = -1
    state[EXPLORER_SQUARE + x] = -1
    state[EXPLORER_STATUS + x] = IN_BOAT
    state[POOL] -= BOARDING_COST
    _check_end_trigger(state)


@njit(cache=True)
def _draw_up(state, player):
    """Drawing other tiles: up to 5 points; every lava tile drawn is placed at once.  Drawing stops if
    the bag is empty or the lava triggers the end."""
    while hand_points(state, player) < HAND_POINTS:
        tile = _draw_from_bag(state)
        if tile < 0:
            return
        if tile >= FIRST_LAVA_TILE:
            _place_lava(state, tile)
        else:
            _take_into_hand(state, player, tile)
        if state[VARIANT] == VARIANT_ADVANCED:
            _check_supply(state)
        if state[END_TRIGGERED] == 1:
            return


@njit(cache=True)
def _end_turn(state):
    """Ending your turn: draw (not once the end is triggered), then the next player clockwise.  After
    the trigger, the trigger turn and one more turn of every other player are played, then scoring;
    an end triggered while he draws gives him the rest of his turn with the tiles drawn."""
    player = state[TO_ACT]
    state[POOL] = 0
    state[FREE_ACTIONS] = 0
    if state[END_TRIGGERED] == 0:
        _draw_up(state, player)
        if state[END_TRIGGERED] == 1:
            # the end came while he drew (lava, or the advanced game's last tile): "The player whose
            # turn it is may still play all tiles that he has lying face up in front of him", so his
            # turn goes on with the tiles drawn
            return
    state[TURN] += 1
    if state[END_TRIGGERED] == 1:
        state[FINAL_TURNS_LEFT] -= 1
        if state[FINAL_TURNS_LEFT] == 0:
            _finish(state, STATUS_TERMINATED)
            return
    if state[TURN] >= state[MAX_TURNS]:
        _finish(state, STATUS_TRUNCATED)
        return
    state[TO_ACT] = seat_after(player, 1, state[NUM_PLAYERS])


@njit(cache=True)
def _finish(state, status):
    state[STATUS] = status
    state[PHASE] = PHASE_OVER
    state[TO_ACT] = -1


@njit(cache=True)
def step(state, action):
    """Apply the decision of the player to act.  Returns STEP_OK, or STEP_ILLEGAL / STEP_GAME_OVER with
    the state left untouched."""
    if state[STATUS] != STATUS_RUNNING:
        return STEP_GAME_OVER
    if not is_legal(state, action):
        return STEP_ILLEGAL
    player = state[TO_ACT]
    n = state[NUM_PLAYERS]
    if action >= NUM_ACTIONS:
        _advanced_step(state, action)
        return STEP_OK
    if state[PHASE] == PHASE_PLACEMENT:
        e = state[PLACED] // n
        x = explorer_index(player, e)
        state[EXPLORER_SQUARE + x] = action
        state[EXPLORER_STATUS + x] = ON_ISLAND
        state[OCCUPANT + action] = player * 8 + e
        state[PLACED] += 1
        if state[PLACED] < n * state[EXPLORERS_EACH]:
            state[TO_ACT] = seat_after(player, n - 1, n)   # counter-clockwise
        else:
            _initial_draw(state)
            state[PHASE] = PHASE_TURN
            state[TO_ACT] = player                         # the last to place begins
        return STEP_OK
    if action < SPEND_BASE:
        a = action - LAY_BASE
        tile = _remove_from_hand(state, player, a // (4 * NUM_FIELDS))
        _lay(state, tile, (a // 4) % NUM_FIELDS, a % 4, TERRAIN_TILE_SQUARES[tile], None)
        _check_end_trigger(state)   # mountains laid can wall the last explorers in
    elif action < MOVE_BASE:
        tile = _remove_from_hand(state, player, action - SPEND_BASE)
        state[POOL] += TERRAIN_TILE_POINTS[tile]
        # advanced: "Played tiles (used for movement) are not put back into the bag"
        state[TILE_WHERE + tile] = REMOVED if state[VARIANT] == VARIANT_ADVANCED else IN_BAG
    elif action == END_TURN:
        _end_turn(state)
    elif action < PICK_BASE:
        e = (action - MOVE_BASE) // 4
        direction = (action - MOVE_BASE) % 4
        x = explorer_index(player, e)
        state[POOL] -= move_cost(state, player, e, direction)
        square = state[EXPLORER_SQUARE + x]
        target = SQUARE_NEIGHBOURS[square, direction]
        state[OCCUPANT + square] = -1
        state[OCCUPANT + target] = player * 8 + e
        state[EXPLORER_SQUARE + x] = target
    elif action < BOARD_BASE:
        drop = action >= DROP_BASE
        a = action - (DROP_BASE if drop else PICK_BASE)
        x = explorer_index(player, a // NUM_COLOURS)
        c = a % NUM_COLOURS
        square = state[EXPLORER_SQUARE + x]
        moved = -1 if drop else 1
        state[FREE_ACTIONS] += 1
        state[CARRIED + x * NUM_COLOURS + c] += moved
        state[ARTIFACTS + square * NUM_COLOURS + c] -= moved
    else:
        _board(state, player, (action - BOARD_BASE) // NUM_LANDINGS, (action - BOARD_BASE) % NUM_LANDINGS)
    return STEP_OK



# ---------------------------------------------------------------------------------------------------
# Rules for advanced players (RULES.md): the cards, the three movement cards, earthquake, helicopter
@njit(cache=True)
def _deal_cards(state):
    """Set-up: six cards to each player in seat order, each the draw(r)-th of the r cards left."""
    dealt = 0
    for p in range(state[NUM_PLAYERS]):
        for i in range(CARDS_DEALT):
            k = draw(state, RNG, NUM_CARDS - (p * CARDS_DEALT + i))
            for c in range(NUM_CARDS):
                if (dealt >> c) & 1:
                    continue
                if k == 0:
                    dealt |= 1 << c
                    state[CARDS + p * NUM_CARD_KINDS + CARD_KIND[c]] += 1
                    break
                k -= 1


@njit(cache=True)
def card_reach(state, player, e, kind, reach):
    """[Action cards]: the squares explorer ``e`` can reach with a jungle (0), water (1) or mountain (2)
    movement card, as 1s written into ``reach`` (int8, one per square); returns how many."""
    reach[:] = 0
    if e >= state[EXPLORERS_EACH]:
        return 0
    x = explorer_index(player, e)
    if state[EXPLORER_STATUS + x] != ON_ISLAND:
        return 0
    start = state[EXPLORER_SQUARE + x]
    queue = np.empty(NUM_SQUARES, dtype=np.int64)
    head, tail, count = 0, 1, 0
    queue[0] = start
    reach[start] = 2  # 2: passed through, not a destination
    ground = JUNGLE if kind == 0 else WATER
    while head < tail:
        s = queue[head]
        head += 1
        if kind < 2 and s != start and (state[ARTIFACTS + s * NUM_COLOURS] + state[ARTIFACTS + s * NUM_COLOURS + 1]
                                        + state[ARTIFACTS + s * NUM_COLOURS + 2]) > 0:
            continue  # "If the explorer enters a space with an artifact, he must stop"
        for d in range(4):
            t = SQUARE_NEIGHBOURS[s, d]
            if t < 0 or reach[t] != 0 or state[OCCUPANT + t] >= 0:
                continue
            terrain = state[TERRAIN + t]
            if kind < 2:
                if terrain == ground:
                    reach[t] = 1
                    count += 1
                    queue[tail] = t
                    tail += 1
            elif terrain == MOUNTAIN:
                reach[t] = 2
                queue[tail] = t
                tail += 1
            elif s != start and (terrain == JUNGLE or terrain == WATER):
                reach[t] = 1  # off the mountains again: the movement ends here
                count += 1
    for i in range(tail):
        if reach[queue[i]] == 2:
            reach[queue[i]] = 0
    return count


@njit(cache=True)
def _reach_count(state, player, e, kind):
    reach = np.empty(NUM_SQUARES, dtype=np.int8)
    return card_reach(state, player, e, kind, reach)


@njit(cache=True)
def _quake_target(state, f):
    """[Earthquake]: a terrain or start tile (not lava, not a printed field) with no explorer on it."""
    tile = state[FIELD_TILE + f]
    if tile < 0 or (tile >= FIRST_LAVA_TILE and tile < NUM_ISLAND_TILES):
        return False
    for i in range(4):
        if state[OCCUPANT + FIELD_SQUARES[f, i]] >= 0:
            return False
    return True


@njit(cache=True)
def _bag_count(state):
    n = 0
    for t in range(NUM_ISLAND_TILES):
        if state[TILE_WHERE + t] == IN_BAG:
            n += 1
    return n


@njit(cache=True)
def _check_supply(state):
    """[End of the Game]: the supply of tiles used up ends the game after the current player's turn."""
    if state[SUPPLY_OUT] != 0 or _bag_count(state) > 0:
        return
    state[SUPPLY_OUT] = 1
    if state[END_TRIGGERED] == 0:
        _trigger_end(state, END_BY_SUPPLY)
        state[SUPPLY_OUT] = 2


@njit(cache=True)
def _holds(state, player, kind):
    return state[CARDS + player * NUM_CARD_KINDS + kind] > 0


@njit(cache=True)
def _advanced_is_legal(state, action):
    if state[STATUS] != STATUS_RUNNING or action < 0 or action >= NUM_ACTIONS_ADVANCED:
        return False
    player = state[TO_ACT]
    phase = state[PHASE]
    if phase == PHASE_CARDS:
        kind = action - REMOVE_CARD_BASE
        if kind < 0 or kind >= NUM_CARD_KINDS:
            return False
        if kind < state[REMOVE_FROM + player] or not _holds(state, player, kind):
            return False
        if state[CARDS_REMOVED + player] > 0:
            return True
        # the second removal must stay possible: another card of this kind or of a higher one
        if state[CARDS + player * NUM_CARD_KINDS + kind] >= 2:
            return True
        for other in range(kind + 1, NUM_CARD_KINDS):
            if _holds(state, player, other):
                return True
        return False
    if phase == PHASE_CARD_MOVE:
        square = action - DESTINATION_BASE
        if square < 0 or square >= NUM_SQUARES:
            return False
        reach = np.empty(NUM_SQUARES, dtype=np.int8)
        card_reach(state, player, state[CARD_MOVE_EXPLORER], state[CARD_MOVE_KIND], reach)
        return reach[square] == 1
    if phase == PHASE_QUAKE_DRAW:
        return action == QUAKE_DRAW or action == QUAKE_NO_DRAW
    if phase == PHASE_QUAKE_LAY:
        a = action - QUAKE_LAY_BASE
        if a < 0 or a >= 4 * NUM_FIELDS:
            return False
        return IS_TILE_FIELD[a // 4] and state[FIELD_TILE + a // 4] < 0
    if action < NUM_ACTIONS:
        return _basic_is_legal(state, action)
    if phase != PHASE_TURN:
        return False
    if action < CARD_MOVE_BASE or action >= EARTHQUAKE_BASE + 4 * NUM_FIELDS:
        return False
    if action < DESTINATION_BASE:
        a = action - CARD_MOVE_BASE
        kind = a // MAX_EXPLORERS
        return _holds(state, player, ACTION_JUNGLE + kind) and _reach_count(state, player, a % MAX_EXPLORERS,
                                                                               kind) > 0
    if action < HELICOPTER_BASE:
        return False
    if action < EARTHQUAKE_BASE:
        e = action - HELICOPTER_BASE
        if not _holds(state, player, ACTION_HELICOPTER) or e >= state[EXPLORERS_EACH]:
            return False
        # "This card may not be used for the player's last explorer."
        return (state[EXPLORER_STATUS + explorer_index(player, e)] == ON_ISLAND
                and explorers_on_island(state, player) >= 2)
    a = action - EARTHQUAKE_BASE
    f = a // 4
    return _holds(state, player, ACTION_EARTHQUAKE) and _quake_target(state, f) and a % 4 != state[
        FIELD_ROTATION + f]


@njit(cache=True)
def _walk_range(state, mask, write, pick, count, first, last):
    for a in range(first, last):
        if _advanced_is_legal(state, a):
            if write:
                mask[a] = 1
            if count == pick:
                return a, count
            count += 1
    return -1, count


@njit(cache=True)
def _walk_advanced(state, mask, write, pick, count):
    """``_walk_legal`` for the advanced rules' own actions, continuing its count."""
    player = state[TO_ACT]
    phase = state[PHASE]
    if phase == PHASE_CARDS:
        return _walk_range(state, mask, write, pick, count, REMOVE_CARD_BASE, CARD_MOVE_BASE)
    if phase == PHASE_CARD_MOVE:
        reach = np.empty(NUM_SQUARES, dtype=np.int8)
        card_reach(state, player, state[CARD_MOVE_EXPLORER], state[CARD_MOVE_KIND], reach)
        for square in range(NUM_SQUARES):
            if reach[square] == 1:
                if write:
                    mask[DESTINATION_BASE + square] = 1
                if count == pick:
                    return DESTINATION_BASE + square, count
                count += 1
        return -1, count
    if phase == PHASE_QUAKE_DRAW:
        return _walk_range(state, mask, write, pick, count, QUAKE_DRAW, QUAKE_LAY_BASE)
    if phase == PHASE_QUAKE_LAY:
        return _walk_range(state, mask, write, pick, count, QUAKE_LAY_BASE, NUM_ACTIONS_ADVANCED)
    if phase != PHASE_TURN:
        return -1, count
    # action cards, looked at only when the player holds one of that kind
    for kind in range(3):
        if _holds(state, player, ACTION_JUNGLE + kind):
            first = CARD_MOVE_BASE + kind * MAX_EXPLORERS
            a, count = _walk_range(state, mask, write, pick, count, first, first + MAX_EXPLORERS)
            if a >= 0:
                return a, count
    if _holds(state, player, ACTION_HELICOPTER):
        a, count = _walk_range(state, mask, write, pick, count, HELICOPTER_BASE, EARTHQUAKE_BASE)
        if a >= 0:
            return a, count
    if _holds(state, player, ACTION_EARTHQUAKE):
        return _walk_range(state, mask, write, pick, count, EARTHQUAKE_BASE, QUAKE_DRAW)
    return -1, count


@njit(cache=True)
def _play_card(state, player, kind):
    state[CARDS + player * NUM_CARD_KINDS + kind] -= 1
    state[PLAYED + player * NUM_ACTION_KINDS + kind - FIRST_ACTION_KIND] += 1


@njit(cache=True)
def _advanced_step(state, action):
    player = state[TO_ACT]
    n = state[NUM_PLAYERS]
    if action < CARD_MOVE_BASE:  # set-up: remove a dealt card
        kind = action - REMOVE_CARD_BASE
        state[CARDS + player * NUM_CARD_KINDS + kind] -= 1
        state[REMOVED_CARDS + player * NUM_CARD_KINDS + kind] += 1
        state[CARDS_REMOVED + player] += 1
        state[REMOVE_FROM + player] = kind
        if state[CARDS_REMOVED + player] == CARDS_DEALT - CARDS_KEPT:
            if player + 1 < n:
                state[TO_ACT] = player + 1
            else:  # every player has chosen: the explorers are placed, starting player first
                state[PHASE] = PHASE_PLACEMENT
                state[TO_ACT] = 0
    elif action < DESTINATION_BASE:
        a = action - CARD_MOVE_BASE
        _play_card(state, player, ACTION_JUNGLE + a // MAX_EXPLORERS)
        state[CARD_MOVE_KIND] = a // MAX_EXPLORERS
        state[CARD_MOVE_EXPLORER] = a % MAX_EXPLORERS
        state[PHASE] = PHASE_CARD_MOVE
    elif action < HELICOPTER_BASE:
        e = state[CARD_MOVE_EXPLORER]
        x = explorer_index(player, e)
        target = action - DESTINATION_BASE
        state[OCCUPANT + state[EXPLORER_SQUARE + x]] = -1
        state[OCCUPANT + target] = player * 8 + e
        state[EXPLORER_SQUARE + x] = target
        state[CARD_MOVE_KIND] = -1
        state[CARD_MOVE_EXPLORER] = -1
        state[PHASE] = PHASE_TURN
        _check_end_trigger(state)   # a mountain movement card played is no longer held
    elif action < EARTHQUAKE_BASE:
        _play_card(state, player, ACTION_HELICOPTER)
        x = explorer_index(player, action - HELICOPTER_BASE)
        for c in range(NUM_COLOURS):
            state[RESCUED_ARTIFACTS + player * NUM_COLOURS + c] += state[CARRIED + x * NUM_COLOURS + c]
            state[CARRIED + x * NUM_COLOURS + c] = 0
        state[OCCUPANT + state[EXPLORER_SQUARE + x]] = -1
        state[EXPLORER_SQUARE + x] = -1
        state[EXPLORER_STATUS + x] = RESCUED
        _check_end_trigger(state)   # the card held may have been all that kept the island unsettled
    elif action < QUAKE_DRAW:
        _play_card(state, player, ACTION_EARTHQUAKE)
        a = action - EARTHQUAKE_BASE
        _turn_tile(state, a // 4, a % 4)
        _check_end_trigger(state)
        # "the player may draw one tile": no tile is drawn once the end is triggered
        if state[END_TRIGGERED] == 0 and _bag_count(state) > 0:
            state[PHASE] = PHASE_QUAKE_DRAW
    elif action == QUAKE_DRAW:
        _quake_draw(state)
    elif action == QUAKE_NO_DRAW:
        state[PHASE] = PHASE_TURN
    else:
        a = action - QUAKE_LAY_BASE
        tile = state[QUAKE_TILE]
        _lay(state, tile, a // 4, a % 4, TERRAIN_TILE_SQUARES[tile], None)
        state[QUAKE_TILE] = -1
        state[PHASE] = PHASE_TURN
        _check_end_trigger(state)


@njit(cache=True)
def _turn_tile(state, f, rotation):
    """[Earthquake]: the tile on field f takes another orientation; artifacts on it turn with it."""
    tile = state[FIELD_TILE + f]
    old = state[FIELD_ROTATION + f]
    carried = np.empty((4, NUM_COLOURS), dtype=np.int64)  # artifacts by corner of the tile itself
    for i in range(4):
        square = FIELD_SQUARES[f, i]
        for c in range(NUM_COLOURS):
            carried[TILE_ROTATION_SOURCE[old, i], c] = state[ARTIFACTS + square * NUM_COLOURS + c]
    for i in range(4):
        square = FIELD_SQUARES[f, i]
        source = TILE_ROTATION_SOURCE[rotation, i]
        if tile < NUM_ISLAND_TILES:
            state[TERRAIN + square] = TERRAIN_TILE_SQUARES[tile, source]
        else:
            state[TERRAIN + square] = START_TILE_SQUARES[tile - NUM_ISLAND_TILES, source]
        for c in range(NUM_COLOURS):
            state[ARTIFACTS + square * NUM_COLOURS + c] = carried[source, c]
    state[FIELD_ROTATION + f] = rotation


@njit(cache=True)
def _quake_draw(state):
    """After an earthquake: lava is placed by the lava rules; a terrain tile is laid by the player, or
    goes back into the bag when no field is empty."""
    state[PHASE] = PHASE_TURN
    tile = _draw_from_bag(state)
    if tile >= FIRST_LAVA_TILE:
        _place_lava(state, tile)
    else:
        for i in range(TILE_FIELD_LIST.shape[0]):
            if state[FIELD_TILE + TILE_FIELD_LIST[i]] < 0:
                state[QUAKE_TILE] = tile
                state[TILE_WHERE + tile] = SET_ASIDE
                state[PHASE] = PHASE_QUAKE_LAY
                break
    _check_supply(state)

# ---------------------------------------------------------------------------------------------------
# Scoring
@njit(cache=True)
def _boats_score(state, player, deduct):
    """Scoring: per boat taken, 3 for the explorer, 1 / 2 / 3 per white / gray / black artifact and
    (if ``deduct``) -1 per unoccupied place."""
    points = 0
    for b in range(NUM_BOATS):
        if state[BOAT_OWNER + b] == player:
            loaded = 0
            points += EXPLORER_POINTS
            for c in range(NUM_COLOURS):
                points += ARTIFACT_POINTS[c + 1] * state[BOAT_LOAD + b * NUM_COLOURS + c]
                loaded += state[BOAT_LOAD + b * NUM_COLOURS + c]
            if deduct:
                points += EMPTY_PLACE_POINTS * (BOAT_CAPACITY[b] - loaded)
    return points


@njit(cache=True)
def _rescued_points(state, player):
    points = 0
    for c in range(NUM_COLOURS):
        points += ARTIFACT_POINTS[c + 1] * state[RESCUED_ARTIFACTS + player * NUM_COLOURS + c]
    return points


@njit(cache=True)
def task_points(state, player):
    """Advanced scoring [Task cards]: the most points the player's task cards can give, each explorer
    and artifact used for one card at most.  Artifact sets compete for the same artifacts, so every
    subset of the set cards held is tried; the other cards do not compete with anything."""
    cards = CARDS + player * NUM_CARD_KINDS
    white, gray, black, boats = 0, 0, 0, 0
    for c in range(NUM_COLOURS):
        have = state[RESCUED_ARTIFACTS + player * NUM_COLOURS + c]
        for b in range(NUM_BOATS):
            if state[BOAT_OWNER + b] == player:
                have += state[BOAT_LOAD + b * NUM_COLOURS + c]
        if c == 0:
            white = have
        elif c == 1:
            gray = have
        else:
            black = have
    held = 0
    for t in range(NUM_SET_TASKS):
        if state[cards + t] > 0:
            held |= 1 << t
    best = 0
    subset = held
    while True:  # every subset of the held set cards, the empty one last
        w, g, k, bonus = 0, 0, 0, 0
        for t in range(NUM_SET_TASKS):
            if (subset >> t) & 1:
                w += SET_TASK_NEEDS[t, 0]
                g += SET_TASK_NEEDS[t, 1]
                k += SET_TASK_NEEDS[t, 2]
                bonus += SET_TASK_BONUS[t]
        if w <= white and g <= gray and k <= black and bonus > best:
            best = bonus
        if subset == 0:
            break
        subset = (subset - 1) & held
    points = best
    for b in range(NUM_BOATS):
        if state[BOAT_OWNER + b] == player:
            boats += 1
    points += min(state[cards + TASK_TWO_EXPLORERS], boats // 2)  # an explorer sits in every boat
    for colour in range(4):
        if state[cards + TASK_BOAT + colour] > 0:
            for b in range(NUM_BOATS):
                if state[BOAT_OWNER + b] == player and BOAT_COLOUR[b] == colour:
                    points += 1
                    break
    return points


@njit(cache=True)
def score(state, player):
    """The player's points: the boats; in the advanced game also the helicopter rescues' artifacts and
    the task cards (whose "no deduction" card cancels the -1 per unoccupied place)."""
    if state[VARIANT] != VARIANT_ADVANCED:
        return _boats_score(state, player, True)
    deduct = state[CARDS + player * NUM_CARD_KINDS + TASK_NO_DEDUCTION] == 0
    return _boats_score(state, player, deduct) + _rescued_points(state, player) + task_points(state, player)


@njit(cache=True)
def public_score(state, player):
    """The points everyone can count while the game runs: the task cards are still hidden."""
    if state[VARIANT] != VARIANT_ADVANCED:
        return _boats_score(state, player, True)
    return _boats_score(state, player, True) + _rescued_points(state, player)


@njit(cache=True)
def standing(state, player):
    """Score, then the tie-breaks (explorers on the island, then the artifacts they carry), as one
    number to compare."""
    carried = 0
    for e in range(state[EXPLORERS_EACH]):
        if state[EXPLORER_STATUS + explorer_index(player, e)] == ON_ISLAND:
            carried += carried_total(state, player, e)
    return (score(state, player) * 64 + explorers_on_island(state, player)) * 64 + carried


@njit(cache=True)
def player_scores(state, out):
    for p in range(state[NUM_PLAYERS]):
        out[p] = score(state, p)


@njit(cache=True)
def known_score(state, view, player):
    """``player``'s points as player ``view`` can count them: its own in full, another's without the
    task cards while the game runs (they are revealed at its end)."""
    return score(state, player) if player == view or state[PHASE] == PHASE_OVER else public_score(state, player)


@njit(cache=True)
def scores_known_to(state, view, out):
    """Every player's points as player ``view`` can count them (``known_score``)."""
    for p in range(state[NUM_PLAYERS]):
        out[p] = known_score(state, view, p)


@njit(cache=True)
def rewards(state, mode, out):
    """End-of-game reward per player; all zero while the game runs or after truncation."""
    out[:] = 0.0
    if state[STATUS] != STATUS_TERMINATED:
        return
    n = state[NUM_PLAYERS]
    if mode == REWARD_WIN_LOSS:
        best = -(1 << 40)
        winners = 0
        for p in range(n):
            v = standing(state, p)
            if v > best:
                best, winners = v, 1
            elif v == best:
                winners += 1
        for p in range(n):
            out[p] = (1.0 if winners == 1 else 0.0) if standing(state, p) == best else -1.0
        return
    player_scores(state, out)
    if mode == REWARD_MARGIN:
        margins(out, n)


@njit(cache=True)
def end_code(state):
    """How the game ended, as a ``pacific_common.ends`` code (END_NONE while it runs): the rulebook's
    end, an end settled because no explorer could ever leave the island (RULINGS.md "Settled end", or
    walled in, RULES.md), or ``max_turns`` -- which wins over an end triggered but not yet scored."""
    if state[STATUS] == STATUS_RUNNING:
        return END_NONE
    if state[STATUS] == STATUS_TRUNCATED:
        return END_TRUNCATED
    if state[END_REASON] == END_BY_SETTLED or state[END_REASON] == END_BY_WALLED_IN:
        return END_SETTLED
    return END_RULES


@njit(cache=True)
def player_to_act(state):
    return state[TO_ACT] if state[STATUS] == STATUS_RUNNING else -1


# ---------------------------------------------------------------------------------------------------
# Random play, from the generator kept in the state (pacific_common.rng) or from one of the caller's
# (BatchEnv's, apart from the game's); the ``_with`` kernels are inlined, so that the game's own
# generator stays a constant offset into the row for the core's random play.
# The game's own generator also draws its tiles, so a random action drawn with it changes the tiles to come.
@njit(cache=True)
def random_action(state):
    """A uniformly random legal action from the game's own generator; -1 if the game is over."""
    return random_action_with(state, state, RNG)


@njit(cache=True, inline="always")
def random_action_with(state, gens, g):
    """A uniformly random legal action from the generator ``gens[g]``; -1 if the game is over."""
    if state[STATUS] != STATUS_RUNNING:
        return -1
    # the walk writes nothing here, so the state row can stand in for the mask argument
    count = _walk_legal(state, state, False, -1)[1]
    return _walk_legal(state, state, False, draw(gens, g, count))[0]


@njit(cache=True)
def next_seed(state):
    return following_seed(state[SEED])


@njit(cache=True)
def play_random_games(state, num_steps):
    return play_random_games_with(state, state, RNG, num_steps)


@njit(cache=True, inline="always")
def play_random_games_with(state, gens, g, num_steps):
    """``play_random_games`` with the moves drawn from the generator ``gens[g]``."""
    finished = 0
    for _ in range(num_steps):
        step(state, random_action_with(state, gens, g))
        if state[STATUS] != STATUS_RUNNING:
            finished += 1
            init(state, state[NUM_PLAYERS], state[VARIANT], state[MAX_TURNS], next_seed(state))
    return finished


# ---------------------------------------------------------------------------------------------------
# Observation
@njit(cache=True)
def observe(state, view, obs):
    """Write player ``view``'s observation into the int8 ``obs`` (see the layout above)."""
    obs[:] = 0
    n = state[NUM_PLAYERS]
    # Plane by plane, without branches: a batch writes this for every game at every step.  The
    # explorers' plane is written from the explorers below (the validator keeps OCCUPANT in step).
    for s in range(NUM_SQUARES):
        obs[OBS_TERRAIN + state[TERRAIN + s] * NUM_SQUARES + s] = 1
    for s in range(NUM_SQUARES):  # in the row's order: one pass over the square's three colours
        a = ARTIFACTS + s * NUM_COLOURS
        obs[OBS_ARTIFACTS + s] = state[a]
        obs[OBS_ARTIFACTS + NUM_SQUARES + s] = state[a + 1]
        obs[OBS_ARTIFACTS + 2 * NUM_SQUARES + s] = state[a + 2]
    for landing in range(NUM_LANDINGS):
        if state[LANDING_BOAT + landing] >= 0:
            for i in range(4):
                obs[OBS_BOAT_ENTRY + LANDING_ENTRY_SQUARES[landing, i]] = 1
    for k in range(n):
        p = seat_after(view, k, n)
        for e in range(state[EXPLORERS_EACH]):
            x = explorer_index(p, e)
            base = OBS_PLAYER_EXPLORERS + (k * MAX_EXPLORERS + e) * EXPLORER_FEATURES
            status = state[EXPLORER_STATUS + x]
            if status == ON_ISLAND:
                obs[base] = 1
                square = state[EXPLORER_SQUARE + x]
                obs[OBS_EXPLORERS + k * NUM_SQUARES + square] = 1
                obs[base + 3] = square % 18
                obs[base + 4] = square // 18
            elif status == IN_BOAT:
                obs[base + 1] = 1
            elif status == LOST:
                obs[base + 2] = 1
            for c in range(NUM_COLOURS):
                obs[base + 5 + c] = state[CARRIED + x * NUM_COLOURS + c]
        for h in range(state[HAND_SIZE + p]):
            tile = state[HAND + p * HAND_SLOTS + h]
            base = OBS_HANDS + (k * HAND_SLOTS + h) * HAND_FEATURES
            obs[base] = 1
            obs[base + 1] = TERRAIN_TILE_POINTS[tile]
            for i in range(4):
                obs[base + 2 + 3 * i + TERRAIN_TILE_SQUARES[tile, i] - 1] = 1
        base = OBS_PLAYERS + k * PLAYER_FEATURES
        obs[base] = 1
        obs[base + 1] = 1 if state[TO_ACT] == p else 0
        obs[base + 2] = explorers_on_island(state, p)
        boats = 0
        for b in range(NUM_BOATS):
            if state[BOAT_OWNER + b] == p:
                boats += 1
        obs[base + 3] = boats
        obs[base + 4] = max(-OBS_MAX, min(OBS_MAX, known_score(state, view, p)))
    for landing in range(NUM_LANDINGS):
        boat = state[LANDING_BOAT + landing]
        if boat >= 0:
            obs[OBS_LANDINGS + landing] = BOAT_CAPACITY[boat]
            obs[OBS_LANDING_COLOURS + landing * NUM_BOAT_COLOURS + BOAT_COLOUR[boat]] = 1
    for b in range(NUM_BOATS):
        owner = state[BOAT_OWNER + b]
        if owner >= 0:
            base = OBS_BOATS + b * BOAT_FEATURES
            obs[base + relative(owner, view, n)] = 1
            for c in range(NUM_COLOURS):
                obs[base + MAX_PLAYERS + c] = state[BOAT_LOAD + b * NUM_COLOURS + c]
    for t in range(NUM_ISLAND_TILES):
        if state[TILE_WHERE + t] == IN_BAG:
            if t >= FIRST_LAVA_TILE:
                flow = LAVA_TILE_FLOW[t - FIRST_LAVA_TILE]
                obs[OBS_BAG + 3 + flow] += 1
                obs[OBS_BAG_TILES + NUM_TERRAIN_KINDS + NUM_LAVA_SHAPES * flow
                    + LAVA_TILE_SHAPE[t - FIRST_LAVA_TILE]] += 1
            else:
                obs[OBS_BAG + TERRAIN_TILE_POINTS[t] - 1] += 1
                obs[OBS_BAG_TILES + TERRAIN_TILE_KIND[t]] += 1
    for k in range(2 * NUM_LAVA_FLOWS):
        base = OBS_LAVA + 6 * k
        if state[BRANCH_OPEN + k] == 1:
            obs[base] = 1
            obs[base + 1] = state[BRANCH_LENGTH + k]
            obs[base + 2 + state[BRANCH_DIRECTION + k]] = 1
            # the board shows each flow's arrows, so where an open branch ends (and the next tile
            # falls) is public; the length and the lava on the board alone do not always tell it
            end = state[BRANCH_FIELD + k]
            obs[OBS_LAVA_ENDS + 2 * k] = FIELD_XY[end, 0] + 1
            obs[OBS_LAVA_ENDS + 2 * k + 1] = FIELD_XY[end, 1] + 1
    if state[PHASE] <= PHASE_OVER:
        obs[OBS_PHASE + state[PHASE]] = 1
    obs[OBS_POOL] = min(state[POOL], OBS_MAX)
    obs[OBS_FREE_ACTIONS] = FREE_ACTIONS_PER_TURN - state[FREE_ACTIONS]
    obs[OBS_END_TRIGGERED] = state[END_TRIGGERED]
    obs[OBS_TURN] = min(state[TURN], OBS_MAX)
    if state[VARIANT] == VARIANT_ADVANCED:
        _observe_advanced(state, view, obs)


@njit(cache=True)
def _observe_advanced(state, view, obs):
    n = state[NUM_PLAYERS]
    over = state[PHASE] == PHASE_OVER
    obs[OBS_A_PHASE + state[PHASE]] = 1
    for kind in range(NUM_CARD_KINDS):
        obs[OBS_A_CARDS + kind] = state[CARDS + view * NUM_CARD_KINDS + kind]
        obs[OBS_A_REMOVED + kind] = state[REMOVED_CARDS + view * NUM_CARD_KINDS + kind]
    for k in range(n):
        p = seat_after(view, k, n)
        held = 0
        for kind in range(NUM_CARD_KINDS):
            held += state[CARDS + p * NUM_CARD_KINDS + kind]
            if over:
                obs[OBS_A_REVEALED + k * NUM_CARD_KINDS + kind] = state[CARDS + p * NUM_CARD_KINDS + kind]
        obs[OBS_A_CARD_COUNT + k] = held
        for a in range(NUM_ACTION_KINDS):
            obs[OBS_A_PLAYED + k * NUM_ACTION_KINDS + a] = state[PLAYED + p * NUM_ACTION_KINDS + a]
        for c in range(NUM_COLOURS):
            obs[OBS_A_RESCUED + k * NUM_COLOURS + c] = state[RESCUED_ARTIFACTS + p * NUM_COLOURS + c]
        rescued = 0
        for e in range(state[EXPLORERS_EACH]):
            if state[EXPLORER_STATUS + explorer_index(p, e)] == RESCUED:
                rescued += 1
                if k == 0:
                    obs[OBS_A_OWN_RESCUED + e] = 1
        obs[OBS_A_RESCUED_EXPLORERS + k] = rescued
    if state[CARD_MOVE_KIND] >= 0:
        obs[OBS_A_CARD_MOVE + state[CARD_MOVE_KIND]] = 1
        obs[OBS_A_CARD_MOVE + 3 + state[CARD_MOVE_EXPLORER]] = 1
    tile = state[QUAKE_TILE]
    if tile >= 0:
        obs[OBS_A_QUAKE_TILE] = 1
        obs[OBS_A_QUAKE_TILE + 1] = TERRAIN_TILE_POINTS[tile]
        for i in range(4):
            obs[OBS_A_QUAKE_TILE + 2 + 3 * i + TERRAIN_TILE_SQUARES[tile, i] - 1] = 1
    obs[OBS_A_SUPPLY_OUT] = 1 if state[SUPPLY_OUT] > 0 else 0


@njit(cache=True)
def observe_player(state, player, obs, mask):
    observe(state, player, obs)
    if state[STATUS] == STATUS_RUNNING and state[TO_ACT] == player:
        legal_action_mask(state, mask)
    else:
        mask[:] = 0


# ---------------------------------------------------------------------------------------------------
# Validation (issue 23): a row is checked before anything reads it, because the kernels above trust
# every entry (an index out of range reads or writes outside the row).  ``validate`` accepts every
# state that play can reach and rejects the rest with a reason (``REASONS[code]``) and the offset of
# the first offending entry (``FIELDS`` names it).  The checks run in order, each relying on the
# ranges checked before it, so that the validator itself never indexes out of bounds.
FIELDS = (
    ("NUM_PLAYERS", NUM_PLAYERS, 1), ("VARIANT", VARIANT, 1), ("MAX_TURNS", MAX_TURNS, 1), ("PHASE", PHASE, 1),
    ("TO_ACT", TO_ACT, 1), ("TURN", TURN, 1), ("STATUS", STATUS, 1), ("RNG", RNG, 1), ("SEED", SEED, 1),
    ("POOL", POOL, 1), ("END_TRIGGERED", END_TRIGGERED, 1), ("FINAL_TURNS_LEFT", FINAL_TURNS_LEFT, 1),
    ("PLACED", PLACED, 1), ("EXPLORERS_EACH", EXPLORERS_EACH, 1), ("FREE_ACTIONS", FREE_ACTIONS, 1),
    ("TERRAIN", TERRAIN, NUM_SQUARES), ("ARTIFACTS", ARTIFACTS, NUM_SQUARES * NUM_COLOURS),
    ("OCCUPANT", OCCUPANT, NUM_SQUARES), ("FIELD_TILE", FIELD_TILE, NUM_FIELDS),
    ("FIELD_ROTATION", FIELD_ROTATION, NUM_FIELDS), ("TILE_WHERE", TILE_WHERE, NUM_TILES),
    ("HAND", HAND, MAX_PLAYERS * HAND_SLOTS), ("HAND_SIZE", HAND_SIZE, MAX_PLAYERS),
    ("EXPLORER_SQUARE", EXPLORER_SQUARE, MAX_PLAYERS * MAX_EXPLORERS),
    ("EXPLORER_STATUS", EXPLORER_STATUS, MAX_PLAYERS * MAX_EXPLORERS),
    ("CARRIED", CARRIED, MAX_PLAYERS * MAX_EXPLORERS * NUM_COLOURS), ("LANDING_BOAT", LANDING_BOAT, NUM_LANDINGS),
    ("BOAT_OWNER", BOAT_OWNER, NUM_BOATS), ("BOAT_LOAD", BOAT_LOAD, NUM_BOATS * NUM_COLOURS),
    ("BRANCH_FIELD", BRANCH_FIELD, NUM_LAVA_FLOWS * 2), ("BRANCH_DIRECTION", BRANCH_DIRECTION, NUM_LAVA_FLOWS * 2),
    ("BRANCH_LENGTH", BRANCH_LENGTH, NUM_LAVA_FLOWS * 2), ("BRANCH_OPEN", BRANCH_OPEN, NUM_LAVA_FLOWS * 2),
    ("REMOVED_ARTIFACTS", REMOVED_ARTIFACTS, NUM_COLOURS), ("CARDS", CARDS, MAX_PLAYERS * NUM_CARD_KINDS),
    ("PLAYED", PLAYED, MAX_PLAYERS * NUM_ACTION_KINDS),
    ("RESCUED_ARTIFACTS", RESCUED_ARTIFACTS, MAX_PLAYERS * NUM_COLOURS), ("CARDS_REMOVED", CARDS_REMOVED, MAX_PLAYERS),
    ("REMOVE_FROM", REMOVE_FROM, MAX_PLAYERS), ("REMOVED_CARDS", REMOVED_CARDS, MAX_PLAYERS * NUM_CARD_KINDS),
    ("CARD_MOVE_KIND", CARD_MOVE_KIND, 1),
    ("CARD_MOVE_EXPLORER", CARD_MOVE_EXPLORER, 1), ("QUAKE_TILE", QUAKE_TILE, 1), ("SUPPLY_OUT", SUPPLY_OUT, 1),
    ("END_REASON", END_REASON, 1),
)
assert [start for _, start, _ in FIELDS] == [0] + [s + n for _, s, n in FIELDS[:-1]] and \
    FIELDS[-1][1] + FIELDS[-1][2] == STATE_SIZE, "FIELDS must cover the state row in order"

REASONS = (
    "valid",
    "the number of players must be 2, 3 or 4",
    "the variant must be 0 (basic) or 1 (advanced)",
    "max_turns must be at least 1",
    "the status must be 0 (running), 1 (terminated) or 2 (truncated)",
    "the phase must be 0 … 2 in the basic game and 0 … 6 in the advanced game",
    "the phase must be 2 (over) exactly when the status is not running",
    "the player to act must be a player of the game while it runs, and -1 once it is over",
    "the placement phase and the set-up's card choice ask the players in a fixed order, and this is not "
    "the player whose decision it is",
    "turns played must be 0 before the first turn, below max_turns while the game runs and at most "
    "max_turns (exactly max_turns when truncated) once it is over",
    "the random generator's state must not be 0 (it would draw 0 for ever)",
    "the seed must be a non-negative integer below 2**63",
    "explorers per player must be 5, 4 or 3 for 2, 3 or 4 players",
    "explorers placed must be 0 before the placement, below all explorers during it and all of them after",
    "the movement pool must be 0 … 15 (a full hand's points), and 0 outside a turn",
    "pick-ups and drops this turn must be 0 … 20, and 0 outside a turn",
    "the end trigger must be 0 or 1, with the final turns left 1 … the number of players (1 in the advanced "
    "game) while a triggered game runs, 0 before the trigger, and a reason exactly when it was triggered (the "
    "supply used up only in the advanced game, walled in only in the basic game)",
    "a square's terrain must show what its field holds: the printed board where no tile lies, lava on a lava "
    "tile, jungle, water or mountain (1 … 3) on a terrain or start tile",
    "a field's tile must be -1 or 0 … 117, a tile that may lie there (terrain and start tiles on tile spaces, "
    "start tiles on start-tile spaces, lava also on start fields), on one field only, with rotation 0 … 3 "
    "(0 where no tile lies)",
    "a tile's place must be 0 … 4 (bag, hand, board, removed, set aside) and agree with the fields, the hands "
    "and the earthquake's tile; start tiles are only on the board or removed, lava tiles never in a hand",
    "a hand holds 0 … 5 terrain tiles, each in one hand, in its first slots, -1 in the others, and players "
    "not in the game hold none; before the first turn nobody holds tiles",
    "artifacts lying on a square must be 0 … their number in the game, on jungle or water only",
    "an explorer's status must be 0 … 4 (unplaced, on the island, in a boat, lost, rescued); players and "
    "explorers not in the game stay unplaced, and explorers are placed in turn",
    "an explorer on the island stands on a jungle or water square that names him as its occupant; any other "
    "explorer has square -1",
    "a square's occupant must be -1 or player * 8 + explorer of an explorer on the island standing there",
    "an explorer carries 0 … 3 artifacts, and only while on the island",
    "boats: each at one landing or owned by one player of the game, a player owning as many boats as he has "
    "explorers in boats, loads 0 … the boat's places and empty until taken",
    "artifacts must add up to 17 white, 7 gray and 1 black (on squares, carried, in boats, removed, rescued), "
    "none negative",
    "a lava branch needs a field -1 … 80 (its end shows lava), a direction 0 … 3, a length 0 … 6 and open 0 "
    "or 1; before its flow forks the second branch has field -1 and is closed; the lengths add up to no more "
    "than the flow's lava tiles on the board (fewer once it forked)",
    "the basic game has no cards, no helicopter rescue, no movement card or earthquake under way and no supply "
    "flag",
    "cards: each player holds 6 dealt cards less those removed (0 … 2) during the set-up's choice and at most "
    "4 with those played after it, and names no more removed cards than he removed; no kind more often than "
    "the game has it, held, played and removed together; players not in the game hold none",
    "a movement card under way must name a kind 0 … 2 and an explorer of the player to act on the island "
    "exactly in its phase (4), and both be -1 otherwise",
    "the tile drawn after an earthquake must be a terrain tile set aside exactly in its phase (6), and -1 "
    "otherwise",
    "the supply flag must be 0, 1 (bag empty) or 2 (bag empty, which ended the game), and set once the bag is "
    "empty in the advanced game",
    "a helicopter rescue card played per explorer rescued, whose artifacts (at most 3 each) lie on the card",
    "the game runs but the player to act has no legal action",
)
(BAD_PLAYERS, BAD_VARIANT, BAD_MAX_TURNS, BAD_STATUS, BAD_PHASE, BAD_PHASE_STATUS, BAD_TO_ACT, BAD_ORDER,
 BAD_TURN, BAD_RNG, BAD_SEED, BAD_EXPLORERS_EACH, BAD_PLACED, BAD_POOL, BAD_FREE_ACTIONS, BAD_END,
 BAD_TERRAIN, BAD_FIELD_TILE, BAD_TILE_WHERE, BAD_HAND, BAD_ARTIFACTS, BAD_EXPLORER_STATUS,
 BAD_EXPLORER_SQUARE, BAD_OCCUPANT, BAD_CARRIED, BAD_BOATS, BAD_ARTIFACT_COUNT, BAD_BRANCH, BAD_BASIC_EXTRA,
 BAD_CARDS, BAD_CARD_MOVE, BAD_QUAKE_TILE, BAD_SUPPLY, BAD_RESCUE, BAD_NO_MOVE) = range(1, len(REASONS))


@njit(cache=True)
def _placement_order_seat(i, n):
    """The seat that places the ``i``-th explorer: the starting player, then counter-clockwise."""
    return (n - i % n) % n


@njit(cache=True)
def validate(state):
    """``(0, 0)`` for a row that play can reach, else ``(code, offset)``: the reason ``REASONS[code]``
    and the first offending entry (``FIELDS`` names it).  ``state`` must be a 1-D int64 array of
    ``STATE_SIZE`` entries (the checked face ``core.validate`` makes sure)."""
    # -- the header: everything below indexes with these ------------------------------------------
    n = state[NUM_PLAYERS]
    if n < 2 or n > MAX_PLAYERS:
        return BAD_PLAYERS, NUM_PLAYERS
    variant = state[VARIANT]
    if variant != VARIANT_BASIC and variant != VARIANT_ADVANCED:
        return BAD_VARIANT, VARIANT
    advanced = variant == VARIANT_ADVANCED
    if state[MAX_TURNS] < 1:
        return BAD_MAX_TURNS, MAX_TURNS
    status = state[STATUS]
    if status < STATUS_RUNNING or status > STATUS_TRUNCATED:
        return BAD_STATUS, STATUS
    phase = state[PHASE]
    if phase < 0 or phase >= (NUM_PHASES if advanced else PHASE_CARDS):
        return BAD_PHASE, PHASE
    running = status == STATUS_RUNNING
    if running == (phase == PHASE_OVER):
        return BAD_PHASE_STATUS, PHASE
    to_act = state[TO_ACT]
    if (running and (to_act < 0 or to_act >= n)) or (not running and to_act != -1):
        return BAD_TO_ACT, TO_ACT
    before_turns = phase == PHASE_PLACEMENT or phase == PHASE_CARDS
    in_turn = running and not before_turns
    turn = state[TURN]
    if turn < 0 or (before_turns and turn != 0) or (running and turn >= state[MAX_TURNS]) \
            or turn > state[MAX_TURNS] or (status == STATUS_TRUNCATED and turn != state[MAX_TURNS]):
        return BAD_TURN, TURN
    if state[RNG] == 0:
        return BAD_RNG, RNG
    if state[SEED] < 0:
        return BAD_SEED, SEED
    k = state[EXPLORERS_EACH]
    if k != (5 if n == 2 else (4 if n == 3 else 3)):
        return BAD_EXPLORERS_EACH, EXPLORERS_EACH
    placed = state[PLACED]
    if (phase == PHASE_CARDS and placed != 0) or (phase == PHASE_PLACEMENT and (placed < 0 or placed >= n * k)) \
            or (not before_turns and placed != n * k):
        return BAD_PLACED, PLACED
    if phase == PHASE_PLACEMENT and to_act != _placement_order_seat(placed, n):
        return BAD_ORDER, TO_ACT
    if state[POOL] < 0 or state[POOL] > 3 * HAND_SLOTS or (not in_turn and state[POOL] != 0):
        return BAD_POOL, POOL
    if state[FREE_ACTIONS] < 0 or state[FREE_ACTIONS] > FREE_ACTIONS_PER_TURN or \
            (not in_turn and state[FREE_ACTIONS] != 0):
        return BAD_FREE_ACTIONS, FREE_ACTIONS
    triggered = state[END_TRIGGERED]
    if triggered != 0 and triggered != 1:
        return BAD_END, END_TRIGGERED
    left = state[FINAL_TURNS_LEFT]
    if triggered == 0 or before_turns:
        if left != 0 or (before_turns and triggered != 0):
            return BAD_END, FINAL_TURNS_LEFT
    elif left < 0 or left > (1 if advanced else n) or (running and left == 0):
        return BAD_END, FINAL_TURNS_LEFT
    reason = state[END_REASON]
    if (triggered == 0 and reason != 0) or (triggered == 1 and (reason < END_BY_EXPLORERS or reason > END_BY_WALLED_IN
                                                                or (reason == END_BY_SUPPLY and not advanced)
                                                                or (reason == END_BY_WALLED_IN and advanced))):
        return BAD_END, END_REASON
    # -- tiles on the fields and the terrain they show ---------------------------------------------
    # counts per tile, filled as the fields and hands are checked, keep the tile checks linear
    on_fields = np.zeros(NUM_TILES, np.int64)
    in_hands = np.zeros(NUM_TILES, np.int64)
    for f in range(NUM_FIELDS):
        tile = state[FIELD_TILE + f]
        rotation = state[FIELD_ROTATION + f]
        if tile < -1 or tile >= NUM_TILES:
            return BAD_FIELD_TILE, FIELD_TILE + f
        lava_tile = tile >= FIRST_LAVA_TILE and tile < NUM_ISLAND_TILES
        if tile >= 0 and not (IS_TILE_FIELD[f] or (lava_tile and IS_START_FIELD[f])):
            return BAD_FIELD_TILE, FIELD_TILE + f
        if tile >= NUM_ISLAND_TILES and not IS_START_TILE_SPACE[f]:
            return BAD_FIELD_TILE, FIELD_TILE + f
        if rotation < 0 or rotation > 3 or (tile < 0 and rotation != 0):
            return BAD_FIELD_TILE, FIELD_ROTATION + f
        if tile >= 0:
            if on_fields[tile] > 0:    # on an earlier field too
                return BAD_FIELD_TILE, FIELD_TILE + f
            on_fields[tile] = 1
        # A terrain or start tile shows jungle, water or mountain on each square; which one its
        # pattern and rotation say is not required, so that a test may lay ground no tile shows
        # (a path of water, say) -- no rule reads the tile's pattern back except an earthquake,
        # which lays the tile's own squares afresh.
        for i in range(4):
            square = FIELD_SQUARES[f, i]
            terrain = state[TERRAIN + square]
            if tile < 0:
                ok = terrain == INITIAL_TERRAIN[square]
            elif lava_tile:
                ok = terrain == LAVA
            else:
                ok = terrain == JUNGLE or terrain == WATER or terrain == MOUNTAIN
            if not ok:
                return BAD_TERRAIN, TERRAIN + square
    # -- hands --------------------------------------------------------------------------------------
    for p in range(MAX_PLAYERS):
        size = state[HAND_SIZE + p]
        if size < 0 or size > HAND_SLOTS or (p >= n and size != 0) or (before_turns and size != 0):
            return BAD_HAND, HAND_SIZE + p
        for h in range(HAND_SLOTS):
            tile = state[HAND + p * HAND_SLOTS + h]
            if h >= size:
                if tile != -1:
                    return BAD_HAND, HAND + p * HAND_SLOTS + h
            elif tile < 0 or tile >= FIRST_LAVA_TILE:
                return BAD_HAND, HAND + p * HAND_SLOTS + h
            else:
                in_hands[tile] += 1
    # -- where every tile is ------------------------------------------------------------------------
    quake_tile = state[QUAKE_TILE]
    if phase == PHASE_QUAKE_LAY:
        if quake_tile < 0 or quake_tile >= FIRST_LAVA_TILE:
            return BAD_QUAKE_TILE, QUAKE_TILE
    elif quake_tile != -1:
        return BAD_QUAKE_TILE, QUAKE_TILE
    bag = 0
    for t in range(NUM_TILES):
        where = state[TILE_WHERE + t]
        if where < IN_BAG or where > SET_ASIDE:
            return BAD_TILE_WHERE, TILE_WHERE + t
        fields = on_fields[t]
        hands = in_hands[t]
        if hands > 1:
            return BAD_HAND, HAND
        if (where == ON_BOARD) != (fields == 1) or (where == IN_HAND) != (hands == 1) \
                or (where == SET_ASIDE) != (t == quake_tile):
            return BAD_TILE_WHERE, TILE_WHERE + t
        if t >= NUM_ISLAND_TILES and where != ON_BOARD and where != REMOVED:
            return BAD_TILE_WHERE, TILE_WHERE + t
        if before_turns and t < NUM_ISLAND_TILES and where != IN_BAG:
            return BAD_TILE_WHERE, TILE_WHERE + t
        if where == IN_BAG:
            bag += 1
    # -- explorers ----------------------------------------------------------------------------------
    for p in range(MAX_PLAYERS):
        for e in range(MAX_EXPLORERS):
            x = explorer_index(p, e)
            explorer_status = state[EXPLORER_STATUS + x]
            if explorer_status < UNPLACED or explorer_status > RESCUED:
                return BAD_EXPLORER_STATUS, EXPLORER_STATUS + x
            if p >= n or e >= k:
                in_game_now = False
            elif phase == PHASE_PLACEMENT or phase == PHASE_CARDS:
                in_game_now = e * n + (n - p) % n < placed   # placed in turn, so placed already?
            else:
                in_game_now = True
            if (explorer_status == UNPLACED) == in_game_now:
                return BAD_EXPLORER_STATUS, EXPLORER_STATUS + x
            if phase == PHASE_PLACEMENT and in_game_now and explorer_status != ON_ISLAND:
                return BAD_EXPLORER_STATUS, EXPLORER_STATUS + x
            if explorer_status == RESCUED and not advanced:
                return BAD_EXPLORER_STATUS, EXPLORER_STATUS + x
            square = state[EXPLORER_SQUARE + x]
            if explorer_status == ON_ISLAND:
                if square < 0 or square >= NUM_SQUARES or state[OCCUPANT + square] != p * 8 + e:
                    return BAD_EXPLORER_SQUARE, EXPLORER_SQUARE + x
                terrain = state[TERRAIN + square]
                if terrain != JUNGLE and terrain != WATER:
                    return BAD_EXPLORER_SQUARE, EXPLORER_SQUARE + x
            elif square != -1:
                return BAD_EXPLORER_SQUARE, EXPLORER_SQUARE + x
            total = 0
            for c in range(NUM_COLOURS):
                carried = state[CARRIED + x * NUM_COLOURS + c]
                if carried < 0 or (carried > 0 and explorer_status != ON_ISLAND):
                    return BAD_CARRIED, CARRIED + x * NUM_COLOURS + c
                total += carried
                if total > MAX_CARRIED:
                    return BAD_CARRIED, CARRIED + x * NUM_COLOURS + c
    for s in range(NUM_SQUARES):
        occupant = state[OCCUPANT + s]
        if occupant == -1:
            continue
        p = occupant // 8
        e = occupant % 8
        if occupant < 0 or p >= n or e >= k:
            return BAD_OCCUPANT, OCCUPANT + s
        x = explorer_index(p, e)
        if state[EXPLORER_STATUS + x] != ON_ISLAND or state[EXPLORER_SQUARE + x] != s:
            return BAD_OCCUPANT, OCCUPANT + s
    # -- artifacts and boats ------------------------------------------------------------------------
    for s in range(NUM_SQUARES):
        for c in range(NUM_COLOURS):
            lying = state[ARTIFACTS + s * NUM_COLOURS + c]
            if lying < 0 or lying > ARTIFACT_COUNTS[c + 1]:
                return BAD_ARTIFACTS, ARTIFACTS + s * NUM_COLOURS + c
            terrain = state[TERRAIN + s]
            if lying > 0 and terrain != JUNGLE and terrain != WATER:
                return BAD_ARTIFACTS, ARTIFACTS + s * NUM_COLOURS + c
    for landing in range(NUM_LANDINGS):
        boat = state[LANDING_BOAT + landing]
        if boat < -1 or boat >= NUM_BOATS:
            return BAD_BOATS, LANDING_BOAT + landing
        for other in range(landing):
            if boat >= 0 and state[LANDING_BOAT + other] == boat:
                return BAD_BOATS, LANDING_BOAT + landing
    for b in range(NUM_BOATS):
        owner = state[BOAT_OWNER + b]
        at_landing = False
        for landing in range(NUM_LANDINGS):
            if state[LANDING_BOAT + landing] == b:
                at_landing = True
        if owner < -1 or owner >= n or at_landing == (owner >= 0):
            return BAD_BOATS, BOAT_OWNER + b
        loaded = 0
        for c in range(NUM_COLOURS):
            load = state[BOAT_LOAD + b * NUM_COLOURS + c]
            loaded += load
            if load < 0 or loaded > BOAT_CAPACITY[b] or (owner < 0 and load != 0):
                return BAD_BOATS, BOAT_LOAD + b * NUM_COLOURS + c
    for p in range(n):
        aboard = 0
        for e in range(k):
            if state[EXPLORER_STATUS + explorer_index(p, e)] == IN_BOAT:
                aboard += 1
        for b in range(NUM_BOATS):
            if state[BOAT_OWNER + b] == p:
                aboard -= 1
        if aboard != 0:
            return BAD_BOATS, BOAT_OWNER
    for c in range(NUM_COLOURS):
        # every count below was checked non-negative and bounded above, so the sum cannot overflow
        removed = state[REMOVED_ARTIFACTS + c]
        if removed < 0 or removed > ARTIFACT_COUNTS[c + 1]:
            return BAD_ARTIFACT_COUNT, REMOVED_ARTIFACTS + c
        total = removed
        for s in range(NUM_SQUARES):
            total += state[ARTIFACTS + s * NUM_COLOURS + c]
        for x in range(MAX_PLAYERS * MAX_EXPLORERS):
            total += state[CARRIED + x * NUM_COLOURS + c]
        for b in range(NUM_BOATS):
            total += state[BOAT_LOAD + b * NUM_COLOURS + c]
        for p in range(MAX_PLAYERS):
            rescued = state[RESCUED_ARTIFACTS + p * NUM_COLOURS + c]
            if rescued < 0 or rescued > ARTIFACT_COUNTS[c + 1]:
                return BAD_ARTIFACT_COUNT, RESCUED_ARTIFACTS + p * NUM_COLOURS + c
            total += rescued
        if total != ARTIFACT_COUNTS[c + 1]:
            return BAD_ARTIFACT_COUNT, REMOVED_ARTIFACTS + c
    # -- lava ---------------------------------------------------------------------------------------
    for flow in range(NUM_LAVA_FLOWS):
        for b in range(2):
            j = 2 * flow + b
            f = state[BRANCH_FIELD + j]
            if f < -1 or f >= NUM_FIELDS or (f >= 0 and state[TERRAIN + FIELD_SQUARES[f, 0]] != LAVA):
                return BAD_BRANCH, BRANCH_FIELD + j
            if state[BRANCH_DIRECTION + j] < 0 or state[BRANCH_DIRECTION + j] > 3:
                return BAD_BRANCH, BRANCH_DIRECTION + j
            if state[BRANCH_LENGTH + j] < 0 or state[BRANCH_LENGTH + j] > 6:
                return BAD_BRANCH, BRANCH_LENGTH + j
            if state[BRANCH_OPEN + j] != 0 and state[BRANCH_OPEN + j] != 1:
                return BAD_BRANCH, BRANCH_OPEN + j
            if state[BRANCH_OPEN + j] == 1 and f < 0:
                return BAD_BRANCH, BRANCH_FIELD + j
        if state[BRANCH_FIELD + 2 * flow] < 0:
            return BAD_BRANCH, BRANCH_FIELD + 2 * flow
        if state[BRANCH_FIELD + 2 * flow + 1] < 0 and (state[BRANCH_OPEN + 2 * flow + 1] != 0
                                                       or state[BRANCH_LENGTH + 2 * flow + 1] != 0):
            return BAD_BRANCH, BRANCH_FIELD + 2 * flow + 1
        # A branch grows by one with each of its flow's tiles laid (a discarded tile lays none), and the
        # lengths restart at the fork: longer than the board shows, a branch would run past 6 in play.
        # (Play keeps the first branch's length equal to the tiles laid; a position made by hand may lay
        # lava as scenery, off the branch, so fewer is allowed.)
        laid = 0
        for lava in range(NUM_LAVA_TILES):
            if LAVA_TILE_FLOW[lava] == flow and state[TILE_WHERE + FIRST_LAVA_TILE + lava] == ON_BOARD:
                laid += 1
        lengths = state[BRANCH_LENGTH + 2 * flow] + state[BRANCH_LENGTH + 2 * flow + 1]
        if lengths > laid or (state[BRANCH_FIELD + 2 * flow + 1] >= 0 and lengths == laid):
            return BAD_BRANCH, BRANCH_LENGTH + 2 * flow
    # -- the advanced rules' entries ----------------------------------------------------------------
    supply = state[SUPPLY_OUT]
    if not advanced:
        for i in range(CARDS, CARD_MOVE_KIND):
            if state[i] != 0:
                return BAD_BASIC_EXTRA, i
        if state[CARD_MOVE_KIND] != -1:
            return BAD_BASIC_EXTRA, CARD_MOVE_KIND
        if state[CARD_MOVE_EXPLORER] != -1:
            return BAD_BASIC_EXTRA, CARD_MOVE_EXPLORER
        if supply != 0:
            return BAD_BASIC_EXTRA, SUPPLY_OUT
    else:
        for kind in range(NUM_CARD_KINDS):
            total = 0
            for p in range(MAX_PLAYERS):
                held = state[CARDS + p * NUM_CARD_KINDS + kind]
                if held < 0 or held > CARD_KIND_COPIES[kind] or (p >= n and held != 0):
                    return BAD_CARDS, CARDS + p * NUM_CARD_KINDS + kind
                total += held
                if kind >= FIRST_ACTION_KIND:
                    played = state[PLAYED + p * NUM_ACTION_KINDS + kind - FIRST_ACTION_KIND]
                    if played < 0 or played > CARD_KIND_COPIES[kind] or (p >= n and played != 0) \
                            or (before_turns and played != 0):
                        return BAD_CARDS, PLAYED + p * NUM_ACTION_KINDS + kind - FIRST_ACTION_KIND
                    total += played
                named = state[REMOVED_CARDS + p * NUM_CARD_KINDS + kind]
                if named < 0 or named > CARD_KIND_COPIES[kind] or (p >= n and named != 0):
                    return BAD_CARDS, REMOVED_CARDS + p * NUM_CARD_KINDS + kind
                total += named
            if total > CARD_KIND_COPIES[kind]:
                return BAD_CARDS, CARDS + kind
        for p in range(MAX_PLAYERS):
            removed = state[CARDS_REMOVED + p]
            if p >= n:
                wanted = 0
            elif phase != PHASE_CARDS or p < to_act:
                wanted = CARDS_DEALT - CARDS_KEPT
            elif p > to_act:
                wanted = 0
            else:
                wanted = -1   # the player choosing now: 0 or 1 removed so far
            choosing = removed < 0 or removed >= CARDS_DEALT - CARDS_KEPT
            if (wanted >= 0 and removed != wanted) or (wanted < 0 and choosing):
                return BAD_CARDS if p >= n or phase != PHASE_CARDS else BAD_ORDER, CARDS_REMOVED + p
            remove_from = state[REMOVE_FROM + p]
            if remove_from < 0 or remove_from >= NUM_CARD_KINDS or (p >= n and remove_from != 0):
                return BAD_CARDS, REMOVE_FROM + p
            # play names every card removed; a position may leave some unnamed (a text written before
            # the row kept them, or a search's determinization of what another player removed)
            named = 0
            for kind in range(NUM_CARD_KINDS):
                named += state[REMOVED_CARDS + p * NUM_CARD_KINDS + kind]
            if named > removed:
                return BAD_CARDS, REMOVED_CARDS + p * NUM_CARD_KINDS
            if p >= n:
                continue
            held = 0
            for kind in range(NUM_CARD_KINDS):
                held += state[CARDS + p * NUM_CARD_KINDS + kind]
            for a in range(NUM_ACTION_KINDS):
                held += state[PLAYED + p * NUM_ACTION_KINDS + a]
            # during the choice every dealt card is still held; after it, cards leave only when
            # played (a crafted position may hold fewer, which no rule minds)
            if held != CARDS_DEALT - removed if phase == PHASE_CARDS else held > CARDS_KEPT:
                return BAD_CARDS, CARDS + p * NUM_CARD_KINDS
            rescued = 0
            for e in range(k):
                if state[EXPLORER_STATUS + explorer_index(p, e)] == RESCUED:
                    rescued += 1
            if rescued != state[PLAYED + p * NUM_ACTION_KINDS + ACTION_HELICOPTER - FIRST_ACTION_KIND]:
                return BAD_RESCUE, PLAYED + p * NUM_ACTION_KINDS + ACTION_HELICOPTER - FIRST_ACTION_KIND
            artifacts = 0
            for c in range(NUM_COLOURS):
                artifacts += state[RESCUED_ARTIFACTS + p * NUM_COLOURS + c]
            if artifacts > MAX_CARRIED * rescued:
                return BAD_RESCUE, RESCUED_ARTIFACTS + p * NUM_COLOURS
        kind = state[CARD_MOVE_KIND]
        e = state[CARD_MOVE_EXPLORER]
        if phase == PHASE_CARD_MOVE:
            if kind < 0 or kind > 2:
                return BAD_CARD_MOVE, CARD_MOVE_KIND
            if e < 0 or e >= k or state[EXPLORER_STATUS + explorer_index(to_act, e)] != ON_ISLAND:
                return BAD_CARD_MOVE, CARD_MOVE_EXPLORER
        elif kind != -1:
            return BAD_CARD_MOVE, CARD_MOVE_KIND
        elif e != -1:
            return BAD_CARD_MOVE, CARD_MOVE_EXPLORER
        if supply < 0 or supply > 2 or (supply > 0 and bag > 0) \
                or (supply == 0 and bag == 0 and not before_turns):
            return BAD_SUPPLY, SUPPLY_OUT
        if supply == 2 and (triggered != 1 or reason != END_BY_SUPPLY):
            return BAD_SUPPLY, SUPPLY_OUT
    # -- last, with every entry in range: a running game must ask for something -------------------
    # the walk stops at the first legal action; it writes nothing, but a row being checked may be
    # read-only (a memory-mapped file), so the mask argument is an array of its own
    if running and _walk_legal(state, np.zeros(1, np.int8), False, 0)[0] < 0:
        return BAD_NO_MOVE, PHASE
    return 0, 0
