"""Heuristic strategy for Make Make, read off the observation alone.

Make Make has no hidden information, so the whole position is rebuilt from the observation (clans
renumbered so that the viewer is clan 0) and every legal action is tried one step ahead on the
game's own core, ceremonial phase included.  The resulting position is scored as a human would
weigh it:

- **The race**: a clan's progress is its Tangata Manu in ceremonies (the win needs all 5), the
  amulet (Spiritual Supremacy: three sacred territories and more than anyone), its sacred
  territories (up to three count most), grounds two-thirds its own whose last territory is free
  (ceremonies one move away), and its tokens in supply.  Winning outright beats everything.
- **Safety**: a territory is at risk when some opponent has more tokens in supply (+3 for a chief in
  supply) than its strength; what it carries (ceremonies on its corners, sacred status) is counted as
  lost in part -- the most valuable one mostly, the others a little.  So ceremonies are guarded with
  enough tokens, and the chief goes where it protects most.
- **Opponents**: the same progress and risk are scored for every opponent, and the best one (the
  one closest to summoning Make Make) is subtracted: attacking a territory that carries an
  opponent's ceremonies or sacred majority is worth as much as building one's own, and an opponent
  about to win is stopped.
- **Tokens**: withdrawing returns tokens for later, counted through the supply term.
- Moai and ceremony choices (asked only when there are several) are scored the same way.

Ties are broken by a tiny random noise from the agent's own generator.
"""
import numpy as np
from numba import njit

from makemake_env import kernels as C
from makemake_env.board import (
    CHIEF_STRENGTH, GROUND_TERRITORIES, MAX_CLANS, NUM_GROUNDS, NUM_TERRITORIES, SACRED,
    TANGATA_MANU_PER_CLAN, TERRITORY_GROUNDS,
)

IS_SACRED = C.IS_SACRED
CLF = C.CLAN_FEATURES

# Tuning constants (points of "progress")
WIN = 1.0e6
MANU = 10.0          # per Tangata Manu in a ceremony
AMULET = 12.0
SACRED_FIRST3 = 3.5  # per sacred territory up to three
SACRED_MORE = 1.0    # per sacred territory beyond three
NEAR_GROUND = 2.0    # per free ground with two of its territories held and the third neutral
SUPPLY = 0.3         # per token in supply
RISK_TOP = 0.8       # share of the most valuable territory at risk counted as lost
RISK_REST = 0.15     # share of the other territories at risk
OPP_WEIGHT = 1.0


@njit(cache=True)
def rebuild(obs, state):
    """The full core state row from the observation, the viewer renumbered as clan 0 to act."""
    state[:] = 0
    p = 0
    for k in range(MAX_CLANS):
        if obs[C.OBS_CLAN + k * CLF + C.CF_PRESENT] != 0:
            p = k + 1
    state[C.NUM_PLAYERS] = p
    state[C.MAX_TURNS] = 1 << 40
    phase = 0
    for i in range(4):
        if obs[C.OBS_PHASE + i] != 0:
            phase = i
    state[C.PHASE] = phase
    state[C.TO_ACT] = 0
    state[C.STATUS] = C.STATUS_RUNNING
    state[C.AMULET] = -1
    state[C.WINNER] = -1
    state[C.MOAI_LEFT] = obs[C.OBS_MOAI_LEFT]
    for t in range(NUM_TERRITORIES):
        state[C.OWNER + t] = -1
        for k in range(p):
            if obs[C.OBS_CONTROL + k * NUM_TERRITORIES + t] != 0:
                state[C.OWNER + t] = k
        state[C.TOKENS + t] = obs[C.OBS_TOKENS + t]
        state[C.MOAI + t] = obs[C.OBS_MOAI + t]
    for g in range(NUM_GROUNDS):
        state[C.GROUND + g] = -1
        for k in range(p):
            if obs[C.OBS_MANU + k * NUM_GROUNDS + g] != 0:
                state[C.GROUND + g] = k
    for k in range(MAX_CLANS):
        state[C.CHIEF_AT + k] = -1
        state[C.LAST_ACTION + k] = C.NO_ACTION
    for k in range(p):
        for t in range(NUM_TERRITORIES):
            if obs[C.OBS_CHIEF + k * NUM_TERRITORIES + t] != 0:
                state[C.CHIEF_AT + k] = t
        base = C.OBS_CLAN + k * CLF
        if obs[base + C.CF_AMULET] != 0:
            state[C.AMULET] = k
        state[C.TOKEN_SUPPLY + k] = obs[base + C.CF_TOKENS]
        state[C.MANU_SUPPLY + k] = obs[base + C.CF_MANU_SUPPLY]
    return p


@njit(cache=True)
def _counts(state, t, clan):
    return state[C.MOAI + t] == 1 or state[C.OWNER + t] == clan


@njit(cache=True)
def _progress(state, clan, p):
    """How close a clan is to summoning Make Make, minus what it stands to lose next round.  The
    definition, one clan at a time; ``decide`` computes it for every clan at once (``_progress_all``,
    held equal to this by tests/test_heuristic.py)."""
    manu = TANGATA_MANU_PER_CLAN - state[C.MANU_SUPPLY + clan]
    sac = 0
    for i in range(SACRED.shape[0]):
        if state[C.OWNER + SACRED[i]] == clan:
            sac += 1
    v = MANU * manu + SACRED_FIRST3 * min(sac, 3) + SACRED_MORE * max(sac - 3, 0)
    if state[C.AMULET] == clan:
        v += AMULET
    near = 0
    for g in range(NUM_GROUNDS):
        if state[C.GROUND + g] >= 0:
            continue
        held = 0
        free = 0
        for i in range(3):
            t = GROUND_TERRITORIES[g, i]
            if _counts(state, t, clan):
                held += 1
            elif state[C.OWNER + t] < 0:
                free += 1
        if held == 2 and free == 1:
            near += 1
    v += NEAR_GROUND * min(near, TANGATA_MANU_PER_CLAN - manu + 1)
    v += SUPPLY * state[C.TOKEN_SUPPLY + clan]
    # risk: the strongest attack any opponent can make right now
    attack = 0
    for d in range(p):
        if d != clan:
            a = state[C.TOKEN_SUPPLY + d] + (CHIEF_STRENGTH if state[C.CHIEF_AT + d] < 0 else 0)
            if a > attack:
                attack = a
    top = 0.0
    rest = 0.0
    for t in range(NUM_TERRITORIES):
        if state[C.OWNER + t] != clan:
            continue
        s = state[C.TOKENS + t] + (CHIEF_STRENGTH if state[C.CHIEF_AT + clan] == t else 0)
        if attack <= s:
            continue
        worth = 1.0
        for j in range(6):
            g = TERRITORY_GROUNDS[t, j]
            if g >= 0 and state[C.GROUND + g] == clan:
                worth += MANU
        if IS_SACRED[t]:
            worth += SACRED_FIRST3 if sac <= 3 else SACRED_MORE
            if sac == 3 and state[C.AMULET] == clan:
                worth += 2.0
        if worth > top:
            rest += top
            top = worth
        else:
            rest += worth
    return v - RISK_TOP * top - RISK_REST * rest


# NEAR_GROUND_TABLE[KINDS² x + KINDS y + z]: which clans hold a ground "one move away" (two
# territories count as theirs, the third is neutral; ``_progress``'s test) when its three territories
# are of kinds x, y, z: a clan 0 … 3 (its owner), MOAI_KIND (a Moai counts for every clan) or
# NEUTRAL_KIND; one count per clan, eight bits each.
MOAI_KIND = MAX_CLANS
NEUTRAL_KIND = MAX_CLANS + 1
KINDS = MAX_CLANS + 2
NEAR_GROUND_TABLE = np.zeros(KINDS ** 3, dtype=np.int64)
for _kinds in np.ndindex(KINDS, KINDS, KINDS):
    if _kinds.count(NEUTRAL_KIND) == 1:
        for _clan in range(MAX_CLANS):
            if sum(k == _clan or k == MOAI_KIND for k in _kinds) == 2:
                NEAR_GROUND_TABLE[KINDS * KINDS * _kinds[0] + KINDS * _kinds[1] + _kinds[2]] += 1 << (8 * _clan)


@njit(cache=True)
def _progress_all(state, p, out, kinds):
    """``_progress`` of every clan at once into ``out[:p]``, the same numbers to the last bit: the same
    sums in the same order, from counts taken in one pass over the board instead of one pass per clan.
    ``decide`` scores every legal action with it; ``_progress`` for each clan took five sixths of the
    heuristic's time.  ``out`` (float64) and ``kinds`` (int64) hold ``3 * MAX_CLANS`` and
    ``NUM_TERRITORIES + MAX_CLANS`` values of scratch."""
    for t in range(NUM_TERRITORIES):
        owner = state[C.OWNER + t]
        kinds[t] = MOAI_KIND if state[C.MOAI + t] == 1 else (owner if owner >= 0 else NEUTRAL_KIND)
    sacred = 0   # sacred territories, eight bits a clan
    for i in range(SACRED.shape[0]):
        owner = state[C.OWNER + SACRED[i]]
        if owner >= 0:
            sacred += 1 << (8 * owner)
    near = 0     # free grounds one move away, eight bits a clan
    for g in range(NUM_GROUNDS):
        if state[C.GROUND + g] < 0:
            near += NEAR_GROUND_TABLE[KINDS * KINDS * kinds[GROUND_TERRITORIES[g, 0]]
                                      + KINDS * kinds[GROUND_TERRITORIES[g, 1]] + kinds[GROUND_TERRITORIES[g, 2]]]
    for clan in range(p):
        manu = TANGATA_MANU_PER_CLAN - state[C.MANU_SUPPLY + clan]
        sac = (sacred >> (8 * clan)) & 255
        v = MANU * manu + SACRED_FIRST3 * min(sac, 3) + SACRED_MORE * max(sac - 3, 0)
        if state[C.AMULET] == clan:
            v += AMULET
        v += NEAR_GROUND * min((near >> (8 * clan)) & 255, TANGATA_MANU_PER_CLAN - manu + 1)
        v += SUPPLY * state[C.TOKEN_SUPPLY + clan]
        out[clan] = v
        out[MAX_CLANS + clan] = 0.0          # top
        out[2 * MAX_CLANS + clan] = 0.0      # rest
        attack = 0   # the strongest attack any opponent can make right now
        for d in range(p):
            if d != clan:
                a = state[C.TOKEN_SUPPLY + d] + (CHIEF_STRENGTH if state[C.CHIEF_AT + d] < 0 else 0)
                if a > attack:
                    attack = a
        kinds[NUM_TERRITORIES + clan] = attack
    # risk, territory by territory in the order _progress takes them, each for its own clan
    for t in range(NUM_TERRITORIES):
        clan = kinds[t]
        if clan >= MAX_CLANS:
            continue
        s = state[C.TOKENS + t] + (CHIEF_STRENGTH if state[C.CHIEF_AT + clan] == t else 0)
        if kinds[NUM_TERRITORIES + clan] <= s:
            continue
        sac = (sacred >> (8 * clan)) & 255
        worth = 1.0
        for j in range(6):
            g = TERRITORY_GROUNDS[t, j]
            if g >= 0 and state[C.GROUND + g] == clan:
                worth += MANU
        if IS_SACRED[t]:
            worth += SACRED_FIRST3 if sac <= 3 else SACRED_MORE
            if sac == 3 and state[C.AMULET] == clan:
                worth += 2.0
        top = out[MAX_CLANS + clan]
        if worth > top:
            out[2 * MAX_CLANS + clan] += top
            out[MAX_CLANS + clan] = worth
        else:
            out[2 * MAX_CLANS + clan] += worth
    for clan in range(p):
        out[clan] = out[clan] - RISK_TOP * out[MAX_CLANS + clan] - RISK_REST * out[2 * MAX_CLANS + clan]


@njit(cache=True)
def evaluate(state, p, out, kinds):
    """The position for clan 0: its progress minus the best opponent's (``out`` and ``kinds``: the
    scratch of ``_progress_all``)."""
    if state[C.WINNER] >= 0:
        return WIN if state[C.WINNER] == 0 else -WIN
    _progress_all(state, p, out, kinds)
    best = -1e18
    for c in range(1, p):
        if out[c] > best:
            best = out[c]
    return out[0] - OPP_WEIGHT * best


@njit(cache=True)
def decide(obs, mask, noise):
    state = np.zeros(C.STATE_SIZE, dtype=np.int64)
    p = rebuild(obs, state)
    buf = np.empty_like(state)
    out = np.empty(3 * MAX_CLANS)
    kinds = np.empty(NUM_TERRITORIES + MAX_CLANS, dtype=np.int64)
    best = -1e300
    best_action = -1
    n = mask.shape[0]
    for a in range(n):
        if mask[a] == 0:
            continue
        buf[:] = state
        if C.step(buf, a) != C.STEP_OK:
            continue
        v = evaluate(buf, p, out, kinds) + noise[a]
        if v > best:
            best = v
            best_action = a
    return best_action


def act(obs, mask, noise, num_players, seed=0):
    return int(decide(obs, mask, noise))
