"""A fingerprint of seeded random games, to show that a change left a game's rules exactly as they were:
the digest of every observation, mask, action and final reward, taken before the change, is compared
with the digest after it."""
import hashlib

import numpy as np


def random_play_digest(core, variant, player_counts, seeds, max_turns, observe_every=1):
    h = hashlib.sha256()
    for n in player_counts:
        for seed in seeds:
            st = np.zeros(core.STATE_SIZE, np.int64)
            core.init(st, n, variant, max_turns, seed)
            obs, mask = np.zeros(core.OBS_SIZE, np.int8), np.zeros(core.NUM_ACTIONS, np.int8)
            k = 0
            while st[core.STATUS] == core.STATUS_RUNNING:
                if k % observe_every == 0:
                    for p in range(n):
                        core.observe_player(st, p, obs, mask)
                        h.update(obs.tobytes())
                        h.update(mask.tobytes())
                a = core.random_action(st)
                h.update(np.int64(a).tobytes())
                core.step(st, a)
                k += 1
            out = np.zeros(n)
            for mode in range(3):
                core.rewards(st, mode, out)
                h.update(out.tobytes())
    return h.hexdigest()
