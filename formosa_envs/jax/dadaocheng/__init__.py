"""Dadaocheng on JAX (in progress, issue #29): so far the disc grid (:mod:`.grid`: showing
colours, candidate lines, flips, whether a cascade can end), tested against the Python
engine. The engine itself (``init`` / ``step`` / ``observe``) is not built yet."""

from __future__ import annotations
