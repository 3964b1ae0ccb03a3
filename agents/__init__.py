"""Baseline agents for formosa_envs (engine API only: no pettingzoo, no torch)."""

from .base import Agent
from .random_agent import RandomAgent

AGENTS = {"random": RandomAgent}

__all__ = ["AGENTS", "Agent", "RandomAgent"]
