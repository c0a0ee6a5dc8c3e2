"""Human-readable views of a Make Make game row: a text board, an RGB picture and an SVG board.

All functions only read the state (one row as laid out in ``core``) and never change it.  Make Make
has no hidden information, so all show the whole board; ``viewer_player`` only marks which clan is
"you".  The picture is drawn with numpy alone, so that rendering needs nothing beyond the game's own
dependencies.  ``render_svg`` draws the same board for a web page from the same geometry tables, and
``action_place`` names the place on it where a person clicks to play an action.
"""
import math
import re
from typing import NamedTuple
from xml.sax.saxutils import escape

import numpy as np

from pacific_common import checked
from pacific_common.draw import hatch, hatch_stripes, outline, plural, text_lines

from . import core, kernels
from .board import (
    CHIEF_STRENGTH, CLAN_NAMES, GROUND_NAMES, GROUND_TERRITORIES, NUM_GROUNDS, NUM_TERRITORIES,
    SACRED, TANGATA_MANU_PER_CLAN, TERRITORY_AXIAL, TERRITORY_NAMES, TERRITORY_RING, TOKENS_PER_CLAN,
    pixel_centre,
)

_PHASES = ("dominance phase", "ceremonial phase: choose the next Moai",
           "ceremonial phase: choose a ground for a ceremony", "game over")
_RINGS = ((1, "Sacred territories"), (2, "Inner territories"), (3, "Coast territories"))


def render_ansi(state, viewer_player: int | None = None) -> str:
    """A plain-text board.  ``viewer_player`` (or ``None`` for a spectator) is only marked as "you".
    Lines stay within 100 characters.  A viewer who is not a
    player of the game is a ``ValueError``, as is a row that ``core.check_state`` refuses (the drawing
    trusts the row's counts and indices: a wrong one reads outside it)."""
    core.check_state(state)
    viewer_player = checked.viewer(viewer_player, int(state[kernels.NUM_PLAYERS]))
    n = int(state[kernels.NUM_PLAYERS])

    def name(c):
        you = ", you" if viewer_player is not None and c == viewer_player else ""
        return f"{CLAN_NAMES[c]} (player {c}{you})"

    phase, turn, amulet = int(state[kernels.PHASE]), int(state[kernels.TURN]), int(state[kernels.AMULET])
    lines = [f"Make Make - turn {turn + 1} - {_PHASES[phase]}" if phase != kernels.PHASE_OVER
             else f"Make Make - game over after {turn} clan turns"]
    if phase == kernels.PHASE_OVER:
        if state[kernels.WINNER] >= 0:
            lines.append(f"Winner: {name(state[kernels.WINNER])} summons Make Make")
        elif state[kernels.STATUS] == kernels.STATUS_TRUNCATED:
            lines.append(f"No winner: game truncated at the limit of {plural(state[kernels.MAX_TURNS], 'turn')}")
        else:
            lines.append("No winner: stalemate, no clan can change anything any more")
    else:
        lines.append(f"To act: {name(state[kernels.TO_ACT])}")
    lines.append(f"Amulet: {name(amulet) if amulet >= 0 else 'nobody'}   "
                 f"Moai left: {state[kernels.MOAI_LEFT]}")
    lines.append("Viewer: spectator" if viewer_player is None else f"Viewer: {name(viewer_player)}")

    for k, title in _RINGS:
        lines.append(f"\n{title}")
        for t in np.flatnonzero(TERRITORY_RING == k):
            owner, tokens = state[kernels.OWNER + t], state[kernels.TOKENS + t]
            if state[kernels.MOAI + t]:
                text = "Moai"
            elif owner < 0:
                text = "neutral"
            else:
                chief = state[kernels.CHIEF_AT + owner] == t
                strength = tokens + (CHIEF_STRENGTH if chief else 0)
                text = (f"{CLAN_NAMES[owner]:<7} {tokens:>2} token{'s' if tokens > 1 else ' '}"
                        f"{' + chief' if chief else '        '}  strength {strength}")
            lines.append(f"  {TERRITORY_NAMES[t]:<10} {text}")

    held = [g for g in range(NUM_GROUNDS) if state[kernels.GROUND + g] >= 0]
    lines.append("\nTangata Manu ceremonies" + ("" if held else ": none"))
    for g in held:
        around = ", ".join(TERRITORY_NAMES[t] for t in GROUND_TERRITORIES[g])
        lines.append(f"  {GROUND_NAMES[g]:<10} {CLAN_NAMES[state[kernels.GROUND + g]]:<7} {around}")

    lines.append("\nClans (in supply: tokens, chief, Tangata Manu)")
    for c in range(n):
        chief_at = state[kernels.CHIEF_AT + c]
        chief = "in supply" if chief_at < 0 else f"on {TERRITORY_NAMES[chief_at]}"
        sacred = int(np.sum(state[kernels.OWNER + SACRED] == c))
        lines.append(f"  {name(c):<22} tokens {state[kernels.TOKEN_SUPPLY + c]:>2}  "
                     f"chief {chief:<12} Tangata Manu {state[kernels.MANU_SUPPLY + c]}  "
                     f"sacred {sacred}{'  AMULET' if amulet == c else ''}")
    return text_lines(lines)


# ------------------------------------------------------------------------------------------------
# Geometry, shared by the picture and the SVG: both read these tables, so that they cannot drift
# apart.  Coordinates are pixels, x right and y down.  A pixel (x, y) covers the square from (x, y) to
# (x + 1, y + 1), and the picture colours it by where its centre lies: an SVG shape at the same
# coordinates covers the same pixels.
UNIT, WIDTH, HEIGHT, BAR = 40, 600, 560, 12   # hex size (centre to corner), picture, top bar
_CX, _CY = WIDTH // 2, BAR + (HEIGHT - BAR) // 2
APOTHEM = math.sqrt(3) / 2 * UNIT             # centre of a hex to the middle of an edge
BORDER = 1.5            # the dark line between hexes reaches this far into each
SACRED_BAND = 5.0       # the gold band inside a sacred territory reaches this far from the edge
CENTRE_RING = (8.0, 12.5)   # the gold ring of the Ceremonial Center, as distances from its edge
CENTRE = NUM_TERRITORIES    # the Ceremonial Center's index in the hex tables

_SEA = np.array((34, 82, 140), np.uint8)
_LAND = np.array((222, 210, 168), np.uint8)
_MOAI_LAND = np.array((168, 178, 146), np.uint8)
_CENTRE = np.array((72, 64, 60), np.uint8)
_GOLD = np.array((232, 184, 40), np.uint8)
_STONE = np.array((132, 128, 120), np.uint8)
_TOPKNOT = np.array((150, 70, 48), np.uint8)
_DARK = np.array((30, 28, 26), np.uint8)
_PALE = np.array((246, 242, 228), np.uint8)
_CLAN_RGB = np.array([(214, 38, 38), (36, 86, 216), (28, 146, 56), (246, 200, 0)], np.uint8)
_TINT = (_CLAN_RGB.astype(np.int32) + 255) // 2  # a controlled territory's fill


def _at(cx, cy):
    """The pixel of a point given in hex units from the island's centre."""
    return int(round(_CX + cx * UNIT)), int(round(_CY + cy * UNIT))


def hex_centre(t):
    """The exact centre, in pixels, of territory ``t`` (``CENTRE``: the Ceremonial Center)."""
    cx, cy = (0.0, 0.0) if t == CENTRE else pixel_centre(*TERRITORY_AXIAL[t])
    return _CX + cx * UNIT, _CY + cy * UNIT


def hex_corners(t, inset=0.0):
    """The six corners of hex ``t`` (pointy top, clockwise from the top), moved ``inset`` pixels in
    from every edge."""
    x, y = hex_centre(t)
    radius = (APOTHEM - inset) / (math.sqrt(3) / 2)
    return [(x + radius * math.cos(math.radians(60 * i - 90)), y + radius * math.sin(math.radians(60 * i - 90)))
            for i in range(6)]


# Pieces are drawn around a pixel (a hex's centre, a ground's corner, a clan's swatch): the picture
# stamps boolean masks centred on that pixel, the SVG draws circles and rectangles around its middle.
_HEX_XY = [_at(*pixel_centre(q, r)) for q, r in TERRITORY_AXIAL.tolist()]
# The corner shared by three hexes is the mean of their centres.
_GROUND_XY = [_at(*np.mean([pixel_centre(*TERRITORY_AXIAL[t]) for t in ts], axis=0))
              for ts in GROUND_TERRITORIES.tolist()]
_BADGE_XY = (WIDTH - UNIT - 12, BAR + UNIT + 6)   # the amulet, top right


def _swatch_xy(clan):
    return UNIT + 16, BAR + UNIT + 8 + 26 * clan


class Disc(NamedTuple):
    """A disc of radius ``r`` around (x, y) pixels from a piece's pixel: every pixel whose centre lies
    within ``r`` of the disc's centre."""
    x: float
    y: float
    r: float


PIP_RADIUS = 3.5


def pip_discs(n):
    """Up to 11 tokens as dots in rows of four, centred, in the lower half of the hex."""
    discs = []
    for i in range(n):
        row, col = divmod(i, 4)
        in_row = min(4, n - 4 * row)
        discs.append(Disc(9 * col - 4.5 * (in_row - 1), 4 + 9 * row, PIP_RADIUS))
    return discs


CHIEF = Disc(0, -15, 8.5)
CHIEF_EYE, CHIEF_PUPIL = Disc(0, -15, 4), Disc(0, -15, 2)   # a pale ring between the two
GROUND_EMPTY, GROUND_FULL = Disc(0, 0, 4.5), Disc(0, 0, 6.5)
BADGE, BADGE_RIM, BADGE_INNER = Disc(0, 0, 21.5), Disc(0, 0, 15.5), Disc(0, 0, 12.5)


def manu_disc(i):
    """The i-th Tangata Manu in a clan's supply, right of its swatch."""
    return Disc(9 * i - 4, 0, 4)


# Boxes (x0, y0, x1, y1), inclusive pixel offsets from the piece's pixel.
SWATCH = (-36, -9, -18, 9)
SWATCH_FRAME = (-39, -12, -15, 12)   # pale, around the swatch of the clan to act
# A Moai: red topknot, long stone head with deep eyes and nose, on a dark platform (ahu).
MOAI_STONE = ((-7, -24, 7, 2), (-10, 2, 10, 18))
MOAI_TOPKNOT = ((-6, -29, 6, -25),)
MOAI_FEATURES = ((-16, 19, 16, 24), (-5, -15, -2, -12), (2, -15, 5, -12), (-1, -13, 1, -5), (-4, -2, 4, -2))

_R = UNIT   # masks reach this far from their centre pixel
_Y, _X = np.mgrid[-_R:_R + 1, -_R:_R + 1]


def _disc(disc):
    return (_X - disc.x) ** 2 + (_Y - disc.y) ** 2 <= disc.r ** 2


def _boxes(boxes):
    mask = np.zeros_like(_X, dtype=bool)
    for x0, y0, x1, y1 in boxes:
        mask |= (_X >= x0) & (_X <= x1) & (_Y >= y0) & (_Y <= y1)
    return mask


def _mask_rects(mask):
    """A mask as rectangles (x0, y0, width, height) of whole pixels, offsets from the centre pixel's
    corner: runs of each row, merged with identical runs in the rows below."""
    runs = []
    for row in range(mask.shape[0]):
        cols = np.flatnonzero(mask[row])
        for run in np.split(cols, np.flatnonzero(np.diff(cols) > 1) + 1) if len(cols) else ():
            runs.append((int(run[0]), row, int(run[-1]) + 1))
    rects = []
    for x0, row, x1 in runs:
        for i, (rx, ry, rw, rh) in enumerate(rects):
            if rx == x0 and rw == x1 - x0 and ry + rh == row:
                rects[i] = (rx, ry, rw, rh + 1)
                break
        else:
            rects.append((x0, row, x1 - x0, 1))
    return [(x - _R, y - _R, w, h) for x, y, w, h in rects]


_STONE_MASK, _TOPKNOT_MASK = _boxes(MOAI_STONE), _boxes(MOAI_TOPKNOT)
_MOAI_DARK = _boxes(MOAI_FEATURES) | outline(_STONE_MASK | _TOPKNOT_MASK)
# The picture paints the Moai in this order, the dark outline and features last; the SVG draws the
# pixels each colour keeps in the end, as rectangles.
_MOAI_LAYERS = ((_STONE, _STONE_MASK), (_TOPKNOT, _TOPKNOT_MASK), (_DARK, _MOAI_DARK))
_MOAI_RECTS = ((_STONE, _mask_rects(_STONE_MASK & ~_MOAI_DARK)), (_TOPKNOT, _mask_rects(_TOPKNOT_MASK & ~_MOAI_DARK)),
               (_DARK, _mask_rects(_MOAI_DARK)))
_SWATCH_MASK = _boxes((SWATCH,))
_SWATCH_RECTS = _mask_rects(_SWATCH_MASK & ~outline(_SWATCH_MASK))
_SWATCH_OUTLINE_RECTS = _mask_rects(outline(_SWATCH_MASK))
_SWATCH_FRAME_MASK = _boxes((SWATCH_FRAME,))
_SWATCH_FRAME_RECTS = _mask_rects(_SWATCH_FRAME_MASK)


def territory_colour(state, t):
    """A territory's fill: its controller's tint, the Moai land, or neutral land."""
    owner = state[kernels.OWNER + t]
    return _MOAI_LAND if state[kernels.MOAI + t] else _TINT[owner] if owner >= 0 else _LAND


def _lead(state):
    """The clan the top bar shows: the clan to act, or the winner (-1: none) once the game is over."""
    over = state[kernels.PHASE] == kernels.PHASE_OVER
    return int(state[kernels.WINNER] if over else state[kernels.TO_ACT]), bool(over)


# ------------------------------------------------------------------------------------------------
# Picture.  The hex map (which territory each pixel belongs to, and how near its edge it lies) is
# worked out once below; pieces are the masks of the shapes above, stamped around their pixel.
def _hex_map():
    """For every pixel: territory index (-1 sea, CENTRE the Ceremonial Center) and the distance in
    pixels to the edge of its hex."""
    y, x = np.mgrid[0:HEIGHT, 0:WIDTH].astype(float)
    x, y = (x + 0.5 - _CX) / UNIT, (y + 0.5 - _CY) / UNIT
    fq, fr = math.sqrt(3) / 3 * x - y / 3, 2 / 3 * y
    fs = -fq - fr
    q, r, s = np.round(fq), np.round(fr), np.round(fs)
    dq, dr, ds = abs(q - fq), abs(r - fr), abs(s - fs)  # cube rounding
    q = np.where((dq > dr) & (dq > ds), -r - s, q)
    r = np.where((dr >= dq) & (dr > ds), -q - s, r)
    lut = np.full((9, 9), -1)
    lut[4, 4] = CENTRE
    for t, (tq, tr) in enumerate(TERRITORY_AXIAL.tolist()):
        lut[tq + 4, tr + 4] = t
    qi, ri = np.clip(q, -4, 4).astype(int) + 4, np.clip(r, -4, 4).astype(int) + 4
    cell = np.where((np.abs(q) <= 4) & (np.abs(r) <= 4), lut[qi, ri], -1)
    dx, dy = x - math.sqrt(3) * (q + r / 2), y - 1.5 * r
    c = math.sqrt(3) / 2
    reach = np.maximum(np.abs(dx), np.maximum(np.abs(dx / 2 + c * dy), np.abs(dx / 2 - c * dy)))
    return cell, (c - reach) * UNIT


_CELL, _EDGE_DIST = _hex_map()
_BORDER = (_CELL >= 0) & (_EDGE_DIST < BORDER)
_SACRED_BAND = np.isin(_CELL, SACRED) & (_EDGE_DIST < SACRED_BAND) & ~_BORDER
_CENTRE_RING = (_CELL == CENTRE) & (_EDGE_DIST > CENTRE_RING[0]) & (_EDGE_DIST < CENTRE_RING[1])


def _stamp(img, mask, xy, colour):
    """Paint ``mask`` (centred on its middle pixel) at pixel ``xy``."""
    x, y = xy
    img[y - _R: y + _R + 1, x - _R: x + _R + 1][mask] = colour


def _pip_masks(n):
    disc = np.zeros_like(_X, dtype=bool)
    for d in pip_discs(n):
        disc |= _disc(d)
    return disc, outline(disc)


_PIPS = [_pip_masks(n) for n in range(TOKENS_PER_CLAN + 1)]
_CHIEF = _disc(CHIEF)
_CHIEF_EYE = _disc(CHIEF_EYE) & ~_disc(CHIEF_PUPIL)
_GROUND = {False: _disc(GROUND_EMPTY), True: _disc(GROUND_FULL)}   # by "a ceremony is held there"
_MANU = [_disc(manu_disc(i)) for i in range(TANGATA_MANU_PER_CLAN)]


def render_rgb(state) -> np.ndarray:
    """An (H, W, 3) uint8 picture of the whole board: controllers, tokens, chiefs, Moai, ceremonies,
    the amulet holder (gold badge, top right) and the clan to act (top bar and framed swatch).  A row
    that ``core.check_state`` refuses is a ``ValueError``."""
    core.check_state(state)
    n = int(state[kernels.NUM_PLAYERS])
    fill = np.empty((NUM_TERRITORIES + 2, 3), np.uint8)  # indexed by _CELL + 1
    fill[0], fill[-1] = _SEA, _CENTRE
    for t in range(NUM_TERRITORIES):
        fill[t + 1] = territory_colour(state, t)
    img = fill[_CELL + 1]
    img[_BORDER] = _DARK
    img[_SACRED_BAND] = _GOLD
    img[_CENTRE_RING] = _GOLD

    for t, xy in enumerate(_HEX_XY):
        owner = state[kernels.OWNER + t]
        if state[kernels.MOAI + t]:
            for colour, mask in _MOAI_LAYERS:
                _stamp(img, mask, xy, colour)
        elif owner >= 0:
            pips, rims = _PIPS[min(state[kernels.TOKENS + t], TOKENS_PER_CLAN)]
            _stamp(img, pips, xy, _CLAN_RGB[owner])
            _stamp(img, rims, xy, _DARK)
            if state[kernels.CHIEF_AT + owner] == t:
                _stamp(img, _CHIEF, xy, _CLAN_RGB[owner])
                _stamp(img, outline(_CHIEF), xy, _DARK)
                _stamp(img, _CHIEF_EYE, xy, _PALE)
    for g, xy in enumerate(_GROUND_XY):
        clan = state[kernels.GROUND + g]
        mask = _GROUND[bool(clan >= 0)]
        _stamp(img, mask, xy, _CLAN_RGB[clan] if clan >= 0 else _PALE)
        _stamp(img, outline(mask), xy, _DARK)

    # The clan to act (or the winner, over a hatched bar once the game is over), then a swatch per
    # clan in turn order with its Tangata Manu still in supply, then the amulet.
    lead, over = _lead(state)
    img[:BAR] = _CLAN_RGB[lead] if lead >= 0 else _STONE
    if over:
        img[:BAR][hatch(BAR, WIDTH)] = _DARK
    for c in range(n):
        xy = _swatch_xy(c)
        if c == lead and not over:
            _stamp(img, _SWATCH_FRAME_MASK, xy, _PALE)
        _stamp(img, _SWATCH_MASK, xy, _CLAN_RGB[c])
        _stamp(img, outline(_SWATCH_MASK), xy, _DARK)
        for i in range(state[kernels.MANU_SUPPLY + c]):
            dot = _MANU[i]
            _stamp(img, dot, xy, _CLAN_RGB[c])
            _stamp(img, outline(dot), xy, _DARK)
    holder = state[kernels.AMULET]
    _stamp(img, _disc(BADGE), _BADGE_XY, _GOLD)
    _stamp(img, outline(_disc(BADGE)), _BADGE_XY, _DARK)
    _stamp(img, _disc(BADGE_RIM), _BADGE_XY, _DARK)
    _stamp(img, _disc(BADGE_INNER), _BADGE_XY, _CLAN_RGB[holder] if holder >= 0 else _SEA)
    return img


# ------------------------------------------------------------------------------------------------
# SVG: the same geometry as the picture, as shapes a browser can draw and a person can click.
def _place_id(name):
    return "place-" + re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


TERRITORY_PLACES = tuple(_place_id(name) for name in TERRITORY_NAMES)
GROUND_PLACES = tuple(_place_id(name) for name in GROUND_NAMES)
# the halo that makes a small ground easier to hit: a transparent stroke still takes clicks, and a page
# that highlights a place by giving it a stroke colour shows it
_GROUND_HALO = 6


def _num(value):
    text = f"{float(value):.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _hex(colour):
    return "#{:02x}{:02x}{:02x}".format(*(int(v) for v in colour))


def _points(points):
    return " ".join(f"{_num(x)},{_num(y)}" for x, y in points)


def _title(text):
    return f"<title>{escape(text)}</title>"


def _circle(xy, disc, colour, attrs="", title=None):
    """``disc`` around the middle of pixel ``xy``; ``attrs`` and a ``title`` make it a place."""
    element = (f'<circle cx="{_num(xy[0] + 0.5 + disc.x)}" cy="{_num(xy[1] + 0.5 + disc.y)}" r="{_num(disc.r)}" '
               f'fill="{_hex(colour)}"{attrs}')
    return element + ("/>" if title is None else f">{_title(title)}</circle>")


def _inside_outline(disc):
    """The part of a disc the picture's one-pixel dark outline leaves in its colour."""
    return disc._replace(r=disc.r - 1)


def _outlined(xy, disc, colour):
    """A disc with the picture's one-pixel dark outline: a dark disc, and the colour one pixel in."""
    return [_circle(xy, disc, _DARK), _circle(xy, _inside_outline(disc), colour)]


def _rects(xy, rects, colour):
    return [f'<rect x="{xy[0] + x}" y="{xy[1] + y}" width="{w}" height="{h}" fill="{_hex(colour)}"/>'
            for x, y, w, h in rects]


def _territory_title(state, t):
    name = TERRITORY_NAMES[t]
    owner = int(state[kernels.OWNER + t])
    if state[kernels.MOAI + t]:
        return f"{name}: Moai"
    if owner < 0:
        return f"{name}: neutral"
    tokens = int(state[kernels.TOKENS + t])
    chief = state[kernels.CHIEF_AT + owner] == t
    return (f"{name}: {CLAN_NAMES[owner]}, {tokens} token{'s' if tokens > 1 else ''}"
            f"{' and the chief' if chief else ''}, strength {tokens + (CHIEF_STRENGTH if chief else 0)}")


def _ground_title(state, g):
    clan = int(state[kernels.GROUND + g])
    around = ", ".join(TERRITORY_NAMES[t] for t in GROUND_TERRITORIES[g])
    return f"{GROUND_NAMES[g]} ({around}): " + (f"{CLAN_NAMES[clan]}'s ceremony" if clan >= 0 else "free")


def _clan_title(state, c, viewer_player):
    you = ", you" if viewer_player == c else ""
    chief_at = int(state[kernels.CHIEF_AT + c])
    chief = "chief in supply" if chief_at < 0 else f"chief on {TERRITORY_NAMES[chief_at]}"
    return (f"{CLAN_NAMES[c]} (player {c}{you}): {plural(int(state[kernels.TOKEN_SUPPLY + c]), 'token')} in supply, "
            f"{chief}, {int(state[kernels.MANU_SUPPLY + c])} Tangata Manu in supply")


def _bar_title(state):
    lead, over = _lead(state)
    if not over:
        return f"{CLAN_NAMES[lead]} to act"
    if lead >= 0:
        return f"Game over: {CLAN_NAMES[lead]} summons Make Make"
    if state[kernels.STATUS] == kernels.STATUS_TRUNCATED:
        return "Game over: truncated, no winner"
    return "Game over: stalemate, no winner"


def render_svg(state, viewer_player: int | None = None) -> str:
    """The board of ``render_rgb`` as a standalone SVG document of the same size and geometry.

    Every place a person clicks to act is an element with ``class="place"``, an ``id`` and a
    ``<title>`` that starts with the place's name: the 36 territories (``place-sacred-1`` …
    ``place-coast-18``) and the 48 ceremonial grounds (``place-ground-1`` … ``place-ground-48``).
    Pieces drawn over a territory let clicks through to it.

    Make Make has no hidden information: the board, supplies, chiefs and the amulet are public, so the
    SVG shows the same to everyone; ``viewer_player`` (a clan of the game, or ``None`` for a
    spectator) only marks "you" in the clans' titles.  The one thing a player may not know, the
    random generator kept in the row (``RNG``, ``SEED``), never appears.  The state is only read;
    an invalid row is a ``ValueError``.
    """
    core.check_state(state)
    state = np.asarray(state, dtype=np.int64)
    n = int(state[kernels.NUM_PLAYERS])
    viewer_player = checked.viewer(viewer_player, n)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
           f'viewBox="0 0 {WIDTH} {HEIGHT}">',
           _title("Make Make"),
           f'<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" fill="{_hex(_SEA)}"/>',
           '<g class="territories">']
    # Each hex: the dark border, then the territory (a place) inside it.
    for t in range(NUM_TERRITORIES + 1):
        out.append(f'<polygon points="{_points(hex_corners(t))}" fill="{_hex(_DARK)}"/>')
        inner = _points(hex_corners(t, BORDER))
        if t == CENTRE:
            out.append(f'<polygon points="{inner}" fill="{_hex(_CENTRE)}">{_title("Ceremonial Center")}</polygon>')
        else:
            out.append(f'<polygon class="place" id="{TERRITORY_PLACES[t]}" points="{inner}" '
                       f'fill="{_hex(territory_colour(state, t))}">{_title(_territory_title(state, t))}</polygon>')
    out.append("</g>")

    out.append('<g class="pieces" pointer-events="none">')
    bands = [(t, BORDER, SACRED_BAND) for t in SACRED.tolist()] + [(CENTRE, *CENTRE_RING)]
    for t, outer, inner in bands:
        out.append(f'<path d="M{_points(hex_corners(t, outer))}Z M{_points(hex_corners(t, inner))}Z" '
                   f'fill="{_hex(_GOLD)}" fill-rule="evenodd"/>')
    for t, xy in enumerate(_HEX_XY):
        owner = int(state[kernels.OWNER + t])
        if state[kernels.MOAI + t]:
            for colour, rects in _MOAI_RECTS:
                out.extend(_rects(xy, rects, colour))
        elif owner >= 0:
            for disc in pip_discs(min(int(state[kernels.TOKENS + t]), TOKENS_PER_CLAN)):
                out.extend(_outlined(xy, disc, _CLAN_RGB[owner]))
            if state[kernels.CHIEF_AT + owner] == t:
                out.extend(_outlined(xy, CHIEF, _CLAN_RGB[owner]))
                out.append(_circle(xy, CHIEF_EYE, _PALE))
                out.append(_circle(xy, CHIEF_PUPIL, _CLAN_RGB[owner]))
    out.append("</g>")

    out.append('<g class="grounds">')
    for g, xy in enumerate(_GROUND_XY):
        clan = int(state[kernels.GROUND + g])
        disc = GROUND_FULL if clan >= 0 else GROUND_EMPTY
        out.append(_circle(xy, disc, _DARK, ' pointer-events="none"'))
        out.append(_circle(xy, _inside_outline(disc), _CLAN_RGB[clan] if clan >= 0 else _PALE,
                           f' class="place" id="{GROUND_PLACES[g]}" stroke="transparent" '
                           f'stroke-width="{_GROUND_HALO}"', _ground_title(state, g)))
    out.append("</g>")

    lead, over = _lead(state)
    out.append(f'<g class="to-act">{_title(_bar_title(state))}')
    out.append(f'<rect x="0" y="0" width="{WIDTH}" height="{BAR}" '
               f'fill="{_hex(_CLAN_RGB[lead] if lead >= 0 else _STONE)}"/>')
    if over:
        out.extend(f'<polygon points="{_points(stripe)}" fill="{_hex(_DARK)}"/>'
                   for stripe in hatch_stripes(BAR, WIDTH))
    out.append("</g>")
    for c in range(n):
        xy = _swatch_xy(c)
        out.append(f'<g class="clan">{_title(_clan_title(state, c, viewer_player))}')
        if c == lead and not over:
            out.extend(_rects(xy, _SWATCH_FRAME_RECTS, _PALE))
        out.extend(_rects(xy, _SWATCH_RECTS, _CLAN_RGB[c]))
        out.extend(_rects(xy, _SWATCH_OUTLINE_RECTS, _DARK))
        for i in range(int(state[kernels.MANU_SUPPLY + c])):
            out.extend(_outlined(xy, manu_disc(i), _CLAN_RGB[c]))
        out.append("</g>")
    holder = int(state[kernels.AMULET])
    out.append(f'<g class="amulet">{_title("Amulet: " + (CLAN_NAMES[holder] if holder >= 0 else "nobody"))}')
    out.extend(_outlined(_BADGE_XY, BADGE, _GOLD))
    out.append(_circle(_BADGE_XY, BADGE_RIM, _DARK))
    out.append(_circle(_BADGE_XY, BADGE_INNER, _CLAN_RGB[holder] if holder >= 0 else _SEA))
    out.append("</g>")
    out.append("</svg>")
    return "\n".join(out)


def action_place(action, state) -> str | None:
    """The id of the place in ``render_svg(state, ...)`` that a person clicks to play ``action``: the
    territory where tokens are placed, withdrawn or a Moai is built, or the ground where a ceremony
    starts.  Every Make Make action has a place, so this never answers ``None`` (a clan with nothing
    to do passes without being asked).  Several actions share a territory (1 … 11 tokens, with the
    chief or not, a withdrawal); ``describe_action`` tells them apart.  ``ValueError`` for an action
    outside 0 … 911 or an invalid state."""
    core.check_state(state)
    action = checked.integer("action", action, 0, kernels.NUM_ACTIONS - 1)
    if action < kernels.WITHDRAW_BASE:
        return TERRITORY_PLACES[action // kernels.PLACE_CHOICES]
    if action < kernels.MOAI_BASE:
        return TERRITORY_PLACES[action - kernels.WITHDRAW_BASE]
    if action < kernels.CEREMONY_BASE:
        return TERRITORY_PLACES[action - kernels.MOAI_BASE]
    return GROUND_PLACES[action - kernels.CEREMONY_BASE]
