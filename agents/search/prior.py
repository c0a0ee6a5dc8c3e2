"""A policy network's probabilities inside Numba: the guided search's prior below its root.

The guided search (``agents.search.mcts.GuidedMCTSAgent``) asks its network at every node it expands,
for the player to act there, from that player's observation of the simulation's determinization, so
the forward pass runs inside the search's Numba loop, once per simulation at most.  ``pack`` turns a
network file's layers (``agents.learned.network.read_network``: a first layer, equal hidden layers, an
action head that may also read the inputs) into the arrays ``policy`` reads; ``NO_NETWORK`` is the
empty set the unguided search passes.

The observations are int8 and mostly zero, so the first layer and the head's part that reads the
inputs are summed over the nonzero inputs only, each from a transposed weight matrix (one contiguous
row per input), and the head's part that reads the hidden layer is computed for the legal actions
only: about 10 µs a forward pass in Maka Bana, where the dense one costs 0.4 M multiply-adds.

A network file may also hold a value network (``agents.learned.network.read_value``): the same form
with a head of one output, ``tanh`` of which is the player's expected result in [-1, 1] (1 a win, -1
a loss) from its own observation.  ``pack_value`` packs it and ``value`` plays it, the first layer
summed over the nonzero inputs as in ``policy``.

``policy``, ``value`` and ``scorer_policy`` run inside the search's loop, at every node it expands,
and check nothing, as the games' ``kernels`` do: a network of the wrong size, an observation that is
not int8 or an empty network (``NO_NETWORK``, see ``has_network``) reads outside the arrays and gives
nonsense.  The checks are where the networks enter: ``pack``, ``pack_value`` and ``pack_scorer`` refuse
layers that cannot be played, and ``GuidedMCTSAgent.reset`` refuses a guide whose sizes are not the
game's (``SnapshotAgent.check_game``, ``ScorerAgent.reset``); the search then sizes every buffer it
hands these kernels from the network and the game.
"""
import numpy as np
from numba import njit

ACTIVATION_IDS = {"tanh": 0, "relu": 1}
INPUT_TRANSFORMS = ("none", "log")   # a network's ``features``, as agents.learned.network.FEATURES names them


def pack(layers, activation, features, skip):
    """The arrays of ``policy`` for a network's layers ``[(w, b), …]`` (torch's ``(out, in)`` weights)
    and settings (``agents.learned.network.read_network``)."""
    if len(layers) < 2:
        raise ValueError(f"a policy network for the search needs a hidden layer and a head, got {len(layers)} layers")
    if activation not in ACTIVATION_IDS:
        raise ValueError(f"the search's network supports the activations {sorted(ACTIVATION_IDS)}, not {activation!r}")
    if any(np.ndim(w) != 2 for w, _ in layers):
        raise ValueError(f"the search's network needs 2-D weights (out, in), got {[np.shape(w) for w, _ in layers]}")
    (w_in, b_in), *hidden, (w_head, b_head) = layers
    width = w_in.shape[0]
    if any(w.shape != (width, width) for w, _ in hidden):
        raise ValueError(f"the search's network needs hidden layers of equal width; got "
                         f"{[w_in.shape] + [w.shape for w, _ in hidden]}")
    # the Numba forward pass indexes by these shapes unchecked, so a layer that does not fit is refused
    head_inputs = width + (w_in.shape[1] if skip else 0)
    if w_head.shape[1] != head_inputs or any(b.shape != (w.shape[0],) for w, b in layers):
        raise ValueError(f"the layers of the search's network do not fit together: weights "
                         f"{[w.shape for w, _ in layers]}, biases {[b.shape for _, b in layers]}; the head "
                         f"must read {head_inputs} values (the hidden width{' and the inputs' if skip else ''})")
    # and what SnapshotAgent refuses (``agents.learned.network.check_network``, a layer above this one):
    # an unknown ``features`` was played as "none", NaN or integer weights as probabilities of NaN
    if features not in INPUT_TRANSFORMS:
        raise ValueError(f"features must be one of {', '.join(INPUT_TRANSFORMS)}, got {features!r}")
    check_layers(layers, None, "the policy network", outputs=None, skip=bool(skip))
    f32 = lambda a: np.ascontiguousarray(a, dtype=np.float32)
    w_mid = np.zeros((len(hidden), width, width), np.float32)
    b_mid = np.zeros((len(hidden), width), np.float32)
    for i, (w, b) in enumerate(hidden):
        w_mid[i], b_mid[i] = w, b
    flags = np.array([bool(skip), ACTIVATION_IDS[activation]], dtype=np.int64)
    # the input transform of every int8 value, looked up (index value + 128) instead of computed
    values = np.arange(-128, 128, dtype=np.float64)
    inputs = f32(np.sign(values) * np.log1p(np.abs(values)) if features == "log" else values)
    # the head's part that reads the inputs, transposed: a nonzero input adds one contiguous row
    w_skip = w_head[:, width:].T if skip else np.zeros((0, w_head.shape[0]))
    return (f32(w_in.T), f32(b_in), w_mid, b_mid, f32(w_head[:, :width]), f32(w_skip), f32(b_head), flags, inputs)


def pack_value(layers, activation, features):
    """The arrays of ``value`` for a value network's layers (the form of ``pack``'s, one output)."""
    if not layers or layers[-1][0].shape[0] != 1:
        raise ValueError(f"a value network ends in one output, got weights {[w.shape for w, _ in layers]}")
    check_layers(layers, None, "the value network")   # named as such, before pack's policy-network check
    return pack(layers, activation, features, False)


NO_NETWORK = (np.zeros((0, 0), np.float32), np.zeros(0, np.float32), np.zeros((0, 0, 0), np.float32),
              np.zeros((0, 0), np.float32), np.zeros((0, 0), np.float32), np.zeros((0, 0), np.float32),
              np.zeros(0, np.float32), np.zeros(2, np.int64), np.zeros(256, np.float32))


@njit(cache=True)
def has_network(net):
    return net[1].shape[0] > 0


@njit(cache=True, fastmath=True)
def _activate(h, relu):
    for j in range(h.shape[0]):
        h[j] = max(h[j], 0.0) if relu else np.tanh(h[j])


@njit(cache=True, fastmath=True)
def _hidden(net, obs, nz, xs):
    """The last hidden layer of ``net`` for ``obs``; the nonzero inputs and their transformed values
    into ``nz`` and ``xs``, and their count."""
    w_in, b_in, w_mid, b_mid, w_head, w_skip, b_head, flags, inputs = net
    relu = flags[1] != 0
    width = b_in.shape[0]
    count = 0
    for i in range(obs.shape[0]):
        if obs[i] != 0:
            nz[count] = i
            xs[count] = inputs[obs[i] + 128]
            count += 1
    h = b_in.copy()
    for k in range(count):
        row = w_in[nz[k]]
        v = xs[k]
        for j in range(width):
            h[j] += v * row[j]
    _activate(h, relu)
    h2 = np.empty(width, np.float32)
    for layer in range(w_mid.shape[0]):
        for j in range(width):
            w = w_mid[layer, j]
            z = b_mid[layer, j]
            for i in range(width):
                z += w[i] * h[i]
            h2[j] = z
        _activate(h2, relu)
        h, h2 = h2, h
    return h, count


@njit(cache=True, fastmath=True)
def value(net, obs):
    """The value network's result for the player whose observation ``obs`` is, in [-1, 1].  Unchecked
    (see the module docstring): ``net`` a value network (``has_network``), ``obs`` int8 of its inputs."""
    nz = np.empty(obs.shape[0], np.int64)
    xs = np.empty(obs.shape[0], np.float32)
    h, _count = _hidden(net, obs, nz, xs)
    w_head, b_head = net[4], net[6]
    z = b_head[0]
    for j in range(h.shape[0]):
        z += w_head[0, j] * h[j]
    return np.tanh(z)


@njit(cache=True, fastmath=True)
def _softmax(out, mask, top):
    """The logits ``out`` of the actions whose ``mask`` entry is nonzero (``top`` the largest) turned
    into probabilities in place; returns the largest probability."""
    total = 0.0
    for a in range(out.shape[0]):
        if mask[a]:
            out[a] = np.exp(out[a] - top)
            total += out[a]
    best = 0.0
    for a in range(out.shape[0]):
        if mask[a]:
            out[a] /= total
            best = max(best, out[a])
    return best


@njit(cache=True, fastmath=True)
def policy(net, obs, mask, out):
    """The network's probabilities of the legal actions (``mask`` entries nonzero) into ``out`` (zero
    elsewhere); returns the largest.  Unchecked (see the module docstring): ``obs`` int8 with the
    network's inputs (``net[0].shape[0]``), ``mask`` and ``out`` with its actions (``net[6].shape[0]``)."""
    w_in, b_in, w_mid, b_mid, w_head, w_skip, b_head, flags, inputs = net
    skip = flags[0] != 0
    width = b_in.shape[0]
    nz = np.empty(obs.shape[0], np.int64)          # the nonzero inputs, and their (transformed) values
    xs = np.empty(obs.shape[0], np.float32)
    h, count = _hidden(net, obs, nz, xs)
    na = out.shape[0]
    inputs_part = np.zeros(na, np.float32)
    if skip:
        for k in range(count):
            row = w_skip[nz[k]]
            v = xs[k]
            for a in range(na):
                inputs_part[a] += v * row[a]
    top = -np.inf
    for a in range(na):
        out[a] = 0.0
        if mask[a]:
            w = w_head[a]
            z = b_head[a] + inputs_part[a]
            for j in range(width):
                z += w[j] * h[j]
            out[a] = z
            top = max(top, z)
    return _softmax(out, mask, top)


# ---------------------------------------------------------------------------------------------------
# An action scorer (``agents.learned.scorer``) inside Numba: Mauna Kea's guide below the root.
def check_layers(layers, inputs, where, outputs=1, skip=False):
    """Layers ``[(w (out, in), b (out,)), …]`` must chain ``inputs`` numbers (None: as many as the first
    layer takes) to ``outputs`` (1 logit for a scorer; None: any number), the last layer also reading
    the inputs with ``skip``, with finite floating-point weights: Numba indexes by these widths
    unchecked, and numpy would fail at the first move or play nonsense."""
    if not layers:
        raise ValueError(f"{where} has no layers")
    if inputs is None and np.ndim(layers[0][0]) == 2:
        inputs = np.shape(layers[0][0])[1]
    width = inputs
    for i, (w, b) in enumerate(layers):
        w, b = np.asarray(w), np.asarray(b)
        if w.ndim != 2 or b.shape != (w.shape[0],):
            raise ValueError(f"{where}: layer {i} has weights {w.shape} and bias {b.shape}; a layer's weights "
                             f"are 2-D, with one bias per row")
        takes = width + (inputs if skip and 0 < i == len(layers) - 1 else 0)
        if w.shape[1] != takes:
            raise ValueError(f"{where}: layer {i} has weights {w.shape} and bias {b.shape}, but takes {takes} "
                             f"inputs; the layers must chain {inputs} inputs to the last layer")
        if not (np.issubdtype(w.dtype, np.floating) and np.issubdtype(b.dtype, np.floating)
                and np.isfinite(w).all() and np.isfinite(b).all()):
            raise ValueError(f"{where}: layer {i} holds weights that are not finite floating-point numbers")
        width = w.shape[0]
    if outputs is not None and width != outputs:
        raise ValueError(f"{where}: the last layer must give {'1 logit' if outputs == 1 else outputs}, got {width}")


def pack_scorer(layers, num_features):
    """The arrays of ``scorer_policy`` for a scorer's layers ``[(w (out, in), b (out,)), …]`` over
    ``num_features`` features: the weights and biases padded to the widest layer, and every layer's
    width (inputs first).  Layers that do not chain are refused: Numba indexes by these widths
    unchecked."""
    check_layers(layers, num_features, "the search's action scorer")
    widths = [layers[0][0].shape[1]] + [w.shape[0] for w, _ in layers]
    top = max(widths)
    w_all = np.zeros((len(layers), top, top), np.float64)
    b_all = np.zeros((len(layers), top), np.float64)
    for i, (w, b) in enumerate(layers):
        w_all[i, :w.shape[0], :w.shape[1]] = w
        b_all[i, :b.shape[0]] = b
    return w_all, b_all, np.array(widths, np.int64)


NO_SCORER = (np.zeros((0, 0, 0)), np.zeros((0, 0)), np.zeros(0, np.int64))


@njit(cache=True)
def has_scorer(scorer):
    return scorer[2].shape[0] > 0


@njit(cache=True, fastmath=True)
def scorer_policy(scorer, rows, mask, out):
    """The scorer's softmax over the actions whose ``mask`` entry is nonzero, from their feature
    ``rows``, into ``out`` (zero elsewhere); returns the largest probability.  Hidden layers are
    rectified, as ``agents.learned.scorer.scorer_logits`` computes them.  Unchecked (see the module
    docstring): ``rows`` has a row per entry of ``mask`` and ``out``, as wide as the scorer's input."""
    w_all, b_all, widths = scorer
    layers = w_all.shape[0]
    top_width = w_all.shape[1]
    h = np.zeros(top_width)
    h2 = np.zeros(top_width)
    top = -np.inf
    for a in range(out.shape[0]):
        out[a] = 0.0
        if mask[a] == 0:
            continue
        for i in range(widths[0]):
            h[i] = rows[a, i]
        for layer in range(layers):
            for j in range(widths[layer + 1]):
                z = b_all[layer, j]
                for i in range(widths[layer]):
                    z += w_all[layer, j, i] * h[i]
                h2[j] = max(z, 0.0) if layer < layers - 1 else z
            h, h2 = h2, h
        out[a] = h[0]
        top = max(top, h[0])
    return _softmax(out, mask, top)
