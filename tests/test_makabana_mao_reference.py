"""Cross-check of the Numba rules core against the plain-Python reference: Maka Bana Mao.

``makabana_env/reference.py`` was written from the rulebook ("2nd Step: Maka Bana Mao", "Maka Bana for
2 Players"), RULINGS.md and RULES.md ("Maka Bana Mao") without reading the core's Mao code; a rule
misread in one of them shows up here as a disagreement.

Over a thousand seeded random Mao games (2, 3, 4 and 5 players; most with a moderate ``max_turns`` so
that each game stays short, some played to their natural end, some with ``max_turns`` of 1 to 3 so
that truncation happens, and some started from the same random, nearly full board so that colours run
out of tiki spots and huts) are played through both implementations, the moves being drawn by
``core.random_action`` from the seeded game generator. After every step the test asserts that both
agree on: the legal actions, huts, tikis, huts in reserve, paint cards not yet discarded, the first
player, the seasons completed, the last-season flag, the phase, the colour to act and the player who
controls it, and the game status; in the tiki phase on every colour's tiki spots; while the game runs
also on the eliminated colours, the denouncer and the denounced colour, the case of an eliminated
denounced colour that could repaint (``paint_case``: paid back / not minding), the hut offered for the
repaint, the executing colour's projects carried out and paint cards left, the colours whose project
has been revealed at execution (the reference's ``execution_started``, the core's ``REVEALED_NOW``),
the card every colour is asked to add or keep next (``asked_card``), and on the projects (visible
card, non-paint cards, paint cards) of every colour while the projects are prepared and denounced,
and afterwards of every colour that is not eliminated and has not yet started its execution. Both
must reject the same illegal action (the core's state untouched), and when the game ends they must
agree on the colour scores, the player scores and the rewards in all three modes ("win_loss",
"score", "margin") and refuse any further action.
"""
import collections
import random

import numpy as np
import pytest

from makabana_env import core, kernels
from makabana_env.board import HUTS_PER_COLOUR, NUM_PAINT_CARDS, NUM_SPOTS
from makabana_env.reference import (
    MAO_PASS, MAO_SPOT_BASE, MAO_STOP, NOT_MINDING, NUM_ACTIONS_MAO, PAINT, PAID_BACK, ReferenceGame,
)
from pacific_common.ends import END_NAMES
from test_makabana_reference import assert_same_refusal, board_view, none_if_negative

PAINT_CASES = {core.CASE_NONE: None, core.CASE_PAID_BACK: PAID_BACK, core.CASE_NOT_MINDING: NOT_MINDING}
REWARD_MODES = {"win_loss": core.REWARD_WIN_LOSS, "score": core.REWARD_SCORE,
                "margin": core.REWARD_MARGIN}

# (games per player count, max_turns): 4 x 270 = 1080 games in all.
GAME_SETS = (
    (200, 6),     # moderate length: most of the games
    (25, 100),    # played to their natural end
    (20, None),   # max_turns 1..3, to exercise truncation
    (25, "crowded"),  # from a nearly full board
)


def compared_colours(game):
    """Colours whose project is compared: every colour while the projects are prepared and denounced;
    afterwards the colours still waiting for their execution (not eliminated, not yet revealed)."""
    if game.phase in ("project", "denounce"):
        return list(range(game.num_colours))
    if game.phase == "over":
        return []
    return [c for c in range(game.num_colours)
            if c not in game.eliminated and c not in game.execution_started]


def core_view(state, colours):
    """The core's state in the reference's terms."""
    view, row = board_view(state, core.NUM_ACTIONS_MAO)
    n = row[core.NUM_COLOURS]
    view["end"] = END_NAMES[core.end_code(state)]
    if view["phase"] == "tiki":
        view["tiki_spots"] = [int(kernels.tiki_spots(state, c)) for c in range(n)]   # bit sets
    if view["phase"] != "over":
        view["eliminated"] = {c for c in range(n) if row[core.ELIMINATED + c]}
        view["denouncer"] = none_if_negative(row[core.DENOUNCER])
        view["denounced"] = none_if_negative(row[core.DENOUNCED])
        view["paint_case"] = PAINT_CASES[row[core.PAINT_CASE]]
        view["offered"] = none_if_negative(row[core.OFFERED])        # a spot
        view["executed"] = row[core.EXECUTED]
        view["paint_left"] = row[core.PAINT_LEFT]
        view["revealed"] = {c for c in range(n) if row[core.REVEALED_NOW + c]}
        view["asked"] = [int(kernels.asked_card(state, c)) for c in range(n)]
    for c in colours:
        bits = row[core.PROJECT_CARDS + c]
        view[f"project {c}"] = {
            "top": none_if_negative(row[core.PROJECT_TOP + c]),      # a card
            "cards": {card for card in range(PAINT) if bits >> card & 1},
            "paint": row[core.PROJECT_PAINT + c],
        }
    return view


def reference_view(game, colours):
    status = "terminated" if game.terminated else "truncated" if game.truncated else "running"
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
        "player_to_act": None if game.to_act is None else game.owner(game.to_act),
        "status": status,
        "end": game.end,
    }
    if game.phase == "tiki":
        view["tiki_spots"] = [sum(1 << s for s in game._tiki_spots(c)) for c in range(game.num_colours)]
    if game.phase != "over":
        view["eliminated"] = set(game.eliminated)
        view["denouncer"] = game.denouncer
        view["denounced"] = game.denounced
        view["paint_case"] = game.paint_case
        view["offered"] = game.offered
        view["executed"] = game._executed          # kept private by the reference
        view["paint_left"] = game._paint_left
        view["revealed"] = set(game.execution_started)
        view["asked"] = [p.to_ask[0] if p.to_ask else -1 for p in game.projects]
    for c in colours:
        project = game.projects[c]
        view[f"project {c}"] = {"top": project.top, "cards": project.non_paint_cards(),
                                "paint": project.paint()}
    return view


def new_pair(num_players, max_turns, seed):
    state = np.zeros(core.STATE_SIZE, dtype=np.int64)
    core.init(state, num_players, core.VARIANT_MAO, max_turns, seed)
    return state, ReferenceGame(num_players, max_turns, variant="mao")


def final_results(state, game):
    """(core, reference) colour scores, player scores and rewards of a finished game."""
    n, p = game.num_colours, game.num_players
    core_players = np.zeros(p, dtype=np.int64)
    core.player_scores(state, core_players)
    core_side = {"colour_scores": [int(core.colour_score(state, c)) for c in range(n)],
                 "player_scores": core_players.tolist()}
    ref_side = {"colour_scores": game.colour_scores(), "player_scores": game.player_scores()}
    for name, mode in REWARD_MODES.items():
        out = np.zeros(p, dtype=np.float64)
        core.rewards(state, mode, out)
        core_side["rewards_" + name] = out.tolist()
        ref_side["rewards_" + name] = game.rewards(name)
    return core_side, ref_side


def crowd_the_board(state, game, seed):
    """Give both implementations the same random, nearly full board, random paint cards and small
    reserves, so that the rare paths get exercised: colours with nowhere to put their tiki, executions
    that run out of huts, repaints over a crowded island."""
    rng = random.Random(seed)
    n = game.num_colours
    spots = [s for s in range(NUM_SPOTS) if game.in_play(s)]
    rng.shuffle(spots)
    left = [HUTS_PER_COLOUR - 1] * n  # keep one hut each, so that the game has not ended already
    for spot in spots[rng.randint(0, 6):]:
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


def count_events(game, action, events, before):
    """Tally the rare paths travelled, so that the test can insist they were."""
    phase = before["phase"]
    if phase == "denounce" and action != MAO_PASS:
        events["denunciations"] += 1
        events["denouncer eliminated" if game.denouncer in game.eliminated
               else "denounced eliminated"] += 1
    if phase == "payback":
        case = "paid back" if before["paint_case"] == PAID_BACK else "not minding"
        events[f"payback ({case}) {'declined' if action == MAO_STOP else 'chosen'}"] += 1
    if phase == "repaint":
        events["repaint offer " + ("kept the paint" if action == MAO_STOP else "accepted")] += 1
    if phase == "execute":
        events["execution stopped" if action == MAO_STOP else "execution spot chosen"] += 1
    if phase == "execute" and action != MAO_STOP and before["huts"][action - MAO_SPOT_BASE] is not None:
        events["take-backs at execution"] += 1
    if game.season != before["season"] or game.phase == "over":
        events["seasons"] += 1


def play_and_compare(num_players, max_turns, seed, events, crowded=False):
    """Play one random Mao game through both implementations, asserting agreement after every step."""
    state, game = new_pair(num_players, max_turns, seed)
    if crowded:
        crowd_the_board(state, game, seed)
    pick = random.Random(seed)  # only chooses which illegal action to try
    steps = 0
    while True:
        colours = compared_colours(game)
        core_side, ref_side = core_view(state, colours), reference_view(game, colours)
        where = (f"{num_players} players, max_turns={max_turns}, seed={seed}, crowded={crowded}, "
                 f"after {steps} steps")
        assert core_side.keys() == ref_side.keys(), where
        for field in core_side:
            assert core_side[field] == ref_side[field], (
                f"{field} differs ({where}): core {core_side[field]}, reference {ref_side[field]}")
        if ref_side["phase"] == "over":
            break

        assert_same_refusal(state, game, NUM_ACTIONS_MAO, ref_side["legal"], pick, where)

        before = {"phase": game.phase, "season": game.season, "huts": list(game.huts),
                  "paint_case": game.paint_case}
        action = int(core.random_action(state))
        assert core.step(state, action) == core.STEP_OK, (
            f"core refused its own random action {action} ({where})")
        game.step(action)
        steps += 1
        count_events(game, action, events, before)

    core_side, ref_side = final_results(state, game)
    assert core_side == ref_side, f"final results differ ({where}): core {core_side}, reference {ref_side}"

    before = state.copy()
    assert core.step(state, MAO_PASS) == core.STEP_GAME_OVER
    assert (state == before).all(), where
    with pytest.raises(ValueError):
        game.step(MAO_PASS)

    events["games"] += 1
    events["steps"] += steps
    if game.truncated:
        events["truncated"] += 1
    elif min(game.reserve) == 0:
        events["ended by an empty reserve"] += 1
    else:
        events["ended after the last season"] += 1


@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_core_matches_reference_on_random_mao_games(num_players):
    events = collections.Counter()
    for set_index, (games, max_turns) in enumerate(GAME_SETS):
        for i in range(games):
            seed = 100_000 * (set_index + 1) + 1_000 * num_players + i
            if max_turns is None:
                play_and_compare(num_players, 1 + i % 3, seed, events)
            elif max_turns == "crowded":
                play_and_compare(num_players, 100, seed, events, crowded=True)
            else:
                play_and_compare(num_players, max_turns, seed, events)
    # The comparison only means something if the rare paths were actually travelled.
    expected = ["denouncer eliminated", "denounced eliminated", "payback (paid back) chosen",
                "payback (not minding) chosen", "repaint offer accepted",
                "repaint offer kept the paint", "execution spot chosen", "execution stopped",
                "take-backs at execution", "truncated", "ended by an empty reserve",
                "ended after the last season"]
    for event in expected:
        assert events[event] > 0, f"no game exercised '{event}' ({num_players} players): {events}"
