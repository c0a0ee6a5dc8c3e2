"""Human-readable views of a Maka Bana game row: a text board, an RGB picture and an SVG picture.

All of them only read the state (one row as laid out in ``core``) and never change it.
``render_ansi`` is written for one viewer: it hides what that player may not know, exactly as
``kernels.observe`` does.  ``render_rgb`` shows only the public board (huts and tikis), never projects,
so one picture serves every viewer.  The picture is drawn with numpy alone, so that rendering needs
nothing beyond the game's own dependencies.  ``render_svg`` is the same picture as a vector document
for the web front end, with every spot a clickable place; ``action_place`` says which place an action
is played on.
"""
from xml.sax.saxutils import escape

import numpy as np

from pacific_common import checked
from pacific_common.draw import hatch, outline, plural, text_lines

from . import core, kernels
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
        return (f"{plural(count, 'card')}: {_cards_text(state[kernels.PROJECT_CARDS + colour], state[kernels.PROJECT_PAINT + colour])}"
                f", showing {CARD_NAMES[top]}{ready}")
    if state[kernels.PHASE] == kernels.PHASE_PROJECT:
        return "prepared" if state[kernels.PROJECT_KIND + colour] == kernels.MAO_PROJECT else "none yet"
    if state[kernels.REVEALED_NOW + colour]:
        return f"revealed: {_cards_text(state[kernels.PROJECT_CARDS + colour], state[kernels.PROJECT_PAINT + colour])}"
    known = colour in (state[kernels.DENOUNCER], state[kernels.DENOUNCED])
    return f"shows {CARD_NAMES[top]}" + (f", {plural(count, 'card')}" if known else "")


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


def render_ansi(state, viewer_player: int | None = None) -> str:
    """A plain-text board for ``viewer_player`` (``None``: a spectator who sees only public
    information).  Lines stay within 100 characters.  A viewer who is not a
    player of the game is a ``ValueError``, as is a row that ``core.check_state`` refuses (the drawing
    trusts the row's counts and indices: a wrong one reads outside it)."""
    core.check_state(state)
    return unchecked_ansi(state, viewer_player)


def unchecked_ansi(state, viewer_player):
    """``render_ansi`` of a row it does not check: for tests that draw a row the rules cannot reach
    (a position with one project taken away, to see what that project adds to the text)."""
    viewer_player = checked.viewer(viewer_player, int(state[kernels.NUM_PLAYERS]))
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
    if state[kernels.VARIANT] == kernels.VARIANT_MAO:
        lines.extend(_mao_earlier_lines(state))

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
    return text_lines(lines)


def _mao_season_lines(state):
    """This season's denunciation and what the executions did: public in Mao."""
    n = int(state[kernels.NUM_COLOURS])
    lines = []
    aata, vaea = int(state[kernels.DENOUNCER]), int(state[kernels.DENOUNCED])
    if aata >= 0:
        out = [COLOUR_NAMES[c] for c in range(n) if state[kernels.ELIMINATED + c]]
        lines.append(f"\nDenunciation: {COLOUR_NAMES[aata]} ({plural(kernels.card_count(state, aata), 'card')}) denounced "
                     f"{COLOUR_NAMES[vaea]} ({plural(kernels.card_count(state, vaea), 'card')}); eliminated: {', '.join(out)}")
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
            spots = _spot_names(done)
            lines.append(f"  {COLOUR_NAMES[c]} executed: {spots}")
    return lines


def _spot_names(bits):
    """The spots of a bit set (``DONE_SPOTS``), named."""
    return ", ".join(SPOT_NAMES[s] for s in range(NUM_SPOTS) if (bits >> s) & 1)


def _mao_earlier_lines(state):
    """Each colour's project revealed at an execution before this season, and what that execution
    built or took back: turned face up then, so public (as in the observation's OBS_M_REVEALED and
    OBS_M_DONE, and the notation's "last project" line)."""
    n = int(state[kernels.NUM_COLOURS])
    earlier = [c for c in range(n) if not state[kernels.REVEALED_NOW + c]
               and (state[kernels.LAST_CARDS + c] or state[kernels.LAST_PAINT + c])]
    if not earlier:
        return []
    lines = ["\nProjects revealed before this season (each colour's latest)"]
    for c in earlier:
        done = int(state[kernels.DONE_SPOTS + c])
        spots = _spot_names(done) or "nothing"
        lines.append(f"  {COLOUR_NAMES[c]:<7} cards {_cards_text(state[kernels.LAST_CARDS + c], state[kernels.LAST_PAINT + c])}"
                     f"; executed: {spots}")
    return lines


# ------------------------------------------------------------------------------------------------
# Pictures.  ``render_rgb`` (numpy pixels) and ``render_svg`` (vector) draw the same board from the
# tables below, so they cannot drift apart: ``picture_size`` and ``spot_origin`` place the spots,
# ``_PIECES`` holds the shapes of a spot's tile as boolean masks over one CELL x CELL tile, and
# ``_tile_layers`` says which pieces a spot shows, bottom to top, and in which colour.
CELL, MARGIN, BAR = 40, 20, 12   # BAR: the top bar, in the margin of sea above the island
_SEA = (38, 92, 150)
_AREA_RGB = np.array([(240, 224, 150), (118, 184, 84), (158, 158, 150), (160, 222, 240)], np.uint8)
# Beach frames avoid the player colours so that a frame is never mistaken for a hut.
_BEACH_RGB = np.array([(0, 150, 150), (214, 70, 170), (240, 130, 20), (110, 50, 150)], np.uint8)
_PLAYER_RGB = np.array(
    [(250, 208, 0), (30, 90, 230), (20, 150, 40), (220, 30, 30), (250, 250, 250)], np.uint8)
_DARK, _WOOD = np.array((30, 30, 30), np.uint8), np.array((120, 72, 30), np.uint8)
_HATCH_RGB = np.array((90, 90, 90), np.uint8)
_Y, _X = np.mgrid[0:CELL, 0:CELL]


def picture_size():
    """``(height, width)`` of the picture in pixels: the island's grid of spots and a margin of sea."""
    width, height = SPOT_XY.max(axis=0) + 1
    return int(height * CELL + 2 * MARGIN), int(width * CELL + 2 * MARGIN)


def spot_origin(spot):
    """``(left, top)``: the pixel where the tile of ``spot`` starts in the picture."""
    x, y = SPOT_XY[spot]
    return int(MARGIN + x * CELL), int(MARGIN + y * CELL)


def _box(x0, y0, x1, y1):
    return (_X >= x0) & (_X < x1) & (_Y >= y0) & (_Y < y1)


def _letter(rows):
    """A beach initial from a 3x5 font at double size, in the tile's bottom-left corner."""
    mask = np.zeros((CELL, CELL), bool)
    pixels = np.array([[ch == "#" for ch in r] for r in rows])
    mask[22:32, 7:13] = np.kron(pixels, np.ones((2, 2), bool))
    return mask


_SPOT = _box(1, 1, CELL - 1, CELL - 1)  # a one-pixel strip of sea keeps neighbouring spots apart
_HUT = _box(15, 22, 27, 32) | ((_Y >= 12) & (_Y < 22) & (np.abs(_X - 20.5) <= (_Y - 12) * 0.7 + 1))
_TIKI = _box(28, 9, 34, 32) | _box(27, 7, 35, 11)  # a totem with a wider head
_PIECES = {
    "spot": _SPOT,
    "frame": _SPOT & ~_box(5, 5, CELL - 5, CELL - 5),
    "area-edge": outline(_box(5, 5, CELL - 5, CELL - 5)),
    # Theme glyphs in the top-left corner: Flower a dot, Fish a horizontal bar, Tattoo a cross.
    "flower": (_X - 10.5) ** 2 + (_Y - 10.5) ** 2 <= 9,
    "fish": _box(7, 9, 15, 12),
    "tattoo": _box(9, 7, 12, 15) | _box(7, 9, 15, 12),
    # The beach's initial in the bottom-left corner: the frame colours alone would need a key to read.
    "letter-a": _letter(("###", "#.#", "###", "#.#", "#.#")),
    "letter-b": _letter(("##.", "#.#", "##.", "#.#", "##.")),
    "letter-c": _letter((".##", "#..", "#..", "#..", ".##")),
    "letter-d": _letter(("##.", "#.#", "#.#", "#.#", "##.")),
    "hut": _HUT,
    "hut-edge": outline(_HUT),
    "tiki": _TIKI,
    "tiki-edge": outline(_TIKI),
    "tiki-stripe": _box(29, 16, 33, 24),
    "hatch": ((_X + _Y) % 6 < 2) & _SPOT,
}
_BAR_HATCH = hatch(BAR, picture_size()[1])
_THEME_PIECES = tuple(theme.lower() for theme in THEMES)
_LETTER_PIECES = tuple(f"letter-{beach[0].lower()}" for beach in BEACHES)
assert set(_THEME_PIECES + _LETTER_PIECES) <= set(_PIECES)


def _washed(colour):
    """A colour washed out towards light grey: spots out of play read as "not part of this game"."""
    return ((np.asarray(colour, np.uint16) + 2 * 120) // 3).astype(np.uint8)


def _tile_layers(state, spot):
    """What the tile of ``spot`` shows, bottom to top: ``(piece, colour)`` pairs, the piece a key of
    ``_PIECES`` and the colour an RGB triple.  Only public facts go in: the spot's own cards, the hut
    and the tiki on it, and whether it is in play."""
    area, beach = SPOT_AREA[spot], SPOT_BEACH[spot]
    layers = [("spot", _AREA_RGB[area]), ("frame", _BEACH_RGB[beach]), ("area-edge", _AREA_RGB[area] // 2),
              (_THEME_PIECES[SPOT_THEME[spot]], _DARK), (_LETTER_PIECES[beach], _DARK)]
    hut, tiki = state[kernels.HUT + spot], state[kernels.TIKI + spot]
    if hut >= 0:
        layers += [("hut", _PLAYER_RGB[hut]), ("hut-edge", _DARK)]
    if tiki >= 0:
        layers += [("tiki", _WOOD), ("tiki-edge", _DARK), ("tiki-stripe", _PLAYER_RGB[tiki])]
    if not kernels.spot_in_play(state, spot):
        # Every piece lies inside the spot's square, so washing each colour washes the whole tile.
        layers = [(piece, _washed(colour)) for piece, colour in layers] + [("hatch", _HATCH_RGB)]
    return layers


def _bar(state):
    """The top bar's colour and whether the game is over: the colour asked; once the game is over the
    sole winner's colour (gray if there is none, or the winner plays two colours, with 2 players)."""
    if state[kernels.PHASE] != kernels.PHASE_OVER:
        return _PLAYER_RGB[state[kernels.TO_ACT]], False
    n = int(state[kernels.NUM_PLAYERS])
    rewards = np.zeros(n)
    kernels.rewards(state, kernels.REWARD_WIN_LOSS, rewards)   # +1 the sole winner only, after truncation none
    winner = np.flatnonzero(rewards == 1)
    if len(winner) and n == state[kernels.NUM_COLOURS]:
        return _PLAYER_RGB[winner[0]], True
    return _HATCH_RGB, True


def render_rgb(state) -> np.ndarray:
    """An (H, W, 3) uint8 picture of the public board: areas, beaches, themes, huts and tikis, under
    a bar in the colour asked, hatched once the game is over.  A row that ``core.check_state``
    refuses is a ``ValueError``."""
    core.check_state(state)
    img = np.empty(picture_size() + (3,), np.uint8)
    img[:] = _SEA
    colour, over = _bar(state)
    img[:BAR] = colour
    if over:
        img[:BAR][_BAR_HATCH] = _DARK
    for s in range(NUM_SPOTS):
        tile = np.empty((CELL, CELL, 3), np.uint8)
        tile[:] = _SEA
        for piece, colour in _tile_layers(state, s):
            tile[_PIECES[piece]] = colour
        left, top = spot_origin(s)
        img[top: top + CELL, left: left + CELL] = tile
    return img


# ------------------------------------------------------------------------------------------------
# The board as SVG, and where each action is clicked (the web front end, issue 26).
def _hex(colour):
    return "#" + np.asarray(colour, np.uint8).tobytes().hex()


def _piece_path(mask):
    """SVG path data covering exactly the pixels of ``mask``: one rectangle per run of pixels, rows
    with the same runs merged, so that a browser paints the very pixels ``render_rgb`` paints."""
    runs_of_row = []
    for row in mask:
        edges = np.flatnonzero(np.diff(np.concatenate(([0], row.astype(np.int8), [0]))))
        runs_of_row.append(tuple(zip(edges[::2].tolist(), edges[1::2].tolist())))
    parts, y = [], 0
    while y < len(runs_of_row):
        height = 1
        while y + height < len(runs_of_row) and runs_of_row[y + height] == runs_of_row[y]:
            height += 1
        parts += [f"M{x0} {y}h{x1 - x0}v{height}h{x0 - x1}z" for x0, x1 in runs_of_row[y]]
        y += height
    return "".join(parts)


# The ids carry the game's name: a page that shows boards of several games keeps them apart.
_PIECE_DEFS = "".join(f'<path id="makabana-{piece}" d="{_piece_path(mask)}"/>' for piece, mask in _PIECES.items())
# defined only in the SVG of a finished game: a quarter of the document's size otherwise
_BAR_HATCH_DEF = f'<path id="makabana-bar-hatch" d="{_piece_path(_BAR_HATCH)}"/>'


def place_id(spot):
    """The id of the spot's place in ``render_svg``, e.g. ``'place-azzura-grass-flower'``."""
    return "place-" + SPOT_NAMES[checked.integer("spot", spot, 0, NUM_SPOTS - 1)].lower()   # -1 would name the last


def _spot_title(state, spot):
    """The spot's name and what stands on it: the tooltip of its place."""
    if not kernels.spot_in_play(state, spot):
        return f"{SPOT_NAMES[spot]}: out of play"
    hut, tiki = state[kernels.HUT + spot], state[kernels.TIKI + spot]
    pieces = ([f"{COLOUR_NAMES[hut]} hut"] if hut >= 0 else []) + ([f"{COLOUR_NAMES[tiki]} tiki"] if tiki >= 0 else [])
    return f"{SPOT_NAMES[spot]}: {', '.join(pieces) or 'empty'}"


def render_svg(state, viewer_player: int | None = None) -> str:
    """The board as a standalone SVG document: the picture of ``render_rgb``, pixel for pixel (width,
    height and viewBox equal its shape; every piece is drawn from the same masks, colours and spot
    origins).

    Each of the 39 spots is a place, ``<g class="place" id="place-<spot>">`` (``place_id``), whose
    ``<title>`` names the spot and what stands on it, and whose last child, ``<rect class="place-edge">``,
    is an invisible outline over the tile that a page may stroke to highlight the place.

    The board of Maka Bana is all public: huts, tikis and which spots are in play.  Projects, the
    cards in hand and the generator are never drawn, so the picture is the same for every
    ``viewer_player`` (a player 0 … NUM_PLAYERS - 1, or ``None`` for a spectator); the argument is
    checked so that a page can pass its seat without knowing this.  The state is only read; a row
    ``core.check_state`` refuses raises ``ValueError``."""
    core.check_state(state)
    viewer_player = checked.viewer(viewer_player, int(state[kernels.NUM_PLAYERS]))
    height, width = picture_size()
    bar_colour, over = _bar(state)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" shape-rendering="crispEdges">',
             "<title>Maka Bana</title>",
             f"<defs>{_PIECE_DEFS}{_BAR_HATCH_DEF if over else ''}</defs>",
             f'<rect class="sea" width="{width}" height="{height}" fill="{_hex(_SEA)}"/>']
    parts.append(f'<g class="to-act"><rect width="{width}" height="{BAR}" fill="{_hex(bar_colour)}"/>'
                 + (f'<use href="#makabana-bar-hatch" fill="{_hex(_DARK)}"/>' if over else "") + "</g>")
    for s in range(NUM_SPOTS):
        left, top = spot_origin(s)
        parts.append(f'<g class="place" id="{place_id(s)}" transform="translate({left} {top})">'
                     f"<title>{escape(_spot_title(state, s))}</title>")
        parts += [f'<use href="#makabana-{piece}" fill="{_hex(colour)}"/>' for piece, colour in _tile_layers(state, s)]
        parts.append(f'<rect class="place-edge" x="1" y="1" width="{CELL - 2}" height="{CELL - 2}" '
                     'fill="none" stroke="none"/></g>')
    parts.append("</svg>")
    return "\n".join(parts)


def _action_spot(action):
    """The spot an action is about, or -1 for a decision that names no spot."""
    if action < kernels.TAKE_BACK_BASE:
        return action // 3                                   # construct, whatever card is shown
    if action < kernels.TIKI_BASE:
        return (action - kernels.TAKE_BACK_BASE) // 3        # take back, whatever card is shown
    if action < kernels.NUM_ACTIONS:
        return action - kernels.TIKI_BASE                    # the tiki
    if kernels.MAO_SPOT_BASE <= action < kernels.MAO_STOP:
        return action - kernels.MAO_SPOT_BASE                # Mao: build, take back or repaint there
    return -1


def action_place(action, state):
    """The id of the place in ``render_svg(state, ...)`` a player clicks to play ``action``, or
    ``None`` for an action that names no spot.

    Haapii: the six projects on a spot (construct or take back, showing its beach, area or theme)
    and the tiki on it all share the spot's place.  Mao: the build, take-back and repaint choices
    on a spot share its place; the project's cards (show a card on top, add a card hidden, keep the
    card asked), the denunciations, "do not denounce" and "stop / decline" have none.

    ``action`` must be an action of the state's variant (0 … 272 in Haapii, 0 … 342 in Mao); the
    state is only read.  A bad action or row raises ``ValueError``."""
    core.check_state(state)
    size = kernels.NUM_ACTIONS_OF_VARIANT[int(state[kernels.VARIANT])]
    action = checked.integer("action", action, 0, size - 1)
    spot = _action_spot(action)
    return None if spot < 0 else place_id(spot)
