"""Registration with PettingZoo's ``make`` where the installed PettingZoo has a registry."""


def register(env_id, entry_point):
    try:
        from pettingzoo import register as pettingzoo_register
    except ImportError:  # a PettingZoo without a registry: ``makabana_env.env()`` still works
        return
    pettingzoo_register("aec", env_id, entry_point=entry_point)
