"""Rules tests for Maka Bana, the basic game "1st Step: Haapii Maka Bana" and the 2-player game.

Each test names the rulebook section it checks (``shared/rulebooks/makabana-rulebook-en.txt``);
decisions the rulebook leaves open are taken from ``shared/RULINGS.md`` and
``makabana_env/RULES.md``.  Everything is driven through the public AEC API; crafted positions are
written in the position notation (``makabana_env.from_text``, see ``makabana_positions``), restored with
``set_state``, and the season itself is played with ``step``.
"""
import numpy as np
import pytest

import makabana_env

from makabana_env import core
from makabana_env.board import (
    AREAS, BEACHES, BIKINI, NUM_SPOTS, SPOT_AT, SPOT_BEACH, SPOT_NAMES, SPOT_XY,
    THEMES,
)
from makabana_positions import (
    BLUE, GREEN, RED, YELLOW, chain, choose_projects, colour_block, colour_to_act, shown_cards, construct,
    first_player, groups, hut_at, is_neighbour, legal, legal_tiki_spots, mask, new_game, paints,
    place_tikis, play_season, position, reserve, spot, spots_of, take_back, tiki, tiki_at, act,
)

GROUP_TABLE = {1: 1, 2: 3, 3: 6, 4: 9, 5: 12, 6: 15, 7: 18, 8: 21}  # rulebook, "Points for Groups of Huts"
ISOLATED_AZZURA = ["Azzura-Grass-Flower", "Azzura-Rock-Flower", "Azzura-Rock-Fish",
                   "Azzura-Lagoon-Fish", "Azzura-Lagoon-Tattoo"]  # no two of them share a side


def colour_scores(num_players, huts):
    env = position(new_game(num_players), huts)
    return env.colour_scores()


# =====================================================================================================
# Content, Setup, Maka Bana Island
def test_number_of_players_3_to_5_and_the_2_player_game():
    """Rulebook "Number of Players": "The following rules are for a 3 to 5 player game. The rules for a
    2 player game are explained at the end of this booklet" -- 2 to 5 players, every other count
    refused by name, in every variant."""
    for variant in makabana_env.raw_env.variants:
        for num_players in (2, 3, 4, 5):
            env = makabana_env.raw_env(num_players=num_players, variant=variant)
            env.reset(seed=0)
            assert len(env.agents) == num_players
        for num_players in (0, 1, 6):
            with pytest.raises(ValueError, match="num_players"):
                makabana_env.raw_env(num_players=num_players, variant=variant)


def test_setup_each_colour_has_10_huts_2_paint_cards_and_player_0_is_first_player():
    """Rulebook "Setup": 10 huts, 13 cards (2 paint) and a tiki per colour; the first player
    (player_0) holds the "First Player" card and starts the season."""
    for num_players, colours in ((2, 4), (3, 3), (4, 4), (5, 5)):
        env = new_game(num_players)
        state = env.state()
        assert state[core.NUM_COLOURS] == colours
        for c in range(colours):
            assert reserve(env, c) == 10 and paints(env, c) == 2
        assert all(hut_at(env, name) is None and tiki_at(env, name) is None for name in SPOT_NAMES)
        assert first_player(env) == 0 and colour_to_act(env) == 0
        assert env.agent_selection == "player_0" and env.decision() == "project"


def test_island_has_39_spots_and_no_spot_for_a_missing_area():
    """Rulebook "Maka Bana Island": 4 beaches, Bikini has 4 areas (12 spots), the others 3 (9 spots),
    3 themes per area; "there is no Sand Area on Azzura Beach" so no project can name it
    (1.a "Attention", RULINGS: mask it) -- the action space has exactly 3 x 39 construction actions."""
    assert NUM_SPOTS == 39
    assert [len(spots_of(b)) for b in BEACHES] == [9, 12, 9, 9]
    assert np.all(SPOT_AT[BEACHES.index("Azzura"), AREAS.index("Sand")] == -1)
    assert core.TAKE_BACK_BASE == 3 * 39 and core.TIKI_BASE == 6 * 39 and core.NUM_ACTIONS == 7 * 39
    env = new_game(4)
    m = mask(env)
    assert m[:core.TAKE_BACK_BASE].sum() == 3 * 39          # every (spot, shown card) construction
    assert m[core.TAKE_BACK_BASE:core.TIKI_BASE].sum() == 3 * 39  # take-backs: the player has paint
    assert m[core.TIKI_BASE:].sum() == 0                    # no tiki during the project phase


def test_rulebook_groups_exist_on_the_board():
    """Rulebook "Maka Bana Island": the largest group has 8 spots, 4 on Diabolo and 4 on Bikini;
    another group joins Coquito and Diabolo across the pier between Diabolo's Rock and Sand areas."""
    largest = chain(8)
    beaches = sorted(name.split("-")[0] for name in largest)
    assert beaches == ["Bikini"] * 4 + ["Diabolo"] * 4
    assert is_neighbour("Diabolo-Rock-Fish", "Diabolo-Sand-Flower")   # the pier does not break groups
    assert is_neighbour("Coquito-Sand-Fish", "Diabolo-Rock-Fish")     # nor does the dirt path


# =====================================================================================================
# 1. Secret selection of a project / 2. Revealing hints
def test_1_project_phase_offers_only_projects_and_raw_env_rejects_a_tiki():
    """Rulebook 1: a season starts with a secret project (construct 1.a or take back 1.b); the tiki
    comes later (3).  raw_env raises ValueError for an action of the wrong decision."""
    env = new_game(4)
    assert all(a < core.TIKI_BASE for a in legal(env))
    with pytest.raises(ValueError):
        env.step(tiki("Azzura-Rock-Flower"))
    with pytest.raises(ValueError):
        env.step(core.NUM_ACTIONS + 5)


def test_illegal_action_in_the_wrapped_env_ends_the_game_with_minus_1():
    """RULINGS conventions / env docstring: ``env()`` wraps like PettingZoo's classic games, so an
    illegal action (here a tiki during the project phase) ends the game
    with -1 for the offender and 0 for everybody else."""
    import makabana_env

    e = makabana_env.env(num_players=3)
    e.reset(seed=1)
    e.step(tiki("Azzura-Rock-Flower"))
    assert all(e.terminations.values())
    assert e.rewards == {"player_0": -1, "player_1": 0, "player_2": 0}


def test_1a_construction_on_an_occupied_spot_may_be_submitted():
    """Rulebook 1.a "Attention" / RULES.md: a construction naming an occupied spot is a project that
    fails at execution (it is offered, and it executes nothing)."""
    env = position(new_game(4), {"Azzura-Rock-Flower": BLUE})
    assert mask(env)[construct("Azzura-Rock-Flower")] == 1
    play_season(env, {YELLOW: construct("Azzura-Rock-Flower")})
    assert hut_at(env, "Azzura-Rock-Flower") == BLUE and reserve(env, YELLOW) == 10


def test_2_revealing_hints_shown_card_hidden_until_every_colour_has_chosen():
    """Rulebook 2 "Revealing Hints": the hints are revealed simultaneously, only the top card (plus
    the paint card of a take-back) is visible; the other cards stay hidden.  During the project
    phase another colour's shown card is not observable; once the tiki phase starts it is."""
    env = position(new_game(4), {"Coquito-Grass-Flower": RED})
    act(env, construct("Azzura-Rock-Flower", shown="area"))      # Yellow shows "Rock"
    rock = core.CF_SHOWN_CARD + len(BEACHES) + AREAS.index("Rock")
    # Blue, asked next, sees that Yellow prepared a project, but not its card.
    obs = env.observe("player_1")["observation"]
    yellow = colour_block(obs, BLUE, YELLOW, 4)
    assert yellow[core.CF_SUBMITTED] == 1
    assert shown_cards(obs, BLUE, YELLOW, 4).sum() == 0 and yellow[core.CF_PAINT_SHOWN] == 0
    # Yellow sees its own shown card and its whole project.
    own = env.observe("player_0")["observation"]
    assert colour_block(own, YELLOW, YELLOW, 4)[rock] == 1
    assert own[core.OBS_OWN_PROJECT + spot("Azzura-Rock-Flower")] == 1
    act(env, take_back("Coquito-Grass-Flower", shown="theme"))    # Blue shows paint + "Flower"
    obs = env.observe("player_2")["observation"]
    assert shown_cards(obs, GREEN, BLUE, 4).sum() == 0
    assert colour_block(obs, GREEN, BLUE, 4)[core.CF_PAINT_SHOWN] == 0
    choose_projects(env)
    assert env.decision() == "tiki"
    obs = env.observe("player_2")["observation"]
    yellow = colour_block(obs, GREEN, YELLOW, 4)
    blue = colour_block(obs, GREEN, BLUE, 4)
    # (only slots inside the colour block are compared: see the Tattoo test for slot 10)
    assert shown_cards(obs, GREEN, YELLOW, 4)[rock - core.CF_SHOWN_CARD] == 1
    assert yellow[core.CF_SHOWN_CARD:].sum() == 1
    assert yellow[core.CF_PAINT_SHOWN] == 0
    flower = len(BEACHES) + len(AREAS) + THEMES.index("Flower")
    assert shown_cards(obs, GREEN, BLUE, 4)[flower] == 1
    assert blue[core.CF_SHOWN_CARD:].sum() == 1
    assert blue[core.CF_PAINT_SHOWN] == 1
    # The hidden cards (the spot itself) stay hidden from the other players.
    for k in (2, 3):  # Yellow and Blue seen from Green
        base = core.OBS_OWN_PROJECT + k * (NUM_SPOTS + 1)
        assert obs[base:base + NUM_SPOTS + 1].sum() == 0


def test_2_revealing_hints_a_shown_tattoo_card_is_observable():
    """Rulebook 2 "Revealing Hints": the player is free to select the card he places on top, so any
    of the 11 beach/area/theme cards can be the hint -- including the Tattoo theme.  Once revealed, each
    colour's block (COLOUR_FEATURES wide) must hold exactly one shown-card bit.

    The block needs CF_SHOWN_CARD (8) + 11 = 19 slots; with 18, the Tattoo bit (slot 10) was written
    into the next colour's CF_PRESENT feature and a Tattoo hint looked like no hint at all."""
    env = position(new_game(4), {"Coquito-Grass-Flower": RED})
    choose_projects(env, {c: construct("Azzura-Rock-Tattoo", "theme") for c in range(4)})
    assert env.decision() == "tiki"
    obs = env.observe("player_0")["observation"]
    for colour in range(4):
        assert colour_block(obs, YELLOW, colour, 4)[core.CF_SHOWN_CARD:].sum() == 1, \
            f"colour {colour}'s Tattoo hint is not inside its observation block"


@pytest.mark.parametrize("num_players", [4, 5])
def test_2_revealing_hints_a_shown_card_does_not_overwrite_other_features(num_players):
    """Rulebook 2 "Revealing Hints" / observation layout: revealing a hint changes only the shown-card
    features of that colour.  With COLOUR_FEATURES = 18 < 8 + 11, with 4 colours the last colour's
    Tattoo hint marked the absent fifth colour as present; with 5 colours it wrote into the viewer's
    own project block (a phantom own project on spot 0)."""
    n = num_players
    env = position(new_game(n), {"Coquito-Grass-Flower": RED})
    projects = {c: construct("Diabolo-Sand-Fish", "beach") for c in range(n)}
    projects[n - 1] = construct("Azzura-Rock-Tattoo", "theme")     # the last colour shows Tattoo
    choose_projects(env, projects)
    obs = env.observe("player_0")["observation"]
    if n == 4:
        absent = core.OBS_COLOUR + 4 * core.COLOUR_FEATURES
        assert obs[absent:absent + core.COLOUR_FEATURES].sum() == 0, "absent colour shows features"
    own = obs[core.OBS_OWN_PROJECT:core.OBS_OWN_PROJECT + NUM_SPOTS]
    assert np.flatnonzero(own).tolist() == [spot("Diabolo-Sand-Fish")], "own project block corrupted"


def test_4_execution_reveals_every_project_to_everybody():
    """Rulebook 4: every player reveals all the cards of his project; after the season the spots,
    kinds and outcomes of the season's projects are observable by everyone."""
    env = position(new_game(4), {"Coquito-Grass-Flower": RED})
    play_season(env, {YELLOW: construct("Azzura-Rock-Flower", "theme"),
                      BLUE: take_back("Coquito-Grass-Flower", "area")},
                tikis={GREEN: "Azzura-Rock-Flower"})
    obs = env.observe("player_3")["observation"]   # Red looks
    size = NUM_SPOTS + 2
    yellow = core.OBS_LAST + ((YELLOW - RED) % 4) * size
    blue = core.OBS_LAST + ((BLUE - RED) % 4) * size
    assert obs[yellow + spot("Azzura-Rock-Flower")] == 1
    assert obs[yellow + NUM_SPOTS] == 0 and obs[yellow + NUM_SPOTS + 1] == 0  # construction, blocked
    assert obs[blue + spot("Coquito-Grass-Flower")] == 1
    assert obs[blue + NUM_SPOTS] == 1 and obs[blue + NUM_SPOTS + 1] == 1      # take-back, done
    assert hut_at(env, "Coquito-Grass-Flower") == BLUE


# =====================================================================================================
# 3. Placing Tikis
def test_3_tiki_phase_mask_offers_only_tikis_and_never_no_tiki():
    """Rulebook 3: during the third phase each player "must place a Tiki": the mask offers only tiki
    placements (the action space has no "pass"), and at least one of them."""
    env = position(new_game(4), {"Coquito-Grass-Flower": RED})
    choose_projects(env)
    while env.decision() == "tiki":
        m = mask(env)
        assert m.sum() > 0 and m[:core.TIKI_BASE].sum() == 0
        act(env, int(np.flatnonzero(m)[0]))
    assert env.action_space("player_0").n == core.NUM_ACTIONS


def test_3a_tiki_only_on_empty_spots():
    """Rulebook 3.a: a tiki forbids construction on an empty spot.  With no paint shown the legal
    tikis are exactly the empty spots (no hut, no tiki already placed this season)."""
    huts = {"Azzura-Rock-Flower": YELLOW, "Bikini-Sand-Fish": BLUE, "Diabolo-Rock-Tattoo": RED}
    env = position(new_game(4), huts)
    choose_projects(env)
    empty = set(SPOT_NAMES) - set(huts)
    assert legal_tiki_spots(env) == empty
    act(env, tiki("Coquito-Sand-Fish"))
    assert legal_tiki_spots(env) == empty - {"Coquito-Sand-Fish"}   # one tiki per spot
    assert tiki_at(env, "Coquito-Sand-Fish") == YELLOW


def test_3a_tiki_stays_for_the_season_and_is_taken_back_at_its_end():
    """Rulebook 3.a "A Tiki stays in place for all the current season" / "Game has not Ended": each
    player takes back his Tiki."""
    env = position(new_game(4), {"Coquito-Grass-Flower": RED})
    choose_projects(env)
    act(env, tiki("Azzura-Rock-Flower"))
    assert tiki_at(env, "Azzura-Rock-Flower") == YELLOW
    place_tikis(env)
    assert all(tiki_at(env, name) is None for name in SPOT_NAMES)


def test_3b_protection_refused_while_no_paint_card_is_shown():
    """Rulebook 3.b: a hut may be protected only "when at least one take back project is visible";
    with construction projects only, no tiki may go under one's own hut."""
    env = position(new_game(4), {"Azzura-Rock-Flower": YELLOW, "Coquito-Grass-Flower": BLUE})
    choose_projects(env, {c: construct("Diabolo-Sand-Fish") for c in range(4)})
    assert colour_to_act(env) == YELLOW
    assert mask(env)[tiki("Azzura-Rock-Flower")] == 0
    with pytest.raises(ValueError):
        env.step(tiki("Azzura-Rock-Flower"))


def test_3b_protection_allowed_once_a_paint_card_is_shown_but_never_under_an_opponent_hut():
    """Rulebook 3.b: with a take-back project visible, a player may put his tiki behind one of his
    huts; "It is forbidden to protect the hut of an opponent"."""
    env = position(new_game(4), {"Azzura-Rock-Flower": YELLOW, "Coquito-Grass-Flower": BLUE})
    choose_projects(env, {RED: take_back("Coquito-Lagoon-Fish")})
    assert colour_to_act(env) == YELLOW
    assert mask(env)[tiki("Azzura-Rock-Flower")] == 1          # own hut
    assert mask(env)[tiki("Coquito-Grass-Flower")] == 0        # Blue's hut
    act(env, tiki("Azzura-Rock-Flower"))
    assert tiki_at(env, "Azzura-Rock-Flower") == YELLOW and hut_at(env, "Azzura-Rock-Flower") == YELLOW
    assert mask(env)[tiki("Coquito-Grass-Flower")] == 1        # Blue may protect its own hut
    assert mask(env)[tiki("Azzura-Rock-Flower")] == 0          # already has a tiki; not Blue's


def test_3_tikis_are_placed_in_order_from_the_first_player():
    """Rulebook 3: "each player, in clockwise order starting from the first player, must place a
    Tiki" (and projects are chosen in the same order)."""
    env = position(new_game(4), {"Coquito-Grass-Flower": RED}, first=GREEN)
    project_order, tiki_order = play_season(env)
    assert project_order == [GREEN, RED, YELLOW, BLUE]
    assert tiki_order == [GREEN, RED, YELLOW, BLUE]


def test_3_a_colour_with_no_legal_tiki_placement_is_skipped():
    """Rulebook 3 / RULINGS "Only if no placement exists is the tiki not placed": in a 3-player game
    whose 27 in-play spots hold 25 huts, with no paint shown, the first two colours take the two
    empty spots and the third colour has no placement left: it is skipped and the season executes.
    With a paint card shown the third colour could protect its own hut instead."""
    in_play = [n for n in SPOT_NAMES if not n.startswith("Bikini")]
    free = ["Azzura-Rock-Flower", "Diabolo-Sand-Fish"]
    filled = [n for n in in_play if n not in free]
    huts = {name: i % 3 for i, name in enumerate(filled)}  # 9, 8, 8 huts: nobody has built ten
    env = position(new_game(3), huts)
    choose_projects(env)
    assert env.decision() == "tiki"
    act(env, tiki(free[0]))
    act(env, tiki(free[1]))
    assert env.decision() == "project"          # colour 2 skipped, the season was executed
    assert int(env.state()[core.SEASON]) == 1 and colour_to_act(env) == 1

    env = position(new_game(3), huts)
    choose_projects(env, {2: take_back(filled[0])})
    act(env, tiki(free[0]))
    act(env, tiki(free[1]))
    assert env.decision() == "tiki" and colour_to_act(env) == 2
    assert legal_tiki_spots(env) == {n for n, c in huts.items() if c == 2}


# =====================================================================================================
# 4.a Construction Project
def test_the_mareva_examples_of_2_3a_and_4a_her_hint_the_tikis_and_her_hut():
    """The rulebook's story of Mareva, the blue player, across three sections.  2 "Revealing Hints",
    Example 2: "a construction project of the Bikini Beach, Rock Area, and Tattoo Theme. She must choose
    which card she will show on top" -- any of the three may be shown.  3.a: "Mareva has revealed a
    Tattoo Theme ... they place Tikis on the Tattoo Theme spots of the Diabolo Beach ... They also
    occupie a Tattoo spot on the Coquito beach."  4.a: "Nobody has discovered the project of Mareva.
    The Bikini-Rock-Tattoo spot is free and she places one of her hut there."  Five players, so that
    her four opponents have the four tikis of the example."""
    env = position(new_game(5), {"Coquito-Grass-Flower": RED})
    blocked = ["Diabolo-Sand-Tattoo", "Diabolo-Grass-Tattoo", "Diabolo-Rock-Tattoo", "Coquito-Sand-Tattoo"]
    while colour_to_act(env) != BLUE:
        act(env, construct("Azzura-Rock-Flower" if colour_to_act(env) == YELLOW else "Bikini-Sand-Fish"))
    assert {construct("Bikini-Rock-Tattoo", card) for card in ("beach", "area", "theme")} <= legal(env)
    choose_projects(env, {BLUE: construct("Bikini-Rock-Tattoo", "theme")})
    tattoo = len(BEACHES) + len(AREAS) + THEMES.index("Tattoo")
    for viewer in (YELLOW, GREEN):   # the opponents see the Tattoo theme, and nothing else of it
        obs = env.observe(f"player_{viewer}")["observation"]
        assert list(np.flatnonzero(shown_cards(obs, viewer, BLUE, 5))) == [tattoo]
    opponents = [c for c in range(5) if c != BLUE]
    place_tikis(env, dict(zip(opponents, blocked)))
    assert hut_at(env, "Bikini-Rock-Tattoo") == BLUE and reserve(env, BLUE) == 9


def test_2_revealing_hints_the_examples_a_sand_area_shown_and_a_take_back_on_azzura():
    """Rulebook 2 "Revealing Hints": "In the case of a construction project, only one card is visible
    ... Example: construction project on a Sand Area.  In the case of a take back project, one of the
    three cards is visible together with the paint card. Example: take back project on a hut of the
    Azzura Beach", and Example 1: "Mareva shows only the top card ... a Rock Area. Everybody will know
    that she wants to construct on a Rock Area ... nobody will know ... on which beach or on which
    theme".  1.a: with a take-back "Everybody will know ... that she plans to repaint ... the hut of an
    opponent"."""
    env = position(new_game(4), {"Azzura-Lagoon-Tattoo": YELLOW})
    choose_projects(env, {YELLOW: construct("Coquito-Sand-Fish", "area"),
                          BLUE: take_back("Azzura-Lagoon-Tattoo", "beach"),
                          GREEN: construct("Bikini-Rock-Tattoo", "area")})
    obs = env.observe(f"player_{RED}")["observation"]
    sand, rock = len(BEACHES) + AREAS.index("Sand"), len(BEACHES) + AREAS.index("Rock")
    assert list(np.flatnonzero(shown_cards(obs, RED, YELLOW, 4))) == [sand]
    assert colour_block(obs, RED, YELLOW, 4)[core.CF_PAINT_SHOWN] == 0
    assert list(np.flatnonzero(shown_cards(obs, RED, BLUE, 4))) == [BEACHES.index("Azzura")]
    assert colour_block(obs, RED, BLUE, 4)[core.CF_PAINT_SHOWN] == 1
    assert list(np.flatnonzero(shown_cards(obs, RED, GREEN, 4))) == [rock]
    for colour in (YELLOW, BLUE, GREEN):   # the spots themselves stay hidden
        base = core.OBS_OWN_PROJECT + ((colour - RED) % 4) * (NUM_SPOTS + 1)
        assert obs[base:base + NUM_SPOTS + 1].sum() == 0


def test_4a_construction_succeeds_and_uses_a_hut_from_the_reserve():
    """Rulebook 4.a: with no tiki and no hut on the spot, the player takes a hut from his reserve and
    places it on the designated spot."""
    env = position(new_game(4), {"Coquito-Grass-Flower": RED})
    play_season(env, {BLUE: construct("Bikini-Rock-Tattoo", "theme")})
    assert hut_at(env, "Bikini-Rock-Tattoo") == BLUE
    assert reserve(env, BLUE) == 9
    assert [reserve(env, c) for c in (YELLOW, GREEN, RED)] == [10, 10, 9]


def test_4a_construction_blocked_by_a_tiki_on_the_spot():
    """Rulebook 3.a / 4.a: "No Tiki are present on the designated spot" -- a tiki forbids
    construction for every player, including its owner."""
    env = position(new_game(4), {"Coquito-Grass-Flower": RED})
    play_season(env, {YELLOW: construct("Azzura-Rock-Flower"), BLUE: construct("Bikini-Sand-Fish")},
                tikis={GREEN: "Azzura-Rock-Flower", BLUE: "Bikini-Sand-Fish"})
    assert hut_at(env, "Azzura-Rock-Flower") is None and reserve(env, YELLOW) == 10
    assert hut_at(env, "Bikini-Sand-Fish") is None and reserve(env, BLUE) == 10


def test_4a_later_player_finds_the_spot_taken_by_an_earlier_construction():
    """Rulebook 4.a note: "a player [may be] unable to execute his project because a preceding player
    has constructed a hut on the same spot during this season"; projects execute clockwise from the
    first player (here Green), so Red builds before Yellow."""
    env = position(new_game(4), {"Coquito-Grass-Flower": BLUE}, first=GREEN)
    play_season(env, {YELLOW: construct("Diabolo-Sand-Fish"), RED: construct("Diabolo-Sand-Fish", "area")})
    assert hut_at(env, "Diabolo-Sand-Fish") == RED
    assert reserve(env, RED) == 9 and reserve(env, YELLOW) == 10


# =====================================================================================================
# 4.b Take Back Project
def test_4b_take_back_replaces_an_opponent_hut_and_discards_the_paint_card():
    """Rulebook 4.b: the player replaces the opponent's hut by one from his reserve; the removed hut
    goes back to the reserve of its owner; the used paint card is discarded (3.b)."""
    env = position(new_game(4), {"Azzura-Lagoon-Tattoo": YELLOW})
    assert reserve(env, YELLOW) == 9
    play_season(env, {BLUE: take_back("Azzura-Lagoon-Tattoo", "beach")})
    assert hut_at(env, "Azzura-Lagoon-Tattoo") == BLUE
    assert reserve(env, YELLOW) == 10 and reserve(env, BLUE) == 9
    assert paints(env, BLUE) == 1


def test_4b_take_back_blocked_by_a_protecting_tiki_keeps_the_paint_card():
    """Rulebook 3.b / 4.b: a tiki under his hut forbids its painting; "If the take back project cannot
    be completed, the player places his paint card back in his hand"."""
    env = position(new_game(4), {"Azzura-Lagoon-Tattoo": YELLOW})
    play_season(env, {BLUE: take_back("Azzura-Lagoon-Tattoo", "area")},
                tikis={YELLOW: "Azzura-Lagoon-Tattoo"})
    assert hut_at(env, "Azzura-Lagoon-Tattoo") == YELLOW
    assert reserve(env, YELLOW) == 9 and reserve(env, BLUE) == 10 and paints(env, BLUE) == 2


def test_4b_take_back_fails_on_an_empty_spot_and_keeps_the_paint_card():
    """Rulebook 1.b note: "If the spot is still empty when a player must execute his project, then he
    is not allowed to place a hut"; the paint card goes back to hand."""
    env = position(new_game(4), {"Coquito-Grass-Flower": RED})
    assert mask(env)[take_back("Azzura-Rock-Flower")] == 1   # may be submitted (RULES.md)
    play_season(env, {YELLOW: take_back("Azzura-Rock-Flower")})
    assert hut_at(env, "Azzura-Rock-Flower") is None
    assert reserve(env, YELLOW) == 10 and paints(env, YELLOW) == 2


def test_4b_take_back_of_ones_own_hut_fails_and_keeps_the_paint_card():
    """Rulebook 4.b: "An opponent's hut is present at the designated spot" -- not one's own."""
    env = position(new_game(4), {"Coquito-Grass-Flower": RED})
    play_season(env, {RED: take_back("Coquito-Grass-Flower")})
    assert hut_at(env, "Coquito-Grass-Flower") == RED
    assert reserve(env, RED) == 9 and paints(env, RED) == 2


def test_4b_take_back_impossible_without_paint_cards():
    """Rulebook 1.b / 3.b: each player has 2 paint cards, so at most two successful take-backs; with
    no paint card left, no take-back project is offered (and raw_env rejects one)."""
    env = position(new_game(4), {"Coquito-Grass-Flower": RED, "Diabolo-Sand-Fish": RED})
    play_season(env, {YELLOW: take_back("Coquito-Grass-Flower")})
    play_season(env, {YELLOW: take_back("Diabolo-Sand-Fish")})
    assert paints(env, YELLOW) == 0
    assert hut_at(env, "Coquito-Grass-Flower") == YELLOW and hut_at(env, "Diabolo-Sand-Fish") == YELLOW
    # From a fresh season where Yellow has no paint card left:
    position(env, {"Coquito-Grass-Flower": YELLOW, "Diabolo-Sand-Fish": YELLOW, "Bikini-Sand-Fish": RED},
             paints={YELLOW: 0})
    m = mask(env)
    assert m[core.TAKE_BACK_BASE:core.TIKI_BASE].sum() == 0
    assert m[:core.TAKE_BACK_BASE].sum() == 3 * NUM_SPOTS
    with pytest.raises(ValueError):
        env.step(take_back("Bikini-Sand-Fish"))


def test_4b_take_back_succeeds_on_a_hut_an_earlier_player_built_this_season():
    """Rulebook 1.b note: a take-back may name an empty spot "because he suspects that the spot will be
    taken once his turn will come"; projects execute in order, so it succeeds."""
    env = position(new_game(4), {"Coquito-Grass-Flower": RED})
    play_season(env, {YELLOW: construct("Bikini-Rock-Flower"), BLUE: take_back("Bikini-Rock-Flower", "theme")})
    assert hut_at(env, "Bikini-Rock-Flower") == BLUE
    assert reserve(env, YELLOW) == 10 and reserve(env, BLUE) == 9 and paints(env, BLUE) == 1


def test_4b_take_back_before_the_construction_in_turn_order_fails():
    """Rulebook 4: projects execute clockwise from the first player; a take-back executed before the
    construction on that spot finds it empty and fails (paint kept), the construction then succeeds."""
    env = position(new_game(4), {"Coquito-Grass-Flower": RED}, first=BLUE)
    play_season(env, {YELLOW: construct("Bikini-Rock-Flower"), BLUE: take_back("Bikini-Rock-Flower")})
    assert hut_at(env, "Bikini-Rock-Flower") == YELLOW and paints(env, BLUE) == 2


# =====================================================================================================
# Execution order and first player; 5. Season End
def test_first_player_card_passes_to_the_next_seat_each_season():
    """Rulebook "Playing the Game": at the end of a season the player on the left of the first player
    receives the "First Player" card and starts the next season."""
    env = position(new_game(4), {"Coquito-Grass-Flower": RED})
    for season in range(6):
        assert first_player(env) == season % 4
        assert colour_to_act(env) == season % 4 and env.agent_selection == f"player_{season % 4}"
        project_order, tiki_order = play_season(env)
        expected = [(season + i) % 4 for i in range(4)]
        assert project_order == expected and tiki_order == expected


# =====================================================================================================
# Game Ends
def test_game_ends_full_beach_by_huts_and_tikis_gives_exactly_one_more_season():
    """Rulebook "Game Ends": "The game continues for one last season if one beach is completely
    occupied by huts or Tikis" -- checked before the tikis are removed.  Azzura holds 7 huts; two
    tikis on its two free spots fill it: one more season, then the game ends."""
    azzura = spots_of("Azzura")
    free = ["Azzura-Rock-Flower", "Azzura-Lagoon-Fish"]
    huts = {name: i % 4 for i, name in enumerate(n for n in azzura if n not in free)}
    env = position(new_game(4), huts)
    play_season(env, tikis={YELLOW: free[0], GREEN: free[1]})
    assert all(tiki_at(env, n) is None for n in free)                # tikis were lifted...
    assert env.state()[core.LAST_SEASON] == 1                         # ...after the check
    assert env.observe(env.agent_selection)["observation"][core.OBS_LAST_SEASON] == 1
    assert env.decision() == "project" and not any(env.terminations.values())
    play_season(env)                                                  # the last season
    assert env.decision() == "over"
    assert all(env.terminations.values()) and not any(env.truncations.values())
    assert int(env.state()[core.SEASON]) == 2


def test_game_ends_full_beach_by_construction_during_the_season():
    """Rulebook "Game Ends": a beach completely occupied by huts after execution also triggers the
    last season; a beach with one free spot does not."""
    azzura = spots_of("Azzura")
    huts = {name: i % 4 for i, name in enumerate(azzura[:-1])}
    env = position(new_game(4), huts)
    play_season(env)                                 # nobody fills the free spot (tikis go elsewhere)
    assert env.state()[core.LAST_SEASON] == 0
    play_season(env, {BLUE: construct(azzura[-1])})
    assert hut_at(env, azzura[-1]) == BLUE
    assert env.state()[core.LAST_SEASON] == 1 and env.decision() == "project"
    play_season(env)
    assert all(env.terminations.values())


NINE_GREEN = ["Azzura-Grass-Flower", "Azzura-Rock-Flower", "Azzura-Rock-Fish", "Azzura-Lagoon-Fish",
              "Bikini-Sand-Flower", "Bikini-Sand-Tattoo", "Coquito-Grass-Flower", "Coquito-Sand-Flower",
              "Diabolo-Sand-Fish"]


@pytest.mark.parametrize("num_players", [4, 2])
def test_game_ends_at_once_when_a_colour_builds_its_tenth_hut(num_players):
    """Rulebook "Game Ends": "The game ends immediately if a player doesn't have any hut left in his
    reserve" -- at the end of the season in which he built his 10th hut.  With 2 players a player's
    colours keep their own reserves (RULES.md): one colour out of huts ends the game, though the
    player's other colour still has all ten."""
    env = position(new_game(num_players), {n: GREEN for n in NINE_GREEN})
    assert reserve(env, GREEN) == 1
    play_season(env, {GREEN: construct("Diabolo-Rock-Tattoo")})
    assert reserve(env, GREEN) == 0 and reserve(env, YELLOW) == 10
    assert env.decision() == "over" and all(env.terminations.values())
    assert int(env.state()[core.SEASON]) == 1
    assert env.infos["player_0"]["colour_scores"] == env.colour_scores()


def test_game_ends_tenth_hut_taken_back_in_the_same_season_does_not_end_it():
    """Rulebook "Game Ends" (checked at the end of season, RULES.md decision): a colour that builds its
    tenth hut but has one taken back later in the same season still has a hut in reserve."""
    nine = ["Azzura-Grass-Flower", "Azzura-Rock-Flower", "Azzura-Rock-Fish", "Azzura-Lagoon-Fish",
            "Bikini-Sand-Flower", "Bikini-Sand-Tattoo", "Coquito-Grass-Flower", "Coquito-Sand-Flower",
            "Diabolo-Sand-Fish"]
    env = position(new_game(4), {n: GREEN for n in nine}, first=GREEN)
    play_season(env, {GREEN: construct("Diabolo-Rock-Tattoo"), YELLOW: take_back("Diabolo-Sand-Fish")})
    assert hut_at(env, "Diabolo-Sand-Fish") == YELLOW and hut_at(env, "Diabolo-Rock-Tattoo") == GREEN
    assert reserve(env, GREEN) == 1
    assert env.decision() == "project" and not any(env.terminations.values())


def test_game_truncated_after_max_turns_seasons():
    """RULINGS "a game that could run forever is truncated by max_turns": after max_turns seasons the
    game is truncated, rewards are 0 and the scores as they stand are reported."""
    env = position(new_game(4, max_turns=3), {"Coquito-Grass-Flower": RED})
    play_season(env)
    play_season(env)
    assert env.decision() == "project"
    play_season(env)
    assert env.decision() == "over"
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert all(r == 0 for r in env.rewards.values())
    assert env.infos["player_3"]["scores"] == {"player_0": 0, "player_1": 0, "player_2": 0, "player_3": 5}


# =====================================================================================================
# Setup, note: 3 players
def test_setup_3_players_never_offers_a_bikini_spot():
    """Rulebook "Setup" note: "When there are only 3 players, the Bikini beach is not used": over many
    random legal steps no Bikini spot is offered for a project or a tiki, and no hut lands there."""
    rng = np.random.default_rng(7)
    env = new_game(3, seed=7)
    bikini = [s for s in range(NUM_SPOTS) if SPOT_BEACH[s] == BIKINI]
    bikini_actions = ([3 * s + k for s in bikini for k in range(3)]
                      + [core.TAKE_BACK_BASE + 3 * s + k for s in bikini for k in range(3)]
                      + [core.TIKI_BASE + s for s in bikini])
    obs = env.observe("player_0")["observation"]
    assert obs[core.OBS_IN_PLAY:core.OBS_IN_PLAY + NUM_SPOTS][bikini].sum() == 0
    assert obs[core.OBS_IN_PLAY:core.OBS_IN_PLAY + NUM_SPOTS].sum() == 27
    games = 0
    for _ in range(3000):
        if env.decision() == "over":
            games += 1
            env.reset()
        m = mask(env)
        assert m.sum() > 0 and m[bikini_actions].sum() == 0
        env.step(int(rng.choice(np.flatnonzero(m))))
        state = env.state()
        assert np.all(state[core.HUT + np.array(bikini)] == -1)
        assert np.all(state[core.TIKI + np.array(bikini)] == -1)
    assert games >= 3


def test_setup_3_players_a_position_with_anything_on_bikini_is_refused():
    """Rulebook "Setup" note / RULINGS: with 3 players Bikini is out of play, so no hut or tiki can
    ever stand there (its spots are never offered, above), and a crafted position that puts one there
    is refused (issue 23) rather than scored or checked for the end; with 4 players the same huts
    count, Bikini's beach bonus included."""
    bikini = spots_of("Bikini")
    huts = {name: i % 3 for i, name in enumerate(bikini[:9])}
    huts[bikini[1]] = YELLOW    # Yellow 4, Blue 2, Green 3 on Bikini
    s4 = position(new_game(4), huts).colour_scores()
    s4_without_bikini = position(new_game(4), {}).colour_scores()
    assert s4[YELLOW] - s4_without_bikini[YELLOW] > 4   # groups plus the beach bonus
    for entry in ("hut", "tiki"):
        state = new_game(3).state()
        offset = (core.HUT if entry == "hut" else core.TIKI) + spot(bikini[0])
        state[offset] = BLUE
        if entry == "hut":
            state[core.RESERVE + BLUE] -= 1
        with pytest.raises(ValueError, match=rf"{entry.upper()}\[{spot(bikini[0])}\] = 1: a spot out of play"):
            core.check_state(state)


# =====================================================================================================
# Maka Bana for 2 Players
def test_2_players_each_player_plays_two_colours_in_seat_order():
    """Rulebook "Maka Bana for 2 Players": each player takes 2 colours; the game plays as a 4-player
    game and the first player moves from one colour to the next.  Colours 0 and 2 belong to player_0,
    1 and 3 to player_1 (RULINGS), each colour choosing its own project and tiki."""
    env = position(new_game(2), {"Coquito-Grass-Flower": RED})
    assert env.possible_agents == ["player_0", "player_1"]
    asked = []
    while env.decision() != "over" and int(env.state()[core.SEASON]) < 2:
        colour = colour_to_act(env)
        asked.append((colour, env.agent_selection))
        act(env, int(np.flatnonzero(mask(env))[0]) if env.decision() == "project" else int(
            np.flatnonzero(mask(env))[-1]))
    expected = [(0, "player_0"), (1, "player_1"), (2, "player_0"), (3, "player_1")]
    second = [(1, "player_1"), (2, "player_0"), (3, "player_1"), (0, "player_0")]
    assert asked == expected + expected + second + second
    obs = env.observe("player_0")["observation"]   # the 3rd season starts with colour 2: player_0's view
    mine = [colour_block(obs, 2, c, 4)[core.CF_MINE] for c in range(4)]
    assert mine == [1, 0, 1, 0]


def test_2_players_take_back_of_the_partner_colours_hut_succeeds():
    """Rulebook "Maka Bana for 2 Players" ("plays as if 4 players were involved") / RULINGS.md, Maka
    Bana, Players: the partner colour is a player of its own for every rule but scoring and
    denunciation, so Green takes back Yellow's hut like any other colour's; the paint card is used."""
    env = position(new_game(2), {"Azzura-Rock-Flower": YELLOW})
    play_season(env, {GREEN: take_back("Azzura-Rock-Flower")})
    assert hut_at(env, "Azzura-Rock-Flower") == GREEN and paints(env, GREEN) == 1
    assert reserve(env, GREEN) == 9 and reserve(env, YELLOW) == 10


def test_2_players_tiki_may_not_protect_the_partner_colours_hut():
    """Rulebook 3.b in the 2-player game / RULINGS.md, Maka Bana, Players: with a paint card shown a
    colour may protect only its own huts; the partner colour's hut is another colour's."""
    env = new_game(2)
    env.set_state(makabana_env.from_text("""
        game: Maka Bana
        players: 2
        phase: tiki
        Yellow huts: Coquito-Grass-Flower
        Blue huts: Bikini-Sand-Fish
        Green huts: Azzura-Rock-Flower
        Yellow project: construct Coquito-Grass-Flower showing the beach
        Blue project: take back Azzura-Rock-Flower showing paint and the theme
        Green project: construct Coquito-Grass-Flower showing the area
        Red project: construct Coquito-Grass-Flower showing the theme
    """))
    assert colour_to_act(env) == YELLOW
    assert mask(env)[tiki("Coquito-Grass-Flower")] == 1     # Yellow's own hut
    assert mask(env)[tiki("Azzura-Rock-Flower")] == 0       # Green's hut, same player
    assert mask(env)[tiki("Bikini-Sand-Fish")] == 0         # Blue's hut, other player
    # Green protects its own hut itself, and the protection stops Blue's take-back
    place_tikis(env, {YELLOW: "Azzura-Grass-Flower", GREEN: "Azzura-Rock-Flower"})
    assert hut_at(env, "Azzura-Rock-Flower") == GREEN and paints(env, BLUE) == 2


def test_2_players_scores_are_summed_per_player():
    """Rulebook "Maka Bana for 2 Players": "points for the 4 colors are counted separately and summed
    for each player"."""
    huts = {"Azzura-Grass-Flower": YELLOW, "Azzura-Grass-Fish": YELLOW, "Coquito-Grass-Flower": GREEN,
            "Bikini-Sand-Fish": BLUE, "Diabolo-Sand-Fish": RED, "Diabolo-Sand-Tattoo": RED}
    env = position(new_game(2), huts, last_season=True)
    colour = env.colour_scores()
    assert colour == [3 + 4, 1 + 4, 1 + 4, 3 + 4]   # groups per colour, beach majority per colour
    assert env.scores() == {"player_0": colour[0] + colour[2], "player_1": colour[1] + colour[3]}
    play_season(env)
    assert env.decision() == "over"
    assert env.infos["player_0"]["scores"] == {"player_0": 12, "player_1": 12}
    assert env.rewards == {"player_0": 0, "player_1": 0}


# =====================================================================================================
# Final Scoring: Points for Groups of Huts
@pytest.mark.parametrize("size", range(1, 9))
def test_final_scoring_group_table(size):
    """Rulebook "Points for Groups of Huts": a group of 1..8 huts of one colour on neighbouring spots
    is worth 1, 3, 6, 9, 12, 15, 18, 21 (plus the beach bonus of a sole leader, 4 per beach)."""
    line = chain(8)[:size]
    assert groups({n: YELLOW for n in line}) == {YELLOW: [size]}
    beaches = {n.split("-")[0] for n in line}
    assert colour_scores(4, {n: YELLOW for n in line})[YELLOW] == GROUP_TABLE[size] + 4 * len(beaches)


def test_final_scoring_separate_groups_score_separately():
    """Rulebook "Points for Groups of Huts": each group counts on its own: 2 huts + 3 huts apart score
    3 + 6, not 12."""
    two = ["Azzura-Grass-Flower", "Azzura-Grass-Fish"]
    three = ["Coquito-Sand-Fish", "Diabolo-Rock-Fish", "Diabolo-Rock-Tattoo"]
    huts = {n: RED for n in two + three}
    assert groups(huts) == {RED: [2, 3]}
    assert colour_scores(4, huts)[RED] == 3 + 6 + 3 * 4


def test_final_scoring_groups_cross_beaches_and_areas():
    """Rulebook "Points for Groups of Huts": "Two huts can be in the same group even if they are in
    different areas or beaches, or if they are separated by a pier or a dirt path"."""
    assert colour_scores(4, {"Azzura-Lagoon-Flower": BLUE, "Coquito-Grass-Fish": BLUE})[BLUE] == 3 + 4 + 4
    assert colour_scores(4, {"Diabolo-Rock-Fish": BLUE, "Diabolo-Sand-Flower": BLUE})[BLUE] == 3 + 4


def test_final_scoring_corner_only_contact_is_not_a_group():
    """Rulebook "Points for Groups of Huts": "Two huts constructed on spots sharing one corner do not
    constitute a group"."""
    diagonal = [(SPOT_NAMES[a], SPOT_NAMES[b]) for a in range(NUM_SPOTS) for b in range(a + 1, NUM_SPOTS)
                if abs(SPOT_XY[a] - SPOT_XY[b]).tolist() == [1, 1] and SPOT_BEACH[a] == SPOT_BEACH[b]]
    assert diagonal, "the board has spots touching at a corner"
    for a, b in diagonal:
        assert not is_neighbour(a, b)
        assert colour_scores(4, {a: GREEN, b: GREEN})[GREEN] == 1 + 1 + 4
    assert colour_scores(4, {"Azzura-Grass-Flower": GREEN, "Azzura-Grass-Fish": GREEN})[GREEN] == 3 + 4


def test_final_scoring_other_colours_break_nothing_and_join_nothing():
    """Rulebook "Points for Groups of Huts": a group is made of huts "of the same color"; neighbouring
    huts of two colours form no group."""
    huts = {"Azzura-Grass-Flower": YELLOW, "Azzura-Grass-Fish": BLUE, "Azzura-Rock-Fish": YELLOW}
    s = colour_scores(4, huts)
    assert s[YELLOW] == 1 + 1 + 4 and s[BLUE] == 1


# =====================================================================================================
# Final Scoring: Bonus for Beaches
def test_beach_bonus_sole_majority_gets_4():
    """Rulebook "Bonus for Beaches": "If one player has more huts than any of his opponents he gains 4
    points"; groups play no part."""
    assert groups({n: YELLOW for n in ISOLATED_AZZURA}) == {YELLOW: [1] * 5}
    a = ISOLATED_AZZURA
    s = colour_scores(4, {a[0]: YELLOW, a[1]: YELLOW, a[2]: BLUE})
    assert s == [2 + 4, 1, 0, 0]


def test_beach_bonus_two_tied_get_2_each():
    """Rulebook "Bonus for Beaches": "If two players tie for majority, they each gain 2 points"."""
    a = ISOLATED_AZZURA
    assert colour_scores(4, {a[0]: YELLOW, a[1]: RED}) == [1 + 2, 0, 0, 1 + 2]
    assert colour_scores(4, {a[0]: YELLOW, a[1]: RED, a[2]: YELLOW, a[3]: RED, a[4]: GREEN}) == [4, 0, 1, 4]


def test_beach_bonus_three_tied_get_nothing():
    """Rulebook "Bonus for Beaches": "If three players or more are tied for majority, none of them gain
    any points"."""
    a = ISOLATED_AZZURA
    assert colour_scores(4, {a[0]: YELLOW, a[1]: BLUE, a[2]: GREEN}) == [1, 1, 1, 0]
    assert colour_scores(5, {a[0]: YELLOW, a[1]: BLUE, a[2]: GREEN, a[3]: RED}) == [1, 1, 1, 1, 0]


def test_beach_bonus_needs_at_least_one_hut():
    """RULINGS "a colour needs at least one hut on the beach to lead it": an empty board scores 0 for
    everybody, in every player count."""
    for num_players in (2, 3, 4, 5):
        env = new_game(num_players)
        assert set(env.colour_scores()) == {0}
        assert set(env.scores().values()) == {0}


# =====================================================================================================
# Game Ends: the rulebook's worked example
EXAMPLE_FINAL = {  # no two huts of one colour share a side
    "Azzura-Grass-Flower": YELLOW, "Azzura-Rock-Fish": YELLOW, "Azzura-Lagoon-Flower": YELLOW,
    "Bikini-Rock-Fish": YELLOW, "Coquito-Sand-Tattoo": YELLOW, "Diabolo-Sand-Fish": YELLOW,
    "Azzura-Grass-Fish": BLUE, "Azzura-Grass-Tattoo": BLUE, "Azzura-Lagoon-Fish": BLUE,
    "Coquito-Sand-Flower": BLUE, "Coquito-Sand-Fish": BLUE,
    "Bikini-Rock-Flower": GREEN, "Bikini-Lagoon-Flower": GREEN, "Diabolo-Sand-Flower": GREEN,
    "Diabolo-Sand-Tattoo": GREEN, "Diabolo-Grass-Fish": GREEN,
    "Azzura-Lagoon-Tattoo": RED, "Bikini-Grass-Flower": RED, "Coquito-Grass-Tattoo": RED,
    "Diabolo-Rock-Flower": RED, "Diabolo-Rock-Tattoo": RED,
}
EXAMPLE_PRECEDING_SEASON = {YELLOW: "Bikini-Rock-Fish", BLUE: "Coquito-Sand-Flower",
                            GREEN: "Bikini-Rock-Flower", RED: "Bikini-Grass-Flower"}
EXAMPLE_LAST_SEASON = {BLUE: "Coquito-Sand-Fish", GREEN: "Diabolo-Grass-Fish",
                       RED: "Diabolo-Rock-Tattoo", YELLOW: "Diabolo-Sand-Fish"}


def test_game_ends_worked_example_yellow_8_blue_11_green_13_red_5():
    """Rulebook "Game Ends", example: "At the preceding season, the Azzura Beach was filled: two Tikis
    were discovered on the two free spots. One last turn [is] played": no groups; Yellow 6 huts tied
    with Blue on Azzura: 8; Blue 5 huts, sole majority on Coquito: 11; Green 5 huts, sole majority on
    Bikini and Diabolo: 13; Red 5 huts, no majority: 5.  Green wins (reward +1, the others -1)."""
    final = EXAMPLE_FINAL
    assert all(sizes == [1] * len(sizes) for sizes in groups(final).values())
    assert [sum(1 for c in final.values() if c == colour) for colour in range(4)] == [6, 5, 5, 5]
    built = set(EXAMPLE_PRECEDING_SEASON.values()) | set(EXAMPLE_LAST_SEASON.values())
    start = {name: c for name, c in final.items() if name not in built}
    free_azzura = [n for n in spots_of("Azzura") if n not in final]
    assert len(free_azzura) == 2

    env = position(new_game(4), start)
    # The preceding season: everybody builds; two tikis are placed on Azzura's two free spots.
    play_season(env, {c: construct(name, "theme") for c, name in EXAMPLE_PRECEDING_SEASON.items()},
                tikis={YELLOW: free_azzura[0], RED: free_azzura[1]})
    assert env.state()[core.LAST_SEASON] == 1 and env.decision() == "project"
    assert first_player(env) == BLUE
    # The last season.
    play_season(env, {c: construct(name, "area") for c, name in EXAMPLE_LAST_SEASON.items()})
    assert env.decision() == "over" and all(env.terminations.values())
    assert {name: hut_at(env, name) for name in SPOT_NAMES if hut_at(env, name) is not None} == final
    assert env.colour_scores() == [8, 11, 13, 5]
    assert env.infos["player_0"]["scores"] == {"player_0": 8, "player_1": 11, "player_2": 13, "player_3": 5}
    assert env.rewards == {"player_0": -1, "player_1": -1, "player_2": 1, "player_3": -1}
    # The AEC way: every agent sees its final reward through last() and steps out with None.
    seen = {}
    while env.agents:
        _, reward, terminated, truncated, info = env.last()
        assert terminated and not truncated and info["scores"]["player_2"] == 13
        seen[env.agent_selection] = reward
        env.step(None)
    assert seen == {"player_0": -1, "player_1": -1, "player_2": 1, "player_3": -1}


# =====================================================================================================
# Winner / rewards (RULINGS conventions)
REWARD_HUTS = {"Azzura-Grass-Flower": YELLOW, "Azzura-Grass-Fish": YELLOW,   # 3 + 4 = 7
               "Coquito-Grass-Flower": BLUE,                                    # 1 + 4 = 5
               "Diabolo-Sand-Fish": GREEN}                                      # 1 + 4 = 5; Red 0
TIED_HUTS = {"Azzura-Grass-Flower": YELLOW, "Coquito-Grass-Flower": BLUE}      # 5, 5, 0, 0


def finish(huts, reward):
    env = position(new_game(4, reward=reward), huts, last_season=True)
    play_season(env)
    assert env.decision() == "over" and all(env.terminations.values())
    return env.rewards, env.infos["player_0"]["scores"]


def test_winner_sole_winner_gets_plus_1_others_minus_1():
    """Rulebook "Winner": the player with the greatest number of points wins (win_loss: +1 / -1)."""
    rewards, scores = finish(REWARD_HUTS, "win_loss")
    assert scores == {"player_0": 7, "player_1": 5, "player_2": 5, "player_3": 0}
    assert rewards == {"player_0": 1, "player_1": -1, "player_2": -1, "player_3": -1}


def test_winner_tied_winners_get_0():
    """Rulebook "Winner" has no tie-break (RULES.md): players tied for first get 0, the rest -1."""
    rewards, scores = finish(TIED_HUTS, "win_loss")
    assert scores == {"player_0": 5, "player_1": 5, "player_2": 0, "player_3": 0}
    assert rewards == {"player_0": 0, "player_1": 0, "player_2": -1, "player_3": -1}


def test_rewards_score_mode_gives_final_points():
    """RULINGS conventions: reward="score" gives each player's final points."""
    rewards, scores = finish(REWARD_HUTS, "score")
    assert rewards == {a: float(v) for a, v in scores.items()}


def test_rewards_margin_mode_gives_points_minus_best_other():
    """RULINGS conventions: reward="margin" gives points minus the best other player's points."""
    rewards, _ = finish(REWARD_HUTS, "margin")
    assert rewards == {"player_0": 2, "player_1": -2, "player_2": -2, "player_3": -7}
    rewards, _ = finish(TIED_HUTS, "margin")
    assert rewards == {"player_0": 0, "player_1": 0, "player_2": -5, "player_3": -5}


def test_rewards_arrive_only_at_the_end():
    """RULINGS conventions: rewards arrive when the game ends; during play they are 0."""
    env = position(new_game(4), REWARD_HUTS)
    for _ in range(2):
        choose_projects(env)
        assert all(r == 0 for r in env.rewards.values())
        place_tikis(env)
        assert all(r == 0 for r in env.rewards.values())


@pytest.mark.parametrize("num_players, variant", [(2, "haapii"), (3, "haapii"), (5, "haapii"), (4, "mao")])
def test_the_legality_check_of_one_action_agrees_with_the_mask(num_players, variant):
    """Rulebook 2 (projects) and 3 (the tiki: an empty spot, or one's own hut while a paint card is
    shown): ``is_legal``, which the batch runs on every game's action before it steps any and which
    reads only the spot asked about, accepts exactly the actions of ``legal_action_mask``, which
    builds the whole board's bit sets -- at every decision of random games."""
    from makabana_env import BatchEnv, kernels

    batch = BatchEnv(16, seed=num_players, num_players=num_players, variant=variant)
    actions = np.zeros(16, dtype=np.int64)
    tiki_positions = 0
    for _ in range(150):
        for g in range(16):
            row, mask = batch.states[g], batch.action_masks[g]
            tiki_positions += int(row[kernels.PHASE] == kernels.PHASE_TIKI)
            legal = [bool(kernels.is_legal(row, a)) for a in range(mask.shape[0])]
            assert legal == [bool(m) for m in mask], (g, int(row[kernels.PHASE]))
        batch.step(batch.random_actions(actions))
    assert tiki_positions > 50


# =====================================================================================================
# Game Ends: both end conditions in one season
def test_game_ends_beach_filled_in_the_season_a_reserve_empties_ends_at_once():
    """Rulebook "Game Ends": "The game ends immediately if a player doesn't have any hut left in his
    reserve"; the extra season is for a full beach alone (RULES.md "End of the game": otherwise, if a
    beach is full, one more season).  Green builds its tenth hut on one of Azzura's two free spots while
    Yellow's tiki fills the other: the beach is full *and* Green is out of huts, so the game ends at the
    end of this season, with no extra season."""
    azzura = spots_of("Azzura")
    free = ["Azzura-Rock-Flower", "Azzura-Lagoon-Fish"]
    others = [n for n in azzura if n not in free]
    huts = {name: (YELLOW, BLUE, RED)[i % 3] for i, name in enumerate(others)}
    green_nine = ["Bikini-Sand-Flower", "Bikini-Sand-Tattoo", "Bikini-Grass-Tattoo", "Coquito-Grass-Flower",
                  "Coquito-Sand-Flower", "Coquito-Lagoon-Flower", "Diabolo-Sand-Fish", "Diabolo-Grass-Tattoo",
                  "Diabolo-Rock-Tattoo"]
    huts.update({n: GREEN for n in green_nine})
    env = position(new_game(4), huts)
    assert reserve(env, GREEN) == 1 and env.state()[core.LAST_SEASON] == 0
    play_season(env, {GREEN: construct("Azzura-Rock-Flower")}, tikis={YELLOW: "Azzura-Lagoon-Fish"})
    assert hut_at(env, "Azzura-Rock-Flower") == GREEN and reserve(env, GREEN) == 0
    assert all(hut_at(env, n) is not None or tiki_at(env, n) is not None for n in azzura)  # Azzura is full
    assert int(env.state()[core.SEASON]) == 1
    assert env.decision() == "over", "a full beach must not add a season once a reserve is empty"
    assert all(env.terminations.values()) and not any(env.truncations.values())
    assert env.infos["player_0"]["colour_scores"] == env.colour_scores()


# =====================================================================================================
# Maka Bana for 2 Players: ties between partner colours
def test_2_players_partner_colours_tied_on_a_beach_get_2_each_counted_per_colour():
    """Rulebook "Maka Bana for 2 Players": "points for the 4 colors are counted separately and summed
    for each player", with "Bonus for Beaches": "If two players tie for majority, they each gain 2
    points" and "If three players or more are tied ..., none of them gain any points".  On Azzura
    Yellow and Green (both player_0's) tie with 2 huts each, Blue has 1: Yellow and Green get 2 each
    (not one 4-point majority for player_0).  On Coquito Yellow, Green and Blue have one hut each: a
    three-way tie of colours, so no bonus, although player_0 holds two huts there to player_1's one."""
    a = ISOLATED_AZZURA
    huts = {a[0]: YELLOW, a[1]: YELLOW, a[2]: GREEN, a[3]: GREEN, a[4]: BLUE,
            "Coquito-Sand-Flower": YELLOW, "Coquito-Grass-Flower": GREEN, "Coquito-Sand-Tattoo": BLUE}
    assert all(sizes == [1] * len(sizes) for sizes in groups(huts).values())   # every hut scores 1
    env = position(new_game(2), huts, last_season=True)
    assert env.colour_scores() == [3 + 2, 2, 3 + 2, 0]
    assert env.scores() == {"player_0": 10, "player_1": 2}
    play_season(env)
    assert env.decision() == "over" and all(env.terminations.values())
    assert env.infos["player_1"]["colour_scores"] == [5, 2, 5, 0]
    assert env.infos["player_1"]["scores"] == {"player_0": 10, "player_1": 2}
    assert env.rewards == {"player_0": 1, "player_1": -1}


# =====================================================================================================
# Setup, note: 3 players -- Bikini out of the beach bonus and of the end check
def test_setup_3_players_a_bikini_hut_or_tiki_is_refused_by_the_position_notation():
    """Rulebook "Setup" note: "When there are only 3 players, the Bikini beach is not used"; RULINGS:
    its spots do not exist for building, tikis, the end check or the bonus.  A written position that
    puts a hut or a tiki there is refused with the line and the reason; the same hut with 4 players
    is accepted and counts for Bikini's beach bonus."""
    with pytest.raises(ValueError, match=r"line 3 \(Blue huts\): invalid state: HUT\[10\] = 1: a spot out "
                                         r"of play \(Bikini with 3 players\) holds no hut and no tiki"):
        makabana_env.from_text("game: Maka Bana\nplayers: 3\nBlue huts: Bikini-Sand-Fish\n")
    with pytest.raises(ValueError, match=r"line 4 \(Blue tiki\): invalid state: TIKI\[10\] = 1: a spot out "
                                         r"of play \(Bikini with 3 players\)"):
        makabana_env.from_text("game: Maka Bana\nplayers: 3\nphase: tiki\nBlue tiki: Bikini-Sand-Fish\n")
    with pytest.raises(ValueError, match="Bikini with 3 players"):
        makabana_env.from_text("game: Maka Bana\nvariant: mao\nplayers: 3\nBlue huts: Bikini-Sand-Fish\n")
    four = makabana_env.from_text("game: Maka Bana\nplayers: 4\nBlue huts: Bikini-Sand-Fish\n")
    assert core.colour_score(four, BLUE) == 1 + 4


@pytest.mark.parametrize("beach", ["Azzura", "Coquito", "Diabolo"])
def test_setup_3_players_an_in_play_beach_filled_gives_one_more_season_bikini_never_checked(beach):
    """Rulebook "Setup" note and "Game Ends": with 3 players the end check looks at the three beaches
    in play.  Bikini's 12 spots stay empty all game (they take no hut and no tiki) and never count as
    full or as filled: an ordinary season keeps ``last season`` off.  Each in-play beach, 7 huts plus
    2 tikis on its free spots, gives exactly one more season; its bonus goes to its sole leader and
    Bikini gives none."""
    spots = spots_of(beach)
    free, taken = spots[:2], spots[2:]
    huts = {name: (YELLOW, BLUE, GREEN)[i % 3] for i, name in enumerate(taken)}   # 3, 2, 2 huts
    env = position(new_game(3), huts)
    play_season(env)                                     # the beach keeps a free spot
    assert env.state()[core.LAST_SEASON] == 0 and env.decision() == "project"
    assert all(hut_at(env, n) is None for n in spots_of("Bikini"))

    env = position(new_game(3), huts)
    play_season(env, tikis={YELLOW: free[0], BLUE: free[1]})
    assert env.state()[core.LAST_SEASON] == 1 and env.decision() == "project"
    assert not any(env.terminations.values())
    play_season(env)                                     # the last season
    assert env.decision() == "over" and all(env.terminations.values())
    assert int(env.state()[core.SEASON]) == 2
    group_points = {c: sum(GROUP_TABLE[g] for g in sizes) for c, sizes in groups(huts).items()}
    assert env.colour_scores() == [group_points[YELLOW] + 4, group_points[BLUE], group_points[GREEN]]


# =====================================================================================================
# RULINGS "Conventions for all three games": public information stays observable
def test_4_last_seasons_revealed_projects_stay_observable_all_through_the_next_season():
    """RULINGS "Conventions": "Information that becomes public (a revealed project ...) stays
    observable where a player at the table would remember it"; rulebook 4: every player reveals all
    the cards of his project.  Season 1's projects (spot, take-back or not, done or not) stay in every
    player's observation through season 2's project and tiki phases, until season 2's execution
    replaces them."""
    from makabana_positions import dud_project, harmless_tiki

    env = position(new_game(4), {"Coquito-Grass-Flower": RED})
    play_season(env, {YELLOW: construct("Azzura-Rock-Flower", "theme"),
                      BLUE: take_back("Coquito-Grass-Flower", "area")},
                tikis={GREEN: "Azzura-Rock-Flower"})
    size = NUM_SPOTS + 2

    def last(viewer, colour):
        obs = env.observe(f"player_{viewer}")["observation"]
        base = core.OBS_LAST + ((colour - viewer) % 4) * size
        return obs[base:base + size]

    def expected(name, take, done):
        out = np.zeros(size)
        out[spot(name)], out[NUM_SPOTS], out[NUM_SPOTS + 1] = 1, take, done
        return out

    checks = 0
    while int(env.state()[core.SEASON]) == 1:
        for viewer in (GREEN, RED):
            np.testing.assert_array_equal(last(viewer, YELLOW), expected("Azzura-Rock-Flower", 0, 0))
            np.testing.assert_array_equal(last(viewer, BLUE), expected("Coquito-Grass-Flower", 1, 1))
        checks += 1
        if env.decision() == "project":
            act(env, construct("Diabolo-Sand-Fish") if colour_to_act(env) == YELLOW else dud_project(env))
        else:
            act(env, harmless_tiki(env))
    assert checks == 8                                   # 4 projects and 4 tikis
    assert hut_at(env, "Diabolo-Sand-Fish") == YELLOW
    np.testing.assert_array_equal(last(RED, YELLOW), expected("Diabolo-Sand-Fish", 0, 1))


@pytest.mark.parametrize("how", ["tenth hut", "last season"])
def test_game_ends_by_the_rulebook_in_the_max_turns_th_season_is_a_rules_end_not_a_truncation(how):
    """Rulebook "Game Ends" against RULINGS "a game that could run forever is truncated by max_turns":
    when the rulebook's end (a colour out of huts, or the one last season after a full beach) falls
    in the very season that reaches ``max_turns``, the game has ended by its rules -- it is
    terminated (end "rules") and pays its rewards, it is not truncated."""
    env = new_game(4, max_turns=1)
    if how == "tenth hut":
        position(env, {n: GREEN for n in NINE_GREEN})
        play_season(env, {GREEN: construct("Diabolo-Rock-Tattoo")})
        assert reserve(env, GREEN) == 0
    else:
        position(env, {n: GREEN for n in NINE_GREEN}, last_season=True)
        play_season(env)
    assert env.decision() == "over"
    assert int(env.state()[core.SEASON]) == 1
    assert all(env.terminations.values()) and not any(env.truncations.values())
    assert all(info["end"] == "rules" for info in env.infos.values())
    assert env.rewards[f"player_{GREEN}"] == 1.0


@pytest.mark.parametrize("reward, expected", [("win_loss", {"player_0": 1, "player_1": -1}),
                                              ("score", {"player_0": 10, "player_1": 7}),
                                              ("margin", {"player_0": 3, "player_1": -3})])
def test_2_players_the_winner_is_decided_by_the_summed_points_of_both_colours(reward, expected):
    """Rulebook "Maka Bana for 2 Players": "At the end of the game, points for the 4 colors are counted
    separately and summed for each player" -- and [Winner] "The player with the greatest number of
    points" wins, so the win goes by the sums, not by the best single colour.  Yellow and Green
    (player_0) score 5 each, Blue (player_1) 7: player_0 wins 10 to 7 although Blue is the best colour."""
    huts = {"Azzura-Grass-Flower": YELLOW, "Coquito-Grass-Flower": GREEN,
            "Diabolo-Sand-Fish": BLUE, "Diabolo-Sand-Tattoo": BLUE}
    env = position(new_game(2, reward=reward), huts, last_season=True)
    assert env.colour_scores() == [1 + 4, 3 + 4, 1 + 4, 0]
    play_season(env)
    assert env.decision() == "over" and all(env.terminations.values())
    assert env.infos["player_0"]["scores"] == {"player_0": 10, "player_1": 7}
    assert env.rewards == expected
