"""The Make Make board as SVG, and where each action is clicked (issue 26, "Play the trained opponents
in a web browser").

- item 2: "The page draws the board as SVG from each game's board data, with the same geometry as the
  ``rgb_array`` pictures, not a second drawing.  The human acts by clicking the board where an action
  has a place";
- item 3: "The browser receives only what the human's seat may know ... Test that no hidden fact
  reaches the page".  Make Make has no hidden information (env.py, RULES.md): the one thing in the row
  no player may read is the random generator (``RNG``, ``SEED``).
"""
import hashlib
import io
import re
import shutil
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import makemake_env
from makemake_env import core, describe_action, from_text, kernels, render
from makemake_env.board import GROUND_NAMES, TERRITORY_INDEX, TERRITORY_NAMES
from pacific_common.rng import seed_rng

SVG = "{http://www.w3.org/2000/svg}"

# Positions in the notation (RULES.md, Notation); "then" is a dominance action played from there to
# reach a decision the random games below hardly ever meet.
POSITIONS = {
    "chiefs, Moai, ceremonies, amulet": ("""game: Make Make
players: 4
to_act: Blue
moai: Inner-2, Inner-7
territories: Sacred-1 Red 3 chief, Sacred-2 Red 1, Sacred-3 Red 1, Inner-1 Red 2, Sacred-4 Blue 6, \
Inner-3 Blue 5 chief, Inner-5 Green 4 chief, Inner-6 Yellow 2, Coast-8 Yellow 1 chief, Coast-9 Yellow 3
ceremonies: Ground-1 Red, Ground-2 Red, Ground-33 Yellow
""", None),
    "Green summons Make Make": ("""game: Make Make
players: 3
status: terminated
moai: Inner-9
territories: Sacred-1 Green 2, Sacred-2 Green 1 chief, Sacred-3 Green 2, Inner-1 Green, Inner-2 Green, \
Inner-3 Green, Inner-4 Green, Coast-10 Red 9, Inner-8 Blue 3 chief
ceremonies: Ground-1 Green, Ground-2 Green, Ground-5 Green, Ground-6 Green, Ground-7 Green
""", None),
    "truncated": ("""game: Make Make
players: 2
max_turns: 40
status: truncated
turn: 40
territories: Coast-1 Red 11, Coast-12 Blue 4 chief, Inner-6 Blue 7
""", None),
    # Ceremonial Phase a, several Moai: Red's taking Sacred-2 completes Inner-3 and Inner-4
    "Moai to choose": ("""game: Make Make
players: 4
territories: Inner-3 Red 2 chief, Inner-4 Red, Coast-3 Red, Coast-4 Red, Coast-5 Red, Inner-2 Red, \
Coast-6 Red, Inner-5 Red, Sacred-3 Red
ceremonies: Ground-27 Red, Ground-24 Red, Ground-25 Red, Ground-26 Red, Ground-28 Red
""", "place 1 token on Sacred-2"),
    # Ceremonial Phase b: six free grounds among Red's territories and five Tangata Manu
    "ceremony to choose": ("""game: Make Make
players: 3
territories: Sacred-1 Red, Sacred-2 Red, Inner-1 Red, Inner-2 Red, Inner-3 Red, Coast-2 Red, Coast-3 Red, \
Coast-10 Blue 2
""", "place 1 token on Coast-14"),
}

# sha256 of render_rgb for each position, taken before render_rgb was refactored to share its geometry
# with render_svg: the picture must stay pixel for pixel the same.
RGB_DIGESTS = {
    "chiefs, Moai, ceremonies, amulet": "664fa03846a3783be245403531f4c36f01fa7e783dc9cd1850c44c87a8eb4b72",
    "Green summons Make Make": "c015f9b743d170f1a0c41dc5ef14da20b9c08815d608b79aa7afb0baae28011f",
    "truncated": "3819f062c3643604b4aabc45b15832d72eb7e24f417cc4f824887b2b31517dfc",
    "Moai to choose": "fcabc0e52dc2285b196e1df477b2b795228ec70dade5601bb4809f46cdd255a3",
    "ceremony to choose": "85dc626a7530163279422bc49dcbe35d84795e27fd200262e7bbfdb20d5ea7cb",
}


def _position(name):
    text, then = POSITIONS[name]
    state = from_text(text)
    if then is not None:
        assert core.step(state, makemake_env.parse_action(then)) == kernels.STEP_OK
    return state


def _random_positions(players, seed, decisions):
    """The positions of a random game, before each of its first ``decisions`` decisions."""
    state = np.zeros(kernels.STATE_SIZE, np.int64)
    kernels.init(state, players, kernels.VARIANT_STANDARD, 1000, seed)
    for _ in range(decisions):
        if state[kernels.STATUS] != kernels.STATUS_RUNNING:
            return
        yield state.copy()
        kernels.step(state, kernels.random_action(state))


def _legal(state):
    mask = np.zeros(kernels.NUM_ACTIONS, np.int8)
    core.legal_action_mask(state, mask)
    return np.flatnonzero(mask).tolist()


def _places(svg):
    """{id: title} of the places of an SVG document."""
    places = {}
    for element in ET.fromstring(svg).iter():
        if element.get("class") == "place":
            places[element.get("id")] = element.find(SVG + "title").text
    return places


# -- the document ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", POSITIONS)
def test_issue_26_item_2_svg_parses_and_has_the_size_of_the_picture(name):
    state = _position(name)
    height, width, _ = render.render_rgb(state).shape
    for viewer in (None, *range(int(state[kernels.NUM_PLAYERS]))):
        svg = render.render_svg(state, viewer)
        root = ET.fromstring(svg)
        assert root.tag == SVG + "svg"
        assert (root.get("width"), root.get("height")) == (str(width), str(height))
        assert root.get("viewBox") == f"0 0 {width} {height}"
        ids = [element.get("id") for element in root.iter() if element.get("id") is not None]
        assert len(ids) == len(set(ids))


def test_issue_26_item_2_every_territory_and_ground_is_a_place_named_after_it():
    places = _places(render.render_svg(_position("chiefs, Moai, ceremonies, amulet")))
    names = TERRITORY_NAMES + GROUND_NAMES
    assert len(places) == len(names) == 36 + 48
    for name in names:
        place = "place-" + name.lower()
        assert re.fullmatch(r"place-[a-z0-9-]+", place) and place in places
        assert re.match(re.escape(name) + r"[: ]", places[place]), places[place]
    # the titles say what is there, in the words of render_ansi
    assert places["place-sacred-1"] == "Sacred-1: Red, 3 tokens and the chief, strength 6"
    assert places["place-inner-2"] == "Inner-2: Moai"
    assert places["place-coast-1"] == "Coast-1: neutral"
    assert places["place-ground-33"] == "Ground-33 (Inner-6, Coast-8, Coast-9): Yellow's ceremony"


# -- the same geometry as the picture --------------------------------------------------------------------------
def _inside_polygon(points, x, y):
    inside = False
    for (x0, y0), (x1, y1) in zip(points, points[1:] + points[:1]):
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
            inside = not inside
    return inside


def _numbers(text):
    values = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", text)]
    return list(zip(values[::2], values[1::2]))


def _shapes(svg):
    """The filled shapes of the SVG in painting order: (element, contains(x, y), fill, centre)."""
    shapes = []
    for element in ET.fromstring(svg).iter():
        tag, fill = element.tag[len(SVG):], element.get("fill")
        number = lambda key: float(element.get(key))  # noqa: E731
        if tag == "rect":
            x, y, w, h = number("x"), number("y"), number("width"), number("height")
            shapes.append((element, lambda px, py, x=x, y=y, w=w, h=h: x <= px <= x + w and y <= py <= y + h,
                           fill, (x + w / 2, y + h / 2)))
        elif tag == "circle":
            cx, cy, r = number("cx"), number("cy"), number("r")
            shapes.append((element, lambda px, py, cx=cx, cy=cy, r=r: (px - cx) ** 2 + (py - cy) ** 2 <= r * r,
                           fill, (cx, cy)))
        elif tag == "polygon":
            points = _numbers(element.get("points"))
            shapes.append((element, lambda px, py, p=points: _inside_polygon(p, px, py), fill,
                           tuple(np.mean(points, axis=0))))
        elif tag == "path":
            assert element.get("fill-rule") == "evenodd"
            rings = [_numbers(part) for part in element.get("d").split("M")[1:]]
            shapes.append((element, lambda px, py, rs=rings: sum(_inside_polygon(r, px, py) for r in rs) % 2 == 1,
                           fill, None))
    return shapes


@pytest.mark.parametrize("name", POSITIONS)
def test_issue_26_item_2_svg_and_picture_agree_at_the_middle_of_every_shape(name):
    """Paint the SVG's shapes in order at the middle of each shape, and at six points of every
    territory between its pieces and its edge: the picture has the same colour there."""
    state = _position(name)
    picture = render.render_rgb(state)
    shapes = _shapes(render.render_svg(state))
    points = [centre for _, _, _, centre in shapes if centre is not None]
    for element, _, _, (cx, cy) in [s for s in shapes if s[0].get("class") == "place" and s[0].tag == SVG + "polygon"]:
        points += [(cx + 0.8 * (x - cx), cy + 0.8 * (y - cy)) for x, y in _numbers(element.get("points"))]
    checked = 0
    for x, y in points:
        if not (0 <= x < picture.shape[1] and 0 <= y < picture.shape[0]):
            continue
        top = [fill for _, contains, fill, _ in shapes if contains(x, y)][-1]
        pixel = "#{:02x}{:02x}{:02x}".format(*picture[int(y), int(x)])
        assert top == pixel, f"at ({x:.1f}, {y:.1f}) the SVG paints {top}, the picture {pixel}"
        checked += 1
    assert checked > 200


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium package is not installed (.ci/run installs it)")
def test_issue_26_item_2_in_a_browser_the_svg_is_the_picture_and_every_place_takes_its_clicks():
    """Issue 26 item 6 runs the page in Debian's chromium.  Drawn there, the SVG is the picture but for
    the smoothed edges of shapes, and the middle of every place has the picture's colour; the element
    under the middle of every place is that place (pieces drawn over a territory let clicks through)."""
    sync_api = pytest.importorskip("playwright.sync_api")
    image = pytest.importorskip("PIL.Image")
    state = _position("chiefs, Moai, ceremonies, amulet")
    svg = render.render_svg(state)
    picture = render.render_rgb(state).astype(int)
    places = [(element.get("id"), centre) for element, _, _, centre in _shapes(svg) if element.get("class") == "place"]
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport={"width": picture.shape[1], "height": picture.shape[0]})
            page.set_content(f'<html><body style="margin: 0">{svg}</body></html>')
            drawn = np.asarray(image.open(io.BytesIO(page.screenshot())).convert("RGB")).astype(int)
            under = page.evaluate("places => places.map(([id, [x, y]]) => document.elementFromPoint(x, y).id)", places)
        finally:
            browser.close()
    assert drawn.shape == picture.shape
    off = np.abs(drawn - picture).max(axis=2)
    assert np.mean(off <= 24) > 0.95
    for (place, (x, y)), hit in zip(places, under):
        assert off[int(y), int(x)] <= 8, place
        assert hit == place


@pytest.mark.parametrize("name", POSITIONS)
def test_issue_26_item_2_render_rgb_stays_pixel_identical(name):
    digest = hashlib.sha256(render.render_rgb(_position(name)).tobytes()).hexdigest()
    assert digest == RGB_DIGESTS[name]


# -- where each action is clicked ---------------------------------------------------------------------------------
def _check_places_of_legal_actions(state):
    """Every legal action's place is on the board of the clan to act, and is the territory or ground
    its name ends with ("place 2 tokens on Inner-4", "start a ceremony on Ground-7")."""
    places = _places(render.render_svg(state, int(state[kernels.TO_ACT])))
    legal = _legal(state)
    assert legal
    for action in legal:
        place = render.action_place(action, state)
        assert place in places, (describe_action(action), place)
        assert places[place].split(":")[0].split(" (")[0] == describe_action(action).split()[-1]
    return legal


@pytest.mark.parametrize("players", (2, 3, 4))
def test_issue_26_item_2_every_legal_action_of_random_games_has_a_place_on_the_board(players):
    decisions = 0
    for seed in (1, 2):
        for state in _random_positions(players, seed, 40):
            _check_places_of_legal_actions(state)
            decisions += 1
    assert decisions >= 40


@pytest.mark.parametrize("name, decision", [("Moai to choose", kernels.PHASE_MOAI),
                                            ("ceremony to choose", kernels.PHASE_CEREMONY)])
def test_issue_26_item_2_moai_and_ceremony_choices_are_clicked_on_their_territory_or_ground(name, decision):
    """Ceremonial Phase a and b: the choices asked when several Moai or more grounds than Tangata Manu
    qualify."""
    state = _position(name)
    assert state[kernels.PHASE] == decision
    legal = _check_places_of_legal_actions(state)
    assert len(legal) >= 2
    if decision == kernels.PHASE_MOAI:
        assert {render.action_place(a, state) for a in legal} == {"place-inner-3", "place-inner-4"}


def test_issue_26_item_2_several_actions_share_a_territory_and_none_is_placeless():
    """The 22 placements and the withdrawal of one territory share its place (the page offers them by
    name); Make Make has no action without a place: a clan with nothing to do passes unasked."""
    state = _position("chiefs, Moai, ceremonies, amulet")
    places = [render.action_place(a, state) for a in range(kernels.NUM_ACTIONS)]
    assert None not in places
    t = TERRITORY_INDEX["Coast-4"]
    on_coast_4 = [a for a, place in enumerate(places) if place == "place-coast-4"]
    assert on_coast_4 == [*range(22 * t, 22 * t + 22), kernels.WITHDRAW_BASE + t, kernels.MOAI_BASE + t]
    assert render.action_place(kernels.CEREMONY_BASE + 6, state) == "place-ground-7"
    assert makemake_env.action_place is render.action_place and makemake_env.render_svg is render.render_svg


# -- nothing hidden reaches the page ------------------------------------------------------------------------------
def _with_generator(state, seed):
    """The same position with another generator: seed and generator state, hidden from every player."""
    other = state.copy()
    other[kernels.SEED] = seed
    other[kernels.RNG] = seed_rng(seed)
    return other


@pytest.mark.parametrize("name", POSITIONS)
def test_issue_26_item_3_the_generator_never_reaches_the_svg(name):
    """What no player may know -- the seed and the generator's state -- appears nowhere in the SVG, and
    each viewer's SVG stays the same whichever generator the row holds, as does what each clan observes."""
    state = _with_generator(_position(name), 7_345_678_901_234_567_891)
    other = _with_generator(state, 5_551_234_567_890_123_457)
    assert core.check_state(other) is None
    players = int(state[kernels.NUM_PLAYERS])
    for viewer in (None, *range(players)):
        svg = render.render_svg(state, viewer)
        for hidden in (state[kernels.SEED], state[kernels.RNG], abs(int(state[kernels.RNG]))):
            assert str(hidden) not in svg
        assert render.render_svg(other, viewer) == svg
        if viewer is not None:
            seen = [np.zeros(kernels.OBS_SIZE, np.int8) for _ in range(2)]
            core.observe(state, viewer, seen[0])
            core.observe(other, viewer, seen[1])
            np.testing.assert_array_equal(*seen)


def test_issue_26_item_3_all_is_public_so_viewers_differ_only_in_who_is_you():
    state = _position("chiefs, Moai, ceremonies, amulet")
    spectator = render.render_svg(state)
    assert "you" not in spectator
    for viewer in range(4):
        svg = render.render_svg(state, viewer)
        assert svg.count(", you)") == 1 and svg.replace(", you)", ")") == spectator
    # a public fact does change the board: the SVG is drawn from the state, not fixed
    assert render.render_svg(_position("truncated")) != spectator


# -- reading only, and bad input ----------------------------------------------------------------------------------
def test_render_svg_and_action_place_read_the_state_without_changing_it():
    state = _position("ceremony to choose")
    before = state.copy()
    render.render_svg(state, 1)
    render.render_svg(state)
    render.action_place(kernels.CEREMONY_BASE, state)
    np.testing.assert_array_equal(state, before)


def test_bad_input_is_a_value_error_naming_what_is_allowed():
    state = _position("chiefs, Moai, ceremonies, amulet")
    broken = state.copy()
    broken[kernels.OWNER] = 7
    for bad, message in ((broken, r"OWNER\[0\] = 7"), (state[:-1], "shape"), (state.astype(float), "integer"),
                         ("Sacred-1", "integer array")):
        with pytest.raises(ValueError, match=message):
            render.render_svg(bad)
        with pytest.raises(ValueError, match=message):
            render.action_place(0, bad)
    for viewer in (4, -1, True, "Red", 1.0):
        with pytest.raises(ValueError, match="viewer_player must be an integer from 0 to 3"):
            render.render_svg(state, viewer)
    assert "viewer_player must be an integer from 0 to 1" in _error(render.render_svg, _position("truncated"), 2)
    for action in (-1, kernels.NUM_ACTIONS, 3.0, "place 1 token on Sacred-1", None):
        with pytest.raises(ValueError, match="action must be an integer from 0 to 911"):
            render.action_place(action, state)


def _error(function, *args):
    with pytest.raises(ValueError) as caught:
        function(*args)
    return str(caught.value)
