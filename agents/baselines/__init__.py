"""The baselines: uniform random play (``random_agent``) and one hand-written strategy per game
(``heuristic`` picks it; ``makabana``, ``makemake``, ``maunakea``, and ``variants`` for Maka Bana Mao
and Mauna Kea's advanced rules).  The strategies are Numba functions, compiled on first use."""
