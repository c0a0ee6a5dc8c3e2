"""The web front end: a Starlette app that holds the games, plays the machine seats and answers the
pages in ``static/``.

Each game lives on the server under its own random id (``secrets.token_urlsafe``); the browser only
ever names it by that id and receives what its seat may see (``seat_view``).  The state changes
only through ``WebGame.play``, which takes an action only when the game's own legal-action mask offers
it to the player to act: a human's action is checked here, before anything is touched, and a bad one
is a 4xx answer with the game as it was.  Machine seats move one action per ``advance`` request, in a
worker thread (a search agent thinks for seconds), so the page can show each move as it happens and
other games are not held up; a lock per game keeps two requests from stepping the same game at once.

Routes (JSON under ``/api``)::

    GET  /                          home page: choose a game and the opponents
    GET  /play/{id}                 the game page
    GET  /replay                    the replay page
    GET  /api/options               games, variants, player counts and opponents on offer
    POST /api/games                 {"game", "variant", "players", "seat", "against", "max_turns"} -> {"id"}
    GET  /api/games/{id}            the human seat's view
    POST /api/games/{id}/act        {"action": n}: the human plays n
    POST /api/games/{id}/advance    the machine to act plays one action
    GET  /api/games/{id}/record     the finished game's record (JSON file)
    POST /api/replays               a game record (JSON text) -> {"id", "steps", "actions", ...}
    GET  /api/replays/{id}/{step}   the public board before action ``step`` (after the last: the end)

A body longer than a request can need (``MAX_REQUEST_BYTES``; a game record ``MAX_RECORD_BYTES``) is
refused with 413 as soon as it has come that far, and so is a record of more than ``MAX_REPLAY_STEPS``
actions.  A replay keeps the state before every ``CHECKPOINT_EVERY``-th action only and steps from
there to the one asked for: a state per action would hold 18 KB an action in Mauna Kea.
"""
import asyncio
import json
import secrets
import time
from collections import OrderedDict
from pathlib import Path

import numpy as np
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from pacific_common.checked import is_decimal
from pacific_common.options import MAX_TURNS_LIMIT, is_integer
from pacific_common.record import from_json, no_duplicate_keys, record_game, replay, to_json

from ..arena.match import check_action, game_seeds
from ..arena.play import public_words, seat_names
from ..games import GAMES, game_info
from ..registry import NO_SHIPPED, is_search, make_agent, split_search
from .views import checked_core, legal_actions, log_entry, public_step, result_view, seat_view
from .views import to_act as whose_turn

STATIC = Path(__file__).resolve().parent / "static"
MAX_GAMES = 64        # games held at once; the least recently used goes first
MAX_REPLAYS = 16      # replays held at once, likewise
MAX_RECORD_BYTES = 4_000_000
MAX_REQUEST_BYTES = 1_000_000   # a new game's options or a move take a few dozen bytes
MAX_REPLAY_STEPS = 50_000       # a record's actions; the longest games of the defaults take a few thousand
CHECKPOINT_EVERY = 64           # a replay's stored states: before every 64th action
SECRET_STEP = "chooses in secret"   # a replay's step of a secret decision that the table does not hear yet
MAX_SIMULATIONS = 20_000  # "mcts:N" from a browser: more would hold a worker thread for minutes a move
# Opponents a browser may ask for by name.  Files of agents (checkpoints, policy networks) are the
# server's to choose (``--against PATH``): a page must not make the server open paths of its choosing.
NAMED_AGENTS = ("shipped", "random", "heuristic", "mcts", "mcts+shipped")


class BadRequest(HTTPException):
    def __init__(self, detail, status_code=400):
        super().__init__(status_code=status_code, detail=detail)


class WebGame:
    """One game between a human seat and machine seats, held by the server."""

    def __init__(self, info, seat, against, seed):
        self.info = info
        self.seat = seat
        core_seed, *seat_seeds = game_seeds(seed, info.num_players)
        self.core_seed = core_seed
        core = checked_core(info.name)
        self.state = np.zeros(core.STATE_SIZE, dtype=np.int64)
        core.init(self.state, info.num_players, info.variant_id, info.max_turns, core_seed)
        self.agents = [None if p == seat else make_agent(against, info) for p in range(info.num_players)]
        for p, agent in enumerate(self.agents):
            if agent is not None:
                agent.reset(info, p, seat_seeds[p])
        self.names = seat_names([None if agent is None else agent.name for agent in self.agents], seat)
        self.actions = []
        self.log = []
        self.record = None   # the game record, made once the game is over
        self.lock = asyncio.Lock()

    def view(self):
        return seat_view(self.info, self.state, self.seat, self.names, self.log, self.record)

    def to_act(self):
        return whose_turn(self.info, self.state)

    def play(self, action):
        """Play ``action`` for the player to act.  An action the mask does not offer is a 4xx answer,
        with the game untouched."""
        player = self.to_act()
        if player is None:
            raise BadRequest("the game is over; start a new one from the home page", 409)
        mask = legal_actions(self.info, self.state, player)
        if not 0 <= action < mask.size or not mask[action]:
            raise BadRequest(f"action {action} is not legal now: choose one of the {int(mask.sum())} legal "
                             f"actions the page lists")
        before = self.state.copy()
        checked_core(self.info.name).step(self.state, action)
        self.actions.append(action)
        entry = log_entry(self.info, self.names, self.seat, player, action, before, self.state)
        if entry is not None:
            self.log.append(entry)
        if self.to_act() is None:
            self.record = record_game(self.info.name, self.core_seed, self.actions,
                                      num_players=self.info.num_players, variant=self.info.variant,
                                      max_turns=self.info.max_turns, players=self.names)

    def machine_move(self):
        """The machine to act chooses and plays one action (run in a worker thread)."""
        player = self.to_act()
        agent = self.agents[player]
        obs = np.empty(self.info.obs_size, dtype=np.int8)
        mask = np.zeros(self.info.num_actions, dtype=np.int8)
        checked_core(self.info.name).observe_player(self.state, player, obs, mask)
        action = agent.act(obs, mask.copy(), self.state.copy() if agent.needs_state else None)
        self.play(check_action(self.info, self.state, agent, player, action, mask))


def replayed(record):
    """What the server keeps of a record's replay (the state before every ``CHECKPOINT_EVERY``-th action,
    and the actions), and each action described for the page.  Raises ``ValueError`` as ``replay``."""
    info = game_info(record.game, record.num_players, record.variant, record.max_turns)
    core = checked_core(record.game)
    names = record.players or [f"player {p}" for p in range(record.num_players)]
    checkpoints, described = [], []
    steps = replay(record)
    before = action = None
    while True:
        try:
            state, next_action = next(steps)
        except StopIteration as stop:
            result = stop.value   # the replay's own: a record may leave its result out
            break
        if action is not None:   # the page is a spectator's: a secret decision is heard as the table hears it
            player = int(core.player_to_act(before))
            words = public_words(info, action, before, state) or SECRET_STEP
            described.append({"player": player, "who": names[player], "words": words})
        if len(checkpoints) * CHECKPOINT_EVERY == len(described):
            checkpoints.append(state)
        before, action = state, next_action
    stored = {"game": record.game, "checkpoints": checkpoints, "actions": list(record.actions)}
    end = None if result is None else result_view(record.game, before, result, names, record.max_turns)
    return stored, names, described, end


def replay_state(stored, step):
    """The state before action ``step`` of a stored replay (after the last action: the end)."""
    state = stored["checkpoints"][step // CHECKPOINT_EVERY].copy()
    core = checked_core(stored["game"])
    for action in stored["actions"][step - step % CHECKPOINT_EVERY:step]:
        core.step(state, action)
    return state


class Store:
    """Objects by random id, at most ``size`` of them; the least recently used is dropped first."""

    def __init__(self, size):
        self.size = size
        self.items = OrderedDict()

    def add(self, item):
        key = secrets.token_urlsafe(16)
        self.items[key] = item
        while len(self.items) > self.size:
            self.items.popitem(last=False)
        return key

    def get(self, key, what):
        item = self.items.get(key)
        if item is None:
            raise BadRequest(f"no {what} with id {key!r} on this server (it may have ended long ago, or the "
                             f"server restarted); start again from the home page", 404)
        self.items.move_to_end(key)
        return item


async def bounded_body(request, limit, what):
    """The request's body, read no further than ``limit`` bytes (``what`` it should be, for the 413)."""
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise BadRequest(f"{what} is at most {limit} bytes long", 413)
    return bytes(body)


async def json_body(request, keys):
    """The request's JSON object, with no key outside ``keys``."""
    try:
        body = json.loads(await bounded_body(request, MAX_REQUEST_BYTES, "a request"),
                          object_pairs_hook=no_duplicate_keys)
    except json.JSONDecodeError:
        raise BadRequest("the request body must be a JSON object") from None
    except (ValueError, UnicodeDecodeError) as error:
        # a key given twice, or an integer of more digits than Python converts (4300)
        why = ("it is not UTF-8 text" if isinstance(error, UnicodeDecodeError)
               else str(error) if "twice" in str(error) else "a number in it has thousands of digits")
        raise BadRequest(f"the request body must be a JSON object of the fields {', '.join(keys)}: {why}") from None
    except RecursionError:
        raise BadRequest("the request body must be a JSON object, not nested that deeply") from None
    if not isinstance(body, dict):
        raise BadRequest("the request body must be a JSON object")
    unknown = sorted(set(body) - set(keys))
    if unknown:
        raise BadRequest(f"unknown field {unknown[0]!r}; allowed: {', '.join(keys)}")
    return body


def optional_integer(body, key, low, high):
    value = body.get(key)
    if value is None or value == "":
        return None
    if isinstance(value, str) and is_decimal(value.strip()):
        value = int(value)
    if not is_integer(value) or not low <= value <= high:
        raise BadRequest(f"{key} must be an integer from {low} to {high}, got {value!r}")
    return int(value)


def create_app(default_game="makabana", default_against="shipped", reveal_ms=600):
    """The Starlette app.  ``default_against`` is the opponent the home page proposes (also a file of an
    agent, which a page may then choose too); ``reveal_ms`` the pause between two machine moves on the
    page, so that a person can follow them.  Arguments that no page could play with are a ValueError
    here, not an error in every page."""
    if default_game not in GAMES:
        raise ValueError(f"default_game must be one of {', '.join(GAMES)}, got {default_game!r}")
    make_agent(default_against, game_info(default_game))  # the name's own error
    if not is_integer(reveal_ms) or not 0 <= reveal_ms <= 60_000:
        raise ValueError(f"reveal_ms must be an integer from 0 to 60000 milliseconds, got {reveal_ms!r}")
    games = Store(MAX_GAMES)
    replays = Store(MAX_REPLAYS)
    allowed_against = list(NAMED_AGENTS) + ([default_against] if default_against not in NAMED_AGENTS else [])
    # A search may be guided by the shipped agent, or by the server's own file of a policy (--against).
    server_file = default_against not in NAMED_AGENTS and not is_search(default_against)
    guides = {"shipped", default_against} if server_file else {"shipped"}
    searches = "mcts, mcts:<n>, mcts+shipped or mcts:<n>+shipped, with @<setting>=<value> after any of them"

    def check_against(against):
        """``against`` if a page may ask for it: a named agent, or a search (``mcts:<n>``, at most
        MAX_SIMULATIONS) guided by none, the shipped agent or the server's own file, with its settings
        (which ``make_agent`` checks).  A guide is never a path of the page's choosing."""
        if not isinstance(against, str):
            raise BadRequest(f"against must be an agent's name, one of {', '.join(allowed_against)}, or {searches}")
        against = against.strip()
        if against in allowed_against:
            return against
        search, plus, guide = split_search(against)[0].partition("+")
        name, colon, simulations = search.partition(":")
        if name != "mcts" or (plus and guide not in guides):
            raise BadRequest(f"unknown opponent {against!r}; choose one of {', '.join(allowed_against)}, or "
                             f"{searches} (other agents' files are chosen when the server starts: --against PATH)")
        if colon and not (is_decimal(simulations) and 1 <= int(simulations) <= MAX_SIMULATIONS):
            raise BadRequest(f"mcts:<n> takes a number of simulations from 1 to {MAX_SIMULATIONS}, "
                             f"got {against!r}")
        return against

    async def page(request, name):
        return FileResponse(STATIC / name, media_type="text/html")

    async def home(request):
        return await page(request, "index.html")

    async def play_page(request):
        games.get(request.path_params["id"], "game")
        return await page(request, "play.html")

    async def replay_page(request):
        return await page(request, "replay.html")

    async def options(request):
        offered = {}
        for name, entry in GAMES.items():
            env = entry.raw_env
            low, high = env.players
            offered[name] = {"variants": list(env.variants), "players": list(range(low, high + 1)),
                             "default_players": entry.default_players}
        return JSONResponse({"games": offered, "default_game": default_game, "against": allowed_against,
                             "default_against": default_against, "max_turns_limit": MAX_TURNS_LIMIT,
                             "reveal_ms": reveal_ms})

    async def new_game(request):
        body = await json_body(request, ("game", "variant", "players", "seat", "against", "max_turns"))
        game = body.get("game", default_game)
        if not isinstance(game, str) or game not in GAMES:
            raise BadRequest(f"unknown game {game!r}; choose one of {', '.join(sorted(GAMES))}")
        variant = body.get("variant")
        if variant is not None and not isinstance(variant, str):
            raise BadRequest(f"variant must be the name of one of the game's variants, got {variant!r}")
        variant = variant or None   # "" too: the game's default
        players = optional_integer(body, "players", *GAMES[game].raw_env.players)
        max_turns = optional_integer(body, "max_turns", 1, MAX_TURNS_LIMIT)
        try:
            info = game_info(game, players, variant, max_turns)
        except ValueError as error:
            raise BadRequest(str(error)) from None
        seat = optional_integer(body, "seat", 0, info.num_players - 1) or 0
        against = check_against(body.get("against", default_against))
        seed = secrets.randbits(63)
        try:
            web_game = await run_in_threadpool(WebGame, info, seat, against, seed)
        except (ValueError, ImportError) as error:
            # a page cannot name a file of its own, as the error's own advice would have it
            hint = "; choose heuristic, mcts or random for this game" if str(error).startswith(NO_SHIPPED) else ""
            raise BadRequest(f"{error}{hint}") from None
        return JSONResponse({"id": games.add(web_game)}, status_code=201)

    async def game_view(request):
        web_game = games.get(request.path_params["id"], "game")
        async with web_game.lock:
            return JSONResponse(await run_in_threadpool(web_game.view))

    async def act(request):
        web_game = games.get(request.path_params["id"], "game")
        body = await json_body(request, ("action",))
        action = body.get("action")
        if not is_integer(action):
            raise BadRequest(f"action must be an action number (an integer), got {action!r}")
        async with web_game.lock:
            if web_game.to_act() != web_game.seat:
                raise BadRequest("it is not your turn" if not web_game.record else "the game is over", 409)
            await run_in_threadpool(web_game.play, int(action))
            return JSONResponse(await run_in_threadpool(web_game.view))

    async def advance(request):
        web_game = games.get(request.path_params["id"], "game")
        async with web_game.lock:
            player = web_game.to_act()
            if player is None or player == web_game.seat:
                raise BadRequest("no machine is to act: " + ("the game is over" if player is None else
                                                             "it is your turn"), 409)
            await run_in_threadpool(web_game.machine_move)
            return JSONResponse(await run_in_threadpool(web_game.view))

    async def game_record(request):
        web_game = games.get(request.path_params["id"], "game")
        if web_game.record is None:
            # the record holds the seed, hence every hidden card: only a finished game gives it out
            raise BadRequest("the game record can be saved once the game is over", 409)
        name = f"{web_game.info.name}-{time.strftime('%Y%m%d-%H%M%S')}.json"
        return Response(to_json(web_game.record) + "\n", media_type="application/json",
                        headers={"Content-Disposition": f'attachment; filename="{name}"'})

    async def new_replay(request):
        body = await bounded_body(request, MAX_RECORD_BYTES, "a game record")
        try:
            record = from_json(body.decode("utf-8"))   # from_json reads past a byte-order mark
            if len(record.actions) > MAX_REPLAY_STEPS:
                raise BadRequest(f"a game record replayed here holds at most {MAX_REPLAY_STEPS} actions; this one "
                                 f"holds {len(record.actions)}", 413)
            stored, names, actions, end = await run_in_threadpool(replayed, record)
        except UnicodeDecodeError:
            raise BadRequest("a game record is JSON text (UTF-8)") from None
        except ValueError as error:
            raise BadRequest(str(error), 422) from None
        key = replays.add(stored)
        return JSONResponse({"id": key, "game": record.game, "variant": record.variant,
                             "num_players": record.num_players, "players": names, "steps": len(actions) + 1,
                             "actions": actions,
                             "result": end},
                            status_code=201)

    async def replay_step(request):
        stored = replays.get(request.path_params["id"], "replay")
        text = request.path_params["step"]
        step = int(text) if text.isascii() and text.isdigit() and len(text) <= 18 else -1
        last = len(stored["actions"])
        if not 0 <= step <= last:
            raise BadRequest(f"step must be an integer from 0 to {last}, got {text!r}", 404)
        return JSONResponse(await run_in_threadpool(
            lambda: public_step(stored["game"], replay_state(stored, step))))

    async def http_error(request, error):
        if request.url.path.startswith("/api/"):
            return JSONResponse({"error": error.detail}, status_code=error.status_code)
        return PlainTextResponse(f"{error.detail}\n", status_code=error.status_code)

    routes = [
        Route("/", home),
        Route("/play/{id}", play_page),
        Route("/replay", replay_page),
        Route("/api/options", options),
        Route("/api/games", new_game, methods=["POST"]),
        Route("/api/games/{id}", game_view),
        Route("/api/games/{id}/act", act, methods=["POST"]),
        Route("/api/games/{id}/advance", advance, methods=["POST"]),
        Route("/api/games/{id}/record", game_record),
        Route("/api/replays", new_replay, methods=["POST"]),
        Route("/api/replays/{id}/{step}", replay_step),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, exception_handlers={HTTPException: http_error})
    app.state.games = games      # for the tests, which look behind the page
    app.state.replays = replays
    return app
