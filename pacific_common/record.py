"""Game records: one game of Maka Bana, Make Make or Mauna Kea as JSON, and its replay.

A record holds what it takes to play a game again -- the game, its options, the seed and the
actions -- and, to check a replay against, how the game ended and (optionally) its final state row::

    {"format": "pacific-game-record", "version": 1,
     "game": "makemake",
     "options": {"num_players": 4, "variant": "standard", "max_turns": 1000, "reward": "win_loss"},
     "seed": 1234,
     "actions": [517, 80, 431, ...],
     "result": {"status": "terminated", "end": "win", "scores": [2, 5, 1, 0],
                "rewards": [-1.0, 1.0, -1.0, -1.0]},
     "players": ["heuristic", "random", "random", "random"],
     "final_state": [...]}

``seed`` is the seed the game's ``raw_env.reset(seed=...)`` (or ``kernels.init``) takes; every chance
event comes from it, so the actions replay the game exactly.  ``result`` is what ``infos`` report at
the end -- ``status`` ("terminated" or "truncated"), ``end`` (a ``pacific_common.ends`` name), the
players' ``scores`` and their ``rewards`` in the record's ``reward`` mode -- or ``null`` (not stored, or
a game left unfinished).  ``players`` (who sat in each seat) and ``final_state`` (the state row as a list of ints)
are optional.

Reading a record (``load``, ``from_json``) parses it as data and checks it strictly: an unknown or
missing key, a value of the wrong type, an unknown game or an option the game does not offer is a
``ValueError`` that names the key.  Nothing in a record is ever executed.

``replay(record, through=...)`` plays the actions again and yields ``(state, action)`` before every
action, then ``(final state, None)``; the generator returns the result (``play_back`` runs it to the end
and returns ``(final state, result)``).  Every action must be legal where it is played, and the replay
must reach the record's ``result`` and ``final_state`` exactly; anything else is a ``ValueError``.
``through`` is the implementation played on: ``"raw_env"`` (the game's AEC environment), ``"batch"`` (a
one-game ``BatchEnv`` without autoreset) or ``"reference"`` (the plain-Python rules of the game's
``reference.py``; its states are the live ``ReferenceGame``, which has no state row, so only the result
is checked against the record there).
"""
import importlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .ends import END_NAMES
from .options import SEED_LIMIT, check_options, is_finite, is_integer, space_sizes

FORMAT = "pacific-game-record"
VERSION = 1
GAMES = ("makabana", "makemake", "maunakea")
THROUGH = ("raw_env", "batch", "reference")
STATUSES = ("terminated", "truncated")
OPTIONS = ("num_players", "variant", "max_turns", "reward")
KEYS = ("format", "version", "game", "options", "seed", "actions", "result", "players", "final_state")
OPTIONAL_KEYS = ("players", "final_state")
RESULT_KEYS = ("status", "end", "scores", "rewards")
INT64 = np.iinfo(np.int64)


def _package(game):
    """The game's package, e.g. ``makemake_env``: only names from ``GAMES`` are ever imported."""
    if game not in GAMES:
        raise ValueError(f"game must be one of {list(GAMES)}, got {game!r}")
    return importlib.import_module(f"{game}_env")


def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def _int_list(key, value, length=None, low=INT64.min, high=INT64.max):
    if not isinstance(value, list) or (length is not None and len(value) != length):
        size = "" if length is None else f" of {length} integers"
        raise ValueError(f"{key} must be a list{size}, got {_what(value)}")
    for i, v in enumerate(value):
        if not _is_int(v) or not low <= v <= high:
            raise ValueError(f"{key}[{i}] must be an integer from {low} to {high}, got {v!r}")
    return value


def _what(value):
    return f"a list of {len(value)}" if isinstance(value, list) else f"{value!r} ({type(value).__name__})"


@dataclass
class GameRecord:
    """One game; see the module docstring.  Every field is checked on construction and before each
    replay (``check``)."""
    game: str
    num_players: int
    variant: str
    max_turns: int
    seed: int
    actions: list
    reward: str = "win_loss"
    result: dict = None
    players: list = None
    final_state: list = None
    _num_actions: int = field(default=0, init=False, repr=False, compare=False)

    def __post_init__(self):
        self.check()

    def check(self):
        """Raise ``ValueError`` unless every field is valid: done on construction, and again before a
        replay, since a record's fields may be changed after it was made."""
        package = _package(self.game)
        raw_env = package.raw_env
        check_options(self.num_players, self.variant, self.max_turns, None, self.reward,
                      players=raw_env.players, variants=raw_env.variants)
        if not all(_is_int(v) for v in (self.num_players, self.max_turns)):
            raise ValueError("num_players and max_turns must be Python ints")
        if not _is_int(self.seed) or not 0 <= self.seed <= SEED_LIMIT:
            raise ValueError(f"seed must be an integer from 0 to {SEED_LIMIT}, got {self.seed!r}")
        kernels = package.kernels
        self._num_actions = int(space_sizes(kernels, raw_env.variants[self.variant])[0])
        _int_list("actions", self.actions, low=0, high=self._num_actions - 1)
        if self.result is not None:
            self._check_result(self.result)
        if self.players is not None:
            if (not isinstance(self.players, list) or len(self.players) != self.num_players
                    or not all(isinstance(p, str) for p in self.players)):
                raise ValueError(f"players must be a list of {self.num_players} names (strings), got "
                                 f"{_what(self.players)}")
            for i, name in enumerate(self.players):
                try:
                    name.encode("utf-8")
                except UnicodeEncodeError:   # a lone surrogate, which JSON's \ud800 escape can write
                    raise ValueError(f"players[{i}] must be Unicode text, got {name!r} (a lone surrogate)") from None
        if self.final_state is not None:
            _int_list("final_state", self.final_state, length=kernels.STATE_SIZE)

    def _check_result(self, result):
        if not isinstance(result, dict):
            raise ValueError(f"result must be an object with {list(RESULT_KEYS)} or null, got {_what(result)}")
        _exact_keys("result", result, RESULT_KEYS)
        if result["status"] not in STATUSES:
            raise ValueError(f"result.status must be one of {list(STATUSES)}, got {result['status']!r}")
        if result["end"] not in END_NAMES[1:]:
            raise ValueError(f"result.end must be one of {list(END_NAMES[1:])}, got {result['end']!r}")
        _int_list("result.scores", result["scores"], length=self.num_players)
        rewards = result["rewards"]
        if not isinstance(rewards, list) or len(rewards) != self.num_players:
            raise ValueError(f"result.rewards must be a list of {self.num_players} numbers, got {_what(rewards)}")
        for i, r in enumerate(rewards):
            if isinstance(r, bool) or not isinstance(r, (int, float)) or not is_finite(r):
                raise ValueError(f"result.rewards[{i}] must be a finite number, got {r!r}")

    def options(self):
        return {"num_players": self.num_players, "variant": self.variant, "max_turns": self.max_turns,
                "reward": self.reward}

    def to_dict(self):
        data = {"format": FORMAT, "version": VERSION, "game": self.game, "options": self.options(),
                "seed": self.seed, "actions": list(self.actions), "result": self.result}
        if self.players is not None:
            data["players"] = list(self.players)
        if self.final_state is not None:
            data["final_state"] = list(self.final_state)
        return data


def _exact_keys(where, data, keys, optional=()):
    unknown = sorted(set(data) - set(keys))
    if unknown:
        raise ValueError(f"{where} has unknown key {unknown[0]!r}; allowed: {list(keys)}")
    missing = [k for k in keys if k not in data and k not in optional]
    if missing:
        raise ValueError(f"{where} lacks the key {missing[0]!r}")


# ---------------------------------------------------------------------------------------------------
# JSON
def to_json(record):
    """``record`` as JSON text, after checking it again (its fields may have changed since it was made)."""
    if not isinstance(record, GameRecord):
        raise ValueError(f"record must be a GameRecord, got {type(record).__name__}")
    record.check()
    return json.dumps(record.to_dict(), separators=(",", ":"))


def save(record, path):
    """Write ``record`` (a ``GameRecord``) to ``path`` as JSON; returns the path.  A record that
    ``load`` would refuse is refused here."""
    text = to_json(record) + "\n"
    path = _path(path)
    path.write_text(text, encoding="utf-8")
    return path


def _path(path):
    if not isinstance(path, (str, os.PathLike)):
        raise ValueError(f"path must be a file's path (a str or a Path), got {path!r}")
    return Path(path)


def load(path):
    """The ``GameRecord`` in the JSON file ``path`` (checked as ``from_json`` does)."""
    path = _path(path)
    if not path.is_file():
        raise ValueError(f"no game record file at {str(path)!r}")
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise ValueError(f"{str(path)!r} is not a game record: it is not text (expected JSON)") from None
    return from_json(text)


def _no_constant(name):
    raise ValueError(f"a game record holds no {name}")


def no_duplicate_keys(pairs):
    """A JSON object as a dict, refusing a key given twice (``json``'s ``object_pairs_hook``): the
    ``json`` module keeps the last value, where another reader may keep the first."""
    data = {}
    for key, value in pairs:
        if key in data:
            raise ValueError(f"the key {key!r} appears twice")
        data[key] = value
    return data


def from_json(text):
    """The ``GameRecord`` written in ``text``; any deviation from the format is a ``ValueError``."""
    if not isinstance(text, str):
        raise ValueError(f"a game record is JSON text (str), got {type(text).__name__}")
    text = text.removeprefix("\ufeff")   # a byte-order mark, as editors may write, is no error
    try:
        data = json.loads(text, parse_constant=_no_constant, object_pairs_hook=no_duplicate_keys)
    except RecursionError:
        raise ValueError("not a game record: the JSON is nested too deeply") from None
    except ValueError as error:
        raise ValueError(f"not a game record: {error}") from None
    return from_dict(data)


def from_dict(data):
    """The ``GameRecord`` of a parsed JSON object (see ``from_json``)."""
    if not isinstance(data, dict):
        raise ValueError(f"a game record is a JSON object, got {type(data).__name__}")
    _exact_keys("the record", data, KEYS, OPTIONAL_KEYS)
    if data["format"] != FORMAT:
        raise ValueError(f"format must be {FORMAT!r}, got {data['format']!r}")
    if data["version"] != VERSION or not _is_int(data["version"]):
        raise ValueError(f"version must be {VERSION}, got {data['version']!r}")
    if data["game"] not in GAMES:
        raise ValueError(f"game must be one of {list(GAMES)}, got {data['game']!r}")
    options = data["options"]
    if not isinstance(options, dict):
        raise ValueError(f"options must be an object with {list(OPTIONS)}, got {_what(options)}")
    _exact_keys("options", options, OPTIONS)
    try:
        return GameRecord(game=data["game"], seed=data["seed"], actions=data["actions"],
                          result=data["result"], players=data.get("players"),
                          final_state=data.get("final_state"), **options)
    except ValueError as error:
        raise ValueError(f"invalid game record: {error}") from None


# ---------------------------------------------------------------------------------------------------
# Making records
def record_game(game, seed, actions, *, num_players, variant, max_turns, reward="win_loss",
                players=None, final_state=None):
    """The ``GameRecord`` of a game played from ``seed`` with ``actions``, its result and final state
    taken from a replay on the game's ``raw_env`` (which also checks every action).  A game played
    elsewhere (on the kernels, say) hands its ``final_state`` too, and the replay must reach it."""
    record = GameRecord(game=game, num_players=num_players, variant=variant, max_turns=max_turns,
                        reward=reward, seed=_plain_int(seed), actions=_plain_ints(actions),
                        players=None if players is None else _plain_list(players),
                        final_state=None if final_state is None else _plain_ints(final_state))
    state, result = play_back(record, "raw_env")
    record.result = result
    record.final_state = state.tolist()
    return record


def _plain_int(value):
    """A numpy integer as a Python ``int``, for JSON; anything else as it is, for ``GameRecord`` to
    refuse (``int()`` would have turned a seed of 1.5 or an action "7" into a number)."""
    return int(value) if is_integer(value) else value


def _plain_list(values):
    return list(values) if isinstance(values, (list, tuple, np.ndarray)) else values


def _plain_ints(values):
    values = _plain_list(values)
    return [_plain_int(v) for v in values] if isinstance(values, list) else values


# ---------------------------------------------------------------------------------------------------
# Replay
def replay(record, through="raw_env"):
    """Play ``record`` again on ``through`` ("raw_env", "batch" or "reference"); see the module
    docstring.  A generator: ``(state, action)`` before each action, then ``(final state, None)``;
    it returns the result (a dict as in a record, or None for an unfinished game)."""
    if not isinstance(record, GameRecord):
        raise ValueError(f"record must be a GameRecord (see load and from_json), got {type(record).__name__}")
    if through not in THROUGH:
        raise ValueError(f"through must be one of {list(THROUGH)}, got {through!r}")
    record.check()  # an action changed to 2.5 since the record was made would be cut to 2 by the batch
    return {"raw_env": _through_raw_env, "batch": _through_batch, "reference": _through_reference}[through](record)


def play_back(record, through="raw_env"):
    """``(final state, result)`` of ``replay(record, through)`` run to its end."""
    steps = replay(record, through)
    while True:
        try:
            final, _ = next(steps)
        except StopIteration as stop:
            return final, stop.value


def _illegal(record, k, action, why):
    # ``<package>.env`` is the env() function, which hides the module of that name
    describe = importlib.import_module(f"{record.game}_env.env").describe_action
    return ValueError(f"record action {k}, {action} ({describe(action)}), cannot be played: {why}")


def _check_reached(record, through, state, result):
    if record.final_state is not None and state is not None:
        expected = np.asarray(record.final_state, dtype=np.int64)
        differ = np.flatnonzero(expected != state)
        if differ.size:
            i = int(differ[0])
            raise ValueError(f"replay through {through} does not reach the record's final_state: entry {i} "
                             f"is {int(state[i])}, the record says {int(expected[i])}")
    if record.result is not None and result != record.result:
        if result is None:
            raise ValueError(f"replay through {through} ends with the game still running; the record says it "
                             f"ended: {record.result}")
        key = next(k for k in RESULT_KEYS if result[k] != record.result[k])
        raise ValueError(f"replay through {through} does not reach the record's result: {key} is "
                         f"{result[key]!r}, the record says {record.result[key]!r}")


def _through_raw_env(record):
    package = _package(record.game)
    env = package.raw_env(num_players=record.num_players, variant=record.variant, max_turns=record.max_turns,
                          reward=record.reward)
    env.reset(seed=record.seed)
    kernels = env.core
    for k, action in enumerate(record.actions):
        if env.state()[kernels.STATUS] != kernels.STATUS_RUNNING:
            raise _illegal(record, k, action, "the game is already over")
        yield env.state(), action
        try:
            env.step(action)
        except ValueError as error:
            raise _illegal(record, k, action, error) from None
    state = env.state()
    result = None
    if state[kernels.STATUS] != kernels.STATUS_RUNNING:
        info = env.infos[env.possible_agents[0]]
        result = {"status": STATUSES[int(state[kernels.STATUS] == kernels.STATUS_TRUNCATED)], "end": info["end"],
                  "scores": [info["scores"][a] for a in env.possible_agents],
                  "rewards": [float(env.rewards[a]) for a in env.possible_agents]}
    yield state, None
    _check_reached(record, "raw_env", state, result)
    return result


def _through_batch(record):
    package = _package(record.game)
    batch = package.BatchEnv(1, seed=record.seed, autoreset=False, num_players=record.num_players,
                             variant=record.variant, max_turns=record.max_turns, reward=record.reward,
                             outputs="state")
    kernels = batch.core
    actions = np.zeros(1, dtype=np.int64)
    for k, action in enumerate(record.actions):
        if batch.states[0, kernels.STATUS] != kernels.STATUS_RUNNING:
            raise _illegal(record, k, action, "the game is already over")
        yield batch.state(0), action
        actions[0] = action
        try:
            batch.step(actions)
        except ValueError as error:
            raise _illegal(record, k, action, error) from None
    state = batch.state(0)
    result = None
    if state[kernels.STATUS] != kernels.STATUS_RUNNING:
        result = {"status": STATUSES[int(batch.truncated[0])], "end": END_NAMES[int(batch.ends[0])],
                  "scores": [int(s) for s in batch.scores[0]], "rewards": [float(r) for r in batch.rewards[0]]}
    yield state, None
    _check_reached(record, "batch", state, result)
    return result


def end_name(game, state):
    """How the game in the state row ``state`` ended (``pacific_common.ends.END_NAMES``); None while
    it runs."""
    _package(game)  # checks the name
    return END_NAMES[importlib.import_module(f"{game}_env.core").end_code(state)]


def _through_reference(record):
    reference = importlib.import_module(f"{record.game}_env.reference")
    if record.game == "maunakea":
        game = reference.ReferenceGame(record.num_players, record.max_turns, seed=record.seed,
                                       variant=record.variant)
    elif record.game == "makabana":
        game = reference.ReferenceGame(record.num_players, record.max_turns, variant=record.variant)
    else:  # Make Make has one variant and no chance
        game = reference.ReferenceGame(record.num_players, record.max_turns)
    for k, action in enumerate(record.actions):
        if game.terminated or game.truncated:
            raise _illegal(record, k, action, "the game is already over")
        if action not in game.legal_actions():
            raise _illegal(record, k, action, "the reference rules do not allow it here")
        yield game, action
        game.step(action)
    result = None
    if game.terminated or game.truncated:
        scores = game.scores() if record.game == "maunakea" else game.player_scores()
        result = {"status": STATUSES[int(game.truncated)], "end": game.end,
                  "scores": [int(s) for s in scores],
                  "rewards": [float(r) for r in game.rewards(record.reward)]}
    yield game, None
    _check_reached(record, "reference", None, result)
    return result


