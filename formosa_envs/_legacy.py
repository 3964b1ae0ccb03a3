"""The old top-level import names ``agents`` and ``training``, kept for one release.

Until 0.2 the distribution installed three top-level packages: ``formosa_envs``,
``agents`` and ``training``. The last two have the most common names in research
code: a project with its own ``agents/`` folder or ``training.py`` shadowed them (or
was shadowed), so they are now ``formosa_envs.agents`` and ``formosa_envs.training``
(the repository keeps the folders at its top; the build maps them into the package),
and evaluation, which needs no learner, is ``formosa_envs.evaluation``.

The wheel installs no top-level ``agents`` or ``training`` any more, so outside a
checkout the old names are simply gone. Inside a checkout (the repository's root on
``sys.path``, as when a script runs from there) ``import agents`` or ``from
training.evaluate import run`` still work for this release, with a
``DeprecationWarning`` naming the new module: :class:`LegacyNames` (a meta path finder)
answers the old names with the very module objects of the new ones, so nothing is
imported twice (one agent registry, one set of classes). A folder named ``agents`` or
``training`` that is not this repository's is never touched.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
import warnings
from pathlib import Path
from types import ModuleType
from typing import Any

REPO = Path(__file__).resolve().parent.parent
"""The checkout's root, where the ``agents/`` and ``training/`` folders live."""

OLD_TRAINING = {
    "train": "training.ppo.train", "callbacks": "training.ppo.callbacks",
    "config": "training.ppo.config", "opponents": "training.ppo.opponents",
    "warm_start": "training.ppo.warm_start", "export": "training.ppo.export",
    "report": "training.ppo.report", "imitation": "training.imitation.data",
    "bc": "training.imitation.bc", "bc_config": "training.imitation.config",
    "network_export": "training.common.network_export",
    "toml_config": "training.common.toml_config",
    "expert_iteration": "training.xit.expert_iteration",
    "xit_selfplay": "training.xit.selfplay", "xit_config": "training.xit.config",
    "jax_ppo": "training.jax.ppo", "jax_selfplay": "training.jax.selfplay",
    "jax_nets": "training.jax.nets", "jax_config": "training.jax.config",
    "train_jax": "training.jax.train", "train_rllib": "training.ppo.train_rllib",
    "evaluate": "evaluation.evaluate", "backends": "evaluation.backends",
    "ratings": "evaluation.ratings", "tournament_report": "evaluation.report",
    "solo": "evaluation.solo", "console": "tools.console",
}
"""The modules of the old flat ``training`` package and where they live now (below
``formosa_envs``)."""


def new_name(old: str) -> str | None:
    """The current module of old name ``old`` (None: not an old name)."""
    top, _, rest = old.partition(".")
    if top == "agents":
        return "formosa_envs." + old
    if top != "training":
        return None
    if not rest:
        return "formosa_envs.training"
    first, _, tail = rest.partition(".")
    if first in OLD_TRAINING:
        return "formosa_envs." + OLD_TRAINING[first] + (f".{tail}" if tail else "")
    return "formosa_envs." + old


def _ours(top: str) -> bool:
    """Whether top-level ``top`` would be imported from this checkout's folder."""
    spec = importlib.machinery.PathFinder.find_spec(top)
    origin = getattr(spec, "origin", None)
    return origin is not None and Path(origin).resolve().parent == REPO / top


class _Alias(importlib.abc.Loader):
    """Loads an old name as the already imported module of its new name."""

    def __init__(self, target: str) -> None:
        self.target = target

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        """The new module itself (imported now if needed)."""
        return importlib.import_module(self.target)

    def exec_module(self, module: ModuleType) -> None:
        """Nothing: the module ran under its new name."""


class LegacyNames(importlib.abc.MetaPathFinder):
    """Answers ``agents...`` and ``training...`` of this checkout with the new modules."""

    def find_spec(self, fullname: str, path: Any = None,
                  target: Any = None) -> importlib.machinery.ModuleSpec | None:
        """A spec aliasing ``fullname`` to its new module, or None (not ours)."""
        new = new_name(fullname)
        if new is None or not _ours(fullname.partition(".")[0]):
            return None
        warnings.warn(f"'{fullname}' is deprecated: import '{new}' (the old top-level "
                      "names go away in formosa_envs 0.3)", DeprecationWarning, stacklevel=2)
        return importlib.util.spec_from_loader(fullname, _Alias(new))


def in_checkout() -> bool:
    """Whether this package runs from a checkout (an editable install or the repository
    on ``sys.path``), not from an installed wheel."""
    return (REPO / "pyproject.toml").is_file() and (REPO / "agents" / "__init__.py").is_file()


def install() -> None:
    """Put :class:`LegacyNames` first on ``sys.meta_path`` (once), in a checkout only."""
    if in_checkout() and not any(isinstance(f, LegacyNames) for f in sys.meta_path):
        sys.meta_path.insert(0, LegacyNames())


def alias_in_place(name: str) -> None:
    """Called by ``agents/__init__.py`` / ``training/__init__.py`` when the folder was
    imported by its old top-level name before the finder was installed: from now on
    the old name and its submodules are the new modules."""
    install()
    new = new_name(name)
    warnings.warn(f"'{name}' is deprecated: import '{new}' (the old top-level names go "
                  "away in formosa_envs 0.3)", DeprecationWarning, stacklevel=3)
    sys.modules[name] = importlib.import_module(new)
