"""Human-readable views of a Make Make game row: a text board and an RGB picture.

Both functions only read the state (one row as laid out in ``core``) and never change it.  Make Make
has no hidden information, so both show everything; ``render_ansi``'s ``viewer_player`` only marks
which clan is "you".  The picture is drawn with numpy alone, so that rendering needs nothing beyond
the game's own dependencies.
"""
import math

import numpy as np

from pacific_common.draw import outline

from . import kernels
from .board import (
    CHIEF_STRENGTH, CLAN_NAMES, GROUND_NAMES, GROUND_TERRITORIES, NUM_GROUNDS, NUM_TERRITORIES,
    SACRED, TERRITORY_AXIAL, TERRITORY_NAMES, TERRITORY_RING, pixel_centre,
)

_PHASES = ("dominance phase", "ceremonial phase: choose the next Moai",
           "ceremonial phase: choose a ground for a ceremony", "game over")
_RINGS = ((1, "Sacred territories"), (2, "Inner territories"), (3, "Coast territories"))


def render_ansi(state, viewer_player: int | None = None) -> str:
    """A plain-text board.  ``viewer_player`` (or ``None`` for a spectator) is only marked as "you".
    Lines stay within 100 characters."""
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
            lines.append(f"No winner: game truncated at the limit of {state[kernels.MAX_TURNS]} turns")
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
    return "\n".join(lines)


# ------------------------------------------------------------------------------------------------
# Picture.  The hex map (which territory each pixel belongs to, and how near its edge it lies) is
# worked out once below; pieces are small boolean masks stamped around hex centres and corners.
UNIT, WIDTH, HEIGHT, BAR = 40, 600, 560, 12
_CX, _CY = WIDTH // 2, BAR + (HEIGHT - BAR) // 2
_SEA = np.array((34, 82, 140), np.uint8)
_LAND = np.array((222, 210, 168), np.uint8)
_MOAI_LAND = np.array((168, 178, 146), np.uint8)
_CENTRE = np.array((72, 64, 60), np.uint8)
_GOLD = np.array((232, 184, 40), np.uint8)
_STONE = np.array((132, 128, 120), np.uint8)
_DARK = np.array((30, 28, 26), np.uint8)
_PALE = np.array((246, 242, 228), np.uint8)
_CLAN_RGB = np.array([(214, 38, 38), (36, 86, 216), (28, 146, 56), (246, 200, 0)], np.uint8)
_TINT = (_CLAN_RGB.astype(np.int32) + 255) // 2  # a controlled territory's fill


def _hex_map():
    """For every pixel: territory index (-1 sea, NUM_TERRITORIES the Ceremonial Center) and the
    distance in pixels to the edge of its hex."""
    y, x = np.mgrid[0:HEIGHT, 0:WIDTH].astype(float)
    x, y = (x + 0.5 - _CX) / UNIT, (y + 0.5 - _CY) / UNIT
    fq, fr = math.sqrt(3) / 3 * x - y / 3, 2 / 3 * y
    fs = -fq - fr
    q, r, s = np.round(fq), np.round(fr), np.round(fs)
    dq, dr, ds = abs(q - fq), abs(r - fr), abs(s - fs)  # cube rounding
    q = np.where((dq > dr) & (dq > ds), -r - s, q)
    r = np.where((dr >= dq) & (dr > ds), -q - s, r)
    lut = np.full((9, 9), -1)
    lut[4, 4] = NUM_TERRITORIES
    for t, (tq, tr) in enumerate(TERRITORY_AXIAL.tolist()):
        lut[tq + 4, tr + 4] = t
    qi, ri = np.clip(q, -4, 4).astype(int) + 4, np.clip(r, -4, 4).astype(int) + 4
    cell = np.where((np.abs(q) <= 4) & (np.abs(r) <= 4), lut[qi, ri], -1)
    dx, dy = x - math.sqrt(3) * (q + r / 2), y - 1.5 * r
    c = math.sqrt(3) / 2
    reach = np.maximum(np.abs(dx), np.maximum(np.abs(dx / 2 + c * dy), np.abs(dx / 2 - c * dy)))
    return cell, (c - reach) * UNIT


_CELL, _EDGE_DIST = _hex_map()
_BORDER = (_CELL >= 0) & (_EDGE_DIST < 1.5)
_SACRED_BAND = np.isin(_CELL, SACRED) & (_EDGE_DIST < 5) & ~_BORDER
_CENTRE_RING = (_CELL == NUM_TERRITORIES) & (_EDGE_DIST > 8) & (_EDGE_DIST < 12.5)


def _at(cx, cy):
    return int(round(_CX + cx * UNIT)), int(round(_CY + cy * UNIT))


_HEX_XY = [_at(*pixel_centre(q, r)) for q, r in TERRITORY_AXIAL.tolist()]
# The corner shared by three hexes is the mean of their centres.
_GROUND_XY = [_at(*np.mean([pixel_centre(*TERRITORY_AXIAL[t]) for t in ts], axis=0))
              for ts in GROUND_TERRITORIES.tolist()]

_R = UNIT
_Y, _X = np.mgrid[-_R:_R + 1, -_R:_R + 1]


def _disc(x, y, radius):
    return (_X - x) ** 2 + (_Y - y) ** 2 <= radius ** 2


def _box(x0, y0, x1, y1):
    return (_X >= x0) & (_X <= x1) & (_Y >= y0) & (_Y <= y1)


def _stamp(img, mask, xy, colour):
    """Paint ``mask`` (centred on its middle pixel) at pixel ``xy``."""
    x, y = xy
    img[y - _R: y + _R + 1, x - _R: x + _R + 1][mask] = colour


def _pip_masks(n):
    """Up to 11 tokens as dots in rows of four, centred, in the lower half of the hex."""
    disc = np.zeros_like(_X, dtype=bool)
    for i in range(n):
        row, col = divmod(i, 4)
        in_row = min(4, n - 4 * row)
        disc |= _disc(9 * col - 4.5 * (in_row - 1), 4 + 9 * row, 3.5)
    return disc, outline(disc)


_PIPS = [_pip_masks(n) for n in range(12)]
_CHIEF = _disc(0, -15, 8.5)
_CHIEF_EYE = _disc(0, -15, 4) & ~_disc(0, -15, 2)
# A Moai: red topknot, long stone head with deep eyes and nose, on a dark platform (ahu).
_MOAI_STONE = _box(-7, -24, 7, 2) | _box(-10, 2, 10, 18)
_MOAI_TOPKNOT = _box(-6, -29, 6, -25)
_MOAI_DARK = (_box(-16, 19, 16, 24) | outline(_MOAI_STONE | _MOAI_TOPKNOT) | _box(-5, -15, -2, -12)
              | _box(2, -15, 5, -12) | _box(-1, -13, 1, -5) | _box(-4, -2, 4, -2))
_GROUND_EMPTY = _disc(0, 0, 4.5)
_GROUND_FULL = _disc(0, 0, 6.5)
_BADGE = _disc(0, 0, 21.5)
_BADGE_RIM = _disc(0, 0, 15.5)  # a dark rim keeps a yellow holder apart from the gold
_BADGE_INNER = _disc(0, 0, 12.5)


def render_rgb(state) -> np.ndarray:
    """An (H, W, 3) uint8 picture of the whole board: controllers, tokens, chiefs, Moai, ceremonies,
    the amulet holder (gold badge, top right) and the clan to act (top bar and framed swatch)."""
    n = int(state[kernels.NUM_PLAYERS])
    fill = np.empty((NUM_TERRITORIES + 2, 3), np.uint8)  # indexed by _CELL + 1
    fill[0], fill[-1] = _SEA, _CENTRE
    for t in range(NUM_TERRITORIES):
        owner = state[kernels.OWNER + t]
        fill[t + 1] = _MOAI_LAND if state[kernels.MOAI + t] else _TINT[owner] if owner >= 0 else _LAND
    img = fill[_CELL + 1]
    img[_BORDER] = _DARK
    img[_SACRED_BAND] = _GOLD
    img[_CENTRE_RING] = _GOLD

    for t, xy in enumerate(_HEX_XY):
        owner = state[kernels.OWNER + t]
        if state[kernels.MOAI + t]:
            _stamp(img, _MOAI_STONE, xy, _STONE)
            _stamp(img, _MOAI_TOPKNOT, xy, (150, 70, 48))
            _stamp(img, _MOAI_DARK, xy, _DARK)
        elif owner >= 0:
            pips, rims = _PIPS[min(state[kernels.TOKENS + t], 11)]
            _stamp(img, pips, xy, _CLAN_RGB[owner])
            _stamp(img, rims, xy, _DARK)
            if state[kernels.CHIEF_AT + owner] == t:
                _stamp(img, _CHIEF, xy, _CLAN_RGB[owner])
                _stamp(img, outline(_CHIEF), xy, _DARK)
                _stamp(img, _CHIEF_EYE, xy, _PALE)
    for g, xy in enumerate(_GROUND_XY):
        clan = state[kernels.GROUND + g]
        mask = _GROUND_FULL if clan >= 0 else _GROUND_EMPTY
        _stamp(img, mask, xy, _CLAN_RGB[clan] if clan >= 0 else _PALE)
        _stamp(img, outline(mask), xy, _DARK)

    # The clan to act (or the winner, over a hatched bar once the game is over), then a swatch per
    # clan in turn order with its Tangata Manu still in supply, then the amulet.
    over = state[kernels.PHASE] == kernels.PHASE_OVER
    lead = state[kernels.WINNER] if over else state[kernels.TO_ACT]
    img[:BAR] = _CLAN_RGB[lead] if lead >= 0 else _STONE
    if over:
        img[:BAR][(np.add.outer(np.arange(BAR), np.arange(WIDTH)) % 12) < 4] = _DARK
    for c in range(n):
        xy = (_R + 16, BAR + _R + 8 + 26 * c)
        swatch = _box(-36, -9, -18, 9)
        if c == lead and not over:
            _stamp(img, _box(-39, -12, -15, 12), xy, _PALE)
        _stamp(img, swatch, xy, _CLAN_RGB[c])
        _stamp(img, outline(swatch), xy, _DARK)
        for i in range(state[kernels.MANU_SUPPLY + c]):
            dot = _disc(9 * i - 4, 0, 4)
            _stamp(img, dot, xy, _CLAN_RGB[c])
            _stamp(img, outline(dot), xy, _DARK)
    holder, xy = state[kernels.AMULET], (WIDTH - _R - 12, BAR + _R + 6)
    _stamp(img, _BADGE, xy, _GOLD)
    _stamp(img, outline(_BADGE), xy, _DARK)
    _stamp(img, _BADGE_RIM, xy, _DARK)
    _stamp(img, _BADGE_INNER, xy, _CLAN_RGB[holder] if holder >= 0 else _SEA)
    return img
