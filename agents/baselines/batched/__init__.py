"""The baselines as Numba kernels over many games at once, for batched self-play
(``agents.training.batched``).

``common`` holds what every game shares: the per-seat tie-break generator and the opponent kinds.
``makabana``, ``makemake`` and ``maunakea`` each hold the game's heuristic as one kernel (the
``HeuristicAgent.act`` of ``agents.baselines.heuristic``, with the Mao and advanced-rules strategies
of ``agents.baselines.variants``) and the loops that play every opponent seat of every game until a
learner or an opponent played outside Numba must act.  The Python strategies stay the readable
definition; ``tests/test_heuristic_kernels.py`` holds the kernels to them decision by decision.

Like each game's ``kernels.py``, these kernels trust their arguments: they are the inner loops of
``agents.training.batched.BatchedSelfPlayEnv``, which makes the rows, seats, generators and buffers
they are handed and checks what a user gives it.  Called directly with other arrays (rows of another
game, buffers too small, indices out of range) they read and write outside them; use that environment,
or each game's checked ``core``, instead.
"""
