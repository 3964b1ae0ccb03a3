"""Dadaocheng on JAX (in progress, issue #29), tested piece by piece against the Python
engine: the disc grid (:mod:`.grid`: showing colours, candidate lines, flips, whether a
cascade can end), Stage 2 (:mod:`.cascade`: collect and stock, corruption, the loop checks
and the loop's fixed rewards) and the disc layout deal (:mod:`.layout`, the setup's exact
distribution). The engine itself (``init`` / ``step`` / ``observe``) is not built yet."""

from __future__ import annotations
