"""Small helpers that let the Mauna Kea rules tests read like the rulebook.

Everything goes through the public API of ``maunakea_env.raw_env``: ``reset``, ``step``, ``observe``,
``state`` and ``set_state``.  Crafted positions are written into a copy of ``env.state()`` with the
offsets of ``maunakea_env.core`` and restored with ``set_state`` (``commit``), and every crafted
position is checked by ``assert_conserved`` first:

* every one of the 118 tiles is in exactly one place (bag, a hand, a field, removed, set aside) and
  ``TILE_WHERE`` agrees with the fields and the hands;
* the 25 artifacts (17 white, 7 gray, 1 black) are on squares, carried, in boats or removed;
* every explorer on the island stands alone on a jungle or water square, ``OCCUPANT`` agrees with
  ``EXPLORER_SQUARE``; each boat is at its landing or in front of exactly one player, with that
  player's explorer aboard;
* and whatever else ``core.check_state`` (the validator) checks.

A change that the position notation says in one line is best written with ``rewrite`` (a lava
branch, a tile on a field); the explorers are read through ``maunakea_env.explorers``.

Squares, fields and landings are named as in ``maunakea_env.board``: square ``"E5-nw"``, field
``"E5"``, landing ``"landing B1-C1"`` (or ``"B1-C1"``).  Artifact colours are indexed as in the actions
and the state: ``WHITE, GRAY, BLACK = 0, 1, 2``.  Explorer ``e`` of player ``p`` is the ``e``-th he
placed.  Terrain patterns are written like the tile list of RULES.md: ``"JW/MJ"`` = top row / bottom
row in tile order (nw, ne / sw, se).
"""
import numpy as np

import maunakea_env
from maunakea_env import core
from maunakea_env.board import (
    ARTIFACT_COUNTS, BOAT_CAPACITY, BOAT_INDEX, FIELD_INDEX, FIELD_NAMES, FIELD_SQUARES, FIRST_LAVA_TILE,
    IS_TILE_FIELD, JUNGLE, LANDING_ENTRY_SQUARES, LANDING_INDEX, LAVA, LAVA_TILE_FLOW, LAVA_TILE_SHAPE,
    MOUNTAIN, NUM_BOATS, NUM_FIELDS, NUM_ISLAND_TILES, NUM_LANDINGS, NUM_SQUARES, NUM_START_TILES,
    SQUARE_INDEX, SQUARE_NAMES, TERRAIN_KIND_NAMES, TERRAIN_TILE_KIND, TERRAIN_TILE_POINTS,
    TERRAIN_TILE_SQUARES, WATER, rotate_tile,
)
from pacific_common.rng import draw

N, E, S, W = range(4)
WHITE, GRAY, BLACK = range(3)
NORTH_FLOW, EAST_FLOW, SOUTH_FLOW, WEST_FLOW = range(4)
STRAIGHT, LEFT_BEND, RIGHT_BEND, FORK = range(4)
NUM_TILES = NUM_ISLAND_TILES + NUM_START_TILES
_LETTER = {"J": JUNGLE, "W": WATER, "M": MOUNTAIN}


# -- names and actions -------------------------------------------------------------------------------
def square(name):
    return SQUARE_INDEX[name]


def field(name):
    return FIELD_INDEX[name]


def landing(name):
    return LANDING_INDEX[name if name.startswith("landing") else f"landing {name}"]


def pattern(text):
    """'JW/MJ' -> terrain codes in tile order."""
    top, bottom = text.split("/")
    return [_LETTER[c] for c in top + bottom]


def place_explorer(square_name):
    """[Placing explorers]: put the next explorer on the named starting space."""
    return core.PLACE_BASE + square(square_name)


def lay(h, field_name, rotation=0):
    """[Expanding the terrain]: lay hand tile ``h`` on the named field, turned ``rotation`` quarter
    turns clockwise."""
    return core.LAY_BASE + 4 * (NUM_FIELDS * h + field(field_name)) + rotation


def spend(h):
    """[Using movement points]: spend hand tile ``h``."""
    return core.SPEND_BASE + h


def move(e, direction):
    """[Moving explorers]: explorer ``e`` one square N / E / S / W."""
    return core.MOVE_BASE + 4 * e + direction


def pick(e, colour):
    return core.PICK_BASE + 3 * e + colour


def drop(e, colour):
    return core.DROP_BASE + 3 * e + colour


def board(e, landing_name):
    """[Reaching the boats]: explorer ``e`` boards the boat at the named landing."""
    return core.BOARD_BASE + NUM_LANDINGS * e + landing(landing_name)


END_TURN = core.END_TURN


def lava_tile(flow, shape, copy=0):
    """Island tile id of the ``copy``-th lava tile of ``flow`` with ``shape``."""
    ids = [FIRST_LAVA_TILE + i for i in range(len(LAVA_TILE_FLOW))
           if LAVA_TILE_FLOW[i] == flow and LAVA_TILE_SHAPE[i] == shape]
    return ids[copy]


def terrain_kind(t):
    return TERRAIN_KIND_NAMES[TERRAIN_TILE_KIND[t]]


# -- games -------------------------------------------------------------------------------------------
def new_game(num_players=2, seed=0, **options):
    env = maunakea_env.raw_env(num_players=num_players, **options)
    env.reset(seed=seed)
    return env


def started_game(num_players=2, seed=0, **options):
    """A game after [Placing explorers] and [Drawing tiles]: ``player_1`` is to act.  Each explorer
    goes on the last free starting space the mask offers, which fills F6, D6 and F4 (at most 12
    explorers) and leaves the start field D4 free for crafted positions."""
    env = new_game(num_players, seed, **options)
    while env.decision() == "placement":
        act(env, int(np.flatnonzero(mask(env))[-1]))
    return env


# -- reading the game --------------------------------------------------------------------------------
def mask(env):
    return env.observe(env.agent_selection)["action_mask"]


def legal(env):
    return set(np.flatnonzero(mask(env)).tolist())


def to_act(env):
    return int(env.state()[core.TO_ACT])


def running(env):
    return int(env.state()[core.STATUS]) == core.STATUS_RUNNING


def pool(env):
    return int(env.state()[core.POOL])


def hand(env, player):
    s = env.state()
    return [int(t) for t in s[core.HAND + player * core.HAND_SLOTS:
                               core.HAND + player * core.HAND_SLOTS + s[core.HAND_SIZE + player]]]


def hand_points(env, player):
    return int(sum(TERRAIN_TILE_POINTS[t] for t in hand(env, player)))


def bag(env):
    s = env.state()
    return [t for t in range(NUM_ISLAND_TILES) if s[core.TILE_WHERE + t] == core.IN_BAG]


def where(env, tile):
    return int(env.state()[core.TILE_WHERE + tile])


def terrain(env, square_name):
    return int(env.state()[core.TERRAIN + square(square_name)])


def field_terrain(env, field_name):
    s = env.state()
    return [int(s[core.TERRAIN + q]) for q in FIELD_SQUARES[field(field_name)]]


def field_tile(env, field_name):
    t = int(env.state()[core.FIELD_TILE + field(field_name)])
    return None if t < 0 else t


def _explorer_view(env, player, e):
    return next(x for x in maunakea_env.explorers(env.state()) if (x.player, x.explorer) == (player, e))


def explorer_square(env, player, e):
    return _explorer_view(env, player, e).square


def explorer_status(env, player, e):
    return int(env.state()[core.EXPLORER_STATUS + player * core.MAX_EXPLORERS + e])


def carried(env, player, e):
    return _explorer_view(env, player, e).load


def artifacts_on(env, square_name):
    s = env.state()
    base = core.ARTIFACTS + square(square_name) * 3
    return tuple(int(v) for v in s[base:base + 3])


def removed_artifacts(env):
    s = env.state()
    return tuple(int(v) for v in s[core.REMOVED_ARTIFACTS:core.REMOVED_ARTIFACTS + 3])


def boat_at(env, landing_name):
    b = int(env.state()[core.LANDING_BOAT + landing(landing_name)])
    return None if b < 0 else b


def boat_owner(env, boat):
    p = int(env.state()[core.BOAT_OWNER + boat])
    return None if p < 0 else p


def boat_load(env, boat):
    s = env.state()
    return tuple(int(v) for v in s[core.BOAT_LOAD + 3 * boat:core.BOAT_LOAD + 3 * boat + 3])


def branch(env, flow, b):
    """(end field name, direction, length, open) of branch ``b`` of a lava flow."""
    s = env.state()
    k = 2 * flow + b
    f = int(s[core.BRANCH_FIELD + k])
    return (FIELD_NAMES[f] if f >= 0 else None, int(s[core.BRANCH_DIRECTION + k]),
            int(s[core.BRANCH_LENGTH + k]), int(s[core.BRANCH_OPEN + k]))


# -- playing -----------------------------------------------------------------------------------------
def act(env, action):
    """Step the player to act, checking that the action is offered.  Returns the player who acted."""
    player = to_act(env)
    assert running(env)
    assert env.agent_selection == f"player_{player}"
    assert mask(env)[action] == 1, f"{env.describe_action(action)} is not offered to player_{player}"
    env.step(action)
    return player


def spend_all(env):
    """Spend every tile in the hand of the player to act (for its movement points)."""
    while env.state()[core.HAND_SIZE + to_act(env)] > 0:
        act(env, spend(0))


def pass_turn(env):
    """Spend the whole hand and end the turn without moving."""
    spend_all(env)
    return act(env, END_TURN)


# -- crafting positions (on a state array ``s`` = ``env.state()``) -----------------------------------
def bag_tile(s, kind=None, points=None, avoid=()):
    """A terrain tile in the bag of the named kind (or worth ``points``)."""
    for t in range(FIRST_LAVA_TILE):
        if s[core.TILE_WHERE + t] != core.IN_BAG or t in avoid:
            continue
        if kind is not None and terrain_kind(t) != kind:
            continue
        if points is not None and TERRAIN_TILE_POINTS[t] != points:
            continue
        return t
    raise AssertionError(f"no {kind or points} tile left in the bag")


def set_hand(s, player, tiles):
    """Replace ``player``'s hand: the old hand goes back into the bag; ``tiles`` are kind names,
    point values (int) or ``("tile", id)``, taken out of the bag in this order."""
    base = core.HAND + player * core.HAND_SLOTS
    for h in range(s[core.HAND_SIZE + player]):
        s[core.TILE_WHERE + s[base + h]] = core.IN_BAG
    s[base:base + core.HAND_SLOTS] = -1
    chosen = []
    for spec in tiles:
        if isinstance(spec, tuple):
            t = spec[1]
            assert s[core.TILE_WHERE + t] == core.IN_BAG and t < FIRST_LAVA_TILE
        elif isinstance(spec, str):
            t = bag_tile(s, kind=spec)
        else:
            t = bag_tile(s, points=spec)
        s[core.TILE_WHERE + t] = core.IN_HAND
        chosen.append(t)
    assert len(chosen) <= core.HAND_SLOTS
    s[base:base + len(chosen)] = chosen
    s[core.HAND_SIZE + player] = len(chosen)
    return chosen


def empty_hands(s):
    for p in range(s[core.NUM_PLAYERS]):
        set_hand(s, p, [])


def lay_terrain(s, field_name, text):
    """Lay a terrain tile from the bag on an empty field so that it shows ``text`` ("JW/MJ").  A tile
    kind and rotation that show exactly this are used when one exists; otherwise any tile from the
    bag is laid and its squares are painted (terrain that no tile shows, for a rule that needs it)."""
    f = field(field_name)
    assert IS_TILE_FIELD[f] and s[core.FIELD_TILE + f] < 0, f"{field_name} is not an empty field"
    want = pattern(text)
    chosen, rotation = None, 0
    for t in range(FIRST_LAVA_TILE):
        if s[core.TILE_WHERE + t] != core.IN_BAG:
            continue
        for r in range(4):
            if rotate_tile(TERRAIN_TILE_SQUARES[t], r).tolist() == want:
                chosen, rotation = t, r
                break
        if chosen is not None:
            break
    if chosen is None:
        chosen = bag_tile(s)
    s[core.FIELD_TILE + f] = chosen
    s[core.FIELD_ROTATION + f] = rotation
    s[core.TILE_WHERE + chosen] = core.ON_BOARD
    for i, q in enumerate(FIELD_SQUARES[f]):
        s[core.TERRAIN + q] = want[i]
    return chosen


def lay_lava(s, field_name, tile):
    """Put a lava tile (out of the bag) on a field, covering what is there; nothing may stand on it."""
    f = field(field_name)
    assert s[core.TILE_WHERE + tile] == core.IN_BAG and tile >= FIRST_LAVA_TILE
    covered = s[core.FIELD_TILE + f]
    if covered >= 0:
        s[core.TILE_WHERE + covered] = core.REMOVED
    s[core.FIELD_TILE + f] = tile
    s[core.TILE_WHERE + tile] = core.ON_BOARD
    for q in FIELD_SQUARES[f]:
        assert s[core.OCCUPANT + q] < 0 and not s[core.ARTIFACTS + 3 * q:core.ARTIFACTS + 3 * q + 3].any()
        s[core.TERRAIN + q] = LAVA


def only_in_bag(s, tiles):
    """Make the bag hold exactly ``tiles`` (island tiles in the bag or out of the game, never one on
    the board or in a hand); the other tiles of the bag are taken out of the game (REMOVED), so the
    next draws are forced."""
    for t in range(NUM_ISLAND_TILES):
        if s[core.TILE_WHERE + t] == core.IN_BAG and t not in tiles:
            s[core.TILE_WHERE + t] = core.REMOVED
    for t in tiles:
        assert s[core.TILE_WHERE + t] in (core.IN_BAG, core.REMOVED), f"tile {t} is in play"
        s[core.TILE_WHERE + t] = core.IN_BAG


def rig_next_draw(s, tile):
    """Choose the generator state so that the next draw from the bag takes ``tile`` (the draw is the
    ``draw(b)``-th of the ``b`` tiles in the bag, RULES.md Set-up)."""
    in_bag = [t for t in range(NUM_ISLAND_TILES) if s[core.TILE_WHERE + t] == core.IN_BAG]
    k = in_bag.index(tile)
    trial = np.zeros(1, dtype=np.int64)
    for candidate in range(1, 100_000):
        trial[0] = candidate
        if draw(trial, 0, len(in_bag)) == k:
            s[core.RNG] = candidate
            return
    raise AssertionError("no generator state found")


def _explorer(player, e):
    return player * core.MAX_EXPLORERS + e


def put_explorer(s, player, e, square_name):
    """Move explorer ``e`` of ``player`` (on the island) to the named square."""
    x = _explorer(player, e)
    q = square(square_name)
    assert s[core.EXPLORER_STATUS + x] == core.ON_ISLAND
    assert s[core.OCCUPANT + q] < 0 or s[core.OCCUPANT + q] == player * 8 + e, f"{square_name} is taken"
    s[core.OCCUPANT + s[core.EXPLORER_SQUARE + x]] = -1
    s[core.OCCUPANT + q] = player * 8 + e
    s[core.EXPLORER_SQUARE + x] = q


def lose_explorer(s, player, e):
    """Explorer ``e`` of ``player`` is off the island, lost (with what he carried) as to lava."""
    x = _explorer(player, e)
    assert s[core.EXPLORER_STATUS + x] == core.ON_ISLAND
    s[core.OCCUPANT + s[core.EXPLORER_SQUARE + x]] = -1
    s[core.EXPLORER_SQUARE + x] = -1
    s[core.EXPLORER_STATUS + x] = core.LOST
    base = core.CARRIED + 3 * x
    for c in range(3):
        s[core.REMOVED_ARTIFACTS + c] += s[base + c]
        s[base + c] = 0


def _take_artifact(s, colour, avoid):
    """Take one artifact of ``colour`` off a square of the board (not one of ``avoid``)."""
    for q in range(NUM_SQUARES):
        if q in avoid:
            continue
        if s[core.ARTIFACTS + 3 * q + colour] > 0:
            s[core.ARTIFACTS + 3 * q + colour] -= 1
            return
    raise AssertionError(f"no artifact of colour {colour} left on the board")


def artifacts_to_square(s, square_name, white=0, gray=0, black=0):
    """Move artifacts from the start tiles to the named square."""
    q = square(square_name)
    for colour, count in enumerate((white, gray, black)):
        for _ in range(count):
            _take_artifact(s, colour, {q})
            s[core.ARTIFACTS + 3 * q + colour] += 1


def clear_square(s, square_name):
    """Move the artifacts lying on the named square to the removed pile."""
    q = square(square_name)
    for c in range(3):
        s[core.REMOVED_ARTIFACTS + c] += s[core.ARTIFACTS + 3 * q + c]
        s[core.ARTIFACTS + 3 * q + c] = 0


def give_artifacts(s, player, e, white=0, gray=0, black=0):
    """Explorer ``e`` of ``player`` carries these artifacts more (taken from the start tiles)."""
    x = _explorer(player, e)
    for colour, count in enumerate((white, gray, black)):
        for _ in range(count):
            _take_artifact(s, colour, set())
            s[core.CARRIED + 3 * x + colour] += 1


def give_boat(s, player, e, boat_name, white=0, gray=0, black=0):
    """Explorer ``e`` of ``player`` has left in the named boat with this load (from the start tiles);
    the boat lies in front of the player."""
    b = BOAT_INDEX[boat_name]
    x = _explorer(player, e)
    assert s[core.EXPLORER_STATUS + x] == core.ON_ISLAND and not s[core.CARRIED + 3 * x:core.CARRIED + 3 * x + 3].any()
    assert white + gray + black <= BOAT_CAPACITY[b]
    (spot,) = np.flatnonzero(s[core.LANDING_BOAT:core.LANDING_BOAT + NUM_LANDINGS] == b)
    s[core.LANDING_BOAT + spot] = -1
    s[core.BOAT_OWNER + b] = player
    for colour, count in enumerate((white, gray, black)):
        for _ in range(count):
            _take_artifact(s, colour, set())
            s[core.BOAT_LOAD + 3 * b + colour] += 1
    s[core.OCCUPANT + s[core.EXPLORER_SQUARE + x]] = -1
    s[core.EXPLORER_SQUARE + x] = -1
    s[core.EXPLORER_STATUS + x] = core.IN_BOAT
    return b


def boat_to_landing(s, boat_name, landing_name):
    """Swap boats so that the named boat lies at the named landing."""
    b = BOAT_INDEX[boat_name]
    k = landing(landing_name)
    boats = s[core.LANDING_BOAT:core.LANDING_BOAT + NUM_LANDINGS]
    (spot,) = np.flatnonzero(boats == b)
    boats[spot], boats[k] = boats[k], b
    return b


def rewrite(s, *lines):
    """Change the position ``s`` in place by lines of the position notation (RULES.md, "Position
    notation"), each replacing the line of the same key or added: a change written in the game's own
    words and checked by ``from_text``, e.g. ``rewrite(s, "flow single arrow: E3 north 1 open; - north
    0 closed")``."""
    new = {line.partition(":")[0]: line for line in lines}
    kept = [line for line in maunakea_env.to_text(s).splitlines() if line.partition(":")[0] not in new]
    s[:] = maunakea_env.from_text("\n".join(kept + list(new.values())))
    return s


def commit(env, s, player=None, pool=None, end_triggered=None, final_turns_left=None):
    """Check the crafted state, make ``player`` the one to act in the turn phase, and restore it.  An
    end triggered here is the rulebook's (a player with no explorer left) unless the row names another."""
    if player is not None:
        s[core.PHASE] = core.PHASE_TURN
        s[core.STATUS] = core.STATUS_RUNNING
        s[core.TO_ACT] = player
    if pool is not None:
        s[core.POOL] = pool
    if end_triggered is not None:
        s[core.END_TRIGGERED] = end_triggered
        if end_triggered and s[core.END_REASON] == 0:
            s[core.END_REASON] = core.END_BY_EXPLORERS
    if final_turns_left is not None:
        s[core.FINAL_TURNS_LEFT] = final_turns_left
    assert_conserved(s)
    env.set_state(s)
    return env


# -- conservation ------------------------------------------------------------------------------------
def assert_conserved(s):
    """The bookkeeping every position must keep (see the module docstring)."""
    core.check_state(s)
    n = int(s[core.NUM_PLAYERS])
    k = int(s[core.EXPLORERS_EACH])
    where = s[core.TILE_WHERE:core.TILE_WHERE + NUM_TILES]
    # tiles: 94 island tiles and 24 start tiles, each in exactly one place
    assert ((where >= core.IN_BAG) & (where <= core.SET_ASIDE)).all()
    assert len(where) == NUM_TILES == 118 and NUM_ISLAND_TILES == 94 and NUM_START_TILES == 24
    assert sum(int((where == w).sum()) for w in range(5)) == 118
    on_fields = [int(t) for t in s[core.FIELD_TILE:core.FIELD_TILE + NUM_FIELDS] if t >= 0]
    assert len(on_fields) == len(set(on_fields)), "a tile lies on two fields"
    assert sorted(on_fields) == sorted(np.flatnonzero(where == core.ON_BOARD).tolist())
    for f in range(NUM_FIELDS):
        t = s[core.FIELD_TILE + f]
        if 0 <= t < FIRST_LAVA_TILE or t >= NUM_ISLAND_TILES:   # lava may also cover a start field
            assert IS_TILE_FIELD[f], f"a tile on {FIELD_NAMES[f]}"
    in_hands = []
    for p in range(core.MAX_PLAYERS):
        size = int(s[core.HAND_SIZE + p])
        slots = s[core.HAND + p * core.HAND_SLOTS:core.HAND + (p + 1) * core.HAND_SLOTS]
        assert 0 <= size <= core.HAND_SLOTS and (p < n or size == 0)
        assert (slots[size:] == -1).all() and (slots[:size] >= 0).all()
        assert (slots[:size] < FIRST_LAVA_TILE).all(), "a lava tile in a hand"
        in_hands += slots[:size].tolist()
    assert sorted(in_hands) == sorted(np.flatnonzero(where == core.IN_HAND).tolist())
    start = where[NUM_ISLAND_TILES:]
    assert ((start == core.ON_BOARD) | (start == core.REMOVED)).all(), "a start tile left the board"
    if s[core.PHASE] == core.PHASE_QUAKE_LAY:  # advanced: the tile an earthquake drew waits aside
        assert np.flatnonzero(where == core.SET_ASIDE).tolist() == [s[core.QUAKE_TILE]]
    elif s[core.PHASE] != core.PHASE_PLACEMENT:
        assert not (where == core.SET_ASIDE).any()
    # artifacts: 17 white, 7 gray, 1 black
    lying = s[core.ARTIFACTS:core.ARTIFACTS + 3 * NUM_SQUARES].reshape(NUM_SQUARES, 3)
    held = s[core.CARRIED:core.CARRIED + 3 * core.MAX_PLAYERS * core.MAX_EXPLORERS].reshape(-1, 3)
    loads = s[core.BOAT_LOAD:core.BOAT_LOAD + 3 * NUM_BOATS].reshape(NUM_BOATS, 3)
    removed = s[core.REMOVED_ARTIFACTS:core.REMOVED_ARTIFACTS + 3]
    rescued = s[core.RESCUED_ARTIFACTS:core.RESCUED_ARTIFACTS + 3 * core.MAX_PLAYERS].reshape(-1, 3)  # advanced
    assert (lying >= 0).all() and (held >= 0).all() and (loads >= 0).all() and (removed >= 0).all()
    assert (rescued >= 0).all()
    total = lying.sum(axis=0) + held.sum(axis=0) + loads.sum(axis=0) + removed + rescued.sum(axis=0)
    assert total.tolist() == ARTIFACT_COUNTS[1:].tolist(), f"artifacts {total.tolist()}"
    # explorers: one per square, only on jungle and water
    occupant = s[core.OCCUPANT:core.OCCUPANT + NUM_SQUARES]
    standing = {}
    for p in range(core.MAX_PLAYERS):
        for e in range(core.MAX_EXPLORERS):
            x = _explorer(p, e)
            status, q = int(s[core.EXPLORER_STATUS + x]), int(s[core.EXPLORER_SQUARE + x])
            if p >= n or e >= k:
                assert status == core.UNPLACED and q == -1
            if status == core.ON_ISLAND:
                assert q >= 0 and occupant[q] == p * 8 + e
                assert s[core.TERRAIN + q] in (JUNGLE, WATER), f"explorer on {SQUARE_NAMES[q]}"
                standing[q] = (p, e)
                assert held[x].sum() <= 3
            else:
                assert q == -1 and not held[x].any()
    assert sorted(np.flatnonzero(occupant >= 0).tolist()) == sorted(standing)
    # boats: at a landing or in front of one player, who has that many explorers aboard
    at_landing = [int(b) for b in s[core.LANDING_BOAT:core.LANDING_BOAT + NUM_LANDINGS] if b >= 0]
    owners = s[core.BOAT_OWNER:core.BOAT_OWNER + NUM_BOATS]
    assert len(at_landing) == len(set(at_landing))
    for b in range(NUM_BOATS):
        assert (b in at_landing) != (owners[b] >= 0)
        assert loads[b].sum() <= BOAT_CAPACITY[b]
        if owners[b] < 0:
            assert not loads[b].any()
    for p in range(n):
        aboard = sum(1 for e in range(k) if s[core.EXPLORER_STATUS + _explorer(p, e)] == core.IN_BOAT)
        assert aboard == int((owners == p).sum())


def entry_squares(landing_name):
    return [SQUARE_NAMES[q] for q in LANDING_ENTRY_SQUARES[landing(landing_name)]]
