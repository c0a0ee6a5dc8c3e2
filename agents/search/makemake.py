"""Make Make pieces of the MCTS agent (see ``agents.search.makabana`` for the roles of each function).

Make Make has no hidden information and no chance (``makemake_env/kernels.py``: "Make Make has no
hidden information"); the row's generator only drives random play, so determinization just reseeds
it.  Random play is a poor guide here (a clan wins by holding three sacred territories and five
ceremonies at once, which random tokens rarely build), so the search evaluates positions after a
few steps with ``progress``: how close each clan is to summoning Make Make, minus what it stands to
lose to the strongest attack an opponent can make.
"""
import numpy as np
from numba import njit

from makemake_env import kernels as core
from makemake_env.board import (
    CHIEF_STRENGTH, GROUND_TERRITORIES, NUM_GROUNDS, NUM_TERRITORIES, TANGATA_MANU_PER_CLAN,
    TERRITORY_GROUNDS,
)
from pacific_common.bits import popcount
from pacific_common.rng import draw, seed_rng


# Weights of ``progress`` (points of an abstract scale; a Tangata Manu in a ceremony is 10)
MANU = 10.0            # per Tangata Manu in a ceremony (all five and the amulet win)
AMULET = 10.0          # holding the amulet (Spiritual Supremacy)
SACRED = 4.0           # per sacred territory, up to three
SACRED_EXTRA = 1.0     # per sacred territory beyond three
OPEN_GROUND = 2.5      # per free ground with two of its territories counting for the clan, the third neutral
SUPPLY = 0.3           # per token in supply
AT_RISK_TOP = 0.8      # share of the most valuable territory an opponent could take next
AT_RISK_REST = 0.1     # share of the others
WIN_POINTS = 1000.0    # a win, on the same scale


_popcount = popcount


@njit(cache=True)
def num_actions(state):
    return core.NUM_ACTIONS


@njit(cache=True)
def determinize(state, player, seed, belief):
    state[core.RNG] = seed_rng(seed)


@njit(cache=True)
def observed_key(state, action, viewer):
    return action


@njit(cache=True)
def marker(state):
    return 0


@njit(cache=True)
def event_key(state, before, viewer):
    return -1


@njit(cache=True)
def progress(state, clan, p):
    """How close ``clan`` is to summoning Make Make (see the weights above)."""
    mine = core.territory_bits(state, clan)
    manu = TANGATA_MANU_PER_CLAN - state[core.MANU_SUPPLY + clan]
    sac = core.sacred_count(state, clan)
    v = MANU * manu + SACRED * min(sac, 3) + SACRED_EXTRA * max(sac - 3, 0)
    if state[core.AMULET] == clan:
        v += AMULET
    open_grounds = 0
    for g in range(NUM_GROUNDS):
        if state[core.GROUND + g] >= 0:
            continue
        held = 0
        free = 0
        for i in range(3):
            t = GROUND_TERRITORIES[g, i]
            if (mine >> t) & 1:
                held += 1
            elif state[core.OWNER + t] < 0:
                free += 1
        if held == 2 and free == 1:
            open_grounds += 1
    v += OPEN_GROUND * min(open_grounds, TANGATA_MANU_PER_CLAN - manu + 1)
    v += SUPPLY * state[core.TOKEN_SUPPLY + clan]
    # what the strongest attack of an opponent could take: its supply, +3 if its chief is free
    attack = 0
    for d in range(p):
        if d != clan:
            a = state[core.TOKEN_SUPPLY + d] + (CHIEF_STRENGTH if state[core.CHIEF_AT + d] < 0 else 0)
            attack = max(attack, a)
    top = 0.0
    rest = 0.0
    for t in range(NUM_TERRITORIES):
        if state[core.OWNER + t] != clan or core.strength(state, t) >= attack:
            continue
        worth = 1.0
        for j in range(6):
            g = TERRITORY_GROUNDS[t, j]
            if g >= 0 and state[core.GROUND + g] == clan:
                worth += MANU
        if core.IS_SACRED[t]:
            worth += SACRED if sac <= 3 else SACRED_EXTRA
            if sac == 3 and state[core.AMULET] == clan:
                worth += AMULET * 0.5
        if worth > top:
            rest += top
            top = worth
        else:
            rest += worth
    return v - AT_RISK_TOP * top - AT_RISK_REST * rest


@njit(cache=True)
def _points(state, out):
    """``progress`` of every clan into ``out``; a win counts as ``WIN_POINTS``."""
    p = state[core.NUM_PLAYERS]
    if state[core.WINNER] >= 0:
        for c in range(p):
            out[c] = WIN_POINTS if c == state[core.WINNER] else 0.0
        return
    for c in range(p):
        out[c] = progress(state, c, p)


@njit(cache=True)
def evaluate(state, out):
    """Points per player for the value (``agents.search.common.margin_values``): ``progress``, a win
    counting ``WIN_POINTS``; a truncated game is judged on them too, as ``agents.arena.match`` adjudicates
    it.  Returns True for a stalemate, worth 0 to everybody."""
    if state[core.STATUS] == core.STATUS_TERMINATED and state[core.WINNER] < 0:
        return True
    _points(state, out)
    return False


@njit(cache=True)
def _margin(state, player, p, buf):
    _points(state, buf)
    best = -1e300
    for c in range(p):
        if c != player and buf[c] > best:
            best = buf[c]
    return buf[player] - best


@njit(cache=True)
def prior(state, player, mask, out):
    """Root preferences: the ``progress`` margin after the action (one step ahead on the core,
    ceremonial phase included)."""
    p = state[core.NUM_PLAYERS]
    work = state.copy()
    buf = np.zeros(core.MAX_CLANS, dtype=np.float64)
    for a in range(mask.shape[0]):
        if mask[a] == 0:
            continue
        work[:] = state
        core.step(work, a)
        out[a] = _margin(work, player, p, buf)


@njit(cache=True)
def _placement_score(state, clan, t, mine):
    """Cheap preference for putting tokens on territory t: sacred territories, grounds it would
    complete or bring within reach for the clan, ceremonies of others it would break."""
    score = 1
    if core.IS_SACRED[t]:
        score += 4
    for j in range(6):
        g = TERRITORY_GROUNDS[t, j]
        if g < 0:
            continue
        holder = state[core.GROUND + g]
        if holder >= 0:
            if holder != clan and state[core.OWNER + t] == holder:
                score += 6   # breaks that clan's ceremony
            continue
        held = _popcount(mine & core.GROUND_TERRITORY_BITS[g] & ~(1 << t))
        score += 8 if held == 2 else (2 if held == 1 else 0)
    return score


@njit(cache=True)
def rollout_action(state):
    """The rollout policy: for a dominance decision, a territory weighted by ``_placement_score``,
    taken with the fewest tokens that suffice (one more now and then, the chief only when it is
    needed or one time in four); withdrawing rarely; Moai and ceremony choices at random."""
    if state[core.STATUS] != core.STATUS_RUNNING:
        return -1
    if state[core.PHASE] != core.PHASE_DOMINANCE:
        return core.random_action(state)
    clan = state[core.TO_ACT]
    supply = state[core.TOKEN_SUPPLY + clan]
    chief_free = 1 if state[core.CHIEF_AT + clan] < 0 else 0
    mine = core.territory_bits(state, clan)
    total = 0
    for t in range(NUM_TERRITORIES):
        without, with_chief, withdraw, need, need_chief = core._dominance_choices(
            state, clan, t, supply, chief_free)
        if without + with_chief > 0:
            total += _placement_score(state, clan, t, mine)
    if total == 0:
        return core.random_action(state)
    r = draw(state, core.RNG, total)
    for t in range(NUM_TERRITORIES):
        without, with_chief, withdraw, need, need_chief = core._dominance_choices(
            state, clan, t, supply, chief_free)
        if without + with_chief == 0:
            continue
        r -= _placement_score(state, clan, t, mine)
        if r >= 0:
            continue
        base = t * core.PLACE_CHOICES
        use_chief = with_chief > 0 and (without == 0 or draw(state, core.RNG, 4) == 0)
        if use_chief:
            k = need_chief + (1 if with_chief > 1 and draw(state, core.RNG, 3) == 0 else 0)
            return base + 2 * (k - 1) + 1
        k = need + (1 if without > 1 and draw(state, core.RNG, 3) == 0 else 0)
        return base + 2 * (k - 1)
    return core.random_action(state)


@njit(cache=True)
def playout(state, max_steps, stop_clock):
    """``rollout_action`` for at most ``max_steps`` steps, until the turn count reaches
    ``stop_clock`` or the game ends."""
    steps = 0
    while steps < max_steps and state[core.STATUS] == core.STATUS_RUNNING and state[core.TURN] < stop_clock:
        core.step(state, rollout_action(state))
        steps += 1
