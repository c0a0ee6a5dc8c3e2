"""Rules tests for the plain-Python Mauna Kea reference (``maunakea_env/reference.py``).

Each test names the rulebook section it checks (``shared/rulebooks/maunakea-rulebook-en.txt``, basic
game); what the rulebook leaves open is read from ``shared/RULINGS.md`` and ``maunakea_env/RULES.md``.
Crafted positions are written straight into a ``ReferenceGame`` (terrain, explorers, artifacts, hands,
bag) and then played with ``step``.
"""
import random
from collections import Counter

import numpy as np
import pytest

from maunakea_env import board as B
from maunakea_env.reference import (
    BLACK, END_TURN, GRAY, NUM_ACTIONS, WHITE, ReferenceGame, Rng, board_action, drop_action,
    lay_action, move_action, pick_action, place_action, rotated, spend_action,
)
from pacific_common.rng import draw as core_draw
from pacific_common.rng import seed_rng

N, E, S, W = B.N, B.E, B.S, B.W


# ----------------------------------------------------------------------------------------------------
# Helpers
# ----------------------------------------------------------------------------------------------------
def sq(x, y):
    return B.square_index(x, y)


def field(name):
    return B.FIELD_INDEX[name]


def lava_tile(flow, shape, copy=0):
    """The island tile id of a lava tile of ``flow`` with ``shape`` (``copy``-th of that shape)."""
    ids = [B.FIRST_LAVA_TILE + i for i in range(B.NUM_LAVA_TILES)
           if B.LAVA_TILE_FLOW[i] == flow and B.LAVA_TILE_SHAPE[i] == shape]
    return ids[copy]


NORTH_FLOW, EAST_FLOW, SOUTH_FLOW, WEST_FLOW = range(4)


class FixedRng:
    """Stands in for the game's generator where a test needs a chosen draw."""

    def __init__(self, values):
        self.values = list(values)

    def draw(self, bound):
        v = self.values.pop(0)
        assert 0 <= v < bound
        return v


def started_game(n=4, seed=0):
    """A game after [Placing explorers] (first free starting space each time) and [Drawing tiles]."""
    g = ReferenceGame(n, seed=seed)
    while g.phase == "placement":
        g.step(g.legal_actions()[0])
    return g


def tiles_from_bag(g, points):
    """Terrain tiles from the bag worth ``points`` each (taken out of the bag)."""
    chosen = []
    for pts in points:
        t = min(t for t in g.bag if t < B.FIRST_LAVA_TILE and B.TERRAIN_TILE_POINTS[t] == pts)
        g.bag.remove(t)
        chosen.append(t)
    return chosen


def give_hand(g, p, points):
    """Replace player ``p``'s hand by tiles worth ``points`` (old hand back into the bag)."""
    g.bag.update(g.hands[p])
    g.hands[p] = tiles_from_bag(g, points)


def clear_hands(g):
    for p in range(g.num_players):
        g.bag.update(g.hands[p])
        g.hands[p] = []


def paint(g, squares_terrain):
    """Set terrain on squares and clear their artifacts."""
    for s, t in squares_terrain.items():
        g.terrain[s] = t
        g.artifacts[s] = [0, 0, 0]


def relocate_artifact(g, colour, square):
    """Move one artifact of ``colour`` from the lowest square holding one to ``square`` (None: out of
    the game's squares, for an artifact given to an explorer), so that the 25 stay conserved."""
    source = min(s for s in range(B.NUM_SQUARES) if g.artifacts[s][colour] > 0 and s != square)
    g.artifacts[source][colour] -= 1
    if square is not None:
        g.artifacts[square][colour] += 1


def put_explorer(g, p, e, square):
    g.explorers[p][e] = square
    g.explorer_status[p][e] = "island"


def take_off(g, p, e, status="lost"):
    g.explorers[p][e] = None
    g.explorer_status[p][e] = status
    g.carried[p][e] = [0, 0, 0]


def explorer_moves(g, p, e):
    return [a - move_action(e, 0) for a in g.legal_actions() if move_action(e, 0) <= a < move_action(e, 4)]


def draw_lava(g, tiles):
    """[Lava tiles] the player to act ends his (empty-handed) turn and draws exactly these lava tiles,
    one turn each: the rest of the bag is set aside while he draws."""
    for t in tiles:
        clear_hands(g)
        rest = g.bag - {t}
        g.bag = {t}
        g.step(END_TURN)
        g.bag |= rest


def tile_count(g):
    """Every one of the 118 square tiles is in exactly one place: bag, hands, board (on top or under
    lava) or removed from the game."""
    island = list(g.bag) + [t for h in g.hands for t in h] + list(g.removed)
    start = []
    for f in range(B.NUM_FIELDS):
        for item in [g.field_tile[f]] + g.covered[f]:
            if isinstance(item, tuple):
                (start if item[0] == "start" else island).append(item[1])
    return island, start


def check_invariants(g):
    island, start = tile_count(g)
    assert sorted(island) == list(range(B.NUM_ISLAND_TILES))
    assert sorted(start) == list(range(B.NUM_START_TILES))
    assert len(island) + len(start) == 118
    totals = [0, 0, 0]
    for s in range(B.NUM_SQUARES):
        for c in range(3):
            assert g.artifacts[s][c] >= 0
            totals[c] += g.artifacts[s][c]
    for p in range(g.num_players):
        for e in range(len(g.explorers[p])):
            assert sum(g.carried[p][e]) <= B.MAX_CARRIED
            for c in range(3):
                totals[c] += g.carried[p][e][c]
        for boat, load in g.boats_taken[p]:
            assert sum(load) <= B.BOAT_CAPACITY[boat]
            for c in range(3):
                totals[c] += load[c]
    for c in range(3):
        totals[c] += g.artifacts_removed[c]
    assert totals == [17, 7, 1]
    squares = []
    for p in range(g.num_players):
        for s, st in zip(g.explorers[p], g.explorer_status[p]):
            assert (s is not None) == (st == "island")
            if s is not None:
                assert B.MOVE_COST[g.terrain[s]] > 0, "explorer on an impassable square"
                squares.append(s)
            else:
                assert st in ("unplaced", "boat", "lost")
    assert len(squares) == len(set(squares)), "two explorers on one square"
    boats = [b for b in g.landing_boat if b is not None] + [b for p in range(g.num_players)
                                                            for b, _ in g.boats_taken[p]]
    assert sorted(boats) == list(range(8))
    for p in range(g.num_players):
        assert len(g.hands[p]) <= 5 and all(t < B.FIRST_LAVA_TILE for t in g.hands[p])
        assert sum(1 for st in g.explorer_status[p] if st == "boat") == len(g.boats_taken[p])
    assert g.pool >= 0


# ====================================================================================================
# Randomness (RULES.md Set-up: the game's own generator)
# ====================================================================================================
@pytest.mark.parametrize("seed", [0, 1, 7, 123456789, 2 ** 62 + 11])
def test_generator_equals_pacific_common_rng(seed):
    """RULES.md [Set-up]: every implementation deals from ``pacific_common.rng``."""
    state = np.array([seed_rng(seed)], dtype=np.int64)
    ours = Rng(seed)
    assert ours.state == int(state[0]) & ((1 << 64) - 1)
    for i in range(300):
        bound = (1, 2, 4, 24, 94, 1000, 2 ** 31 - 1)[i % 7]
        assert ours.draw(bound) == int(core_draw(state, 0, bound))


# ====================================================================================================
# Preparation of the Game, Set-up
# ====================================================================================================
@pytest.mark.parametrize("seed", [0, 3, 99])
def test_setup_24_start_tiles_dealt_turned_with_their_artifacts_17_white_7_gray_1_black(seed):
    """[Set-up] the 24 starting tiles lie on their 24 spaces, turned; each marking gets its artifact."""
    g = ReferenceGame(4, seed=seed)
    dealt = [g.field_tile[f] for f in B.START_TILE_SPACES.tolist()]
    assert all(d[0] == "start" for d in dealt)
    assert sorted(d[1] for d in dealt) == list(range(24))
    assert len({d[2] for d in dealt}) > 1                     # rotations are drawn, not all 0
    expected = [[0, 0, 0] for _ in range(B.NUM_SQUARES)]
    for f, (_, tile, rot) in zip(B.START_TILE_SPACES.tolist(), dealt):
        squares = B.FIELD_SQUARES[f].tolist()
        assert [g.terrain[s] for s in squares] == B.rotate_tile(B.START_TILE_SQUARES[tile], rot).tolist()
        for s, mark in zip(squares, B.rotate_tile(B.START_TILE_ARTIFACTS[tile], rot).tolist()):
            if mark:
                expected[s][mark - 1] += 1
    assert g.artifacts == expected
    assert [sum(a[c] for a in g.artifacts) for c in range(3)] == [17, 7, 1]
    # The rest of the board is as printed: no tiles on the 48 tile spaces.
    assert sum(1 for f in range(B.NUM_FIELDS) if g.field_tile[f] is None) == 48
    assert g.field_tile[B.VOLCANO_FIELD] == "volcano"
    # [Set-up] "one boat lies at each point"
    assert sorted(g.landing_boat) == list(range(8))


def replay_setup(seed, n):
    """RULES.md [Set-up], written out independently: per start-tile space the tile then its rotation,
    then the boats landing by landing, then the initial draw from the bag in increasing order,
    counter-clockwise from player_0, one tile per player and round, lava set aside."""
    rng = Rng(seed)
    undealt, start = list(range(24)), []
    for _ in range(24):
        tile = undealt.pop(rng.draw(len(undealt)))
        start.append(("start", tile, rng.draw(4)))
    boats = list(range(8))
    landing_boat = [boats.pop(rng.draw(len(boats))) for _ in range(8)]
    bag, hands, aside = set(range(94)), [[] for _ in range(n)], []
    pts = lambda p: sum(int(B.TERRAIN_TILE_POINTS[t]) for t in hands[p])
    while any(pts(p) < 5 for p in range(n)):
        for p in [(0 - i) % n for i in range(n)]:
            while pts(p) < 5:
                t = sorted(bag)[rng.draw(len(bag))]
                bag.remove(t)
                if t >= B.FIRST_LAVA_TILE:
                    aside.append(t)
                    continue
                hands[p].append(t)
                break
    return start, landing_boat, hands, bag | set(aside), aside, rng.state


@pytest.mark.parametrize("seed,n", [(0, 3), (5, 4), (2024, 2)])
def test_setup_draw_protocol_start_tiles_then_boats_then_bag(seed, n):
    """RULES.md [Set-up]: the exact order of draws, so that every implementation deals the same game."""
    g = ReferenceGame(n, seed=seed)
    start, landing_boat, hands, bag, _, state = replay_setup(seed, n)
    assert [g.field_tile[f] for f in B.START_TILE_SPACES.tolist()] == start
    assert g.landing_boat == landing_boat
    assert g.hands == [[] for _ in range(n)]           # [Drawing tiles] comes after the placement
    while g.phase == "placement":
        g.step(g.legal_actions()[0])
    assert g.hands == hands and g.bag == bag and g.rng.state == state


def test_drawing_tiles_lava_set_aside_the_same_player_draws_again():
    """[Drawing tiles] "If you draw a tile with a lava flow ..., you put it aside and draw another
    tile"; the lava tiles put aside are mixed back into the bag at the end.  Checked exactly on seeds
    whose initial draw meets lava."""
    seeds = [seed for seed in range(40) if replay_setup(seed, 4)[4]][:3]
    assert seeds, "no seed meets lava in the initial draw"
    for seed in seeds:
        _, _, hands, bag, aside, _ = replay_setup(seed, 4)
        g = started_game(4, seed)
        assert g.hands == hands and g.bag == bag and set(aside) <= g.bag
        assert all(t < B.FIRST_LAVA_TILE for h in g.hands for t in h)


def test_material_for_the_players_explorers_per_player():
    """[Material for the players] 5 explorers each with 2 players, 4 with 3, 3 with 4."""
    for n, k in ((2, 5), (3, 4), (4, 3)):
        g = ReferenceGame(n)
        assert g.phase == "placement" and g.to_act == 0
        assert [len(row) for row in g.explorers] == [k] * n
        assert all(st == "unplaced" for row in g.explorer_status for st in row)
    with pytest.raises(ValueError):
        ReferenceGame(5)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_placing_explorers_counter_clockwise_from_player_0_one_per_starting_space(n):
    """[Placing explorers] the starting player first, then counter-clockwise, one explorer at a time,
    on the 16 starting spaces, one explorer per space."""
    g = ReferenceGame(n, seed=n)
    k = B.EXPLORERS_PER_PLAYER[n]
    order = []
    while g.phase == "placement":
        legal = g.legal_actions()
        assert legal == sorted(place_action(s) for s in B.START_SQUARES.tolist()
                               if s not in g.occupied_squares())
        if order:
            taken = next(s for row in g.explorers for s in row if s is not None)
            with pytest.raises(ValueError, match="illegal"):
                g.step(place_action(taken))
        order.append((g.to_act, legal[-1] - place_action(0)))
        g.step(legal[-1])
    assert [p for p, _ in order] == [(0 - i) % n for i in range(n)] * k
    # Explorer e of a player is the e-th he placed (RULES.md Action encoding).
    for p in range(n):
        assert g.explorers[p] == [s for q, s in order if q == p]


@pytest.mark.parametrize("seed", range(6))
def test_drawing_tiles_until_5_points_lava_set_aside_and_returned(seed):
    """[Drawing tiles] each player draws until his tiles show 5 or more points; lava tiles drawn are
    put aside and mixed back into the bag afterwards."""
    n = 4
    g = started_game(n, seed)
    for p in range(n):
        hand = g.hands[p]
        assert all(t < B.FIRST_LAVA_TILE for t in hand)
        assert g.hand_points(p) >= 5
        assert g.hand_points(p) - B.TERRAIN_TILE_POINTS[hand[-1]] < 5   # stopped as soon as 5 reached
    assert all(B.FIRST_LAVA_TILE + i in g.bag for i in range(24))       # lava went back
    assert len(g.bag) + sum(len(h) for h in g.hands) == 94
    check_invariants(g)


def play_out_turn(g):
    """Spend every tile in hand, then end the turn."""
    while g.hands[g.to_act]:
        g.step(spend_action(0))
    g.step(END_TURN)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_beginning_the_game_last_placer_player_1_starts_then_clockwise(n):
    """[Beginning the game] the last player to place an explorer begins; then clockwise."""
    g = started_game(n)
    assert g.phase == "turn" and g.to_act == 1 and g.turns == 0
    seen = []
    for _ in range(2 * n):
        seen.append(g.to_act)
        play_out_turn(g)
    assert seen == [(1 + i) % n for i in range(2 * n)]
    assert g.turns == 2 * n


# ====================================================================================================
# Moving explorers
# ====================================================================================================
def test_illustrated_move_water_water_jungle_jungle_takes_white_artifact_then_boards():
    """[Reaching the boats] illustration: 2 points (into water) + 2 (into water) + 1 (into jungle) + 1
    (into jungle); the explorer takes the white artifact on the way for no extra point, then boards
    from one of the boat's neighbouring spaces for 1 point."""
    g = started_game(4)
    p = g.to_act
    start = sq(2, 4)
    path = [(sq(2, 3), B.WATER), (sq(2, 2), B.WATER), (sq(2, 1), B.JUNGLE), (sq(2, 0), B.JUNGLE)]
    paint(g, {start: B.JUNGLE, **dict(path)})
    g.artifacts[sq(2, 1)] = [1, 0, 0]
    put_explorer(g, p, 0, start)
    give_hand(g, p, [3, 3, 1])
    g.step(spend_action(0))
    g.step(spend_action(0))
    assert g.pool == 6 and g.hands[p] and END_TURN not in g.legal_actions()
    costs = []
    for square, _ in path:
        before = g.pool
        g.step(move_action(0, N))
        costs.append(before - g.pool)
        assert g.explorers[p][0] == square
        if square == sq(2, 1):
            g.step(pick_action(0, WHITE))                 # free
    assert costs == [2, 2, 1, 1] and g.pool == 0 and g.carried[p][0] == [1, 0, 0]
    assert sq(2, 0) in B.LANDING_ENTRY_SQUARES[0].tolist()
    assert board_action(0, 0) not in g.legal_actions()   # no point left
    g.step(spend_action(0))
    g.step(board_action(0, 0))
    assert g.pool == 0 and g.explorer_status[p][0] == "boat" and g.landing_boat[0] is None


def test_movement_directions_never_onto_mountain_lava_volcano_no_tile_explorer_or_off_board():
    """[Movement directions] not onto lava or mountain, nor a space without a tile, nor onto another
    explorer; RULES.md: nor the volcano, nor off the board."""
    g = started_game(2)
    p = g.to_act
    here = sq(0, 10)                                   # on the west edge: west is off the board
    paint(g, {here: B.JUNGLE, sq(0, 9): B.MOUNTAIN, sq(1, 10): B.LAVA, sq(0, 11): B.NO_TILE})
    put_explorer(g, p, 0, here)
    clear_hands(g)
    g.pool = 5
    assert explorer_moves(g, p, 0) == []
    g.terrain[sq(1, 10)] = B.VOLCANO
    assert explorer_moves(g, p, 0) == []
    g.terrain[sq(0, 9)] = B.JUNGLE
    assert explorer_moves(g, p, 0) == [N]
    put_explorer(g, 1 - p, 0, sq(0, 9))                # another player's explorer
    assert explorer_moves(g, p, 0) == []
    with pytest.raises(ValueError, match="illegal"):
        g.step(move_action(0, N))
    with pytest.raises(ValueError, match="illegal"):
        g.step(move_action(0, W))


def test_movement_costs_not_enough_points():
    """[Movement costs] 1 point into jungle, 2 into water; a move needs the points in the pool."""
    g = started_game(2)
    p = g.to_act
    here = sq(0, 10)
    paint(g, {here: B.JUNGLE, sq(0, 9): B.WATER, sq(1, 10): B.JUNGLE, sq(0, 11): B.MOUNTAIN})
    put_explorer(g, p, 0, here)
    clear_hands(g)
    g.pool = 0
    assert explorer_moves(g, p, 0) == []
    g.pool = 1
    assert explorer_moves(g, p, 0) == [E]
    g.pool = 2
    assert explorer_moves(g, p, 0) == [N, E]
    g.step(move_action(0, N))
    assert g.pool == 0 and g.explorers[p][0] == sq(0, 9)


# ====================================================================================================
# Collecting and taking artifacts, Reaching the boats
# ====================================================================================================
def test_collecting_artifacts_at_most_3_carried_drop_any_time_free():
    """[Collecting and taking artifacts] no more than 3 carried; an artifact may be left anytime;
    neither costs points."""
    g = started_game(2)
    p = g.to_act
    here = sq(0, 10)
    paint(g, {here: B.JUNGLE})
    g.artifacts[here] = [3, 1, 0]
    put_explorer(g, p, 0, here)
    clear_hands(g)
    g.pool = 0
    g.step(pick_action(0, WHITE))
    g.step(pick_action(0, GRAY))
    g.step(pick_action(0, WHITE))
    assert g.carried[p][0] == [2, 1, 0] and g.artifacts[here] == [1, 0, 0]
    legal = g.legal_actions()
    assert pick_action(0, WHITE) not in legal and drop_action(0, GRAY) in legal
    with pytest.raises(ValueError, match="illegal"):
        g.step(pick_action(0, WHITE))
    g.step(drop_action(0, GRAY))
    assert g.carried[p][0] == [2, 0, 0] and g.artifacts[here] == [1, 1, 0] and g.pool == 0
    assert pick_action(0, BLACK) not in g.legal_actions()           # nothing black here


def test_reaching_the_boats_too_many_artifacts_least_valuable_left_behind_boat_to_player():
    """[Reaching the boats] 1 point from one of the 4 neighbouring spaces; what does not fit stays on
    the space (RULES.md: the most valuable go aboard); the boat goes in front of the player."""
    g = started_game(2)
    p = g.to_act
    landing = 2
    entry = B.LANDING_ENTRY_SQUARES[landing].tolist()
    paint(g, {s: B.JUNGLE for s in entry})
    boat = B.BOAT_CAPACITY.tolist().index(2)                 # a boat with 2 places
    g.landing_boat[g.landing_boat.index(boat)] = g.landing_boat[landing]
    g.landing_boat[landing] = boat
    put_explorer(g, p, 0, entry[1])
    g.carried[p][0] = [2, 1, 0]                            # white, white, gray
    clear_hands(g)
    g.pool = 0
    assert board_action(0, landing) not in g.legal_actions()
    g.pool = 1
    # Only from the landing's own entry squares, only for that landing.
    assert [a for a in g.legal_actions() if a >= board_action(0, 0)] == [board_action(0, landing), END_TURN]
    g.step(board_action(0, landing))
    assert g.pool == 0
    assert g.boats_taken[p] == [(boat, [1, 1, 0])]
    assert g.artifacts[entry[1]] == [1, 0, 0]             # one white left on the space
    assert g.explorers[p][0] is None and g.explorer_status[p][0] == "boat" and g.carried[p][0] == [0, 0, 0]
    assert g.landing_boat[landing] is None and sum(b is not None for b in g.landing_boat) == 7
    # The boat is gone: a second explorer on the same landing cannot board.
    put_explorer(g, p, 1, entry[2])
    g.pool = 1
    assert not any(board_action(1, l) in g.legal_actions() for l in range(8))
    # White, gray and black into a boat with 1 place: the black goes aboard.
    landing = 5
    entry = B.LANDING_ENTRY_SQUARES[landing].tolist()
    paint(g, {entry[3]: B.JUNGLE})
    one = B.BOAT_CAPACITY.tolist().index(1)
    g.landing_boat[g.landing_boat.index(one)] = g.landing_boat[landing]
    g.landing_boat[landing] = one
    put_explorer(g, p, 2, entry[3])
    g.carried[p][2] = [1, 1, 1]
    g.step(board_action(2, landing))
    assert g.boats_taken[p][-1] == (one, [0, 0, 1]) and g.artifacts[entry[3]] == [1, 1, 0]


# ====================================================================================================
# Playing tiles, Ending your turn
# ====================================================================================================
def test_playing_tiles_all_tiles_played_before_ending_spent_tile_back_to_bag_points_lost():
    """[Playing tiles] "you have to play all your tiles"; [Using movement points] a used tile goes back
    into the bag; [Moving explorers] "You don't have to use up all points" (the rest is lost)."""
    g = started_game(2, seed=4)
    p = g.to_act
    give_hand(g, p, [3, 2])
    t0, t1 = g.hands[p]
    assert END_TURN not in g.legal_actions()
    with pytest.raises(ValueError, match="illegal"):
        g.step(END_TURN)
    g.step(spend_action(1))
    assert g.pool == 2 and t1 in g.bag and g.hands[p] == [t0]
    # [Expanding the terrain] any empty space, 4 orientations; the points do not count.
    f = field("E3")
    assert g.field_tile[f] is None
    legal = g.legal_actions()
    assert all(lay_action(0, f, r) in legal for r in range(4))
    for taken in ("F3", "E5", "D4", "E4"):                 # start tile, volcano, start field, lava exit
        assert lay_action(0, field(taken), 0) not in legal
    g.step(lay_action(0, f, 1))
    assert g.field_tile[f] == ("terrain", t0, 1) and g.pool == 2 and t0 not in g.bag
    assert [g.terrain[s] for s in B.FIELD_SQUARES[f]] == rotated(B.TERRAIN_TILE_SQUARES[t0].tolist(), 1)
    assert g.legal_actions()[-1] == END_TURN
    g.step(END_TURN)
    assert g.pool == 0 and g.to_act == 1 - p
    assert g.hand_points(p) >= 5                           # [Drawing other tiles]


def test_drawing_other_tiles_lava_is_placed_at_once_and_drawing_goes_on():
    """[Lava tiles] a lava tile drawn is laid on the board at once; then drawing goes on to 5 points."""
    g = started_game(2, seed=1)
    p = g.to_act
    clear_hands(g)
    lava = lava_tile(NORTH_FLOW, B.STRAIGHT)
    three = tiles_from_bag(g, [3, 3])
    g.bag = {lava, *three}
    g.rng = FixedRng([2, 0, 0])                              # lava first (largest id), then terrain
    g.step(END_TURN)
    assert g.field_tile[field("E3")] == ("lava", lava)
    assert sorted(g.hands[p]) == sorted(three) and not g.bag


# ====================================================================================================
# Volcanic eruption
# ====================================================================================================
def test_volcanic_eruption_lava_covers_explorer_and_artifacts_removed_from_the_game():
    """[Volcanic eruption] example: the flow reaches 2 artifacts and 1 explorer; they are removed from
    the game and the lava tile lies on top of the terrain tile."""
    g = started_game(4)
    f = field("E3")
    terrain = tiles_from_bag(g, [3])[0]
    g.field_tile[f] = ("terrain", terrain, 0)
    squares = B.FIELD_SQUARES[f].tolist()
    paint(g, {s: B.JUNGLE for s in squares})
    relocate_artifact(g, WHITE, squares[0])
    relocate_artifact(g, GRAY, squares[3])
    victim = 2
    put_explorer(g, victim, 0, squares[1])
    g.carried[victim][0] = [1, 0, 0]
    relocate_artifact(g, WHITE, None)                          # the one he carries
    lava = lava_tile(NORTH_FLOW, B.STRAIGHT)
    draw_lava(g, [lava])
    assert g.field_tile[f] == ("lava", lava) and g.covered[f] == [("terrain", terrain, 0)]
    assert all(g.terrain[s] == B.LAVA for s in squares)
    assert all(g.artifacts[s] == [0, 0, 0] for s in squares)
    assert g.explorer_status[victim][0] == "lost" and g.explorers[victim][0] is None
    assert g.carried[victim][0] == [0, 0, 0] and g.artifacts_removed == [2, 1, 0]
    assert g.lava_branches[NORTH_FLOW] == [{"end_field": f, "direction": N, "length": 1, "open": True}]
    assert not g.end_triggered                                # victim still has explorers
    check_invariants(g)


def test_volcanic_eruption_tunnelling_under_another_flow():
    """[Volcanic eruption] "If another lava tile is already lying there ..., the new tile is placed one
    space further in the direction of the flow (the new flow 'tunnels under' the existing one)."""
    g = started_game(4)
    # North flow: E3 straight, E2 left bend (now flowing west), D2, C2 straight.
    north = [lava_tile(NORTH_FLOW, B.STRAIGHT, 0), lava_tile(NORTH_FLOW, B.LEFT_BEND),
             lava_tile(NORTH_FLOW, B.STRAIGHT, 1), lava_tile(NORTH_FLOW, B.STRAIGHT, 2)]
    draw_lava(g, north)
    assert [g.field_tile[field(n)] for n in ("E3", "E2", "D2", "C2")] == [("lava", t) for t in north]
    # West flow: C5 right bend (now flowing north), C4, C3, then C2 is lava: tunnel under to C1.
    west = [lava_tile(WEST_FLOW, B.RIGHT_BEND), lava_tile(WEST_FLOW, B.STRAIGHT, 0),
            lava_tile(WEST_FLOW, B.STRAIGHT, 1), lava_tile(WEST_FLOW, B.STRAIGHT, 2)]
    draw_lava(g, west)
    assert [g.field_tile[field(n)] for n in ("C5", "C4", "C3")] == [("lava", t) for t in west[:3]]
    assert g.field_tile[field("C2")] == ("lava", north[3])
    assert g.field_tile[field("C1")] == ("lava", west[3])
    assert g.lava_branches[WEST_FLOW] == [{"end_field": field("C1"), "direction": N, "length": 4,
                                           "open": True}]
    check_invariants(g)


def test_volcanic_eruption_tunnelling_under_a_printed_exit_field_and_the_volcano():
    """[Volcanic eruption] the printed lava exits and the volcano hold lava too (RULES.md): a flow
    meeting them tunnels under, and a start field in the way is covered."""
    g = started_game(4)
    # North flow: E3 right bend (east), F3 fork (north • / south), F2 (•, tie), F4 (south branch,
    # shorter: covers the start field), F1 (•, tie), then the south branch again (shorter): the left
    # bend's target F5 is the printed east exit, so it lies on F6 (a start field) and turns east.
    tiles = [lava_tile(NORTH_FLOW, B.RIGHT_BEND), lava_tile(NORTH_FLOW, B.FORK),
             lava_tile(NORTH_FLOW, B.STRAIGHT, 0), lava_tile(NORTH_FLOW, B.STRAIGHT, 1),
             lava_tile(NORTH_FLOW, B.STRAIGHT, 2), lava_tile(NORTH_FLOW, B.LEFT_BEND)]
    lost_before = sum(st == "lost" for row in g.explorer_status for st in row)
    draw_lava(g, tiles)
    assert [g.field_tile[field(n)] for n in ("E3", "F3", "F2", "F4", "F1", "F6")] == \
        [("lava", t) for t in tiles]
    assert g.covered[field("F4")] == ["start field"] and g.covered[field("F6")] == ["start field"]
    assert g.covered[field("F3")][0][0] == "start"
    assert g.field_tile[field("F5")] == "lava exit"
    assert g.lava_branches[NORTH_FLOW] == [
        {"end_field": field("F1"), "direction": N, "length": 2, "open": True},
        {"end_field": field("F6"), "direction": E, "length": 2, "open": True}]
    # The explorers standing on start fields F4 and F6 were lost: all three of player_2's, which
    # triggers the end [End of the Game].
    covered = set(B.FIELD_SQUARES[[field("F4"), field("F6")]].ravel().tolist())
    lost = sum(st == "lost" for row in g.explorer_status for st in row)
    assert lost - lost_before == len(covered & set(started_game(4).occupied_squares())) == 6
    assert g.explorer_status[2] == ["lost"] * 3 and g.end_triggered
    check_invariants(g)
    # The volcano: a branch crafted to point south from E3 passes under E4 (north exit), E5 (the
    # volcano) and E6 (south exit), and the tile lies on E7.
    g2 = started_game(4)
    g2.lava_branches[NORTH_FLOW][0].update(end_field=field("E3"), direction=S)
    straight = lava_tile(NORTH_FLOW, B.STRAIGHT, 0)
    draw_lava(g2, [straight])
    assert g2.field_tile[field("E7")] == ("lava", straight)
    assert [g2.field_tile[field(n)] for n in ("E3", "E4", "E5", "E6")] == [None, "lava exit", "volcano",
                                                                          "lava exit"]
    check_invariants(g2)


def test_volcanic_eruption_fork_shorter_branch_first_dot_branch_on_ties():
    """[Volcanic eruption] after a fork, the branch with fewer tiles is extended; when both are equally
    long, the branch with the "•" (the left one, RULES.md) first."""
    g = started_game(4)
    fork = lava_tile(NORTH_FLOW, B.FORK)
    draw_lava(g, [fork])                                       # E3: branches west (•) and east
    assert g.lava_branches[NORTH_FLOW] == [
        {"end_field": field("E3"), "direction": W, "length": 0, "open": True},
        {"end_field": field("E3"), "direction": E, "length": 0, "open": True}]
    s0, s1, s2 = (lava_tile(NORTH_FLOW, B.STRAIGHT, i) for i in range(3))
    draw_lava(g, [s0])                                         # tie 0-0: the • branch -> D3
    assert g.field_tile[field("D3")] == ("lava", s0)
    draw_lava(g, [s1])                                         # 1-0: the shorter (east) -> F3
    assert g.field_tile[field("F3")] == ("lava", s1)
    draw_lava(g, [s2])                                         # tie 1-1: the • branch -> C3
    assert g.field_tile[field("C3")] == ("lava", s2)
    left_bend = lava_tile(NORTH_FLOW, B.LEFT_BEND)
    draw_lava(g, [left_bend])                                  # 2-1: east -> G3, turning north
    assert g.field_tile[field("G3")] == ("lava", left_bend)
    assert g.lava_branches[NORTH_FLOW][1] == {"end_field": field("G3"), "direction": N, "length": 2,
                                              "open": True}
    check_invariants(g)


def test_volcanic_eruption_lava_leaving_the_board_is_removed_and_branch_closed():
    """[Volcanic eruption] "If a lava tile cannot be placed anymore (e.g., at the edge of the
    gameboard), it is removed from the game"; the branch is closed (RULES.md)."""
    g = started_game(4)
    straights = [lava_tile(NORTH_FLOW, B.STRAIGHT, i) for i in range(3)]
    draw_lava(g, straights)                                    # E3, E2, E1
    assert [g.field_tile[field(n)] for n in ("E3", "E2", "E1")] == [("lava", t) for t in straights]
    bend = lava_tile(NORTH_FLOW, B.LEFT_BEND)
    draw_lava(g, [bend])                                       # beyond E1: off the board
    assert g.removed == [bend] and g.lava_branches[NORTH_FLOW][0]["open"] is False
    fork = lava_tile(NORTH_FLOW, B.FORK)
    draw_lava(g, [fork])                                       # no open branch: removed too
    assert g.removed == [bend, fork]
    check_invariants(g)


# ====================================================================================================
# End of the Game, Scoring, Resolving ties
# ====================================================================================================
def test_end_of_the_game_last_explorer_boards_turn_finishes_others_one_more_turn_without_drawing():
    """[End of the Game] a player with no explorer left ends the game: the player whose turn it is
    plays all his tiles, then every other player one more turn (RULES.md: nobody draws)."""
    n = 3
    g = started_game(n, seed=2)
    p = g.to_act
    assert p == 1
    entry = B.LANDING_ENTRY_SQUARES[0].tolist()
    paint(g, {entry[0]: B.JUNGLE})
    for e in range(1, 4):
        take_off(g, p, e)
    put_explorer(g, p, 0, entry[0])
    give_hand(g, p, [1, 2])
    g.step(spend_action(0))
    g.step(board_action(0, 0))
    assert g.end_triggered and g.final_turns_left == 2 and g.phase == "turn" and g.to_act == p
    assert END_TURN not in g.legal_actions()                   # he still plays his tiles
    g.step(spend_action(0))
    bag = set(g.bag)
    g.step(END_TURN)
    assert g.hands[p] == [] and g.bag == bag                   # no drawing
    for q in (2, 0):
        assert g.to_act == q and g.phase == "turn" and g.hands[q]
        play_out_turn(g)
        assert g.hands[q] == []                                # no drawing
    assert g.phase == "over" and g.terminated and not g.truncated and g.to_act is None
    assert g.turns == 3
    assert g.scores()[p] == 3 + 0 - B.BOAT_CAPACITY[g.boats_taken[p][0][0]]
    with pytest.raises(ValueError, match="over"):
        g.step(END_TURN)
    assert g.legal_actions() == []


def test_end_of_the_game_lava_takes_last_explorer_while_drawing_the_player_plays_his_tiles():
    """[End of the Game] "The player whose turn it is may still play all tiles that he has lying face
    up in front of him", with RULINGS.md (Ending): when lava takes a player's last explorer while the
    player to act draws, his drawing stops, his turn goes on with the tiles drawn so far; then the
    others play one more turn."""
    g = started_game(2, seed=3)
    p = g.to_act                                               # player_1
    victim = 1 - p
    f = field("E3")
    g.field_tile[f] = ("terrain", tiles_from_bag(g, [3])[0], 0)
    squares = B.FIELD_SQUARES[f].tolist()
    paint(g, {s: B.JUNGLE for s in squares})
    for e in range(1, 5):
        take_off(g, victim, e)
    put_explorer(g, victim, 0, squares[2])
    clear_hands(g)
    lava = lava_tile(NORTH_FLOW, B.STRAIGHT)
    drawn, spare = tiles_from_bag(g, [1, 3])
    g.bag = {drawn, spare, lava}
    g.rng = FixedRng([sorted(g.bag).index(drawn), 1])             # the 1-point tile, then the lava
    turns = g.turns
    g.step(END_TURN)
    assert g.explorer_status[victim][0] == "lost" and g.end_triggered and g.end_reason == "no explorer left"
    assert g.bag == {spare} and g.hands[p] == [drawn]          # drawing stopped at the lava
    assert g.to_act == p and g.turns == turns and g.final_turns_left == 1   # his turn goes on
    assert END_TURN not in g.legal_actions()                   # the drawn tile must be played
    g.step(spend_action(0))
    g.step(END_TURN)
    assert g.to_act == victim and g.final_turns_left == 0 and g.turns == turns + 1
    g.step(END_TURN)
    assert g.phase == "over" and g.terminated and g.bag == {spare, drawn}    # the spent tile is back
    # Nobody scored: the tie goes to the player with more explorers on the island.
    assert g.scores() == [0, 0] and g.winners() == [p]
    assert g.rewards()[p] == 1.0 and g.rewards()[victim] == -1.0


def board_with(g, p, e, capacity, carried):
    """Board a boat of ``capacity`` places from landing 0 with explorer ``e`` carrying ``carried``."""
    entry = B.LANDING_ENTRY_SQUARES[0].tolist()
    paint(g, {entry[0]: B.JUNGLE})
    boat = next(b for b in range(8) if B.BOAT_CAPACITY[b] == capacity and b not in
                [x for q in range(g.num_players) for x, _ in g.boats_taken[q]])
    if boat in g.landing_boat:
        g.landing_boat[g.landing_boat.index(boat)] = g.landing_boat[0]
    g.landing_boat[0] = boat
    g.to_act = p
    put_explorer(g, p, e, entry[0])
    g.carried[p][e] = list(carried)
    g.pool = 1
    g.step(board_action(e, 0))
    return boat


def test_scoring_examples_7_and_4_points():
    """[Scoring] examples: explorer 3 + white 1 + white 1 + gray 2 = 7; a boat without the gray:
    explorer 3 + white 1 + white 1 - 1 for the empty place = 4."""
    g = started_game(2)
    p = g.to_act
    clear_hands(g)
    board_with(g, p, 0, 3, [2, 1, 0])
    assert g.scores()[p] == 7
    board_with(g, p, 1, 3, [2, 0, 0])
    assert g.scores()[p] == 7 + 4
    board_with(g, p, 2, 1, [0, 0, 1])                           # black 3
    assert g.scores()[p] == 7 + 4 + 6
    assert g.scores()[1 - p] == 0


def finished(g):
    g.phase, g.to_act, g.terminated = "over", None, True
    return g


def test_resolving_ties_more_explorers_on_island_then_more_artifacts_carried_then_draw():
    """[Resolving ties] tied scores: more explorers on the island wins; then more artifacts carried by
    the explorers on the island; still tied: a draw."""
    g = started_game(3)
    clear_hands(g)
    for q in range(3):
        board_with(g, q, 0, 2, [1, 1, 0])                     # 3 + 1 + 2 = 6 each
    assert g.scores() == [6, 6, 6]
    take_off(g, 0, 1)                                          # player_0: 2 explorers left
    # players 1 and 2: 3 explorers left; player_2 carries more.
    g.carried[1][1] = [1, 0, 0]
    g.carried[2][1] = [1, 0, 0]
    g.carried[2][2] = [0, 1, 0]
    finished(g)
    assert g.winners() == [2]
    assert g.rewards() == [-1.0, -1.0, 1.0]
    g.carried[1][2] = [0, 0, 1]                                # now 2 carried each: a draw between 1 and 2
    assert g.winners() == [1, 2]
    assert g.rewards() == [-1.0, 0.0, 0.0]
    assert g.rewards("score") == [6.0, 6.0, 6.0] and g.rewards("margin") == [0.0, 0.0, 0.0]
    # Only the explorers on the island count: a lost explorer's (cleared) load does not.
    take_off(g, 1, 2)
    assert g.winners() == [2]


def test_resolving_ties_full_draw():
    """[Resolving ties] "If there is still more than one player with the same result, the game ends
    as a draw" -- between all players here."""
    g = started_game(2)
    clear_hands(g)
    board_with(g, 0, 0, 3, [1, 1, 1])
    board_with(g, 1, 0, 3, [0, 3, 0])
    assert g.scores() == [3 + 6, 3 + 6]
    finished(g)
    assert g.winners() == [0, 1]
    assert g.rewards() == [0.0, 0.0]


def test_max_turns_truncates_with_rewards_0():
    """RULES.md: ``max_turns`` player turns truncate the game; rewards 0."""
    g = ReferenceGame(2, max_turns=3, seed=0)
    while g.phase == "placement":
        g.step(g.legal_actions()[0])
    clear_hands(g)
    g.bag = set()
    for _ in range(3):
        g.step(END_TURN)
    assert g.phase == "over" and g.truncated and not g.terminated and g.turns == 3
    for mode in ("win_loss", "score", "margin"):
        assert g.rewards(mode) == [0.0, 0.0]
    with pytest.raises(ValueError):
        g.step(END_TURN)
    with pytest.raises(ValueError):
        g.rewards("points")


# ====================================================================================================
# Random play: conservation and board invariants
# ====================================================================================================
def random_game(seed, n, max_turns, check=True):
    g = ReferenceGame(n, max_turns=max_turns, seed=seed)
    rnd = random.Random(seed)
    steps = 0
    while g.phase != "over":
        legal = g.legal_actions()
        assert legal and legal == sorted(set(legal)) and 0 <= legal[0] and legal[-1] < NUM_ACTIONS
        g.step(rnd.choice(legal))
        steps += 1
        if check and (steps % 3 == 0 or g.phase == "over"):
            check_invariants(g)
    return g


def test_random_games_conserve_tiles_and_artifacts_one_explorer_per_square():
    """[Game Materials] 118 tiles and 25 artifacts are conserved through random legal play (uniform
    over the legal actions, seeded); one explorer per space, never on an impassable square."""
    outcomes = Counter()
    for seed in range(240):
        g = random_game(seed, 2 + seed % 3, max_turns=24)
        outcomes["terminated" if g.terminated else "truncated"] += 1
        if g.terminated:   # [End of the Game], or RULINGS.md / RULES.md: an island where it cannot come
            assert any(not g.on_island(p) for p in range(g.num_players)) or g.end_reason in ("settled",
                                                                                           "walled in")
    assert outcomes["truncated"] > 0


def test_random_games_reach_the_boats_and_end():
    """[Reaching the boats] uniform random play reaches a boat in most full-length games that no
    explorer walled in cuts short (RULES.md "Settled end"), and games end by the rules [End of the
    Game], some because an explorer of every player is walled in."""
    boarded = played_on = terminated = walled_in = 0
    games = 24
    for seed in range(1000, 1000 + games):
        g = random_game(seed, 2 + seed % 3, max_turns=300, check=False)
        check_invariants(g)
        if g.end_reason not in ("settled", "walled in"):
            played_on += 1
            boarded += any(g.boats_taken[p] for p in range(g.num_players))
        terminated += g.terminated
        walled_in += g.end_reason == "walled in"
        if g.terminated:
            assert g.final_turns_left == 0 and g.end_triggered
    assert boarded >= played_on * 2 // 3, f"boats reached in only {boarded} of {played_on} games"
    assert terminated > walled_in >= 1
