"""Heuristic play of the variants, built on the basic games' strategies.

**Maka Bana Mao** (``MaoStrategy``), what a careful, honest player does:

- **Project**: choose the spot and the shown card as the Haapii strategy would, then prepare exactly
  those cards -- beach, area and theme (and paint for a take-back) -- so the project cheats by
  nothing (a 4-card take-back by one); the Haapii choice of the shown card becomes the visible card.
- **Denunciation**: with a clean 3-card project, denounce an opponent whose visible card is a paint
  card (in Mao a paint card means at least four cards, or an illegal project): the denunciation is
  then valid, or the opponent's project was worthless anyway.  Otherwise pass.
- **Tiki**: as in Haapii.
- **Execution and the paint cases**: build, take back or repaint where the Haapii valuation of one
  more hut is highest; never stop early; accept a repaint offered; when designating one's own hut
  for the opponent to repaint, give the one with the fewest own neighbours.

**Mauna Kea, rules for advanced players** (``AdvancedStrategy``):

- **Cards**: keep the task cards most often fulfilled (no deduction, a boat colour, two explorers
  saved, small artifact sets) and the helicopter; remove the rest.
- **Turn**: the basic strategy, which plays no action card; the task cards score by themselves.
"""
import numpy as np

from makabana_env import kernels as MB
from makabana_env.board import (
    NEIGHBOURS, NUM_AREAS, NUM_BEACHES, NUM_SPOTS, SPOT_AREA, SPOT_BEACH, SPOT_THEME,
)
from maunakea_env import kernels as MK

from ..base import ObservationError
from . import makabana as heuristic_makabana, maunakea as heuristic_maunakea

CF = MB.COLOUR_FEATURES


def _phase(obs, start, count):
    """The phase an observation's one-hot block names; ObservationError unless it holds one 1 among
    0s (a damaged entry read as the phase sent the strategy down another phase's road)."""
    block = obs[start:start + count]
    if not (((block == 0) | (block == 1)).all() and block.sum() == 1):
        raise ObservationError(f"observation: entries {start} to {start + count - 1} name the phase, one 1 "
                               f"among 0s, got {block.tolist()}")
    return int(np.argmax(block))


def _spot_cards(spot):
    """The beach, area and theme card numbers of a spot."""
    return [int(SPOT_BEACH[spot]), NUM_BEACHES + int(SPOT_AREA[spot]),
            NUM_BEACHES + NUM_AREAS + int(SPOT_THEME[spot])]


class MaoStrategy:
    def __init__(self):
        self.plan = []   # the hidden cards still to add to the project being prepared

    def act(self, obs, mask, noise, num_players, seed=0):
        phase = _phase(obs, MB.OBS_M_PHASE, MB.NUM_PHASES)
        haapii_obs = np.ascontiguousarray(obs[:MB.OBS_SIZE])
        haapii_noise = np.ascontiguousarray(noise[:MB.NUM_ACTIONS])
        if phase == MB.PHASE_PROJECT:
            if mask[MB.MAO_TOP_BASE:MB.MAO_ADD_BASE].any():
                return self._choose_project(haapii_obs, haapii_noise, num_players)
            # every other hand card is asked in turn: add the planned ones, keep the rest
            for card in self.plan:
                if mask[MB.MAO_ADD_BASE + card]:
                    self.plan.remove(card)
                    return MB.MAO_ADD_BASE + card
            return MB.MAO_KEEP
        if phase == MB.PHASE_TIKI:
            tiki_mask = np.ascontiguousarray(mask[:MB.NUM_ACTIONS])
            return int(heuristic_makabana.decide_tiki(haapii_obs, tiki_mask, haapii_noise, num_players))
        if phase == MB.PHASE_DENOUNCE:
            return self._denounce(obs, mask, num_players)
        spots = [s for s in range(NUM_SPOTS) if mask[MB.MAO_SPOT_BASE + s]]
        if phase == MB.PHASE_REPAINT:
            return MB.MAO_SPOT_BASE + spots[0]  # a hut for the paint card: accept
        if phase == MB.PHASE_PAYBACK and obs[MB.OBS_M_CASE + 1]:
            own = obs[MB.OBS_HUT:MB.OBS_HUT + NUM_SPOTS]
            return MB.MAO_SPOT_BASE + min(spots, key=lambda s: (sum(own[t] for t in NEIGHBOURS[s] if t >= 0), s))
        if not spots:
            return MB.MAO_STOP
        best = self._best_spot(haapii_obs, haapii_noise, num_players, spots)
        if best < 0:
            # the Haapii strategy never takes back its own player's huts, and in the two-player game
            # the partner colour's hut may be all there is to take: stop where allowed
            return MB.MAO_STOP if mask[MB.MAO_STOP] else MB.MAO_SPOT_BASE + spots[0]
        return MB.MAO_SPOT_BASE + best

    def _choose_project(self, obs, noise, num_players):
        own_paint = obs[MB.OBS_COLOUR + MB.CF_PAINTS] > 0
        haapii_mask = np.zeros(MB.NUM_ACTIONS, np.int8)
        for s in range(NUM_SPOTS):
            if obs[MB.OBS_IN_PLAY + s]:
                haapii_mask[3 * s:3 * s + 3] = 1
                if own_paint:
                    haapii_mask[MB.TAKE_BACK_BASE + 3 * s:MB.TAKE_BACK_BASE + 3 * s + 3] = 1
        a = int(heuristic_makabana.decide_project(obs, haapii_mask, noise, num_players))
        take_back = a >= MB.TAKE_BACK_BASE
        spot, shown = divmod(a - MB.TAKE_BACK_BASE if take_back else a, 3)
        cards = _spot_cards(spot)
        top = cards.pop(shown)
        self.plan = sorted(cards) + ([MB.PAINT_CARD] if take_back else [])
        return MB.MAO_TOP_BASE + top

    def _denounce(self, obs, mask, num_players):
        mine = obs[MB.OBS_M_COUNT]
        if abs(int(mine) - 3) == 0:
            for k in range(1, MB.MAX_COLOURS):
                shows_paint = obs[MB.OBS_COLOUR + k * CF + MB.CF_PAINT_SHOWN]
                if mask[MB.MAO_DENOUNCE_BASE + k - 1] and shows_paint:
                    return MB.MAO_DENOUNCE_BASE + k - 1
        return MB.MAO_PASS

    def _best_spot(self, obs, noise, num_players, spots):
        """The spot the Haapii valuation likes best, as a construction (empty) or take-back (a hut);
        -1 when it takes none of them (only huts of its own player's colours to take back)."""
        haapii_mask = np.zeros(MB.NUM_ACTIONS, np.int8)
        huts = obs[MB.OBS_HUT:MB.OBS_HUT + MB.MAX_COLOURS * NUM_SPOTS].reshape(MB.MAX_COLOURS, NUM_SPOTS)
        for s in spots:
            base = MB.TAKE_BACK_BASE if huts[:, s].any() else 0
            haapii_mask[base + 3 * s:base + 3 * s + 3] = 1
        a = int(heuristic_makabana.decide_project(obs, haapii_mask, noise, num_players))
        if a < 0:
            return -1
        return (a % MB.TAKE_BACK_BASE) // 3


# Mauna Kea: how much a card is worth keeping (higher: keep)
_KEEP = {8: 18, 9: 17, 10: 17, 11: 17, 12: 17, 7: 16, 17: 15, 3: 14, 0: 13, 4: 12, 2: 11, 5: 10,
         1: 9, 6: 8, 13: 7, 14: 6, 15: 5, 16: 4}


class AdvancedStrategy:
    def act(self, obs, mask, noise, num_players, seed=0):
        heuristic_maunakea.check_observation(obs[:MK.OBS_SIZE], num_players)   # before any kernel reads it
        phase = _phase(obs, MK.OBS_A_PHASE, MK.NUM_PHASES)
        legal = np.flatnonzero(mask)
        if phase == MK.PHASE_CARDS:
            return int(min(legal, key=lambda a: (_KEEP[int(a) - MK.REMOVE_CARD_BASE], a)))
        basic = np.ascontiguousarray(mask[:MK.NUM_ACTIONS])
        if phase in (MK.PHASE_PLACEMENT, MK.PHASE_TURN) and basic.any():
            return int(heuristic_maunakea.decide(np.ascontiguousarray(obs[:MK.OBS_SIZE]), basic,
                                                 np.ascontiguousarray(noise[:MK.NUM_ACTIONS]), num_players, seed))
        return int(legal[0])
