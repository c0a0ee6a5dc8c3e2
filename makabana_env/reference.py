"""A slow, plain-Python reading of the rules of Maka Bana: Haapii Maka Bana (the basic game) and
Maka Bana Mao (the advanced game, ``variant="mao"``).

This module exists to be checked against the fast Numba core (``makabana_env/core.py``). It was written
from the rulebook (``shared/rulebooks/makabana-rulebook-en.txt``, "1st Step: Haapii Maka Bana",
"2nd Step: Maka Bana Mao" and "Maka Bana for 2 Players"), ``shared/RULINGS.md`` and
``makabana_env/RULES.md`` alone, without looking at the core's rules code, so that a mistake in one
is unlikely to be repeated in the other. It favours being easy to compare with the rulebook over being
fast.

Only component data comes from ``makabana_env/board.py``; every rule lives here.

Action encoding (shared with the core):

* ``0 .. 116``   construction project [1.a] on spot ``a // 3``, showing card ``a % 3``
  (0 = its beach card, 1 = its area card, 2 = its theme card) [2. Revealing Hints];
* ``117 .. 233`` take-back project [1.b] on spot ``(a - 117) // 3``, showing card ``(a - 117) % 3``
  together with the paint card;
* ``234 .. 272`` place the tiki on spot ``a - 234`` [3. Placing Tikis].

Maka Bana Mao (RULES.md, "Maka Bana Mao") uses the tiki actions above and 70 more; cards are numbered
0 - 3 beaches (Azzura, Bikini, Coquito, Diabolo), 4 - 7 areas (Sand, Grass, Rock, Lagoon), 8 - 10 themes
(Flower, Fish, Tattoo) and 11 a paint card:

* ``273 .. 284`` project: put card ``a - 273`` on top, visible;
* ``285 .. 296`` project: add card ``a - 285``, hidden -- the card asked (see ``_cards_to_ask``);
* ``297``        project: keep the card asked in hand;
* ``298 .. 301`` denounce the colour ``a - 297`` seats clockwise;
* ``302``        do not denounce;
* ``303 .. 341`` spot ``a - 303``: build or take back there (execution), repaint that hut (payback,
  or Aata designating his hut), accept the repaint of that hut (repaint offer);
* ``342``        stop executing projects; decline the payback; keep the paint card.
"""
from makabana_env import board
from pacific_common.checked import whole_number
from pacific_common.options import check_options

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


# ====================================================================== Maka Bana Mao
# Cards (RULES.md, "Maka Bana Mao", Spaces): beaches 0-3, areas 4-7, themes 8-10, and 11 for a paint
# card. A colour's two paint cards are alike, so a project holds 0, 1 or 2 of card 11.
CARD_NAMES = tuple(board.CARD_NAMES)
NUM_CARDS = len(CARD_NAMES)                       # 12
BEACH_CARDS = tuple(range(0, NUM_BEACHES))                                   # 0..3
AREA_CARDS = tuple(range(NUM_BEACHES, NUM_BEACHES + int(board.NUM_AREAS)))  # 4..7
THEME_CARDS = tuple(range(AREA_CARDS[-1] + 1, AREA_CARDS[-1] + 1 + int(board.NUM_THEMES)))  # 8..10
PAINT = NUM_CARDS - 1                             # 11
BIKINI_CARD = BEACH_CARDS[BIKINI]


def card_kind(card: int) -> str:
    if card in BEACH_CARDS:
        return "beach"
    if card in AREA_CARDS:
        return "area"
    if card in THEME_CARDS:
        return "theme"
    return "paint"


# The three cards (beach, area, theme) that designate each spot [1.a Construct a straw hut].
SPOT_CARDS = [(BEACH_CARDS[int(board.SPOT_BEACH[s])], AREA_CARDS[int(board.SPOT_AREA[s])],
               THEME_CARDS[int(board.SPOT_THEME[s])]) for s in range(NUM_SPOTS)]

# Mao action ranges (RULES.md, "Maka Bana Mao", Spaces); the tiki actions are Haapii's.
MAO_TOP_BASE = NUM_ACTIONS                        # 273 + card: the visible card
MAO_ADD_BASE = MAO_TOP_BASE + NUM_CARDS           # 285 + card: add the card asked, hidden
MAO_KEEP = MAO_ADD_BASE + NUM_CARDS               # 297: keep the card asked in hand
MAO_DENOUNCE_BASE = MAO_KEEP                      # 297 + k: denounce the colour k = 1..4 seats clockwise
MAO_PASS = MAO_DENOUNCE_BASE + 5                  # 302
MAO_SPOT_BASE = MAO_PASS + 1                      # 303 + spot
MAO_STOP = MAO_SPOT_BASE + NUM_SPOTS              # 342
NUM_ACTIONS_MAO = MAO_STOP + 1                    # 343

VARIANTS = ("haapii", "mao")

# The two cases of [Denunciation] where Vaea, eliminated, could repaint a hut.
PAID_BACK = "Aata must be paid back"
NOT_MINDING = "Aata's not minding his business"


class MaoProject:
    """One colour's stack of cards for a Mao season [2nd Step, 1. Secret selection of a project].

    ``cards[card]`` counts the cards of each kind in the stack (0 or 1, or up to 2 for the paint card);
    ``top`` is the visible card. ``to_ask`` holds the hand cards the colour has still to add or keep,
    one decision each, the next one first (RULES.md).
    """

    def __init__(self):
        self.top = None
        self.cards = [0] * NUM_CARDS
        self.to_ask = []
        self.finished = False

    def add(self, card):
        self.cards[card] += 1

    def size(self) -> int:
        return sum(self.cards)

    def cheating(self) -> int:
        """[Who is eliminated for the season?]: the difference between the number of cards and 3."""
        return abs(self.size() - 3)

    def paint(self) -> int:
        return self.cards[PAINT]

    def non_paint_cards(self) -> set:
        return {card for card in range(PAINT) if self.cards[card]}

    def holds(self, card) -> bool:
        return self.cards[card] > 0

    def named_spots(self):
        """Spots designated by a beach, an area and a theme card of this stack [Overloaded project]."""
        return [s for s in range(NUM_SPOTS) if all(self.holds(c) for c in SPOT_CARDS[s])]

    def __repr__(self):
        names = [CARD_NAMES[c] for c in range(NUM_CARDS) for _ in range(self.cards[c])]
        top = None if self.top is None else CARD_NAMES[self.top]
        return f"MaoProject(top={top}, cards={names}, finished={self.finished})"


def describe_mao_action(action: int) -> str:
    if TIKI_BASE <= action < NUM_ACTIONS:
        return f"tiki on {SPOT_NAMES[action - TIKI_BASE]}"
    if MAO_TOP_BASE <= action < MAO_ADD_BASE:
        return f"project: {CARD_NAMES[action - MAO_TOP_BASE]} on top"
    if MAO_ADD_BASE <= action < MAO_KEEP:
        return f"project: add {CARD_NAMES[action - MAO_ADD_BASE]} hidden"
    if action == MAO_KEEP:
        return "project: keep the card in hand"
    if MAO_DENOUNCE_BASE < action < MAO_PASS:
        return f"denounce the colour {action - MAO_DENOUNCE_BASE} seats clockwise"
    if action == MAO_PASS:
        return "do not denounce"
    if MAO_SPOT_BASE <= action < MAO_STOP:
        return f"spot {SPOT_NAMES[action - MAO_SPOT_BASE]}"
    if action == MAO_STOP:
        return "stop / decline / keep the paint card"
    return f"action {action} (not a Mao action, or outside 0..{NUM_ACTIONS_MAO - 1})"


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
    """A game of Haapii Maka Bana (``variant="haapii"``) or Maka Bana Mao (``variant="mao"``), one
    decision at a time.

    Colours ``0 .. num_colours-1`` sit clockwise in index order. With 2 players there are 4 colours and
    colour ``c`` belongs to player ``c % 2`` [Maka Bana for 2 Players]; otherwise each player has one
    colour.

    ``phase`` is one of "project", "tiki" and "over", and in Mao also "denounce", "payback" (Aata
    repaints, or designates his hut), "repaint" (Vaea accepts the repaint or keeps his paint card) and
    "execute" (the executing colour chooses a spot or stops).
    """

    def __init__(self, num_players: int = 4, max_turns: int = 100, variant: str = "haapii"):
        # the options are checked as the environments check them, so that a float or a 0 is refused
        num_players, variant, max_turns, _, _ = check_options(num_players, variant, max_turns, None, "win_loss",
                                                              players=(2, 5), variants=VARIANTS)
        self.variant = variant
        self.mao = variant == "mao"
        self.num_players = num_players
        # [Maka Bana for 2 Players]: "the game plays as if 4 players were involved".
        self.num_colours = 4 if num_players == 2 else num_players
        self.max_turns = max_turns

        # [Setup]: 10 huts, 13 cards (of which 2 paint cards) and 1 tiki per colour.
        self.huts = [None] * NUM_SPOTS
        self.tikis = [None] * NUM_SPOTS
        self.reserve = [HUTS_PER_COLOUR] * self.num_colours
        # In Mao ``paints`` counts the paint cards not yet discarded, wherever they are (hand or stack).
        self.paints = [NUM_PAINT_CARDS] * self.num_colours
        self.projects = None
        self._clear_projects()

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

    def _clear_projects(self):
        """A new season: no projects yet; in Mao also no denunciation and nobody eliminated."""
        if not self.mao:
            self.projects = [None] * self.num_colours
            return
        self.projects = [MaoProject() for _ in range(self.num_colours)]
        self.eliminated = set()
        self.denouncer = None   # Aata
        self.denounced = None   # Vaea
        self.paint_case = None  # PAID_BACK or NOT_MINDING, when Vaea was eliminated and could repaint
        self.offered = None     # the hut Aata designated for Vaea's repaint
        self.execution_started = set()  # colours whose project has been revealed at execution
        self.executing = None   # the colour executing its project now
        self._executed = 0      # projects the executing colour has carried out (0..2)
        self._paint_left = 0    # paint cards of the executing project not yet used
        self._execution_done = False

    # ------------------------------------------------------------------ seats and spots

    def owner(self, colour) -> int:
        """The player who controls ``colour`` [Maka Bana for 2 Players]."""
        return colour % self.num_players

    def is_opponent(self, colour, other) -> bool:
        """A colour of another player: the only colours that may be denounced [Maka Bana for 2 Players].
        Every other rule treats the partner colour as any other colour (RULINGS.md)."""
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
        # RULINGS.md: in Mao, where paint can be hidden, protecting one's own hut is always allowed.
        protecting_allowed = self.mao or self._some_project_shows_paint()
        spots = []
        for spot in range(NUM_SPOTS):
            if not self.in_play(spot) or self.tikis[spot] is not None:
                continue
            hut = self.huts[spot]
            if hut is None:
                # 3.a Forbid Construction.
                spots.append(spot)
            elif protecting_allowed and hut == colour:
                # 3.b Forbid Painting: only while a paint card is visible, and only the colour's own hut
                # (in the 2-player game the partner colour's hut is another colour's, RULINGS.md).
                spots.append(spot)
        return spots

    def legal_actions(self) -> list:
        if self.mao:
            return self._mao_legal_actions()
        if self.phase == "project":
            return sorted(self._project_actions(self.to_act))
        if self.phase == "tiki":
            return sorted(TIKI_BASE + s for s in self._tiki_spots(self.to_act))
        return []

    # ------------------------------------------------------------------ playing

    def step(self, action: int) -> None:
        if self.phase == "over":
            raise ValueError("the game is over: no more actions can be taken")
        action = whole_number("action", action)   # int() would take 0.9 as 0 and "5" as 5
        legal = self.legal_actions()
        if action not in legal:
            description = describe_mao_action(action) if self.mao else describe_action(action)
            raise ValueError(
                f"illegal action {action} ({description}) for colour {self.to_act} "
                f"in the {self.phase} phase")

        colour = self.to_act
        if self.mao:
            self._mao_step(colour, action)
            return
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
        """4.b Take Back Project: another colour's hut, with no tiki, is replaced by one of ours; in the
        2-player game the partner colour's hut too (RULINGS.md: each colour plays as a player).

        A failed take-back keeps its paint card; a successful one discards it.
        """
        victim = self.huts[spot]
        if self.tikis[spot] is not None or victim is None or victim == colour:
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
        self._clear_projects()
        self.first = (self.first + 1) % self.num_colours
        self.phase = "project"
        self._turns_taken = 0
        self.to_act = self.first

    def _game_over(self, terminated: bool):
        self.terminated = terminated
        self.truncated = not terminated
        self.phase = "over"
        self.to_act = None

    # ================================================================== Maka Bana Mao

    def _holds_card(self, colour, card) -> bool:
        """Whether ``card`` is one of ``colour``'s cards this season: its 11 non-paint cards
        ([Setup]: with 3 players "everybody discards his Bikini card") and the paint cards it has not
        discarded."""
        if card == PAINT:
            return self.paints[colour] > 0
        return not (self.num_colours == 3 and card == BIKINI_CARD)

    def _top_cards(self, colour):
        """[2nd Step, 1.]: "Only the first card of the project must be visible. It can be a paint card
        or any other card."""
        return [card for card in range(NUM_CARDS) if self._holds_card(colour, card)]

    def _cards_to_ask(self, colour):
        """RULINGS.md: the number of decisions a colour takes must not depend on what it hides. So after
        the visible card it is asked about every other card of its hand, one by one in increasing card
        number (each paint card on its own), whether to add it or keep it; its hand is public (the
        paint cards it has not discarded), and so is the length of this list."""
        project = self.projects[colour]
        cards = [card for card in range(PAINT) if self._holds_card(colour, card) and card != project.top]
        paints_left = self.paints[colour] - (1 if project.top == PAINT else 0)
        return cards + [PAINT] * paints_left

    def _denounce_targets(self, colour):
        """[Denunciation]: any opponent; in the 2-player game only the other player's colours
        (RULINGS.md). Returned as k, the number of seats clockwise."""
        return [k for k in range(1, self.num_colours)
                if self.is_opponent(colour, (colour + k) % self.num_colours)]

    def _mao_legal_actions(self):
        colour = self.to_act
        if self.phase == "project":
            project = self.projects[colour]
            if project.top is None:
                return [MAO_TOP_BASE + card for card in self._top_cards(colour)]
            return [MAO_ADD_BASE + project.to_ask[0], MAO_KEEP]
        if self.phase == "denounce":
            return [MAO_DENOUNCE_BASE + k for k in self._denounce_targets(colour)] + [MAO_PASS]
        if self.phase == "payback":
            if self.paint_case == PAID_BACK:
                # Aata freely chooses a hut of Vaea's colour to repaint, or declines (RULES.md).
                return [MAO_SPOT_BASE + s for s in range(NUM_SPOTS)
                        if self.huts[s] == self.denounced] + [MAO_STOP]
            # Not minding his business: Aata designates one of his own huts.
            return [MAO_SPOT_BASE + s for s in range(NUM_SPOTS) if self.huts[s] == self.denouncer]
        if self.phase == "repaint":
            # "Vaea is not required to repaint the hut designated by Aata. He can decide to keep his
            # paint card instead."
            return [MAO_SPOT_BASE + self.offered, MAO_STOP]
        if self.phase == "tiki":
            return sorted(TIKI_BASE + s for s in self._tiki_spots(colour))
        if self.phase == "execute":
            spots = self._execution_spots(colour)
            actions = [MAO_SPOT_BASE + s for s in spots]
            if self._overloaded(colour):
                actions.append(MAO_STOP)  # an overloaded project may stop after 0 or 1 projects
            return sorted(actions)
        return []

    def _mao_step(self, colour, action):
        if self.phase == "project":
            self._prepare_project(colour, action)
        elif self.phase == "denounce":
            self._denounce(colour, action)
        elif self.phase == "payback":
            self._payback(action)
        elif self.phase == "repaint":
            self._repaint_offer(action)
        elif self.phase == "tiki":
            self.tikis[action - TIKI_BASE] = colour
            self._turns_taken += 1
            self._mao_tikis()
        else:
            self._execution_choice(colour, action)

    # ---------------------------------------------------------- 1. Secret selection of a project

    def _prepare_project(self, colour, action):
        """[2nd Step, 1.]: a stack of 1 to 13 cards, its first card visible."""
        project = self.projects[colour]
        if MAO_TOP_BASE <= action < MAO_ADD_BASE:
            project.top = action - MAO_TOP_BASE
            project.add(project.top)
            project.to_ask = self._cards_to_ask(colour)
        else:
            card = project.to_ask.pop(0)
            if action != MAO_KEEP:
                project.add(card)
        # Every card of the hand has been asked: the stack is ready.
        if not project.to_ask:
            project.finished = True
            self._turns_taken += 1
        self._mao_projects()

    def _mao_projects(self):
        """Each colour in turn from the first player; then [2. Revealing Hints] and [Denunciation]."""
        order = self._seat_order()
        if self._turns_taken < self.num_colours:
            self.phase = "project"
            self.to_act = order[self._turns_taken]
            return
        # Every stack is ready: the visible cards are revealed and the denunciation round begins with
        # the first player (RULINGS.md).
        self.phase = "denounce"
        self._turns_taken = 0
        self.to_act = order[0]

    # ---------------------------------------------------------- Denunciation

    def _denounce(self, colour, action):
        if action == MAO_PASS:
            self._turns_taken += 1
            if self._turns_taken < self.num_colours:
                self.to_act = self._seat_order()[self._turns_taken]
            else:
                # [Nobody performs a denunciation]: move on to the next phase.
                self._start_tikis()
            return
        # "Only the first denunciation of a season is taken into account."
        self.denouncer = colour
        self.denounced = (colour + action - MAO_DENOUNCE_BASE) % self.num_colours
        self._resolve_denunciation()

    def _could_repaint_spots(self, colour):
        """RULINGS.md: the stack holds a paint card and three cards (beach, area, theme) naming a spot
        that holds another colour's hut right now (a partner colour's too); these are those spots."""
        project = self.projects[colour]
        if project.paint() == 0:
            return []
        return [s for s in project.named_spots()
                if self.huts[s] is not None and self.huts[s] != colour]

    def _resolve_denunciation(self):
        """[Who is eliminated for the season?] and the paint cases that follow."""
        aata, vaea = self.denouncer, self.denounced
        if self.projects[vaea].cheating() <= self.projects[aata].cheating():
            # "Vaea ... has been falsely denunciated. Aata is therefore eliminated."
            self.eliminated.add(aata)
            self._start_tikis()
            return
        self.eliminated.add(vaea)
        spots = self._could_repaint_spots(vaea)
        if not spots:
            self._start_tikis()
            return
        if any(self.huts[s] == aata for s in spots):
            # [Vaea, eliminated, could repaint a hut belonging to Aata: Aata must be paid back!]
            self.paint_case = PAID_BACK
            # RULES.md: asked only when Vaea's colour has a hut on the board.
            if any(h == vaea for h in self.huts):
                self.phase = "payback"
                self.to_act = aata
                return
        else:
            # [Vaea, eliminated, could NOT repaint a hut belonging to Aata: Aata's not minding his
            # business!]: Vaea may repaint a hut of Aata's, chosen by Aata.
            self.paint_case = NOT_MINDING
            aata_huts = [s for s in range(NUM_SPOTS) if self.huts[s] == aata]
            if len(aata_huts) == 1:
                # RULES.md: Aata is asked to designate only when he has two or more huts.
                self._offer_repaint(aata_huts[0])
                return
            if len(aata_huts) >= 2:
                self.phase = "payback"
                self.to_act = aata
                return
        self._start_tikis()

    def _repaint(self, spot, colour):
        """A denunciation repaint: ignores tikis (none are placed yet), the repainted hut goes back to
        its owner's reserve, ``colour`` takes one from its reserve, and one of Vaea's paint cards is
        discarded (RULES.md) -- "Vaea's paint is then discarded" / "Vaea then discards his paint card"."""
        victim = self.huts[spot]
        self.huts[spot] = colour
        self.reserve[colour] -= 1
        self.reserve[victim] += 1
        self.paints[self.denounced] -= 1

    def _payback(self, action):
        if self.paint_case == PAID_BACK:
            # "Aata freely repaints a hut belonging to Vaea, using the Vaea's paint." Declining
            # discards nothing (RULES.md).
            if action != MAO_STOP:
                self._repaint(action - MAO_SPOT_BASE, self.denouncer)
            self._start_tikis()
            return
        self._offer_repaint(action - MAO_SPOT_BASE)

    def _offer_repaint(self, spot):
        self.offered = spot
        self.phase = "repaint"
        self.to_act = self.denounced

    def _repaint_offer(self, action):
        if action != MAO_STOP:
            self._repaint(self.offered, self.denounced)
        self._start_tikis()

    # ---------------------------------------------------------- 3. Placing Tikis

    def _start_tikis(self):
        self.phase = "tiki"
        self._turns_taken = 0
        self._mao_tikis()

    def _mao_tikis(self):
        """As in Haapii, but "if a player has been eliminated, he doesn't place any Tiki"."""
        order = self._seat_order()
        while self._turns_taken < self.num_colours:
            colour = order[self._turns_taken]
            if colour not in self.eliminated and self._tiki_spots(colour):
                self.phase = "tiki"
                self.to_act = colour
                return
            self._turns_taken += 1
        self._turns_taken = 0
        self._mao_execution()

    # ---------------------------------------------------------- 4. Execution of projects

    def _overloaded(self, colour) -> bool:
        return self.projects[colour].size() >= 4

    def _empty_spot(self, spot) -> bool:
        return self.in_play(spot) and self.huts[spot] is None and self.tikis[spot] is None

    def _execution_spots(self, colour):
        """Spots where the executing colour can carry out a project now."""
        project = self.projects[colour]
        if self.reserve[colour] == 0:
            return []  # RULES.md: every build and take-back needs a hut in the colour's reserve
        size = project.size()
        if size == 3:
            # [Normal project]: one beach, one area and one theme naming an empty spot.
            return [s for s in project.named_spots() if self._empty_spot(s)]
        if size < 3:
            # [Incomplete construction project]: never with a paint card, never two cards of one kind;
            # the missing cards come from the hand, so any empty spot matching the given cards.
            cards = [c for c in range(NUM_CARDS) for _ in range(project.cards[c])]
            kinds = [card_kind(c) for c in cards]
            if "paint" in kinds or len(set(kinds)) < len(kinds):
                return []
            return [s for s in range(NUM_SPOTS)
                    if self._empty_spot(s) and all(c in SPOT_CARDS[s] for c in cards)]
        # [Overloaded project]: a construction on an empty spot, or a take-back (with a paint card not
        # used yet) of another colour's hut, with no tiki in either case.
        spots = []
        for s in project.named_spots():
            if self.tikis[s] is not None:
                continue
            hut = self.huts[s]
            if hut is None or (self._paint_left > 0 and hut != colour):
                spots.append(s)
        return spots

    def _mao_execution(self):
        """Clockwise from the first player, skipping eliminated colours ("If a player was eliminated, he
        skips his turn"). Only the executing colour decides, and only where it has a choice."""
        order = self._seat_order()
        while self._turns_taken < self.num_colours:
            colour = order[self._turns_taken]
            if colour in self.eliminated:
                self._turns_taken += 1
                continue
            if self.executing != colour:
                # The first player reveals his project ...
                self.executing = colour
                self.execution_started.add(colour)
                self._executed = 0
                self._paint_left = self.projects[colour].paint()
                self._execution_done = False
            spots = [] if self._execution_done else self._execution_spots(colour)
            if not spots:
                self._turns_taken += 1  # [Next player]
                continue
            if not self._overloaded(colour) and len(spots) == 1:
                # A normal project, or an incomplete one with a single spot: built without asking.
                self._carry_out(colour, spots[0])
                self._execution_done = True
                continue
            self.phase = "execute"
            self.to_act = colour
            return
        self.executing = None
        self._end_season()

    def _carry_out(self, colour, spot):
        victim = self.huts[spot]
        self.huts[spot] = colour
        self.reserve[colour] -= 1
        if victim is not None:
            # A take-back: the removed hut goes back to its owner; "he discards the paint card used".
            self.reserve[victim] += 1
            self.paints[colour] -= 1
            self._paint_left -= 1

    def _execution_choice(self, colour, action):
        if action == MAO_STOP:
            self._execution_done = True
        else:
            self._carry_out(colour, action - MAO_SPOT_BASE)
            self._executed += 1
            # "The government doesn't tolerate more than 2 projects per developer per season."; an
            # incomplete project builds one hut.
            if not self._overloaded(colour) or self._executed == 2:
                self._execution_done = True
        self._mao_execution()

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

    @property
    def end(self):
        """How the game ended, named as in ``pacific_common.ends``: Maka Bana ends only by its
        rulebook ("rules") or at ``max_turns`` ("truncated"); None while it runs."""
        if self.truncated:
            return "truncated"
        return "rules" if self.terminated else None

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
