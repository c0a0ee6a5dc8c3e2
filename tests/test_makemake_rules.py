"""Rules tests for Make Make.

Each test names the rulebook section it checks (``shared/rulebooks/makemake-rulebook-en.txt``);
decisions the rulebook leaves open are taken from ``shared/RULINGS.md`` and ``makemake_env/RULES.md``.
Everything is driven through the public AEC API (``makemake_env.raw_env``: ``step``, ``observe``,
``last``, ``state`` / ``set_state``); crafted positions are written in the notation (RULES.md, Notation;
``makemake_env.from_text``, directly or through ``makemake_positions.position``), which checks that
the rules can reach them, and then played with ``step``.
"""
import re

import numpy as np
import pytest

import makemake_env
from makemake_positions import (
    BLUE, GREEN, RED, act, amulet, build_moai, ceremonies, ceremony, chief_at, clan_to_act, corners,
    grounds_of, harmless_placement, hex_colour, is_moai, legal, legal_ceremonies, legal_moai,
    legal_placements, manu_at, manu_supply, mask, moai_left, neighbours, new_game, one_move_before, owner,
    place, play_harmless_turns, position, protected, running, sacred_count, stalemate_position, token_supply,
    territory, tokens, turn, withdraw,
)
from makemake_env import core
from makemake_env.board import (
    CLAN_NAMES, GROUND_INDEX, GROUND_NAMES, GROUND_TERRITORIES, MOAI_SITES, NEIGHBOURS, NUM_GROUNDS,
    NUM_TERRITORIES, SACRED, TERRITORY_AXIAL, TERRITORY_INDEX, TERRITORY_NAMES,
)

AGENTS4 = ["player_0", "player_1", "player_2", "player_3"]


def from_text(env, text):
    """Set ``env`` to a position written in the notation (RULES.md, Notation)."""
    env.set_state(makemake_env.from_text(text))
    return env


def ground_index(name):
    return GROUND_INDEX[name]


def assert_refused(env, action):
    """raw_env refuses an action the mask does not offer with ValueError, and changes nothing."""
    before = env.state()
    selection = env.agent_selection
    assert mask(env)[action] == 0, f"{env.describe_action(action)} is offered"
    with pytest.raises(ValueError, match="illegal action"):
        env.step(action)
    np.testing.assert_array_equal(before, env.state())
    assert env.agent_selection == selection


def final_rewards(env):
    return {a: env.rewards[a] for a in env.possible_agents}


# =====================================================================================================
# Components and Key Terms, Preparation of the Game
def test_preparation_of_the_game_each_clan_has_a_chief_5_tangata_manu_11_tokens_and_player_0_starts():
    """Rulebook "Preparation of the Game": each clan takes 1 chief, 5 Tangata Manu and 11 dominance
    tokens; the Moai (12) and the amulet are next to the board; every territory is neutral; player_0
    starts (RULINGS conventions) with the dominance phase."""
    for n in (2, 3, 4):
        env = new_game(n)
        s = env.state()
        for c in range(n):
            assert token_supply(env, c) == 11 and manu_supply(env, c) == 5 and chief_at(env, c) is None
        assert moai_left(env) == 12 and amulet(env) is None
        assert (s[core.OWNER:core.OWNER + NUM_TERRITORIES] == -1).all()
        assert (s[core.GROUND:core.GROUND + NUM_GROUNDS] == -1).all()
        assert env.agent_selection == "player_0" and env.decision() == "dominance"
        assert env.possible_agents == [f"player_{c}" for c in range(n)]


def test_components_board_36_territories_6_sacred_48_grounds_and_the_centre_is_no_territory():
    """Rulebook "Components" a / RULINGS board: the Ceremonial Center is surrounded by the six Sacred
    Territories and is not a territory ("No human can be placed here"): 36 territories, none at the
    centre, each Sacred territory borders the centre (a missing neighbour); 48 grounds, each a corner of
    three mutually neighbouring territories; 12 Moai sites, the territories with six neighbours."""
    assert NUM_TERRITORIES == 36 and NUM_GROUNDS == 48 and len(SACRED) == 6 and len(MOAI_SITES) == 12
    assert [0, 0] not in TERRITORY_AXIAL.tolist()
    for t in SACRED:
        q, r = TERRITORY_AXIAL[t].tolist()
        assert max(abs(q), abs(r), abs(q + r)) == 1 and TERRITORY_NAMES[t].startswith("Sacred")
        assert (NEIGHBOURS[t] < 0).sum() == 1
    assert sorted(TERRITORY_NAMES[t].split("-")[0] for t in MOAI_SITES) == ["Inner"] * 12
    for g in range(NUM_GROUNDS):
        a, b, c = GROUND_TERRITORIES[g].tolist()
        assert b in NEIGHBOURS[a] and c in NEIGHBOURS[a] and c in NEIGHBOURS[b]
    # the placement actions name only the 36 territories: nothing can ever be placed at the centre
    assert core.WITHDRAW_BASE == 22 * 36 and core.NUM_ACTIONS == 912


# =====================================================================================================
# Dominance Phase a: take control of a neutral territory
def test_dominance_a_neutral_territory_with_tokens_only():
    """Rulebook Dominance Phase a: place at least one of your available tokens on a neutral territory;
    the clan then controls it."""
    env = new_game(4)
    assert legal_placements(env, "Coast-7") == {(k, chief) for k in range(1, 12) for chief in (False, True)}
    act(env, place("Coast-7", 3))
    assert owner(env, "Coast-7") == RED and tokens(env, "Coast-7") == 3
    assert token_supply(env, RED) == 8 and chief_at(env, RED) is None
    assert clan_to_act(env) == BLUE and env.agent_selection == "player_1"


def test_dominance_a_neutral_territory_with_the_chief():
    """Rulebook Dominance Phase a: "if available, you can add the Chief to them"; once the chief is on
    the board it is no longer available (no chief placement offered)."""
    env = new_game(4)
    act(env, place("Sacred-2", 1, chief=True))
    assert owner(env, "Sacred-2") == RED and tokens(env, "Sacred-2") == 1 and chief_at(env, RED) == "Sacred-2"
    assert token_supply(env, RED) == 10
    play_harmless_turns(env, 3)
    assert clan_to_act(env) == RED
    assert all(not chief for (_, chief) in legal_placements(env, "Coast-7"))
    assert_refused(env, place("Coast-7", 1, chief=True))


def test_dominance_a_b_a_chief_alone_never_takes_a_territory():
    """Rulebook Dominance Phase a and b: "It is not possible to control a territory only with the
    clan's Chief."  Every placement action places k >= 1 tokens; a clan with its chief but no token in
    supply is offered no placement at all."""
    for a in range(core.WITHDRAW_BASE):
        k = (a % 22) // 2 + 1
        assert 1 <= k <= 11
    env = new_game(3)
    mine = [n for n in TERRITORY_NAMES if hex_colour(n) == 0][:10]
    position(env, {**{name: RED for name in mine[1:]}, mine[0]: (RED, 2)})
    assert token_supply(env, RED) == 0 and chief_at(env, RED) is None
    assert legal(env) == {withdraw(mine[0])}
    assert_refused(env, place("Sacred-1", 1, chief=True))


def test_dominance_a_placement_limited_to_tokens_in_supply():
    """Rulebook Dominance Phase a: only *available* tokens can be placed."""
    env = position(new_game(4), {"Coast-1": (RED, 4), "Coast-4": (RED, 4)})
    assert token_supply(env, RED) == 3
    assert {k for k, _ in legal_placements(env, "Coast-10")} == {1, 2, 3}
    assert_refused(env, place("Coast-10", 4))


def test_dominance_cannot_place_on_own_territory_or_on_a_moai():
    """RULINGS Dominance phase: a clan cannot place on a territory it already controls, nor on a Moai
    (rulebook "Protection of the Moai": they cannot be replaced by tokens or the chief)."""
    env = position(new_game(4), {"Coast-1": RED, "Coast-2": BLUE}, moai=["Inner-5"])
    assert legal_placements(env, "Coast-1") == set()
    assert legal_placements(env, "Inner-5") == set()
    assert legal_placements(env, "Coast-2")  # another clan's territory can be attacked
    for k in (1, 5, 11):
        for chief in (False, True):
            assert_refused(env, place("Coast-1", k, chief))
            assert_refused(env, place("Inner-5", k, chief))


# =====================================================================================================
# Dominance Phase b: take control of a territory controlled by another clan
def test_dominance_b_attack_needs_strictly_more_tokens():
    """Rulebook Dominance Phase b: "you must place a higher number of your available Dominance
    Tokens" -- an equal number is refused (by the mask and by step)."""
    env = position(new_game(4), {"Coast-7": (BLUE, 3)})
    offered = legal_placements(env, "Coast-7")
    assert {k for k, chief in offered if not chief} == set(range(4, 12))
    for k in (1, 2, 3):
        assert_refused(env, place("Coast-7", k))
    act(env, place("Coast-7", 4))
    assert owner(env, "Coast-7") == RED and tokens(env, "Coast-7") == 4


def test_dominance_b_attacking_chief_counts_as_3_tokens():
    """Rulebook Dominance Phase b: "The Clan's Chief is considered as 3 Dominance Tokens" for the
    attacker: 1 token + chief (4) beats 3 tokens; against 4 tokens, 1 token + chief (4) is refused and
    2 tokens + chief (5) is enough."""
    env = position(new_game(4), {"Coast-7": (BLUE, 3), "Coast-10": (GREEN, 4)})
    assert {k for k, chief in legal_placements(env, "Coast-7") if chief} == set(range(1, 12))
    assert {k for k, chief in legal_placements(env, "Coast-10") if chief} == set(range(2, 12))
    assert_refused(env, place("Coast-10", 1, chief=True))
    act(env, place("Coast-10", 2, chief=True))
    assert owner(env, "Coast-10") == RED and tokens(env, "Coast-10") == 2 and chief_at(env, RED) == "Coast-10"


def test_dominance_b_defending_chief_counts_as_3_tokens():
    """Rulebook Dominance Phase b: the defender's chief counts 3 too: 2 tokens + chief (strength 5)
    need 6 tokens, or 3 tokens + chief; 5 tokens and 2 tokens + chief (both 5) are refused."""
    env = position(new_game(4), {"Coast-7": (BLUE, 2)}, chiefs={BLUE: "Coast-7"})
    offered = legal_placements(env, "Coast-7")
    assert {k for k, chief in offered if not chief} == set(range(6, 12))
    assert {k for k, chief in offered if chief} == set(range(3, 12))
    assert_refused(env, place("Coast-7", 5))
    assert_refused(env, place("Coast-7", 2, chief=True))
    act(env, place("Coast-7", 3, chief=True))
    assert owner(env, "Coast-7") == RED


def test_dominance_b_defender_pieces_return_to_its_supply():
    """Rulebook Dominance Phase b: "The clan that loses control must remove all their pieces from this
    territory ... These pieces are now available for future use" -- its tokens and its chief.  "A
    territory can only contain pieces of a single clan"."""
    env = position(new_game(4), {"Coast-7": (BLUE, 2), "Coast-1": (BLUE, 3)}, chiefs={BLUE: "Coast-7"})
    assert token_supply(env, BLUE) == 6
    act(env, place("Coast-7", 6))
    assert owner(env, "Coast-7") == RED and tokens(env, "Coast-7") == 6
    assert token_supply(env, BLUE) == 8 and chief_at(env, BLUE) is None
    assert token_supply(env, RED) == 5 and chief_at(env, RED) is None
    assert owner(env, "Coast-1") == BLUE and tokens(env, "Coast-1") == 3
    # Blue can place its chief again
    assert (1, True) in legal_placements(env, "Coast-10")


def test_dominance_b_losing_a_territory_ends_exactly_the_ceremonies_it_protected():
    """Rulebook Dominance Phase b and Ceremonial Phase b: "if another clan takes control of one of
    those Territories, the ceremony abruptly ends and the Tangata Manu must be removed from the board,
    becoming available" -- only the ceremonies that territory protected; the clan's other ceremonies,
    a ceremony protected with a Moai, and other clans' ceremonies stay."""
    blue = ["Inner-1", "Coast-1", "Coast-2", "Coast-18", "Inner-2", "Coast-3"]
    green = ["Inner-9", "Coast-12", "Coast-13"]
    blue_grounds = grounds_of(*blue)
    assert blue_grounds == ["Ground-19", "Ground-20", "Ground-22", "Ground-23"]
    # Ground-24 (Inner-2, Inner-3, Coast-3) is protected for Blue with the help of a Moai on Inner-3
    manu = {g: BLUE for g in blue_grounds + ["Ground-24"]}
    manu["Ground-40"] = GREEN
    env = position(new_game(4), {**{n: BLUE for n in blue}, **{n: GREEN for n in green}}, manu=manu,
                   moai=["Inner-3"])
    assert manu_supply(env, BLUE) == 0 and corners("Coast-1") == ["Ground-19", "Ground-22"]
    act(env, place("Coast-1", 2))
    assert owner(env, "Coast-1") == RED
    assert ceremonies(env, BLUE) == {"Ground-20", "Ground-23", "Ground-24"}
    assert manu_at(env, "Ground-19") is None and manu_at(env, "Ground-22") is None
    assert manu_supply(env, BLUE) == 2 and token_supply(env, BLUE) == 11 - 5
    assert ceremonies(env, GREEN) == {"Ground-40"} and manu_supply(env, GREEN) == 4


# =====================================================================================================
# Dominance Phase c: remove political forces from a territory you control
def test_dominance_c_withdraw_leaves_exactly_one_token_and_returns_the_chief():
    """Rulebook Dominance Phase c: "remove all the pieces there are leaving just one Dominance Token";
    "The Clan's Chief cannot be left alone in that territory" -- it returns to supply."""
    env = position(new_game(4), {"Coast-7": (RED, 4)}, chiefs={RED: "Coast-7"})
    assert token_supply(env, RED) == 7
    act(env, withdraw("Coast-7"))
    assert owner(env, "Coast-7") == RED and tokens(env, "Coast-7") == 1 and chief_at(env, RED) is None
    assert token_supply(env, RED) == 10


def test_dominance_c_withdraw_one_token_and_the_chief_returns_the_chief():
    """Rulebook Dominance Phase c: one token and the chief (strength 4): the chief leaves, the token
    stays."""
    env = position(new_game(4), {"Coast-7": (RED, 1)}, chiefs={RED: "Coast-7"})
    act(env, withdraw("Coast-7"))
    assert tokens(env, "Coast-7") == 1 and owner(env, "Coast-7") == RED and chief_at(env, RED) is None
    assert token_supply(env, RED) == 10


def test_dominance_c_withdraw_not_offered_with_strength_1_nor_on_other_territories():
    """Rulebook Dominance Phase c: withdrawing from a single token would change nothing (RULINGS:
    strength > 1); one can only withdraw from a territory one controls."""
    env = position(new_game(4), {"Coast-7": (RED, 1), "Coast-10": (BLUE, 3), "Coast-1": (RED, 2)})
    assert {a - core.WITHDRAW_BASE for a in legal(env) if core.WITHDRAW_BASE <= a < core.MOAI_BASE} == \
        {TERRITORY_NAMES.index("Coast-1")}
    assert_refused(env, withdraw("Coast-7"))
    assert_refused(env, withdraw("Coast-10"))
    assert_refused(env, withdraw("Coast-4"))


# =====================================================================================================
# Dominance Phase: a clan without a legal action; stalemate (RULES.md)
def test_dominance_phase_clan_without_legal_action_passes_and_its_ceremonial_phase_still_runs():
    """Rulebook "Dominance Phase: You must do one and only one of the following actions" / RULES.md: a
    clan with no legal dominance action (all 11 tokens alone on its territories, chief in supply)
    passes without being asked, and its ceremonial phase still takes place."""
    blue = ["Inner-9", "Coast-12", "Coast-13"] + [n for n in TERRITORY_NAMES if hex_colour(n) == 0
                                                  and n not in ("Inner-8", "Inner-10", "Coast-13")][:8]
    assert len(set(blue)) == 11 and grounds_of(*blue) == ["Ground-40"]
    env = position(new_game(3), {**{n: BLUE for n in blue}, "Coast-8": (RED, 2), "Coast-17": (GREEN, 2)})
    assert token_supply(env, BLUE) == 0 and manu_supply(env, BLUE) == 5
    act(env, harmless_placement(env))
    # Blue was skipped: Green is asked, Blue's ceremonial phase placed its Tangata Manu
    assert env.agent_selection == "player_2" and clan_to_act(env) == GREEN
    assert turn(env) == 2
    assert ceremonies(env, BLUE) == {"Ground-40"} and manu_supply(env, BLUE) == 4
    assert all(tokens(env, n) == 1 and owner(env, n) == BLUE for n in blue)


@pytest.mark.parametrize("num_players", [2, 3])
def test_end_of_game_stalemate_ends_without_winner_and_rewards_0(num_players):
    """RULES.md "End of the Game" (decision): when every clan in turn has no legal dominance action and
    nothing to build or celebrate, the game ends terminated, without a winner, rewards 0."""
    env = new_game(num_players)
    spare = stalemate_position(env, num_players)
    assert token_supply(env, RED) == 1
    act(env, place(spare[0], 1))
    assert not running(env)
    assert all(env.terminations.values()) and not any(env.truncations.values())
    assert final_rewards(env) == {a: 0 for a in env.possible_agents}
    for a in env.possible_agents:
        assert env.infos[a]["winner"] is None and env.infos[a]["end"] == "stalemate"
    assert env.decision() == "over"


def test_end_of_game_stalemate_also_when_a_clan_has_free_grounds_but_no_tangata_manu_left():
    """RULES.md "End of the Game" (decision): a free protected ground is nothing to celebrate when the
    clan has no Tangata Manu in supply.  Red (all 5 Tangata Manu in ceremonies, no amulet) encloses a
    sixth ground it cannot use; Blue and Red have no dominance action: the game is a stalemate.

    A core that counted ``ceremony_count > 0`` as activity even with an empty supply never saw this
    stalemate and ran on until ``max_turns`` (truncated instead of terminated)."""
    red = ["Inner-3", "Inner-4", "Inner-5", "Sacred-2", "Sacred-3", "Coast-5", "Coast-6",
           "Coast-10", "Coast-13", "Coast-16"]
    assert grounds_of(*red) == ["Ground-6", "Ground-7", "Ground-8", "Ground-27", "Ground-28", "Ground-29"]
    blue = []
    for name in sorted(TERRITORY_NAMES, key=lambda n: (hex_colour(n) != 1, n.startswith("Sacred"))):
        if name not in red and len(blue) < 11 and not grounds_of(*blue, name):
            blue.append(name)
    assert len(blue) == 11 and sum(1 for n in blue if n.startswith("Sacred")) < 3
    env = position(new_game(2, max_turns=500), {**{n: RED for n in red}, **{n: BLUE for n in blue}},
                   manu={g: RED for g in ["Ground-6", "Ground-7", "Ground-8", "Ground-27", "Ground-28"]})
    assert token_supply(env, RED) == 1 and manu_supply(env, RED) == 0 and amulet(env) is None
    free = [n for n in TERRITORY_NAMES if owner(env, n) is None and grounds_of(*red, n) == grounds_of(*red)]
    act(env, place(free[-1], 1))
    assert not running(env)
    assert all(env.terminations.values()) and not any(env.truncations.values()), \
        f"not a stalemate: truncated after {turn(env)} turns"


# =====================================================================================================
# Spiritual Supremacy
def test_spiritual_supremacy_needs_at_least_3_sacred_territories():
    """Rulebook "Spiritual Supremacy": control at least 3 Sacred Territories (2 against 0 is not
    enough); the third one brings the amulet at once.  The rulebook's example ("In the example, green
    clan obtains Spiritual Supremacy") is a picture the text does not describe: this is its situation,
    a clan taking its third sacred territory, played by Red."""
    env = position(new_game(4), {"Sacred-1": RED})
    act(env, place("Sacred-2", 1))
    assert sacred_count(env, RED) == 2 and amulet(env) is None
    play_harmless_turns(env, 3)
    act(env, place("Sacred-3", 1))
    assert amulet(env) == RED
    obs = env.observe("player_1")["observation"]   # Blue sees Red (relative clan 3) holding it
    base = core.OBS_CLAN + 3 * core.CLAN_FEATURES
    assert obs[base + core.CF_AMULET] == 1 and obs[base + core.CF_SACRED] == 3


def test_spiritual_supremacy_needs_strictly_more_than_every_other_clan():
    """Rulebook "Spiritual Supremacy": "They exceed the number of Sacred Territories controlled by any
    other clan" -- 3 against 3 gives the amulet to nobody new: Red, who got it first, keeps it."""
    env = from_text(new_game(4), """
        game: Make Make
        players: 4
        to_act: Blue
        territories: Sacred-1 Red, Sacred-2 Red, Sacred-3 Red, Sacred-4 Blue, Sacred-5 Blue
    """)
    assert amulet(env) == RED                 # 3 against 2: the amulet's line follows from the board
    act(env, place("Sacred-6", 1))
    assert sacred_count(env, BLUE) == 3 == sacred_count(env, RED)
    assert amulet(env) == RED


def test_spiritual_supremacy_kept_when_conditions_lapse_until_another_clan_meets_them():
    """Rulebook "Spiritual Supremacy": "is not lost if the player no longer complies with some of the
    conditions ... The only way to lose it is if another clan meets both conditions".  Its example
    ("In the example, green clan does NOT lose the Spiritual Supremacy") is a picture: this is its
    situation in a position of our own."""
    env = from_text(new_game(4), """
        game: Make Make
        players: 4
        to_act: Blue
        territories: Sacred-1 Red, Sacred-2 Red, Sacred-3 Red, Sacred-4 Blue
    """)
    act(env, place("Sacred-1", 2))           # Blue takes a sacred territory from Red
    assert sacred_count(env, RED) == 2 and sacred_count(env, BLUE) == 2
    assert amulet(env) == RED                 # Red no longer meets the conditions, and keeps it
    play_harmless_turns(env, 3)               # Green, Yellow, Red
    act(env, place("Sacred-5", 1))           # Blue: 3 against Red's 2
    assert amulet(env) == BLUE


def test_spiritual_supremacy_can_pass_to_a_clan_that_is_not_acting():
    """Rulebook "Spiritual Supremacy": "If another clan later meets both conditions, it automatically
    obtains Spiritual Supremacy" (RULINGS: checked after every action of every kind) -- Blue's attack on
    Red's sacred territory hands the amulet to Green."""
    env = from_text(new_game(4), """
        game: Make Make
        players: 4
        to_act: Blue
        territories: Sacred-1 Red, Sacred-2 Red, Sacred-3 Red, Sacred-4 Green, Sacred-5 Green, Sacred-6 Green
        amulet: Red
    """)                                      # 3 against 3: who holds the amulet is history, so written
    act(env, place("Sacred-1", 2))
    assert sacred_count(env, GREEN) == 3 and sacred_count(env, RED) == 2
    assert amulet(env) == GREEN
    assert running(env)   # Green has no Tangata Manu on the board


# =====================================================================================================
# Ceremonial Phase a: building a Moai
MOAI_T = "Inner-4"          # neighbours: Inner-3, Coast-5, Coast-6, Inner-5, Sacred-3, Sacred-2
FAR = ["Inner-9", "Coast-12", "Coast-13"]          # Ground-40, away from Inner-4


def moai_position(env, missing=None):
    """Red controls Inner-4 (2 tokens and its chief) and five of its six neighbours; placing one token
    on Sacred-2 completes the ring.  Red's Tangata Manu celebrate on Ground-8, 27, 28, 29 (corners of
    Inner-4) and Ground-40 (far away): none in supply.  ``missing`` takes one condition away."""
    assert sorted(neighbours(MOAI_T)) == sorted(["Inner-3", "Coast-5", "Coast-6", "Inner-5", "Sacred-3",
                                                "Sacred-2"])
    terr = {MOAI_T: (RED, 2), "Inner-3": RED, "Coast-5": RED, "Coast-6": RED, "Inner-5": RED,
            "Sacred-3": RED, **{n: RED for n in FAR}}
    chiefs = {RED: MOAI_T}
    manu = {"Ground-8": RED, "Ground-27": RED, "Ground-28": RED, "Ground-29": RED, "Ground-40": RED}
    moai = []
    if missing == "neighbour":                  # Coast-6 is Blue's
        terr["Coast-6"] = BLUE
        del manu["Ground-28"], manu["Ground-29"]
    elif missing == "chief":                    # the chief stands far away, on Coast-13
        terr[MOAI_T] = RED
        terr["Coast-13"] = (RED, 2)
        chiefs = {RED: "Coast-13"}
    elif missing == "chief_in_supply":
        chiefs = {}
    elif missing == "manu":                     # Red's only ceremony is Ground-40
        manu = {"Ground-40": RED}
    position(env, terr, chiefs=chiefs, manu=manu, moai=moai)
    return env


def test_ceremonial_phase_a_moai_built_when_every_condition_holds():
    """Rulebook Ceremonial Phase a: a territory of the clan completely surrounded by its territories,
    its chief on it or a neighbour and one of its Tangata Manu at a corner of it or a neighbour: the
    Moai must be built (here the only site: built without asking).  All the pieces on it (the chief
    too) return to supply; the Moai stays for the rest of the game."""
    env = moai_position(new_game(4))
    assert token_supply(env, RED) == 1 and manu_supply(env, RED) == 0
    act(env, place("Sacred-2", 1))
    assert is_moai(env, MOAI_T) and moai_left(env) == 11
    assert owner(env, MOAI_T) is None and tokens(env, MOAI_T) == 0
    assert chief_at(env, RED) is None and token_supply(env, RED) == 2
    assert clan_to_act(env) == BLUE and env.decision() == "dominance"   # no choice was asked
    # the ceremonies around it stay: the Moai protects them for Red
    assert {"Ground-8", "Ground-27", "Ground-28", "Ground-29"} <= ceremonies(env, RED)
    obs = env.observe("player_1")["observation"]
    assert obs[core.OBS_MOAI + TERRITORY_NAMES.index(MOAI_T)] == 1 and obs[core.OBS_MOAI_LEFT] == 11
    # nobody can ever place on the Moai
    assert legal_placements(env, MOAI_T) == set()


@pytest.mark.parametrize("missing", ["neighbour", "chief", "chief_in_supply", "manu"])
def test_ceremonial_phase_a_no_moai_when_a_condition_is_missing(missing):
    """Rulebook Ceremonial Phase a: every condition is needed -- every neighbour the clan's, the chief
    on the territory or a neighbour, a Tangata Manu at a corner of the territory or of a neighbour."""
    env = moai_position(new_game(4), missing)
    act(env, place("Sacred-2", 1))
    assert not is_moai(env, MOAI_T) and moai_left(env) == 12
    assert owner(env, MOAI_T) == RED


def test_ceremonial_phase_a_no_moai_when_none_is_left():
    """Rulebook Ceremonial Phase a: "This action is obligatory as long as there are Moai available".
    With 12 sites for 12 Moai a clan can never own a site once all are built, so the condition is
    checked here on an artificial position: the core's count of Moai left is set to 0.  No game
    reaches that row (the validator refuses it), so it is played on the kernels directly."""
    k = makemake_env.kernels
    s = moai_position(new_game(4)).state()
    s[k.MOAI_LEFT] = 0
    assert k.step(s, place("Sacred-2", 1)) == k.STEP_OK
    t = territory(MOAI_T)
    assert not s[k.MOAI + t] and s[k.OWNER + t] == RED and s[k.MOAI_LEFT] == 0


def test_ceremonial_phase_a_a_tangata_manu_at_any_corner_of_the_territory_or_a_neighbour_will_do():
    """Rulebook Ceremonial Phase a: "at least one Tangata Manu is in any of these territories or
    Ceremonial Grounds" (RULINGS: a ground at a corner of T or of one of its neighbours).  For every
    Moai site T and every such ground G: Red surrounds T, its chief on T, its only ceremony on G;
    taking the last neighbour of T builds the Moai.  With its only ceremony on any other ground, no
    Moai.

    Guards ``NEAR_GROUND_BITS``: its grounds come from a list in which grounds shared by T and a
    neighbour appear several times, so adding ``1 << g`` instead of or-ing it gave a wrong set (most
    near grounds, e.g. Ground-27 for Inner-4, did not enable the Moai and some far ones, e.g.
    Ground-33, did)."""
    failures = []
    for t in MOAI_SITES:
        site = TERRITORY_NAMES[t]
        near = sorted({g for name in [site] + neighbours(site) for g in corners(name)}, key=ground_index)
        for g in near:
            ring = set(neighbours(site))
            needed = set(TERRITORY_NAMES[u] for u in GROUND_TERRITORIES[ground_index(g)])
            trigger = sorted(ring - needed)[0]
            terr = {name: RED for name in (ring | needed | {site}) - {trigger}}
            env = position(new_game(4), terr, chiefs={RED: site}, manu={g: RED})
            act(env, place(trigger, 1))
            if not (is_moai(env, site) or (env.decision() == "Moai" and site in legal_moai(env))):
                failures.append(f"no Moai on {site} with a Tangata Manu on {g}")
        # a Tangata Manu anywhere else does not enable the Moai
        ring = set(neighbours(site))
        trigger = sorted(ring)[0]
        for g in GROUND_NAMES:
            if g in near:
                continue
            needed = set(TERRITORY_NAMES[u] for u in GROUND_TERRITORIES[ground_index(g)])
            assert not needed & (ring | {site})
            terr = {name: RED for name in (ring | needed | {site}) - {trigger}}
            env = position(new_game(4), terr, chiefs={RED: site}, manu={g: RED})
            act(env, place(trigger, 1))
            if is_moai(env, site) or site in legal_moai(env):
                failures.append(f"a Moai on {site} with a Tangata Manu on {g}, far from it")
    assert not failures, f"{len(failures)} wrong cases: {failures}"


def test_ceremonial_phase_a_a_neighbouring_moai_counts_as_the_clans_territory():
    """Rulebook "Protection of the Moai": a Moai counts as a territory of every clan "for the building
    of other Moai".  Inner-3 stands next to a Moai on Inner-4 and is surrounded otherwise by Red."""
    terr = {"Inner-3": RED, "Coast-3": RED, "Coast-4": RED, "Coast-5": RED, "Inner-2": RED}
    env = position(new_game(4), terr, chiefs={RED: "Inner-3"}, manu={"Ground-25": RED}, moai=["Inner-4"])
    act(env, place("Sacred-2", 1))
    assert is_moai(env, "Inner-3") and moai_left(env) == 10 and chief_at(env, RED) is None


def two_moai_sites(env):
    """Inner-3 and Inner-4 both qualify once Red takes Sacred-2 (a neighbour of both): Red's chief is
    on Inner-3, its Tangata Manu on Ground-27 (a corner of both) and four more grounds."""
    terr = {"Inner-3": (RED, 2), "Inner-4": RED, "Coast-3": RED, "Coast-4": RED, "Coast-5": RED,
            "Inner-2": RED, "Coast-6": RED, "Inner-5": RED, "Sacred-3": RED}
    manu = {g: RED for g in ["Ground-27", "Ground-24", "Ground-25", "Ground-26", "Ground-28"]}
    return position(env, terr, chiefs={RED: "Inner-3"}, manu=manu)


def test_ceremonial_phase_a_several_moai_the_clan_chooses_building_the_chiefs_site_first():
    """Rulebook Ceremonial Phase a: "several Moai can be built simultaneously. You must build them in
    the order you wish" -- the clan is asked (phase Moai), the mask offers exactly the qualifying
    sites, and the others are checked again after each build: building on the chief's territory
    returns the chief to supply, so the second site no longer qualifies."""
    env = two_moai_sites(new_game(4))
    act(env, place("Sacred-2", 1))
    assert env.decision() == "Moai" and env.agent_selection == "player_0"
    assert legal_moai(env) == {"Inner-3", "Inner-4"}
    assert legal(env) == {build_moai("Inner-3"), build_moai("Inner-4")}
    assert env.observe("player_0")["observation"][core.OBS_PHASE + core.PHASE_MOAI] == 1
    assert_refused(env, build_moai("Inner-5"))
    assert_refused(env, place("Coast-10", 1))
    act(env, build_moai("Inner-3"))
    assert is_moai(env, "Inner-3") and not is_moai(env, "Inner-4") and moai_left(env) == 11
    assert chief_at(env, RED) is None and owner(env, "Inner-4") == RED
    assert clan_to_act(env) == BLUE and env.decision() == "dominance"


def test_ceremonial_phase_a_several_moai_the_others_are_rechecked_and_built():
    """Rulebook Ceremonial Phase a: building Inner-4 first keeps the chief on Inner-3, whose
    neighbours are now Red's or a Moai: the second Moai follows without asking."""
    env = two_moai_sites(new_game(4))
    act(env, place("Sacred-2", 1))
    act(env, build_moai("Inner-4"))
    assert is_moai(env, "Inner-4") and is_moai(env, "Inner-3") and moai_left(env) == 10
    assert chief_at(env, RED) is None and token_supply(env, RED) == 11 - 8
    assert clan_to_act(env) == BLUE and env.decision() == "dominance"


def test_ceremonial_phase_order_moai_before_ceremonies_without_a_choice():
    """Rulebook Ceremonial Phase: "You must perform these two actions in the following order: a.
    Building a Moai b. Tangata Manu Ceremonies" -- a Moai is checked before the ceremonies; Red's
    Tangata Manu are not near Inner-4 when the phase starts, so no Moai is built, and then the
    ceremonies begin (more free grounds than Tangata Manu: Red is asked)."""
    env = moai_position(new_game(4), "manu")
    assert manu_supply(env, RED) == 4
    act(env, place("Sacred-2", 1))
    assert not is_moai(env, MOAI_T)
    assert env.decision() == "ceremony" and legal_ceremonies(env) == set(corners(MOAI_T))


def test_ceremonial_phase_order_no_moai_after_a_chosen_ceremony():
    """Rulebook Ceremonial Phase ("in the following order: a. Building a Moai, b. Tangata Manu
    Ceremonies"; Quick Instructions: "Build all the Moai and then start all the Ceremonies possible")
    and RULES.md ("Moai first, then ceremonies"): once the ceremonies have begun, a Moai made possible
    by a new ceremony waits for the clan's next ceremonial phase.  When every ceremony is placed
    without asking the core never returns to the Moai; it must not either when the clan chooses.

    A core that ran the whole ceremonial phase again from the Moai after a chosen ceremony built the
    Moai on Inner-4 in the middle of the ceremonies."""
    env = moai_position(new_game(4), "manu")
    act(env, place("Sacred-2", 1))
    assert env.decision() == "ceremony"
    act(env, ceremony("Ground-28"))        # a corner of Inner-4: the Moai's last missing condition
    assert not is_moai(env, MOAI_T), "a Moai was built after the ceremonies had begun"
    assert env.decision() == "ceremony" and legal_ceremonies(env) == set(corners(MOAI_T)) - {"Ground-28"}


def test_protection_of_the_moai_counts_for_every_clan_three_clans_around_one_moai():
    """Rulebook "Protection of the Moai": "The Territory that now has a Moai is considered as a
    Territory controlled by all the clans ... up to 3 different clans use the same Moai to protect
    different Ceremonial Grounds"."""
    env = position(new_game(4), {"Inner-3": RED, "Inner-5": BLUE, "Coast-5": GREEN}, moai=["Inner-4"])
    act(env, place("Sacred-2", 1))     # Red: Ground-6 = Sacred-2, Inner-3, Inner-4 (Moai)
    act(env, place("Sacred-3", 1))     # Blue: Ground-8 = Sacred-3, Inner-4 (Moai), Inner-5
    act(env, place("Coast-6", 1))      # Green: Ground-28 = Inner-4 (Moai), Coast-5, Coast-6
    assert manu_at(env, "Ground-6") == RED and manu_at(env, "Ground-8") == BLUE
    assert manu_at(env, "Ground-28") == GREEN
    assert set(corners("Inner-4")) >= {"Ground-6", "Ground-8", "Ground-28"}
    assert ceremonies(env, RED) == {"Ground-6"} and ceremonies(env, BLUE) == {"Ground-8"}
    assert ceremonies(env, GREEN) == {"Ground-28"}


def test_protection_of_the_moai_a_ceremony_around_moai_is_not_ended_by_attacks_nearby():
    """Rulebook "Protection of the Moai": Moai "are permanent on the board and cannot be destroyed or
    replaced"; a ceremony protected by two Moai and one of its clan's territories ends only when that
    territory is lost, never through the Moai.  Blue's attacks on Green's other territories leave it."""
    env = position(new_game(4), {"Sacred-2": GREEN, "Coast-5": GREEN, "Coast-4": GREEN},
                   manu={"Ground-6": GREEN, "Ground-27": GREEN}, moai=["Inner-3", "Inner-4"], to_act=BLUE)
    assert protected(env, "Ground-6", GREEN)   # Sacred-2, Inner-3 (Moai), Inner-4 (Moai)
    act(env, place("Coast-5", 2))            # Ground-27 (Inner-3, Inner-4, Coast-5) ends
    assert ceremonies(env, GREEN) == {"Ground-6"}
    assert legal_placements(env, "Inner-3") == set() and legal_placements(env, "Inner-4") == set()


def test_protection_of_the_moai_tangata_manu_surrounded_by_moai_stays_for_ever():
    """Rulebook "Protection of the Moai" (printed beside "End of the Game"): "If a Tangata Manu in a
    ceremony is completely surrounded by Moai, this ceremony cannot be interrupted".  On RULINGS's
    board no ground has three Moai sites (Moai stand only on the second ring), so no game can reach
    the position and ``set_state`` refuses it: it is written straight into a kernel row and played on
    the kernels.  Moai on Sacred-1, Inner-1 and Inner-2 around Ground-1, a Blue ceremony there; Red
    takes every Blue territory around the three Moai, Blue answers far away on the coast."""
    assert not any(all(t in MOAI_SITES for t in GROUND_TERRITORIES[g]) for g in range(NUM_GROUNDS))
    k = makemake_env.kernels
    s = np.zeros(k.STATE_SIZE, np.int64)
    k.init(s, 2, k.VARIANT_STANDARD, 100, 0)
    for name in ("Sacred-1", "Inner-1", "Inner-2"):
        s[k.MOAI + TERRITORY_INDEX[name]] = 1
    s[k.MOAI_LEFT] -= 3
    for name in ("Inner-12", "Coast-2", "Sacred-2"):
        s[k.OWNER + TERRITORY_INDEX[name]], s[k.TOKENS + TERRITORY_INDEX[name]] = BLUE, 1
    s[k.TOKEN_SUPPLY + BLUE] -= 3
    s[k.GROUND + GROUND_INDEX["Ground-1"]] = BLUE
    s[k.MANU_SUPPLY + BLUE] -= 1
    assert k.validate(s)[1] == k.MOAI + TERRITORY_INDEX["Sacred-1"]   # unreachable: refused by set_state
    for attacked, answer in (("Inner-12", "Coast-10"), ("Coast-2", "Coast-11"), ("Sacred-2", "Coast-12")):
        assert k.step(s, place(attacked, 2)) == k.STEP_OK          # Red takes a territory around it
        assert s[k.GROUND + GROUND_INDEX["Ground-1"]] == BLUE
        assert k.step(s, place(answer, 1)) == k.STEP_OK            # Blue, far away
    assert all(s[k.OWNER + TERRITORY_INDEX[name]] == RED for name in ("Inner-12", "Coast-2", "Sacred-2"))
    assert s[k.GROUND + GROUND_INDEX["Ground-1"]] == BLUE and s[k.MANU_SUPPLY + BLUE] == 4


# =====================================================================================================
# Ceremonial Phase b: Tangata Manu ceremonies
CEREMONY_TERRITORIES = ["Coast-1", "Coast-2", "Coast-18", "Inner-2"]   # + Inner-1: Ground-19, 20, 22


def test_ceremonial_phase_b_ceremonies_start_on_every_eligible_ground():
    """Rulebook Ceremonial Phase b: "When you control the three territories that surround a Ceremonial
    Ground, you must place one of your available Tangata Manu there" -- on every such ground at once
    when there are enough (nothing is asked)."""
    env = position(new_game(4), {n: RED for n in CEREMONY_TERRITORIES})
    act(env, place("Inner-1", 1))
    assert ceremonies(env, RED) == {"Ground-19", "Ground-20", "Ground-22"}
    assert manu_supply(env, RED) == 2
    assert clan_to_act(env) == BLUE and env.decision() == "dominance"
    obs = env.observe("player_1")["observation"]    # Red is relative clan 3 for Blue
    assert obs[core.OBS_MANU + 3 * NUM_GROUNDS + GROUND_NAMES.index("Ground-19")] == 1


def test_ceremonial_phase_b_short_of_tangata_manu_the_clan_chooses_one_at_a_time():
    """Rulebook Ceremonial Phase b: "It can happen that several Tangata Manu can be placed
    simultaneously. You must place them in the order you wish" -- with fewer Tangata Manu than grounds
    the clan is asked ground by ground; the mask offers exactly the eligible free grounds."""
    far = ["Inner-8", "Inner-9", "Coast-12", "Coast-13", "Coast-14"]
    assert grounds_of(*far) == ["Ground-39", "Ground-40", "Ground-41"]
    env = position(new_game(4), {**{n: RED for n in CEREMONY_TERRITORIES + far}},
                   manu={"Ground-39": RED, "Ground-40": RED, "Ground-41": RED})
    assert manu_supply(env, RED) == 2
    act(env, place("Inner-1", 1))
    assert env.decision() == "ceremony" and env.agent_selection == "player_0"
    assert legal_ceremonies(env) == {"Ground-19", "Ground-20", "Ground-22"}
    assert legal(env) == {ceremony(g) for g in ("Ground-19", "Ground-20", "Ground-22")}
    assert_refused(env, ceremony("Ground-1"))
    assert_refused(env, ceremony("Ground-40"))       # occupied
    act(env, ceremony("Ground-20"))
    assert env.decision() == "ceremony" and legal_ceremonies(env) == {"Ground-19", "Ground-22"}
    act(env, ceremony("Ground-22"))
    assert manu_supply(env, RED) == 0 and manu_at(env, "Ground-19") is None
    assert ceremonies(env, RED) == {"Ground-20", "Ground-22", "Ground-39", "Ground-40", "Ground-41"}
    assert clan_to_act(env) == BLUE and env.decision() == "dominance"


def test_ceremonial_phase_b_a_ceremony_never_moves():
    """Rulebook Ceremonial Phase b: "You cannot change the location of a ceremony that has already
    begun" -- Red, all five Tangata Manu in ceremonies, encloses a new ground (Ground-20): its
    ceremonies stay where they are, nothing is placed and nothing is asked."""
    far = ["Inner-8", "Inner-9", "Coast-12", "Coast-13", "Coast-14"]
    manu = {"Ground-39": RED, "Ground-40": RED, "Ground-41": RED, "Ground-19": RED, "Ground-22": RED}
    env = position(new_game(4), {n: RED for n in ["Coast-1", "Coast-2", "Coast-18", "Inner-1"] + far},
                   manu=manu)
    before = ceremonies(env, RED)
    act(env, place("Inner-2", 1))
    assert protected(env, "Ground-20", RED) and manu_at(env, "Ground-20") is None
    assert ceremonies(env, RED) == before and manu_supply(env, RED) == 0
    assert clan_to_act(env) == BLUE and env.decision() == "dominance"
    play_harmless_turns(env, 3)
    assert ceremonies(env, RED) == before
    assert not any(a >= core.CEREMONY_BASE for a in legal(env))


def test_ceremonial_phase_b_only_the_clan_whose_turn_it_is():
    """Rulebook "Game Play": each turn's ceremonial phase is the acting clan's (RULES.md: "only the clan
    whose turn it is") -- a ground Blue could celebrate stays free during Red's turn and is taken in
    Blue's own ceremonial phase."""
    env = position(new_game(4), {"Inner-1": BLUE, "Coast-1": BLUE, "Coast-2": BLUE})
    assert protected(env, "Ground-19", BLUE)
    act(env, harmless_placement(env, avoid=["Inner-1"]))
    assert manu_at(env, "Ground-19") is None and clan_to_act(env) == BLUE
    act(env, harmless_placement(env, avoid=["Inner-1"]))
    assert manu_at(env, "Ground-19") == BLUE


# =====================================================================================================
# End of the Game
def amulet_race(env, green_manu=True, reward=None):
    """Red holds the amulet with Sacred-1..3 and a ceremony on Ground-7; Green matches it with
    Sacred-4..6 and, with ``green_manu``, all five Tangata Manu in ceremonies; Blue is to act."""
    green = ["Sacred-4", "Sacred-5", "Sacred-6", "Inner-8", "Inner-9", "Inner-10", "Inner-11"]
    green_grounds = grounds_of(*green)
    assert green_grounds == ["Ground-13", "Ground-14", "Ground-15", "Ground-16", "Ground-17"]
    manu = {"Ground-7": RED}
    if green_manu:
        manu.update({g: GREEN for g in green_grounds})
    terr = {"Sacred-1": RED, "Sacred-2": RED, "Sacred-3": RED, "Inner-4": RED, **{n: GREEN for n in green}}
    return position(env, terr, manu=manu, amulet=RED, to_act=BLUE)


def test_end_of_game_five_tangata_manu_without_the_amulet_do_not_win():
    """Rulebook "End of the Game": the 5 Tangata Manu in ceremonies *and* the amulet are needed."""
    env = amulet_race(new_game(4))
    assert manu_supply(env, GREEN) == 0 and amulet(env) == RED
    play_harmless_turns(env, 4)
    assert running(env) and not any(env.terminations.values())


def test_end_of_game_win_on_another_clans_action():
    """Rulebook "End of the Game" / RULES.md: the victory is checked after every action -- Blue's
    attack on Red's Sacred-1 hands the amulet to Green, who has all 5 Tangata Manu on the board:
    Green wins at once (+1, the others -1, infos name the winner)."""
    env = amulet_race(new_game(4))
    act(env, place("Sacred-1", 2))
    assert amulet(env) == GREEN and not running(env)
    assert all(env.terminations.values()) and not any(env.truncations.values())
    assert final_rewards(env) == {"player_0": -1, "player_1": -1, "player_2": 1, "player_3": -1}
    for agent in AGENTS4:
        assert env.infos[agent]["winner"] == "player_2" and env.infos[agent]["end"] == "win"
        assert env.infos[agent]["scores"] == {"player_0": 1, "player_1": 0, "player_2": 6, "player_3": 0}
    _, reward, term, trunc, info = env.last()
    assert term and not trunc and info["winner"] == "player_2"


def test_end_of_game_amulet_and_five_tangata_manu_win_at_once():
    """Rulebook "End of the Game": the amulet holder with 4 Tangata Manu keeps playing; its fifth
    ceremony ends the game at once with its victory.  "In the image, the red clan wins the game": the
    picture's position is not described in the text; here Red wins the same way."""
    red = ["Sacred-1", "Sacred-2", "Sacred-3", "Inner-2", "Inner-3", "Inner-4"]
    assert grounds_of(*red) == ["Ground-2", "Ground-5", "Ground-6", "Ground-7"]
    env = position(new_game(3), {n: RED for n in red}, manu={g: RED for g in grounds_of(*red)},
                   amulet=RED)
    act(env, harmless_placement(env, avoid=red))
    assert running(env)                      # the amulet without 5 Tangata Manu does not win
    play_harmless_turns(env, 2)
    act(env, place("Inner-1", 1))            # Ground-1 = Sacred-1, Inner-1, Inner-2
    assert manu_at(env, "Ground-1") == RED and manu_supply(env, RED) == 0
    assert not running(env) and all(env.terminations.values())
    assert final_rewards(env) == {"player_0": 1, "player_1": -1, "player_2": -1}
    assert env.infos["player_1"]["winner"] == "player_0"


def test_end_of_game_obtaining_the_amulet_with_five_tangata_manu_wins():
    """Rulebook "End of the Game" and "Spiritual Supremacy": a clan with its 5 Tangata Manu on the board
    wins at the moment it obtains the amulet (here by taking its third sacred territory)."""
    green = ["Sacred-5", "Sacred-6", "Inner-8", "Inner-9", "Inner-10", "Inner-11", "Inner-12"]
    assert grounds_of(*green) == ["Ground-14", "Ground-15", "Ground-16", "Ground-17", "Ground-18"]
    env = position(new_game(4), {"Sacred-1": RED, "Sacred-2": RED, **{n: GREEN for n in green}},
                   manu={g: GREEN for g in grounds_of(*green)}, to_act=GREEN)
    assert amulet(env) is None and manu_supply(env, GREEN) == 0
    act(env, place("Sacred-4", 1))
    assert amulet(env) == GREEN and not running(env)
    assert final_rewards(env) == {"player_0": -1, "player_1": -1, "player_2": 1, "player_3": -1}
    assert env.infos["player_0"]["winner"] == "player_2"


def test_end_of_game_truncated_after_max_turns_with_rewards_0():
    """RULINGS conventions: a game that could run forever is truncated by ``max_turns`` (clan turns);
    rewards 0, no winner."""
    env = new_game(4, max_turns=5)
    for i in range(5):
        assert running(env) and turn(env) == i
        act(env, harmless_placement(env))
    assert not running(env) and turn(env) == 5
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert final_rewards(env) == {a: 0 for a in AGENTS4}
    for agent in AGENTS4:
        assert env.infos[agent]["winner"] is None and env.infos[agent]["end"] == "truncated"
    assert env.decision() == "over"


@pytest.mark.parametrize("wrapped", [False, True], ids=["raw_env", "env"])
@pytest.mark.parametrize("end", ["win", "stalemate", "truncated"])
def test_end_of_game_infos_say_how_the_game_ended(end, wrapped):
    """Every finished game tells every agent how it ended, in raw_env and through ``env()``'s wrappers
    (``last()`` included): Make Make ends in a win, a stalemate or a truncation, never by scoring
    ("rules") nor by a "settled" end.  Running, nobody's infos carry an end."""
    env = (makemake_env.env if wrapped else makemake_env.raw_env)(num_players=3, max_turns=50)
    env.reset(seed=1)
    move = one_move_before(end, env.unwrapped)
    assert all("end" not in env.infos[a] for a in env.possible_agents)
    env.step(move)
    assert all(env.terminations.values()) == (end != "truncated")
    assert all(env.truncations.values()) == (end == "truncated")
    for agent in env.possible_agents:
        assert env.infos[agent]["end"] == end
    assert env.last()[-1]["end"] == end
    # a finished game restored with set_state tells the same
    copy = makemake_env.raw_env(num_players=3, max_turns=50)
    copy.set_state(env.unwrapped.state())
    assert {a: copy.infos[a]["end"] for a in copy.possible_agents} == {a: end for a in copy.possible_agents}


@pytest.mark.parametrize("reward", ["score", "margin"])
def test_end_of_game_truncation_gives_0_in_every_reward_mode(reward):
    """RULES.md rewards / env docstring: truncation after ``max_turns`` gives 0 in every reward mode."""
    env = new_game(3, max_turns=2, reward=reward)
    act(env, place("Coast-1", 1))
    act(env, place("Coast-4", 1))
    assert all(env.truncations.values())
    assert final_rewards(env) == {a: 0 for a in env.possible_agents}


@pytest.mark.parametrize("reward,expected", [
    ("score", {"player_0": 1, "player_1": 0, "player_2": 6, "player_3": 0}),
    ("margin", {"player_0": -5, "player_1": -6, "player_2": 5, "player_3": -6}),
])
def test_rewards_score_and_margin(reward, expected):
    """RULES.md rewards: ``score`` = Tangata Manu in ceremonies + 1 for the amulet (the winner has 6);
    ``margin`` = score minus the best other clan's score."""
    env = amulet_race(new_game(4, reward=reward))
    assert env.scores() == {"player_0": 2, "player_1": 0, "player_2": 5, "player_3": 0}
    act(env, place("Sacred-1", 2))
    assert final_rewards(env) == expected
    assert env.scores() == {"player_0": 1, "player_1": 0, "player_2": 6, "player_3": 0}


@pytest.mark.parametrize("reward", ["score", "margin"])
def test_rewards_of_a_stalemate_in_score_modes(reward):
    """RULES.md rewards: a stalemate has no winner; ``score``/``margin`` still give the scores."""
    env = new_game(3, reward=reward)
    spare = stalemate_position(env, 3)
    act(env, place(spare[0], 1))
    assert all(env.terminations.values())
    scores = env.scores()
    assert scores == {a: 0 for a in env.possible_agents}
    assert final_rewards(env) == {a: 0 for a in env.possible_agents}


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_the_mask_offers_exactly_the_legal_actions_of_dominance_and_the_ceremonial_phase(num_players):
    """Dominance Phase a, b, c and Ceremonial Phase a, b: at every decision of random games the mask
    (written from tables of each territory's placements, eight cells at a time) offers exactly the
    actions that ``is_legal`` (the rules checked one by one) accepts."""
    from makemake_env import kernels

    rng = np.random.default_rng(num_players)
    state = np.zeros(kernels.STATE_SIZE, np.int64)
    kernels.init(state, num_players, 0, 1000, num_players)
    mask = np.zeros(kernels.NUM_ACTIONS, np.int8)
    legal = np.zeros(kernels.NUM_ACTIONS, np.int8)
    phases = set()
    for _ in range(1500):
        kernels.legal_action_mask(state, mask)
        for a in range(kernels.NUM_ACTIONS):
            legal[a] = kernels.is_legal(state, a)
        assert np.array_equal(mask, legal)
        phases.add(int(state[kernels.PHASE]))
        kernels.step(state, kernels.random_action(state))
        if state[kernels.STATUS] != kernels.STATUS_RUNNING:
            kernels.init(state, num_players, 0, 1000, int(rng.integers(1 << 30)))
    assert kernels.PHASE_DOMINANCE in phases


# =====================================================================================================
# Random games shared by the tests below
def random_steps(num_players, seed, steps, max_turns=1000):
    """``steps`` random decisions of games of ``num_players`` clans (a finished game is followed by a
    new one).  Four times in five a clan places 1 … 3 tokens next to its own territories or a Moai (at
    first on a Moai site), so that ceremonies, attacks, Moai, choices, passes and wins all happen;
    otherwise any offered action.  Yields ``(before, action, env)`` after every step, ``before`` being
    the row before it."""
    rng = np.random.default_rng(seed)
    env = new_game(num_players, seed=seed, max_turns=max_turns)
    for _ in range(steps):
        if not running(env):
            env = new_game(num_players, seed=int(rng.integers(1 << 30)), max_turns=max_turns)
        before = env.state()
        offered = np.flatnonzero(mask(env))
        clan = clan_to_act(env)
        mine = {t for t in range(NUM_TERRITORIES) if before[core.OWNER + t] == clan or before[core.MOAI + t]}
        near = {int(u) for t in mine for u in NEIGHBOURS[t] if u >= 0} - mine
        if not mine:
            near = set(MOAI_SITES.tolist())
        good = [a for a in offered if a < core.WITHDRAW_BASE and a // 22 in near and a % 22 < 6]
        action = int(rng.choice(good if good and rng.random() < 0.8 else offered))
        env.step(action)
        yield before, action, env


def territory_entries(state, t):
    """What stands on territory ``t``: owner, tokens, Moai and which clans' chiefs."""
    return (int(state[core.OWNER + t]), int(state[core.TOKENS + t]), int(state[core.MOAI + t]),
            tuple(int(state[core.CHIEF_AT + c]) == t for c in range(4)))


SACRED_NAMES = [TERRITORY_NAMES[t] for t in SACRED]


def supremacy_qualifier(state):
    """The clan meeting both conditions of Spiritual Supremacy (at least 3 Sacred Territories and more
    than any other clan), or None -- computed here from the board, independently of the library."""
    n = int(state[core.NUM_PLAYERS])
    counts = [sum(1 for t in SACRED if state[core.OWNER + t] == c) for c in range(n)]
    best = max(counts)
    if best >= 3 and counts.count(best) == 1:
        return counts.index(best)
    return None


# =====================================================================================================
# Preparation of the Game: "The next turn will be taken by the player to their left"
@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_preparation_of_the_game_the_next_turn_is_taken_by_the_player_to_the_left(num_players):
    """Rulebook "Preparation of the Game": "The next turn will be taken by the player to their left"
    (Quick Instructions: "Turns continue to their left"); RULINGS conventions: clockwise is increasing
    seat index, wrapping around, and player_0 starts.  Three full rounds of 2, 3 and 4 clans: the clan
    asked is player_0, player_1, ..., player_{n-1}, player_0, ...; every turn counts one clan turn."""
    env = new_game(num_players)
    asked = []
    for i in range(3 * num_players):
        assert turn(env) == i
        asked.append(env.agent_selection)
        act(env, harmless_placement(env))
    assert asked == [f"player_{i % num_players}" for i in range(3 * num_players)]


@pytest.mark.parametrize("num_players,passer", [(n, p) for n in (2, 3, 4) for p in range(n)])
def test_preparation_of_the_game_the_turn_goes_on_to_the_left_past_a_clan_that_passes(num_players, passer):
    """Rulebook "Preparation of the Game" ("The next turn will be taken by the player to their left")
    with RULES.md's pass: a clan with no legal dominance action (its 11 tokens alone on territories, its
    chief in supply) passes, and the turn goes on to *its* left -- the seat after it, wrapping around
    -- never back and never skipping anybody else.  Its pass counts as its turn and is recorded."""
    mine = [n for n in TERRITORY_NAMES if hex_colour(n) == 0][:11]   # one colour: no ground, no sacred
    assert len(mine) == 11 and not grounds_of(*mine) and not any(n.startswith("Sacred") for n in mine)
    first = (passer + 1) % num_players
    env = position(new_game(num_players), {n: passer for n in mine}, to_act=first)
    assert token_supply(env, passer) == 0 and chief_at(env, passer) is None
    others = [(first + i) % num_players for i in range(num_players - 1)]   # clockwise, without the passer
    asked = []
    for i in range(3 * (num_players - 1)):
        clan = clan_to_act(env)
        asked.append(env.agent_selection)
        before = turn(env)
        act(env, harmless_placement(env))
        # one turn for the clan that acted, one more when the clan to its left passed
        assert turn(env) == before + (2 if (clan + 1) % num_players == passer else 1)
    assert asked == [f"player_{others[i % len(others)]}" for i in range(3 * (num_players - 1))]
    assert makemake_env.last_actions(env.state())[passer].passed
    assert all(tokens(env, n) == 1 and owner(env, n) == passer for n in mine)


# =====================================================================================================
# Components and Key Terms: 20 Tangata Manu, 4 Clan Chiefs, 44 Dominance Tokens
def test_components_20_tangata_manu_4_chiefs_44_tokens_for_at_most_4_clans():
    """Rulebook "Components and Key Terms" (d. 20 Tangata Manu, e. 4 Clan Chiefs, f. 44 Dominance
    Tokens) and "Preparation of the Game" (each clan takes 1 Chief, 5 Tangata Manu, 11 Dominance
    Tokens): a new game of n clans hands out exactly n chiefs, 5 n Tangata Manu and 11 n tokens (20, 4
    and 44 with 4 clans), nothing to the seats of clans not in the game, and 12 Moai.  The box holds the
    pieces of 4 clans: a 5-clan game is refused with a clear error, by ``raw_env``, ``env()`` and the
    notation."""
    for n in (2, 3, 4):
        env = new_game(n)
        assert sum(token_supply(env, c) for c in range(n)) == 11 * n
        assert sum(manu_supply(env, c) for c in range(n)) == 5 * n
        assert sum(chief_at(env, c) is None for c in range(n)) == n
        assert all(token_supply(env, c) == 11 and manu_supply(env, c) == 5 for c in range(n))
        assert all(token_supply(env, c) == 0 and manu_supply(env, c) == 0 for c in range(n, 4))
        assert moai_left(env) == 12 and not ceremonies(env, RED)
        obs = env.observe("player_0")["observation"]
        for r in range(4):
            base = core.OBS_CLAN + r * core.CLAN_FEATURES
            present = r < n
            assert obs[base + core.CF_PRESENT] == present
            assert obs[base + core.CF_TOKENS] == (11 if present else 0)
            assert obs[base + core.CF_MANU_SUPPLY] == (5 if present else 0)
            assert obs[base + core.CF_CHIEF_IN_SUPPLY] == present
        if n == 4:
            assert sum(token_supply(env, c) for c in range(4)) == 44
            assert sum(manu_supply(env, c) for c in range(4)) == 20
    for make in (makemake_env.raw_env, makemake_env.env):
        with pytest.raises(ValueError, match=r"num_players must be an integer from 2 to 4, got 5"):
            make(num_players=5)
    with pytest.raises(ValueError, match=r"players must be 2 … 4, got 5"):
        makemake_env.from_text("game: Make Make\nplayers: 5")


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_components_a_clan_never_has_more_than_its_11_tokens_5_tangata_manu_and_1_chief(num_players):
    """Rulebook "Components and Key Terms" / "Preparation of the Game": a clan plays with its own 1
    Chief, 5 Tangata Manu and 11 Dominance Tokens, no more.  At every step of random games (attacks
    returning pieces, withdrawals, Moai, ceremonies ending), for every clan: tokens on the board plus
    tokens in supply are exactly 11, supply never below 0; Tangata Manu in ceremonies plus in supply
    exactly 5; its one chief is in supply or on one of its own territories; Moai built plus Moai left
    are 12."""
    returned = 0
    for before, _, env in random_steps(num_players, 100 + num_players, 1500):
        s = env.state()
        for c in range(num_players):
            on_board = sum(tokens(env, n) for n in TERRITORY_NAMES if owner(env, n) == c)
            assert 0 <= token_supply(env, c) <= 11 and on_board + token_supply(env, c) == 11
            assert 0 <= manu_supply(env, c) <= 5 and len(ceremonies(env, c)) + manu_supply(env, c) == 5
            where = chief_at(env, c)
            assert where is None or owner(env, where) == c
            returned += token_supply(env, c) > before[core.TOKEN_SUPPLY + c]
        assert int(s[core.MOAI:core.MOAI + NUM_TERRITORIES].sum()) + moai_left(env) == 12
    assert returned > 0      # pieces did come back to supply


# =====================================================================================================
# Spiritual Supremacy: "Only one clan can have it at a time"
@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_spiritual_supremacy_only_one_clan_can_have_it_at_a_time(num_players):
    """Rulebook "Spiritual Supremacy": "If another clan later meets both conditions, it automatically
    obtains Spiritual Supremacy and receives the Make Make amulet. Only one clan can have it at a
    time." / "The only way to lose it is if another clan meets both conditions".  At every step of
    random games: every seat's observation shows the amulet with at most one clan, the same clan for
    every seat; after each action the holder is the clan meeting both conditions if there is one, else
    the holder before; and only the holder can have won ("Only the clan with Spiritual Supremacy can
    receive Make Make")."""
    moved = 0
    for before, _, env in random_steps(num_players, 20 + num_players, 1500):
        s = env.state()
        qualifier = supremacy_qualifier(s)
        held_before = None if before[core.AMULET] < 0 else int(before[core.AMULET])
        expected = held_before if qualifier is None else qualifier
        assert amulet(env) == expected
        moved += held_before is not None and amulet(env) != held_before
        for v in range(num_players):
            obs = env.observe(f"player_{v}")["observation"]
            flags = [int(obs[core.OBS_CLAN + r * core.CLAN_FEATURES + core.CF_AMULET]) for r in range(4)]
            holders = [(v + r) % num_players for r in range(num_players) if flags[r]]
            assert sum(flags) <= 1 and holders == ([] if expected is None else [expected])
        if s[core.WINNER] >= 0:
            assert s[core.WINNER] == expected and manu_supply(env, expected) == 0
    assert moved > 0     # the amulet did change hands


def test_spiritual_supremacy_a_second_clan_meeting_the_conditions_takes_it_from_the_holder():
    """Rulebook "Spiritual Supremacy": "Only one clan can have it at a time": Red holds the amulet
    (Sacred-1, 2, 3 against Blue's Sacred-4, 5).  Blue takes Sacred-1: 3 against 2, Blue meets both
    conditions and the amulet goes to Blue -- Red no longer has it, in every seat's eyes.  Red takes
    Sacred-6: 3 against 3, nobody meets both conditions, Blue keeps it.  Red takes Sacred-4 from Blue:
    3 against 2 (Red 4), the amulet goes back to Red alone."""
    env = from_text(new_game(4), """
        game: Make Make
        players: 4
        to_act: Blue
        turn: 1
        territories: Sacred-1 Red, Sacred-2 Red, Sacred-3 Red, Sacred-4 Blue, Sacred-5 Blue
    """)

    def holders():
        seen = set()
        for v in range(4):
            obs = env.observe(f"player_{v}")["observation"]
            seen |= {(v + r) % 4 for r in range(4)
                     if obs[core.OBS_CLAN + r * core.CLAN_FEATURES + core.CF_AMULET]}
        return seen

    assert amulet(env) == RED and holders() == {RED}
    act(env, place("Sacred-1", 2))                      # Blue
    assert (sacred_count(env, BLUE), sacred_count(env, RED)) == (3, 2)
    assert amulet(env) == BLUE and holders() == {BLUE}
    play_harmless_turns(env, 2)                          # Green, Yellow
    act(env, place("Sacred-6", 1))                      # Red
    assert (sacred_count(env, BLUE), sacred_count(env, RED)) == (3, 3)
    assert amulet(env) == BLUE and holders() == {BLUE}
    play_harmless_turns(env, 3)                          # Blue, Green, Yellow
    act(env, place("Sacred-4", 2))                      # Red
    assert (sacred_count(env, RED), sacred_count(env, BLUE)) == (4, 2)
    assert amulet(env) == RED and holders() == {RED}


def test_spiritual_supremacy_only_the_clan_with_it_can_receive_make_make_nobody_holding_it():
    """Rulebook "Spiritual Supremacy": "Only the clan with Spiritual Supremacy can receive Make Make and
    win the game."  ``test_end_of_game_five_tangata_manu_without_the_amulet_do_not_win`` has the amulet
    with another clan; here *nobody* holds it: Green has its 5 Tangata Manu in ceremonies and leads the
    Sacred Territories 2 to 1, but without a third one it has no Spiritual Supremacy -- a whole round
    of actions (victory is checked after each) gives no victory.  Only when Green takes its third
    sacred territory, and with it the amulet, does it win."""
    green = ["Sacred-5", "Sacred-6", "Inner-8", "Inner-9", "Inner-10", "Inner-11", "Inner-12"]
    env = position(new_game(4), {"Sacred-1": RED, **{n: GREEN for n in green}},
                   manu={g: GREEN for g in grounds_of(*green)})
    assert manu_supply(env, GREEN) == 0 and amulet(env) is None
    assert sacred_count(env, GREEN) == 2 > sacred_count(env, RED)
    play_harmless_turns(env, 2, avoid=SACRED_NAMES)     # Red, Blue
    act(env, harmless_placement(env, avoid=SACRED_NAMES))   # Green itself
    play_harmless_turns(env, 1, avoid=SACRED_NAMES)     # Yellow
    assert running(env) and amulet(env) is None and env.state()[core.WINNER] < 0
    assert not any(env.terminations.values()) and all(r == 0 for r in env.rewards.values())
    play_harmless_turns(env, 2, avoid=SACRED_NAMES)     # Red, Blue
    act(env, place("Sacred-4", 1))                      # Green: 3 against 1
    assert amulet(env) == GREEN and not running(env) and env.infos["player_0"]["winner"] == "player_2"


# =====================================================================================================
# Quick Instructions: "Only one territory per turn"
def test_quick_instructions_only_one_territory_per_turn_no_second_dominance_action_in_the_turn():
    """Rulebook Quick Instructions: "Only one territory per turn. You must carry out one and only one
    of the 3 actions."  Red's dominance action on Sacred-2 changes Sacred-2 and no other territory;
    its turn goes on with a choice of its ceremonial phase (a Moai choice, then a ceremony choice in a
    second position), during which the mask offers no dominance action -- no placement, no withdrawal
    -- and ``step`` refuses one; once its ceremonial phase is over the turn is Blue's."""
    env = two_moai_sites(new_game(4))
    before = env.state()
    act(env, place("Sacred-2", 1))
    after = env.state()
    changed = [TERRITORY_NAMES[t] for t in range(NUM_TERRITORIES)
               if territory_entries(before, t) != territory_entries(after, t)]
    assert changed == ["Sacred-2"]
    assert env.decision() == "Moai" and clan_to_act(env) == RED
    assert not any(a < core.MOAI_BASE for a in legal(env))
    assert_refused(env, place("Coast-10", 1))
    assert_refused(env, place("Sacred-5", 1))
    assert_refused(env, withdraw("Inner-3"))
    act(env, build_moai("Inner-3"))
    assert clan_to_act(env) == BLUE and env.decision() == "dominance"

    far = ["Inner-8", "Inner-9", "Coast-12", "Coast-13", "Coast-14"]
    env = position(new_game(4), {**{n: RED for n in CEREMONY_TERRITORIES + far}, "Coast-7": RED},
                   chiefs={RED: "Coast-7"}, manu={"Ground-39": RED, "Ground-40": RED, "Ground-41": RED})
    assert withdraw("Coast-7") in legal(env)
    act(env, place("Inner-1", 1))
    for _ in range(2):
        assert env.decision() == "ceremony" and clan_to_act(env) == RED
        assert all(a >= core.CEREMONY_BASE for a in legal(env))
        assert_refused(env, place("Coast-10", 1))
        assert_refused(env, withdraw("Coast-7"))
        act(env, ceremony(sorted(legal_ceremonies(env), key=ground_index)[0]))
    assert clan_to_act(env) == BLUE and env.decision() == "dominance"


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_quick_instructions_only_one_territory_per_turn_in_random_games(num_players):
    """Rulebook Quick Instructions: "Only one territory per turn."  At every step of random games: a
    dominance action changes what stands on the territory it names and on no other territory except
    those where its ceremonial phase builds a Moai; while the clan's turn goes on (Moai or ceremony
    choices) the mask offers no dominance action; and no clan turn sees two dominance actions."""
    dominance_turns = []
    choices = 0
    for before, action, env in random_steps(num_players, 20 + num_players, 1500):
        after = env.state()
        if before[core.PHASE] == core.PHASE_DOMINANCE:
            t = action // 22 if action < core.WITHDRAW_BASE else action - core.WITHDRAW_BASE
            assert action < core.MOAI_BASE
            changed = {u for u in range(NUM_TERRITORIES)
                       if territory_entries(before, u) != territory_entries(after, u)}
            new_moai = {u for u in range(NUM_TERRITORIES) if after[core.MOAI + u] > before[core.MOAI + u]}
            assert t in changed and changed - {t} <= new_moai, \
                f"{env.describe_action(action)} changed {[TERRITORY_NAMES[u] for u in sorted(changed)]}"
            dominance_turns.append((int(before[core.SEED]), int(before[core.TURN])))
        if running(env) and env.decision() != "dominance":
            choices += 1
            assert not any(a < core.MOAI_BASE for a in legal(env))
    assert len(dominance_turns) == len(set(dominance_turns))
    assert choices > 0


# =====================================================================================================
# RULINGS conventions: observations from the acting player's point of view
def rotated_text(state, k):
    """The position of ``state`` with the seats turned: clan ``c`` becomes clan ``c - k`` (mod n), so
    that seat ``k``'s pieces, supplies and amulet are seat 0's; the turn counter moves with the clan to
    act.  The ``last`` line is left out: the observation does not show it (RULES.md, Last actions), and
    which clans have had a turn changes with the seats."""
    n = int(state[core.NUM_PLAYERS])
    names = "|".join(CLAN_NAMES[:4])

    def turned(text):
        return re.sub(rf"\b({names})\b", lambda m: CLAN_NAMES[(CLAN_NAMES.index(m.group(1)) - k) % n], text)

    lines = []
    for line in makemake_env.to_text(state).splitlines():
        key, value = line.split(": ", 1)
        if key == "last":
            continue
        if key == "turn":
            c = int(value) % n
            value = str(int(value) - c + (c - k) % n)
        elif key in ("to_act", "amulet", "winner", "territories", "ceremonies", "token_supply",
                     "manu_supply"):
            value = turned(value)
        lines.append(f"{key}: {value}")
    return "\n".join(lines)


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_conventions_observation_of_each_seat_is_its_own_rotation(num_players):
    """RULINGS conventions: "Observations are from the acting player's point of view (their own pieces
    first) and contain everything that player may know" -- the observation does not depend on which
    seat a clan has, only on the position as that clan sees it.  At every step of random games (all
    phases, and the end), for every seat k: what seat k observes equals what seat 0 observes in the
    same position with the seats turned so that seat k's clan is seat 0's (action mask included), and
    its own territories come first (relative clan 0).  ``max_turns`` is large so that moving the turn
    counter with the clan to act does not change the share of ``max_turns`` shown."""
    turned_env = new_game(num_players, max_turns=10 ** 6)
    phases = set()
    for i, (_, _, env) in enumerate(random_steps(num_players, 400 + num_players, 600, max_turns=10 ** 6)):
        s = env.state()
        phases.add(env.decision())
        if i % 3 and env.decision() == "dominance" and running(env):
            continue
        for k in range(num_players):
            seen = env.observe(f"player_{k}")
            turned_env.set_state(makemake_env.from_text(rotated_text(s, k)))
            turned = turned_env.observe("player_0")
            np.testing.assert_array_equal(seen["observation"], turned["observation"],
                                          err_msg=f"seat {k} of {num_players}, step {i}")
            np.testing.assert_array_equal(seen["action_mask"], turned["action_mask"])
            own = seen["observation"][core.OBS_CONTROL:core.OBS_CONTROL + NUM_TERRITORIES]
            np.testing.assert_array_equal(own, s[core.OWNER:core.OWNER + NUM_TERRITORIES] == k)
    assert {"dominance", "over"} <= phases and phases & {"Moai", "ceremony"}
