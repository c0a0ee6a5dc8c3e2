"""The Numba core and the plain-Python reference rules play the same seeded random games of Mauna Kea
with the rules for advanced players (``variant="advanced"``) and must agree after every step: legal
actions, board (terrain, tiles and their rotation, artifacts, occupants), explorers and their status,
carried artifacts, boats, hands, bag, cards held by kind, played action cards, helicopter artifacts, the
movement card or earthquake tile waiting for a decision, phase, player to act, status; at the end the
scores with and without the task cards and the rewards in every mode.

The reference (``maunakea_env/reference.py``) was written from the rulebook, RULINGS.md and RULES.md
without reading the core's advanced rules code.

Moves are drawn by ``core.random_action`` from the game's own generator.  That generator also deals the
cards and draws from the bag, so the reference makes the same draw (one ``draw(count)`` over its sorted
legal actions, the order the core walks them in) and must pick the same action; both generators are
compared after every step.  Crafted positions (the same change written into both sides) add what random
play seldom reaches: the bag running out during an earthquake, an earthquake's tile going back into the
bag of a full board, boats taken (the end by boarding) and the task cards at the scoring; injected end
positions cross-check the scoring with the task cards on their own."""
from collections import Counter

import numpy as np
import pytest

from maunakea_env import board as B
from maunakea_env import kernels as core  # crafted rows no game reaches (injected ends): the unchecked kernels
from maunakea_env.reference import NUM_ACTIONS_ADVANCED, ReferenceGame
from test_maunakea_reference import EXPLORER_STATUS, PHASES, core_board, reference_board

NUM_KINDS = 18


def core_view(state, n):
    mask = np.zeros(core.NUM_ACTIONS_ADVANCED, dtype=np.int8)
    core.legal_action_mask(state, mask)
    running = state[core.STATUS] == core.STATUS_RUNNING
    return {
        "legal": np.flatnonzero(mask).tolist(),
        "phase": int(state[core.PHASE]),
        "to_act": int(state[core.TO_ACT]) if running else None,
        "turns": int(state[core.TURN]),
        "pool": int(state[core.POOL]) if running else 0,
        "end_triggered": bool(state[core.END_TRIGGERED]),
        "end_reason": core.END_REASON_NAMES[state[core.END_REASON]] or None,
        **core_board(state, n),
        "cards": [state[core.CARDS + NUM_KINDS * p: core.CARDS + NUM_KINDS * (p + 1)].tolist() for p in range(n)],
        "removed_cards": [state[core.REMOVED_CARDS + NUM_KINDS * p: core.REMOVED_CARDS + NUM_KINDS * (p + 1)].tolist()
                          for p in range(n)],
        "played": [state[core.PLAYED + 5 * p: core.PLAYED + 5 * (p + 1)].tolist() for p in range(n)],
        "rescued_artifacts": [state[core.RESCUED_ARTIFACTS + 3 * p: core.RESCUED_ARTIFACTS + 3 * (p + 1)].tolist()
                              for p in range(n)],
        "card_move": (int(state[core.CARD_MOVE_KIND]), int(state[core.CARD_MOVE_EXPLORER])),
        "quake_tile": int(state[core.QUAKE_TILE]),
    }


def reference_view(game):
    n = game.num_players
    return {
        "legal": game.legal_actions(),
        "phase": PHASES[game.phase],
        "to_act": game.to_act,
        "turns": game.turns,
        "pool": game.pool if game.phase != "over" else 0,
        "end_triggered": game.end_triggered,
        "end_reason": game.end_reason,
        **reference_board(game),
        "cards": [list(c) for c in game.cards],
        "removed_cards": [[sum(1 for out in game.cards_out if out == ("removed", p, kind)) for kind in range(NUM_KINDS)]
                          for p in range(n)],
        "played": [list(c) for c in game.played],
        "rescued_artifacts": [list(c) for c in game.rescued_artifacts],
        "card_move": game.card_move if game.card_move is not None else (-1, -1),
        "quake_tile": game.quake_tile if game.quake_tile is not None else -1,
    }


def play(num_players, max_turns, seed, counts, craft=None):
    """Play one game on both sides with ``core.random_action``, comparing after every step.

    ``craft(state, game)``, if given, is called before every step: it may change both sides
    alike (a crafted position) and return an action to play instead of a random one (no draw then)."""
    state = np.zeros(core.STATE_SIZE, dtype=np.int64)
    core.init(state, num_players, core.VARIANT_ADVANCED, max_turns, seed)
    game = ReferenceGame(num_players=num_players, max_turns=max_turns, seed=seed, variant="advanced")
    steps = 0

    def where():
        return f"{num_players} players, max_turns={max_turns}, seed={seed}, after {steps} steps"

    while True:
        mine, theirs = core_view(state, num_players), reference_view(game)
        for field in mine:
            assert mine[field] == theirs[field], (
                f"{field} differs: {where()}\ncore      {mine[field]}\nreference {theirs[field]}")
        if game.phase == "over":
            break
        legal = theirs["legal"]
        forced = None
        if craft is not None:
            forced = craft(state, game)
            mine, theirs = core_view(state, num_players), reference_view(game)
            for field in mine:
                assert mine[field] == theirs[field], (
                    f"{field} differs after crafting: {where()}\ncore      {mine[field]}\n"
                    f"reference {theirs[field]}")
            legal = theirs["legal"]
        if forced is not None:
            action = forced
            assert action in legal, (action, where())
        else:
            action = int(core.random_action(state))
            expected = legal[game.rng.draw(len(legal))]
            assert action == expected, f"random_action {action}, reference {expected}: {where()}"
        counts["phase " + game.phase] += 1
        if steps % 23 == 0:
            # both reject the same illegal action (and the core's state does not change)
            illegal = next((a for a in range((seed * 7919 + steps) % NUM_ACTIONS_ADVANCED, NUM_ACTIONS_ADVANCED)
                            if a not in legal), None)
            if illegal is not None:
                before = state.copy()
                assert core.step(state, illegal) == core.STEP_ILLEGAL, (illegal, where())
                assert (state == before).all(), where()
                with pytest.raises(ValueError):
                    game.step(illegal)
        for name, first, last in (("remove card", 2040, 2058), ("movement card", 2058, 2073),
                                  ("helicopter", 2397, 2402), ("earthquake", 2402, 2726),
                                  ("quake draw", 2726, 2727), ("quake lay", 2728, 3052),
                                  ("boarding", core.BOARD_BASE, core.END_TURN)):
            counts[name] += first <= action < last
        assert core.step(state, action) == core.STEP_OK, where()
        game.step(action)
        steps += 1
    counts["games"] += 1
    counts["steps"] += steps
    counts["ended by the rules"] += game.terminated
    counts["ended by the supply"] += game.terminated and game.supply_out
    counts["ended by explorers"] += game.terminated and game.end_reason == "no explorer left"
    counts["ended settled"] += game.terminated and game.end_reason == "settled"
    with_tasks, without_tasks = game.scores(), game.scores_without_tasks()
    counts["task points"] += sum(with_tasks) - sum(without_tasks)
    for p in range(num_players):
        assert core.score(state, p) == with_tasks[p], (p, where())
        assert core.public_score(state, p) == without_tasks[p], (p, where())
        # the core counts "no deduction" inside the boats' score, the reference among the task points
        assert core.score(state, p) - core.public_score(state, p) == game.task_points(p), (p, where())
    scores = np.zeros(num_players, dtype=np.float64)
    core.player_scores(state, scores)
    assert scores.tolist() == with_tasks, where()
    for mode, name in enumerate(("win_loss", "score", "margin")):
        core.rewards(state, mode, scores)
        assert scores.tolist() == game.rewards(name), (name, where())


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_core_and_reference_agree_step_by_step_advanced(num_players):
    counts = Counter()
    # many short games (the deal, the keep-4 decisions, placement, the first turns) ...
    for seed in range(300):
        play(num_players, 3 + seed % 6, 30_000 * num_players + seed, counts)
    # ... and some played to the end
    for seed in range(40):
        play(num_players, 300, 40_000 * num_players + seed, counts)
    assert counts["games"] == 340
    for name in ("remove card", "movement card", "helicopter", "earthquake", "quake draw", "quake lay",
                 "ended by the rules", "ended by the supply"):
        assert counts[name] > 0, (name, dict(counts))


def started_pair(num_players, seed):
    """The core and the reference after the set-up and the explorer placement, in step."""
    state = np.zeros(core.STATE_SIZE, dtype=np.int64)
    core.init(state, num_players, core.VARIANT_ADVANCED, 300, seed)
    game = ReferenceGame(num_players=num_players, seed=seed, variant="advanced")
    while game.phase in ("cards", "placement"):
        legal = game.legal_actions()
        action = int(core.random_action(state))
        assert action == legal[game.rng.draw(len(legal))]
        core.step(state, action)
        game.step(action)
    return state, game


def test_scores_with_task_cards_agree_on_injected_end_positions():
    """[Scoring] with [Task cards]: random boats (with explorers and loads), helicopter rescues and held
    task cards written into both sides; the scores with and without the task cards and the rewards must
    agree.  Random play rarely reaches a boat, so this is where the best assignment of artifacts to the
    artifact-set cards is cross-checked."""
    rng = np.random.default_rng(2024)
    copies = [1] * 7 + [2, 2] + [1] * 4 + [3] * 5
    per = core.MAX_EXPLORERS
    checked = Counter()
    for trial in range(300):
        n = 2 + trial % 3
        state, game = started_pair(n, 50_000 + trial)
        for b in range(core.NUM_BOATS):
            state[core.BOAT_OWNER + b] = -1
        free_boats = list(rng.permutation(core.NUM_BOATS))
        for p in range(n):
            explorers = len(game.explorers[p])
            for e in range(explorers):
                square = game.explorers[p][e]
                fate = rng.choice(["island", "boat", "rescued", "lost"], p=[0.3, 0.4, 0.15, 0.15])
                if fate == "boat" and not free_boats:
                    fate = "island"
                if fate == "island":
                    continue
                if square is not None:
                    state[core.OCCUPANT + square] = -1
                carried = game.carried[p][e]
                game.carried[p][e] = [0, 0, 0]
                state[core.CARRIED + 3 * (p * per + e): core.CARRIED + 3 * (p * per + e) + 3] = 0
                game.explorers[p][e] = None
                state[core.EXPLORER_SQUARE + p * per + e] = -1
                game.explorer_status[p][e] = fate
                state[core.EXPLORER_STATUS + p * per + e] = EXPLORER_STATUS[fate]
                if fate == "boat":
                    b = int(free_boats.pop())
                    room = int(core.BOAT_CAPACITY[b])
                    load = [0, 0, 0]
                    for _ in range(int(rng.integers(room + 1))):
                        load[int(rng.choice(3, p=[0.6, 0.3, 0.1]))] += 1
                    game.boats_taken[p].append((b, load))
                    game.landing_boat = [None if x == b else x for x in game.landing_boat]
                    state[core.BOAT_OWNER + b] = p
                    state[core.BOAT_LOAD + 3 * b: core.BOAT_LOAD + 3 * b + 3] = load
                    for landing in range(8):
                        if state[core.LANDING_BOAT + landing] == b:
                            state[core.LANDING_BOAT + landing] = -1
                elif fate == "rescued":
                    extra = [int(x) for x in rng.integers(0, 2, 3)]
                    for c in range(3):
                        game.rescued_artifacts[p][c] += carried[c] + extra[c]
                    state[core.RESCUED_ARTIFACTS + 3 * p: core.RESCUED_ARTIFACTS + 3 * p + 3] = \
                        game.rescued_artifacts[p]
            # four cards kept, some action cards maybe played: 0 to 4 cards held, mostly task cards
            held = [0] * NUM_KINDS
            for _ in range(int(rng.integers(0, 5))):
                kind = int(rng.integers(13)) if rng.random() < 0.85 else int(rng.integers(13, NUM_KINDS))
                if held[kind] < copies[kind]:
                    held[kind] += 1
            game.cards[p] = held
            state[core.CARDS + NUM_KINDS * p: core.CARDS + NUM_KINDS * (p + 1)] = held
        # the game is over (the tie-break reads the explorers left on the island)
        state[core.STATUS] = core.STATUS_TERMINATED
        state[core.PHASE] = core.PHASE_OVER
        game.terminated, game.phase, game.to_act = True, "over", None
        with_tasks, without_tasks = game.scores(), game.scores_without_tasks()
        for p in range(n):
            assert core.score(state, p) == with_tasks[p], (trial, p, game.cards[p], game.boats_taken[p],
                                                           game.rescued_artifacts[p])
            assert core.public_score(state, p) == without_tasks[p], (trial, p)
            checked["task points"] += with_tasks[p] != without_tasks[p]
        out = np.zeros(n, dtype=np.float64)
        for mode, name in enumerate(("win_loss", "score", "margin")):
            core.rewards(state, mode, out)
            assert out.tolist() == game.rewards(name), (trial, name)
    assert checked["task points"] > 100, checked


# ----------------------------------------------------------------------------------------------------
# Crafted positions: the same change written into both sides, then random play goes on.  They reach
# what random play seldom does: the bag running out during an earthquake, an earthquake's tile going
# back into a full board's bag, and boats taken (the end by boarding, task cards at the scoring).
# ----------------------------------------------------------------------------------------------------
def _remove_from_bag(state, game, tile):
    state[core.TILE_WHERE + tile] = core.REMOVED
    game.bag.remove(tile)
    game.removed.append(tile)


def _fill_field(state, game, f, tile):
    """Lay terrain tile ``tile`` from the bag on empty field ``f``, unturned."""
    squares = B.TERRAIN_TILE_SQUARES[tile].tolist()
    state[core.FIELD_TILE + f] = tile
    state[core.FIELD_ROTATION + f] = 0
    state[core.TILE_WHERE + tile] = core.ON_BOARD
    for i, square in enumerate(B.FIELD_SQUARES[f].tolist()):
        state[core.TERRAIN + square] = squares[i]
        game.terrain[square] = squares[i]
    game.bag.remove(tile)
    game.field_tile[f] = ("terrain", tile, 0)


def _give_card(state, game, p, kind):
    state[core.CARDS + NUM_KINDS * p + kind] += 1
    game.cards[p][kind] += 1


def _first(actions, first, last):
    chosen = [a for a in actions if first <= a < last]
    return chosen[len(chosen) // 2] if chosen else None


def quake_craft(variant):
    """Once, in the third turn or later: leave one tile in the bag ("last lava" / "last terrain"), or
    fill every empty field and leave only terrain tiles ("full board"); give the player to act an
    earthquake card, play it and draw."""
    done = []

    def craft(state, game):
        if done and game.phase == "quake_draw":
            return core.QUAKE_DRAW
        if done or game.phase != "turn" or game.turns < 2 or game.end_triggered:
            return None
        done.append(True)
        bag = sorted(game.bag)
        if variant == "full board":
            terrain = [t for t in bag if t < B.FIRST_LAVA_TILE]
            for f, tile in zip(game.empty_fields(), terrain):
                _fill_field(state, game, f, tile)
            keep = [t for t in game.bag if t < B.FIRST_LAVA_TILE]
        else:
            lava = variant == "last lava"
            keep = [t for t in bag if (t >= B.FIRST_LAVA_TILE) == lava][-1:] or bag[:1]
        for tile in bag:
            if tile in game.bag and tile not in keep:
                _remove_from_bag(state, game, tile)
        _give_card(state, game, game.to_act, B.ACTION_EARTHQUAKE)
        return _first(game.legal_actions(), 2402, 2726)

    return craft


def boarding_craft():
    """Once a turn: one explorer of the player to act picks up what lies next to him (artifacts moved
    from a square nearby), is put on a free entry square of a boat still there (a tile laid there if
    the field is empty), gets a movement point if he has none and boards."""
    turns_done = set()

    def craft(state, game):
        p = game.to_act
        if game.phase != "turn" or game.turns in turns_done or not game.on_island(p):
            return None
        turns_done.add(game.turns)
        e = game.on_island(p)[0]
        occupied = game.occupied_squares()
        for landing in range(8):
            if game.landing_boat[landing] is None:
                continue
            for square in B.LANDING_ENTRY_SQUARES[landing].tolist():
                f = int(B.SQUARE_FIELD[square])
                if square in occupied or game.terrain[square] not in (B.NO_TILE, B.JUNGLE, B.WATER):
                    continue
                if game.terrain[square] == B.NO_TILE:
                    if game.field_tile[f] is not None or not any(t < B.FIRST_LAVA_TILE for t in game.bag):
                        continue
                    tiles = [t for t in sorted(game.bag) if t < B.FIRST_LAVA_TILE]
                    fitting = [t for t in tiles if B.TERRAIN_TILE_SQUARES[t][
                        B.FIELD_SQUARES[f].tolist().index(square)] in (B.JUNGLE, B.WATER)]
                    if not fitting:
                        continue
                    _fill_field(state, game, f, fitting[0])
                # artifacts from the first square that has some go into his hands (at most 3)
                x = p * core.MAX_EXPLORERS + e
                for source in range(324):
                    for c in range(3):
                        while game.artifacts[source][c] > 0 and sum(game.carried[p][e]) < 3:
                            game.artifacts[source][c] -= 1
                            game.carried[p][e][c] += 1
                            state[core.ARTIFACTS + 3 * source + c] -= 1
                            state[core.CARRIED + 3 * x + c] += 1
                    if sum(game.carried[p][e]) >= 3:
                        break
                old = game.explorers[p][e]
                state[core.OCCUPANT + old] = -1
                state[core.OCCUPANT + square] = 8 * p + e
                state[core.EXPLORER_SQUARE + x] = square
                game.explorers[p][e] = square
                if game.pool < 1:
                    game.pool = 1
                    state[core.POOL] = 1
                return core.BOARD_BASE + 8 * e + landing
        return None

    return craft


@pytest.mark.parametrize("variant", ["last lava", "last terrain", "full board", "boarding"])
def test_core_and_reference_agree_on_crafted_positions(variant):
    counts = Counter()
    for seed in range(45):
        craft = boarding_craft() if variant == "boarding" else quake_craft(variant)
        play(2 + seed % 3, 300, 60_000 + seed, counts, craft)
    assert counts["games"] == 45 and counts["ended by the rules"] > 0, dict(counts)
    if variant == "boarding":
        assert counts["boarding"] > 100 and counts["ended by explorers"] > 0 and counts["task points"] > 0, \
            dict(counts)
    else:
        assert counts["quake draw"] > 0, dict(counts)
