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

# Phases of a season that ask for a decision; execution and the end of the season need none.
PHASE_PROJECT = 0
PHASE_TIKI = 1
PHASE_OVER = 2

STATUS_RUNNING = 0
STATUS_TERMINATED = 1
STATUS_TRUNCATED = 2

VARIANT_HAAPII = 0

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
STATE_SIZE = SCORE + MAX_COLOURS

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
# Bikini's 12 spots are consecutive, so random play can step over them in the 3-player game.
FIRST_BIKINI_SPOT = int(np.nonzero(SPOT_BEACH == BIKINI)[0][0])
assert np.all(np.nonzero(SPOT_BEACH == BIKINI)[0] == np.arange(FIRST_BIKINI_SPOT, FIRST_BIKINI_SPOT + 12))


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


@njit(cache=True, inline="always")
def popcount(x):
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return (x * 0x0101010101010101) >> 56 & 0xFF


@njit(cache=True, inline="always")
def shown_card(spot, shown):
    """Index of the shown card among the 11 non-paint cards (4 beaches, 4 areas, 3 themes)."""
    if shown == SHOWN_BEACH:
        return SPOT_BEACH[spot]
    if shown == SHOWN_AREA:
        return NUM_BEACHES + SPOT_AREA[spot]
    return NUM_BEACHES + NUM_AREAS + SPOT_THEME[spot]


@njit(cache=True)
def paint_shown(state):
    """Rulebook 3.b: huts may be protected only while some project shows a paint card."""
    for c in range(state[NUM_COLOURS]):
        if state[PROJECT_KIND + c] == TAKE_BACK:
            return True
    return False


@njit(cache=True)
def tiki_spots(state, colour):
    """Rulebook 3: the spots where the colour may place its tiki, as a bit set -- an empty in-play spot
    without a tiki (3.a), or one of the player's own huts while some project shows paint (3.b)."""
    # the player's colours: the colour itself, and its partner in the two-player game
    mine = colour
    partner = (colour + 2) % 4 if state[NUM_PLAYERS] == 2 else colour
    huts = 0
    own = 0
    tikis = 0
    for s in range(NUM_SPOTS):
        hut = state[HUT + s]
        if hut >= 0:
            huts |= 1 << s
            if hut == mine or hut == partner:
                own |= 1 << s
        if state[TIKI + s] >= 0:
            tikis |= 1 << s
    free = ~huts
    if paint_shown(state):
        free |= own
    return free & ~tikis & IN_PLAY_BITS[state[NUM_COLOURS]]


@njit(cache=True)
def has_tiki_placement(state, colour):
    return tiki_spots(state, colour) != 0


@njit(cache=True)
def is_legal(state, action):
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
        return (tiki_spots(state, colour) >> (action - TIKI_BASE)) & 1 == 1
    return False


@njit(cache=True)
def legal_action_mask(state, mask):
    """Write the int8 legal-action mask of the colour to act into ``mask``."""
    mask[:] = 0
    if state[STATUS] != STATUS_RUNNING:
        return
    colour = state[TO_ACT]
    if state[PHASE] == PHASE_PROJECT:
        can_paint = state[PAINTS + colour] > 0
        for s in range(NUM_SPOTS):
            if spot_in_play(state, s):
                for shown in range(3):
                    mask[3 * s + shown] = 1
                    if can_paint:
                        mask[TAKE_BACK_BASE + 3 * s + shown] = 1
    elif state[PHASE] == PHASE_TIKI:
        spots = tiki_spots(state, colour)
        while spots != 0:
            mask[TIKI_BASE + popcount((spots & -spots) - 1)] = 1
            spots &= spots - 1


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
    if state[PHASE] == PHASE_PROJECT:
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
    """A colour that has no legal tiki placement places none; once every colour has had its turn the
    season is executed (no decision is needed for Haapii execution)."""
    n = state[NUM_COLOURS]
    while state[DECIDED] < n and not has_tiki_placement(state, state[TO_ACT]):
        state[DECIDED] += 1
        state[TO_ACT] = seat_after(state[TO_ACT], 1, n)
    if state[DECIDED] == n:
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
        if hut < 0 or owner(state, hut) == owner(state, colour):
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
def colour_score(state, colour):
    """Rulebook "Final Scoring" for one colour: group points plus beach bonuses, read off the board.
    Works on bit sets of spots so that scoring allocates nothing."""
    n = state[NUM_COLOURS]
    points = 0
    left = huts_of(state, colour)
    while left != 0:
        group = left & -left
        while True:  # grow the group through shared sides until it stops growing
            grown = group
            rest = group
            while rest != 0:
                grown |= NEIGHBOUR_BITS[popcount((rest & -rest) - 1)]
                rest &= rest - 1
            grown &= left
            if grown == group:
                break
            group = grown
        points += GROUP_POINTS[popcount(group)]
        left &= ~group
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
    for s in range(NUM_SPOTS):
        if state[HUT + s] >= 0:
            obs[OBS_HUT + relative(state[HUT + s], view, n) * NUM_SPOTS + s] = 1
        if state[TIKI + s] >= 0:
            obs[OBS_TIKI + relative(state[TIKI + s], view, n) * NUM_SPOTS + s] = 1
        if spot_in_play(state, s):
            obs[OBS_IN_PLAY + s] = 1
    for k in range(n):
        c = seat_after(view, k, n)
        base = OBS_COLOUR + k * COLOUR_FEATURES
        obs[base + CF_PRESENT] = 1
        obs[base + CF_MINE] = 1 if owner(state, c) == me else 0
        obs[base + CF_FIRST] = 1 if state[FIRST] == c else 0
        obs[base + CF_TO_ACT] = 1 if state[TO_ACT] == c else 0
        obs[base + CF_RESERVE] = state[RESERVE + c]
        obs[base + CF_PAINTS] = state[PAINTS + c]
        kind = state[PROJECT_KIND + c]
        if kind != NO_PROJECT:
            obs[base + CF_SUBMITTED] = 1
            if revealed or owner(state, c) == me:
                obs[base + CF_PAINT_SHOWN] = 1 if kind == TAKE_BACK else 0
                obs[base + CF_SHOWN_CARD + shown_card(state[PROJECT_SPOT + c], state[PROJECT_SHOWN + c])] = 1
            if owner(state, c) == me:
                own = OBS_OWN_PROJECT + k * (NUM_SPOTS + 1)
                obs[own + state[PROJECT_SPOT + c]] = 1
                obs[own + NUM_SPOTS] = 1 if kind == TAKE_BACK else 0
        if state[LAST_KIND + c] != NO_PROJECT:
            last = OBS_LAST + k * (NUM_SPOTS + 2)
            obs[last + state[LAST_SPOT + c]] = 1
            obs[last + NUM_SPOTS] = 1 if state[LAST_KIND + c] == TAKE_BACK else 0
            obs[last + NUM_SPOTS + 1] = state[LAST_SUCCESS + c]
    obs[OBS_PHASE + state[PHASE]] = 1
    obs[OBS_LAST_SEASON] = state[LAST_SEASON]
    obs[OBS_TWO_PLAYER] = 1 if state[NUM_PLAYERS] == 2 else 0
    obs[OBS_SEASON] = min(state[SEASON], OBS_MAX)


@njit(cache=True)
def observe_player(state, player, obs, mask):
    """What a player gets from the AEC environment, in one call: the observation from its viewpoint
    colour, and the legal-action mask if one of its colours is to act (zeros otherwise)."""
    observe(state, viewpoint(state, player), obs)
    if state[TO_ACT] >= 0 and owner(state, state[TO_ACT]) == player:
        legal_action_mask(state, mask)
    else:
        mask[:] = 0


# ---------------------------------------------------------------------------------------------------
# Random play, from the generator kept in the state (pacific_common.rng)
@njit(cache=True)
def random_action(state):
    """A uniformly random legal action, drawn with the game's own generator; -1 if none."""
    if state[STATUS] != STATUS_RUNNING:
        return -1
    colour = state[TO_ACT]
    if state[PHASE] == PHASE_PROJECT:
        spots = NUM_SPOTS if state[NUM_COLOURS] != 3 else NUM_SPOTS - 12
        kinds = 2 if state[PAINTS + colour] > 0 else 1
        k = draw(state, RNG, spots * 3 * kinds)
        kind = k // (spots * 3)
        k = k % (spots * 3)
        spot = k // 3
        if state[NUM_COLOURS] == 3 and spot >= FIRST_BIKINI_SPOT:
            spot += 12  # skip over the Bikini spots, which are out of play
        return kind * TAKE_BACK_BASE + 3 * spot + k % 3
    legal = tiki_spots(state, colour)
    if legal == 0:
        return -1
    for _ in range(draw(state, RNG, popcount(legal))):
        legal &= legal - 1  # drop the lowest spot until the chosen one is lowest
    return TIKI_BASE + popcount((legal & -legal) - 1)


@njit(cache=True)
def next_seed(state):
    """Seed of the game that follows this one when nobody gives a new seed (autoreset, unseeded reset)."""
    return following_seed(state[SEED])


@njit(cache=True)
def play_random_games(state, num_steps):
    """Play uniformly random legal moves for ``num_steps`` decisions, starting a new game (same
    options, ``next_seed``) whenever one ends.  Returns the number of games finished."""
    finished = 0
    for _ in range(num_steps):
        a = random_action(state)
        step(state, a)
        if state[STATUS] != STATUS_RUNNING:
            finished += 1
            init(state, state[NUM_PLAYERS], state[VARIANT], state[MAX_TURNS], next_seed(state))
    return finished
