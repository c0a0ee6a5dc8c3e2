"""Agents for the three games: baselines, search, tournaments with ratings, and human play.

``make_agent(spec, game_info(...))`` builds an agent by name (``agents.registry``);
``agents.match.play_game`` plays one game between agents; ``python -m agents.tournament`` rates them
and ``python -m agents.play`` lets a human play against them.
"""
from .base import Agent, GameInfo
from .games import GAMES, game_info
from .registry import load, make_agent

__all__ = ["Agent", "GAMES", "GameInfo", "game_info", "load", "make_agent"]
