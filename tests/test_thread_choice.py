"""ThreadChoice, BatchEnv's choice between Numba's thread pool and one thread, fed made-up step times
(no real timing is asserted): it keeps the faster, tries the other ever more rarely while that stays
slower, and switches as soon as the one in use becomes slower."""
from pacific_common.batch import ThreadChoice


def drive(choice, steps, seconds):
    """Run ``steps`` steps where a step takes ``seconds[parallel]``; returns the choices made."""
    made = []
    for _ in range(steps):
        parallel = choice.next()
        choice.record(parallel, seconds[parallel])
        made.append(parallel)
    return made


def test_small_batches_never_use_the_pool():
    choice = ThreadChoice(False)
    assert not any(drive(choice, 100, {False: 1.0, True: 0.1}))


def test_keeps_the_faster_and_tries_the_other_ever_more_rarely():
    choice = ThreadChoice(True)
    made = drive(choice, 4000, {False: 1.0, True: 10.0})  # the pool is slow: a busy machine
    assert not choice.parallel
    tries = [i for i, parallel in enumerate(made) if parallel]
    assert len(tries) < 20  # with gaps doubling up to LONGEST_GAP
    gaps = [b - a for a, b in zip(tries[3:], tries[4:])]
    assert gaps == sorted(gaps) and gaps[-1] == ThreadChoice.LONGEST_GAP


def test_switches_when_the_machine_changes():
    choice = ThreadChoice(True)
    drive(choice, 3000, {False: 1.0, True: 10.0})
    assert not choice.parallel
    # the other process ends: the pool becomes faster, found at the next try at the latest
    made = drive(choice, ThreadChoice.LONGEST_GAP + 50, {False: 1.0, True: 0.5})
    assert choice.parallel and made[-40:].count(False) <= 3  # only tries
    # the machine gets busy again: the pool's own times rise and it is left within a few steps
    made = drive(choice, 20, {False: 1.0, True: 10.0})
    assert not choice.parallel and made.count(True) <= 3
