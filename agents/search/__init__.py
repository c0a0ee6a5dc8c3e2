"""Information-set Monte-Carlo tree search: the agent (``mcts``), the game-independent search in Numba
(``ismcts``, with the hashing and margins of ``common``), and one module per game with its
determinization, rollout policy and evaluation (``makabana``, ``makemake``, ``maunakea``)."""
