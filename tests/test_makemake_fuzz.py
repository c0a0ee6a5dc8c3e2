"""Issue 23, What 6, for Make Make: arbitrary int64 rows through ``core.check_state`` and the checked
faces.  Every row is either refused with ``ValueError`` -- by ``check_state`` and by every face given
it -- or is a game that plays to its end under random play through the ``core`` faces, with
``kernels.validate`` holding after every step.

A row that slipped past the checks could kill the interpreter, so each property runs under
``hypothesis`` in a child Python process: a crash there is a failed test (with the child's output:
the example being tried), not a dead suite.  ``FUZZ_EXAMPLES`` sets the number of examples per
property (default 120; the three take about 10 s of CPU in all, plus starting the children).
"""
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "120"))
GENS = np.ones(1, dtype=np.int64)   # a generator of the caller's (any state but 0)
PLAY_TURNS = 100    # an accepted row plays on for at most this many clan turns (its max_turns is cut)


# -- what the child process runs ---------------------------------------------------------------------------
def valid_rows():
    """Rows reached by random play: every 9th state of random games of 2, 3 and 4 clans."""
    from makemake_env import kernels
    rows = []
    for seed in range(18):
        s = np.zeros(kernels.STATE_SIZE, np.int64)
        kernels.init(s, 2 + seed % 3, kernels.VARIANT_STANDARD, (5, 60, 1000)[seed % 3], seed)
        i = 0
        while True:
            if i % 9 == 0 or s[kernels.STATUS] != kernels.STATUS_RUNNING:
                rows.append(s.copy())
            if s[kernels.STATUS] != kernels.STATUS_RUNNING:
                break
            kernels.step(s, kernels.random_action(s))
            i += 1
    return rows


def refused_everywhere(row):
    """A row ``check_state`` refuses is refused by every face that takes a state, and left as it was."""
    from makemake_env import core
    before = row.copy()
    mask, obs = np.zeros(core.NUM_ACTIONS, np.int8), np.zeros(core.OBS_SIZE, np.int8)
    calls = (lambda: core.step(row, 0), lambda: core.random_action(row), lambda: core.legal_action_mask(row, mask),
             lambda: core.observe_player(row, 0, obs, mask), lambda: core.player_to_act(row),
             lambda: core.rewards(row, 0, np.zeros(4)), lambda: core.play_random_games(row, 5),
             lambda: core.has_dominance_action(row, 0), lambda: core.end_code(row),
             lambda: core.random_action_with(row, GENS, 0), lambda: core.play_random_games_with(row, GENS, 0, 5))
    for call in calls:
        try:
            call()
        except ValueError:
            continue
        raise AssertionError(f"a face accepted a row check_state refuses: {row.tolist()}")
    assert np.array_equal(row, before)


def plays_to_its_end(row):
    """An accepted row is a game: random play through the faces ends it, every step legal and valid."""
    from makemake_env import core, kernels
    s = row.copy()
    if s[core.STATUS] == core.STATUS_RUNNING and s[core.MAX_TURNS] - s[core.TURN] > PLAY_TURNS:
        s[core.MAX_TURNS] = s[core.TURN] + PLAY_TURNS   # still valid: the game just ends sooner
    core.check_state(s)
    p = int(s[core.NUM_PLAYERS])
    mask, obs = np.zeros(core.NUM_ACTIONS, np.int8), np.zeros(core.OBS_SIZE, np.int8)
    while s[core.STATUS] == core.STATUS_RUNNING:
        for player in range(p):
            core.observe_player(s, player, obs, mask)
        core.legal_action_mask(s, mask)
        action = core.random_action(s)
        assert mask[action] == 1 and core.is_legal(s, action)
        assert core.step(s, action) == core.STEP_OK
        code, offset = kernels.validate(s)
        assert code == 0, f"{core.REASONS[code]} at {offset} after {action}, from {row.tolist()}"
    assert core.random_action(s) == -1 and core.step(s, 0) == core.STEP_GAME_OVER
    assert core.end_code(s) != 0
    core.rewards(s, core.REWARD_MARGIN, np.zeros(p))
    core.player_scores(s, np.zeros(p, np.int64))


def through_the_faces(row):
    from makemake_env import core
    try:
        core.check_state(row)
    except ValueError as error:
        assert str(error).startswith("invalid state: ")
        refused_everywhere(row)
        return False
    plays_to_its_end(row)
    return True


def fuzz_random_rows(examples):
    """Fully random rows: entries over the whole int64 range, or small numbers (closer to the rules)."""
    from hypothesis import given, settings, strategies as st
    from hypothesis.extra.numpy import arrays

    from makemake_env import core
    entry = st.one_of(st.integers(-2, 50), st.integers(-2**63, 2**63 - 1))

    @settings(max_examples=examples, deadline=None, database=None)
    @given(arrays(np.int64, core.STATE_SIZE, elements=entry))
    def rows(row):
        through_the_faces(row)

    rows()


def fuzz_mutated_rows(examples):
    """Valid rows with one to four entries changed to arbitrary values; many stay valid and are played."""
    from hypothesis import given, settings, strategies as st

    from makemake_env import core
    pool = valid_rows()
    accepted = []
    value = st.one_of(st.integers(-3, 12), st.integers(-2**63, 2**63 - 1))
    # any entry, or one that some changes leave valid (the generator, the seed, max_turns, the amulet, the
    # record of last actions), so that changed rows are played as well as refused
    lenient = [core.RNG, core.SEED, core.MAX_TURNS, core.AMULET] + [core.LAST_ACTION + c for c in range(4)]
    offset = st.one_of(st.integers(0, core.STATE_SIZE - 1), st.sampled_from(lenient))
    change = st.tuples(offset, value)

    @settings(max_examples=examples, deadline=None, database=None)
    @given(st.integers(0, len(pool) - 1), st.lists(change, min_size=1, max_size=4))
    def rows(index, changes):
        row = pool[index].copy()
        for offset, v in changes:
            row[offset] = v
        accepted.append(through_the_faces(row))

    rows()
    for row in pool[::5]:     # and unchanged rows, which are all valid
        assert through_the_faces(row.copy())
    # both outcomes were seen: the property is not vacuous on either side
    assert any(accepted) and not all(accepted), f"{sum(accepted)} of {len(accepted)} accepted"


def fuzz_arguments(examples):
    """Arbitrary actions, clans, territories and seeds given to the faces with valid rows: a result or a
    ValueError, never anything else."""
    from hypothesis import given, settings, strategies as st

    from makemake_env import core
    pool = valid_rows()
    number = st.one_of(st.integers(-5, 1000), st.integers(-2**70, 2**70), st.floats(), st.booleans(), st.none(),
                       st.text(max_size=3))

    @settings(max_examples=examples, deadline=None, database=None)
    @given(st.integers(0, len(pool) - 1), number, number, number)
    def calls(index, a, b, c):
        row = pool[index].copy()
        faces = ((core.step, (row, a)), (core.is_legal, (row, a)), (core.strength, (row, a)),
                 (core.counts_for, (row, a, b)), (core.placement_legal, (row, a, b, c, 0)),
                 (core.protected, (row, a, b)), (core.moai_possible, (row, a, b)),
                 (core.observe, (row, a, np.zeros(core.OBS_SIZE, np.int8))),
                 (core.init, (row, a, 0, b, c)), (core.all_of, (a, b)),
                 # a few steps only: any int64 is a valid count, and a large one would just run long
                 (core.play_random_games, (row, a if not isinstance(a, int) or a < 500 else 500)))
        for face, args in faces:
            try:
                face(*args)
            except ValueError:
                pass
            code, _ = core.validate(row)
            assert code == 0, f"{face.__name__}{args[1:]} left an invalid row"

    calls()


# -- the tests: each property in a child process ---------------------------------------------------------------
def run_in_child(statement):
    """Run ``statement`` in a child Python process that has imported this module as ``fuzz``."""
    code = f"import test_makemake_fuzz as fuzz; {statement}"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(TESTS), os.environ.get("PYTHONPATH", "")]))
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=600)
    what = f"crashed the interpreter (signal {-done.returncode})" if done.returncode < 0 else "failed"
    assert done.returncode == 0, f"{statement} {what}:\n{done.stdout[-6000:]}\n{done.stderr[-6000:]}"


@pytest.mark.parametrize("function", ["fuzz_random_rows", "fuzz_mutated_rows", "fuzz_arguments"])
def test_fuzz(function):
    """Issue 23, What 6: arbitrary rows and arguments either raise ValueError or give a game that plays
    to its end with every invariant holding."""
    run_in_child(f"fuzz.{function}({EXAMPLES})")


def test_a_crash_in_the_child_fails_the_test():
    """The harness itself: a child that dies of a signal is reported as a crash, not passed over."""
    with pytest.raises(AssertionError, match=r"crashed the interpreter \(signal 11\)"):
        run_in_child("fuzz.os.kill(fuzz.os.getpid(), 11)")
