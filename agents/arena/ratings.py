"""Ratings and win rates for games of two to five players.

Ratings: a Plackett–Luce model fitted by maximum likelihood.  Each agent i has a strength g_i, and a
game's finishing order is read as successive choices: the winner is "chosen" from all players with
probability g_winner / (sum of their g), the second from the rest, and so on.  With two players this is
exactly Bradley–Terry, i.e. Elo's model, so the strengths are reported on the Elo scale,
400 * log10(g): 200 points apart means the stronger agent beats the weaker one in a two-player game
about 3 times in 4.  We chose it over pairwise Elo updates because it uses the whole finishing order
of a multi-player game at once, does not depend on the order in which games were played, and has a
simple fitting algorithm (the MM algorithm of Hunter, "MM algorithms for generalized Bradley-Terry
models", Annals of Statistics 2004).

* Ties are split: a tie between k players counts as the average over the k! orders they could have
  finished in (a two-player draw is half a win each, as in Elo).  The average is taken over the
  subsets of the tied group rather than over all orders, which gives the same terms with far fewer.
* One virtual drawn game against a fixed reference player of strength 1 (the prior, as in BayesElo)
  keeps ratings finite when an agent wins or loses every game; it weighs as much as one real game.
* Anchoring: ratings are shifted so that the anchor agent (``random`` in the tournament) has 1000,
  or, without an anchor, so that their mean is 1000.

Win rates: a game's win is split evenly between the players tied for first place (``win share``
1/k for a k-way tie; in a Make Make stalemate everybody is tied for first; finishing places are
defined in ``agents.arena.match.finishing_ranks``).  The win rate is the sum of the shares over the games
played, with a Wilson score interval.
"""
from collections.abc import Hashable, Iterable, Mapping
from itertools import combinations
from math import comb, inf, log10, sqrt

import numpy as np

from pacific_common.options import is_finite, is_integer, is_real

ELO_SCALE = 400.0
ANCHOR_RATING = 1000.0


def _stages(ranks, index):
    """The choices of one game as (chosen, remaining players, weight); ``ranks`` maps each player to
    its place.  For a tied group G of size k, the players still to be placed when m of G remain are a
    uniformly random m-subset U of G plus everybody below, and the next one is uniform in U: weight
    1 / (C(k, m) * m)."""
    places = sorted(set(ranks.values()))
    remaining = set(ranks)
    for place in places:
        group = [index[p] for p in ranks if ranks[p] == place]
        remaining -= {p for p in ranks if ranks[p] == place}
        below = [index[p] for p in remaining]
        k = len(group)
        for m in range(1, k + 1):
            for subset in combinations(group, m):
                if m + len(below) < 2:
                    continue  # the last player left is not a choice
                for chosen in subset:
                    yield chosen, list(subset) + below, 1.0 / (comb(k, m) * m)


def plackett_luce(games, labels=None, prior=1.0, tolerance=1e-10, max_iterations=100_000):
    """Maximum-likelihood Plackett–Luce strengths (reference player = 1) from ``games``, each a
    mapping label -> finishing place (1 = first; equal places are ties).  Returns {label: strength}."""
    if not is_real(prior) or not 0 < prior < inf:
        raise ValueError(f"prior must be a positive number (it keeps strengths finite), got {prior!r}")
    if not is_real(tolerance) or not 0 < tolerance < inf:
        raise ValueError(f"tolerance must be a positive number, got {tolerance!r}")
    if not is_integer(max_iterations) or max_iterations < 1:
        raise ValueError(f"max_iterations must be a positive integer, got {max_iterations!r}")
    if isinstance(games, (str, bytes, Mapping)) or not isinstance(games, Iterable):
        raise ValueError(f"games must be a list of games, each a mapping label -> place, got {games!r}")
    games = list(games)
    for game in games:
        if not isinstance(game, Mapping) or not all(is_real(place) and is_finite(place) and place >= 1
                                                    for place in game.values()):
            raise ValueError(f"each game is a mapping label -> finishing place (a number, 1 = first), "
                             f"got {game!r}")
    games = [dict(g) for g in games]
    if labels is None:
        try:
            labels = sorted({p for g in games for p in g})
        except TypeError:   # labels that do not compare: the order of first appearance
            labels = list(dict.fromkeys(p for g in games for p in g))
    elif isinstance(labels, (str, bytes, Mapping)) or not isinstance(labels, Iterable):
        raise ValueError(f"labels must be a list of the players' labels, got {labels!r}")
    labels = list(labels)
    if not all(isinstance(label, Hashable) for label in labels) or len(set(labels)) != len(labels):
        raise ValueError(f"labels must be distinct labels such as names (hashable), got {labels!r}")
    if not labels:
        return {}
    index = {label: i for i, label in enumerate(labels)}
    reference = len(labels)
    stages = []
    for game in games:
        unknown = set(game) - set(index)
        if unknown:
            raise ValueError(f"game {game} names players not in labels: {sorted(unknown)}")
        stages += _stages(game, index)
    for i in range(len(labels)):  # the prior: one drawn game against the reference player
        stages += [(i, [i, reference], prior / 2), (reference, [i, reference], prior / 2)]
    chosen, members, weights = zip(*stages)

    membership = np.zeros((len(chosen), reference + 1))
    for s, remaining in enumerate(members):
        membership[s, remaining] = 1.0
    weights = np.asarray(weights)
    wins = np.bincount(chosen, weights=weights, minlength=reference + 1)
    strength = np.ones(reference + 1)
    for _ in range(max_iterations):
        # MM step: g_i <- (choices won by i) / sum over the choices i took part in of w / (sum of g)
        exposure = membership.T @ (weights / (membership @ strength))
        new = wins / exposure
        new /= new[reference]  # only ratios matter: rescaling every step keeps the reference at 1
        change = np.max(np.abs(np.log(new) - np.log(strength)))
        strength = new
        if change < tolerance:
            break
    return {label: float(strength[i]) for label, i in index.items()}


def fit_ratings(games, labels=None, anchor=None, prior=1.0):
    """Elo-scale ratings {label: rating} from finishing orders (see the module docstring): the
    ``anchor`` label gets 1000 when given and present, else the mean is 1000."""
    if not isinstance(anchor, Hashable):
        raise ValueError(f"anchor must be one label (a player's name) or None, got {anchor!r}")
    strength = plackett_luce(games, labels, prior)
    elo = {label: ELO_SCALE * log10(g) for label, g in strength.items()}
    if not elo:
        return {}
    shift = elo[anchor] if anchor in elo else sum(elo.values()) / len(elo)
    return {label: ANCHOR_RATING + r - shift for label, r in elo.items()}


def wilson_interval(wins, games, z=1.96):
    """Wilson score interval (95% for z = 1.96) for a win rate of ``wins`` (may be fractional, from
    win shares) out of ``games``.  No games: the whole interval (0, 1)."""
    if not (is_real(games) and is_real(wins) and is_real(z)) or not (is_finite(games) and is_finite(wins) and is_finite(z)
                                                                      and z > 0):
        raise ValueError(f"wins and games must be finite numbers and z a positive one, got wins={wins!r}, "
                         f"games={games!r}, z={z!r}")
    if games < 0 or games != int(games):
        raise ValueError(f"games must be a count of games, a whole number of at least 0, got {games}")
    if not 0 <= wins <= games:   # before the answer for no games: 3 wins of 0 games is a miscount
        raise ValueError(f"wins must lie between 0 and games ({games}), got {wins}")
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)
