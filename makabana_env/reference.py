"""A slow, plain-Python reading of the rules of Haapii Maka Bana (the basic game).

This module exists to be checked against the fast Numba core (``makabana_env/core.py``). It was written
from the rulebook (``shared/rulebooks/makabana-rulebook-en.txt``, "1st Step: Haapii Maka Bana" and
"Maka Bana for 2 Players"), ``shared/RULINGS.md`` and ``makabana_env/RULES.md`` alone, without looking
at the core, so that a mistake in one is unlikely to be repeated in the other. It favours being easy to
compare with the rulebook over being fast.

Only component data comes from ``makabana_env/board.py``; every rule lives here.

Action encoding (shared with the core):

* ``0 .. 116``   construction project [1.a] on spot ``a // 3``, showing card ``a % 3``
  (0 = its beach card, 1 = its area card, 2 = its theme card) [2. Revealing Hints];
* ``117 .. 233`` take-back project [1.b] on spot ``(a - 117) // 3``, showing card ``(a - 117) % 3``
  together with the paint card;
* ``234 .. 272`` place the tiki on spot ``a - 234`` [3. Placing Tikis].
"""
from makabana_env import board

# Component data, turned into plain Python values so that the rules below read without numpy.
NUM_SPOTS = int(board.NUM_SPOTS)
NUM_BEACHES = int(board.NUM_BEACHES)
BIKINI = int(board.BIKINI)
SPOT_NAMES = tuple(board.SPOT_NAMES)
SPOT_BEACH = [int(b) for b in board.SPOT_BEACH]
HUTS_PER_COLOUR = int(board.HUTS_PER_COLOUR)
NUM_PAINT_CARDS = int(board.NUM_PAINT_CARDS)
SHOWN_CARD_NAMES = ("beach", "area", "theme")


def _neighbour_lists():
    """Spots whose squares share a side [Points for Groups of Huts]; a shared corner is not enough."""
    square_at = {(int(x), int(y)): s for s, (x, y) in enumerate(board.SPOT_XY.tolist())}
    lists = []
    for x, y in board.SPOT_XY.tolist():
        sides = ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1))
        lists.append(sorted(square_at[p] for p in sides if p in square_at))
    return lists


NEIGHBOURS = _neighbour_lists()

# Action ranges.
NUM_SHOWN = 3
CONSTRUCTION_BASE = 0
TAKE_BACK_BASE = NUM_SPOTS * NUM_SHOWN            # 117
TIKI_BASE = 2 * NUM_SPOTS * NUM_SHOWN             # 234
NUM_ACTIONS = TIKI_BASE + NUM_SPOTS               # 273

# [Points for Groups of Huts]: the first hut is worth 1, the second 2, every later one 3
# (RULES.md extends the printed table past 8 huts the same way).
GROUP_POINTS = (0, 1, 3, 6, 9, 12, 15, 18, 21, 24, 27)

REWARD_MODES = ("win_loss", "score", "margin")


def group_points(size: int) -> int:
    """Points for one group of ``size`` huts of one colour."""
    return GROUP_POINTS[size]


class Project:
    """One colour's project for the season [1. Secret selection of a project].

    ``shown`` is the card on top (0 beach, 1 area, 2 theme). A take-back project also shows its paint
    card [2. Revealing Hints], which is what allows huts to be protected by tikis [3.b].
    """

    def __init__(self, spot: int, shown: int, take_back: bool):
        self.spot = spot
        self.shown = shown
        self.take_back = take_back

    def shows_paint(self) -> bool:
        return self.take_back

    def __repr__(self):
        kind = "take-back" if self.take_back else "construction"
        return f"Project({kind} {SPOT_NAMES[self.spot]}, shows {SHOWN_CARD_NAMES[self.shown]})"


def describe_action(action: int) -> str:
    """A human-readable name for an action, for error messages and debugging."""
    if CONSTRUCTION_BASE <= action < TAKE_BACK_BASE:
        spot, shown = divmod(action - CONSTRUCTION_BASE, NUM_SHOWN)
        return f"construction project on {SPOT_NAMES[spot]} showing the {SHOWN_CARD_NAMES[shown]} card"
    if TAKE_BACK_BASE <= action < TIKI_BASE:
        spot, shown = divmod(action - TAKE_BACK_BASE, NUM_SHOWN)
        return (f"take-back project on {SPOT_NAMES[spot]} showing the paint card and the "
                f"{SHOWN_CARD_NAMES[shown]} card")
    if TIKI_BASE <= action < NUM_ACTIONS:
        return f"tiki on {SPOT_NAMES[action - TIKI_BASE]}"
    return f"action {action} (outside 0..{NUM_ACTIONS - 1})"


class ReferenceGame:
    """A game of Haapii Maka Bana, one decision at a time.

    Colours ``0 .. num_colours-1`` sit clockwise in index order. With 2 players there are 4 colours and
    colour ``c`` belongs to player ``c % 2`` [Maka Bana for 2 Players]; otherwise each player has one
    colour.
    """

    def __init__(self, num_players: int = 4, max_turns: int = 100):
        if num_players not in (2, 3, 4, 5):
            raise ValueError(f"Maka Bana is played by 2 to 5 players, not {num_players}")
        self.num_players = num_players
        # [Maka Bana for 2 Players]: "the game plays as if 4 players were involved".
        self.num_colours = 4 if num_players == 2 else num_players
        self.max_turns = max_turns

        # [Setup]: 10 huts, 13 cards (of which 2 paint cards) and 1 tiki per colour.
        self.huts = [None] * NUM_SPOTS
        self.tikis = [None] * NUM_SPOTS
        self.reserve = [HUTS_PER_COLOUR] * self.num_colours
        self.paints = [NUM_PAINT_CARDS] * self.num_colours
        self.projects = [None] * self.num_colours

        # RULINGS.md: player_0 is the first player of the game.
        self.first = 0
        self.season = 0
        self.last_season = False
        self.terminated = False
        self.truncated = False

        self.phase = "project"
        self.to_act = self.first
        # How many colours have already decided in the current phase, counting the skipped ones.
        self._turns_taken = 0

    # ------------------------------------------------------------------ seats and spots

    def owner(self, colour) -> int:
        """The player who controls ``colour`` [Maka Bana for 2 Players]."""
        return colour % self.num_players

    def is_opponent(self, colour, other) -> bool:
        """RULES.md: the partner colour of a 2-player game is not an opponent."""
        return self.owner(colour) != self.owner(other)

    def in_play(self, spot) -> bool:
        """[Setup, note]: with 3 players the Bikini beach is not used."""
        return not (self.num_colours == 3 and SPOT_BEACH[spot] == BIKINI)

    def beaches_in_play(self):
        return [b for b in range(NUM_BEACHES) if not (self.num_colours == 3 and b == BIKINI)]

    def _seat_order(self):
        """Colours clockwise from the first player: the order of every phase [Setup]."""
        return [(self.first + i) % self.num_colours for i in range(self.num_colours)]

    # ------------------------------------------------------------------ legality

    def _project_actions(self, colour):
        """[1.a, 1.b]: any existing spot may be named; whether it is free only matters at execution."""
        actions = []
        for spot in range(NUM_SPOTS):
            if not self.in_play(spot):
                continue
            for shown in range(NUM_SHOWN):
                actions.append(CONSTRUCTION_BASE + spot * NUM_SHOWN + shown)
        # [1.b]: a take-back needs a paint card still in hand.
        if self.paints[colour] > 0:
            for spot in range(NUM_SPOTS):
                if not self.in_play(spot):
                    continue
                for shown in range(NUM_SHOWN):
                    actions.append(TAKE_BACK_BASE + spot * NUM_SHOWN + shown)
        return actions

    def _some_project_shows_paint(self) -> bool:
        return any(p is not None and p.shows_paint() for p in self.projects)

    def _tiki_spots(self, colour):
        """Where ``colour`` may place its tiki [3. Placing Tikis]."""
        protecting_allowed = self._some_project_shows_paint()
        spots = []
        for spot in range(NUM_SPOTS):
            if not self.in_play(spot) or self.tikis[spot] is not None:
                continue
            hut = self.huts[spot]
            if hut is None:
                # 3.a Forbid Construction.
                spots.append(spot)
            elif protecting_allowed and not self.is_opponent(colour, hut):
                # 3.b Forbid Painting: only while a paint card is visible, and never an opponent's hut.
                spots.append(spot)
        return spots

    def legal_actions(self) -> list:
        if self.phase == "project":
            return sorted(self._project_actions(self.to_act))
        if self.phase == "tiki":
            return sorted(TIKI_BASE + s for s in self._tiki_spots(self.to_act))
        return []

    # ------------------------------------------------------------------ playing

    def step(self, action: int) -> None:
        if self.phase == "over":
            raise ValueError("the game is over: no more actions can be taken")
        if not isinstance(action, int):
            try:
                action = int(action)
            except (TypeError, ValueError):
                raise ValueError(f"an action must be an integer, not {action!r}") from None
        legal = self.legal_actions()
        if action not in legal:
            raise ValueError(
                f"illegal action {action} ({describe_action(action)}) for colour {self.to_act} "
                f"in the {self.phase} phase")

        colour = self.to_act
        if self.phase == "project":
            self._submit_project(colour, action)
        else:
            self.tikis[action - TIKI_BASE] = colour
        self._turns_taken += 1
        self._advance()

    def _submit_project(self, colour, action):
        """[1. Secret selection of a project] and [2. Revealing Hints] in one decision."""
        take_back = action >= TAKE_BACK_BASE
        base = TAKE_BACK_BASE if take_back else CONSTRUCTION_BASE
        spot, shown = divmod(action - base, NUM_SHOWN)
        self.projects[colour] = Project(spot, shown, take_back)

    def _advance(self):
        """Pass the decision to the next colour, or move on to the next phase."""
        order = self._seat_order()
        if self.phase == "project":
            if self._turns_taken < self.num_colours:
                self.to_act = order[self._turns_taken]
                return
            # Every project is prepared: [3. Placing Tikis] starts with the first player.
            self.phase = "tiki"
            self._turns_taken = 0

        # Tiki phase: RULINGS.md, a colour with nowhere to put its tiki does not place it.
        while self._turns_taken < self.num_colours:
            colour = order[self._turns_taken]
            if self._tiki_spots(colour):
                self.to_act = colour
                return
            self._turns_taken += 1

        self._execute_projects()
        self._end_season()

    def _execute_projects(self):
        """[4. Execution of projects]: clockwise from the first player, each in the light of the last."""
        for colour in self._seat_order():
            project = self.projects[colour]
            if project.take_back:
                self._take_back(colour, project.spot)
            else:
                self._construct(colour, project.spot)

    def _construct(self, colour, spot):
        """4.a Construction Project: the spot must have neither a tiki nor a hut."""
        if self.tikis[spot] is not None or self.huts[spot] is not None:
            return
        if self.reserve[colour] == 0:
            return  # no hut left to take from the reserve
        self.huts[spot] = colour
        self.reserve[colour] -= 1

    def _take_back(self, colour, spot):
        """4.b Take Back Project: an opponent's hut, with no tiki, is replaced by one of ours.

        A failed take-back keeps its paint card; a successful one discards it.
        """
        victim = self.huts[spot]
        if self.tikis[spot] is not None or victim is None or not self.is_opponent(colour, victim):
            return
        if self.reserve[colour] == 0:
            return
        self.huts[spot] = colour
        self.reserve[colour] -= 1
        self.reserve[victim] += 1
        self.paints[colour] -= 1

    def _beach_full(self, beach) -> bool:
        """[Game Ends]: every spot of the beach holds a hut or a tiki."""
        return all(self.huts[s] is not None or self.tikis[s] is not None
                   for s in range(NUM_SPOTS) if SPOT_BEACH[s] == beach)

    def _end_season(self):
        """[5. Season End] and [Game Ends], then [Game has not Ended]."""
        self.season += 1
        if any(r == 0 for r in self.reserve):
            # "The game ends immediately if a player doesn't have any hut left in his reserve."
            self._game_over(terminated=True)
            return
        if self.last_season:
            # The one last season announced earlier has now been played.
            self._game_over(terminated=True)
            return
        # Checked before the tikis are lifted (translator's note).
        if any(self._beach_full(b) for b in self.beaches_in_play()):
            self.last_season = True
        if self.season >= self.max_turns:
            self._game_over(terminated=False)
            return

        # [Game has not Ended]: tikis and cards go back, the First Player card moves clockwise.
        self.tikis = [None] * NUM_SPOTS
        self.projects = [None] * self.num_colours
        self.first = (self.first + 1) % self.num_colours
        self.phase = "project"
        self._turns_taken = 0
        self.to_act = self.first

    def _game_over(self, terminated: bool):
        self.terminated = terminated
        self.truncated = not terminated
        self.phase = "over"
        self.to_act = None

    # ------------------------------------------------------------------ scoring

    def _groups(self, colour):
        """Sizes of the groups of ``colour``'s huts [Points for Groups of Huts]."""
        seen = set()
        sizes = []
        for start in range(NUM_SPOTS):
            if self.huts[start] != colour or start in seen:
                continue
            seen.add(start)
            frontier = [start]
            size = 0
            while frontier:
                spot = frontier.pop()
                size += 1
                for n in NEIGHBOURS[spot]:
                    if self.huts[n] == colour and n not in seen:
                        seen.add(n)
                        frontier.append(n)
            sizes.append(size)
        return sizes

    def colour_scores(self) -> list:
        """[Final Scoring and Winner]: group points plus beach bonuses, per colour."""
        scores = [sum(group_points(n) for n in self._groups(c)) for c in range(self.num_colours)]
        # [Bonus for Beaches]: the groups play no part; a colour needs a hut to lead a beach.
        for beach in self.beaches_in_play():
            counts = [0] * self.num_colours
            for spot in range(NUM_SPOTS):
                if SPOT_BEACH[spot] == beach and self.huts[spot] is not None:
                    counts[self.huts[spot]] += 1
            best = max(counts)
            if best == 0:
                continue
            leaders = [c for c in range(self.num_colours) if counts[c] == best]
            if len(leaders) == 1:
                scores[leaders[0]] += 4
            elif len(leaders) == 2:
                for c in leaders:
                    scores[c] += 2
        return scores

    def player_scores(self) -> list:
        """[Maka Bana for 2 Players]: a player's points are the sum of their colours' points."""
        totals = [0] * self.num_players
        for colour, points in enumerate(self.colour_scores()):
            totals[self.owner(colour)] += points
        return totals

    def rewards(self, mode: str = "win_loss") -> list:
        """Rewards per player: only a finished (terminated) game pays; truncation pays 0."""
        if mode not in REWARD_MODES:
            raise ValueError(f"unknown reward mode {mode!r}; expected one of {REWARD_MODES}")
        if not self.terminated:
            return [0.0] * self.num_players
        scores = self.player_scores()
        if mode == "score":
            return [float(s) for s in scores]
        if mode == "margin":
            return [float(scores[p] - max(scores[q] for q in range(self.num_players) if q != p))
                    for p in range(self.num_players)]
        # [Winner]: no tie-break, so players tied for the most points share the win (reward 0).
        best = max(scores)
        winners = [p for p in range(self.num_players) if scores[p] == best]
        if len(winners) == 1:
            return [1.0 if p in winners else -1.0 for p in range(self.num_players)]
        return [0.0 if p in winners else -1.0 for p in range(self.num_players)]
