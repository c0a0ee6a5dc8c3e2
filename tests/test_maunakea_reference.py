"""The Numba core and the plain-Python reference rules, written independently from RULES.md, play the
same seeded random games of Mauna Kea (nearly a thousand with the basic rules, and some with the rules
for advanced players) and must agree after every step, the final position included, on:

- the legal actions, the phase, the player to act (``TO_ACT`` and ``player_to_act``), the turn, the
  status, the end trigger and its reason, and the turns still to be played once it is triggered (with
  the documented offset of one, see ``reference_view``);
- the board: terrain, the tile on every field with its rotation, artifacts, the explorer on every
  square, lava branches, boats still at their landings, artifacts removed by lava;
- the explorers (square, status, carried artifacts), the boats taken and their loads, the hands, the
  bag, the tiles out of the game, the supply flag, the movement pool, the pick-ups and drops made this
  turn (at most 20, RULES.md) and the game's generator;
- the derived quantities: hand points, explorers on the island, the player scores and the rewards in
  every mode (zero until the game ends by the rules), and at the first decision of every turn and at
  the end ``settled()``.

Moves are drawn by ``core.random_action`` from the game's own generator.  That generator also draws
from the bag and decides the lava, so the reference makes the same draw (one ``draw(count)`` over its
sorted legal actions, the order the core walks them in) and must pick the same action.  In a few
"busy" games the move played is most often a pick-up or a drop instead (the random action is still
drawn and checked), so that turns run into the limit of free actions.  Every few steps both must
refuse the same illegal action (the core's state untouched), and once the game is over both must
refuse any further action.

The advanced games check here what tests/test_maunakea_advanced_reference.py does not compare; the
cards and the rest of the advanced rules are compared there."""
import random
from collections import Counter

import numpy as np
import pytest

from maunakea_env import core
from maunakea_env import kernels  # the queries below, on a row the core has just checked
from maunakea_env.reference import ReferenceGame
from pacific_common.ends import END_NAMES

PHASES = {"placement": core.PHASE_PLACEMENT, "turn": core.PHASE_TURN, "over": core.PHASE_OVER,
          # the rules for advanced players only
          "cards": core.PHASE_CARDS, "card_move": core.PHASE_CARD_MOVE,
          "quake_draw": core.PHASE_QUAKE_DRAW, "quake_lay": core.PHASE_QUAKE_LAY}
EXPLORER_STATUS = {"unplaced": core.UNPLACED, "island": core.ON_ISLAND, "boat": core.IN_BOAT,
                   "lost": core.LOST, "rescued": core.RESCUED}
VARIANTS = {"basic": core.VARIANT_BASIC, "advanced": core.VARIANT_ADVANCED}
REWARD_MODES = ("win_loss", "score", "margin")     # core.REWARD_WIN_LOSS, _SCORE, _MARGIN
MASK64 = (1 << 64) - 1
START_TILE_OFFSET = 94          # the core numbers start tile s as tile 94 + s
PROBE_EVERY = 11                # steps between two illegal-action probes


def core_board(state, n):
    """What both cross-checks read off the core's island (``reference_board`` is the other side)."""
    row = state.tolist()                                # plain ints, read quickly below

    def part(offset, length):
        return row[offset:offset + length]

    per = core.MAX_EXPLORERS
    e = row[core.EXPLORERS_EACH]
    boats = [[] for _ in range(n)]
    for b in range(core.NUM_BOATS):
        owner = row[core.BOAT_OWNER + b]
        if owner >= 0:
            boats[owner].append((b, part(core.BOAT_LOAD + 3 * b, 3)))
    branches = []
    for flow in range(4):
        branches.append(sorted((row[core.BRANCH_FIELD + i], row[core.BRANCH_DIRECTION + i],
                                row[core.BRANCH_LENGTH + i])
                               for i in (2 * flow, 2 * flow + 1) if row[core.BRANCH_OPEN + i] == 1))
    where = state[core.TILE_WHERE:core.TILE_WHERE + 94]
    return {
        "status": row[core.STATUS],
        "supply_out": row[core.SUPPLY_OUT],
        "terrain": part(core.TERRAIN, 324),
        "fields": [(tile, rotation if tile >= 0 and (tile < 70 or tile >= START_TILE_OFFSET) else None)
                   for tile, rotation in zip(part(core.FIELD_TILE, 81), part(core.FIELD_ROTATION, 81))],
        "artifacts": state[core.ARTIFACTS:core.ARTIFACTS + 972].reshape(324, 3).tolist(),
        "occupants": part(core.OCCUPANT, 324),
        "explorers": [part(core.EXPLORER_SQUARE + p * per, e) for p in range(n)],
        "explorer_status": [part(core.EXPLORER_STATUS + p * per, e) for p in range(n)],
        "carried": [[part(core.CARRIED + 3 * (p * per + i), 3) for i in range(e)] for p in range(n)],
        "landing_boat": part(core.LANDING_BOAT, 8),
        "boats": boats,
        "hands": [part(core.HAND + 5 * p, row[core.HAND_SIZE + p]) for p in range(n)],
        "bag": np.flatnonzero(where == core.IN_BAG).tolist(),
        "removed_tiles": np.flatnonzero(where == core.REMOVED).tolist(),
        "branches": branches,
        "removed_artifacts": part(core.REMOVED_ARTIFACTS, 3),
        "rng": row[core.RNG] & MASK64,
    }


def core_view(state, n, turn_start):
    mask = np.zeros(core.NUM_ACTIONS_OF_VARIANT[state[core.VARIANT]], dtype=np.int8)
    core.legal_action_mask(state, mask)                 # also checks the row (kernels.validate)
    running = state[core.STATUS] == core.STATUS_RUNNING
    scores = np.zeros(n, dtype=np.float64)
    kernels.player_scores(state, scores)
    view = {
        "legal": np.flatnonzero(mask).tolist(),
        "phase": int(state[core.PHASE]),
        "to_act": int(state[core.TO_ACT]) if running else None,
        "player_to_act": int(kernels.player_to_act(state)),
        "turns": int(state[core.TURN]),
        "pool": int(state[core.POOL]),
        "free_actions": int(state[core.FREE_ACTIONS]),
        "end_triggered": bool(state[core.END_TRIGGERED]),
        "final_turns_left": int(state[core.FINAL_TURNS_LEFT]),
        "end_reason": core.END_REASON_NAMES[state[core.END_REASON]] or None,
        "end": END_NAMES[core.end_code(state)],
        **core_board(state, n),
        "hand_points": [int(kernels.hand_points(state, p)) for p in range(n)],
        "on_island": [int(kernels.explorers_on_island(state, p)) for p in range(n)],
        "scores": scores.tolist(),
    }
    for mode, name in enumerate(REWARD_MODES):
        kernels.rewards(state, mode, scores)
        view["rewards " + name] = scores.tolist()
    if turn_start:
        view["settled"] = bool(kernels.settled(state))
    return view


def reference_board(game):
    """What both cross-checks read off the reference's island, in the core's numbering."""
    fields = []
    for tile in game.field_tile:
        if not isinstance(tile, tuple):
            fields.append((-1, None))                      # an empty tile space or a printed field
        elif tile[0] == "lava":
            fields.append((tile[1], None))
        else:
            fields.append((tile[1] + (START_TILE_OFFSET if tile[0] == "start" else 0), tile[2]))
    return {
        "status": core.STATUS_TERMINATED if game.terminated else (
            core.STATUS_TRUNCATED if game.truncated else core.STATUS_RUNNING),
        # the core's flag: 1 the bag is empty, 2 and that triggered the end (advanced only)
        "supply_out": 2 if game.supply_out else int(not game.bag),
        "terrain": game.terrain,
        "fields": fields,
        "artifacts": game.artifacts,
        "occupants": [-1 if who is None else 8 * who[0] + who[1] for who in game.occupants()],
        "explorers": [[-1 if s is None else s for s in squares] for squares in game.explorers],
        "explorer_status": [[EXPLORER_STATUS[s] for s in row] for row in game.explorer_status],
        "carried": [[list(c) for c in row] for row in game.carried],
        "landing_boat": [-1 if b is None else b for b in game.landing_boat],
        "boats": [[(b, list(load)) for b, load in sorted(row)] for row in game.boats_taken],
        "hands": [list(h) for h in game.hands],
        "bag": sorted(game.bag),
        # out of the game: spent (advanced), discarded lava, and island tiles covered by lava (the
        # core counts a covered tile as removed; the reference keeps it under the lava)
        "removed_tiles": sorted(game.removed + [t[1] for stack in game.covered for t in stack
                                                if isinstance(t, tuple) and t[0] != "start"]),
        "branches": [sorted((b["end_field"], b["direction"], b["length"]) for b in flow if b["open"])
                     for flow in game.lava_branches],
        "removed_artifacts": list(game.artifacts_removed),
        "rng": game.rng.state,
    }


def reference_view(game, turn_start):
    n = game.num_players
    over = game.phase == "over"
    view = {
        "legal": game.legal_actions() if not over else [],
        "phase": PHASES[game.phase],
        "to_act": game.to_act,
        "player_to_act": -1 if game.to_act is None else game.to_act,
        "turns": game.turns,
        "pool": game.pool if not over else 0,
        "free_actions": game.free_actions if not over else 0,
        "end_triggered": game.end_triggered,
        # A documented offset, not a divergence: the core counts the current turn too ("N turn(s)
        # left, this one included", render.py), the reference only the turns after it.  So once the
        # end is triggered core = reference + 1, until the game ends by the rules (both 0 then); a game
        # truncated meanwhile keeps the offset.
        "final_turns_left": game.final_turns_left + (game.end_triggered and not game.terminated),
        "end_reason": game.end_reason,
        "end": game.end,
        **reference_board(game),
        "hand_points": [game.hand_points(p) for p in range(n)],
        "on_island": [len(game.on_island(p)) for p in range(n)],
        "scores": [float(s) for s in game.scores()],
    }
    for name in REWARD_MODES:
        view["rewards " + name] = game.rewards(name)
    if turn_start:
        view["settled"] = game.settled()    # a search over the island: once a turn is enough
    return view


def play(num_players, max_turns, seed, counts, busy=False, variant="basic"):
    """One game through both sides, compared after every step.  ``busy``: four times in five the move
    played is a pick-up or a drop when one is legal (not the random action, though that is still drawn
    and checked), so that turns reach the limit of 20 free actions."""
    state = np.zeros(core.STATE_SIZE, dtype=np.int64)
    core.init(state, num_players, VARIANTS[variant], max_turns, seed)
    game = ReferenceGame(num_players=num_players, max_turns=max_turns, seed=seed, variant=variant)
    num_actions = core.NUM_ACTIONS_OF_VARIANT[VARIANTS[variant]]
    choose = random.Random(seed)
    steps = 0
    turn = None

    def where():
        return (f"{variant}, {num_players} players, max_turns={max_turns}, seed={seed}, busy={busy}, "
                f"after {steps} steps")

    while True:
        turn_start = (game.turns, game.to_act) != turn or game.phase == "over"
        turn = (game.turns, game.to_act)
        mine, theirs = core_view(state, num_players, turn_start), reference_view(game, turn_start)
        assert mine.keys() == theirs.keys()
        for field in mine:
            assert mine[field] == theirs[field], (
                f"{field} differs: {where()}\ncore      {mine[field]}\nreference {theirs[field]}")
        if game.phase == "over":
            break
        legal = theirs["legal"]
        if steps % PROBE_EVERY == 0:
            # both refuse the same illegal action (one just outside the action space included), and
            # the core's state does not change
            bad = choose.randrange(-1, num_actions + 1)
            while bad in legal:
                bad = choose.randrange(-1, num_actions + 1)
            before = state.copy()
            assert core.step(state, bad) == core.STEP_ILLEGAL, (bad, where())
            assert (state == before).all(), (bad, where())
            with pytest.raises(ValueError):
                game.step(bad)
        action = int(core.random_action(state))
        expected = legal[game.rng.draw(len(legal))]
        assert action == expected, f"random_action {action}, reference {expected}: {where()}"
        free = [a for a in legal if core.PICK_BASE <= a < core.BOARD_BASE]
        if busy and free and choose.random() < 0.8:
            action = choose.choice(free)
        counts["boardings"] += core.BOARD_BASE <= action < core.END_TURN
        counts["free actions"] += core.PICK_BASE <= action < core.BOARD_BASE
        assert core.step(state, action) == core.STEP_OK, where()
        game.step(action)
        steps += 1
        counts["steps while the end is triggered"] += game.end_triggered and game.phase != "over"
        counts["steps at the free-action limit"] += game.free_actions == core.FREE_ACTIONS_PER_TURN
    counts["lava placed"] += sum(1 for t in range(70, 94) if state[core.TILE_WHERE + t] == core.ON_BOARD)
    counts["ended by the rules"] += game.terminated
    counts[f"ended: {game.end_reason}"] += game.terminated
    # once the game is over, both refuse every action (the core's state untouched)
    before = state.copy()
    assert core.step(state, core.END_TURN) == core.STEP_GAME_OVER, where()
    assert (state == before).all(), where()
    with pytest.raises(ValueError):
        game.step(core.END_TURN)


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_core_and_reference_agree_step_by_step(num_players):
    counts = Counter()
    # many short games (set-up, placement, the first turns) and some played to the end
    for seed in range(300):
        play(num_players, 4 + seed % 5, 10_000 * num_players + seed, counts)
    for seed in range(26):
        play(num_players, 300, 20_000 * num_players + seed, counts)
    # and a few with many pick-ups and drops
    for seed in range(3):
        play(num_players, 40, 25_000 * num_players + seed, counts, busy=True)
    for name in ("boardings", "free actions", "steps at the free-action limit", "lava placed",
                 "ended by the rules", "steps while the end is triggered"):
        assert counts[name] > 0, (name, dict(counts))


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_core_and_reference_agree_step_by_step_advanced(num_players):
    """Games with the rules for advanced players (played to their end, which comes early) through the
    same comparison: it holds what tests/test_maunakea_advanced_reference.py leaves out (the free
    actions, the turns left after the trigger, the derived quantities, the scores and rewards before the
    end, the refusals once the game is over)."""
    counts = Counter()
    for seed in range(15):
        play(num_players, 300, 70_000 * num_players + seed, counts, busy=seed % 5 == 0, variant="advanced")
    for name in ("free actions", "steps at the free-action limit", "ended by the rules",
                 "ended: supply used up", "steps while the end is triggered"):
        assert counts[name] > 0, (name, dict(counts))
