"""Human-readable views of a Maka Bana game row: a text board and an RGB picture.

Both functions only read the state (one row as laid out in ``core``) and never change it.
``render_ansi`` is written for one viewer: it hides what that player may not know, exactly as
``kernels.observe`` does.  ``render_rgb`` shows only the public board (huts and tikis), never projects,
so one picture serves every viewer.  The picture is drawn with numpy alone, so that rendering needs
nothing beyond the game's own dependencies.
"""
import numpy as np

from pacific_common.draw import outline

from . import kernels
from .board import (
    AREAS, BEACHES, CARD_NAMES, COLOUR_NAMES, NUM_SPOTS, SPOT_AREA, SPOT_BEACH, SPOT_NAMES, SPOT_THEME, SPOT_XY,
    THEMES,
)

_PHASES = ("project phase", "tiki phase", "game over", "denunciation", "payback", "repaint offer",
           "execution")


def _shown_name(spot, shown):
    return (BEACHES[SPOT_BEACH[spot]], AREAS[SPOT_AREA[spot]], THEMES[SPOT_THEME[spot]])[shown]


def _cards_text(cards, paint):
    names = [CARD_NAMES[c] for c in range(kernels.PAINT_CARD) if (cards >> c) & 1]
    return ", ".join(names + ["Paint"] * int(paint)) or "no cards"


def _mao_project_text(state, colour, viewer_player):
    """A Mao project as ``viewer_player`` may see it: the owner sees the cards; others the visible card
    once all are revealed, and the card count once a denunciation or the execution shows it."""
    top = state[kernels.PROJECT_TOP + colour]
    if top < 0:
        return "none yet"
    count = kernels.card_count(state, colour)
    if viewer_player is not None and kernels.owner(state, colour) == viewer_player:
        ready = "" if state[kernels.PROJECT_KIND + colour] == kernels.MAO_PROJECT else " (being prepared)"
        return (f"{count} cards: {_cards_text(state[kernels.PROJECT_CARDS + colour], state[kernels.PROJECT_PAINT + colour])}"
                f", showing {CARD_NAMES[top]}{ready}")
    if state[kernels.PHASE] == kernels.PHASE_PROJECT:
        return "prepared" if state[kernels.PROJECT_KIND + colour] == kernels.MAO_PROJECT else "none yet"
    if state[kernels.REVEALED_NOW + colour]:
        return f"revealed: {_cards_text(state[kernels.PROJECT_CARDS + colour], state[kernels.PROJECT_PAINT + colour])}"
    known = colour in (state[kernels.DENOUNCER], state[kernels.DENOUNCED])
    return f"shows {CARD_NAMES[top]}" + (f", {count} cards" if known else "")


def _project_text(state, colour, viewer_player):
    """The current project of ``colour`` as ``viewer_player`` may see it (None: a spectator)."""
    if state[kernels.VARIANT] == kernels.VARIANT_MAO:
        return _mao_project_text(state, colour, viewer_player)
    kind = state[kernels.PROJECT_KIND + colour]
    if kind == kernels.NO_PROJECT:
        return "none yet" if state[kernels.PHASE] == kernels.PHASE_PROJECT else "none"
    spot, shown = state[kernels.PROJECT_SPOT + colour], state[kernels.PROJECT_SHOWN + colour]
    paint = " + Paint" if kind == kernels.TAKE_BACK else ""
    if viewer_player is not None and kernels.owner(state, colour) == viewer_player:
        verb = "take back" if kind == kernels.TAKE_BACK else "construct"
        return f"{verb} {SPOT_NAMES[spot]} (showing {_shown_name(spot, shown)}{paint})"
    # Hints are revealed together, so before the tiki phase even the shown card stays secret.
    if state[kernels.PHASE] == kernels.PHASE_PROJECT:
        return "prepared"
    return f"shows {_shown_name(spot, shown)}{paint}"


def render_ansi(state, viewer_player: int | None) -> str:
    """A plain-text board for ``viewer_player`` (``None``: a spectator who sees only public
    information).  Lines stay within 100 characters."""
    n, players = int(state[kernels.NUM_COLOURS]), int(state[kernels.NUM_PLAYERS])

    def name(c):
        return f"{COLOUR_NAMES[c]} (player {kernels.owner(state, c)})"

    phase = int(state[kernels.PHASE])
    if phase == kernels.PHASE_OVER:
        head = f"Maka Bana - game over after {state[kernels.SEASON]} seasons"
    else:
        last = " (last season)" if state[kernels.LAST_SEASON] else ""
        head = f"Maka Bana - season {state[kernels.SEASON] + 1}{last} - {_PHASES[phase]}"
    lines = [head]
    if phase != kernels.PHASE_OVER:
        first, to_act = name(state[kernels.FIRST]), name(state[kernels.TO_ACT])
        lines.append(f"First player: {first}   To act: {to_act}")
    if viewer_player is None:
        lines.append("Viewer: spectator")
    else:
        mine = ", ".join(COLOUR_NAMES[c] for c in range(n) if kernels.owner(state, c) == viewer_player)
        lines.append(f"Viewer: player {viewer_player} ({mine})")

    for b, beach in enumerate(BEACHES):
        spots = [s for s in range(NUM_SPOTS) if SPOT_BEACH[s] == b]
        if not kernels.spot_in_play(state, spots[0]):
            lines.append(f"\n{beach}: out of play")
        else:
            counts = [sum(state[kernels.HUT + s] == c for s in spots) for c in range(n)]
            tally = ", ".join(f"{COLOUR_NAMES[c]} {k}" for c, k in enumerate(counts) if k)
            lines.append(f"\n{beach} (huts: {tally or 'none'})")
        for s in spots:
            if not kernels.spot_in_play(state, s):
                lines.append(f"  {SPOT_NAMES[s]:<22} out of play")
                continue
            hut, tiki = state[kernels.HUT + s], state[kernels.TIKI + s]
            text = f"  {SPOT_NAMES[s]:<22} hut {COLOUR_NAMES[hut] if hut >= 0 else '-':<7}"
            lines.append((text + (f" tiki {COLOUR_NAMES[tiki]}" if tiki >= 0 else "")).rstrip())

    lines.append("\nColours")
    for c in range(n):
        lines.append(f"  {name(c):<18} huts in reserve {state[kernels.RESERVE + c]:>2}   "
                     f"paint cards {state[kernels.PAINTS + c]}")
    if phase != kernels.PHASE_OVER:
        lines.append("\nProjects this season")
        for c in range(n):
            lines.append(f"  {COLOUR_NAMES[c]:<7} {_project_text(state, c, viewer_player)}")

    if state[kernels.VARIANT] == kernels.VARIANT_MAO and phase != kernels.PHASE_OVER:
        lines.extend(_mao_season_lines(state))

    # Last season's projects were turned face up at execution, so everybody may see them.
    if any(state[kernels.LAST_KIND + c] != kernels.NO_PROJECT for c in range(n)):
        lines.append("\nProjects revealed last season")
        for c in range(n):
            kind = state[kernels.LAST_KIND + c]
            if kind == kernels.NO_PROJECT:
                continue
            verb = "take back" if kind == kernels.TAKE_BACK else "construct"
            result = "success" if state[kernels.LAST_SUCCESS + c] == 1 else "failed"
            spot = SPOT_NAMES[state[kernels.LAST_SPOT + c]]
            lines.append(f"  {COLOUR_NAMES[c]:<7} {verb} {spot}: {result}")

    if phase == kernels.PHASE_OVER:
        truncated = state[kernels.STATUS] == kernels.STATUS_TRUNCATED
        cut = " (game truncated at the season limit)" if truncated else ""
        lines.append(f"\nFinal scores{cut}")
        for c in range(n):
            lines.append(f"  {name(c):<18} {state[kernels.SCORE + c]:>3}")
        if players != n:
            totals = [sum(state[kernels.SCORE + c] for c in range(n) if kernels.owner(state, c) == p)
                      for p in range(players)]
            lines.append("  Totals: " + ", ".join(f"player {p} {t}" for p, t in enumerate(totals)))
    return "\n".join(lines)


def _mao_season_lines(state):
    """This season's denunciation and what the executions did: public in Mao."""
    n = int(state[kernels.NUM_COLOURS])
    lines = []
    aata, vaea = int(state[kernels.DENOUNCER]), int(state[kernels.DENOUNCED])
    if aata >= 0:
        out = [COLOUR_NAMES[c] for c in range(n) if state[kernels.ELIMINATED + c]]
        lines.append(f"\nDenunciation: {COLOUR_NAMES[aata]} ({kernels.card_count(state, aata)} cards) denounced "
                     f"{COLOUR_NAMES[vaea]} ({kernels.card_count(state, vaea)} cards); eliminated: {', '.join(out)}")
        case = int(state[kernels.PAINT_CASE])
        if case == kernels.CASE_PAID_BACK:
            lines.append(f"  {COLOUR_NAMES[aata]} must be paid back with {COLOUR_NAMES[vaea]}'s paint")
        elif case == kernels.CASE_NOT_MINDING:
            lines.append(f"  {COLOUR_NAMES[aata]} was not minding his business: {COLOUR_NAMES[vaea]} may "
                         f"repaint a hut of {COLOUR_NAMES[aata]}'s")
        if state[kernels.OFFERED] >= 0:
            lines.append(f"  hut offered for the repaint: {SPOT_NAMES[state[kernels.OFFERED]]}")
    elif state[kernels.PHASE] == kernels.PHASE_DENOUNCE:
        passed = [COLOUR_NAMES[c] for c in range(n) if state[kernels.PASSED + c]]
        lines.append(f"\nDenunciation round: passed so far: {', '.join(passed) or 'nobody'}")
    for c in range(n):
        done = int(state[kernels.DONE_SPOTS + c])
        if state[kernels.REVEALED_NOW + c] and done:
            spots = ", ".join(SPOT_NAMES[s] for s in range(NUM_SPOTS) if (done >> s) & 1)
            lines.append(f"  {COLOUR_NAMES[c]} executed: {spots}")
    return lines


# ------------------------------------------------------------------------------------------------
# Picture.  Each spot is drawn as one CELL x CELL tile, built from boolean masks made once below.
CELL, MARGIN = 40, 20
_SEA = (38, 92, 150)
_AREA_RGB = np.array([(240, 224, 150), (118, 184, 84), (158, 158, 150), (160, 222, 240)], np.uint8)
# Beach frames avoid the player colours so that a frame is never mistaken for a hut.
_BEACH_RGB = np.array([(0, 150, 150), (214, 70, 170), (240, 130, 20), (110, 50, 150)], np.uint8)
_PLAYER_RGB = np.array(
    [(250, 208, 0), (30, 90, 230), (20, 150, 40), (220, 30, 30), (250, 250, 250)], np.uint8)
_DARK, _WOOD = np.array((30, 30, 30), np.uint8), np.array((120, 72, 30), np.uint8)
_Y, _X = np.mgrid[0:CELL, 0:CELL]


def _box(x0, y0, x1, y1):
    return (_X >= x0) & (_X < x1) & (_Y >= y0) & (_Y < y1)


_SPOT = _box(1, 1, CELL - 1, CELL - 1)  # a one-pixel strip of sea keeps neighbouring spots apart
_FRAME = _SPOT & ~_box(5, 5, CELL - 5, CELL - 5)
_AREA_EDGE = outline(_box(5, 5, CELL - 5, CELL - 5))
# Theme glyphs in the top-left corner: Flower a dot, Fish a horizontal bar, Tattoo a cross.
_THEME = (
    (_X - 10.5) ** 2 + (_Y - 10.5) ** 2 <= 9,
    _box(7, 9, 15, 12),
    _box(9, 7, 12, 15) | _box(7, 9, 15, 12),
)
# The beach's initial in the bottom-left corner: the frame colours alone would need a key to read.
_LETTER = {}
_FONT = {"A": ("###", "#.#", "###", "#.#", "#.#"), "B": ("##.", "#.#", "##.", "#.#", "##."),
         "C": (".##", "#..", "#..", "#..", ".##"), "D": ("##.", "#.#", "#.#", "#.#", "##.")}
for _b, _rows in _FONT.items():
    _LETTER[_b] = np.zeros((CELL, CELL), bool)
    _pixels = np.array([[ch == "#" for ch in r] for r in _rows])
    _LETTER[_b][22:32, 7:13] = np.kron(_pixels, np.ones((2, 2), bool))  # 3x5 font at double size
_HUT = _box(15, 22, 27, 32) | ((_Y >= 12) & (_Y < 22) & (np.abs(_X - 20.5) <= (_Y - 12) * 0.7 + 1))
_TIKI = _box(28, 9, 34, 32) | _box(27, 7, 35, 11)  # a totem with a wider head
_TIKI_STRIPE = _box(29, 16, 33, 24)
_HATCH = ((_X + _Y) % 6 < 2) & _SPOT


def render_rgb(state) -> np.ndarray:
    """An (H, W, 3) uint8 picture of the public board: areas, beaches, themes, huts and tikis."""
    width, height = SPOT_XY.max(axis=0) + 1
    img = np.empty((height * CELL + 2 * MARGIN, width * CELL + 2 * MARGIN, 3), np.uint8)
    img[:] = _SEA
    for s in range(NUM_SPOTS):
        tile = np.empty((CELL, CELL, 3), np.uint8)
        tile[:] = _SEA
        tile[_SPOT] = _AREA_RGB[SPOT_AREA[s]]
        tile[_FRAME] = _BEACH_RGB[SPOT_BEACH[s]]
        tile[_AREA_EDGE] = _AREA_RGB[SPOT_AREA[s]] // 2
        tile[_THEME[SPOT_THEME[s]]] = _DARK
        tile[_LETTER[BEACHES[SPOT_BEACH[s]][0]]] = _DARK
        hut, tiki = state[kernels.HUT + s], state[kernels.TIKI + s]
        if hut >= 0:
            tile[_HUT] = _PLAYER_RGB[hut]
            tile[outline(_HUT)] = _DARK
        if tiki >= 0:
            tile[_TIKI] = _WOOD
            tile[outline(_TIKI)] = _DARK
            tile[_TIKI_STRIPE] = _PLAYER_RGB[tiki]
        if not kernels.spot_in_play(state, s):
            # Wash out the colours and hatch, so the spot reads as "not part of this game".
            tile[_SPOT] = (tile[_SPOT].astype(np.uint16) + 2 * 120) // 3
            tile[_HATCH] = (90, 90, 90)
        x, y = SPOT_XY[s]
        top, left = MARGIN + y * CELL, MARGIN + x * CELL
        img[top: top + CELL, left: left + CELL] = tile
    return img
