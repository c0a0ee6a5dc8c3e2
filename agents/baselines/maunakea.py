"""Heuristic strategy for Mauna Kea (basic game), read off the observation alone.

The board, the artifacts, the boats still waiting, one's own explorers and the tiles in hand are all
in the observation.  From them the agent keeps, for each of its explorers, a *plan*: walk (perhaps
through one square of artifacts, picked up on the way) to the entry of a boat and board it.  A plan is
worth what the boat would score (3 for the explorer, the artifacts it can load, -1 per empty place)
plus a little for getting the explorer off the island (the game only ends when somebody has none
left), less a price per movement point still to walk.  Paths are shortest paths over the squares:
jungle 1 point, water 2, a bare tile space 3 (a tile has to be laid there first), squares taken by
other explorers a little dearer.  Explorers are matched to plans greedily, best first, one explorer
per boat and per artifact square.  Each decision is then the legal action that improves the sum of the
plans most:

- **Pick up** the best artifact on an explorer's square whenever it can carry more (free), and swap a
  carried artifact for a better one lying there.
- **Board** when boarding now is worth more than the explorer's best other plan.
- **Move** an explorer one step when it brings its plan closer (by more than the points it spends).
- **Lay a tile** on the bare field (and in the rotation) that shortens the plans most; tiles are only
  tried on the fields that the planned paths cross and their neighbours.
- **Spend a tile** when its points can be walked this turn along the planned paths (the walkable part
  up to the first bare square), the pool being worth a little less than actual progress.
- **Lava**: the ends of the lava branches are rebuilt from the observation (the chains of lava tiles
  from each flow's exit that fit the lava on the board and each branch's length and direction), and
  the next round's eruptions are sampled from the bag.  A square's risk is the chance of being
  covered, or of being cut off from every boat (a walled-in explorer can never board, and the game
  may then never end), plus a standing risk near the volcano while lava is left.  Each explorer pays
  the cheaper of its square's risk and the walk to a safer square, so explorers in danger walk out
  first, at twice the worth of ordinary progress.
- **End of the game**: once the end is triggered, only plans that can still be finished with the
  points at hand count.
- **Placement**: each explorer goes on the free start square from which the plans are best.

Ties are broken by a tiny random noise, and the lava is sampled with a seed, both drawn from the
agent's own generator.
"""
import numpy as np
from numba import njit

from maunakea_env import kernels as C
from maunakea_env.board import (
    EXPLORERS_PER_PLAYER, FIELD_KIND, FIELD_NEIGHBOURS, FIELD_RING, FIELD_SQUARES, FORK, KIND_LAVA_EXIT,
    LAVA_FLOW_DIRECTION, LAVA_FLOW_EXIT_FIELD, LAVA_SHAPE_EXIT_TURNS, LAVA_TILE_FLOW, IS_TILE_FIELD, JUNGLE,
    LANDING_ENTRY_SQUARES, LAVA, NO_TILE, NUM_FIELDS, NUM_LANDINGS, NUM_LAVA_FLOWS, NUM_SQUARES, SQUARE_FIELD,
    SQUARE_NEIGHBOURS, SQUARE_LANDING, SQUARES_PER_SIDE, TILE_ROTATION_SOURCE, VOLCANO, WATER,
)

from ..base import ObservationError

MAX_E = C.MAX_EXPLORERS
NC = C.NUM_COLOURS
INF = 1 << 30

# Tuning constants.  Costs are in half movement points (jungle 2, water 4) so that a bare tile space
# can cost 3 points.
COST_JUNGLE = 2
COST_WATER = 4
COST_EMPTY = 6
COST_OCCUPIED = 4       # extra for a square another explorer stands on (it may move away)
BOARD_COST = 2          # boarding costs 1 point
MU = 0.075              # value of one half point of distance (0.15 VP a movement point)
MU_POOL = 0.9 * MU      # value of a half point in the pool that can be walked along the plans
FINISH = 1.0            # getting an explorer off the island
TRAP_PENALTY = 6.0      # being cut off from every boat: the game may never end
EXPLORER_WORTH = 5.0    # what an explorer lost to lava costs
ESCAPE = 2 * MU         # value of a half point walked out of the lava's way
EXPLORER_POINTS = 3
ARTIFACT_VALUE = np.array([1, 2, 3], dtype=np.int64)   # white, gray, black
MAX_LAY_FIELDS = 14
RING_DANGER = np.array([0.0, 0.3, 0.15, 0.0, 0.0])  # staying near the volcano, by field ring
LAVA_SAMPLES = 24       # sampled next rounds of eruptions
HORIZON_ROUNDS = 1      # rounds of eruptions looked ahead


# ---------------------------------------------------------------------------------------------------
# Reading the observation
@njit(cache=True)
def _terrain(obs, terrain):
    for s in range(NUM_SQUARES):
        terrain[s] = 0
        for t in range(C.NUM_TERRAINS):
            if obs[C.OBS_TERRAIN + t * NUM_SQUARES + s] != 0:
                terrain[s] = t


@njit(cache=True)
def _cost(terrain, occupied, cost):
    for s in range(NUM_SQUARES):
        t = terrain[s]
        if t == JUNGLE:
            c = COST_JUNGLE
        elif t == WATER:
            c = COST_WATER
        elif t == NO_TILE:
            c = COST_EMPTY
        else:
            c = -1
        if c > 0 and occupied[s]:
            c += COST_OCCUPIED
        cost[s] = c


# ---------------------------------------------------------------------------------------------------
# Shortest paths (small integer weights: a FIFO label-correcting search is near-linear on this grid)
@njit(cache=True)
def _forward(cost, source, dist, queue, inq):
    """dist[x]: cost of walking from ``source`` to x, paying each square entered."""
    for s in range(NUM_SQUARES):
        dist[s] = INF
        inq[s] = False
    dist[source] = 0
    queue[0] = source
    inq[source] = True
    _resume(cost, dist, queue, inq, 0, 1, False)


@njit(cache=True)
def _backward(cost, landing, dist, queue, inq, cap):
    """dist[x]: cost of walking from x to an entry square of ``landing`` (of any landing with a boat
    when ``landing`` < 0)."""
    for s in range(NUM_SQUARES):
        dist[s] = INF
        inq[s] = False
    tail = 0
    for l in range(NUM_LANDINGS):
        if l != landing and (landing >= 0 or cap[l] == 0):
            continue
        for i in range(4):
            t = LANDING_ENTRY_SQUARES[l, i]
            if cost[t] >= 0:
                dist[t] = 0
                queue[tail] = t
                tail += 1
                inq[t] = True
    _resume(cost, dist, queue, inq, 0, tail, True)


@njit(cache=True)
def _reachable(cost, cap, reach, queue):
    """reach[x]: whether ``_backward(cost, -1, ...)`` gives x a finite distance -- the squares from
    which a boat can be walked to, and the impassable squares beside them -- found by a plain
    breadth-first search, for callers that read only whether a boat is in reach, not how far."""
    for s in range(NUM_SQUARES):
        reach[s] = False
    tail = 0
    for l in range(NUM_LANDINGS):
        if cap[l] == 0:
            continue
        for i in range(4):
            t = LANDING_ENTRY_SQUARES[l, i]
            if cost[t] >= 0 and not reach[t]:
                reach[t] = True
                queue[tail] = t
                tail += 1
    head = 0
    while head < tail:   # only passable squares are queued, each once: the queue never overflows
        x = queue[head]
        head += 1
        for d in range(4):
            y = SQUARE_NEIGHBOURS[x, d]
            if y >= 0 and not reach[y]:
                reach[y] = True
                if cost[y] >= 0:
                    queue[tail] = y
                    tail += 1


# After a change of the costs of a few squares (a tile tried on a field), a map is brought up to date
# from the old one instead of computed afresh: the squares whose distance may have rested on a square
# that became dearer (or impassable) are found along the tight steps of the old map and cleared, and the
# search resumes from them, from the squares that became cheaper and from their neighbours.  Shortest
# distances are unique, so the map is exactly the one ``_forward`` / ``_backward`` compute.
@njit(cache=True, inline="always")
def _rose(old, new):
    """Whether entering a square got dearer: impassable now, or passable at a higher cost."""
    return old >= 0 and (new < 0 or new > old)


@njit(cache=True)
def _resume(cost, dist, queue, inq, head, tail, backward):
    """The label-correcting search of ``_forward`` (``backward``: of ``_backward``) from the squares
    queued in ``queue[head:tail]``.  The queue is a ring of ``NUM_SQUARES`` entries holding each square
    at most once (``inq``), and only passable squares are queued; the volcano never is, so the ring
    never fills."""
    while head != tail:
        x = queue[head]
        head += 1
        if head == NUM_SQUARES:
            head = 0
        inq[x] = False
        if backward:
            c = cost[x]
            if c < 0:
                continue
            nd = dist[x] + c
        for d in range(4):
            y = SQUARE_NEIGHBOURS[x, d]
            if y < 0:
                continue
            if not backward:
                c = cost[y]
                if c < 0:
                    continue
                nd = dist[x] + c
            if nd < dist[y]:
                dist[y] = nd
                if not inq[y]:
                    inq[y] = True
                    queue[tail] = y
                    tail += 1
                    if tail == NUM_SQUARES:
                        tail = 0


@njit(cache=True)
def _forward_update(old_cost, cost, source, dist, changed, queue, inq, cleared, mark):
    """``_forward(cost, source, dist, ...)`` given ``dist`` computed for ``old_cost``, which differs
    from ``cost`` only on the squares ``changed``."""
    n = 0
    for k in range(changed.shape[0]):
        y = changed[k]
        if y != source and dist[y] < INF and _rose(old_cost[y], cost[y]) and not mark[y]:
            mark[y] = True
            cleared[n] = y
            n += 1
    i = 0
    while i < n:   # every square whose old shortest walk may pass a dearer square
        x = cleared[i]
        i += 1
        for d in range(4):
            y = SQUARE_NEIGHBOURS[x, d]
            if y >= 0 and y != source and not mark[y] and dist[y] < INF and old_cost[y] >= 0 \
                    and dist[y] == dist[x] + old_cost[y]:
                mark[y] = True
                cleared[n] = y
                n += 1
    for i in range(n):
        dist[cleared[i]] = INF
    tail = 0
    for k in range(n + changed.shape[0]):
        y = cleared[k] if k < n else changed[k - n]
        if y == source or cost[y] < 0 or inq[y]:
            continue
        for d in range(4):
            x = SQUARE_NEIGHBOURS[y, d]
            if x >= 0 and dist[x] < INF and (x == source or cost[x] >= 0) and dist[x] + cost[y] < dist[y]:
                dist[y] = dist[x] + cost[y]
        if dist[y] < INF:
            inq[y] = True
            queue[tail] = y
            tail += 1
    for i in range(n):
        mark[cleared[i]] = False
    _resume(cost, dist, queue, inq, 0, tail, False)


@njit(cache=True, inline="always")
def _clear_walks_through(y, old_cost, dist, cleared, n, mark):
    """Clear (append to ``cleared[:n]``) the squares whose shortest walk to the landing went on through
    y, on the old map; the new count."""
    if old_cost[y] < 0:
        return n
    for d in range(4):
        x = SQUARE_NEIGHBOURS[y, d]
        if x >= 0 and not mark[x] and dist[x] < INF and dist[x] == dist[y] + old_cost[y]:
            mark[x] = True
            cleared[n] = x
            n += 1
    return n


@njit(cache=True)
def _backward_update(old_cost, cost, landing, dist, changed, queue, inq, cleared, mark):
    """``_backward(cost, landing, dist, ...)`` (``landing`` >= 0) given ``dist`` computed for
    ``old_cost``, which differs from ``cost`` only on the squares ``changed``."""
    n = 0
    for k in range(changed.shape[0]):
        y = changed[k]
        if dist[y] >= INF or not _rose(old_cost[y], cost[y]):
            continue
        if dist[y] == 0 and not mark[y]:   # an entry square that is no longer one
            mark[y] = True
            cleared[n] = y
            n += 1
        n = _clear_walks_through(y, old_cost, dist, cleared, n, mark)
    i = 0
    while i < n:
        n = _clear_walks_through(cleared[i], old_cost, dist, cleared, n, mark)
        i += 1
    for i in range(n):
        dist[cleared[i]] = INF
    tail = 0
    for i in range(n):
        x = cleared[i]
        best = INF
        for j in range(4):
            if LANDING_ENTRY_SQUARES[landing, j] == x and cost[x] >= 0:
                best = 0
        for d in range(4):
            y = SQUARE_NEIGHBOURS[x, d]
            if y >= 0 and cost[y] >= 0 and dist[y] < INF and dist[y] + cost[y] < best:
                best = dist[y] + cost[y]
        dist[x] = best
    for k in range(n + changed.shape[0]):
        y = cleared[k] if k < n else changed[k - n]
        if k >= n:
            for j in range(4):   # a square that became an entry of the landing
                if LANDING_ENTRY_SQUARES[landing, j] == y and cost[y] >= 0:
                    dist[y] = 0
        if dist[y] < INF and cost[y] >= 0 and not inq[y]:
            inq[y] = True
            queue[tail] = y
            tail += 1
    for i in range(n):
        mark[cleared[i]] = False
    _resume(cost, dist, queue, inq, 0, tail, True)


# ---------------------------------------------------------------------------------------------------
# Plans
@njit(cache=True)
def _boat_value(w, g, b, cap):
    loaded = 0
    v = EXPLORER_POINTS + FINISH
    for c, k in ((2, b), (1, g), (0, w)):
        take = min(k, cap - loaded)
        loaded += take
        v += ARTIFACT_VALUE[c] * take
    return v - (cap - loaded)


@njit(cache=True)
def _best_artifact(art, s):
    for c in range(NC - 1, -1, -1):
        if art[c, s] > 0:
            return c
    return -1


@njit(cache=True)
def _plans(ex_sq, carried, n_ex, F, D, cap, art, art_sq, n_art, hit, esc, budget, plan_e, plan_t, plan_l,
           plan_score):
    """Greedy matching of explorers to plans (artifact square or none, landing), best first.  Returns the
    number of plans and their total worth; plan_* describe them."""
    used_l = np.zeros(NUM_LANDINGS, dtype=np.bool_)
    used_t = np.zeros(n_art + 1, dtype=np.bool_)
    done = np.zeros(MAX_E, dtype=np.bool_)
    # every plan's score, once: the rounds below only take the best one still free (-inf: no plan)
    direct = np.full((MAX_E, NUM_LANDINGS), -np.inf)
    via = np.full((MAX_E, NUM_LANDINGS, max(n_art, 1)), -np.inf)
    for e in range(n_ex):
        s = ex_sq[e]
        if s < 0:
            continue
        w, g, b = carried[e, 0], carried[e, 1], carried[e, 2]
        for l in range(NUM_LANDINGS):
            if cap[l] == 0:
                continue
            d = D[l, s]
            if d < INF:
                cost = d + BOARD_COST
                if cost <= budget:
                    v = _boat_value(w, g, b, cap[l])
                    direct[e, l] = v - MU * cost
            if w + g + b >= 3:
                continue
            for i in range(n_art):
                t = art_sq[i]
                if F[e, t] >= INF or D[l, t] >= INF:
                    continue
                cost = F[e, t] + D[l, t] + BOARD_COST
                if cost > budget:
                    continue
                c = _best_artifact(art, t)
                ww, gg, bb = w, g, b
                if c == 0:
                    ww += 1
                elif c == 1:
                    gg += 1
                else:
                    bb += 1
                v = _boat_value(ww, gg, bb, cap[l])
                via[e, l, i] = v - ARTIFACT_VALUE[c] * hit[t] - MU * cost
    total = 0.0
    n_plans = 0
    for _round in range(n_ex):
        # the plans in the order they were first scored in, the first of equal scores kept
        best = -1e18
        be, bt, bl = -1, -1, -1
        for e in range(n_ex):
            if ex_sq[e] < 0 or done[e]:
                continue
            few = carried[e, 0] + carried[e, 1] + carried[e, 2] < 3
            for l in range(NUM_LANDINGS):
                if cap[l] == 0 or used_l[l]:
                    continue
                if direct[e, l] > best:
                    best, be, bt, bl = direct[e, l], e, -1, l
                if not few:
                    continue
                for i in range(n_art):
                    if not used_t[i] and via[e, l, i] > best:
                        best, be, bt, bl = via[e, l, i], e, i, l
        if be < 0:
            break
        done[be] = True
        used_l[bl] = True
        if bt >= 0:
            used_t[bt] = True
        plan_e[n_plans] = be
        plan_t[n_plans] = bt
        plan_l[n_plans] = bl
        plan_score[n_plans] = best
        n_plans += 1
        total += best
    for e in range(n_ex):
        if ex_sq[e] >= 0:
            total -= esc[ex_sq[e]]
    return n_plans, total


@njit(cache=True)
def _walkable(cost, terrain, F_e, D_l, start, target, path):
    """Points that can be walked now (up to the first bare square) along the plan from ``start`` to
    ``target`` (an artifact square, traced back on F_e) or, with target < 0, to the landing (traced
    forward on D_l).  The squares of the path are written to ``path``; returns (walkable points, length)."""
    n = 0
    if target >= 0:
        # trace back from target to start on the forward map
        y = target
        while y != start and n < NUM_SQUARES:
            path[n] = y
            n += 1
            found = -1
            for d in range(4):
                x = SQUARE_NEIGHBOURS[y, d]
                if x >= 0 and F_e[x] < INF and F_e[x] + cost[y] == F_e[y]:
                    found = x
                    break
            if found < 0:
                break
            y = found
        # reverse to walking order
        for i in range(n // 2):
            path[i], path[n - 1 - i] = path[n - 1 - i], path[i]
    else:
        x = start
        while D_l[x] > 0 and n < NUM_SQUARES:
            found = -1
            for d in range(4):
                y = SQUARE_NEIGHBOURS[x, d]
                if y >= 0 and cost[y] >= 0 and D_l[y] + cost[y] == D_l[x]:
                    found = y
                    break
            if found < 0:
                break
            path[n] = found
            n += 1
            x = found
    walk = 0
    complete = True
    for i in range(n):
        t = terrain[path[i]]
        if t == NO_TILE:
            complete = False
            break
        walk += 1 if t == JUNGLE else 2
    return walk, n, complete


# ---------------------------------------------------------------------------------------------------
# Lava.  The observation shows where lava lies and, per branch, whether it is open, its tiles since the
# fork and its direction, but not where it ends.  The ends are rebuilt by trying every chain of lava
# tiles from the flow's exit that fits (straight, left or right, tunnelling under lava, the fork last
# before the branches), then the next round's eruptions are sampled from the bag to see which squares
# get covered (hit) or cut off from every boat (trapped).
MAX_ENDS = 40
MAX_CHAIN_NODES = 20000


@njit(cache=True)
def _options(field, d, fork, lava_now, tile_lava, used, opos, odir, level):
    """Where the next tile of a chain could lie (the first lava tile field on the line, or one further
    if it tunnelled) and the direction it leaves in."""
    n = 0
    t = FIELD_NEIGHBOURS[field, d]
    while t >= 0 and lava_now[t] and n + 3 <= opos.shape[1]:
        if tile_lava[t] and not used[t]:
            if fork:
                opos[level, n] = t
                odir[level, n] = d
                n += 1
            else:
                for shape in range(3):
                    opos[level, n] = t
                    odir[level, n] = (d + LAVA_SHAPE_EXIT_TURNS[shape, 0]) % 4
                    n += 1
        t = FIELD_NEIGHBOURS[t, d]
    return n


@njit(cache=True)
def _chains(start, start_dir, n_tiles, final_dir, fork_last, lava_now, tile_lava, out_pos, out_dir, n_out):
    """Append to out_* the ends (field, direction) of every chain of ``n_tiles`` lava tiles leaving
    ``start`` in ``start_dir`` that ends in ``final_dir`` (or whose last tile is a fork: then the fork's
    field and entry direction).  Returns the new count, or -1 when the search is too large."""
    if n_tiles == 0:
        if start_dir == final_dir and n_out < MAX_ENDS:
            out_pos[n_out] = start
            out_dir[n_out] = start_dir
            n_out += 1
        return n_out
    used = np.zeros(NUM_FIELDS, dtype=np.bool_)
    opos = np.zeros((8, 12), dtype=np.int64)
    odir = np.zeros((8, 12), dtype=np.int64)
    nopt = np.zeros(8, dtype=np.int64)
    idx = np.zeros(8, dtype=np.int64)
    chosen = np.zeros(8, dtype=np.int64)
    level = 0
    nopt[0] = _options(start, start_dir, fork_last and n_tiles == 1, lava_now, tile_lava, used, opos, odir, 0)
    nodes = 0
    while level >= 0:
        if idx[level] >= nopt[level]:
            level -= 1
            if level >= 0:
                used[chosen[level]] = False
                idx[level] += 1
            continue
        nodes += 1
        if nodes > MAX_CHAIN_NODES:
            return -1
        pos = opos[level, idx[level]]
        d = odir[level, idx[level]]
        if level + 1 == n_tiles:
            if fork_last or d == final_dir:
                dup = False
                for i in range(n_out):
                    if out_pos[i] == pos and out_dir[i] == d:
                        dup = True
                if not dup and n_out < MAX_ENDS:
                    out_pos[n_out] = pos
                    out_dir[n_out] = d
                    n_out += 1
            idx[level] += 1
            continue
        used[pos] = True
        chosen[level] = pos
        level += 1
        nopt[level] = _options(pos, d, fork_last and level + 1 == n_tiles, lava_now, tile_lava, used, opos,
                               odir, level)
        idx[level] = 0
    return n_out


@njit(cache=True)
def _branch_ends(obs, lava_now, tile_lava, ends, n_ends, b_open, b_len, b_dir):
    """Candidate end fields of every branch (ends[flow, branch, :n_ends])."""
    out_pos = np.zeros(MAX_ENDS, dtype=np.int64)
    out_dir = np.zeros(MAX_ENDS, dtype=np.int64)
    fk_pos = np.zeros(MAX_ENDS, dtype=np.int64)
    fk_dir = np.zeros(MAX_ENDS, dtype=np.int64)
    for flow in range(NUM_LAVA_FLOWS):
        for b in range(2):
            base = C.OBS_LAVA + 6 * (2 * flow + b)
            b_open[flow, b] = obs[base] != 0
            b_len[flow, b] = obs[base + 1]
            b_dir[flow, b] = 0
            for k in range(4):
                if obs[base + 2 + k] != 0:
                    b_dir[flow, b] = k
            n_ends[flow, b] = 0
        placed = 6 - obs[C.OBS_BAG + 3 + flow]
        exit_f = LAVA_FLOW_EXIT_FIELD[flow]
        exit_d = LAVA_FLOW_DIRECTION[flow]
        ok = False
        if b_open[flow, 0] and not b_open[flow, 1] and b_len[flow, 0] == placed:
            n = _chains(exit_f, exit_d, b_len[flow, 0], b_dir[flow, 0], False, lava_now, tile_lava,
                        out_pos, out_dir, 0)
            if n > 0:
                ok = True
                for i in range(n):
                    ends[flow, 0, i] = out_pos[i]
                n_ends[flow, 0] = n
        elif b_open[flow, 0] and b_open[flow, 1]:
            pre = placed - b_len[flow, 0] - b_len[flow, 1]
            if pre >= 1:
                nf = _chains(exit_f, exit_d, pre, 0, True, lava_now, tile_lava, fk_pos, fk_dir, 0)
                if nf > 0:
                    ok = True
                    for b in range(2):
                        n = 0
                        for i in range(nf):
                            d0 = (fk_dir[i] + LAVA_SHAPE_EXIT_TURNS[FORK, b]) % 4
                            n = _chains(fk_pos[i], d0, b_len[flow, b], b_dir[flow, b], False, lava_now,
                                        tile_lava, out_pos, out_dir, n)
                            if n < 0:
                                break
                        if n <= 0:
                            ok = False
                            break
                        for i in range(n):
                            ends[flow, b, i] = out_pos[i]
                        n_ends[flow, b] = n
        if not ok:
            # not rebuilt (a branch left the board, or too many chains): any lava field may be the end
            for b in range(2):
                n = 0
                if b_open[flow, b]:
                    ends[flow, b, 0] = exit_f
                    n = 1
                    for f in range(NUM_FIELDS):
                        if tile_lava[f] and n < MAX_ENDS:
                            ends[flow, b, n] = f
                            n += 1
                n_ends[flow, b] = n


@njit(cache=True)
def _lava_fields(obs, lava_now, tile_lava):
    """Fields under lava or the volcano now, and those of them that are lava tiles (not a flow's exit)."""
    for f in range(NUM_FIELDS):
        sq = FIELD_SQUARES[f, 0]
        lv = obs[C.OBS_TERRAIN + LAVA * NUM_SQUARES + sq] != 0
        vo = obs[C.OBS_TERRAIN + VOLCANO * NUM_SQUARES + sq] != 0
        lava_now[f] = lv or vo
        tile_lava[f] = lv and FIELD_KIND[f] != KIND_LAVA_EXIT


@njit(cache=True)
def _sample_branches(obs, ends, n_ends, b_open, b_len, b_dir, lavac, s_end, s_dir, s_len, s_open, s_forked):
    """One guess at where each open branch ends now, drawn from its rebuilt ends; the lava tiles per flow
    still in the bag in ``lavac``."""
    for flow in range(NUM_LAVA_FLOWS):
        lavac[flow] = obs[C.OBS_BAG + 3 + flow]
        s_forked[flow] = b_open[flow, 1]
        for b in range(2):
            s_open[flow, b] = b_open[flow, b] and n_ends[flow, b] > 0
            if s_open[flow, b]:
                s_end[flow, b] = ends[flow, b, np.random.randint(n_ends[flow, b])]
            s_dir[flow, b] = b_dir[flow, b]
            s_len[flow, b] = b_len[flow, b]


@njit(cache=True)
def _erupt(n_players, terr, lava_total, lavac, lava_s, covered, s_end, s_dir, s_len, s_open, s_forked):
    """The next rounds' draws from the bag (``terr`` terrain tiles, ``lavac`` lava tiles per flow), each
    lava tile laid at the end of its flow's shorter open branch: marks the fields it covers in
    ``covered`` and says whether any was."""
    any_cover = False
    lava_left = lava_total
    for _turn in range(HORIZON_ROUNDS * n_players):
        terrain_draws = 2 + (1 if np.random.random() < 0.5 else 0)
        while terrain_draws > 0 and terr + lava_left > 0:
            r = np.random.randint(terr + lava_left)
            if r < terr:
                terrain_draws -= 1
                continue
            r -= terr
            flow = 0
            while r >= lavac[flow]:
                r -= lavac[flow]
                flow += 1
            lavac[flow] -= 1
            lava_left -= 1
            br = -1
            for b in range(2):
                if s_open[flow, b] and (br < 0 or s_len[flow, b] < s_len[flow, br]):
                    br = b
            if br < 0:
                continue
            d = s_dir[flow, br]
            t = FIELD_NEIGHBOURS[s_end[flow, br], d]
            while t >= 0 and lava_s[t]:
                t = FIELD_NEIGHBOURS[t, d]
            if t < 0:
                s_open[flow, br] = False
                continue
            lava_s[t] = True
            covered[t] = True
            any_cover = True
            s_end[flow, br] = t
            s_len[flow, br] += 1
            u = np.random.randint(6 if not s_forked[flow] else 5)
            if u >= 5:
                s_forked[flow] = True
                for b in range(2):
                    s_end[flow, b] = t
                    s_dir[flow, b] = (d + LAVA_SHAPE_EXIT_TURNS[FORK, b]) % 4
                    s_len[flow, b] = 0
                    s_open[flow, b] = True
            else:
                shape = 0 if u < 3 else (1 if u == 3 else 2)
                s_dir[flow, br] = (d + LAVA_SHAPE_EXIT_TURNS[shape, 0]) % 4
    return any_cover


@njit(cache=True)
def _lava_risk(obs, cost, cap, n_players, samples, hit, trap):
    """Share of sampled next rounds in which each square is covered by lava (hit) or cut off from every
    boat while it is reachable now (trap)."""
    lava_now = np.zeros(NUM_FIELDS, dtype=np.bool_)
    tile_lava = np.zeros(NUM_FIELDS, dtype=np.bool_)
    _lava_fields(obs, lava_now, tile_lava)
    for s in range(NUM_SQUARES):
        hit[s] = 0.0
        trap[s] = 0.0
    terr = obs[C.OBS_BAG] + obs[C.OBS_BAG + 1] + obs[C.OBS_BAG + 2]
    lava_total = 0
    for flow in range(NUM_LAVA_FLOWS):
        lava_total += obs[C.OBS_BAG + 3 + flow]
    if lava_total == 0 or samples == 0:
        return
    ends = np.zeros((NUM_LAVA_FLOWS, 2, MAX_ENDS), dtype=np.int64)
    n_ends = np.zeros((NUM_LAVA_FLOWS, 2), dtype=np.int64)
    b_open = np.zeros((NUM_LAVA_FLOWS, 2), dtype=np.bool_)
    b_len = np.zeros((NUM_LAVA_FLOWS, 2), dtype=np.int64)
    b_dir = np.zeros((NUM_LAVA_FLOWS, 2), dtype=np.int64)
    _branch_ends(obs, lava_now, tile_lava, ends, n_ends, b_open, b_len, b_dir)

    queue = np.zeros(NUM_SQUARES, dtype=np.int64)
    reach_now = np.zeros(NUM_SQUARES, dtype=np.bool_)
    reach = np.zeros(NUM_SQUARES, dtype=np.bool_)
    cost_s = np.zeros(NUM_SQUARES, dtype=np.int64)
    _reachable(cost, cap, reach_now, queue)
    lava_s = np.zeros(NUM_FIELDS, dtype=np.bool_)
    covered = np.zeros(NUM_FIELDS, dtype=np.bool_)
    s_end = np.zeros((NUM_LAVA_FLOWS, 2), dtype=np.int64)
    s_dir = np.zeros((NUM_LAVA_FLOWS, 2), dtype=np.int64)
    s_len = np.zeros((NUM_LAVA_FLOWS, 2), dtype=np.int64)
    s_open = np.zeros((NUM_LAVA_FLOWS, 2), dtype=np.bool_)
    s_forked = np.zeros(NUM_LAVA_FLOWS, dtype=np.bool_)
    lavac = np.zeros(NUM_LAVA_FLOWS, dtype=np.int64)
    weight = 1.0 / samples
    for _sample in range(samples):
        lava_s[:] = lava_now
        covered[:] = False
        _sample_branches(obs, ends, n_ends, b_open, b_len, b_dir, lavac, s_end, s_dir, s_len, s_open, s_forked)
        if not _erupt(n_players, terr, lava_total, lavac, lava_s, covered, s_end, s_dir, s_len, s_open, s_forked):
            continue
        cost_s[:] = cost
        for f in range(NUM_FIELDS):
            if covered[f]:
                for i in range(4):
                    cost_s[FIELD_SQUARES[f, i]] = -1
        _reachable(cost_s, cap, reach, queue)
        for s in range(NUM_SQUARES):
            if covered[SQUARE_FIELD[s]]:
                hit[s] += weight
            elif reach_now[s] and not reach[s]:
                trap[s] += weight


@njit(cache=True)
def _escape(cost, esc, queue, inq):
    """Turn the lava risk of each square into the price of getting out of it: the risk of a safer
    square plus the walk there (ESCAPE per half point), whichever is least."""
    for s in range(NUM_SQUARES):
        queue[s] = s
        inq[s] = True
    head = 0
    tail = 0   # the queue starts full
    count = NUM_SQUARES
    while count > 0:
        y = queue[head]
        head += 1
        if head == NUM_SQUARES:
            head = 0
        count -= 1
        inq[y] = False
        c = cost[y]
        if c < 0:
            continue
        nd = esc[y] + ESCAPE * c
        for d in range(4):
            x = SQUARE_NEIGHBOURS[y, d]
            if x >= 0 and nd < esc[x] - 1e-9:
                esc[x] = nd
                if not inq[x]:
                    inq[x] = True
                    queue[tail] = x
                    tail += 1
                    if tail == NUM_SQUARES:
                        tail = 0
                    count += 1


# ---------------------------------------------------------------------------------------------------
# The decision
@njit(cache=True)
def _maps(cost, ex_sq, n_ex, cap, F, D, queue, inq):
    for e in range(n_ex):
        if ex_sq[e] >= 0:
            _forward(cost, ex_sq[e], F[e], queue, inq)
    for l in range(NUM_LANDINGS):
        if cap[l] > 0:
            _backward(cost, l, D[l], queue, inq, cap)


@njit(cache=True)
def _worth(cost, terrain, ex_sq, carried, n_ex, F, D, cap, art, art_sq, n_art, hit, esc, budget, pool,
           plan_e, plan_t, plan_l, plan_score, path):
    """Total worth of the plans plus the pool that can be walked along them."""
    n_plans, total = _plans(ex_sq, carried, n_ex, F, D, cap, art, art_sq, n_art, hit, esc, budget,
                            plan_e, plan_t, plan_l, plan_score)
    if pool > 0:
        usable = 0
        for i in range(n_plans):
            e = plan_e[i]
            t = art_sq[plan_t[i]] if plan_t[i] >= 0 else -1
            w, _n, complete = _walkable(cost, terrain, F[e], D[plan_l[i]], ex_sq[e], t, path)
            usable += w
            if t >= 0 and complete:
                w2, _n, _c = _walkable(cost, terrain, F[e], D[plan_l[i]], t, -1, path)
                usable += w2
        total += MU_POOL * 2 * min(pool, usable)
    return total


@njit(cache=True)
def _read_occupied(obs, n_players, occupied):
    for k in range(n_players):
        for s in range(NUM_SQUARES):
            if obs[C.OBS_EXPLORERS + k * NUM_SQUARES + s] != 0:
                occupied[s] = True


@njit(cache=True)
def _read_artifacts(obs, art, art_sq):
    """Artifacts per colour and square; the squares holding any, listed in ``art_sq``: their count."""
    n_art = 0
    for s in range(NUM_SQUARES):
        any_art = False
        for c in range(NC):
            art[c, s] = obs[C.OBS_ARTIFACTS + c * NUM_SQUARES + s]
            if art[c, s] > 0:
                any_art = True
        if any_art:
            art_sq[n_art] = s
            n_art += 1
    return n_art


@njit(cache=True)
def _read_explorers(obs, n_players, ex_sq, carried):
    """Squares (-1: not on the island) and loads of one's explorers: how many explorers a player has."""
    n_ex = 5 if n_players == 2 else (4 if n_players == 3 else 3)
    for e in range(n_ex):
        base = C.OBS_OWN_EXPLORERS + e * C.EXPLORER_FEATURES
        if obs[base] != 0:
            ex_sq[e] = obs[base + 4] * 18 + obs[base + 3]
            for c in range(NC):
                carried[e, c] = obs[base + 5 + c]
    return n_ex


@njit(cache=True)
def _read_hand(obs, hand_pts, hand_sq):
    """Points and square kinds of the tiles in hand: how many tiles there are."""
    hand_n = 0
    for h in range(C.HAND_SLOTS):
        base = C.OBS_HANDS + h * C.HAND_FEATURES
        if obs[base] == 0:
            break
        hand_n += 1
        hand_pts[h] = obs[base + 1]
        for i in range(4):
            for k in range(3):
                if obs[base + 2 + 3 * i + k] != 0:
                    hand_sq[h, i] = k + 1   # jungle, water, mountain
    return hand_n


@njit(cache=True)
def _escape_prices(obs, cost, cap, n_players, queue, inq):
    """What standing on each square costs for the lava: its risk, or the walk to a safer square."""
    hit = np.zeros(NUM_SQUARES)
    strap = np.zeros(NUM_SQUARES)
    _lava_risk(obs, cost, cap, n_players, LAVA_SAMPLES, hit, strap)
    lava_left = 0
    for flow in range(NUM_LAVA_FLOWS):
        lava_left += obs[C.OBS_BAG + 3 + flow]
    esc = np.zeros(NUM_SQUARES)
    for s in range(NUM_SQUARES):
        trap = strap[s] + lava_left / 24.0 * RING_DANGER[FIELD_RING[SQUARE_FIELD[s]]]
        esc[s] = EXPLORER_WORTH * min(1.0, hit[s] + trap) + TRAP_PENALTY * min(1.0, trap)
    _escape(cost, esc, queue, inq)
    return hit, esc


@njit(cache=True)
def _place(obs, mask, noise, cost, terrain, ex_sq, carried, n_ex, F, D, cap, art, art_sq, n_art, hit, esc,
           budget, plan_e, plan_t, plan_l, plan_score, path, queue, inq):
    """The start square from which the plans are worth most, for the next explorer to place."""
    _maps(cost, ex_sq, n_ex, cap, F, D, queue, inq)
    e_new = -1
    for e in range(n_ex):
        if ex_sq[e] < 0 and obs[C.OBS_OWN_EXPLORERS + e * C.EXPLORER_FEATURES + 1] == 0 \
                and obs[C.OBS_OWN_EXPLORERS + e * C.EXPLORER_FEATURES + 2] == 0:
            e_new = e
            break
    best = -1e18
    best_a = -1
    for s in range(NUM_SQUARES):
        if mask[s] == 0:
            continue
        if e_new >= 0:
            ex_sq[e_new] = s
            _forward(cost, s, F[e_new], queue, inq)
        v = _worth(cost, terrain, ex_sq, carried, n_ex, F, D, cap, art, art_sq, n_art, hit, esc, budget,
                   0, plan_e, plan_t, plan_l, plan_score, path)
        v += noise[s]
        if v > best:
            best = v
            best_a = s
    return best_a


@njit(cache=True)
def _free_action(mask, art, ex_sq, carried, n_ex):
    """Picking up the best artifact on an explorer's square, or swapping a carried one for it (-1: none)."""
    for e in range(n_ex):
        s = ex_sq[e]
        if s < 0:
            continue
        c = _best_artifact(art, s)
        if c < 0:
            continue
        total = carried[e, 0] + carried[e, 1] + carried[e, 2]
        if total < 3:
            a = C.PICK_BASE + NC * e + c
            if mask[a] != 0:
                return a
        else:
            worst = -1
            for k in range(NC):
                if carried[e, k] > 0:
                    worst = k
                    break
            if worst >= 0 and worst < c:
                a = C.DROP_BASE + NC * e + worst
                if mask[a] != 0:
                    return a
    return -1


# Each _try_* step below rates one kind of action by how much it raises the worth of the plans over
# ``base_v`` and returns the better of its best and the ``best``/``best_a`` handed in.
@njit(cache=True)
def _try_boarding(mask, noise, best, best_a, base_v, cost, terrain, ex_sq, carried, n_ex, F, D, cap, art, art_sq,
                  n_art, hit, esc, budget, pool, plan_e, plan_t, plan_l, plan_score, path):
    for e in range(n_ex):
        s = ex_sq[e]
        if s < 0:
            continue
        l = SQUARE_LANDING[s]
        if l < 0:
            continue
        a = C.BOARD_BASE + NUM_LANDINGS * e + l
        if mask[a] == 0:
            continue
        gain = _boat_value(carried[e, 0], carried[e, 1], carried[e, 2], cap[l])
        ex_sq[e] = -1
        c_l = cap[l]
        cap[l] = 0
        v = gain + _worth(cost, terrain, ex_sq, carried, n_ex, F, D, cap, art, art_sq, n_art, hit, esc, budget,
                          pool - 1, plan_e, plan_t, plan_l, plan_score, path) - base_v
        cap[l] = c_l
        ex_sq[e] = s
        v += noise[a]
        if v > best:
            best = v
            best_a = a
    return best, best_a


@njit(cache=True)
def _try_moves(mask, noise, best, best_a, base_v, cost, terrain, ex_sq, carried, n_ex, F, D, cap, art, art_sq,
               n_art, hit, esc, budget, pool, plan_e, plan_t, plan_l, plan_score, path, queue, inq):
    Fe = np.empty(NUM_SQUARES, dtype=np.int64)
    for e in range(n_ex):
        s = ex_sq[e]
        if s < 0:
            continue
        Fe[:] = F[e]
        for d in range(4):
            a = C.MOVE_BASE + 4 * e + d
            if mask[a] == 0:
                continue
            y = SQUARE_NEIGHBOURS[s, d]
            step = 1 if terrain[y] == JUNGLE else 2
            ex_sq[e] = y
            _forward(cost, y, F[e], queue, inq)
            v = _worth(cost, terrain, ex_sq, carried, n_ex, F, D, cap, art, art_sq, n_art, hit, esc, budget,
                       pool - step, plan_e, plan_t, plan_l, plan_score, path) - base_v
            v += noise[a]
            if v > best:
                best = v
                best_a = a
        ex_sq[e] = s
        F[e, :] = Fe
    return best, best_a


@njit(cache=True)
def _try_spending(mask, noise, best, best_a, base_v, hand_n, hand_pts, cost, terrain, ex_sq, carried, n_ex, F, D,
                  cap, art, art_sq, n_art, hit, esc, budget, pool, plan_e, plan_t, plan_l, plan_score, path):
    for h in range(hand_n):
        a = C.SPEND_BASE + h
        if mask[a] == 0:
            continue
        v = _worth(cost, terrain, ex_sq, carried, n_ex, F, D, cap, art, art_sq, n_art, hit, esc, budget,
                   pool + hand_pts[h], plan_e, plan_t, plan_l, plan_score, path) - base_v
        v += noise[a]
        if v > best:
            best = v
            best_a = a
    return best, best_a


@njit(cache=True)
def _lay_fields(cost, terrain, ex_sq, carried, n_ex, F, D, cap, art, art_sq, n_art, hit, esc, budget,
                plan_e, plan_t, plan_l, plan_score, path, cand):
    """The bare fields the plans cross, then their bare neighbours, at most MAX_LAY_FIELDS, in ``cand``:
    their count."""
    _n_plans, _tot = _plans(ex_sq, carried, n_ex, F, D, cap, art, art_sq, n_art, hit, esc, budget,
                            plan_e, plan_t, plan_l, plan_score)
    field_mark = np.zeros(NUM_FIELDS, dtype=np.bool_)
    for i in range(_n_plans):
        e = plan_e[i]
        t = art_sq[plan_t[i]] if plan_t[i] >= 0 else -1
        for leg in range(2 if t >= 0 else 1):
            if leg == 0:
                _w, n, _c = _walkable(cost, terrain, F[e], D[plan_l[i]], ex_sq[e], t, path)
            else:
                _w, n, _c = _walkable(cost, terrain, F[e], D[plan_l[i]], t, -1, path)
            for j in range(n):
                if terrain[path[j]] == NO_TILE:
                    field_mark[SQUARE_FIELD[path[j]]] = True
    n_cand = 0
    for f in range(NUM_FIELDS):
        if field_mark[f] and n_cand < MAX_LAY_FIELDS:
            cand[n_cand] = f
            n_cand += 1
    for f in range(NUM_FIELDS):
        if not field_mark[f]:
            continue
        for d in range(4):
            g = FIELD_NEIGHBOURS[f, d]
            if g >= 0 and not field_mark[g] and IS_TILE_FIELD[g] and terrain[FIELD_SQUARES[g, 0]] == NO_TILE \
                    and n_cand < MAX_LAY_FIELDS:
                field_mark[g] = True
                cand[n_cand] = g
                n_cand += 1
    return n_cand


@njit(cache=True)
def _try_laying(mask, noise, best, best_a, base_v, hand_n, hand_sq, cand, n_cand, occupied, cost, terrain, ex_sq,
                carried, n_ex, F, D, cap, art, art_sq, n_art, hit, esc, budget, pool, plan_e, plan_t, plan_l,
                plan_score, path, queue, inq):
    old_t = np.zeros(4, dtype=np.int64)
    old_c = np.zeros(4, dtype=np.int64)
    turned = np.zeros(4)   # the worth of each rotation tried on the field, before its noise
    # F and D hold the maps of the board as it is (decide's, which the moves tried put back); each
    # tile tried changes them on four squares only
    F0 = F.copy()
    D0 = D.copy()
    cost0 = cost.copy()
    cleared = np.empty(NUM_SQUARES, dtype=np.int64)
    mark = np.zeros(NUM_SQUARES, dtype=np.bool_)
    for h in range(hand_n):
        # tiles of the same kind give the same result: skip repeats
        dup = False
        for h2 in range(h):
            same = True
            for i in range(4):
                if hand_sq[h2, i] != hand_sq[h, i]:
                    same = False
            if same:
                dup = True
        if dup:
            continue
        for ci in range(n_cand):
            f = cand[ci]
            for r in range(4):
                a = C.LAY_BASE + 4 * (NUM_FIELDS * h + f) + r
                if mask[a] == 0:
                    continue
                # a rotation that puts the same terrain on the same squares as one tried (a tile with
                # a symmetry) is worth exactly as much: only its noise differs
                same = -1
                for r2 in range(r):
                    if mask[a - r + r2] != 0 and same < 0:
                        same = r2
                        for i in range(4):
                            if hand_sq[h, TILE_ROTATION_SOURCE[r, i]] != hand_sq[h, TILE_ROTATION_SOURCE[r2, i]]:
                                same = -1
                if same >= 0:
                    turned[r] = turned[same]
                    v = turned[r] + noise[a]
                    if v > best:
                        best = v
                        best_a = a
                    continue
                for i in range(4):
                    sq = FIELD_SQUARES[f, i]
                    old_t[i] = terrain[sq]
                    old_c[i] = cost[sq]
                    kind = hand_sq[h, TILE_ROTATION_SOURCE[r, i]]
                    terrain[sq] = kind
                    c = COST_JUNGLE if kind == JUNGLE else (COST_WATER if kind == WATER else -1)
                    if c > 0 and occupied[sq]:
                        c += COST_OCCUPIED
                    cost[sq] = c
                changed = FIELD_SQUARES[f]
                for e in range(n_ex):
                    if ex_sq[e] >= 0:
                        F[e, :] = F0[e, :]
                        _forward_update(cost0, cost, ex_sq[e], F[e], changed, queue, inq, cleared, mark)
                for l in range(NUM_LANDINGS):
                    if cap[l] > 0:
                        D[l, :] = D0[l, :]
                        _backward_update(cost0, cost, l, D[l], changed, queue, inq, cleared, mark)
                v = _worth(cost, terrain, ex_sq, carried, n_ex, F, D, cap, art, art_sq, n_art, hit, esc, budget,
                           pool, plan_e, plan_t, plan_l, plan_score, path) - base_v
                for i in range(4):
                    sq = FIELD_SQUARES[f, i]
                    terrain[sq] = old_t[i]
                    cost[sq] = old_c[i]
                turned[r] = v
                v += noise[a]
                if v > best:
                    best = v
                    best_a = a
    return best, best_a


@njit(cache=True)
def decide(obs, mask, noise, n_players, seed):
    # the position, as the observation shows it
    terrain = np.zeros(NUM_SQUARES, dtype=np.int64)
    _terrain(obs, terrain)
    occupied = np.zeros(NUM_SQUARES, dtype=np.bool_)
    _read_occupied(obs, n_players, occupied)
    cost = np.zeros(NUM_SQUARES, dtype=np.int64)
    _cost(terrain, occupied, cost)
    art = np.zeros((NC, NUM_SQUARES), dtype=np.int64)
    art_sq = np.zeros(NUM_SQUARES, dtype=np.int64)
    n_art = _read_artifacts(obs, art, art_sq)
    cap = np.zeros(NUM_LANDINGS, dtype=np.int64)
    for l in range(NUM_LANDINGS):
        cap[l] = obs[C.OBS_LANDINGS + l]
    ex_sq = np.full(MAX_E, -1, dtype=np.int64)
    carried = np.zeros((MAX_E, NC), dtype=np.int64)
    n_ex = _read_explorers(obs, n_players, ex_sq, carried)
    pool = obs[C.OBS_POOL]
    hand_pts = np.zeros(C.HAND_SLOTS, dtype=np.int64)
    hand_sq = np.zeros((C.HAND_SLOTS, 4), dtype=np.int64)
    hand_n = _read_hand(obs, hand_pts, hand_sq)
    queue = np.zeros(NUM_SQUARES, dtype=np.int64)
    inq = np.zeros(NUM_SQUARES, dtype=np.bool_)
    np.random.seed(seed)
    hit, esc = _escape_prices(obs, cost, cap, n_players, queue, inq)
    budget = INF
    if obs[C.OBS_END_TRIGGERED] != 0:
        budget = 2 * pool
        for h in range(hand_n):
            budget += 2 * hand_pts[h]

    F = np.full((MAX_E, NUM_SQUARES), INF, dtype=np.int64)
    D = np.full((NUM_LANDINGS, NUM_SQUARES), INF, dtype=np.int64)
    plan_e = np.zeros(MAX_E, dtype=np.int64)
    plan_t = np.zeros(MAX_E, dtype=np.int64)
    plan_l = np.zeros(MAX_E, dtype=np.int64)
    plan_score = np.zeros(MAX_E)
    path = np.zeros(NUM_SQUARES, dtype=np.int64)

    if obs[C.OBS_PHASE + C.PHASE_PLACEMENT] != 0:
        return _place(obs, mask, noise, cost, terrain, ex_sq, carried, n_ex, F, D, cap, art, art_sq, n_art, hit,
                      esc, budget, plan_e, plan_t, plan_l, plan_score, path, queue, inq)

    # a turn: free actions first
    a = _free_action(mask, art, ex_sq, carried, n_ex)
    if a >= 0:
        return a

    _maps(cost, ex_sq, n_ex, cap, F, D, queue, inq)
    base_v = _worth(cost, terrain, ex_sq, carried, n_ex, F, D, cap, art, art_sq, n_art, hit, esc, budget,
                    pool, plan_e, plan_t, plan_l, plan_score, path)
    best = -1e18
    best_a = -1
    if mask[C.END_TURN] != 0:
        best = 0.0 + noise[C.END_TURN]
        best_a = C.END_TURN
    best, best_a = _try_boarding(mask, noise, best, best_a, base_v, cost, terrain, ex_sq, carried, n_ex, F, D, cap,
                                 art, art_sq, n_art, hit, esc, budget, pool, plan_e, plan_t, plan_l, plan_score,
                                 path)
    best, best_a = _try_moves(mask, noise, best, best_a, base_v, cost, terrain, ex_sq, carried, n_ex, F, D, cap,
                              art, art_sq, n_art, hit, esc, budget, pool, plan_e, plan_t, plan_l, plan_score, path,
                              queue, inq)
    if hand_n == 0:
        return best_a
    best, best_a = _try_spending(mask, noise, best, best_a, base_v, hand_n, hand_pts, cost, terrain, ex_sq, carried,
                                 n_ex, F, D, cap, art, art_sq, n_art, hit, esc, budget, pool, plan_e, plan_t,
                                 plan_l, plan_score, path)
    cand = np.zeros(NUM_FIELDS, dtype=np.int64)
    n_cand = _lay_fields(cost, terrain, ex_sq, carried, n_ex, F, D, cap, art, art_sq, n_art, hit, esc, budget,
                         plan_e, plan_t, plan_l, plan_score, path, cand)
    best, best_a = _try_laying(mask, noise, best, best_a, base_v, hand_n, hand_sq, cand, n_cand, occupied, cost,
                               terrain, ex_sq, carried, n_ex, F, D, cap, art, art_sq, n_art, hit, esc, budget, pool,
                               plan_e, plan_t, plan_l, plan_score, path, queue, inq)
    return best_a


# ---------------------------------------------------------------------------------------------------
# What ``decide`` takes from the observation as an index or a count of steps, in the ranges the
# environment writes: other values (an observation no environment wrote) made the kernels above read
# and write past their arrays, which Numba does not check, and crashed the interpreter.
LAVA_TILES_PER_FLOW = int(np.bincount(LAVA_TILE_FLOW, minlength=NUM_LAVA_FLOWS).max())


def check_observation(obs, num_players):
    """Raise ObservationError (a ValueError) unless the parts of ``obs`` that ``decide`` counts with
    are in range."""
    n_ex = EXPLORERS_PER_PLAYER[num_players]
    explorers = obs[C.OBS_OWN_EXPLORERS:C.OBS_OWN_EXPLORERS + n_ex * C.EXPLORER_FEATURES].reshape(n_ex, -1)
    on_island = explorers[:, 0] != 0
    squares = explorers[on_island][:, 3:5]
    if squares.size and not ((0 <= squares) & (squares < SQUARES_PER_SIDE)).all():
        raise ObservationError(f"observation: an explorer on the island stands at column and row from 0 "
                               f"to {SQUARES_PER_SIDE - 1}, got {squares.tolist()}")
    terrain_tiles = obs[C.OBS_BAG:C.OBS_BAG + 3]
    lava_tiles = obs[C.OBS_BAG + 3:C.OBS_BAG + 3 + NUM_LAVA_FLOWS]
    if (terrain_tiles < 0).any() or not ((0 <= lava_tiles) & (lava_tiles <= LAVA_TILES_PER_FLOW)).all():
        raise ObservationError(f"observation: the bag holds at least 0 terrain tiles of each worth and 0 "
                               f"to {LAVA_TILES_PER_FLOW} lava tiles of each flow, got {terrain_tiles.tolist()} "
                               f"and {lava_tiles.tolist()}")
    lengths = obs[C.OBS_LAVA + 1:C.OBS_LAVA + 6 * 2 * NUM_LAVA_FLOWS:6].reshape(NUM_LAVA_FLOWS, 2)
    laid = LAVA_TILES_PER_FLOW - lava_tiles.astype(np.int64)
    if (lengths < 0).any() or (lengths.sum(axis=1) > laid).any():
        raise ObservationError(f"observation: a flow's branches are together no longer than its lava tiles "
                               f"laid, {laid.tolist()}, got {lengths.tolist()}")


def act(obs, mask, noise, num_players, seed=0):
    check_observation(obs, num_players)
    return int(decide(obs, mask, noise, num_players, seed))
