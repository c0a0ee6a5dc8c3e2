"""Issue 25 for Maka Bana: actions by name, the position notation and the read-only views
(``makabana_env.notation``, exported at package level).

The round trips run on every decision of random games of both variants and every player count;
``ROUNDTRIP_GAMES`` sets the number of games per variant (spread over the player counts).
"""
import os
import warnings

import numpy as np
import pytest

import makabana_env
from makabana_env import core, kernels
from makabana_env import describe_action, from_text, parse_action, to_text
from makabana_env.board import SPOT_INDEX

GAMES = int(os.environ.get("ROUNDTRIP_GAMES", "8"))


def round_trip_games(variant, games, seed=0):
    """Play ``games`` random games of ``variant`` (player counts in turn) and check, at every
    decision, the notation both ways and every legal action's name both ways.  Returns the number
    of decisions checked."""
    state = np.zeros(kernels.STATE_SIZE, dtype=np.int64)
    mask = np.zeros(kernels.NUM_ACTIONS_OF_VARIANT[variant], dtype=np.int8)
    decisions = 0
    for game in range(games):
        kernels.init(state, 2 + game % 4, variant, 100, seed + game)
        while True:
            text = to_text(state)
            back = from_text(text)
            assert np.array_equal(back, state), f"{text}\ndiffers at {np.flatnonzero(back != state)}"
            assert to_text(back) == text
            if state[kernels.STATUS] != kernels.STATUS_RUNNING:
                break
            kernels.legal_action_mask(state, mask)
            for action in np.flatnonzero(mask).tolist():
                name = describe_action(action, state)
                assert parse_action(name, state) == action, name
                assert parse_action(describe_action(action), state) == action
            decisions += 1
            kernels.step(state, kernels.random_action(state))
    return decisions


@pytest.mark.parametrize("variant", [kernels.VARIANT_HAAPII, kernels.VARIANT_MAO])
def test_notation_and_action_names_round_trip_on_every_decision(variant):
    """Issue 25, What 1 and 2: ``from_text(to_text(s))`` is ``s`` entry for entry, ``to_text`` of that
    is the same text, and ``parse_action(describe_action(a, s), s) == a`` for every legal action."""
    assert round_trip_games(variant, GAMES, seed=100 * variant) > GAMES * 20


def test_every_action_name_without_a_state_reads_back():
    for action in range(core.NUM_ACTIONS_MAO):
        assert parse_action(describe_action(action)) == action
    assert describe_action(core.NUM_ACTIONS_MAO).startswith("action 343, outside")


def test_parse_action_ignores_case_and_surrounding_spaces():
    action = 3 * SPOT_INDEX["Azzura-Rock-Flower"] + core.SHOWN_THEME
    assert parse_action("  CONSTRUCT azzura-rock-flower   showing THE theme ") == action
    assert parse_action(describe_action(np.int64(action))) == action


def test_parse_action_of_an_unknown_name_lists_the_closest():
    with pytest.raises(ValueError, match=r"unknown action name 'tiki on Azzura-Rock-Flowr'; closest: "
                                         r"'tiki on azzura-rock-flower'"):
        parse_action("tiki on Azzura-Rock-Flowr")
    with pytest.raises(ValueError, match="names look like 'construct Azzura-Rock-Flower showing the beach'"):
        parse_action("castle")
    with pytest.raises(ValueError, match="must be a str"):
        parse_action(17)


def test_with_a_haapii_state_mao_actions_are_outside_and_not_parsed():
    state = makabana_env.raw_env().state()
    assert describe_action(core.MAO_PASS, state).startswith("action 302, outside")
    with pytest.raises(ValueError, match="unknown action name"):
        parse_action("do not denounce", state)


def test_mao_names_in_a_position_say_what_happens():
    """[Denunciation], [4. Execution of projects]: with a state, the colour denounced and what a spot
    action does are named."""
    text = """
        game: Maka Bana
        variant: mao
        players: 4
        phase: denunciation
        Yellow project: ready; top Fish; cards Azzura, Rock, Fish; asked 12
        Blue project: ready; top Sand; cards Sand; asked 12
        Green project: ready; top Paint; cards Paint; asked 12
        Red project: ready; top Lagoon; cards Lagoon; asked 12
    """
    state = from_text(text)
    # a project line read with tabs and no-break spaces for its spaces, as every other line is
    spaced = text.replace("ready; top Fish; cards", "ready;\ttop\u00a0Fish;  cards").replace("; asked 12", ";\tasked\u00a012")
    assert np.array_equal(from_text(spaced), state)
    assert describe_action(core.MAO_DENOUNCE_BASE + 1, state) == "denounce Green"
    assert parse_action("Denounce Green", state) == core.MAO_DENOUNCE_BASE + 1
    assert parse_action("denounce the colour 2 seats clockwise", state) == core.MAO_DENOUNCE_BASE + 1
    assert makabana_env.colour_to_act(state) == 0


# ---------------------------------------------------------------------------------------------------
# The notation
def test_a_position_in_a_few_lines_with_defaults():
    """RULES.md, "Position notation": omitted lines take the start of a game; reserves and scores
    follow from the board."""
    state = from_text("""
        game: Maka Bana
        players: 3
        Yellow huts: Azzura-Rock-Flower, Azzura-Rock-Tattoo
        Blue huts: Coquito-Sand-Fish
    """)
    fresh = np.zeros(core.STATE_SIZE, np.int64)
    core.init(fresh, 3, core.VARIANT_HAAPII, 100, 0)
    assert state[core.RESERVE] == 8 and state[core.RESERVE + 1] == 9 and state[core.RESERVE + 2] == 10
    assert state[core.HUT + SPOT_INDEX["Azzura-Rock-Tattoo"]] == 0
    changed = np.flatnonzero(state != fresh)
    assert set(changed) == {core.HUT + SPOT_INDEX["Azzura-Rock-Flower"], core.HUT + SPOT_INDEX["Azzura-Rock-Tattoo"],
                            core.HUT + SPOT_INDEX["Coquito-Sand-Fish"], core.RESERVE, core.RESERVE + 1}


def test_the_canonical_text_of_a_new_game():
    state = np.zeros(core.STATE_SIZE, np.int64)
    core.init(state, 2, core.VARIANT_HAAPII, 50, 7)
    text = to_text(state)
    assert text.startswith("game: Maka Bana\nvariant: haapii\nplayers: 2\nmax_turns: 50\nseed: 7\n")
    assert "Red huts: -\nRed reserve: 10\nRed paints: 2\nRed tiki: -\nRed project: -\n" in text
    assert np.array_equal(from_text(text), state)


@pytest.mark.parametrize("line,match", [
    ("Blue huts: Azzura-Rock-Flower", r"line 4 \(Blue huts\): invalid state: HUT\[3\] = 1: a spot out of play"),
    ("Blue tiki: Azzura-Rock-Flower", r"line 4 \(Blue tiki\): invalid state: TIKI\[3\] = 1: tikis stand only"),
    ("Blue paints: 3", r"line 4 \(Blue paints\): invalid state: PAINTS\[1\] = 3: PAINTS must be 0 to 2"),
    ("Blue reserve: 9", r"line 4 \(Blue reserve\): invalid state: RESERVE\[1\] = 9: huts in reserve"),
    ("phase: tiki", r"^invalid state: PROJECT_KIND\[0\] = -1: a colour has a project exactly when it has chosen "
                    r"one this season \(an entry no line sets"),
    ("phase: execution", r"line 4 \(phase\): invalid state: PHASE = 6: PHASE must be 0 to 2 in Haapii"),
    ("Blue huts: Azzura-Rok-Flower", r"line 4 \(Blue huts\): unknown spot 'azzura-rok-flower' \(closest: "),
    ("White huts: -", r"line 4 \(White huts\): unknown key for a 3-colour haapii game"),
    ("season: many", r"line 4 \(season\): expected an integer, got 'many'"),
    ("first: Purple", r"line 4 \(first\): expected a colour of the game \(Yellow, Blue, Green\)"),
    ("to act: Green", r"line 4 \(to act\): invalid state: TO_ACT = 2: TO_ACT must be the colour DECIDED"),
])
def test_a_wrong_text_names_the_line_and_the_field(line, match):
    """Issue 25, What 2: from_text validates; the error names the line (number and key) and the
    field.  (Azzura-Rock-Flower is on Azzura; Bikini's first spot is spot 9, so use one there for
    the out-of-play case.)"""
    if "out of play" in match:
        line = "Blue huts: Bikini-Sand-Flower"
        match = match.replace(r"HUT\[3\]", r"HUT\[9\]")
    text = f"game: Maka Bana\nplayers: 3\nvariant: haapii\n{line}\n"
    with pytest.raises(ValueError, match=match):
        from_text(text)



def test_two_tikis_on_one_spot_are_refused_not_one_dropped():
    """The row holds one tiki per spot: the second colour's line overwrote the first's, which vanished."""
    text = "game: Maka Bana\nplayers: 4\nseason: 1\nphase: tiki\nfirst: Yellow\ndecided: 2\n" + "".join(
        f"{c} project: construct Azzura-Rock-Flower showing the beach\n"
        f"{c} last project: construct Azzura-Rock-Flower, failed\n" for c in ("Yellow", "Blue", "Green", "Red"))
    tikis = [line for line in to_text(from_text(text + "Yellow tiki: Azzura-Rock-Flower\n")).splitlines()
             if line.endswith("tiki: Azzura-Rock-Flower")]
    assert tikis == ["Yellow tiki: Azzura-Rock-Flower"]          # one tiki there is a position
    with pytest.raises(ValueError, match=r"\(Blue tiki\): Azzura-Rock-Flower already holds a tiki"):
        from_text(text + "Yellow tiki: Azzura-Rock-Flower\nBlue tiki: Azzura-Rock-Flower\n")

def test_a_text_for_another_game_or_without_players_is_refused():
    with pytest.raises(ValueError, match="line 'game: Maka Bana' missing"):
        from_text("players: 3\n")
    with pytest.raises(ValueError, match="line 'players: <2 to 5>' missing"):
        from_text("game: Maka Bana\n")
    with pytest.raises(ValueError, match=r"line 3 \(players\): repeats line 2"):
        from_text("game: Maka Bana\nplayers: 3\nplayers: 4\n")


@pytest.mark.parametrize("game_line,message", [
    ("game: Make Make", r"^line 1 \(game\): this is a Make Make position; makabana_env.from_text reads Maka Bana "
                        r"positions$"),
    ("game: Mauna Kea", r"^line 1 \(game\): this is a Mauna Kea position; makabana_env.from_text reads Maka Bana "
                        r"positions$"),
    ("game: Chess", r"^line 1 \(game\): unknown game 'Chess'; makabana_env.from_text reads Maka Bana positions"),
])
def test_a_text_of_another_game_says_whose_it_is(game_line, message):
    """Hardening: the game line is read before the keys, even a repeated one."""
    with pytest.raises(ValueError, match=message):
        from_text(f"{game_line}\nplayers: 3\nturn: 1\nturn: 2\n")


@pytest.mark.parametrize("variant", [kernels.VARIANT_HAAPII, kernels.VARIANT_MAO])
def test_a_key_given_twice_is_refused_on_every_line(variant):
    """Hardening, as for Mauna Kea's reader (which took the last of two lines)."""
    state = np.zeros(kernels.STATE_SIZE, dtype=np.int64)
    kernels.init(state, 4, variant, 100, 3)
    for _ in range(30):
        kernels.step(state, kernels.random_action(state))
    lines = to_text(state).splitlines()
    for number, line in enumerate(lines, 1):
        with pytest.raises(ValueError, match=rf"^line {len(lines) + 1} \({line.partition(':')[0]}\): "
                                             rf"repeats line {number}$"):
            from_text("\n".join(lines + [line]))


def test_a_number_too_large_for_the_row_names_the_line():
    """Hardening: 'asked' of a Mao project was taken without a range, and ended in OverflowError."""
    text = ("game: Maka Bana\nplayers: 3\nvariant: mao\n"
            f"Yellow project: choosing; top Flower; cards -; asked {'9' * 20}\n")
    with pytest.raises(ValueError, match=r"^line 4 \(Yellow project\): expected 'asked <number>', a number from "
                                         r"-9223372036854775808 to 9223372036854775807, got"):
        from_text(text)
    # the colour to act is worked out from 'decided' before the row is validated: no int64 overflow
    # on the way (a warning, an error under -W error) to the line's ValueError
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ValueError, match=r"^line 4 \(decided\)"):
            from_text("game: Maka Bana\nplayers: 3\nfirst: Blue\ndecided: 9223372036854775807\n")


# ---------------------------------------------------------------------------------------------------
# Read-only views and infos
def test_views_of_owners_colour_to_act_and_players():
    """Issue 25, What 4: the hut owner of each spot, the colour to act (which of a player's two
    colours with 2 players) and the colour -> player map, all read-only."""
    state = from_text("game: Maka Bana\nplayers: 2\nfirst: Blue\nGreen huts: Diabolo-Rock-Fish\n")
    owners = makabana_env.spot_owners(state)
    assert owners[SPOT_INDEX["Diabolo-Rock-Fish"]] == 2 and owners.sum() == 2 - 38
    with pytest.raises(ValueError):
        owners[0] = 1
    assert makabana_env.colour_to_act(state) == 1
    colours = makabana_env.colour_players(state)
    assert colours.names == ("Yellow", "Blue", "Green", "Red") and colours.players == (0, 1, 0, 1)
    state[core.HUT] = 10 ** 6
    with pytest.raises(ValueError, match=r"HUT\[0\] = 1000000"):
        makabana_env.spot_owners(state)


def test_infos_name_the_colour_to_act_in_the_two_player_game():
    """[Maka Bana for 2 Players]: each player plays two colours; infos say which one is asked."""
    env = makabana_env.raw_env(num_players=2)
    env.reset(seed=3)
    seen = []
    for _ in range(4):   # the four colours choose their projects in turn
        agent = env.agent_selection
        assert [a for a in env.agents if "colour" in env.infos[a]] == [agent]
        seen.append((agent, env.infos[agent]["colour"]))
        mask = env.observe(agent)["action_mask"]
        env.step(int(np.flatnonzero(mask)[0]))
    assert seen == [("player_0", "Yellow"), ("player_1", "Blue"), ("player_0", "Green"), ("player_1", "Red")]


def test_an_info_handed_out_keeps_its_colour():
    """The colour moves to the next agent's info in a new dict: the one ``last()`` returned before
    the step still says which colour was asked then."""
    env = makabana_env.env(num_players=2)
    env.reset(seed=0)
    observation, _, _, _, info = env.last()
    env.step(int(np.flatnonzero(observation["action_mask"])[0]))
    assert info == {"colour": "Yellow"}
    assert env.last()[4] == {"colour": "Blue"}
