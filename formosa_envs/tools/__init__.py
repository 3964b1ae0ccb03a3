"""Command implementations behind the ``formosa`` CLI: play, simulate, bench."""
