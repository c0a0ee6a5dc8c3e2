"""The Numba rules core of Make Make.

A game is one row of an ``int64`` array of length ``STATE_SIZE``; a batch of games is a 2-D array with
one row per game.  Every function here is a pure ``@njit`` function over such a row, as in
``makabana_env.core``: ``init``, ``legal_action_mask``, ``step``, ``observe``, ``rewards``,
``random_action``.  Clan ``c`` is ``player_c``; clans play clockwise in index order from clan 0.

Action encoding (one ``Discrete(NUM_ACTIONS)`` space for every decision):

==============  ======================================================================================
actions         meaning
==============  ======================================================================================
0 … 791         dominance: place ``k`` tokens (1 … 11), with the chief or not, on territory ``t``:
                ``a = 22 t + 2 (k − 1) + chief``; on a neutral territory or to take an opponent's
792 … 827       dominance: withdraw from territory ``a − 792``, leaving one token
828 … 863       ceremonial phase: build the next Moai on territory ``a − 828`` (asked only when
                several can be built)
864 … 911       ceremonial phase: start a Tangata Manu ceremony on ground ``a − 864`` (asked only
                when there are more free grounds than Tangata Manu in supply)
==============  ======================================================================================

A clan with no legal dominance action passes without being asked; its ceremonial phase still follows.
"""
import numpy as np
from numba import njit

from pacific_common.ends import END_NONE, END_STALEMATE, END_TRUNCATED, END_WIN
from pacific_common.rng import draw, following_seed, seed_rng
from pacific_common.seats import margins, relative, seat_after

from .board import (
    CHIEF_STRENGTH, GROUND_TERRITORIES, MAX_CLANS, MOAI_SITES, NEIGHBOURS, NUM_GROUNDS, NUM_MOAI,
    NUM_TERRITORIES, SACRED, TANGATA_MANU_PER_CLAN, TERRITORY_GROUNDS, TOKENS_PER_CLAN,
)

# ---------------------------------------------------------------------------------------------------
# Action encoding
PLACE_CHOICES = 2 * TOKENS_PER_CLAN                 # k tokens × with / without the chief
WITHDRAW_BASE = NUM_TERRITORIES * PLACE_CHOICES
MOAI_BASE = WITHDRAW_BASE + NUM_TERRITORIES
CEREMONY_BASE = MOAI_BASE + NUM_TERRITORIES
NUM_ACTIONS = CEREMONY_BASE + NUM_GROUNDS

PHASE_DOMINANCE = 0
PHASE_MOAI = 1          # several Moai can be built: the clan chooses the next one
PHASE_CEREMONY = 2      # fewer Tangata Manu than free grounds: the clan chooses the next ground
PHASE_OVER = 3

STATUS_RUNNING = 0
STATUS_TERMINATED = 1
STATUS_TRUNCATED = 2

VARIANT_STANDARD = 0

STEP_OK = 0
STEP_ILLEGAL = 1
STEP_GAME_OVER = 2

REWARD_WIN_LOSS = 0
REWARD_SCORE = 1
REWARD_MARGIN = 2

# ---------------------------------------------------------------------------------------------------
# State layout: offsets into one game's row.
NUM_PLAYERS = 0
VARIANT = 1
MAX_TURNS = 2           # clan turns after which the game is truncated
PHASE = 3
TO_ACT = 4              # clan whose turn it is
TURN = 5                # clan turns completed
STATUS = 6
RNG = 7
SEED = 8
AMULET = 9              # clan holding the Make Make amulet (Spiritual Supremacy), -1 for nobody
WINNER = 10             # -1 while nobody has summoned Make Make
MOAI_LEFT = 11
OWNER = 12                                  # [territory] controlling clan, -1 neutral or Moai
TOKENS = OWNER + NUM_TERRITORIES            # [territory] dominance tokens there
MOAI = TOKENS + NUM_TERRITORIES             # [territory] 1 where a Moai stands
CHIEF_AT = MOAI + NUM_TERRITORIES           # [clan] territory of the chief, -1 in supply
GROUND = CHIEF_AT + MAX_CLANS               # [ground] clan whose Tangata Manu holds a ceremony there, -1
TOKEN_SUPPLY = GROUND + NUM_GROUNDS         # [clan] dominance tokens in supply
MANU_SUPPLY = TOKEN_SUPPLY + MAX_CLANS      # [clan] Tangata Manu in supply
LAST_ACTION = MANU_SUPPLY + MAX_CLANS       # [clan] its latest decision, PASSED or NO_ACTION
STATE_SIZE = LAST_ACTION + MAX_CLANS

# LAST_ACTION entries besides an action: the clan's latest turn was a pass (it had no legal dominance
# action), or nothing is recorded (before the clan's first turn).  Passes are public: every clan sees
# who could not act.
NO_ACTION = -1
PASSED = -2

# Every entry of the row by name, as (name, start, length), for messages and the notation.
FIELDS = (
    ("NUM_PLAYERS", NUM_PLAYERS, 1), ("VARIANT", VARIANT, 1), ("MAX_TURNS", MAX_TURNS, 1),
    ("PHASE", PHASE, 1), ("TO_ACT", TO_ACT, 1), ("TURN", TURN, 1), ("STATUS", STATUS, 1),
    ("RNG", RNG, 1), ("SEED", SEED, 1), ("AMULET", AMULET, 1), ("WINNER", WINNER, 1),
    ("MOAI_LEFT", MOAI_LEFT, 1), ("OWNER", OWNER, NUM_TERRITORIES), ("TOKENS", TOKENS, NUM_TERRITORIES),
    ("MOAI", MOAI, NUM_TERRITORIES), ("CHIEF_AT", CHIEF_AT, MAX_CLANS), ("GROUND", GROUND, NUM_GROUNDS),
    ("TOKEN_SUPPLY", TOKEN_SUPPLY, MAX_CLANS), ("MANU_SUPPLY", MANU_SUPPLY, MAX_CLANS),
    ("LAST_ACTION", LAST_ACTION, MAX_CLANS),
)

# ---------------------------------------------------------------------------------------------------
# Observation layout (int8) from one clan's point of view: relative clan k is k seats clockwise.
OBS_CONTROL = 0                                         # [k][territory] controlled by relative clan k
OBS_TOKENS = OBS_CONTROL + MAX_CLANS * NUM_TERRITORIES  # [territory] tokens there (0 … 11)
OBS_CHIEF = OBS_TOKENS + NUM_TERRITORIES                # [k][territory] chief of relative clan k
OBS_MOAI = OBS_CHIEF + MAX_CLANS * NUM_TERRITORIES      # [territory] Moai
OBS_MANU = OBS_MOAI + NUM_TERRITORIES                   # [k][ground] ceremony of relative clan k
CLAN_FEATURES = 7
CF_PRESENT, CF_TO_ACT, CF_AMULET, CF_TOKENS, CF_CHIEF_IN_SUPPLY, CF_MANU_SUPPLY, CF_SACRED = range(7)
OBS_CLAN = OBS_MANU + MAX_CLANS * NUM_GROUNDS           # [k][CLAN_FEATURES]
OBS_PHASE = OBS_CLAN + MAX_CLANS * CLAN_FEATURES        # one-hot: dominance, Moai, ceremony, over
OBS_MOAI_LEFT = OBS_PHASE + 4
OBS_TURN = OBS_MOAI_LEFT + 1                            # share of max_turns played, in percent
OBS_SIZE = OBS_TURN + 1
OBS_MAX = 100

# Bit sets over the 36 territories and 48 grounds (each fits in one int64), so that "are all these
# territories the clan's?" is one mask test.
def _bits(indices):
    bits = 0
    for i in indices:
        if i >= 0:
            bits |= 1 << int(i)
    return bits


GROUND_TERRITORY_BITS = np.array([_bits(ts) for ts in GROUND_TERRITORIES], dtype=np.int64)
NEIGHBOUR_BITS = np.array([_bits(ns) for ns in NEIGHBOURS], dtype=np.int64)
# grounds at a corner of t or of one of its neighbours: where a Tangata Manu enables a Moai on t
NEAR_GROUND_BITS = np.array([_bits([g for u in [t, *NEIGHBOURS[t]] if u >= 0 for g in TERRITORY_GROUNDS[u]])
                             for t in range(NUM_TERRITORIES)], dtype=np.int64)
IS_SACRED = np.zeros(NUM_TERRITORIES, dtype=np.bool_)
IS_SACRED[SACRED] = True
IS_MOAI_SITE = np.zeros(NUM_TERRITORIES, dtype=np.bool_)
IS_MOAI_SITE[MOAI_SITES] = True

# A territory's placements as a bit set of its PLACE_CHOICES mask cells (bit 2 (k - 1) + chief), so
# that the mask reads tables and writes eight cells at a time instead of running loops whose lengths
# the processor cannot predict (docs/benchmarks.md): PLACEMENT_CELLS[need, supply] holds k = need … supply without
# the chief, CHIEF_CELLS[need, supply] the same with it.  ``need`` runs to the strongest defence (11
# tokens and the chief) plus one.
MAX_NEED = TOKENS_PER_CLAN + CHIEF_STRENGTH + 1
PLACEMENT_CELLS = np.zeros((MAX_NEED + 1, TOKENS_PER_CLAN + 1), dtype=np.int64)
CHIEF_CELLS = np.zeros((MAX_NEED + 1, TOKENS_PER_CLAN + 1), dtype=np.int64)
for _need in range(1, MAX_NEED + 1):
    for _supply in range(TOKENS_PER_CLAN + 1):
        for _k in range(_need, _supply + 1):
            PLACEMENT_CELLS[_need, _supply] |= 1 << (2 * (_k - 1))
            CHIEF_CELLS[_need, _supply] |= 1 << (2 * (_k - 1) + 1)
# SPREAD[b]: eight mask cells (one byte each, in an int64) holding the bits of b
SPREAD = np.array([sum(((b >> i) & 1) << (8 * i) for i in range(8)) for b in range(256)], dtype=np.int64)
# the mask is written eight cells at a time, four territories (88 cells) at a time
assert PLACE_CHOICES == 22 and NUM_TERRITORIES % 4 == 0


# ---------------------------------------------------------------------------------------------------
# Small queries
@njit(cache=True, inline="always")
def strength(state, t):
    """Tokens plus 3 for a chief (rulebook, Dominance Phase b)."""
    owner = state[OWNER + t]
    if owner < 0:
        return 0
    return state[TOKENS + t] + (CHIEF_STRENGTH if state[CHIEF_AT + owner] == t else 0)


@njit(cache=True, inline="always")
def counts_for(state, t, clan):
    """A Moai counts as a territory of every clan (Protection of the Moai)."""
    if state[MOAI + t] == 1:
        return True
    return state[OWNER + t] == clan


@njit(cache=True)
def territory_bits(state, clan):
    """Bit set of the territories that count as the clan's: its own and every Moai."""
    bits = 0
    for t in range(NUM_TERRITORIES):
        if state[MOAI + t] == 1 or state[OWNER + t] == clan:
            bits |= 1 << t
    return bits


@njit(cache=True)
def manu_bits(state, clan):
    """Bit set of the grounds where the clan holds a ceremony."""
    bits = 0
    for g in range(NUM_GROUNDS):
        if state[GROUND + g] == clan:
            bits |= 1 << g
    return bits


@njit(cache=True, inline="always")
def all_of(bits, required):
    return (required & ~bits) == 0


@njit(cache=True)
def protected(state, g, clan):
    """A ceremony lasts while its clan controls the three territories around the ground (or Moai)."""
    for i in range(3):
        if not counts_for(state, GROUND_TERRITORIES[g, i], clan):
            return False
    return True


@njit(cache=True)
def sacred_count(state, clan):
    n = 0
    for i in range(SACRED.shape[0]):
        if state[OWNER + SACRED[i]] == clan:
            n += 1
    return n


@njit(cache=True)
def placement_legal(state, clan, t, k, chief):
    """Dominance Phase a and b: at least one token, never on the centre, a Moai or one's own
    territory; against another clan the placed strength must be greater than the defender's."""
    if state[MOAI + t] == 1 or state[OWNER + t] == clan:
        return False
    if k < 1 or k > state[TOKEN_SUPPLY + clan]:
        return False
    if chief and state[CHIEF_AT + clan] >= 0:
        return False
    if state[OWNER + t] >= 0:
        return k + (CHIEF_STRENGTH if chief else 0) > strength(state, t)
    return True


@njit(cache=True)
def withdraw_legal(state, clan, t):
    """Dominance Phase c: only from one's own territory holding more than a single token."""
    if state[OWNER + t] != clan:
        return False
    return strength(state, t) > 1


@njit(cache=True)
def moai_possible(state, clan, t):
    """Ceremonial Phase a: t is the clan's, every neighbour is the clan's or a Moai, the chief stands on
    t or a neighbour, and one of the clan's Tangata Manu holds a ceremony at a corner of t or of a
    neighbour."""
    return _moai_possible(state, clan, t, territory_bits(state, clan), manu_bits(state, clan))


@njit(cache=True, inline="always")
def _moai_possible(state, clan, t, mine, manu):
    if not IS_MOAI_SITE[t] or state[OWNER + t] != clan or not all_of(mine, NEIGHBOUR_BITS[t]):
        return False
    chief = state[CHIEF_AT + clan]
    if chief < 0 or ((1 << chief) & (NEIGHBOUR_BITS[t] | (1 << t))) == 0:
        return False
    return (manu & NEAR_GROUND_BITS[t]) != 0


@njit(cache=True)
def moai_count(state, clan):
    if state[CHIEF_AT + clan] < 0 or state[MANU_SUPPLY + clan] == TANGATA_MANU_PER_CLAN:
        return 0  # no Moai without the chief and a Tangata Manu on the board
    mine = territory_bits(state, clan)
    manu = manu_bits(state, clan)
    n = 0
    for i in range(MOAI_SITES.shape[0]):
        if _moai_possible(state, clan, MOAI_SITES[i], mine, manu):
            n += 1
    return n


@njit(cache=True)
def ceremony_possible(state, clan, g):
    """Ceremonial Phase b: a free ground whose three territories are the clan's (or Moai)."""
    if state[GROUND + g] >= 0:
        return False
    return protected(state, g, clan)


@njit(cache=True)
def ceremony_count(state, clan):
    mine = territory_bits(state, clan)
    n = 0
    for g in range(NUM_GROUNDS):
        if state[GROUND + g] < 0 and all_of(mine, GROUND_TERRITORY_BITS[g]):
            n += 1
    return n


@njit(cache=True)
def is_legal(state, action):
    if state[STATUS] != STATUS_RUNNING or action < 0 or action >= NUM_ACTIONS:
        return False
    clan = state[TO_ACT]
    phase = state[PHASE]
    if phase == PHASE_DOMINANCE:
        if action < WITHDRAW_BASE:
            t = action // PLACE_CHOICES
            r = action % PLACE_CHOICES
            return placement_legal(state, clan, t, r // 2 + 1, r % 2 == 1)
        if action < MOAI_BASE:
            return withdraw_legal(state, clan, action - WITHDRAW_BASE)
        return False
    if phase == PHASE_MOAI:
        if action < MOAI_BASE or action >= CEREMONY_BASE:
            return False
        return moai_possible(state, clan, action - MOAI_BASE)
    if phase == PHASE_CEREMONY:
        if action < CEREMONY_BASE:
            return False
        return ceremony_possible(state, clan, action - CEREMONY_BASE)
    return False


@njit(cache=True)
def _dominance_choices(state, clan, t, supply, chief_free):
    """The legal dominance actions on t, counted: placements without the chief (k from ``need`` up to
    the supply), with it (k from ``need_chief``), and a withdrawal (0 or 1)."""
    owner = state[OWNER + t]
    open_to_clan = 1 if state[MOAI + t] == 0 and owner != clan else 0
    defence = strength(state, t)
    need = defence + 1
    need_chief = max(1, need - CHIEF_STRENGTH)
    without = max(0, supply - need + 1) * open_to_clan
    with_chief = max(0, supply - need_chief + 1) * open_to_clan * chief_free
    withdraw = 1 if owner == clan and defence > 1 else 0
    return without, with_chief, withdraw, need, need_chief


@njit(cache=True, inline="always")
def _placement_cells(state, clan, t, supply, chief_free):
    """The legal placements on t as a bit set of its mask cells (``PLACEMENT_CELLS``), the same
    placements as ``_dominance_choices`` counts, and whether the clan may withdraw from t.  Written
    without branches on the board (``strength`` included): a branch on what stands where is a coin
    toss to the processor, and the mask asks this of all 36 territories at every step."""
    owner = state[OWNER + t]
    held = owner >= 0
    chief_there = state[CHIEF_AT + (owner if held else 0)] == t
    defence = (state[TOKENS + t] + CHIEF_STRENGTH * chief_there) * held
    need = defence + 1
    open_to_clan = (state[MOAI + t] == 0) & (owner != clan)
    cells = (PLACEMENT_CELLS[need, supply] | CHIEF_CELLS[max(1, need - CHIEF_STRENGTH), supply] * chief_free)
    return cells * open_to_clan, (owner == clan) & (defence > 1)


@njit(cache=True, inline="always")
def _put_cells(mask, at, bits):
    """Write the eight cells ``mask[at:at + 8]`` from the low byte of ``bits``: eight byte stores of
    one int64's bytes, which the compiler merges into one store."""
    x = SPREAD[bits & 255]
    for i in range(8):
        mask[at + i] = (x >> (8 * i)) & 255


@njit(cache=True)
def has_dominance_action(state, clan):
    """Whether the clan has any legal dominance action, counted as the mask and random play count them."""
    supply = state[TOKEN_SUPPLY + clan]
    chief_free = 1 if state[CHIEF_AT + clan] < 0 else 0
    for t in range(NUM_TERRITORIES):
        without, with_chief, withdraw, _, _ = _dominance_choices(state, clan, t, supply, chief_free)
        if without + with_chief + withdraw > 0:
            return True
    return False


@njit(cache=True)
def legal_action_mask(state, mask):
    """Write the int8 legal-action mask of the clan to act into ``mask``."""
    clan = state[TO_ACT]
    phase = state[PHASE] if state[STATUS] == STATUS_RUNNING else PHASE_OVER
    if phase == PHASE_DOMINANCE:
        for a in range(MOAI_BASE, NUM_ACTIONS):   # every dominance cell is written below
            mask[a] = 0
        supply = state[TOKEN_SUPPLY + clan]
        chief_free = state[CHIEF_AT + clan] < 0
        for q in range(0, NUM_TERRITORIES, 4):
            # four territories' 88 cells as 48 + 40 bits, eight cells at a time
            b0, w0 = _placement_cells(state, clan, q, supply, chief_free)
            b1, w1 = _placement_cells(state, clan, q + 1, supply, chief_free)
            b2, w2 = _placement_cells(state, clan, q + 2, supply, chief_free)
            b3, w3 = _placement_cells(state, clan, q + 3, supply, chief_free)
            low = b0 | (b1 << 22) | ((b2 & 15) << 44)
            high = (b2 >> 4) | (b3 << 18)
            at = q * PLACE_CHOICES
            for i in range(6):
                _put_cells(mask, at + 8 * i, low >> (8 * i))
            for i in range(5):
                _put_cells(mask, at + 48 + 8 * i, high >> (8 * i))
            mask[WITHDRAW_BASE + q] = w0
            mask[WITHDRAW_BASE + q + 1] = w1
            mask[WITHDRAW_BASE + q + 2] = w2
            mask[WITHDRAW_BASE + q + 3] = w3
        return
    mask[:] = 0
    if phase == PHASE_MOAI:
        for i in range(MOAI_SITES.shape[0]):
            if moai_possible(state, clan, MOAI_SITES[i]):
                mask[MOAI_BASE + MOAI_SITES[i]] = 1
    elif phase == PHASE_CEREMONY:
        for g in range(NUM_GROUNDS):
            if ceremony_possible(state, clan, g):
                mask[CEREMONY_BASE + g] = 1


# ---------------------------------------------------------------------------------------------------
# Game flow
@njit(cache=True)
def init(state, num_players, variant, max_turns, seed):
    """Set up a new game (rulebook, Preparation of the Game).  Options are checked by the caller."""
    state[:] = 0
    state[NUM_PLAYERS] = num_players
    state[VARIANT] = variant
    state[MAX_TURNS] = max_turns
    state[PHASE] = PHASE_DOMINANCE
    state[TO_ACT] = 0
    state[STATUS] = STATUS_RUNNING
    state[SEED] = seed
    state[RNG] = seed_rng(seed)
    state[AMULET] = -1
    state[WINNER] = -1
    state[MOAI_LEFT] = NUM_MOAI
    for t in range(NUM_TERRITORIES):
        state[OWNER + t] = -1
    for g in range(NUM_GROUNDS):
        state[GROUND + g] = -1
    for c in range(MAX_CLANS):
        state[CHIEF_AT + c] = -1
        state[LAST_ACTION + c] = NO_ACTION
        if c < num_players:
            state[TOKEN_SUPPLY + c] = TOKENS_PER_CLAN
            state[MANU_SUPPLY + c] = TANGATA_MANU_PER_CLAN


@njit(cache=True)
def _remove_clan_from(state, t):
    """All pieces on t go back to their owner's supply; t becomes neutral."""
    owner = state[OWNER + t]
    if owner < 0:
        return
    state[TOKEN_SUPPLY + owner] += state[TOKENS + t]
    state[TOKENS + t] = 0
    if state[CHIEF_AT + owner] == t:
        state[CHIEF_AT + owner] = -1
    state[OWNER + t] = -1


@njit(cache=True)
def _end_unprotected_ceremonies(state):
    """Dominance Phase b: a ceremony whose territories are no longer all its clan's ends at once."""
    for g in range(NUM_GROUNDS):
        clan = state[GROUND + g]
        if clan >= 0 and not protected(state, g, clan):
            state[GROUND + g] = -1
            state[MANU_SUPPLY + clan] += 1


@njit(cache=True)
def _after_action(state):
    """Spiritual Supremacy and victory, checked after every action of every kind.  Returns True when
    somebody has won."""
    best = 0
    leaders = 0
    leader = -1
    for c in range(state[NUM_PLAYERS]):
        n = sacred_count(state, c)
        if n > best:
            best, leaders, leader = n, 1, c
        elif n == best:
            leaders += 1
    if best >= 3 and leaders == 1:
        state[AMULET] = leader
    holder = state[AMULET]
    if holder >= 0 and state[MANU_SUPPLY + holder] == 0:
        state[WINNER] = holder
        state[STATUS] = STATUS_TERMINATED
        state[PHASE] = PHASE_OVER
        return True
    return False


@njit(cache=True)
def _dominance(state, clan, action):
    if action < WITHDRAW_BASE:
        t = action // PLACE_CHOICES
        r = action % PLACE_CHOICES
        _remove_clan_from(state, t)
        state[OWNER + t] = clan
        state[TOKENS + t] = r // 2 + 1
        state[TOKEN_SUPPLY + clan] -= r // 2 + 1
        if r % 2 == 1:
            state[CHIEF_AT + clan] = t
        _end_unprotected_ceremonies(state)
    else:
        t = action - WITHDRAW_BASE
        state[TOKEN_SUPPLY + clan] += state[TOKENS + t] - 1
        state[TOKENS + t] = 1
        if state[CHIEF_AT + clan] == t:
            state[CHIEF_AT + clan] = -1


@njit(cache=True)
def _build_moai(state, clan, t):
    """Ceremonial Phase a: the pieces on t return to supply (the chief too) and a Moai stands there."""
    _remove_clan_from(state, t)
    state[MOAI + t] = 1
    state[MOAI_LEFT] -= 1


@njit(cache=True)
def _start_ceremony(state, clan, g):
    state[GROUND + g] = clan
    state[MANU_SUPPLY + clan] -= 1


@njit(cache=True)
def _run_ceremonial_phase(state, moai_done):
    """Carry out the ceremonial phase of the clan to act as far as it goes without a choice: Moai
    first, then ceremonies (``moai_done`` once the ceremonies have begun: a Moai made possible by a
    ceremony waits for a later turn).  Returns True when it stopped: a choice is asked (PHASE_MOAI /
    PHASE_CEREMONY) or somebody won; False when the phase is complete."""
    clan = state[TO_ACT]
    while state[MOAI_LEFT] > 0 and not moai_done:
        n = moai_count(state, clan)
        if n == 0:
            break
        if n > 1:
            state[PHASE] = PHASE_MOAI
            return True
        for i in range(MOAI_SITES.shape[0]):
            if moai_possible(state, clan, MOAI_SITES[i]):
                _build_moai(state, clan, MOAI_SITES[i])
                break
        if _after_action(state):
            return True
    while state[MANU_SUPPLY + clan] > 0:
        n = ceremony_count(state, clan)
        if n == 0:
            break
        if n > state[MANU_SUPPLY + clan]:
            state[PHASE] = PHASE_CEREMONY
            return True
        for g in range(NUM_GROUNDS):
            if ceremony_possible(state, clan, g):
                _start_ceremony(state, clan, g)
                if _after_action(state):
                    return True
    return False


@njit(cache=True)
def has_ceremonial_work(state, clan):
    """Whether the clan's ceremonial phase would build or celebrate anything."""
    if state[MOAI_LEFT] > 0 and moai_count(state, clan) > 0:
        return True
    if state[MANU_SUPPLY + clan] > 0 and ceremony_count(state, clan) > 0:
        return True
    return False


@njit(cache=True)
def _finish_turn(state, moai_done):
    """Continue the ceremonial phase; once it is complete, the turn passes to the left.  A clan with no
    legal dominance action passes without being asked, and its ceremonial phase still takes place.
    When every clan in a row has passed with nothing to build or celebrate, nothing can ever change
    again: the game ends in a stalemate (RULES.md)."""
    idle = 0
    while not _run_ceremonial_phase(state, moai_done):
        moai_done = False
        state[TURN] += 1
        if state[TURN] >= state[MAX_TURNS]:
            state[STATUS] = STATUS_TRUNCATED
            state[PHASE] = PHASE_OVER
            return
        state[TO_ACT] = seat_after(state[TO_ACT], 1, state[NUM_PLAYERS])
        state[PHASE] = PHASE_DOMINANCE
        if has_dominance_action(state, state[TO_ACT]):
            return
        state[LAST_ACTION + state[TO_ACT]] = PASSED
        if has_ceremonial_work(state, state[TO_ACT]):
            idle = 0
        else:
            idle += 1
            if idle == state[NUM_PLAYERS]:
                state[STATUS] = STATUS_TERMINATED
                state[PHASE] = PHASE_OVER
                return


@njit(cache=True)
def step(state, action):
    """Apply the decision of the clan to act.  Returns STEP_OK, or STEP_ILLEGAL / STEP_GAME_OVER with
    the state left untouched."""
    if state[STATUS] != STATUS_RUNNING:
        return STEP_GAME_OVER
    if not is_legal(state, action):
        return STEP_ILLEGAL
    clan = state[TO_ACT]
    phase = state[PHASE]
    state[LAST_ACTION + clan] = action
    if phase == PHASE_DOMINANCE:
        _dominance(state, clan, action)
    elif phase == PHASE_MOAI:
        _build_moai(state, clan, action - MOAI_BASE)
    else:
        _start_ceremony(state, clan, action - CEREMONY_BASE)
    if _after_action(state):
        return STEP_OK
    _finish_turn(state, phase == PHASE_CEREMONY)
    return STEP_OK


# ---------------------------------------------------------------------------------------------------
# Results
@njit(cache=True)
def manu_on_board(state, clan):
    return TANGATA_MANU_PER_CLAN - state[MANU_SUPPLY + clan]


@njit(cache=True)
def player_scores(state, out):
    """Make Make has no points; a clan's score is its Tangata Manu in ceremonies plus 1 for the amulet,
    so the winner (5 + 1) always scores highest."""
    for c in range(state[NUM_PLAYERS]):
        out[c] = manu_on_board(state, c) + (1 if state[AMULET] == c else 0)


@njit(cache=True)
def scores_known_to(state, view, out):
    """Points per player as player ``view`` can count them: all of them, Make Make hides nothing."""
    player_scores(state, out)


@njit(cache=True)
def rewards(state, mode, out):
    """End-of-game reward per player; all zero while the game runs or after truncation."""
    out[:] = 0.0
    if state[STATUS] != STATUS_TERMINATED:
        return
    p = state[NUM_PLAYERS]
    if mode == REWARD_WIN_LOSS:
        if state[WINNER] >= 0:  # a stalemate has no winner and gives everybody 0
            for c in range(p):
                out[c] = 1.0 if state[WINNER] == c else -1.0
        return
    player_scores(state, out)
    if mode == REWARD_MARGIN:
        margins(out, p)


@njit(cache=True)
def end_code(state):
    """How the game ended, as a ``pacific_common.ends`` code (END_NONE while it runs).  Make Make ends in
    a win, a stalemate or a truncation; it has no scored end ("rules") and no "settled" one."""
    if state[STATUS] == STATUS_RUNNING:
        return END_NONE
    if state[STATUS] == STATUS_TRUNCATED:
        return END_TRUNCATED
    return END_WIN if state[WINNER] >= 0 else END_STALEMATE


# ---------------------------------------------------------------------------------------------------
# Observation
@njit(cache=True, inline="always")
def turn_percent(state):
    """Clan turns played as a share of ``max_turns``, in percent rounded down: a learner sees how close
    the truncation is whatever ``max_turns`` is, and 100 is reached only when the game is truncated."""
    turn, limit = state[TURN], state[MAX_TURNS]
    if turn < (1 << 56):
        return min(turn * OBS_MAX // limit, OBS_MAX)
    # turn * 100 would overflow: count the percents p with p * limit <= 100 * turn, split so that no
    # product leaves the int64 range (limit = 100 q + r, r < 100)
    q, r = limit // OBS_MAX, limit % OBS_MAX
    percent = 0
    for p in range(1, OBS_MAX + 1):
        if p * q <= turn - (p * r + OBS_MAX - 1) // OBS_MAX:
            percent = p
    return percent


@njit(cache=True)
def observe(state, view, obs):
    """Write clan ``view``'s observation into the int8 ``obs``.  Make Make has no hidden information."""
    obs[:] = 0
    p = state[NUM_PLAYERS]
    for t in range(NUM_TERRITORIES):
        owner = state[OWNER + t]
        if owner >= 0:
            obs[OBS_CONTROL + relative(owner, view, p) * NUM_TERRITORIES + t] = 1
        obs[OBS_TOKENS + t] = state[TOKENS + t]
        obs[OBS_MOAI + t] = state[MOAI + t]
    for g in range(NUM_GROUNDS):
        clan = state[GROUND + g]
        if clan >= 0:
            obs[OBS_MANU + relative(clan, view, p) * NUM_GROUNDS + g] = 1
    for k in range(p):
        c = seat_after(view, k, p)
        if state[CHIEF_AT + c] >= 0:
            obs[OBS_CHIEF + k * NUM_TERRITORIES + state[CHIEF_AT + c]] = 1
        base = OBS_CLAN + k * CLAN_FEATURES
        obs[base + CF_PRESENT] = 1
        obs[base + CF_TO_ACT] = 1 if state[TO_ACT] == c and state[STATUS] == STATUS_RUNNING else 0
        obs[base + CF_AMULET] = 1 if state[AMULET] == c else 0
        obs[base + CF_TOKENS] = state[TOKEN_SUPPLY + c]
        obs[base + CF_CHIEF_IN_SUPPLY] = 1 if state[CHIEF_AT + c] < 0 else 0
        obs[base + CF_MANU_SUPPLY] = state[MANU_SUPPLY + c]
        obs[base + CF_SACRED] = sacred_count(state, c)
    obs[OBS_PHASE + state[PHASE]] = 1
    obs[OBS_MOAI_LEFT] = state[MOAI_LEFT]
    obs[OBS_TURN] = turn_percent(state)


@njit(cache=True)
def observe_player(state, player, obs, mask):
    """The AEC observation of a player in one call: its view, and its mask if it is to act."""
    observe(state, player, obs)
    if state[STATUS] == STATUS_RUNNING and state[TO_ACT] == player:
        legal_action_mask(state, mask)
    else:
        mask[:] = 0


# ---------------------------------------------------------------------------------------------------
# Random play, from the generator kept in the state (pacific_common.rng) or from one of the caller's
# (BatchEnv's, apart from the game's); the ``_with`` kernels are inlined, so that the game's own
# generator stays a constant offset into the row for the core's random play.
@njit(cache=True)
def random_action(state):
    """A uniformly random legal action from the game's own generator; -1 if the game is over."""
    return random_action_with(state, state, RNG)


@njit(cache=True, inline="always")
def random_action_with(state, gens, g):
    """A uniformly random legal action from the generator ``gens[g]``; -1 if the game is over."""
    if state[STATUS] != STATUS_RUNNING:
        return -1
    clan = state[TO_ACT]
    if state[PHASE] == PHASE_DOMINANCE:
        supply = state[TOKEN_SUPPLY + clan]
        chief_free = 1 if state[CHIEF_AT + clan] < 0 else 0
        count = 0
        for t in range(NUM_TERRITORIES):
            without, with_chief, withdraw, _, _ = _dominance_choices(state, clan, t, supply, chief_free)
            count += without + with_chief + withdraw
        k = draw(gens, g, count)
        for t in range(NUM_TERRITORIES):
            without, with_chief, withdraw, need, need_chief = _dominance_choices(
                state, clan, t, supply, chief_free)
            if k < without:
                return t * PLACE_CHOICES + 2 * (need + k - 1)
            k -= without
            if k < with_chief:
                return t * PLACE_CHOICES + 2 * (need_chief + k - 1) + 1
            k -= with_chief
            if k < withdraw:
                return WITHDRAW_BASE + t
            k -= withdraw
        return -1
    base, size = (MOAI_BASE, NUM_TERRITORIES) if state[PHASE] == PHASE_MOAI else (CEREMONY_BASE, NUM_GROUNDS)
    count = 0
    for i in range(size):
        if is_legal(state, base + i):
            count += 1
    k = draw(gens, g, count)
    for i in range(size):
        if is_legal(state, base + i):
            if k == 0:
                return base + i
            k -= 1
    return -1


@njit(cache=True)
def next_seed(state):
    """Seed of the game that follows this one when nobody gives a new seed (autoreset, unseeded reset)."""
    return following_seed(state[SEED])


@njit(cache=True)
def play_random_games(state, num_steps):
    return play_random_games_with(state, state, RNG, num_steps)


@njit(cache=True, inline="always")
def play_random_games_with(state, gens, g, num_steps):
    """``play_random_games`` with the moves drawn from the generator ``gens[g]``."""
    finished = 0
    for _ in range(num_steps):
        step(state, random_action_with(state, gens, g))
        if state[STATUS] != STATUS_RUNNING:
            finished += 1
            init(state, state[NUM_PLAYERS], state[VARIANT], state[MAX_TURNS], next_seed(state))
    return finished


@njit(cache=True)
def player_to_act(state):
    """The player whose decision is asked (clan c is player_c), -1 once the game is over."""
    return state[TO_ACT] if state[STATUS] == STATUS_RUNNING else -1


# ---------------------------------------------------------------------------------------------------
# Validation: what every row reached by play satisfies.  ``validate`` returns ``(code, offset)``: code
# 0 for a valid row, else the number of the first broken rule (``REASONS[code]``) and the offset of
# the first entry that breaks it.  Ranges are checked before anything uses an entry as an index, so
# that a row of arbitrary numbers is read safely.
REASONS = (
    "valid",
    "the number of clans must be 2, 3 or 4",                                                      # 1
    "the only variant is standard (0)",                                                           # 2
    "max_turns must be at least 1",                                                               # 3
    "status must be 0 (running), 1 (terminated) or 2 (truncated)",                               # 4
    "phase must be 0 (dominance), 1 (Moai), 2 (ceremony) or 3 (over), and 3 exactly when the "
    "game is not running",                                                                        # 5
    "the clan to act must be one of the game's clans, 0 … num_players - 1",                       # 6
    "turn must be 0 … max_turns, below max_turns unless truncated and equal to it when truncated", # 7
    "clans play in turn from clan 0: the clan to act must be turn mod num_players (turn - 1 once "
    "truncated)",                                                                                 # 8
    "the random generator's state must not be 0 (xorshift stays at 0 for ever)",                  # 9
    "the seed must be non-negative",                                                              # 10
    "the amulet must be held by a clan of the game or nobody (-1)",                               # 11
    "the winner must be a clan of the game or nobody (-1)",                                       # 12
    "a Moai entry must be 0 or 1",                                                                # 13
    "a Moai stands only on an Inner territory (a Moai site)",                                     # 14
    "the owner must be a clan of the game or -1 (neutral or Moai); a Moai has no owner",          # 15
    "tokens: 1 … 11 on a clan's territory, 0 on a neutral territory or a Moai",                   # 16
    "a chief is on a territory of its own clan or in supply (-1); a clan not in the game has none", # 17
    "a ceremonial ground holds a clan of the game or nobody (-1)",                                # 18
    "a ceremony needs its three territories to be its clan's or Moai (Ceremonial Phase b)",       # 19
    "tokens on the board plus in supply must be 11 per clan, the supply never negative (0 for a "
    "clan not in the game)",                                                                                      # 20
    "Tangata Manu in ceremonies plus in supply must be 5 per clan, the supply never negative (0 for "
    "a clan not in the game)",                                                                    # 21
    "Moai built plus Moai left must be 12",                                                       # 22
    "a clan with at least 3 sacred territories and more than every other clan holds the amulet "
    "(Spiritual Supremacy)",                                                                      # 23
    "the amulet and all 5 Tangata Manu on the board win at once: exactly then the game is "
    "terminated with that clan as winner",                                                        # 24
    "a Moai choice is asked only when the clan to act can build two Moai or more",                # 25
    "a ceremony choice is asked only when the clan to act has fewer Tangata Manu in supply than "
    "free protected grounds",                                                                     # 26
    "the clan asked for a dominance action must have one (a clan without one passes)",           # 27
    "a game terminated without a winner is a stalemate: no clan may have a dominance action or "
    "anything to build or celebrate",                                                             # 28
    "a last action is an action 0 … 911, -1 (none) or -2 (passed); a clan not in the game has -1", # 29
    "a clan that has not had a turn yet has no last action (-1)",                                 # 30
    "a last action that built a Moai names a territory where a Moai stands",                      # 31
)


@njit(cache=True)
def validate(state):
    """``(0, 0)`` when the row is a state the rules can reach, else ``(code, offset)`` (see
    ``REASONS``).  The row must have ``STATE_SIZE`` entries (the checked face sees to it)."""
    p = state[NUM_PLAYERS]
    if p < 2 or p > MAX_CLANS:
        return 1, NUM_PLAYERS
    if state[VARIANT] != VARIANT_STANDARD:
        return 2, VARIANT
    if state[MAX_TURNS] < 1:
        return 3, MAX_TURNS
    status = state[STATUS]
    if status < STATUS_RUNNING or status > STATUS_TRUNCATED:
        return 4, STATUS
    phase = state[PHASE]
    if phase < PHASE_DOMINANCE or phase > PHASE_OVER or (phase == PHASE_OVER) != (status != STATUS_RUNNING):
        return 5, PHASE
    clan = state[TO_ACT]
    if clan < 0 or clan >= p:
        return 6, TO_ACT
    turn = state[TURN]
    if turn < 0 or turn > state[MAX_TURNS] or (turn == state[MAX_TURNS]) != (status == STATUS_TRUNCATED):
        return 7, TURN
    if clan != (turn - 1 if status == STATUS_TRUNCATED else turn) % p:
        return 8, TO_ACT
    if state[RNG] == 0:
        return 9, RNG
    if state[SEED] < 0:
        return 10, SEED
    if state[AMULET] < -1 or state[AMULET] >= p:
        return 11, AMULET
    if state[WINNER] < -1 or state[WINNER] >= p:
        return 12, WINNER
    # the board, entry by entry
    moai_built = 0
    for t in range(NUM_TERRITORIES):
        moai = state[MOAI + t]
        if moai != 0 and moai != 1:
            return 13, MOAI + t
        if moai == 1 and not IS_MOAI_SITE[t]:
            return 14, MOAI + t
        moai_built += moai
        owner = state[OWNER + t]
        if owner < -1 or owner >= p or (moai == 1 and owner != -1):
            return 15, OWNER + t
        tokens = state[TOKENS + t]
        if (owner < 0 and tokens != 0) or (owner >= 0 and (tokens < 1 or tokens > TOKENS_PER_CLAN)):
            return 16, TOKENS + t
    for c in range(MAX_CLANS):
        t = state[CHIEF_AT + c]
        if t != -1 and (c >= p or t < 0 or t >= NUM_TERRITORIES or state[OWNER + t] != c):
            return 17, CHIEF_AT + c
    for g in range(NUM_GROUNDS):
        holder = state[GROUND + g]
        if holder < -1 or holder >= p:
            return 18, GROUND + g
        if holder >= 0 and not protected(state, g, holder):
            return 19, GROUND + g
    for c in range(MAX_CLANS):
        on_board = 0
        ceremonies = 0
        if c < p:
            for t in range(NUM_TERRITORIES):
                if state[OWNER + t] == c:
                    on_board += state[TOKENS + t]
            for g in range(NUM_GROUNDS):
                if state[GROUND + g] == c:
                    ceremonies += 1
        pieces = TOKENS_PER_CLAN if c < p else 0
        if state[TOKEN_SUPPLY + c] != pieces - on_board or on_board > pieces:
            return 20, TOKEN_SUPPLY + c
        pieces = TANGATA_MANU_PER_CLAN if c < p else 0
        if state[MANU_SUPPLY + c] != pieces - ceremonies or ceremonies > pieces:
            return 21, MANU_SUPPLY + c
    if state[MOAI_LEFT] != NUM_MOAI - moai_built:
        return 22, MOAI_LEFT
    # the rules' consequences, checked after every action
    best = 0
    leaders = 0
    leader = -1
    for c in range(p):
        n = sacred_count(state, c)
        if n > best:
            best, leaders, leader = n, 1, c
        elif n == best:
            leaders += 1
    if best >= 3 and leaders == 1 and state[AMULET] != leader:
        return 23, AMULET
    holder = state[AMULET]
    summoned = holder >= 0 and state[MANU_SUPPLY + holder] == 0
    if summoned != (state[WINNER] >= 0) or (summoned and (state[WINNER] != holder or status != STATUS_TERMINATED)):
        return 24, WINNER
    if phase == PHASE_MOAI and (state[MOAI_LEFT] == 0 or moai_count(state, clan) < 2):
        return 25, PHASE
    if phase == PHASE_CEREMONY and (state[MANU_SUPPLY + clan] == 0
                                    or ceremony_count(state, clan) <= state[MANU_SUPPLY + clan]):
        return 26, PHASE
    if phase == PHASE_DOMINANCE and not has_dominance_action(state, clan):
        return 27, PHASE
    if status == STATUS_TERMINATED and state[WINNER] < 0:
        for c in range(p):
            if has_dominance_action(state, c) or has_ceremonial_work(state, c):
                return 28, STATUS
    # the record of the last actions
    for c in range(MAX_CLANS):
        last = state[LAST_ACTION + c]
        if last < PASSED or last >= NUM_ACTIONS or (c >= p and last != NO_ACTION):
            return 29, LAST_ACTION + c
        if c < p and last != NO_ACTION and (c > turn or (c == turn and phase == PHASE_DOMINANCE)):
            return 30, LAST_ACTION + c
        if MOAI_BASE <= last < CEREMONY_BASE and state[MOAI + last - MOAI_BASE] != 1:
            return 31, LAST_ACTION + c
    return 0, 0
