"""Maka Bana pieces of the MCTS agent (Haapii and Mao): determinization, what each player observes
of a move, the rollout policy and the evaluation.  Numba functions over the core's state row; the
search itself is in ``agents.search.ismcts``.

Hidden information in Haapii (``makabana_env/core.py``, ``observe``): the current projects of the
other players' colours (``PROJECT_KIND / PROJECT_SPOT / PROJECT_SHOWN``).  While projects are being
chosen an opponent only sees *that* a colour has submitted; once every colour has chosen, the shown
card (beach, area or theme, and which one) and whether paint is shown are public, the spot is not.
At execution every project is revealed (``LAST_*``).  The generator in the row (``RNG``) is never
used by the rules of Maka Bana, only by random play, but it is replaced too.

Hidden information in Mao (``makabana_env/RULES.md``, "Maka Bana Mao"): another colour's project is a
set of cards (``PROJECT_CARDS``, ``PROJECT_PAINT``) built by a fixed sequence of decisions (the
visible card, then add or keep for each other hand card); the others see only that the colour is
deciding, never what (those moves have no edge in the other players' trees: ``NO_EDGE``), then its
visible card once every colour has finished, its card count if it is one of the two colours of a
denunciation, and the whole project when it executes.
Determinization deals every unrevealed project afresh: a plausible target spot showing the visible
card (a construction's three cards, or a take-back's with a paint card), cut or padded with cards
from the colour's hand to a count that was revealed.
"""
import numpy as np
from numba import njit

from makabana_env import kernels as core
from makabana_env.board import BIKINI, NUM_BEACHES, NUM_SPOTS
from pacific_common.bits import nth_bit
from pacific_common.rng import draw, seed_rng

from .common import FNV_OFFSET, NO_EDGE, fnv_mix


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
        return nth_bit(spots, draw(state, core.RNG, core.popcount(spots)))
    total = 0
    left = spots
    while left != 0:
        s = core.lowest_bit(left)
        w = _worth(state, bits, colour, kind, s)
        total += w * w
        left &= left - 1
    r = draw(state, core.RNG, total)
    left = spots
    while left != 0:
        s = core.lowest_bit(left)
        w = _worth(state, bits, colour, kind, s)
        r -= w * w
        if r < 0:
            return s
        left &= left - 1
    return core.lowest_bit(spots)


@njit(cache=True)
def num_actions(state):
    return core.NUM_ACTIONS_MAO if state[core.VARIANT] == core.VARIANT_MAO else core.NUM_ACTIONS


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
    if state[core.VARIANT] == core.VARIANT_MAO:
        _determinize_mao(state, player, belief)
        return
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
    viewer's own colour's or public (a tiki; in Mao also denunciations, the paint cases and the
    executions), ``HIDDEN_PROJECT`` for another colour's Haapii project, ``NO_EDGE`` for a decision
    of another colour's Mao project (the others cannot tell what was decided)."""
    if core.owner(state, state[core.TO_ACT]) == viewer or state[core.PHASE] != core.PHASE_PROJECT:
        return action
    if state[core.VARIANT] == core.VARIANT_MAO:
        return NO_EDGE
    return HIDDEN_PROJECT


@njit(cache=True)
def marker(state):
    """What the event check needs of the position before a step: season and phase (and in Mao which
    colours' projects are revealed)."""
    m = state[core.SEASON] * 8 + state[core.PHASE]
    if state[core.VARIANT] == core.VARIANT_MAO:
        for c in range(state[core.NUM_COLOURS]):
            m = 2 * m + state[core.REVEALED_NOW + c]
    return m


@njit(cache=True)
def event_key(state, before, viewer):
    """What ``viewer`` learns without a decision after a step: the revealed shown cards once every
    colour has chosen, the revealed projects at execution.  -1 when nothing is revealed."""
    if state[core.VARIANT] == core.VARIANT_MAO:
        return _mao_event_key(state, before, viewer)
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
    Mao's other decisions: ``_mao_rollout_action``.  Uses the row's generator."""
    if state[core.STATUS] != core.STATUS_RUNNING:
        return -1
    colour = state[core.TO_ACT]
    n = state[core.NUM_COLOURS]
    bits = np.zeros(core.MAX_COLOURS, dtype=np.int64)
    occupied = _colour_bits(state, bits)
    if state[core.VARIANT] == core.VARIANT_MAO and state[core.PHASE] != core.PHASE_TIKI:
        return _mao_rollout_action(state, colour, bits, occupied)
    if state[core.PHASE] == core.PHASE_PROJECT:
        kind, s = _rollout_target(state, bits, occupied, colour)
        if s < 0:
            return core.random_action(state)
        return (core.TAKE_BACK_BASE if kind == core.TAKE_BACK else 0) + 3 * s + draw(state, core.RNG, 3)
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
        own = _own_construction(state, c)
        if core.owner(state, c) == me and own >= 0:
            spot_bit = 1 << own
            if legal & ~spot_bit != 0:
                legal &= ~spot_bit
    return core.TIKI_BASE + nth_bit(legal, draw(state, core.RNG, core.popcount(legal)))


@njit(cache=True)
def _rollout_target(state, bits, occupied, colour):
    """The rollout policy's project as ``(kind, spot)``: a construction on an empty spot with weight
    4 worth squared, or (with a paint card) a take-back of an opponent's hut with weight worth
    squared; spot -1 when there is neither.  Uses the row's generator."""
    empty = core.IN_PLAY_BITS[state[core.NUM_COLOURS]] & ~occupied
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
        return core.CONSTRUCT, -1
    r = draw(state, core.RNG, total)
    for s in range(NUM_SPOTS):
        if (empty >> s) & 1:
            w = _worth(state, bits, colour, core.CONSTRUCT, s)
            r -= 4 * w * w
            if r < 0:
                return core.CONSTRUCT, s
        elif (targets >> s) & 1:
            w = _worth(state, bits, colour, core.TAKE_BACK, s)
            r -= w * w
            if r < 0:
                return core.TAKE_BACK, s
    return core.CONSTRUCT, -1


@njit(cache=True)
def _hint(state, o):
    """Colour o's project as everybody sees it once the hints are revealed, ``(kind, card)``: kind
    ``NO_PROJECT`` when there is none to fear (in Mao also an eliminated colour, or hints not yet
    revealed); card -1 when the hint names no card (a Mao paint card: a take-back anywhere)."""
    if state[core.VARIANT] == core.VARIANT_MAO:
        if state[core.PROJECT_KIND + o] != core.MAO_PROJECT or state[core.ELIMINATED + o] == 1 or \
                state[core.PHASE] == core.PHASE_PROJECT:
            return core.NO_PROJECT, -1
        top = state[core.PROJECT_TOP + o]
        if top == core.PAINT_CARD:
            return core.TAKE_BACK, -1
        return core.CONSTRUCT, top
    kind = state[core.PROJECT_KIND + o]
    if kind == core.NO_PROJECT:
        return kind, -1
    return kind, core.shown_card(state[core.PROJECT_SPOT + o], state[core.PROJECT_SHOWN + o])


@njit(cache=True)
def _own_construction(state, c):
    """The spot colour c's project builds on if it is a construction (in Mao: a clean beach, area
    and theme), -1 otherwise.  Only asked of the colours of the player who decides (its own)."""
    if state[core.VARIANT] != core.VARIANT_MAO:
        return state[core.PROJECT_SPOT + c] if state[core.PROJECT_KIND + c] == core.CONSTRUCT else -1
    if state[core.ELIMINATED + c] == 1:
        return -1   # it builds nothing this season
    cards = state[core.PROJECT_CARDS + c]
    if state[core.PROJECT_KIND + c] != core.MAO_PROJECT or state[core.PROJECT_PAINT + c] > 0 or \
            core.popcount(cards) != 3:
        return -1
    for s in range(NUM_SPOTS):
        if core.SPOT_CARDS[s] == cards:
            return s
    return -1


@njit(cache=True)
def _points_if_built(state, bits, n, p, colour, s, after):
    """after[i]: player i's points if a hut of ``colour`` stood on s, in place of the hut there
    (``bits``, the colours' huts, are left as they were)."""
    hut = state[core.HUT + s]
    if hut >= 0:
        bits[hut] &= ~(1 << s)
    bits[colour] |= 1 << s
    _player_points(bits, n, p, after)
    bits[colour] &= ~(1 << s)
    if hut >= 0:
        bits[hut] |= 1 << s


@njit(cache=True, inline="always")
def _gain_to(them, before, after, p):
    """What a project's success is worth to player ``them``, as the others weigh it: its points, plus
    half of what the others lose (never below 0)."""
    g = float(after[them] - before[them])
    for i in range(p):
        if i != them and after[i] < before[i]:
            g += 0.5 * (before[i] - after[i])
    return max(0.0, g)


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
        if them == me:
            continue
        kind, card = _hint(state, o)
        if kind == core.NO_PROJECT:
            continue
        sus = _candidates(state, bits, occupied, o, kind, card)
        total = 0.0
        left = sus
        while left != 0:
            s = core.lowest_bit(left)
            left &= left - 1
            hut = state[core.HUT + s]
            if (kind == core.CONSTRUCT and hut >= 0) or (
                    kind == core.TAKE_BACK and (hut < 0 or core.owner(state, hut) == them)):
                gain[s] = 0.0
                loss[s] = 0.0
            else:
                _points_if_built(state, bits, n, p, o, s, after)
                loss[s] = max(0.0, base - _margin_of(after, me, p))
                gain[s] = _gain_to(them, before, after, p)
            total += (1.0 + gain[s]) ** 3
        left = sus
        while left != 0:
            s = core.lowest_bit(left)
            left &= left - 1
            harm[s] += (1.0 + gain[s]) ** 3 / total * loss[s]
    for c in range(n):
        own = _own_construction(state, c)
        if core.owner(state, c) == me and own >= 0:
            harm[own] = -1.0


@njit(cache=True)
def prior(state, player, mask, out):
    """Root preferences (larger is better), used to order the root's expansions: for a project, how
    much the player's score margin grows if it succeeds (take-backs minus 2 for the paint card);
    for a tiki, the chance that it stops an opponent's project, by its revealed hint."""
    out[:] = 0.0
    colour = state[core.TO_ACT]
    if state[core.VARIANT] == core.VARIANT_MAO and state[core.PHASE] != core.PHASE_TIKI:
        _mao_prior(state, player, colour, out)
        return
    if state[core.PHASE] == core.PHASE_PROJECT:
        gains = _hut_gains(state, player, colour)
        for s in range(NUM_SPOTS):
            if not core.spot_in_play(state, s):
                continue
            hut = state[core.HUT + s]
            for shown in range(3):
                out[3 * s + shown] = gains[s] if hut < 0 else -5.0
                out[core.TAKE_BACK_BASE + 3 * s + shown] = -5.0
                if hut >= 0 and core.owner(state, hut) != player:
                    out[core.TAKE_BACK_BASE + 3 * s + shown] = gains[s] - 2.0
        return
    harm = np.zeros(NUM_SPOTS, dtype=np.float64)
    _tiki_harm(state, colour, harm)
    for s in range(NUM_SPOTS):
        out[core.TIKI_BASE + s] = harm[s]


@njit(cache=True)
def _hut_gains(state, player, colour):
    """gains[s]: how much the player's score margin grows when a hut of ``colour`` stands on the
    in-play spot s (in place of whatever hut is there), read off the board."""
    p = state[core.NUM_PLAYERS]
    sc = np.zeros(core.MAX_COLOURS, dtype=np.int64)
    gains = np.zeros(NUM_SPOTS, dtype=np.float64)
    work = state.copy()
    base = _margin(work, player, p, sc)
    for s in range(NUM_SPOTS):
        if core.spot_in_play(state, s):
            hut = state[core.HUT + s]
            work[core.HUT + s] = colour
            gains[s] = _margin(work, player, p, sc) - base
            work[core.HUT + s] = hut
    return gains


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
    """Points per player for the value (``agents.search.common.margin_values``): the score read off
    the board (meaningful mid-game, since Maka Bana scores the final board), plus ``PAINT_WORTH`` per
    paint card still in hand while the game runs.  A truncated game is judged on its points, as
    ``agents.arena.match`` adjudicates it (the environment's rewards are 0 then).  Always False (never a
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


# ---------------------------------------------------------------------------------------------------
# Maka Bana Mao
@njit(cache=True)
def _determinize_mao(state, player, belief):
    """Deal afresh every other colour's project that has been finished and not yet revealed at its
    execution.  What is public is kept: the visible card once the hints are revealed, the card count
    of the two colours of a denunciation, the paint cards the colour has left.  The project is a
    target spot's beach, area and theme, with a paint card for a take-back (one in four when the
    colour has paint, one in two with the uniform belief; always when the visible card is paint); the
    spot is drawn as in Haapii (``belief``), among those showing the visible card.  Before the reveal
    the visible card is any card of the project.  A known count is then met by taking out cards
    other than the visible one, or by adding cards (and paint cards) from the colour's hand, at
    random (short of it only when a repaint has since taken a paint card of a colour holding its
    whole hand: it is eliminated, and its project is never read again)."""
    n = state[core.NUM_COLOURS]
    revealed = state[core.PHASE] != core.PHASE_PROJECT
    bits = np.zeros(core.MAX_COLOURS, dtype=np.int64)
    occupied = _colour_bits(state, bits)
    for c in range(n):
        if core.owner(state, c) == player or state[core.PROJECT_KIND + c] != core.MAO_PROJECT or \
                state[core.REVEALED_NOW + c] == 1:
            continue
        top = state[core.PROJECT_TOP + c] if revealed else -1
        count = core.card_count(state, c) if c == state[core.DENOUNCER] or c == state[core.DENOUNCED] else -1
        paints = state[core.PAINTS + c]
        # a paint case was opened only because the denounced colour's project holds paint: public
        paint_known = top == core.PAINT_CARD or (c == state[core.DENOUNCED] and state[core.PAINT_CASE] != core.CASE_NONE)
        if c == state[core.DENOUNCED] and state[core.ELIMINATED + c] == 1 and paints < core.NUM_PAINT_CARDS and (
                state[core.PHASE] == core.PHASE_TIKI or state[core.PHASE] == core.PHASE_EXECUTE):
            paints += 1  # a repaint may since have taken one of the paint cards its count includes
        kind = core.CONSTRUCT
        if paint_known:
            kind = core.TAKE_BACK
        elif paints > 0 and draw(state, core.RNG, 2 if belief == BELIEF_UNIFORM else 4) == 0:
            kind = core.TAKE_BACK
        card = top if 0 <= top < core.PAINT_CARD else -1
        if belief == BELIEF_UNIFORM:
            spots = core.IN_PLAY_BITS[n]
            if card >= 0:
                spots &= CARD_SPOTS[card]
        else:
            spots = _candidates(state, bits, occupied, c, kind, card)
        cards = core.SPOT_CARDS[_sample_spot(state, bits, c, kind, spots, belief == BELIEF_WEIGHTED)]
        paint = 1 if kind == core.TAKE_BACK else 0
        if top < 0:
            r = draw(state, core.RNG, 3 + paint)
            top = core.PAINT_CARD if r == 3 else nth_bit(cards, r)
        if count >= 0:
            size = core.popcount(cards) + paint
            while size > count:
                removable = cards & ~(1 << top) if top < core.PAINT_CARD else cards
                spare_paint = paint - 1 if paint_known else paint
                r = draw(state, core.RNG, core.popcount(removable) + spare_paint)
                if r < core.popcount(removable):
                    cards &= ~(1 << nth_bit(removable, r))
                else:
                    paint -= 1
                size -= 1
            while size < count:
                # a repaint after the denunciation may have taken a paint card the count includes
                free = core.HAND_CARDS[n] & ~cards
                left = core.popcount(free) + max(0, paints - paint)
                if left == 0:
                    break
                r = draw(state, core.RNG, left)
                if r < core.popcount(free):
                    cards |= 1 << nth_bit(free, r)
                else:
                    paint += 1
                size += 1
        state[core.PROJECT_TOP + c] = top
        state[core.PROJECT_CARDS + c] = cards
        state[core.PROJECT_PAINT + c] = paint
        state[core.PROJECT_NEXT + c] = core._hand_asked(state, c)   # every hand card was asked


@njit(cache=True)
def _mao_event_key(state, before, viewer):
    """After a step that moved the season or the phase on, or revealed a project at its execution:
    a hash of everything public that the hidden projects may have decided (the visible cards, the
    counts of a denunciation and its outcome, the revealed projects, the huts they built).  -1
    otherwise."""
    if marker(state) == before:
        return -1
    n = state[core.NUM_COLOURS]
    h = FNV_OFFSET
    for i in (core.PHASE, core.TO_ACT, core.SEASON, core.STATUS, core.DENOUNCER, core.DENOUNCED,
              core.PAINT_CASE, core.OFFERED, core.EXECUTED, core.PAINT_LEFT):
        h = fnv_mix(h, state[i] + 1)
    for s in range(NUM_SPOTS):
        h = fnv_mix(h, state[core.HUT + s] + 1)
    for c in range(n):
        for i in (core.RESERVE, core.PAINTS, core.ELIMINATED, core.REVEALED_NOW, core.LAST_CARDS,
                  core.LAST_PAINT, core.DONE_SPOTS):
            h = fnv_mix(h, state[i + c] + 1)
        if state[core.PHASE] != core.PHASE_PROJECT and state[core.PROJECT_KIND + c] == core.MAO_PROJECT:
            h = fnv_mix(h, state[core.PROJECT_TOP + c] + 1)
        if c == state[core.DENOUNCER] or c == state[core.DENOUNCED] or state[core.REVEALED_NOW + c] == 1:
            h = fnv_mix(h, core.card_count(state, c) + 1)
    return h & 0xFFFFFFFFFFFF


@njit(cache=True)
def _mao_rollout_action(state, colour, bits, occupied):
    """The rollout policy outside the tiki placement, an honest player as in
    ``agents.baselines.variants.MaoStrategy``: a project of exactly the target's cards (Haapii's
    ``_rollout_target``; a take-back shows its paint card); a denunciation of an opponent showing
    paint when the colour's own project holds three cards, else a pass; a repaint offered is
    accepted; the hut handed over in "not minding his business" is the one with the fewest own
    neighbours; otherwise the spot where one more hut of the colour is worth most."""
    phase = state[core.PHASE]
    n = state[core.NUM_COLOURS]
    if phase == core.PHASE_PROJECT:
        return _mao_project_action(state, colour, bits, occupied)
    _, choices = core.mao_choices(state)
    if phase == core.PHASE_DENOUNCE:
        if core.card_count(state, colour) == 3:
            for k in range(1, n):
                if (choices >> (k - 1)) & 1 and \
                        state[core.PROJECT_TOP + core.seat_after(colour, k, n)] == core.PAINT_CARD:
                    return core.MAO_DENOUNCE_BASE + k - 1
        return core.MAO_PASS
    if phase == core.PHASE_REPAINT:
        return core.MAO_SPOT_BASE + state[core.OFFERED]
    spots = choices & ((1 << NUM_SPOTS) - 1)
    if spots == 0:
        return core.MAO_STOP
    best = -1
    best_w = -1 << 40
    while spots != 0:
        s = core.lowest_bit(spots)
        spots &= spots - 1
        if phase == core.PHASE_PAYBACK and state[core.PAINT_CASE] == core.CASE_NOT_MINDING:
            w = -_near(bits[colour], s)
        else:
            w = _worth(state, bits, colour, core.TAKE_BACK if state[core.HUT + s] >= 0 else core.CONSTRUCT, s)
        if w > best_w:
            best_w = w
            best = s
    return core.MAO_SPOT_BASE + best


@njit(cache=True)
def _mao_project_action(state, colour, bits, occupied):
    """The next decision of an honest project: the visible card of a target drawn as in Haapii (paint
    for a take-back), then for each hand card asked, "add" when it is a missing card of a spot that
    fits the cards so far, "keep" otherwise."""
    if state[core.PROJECT_TOP + colour] < 0:
        kind, s = _rollout_target(state, bits, occupied, colour)
        if s < 0:
            return core.random_action(state)
        if kind == core.TAKE_BACK:
            return core.MAO_TOP_BASE + core.PAINT_CARD
        return core.MAO_TOP_BASE + nth_bit(core.SPOT_CARDS[s], draw(state, core.RNG, 3))
    cards = state[core.PROJECT_CARDS + colour]
    kind = core.TAKE_BACK if state[core.PROJECT_PAINT + colour] > 0 else core.CONSTRUCT
    addable = core._addable(state, colour)
    fits = 0
    for s in range(NUM_SPOTS):
        if core.spot_in_play(state, s) and core.SPOT_CARDS[s] & cards == cards and \
                core.SPOT_CARDS[s] & ~cards & ~addable == 0:
            fits |= 1 << s
    if fits == 0:
        return core.MAO_KEEP
    good = fits & (~occupied if kind == core.CONSTRUCT else _opponent_huts(state, bits, colour))
    if good != 0:
        fits = good
    missing = core.SPOT_CARDS[nth_bit(fits, draw(state, core.RNG, core.popcount(fits)))] & ~cards
    asked = core.asked_card(state, colour)
    # the missing cards are all still to be asked, so the first of them is the card asked or a later one
    if (missing >> asked) & 1:
        return core.MAO_ADD_BASE + asked
    return core.MAO_KEEP


@njit(cache=True)
def _mao_prior(state, player, colour, out):
    """Root preferences outside the tiki placement: a visible card by the best margin gain of a hut
    on a spot showing it (paint: of a take-back, less 2 for the card); a spot to build, take back or
    repaint by the margin gain of the colour's hut there; nothing for the other decisions."""
    phase = state[core.PHASE]
    if phase == core.PHASE_PROJECT and state[core.PROJECT_TOP + colour] < 0:
        gains = _hut_gains(state, player, colour)
        for a in range(core.MAO_TOP_BASE, core.MAO_ADD_BASE):
            out[a] = -5.0
        for s in range(NUM_SPOTS):
            if not core.spot_in_play(state, s):
                continue
            hut = state[core.HUT + s]
            if hut >= 0 and core.owner(state, hut) == player:
                continue
            g = gains[s]
            if hut < 0:
                left = core.SPOT_CARDS[s]
                while left != 0:
                    card = core.lowest_bit(left)
                    left &= left - 1
                    out[core.MAO_TOP_BASE + card] = max(out[core.MAO_TOP_BASE + card], g)
            else:
                out[core.MAO_TOP_BASE + core.PAINT_CARD] = max(out[core.MAO_TOP_BASE + core.PAINT_CARD], g - 2.0)
        return
    if phase == core.PHASE_EXECUTE or (phase == core.PHASE_PAYBACK and state[core.PAINT_CASE] == core.CASE_PAID_BACK):
        gains = _hut_gains(state, player, colour)
        for s in range(NUM_SPOTS):
            if core.spot_in_play(state, s):
                out[core.MAO_SPOT_BASE + s] = gains[s]


# ---------------------------------------------------------------------------------------------------
# Action features for a scorer (``agents.learned.scorer``), Haapii only
#
# Against the search, the policy network that reads the raw observation keeps naming the same spot
# season after season, and the search's tikis stop it there: what a project shows tells the others
# where it may be, and a player has to weigh what a spot is worth against how surely the others will
# guess it.  The features put that in numbers, from what the colour to act knows: the board, the
# revealed hints, last season's revealed projects and its partner colour's project.
ACTION_FEATURE_NAMES = (
    "kind: construction", "kind: take-back", "kind: tiki",
    "margin gain if it succeeds",               # _hut_gains, less PAINT_WORTH for a take-back's card
    "fails on the board as it is",              # a construction on a hut, a take-back of no opponent's hut
    "share of the suspects of the shown card",  # how surely the others' tikis would guess the spot
    "log2 suspects of the shown card",
    "failed there last season",
    "partner colour's construction there",
    "paint cards in hand",
    "the rollout policy's probability",
    "colours still to choose after it",
    "last season",
    "margin now / 10",
    "tiki: margin it is expected to save",      # _tiki_harm
    "tiki: that, less the best spot's",
    "tiki: under one of its own huts",
    "tiki: on its own player's construction",
    "tiki: opponents' hints pointing to the spot",
)
NUM_ACTION_FEATURES = len(ACTION_FEATURE_NAMES)
# A scorer may read three more (``_season_features``): the season played out by the rollout policy
# after the best few candidates, on determinizations of what the others hide, which is what the search
# does with its simulations: whose tikis land where once the hints are out, and what it leaves.
SEASON_FEATURE_NAMES = ("season played out: margin change", "season played out: project carried out",
                        "season played out")
FEATURE_NAMES = ACTION_FEATURE_NAMES + SEASON_FEATURE_NAMES
FEATURE_SETS = {"haapii": NUM_ACTION_FEATURES, "season": len(FEATURE_NAMES)}
FEATURE_SET_SIZES = tuple(FEATURE_SETS.values())
SEASON_CANDIDATES = 8    # the candidates played out, the best by ``_season_ranking``
SEASON_PLAYOUTS = 8      # playouts of each, on the same determinizations (about 10 µs each)
SCORER_VARIANTS = ("haapii",)   # Mao's decisions (cards one by one, denunciations) are not featured
ROLLOUT_FEATURE = "the rollout policy's probability"   # its largest is the rollout policy's likeliest choice


@njit(cache=True)
def search_mask(state, mask):
    """The actions a scorer chooses among: every legal one (the search prunes none in Maka Bana)."""
    core.legal_action_mask(state, mask)


@njit(cache=True)
def _suspect_weights(state, bits, occupied, colour, kind, weight):
    """weight[s]: how strongly the other players suspect a project of this kind of the colour to be on
    s, before knowing its card: ``(1 + gain) ** 3`` as ``_tiki_harm`` weighs their suspects, ``gain``
    being what success there is worth to the colour's player (its points, plus half of what the others
    lose); 0 where it could not succeed."""
    n = state[core.NUM_COLOURS]
    p = state[core.NUM_PLAYERS]
    me = core.owner(state, colour)
    before = np.zeros(core.MAX_COLOURS, dtype=np.int64)
    after = np.zeros(core.MAX_COLOURS, dtype=np.int64)
    _player_points(bits, n, p, before)
    good = _candidates(state, bits, occupied, colour, kind, -1)
    weight[:] = 0.0
    left = good
    while left != 0:
        s = core.lowest_bit(left)
        left &= left - 1
        hut = state[core.HUT + s]
        if (kind == core.CONSTRUCT and hut >= 0) or (kind == core.TAKE_BACK and (hut < 0 or core.owner(state, hut) == me)):
            continue
        _points_if_built(state, bits, n, p, colour, s, after)
        weight[s] = (1.0 + _gain_to(me, before, after, p)) ** 3


@njit(cache=True)
def _check_rows(out, num_actions):
    """Numba does not check bounds: a mask of fewer cells than Haapii's actions would be read past, and
    feature rows too short or too few written past."""
    if num_actions < core.NUM_ACTIONS:
        raise ValueError("action_features: mask needs an entry per action (makabana_env.kernels.NUM_ACTIONS)")
    if out.shape[0] < num_actions or (out.shape[1] != NUM_ACTION_FEATURES and out.shape[1] != len(FEATURE_NAMES)):
        raise ValueError("action_features: out needs a row per action and 19 or 22 columns (FEATURE_SET_SIZES)")


@njit(cache=True)
def action_features(state, player, mask, out):
    """``out[a]`` for every action legal in ``mask``, zeros elsewhere (``ACTION_FEATURE_NAMES``), for
    the colour to act, which ``player`` controls; and when ``out`` has ``len(FEATURE_NAMES)`` columns,
    ``_season_features`` after them.  Reads only what that player knows: the board, the revealed
    hints (``_hint``), last season's revealed projects and its own colours' projects (the season's
    playouts run on determinizations of the rest)."""
    _check_rows(out, mask.shape[0])
    out[:, :] = 0.0
    if state[core.STATUS] != core.STATUS_RUNNING or state[core.VARIANT] != core.VARIANT_HAAPII:
        return
    _one_step_features(state, player, mask, out)
    if out.shape[1] > NUM_ACTION_FEATURES:
        _season_features(state, player, mask, out)


@njit(cache=True)
def _one_step_features(state, player, mask, out):
    """``ACTION_FEATURE_NAMES`` into ``out[:, :NUM_ACTION_FEATURES]`` (zeroed by the caller): a
    project's from the board and the suspects of its card, a tiki's from ``_tiki_harm``."""
    colour = state[core.TO_ACT]
    n = state[core.NUM_COLOURS]
    p = state[core.NUM_PLAYERS]
    sc = np.zeros(core.MAX_COLOURS, dtype=np.int64)
    margin_now = _margin(state, player, p, sc) / 10.0
    last = 1.0 if state[core.LAST_SEASON] == 1 else 0.0
    if state[core.PHASE] == core.PHASE_PROJECT:
        bits = np.zeros(core.MAX_COLOURS, dtype=np.int64)
        occupied = _colour_bits(state, bits)
        gains = _hut_gains(state, player, colour)
        weights = np.zeros((2, NUM_SPOTS), dtype=np.float64)
        _suspect_weights(state, bits, occupied, colour, core.CONSTRUCT, weights[0])
        _suspect_weights(state, bits, occupied, colour, core.TAKE_BACK, weights[1])
        # the suspects of each shown card, weighed: the others see the card, not the spot
        card_total = np.zeros((2, 11), dtype=np.float64)
        card_count = np.zeros((2, 11), dtype=np.float64)
        for kind in range(2):
            for card in range(11):
                left = CARD_SPOTS[card] & core.IN_PLAY_BITS[n]
                while left != 0:
                    s = core.lowest_bit(left)
                    left &= left - 1
                    if weights[kind, s] > 0.0:
                        card_total[kind, card] += weights[kind, s]
                        card_count[kind, card] += 1.0
        partner = -1
        for c in range(n):
            if c != colour and core.owner(state, c) == player and state[core.PROJECT_KIND + c] == core.CONSTRUCT:
                partner = state[core.PROJECT_SPOT + c]
        # rollout_action's project: a spot by _rollout_target's weights, the shown card uniformly
        rollout = np.zeros((2, NUM_SPOTS), dtype=np.float64)
        targets = _opponent_huts(state, bits, colour) if state[core.PAINTS + colour] > 0 else 0
        empty = core.IN_PLAY_BITS[n] & ~occupied
        for s in range(NUM_SPOTS):
            if (empty >> s) & 1:
                w = _worth(state, bits, colour, core.CONSTRUCT, s)
                rollout[0, s] = 4.0 * w * w
            elif (targets >> s) & 1:
                w = _worth(state, bits, colour, core.TAKE_BACK, s)
                rollout[1, s] = w * w
        rollout_total = 3.0 * rollout.sum()
        after_it = float(n - 1 - state[core.DECIDED])
        for a in range(core.TIKI_BASE):
            if mask[a] == 0:
                continue
            kind = core.CONSTRUCT if a < core.TAKE_BACK_BASE else core.TAKE_BACK
            s = (a - kind * core.TAKE_BACK_BASE) // 3
            card = core.shown_card(s, (a - kind * core.TAKE_BACK_BASE) % 3)
            row = out[a]
            row[kind] = 1.0
            w = weights[kind, s]
            row[3] = (gains[s] - (PAINT_WORTH if kind == core.TAKE_BACK else 0.0)) if w > 0.0 else 0.0
            row[4] = 1.0 if w == 0.0 else 0.0
            row[5] = w / card_total[kind, card] if w > 0.0 else 0.0
            row[6] = np.log2(1.0 + card_count[kind, card])
            row[7] = 1.0 if (state[core.LAST_KIND + colour] == kind and state[core.LAST_SPOT + colour] == s
                             and state[core.LAST_SUCCESS + colour] == 0) else 0.0
            row[8] = 1.0 if partner == s else 0.0
            row[9] = state[core.PAINTS + colour]
            row[10] = rollout[kind, s] / rollout_total if rollout_total > 0.0 else 0.0
            row[11] = after_it
            row[12] = last
            row[13] = margin_now
        return
    harm = np.zeros(NUM_SPOTS, dtype=np.float64)
    _tiki_harm(state, colour, harm)
    best = -1e9
    for s in range(NUM_SPOTS):
        if mask[core.TIKI_BASE + s] and harm[s] > best:
            best = harm[s]
    own = 0   # its player's constructions: a tiki there stops them
    hinted = np.zeros(NUM_SPOTS, dtype=np.float64)
    for o in range(n):
        if core.owner(state, o) == player:
            spot = _own_construction(state, o)
            if spot >= 0:
                own |= 1 << spot
            continue
        kind, card = _hint(state, o)
        if kind != core.NO_PROJECT and card >= 0:
            left = CARD_SPOTS[card]
            while left != 0:
                s = core.lowest_bit(left)
                left &= left - 1
                hinted[s] += 1.0
    # rollout_action's tiki: seven times in eight on the spot of most harm (the first of equal ones),
    # where some harm is positive; otherwise on any legal spot but its player's constructions
    legal = core.tiki_spots(state, colour)
    first_best = -1
    for s in range(NUM_SPOTS):
        if (legal >> s) & 1 and harm[s] > 0.0 and (first_best < 0 or harm[s] > harm[first_best]):
            first_best = s
    anywhere = legal & ~own if legal & ~own != 0 else legal
    at_random = (1.0 / 8.0 if first_best >= 0 else 1.0) / max(1, core.popcount(anywhere))
    for s in range(NUM_SPOTS):
        a = core.TIKI_BASE + s
        if mask[a] == 0:
            continue
        row = out[a]
        row[2] = 1.0
        row[10] = (7.0 / 8.0 if s == first_best else 0.0) + (at_random if (anywhere >> s) & 1 else 0.0)
        row[9] = state[core.PAINTS + colour]
        row[12] = last
        row[13] = margin_now
        row[14] = harm[s]
        row[15] = harm[s] - best
        hut = state[core.HUT + s]
        row[16] = 1.0 if hut == colour else 0.0
        row[17] = float((own >> s) & 1)
        row[18] = hinted[s]


# the determinizations of every candidate's playouts: the same for all, so that candidates differ by
# what they do, not by the luck of their draws
SEASON_SEEDS = np.array([0x5EA5011 + 7919 * r for r in range(SEASON_PLAYOUTS)], dtype=np.int64)


@njit(cache=True)
def _season_ranking(row):
    """Which candidates' seasons are played: a project by the margin it adds times the chance that the
    others do not guess it (less a lot where it fails as the board stands), a tiki by its saving."""
    if row[2] == 1.0:
        return row[14]
    return row[3] * (1.0 - row[5]) - 10.0 * row[4]


@njit(cache=True)
def _season_features(state, player, mask, out):
    """``SEASON_FEATURE_NAMES`` into ``out[:, NUM_ACTION_FEATURES:]`` for the ``SEASON_CANDIDATES`` best
    candidates by ``_season_ranking`` (the first of equal ones): on each of ``SEASON_PLAYOUTS``
    determinizations (``determinize``, ``BELIEF_WEIGHTED``), the candidate is played and the rest of
    the season by the rollout policy (``playout``); the margin change is ``evaluate``'s margin after
    it less now, averaged, and for a project the share of the playouts in which it was carried out.
    The other candidates keep zeros."""
    p = state[core.NUM_PLAYERS]
    colour = state[core.TO_ACT]
    legal = np.flatnonzero(mask)
    rank = np.empty(legal.size)
    for i in range(legal.size):
        rank[i] = _season_ranking(out[legal[i]])
    played = legal[np.argsort(-rank, kind="mergesort")[:SEASON_CANDIDATES]]
    vals = np.zeros(core.MAX_COLOURS)
    evaluate(state, vals)
    now = _margin_of(vals, player, p)
    season = state[core.SEASON]
    for a in played:
        total = 0.0
        built = 0.0
        for r in range(SEASON_PLAYOUTS):
            row = state.copy()
            determinize(row, player, SEASON_SEEDS[r], BELIEF_WEIGHTED)
            core.step(row, a)
            playout(row, 200, season + 1)
            evaluate(row, vals)
            total += _margin_of(vals, player, p)
            if a < core.TIKI_BASE and row[core.LAST_SUCCESS + colour] == 1:
                built += 1.0
        out[a, NUM_ACTION_FEATURES] = total / SEASON_PLAYOUTS - now
        out[a, NUM_ACTION_FEATURES + 1] = built / SEASON_PLAYOUTS
        out[a, NUM_ACTION_FEATURES + 2] = 1.0
