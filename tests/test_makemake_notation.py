"""Issue 25 for Make Make: action names, the position notation and the last-actions view
(``makemake_env.notation``; RULES.md, Notation and Last actions).

The round trips run on every decision of random games of every player count (Make Make has one
variant): ``ROUNDTRIP_GAMES`` games, shared out evenly over the player counts (the issue's figure is
1,000 per variant: ``ROUNDTRIP_GAMES=1000 python -m pytest tests/test_makemake_notation.py -k round_trip``).
"""
import os

import numpy as np
import pytest

import makemake_env
from makemake_env import core, kernels
from makemake_env.notation import ACTION_NAMES, KEYS
from pacific_common.batch import seed_action_generators

GAMES = int(os.environ.get("ROUNDTRIP_GAMES", "18"))
PLAYER_COUNTS = [2, 3, 4]
GAMES_EACH = -(-GAMES // len(PLAYER_COUNTS))   # per player count, rounded up


def decisions(num_players, seed):
    """Every decision of one random game (each state where an action is asked), then the final state."""
    s = np.zeros(kernels.STATE_SIZE, np.int64)
    kernels.init(s, num_players, kernels.VARIANT_STANDARD, (30, 1000)[seed % 2], seed)
    while s[kernels.STATUS] == kernels.STATUS_RUNNING:
        yield s
        kernels.step(s, kernels.random_action(s))
    yield s


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_round_trip_on_every_decision_of_random_games(num_players):
    """Issue 25, What 1, 2 and Done when: on every decision, ``from_text(to_text(s))`` is ``s`` entry for
    entry, ``to_text`` of that is the same text, and every legal action's name parses back to it."""
    mask = np.zeros(kernels.NUM_ACTIONS, np.int8)
    count = 0
    passes = 0
    for seed in range(GAMES_EACH):
        for s in decisions(num_players, seed):
            text = makemake_env.to_text(s)
            row = makemake_env.from_text(text)
            assert row.dtype == np.int64 and np.array_equal(row, s), text
            assert makemake_env.to_text(row) == text
            kernels.legal_action_mask(s, mask)
            for a in np.flatnonzero(mask).tolist():
                assert makemake_env.parse_action(makemake_env.describe_action(a, s), s) == a
            passes += sum(last.passed for last in makemake_env.last_actions(s))
            count += 1
    assert count > GAMES_EACH * 10 and passes > 0


def test_every_action_has_its_own_name():
    """Issue 25, What 1: the 912 names are distinct and each parses back, whatever its case and the
    spaces around it."""
    assert len(set(ACTION_NAMES)) == kernels.NUM_ACTIONS
    for a, name in enumerate(ACTION_NAMES):
        assert makemake_env.describe_action(a) == name
        assert makemake_env.parse_action(f"  {name.upper()} ") == a
    assert makemake_env.describe_action(np.int32(868)) == "start a ceremony on Ground-5"
    assert makemake_env.describe_action(5) == "place 3 tokens and the chief on Sacred-1"
    assert makemake_env.describe_action(0) == "place 1 token on Sacred-1"
    assert makemake_env.describe_action(912) == "action 912, outside 0 … 911"


def test_parse_action_names_what_it_understands():
    """Issue 25, What 1: an unknown text is a ValueError listing the forms and the closest names."""
    with pytest.raises(ValueError, match=r"unknown action 'place 2 tokens on Sacred-9'.*place K token\(s\) "
                                         r"\[and the chief\] on TERRITORY.*closest: 'place 2 tokens on Sacred-"):
        makemake_env.parse_action("place 2 tokens on Sacred-9")
    with pytest.raises(ValueError, match="unknown action 'pass'"):
        makemake_env.parse_action("pass")    # a pass is not an action: nobody is asked for it
    with pytest.raises(ValueError, match="text must be a str"):
        makemake_env.parse_action(3)
    # what is not an action is described as such, as in the other two games (messages name it)
    assert makemake_env.describe_action("3") == "action '3', not an integer"
    assert makemake_env.describe_action(True) == "action True, not an integer"
    assert makemake_env.describe_action(10 ** 30) == f"action {10 ** 30}, outside 0 … 911"
    # numpy counts a duration among its integers: one in days is no action 5, nor a TypeError
    import makabana_env
    import maunakea_env
    for package in (makabana_env, makemake_env, maunakea_env):
        for duration in (np.timedelta64(5, "D"), np.timedelta64("NaT"), np.timedelta64(5), np.array(np.timedelta64(5))):
            assert package.describe_action(duration).endswith(", not an integer"), (package, duration)
    with pytest.raises(ValueError, match="invalid state: PHASE"):
        bad = makemake_env.raw_env().state()
        bad[core.PHASE] = 7
        makemake_env.parse_action("withdraw from Coast-1", bad)


def test_env_and_batch_describe_actions_by_the_same_names():
    """The environments' messages use the notation's names (``describe_action`` moved out of env.py)."""
    assert makemake_env.raw_env.describe_action(800) == makemake_env.describe_action(800) == "withdraw from Inner-3"
    assert makemake_env.BatchEnv.describe_action(836) == "build a Moai on Inner-3"
    import importlib   # agents.games reads <package>.env.describe_action from the module
    assert importlib.import_module("makemake_env.env").describe_action is makemake_env.describe_action


MINIMAL = """\
game: Make Make
players: 3
to_act: Blue
territories: Sacred-1 Red 2 chief, Sacred-2 Red, Coast-1 Blue 3
"""


def test_a_position_in_a_few_lines():
    """Issue 25, What 2: lines with a default may be omitted (RULES.md, Notation); the rest follows."""
    s = makemake_env.from_text(MINIMAL)
    assert s[core.NUM_PLAYERS] == 3 and s[core.MAX_TURNS] == 1000 and s[core.TO_ACT] == 1 and s[core.TURN] == 1
    sacred_1 = core.SACRED[0]
    assert s[core.OWNER + sacred_1] == 0 and s[core.TOKENS + sacred_1] == 2 and s[core.CHIEF_AT] == sacred_1
    assert list(s[core.TOKEN_SUPPLY:core.TOKEN_SUPPLY + 3]) == [8, 8, 11]
    assert list(s[core.MANU_SUPPLY:core.MANU_SUPPLY + 4]) == [5, 5, 5, 0]
    assert s[core.RNG] != 0 and s[core.AMULET] == -1 and s[core.MOAI_LEFT] == 12
    text = makemake_env.to_text(s)
    assert [line.split(":")[0] for line in text.splitlines()] == list(KEYS)
    assert "territories: Sacred-1 Red 2 chief, Sacred-2 Red 1, Coast-1 Blue 3\n" in text
    # Spiritual Supremacy and the winner follow from the board when their lines are omitted
    s = makemake_env.from_text("game: Make Make\nplayers: 2\nterritories: Sacred-1 Blue, Sacred-2 Blue, Sacred-3 Blue")
    assert s[core.AMULET] == 1 and s[core.WINNER] == -1
    # the game line's spaces are read as every other line's
    for game_line in ("game: Make  Make", "game: Make\tMake", "game: Make\u00a0Make"):
        assert np.array_equal(makemake_env.from_text(MINIMAL.replace("game: Make Make", game_line)),
                              makemake_env.from_text(MINIMAL))


@pytest.mark.parametrize("text, message", [
    (MINIMAL.replace("Sacred-2 Red", "Sacred-2 Red 12"), r"line 4 \(territories\): tokens must be 1 … 11, got 12"),
    (MINIMAL.replace("to_act: Blue", "to_act: Purple"), r"line 3 \(to_act\): a clan must be one of Red, Blue, Green"),
    (MINIMAL + "turn: 2\n", r"line 3 \(to_act\): invalid state: TO_ACT = 1: clans play in turn"),
    (MINIMAL + "amulet: none\nterritories: Sacred-3 Red", r"line 6 \(territories\): territories is given twice"),
    (MINIMAL.replace("Coast-1", "Coast-19"), r"line 4 \(territories\): unknown territory 'Coast-19'"),
    (MINIMAL + "token_supply: Red 9, Blue 8, Green 11\n", r"line 5 \(token_supply\): invalid state: TOKEN_SUPPLY\[0\] = 9"),
    (MINIMAL.replace("Sacred-2 Red", "Sacred-2 Red 10"),
     r"line 4 \(territories; the omitted token_supply follows from it\): invalid state: TOKEN_SUPPLY\[0\] = -1"),
    (MINIMAL + "ceremonies: Ground-1 Red\n", r"line 5 \(ceremonies\): invalid state: GROUND\[0\] = 0: a ceremony needs"),
    (MINIMAL + "status: over\n", r"line 5 \(status\): status must be one of running, terminated, truncated"),
    (MINIMAL + "moai: Coast-3\n", r"line 5 \(moai\): invalid state: MOAI\[\d+\] = 1: a Moai stands only on an Inner"),
    (MINIMAL + "last: Red place 2 tokens on Sacred-1, Blue jump\n", r"line 5 \(last\): Blue's last action must be"),
    (MINIMAL + "last: Green pass\n", r"line 5 \(last\): invalid state: LAST_ACTION\[2\] = -2: a clan that has not"),
    (MINIMAL.replace("Coast-1 Blue 3", "Sacred-1 Blue 3"), r"line 4 \(territories\): Sacred-1 is listed twice"),
    (MINIMAL + "last: Red pass, red none\n", r"line 5 \(last\): red is listed twice"),
    (MINIMAL + "colour: Red\n", r"line 5 \(colour\): unknown key"),
    (MINIMAL + "phase Moai\n", r"line 5: 'phase Moai' is not a 'key: value' line"),
    ("players: 3\n", r"the line 'game: …' is missing"),
    (MINIMAL.replace("Make Make", "Maka Bana"), r"line 1 \(game\): this is a Maka Bana position; "
                                                r"makemake_env.from_text reads Make Make positions$"),
    (MINIMAL + "ceremonies: Ground-1 Red,, Ground-2 Blue\n", r"line 5 \(ceremonies\): an item is empty"),
    (MINIMAL.replace("territories: Sacred-1 Red 2 chief, Sacred-2 Red",
                     "territories: Sacred-1 Red, Sacred-2 Red, Sacred-3 Red, Sacred-4 Red 5") + "manu_supply: Red 0",
     r"line 5 \(manu_supply\): manu_supply is written 'CLAN COUNT' once for every clan"),
])
def test_a_wrong_text_names_the_line_and_the_field(text, message):
    """Issue 25, What 2: from_text validates; a wrong text is a ValueError naming the line (number and
    key) and, where the validator refuses, the field."""
    with pytest.raises(ValueError, match=message):
        makemake_env.from_text(text)


@pytest.mark.parametrize("game_line,message", [
    ("game: Maka Bana", r"^line 1 \(game\): this is a Maka Bana position; makemake_env.from_text reads Make Make "
                        r"positions$"),
    ("game: Mauna Kea", r"^line 1 \(game\): this is a Mauna Kea position; makemake_env.from_text reads Make Make "
                        r"positions$"),
    ("game: Chess", r"^line 1 \(game\): unknown game 'Chess'; makemake_env.from_text reads Make Make positions"),
    ("# no game line", r"^the line 'game: …' is missing"),
])
def test_a_text_of_another_game_says_whose_it_is(game_line, message):
    """Hardening: a Maka Bana text was refused for its key 'season'; the game line is read first."""
    with pytest.raises(ValueError, match=message):
        makemake_env.from_text(f"{game_line}\nplayers: 3\nseason: 1\nplayer_0 explorer 1: unplaced\n")


def test_a_key_given_twice_is_refused_on_every_line():
    """Hardening, as for Mauna Kea's reader (which took the last of two lines)."""
    *_, state = decisions(3, 1)
    lines = makemake_env.to_text(state).splitlines()
    for number, line in enumerate(lines, 1):
        key = line.partition(":")[0]
        with pytest.raises(ValueError, match=rf"^line {len(lines) + 1} \({key}\): {key} is given twice "
                                             rf"\(first on line {number}\)$"):
            makemake_env.from_text("\n".join(lines + [line]))


def test_last_actions_are_read_only_and_record_passes():
    """Issue 25, What 4: the last action of every clan, passes included, as an immutable tuple of named
    tuples; the input is validated."""
    env = makemake_env.raw_env(num_players=2)
    env.reset(seed=3)
    assert makemake_env.last_actions(env.state()) == (
        makemake_env.LastAction(0, None, False, "none"), makemake_env.LastAction(1, None, False, "none"))
    action = int(np.flatnonzero(env.observe("player_0")["action_mask"])[0])
    env.step(action)
    view = makemake_env.last_actions(env.state())
    assert view[0] == (0, action, False, makemake_env.describe_action(action)) and view[1].action is None
    with pytest.raises((TypeError, AttributeError)):
        view[0] = None
    with pytest.raises(AttributeError):
        view[0].action = 3
    from makemake_positions import new_game, place, stalemate_position
    env = new_game(2)
    env.step(place(stalemate_position(env, 2)[0], 1))
    assert [last.name for last in makemake_env.last_actions(env.state())] == ["pass", "pass"]
    with pytest.raises(ValueError, match="invalid state"):
        makemake_env.last_actions(np.zeros(core.STATE_SIZE, np.int64))


def test_last_actions_are_kept_in_step_by_the_batch_and_the_reference():
    """Issue 25, What 4: BatchEnv's kernels and the reference rules record the same last actions as
    the kernels (the reference comparison in test_makemake_reference checks every step)."""
    from makemake_env.reference import ReferenceGame
    batch = makemake_env.BatchEnv(2, seed=11, num_players=3, max_turns=80, autoreset=False)
    single = np.zeros(core.STATE_SIZE, np.int64)
    core.init(single, 3, 0, 80, 11)
    game = ReferenceGame(3, 80)
    gens = np.zeros(1, np.int64)
    seed_action_generators(np.array([11]), gens)   # the batch's generator for its game 0
    while single[core.STATUS] == core.STATUS_RUNNING:
        actions = batch.random_actions()
        assert core.random_action_with(single, gens, 0) == actions[0]
        batch.step(actions)
        core.step(single, int(actions[0]))
        game.step(int(actions[0]))
        np.testing.assert_array_equal(batch.states[0], single)
        names = [{core.NO_ACTION: None, core.PASSED: "pass"}.get(int(x), int(x))
                 for x in single[core.LAST_ACTION:core.LAST_ACTION + 3]]
        assert names == game.last_action


def test_the_observation_leaves_last_actions_out():
    """RULES.md, Last actions (decision): the observation is unchanged by the record (a pass changes
    nothing on the board, and the shipped networks read the observation as it was)."""
    s = makemake_env.from_text(MINIMAL)
    t = makemake_env.from_text(MINIMAL + "last: Red place 2 tokens and the chief on Sacred-1\n")
    a, b = np.zeros(core.OBS_SIZE, np.int8), np.zeros(core.OBS_SIZE, np.int8)
    core.observe(s, 1, a)
    core.observe(t, 1, b)
    np.testing.assert_array_equal(a, b)
