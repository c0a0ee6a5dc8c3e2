"""Maka Bana's baselines as Numba kernels, and the loops that play them over many games.

``heuristic_action`` is ``HeuristicAgent.act`` for both variants: Haapii (``agents.baselines.makabana``)
and Mao (``agents.baselines.variants.MaoStrategy``, whose plan -- the hidden cards still to add to the
project being prepared -- lives in the seat's ``plan`` row: its length, then the cards).  The loops below
the line are word for word those of the other games' modules, over this game's kernels (a kernel handed
the game's functions would miss Numba's on-disk cache).
"""
import numpy as np
from numba import njit, prange

from makabana_env import kernels as C
from makabana_env.board import NEIGHBOURS, NUM_AREAS, NUM_BEACHES, NUM_SPOTS, SPOT_AREA, SPOT_BEACH, SPOT_THEME

from ..makabana import decide_project, decide_tiki
from .common import (
    GAME_OVER, KIND_EXTERNAL, KIND_HEURISTIC, KIND_RANDOM, OPPONENT_ILLEGAL, SEED_BOUND, WAIT_EXTERNAL,
    WAIT_LEARNER, draw, legal_count, random_choice, tie_noise,
)

CF = C.COLOUR_FEATURES


@njit(cache=True)
def _haapii(obs, mask, noise, num_players):
    if obs[C.OBS_PHASE + C.PHASE_PROJECT] != 0:
        return decide_project(obs, mask, noise, num_players)
    return decide_tiki(obs, mask, noise, num_players)


@njit(cache=True)
def _choose_project(obs, noise, num_players, plan):
    """MaoStrategy._choose_project: the Haapii project, then the plan to add its other cards hidden."""
    own_paint = obs[C.OBS_COLOUR + C.CF_PAINTS] > 0
    haapii_mask = np.zeros(C.NUM_ACTIONS, np.int8)
    for s in range(NUM_SPOTS):
        if obs[C.OBS_IN_PLAY + s] != 0:
            haapii_mask[3 * s:3 * s + 3] = 1
            if own_paint:
                haapii_mask[C.TAKE_BACK_BASE + 3 * s:C.TAKE_BACK_BASE + 3 * s + 3] = 1
    a = decide_project(obs, haapii_mask, noise, num_players)
    take_back = a >= C.TAKE_BACK_BASE
    spot, shown = divmod(a - C.TAKE_BACK_BASE if take_back else a, 3)
    cards = np.array([SPOT_BEACH[spot], NUM_BEACHES + SPOT_AREA[spot],
                      NUM_BEACHES + NUM_AREAS + SPOT_THEME[spot]], dtype=np.int64)
    top = cards[shown]
    first, second = cards[(shown + 1) % 3], cards[(shown + 2) % 3]
    plan[0] = 2
    plan[1], plan[2] = min(first, second), max(first, second)
    if take_back:
        plan[0] = 3
        plan[3] = C.PAINT_CARD
    return C.MAO_TOP_BASE + top


@njit(cache=True)
def _denounce(obs, mask):
    if obs[C.OBS_M_COUNT] == 3:
        for k in range(1, C.MAX_COLOURS):
            if mask[C.MAO_DENOUNCE_BASE + k - 1] != 0 and obs[C.OBS_COLOUR + k * CF + C.CF_PAINT_SHOWN] != 0:
                return C.MAO_DENOUNCE_BASE + k - 1
    return C.MAO_PASS


@njit(cache=True)
def _best_spot(obs, mask, noise, num_players):
    """MaoStrategy._best_spot over the spots the mask offers: -1 when the Haapii valuation takes none."""
    haapii_mask = np.zeros(C.NUM_ACTIONS, np.int8)
    for s in range(NUM_SPOTS):
        if mask[C.MAO_SPOT_BASE + s] == 0:
            continue
        base = 0
        for k in range(C.MAX_COLOURS):
            if obs[C.OBS_HUT + k * NUM_SPOTS + s] != 0:
                base = C.TAKE_BACK_BASE
        haapii_mask[base + 3 * s:base + 3 * s + 3] = 1
    a = decide_project(obs, haapii_mask, noise, num_players)
    if a < 0:
        return -1
    return (a % C.TAKE_BACK_BASE) // 3


@njit(cache=True)
def _mao(obs, mask, noise, num_players, plan):
    """MaoStrategy.act (agents.baselines.variants), phase by phase."""
    phase = np.argmax(obs[C.OBS_M_PHASE:C.OBS_M_PHASE + C.NUM_PHASES])
    haapii_obs = obs[:C.OBS_SIZE]
    haapii_noise = noise[:C.NUM_ACTIONS]
    if phase == C.PHASE_PROJECT:
        for a in range(C.MAO_TOP_BASE, C.MAO_ADD_BASE):
            if mask[a] != 0:
                return _choose_project(haapii_obs, haapii_noise, num_players, plan)
        # every other hand card is asked in turn: add the planned ones, keep the rest
        for i in range(plan[0]):
            card = plan[1 + i]
            if mask[C.MAO_ADD_BASE + card] != 0:
                for j in range(1 + i, plan[0]):
                    plan[j] = plan[j + 1]
                plan[0] -= 1
                return C.MAO_ADD_BASE + card
        return C.MAO_KEEP
    if phase == C.PHASE_TIKI:
        return decide_tiki(haapii_obs, mask[:C.NUM_ACTIONS], haapii_noise, num_players)
    if phase == C.PHASE_DENOUNCE:
        return _denounce(obs, mask)
    first = -1
    for s in range(NUM_SPOTS):
        if mask[C.MAO_SPOT_BASE + s] != 0:
            first = s
            break
    if phase == C.PHASE_REPAINT:
        return C.MAO_SPOT_BASE + first  # a hut for the paint card: accept
    if phase == C.PHASE_PAYBACK and obs[C.OBS_M_CASE + 1] != 0:
        # the own hut with the fewest own neighbours, the lowest spot among equals
        best, fewest = -1, 1 << 30
        for s in range(NUM_SPOTS):
            if mask[C.MAO_SPOT_BASE + s] == 0:
                continue
            own = 0
            for t in NEIGHBOURS[s]:
                if t >= 0:
                    own += obs[C.OBS_HUT + t]
            if own < fewest:
                best, fewest = s, own
        return C.MAO_SPOT_BASE + best
    if first < 0:
        return C.MAO_STOP
    best = _best_spot(haapii_obs, mask, haapii_noise, num_players)
    if best < 0:
        # the Haapii strategy never takes back its own player's huts, and in the two-player game the
        # partner colour's hut may be all there is to take: stop where allowed
        return C.MAO_STOP if mask[C.MAO_STOP] != 0 else C.MAO_SPOT_BASE + first
    return C.MAO_SPOT_BASE + best


@njit(cache=True)
def heuristic_action(obs, mask, num_players, variant, gens, seat, plan, noise):
    """``HeuristicAgent.act``: a lone legal action as it is; else tie-break noise and a seed from the
    seat's generator (in that order), then the variant's strategy.  ``noise``: scratch of the mask's
    length."""
    count, only = legal_count(mask)
    if count <= 1:
        return only
    tie_noise(gens, seat, noise)
    draw(gens, seat, SEED_BOUND)   # drawn for every game alike; only Mauna Kea's strategy uses it
    if variant == C.VARIANT_MAO:
        return _mao(obs, mask, noise, num_players, plan)
    return _haapii(obs, mask, noise, num_players)


# ---------------------------------------------------------------------------------------------------
# The loops: identical in every game's module
@njit(cache=True)
def _advance_game(state, seat, kinds, gens, plans, obs, mask, noise, actor):
    """Play the Numba opponents of one game until the learner (``seat``) or an external opponent must
    act, or the game is over.  An external opponent's observation and mask are left in ``obs`` and
    ``mask``, its seat in ``actor``."""
    num_players = state[C.NUM_PLAYERS]
    variant = state[C.VARIANT]
    while state[C.STATUS] == C.STATUS_RUNNING:
        player = C.player_to_act(state)
        actor[0] = player
        if player == seat:
            return WAIT_LEARNER
        C.observe_player(state, player, obs, mask)
        kind = kinds[player]
        if kind == KIND_EXTERNAL:
            return WAIT_EXTERNAL
        if kind == KIND_RANDOM:
            action = random_choice(mask, gens, player)
        elif kind == KIND_HEURISTIC:
            action = heuristic_action(obs, mask, num_players, variant, gens, player, plans[player], noise)
        else:
            return OPPONENT_ILLEGAL
        if action < 0 or action >= mask.shape[0] or mask[action] == 0 or C.step(state, action) != C.STEP_OK:
            return OPPONENT_ILLEGAL
    return GAME_OVER


@njit(cache=True)
def advance_serial(states, seats, kinds, gens, plans, todo, obs, masks, waiting, actors):
    """``_advance_game`` for every game marked in ``todo``, on one thread."""
    noise = np.empty(masks.shape[1])
    for g in range(states.shape[0]):
        if todo[g]:
            waiting[g] = _advance_game(states[g], seats[g], kinds[g], gens[g], plans[g], obs[g], masks[g],
                                       noise, actors[g:g + 1])


@njit(cache=True, parallel=True)
def advance_parallel(states, seats, kinds, gens, plans, todo, obs, masks, waiting, actors):
    """``advance_serial`` on Numba's thread pool."""
    for g in prange(states.shape[0]):
        if todo[g]:
            noise = np.empty(masks.shape[1])
            waiting[g] = _advance_game(states[g], seats[g], kinds[g], gens[g], plans[g], obs[g], masks[g],
                                       noise, actors[g:g + 1])


@njit(cache=True)
def play_actions(states, games, actions):
    """Step each of ``games`` by its action (checked legal by the caller); False if a step was refused."""
    for j in range(games.shape[0]):
        if C.step(states[games[j]], actions[j]) != C.STEP_OK:
            return False
    return True


@njit(cache=True)
def observe_seats(states, seats, obs, masks):
    """Every game's observation and mask for its learner's seat."""
    for g in range(states.shape[0]):
        C.observe_player(states[g], seats[g], obs[g], masks[g])


@njit(cache=True)
def start_games(states, games, num_players, variant, max_turns, seeds):
    for j in range(games.shape[0]):
        C.init(states[games[j]], num_players, variant, max_turns, seeds[j])


@njit(cache=True)
def margins(states, seats, out):
    """Each learner's points margin: its points minus the best other player's, as it can count them."""
    scores = np.zeros(states.shape[1], dtype=np.int64)   # longer than any player count
    for g in range(states.shape[0]):
        n = states[g, C.NUM_PLAYERS]
        C.scores_known_to(states[g], seats[g], scores[:n])
        best = -(1 << 62)
        for p in range(n):
            if p != seats[g] and scores[p] > best:
                best = scores[p]
        out[g] = scores[seats[g]] - best
