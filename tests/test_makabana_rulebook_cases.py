"""Maka Bana rules and worked examples of the rulebook that the other rules tests leave open: the areas
and squares of every beach, the beach bonus with a tie below the leader, who is eliminated when the
stacks differ, the two-player comparison of the named colours, the paid-back note, the Temanava and
incomplete-project examples.  Each test names the rulebook section (or RULINGS.md) it checks and drives
the Numba core through ``raw_env``; where it plays a season it replays the same actions in the
plain-Python reference (``makabana_env.reference``) and asserts the same outcome there, so that a
misreading the two implementations share is caught too.
"""
import pytest

from makabana_env import core
from makabana_env.board import (
    AREAS, BEACHES, HUTS_PER_COLOUR, NUM_PAINT_CARDS, NUM_SPOTS, SPOT_AREA, SPOT_BEACH, SPOT_INDEX, SPOT_NAMES,
    SPOT_XY,
)
from makabana_env.reference import ReferenceGame

from makabana_positions import hut_at, new_game, paints, position, reserve
from test_makabana_mao import (
    BLUE, GREEN, RED, YELLOW, choose, colour_to_act, denounce, legal, mao_game, place_tikis, prepare_all,
    spot_actions, to_execution,
)


# -- the reference, replaying the environment's actions ------------------------------------------------
class Recorded:
    """Records every action stepped into ``env`` so that the same game can be replayed in the reference."""

    def __init__(self, env, num_players, huts=None, paint_cards=None, first=0):
        self.env, self.actions = env, []
        self.setup = (num_players, dict(huts or {}), dict(paint_cards or {}), first)
        step = env.step

        def recording_step(action):
            self.actions.append(int(action))
            step(action)
        env.step = recording_step

    def reference(self):
        num_players, huts, paint_cards, first = self.setup
        game = ReferenceGame(num_players=num_players, variant="mao")
        for name, colour in huts.items():
            game.huts[SPOT_INDEX[name]] = colour
            game.reserve[colour] -= 1
        for colour, n in paint_cards.items():
            game.paints[colour] = n
        game.first = game.to_act = first
        for action in self.actions:
            game.step(action)
        return game


def mao_pair(num_players=4, huts=None, paint_cards=None, first=0):
    env = mao_game(num_players, huts=huts, paints=paint_cards, first=first)
    return env, Recorded(env, num_players, huts, paint_cards, first)


def ref_hut(game, name):
    return game.huts[SPOT_INDEX[name]]


# =====================================================================================================
# Maka Bana Island / RULINGS.md "Board (reconstruction)"
RULINGS_XY = {
    "Azzura-Rock-Flower": (0, 1), "Azzura-Rock-Fish": (4, 2), "Azzura-Rock-Tattoo": (0, 2),
    "Azzura-Grass-Flower": (3, 1), "Azzura-Grass-Fish": (4, 1), "Azzura-Grass-Tattoo": (3, 2),
    "Azzura-Lagoon-Flower": (2, 4), "Azzura-Lagoon-Fish": (1, 4), "Azzura-Lagoon-Tattoo": (1, 2),
    "Bikini-Sand-Flower": (8, 0), "Bikini-Sand-Fish": (9, 0), "Bikini-Sand-Tattoo": (10, 0),
    "Bikini-Grass-Flower": (8, 1), "Bikini-Grass-Fish": (9, 1), "Bikini-Grass-Tattoo": (12, 0),
    "Bikini-Rock-Flower": (13, 0), "Bikini-Rock-Fish": (11, 4), "Bikini-Rock-Tattoo": (10, 4),
    "Bikini-Lagoon-Flower": (11, 3), "Bikini-Lagoon-Fish": (10, 3), "Bikini-Lagoon-Tattoo": (13, 1),
    "Coquito-Sand-Flower": (4, 9), "Coquito-Sand-Fish": (6, 7), "Coquito-Sand-Tattoo": (6, 8),
    "Coquito-Grass-Flower": (1, 8), "Coquito-Grass-Fish": (2, 5), "Coquito-Grass-Tattoo": (3, 5),
    "Coquito-Lagoon-Flower": (3, 9), "Coquito-Lagoon-Fish": (5, 7), "Coquito-Lagoon-Tattoo": (3, 6),
    "Diabolo-Sand-Flower": (7, 8), "Diabolo-Sand-Fish": (10, 8), "Diabolo-Sand-Tattoo": (11, 8),
    "Diabolo-Grass-Flower": (10, 5), "Diabolo-Grass-Fish": (10, 6), "Diabolo-Grass-Tattoo": (11, 5),
    "Diabolo-Rock-Flower": (11, 6), "Diabolo-Rock-Fish": (7, 7), "Diabolo-Rock-Tattoo": (8, 7),
}


def test_island_board_is_the_rulings_reconstruction_areas_per_beach_and_squares():
    """Rulebook "Maka Bana Island" ("The Bikini beach contains the four areas while other beaches only
    have three") and RULINGS.md "Board (reconstruction)": Azzura Rock, Grass, Lagoon; Bikini all four;
    Coquito Sand, Grass, Lagoon; Diabolo Sand, Rock, Grass -- and every spot on the square RULINGS gives
    it (a Rock area swapped onto Coquito, or a moved square, would fail here)."""
    areas = {b: sorted({AREAS[SPOT_AREA[s]] for s in range(NUM_SPOTS) if BEACHES[SPOT_BEACH[s]] == b})
             for b in BEACHES}
    assert areas == {"Azzura": ["Grass", "Lagoon", "Rock"], "Bikini": ["Grass", "Lagoon", "Rock", "Sand"],
                     "Coquito": ["Grass", "Lagoon", "Sand"], "Diabolo": ["Grass", "Rock", "Sand"]}
    assert {name: tuple(int(v) for v in SPOT_XY[SPOT_INDEX[name]]) for name in SPOT_NAMES} == RULINGS_XY


# =====================================================================================================
# Bonus for Beaches
def test_beach_bonus_sole_leader_gets_4_while_the_others_tie_below_him():
    """Rulebook "Bonus for Beaches": "If one player has more huts than any of his opponents he gains 4
    points" -- also when two opponents tie for second place (no 2-point tie bonus for them)."""
    a = ["Azzura-Grass-Flower", "Azzura-Rock-Flower", "Azzura-Rock-Fish", "Azzura-Lagoon-Fish",
         "Azzura-Lagoon-Tattoo"]   # no two share a side
    env = position(new_game(4), {a[0]: YELLOW, a[1]: YELLOW, a[2]: YELLOW, a[3]: BLUE, a[4]: GREEN})
    assert env.colour_scores() == [3 + 4, 1, 1, 0]


# =====================================================================================================
# Maka Bana Mao, Denunciation: "Who is eliminated for the season?"
def test_mao_who_is_eliminated_5_cards_cheat_more_than_4_both_ways():
    """Rulebook Mao "Who is eliminated for the season?": "A stack of 5 cards cheats more than a stack
    of 4 cards"; "If the project of Vaea is cheating as much *or less* than that of Aata, he has been
    falsely denunciated. Aata is therefore eliminated".  Aata (5 cards) denouncing Vaea (4 cards) must
    eliminate Aata, and Aata
    (4 cards) denouncing Vaea (5 cards) must eliminate Vaea.  The eliminated Aata then places no tiki
    and executes nothing ("The eliminated player, either Vaea or Aata ...")."""
    five = ["Bikini", "Sand", "Fish", "Flower", "Tattoo"]
    four = ["Diabolo", "Sand", "Fish", "Flower"]
    # Aata (Yellow) cheats more than Vaea (Blue): Aata is out
    env, rec = mao_pair()
    prepare_all(env, {YELLOW: five, BLUE: four})
    denounce(env, {YELLOW: BLUE})
    s = env.state()
    assert s[core.ELIMINATED + YELLOW] == 1 and s[core.ELIMINATED + BLUE] == 0
    assert place_tikis(env) == [BLUE, GREEN, RED]          # no tiki for the eliminated Aata
    while env.decision() == "execution":                    # Blue builds; Yellow executes nothing
        choose(env, sorted(spot_actions(env))[0])
    assert reserve(env, YELLOW) == HUTS_PER_COLOUR and reserve(env, BLUE) < HUTS_PER_COLOUR
    ref = rec.reference()
    assert ref.reserve[YELLOW] == HUTS_PER_COLOUR and ref.reserve[BLUE] == reserve(env, BLUE)
    # Aata (Yellow) cheats less than Vaea (Blue): the denunciation is valid
    env, rec = mao_pair()
    prepare_all(env, {YELLOW: four, BLUE: five})
    denounce(env, {YELLOW: BLUE})
    s = env.state()
    assert s[core.ELIMINATED + BLUE] == 1 and s[core.ELIMINATED + YELLOW] == 0
    assert rec.reference().eliminated == {BLUE}


def test_mao_2_players_the_two_named_colours_projects_are_compared():
    """Rulebook "Maka Bana for 2 Players": "a denunciator must announce the color that is denunciating
    and the color that is denunciated. These 2 projects will be compared".  Yellow (player_0, 3 cards)
    denounces Blue (player_1, 4 cards): Blue cheats more and is out -- although player_0's other colour,
    Green, holds a 1-card project (summing or maxing per player would eliminate Yellow)."""
    env, rec = mao_pair(num_players=2)
    prepare_all(env, {YELLOW: ["Azzura", "Grass", "Flower"], BLUE: ["Diabolo", "Sand", "Fish", "Flower"],
                      GREEN: ["Sand"]})
    denounce(env, {YELLOW: BLUE})
    s = env.state()
    assert s[core.ELIMINATED + BLUE] == 1 and s[core.ELIMINATED + YELLOW] == 0
    assert rec.reference().eliminated == {BLUE}


# =====================================================================================================
# Maka Bana Mao, Denunciation: the paint cases
def test_mao_paid_back_when_vaea_could_repaint_aatas_hut_even_if_he_could_repaint_another_too():
    """Rulebook Mao "Vaea, eliminated, could repaint a hut belonging to Aata": "if it is possible to find
    in his project, along with the paint card, a set of 3 cards indicating a spot where Aata has a hut,
    then he has the right to be paid back" and the Note: "Aata has the right to use his opponent's
    paint only if Vaea was able to take back one of Aata's hut, even if Vaea swears that was not what he
    was planning to do".  Green's overloaded stack (Coquito, Sand, Lagoon, Fish, Paint) names Red's
    hut on Coquito-Lagoon-Fish *and* Blue's on Coquito-Sand-Fish: Blue (Aata) is paid back, not
    "not minding his business"."""
    huts = {"Coquito-Lagoon-Fish": RED, "Coquito-Sand-Fish": BLUE, "Diabolo-Rock-Tattoo": GREEN}
    env, rec = mao_pair(huts=huts)
    prepare_all(env, {GREEN: ["Coquito", "Sand", "Lagoon", "Fish", "Paint"]})
    denounce(env, {BLUE: GREEN})
    assert env.state()[core.PAINT_CASE] == core.CASE_PAID_BACK
    assert env.decision() == "payback" and colour_to_act(env) == BLUE
    choose(env, "Diabolo-Rock-Tattoo")
    assert hut_at(env, "Diabolo-Rock-Tattoo") == BLUE and paints(env, GREEN) == NUM_PAINT_CARDS - 1
    ref = rec.reference()
    assert ref.paint_case == "Aata must be paid back"
    assert ref_hut(ref, "Diabolo-Rock-Tattoo") == BLUE and ref.paints[GREEN] == NUM_PAINT_CARDS - 1


def test_mao_paid_back_does_not_disrupt_aatas_turn_he_still_executes_his_project():
    """Rulebook Mao "Aata must be paid back": "This doesn't disrupt Aata's turn, and he will be able to
    execute his project when his turn comes."  Blue, paid back, still builds with its own normal
    project (Bikini-Rock-Tattoo) in the execution."""
    huts = {"Azzura-Grass-Flower": BLUE, "Coquito-Grass-Fish": GREEN}
    env, rec = mao_pair(huts=huts)
    prepare_all(env, {GREEN: ["Azzura", "Grass", "Flower", "Paint"], BLUE: ["Bikini", "Rock", "Tattoo"]})
    denounce(env, {BLUE: GREEN})
    choose(env, "Coquito-Grass-Fish")
    assert hut_at(env, "Coquito-Grass-Fish") == BLUE
    place_tikis(env)
    assert hut_at(env, "Bikini-Rock-Tattoo") == BLUE
    assert reserve(env, BLUE) == HUTS_PER_COLOUR - 3
    ref = rec.reference()
    assert ref_hut(ref, "Bikini-Rock-Tattoo") == BLUE and ref.reserve[BLUE] == HUTS_PER_COLOUR - 3


def test_mao_not_minding_with_no_hut_of_aatas_nothing_happens_and_vaea_keeps_the_paint_card():
    """Rulebook Mao "Aata's not minding his business!" with RULES.md's decision: Green's take-back names
    Red's hut, so Blue (Aata) was not minding his business; Blue has no hut on the board to designate,
    so nothing is repainted, Green keeps both paint cards, and the tikis follow."""
    env, rec = mao_pair(huts={"Azzura-Grass-Flower": RED})
    prepare_all(env, {GREEN: ["Azzura", "Grass", "Flower", "Paint"]})
    denounce(env, {BLUE: GREEN})
    s = env.state()
    assert s[core.ELIMINATED + GREEN] == 1 and s[core.PAINT_CASE] == core.CASE_NOT_MINDING
    assert env.decision() == "tiki"
    assert hut_at(env, "Azzura-Grass-Flower") == RED and paints(env, GREEN) == NUM_PAINT_CARDS
    assert reserve(env, BLUE) == HUTS_PER_COLOUR and reserve(env, GREEN) == HUTS_PER_COLOUR
    ref = rec.reference()
    assert ref.paint_case == "Aata's not minding his business" and ref.phase == "tiki"
    assert ref_hut(ref, "Azzura-Grass-Flower") == RED and ref.paints[GREEN] == NUM_PAINT_CARDS


def test_mao_2_players_aatas_colour_is_the_denouncing_colour_not_its_partner():
    """Rulebook "Maka Bana for 2 Players" ("announce the color that is denunciating") and RULES.md: the
    paint cases read "Aata's colour" as the colour that denounced.  player_1's Blue denounces Green,
    whose take-back names a hut of Red, Blue's partner colour (player_1's too): Blue was not minding
    his business (not paid back), and Blue designates one of Blue's huts, never Red's."""
    huts = {"Azzura-Grass-Flower": RED, "Diabolo-Rock-Fish": RED,
            "Coquito-Grass-Fish": BLUE, "Diabolo-Sand-Fish": BLUE}
    env, rec = mao_pair(num_players=2, huts=huts)
    prepare_all(env, {GREEN: ["Azzura", "Grass", "Flower", "Paint"]})
    denounce(env, {BLUE: GREEN})
    assert env.state()[core.PAINT_CASE] == core.CASE_NOT_MINDING
    assert env.decision() == "payback" and colour_to_act(env) == BLUE
    assert spot_actions(env) == {"Coquito-Grass-Fish", "Diabolo-Sand-Fish"}
    choose(env, "Diabolo-Sand-Fish")
    assert env.decision() == "repaint offer" and colour_to_act(env) == GREEN
    choose(env, "Diabolo-Sand-Fish")
    assert hut_at(env, "Diabolo-Sand-Fish") == GREEN and hut_at(env, "Azzura-Grass-Flower") == RED
    ref = rec.reference()
    assert ref.paint_case == "Aata's not minding his business"
    assert ref_hut(ref, "Diabolo-Sand-Fish") == GREEN and ref_hut(ref, "Azzura-Grass-Flower") == RED


# =====================================================================================================
# Maka Bana Mao, 1. Secret selection: the Temanava example (a 4-card take-back)
@pytest.mark.parametrize("top", ["Paint", "Bikini", "Fish"])
def test_mao_1_temanava_example_four_card_take_back_of_mareva_s_hut(top):
    """Rulebook Mao 1: "Temanava wishes to repaint the hut of Mareva placed on Bikini beach, Fish
    Theme, Lagoon Area. She must prepare at least 4 cards: Bikini, Lagoon, Fish and Paint. She freely
    chooses the card that will be visible on top of her stack."  Undenounced, the 4-card take-back
    replaces Mareva's (Yellow's) hut by one of Temanava's (Blue's), whatever card is on top, and the
    used paint card is discarded."""
    env, rec = mao_pair(huts={"Bikini-Lagoon-Fish": YELLOW})
    to_execution(env, {BLUE: (["Bikini", "Lagoon", "Fish", "Paint"], top)})
    assert env.decision() == "execution" and colour_to_act(env) == BLUE
    assert spot_actions(env) == {"Bikini-Lagoon-Fish"}
    choose(env, "Bikini-Lagoon-Fish")
    assert hut_at(env, "Bikini-Lagoon-Fish") == BLUE
    assert reserve(env, YELLOW) == HUTS_PER_COLOUR and reserve(env, BLUE) == HUTS_PER_COLOUR - 1
    assert paints(env, BLUE) == NUM_PAINT_CARDS - 1
    ref = rec.reference()
    assert ref_hut(ref, "Bikini-Lagoon-Fish") == BLUE and ref.paints[BLUE] == NUM_PAINT_CARDS - 1


# =====================================================================================================
# Maka Bana Mao, 4. Execution
def test_mao_4_incomplete_example_bikini_and_lagoon_the_theme_is_chosen_from_the_hand():
    """Rulebook Mao 4 "Incomplete construction project", example: "Mareva has prepared a 2 card project:
    Bikini Beach and Lagoon Area. She freely chooses the Theme from her hand." -- a beach and an area
    (tests/test_makabana_mao.py gives an area and a theme, or an area alone)."""
    env, rec = mao_pair(huts={"Bikini-Lagoon-Fish": RED})
    to_execution(env, {YELLOW: ["Bikini", "Lagoon"]})
    assert env.decision() == "execution" and colour_to_act(env) == YELLOW
    assert spot_actions(env) == {"Bikini-Lagoon-Flower", "Bikini-Lagoon-Tattoo"}
    assert core.MAO_STOP not in legal(env)
    choose(env, "Bikini-Lagoon-Tattoo")
    assert hut_at(env, "Bikini-Lagoon-Tattoo") == YELLOW
    assert ref_hut(rec.reference(), "Bikini-Lagoon-Tattoo") == YELLOW


@pytest.mark.parametrize("cards", [["Bikini", "Sand", "Rock"], ["Grass", "Flower", "Fish"], ["Flower", "Fish"]])
def test_mao_4_illegal_normal_or_incomplete_project_with_two_cards_of_one_kind_builds_nothing(cards):
    """Rulebook Mao 4 "Normal project" Note: "For example, a project containing 2 areas and 1 beach would
    be illegal"; Translator's note: a 2-card project "containing 2 cards for the same characteristic"
    builds nothing (a beach and two areas, an area and two themes, two themes alone)."""
    env, rec = mao_pair()
    to_execution(env, {YELLOW: cards})
    assert reserve(env, YELLOW) == HUTS_PER_COLOUR and paints(env, YELLOW) == NUM_PAINT_CARDS
    ref = rec.reference()
    assert ref.reserve[YELLOW] == HUTS_PER_COLOUR and ref.paints[YELLOW] == NUM_PAINT_CARDS
