"""Mauna Kea's baselines as Numba kernels, and the loops that play them over many games.

``heuristic_action`` is ``HeuristicAgent.act`` for both rule sets: the basic game
(``agents.baselines.maunakea``) and the rules for advanced players
(``agents.baselines.variants.AdvancedStrategy``: keep the task cards most often fulfilled, then play
the basic strategy).  The loops below the line are word for word those of the other games' modules,
over this game's kernels.
"""
import numpy as np
from numba import njit, prange

from maunakea_env import kernels as C

from ..maunakea import decide
from ..variants import _KEEP
from .common import (
    GAME_OVER, KIND_EXTERNAL, KIND_HEURISTIC, KIND_RANDOM, OPPONENT_ILLEGAL, SEED_BOUND, WAIT_EXTERNAL,
    WAIT_LEARNER, draw, legal_count, random_choice, tie_noise,
)

# AdvancedStrategy's card values (higher: keep), by card kind
KEEP = np.array([_KEEP[kind] for kind in range(len(_KEEP))], dtype=np.int64)


@njit(cache=True)
def _advanced(obs, mask, noise, num_players, seed):
    """AdvancedStrategy.act (agents.baselines.variants)."""
    phase = np.argmax(obs[C.OBS_A_PHASE:C.OBS_A_PHASE + C.NUM_PHASES])
    if phase == C.PHASE_CARDS:
        # remove the card least worth keeping, the lowest action among equals
        best, least = -1, 1 << 30
        for a in range(mask.shape[0]):
            if mask[a] != 0 and KEEP[a - C.REMOVE_CARD_BASE] < least:
                best, least = a, KEEP[a - C.REMOVE_CARD_BASE]
        return best
    basic = mask[:C.NUM_ACTIONS]
    if phase == C.PHASE_PLACEMENT or phase == C.PHASE_TURN:
        for a in range(C.NUM_ACTIONS):
            if basic[a] != 0:
                return decide(obs[:C.OBS_SIZE], basic, noise[:C.NUM_ACTIONS], num_players, seed)
    for a in range(mask.shape[0]):
        if mask[a] != 0:
            return a
    return -1


@njit(cache=True)
def heuristic_action(obs, mask, num_players, variant, gens, seat, plan, noise):
    """``HeuristicAgent.act``: a lone legal action as it is; else tie-break noise and a seed for the
    lava samples from the seat's generator (in that order), then the rule set's strategy.  ``noise``:
    scratch of the mask's length."""
    count, only = legal_count(mask)
    if count <= 1:
        return only
    tie_noise(gens, seat, noise)
    seed = draw(gens, seat, SEED_BOUND)
    if variant == C.VARIANT_ADVANCED:
        return _advanced(obs, mask, noise, num_players, seed)
    return decide(obs, mask, noise, num_players, seed)


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
