"""Issue 23 for Make Make: validated states and the checked faces of the kernels (``makemake_env.core``).

- ``kernels.validate`` accepts every state that play reaches (random games of every player count and
  of several ``max_turns``, and the rows the search plays out from its determinizations), and each of
  its rules rejects a row that breaks it, naming the entry;
- every example of the issue's first paragraph gets a clear ``ValueError``;
- every public kernel has a checked face in ``core`` with the same name and signature, which refuses
  bad arrays and integers with a ``ValueError`` naming the argument.

The fuzz tests (arbitrary rows) are in ``test_makemake_fuzz.py``.
"""
import inspect

import numpy as np
import pytest

import makemake_env
from makemake_env import core, kernels
from makemake_env.board import GROUND_TERRITORIES, TERRITORY_INDEX
from makemake_positions import BLUE, GREEN, RED, place, position, new_game
from pacific_common.aec import CoreAECEnv


def random_game_states(num_players, seed, max_turns=1000):
    """Every state of one random game, from the game's own generator."""
    s = np.zeros(kernels.STATE_SIZE, np.int64)
    kernels.init(s, num_players, kernels.VARIANT_STANDARD, max_turns, seed)
    yield s.copy()
    while s[kernels.STATUS] == kernels.STATUS_RUNNING:
        assert kernels.step(s, kernels.random_action(s)) == kernels.STEP_OK
        yield s.copy()


def assert_valid(s, where):
    code, offset = kernels.validate(s)
    assert code == 0, f"{where}: {core.REASONS[code]} at offset {offset}"


# -- every state of play is valid ------------------------------------------------------------------------
@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_validate_accepts_every_state_of_random_games(num_players):
    """Issue 23, What 1: the validator accepts every state reachable by random play, truncations
    (short ``max_turns``) and stalemates included."""
    ends = set()
    for seed in range(60):
        max_turns = (3, 20, 1000)[seed % 3]
        for i, s in enumerate(random_game_states(num_players, seed, max_turns)):
            assert_valid(s, f"{num_players} clans, seed {seed}, step {i}")
        ends.add(int(kernels.end_code(s)))
    assert kernels.END_TRUNCATED in ends


def test_validate_accepts_every_state_of_games_won():
    """Issue 23, What 1: random play seldom wins, the heuristic does; every state of its games is valid,
    the won ones included."""
    from agents.baselines import makemake as heuristic
    ends = []
    for num_players, seed in ((2, 0), (3, 0), (4, 1)):
        s = np.zeros(kernels.STATE_SIZE, np.int64)
        kernels.init(s, num_players, kernels.VARIANT_STANDARD, 400, seed)
        obs, mask = np.zeros(kernels.OBS_SIZE, np.int8), np.zeros(kernels.NUM_ACTIONS, np.int8)
        noise = np.random.default_rng(seed).random(kernels.NUM_ACTIONS) * 1e-6
        while s[kernels.STATUS] == kernels.STATUS_RUNNING:
            kernels.observe_player(s, int(s[kernels.TO_ACT]), obs, mask)
            assert kernels.step(s, heuristic.act(obs, mask, noise, num_players)) == kernels.STEP_OK
            assert_valid(s, f"heuristic game, {num_players} clans, seed {seed}")
        ends.append(int(kernels.end_code(s)))
    assert kernels.END_WIN in ends


def test_validate_accepts_the_states_of_the_search():
    """Issue 23, What 1: the search reseeds the row's generator (``determinize``) and plays on with its
    rollout policy; every row it reaches is valid."""
    from agents.search import makemake as search
    for num_players in (2, 3, 4):
        for seed in range(8):
            for i, s in enumerate(random_game_states(num_players, seed)):
                if i % 7 or s[kernels.STATUS] != kernels.STATUS_RUNNING:
                    continue
                row = s.copy()
                search.determinize(row, int(row[kernels.TO_ACT]), seed * 1000 + i, 0)
                assert_valid(row, "determinized")
                for _ in range(30):
                    if row[kernels.STATUS] != kernels.STATUS_RUNNING:
                        break
                    assert kernels.step(row, search.rollout_action(row)) == kernels.STEP_OK
                    assert_valid(row, f"rollout from {num_players} clans, seed {seed}, step {i}")


def test_passes_are_recorded():
    """Issue 25, What 4 (and RULES.md, Last actions): a clan with no legal dominance action passes
    without being asked, and the pass is recorded: RULES.md's stalemate position, Red places its last
    token; Blue and Green then pass, and so does Red."""
    s = stalemate()
    assert s[core.STATUS] == core.STATUS_TERMINATED
    assert s[core.LAST_ACTION + BLUE] == s[core.LAST_ACTION + GREEN] == core.PASSED
    assert s[core.LAST_ACTION + RED] == core.PASSED      # the third pass in a row ends the game
    core.check_state(s)


# -- each rule of the validator ------------------------------------------------------------------------------
def start(num_players=3):
    s = np.zeros(core.STATE_SIZE, np.int64)
    core.init(s, num_players, 0, 1000, 7)
    return s


def occupied(num_players=3):
    """A valid position with pieces of every kind: Red holds Sacred-1 … 3 (the amulet), Blue a ceremony."""
    env = position(new_game(num_players),
                   {"Sacred-1": (RED, 2), "Sacred-2": RED, "Sacred-3": RED, "Coast-1": BLUE, "Coast-2": BLUE,
                    "Inner-1": BLUE},
                   chiefs={RED: "Sacred-1"}, manu={"Ground-" + str(ground_number("Coast-1", "Coast-2", "Inner-1")): BLUE})
    return env.state()


def stalemate():
    """RULES.md's stalemate, reached by play: every clan's tokens on the board, nothing to celebrate."""
    from makemake_positions import stalemate_position
    env = new_game(3)
    env.step(place(stalemate_position(env, 3)[0], 1))
    return env.state()


def ground_number(*names):
    wanted = sorted(TERRITORY_INDEX[n] for n in names)
    return 1 + next(g for g, ts in enumerate(GROUND_TERRITORIES.tolist()) if sorted(ts) == wanted)


def edit(s, **entries):
    s = s.copy()
    for name, value in entries.items():
        field, _, index = name.partition("__")
        s[getattr(core, field) + (int(index) if index else 0)] = value
    return s


SACRED_1 = TERRITORY_INDEX["Sacred-1"]
COAST_1 = TERRITORY_INDEX["Coast-1"]
INNER_1 = TERRITORY_INDEX["Inner-1"]
BAD_ROWS = {
    # name: (row builder, field named in the message)
    "num_players 5": (lambda: edit(start(), NUM_PLAYERS=5), "NUM_PLAYERS"),
    "unknown variant": (lambda: edit(start(), VARIANT=1), "VARIANT"),
    "max_turns 0": (lambda: edit(start(), MAX_TURNS=0), "MAX_TURNS"),
    "status 7": (lambda: edit(start(), STATUS=7), "STATUS"),
    "phase 9": (lambda: edit(start(), PHASE=9), "PHASE"),
    "over while running": (lambda: edit(start(), PHASE=core.PHASE_OVER), "PHASE"),
    "to_act 3 of 3": (lambda: edit(start(), TO_ACT=3), "TO_ACT"),
    "turn past max_turns": (lambda: edit(start(), TURN=1001), "TURN"),
    "to_act out of turn": (lambda: edit(start(), TURN=1), "TO_ACT"),
    "rng 0": (lambda: edit(start(), RNG=0), "RNG"),
    "negative seed": (lambda: edit(start(), SEED=-5), "SEED"),
    "amulet of clan 3": (lambda: edit(start(), AMULET=3), "AMULET"),
    "winner -2": (lambda: edit(start(), WINNER=-2), "WINNER"),
    "Moai 2": (lambda: edit(start(), **{f"MOAI__{INNER_1}": 2}), f"MOAI[{INNER_1}]"),
    "Moai on the coast": (lambda: edit(start(), **{f"MOAI__{COAST_1}": 1, "MOAI_LEFT": 11}), f"MOAI[{COAST_1}]"),
    "owner 3 of 3": (lambda: edit(start(), **{f"OWNER__{COAST_1}": 3}), f"OWNER[{COAST_1}]"),
    "neutral with tokens": (lambda: edit(start(), **{f"TOKENS__{COAST_1}": 2}), f"TOKENS[{COAST_1}]"),
    "chief off its clan's territory": (lambda: edit(start(), CHIEF_AT__1=COAST_1), "CHIEF_AT[1]"),
    "ground 10**6": (lambda: edit(start(), GROUND=10**6), "GROUND[0]"),
    "unprotected ceremony": (lambda: edit(start(), GROUND__4=BLUE, MANU_SUPPLY__1=4), "GROUND[4]"),
    "tokens not adding up": (lambda: edit(start(), TOKEN_SUPPLY__2=10), "TOKEN_SUPPLY[2]"),
    "Tangata Manu not adding up": (lambda: edit(start(), MANU_SUPPLY__0=6), "MANU_SUPPLY[0]"),
    "more than 11 tokens on the board": (lambda: edit(occupied(), **{f"TOKENS__{SACRED_1}": 11, "TOKEN_SUPPLY__0": -1}),
                                         "TOKEN_SUPPLY[0]"),
    "Moai left not adding up": (lambda: edit(start(), MOAI_LEFT=3), "MOAI_LEFT"),
    "supremacy without the amulet": (lambda: edit(occupied(), AMULET=-1), "AMULET"),
    "winner without the win": (lambda: edit(occupied(), WINNER=RED, STATUS=1, PHASE=3), "WINNER"),
    "Moai choice without two Moai": (lambda: edit(start(), PHASE=core.PHASE_MOAI), "PHASE"),
    "ceremony choice without grounds": (lambda: edit(start(), PHASE=core.PHASE_CEREMONY), "PHASE"),
    "dominance asked without an action": (lambda: edit(stalemate(), STATUS=0, PHASE=0), "PHASE"),
    "stalemate with moves left": (lambda: edit(start(), STATUS=1, PHASE=3), "STATUS"),
    "last action 912": (lambda: edit(start(), LAST_ACTION__0=912), "LAST_ACTION[0]"),
    "last action before the first turn": (lambda: edit(start(), LAST_ACTION__2=5), "LAST_ACTION[2]"),
    "last Moai where none stands": (lambda: edit(start(), TURN=3, LAST_ACTION__1=core.MOAI_BASE + INNER_1),
                                    "LAST_ACTION[1]"),
}


@pytest.mark.parametrize("case", sorted(BAD_ROWS))
def test_each_rule_of_the_validator_names_the_entry(case):
    """Issue 23, What 1: every rule of the validator rejects a row that breaks it, and the message names
    the entry, its value and the rule (``pacific_common.checked.invalid_state``)."""
    build, field = BAD_ROWS[case]
    row = build()
    with pytest.raises(ValueError, match=r"invalid state: " + field.replace("[", r"\[").replace("]", r"\]")
                       + " = "):
        core.check_state(row)


def test_every_reason_is_reachable():
    """Every reason of ``REASONS`` is given by some row in ``BAD_ROWS`` (no dead rule, no untested one)."""
    codes = {core.validate(build())[0] for build, _ in BAD_ROWS.values()}
    assert codes == set(range(1, len(core.REASONS)))


def test_fields_cover_the_row_in_order():
    """``FIELDS`` names every entry of the row exactly once, as the kernels spell the offsets."""
    at = 0
    for name, start_, length in core.FIELDS:
        assert start_ == at and getattr(kernels, name) == start_
        at += length
    assert at == core.STATE_SIZE


# -- the issue's first paragraph ------------------------------------------------------------------------
def test_issue_23_out_of_range_ground_is_a_value_error():
    """Issue 23, Why: ``s[GROUND] = 10**6`` crashed the process through set_state."""
    s = makemake_env.raw_env().state()
    s[core.GROUND] = 10**6
    with pytest.raises(ValueError, match=r"GROUND\[0\] = 1000000: a ceremonial ground holds"):
        core.check_state(s)


@pytest.mark.parametrize("field, value", [("STATUS", 3), ("PHASE", 4), ("STATUS", -1), ("PHASE", -1)])
def test_issue_23_bad_status_or_phase_is_a_value_error(field, value):
    """Issue 23, Why: a bad STATUS or PHASE gave a game that could never move."""
    s = makemake_env.raw_env().state()
    s[getattr(core, field)] = value
    with pytest.raises(ValueError, match=f"invalid state: {field} = {value}"):
        core.check_state(s)


@pytest.mark.parametrize("value", [4, -1, 10**9])
def test_issue_23_bad_to_act_is_a_value_error(value):
    """Issue 23, Why: a bad TO_ACT raised IndexError after the row was copied in."""
    s = makemake_env.raw_env(num_players=4).state()
    s[core.TO_ACT] = value
    with pytest.raises(ValueError, match=f"invalid state: TO_ACT = {value}: the clan to act must be"):
        core.check_state(s)


def test_issue_23_pieces_that_do_not_add_up_are_a_value_error():
    """Issue 23, Why: inconsistent rows were accepted silently -- here a token on the board that is
    still counted in Red's supply."""
    s = makemake_env.raw_env().state()
    s[core.OWNER + COAST_1], s[core.TOKENS + COAST_1] = RED, 1
    with pytest.raises(ValueError, match=r"TOKEN_SUPPLY\[0\] = 11: tokens on the board plus in supply"):
        core.check_state(s)


def test_issue_23_init_on_a_short_array_is_a_value_error():
    """Issue 23, Why: ``core.init(np.zeros(10, np.int64), 4, 0, 100, 0)`` crashed."""
    with pytest.raises(ValueError, match=r"state must be a 1-D C-contiguous numpy array of int64 with 184"):
        core.init(np.zeros(10, np.int64), 4, 0, 100, 0)


def test_check_state_takes_any_integer_row_and_refuses_others():
    s = makemake_env.raw_env().state()
    s[core.RNG], s[core.SEED] = 12345, 5       # values an int32 row can hold
    core.check_state(s.astype(np.int32))
    core.check_state(s.tolist())
    for bad in (s.astype(np.float64), s[:-1], s.reshape(2, -1), "state", s.astype(bool)):
        with pytest.raises(ValueError, match="state must be an integer array"):
            core.check_state(bad)


def _set_state_checks():
    """Whether ``pacific_common.aec`` already calls ``checked.check_state`` in ``set_state`` (the
    contract of issue 23 with the engineer who owns it)."""
    class Probe(makemake_env.raw_env):
        class checked:
            @staticmethod
            def check_state(state):
                raise LookupError("probe")
    try:
        Probe().set_state(makemake_env.raw_env().state())
    except LookupError:
        return True
    return False


@pytest.mark.skipif(not _set_state_checks(), reason="CoreAECEnv.set_state does not call checked.check_state yet")
def test_issue_23_set_state_refuses_a_bad_row_and_keeps_the_game():
    """Issue 23, What 1: set_state validates before copying anything; a rejected row leaves the
    environment exactly as it was."""
    env = makemake_env.raw_env()
    env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    before, selection = env.state(), env.agent_selection
    for field, value in (("GROUND", 10**6), ("STATUS", 5), ("PHASE", 7), ("TO_ACT", 9)):
        bad = env.state()
        bad[getattr(core, field)] = value
        with pytest.raises(ValueError, match=f"invalid state: {field}"):
            env.set_state(bad)
        np.testing.assert_array_equal(env.state(), before)
        assert env.agent_selection == selection


def test_raw_env_and_batch_env_name_the_checked_faces():
    """Issue 23, contract: ``raw_env.checked`` and ``BatchEnv.checked`` are the ``core`` module, whose
    ``check_state`` the generic ``set_state`` calls before copying anything."""
    assert makemake_env.raw_env.checked is core and makemake_env.BatchEnv.checked is core
    assert issubclass(makemake_env.raw_env, CoreAECEnv)


# -- the checked faces ----------------------------------------------------------------------------------------
def public_kernels():
    return sorted(name for name, f in vars(kernels).items()
                  if hasattr(f, "py_func") and not name.startswith("_") and f.__module__ == kernels.__name__)


def test_every_public_kernel_has_a_checked_face_with_its_signature():
    """Issue 23, What 2: every public kernel keeps its name and signature in ``core``, as a Python
    function (not the kernel itself); the kernels' imported helpers are not offered unchecked."""
    for name in public_kernels():
        face = getattr(core, name)
        assert face is not getattr(kernels, name) and not hasattr(face, "py_func"), name
        assert inspect.signature(face) == inspect.signature(getattr(kernels, name).py_func), name
    for helper in ("draw", "seed_rng", "margins", "relative", "seat_after", "following_seed"):
        assert not hasattr(core, helper)
    assert core.STATE_SIZE == kernels.STATE_SIZE and core.GROUND == kernels.GROUND


def test_faces_refuse_bad_arrays():
    s = start()
    mask = np.zeros(core.NUM_ACTIONS, np.int8)
    obs = np.zeros(core.OBS_SIZE, np.int8)
    with pytest.raises(ValueError, match="state must be .* int64 with 184 entries"):
        core.step(s.astype(np.int32), 0)
    with pytest.raises(ValueError, match="state must be .*, got a non-contiguous view"):
        core.legal_action_mask(np.repeat(s, 2)[::2], mask)
    frozen = s.copy()
    frozen.flags.writeable = False
    with pytest.raises(ValueError, match="state must be writeable"):
        core.step(frozen, 0)
    core.legal_action_mask(frozen, mask)   # reading a read-only row is fine
    with pytest.raises(ValueError, match="mask must be .* int8 with 912 entries"):
        core.legal_action_mask(s, np.zeros(10, np.int8))
    with pytest.raises(ValueError, match="obs must be .* int8"):
        core.observe(s, 0, np.zeros(core.OBS_SIZE, np.int64))
    with pytest.raises(ValueError, match="out must be a 1-D numpy array of float64 or float32 with 3"):
        core.rewards(s, 0, np.zeros(3, np.int64))
    with pytest.raises(ValueError, match="out must be .* with 3 entries"):
        core.rewards(s, 0, np.zeros(4))
    with pytest.raises(ValueError, match="out must be .* with 3 entries"):
        core.player_scores(s, np.zeros(2, np.int64))
    with pytest.raises(ValueError, match="invalid state: PHASE"):
        core.observe_player(edit(s, PHASE=8), 0, obs, mask)


def test_faces_check_integers():
    """Integer-like values are accepted (numpy integers, 0-d arrays as stable-baselines3's ``predict``
    returns them); anything else, or out of range, is a ValueError naming the argument."""
    s = start()
    action = place("Coast-1", 1)
    assert core.is_legal(s, np.array(action)) and core.is_legal(s, np.int16(action))
    assert core.step(s.copy(), np.array(action)) == core.STEP_OK
    assert core.step(s, core.NUM_ACTIONS) == core.STEP_ILLEGAL     # outside the space: illegal, as in the kernel
    for bad in (2**70, 1.0, "3", True, None):
        with pytest.raises(ValueError, match="action must be an integer"):
            core.step(s, bad)
    with pytest.raises(ValueError, match="clan must be an integer from 0 to 2, got 3"):
        core.sacred_count(s, 3)
    with pytest.raises(ValueError, match="t must be an integer from 0 to 35, got 36"):
        core.strength(s, 36)
    with pytest.raises(ValueError, match="g must be an integer from 0 to 47, got -1"):
        core.protected(s, -1, 0)
    with pytest.raises(ValueError, match="view must be an integer from 0 to 2"):
        core.observe(s, 3, np.zeros(core.OBS_SIZE, np.int8))
    with pytest.raises(ValueError, match="k must be an integer from 1 to 11"):
        core.placement_legal(s, 0, 0, 12, False)
    with pytest.raises(ValueError, match="chief must be an integer from 0 to 1"):
        core.placement_legal(s, 0, 0, 1, 2)
    with pytest.raises(ValueError, match="mode must be an integer from 0 to 2"):
        core.rewards(s, 3, np.zeros(3))
    for name, args in (("num_players", (5, 0, 10, 0)), ("variant", (3, 1, 10, 0)),
                       ("max_turns", (3, 0, 0, 0)), ("seed", (3, 0, 10, -1)), ("seed", (3, 0, 10, 2**64))):
        with pytest.raises(ValueError, match=f"{name} must be an integer"):
            core.init(np.zeros(core.STATE_SIZE, np.int64), *args)


def test_faces_give_what_the_kernels_give():
    """The faces only check: on valid arguments they return what the kernels return."""
    for s in list(random_game_states(3, 11))[::10]:
        mask_k, mask_c = np.zeros(core.NUM_ACTIONS, np.int8), np.zeros(core.NUM_ACTIONS, np.int8)
        kernels.legal_action_mask(s, mask_k)
        core.legal_action_mask(s, mask_c)
        np.testing.assert_array_equal(mask_k, mask_c)
        for clan in range(3):
            assert core.sacred_count(s, clan) == kernels.sacred_count(s, clan)
            assert core.has_dominance_action(s, clan) == kernels.has_dominance_action(s, clan)
        a, b = s.copy(), s.copy()
        assert core.random_action(a) == kernels.random_action(b)
        np.testing.assert_array_equal(a, b)


def test_turn_percent_does_not_overflow():
    """A valid row with a huge ``max_turns`` shows the exact share of turns played (``turn * 100``
    would leave the int64 range)."""
    for limit, turn in ((2**63 - 1, 2**62), (10**18, 10**18 - 1), (3 * 10**17, 10**17), (2**60, 2**57)):
        s = edit(start(), MAX_TURNS=limit, TURN=turn - turn % 3)
        assert core.turn_percent(s) == (turn - turn % 3) * 100 // limit
