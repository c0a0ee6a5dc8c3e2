"""Mauna Kea by name (issue 25): actions, positions and explorers in words a reader can check.

* ``describe_action(action, state=None)`` names an action ("move explorer 2 west");
  ``parse_action(text, state=None)`` is its inverse.
* ``to_text(state)`` writes a whole position -- hidden parts included: hands, cards, the bag and the
  generator -- as ``key: value`` lines; ``from_text(text)`` reads it back, entry for entry.  The
  notation is documented with an example in ``RULES.md`` ("Position notation").
* ``explorers(state)`` is the read-only view of every explorer: player, square, load.

Everything here reads rows through ``core.check_state``, so a row or text that is no position of the
game gets a ``ValueError`` saying where and why.
"""
import difflib
import functools
import re
from typing import NamedTuple

import numpy as np

from pacific_common import checked
from pacific_common.checked import field_name, is_integer

from . import core
from .board import (
    BOAT_INDEX, BOAT_NAMES, CARD_KIND_NAMES, FIELD_INDEX, FIELD_NAMES, FIELD_SQUARES, FIRST_ACTION_KIND,
    INITIAL_TERRAIN, LANDING_INDEX, LANDING_NAMES, LAVA, LAVA_FLOW_NAMES, LAVA_TILE_NAMES, NUM_FIELDS,
    NUM_ISLAND_TILES, NUM_LANDINGS,
    NUM_SQUARES, NUM_TERRAIN_TILES, SQUARE_INDEX, SQUARE_NAMES, SQUARES_PER_SIDE, START_KIND_NAMES,
    START_TILE_KIND, START_TILE_SQUARES, TERRAIN_KIND_NAMES, TERRAIN_TILE_KIND, TERRAIN_TILE_SQUARES,
    TILE_ROTATION_SOURCE,
)
from .kernels import (
    CARD_MOVE_BASE, DESTINATION_BASE, DROP_BASE, EARTHQUAKE_BASE, END_REASON_NAMES, END_TURN, HAND_SLOTS,
    HELICOPTER_BASE, LAY_BASE, MAX_EXPLORERS, MOVE_BASE, NUM_ACTION_KINDS, NUM_ACTIONS, NUM_ACTIONS_ADVANCED,
    NUM_CARD_KINDS, PICK_BASE, QUAKE_DRAW, QUAKE_LAY_BASE, QUAKE_NO_DRAW, REMOVE_CARD_BASE,
    SPEND_BASE, BOARD_BASE,
)

K = core   # offsets and constants, as users read them
COLOURS = ("white", "gray", "black")
_DIRECTION_WORDS = ("north", "east", "south", "west")
_MOVEMENT_KINDS = ("jungle", "water", "mountain")
PHASE_NAMES = ("placement", "turn", "over", "card choice", "movement card destination", "earthquake draw",
               "earthquake tile")
STATUS_NAMES = ("running", "terminated", "truncated")
VARIANT_NAMES = ("basic", "advanced")
EXPLORER_STATUS_NAMES = ("unplaced", "on the island", "in a boat", "lost", "rescued")
# what a square shows, one letter each, for the terrain rows of the notation
TERRAIN_LETTERS = ".JWMLV"   # no tile, jungle, water, mountain, lava, volcano


# ---------------------------------------------------------------------------------------------------
# Actions
_LAST_CHECKED = [None, None]   # a copy of the last row checked here, and its variant


def _variant_of(state):
    """The variant of a checked row.  Naming every legal action of one position checks the same row
    again and again, so the last row checked is remembered (compared entry for entry)."""
    last, variant = _LAST_CHECKED
    if isinstance(state, np.ndarray) and last is not None and state.shape == last.shape and \
            state.dtype == last.dtype and np.array_equal(state, last):
        return variant
    core.check_state(state)
    _LAST_CHECKED[:] = [state.copy(), int(state[K.VARIANT])]
    return _LAST_CHECKED[1]


def describe_action(action, state=None):
    """A readable name for an action, e.g. 'move explorer 2 north'.  Actions from 2040 on belong to
    the rules for advanced players.  With ``state`` (a valid row), an action outside that game's
    action space is named as such."""
    limit = NUM_ACTIONS_ADVANCED if state is None else core.NUM_ACTIONS_OF_VARIANT[_variant_of(state)]
    action = checked.scalar(action)
    if not is_integer(action):   # a bool, a duration, a float ...
        return f"action {action!r}, not an integer"
    action = int(action)
    if not 0 <= action < limit:
        return (f"action {action}, outside 0 … {NUM_ACTIONS - 1} "
                f"(advanced: … {NUM_ACTIONS_ADVANCED - 1})")
    if action >= NUM_ACTIONS:
        return _describe_advanced_action(action)
    if action < LAY_BASE:
        return f"place an explorer on {SQUARE_NAMES[action]}"
    if action < SPEND_BASE:
        a = action - LAY_BASE
        h, f, r = a // (4 * NUM_FIELDS), (a // 4) % NUM_FIELDS, a % 4
        return f"lay hand tile {h} on {FIELD_NAMES[f]} turned {r} quarter turns"
    if action < MOVE_BASE:
        return f"spend hand tile {action - SPEND_BASE} for its movement points"
    if action < PICK_BASE:
        e, d = divmod(action - MOVE_BASE, 4)
        return f"move explorer {e} {_DIRECTION_WORDS[d]}"
    if action < DROP_BASE:
        e, c = divmod(action - PICK_BASE, 3)
        return f"explorer {e} picks up a {COLOURS[c]} artifact"
    if action < BOARD_BASE:
        e, c = divmod(action - DROP_BASE, 3)
        return f"explorer {e} drops a {COLOURS[c]} artifact"
    if action < END_TURN:
        e, landing = divmod(action - BOARD_BASE, NUM_LANDINGS)
        return f"explorer {e} boards the boat at {LANDING_NAMES[landing]}"
    return "end the turn"


def _describe_advanced_action(action):
    if action < CARD_MOVE_BASE:
        return f"remove the dealt card '{CARD_KIND_NAMES[action - REMOVE_CARD_BASE]}'"
    if action < DESTINATION_BASE:
        kind, e = divmod(action - CARD_MOVE_BASE, MAX_EXPLORERS)
        return f"play {_MOVEMENT_KINDS[kind]} movement with explorer {e}"
    if action < HELICOPTER_BASE:
        return f"move the explorer to {SQUARE_NAMES[action - DESTINATION_BASE]}"
    if action < EARTHQUAKE_BASE:
        return f"play helicopter rescue on explorer {action - HELICOPTER_BASE}"
    if action < QUAKE_DRAW:
        f, r = divmod(action - EARTHQUAKE_BASE, 4)
        return f"play earthquake: turn the tile on {FIELD_NAMES[f]} to {r} quarter turns"
    if action == QUAKE_DRAW:
        return "draw a tile after the earthquake"
    if action == QUAKE_NO_DRAW:
        return "draw no tile after the earthquake"
    f, r = divmod(action - QUAKE_LAY_BASE, 4)
    return f"lay the drawn tile on {FIELD_NAMES[f]} turned {r} quarter turns"


_ACTION_BY_NAME = {}


def _actions_by_name():
    # 3052 names, built once: parsing is then a look-up, the exact inverse of describe_action
    if not _ACTION_BY_NAME:
        _ACTION_BY_NAME.update({describe_action(a).lower(): a for a in range(NUM_ACTIONS_ADVANCED)})
    return _ACTION_BY_NAME


def parse_action(text, state=None):
    """The action ``describe_action`` names ``text`` (case and surrounding spaces do not matter).  With
    ``state``, only actions of that game's variant are understood.  An unknown text raises
    ``ValueError`` with the closest names."""
    if not isinstance(text, str):
        raise ValueError(f"text must be a str naming an action, got {type(text).__name__}")
    limit = NUM_ACTIONS_ADVANCED if state is None else core.NUM_ACTIONS_OF_VARIANT[_variant_of(state)]
    names = _actions_by_name()
    key = " ".join(text.split()).lower()
    action = names.get(key)
    if action is not None and action < limit:
        return action
    if action is not None:
        raise ValueError(f"{text.strip()!r} is an action of the rules for advanced players, and this is a "
                         f"basic game (actions 0 … {limit - 1})")
    close = [n for n in difflib.get_close_matches(key, list(names), n=5, cutoff=0.6) if names[n] < limit]
    forms = ("place an explorer on D4-se", "lay hand tile 0 on B2 turned 1 quarter turns",
             "spend hand tile 0 for its movement points", "move explorer 0 north",
             "explorer 0 picks up a white artifact", "explorer 0 drops a gray artifact",
             "explorer 0 boards the boat at landing B1-C1", "end the turn")
    hint = f"closest: {'; '.join(close)}" if close else f"actions read like: {'; '.join(forms)}"
    raise ValueError(f"unknown action {text.strip()!r}; {hint}")


# ---------------------------------------------------------------------------------------------------
# Read-only views
class Explorer(NamedTuple):
    player: int          # seat index
    explorer: int        # his e-th explorer in placement order
    status: str          # EXPLORER_STATUS_NAMES: "on the island", "in a boat", "lost", ...
    square: str | None   # the square he stands on, None when not on the island
    load: tuple          # artifacts carried: (white, gray, black)


def explorers(state):
    """Every explorer of the game, player by player: an immutable tuple of ``Explorer``."""
    core.check_state(state)
    found = []
    for p in range(int(state[K.NUM_PLAYERS])):
        for e in range(int(state[K.EXPLORERS_EACH])):
            x = p * MAX_EXPLORERS + e
            square = int(state[K.EXPLORER_SQUARE + x])
            found.append(Explorer(p, e, EXPLORER_STATUS_NAMES[int(state[K.EXPLORER_STATUS + x])],
                                  SQUARE_NAMES[square] if square >= 0 else None,
                                  tuple(int(v) for v in state[K.CARRIED + 3 * x:K.CARRIED + 3 * x + 3])))
    return tuple(found)


# ---------------------------------------------------------------------------------------------------
# Positions
def _tile_token(t):
    if t < NUM_TERRAIN_TILES:
        return f"T{t}"
    if t < NUM_ISLAND_TILES:
        return f"L{t - NUM_TERRAIN_TILES}"
    return f"S{t - NUM_ISLAND_TILES}"


def _tile_kind(t):
    if t < NUM_TERRAIN_TILES:
        return TERRAIN_KIND_NAMES[TERRAIN_TILE_KIND[t]]
    if t < NUM_ISLAND_TILES:
        return LAVA_TILE_NAMES[t - NUM_TERRAIN_TILES]
    return START_KIND_NAMES[START_TILE_KIND[t - NUM_ISLAND_TILES]]


def _counts_text(counts):
    parts = [f"{int(n)} {COLOURS[c]}" for c, n in enumerate(counts) if n]
    return ", ".join(parts) if parts else "none"


def _shown_by_tile():
    """SHOWN[t, r, i]: what square i of a field shows when tile t lies on it turned r times."""
    squares = np.empty((K.NUM_TILES, 4), np.int64)
    squares[:NUM_TERRAIN_TILES] = TERRAIN_TILE_SQUARES
    squares[NUM_TERRAIN_TILES:NUM_ISLAND_TILES] = LAVA
    squares[NUM_ISLAND_TILES:] = START_TILE_SQUARES
    return squares[:, TILE_ROTATION_SOURCE]


_SHOWN_BY_TILE = _shown_by_tile()


def _shown_terrain(state):
    """What the tiles on the fields show, square by square (the printed board where none lies)."""
    shown = INITIAL_TERRAIN.copy()
    tiles = np.asarray(state[K.FIELD_TILE:K.FIELD_TILE + NUM_FIELDS])
    laid = tiles >= 0
    rotations = np.asarray(state[K.FIELD_ROTATION:K.FIELD_ROTATION + NUM_FIELDS])[laid]
    shown[FIELD_SQUARES[laid]] = _SHOWN_BY_TILE[tiles[laid], rotations]
    return shown


@functools.lru_cache(maxsize=64)
def _set_up(num_players, variant, max_turns, seed):
    """The set-up row of these options, as a list (the defaults of the lines ``to_text`` leaves out)."""
    base = np.zeros(K.STATE_SIZE, np.int64)
    core.init(base, num_players, variant, max_turns, seed)
    return base.tolist()


def to_text(state):
    """The whole position as ``key: value`` lines (RULES.md, "Position notation")."""
    core.check_state(state)
    s = np.asarray(state).tolist()
    n = s[K.NUM_PLAYERS]
    advanced = s[K.VARIANT] == K.VARIANT_ADVANCED
    lines = ["game: Mauna Kea", f"players: {n}", f"variant: {VARIANT_NAMES[s[K.VARIANT]]}",
             f"max_turns: {s[K.MAX_TURNS]}", f"seed: {s[K.SEED]}", f"rng: {s[K.RNG]}",
             f"status: {STATUS_NAMES[s[K.STATUS]]}", f"phase: {PHASE_NAMES[s[K.PHASE]]}",
             f"to_act: {'none' if s[K.TO_ACT] < 0 else f'player_{s[K.TO_ACT]}'}", f"turn: {s[K.TURN]}",
             f"pool: {s[K.POOL]}", f"free_actions: {s[K.FREE_ACTIONS]}"]
    if s[K.END_TRIGGERED]:
        lines.append(f"end: {END_REASON_NAMES[s[K.END_REASON]]}, final turns left {s[K.FINAL_TURNS_LEFT]}")
    else:
        lines.append("end: none")
    for f in range(NUM_FIELDS):
        t = s[K.FIELD_TILE + f]
        if t >= 0:
            lines.append(f"tile {FIELD_NAMES[f]}: {_tile_token(t)} turned {s[K.FIELD_ROTATION + f]} ({_tile_kind(t)})")
    shown = _shown_terrain(state)
    terrain = np.asarray(state[K.TERRAIN:K.TERRAIN + NUM_SQUARES])
    differs = (terrain != shown).reshape(SQUARES_PER_SIDE, SQUARES_PER_SIDE).any(axis=1)
    for row in np.flatnonzero(differs).tolist():
        squares = s[K.TERRAIN + row * SQUARES_PER_SIDE:K.TERRAIN + (row + 1) * SQUARES_PER_SIDE]
        lines.append(f"terrain row {row + 1}: " + "".join(TERRAIN_LETTERS[v] for v in squares))
    # the set-up position of these options is the default of every line not written, so an item that
    # is empty now but was not at the set-up is written too ("none")
    base = _set_up(n, s[K.VARIANT], s[K.MAX_TURNS], s[K.SEED])
    for q in range(NUM_SQUARES):
        counts = s[K.ARTIFACTS + 3 * q:K.ARTIFACTS + 3 * q + 3]
        if any(counts) or any(base[K.ARTIFACTS + 3 * q:K.ARTIFACTS + 3 * q + 3]):
            lines.append(f"artifacts {SQUARE_NAMES[q]}: {_counts_text(counts)}")
    if any(s[K.REMOVED_ARTIFACTS:K.REMOVED_ARTIFACTS + 3]):
        lines.append(f"removed artifacts: {_counts_text(s[K.REMOVED_ARTIFACTS:K.REMOVED_ARTIFACTS + 3])}")
    for p in range(n):
        for e in range(s[K.EXPLORERS_EACH]):
            x = p * MAX_EXPLORERS + e
            status = s[K.EXPLORER_STATUS + x]
            where = SQUARE_NAMES[s[K.EXPLORER_SQUARE + x]] if status == K.ON_ISLAND else EXPLORER_STATUS_NAMES[status]
            load = s[K.CARRIED + 3 * x:K.CARRIED + 3 * x + 3]
            lines.append(f"player_{p} explorer {e}: {where}" + (f" carrying {_counts_text(load)}" if any(load) else ""))
    for p in range(n):
        hand = s[K.HAND + p * HAND_SLOTS:K.HAND + p * HAND_SLOTS + s[K.HAND_SIZE + p]]
        lines.append(f"hand player_{p}: " + ("; ".join(_tile_token(t) for t in hand) if hand else "none"))
    removed = [t for t in range(K.NUM_TILES) if s[K.TILE_WHERE + t] == K.REMOVED]
    if removed:
        lines.append("removed tiles: " + "; ".join(_tile_token(t) for t in removed))
    for landing in range(NUM_LANDINGS):
        b = s[K.LANDING_BOAT + landing]
        if b >= 0 or base[K.LANDING_BOAT + landing] >= 0:
            lines.append(f"{LANDING_NAMES[landing]}: {BOAT_NAMES[b] if b >= 0 else 'none'}")
    for b in range(K.NUM_BOATS):
        owner = s[K.BOAT_OWNER + b]
        if owner >= 0:
            load = s[K.BOAT_LOAD + 3 * b:K.BOAT_LOAD + 3 * b + 3]
            lines.append(f"boat {BOAT_NAMES[b]}: taken by player_{owner} with {_counts_text(load)}")
    for flow in range(len(LAVA_FLOW_NAMES)):
        branches = []
        for b in range(2):
            k = 2 * flow + b
            f = s[K.BRANCH_FIELD + k]
            branches.append(f"{FIELD_NAMES[f] if f >= 0 else '-'} {_DIRECTION_WORDS[s[K.BRANCH_DIRECTION + k]]} "
                            f"{s[K.BRANCH_LENGTH + k]} {'open' if s[K.BRANCH_OPEN + k] else 'closed'}")
        lines.append(f"flow {LAVA_FLOW_NAMES[flow]}: " + "; ".join(branches))
    if advanced:
        for p in range(n):
            held = [CARD_KIND_NAMES[k] for k in range(NUM_CARD_KINDS)
                    for _ in range(s[K.CARDS + p * NUM_CARD_KINDS + k])]
            lines.append(f"cards player_{p}: " + ("; ".join(held) if held else "none"))
            played = [CARD_KIND_NAMES[FIRST_ACTION_KIND + a] for a in range(NUM_ACTION_KINDS)
                      for _ in range(s[K.PLAYED + p * NUM_ACTION_KINDS + a])]
            if played:
                lines.append(f"played player_{p}: " + "; ".join(played))
            rescued = s[K.RESCUED_ARTIFACTS + 3 * p:K.RESCUED_ARTIFACTS + 3 * p + 3]
            if any(rescued):
                lines.append(f"rescued artifacts player_{p}: {_counts_text(rescued)}")
            lines.append(f"card choice player_{p}: removed {s[K.CARDS_REMOVED + p]}, lowest kind next "
                         f"{s[K.REMOVE_FROM + p]}")
            removed = [CARD_KIND_NAMES[k] for k in range(NUM_CARD_KINDS)
                       for _ in range(s[K.REMOVED_CARDS + p * NUM_CARD_KINDS + k])]
            if removed:
                lines.append(f"removed cards player_{p}: " + "; ".join(removed))
        if s[K.CARD_MOVE_KIND] >= 0:
            lines.append(f"movement card: {_MOVEMENT_KINDS[s[K.CARD_MOVE_KIND]]} movement with explorer "
                         f"{s[K.CARD_MOVE_EXPLORER]}")
        if s[K.QUAKE_TILE] >= 0:
            lines.append(f"earthquake tile: {_tile_token(s[K.QUAKE_TILE])}")
        lines.append(f"supply out: {s[K.SUPPLY_OUT]}")
    return "\n".join(lines) + "\n"


class _Reader:
    """From ``key: value`` lines to a row, remembering which line wrote which entry, so that the
    validator's verdict can name the line."""

    def __init__(self):
        self.row = None
        self.line_of = {}     # offset -> (line number, key)
        self.at = (0, "")

    def set(self, offset, value):
        # two keys may name one entry (player_0 explorer 1 and player_0 explorer 01): the second would
        # overwrite the first silently, as a repeated key would
        first = self.line_of.get(offset)
        if first is not None and first != self.at:
            self.fail(f"{field_name(core.FIELDS, offset)} is given already by line {first[0]} ({first[1]})")
        self.row[offset] = value
        self.line_of[offset] = self.at

    def fail(self, message):
        number, key = self.at
        raise ValueError(f"line {number} ({key}): {message}")


_WHOLE_NUMBER = re.compile(r"-?[0-9]+")
_ARTIFACT_COUNT = re.compile(r"([0-9]+) (white|gray|black)")
_TILE_TOKEN = re.compile(r"([TLS])([0-9]{1,2})")
_TILE_LIMIT = {"T": NUM_TERRAIN_TILES, "L": NUM_ISLAND_TILES - NUM_TERRAIN_TILES, "S": K.NUM_START_TILES}


def _number(reader, text, low=0, high=2**63 - 1):
    text = text.strip()
    if not _WHOLE_NUMBER.fullmatch(text):
        reader.fail(f"{text!r} is not a whole number")
    # no entry of a row takes more than 19 digits, and int() refuses more than 4300
    if len(text) > 24 or not low <= int(text) <= high:
        shown = text if len(text) <= 24 else f"a number of {len(text)} characters"
        reader.fail(f"{shown} is not in {low} … {high}")
    return int(text)


def _choice(reader, text, names, what):
    text = text.strip()
    if text not in names:
        close = difflib.get_close_matches(text, list(names), n=3, cutoff=0.5)
        reader.fail(f"unknown {what} {text!r}; " + (f"closest: {', '.join(close)}" if close
                                                     else f"one of: {', '.join(names)}"))
    return list(names).index(text) if not isinstance(names, dict) else names[text]


def _player(reader, text, n):
    m = re.fullmatch(r"player_([0-9])", text.strip())
    if not m or int(m.group(1)) >= n:
        reader.fail(f"{text.strip()!r} is not a player of this game (player_0 … player_{n - 1})")
    return int(m.group(1))


def _counts(reader, text):
    text = text.strip()
    counts = [0, 0, 0]
    if text == "none":
        return counts
    for part in text.split(", "):
        m = _ARTIFACT_COUNT.fullmatch(part.strip())
        if not m:
            reader.fail(f"{part.strip()!r}: artifacts are written like '2 white, 1 gray' or 'none'")
        counts[COLOURS.index(m.group(2))] += _number(reader, m.group(1))
    if max(counts) > 2**63 - 1:
        reader.fail("a colour's artifacts add up to more than 2**63 - 1")
    return counts


def _tile(reader, text):
    m = _TILE_TOKEN.fullmatch(text.strip())
    if not m or int(m.group(2)) >= _TILE_LIMIT[m.group(1)]:
        reader.fail(f"{text.strip()!r} is no tile: T0 … T69 (terrain), L0 … L23 (lava), S0 … S23 (start)")
    return int(m.group(2)) + {"T": 0, "L": NUM_TERRAIN_TILES, "S": NUM_ISLAND_TILES}[m.group(1)]


def _place(reader, placed_by, t):
    """Note that the current line puts tile ``t`` somewhere; no line may put it in two places."""
    if t in placed_by:
        number, key = placed_by[t]
        reader.fail(f"{_tile_token(t)} is already placed by line {number} ({key})")
    placed_by[t] = reader.at


def _list(text):
    text = text.strip()
    return [] if text == "none" else [part.strip() for part in text.split(";")]


@checked.reads_text
def from_text(text):
    """The int64 row of a position written by ``to_text`` (or by hand, with the defaults RULES.md
    lists).  A wrong text raises ``ValueError`` naming the line (number and key) and the entry."""
    if not isinstance(text, str):
        raise ValueError(f"text must be a str, got {type(text).__name__}")
    reader = _Reader()
    entries = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if ": " not in line and not line.rstrip().endswith(":"):
            raise ValueError(f"line {number}: {line.strip()!r} is not a 'key: value' line")
        key, _, value = line.strip().partition(":")
        if not key.strip():
            raise ValueError(f"line {number}: {line.strip()!r} has no key before the ':'; the keys are listed "
                             f"in RULES.md, 'Position notation'")
        entries.append((number, key.strip(), value.strip()))
    # the game first: another game's text has other keys, and would be refused for one of them
    game = next(((number, value) for number, key, value in entries if key == "game"), None)
    if game is None:
        raise ValueError("the first lines must name the game ('game: Mauna Kea') and the players ('players: 2')")
    if game[1] != "Mauna Kea":
        raise ValueError(f"line {game[0]} (game): {checked.another_game(game[1], 'maunakea')}")
    first_line = {}
    for number, key, value in entries:
        spelt = " ".join(key.split())
        if spelt in first_line:
            raise ValueError(f"line {number} ({key}): {spelt} is given twice (first on line {first_line[spelt]})")
        first_line[spelt] = number
    header = {key: (number, value) for number, key, value in entries
              if key in ("game", "players", "variant", "max_turns", "seed", "rng")}
    if "players" not in header:
        raise ValueError("line missing: 'players: 2' (2 … 4)")

    def head(key, parse, default):
        if key not in header:
            return default
        reader.at = (header[key][0], key)
        return parse(header[key][1])

    n = head("players", lambda v: _number(reader, v, 2, 4), None)
    variant = head("variant", lambda v: _choice(reader, v, VARIANT_NAMES, "variant"), K.VARIANT_BASIC)
    max_turns = head("max_turns", lambda v: _number(reader, v, 1), 300)
    seed = head("seed", lambda v: _number(reader, v), 0)
    # the defaults: a fresh game of these options, emptied of what the lines below describe
    # a list while the lines are read (indexing a list is several times quicker than an array)
    row = list(_set_up(n, variant, max_turns, seed))
    reader.row = row
    for name in ("game", "players", "variant", "max_turns", "seed"):
        if name in header:
            reader.at = (header[name][0], name)
            offset = {"players": K.NUM_PLAYERS, "variant": K.VARIANT, "max_turns": K.MAX_TURNS,
                      "seed": K.SEED}.get(name)
            if offset is not None:
                reader.line_of[offset] = reader.at
    if "rng" in header:
        reader.at = (header["rng"][0], "rng")
        value = _number(reader, header["rng"][1], -2**63, 2**63 - 1)
        reader.set(K.RNG, value)
    placed_by = {}        # tile -> the line that put it on a field, in a hand, out of the game or aside
    terrain_rows = {}
    explorer_lines = {}
    k = row[K.EXPLORERS_EACH]
    for number, key, value in entries:
        reader.at = (number, key)
        if key in header:
            continue
        words = key.split()
        if key == "status":
            reader.set(K.STATUS, _choice(reader, value, STATUS_NAMES, "status"))
        elif key == "phase":
            reader.set(K.PHASE, _choice(reader, value, PHASE_NAMES, "phase"))
        elif key == "to_act":
            reader.set(K.TO_ACT, -1 if value == "none" else _player(reader, value, n))
        elif key in ("turn", "pool", "free_actions"):
            reader.set({"turn": K.TURN, "pool": K.POOL, "free_actions": K.FREE_ACTIONS}[key], _number(reader, value))
        elif key == "end":
            if value == "none":
                reader.set(K.END_TRIGGERED, 0)
                reader.set(K.END_REASON, 0)
                reader.set(K.FINAL_TURNS_LEFT, 0)
            else:
                m = re.fullmatch(r"(.+), final turns left ([0-9]+)", value)
                if not m:
                    reader.fail("write 'none' or '<reason>, final turns left <k>', reason one of: "
                                + ", ".join(END_REASON_NAMES[1:]))
                reader.set(K.END_TRIGGERED, 1)
                reader.set(K.END_REASON, _choice(reader, m.group(1), END_REASON_NAMES[1:], "end reason") + 1)
                reader.set(K.FINAL_TURNS_LEFT, _number(reader, m.group(2)))
        elif words[0] == "tile" and len(words) == 2:
            f = _choice(reader, words[1], FIELD_INDEX, "field")
            m = re.fullmatch(r"(\S+) turned ([0-9]+)(?: \((.*)\))?", value)
            if not m:
                reader.fail("write '<tile> turned <0 … 3>', e.g. 'T12 turned 1 (jungle)'")
            t = _tile(reader, m.group(1))
            if m.group(3) is not None and m.group(3) != _tile_kind(t):
                reader.fail(f"{m.group(1)} is a {_tile_kind(t)}, not a {m.group(3)}")
            reader.set(K.FIELD_TILE + f, t)
            reader.set(K.FIELD_ROTATION + f, _number(reader, m.group(2), 0, 3))
            _place(reader, placed_by, t)
        elif words[:2] == ["terrain", "row"] and len(words) == 3:
            r = _number(reader, words[2], 1, SQUARES_PER_SIDE)
            if r - 1 in terrain_rows:
                reader.fail(f"terrain row {r} is given already by line {terrain_rows[r - 1][0][0]}")
            if len(value) != SQUARES_PER_SIDE or any(c not in TERRAIN_LETTERS for c in value):
                reader.fail(f"a terrain row is {SQUARES_PER_SIDE} letters of {TERRAIN_LETTERS!r}")
            terrain_rows[r - 1] = (reader.at, value)
        elif words[0] == "artifacts" and len(words) == 2:
            q = _choice(reader, words[1], SQUARE_INDEX, "square")
            for c, count in enumerate(_counts(reader, value)):
                reader.set(K.ARTIFACTS + 3 * q + c, count)
        elif key == "removed artifacts":
            for c, count in enumerate(_counts(reader, value)):
                reader.set(K.REMOVED_ARTIFACTS + c, count)
        elif len(words) == 3 and words[1] == "explorer":
            p = _player(reader, words[0], n)
            e = _number(reader, words[2], 0, k - 1)
            if (p, e) in explorer_lines:
                reader.fail(f"player_{p} explorer {e} is given already by line {explorer_lines[(p, e)][0][0]}")
            explorer_lines[(p, e)] = (reader.at, value)
        elif words[0] == "hand" and len(words) == 2:
            p = _player(reader, words[1], n)
            tiles = [_tile(reader, t) for t in _list(value)]
            if len(tiles) > HAND_SLOTS:
                reader.fail(f"a hand holds at most {HAND_SLOTS} tiles")
            for h in range(HAND_SLOTS):
                reader.set(K.HAND + p * HAND_SLOTS + h, tiles[h] if h < len(tiles) else -1)
            reader.set(K.HAND_SIZE + p, len(tiles))
            for t in tiles:
                _place(reader, placed_by, t)
        elif key == "removed tiles":
            for token in _list(value):
                t = _tile(reader, token)
                _place(reader, placed_by, t)
                reader.set(K.TILE_WHERE + t, K.REMOVED)
        elif words[0] == "landing":
            landing = _choice(reader, key, LANDING_INDEX, "landing")
            reader.set(K.LANDING_BOAT + landing, -1 if value == "none" else _choice(reader, value, BOAT_INDEX, "boat"))
        elif words[0] == "boat":
            b = _choice(reader, key[len("boat "):], BOAT_INDEX, "boat")
            m = re.fullmatch(r"taken by (\S+) with (.*)", value)
            if not m:
                reader.fail("write 'taken by player_<p> with <artifacts>'")
            reader.set(K.BOAT_OWNER + b, _player(reader, m.group(1), n))
            for c, count in enumerate(_counts(reader, m.group(2))):
                reader.set(K.BOAT_LOAD + 3 * b + c, count)
        elif words[0] == "flow":
            flow = _choice(reader, key[len("flow "):], LAVA_FLOW_NAMES, "lava flow")
            branches = _list(value)
            if len(branches) != 2:
                reader.fail("a flow has two branches, written '<field or -> <direction> <length> <open|closed>; …'")
            for b, branch in enumerate(branches):
                m = re.fullmatch(r"(\S+) (\S+) ([0-9]+) (open|closed)", branch)
                if not m:
                    reader.fail(f"{branch!r}: write '<field or -> <direction> <length> <open|closed>'")
                j = 2 * flow + b
                end = -1 if m.group(1) == "-" else _choice(reader, m.group(1), FIELD_INDEX, "field")
                reader.set(K.BRANCH_FIELD + j, end)
                reader.set(K.BRANCH_DIRECTION + j, _choice(reader, m.group(2), _DIRECTION_WORDS, "direction"))
                reader.set(K.BRANCH_LENGTH + j, _number(reader, m.group(3)))
                reader.set(K.BRANCH_OPEN + j, int(m.group(4) == "open"))
        elif words[0] == "cards" and len(words) == 2:
            p = _player(reader, words[1], n)
            row[K.CARDS + p * NUM_CARD_KINDS:K.CARDS + (p + 1) * NUM_CARD_KINDS] = [0] * NUM_CARD_KINDS  # replaces the deal
            for name in _list(value):
                kind = _choice(reader, name, CARD_KIND_NAMES, "card")
                reader.set(K.CARDS + p * NUM_CARD_KINDS + kind, row[K.CARDS + p * NUM_CARD_KINDS + kind] + 1)
        elif words[0] == "played" and len(words) == 2:
            p = _player(reader, words[1], n)
            for name in _list(value):
                a = _choice(reader, name, CARD_KIND_NAMES[FIRST_ACTION_KIND:], "action card")
                reader.set(K.PLAYED + p * NUM_ACTION_KINDS + a, row[K.PLAYED + p * NUM_ACTION_KINDS + a] + 1)
        elif words[:2] == ["rescued", "artifacts"] and len(words) == 3:
            p = _player(reader, words[2], n)
            for c, count in enumerate(_counts(reader, value)):
                reader.set(K.RESCUED_ARTIFACTS + 3 * p + c, count)
        elif words[:2] == ["removed", "cards"] and len(words) == 3:
            p = _player(reader, words[2], n)
            for name in _list(value):
                kind = _choice(reader, name, CARD_KIND_NAMES, "card")
                reader.set(K.REMOVED_CARDS + p * NUM_CARD_KINDS + kind,
                           row[K.REMOVED_CARDS + p * NUM_CARD_KINDS + kind] + 1)
        elif words[:2] == ["card", "choice"] and len(words) == 3:
            p = _player(reader, words[2], n)
            m = re.fullmatch(r"removed ([0-9]+), lowest kind next ([0-9]+)", value)
            if not m:
                reader.fail("write 'removed <0 … 2>, lowest kind next <0 … 17>'")
            reader.set(K.CARDS_REMOVED + p, _number(reader, m.group(1)))
            reader.set(K.REMOVE_FROM + p, _number(reader, m.group(2)))
        elif key == "movement card":
            m = re.fullmatch(r"(jungle|water|mountain) movement with explorer ([0-9]+)", value)
            if not m:
                reader.fail("write '<jungle|water|mountain> movement with explorer <e>'")
            reader.set(K.CARD_MOVE_KIND, _MOVEMENT_KINDS.index(m.group(1)))
            reader.set(K.CARD_MOVE_EXPLORER, _number(reader, m.group(2), 0, k - 1))
        elif key == "earthquake tile":
            t = _tile(reader, value)
            reader.set(K.QUAKE_TILE, t)
            _place(reader, placed_by, t)
            reader.set(K.TILE_WHERE + t, K.SET_ASIDE)
        elif key == "supply out":
            reader.set(K.SUPPLY_OUT, _number(reader, value, 0, 2))
        else:
            reader.fail("unknown key; see RULES.md, 'Position notation'")
    # explorers: a line per explorer in the game (unplaced where none is written), and the squares'
    # occupants and the count placed follow from them
    row[K.OCCUPANT:K.OCCUPANT + NUM_SQUARES] = [-1] * NUM_SQUARES
    placed = 0
    for (p, e), (at, value) in sorted(explorer_lines.items()):
        reader.at = at
        x = p * MAX_EXPLORERS + e
        m = re.fullmatch(r"(.+?)(?: carrying (.*))?", value)
        if not m:
            reader.fail("write the explorer's square or one of unplaced, in a boat, lost, rescued, then "
                        "'carrying <artifacts>' if he carries any, e.g. 'D4-nw carrying 1 white'")
        where = m.group(1)
        if where in EXPLORER_STATUS_NAMES and where != "on the island":
            reader.set(K.EXPLORER_STATUS + x, EXPLORER_STATUS_NAMES.index(where))
            reader.set(K.EXPLORER_SQUARE + x, -1)
        else:
            q = _choice(reader, where, SQUARE_INDEX, "square (or unplaced, in a boat, lost, rescued)")
            if row[K.OCCUPANT + q] >= 0:
                reader.fail(f"{where} already holds an explorer")
            reader.set(K.EXPLORER_STATUS + x, K.ON_ISLAND)
            reader.set(K.EXPLORER_SQUARE + x, q)
            reader.set(K.OCCUPANT + q, p * 8 + e)
        for c, count in enumerate(_counts(reader, m.group(2) or "none")):
            reader.set(K.CARRIED + 3 * x + c, count)
        placed += where != "unplaced"
    for p in range(n):
        for e in range(k):
            if (p, e) not in explorer_lines:
                row[K.EXPLORER_STATUS + p * MAX_EXPLORERS + e] = K.UNPLACED
                row[K.EXPLORER_SQUARE + p * MAX_EXPLORERS + e] = -1
    row[K.PLACED] = placed
    # where each tile is follows from the fields, the hands and the lines naming it: the rest is in the bag
    field_of, hand_of = {}, {}
    for f in range(NUM_FIELDS):
        field_of.setdefault(row[K.FIELD_TILE + f], K.FIELD_TILE + f)
    for i in range(4 * HAND_SLOTS):
        hand_of.setdefault(row[K.HAND + i], K.HAND + i)
    for t in range(K.NUM_TILES):
        on_field, in_hand = field_of.get(t), hand_of.get(t)
        if t in placed_by and row[K.TILE_WHERE + t] in (K.REMOVED, K.SET_ASIDE) and (on_field or in_hand):
            reader.at = placed_by[t]
            reader.fail(f"{_tile_token(t)} is out of the game or aside, but lies on a field or in a hand")
        if on_field is not None:
            where, offset = K.ON_BOARD, on_field
        elif in_hand is not None:
            where, offset = K.IN_HAND, in_hand
        elif t in placed_by:
            continue   # removed or set aside, written above
        else:
            where, offset = K.IN_BAG, None
        row[K.TILE_WHERE + t] = where
        if offset in reader.line_of:
            reader.line_of[K.TILE_WHERE + t] = reader.line_of[offset]
    # the terrain: what the tiles show, unless a row is written
    shown = _shown_terrain(row)
    row[K.TERRAIN:K.TERRAIN + NUM_SQUARES] = shown.tolist()
    for r, (at, letters) in terrain_rows.items():
        reader.at = at
        for i, letter in enumerate(letters):
            reader.set(K.TERRAIN + r * SQUARES_PER_SIDE + i, TERRAIN_LETTERS.index(letter))
    row = np.array(row, np.int64)
    code, offset = core.validate(row)
    if code != 0:
        name = field_name(core.FIELDS, offset)
        number, key = reader.line_of.get(offset, (None, None))
        where = f"line {number} ({key})" if number else "a line not written (its default)"
        raise ValueError(f"{where}: {name} = {int(row[offset])}: {core.REASONS[code]}")
    return row
