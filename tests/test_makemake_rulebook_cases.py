"""Make Make rules of the rulebook that the other rules tests leave open: in Ceremonial Phase a, the
surrounded territory must be the clan's, and so must the Tangata Manu near it.

Each test names the rulebook section it checks; positions are written through
``makemake_positions.position`` (the notation, validated) and played with ``step``.  Every position is
also replayed on the plain-Python reference (``makemake_env.reference``): the kernel and the reference
are cross-checked against each other, so a misreading they share is caught only by a test that states
the rule.  Each test has a control case (the same position with the one condition met), so that it
cannot pass for the wrong reason.
"""
import pytest

from makemake_env import core
from makemake_env.board import NUM_GROUNDS, NUM_TERRITORIES
from makemake_env.reference import ReferenceGame
from makemake_positions import (
    BLUE, RED, act, chief_at, is_moai, moai_left, new_game, owner, place, position, territory, tokens,
)


def reference_from(env):
    """The reference rules in the env's current position (start of a dominance phase)."""
    s = env.state()
    n = int(s[core.NUM_PLAYERS])
    game = ReferenceGame(n, int(s[core.MAX_TURNS]))
    for t in range(NUM_TERRITORIES):
        o = int(s[core.OWNER + t])
        game.owner[t] = None if o < 0 else o
        game.tokens[t] = int(s[core.TOKENS + t])
        game.moai[t] = bool(s[core.MOAI + t])
    for c in range(n):
        at = int(s[core.CHIEF_AT + c])
        game.chief_at[c] = None if at < 0 else at
        game.token_supply[c] = int(s[core.TOKEN_SUPPLY + c])
        game.manu_supply[c] = int(s[core.MANU_SUPPLY + c])
    for g in range(NUM_GROUNDS):
        h = int(s[core.GROUND + g])
        game.grounds[g] = None if h < 0 else h
    game.moai_left = int(s[core.MOAI_LEFT])
    game.amulet = None if s[core.AMULET] < 0 else int(s[core.AMULET])
    game.to_act = int(s[core.TO_ACT])
    game.turns = int(s[core.TURN])
    return game


def play_both(env, action):
    """Play ``action`` on the env (kernel) and on the reference from the same position; return the
    reference after it."""
    game = reference_from(env)
    act(env, action)
    game.step(action)
    return game


# Ceremonial Phase a: "When a Territory under the control of the clan is completely surrounded ..."
@pytest.mark.parametrize("holder", [BLUE, None, RED], ids=["blue", "neutral", "red-control"])
def test_ceremonial_phase_a_the_surrounded_territory_must_be_the_clans(holder):
    """Rulebook Ceremonial Phase a: the Moai is built on "a Territory under the control of the clan".
    Red surrounds Inner-4 (Inner-3 with its chief, Coast-5, Coast-6, Inner-5, Sacred-3, and Sacred-2
    taken now), a Red Tangata Manu celebrates on Ground-26 (a corner of the neighbour Inner-3): every
    other condition holds.  Inner-4 itself is Blue's or neutral: no Moai, and Blue keeps its
    territory.  Control: Inner-4 Red's, the Moai is built."""
    terr = {n: RED for n in ("Inner-3", "Coast-4", "Coast-5", "Coast-6", "Inner-5", "Sacred-3")}
    if holder is not None:
        terr["Inner-4"] = holder
    env = position(new_game(4), terr, chiefs={RED: "Inner-3"}, manu={"Ground-26": RED})
    game = play_both(env, place("Sacred-2", 1))
    t = territory("Inner-4")
    built = holder == RED
    assert is_moai(env, "Inner-4") == built and game.moai[t] == built
    # nor is Red asked to choose a Moai (a misreading could make a second site qualify)
    assert env.decision() != "Moai" and game.phase != "moai"
    assert moai_left(env) == game.moai_left == (11 if built else 12)
    if not built:
        assert owner(env, "Inner-4") == game.owner[t] == holder
        assert tokens(env, "Inner-4") == game.tokens[t] == (0 if holder is None else 1)
        assert chief_at(env, RED) == "Inner-3"
        assert env.agent_selection == "player_1" and env.decision() == "dominance"


# Ceremonial Phase a: "... if the clan's Chief and at least one Tangata Manu is in any of these
# territories or Ceremonial Grounds" (RULINGS: "one of its Tangata Manu")
@pytest.mark.parametrize("near_clan", [BLUE, RED], ids=["blue", "red-control"])
def test_ceremonial_phase_a_the_tangata_manu_near_the_territory_must_be_the_clans(near_clan):
    """Rulebook Ceremonial Phase a / RULINGS ("one of its Tangata Manu stands on a ground at a corner
    of T or of a neighbour").  Red holds Inner-4 with its chief; its neighbour Inner-3 is a Moai, so
    Ground-25 (Inner-3, Coast-3, Coast-4), a corner of that neighbour, can be protected for Blue, who
    celebrates there.  Red's only ceremony is far away (Ground-40).  Red takes Sacred-2, the last
    neighbour: Blue's Tangata Manu does not let Red build.  Control: Coast-3, Coast-4 and the ceremony
    on Ground-25 are Red's, the Moai is built."""
    terr = {n: RED for n in ("Inner-4", "Coast-5", "Coast-6", "Inner-5", "Sacred-3",
                             "Inner-9", "Coast-12", "Coast-13")}
    terr.update({"Coast-3": near_clan, "Coast-4": near_clan})
    env = position(new_game(4), terr, chiefs={RED: "Inner-4"}, moai=["Inner-3"],
                   manu={"Ground-25": near_clan, "Ground-40": RED})
    game = play_both(env, place("Sacred-2", 1))
    built = near_clan == RED
    assert is_moai(env, "Inner-4") == built and game.moai[territory("Inner-4")] == built
    assert env.decision() != "Moai" and game.phase != "moai"
    assert moai_left(env) == game.moai_left == (10 if built else 11)

