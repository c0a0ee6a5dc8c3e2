"""Human-readable views of a Mauna Kea game row: a text board (``render_ansi``), an RGB picture
(``render_rgb``) and an SVG drawing (``render_svg``).

Every function only reads the state (one row as laid out in ``core``) and never changes it.  The
basic game has no hidden information (hands lie face up, the bag can be counted); in the advanced
game each player's task cards, and so his points, stay hidden from the others until the game is
over.  So the text and the SVG draw one viewer's view: ``viewer_player`` is marked as "you" and sees
his own cards, a spectator (``None``) sees no one's.  The RGB picture shows no cards.  The picture
is drawn with numpy alone, so that rendering needs nothing beyond the game's own dependencies.
"""
import re
from xml.sax.saxutils import escape

import numpy as np

from pacific_common import checked
from pacific_common.draw import hatch, hatch_stripes, outline, plural, text_lines

from . import core, kernels
from .board import (
    FIELDS_PER_SIDE, IS_TILE_FIELD, LAVA_TILE_NAMES, SQUARE_NEIGHBOURS, START_KIND_NAMES,
    START_TILE_KIND, TERRAIN_KIND_NAMES, TERRAIN_NAMES, TERRAIN_TILE_KIND,
)
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
        "  . no tile  j jungle  w water  ^ mountain  # lava  V volcano",
        "  0-3 a player's explorer (what he stands on: his line under Players)",
        "  * white  + gray  @ black artifact (the most valuable lying there)",
        "  ~ sea; beside a landing: its boat's places (1-3), '-' once the boat is taken"]


def _tile_text(t):
    letters = "".join(_TILE_LETTER[c] for c in TERRAIN_TILE_SQUARES[t])
    return f"[{TERRAIN_TILE_POINTS[t]} {letters[:2]}/{letters[2:]}]"


def _boat_text(state, b):
    load = _pieces(state, kernels.BOAT_LOAD, b)
    cargo = _count_words(load) or "no artifacts"
    empty = int(BOAT_CAPACITY[b]) - len(load)
    return f"{BOAT_NAMES[b]}: {cargo}" + (f", {empty} empty" if empty else "")


def _bag_lines(state):
    in_bag = np.array([state[kernels.TILE_WHERE + t] == kernels.IN_BAG for t in range(NUM_ISLAND_TILES)])
    terrain = [np.sum(in_bag[:NUM_TERRAIN_TILES] & (TERRAIN_TILE_POINTS == v)) for v in (1, 2, 3)]
    lava = [f"{LAVA_FLOW_NAMES[f]} {np.sum(in_bag[FIRST_LAVA_TILE:] & (LAVA_TILE_FLOW == f))}"
            for f in range(NUM_LAVA_FLOWS)]
    lines = [f"Bag: {plural(int(in_bag.sum()), 'tile')}",
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
    """A plain-text board as ``viewer_player`` sees it (``None``: a spectator): marked as "you",
    and in the advanced game shown his own task cards and points, not the others' until the game
    is over.  Lines stay within 100 characters.  A viewer who is not a
    player of the game is a ``ValueError``, as is a row that ``core.check_state`` refuses (the drawing
    trusts the row's counts and indices: a wrong one reads outside it)."""
    core.check_state(state)
    viewer_player = checked.viewer(viewer_player, int(state[kernels.NUM_PLAYERS]))
    n, phase, turn = int(state[kernels.NUM_PLAYERS]), int(state[kernels.PHASE]), int(state[kernels.TURN])
    advanced = state[kernels.VARIANT] == kernels.VARIANT_ADVANCED

    def name(p):
        you = ", you" if viewer_player is not None and p == viewer_player else ""
        return f"{EXPLORER_COLOURS[p]} (player {p}{you})"

    if phase == kernels.PHASE_OVER:
        lines = [f"Mauna Kea - game over after {turn} player turns"]
        if state[kernels.STATUS] == kernels.STATUS_TRUNCATED:
            lines.append(f"No winner: game truncated at the limit of {plural(state[kernels.MAX_TURNS], 'turn')}")
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
        points = kernels.known_score(state, -1 if viewer_player is None else viewer_player, p)
        hidden = " (cards hidden)" if advanced and not known else ""
        lines.append(f"  {name(p):<22} score {points:>3}{hidden}   "
                     f"explorers on the island {kernels.explorers_on_island(state, p)}{act}")
        if advanced:
            lines += _card_lines(state, p, known)
        hand = [state[kernels.HAND + p * kernels.HAND_SLOTS + h]
                for h in range(state[kernels.HAND_SIZE + p])]
        lines.append(f"    hand ({plural(kernels.hand_points(state, p), 'point')}): "
                     f"{'  '.join(_tile_text(t) for t in hand) or 'empty'}")
        for e in range(state[kernels.EXPLORERS_EACH]):
            x = p * kernels.MAX_EXPLORERS + e
            status = int(state[kernels.EXPLORER_STATUS + x])
            where = (SQUARE_NAMES[state[kernels.EXPLORER_SQUARE + x]] if status == kernels.ON_ISLAND
                     else _STATUS[status])
            carried = _count_words(_pieces(state, kernels.CARRIED, x))
            # the board's grid shows the explorer on his square, not what lies there
            lying = (_count_words(_pieces(state, kernels.ARTIFACTS, state[kernels.EXPLORER_SQUARE + x]))
                     if status == kernels.ON_ISLAND else "")
            lines.append(f"    explorer {e}: {where}{', carrying ' + carried if carried else ''}"
                         f"{', standing on ' + lying if lying else ''}")
        lines += [f"    boat {_boat_text(state, b)}" for b in range(NUM_BOATS)
                  if state[kernels.BOAT_OWNER + b] == p]
    return text_lines(lines + [""] + _bag_lines(state))


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


def _shade(colours):
    """A thin grid line over uint8 ``colours``: three quarters of the colour (in 16 bits, since
    ``3 * c`` passes 255).  Both pictures use this one function."""
    return (np.asarray(colours, np.uint16) * 3 // 4).astype(np.uint8)

# On a square: the explorer's disc, artifact diamonds (carried under the disc, lying in the corners,
# or one big one alone), a mountain's peak with its snow, a water square's wave.  Two or three carried
# artifacts cover the bottom corners; when more lie there than the free corners hold, the last free
# corner shows a plus sign instead, drawn over the disc (the SVG's square title counts them all).
EXPLORER_DISC = (0, -3, 7.5)                # x, y, radius
SPOT_RADIUS, ALONE_RADIUS = 3.5, 5
CARRIED_SPOTS = {k: [(7 * i - 3.5 * (k - 1), 7.5) for i in range(k)] for k in (1, 2, 3)}
CORNER_SPOTS = ((-7, -7), (7, -7), (-7, 7), (7, 7))
MORE = -1                                   # a spot's colour for the plus sign
MORE_ARM, MORE_HALF_WIDTH = 4, 1
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
    """What stands on square ``s``: [(x, y, radius, colour)] of the artifacts lying there (colour
    ``MORE``: the plus sign of those left out), and the explorer as (player, explorer, [(x, y,
    colour)] of what he carries) or None."""
    occupant, lying = state[kernels.OCCUPANT + s], _pieces(state, kernels.ARTIFACTS, s)
    p, e = int(occupant // 8), int(occupant % 8)
    carried = _pieces(state, kernels.CARRIED, p * kernels.MAX_EXPLORERS + e) if occupant >= 0 else []
    corners = CORNER_SPOTS[:2] if len(carried) >= 2 else CORNER_SPOTS
    if len(lying) > len(corners):
        lying = lying[:len(corners) - 1] + [MORE]
    if occupant < 0 and len(lying) == 1:
        spots = [(0, 0, ALONE_RADIUS, lying[0])]
    else:
        spots = [(x, y, SPOT_RADIUS, c) for (x, y), c in zip(corners, lying)]
    if occupant < 0:
        return spots, None
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


def _plus(x, y):
    dx, dy = np.abs(_SX - x), np.abs(_SY - y)
    return (((dx <= MORE_HALF_WIDTH) & (dy <= MORE_ARM)) | ((dx <= MORE_ARM) & (dy <= MORE_HALF_WIDTH)))


def _spot_mask(x, y, r, c):
    """A lying artifact's diamond, or the plus sign of those left out: mask, colour and outline."""
    return (_plus(x, y), _DARK, None) if c == MORE else (_diamond(x, y, r), _ARTIFACT_RGB[c], _DARK)


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
    board[_THIN] = _shade(board[_THIN])
    board[:, _THIN] = _shade(board[:, _THIN])
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
            if c != MORE:
                _paint(img, *square_origin(s), *_spot_mask(x, y, r, c))
        if explorer is not None:
            p, _, carried = explorer
            _paint(img, *square_origin(s), _EXPLORER, _PLAYER_RGB[p])
            for x, y, c in carried:
                _paint(img, *square_origin(s), _diamond(x, y, SPOT_RADIUS), _ARTIFACT_RGB[c])
        for x, y, r, c in spots:   # last: the disc would hide the plus sign's inner arm in a top corner
            if c == MORE:
                _paint(img, *square_origin(s), *_spot_mask(x, y, r, c))
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
    over the bar is hatched, in the sole winner's colour if there is one.  A row that
    ``core.check_state`` refuses is a ``ValueError``."""
    core.check_state(state)
    img = np.empty(picture_size(state) + (3,), np.uint8)
    img[:] = _SEA
    _draw_board(img, state)
    _draw_pieces(img, state)
    _draw_panel(img, state)
    img[:BAR] = _bar_colour(state)
    if state[kernels.PHASE] == kernels.PHASE_OVER:
        img[:BAR][hatch(BAR, WIDTH)] = _DARK
    return img


# ------------------------------------------------------------------------------------------------
# The vector picture: the same shapes as SVG elements, and the places a player clicks to act.
def _hex(colour):
    return "#{:02x}{:02x}{:02x}".format(*(int(v) for v in colour))


def _num(v):
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    v = float(v)
    return str(int(v)) if v.is_integer() else f"{v:.2f}".rstrip("0")


def _element(tag, attrs, title=None):
    """An SVG element.  Attribute values are numbers, colours and ids of ``[a-z0-9-]``, which need no
    escaping; the title is escaped."""
    text = " ".join(f'{k}="{v}"' for k, v in attrs.items())
    if title is None:
        return f"<{tag} {text}/>"
    return f"<{tag} {text}><title>{escape(title)}</title></{tag}>"


def _rect(x, y, w, h, fill, title=None, **attrs):
    if not attrs and title is None:       # the board's many plain rectangles, written quickly
        return f'<rect x="{_num(x)}" y="{_num(y)}" width="{_num(w)}" height="{_num(h)}" fill="{_hex(fill)}"/>'
    return _element("rect", {"x": _num(x), "y": _num(y), "width": _num(w), "height": _num(h),
                             "fill": _hex(fill), **_attrs(attrs)}, title)


def _circle(x, y, r, fill, edge=None, title=None, **attrs):
    """A disc as the masks draw it: pixel centres within ``r``; an outline takes the outermost pixel."""
    if edge is not None:
        attrs = {"stroke": _hex(edge), "stroke_width": 1, **attrs}
        r -= 0.5
    return _element("circle", {"cx": _num(x), "cy": _num(y), "r": _num(r), "fill": _hex(fill),
                               **_attrs(attrs)}, title)


def _polygon(points, fill, edge=None, title=None, **attrs):
    if edge is not None:
        attrs = {"stroke": _hex(edge), "stroke_width": 1, "stroke_linejoin": "round", **attrs}
    return _element("polygon", {"points": " ".join(f"{_num(x)},{_num(y)}" for x, y in points),
                                "fill": _hex(fill), **_attrs(attrs)}, title)


def _attrs(attrs):
    """Python keywords to SVG attribute names: ``stroke_width`` -> ``stroke-width``, ``cls`` -> ``class``."""
    return {("class" if k == "cls" else k.replace("_", "-")): v for k, v in attrs.items()}


def _diamond_points(x, y, r):
    return [(x, y - r), (x + r, y), (x, y + r), (x - r, y)]


def _plus_points(x, y):
    a, h = MORE_ARM, MORE_HALF_WIDTH
    return [(x + dx, y + dy) for dx, dy in ((-h, -a), (h, -a), (h, -h), (a, -h), (a, h), (h, h), (h, a),
                                            (-h, a), (-h, h), (-a, h), (-a, -h), (-h, -h))]


def _quarter_turns(points, d, cx, cy):
    """``points`` given about (0, 0) for the north, turned ``d`` quarters clockwise and moved to (cx, cy)."""
    for _ in range(d):
        points = [(-y, x) for x, y in points]
    return [(cx + x, cy + y) for x, y in points]


def _chevron_points(tip):
    w, t = CHEVRON_HALF_WIDTH, CHEVRON_THICKNESS
    return [(-w, tip + w), (0, tip), (w, tip + w), (w, tip + w + t), (0, tip + t), (-w, tip + w + t)]


def _open_arrow_points():
    """The arrowhead's outline and its hole as one even-odd polygon."""
    tip, base, hole_tip, hole_base, slope = OPEN_ARROW
    half, hole_half = (base - tip) / slope, (hole_base - hole_tip) / slope
    return [(0, tip), (half, base), (-half, base), (0, tip),
            (0, hole_tip), (-hole_half, hole_base), (hole_half, hole_base), (0, hole_tip)]


def _wave_points():
    xs = np.arange(-WAVE_HALF_LENGTH, WAVE_HALF_LENGTH + 0.25, 0.5)
    ys = WAVE_AMPLITUDE * np.sin(xs * WAVE_FREQUENCY)
    return ([(x, y - WAVE_HALF_WIDTH) for x, y in zip(xs, ys)]
            + [(x, y + WAVE_HALF_WIDTH) for x, y in zip(xs[::-1], ys[::-1])])


def _slug(name):
    """A place id from a name of the game: 'landing B1-C1' -> 'place-landing-b1-c1'."""
    return "place-" + re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def square_place(s):
    """The id of square ``s``'s place in ``render_svg``, e.g. ``place-f4-nw``."""
    return _slug(SQUARE_NAMES[checked.integer("square", s, 0, NUM_SQUARES - 1)])   # -1 would name the last


def field_place(f):
    """The id of field ``f``'s place, e.g. ``place-f3`` (only fields that take tiles have one)."""
    return _slug(FIELD_NAMES[checked.integer("field", f, 0, NUM_FIELDS - 1)])


def landing_place(k):
    """The id of landing ``k``'s place, its boat: e.g. ``place-landing-b1-c1``."""
    return _slug(LANDING_NAMES[checked.integer("landing", k, 0, NUM_LANDINGS - 1)])


def hand_tile_place(p, h):
    """The id of player ``p``'s hand tile ``h`` in the panel, e.g. ``place-red-hand-tile-0``."""
    return _slug(f"{EXPLORER_COLOURS[p]} hand tile {h}")


FIELD_HANDLE = 7    # half the side of a tiled field's place: its centre, clear of the squares' centres


def _square_title(state, s):
    words = [f"{SQUARE_NAMES[s]}: {TERRAIN_NAMES[state[kernels.TERRAIN + s]]}"]
    _, explorer = _square_pieces(state, s)
    if explorer is not None:
        p, e, carried = explorer
        load = _count_words([c for _, _, c in carried])
        words.append(f"{EXPLORER_COLOURS[p]} explorer {e}" + (f" carrying {load}" if load else ""))
    lying = _pieces(state, kernels.ARTIFACTS, s)   # all of them: the picture may show a plus sign instead
    if lying:
        words.append(f"lying here: {_count_words(lying)}")
    return "; ".join(words)


def _count_words(colours):
    """Artifact colours (codes, as ``_pieces`` lists them) in words: "1 white, 2 black", empty if none."""
    return ", ".join(f"{colours.count(c)} {_COLOURS[c]}" for c in (0, 1, 2) if c in colours)


def _field_title(state, f):
    t = int(state[kernels.FIELD_TILE + f])
    if t < 0:
        return f"{FIELD_NAMES[f]}: no tile yet"
    if t < NUM_TERRAIN_TILES:
        kind = TERRAIN_KIND_NAMES[TERRAIN_TILE_KIND[t]]
    elif t < NUM_ISLAND_TILES:
        kind = LAVA_TILE_NAMES[t - FIRST_LAVA_TILE]
    else:
        kind = START_KIND_NAMES[START_TILE_KIND[t - NUM_ISLAND_TILES]]
    return f"{FIELD_NAMES[f]}: {kind} tile, turned {state[kernels.FIELD_ROTATION + f]} quarter turns"


def _player_title(state, p, viewer_player):
    """A panel row's words: what everyone may know, and the viewer's own cards (advanced rules);
    another player's cards and task points stay hidden until the game is over."""
    over = state[kernels.PHASE] == kernels.PHASE_OVER
    known = p == viewer_player or over
    you = ", you" if p == viewer_player else ""
    points = kernels.known_score(state, -1 if viewer_player is None else viewer_player, p)
    words = [f"{EXPLORER_COLOURS[p]} (player {p}{you}): {plural(points, 'point')}",
             f"explorers on the island {kernels.explorers_on_island(state, p)}"]
    if state[kernels.VARIANT] == kernels.VARIANT_ADVANCED:
        words += [line.strip() for line in _card_lines(state, p, known)]
    return "; ".join(words)


def _svg_board(state, out):
    colours = _square_colours(state)
    for s in range(NUM_SQUARES):
        top, left = square_origin(s)
        out.append(_rect(left, top, CELL, CELL, colours[s], _square_title(state, s),
                         cls="place", id=square_place(s)))
    out.append('<g pointer-events="none">')
    for s in range(NUM_SQUARES):            # thin lines: each square's top row and left column shaded
        top, left = square_origin(s)
        line = _shade(colours[s])
        out.append(_rect(left, top, CELL, 1, line))
        out.append(_rect(left, top, 1, CELL, line))
        out.append(_rect(left, top, 1, 1, _shade(line)))
    for i in range(FIELDS_PER_SIDE + 1):    # thick lines: the last pixel of a field and the first of the next
        at, width = max(i * FIELD - 1, 0), 1 if i in (0, FIELDS_PER_SIDE) else 2
        out.append(_rect(MARGIN + at, _TOP, width, BOARD, _DARK))
        out.append(_rect(MARGIN, _TOP + at, BOARD, width, _DARK))
    peak = [(0, PEAK_TOP), ((PEAK_BASE - PEAK_TOP) / PEAK_SLOPE, PEAK_BASE),
            (-(PEAK_BASE - PEAK_TOP) / PEAK_SLOPE, PEAK_BASE)]
    snow = [(0, PEAK_TOP), ((SNOW_LINE - PEAK_TOP) / PEAK_SLOPE, SNOW_LINE),
            (-(SNOW_LINE - PEAK_TOP) / PEAK_SLOPE, SNOW_LINE)]
    wave = _wave_points()
    for s in range(NUM_SQUARES):
        top, left = square_origin(s)
        cx, cy = left + CELL / 2, top + CELL / 2
        terrain = state[kernels.TERRAIN + s]
        if terrain == MOUNTAIN:
            out.append(_polygon([(cx + x, cy + y) for x, y in peak], _ROCK))
            out.append(_polygon([(cx + x, cy + y) for x, y in snow], _SNOW_RGB))
        elif terrain == WATER:
            out.append(_polygon([(cx + x, cy + y) for x, y in wave], _WAVE_RGB))

    inside = 2 * FIELD_INSIDE
    for f in range(NUM_FIELDS):
        top, left = field_origin(f)
        cx, cy = left + FIELD / 2, top + FIELD / 2
        lava = _lava_on(state, f)
        if f == VOLCANO_FIELD:
            out.append(_rect(cx - FIELD_INSIDE, cy - FIELD_INSIDE, inside, inside, _TERRAIN_RGB[VOLCANO]))
            out.append(_circle(cx, cy, VOLCANO_CONE, _CONE, _DARK))
            out.append(_circle(cx, cy, VOLCANO_CRATER, _CRATER))
        elif lava is not None:
            flow, channel_sides, exits = lava
            out.append(_rect(cx - FIELD_INSIDE, cy - FIELD_INSIDE, inside, inside, _TERRAIN_RGB[LAVA]))
            out.append(_circle(cx, cy, HUB_RADIUS, _CHANNEL))
            half = [(-CHANNEL_HALF_WIDTH, -FIELD / 2), (CHANNEL_HALF_WIDTH, -FIELD / 2),
                    (CHANNEL_HALF_WIDTH, 0), (-CHANNEL_HALF_WIDTH, 0)]
            for d in channel_sides:
                out.append(_polygon(_quarter_turns(half, d, cx, cy), _CHANNEL))
            tips = FLOW_CHEVRON_TIPS[flow]
            shapes = [_chevron_points(t) for t in tips] if tips else [_open_arrow_points()]
            for d in exits:
                for shape in shapes:
                    out.append(_polygon(_quarter_turns(shape, d, cx, cy), _ARROW, fill_rule="evenodd"))
        elif _shows_start_frame(state, f):
            ring = sum(START_FRAME) / 2
            out.append(_element("rect", {"x": _num(cx - ring), "y": _num(cy - ring), "width": _num(2 * ring),
                                         "height": _num(2 * ring), "fill": "none", "stroke": _hex(_PALE),
                                         "stroke-width": _num(START_FRAME[1] - START_FRAME[0])}))

    for s in range(NUM_SQUARES):
        top, left = square_origin(s)
        cx, cy = left + CELL / 2, top + CELL / 2
        spots, explorer = _square_pieces(state, s)
        for x, y, r, c in spots:
            if c != MORE:
                out.append(_polygon(_diamond_points(cx + x, cy + y, r), _ARTIFACT_RGB[c], _DARK))
        if explorer is not None:
            p, _, carried = explorer
            x, y, r = EXPLORER_DISC
            out.append(_circle(cx + x, cy + y, r, _PLAYER_RGB[p], _DARK))
            for x, y, c in carried:
                out.append(_polygon(_diamond_points(cx + x, cy + y, SPOT_RADIUS), _ARTIFACT_RGB[c], _DARK))
        for x, y, r, c in spots:   # over the disc, as the picture draws it
            if c == MORE:
                out.append(_polygon(_plus_points(cx + x, cy + y), _DARK))
    out.append("</g>")


def _svg_boats(state, out):
    """The boats still at their landings; the hull is the landing's place, the pips let clicks through."""
    for k in range(NUM_LANDINGS):
        boat = state[kernels.LANDING_BOAT + k]
        if boat < 0:
            continue                        # taken: the boat has left, and the landing with it
        capacity = int(BOAT_CAPACITY[boat])
        top, left, h, w = boat_box(k, capacity)
        vertical = h > w
        cx, cy = left + w / 2, top + h / 2
        # through the mask's outermost pixel centres, |x| <= L/2 - 0.5 - max(0, C - (B/2 - |y|)), where
        # the outline's stroke is centred
        half_l, half_b, cut = BOAT_LENGTH / 2 - 0.5, BOAT_BEAM / 2 - 0.5, BOAT_CORNER - 0.5
        hull = [(-half_l + cut, -half_b), (half_l - cut, -half_b), (half_l, -half_b + cut),
                (half_l, half_b - cut), (half_l - cut, half_b), (-half_l + cut, half_b),
                (-half_l, half_b - cut), (-half_l, -half_b + cut)]
        hull = [(y, x) if vertical else (x, y) for x, y in hull]
        title = f"{LANDING_NAMES[k]}: {BOAT_NAMES[boat]}"
        out.append(_polygon([(cx + x, cy + y) for x, y in hull], _BOAT_RGB[BOAT_COLOUR[boat]], _DARK, title,
                            cls="place", id=landing_place(k)))
        for i in range(capacity):
            along = PIP_SPACING * (i - (capacity - 1) / 2)
            x, y = (0, along) if vertical else (along, 0)
            out.append(_circle(cx + x, cy + y, PIP_RADIUS, _PALE, _DARK, pointer_events="none"))


def _svg_panel(state, viewer_player, out):
    """Each player's row: swatch, explorers, hand tiles (places: spending one), boats taken."""
    sh, sw = PANEL_STAMP
    for p in range(int(state[kernels.NUM_PLAYERS])):
        top = panel_top(p)
        if p == state[kernels.TO_ACT]:
            out.append(_rect(6, top, WIDTH - 12, ROW - 2, _PALE))
        out.append(_rect(10.5, top + 3.5, SWATCH - 1, SWATCH - 1, _PLAYER_RGB[p],
                         _player_title(state, p, viewer_player), stroke=_hex(_DARK), stroke_width=1))
        out.append('<g pointer-events="none">')
        x, y, r = PANEL_DISC
        for i, colour in enumerate(_panel_explorers(state, p)):
            out.append(_circle(40 + 14 * i + sw / 2 + x, top + 2 + sh / 2 + y, r, colour, _DARK))
        for left, b, places in _boats_taken(state, p):
            cx, cy = left + sw / 2, top + 2 + sh / 2
            hl, hb = MINI_HULL
            out.append(_rect(cx - hl + 0.5, cy - hb + 0.5, 2 * hl - 1, 2 * hb - 1, _BOAT_RGB[BOAT_COLOUR[b]],
                             stroke=_hex(_DARK), stroke_width=1))
            x, y, r = MINI_SEAT
            out.append(_circle(cx + x, cy + y, r, _PLAYER_RGB[p], _DARK))
            for dx, colour in zip(MINI_PLACES, places):
                out.append(_polygon(_diamond_points(cx + dx, cy, MINI_PLACE_RADIUS), colour, _DARK))
        out.append("</g>")
        for h in range(state[kernels.HAND_SIZE + p]):
            t = state[kernels.HAND + p * kernels.HAND_SLOTS + h]
            y, x = hand_tile_origin(p, h)
            for i, terrain in enumerate(TERRAIN_TILE_SQUARES[t]):
                out.append(_rect(x + (i % 2) * MINI, y + (i // 2) * MINI, MINI, MINI, _TERRAIN_RGB[terrain],
                                 pointer_events="none"))
            title = (f"{EXPLORER_COLOURS[p]}'s hand tile {h}: {TERRAIN_KIND_NAMES[TERRAIN_TILE_KIND[t]]}, "
                     f"{plural(TERRAIN_TILE_POINTS[t], 'point')}")
            out.append(_rect(x + 0.5, y + 0.5, 2 * MINI - 1, 2 * MINI - 1, (0, 0, 0), title, cls="place",
                             id=hand_tile_place(p, h), fill_opacity=0, pointer_events="all", stroke=_hex(_DARK),
                             stroke_width=1))


def _svg_bar(state, out):
    out.append(_rect(0, 0, WIDTH, BAR, _bar_colour(state)))
    if state[kernels.PHASE] == kernels.PHASE_OVER:
        out.extend(_polygon(stripe, _DARK) for stripe in hatch_stripes(BAR, WIDTH))


def _svg_field_places(state, out):
    """Fields that take tiles, drawn last and unseen: a field with no tile yet is clicked anywhere (its
    squares cannot be entered), a tiled one at its centre, so that its squares stay clickable."""
    for f in np.flatnonzero(IS_TILE_FIELD):
        top, left = field_origin(f)
        if state[kernels.FIELD_TILE + f] < 0:
            x, y, size = left, top, FIELD
        else:
            x, y, size = left + FIELD / 2 - FIELD_HANDLE, top + FIELD / 2 - FIELD_HANDLE, 2 * FIELD_HANDLE
        out.append(_rect(x, y, size, size, (0, 0, 0), _field_title(state, f), cls="place",
                         id=field_place(f), fill_opacity=0, pointer_events="all"))


def render_svg(state, viewer_player: int | None = None) -> str:
    """The picture of ``render_rgb`` as a standalone SVG document of the same size, drawn from the
    same geometry, for a web page to show and click.

    Every place where a player acts is an element with ``class="place"``, an ``id`` from the game's
    names and a ``<title>``: each square (``place-f4-nw``), each field that takes tiles
    (``place-f3``; the whole field while it has no tile, a small square at its centre once tiled),
    each boat still at its landing (``place-landing-b1-c1``) and each hand tile in the panel
    (``place-red-hand-tile-0``).  ``action_place`` names the place of an action.  The drawing's own
    shapes let clicks through to the places beneath them.

    Mauna Kea's board is all public: hands lie face up, the bag is counted by everyone.  What stays
    hidden -- another player's cards and task points in the advanced rules (until the game is over),
    the order of the bag and the game's generator -- is never written, not even in a title.
    ``viewer_player`` (``None``: a spectator) is marked "you", and sees his own cards."""
    core.check_state(state)
    n = int(state[kernels.NUM_PLAYERS])
    viewer_player = checked.viewer(viewer_player, n)
    height, width = picture_size(state)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" shape-rendering="crispEdges">',
           _rect(0, 0, width, height, _SEA, pointer_events="none")]
    _svg_board(state, out)
    _svg_boats(state, out)
    _svg_panel(state, viewer_player, out)
    _svg_bar(state, out)
    _svg_field_places(state, out)
    out.append("</svg>")
    return "\n".join(out)


def _explorer_square(state, e):
    """The square of explorer ``e`` of the player to act, or -1 when he is not on the island."""
    player = int(state[kernels.TO_ACT])
    if player < 0 or e >= state[kernels.EXPLORERS_EACH]:
        return -1
    x = player * kernels.MAX_EXPLORERS + e
    return int(state[kernels.EXPLORER_SQUARE + x]) if state[kernels.EXPLORER_STATUS + x] == kernels.ON_ISLAND else -1


def action_place(action, state) -> str | None:
    """The id of the place in ``render_svg(state, ...)`` a player clicks to play ``action``, or None
    for the actions that have none: ending the turn, the set-up's card choice and drawing or not
    after an earthquake (advanced rules).  Places, the way a player points at the board:

    * placing an explorer, a movement card's destination: that square;
    * moving an explorer: the square he moves to;
    * picking up or dropping an artifact, playing a movement card or the helicopter rescue with an
      explorer: the explorer's square;
    * laying a hand tile, the earthquake's turn of a tile, laying the tile it drew: the field (the
      hand tile and the rotation are chosen among the actions sharing that place);
    * spending a hand tile for its movement points: that tile in the panel;
    * boarding: the boat at that landing.

    An action about an explorer who is not on the island, or a square beyond the board's edge, has
    no place either (it is never legal)."""
    core.check_state(state)
    limit = kernels.NUM_ACTIONS_OF_VARIANT[int(state[kernels.VARIANT])] - 1
    action = checked.integer("action", action, 0, limit)
    if action < kernels.LAY_BASE:
        return square_place(action)
    if action < kernels.SPEND_BASE:
        return field_place((action - kernels.LAY_BASE) // 4 % NUM_FIELDS)
    if action < kernels.MOVE_BASE:
        player = int(state[kernels.TO_ACT])
        return hand_tile_place(player, action - kernels.SPEND_BASE) if player >= 0 else None
    if action < kernels.PICK_BASE:
        e, d = divmod(action - kernels.MOVE_BASE, 4)
        s = _explorer_square(state, e)
        to = SQUARE_NEIGHBOURS[s, d] if s >= 0 else -1
        return square_place(to) if to >= 0 else None
    if action < kernels.BOARD_BASE:
        s = _explorer_square(state, (action - kernels.PICK_BASE) % (3 * kernels.MAX_EXPLORERS) // 3)
        return square_place(s) if s >= 0 else None
    if action < kernels.END_TURN:
        return landing_place((action - kernels.BOARD_BASE) % NUM_LANDINGS)
    if action == kernels.END_TURN or action < kernels.CARD_MOVE_BASE:
        return None                         # end the turn; remove a dealt card
    if action < kernels.DESTINATION_BASE:
        s = _explorer_square(state, (action - kernels.CARD_MOVE_BASE) % kernels.MAX_EXPLORERS)
        return square_place(s) if s >= 0 else None
    if action < kernels.HELICOPTER_BASE:
        return square_place(action - kernels.DESTINATION_BASE)
    if action < kernels.EARTHQUAKE_BASE:
        s = _explorer_square(state, action - kernels.HELICOPTER_BASE)
        return square_place(s) if s >= 0 else None
    if action < kernels.QUAKE_DRAW:
        return field_place((action - kernels.EARTHQUAKE_BASE) // 4)
    if action < kernels.QUAKE_LAY_BASE:
        return None                         # draw a tile after the earthquake, or not
    return field_place((action - kernels.QUAKE_LAY_BASE) // 4)
