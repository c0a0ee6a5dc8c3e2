"""Small helpers that let the Maka Bana rules tests read like the rulebook.

Everything goes through the public API of ``makabana_env.raw_env``: ``reset``, ``step``, ``observe``,
``state`` and ``set_state``.  Crafted positions are written in the position notation
(``makabana_env.from_text``, RULES.md "Position notation") and restored with ``set_state``.

Colours are numbered as in the core (0 Yellow, 1 Blue, 2 Green, 3 Red, 4 White); colour ``c`` is
played by ``player_{c % num_players}``.  Spots are named as in the rulebook, e.g.
``"Azzura-Rock-Flower"``.
"""
import numpy as np

import makabana_env
from makabana_env import core
from makabana_env.board import (
    BEACHES, COLOUR_NAMES, NEIGHBOURS, NUM_PAINT_CARDS, NUM_SPOTS, SPOT_BEACH, SPOT_INDEX, SPOT_NAMES,
)

YELLOW, BLUE, GREEN, RED, WHITE = range(5)
SHOWN = {"beach": core.SHOWN_BEACH, "area": core.SHOWN_AREA, "theme": core.SHOWN_THEME}


# -- actions -----------------------------------------------------------------------------------------
def spot(name):
    return SPOT_INDEX[name]


def construct(name, shown="beach"):
    """Construction project (rulebook 1.a) on the named spot, showing one of its three cards."""
    return 3 * spot(name) + SHOWN[shown]


def take_back(name, shown="beach"):
    """Take-back project (rulebook 1.b): the three cards of the spot plus a paint card."""
    return core.TAKE_BACK_BASE + 3 * spot(name) + SHOWN[shown]


def tiki(name):
    """Place the tiki on the named spot (rulebook 3)."""
    return core.TIKI_BASE + spot(name)


def spots_of(beach):
    return [SPOT_NAMES[s] for s in range(NUM_SPOTS) if BEACHES[SPOT_BEACH[s]] == beach]


# -- games and positions -----------------------------------------------------------------------------
def new_game(num_players=4, seed=0, **options):
    env = makabana_env.raw_env(num_players=num_players, **options)
    env.reset(seed=seed)
    return env


def position(env, huts=None, paints=None, first=0, last_season=False):
    """Set the start of a season (project phase) with the given huts ``{spot name: colour}``, written
    in the position notation (RULES.md, "Position notation"): reserves follow from the board;
    ``paints`` maps colour -> paint cards in hand (default 2); ``first`` is the colour holding the
    "First Player" card; ``last_season`` marks the season as the last one (as a full beach would).
    The season count, the last season's projects and the generator are the environment's."""
    state = env.state()
    n = int(state[core.NUM_COLOURS])
    keep = ("game", "variant", "players", "max_turns", "seed", "rng", "season")
    lines = [line for line in makabana_env.to_text(state).splitlines()
             if line.split(":")[0] in keep or line.split(":")[0].endswith(" last project")]
    lines += [f"first: {COLOUR_NAMES[first]}", f"last season: {'yes' if last_season else 'no'}"]
    for c in range(n):
        spots = [name for name, colour in (huts or {}).items() if colour == c]
        lines.append(f"{COLOUR_NAMES[c]} huts: {', '.join(spots) or '-'}")
        lines.append(f"{COLOUR_NAMES[c]} paints: {(paints or {}).get(c, NUM_PAINT_CARDS)}")
    env.set_state(makabana_env.from_text("\n".join(lines)))
    return env


# -- reading the board -------------------------------------------------------------------------------
def hut_at(env, name):
    c = int(makabana_env.spot_owners(env.state())[spot(name)])
    return None if c < 0 else c


def tiki_at(env, name):
    c = int(env.state()[core.TIKI + spot(name)])
    return None if c < 0 else c


def reserve(env, colour):
    return int(env.state()[core.RESERVE + colour])


def paints(env, colour):
    return int(env.state()[core.PAINTS + colour])


def colour_to_act(env):
    return makabana_env.colour_to_act(env.state())


def first_player(env):
    return int(env.state()[core.FIRST])


def agent_of(env, colour):
    return env.possible_agents[colour % env.num_players]


def mask(env):
    return env.observe(env.agent_selection)["action_mask"]


def legal(env):
    return set(np.flatnonzero(mask(env)).tolist())


def legal_tiki_spots(env):
    return {SPOT_NAMES[a - core.TIKI_BASE] for a in legal(env) if a >= core.TIKI_BASE}


# -- playing -----------------------------------------------------------------------------------------
def act(env, action):
    """Step the colour to act, checking that its owner is the agent asked and the action is offered."""
    colour = colour_to_act(env)
    assert env.agent_selection == agent_of(env, colour)
    assert mask(env)[action] == 1, f"action {action} not offered to colour {colour}"
    env.step(action)
    return colour


def dud_project(env):
    """A construction project on an occupied spot: it fails and changes nothing (rulebook 4.a)."""
    s = env.state()
    for sp in range(NUM_SPOTS):
        if s[core.HUT + sp] >= 0:
            return 3 * sp
    raise AssertionError("a dud project needs a hut somewhere on the board")


def harmless_tiki(env):
    """A legal tiki on an empty spot that no project of this season names, on the emptiest beach."""
    s = env.state()
    targets = {int(s[core.PROJECT_SPOT + c]) for c in range(int(s[core.NUM_COLOURS]))}
    empty_per_beach = {}
    for sp in range(NUM_SPOTS):
        if s[core.HUT + sp] < 0 and s[core.TIKI + sp] < 0:
            empty_per_beach[SPOT_BEACH[sp]] = empty_per_beach.get(SPOT_BEACH[sp], 0) + 1
    options = [a for a in legal(env) if a >= core.TIKI_BASE
               and a - core.TIKI_BASE not in targets and s[core.HUT + a - core.TIKI_BASE] < 0]
    assert options, "no harmless tiki placement left"
    return max(options, key=lambda a: (empty_per_beach[SPOT_BEACH[a - core.TIKI_BASE]], -a))


def choose_projects(env, projects=None):
    """Phase 1: every colour, in the order the environment asks, submits ``projects[colour]`` (an
    action) or a dud project.  Returns the colours in the order they were asked."""
    projects = projects or {}
    order = []
    while env.decision() == "project":
        colour = colour_to_act(env)
        order.append(colour)
        act(env, projects[colour] if colour in projects else dud_project(env))
    return order


def place_tikis(env, tikis=None):
    """Phase 3: every colour asked places ``tikis[colour]`` (a spot name) or a harmless tiki.
    Returns the colours in the order they placed."""
    tikis = tikis or {}
    order = []
    while env.decision() == "tiki":
        colour = colour_to_act(env)
        order.append(colour)
        act(env, tiki(tikis[colour]) if colour in tikis else harmless_tiki(env))
    return order


def play_season(env, projects=None, tikis=None):
    """One whole season: projects, tikis, then the automatic execution and end of season."""
    season = int(env.state()[core.SEASON])
    project_order = choose_projects(env, projects)
    tiki_order = place_tikis(env, tikis)
    assert int(env.state()[core.SEASON]) == season + 1
    return project_order, tiki_order


# -- observation -------------------------------------------------------------------------------------
def colour_block(obs, viewer, colour, num_colours):
    """The OBS_COLOUR features of ``colour`` seen from ``viewer`` (relative colour k)."""
    k = (colour - viewer) % num_colours
    base = core.OBS_COLOUR + k * core.COLOUR_FEATURES
    return obs[base:base + core.COLOUR_FEATURES]


def shown_cards(obs, viewer, colour, num_colours):
    """The 11-slot one-hot of ``colour``'s shown card (4 beaches, 4 areas, 3 themes) seen from
    ``viewer``, read at OBS_COLOUR + k * COLOUR_FEATURES + CF_SHOWN_CARD as documented."""
    k = (colour - viewer) % num_colours
    base = core.OBS_COLOUR + k * core.COLOUR_FEATURES + core.CF_SHOWN_CARD
    return obs[base:base + 11]


# -- board geometry ----------------------------------------------------------------------------------
def is_neighbour(a, b):
    return spot(b) in NEIGHBOURS[spot(a)].tolist()


def chain(length):
    """A simple path of ``length`` neighbouring spots (found on the board through NEIGHBOURS)."""
    def extend(path):
        if len(path) == length:
            return path
        for t in NEIGHBOURS[path[-1]]:
            if t >= 0 and t not in path:
                found = extend(path + [int(t)])
                if found:
                    return found
        return None

    for start in range(NUM_SPOTS):
        found = extend([start])
        if found:
            return [SPOT_NAMES[s] for s in found]
    raise AssertionError(f"the board has no chain of {length} neighbouring spots")


def groups(huts):
    """Sizes of the groups (side-sharing, same colour) of ``{name: colour}``, per colour."""
    seen, out = set(), {}
    for name, colour in huts.items():
        if name in seen:
            continue
        stack, size = [name], 0
        seen.add(name)
        while stack:
            cur = stack.pop()
            size += 1
            for t in NEIGHBOURS[spot(cur)]:
                other = SPOT_NAMES[t] if t >= 0 else None
                if other and other not in seen and huts.get(other) == colour:
                    seen.add(other)
                    stack.append(other)
        out.setdefault(colour, []).append(size)
    return out
