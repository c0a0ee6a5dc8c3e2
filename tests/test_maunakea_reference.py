"""The Numba core and the plain-Python reference rules, written independently from RULES.md, play the
same 1,000 seeded random games of Mauna Kea and must agree after every step: legal actions, board,
artifacts, explorers, boats, hands, bag, movement pool, lava branches, turn, phase and status, and at
the end scores and rewards in every mode.

Actions are drawn from a numpy generator, not from the core's own generator, because the game's
chance (the bag, lava) uses that generator and both sides must see the same draws."""
import numpy as np
import pytest

from maunakea_env import core
from maunakea_env.reference import ReferenceGame

STATUS_NAMES = {"placement": core.PHASE_PLACEMENT, "turn": core.PHASE_TURN, "over": core.PHASE_OVER}
EXPLORER_STATUS = {"unplaced": core.UNPLACED, "island": core.ON_ISLAND, "boat": core.IN_BOAT,
                   "lost": core.LOST}


def core_view(state, n):
    per = core.MAX_EXPLORERS
    e = int(state[core.EXPLORERS_EACH])
    mask = np.zeros(core.NUM_ACTIONS, dtype=np.int8)
    core.legal_action_mask(state, mask)
    boats = [[] for _ in range(n)]
    for b in range(core.NUM_BOATS):
        owner = state[core.BOAT_OWNER + b]
        if owner >= 0:
            boats[owner].append((b, state[core.BOAT_LOAD + 3 * b: core.BOAT_LOAD + 3 * b + 3].tolist()))
    branches = []
    for flow in range(4):
        branches.append(sorted((int(state[core.BRANCH_FIELD + 2 * flow + b]),
                                int(state[core.BRANCH_DIRECTION + 2 * flow + b]),
                                int(state[core.BRANCH_LENGTH + 2 * flow + b]))
                               for b in range(2) if state[core.BRANCH_OPEN + 2 * flow + b] == 1))
    return {
        "legal": np.flatnonzero(mask).tolist(),
        "phase": int(state[core.PHASE]),
        "to_act": int(state[core.TO_ACT]) if state[core.STATUS] == core.STATUS_RUNNING else None,
        "turns": int(state[core.TURN]),
        "status": int(state[core.STATUS]),
        "pool": int(state[core.POOL]),
        "end_triggered": bool(state[core.END_TRIGGERED]),
        "end_reason": core.END_REASON_NAMES[state[core.END_REASON]] or None,
        "terrain": state[core.TERRAIN:core.TERRAIN + 324].tolist(),
        "artifacts": state[core.ARTIFACTS:core.ARTIFACTS + 972].reshape(324, 3).tolist(),
        "explorers": [[int(state[core.EXPLORER_SQUARE + p * per + i]) for i in range(e)] for p in range(n)],
        "explorer_status": [[int(state[core.EXPLORER_STATUS + p * per + i]) for i in range(e)] for p in range(n)],
        "carried": [[state[core.CARRIED + 3 * (p * per + i): core.CARRIED + 3 * (p * per + i) + 3].tolist()
                     for i in range(e)] for p in range(n)],
        "landing_boat": state[core.LANDING_BOAT:core.LANDING_BOAT + 8].tolist(),
        "boats": boats,
        "hands": [state[core.HAND + 5 * p: core.HAND + 5 * p + state[core.HAND_SIZE + p]].tolist() for p in range(n)],
        "bag": sorted(t for t in range(94) if state[core.TILE_WHERE + t] == core.IN_BAG),
        "branches": branches,
        "removed_artifacts": state[core.REMOVED_ARTIFACTS:core.REMOVED_ARTIFACTS + 3].tolist(),
    }


def reference_view(game):
    n = game.num_players
    status = core.STATUS_TERMINATED if game.terminated else (
        core.STATUS_TRUNCATED if game.truncated else core.STATUS_RUNNING)
    branches = [sorted((b["end_field"], b["direction"], b["length"]) for b in flow if b["open"])
                for flow in game.lava_branches]
    return {
        "legal": game.legal_actions() if game.phase != "over" else [],
        "phase": STATUS_NAMES[game.phase],
        "to_act": game.to_act,
        "turns": game.turns,
        "status": status,
        "pool": game.pool if game.phase != "over" else 0,
        "end_triggered": game.end_triggered,
        "end_reason": game.end_reason,
        "terrain": list(game.terrain),
        "artifacts": [list(a) for a in game.artifacts],
        "explorers": [[-1 if s is None else s for s in squares] for squares in game.explorers],
        "explorer_status": [[EXPLORER_STATUS[s] for s in row] for row in game.explorer_status],
        "carried": [[list(c) for c in row] for row in game.carried],
        "landing_boat": [-1 if b is None else b for b in game.landing_boat],
        "boats": [[(b, list(load)) for b, load in sorted(row)] for row in game.boats_taken],
        "hands": [list(h) for h in game.hands],
        "bag": sorted(game.bag),
        "branches": branches,
        "removed_artifacts": list(game.artifacts_removed),
    }


def play(num_players, max_turns, seed, counts):
    state = np.zeros(core.STATE_SIZE, dtype=np.int64)
    core.init(state, num_players, core.VARIANT_BASIC, max_turns, seed)
    game = ReferenceGame(num_players=num_players, max_turns=max_turns, seed=seed)
    rng = np.random.default_rng(seed)
    steps = 0
    while True:
        mine, theirs = core_view(state, num_players), reference_view(game)
        for field in mine:
            assert mine[field] == theirs[field], (
                f"{field} differs: {num_players} players, max_turns={max_turns}, seed={seed}, after "
                f"{steps} steps\ncore      {mine[field]}\nreference {theirs[field]}")
        if game.phase == "over":
            break
        legal = theirs["legal"]
        action = int(legal[rng.integers(len(legal))])
        counts["boardings"] += core.BOARD_BASE <= action < core.END_TURN
        core.step(state, action)
        game.step(action)
        steps += 1
    counts["lava placed"] += sum(1 for t in range(70, 94) if state[core.TILE_WHERE + t] == core.ON_BOARD)
    counts["ended by the rules"] += bool(state[core.STATUS] == core.STATUS_TERMINATED)
    scores = np.zeros(num_players, dtype=np.float64)
    core.player_scores(state, scores)
    assert scores.tolist() == game.scores()
    for mode, name in enumerate(("win_loss", "score", "margin")):
        core.rewards(state, mode, scores)
        assert scores.tolist() == game.rewards(name), (name, seed)


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_core_and_reference_agree_step_by_step(num_players):
    counts = {"boardings": 0, "lava placed": 0, "ended by the rules": 0}
    # many short games (set-up, placement, the first turns) and some played to the end
    for seed in range(300):
        play(num_players, 4 + seed % 5, 10_000 * num_players + seed, counts)
    for seed in range(34):
        play(num_players, 300, 20_000 * num_players + seed, counts)
    assert counts["boardings"] > 0 and counts["lava placed"] > 0 and counts["ended by the rules"] > 0, counts
