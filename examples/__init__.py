"""Runnable examples; ``examples.ecosystem`` holds the recipes for other RL libraries."""
