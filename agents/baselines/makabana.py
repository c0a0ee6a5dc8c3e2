"""Heuristic strategy for Maka Bana (Haapii), read off the observation alone.

What a decent human does, decision by decision:

- **Project**: score every spot by what one more hut there is worth, one step ahead on the board as
  it stands (plus the hut of one's other colour's project already chosen, in the two-player game):
  group growth and beach majorities for oneself, minus what it gives the opponents (their best score,
  half leader and half average, with 3 or more players).  Building where an opponent would like to
  build counts a little too (denial), and so does room to grow.
- **Take-back (paint)**: an opponent's hut is taken back when taking it (our gain plus its loss, less
  the value of keeping the paint card) is worth more than the best construction.
- **Shown card and the opponents' tikis**: of the spot's beach, area and theme card, show one that
  does not give the spot away.  Each opponent is expected to read our card as this agent would (its
  tiki on the spot, among those our card allows, that is both likeliest for us and worst for it); a
  spot it would pick is counted as blocked (95%), and a spot is also discounted by its share of the
  plausible spots with that card, and by half when the same project failed last season (everyone saw
  it and will expect it again).  Candidates are compared after these discounts.
- **Tiki**: for every opponent, its shown card (and paint) narrows its project to the spots with
  that card, weighted by how much each is worth to that opponent; the tiki goes where the expected
  harm to us is greatest: blocking an opponent's likely construction, or, when paint is shown,
  protecting our own hut most at risk.  Never on our own (or our other colour's) project spot.
- **Maka Bana Mao** (``variant == "mao"``): not handled yet; the agent plays uniformly among the legal
  actions (to be extended).

Ties are broken by a tiny random noise from the agent's own generator.
"""
import numpy as np
from numba import njit

from makabana_env import kernels as C
from makabana_env.board import (
    BIKINI, MAX_COLOURS, NUM_AREAS, NUM_BEACHES, NUM_SPOTS, SPOT_AREA, SPOT_BEACH, SPOT_THEME,
)

NEIGHBOUR_BITS = C.NEIGHBOUR_BITS
BEACH_BITS = C.BEACH_BITS
CF = C.COLOUR_FEATURES
# SPOT_CARD[s, shown]: the card (0 … 10) spot s shows for shown = beach / area / theme
SPOT_CARD = np.stack([SPOT_BEACH, NUM_BEACHES + SPOT_AREA, NUM_BEACHES + NUM_AREAS + SPOT_THEME],
                     axis=1).astype(np.int64)

# Tuning constants
PAINT_COST = 2.0      # what keeping a paint card for later is worth, in points
DENIAL = 0.3          # weight of an opponent's gain on the spot we build on
ROOM = 0.15           # per empty in-play neighbour of the spot
GUESS = 0.3           # how sharply opponents' tikis find a revealed spot (by its share of the
                      # plausible spots with the shown card)
BLOCKED = 0.95        # chance that an opponent blocks the spot it would pick in our place
RETRY = 0.5           # a project that failed last season is expected again
TAKE_BACK_RISK = 0.25  # extra chance a take-back is protected (the paint card is shown)


_popcount = C.popcount


_group_points = C.group_points


@njit(cache=True)
def _scores(bits, n, out):
    """Points of every relative colour for the huts ``bits`` (groups and beach bonuses)."""
    for k in range(n):
        out[k] = _group_points(bits[k])
    for b in range(NUM_BEACHES):
        if b == BIKINI and n == 3:
            continue
        best = 0
        leaders = 0
        for k in range(n):
            m = _popcount(bits[k] & BEACH_BITS[b])
            if m > best:
                best, leaders = m, 1
            elif m == best and m > 0:
                leaders += 1
        if best == 0 or leaders > 2:
            continue
        for k in range(n):
            if _popcount(bits[k] & BEACH_BITS[b]) == best:
                out[k] += 4 if leaders == 1 else 2


@njit(cache=True)
def _value(bits, n, mine, two_player, sc):
    """The position's worth to the viewer: own points minus the opponents' (in the two-player game the
    other player's two colours together; otherwise half the best and half the average opponent)."""
    _scores(bits, n, sc)
    own = 0.0
    opp_total = 0.0
    opp_best = -1.0
    opps = 0
    for k in range(n):
        if mine[k]:
            own += sc[k]
        else:
            opp_total += sc[k]
            opps += 1
            if sc[k] > opp_best:
                opp_best = sc[k]
    if two_player or opps == 0:
        return own - opp_total
    return own - 0.5 * opp_best - 0.5 * opp_total / opps


@njit(cache=True)
def _read(obs, bits, mine):
    n = 0
    for k in range(MAX_COLOURS):
        base = C.OBS_COLOUR + k * CF
        if obs[base + C.CF_PRESENT] == 0:
            continue
        n = k + 1
        mine[k] = obs[base + C.CF_MINE] == 1
        b = 0
        for s in range(NUM_SPOTS):
            if obs[C.OBS_HUT + k * NUM_SPOTS + s] != 0:
                b |= 1 << s
        bits[k] = b
    return n


@njit(cache=True)
def _hut_at(bits, n, s):
    for k in range(n):
        if (bits[k] >> s) & 1:
            return k
    return -1


@njit(cache=True)
def _own_project(obs, k):
    """Spot and take-back flag of the project of own relative colour k (-1 if none chosen)."""
    base = C.OBS_OWN_PROJECT + k * (NUM_SPOTS + 1)
    for s in range(NUM_SPOTS):
        if obs[base + s] != 0:
            return s, obs[base + NUM_SPOTS] != 0
    return -1, False


@njit(cache=True)
def _apply(bits, n, k, s, take_back):
    """Colour k builds on (or takes back) spot s, if that succeeds on this board."""
    h = _hut_at(bits, n, s)
    if take_back:
        if h < 0:
            return
        bits[h] &= ~(1 << s)
    elif h >= 0:
        return
    bits[k] |= 1 << s


@njit(cache=True)
def _gain_for(bits, n, k, s, take_back, sc, tmp):
    """Points colour k would gain from its project on s (plus half the victim's loss for a take-back)."""
    _scores(bits, n, sc)
    before = sc[k]
    h = _hut_at(bits, n, s)
    for i in range(n):
        tmp[i] = bits[i]
    _apply(tmp, n, k, s, take_back)
    victim_before = sc[h] if (take_back and h >= 0) else 0
    _scores(tmp, n, sc)
    g = sc[k] - before
    if take_back and h >= 0:
        g += 0.5 * (victim_before - sc[h])
    return g


@njit(cache=True)
def _predicted_tikis(bits, n, mine, two_player, in_play, paint):
    """blocker[kind, card, o]: the spot opponent colour o would put its tiki on if our project showed
    ``card`` (and the paint card when kind is 1), reading it as ``decide_tiki`` does, -1 for none."""
    blocker = np.full((2, 11, MAX_COLOURS), -1, dtype=np.int64)
    sc = np.zeros(MAX_COLOURS)
    tmp = np.zeros(MAX_COLOURS, dtype=np.int64)
    w = np.zeros((2, NUM_SPOTS))
    hut = np.full(NUM_SPOTS, -1, dtype=np.int64)
    for t in range(NUM_SPOTS):
        if (in_play >> t) & 1 == 0:
            continue
        h = _hut_at(bits, n, t)
        hut[t] = h
        if h < 0:
            w[0, t] = 1.0 + max(0.0, _gain_for(bits, n, 0, t, False, sc, tmp))
        elif paint and not mine[h]:
            w[1, t] = 1.0 + max(0.0, _gain_for(bits, n, 0, t, True, sc, tmp))
    theirs = np.zeros(MAX_COLOURS, dtype=np.bool_)
    for o in range(n):
        if mine[o]:
            continue
        for k in range(n):
            theirs[k] = ((k - o) % 2 == 0) if two_player else (k == o)
        base = _value(bits, n, theirs, two_player, sc)
        best = np.full((2, 11), 0.0)
        for t in range(NUM_SPOTS):
            for kd in range(2):
                if w[kd, t] <= 0.0:
                    continue
                if kd == 1 and hut[t] != o:
                    continue   # only the hut's own colour can protect it, not its partner (RULINGS.md)
                for i in range(n):
                    tmp[i] = bits[i]
                _apply(tmp, n, 0, t, kd == 1)
                v = w[kd, t] * (base - _value(tmp, n, theirs, two_player, sc))
                if v <= 0.0:
                    continue
                for shown in range(3):
                    card = SPOT_CARD[t, shown]
                    if v > best[kd, card]:
                        best[kd, card] = v
                        blocker[kd, card, o] = t
    return blocker


@njit(cache=True)
def _candidate_gains(board, n, mine, two_player, in_play, partner_spot, paints, sc, tmp, gain, kind, weight):
    """Per spot, what building there (kind 0) or taking the hut back (kind 1) gains, and how likely the
    opponents think we go there (``weight``); kind -1 for spots that are no candidate."""
    base = _value(board, n, mine, two_player, sc)
    occupied = 0
    for k in range(n):
        occupied |= board[k]
    for s in range(NUM_SPOTS):
        kind[s] = -1
        if (in_play >> s) & 1 == 0 or s == partner_spot:
            continue
        h = _hut_at(board, n, s)
        if h < 0:
            for i in range(n):
                tmp[i] = board[i]
            tmp[0] |= 1 << s
            g = _value(tmp, n, mine, two_player, sc) - base
            free_nb = _popcount(NEIGHBOUR_BITS[s] & in_play & ~occupied)
            g += ROOM * free_nb
            deny = 0.0
            for k in range(n):
                if not mine[k]:
                    d = _gain_for(board, n, k, s, False, sc, tmp)
                    if d > deny:
                        deny = d
            g += DENIAL * deny
            gain[s] = g
            kind[s] = 0
        elif not mine[h] and paints > 0:
            for i in range(n):
                tmp[i] = board[i]
            tmp[h] &= ~(1 << s)
            tmp[0] |= 1 << s
            gain[s] = _value(tmp, n, mine, two_player, sc) - base - PAINT_COST
            kind[s] = 1
        if kind[s] >= 0:
            weight[s] = max(gain[s], 0.0) + 0.5


@njit(cache=True)
def _failed_spot(obs):
    """Where last season's project of this colour failed (everyone saw it), -1 if it did not."""
    failed_spot = -1
    last = C.OBS_LAST
    if obs[last + NUM_SPOTS + 1] == 0:
        for t in range(NUM_SPOTS):
            if obs[last + t] != 0:
                failed_spot = t
    return failed_spot


@njit(cache=True)
def _best_shown(mask, noise, n, mine, opp_colours, gain, kind, weight, blocker, failed_spot):
    """The candidate and shown card with the best expected gain, the gain weighed by the chance that no
    opponent's tiki lands on the spot."""
    best = -1e18
    best_action = -1
    for s in range(NUM_SPOTS):
        if kind[s] < 0:
            continue
        for shown in range(3):
            a = (C.TAKE_BACK_BASE if kind[s] == 1 else 0) + 3 * s + shown
            if mask[a] == 0:
                continue
            card = SPOT_CARD[s, shown]
            total = 0.0
            for t in range(NUM_SPOTS):
                if kind[t] == kind[s] and SPOT_CARD[t, shown] == card:
                    total += weight[t]
            exposure = weight[s] / total
            risk = min(0.9, GUESS * opp_colours * exposure)
            if kind[s] == 1:
                risk = min(0.95, risk + TAKE_BACK_RISK)
            free = 1.0 - risk
            for o in range(n):
                if not mine[o] and blocker[kind[s], card, o] == s:
                    free *= 1.0 - BLOCKED
            if s == failed_spot:
                free *= RETRY
            g = gain[s]
            ev = g * free if g > 0 else g
            ev += noise[a]
            if ev > best:
                best = ev
                best_action = a
    return best_action


@njit(cache=True)
def decide_project(obs, mask, noise, num_players):
    n_max = MAX_COLOURS
    bits = np.zeros(n_max, dtype=np.int64)
    mine = np.zeros(n_max, dtype=np.bool_)
    n = _read(obs, bits, mine)
    two_player = num_players == 2
    sc = np.zeros(n_max, dtype=np.float64)
    tmp = np.zeros(n_max, dtype=np.int64)
    board = bits.copy()
    # the other own colour's project already chosen this season (two-player game): assume it succeeds
    partner_spot = -1
    for k in range(1, n):
        if mine[k]:
            s, tb = _own_project(obs, k)
            if s >= 0:
                partner_spot = s
                _apply(board, n, k, s, tb)
    paints = obs[C.OBS_COLOUR + C.CF_PAINTS]
    in_play = 0
    for s in range(NUM_SPOTS):
        if obs[C.OBS_IN_PLAY + s] != 0:
            in_play |= 1 << s
    opp_colours = 0
    for k in range(n):
        if not mine[k]:
            opp_colours += 1

    gain = np.full(NUM_SPOTS, -1e9)
    kind = np.zeros(NUM_SPOTS, dtype=np.int64)   # 0 construct, 1 take-back, -1 not a candidate
    weight = np.zeros(NUM_SPOTS)
    _candidate_gains(board, n, mine, two_player, in_play, partner_spot, paints, sc, tmp, gain, kind, weight)
    # How the opponents will read our shown card (the reasoning of ``decide_tiki``, on the board they
    # see): each puts its tiki where the spots our card allows are likeliest and would hurt it most.
    blocker = _predicted_tikis(bits, n, mine, two_player, in_play, paints > 0)
    best_action = _best_shown(mask, noise, n, mine, opp_colours, gain, kind, weight, blocker, _failed_spot(obs))
    if best_action < 0:
        # every spot holds a hut we cannot take back: any project fails alike
        for a in range(C.TIKI_BASE):
            if mask[a] != 0 and (best_action < 0 or noise[a] > noise[best_action]):
                best_action = a
    return best_action


@njit(cache=True)
def decide_tiki(obs, mask, noise, num_players):
    n_max = MAX_COLOURS
    bits = np.zeros(n_max, dtype=np.int64)
    mine = np.zeros(n_max, dtype=np.bool_)
    n = _read(obs, bits, mine)
    two_player = num_players == 2
    sc = np.zeros(n_max, dtype=np.float64)
    tmp = np.zeros(n_max, dtype=np.int64)
    in_play = 0
    for s in range(NUM_SPOTS):
        if obs[C.OBS_IN_PLAY + s] != 0:
            in_play |= 1 << s
    base = _value(bits, n, mine, two_player, sc)
    # own projects: never block them
    avoid = 0
    for k in range(n):
        if mine[k]:
            s, tb = _own_project(obs, k)
            if s >= 0 and not tb:
                avoid |= 1 << s
    value = np.zeros(NUM_SPOTS)
    general = np.zeros(NUM_SPOTS)
    w = np.zeros(NUM_SPOTS)
    for o in range(n):
        if mine[o]:
            continue
        cb = C.OBS_COLOUR + o * CF
        card = -1
        for c in range(11):
            if obs[cb + C.CF_SHOWN_CARD + c] != 0:
                card = c
        if card < 0:
            continue
        paint = obs[cb + C.CF_PAINT_SHOWN] != 0
        shown = 0 if card < NUM_BEACHES else (1 if card < NUM_BEACHES + NUM_AREAS else 2)
        total = 0.0
        for s in range(NUM_SPOTS):
            w[s] = 0.0
            if (in_play >> s) & 1 == 0 or SPOT_CARD[s, shown] != card:
                continue
            h = _hut_at(bits, n, s)
            if paint:
                if h < 0 or h == o or (two_player and (h - o) % 2 == 0):
                    continue
            elif h >= 0:
                continue
            g = _gain_for(bits, n, o, s, paint, sc, tmp)
            w[s] = 1.0 + max(0.0, g)
            total += w[s]
        if total <= 0:
            continue
        for s in range(NUM_SPOTS):
            if w[s] <= 0:
                continue
            for i in range(n):
                tmp[i] = bits[i]
            _apply(tmp, n, o, s, paint)
            harm = base - _value(tmp, n, mine, two_player, sc)
            if harm > 0:
                value[s] += w[s] / total * harm
            general[s] += w[s] / total
    best = -1e18
    best_action = -1
    for s in range(NUM_SPOTS):
        a = C.TIKI_BASE + s
        if mask[a] == 0:
            continue
        v = value[s] + 0.01 * general[s] + noise[a]
        if (avoid >> s) & 1:
            v -= 1000.0
        if v > best:
            best = v
            best_action = a
    return best_action


def act(obs, mask, noise, num_players, seed=0):
    if obs[C.OBS_PHASE + C.PHASE_PROJECT]:
        a = decide_project(obs, mask, noise, num_players)
    else:
        a = decide_tiki(obs, mask, noise, num_players)
    return int(a)
