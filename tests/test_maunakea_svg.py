"""Mauna Kea's board as SVG and the places actions are clicked (issue 26, "Play the trained opponents in
a web browser", part 2): ``render.render_svg`` and ``render.action_place``.

The SVG is checked against ``render_rgb`` by painting it here, element by element, at the centre of
every shape and place: a test that fails as soon as the two drawings drift apart.  The artifacts a
square holds are checked in all three drawings, the text board's included."""
import os
import re
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import maunakea_env
from maunakea_env import core, kernels, render
from maunakea_env.board import (
    CARD_KIND_COPIES, CARD_KIND_NAMES, FIELD_NAMES, FIELD_SQUARES, FIRST_ACTION_KIND, IS_TILE_FIELD, JUNGLE,
    LANDING_NAMES, NUM_CARD_KINDS, NUM_SQUARES, SQUARE_NAMES, SQUARE_NEIGHBOURS,
)
from maunakea_env.notation import describe_action, to_text
from maunakea_env.render import CELL, action_place, render_rgb, render_svg, square_origin

SVG = "{http://www.w3.org/2000/svg}"
CHROMIUM = "/usr/bin/chromium"   # Debian's package, as .ci/run installs it (issue 26 item 6)
GAMES = [(n, variant) for variant in (kernels.VARIANT_BASIC, kernels.VARIANT_ADVANCED) for n in (2, 3, 4)]
# The decisions without a place on the board (render.action_place), by their first words.
NO_PLACE = ("end the turn", "remove the dealt card", "draw a tile after the earthquake",
            "draw no tile after the earthquake")


def _decisions(n, variant, seed, max_turns):
    """Every decision of one random game (copies of the row), and the row once it is over."""
    state = np.zeros(kernels.STATE_SIZE, np.int64)
    kernels.init(state, n, variant, max_turns, seed)
    while state[kernels.STATUS] == kernels.STATUS_RUNNING:
        yield state.copy()
        assert kernels.step(state, kernels.random_action(state)) == kernels.STEP_OK
    yield state.copy()


def _legal(state):
    mask = np.zeros(kernels.NUM_ACTIONS_OF_VARIANT[int(state[kernels.VARIANT])], np.int8)
    kernels.legal_action_mask(state, mask)
    return np.flatnonzero(mask).tolist()


def _sample_states():
    """A few positions of every variant and player count: the set-up, the middle, the end."""
    out = []
    for n, variant in GAMES:
        game = list(_decisions(n, variant, 100 + 10 * n + variant, 120))
        out += [game[0], game[len(game) // 2], game[-1]]
    return out


STATES = _sample_states()


# ---------------------------------------------------------------------------------------------------
# Painting the SVG at one pixel as render_rgb does: fills, and outlines as draw.outline makes them
# (the start fields' frames, drawn as a stroke alone, are left out)
def _colour(text):
    return tuple(int(text[i:i + 2], 16) for i in (1, 3, 5))


def _points(el):
    return [tuple(map(float, p.split(","))) for p in el.get("points").split()]


def _on_edge(x, y, x1, y1, x2, y2):
    cross = (x2 - x1) * (y - y1) - (y2 - y1) * (x - x1)
    return abs(cross) < 1e-6 and min(x1, x2) - 1e-6 <= x <= max(x1, x2) + 1e-6 \
        and min(y1, y2) - 1e-6 <= y <= max(y1, y2) + 1e-6


def _inside(el, x, y):
    """Whether the point lies in the shape as the mask draws it: a mask holds its boundary (``<=``),
    and its outline lies within it, where the SVG's stroke is centred half a pixel inside."""
    tag = el.tag[len(SVG):]
    grow = 0.5 if el.get("stroke") else 0
    if tag == "rect":
        ex, ey = float(el.get("x")) - grow, float(el.get("y")) - grow
        w, h = float(el.get("width")) + 2 * grow, float(el.get("height")) + 2 * grow
        return ex <= x < ex + w and ey <= y < ey + h
    if tag == "circle":
        cx, cy, r = float(el.get("cx")), float(el.get("cy")), float(el.get("r")) + grow
        return (x - cx) ** 2 + (y - cy) ** 2 <= r ** 2 + 1e-9
    inside, pts = False, _points(el)       # polygon, even-odd
    for (x1, y1), (x2, y2) in zip(pts, pts[1:] + pts[:1]):
        if _on_edge(x, y, x1, y1, x2, y2):
            return True
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def _box(el):
    tag = el.tag[len(SVG):]
    if tag == "rect":
        x, y = float(el.get("x")), float(el.get("y"))
        return x - 1, y - 1, x + float(el.get("width")) + 1, y + float(el.get("height")) + 1
    if tag == "circle":
        cx, cy, r = float(el.get("cx")), float(el.get("cy")), float(el.get("r")) + 1
        return cx - r, cy - r, cx + r, cy + r
    xs, ys = zip(*_points(el))
    return min(xs), min(ys), max(xs), max(ys)


class _Painter:
    """The SVG's painted shapes, found by 24-pixel tiles so that painting a point looks at few."""

    def __init__(self, root):
        self.tiles = {}
        shapes = [el for el in root.iter() if el.tag in (SVG + "rect", SVG + "circle", SVG + "polygon")
                  and el.get("fill") != "none"]
        for el in shapes:
            x0, y0, x1, y1 = _box(el)
            for ty in range(int(y0) // 24, int(y1) // 24 + 1):
                for tx in range(int(x0) // 24, int(x1) // 24 + 1):
                    self.tiles.setdefault((tx, ty), []).append(el)
        self.shapes = [el for el in shapes if float(el.get("fill-opacity", 1)) > 0]

    def paint(self, x, y):
        """The colour of pixel (x, y), looking at its centre from the top down: an outline where the
        shape holds the pixel but not one of its four neighbours (``draw.outline``), else the fill."""
        px, py = x + .5, y + .5
        for el in reversed(self.tiles.get((x // 24, y // 24), [])):
            if not _inside(el, px, py):
                continue
            if el.get("stroke") and not all(_inside(el, px + dx, py + dy)
                                            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))):
                return _colour(el.get("stroke"))
            if float(el.get("fill-opacity", 1)) > 0:
                return _colour(el.get("fill"))
        return None


def _centre(el):
    tag = el.tag[len(SVG):]
    if tag == "rect":
        return float(el.get("x")) + float(el.get("width")) / 2, float(el.get("y")) + float(el.get("height")) / 2
    if tag == "circle":
        return float(el.get("cx")), float(el.get("cy"))
    pts = _points(el)
    return sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts)


def _ids(svg):
    return set(re.findall(r' id="([^"]+)"', svg))


# ---------------------------------------------------------------------------------------------------
def test_svg_is_a_document_of_the_pixel_pictures_size_with_named_places():
    """Issue 26 item 2: a standalone SVG, the size of the rgb_array picture; every place has a unique
    id from the game's names and a title."""
    names = ({f"place-{s.lower()}" for s in SQUARE_NAMES} | {f"place-{f.lower()}" for f in FIELD_NAMES}
             | {"place-" + k.lower().replace(" ", "-") for k in LANDING_NAMES})
    for state in STATES:
        for viewer in (None, max(int(state[kernels.TO_ACT]), 0)):
            svg = render_svg(state, viewer)
            root = ET.fromstring(svg)
            height, width, _ = render_rgb(state).shape
            assert root.tag == SVG + "svg"
            assert (root.get("width"), root.get("height"), root.get("viewBox")) == \
                (str(width), str(height), f"0 0 {width} {height}")
            ids = [el.get("id") for el in root.iter() if el.get("id")]
            assert len(ids) == len(set(ids))
            places = [el for el in root.iter() if el.get("class") == "place"]
            assert {el.get("id") for el in places} == set(ids)
            for el in places:
                assert re.fullmatch(r"place-[a-z0-9-]+", el.get("id"))
                assert el.find(SVG + "title").text
                assert el.get("id") in names or re.fullmatch(r"place-(red|yellow|blue|purple)-hand-tile-[0-4]",
                                                            el.get("id"))
            squares = [i for i in ids if re.fullmatch(r"place-[a-i][1-9]-(nw|ne|sw|se)", i)]
            assert len(squares) == NUM_SQUARES
            assert {i for i in ids if re.fullmatch(r"place-[a-i][1-9]", i)} == \
                {f"place-{FIELD_NAMES[f].lower()}" for f in np.flatnonzero(IS_TILE_FIELD)}


def test_svg_paints_what_the_pixel_picture_paints():
    """Issue 26 item 2, "the same geometry as the rgb_array pictures": at the centre of every place and
    of every filled shape, the SVG's colour there is render_rgb's pixel."""
    for state in STATES:
        picture = render_rgb(state)
        root = ET.fromstring(render_svg(state))
        painter = _Painter(root)
        places = [el for el in root.iter() if el.get("class") == "place"]
        assert len(places) > NUM_SQUARES
        wrong = []
        for el in painter.shapes + places:
            x, y = (int(v) for v in _centre(el))
            if 0 <= y < picture.shape[0] and 0 <= x < picture.shape[1]:
                painted = painter.paint(x, y)
                if painted != tuple(int(v) for v in picture[y, x]):
                    wrong.append((el.get("id") or el.tag, x, y, painted, picture[y, x].tolist()))
        assert not wrong, wrong[:5]


def test_svg_paints_nearly_every_pixel_as_the_pixel_picture():
    """Issue 26 item 2: beyond the centres, pixels drawn at random agree too; the few that may not are
    the start fields' frames (a stroke, not painted here) and the boats' cut corners."""
    rng = np.random.default_rng(26)
    for state in STATES[1::3]:
        picture = render_rgb(state)
        painter = _Painter(ET.fromstring(render_svg(state)))
        pixels = zip(rng.integers(picture.shape[0], size=2000), rng.integers(picture.shape[1], size=2000))
        wrong = sum(painter.paint(int(x), int(y)) != tuple(int(v) for v in picture[y, x]) for y, x in pixels)
        assert wrong <= 2000 // 100


def _gathered(state, base, counts):
    """A copy of ``state`` with ``counts[c]`` more artifacts of colour c at ``state[base + c]``, taken
    from the squares where they lie (the row stays valid: no artifact is made or lost)."""
    row = state.copy()
    for c, k in enumerate(counts):
        for q in range(NUM_SQUARES):
            while k and row[kernels.ARTIFACTS + 3 * q + c] and kernels.ARTIFACTS + 3 * q != base:
                row[kernels.ARTIFACTS + 3 * q + c] -= 1
                row[base + c] += 1
                k -= 1
        assert k == 0
    core.check_state(row)
    return row


def _square_pixels(state, s):
    top, left = square_origin(s)
    return render_rgb(state)[top: top + CELL, left: left + CELL]


def test_more_artifacts_than_a_square_has_room_for_show_a_plus_sign():
    """The picture has four corners for the artifacts lying on a square, two under an explorer who
    carries two or three: when more lie there, the last free corner shows a plus sign instead of
    leaving some out unseen, and the SVG draws it as the picture does."""
    state = next(s for s in STATES if s[kernels.PHASE] == kernels.PHASE_TURN and s[kernels.OCCUPANT + 0] < 0)
    empty = next(q for q in range(NUM_SQUARES) if state[kernels.TERRAIN + q] == JUNGLE
                 and state[kernels.OCCUPANT + q] < 0
                 and not state[kernels.ARTIFACTS + 3 * q: kernels.ARTIFACTS + 3 * q + 3].any())
    four = _gathered(state, kernels.ARTIFACTS + 3 * empty, (3, 1, 0))
    six = _gathered(four, kernels.ARTIFACTS + 3 * empty, (2, 0, 0))
    assert not np.array_equal(_square_pixels(four, empty), _square_pixels(six, empty))
    x = int(np.flatnonzero(state[kernels.EXPLORER_STATUS: kernels.CARRIED] == kernels.ON_ISLAND)[0])
    under = int(state[kernels.EXPLORER_SQUARE + x])
    cleared = state.copy()
    for c in range(3):          # his square's own artifacts go to the empty square
        cleared[kernels.ARTIFACTS + 3 * empty + c] += cleared[kernels.ARTIFACTS + 3 * under + c]
        cleared[kernels.ARTIFACTS + 3 * under + c] = 0
    carrying = _gathered(cleared, kernels.CARRIED + 3 * x, (2, 0, 0))
    two = _gathered(carrying, kernels.ARTIFACTS + 3 * under, (0, 2, 0))
    three = _gathered(two, kernels.ARTIFACTS + 3 * under, (1, 0, 0))
    assert not np.array_equal(_square_pixels(two, under), _square_pixels(three, under))
    dark = tuple(int(v) for v in render._DARK)
    for row, s, corner in ((six, empty, 3), (three, under, 1)):
        cx, cy = CELL / 2 + render.CORNER_SPOTS[corner][0], CELL / 2 + render.CORNER_SPOTS[corner][1]
        arm = render.MORE_ARM - 1
        for dx, dy in ((0, 0), (-arm, 0), (arm, 0), (0, -arm), (0, arm)):
            # the whole plus sign: its inner arm lies over the explorer's disc in a top corner
            assert tuple(int(v) for v in _square_pixels(row, s)[int(cy + dy), int(cx + dx)]) == dark
        picture = render_rgb(row)
        painter = _Painter(ET.fromstring(render_svg(row)))
        top, left = square_origin(s)
        wrong = [(x, y) for y in range(top, top + CELL) for x in range(left, left + CELL)
                 if painter.paint(x, y) != tuple(int(v) for v in picture[y, x])]
        assert not wrong, wrong[:5]


def test_the_text_board_names_what_lies_under_an_explorer():
    """The text's grid shows an explorer's digit on his square, so his line under Players says what
    lies there (it said only what he carried, and the artifacts under him appeared nowhere)."""
    state = next(s for s in STATES if s[kernels.PHASE] == kernels.PHASE_TURN)
    x = int(np.flatnonzero(state[kernels.EXPLORER_STATUS: kernels.CARRIED] == kernels.ON_ISLAND)[0])
    under = int(state[kernels.EXPLORER_SQUARE + x])
    row = state.copy()
    row[kernels.ARTIFACTS + 3 * under: kernels.ARTIFACTS + 3 * under + 3] = 0
    row = _gathered(row, kernels.ARTIFACTS + 3 * under, (1, 2, 0))
    row = _gathered(row, kernels.CARRIED + 3 * x, (1, 0, 0))
    p, e = divmod(x, kernels.MAX_EXPLORERS)
    line = f"    explorer {e}: {SQUARE_NAMES[under]}, carrying 1 white, standing on 1 white, 2 gray"
    for viewer in (None, p):
        assert line in render.render_ansi(row, viewer).splitlines()


def test_svg_drifting_from_the_pixel_picture_is_caught():
    """The checks above are not blind: an explorer drawn half a square off no longer matches."""
    state = next(s for s in STATES if (s[kernels.OCCUPANT:kernels.OCCUPANT + NUM_SQUARES] >= 0).any())
    svg = render_svg(state)
    disc = re.search(r'<circle cx="([0-9.]+)"( cy="[0-9.]+" r="7" fill="#[0-9a-f]+" stroke=)', svg)
    moved_x = f"{float(disc.group(1)) + CELL // 2:g}"
    painter = _Painter(ET.fromstring(svg.replace(disc.group(0), f'<circle cx="{moved_x}"{disc.group(2)}', 1)))
    circle = next(el for el in painter.shapes if el.tag == SVG + "circle" and el.get("cx") == moved_x)
    x, y = (int(v) for v in _centre(circle))
    assert painter.paint(x, y) == _colour(circle.get("fill"))
    assert painter.paint(x, y) != tuple(int(v) for v in render_rgb(state)[y, x])


def _kind(words):
    """An action's kind, from its name: 'place an', 'lay hand', ..., 'boards', 'picks', 'drops'."""
    return words.split()[2] if words.startswith("explorer") else " ".join(words.split()[:2])


def _check_places(state, seen):
    """Every legal action's place is in the SVG drawn for the player to act, or it is one of the
    decisions documented without a place; ``seen`` collects the kinds of action met."""
    ids = _ids(render_svg(state, int(state[kernels.TO_ACT])))
    with_place = without = 0
    for a in _legal(state):
        words, place = describe_action(a), action_place(a, state)
        seen.add(_kind(words))
        if place is None:
            assert words.startswith(NO_PLACE), words
            without += 1
        else:
            assert place in ids, (words, place)
            with_place += 1
    return with_place, without


@pytest.mark.parametrize("n, variant", GAMES)
def test_every_legal_action_is_clicked_on_the_board_or_named_a_button(n, variant):
    """Issue 26 item 2: on every decision of a random game (set-up and the first turns), each legal
    action's place is an element of the SVG drawn for the player to act; the few without a place are
    those render.action_place names."""
    seen, with_place, without = set(), 0, 0
    for state in _decisions(n, variant, 7 + n, 12):
        if state[kernels.STATUS] != kernels.STATUS_RUNNING:
            break
        counts = _check_places(state, seen)
        with_place, without = with_place + counts[0], without + counts[1]
    assert with_place > 10 * without
    assert {"place an", "lay hand", "spend hand", "end the"} <= seen
    if variant == kernels.VARIANT_ADVANCED:
        assert {"remove the", "move the"} <= seen


def test_boarding_and_the_other_late_actions_have_their_places():
    """Issue 26 item 2: boarding a boat, picking up and dropping artifacts, the earthquake and its
    tile, met in whole random games, have their places too (checked where they are legal)."""
    seen = set()
    for n, variant in GAMES:
        for state in _decisions(n, variant, 40 + n, 300):
            if state[kernels.STATUS] != kernels.STATUS_RUNNING:
                break
            late = {_kind(describe_action(a)) for a in _legal(state)
                    if kernels.PICK_BASE <= a < kernels.END_TURN or a >= kernels.HELICOPTER_BASE}
            if not late <= seen:
                _check_places(state, seen)
    assert {"boards", "picks", "drops", "play earthquake:", "lay the", "play helicopter"} <= seen, seen


def test_action_place_points_where_a_player_points():
    """Issue 26 item 2: a square, the destination of a move, the explorer's own square, the field, the
    hand tile, the boat; none for ending the turn."""
    state = STATES[0]                                   # the first placement of a basic game
    first = _legal(state)[0]
    assert action_place(first, state) == f"place-{SQUARE_NAMES[first].lower()}"
    turn = next(s for s in _decisions(3, kernels.VARIANT_BASIC, 5, 60) if s[kernels.PHASE] == kernels.PHASE_TURN)
    player = int(turn[kernels.TO_ACT])
    for a in _legal(turn):
        words = describe_action(a)
        if words.startswith("move explorer"):
            e, d = divmod(a - kernels.MOVE_BASE, 4)
            to = SQUARE_NEIGHBOURS[turn[kernels.EXPLORER_SQUARE + player * kernels.MAX_EXPLORERS + e], d]
            assert action_place(a, turn) == f"place-{SQUARE_NAMES[to].lower()}"
        elif words.startswith("lay hand tile"):
            assert action_place(a, turn) == f"place-{words.split(' on ')[1].split()[0].lower()}"
        elif words.startswith("spend hand tile"):
            colour = ("red", "yellow", "blue", "purple")[player]
            assert action_place(a, turn) == f"place-{colour}-hand-tile-{a - kernels.SPEND_BASE}"
    explorer = turn[kernels.EXPLORER_SQUARE + player * kernels.MAX_EXPLORERS]
    assert action_place(kernels.PICK_BASE, turn) == f"place-{SQUARE_NAMES[explorer].lower()}"
    assert action_place(kernels.BOARD_BASE + 3, turn) == "place-" + LANDING_NAMES[3].lower().replace(" ", "-")
    assert action_place(kernels.END_TURN, turn) is None
    f = int(np.flatnonzero(IS_TILE_FIELD)[0])
    assert action_place(kernels.LAY_BASE + 4 * (2 * 81 + f) + 3, turn) == f"place-{FIELD_NAMES[f].lower()}"


def _advanced_turn(n, seed):
    for state in _decisions(n, kernels.VARIANT_ADVANCED, seed, 60):
        if state[kernels.PHASE] == kernels.PHASE_TURN and state[kernels.TURN] >= 3:
            return state
    raise AssertionError("no turn reached")


def _held(state, p):
    return [k for k in range(NUM_CARD_KINDS) if state[kernels.CARDS + p * NUM_CARD_KINDS + k]]


def _redeal(state, viewer):
    """The same position as the viewer sees it: another generator (so another bag order), and one card
    of every other player turned into another kind with a copy to spare."""
    other = state.copy()
    other[kernels.RNG] = state[kernels.RNG] ^ 0x5DEECE66D
    other[kernels.SEED] = state[kernels.SEED] + 1
    n = int(state[kernels.NUM_PLAYERS])
    for q in range(n):
        if q == viewer or not _held(other, q):
            continue
        used = [sum(other[kernels.CARDS + p * NUM_CARD_KINDS + k] for p in range(n))
                + (sum(other[kernels.PLAYED + p * kernels.NUM_ACTION_KINDS + k - FIRST_ACTION_KIND] for p in range(n))
                   if k >= FIRST_ACTION_KIND else 0) for k in range(NUM_CARD_KINDS)]
        spare = next(k for k in range(NUM_CARD_KINDS) if used[k] < CARD_KIND_COPIES[k] and k not in _held(other, q))
        other[kernels.CARDS + q * NUM_CARD_KINDS + _held(other, q)[0]] -= 1
        other[kernels.CARDS + q * NUM_CARD_KINDS + spare] += 1
    core.check_state(other)
    return other


@pytest.mark.parametrize("n", [2, 4])
def test_no_hidden_fact_reaches_the_svg(n):
    """Issue 26 item 3: another player's cards (advanced rules), the bag's order and the generator never
    appear in the SVG, for any viewer; the SVG is the same for positions that differ only there."""
    state = _advanced_turn(n, 8_765_432_109 + n)
    for viewer in [None] + list(range(n)):
        svg = render_svg(state, viewer)
        for value in (state[kernels.RNG], state[kernels.SEED]):
            assert str(int(value)) not in svg
        assert not re.search(r"\b[TLS]\d+\b", svg)      # the notation's tile tokens (to_text)
        # a kind another player holds, that the viewer does not hold and nobody has played
        public = {k for p in range(n) for k in range(FIRST_ACTION_KIND, NUM_CARD_KINDS)
                  if state[kernels.PLAYED + p * kernels.NUM_ACTION_KINDS + k - FIRST_ACTION_KIND]}
        mine = set(_held(state, viewer)) if viewer is not None else set()
        secret = {k for q in range(n) if q != viewer for k in _held(state, q)} - mine - public
        assert secret
        for k in secret:
            assert CARD_KIND_NAMES[k] not in svg
        for k in mine:
            assert CARD_KIND_NAMES[k] in svg            # the viewer sees his own cards
        other = _redeal(state, viewer)
        assert to_text(other) != to_text(state)
        assert render_svg(other, viewer) == svg


def test_render_svg_only_reads_and_rejects_bad_input():
    """Issue 26 item 5 ("a bad request ... the game is unchanged"): render_svg and action_place leave
    the row as it was and raise ValueError for a bad row, viewer or action."""
    state = STATES[4]
    before = state.copy()
    render_svg(state, 0)
    for a in range(kernels.NUM_ACTIONS):
        action_place(a, state)
    assert np.array_equal(state, before)
    bad = state.copy()
    bad[kernels.TERRAIN] = 99
    for call in (lambda: render_svg(bad), lambda: action_place(0, bad), lambda: render_svg(state.astype(np.int32)),
                 lambda: render_svg(state, int(state[kernels.NUM_PLAYERS])), lambda: render_svg(state, -1),
                 lambda: render_svg(state, "0"), lambda: action_place(-1, state),
                 lambda: action_place(kernels.NUM_ACTIONS_OF_VARIANT[int(state[kernels.VARIANT])], state),
                 lambda: action_place(1.0, state), lambda: action_place(True, state)):
        with pytest.raises(ValueError):
            call()
    assert maunakea_env.render_svg is render_svg and maunakea_env.action_place is action_place


def test_field_places_leave_the_squares_clickable():
    """Issue 26 item 2: the page clicks a place at its centre, so a tiled field's place sits between its
    squares' centres, and a field with no tile yet covers squares no action is about."""
    state = STATES[-1]
    root = ET.fromstring(render_svg(state))
    boxes = {el.get("id"): el for el in root.iter() if el.get("class") == "place"}
    for f in np.flatnonzero(IS_TILE_FIELD):
        field = boxes[f"place-{FIELD_NAMES[f].lower()}"]
        for s in FIELD_SQUARES[f]:
            x, y = _centre(boxes[f"place-{SQUARE_NAMES[s].lower()}"])
            covered = _inside(field, x, y)
            assert covered == (state[kernels.FIELD_TILE + f] < 0)


def test_a_browser_clicking_a_place_at_its_centre_reaches_it():
    """Issue 26 items 2 and 6: in Chromium, the element under the centre of each place is that place
    (the drawing's shapes let clicks through), except the squares of a field with no tile yet, which
    no action is about: there the click reaches the field."""
    sync_api = pytest.importorskip("playwright.sync_api")
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"no browser at {CHROMIUM}")
    state = STATES[len(STATES) // 2]
    untiled = {f"place-{SQUARE_NAMES[s].lower()}": f"place-{FIELD_NAMES[f].lower()}"
               for f in np.flatnonzero(IS_TILE_FIELD) if state[kernels.FIELD_TILE + f] < 0 for s in FIELD_SQUARES[f]}
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            page = browser.new_page()
            page.set_content(f"<html><body style='margin:0'>{render_svg(state, 0)}</body></html>")
            hits = page.evaluate("""() => Array.from(document.querySelectorAll('.place'), el => {
                const box = el.getBoundingClientRect();
                const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
                return [el.id, hit && hit.closest('.place') ? hit.closest('.place').id : null];
            })""")
        finally:
            browser.close()
    assert len(hits) > NUM_SQUARES
    for place, hit in hits:
        assert hit == untiled.get(place, place), (place, hit)
