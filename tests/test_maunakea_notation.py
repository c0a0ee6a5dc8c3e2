"""Issue 25, "Positions, game records and actions by name", for Mauna Kea (``maunakea_env.notation``).

* Round trips on every decision of random games of both variants and every player count: the
  position notation (``from_text(to_text(s)) == s`` entry for entry, ``to_text(from_text(t)) == t``)
  and the action names (``parse_action(describe_action(a, s), s) == a`` for every legal action).
  ``ROUNDTRIP_GAMES`` (environment variable) sets the games per variant, shared out evenly over the
  player counts; the suite plays a few (the issue's figure: ``ROUNDTRIP_GAMES=1000 python -m pytest
  tests/test_maunakea_notation.py -k round_trip``).
* A wrong text names its line and the entry; an unknown action name lists the closest names.
* The explorers view.
"""
import os
import re

import numpy as np
import pytest

import maunakea_env
from maunakea_env import core, kernels
from maunakea_env.notation import Explorer, describe_action, explorers, from_text, parse_action, to_text

GAMES = int(os.environ.get("ROUNDTRIP_GAMES", "3"))
PLAYER_COUNTS = [2, 3, 4]
GAMES_EACH = -(-GAMES // len(PLAYER_COUNTS))   # per player count, rounded up
VARIANTS = [kernels.VARIANT_BASIC, kernels.VARIANT_ADVANCED]


def check_decision(state, mask):
    text = to_text(state)
    back = from_text(text)
    assert back.dtype == np.int64 and np.array_equal(back, state), np.flatnonzero(back != state)
    assert to_text(back) == text
    kernels.legal_action_mask(state, mask)
    for action in np.flatnonzero(mask).tolist():
        assert parse_action(describe_action(action, state), state) == action


def roundtrip_games(num_players, variant, games, first_seed=0):
    """Play ``games`` random games, checking every decision; returns the decisions checked."""
    mask = np.zeros(kernels.NUM_ACTIONS_OF_VARIANT[variant], np.int8)
    decisions = 0
    for seed in range(first_seed, first_seed + games):
        state = np.zeros(kernels.STATE_SIZE, np.int64)
        kernels.init(state, num_players, variant, 300, seed)
        while True:
            check_decision(state, mask)
            decisions += 1
            if state[kernels.STATUS] != kernels.STATUS_RUNNING:
                break
            kernels.step(state, kernels.random_action(state))
    return decisions


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_notation_and_action_names_round_trip_on_every_decision(num_players, variant):
    """Issue 25, Done when: round trips on every decision of random games (1,002 per variant when
    ROUNDTRIP_GAMES=1000)."""
    assert roundtrip_games(num_players, variant, GAMES_EACH, first_seed=10_000 * num_players) > 10 * GAMES_EACH


def test_every_action_name_parses_back_and_ignores_case_and_spaces():
    for action in range(kernels.NUM_ACTIONS_ADVANCED):
        name = describe_action(action)
        assert parse_action(name) == action
        assert parse_action(f"  {name.upper()} ") == action
    assert describe_action(np.array(kernels.END_TURN)) == "end the turn"


def test_unknown_action_names_the_closest():
    with pytest.raises(ValueError, match="unknown action 'move explorer 2 wst'; closest: move explorer 2 west"):
        parse_action("move explorer 2 wst")
    with pytest.raises(ValueError, match="actions read like: place an explorer on D4-se"):
        parse_action("fly away")
    basic = maunakea_env.raw_env(num_players=2).state()
    with pytest.raises(ValueError, match="rules for advanced players, and this is a basic game"):
        parse_action("draw a tile after the earthquake", basic)
    assert parse_action("draw a tile after the earthquake") == kernels.QUAKE_DRAW


def test_describe_action_out_of_the_state_space():
    basic = maunakea_env.raw_env(num_players=2).state()
    assert "outside" in describe_action(kernels.QUAKE_DRAW, basic)
    assert describe_action(kernels.QUAKE_DRAW) == "draw a tile after the earthquake"
    assert maunakea_env.env.__module__ != "maunakea_env.notation"  # env() stays the function
    assert maunakea_env.describe_action is describe_action


def test_a_wrong_text_names_the_line_and_the_entry():
    state = maunakea_env.raw_env(num_players=2).state()
    lines = to_text(state).splitlines()
    number = next(i for i, line in enumerate(lines) if line.startswith("pool:"))
    lines[number] = "pool: 99"
    with pytest.raises(ValueError, match=rf"line {number + 1} \(pool\): POOL = 99: the movement pool"):
        from_text("\n".join(lines))
    lines[number] = "pool: many"
    with pytest.raises(ValueError, match=rf"line {number + 1} \(pool\): 'many' is not a whole number"):
        from_text("\n".join(lines))
    with pytest.raises(ValueError, match=r"line 3 \(tile A9\): 'X1' is no tile"):
        from_text("game: Mauna Kea\nplayers: 2\ntile A9: X1 turned 0\n")
    with pytest.raises(ValueError, match=r"line 3 \(colour\): unknown key"):
        from_text("game: Mauna Kea\nplayers: 2\ncolour: red\n")
    with pytest.raises(ValueError, match=r"line 3 \(tile E5\): TERRAIN|line 3 \(tile E5\): FIELD_TILE"):
        from_text("game: Mauna Kea\nplayers: 2\ntile E5: T0 turned 0\n")   # the volcano takes no tile


def mid_game_text(num_players, variant, steps=80, seed=2):
    """A position after ``steps`` random actions: explorers out, tiles laid, artifacts carried."""
    state = np.zeros(kernels.STATE_SIZE, np.int64)
    kernels.init(state, num_players, variant, 300, seed)
    for _ in range(steps):
        if state[kernels.STATUS] != kernels.STATUS_RUNNING:
            break
        kernels.step(state, kernels.random_action(state))
    return to_text(state)


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_key_given_twice_is_refused_on_every_line(variant):
    """Hardening: a repeated line was read, the last one winning; the lines per player and per
    explorer have keys of their own, so only the same key twice is a repeat."""
    lines = mid_game_text(3, variant).splitlines()
    for number, line in enumerate(lines, 1):
        key = re.escape(line.partition(":")[0])
        with pytest.raises(ValueError, match=rf"^line {len(lines) + 1} \({key}\): {key} is given twice "
                                             rf"\(first on line {number}\)$"):
            from_text("\n".join(lines + [line]))


def test_two_spellings_of_one_key_are_a_key_given_twice():
    base = "game: Mauna Kea\nplayers: 2\nplayer_0 explorer 1: unplaced\n"
    with pytest.raises(ValueError, match=r"^line 4 \(player_0  explorer 1\): player_0 explorer 1 is given twice"):
        from_text(base + "player_0  explorer 1: lost\n")
    with pytest.raises(ValueError, match=r"^line 4 \(player_0 explorer 01\): player_0 explorer 1 is given already "
                                         r"by line 3$"):
        from_text(base + "player_0 explorer 01: lost\n")
    with pytest.raises(ValueError, match=r"^line 3 \(hand player_00\): 'player_00' is not a player of this game"):
        from_text("game: Mauna Kea\nplayers: 2\nhand player_00: none\n")


@pytest.mark.parametrize("line,message", [
    (": 5", r"^line 3: ': 5' has no key before the ':'; the keys are listed in RULES.md"),
    ("player_0 explorer 1:", r"^line 3 \(player_0 explorer 1\): write the explorer's square or one of unplaced, "
                             r"in a boat, lost, rescued"),
    (f"end: {kernels.END_REASON_NAMES[1]}, final turns left {'9' * 20}",
     r"^line 3 \(end\): 99999999999999999999 is not in 0 … 9223372036854775807$"),
    ("turn: " + "9" * 5000, r"^line 3 \(turn\): a number of 5000 characters is not in 0 … 9223372036854775807$"),
    ("removed artifacts: 9223372036854775807 white, 1 white",
     r"^line 3 \(removed artifacts\): a colour's artifacts add up to more than 2\*\*63 - 1$"),
    ("flow open arrow: B5 west 99999999999999999999 open; - north 0 closed",
     r"^line 3 \(flow open arrow\): 99999999999999999999 is not in 0 … 9223372036854775807$"),
])
def test_a_line_that_cannot_be_taken_apart_names_the_line_and_the_key(line, message):
    """Hardening: these ended in IndexError, AttributeError or OverflowError, reported as a text that
    cannot be read, with no line."""
    with pytest.raises(ValueError, match=message):
        from_text(f"game: Mauna Kea\nplayers: 2\n{line}\n")


@pytest.mark.parametrize("variant", VARIANTS)
def test_huge_numbers_on_every_line_name_the_line(variant):
    text = mid_game_text(2, variant)
    lines = text.splitlines()
    for number, line in enumerate(lines, 1):
        key, _, value = line.partition(":")
        if re.search(r"[0-9]", value):
            with pytest.raises(ValueError, match=rf"^line {number} \({re.escape(key)}\): "):
                from_text(text.replace(line, key + ":" + re.sub(r"[0-9]+", "9" * 20, value)))


@pytest.mark.parametrize("game_line,message", [
    ("game: Make Make", r"^line 1 \(game\): this is a Make Make position; maunakea_env.from_text reads Mauna Kea "
                        r"positions$"),
    ("game: Maka Bana", r"^line 1 \(game\): this is a Maka Bana position; maunakea_env.from_text reads Mauna Kea "
                        r"positions$"),
    ("game: Chess", r"^line 1 \(game\): unknown game 'Chess'; maunakea_env.from_text reads Mauna Kea positions"),
    ("game: mauna kea", r"^line 1 \(game\): the game is written 'Mauna Kea', got 'mauna kea'$"),
    ("# no game line", r"^the first lines must name the game \('game: Mauna Kea'\)"),
])
def test_a_text_of_another_game_says_whose_it_is(game_line, message):
    """Hardening: the game line is read before the keys, which another game's text has others of."""
    with pytest.raises(ValueError, match=message):
        from_text(f"{game_line}\nplayers: 3\nseason: 1\nterritories: Sacred-1 Red\n")


def test_the_set_up_position_takes_three_lines():
    """RULES.md, Position notation: every line not written keeps the set-up position."""
    state = from_text("game: Mauna Kea\nplayers: 3\nseed: 7\n")
    fresh = np.zeros(kernels.STATE_SIZE, np.int64)
    core.init(fresh, 3, kernels.VARIANT_BASIC, 300, 7)
    assert np.array_equal(state, fresh)


def test_explorers_view_is_read_only_and_validated():
    env = maunakea_env.raw_env(num_players=2)
    env.reset(seed=1)
    env.step(parse_action("place an explorer on D4-nw"))
    view = explorers(env.state())
    assert view[0] == Explorer(0, 0, "on the island", "D4-nw", (0, 0, 0))
    assert view[5] == Explorer(1, 0, "unplaced", None, (0, 0, 0)) and len(view) == 10
    with pytest.raises((AttributeError, TypeError)):
        view[0].square = "A1-nw"
    broken = env.state()
    broken[kernels.OCCUPANT + 3] = 7
    with pytest.raises(ValueError, match=r"OCCUPANT\[3\] = 7"):
        explorers(broken)
