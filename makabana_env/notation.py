"""Maka Bana in words: actions by name, positions as text, and read-only views of a state row.

* ``describe_action(action, state=None)`` / ``parse_action(text, state=None)``: an action's name and
  back.  Without a state the name depends on the number alone; with one, Mao's decisions that depend
  on the position read in its words ("denounce Blue", "build on Azzura-Rock-Flower", "keep Fish in
  hand").  ``parse_action`` takes either form, in any case, surrounding spaces ignored.
* ``to_text(state)`` / ``from_text(text)``: the position notation of ``RULES.md`` ("Position
  notation"), ``key: value`` lines holding the whole row, hidden information and the generator
  included.  ``from_text`` validates the row and names the line of an entry the validator refuses.
* ``spot_owners``, ``colour_to_act``, ``colour_players``: what tests and agents used to read off the
  row's offsets.
"""
import difflib
from typing import NamedTuple

import numpy as np

from pacific_common import checked
from pacific_common.checked import is_integer

from . import core, kernels
from .board import CARD_NAMES, COLOUR_NAMES, NUM_SPOTS, SPOT_NAMES

SHOWN_NAMES = ("beach", "area", "theme")
PHASE_NAMES = ("project", "tiki", "over", "denunciation", "payback", "repaint offer", "execution")
STATUS_NAMES = ("running", "terminated", "truncated")
VARIANT_NAMES = ("haapii", "mao")
CASE_NAMES = ("none", "paid back", "not minding his business")
GAME_NAME = "Maka Bana"


# ---------------------------------------------------------------------------------------------------
# Actions by name
def _plain_name(action):
    """The name of an action without a position: a function of the number alone."""
    if action < kernels.TAKE_BACK_BASE:
        return f"construct {SPOT_NAMES[action // 3]} showing the {SHOWN_NAMES[action % 3]}"
    if action < kernels.TIKI_BASE:
        a = action - kernels.TAKE_BACK_BASE
        return f"take back {SPOT_NAMES[a // 3]} showing paint and the {SHOWN_NAMES[a % 3]}"
    if action < kernels.NUM_ACTIONS:
        return f"tiki on {SPOT_NAMES[action - kernels.TIKI_BASE]}"
    if action < kernels.MAO_ADD_BASE:
        return f"project: show {CARD_NAMES[action - kernels.MAO_TOP_BASE]} on top"
    if action < kernels.MAO_KEEP:
        return f"project: add {CARD_NAMES[action - kernels.MAO_ADD_BASE]}, hidden"
    if action == kernels.MAO_KEEP:
        return "project: keep the card asked in hand"
    if action < kernels.MAO_PASS:
        k = action - kernels.MAO_DENOUNCE_BASE + 1
        return f"denounce the colour {k} seat{'s' if k > 1 else ''} clockwise"
    if action == kernels.MAO_PASS:
        return "do not denounce"
    if action < kernels.MAO_STOP:
        return f"spot {SPOT_NAMES[action - kernels.MAO_SPOT_BASE]} (build, take back or repaint there)"
    return "stop / decline"


def _name_in(action, state):
    """The name of an action in a Mao position's words, where the position gives them."""
    phase = int(state[kernels.PHASE])
    colour = int(state[kernels.TO_ACT])
    if colour < 0 or action < kernels.NUM_ACTIONS:
        return _plain_name(action)
    if action == kernels.MAO_KEEP and phase == kernels.PHASE_PROJECT:
        card = kernels.asked_card(state, colour)
        if card >= 0:
            return f"project: keep {CARD_NAMES[card]} in hand"
    if kernels.MAO_DENOUNCE_BASE <= action < kernels.MAO_PASS:
        n = int(state[kernels.NUM_COLOURS])
        k = action - kernels.MAO_DENOUNCE_BASE + 1
        if k < n:
            return f"denounce {COLOUR_NAMES[(colour + k) % n]}"
    if kernels.MAO_SPOT_BASE <= action < kernels.MAO_STOP:
        spot = action - kernels.MAO_SPOT_BASE
        name = SPOT_NAMES[spot]
        if phase == kernels.PHASE_EXECUTE:
            return f"take back {name} (execution)" if state[kernels.HUT + spot] >= 0 else f"build on {name}"
        if phase == kernels.PHASE_PAYBACK:
            if state[kernels.PAINT_CASE] == kernels.CASE_PAID_BACK:
                return f"repaint {name} (payback)"
            return f"offer {name} for repaint"
        if phase == kernels.PHASE_REPAINT:
            return f"accept the repaint of {name}"
    if action == kernels.MAO_STOP:
        if phase == kernels.PHASE_EXECUTE:
            return "stop executing"
        if phase == kernels.PHASE_PAYBACK:
            return "decline the payback"
        if phase == kernels.PHASE_REPAINT:
            return "keep the paint card"
    return _plain_name(action)


_last_valid = [b""]


def _check(state):
    """``core.check_state``, skipped for the row checked last when it has not changed since: naming
    every action of a decision checks the same row hundreds of times."""
    if isinstance(state, np.ndarray) and state.dtype == np.int64 and state.shape == (kernels.STATE_SIZE,):
        content = state.tobytes()
        if content == _last_valid[0]:
            return
        core.check_state(state)
        _last_valid[0] = content
    else:
        core.check_state(state)


def _num_actions(state):
    return kernels.NUM_ACTIONS_OF_VARIANT[int(state[kernels.VARIANT])] if state is not None else kernels.NUM_ACTIONS_MAO


def describe_action(action, state=None):
    """A readable name for an action, e.g. ``'construct Azzura-Rock-Flower showing the beach'``.

    With a ``state`` (a valid row) the action is named in that position's words where they differ:
    Mao's denunciations name the colour, its spot actions say what happens there, its keep and stop
    actions say what is kept or stopped; an action beyond the state's variant is named as outside.
    ``parse_action`` reads every name back."""
    if state is not None:
        _check(state)
    action = checked.scalar(action)
    if not is_integer(action):   # a bool, a duration, a float ...
        return f"action {action!r}, not an integer"
    action = int(action)
    if not 0 <= action < _num_actions(state):
        return f"action {action}, outside 0 … {kernels.NUM_ACTIONS - 1} (Mao: … {kernels.NUM_ACTIONS_MAO - 1})"
    return _plain_name(action) if state is None else _name_in(action, state)


def _normal(text):
    return " ".join(str(text).split()).lower()


_PLAIN = {_normal(_plain_name(a)): a for a in range(kernels.NUM_ACTIONS_MAO)}
assert len(_PLAIN) == kernels.NUM_ACTIONS_MAO, "action names must be unique"


def parse_action(text, state=None):
    """The action a name stands for: any name ``describe_action`` writes, with or without the state,
    in any case, surrounding spaces ignored.  With a ``state`` the action must exist in its variant.
    An unknown name raises ``ValueError`` listing the closest names."""
    if not isinstance(text, str):
        raise ValueError(f"an action name must be a str, got {type(text).__name__}")
    key = _normal(text)
    names = _PLAIN
    if state is not None:
        _check(state)
        size = _num_actions(state)
        if key in _PLAIN and _PLAIN[key] < size:
            return _PLAIN[key]
        # only Mao's keep, denunciations, spot actions and stop have names that depend on the position
        names = {name: a for name, a in _PLAIN.items() if a < size}
        names.update({_normal(_name_in(a, state)): a for a in range(kernels.MAO_KEEP, size)})
    if key in names:
        return names[key]
    close = difflib.get_close_matches(key, list(names), n=5, cutoff=0.6)
    hint = ("closest: " + "; ".join(repr(c) for c in close)) if close else (
        "names look like 'construct Azzura-Rock-Flower showing the beach', 'take back Bikini-Sand-Fish "
        "showing paint and the theme', 'tiki on Coquito-Grass-Fish' and, in Mao, 'project: show Sand on "
        "top', 'project: add Fish, hidden', 'project: keep the card asked in hand', 'denounce the colour "
        "1 seat clockwise', 'do not denounce', 'spot Diabolo-Rock-Fish (build, take back or repaint "
        "there)', 'stop / decline'")
    raise ValueError(f"unknown action name {text!r}; {hint}")


# ---------------------------------------------------------------------------------------------------
# Read-only views
class Colours(NamedTuple):
    """The colours of a game: their names and the player controlling each."""
    names: tuple
    players: tuple


def _read_only(values):
    array = np.array(values, dtype=np.int64)
    array.flags.writeable = False
    return array


def spot_owners(state):
    """The colour of the hut on each spot (index as ``board.SPOT_NAMES``), -1 where none: a read-only
    int64 array."""
    core.check_state(state)
    return _read_only(state[kernels.HUT:kernels.HUT + NUM_SPOTS])


def colour_to_act(state):
    """The colour whose decision is asked (0 Yellow … 4 White), None once the game is over.  With 2
    players it tells which of the player's two colours acts."""
    core.check_state(state)
    colour = int(state[kernels.TO_ACT])
    return None if colour < 0 else colour


def colour_players(state):
    """``Colours(names, players)``: each colour's name and the player controlling it (with 2 players
    ``player_0, player_1, player_0, player_1``)."""
    core.check_state(state)
    n = int(state[kernels.NUM_COLOURS])
    return Colours(COLOUR_NAMES[:n], tuple(int(kernels.owner(state, c)) for c in range(n)))


# ---------------------------------------------------------------------------------------------------
# Position notation (RULES.md, "Position notation")
def _cards_text(cards, paint):
    names = [CARD_NAMES[c] for c in range(kernels.PAINT_CARD) if (cards >> c) & 1]
    return ", ".join(names + ["Paint"] * paint) or "-"


_SPOT_INDEX = {name.lower(): s for s, name in enumerate(SPOT_NAMES)}


def _spots_text(bits):
    return ", ".join(SPOT_NAMES[s] for s in range(NUM_SPOTS) if (bits >> s) & 1) or "-"


def to_text(state):
    """The position as canonical notation text: every entry of the row, one ``key: value`` per line."""
    core.check_state(state)
    s = [int(v) for v in state]
    n = s[kernels.NUM_COLOURS]
    mao = s[kernels.VARIANT] == kernels.VARIANT_MAO
    colour = lambda c: "-" if c < 0 else COLOUR_NAMES[c]  # noqa: E731
    lines = [
        f"game: {GAME_NAME}",
        f"variant: {VARIANT_NAMES[s[kernels.VARIANT]]}",
        f"players: {s[kernels.NUM_PLAYERS]}",
        f"max_turns: {s[kernels.MAX_TURNS]}",
        f"seed: {s[kernels.SEED]}",
        f"rng: {s[kernels.RNG]}",
        f"status: {STATUS_NAMES[s[kernels.STATUS]]}",
        f"season: {s[kernels.SEASON]}",
        f"last season: {'yes' if s[kernels.LAST_SEASON] else 'no'}",
        f"first: {colour(s[kernels.FIRST])}",
        f"phase: {PHASE_NAMES[s[kernels.PHASE]]}",
        f"to act: {colour(s[kernels.TO_ACT])}",
        f"decided: {s[kernels.DECIDED]}",
    ]
    if mao:
        aata, vaea = s[kernels.DENOUNCER], s[kernels.DENOUNCED]
        lines += [
            f"denunciation: {'-' if aata < 0 else f'{colour(aata)} denounced {colour(vaea)}'}",
            f"paint case: {CASE_NAMES[s[kernels.PAINT_CASE]]}",
            f"offered: {'-' if s[kernels.OFFERED] < 0 else SPOT_NAMES[s[kernels.OFFERED]]}",
            f"executed: {s[kernels.EXECUTED]}",
            f"paint left: {s[kernels.PAINT_LEFT]}",
        ]
    for c in range(n):
        name = COLOUR_NAMES[c]
        tiki = [SPOT_NAMES[t] for t in range(NUM_SPOTS) if s[kernels.TIKI + t] == c]
        lines += [
            f"{name} huts: {_spots_text(sum(1 << t for t in range(NUM_SPOTS) if s[kernels.HUT + t] == c))}",
            f"{name} reserve: {s[kernels.RESERVE + c]}",
            f"{name} paints: {s[kernels.PAINTS + c]}",
            f"{name} tiki: {tiki[0] if tiki else '-'}",
        ]
        if not mao:
            kind = s[kernels.PROJECT_KIND + c]
            project = "-" if kind < 0 else _plain_name(
                kind * kernels.TAKE_BACK_BASE + 3 * s[kernels.PROJECT_SPOT + c] + s[kernels.PROJECT_SHOWN + c])
            last = s[kernels.LAST_KIND + c]
            lines += [f"{name} project: {project}",
                      f"{name} last project: " + ("-" if last < 0 else
                                                  f"{'construct' if last == kernels.CONSTRUCT else 'take back'} "
                                                  f"{SPOT_NAMES[s[kernels.LAST_SPOT + c]]}, "
                                                  f"{'built' if s[kernels.LAST_SUCCESS + c] else 'failed'}")]
        else:
            top = s[kernels.PROJECT_TOP + c]
            project = "-" if top < 0 else (
                f"{'ready' if s[kernels.PROJECT_KIND + c] == kernels.MAO_PROJECT else 'choosing'}; top {CARD_NAMES[top]}; "
                f"cards {_cards_text(s[kernels.PROJECT_CARDS + c], s[kernels.PROJECT_PAINT + c])}; "
                f"asked {s[kernels.PROJECT_NEXT + c]}")
            marks = [word for word, entry in (("passed", kernels.PASSED), ("eliminated", kernels.ELIMINATED),
                                              ("revealed", kernels.REVEALED_NOW)) if s[entry + c]]
            lines += [f"{name} project: {project}",
                      f"{name} marks: {', '.join(marks) or '-'}",
                      f"{name} last project: cards {_cards_text(s[kernels.LAST_CARDS + c], s[kernels.LAST_PAINT + c])}; "
                      f"done {_spots_text(s[kernels.DONE_SPOTS + c])}"]
        lines.append(f"{name} score: {s[kernels.SCORE + c]}")
    return "\n".join(lines) + "\n"


class _Reader:
    """Reads notation lines into a row, remembering which line set each entry."""

    def __init__(self, text):
        if not isinstance(text, str):
            raise ValueError(f"position notation must be a str, got {type(text).__name__}")
        self.lines = {}   # key (normalised) -> (line number, key as written, value)
        entries = []
        for number, line in enumerate(text.splitlines(), 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            key, colon, value = line.partition(":")
            if not colon:
                raise ValueError(f"line {number}: expected 'key: value', got {line!r}")
            entries.append((number, key.strip(), value.strip()))
        # the game first: another game's text has other keys, and would be refused for one of them
        game = next(((number, value) for number, key, value in entries if _normal(key) == "game"), None)
        if game is None:
            raise ValueError(f"line 'game: {GAME_NAME}' missing")
        if _normal(game[1]) != GAME_NAME.lower():
            raise ValueError(f"line {game[0]} (game): {checked.another_game(game[1], 'makabana')}")
        for number, key, value in entries:
            normal = _normal(key)
            if normal in self.lines:
                raise ValueError(f"line {number} ({key}): repeats line {self.lines[normal][0]}")
            self.lines[normal] = (number, key, value)
        self.source = {}  # offset -> (line number, key)
        self.used = set()

    def get(self, key):
        """The value of a line, None if the line is omitted."""
        self.used.add(key)
        return self.lines[key][2] if key in self.lines else None

    def fail(self, key, message):
        number, written, value = self.lines[key]
        raise ValueError(f"line {number} ({written}): {message}, got {value!r}")

    def set(self, row, offset, value, key):
        row[offset] = value
        if key in self.lines:
            self.source[offset] = self.lines[key][:2]

    def integer(self, key, low=-(2 ** 63), high=2 ** 63 - 1):
        value = self.get(key)
        if not checked.is_decimal(value):
            self.fail(key, "expected an integer")
        number = int(value)
        if not low <= number <= high:
            self.fail(key, f"expected an integer from {low} to {high}")
        return number

    def choice(self, key, names):
        value = _normal(self.get(key))
        for i, name in enumerate(names):
            if value == name.lower():
                return i
        self.fail(key, f"expected one of {', '.join(names)}")

    def colour(self, key, n, none=False):
        value = _normal(self.get(key))
        if none and value == "-":
            return -1
        for c in range(n):
            if value == COLOUR_NAMES[c].lower():
                return c
        self.fail(key, f"expected a colour of the game ({', '.join(COLOUR_NAMES[:n])}" + (" or -)" if none else ")"))

    def names(self, key, table, what):
        """A comma-separated list of names from ``table`` ('-' for none), as indices."""
        value = self.get(key)
        if _normal(value) == "-":
            return []
        lookup = {name.lower(): i for i, name in enumerate(table)}
        out = []
        for item in value.split(","):
            item = _normal(item)
            if item not in lookup:
                close = difflib.get_close_matches(item, list(lookup), n=3)
                self.fail(key, f"unknown {what} {item!r}" + (f" (closest: {', '.join(close)})" if close else ""))
            out.append(lookup[item])
        return out

    def spot(self, key, none=True):
        found = self.names(key, SPOT_NAMES, "spot")
        if len(found) > 1 or (not found and not none):
            self.fail(key, "expected one spot" + (" or -" if none else ""))
        return found[0] if found else -1


def _card_set(reader, key, text):
    """``cards A, B, Paint`` -> (bit set, paint cards)."""
    if not text.lower().startswith("cards "):
        reader.fail(key, "expected 'cards <card names or ->'")
    bits, paint = 0, 0
    for name in ("" if text[6:].strip() == "-" else text[6:]).split(","):
        name = _normal(name)
        if not name:
            continue
        matches = [i for i, card in enumerate(CARD_NAMES) if card.lower() == name]
        if not matches:
            reader.fail(key, f"unknown card {name!r} (cards: {', '.join(CARD_NAMES)})")
        if matches[0] == kernels.PAINT_CARD:
            paint += 1
        elif (bits >> matches[0]) & 1:
            reader.fail(key, f"card {CARD_NAMES[matches[0]]} named twice")
        else:
            bits |= 1 << matches[0]
    return bits, paint


@checked.reads_text
def from_text(text):
    """The state row (int64) a notation text describes; ``ValueError`` naming the line for a text
    that cannot be read or a position the validator refuses.  Lines may be omitted where RULES.md
    gives a default (the start of a game, reserves from the board, scores from the board)."""
    r = _Reader(text)
    r.get("game")   # a line read (the reader checked it, before the other keys), so no unknown key
    if r.get("players") is None:
        raise ValueError("line 'players: <2 to 5>' missing")
    players = r.integer("players", 2, 5)
    variant = r.choice("variant", VARIANT_NAMES) if r.get("variant") is not None else kernels.VARIANT_HAAPII
    max_turns = r.integer("max_turns", 1) if r.get("max_turns") is not None else 100
    seed = r.integer("seed", 0) if r.get("seed") is not None else 0
    row = np.zeros(kernels.STATE_SIZE, dtype=np.int64)
    kernels.init(row, players, variant, max_turns, seed)   # every omitted line keeps the start of a game
    for key, offset in (("players", kernels.NUM_PLAYERS), ("variant", kernels.VARIANT),
                        ("max_turns", kernels.MAX_TURNS), ("seed", kernels.SEED)):
        r.set(row, offset, row[offset], key)
    n = int(row[kernels.NUM_COLOURS])
    mao = variant == kernels.VARIANT_MAO

    def line(key, offset, read):
        if r.get(key) is not None:
            r.set(row, offset, read(key), key)

    line("rng", kernels.RNG, r.integer)
    line("status", kernels.STATUS, lambda k: r.choice(k, STATUS_NAMES))
    line("season", kernels.SEASON, r.integer)
    line("last season", kernels.LAST_SEASON, lambda k: r.choice(k, ("no", "yes")))
    line("first", kernels.FIRST, lambda k: r.colour(k, n))
    line("phase", kernels.PHASE, lambda k: r.choice(k, PHASE_NAMES))
    line("decided", kernels.DECIDED, r.integer)
    if r.get("to act") is not None:
        line("to act", kernels.TO_ACT, lambda k: r.colour(k, n, none=True))
    elif row[kernels.STATUS] != kernels.STATUS_RUNNING:
        row[kernels.TO_ACT] = -1
    else:  # the colour DECIDED seats from the first player
        row[kernels.TO_ACT] = (int(row[kernels.FIRST]) + int(row[kernels.DECIDED])) % n   # not yet validated: no int64 overflow
    if mao:
        if r.get("denunciation") is not None and _normal(r.get("denunciation")) != "-":
            words = _normal(r.get("denunciation")).split(" denounced ")
            if len(words) != 2:
                r.fail("denunciation", "expected '<colour> denounced <colour>' or -")
            for word, offset in zip(words, (kernels.DENOUNCER, kernels.DENOUNCED)):
                matches = [c for c in range(n) if COLOUR_NAMES[c].lower() == word]
                if not matches:
                    r.fail("denunciation", f"unknown colour {word!r}")
                r.set(row, offset, matches[0], "denunciation")
        line("paint case", kernels.PAINT_CASE, lambda k: r.choice(k, CASE_NAMES))
        line("offered", kernels.OFFERED, r.spot)
        line("executed", kernels.EXECUTED, r.integer)
        line("paint left", kernels.PAINT_LEFT, r.integer)
    for c in range(n):
        name = COLOUR_NAMES[c].lower()
        key = f"{name} huts"
        if r.get(key) is not None:
            for spot in r.names(key, SPOT_NAMES, "spot"):
                if row[kernels.HUT + spot] >= 0:
                    r.fail(key, f"{SPOT_NAMES[spot]} already holds a hut")
                r.set(row, kernels.HUT + spot, c, key)
        key = f"{name} tiki"
        if r.get(key) is not None:
            spot = r.spot(key)
            if spot >= 0:
                if row[kernels.TIKI + spot] >= 0:   # the row holds one tiki per spot
                    r.fail(key, f"{SPOT_NAMES[spot]} already holds a tiki")
                r.set(row, kernels.TIKI + spot, c, key)
        line(f"{name} paints", kernels.PAINTS + c, r.integer)
        if not mao:
            key = f"{name} project"
            if r.get(key) is not None and _normal(r.get(key)) != "-":
                try:
                    action = parse_action(r.get(key))
                except ValueError:
                    action = -1
                if not 0 <= action < kernels.TIKI_BASE:
                    r.fail(key, "expected a project, e.g. 'construct Azzura-Rock-Flower showing the beach', or -")
                kind, rest = divmod(action, kernels.TAKE_BACK_BASE)
                r.set(row, kernels.PROJECT_KIND + c, kind, key)
                r.set(row, kernels.PROJECT_SPOT + c, rest // 3, key)
                r.set(row, kernels.PROJECT_SHOWN + c, rest % 3, key)
            key = f"{name} last project"
            if r.get(key) is not None and _normal(r.get(key)) != "-":
                what, _, outcome = _normal(r.get(key)).rpartition(", ")
                kind, spot = -1, -1
                for prefix, k in (("construct ", kernels.CONSTRUCT), ("take back ", kernels.TAKE_BACK)):
                    if what.startswith(prefix):
                        kind, spot = k, _SPOT_INDEX.get(what[len(prefix):], -1)
                if kind < 0 or spot < 0 or outcome not in ("built", "failed"):
                    r.fail(key, "expected '<construct|take back> <spot>, <built|failed>' or -")
                r.set(row, kernels.LAST_KIND + c, kind, key)
                r.set(row, kernels.LAST_SPOT + c, spot, key)
                r.set(row, kernels.LAST_SUCCESS + c, 1 if outcome == "built" else 0, key)
        else:
            _read_mao_colour(r, row, c, name)
    # reserves and scores follow from the board when their lines are omitted
    for c in range(n):
        on_board = int(np.count_nonzero(row[kernels.HUT:kernels.HUT + NUM_SPOTS] == c))
        row[kernels.RESERVE + c] = max(kernels.HUTS_PER_COLOUR - on_board, 0)
        line(f"{COLOUR_NAMES[c].lower()} reserve", kernels.RESERVE + c, r.integer)
    for c in range(n):
        if row[kernels.STATUS] != kernels.STATUS_RUNNING and 0 <= row[kernels.PHASE] < kernels.NUM_PHASES:
            row[kernels.SCORE + c] = kernels.colour_score(row, c)
        line(f"{COLOUR_NAMES[c].lower()} score", kernels.SCORE + c, r.integer)
    unknown = [key for key in r.lines if key not in r.used]
    if unknown:
        number, written, _ = r.lines[unknown[0]]
        raise ValueError(f"line {number} ({written}): unknown key for a {n}-colour {VARIANT_NAMES[variant]} "
                         f"game; keys are listed in makabana_env/RULES.md, 'Position notation'")
    code, offset = kernels.validate(row)
    if code != kernels.VALID:
        error = core.checked.invalid_state(kernels.FIELDS, kernels.REASONS, row, code, offset)
        if offset in r.source:
            number, written = r.source[offset]
            raise ValueError(f"line {number} ({written}): {error}")
        raise ValueError(f"{error} (an entry no line sets: its default from the omitted lines)")
    return row


def _read_mao_colour(r, row, c, name):
    key = f"{name} project"
    if r.get(key) is not None and _normal(r.get(key)) != "-":
        parts = [" ".join(p.split()) for p in r.get(key).split(";")]   # tabs and no-break spaces as spaces
        if len(parts) != 4 or _normal(parts[0]) not in ("ready", "choosing") or not parts[1].lower().startswith(
                "top ") or not parts[3].lower().startswith("asked "):
            r.fail(key, "expected '<ready|choosing>; top <card>; cards <cards>; asked <number>' or -")
        top = [i for i, card in enumerate(CARD_NAMES) if card.lower() == _normal(parts[1][4:])]
        if not top:
            r.fail(key, f"unknown card {parts[1][4:]!r}")
        bits, paint = _card_set(r, key, parts[2])
        asked = parts[3][6:].strip()
        if not checked.is_decimal(asked) or not -2**63 <= int(asked) < 2**63:
            r.fail(key, f"expected 'asked <number>', a number from {-2**63} to {2**63 - 1}")
        asked = int(asked)
        r.set(row, kernels.PROJECT_KIND + c, kernels.MAO_PROJECT if _normal(parts[0]) == "ready" else -1, key)
        r.set(row, kernels.PROJECT_TOP + c, top[0], key)
        r.set(row, kernels.PROJECT_CARDS + c, bits, key)
        r.set(row, kernels.PROJECT_PAINT + c, paint, key)
        r.set(row, kernels.PROJECT_NEXT + c, asked, key)
    key = f"{name} marks"
    if r.get(key) is not None:
        words = ("passed", "eliminated", "revealed")
        for i in r.names(key, words, "mark"):
            r.set(row, (kernels.PASSED, kernels.ELIMINATED, kernels.REVEALED_NOW)[i] + c, 1, key)
    key = f"{name} last project"
    if r.get(key) is not None:
        parts = [p.strip() for p in r.get(key).split(";")]
        if len(parts) != 2 or not parts[1].lower().startswith("done "):
            r.fail(key, "expected 'cards <cards>; done <spots>'")
        bits, paint = _card_set(r, key, parts[0])
        done = 0
        if _normal(parts[1][5:]) != "-":
            for item in parts[1][5:].split(","):
                matches = [s for s in range(NUM_SPOTS) if SPOT_NAMES[s].lower() == _normal(item)]
                if not matches:
                    r.fail(key, f"unknown spot {item.strip()!r}")
                done |= 1 << matches[0]
        r.set(row, kernels.LAST_CARDS + c, bits, key)
        r.set(row, kernels.LAST_PAINT + c, paint, key)
        r.set(row, kernels.DONE_SPOTS + c, done, key)
