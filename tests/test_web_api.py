"""The web front end's API (issue 26), through Starlette's TestClient: options checked with a 4xx
answer, unknown ids, only legal actions, several games at once, replays of records, and no hidden fact
of another seat in what a seat's page receives."""
import asyncio
import importlib
import json
import re
import socket
import warnings

import httpx
import numpy as np
import pytest

pytest.importorskip("starlette", reason="the web front end needs the web extra (starlette, uvicorn)")

with warnings.catch_warnings():  # Starlette's TestClient warns that it will move to another HTTP client
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from agents.arena.match import play_game  # noqa: E402
from agents.games import game_info  # noqa: E402
from agents.registry import make_agent  # noqa: E402
from agents.search import makabana as makabana_search  # noqa: E402
from agents.search import makemake as makemake_search  # noqa: E402
from agents.search import maunakea as maunakea_search  # noqa: E402
from agents.web import create_app  # noqa: E402
from agents.web import app as web_app  # noqa: E402
from agents.web.views import public_step  # noqa: E402
from pacific_common.record import record_game, replay, to_json  # noqa: E402

@pytest.fixture(scope="module")
def app():
    return create_app(reveal_ms=0)


@pytest.fixture(scope="module")
def client(app):
    with TestClient(app) as client:
        yield client


def new_game(client, **options):
    body = {"players": 2, "against": "random", **options}
    answer = client.post("/api/games", json={k: v for k, v in body.items() if v is not None})
    assert answer.status_code == 201, answer.text
    return answer.json()["id"]


def held(app, game_id):
    """The server's own game object, behind the page (the tests look at its state row)."""
    return app.state.games.items[game_id]


def play_until(client, game_id, stop):
    """Play the game (the human takes its first legal action, the machine its own) until ``stop(view)``."""
    view = client.get(f"/api/games/{game_id}").json()
    while not stop(view):
        assert not view["over"], "the game ended before the position looked for"
        if view["to_act"] == view["seat"]:
            answer = client.post(f"/api/games/{game_id}/act", json={"action": view["choices"][0]["action"]})
        else:
            answer = client.post(f"/api/games/{game_id}/advance")
        assert answer.status_code == 200, answer.text
        view = answer.json()
    return view


# --- issue 26, What 1 and 5: the home page's options are checked, with a clear 4xx answer ---------------
@pytest.mark.parametrize("options, words", [
    ({"game": "chess"}, "unknown game 'chess'"),
    ({"game": "makemake", "players": 9}, "players must be an integer from 2 to 4, got 9"),
    ({"game": "makemake", "players": 1}, "players must be an integer from 2 to 4, got 1"),
    ({"game": "makemake", "players": 0}, "players must be an integer from 2 to 4, got 0"),
    ({"game": "makemake", "players": "9" * 4301}, "players must be an integer from 2 to 4"),   # was a 500
    ({"game": "makemake", "max_turns": "9" * 5000}, "max_turns must be an integer from 1"),    # was a 500
    ({"game": "makemake", "players": "many"}, "players must be an integer"),
    ({"game": "makabana", "variant": "blitz"}, "variant"),
    ({"game": "maunakea", "seat": 2}, "seat must be an integer from 0 to 1"),
    ({"game": "maunakea", "max_turns": 0}, "max_turns must be an integer from 1"),
    ({"game": "makemake", "against": "grandmaster"}, "unknown opponent 'grandmaster'"),
    ({"game": "makemake", "against": "/etc/passwd"}, "chosen when the server starts"),
    ({"game": "makemake", "against": "mcts:0"}, "mcts:<n> takes a number of simulations"),
    ({"game": "makemake", "against": "mcts:99999+shipped"}, "mcts:<n> takes a number of simulations"),
    ({"game": "makemake", "against": "mcts+/etc/passwd.npz"}, "chosen when the server starts"),
    ({"game": "makemake", "against": "mcts+heuristic"}, "unknown opponent 'mcts+heuristic'"),
    ({"game": "makemake", "against": "heuristic@c=1"}, "unknown opponent 'heuristic@c=1'"),
    ({"game": "makemake", "against": "mcts@bogus=1"}, "unknown setting 'bogus'"),
    ({"game": "makemake", "against": "mcts:50+shipped@c=many"}, "setting 'c' takes a number"),
    ({"game": "makemake", "against": "mcts@scorer_after=4"}, "applies only to a guided search"),
    ({"game": "makemake", "colour": "red"}, "unknown field 'colour'"),
    ({"game": ["makabana"]}, "unknown game ['makabana']"),                          # was a 500
    ({"game": "makabana", "variant": False}, "variant must be the name of one"),     # was the default variant
    ({"game": "makemake", "against": "mcts@max_depth=0"}, "max_depth is the tree's depth cap"),
    # accepted, then every machine move was a 500 (an int64 overflow in the search)
    ({"game": "makemake", "against": "mcts:5@rollout_depth=100000000000000000000000"}, "from 0 to 1000000000"),
    ({"game": "makemake", "against": "mcts:5@horizon=10000000000"}, "from 0 to 1000000000"),
    ({"game": "makemake", "against": "mcts:5@halving=10000000000"}, "from 0 to 1000000000"),
])
def test_bad_options_are_a_4xx_answer_naming_the_option(client, options, words):
    answer = client.post("/api/games", json={"players": 2, **options})
    assert answer.status_code == 400
    assert words in answer.json()["error"]


def test_bad_options_carry_no_command_line_names_nor_wrong_advice(client):
    for options in ({"game": "makabana", "variant": "blitz"}, {"game": "makemake", "players": 9},
                    {"game": "makemake", "against": "mcts:5+shipped@value_mix=5"}):
        error = client.post("/api/games", json={"players": 2, **options}).json()["error"]
        assert "--" not in error and "choose heuristic" not in error, error


def test_a_body_too_large_is_refused_before_it_is_read_to_the_end(client):
    from agents.web.app import MAX_REQUEST_BYTES
    answer = client.post("/api/games", content=b" " * (MAX_REQUEST_BYTES + 1))
    assert answer.status_code == 413 and f"at most {MAX_REQUEST_BYTES} bytes" in answer.json()["error"]


def test_a_body_nested_too_deeply_is_a_4xx_answer(client):
    answer = client.post("/api/games", content="[" * 100_000 + "]" * 100_000)   # was a 500
    assert answer.status_code == 400 and "not nested that deeply" in answer.json()["error"]


@pytest.mark.parametrize("game, variant", [("makabana", "haapii"), ("makabana", "mao"), ("makemake", None),
                                           ("maunakea", "basic"), ("maunakea", "advanced")])
def test_the_shipped_agents_play_by_default(app, client, game, variant):
    """Every game and variant can be played to its end against its shipped agent."""
    game_id = new_game(client, game=game, variant=variant, seat=1, against=None)
    assert client.post(f"/api/games/{game_id}/advance").status_code == 200
    assert held(app, game_id).names[0] == "player 0 (shipped)" and len(held(app, game_id).actions) == 1
    play_until(client, game_id, lambda view: view["over"])


@pytest.mark.parametrize("game, against", [("maunakea", "mcts:30+shipped@scorer_after=2@pw_k=1"),
                                           ("makemake", "mcts:30@c=0.5"), ("makabana", "mcts+shipped")])
def test_a_page_may_ask_for_a_search_with_its_settings_and_the_shipped_guide(app, client, game, against):
    """The names the registry takes for a search (simulations, the shipped guide, @settings) reach the
    machine seat as written."""
    game_id = new_game(client, game=game, seat=1, against=against)
    assert client.post(f"/api/games/{game_id}/advance").status_code == 200
    machine = held(app, game_id).agents[0]
    assert machine.name == against and held(app, game_id).names[0] == f"player 0 ({against})"
    for setting in against.split("@")[1:]:
        key, value = setting.split("=")
        assert float(machine.settings[key] if key in machine.settings else getattr(machine, key)) == float(value)


def test_the_servers_own_agent_file_may_guide_a_search_and_no_other_file_may():
    """``--against PATH`` lets a page choose that file, alone or as a search's guide; any other path
    stays the server's to choose."""
    from agents.registry import shipped_path
    server_file = str(shipped_path(game_info("makemake")))
    app = create_app(default_game="makemake", default_against=server_file, reveal_ms=0)
    with TestClient(app) as client:
        game_id = new_game(client, game="makemake", seat=1, against=f"mcts:20+{server_file}@c=0.5")
        assert client.post(f"/api/games/{game_id}/advance").status_code == 200
        assert app.state.games.items[game_id].agents[0].name == f"mcts:20+{server_file}@c=0.5"
        other = server_file.replace("makemake", "makabana")
        answer = client.post("/api/games", json={"game": "makemake", "players": 2, "against": f"mcts+{other}"})
        assert answer.status_code == 400 and "chosen when the server starts" in answer.json()["error"]


def test_the_servers_own_file_whose_name_holds_an_at_may_guide_a_search(tmp_path):
    """``mcts+net@1.npz`` is read whole, as make_agent reads it: the page's search may name it."""
    import shutil

    from agents.registry import shipped_path
    server_file = str(shutil.copy(shipped_path(game_info("makemake")), tmp_path / "net@1.npz"))
    app = create_app(default_game="makemake", default_against=server_file, reveal_ms=0)
    with TestClient(app) as client:
        game_id = new_game(client, game="makemake", seat=1, against=f"mcts:20+{server_file}")
        assert client.post(f"/api/games/{game_id}/advance").status_code == 200
        assert app.state.games.items[game_id].agents[0].name == f"mcts:20+{server_file}"


@pytest.mark.parametrize("kwargs,message", [
    (dict(default_game="chess"), "default_game must be one of makabana, makemake, maunakea, got 'chess'"),
    (dict(default_against="heuristc"), "unknown agent 'heuristc'"),
    (dict(default_against=None), "an agent is named by a non-empty string"),
    (dict(reveal_ms=-5), "reveal_ms must be an integer from 0 to 60000"),
    (dict(reveal_ms="600"), "reveal_ms must be an integer from 0 to 60000"),
])
def test_create_app_refuses_arguments_no_page_could_play_with(kwargs, message):
    """They made an app whose every page failed, or (reveal_ms) one whose pages waited forever."""
    with pytest.raises(ValueError, match=re.escape(message)):
        create_app(**kwargs)


def test_a_variant_without_a_shipped_agent_says_which_to_choose(client, tmp_path, monkeypatch):
    from agents import registry
    monkeypatch.setattr(registry, "SHIPPED_DIR", tmp_path)  # as if none were shipped
    answer = client.post("/api/games", json={"game": "maunakea", "variant": "advanced", "players": 2})
    assert answer.status_code == 400
    assert "no shipped policy exists yet for maunakea (advanced)" in answer.json()["error"]
    assert "choose heuristic" in answer.json()["error"]


def test_a_body_that_is_not_a_json_object_is_a_4xx_answer(client):
    for body in ("{not json", "[1, 2]", "3"):
        answer = client.post("/api/games", content=body)
        assert answer.status_code == 400
        assert "JSON object" in answer.json()["error"]


def test_options_offer_every_game_its_variants_and_the_named_agents(client):
    offered = client.get("/api/options").json()
    assert offered["games"]["makabana"]["variants"] == ["haapii", "mao"]
    assert offered["games"]["maunakea"]["players"] == [2, 3, 4]
    assert offered["default_against"] == "shipped"
    assert {"shipped", "random", "heuristic", "mcts", "mcts+shipped"} <= set(offered["against"])


# --- What 5: unknown ids -----------------------------------------------------------------------------------
@pytest.mark.parametrize("method, path", [
    ("GET", "/api/games/nope"), ("POST", "/api/games/nope/act"), ("POST", "/api/games/nope/advance"),
    ("GET", "/api/games/nope/record"), ("GET", "/play/nope"), ("GET", "/api/replays/nope/0"),
])
def test_an_unknown_id_is_404(client, method, path):
    answer = client.request(method, path, json={"action": 0} if path.endswith("act") else None)
    assert answer.status_code == 404
    assert "nope" in answer.text


# --- What 2 and 5: only legal actions, only in turn; a refused request leaves the game as it was --------------
def test_illegal_malformed_and_out_of_turn_actions_are_refused_and_change_nothing(app, client):
    game_id = new_game(client, game="makemake")
    game = held(app, game_id)
    before_view = client.get(f"/api/games/{game_id}").json()
    before_state = game.state.copy()
    legal = {c["action"] for c in before_view["choices"]}
    illegal = next(a for a in range(game.info.num_actions) if a not in legal)
    for body, status, words in [({"action": illegal}, 400, "not legal"), ({"action": -1}, 400, "not legal"),
                                ({"action": 10**9}, 400, "not legal"), ({"action": "3"}, 400, "integer"),
                                ({"action": 1.0}, 400, "integer"), ({"action": True}, 400, "integer"),
                                ({}, 400, "integer"), ({"action": 0, "also": 1}, 400, "unknown field")]:
        answer = client.post(f"/api/games/{game_id}/act", json=body)
        assert answer.status_code == status, body
        assert words in answer.json()["error"]
    # the human is to act, so no machine may move; and the record exists only once the game is over
    assert client.post(f"/api/games/{game_id}/advance").status_code == 409
    assert client.get(f"/api/games/{game_id}/record").status_code == 409
    np.testing.assert_array_equal(game.state, before_state)
    assert game.actions == []
    assert client.get(f"/api/games/{game_id}").json() == before_view

    # in seat 1 the machine moves first: the human's legal-looking action is out of turn
    game_id = new_game(client, game="makemake", seat=1)
    view = client.get(f"/api/games/{game_id}").json()
    assert view["to_act"] == 0 and view["choices"] == []
    answer = client.post(f"/api/games/{game_id}/act", json={"action": 0})
    assert answer.status_code == 409 and "not your turn" in answer.json()["error"]
    assert held(app, game_id).actions == []


def test_a_finished_game_gives_its_record_and_takes_no_more_actions(app, client):
    game_id = new_game(client, game="makemake")
    view = play_until(client, game_id, lambda v: v["over"])
    assert view["result"]["verdict"] and len(view["result"]["scores"]) == 2
    assert client.post(f"/api/games/{game_id}/act", json={"action": 0}).status_code == 409
    assert client.post(f"/api/games/{game_id}/advance").status_code == 409
    answer = client.get(f"/api/games/{game_id}/record")
    assert answer.status_code == 200 and "attachment" in answer.headers["content-disposition"]
    record = json.loads(answer.text)
    assert record["actions"] == held(app, game_id).actions
    assert record["result"]["scores"] == view["result"]["scores"]


# --- What 5: several games at once, each with its own id ---------------------------------------------------
def test_several_games_at_once_each_its_own(app):
    async def run():
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://web") as http:
            async def start(game, seat):
                answer = await http.post("/api/games", json={"game": game, "players": 2, "seat": seat,
                                                             "against": "random"})
                return answer.json()["id"]
            ids = await asyncio.gather(*(start(g, 1) for g in ("makabana", "makemake", "maunakea", "makemake")))
            assert len(set(ids)) == 4
            # eight requests at once to move the same machine: the game's lock lets them step one at a
            # time, each either playing one machine action or finding it is no machine's turn
            answers = await asyncio.gather(*(http.post(f"/api/games/{ids[1]}/advance") for _ in range(8)))
            return ids, [a.status_code for a in answers]

    ids, statuses = asyncio.run(run())
    assert set(statuses) <= {200, 409} and statuses.count(200) >= 1
    assert len(held(app, ids[1]).actions) == statuses.count(200)
    assert held(app, ids[3]).actions == []  # the other Make Make game did not move
    assert held(app, ids[1]).info.name == "makemake" and held(app, ids[0]).info.name == "makabana"


# --- What 4: replay of a record, checked as data --------------------------------------------------------
def a_record(game="makemake", seed=3):
    info = game_info(game, 2)
    result = play_game(info, [make_agent("random", info) for _ in range(2)], seed=seed)
    return record_game(game, result.core_seed, result.actions, num_players=2, variant=info.variant,
                       max_turns=info.max_turns, players=["random", "random"])


def test_a_record_replays_step_by_step_with_the_action_names(client):
    record = a_record()
    answer = client.post("/api/replays", content=to_json(record))
    assert answer.status_code == 201, answer.text
    replay = answer.json()
    assert replay["steps"] == len(record.actions) + 1
    assert [a["words"] for a in replay["actions"]][:1] == [__import__("makemake_env").describe_action(record.actions[0])]
    assert replay["result"]["scores"] == record.result["scores"]
    first = client.get(f"/api/replays/{replay['id']}/0").json()
    last = client.get(f"/api/replays/{replay['id']}/{replay['steps'] - 1}").json()
    assert "Viewer: spectator" in first["text"] and "game over" in last["text"]
    assert first["board"].startswith("<svg") and first["board"] != last["board"]
    for step in (-1, replay["steps"], "x"):
        assert client.get(f"/api/replays/{replay['id']}/{step}").status_code == 404


@pytest.mark.parametrize("change, words", [
    (lambda r: r.update(format="other"), "format must be 'pacific-game-record'"),
    (lambda r: r["actions"].append(10**6), "actions["),
    (lambda r: r.update(actions=r["actions"][:3] + [r["actions"][3] + 1] + r["actions"][4:]), "cannot be played"),
    (lambda r: r.update(code="__import__('os')"), "unknown key 'code'"),
])
def test_a_bad_record_is_a_4xx_answer_with_the_validators_message(client, change, words):
    data = json.loads(to_json(a_record()))
    change(data)
    answer = client.post("/api/replays", content=json.dumps(data))
    assert answer.status_code == 422
    assert words in answer.json()["error"]
    assert client.post("/api/replays", content=b"\xff\xfe").status_code == 400
    assert client.post("/api/replays", content=b" " * 4_000_001).status_code == 413



def test_a_replay_names_secret_decisions_as_the_table_hears_them(client):
    """The replay page is a spectator's: its board hides the projects and the cards kept, and so do the
    words of each step (Haapii's 'construct ... showing the theme', the advanced game's removed card)."""
    for game, variant, secret in (("makabana", "haapii", "showing"), ("makabana", "mao", "project:"),
                                  ("maunakea", "advanced", "remove the dealt card")):
        info = game_info(game, 2, variant)
        result = play_game(info, [make_agent("random", info) for _ in range(2)], seed=4)
        record = record_game(game, result.core_seed, result.actions, num_players=2, variant=info.variant,
                             max_turns=info.max_turns)
        words = [a["words"] for a in client.post("/api/replays", content=to_json(record)).json()["actions"]]
        assert len(words) == len(record.actions)
        assert not [w for w in words if secret in w], (game, variant)
        heard = "chooses the cards to keep" if game == "maunakea" else "prepares a project"
        assert heard in words, (game, variant)
        # a decision of several actions (Mao's stack, the two cards removed) is heard once it is made
        assert (web_app.SECRET_STEP in words) == (variant != "haapii"), (game, variant)


def test_a_replay_ends_with_the_games_own_result_and_verdict(client):
    """A record may leave its result out: the replay's own is shown.  The places come from the game's
    verdict whatever reward the record was played for (Mauna Kea breaks ties on points by explorers and
    artifacts, which its score and margin rewards do not hold)."""
    data = json.loads(to_json(a_record()))
    expected = data["result"]
    data["result"] = None
    shown = client.post("/api/replays", content=json.dumps(data)).json()["result"]
    assert shown is not None and shown["scores"] == expected["scores"] and shown["end"] == expected["end"]
    info = game_info("maunakea", 2)
    for seed in range(4):
        result = play_game(info, [make_agent("random", info) for _ in range(2)], seed=seed)
        views = [client.post("/api/replays", content=to_json(record_game(
            "maunakea", result.core_seed, result.actions, num_players=2, variant=info.variant,
            max_turns=info.max_turns, reward=reward))).json()["result"] for reward in ("win_loss", "score", "margin")]
        assert [v["ranks"] for v in views] == [result.ranks] * 3, seed
        assert len({v["verdict"] for v in views}) == 1, seed


def test_a_replay_shows_every_step_from_its_stored_checkpoints(app, client):
    """The server keeps the state before every CHECKPOINT_EVERY-th action only; every step it shows is
    the state the record's replay passes through (Maka Bana's rows hold hidden cards, Mauna Kea's the bag)."""
    for game in ("makabana", "maunakea"):
        record = a_record(game, seed=5)
        assert len(record.actions) > 2 * web_app.CHECKPOINT_EVERY
        answer = client.post("/api/replays", content=to_json(record))
        assert answer.status_code == 201, answer.text
        stored = app.state.replays.items[answer.json()["id"]]
        assert len(stored["checkpoints"]) == len(record.actions) // web_app.CHECKPOINT_EVERY + 1
        for step, (state, _) in enumerate(replay(record)):
            assert np.array_equal(web_app.replay_state(stored, step), state), (game, step)
        for step in (0, web_app.CHECKPOINT_EVERY - 1, web_app.CHECKPOINT_EVERY + 1, len(record.actions)):
            shown = client.get(f"/api/replays/{answer.json()['id']}/{step}").json()
            assert shown == json.loads(json.dumps(public_step(game, web_app.replay_state(stored, step))))


def test_a_record_longer_than_a_replay_takes_is_refused_before_it_is_played(app, client, monkeypatch):
    record = a_record()
    monkeypatch.setattr(web_app, "MAX_REPLAY_STEPS", len(record.actions) - 1)
    held_before = len(app.state.replays.items)
    answer = client.post("/api/replays", content=to_json(record))
    assert answer.status_code == 413
    assert answer.json()["error"] == (f"a game record replayed here holds at most {len(record.actions) - 1} "
                                      f"actions; this one holds {len(record.actions)}")
    assert len(app.state.replays.items) == held_before


def test_a_player_name_that_is_no_unicode_text_is_a_422_and_nothing_is_kept(app, client):
    data = json.loads(to_json(a_record()))
    data["players"] = ["\ud800", "b"]       # JSON's escape of a lone surrogate, which UTF-8 cannot encode
    held_before = len(app.state.replays.items)
    answer = client.post("/api/replays", content=json.dumps(data))
    assert answer.status_code == 422
    assert "players[0] must be Unicode text" in answer.json()["error"]
    assert len(app.state.replays.items) == held_before


def test_a_record_with_a_byte_order_mark_replays(client):
    answer = client.post("/api/replays", content=b"\xef\xbb\xbf" + to_json(a_record()).encode())
    assert answer.status_code == 201, answer.text


@pytest.mark.parametrize("step", ["+1", "-0", " 1", "\u0661", "1_0", "9" * 19])
def test_a_replay_step_is_written_in_ascii_digits(client, step):
    replay_id = client.post("/api/replays", content=to_json(a_record())).json()["id"]
    answer = client.get(f"/api/replays/{replay_id}/{step}")
    assert answer.status_code == 404
    assert answer.json()["error"].startswith("step must be an integer from 0 to ")


@pytest.mark.parametrize("path, body, words", [
    ("/api/games", '{"game": "makemake", "game": "makabana"}', "the key 'game' appears twice"),
    ("/api/games", '{"players": 1' + "0" * 5000 + '}', "a number in it has thousands of digits"),
    ("act", '{"action": 0, "action": 1}', "the key 'action' appears twice"),
    ("act", '{"action": 9' + "9" * 4300 + '}', "a number in it has thousands of digits"),
    ("/api/games", b'{"game": "mak\xc3"}', "it is not UTF-8 text"),
])
def test_a_body_with_a_key_twice_a_number_python_will_not_read_or_no_utf8_is_a_400_that_says_so(client, path, body, words):
    game_id = new_game(client, game="makemake")
    before = client.get(f"/api/games/{game_id}").json()
    url = f"/api/games/{game_id}/act" if path == "act" else path
    answer = client.post(url, content=body, headers={"content-type": "application/json"})
    assert answer.status_code == 400
    assert answer.json()["error"].startswith("the request body must be a JSON object of the fields ")
    assert words in answer.json()["error"]
    assert client.get(f"/api/games/{game_id}").json() == before

# --- What 3: no hidden fact of another seat reaches a seat's page ---------------------------------------
# A seat's page must be the same whatever the facts it may not know: the search agents' determinize
# redraws exactly those (Maka Bana: the other colours' projects, and in Mao their hands; Mauna Kea: the
# bag's order through the generator, and in the advanced game the other players' cards; every game: the
# generator's seed), so the view of the redrawn game must equal the view of the true one.
SEARCH = {"makabana": makabana_search, "makemake": makemake_search, "maunakea": maunakea_search}


def secret_redrawn(game, seat, seed):
    state = game.state.copy()
    SEARCH[game.info.name].determinize(state, seat, seed, 0)
    return state


def beyond_the_generator(text):
    """A position's notation less its generator's lines: the facts drawn so far."""
    return [line for line in text.splitlines() if not line.startswith(("seed:", "rng:"))]


@pytest.mark.parametrize("game, variant", [("makabana", "haapii"), ("makabana", "mao"), ("makemake", None),
                                           ("maunakea", "basic"), ("maunakea", "advanced")])
def test_a_seat_receives_nothing_it_may_not_know(app, client, game, variant):
    # seat 1: the machine in seat 0 has made its secret choices (a project, the cards to keep) by then
    game_id = new_game(client, game=game, variant=variant, seat=1)
    view = play_until(client, game_id, lambda v: v["to_act"] == 1)
    held_game = held(app, game_id)
    true_state = held_game.state.copy()
    text = json.dumps(view)
    assert set(view) == {"game", "variant", "num_players", "seat", "players", "board", "text", "to_act", "over",
                         "choices", "log", "result"}
    assert str(held_game.core_seed) not in text
    to_text = importlib.import_module(f"{game}_env").to_text
    redrawn_secrets = 0
    for seed in range(1, 6):
        redrawn = secret_redrawn(held_game, 1, seed)
        assert not np.array_equal(redrawn, true_state)  # the generator at least
        redrawn_secrets += int(beyond_the_generator(to_text(redrawn)) != beyond_the_generator(to_text(true_state)))
        held_game.state = redrawn
        try:
            assert client.get(f"/api/games/{game_id}").json() == view
        finally:
            held_game.state = true_state.copy()
    if (game, variant) != ("makemake", None) and (game, variant) != ("maunakea", "basic"):
        assert redrawn_secrets > 0  # the test changed the projects, hands or cards seat 1 may not know
    if game == "makabana":
        # seat 0's project is heard of, not named
        machine_moves = [e["words"] for e in view["log"] if e["player"] == 0]
        assert machine_moves and all(words == "prepares a project" for words in machine_moves)


# --- What 1: the command line ------------------------------------------------------------------------------
def _free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_the_command_serves_on_this_machine_only_unless_told(monkeypatch, capsys):
    import uvicorn

    from agents.web.__main__ import main, page_url
    served = []

    def run(server, sockets):
        served.append(sockets[0].getsockname()[:2])
        sockets[0].close()

    monkeypatch.setattr(uvicorn.Server, "run", run)
    port = _free_port()
    main(["--game", "makemake", "--against", "random", "--port", str(port)])
    main(["--port", str(port), "--host", "0.0.0.0"])
    assert served == [("127.0.0.1", port), ("0.0.0.0", port)]
    said = capsys.readouterr().out
    assert f"Open http://127.0.0.1:{port}/ in a web browser" in said and f"Open http://0.0.0.0:{port}/" in said
    assert page_url("::1", 8000) == "http://[::1]:8000/"   # an IPv6 address is written in brackets in a URL


def test_serving_leaves_the_processs_logging_alone(monkeypatch):
    """uvicorn's logging configuration closed every handler of the process first; absl's (which Ray and
    TensorBoard import) closes its stream then, and closed the test run's own capture of stderr."""
    import logging

    import uvicorn

    from agents.web.__main__ import main

    class Handler(logging.Handler):
        closed = False

        def close(self):
            Handler.closed = True
            super().close()

    handler = Handler()
    logging.getLogger("agents-web-test").addHandler(handler)
    monkeypatch.setattr(uvicorn.Server, "run", lambda server, sockets: sockets[0].close())
    try:
        main(["--game", "makemake", "--against", "random", "--port", str(_free_port())])
    finally:
        logging.getLogger("agents-web-test").removeHandler(handler)
    assert not Handler.closed


def test_a_port_in_use_is_said_before_the_banner(capsys):
    """uvicorn printed "Open http://…" first, then failed to bind with its own error and exit 3."""
    from agents.web.__main__ import main
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(SystemExit) as stop:
            main(["--port", str(port)])
    said = capsys.readouterr()
    assert stop.value.code == 2 and "Open" not in said.out
    assert f"cannot listen on 127.0.0.1 port {port}" in said.err


@pytest.mark.parametrize("argv, words", [
    (["--against", "grandmaster"], "unknown agent 'grandmaster'"),
    (["--port", "0"], "--port: must be an integer from 1 to 65535"),
    (["--game", "chess"], "invalid choice: 'chess'"),
    (["--host", "999.1.1.1"], "--host '999.1.1.1' cannot be resolved to an address"),
])
def test_the_command_refuses_bad_options_before_serving(capsys, argv, words):
    from agents.web.__main__ import main
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2 and words in capsys.readouterr().err


def test_a_seats_choices_and_moves_are_named_in_the_positions_words():
    """Maka Bana Mao's denunciations, keep and stop actions and spot actions are named by what they do
    in the position ("denounce Green", "keep the paint card", "build on …"), not by the position-free
    names ("denounce the colour 2 seats clockwise", "stop / decline")."""
    import makabana_env
    from agents.web.views import choices, log_entry

    info = game_info("makabana", 4, "mao")
    names = [f"player {p}" for p in range(4)]
    env = makabana_env.raw_env(num_players=4, variant="mao")
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    differing = 0
    while env.agents and differing < 20:
        state = env.state()
        seat = int(env.agent_selection.split("_")[1])
        offered = choices(info, state, seat)
        for choice in offered:
            assert choice["name"] == makabana_env.describe_action(choice["action"], state)
            differing += choice["name"] != makabana_env.describe_action(choice["action"])
        action = int(rng.choice([c["action"] for c in offered]))
        env.step(action)
        entry = log_entry(info, names, seat, seat, action, state, env.state())
        assert entry["words"] == makabana_env.describe_action(action, state)
    assert differing >= 20
