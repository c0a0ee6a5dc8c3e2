"""How a game ended, named the same way in every game.

A finished game's ``infos[agent]["end"]`` is one of ``END_NAMES[1:]``; a batched environment reports
the code of each game that ended on a step (``BatchEnv.ends``), ``END_NONE`` for the others, and
``END_NAMES[code]`` turns a code into its name.  The codes are plain ints, so that Numba cores use
them as constants.

==============  ======  ===========================================================================
name            code    meaning
==============  ======  ===========================================================================
``"win"``       1       a player met the rulebook's victory condition, which ends the game at once
``"stalemate"`` 2       nothing could ever change again, so the game stopped without a winner
``"settled"``   3       a ruling ended the game because the rulebook's end could never be reached
                        (Mauna Kea: no explorer left can reach a boat); the rulebook's scoring decides
``"rules"``     4       the rulebook's own end of the game, decided by its scoring
``"truncated"`` 5       ``max_turns`` was reached before the rules ended the game
==============  ======  ===========================================================================

Each game's ``RULES.md`` says which of these ends it has.  An illegal action in ``env()`` ends the game
as PettingZoo's ``TerminateIllegalWrapper`` does (``pacific_common.aec.CheckedEnv``), outside the
rules: it reports no end.
"""
END_NONE = 0        # still running, or (batched) the game did not end on this step
END_WIN = 1
END_STALEMATE = 2
END_SETTLED = 3
END_RULES = 4
END_TRUNCATED = 5

END_NAMES = (None, "win", "stalemate", "settled", "rules", "truncated")
