"""Human-readable views of a Mauna Kea game row: a text board and an RGB picture.

Both functions only read the state (one row as laid out in ``core``) and never change it.  Mauna
Kea has no hidden information (hands lie face up, the bag can be counted), so both show everything;
``render_ansi``'s ``viewer_player`` only marks which player is "you".  The picture is drawn with
numpy alone, so that rendering needs nothing beyond the game's own dependencies.
"""
import numpy as np

from pacific_common.draw import outline

from . import kernels
from .board import (
    BOAT_CAPACITY, BOAT_COLOUR, BOAT_COLOURS, BOAT_NAMES, CARD_KIND_NAMES, DIRECTIONS, EXPLORER_COLOURS,
    FIELD_NAMES, FIELD_SQUARES, FIELD_XY, FIRST_LAVA_TILE, IS_LAVA_EXIT, IS_START_FIELD, JUNGLE,
    LANDING_ENTRY_SQUARES, LANDING_NAMES, LANDING_XY, LAVA, LAVA_FLOW_DIRECTION,
    LAVA_FLOW_EXIT_FIELD, LAVA_FLOW_NAMES, LAVA_SHAPE_EXIT_TURNS, LAVA_TILE_FLOW, LAVA_TILE_SHAPE,
    MOUNTAIN, NUM_BOATS, NUM_FIELDS, NUM_ISLAND_TILES, NUM_LANDINGS, NUM_LAVA_FLOWS, NUM_LAVA_TILES,
    NUM_SQUARES, NUM_TERRAIN_TILES, SQUARES_PER_SIDE, SQUARE_FIELD, SQUARE_NAMES, STRAIGHT,
    TERRAIN_TILE_POINTS, TERRAIN_TILE_SQUARES, VOLCANO, VOLCANO_FIELD, WATER,
)

_STATUS = ("unplaced", "on the island", "in a boat", "lost to lava", "rescued by helicopter")
_COLOURS = ("white", "gray", "black")
_TERRAIN_CHAR = ".jw^#V"   # no tile, jungle, water, mountain, lava, volcano
_ARTIFACT_CHAR = "*+@"     # white, gray, black: a square shows the most valuable lying there
_TILE_LETTER = "?JWM"      # hand tiles as "top row/bottom row": J(ungle) W(ater) M(ountain)
_SIDE = SQUARES_PER_SIDE


def _pieces(state, base, index):
    """The artifacts counted at ``state[base + 3 * index + colour]``, most valuable first."""
    return [c for c in (2, 1, 0) for _ in range(state[base + 3 * index + c])]


def _board_lines(state):
    """The 18 x 18 squares, a space between fields, in a frame of sea ('~') that shows each
    landing's boat (its places) beside the landing's entry squares."""
    grid = [[_TERRAIN_CHAR[state[kernels.TERRAIN + y * _SIDE + x]] for x in range(_SIDE)]
            for y in range(_SIDE)]
    for s in range(NUM_SQUARES):
        occupant, lying = state[kernels.OCCUPANT + s], _pieces(state, kernels.ARTIFACTS, s)
        if occupant >= 0:
            grid[s // _SIDE][s % _SIDE] = str(occupant // 8)
        elif lying:
            grid[s // _SIDE][s % _SIDE] = _ARTIFACT_CHAR[lying[0]]
    top, bottom, left, right = (["~"] * _SIDE for _ in range(4))
    for k, squares in enumerate(LANDING_ENTRY_SQUARES.tolist()):
        boat = state[kernels.LANDING_BOAT + k]
        for s in squares:
            x, y = s % _SIDE, s // _SIDE
            mark = str(BOAT_CAPACITY[boat]) if boat >= 0 else "-"
            if y in (0, _SIDE - 1):
                (top if y == 0 else bottom)[x] = mark
            else:
                (left if x == 0 else right)[y] = mark

    def row(cells):
        return " ".join("".join(cells[i:i + 2]) for i in range(0, _SIDE, 2))

    lines = ["        " + "  ".join("ABCDEFGHI"), f"      ~ {row(top)} ~"]
    for y in range(_SIDE):
        label = f"{y // 2 + 1:>2}" if y % 2 == 0 else "  "
        lines.append(f"  {label}  {left[y]} {row(grid[y])} {right[y]}  {label}".rstrip())
    lines.append(f"      ~ {row(bottom)} ~")
    return lines + [
        "  . no tile  j jungle  w water  ^ mountain  # lava  V volcano  0-3 a player's explorer",
        "  * white  + gray  @ black artifact (the most valuable lying there)",
        "  ~ sea; beside a landing: its boat's places (1-3), '-' once the boat is taken"]


def _tile_text(t):
    letters = "".join(_TILE_LETTER[c] for c in TERRAIN_TILE_SQUARES[t])
    return f"[{TERRAIN_TILE_POINTS[t]} {letters[:2]}/{letters[2:]}]"


def _boat_text(state, b):
    load = [int(state[kernels.BOAT_LOAD + 3 * b + c]) for c in range(3)]
    cargo = ", ".join(f"{k} {_COLOURS[c]}" for c, k in enumerate(load) if k) or "no artifacts"
    empty = int(BOAT_CAPACITY[b]) - sum(load)
    return f"{BOAT_NAMES[b]}: {cargo}" + (f", {empty} empty" if empty else "")


def _bag_lines(state):
    in_bag = np.array([state[kernels.TILE_WHERE + t] == kernels.IN_BAG for t in range(NUM_ISLAND_TILES)])
    terrain = [np.sum(in_bag[:NUM_TERRAIN_TILES] & (TERRAIN_TILE_POINTS == v)) for v in (1, 2, 3)]
    lava = [f"{LAVA_FLOW_NAMES[f]} {np.sum(in_bag[FIRST_LAVA_TILE:] & (LAVA_TILE_FLOW == f))}"
            for f in range(NUM_LAVA_FLOWS)]
    lines = [f"Bag: {int(in_bag.sum())} tiles",
             f"  terrain tiles worth 1 / 2 / 3 points: {terrain[0]} / {terrain[1]} / {terrain[2]}",
             f"  lava tiles: {', '.join(lava)}",
             "Lava flows (where each open branch ends, and its heading)"]
    for f in range(NUM_LAVA_FLOWS):
        heads = [f"{FIELD_NAMES[state[kernels.BRANCH_FIELD + k]]} heading "
                 f"{DIRECTIONS[state[kernels.BRANCH_DIRECTION + k]]}"
                 for k in (2 * f, 2 * f + 1) if state[kernels.BRANCH_OPEN + k]]
        lines.append(f"  {LAVA_FLOW_NAMES[f]:<13} {', '.join(heads) or 'stopped (left the board)'}")
    lost = [f"{state[kernels.REMOVED_ARTIFACTS + c]} {_COLOURS[c]}" for c in range(3)
            if state[kernels.REMOVED_ARTIFACTS + c]]
    return lines + (["Artifacts lost to lava: " + ", ".join(lost)] if lost else [])


def render_ansi(state, viewer_player: int | None = None) -> str:
    """A plain-text board.  ``viewer_player`` (or ``None`` for a spectator) is only marked as
    "you".  Lines stay within 100 characters."""
    n, phase, turn = int(state[kernels.NUM_PLAYERS]), int(state[kernels.PHASE]), int(state[kernels.TURN])
    advanced = state[kernels.VARIANT] == kernels.VARIANT_ADVANCED

    def name(p):
        you = ", you" if viewer_player is not None and p == viewer_player else ""
        return f"{EXPLORER_COLOURS[p]} (player {p}{you})"

    if phase == kernels.PHASE_OVER:
        lines = [f"Mauna Kea - game over after {turn} player turns"]
        if state[kernels.STATUS] == kernels.STATUS_TRUNCATED:
            lines.append(f"No winner: game truncated at the limit of {state[kernels.MAX_TURNS]} turns")
        else:
            standing = [kernels.standing(state, p) for p in range(n)]
            winners = [name(p) for p in range(n) if standing[p] == max(standing)]
            head = "Winner: " if len(winners) == 1 else "Draw between: "
            lines.append(head + ", ".join(winners))
    elif phase == kernels.PHASE_CARDS:
        lines = ["Mauna Kea - set-up: each player keeps 4 of his 6 cards",
                 f"To act: {name(state[kernels.TO_ACT])}"]
    elif phase == kernels.PHASE_PLACEMENT:
        total = n * state[kernels.EXPLORERS_EACH]
        lines = [f"Mauna Kea - placing explorers ({state[kernels.PLACED]} of {total} placed)",
                 f"To act: {name(state[kernels.TO_ACT])}"]
    else:
        lines = [f"Mauna Kea - player turn {turn + 1}",
                 f"To act: {name(state[kernels.TO_ACT])}   Movement pool: {state[kernels.POOL]}"]
        if state[kernels.END_TRIGGERED]:
            turns_left = state[kernels.FINAL_TURNS_LEFT]
            lines.append(f"End triggered: {turns_left} turn(s) left, this one included")
        if phase == kernels.PHASE_CARD_MOVE:
            kind = ("jungle", "water", "mountain")[state[kernels.CARD_MOVE_KIND]]
            lines.append(f"Playing {kind} movement with explorer {state[kernels.CARD_MOVE_EXPLORER]}")
        elif phase == kernels.PHASE_QUAKE_DRAW:
            lines.append("Earthquake played: draw a tile or not")
        elif phase == kernels.PHASE_QUAKE_LAY:
            lines.append(f"Earthquake: lay the drawn tile {_tile_text(state[kernels.QUAKE_TILE])}")
    lines.append("Viewer: spectator" if viewer_player is None else f"Viewer: {name(viewer_player)}")

    lines += [""] + _board_lines(state) + ["Landings"]
    for k in range(NUM_LANDINGS):
        boat = state[kernels.LANDING_BOAT + k]
        lines.append(f"  {LANDING_NAMES[k]:<16} {BOAT_NAMES[boat] if boat >= 0 else '- (taken)'}")

    lines.append("\nPlayers")
    for p in range(n):
        act = "  <- to act" if phase != kernels.PHASE_OVER and p == state[kernels.TO_ACT] else ""
        # another player's task cards stay hidden until the end, and so do their points
        known = p == viewer_player or phase == kernels.PHASE_OVER
        points = kernels.score(state, p) if known else kernels.public_score(state, p)
        hidden = " (cards hidden)" if advanced and not known else ""
        lines.append(f"  {name(p):<22} score {points:>3}{hidden}   "
                     f"explorers on the island {kernels.explorers_on_island(state, p)}{act}")
        if advanced:
            lines += _card_lines(state, p, known)
        hand = [state[kernels.HAND + p * kernels.HAND_SLOTS + h]
                for h in range(state[kernels.HAND_SIZE + p])]
        lines.append(f"    hand ({kernels.hand_points(state, p)} points): "
                     f"{'  '.join(_tile_text(t) for t in hand) or 'empty'}")
        for e in range(state[kernels.EXPLORERS_EACH]):
            x = p * kernels.MAX_EXPLORERS + e
            status = int(state[kernels.EXPLORER_STATUS + x])
            where = (SQUARE_NAMES[state[kernels.EXPLORER_SQUARE + x]] if status == kernels.ON_ISLAND
                     else _STATUS[status])
            carried = ", ".join(f"{state[kernels.CARRIED + 3 * x + c]} {_COLOURS[c]}" for c in range(3)
                                if state[kernels.CARRIED + 3 * x + c])
            lines.append(f"    explorer {e}: {where}{', carrying ' + carried if carried else ''}")
        lines += [f"    boat {_boat_text(state, b)}" for b in range(NUM_BOATS)
                  if state[kernels.BOAT_OWNER + b] == p]
    return "\n".join(lines + [""] + _bag_lines(state))


def _card_lines(state, p, known):
    """Advanced rules: a player's cards (shown only to their owner, and to all once the game is over),
    the action cards he played and his helicopter rescues, which are public."""
    cards = [(CARD_KIND_NAMES[k], int(state[kernels.CARDS + p * kernels.NUM_CARD_KINDS + k]))
             for k in range(kernels.NUM_CARD_KINDS) if state[kernels.CARDS + p * kernels.NUM_CARD_KINDS + k]]
    held = sum(c for _, c in cards)
    if known:
        text = "; ".join(f"{c} x {k}" if c > 1 else k for k, c in cards) or "none"
        lines = [f"    cards: {text}"]
    else:
        lines = [f"    cards: {held} hidden"]
    played = [f"{int(state[kernels.PLAYED + p * kernels.NUM_ACTION_KINDS + a])} x "
              f"{CARD_KIND_NAMES[kernels.FIRST_ACTION_KIND + a]}"
              for a in range(kernels.NUM_ACTION_KINDS) if state[kernels.PLAYED + p * kernels.NUM_ACTION_KINDS + a]]
    if played:
        lines.append("    played: " + ", ".join(played))
    rescued = [f"{state[kernels.RESCUED_ARTIFACTS + 3 * p + c]} {_COLOURS[c]}" for c in range(3)
               if state[kernels.RESCUED_ARTIFACTS + 3 * p + c]]
    if rescued:
        lines.append("    rescued by helicopter: " + ", ".join(rescued))
    return lines


# ------------------------------------------------------------------------------------------------
# Picture geometry.  One set of numbers serves both pictures: ``render_rgb`` stamps each shape as a
# boolean mask made once below, ``render_svg`` writes the same shape as a vector at the same pixel
# coordinates, so the two drawings cannot drift apart.  A shape's offsets are in pixels from the
# centre of the square, field, boat or panel stamp it lies on, y pointing down; a mask pixel belongs
# to a shape when the pixel's centre does.  The squares are coloured from a table, then the grid,
# lava, the volcano, artifacts, explorers and boats go on top.  A panel under the board shows each
# player's explorers, hand and boats; the top bar is the player to act.
CELL, BAR, ROW, MINI = 24, 12, 30, 9       # square, top bar, panel row, hand-tile square (pixels)
FIELD = 2 * CELL
BOARD = _SIDE * CELL
MARGIN = 2 * CELL                           # room for the boats, one square off the edge
WIDTH = BOARD + 2 * MARGIN
_TOP = BAR + MARGIN                         # the board's first pixel row
_SEA = np.array((28, 58, 104), np.uint8)
_DARK = np.array((34, 28, 26), np.uint8)
_PALE = np.array((246, 240, 222), np.uint8)
_LOST = np.array((110, 104, 100), np.uint8)
_TERRAIN_RGB = np.array([(226, 212, 168), (58, 138, 62), (96, 166, 222), (138, 116, 96),
                         (226, 88, 32), (64, 52, 50)], np.uint8)   # by terrain code
_START_JUNGLE = np.array((128, 186, 82), np.uint8)                 # the printed start fields
_CHANNEL = np.array((160, 34, 18), np.uint8)
_ARROW = np.array((255, 214, 72), np.uint8)
_ROCK = np.array((98, 80, 66), np.uint8)
_SNOW_RGB = np.array((236, 236, 232), np.uint8)
_WAVE_RGB = np.array((170, 210, 240), np.uint8)
_CONE = np.array((200, 40, 20), np.uint8)
_CRATER = np.array((255, 160, 40), np.uint8)
_PLAYER_RGB = np.array([(222, 34, 34), (250, 210, 0), (36, 84, 226), (150, 56, 180)], np.uint8)
_ARTIFACT_RGB = np.array([(250, 250, 250), (150, 150, 150), (20, 20, 20)], np.uint8)
_BOAT_RGB = np.array([(40, 170, 80), (132, 84, 44), (246, 142, 30), (244, 140, 190)], np.uint8)
assert len(BOAT_COLOURS) == len(_BOAT_RGB) and len(EXPLORER_COLOURS) == len(_PLAYER_RGB)
_GRID_SHADE = 3 / 4                         # a thin grid line darkens the square's colour

# On a square: the explorer's disc, artifact diamonds (carried under the disc, lying in the corners,
# or one big one alone), a mountain's peak with its snow, a water square's wave.
EXPLORER_DISC = (0, -3, 7.5)                # x, y, radius
SPOT_RADIUS, ALONE_RADIUS = 3.5, 5
CARRIED_SPOTS = {k: [(7 * i - 3.5 * (k - 1), 7.5) for i in range(k)] for k in (1, 2, 3)}
CORNER_SPOTS = ((-7, -7), (7, -7), (-7, 7), (7, 7))
PEAK_TOP, PEAK_SLOPE, PEAK_BASE, SNOW_LINE = -6, 1.4, 5, -2.5
WAVE_AMPLITUDE, WAVE_FREQUENCY, WAVE_HALF_WIDTH, WAVE_HALF_LENGTH = 2, 0.6, 0.8, 7

# On a field: its inside (without its share of the thick grid line), the start fields' frame, the
# volcano's cone and crater, the lava channel (a hub and half channels to the sides it joins) and each
# flow's symbol at every exit: one, two or three chevrons, or an open arrowhead.  Drawn for an exit
# to the north and turned a quarter clockwise for each direction after it.
FIELD_INSIDE = FIELD / 2 - 1
START_FRAME = (FIELD / 2 - 6, FIELD / 2 - 4)   # the frame's inner and outer ring
VOLCANO_CONE, VOLCANO_CRATER = 14, 7
HUB_RADIUS, CHANNEL_HALF_WIDTH = 6, 6
CHEVRON_HALF_WIDTH, CHEVRON_THICKNESS = 8, 4
FLOW_CHEVRON_TIPS = ((-22,), (-22, -15), (-22, -15, -8), ())   # the open arrow has none
OPEN_ARROW = (-22, -11, -19, -13, 1.2)      # tip and base of the outline, then of its hole; slope

# A boat at its landing: a hull of 3.4 x 1.1 squares with cut corners, a pip per artifact place.
BOAT_LENGTH, BOAT_BEAM, BOAT_CORNER, PIP_SPACING, PIP_RADIUS = 81, 27, 4, 16, 4.5

# The panel: a row per player with a swatch, explorers, hand tiles and boats taken.  Its explorers and
# boats are stamps of PANEL_STAMP pixels, placed by their top-left corner.
PANEL_STAMP = (ROW - 4, 40)                 # height, width
PANEL_DISC = (-14, 0, 6)
MINI_HULL = (19, 8)                         # half length, half beam
MINI_SEAT = (-12, 0, 5)
MINI_PLACES, MINI_PLACE_RADIUS = (-1, 7, 15), 4
SWATCH = ROW - 8
_HAND_LEFT = 40 + 14 * kernels.MAX_EXPLORERS + 10
_BOATS_LEFT = _HAND_LEFT + kernels.HAND_SLOTS * (2 * MINI + 4) + 10
HATCH = 12, 4                               # the game-over bar: a dark stripe of 4 every 12 pixels


def picture_size(state):
    """(height, width) of both pictures of ``state``: the bar, the board with its margins, a panel
    row per player."""
    return _TOP + BOARD + MARGIN + int(state[kernels.NUM_PLAYERS]) * ROW + 4, WIDTH


def square_origin(s):
    """Top-left pixel (top, left) of square ``s``."""
    return _TOP + (s // _SIDE) * CELL, MARGIN + (s % _SIDE) * CELL


def field_origin(f):
    """Top-left pixel (top, left) of field ``f``."""
    return _TOP + int(FIELD_XY[f, 1]) * FIELD, MARGIN + int(FIELD_XY[f, 0]) * FIELD


def boat_box(landing, capacity):
    """(top, left, height, width) of the boat at ``landing``: across the sea beside the board's north
    and south sides, up and down beside the east and west sides."""
    bx, by = LANDING_XY[landing]
    h, w = (BOAT_LENGTH, BOAT_BEAM) if not 0 < bx < _SIDE else (BOAT_BEAM, BOAT_LENGTH)
    return _TOP + int(round(by * CELL)) - h // 2, MARGIN + int(round(bx * CELL)) - w // 2, h, w


def panel_top(p):
    """The first pixel row of player ``p``'s panel row."""
    return _TOP + BOARD + MARGIN + p * ROW


def hand_tile_origin(p, h):
    """Top-left pixel of player ``p``'s hand tile ``h`` in the panel (2 x 2 squares of MINI)."""
    return panel_top(p) + 4, _HAND_LEFT + h * (2 * MINI + 4)


def _square_colours(state):
    """The colour of every square: its terrain, the printed start fields a lighter jungle."""
    terrain = np.asarray(state[kernels.TERRAIN: kernels.TERRAIN + NUM_SQUARES])
    colours = _TERRAIN_RGB[terrain]
    colours[IS_START_FIELD[SQUARE_FIELD] & (terrain == JUNGLE)] = _START_JUNGLE
    return colours


def _lava_on(state, f):
    """(flow, channel directions, exit directions) of the lava on field ``f``, or None: a lava tile,
    or a printed exit field (straight, away from the volcano)."""
    lava = state[kernels.FIELD_TILE + f] - FIRST_LAVA_TILE
    if 0 <= lava < NUM_LAVA_TILES:
        flow, shape, heading = LAVA_TILE_FLOW[lava], LAVA_TILE_SHAPE[lava], state[kernels.FIELD_ROTATION + f]
    elif IS_LAVA_EXIT[f]:
        flow = int(np.flatnonzero(LAVA_FLOW_EXIT_FIELD == f)[0])
        shape, heading = STRAIGHT, LAVA_FLOW_DIRECTION[flow]
    else:
        return None
    exits = [int((heading + t) % 4) for t in LAVA_SHAPE_EXIT_TURNS[shape] if t >= 0]
    return int(flow), [int((heading + 2) % 4)] + exits, exits


def _shows_start_frame(state, f):
    return IS_START_FIELD[f] and state[kernels.TERRAIN + FIELD_SQUARES[f, 0]] == JUNGLE


def _square_pieces(state, s):
    """What stands on square ``s``: [(x, y, radius, colour)] of the artifacts lying there, and the
    explorer as (player, explorer, [(x, y, colour)] of what he carries) or None."""
    occupant, lying = state[kernels.OCCUPANT + s], _pieces(state, kernels.ARTIFACTS, s)
    if occupant < 0 and len(lying) == 1:
        spots = [(0, 0, ALONE_RADIUS, lying[0])]
    else:
        spots = [(x, y, SPOT_RADIUS, c) for (x, y), c in zip(CORNER_SPOTS, lying)]
    if occupant < 0:
        return spots, None
    p, e = int(occupant // 8), int(occupant % 8)
    carried = _pieces(state, kernels.CARRIED, p * kernels.MAX_EXPLORERS + e)
    return spots, (p, e, [(x, y, c) for (x, y), c in zip(CARRIED_SPOTS.get(len(carried), []), carried)])


def _panel_explorers(state, p):
    """The colours of player ``p``'s panel discs: explorers still on the island, then those lost."""
    status = [state[kernels.EXPLORER_STATUS + p * kernels.MAX_EXPLORERS + e]
              for e in range(state[kernels.EXPLORERS_EACH])]
    return [_PLAYER_RGB[p]] * status.count(kernels.ON_ISLAND) + [_LOST] * status.count(kernels.LOST)


def _boats_taken(state, p):
    """Player ``p``'s boats in the panel: (left, boat, colour of each artifact place)."""
    left, out = _BOATS_LEFT, []
    for b in range(NUM_BOATS):
        if state[kernels.BOAT_OWNER + b] != p:
            continue
        load = _pieces(state, kernels.BOAT_LOAD, b)
        places = [_ARTIFACT_RGB[load[i]] if i < len(load) else _BOAT_RGB[BOAT_COLOUR[b]]
                  for i in range(BOAT_CAPACITY[b])]   # an empty place in the boat's own colour
        out.append((left, b, places))
        left += 46
    return out


def _bar_colour(state):
    """The top bar: the player to act; once the game is over the sole winner, if there is one."""
    n, lead = int(state[kernels.NUM_PLAYERS]), int(state[kernels.TO_ACT])
    if state[kernels.PHASE] == kernels.PHASE_OVER and state[kernels.STATUS] == kernels.STATUS_TERMINATED:
        standing = [kernels.standing(state, p) for p in range(n)]
        lead = standing.index(max(standing)) if standing.count(max(standing)) == 1 else -1
    return _PLAYER_RGB[lead] if lead >= 0 else _LOST


# ------------------------------------------------------------------------------------------------
# The pixel picture: the shapes above as masks.
def _grid(h, w):
    """Pixel-centre coordinates (y, x) of an h x w stamp, relative to its centre."""
    y, x = np.mgrid[0:h, 0:w] + 0.5
    return y - h / 2, x - w / 2


def _paint(img, top, left, mask, colour, edge=_DARK):
    """Paint ``mask`` with its top-left corner at pixel (top, left), outlined in ``edge``."""
    view = img[top: top + mask.shape[0], left: left + mask.shape[1]]
    view[mask] = colour
    if edge is not None:
        view[outline(mask)] = edge


_SY, _SX = _grid(CELL, CELL)


def _disc(x, y, r, gy=_SY, gx=_SX):
    return (gx - x) ** 2 + (gy - y) ** 2 <= r ** 2


def _diamond(x, y, r, gy=_SY, gx=_SX):
    return np.abs(gx - x) + np.abs(gy - y) <= r


_EXPLORER = _disc(*EXPLORER_DISC)
_PEAK = (_SY >= PEAK_TOP + PEAK_SLOPE * np.abs(_SX)) & (_SY <= PEAK_BASE)
_SNOW = _PEAK & (_SY <= SNOW_LINE)
_WAVE = ((np.abs(_SY - WAVE_AMPLITUDE * np.sin(_SX * WAVE_FREQUENCY)) <= WAVE_HALF_WIDTH)
         & (np.abs(_SX) <= WAVE_HALF_LENGTH))

_FY, _FX = _grid(FIELD, FIELD)
_RING = np.maximum(np.abs(_FX), np.abs(_FY))
_INSIDE = _RING < FIELD_INSIDE
_START_FRAME = (_RING > START_FRAME[0]) & (_RING <= START_FRAME[1])
_VOLCANO_CONE = _disc(0, 0, VOLCANO_CONE, _FY, _FX)
_VOLCANO_CORE = _disc(0, 0, VOLCANO_CRATER, _FY, _FX)


def _turned(mask_north):
    """A north-pointing field mask turned to N, E, S, W (clockwise quarter turns)."""
    return [np.rot90(mask_north, -d) for d in range(4)]


def _chevron(tip):
    return ((_FY - tip >= np.abs(_FX)) & (_FY - tip <= np.abs(_FX) + CHEVRON_THICKNESS)
            & (np.abs(_FX) <= CHEVRON_HALF_WIDTH))


def _open_arrow_mask():
    tip, base, hole_tip, hole_base, slope = OPEN_ARROW
    return ((_FY - tip >= slope * np.abs(_FX)) & (_FY <= base)
            & ~((_FY - hole_tip >= slope * np.abs(_FX)) & (_FY <= hole_base)))


_HUB = _disc(0, 0, HUB_RADIUS, _FY, _FX)
_HALF_CHANNEL = _turned((np.abs(_FX) <= CHANNEL_HALF_WIDTH) & (_FY <= 0))   # centre to one side
_FLOW_ARROWS = [_turned(np.logical_or.reduce([_chevron(t) for t in tips]) if tips else _open_arrow_mask())
                for tips in FLOW_CHEVRON_TIPS]

# The board's pixels: square column (or row) of each, and the grid lines (thick around fields).
_PIX = np.arange(BOARD) // CELL
_THIN = np.arange(BOARD) % CELL == 0
_THICK = (np.arange(BOARD) % FIELD == 0) | (np.arange(BOARD) % FIELD == FIELD - 1)


def _boat_masks(capacity, vertical):
    y, x = _grid(BOAT_BEAM, BOAT_LENGTH)
    hull = np.abs(x) <= BOAT_LENGTH / 2 - 0.5 - np.maximum(0, BOAT_CORNER - (BOAT_BEAM / 2 - np.abs(y)))
    pips = np.zeros_like(hull)
    for i in range(capacity):
        pips |= _disc(PIP_SPACING * (i - (capacity - 1) / 2), 0, PIP_RADIUS, y, x)
    return (hull.T, pips.T) if vertical else (hull, pips)


_BOATS = {(c, v): _boat_masks(c, v) for c in (1, 2, 3) for v in (False, True)}

_PY, _PX = _grid(*PANEL_STAMP)
_PANEL_EXPLORER = _disc(*PANEL_DISC, _PY, _PX)
_MINI_HULL = (np.abs(_PX) <= MINI_HULL[0]) & (np.abs(_PY) <= MINI_HULL[1])
_MINI_SEAT = _disc(*MINI_SEAT, _PY, _PX)
_MINI_PLACES = [_diamond(dx, 0, MINI_PLACE_RADIUS, _PY, _PX) for dx in MINI_PLACES]
_MINI_TILE_EDGE = outline(np.ones((2 * MINI, 2 * MINI), bool))
_SWATCH = np.ones((SWATCH, SWATCH), bool)


def _draw_board(img, state):
    terrain = np.asarray(state[kernels.TERRAIN: kernels.TERRAIN + NUM_SQUARES])
    board = _square_colours(state).reshape(_SIDE, _SIDE, 3)[_PIX][:, _PIX]
    board[_THIN] = board[_THIN] * 3 // 4
    board[:, _THIN] = board[:, _THIN] * 3 // 4
    board[_THICK] = _DARK
    board[:, _THICK] = _DARK
    img[_TOP: _TOP + BOARD, MARGIN: MARGIN + BOARD] = board
    for s in np.flatnonzero(terrain == MOUNTAIN):
        _paint(img, *square_origin(s), _PEAK, _ROCK, edge=None)
        _paint(img, *square_origin(s), _SNOW, _SNOW_RGB, edge=None)
    for s in np.flatnonzero(terrain == WATER):
        _paint(img, *square_origin(s), _WAVE, _WAVE_RGB, edge=None)

    for f in range(NUM_FIELDS):
        top, left = field_origin(f)
        lava = _lava_on(state, f)
        if f == VOLCANO_FIELD:
            img[top: top + FIELD, left: left + FIELD][_INSIDE] = _TERRAIN_RGB[VOLCANO]
            _paint(img, top, left, _VOLCANO_CONE, _CONE)
            _paint(img, top, left, _VOLCANO_CORE, _CRATER, edge=None)
        elif lava is not None:
            flow, channel_sides, exits = lava
            channel = _HUB.copy()
            for d in channel_sides:
                channel |= _HALF_CHANNEL[d]
            img[top: top + FIELD, left: left + FIELD][_INSIDE] = _TERRAIN_RGB[LAVA]
            _paint(img, top, left, channel, _CHANNEL, edge=None)
            for d in exits:
                _paint(img, top, left, _FLOW_ARROWS[flow][d], _ARROW, edge=None)
        elif _shows_start_frame(state, f):
            _paint(img, top, left, _START_FRAME, _PALE, edge=None)


def _draw_pieces(img, state):
    for s in range(NUM_SQUARES):
        spots, explorer = _square_pieces(state, s)
        for x, y, r, c in spots:
            _paint(img, *square_origin(s), _diamond(x, y, r), _ARTIFACT_RGB[c])
        if explorer is not None:
            p, _, carried = explorer
            _paint(img, *square_origin(s), _EXPLORER, _PLAYER_RGB[p])
            for x, y, c in carried:
                _paint(img, *square_origin(s), _diamond(x, y, SPOT_RADIUS), _ARTIFACT_RGB[c])
    for k, (bx, by) in enumerate(LANDING_XY.tolist()):
        boat = state[kernels.LANDING_BOAT + k]
        if boat < 0:
            continue                        # taken: the boat has left
        hull, pips = _BOATS[int(BOAT_CAPACITY[boat]), not 0 < bx < _SIDE]
        top, left, _, _ = boat_box(k, BOAT_CAPACITY[boat])
        _paint(img, top, left, hull, _BOAT_RGB[BOAT_COLOUR[boat]])
        _paint(img, top, left, pips, _PALE)


def _draw_panel(img, state):
    for p in range(int(state[kernels.NUM_PLAYERS])):
        top = panel_top(p)
        if p == state[kernels.TO_ACT]:
            img[top: top + ROW - 2, 6: WIDTH - 6] = _PALE
        _paint(img, top + 3, 10, _SWATCH, _PLAYER_RGB[p])
        for i, colour in enumerate(_panel_explorers(state, p)):
            _paint(img, top + 2, 40 + 14 * i, _PANEL_EXPLORER, colour)
        for h in range(state[kernels.HAND_SIZE + p]):
            squares = TERRAIN_TILE_SQUARES[state[kernels.HAND + p * kernels.HAND_SLOTS + h]]
            y, x = hand_tile_origin(p, h)
            tile = img[y: y + 2 * MINI, x: x + 2 * MINI]
            tile[:] = _TERRAIN_RGB[squares].reshape(2, 2, 3).repeat(MINI, 0).repeat(MINI, 1)
            tile[_MINI_TILE_EDGE] = _DARK
        for left, b, places in _boats_taken(state, p):   # the explorer's seat, then the places
            _paint(img, top + 2, left, _MINI_HULL, _BOAT_RGB[BOAT_COLOUR[b]])
            _paint(img, top + 2, left, _MINI_SEAT, _PLAYER_RGB[p])
            for mask, colour in zip(_MINI_PLACES, places):
                _paint(img, top + 2, left, mask, colour)


def render_rgb(state) -> np.ndarray:
    """An (H, W, 3) uint8 picture: the island (terrain, lava flows with their arrows, the volcano),
    artifacts, explorers, the boats still at their landings, a panel with each player's explorers,
    hand and boats, and the player to act (top bar and highlighted panel row).  Once the game is
    over the bar is hatched, in the sole winner's colour if there is one."""
    img = np.empty(picture_size(state) + (3,), np.uint8)
    img[:] = _SEA
    _draw_board(img, state)
    _draw_pieces(img, state)
    _draw_panel(img, state)
    img[:BAR] = _bar_colour(state)
    if state[kernels.PHASE] == kernels.PHASE_OVER:
        img[:BAR][(np.add.outer(np.arange(BAR), np.arange(WIDTH)) % HATCH[0]) < HATCH[1]] = _DARK
    return img
