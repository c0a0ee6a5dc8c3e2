"""Agents for the three games: baselines, search, tournaments with ratings, and human play."""
