"""Make Make in slow, plain Python: the rules as a second, independent implementation.

This module follows the rulebook (``shared/rulebooks/makemake-rulebook-en.txt``), ``shared/RULINGS.md``
and ``makemake_env/RULES.md`` step by step, section by section, and was written without reading the
Numba core (``makemake_env/kernels.py``, then ``core.py``).  The two are played against each other in
``tests/test_makemake_reference.py``: a rule misread in either shows up there as a disagreement.
Speed is no aim here; every rule is spelt out where the rulebook states it.

Only the component data (the island) comes from ``makemake_env/board.py``.

Actions (912, shared with the core):

- ``0 .. 791``   Dominance Phase a/b: place ``k`` tokens (1..11), with or without the chief, on
  territory ``t``: ``22 * t + 2 * (k - 1) + chief``.
- ``792 .. 827`` Dominance Phase c: withdraw from territory ``a - 792``.
- ``828 .. 863`` Ceremonial Phase a: build the next Moai on territory ``a - 828`` (asked only when the
  clan can build on two or more territories).
- ``864 .. 911`` Ceremonial Phase b: start a ceremony on ground ``a - 864`` (asked only when there are
  more free grounds than Tangata Manu in supply).
"""
from pacific_common.checked import whole_number
from pacific_common.options import check_options

from .board import (CHIEF_STRENGTH, GROUND_TERRITORIES, MOAI_SITES, NEIGHBOURS, NUM_MOAI, SACRED,
                    TANGATA_MANU_PER_CLAN, TERRITORY_GROUNDS, TERRITORY_NAMES, TOKENS_PER_CLAN)

NUM_TERRITORIES = len(TERRITORY_NAMES)
NUM_GROUNDS = len(GROUND_TERRITORIES)

PLACE_ACTIONS = NUM_TERRITORIES * 2 * TOKENS_PER_CLAN       # 792
WITHDRAW_BASE = PLACE_ACTIONS                               # 792
MOAI_BASE = WITHDRAW_BASE + NUM_TERRITORIES                 # 828
CEREMONY_BASE = MOAI_BASE + NUM_TERRITORIES                 # 864
NUM_ACTIONS = CEREMONY_BASE + NUM_GROUNDS                   # 912

# Plain Python lists, so that nothing below depends on numpy semantics.
_NEIGHBOURS = [[int(n) for n in row if n >= 0] for row in NEIGHBOURS.tolist()]
_GROUND_TERRITORIES = [tuple(int(t) for t in row) for row in GROUND_TERRITORIES.tolist()]
_TERRITORY_GROUNDS = [[int(g) for g in row if g >= 0] for row in TERRITORY_GROUNDS.tolist()]
_SACRED = [int(t) for t in SACRED.tolist()]
_MOAI_SITES = [int(t) for t in MOAI_SITES.tolist()]

REWARD_MODES = ("win_loss", "score", "margin")


def place_action(territory, k, chief):
    """The action number of placing ``k`` tokens (and the chief if ``chief``) on ``territory``."""
    return 2 * TOKENS_PER_CLAN * territory + 2 * (k - 1) + int(bool(chief))


def withdraw_action(territory):
    return WITHDRAW_BASE + territory


def moai_action(territory):
    return MOAI_BASE + territory


def ceremony_action(ground):
    return CEREMONY_BASE + ground


def describe_action(action):
    """The action in words, for error messages."""
    if 0 <= action < PLACE_ACTIONS:
        t, rest = divmod(action, 2 * TOKENS_PER_CLAN)
        k, chief = rest // 2 + 1, rest % 2
        return f"place {k} token(s){' and the chief' if chief else ''} on {TERRITORY_NAMES[t]}"
    if WITHDRAW_BASE <= action < MOAI_BASE:
        return f"withdraw from {TERRITORY_NAMES[action - WITHDRAW_BASE]}"
    if MOAI_BASE <= action < CEREMONY_BASE:
        return f"build a Moai on {TERRITORY_NAMES[action - MOAI_BASE]}"
    if CEREMONY_BASE <= action < NUM_ACTIONS:
        return f"start a ceremony on Ground-{action - CEREMONY_BASE + 1}"
    return f"action {action} (out of range 0..{NUM_ACTIONS - 1})"


class ReferenceGame:
    """One game of Make Make.

    Public fields (read them, do not write them): ``num_players``, ``max_turns``, ``phase``
    ("dominance", "moai", "ceremony" or "over"), ``to_act`` (the clan whose decision is asked, None
    when over), ``turns`` (clan turns completed), ``terminated``, ``truncated``, ``winner``,
    ``amulet``, ``owner`` / ``tokens`` / ``moai`` (per territory), ``chief_at`` (per clan: territory or
    None for the supply), ``grounds`` (per ground: the clan holding a ceremony there, or None),
    ``token_supply`` / ``manu_supply`` (per clan), ``moai_left`` and ``last_action`` (per clan: its
    latest decision, ``"pass"`` when its latest turn was passed, None before its first turn); ``end``
    says how the game ended.
    """

    def __init__(self, num_players: int = 4, max_turns: int = 1000):
        # [Players and turns] 3-4 clans as in the box; 2 is the unofficial option.
        # checked as the environments check them, so that a float or a string is refused
        num_players, _, max_turns, _, _ = check_options(num_players, "standard", max_turns, None, "win_loss",
                                                        players=(2, 4), variants=("standard",))
        self.num_players = num_players
        self.max_turns = max_turns
        # [Preparation of the Game] All territories start neutral; every clan holds its 11 tokens,
        # its chief and its 5 Tangata Manu; the 12 Moai and the amulet lie beside the board.
        self.owner = [None] * NUM_TERRITORIES
        self.tokens = [0] * NUM_TERRITORIES
        self.moai = [False] * NUM_TERRITORIES
        self.chief_at = [None] * num_players
        self.grounds = [None] * NUM_GROUNDS
        self.token_supply = [TOKENS_PER_CLAN] * num_players
        self.manu_supply = [TANGATA_MANU_PER_CLAN] * num_players
        self.moai_left = NUM_MOAI
        self.amulet = None
        self.winner = None
        self.terminated = False
        self.truncated = False
        self.turns = 0
        # A record, not a rule (RULES.md, Last actions): what each clan did last, passes included.
        self.last_action = [None] * num_players
        # player_0 starts (RULINGS.md conventions) with its Dominance Phase.
        self.phase = "dominance"
        self.to_act = 0

    # ------------------------------------------------------------------ what the board says

    def strength(self, territory):
        """[Dominance Phase b] The Clan's Chief is considered as 3 Dominance Tokens."""
        clan = self.owner[territory]
        if clan is None:
            return 0
        return self.tokens[territory] + (CHIEF_STRENGTH if self.chief_at[clan] == territory else 0)

    def counts_as_clans(self, territory, clan):
        """[Protection of the Moai] A Moai counts as a territory controlled by every clan."""
        return self.moai[territory] or self.owner[territory] == clan

    def sacred_count(self, clan):
        """Sacred territories the clan controls; a Moai never stands on one (RULINGS.md)."""
        return sum(1 for t in _SACRED if self.owner[t] == clan)

    def ground_protected_for(self, ground, clan):
        """[Ceremonial Phase b] A ground is protected for a clan when it controls its three
        territories (a Moai counting as its own)."""
        return all(self.counts_as_clans(t, clan) for t in _GROUND_TERRITORIES[ground])

    def moai_sites_for(self, clan):
        """[Ceremonial Phase a] The territories where the clan must build a Moai now."""
        if self.moai_left == 0:
            return []
        sites = []
        for t in _MOAI_SITES:
            if self.owner[t] != clan:
                continue
            # "completely surrounded by territories dominated by the same clan" (a Moai counts).
            if not all(self.counts_as_clans(n, clan) for n in _NEIGHBOURS[t]):
                continue
            area = [t] + _NEIGHBOURS[t]
            # "the clan's Chief ... is in any of these territories"
            if self.chief_at[clan] not in area:
                continue
            # "... and at least one Tangata Manu is in any of these ... Ceremonial Grounds": a
            # ground at a corner of T or of one of its neighbours.
            corners = {g for a in area for g in _TERRITORY_GROUNDS[a]}
            if not any(self.grounds[g] == clan for g in corners):
                continue
            sites.append(t)
        return sites

    def free_grounds_for(self, clan):
        """[Ceremonial Phase b] Empty grounds whose three territories are the clan's (or Moai)."""
        return [g for g in range(NUM_GROUNDS)
                if self.grounds[g] is None and self.ground_protected_for(g, clan)]

    def has_ceremonial_work(self, clan):
        """Whether the clan's Ceremonial Phase would change anything right now.  A free protected
        ground counts only while a Tangata Manu is left to send there: otherwise nothing happens
        (RULES.md stalemate: "nothing to build or celebrate")."""
        return bool(self.moai_sites_for(clan)) or (
            self.manu_supply[clan] > 0 and bool(self.free_grounds_for(clan)))

    def dominance_actions(self, clan):
        """[Dominance Phase] Actions a, b and c open to the clan, sorted."""
        actions = []
        chief_options = (0, 1) if self.chief_at[clan] is None else (0,)
        for t in range(NUM_TERRITORIES):
            # Moai are permanent and cannot be replaced [Protection of the Moai]; the clan cannot
            # place on a territory it already controls (RULINGS.md).
            if self.moai[t]:
                continue
            if self.owner[t] == clan:
                # c. "remove all the pieces ... leaving just one Dominance Token": only meaningful
                # when more than one token's worth stands there.
                if self.strength(t) > 1:
                    actions.append(withdraw_action(t))
                continue
            defender = self.strength(t)   # 0 for a neutral territory
            for chief in chief_options:
                # a. at least one token: "It is not possible to control a territory only with the
                # Chief"; b. "a higher number" than the defender's strength.
                fewest = max(1, defender + 1 - CHIEF_STRENGTH * chief)
                most = self.token_supply[clan]
                if fewest <= most:
                    # k = fewest .. most; consecutive k are two action numbers apart.
                    actions.extend(range(place_action(t, fewest, chief),
                                         place_action(t, most, chief) + 1, 2))
        return sorted(actions)

    def legal_actions(self):
        """The legal actions of the clan to act, sorted; empty when the game is over."""
        if self.phase == "over":
            return []
        if self.phase == "dominance":
            return self.dominance_actions(self.to_act)
        if self.phase == "moai":
            return [moai_action(t) for t in self.moai_sites_for(self.to_act)]
        if self.phase == "ceremony":
            return [ceremony_action(g) for g in self.free_grounds_for(self.to_act)]
        raise AssertionError(f"unknown phase {self.phase!r}")

    # ------------------------------------------------------------------ scores and rewards

    @property
    def end(self):
        """How the game ended, named as in ``pacific_common.ends``: Make Make ends when a clan summons
        Make Make ("win"), when nothing can change any more ("stalemate"), or at ``max_turns``
        ("truncated"); None while it runs."""
        if self.truncated:
            return "truncated"
        if not self.terminated:
            return None
        return "stalemate" if self.winner is None else "win"

    def player_scores(self):
        """Tangata Manu in ceremonies, plus 1 for the amulet (RULES.md, End of the Game)."""
        scores = [TANGATA_MANU_PER_CLAN - self.manu_supply[c] for c in range(self.num_players)]
        if self.amulet is not None:
            scores[self.amulet] += 1
        return scores

    def rewards(self, mode="win_loss"):
        """Rewards arrive only when the game ends by the rules; a truncated or running game gives 0."""
        if mode not in REWARD_MODES:
            raise ValueError(f"unknown reward mode {mode!r}; use one of {REWARD_MODES}")
        n = self.num_players
        if not self.terminated:
            return [0.0] * n
        if mode == "win_loss":
            if self.winner is None:            # stalemate: nobody won, nobody lost
                return [0.0] * n
            return [1.0 if c == self.winner else -1.0 for c in range(n)]
        scores = self.player_scores()
        if mode == "score":
            return [float(s) for s in scores]
        return [float(scores[c] - max(scores[o] for o in range(n) if o != c)) for c in range(n)]

    # ------------------------------------------------------------------ playing

    def step(self, action):
        """Play the decision of the clan to act; then run the game on until the next decision."""
        if self.phase == "over":
            raise ValueError("the game is over; no action is legal")
        action = whole_number("action", action)   # int() would take 0.9 as 0 and "5" as 5
        legal = self.legal_actions()
        if action not in legal:
            raise ValueError(f"illegal action {action} ({describe_action(action)}) for clan "
                             f"{self.to_act} in the {self.phase} phase")
        clan = self.to_act
        self.last_action[clan] = action
        if self.phase == "dominance":
            self._dominance(clan, action)
            if self._check_supremacy_and_victory():
                return
            if self._ceremonial_phase(clan):
                self._end_turn()
        elif self.phase == "moai":
            self._build_moai(clan, action - MOAI_BASE)
            if self._check_supremacy_and_victory():
                return
            if self._ceremonial_phase(clan):
                self._end_turn()
        else:  # "ceremony"
            self._start_ceremony(clan, action - CEREMONY_BASE)
            if self._check_supremacy_and_victory():
                return
            # Part a is over for this turn: "perform these two actions in the following order", so a
            # Moai that this ceremony makes possible waits for a later Ceremonial Phase.
            if self._ceremonies(clan):
                self._end_turn()

    def _dominance(self, clan, action):
        """[Dominance Phase] a, b or c."""
        if action >= WITHDRAW_BASE:
            # c. Remove political forces: everything but one token goes back; the chief cannot be
            # left alone, so it always returns.
            t = action - WITHDRAW_BASE
            self.token_supply[clan] += self.tokens[t] - 1
            self.tokens[t] = 1
            if self.chief_at[clan] == t:
                self.chief_at[clan] = None
            return
        t, rest = divmod(action, 2 * TOKENS_PER_CLAN)
        k, chief = rest // 2 + 1, rest % 2
        defender = self.owner[t]
        if defender is not None:
            # b. "The clan that loses control must remove all their pieces from this territory."
            self.token_supply[defender] += self.tokens[t]
            if self.chief_at[defender] == t:
                self.chief_at[defender] = None
        self.owner[t] = clan
        self.tokens[t] = k
        self.token_supply[clan] -= k
        if chief:
            self.chief_at[clan] = t
        if defender is not None:
            # "if any Tangata Manu ceremony is no longer protected, it must be removed from the
            # board" -- of any clan, since only the defender lost a territory but checking all is
            # the plain reading.
            for g in range(NUM_GROUNDS):
                holder = self.grounds[g]
                if holder is not None and not self.ground_protected_for(g, holder):
                    self.grounds[g] = None
                    self.manu_supply[holder] += 1

    def _build_moai(self, clan, t):
        """[Ceremonial Phase a] Remove every piece on the surrounded territory; a Moai stands there."""
        self.token_supply[clan] += self.tokens[t]
        if self.chief_at[clan] == t:
            self.chief_at[clan] = None
        self.tokens[t] = 0
        self.owner[t] = None
        self.moai[t] = True
        self.moai_left -= 1

    def _start_ceremony(self, clan, g):
        """[Ceremonial Phase b] One Tangata Manu from supply onto the ground; it never moves."""
        self.grounds[g] = clan
        self.manu_supply[clan] -= 1

    def _check_supremacy_and_victory(self):
        """[Spiritual Supremacy] then [End of the Game], after every action of every kind.

        Returns True when the game has just been won."""
        counts = [self.sacred_count(c) for c in range(self.num_players)]
        for c in range(self.num_players):
            others = [counts[o] for o in range(self.num_players) if o != c]
            if counts[c] >= 3 and all(counts[c] > x for x in others):
                # Taken from whoever held it; kept otherwise even when the conditions lapse.
                self.amulet = c
        # "they must have the 5 Tangata Manu of their clan in ceremonies on the board and the clan
        # must have the Make Make amulet" -- whoever's action it was.
        if self.amulet is not None and self.manu_supply[self.amulet] == 0:
            self.winner = self.amulet
            self._game_over(terminated=True)
            return True
        return False

    def _ceremonial_phase(self, clan):
        """[Ceremonial Phase] "You must perform these two actions in the following order": a then b,
        for the clan whose turn it is.

        Returns True when the phase is complete (the turn can end); False when it stopped to ask
        the clan a choice or the game was won."""
        return self._moai(clan) and self._ceremonies(clan)

    def _moai(self, clan):
        """[Ceremonial Phase a] Building a Moai: obligatory while Moai remain; the clan chooses the
        order when several qualify, and the conditions are looked at again after each build."""
        while self.moai_left > 0:
            sites = self.moai_sites_for(clan)
            if not sites:
                break
            if len(sites) >= 2:
                self.phase, self.to_act = "moai", clan
                return False
            self._build_moai(clan, sites[0])
            if self._check_supremacy_and_victory():
                return False
        return True

    def _ceremonies(self, clan):
        """[Ceremonial Phase b] Tangata Manu ceremonies: obligatory while Tangata Manu remain; a
        choice only when there are more free grounds than Tangata Manu."""
        while self.manu_supply[clan] > 0:
            free = self.free_grounds_for(clan)
            if not free:
                break
            if len(free) > self.manu_supply[clan]:
                self.phase, self.to_act = "ceremony", clan
                return False
            for g in free:
                self._start_ceremony(clan, g)
                if self._check_supremacy_and_victory():
                    return False
        return True

    def _end_turn(self):
        """The turn is over: the next clan clockwise plays, unless max_turns is reached.

        A clan with no legal dominance action passes without being asked (RULES.md); its Ceremonial
        Phase still runs.  When every clan in a row of such passes has nothing to build or
        celebrate either, nothing can ever change again: the game ends as a stalemate."""
        idle = 0
        while True:
            self.turns += 1
            if self.turns >= self.max_turns:
                self._game_over(terminated=False)
                return
            clan = (self.to_act + 1) % self.num_players
            self.phase, self.to_act = "dominance", clan
            if self.dominance_actions(clan):
                return
            self.last_action[clan] = "pass"
            if self.has_ceremonial_work(clan):
                idle = 0
            else:
                idle += 1
                if idle >= self.num_players:
                    self._game_over(terminated=True)
                    return
            if not self._ceremonial_phase(clan):
                return

    def _game_over(self, terminated):
        self.terminated = terminated
        self.truncated = not terminated
        self.phase = "over"
        self.to_act = None
