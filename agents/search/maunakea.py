"""Mauna Kea pieces of the MCTS agent (see ``agents.search.makabana`` for the roles of each function).

Hidden information in Mauna Kea (``maunakea_env/core.py``): "Everything in Mauna Kea is public (hands
lie face up, the bag can be counted) except the order of the tiles in the bag".  The core draws every
tile as the ``draw(b)``-th of the ``b`` tiles in the bag with the generator in the row, so the bag's
order *is* the generator's state: determinization reseeds it, which shuffles the unseen tiles afresh
(future draws, hence future lava, are sampled anew in every simulation).  The rules for advanced
players add the cards: everybody sees how many cards each player holds and the action cards played,
not which cards the others hold, so determinization deals the others' hands afresh from the cards the
searching player cannot account for; the search plays the cards (action cards, earthquakes) in the
tree, while the rollout policy plays none and takes the card decisions at random.

Random play means nothing here (a random turn lays tiles anywhere and rarely reaches a boat), so the
search plays the rest of the current turn with a greedy rollout policy and evaluates the position
with ``_values``: the points already scored plus, for every explorer still on the island, what
boarding the best boat it can reach would score, discounted by the length of the walk (shortest
paths over the squares: jungle 1, water 2, an empty tile space 2.5, since a tile must be laid there
first).  The discount is a factor, ``exp(-walk / DECAY)``, like a chance of getting there: an
explorer is never worth less than nothing, however far, and one lost to lava or left without a boat
is worth exactly nothing, which is what it scores.  (A price per point of walk instead, with a
penalty for explorers without a boat, made that penalty decide the search: with 10 explorers and 8
boats somebody always lacks one, and tiles laid to push an opponent's explorer out of the matching
counted for more than walking to the boats.)
"""
import numpy as np
from numba import njit, prange

from maunakea_env import kernels as core
from maunakea_env.board import (
    CARD_KIND_COPIES, FIRST_ACTION_KIND, NUM_CARD_KINDS,
    FIELD_NEIGHBOURS, FIRST_LAVA_TILE, LAVA_TILE_FLOW, NUM_LAVA_FLOWS, ARTIFACT_POINTS, BOAT_CAPACITY, BOARDING_COST, EMPTY_PLACE_POINTS, EXPLORER_POINTS, FIELD_SQUARES,
    IS_TILE_FIELD, JUNGLE, LANDING_ENTRY_SQUARES, MAX_CARRIED, MOVE_COST, NO_TILE, NUM_FIELDS,
    NUM_LANDINGS, NUM_SQUARES, SQUARE_FIELD, SQUARE_LANDING, SQUARE_NEIGHBOURS, TERRAIN_TILE_POINTS,
    TERRAIN_TILE_SQUARES, TILE_ROTATION_SOURCE, WATER,
)
from pacific_common.rng import draw, seed_rng

from .common import FNV_OFFSET, fnv_mix


INF = 1 << 20
QUEUE = NUM_SQUARES + 1   # circular queue of the shortest-path searches
DECAY = 60.0           # half points of walk over which a plan's worth falls by a factor e
STEP_PRICE = 4.0 / DECAY   # what a half point of walk is worth to a typical plan (4 points) at the start
POINTS_WORTH = 0.9     # movement points in hand or in the pool, as a share of walked ones
DRAWS_PER_TURN = 2.5   # tiles a player draws in a turn, about (the lava danger's horizon)
POINTS_PER_TURN = 5.0  # movement points a player has in a turn, about (the race to the end)
RACE_SOFTNESS = 3.0    # points over which an explorer's chance to get home before the end fades
EMPTY_FIELD_COST = 5   # half points charged for a square of an empty tile space (a tile must be laid)
OCCUPIED_EXTRA = 2     # extra half points for a square another explorer stands on
PRIOR_SEED = 0x5EED    # the root prior's determinization


@njit(cache=True)
def num_actions(state):
    return core.NUM_ACTIONS_ADVANCED if state[core.VARIANT] == core.VARIANT_ADVANCED else core.NUM_ACTIONS


@njit(cache=True)
def determinize(state, player, seed, belief):
    """Reseed the generator (the bag's order); in the advanced game also deal the other players' hidden
    cards afresh: each keeps its number of cards, drawn from the cards the searching player cannot
    account for (all 30 less its own hand, the cards it removed at set-up and every action card
    played).  What the others removed is hidden, so it is left unnamed, and a player half-way through
    the set-up's removals may then remove any kind (its first removal, which fixed the order, is
    hidden too)."""
    state[core.RNG] = seed_rng(seed)
    if state[core.VARIANT] != core.VARIANT_ADVANCED:
        return
    pool = CARD_KIND_COPIES.copy()
    n = state[core.NUM_PLAYERS]
    for k in range(NUM_CARD_KINDS):
        pool[k] -= state[core.CARDS + player * NUM_CARD_KINDS + k]
        pool[k] -= state[core.REMOVED_CARDS + player * NUM_CARD_KINDS + k]
    for i in range(n):
        for k in range(core.NUM_ACTION_KINDS):
            pool[FIRST_ACTION_KIND + k] -= state[core.PLAYED + i * core.NUM_ACTION_KINDS + k]
    left = 0
    for k in range(NUM_CARD_KINDS):
        left += pool[k]
    for i in range(n):
        if i == player:
            continue
        held = 0
        for k in range(NUM_CARD_KINDS):
            held += state[core.CARDS + i * NUM_CARD_KINDS + k]
            state[core.CARDS + i * NUM_CARD_KINDS + k] = 0
            state[core.REMOVED_CARDS + i * NUM_CARD_KINDS + k] = 0
        for _ in range(held):
            r = draw(state, core.RNG, left)
            k = 0
            while r >= pool[k]:
                r -= pool[k]
                k += 1
            pool[k] -= 1
            left -= 1
            state[core.CARDS + i * NUM_CARD_KINDS + k] += 1
        state[core.REMOVE_FROM + i] = 0


@njit(cache=True)
def search_mask(state, mask):
    """The legal actions the search considers: all but the pointless free ones.  A pick-up takes the
    most valuable colour lying on the square, and a drop only makes room in a full explorer's hands
    for a more valuable artifact lying there: boarding loads the most valuable artifacts first anyway,
    and every other pick-up or drop only wastes free actions and splits the tree's visits between
    moves that change nothing."""
    core.legal_action_mask(state, mask)
    if state[core.STATUS] != core.STATUS_RUNNING or state[core.PHASE] != core.PHASE_TURN:
        return
    player = state[core.TO_ACT]
    for e in range(state[core.EXPLORERS_EACH]):
        x = core.explorer_index(player, e)
        if state[core.EXPLORER_STATUS + x] != core.ON_ISLAND:
            continue
        best_here = _best_artifact(state, state[core.EXPLORER_SQUARE + x])
        lowest_carried = 0
        while lowest_carried < core.NUM_COLOURS and \
                state[core.CARRIED + x * core.NUM_COLOURS + lowest_carried] == 0:
            lowest_carried += 1
        full = core.carried_total(state, player, e) >= MAX_CARRIED
        for c in range(core.NUM_COLOURS):
            if c != best_here:
                mask[core.PICK_BASE + core.NUM_COLOURS * e + c] = 0
            if not (full and c == lowest_carried and c < best_here):
                mask[core.DROP_BASE + core.NUM_COLOURS * e + c] = 0


@njit(cache=True)
def _best_artifact(state, sq):
    """The most valuable colour of the artifacts lying on square ``sq``, -1 if none."""
    best = core.NUM_COLOURS - 1
    while best >= 0 and state[core.ARTIFACTS + sq * core.NUM_COLOURS + best] == 0:
        best -= 1
    return best


@njit(cache=True)
def observed_key(state, action, viewer):
    """Every move is public but another player's removal of a dealt card (advanced set-up)."""
    if core.REMOVE_CARD_BASE <= action < core.CARD_MOVE_BASE and core.player_to_act(state) != viewer:
        return core.REMOVE_CARD_BASE
    return action


@njit(cache=True)
def marker(state):
    return state[core.TURN]


@njit(cache=True)
def event_key(state, before, viewer):
    """After a turn ends everybody sees the tiles drawn and the lava placed: the key is a hash of
    where every island tile now is (bag, hand slot, board, removed)."""
    if state[core.TURN] == before:
        return -1
    h = FNV_OFFSET
    for t in range(core.NUM_ISLAND_TILES):
        h = fnv_mix(h, state[core.TILE_WHERE + t])
    for i in range(core.MAX_PLAYERS * core.HAND_SLOTS):
        h = fnv_mix(h, state[core.HAND + i] + 1)
    return h & 0xFFFFFFFFFFFF


# ---------------------------------------------------------------------------------------------------
# Shortest paths
# the half points to enter a square by its terrain (no tile: by the field, below), and whether a
# square lies on a tile space: tables, as the branches on the terrain cost more than the lookups
_TERRAIN_ENTER = np.array([2 * MOVE_COST[t] if MOVE_COST[t] >= 0 else -1 for t in range(len(MOVE_COST))],
                          dtype=np.int64)
_ON_TILE_SPACE = IS_TILE_FIELD[SQUARE_FIELD]


@njit(cache=True, inline="always")
def _enter_cost(state, sq):
    """Half movement points to step onto square ``sq``, -1 where no explorer can ever go: the
    terrain's cost, ``EMPTY_FIELD_COST`` on an empty tile space, ``OCCUPIED_EXTRA`` more where an
    explorer stands."""
    terrain = state[core.TERRAIN + sq]
    empty_space = np.int64(_ON_TILE_SPACE[sq]) & np.int64(state[core.FIELD_TILE + SQUARE_FIELD[sq]] < 0)
    c = np.int64(terrain == NO_TILE) * (empty_space * (EMPTY_FIELD_COST + 1) - 1 - _TERRAIN_ENTER[terrain]) + \
        _TERRAIN_ENTER[terrain]
    return c + OCCUPIED_EXTRA * (np.int64(c > 0) & np.int64(state[core.OCCUPANT + sq] >= 0))


@njit(cache=True)
def _enter_costs(state, costs):
    """``_enter_cost`` of every square."""
    for sq in range(NUM_SQUARES):
        costs[sq] = _enter_cost(state, sq)


@njit(cache=True)
def _spread(costs, dist, queue, inq, tail, label):
    """Complete a multi-source shortest-path search whose sources are already queued (from 0 to
    ``tail``): a FIFO label-correcting search, near-linear on this grid with its small integer
    costs.  ``dist[u]``: the movement points from u to the nearest source, counting the cost of
    every square entered on the way (the sources' own starting values included).  ``queue`` is
    circular, of ``QUEUE`` entries (a square is queued at most once at a time).  ``label[u]`` gets
    the label of the source u's path comes from."""
    head = 0
    while head != tail:
        u = queue[head]
        head += 1
        if head == QUEUE:
            head = 0
        inq[u] = False
        # walking v -> u costs costs[u] going forwards; here we go backwards from the sources
        step = costs[u]
        if step < 0:
            continue
        nd = dist[u] + step
        for k in range(4):
            v = SQUARE_NEIGHBOURS[u, k]
            if v < 0 or costs[v] < 0 or nd >= dist[v]:
                continue
            dist[v] = nd
            label[v] = label[u]
            if not inq[v]:
                inq[v] = True
                queue[tail] = v
                tail += 1
                if tail == QUEUE:
                    tail = 0


@njit(cache=True)
def _landing_distances(state, costs, landing, dist, queue, inq, label):
    """dist[u]: movement points from u to board the boat waiting at ``landing``, boarding included;
    INF everywhere if no boat waits there or none of its entry squares can be reached."""
    dist[:] = INF
    if state[core.LANDING_BOAT + landing] < 0:
        return
    inq[:] = False
    tail = 0
    for i in range(4):
        sq = LANDING_ENTRY_SQUARES[landing, i]
        if costs[sq] >= 0 and not inq[sq]:
            dist[sq] = 2 * BOARDING_COST
            inq[sq] = True
            queue[tail] = sq
            tail += 1
    _spread(costs, dist, queue, inq, tail, label)


@njit(cache=True)
def _artifact_distances(state, costs, dist, queue, inq, label):
    """dist[u]: half points from u to the nearest square with an artifact lying there; label[u]:
    that square."""
    dist[:] = INF
    inq[:] = False
    tail = 0
    for sq in range(NUM_SQUARES):
        base = core.ARTIFACTS + sq * core.NUM_COLOURS
        if state[base] + state[base + 1] + state[base + 2] > 0 and costs[sq] >= 0:
            dist[sq] = 0
            label[sq] = sq
            inq[sq] = True
            queue[tail] = sq
            tail += 1
    _spread(costs, dist, queue, inq, tail, label)


ARTIFACT_FIELD = 1 + NUM_LANDINGS
NEAREST_ARTIFACT = 2 + NUM_LANDINGS
SCRATCH = 3 + NUM_LANDINGS
NUM_FIELDS_KEPT = 4 + NUM_LANDINGS


@njit(cache=True)
def _fields(state, fields, queue, inq):
    """fields[0]: enter costs (half points); fields[1 + l]: half points to board the boat at landing
    l; fields[ARTIFACT_FIELD]: half points to the nearest artifact, fields[NEAREST_ARTIFACT]: its
    square."""
    _enter_costs(state, fields[0])
    for landing in range(NUM_LANDINGS):
        _landing_distances(state, fields[0], landing, fields[1 + landing], queue, inq, fields[SCRATCH])
    _artifact_distances(state, fields[0], fields[ARTIFACT_FIELD], queue, inq, fields[NEAREST_ARTIFACT])


@njit(cache=True)
def _repair_landing(costs, old_costs, squares, dist, queue, inq, lost, stack, label):
    """Turn ``dist``, the exact ``_landing_distances`` of a landing under ``old_costs``, into the
    exact ones under ``costs``, where only the ``squares`` may differ and none that was a wall (-1)
    has become walkable.  The squares one of whose shortest paths enters a square now dearer (or
    now a wall) lose their distance; the search then starts again from their neighbours that kept
    theirs and from the squares now cheaper.  Every distance
    kept is that of a path the new costs do not make dearer, so the label-correcting search
    (``_spread``) ends on the distances a search from scratch finds.  ``lost`` (bool per square, all
    False, and left so) and ``stack`` (``2 * NUM_SQUARES + 4`` entries) are work arrays, ``inq`` all
    False as ``_spread`` leaves it; ``label`` means nothing afterwards (no reader of the landings'
    distances uses it)."""
    top = 0
    for i in range(squares.shape[0]):
        w = squares[i]
        if costs[w] < 0 <= old_costs[w] and dist[w] < INF:
            lost[w] = True          # a wall now: no distance, and none through it
            stack[top] = w
            top += 1
        elif costs[w] > old_costs[w]:
            stack[top] = w          # dearer to enter: the paths through it lose their distance
            top += 1
    # every square whose distance came through a lost or dearer one (it equals theirs plus the old
    # price of entering it) is lost too; the lost squares are listed from the end of ``stack`` down
    bottom = stack.shape[0]
    for i in range(top):
        if lost[stack[i]]:
            bottom -= 1
            stack[bottom] = stack[i]
    while top > 0:
        top -= 1
        u = stack[top]
        if dist[u] >= INF or old_costs[u] < 0:
            continue
        nd = dist[u] + old_costs[u]
        for k in range(4):
            v = SQUARE_NEIGHBOURS[u, k]
            if v >= 0 and not lost[v] and dist[v] == nd:
                lost[v] = True
                stack[top] = v
                top += 1
                bottom -= 1
                stack[bottom] = v
    for i in range(bottom, stack.shape[0]):
        dist[stack[i]] = INF
    tail = 0
    # (no entry of the landing is ever lost but as a wall: its distance is the boarding alone, less
    # than any path through another square, so none came through a dearer one)
    for i in range(bottom, stack.shape[0]):
        v = stack[i]
        if costs[v] < 0:
            continue
        for k in range(4):
            u = SQUARE_NEIGHBOURS[v, k]
            if u >= 0 and not lost[u] and costs[u] >= 0 and dist[u] < INF and not inq[u]:
                inq[u] = True
                queue[tail] = u
                tail += 1
    for i in range(bottom, stack.shape[0]):
        lost[stack[i]] = False
    for i in range(squares.shape[0]):
        d = squares[i]
        if 0 <= costs[d] < old_costs[d] and dist[d] < INF and not inq[d]:
            inq[d] = True
            queue[tail] = d
            tail += 1
    _spread(costs, dist, queue, inq, tail, label)


@njit(cache=True)
def _fields_after_lay(state, f, before, fields, queue, inq, lost, stack):
    """``_fields`` of ``state``, a position one tile laid on field ``f`` after the position whose
    costs and landings' distances are ``before`` (``_fields``' first ``1 + NUM_LANDINGS`` rows;
    nothing else that the fields read has changed), the same arrays that
    ``_fields`` computes: each landing's distances are repaired (``_repair_landing``) rather than
    searched again, as a tile changes the costs of four squares and most distances not at all.  The
    nearest artifacts are searched again, so that among equally near ones the same is found."""
    costs = fields[0]
    costs[:] = before[0]
    squares = FIELD_SQUARES[f]
    opened = False
    for i in range(4):
        costs[squares[i]] = _enter_cost(state, squares[i])
        opened |= before[0, squares[i]] < 0 <= costs[squares[i]]
    for landing in range(NUM_LANDINGS):
        dist = fields[1 + landing]
        if opened:   # never after a lay (a tile space's squares were walkable before), but exact
            _landing_distances(state, costs, landing, dist, queue, inq, fields[SCRATCH])
        elif state[core.LANDING_BOAT + landing] < 0:
            dist[:] = INF
        else:
            dist[:] = before[1 + landing]
            _repair_landing(costs, before[0], squares, dist, queue, inq, lost, stack, fields[SCRATCH])
    _artifact_distances(state, costs, fields[ARTIFACT_FIELD], queue, inq, fields[NEAREST_ARTIFACT])


@njit(cache=True)
def _lava_danger(state, danger):
    """danger[f]: the chance that field f is covered by lava before the player to act's next turn:
    every flow's next lava tile covers the field ahead of the branch it extends (tunnelling under
    lava, as the core places it), and a flow erupts in a round of about ``DRAWS_PER_TURN`` draws per
    player with the chance its tiles make up of the bag."""
    danger[:] = 0.0
    bag = 0
    for t in range(core.NUM_ISLAND_TILES):
        if state[core.TILE_WHERE + t] == core.IN_BAG:
            bag += 1
    if bag == 0:
        return
    draws = DRAWS_PER_TURN * state[core.NUM_PLAYERS]
    for flow in range(NUM_LAVA_FLOWS):
        tiles = 0
        for i in range(LAVA_TILE_FLOW.shape[0]):
            if LAVA_TILE_FLOW[i] == flow and state[core.TILE_WHERE + FIRST_LAVA_TILE + i] == core.IN_BAG:
                tiles += 1
        if tiles == 0:
            continue
        branch = -1
        for b in range(2):
            k = 2 * flow + b
            if state[core.BRANCH_OPEN + k] == 1:
                if branch < 0 or state[core.BRANCH_LENGTH + k] < state[core.BRANCH_LENGTH + 2 * flow + branch]:
                    branch = b
        if branch < 0:
            continue
        k = 2 * flow + branch
        direction = state[core.BRANCH_DIRECTION + k]
        target = FIELD_NEIGHBOURS[state[core.BRANCH_FIELD + k], direction]
        while target >= 0 and core.field_is_lava(state, target):
            target = FIELD_NEIGHBOURS[target, direction]
        if target >= 0:
            danger[target] += 1.0 - (1.0 - tiles / bag) ** draws


# ---------------------------------------------------------------------------------------------------
# Evaluation
@njit(cache=True)
def _load_value(state, x, places):
    """Points of a boat with ``places`` artifact places boarded by explorer index ``x``: the
    explorer, its most valuable artifacts that fit, -1 per empty place."""
    v = EXPLORER_POINTS
    left = places
    for c in range(core.NUM_COLOURS - 1, -1, -1):
        n = min(state[core.CARRIED + x * core.NUM_COLOURS + c], left)
        v += ARTIFACT_POINTS[c + 1] * n
        left -= n
    return v + EMPTY_PLACE_POINTS * left


@njit(cache=True)
def _plan_value(state, x, sq, fields, landing):
    """What explorer index ``x`` standing on ``sq`` scores by boarding the boat at ``landing``,
    discounted by ``exp(-walk / DECAY)`` (the walk in half points): straight there, or through
    the nearest artifact square (picking up its best artifact) if that is worth more."""
    places = BOAT_CAPACITY[state[core.LANDING_BOAT + landing]]
    v = _load_value(state, x, places) * np.exp(-fields[1 + landing, sq] / DECAY)
    d = fields[ARTIFACT_FIELD, sq]
    if d < INF:
        a = fields[NEAREST_ARTIFACT, sq]
        carried = 0
        for c in range(core.NUM_COLOURS):
            carried += state[core.CARRIED + x * core.NUM_COLOURS + c]
        if carried < MAX_CARRIED and fields[1 + landing, a] < INF:
            best = _best_artifact(state, a)
            state[core.CARRIED + x * core.NUM_COLOURS + best] += 1
            via = _load_value(state, x, places) * np.exp(-(d + fields[1 + landing, a]) / DECAY)
            state[core.CARRIED + x * core.NUM_COLOURS + best] -= 1
            v = max(v, via)
    return v


@njit(cache=True)
def _explorer_value(state, x, sq, fields, landing, danger):
    """What explorer index ``x`` standing on ``sq`` is expected to score when it heads for the boat
    at ``landing`` (``_plan_value``; an explorer without a boat is worth nothing); with the chance
    ``danger`` of its field it is lost to lava instead."""
    v = _plan_value(state, x, sq, fields, landing) if landing >= 0 else 0.0
    risk = danger[SQUARE_FIELD[sq]]
    return (1.0 - risk) * v


@njit(cache=True)
def _assign(state, fields, assigned):
    """assigned[x]: the landing whose boat explorer index ``x`` heads for, -1 if none.  Each player's
    explorers share the boats out among themselves, greedily, best (explorer, boat) value first,
    one explorer to a boat.  Every player counts on every waiting boat: a boat the others take
    first is gone when they board it, which the search sees; sharing the boats out between the
    players instead would hand a boat from one player to another at every small change (the
    greedy matching is not monotonic), and the search would chase those jumps."""
    p = state[core.NUM_PLAYERS]
    explorers = state[core.EXPLORERS_EACH]
    assigned[:] = -1
    # the value of every (explorer, boat) pair, once: the greedy rounds below compare them again
    plan = np.empty((explorers, NUM_LANDINGS))
    for i in range(p):
        for e in range(explorers):
            x = core.explorer_index(i, e)
            if state[core.EXPLORER_STATUS + x] != core.ON_ISLAND:
                continue
            sq = state[core.EXPLORER_SQUARE + x]
            for landing in range(NUM_LANDINGS):
                if state[core.LANDING_BOAT + landing] >= 0 and fields[1 + landing, sq] < INF:
                    plan[e, landing] = _plan_value(state, x, sq, fields, landing)
        taken = 0
        while True:
            best = -1e300
            bx = -1
            bl = -1
            for e in range(explorers):
                x = core.explorer_index(i, e)
                if state[core.EXPLORER_STATUS + x] != core.ON_ISLAND or assigned[x] >= 0:
                    continue
                sq = state[core.EXPLORER_SQUARE + x]
                for landing in range(NUM_LANDINGS):
                    boat = state[core.LANDING_BOAT + landing]
                    if boat < 0 or (taken >> landing) & 1 or fields[1 + landing, sq] >= INF:
                        continue
                    v = plan[e, landing]
                    if v > best:
                        best = v
                        bx = x
                        bl = landing
            if bx < 0:
                break
            assigned[bx] = bl
            taken |= 1 << bl


@njit(cache=True)
def _values(state, out, fields, queue, inq, assigned, danger, count_turn):
    """Points scored plus what every explorer still on the island is expected to add (``_assign``,
    ``_explorer_value``), plus (``count_turn``) the movement points the player to act still has
    this turn (hand and pool), each worth ``POINTS_WORTH`` of a point walked (they are lost at the
    end of the turn; the next hand comes whatever the turn was, so it is never counted).

    The race: the game ends soon after a player has no explorer left on the island.  Each player
    is taken to walk its explorers to their boats nearest first, ``POINTS_PER_TURN`` a turn; the
    player needing the fewest points for all of its explorers ends the game, and the others get as
    many points (plus one more turn).  An explorer its player cannot bring home by then is likely
    left behind (worth nothing), with a logistic chance over ``RACE_SOFTNESS`` points."""
    _fields(state, fields, queue, inq)
    _values_from_fields(state, out, fields, assigned, danger, count_turn)


@njit(cache=True)
def _values_from_fields(state, out, fields, assigned, danger, count_turn):
    """``_values`` with the distance fields of ``state`` already in ``fields``."""
    p = state[core.NUM_PLAYERS]
    explorers = state[core.EXPLORERS_EACH]
    _assign(state, fields, assigned)
    _lava_danger(state, danger)
    need = np.zeros(core.MAX_PLAYERS, dtype=np.float64)
    finish = 1e300
    if state[core.STATUS] == core.STATUS_RUNNING:
        for i in range(p):
            for e in range(explorers):
                x = core.explorer_index(i, e)
                if state[core.EXPLORER_STATUS + x] != core.ON_ISLAND:
                    continue
                if assigned[x] < 0:
                    need[i] = 1e300
                    break
                need[i] += 0.5 * fields[1 + assigned[x], state[core.EXPLORER_SQUARE + x]]
            finish = min(finish, need[i])
    order = np.empty(core.MAX_EXPLORERS, dtype=np.int64)
    for i in range(p):
        out[i] = core.score(state, i)
        if state[core.STATUS] != core.STATUS_RUNNING:
            continue
        if count_turn and i == state[core.TO_ACT] and state[core.PHASE] == core.PHASE_TURN:
            out[i] += POINTS_WORTH * 2 * STEP_PRICE * (core.hand_points(state, i) + state[core.POOL])
        # this player's explorers with a boat, nearest first (the others are worth nothing)
        n = 0
        for e in range(explorers):
            x = core.explorer_index(i, e)
            if state[core.EXPLORER_STATUS + x] != core.ON_ISLAND or assigned[x] < 0:
                continue
            d = fields[1 + assigned[x], state[core.EXPLORER_SQUARE + x]]
            j = n
            while j > 0 and fields[1 + assigned[order[j - 1]], state[core.EXPLORER_SQUARE + order[j - 1]]] > d:
                order[j] = order[j - 1]
                j -= 1
            order[j] = x
            n += 1
        budget = 1e300 if finish >= 1e299 or need[i] <= finish else finish + POINTS_PER_TURN
        walked = 0.0
        for j in range(n):
            x = order[j]
            sq = state[core.EXPLORER_SQUARE + x]
            v = _explorer_value(state, x, sq, fields, assigned[x], danger)
            walked += 0.5 * fields[1 + assigned[x], sq]
            if budget < 1e299:
                home = 1.0 / (1.0 + np.exp((walked - budget) / RACE_SOFTNESS))
                v *= home
            out[i] += v


@njit(cache=True)
def _buffers():
    """Work arrays of the evaluation: the distance fields, a circular queue, in-queue flags, the
    boat assignment of every explorer."""
    return (np.empty((NUM_FIELDS_KEPT, NUM_SQUARES), dtype=np.int64), np.empty(QUEUE, dtype=np.int64),
            np.empty(NUM_SQUARES, dtype=np.bool_), np.empty(core.MAX_PLAYERS * core.MAX_EXPLORERS, dtype=np.int64),
            np.empty(NUM_FIELDS, dtype=np.float64))


@njit(cache=True)
def evaluate(state, out):
    """Points per player for the value (``agents.search.common.margin_values``): ``_values`` while the
    game runs (as at the end of a turn: points left in hand or pool are not counted), the final scores at the end (Mauna Kea's tie-breaks counting a fraction of a point;
    a truncated game is judged on its points too, as ``agents.arena.match`` adjudicates it).  Never a
    result worth 0 to everybody, so always False."""
    p = state[core.NUM_PLAYERS]
    if state[core.STATUS] != core.STATUS_RUNNING:
        for i in range(p):
            out[i] = core.standing(state, i) / 4096.0
        return False
    fields, queue, inq, assigned, danger = _buffers()
    _values(state, out, fields, queue, inq, assigned, danger, False)
    return False


@njit(cache=True)
def _one_step(state, player, mask, margin):
    """For every legal action, on one fixed determinization (a function of what ``player`` knows:
    the root row holds the bag's order and the other players' cards): the ``_values`` margin after
    the action (ending the turn on one sample of its draws) into ``margin``; returns, per action,
    the change in the player's own value and in the best other player's, the rollout policy's
    choice (-1 if the mask does not offer it), whether each action lays a tile on a field next to
    none of the player's explorers, and the best margin."""
    p = state[core.NUM_PLAYERS]
    n = mask.shape[0]
    own = np.zeros(n)
    other = np.zeros(n)
    far = np.zeros(n, dtype=np.bool_)
    state = state.copy()
    determinize(state, player, PRIOR_SEED, 0)
    fields, queue, inq, assigned, danger = _buffers()
    vals = np.zeros(core.MAX_PLAYERS, dtype=np.float64)
    _values(state, vals, fields, queue, inq, assigned, danger, True)
    own_now = vals[player]
    other_now = own_now - _margin(vals, player, p)
    # most candidates lay a tile: their fields are repaired from these rather than searched again
    before = fields[:1 + NUM_LANDINGS].copy()   # the costs and the landings' distances
    lost = np.zeros(NUM_SQUARES, dtype=np.bool_)
    stack = np.empty(2 * NUM_SQUARES + 4, dtype=np.int64)
    inq[:] = False
    laying = state[core.PHASE] == core.PHASE_TURN
    work = state.copy()
    best = -1e300
    for a in range(n):
        if mask[a] == 0 or (laying and core.LAY_BASE <= a < core.SPEND_BASE):
            continue
        work[:] = state
        core.step(work, a)
        _values(work, vals, fields, queue, inq, assigned, danger, True)
        best = max(best, _record(vals, player, p, a, margin, own, other, own_now, other_now))
    if laying:
        # lays that leave their field alike (the same costs and artifacts on its four squares: the
        # same tile from another slot of the hand, a rotation of a symmetric tile; about a quarter of
        # them) have the same fields, repaired once into a slot of their own and read by them all
        slots = np.empty((4 * core.HAND_SLOTS,) + fields.shape, dtype=fields.dtype)
        keys = np.empty(4 * core.HAND_SLOTS, dtype=np.int64)
        for f in range(NUM_FIELDS):
            used = 0
            for h in range(core.HAND_SLOTS):
                for r in range(4):
                    a = core.LAY_BASE + 4 * (NUM_FIELDS * h + f) + r
                    if mask[a] == 0:
                        continue
                    work[:] = state
                    core.step(work, a)
                    key = _field_key(work, f)
                    slot = 0
                    while slot < used and keys[slot] != key:
                        slot += 1
                    if slot == used:
                        keys[slot] = key
                        used += 1
                        _fields_after_lay(work, f, before, slots[slot], queue, inq, lost, stack)
                    _values_from_fields(work, vals, slots[slot], assigned, danger, True)
                    best = max(best, _record(vals, player, p, a, margin, own, other, own_now, other_now))
    player_to_act = state[core.TO_ACT]
    for a in range(core.LAY_BASE, core.SPEND_BASE):
        if mask[a] and not _lay_candidate(state, player_to_act, ((a - core.LAY_BASE) // 4) % NUM_FIELDS):
            far[a] = True
    work[:] = state
    choice = rollout_action(work)
    if choice >= 0 and mask[choice] == 0:
        choice = -1
    return own, other, choice, far, best


@njit(cache=True, inline="always")
def _record(vals, player, p, a, margin, own, other, own_now, other_now):
    """Action ``a``'s margin and changes of value from ``vals``; returns the margin."""
    margin[a] = _margin(vals, player, p)
    own[a] = vals[player] - own_now
    other[a] = vals[player] - margin[a] - other_now
    return margin[a]


@njit(cache=True, inline="always")
def _field_key(state, f):
    """What ``_fields_after_lay`` reads of the tile just laid on field ``f``: its squares' entry costs
    and whether an artifact lies on each."""
    key = 0
    for i in range(4):
        sq = FIELD_SQUARES[f, i]
        base = core.ARTIFACTS + sq * core.NUM_COLOURS
        lying = 1 if state[base] + state[base + 1] + state[base + 2] > 0 else 0
        key = 64 * key + 2 * (_enter_cost(state, sq) + 1) + lying
    return key


@njit(cache=True)
def prior(state, player, mask, out):
    """Root preferences: the ``_values`` margin one step ahead (``_one_step``), the rollout policy's
    choice first, tiles laid on fields not next to one of the player's explorers last."""
    _own, _other, choice, far, best = _one_step(state, player, mask, out)
    # tiles laid away from the player's explorers come last: they help whoever passes there later
    for a in range(mask.shape[0]):
        if far[a]:
            out[a] = best - 1000.0
    # the rollout policy's own choice comes first: the search then improves on the policy
    if choice >= 0:
        out[choice] = best + 1.0


# The distilled policy (``agents.learned.scorer``) scores every legal action from these features.
ACTION_FEATURE_NAMES = (
    "margin after, less the best action's", "own value change", "best other player's value change",
    "the rollout policy's choice", "tile laid away from own explorers",
    "kind: place", "kind: lay", "kind: spend", "kind: move", "kind: pick up", "kind: drop", "kind: board",
    "kind: end turn", "kind: card decision (advanced)", "end triggered", "movement pool / 10",
)
NUM_ACTION_FEATURES = len(ACTION_FEATURE_NAMES)
ROLLOUT_FEATURE = "the rollout policy's choice"   # 1 for the action the rollout policy plays
# A scorer may read eight more (``_turn_features``): one step ahead misses what the rest of the turn
# makes of a move (a lay that opens a path the explorer then walks, a walk that ends in lava's way),
# which held the scorers fitted to the search's choices at 52% agreement however much data they had
# (docs/training.md, "What the 16 features miss").
TURN_FEATURE_NAMES = (
    "turn margin after, less the best", "turn own value change", "turn best other's value change",
    "share of candidates ahead one step", "share of candidates ahead after the turn", "log candidates / 4",
    "share of island tiles in the bag", "margin now / 10",
)
FEATURE_NAMES = ACTION_FEATURE_NAMES + TURN_FEATURE_NAMES
# the feature sets a scorer may read, by name: the first 16 names, or all 24
FEATURE_SETS = {"one-step": NUM_ACTION_FEATURES, "turn": len(FEATURE_NAMES)}
FEATURE_SET_SIZES = tuple(FEATURE_SETS.values())
# the candidates whose turn is played out: the best by ``TURN_RANKING`` (a playout costs about four
# times a one-step evaluation, and there are 115 candidates on average)
TURN_PLAYOUTS = 8
# The ranking that picks them: a linear score of the 16 one-step features, the weights in their
# order (the last two are the same for every candidate of a decision, so they rank nothing; the
# advanced game's card decisions were not in the data).  Fitted to the most visited actions of the
# guided search (docs/training.md, "Which candidates' turns are played"), it has the most visited
# action among its 8 best in 94% of held-out decisions, where the one-step margin alone has it in 85%.
TURN_RANKING = np.array((
    1.97, 0.96, -0.96,               # margin after, own and best other's value change
    0.83, -1.54,                     # the rollout policy's choice, a tile laid away from own explorers
    0.0, -1.39, 1.70, 0.85, -0.25, 2.38, 1.17, 1.73, 0.0,   # kind: place … card decision
    0.0, 0.0,                        # end triggered, movement pool
))
_KIND_BOUNDS = (core.LAY_BASE, core.SPEND_BASE, core.MOVE_BASE, core.PICK_BASE, core.DROP_BASE, core.BOARD_BASE,
                core.END_TURN, core.NUM_ACTIONS)


@njit(cache=True)
def _check_rows(out, num_actions):
    """Numba does not check bounds: feature rows too short or too few would be written past."""
    if out.shape[0] < num_actions or (out.shape[1] != NUM_ACTION_FEATURES and out.shape[1] != len(FEATURE_NAMES)):
        raise ValueError("action_features: out needs a row per action and 16 or 24 columns (FEATURE_SET_SIZES)")


@njit(cache=True)
def action_features(state, player, mask, out):
    """``out[a]`` for every action legal in ``mask``, zeros elsewhere: ``_one_step``'s evaluation of
    the action, its kind, and two facts of the turn (``ACTION_FEATURE_NAMES``); and when ``out`` has
    ``len(FEATURE_NAMES)`` columns, ``_turn_features`` after them.  Like ``prior``, a function of
    what ``player`` knows only."""
    _check_rows(out, mask.shape[0])
    n = mask.shape[0]
    margin = np.zeros(n)
    own, other, choice, far, best = _one_step(state, player, mask, margin)
    out[:] = 0.0
    triggered = 1.0 if state[core.END_TRIGGERED] != 0 else 0.0
    for a in range(n):
        if mask[a] == 0:
            continue
        out[a, 0] = margin[a] - best
        out[a, 1] = own[a]
        out[a, 2] = other[a]
        out[a, 3] = 1.0 if a == choice else 0.0
        out[a, 4] = 1.0 if far[a] else 0.0
        kind = 0
        while kind < len(_KIND_BOUNDS) and a >= _KIND_BOUNDS[kind]:
            kind += 1
        out[a, 5 + kind] = 1.0
        out[a, 14] = triggered
        out[a, 15] = state[core.POOL] / 10.0
    if out.shape[1] > NUM_ACTION_FEATURES:
        _turn_features(state, player, mask, out)


@njit(cache=True)
def _ahead_shares(values, legal, out, column):
    """``out[a, column]``: the share of the other candidates in ``legal`` whose value is higher than a's."""
    ordered = np.sort(values[legal])
    for a in legal:
        out[a, column] = (legal.shape[0] - np.searchsorted(ordered, values[a], "right")) / max(1, legal.shape[0] - 1)


@njit(cache=True)
def _turn_features(state, player, mask, out):
    """``TURN_FEATURE_NAMES`` into ``out[:, NUM_ACTION_FEATURES:]``, the one-step features being in
    ``out[:, :NUM_ACTION_FEATURES]``: the ``TURN_PLAYOUTS`` best candidates by ``TURN_RANKING`` of
    those (the first of equal ones) are played, on ``_one_step``'s determinization, to the end of
    the turn by the rollout policy (``playout``) and ``evaluate``d: the margin less the best of
    theirs, the changes in the player's own and the best other player's value from now.  The others
    take the lowest of those margins and their one-step changes.  Then each candidate's share of the
    others ahead of it by either margin, and three facts of the position."""
    p = state[core.NUM_PLAYERS]
    legal = np.flatnonzero(mask)
    det = state.copy()
    determinize(det, player, PRIOR_SEED, 0)
    vals = np.zeros(core.MAX_PLAYERS)
    fields, queue, inq, assigned, danger = _buffers()
    _values(det, vals, fields, queue, inq, assigned, danger, False)   # evaluate(det, vals)
    margin_now = _margin(vals, player, p)
    own_now = vals[player]
    # each playout starts from its candidate's exact fields, found as cheaply as ``_one_step`` finds
    # them: repaired from these after a lay, these after a spend, searched after anything else
    root = fields.copy()
    lost = np.zeros(NUM_SQUARES, dtype=np.bool_)
    stack = np.empty(2 * NUM_SQUARES + 4, dtype=np.int64)
    inq[:] = False
    laying = det[core.PHASE] == core.PHASE_TURN
    rank = np.zeros(legal.shape[0])
    for i in range(legal.shape[0]):
        for k in range(NUM_ACTION_FEATURES):
            rank[i] += TURN_RANKING[k] * out[legal[i], k]
    played = legal[np.argsort(-rank, kind="mergesort")[:TURN_PLAYOUTS]]
    turn = np.zeros(mask.shape[0])
    is_played = np.zeros(mask.shape[0], dtype=np.bool_)
    best = -1e300
    worst = 1e300
    work = det.copy()
    for a in played:
        work[:] = det
        core.step(work, a)
        if laying and core.LAY_BASE <= a < core.SPEND_BASE:
            _fields_after_lay(work, ((a - core.LAY_BASE) // 4) % NUM_FIELDS, root, fields, queue, inq, lost, stack)
        elif laying and core.SPEND_BASE <= a < core.MOVE_BASE:
            fields[:] = root
        else:
            _fields(work, fields, queue, inq)
        # the last fields of the playout, where nothing has changed them since, are the evaluation's
        if _playout(work, 64, det[core.TURN] + 1, fields, queue, inq, assigned, danger, True) and \
                work[core.STATUS] == core.STATUS_RUNNING:
            _values_from_fields(work, vals, fields, assigned, danger, False)
        else:
            evaluate(work, vals)
        turn[a] = _margin(vals, player, p)
        out[a, NUM_ACTION_FEATURES + 1] = vals[player] - own_now
        # the best other player's value is own value less the margin, now and after
        out[a, NUM_ACTION_FEATURES + 2] = out[a, NUM_ACTION_FEATURES + 1] - turn[a] + margin_now
        is_played[a] = True
        best = max(best, turn[a])
        worst = min(worst, turn[a])
    bag = 0
    for t in range(core.NUM_TILES):
        bag += state[core.TILE_WHERE + t] == core.IN_BAG
    for a in legal:
        if not is_played[a]:
            turn[a] = worst
            out[a, NUM_ACTION_FEATURES + 1:NUM_ACTION_FEATURES + 3] = out[a, 1:3]   # the one-step changes
        out[a, NUM_ACTION_FEATURES] = turn[a] - best
        out[a, NUM_ACTION_FEATURES + 5] = np.log(legal.shape[0]) / 4.0
        out[a, NUM_ACTION_FEATURES + 6] = bag / core.NUM_ISLAND_TILES
        out[a, NUM_ACTION_FEATURES + 7] = margin_now / 10.0
    _ahead_shares(out[:, 0].copy(), legal, out, NUM_ACTION_FEATURES + 3)   # the one-step margin, less the best
    _ahead_shares(turn, legal, out, NUM_ACTION_FEATURES + 4)


@njit(cache=True)
def candidate_features(states, players, games, masks, out):
    """For each game ``g`` in ``games``: its candidates (``search_mask``) into ``masks[g]`` and their
    ``action_features`` as ``players[g]`` sees them into ``out[g]`` (zeros for the other actions): what
    ``agents.learned.scorer.ScorerAgent`` reads, for many games in one call."""
    for i in range(games.shape[0]):
        g = games[i]
        search_mask(states[g], masks[g])
        action_features(states[g], players[g], masks[g], out[g])


@njit(cache=True, parallel=True)
def candidate_features_parallel(states, players, games, masks, out):
    """``candidate_features`` with the games spread over Numba's threads."""
    if out.shape[0] > 0:
        _check_rows(out[0], masks.shape[1])   # before the threads: they cannot raise
    for i in prange(games.shape[0]):
        g = games[i]
        search_mask(states[g], masks[g])
        action_features(states[g], players[g], masks[g], out[g])


@njit(cache=True)
def _margin(vals, player, p):
    best = -1e300
    for i in range(p):
        if i != player and vals[i] > best:
            best = vals[i]
    return vals[player] - best


@njit(cache=True)
def settled(state):
    """True when no explorer on the island can ever board: the core's ``settled`` (RULINGS.md,
    "Settled end"), which has also triggered the end, so that nobody's points can change any more
    and the search has nothing to decide.  Never in the advanced game: there the core's answer
    depends on the cards every player holds, which the searching player does not see."""
    if state[core.STATUS] != core.STATUS_RUNNING or state[core.PHASE] != core.PHASE_TURN or \
            state[core.VARIANT] == core.VARIANT_ADVANCED:
        return False
    return core.settled(state)


# ---------------------------------------------------------------------------------------------------
# Rollout policy
@njit(cache=True)
def _lay_for(state, player, to):
    """The lay action that makes square ``to`` (on an empty tile field) walkable: the hand tile and
    rotation that put jungle there (water if no tile can), the tile worth the fewest points; -1 if
    none can."""
    f = SQUARE_FIELD[to]
    i = 0
    while FIELD_SQUARES[f, i] != to:
        i += 1
    best = -1
    best_key = -1
    for h in range(state[core.HAND_SIZE + player]):
        tile = state[core.HAND + player * core.HAND_SLOTS + h]
        for r in range(4):
            t = TERRAIN_TILE_SQUARES[tile, TILE_ROTATION_SOURCE[r, i]]
            if t != JUNGLE and t != WATER:
                continue
            key = (20 if t == JUNGLE else 10) - TERRAIN_TILE_POINTS[tile]
            if key > best_key:
                best_key = key
                best = core.LAY_BASE + 4 * (NUM_FIELDS * h + f) + r
    return best


@njit(cache=True)
def _policy(state, fields, assigned, danger):
    """One greedy step (uses the row's generator for ties and placement), with the distance fields
    of the position given (they may be slightly stale: moves do not refresh them):

    place an explorer on a random free start square (and take the advanced game's decisions about
    cards, earthquakes and card movements at random: the policy itself plays no card); pick up the
    best artifact an explorer stands on; board when boarding now is worth at least what the explorer
    is expected to score by going on; otherwise take the best step of any explorer towards its boat
    (``_assign``, ``_explorer_value``):
    walk if the pool allows, spend a hand tile if the step is only short of points, lay a
    tile that makes the square walkable if it is an empty tile space; with no useful step, lay a
    tile next to an explorer; end the turn once the hand is empty."""
    if state[core.PHASE] != core.PHASE_TURN:
        return core.random_action(state)   # placement; the advanced game's card decisions
    player = state[core.TO_ACT]
    explorers = state[core.EXPLORERS_EACH]
    if state[core.FREE_ACTIONS] < core.FREE_ACTIONS_PER_TURN:
        for e in range(explorers):
            for c in range(core.NUM_COLOURS - 1, -1, -1):
                a = core.PICK_BASE + core.NUM_COLOURS * e + c
                if core.is_legal(state, a):
                    return a
    best_a = _board_or_step(state, player, explorers, fields, assigned, danger)
    if best_a >= 0:
        return best_a
    hand = state[core.HAND_SIZE + player]
    if hand == 0:
        return core.END_TURN
    return _lay_anywhere(state, player, hand)


@njit(cache=True)
def _board_or_step(state, player, explorers, fields, assigned, danger):
    """Boarding, if an explorer's boat is worth what it can still expect; else the action (walk, spend,
    lay) for the step that brings an explorer's value up most; -1 when no step helps."""
    pool = state[core.POOL]
    hand = state[core.HAND_SIZE + player]
    best_a = -1
    best_gain = 0.0
    for e in range(explorers):
        x = core.explorer_index(player, e)
        if state[core.EXPLORER_STATUS + x] != core.ON_ISLAND:
            continue
        sq = state[core.EXPLORER_SQUARE + x]
        target = assigned[x]
        if target >= 0 and state[core.LANDING_BOAT + target] < 0:
            target = -1   # taken since the fields were computed
        here = _explorer_value(state, x, sq, fields, target, danger)
        landing = SQUARE_LANDING[sq]
        if landing >= 0 and state[core.LANDING_BOAT + landing] >= 0 and pool >= BOARDING_COST:
            if _load_value(state, x, BOAT_CAPACITY[state[core.LANDING_BOAT + landing]]) >= here:
                return core.BOARD_BASE + NUM_LANDINGS * e + landing
        for d in range(4):
            to = SQUARE_NEIGHBOURS[sq, d]
            if to < 0 or state[core.OCCUPANT + to] >= 0 or fields[0, to] < 0:
                continue
            gain = _explorer_value(state, x, to, fields, target, danger) - here
            if gain < 1e-6:
                continue
            gain += 1e-4 * draw(state, core.RNG, 16)
            if gain <= best_gain:
                continue
            terrain = state[core.TERRAIN + to]
            if terrain == JUNGLE or terrain == WATER:
                if MOVE_COST[terrain] <= pool:
                    a = core.MOVE_BASE + 4 * e + d
                elif hand > 0:
                    a = core.SPEND_BASE + draw(state, core.RNG, hand)
                else:
                    continue
            elif hand > 0:
                a = _lay_for(state, player, to)
                if a < 0:
                    continue
            else:
                continue
            best_gain = gain
            best_a = a
    return best_a


@njit(cache=True)
def _lay_anywhere(state, player, hand):
    """A random tile of the hand, laid in a random rotation on a random field next to an explorer; the
    biggest tile spent when there is no such field."""
    count = 0
    for f in range(NUM_FIELDS):
        if _lay_candidate(state, player, f):
            count += 1
    if count == 0:
        return core.SPEND_BASE + _biggest_tile(state, player)
    r = draw(state, core.RNG, count)
    for f in range(NUM_FIELDS):
        if _lay_candidate(state, player, f):
            if r == 0:
                h = draw(state, core.RNG, hand)
                return core.LAY_BASE + 4 * (NUM_FIELDS * h + f) + draw(state, core.RNG, 4)
            r -= 1
    return core.SPEND_BASE


@njit(cache=True)
def _biggest_tile(state, player):
    """Hand slot of the tile worth the most movement points."""
    best = 0
    for h in range(1, state[core.HAND_SIZE + player]):
        if TERRAIN_TILE_POINTS[state[core.HAND + player * core.HAND_SLOTS + h]] > \
                TERRAIN_TILE_POINTS[state[core.HAND + player * core.HAND_SLOTS + best]]:
            best = h
    return best


@njit(cache=True)
def _lay_candidate(state, player, f):
    if not IS_TILE_FIELD[f] or state[core.FIELD_TILE + f] >= 0:
        return False
    for i in range(4):
        sq = FIELD_SQUARES[f, i]
        for d in range(4):
            v = SQUARE_NEIGHBOURS[sq, d]
            if v >= 0 and SQUARE_FIELD[v] != f:
                occ = state[core.OCCUPANT + v]
                if occ >= 0 and occ // 8 == player:
                    return True
    return False


@njit(cache=True)
def rollout_action(state):
    """``_policy`` from fresh distance fields (the tree's expansion proposal)."""
    if state[core.STATUS] != core.STATUS_RUNNING:
        return -1
    fields, queue, inq, assigned, danger = _buffers()
    _fields(state, fields, queue, inq)
    _assign(state, fields, assigned)
    _lava_danger(state, danger)
    return _policy(state, fields, assigned, danger)


@njit(cache=True)
def playout(state, max_steps, stop_clock):
    """``_policy`` for at most ``max_steps`` steps, until the turn count reaches ``stop_clock``, the
    game ends, or the policy would end the turn: the position is then evaluated as the turn leaves
    it, before the draws (their lava is counted as ``_lava_danger``'s expectation rather than one
    sample, which would drown the differences between moves).  The distance fields are recomputed
    after every step that changes the board (not after moves and spends)."""
    fields, queue, inq, assigned, danger = _buffers()
    _playout(state, max_steps, stop_clock, fields, queue, inq, assigned, danger, False)


@njit(cache=True)
def _playout(state, max_steps, stop_clock, fields, queue, inq, assigned, danger, given):
    """``playout`` in the caller's buffers; ``given``: ``fields`` already hold the exact ``_fields``
    of ``state``.  Returns whether they still do when it stops (nothing has changed them since they
    were searched: a spend changes no cost, a move the costs of the squares left and entered), so
    that the caller's evaluation may read them instead of searching again."""
    fresh = False
    exact = given
    if given:
        _assign(state, fields, assigned)
        _lava_danger(state, danger)
        fresh = True
    steps = 0
    while steps < max_steps and state[core.STATUS] == core.STATUS_RUNNING and state[core.TURN] < stop_clock:
        if not fresh:
            _fields(state, fields, queue, inq)
            _assign(state, fields, assigned)
            _lava_danger(state, danger)
            fresh = True
            exact = True
        a = _policy(state, fields, assigned, danger)
        if a == core.END_TURN:
            return exact
        core.step(state, a)
        if not (core.MOVE_BASE <= a < core.PICK_BASE or core.SPEND_BASE <= a < core.MOVE_BASE):
            fresh = False
        if not core.SPEND_BASE <= a < core.MOVE_BASE:
            exact = False
        steps += 1
    return exact
