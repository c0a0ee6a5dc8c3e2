"""Issue 25 item 3: game records (``pacific_common.record``).

- Records of random and heuristic games of every game and variant play back identically through the
  AEC environment, a one-game ``BatchEnv`` and the plain-Python reference rules: the same state rows
  step by step (environment and batch), the same legal actions at every step (reference), the same
  result at the end.
- Reading a record is strict: unknown or missing keys, wrong types, an unknown game, options out of
  range and malformed JSON are ``ValueError``s naming the key.
- A replay that cannot play an action, or does not reach the stored result or final state, is a
  ``ValueError``.
"""
import copy
import json

import numpy as np
import pytest

import makabana_env
import makemake_env
import maunakea_env
from pacific_common import record as records
from pacific_common.record import GameRecord, from_json, load, play_back, record_game, replay, save

PACKAGES = {"makabana": makabana_env, "makemake": makemake_env, "maunakea": maunakea_env}
VARIANTS = [(name, variant) for name, package in PACKAGES.items() for variant in package.raw_env.variants]


def random_game(name, variant, num_players, seed, max_turns=None):
    """A record of a game of uniformly random legal moves, played on the AEC environment."""
    options = {"num_players": num_players, "variant": variant}
    if max_turns is not None:
        options["max_turns"] = max_turns
    env = PACKAGES[name].raw_env(**options)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    actions = []
    while not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
        action = int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])))
        actions.append(action)
        env.step(action)
    return record_game(name, seed, actions, num_players=num_players, variant=variant, max_turns=env.max_turns)


def heuristic_game(name, variant, num_players, seed, max_turns):
    """A record of a game between the heuristic agents, played on the kernels as the tournament plays."""
    from agents.arena.match import play_game
    from agents.games import game_info
    from agents.registry import make_agent
    info = game_info(name, num_players, variant, max_turns)
    result = play_game(info, [make_agent("heuristic", info) for _ in range(num_players)], seed=seed)
    return record_game(name, result.core_seed, result.actions, num_players=num_players, variant=variant,
                       max_turns=max_turns, players=["heuristic"] * num_players, final_state=result.final_state)


def run(record, through):
    """``(what was yielded at each step, result)``; for the reference, the legal actions at each step."""
    steps, seen = replay(record, through), []
    while True:
        try:
            state, action = next(steps)
        except StopIteration as stop:
            return seen, stop.value
        seen.append((sorted(state.legal_actions()) if through == "reference" else state, action))


def assert_plays_back_identically(record):
    record = from_json(records.to_json(record))   # what is compared is what a file holds
    env_steps, env_result = run(record, "raw_env")
    batch_steps, batch_result = run(record, "batch")
    reference_steps, reference_result = run(record, "reference")
    assert len(env_steps) == len(batch_steps) == len(reference_steps) == len(record.actions) + 1
    env = PACKAGES[record.game].raw_env(num_players=record.num_players, variant=record.variant,
                                        max_turns=record.max_turns)
    for (state, action), (batch_state, batch_action), (legal, reference_action) in zip(
            env_steps, batch_steps, reference_steps):
        np.testing.assert_array_equal(state, batch_state)
        assert action == batch_action == reference_action
        if action is not None:
            env.set_state(state)
            assert np.flatnonzero(env.observe(env.agent_selection)["action_mask"]).tolist() == legal
    assert env_result == batch_result == reference_result == record.result
    assert env_steps[-1][0].tolist() == record.final_state
    return record


@pytest.mark.parametrize("name,variant", VARIANTS)
def test_random_games_play_back_identically_through_all_three(name, variant):
    """Issue 25 item 3: "A record plays back identically through raw_env, BatchEnv and the reference rules"."""
    ends = set()
    for num_players, seed, max_turns in ((2, 1, None), (3, 2, None), (4, 3, 4)):
        record = assert_plays_back_identically(random_game(name, variant, num_players, seed, max_turns))
        ends.add(record.result["status"])
    assert ends == {"terminated", "truncated"}   # both kinds of end were played back


@pytest.mark.parametrize("name,variant", VARIANTS)
def test_heuristic_games_play_back_identically_through_all_three(name, variant):
    record = heuristic_game(name, variant, 3, seed=7, max_turns=40)
    assert record.players == ["heuristic"] * 3
    assert_plays_back_identically(record)


def test_save_and_load_round_trip(tmp_path):
    record = random_game("makemake", "standard", 2, seed=4, max_turns=6)
    path = save(record, tmp_path / "game.json")
    assert load(path) == record
    data = json.loads(path.read_text())
    assert data["format"] == "pacific-game-record" and data["version"] == 1
    assert data["options"] == {"num_players": 2, "variant": "standard", "max_turns": 6, "reward": "win_loss"}
    final, result = play_back(load(path), "batch")
    assert final.tolist() == record.final_state and result == record.result


def test_a_record_file_with_a_byte_order_mark_loads(tmp_path):
    """Saved again by an editor that writes a byte-order mark, a record file was refused by ``load``
    ("Unexpected UTF-8 BOM") while the web page's replays took it."""
    record = random_game("makemake", "standard", 2, seed=4, max_turns=6)
    path = tmp_path / "game.json"
    path.write_bytes(save(record, path).read_text(encoding="utf-8").encode("utf-8-sig"))
    assert path.read_bytes().startswith(b"\xef\xbb\xbf") and load(path) == record
    assert from_json("\ufeff" + records.to_json(record)) == record


# -- strict reading -------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def valid():
    return random_game("maunakea", "basic", 2, seed=5, max_turns=3).to_dict()


def changed(data, path, value):
    data = copy.deepcopy(data)
    *outer, last = path
    target = data
    for key in outer:
        target = target[key]
    if value is KeyError:
        del target[last]
    else:
        target[last] = value
    return json.dumps(data)


BAD_RECORDS = [
    (("extra",), 1, "unknown key 'extra'"), (("seed",), KeyError, "lacks the key 'seed'"),
    (("format",), "pgn", "format"), (("version",), 2, "version"), (("version",), True, "version"),
    (("game",), "chess", "game must be one of"), (("game",), ["maunakea"], "game must be one of"),
    (("seed",), -1, "seed"), (("seed",), 2**63, "seed"), (("seed",), "5", "seed"), (("seed",), True, "seed"),
    (("seed",), 5.0, "seed"),
    (("options", "num_players"), 9, "num_players"), (("options", "num_players"), "2", "num_players"),
    (("options", "variant"), "expert", "variant"), (("options", "max_turns"), 0, "max_turns"),
    (("options", "max_turns"), 10**30, "max_turns"), (("options", "reward"), "points", "reward"),
    (("options", "speed"), 1, "unknown key 'speed'"), (("options",), [], "options"),
    (("actions",), "1,2", "actions"), (("actions", 0), -1, "actions\\[0\\]"),
    (("actions", 0), 10**6, "actions\\[0\\]"), (("actions", 1), 3.0, "actions\\[1\\]"),
    (("actions", 1), None, "actions\\[1\\]"),
    (("result", "status"), "won", "result.status"), (("result", "end"), "checkmate", "result.end"),
    (("result", "scores"), [1], "result.scores"), (("result", "rewards", 0), "1", "result.rewards\\[0\\]"),
    (("result", "extra"), 0, "unknown key 'extra'"), (("result",), 3, "result"),
    (("players",), ["a"], "players"), (("players",), [1, 2], "players"),
    (("final_state",), [0], "final_state"), (("final_state", 0), 2**64, "final_state\\[0\\]"),
    (("final_state", 1), "x", "final_state\\[1\\]"),
]


@pytest.mark.parametrize("path,value,message", BAD_RECORDS, ids=[f"{'.'.join(map(str, p))}={v!r}"[:40]
                                                                  for p, v, _ in BAD_RECORDS])
def test_a_record_is_read_strictly_and_errors_name_the_key(valid, path, value, message):
    """Issue 25 item 3 (brief): "strict: unknown keys, wrong types, unknown game, out-of-range option ->
    ValueError naming the key"."""
    with pytest.raises(ValueError, match=message):
        from_json(changed(valid, path, value))


@pytest.mark.parametrize("text,message", [
    ("", "not a game record"), ("[1, 2]", "JSON object"), ('{"seed": NaN}', "NaN"),
    ('{"seed": 1, "seed": 2}', "twice"), ("[" * 100000 + "]" * 100000, "not a game record"),
    ("{'game': 'makemake'}", "not a game record"),
])
def test_malformed_json_is_a_value_error(text, message):
    with pytest.raises(ValueError, match=message):
        from_json(text)
    with pytest.raises(ValueError, match="str"):
        from_json(b"{}")


def test_load_says_what_a_file_is_not(tmp_path):
    with pytest.raises(ValueError, match="no game record file"):
        load(tmp_path / "missing.json")
    binary = tmp_path / "game.json"
    binary.write_bytes(b"\xff\xfe\x00\x81")
    with pytest.raises(ValueError, match="not text"):
        load(binary)


# -- replays that do not match the record -----------------------------------------------------------
@pytest.mark.parametrize("through", records.THROUGH)
def test_replay_refuses_illegal_actions_and_actions_after_the_end(valid, through):
    record = from_json(json.dumps(valid))   # a 2-player Mauna Kea game cut after 3 turns
    options = dict(game=record.game, num_players=2, variant="basic", max_turns=3, seed=record.seed)
    game = maunakea_env.raw_env(num_players=2, max_turns=3)
    game.reset(seed=record.seed)
    illegal = int(np.flatnonzero(game.observe(game.agent_selection)["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match=f"record action 0, {illegal} "):
        play_back(GameRecord(actions=[illegal] + record.actions[1:], **options), through)
    with pytest.raises(ValueError, match="already over"):
        play_back(GameRecord(actions=record.actions + [record.actions[-1]], **options), through)


@pytest.mark.parametrize("through", records.THROUGH)
def test_replay_must_reach_the_stored_result_and_final_state(valid, through):
    with pytest.raises(ValueError, match="result: scores"):
        play_back(from_json(changed(valid, ("result", "scores"), [7, 7])), through)
    with pytest.raises(ValueError, match="result: end"):
        play_back(from_json(changed(valid, ("result", "end"), "win")), through)
    unfinished = json.loads(changed(valid, ("actions",), valid["actions"][:-1]))
    del unfinished["final_state"]
    with pytest.raises(ValueError, match="still running"):
        play_back(from_json(json.dumps(unfinished)), through)
    if through != "reference":   # the reference rules keep no state row
        state = list(valid["final_state"])
        state[7] += 1
        with pytest.raises(ValueError, match="entry 7"):
            play_back(from_json(changed(valid, ("final_state",), state)), through)


def test_replay_arguments_are_checked(valid):
    record = from_json(json.dumps(valid))
    with pytest.raises(ValueError, match="through must be one of"):
        replay(record, "numba")
    with pytest.raises(ValueError, match="GameRecord"):
        replay(valid, "raw_env")
    with pytest.raises(ValueError, match="GameRecord"):
        save(valid, "x.json")


@pytest.mark.parametrize("through", records.THROUGH)
def test_a_record_changed_after_it_was_made_is_checked_again_before_a_replay(valid, through):
    """The batch wrote an action changed to 2.5 into its int64 array, and so replayed action 2."""
    record = from_json(json.dumps(valid))
    record.actions[1] = float(record.actions[1]) + 0.5
    with pytest.raises(ValueError, match=r"actions\[1\] must be an integer from 0 to"):
        play_back(record, through)


@pytest.mark.parametrize("change,message", [
    (dict(seed=1.5), "seed must be an integer"),
    (dict(seed="7"), "seed must be an integer"),
    (dict(actions=["3"]), r"actions\[0\] must be an integer"),
    (dict(actions=[3.0]), r"actions\[0\] must be an integer"),
    (dict(actions=5), "actions must be a list"),
    (dict(players=[0, 1]), "players must be a list of 2 names"),
])
def test_record_game_refuses_what_it_used_to_turn_into_numbers(change, message):
    """``int()`` and ``str()`` turned a seed of 1.5, an action "3" and players 0 and 1 into a record."""
    arguments = dict(seed=0, actions=[], num_players=2, variant="basic", max_turns=50, players=["a", "b"])
    arguments.update(change)
    with pytest.raises(ValueError, match=message):
        record_game("maunakea", arguments.pop("seed"), arguments.pop("actions"), **arguments)
    # numpy integers are integers: they become Python ints, which JSON can write
    made = record_game("maunakea", np.int64(4), np.array([], dtype=np.int64), num_players=2, variant="basic",
                       max_turns=50)
    assert type(made.seed) is int and made.actions == []


def test_a_reward_too_long_for_a_float_and_a_path_that_is_none_are_clear_errors(valid, tmp_path):
    """A 400-digit reward was an OverflowError from ``math.isfinite``; ``load(None)`` a TypeError."""
    with pytest.raises(ValueError, match=r"result.rewards\[0\] must be a finite number"):
        from_json(changed(valid, ("result", "rewards"), [10 ** 400, 0]))
    with pytest.raises(ValueError, match="path must be a file's path"):
        load(None)
    record = from_json(json.dumps(valid))
    with pytest.raises(ValueError, match="path must be a file's path"):
        save(record, None)
    record.seed = -5   # changed after it was made: save refuses what load would
    with pytest.raises(ValueError, match="seed must be an integer"):
        save(record, tmp_path / "r.json")
    assert not (tmp_path / "r.json").exists()


def test_records_hold_data_only():
    """Nothing in a record is executed: a game name is looked up in a fixed list, never imported as given."""
    with pytest.raises(ValueError, match="game must be one of"):
        GameRecord(game="os", num_players=2, variant="x", max_turns=1, seed=0, actions=[])
    with pytest.raises(ValueError, match="game must be one of"):
        from_json(json.dumps({"format": "pacific-game-record", "version": 1, "game": "..agents",
                              "options": {}, "seed": 0, "actions": [], "result": None}))
