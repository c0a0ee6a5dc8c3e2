"""What every game package shares: the PettingZoo AEC environment over a Numba core, the Python side
of the batched environment, and option checking.  No game rules live here."""
