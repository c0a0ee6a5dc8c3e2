"""Make Make in words: action names and a readable position notation (RULES.md, Notation).

- ``describe_action(action, state=None)`` names an action, e.g. ``"place 3 tokens and the chief on
  Sacred-2"``; ``parse_action(text, state=None)`` is its inverse.
- ``to_text(state)`` writes a whole position -- options, generator, board, supplies and the last
  action of every clan -- as ``key: value`` lines; ``from_text(text)`` reads it back into the int64 row,
  entry for entry, and validates it with the rules' validator.
- ``last_actions(state)``: what every clan did last, passes included (a read-only view).

Make Make has one variant and its action names do not depend on the position; ``state``, where a
function takes one, is checked (``core.check_state``) so that a wrong row is caught, and is otherwise
not needed.
"""
import difflib
from typing import NamedTuple, Optional

import numpy as np

from pacific_common import checked
from pacific_common.checked import is_integer
from pacific_common.rng import seed_rng

from . import core, kernels
from .board import CLAN_NAMES, GROUND_INDEX, GROUND_NAMES, TERRITORY_INDEX, TERRITORY_NAMES

GAME_NAME = "Make Make"
VARIANT_NAMES = ("standard",)
STATUS_NAMES = ("running", "terminated", "truncated")
PHASE_NAMES = ("dominance", "Moai", "ceremony", "over")
DEFAULT_MAX_TURNS = 1000   # raw_env's default
NONE = "none"
PASS = "pass"


# -- actions ------------------------------------------------------------------------------------------------
def _action_name(action):
    if action < kernels.WITHDRAW_BASE:
        t, r = divmod(action, kernels.PLACE_CHOICES)
        k = r // 2 + 1
        chief = " and the chief" if r % 2 else ""
        return f"place {k} token{'s' if k > 1 else ''}{chief} on {TERRITORY_NAMES[t]}"
    if action < kernels.MOAI_BASE:
        return f"withdraw from {TERRITORY_NAMES[action - kernels.WITHDRAW_BASE]}"
    if action < kernels.CEREMONY_BASE:
        return f"build a Moai on {TERRITORY_NAMES[action - kernels.MOAI_BASE]}"
    return f"start a ceremony on {GROUND_NAMES[action - kernels.CEREMONY_BASE]}"


ACTION_NAMES = tuple(_action_name(a) for a in range(kernels.NUM_ACTIONS))
_ACTION_INDEX = {name.lower(): a for a, name in enumerate(ACTION_NAMES)}
ACTION_FORMS = ("place K token(s) [and the chief] on TERRITORY", "withdraw from TERRITORY",
                "build a Moai on TERRITORY", "start a ceremony on GROUND")


def _check_optional_state(state):
    if state is not None:
        core.check_state(state)


def describe_action(action, state=None):
    """A readable name for an action, e.g. ``"place 3 tokens and the chief on Sacred-2"``.  Anything
    else is described as what it is, an integer outside 0 … 911 or not an integer, as in the other two
    games: error messages name the actions they refuse with it."""
    _check_optional_state(state)
    action = checked.scalar(action)
    if not is_integer(action):   # a bool, a duration, a float ...
        return f"action {action!r}, not an integer"
    action = int(action)
    if not 0 <= action < kernels.NUM_ACTIONS:
        return f"action {action}, outside 0 … {kernels.NUM_ACTIONS - 1}"
    return ACTION_NAMES[action]


def parse_action(text, state=None):
    """The action ``describe_action`` names ``text`` (any case, spaces around ignored)."""
    if not isinstance(text, str):
        raise ValueError(f"text must be a str naming an action, got {type(text).__name__}")
    _check_optional_state(state)
    key = " ".join(text.split()).lower()
    action = _ACTION_INDEX.get(key)
    if action is None:
        close = difflib.get_close_matches(key, _ACTION_INDEX, n=4, cutoff=0.6)
        hint = ("; closest: " + ", ".join(repr(ACTION_NAMES[_ACTION_INDEX[c]]) for c in close)) if close else ""
        raise ValueError(f"unknown action {text!r}: an action is written {' | '.join(ACTION_FORMS)}, with K "
                         f"1 … 11, a territory such as Sacred-2, Inner-5 or Coast-14 and a ground Ground-1 … "
                         f"Ground-{kernels.NUM_GROUNDS}{hint}")
    return action


# -- last actions ---------------------------------------------------------------------------------------------
class LastAction(NamedTuple):
    """What a clan did last: ``action`` (None when it passed or has not played), ``passed``, and
    ``name``: the action's name, ``"pass"`` or ``"none"``."""
    clan: int
    action: Optional[int]
    passed: bool
    name: str


def last_actions(state):
    """The last action of every clan of the game, passes included, as a tuple of ``LastAction`` (clan
    ``c`` is ``player_c``).  Passes are public: this is what every player may know."""
    row = _row(state)
    result = []
    for c in range(int(row[kernels.NUM_PLAYERS])):
        last = int(row[kernels.LAST_ACTION + c])
        if last == kernels.PASSED:
            result.append(LastAction(c, None, True, PASS))
        elif last == kernels.NO_ACTION:
            result.append(LastAction(c, None, False, NONE))
        else:
            result.append(LastAction(c, last, False, ACTION_NAMES[last]))
    return tuple(result)


def _row(state):
    core.check_state(state)
    return np.asarray(state, dtype=np.int64)


# -- positions ---------------------------------------------------------------------------------------------------
KEYS = ("game", "players", "variant", "max_turns", "seed", "rng", "status", "phase", "to_act", "turn", "amulet",
        "winner", "moai_left", "moai", "territories", "ceremonies", "token_supply", "manu_supply", "last")
REQUIRED = ("game", "players")


def _clan_name(c):
    return NONE if c < 0 else CLAN_NAMES[c]


def _listing(items):
    return ", ".join(items) if items else NONE


def to_text(state):
    """The position as ``key: value`` lines (RULES.md, Notation): everything in the row, hidden or not."""
    s = _row(state)
    p = int(s[kernels.NUM_PLAYERS])
    clans = range(p)
    territories = []
    for t in range(kernels.NUM_TERRITORIES):
        owner = int(s[kernels.OWNER + t])
        if owner >= 0:
            chief = " chief" if s[kernels.CHIEF_AT + owner] == t else ""
            territories.append(f"{TERRITORY_NAMES[t]} {CLAN_NAMES[owner]} {int(s[kernels.TOKENS + t])}{chief}")
    ceremonies = [f"{GROUND_NAMES[g]} {CLAN_NAMES[int(s[kernels.GROUND + g])]}"
                  for g in range(kernels.NUM_GROUNDS) if s[kernels.GROUND + g] >= 0]
    moai = [TERRITORY_NAMES[t] for t in range(kernels.NUM_TERRITORIES) if s[kernels.MOAI + t] == 1]
    values = {
        "game": GAME_NAME,
        "players": str(p),
        "variant": VARIANT_NAMES[int(s[kernels.VARIANT])],
        "max_turns": str(int(s[kernels.MAX_TURNS])),
        "seed": str(int(s[kernels.SEED])),
        "rng": str(int(s[kernels.RNG])),
        "status": STATUS_NAMES[int(s[kernels.STATUS])],
        "phase": PHASE_NAMES[int(s[kernels.PHASE])],
        "to_act": CLAN_NAMES[int(s[kernels.TO_ACT])],
        "turn": str(int(s[kernels.TURN])),
        "amulet": _clan_name(int(s[kernels.AMULET])),
        "winner": _clan_name(int(s[kernels.WINNER])),
        "moai_left": str(int(s[kernels.MOAI_LEFT])),
        "moai": _listing(moai),
        "territories": _listing(territories),
        "ceremonies": _listing(ceremonies),
        "token_supply": ", ".join(f"{CLAN_NAMES[c]} {int(s[kernels.TOKEN_SUPPLY + c])}" for c in clans),
        "manu_supply": ", ".join(f"{CLAN_NAMES[c]} {int(s[kernels.MANU_SUPPLY + c])}" for c in clans),
        "last": ", ".join(f"{CLAN_NAMES[last.clan]} {last.name}" for last in last_actions(s)),
    }
    return "".join(f"{key}: {values[key]}\n" for key in KEYS)


class _Reader:
    """Reads the lines of a position into a row; every message names the line being read."""

    def __init__(self, text):
        if not isinstance(text, str):
            raise ValueError(f"text must be a str holding a position, got {type(text).__name__}")
        self.lines = {}
        entries = []
        for number, line in enumerate(text.splitlines(), 1):
            stripped = line.strip()
            if not stripped or stripped.startswith("#"):
                continue
            key, colon, value = stripped.partition(":")
            if not colon:
                raise ValueError(f"line {number}: {stripped!r} is not a 'key: value' line")
            entries.append((number, key.strip().lower(), value.strip()))
        # the game and the players first: another game's text, or one missing them, would be refused
        # for a key that is not the trouble
        game = next(((number, value) for number, key, value in entries if key == "game"), None)
        if game is not None and " ".join(game[1].split()).lower() not in (GAME_NAME.lower(), "makemake"):
            raise ValueError(f"line {game[0]} (game): {checked.another_game(game[1], 'makemake')}")
        written = {key for _, key, _ in entries}
        for key in REQUIRED:
            if key not in written:
                raise ValueError(f"the line '{key}: …' is missing; a position needs at least "
                                 f"{' and '.join(REQUIRED)}")
        for number, key, value in entries:
            if key not in KEYS:
                close = difflib.get_close_matches(key, KEYS, n=1)
                raise ValueError(f"line {number} ({key}): unknown key" + (f"; did you mean {close[0]!r}?" if close
                                 else f"; the keys are {', '.join(KEYS)}"))
            if key in self.lines:
                raise ValueError(f"line {number} ({key}): {key} is given twice (first on line {self.lines[key][0]})")
            self.lines[key] = (number, value)
        self.row = np.zeros(kernels.STATE_SIZE, np.int64)
        self.key = None       # the line being read, for messages

    def where(self, key=None):
        key = key or self.key
        if key in self.lines:
            return f"line {self.lines[key][0]} ({key})"
        source = _FOLLOWS_FROM.get(key)
        if source in self.lines:
            return f"line {self.lines[source][0]} ({source}; the omitted {key} follows from it)"
        return f"{key} (line omitted, default used)"

    def fail(self, message):
        raise ValueError(f"{self.where()}: {message}")

    def value(self, key):
        """The text of line ``key``, or None when the line is omitted."""
        self.key = key
        return self.lines[key][1] if key in self.lines else None

    def set(self, offset, value):
        self.row[offset] = value

    def integer(self, text, low, high, what):
        if not checked.is_decimal(text):
            self.fail(f"{what} must be an integer, got {text!r}")
        number = int(text)
        if not low <= number <= high:
            self.fail(f"{what} must be {low} … {high}, got {number}")
        return number

    def choice(self, text, names, what):
        lowered = [n.lower() for n in names]
        if text.lower() not in lowered:
            self.fail(f"{what} must be one of {', '.join(names)}, got {text!r}")
        return lowered.index(text.lower())

    def clan(self, text, players, allow_none=False):
        names = CLAN_NAMES[:players] + ((NONE,) if allow_none else ())
        index = self.choice(text, names, "a clan")
        return -1 if allow_none and index == players else index

    def items(self, text):
        """The comma-separated items of a list line, each split into words; an item named twice (by its
        first word) is an error."""
        items = [] if text.lower() == NONE else [item.split() for item in text.split(",")]
        seen = set()
        for words in items:
            if not words:
                self.fail(f"an item is empty; items are separated by single commas, got {text!r}")
            name = words[0].lower()
            if name in seen:
                self.fail(f"{words[0]} is listed twice")
            seen.add(name)
        return items

    def place_name(self, word, index, what):
        matches = [name for name in index if name.lower() == word.lower()]
        if not matches:
            close = difflib.get_close_matches(word, index, n=2)
            self.fail(f"unknown {what} {word!r}" + (f"; did you mean {' or '.join(close)}?" if close else ""))
        return index[matches[0]]


@checked.reads_text
def from_text(text):
    """The int64 row of a position written as ``to_text`` writes it; lines may be omitted where RULES.md
    (Notation) gives a default.  A wrong text is a ``ValueError`` naming the line and the field."""
    r = _Reader(text)
    k = kernels
    p = r.integer(r.value("players"), 2, k.MAX_CLANS, "players")
    r.set(k.NUM_PLAYERS, p)
    text_of = r.value("variant")
    r.set(k.VARIANT, 0 if text_of is None else r.choice(text_of, VARIANT_NAMES, "variant"))
    text_of = r.value("max_turns")
    r.set(k.MAX_TURNS, DEFAULT_MAX_TURNS if text_of is None else r.integer(text_of, 1, 2**63 - 1, "max_turns"))
    text_of = r.value("seed")
    seed = 0 if text_of is None else r.integer(text_of, 0, 2**63 - 1, "seed")
    r.set(k.SEED, seed)
    text_of = r.value("rng")
    r.set(k.RNG, seed_rng(seed) if text_of is None else r.integer(text_of, -2**63, 2**63 - 1, "rng"))
    text_of = r.value("status")
    status = k.STATUS_RUNNING if text_of is None else r.choice(text_of, STATUS_NAMES, "status")
    r.set(k.STATUS, status)
    text_of = r.value("phase")
    default_phase = k.PHASE_DOMINANCE if status == k.STATUS_RUNNING else k.PHASE_OVER
    r.set(k.PHASE, default_phase if text_of is None else r.choice(text_of, PHASE_NAMES, "phase"))
    to_act_text, turn_text = r.value("to_act"), r.value("turn")
    r.key = "to_act"
    to_act = None if to_act_text is None else r.clan(to_act_text, p)
    r.key = "turn"
    turn = None if turn_text is None else r.integer(turn_text, 0, 2**63 - 1, "turn")
    # clans play in turn from Red: either line follows from the other (the first round by default)
    if turn is None:
        turn = 0 if to_act is None else to_act
    if to_act is None:
        r.key = "to_act"
        to_act = (turn - 1 if status == k.STATUS_TRUNCATED else turn) % p
    r.key = "to_act"
    r.set(k.TO_ACT, to_act)
    r.key = "turn"
    r.set(k.TURN, turn)

    for t in range(k.NUM_TERRITORIES):
        r.row[k.OWNER + t] = -1
    for g in range(k.NUM_GROUNDS):
        r.row[k.GROUND + g] = -1
    for c in range(k.MAX_CLANS):
        r.row[k.CHIEF_AT + c] = -1
        r.row[k.LAST_ACTION + c] = k.NO_ACTION
    r.row[k.AMULET] = r.row[k.WINNER] = -1

    text_of = r.value("moai")
    for words in r.items(text_of or NONE):
        if len(words) != 1:
            r.fail(f"a Moai is named by its territory, e.g. Inner-3; got {' '.join(words)!r}")
        r.set(k.MOAI + r.place_name(words[0], TERRITORY_INDEX, "territory"), 1)
    text_of = r.value("territories")
    for words in r.items(text_of or NONE):
        if not 2 <= len(words) <= 4 or (len(words) == 4 and words[3].lower() != "chief"):
            r.fail(f"a territory is written 'TERRITORY CLAN [TOKENS] [chief]', e.g. 'Sacred-1 Red 2 chief'; "
                   f"got {' '.join(words)!r}")
        t = r.place_name(words[0], TERRITORY_INDEX, "territory")
        clan = r.clan(words[1], p)
        chief = words[-1].lower() == "chief"
        count = words[2:len(words) - chief]
        r.set(k.OWNER + t, clan)
        r.set(k.TOKENS + t, r.integer(count[0], 1, k.TOKENS_PER_CLAN, "tokens") if count else 1)
        if chief:
            if r.row[k.CHIEF_AT + clan] >= 0:
                r.fail(f"{CLAN_NAMES[clan]}'s chief stands on two territories")
            r.set(k.CHIEF_AT + clan, t)
    text_of = r.value("ceremonies")
    for words in r.items(text_of or NONE):
        if len(words) != 2:
            r.fail(f"a ceremony is written 'GROUND CLAN', e.g. 'Ground-19 Blue'; got {' '.join(words)!r}")
        r.set(k.GROUND + r.place_name(words[0], GROUND_INDEX, "ground"), r.clan(words[1], p))

    # what follows from the board unless written: supplies, Moai left, the amulet and the winner
    per_clan = {"token_supply": (k.TOKEN_SUPPLY, k.TOKENS_PER_CLAN), "manu_supply": (k.MANU_SUPPLY, 5)}
    for key, (base, pieces) in per_clan.items():
        text_of = r.value(key)
        if text_of is None:
            for c in range(p):
                if key == "token_supply":
                    on_board = sum(int(r.row[k.TOKENS + t]) for t in range(k.NUM_TERRITORIES) if r.row[k.OWNER + t] == c)
                else:
                    on_board = int(np.count_nonzero(r.row[k.GROUND:k.GROUND + k.NUM_GROUNDS] == c))
                r.set(base + c, pieces - on_board)
            continue
        written = r.items(text_of)
        if sorted(r.clan(words[0], p) for words in written) != list(range(p)) or any(
                len(words) != 2 for words in written):
            r.fail(f"{key} is written 'CLAN COUNT' once for every clan of the game, e.g. "
                   f"'{', '.join(f'{CLAN_NAMES[c]} {pieces}' for c in range(p))}'")
        for words in written:
            r.set(base + r.clan(words[0], p), r.integer(words[1], 0, pieces, key))
    text_of = r.value("moai_left")
    built = int(r.row[k.MOAI:k.MOAI + k.NUM_TERRITORIES].sum())
    r.set(k.MOAI_LEFT, k.NUM_MOAI - built if text_of is None else r.integer(text_of, 0, k.NUM_MOAI, "moai_left"))
    text_of = r.value("amulet")
    if text_of is None:
        counts = [int(np.count_nonzero(r.row[k.OWNER + k.SACRED] == c)) for c in range(p)]
        leaders = [c for c in range(p) if counts[c] == max(counts)]
        r.set(k.AMULET, leaders[0] if max(counts) >= 3 and len(leaders) == 1 else -1)
    else:
        r.set(k.AMULET, r.clan(text_of, p, allow_none=True))
    text_of = r.value("winner")
    if text_of is None:
        holder = int(r.row[k.AMULET])
        r.set(k.WINNER, holder if holder >= 0 and r.row[k.MANU_SUPPLY + holder] == 0 else -1)
    else:
        r.set(k.WINNER, r.clan(text_of, p, allow_none=True))
    text_of = r.value("last")
    for words in r.items(text_of or NONE):
        clan, what = r.clan(words[0], p), " ".join(words[1:])
        if what.lower() == PASS:
            r.set(k.LAST_ACTION + clan, k.PASSED)
        elif what.lower() == NONE:
            r.set(k.LAST_ACTION + clan, k.NO_ACTION)
        else:
            try:
                r.set(k.LAST_ACTION + clan, parse_action(what))
            except ValueError as error:
                r.fail(f"{CLAN_NAMES[clan]}'s last action must be 'pass', 'none' or an action: {error}")

    code, offset = kernels.validate(r.row)
    if code:
        field = checked.invalid_state(kernels.FIELDS, kernels.REASONS, r.row, code, offset)
        raise ValueError(f"{r.where(_KEY_OF[offset])}: {field}")
    return r.row


# the line an omitted line's default follows from, to name it in messages
_FOLLOWS_FROM = {"token_supply": "territories", "manu_supply": "ceremonies", "moai_left": "moai",
                 "amulet": "territories", "winner": "ceremonies", "to_act": "turn", "turn": "to_act", "rng": "seed",
                 "phase": "status"}

# the line that sets each entry of the row, to name it when the validator rejects the entry
_KEY_OF = {kernels.NUM_PLAYERS: "players", kernels.VARIANT: "variant", kernels.MAX_TURNS: "max_turns",
               kernels.SEED: "seed", kernels.RNG: "rng", kernels.STATUS: "status", kernels.PHASE: "phase",
               kernels.TO_ACT: "to_act", kernels.TURN: "turn", kernels.AMULET: "amulet", kernels.WINNER: "winner",
               kernels.MOAI_LEFT: "moai_left"}
_KEY_OF.update({kernels.OWNER + t: "territories" for t in range(kernels.NUM_TERRITORIES)})
_KEY_OF.update({kernels.TOKENS + t: "territories" for t in range(kernels.NUM_TERRITORIES)})
_KEY_OF.update({kernels.MOAI + t: "moai" for t in range(kernels.NUM_TERRITORIES)})
_KEY_OF.update({kernels.CHIEF_AT + c: "territories" for c in range(kernels.MAX_CLANS)})
_KEY_OF.update({kernels.GROUND + g: "ceremonies" for g in range(kernels.NUM_GROUNDS)})
_KEY_OF.update({kernels.TOKEN_SUPPLY + c: "token_supply" for c in range(kernels.MAX_CLANS)})
_KEY_OF.update({kernels.MANU_SUPPLY + c: "manu_supply" for c in range(kernels.MAX_CLANS)})
_KEY_OF.update({kernels.LAST_ACTION + c: "last" for c in range(kernels.MAX_CLANS)})
