"""Mauna Kea (work in progress): component data."""
