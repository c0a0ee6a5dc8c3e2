"""Pictures of the game page for the README (``python -m agents.web --screenshots DIR``), taken in a
real browser: Playwright driving Debian's chromium.  Also the helpers the browser tests use: a server
on a free port in a thread, the browser, and a move played by clicking."""
import contextlib
import random
import socket
import threading
import time
from pathlib import Path

CHROMIUM = "/usr/bin/chromium"
# Each game after a few moves against the shipped agent, so that the board has pieces on it.
SCENES = {"makabana": dict(players=3, moves=4), "makemake": dict(players=3, moves=4),
          "maunakea": dict(players=2, moves=6)}


@contextlib.contextmanager
def serve(app):
    """Run ``app`` with uvicorn on 127.0.0.1 on a free port in a thread; yields the base URL."""
    import uvicorn

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    # no log_config, as agents.web's own serve: uvicorn's would close the process's logging handlers
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", log_config=None))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError(f"the web server did not start on port {port}")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


@contextlib.contextmanager
def chromium():
    """A headless chromium (Debian's package: browsers cannot be downloaded here), through Playwright."""
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).is_file():
        raise RuntimeError(f"no chromium at {CHROMIUM}: install Debian's package (apt-get install chromium)")
    with sync_playwright() as playwright:
        # --no-sandbox: chromium refuses to run as root with its sandbox, as on CI machines
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        try:
            yield browser
        finally:
            browser.close()


def start_game(page, base_url, game, players=2, against="random", variant=None, max_turns=None, seat=0):
    """Fill the home page's form and start a game; returns when the game page shows its first view."""
    page.goto(f"{base_url}/")
    page.wait_for_selector("body[data-ready=yes]")
    page.select_option("#game", game)
    if variant is not None:
        page.select_option("#variant", variant)
    page.select_option("#players", str(players))
    page.select_option("#seat", str(seat))
    page.fill("#against", against)
    if max_turns is not None:
        page.fill("#max_turns", str(max_turns))
    page.click("#start")
    page.wait_for_url(f"{base_url}/play/*")
    return wait_for_turn(page)


# Generous waits: on a fresh machine the first move of a game may compile the agents' Numba code.
PATIENCE_S = 180


def wait_for_turn(page, timeout_s=PATIENCE_S):
    """Wait until it is the human's turn or the game is over; returns "human" or "over"."""
    page.wait_for_selector("body[data-state=human], body[data-state=over]", timeout=timeout_s * 1000)
    return page.get_attribute("body", "data-state")


def click_a_move(page, rng):
    """Play one legal move as a person would: click a highlighted place of the board (and pick from
    its menu when it holds several actions), or a button when no place is highlighted.  Returns the
    name of the action played."""
    version = page.get_attribute("body", "data-version")
    places = page.locator("#board .place.legal")
    if places.count():
        # force: a piece may lie on the place; the page finds the place under the pointer
        places.nth(rng.randrange(places.count())).click(force=True)
        if page.locator("#menu").is_visible():
            items = page.locator("#menu button[data-action]")
            chosen = items.nth(rng.randrange(items.count()))
        else:
            chosen = None
    else:
        buttons = page.locator("#controls button[data-action]")
        chosen = buttons.nth(rng.randrange(buttons.count()))
    name = None
    if chosen is not None:
        name = chosen.text_content()
        chosen.click()
    page.wait_for_function(f"document.body.dataset.version !== '{version}'", timeout=PATIENCE_S * 1000)
    return name


def write_screenshots(folder, base_url=None, against="shipped", seed=0, browser=None):
    """Write ``web_<game>.png`` of each game into ``folder``; returns the paths.  Without ``base_url``
    a server is started for the pictures, and without ``browser`` a chromium."""
    if base_url is None:
        from .app import create_app
        with serve(create_app(reveal_ms=0)) as url:
            return write_screenshots(folder, url, against, seed, browser)
    if browser is None:
        with chromium() as browser:
            return write_screenshots(folder, base_url, against, seed, browser)
    rng = random.Random(seed)
    paths = []
    page = browser.new_page(viewport={"width": 1280, "height": 760})
    for game, scene in SCENES.items():
        start_game(page, base_url, game, players=scene["players"], against=against)
        for _ in range(scene["moves"]):
            if wait_for_turn(page) == "over":
                break
            click_a_move(page, rng)
        wait_for_turn(page)
        path = Path(folder) / f"web_{game}.png"
        page.screenshot(path=str(path))
        paths.append(path)
    page.close()
    return paths
