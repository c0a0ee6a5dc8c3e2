"""ThreadChoice, BatchEnv's choice between Numba's thread pool and one thread, fed made-up step times
(no real timing is asserted): it keeps the cheaper on average, tries the other as rarely as that
costs, and switches as soon as the one in use becomes dearer."""
import itertools

from pacific_common.batch import ThreadChoice

MS = 1e-3


def drive(choice, steps, seconds):
    """Run ``steps`` steps where a step takes ``seconds[parallel]`` (a number, or an iterator of them);
    returns the choices made and the seconds they took."""
    made, spent = [], 0.0
    for _ in range(steps):
        parallel = choice.next()
        took = seconds[parallel] if isinstance(seconds[parallel], float) else next(seconds[parallel])
        choice.record(parallel, took)
        made.append(parallel)
        spent += took
    return made, spent


def test_small_batches_never_use_the_pool():
    choice = ThreadChoice(False)
    made, _ = drive(choice, 100, {False: 1.0 * MS, True: 0.1 * MS})
    assert not any(made)


def test_a_slow_pool_is_tried_as_rarely_as_it_costs():
    choice = ThreadChoice(True)
    made, spent = drive(choice, 20_000, {False: 1.0 * MS, True: 10.0 * MS})  # a busy machine
    assert not choice.parallel
    tries = [i for i, parallel in enumerate(made) if parallel]
    # two steps on the pool to start with (the first one untimed), then a try every 900 steps: each
    # costs 9 ms more than a step on one thread, 1% (TRY_SHARE) of the 900 steps' 0.9 s
    assert tries[:2] == [0, 3]
    assert all(b - a == 900 for a, b in zip(tries[1:], tries[2:])), tries
    assert spent <= 20_000 * 1.0 * MS * (1 + ThreadChoice.TRY_SHARE) + 2 * 9 * MS + 1e-9


def test_rare_stalls_of_the_pool_count_at_their_rate():
    # Maka Bana's 1024-game step with one core kept busy: the pool mostly faster than one thread,
    # except a stall of a scheduler slice one step in 13, which makes it dearer on average
    pool = itertools.cycle([0.24 * MS] * 12 + [16.0 * MS])
    choice = ThreadChoice(True)
    made, spent = drive(choice, 50_000, {False: 0.46 * MS, True: pool})
    assert spent <= 50_000 * 0.46 * MS * 1.02
    assert made.count(True) < 0.01 * len(made)


def test_switches_when_the_machine_changes():
    choice = ThreadChoice(True)
    drive(choice, 3000, {False: 1.0 * MS, True: 10.0 * MS})
    assert not choice.parallel
    # the other process ends: the pool becomes cheaper, found within a few thousand steps, as the
    # tries come sooner with every one that finds the pool cheaper than remembered
    made, _ = drive(choice, 10_000, {False: 1.0 * MS, True: 0.5 * MS})
    assert choice.parallel and made[-1000:].count(False) <= 1000 // ThreadChoice.FIRST_GAP
    # the machine gets busy again: the pool's own times rise and it is left at its first stall
    made, _ = drive(choice, 20, {False: 1.0 * MS, True: 10.0 * MS})
    assert not choice.parallel and made.count(True) == 1


def test_call_runs_the_chosen_function_and_times_it():
    choice = ThreadChoice(True)
    ran = [choice.call(lambda x: ("one thread", x), lambda x: ("pool", x), 7) for _ in range(4)]
    # the pool first (untimed, a first call may compile), then one thread twice, then the pool again
    assert ran == [("pool", 7), ("one thread", 7), ("one thread", 7), ("pool", 7)]
    assert choice.samples == [2, 2] and None not in choice.seconds
    assert ThreadChoice(False).call(lambda: "one thread", lambda: "pool") == "one thread"
