"""A trained action scorer: a small network that rates every legal action from features of the action.

A policy network over Mauna Kea's raw observation (18 × 18 squares in 14 planes) has to find shortest
paths over the board by itself, and on a few CPU cores it does not: the one trained by
``agents.training.train`` imitates only about half of the heuristic's decisions and beats the
heuristic in 1–2% of games (README, "Training").  The action scorer reads instead, for each candidate
action (the legal ones less the pointless pick-ups and drops that the search skips too,
``agents.search.<game>.search_mask``), what the search agent's evaluation makes of it
(``agents.search.<game>.action_features``: the points margin one step ahead, the changes in the
player's own and the others' expected points, the rollout policy's choice, the kind of the action,
two facts of the turn; a scorer may also read the eight ``TURN_FEATURE_NAMES``, the rest of the turn
played out for the best few candidates) and maps those ``K`` numbers to one logit through the same MLP for every
action::

    logit(a) = w_out · relu(W_2 relu(W_1 x_a + b_1) + b_2) + b_out,   x_a = features of action a

and plays the candidate with the highest logit (the first of equal ones; ``deterministic``) or
samples the softmax.  The
weights are learned by ``agents.training.distill`` from the search agent's choices.  The features are computed
on one fixed determinization of the state row (like the search's root prior), so they depend on
what the player knows only; hence the agent reads the state row (``needs_state``), as the search
agent does.

Files: ``.npz`` with ``kind="action_scorer"``, the game's name and variant, the feature names it was
trained on, and the layers ``w0, b0, w1, b1, …``.  Playing needs numpy and the package's Numba code
(the features), not torch.  Only games whose search module provides ``action_features`` have scorers
(``SCORER_GAMES``): Mauna Kea's, and Maka Bana's in its Haapii game (the margin a hut would add, how
surely the others would guess the spot from the card shown, a tiki's expected saving, …; its
distilled scorer plays no better than the policy network, docs/training.md).
"""
import contextlib
import importlib
import zipfile
from pathlib import Path

import numpy as np

from pacific_common import checked
from pacific_common.options import check_flag

from ..base import Agent, GameInfo, ModulesByName, check_game_info
from ..search.prior import check_layers

KIND = "action_scorer"
SCORER_GAMES = ("makabana", "maunakea")
# of those, the games whose features hold the one-step margin that the ``lookahead`` agent plays by, and
# whose search module computes the features of a whole batch of games (``candidate_features``) for
# ``agents.training.train --policy scorer``
LOOKAHEAD_GAMES = ("maunakea",)
BATCHED_FEATURE_GAMES = ("maunakea",)


def features_module(game_name):
    """The module with ``action_features``, ``search_mask``, ``FEATURE_NAMES`` and ``FEATURE_SET_SIZES``
    for a game."""
    if game_name not in SCORER_GAMES:
        raise ValueError(f"action scorers exist for {', '.join(SCORER_GAMES)} only, not {game_name!r}")
    return importlib.import_module(f"agents.search.{game_name}")


def feature_set_size(game_name, name=None):
    """The number of features of the set ``name`` of the game's ``FEATURE_SETS`` (None: the one-step
    features); an unknown name is a ValueError naming the sets there are."""
    rules = features_module(game_name)
    if name is None:
        return rules.NUM_ACTION_FEATURES
    if name not in rules.FEATURE_SETS:
        raise ValueError(f"{game_name}'s scorers read {', '.join(rules.FEATURE_SETS)}, not {name!r}")
    return rules.FEATURE_SETS[name]


def feature_names(game_name, num_features):
    """The names of the features a scorer with ``num_features`` inputs reads: the first
    ``num_features`` of the game's ``FEATURE_NAMES``, where that is one of its ``FEATURE_SET_SIZES``."""
    rules = features_module(game_name)
    if num_features not in rules.FEATURE_SET_SIZES:
        raise ValueError(f"a {game_name} scorer reads {' or '.join(map(str, rules.FEATURE_SET_SIZES))} "
                         f"features (agents.search.{game_name}.FEATURE_NAMES), not {num_features}")
    return rules.FEATURE_NAMES[:num_features]


def check_variant(game_name, variant):
    """``variant``, or the game's first variant with scorers when it is None.  Refuse a variant that
    ``game_name`` (a game with scorers) does not have, or whose decisions have no action features
    (``SCORER_VARIANTS`` of the game's search module, where it has one): a scorer written for it would
    be loaded by no game."""
    rules = features_module(game_name)
    variants = getattr(rules, "SCORER_VARIANTS", None) or tuple(
        importlib.import_module(f"{game_name}_env").raw_env.variants)
    if variant is None:
        return variants[0]
    if not isinstance(variant, str) or variant not in variants:
        raise ValueError(f"{game_name}'s scorers play its {' or '.join(variants)} game, not {variant!r}")
    return variant


@contextlib.contextmanager
def _open(path):
    """``with _open(path) as data``: the ``.npz`` archive at ``path`` (``np.load``), or a ValueError naming
    the file when it is none, or when one of its arrays cannot be read.  A truncated archive or a
    damaged array was a bare ``zipfile.BadZipFile`` (no file named), an array of Python objects numpy's
    "Object arrays cannot be loaded when allow_pickle=False"."""
    try:
        data = np.load(path, allow_pickle=False)
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as error:
        raise ValueError(f"{str(path)!r} is not a readable .npz file ({error})") from None
    if not isinstance(data, np.lib.npyio.NpzFile):
        raise ValueError(f"{str(path)!r} holds a single array, not an .npz archive")
    with data:
        yield _Archive(data, path)


class _Archive:
    """An open ``.npz`` archive whose arrays are read, or refused with the file named, one by one."""

    def __init__(self, data, path):
        self._data, self._path, self.files = data, path, data.files

    def __getitem__(self, key):
        try:
            return self._data[key]
        except (EOFError, zipfile.BadZipFile) as error:  # "Bad CRC-32 for file 'w0.npy'"
            raise ValueError(f"{str(self._path)!r} is not a readable .npz file: its array {key!r} cannot be "
                             f"read ({error})") from None
        except ValueError as error:  # Python objects, which allow_pickle=False refuses
            raise ValueError(f"{str(self._path)!r} is not a readable .npz file: its array {key!r} cannot be "
                             f"read ({error}); a policy file holds arrays of numbers or strings") from None


def is_scorer_file(path):
    with _open(path) as data:
        return "kind" in data.files and str(data["kind"]) == KIND


def save_scorer(path, game_name, layers, variant=None):
    """Write a scorer for ``game_name``'s ``variant`` (None: its first variant with scorers): ``layers``
    is a list of ``(weight (out, in), bias (out,))`` float arrays; the first layer's inputs say which
    feature set it reads."""
    names = feature_names(game_name, np.shape(layers[0][0])[1])
    layers = [(np.asarray(w, np.float32), np.asarray(b, np.float32)) for w, b in layers]
    check_layers(layers, len(names), f"a {game_name} scorer")
    variant = check_variant(game_name, variant)
    arrays = {f"w{i}": w for i, (w, _) in enumerate(layers)}
    arrays.update({f"b{i}": b for i, (_, b) in enumerate(layers)})
    np.savez(path, kind=np.array(KIND), game=np.array(game_name), variant=np.array(variant),
             feature_names=np.array(names), **arrays)
    return Path(path)


LOOKAHEAD_FEATURE = "margin after, less the best action's"


def lookahead_layers(game_name):
    """The scorer that plays one step of look-ahead with the search's evaluation: its only weight
    reads ``LOOKAHEAD_FEATURE``, so it plays the candidate after which its points margin is highest
    (the first of equal ones).  The ``lookahead`` agent (``agents.registry``)."""
    names = features_module(game_name).ACTION_FEATURE_NAMES
    weight = np.zeros((1, len(names)))
    weight[0, names.index(LOOKAHEAD_FEATURE)] = 1.0
    return [(weight, np.zeros(1))]


def scorer_logits(layers, x):
    """The logits of the feature rows ``x`` (one row per action) under a scorer's ``layers``."""
    h = x
    for w, b in layers[:-1]:
        h = np.maximum(h @ w.T + b, 0.0)
    w, b = layers[-1]
    return (h @ w.T + b)[:, 0]


class ActionFeatures(ModulesByName):
    """A game's candidate actions and their feature rows, in buffers kept from one decision to the
    next; ``state`` is an int64 core row (``np.ascontiguousarray``)."""

    def __init__(self, game: GameInfo, num_features=None):
        check_game_info(game)
        self.rules = features_module(game.name)
        variants = getattr(self.rules, "SCORER_VARIANTS", None)
        if variants is not None and game.variant not in variants:
            raise ValueError(f"{game.name}'s action features exist for its {' and '.join(variants)} game only, "
                             f"not {game.variant}")
        if num_features is None:
            num_features = self.rules.NUM_ACTION_FEATURES
        feature_names(game.name, num_features)
        self.game = game
        self._checked = importlib.import_module(f"{game.name}_env.core")   # the game's checked face
        self._mask = np.zeros(game.num_actions, np.int8)
        self._rows = np.zeros((game.num_actions, num_features), np.float64)

    def _check(self, state):
        """Refuse a row that is no position of this game (the game's ``check_state``, then its players and
        variant): the features' kernels read it unchecked, and a short row crashed the interpreter."""
        self._checked.check_state(state)
        core, game = self.game.core, self.game
        if (state[core.NUM_PLAYERS], state[core.VARIANT]) != (game.num_players, game.variant_id):
            raise ValueError(f"the state row is a {state[core.NUM_PLAYERS]}-player game of variant "
                             f"{state[core.VARIANT]}, not the {game.num_players}-player {game.variant} game "
                             f"these features were made for")

    def candidates(self, state):
        """The actions a scorer chooses among (the search's: legal, less pointless free moves)."""
        self._check(state)
        self.rules.search_mask(state, self._mask)
        return np.flatnonzero(self._mask)

    def rows(self, state, player, legal):
        """The feature rows of the actions ``legal`` in ``state``, as ``player`` sees them."""
        self._check(state)
        player = checked.integer("player", player, 0, self.game.num_players - 1)
        legal = np.asarray(legal)
        if legal.dtype.kind not in "iu" or legal.ndim != 1 or legal.size and not (
                0 <= legal.min() and legal.max() < self.game.num_actions):
            raise ValueError(f"legal must be a list of actions from 0 to {self.game.num_actions - 1}, got {legal!r}")
        self._mask[:] = 0
        self._mask[legal] = 1
        self.rules.action_features(state, player, self._mask, self._rows)
        return self._rows[legal]


class ScorerAgent(Agent):
    """Plays an action scorer (see the module docstring)."""

    name = "scorer"
    needs_state = True
    reads_observation = False   # its features come from the state row

    def __init__(self, layers, game_name, variant=None, name=None, deterministic=True):
        # a game without features, a variant without them, layers that do not chain or hold NaN, or
        # that read none of the game's feature sets, are refused here (not at the first move, or never)
        variant = check_variant(game_name, variant)
        check_layers(layers, None, f"a {game_name} scorer")
        self.layers = [(np.asarray(w, np.float64), np.asarray(b, np.float64)) for w, b in layers]
        self.game_name = game_name
        self.variant = variant
        self.deterministic = check_flag("deterministic", deterministic)
        feature_names(game_name, self.layers[0][0].shape[1])
        if name is not None:
            self.name = name

    @classmethod
    def load(cls, path, game: GameInfo = None, **kwargs):
        path = Path(path)
        if not path.is_file():
            raise ValueError(f"no scorer file at {str(path)!r}")
        with _open(path) as data:
            if "kind" not in data.files or str(data["kind"]) != KIND:
                raise ValueError(f"{str(path)!r} is not an action scorer (no kind={KIND!r} in it)")
            missing = [k for k in ("game", "variant", "feature_names", "w0", "b0") if k not in data.files]
            if missing:
                raise ValueError(f"scorer {str(path)!r} lacks {', '.join(missing)}: write scorers with "
                                 f"agents.learned.scorer.save_scorer")
            game_name, variant = str(data["game"]), str(data["variant"])
            names = data["feature_names"]
            if names.ndim != 1:
                raise ValueError(f"scorer {str(path)!r}: feature_names must be a 1-D array of the features' "
                                 f"names, got shape {names.shape}")
            names = tuple(str(n) for n in names)
            layers = []
            while f"w{len(layers)}" in data.files and f"b{len(layers)}" in data.files:
                layers.append((data[f"w{len(layers)}"], data[f"b{len(layers)}"]))
        if game is not None:
            check_game_info(game)
        if game is not None and game.name != game_name:
            raise ValueError(f"scorer {str(path)!r} was trained for {game_name}, not {game.name}")
        if game is not None and game.variant != variant:
            raise ValueError(f"scorer {str(path)!r} was trained for {game_name}'s {variant} game, not "
                             f"{game.variant}")
        rules = features_module(game_name)
        if len(names) not in rules.FEATURE_SET_SIZES or names != rules.FEATURE_NAMES[:len(names)]:
            raise ValueError(f"scorer {str(path)!r} was trained on the features {names}; this version "
                             f"of agents.search.{game_name} computes {rules.FEATURE_NAMES} (or the first "
                             f"{rules.NUM_ACTION_FEATURES} of them)")
        check_layers(layers, len(names), f"scorer {str(path)!r}")
        kwargs.setdefault("name", path.stem)
        try:
            return cls(layers, game_name, variant, **kwargs)
        except ValueError as error:   # the file's variant, when no game was given to compare it with
            raise ValueError(f"scorer {str(path)!r}: {error}") from None

    def reset(self, game: GameInfo, player: int, seed=None) -> None:
        check_game_info(game)   # before reading its name: the base class checks only after this
        if game.name != self.game_name or game.variant != self.variant:
            raise ValueError(f"this scorer plays {self.game_name} ({self.variant}), not {game.name} "
                             f"({game.variant})")
        super().reset(game, player, seed)
        self._features = ActionFeatures(game, self.num_features)

    @property
    def num_features(self):
        return self.layers[0][0].shape[1]

    def logits(self, x):
        return scorer_logits(self.layers, x)

    def _candidates(self, observation, action_mask, state):
        mask_legal = self.legal_actions(observation, action_mask, state)
        row = np.ascontiguousarray(state, dtype=np.int64)
        legal = self._features.candidates(row)
        if legal.size == 0 or not np.all(action_mask[legal]):
            legal = mask_legal   # never expected: the search's mask is the legal one, pruned
        return row, legal

    def action_probabilities(self, observation, action_mask, state=None):
        """The scorer's softmax over its candidate actions, zero for every other action: what a guided
        search (``agents.search.mcts.GuidedMCTSAgent``) takes as its root prior."""
        row, legal = self._candidates(observation, action_mask, state)
        out = np.zeros(len(action_mask), dtype=np.float64)
        if legal.size == 1:
            out[legal] = 1.0
            return out
        logits = self.logits(self._features.rows(row, int(self.player), legal))
        out[legal] = np.exp(logits - logits.max())
        return out / out.sum()

    def act(self, observation, action_mask, state=None):
        row, legal = self._candidates(observation, action_mask, state)
        if legal.size == 1:
            return int(legal[0])
        logits = self.logits(self._features.rows(row, int(self.player), legal))
        if self.deterministic:
            return int(legal[np.argmax(logits)])
        p = np.exp(logits - logits.max())
        return int(legal[self.rng.choice(legal.size, p=p / p.sum())])
