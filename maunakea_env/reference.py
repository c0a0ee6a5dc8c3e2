"""Mauna Kea (basic game and rules for advanced players) in slow, plain Python: the rules as a second,
independent implementation.

This module follows the rulebook (``shared/rulebooks/maunakea-rulebook-en.txt``), ``shared/RULINGS.md``
and ``maunakea_env/RULES.md`` step by step, section by section, and was written without reading the
Numba core's rules code (``maunakea_env/core.py``).  The two are meant to be played against each
other: a rule misread in either shows up as a disagreement.  Speed is no aim here; every rule is spelt
out where the rulebook states it.

Only the component data (board, tiles, boats) comes from ``maunakea_env/board.py``; it is turned into
plain Python lists below so that nothing depends on numpy semantics.

Actions (``Discrete(2040)``, shared with the core, RULES.md "Action encoding"):

- ``0 .. 323``      placement: put an explorer on square ``a``;
- ``324 .. 1943``   lay hand tile ``h`` on field ``f`` turned ``r``: ``324 + 4 * (81 * h + f) + r``;
- ``1944 .. 1948``  spend hand tile ``a - 1944`` for its movement points;
- ``1949 .. 1968``  move explorer ``e`` one square in direction ``d`` (N, E, S, W): ``1949 + 4 * e + d``;
- ``1969 .. 1983``  pick up an artifact of colour ``c`` (white, gray, black): ``1969 + 3 * e + c``;
- ``1984 .. 1998``  drop an artifact of colour ``c``: ``1984 + 3 * e + c``;
- ``1999 .. 2038``  board the boat at landing ``l``: ``1999 + 8 * e + l``;
- ``2039``          end the turn.

Explorer ``e`` is the player's ``e``-th explorer in placement order.  Artifact colours are indexed
``c = 0, 1, 2`` for white, gray, black (``board.WHITE - 1`` ...), in ``artifacts``, ``carried`` and boat
loads alike.

With ``variant="advanced"`` ([Rules for Advanced Players], RULES.md "Rules for advanced players") the
game cards come into play and the actions are ``Discrete(3052)``: the 2040 above and

- ``2040 .. 2057``  set-up: remove a dealt card of kind ``a - 2040``;
- ``2058 .. 2072``  play jungle / water / mountain movement (``k`` = 0, 1, 2) with explorer ``e``:
  ``2058 + 5 * k + e``;
- ``2073 .. 2396``  the movement card's destination square ``a - 2073``;
- ``2397 .. 2401``  play helicopter rescue on explorer ``a - 2397``;
- ``2402 .. 2725``  play earthquake: turn the tile on field ``f`` to rotation ``r``: ``2402 + 4 * f + r``;
- ``2726``, ``2727`` after an earthquake: draw a tile from the bag / do not draw;
- ``2728 .. 3051``  lay the tile drawn after an earthquake on field ``f`` turned ``r``: ``2728 + 4 * f + r``.

Card kinds are numbered as in ``board.CARD_KIND_NAMES`` (0 - 6 artifact sets, 7 two explorers saved,
8 no deduction, 9 - 12 boat of a colour, 13 jungle, 14 water, 15 mountain movement, 16 earthquake,
17 helicopter rescue).
"""
from pacific_common.checked import integer, whole_number
from pacific_common.options import SEED_LIMIT, check_options

from . import board as B

# ----------------------------------------------------------------------------------------------------
# Component data as plain Python
# ----------------------------------------------------------------------------------------------------
NUM_SQUARES = B.NUM_SQUARES
NUM_FIELDS = B.NUM_FIELDS
NUM_LANDINGS = B.NUM_LANDINGS
NUM_BOATS = B.NUM_BOATS
NUM_ISLAND_TILES = B.NUM_ISLAND_TILES
FIRST_LAVA_TILE = B.FIRST_LAVA_TILE
NUM_COLOURS = 3                       # white, gray, black
WHITE, GRAY, BLACK = 0, 1, 2          # artifact colour indices used here (board codes minus one)

_SQUARE_NEIGHBOURS = B.SQUARE_NEIGHBOURS.tolist()
_FIELD_NEIGHBOURS = B.FIELD_NEIGHBOURS.tolist()
_FIELD_SQUARES = B.FIELD_SQUARES.tolist()
_SQUARE_FIELD = B.SQUARE_FIELD.tolist()
_SQUARE_LANDING = B.SQUARE_LANDING.tolist()
_MOVE_COST = B.MOVE_COST.tolist()
_ROTATION_SOURCE = B.TILE_ROTATION_SOURCE.tolist()
_START_TILE_SPACES = B.START_TILE_SPACES.tolist()
_START_TILE_SQUARES = B.START_TILE_SQUARES.tolist()
_START_TILE_ARTIFACTS = B.START_TILE_ARTIFACTS.tolist()
_TERRAIN_TILE_SQUARES = B.TERRAIN_TILE_SQUARES.tolist()
_TERRAIN_TILE_POINTS = B.TERRAIN_TILE_POINTS.tolist()
_LAVA_TILE_FLOW = B.LAVA_TILE_FLOW.tolist()
_LAVA_TILE_SHAPE = B.LAVA_TILE_SHAPE.tolist()
_LAVA_TILE_DOT_BRANCH = B.LAVA_TILE_DOT_BRANCH.tolist()
_LAVA_SHAPE_EXIT_TURNS = B.LAVA_SHAPE_EXIT_TURNS.tolist()
_LAVA_FLOW_EXIT_FIELD = B.LAVA_FLOW_EXIT_FIELD.tolist()
_LAVA_FLOW_DIRECTION = B.LAVA_FLOW_DIRECTION.tolist()
_BOAT_CAPACITY = B.BOAT_CAPACITY.tolist()
_INITIAL_TERRAIN = B.INITIAL_TERRAIN.tolist()
_IS_TILE_FIELD = B.IS_TILE_FIELD.tolist()
_TILE_FIELDS = [f for f in range(NUM_FIELDS) if _IS_TILE_FIELD[f]]
_START_SQUARES = B.START_SQUARES.tolist()
_ARTIFACT_POINTS = B.ARTIFACT_POINTS.tolist()[1:]      # per colour index: white 1, gray 2, black 3

# What a printed field shows in ``field_tile`` (fields that never take a tile, RULES.md Components).
PRINTED_MARKER = {B.KIND_VOLCANO: "volcano", B.KIND_START_FIELD: "start field",
                  B.KIND_LAVA_EXIT: "lava exit"}

# ----------------------------------------------------------------------------------------------------
# Actions
# ----------------------------------------------------------------------------------------------------
HAND_SLOTS = 5            # a hand never holds more than 5 tiles: each tile is worth 1 point or more
MAX_EXPLORERS = max(B.EXPLORERS_PER_PLAYER.values())   # 5
PLACE_BASE = 0
LAY_BASE = PLACE_BASE + NUM_SQUARES                                     # 324
SPEND_BASE = LAY_BASE + 4 * NUM_FIELDS * HAND_SLOTS                     # 1944
MOVE_BASE = SPEND_BASE + HAND_SLOTS                                     # 1949
PICK_BASE = MOVE_BASE + 4 * MAX_EXPLORERS                               # 1969
DROP_BASE = PICK_BASE + NUM_COLOURS * MAX_EXPLORERS                     # 1984
BOARD_BASE = DROP_BASE + NUM_COLOURS * MAX_EXPLORERS                    # 1999
END_TURN = BOARD_BASE + NUM_LANDINGS * MAX_EXPLORERS                    # 2039
NUM_ACTIONS = END_TURN + 1                                              # 2040
assert (LAY_BASE, SPEND_BASE, MOVE_BASE, PICK_BASE, DROP_BASE, BOARD_BASE, END_TURN) == \
    (324, 1944, 1949, 1969, 1984, 1999, 2039)

# Rules for advanced players (RULES.md "Spaces")
NUM_CARD_KINDS = B.NUM_CARD_KINDS                                       # 18
NUM_ACTION_CARD_KINDS = NUM_CARD_KINDS - B.FIRST_ACTION_KIND            # 5
MOVEMENT_KINDS = (B.ACTION_JUNGLE, B.ACTION_WATER, B.ACTION_MOUNTAIN)   # k = 0, 1, 2
REMOVE_CARD_BASE = NUM_ACTIONS                                          # 2040
CARD_MOVE_BASE = REMOVE_CARD_BASE + NUM_CARD_KINDS                      # 2058
DESTINATION_BASE = CARD_MOVE_BASE + len(MOVEMENT_KINDS) * MAX_EXPLORERS  # 2073
HELICOPTER_BASE = DESTINATION_BASE + NUM_SQUARES                        # 2397
EARTHQUAKE_BASE = HELICOPTER_BASE + MAX_EXPLORERS                       # 2402
QUAKE_DRAW = EARTHQUAKE_BASE + 4 * NUM_FIELDS                           # 2726
QUAKE_NO_DRAW = QUAKE_DRAW + 1                                          # 2727
QUAKE_LAY_BASE = QUAKE_NO_DRAW + 1                                      # 2728
NUM_ACTIONS_ADVANCED = QUAKE_LAY_BASE + 4 * NUM_FIELDS                  # 3052
assert (REMOVE_CARD_BASE, CARD_MOVE_BASE, DESTINATION_BASE, HELICOPTER_BASE, EARTHQUAKE_BASE,
        QUAKE_DRAW, QUAKE_NO_DRAW, QUAKE_LAY_BASE, NUM_ACTIONS_ADVANCED) == \
    (2040, 2058, 2073, 2397, 2402, 2726, 2727, 2728, 3052)
VARIANTS = ("basic", "advanced")

_CARD_KIND = B.CARD_KIND.tolist()
_SET_TASK_NEEDS = B.SET_TASK_NEEDS.tolist()
_SET_TASK_BONUS = B.SET_TASK_BONUS.tolist()
_BOAT_COLOUR = B.BOAT_COLOUR.tolist()
# The terrain a movement card walks over (RULES.md "Action cards"), per k.
_MOVEMENT_TERRAIN = (B.JUNGLE, B.WATER, B.MOUNTAIN)

REWARD_MODES = ("win_loss", "score", "margin")
COLOUR_NAMES = ("white", "gray", "black")


def place_action(square):
    return PLACE_BASE + square


def lay_action(hand_slot, field, rotation):
    return LAY_BASE + 4 * (NUM_FIELDS * hand_slot + field) + rotation


def spend_action(hand_slot):
    return SPEND_BASE + hand_slot


def move_action(explorer, direction):
    return MOVE_BASE + 4 * explorer + direction


def pick_action(explorer, colour):
    return PICK_BASE + NUM_COLOURS * explorer + colour


def drop_action(explorer, colour):
    return DROP_BASE + NUM_COLOURS * explorer + colour


def board_action(explorer, landing):
    return BOARD_BASE + NUM_LANDINGS * explorer + landing


def remove_card_action(kind):
    return REMOVE_CARD_BASE + kind


def card_move_action(k, explorer):
    """Play movement card ``k`` (0 jungle, 1 water, 2 mountain) with the explorer."""
    return CARD_MOVE_BASE + MAX_EXPLORERS * k + explorer


def destination_action(square):
    return DESTINATION_BASE + square


def helicopter_action(explorer):
    return HELICOPTER_BASE + explorer


def earthquake_action(field, rotation):
    return EARTHQUAKE_BASE + 4 * field + rotation


def quake_lay_action(field, rotation):
    return QUAKE_LAY_BASE + 4 * field + rotation


def describe_action(action):
    """The action in words, for error messages."""
    a = int(action)
    if REMOVE_CARD_BASE <= a < CARD_MOVE_BASE:
        return f"remove a dealt card '{B.CARD_KIND_NAMES[a - REMOVE_CARD_BASE]}'"
    if CARD_MOVE_BASE <= a < DESTINATION_BASE:
        k, e = divmod(a - CARD_MOVE_BASE, MAX_EXPLORERS)
        return f"play '{B.CARD_KIND_NAMES[MOVEMENT_KINDS[k]]}' with explorer {e}"
    if DESTINATION_BASE <= a < HELICOPTER_BASE:
        return f"movement card destination {B.SQUARE_NAMES[a - DESTINATION_BASE]}"
    if HELICOPTER_BASE <= a < EARTHQUAKE_BASE:
        return f"helicopter rescue of explorer {a - HELICOPTER_BASE}"
    if EARTHQUAKE_BASE <= a < QUAKE_DRAW:
        f, r = divmod(a - EARTHQUAKE_BASE, 4)
        return f"earthquake: turn the tile on {B.FIELD_NAMES[f]} to rotation {r}"
    if a == QUAKE_DRAW:
        return "after the earthquake: draw a tile"
    if a == QUAKE_NO_DRAW:
        return "after the earthquake: do not draw"
    if QUAKE_LAY_BASE <= a < NUM_ACTIONS_ADVANCED:
        f, r = divmod(a - QUAKE_LAY_BASE, 4)
        return f"lay the drawn tile on {B.FIELD_NAMES[f]} turned {r} quarter(s)"
    if PLACE_BASE <= a < LAY_BASE:
        return f"place an explorer on {B.SQUARE_NAMES[a - PLACE_BASE]}"
    if LAY_BASE <= a < SPEND_BASE:
        rest, r = divmod(a - LAY_BASE, 4)
        h, f = divmod(rest, NUM_FIELDS)
        return f"lay hand tile {h} on {B.FIELD_NAMES[f]} turned {r} quarter(s)"
    if SPEND_BASE <= a < MOVE_BASE:
        return f"spend hand tile {a - SPEND_BASE}"
    if MOVE_BASE <= a < PICK_BASE:
        e, d = divmod(a - MOVE_BASE, 4)
        return f"move explorer {e} {B.DIRECTIONS[d]}"
    if PICK_BASE <= a < DROP_BASE:
        e, c = divmod(a - PICK_BASE, NUM_COLOURS)
        return f"explorer {e} picks up a {COLOUR_NAMES[c]} artifact"
    if DROP_BASE <= a < BOARD_BASE:
        e, c = divmod(a - DROP_BASE, NUM_COLOURS)
        return f"explorer {e} drops a {COLOUR_NAMES[c]} artifact"
    if BOARD_BASE <= a < END_TURN:
        e, l = divmod(a - BOARD_BASE, NUM_LANDINGS)
        return f"explorer {e} boards the boat at {B.LANDING_NAMES[l]}"
    if a == END_TURN:
        return "end the turn"
    return f"action {a} (out of range 0..{NUM_ACTIONS_ADVANCED - 1})"


def rotated(four, rotation):
    """A tile's four squares (tile order) after ``rotation`` quarter turns clockwise."""
    source = _ROTATION_SOURCE[rotation % 4]
    return [four[source[i]] for i in range(4)]


# ----------------------------------------------------------------------------------------------------
# Randomness
# ----------------------------------------------------------------------------------------------------
_MASK64 = (1 << 64) - 1


class Rng:
    """``pacific_common.rng`` in plain integers: splitmix64 seeding, then xorshift64*.

    The core keeps the state as a signed int64; the arithmetic is unsigned 64-bit, so every result
    is masked to 64 bits here and the state is kept unsigned."""

    def __init__(self, seed):
        z = (int(seed) + 0x9E3779B97F4A7C15) & _MASK64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        z ^= z >> 31
        self.state = z if z != 0 else 1

    def draw(self, bound):
        """A uniform integer in ``[0, bound)``."""
        x = self.state
        x ^= x >> 12
        x ^= (x << 25) & _MASK64
        x ^= x >> 27
        self.state = x
        return (((x * 0x2545F4914F6CDD1D) & _MASK64) >> 33) % bound


# ----------------------------------------------------------------------------------------------------
# The game
# ----------------------------------------------------------------------------------------------------
class ReferenceGame:
    """One game of Mauna Kea: the basic game, or with ``variant="advanced"`` the rules for advanced
    players.

    Public fields (read them; tests may write them to craft positions):

    - ``num_players``, ``max_turns``, ``variant``, ``phase`` ("cards" (advanced set-up), "placement",
      "turn", "card_move", "quake_draw", "quake_lay" (advanced decisions inside a turn), "over"),
      ``to_act`` (None when over), ``turns`` (player turns completed, placements not counted),
      ``terminated``, ``truncated``;
    - ``terrain`` per square: the board's terrain code (``board.NO_TILE`` ... ``board.VOLCANO``);
    - ``field_tile`` per field: None (an empty tile space), ``("start", id, rotation)``,
      ``("terrain", id, rotation)`` (``id`` = island tile id = terrain tile id), ``("lava", id)``
      (``id`` = island tile id, 70..93), or a printed marker: "volcano", "start field", "lava exit";
    - ``covered`` per field: what a lava tile was laid on, bottom first (tiles and printed markers);
      a covered tile stays on the board under the lava (Volcanic eruption: "placed on top");
    - ``artifacts`` per square and ``carried`` per player and explorer: ``[white, gray, black]``;
    - ``explorers`` per player: the square of each explorer (placement order) or None when not on the
      board; ``explorer_status``: "unplaced", "island", "boat", "lost" or (advanced) "rescued" by a
      helicopter;
    - ``landing_boat`` per landing: the boat lying there, None once taken;
    - ``boats_taken`` per player: ``(boat id, [white, gray, black] loaded)`` in the order taken;
    - ``hands`` per player: island tile ids in drawing order; ``bag``: set of island tile ids;
    - ``pool``: movement points of the current turn;
    - ``removed``: island tile ids removed from the game (discarded lava tiles; in the advanced game
      also the tiles spent for movement points);
    - ``artifacts_removed``: ``[white, gray, black]`` removed from the game by lava;
    - ``lava_branches`` per flow: list of ``{end_field, direction, length, open}``; after a fork the
      two new branches replace the forked one, the "•" branch listed first;
    - ``end_triggered``; ``final_turns_left``: turns still to be played after the current one once the
      end is triggered (always 0 in the advanced game); ``end_reason``: None, "no explorer left",
      "settled" or (advanced) "supply used up";

    Advanced game only (all present, and empty or zero, in the basic game):

    - ``cards`` per player: cards held by kind (18 counts); during the set-up the dealt cards not yet
      removed; ``first_removed`` per player: the kind removed first in the set-up, or None;
    - ``played`` per player: action cards played, by kind minus 13 (jungle, water, mountain,
      earthquake, helicopter);
    - ``rescued_artifacts`` per player: ``[white, gray, black]`` on his helicopter cards;
    - ``card_move``: ``(k, explorer)`` while a movement card waits for its destination, else None;
    - ``quake_tile``: the tile drawn after an earthquake while it waits to be laid, else None;
    - ``supply_out``: True once the bag has been used up (an end condition);
    - ``cards_out``: card numbers out of the game unseen (never dealt, or removed in the set-up).
    """

    def __init__(self, num_players: int = 4, max_turns: int = 300, seed: int = 0,
                 variant: str = "basic"):
        # checked as the environments check them: a float or a string is refused, not truncated
        num_players, variant, max_turns, _, _ = check_options(
            num_players, variant, max_turns, None, "win_loss", players=(B.MIN_PLAYERS, B.MAX_PLAYERS),
            variants=VARIANTS)
        seed = integer("seed", seed, 0, SEED_LIMIT)
        self.num_players = n = num_players
        self.max_turns = max_turns
        self.variant = variant
        self.advanced = variant == "advanced"
        self.seed = seed
        self.rng = Rng(seed)

        # The printed board: volcano, lava exits, jungle start fields; every tile space bare.
        self.terrain = list(_INITIAL_TERRAIN)
        self.field_tile = [PRINTED_MARKER.get(int(k)) for k in B.FIELD_KIND.tolist()]
        self.covered = [[] for _ in range(NUM_FIELDS)]
        self.artifacts = [[0, 0, 0] for _ in range(NUM_SQUARES)]
        self.artifacts_removed = [0, 0, 0]

        # [Preparation of the Game, Set-up] "mix them face down and randomly distribute them face up
        # on the 24 spaces": the draw protocol of RULES.md (tile, then rotation, space by space).
        undealt = list(range(B.NUM_START_TILES))
        for f in _START_TILE_SPACES:
            tile = undealt.pop(self.rng.draw(len(undealt)))
            rotation = self.rng.draw(4)
            self._put_tile(f, _START_TILE_SQUARES[tile], rotation)
            self.field_tile[f] = ("start", tile, rotation)
            # "The starting tiles partly show different colored markings, indicating the
            # corresponding artifact that is now placed there" -- where the turned marking lies.
            for square, mark in zip(_FIELD_SQUARES[f], rotated(_START_TILE_ARTIFACTS[tile], rotation)):
                if mark != B.NO_ARTIFACT:
                    self.artifacts[square][mark - 1] += 1

        # "Mix up the 8 boats unseen and then distribute them randomly ... one boat at each point."
        unplaced = list(range(NUM_BOATS))
        self.landing_boat = [unplaced.pop(self.rng.draw(len(unplaced))) for _ in range(NUM_LANDINGS)]
        self.boats_taken = [[] for _ in range(n)]

        # [Material for the players] 5 / 4 / 3 explorers each with 2 / 3 / 4 players.
        k = B.EXPLORERS_PER_PLAYER[n]
        self.explorers = [[None] * k for _ in range(n)]
        self.carried = [[[0, 0, 0] for _ in range(k)] for _ in range(n)]
        self.explorer_status = [["unplaced"] * k for _ in range(n)]

        # The 94 island tiles go into the bag only for the initial draw, after placement.
        self.bag = set(range(NUM_ISLAND_TILES))
        self.hands = [[] for _ in range(n)]
        self.pool = 0
        self.free_actions = 0      # pick-ups and drops this turn (RULES.md: at most 20 a turn)
        self.removed = []

        # [Volcanic eruption] each flow starts as one branch ending on its printed exit field.
        self.lava_branches = [[{"end_field": _LAVA_FLOW_EXIT_FIELD[flow],
                                "direction": _LAVA_FLOW_DIRECTION[flow], "length": 0, "open": True}]
                              for flow in range(B.NUM_LAVA_FLOWS)]

        self.end_triggered = False
        self.end_reason = None
        self.final_turns_left = 0
        self.turns = 0
        self.terminated = False
        self.truncated = False

        # [Rules for Advanced Players] the game cards.
        self.cards = [[0] * NUM_CARD_KINDS for _ in range(n)]
        self.first_removed = [None] * n
        self.played = [[0] * NUM_ACTION_CARD_KINDS for _ in range(n)]
        self.rescued_artifacts = [[0, 0, 0] for _ in range(n)]
        self.card_move = None
        self.quake_tile = None
        self.supply_out = False
        self.cards_out = []
        # [Before the First Turn, Placing explorers] the starting player (player_0) places first.
        self.phase = "placement"
        self.to_act = 0
        if self.advanced:
            self._deal_cards()

    # ------------------------------------------------------------------ what the board says

    def _put_tile(self, field, four, rotation):
        """Show a tile's four (turned) squares on the field."""
        for square, t in zip(_FIELD_SQUARES[field], rotated(four, rotation)):
            self.terrain[square] = t

    def hand_points(self, player):
        return sum(_TERRAIN_TILE_POINTS[t] for t in self.hands[player])

    def occupied_squares(self):
        return {s for row in self.explorers for s in row if s is not None}

    def occupants(self):
        """Per square: ``(player, explorer)`` standing there, or None."""
        where = [None] * NUM_SQUARES
        for p, squares in enumerate(self.explorers):
            for e, s in enumerate(squares):
                if s is not None:
                    where[s] = (p, e)
        return where

    def on_island(self, player):
        """Explorers of the player still on the island (the gameboard)."""
        return [e for e, st in enumerate(self.explorer_status[player]) if st == "island"]

    def empty_fields(self):
        """[Expanding the terrain] "any one empty space on the gameboard": a tile space (or
        start-tile space) with nothing on it."""
        return [f for f in _TILE_FIELDS if self.field_tile[f] is None]

    def _field_holds_lava(self, field):
        """Lava tiles, the printed exit fields and the volcano: a lava tile tunnels under them."""
        return self.terrain[_FIELD_SQUARES[field][0]] in (B.LAVA, B.VOLCANO)

    def _draw_from_bag(self):
        """RULES.md Set-up 3: the ``draw(b)``-th of the ``b`` tiles in the bag, in increasing order."""
        ordered = sorted(self.bag)
        tile = ordered[self.rng.draw(len(ordered))]
        self.bag.remove(tile)
        return tile

    # ------------------------------------------------------------------ legal actions

    def legal_actions(self):
        """The legal actions of the player to act, sorted; empty when the game is over."""
        if self.phase == "over":
            return []
        p = self.to_act
        if self.phase == "cards":
            return self._card_removal_actions(p)
        if self.phase == "placement":
            # [Placing explorers] any starting space; "only one explorer per space".
            occupied = self.occupied_squares()
            return [place_action(s) for s in _START_SQUARES if s not in occupied]
        if self.phase == "card_move":
            k, e = self.card_move
            return sorted(destination_action(s) for s in self.card_destinations(p, e, k))
        if self.phase == "quake_draw":
            return [QUAKE_DRAW, QUAKE_NO_DRAW]
        if self.phase == "quake_lay":
            # RULES.md Earthquake: laid "on an empty field in any rotation".
            return sorted(quake_lay_action(f, r) for f in self.empty_fields() for r in range(4))
        actions = self._turn_actions(p)
        if self.advanced:
            actions += self._action_card_actions(p)
        return sorted(actions)

    def _turn_actions(self, p):
        actions = []
        hand = self.hands[p]
        # [Playing tiles] each tile either expands the terrain (any empty space, 4 orientations) ...
        empty = self.empty_fields()
        for h in range(len(hand)):
            for f in empty:
                for r in range(4):
                    actions.append(lay_action(h, f, r))
        # ... or is used for its movement points.
        for h in range(len(hand)):
            actions.append(spend_action(h))
        occupied = self.occupied_squares()
        for e in self.on_island(p):
            square = self.explorers[p][e]
            # [Moving explorers, Movement directions / Movement costs]
            for d in range(4):
                target = _SQUARE_NEIGHBOURS[square][d]
                if target < 0 or target in occupied:
                    continue
                cost = _MOVE_COST[self.terrain[target]]
                if cost != B.IMPASSABLE and cost <= self.pool:
                    actions.append(move_action(e, d))
            # [Collecting and taking artifacts] free, at any time, no more than 3 carried; RULES.md
            # limits these free actions per turn so that every turn ends.
            free = self.free_actions < B.FREE_ACTIONS_PER_TURN
            if free and sum(self.carried[p][e]) < B.MAX_CARRIED:
                for c in range(NUM_COLOURS):
                    if self.artifacts[square][c] > 0:
                        actions.append(pick_action(e, c))
            for c in range(NUM_COLOURS):
                if free and self.carried[p][e][c] > 0:
                    actions.append(drop_action(e, c))
            # [Reaching the boats] from one of the boat's 4 neighbouring spaces, for 1 point.
            landing = _SQUARE_LANDING[square]
            if landing >= 0 and self.landing_boat[landing] is not None and self.pool >= B.BOARDING_COST:
                actions.append(board_action(e, landing))
        # [Playing tiles] "you have to play all your tiles" before the turn can end.
        if not hand:
            actions.append(END_TURN)
        return actions

    # ------------------------------------------------------------------ playing

    def step(self, action):
        """Play the decision of the player to act; then run the game on until the next decision."""
        if self.phase == "over":
            raise ValueError("the game is over; no action is legal")
        action = whole_number("action", action)   # int() would take 0.9 as 0 and "5" as 5
        if action not in self.legal_actions():
            raise ValueError(f"illegal action {action} ({describe_action(action)}) for player_"
                             f"{self.to_act} in the {self.phase} phase")
        p = self.to_act
        if self.phase == "cards":
            self._remove_card(p, action - REMOVE_CARD_BASE)
        elif self.phase == "placement":
            self._place_explorer(p, action - PLACE_BASE)
        elif self.phase == "card_move":
            self._card_move(p, action - DESTINATION_BASE)
        elif self.phase == "quake_draw":
            self._quake_draw(p, action == QUAKE_DRAW)
        elif self.phase == "quake_lay":
            f, r = divmod(action - QUAKE_LAY_BASE, 4)
            self._quake_lay(p, f, r)
        elif action >= NUM_ACTIONS:
            self._play_action_card(p, action)
        elif action < SPEND_BASE:
            rest, r = divmod(action - LAY_BASE, 4)
            h, f = divmod(rest, NUM_FIELDS)
            self._lay_tile(p, h, f, r)
        elif action < MOVE_BASE:
            self._spend_tile(p, action - SPEND_BASE)
        elif action < PICK_BASE:
            e, d = divmod(action - MOVE_BASE, 4)
            self._move(p, e, d)
        elif action < DROP_BASE:
            e, c = divmod(action - PICK_BASE, NUM_COLOURS)
            self._pick_up(p, e, c)
        elif action < BOARD_BASE:
            e, c = divmod(action - DROP_BASE, NUM_COLOURS)
            self._drop(p, e, c)
        elif action < END_TURN:
            e, landing = divmod(action - BOARD_BASE, NUM_LANDINGS)
            self._board(p, e, landing)
        else:
            self._end_turn(p)

    # [Rules for Advanced Players, Set-up] ---------------------------------------------------------

    def _deal_cards(self):
        """"Shuffle the game cards face down and deal out 6 cards to each player": RULES.md's draws,
        player by player in seat order, six each, the ``draw(r)``-th of the ``r`` cards not yet dealt
        (in increasing card number).  The undealt cards are out of the game, unseen."""
        undealt = list(range(B.NUM_CARDS))
        for p in range(self.num_players):
            for _ in range(B.CARDS_DEALT):
                card = undealt.pop(self.rng.draw(len(undealt)))
                self.cards[p][_CARD_KIND[card]] += 1
        self.cards_out.extend(undealt)
        # "Now, each player selects 4 of his cards": before the explorers are placed, seat by seat
        # from player_0, two removals each.
        self.phase = "cards"
        self.to_act = 0

    def _card_removal_actions(self, p):
        """Remove one dealt card by kind; the second removal of a kind number no lower than the first
        (RULES.md, so that each pair of removed cards is reached one way)."""
        held = self.cards[p]
        first = self.first_removed[p]
        if first is None:
            # Decision (the contract leaves it implicit): a first removal that would leave no card of
            # a kind no lower than it for the second removal is not offered, or the player would be
            # stuck with no legal decision.
            return [remove_card_action(k) for k in range(NUM_CARD_KINDS)
                    if held[k] > 0 and (held[k] > 1 or any(held[j] > 0 for j in range(k + 1, NUM_CARD_KINDS)))]
        return [remove_card_action(k) for k in range(first, NUM_CARD_KINDS) if held[k] > 0]

    def _remove_card(self, p, kind):
        """"The remaining cards are removed from the game, unseen." """
        self.cards[p][kind] -= 1
        self.cards_out.append(("removed", p, kind))
        if self.first_removed[p] is None:
            self.first_removed[p] = kind
            return
        assert sum(self.cards[p]) == B.CARDS_KEPT
        if p + 1 < self.num_players:
            self.to_act = p + 1
            return
        # Every player has kept 4: [Placing explorers] the starting player places first.
        self.phase = "placement"
        self.to_act = 0

    # [Before the First Turn] ----------------------------------------------------------------

    def _place_explorer(self, p, square):
        e = self.explorer_status[p].index("unplaced")
        self.explorers[p][e] = square
        self.explorer_status[p][e] = "island"
        if any("unplaced" in row for row in self.explorer_status):
            # [Placing explorers] "in turn (in counterclockwise order)": decreasing seat index.
            self.to_act = (p - 1) % self.num_players
            return
        self._initial_draw()
        # [Beginning the game] "The last player to have placed an explorer begins."
        self.phase = "turn"
        self.to_act = p
        self.pool = 0

    def _initial_draw(self):
        """[Drawing tiles] counter-clockwise from the starting player, one tile per player and round,
        until each has 5 or more points; lava is put aside (the same player draws again) and mixed
        back into the bag at the end."""
        n = self.num_players
        order = [(0 - i) % n for i in range(n)]
        set_aside = []
        while any(self.hand_points(p) < B.HAND_POINTS for p in order) and self.bag:
            for p in order:
                if self.hand_points(p) >= B.HAND_POINTS:
                    continue
                while self.bag:
                    tile = self._draw_from_bag()
                    if tile >= FIRST_LAVA_TILE:
                        set_aside.append(tile)
                        continue
                    self.hands[p].append(tile)
                    break
        self.bag.update(set_aside)

    # [Course of the Game, Playing tiles] -------------------------------------------------------

    def _lay_tile(self, p, h, f, r):
        """[Expanding the terrain] the tile lies face up, turned as chosen; its points do not count."""
        tile = self.hands[p].pop(h)
        self._put_tile(f, _TERRAIN_TILE_SQUARES[tile], r)
        self.field_tile[f] = ("terrain", tile, r)
        self._check_end_trigger()     # its mountains may close the last way to a boat

    def _spend_tile(self, p, h):
        """[Using movement points] the points join this turn's pool (points of several tiles combine;
        what is left at the end of the turn is lost) and the tile is mixed back into the bag at once."""
        tile = self.hands[p].pop(h)
        self.pool += _TERRAIN_TILE_POINTS[tile]
        if self.advanced:
            # [Rules for Advanced Players, Playing tiles] "Played tiles (used for movement) are not put
            # back into the bag but are removed from the game."
            self.removed.append(tile)
        else:
            self.bag.add(tile)

    # [Moving explorers] ---------------------------------------------------------------------------

    def _move(self, p, e, d):
        target = _SQUARE_NEIGHBOURS[self.explorers[p][e]][d]
        self.pool -= _MOVE_COST[self.terrain[target]]
        self.explorers[p][e] = target

    def _pick_up(self, p, e, c):
        self.free_actions += 1
        square = self.explorers[p][e]
        self.artifacts[square][c] -= 1
        self.carried[p][e][c] += 1

    def _drop(self, p, e, c):
        self.free_actions += 1
        square = self.explorers[p][e]
        self.carried[p][e][c] -= 1
        self.artifacts[square][c] += 1

    def _board(self, p, e, landing):
        """[Reaching the boats] 1 point for the explorer and his load; what does not fit stays on his
        space.  RULES.md: the boat takes the most valuable artifacts first (drop first to choose)."""
        square = self.explorers[p][e]
        boat = self.landing_boat[landing]
        room = _BOAT_CAPACITY[boat]
        load = [0, 0, 0]
        for c in (BLACK, GRAY, WHITE):
            load[c] = min(room, self.carried[p][e][c])
            room -= load[c]
            self.artifacts[square][c] += self.carried[p][e][c] - load[c]
        self.pool -= B.BOARDING_COST
        self.carried[p][e] = [0, 0, 0]
        self.explorers[p][e] = None
        self.explorer_status[p][e] = "boat"
        # "you take this boat ... off the gameboard and put it down in front of you"
        self.landing_boat[landing] = None
        self.boats_taken[p].append((boat, load))
        self._check_end_trigger()

    # [Rules for Advanced Players, Playing cards; Overview ..., Action cards] ---------------------

    def _action_card_actions(self, p):
        """"Anytime during your turn, you may play one or more of your action cards ... You don't need
        any movement points to play these cards." """
        actions = []
        held = self.cards[p]
        island = self.on_island(p)
        # Jungle / water / mountain movement: one of his explorers; only if it can go somewhere
        # (RULES.md).
        for k, kind in enumerate(MOVEMENT_KINDS):
            if held[kind] > 0:
                for e in island:
                    if self.card_destinations(p, e, k):
                        actions.append(card_move_action(k, e))
        # Helicopter rescue: "This card may not be used for the player's last explorer."
        if held[B.ACTION_HELICOPTER] > 0 and len(island) >= 2:
            for e in island:
                actions.append(helicopter_action(e))
        # Earthquake: "change the orientation of any one terrain tile lying on the gameboard. There may
        # be artifacts on this tile, but no explorers."  RULES.md: a terrain tile or a start tile (not
        # lava, not a printed field), to another of its four orientations.
        if held[B.ACTION_EARTHQUAKE] > 0:
            for f in self.quake_fields():
                current = self.field_tile[f][2]
                for r in range(4):
                    if r != current:
                        actions.append(earthquake_action(f, r))
        return actions

    def quake_fields(self):
        """Fields whose tile an earthquake may turn: a terrain or start tile, no explorer on it."""
        occupied = self.occupied_squares()
        fields = []
        for f in range(NUM_FIELDS):
            tile = self.field_tile[f]
            if isinstance(tile, tuple) and tile[0] in ("terrain", "start") and \
                    not any(square in occupied for square in _FIELD_SQUARES[f]):
                fields.append(f)
        return fields

    def card_destinations(self, p, e, k):
        """The squares explorer ``e`` of player ``p`` can reach with movement card ``k``.

        Jungle (water) movement: "any number of spaces, but only over jungle (water) spaces. The
        movement may also start from a water (jungle) space, but it needs to end on a jungle (water)
        space. If the explorer enters a space with an artifact, he must stop. All ... spaces that have
        been entered have to border one another on at least one side; a diagonal connection is not
        sufficient."  Mountain movement: "only over mountain spaces. The movement must begin and end on
        a water or jungle space" -- RULES.md: over one or more mountain squares, ending on a jungle or
        water square next to the last one.  Never onto another explorer (that also blocks the way,
        [Movement directions]); the destination differs from the start."""
        start = self.explorers[p][e]
        if start is None:
            return set()
        occupied = self.occupied_squares() - {start}
        terrain_kind = _MOVEMENT_TERRAIN[k]
        if terrain_kind != B.MOUNTAIN:
            reached = set()
            frontier = [start]
            while frontier:
                square = frontier.pop()
                for target in _SQUARE_NEIGHBOURS[square]:
                    if target < 0 or target == start or target in reached or target in occupied:
                        continue
                    if self.terrain[target] != terrain_kind:
                        continue
                    reached.add(target)
                    # "If the explorer enters a space with an artifact, he must stop."
                    if sum(self.artifacts[target]) == 0:
                        frontier.append(target)
            return reached
        # Mountain movement: the mountain squares reachable from the start, then off them onto a
        # jungle or water square (it stops as soon as it leaves the mountains).
        mountains = set()
        frontier = [t for t in _SQUARE_NEIGHBOURS[start] if t >= 0 and self.terrain[t] == B.MOUNTAIN]
        mountains.update(frontier)
        while frontier:
            square = frontier.pop()
            for target in _SQUARE_NEIGHBOURS[square]:
                if target >= 0 and target not in mountains and self.terrain[target] == B.MOUNTAIN:
                    mountains.add(target)
                    frontier.append(target)
        destinations = set()
        for square in mountains:
            for target in _SQUARE_NEIGHBOURS[square]:
                if target < 0 or target == start or target in occupied:
                    continue
                if self.terrain[target] in (B.JUNGLE, B.WATER):
                    destinations.add(target)
        return destinations

    def _take_card(self, p, kind):
        """"Played action cards are taken out of the game immediately after they have been used";
        played cards are public (RULES.md)."""
        self.cards[p][kind] -= 1
        self.played[p][kind - B.FIRST_ACTION_KIND] += 1

    def _play_action_card(self, p, action):
        if action < DESTINATION_BASE:
            # A movement card with one of his explorers; the destination is the next decision.
            k, e = divmod(action - CARD_MOVE_BASE, MAX_EXPLORERS)
            self._take_card(p, MOVEMENT_KINDS[k])
            self.card_move = (k, e)
            self.phase = "card_move"
        elif action < EARTHQUAKE_BASE:
            self._take_card(p, B.ACTION_HELICOPTER)
            self._helicopter(p, action - HELICOPTER_BASE)
        else:
            f, r = divmod(action - EARTHQUAKE_BASE, 4)
            self._take_card(p, B.ACTION_EARTHQUAKE)
            self._earthquake(p, f, r)

    def _card_move(self, p, square):
        """The movement card's explorer goes to the chosen square, with what he carries; no points."""
        _, e = self.card_move
        self.explorers[p][e] = square
        self.card_move = None
        self.phase = "turn"
        self._check_end_trigger()     # the card is spent: a mountain movement card no longer helps

    def _helicopter(self, p, e):
        """"The player may rescue one of his explorers, including his artifacts, from the island. He
        puts this card in front of him, face up, and places the rescued explorer and his artifacts on
        this card." """
        for c in range(NUM_COLOURS):
            self.rescued_artifacts[p][c] += self.carried[p][e][c]
        self.carried[p][e] = [0, 0, 0]
        self.explorers[p][e] = None
        self.explorer_status[p][e] = "rescued"
        # Never his last explorer, so this cannot leave him without one; checked all the same.
        self._check_end_trigger()

    def _earthquake(self, p, f, r):
        """"The player may change the orientation of any one terrain tile lying on the gameboard. There
        may be artifacts on this tile" -- they turn with it.  "After that, the player may draw one tile
        out of the bag" -- RULES.md: a decision, offered while the bag holds a tile and the end is not
        triggered (no tile is drawn after that)."""
        kind, tile, old = self.field_tile[f]
        four = _START_TILE_SQUARES[tile] if kind == "start" else _TERRAIN_TILE_SQUARES[tile]
        squares = _FIELD_SQUARES[f]
        # The artifacts lying on each corner of the tile (corner = index in the tile's own order).
        on_corner = {}
        for i, square in enumerate(squares):
            on_corner[_ROTATION_SOURCE[old][i]] = self.artifacts[square]
        self._put_tile(f, four, r)
        for i, square in enumerate(squares):
            self.artifacts[square] = on_corner[_ROTATION_SOURCE[r][i]]
        self.field_tile[f] = (kind, tile, r)
        self._check_end_trigger()
        if self.bag and not self.end_triggered:
            self.phase = "quake_draw"

    def _quake_draw(self, p, draw):
        """"the player may draw one tile out of the bag and place it (terrain or lava tile) on the
        gameboard according to the rules": lava by the lava rules at once; a terrain tile is laid by
        the player on an empty space in any orientation, or goes back into the bag if there is none."""
        self.phase = "turn"
        if not draw:
            return
        tile = self._draw_from_bag()
        if tile >= FIRST_LAVA_TILE:
            self.phase = "quake_draw"          # lava placed inside the earthquake (an end can trigger)
            self._erupt(tile)
            self.phase = "turn"
            self._check_supply()
        elif self.empty_fields():
            self.quake_tile = tile
            self.phase = "quake_lay"
            # RULES.md: "when it runs out during an earthquake, his current turn is the last."
            self._check_supply()
        else:
            self.bag.add(tile)

    def _quake_lay(self, p, f, r):
        tile = self.quake_tile
        self._put_tile(f, _TERRAIN_TILE_SQUARES[tile], r)
        self.field_tile[f] = ("terrain", tile, r)
        self.quake_tile = None
        self.phase = "turn"
        self._check_end_trigger()

    # [Ending your turn, Drawing other tiles] ---------------------------------------------------

    def _end_turn(self, p):
        # Unspent points are lost [Moving explorers: "You don't have to use up all points"].
        self.pool = 0
        self.free_actions = 0
        if self.advanced:
            self._end_turn_advanced(p)
            return
        if not self.end_triggered:
            self._draw_up(p)
            if self.end_triggered:
                # [End of the Game] "The player whose turn it is may still play all tiles that he has
                # lying face up in front of him": the end came while he drew, so his turn goes on.
                return
        self.turns += 1
        if self.end_triggered:
            # [End of the Game] the trigger turn, then one more turn for every other player.
            if self.final_turns_left == 0:
                self._game_over(terminated=True)
                return
            self.final_turns_left -= 1
        if self.turns >= self.max_turns:
            self._game_over(terminated=False)
            return
        # [Beginning the game] "play proceeds clockwise": increasing seat index.
        self.to_act = (p + 1) % self.num_players

    def _end_turn_advanced(self, p):
        """[Rules for Advanced Players, End of the Game] "The player whose turn it is may still play all
        tiles that he has lying in front of him. After that, the scoring takes place immediately."
        RULES.md: no tile is drawn once the end is triggered; when the bag runs out while he draws at
        the end of his turn, or lava triggers the end while he draws, his drawing stops there, his turn
        goes on with the tiles drawn and the game is scored when he ends it."""
        if not self.end_triggered:
            self._draw_up(p)
            if self.end_triggered:
                return      # his turn is not over yet
        self.turns += 1
        if self.end_triggered:
            self._game_over(terminated=True)
            return
        if self.turns >= self.max_turns:
            self._game_over(terminated=False)
            return
        self.to_act = (p + 1) % self.num_players

    def _draw_up(self, p):
        """[Drawing other tiles] draw until the hand shows 5 or more points; a lava tile is placed at
        once [Lava tiles] and drawing goes on.  An empty bag stops the drawing (RULES.md).  When lava
        triggers the end, the drawing stops (RULES.md)."""
        while self.hand_points(p) < B.HAND_POINTS and self.bag:
            tile = self._draw_from_bag()
            if tile >= FIRST_LAVA_TILE:
                self._erupt(tile)
                if self.end_triggered:
                    return
            else:
                self.hands[p].append(tile)
        # [Rules for Advanced Players, End of the Game] "when the supply of tiles has been used up".
        self._check_supply()

    # [Volcanic eruption] ------------------------------------------------------------------------

    def _erupt(self, tile):
        """Place a drawn lava tile, forced: its flow, the branch rule and its shape decide where."""
        flow = _LAVA_TILE_FLOW[tile - FIRST_LAVA_TILE]
        shape = _LAVA_TILE_SHAPE[tile - FIRST_LAVA_TILE]
        branches = self.lava_branches[flow]
        open_branches = [b for b in branches if b["open"]]
        if not open_branches:
            # "If a lava tile cannot be placed anymore ... it is removed from the game."
            self.removed.append(tile)
            return
        # "you have to extend the branch that consists of fewer tiles. If both branches have the same
        # length, the branch marked with a '•' is extended first" -- listed first, so min() keeps it.
        branch = min(open_branches, key=lambda b: b["length"])
        direction = branch["direction"]
        target = _FIELD_NEIGHBOURS[branch["end_field"]][direction]
        # "If another lava tile is already lying there ... placed one space further in the direction
        # of the flow (the new flow 'tunnels under' the existing one)."
        while target >= 0 and self._field_holds_lava(target):
            target = _FIELD_NEIGHBOURS[target][direction]
        if target < 0:
            # Off the edge of the gameboard: removed from the game, and the branch is closed.
            self.removed.append(tile)
            branch["open"] = False
            self._check_end_trigger()     # lava of this flow left in the bag may never fall now
            return
        self._cover_with_lava(target, tile)
        if shape == B.FORK:
            # The fork ends this branch and opens two, counted from zero "from the moment when a tile
            # with a branch ... has been placed"; the "•" branch first so that it wins ties.
            new = [{"end_field": target,
                    "direction": (direction + _LAVA_SHAPE_EXIT_TURNS[shape][side]) % 4,
                    "length": 0, "open": True}
                   for side in (B.LEFT_BRANCH, B.RIGHT_BRANCH)]
            dot = _LAVA_TILE_DOT_BRANCH[tile - FIRST_LAVA_TILE]
            new = [new[dot], new[1 - dot]]
            i = next(k for k, b in enumerate(branches) if b is branch)
            branches[i:i + 1] = new
        else:
            branch["end_field"] = target
            branch["direction"] = (direction + _LAVA_SHAPE_EXIT_TURNS[shape][0]) % 4
            branch["length"] += 1
        self._check_end_trigger()

    def _cover_with_lava(self, field, tile):
        """[Volcanic eruption] "it is simply placed on top. All explorers and artifacts there are
        removed from the game." The covered tile stays underneath (it is not back in play)."""
        for square in _FIELD_SQUARES[field]:
            for p in range(self.num_players):
                for e, s in enumerate(self.explorers[p]):
                    if s == square:
                        # An explorer is lost with everything he carries.
                        for c in range(NUM_COLOURS):
                            self.artifacts_removed[c] += self.carried[p][e][c]
                        self.carried[p][e] = [0, 0, 0]
                        self.explorers[p][e] = None
                        self.explorer_status[p][e] = "lost"
            for c in range(NUM_COLOURS):
                self.artifacts_removed[c] += self.artifacts[square][c]
            self.artifacts[square] = [0, 0, 0]
            self.terrain[square] = B.LAVA
        if self.field_tile[field] is not None:
            self.covered[field].append(self.field_tile[field])
        self.field_tile[field] = ("lava", tile)

    # [End of the Game] --------------------------------------------------------------------------

    def _explorer_end_condition(self):
        """"one player has no explorers left on the gameboard" -- boarded, lost (or rescued)."""
        return any(not self.on_island(p) for p in range(self.num_players))

    def cut_off(self):
        """Per player, how many of his explorers on the island can never reach a boat (RULINGS.md,
        "Settled end").  A walk may cross squares that show jungle or water, and tile spaces nothing
        lies on yet (a jungle tile could still go there), whoever stands there now; never lava, the
        volcano or a mountain.  Advanced game (RULES.md): an earthquake held by anybody could turn a
        tile out of the way while a boat waits; a mountain movement card lets its holder's explorers
        cross mountains; a helicopter rescue still flies out any explorer of a holder who has two or
        more on the island."""
        entries = {s for s in range(NUM_SQUARES)
                   if _SQUARE_LANDING[s] >= 0 and self.landing_boat[_SQUARE_LANDING[s]] is not None}
        holds = [[self.advanced and self.cards[p][kind] > 0 for kind in range(NUM_CARD_KINDS)]
                 for p in range(self.num_players)]
        quake = bool(entries) and any(h[B.ACTION_EARTHQUAKE] for h in holds)
        reach = {False: self._reached_from(entries, False)}
        counts = []
        for p in range(self.num_players):
            if quake or (holds[p][B.ACTION_HELICOPTER] and len(self.on_island(p)) >= 2):
                counts.append(0)
                continue
            climbers = holds[p][B.ACTION_MOUNTAIN]
            if climbers not in reach:
                reach[climbers] = self._reached_from(entries, climbers)
            counts.append(sum(1 for s in self.explorers[p] if s is not None and s not in reach[climbers]))
        return counts

    def _reached_from(self, starts, climbers):
        """The squares a walk can join to one of ``starts`` (see ``cut_off``)."""
        open_ground = {B.JUNGLE, B.WATER, B.NO_TILE} | ({B.MOUNTAIN} if climbers else set())
        seen = {s for s in starts if self.terrain[s] in open_ground}
        frontier = list(seen)
        while frontier:
            square = frontier.pop()
            for t in _SQUARE_NEIGHBOURS[square]:
                if t >= 0 and t not in seen and self.terrain[t] in open_ground:
                    seen.add(t)
                    frontier.append(t)
        return seen

    def settled(self):
        """RULINGS.md, "Settled end": no explorer still on the island can ever reach a boat."""
        if self.phase in ("placement", "cards", "over"):
            return False
        return sum(self.cut_off()) == sum(len(self.on_island(p)) for p in range(self.num_players))

    def _lava_can_fall(self):
        """A lava tile is left in the bag and its flow still has an open branch to extend."""
        flows = {_LAVA_TILE_FLOW[t - FIRST_LAVA_TILE] for t in self.bag if t >= FIRST_LAVA_TILE}
        return any(branch["open"] for flow in flows for branch in self.lava_branches[flow])

    def _unending(self):
        """Why the end must come although every player has an explorer on the island: "settled", or
        in the basic game "walled in" (RULES.md): every player keeps an explorer that can never reach a
        boat and no lava can fall any more to take it, so nobody can ever be left without an explorer.
        The advanced game ends when the bag is used up, walled in or not."""
        cut = self.cut_off()
        if sum(cut) == sum(len(self.on_island(p)) for p in range(self.num_players)):
            return "settled"
        if not self.advanced and not self._lava_can_fall() and all(cut):
            return "walled in"
        return None

    def _check_end_trigger(self):
        """"The game ends when one player has no explorers left on the gameboard" -- boarded or lost;
        RULINGS.md and RULES.md add the islands where that can never happen, which end it in the same
        way."""
        if self.phase not in ("turn", "quake_draw") or self.end_triggered:
            return
        self.end_reason = "no explorer left" if self._explorer_end_condition() else self._unending()
        if self.end_reason is None:
            self._check_supply()
            return
        self.end_triggered = True
        # [End of the Game] basic: "all the other players get one more turn"; advanced: "the
        # scoring takes place immediately" after this player's turn.
        self.final_turns_left = 0 if self.advanced else self.num_players - 1

    def _check_supply(self):
        """[Rules for Advanced Players, End of the Game] "or when the supply of tiles has been used up":
        the bag is empty (during a turn)."""
        if not self.advanced or self.end_triggered or self.bag:
            return
        if self.phase not in ("turn", "quake_draw", "quake_lay"):
            return
        self.supply_out = True
        self.end_triggered = True
        self.end_reason = "supply used up"
        self.final_turns_left = 0

    def _game_over(self, terminated):
        self.card_move = None
        self.quake_tile = None
        self.phase = "over"
        self.to_act = None
        self.terminated = terminated
        self.truncated = not terminated

    # [Scoring] ----------------------------------------------------------------------------------

    def boat_score(self, boat, load):
        """Explorer 3, white 1, gray 2, black 3, −1 for each unoccupied place."""
        empty = _BOAT_CAPACITY[boat] - sum(load)
        return (B.EXPLORER_POINTS + sum(k * v for k, v in zip(load, _ARTIFACT_POINTS))
                + B.EMPTY_PLACE_POINTS * empty)

    def scores(self):
        """The players' scores; in the advanced game with the task cards (the final scores)."""
        if self.advanced:
            return [self.score_without_tasks(p) + self.task_points(p) for p in range(self.num_players)]
        return [sum(self.boat_score(boat, load) for boat, load in self.boats_taken[p])
                for p in range(self.num_players)]

    def scores_without_tasks(self):
        """What the other players see while the game runs (RULES.md): boats and helicopter artifacts."""
        return [self.score_without_tasks(p) for p in range(self.num_players)]

    def score_without_tasks(self, p):
        """[Rules for Advanced Players, Scoring] "the victory points and deductions that he would receive
        in the basic game", plus the artifacts on his helicopter cards ("the player gets victory points
        for the artifacts, but not for the explorer")."""
        boats = sum(self.boat_score(boat, load) for boat, load in self.boats_taken[p])
        return boats + sum(k * v for k, v in zip(self.rescued_artifacts[p], _ARTIFACT_POINTS))

    def saved_artifacts(self, p):
        """The artifacts lying in front of the player: in his boats and on his helicopter cards."""
        total = list(self.rescued_artifacts[p])
        for _, load in self.boats_taken[p]:
            for c in range(NUM_COLOURS):
                total[c] += load[c]
        return total

    def task_points(self, p):
        """[Overview ..., Task cards] the fulfilled task cards held at the end.  "each explorer and each
        artifact may only be used for one task card" and each card "may only be used once"; the
        library takes the assignment worth the most (RULES.md)."""
        if not self.advanced:
            return 0
        held = self.cards[p]
        # Artifact sets compete for the same artifacts: try every subset of the set cards held.
        available = self.saved_artifacts(p)
        set_kinds = [k for k in range(B.NUM_SET_TASKS) if held[k] > 0]
        best_sets = 0
        for mask in range(1 << len(set_kinds)):
            chosen = [k for i, k in enumerate(set_kinds) if mask >> i & 1]
            needs = [sum(_SET_TASK_NEEDS[k][c] for k in chosen) for c in range(NUM_COLOURS)]
            if all(needs[c] <= available[c] for c in range(NUM_COLOURS)):
                best_sets = max(best_sets, sum(_SET_TASK_BONUS[k] for k in chosen))
        points = best_sets
        # "1 additional victory point for 2 explorers saved" -- explorers in boats (one per boat;
        # rescued explorers do not count, RULES.md), two for each card.
        saved = len(self.boats_taken[p])
        points += min(held[B.TASK_TWO_EXPLORERS], saved // 2)
        # "no deduction of victory points" for unoccupied places.
        if held[B.TASK_NO_DEDUCTION] > 0:
            points += sum(_BOAT_CAPACITY[boat] - sum(load) for boat, load in self.boats_taken[p])
        # "1 victory point for a green boat" (and the other colours): one boat of the colour per card.
        for colour in range(len(B.BOAT_COLOURS)):
            boats = sum(1 for boat, _ in self.boats_taken[p] if _BOAT_COLOUR[boat] == colour)
            points += min(held[B.TASK_BOAT + colour], boats)
        return points

    def winners(self):
        """Highest score; [Resolving ties] then more explorers on the island, then more artifacts
        carried by explorers on the island; whoever is still tied shares a draw."""
        def key(p):
            island = self.on_island(p)
            return (self.scores()[p], len(island), sum(sum(self.carried[p][e]) for e in island))
        keys = [key(p) for p in range(self.num_players)]
        best = max(keys)
        return [p for p in range(self.num_players) if keys[p] == best]

    @property
    def end(self):
        """How the game ended, named as in ``pacific_common.ends``: the rulebook's end ("rules"), an
        end settled because no explorer could ever leave the island ("settled": RULINGS.md, or walled
        in, RULES.md), or ``max_turns`` ("truncated"); None while it runs."""
        if self.truncated:
            return "truncated"
        if not self.terminated:
            return None
        return "settled" if self.end_reason in ("settled", "walled in") else "rules"

    def rewards(self, mode="win_loss"):
        """Rewards arrive only when the game ends by the rules; a truncated or running game gives 0."""
        if mode not in REWARD_MODES:
            raise ValueError(f"unknown reward mode {mode!r}; use one of {REWARD_MODES}")
        n = self.num_players
        if not self.terminated:
            return [0.0] * n
        if mode == "win_loss":
            winners = self.winners()
            if len(winners) == 1:
                return [1.0 if p in winners else -1.0 for p in range(n)]
            return [0.0 if p in winners else -1.0 for p in range(n)]
        scores = self.scores()
        if mode == "score":
            return [float(s) for s in scores]
        return [float(scores[p] - max(scores[o] for o in range(n) if o != p)) for p in range(n)]
