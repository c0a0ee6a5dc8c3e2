"""Mauna Kea, rules for advanced players (``variant="advanced"``): the rulebook's "Rules for Advanced
Players" and "Overview of the Tasks and Actions of the Game Cards", read as in RULINGS.md and
maunakea_env/RULES.md.  Test names carry the rulebook section they check.

Positions are crafted with the helpers of ``maunakea_positions`` (which check every crafted state is
consistent); the top-left corner fields A1, B1, C1 are empty at the start of every game, so the
movement tests lay their own terrain there.
"""
import itertools

import numpy as np
import pytest

import maunakea_env
from maunakea_env import core, kernels
from maunakea_env.board import (
    ACTION_EARTHQUAKE, ACTION_HELICOPTER, ACTION_JUNGLE, ACTION_MOUNTAIN, ACTION_WATER, CARD_KIND_COPIES,
    CARD_KIND_NAMES, FIELD_NAMES, FIELD_SQUARES, FIRST_ACTION_KIND, IS_TILE_FIELD, FIRST_LAVA_TILE, NUM_CARD_KINDS, NUM_SET_TASKS, SET_TASK_BONUS, SET_TASK_NEEDS,
    SQUARE_NAMES, TASK_BOAT, TASK_NO_DEDUCTION, TASK_TWO_EXPLORERS, TERRAIN_TILE_SQUARES, rotate_tile,
)
from maunakea_env.env import describe_action

from maunakea_positions import (
    END_TURN, WHITE, act, artifacts_on, artifacts_to_square, assert_conserved, bag, board,
    boat_to_landing, commit, empty_hands, entry_squares, field, give_artifacts, give_boat, lava_tile,
    lay_lava, lay_terrain, legal, lose_explorer, mask, only_in_bag, put_explorer, rig_next_draw, set_hand,
    spend, square, to_act,
)
from trajectory_digest import random_play_digest

JUNGLE_MOVE, WATER_MOVE, MOUNTAIN_MOVE = range(3)


def advanced_game(num_players=2, seed=0, **options):
    """An advanced game after the set-up: every player has removed two cards (the first ones offered)
    and placed his explorers as ``started_game`` does (F6, D6, F4 first), so ``player_1`` is to act."""
    env = maunakea_env.raw_env(num_players=num_players, variant="advanced", **options)
    env.reset(seed=seed)
    while env.decision() == "card choice":
        act(env, int(np.flatnonzero(mask(env))[0]))
    while env.decision() == "placement":
        act(env, int(np.flatnonzero(mask(env))[-1]))
    return env


def cards_of(s, player):
    return s[core.CARDS + player * NUM_CARD_KINDS:core.CARDS + (player + 1) * NUM_CARD_KINDS]


def give_cards(s, player, *kinds):
    """Replace the player's cards by ``kinds`` (card kind numbers).  The position then names no card
    removed at set-up (a position may leave them unnamed), so that no kind is held and removed more
    often than the game has it."""
    s[core.REMOVED_CARDS:core.REMOVED_CARDS + core.MAX_PLAYERS * NUM_CARD_KINDS] = 0
    cards_of(s, player)[:] = 0
    for kind in kinds:
        cards_of(s, player)[kind] += 1


def observation(env, player):
    return env.observe(f"player_{player}")["observation"]


def card_move(kind, e):
    return core.CARD_MOVE_BASE + core.MAX_EXPLORERS * kind + e


def destinations(env):
    return {SQUARE_NAMES[a - core.DESTINATION_BASE] for a in legal(env)
            if core.DESTINATION_BASE <= a < core.HELICOPTER_BASE}


def quake(field_name, rotation):
    return core.EARTHQUAKE_BASE + 4 * field(field_name) + rotation


# ---------------------------------------------------------------------------------------------------
# Spaces, and the basic game unchanged
def test_advanced_is_an_option_with_its_own_spaces():
    basic, advanced = maunakea_env.raw_env(), maunakea_env.raw_env(variant="advanced")
    assert basic.action_space("player_0").n == 2040 and advanced.action_space("player_0").n == 3052
    assert advanced.observation_space("player_0")["observation"].shape == (core.OBS_SIZE_ADVANCED,)
    with pytest.raises(ValueError, match="illegal action 2040"):
        basic.step(core.REMOVE_CARD_BASE)
    assert "earthquake" in describe_action(quake("A1", 1)) and "helicopter" in describe_action(
        core.HELICOPTER_BASE)
    assert "outside" in describe_action(core.NUM_ACTIONS_ADVANCED)


def test_advanced_basic_game_trajectories_are_unchanged():
    """The digest of 18 seeded random basic games (observations, masks, actions, rewards) was taken
    before the advanced rules were written (14a51a76...).  It was taken again when the observation
    gained every player's explorers and the boats' colours and loads (the observations of the new
    layout with those blocks left out still gave the old digest), and again when the basic game's end
    changed (the settled and walled-in ends, the turn going on after lava ends the game while
    drawing), and again when the observation gained where each lava branch ends (``OBS_LAVA_ENDS``; the
    observations with that block left out still gave c74cb7bd...), and again when it gained the bag's
    tiles by kind and shape (``OBS_BAG_TILES``; with that block left out, 3fc02edb...)."""
    digest = random_play_digest(core, core.VARIANT_BASIC, (2, 3, 4), range(6), 300, observe_every=7)
    assert digest == "fb416745e58c40b3c4a7393afa9c0a4dcc8e93304743ede4ef31b355441f6824"


# ---------------------------------------------------------------------------------------------------
# Set-up
@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_setup_six_cards_dealt_each_keeps_four_before_the_explorers_are_placed(num_players):
    env = maunakea_env.raw_env(num_players=num_players, variant="advanced")
    env.reset(seed=num_players)
    s = env.state()
    assert env.decision() == "card choice"
    assert [int(cards_of(s, p).sum()) for p in range(num_players)] == [6] * num_players
    dealt = sum(cards_of(s, p) for p in range(num_players))
    assert (dealt <= np.bincount(np.repeat(np.arange(NUM_CARD_KINDS), [1] * 7 + [2, 2] + [1] * 4 + [3] * 5))).all()
    order = []
    while env.decision() == "card choice":
        order.append(to_act(env))
        first = int(np.flatnonzero(mask(env))[0])
        act(env, first)
        if env.decision() == "card choice" and to_act(env) == order[-1]:
            # the second removal: a kind no lower than the first
            assert all(a >= first for a in legal(env))
    assert order == [p for p in range(num_players) for _ in range(2)]
    s = env.state()
    assert [int(cards_of(s, p).sum()) for p in range(num_players)] == [4] * num_players
    assert env.decision() == "placement" and to_act(env) == 0


def card_choice(*kinds):
    """A 2-player advanced game at the set-up's card choice, ``player_0`` holding ``kinds``."""
    env = maunakea_env.raw_env(num_players=2, variant="advanced")
    env.reset(seed=0)
    s = env.state()
    give_cards(s, 0, *kinds)
    env.set_state(s)
    return env


def test_setup_first_removal_leaves_a_second_removal_possible():
    # removing the helicopter (the highest kind) first would leave no second removal of kind >= 17
    assert legal(card_choice(0, 3, 7, 13, 16, 17)) == {core.REMOVE_CARD_BASE + k for k in (0, 3, 7, 13, 16)}
    assert core.REMOVE_CARD_BASE + 17 in legal(card_choice(0, 3, 7, 13, 17, 17))


def test_setup_cards_are_hidden_from_the_other_players_until_the_scoring():
    a = maunakea_env.raw_env(num_players=3, variant="advanced")
    a.reset(seed=5)
    b = maunakea_env.raw_env(num_players=3, variant="advanced")
    b.reset(seed=5)
    s = b.state()
    # six of the cards nobody was dealt (a card held twice is no position of the game)
    dealt = sum(cards_of(s, p) for p in range(3))
    undealt = [k for k in range(NUM_CARD_KINDS) for _ in range(CARD_KIND_COPIES[k] - dealt[k])]
    give_cards(s, 1, *undealt[:6])
    b.set_state(s)
    for viewer in (0, 2):
        np.testing.assert_array_equal(observation(a, viewer), observation(b, viewer))
    assert not np.array_equal(observation(a, 1), observation(b, 1))
    assert observation(a, 0)[core.OBS_A_CARD_COUNT + 1] == 6  # how many, not which


def test_setup_a_player_remembers_the_cards_he_removed_the_others_never_see_them():
    """Rulebook, Rules for advanced players: "the remaining cards are removed from the game, unseen" --
    unseen by the others; the player chose them, and his observation keeps them (RULINGS.md: an
    observation holds what its player may know).  The search's determinization therefore never deals
    them to the others."""
    games = []
    for removals in ([16, 16], [15, 15]):          # two earthquakes, or two mountain movements
        env = card_choice(7, 13, 15, 15, 16, 16)
        for kind in removals:
            act(env, core.REMOVE_CARD_BASE + kind)
        games.append(env)
        s = env.state()
        assert s[core.REMOVED_CARDS + removals[0]] == 2 and s[core.CARDS_REMOVED] == 2
        seen = observation(env, 0)[core.OBS_A_REMOVED:core.OBS_A_REMOVED + NUM_CARD_KINDS]
        assert list(np.flatnonzero(seen)) == [removals[0]] and seen[removals[0]] == 2
        assert not observation(env, 1)[core.OBS_A_REMOVED:core.OBS_A_REMOVED + NUM_CARD_KINDS].any()
        assert "removed cards player_0: " + "; ".join([CARD_KIND_NAMES[removals[0]]] * 2) in maunakea_env.to_text(s)
        np.testing.assert_array_equal(maunakea_env.from_text(maunakea_env.to_text(s)), s)
    quakes, mountains = games
    assert not np.array_equal(observation(quakes, 0), observation(mountains, 0))
    # player_1 is still to remove his cards: what he sees of player_0 is the same in both games
    np.testing.assert_array_equal(observation(quakes, 1), observation(mountains, 1))
    # the search (player_0) deals player_1 no earthquake after removing two, as the game has 3
    from agents.search.maunakea import determinize
    for seed in range(200):
        s = quakes.state()
        determinize(s, 0, seed, None)
        assert s[core.CARDS + NUM_CARD_KINDS + 16] <= CARD_KIND_COPIES[16] - 2     # 3 copies, 2 removed
        assert not s[core.REMOVED_CARDS + NUM_CARD_KINDS:core.REMOVED_CARDS + 2 * NUM_CARD_KINDS].any()
        assert core.validate(s) == (0, 0)


def test_setup_a_row_naming_more_removed_cards_than_removed_is_refused():
    env = card_choice(7, 13, 15, 15, 16, 16)
    act(env, core.REMOVE_CARD_BASE + 15)
    row = env.state()
    out = sum(row[core.CARDS + p * NUM_CARD_KINDS:core.CARDS + (p + 1) * NUM_CARD_KINDS] for p in range(2)) + \
        row[core.REMOVED_CARDS:core.REMOVED_CARDS + NUM_CARD_KINDS]
    free = int(np.flatnonzero(out < CARD_KIND_COPIES)[0])   # a kind of which a copy is left in the box
    row[core.REMOVED_CARDS + free] += 1               # two named, one removed
    with pytest.raises(ValueError, match=r"REMOVED_CARDS\[0\] = \d+: .*names no more removed cards"):
        env.set_state(row)
    row[core.REMOVED_CARDS:core.REMOVED_CARDS + NUM_CARD_KINDS] = 0   # fewer named: a position may leave them out
    env.set_state(row)


# ---------------------------------------------------------------------------------------------------
# Action cards: movement
def corner_position(env, player, e, patterns, start, cards, then=None):
    """Lay ``patterns`` ({field: "JW/MJ"}) on the empty corner fields, call ``then(s)`` (to put more
    on the new ground), put the player's explorer e on ``start`` and give him ``cards``; the player
    is to act."""
    s = env.state()
    for name, text in patterns.items():
        lay_terrain(s, name, text)
    if then is not None:
        then(s)
    put_explorer(s, player, e, start)
    give_cards(s, player, *cards)
    empty_hands(s)
    return commit(env, s, player=player)


def test_jungle_movement_starts_on_water_crosses_jungle_and_stops_at_an_artifact():
    env = advanced_game()
    corner_position(env, 1, 0, {"A1": "WJ/MM", "B1": "JJ/JM", "C1": "JJ/WW"}, "A1-nw", [ACTION_JUNGLE],
                    then=lambda s: artifacts_to_square(s, "C1-nw", white=1))
    act(env, card_move(JUNGLE_MOVE, 0))
    assert env.decision() == "movement card destination"
    # C1-ne lies beyond the artifact on C1-nw: the explorer must stop there
    assert destinations(env) == {"A1-ne", "B1-nw", "B1-ne", "B1-sw", "C1-nw"}
    act(env, core.DESTINATION_BASE + square("C1-nw"))
    s = env.state()
    assert s[core.EXPLORER_SQUARE + core.explorer_index(1, 0)] == square("C1-nw")
    assert cards_of(s, 1)[ACTION_JUNGLE] == 0 and s[core.POOL] == 0  # no movement points needed
    assert observation(env, 0)[core.OBS_A_PLAYED + core.NUM_ACTION_KINDS * 1 + 0] == 1  # played: public
    assert env.decision() == "turn"
    assert_conserved(s)


def test_jungle_movement_needs_side_by_side_squares_and_never_enters_an_explorer():
    env = advanced_game()
    # A1-ne and B1-sw touch only at a corner; B1-ne holds another explorer
    corner_position(env, 1, 0, {"A1": "JJ/MM", "B1": "MJ/JM"}, "A1-nw", [ACTION_JUNGLE],
                    then=lambda s: put_explorer(s, 1, 1, "B1-ne"))
    act(env, card_move(JUNGLE_MOVE, 0))
    assert destinations(env) == {"A1-ne"}


def test_jungle_movement_card_not_offered_without_a_destination():
    env = advanced_game()
    corner_position(env, 1, 0, {"A1": "JM/MM"}, "A1-nw", [ACTION_JUNGLE])
    assert card_move(JUNGLE_MOVE, 0) not in legal(env)


def test_water_movement_may_start_on_jungle_and_stops_at_an_artifact():
    env = advanced_game()
    corner_position(env, 1, 0, {"A1": "JW/WM", "B1": "WW/MW"}, "A1-nw", [ACTION_WATER])
    act(env, card_move(WATER_MOVE, 0))
    assert destinations(env) == {"A1-ne", "A1-sw", "B1-nw", "B1-ne", "B1-se"}
    env2 = advanced_game()
    corner_position(env2, 1, 0, {"A1": "JW/WM", "B1": "WW/MW"}, "A1-nw", [ACTION_WATER],
                    then=lambda s: artifacts_to_square(s, "B1-nw", gray=1))
    act(env2, card_move(WATER_MOVE, 0))
    assert destinations(env2) == {"A1-ne", "A1-sw", "B1-nw"}


def test_mountain_movement_must_start_and_end_off_the_mountains():
    env = advanced_game()
    corner_position(env, 1, 0, {"A1": "JM/MM", "B1": "MJ/WM"}, "A1-nw", [ACTION_MOUNTAIN])
    act(env, card_move(MOUNTAIN_MOVE, 0))
    # over the mountains only, ending on the first jungle or water square off them
    assert destinations(env) == {"B1-ne", "B1-sw"}
    act(env, core.DESTINATION_BASE + square("B1-sw"))
    assert env.state()[core.EXPLORER_SQUARE + core.explorer_index(1, 0)] == square("B1-sw")


def test_mountain_movement_needs_at_least_one_mountain_square():
    env = advanced_game()
    corner_position(env, 1, 0, {"A1": "JJ/WW"}, "A1-nw", [ACTION_MOUNTAIN])
    assert card_move(MOUNTAIN_MOVE, 0) not in legal(env)


# ---------------------------------------------------------------------------------------------------
# Action cards: helicopter rescue
def test_helicopter_rescue_artifacts_score_the_explorer_does_not():
    env = advanced_game()
    s = env.state()
    give_artifacts(s, 1, 2, white=1, gray=1)
    give_cards(s, 1, ACTION_HELICOPTER)
    commit(env, s, player=1)
    act(env, core.HELICOPTER_BASE + 2)
    s = env.state()
    assert s[core.EXPLORER_STATUS + core.explorer_index(1, 2)] == core.RESCUED
    assert s[core.RESCUED_ARTIFACTS + 3:core.RESCUED_ARTIFACTS + 6].tolist() == [1, 1, 0]
    assert core.score(s, 1) == 1 + 2  # no 3 points for the explorer
    assert_conserved(s)


@pytest.mark.parametrize("in_boat", [False, True])
def test_helicopter_rescue_refused_for_the_last_explorer(in_boat):
    """Rulebook Helicopter rescue: "This card may not be used for the player's last explorer" -- his last
    explorer on the island (RULES.md): one left there with the others lost, or (``in_boat``) with one
    of the others sitting in a boat, is refused the rescue."""
    env = advanced_game()
    s = env.state()
    if in_boat:
        give_boat(s, 1, 0, "green boat (2 places) #1")
    for e in range(1 + in_boat, 5):
        lose_explorer(s, 1, e)
    give_cards(s, 1, ACTION_HELICOPTER)
    commit(env, s, player=1)
    assert not any(core.HELICOPTER_BASE <= a < core.EARTHQUAKE_BASE for a in legal(env))


# ---------------------------------------------------------------------------------------------------
# Action cards: earthquake
def test_earthquake_turns_a_terrain_tile_with_its_artifacts():
    env = advanced_game()
    s = env.state()
    tile = lay_terrain(s, "A1", "JW/MM")
    rotation = int(s[core.FIELD_ROTATION + field("A1")])
    artifacts_to_square(s, "A1-nw", white=1)
    give_cards(s, 1, ACTION_EARTHQUAKE)
    commit(env, s, player=1)
    assert quake("A1", rotation) not in legal(env)  # the orientation must change
    act(env, quake("A1", (rotation + 1) % 4))
    s = env.state()
    shown = rotate_tile(TERRAIN_TILE_SQUARES[tile], (rotation + 1) % 4).tolist()
    assert s[core.TERRAIN + FIELD_SQUARES[field("A1")]].tolist() == shown
    # a quarter turn clockwise carries the north-west corner to the north-east
    assert artifacts_on(env, "A1-ne")[WHITE] == 1 and artifacts_on(env, "A1-nw")[WHITE] == 0
    assert env.decision() == "earthquake draw"
    assert_conserved(s)


def test_earthquake_turns_a_start_tile_with_its_artifacts():
    """RULES.md "Earthquake", decision: start tiles count as terrain tiles, and the artifacts they carry
    from the set-up turn with them.  A start tile with no explorer on it is offered in its three other
    orientations; a quarter turn shows its squares' terrain and artifacts a quarter turn on."""
    env = advanced_game()
    s = env.state()
    occupied = {int(s[core.EXPLORER_SQUARE + x]) for x in range(core.MAX_EXPLORERS)
                if s[core.EXPLORER_STATUS + x] == core.ON_ISLAND}
    start_fields = [f for f in range(core.NUM_FIELDS) if s[core.FIELD_TILE + f] >= core.NUM_ISLAND_TILES
                    and not occupied & set(FIELD_SQUARES[f].tolist())]
    f = next(f for f in start_fields if any(any(artifacts_on(env, SQUARE_NAMES[q])) for q in FIELD_SQUARES[f]))
    name = FIELD_NAMES[f]
    give_cards(s, 1, ACTION_EARTHQUAKE)
    commit(env, s, player=1)
    rotation = int(s[core.FIELD_ROTATION + f])
    offered = {a - core.EARTHQUAKE_BASE - 4 * f for a in legal(env)
               if core.EARTHQUAKE_BASE + 4 * f <= a < core.EARTHQUAKE_BASE + 4 * f + 4}
    assert offered == {0, 1, 2, 3} - {rotation}
    terrain = s[core.TERRAIN + FIELD_SQUARES[f]].tolist()
    artifacts = [artifacts_on(env, SQUARE_NAMES[q]) for q in FIELD_SQUARES[f]]
    tile = int(s[core.FIELD_TILE + f])
    act(env, quake(name, (rotation + 1) % 4))
    s = env.state()
    assert s[core.FIELD_TILE + f] == tile and s[core.FIELD_ROTATION + f] == (rotation + 1) % 4
    assert s[core.TERRAIN + FIELD_SQUARES[f]].tolist() == rotate_tile(np.array(terrain), 1).tolist()
    turned = rotate_tile(np.arange(4), 1).tolist()   # which square's content each square shows now
    assert [artifacts_on(env, SQUARE_NAMES[q]) for q in FIELD_SQUARES[f]] == [artifacts[i] for i in turned]
    assert env.decision() == "earthquake draw"
    assert_conserved(s)


def test_earthquake_refused_on_a_tile_with_an_explorer_and_on_lava():
    env = advanced_game()
    s = env.state()
    lay_terrain(s, "A1", "JW/MM")
    put_explorer(s, 1, 0, "A1-nw")
    lay_lava(s, "B1", lava_tile(0, 0))
    give_cards(s, 1, ACTION_EARTHQUAKE)
    commit(env, s, player=1)
    offered = {(a - core.EARTHQUAKE_BASE) // 4 for a in legal(env) if core.EARTHQUAKE_BASE <= a < core.QUAKE_DRAW}
    assert field("A1") not in offered and field("B1") not in offered and offered


def test_earthquake_then_a_terrain_tile_drawn_is_laid_by_the_player():
    env = advanced_game()
    s = env.state()
    lay_terrain(s, "A1", "JW/MM")
    give_cards(s, 1, ACTION_EARTHQUAKE)
    t = next(t for t in range(FIRST_LAVA_TILE) if s[core.TILE_WHERE + t] == core.IN_BAG)
    rig_next_draw(s, t)
    commit(env, s, player=1)
    act(env, quake("A1", (int(s[core.FIELD_ROTATION + field("A1")]) + 1) % 4))
    act(env, core.QUAKE_DRAW)
    assert env.decision() == "earthquake tile" and env.state()[core.QUAKE_TILE] == t
    assert observation(env, 0)[core.OBS_A_QUAKE_TILE] == 1  # the drawn tile is public
    act(env, core.QUAKE_LAY_BASE + 4 * field("C1") + 2)
    s = env.state()
    assert s[core.FIELD_TILE + field("C1")] == t and s[core.FIELD_ROTATION + field("C1")] == 2
    assert env.decision() == "turn"
    assert_conserved(s)


def test_earthquake_then_a_terrain_tile_drawn_goes_back_into_the_bag_when_no_field_is_empty():
    """RULES.md "Earthquake": a terrain tile drawn after an earthquake "goes back into the bag if no
    field is empty".  Every tile space is filled and one terrain tile is left in the bag: drawn, it goes
    back at once, nobody is asked where to lay it, and the turn goes on."""
    env = advanced_game()
    s = env.state()
    for f in np.flatnonzero(IS_TILE_FIELD & (s[core.FIELD_TILE:core.FIELD_TILE + core.NUM_FIELDS] < 0)):
        lay_terrain(s, FIELD_NAMES[f], "JJ/JJ")
    t = next(t for t in range(FIRST_LAVA_TILE) if s[core.TILE_WHERE + t] == core.IN_BAG)
    only_in_bag(s, [t])
    give_cards(s, 1, ACTION_EARTHQUAKE)
    commit(env, s, player=1)
    act(env, quake("A1", (int(s[core.FIELD_ROTATION + field("A1")]) + 1) % 4))
    act(env, core.QUAKE_DRAW)
    s = env.state()
    assert s[core.TILE_WHERE + t] == core.IN_BAG and s[core.QUAKE_TILE] < 0
    assert env.decision() == "turn" and to_act(env) == 1
    assert_conserved(s)


def test_earthquake_then_a_lava_tile_drawn_is_placed_by_the_lava_rules():
    env = advanced_game()
    s = env.state()
    lay_terrain(s, "A1", "JW/MM")
    give_cards(s, 1, ACTION_EARTHQUAKE)
    lava = lava_tile(0, 0)  # the north flow's straight tile: its exit E4 extends to E3
    rig_next_draw(s, lava)
    commit(env, s, player=1)
    act(env, quake("A1", (int(s[core.FIELD_ROTATION + field("A1")]) + 1) % 4))
    act(env, core.QUAKE_DRAW)
    assert env.decision() == "turn" and env.state()[core.FIELD_TILE + field("E3")] == lava


def test_earthquake_the_player_may_draw_nothing_and_with_an_empty_bag_is_not_asked():
    env = advanced_game()
    s = env.state()
    lay_terrain(s, "A1", "JW/MM")
    give_cards(s, 1, ACTION_EARTHQUAKE, ACTION_EARTHQUAKE)
    commit(env, s, player=1)
    before = bag(env)
    act(env, quake("A1", (int(s[core.FIELD_ROTATION + field("A1")]) + 1) % 4))
    act(env, core.QUAKE_NO_DRAW)
    assert bag(env) == before and env.decision() == "turn"
    s = env.state()
    only_in_bag(s, [])
    # the advanced game flags an empty bag the moment it empties, and that ends the game
    s[core.SUPPLY_OUT] = 2
    s[core.END_REASON] = core.END_BY_SUPPLY
    commit(env, s, end_triggered=1, final_turns_left=1)
    act(env, quake("A1", (int(s[core.FIELD_ROTATION + field("A1")]) + 1) % 4))
    assert env.decision() == "turn"


# ---------------------------------------------------------------------------------------------------
# Playing tiles and the end of the game
def test_playing_tiles_a_spent_tile_is_removed_from_the_game():
    env = advanced_game()
    s = env.state()
    (tile,) = set_hand(s, 1, [3])
    commit(env, s, player=1)
    act(env, spend(0))
    assert env.state()[core.TILE_WHERE + tile] == core.REMOVED


def test_end_supply_used_up_while_drawing_the_player_plays_his_tiles_then_scoring():
    env = advanced_game()
    s = env.state()
    empty_hands(s)
    last = [t for t in range(FIRST_LAVA_TILE) if s[core.TILE_WHERE + t] == core.IN_BAG][:2]
    only_in_bag(s, last)
    commit(env, s, player=1)
    act(env, END_TURN)  # draws the last two tiles: the supply is used up
    s = env.state()
    assert s[core.SUPPLY_OUT] == 2 and s[core.END_TRIGGERED] == 1
    assert to_act(env) == 1 and s[core.HAND_SIZE + 1] == 2  # his turn goes on with the drawn tiles
    act(env, spend(0))
    act(env, spend(0))
    act(env, END_TURN)
    assert env.state()[core.STATUS] == core.STATUS_TERMINATED  # player_0 gets no further turn


def test_end_supply_used_up_by_an_earthquake_makes_this_turn_the_last():
    env = advanced_game()
    s = env.state()
    empty_hands(s)
    lay_terrain(s, "A1", "JW/MM")
    give_cards(s, 1, ACTION_EARTHQUAKE)
    last = next(t for t in range(FIRST_LAVA_TILE) if s[core.TILE_WHERE + t] == core.IN_BAG)
    only_in_bag(s, [last])
    commit(env, s, player=1)
    act(env, quake("A1", (int(s[core.FIELD_ROTATION + field("A1")]) + 1) % 4))
    act(env, core.QUAKE_DRAW)
    act(env, core.QUAKE_LAY_BASE + 4 * field("C1"))
    assert env.state()[core.END_TRIGGERED] == 1
    act(env, END_TURN)
    assert env.state()[core.STATUS] == core.STATUS_TERMINATED


def test_end_last_explorer_leaving_ends_the_game_after_this_turn_without_a_final_round():
    env = advanced_game()
    s = env.state()
    for e in range(1, 5):
        lose_explorer(s, 1, e)
    boat_to_landing(s, "green boat (2 places) #1", "B1-C1")
    lay_terrain(s, "B1", "JJ/JJ")
    put_explorer(s, 1, 0, entry_squares("B1-C1")[0])
    empty_hands(s)
    commit(env, s, player=1, pool=1)
    act(env, board(0, "B1-C1"))
    act(env, END_TURN)
    # the basic game would give player_0 one more turn; the advanced rules score at once
    assert env.state()[core.STATUS] == core.STATUS_TERMINATED


# ---------------------------------------------------------------------------------------------------
# Scoring and task cards
def scored(cards, boats=(), rescued=None, player=1):
    """A finished-looking position: the player has ``boats`` [(boat name, white, gray, black)], the
    task cards ``cards`` and, unless ``rescued`` is None, a helicopter rescue played on explorer 4
    with the artifacts ``rescued``."""
    env = advanced_game()
    s = env.state()
    for e, (name, white, gray, black) in enumerate(boats):
        give_boat(s, player, e, name, white, gray, black)
    if rescued is not None:
        x = core.explorer_index(player, 4)
        give_artifacts(s, player, 4, *rescued)
        for c in range(3):
            s[core.RESCUED_ARTIFACTS + 3 * player + c] += s[core.CARRIED + 3 * x + c]
            s[core.CARRIED + 3 * x + c] = 0
        s[core.OCCUPANT + s[core.EXPLORER_SQUARE + x]] = -1
        s[core.EXPLORER_SQUARE + x] = -1
        s[core.EXPLORER_STATUS + x] = core.RESCUED
        s[core.PLAYED + player * core.NUM_ACTION_KINDS + ACTION_HELICOPTER - FIRST_ACTION_KIND] += 1
    give_cards(s, player, *cards)
    assert_conserved(s)
    return s


def test_scoring_task_cards_a_greedy_choice_would_be_wrong():
    """5 white and 1 gray with "4 white: +3", "3 white: +2" and "2 white + 1 gray: +2": taking the
    biggest card first (+3) leaves nothing for the others; 3 white + (2 white + 1 gray) gives +4."""
    s = scored([1, 0, 4], boats=[("brown boat (3 places)", 3, 0, 0), ("orange boat (3 places)", 2, 1, 0)])
    assert core.task_points(s, 1) == 4
    assert core.score(s, 1) == (3 + 3) + (3 + 2 + 2) + 4


def test_scoring_task_cards_helicopter_artifacts_count_and_every_card_counts_once():
    s = scored([0, 3], boats=[("brown boat (3 places)", 2, 0, 0)], rescued=(2, 1, 0))
    # 4 white, 1 gray: "3 white" (+2) and "1 white + 1 gray" (+1)
    assert core.task_points(s, 1) == 3


def test_scoring_two_explorers_saved_boat_colour_and_no_deduction_cards():
    boats = [("green boat (2 places) #1", 0, 0, 0), ("brown boat (1 place)", 1, 0, 0),
             ("pink boat (2 places) #1", 0, 0, 0)]
    # three explorers saved fulfil one of the two "2 explorers" cards; of the green and orange boat
    # cards only green is fulfilled
    s = scored([TASK_TWO_EXPLORERS, TASK_TWO_EXPLORERS, TASK_BOAT + 0, TASK_BOAT + 2], boats=boats)
    assert core.task_points(s, 1) == 1 + 1
    # "no deduction" cancels the 4 unoccupied places (2 + 0 + 2); compared with a brown card (+1)
    with_card = scored([TASK_NO_DEDUCTION], boats=boats)
    without = scored([TASK_BOAT + 1], boats=boats)
    assert core.score(with_card, 1) - core.score(without, 1) == 4 - 1


def test_scoring_helicopter_explorer_is_not_saved_for_a_task_card():
    s = scored([TASK_TWO_EXPLORERS], boats=[("brown boat (1 place)", 1, 0, 0)], rescued=(0, 0, 0))
    assert core.task_points(s, 1) == 0


def brute_force_sets(held, have):
    """Most bonus from any subset of the held artifact-set cards that the artifacts can pay for."""
    best = 0
    for r in range(len(held) + 1):
        for subset in itertools.combinations(held, r):
            need = np.sum([SET_TASK_NEEDS[t] for t in subset], axis=0) if subset else np.zeros(3)
            if (need <= have).all():
                best = max(best, int(sum(SET_TASK_BONUS[t] for t in subset)))
    return best


def test_scoring_task_assignment_is_optimal_on_random_holdings():
    rng = np.random.default_rng(3)
    st = np.zeros(core.STATE_SIZE, np.int64)
    core.init(st, 2, core.VARIANT_ADVANCED, 300, 0)
    for _ in range(300):
        held = sorted(rng.choice(NUM_SET_TASKS, size=rng.integers(0, 5), replace=False).tolist())
        have = rng.integers(0, [8, 5, 2])
        st[core.CARDS:core.CARDS + NUM_CARD_KINDS] = 0
        st[core.CARDS + np.array(held, dtype=int)] = 1
        st[core.BOAT_OWNER:core.BOAT_OWNER + 8] = -1
        st[core.RESCUED_ARTIFACTS:core.RESCUED_ARTIFACTS + 3] = have
        # the kernel itself: these rows hold artifacts on helicopter cards nobody played, which the
        # checked core.task_points would refuse, and only the search over the set cards is tested
        assert kernels.task_points(st, 0) == brute_force_sets(held, have), (held, have)


def test_scoring_other_players_task_points_stay_hidden_until_the_end():
    s = scored([TASK_BOAT + 1], boats=[("brown boat (1 place)", 1, 0, 0)])
    env = advanced_game()
    env.set_state(s)
    k = 1  # player_1 seen from player_0
    seen = observation(env, 0)[core.OBS_PLAYERS + k * core.PLAYER_FEATURES + 4]
    assert seen == core.public_score(s, 1) == core.score(s, 1) - 1
    assert observation(env, 1)[core.OBS_PLAYERS + 4] == core.score(s, 1)
    # the scores a player can count, which self-play's shaped reward uses, hide them too
    known = np.zeros(2, np.int64)
    core.scores_known_to(s, 0, known)
    assert known.tolist() == [core.score(s, 0), core.public_score(s, 1)]
    core.scores_known_to(s, 1, known)
    assert known[1] == core.score(s, 1) == core.known_score(s, 1, 1)
    assert core.known_score(s, 0, 1) == core.public_score(s, 1)
    with pytest.raises(ValueError, match="view"):
        core.scores_known_to(s, 2, known)


# ---------------------------------------------------------------------------------------------------
# Whole games
@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_advanced_random_games_keep_every_invariant_and_end(num_players):
    rng = np.random.default_rng(num_players)
    for seed in range(4):
        env = maunakea_env.raw_env(num_players=num_players, variant="advanced")
        env.reset(seed=seed)
        while env.state()[core.STATUS] == core.STATUS_RUNNING:
            env.step(int(rng.choice(np.flatnonzero(mask(env)))))
            assert_conserved(env.state())
        s = env.state()
        assert s[core.STATUS] != core.STATUS_RUNNING
        out = observation(env, 0)
        for k in range(num_players):  # everyone's cards are revealed at the end
            p = (0 + k) % num_players
            revealed = out[core.OBS_A_REVEALED + k * NUM_CARD_KINDS:][:NUM_CARD_KINDS]
            np.testing.assert_array_equal(revealed, cards_of(s, p))


def test_advanced_batch_env_plays_like_single_games():
    batch = maunakea_env.BatchEnv(4, seed=9, variant="advanced", num_players=2, max_turns=30)
    singles = [maunakea_env.raw_env(num_players=2, variant="advanced", max_turns=30) for _ in range(4)]
    for i, e in enumerate(singles):
        e.reset(seed=9 + i)
    rng = np.random.default_rng(0)  # not the games' own generators, which decide the draws
    for _ in range(400):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in batch.action_masks])
        for i, e in enumerate(singles):
            if e.state()[core.STATUS] == core.STATUS_RUNNING:
                np.testing.assert_array_equal(batch.states[i], e.state())
                np.testing.assert_array_equal(batch.observations[i], e.observe(e.agent_selection)["observation"])
                e.step(int(actions[i]))
            else:
                singles[i] = e  # finished: the batch has started its next game
        batch.step(actions)
    assert batch.action_masks.shape == (4, 3052)


def test_advanced_card_names_cover_every_kind():
    assert len(CARD_KIND_NAMES) == NUM_CARD_KINDS == 18
    assert CARD_KIND_NAMES[0] == "3 white artifacts: +2"


# ---------------------------------------------------------------------------------------------------
# [Playing cards]: "Anytime during your turn, you may play one or more of your action cards, face up.
# You don't need any movement points to play these cards.  Played action cards are taken out of the
# game immediately after they have been used."
def card_plays(actions):
    """The actions of ``actions`` that play an action card (movement, helicopter rescue, earthquake)."""
    return {a for a in actions
            if core.CARD_MOVE_BASE <= a < core.DESTINATION_BASE or core.HELICOPTER_BASE <= a < core.QUAKE_DRAW}


def played(s, player, kind):
    return int(s[core.PLAYED + player * core.NUM_ACTION_KINDS + kind - FIRST_ACTION_KIND])


def test_playing_cards_two_cards_in_one_turn_with_tiles_in_hand_and_after_spending_them():
    """[Playing cards] "Anytime during your turn, you may play one or more of your action cards": a
    jungle movement while both tiles are still in hand (they stay there, the pool stays empty: no
    movement points needed), then, after both tiles are spent, a helicopter rescue in the same turn.
    Each card is out of the game at once: no longer held, counted as played (public), never offered
    again."""
    env = advanced_game()
    s = env.state()
    lay_terrain(s, "A1", "JJ/MM")
    lay_terrain(s, "B1", "JJ/MM")
    put_explorer(s, 1, 0, "A1-nw")
    give_artifacts(s, 1, 2, white=1)
    give_cards(s, 1, ACTION_JUNGLE, ACTION_HELICOPTER, TASK_NO_DEDUCTION)
    tiles = set_hand(s, 1, ["jungle", "lake"])
    commit(env, s, player=1, pool=0)
    turn = int(env.state()[core.TURN])
    # before spending any tile: the card is offered and played, the tiles stay in hand
    assert card_move(JUNGLE_MOVE, 0) in legal(env)
    act(env, card_move(JUNGLE_MOVE, 0))
    s = env.state()
    assert cards_of(s, 1)[ACTION_JUNGLE] == 0 and played(s, 1, ACTION_JUNGLE) == 1
    assert s[core.HAND + core.HAND_SLOTS:core.HAND + core.HAND_SLOTS + 2].tolist() == tiles
    assert s[core.HAND_SIZE + 1] == 2 and s[core.POOL] == 0
    act(env, core.DESTINATION_BASE + square("B1-ne"))
    assert env.decision() == "turn" and to_act(env) == 1
    assert not any(card_move(JUNGLE_MOVE, e) in legal(env) for e in range(5))   # played: gone
    assert observation(env, 0)[core.OBS_A_PLAYED + core.NUM_ACTION_KINDS * 1 + 0] == 1
    # after spending both tiles, still in the same turn: a second card
    act(env, spend(0))
    act(env, spend(0))
    assert env.state()[core.HAND_SIZE + 1] == 0 and END_TURN in legal(env)
    assert core.HELICOPTER_BASE + 2 in legal(env)
    act(env, core.HELICOPTER_BASE + 2)
    s = env.state()
    assert to_act(env) == 1 and int(s[core.TURN]) == turn
    assert s[core.EXPLORER_STATUS + core.explorer_index(1, 2)] == core.RESCUED
    assert cards_of(s, 1)[ACTION_HELICOPTER] == 0 and played(s, 1, ACTION_HELICOPTER) == 1
    assert cards_of(s, 1).tolist() == [1 if k == TASK_NO_DEDUCTION else 0 for k in range(NUM_CARD_KINDS)]
    assert card_plays(legal(env)) == set() and legal(env) >= {END_TURN}
    assert_conserved(s)


def test_playing_cards_a_played_card_is_out_of_the_game_and_never_offered_again():
    """[Playing cards] "Played action cards are taken out of the game immediately": with two helicopter
    rescues, the second is still offered after the first is played; after the second, none is offered,
    in this turn or in the player's next turn, although he still has explorers to rescue."""
    env = advanced_game()
    s = env.state()
    give_cards(s, 1, ACTION_HELICOPTER, ACTION_HELICOPTER)
    empty_hands(s)
    commit(env, s, player=1)
    act(env, core.HELICOPTER_BASE + 0)
    s = env.state()
    assert cards_of(s, 1)[ACTION_HELICOPTER] == 1 and played(s, 1, ACTION_HELICOPTER) == 1
    assert {a - core.HELICOPTER_BASE for a in card_plays(legal(env))} == {1, 2, 3, 4}
    act(env, core.HELICOPTER_BASE + 1)
    s = env.state()
    assert cards_of(s, 1)[ACTION_HELICOPTER] == 0 and played(s, 1, ACTION_HELICOPTER) == 2
    assert card_plays(legal(env)) == set()
    act(env, END_TURN)
    assert to_act(env) == 0
    while env.state()[core.HAND_SIZE] > 0:
        act(env, spend(0))
    act(env, END_TURN)
    assert to_act(env) == 1 and env.state()[core.EXPLORERS_EACH] - 2 >= 2
    assert card_plays(legal(env)) == set() and cards_of(env.state(), 1).sum() == 0
    assert_conserved(env.state())


def test_playing_cards_in_the_last_turn_after_the_end_was_triggered():
    """[Playing cards] "Anytime during your turn" with [End of the Game] (advanced): the supply is used
    up while player_1 draws; "the player whose turn it is may still play all tiles that he has lying
    in front of him", and his turn goes on, so he may still play an action card, before and after
    spending those tiles; then the game is scored."""
    env = advanced_game()
    s = env.state()
    empty_hands(s)
    lay_terrain(s, "A1", "JJ/MM")
    put_explorer(s, 1, 0, "A1-nw")
    give_cards(s, 1, ACTION_JUNGLE, ACTION_HELICOPTER)
    last = [t for t in range(FIRST_LAVA_TILE) if s[core.TILE_WHERE + t] == core.IN_BAG][:2]
    only_in_bag(s, last)
    commit(env, s, player=1, pool=0)
    act(env, END_TURN)                     # draws the last two tiles: the supply is used up
    s = env.state()
    assert s[core.END_TRIGGERED] == 1 and to_act(env) == 1 and s[core.HAND_SIZE + 1] == 2
    assert card_move(JUNGLE_MOVE, 0) in legal(env)
    act(env, card_move(JUNGLE_MOVE, 0))
    act(env, core.DESTINATION_BASE + square("A1-ne"))
    assert env.state()[core.EXPLORER_SQUARE + core.explorer_index(1, 0)] == square("A1-ne")
    act(env, spend(0))
    act(env, spend(0))
    act(env, core.HELICOPTER_BASE + 3)      # after the tiles, still his last turn
    s = env.state()
    assert s[core.EXPLORER_STATUS + core.explorer_index(1, 3)] == core.RESCUED
    assert played(s, 1, ACTION_JUNGLE) == 1 and played(s, 1, ACTION_HELICOPTER) == 1
    act(env, END_TURN)
    assert env.state()[core.STATUS] == core.STATUS_TERMINATED


def test_playing_cards_only_in_ones_own_turn():
    """[Playing cards] "Anytime during *your* turn": a player's action cards are never offered while
    another player is to act (his mask offers nothing, whatever he holds), nor during the set-up's card
    choice and the placing of the explorers; in his own turn they are."""
    env = maunakea_env.raw_env(num_players=2, variant="advanced")
    env.reset(seed=0)
    while env.decision() == "card choice":
        assert card_plays(legal(env)) == set()
        act(env, int(np.flatnonzero(mask(env))[0]))
    assert cards_of(env.state(), 0)[ACTION_EARTHQUAKE] == 1   # start tiles lie there to be turned
    while env.decision() == "placement":
        assert card_plays(legal(env)) == set()
        act(env, int(np.flatnonzero(mask(env))[-1]))
    s = env.state()
    lay_terrain(s, "A1", "JW/JJ")
    lay_terrain(s, "B1", "JJ/JJ")
    put_explorer(s, 0, 0, "A1-nw")
    put_explorer(s, 1, 0, "A1-se")
    give_cards(s, 0, ACTION_JUNGLE, ACTION_WATER, ACTION_EARTHQUAKE, ACTION_HELICOPTER)
    cards_of(s, 1)[:] = 0
    cards_of(s, 1)[ACTION_JUNGLE] = 1
    commit(env, s, player=1)
    own = np.zeros(core.NUM_ACTIONS_ADVANCED, bool)
    own[sorted(card_plays(range(core.NUM_ACTIONS_ADVANCED)))] = True
    # player_1's turn, through his own card's destination decision: player_0 is offered nothing
    steps = [card_move(JUNGLE_MOVE, 0), core.DESTINATION_BASE + square("B1-sw")]
    steps += [spend(0)] * int(env.state()[core.HAND_SIZE + 1]) + [END_TURN]
    for action in steps:
        assert to_act(env) == 1
        assert not env.observe("player_0")["action_mask"][own].any()
        act(env, action)
    # his own turn: they are offered
    assert to_act(env) == 0
    offered = card_plays(legal(env))
    assert card_move(JUNGLE_MOVE, 0) in offered and card_move(WATER_MOVE, 0) in offered
    assert any(core.HELICOPTER_BASE <= a < core.EARTHQUAKE_BASE for a in offered)
    assert any(core.EARTHQUAKE_BASE <= a < core.QUAKE_DRAW for a in offered)
    assert not env.observe("player_1")["action_mask"][own].any()


# ---------------------------------------------------------------------------------------------------
# [Mountain movement] and [Water movement]: "All ... spaces that have been entered have to border one
# another on at least one side; a diagonal connection is not sufficient."
def test_mountain_movement_needs_side_by_side_mountain_squares_a_diagonal_is_not_enough():
    """[Mountain movement]: A1-ne and B1-sw are mountain squares that touch only at a corner; from
    A1-nw the explorer crosses A1-ne and must leave the mountains beside it (A1-se, B1-nw); he can
    never reach B1-se, which lies beside B1-sw only."""
    env = advanced_game()
    corner_position(env, 1, 0, {"A1": "JM/WJ", "B1": "JW/MJ"}, "A1-nw", [ACTION_MOUNTAIN])
    act(env, card_move(MOUNTAIN_MOVE, 0))
    assert destinations(env) == {"A1-se", "B1-nw"}


def test_water_movement_needs_side_by_side_water_squares_a_diagonal_is_not_enough():
    """[Water movement]: A1-ne and B1-sw are water squares that touch only at a corner, walled in by
    mountains and jungle; from A1-nw the explorer reaches A1-ne only."""
    env = advanced_game()
    corner_position(env, 1, 0, {"A1": "JW/MM", "B1": "MJ/WM"}, "A1-nw", [ACTION_WATER])
    act(env, card_move(WATER_MOVE, 0))
    assert destinations(env) == {"A1-ne"}


@pytest.mark.parametrize("kind, move, patterns", [
    (ACTION_JUNGLE, JUNGLE_MOVE, {"A1": "JJ/JM", "B1": "JJ/MM"}),
    (ACTION_WATER, WATER_MOVE, {"A1": "WW/WM", "B1": "WW/MM"})])
def test_jungle_and_water_movement_never_pass_another_explorer(kind, move, patterns):
    """Rulebook Moving explorers: "You may not move an explorer onto a space on which another explorer is
    already standing ... You may not have your explorer jump over any space that he is not allowed to
    move onto"; the jungle and water movement cards move over spaces of their terrain that "border one
    another".  The explorer on A1-ne blocks the only way from A1-nw to B1: only A1-sw can be reached."""
    env = advanced_game()
    corner_position(env, 1, 0, patterns, "A1-nw", [kind], then=lambda s: put_explorer(s, 1, 1, "A1-ne"))
    act(env, card_move(move, 0))
    assert destinations(env) == {"A1-sw"}


def test_jungle_movement_may_start_on_a_space_with_an_artifact():
    """Rulebook Jungle movement: "If the explorer enters a space with an artifact, he must stop" -- only
    a space he enters; an artifact on the space he starts from does not hold him there (he may take it
    along first or leave it)."""
    env = advanced_game()
    corner_position(env, 1, 0, {"A1": "JJ/JM", "B1": "JJ/MM"}, "A1-nw", [ACTION_JUNGLE],
                    then=lambda s: artifacts_to_square(s, "A1-nw", white=1))
    assert card_move(JUNGLE_MOVE, 0) in legal(env)
    act(env, card_move(JUNGLE_MOVE, 0))
    assert destinations(env) == {"A1-ne", "A1-sw", "B1-nw", "B1-ne"}


def test_task_cards_a_boat_card_takes_the_boat_not_its_explorer():
    """Rulebook Task cards: "each explorer and each artifact may only be used for one task card";
    RULES.md: a boat card takes one boat of its colour (the boat only), a "2 explorers saved" card two
    explorers in boats.  Two boats (green and brown) with "+1 for a green boat" and "2 explorers saved":
    both cards are fulfilled (+2)."""
    s = scored([TASK_TWO_EXPLORERS, TASK_BOAT + 0],
               boats=[("green boat (2 places) #1", 0, 0, 0), ("brown boat (1 place)", 0, 0, 0)])
    assert core.task_points(s, 1) == 2
