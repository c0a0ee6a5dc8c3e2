"""Issue 23, What 6, for Maka Bana: arbitrary int64 rows and arguments through ``makabana_env.core``.

Every row either raises ``ValueError`` or is a game that plays to its end under random play through
the checked faces, with ``kernels.validate`` holding after every step.  Rows come fully random, with
a plausible header (so that they get past the first checks), and as reachable rows with one or a few
entries set to arbitrary values.

A row the validator wrongly accepted could crash the interpreter, so the fuzzing runs in a child
process: a segmentation fault there is this test's failure, not the end of the suite.
"""
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "100"))  # per kind of input; whole rows get a third
GENS = np.ones(1, dtype=np.int64)   # a generator of the caller's (any state but 0)
MAX_STEPS = 3000  # a game from an accepted row ends long before (the rules end it, or max_turns)
INT64 = st.integers(min_value=-(2 ** 63), max_value=2 ** 63 - 1)
# values the kernels would use as indices or counts, around every boundary, and the extremes
VALUES = st.one_of(st.integers(min_value=-3, max_value=45), st.sampled_from([2 ** 31, 2 ** 39, 2 ** 62]), INT64)


def _fuzz_settings(examples=EXAMPLES):
    return settings(max_examples=examples, deadline=None, database=None, derandomize=True,
                    suppress_health_check=list(HealthCheck))


def play_out(state, core, kernels):
    """Random play through the checked faces, with the validator after every step."""
    mask = np.zeros(kernels.NUM_ACTIONS_OF_VARIANT[state[kernels.VARIANT]], dtype=np.int8)
    obs = np.zeros(kernels.OBS_SIZE_OF_VARIANT[state[kernels.VARIANT]], dtype=np.int8)
    rewards = np.zeros(int(state[kernels.NUM_PLAYERS]))
    for _ in range(MAX_STEPS):
        if state[kernels.STATUS] != kernels.STATUS_RUNNING:
            break
        core.legal_action_mask(state, mask)
        core.observe_player(state, core.player_to_act(state), obs, mask)
        action = core.random_action(state)
        assert mask[action] == 1, "the random action is not in the mask"
        assert core.step(state, action) == kernels.STEP_OK
        code, offset = kernels.validate(state)
        assert code == kernels.VALID, f"after a step: {kernels.REASONS[code]} at {offset}"
    core.rewards(state, kernels.REWARD_MARGIN, rewards)


def accepted_or_refused(row):
    """The property: ``core.check_state`` refuses the row, or the row plays to its end."""
    import makabana_env.core as core
    from makabana_env import kernels
    state = np.array(row, dtype=np.int64)
    try:
        core.check_state(state)
    except ValueError as error:
        assert str(error).startswith("invalid state: ")
        for face in (lambda: core.step(state, 0), lambda: core.random_action(state),
                     lambda: core.legal_action_mask(state, np.zeros(343, np.int8)),
                     lambda: core.random_action_with(state, GENS, 0),
                     lambda: core.play_random_games_with(state, GENS, 0, 5), lambda: core.end_code(state)):
            try:
                face()
            except ValueError:
                continue
            raise AssertionError("a checked face accepted a row check_state refused")
        return False
    play_out(state, core, kernels)
    return True


def reachable_rows():
    """Rows of random games: every variant and player count, at random points of the game."""
    from makabana_env import kernels
    return st.tuples(st.integers(2, 5), st.integers(0, 1), st.integers(0, 2 ** 20), st.integers(0, 400)).map(
        lambda args: _play(kernels, *args))


def _play(kernels, num_players, variant, seed, steps):
    state = np.zeros(kernels.STATE_SIZE, dtype=np.int64)
    kernels.init(state, num_players, variant, 100, seed)
    for _ in range(steps):
        if state[kernels.STATUS] != kernels.STATUS_RUNNING:
            break
        kernels.step(state, kernels.random_action(state))
    return state


def run_fuzz():
    """The fuzzing proper, run in the child process by ``test_fuzz_in_a_child_process``."""
    from makabana_env import core, kernels
    size = kernels.STATE_SIZE
    counts = {"random": [0, 0], "header": [0, 0], "mutated": [0, 0], "nudged": [0, 0], "actions": [0, 0]}

    @_fuzz_settings(max(EXAMPLES // 3, 10))
    @given(st.lists(INT64, min_size=size, max_size=size))
    def fully_random(row):
        counts["random"][accepted_or_refused(row)] += 1

    @_fuzz_settings(max(EXAMPLES // 3, 10))
    @given(st.lists(VALUES, min_size=size, max_size=size), st.integers(2, 5), st.integers(0, 1))
    def plausible_header(row, num_players, variant):
        row[kernels.NUM_PLAYERS] = num_players
        row[kernels.NUM_COLOURS] = 4 if num_players == 2 else num_players
        row[kernels.VARIANT] = variant
        counts["header"][accepted_or_refused(row)] += 1

    @_fuzz_settings()
    @given(reachable_rows(), st.lists(st.tuples(st.integers(0, size - 1), VALUES), min_size=1, max_size=4))
    def mutated(state, changes):
        for offset, value in changes:
            state[offset] = value
        counts["mutated"][accepted_or_refused(state.tolist())] += 1

    @_fuzz_settings()
    @given(reachable_rows(), st.lists(st.tuples(st.integers(0, size - 1), st.integers(-2, 2)), min_size=1, max_size=2))
    def nudged(state, changes):
        """Entries moved by a little: the rows closest to valid ones, the most likely to slip through."""
        for offset, delta in changes:
            state[offset] += delta
        counts["nudged"][accepted_or_refused(state.tolist())] += 1

    @_fuzz_settings()
    @given(reachable_rows(), st.one_of(VALUES, st.integers(), st.floats(), st.booleans(), st.none()))
    def any_action(state, action):
        before = state.copy()
        try:
            result = core.step(state, action)
        except ValueError as error:
            assert "action must be an integer" in str(error)
            assert np.array_equal(state, before), "a refused action changed the row"
            counts["actions"][0] += 1
            return
        if result != kernels.STEP_OK:
            assert np.array_equal(state, before), "an illegal action changed the row"
        code, offset = kernels.validate(state)
        assert code == kernels.VALID, kernels.REASONS[code]
        counts["actions"][1] += 1

    for fuzz in (fully_random, plausible_header, mutated, nudged, any_action):
        fuzz()
    print("refused, accepted:", counts)
    # the changed rows must reach both sides, or the property says little
    assert counts["nudged"][0] > 0 and counts["nudged"][1] > 0, counts


def test_fuzz_in_a_child_process():
    """Issue 23: no row and no action given to ``makabana_env.core`` crashes the interpreter; each is
    refused with ValueError or plays to its end with the validator holding."""
    root = Path(__file__).resolve().parent.parent
    script = textwrap.dedent("""
        import sys
        sys.path[:0] = [sys.argv[1], sys.argv[2]]
        import test_makabana_fuzz
        test_makabana_fuzz.run_fuzz()
    """)
    done = subprocess.run([sys.executable, "-c", script, str(root), str(root / "tests")], cwd=root,
                          capture_output=True, text=True, timeout=600)
    if done.returncode < 0:
        raise AssertionError(f"the fuzzing process was killed by signal {-done.returncode} (a crash):\n"
                             f"{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    assert done.returncode == 0, f"{done.stdout[-3000:]}\n{done.stderr[-6000:]}"
    assert "refused, accepted:" in done.stdout
