"""The Numba rules core of Maka Bana (Haapii Maka Bana, the basic game).

A game is one row of an ``int64`` array of length ``STATE_SIZE``; a batch of games is a 2-D array
with one row per game.  Every function here is a pure ``@njit`` function over such a row, in the
manner of Pgx: ``init``, ``legal_action_mask``, ``step``, ``observe``, ``scores``, ``rewards``.
The row holds everything, including the random generator used by ``random_action``, so that
``row.copy()`` is a complete snapshot of the game.

Seats and colours.  Colours ``0 .. num_colours-1`` sit clockwise in that order.  With 3 to 5 players
each player has one colour; with 2 players there are 4 colours and player ``p`` owns colours ``p`` and
``p + 2``.  In both cases colour ``c`` belongs to player ``c % num_players``.

Action encoding (one ``Discrete(NUM_ACTIONS)`` space for every decision):

=============  =====================================================================
actions        meaning
=============  =====================================================================
0 .. 116       construction project on spot ``a // 3`` showing card ``a % 3``
117 .. 233     take-back project on spot ``(a-117) // 3`` showing card ``(a-117) % 3``
               and the paint card
234 .. 272     place the tiki on spot ``a - 234``
=============  =====================================================================

The shown card is 0 for the beach card, 1 for the area card and 2 for the theme card.
"""
import numpy as np
from numba import njit

from pacific_common.bits import lowest_bit, nth_bit, popcount
from pacific_common.ends import END_NONE, END_RULES, END_TRUNCATED
from pacific_common.rng import draw, following_seed, seed_rng
from pacific_common.seats import margins, relative, seat_after

from .board import (
    HUTS_PER_COLOUR, MAX_COLOURS, NEIGHBOURS, NUM_AREAS, NUM_BEACHES, NUM_PAINT_CARDS, NUM_SPOTS,
    NUM_THEMES, SPOT_AREA, SPOT_BEACH, SPOT_THEME, BIKINI,
)

# ---------------------------------------------------------------------------------------------------
# Action encoding
CONSTRUCT = 0
TAKE_BACK = 1
NO_PROJECT = -1
SHOWN_BEACH, SHOWN_AREA, SHOWN_THEME = 0, 1, 2
PROJECTS_PER_KIND = NUM_SPOTS * 3
TAKE_BACK_BASE = PROJECTS_PER_KIND
TIKI_BASE = 2 * PROJECTS_PER_KIND
NUM_ACTIONS = TIKI_BASE + NUM_SPOTS

# Phases of a season that ask for a decision; Haapii execution and the end of the season need none.
PHASE_PROJECT = 0
PHASE_TIKI = 1
PHASE_OVER = 2
PHASE_DENOUNCE = 3   # Mao only, and the next three
PHASE_PAYBACK = 4    # Aata chooses the hut of the paint case
PHASE_REPAINT = 5    # Vaea accepts or declines the repaint offered by Aata
PHASE_EXECUTE = 6    # the executing colour chooses where to build or take back, or stops
NUM_PHASES = 7

# Maka Bana Mao: its own actions follow the Haapii ones (RULES.md, "Spaces").  Cards 0..10 are the
# beaches, areas and themes (bit c of a card set); card 11 is a paint card.
NUM_CARDS = 12
PAINT_CARD = 11
MAO_PROJECT = 2                                  # PROJECT_KIND of a finished Mao project
MAO_TOP_BASE = NUM_ACTIONS                       # 273 + card: the visible card
MAO_ADD_BASE = MAO_TOP_BASE + NUM_CARDS          # 285 + card: add the card asked, hidden
MAO_KEEP = MAO_ADD_BASE + NUM_CARDS              # 297: keep the card asked in hand
MAO_DENOUNCE_BASE = MAO_KEEP + 1                 # 298 + k - 1: denounce the colour k seats clockwise
MAO_PASS = MAO_DENOUNCE_BASE + 4                 # 302
MAO_SPOT_BASE = MAO_PASS + 1                     # 303 + spot
MAO_STOP = MAO_SPOT_BASE + NUM_SPOTS             # 342
NUM_ACTIONS_MAO = MAO_STOP + 1                   # 343
CASE_NONE, CASE_PAID_BACK, CASE_NOT_MINDING = 0, 1, 2

STATUS_RUNNING = 0
STATUS_TERMINATED = 1
STATUS_TRUNCATED = 2

VARIANT_HAAPII = 0
VARIANT_MAO = 1

# What ``step`` returns.
STEP_OK = 0
STEP_ILLEGAL = 1
STEP_GAME_OVER = 2

REWARD_WIN_LOSS = 0
REWARD_SCORE = 1
REWARD_MARGIN = 2

# ---------------------------------------------------------------------------------------------------
# State layout: offsets into one game's row.
NUM_COLOURS = 0      # colours in play: 3, 4 or 5 (4 in the two-player game)
NUM_PLAYERS = 1
VARIANT = 2
MAX_TURNS = 3        # seasons after which the game is truncated
PHASE = 4
TO_ACT = 5           # colour whose decision is asked
FIRST = 6            # colour holding the "First Player" card
SEASON = 7           # seasons completed so far
LAST_SEASON = 8      # 1 once a full beach has triggered the last season
DECIDED = 9          # colours that have decided in the current phase
STATUS = 10
RNG = 11             # generator state for random_action
SEED = 12            # the seed this game was set up with
HUT = 13                            # [spot] colour of the hut there, -1 if none
TIKI = HUT + NUM_SPOTS              # [spot] colour of the tiki there, -1 if none
RESERVE = TIKI + NUM_SPOTS          # [colour] huts not yet on the board
PAINTS = RESERVE + MAX_COLOURS      # [colour] paint cards still in hand
PROJECT_KIND = PAINTS + MAX_COLOURS         # [colour] this season's project: CONSTRUCT, TAKE_BACK or -1
PROJECT_SPOT = PROJECT_KIND + MAX_COLOURS   # [colour] spot its three cards designate
PROJECT_SHOWN = PROJECT_SPOT + MAX_COLOURS  # [colour] card on top: SHOWN_BEACH/AREA/THEME
LAST_KIND = PROJECT_SHOWN + MAX_COLOURS     # [colour] last season's project, revealed at execution
LAST_SPOT = LAST_KIND + MAX_COLOURS
LAST_SUCCESS = LAST_SPOT + MAX_COLOURS      # [colour] 1 executed, 0 failed, -1 no project
SCORE = LAST_SUCCESS + MAX_COLOURS          # [colour] points, filled in when the game ends
# Maka Bana Mao only (RULES.md, "Maka Bana Mao"); a project is a set of cards rather than a spot.
PROJECT_CARDS = SCORE + MAX_COLOURS         # [colour] bit set of the non-paint cards (bit = card 0..10)
PROJECT_PAINT = PROJECT_CARDS + MAX_COLOURS  # [colour] paint cards the project was prepared with, 0..2
PROJECT_TOP = PROJECT_PAINT + MAX_COLOURS   # [colour] the visible card 0..11, -1 before it is chosen
PROJECT_NEXT = PROJECT_TOP + MAX_COLOURS    # [colour] hand cards asked so far after the visible card
ELIMINATED = PROJECT_NEXT + MAX_COLOURS     # [colour] 1 when eliminated by this season's denunciation
PASSED = ELIMINATED + MAX_COLOURS           # [colour] 1 when it passed in this season's denunciation round
REVEALED_NOW = PASSED + MAX_COLOURS         # [colour] 1 once its project was revealed at execution
LAST_CARDS = REVEALED_NOW + MAX_COLOURS     # [colour] cards of its most recently revealed project
LAST_PAINT = LAST_CARDS + MAX_COLOURS       # [colour] paint cards of that project
DONE_SPOTS = LAST_PAINT + MAX_COLOURS       # [colour] bit set of spots that execution built or took back
DENOUNCER = DONE_SPOTS + MAX_COLOURS        # colour that denounced this season, -1 if none (Aata)
DENOUNCED = DENOUNCER + 1                   # colour it denounced, -1 if none (Vaea)
PAINT_CASE = DENOUNCED + 1                  # CASE_NONE, CASE_PAID_BACK or CASE_NOT_MINDING
OFFERED = PAINT_CASE + 1                    # spot of the hut designated for the repaint offer, -1 if none
EXECUTED = OFFERED + 1                      # projects the executing colour has carried out, 0..2
PAINT_LEFT = EXECUTED + 1                   # paint cards of the executing project not yet used
STATE_SIZE = PAINT_LEFT + 1

# Every entry of the row as ``(name, start, length)``, named as the offsets above are spelled; the
# validator's messages name an entry with it (e.g. ``HUT[3]``, see ``pacific_common.checked``).
_PER_SPOT = ("HUT", "TIKI")
_PER_COLOUR = ("RESERVE", "PAINTS", "PROJECT_KIND", "PROJECT_SPOT", "PROJECT_SHOWN", "LAST_KIND", "LAST_SPOT",
               "LAST_SUCCESS", "SCORE", "PROJECT_CARDS", "PROJECT_PAINT", "PROJECT_TOP", "PROJECT_NEXT",
               "ELIMINATED", "PASSED", "REVEALED_NOW", "LAST_CARDS", "LAST_PAINT", "DONE_SPOTS")
_SINGLE = ("NUM_COLOURS", "NUM_PLAYERS", "VARIANT", "MAX_TURNS", "PHASE", "TO_ACT", "FIRST", "SEASON",
           "LAST_SEASON", "DECIDED", "STATUS", "RNG", "SEED", "DENOUNCER", "DENOUNCED", "PAINT_CASE",
           "OFFERED", "EXECUTED", "PAINT_LEFT")
FIELDS = tuple(sorted(
    [(name, globals()[name], 1) for name in _SINGLE] + [(name, globals()[name], NUM_SPOTS) for name in _PER_SPOT]
    + [(name, globals()[name], MAX_COLOURS) for name in _PER_COLOUR], key=lambda f: f[1]))
assert sum(f[2] for f in FIELDS) == STATE_SIZE and all(
    a[1] + a[2] == b[1] for a, b in zip(FIELDS, FIELDS[1:])), "FIELDS must cover the row once"

# ---------------------------------------------------------------------------------------------------
# Observation layout (int8), always from one colour's point of view: "relative colour" k is the colour
# k seats clockwise from the viewer, so the viewer's own pieces come first.  Slots for colours that are
# not in the game stay 0.
OBS_HUT = 0                                         # [k][spot] hut of relative colour k
OBS_TIKI = OBS_HUT + MAX_COLOURS * NUM_SPOTS        # [k][spot] tiki of relative colour k
OBS_IN_PLAY = OBS_TIKI + MAX_COLOURS * NUM_SPOTS    # [spot] spot exists in this game
COLOUR_FEATURES = 19
OBS_COLOUR = OBS_IN_PLAY + NUM_SPOTS                # [k][COLOUR_FEATURES]
# per-colour features, offsets within a COLOUR_FEATURES block
CF_PRESENT, CF_MINE, CF_FIRST, CF_TO_ACT, CF_RESERVE, CF_PAINTS, CF_SUBMITTED, CF_PAINT_SHOWN = range(8)
CF_SHOWN_CARD = 8                                   # one-hot of the shown card: 4 beaches, 4 areas, 3 themes
OBS_OWN_PROJECT = OBS_COLOUR + MAX_COLOURS * COLOUR_FEATURES   # [k][spot + take-back flag], own colours only
OBS_LAST = OBS_OWN_PROJECT + MAX_COLOURS * (NUM_SPOTS + 1)     # [k][spot + take-back + success]
OBS_PHASE = OBS_LAST + MAX_COLOURS * (NUM_SPOTS + 2)           # one-hot: project, tiki, game over
OBS_LAST_SEASON = OBS_PHASE + 3
OBS_TWO_PLAYER = OBS_LAST_SEASON + 1
OBS_SEASON = OBS_TWO_PLAYER + 1                                # seasons completed, capped at OBS_MAX
OBS_SIZE = OBS_SEASON + 1
OBS_MAX = 100
# Maka Bana Mao: a block after the Haapii observation (RULES.md, "Observation, Mao block").
OBS_M_PHASE = OBS_SIZE                                  # one-hot over the NUM_PHASES phases
OBS_M_PROJECT = OBS_M_PHASE + NUM_PHASES                # [k][card] current project, own colours only
OBS_M_COUNT = OBS_M_PROJECT + MAX_COLOURS * NUM_CARDS   # [k] cards in the current project, where known
OBS_M_REVEALED = OBS_M_COUNT + MAX_COLOURS              # [k][card] most recently revealed project
OBS_M_REVEALED_NOW = OBS_M_REVEALED + MAX_COLOURS * NUM_CARDS  # [k] revealed this season
OBS_M_DONE = OBS_M_REVEALED_NOW + MAX_COLOURS           # [k][spot] built or taken back by that execution
OBS_M_DENOUNCER = OBS_M_DONE + MAX_COLOURS * NUM_SPOTS  # [k]
OBS_M_DENOUNCED = OBS_M_DENOUNCER + MAX_COLOURS         # [k]
OBS_M_ELIMINATED = OBS_M_DENOUNCED + MAX_COLOURS        # [k]
OBS_M_PASSED = OBS_M_ELIMINATED + MAX_COLOURS           # [k]
OBS_M_CASE = OBS_M_PASSED + MAX_COLOURS                 # paid back, not minding his business
OBS_M_OFFERED = OBS_M_CASE + 2                          # [spot]
OBS_M_EXECUTED = OBS_M_OFFERED + NUM_SPOTS
OBS_M_PAINT_LEFT = OBS_M_EXECUTED + 1
OBS_SIZE_MAO = OBS_M_PAINT_LEFT + 1

# Sizes of the spaces by variant (the Haapii spaces are unchanged by Mao).
NUM_ACTIONS_OF_VARIANT = (NUM_ACTIONS, NUM_ACTIONS_MAO)
OBS_SIZE_OF_VARIANT = (OBS_SIZE, OBS_SIZE_MAO)

GROUP_POINTS = np.array([0, 1, 3, 6, 9, 12, 15, 18, 21, 24, 27], dtype=np.int64)  # rulebook table, 3 per hut after the 2nd
SPOTS_OF_BEACH = np.full((NUM_BEACHES, 12), -1, dtype=np.int64)
for _b in range(NUM_BEACHES):
    _ss = np.nonzero(SPOT_BEACH == _b)[0]
    SPOTS_OF_BEACH[_b, : len(_ss)] = _ss
NEIGHBOUR_BITS = np.zeros(NUM_SPOTS, dtype=np.int64)
for _s in range(NUM_SPOTS):
    for _t in NEIGHBOURS[_s]:
        if _t >= 0:
            NEIGHBOUR_BITS[_s] |= 1 << int(_t)
BEACH_BITS = np.zeros(NUM_BEACHES, dtype=np.int64)
for _s in range(NUM_SPOTS):
    BEACH_BITS[SPOT_BEACH[_s]] |= 1 << _s
# IN_PLAY_BITS[num_colours]: the spots in play (Bikini is out with 3 colours)
IN_PLAY_BITS = np.full(MAX_COLOURS + 1, (1 << NUM_SPOTS) - 1, dtype=np.int64)
IN_PLAY_BITS[3] &= ~BEACH_BITS[BIKINI]
# Mao card sets: the cards naming each spot, the three kinds, and a colour's cards by number of colours
BEACH_CARDS = (1 << NUM_BEACHES) - 1
AREA_CARDS = ((1 << NUM_AREAS) - 1) << NUM_BEACHES
THEME_CARDS = ((1 << NUM_THEMES) - 1) << (NUM_BEACHES + NUM_AREAS)
SPOT_CARDS = np.zeros(NUM_SPOTS, dtype=np.int64)
for _s in range(NUM_SPOTS):
    SPOT_CARDS[_s] = (1 << int(SPOT_BEACH[_s])) | (1 << (NUM_BEACHES + int(SPOT_AREA[_s]))) | (
        1 << (NUM_BEACHES + NUM_AREAS + int(SPOT_THEME[_s])))
HAND_CARDS = np.full(MAX_COLOURS + 1, (1 << PAINT_CARD) - 1, dtype=np.int64)
HAND_CARDS[3] &= ~(1 << BIKINI)  # with 3 players everybody discards the Bikini card (Setup)
# Bikini's 12 spots are consecutive, so random play can step over them in the 3-player game.
FIRST_BIKINI_SPOT = int(np.nonzero(SPOT_BEACH == BIKINI)[0][0])
assert np.all(np.nonzero(SPOT_BEACH == BIKINI)[0] == np.arange(FIRST_BIKINI_SPOT, FIRST_BIKINI_SPOT + 12))
# PROJECT_MASKS[num_colours == 3][paint cards left > 0]: the project phase's whole mask (every spot in
# play, each of its three cards on top, taking back only with a paint card), copied rather than built:
# a batch writes one per step and game.
PROJECT_MASKS = np.zeros((2, 2, NUM_ACTIONS), dtype=np.int8)
for _three in range(2):
    for _paint in range(2):
        for _s in range(NUM_SPOTS):
            if (IN_PLAY_BITS[3 if _three else 4] >> _s) & 1:
                PROJECT_MASKS[_three, _paint, 3 * _s:3 * _s + 3] = 1
                PROJECT_MASKS[_three, _paint, TAKE_BACK_BASE + 3 * _s:TAKE_BACK_BASE + 3 * _s + 3] = _paint


# ---------------------------------------------------------------------------------------------------
# Small queries
@njit(cache=True, inline="always")
def owner(state, colour):
    """The player who controls a colour."""
    n = state[NUM_PLAYERS]
    return colour - n if colour >= n else colour  # colour % n, without a division


@njit(cache=True, inline="always")
def spot_in_play(state, spot):
    return (IN_PLAY_BITS[state[NUM_COLOURS]] >> spot) & 1 == 1


# SHOWN_CARDS[spot, shown]: the card a project on ``spot`` shows on top, by SHOWN_BEACH / AREA / THEME,
# as its index among the 11 non-paint cards (4 beaches, 4 areas, 3 themes).  A table, not branches on
# ``shown``: the observation reads it for every colour at every step.
SHOWN_CARDS = np.array([[SPOT_BEACH[s], NUM_BEACHES + SPOT_AREA[s], NUM_BEACHES + NUM_AREAS + SPOT_THEME[s]]
                        for s in range(NUM_SPOTS)], dtype=np.int64)


@njit(cache=True, inline="always")
def shown_card(spot, shown):
    """Index of the shown card among the 11 non-paint cards (``SHOWN_CARDS``)."""
    return SHOWN_CARDS[spot, shown]


@njit(cache=True)
def paint_shown(state):
    """Rulebook 3.b: huts may be protected only while some project shows a paint card."""
    for c in range(state[NUM_COLOURS]):
        if state[PROJECT_KIND + c] == TAKE_BACK:
            return True
    return False


@njit(cache=True, inline="always")
def _own_huts_protectable(state):
    """Whether a tiki may go on one's own hut (rulebook 3.b): while some project shows paint, and in
    Mao always, since its paint may be hidden (RULINGS.md)."""
    return state[VARIANT] == VARIANT_MAO or paint_shown(state)


@njit(cache=True)
def tiki_spots(state, colour):
    """Rulebook 3: the spots where the colour may place its tiki, as a bit set -- an empty in-play spot
    without a tiki (3.a), or one of the colour's own huts while some project shows paint (3.b).  In the
    two-player game the partner colour's huts are another colour's (RULINGS.md), so not protectable."""
    huts = 0
    own = 0
    tikis = 0
    for s in range(NUM_SPOTS):   # without branches, which the board's data would mispredict
        hut = state[HUT + s]
        huts |= np.int64(hut >= 0) << s
        own |= np.int64(hut == colour) << s
        tikis |= np.int64(state[TIKI + s] >= 0) << s
    free = ~huts
    if _own_huts_protectable(state):
        free |= own
    return free & ~tikis & IN_PLAY_BITS[state[NUM_COLOURS]]


@njit(cache=True)
def has_tiki_placement(state, colour):
    return tiki_spots(state, colour) != 0


@njit(cache=True)
def is_legal(state, action):
    if state[VARIANT] == VARIANT_MAO:
        return _mao_is_legal(state, action)
    if state[STATUS] != STATUS_RUNNING or action < 0 or action >= NUM_ACTIONS:
        return False
    colour = state[TO_ACT]
    if state[PHASE] == PHASE_PROJECT:
        if action >= TIKI_BASE:
            return False
        if action >= TAKE_BACK_BASE:
            if state[PAINTS + colour] <= 0:
                return False
            action -= TAKE_BACK_BASE
        return spot_in_play(state, action // 3)
    if state[PHASE] == PHASE_TIKI:
        if action < TIKI_BASE:
            return False
        return _tiki_spot_allowed(state, colour, action - TIKI_BASE)
    return False


@njit(cache=True)
def _tiki_spot_allowed(state, colour, spot):
    """Whether ``spot`` is in ``tiki_spots(state, colour)``, reading that one spot: a batch checks every
    game's action before it steps any, and the whole board's bit sets cost that pass its memory."""
    if not spot_in_play(state, spot) or state[TIKI + spot] >= 0:
        return False
    hut = state[HUT + spot]
    if hut < 0:
        return True
    return hut == colour and _own_huts_protectable(state)


@njit(cache=True)
def legal_action_mask(state, mask):
    """Write the int8 legal-action mask of the colour to act into ``mask``."""
    mask[:] = 0
    if state[STATUS] != STATUS_RUNNING:
        return
    if state[VARIANT] == VARIANT_MAO:
        base, bits = mao_choices(state)
        while bits != 0:
            mask[base + lowest_bit(bits)] = 1
            bits &= bits - 1
        return
    colour = state[TO_ACT]
    if state[PHASE] == PHASE_PROJECT:
        three = 1 if state[NUM_COLOURS] == 3 else 0
        table = PROJECT_MASKS[three, 1 if state[PAINTS + colour] > 0 else 0]
        for a in range(NUM_ACTIONS):  # a loop: Numba's slice assignment from an array cost 20 times as much
            mask[a] = table[a]
    elif state[PHASE] == PHASE_TIKI:
        spots = tiki_spots(state, colour)
        for s in range(NUM_SPOTS):
            mask[TIKI_BASE + s] = (spots >> s) & 1


# ---------------------------------------------------------------------------------------------------
# Game flow
@njit(cache=True)
def init(state, num_players, variant, max_turns, seed):
    """Set up a new game in ``state`` (rulebook, Setup).  Options are checked by the caller."""
    state[:] = 0
    num_colours = 4 if num_players == 2 else num_players
    state[NUM_COLOURS] = num_colours
    state[NUM_PLAYERS] = num_players
    state[VARIANT] = variant
    state[MAX_TURNS] = max_turns
    state[PHASE] = PHASE_PROJECT
    state[TO_ACT] = 0
    state[FIRST] = 0
    state[STATUS] = STATUS_RUNNING
    state[SEED] = seed
    state[RNG] = seed_rng(seed)
    for s in range(NUM_SPOTS):
        state[HUT + s] = -1
        state[TIKI + s] = -1
    for c in range(MAX_COLOURS):
        present = c < num_colours
        state[RESERVE + c] = HUTS_PER_COLOUR if present else 0
        state[PAINTS + c] = NUM_PAINT_CARDS if present else 0
        state[PROJECT_KIND + c] = NO_PROJECT
        state[PROJECT_SPOT + c] = -1
        state[PROJECT_SHOWN + c] = -1
        state[LAST_KIND + c] = NO_PROJECT
        state[LAST_SPOT + c] = -1
        state[LAST_SUCCESS + c] = -1
    _clear_mao_season(state)


@njit(cache=True)
def step(state, action):
    """Apply the decision of the colour to act.  Returns STEP_OK, or STEP_ILLEGAL / STEP_GAME_OVER
    with the state left untouched."""
    if state[STATUS] != STATUS_RUNNING:
        return STEP_GAME_OVER
    if not is_legal(state, action):
        return STEP_ILLEGAL
    colour = state[TO_ACT]
    n = state[NUM_COLOURS]
    if state[VARIANT] == VARIANT_MAO and state[PHASE] != PHASE_TIKI:
        _mao_step(state, action)
    elif state[PHASE] == PHASE_PROJECT:
        kind = CONSTRUCT
        if action >= TAKE_BACK_BASE:
            kind = TAKE_BACK
            action -= TAKE_BACK_BASE
        state[PROJECT_KIND + colour] = kind
        state[PROJECT_SPOT + colour] = action // 3
        state[PROJECT_SHOWN + colour] = action % 3
        state[DECIDED] += 1
        if state[DECIDED] < n:
            state[TO_ACT] = seat_after(colour, 1, n)
        else:
            # Rulebook 2-3: hints are revealed together, then tikis from the first player on.
            state[PHASE] = PHASE_TIKI
            state[DECIDED] = 0
            state[TO_ACT] = state[FIRST]
            _skip_colours_without_tiki(state)
    else:
        state[TIKI + action - TIKI_BASE] = colour
        state[DECIDED] += 1
        state[TO_ACT] = seat_after(colour, 1, n)
        _skip_colours_without_tiki(state)
    return STEP_OK


@njit(cache=True)
def _skip_colours_without_tiki(state):
    """A colour that has no legal tiki placement places none, nor does a colour eliminated by a
    denunciation; once every colour has had its turn the season is executed (Haapii execution needs no
    decision; Mao execution may ask the executing colour)."""
    n = state[NUM_COLOURS]
    while state[DECIDED] < n and (state[ELIMINATED + state[TO_ACT]] == 1
                                  or not has_tiki_placement(state, state[TO_ACT])):
        state[DECIDED] += 1
        state[TO_ACT] = seat_after(state[TO_ACT], 1, n)
    if state[DECIDED] == n:
        if state[VARIANT] == VARIANT_MAO:
            state[PHASE] = PHASE_EXECUTE
            state[DECIDED] = 0
            _mao_continue_execution(state)
        else:
            _execute_season(state)


@njit(cache=True)
def _execute_project(state, colour):
    """Rulebook 4.a / 4.b.  Returns True when the project was carried out."""
    spot = state[PROJECT_SPOT + colour]
    if state[TIKI + spot] >= 0 or state[RESERVE + colour] <= 0:
        return False
    hut = state[HUT + spot]
    if state[PROJECT_KIND + colour] == CONSTRUCT:
        if hut >= 0:
            return False
    else:
        if hut < 0 or hut == colour:  # the partner colour's hut is fair game (RULINGS.md, 2 players)
            return False
        state[RESERVE + hut] += 1
        state[PAINTS + colour] -= 1  # discarded only on success; a failed take-back keeps it
    state[HUT + spot] = colour
    state[RESERVE + colour] -= 1
    return True


@njit(cache=True)
def beach_full(state, beach):
    for i in range(SPOTS_OF_BEACH.shape[1]):
        s = SPOTS_OF_BEACH[beach, i]
        if s < 0:
            break
        if state[HUT + s] < 0 and state[TIKI + s] < 0:
            return False
    return True


@njit(cache=True)
def _execute_season(state):
    n = state[NUM_COLOURS]
    for i in range(n):
        c = seat_after(state[FIRST], i, n)
        state[LAST_KIND + c] = state[PROJECT_KIND + c]
        state[LAST_SPOT + c] = state[PROJECT_SPOT + c]
        state[LAST_SUCCESS + c] = 1 if _execute_project(state, c) else 0
    _end_season(state)


@njit(cache=True)
def _end_season(state):
    n = state[NUM_COLOURS]
    # Rulebook "Game Ends": out of huts ends the game now; a beach full of huts or tikis (checked
    # before the tikis are lifted) gives exactly one more season.
    over = state[LAST_SEASON] == 1
    for c in range(n):
        if state[RESERVE + c] == 0:
            over = True
    if not over:
        for b in range(NUM_BEACHES):
            if (b != BIKINI or n != 3) and beach_full(state, b):
                state[LAST_SEASON] = 1

    state[SEASON] += 1
    state[DECIDED] = 0
    for c in range(n):  # revealed projects now live on in LAST_*
        state[PROJECT_KIND + c] = NO_PROJECT
        state[PROJECT_SPOT + c] = -1
        state[PROJECT_SHOWN + c] = -1
    _clear_mao_season(state)
    if over or state[SEASON] >= state[MAX_TURNS]:
        # the tikis stay where they are: they are taken back only "if the game has not ended"
        state[STATUS] = STATUS_TERMINATED if over else STATUS_TRUNCATED
        state[PHASE] = PHASE_OVER
        state[TO_ACT] = -1
        scores(state)
        return
    for s in range(NUM_SPOTS):
        state[TIKI + s] = -1
    state[FIRST] = seat_after(state[FIRST], 1, n)
    state[TO_ACT] = state[FIRST]
    state[PHASE] = PHASE_PROJECT


# ---------------------------------------------------------------------------------------------------
# Maka Bana Mao (RULES.md, "Maka Bana Mao"): projects are sets of cards, built one card at a time,
# then a denunciation round, and an execution that may ask the executing colour.
@njit(cache=True)
def _clear_mao_season(state):
    for c in range(MAX_COLOURS):
        state[PROJECT_CARDS + c] = 0
        state[PROJECT_PAINT + c] = 0
        state[PROJECT_TOP + c] = -1
        state[PROJECT_NEXT + c] = 0
        state[ELIMINATED + c] = 0
        state[PASSED + c] = 0
        state[REVEALED_NOW + c] = 0
    state[DENOUNCER] = -1
    state[DENOUNCED] = -1
    state[PAINT_CASE] = CASE_NONE
    state[OFFERED] = -1
    state[EXECUTED] = 0
    state[PAINT_LEFT] = 0


@njit(cache=True, inline="always")
def card_count(state, colour):
    return popcount(state[PROJECT_CARDS + colour]) + state[PROJECT_PAINT + colour]


@njit(cache=True, inline="always")
def cheating_level(count):
    """[Who is eliminated for the season?]: the distance from the 3 cards of a normal project."""
    return count - 3 if count >= 3 else 3 - count


@njit(cache=True)
def _hidden_hand(state, colour):
    """The hand cards the colour is asked about after choosing its visible card, ``(cards, paints)``:
    every non-paint card but the visible one (bits 0..10), and its paint cards but the visible one.
    Both follow from public facts only (the number of players, the paint cards not discarded), so the
    number of decisions a project takes reveals nothing (RULINGS.md)."""
    top = state[PROJECT_TOP + colour]
    cards = HAND_CARDS[state[NUM_COLOURS]] & ~(1 << top)
    paints = state[PAINTS + colour] - (1 if top == PAINT_CARD else 0)
    return cards, paints


@njit(cache=True)
def asked_card(state, colour):
    """The card the colour is asked to add or keep now (0..11), -1 when every card was asked.  Cards
    are asked in increasing number, a paint card once per paint card in hand."""
    if state[PROJECT_TOP + colour] < 0:
        return -1  # the visible card comes first
    cards, paints = _hidden_hand(state, colour)
    i = state[PROJECT_NEXT + colour]
    k = popcount(cards)
    if i < k:
        return nth_bit(cards, i)
    return PAINT_CARD if i < k + paints else -1


@njit(cache=True)
def _addable(state, colour):
    """Cards the colour may still add to its project -- the one asked now and those to be asked later
    -- as bits 0..11 (bit 11: a paint card)."""
    card = asked_card(state, colour)
    if card < 0:
        return 0
    cards, paints = _hidden_hand(state, colour)
    bits = cards & ~((1 << card) - 1)
    if paints > 0:  # the paint cards are asked last, so one is still to come
        bits |= 1 << PAINT_CARD
    return bits


@njit(cache=True)
def _execution_spots(state, colour):
    """[4. Execution of projects]: the spots where the executing colour can still build or take back
    now, as a bit set; 0 when it has nothing (more) to do."""
    if state[RESERVE + colour] <= 0:
        return 0
    cards = state[PROJECT_CARDS + colour]
    paint = state[PROJECT_PAINT + colour]
    count = popcount(cards) + paint
    spots = 0
    if count <= 3:
        if state[EXECUTED] >= 1 or paint > 0:
            return 0  # one hut at most; a paint card makes a 1-3 card project illegal
        if popcount(cards & BEACH_CARDS) > 1 or popcount(cards & AREA_CARDS) > 1 or popcount(
                cards & THEME_CARDS) > 1:
            return 0  # two cards of one kind
        if count == 3 and (cards & BEACH_CARDS == 0 or cards & AREA_CARDS == 0 or cards & THEME_CARDS == 0):
            return 0
        for s in range(NUM_SPOTS):
            # an incomplete project is completed from the hand: any matching spot will do
            if SPOT_CARDS[s] & cards == cards and state[HUT + s] < 0 and state[TIKI + s] < 0:
                spots |= 1 << s
        return spots & IN_PLAY_BITS[state[NUM_COLOURS]]
    if state[EXECUTED] >= 2:
        return 0  # "the government doesn't tolerate more than 2 projects per developer per season"
    for s in range(NUM_SPOTS):
        if SPOT_CARDS[s] & ~cards != 0 or state[TIKI + s] >= 0:
            continue
        hut = state[HUT + s]
        if hut < 0:
            spots |= 1 << s
        elif state[PAINT_LEFT] > 0 and hut != colour:
            spots |= 1 << s
    return spots


@njit(cache=True)
def mao_choices(state):
    """The decision asked in a Mao game as ``(base, bits)``: the legal actions are ``base + i`` for
    every set bit ``i`` of ``bits`` (at most 40 of them)."""
    colour = state[TO_ACT]
    phase = state[PHASE]
    if state[STATUS] != STATUS_RUNNING or colour < 0:
        return 0, 0
    if phase == PHASE_PROJECT:
        if state[PROJECT_TOP + colour] < 0:
            bits = HAND_CARDS[state[NUM_COLOURS]]
            if state[PAINTS + colour] > 0:
                bits |= 1 << PAINT_CARD
            return MAO_TOP_BASE, bits
        return MAO_ADD_BASE, (1 << asked_card(state, colour)) | (1 << NUM_CARDS)  # MAO_KEEP follows the adds
    if phase == PHASE_DENOUNCE:
        n = state[NUM_COLOURS]
        bits = 1 << 4  # MAO_PASS
        for k in range(1, n):
            if owner(state, seat_after(colour, k, n)) != owner(state, colour):
                bits |= 1 << (k - 1)
        return MAO_DENOUNCE_BASE, bits
    if phase == PHASE_TIKI:
        return TIKI_BASE, tiki_spots(state, colour)
    stop = 1 << NUM_SPOTS  # MAO_STOP follows the spots
    if phase == PHASE_PAYBACK:
        if state[PAINT_CASE] == CASE_PAID_BACK:
            return MAO_SPOT_BASE, huts_of(state, state[DENOUNCED]) | stop
        return MAO_SPOT_BASE, huts_of(state, state[DENOUNCER])
    if phase == PHASE_REPAINT:
        return MAO_SPOT_BASE, (1 << state[OFFERED]) | stop
    if phase == PHASE_EXECUTE:
        spots = _execution_spots(state, colour)
        if card_count(state, colour) >= 4:
            spots |= stop
        return MAO_SPOT_BASE, spots
    return 0, 0


@njit(cache=True)
def _mao_is_legal(state, action):
    if state[STATUS] != STATUS_RUNNING or action < 0 or action >= NUM_ACTIONS_MAO:
        return False
    base, bits = mao_choices(state)
    i = action - base
    if i < 0 or i >= 63:
        return False
    return (bits >> i) & 1 == 1


@njit(cache=True)
def _mao_step(state, action):
    """Every Mao decision except the tiki placement, which is as in Haapii."""
    colour = state[TO_ACT]
    n = state[NUM_COLOURS]
    phase = state[PHASE]
    if phase == PHASE_PROJECT:
        # the visible card, then one add-or-keep decision per other hand card (RULES.md): a fixed
        # number of decisions, so that the turn order does not tell how many cards were added
        if action < MAO_ADD_BASE:
            card = action - MAO_TOP_BASE
            state[PROJECT_TOP + colour] = card
            state[PROJECT_NEXT + colour] = 0
        else:
            card = asked_card(state, colour)
            state[PROJECT_NEXT + colour] += 1
            if action == MAO_KEEP:
                card = -1
        if card == PAINT_CARD:
            state[PROJECT_PAINT + colour] += 1
        elif card >= 0:
            state[PROJECT_CARDS + colour] |= 1 << card
        if asked_card(state, colour) < 0:
            _mao_finish_project(state, colour)
    elif phase == PHASE_DENOUNCE:
        if action == MAO_PASS:
            state[PASSED + colour] = 1
            state[DECIDED] += 1
            if state[DECIDED] < n:
                state[TO_ACT] = seat_after(colour, 1, n)
            else:
                _start_tikis(state)
        else:
            _denounce(state, colour, seat_after(colour, action - MAO_DENOUNCE_BASE + 1, n))
    elif phase == PHASE_PAYBACK:
        if action == MAO_STOP:
            _start_tikis(state)  # Aata declines to be paid back
        elif state[PAINT_CASE] == CASE_PAID_BACK:
            _repaint(state, action - MAO_SPOT_BASE, colour, state[DENOUNCED])
            _start_tikis(state)
        else:
            _offer(state, action - MAO_SPOT_BASE)
    elif phase == PHASE_REPAINT:
        if action != MAO_STOP:
            _repaint(state, action - MAO_SPOT_BASE, colour, colour)
        _start_tikis(state)
    else:  # PHASE_EXECUTE
        if action == MAO_STOP:
            state[DECIDED] += 1
        else:
            _build_or_take_back(state, colour, action - MAO_SPOT_BASE)
        _mao_continue_execution(state)


@njit(cache=True)
def _mao_finish_project(state, colour):
    n = state[NUM_COLOURS]
    state[PROJECT_KIND + colour] = MAO_PROJECT
    state[DECIDED] += 1
    if state[DECIDED] < n:
        state[TO_ACT] = seat_after(colour, 1, n)
    else:
        # [2. Revealing Hints], then the denunciation round from the first player (RULINGS.md)
        state[PHASE] = PHASE_DENOUNCE
        state[DECIDED] = 0
        state[TO_ACT] = state[FIRST]


@njit(cache=True)
def _denounce(state, aata, vaea):
    """[Denunciation]: the first denunciation closes the round; the cheating levels decide who is
    eliminated, and an eliminated Vaea who could repaint a hut pays with the paint card."""
    state[DENOUNCER] = aata
    state[DENOUNCED] = vaea
    if cheating_level(card_count(state, vaea)) <= cheating_level(card_count(state, aata)):
        state[ELIMINATED + aata] = 1  # falsely denounced
        _start_tikis(state)
        return
    state[ELIMINATED + vaea] = 1
    if state[PROJECT_PAINT + vaea] == 0:
        _start_tikis(state)
        return
    # "could repaint": paint plus three cards naming a spot with another colour's hut right now (the
    # partner colour's included in the two-player game, RULINGS.md)
    cards = state[PROJECT_CARDS + vaea]
    could = 0
    aata_threatened = False
    for s in range(NUM_SPOTS):
        hut = state[HUT + s]
        if hut >= 0 and SPOT_CARDS[s] & ~cards == 0 and hut != vaea:
            could |= 1 << s
            if hut == aata:
                aata_threatened = True
    if could == 0:
        _start_tikis(state)
        return
    if aata_threatened:
        # "Aata must be paid back": Aata repaints a hut of Vaea's, or declines
        state[PAINT_CASE] = CASE_PAID_BACK
        if huts_of(state, vaea) != 0 and state[RESERVE + aata] > 0:
            state[PHASE] = PHASE_PAYBACK
            state[TO_ACT] = aata
            return
        _start_tikis(state)
        return
    # "Aata's not minding his business": Aata designates a hut of his, Vaea may repaint it
    state[PAINT_CASE] = CASE_NOT_MINDING
    huts = huts_of(state, aata)
    if huts == 0 or state[RESERVE + vaea] <= 0:
        _start_tikis(state)
    elif huts & (huts - 1) == 0:
        _offer(state, popcount(huts - 1))  # only one hut: nothing for Aata to choose
    else:
        state[PHASE] = PHASE_PAYBACK
        state[TO_ACT] = aata


@njit(cache=True)
def _offer(state, spot):
    state[OFFERED] = spot
    state[PHASE] = PHASE_REPAINT
    state[TO_ACT] = state[DENOUNCED]


@njit(cache=True)
def _repaint(state, spot, painter, paint_owner):
    """A repaint of the paint case: ignores tikis (none are placed yet) and uses one of Vaea's paint
    cards (``paint_owner``), however many the project held."""
    state[RESERVE + state[HUT + spot]] += 1
    state[HUT + spot] = painter
    state[RESERVE + painter] -= 1
    state[PAINTS + paint_owner] -= 1


@njit(cache=True)
def _start_tikis(state):
    state[PHASE] = PHASE_TIKI
    state[DECIDED] = 0
    state[TO_ACT] = state[FIRST]
    _skip_colours_without_tiki(state)


@njit(cache=True)
def _build_or_take_back(state, colour, spot):
    hut = state[HUT + spot]
    if hut >= 0:
        state[RESERVE + hut] += 1
        state[PAINTS + colour] -= 1  # the take-back's paint card is discarded
        state[PAINT_LEFT] -= 1
    state[HUT + spot] = colour
    state[RESERVE + colour] -= 1
    state[EXECUTED] += 1
    state[DONE_SPOTS + colour] |= 1 << spot


@njit(cache=True)
def _mao_continue_execution(state):
    """[4. Execution of projects], in turn from the first player: each colour's project is revealed,
    carried out where nothing is left to choose, and the colour is asked where something is."""
    n = state[NUM_COLOURS]
    while state[DECIDED] < n:
        c = seat_after(state[FIRST], state[DECIDED], n)
        if state[ELIMINATED + c] == 1:
            state[DECIDED] += 1
            continue
        if state[REVEALED_NOW + c] == 0:
            state[REVEALED_NOW + c] = 1
            state[LAST_CARDS + c] = state[PROJECT_CARDS + c]
            state[LAST_PAINT + c] = state[PROJECT_PAINT + c]
            state[DONE_SPOTS + c] = 0
            state[EXECUTED] = 0
            state[PAINT_LEFT] = state[PROJECT_PAINT + c]
        spots = _execution_spots(state, c)
        if spots == 0:
            state[DECIDED] += 1
        elif card_count(state, c) <= 3 and spots & (spots - 1) == 0:
            _build_or_take_back(state, c, popcount(spots - 1))  # a single spot: nothing to choose
        else:
            state[TO_ACT] = c
            return
    _end_season(state)


# ---------------------------------------------------------------------------------------------------
# Scoring
@njit(cache=True)
def huts_of(state, colour):
    """Bit set of the spots holding this colour's huts (39 spots fit in one int64)."""
    bits = 0
    for s in range(NUM_SPOTS):
        if state[HUT + s] == colour:
            bits |= 1 << s
    return bits


@njit(cache=True)
def group_points(huts):
    """Group points of a bit set of one colour's huts (rulebook "Final Scoring").  The agents score
    boards they imagine with it too: a group never counts more than a colour's 10 huts."""
    points = 0
    left = huts
    while left != 0:
        group = left & -left
        while True:  # grow the group through shared sides until it stops growing
            grown = group
            rest = group
            while rest != 0:
                grown |= NEIGHBOUR_BITS[lowest_bit(rest)]
                rest &= rest - 1
            grown &= left
            if grown == group:
                break
            group = grown
        points += GROUP_POINTS[min(popcount(group), HUTS_PER_COLOUR)]
        left &= ~group
    return points


@njit(cache=True)
def colour_score(state, colour):
    """Rulebook "Final Scoring" for one colour: group points plus beach bonuses, read off the board.
    Works on bit sets of spots so that scoring allocates nothing."""
    n = state[NUM_COLOURS]
    points = group_points(huts_of(state, colour))
    for b in range(NUM_BEACHES):
        if b == BIKINI and n == 3:
            continue
        mine = popcount(huts_of(state, colour) & BEACH_BITS[b])
        if mine == 0:
            continue  # a leader needs at least one hut there
        leaders = 0
        for c in range(n):
            other = popcount(huts_of(state, c) & BEACH_BITS[b])
            if other > mine:
                leaders = 99
            elif other == mine:
                leaders += 1
        if leaders == 1:
            points += 4
        elif leaders == 2:
            points += 2
    return points


@njit(cache=True)
def scores(state):
    """Write every colour's points to state[SCORE + colour] (done when the game ends)."""
    for c in range(MAX_COLOURS):
        state[SCORE + c] = colour_score(state, c) if c < state[NUM_COLOURS] else 0


@njit(cache=True)
def player_scores(state, out):
    """Points per player as the board stands (the sum of a player's colours in the two-player game)."""
    out[:] = 0
    for c in range(state[NUM_COLOURS]):
        out[owner(state, c)] += colour_score(state, c)


@njit(cache=True)
def scores_known_to(state, view, out):
    """Points per player as player ``view`` can count them: all of them, the huts are on the board."""
    player_scores(state, out)


@njit(cache=True)
def player_to_act(state):
    """The player whose decision is asked, -1 once the game is over."""
    return -1 if state[TO_ACT] < 0 else owner(state, state[TO_ACT])


@njit(cache=True)
def rewards(state, mode, out):
    """End-of-game reward per player (RULINGS.md, conventions); all zero while the game runs or
    after truncation.  ``out`` has one entry per player."""
    out[:] = 0.0
    if state[STATUS] != STATUS_TERMINATED:
        return
    player_scores(state, out)
    p = state[NUM_PLAYERS]
    if mode == REWARD_MARGIN:
        margins(out, p)
    elif mode == REWARD_WIN_LOSS:
        best = out[0]
        for i in range(p):
            best = max(best, out[i])
        leaders = 0
        for i in range(p):
            if out[i] == best:
                leaders += 1
        for i in range(p):
            if out[i] == best:
                out[i] = 1.0 if leaders == 1 else 0.0
            else:
                out[i] = -1.0


@njit(cache=True)
def end_code(state):
    """How the game ended, as a ``pacific_common.ends`` code (END_NONE while it runs).  Maka Bana ends
    only by its rulebook (a colour out of huts, or the season after a full beach) or at ``max_turns``."""
    if state[STATUS] == STATUS_RUNNING:
        return END_NONE
    return END_TRUNCATED if state[STATUS] == STATUS_TRUNCATED else END_RULES


# ---------------------------------------------------------------------------------------------------
# Observation
@njit(cache=True)
def viewpoint(state, player):
    """The colour a player looks from: the colour to act if it is theirs, else their next colour."""
    n = state[NUM_COLOURS]
    start = state[TO_ACT] if state[TO_ACT] >= 0 else state[FIRST]
    for i in range(n):
        c = seat_after(start, i, n)
        if owner(state, c) == player:
            return c
    return player


@njit(cache=True)
def observe(state, view, obs):
    """Write what colour ``view`` (and the player controlling it) may know into the int8 ``obs``.

    Hidden: the hidden cards of other players' current projects, and -- while projects are still being
    chosen -- even their shown cards, which are revealed together once everybody has chosen."""
    obs[:] = 0
    n = state[NUM_COLOURS]
    me = owner(state, view)
    revealed = state[PHASE] != PHASE_PROJECT
    # without branches: an empty spot (-1) writes its 0 into a cell that only it writes (its column of
    # some colour's plane), as the board's data would make every branch a coin toss
    for s in range(NUM_SPOTS):
        hut = state[HUT + s]
        obs[OBS_HUT + relative(hut, view, n) * NUM_SPOTS + s] = hut >= 0
        tiki = state[TIKI + s]
        obs[OBS_TIKI + relative(tiki, view, n) * NUM_SPOTS + s] = tiki >= 0
        obs[OBS_IN_PLAY + s] = spot_in_play(state, s)
    for k in range(n):
        c = seat_after(view, k, n)
        base = OBS_COLOUR + k * COLOUR_FEATURES
        mine = owner(state, c) == me
        obs[base + CF_PRESENT] = 1
        obs[base + CF_MINE] = mine
        obs[base + CF_FIRST] = state[FIRST] == c
        obs[base + CF_TO_ACT] = state[TO_ACT] == c
        obs[base + CF_RESERVE] = state[RESERVE + c]
        obs[base + CF_PAINTS] = state[PAINTS + c]
        kind = state[PROJECT_KIND + c]
        top = state[PROJECT_TOP + c]
        # a Mao stack's visible card: everyone sees it once the projects are revealed, its own player
        # from the moment it chose it, while it still adds the hidden cards (in Haapii ``top`` is -1)
        if kind == MAO_PROJECT or (mine and top >= 0):
            obs[base + CF_SUBMITTED] = kind == MAO_PROJECT
            if revealed or mine:
                if top == PAINT_CARD:
                    obs[base + CF_PAINT_SHOWN] = 1
                else:
                    obs[base + CF_SHOWN_CARD + top] = 1
        else:
            # without branches, like the spots above: a colour without a project (spot -1) writes its
            # zeros into cells of its own blocks that nothing else writes
            has = kind != NO_PROJECT
            seen = has & (revealed | mine)
            take_back = kind == TAKE_BACK
            spot = max(state[PROJECT_SPOT + c], 0)
            obs[base + CF_SUBMITTED] = has
            obs[base + CF_PAINT_SHOWN] = seen & take_back
            obs[base + CF_SHOWN_CARD + shown_card(spot, max(state[PROJECT_SHOWN + c], 0))] = seen
            own = OBS_OWN_PROJECT + k * (NUM_SPOTS + 1)
            obs[own + spot] = has & mine
            obs[own + NUM_SPOTS] = has & mine & take_back
        had = state[LAST_KIND + c] != NO_PROJECT
        last = OBS_LAST + k * (NUM_SPOTS + 2)
        obs[last + max(state[LAST_SPOT + c], 0)] = had
        obs[last + NUM_SPOTS] = had & (state[LAST_KIND + c] == TAKE_BACK)
        obs[last + NUM_SPOTS + 1] = state[LAST_SUCCESS + c] * had
    if state[PHASE] <= PHASE_OVER:
        obs[OBS_PHASE + state[PHASE]] = 1
    obs[OBS_LAST_SEASON] = state[LAST_SEASON]
    obs[OBS_TWO_PLAYER] = 1 if state[NUM_PLAYERS] == 2 else 0
    obs[OBS_SEASON] = min(state[SEASON], OBS_MAX)
    if state[VARIANT] == VARIANT_MAO:
        _observe_mao(state, view, obs)


@njit(cache=True)
def _observe_mao(state, view, obs):
    """The Mao block: card sets are seen by their owner, counts also by everyone once a denunciation
    or the execution reveals them."""
    n = state[NUM_COLOURS]
    me = owner(state, view)
    obs[OBS_M_PHASE + state[PHASE]] = 1
    for k in range(n):
        c = seat_after(view, k, n)
        mine = owner(state, c) == me
        denounced = c == state[DENOUNCER] or c == state[DENOUNCED]
        if mine:
            cards = state[PROJECT_CARDS + c]
            for card in range(PAINT_CARD):
                obs[OBS_M_PROJECT + k * NUM_CARDS + card] = (cards >> card) & 1
            obs[OBS_M_PROJECT + k * NUM_CARDS + PAINT_CARD] = state[PROJECT_PAINT + c]
        if mine or denounced or state[REVEALED_NOW + c] == 1:
            obs[OBS_M_COUNT + k] = card_count(state, c)
        cards = state[LAST_CARDS + c]
        for card in range(PAINT_CARD):
            obs[OBS_M_REVEALED + k * NUM_CARDS + card] = (cards >> card) & 1
        obs[OBS_M_REVEALED + k * NUM_CARDS + PAINT_CARD] = state[LAST_PAINT + c]
        obs[OBS_M_REVEALED_NOW + k] = state[REVEALED_NOW + c]
        done = state[DONE_SPOTS + c]
        while done != 0:
            obs[OBS_M_DONE + k * NUM_SPOTS + lowest_bit(done)] = 1
            done &= done - 1
        obs[OBS_M_DENOUNCER + k] = 1 if c == state[DENOUNCER] else 0
        obs[OBS_M_DENOUNCED + k] = 1 if c == state[DENOUNCED] else 0
        obs[OBS_M_ELIMINATED + k] = state[ELIMINATED + c]
        obs[OBS_M_PASSED + k] = state[PASSED + c]
    if state[PAINT_CASE] != CASE_NONE:
        obs[OBS_M_CASE + state[PAINT_CASE] - 1] = 1
    if state[OFFERED] >= 0:
        obs[OBS_M_OFFERED + state[OFFERED]] = 1
    if state[PHASE] == PHASE_EXECUTE:
        obs[OBS_M_EXECUTED] = state[EXECUTED]
        obs[OBS_M_PAINT_LEFT] = state[PAINT_LEFT]


@njit(cache=True, inline="always")
def observe_player(state, player, obs, mask):
    """What a player gets from the AEC environment, in one call: the observation from its viewpoint
    colour, and the legal-action mask if one of its colours is to act (zeros otherwise)."""
    observe(state, viewpoint(state, player), obs)
    if state[TO_ACT] >= 0 and owner(state, state[TO_ACT]) == player:
        legal_action_mask(state, mask)
    else:
        mask[:] = 0


# ---------------------------------------------------------------------------------------------------
# Random play, from the generator kept in the state (pacific_common.rng) or from one of the caller's
# (BatchEnv's, apart from the game's); the ``_with`` kernels are inlined, so that the game's own
# generator stays a constant offset into the row for the core's random play.
@njit(cache=True)
def random_action(state):
    """A uniformly random legal action, drawn with the game's own generator; -1 if none."""
    return random_action_with(state, state, RNG)


@njit(cache=True, inline="always")
def random_action_with(state, gens, g):
    """A uniformly random legal action, drawn with the generator ``gens[g]``; -1 if none."""
    if state[STATUS] != STATUS_RUNNING:
        return -1
    if state[VARIANT] == VARIANT_MAO:
        base, bits = mao_choices(state)
        if bits == 0:
            return -1
        return base + nth_bit(bits, draw(gens, g, popcount(bits)))
    colour = state[TO_ACT]
    if state[PHASE] == PHASE_PROJECT:
        spots = NUM_SPOTS if state[NUM_COLOURS] != 3 else NUM_SPOTS - 12
        kinds = 2 if state[PAINTS + colour] > 0 else 1
        r = draw(gens, g, spots * 3 * kinds)
        kind = r // (spots * 3)
        r = r % (spots * 3)
        spot = r // 3
        if state[NUM_COLOURS] == 3 and spot >= FIRST_BIKINI_SPOT:
            spot += 12  # skip over the Bikini spots, which are out of play
        return kind * TAKE_BACK_BASE + 3 * spot + r % 3
    legal = tiki_spots(state, colour)
    if legal == 0:
        return -1
    return TIKI_BASE + nth_bit(legal, draw(gens, g, popcount(legal)))


@njit(cache=True)
def next_seed(state):
    """Seed of the game that follows this one when nobody gives a new seed (autoreset, unseeded reset)."""
    return following_seed(state[SEED])


@njit(cache=True)
def play_random_games(state, num_steps):
    """Play uniformly random legal moves for ``num_steps`` decisions, starting a new game (same
    options, ``next_seed``) whenever one ends.  Returns the number of games finished."""
    return play_random_games_with(state, state, RNG, num_steps)


@njit(cache=True, inline="always")
def play_random_games_with(state, gens, g, num_steps):
    """``play_random_games`` with the moves drawn from the generator ``gens[g]``."""
    finished = 0
    for _ in range(num_steps):
        a = random_action_with(state, gens, g)
        step(state, a)
        if state[STATUS] != STATUS_RUNNING:
            finished += 1
            init(state, state[NUM_PLAYERS], state[VARIANT], state[MAX_TURNS], next_seed(state))
    return finished


# ---------------------------------------------------------------------------------------------------
# Validation (issue 23): a row from outside -- set_state, a crafted position, a notation text -- is
# checked before any kernel reads it.  The kernels index arrays with the row's values (a hut's colour,
# a spot, a card) and trust them; the validator makes sure every value is in range and that the row is
# a position the rules can reach, so that play from it stays inside the same set of rows.
VALID = 0
BAD_SIZE = 1
BAD_PLAYERS = 2
BAD_COLOURS = 3
BAD_VARIANT = 4
BAD_MAX_TURNS = 5
BAD_STATUS = 6
BAD_PHASE = 7
BAD_OVER = 8
BAD_FIRST = 9
BAD_TO_ACT = 10
BAD_SEASON = 11
BAD_FLAG = 12
BAD_RNG = 13
BAD_SEED = 14
BAD_ABSENT = 15
BAD_HUT = 16
BAD_TIKI = 17
BAD_OUT_OF_PLAY = 18
BAD_TWO_TIKIS = 19
BAD_TIKI_UNDER = 20
BAD_RESERVE = 21
BAD_PAINTS = 22
BAD_END = 23
BAD_EMPTY_RESERVE = 24
BAD_SCORE = 25
BAD_DECIDED = 26
BAD_TURN = 27
BAD_TIKI_TIME = 28
BAD_PROTECTION = 29
BAD_MAO_ENTRY = 30
BAD_HAAPII_ENTRY = 31
BAD_PROJECT = 32
BAD_PROJECT_SPOT = 33
BAD_SHOWN = 34
BAD_TAKE_BACK_PAINT = 35
BAD_LAST = 36
BAD_CARDS = 37
BAD_TOP = 38
BAD_ASKED = 39
BAD_PROJECT_PAINT = 40
BAD_DENUNCIATION = 41
BAD_PASSED = 42
BAD_ELIMINATED = 43
BAD_PAINT_CASE = 44
BAD_OFFERED = 45
BAD_REVEALED = 46
BAD_LAST_REVEALED = 47
BAD_DONE = 48
BAD_EXECUTED = 49
BAD_PAINT_LEFT = 50
BAD_FORCED = 51
BAD_STUCK = 52

# REASONS[code]: what is wrong and what is allowed, for the ValueError of ``core.check_state``.
REASONS = (
    "valid",
    f"a state row has {STATE_SIZE} entries",
    "NUM_PLAYERS must be 2 to 5",
    "NUM_COLOURS must be 4 with 2 players, otherwise the number of players",
    f"VARIANT must be {VARIANT_HAAPII} (Haapii) or {VARIANT_MAO} (Mao)",
    "MAX_TURNS must be at least 1",
    f"STATUS must be {STATUS_RUNNING} (running), {STATUS_TERMINATED} (terminated) or {STATUS_TRUNCATED} (truncated)",
    f"PHASE must be 0 to {PHASE_OVER} in Haapii, 0 to {NUM_PHASES - 1} in Mao",
    f"PHASE must be {PHASE_OVER} (over) exactly when STATUS says the game is over",
    "FIRST must be a colour in play (0 to NUM_COLOURS - 1)",
    "TO_ACT must be a colour in play while the game runs, -1 once it is over",
    "SEASON must be 0 to MAX_TURNS: below MAX_TURNS while the game runs, equal to it when truncated, "
    "at least 1 when terminated",
    "a flag must be 0 or 1",
    "RNG must not be 0 (a zero xorshift state never changes)",
    "SEED must be non-negative",
    "entries of a colour not in the game must hold their empty value",
    "a hut is -1 (none) or a colour in play",
    "a tiki is -1 (none) or a colour in play",
    "a spot out of play (Bikini with 3 players) holds no hut and no tiki",
    "a colour has one tiki",
    "a tiki stands on an empty spot or under a hut of its own colour (rulebook 3)",
    f"huts in reserve plus huts on the board must be {HUTS_PER_COLOUR} per colour",
    f"PAINTS must be 0 to {NUM_PAINT_CARDS}",
    "a terminated game needs a colour without huts in reserve or a last season; a truncated one has neither "
    "an empty reserve",
    "a reserve can only run empty during a season's repaints and execution: the game ends at the season's end",
    "SCORE is 0 while the game runs and the colour's final points once it is over",
    "DECIDED must be 0 to NUM_COLOURS - 1 while a phase runs (0 once over; the number of colours that passed "
    "during the paint case)",
    "TO_ACT must be the colour DECIDED seats clockwise from FIRST (Denunciation: the denouncer, then the "
    "denounced; never an eliminated colour)",
    "tikis stand only from the tiki phase to the end of the season, one for each colour that has placed it, "
    "none for an eliminated colour",
    "a tiki protects its colour's hut only while some project shows a paint card (rulebook 3.b)",
    "Mao entries must hold their empty value in a Haapii game",
    "Haapii entries (PROJECT_SPOT, PROJECT_SHOWN, LAST_*) must hold their empty value in a Mao game",
    "a colour has a project exactly when it has chosen one this season",
    "a project names a spot in play (-1 without a project)",
    "the shown card is 0 (beach), 1 (area) or 2 (theme) (-1 without a project)",
    "a take-back project needs a paint card in hand",
    "last season's project: kind -1, 0 or 1, an in-play spot and success 0 or 1, set for every colour "
    "exactly from the second season on",
    "a card set holds only cards of the colour's hand (bits 0 to 10; no Bikini with 3 players)",
    "PROJECT_TOP is -1 before the visible card is chosen, then a card of the hand that is in the project",
    "PROJECT_NEXT counts the hand cards asked so far: only cards asked can be in the project, and every "
    "card has been asked once the project is ready",
    "a project holds 0 to 2 paint cards, no more than the colour holds",
    "DENOUNCER and DENOUNCED are -1, or two colours of different players once a denunciation was made",
    "PASSED marks exactly the colours that passed in this season's denunciation round",
    "ELIMINATED marks the loser of this season's denunciation (the denouncer when the denounced colour "
    "cheats no more than it), and nobody else",
    "PAINT_CASE is 0 (none), 1 (paid back) or 2 (not minding his business), only for an eliminated "
    "denounced colour whose project holds paint, and must be set to ask the paint case",
    "OFFERED is -1 or the spot of the denouncer's hut offered for repaint (not minding his business)",
    "REVEALED_NOW marks the colours whose project the execution has reached this season",
    "a project revealed this season is also the colour's last revealed project (LAST_CARDS, LAST_PAINT)",
    "DONE_SPOTS holds at most 2 in-play spots; for the executing colour, as many as EXECUTED, each "
    "holding its hut",
    "EXECUTED is 0 to 2, and 0 outside the execution",
    "PAINT_LEFT is 0 outside the execution; then no more than the project's and the hand's paint cards, "
    "and only a take-back uses one",
    "an execution with a single spot and no stop is carried out without asking",
    "the colour to act must have a legal action while the game runs",
)
assert len(REASONS) == BAD_STUCK + 1

# Per-colour entries with the value they hold for a colour not in the game; the Mao ones come last.
_COLOUR_ENTRIES = np.array([RESERVE, PAINTS, PROJECT_KIND, PROJECT_SPOT, PROJECT_SHOWN, LAST_KIND, LAST_SPOT,
                            LAST_SUCCESS, SCORE, PROJECT_CARDS, PROJECT_PAINT, PROJECT_TOP, PROJECT_NEXT,
                            ELIMINATED, PASSED, REVEALED_NOW, LAST_CARDS, LAST_PAINT, DONE_SPOTS], dtype=np.int64)
_COLOUR_EMPTY = np.array([0, 0, -1, -1, -1, -1, -1, -1, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0, 0], dtype=np.int64)
_FIRST_MAO_ENTRY = 9
# Mao entries of the season, cleared at its end, with their cleared values.
_SEASON_ENTRIES = np.array([DENOUNCER, DENOUNCED, PAINT_CASE, OFFERED, EXECUTED, PAINT_LEFT], dtype=np.int64)
_SEASON_EMPTY = np.array([-1, -1, CASE_NONE, -1, 0, 0], dtype=np.int64)


@njit(cache=True)
def _lowest_bits(bits, k):
    """The ``k`` lowest set bits of ``bits``."""
    left = bits
    for _ in range(k):
        left &= left - 1
    return bits & ~left


@njit(cache=True)
def _hand_asked(state, colour):
    """Number of hand cards the colour is asked about after its visible card: the project is ready
    once PROJECT_NEXT reaches it."""
    cards, paints = _hidden_hand(state, colour)
    return popcount(cards) + max(paints, 0)


@njit(cache=True)
def validate(state):
    """``(code, offset)``: ``(VALID, -1)`` for a row the rules can reach, else the reason's code
    (``REASONS[code]``) and the offset of the first offending entry (``FIELDS`` names it).

    Checked: the range of every entry; huts and reserves adding up to 10 per colour; tikis one per
    colour, on empty spots or their own huts, standing only from the tiki phase on; the phase, the
    colour to act and the colours that have decided agreeing with each other; projects (Haapii: spot,
    shown card, paint; Mao: card sets within the hand, the visible card, the cards asked so far); the
    denunciation round, its loser and its paint case; the execution's counters; the end of the game
    and the scores; and that the colour to act has a legal action."""
    if state.shape[0] != STATE_SIZE:
        return BAD_SIZE, -1
    p = state[NUM_PLAYERS]
    if p < 2 or p > MAX_COLOURS:
        return BAD_PLAYERS, NUM_PLAYERS
    n = state[NUM_COLOURS]
    if n != (4 if p == 2 else p):
        return BAD_COLOURS, NUM_COLOURS
    mao = state[VARIANT] == VARIANT_MAO
    if not mao and state[VARIANT] != VARIANT_HAAPII:
        return BAD_VARIANT, VARIANT
    if state[MAX_TURNS] < 1:
        return BAD_MAX_TURNS, MAX_TURNS
    status = state[STATUS]
    if status < STATUS_RUNNING or status > STATUS_TRUNCATED:
        return BAD_STATUS, STATUS
    running = status == STATUS_RUNNING
    phase = state[PHASE]
    if phase < 0 or phase >= (NUM_PHASES if mao else PHASE_OVER + 1):
        return BAD_PHASE, PHASE
    if (phase == PHASE_OVER) == running:
        return BAD_OVER, PHASE
    first = state[FIRST]
    if first < 0 or first >= n:
        return BAD_FIRST, FIRST
    to_act = state[TO_ACT]
    if (running and (to_act < 0 or to_act >= n)) or (not running and to_act != -1):
        return BAD_TO_ACT, TO_ACT
    season = state[SEASON]
    if season < 0 or season > state[MAX_TURNS] or (running and season == state[MAX_TURNS]) or (
            status == STATUS_TRUNCATED and season != state[MAX_TURNS]) or (status == STATUS_TERMINATED and season == 0):
        return BAD_SEASON, SEASON
    if state[LAST_SEASON] != 0 and state[LAST_SEASON] != 1:
        return BAD_FLAG, LAST_SEASON
    if state[RNG] == 0:
        return BAD_RNG, RNG
    if state[SEED] < 0:
        return BAD_SEED, SEED
    for c in range(n, MAX_COLOURS):
        for i in range(_COLOUR_ENTRIES.shape[0]):
            if state[_COLOUR_ENTRIES[i] + c] != _COLOUR_EMPTY[i]:
                return BAD_ABSENT, _COLOUR_ENTRIES[i] + c

    # the board and the reserves
    in_play = IN_PLAY_BITS[n]
    huts = np.zeros(MAX_COLOURS, dtype=np.int64)
    tikis = np.zeros(MAX_COLOURS, dtype=np.int64)
    for s in range(NUM_SPOTS):
        hut = state[HUT + s]
        tiki = state[TIKI + s]
        if hut < -1 or hut >= n:
            return BAD_HUT, HUT + s
        if tiki < -1 or tiki >= n:
            return BAD_TIKI, TIKI + s
        if (in_play >> s) & 1 == 0 and (hut >= 0 or tiki >= 0):
            return BAD_OUT_OF_PLAY, HUT + s if hut >= 0 else TIKI + s
        if hut >= 0:
            huts[hut] += 1
        if tiki >= 0:
            tikis[tiki] += 1
            if tikis[tiki] > 1:
                return BAD_TWO_TIKIS, TIKI + s
            if hut >= 0 and hut != tiki:
                return BAD_TIKI_UNDER, TIKI + s
    empty_reserve = -1
    for c in range(n):
        if state[RESERVE + c] < 0 or state[RESERVE + c] + huts[c] != HUTS_PER_COLOUR:
            return BAD_RESERVE, RESERVE + c
        if state[PAINTS + c] < 0 or state[PAINTS + c] > NUM_PAINT_CARDS:
            return BAD_PAINTS, PAINTS + c
        if state[RESERVE + c] == 0 and empty_reserve < 0:
            empty_reserve = c
    if status == STATUS_TERMINATED and empty_reserve < 0 and state[LAST_SEASON] == 0:
        return BAD_END, STATUS
    if status == STATUS_TRUNCATED and empty_reserve >= 0:
        return BAD_END, RESERVE + empty_reserve
    # Haapii executes all at once; Mao's repaints (payback, repaint offer) come after the tiki phase starts
    if running and empty_reserve >= 0 and not (mao and (phase == PHASE_TIKI or phase == PHASE_EXECUTE)):
        return BAD_EMPTY_RESERVE, RESERVE + empty_reserve
    for c in range(n):
        if state[SCORE + c] != (colour_score(state, c) if not running else 0):
            return BAD_SCORE, SCORE + c

    # whose turn it is
    decided = state[DECIDED]
    if not running:
        if decided != 0:
            return BAD_DECIDED, DECIDED
    elif phase != PHASE_PAYBACK and phase != PHASE_REPAINT:
        if decided < 0 or decided >= n:
            return BAD_DECIDED, DECIDED
        if to_act != seat_after(first, decided, n):
            return BAD_TURN, TO_ACT

    if mao:
        code, offset = _validate_mao(state, n, phase, running, decided)
    else:
        code, offset = _validate_haapii(state, n, phase, running, decided)
    if code != VALID:
        return code, offset

    # tikis: from the tiki phase on, for the colours that have placed theirs, never an eliminated one's
    if running and phase != PHASE_EXECUTE:
        for s in range(NUM_SPOTS):
            tiki = state[TIKI + s]
            if tiki >= 0 and (phase != PHASE_TIKI or relative(tiki, first, n) >= decided
                              or state[ELIMINATED + tiki] == 1):
                return BAD_TIKI_TIME, TIKI + s
            if tiki >= 0 and state[HUT + s] >= 0 and not _own_huts_protectable(state):
                return BAD_PROTECTION, TIKI + s
    elif mao and running:
        for s in range(NUM_SPOTS):
            if state[TIKI + s] >= 0 and state[ELIMINATED + state[TIKI + s]] == 1:
                return BAD_TIKI_TIME, TIKI + s

    if running:
        if mao:
            stuck = mao_choices(state)[1] == 0
        else:
            stuck = phase == PHASE_TIKI and tiki_spots(state, to_act) == 0
        if stuck:
            return BAD_STUCK, TO_ACT
    return VALID, -1


@njit(cache=True)
def _validate_haapii(state, n, phase, running, decided):
    for c in range(n):
        for i in range(_FIRST_MAO_ENTRY, _COLOUR_ENTRIES.shape[0]):
            if state[_COLOUR_ENTRIES[i] + c] != _COLOUR_EMPTY[i]:
                return BAD_MAO_ENTRY, _COLOUR_ENTRIES[i] + c
    for i in range(_SEASON_ENTRIES.shape[0]):
        if state[_SEASON_ENTRIES[i]] != _SEASON_EMPTY[i]:
            return BAD_MAO_ENTRY, _SEASON_ENTRIES[i]
    in_play = IN_PLAY_BITS[n]
    for c in range(n):
        kind = state[PROJECT_KIND + c]
        spot = state[PROJECT_SPOT + c]
        shown = state[PROJECT_SHOWN + c]
        chosen = running and (phase == PHASE_TIKI or relative(c, state[FIRST], n) < decided)
        if kind < NO_PROJECT or kind > TAKE_BACK or (kind != NO_PROJECT) != chosen:
            return BAD_PROJECT, PROJECT_KIND + c
        if kind == NO_PROJECT:
            if spot != -1:
                return BAD_PROJECT_SPOT, PROJECT_SPOT + c
            if shown != -1:
                return BAD_SHOWN, PROJECT_SHOWN + c
        else:
            if spot < 0 or spot >= NUM_SPOTS or (in_play >> spot) & 1 == 0:
                return BAD_PROJECT_SPOT, PROJECT_SPOT + c
            if shown < SHOWN_BEACH or shown > SHOWN_THEME:
                return BAD_SHOWN, PROJECT_SHOWN + c
            if kind == TAKE_BACK and state[PAINTS + c] == 0:
                return BAD_TAKE_BACK_PAINT, PROJECT_KIND + c
        last = state[LAST_KIND + c]
        if last < NO_PROJECT or last > TAKE_BACK or (last == NO_PROJECT) != (state[SEASON] == 0):
            return BAD_LAST, LAST_KIND + c
        last_spot = state[LAST_SPOT + c]
        success = state[LAST_SUCCESS + c]
        if last == NO_PROJECT:
            if last_spot != -1:
                return BAD_LAST, LAST_SPOT + c
            if success != -1:
                return BAD_LAST, LAST_SUCCESS + c
        else:
            if last_spot < 0 or last_spot >= NUM_SPOTS or (in_play >> last_spot) & 1 == 0:
                return BAD_LAST, LAST_SPOT + c
            if success != 0 and success != 1:
                return BAD_LAST, LAST_SUCCESS + c
    return VALID, -1


@njit(cache=True)
def _validate_mao(state, n, phase, running, decided):
    hand = HAND_CARDS[n]
    in_play = IN_PLAY_BITS[n]
    first = state[FIRST]
    for c in range(n):
        for entry in (PROJECT_SPOT, PROJECT_SHOWN, LAST_KIND, LAST_SPOT, LAST_SUCCESS):
            if state[entry + c] != -1:
                return BAD_HAAPII_ENTRY, entry + c
    # ranges first: the checks further down read cards, counts and hands through them
    for c in range(n):
        cards = state[PROJECT_CARDS + c]
        paint = state[PROJECT_PAINT + c]
        top = state[PROJECT_TOP + c]
        kind = state[PROJECT_KIND + c]
        if cards < 0 or cards & ~hand != 0:
            return BAD_CARDS, PROJECT_CARDS + c
        if paint < 0 or paint > NUM_PAINT_CARDS:
            return BAD_PROJECT_PAINT, PROJECT_PAINT + c
        if top < -1 or top > PAINT_CARD or (0 <= top < PAINT_CARD and (hand >> top) & 1 == 0):
            return BAD_TOP, PROJECT_TOP + c
        if top == -1:
            if cards != 0:
                return BAD_TOP, PROJECT_CARDS + c
            if paint != 0:
                return BAD_TOP, PROJECT_PAINT + c
            if state[PROJECT_NEXT + c] != 0:
                return BAD_ASKED, PROJECT_NEXT + c
        elif (top == PAINT_CARD and paint == 0) or (top < PAINT_CARD and (cards >> top) & 1 == 0):
            return BAD_TOP, PROJECT_TOP + c
        if kind != NO_PROJECT and (kind != MAO_PROJECT or top < 0):
            return BAD_PROJECT, PROJECT_KIND + c
        nxt = state[PROJECT_NEXT + c]
        if nxt < 0 or nxt > popcount(hand) - 1 + NUM_PAINT_CARDS:
            return BAD_ASKED, PROJECT_NEXT + c
        for entry in (ELIMINATED, PASSED, REVEALED_NOW):
            if state[entry + c] != 0 and state[entry + c] != 1:
                return BAD_FLAG, entry + c
        if state[LAST_CARDS + c] < 0 or state[LAST_CARDS + c] & ~hand != 0:
            return BAD_CARDS, LAST_CARDS + c
        if state[LAST_PAINT + c] < 0 or state[LAST_PAINT + c] > NUM_PAINT_CARDS:
            return BAD_PROJECT_PAINT, LAST_PAINT + c
        done = state[DONE_SPOTS + c]
        if done < 0 or done & ~in_play != 0 or popcount(done) > 2:
            return BAD_DONE, DONE_SPOTS + c
    aata = state[DENOUNCER]
    vaea = state[DENOUNCED]
    if aata < -1 or aata >= n:
        return BAD_DENUNCIATION, DENOUNCER
    if vaea < -1 or vaea >= n:
        return BAD_DENUNCIATION, DENOUNCED
    if state[PAINT_CASE] < CASE_NONE or state[PAINT_CASE] > CASE_NOT_MINDING:
        return BAD_PAINT_CASE, PAINT_CASE
    if state[OFFERED] < -1 or state[OFFERED] >= NUM_SPOTS:
        return BAD_OFFERED, OFFERED
    if state[EXECUTED] < 0 or state[EXECUTED] > 2 or (phase != PHASE_EXECUTE and state[EXECUTED] != 0):
        return BAD_EXECUTED, EXECUTED
    if state[PAINT_LEFT] < 0 or (phase != PHASE_EXECUTE and state[PAINT_LEFT] != 0):
        return BAD_PAINT_LEFT, PAINT_LEFT

    if not running or phase == PHASE_PROJECT or phase == PHASE_DENOUNCE:
        # no denunciation yet this season (or the season was cleared at the end of the game)
        for i in range(_SEASON_ENTRIES.shape[0]):
            if state[_SEASON_ENTRIES[i]] != _SEASON_EMPTY[i]:
                return BAD_DENUNCIATION if i < 2 else (BAD_PAINT_CASE if i == 2 else BAD_OFFERED), _SEASON_ENTRIES[i]
        for c in range(n):
            seat = relative(c, first, n)
            kind = state[PROJECT_KIND + c]
            if not running:
                if kind != NO_PROJECT or state[PROJECT_TOP + c] != -1:
                    return BAD_PROJECT, PROJECT_KIND + c if kind != NO_PROJECT else PROJECT_TOP + c
            elif phase == PHASE_DENOUNCE or seat < decided:
                if kind != MAO_PROJECT:
                    return BAD_PROJECT, PROJECT_KIND + c
                if state[PROJECT_NEXT + c] != _hand_asked(state, c):
                    return BAD_ASKED, PROJECT_NEXT + c
            elif seat == decided:
                if kind != NO_PROJECT:
                    return BAD_PROJECT, PROJECT_KIND + c
                top = state[PROJECT_TOP + c]
                if top >= 0:
                    # only the cards asked so far (in increasing number, paint last) can be in the project
                    asked = state[PROJECT_NEXT + c]
                    cards, paints = _hidden_hand(state, c)
                    k = popcount(cards)
                    if asked >= k + max(paints, 0):
                        return BAD_ASKED, PROJECT_NEXT + c
                    hidden = state[PROJECT_CARDS + c] & ~(1 << top)
                    if hidden & ~_lowest_bits(cards, min(asked, k)) != 0:
                        return BAD_ASKED, PROJECT_CARDS + c
                    if state[PROJECT_PAINT + c] - (1 if top == PAINT_CARD else 0) > max(asked - k, 0):
                        return BAD_ASKED, PROJECT_PAINT + c
            elif state[PROJECT_TOP + c] != -1:
                return BAD_PROJECT, PROJECT_TOP + c
            if state[PROJECT_PAINT + c] > state[PAINTS + c]:
                return BAD_PROJECT_PAINT, PROJECT_PAINT + c
            passed = 1 if phase == PHASE_DENOUNCE and seat < decided else 0
            if state[PASSED + c] != passed:
                return BAD_PASSED, PASSED + c
            if state[ELIMINATED + c] != 0:
                return BAD_ELIMINATED, ELIMINATED + c
            if state[REVEALED_NOW + c] != 0:
                return BAD_REVEALED, REVEALED_NOW + c
        return VALID, -1

    # payback, repaint offer, tikis, execution: every colour has its project; the round is over
    loser = -1
    if aata == -1:
        if vaea != -1:
            return BAD_DENUNCIATION, DENOUNCED
        if phase == PHASE_PAYBACK or phase == PHASE_REPAINT:
            return BAD_DENUNCIATION, DENOUNCER
    else:
        if vaea == -1 or vaea == aata or owner(state, vaea) == owner(state, aata):
            return BAD_DENUNCIATION, DENOUNCED
    for c in range(n):
        if state[PROJECT_KIND + c] != MAO_PROJECT:
            return BAD_PROJECT, PROJECT_KIND + c
    if aata >= 0:
        loser = aata if cheating_level(card_count(state, vaea)) <= cheating_level(card_count(state, aata)) else vaea
    for c in range(n):
        seat = relative(c, first, n)
        passed = 1 if aata == -1 or seat < relative(aata, first, n) else 0
        if state[PASSED + c] != passed:
            return BAD_PASSED, PASSED + c
        if state[ELIMINATED + c] != (1 if c == loser else 0):
            return BAD_ELIMINATED, ELIMINATED + c
    case = state[PAINT_CASE]
    if case != CASE_NONE and (loser != vaea or loser < 0 or state[PROJECT_PAINT + vaea] == 0):
        return BAD_PAINT_CASE, PAINT_CASE
    offered = state[OFFERED]
    if offered >= 0 and (case != CASE_NOT_MINDING or (in_play >> offered) & 1 == 0):
        return BAD_OFFERED, OFFERED
    # a repaint takes one of the eliminated Vaea's paint cards, however many its project holds
    repainted = loser == vaea and loser >= 0 and (phase == PHASE_TIKI or phase == PHASE_EXECUTE)
    for c in range(n):
        asked = state[PROJECT_NEXT + c]
        if phase == PHASE_PAYBACK or phase == PHASE_REPAINT:
            if asked != _hand_asked(state, c):
                return BAD_ASKED, PROJECT_NEXT + c
        elif asked < _hand_asked(state, c):
            return BAD_ASKED, PROJECT_NEXT + c
        if state[REVEALED_NOW + c] == 0 and state[PROJECT_PAINT + c] > state[PAINTS + c] + (
                1 if repainted and c == vaea else 0):
            return BAD_PROJECT_PAINT, PROJECT_PAINT + c

    if phase == PHASE_PAYBACK or phase == PHASE_REPAINT:
        if state[DECIDED] != relative(aata, first, n):
            return BAD_DECIDED, DECIDED
        for c in range(n):
            if state[REVEALED_NOW + c] != 0:
                return BAD_REVEALED, REVEALED_NOW + c
        if phase == PHASE_PAYBACK:
            if state[TO_ACT] != aata:
                return BAD_TURN, TO_ACT
            if offered != -1:
                return BAD_OFFERED, OFFERED
            if case == CASE_PAID_BACK:
                if huts_of(state, vaea) == 0 or state[RESERVE + aata] == 0:
                    return BAD_PAINT_CASE, PAINT_CASE
            elif case == CASE_NOT_MINDING:
                if popcount(huts_of(state, aata)) < 2 or state[RESERVE + vaea] == 0:
                    return BAD_PAINT_CASE, PAINT_CASE
            else:
                return BAD_PAINT_CASE, PAINT_CASE
        else:
            if state[TO_ACT] != vaea:
                return BAD_TURN, TO_ACT
            if case != CASE_NOT_MINDING or state[RESERVE + vaea] == 0:
                return BAD_PAINT_CASE, PAINT_CASE
            if offered < 0 or state[HUT + offered] != aata:
                return BAD_OFFERED, OFFERED
        return VALID, -1

    to_act = state[TO_ACT]
    if state[ELIMINATED + to_act] == 1:
        return BAD_TURN, TO_ACT
    if phase == PHASE_TIKI:
        for c in range(n):
            if state[REVEALED_NOW + c] != 0:
                return BAD_REVEALED, REVEALED_NOW + c
        return VALID, -1
    # the execution: colours before the executing one were revealed unless eliminated
    for c in range(n):
        seat = relative(c, first, n)
        revealed = 1 if seat == decided or (seat < decided and state[ELIMINATED + c] == 0) else 0
        if state[REVEALED_NOW + c] != revealed:
            return BAD_REVEALED, REVEALED_NOW + c
        if revealed == 1:
            if state[LAST_CARDS + c] != state[PROJECT_CARDS + c]:
                return BAD_LAST_REVEALED, LAST_CARDS + c
            if state[LAST_PAINT + c] != state[PROJECT_PAINT + c]:
                return BAD_LAST_REVEALED, LAST_PAINT + c
    done = state[DONE_SPOTS + to_act]
    if popcount(done) != state[EXECUTED]:
        return BAD_DONE, DONE_SPOTS + to_act
    while done != 0:
        if state[HUT + lowest_bit(done)] != to_act:
            return BAD_DONE, DONE_SPOTS + to_act
        done &= done - 1
    left = state[PAINT_LEFT]
    paint = state[PROJECT_PAINT + to_act]
    if left > paint or left > state[PAINTS + to_act] or paint - left > state[EXECUTED]:
        return BAD_PAINT_LEFT, PAINT_LEFT
    if card_count(state, to_act) <= 3:
        spots = _execution_spots(state, to_act)
        if spots != 0 and spots & (spots - 1) == 0:
            return BAD_FORCED, TO_ACT
    return VALID, -1
