"""Issue 23, "No input crashes the interpreter", for Mauna Kea: the validator (``kernels.validate``,
``core.check_state``) and the checked faces of ``maunakea_env.core``.

* The validator accepts every state play reaches: after every step of random games of both variants
  and every player count, and on the rows the search builds by determinization.
* Every example of the issue gets a clear ``ValueError``.
* Fuzzing (hypothesis): arbitrary int64 rows, and valid rows with a few entries set to arbitrary
  values, go through ``core.check_state`` and the checked faces.  Each is refused with a
  ``ValueError`` or, if accepted, plays on under random play through the ``core`` faces with
  ``kernels.validate`` holding after every step.  This runs in a child process, so that a crash of
  the interpreter is a failed test and not a dead suite.
"""
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import maunakea_env
from agents.search.maunakea import determinize
from maunakea_env import core, kernels
from pacific_common.checked import field_name

VARIANTS = [kernels.VARIANT_BASIC, kernels.VARIANT_ADVANCED]
PLAYER_COUNTS = [2, 3, 4]
INT64 = st.integers(-2**63, 2**63 - 1)


def new_row(num_players=2, variant=kernels.VARIANT_BASIC, seed=0, max_turns=300):
    state = np.zeros(kernels.STATE_SIZE, np.int64)
    core.init(state, num_players, variant, max_turns, seed)
    return state


def played_row(num_players=2, variant=kernels.VARIANT_BASIC, seed=0, steps=150):
    """A row some random decisions into a game (the turn phase, lava and boats on the way)."""
    state = new_row(num_players, variant, seed)
    for _ in range(steps):
        if state[kernels.STATUS] != kernels.STATUS_RUNNING:
            break
        kernels.step(state, kernels.random_action(state))
    return state


# ---------------------------------------------------------------------------------------------------
# The tables
def test_fields_cover_the_row_and_are_named_as_the_offsets():
    covered = np.zeros(kernels.STATE_SIZE, int)
    for name, start, length in kernels.FIELDS:
        assert getattr(kernels, name) == start, name
        covered[start:start + length] += 1
    assert (covered == 1).all()
    assert field_name(kernels.FIELDS, kernels.OCCUPANT + 17) == "OCCUPANT[17]"
    assert field_name(kernels.FIELDS, kernels.TO_ACT) == "TO_ACT"
    assert core.FIELDS is kernels.FIELDS and core.REASONS is kernels.REASONS and core.REASONS[0] == "valid"


def test_core_has_a_checked_face_for_every_public_kernel_with_its_signature():
    import inspect
    for name, kernel in vars(kernels).items():
        if name.startswith("_") or not hasattr(kernel, "py_func"):
            continue
        face = getattr(core, name)
        assert face.__module__ == "maunakea_env.core", name
        assert inspect.signature(face) == inspect.signature(kernel.py_func), name
    assert core.STATE_SIZE == kernels.STATE_SIZE and core.MOVE_BASE == kernels.MOVE_BASE
    assert maunakea_env.raw_env.checked is core and maunakea_env.BatchEnv.checked is core


# ---------------------------------------------------------------------------------------------------
# Every state play reaches is valid
@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_validator_accepts_every_state_of_random_games(num_players, variant):
    games = 6
    for seed in range(games):
        state = new_row(num_players, variant, seed)
        assert kernels.validate(state) == (0, 0)
        while state[kernels.STATUS] == kernels.STATUS_RUNNING:
            kernels.step(state, kernels.random_action(state))
            code, offset = kernels.validate(state)
            assert code == 0, (seed, kernels.REASONS[code], field_name(kernels.FIELDS, offset))


@pytest.mark.parametrize("variant", VARIANTS)
def test_validator_accepts_the_searchs_determinizations(variant):
    """agents/search/maunakea.py reseeds the bag and, in the advanced game, deals the others' cards
    afresh: those rows must stay valid, in every phase (the set-up's card choice included)."""
    for seed in range(4):
        state = new_row(3, variant, seed)
        while state[kernels.STATUS] == kernels.STATUS_RUNNING:
            for viewer in range(3):
                row = state.copy()
                determinize(row, viewer, seed * 1000 + int(state[kernels.TURN]), 0)
                code, offset = kernels.validate(row)
                assert code == 0, (kernels.REASONS[code], field_name(kernels.FIELDS, offset))
            kernels.step(state, kernels.random_action(state))


# ---------------------------------------------------------------------------------------------------
# The examples
def test_terrain_out_of_range_is_refused_by_name():
    """Issue 23: ``s[TERRAIN] = 10**6; e.set_state(s)`` crashed the process."""
    s = maunakea_env.raw_env(num_players=2).state()
    s[core.TERRAIN] = 10**6
    with pytest.raises(ValueError, match=r"TERRAIN\[0\] = 1000000: a square's terrain"):
        core.check_state(s)


def test_occupant_out_of_range_is_refused_by_name():
    s = played_row()
    s[core.OCCUPANT + 5] = 10**6
    with pytest.raises(ValueError, match=r"OCCUPANT\[5\] = 1000000: a square's occupant"):
        core.check_state(s)


def test_explorer_where_occupant_says_nobody_stands_is_refused():
    """Issue 23: explorers standing where ``OCCUPANT`` says nothing stands were accepted."""
    s = played_row()
    x = next(x for x in range(20) if s[core.EXPLORER_STATUS + x] == core.ON_ISLAND)
    s[core.OCCUPANT + s[core.EXPLORER_SQUARE + x]] = -1
    with pytest.raises(ValueError, match=rf"EXPLORER_SQUARE\[{x}\] = .*names him as its occupant"):
        core.check_state(s)


@pytest.mark.parametrize("field, value, words", [
    ("STATUS", 7, "status must be 0"),
    ("PHASE", 9, "phase must be 0"),
    ("PHASE", core.PHASE_OVER, "exactly when the status is not running"),
    ("TO_ACT", 3, "player to act must be a player"),
    ("TO_ACT", -1, "player to act must be a player"),
])
def test_bad_status_phase_or_player_to_act_is_refused(field, value, words):
    """Issue 23: a bad STATUS or PHASE gave a game that could never move, a bad TO_ACT an
    IndexError after the row was copied in."""
    s = played_row()
    s[getattr(core, field)] = value
    with pytest.raises(ValueError, match=rf"{field} = {value}: .*{words}"):
        core.check_state(s)


def test_init_on_a_wrong_array_is_refused():
    """Issue 23: ``core.init(np.zeros(10, np.int64), 4, 0, 100, 0)`` crashed."""
    with pytest.raises(ValueError, match=rf"state must be a 1-D C-contiguous numpy array of int64 with {kernels.STATE_SIZE}"):
        core.init(np.zeros(10, np.int64), 4, 0, 100, 0)
    with pytest.raises(ValueError, match="state must be"):
        core.init(np.zeros(kernels.STATE_SIZE, np.float64), 4, 0, 100, 0)
    with pytest.raises(ValueError, match="writeable"):
        row = np.zeros(kernels.STATE_SIZE, np.int64)
        row.flags.writeable = False
        core.init(row, 4, 0, 100, 0)
    with pytest.raises(ValueError, match="num_players must be an integer from 2 to 4, got 5"):
        core.init(np.zeros(kernels.STATE_SIZE, np.int64), 5, 0, 100, 0)
    with pytest.raises(ValueError, match="seed must be an integer"):
        core.init(np.zeros(kernels.STATE_SIZE, np.int64), 4, 0, 100, 2**64)


def test_checked_faces_take_integer_likes_and_refuse_the_rest():
    s = played_row()
    mask = np.zeros(core.NUM_ACTIONS, np.int8)
    core.legal_action_mask(s, mask)
    action = int(np.flatnonzero(mask)[0])
    assert core.is_legal(s, np.array(action)) and core.is_legal(s, np.int16(action))
    for bad, words in ((2**70, "action must be an integer"), (1.0, "float"), (True, "bool")):
        with pytest.raises(ValueError, match=words):
            core.step(s, bad)
    # outside the space: illegal, as in the kernel and in the other two games
    assert core.step(s, core.NUM_ACTIONS) == core.STEP_ILLEGAL and not core.is_legal(s, -1)
    with pytest.raises(ValueError, match="mask must be .* with 2040 entries"):
        core.legal_action_mask(s, np.zeros(100, np.int8))
    with pytest.raises(ValueError, match="obs must be"):
        core.observe(s, 0, np.zeros(core.OBS_SIZE, np.int64))
    with pytest.raises(ValueError, match="player must be an integer from 0 to 1, got 2"):
        core.score(s, 2)
    with pytest.raises(ValueError, match="non-contiguous"):
        core.player_to_act(np.zeros(2 * kernels.STATE_SIZE, np.int64)[::2])
    with pytest.raises(ValueError, match="out must have at least 2 entries"):
        core.player_scores(s, np.zeros(1))


# ---------------------------------------------------------------------------------------------------
# Fuzzing, in a child process
_CHILD = textwrap.dedent("""
    import sys
    import numpy as np
    from maunakea_env import core, kernels

    GENS = np.ones(1, dtype=np.int64)   # a generator of the caller's (any state but 0)
    rows = np.load(sys.argv[1])
    outcome = []
    for row in rows:
        state = row.copy()
        try:
            core.check_state(state)
        except ValueError:
            # refused: every checked face must refuse it too, never crash
            for face in (lambda: core.step(state, 0), lambda: core.legal_action_mask(
                    state, np.zeros(3052, np.int8)), lambda: core.observe_player(
                    state, 0, np.zeros(3000, np.int8), np.zeros(3052, np.int8)),
                         lambda: core.random_action(state), lambda: core.settled(state),
                         lambda: core.random_action_with(state, GENS, 0),
                         lambda: core.play_random_games_with(state, GENS, 0, 5),
                         lambda: core.end_code(state)):
                try:
                    face()
                    raise SystemExit("a checked face accepted a row check_state refused")
                except ValueError:
                    pass
            outcome.append(0)
            continue
        n = int(state[kernels.NUM_PLAYERS])
        actions = kernels.NUM_ACTIONS_OF_VARIANT[int(state[kernels.VARIANT])]
        obs = np.zeros(kernels.OBS_SIZE_OF_VARIANT[int(state[kernels.VARIANT])], np.int8)
        mask = np.zeros(actions, np.int8)
        # accepted: a game that plays on under random play through the checked faces; a row may
        # carry a huge max_turns, so the walk stops after 3000 decisions
        for _ in range(3000):
            if core.player_to_act(state) < 0:
                break
            core.observe_player(state, core.player_to_act(state), obs, mask)
            assert mask.any(), "a running game offers no action"
            assert core.step(state, core.random_action(state)) == kernels.STEP_OK
            code, offset = kernels.validate(state)
            assert code == 0, (kernels.REASONS[code], offset)
        core.player_scores(state, np.zeros(n))
        outcome.append(1)
    print("".join(map(str, outcome)))
""")


def run_rows(rows, tmp_path):
    """Run the child on ``rows``; its exit code and its line of outcomes (1 accepted, 0 refused)."""
    path = tmp_path / "rows.npy"
    np.save(path, np.asarray(rows, dtype=np.int64))
    done = subprocess.run([sys.executable, "-c", _CHILD, str(path)], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, f"the child died ({done.returncode}): {done.stderr[-2000:]}"
    return done.stdout.strip()


VALID_ROWS = [played_row(n, v, seed, steps) for n in PLAYER_COUNTS for v in VARIANTS
              for seed, steps in ((1, 0), (2, 40), (3, 200))]


@st.composite
def mutated_rows(draw):
    row = VALID_ROWS[draw(st.integers(0, len(VALID_ROWS) - 1))].copy()
    for _ in range(draw(st.integers(1, 3))):
        offset = draw(st.integers(0, kernels.STATE_SIZE - 1))
        row[offset] = draw(st.one_of(st.integers(-3, 8), INT64, st.sampled_from([10**6, -10**6, 2**62])))
    return row


@settings(max_examples=2, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32 - 1), mutated=st.lists(mutated_rows(), min_size=200, max_size=200))
def test_fuzzed_rows_are_refused_or_play_on_without_a_crash(seed, mutated, tmp_path_factory):
    """Issue 23, What 6: arbitrary rows (any int64, and small values that pass more of the early
    checks) and valid rows with entries set to arbitrary values, all in one child process per
    example (starting Python and loading Numba's cache costs more than the rows)."""
    rng = np.random.default_rng(seed)
    arbitrary = np.concatenate([rng.integers(-2**63, 2**63 - 1, (10, kernels.STATE_SIZE), endpoint=True),
                                rng.integers(-2, 10, (10, kernels.STATE_SIZE))])
    outcome = run_rows(np.concatenate([arbitrary, np.array(mutated)]), tmp_path_factory.mktemp("fuzz"))
    assert len(outcome) == 220
    assert outcome[:20] == "0" * 20, "an arbitrary row was accepted"


def test_fuzz_child_tells_accepted_from_refused_rows(tmp_path):
    """The child sees both ways out: valid rows (one with another generator state) are accepted and
    played on, a row with a square's terrain out of range is refused."""
    other_draws = VALID_ROWS[2].copy()
    other_draws[kernels.RNG] = 12345
    broken = VALID_ROWS[2].copy()
    broken[kernels.TERRAIN] = 10**6
    assert run_rows(VALID_ROWS[:3] + [other_draws, broken], tmp_path) == "11110"
