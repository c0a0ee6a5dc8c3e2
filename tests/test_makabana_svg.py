"""The Maka Bana board as SVG and the place of each action, for the web front end (issue 26, "What" 2
and 3): ``render_svg`` draws the very picture of ``render_rgb`` with every spot a clickable place,
``action_place`` names the place an action is clicked on, and nothing hidden reaches the page.

The SVG is read back with ``xml.etree.ElementTree`` and painted by ``paint_svg`` below, a small
painter of the SVG elements ``render_svg`` writes (rectangles, rectangle-run paths, ``<use>`` and
translated groups), so that a drift between the two pictures fails here; where Playwright and
Debian's ``chromium`` are installed, a real browser paints it too.
"""
import functools
import io
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

import makabana_env
from makabana_env import core, kernels
from makabana_env.board import NUM_SPOTS, SPOT_NAMES, SPOT_XY
from makabana_env.notation import describe_action
from makabana_env.render import CELL, MARGIN, action_place, render_rgb, render_svg

SVG = "{http://www.w3.org/2000/svg}"
PLAYER_COUNTS = [2, 3, 4, 5]
VARIANTS = [kernels.VARIANT_HAAPII, kernels.VARIANT_MAO]
# The actions documented in ``action_place`` as having no place: Mao's card, denunciation and stop
# decisions.
NO_PLACE = set(range(kernels.MAO_TOP_BASE, kernels.MAO_SPOT_BASE)) | {kernels.MAO_STOP}


def kind_of(action):
    if action < kernels.TAKE_BACK_BASE:
        return "construct"
    if action < kernels.TIKI_BASE:
        return "take back"
    return "tiki" if action < kernels.NUM_ACTIONS else "spot choice"


def new_game(num_players, variant, seed):
    state = np.zeros(kernels.STATE_SIZE, np.int64)
    core.init(state, num_players, variant, 100, seed)
    return state


def decisions(num_players, variant, seed):
    """Copies of the state at every decision of a random game, and its end."""
    state = new_game(num_players, variant, seed)
    while state[kernels.STATUS] == kernels.STATUS_RUNNING:
        yield state.copy()
        core.step(state, core.random_action(state))
    yield state


@functools.cache
def sample_states():
    """A few positions of every variant and player count: the start, mid-game (huts and, in the tiki
    phase, tikis) and the end."""
    states = []
    for num_players in PLAYER_COUNTS:
        for variant in VARIANTS:
            seen = list(decisions(num_players, variant, seed=100 + 10 * num_players + variant))
            middle = [s for s in seen
                      if s[kernels.PHASE] == kernels.PHASE_TIKI and (s[kernels.TIKI:kernels.TIKI + NUM_SPOTS] >= 0).any()]
            states += [seen[0], middle[len(middle) // 2], seen[-1]]
    return states


NUM_SAMPLES = len(PLAYER_COUNTS) * len(VARIANTS) * 3


# ---------------------------------------------------------------------------------------------------
# Reading the SVG back
def places(root):
    return [g for g in root.iter(SVG + "g") if "place" in g.get("class", "").split()]


def _colour(text):
    assert re.fullmatch(r"#[0-9a-f]{6}", text), f"unexpected colour {text!r}"
    return tuple(int(text[i:i + 2], 16) for i in (1, 3, 5))


def _runs(d):
    """The rectangles ``(x, y, width, height)`` of a path made of ``M x y h w v h h -w z`` runs."""
    runs = re.findall(r"M(\d+) (\d+)h(\d+)v(\d+)h-(\d+)z", d)
    assert "".join(f"M{x} {y}h{w}v{h}h-{w2}z" for x, y, w, h, w2 in runs) == d, "path is not runs of pixels"
    assert all(w == w2 for _, _, w, _, w2 in runs)
    return [tuple(int(v) for v in run[:4]) for run in runs]


def _translate(g):
    x, y = re.fullmatch(r"translate\((-?\d+) (-?\d+)\)", g.get("transform", "translate(0 0)")).groups()
    return int(x), int(y)


def paint_svg(text):
    """The SVG ``render_svg`` writes, painted into an (H, W, 3) uint8 array: top-level rectangles, then
    groups translated by whole pixels holding ``<use>`` of the ``<defs>`` paths and rectangles."""
    root = ET.fromstring(text)
    image = np.zeros((int(root.get("height")), int(root.get("width")), 3), np.uint8)
    pieces = {path.get("id"): _runs(path.get("d")) for path in root.find(SVG + "defs")}

    def paint(element, dx, dy):
        if element.get("fill") in (None, "none"):
            return
        colour = _colour(element.get("fill"))
        if element.tag == SVG + "use":
            rects = pieces[element.get("href").lstrip("#")]
        else:
            rects = [tuple(int(element.get(k, 0)) for k in ("x", "y", "width", "height"))]
        for x, y, w, h in rects:
            image[dy + y: dy + y + h, dx + x: dx + x + w] = colour

    for element in root:
        if element.tag == SVG + "g":
            dx, dy = _translate(element)
            for child in element:
                paint(child, dx, dy)
        elif element.tag == SVG + "rect":
            paint(element, 0, 0)
    return image


# ---------------------------------------------------------------------------------------------------
# Issue 26, What 2: a standalone SVG of the rgb_array picture's size, every spot a place
@pytest.mark.parametrize("index", range(0, NUM_SAMPLES, 2))
def test_svg_is_a_document_of_the_picture_size_with_a_place_per_spot(index):
    state = sample_states()[index]
    height, width = render_rgb(state).shape[:2]
    root = ET.fromstring(render_svg(state))
    assert root.tag == SVG + "svg"
    assert (root.get("width"), root.get("height"), root.get("viewBox")) == (str(width), str(height),
                                                                           f"0 0 {width} {height}")
    ids = [e.get("id") for e in root.iter() if e.get("id") is not None]
    assert len(ids) == len(set(ids)), "ids must be unique"
    spots = places(root)
    assert [g.get("id") for g in spots] == [f"place-{name.lower()}" for name in SPOT_NAMES]
    for g in spots:
        assert re.fullmatch(r"place-[a-z0-9-]+", g.get("id"))
        title = g.find(SVG + "title")
        assert title is not None and title.text.startswith(SPOT_NAMES[spots.index(g)] + ":")


@pytest.mark.parametrize("index", range(NUM_SAMPLES))
def test_svg_paints_the_same_pixels_as_render_rgb(index):
    """Issue 26, What 2: "the same geometry as the rgb_array pictures, not a second drawing"."""
    state = sample_states()[index]
    assert np.array_equal(paint_svg(render_svg(state)), render_rgb(state))


def test_each_place_sits_on_its_spot_in_the_colour_render_rgb_gives_it():
    """Issue 26, What 2: at the centre of every place (from its own coordinates) the rgb_array picture
    has the colour of the place's topmost piece there, inside the cell of the spot it is named after."""
    checked = 0
    for state in sample_states():
        rgb, root = render_rgb(state), ET.fromstring(render_svg(state))
        pieces = {path.get("id"): _runs(path.get("d")) for path in root.find(SVG + "defs")}
        for spot, g in enumerate(places(root)):
            dx, dy = _translate(g)
            edge = g.find(SVG + "rect[@class='place-edge']")
            x, y, w, h = (int(edge.get(k)) for k in ("x", "y", "width", "height"))
            cx, cy = x + w // 2, y + h // 2
            assert ((dx + cx - MARGIN) // CELL, (dy + cy - MARGIN) // CELL) == tuple(SPOT_XY[spot])
            covering = [use for use in g.findall(SVG + "use")
                        if any(rx <= cx < rx + rw and ry <= cy < ry + rh
                               for rx, ry, rw, rh in pieces[use.get("href").lstrip("#")])]
            assert covering, f"nothing drawn at the centre of {g.get('id')}"
            assert tuple(rgb[dy + cy, dx + cx]) == _colour(covering[-1].get("fill")), g.get("id")
            checked += 1
    assert checked == NUM_SAMPLES * NUM_SPOTS


def test_a_browser_paints_the_svg_as_render_rgb():
    """Issue 26, What 6: in Chromium the SVG shows exactly the rgb_array picture (3 players: Bikini
    washed out and hatched; 5 players: tikis)."""
    playwright = pytest.importorskip("playwright.sync_api")
    image_module = pytest.importorskip("PIL.Image")
    if not Path("/usr/bin/chromium").exists():
        pytest.skip("Debian's chromium is not installed")
    states = [s for s in sample_states() if s[kernels.NUM_PLAYERS] in (3, 5) and s[kernels.PHASE] == kernels.PHASE_TIKI][:2]
    assert len(states) == 2
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium")
        try:
            for state in states:
                rgb = render_rgb(state)
                page = browser.new_page(viewport={"width": rgb.shape[1], "height": rgb.shape[0]}, device_scale_factor=1)
                page.set_content('<html><body style="margin:0">' + render_svg(state) + "</body></html>")
                png = page.screenshot(clip={"x": 0, "y": 0, "width": rgb.shape[1], "height": rgb.shape[0]})
                shown = np.asarray(image_module.open(io.BytesIO(png)).convert("RGB"))
                assert np.array_equal(shown, rgb), f"{np.any(shown != rgb, axis=2).sum()} pixels differ"
                page.close()
        finally:
            browser.close()


# ---------------------------------------------------------------------------------------------------
# Issue 26, What 2: the human acts by clicking the board where an action has a place
@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_every_legal_action_has_its_place_in_the_svg_of_the_player_to_act(num_players, variant):
    without_place, placed_kinds = set(), set()
    for state in decisions(num_players, variant, seed=7 + num_players):
        if state[kernels.STATUS] != kernels.STATUS_RUNNING:
            break
        player = core.player_to_act(state)
        root = ET.fromstring(render_svg(state, player))
        titles = {g.get("id"): g.find(SVG + "title").text for g in places(root)}
        mask = np.zeros(kernels.NUM_ACTIONS_OF_VARIANT[variant], np.int8)
        core.legal_action_mask(state, mask)
        for action in np.flatnonzero(mask):
            place = action_place(action, state)
            if place is None:
                without_place.add(int(action))
                continue
            placed_kinds.add(kind_of(action))
            assert place in titles, f"{describe_action(action, state)}: {place} is not in the SVG"
            spot_name = titles[place].split(":")[0]
            assert spot_name in describe_action(action, state), "the place is not the spot the action names"
    # Haapii's projects and tikis, Mao's tikis and spot choices (execution, payback, repaint) all met
    assert placed_kinds == ({"tiki", "spot choice"} if variant else {"construct", "take back", "tiki"})
    assert without_place <= NO_PLACE, [describe_action(a) for a in without_place - NO_PLACE]
    if variant == kernels.VARIANT_MAO:
        assert without_place, "Mao's card decisions were never asked"


def test_action_place_of_every_action_in_each_variant():
    """Every spot action of the space is placed on its spot; only the documented Mao actions have no
    place; an action outside the state's variant is refused."""
    for variant in VARIANTS:
        state = new_game(4, variant, seed=3)
        ids = {g.get("id") for g in places(ET.fromstring(render_svg(state)))}
        size = kernels.NUM_ACTIONS_OF_VARIANT[variant]
        placed = {a: action_place(a, state) for a in range(size)}
        assert {a for a, p in placed.items() if p is None} == (NO_PLACE if variant else set())
        assert {p for p in placed.values() if p is not None} == ids
        spot_of_place = {f"place-{name.lower()}": name for name in SPOT_NAMES}
        for a, p in placed.items():
            if p is not None:
                assert spot_of_place[p] in describe_action(a), (a, p)
        with pytest.raises(ValueError, match="action must be an integer from 0 to"):
            action_place(size, state)


# ---------------------------------------------------------------------------------------------------
# Issue 26, What 3: no hidden fact reaches the page
HIDDEN_WORDS = ("paint", "project", "construct", "take back", "showing", "hand", "card", "seed", "rng",
                "denounc", "cheat")


def hidden_variants(state, viewer):
    """Valid copies of ``state`` that differ from it only in what ``viewer`` (a player, or None for a
    spectator) may not know: one with another generator state and seed, and a list of those with
    another hidden part of one of the other colours' projects.  Haapii:
    the project's spot, and while projects are chosen its kind and shown card too (later the shown
    card and the paint are public, so the spot moves to another with the same hint).  Mao: a card of
    an unrevealed project swapped for one from the hand, the visible card kept."""
    n = int(state[kernels.NUM_COLOURS])
    others = [c for c in range(n) if viewer is None or kernels.owner(state, c) != viewer]
    changes = []
    for c in others:
        if state[kernels.VARIANT] == kernels.VARIANT_HAAPII and state[kernels.PROJECT_KIND + c] != kernels.NO_PROJECT:
            spot, shown = int(state[kernels.PROJECT_SPOT + c]), int(state[kernels.PROJECT_SHOWN + c])
            choosing = state[kernels.PHASE] == kernels.PHASE_PROJECT
            for other in range(NUM_SPOTS):
                if other != spot and (choosing or kernels.shown_card(other, shown) == kernels.shown_card(spot, shown)):
                    changes.append({kernels.PROJECT_SPOT + c: other,
                                    kernels.PROJECT_SHOWN + c: (shown + other) % 3 if choosing else shown})
        if state[kernels.VARIANT] == kernels.VARIANT_MAO and not state[kernels.REVEALED_NOW + c]:
            cards, top = int(state[kernels.PROJECT_CARDS + c]), int(state[kernels.PROJECT_TOP + c])
            for out in range(kernels.PAINT_CARD):
                for into in range(kernels.PAINT_CARD):
                    if (cards >> out) & 1 and not (cards >> into) & 1 and out != top:
                        changes.append({kernels.PROJECT_CARDS + c: cards & ~(1 << out) | (1 << into)})
    generator = state.copy()
    generator[kernels.RNG] ^= 0x5DEECE66D
    generator[kernels.SEED] += 1
    projects = []
    for change in changes:
        copy = state.copy()
        for offset, value in change.items():
            copy[offset] = value
        if kernels.validate(copy)[0] == kernels.VALID:
            projects.append(copy)
    return generator, projects


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_svg_shows_nothing_hidden(num_players, variant):
    """For each viewer and a spectator: no word of the hidden facts, and the same SVG for states that
    differ only in what the viewer may not know (a few such copies of eight positions of a game)."""
    rng = np.random.default_rng(num_players)
    seen = list(decisions(num_players, variant, seed=900 + num_players))
    compared = 0
    for state in seen[:: max(1, len(seen) // 8)]:
        pictures = {}
        for viewer in [None] + list(range(num_players)):
            svg = pictures[viewer] = render_svg(state, viewer)
            lower = svg.lower()
            assert not [w for w in HIDDEN_WORDS if w in lower], f"hidden words in the SVG of viewer {viewer}"
            assert str(int(state[kernels.RNG])) not in svg
            generator, projects = hidden_variants(state, viewer)
            assert render_svg(generator, viewer) == svg, f"viewer {viewer} sees the generator"
            for k in sorted(rng.choice(len(projects), min(len(projects), 3), replace=False)):
                assert render_svg(projects[k], viewer) == svg, f"viewer {viewer} can tell projects apart"
                compared += 1
        # The board of Maka Bana is all public: one picture for every viewer.
        assert len(set(pictures.values())) == 1
    assert compared >= 20, "too few hidden projects were compared: the check is void"


# ---------------------------------------------------------------------------------------------------
# The state is only read; bad input is refused
def test_render_svg_and_action_place_leave_the_state_unchanged():
    for state in sample_states():
        before = state.copy()
        render_svg(state, 0)
        action_place(kernels.TIKI_BASE, state)
        assert np.array_equal(state, before)


def test_bad_input_raises_value_error():
    state = new_game(3, kernels.VARIANT_MAO, seed=1)
    with pytest.raises(ValueError, match="state must be"):
        render_svg(state.astype(np.int32))
    with pytest.raises(ValueError, match="state must be"):
        render_svg(state[:-1])
    with pytest.raises(ValueError, match="state must be"):
        action_place(0, list(state))
    broken = state.copy()
    broken[kernels.HUT] = 7
    with pytest.raises(ValueError, match=r"invalid state: HUT\[0\] = 7"):
        render_svg(broken)
    with pytest.raises(ValueError, match=r"invalid state: HUT\[0\] = 7"):
        action_place(0, broken)
    for viewer in (-1, 3, "0", 1.0, True):
        with pytest.raises(ValueError, match="viewer_player must be an integer from 0 to 2"):
            render_svg(state, viewer)
    for action in (-1, kernels.NUM_ACTIONS_MAO, 2.0, "0", False, None):
        with pytest.raises(ValueError, match=f"action must be an integer from 0 to {kernels.NUM_ACTIONS_MAO - 1}"):
            action_place(action, state)
    haapii = new_game(3, kernels.VARIANT_HAAPII, seed=1)
    with pytest.raises(ValueError, match=f"action must be an integer from 0 to {kernels.NUM_ACTIONS - 1}"):
        action_place(kernels.MAO_SPOT_BASE, haapii)


def test_exported_from_the_package():
    assert makabana_env.render_svg is render_svg and makabana_env.action_place is action_place
    assert {"render_svg", "action_place"} <= set(makabana_env.__all__)
