"""Maka Bana (Haapii) pieces of the MCTS agent: determinization, what each player observes of a move,
the rollout policy and the evaluation.  Numba functions over the core's state row; the search itself
is in ``agents.mcts_search``.

Hidden information in Haapii (``makabana_env/core.py``, ``observe``): the current projects of the
other players' colours (``PROJECT_KIND / PROJECT_SPOT / PROJECT_SHOWN``).  While projects are being
chosen an opponent only sees *that* a colour has submitted; once every colour has chosen, the shown
card (beach, area or theme, and which one) and whether paint is shown are public, the spot is not.
At execution every project is revealed (``LAST_*``).  The generator in the row (``RNG``) is never
used by the rules of Haapii, only by random play, but it is replaced too.
"""
import numpy as np
from numba import njit

from makabana_env import core
from makabana_env.board import BIKINI, NUM_BEACHES, NUM_SPOTS
from pacific_common.rng import draw, seed_rng


HIDDEN_PROJECT = core.NUM_ACTIONS        # what an opponent's project choice looks like: "submitted"

# belief modes for the opponents' hidden projects
BELIEF_UNIFORM = 0     # every project consistent with what was seen, uniformly
BELIEF_PLAUSIBLE = 1   # the same, restricted to projects that could succeed when there are any
BELIEF_WEIGHTED = 2    # plausible projects, weighted as the rollout policy would choose them

PAINT_WORTH = 1.5      # points a paint card in hand is worth in the evaluation of a running game

# CARD_SPOTS[card]: bit set of the spots a shown card (0..10: 4 beaches, 4 areas, 3 themes) points to
CARD_SPOTS = np.zeros(11, dtype=np.int64)
for _s in range(NUM_SPOTS):
    for _shown in range(3):
        CARD_SPOTS[core.shown_card(_s, _shown)] |= 1 << _s


@njit(cache=True)
def _colour_bits(state, bits):
    """bits[c]: the spots holding colour c's huts; returns the bit set of all occupied spots."""
    bits[:] = 0
    occupied = 0
    for s in range(NUM_SPOTS):
        h = state[core.HUT + s]
        if h >= 0:
            bits[h] |= 1 << s
            occupied |= 1 << s
    return occupied


_group_points = core.group_points


@njit(cache=True)
def _player_points(bits, n, p, out):
    """Points per player for the colours' huts ``bits`` -- groups and beach bonuses, the sum of a
    player's colours -- the same as ``core.player_scores`` but from bit sets, without the row."""
    for i in range(p):
        out[i] = 0
    for c in range(n):
        out[c - p if c >= p else c] += _group_points(bits[c])
    for b in range(NUM_BEACHES):
        if b == BIKINI and n == 3:
            continue
        best = 0
        leaders = 0
        for c in range(n):
            m = core.popcount(bits[c] & core.BEACH_BITS[b])
            if m > best:
                best = m
                leaders = 1
            elif m == best and m > 0:
                leaders += 1
        if best == 0 or leaders > 2:
            continue
        for c in range(n):
            if core.popcount(bits[c] & core.BEACH_BITS[b]) == best:
                out[c - p if c >= p else c] += 4 if leaders == 1 else 2


@njit(cache=True)
def _margin_of(pts, player, p):
    best = -1 << 40
    for i in range(p):
        if i != player and pts[i] > best:
            best = pts[i]
    return float(pts[player] - best)


@njit(cache=True)
def _opponent_huts(state, bits, colour):
    """Spots holding a hut of another player than the colour's: what its take-back may target."""
    me = core.owner(state, colour)
    targets = 0
    for c in range(state[core.NUM_COLOURS]):
        if core.owner(state, c) != me:
            targets |= bits[c]
    return targets


@njit(cache=True, inline="always")
def _near(bits, s):
    return core.popcount(core.NEIGHBOUR_BITS[s] & bits)


@njit(cache=True)
def _worth(state, bits, colour, kind, s):
    """Rough worth of a project to its colour if it succeeds: a hut next to its own huts joins a group
    (about 3 points each) -- for a take-back plus what the victim loses."""
    w = 1 + 3 * _near(bits[colour], s)
    if kind == core.TAKE_BACK:
        h = state[core.HUT + s]
        if h >= 0:
            w += 1 + 3 * _near(bits[h], s)
    return w


@njit(cache=True)
def _candidates(state, bits, occupied, colour, kind, card):
    """Spots a project of this kind may name -- those showing ``card`` (all spots if ``card`` < 0) --
    restricted to the ones where it could succeed when there are any."""
    every = core.IN_PLAY_BITS[state[core.NUM_COLOURS]]
    if card >= 0:
        every &= CARD_SPOTS[card]
    if kind == core.CONSTRUCT:
        good = every & ~occupied
    else:
        good = every & _opponent_huts(state, bits, colour)
    return good if good != 0 else every


@njit(cache=True)
def _sample_spot(state, bits, colour, kind, spots, weighted):
    """A spot of the bit set ``spots``, uniformly or with weight worth squared; uses the row's
    generator."""
    if not weighted:
        r = draw(state, core.RNG, core.popcount(spots))
        for _ in range(r):
            spots &= spots - 1
        return core.popcount((spots & -spots) - 1)
    total = 0
    left = spots
    while left != 0:
        s = core.popcount((left & -left) - 1)
        w = _worth(state, bits, colour, kind, s)
        total += w * w
        left &= left - 1
    r = draw(state, core.RNG, total)
    left = spots
    while left != 0:
        s = core.popcount((left & -left) - 1)
        w = _worth(state, bits, colour, kind, s)
        r -= w * w
        if r < 0:
            return s
        left &= left - 1
    return core.popcount((spots & -spots) - 1)


@njit(cache=True)
def num_actions(state):
    return core.NUM_ACTIONS


@njit(cache=True)
def determinize(state, player, seed, belief):
    """Replace every part of ``state`` that ``player`` cannot see by a sample consistent with what it
    has seen, and reseed the row's generator.  The hidden parts are read only through what is
    public: whether a colour has submitted, and after the reveal its shown card and whether paint is
    shown (the card is computed from the true spot and shown card, which is exactly what was shown).

    ``belief``: ``BELIEF_UNIFORM`` samples uniformly among every consistent project (before the
    reveal: any legal project; after it: any in-play spot showing that card); ``BELIEF_PLAUSIBLE``
    keeps to projects that could succeed on the board (an empty spot for a construction, an
    opponent's hut for a take-back) when there are any; ``BELIEF_WEIGHTED`` also weights them as the
    rollout policy would choose them."""
    state[core.RNG] = seed_rng(seed)
    n = state[core.NUM_COLOURS]
    revealed = state[core.PHASE] != core.PHASE_PROJECT
    bits = np.zeros(core.MAX_COLOURS, dtype=np.int64)
    occupied = _colour_bits(state, bits)
    for c in range(n):
        if core.owner(state, c) == player:
            continue
        kind = state[core.PROJECT_KIND + c]
        if kind == core.NO_PROJECT:
            continue
        if not revealed:
            # only "submitted" is known: any legal project of this colour
            kinds = 2 if state[core.PAINTS + c] > 0 else 1
            if belief == BELIEF_UNIFORM:
                kind = draw(state, core.RNG, kinds)
                spots = core.IN_PLAY_BITS[n]
            else:
                kind = core.CONSTRUCT
                if kinds == 2 and draw(state, core.RNG, 4) == 0:
                    kind = core.TAKE_BACK
                spots = _candidates(state, bits, occupied, c, kind, -1)
            state[core.PROJECT_KIND + c] = kind
            state[core.PROJECT_SPOT + c] = _sample_spot(state, bits, c, kind, spots,
                                                        belief == BELIEF_WEIGHTED)
            state[core.PROJECT_SHOWN + c] = draw(state, core.RNG, 3)
        else:
            # kind (paint shown) and the shown card are public: sample the spot among those showing it
            card = core.shown_card(state[core.PROJECT_SPOT + c], state[core.PROJECT_SHOWN + c])
            if belief == BELIEF_UNIFORM:
                spots = CARD_SPOTS[card] & core.IN_PLAY_BITS[n]
            else:
                spots = _candidates(state, bits, occupied, c, kind, card)
            state[core.PROJECT_SPOT + c] = _sample_spot(state, bits, c, kind, spots,
                                                        belief == BELIEF_WEIGHTED)


@njit(cache=True)
def observed_key(state, action, viewer):
    """How ``viewer`` sees the action about to be taken in ``state``: the action itself if it is the
    viewer's own colour's or public (a tiki), ``HIDDEN_PROJECT`` for another colour's project."""
    if core.owner(state, state[core.TO_ACT]) == viewer or state[core.PHASE] != core.PHASE_PROJECT:
        return action
    return HIDDEN_PROJECT


@njit(cache=True)
def marker(state):
    """What the event check needs of the position before a step."""
    return state[core.SEASON] * 8 + state[core.PHASE]


@njit(cache=True)
def event_key(state, before, viewer):
    """What ``viewer`` learns without a decision after a step: the revealed shown cards once every
    colour has chosen, the revealed projects at execution.  -1 when nothing is revealed."""
    season_before = before // 8
    phase_before = before - 8 * season_before
    n = state[core.NUM_COLOURS]
    h = 0
    if state[core.SEASON] != season_before:
        # execution: every project was revealed (LAST_KIND / LAST_SPOT)
        for c in range(n):
            if core.owner(state, c) != viewer:
                kind = state[core.LAST_KIND + c]
                h = h * 80 + (0 if kind < 0 else 1 + kind * NUM_SPOTS + state[core.LAST_SPOT + c])
        return 2 * h + 1
    if phase_before == core.PHASE_PROJECT and state[core.PHASE] != core.PHASE_PROJECT:
        # hints revealed: kind and shown card of every other colour
        for c in range(n):
            if core.owner(state, c) != viewer:
                kind = state[core.PROJECT_KIND + c]
                card = core.shown_card(state[core.PROJECT_SPOT + c], state[core.PROJECT_SHOWN + c])
                h = h * 24 + 1 + kind * 11 + card
        return 2 * h
    return -1


@njit(cache=True)
def rollout_action(state):
    """The rollout policy, fast and reading only what the colour to act may know.

    Project: a construction on an empty spot with weight worth squared (``_worth``: 1 + 3 per own
    neighbouring hut), or a take-back of an opponent's hut with a quarter of that weight, the shown
    card at random.  Tiki: seven times in eight where it is expected to save the most
    (``_tiki_harm``), otherwise on a random legal spot other than the player's own construction.
    Uses the row's generator."""
    if state[core.STATUS] != core.STATUS_RUNNING:
        return -1
    colour = state[core.TO_ACT]
    n = state[core.NUM_COLOURS]
    bits = np.zeros(core.MAX_COLOURS, dtype=np.int64)
    occupied = _colour_bits(state, bits)
    in_play = core.IN_PLAY_BITS[n]
    if state[core.PHASE] == core.PHASE_PROJECT:
        empty = in_play & ~occupied
        targets = _opponent_huts(state, bits, colour) if state[core.PAINTS + colour] > 0 else 0
        total = 0
        for s in range(NUM_SPOTS):
            if (empty >> s) & 1:
                w = _worth(state, bits, colour, core.CONSTRUCT, s)
                total += 4 * w * w
            elif (targets >> s) & 1:
                w = _worth(state, bits, colour, core.TAKE_BACK, s)
                total += w * w
        if total == 0:
            return core.random_action(state)
        r = draw(state, core.RNG, total)
        for s in range(NUM_SPOTS):
            if (empty >> s) & 1:
                w = _worth(state, bits, colour, core.CONSTRUCT, s)
                r -= 4 * w * w
                if r < 0:
                    return 3 * s + draw(state, core.RNG, 3)
            elif (targets >> s) & 1:
                w = _worth(state, bits, colour, core.TAKE_BACK, s)
                r -= w * w
                if r < 0:
                    return core.TAKE_BACK_BASE + 3 * s + draw(state, core.RNG, 3)
        return core.random_action(state)
    legal = core.tiki_spots(state, colour)
    if legal == 0:
        return -1
    if draw(state, core.RNG, 8) != 0:
        harm = np.zeros(NUM_SPOTS, dtype=np.float64)
        _tiki_harm(state, colour, harm)
        best = -1
        best_harm = 0.0
        for s in range(NUM_SPOTS):
            if (legal >> s) & 1 and harm[s] > best_harm:
                best_harm = harm[s]
                best = s
        if best >= 0:
            return core.TIKI_BASE + best
    me = core.owner(state, colour)
    for c in range(n):  # never on the player's own construction (if anything else is legal)
        if core.owner(state, c) == me and state[core.PROJECT_KIND + c] == core.CONSTRUCT:
            spot_bit = 1 << state[core.PROJECT_SPOT + c]
            if legal & ~spot_bit != 0:
                legal &= ~spot_bit
    r = draw(state, core.RNG, core.popcount(legal))
    for _ in range(r):
        legal &= legal - 1
    return core.TIKI_BASE + core.popcount((legal & -legal) - 1)


@njit(cache=True)
def _tiki_harm(state, colour, harm):
    """harm[s]: how much a tiki on s is expected to save the colour's player, in points of margin.

    Every opponent colour's revealed project names one of its suspects (``_candidates``: the spots
    its shown card points to that could succeed); a suspect is taken to be chosen with weight
    ``(1 + gain) ** 3``, ``gain`` being what success there is worth to the opponent (its points, plus
    half of what the others lose), computed on the board (groups and beach bonuses).  Blocking it
    saves what its success would cost us in margin.  The player's own constructions get -1 (a tiki
    there would stop them).  Reads only public parts of the row (the shown card is recomputed from
    the hidden spot exactly as it was shown)."""
    n = state[core.NUM_COLOURS]
    p = state[core.NUM_PLAYERS]
    me = core.owner(state, colour)
    bits = np.zeros(core.MAX_COLOURS, dtype=np.int64)
    before = np.zeros(core.MAX_COLOURS, dtype=np.int64)
    after = np.zeros(core.MAX_COLOURS, dtype=np.int64)
    occupied = _colour_bits(state, bits)
    _player_points(bits, n, p, before)
    base = _margin_of(before, me, p)
    gain = np.zeros(NUM_SPOTS, dtype=np.float64)
    loss = np.zeros(NUM_SPOTS, dtype=np.float64)
    for o in range(n):
        them = core.owner(state, o)
        if them == me or state[core.PROJECT_KIND + o] == core.NO_PROJECT:
            continue
        kind = state[core.PROJECT_KIND + o]
        card = core.shown_card(state[core.PROJECT_SPOT + o], state[core.PROJECT_SHOWN + o])
        sus = _candidates(state, bits, occupied, o, kind, card)
        total = 0.0
        left = sus
        while left != 0:
            s = core.popcount((left & -left) - 1)
            left &= left - 1
            hut = state[core.HUT + s]
            if (kind == core.CONSTRUCT and hut >= 0) or (
                    kind == core.TAKE_BACK and (hut < 0 or core.owner(state, hut) == them)):
                gain[s] = 0.0
                loss[s] = 0.0
            else:
                if hut >= 0:
                    bits[hut] &= ~(1 << s)
                bits[o] |= 1 << s
                _player_points(bits, n, p, after)
                bits[o] &= ~(1 << s)
                if hut >= 0:
                    bits[hut] |= 1 << s
                loss[s] = max(0.0, base - _margin_of(after, me, p))
                g = float(after[them] - before[them])
                for i in range(p):
                    if i != them and after[i] < before[i]:
                        g += 0.5 * (before[i] - after[i])
                gain[s] = max(0.0, g)
            total += (1.0 + gain[s]) ** 3
        left = sus
        while left != 0:
            s = core.popcount((left & -left) - 1)
            left &= left - 1
            harm[s] += (1.0 + gain[s]) ** 3 / total * loss[s]
    for c in range(n):
        if core.owner(state, c) == me and state[core.PROJECT_KIND + c] == core.CONSTRUCT:
            harm[state[core.PROJECT_SPOT + c]] = -1.0


@njit(cache=True)
def prior(state, player, mask, out):
    """Root preferences (larger is better), used to order the root's expansions: for a project, how
    much the player's score margin grows if it succeeds (take-backs minus 2 for the paint card);
    for a tiki, the chance that it stops an opponent's project, by its revealed hint."""
    out[:] = 0.0
    colour = state[core.TO_ACT]
    p = state[core.NUM_PLAYERS]
    sc = np.zeros(core.MAX_COLOURS, dtype=np.int64)
    if state[core.PHASE] == core.PHASE_PROJECT:
        work = state.copy()
        base = _margin(work, player, p, sc)
        for s in range(NUM_SPOTS):
            if not core.spot_in_play(state, s):
                continue
            hut = state[core.HUT + s]
            if hut < 0:
                work[core.HUT + s] = colour
                g = _margin(work, player, p, sc) - base
                work[core.HUT + s] = -1
                for shown in range(3):
                    out[3 * s + shown] = g
                    out[core.TAKE_BACK_BASE + 3 * s + shown] = -5.0
            else:
                for shown in range(3):
                    out[3 * s + shown] = -5.0
                    out[core.TAKE_BACK_BASE + 3 * s + shown] = -5.0
                if core.owner(state, hut) != player:
                    work[core.HUT + s] = colour
                    g = _margin(work, player, p, sc) - base - 2.0
                    work[core.HUT + s] = hut
                    for shown in range(3):
                        out[core.TAKE_BACK_BASE + 3 * s + shown] = g
        return
    harm = np.zeros(NUM_SPOTS, dtype=np.float64)
    _tiki_harm(state, colour, harm)
    for s in range(NUM_SPOTS):
        out[core.TIKI_BASE + s] = harm[s]


@njit(cache=True)
def _margin(state, player, p, sc):
    """The player's points minus the best other player's, from the board."""
    for i in range(p):
        sc[i] = 0
    for c in range(state[core.NUM_COLOURS]):
        sc[core.owner(state, c)] += core.colour_score(state, c)
    best = -1 << 40
    for i in range(p):
        if i != player and sc[i] > best:
            best = sc[i]
    return float(sc[player] - best)


@njit(cache=True)
def evaluate(state, out):
    """Points per player for the value (``agents.mcts_common.margin_values``): the score read off
    the board (meaningful mid-game, since Maka Bana scores the final board), plus ``PAINT_WORTH`` per
    paint card still in hand while the game runs.  A truncated game is judged on its points, as
    ``agents.match`` adjudicates it (the environment's rewards are 0 then).  Always False (never a
    result worth 0 to everybody)."""
    p = state[core.NUM_PLAYERS]
    bits = np.zeros(core.MAX_COLOURS, dtype=np.int64)
    _colour_bits(state, bits)
    pts = np.zeros(core.MAX_COLOURS, dtype=np.int64)
    _player_points(bits, state[core.NUM_COLOURS], p, pts)
    for i in range(p):
        out[i] = pts[i]
    if state[core.STATUS] == core.STATUS_RUNNING:
        for c in range(state[core.NUM_COLOURS]):  # a paint card still in hand is worth a little
            out[core.owner(state, c)] += PAINT_WORTH * state[core.PAINTS + c]
    return False


@njit(cache=True)
def playout(state, max_steps, stop_clock):
    """``rollout_action`` for at most ``max_steps`` steps, until the season count reaches
    ``stop_clock`` or the game ends."""
    steps = 0
    while steps < max_steps and state[core.STATUS] == core.STATUS_RUNNING and state[core.SEASON] < stop_clock:
        core.step(state, rollout_action(state))
        steps += 1
