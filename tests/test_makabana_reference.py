"""Cross-check of the Numba rules core against the plain-Python reference.

``makabana_env/reference.py`` was written from the rulebook, RULINGS.md and RULES.md without reading
``makabana_env/core.py``; a rule misread in one of them shows up here as a disagreement.

Over a thousand seeded games (2, 3, 4 and 5 players; most with the default ``max_turns``, some
with ``max_turns`` of 1 to 6 so that truncation happens, and some started from the same random, nearly
full board so that colours with nowhere to put their tiki are skipped) are played through both
implementations, the moves being drawn by ``core.random_action`` from the seeded game generator; in
every third default game the move is most often chosen by a biased policy instead (``POLICIES``:
contested spots, take-backs of huts built the same season, tikis on one's own huts), which travels
the rarer paths far more often. After every step the test asserts that both agree on: the legal
actions, huts, tikis, huts in reserve, paint cards in hand, the first player, the seasons completed,
the last-season flag, the phase, the colour to act and the player who controls it, the owner of every
colour and the game status; while the game runs on this season's projects (spot, card shown,
take-back or not: ``PROJECT_SPOT``, ``PROJECT_SHOWN``, ``PROJECT_KIND``); at the first decision of
the tiki phase on every colour's tiki spots; at the first decision of every season and at the end
(the huts only change at the execution) on the colour scores, the player scores and the rewards in
all three modes ("win_loss", "score", "margin"). Both must reject the same illegal action (the core's state
untouched) and, once the game is over, any action; at the end the scores kept in the core's row must
match too. Scores are also compared on built positions, where whole groups of spots belong to one
colour.

The comparison includes the final state. Two terminal-state disagreements it found (the last
season's tikis, the last-season flag of a game that has ended) were core deviations, since fixed;
each keeps a regression test of its own below.
"""
import collections
import random

import numpy as np
import pytest

from makabana_env import core, kernels
from makabana_env.board import HUTS_PER_COLOUR, NEIGHBOURS, NUM_PAINT_CARDS, NUM_SPOTS
from makabana_env.reference import NUM_ACTIONS, NUM_SHOWN, TAKE_BACK_BASE, TIKI_BASE, Project, ReferenceGame
from pacific_common.ends import END_NAMES

# the reference's phase names; Mao's own phases too, for the Mao cross-check that shares board_view
PHASE_NAMES = {core.PHASE_PROJECT: "project", core.PHASE_TIKI: "tiki", core.PHASE_OVER: "over",
               core.PHASE_DENOUNCE: "denounce", core.PHASE_PAYBACK: "payback",
               core.PHASE_REPAINT: "repaint", core.PHASE_EXECUTE: "execute"}
STATUS_NAMES = {core.STATUS_RUNNING: "running", core.STATUS_TERMINATED: "terminated",
                core.STATUS_TRUNCATED: "truncated"}
REWARD_MODES = {"win_loss": core.REWARD_WIN_LOSS, "score": core.REWARD_SCORE,
                "margin": core.REWARD_MARGIN}

GAMES_PER_PLAYER_COUNT = 240      # with the default max_turns of 100; every third one biased (POLICIES)
SHORT_GAMES_PER_PLAYER_COUNT = 20  # with max_turns 1..6, to exercise truncation
CROWDED_GAMES_PER_PLAYER_COUNT = 60  # from a nearly full board, to exercise skipped tiki turns


def none_if_negative(value):
    return None if value < 0 else value


def board_view(state, num_actions):
    """What both variants' cores show alike, in the reference's terms, and the row as plain ints."""
    mask = np.zeros(num_actions, dtype=np.int8)
    core.legal_action_mask(state, mask)                 # also checks the row (kernels.validate)
    row = state.tolist()                                # plain ints, read quickly below
    n = row[core.NUM_COLOURS]
    return {
        "legal": np.flatnonzero(mask).tolist(),
        "huts": [none_if_negative(h) for h in row[core.HUT:core.HUT + NUM_SPOTS]],
        "tikis": [none_if_negative(t) for t in row[core.TIKI:core.TIKI + NUM_SPOTS]],
        "reserve": row[core.RESERVE:core.RESERVE + n],
        "paints": row[core.PAINTS:core.PAINTS + n],
        "first": row[core.FIRST],
        "season": row[core.SEASON],
        "last_season": bool(row[core.LAST_SEASON]),
        "phase": PHASE_NAMES[row[core.PHASE]],
        "to_act": none_if_negative(row[core.TO_ACT]),
        "player_to_act": none_if_negative(int(kernels.player_to_act(state))),
        "status": STATUS_NAMES[row[core.STATUS]],
    }, row


def assert_same_refusal(state, game, num_actions, legal, pick, where):
    """Both refuse the same illegal action (or one outside the action space), the core untouched."""
    bad = pick.choice(sorted(set(range(-1, num_actions + 1)) - set(legal)))
    before = state.copy()
    assert core.step(state, bad) == core.STEP_ILLEGAL, f"core accepted illegal {bad} ({where})"
    assert (state == before).all(), f"the illegal {bad} changed the core ({where})"
    with pytest.raises(ValueError):
        game.step(bad)


def core_view(state, phase_start):
    """The core's state in the reference's terms."""
    view, row = board_view(state, core.NUM_ACTIONS)
    n = row[core.NUM_COLOURS]
    over = row[core.PHASE] == core.PHASE_OVER
    view["owner"] = [int(kernels.owner(state, c)) for c in range(n)]
    view["end"] = END_NAMES[core.end_code(state)]
    if not over:
        # this season's projects submitted so far: spot, card shown, take-back or not (once the game is
        # over the core has cleared them and the reference keeps the last season's: not compared)
        view["projects"] = [None if row[core.PROJECT_KIND + c] < 0 else
                            (row[core.PROJECT_SPOT + c], row[core.PROJECT_SHOWN + c],
                             row[core.PROJECT_KIND + c] == core.TAKE_BACK) for c in range(n)]
    if not phase_start:
        return view
    # At the first decision of every phase: in the tiki phase every colour's tiki spots (bit sets);
    # otherwise (a new season, or the end) the score of the board as it stands, the huts changing only
    # at the execution.
    if row[core.PHASE] == core.PHASE_TIKI:
        view["tiki_spots"] = [int(kernels.tiki_spots(state, c)) for c in range(n)]
        return view
    view["colour_scores"] = [int(kernels.colour_score(state, c)) for c in range(n)]
    players = np.zeros(row[core.NUM_PLAYERS], dtype=np.int64)
    kernels.player_scores(state, players)
    view["player_scores"] = players.tolist()
    for name, mode in REWARD_MODES.items():
        out = np.zeros(len(players), dtype=np.float64)
        kernels.rewards(state, mode, out)
        view["rewards_" + name] = out.tolist()
    return view


def reference_view(game, phase_start):
    status = "terminated" if game.terminated else "truncated" if game.truncated else "running"
    over = game.phase == "over"
    view = {
        "legal": game.legal_actions(),
        "huts": list(game.huts),
        "tikis": list(game.tikis),
        "reserve": list(game.reserve),
        "paints": list(game.paints),
        "first": game.first,
        "season": game.season,
        "last_season": game.last_season,
        "phase": game.phase,
        "to_act": game.to_act,
        "player_to_act": None if over else game.owner(game.to_act),
        "owner": [game.owner(c) for c in range(game.num_colours)],
        "status": status,
        "end": game.end,
    }
    if not over:
        view["projects"] = [None if p is None else (p.spot, p.shown, p.take_back) for p in game.projects]
    if not phase_start:
        return view
    if game.phase == "tiki":
        view["tiki_spots"] = [sum(1 << s for s in game._tiki_spots(c)) for c in range(game.num_colours)]
        return view
    view["colour_scores"] = game.colour_scores()
    view["player_scores"] = game.player_scores()
    for name in REWARD_MODES:
        view["rewards_" + name] = game.rewards(name)
    return view


def new_pair(num_players, max_turns, seed):
    state = np.zeros(core.STATE_SIZE, dtype=np.int64)
    core.init(state, num_players, core.VARIANT_HAAPII, max_turns, seed)
    return state, ReferenceGame(num_players, max_turns)


def final_results(state, game):
    """(core, reference) colour scores, player scores and rewards of a finished game."""
    n, p = game.num_colours, game.num_players
    core_players = np.zeros(p, dtype=np.int64)
    core.player_scores(state, core_players)
    core_side = {"colour_scores": state[core.SCORE:core.SCORE + n].tolist(),
                 "player_scores": core_players.tolist()}
    ref_side = {"colour_scores": game.colour_scores(), "player_scores": game.player_scores()}
    for name, mode in REWARD_MODES.items():
        out = np.zeros(p, dtype=np.float64)
        core.rewards(state, mode, out)
        core_side["rewards_" + name] = out.tolist()
        ref_side["rewards_" + name] = game.rewards(name)
    return core_side, ref_side


def crowd_the_board(state, game, seed):
    """Give both implementations the same random, nearly full board (and random paint cards), so that
    the rare paths get exercised: colours with nowhere to put their tiki, whole tiki phases skipped."""
    rng = random.Random(seed)
    n = game.num_colours
    spots = [s for s in range(NUM_SPOTS) if game.in_play(s)]
    rng.shuffle(spots)
    left = [HUTS_PER_COLOUR - 1] * n  # keep one hut each, so that the game has not ended already
    for spot in spots[rng.randint(0, 4):]:
        colours = [c for c in range(n) if left[c] > 0]
        if colours:
            colour = rng.choice(colours)
            left[colour] -= 1
            game.huts[spot] = colour
            state[core.HUT + spot] = colour
    for colour in range(n):
        game.reserve[colour] = left[colour] + 1
        state[core.RESERVE + colour] = left[colour] + 1
        game.paints[colour] = rng.randint(0, NUM_PAINT_CARDS)
        state[core.PAINTS + colour] = game.paints[colour]


def project_of(action):
    """The project a project-phase action submits."""
    take_back = action >= TAKE_BACK_BASE
    spot, shown = divmod(action - TAKE_BACK_BASE * take_back, NUM_SHOWN)
    return Project(spot, shown, take_back)


def spot_of(action):
    """The spot a project-phase action names (construction or take-back)."""
    return action % TAKE_BACK_BASE // NUM_SHOWN


def contested(game, legal, rng):
    """Constructions on the first three empty spots, take-backs of other colours' huts, tikis on the
    first spot they may take: two constructions on one spot, constructions stopped by a tiki."""
    colour = game.to_act
    if game.phase == "project":
        takes = [a for a in legal
                 if a >= TAKE_BACK_BASE and game.huts[spot_of(a)] not in (None, colour)]
        if takes and rng.random() < 0.5:
            return rng.choice(takes)
        empty = [s for s in range(NUM_SPOTS) if game.in_play(s) and game.huts[s] is None][:3]
        builds = [a for a in legal if a < TAKE_BACK_BASE and spot_of(a) in empty]
        return rng.choice(builds or legal)
    own = [a for a in legal if game.huts[a - TIKI_BASE] == colour]
    return rng.choice(own) if own and rng.random() < 0.5 else legal[0]


def rush(game, legal, rng):
    """Constructions on empty spots; take-backs of the spot an earlier colour builds on this season
    (read from its project); tikis away from the spots named: take-backs of a hut built the same
    season, reserves running out."""
    if game.phase == "project":
        planned = {p.spot for p in game.projects if p is not None and not p.take_back}
        takes = [a for a in legal if a >= TAKE_BACK_BASE and spot_of(a) in planned]
        if takes and rng.random() < 0.7:
            return rng.choice(takes)
        builds = [a for a in legal if a < TAKE_BACK_BASE and game.huts[spot_of(a)] is None]
        return rng.choice(builds or legal)
    named = {p.spot for p in game.projects}
    free = [a for a in legal if game.huts[a - TIKI_BASE] is None and a - TIKI_BASE not in named]
    return rng.choice(free or legal)


def own_tikis(game, legal, rng):
    """Tikis on the colour's own huts whenever a shown paint card allows it [3.b]."""
    own = [a for a in legal if a >= TIKI_BASE and game.huts[a - TIKI_BASE] == game.to_act]
    return rng.choice(own or legal)


# Biased move choices (each takes its own move 85% of the time, else the core's random action).
POLICIES = (contested, rush, own_tikis)


def play_and_compare(num_players, max_turns, seed, events, crowded=False, policy=None):
    """Play one game through both implementations, asserting agreement after every step.  The moves
    are the core's random actions, or with ``policy`` mostly that policy's choice."""
    state, game = new_pair(num_players, max_turns, seed)
    if crowded:
        crowd_the_board(state, game, seed)
    pick = random.Random(seed)  # chooses which illegal action to try, and the biased moves
    steps = 0
    tiki_turns = 0
    last_phase = None
    while True:
        phase_start = (game.season, game.phase) != last_phase
        last_phase = (game.season, game.phase)
        core_side, ref_side = core_view(state, phase_start), reference_view(game, phase_start)
        where = (f"{num_players} players, max_turns={max_turns}, seed={seed}, crowded={crowded}, "
                 f"policy={policy and policy.__name__}, after {steps} steps")
        assert core_side.keys() == ref_side.keys(), where
        for field in core_side:
            assert core_side[field] == ref_side[field], (
                f"{field} differs ({where}): core {core_side[field]}, reference {ref_side[field]}")
        if ref_side["phase"] == "over":
            break

        assert_same_refusal(state, game, NUM_ACTIONS, ref_side["legal"], pick, where)

        paints_before = sum(game.paints)
        season_before = game.season
        huts_before = list(game.huts)
        projects = list(game.projects)
        action = int(core.random_action(state))
        assert action in ref_side["legal"], f"random action {action} is illegal ({where})"
        if policy is not None and pick.random() < 0.85:
            action = policy(game, ref_side["legal"], pick)
        colour = game.to_act
        if ref_side["phase"] == "tiki":
            tiki_turns += 1
            events["tikis on the colour's own hut"] += huts_before[action - TIKI_BASE] == colour
        assert core.step(state, action) == core.STEP_OK, f"core refused the legal action {action} ({where})"
        game.step(action)
        steps += 1
        events["successful take-backs"] += paints_before - sum(game.paints)
        if game.season != season_before:
            if ref_side["phase"] == "project":    # no tiki placed: this project ended the season
                projects[colour] = project_of(action)
            events["colours skipped at the tiki phase"] += game.num_colours - tiki_turns
            events["seasons with no tiki placed"] += tiki_turns == 0
            tiki_turns = 0
            built = collections.Counter(p.spot for p in projects if not p.take_back)
            events["two constructions on one spot"] += sum(count > 1 for count in built.values())
            events["take-backs of a hut built the same season"] += sum(
                p.take_back and p.spot in built and huts_before[p.spot] is None and game.huts[p.spot] == c
                for c, p in enumerate(projects))

    core_side, ref_side = final_results(state, game)
    assert core_side == ref_side, f"final results differ ({where}): core {core_side}, reference {ref_side}"

    before = state.copy()
    assert core.step(state, 0) == core.STEP_GAME_OVER
    assert (state == before).all(), where
    with pytest.raises(ValueError):
        game.step(0)

    if game.truncated:
        events["truncated"] += 1
    elif min(game.reserve) == 0:
        events["ended by an empty reserve"] += 1
    else:
        events["ended after the last season"] += 1


@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_core_matches_reference_on_random_games(num_players):
    events = collections.Counter()
    for i in range(GAMES_PER_PLAYER_COUNT):
        policy = POLICIES[i // 3 % len(POLICIES)] if i % 3 == 2 else None
        play_and_compare(num_players, 100, 10_000 * num_players + i, events, policy=policy)
    for i in range(SHORT_GAMES_PER_PLAYER_COUNT):
        play_and_compare(num_players, 1 + i % 6, 20_000 * num_players + i, events)
    for i in range(CROWDED_GAMES_PER_PLAYER_COUNT):
        play_and_compare(num_players, 100, 30_000 * num_players + i, events, crowded=True)
    # The comparison only means something if the rare paths were actually travelled.
    expected = ["successful take-backs", "colours skipped at the tiki phase", "truncated",
                "ended by an empty reserve", "ended after the last season", "tikis on the colour's own hut",
                "two constructions on one spot", "take-backs of a hut built the same season"]
    if num_players in (3, 5):
        # With 4 colours the 39 spots cannot all hold huts while every colour still has one in
        # reserve (at most 4 x 9 = 36), so some colour always finds an empty spot for its tiki.
        expected.append("seasons with no tiki placed")
    for event in expected:
        assert events[event] > 0, f"no game exercised '{event}' ({num_players} players): {events}"


def spot_groups():
    """The board's groups of neighbouring spots [Maka Bana Island]: the largest has 8 spots."""
    groups, seen = [], set()
    for start in range(NUM_SPOTS):
        if start in seen:
            continue
        group, frontier = [], [start]
        seen.add(start)
        while frontier:
            spot = frontier.pop()
            group.append(spot)
            for other in NEIGHBOURS[spot]:
                if other >= 0 and int(other) not in seen:
                    seen.add(int(other))
                    frontier.append(int(other))
        groups.append(group)
    return groups


@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_scores_agree_on_built_positions(num_players):
    """[Final Scoring and Winner]: random play seldom fills a whole group of spots with one colour or
    ties three colours on a beach, so score built positions too: each group of spots is often given
    wholly to one colour, and the rest is scattered.  Such boards are not positions (a colour may
    have more than its 10 huts, and the game still runs), so the scoring kernels are called directly
    rather than through ``core``, which would refuse the row."""
    groups = spot_groups()
    assert max(len(g) for g in groups) == 8
    for seed in range(300):
        rng = random.Random(50_000 * num_players + seed)
        state, game = new_pair(num_players, 100, seed)
        n = game.num_colours
        for group in groups:
            whole = rng.random() < 0.5
            colour = rng.randrange(n)
            for spot in group:
                if not game.in_play(spot) or rng.random() < 0.2:
                    continue
                hut = colour if whole else rng.randrange(n)
                game.huts[spot] = hut
                state[core.HUT + spot] = hut
        kernels.scores(state)
        where = f"{num_players} players, position {seed}, huts {game.huts}"
        assert state[core.SCORE:core.SCORE + n].tolist() == game.colour_scores(), where
        players = np.zeros(num_players, dtype=np.int64)
        kernels.player_scores(state, players)
        assert players.tolist() == game.player_scores(), where


def play_to_end(num_players, max_turns, seed):
    state, game = new_pair(num_players, max_turns, seed)
    while game.phase != "over":
        action = int(core.random_action(state))
        core.step(state, action)
        game.step(action)
    return state, game


def test_core_leaves_the_last_seasons_tikis_on_the_board():
    """[4. Execution], "Game has not Ended": only *if the game has not ended* does each player take
    back his tiki, so the final state and observation keep the last season's tikis (a regression
    found by the cross-check above: 4 players, seed 40000)."""
    state, game = play_to_end(4, 100, 40_000)
    assert game.terminated and any(t is not None for t in game.tikis)
    assert core_view(state, True)["tikis"] == game.tikis


def test_core_announces_no_last_season_once_the_game_has_ended():
    """[Game Ends]; RULINGS.md and RULES.md: a colour without huts ends the game at once;
    *otherwise* a full beach triggers one more season. The core sets ``LAST_SEASON`` when a beach is
    full only while the game goes on, so the final observation never announces a season that will
    not be played (a regression found by the cross-check above: 2 players, seed 2011)."""
    state, game = play_to_end(2, 100, 2011)
    assert game.terminated and min(game.reserve) == 0
    assert bool(state[core.LAST_SEASON]) == game.last_season
