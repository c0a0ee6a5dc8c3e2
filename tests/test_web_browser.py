"""The web front end in a real browser (issue 26, What 6): Playwright driving Debian's chromium plays a
whole game of each game by clicking the board, replays a record to its end, checks that clicks off the
legal places do nothing, and photographs each game.  Skipped, saying why, only off CI where chromium or
Playwright is missing; ``.ci/run`` installs chromium."""
import json
import os
import random
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"  # agents.web.screenshots.CHROMIUM, before anything needing the extras is imported
ON_CI = bool(os.environ.get("CI"))
if not ON_CI:
    pytest.importorskip("playwright", reason="the browser tests need Playwright (the test extra)")
    pytest.importorskip("starlette", reason="the web front end needs the web extra (starlette, uvicorn)")
    if not Path(CHROMIUM).is_file():
        pytest.skip(f"the browser tests need Debian's chromium at {CHROMIUM} (apt-get install chromium; "
                    f".ci/run installs it)", allow_module_level=True)

from agents.arena.match import play_game  # noqa: E402
from agents.games import game_info  # noqa: E402
from agents.registry import make_agent  # noqa: E402
from agents.web import create_app  # noqa: E402
from agents.web import screenshots  # noqa: E402
from agents.web.screenshots import (  # noqa: E402
    chromium, click_a_move, serve, start_game, wait_for_turn, write_screenshots,
)

assert screenshots.CHROMIUM == CHROMIUM
from pacific_common.record import record_game, save  # noqa: E402


@pytest.fixture(scope="module")
def server():
    app = create_app(reveal_ms=0)
    with serve(app) as url:
        yield app, url


@pytest.fixture(scope="module")
def browser():
    with chromium() as browser:
        yield browser


@pytest.fixture
def page(browser):
    """A fresh page; a JavaScript error on it fails the test."""
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    errors = []
    page.on("pageerror", lambda error: errors.append(error))
    yield page
    page.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


# Whole games against random, every variant: Make Make ends by its rules within a few dozen moves; Maka
# Bana and Mauna Kea are cut short with max_turns (seasons, player turns), so that each takes seconds.
GAMES = [("makemake", None, None), ("makabana", "haapii", 2), ("makabana", "mao", 1), ("maunakea", "basic", 8),
         ("maunakea", "advanced", 4)]


@pytest.mark.parametrize("game, variant, max_turns", GAMES)
def test_play_a_whole_game_by_clicking_and_take_its_picture(server, page, game, variant, max_turns, tmp_path):
    app, url = server
    state = start_game(page, url, game, variant=variant, max_turns=max_turns, against="random")
    rng = random.Random(0)
    moves = 0
    while state == "human":
        click_a_move(page, rng)
        moves += 1
        state = wait_for_turn(page)
    assert moves > 0
    verdict = page.text_content("#verdict")
    assert verdict.startswith(("Winner", "Tied", "No winner"))
    if game == "makemake":
        assert "limit" not in verdict  # ended by the rules
    assert page.is_visible("#save")
    game_id = page.url.rsplit("/", 1)[1]
    held = app.state.games.items[game_id]
    assert held.record is not None and len(held.record.actions) >= moves
    # every move of the log is on the page, in describe_action's words for the human's own moves
    log = page.locator("#log li").all_text_contents()
    assert len(log) == len(held.log) and all(line.startswith("player ") for line in log)
    picture = tmp_path / f"web_{game}_{variant}.png"
    page.screenshot(path=str(picture))
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_clicks_off_the_legal_places_do_nothing(server, page):
    app, url = server
    start_game(page, url, "makemake", against="random")
    game_id = page.url.rsplit("/", 1)[1]
    held = app.state.games.items[game_id]
    before = held.state.copy()
    version = page.get_attribute("body", "data-version")
    posts = []
    page.on("request", lambda request: posts.append(request.url) if request.method == "POST" else None)
    idle = page.locator("#board .place:not(.legal)")  # the ceremonial grounds: no ceremony yet
    assert idle.count() > 0
    for k in range(min(3, idle.count())):
        idle.nth(k).click(force=True)
    page.locator("#board svg").click(position={"x": 5, "y": 5})  # the sea
    page.wait_for_timeout(200)
    assert posts == [] and page.get_attribute("body", "data-version") == version
    assert page.get_attribute("body", "data-state") == "human" and not page.is_visible("#menu")
    assert (held.state == before).all() and held.actions == []

    # a request crafted by hand, past the page: refused with a 4xx, and the game unchanged
    legal = {int(b) for b in page.evaluate("[...byPlace.values()].flat().map(c => c.action)")}
    illegal = next(a for a in range(held.info.num_actions) if a not in legal)
    answer = page.request.post(f"{url}/api/games/{game_id}/act", data=json.dumps({"action": illegal}),
                               headers={"Content-Type": "application/json"})
    assert answer.status == 400 and "not legal" in answer.json()["error"]
    assert (held.state == before).all() and held.actions == []


def test_replay_a_record_to_its_end_with_the_buttons_and_the_slider(server, page, tmp_path):
    _, url = server
    info = game_info("maunakea", 2, "advanced")
    result = play_game(info, [make_agent("random", info) for _ in range(2)], seed=7)
    record = record_game("maunakea", result.core_seed, result.actions, num_players=2, variant="advanced",
                         max_turns=info.max_turns, players=["random", "random"])
    path = save(record, tmp_path / "game.json")
    last = len(record.actions)

    page.goto(f"{url}/replay")
    page.set_input_files("#file", str(path))
    page.wait_for_selector("body[data-step='0']")
    assert page.text_content("#position") == f"step 0 of {last}"
    page.click("#forward")
    page.wait_for_selector("body[data-step='1']")
    assert "Played: random:" in page.text_content("#played")
    page.click("#back")
    page.wait_for_selector("body[data-step='0']")
    page.focus("#slider")
    page.keyboard.press("End")  # the slider to its end
    page.wait_for_selector("body[data-state=end]")
    assert page.text_content("#position") == f"step {last} of {last}"
    assert "The end of the record." in page.text_content("#played")
    assert page.text_content("#verdict").startswith("Result: ")
    assert "game over" in page.text_content("#text").lower()
    page.click("#first")
    page.wait_for_selector("body[data-step='0']")
    page.click("#last")
    page.wait_for_selector(f"body[data-step='{last}']")

    # a bad record: the validator's message, and the replay shown stays as it was
    page.fill("#paste", json.dumps({**record.to_dict(), "version": 2}))
    page.click("#open")
    page.wait_for_selector("body[data-state=error]")
    assert "version must be 1" in page.text_content("#error")


def test_the_readme_pictures_are_written(server, browser, tmp_path):
    _, url = server
    paths = write_screenshots(tmp_path, url, against="random", browser=browser)
    assert [p.name for p in paths] == ["web_makabana.png", "web_makemake.png", "web_maunakea.png"]
    assert all(p.stat().st_size > 10_000 for p in paths)
