"""Mauna Kea rules of the rulebook that the other rules tests leave open: one tile's points shared
among explorers, the lava's arrows where a branch bends back, each task card used once, the 30 game
cards, a rescued explorer in the tie-break.  Each test names the rulebook section it checks.
"""

from maunakea_env import core
from maunakea_env.board import (
    ACTION_EARTHQUAKE, ACTION_HELICOPTER, ACTION_JUNGLE, ACTION_MOUNTAIN, ACTION_WATER,
    BOAT_COLOURS, CARD_KIND, CARD_KIND_COPIES, NUM_CARDS, NUM_SET_TASKS, SET_TASK_BONUS, SET_TASK_NEEDS,
    TASK_BOAT, TASK_NO_DEDUCTION, TASK_TWO_EXPLORERS,
)
from maunakea_positions import (
    E, END_TURN, FORK, LEFT_BEND, NORTH_FLOW, STRAIGHT, W, act, commit, empty_hands, explorer_square,
    explorer_status, field_tile, lava_tile, lose_explorer, move, pool, put_explorer, set_hand, spend,
)
from test_maunakea_advanced import advanced_game, give_cards, scored
from test_maunakea_rules import craft, erupt, final_rewards


# =====================================================================================================
# Course of the Game: Moving explorers
def test_moving_explorers_the_points_of_one_tile_are_shared_among_several_explorers():
    """Rulebook Moving explorers: "You can distribute the number of points indicated on the tile among
    your own explorers as you wish" -- one 3-point tile moves two explorers."""
    env, s = craft()
    put_explorer(s, 1, 0, "D4-se")
    put_explorer(s, 1, 1, "D4-nw")
    set_hand(s, 1, ["jungle"])                           # 3 points
    commit(env, s, player=1, pool=0)
    act(env, spend(0))
    act(env, move(0, W))                                 # D4-sw, 1 point
    act(env, move(1, E))                                 # D4-ne, 1 point
    assert explorer_square(env, 1, 0) == "D4-sw" and explorer_square(env, 1, 1) == "D4-ne"
    assert pool(env) == 1
    act(env, move(0, 0))                                 # the last point, explorer 0 again: D4-nw
    assert explorer_square(env, 1, 0) == "D4-nw" and pool(env) == 0


# =====================================================================================================
# Volcanic eruption
def test_volcanic_eruption_the_arrows_continue_the_flow_even_where_a_branch_bends_back():
    """Rulebook Volcanic eruption: "The arrows always show away from the volcano!", read (RULES.md,
    "Volcanic eruption") as: each tile's arrows continue its flow, downstream from the volcano, and the
    tile's shape fixes its exit (RULINGS.md).  North flow: a fork on E3 (branches west "•" and east), a
    left bend on D3 (the west branch now heads south), a straight on F3 (the east branch), then the "•"
    branch again: its next field is the start field D4, beside the volcano, which the lava covers."""
    env, s = craft()
    commit(env, s)
    for tile in (lava_tile(NORTH_FLOW, FORK), lava_tile(NORTH_FLOW, LEFT_BEND),
                 lava_tile(NORTH_FLOW, STRAIGHT, 0), lava_tile(NORTH_FLOW, STRAIGHT, 1)):
        erupt(env, tile)
    assert field_tile(env, "E3") == lava_tile(NORTH_FLOW, FORK)
    assert field_tile(env, "D3") == lava_tile(NORTH_FLOW, LEFT_BEND)
    assert field_tile(env, "F3") == lava_tile(NORTH_FLOW, STRAIGHT, 0)
    assert field_tile(env, "D4") == lava_tile(NORTH_FLOW, STRAIGHT, 1)


# =====================================================================================================
# Overview of the Tasks and Actions of the Game Cards: Task cards ("The card may only be used once")
def test_task_cards_two_explorers_saved_counts_once_for_four_explorers():
    """Task cards: "1 additional victory point for 2 explorers saved. The card may only be used once"
    -- four explorers saved with one such card give +1, not +2."""
    boats = [("green boat (2 places) #1", 0, 0, 0), ("green boat (2 places) #2", 0, 0, 0),
             ("brown boat (1 place)", 0, 0, 0), ("pink boat (2 places) #1", 0, 0, 0)]
    s = scored([TASK_TWO_EXPLORERS], boats=boats)
    assert core.task_points(s, 1) == 1


def test_task_cards_a_boat_colour_card_counts_once_for_two_boats_of_the_colour():
    """Task cards: "1 victory point for a green boat. The card may only be used once" -- both green
    boats with one green card give +1."""
    s = scored([TASK_BOAT + BOAT_COLOURS.index("green")],
               boats=[("green boat (2 places) #1", 0, 0, 0), ("green boat (2 places) #2", 0, 0, 0)])
    assert core.task_points(s, 1) == 1


def test_task_cards_three_white_counts_once_for_six_white():
    """Task cards: "2 additional victory points for 3 white artifacts collected. The card may only be
    used once" -- six white artifacts with that one card give +2."""
    assert SET_TASK_NEEDS[0].tolist() == [3, 0, 0] and SET_TASK_BONUS[0] == 2
    s = scored([0], boats=[("brown boat (3 places)", 3, 0, 0), ("orange boat (3 places)", 3, 0, 0)])
    assert core.task_points(s, 1) == 2


# =====================================================================================================
# Game Materials: 30 game cards, with the copies the Overview names
def test_game_materials_30_game_cards_with_the_rulebook_copies():
    """Game Materials "30 game cards"; Overview: 7 cards with artifacts, "2 explorers saved" 2x, "no
    deduction" 2x, 4 cards with boats (one of them green), each action card 3x."""
    assert NUM_CARDS == len(CARD_KIND) == 30
    copies = CARD_KIND_COPIES.tolist()
    assert sum(copies[:NUM_SET_TASKS]) == 7
    assert copies[TASK_TWO_EXPLORERS] == 2 and copies[TASK_NO_DEDUCTION] == 2
    assert sum(copies[TASK_BOAT:TASK_BOAT + len(BOAT_COLOURS)]) == 4 and "green" in BOAT_COLOURS
    for kind in (ACTION_JUNGLE, ACTION_MOUNTAIN, ACTION_EARTHQUAKE, ACTION_HELICOPTER, ACTION_WATER):
        assert copies[kind] == 3


# =====================================================================================================
# Resolving ties (advanced game): a rescued explorer is not on the island
def test_resolving_ties_a_helicopter_rescued_explorer_is_not_on_the_island():
    """Resolving ties: "the player who has more explorers on the island at the end of the game wins";
    Helicopter rescue takes the explorer off the island.  Both players score 0; each keeps one
    explorer on the island, player_1 has rescued a second one: still a draw."""
    env = advanced_game()
    s = env.state()
    for e in range(1, 5):
        lose_explorer(s, 0, e)
    for e in range(2, 5):
        lose_explorer(s, 1, e)
    give_cards(s, 1, ACTION_HELICOPTER)
    empty_hands(s)
    commit(env, s, player=1, pool=0, end_triggered=1, final_turns_left=1)
    act(env, core.HELICOPTER_BASE + 1)
    assert explorer_status(env, 1, 1) == core.RESCUED
    act(env, END_TURN)
    assert env.scores() == {"player_0": 0, "player_1": 0}
    assert final_rewards(env) == {"player_0": 0, "player_1": 0}
