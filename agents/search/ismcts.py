"""The Numba search of the MCTS agent: information-set Monte-Carlo tree search over the game cores.

One call of ``search`` runs a whole decision.  The trees live in flat, preallocated arrays (one node
per index: ``key``, ``first`` child, ``nxt`` sibling, ``visits``, ``avail``, ``value``, ``mover``);
states are rows copied from the root.  Games are told apart by the type of a token argument
(``GAME_TOKENS``) and every game call goes through a ``g_*`` overload that resolves, when the search
is typed, to that game's core (or its ``agents.search.<game>`` helper): each game gets its own
compiled and cached search holding only its own code.  (Kernels built by a factory or given
functions as arguments would miss Numba's on-disk cache and be compiled again in every process.)

One simulation:

1. **Determinize**: copy the root row and re-sample everything the searching player cannot see
   (``agents.search.<game>.determinize``); the row's generator is reseeded, which also samples all
   future chance (bag draws, lava).  Every simulation gets a fresh determinization.
2. **Select / expand** (multiple-observer ISMCTS when ``num_trees`` equals the number of players;
   one shared tree otherwise): every player has a tree whose edges are moves *as that player
   observes them*; all trees are walked down together.  The tree of the player to act chooses by
   UCB1 among the children whose actions are legal in this determinization, using availability
   counts (``avail``: how often the child was selectable) in place of the parent's visits; the first
   legal action without a child is expanded instead (uniformly at random), which ends the descent.
   The other trees follow the move as their owner sees it (``observed_key``: e.g. "a colour has
   submitted a project" in Maka Bana Haapii; ``NO_EDGE`` for a move its owner cannot even tell
   was made, such as a hidden card added to a Maka Bana Mao project, and the tree stays where it
   is), and every tree then follows what its owner learns without a
   decision (``event_key``: revealed cards, drawn tiles), so no player's statistics ever depend on
   what it could not know.
3. **Playout**: the game's rollout policy (``agents.search.<game>.playout``) for at most
   ``rollout_depth`` steps or ``horizon`` seasons/turns, then the game's evaluation
   (``agents.search.<game>.evaluate``: points per player), turned into a value in [-1, 1] per player
   by ``agents.search.common.margin_values`` (sign of the margin, and the margin's change since the
   root).  With a value network (``vnet``) and ``value_mix`` λ > 0, every player's value is
   ``(1 - λ)`` times that plus ``λ`` times the network's value of the leaf, read from that player's
   observation of the determinization; with λ = 1 there is no playout.
4. **Backup**: every node on every tree's path gets one visit and the value *of the player who made
   the move into it* (max^n-style: each player maximizes its own value at its own decisions).

The chosen action is the most visited child of the searching player's root.  With ``halving`` (the
root's actions chosen by sequential halving, as in Gumbel MuZero, Danihelka et al. 2022, and
DeepMind's mctx), the root visits only its ``halving`` best actions by the prior, in rounds that keep
the better half by ``log prior + sigma(Q)``, and the chosen action is the best of the most visited
by the same score.
"""
import numpy as np
from numba import njit, types
from numba.extending import overload

from makabana_env import kernels as mb_core
from makemake_env import kernels as mm_core
from maunakea_env import kernels as mk_core
from pacific_common.rng import draw, seed_rng

from .common import NO_EDGE, margin_values, margins
from .prior import has_network, has_scorer, policy, scorer_policy, value as network_value   # ``value`` names the nodes' values here

from . import makabana as mb
from . import makemake as mm
from . import maunakea as mk

MAX_PLAYERS = 5
EVENT_BASE = 1 << 50          # keys of event edges; action keys are < the number of actions (+1)

# Games are told apart by the *type* of a token argument, so that Numba compiles (and caches) one
# search per game holding only that game's code: the ``g_*`` dispatchers below are overloads that
# resolve at typing time.
GAME_TOKENS = {"makabana": np.int8(0), "makemake": np.int16(0), "maunakea": np.int32(0)}
_MAKABANA, _MAKEMAKE = types.int8, types.int16


def _pick(game, makabana, makemake, maunakea):
    if game == _MAKABANA:
        return makabana
    if game == _MAKEMAKE:
        return makemake
    return maunakea


def _dispatcher(name, doc):
    def stub(*args):
        raise NotImplementedError(f"{name} is only callable from Numba")
    stub.__name__ = name
    stub.__doc__ = doc
    return stub


# ---------------------------------------------------------------------------------------------------
# Game dispatch (each resolves to one game's function when the search is typed)
g_num_actions = _dispatcher("g_num_actions", "The number of actions of the game (and variant) of row s.")
g_num_players = _dispatcher("g_num_players", "Players in the game of row s.")
g_running = _dispatcher("g_running", "Whether the game of row s is still running.")
g_to_act = _dispatcher("g_to_act", "The player whose decision is asked.")
g_mask = _dispatcher("g_mask", "Write the mask of the legal actions the search considers.")
g_step = _dispatcher("g_step", "Apply an action.")
g_clock = _dispatcher("g_clock", "The clock of the rollout horizon: seasons (Maka Bana) or turns.")
g_determinize = _dispatcher("g_determinize", "Re-sample the hidden parts of a row for a player.")
g_observed_key = _dispatcher("g_observed_key", "How a viewer sees the action about to be taken.")
g_marker = _dispatcher("g_marker", "What the event check needs of the position before a step.")
g_event_key = _dispatcher("g_event_key", "What a viewer learns without a decision after a step, -1 if nothing.")
g_rollout_action = _dispatcher("g_rollout_action", "The rollout policy's action.")
g_playout = _dispatcher("g_playout", "Play the rollout policy up to a step count or a clock value.")
g_evaluate = _dispatcher("g_evaluate", "Points per player; True for a result worth 0 to all.")
g_prior = _dispatcher("g_prior", "Root preferences of the legal actions.")
g_observe = _dispatcher("g_observe", "Write a player's observation, as the AEC environment gives it.")
g_action_features = _dispatcher("g_action_features", "Write an action scorer's feature rows (Maka Bana and Mauna Kea).")


@overload(g_num_actions)
def _ov_num_actions(game, s):
    f = _pick(game, mb.num_actions, mm.num_actions, mk.num_actions)
    return lambda game, s: f(s)


@overload(g_num_players)
def _ov_num_players(game, s):
    i = _pick(game, mb_core.NUM_PLAYERS, mm_core.NUM_PLAYERS, mk_core.NUM_PLAYERS)
    return lambda game, s: s[i]


@overload(g_running)
def _ov_running(game, s):
    i = _pick(game, mb_core.STATUS, mm_core.STATUS, mk_core.STATUS)
    return lambda game, s: s[i] == 0


@overload(g_to_act)
def _ov_to_act(game, s):
    f = _pick(game, mb_core.player_to_act, mm_core.player_to_act, mk_core.player_to_act)
    return lambda game, s: f(s)


@overload(g_mask)
def _ov_mask(game, s, mask):
    f = _pick(game, mb_core.legal_action_mask, mm_core.legal_action_mask, mk.search_mask)
    return lambda game, s, mask: f(s, mask)


@overload(g_step)
def _ov_step(game, s, a):
    f = _pick(game, mb_core.step, mm_core.step, mk_core.step)
    return lambda game, s, a: f(s, a)


@overload(g_clock)
def _ov_clock(game, s):
    i = _pick(game, mb_core.SEASON, mm_core.TURN, mk_core.TURN)
    return lambda game, s: s[i]


@overload(g_determinize)
def _ov_determinize(game, s, player, seed, belief):
    f = _pick(game, mb.determinize, mm.determinize, mk.determinize)
    return lambda game, s, player, seed, belief: f(s, player, seed, belief)


@overload(g_observed_key)
def _ov_observed_key(game, s, a, viewer):
    f = _pick(game, mb.observed_key, mm.observed_key, mk.observed_key)
    return lambda game, s, a, viewer: f(s, a, viewer)


@overload(g_marker)
def _ov_marker(game, s):
    f = _pick(game, mb.marker, mm.marker, mk.marker)
    return lambda game, s: f(s)


@overload(g_event_key)
def _ov_event_key(game, s, before, viewer):
    f = _pick(game, mb.event_key, mm.event_key, mk.event_key)
    return lambda game, s, before, viewer: f(s, before, viewer)


@overload(g_rollout_action)
def _ov_rollout_action(game, s):
    f = _pick(game, mb.rollout_action, mm.rollout_action, mk.rollout_action)
    return lambda game, s: f(s)


@overload(g_playout)
def _ov_playout(game, s, max_steps, stop_clock):
    f = _pick(game, mb.playout, mm.playout, mk.playout)
    return lambda game, s, max_steps, stop_clock: f(s, max_steps, stop_clock)


@overload(g_evaluate)
def _ov_evaluate(game, s, out):
    f = _pick(game, mb.evaluate, mm.evaluate, mk.evaluate)
    return lambda game, s, out: f(s, out)


@overload(g_observe)
def _ov_observe(game, s, player, obs):
    if game == _MAKABANA:
        return lambda game, s, player, obs: mb_core.observe(s, mb_core.viewpoint(s, player), obs)
    f = mm_core.observe if game == _MAKEMAKE else mk_core.observe
    return lambda game, s, player, obs: f(s, player, obs)


@njit(cache=True)
def _no_action_features(s, player, mask, out):
    out[:] = 0.0   # Make Make has no action scorers (agents.learned.scorer.SCORER_GAMES)


@overload(g_action_features)
def _ov_action_features(game, s, player, mask, out):
    f = _pick(game, mb.action_features, _no_action_features, mk.action_features)
    return lambda game, s, player, mask, out: f(s, player, mask, out)


@overload(g_prior)
def _ov_prior(game, s, player, mask, out):
    f = _pick(game, mb.prior, mm.prior, mk.prior)
    return lambda game, s, player, mask, out: f(s, player, mask, out)


# ---------------------------------------------------------------------------------------------------
# Tree
@njit(cache=True)
def _new_node(parent, k, who, used, key, first, nxt, visits, avail, value, mover):
    n = used
    key[n] = k
    first[n] = -1
    nxt[n] = first[parent]
    first[parent] = n
    visits[n] = 0
    avail[n] = 0
    value[n] = 0.0
    mover[n] = who
    return n


@njit(cache=True)
def _find(parent, k, key, first, nxt):
    ch = first[parent]
    while ch >= 0:
        if key[ch] == k:
            return ch
        ch = nxt[ch]
    return -1


@njit(cache=True)
def _random_bits(rs):
    return (draw(rs, 0, 1 << 30) << 31) ^ draw(rs, 0, 1 << 31)


@njit(cache=True)
def _clear_roots(num_trees, key, first, nxt, visits, avail, value, mover):
    for t in range(num_trees):
        key[t] = -1
        first[t] = -1
        nxt[t] = -1
        visits[t] = 0
        avail[t] = 0
        value[t] = 0.0
        mover[t] = -1


@njit(cache=True)
def _root_prior(game, root, player, mask, rs, na, policy):
    """The root's prior scaled to [0, 1] (ties broken at random, -1 for illegal actions), and the order
    in which the root expands its actions: the game's prior, or ``policy`` where it has an entry per
    action (a guide's probabilities, ``agents.search.mcts.GuidedMCTSAgent``).  The game's prior is a
    ranking, stretched over [0, 1]; probabilities are divided by the largest, so that a nearly
    uniform policy keeps a nearly flat bias."""
    prior = np.zeros(na, dtype=np.float64)
    g_mask(game, root, mask)
    guided = policy.shape[0] == na
    if guided:
        prior[:] = policy
    else:
        g_prior(game, root, player, mask, prior)
    lo = 0.0 if guided else 1e300
    hi = -1e300
    for a in range(na):
        if mask[a]:
            lo = min(lo, prior[a])
            hi = max(hi, prior[a])
    for a in range(na):
        if mask[a]:
            prior[a] = (prior[a] - lo) / (hi - lo) if hi > lo else 0.0
            prior[a] += 1e-6 * draw(rs, 0, 1000)
        else:
            prior[a] = -1.0
    return prior, np.argsort(-prior)


@njit(cache=True)
def _ucb_child(node, at_root, mask, na, c, bias, prior, net_prior, key, first, nxt, visits, avail, value,
               root_scale):
    """The child of ``node`` with the best UCB among those legal now (their mask entries set to 2, their
    availability counted): ``(child or -1, children legal now, legal actions)``.  The progressive bias
    reads the root's ``prior`` at the root, times ``root_scale``, and the guide's ``net_prior`` of the
    child below it (zero in an unguided search)."""
    nlegal = 0
    for a in range(na):
        nlegal += mask[a]
    best = -1
    best_u = -1e300
    tried = 0
    ch = first[node]
    while ch >= 0:
        k = key[ch]
        if k >= 0 and k < na and mask[k] == 1:
            mask[k] = 2
            tried += 1
            avail[ch] += 1
            if visits[ch] == 0:
                u = 1e300
            else:
                u = value[ch] / visits[ch] + c * np.sqrt(np.log(avail[ch]) / visits[ch])
                u += bias * (prior[k] * root_scale if at_root else net_prior[ch]) / (visits[ch] + 1)
            if u > best_u:
                best_u = u
                best = ch
        ch = nxt[ch]
    return best, tried, nlegal


@njit(cache=True)
def _untried_action(game, s, at_root, mask, na, order, next_root, untried, rs):
    """The legal action without a child to expand: the root's next in ``order``, deeper the rollout
    policy's proposal, else one of the ``untried`` at random.  Returns it and the root's place in
    ``order``."""
    a = -1
    if at_root:
        while next_root < na and mask[order[next_root]] != 1:
            next_root += 1
        if next_root < na:
            a = order[next_root]
    else:
        a = g_rollout_action(game, s)
        if a < 0 or a >= na or mask[a] != 1:
            a = -1
    if a < 0:
        r = draw(rs, 0, untried)
        for i in range(na):
            if mask[i] == 1:
                if r == 0:
                    a = i
                    break
                r -= 1
    return a, next_root


@njit(cache=True)
def _guided_action(game, s, q, mask, net, obs, probs):
    """The untried legal action (mask entry 1) the guide likes best for player ``q``, from ``q``'s
    observation of ``s``, and its probability relative to the guide's favourite legal action."""
    g_observe(game, s, q, obs)
    top = policy(net, obs, mask, probs)
    a = -1
    for i in range(probs.shape[0]):
        if mask[i] == 1 and (a < 0 or probs[i] > probs[a]):
            a = i
    return a, probs[a] / top


@njit(cache=True)
def _scored_action(game, s, q, node, mask, scorer, slot, slot_probs, slot_top, used_slots, rows):
    """The untried legal action (mask entry 1) the action scorer likes best for player ``q`` at
    ``node``, its probability relative to the scorer's favourite, and how many slots are used now;
    -1 when every slot is taken.  The scorer's probabilities are computed once per node, on the
    first determinization that asks, and kept in the node's slot: a node's visible position is the
    same in every determinization that reaches it (its path holds every move and drawn tile), and
    the features read only what ``q`` can see."""
    k = slot[node]
    if k < 0:
        if used_slots >= slot_probs.shape[0]:
            return -1, 0.0, used_slots
        k = used_slots
        used_slots += 1
        slot[node] = k
        g_action_features(game, s, q, mask, rows)
        slot_top[k] = scorer_policy(scorer, rows, mask, slot_probs[k])
    probs = slot_probs[k]
    a = -1
    for i in range(probs.shape[0]):
        if mask[i] == 1 and (a < 0 or probs[i] > probs[a]):
            a = i
    if a < 0:
        return -1, 0.0, used_slots
    return a, probs[a] / slot_top[k], used_slots


@njit(cache=True)
def _descend(t, k, who, cur, path, plen, used, capacity, key, first, nxt, visits, avail, value, mover):
    """Tree ``t`` follows the edge ``k`` from where it is, adding the node if it is new (or dropping out
    of this simulation when the arrays are full): how many nodes are used now."""
    n2 = _find(cur[t], k, key, first, nxt)
    if n2 < 0:
        if used + 1 >= capacity:
            cur[t] = -1
            return used
        n2 = _new_node(cur[t], k, who, used, key, first, nxt, visits, avail, value, mover)
        used += 1
    cur[t] = n2
    path[t, plen[t]] = n2
    plen[t] += 1
    return used


@njit(cache=True)
def _step_trees(game, s, a, q, tq, player, num_trees, cur, path, plen, used, capacity, key, first, nxt, visits,
                avail, value, mover):
    """Play ``a`` (chosen by player ``q`` in tree ``tq``) on ``s``: the other trees follow the move as
    their owners see it, and every tree what its owner learns without a decision.  Returns how many
    nodes are used now."""
    if num_trees > 1:
        for t in range(num_trees):
            if t == tq or cur[t] < 0:
                continue
            k = g_observed_key(game, s, a, t)
            if k != NO_EDGE:
                used = _descend(t, k, q, cur, path, plen, used, capacity, key, first, nxt, visits, avail, value,
                                mover)
    before = g_marker(game, s)
    g_step(game, s, a)
    for t in range(num_trees):
        if cur[t] < 0:
            continue
        ek = g_event_key(game, s, before, t if num_trees > 1 else player)
        if ek >= 0:
            used = _descend(t, EVENT_BASE + ek, -1, cur, path, plen, used, capacity, key, first, nxt, visits,
                            avail, value, mover)
    return used


@njit(cache=True)
def _backup(num_trees, path, plen, vals, visits, value, mover):
    for t in range(num_trees):
        for i in range(plen[t]):
            n = path[t, i]
            visits[n] += 1
            if mover[n] >= 0:
                value[n] += vals[mover[n]]


@njit(cache=True)
def _most_visited(root_node, na, key, first, nxt, visits, value, root_visits):
    """The action of the root's most visited child (the higher value among equals), -1 for none; every
    root action's visits into ``root_visits``."""
    root_visits[:] = 0
    best = -1
    ch = first[root_node]
    while ch >= 0:
        k = key[ch]
        if k >= 0 and k < na:
            root_visits[k] = visits[ch]
            if best < 0 or visits[ch] > visits[best] or (
                    visits[ch] == visits[best] and value[ch] > value[best]):
                best = ch
        ch = nxt[ch]
    if best < 0:
        return -1
    return key[best]


# Sequential halving at the root (``search``'s ``halving``), after mctx's Gumbel MuZero root selection
# without the Gumbel noise: the value transform's constants are mctx's defaults.
HALVING_VISIT_INIT, HALVING_VALUE_SCALE = 50.0, 0.1


@njit(cache=True)
def considered_visits(m, sims):
    """For every simulation, the visits a root action must already have to be chosen: ``m`` actions
    get one visit each, and so on, the number considered halving (to no fewer than 2) after each of
    ``ceil(log2 m)`` rounds of about equal budgets (mctx's ``get_sequence_of_considered_visits``)."""
    out = np.zeros(sims, dtype=np.int64)
    if m <= 1:
        for i in range(sims):
            out[i] = i
        return out
    rounds = 0
    while (1 << rounds) < m:
        rounds += 1
    visits = np.zeros(m, dtype=np.int64)
    considered = m
    n = 0
    while n < sims:
        extra = max(1, sims // (rounds * considered))
        for _ in range(extra):
            for i in range(considered):
                if n < sims:
                    out[n] = visits[i]
                    n += 1
                visits[i] += 1
        considered = max(2, considered // 2)
    return out


@njit(cache=True)
def _halving_scores(root_node, na, prior, key, first, nxt, visits, value, scores):
    """``log prior + sigma(Q)`` of every root child into ``scores`` (by action), with ``Q`` the child's
    mean value rescaled to [0, 1] over the visited children and ``sigma`` mctx's
    ``(50 + most visits) * 0.1 * Q``; returns the most visits."""
    top = 0
    lo = 1e300
    hi = -1e300
    ch = first[root_node]
    while ch >= 0:
        if visits[ch] > 0:
            top = max(top, visits[ch])
            q = value[ch] / visits[ch]
            lo = min(lo, q)
            hi = max(hi, q)
        ch = nxt[ch]
    ch = first[root_node]
    while ch >= 0:
        k = key[ch]
        if k >= 0 and k < na:
            q = 0.0
            if visits[ch] > 0 and hi > lo:
                q = (value[ch] / visits[ch] - lo) / (hi - lo)
            scores[k] = np.log(max(prior[k], 1e-12)) + (HALVING_VISIT_INIT + top) * HALVING_VALUE_SCALE * q
        ch = nxt[ch]
    return top


@njit(cache=True)
def _halving_child(root_node, target, na, mask, prior, key, first, nxt, visits, value, scores):
    """The root child to visit in this simulation: the best-scoring legal child that has exactly
    ``target`` visits (the sequence's halving: the children left behind never match again), or -1
    for ``target`` 0 (then the next action by the prior is expanded).  Should no child match (a
    simulation that ran out of tree room and reached no child), the best-scoring most visited one."""
    if target == 0:
        return -1
    top = _halving_scores(root_node, na, prior, key, first, nxt, visits, value, scores)
    for attempt in range(2):
        want = target if attempt == 0 else top
        best = -1
        ch = first[root_node]
        while ch >= 0:
            k = key[ch]
            if k >= 0 and k < na and mask[k] == 1 and visits[ch] == want and (
                    best < 0 or scores[k] > scores[key[best]]):
                best = ch
            ch = nxt[ch]
        if best >= 0:
            return best
    return -1


@njit(cache=True)
def _halving_step(root_node, target, q, na, mask, order, next_root, used, room, prior, key, first, nxt, visits,
                  avail, value, mover, net_prior, scores):
    """The root child this simulation takes under sequential halving (``_halving_child``), or the
    next legal action by the prior added as a new child when the sequence asks for one (it asks for
    exactly as many as it considers actions, and the root's legal actions are the same in every
    determinization: they are its player's own).  Returns ``(child or -1 when there is no ``room``
    for it, whether it is new, the root's place in ``order``, nodes used)``."""
    child = _halving_child(root_node, target, na, mask, prior, key, first, nxt, visits, value, scores)
    if child >= 0:
        return child, False, next_root, used
    while next_root < na and mask[order[next_root]] != 1:
        next_root += 1
    if next_root >= na or not room:
        return -1, False, next_root, used
    child = _new_node(root_node, order[next_root], q, used, key, first, nxt, visits, avail, value, mover)
    net_prior[child] = 0.0
    return child, True, next_root + 1, used + 1


@njit(cache=True)
def search(game, root, player, num_trees, seed, sims, c, rollout_depth, horizon, max_depth, belief,
           scale, weight, pw_k, pw_alpha, bias, puct, halving, key, first, nxt, visits, avail, value, mover, net_prior,
           root_visits, root_policy, net, vnet, value_mix, scorer, scorer_after):
    """Run ``sims`` simulations from ``root`` for ``player`` and return the chosen action; the visit
    count of every root action is written into ``root_visits``.

    Playouts stop after ``rollout_depth`` steps, or once the game's clock (seasons in Maka Bana,
    turns in the others) is ``horizon`` past the root's (no such limit when ``horizon`` is 0).

    Progressive widening: a node of the player to act with ``n`` visits has at most
    ``max(1, pw_k * (n + 1) ** pw_alpha)`` children (all legal actions when ``pw_k <= 0``).  The
    root's actions are expanded in the order of the game's ``prior`` (or of ``root_policy``, where it
    has an entry per action; an empty array otherwise) and get the progressive bias
    ``bias * prior / (visits + 1)`` (prior scaled to [0, 1]); with ``puct`` that bias grows with the
    square root of the root's visits, as in AlphaZero's PUCT, so that a prior worth trusting keeps its
    say however long the search runs.  Deeper nodes expand the action the rollout policy proposes, or a
    uniformly random untried one.

    Guided below the root (``net``: a policy network packed by ``agents.search.prior.pack``; empty
    for none): a node expands the untried action that the network, reading the observation of the
    player to act in this determinization, likes best, and the child keeps that probability divided
    by the favourite's (``net_prior``) for the progressive bias ``bias * net_prior / (visits + 1)``.

    Valued leaves (``vnet``: a value network packed by ``agents.search.prior.pack_value``; empty for
    none): a leaf where the game goes on is worth ``(1 - value_mix)`` times the playout's value plus
    ``value_mix`` times the network's, each player's read from its own observation.

    Scored below the root (``scorer``: an action scorer packed by ``agents.search.prior.pack_scorer``;
    empty for none): a node with at least ``scorer_after`` visits expands the untried action the
    scorer likes best for the player to act, from features of the position (``g_action_features``,
    a look-ahead per candidate that costs as much as hundreds of simulations, hence computed once per
    node and only for nodes visited that often); the child keeps the probability relative to the
    favourite's in ``net_prior``, as the network's children do.  Nodes visited less expand as the
    unguided search does.

    Sequential halving at the root (``halving`` > 0): the root's visits follow ``considered_visits``
    over its ``halving`` best legal actions by the prior (fewer if fewer are legal), each simulation
    going to the best-scoring action with the visits the sequence asks for (score: ``log prior``
    plus the rescaled mean value, ``_halving_scores``), and the chosen action is the best-scoring of
    the most visited; the root's widening and bias are then unused.  0: the UCB root above."""
    na = g_num_actions(game, root)
    capacity = key.shape[0]
    rs = np.zeros(1, dtype=np.int64)
    rs[0] = seed_rng(seed)
    s = root.copy()
    mask = np.zeros(na, dtype=np.int8)
    vals = np.zeros(MAX_PLAYERS, dtype=np.float64)
    points = np.zeros(MAX_PLAYERS, dtype=np.float64)
    p = g_num_players(game, root)
    base = np.zeros(MAX_PLAYERS, dtype=np.float64)   # every player's margin at the root
    if not g_evaluate(game, root, points):
        margins(points, p, base)
    max_path = 2 * max_depth + 2
    path = np.zeros((num_trees, max_path), dtype=np.int64)
    plen = np.zeros(num_trees, dtype=np.int64)
    cur = np.zeros(num_trees, dtype=np.int64)
    _clear_roots(num_trees, key, first, nxt, visits, avail, value, mover)
    used = num_trees
    my_tree = player if num_trees > 1 else 0
    prior, order = _root_prior(game, root, player, mask, rs, na, root_policy)
    next_root = 0
    guided = has_network(net)
    obs = np.zeros(net[0].shape[0], dtype=np.int8)
    probs = np.zeros(na, dtype=np.float64)
    net_prior[:] = 0.0
    valued = has_network(vnet) and value_mix > 0.0
    vobs = np.zeros(vnet[0].shape[0], dtype=np.int8)
    leaf = np.zeros(MAX_PLAYERS, dtype=np.float64)
    scored = has_scorer(scorer) and not guided
    # a node's path sums at most ``sims`` visits per depth, so few nodes reach ``scorer_after``
    slots = min(1024, 4 * sims // max(scorer_after, 1) + 1) if scored else 0
    slot = np.full(capacity if scored else 0, -1, dtype=np.int32)
    slot_probs = np.empty((slots, na), dtype=np.float64)
    slot_top = np.empty(slots, dtype=np.float64)
    rows = np.zeros((na if scored else 0, scorer[2][0] if scored else 0), dtype=np.float64)   # its feature set
    used_slots = 0
    root_legal = 0
    for a in range(na):
        root_legal += prior[a] >= 0.0
    sequence = considered_visits(min(halving, root_legal), sims if halving > 0 else 0)
    scores = np.zeros(na if halving > 0 else 0, dtype=np.float64)

    for sim in range(sims):
        s[:] = root
        g_determinize(game, s, player, _random_bits(rs), belief)
        for t in range(num_trees):
            cur[t] = t
            path[t, 0] = t
            plen[t] = 1
        depth = 0
        while g_running(game, s) and depth < max_depth:
            q = g_to_act(game, s)
            tq = q if num_trees > 1 else 0
            node = cur[tq]
            if node < 0:
                break
            at_root = node == my_tree and depth == 0
            g_mask(game, s, mask)
            if at_root and halving > 0:
                child, expanded, next_root, used = _halving_step(
                    node, sequence[sim], q, na, mask, order, next_root, used, used + num_trees + 1 < capacity, prior,
                    key, first, nxt, visits, avail, value, mover, net_prior, scores)
                if child < 0:
                    break  # out of room: play out from here
                a = key[child]
            else:
                best, tried, nlegal = _ucb_child(node, at_root, mask, na, c, bias, prior, net_prior, key, first, nxt,
                                                 visits, avail, value,
                                                 np.sqrt(visits[node]) if puct and at_root else 1.0)
                limit = nlegal
                if pw_k > 0:
                    limit = min(nlegal, max(1, int(pw_k * (visits[node] + 1) ** pw_alpha)))
                expanded = False
                if tried < limit and used + num_trees + 1 < capacity:
                    a = -1
                    if guided and not at_root:
                        a, p_rel = _guided_action(game, s, q, mask, net, obs, probs)
                    elif scored and not at_root and visits[node] >= scorer_after:
                        a, p_rel, used_slots = _scored_action(game, s, q, node, mask, scorer, slot, slot_probs,
                                                              slot_top, used_slots, rows)
                    if a < 0:
                        a, next_root = _untried_action(game, s, at_root, mask, na, order, next_root, nlegal - tried, rs)
                        p_rel = 0.0
                    child = _new_node(node, a, q, used, key, first, nxt, visits, avail, value, mover)
                    net_prior[child] = p_rel
                    used += 1
                    expanded = True
                elif best >= 0:
                    child = best
                    a = key[best]
                else:
                    break  # out of room: play out from here
            cur[tq] = child
            path[tq, plen[tq]] = child
            plen[tq] += 1
            used = _step_trees(game, s, a, q, tq, player, num_trees, cur, path, plen, used, capacity, key, first,
                               nxt, visits, avail, value, mover)
            depth += 1
            if expanded:
                break

        at_leaf = valued and g_running(game, s)
        if at_leaf:
            for i in range(p):
                g_observe(game, s, i, vobs)
                leaf[i] = network_value(vnet, vobs)
        if at_leaf and value_mix >= 1.0:
            vals[:p] = leaf[:p]
        else:
            g_playout(game, s, rollout_depth, g_clock(game, root) + horizon if horizon > 0 else 1 << 60)
            if g_evaluate(game, s, points):
                vals[:] = 0.0
            else:
                margin_values(points, p, base, scale, weight, vals)
            if at_leaf:
                for i in range(p):
                    vals[i] = (1.0 - value_mix) * vals[i] + value_mix * leaf[i]
        _backup(num_trees, path, plen, vals, visits, value, mover)

    action = _most_visited(my_tree, na, key, first, nxt, visits, value, root_visits)
    if halving > 0:   # the best-scoring of the most visited
        g_mask(game, root, mask)
        best = _halving_child(my_tree, root_visits.max(), na, mask, prior, key, first, nxt, visits, value, scores)
        if best >= 0:
            action = key[best]
    return action
