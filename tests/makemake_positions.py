"""Small helpers that let the Make Make rules tests read like the rulebook.

Everything goes through the public API of ``makemake_env``: ``raw_env`` (``reset``, ``step``,
``observe``, ``state`` and ``set_state``) and the notation (``from_text``).  Crafted positions are
written in the notation (RULES.md, Notation), which fills in the supplies and checks that the rules can
reach the position: dominance tokens on the board + in supply = 11 per clan, Tangata Manu in
ceremonies + in supply = 5, the chief on its own territory or in supply, Moai built + Moai left = 12.

Clans are numbered as in the core (0 Red, 1 Blue, 2 Green, 3 Yellow); clan ``c`` is ``player_c``.
Territories and grounds are named as in ``makemake_env.board``: ``"Sacred-1"``, ``"Inner-3"``,
``"Coast-7"``, ``"Ground-12"``.
"""
import numpy as np

import makemake_env
from makemake_env import core
from makemake_env.board import (
    CLAN_NAMES, GROUND_INDEX, GROUND_NAMES, GROUND_TERRITORIES, NEIGHBOURS, NUM_GROUNDS, NUM_TERRITORIES, SACRED,
    TERRITORY_AXIAL, TERRITORY_GROUNDS, TERRITORY_INDEX, TERRITORY_NAMES,
)

RED, BLUE, GREEN, YELLOW = range(4)


# -- names and actions -------------------------------------------------------------------------------
def territory(name):
    return TERRITORY_INDEX[name]


def ground(name):
    return GROUND_INDEX[name]


def place(name, k, chief=False):
    """Dominance Phase a/b: place ``k`` tokens (and the chief) on the named territory."""
    assert k >= 1
    return 22 * territory(name) + 2 * (k - 1) + (1 if chief else 0)


def withdraw(name):
    """Dominance Phase c: withdraw from the named territory, leaving one token."""
    return 792 + territory(name)


def build_moai(name):
    """Ceremonial Phase a: build the next Moai on the named territory (asked only with a choice)."""
    return 828 + territory(name)


def ceremony(name):
    """Ceremonial Phase b: start a ceremony on the named ground (asked only when supply is short)."""
    return 864 + ground(name)


def grounds_of(*names):
    """Names of the grounds whose three territories are all among ``names``."""
    ts = {territory(n) for n in names}
    return sorted((GROUND_NAMES[g] for g in range(NUM_GROUNDS) if set(GROUND_TERRITORIES[g].tolist()) <= ts),
                  key=ground)


def corners(name):
    """Names of the grounds at the corners of a territory."""
    return [GROUND_NAMES[g] for g in TERRITORY_GROUNDS[territory(name)] if g >= 0]


def neighbours(name):
    return [TERRITORY_NAMES[u] for u in NEIGHBOURS[territory(name)] if u >= 0]


def hex_colour(name):
    """A proper 3-colouring of the hex grid: neighbouring territories never share a colour, so
    territories of one colour never enclose a ground."""
    q, r = TERRITORY_AXIAL[territory(name)].tolist()
    return (q - r) % 3


# -- games and positions -----------------------------------------------------------------------------
def new_game(num_players=4, seed=0, **options):
    env = makemake_env.raw_env(num_players=num_players, **options)
    env.reset(seed=seed)
    return env


def position(env, territories=None, chiefs=None, manu=None, moai=(), amulet=None, to_act=0, turn=None):
    """Set the start of ``to_act``'s turn (dominance phase), written in the notation (RULES.md,
    Notation) and read with ``from_text``, which checks that the rules can reach it.

    ``territories`` maps a territory name to a clan (one token) or to ``(clan, tokens)``; ``chiefs``
    maps a clan to the territory of its chief (else in supply); ``manu`` maps a ground name to the clan
    holding a ceremony there; ``moai`` lists territories with a Moai; ``amulet`` is the clan holding
    it (by default the clan Spiritual Supremacy gives it to, if any).  ``turn`` (clan turns completed)
    must agree with ``to_act`` (clans play in turn from clan 0); by default it is ``to_act``, the first
    round.  Supplies follow from the board; options, seed and generator stay the game's."""
    s = env.state()
    chief_of = {name: clan for clan, name in (chiefs or {}).items()}
    held = []
    for name, value in (territories or {}).items():
        clan, count = value if isinstance(value, tuple) else (value, 1)
        held.append(f"{name} {CLAN_NAMES[clan]} {count}" + (" chief" if chief_of.get(name) == clan else ""))
    assert set(chief_of) <= set(territories or {}), "a chief stands on one of its clan's territories"
    lines = ["game: Make Make", f"players: {int(s[core.NUM_PLAYERS])}", f"max_turns: {int(s[core.MAX_TURNS])}",
             f"seed: {int(s[core.SEED])}", f"rng: {int(s[core.RNG])}", f"to_act: {CLAN_NAMES[to_act]}",
             f"territories: {', '.join(held) or 'none'}", f"moai: {', '.join(moai) or 'none'}",
             "ceremonies: " + (", ".join(f"{g} {CLAN_NAMES[c]}" for g, c in (manu or {}).items()) or "none")]
    if turn is not None:
        lines.append(f"turn: {turn}")
    if amulet is not None:
        lines.append(f"amulet: {CLAN_NAMES[amulet]}")
    env.set_state(makemake_env.from_text("\n".join(lines)))
    return env


# -- reading the board -------------------------------------------------------------------------------
def owner(env, name):
    c = int(env.state()[core.OWNER + territory(name)])
    return None if c < 0 else c


def tokens(env, name):
    return int(env.state()[core.TOKENS + territory(name)])


def is_moai(env, name):
    return bool(env.state()[core.MOAI + territory(name)])


def moai_left(env):
    return int(env.state()[core.MOAI_LEFT])


def chief_at(env, clan):
    t = int(env.state()[core.CHIEF_AT + clan])
    return None if t < 0 else TERRITORY_NAMES[t]


def manu_at(env, name):
    c = int(env.state()[core.GROUND + ground(name)])
    return None if c < 0 else c


def ceremonies(env, clan):
    s = env.state()
    return {GROUND_NAMES[g] for g in range(NUM_GROUNDS) if s[core.GROUND + g] == clan}


def token_supply(env, clan):
    return int(env.state()[core.TOKEN_SUPPLY + clan])


def manu_supply(env, clan):
    return int(env.state()[core.MANU_SUPPLY + clan])


def amulet(env):
    c = int(env.state()[core.AMULET])
    return None if c < 0 else c


def sacred_count(env, clan):
    s = env.state()
    return int(sum(1 for t in SACRED if s[core.OWNER + t] == clan))


def protected(env, ground_name, clan):
    s = env.state()
    return all(s[core.MOAI + t] == 1 or s[core.OWNER + t] == clan
               for t in GROUND_TERRITORIES[ground(ground_name)])


def clan_to_act(env):
    return int(env.state()[core.TO_ACT])


def turn(env):
    return int(env.state()[core.TURN])


def running(env):
    return int(env.state()[core.STATUS]) == core.STATUS_RUNNING


def mask(env):
    return env.observe(env.agent_selection)["action_mask"]


def legal(env):
    return set(np.flatnonzero(mask(env)).tolist())


def legal_placements(env, name):
    """(k, chief) pairs offered on the named territory."""
    base = 22 * territory(name)
    return {((a - base) // 2 + 1, bool((a - base) % 2)) for a in legal(env) if base <= a < base + 22}


def legal_moai(env):
    return {TERRITORY_NAMES[a - 828] for a in legal(env) if 828 <= a < 864}


def legal_ceremonies(env):
    return {GROUND_NAMES[a - 864] for a in legal(env) if a >= 864}


# -- playing -----------------------------------------------------------------------------------------
def act(env, action):
    """Step the clan to act, checking that it is the agent asked and that the action is offered.
    Returns the clan that acted."""
    clan = clan_to_act(env)
    assert running(env)
    assert env.agent_selection == f"player_{clan}"
    assert mask(env)[action] == 1, f"{env.describe_action(action)} is not offered to clan {clan}"
    env.step(action)
    return clan


def harmless_placement(env, avoid=()):
    """A placement of one token (no chief) on a neutral coast territory that encloses no new ground
    for the clan to act and is not a sacred territory, away from the territories named in ``avoid``
    and their neighbours."""
    s = env.state()
    clan = clan_to_act(env)
    near = set(avoid)
    for name in avoid:
        near.update(neighbours(name))
    mine = [TERRITORY_NAMES[u] for u in range(NUM_TERRITORIES)
            if s[core.OWNER + u] == clan or s[core.MOAI + u] == 1]
    before = grounds_of(*mine)
    for t in range(NUM_TERRITORIES - 1, -1, -1):
        name = TERRITORY_NAMES[t]
        if name in near or s[core.OWNER + t] >= 0 or s[core.MOAI + t] == 1 or not name.startswith("Coast"):
            continue
        if grounds_of(*mine, name) != before:
            continue
        action = place(name, 1)
        if mask(env)[action]:
            return action
    raise AssertionError("no harmless placement left")


def play_harmless_turns(env, count, avoid=()):
    """``count`` clans in turn make a harmless placement; returns the clans that acted."""
    return [act(env, harmless_placement(env, avoid)) for _ in range(count)]


# -- one move before each end of the game ------------------------------------------------------------
def stalemate_position(env, num_players):
    """Every clan's 11 tokens alone on territories of one hex colour (so no clan encloses a ground),
    chiefs in supply; Red still has one token in supply."""
    terr = {}
    for c in range(num_players):
        names = [n for n in TERRITORY_NAMES if hex_colour(n) == c]
        for name in names[:10 if c == RED else 11]:
            terr[name] = c
    position(env, terr)
    spare = [n for n in TERRITORY_NAMES if hex_colour(n) == RED and n not in terr]
    return spare


def one_move_before(end, env):
    """Set the 3-clan ``env`` (a raw_env, or ``unwrapped`` of ``env()``) one move before the game ends
    as ``end`` says, and return that move:

    - "win": Green, with its 5 Tangata Manu in ceremonies, takes its third sacred territory and with it
      the amulet;
    - "stalemate": Red places its last token; then no clan can act or celebrate any more;
    - "truncated": a harmless placement plays the last of ``max_turns`` clan turns."""
    assert env.num_players == 3
    if end == "win":
        green = ["Sacred-5", "Sacred-6", "Inner-8", "Inner-9", "Inner-10", "Inner-11", "Inner-12"]
        position(env, {"Sacred-1": RED, "Sacred-2": RED, **{n: GREEN for n in green}},
                 manu={g: GREEN for g in grounds_of(*green)}, to_act=GREEN)
        return place("Sacred-4", 1)
    if end == "stalemate":
        return place(stalemate_position(env, 3)[0], 1)
    if end == "truncated":
        last = env.max_turns - 1
        position(env, {"Coast-1": RED, "Coast-7": BLUE, "Coast-13": GREEN}, to_act=last % 3, turn=last)
        return harmless_placement(env)
    raise ValueError(f"no position for the end {end!r}")
