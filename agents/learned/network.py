"""Policy networks as ``.npz`` files, played by numpy: what the shipped policies and the snapshots of
self-play training are.

``save_snapshot(model, path)`` writes the policy network of a MaskablePPO model as a small ``.npz``
file (the layers' weights, the activation, the input transform and whether the action head also reads
the features); ``SnapshotAgent`` plays it with a numpy forward pass (no torch per move: opponents are
a large part of every training step), sampling from the policy or greedily.  Keep numpy's BLAS on one
thread when playing them (``threadpoolctl.threadpool_limits(1)``, as ``agents.training.train`` does):
threaded, its matrix-vector products ran 30 times slower on two busy cores.  ``load_network`` opens
any ``.npz`` policy file: a snapshot, or an action scorer (``agents.learned.scorer``).
"""
from pathlib import Path

import numpy as np

from pacific_common.options import check_flag

from ..base import Agent, check_game_info
from ..search.prior import check_layers
from .scorer import ScorerAgent, _open, is_scorer_file, save_scorer


def squash(x):
    """``sign(x) log(1 + |x|)``, the input transform of ``agents.learned.features.LogFeatures``."""
    return np.sign(x) * np.log1p(np.abs(x))


def relu(x):
    return np.maximum(x, 0.0)


FEATURES = {"FlattenExtractor": "none", "LogFeatures": "log"}
ACTIVATIONS = {"tanh": np.tanh, "relu": relu}   # functions of the module, so that networks pickle


def policy_layers(policy):
    """The actor of a stable-baselines3 ``ActorCriticPolicy`` as numpy arrays: ``(layers, activation,
    features, skip)`` with ``layers`` a list of ``(weight, bias)`` (the policy MLP, then the action
    head), the activation's name, the input transform ("none" or "log") and whether the action head
    also reads the features (``agents.learned.features.SkipPolicy``)."""
    import torch

    extractor = type(policy.features_extractor).__name__
    if extractor not in FEATURES:
        raise ValueError(f"snapshots support the features extractors {sorted(FEATURES)}, not {extractor}")
    layers, activation = [], None
    skip = type(policy.mlp_extractor).__name__ == "SkipMlpExtractor"
    for module in list(policy.mlp_extractor.policy_net) + [policy.action_net]:
        if isinstance(module, torch.nn.Linear):
            layers.append((module.weight.detach().cpu().numpy().astype(np.float32),
                           module.bias.detach().cpu().numpy().astype(np.float32)))
        else:
            name = type(module).__name__.lower()
            if name not in ACTIVATIONS:
                raise ValueError(f"snapshots support the activations {sorted(ACTIVATIONS)}, not {name}")
            activation = name
    return layers, activation or "tanh", FEATURES[extractor], skip


def scorer_layers(policy):
    """The actor of an ``agents.learned.features.ScorerPolicy`` as a scorer's layers ``[(w, b), …]``
    (float32), or None for any other policy."""
    import torch

    if type(policy).__name__ != "ScorerPolicy":
        return None
    return [(m.weight.detach().cpu().numpy().astype(np.float32), m.bias.detach().cpu().numpy().astype(np.float32))
            for m in policy.mlp_extractor.scorer if isinstance(m, torch.nn.Linear)]


def save_snapshot(model, path):
    """Write the policy network of ``model`` (a MaskablePPO) to ``path`` (``.npz``, a few hundred KB);
    an action-scorer policy is written as a scorer file (``agents.learned.scorer.save_scorer``)."""
    scorer = scorer_layers(model.policy)
    if scorer is not None:
        inputs = model.policy.features_extractor
        return save_scorer(path, inputs.game, scorer, inputs.variant)
    return write_network(path, *policy_layers(model.policy))


def check_network(layers, activation, features, skip, value=None):
    """Refuse a policy network (and value network) that ``SnapshotAgent`` could not play: unknown
    settings, layers that do not chain, weights that are not finite."""
    if activation not in ACTIVATIONS:
        raise ValueError(f"activation must be one of {', '.join(ACTIVATIONS)}, got {activation!r}")
    if features not in FEATURES.values():
        raise ValueError(f"features must be one of {', '.join(FEATURES.values())}, got {features!r}")
    check_layers(layers, None, "the policy network", outputs=None, skip=bool(skip))
    if value is not None:
        check_layers(value, None, "the value network", outputs=None)


def write_network(path, layers, activation, features, skip, value=None):
    """Write a policy network's layers ``[(w, b), …]`` and settings (see ``policy_layers``) to ``path``,
    and a value network's layers (``read_value``) if given.  What could not be played back (a fit that
    diverged, say) is refused here, with the file left as it was, not found when it is loaded."""
    check_network(layers, activation, features, skip, value)
    arrays = {f"w{i}": w for i, (w, _) in enumerate(layers)}
    arrays.update({f"b{i}": b for i, (_, b) in enumerate(layers)})
    for i, (w, b) in enumerate(value or []):
        arrays.update({f"vw{i}": w, f"vb{i}": b})
    np.savez(path, activation=np.array(activation), features=np.array(features), skip=np.array(skip),
             **arrays)
    return Path(path)


def read_network(path):
    """``(layers, activation, features, skip)`` of a policy network file, as ``write_network`` takes them.
    A file that is no .npz archive, or lacks an array, is a ValueError naming the file (``NotAPolicyFile``
    for a missing array)."""
    with _open(path) as data:
        try:
            count = sum(name.startswith("w") for name in data.files)
            layers = [(data[f"w{i}"], data[f"b{i}"]) for i in range(count)]
            activation = str(data["activation"])
            features = str(data["features"]) if "features" in data.files else "none"
            skip = data["skip"] if "skip" in data.files else np.array(False)
        except KeyError as error:
            raise _lacks(path, error) from None
    # one flag; an array of them had no truth value, and a string was read as True
    if skip.shape != () or skip.dtype.kind not in "bi":
        raise ValueError(f"snapshot {str(path)!r}: skip must be one boolean (whether the action head also reads "
                         f"the observation), got a {skip.dtype} array of shape {skip.shape}")
    return layers, activation, features, bool(skip)


def read_value(path):
    """The value network of a policy network file, or None: layers ``[(w, b), …]`` over the same
    observation and with the policy's activation and input transform, ending in one output whose
    ``tanh`` is the player's expected result in [-1, 1] (``agents.training.expert_iteration`` fits it
    to the outcomes of the search's games; ``agents.search.prior.value`` plays it)."""
    with _open(path) as data:
        count = sum(name.startswith("vw") for name in data.files)
        try:
            return [(data[f"vw{i}"], data[f"vb{i}"]) for i in range(count)] or None
        except KeyError as error:
            raise _lacks(path, error) from None


def check_sizes(layers, game, what):
    """Refuse a network whose input is not ``game``'s observation or whose head is not its actions."""
    inputs, actions = layers[0][0].shape[1], layers[-1][0].shape[0]
    if (inputs, actions) != (game.obs_size, game.num_actions):
        raise ValueError(f"{what} takes observations of size {inputs} and has {actions} actions; "
                         f"{game.name} ({game.variant}) has {game.obs_size} and {game.num_actions}")


class SnapshotAgent(Agent):
    """A snapshot of the learner's policy (``save_snapshot``) as an agent: samples its action from the
    masked policy distribution (``deterministic=False``, the default: opponents that vary), or plays
    the most likely legal action, as ``agents.learned.policy.PolicyAgent`` does."""

    name = "snapshot"

    def __init__(self, layers, activation="tanh", features="none", skip=False, name=None,
                 deterministic=False, value=None):
        check_network(layers, activation, features, skip, value)
        self.layers = layers
        self.value_layers = value   # a value network (``read_value``), which only a guided search reads
        self.activation_name = activation
        self.activation = ACTIVATIONS[activation]
        self.squash = features == "log"
        self.skip = bool(skip)
        self.deterministic = check_flag("deterministic", deterministic)   # 'no' was taken for True
        # a network may act before any reset (it knows its sizes), so a sampling one needs its generator
        # from the start; reset replaces it with a seeded one
        self.rng = np.random.default_rng()
        if name is not None:
            self.name = name

    @classmethod
    def load(cls, path, game=None, **kwargs):
        path = Path(path)
        if not path.is_file():
            raise ValueError(f"no snapshot file at {str(path)!r}")
        (layers, activation, features, skip), value = _read_snapshot(path)
        try:
            snapshot = cls(layers, activation, features, skip, value=value, **{"name": path.stem, **kwargs})
        except ValueError as error:   # the file's layers or settings: say which file
            raise ValueError(f"snapshot {str(path)!r}: {error}") from None
        if game is not None:
            snapshot.check_game(game, f"snapshot {str(path)!r}")
        return snapshot

    def sizes_without_a_game(self):
        return self.layers[0][0].shape[1], self.layers[-1][0].shape[0]   # a policy is usable before reset

    def reset(self, game, player, seed=None):
        self.check_game(game)   # a game of other sizes failed at the first move, in numpy's words
        super().reset(game, player, seed)

    def check_game(self, game, what=None):
        """Refuse ``game`` if its observation or actions are not the network's sizes (or its value
        network's input is not the observation, or it has more than one output)."""
        check_game_info(game)   # reset comes here before the base class has checked the game
        what = what or f"network {self.name!r}"
        check_sizes(self.layers, game, what)
        if self.value_layers is not None:
            inputs, outputs = self.value_layers[0][0].shape[1], self.value_layers[-1][0].shape[0]
            if (inputs, outputs) != (game.obs_size, 1):
                raise ValueError(f"the value network of {what} takes observations of size {inputs} and has "
                                 f"{outputs} outputs; {game.name} ({game.variant}) has observations of size "
                                 f"{game.obs_size}, and a value is one output")

    def network_settings(self):
        """``(activation, features, skip)``: how ``layers`` are played (``read_network``'s settings)."""
        return self.activation_name, "log" if self.squash else "none", self.skip

    def logits(self, observation):
        x = np.asarray(observation, dtype=np.float32)
        if self.squash:
            x = squash(x)
        h = x
        for w, b in self.layers[:-1]:
            h = self.activation(w @ h + b)
        w, b = self.layers[-1]
        return w @ (np.concatenate([h, x]) if self.skip else h) + b

    def value(self, observation):
        """The value network's expected result for the observing player, in [-1, 1]."""
        if self.value_layers is None:
            raise ValueError(f"{self.name} has no value network")
        h = np.asarray(observation, dtype=np.float32)
        h = squash(h) if self.squash else h
        for w, b in self.value_layers[:-1]:
            h = self.activation(w @ h + b)
        w, b = self.value_layers[-1]
        return float(np.tanh(w @ h + b)[0])

    def action_probabilities(self, observation, action_mask, state=None):
        """The policy's probability of every action (zero where the mask says illegal): what a guided
        search (``agents.search.mcts.GuidedMCTSAgent``) takes as its root prior."""
        legal = self.legal_actions(observation, action_mask, state)
        logits = self.logits(observation)[legal].astype(np.float64)
        out = np.zeros(len(action_mask), dtype=np.float64)
        out[legal] = np.exp(logits - logits.max())
        return out / out.sum()

    def act(self, observation, action_mask, state=None):
        legal = self.legal_actions(observation, action_mask, state)
        logits = self.logits(observation)[legal]
        if self.deterministic:
            return int(legal[np.argmax(logits)])
        p = np.exp(logits - logits.max())
        p /= p.sum()
        # inverse-CDF sampling: one uniform draw, cheaper than Generator.choice
        index = min(int(np.searchsorted(np.cumsum(p), self.rng.random() * p.sum())), legal.size - 1)
        return int(legal[index])


_SNAPSHOTS = {}  # (path, modified) -> what the file holds: every env and seat of a process shares one copy


def _read_snapshot(path, keep=16):
    key = (str(path.resolve()), path.stat().st_mtime_ns)
    if key not in _SNAPSHOTS:
        network = read_network(path), read_value(path)
        while len(_SNAPSHOTS) >= keep:  # the oldest first: the pool draws from the latest ones
            del _SNAPSHOTS[next(iter(_SNAPSHOTS))]
        _SNAPSHOTS[key] = network
    return _SNAPSHOTS[key]


class NotAPolicyFile(ValueError):
    """An .npz archive without the arrays of a policy network or action scorer."""


def _lacks(path, error):
    """The ``NotAPolicyFile`` for the ``KeyError`` of an array missing from the archive at ``path``
    (``agents.make_agent`` adds what files it takes)."""
    return NotAPolicyFile(f"{str(path)!r} is an .npz archive but not a policy network or action scorer "
                          f"({error.args[0]})")


def load_network(path, game, **kwargs):
    """A ``.npz`` policy file as an agent: an action scorer (``agents.learned.scorer``) or a snapshot
    (``SnapshotAgent``)."""
    try:
        if Path(path).is_file() and is_scorer_file(path):
            return ScorerAgent.load(path, game, **kwargs)
        return SnapshotAgent.load(path, game, **kwargs)
    except KeyError as error:  # an .npz archive, but not of the arrays a policy file holds
        raise _lacks(path, error) from None
