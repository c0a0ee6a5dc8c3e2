"""Maka Bana Mao (``variant="mao"``): the rulebook's "2nd Step: Maka Bana Mao", read as in RULINGS.md
and makabana_env/RULES.md ("Maka Bana Mao").  Test names carry the rulebook section they check.

Positions are built with the Haapii helpers of ``makabana_positions`` (the board and the season's
start are the same); projects are prepared card by card through the environment, as a player would.
Colours: 0 Yellow, 1 Blue, 2 Green, 3 Red, 4 White; in a 4-player game colour c is player_c.
"""
import numpy as np
import pytest

import makabana_env
from makabana_env import core
from makabana_env.board import CARD_NAMES, HUTS_PER_COLOUR, NUM_PAINT_CARDS, NUM_SPOTS, SPOT_NAMES
from makabana_env.env import describe_action

from makabana_positions import (
    act, colour_block, colour_to_act, hut_at, legal, mask, new_game, paints, position, reserve, shown_cards,
    spot,
)
from trajectory_digest import random_play_digest

YELLOW, BLUE, GREEN, RED = range(4)
DUD = ["Azzura", "Coquito", "Diabolo"]   # three beaches: a normal-sized project that builds nothing
# tikis far from every spot the tests below use
FAR_TIKIS = ["Azzura-Grass-Tattoo", "Azzura-Rock-Tattoo", "Azzura-Lagoon-Tattoo", "Azzura-Rock-Fish",
             "Azzura-Lagoon-Flower"]


def card(name):
    return CARD_NAMES.index(name)


def mao_game(num_players=4, huts=None, paints=None, first=0, seed=0):
    env = new_game(num_players, seed=seed, variant="mao")
    return position(env, huts=huts, paints=paints, first=first)


def prepare(env, cards, top=None):
    """The colour to act prepares a project of ``cards`` (names; "Paint" may appear twice), showing
    ``top`` (default: the first card): the visible card first, then every other card of its hand as it
    is asked (in increasing card number), added when it is one of ``cards``, kept otherwise.  Returns
    the colour and the number of decisions it took."""
    colour = colour_to_act(env)
    top = cards[0] if top is None else top
    rest = [card(c) for c in cards]
    rest.remove(card(top))
    act(env, core.MAO_TOP_BASE + card(top))
    decisions = 1
    while env.decision() == "project" and colour_to_act(env) == colour:
        asked = core.asked_card(env.state(), colour)
        if asked in rest:
            rest.remove(asked)
            act(env, core.MAO_ADD_BASE + asked)
        else:
            act(env, core.MAO_KEEP)
        decisions += 1
    assert not rest, "cards not in the colour's hand"
    return colour, decisions


def prepare_all(env, projects=None):
    """Every colour asked prepares ``projects[colour]`` (cards, or (cards, top)) or the dud project."""
    projects = projects or {}
    while env.decision() == "project":
        colour = colour_to_act(env)
        p = projects.get(colour, DUD)
        if isinstance(p, tuple):
            prepare(env, *p)
        else:
            prepare(env, p)


def denounce(env, denunciations=None):
    """The denunciation round: ``denunciations[colour]`` is the colour it denounces; others pass."""
    denunciations = denunciations or {}
    n = int(env.state()[core.NUM_COLOURS])
    asked = []
    while env.decision() == "denunciation":
        colour = colour_to_act(env)
        asked.append(colour)
        if colour in denunciations:
            k = (denunciations[colour] - colour) % n
            act(env, core.MAO_DENOUNCE_BASE + k - 1)
        else:
            act(env, core.MAO_PASS)
    return asked


def place_tikis(env):
    """Every colour asked puts its tiki on one of FAR_TIKIS.  Returns the colours asked."""
    asked = []
    while env.decision() == "tiki":
        asked.append(colour_to_act(env))
        free = [s for s in FAR_TIKIS if core.TIKI_BASE + spot(s) in legal(env)]
        act(env, core.TIKI_BASE + spot(free[0]))
    return asked


def to_execution(env, projects=None, denunciations=None):
    prepare_all(env, projects)
    denounce(env, denunciations)
    return place_tikis(env)


def spot_actions(env):
    return {SPOT_NAMES[a - core.MAO_SPOT_BASE] for a in legal(env) if core.MAO_SPOT_BASE <= a < core.MAO_STOP}


def choose(env, name):
    act(env, core.MAO_SPOT_BASE + spot(name))


def observation(env, player):
    return env.observe(f"player_{player}")["observation"]


# ---------------------------------------------------------------------------------------------------
# Options and spaces
def test_mao_is_an_option_with_its_own_spaces_and_haapii_keeps_its_own():
    haapii, mao = makabana_env.raw_env(), makabana_env.raw_env(variant="mao")
    assert haapii.action_space("player_0").n == 273 and mao.action_space("player_0").n == 343
    assert haapii.observation_space("player_0")["observation"].shape == (core.OBS_SIZE,)
    assert mao.observation_space("player_0")["observation"].shape == (core.OBS_SIZE_MAO,)
    assert mao.observe("player_0")["action_mask"].shape == (343,)
    with pytest.raises(ValueError, match="illegal action 273"):
        haapii.step(core.MAO_TOP_BASE)  # a Mao action is not a Haapii action
    with pytest.raises(ValueError, match="variant"):
        haapii.set_state(mao.state())


def test_mao_haapii_trajectories_are_unchanged():
    """Adding Mao left the basic game exactly as it was: the digest of 40 seeded random Haapii games
    (every observation, mask, action and reward) was taken before Mao was written, and taken again
    when the two-player game's partner colour became a colour of its own for take-backs and tikis
    (RULINGS.md, Maka Bana, Players), a change that only touches two-player games."""
    digest = random_play_digest(core, core.VARIANT_HAAPII, (2, 3, 4, 5), range(10), 100)
    assert digest == "9888330db30b08414875daec2e4e63daa335f47e97d6beea7932645f257d5ec1"


def test_mao_describe_action_names_every_mao_action():
    assert describe_action(core.MAO_TOP_BASE + card("Sand")) == "project: show Sand on top"
    assert describe_action(core.MAO_ADD_BASE + card("Paint")) == "project: add Paint, hidden"
    assert describe_action(core.MAO_KEEP) == "project: keep the card asked in hand"
    assert describe_action(core.MAO_DENOUNCE_BASE) == "denounce the colour 1 seat clockwise"
    assert describe_action(core.MAO_PASS) == "do not denounce"
    assert "Azzura-Grass-Flower" in describe_action(core.MAO_SPOT_BASE + spot("Azzura-Grass-Flower"))
    assert describe_action(core.MAO_STOP) == "stop / decline"
    assert "outside" in describe_action(core.NUM_ACTIONS_MAO)


# ---------------------------------------------------------------------------------------------------
# 1. Secret selection of a project: any non-empty set of cards, one visible
def test_mao_1_project_starts_with_the_visible_card_any_of_the_13_cards():
    env = mao_game()
    assert legal(env) == {core.MAO_TOP_BASE + c for c in range(core.NUM_CARDS)}
    env3 = mao_game(num_players=3)
    # 3 players: everybody discards the Bikini card (Setup)
    assert legal(env3) == {core.MAO_TOP_BASE + c for c in range(core.NUM_CARDS) if c != card("Bikini")}
    env0 = mao_game(paints={YELLOW: 0})
    assert core.MAO_TOP_BASE + card("Paint") not in legal(env0)


def test_mao_1_every_other_hand_card_is_asked_in_increasing_order_add_or_keep():
    """RULINGS.md, Maka Bana, Season: after the visible card the colour is asked about each other card
    of its hand in turn, each paint card on its own; it adds the card (285 + card) or keeps it (297)."""
    env = mao_game()
    act(env, core.MAO_TOP_BASE + card("Rock"))
    asked = []
    while colour_to_act(env) == YELLOW:
        c = core.asked_card(env.state(), YELLOW)
        asked.append(CARD_NAMES[c])
        assert legal(env) == {core.MAO_ADD_BASE + c, core.MAO_KEEP}
        act(env, core.MAO_ADD_BASE + c if CARD_NAMES[c] in ("Coquito", "Paint") and asked.count("Paint") < 2
            else core.MAO_KEEP)
    assert asked == [c for c in CARD_NAMES if c not in ("Rock", "Paint")] + ["Paint", "Paint"]
    s = env.state()
    assert s[core.PROJECT_CARDS + YELLOW] == (1 << card("Rock")) | (1 << card("Coquito"))
    assert s[core.PROJECT_PAINT + YELLOW] == 1 and s[core.PROJECT_TOP + YELLOW] == card("Rock")
    assert colour_to_act(env) == BLUE


def test_mao_1_the_cards_asked_are_the_hand_a_public_fact():
    """RULINGS.md, Maka Bana, Season: the hand asked about is the colour's cards but the visible one
    -- 10 with 3 players (no Bikini card), and one decision per paint card not discarded."""
    def decisions(env, top, cards=("Sand",)):
        return prepare(env, [top, *cards], top=top)[1]
    assert decisions(mao_game(), "Sand", ()) == 1 + 10 + 2
    assert decisions(mao_game(), "Paint", ()) == 1 + 11 + 1
    assert decisions(mao_game(num_players=3), "Azzura") == 1 + 9 + 2
    assert decisions(mao_game(paints={YELLOW: 0}), "Azzura") == 1 + 10
    assert decisions(mao_game(paints={YELLOW: 1}), "Paint") == 1 + 11


def test_mao_1_a_project_of_every_card():
    env = mao_game()
    prepare(env, list(CARD_NAMES) + ["Paint"])
    assert colour_to_act(env) == BLUE
    assert core.card_count(env.state(), YELLOW) == 13


def test_mao_1_a_single_card_project_is_allowed():
    env = mao_game()
    act(env, core.MAO_TOP_BASE + card("Sand"))
    while colour_to_act(env) == YELLOW:
        act(env, core.MAO_KEEP)
    assert core.card_count(env.state(), YELLOW) == 1


# ---------------------------------------------------------------------------------------------------
# 2. Revealing hints and hidden information
def project_trace(num_players, cards, top):
    """Yellow prepares ``cards`` showing ``top``; every other colour the dud project; then the
    denunciation round passes.  Before every step: the agent asked, and the observations of every
    player who does not control Yellow."""
    env = mao_game(num_players=num_players)
    others = [f"player_{p}" for p in range(1, num_players)]
    trace = []

    def record():
        trace.append((env.agent_selection, [env.observe(p)["observation"].tobytes() for p in others]))
    hand = {YELLOW: [card(c) for c in cards if c != top] + [card(c) for c in cards if c == top][1:]}
    while env.decision() in ("project", "denunciation"):
        record()
        colour = colour_to_act(env)
        if env.decision() == "denunciation":
            act(env, core.MAO_PASS)
        elif env.state()[core.PROJECT_TOP + colour] < 0:
            hand.setdefault(colour, [card(c) for c in DUD[1:]])
            act(env, core.MAO_TOP_BASE + card(top if colour == YELLOW else DUD[0]))
        else:
            asked = core.asked_card(env.state(), colour)
            if asked in hand[colour]:
                hand[colour].remove(asked)
                act(env, core.MAO_ADD_BASE + asked)
            else:
                act(env, core.MAO_KEEP)
    record()
    return trace


@pytest.mark.parametrize("num_players", [2, 4])
def test_mao_1_turn_order_and_other_views_do_not_depend_on_the_hidden_cards(num_players):
    """RULINGS.md, Maka Bana, Season: "the number of decisions a colour takes to choose must not depend
    on what it hides, or the turn order would reveal it".  Yellow's projects with the same visible card
    and different hidden cards (none, a paint card, two paint cards, five cards, every card, and random
    sets) give the same sequence of agents asked, step by step through the projects and the
    denunciation round, and the same observations to every player who does not control Yellow."""
    rng = np.random.default_rng(7)
    others = [c for c in CARD_NAMES if c not in ("Sand", "Paint")] + ["Paint", "Paint"]
    projects = [["Sand"], ["Sand", "Paint"], ["Sand", "Paint", "Paint"],
                ["Sand", "Azzura", "Lagoon", "Fish", "Paint", "Paint"], ["Sand"] + others]
    for _ in range(6):
        projects.append(["Sand"] + [c for c in others if rng.random() < 0.5])
    traces = [project_trace(num_players, cards, "Sand") for cards in projects]
    counts = {len(t) for t in traces}
    assert len(counts) == 1
    for t in traces[1:]:
        assert [agent for agent, _ in t] == [agent for agent, _ in traces[0]]
        assert [views for _, views in t] == [views for _, views in traces[0]]


def test_mao_2_hidden_cards_and_card_count_are_never_observed_by_others_before_execution():
    """Two games that differ only in Yellow's hidden cards (1 card against 6, same visible card) look
    the same to every other player, during the projects, the denunciation round and the tikis."""
    a, b = mao_game(), mao_game()
    prepare(a, ["Sand"])
    prepare(b, ["Sand", "Azzura", "Lagoon", "Fish", "Paint", "Paint"])
    for phase in ("project", "denunciation", "tiki"):
        while a.decision() == phase and a.decision() != "execution":
            for p in (BLUE, GREEN, RED):
                np.testing.assert_array_equal(observation(a, p), observation(b, p), err_msg=phase)
            assert not np.array_equal(observation(a, YELLOW), observation(b, YELLOW))
            if phase == "project":
                prepare(a, DUD)
                prepare(b, DUD)
            elif phase == "denunciation":
                act(a, core.MAO_PASS)
                act(b, core.MAO_PASS)
            else:
                free = [s for s in FAR_TIKIS if core.TIKI_BASE + spot(s) in legal(a)][0]
                act(a, core.TIKI_BASE + spot(free))
                act(b, core.TIKI_BASE + spot(free))
            assert colour_to_act(a) == colour_to_act(b) or a.decision() != phase


def test_mao_1_secret_selection_the_own_visible_card_is_seen_while_the_stack_is_prepared():
    """2nd Step, 1. Secret selection: the player chooses which card goes on top, visible, so he knows
    it while he adds the hidden cards (RULINGS.md: an observation holds everything its player may
    know).  Two stacks of the same cards with another card on top look the same to everyone else."""
    games = {}
    for top in ("Azzura", "Bikini"):
        env = mao_game()
        act(env, core.MAO_TOP_BASE + card(top))
        asked = core.asked_card(env.state(), YELLOW)
        act(env, core.MAO_ADD_BASE + asked)      # the other beach, hidden
        assert colour_to_act(env) == YELLOW and env.decision() == "project"
        block = colour_block(observation(env, YELLOW), YELLOW, YELLOW, 4)
        assert block[core.CF_SUBMITTED] == 0     # the stack is not finished
        assert list(np.flatnonzero(shown_cards(observation(env, YELLOW), YELLOW, YELLOW, 4))) == [card(top)]
        assert block[core.CF_PAINT_SHOWN] == 0
        games[top] = env
    azzura, bikini = games["Azzura"], games["Bikini"]
    assert core.asked_card(azzura.state(), YELLOW) == core.asked_card(bikini.state(), YELLOW)
    for p in (BLUE, GREEN, RED):
        np.testing.assert_array_equal(observation(azzura, p), observation(bikini, p))
    assert not np.array_equal(observation(azzura, YELLOW), observation(bikini, YELLOW))


def test_mao_1_secret_selection_a_paint_card_on_top_is_seen_by_its_own_player():
    env = mao_game()
    act(env, core.MAO_TOP_BASE + core.PAINT_CARD)
    block = colour_block(observation(env, YELLOW), YELLOW, YELLOW, 4)
    assert block[core.CF_PAINT_SHOWN] == 1 and block[core.CF_SUBMITTED] == 0
    assert not shown_cards(observation(env, YELLOW), YELLOW, YELLOW, 4).any()
    assert colour_block(observation(env, BLUE), BLUE, YELLOW, 4)[core.CF_PAINT_SHOWN] == 0


def test_mao_2_visible_cards_are_revealed_together_once_every_colour_has_prepared():
    env = mao_game()
    prepare(env, ["Paint", "Azzura"], top="Paint")
    block = colour_block(observation(env, BLUE), BLUE, YELLOW, 4)
    assert block[core.CF_SUBMITTED] == 1 and block[core.CF_PAINT_SHOWN] == 0  # not yet revealed
    prepare_all(env)
    block = colour_block(observation(env, BLUE), BLUE, YELLOW, 4)
    assert block[core.CF_PAINT_SHOWN] == 1 and not block[core.CF_SHOWN_CARD:core.CF_SHOWN_CARD + 11].any()
    assert env.decision() == "denunciation"


# ---------------------------------------------------------------------------------------------------
# Denunciation
def count_seen(env, viewer, colour):
    k = (colour - viewer) % 4
    return int(observation(env, viewer)[core.OBS_M_COUNT + k])


def test_mao_denunciation_round_goes_from_the_first_player_and_may_be_all_passes():
    """Rulebook Mao 2, "Nobody performs a denunciation": "The denunciation isn't mandatory. If nobody
    wishes to denunciate, the "first player" ... moves on to the next phase of the season" -- every
    colour asked once, from the first player, then the tikis."""
    env = mao_game(first=GREEN)
    prepare_all(env)
    assert denounce(env) == [GREEN, RED, YELLOW, BLUE]
    assert env.decision() == "tiki"
    assert not any(env.state()[core.ELIMINATED:core.ELIMINATED + 4])


def test_mao_denunciation_only_the_first_denunciation_counts():
    env = mao_game()
    prepare_all(env, {BLUE: ["Sand"], GREEN: ["Sand"]})
    asked = denounce(env, {YELLOW: BLUE})
    assert asked == [YELLOW]  # the round is over: Blue, Green and Red are never asked
    s = env.state()
    assert s[core.DENOUNCER] == YELLOW and s[core.DENOUNCED] == BLUE
    assert s[core.ELIMINATED + BLUE] == 1 and s[core.ELIMINATED + GREEN] == 0
    assert env.decision() == "tiki"


def test_mao_denunciation_equal_cheating_levels_eliminate_the_denouncer():
    """4 cards against 2 cards: both cheat by 1, so Vaea was falsely denounced and Aata is out."""
    env = mao_game()
    prepare_all(env, {YELLOW: ["Azzura", "Grass", "Flower", "Fish"], BLUE: ["Sand", "Tattoo"]})
    denounce(env, {YELLOW: BLUE})
    s = env.state()
    assert s[core.ELIMINATED + YELLOW] == 1 and s[core.ELIMINATED + BLUE] == 0
    for viewer in (GREEN, RED):  # everyone sees the outcome and the two card counts
        assert count_seen(env, viewer, YELLOW) == 4 and count_seen(env, viewer, BLUE) == 2
        assert count_seen(env, viewer, RED if viewer == GREEN else GREEN) == 0
        obs = observation(env, viewer)
        assert obs[core.OBS_M_ELIMINATED + (YELLOW - viewer) % 4] == 1
        assert obs[core.OBS_M_DENOUNCER + (YELLOW - viewer) % 4] == 1
        assert obs[core.OBS_M_DENOUNCED + (BLUE - viewer) % 4] == 1


@pytest.mark.parametrize("aata, vaea", [(BLUE, YELLOW), (YELLOW, BLUE)])
def test_mao_denunciation_1_card_against_5_cards_is_an_equal_level_of_2_both_ways(aata, vaea):
    """[Who is eliminated for the season?]: 1 card (Yellow) and 5 cards (Blue) both cheat by 2, so the
    denouncer is eliminated whoever denounces (a level read as cards - 3 agrees in one direction only)."""
    env = mao_game()
    prepare_all(env, {YELLOW: ["Sand"], BLUE: ["Azzura", "Grass", "Flower", "Fish", "Rock"]})
    denounce(env, {aata: vaea})
    s = env.state()
    assert s[core.ELIMINATED + aata] == 1 and s[core.ELIMINATED + vaea] == 0


def test_mao_denunciation_an_illegal_3_card_project_cheats_by_0():
    """[Who is eliminated for the season?] counts the cards, not the project's legality: Mareva's
    illegal Azzura, Flower, Fish (two themes, [4. Execution of Projects]) is 3 cards, a cheating level
    of 0 like a legal 3-card project, so denouncing it eliminates the denouncer."""
    env = mao_game()
    prepare_all(env, {YELLOW: ["Azzura", "Flower", "Fish"], BLUE: ["Coquito", "Grass", "Fish"]})
    denounce(env, {BLUE: YELLOW})
    s = env.state()
    assert s[core.ELIMINATED + BLUE] == 1 and s[core.ELIMINATED + YELLOW] == 0


def test_mao_denunciation_valid_without_paint_eliminates_the_denounced_and_nothing_else():
    env = mao_game(huts={"Coquito-Grass-Fish": YELLOW})
    before = env.state()
    prepare_all(env, {BLUE: ["Coquito", "Grass", "Fish", "Flower"]})
    denounce(env, {YELLOW: BLUE})
    s = env.state()
    assert s[core.ELIMINATED + BLUE] == 1 and s[core.PAINT_CASE] == core.CASE_NONE
    assert env.decision() == "tiki"
    np.testing.assert_array_equal(s[core.HUT:core.HUT + NUM_SPOTS], before[core.HUT:core.HUT + NUM_SPOTS])


def test_mao_denunciation_eliminated_colour_places_no_tiki_and_executes_nothing():
    """Rulebook Mao 2, "What does the eliminated player do?": "he wont be placing a Tiki and wont execute
    any project"; Mao 4, "Next player": "If a player was eliminated, he skips his turn"."""
    env = mao_game()
    asked = to_execution(env, {BLUE: ["Bikini", "Sand", "Fish", "Flower"]}, {YELLOW: BLUE})
    assert asked == [YELLOW, GREEN, RED]
    # Blue would have built two huts; it executes nothing
    assert hut_at(env, "Bikini-Sand-Fish") is None and hut_at(env, "Bikini-Sand-Flower") is None
    assert reserve(env, BLUE) == HUTS_PER_COLOUR


def test_mao_denunciation_a_4_card_take_back_is_a_fixed_project_and_can_be_denounced():
    env = mao_game(huts={"Azzura-Grass-Flower": YELLOW})
    prepare_all(env, {BLUE: ["Azzura", "Grass", "Flower", "Paint"]})
    denounce(env, {YELLOW: BLUE})
    assert env.state()[core.ELIMINATED + BLUE] == 1


def test_mao_denunciation_two_player_game_a_colour_denounces_only_the_other_players_colours():
    env = mao_game(num_players=2)
    prepare_all(env)
    assert env.decision() == "denunciation" and colour_to_act(env) == YELLOW
    # Yellow (player 0) may denounce Blue (1 seat) and Red (3 seats), not its partner Green (2 seats)
    assert legal(env) == {core.MAO_DENOUNCE_BASE, core.MAO_DENOUNCE_BASE + 2, core.MAO_PASS}


# The paint cases.  Blue (Aata) denounces Green (Vaea), who prepared a 4-card take-back.
PAINT_PROJECT = ["Azzura", "Grass", "Flower", "Paint"]


def test_mao_denunciation_aata_must_be_paid_back_and_chooses_vaeas_hut():
    env = mao_game(huts={"Azzura-Grass-Flower": BLUE, "Coquito-Grass-Fish": GREEN,
                         "Diabolo-Rock-Fish": GREEN})
    prepare_all(env, {GREEN: PAINT_PROJECT})
    denounce(env, {BLUE: GREEN})
    assert env.decision() == "payback" and colour_to_act(env) == BLUE
    assert spot_actions(env) == {"Coquito-Grass-Fish", "Diabolo-Rock-Fish"}
    assert core.MAO_STOP in legal(env)  # Aata may decline
    choose(env, "Diabolo-Rock-Fish")
    assert hut_at(env, "Diabolo-Rock-Fish") == BLUE
    assert paints(env, GREEN) == NUM_PAINT_CARDS - 1  # Vaea's paint card is used
    assert reserve(env, GREEN) == HUTS_PER_COLOUR - 1 and reserve(env, BLUE) == HUTS_PER_COLOUR - 2
    assert env.state()[core.PAINT_CASE] == core.CASE_PAID_BACK
    # "This doesn't disrupt Aata's turn": Blue still places its tiki and executes its project
    assert place_tikis(env) == [YELLOW, BLUE, RED]


def test_mao_denunciation_aata_may_decline_to_be_paid_back():
    env = mao_game(huts={"Azzura-Grass-Flower": BLUE, "Coquito-Grass-Fish": GREEN})
    prepare_all(env, {GREEN: PAINT_PROJECT})
    denounce(env, {BLUE: GREEN})
    act(env, core.MAO_STOP)
    assert hut_at(env, "Coquito-Grass-Fish") == GREEN and paints(env, GREEN) == NUM_PAINT_CARDS
    assert env.decision() == "tiki"


def test_mao_denunciation_aata_paid_back_with_no_hut_of_vaeas_to_repaint_nothing_happens():
    """Aata must be paid back, but Vaea's colour has no hut on the board: Aata is not asked, nothing is
    repainted and Vaea keeps the paint card, as when Aata declines (RULES.md)."""
    env = mao_game(huts={"Azzura-Grass-Flower": BLUE})
    prepare_all(env, {GREEN: PAINT_PROJECT})
    denounce(env, {BLUE: GREEN})
    assert env.state()[core.ELIMINATED + GREEN] == 1
    assert env.decision() == "tiki"
    assert hut_at(env, "Azzura-Grass-Flower") == BLUE and paints(env, GREEN) == NUM_PAINT_CARDS
    assert reserve(env, BLUE) == HUTS_PER_COLOUR - 1 and reserve(env, GREEN) == HUTS_PER_COLOUR


def test_mao_denunciation_aata_not_minding_his_business_vaea_repaints_the_hut_aata_designates():
    # Green's take-back threatens Red's hut, not Blue's: Blue was not minding his business
    env = mao_game(huts={"Azzura-Grass-Flower": RED, "Coquito-Grass-Fish": BLUE, "Diabolo-Rock-Fish": BLUE})
    prepare_all(env, {GREEN: PAINT_PROJECT})
    denounce(env, {BLUE: GREEN})
    assert env.decision() == "payback" and colour_to_act(env) == BLUE
    assert spot_actions(env) == {"Coquito-Grass-Fish", "Diabolo-Rock-Fish"}
    assert core.MAO_STOP not in legal(env)  # Aata must designate one of his huts
    choose(env, "Coquito-Grass-Fish")
    assert env.decision() == "repaint offer" and colour_to_act(env) == GREEN
    assert legal(env) == {core.MAO_SPOT_BASE + spot("Coquito-Grass-Fish"), core.MAO_STOP}
    assert observation(env, RED)[core.OBS_M_OFFERED + spot("Coquito-Grass-Fish")] == 1
    choose(env, "Coquito-Grass-Fish")
    assert hut_at(env, "Coquito-Grass-Fish") == GREEN and paints(env, GREEN) == NUM_PAINT_CARDS - 1
    assert reserve(env, BLUE) == HUTS_PER_COLOUR - 1 and reserve(env, GREEN) == HUTS_PER_COLOUR - 1
    assert env.state()[core.PAINT_CASE] == core.CASE_NOT_MINDING
    # Vaea is still eliminated: no tiki for Green
    assert place_tikis(env) == [YELLOW, BLUE, RED]


def test_mao_denunciation_vaea_may_keep_the_paint_card_instead_of_repainting():
    env = mao_game(huts={"Azzura-Grass-Flower": RED, "Coquito-Grass-Fish": BLUE})
    prepare_all(env, {GREEN: PAINT_PROJECT})
    denounce(env, {BLUE: GREEN})
    # a single hut of Blue's: nothing for Blue to choose, the offer goes straight to Green
    assert env.decision() == "repaint offer" and colour_to_act(env) == GREEN
    act(env, core.MAO_STOP)
    assert hut_at(env, "Coquito-Grass-Fish") == BLUE and paints(env, GREEN) == NUM_PAINT_CARDS


def test_mao_denunciation_paint_that_could_repaint_nothing_is_not_used():
    env = mao_game(huts={"Coquito-Grass-Fish": BLUE})
    prepare_all(env, {GREEN: PAINT_PROJECT})  # Azzura-Grass-Flower is empty
    denounce(env, {BLUE: GREEN})
    assert env.decision() == "tiki" and paints(env, GREEN) == NUM_PAINT_CARDS
    assert env.state()[core.PAINT_CASE] == core.CASE_NONE


def test_mao_denunciation_one_paint_card_is_used_even_when_the_project_held_two():
    env = mao_game(huts={"Azzura-Grass-Flower": BLUE, "Coquito-Grass-Fish": GREEN})
    prepare_all(env, {GREEN: PAINT_PROJECT + ["Paint"]})
    denounce(env, {BLUE: GREEN})
    choose(env, "Coquito-Grass-Fish")
    assert paints(env, GREEN) == 1


def test_mao_denunciation_two_player_game_the_partner_colours_hut_counts_for_could_repaint():
    """RULINGS.md, Maka Bana, Players and Mao projects: "could repaint" names a spot with another
    colour's hut, and the partner colour is another colour.  Green's take-back names Yellow's hut
    (Green's partner), so when Blue denounces Green, Blue was not minding his business."""
    env = mao_game(num_players=2, huts={"Azzura-Grass-Flower": YELLOW, "Coquito-Grass-Fish": BLUE})
    prepare_all(env, {GREEN: PAINT_PROJECT})
    denounce(env, {BLUE: GREEN})
    assert env.state()[core.PAINT_CASE] == core.CASE_NOT_MINDING
    assert env.decision() == "repaint offer" and colour_to_act(env) == GREEN
    choose(env, "Coquito-Grass-Fish")
    assert hut_at(env, "Coquito-Grass-Fish") == GREEN and paints(env, GREEN) == NUM_PAINT_CARDS - 1


# ---------------------------------------------------------------------------------------------------
# 3. Placing Tikis
def test_mao_3_protecting_ones_own_hut_is_allowed_without_a_visible_paint_card():
    env = mao_game(huts={"Coquito-Grass-Fish": YELLOW, "Coquito-Grass-Tattoo": BLUE})
    prepare_all(env)  # nobody shows paint
    denounce(env)
    assert core.TIKI_BASE + spot("Coquito-Grass-Fish") in legal(env)
    assert core.TIKI_BASE + spot("Coquito-Grass-Tattoo") not in legal(env)  # never an opponent's hut


def test_mao_3_two_player_game_the_partner_colours_hut_may_not_be_protected():
    """RULINGS.md, Maka Bana, Players: a tiki protects only the colour's own huts; the partner
    colour's are another colour's."""
    env = mao_game(num_players=2, huts={"Coquito-Grass-Fish": YELLOW, "Coquito-Grass-Tattoo": GREEN})
    prepare_all(env)
    denounce(env)
    assert colour_to_act(env) == YELLOW
    assert core.TIKI_BASE + spot("Coquito-Grass-Fish") in legal(env)
    assert core.TIKI_BASE + spot("Coquito-Grass-Tattoo") not in legal(env)


# ---------------------------------------------------------------------------------------------------
# 4. Execution of projects
def test_mao_4_normal_project_builds_without_a_decision():
    env = mao_game()
    to_execution(env, {YELLOW: ["Bikini", "Rock", "Tattoo"]})
    assert hut_at(env, "Bikini-Rock-Tattoo") == YELLOW
    assert env.decision() == "project"  # the next season has begun: nothing was asked


def test_mao_4_three_card_project_with_two_themes_builds_nothing():
    """Rulebook: "Mareva ... has prepared a project with Azzura, Flower and Fish ... illegal"."""
    env = mao_game()
    to_execution(env, {YELLOW: ["Azzura", "Flower", "Fish"]})
    assert reserve(env, YELLOW) == HUTS_PER_COLOUR


def test_mao_4_three_card_project_with_a_paint_card_builds_nothing():
    env = mao_game(huts={"Coquito-Grass-Fish": BLUE})
    to_execution(env, {YELLOW: ["Coquito", "Fish", "Paint"]})
    assert reserve(env, YELLOW) == HUTS_PER_COLOUR and hut_at(env, "Coquito-Grass-Fish") == BLUE
    assert paints(env, YELLOW) == NUM_PAINT_CARDS


# The rulebook's incomplete-project examples.  Five Sand spots are taken, so the free Sand spots are
# the three Tattoo ones (one per beach with Sand) and Coquito-Sand-Fish.
SAND_TAKEN = {"Bikini-Sand-Flower": RED, "Bikini-Sand-Fish": RED, "Coquito-Sand-Flower": RED,
              "Diabolo-Sand-Flower": RED, "Diabolo-Sand-Fish": RED}


def test_mao_4_incomplete_example_1_tattoo_and_sand_leave_three_beaches_to_choose():
    env = mao_game(huts=SAND_TAKEN)
    to_execution(env, {YELLOW: ["Tattoo", "Sand"]})
    assert env.decision() == "execution" and colour_to_act(env) == YELLOW
    assert spot_actions(env) == {"Bikini-Sand-Tattoo", "Coquito-Sand-Tattoo", "Diabolo-Sand-Tattoo"}
    assert core.MAO_STOP not in legal(env)  # building is not optional
    choose(env, "Coquito-Sand-Tattoo")
    assert hut_at(env, "Coquito-Sand-Tattoo") == YELLOW and reserve(env, YELLOW) == HUTS_PER_COLOUR - 1


def test_mao_4_incomplete_example_2_sand_alone_leaves_beach_and_theme_free():
    env = mao_game(huts=SAND_TAKEN)
    to_execution(env, {YELLOW: ["Sand"]})
    assert spot_actions(env) == {"Bikini-Sand-Tattoo", "Coquito-Sand-Tattoo", "Diabolo-Sand-Tattoo",
                                 "Coquito-Sand-Fish"}


def test_mao_4_incomplete_project_with_one_free_spot_builds_without_asking():
    env = mao_game(huts={**SAND_TAKEN, "Bikini-Sand-Tattoo": RED, "Diabolo-Sand-Tattoo": RED})
    to_execution(env, {YELLOW: ["Tattoo", "Sand"]})
    assert hut_at(env, "Coquito-Sand-Tattoo") == YELLOW and env.decision() == "project"


def test_mao_4_incomplete_project_with_paint_or_two_cards_of_one_kind_builds_nothing():
    for cards in (["Sand", "Paint"], ["Sand", "Grass"], ["Azzura", "Bikini"]):
        env = mao_game()
        to_execution(env, {YELLOW: cards})
        assert reserve(env, YELLOW) == HUTS_PER_COLOUR, cards


def test_mao_4_incomplete_project_cannot_use_a_tiki_spot():
    env = mao_game(huts=SAND_TAKEN)
    prepare_all(env, {YELLOW: ["Tattoo", "Sand"]})
    denounce(env)
    act(env, core.TIKI_BASE + spot("Coquito-Sand-Tattoo"))  # Yellow is first and blocks one itself
    place_tikis(env)
    assert spot_actions(env) == {"Bikini-Sand-Tattoo", "Diabolo-Sand-Tattoo"}


def test_mao_4_normal_project_blocked_by_a_tiki():
    """Rulebook 3.a / 4. Execution of projects, Normal project ("3 cards designating an empty spot"):
    a tiki on the spot forbids the construction, as in Haapii."""
    env = mao_game()
    prepare_all(env, {YELLOW: ["Bikini", "Rock", "Tattoo"]})
    denounce(env)
    act(env, core.TIKI_BASE + spot("Bikini-Rock-Tattoo"))   # Yellow, first, blocks its own spot
    place_tikis(env)
    assert hut_at(env, "Bikini-Rock-Tattoo") is None and reserve(env, YELLOW) == HUTS_PER_COLOUR


def test_mao_4_overloaded_construction_blocked_by_a_tiki():
    """Rulebook 3.a / 4. Execution of projects, Overloaded project: a tiki on an empty spot forbids
    building there, overloaded projects included."""
    env = mao_game()
    prepare_all(env, {YELLOW: ["Coquito", "Sand", "Lagoon", "Fish"]})
    denounce(env)
    act(env, core.TIKI_BASE + spot("Coquito-Sand-Fish"))   # Yellow, first, blocks one of its spots
    place_tikis(env)
    assert spot_actions(env) == {"Coquito-Lagoon-Fish"}


def test_mao_4_overloaded_take_back_blocked_by_a_protecting_tiki():
    """Rulebook 3.b / 4. Execution of projects: a tiki under a hut forbids repainting it, overloaded
    projects included; the paint card stays in hand."""
    env = mao_game(huts={"Coquito-Sand-Fish": RED})
    prepare_all(env, {YELLOW: ["Coquito", "Sand", "Lagoon", "Fish", "Paint"]})
    denounce(env)
    for colour, name in ((YELLOW, FAR_TIKIS[0]), (BLUE, FAR_TIKIS[1]), (GREEN, FAR_TIKIS[2]),
                         (RED, "Coquito-Sand-Fish")):
        assert colour_to_act(env) == colour
        act(env, core.TIKI_BASE + spot(name))
    assert spot_actions(env) == {"Coquito-Lagoon-Fish"}   # the protected red hut is not offered
    choose(env, "Coquito-Lagoon-Fish")
    assert hut_at(env, "Coquito-Sand-Fish") == RED and paints(env, YELLOW) == NUM_PAINT_CARDS


def test_mao_4_incomplete_three_players_never_build_on_bikini():
    env = mao_game(num_players=3)
    to_execution(env, {YELLOW: ["Sand", "Tattoo"]})
    assert spot_actions(env) == {"Coquito-Sand-Tattoo", "Diabolo-Sand-Tattoo"}


def test_mao_4_overloaded_keanu_example_1_two_huts_from_four_cards():
    """Keanu: Coquito, Sand, Lagoon, Fish -> Coquito-Lagoon-Fish, then Coquito-Sand-Fish, "a group that
    will be worth 6 points".  Two huts are worth 3 by the group table, so the example's group is read
    as three huts: with a hut Keanu already had beside them, on Coquito-Sand-Tattoo (RULES.md, Mao:
    the worked examples)."""
    env = mao_game(huts={"Coquito-Sand-Tattoo": YELLOW})
    to_execution(env, {YELLOW: ["Coquito", "Sand", "Lagoon", "Fish"]})
    assert spot_actions(env) == {"Coquito-Lagoon-Fish", "Coquito-Sand-Fish"} and core.MAO_STOP in legal(env)
    choose(env, "Coquito-Lagoon-Fish")
    assert spot_actions(env) == {"Coquito-Sand-Fish"}
    assert observation(env, BLUE)[core.OBS_M_EXECUTED] == 1
    choose(env, "Coquito-Sand-Fish")
    assert hut_at(env, "Coquito-Lagoon-Fish") == YELLOW and hut_at(env, "Coquito-Sand-Fish") == YELLOW
    # 6 points for the group of three, 4 for the Coquito majority
    assert core.colour_score(env.state(), YELLOW) == 6 + 4


def test_mao_4_overloaded_keanu_example_2_a_hut_and_a_take_back_from_five_cards():
    env = mao_game(huts={"Coquito-Sand-Fish": RED})
    to_execution(env, {YELLOW: ["Coquito", "Sand", "Lagoon", "Fish", "Paint"]})
    assert spot_actions(env) == {"Coquito-Lagoon-Fish", "Coquito-Sand-Fish"}
    choose(env, "Coquito-Lagoon-Fish")
    # "He constructs a hut at the indicated location"
    assert hut_at(env, "Coquito-Lagoon-Fish") == YELLOW and reserve(env, YELLOW) == HUTS_PER_COLOUR - 1
    assert spot_actions(env) == {"Coquito-Sand-Fish"}  # the take-back reuses Coquito and Fish
    choose(env, "Coquito-Sand-Fish")
    # "He repaints yellow the red hut of his opponent": the red hut goes back to Red's reserve
    assert hut_at(env, "Coquito-Sand-Fish") == YELLOW and reserve(env, RED) == HUTS_PER_COLOUR
    assert hut_at(env, "Coquito-Lagoon-Fish") == YELLOW and reserve(env, YELLOW) == HUTS_PER_COLOUR - 2
    assert paints(env, YELLOW) == NUM_PAINT_CARDS - 1  # the used paint card is discarded


def test_mao_4_overloaded_player_may_stop_after_none_or_one_project():
    env = mao_game()
    to_execution(env, {YELLOW: ["Coquito", "Sand", "Lagoon", "Fish"]})
    act(env, core.MAO_STOP)
    assert reserve(env, YELLOW) == HUTS_PER_COLOUR
    env = mao_game()
    to_execution(env, {YELLOW: ["Coquito", "Sand", "Lagoon", "Fish"]})
    choose(env, "Coquito-Sand-Fish")
    act(env, core.MAO_STOP)
    assert reserve(env, YELLOW) == HUTS_PER_COLOUR - 1 and env.decision() == "project"


def test_mao_4_overloaded_never_more_than_two_projects():
    env = mao_game()
    to_execution(env, {YELLOW: list(CARD_NAMES)})
    choose(env, "Azzura-Grass-Flower")
    choose(env, "Bikini-Sand-Flower")
    assert reserve(env, YELLOW) == HUTS_PER_COLOUR - 2 and env.decision() == "project"


def test_mao_4_two_take_backs_need_two_paint_cards():
    huts = {"Coquito-Sand-Fish": RED, "Coquito-Lagoon-Fish": BLUE}
    env = mao_game(huts=huts)
    to_execution(env, {YELLOW: ["Coquito", "Sand", "Lagoon", "Fish", "Paint"]})
    choose(env, "Coquito-Sand-Fish")
    # one paint card: the second take-back is not offered, and nothing else is left to do
    assert hut_at(env, "Coquito-Lagoon-Fish") == BLUE and env.decision() == "project"
    assert paints(env, YELLOW) == 1
    env = mao_game(huts=huts)
    to_execution(env, {YELLOW: ["Coquito", "Sand", "Lagoon", "Fish", "Paint", "Paint"]})
    choose(env, "Coquito-Sand-Fish")
    choose(env, "Coquito-Lagoon-Fish")
    assert hut_at(env, "Coquito-Lagoon-Fish") == YELLOW and paints(env, YELLOW) == 0


def test_mao_4_unused_paint_cards_go_back_to_the_hand():
    env = mao_game()
    to_execution(env, {YELLOW: ["Coquito", "Sand", "Fish", "Paint", "Paint"]})
    assert hut_at(env, "Coquito-Sand-Fish") is None  # the one project possible is still a choice
    choose(env, "Coquito-Sand-Fish")
    assert paints(env, YELLOW) == NUM_PAINT_CARDS


def test_mao_4_take_back_never_of_the_colours_own_hut():
    env = mao_game(huts={"Coquito-Sand-Fish": YELLOW})
    to_execution(env, {YELLOW: ["Coquito", "Sand", "Fish", "Paint"]})
    # nothing Yellow can carry out, so it is not asked; the paint card goes back to the hand
    assert hut_at(env, "Coquito-Sand-Fish") == YELLOW and paints(env, YELLOW) == NUM_PAINT_CARDS


def test_mao_4_two_player_game_take_back_of_the_partner_colours_hut():
    """RULINGS.md, Maka Bana, Players: the partner colour's hut is another colour's, so an overloaded
    project may take it back."""
    env = mao_game(num_players=2, huts={"Coquito-Sand-Fish": GREEN})  # Green is Yellow's partner
    to_execution(env, {YELLOW: ["Coquito", "Sand", "Fish", "Paint"]})
    assert env.decision() == "execution" and spot_actions(env) == {"Coquito-Sand-Fish"}
    choose(env, "Coquito-Sand-Fish")
    assert hut_at(env, "Coquito-Sand-Fish") == YELLOW and paints(env, YELLOW) == NUM_PAINT_CARDS - 1
    assert reserve(env, GREEN) == HUTS_PER_COLOUR


def test_mao_4_execution_reveals_each_project_to_everybody_in_turn():
    env = mao_game(huts={"Coquito-Sand-Tattoo": YELLOW})
    to_execution(env, {YELLOW: ["Coquito", "Sand", "Lagoon", "Fish"], BLUE: ["Sand"]})
    obs = observation(env, RED)  # Yellow executes first; Blue's turn has not come
    k_yellow, k_blue = (YELLOW - RED) % 4, (BLUE - RED) % 4
    assert obs[core.OBS_M_REVEALED_NOW + k_yellow] == 1 and obs[core.OBS_M_REVEALED_NOW + k_blue] == 0
    assert obs[core.OBS_M_COUNT + k_yellow] == 4 and obs[core.OBS_M_COUNT + k_blue] == 0
    revealed = obs[core.OBS_M_REVEALED + k_yellow * core.NUM_CARDS:][:core.NUM_CARDS]
    assert [CARD_NAMES[c] for c in np.flatnonzero(revealed)] == ["Coquito", "Sand", "Lagoon", "Fish"]


# ---------------------------------------------------------------------------------------------------
# Whole games: invariants after every step, and the batched environment
def check_invariants(state, start_paints):
    n = int(state[core.NUM_COLOURS])
    huts = state[core.HUT:core.HUT + NUM_SPOTS]
    for c in range(n):
        assert (huts == c).sum() + state[core.RESERVE + c] == HUTS_PER_COLOUR
        assert 0 <= state[core.PAINTS + c] <= start_paints[c]
        start_paints[c] = state[core.PAINTS + c]
        if state[core.PHASE] == core.PHASE_PROJECT:  # later, used paint cards leave the hand
            assert 0 <= state[core.PROJECT_PAINT + c] <= state[core.PAINTS + c]
        hand = core.HAND_CARDS[n]
        assert state[core.PROJECT_CARDS + c] & ~hand == 0
    assert state[core.ELIMINATED:core.ELIMINATED + n].sum() <= 1


@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_mao_random_games_keep_invariants_and_end(num_players):
    rng = np.random.default_rng(num_players)
    for seed in range(10):
        env = makabana_env.raw_env(num_players=num_players, variant="mao")
        env.reset(seed=seed)
        start = [NUM_PAINT_CARDS] * 5
        steps = 0
        while env.agents and not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
            m = mask(env)
            assert m.any()
            env.step(int(rng.choice(np.flatnonzero(m))))
            check_invariants(env.state(), start)
            steps += 1
        assert steps > 0 and env.state()[core.STATUS] != core.STATUS_RUNNING


def test_mao_batch_env_plays_like_single_games():
    batch = makabana_env.BatchEnv(6, seed=40, variant="mao", num_players=3, max_turns=30)
    singles = [makabana_env.raw_env(num_players=3, variant="mao", max_turns=30) for _ in range(6)]
    for i, e in enumerate(singles):
        e.reset(seed=40 + i)
    for _ in range(300):
        actions = batch.random_actions()
        for i, e in enumerate(singles):
            if e.agents and not e.terminations[e.agent_selection] and not e.truncations[e.agent_selection]:
                np.testing.assert_array_equal(batch.states[i], e.state())
                np.testing.assert_array_equal(batch.observations[i], e.observe(e.agent_selection)["observation"])
                e.step(int(actions[i]))
        batch.step(actions)
    assert batch.observations.shape == (6, core.OBS_SIZE_MAO) and batch.action_masks.shape == (6, 343)


# ---------------------------------------------------------------------------------------------------
# 4. Execution: an overloaded paint project that builds, and a normal project naming no spot
def test_mao_4_overloaded_paint_and_three_cards_naming_an_empty_spot_builds_there():
    """Rulebook Mao 4 "Overloaded project": "If the project contains 4 cards or more, he combines 3 of
    these cards, as he wishes, to create a construction project"; "A player who has prepared 1 or 2
    paint cards is not forced to use them, if he doesn't he takes them back in his hand".  Coquito,
    Grass, Fish and a paint card on an empty spot: no take-back is possible, but the three cards build
    on Coquito-Grass-Fish, and the paint card goes back to the hand."""
    env = mao_game(huts={"Diabolo-Rock-Fish": BLUE})
    to_execution(env, {YELLOW: (["Coquito", "Grass", "Fish", "Paint"], "Paint")})
    assert env.decision() == "execution" and colour_to_act(env) == YELLOW
    assert spot_actions(env) == {"Coquito-Grass-Fish"} and core.MAO_STOP in legal(env)
    choose(env, "Coquito-Grass-Fish")
    assert hut_at(env, "Coquito-Grass-Fish") == YELLOW
    assert reserve(env, YELLOW) == HUTS_PER_COLOUR - 1 and paints(env, YELLOW) == NUM_PAINT_CARDS
    assert hut_at(env, "Diabolo-Rock-Fish") == BLUE and env.decision() == "project"


def test_mao_4_three_card_project_naming_a_spot_that_does_not_exist_builds_nothing():
    """Rulebook 1.a "Attention": "An incorrect project (non-existing ... spot ...) will be cancelled"
    and 4.a "The designated spot exists"; Mao 4 "Normal project": 3 cards build only on the spot they
    designate.  Azzura, Sand and Fish are a beach, an area and a theme, but Azzura has no Sand area:
    Yellow is asked nothing, builds nothing (not on another Azzura or Sand spot) and keeps every hut."""
    env = mao_game(huts={"Diabolo-Rock-Fish": BLUE})
    before = env.state()[core.HUT:core.HUT + NUM_SPOTS].copy()
    to_execution(env, {YELLOW: ["Azzura", "Sand", "Fish"]})
    assert env.decision() == "project" and int(env.state()[core.SEASON]) == 1   # nothing was asked
    np.testing.assert_array_equal(env.state()[core.HUT:core.HUT + NUM_SPOTS], before)
    assert reserve(env, YELLOW) == HUTS_PER_COLOUR and paints(env, YELLOW) == NUM_PAINT_CARDS
    obs = observation(env, RED)                          # the project was revealed, and did nothing
    revealed = obs[core.OBS_M_REVEALED + (YELLOW - RED) % 4 * core.NUM_CARDS:][:core.NUM_CARDS]
    assert [CARD_NAMES[c] for c in np.flatnonzero(revealed)] == ["Azzura", "Sand", "Fish"]
    assert not obs[core.OBS_M_DONE + (YELLOW - RED) % 4 * NUM_SPOTS:][:NUM_SPOTS].any()


# ---------------------------------------------------------------------------------------------------
# 5. Season End: "The victory condition are the same as in the first step"
def test_mao_5_season_end_full_beach_gives_exactly_one_more_season():
    """Rulebook Mao 5 "Season End": the end conditions are Haapii's -- "The game continues for one last
    season if one beach is completely occupied by huts or Tikis" (checked before the tikis are lifted).
    Diabolo holds 7 huts; Yellow's and Blue's tikis fill its two free spots: last season, the tikis
    are lifted, one more Mao season is played (projects, denunciation round, tikis), then it ends."""
    diabolo = [n for n in SPOT_NAMES if n.startswith("Diabolo")]
    free = diabolo[:2]
    env = mao_game(huts={name: i % 4 for i, name in enumerate(diabolo[2:])})
    prepare_all(env)
    denounce(env)
    act(env, core.TIKI_BASE + spot(free[0]))             # Yellow
    act(env, core.TIKI_BASE + spot(free[1]))             # Blue
    place_tikis(env)
    s = env.state()
    assert int(s[core.SEASON]) == 1 and s[core.LAST_SEASON] == 1
    assert not (s[core.TIKI:core.TIKI + NUM_SPOTS] >= 0).any()   # the tikis were lifted after the check
    assert observation(env, GREEN)[core.OBS_LAST_SEASON] == 1
    assert env.decision() == "project" and not any(env.terminations.values())
    to_execution(env)                                    # the last season
    assert env.decision() == "over"
    assert all(env.terminations.values()) and not any(env.truncations.values())
    assert int(env.state()[core.SEASON]) == 2


def test_mao_5_season_end_a_colour_out_of_huts_ends_the_game_at_the_end_of_that_season():
    """Rulebook Mao 5 "Season End" / "Game Ends": "The game ends immediately if a player doesn't have
    any hut left in his reserve", checked at the end of the season (RULES.md "End of the game").
    Yellow, with 2 huts left, builds both with one overloaded project (Keanu's example 1); Blue still
    executes its project later in the season, then the game ends with no further season."""
    yellow_eight = ["Bikini-Sand-Flower", "Bikini-Sand-Tattoo", "Bikini-Grass-Flower", "Coquito-Grass-Flower",
                    "Coquito-Sand-Flower", "Diabolo-Sand-Fish", "Diabolo-Rock-Tattoo", "Diabolo-Grass-Flower"]
    env = mao_game(huts={n: YELLOW for n in yellow_eight})
    assert reserve(env, YELLOW) == 2
    to_execution(env, {YELLOW: ["Coquito", "Sand", "Lagoon", "Fish"], BLUE: ["Bikini", "Rock", "Tattoo"]})
    choose(env, "Coquito-Lagoon-Fish")
    assert env.decision() == "execution" and reserve(env, YELLOW) == 1
    choose(env, "Coquito-Sand-Fish")
    assert reserve(env, YELLOW) == 0
    assert hut_at(env, "Bikini-Rock-Tattoo") == BLUE     # the season was played to its end
    assert int(env.state()[core.SEASON]) == 1 and env.state()[core.LAST_SEASON] == 0
    assert env.decision() == "over"
    assert all(env.terminations.values()) and not any(env.truncations.values())


def test_mao_denunciation_payback_with_the_last_hut_of_aatas_reserve_ends_the_game_at_season_end():
    """Rulebook Mao "Aata must be paid back": "Aata freely repaints a hut belonging to Vaea" -- with a
    hut from his reserve -- and "This doesn't disrupt Aata's turn"; "Game Ends": a player without a
    hut in his reserve ends the game, checked at the end of the season (RULES.md "End of the game").
    Blue (9 huts on the board) is paid back with its tenth hut: the season goes on (tikis, execution;
    Blue's own project has no hut left to build with, Red still builds), then the game is over."""
    blue_nine = ["Bikini-Sand-Flower", "Bikini-Sand-Tattoo", "Bikini-Grass-Tattoo", "Coquito-Grass-Flower",
                 "Coquito-Sand-Flower", "Coquito-Lagoon-Flower", "Diabolo-Sand-Fish", "Diabolo-Grass-Tattoo",
                 "Coquito-Grass-Tattoo"]
    env = mao_game(huts={**{n: BLUE for n in blue_nine}, "Diabolo-Rock-Fish": GREEN})
    assert reserve(env, BLUE) == 1
    prepare_all(env, {BLUE: ["Bikini", "Lagoon", "Fish"], GREEN: ["Coquito", "Grass", "Flower", "Paint"],
                      RED: ["Bikini", "Rock", "Tattoo"]})
    denounce(env, {BLUE: GREEN})                         # Green threatens Blue's Coquito-Grass-Flower
    assert env.decision() == "payback" and colour_to_act(env) == BLUE
    choose(env, "Diabolo-Rock-Fish")
    assert hut_at(env, "Diabolo-Rock-Fish") == BLUE and reserve(env, BLUE) == 0
    assert paints(env, GREEN) == NUM_PAINT_CARDS - 1 and reserve(env, GREEN) == HUTS_PER_COLOUR
    assert env.decision() == "tiki" and not any(env.terminations.values())   # not at once
    assert place_tikis(env) == [YELLOW, BLUE, RED]
    assert hut_at(env, "Bikini-Lagoon-Fish") is None      # Blue had no hut left to build with
    assert hut_at(env, "Bikini-Rock-Tattoo") == RED       # the season was played to its end
    assert int(env.state()[core.SEASON]) == 1
    assert env.decision() == "over"
    assert all(env.terminations.values()) and not any(env.truncations.values())


# ---------------------------------------------------------------------------------------------------
# RULINGS "Conventions for all three games": public information stays observable
def test_mao_revealed_project_stays_observable_in_later_seasons_denunciation_is_this_seasons():
    """RULINGS "Conventions": "Information that becomes public (a revealed project ...) stays observable
    where a player at the table would remember it"; RULES.md, Observation, Mao block: OBS_M_REVEALED
    holds "the colour's most recently revealed project" and OBS_M_DONE where it built, with
    OBS_M_REVEALED_NOW telling whether that was this season; the denunciation block is documented as
    "this season's denunciation round".  Yellow's season-1 project (Coquito, Lagoon, Fish, built on
    Coquito-Lagoon-Fish) stays in Red's view through season 2, in which Yellow is denounced and
    eliminated (so it reveals nothing new), and into season 3."""
    env = mao_game()
    to_execution(env, {YELLOW: ["Coquito", "Lagoon", "Fish"]})
    assert hut_at(env, "Coquito-Lagoon-Fish") == YELLOW and int(env.state()[core.SEASON]) == 1
    k = (YELLOW - RED) % 4

    def yellow_seen_by_red():
        obs = observation(env, RED)
        revealed = obs[core.OBS_M_REVEALED + k * core.NUM_CARDS:][:core.NUM_CARDS]
        done = obs[core.OBS_M_DONE + k * NUM_SPOTS:][:NUM_SPOTS]
        return ([CARD_NAMES[c] for c in np.flatnonzero(revealed)], [SPOT_NAMES[s] for s in np.flatnonzero(done)],
                int(obs[core.OBS_M_REVEALED_NOW + k]), obs)

    season_1 = (["Coquito", "Lagoon", "Fish"], ["Coquito-Lagoon-Fish"])
    checks = 0
    # season 2: Blue is first; Yellow's 4-card project is denounced by Blue, so Yellow is eliminated
    prepare_all(env, {YELLOW: ["Coquito", "Sand", "Fish", "Flower"]})
    while env.decision() in ("denunciation", "tiki"):
        cards, done, now, _ = yellow_seen_by_red()
        assert (cards, done) == season_1 and now == 0
        checks += 1
        if env.decision() == "denunciation":
            denounce(env, {BLUE: YELLOW})
            assert env.state()[core.ELIMINATED + YELLOW] == 1
            assert count_seen(env, RED, YELLOW) == 4      # the denounced count is public this season
        else:
            place_tikis(env)
    assert checks >= 2 and int(env.state()[core.SEASON]) == 2
    assert hut_at(env, "Coquito-Sand-Fish") is None       # eliminated: Yellow executed nothing
    # season 3: Yellow's season-1 project is still remembered; last season's round is not this season's
    cards, done, now, obs = yellow_seen_by_red()
    assert (cards, done) == season_1 and now == 0
    assert count_seen(env, RED, YELLOW) == 0
    for block in (core.OBS_M_DENOUNCER, core.OBS_M_DENOUNCED, core.OBS_M_ELIMINATED):
        assert not obs[block:block + 4].any()
    kb = (BLUE - RED) % 4                                 # Blue's season-2 project was revealed
    assert [CARD_NAMES[c] for c in np.flatnonzero(obs[core.OBS_M_REVEALED + kb * core.NUM_CARDS:][:core.NUM_CARDS])] \
        == DUD


def test_mao_denunciation_paint_naming_only_vaeas_own_hut_could_repaint_nothing_and_is_not_used():
    """Rulebook Mao [Who is eliminated for the season?] "If Vaea was eliminated when he could repaint at
    least one hut" -- a take-back repaints "the hut of an opponent", so RULINGS reads "could repaint"
    as a spot holding *another colour's* hut.  Green's take-back names Azzura-Grass-Flower, which holds
    Green's own hut: Green could repaint nothing, so there is no paint case (no offer of Blue's hut) and
    Green keeps both paint cards."""
    env = mao_game(huts={"Azzura-Grass-Flower": GREEN, "Coquito-Grass-Fish": BLUE})
    prepare_all(env, {GREEN: PAINT_PROJECT})
    denounce(env, {BLUE: GREEN})
    state = env.state()
    assert state[core.ELIMINATED + GREEN] == 1
    assert state[core.PAINT_CASE] == core.CASE_NONE
    assert env.decision() == "tiki" and paints(env, GREEN) == NUM_PAINT_CARDS
    assert hut_at(env, "Coquito-Grass-Fish") == BLUE and hut_at(env, "Azzura-Grass-Flower") == GREEN


def test_mao_denunciation_aata_paid_back_repaints_only_a_hut_of_vaeas_never_a_third_colours():
    """Rulebook Mao "Aata must be paid back!": "Aata freely repaints a hut belonging to Vaea, using
    the Vaea's paint" -- a hut of Vaea's colour, not any opponent's.  With a hut of Red's on the board
    too, Blue (Aata) is offered Green's (Vaea's) two huts only."""
    env = mao_game(huts={"Azzura-Grass-Flower": BLUE, "Coquito-Grass-Fish": GREEN,
                         "Diabolo-Rock-Fish": GREEN, "Bikini-Sand-Fish": RED})
    prepare_all(env, {GREEN: PAINT_PROJECT})
    denounce(env, {BLUE: GREEN})
    assert env.decision() == "payback" and colour_to_act(env) == BLUE
    assert env.state()[core.PAINT_CASE] == core.CASE_PAID_BACK
    assert spot_actions(env) == {"Coquito-Grass-Fish", "Diabolo-Rock-Fish"}
