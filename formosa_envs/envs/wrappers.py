"""PettingZoo's three standard AEC wrappers, with the bookkeeping reads made direct.

:func:`formosa_envs.env` wraps every game as PettingZoo's own ``env()`` functions do:
``TerminateIllegalWrapper`` (an illegal action ends the game with -1 for its agent),
``AssertOutOfBoundsWrapper`` and ``OrderEnforcingWrapper``. In PettingZoo each wrapper
reaches the base env's attributes (``agent_selection``, ``terminations``, ...) through
``__getattr__``, one layer at a time, and an ``agent_iter`` loop reads them about 36
times a decision: with three layers that is about a third of a fast env's step.

The classes here are subclasses of those three wrappers that change one thing: the
bookkeeping attributes :data:`DIRECT` are properties that read the base env at once.
Every method is PettingZoo's own, so illegal actions, out-of-bounds actions and call
order behave exactly as with PettingZoo's wrappers (``isinstance`` checks hold too), and
``OrderEnforcingWrapper``'s "cannot be accessed before reset" errors are kept. Like
PettingZoo's wrappers, these attributes are read-only on a wrapper: the base env
(``env.unwrapped``) owns them.
"""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

DIRECT = ("agent_selection", "agents", "rewards", "terminations", "truncations", "infos",
          "_cumulative_rewards")
"""The base env's attributes a wrapper reads directly (the AEC loop's bookkeeping)."""
BEFORE_RESET = frozenset({"agent_selection", "agents", "rewards", "terminations",
                          "truncations", "infos"})
"""Those ``OrderEnforcingWrapper`` refuses to hand out before ``reset()``."""


def _direct_read(name: str, guarded: bool) -> property:
    """A read-only property returning the base env's attribute ``name``."""
    def read(self: Any) -> Any:
        if guarded and not self._has_reset:
            # an AttributeError from a property falls back to __getattr__, which raises
            # OrderEnforcingWrapper's own message
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self._formosa_base, name)
    read.__name__ = name
    return property(read, doc=f"The base env's ``{name}`` (read directly).")


def _direct_class(wrapper: type, guard: bool = False) -> type:
    """A subclass of PettingZoo ``wrapper`` whose :data:`DIRECT` reads go to the base env."""
    namespace: dict[str, Any] = {
        name: _direct_read(name, guard and name in BEFORE_RESET) for name in DIRECT}

    def __init__(self: Any, env: AECEnv, *args: Any, **kwargs: Any) -> None:
        wrapper.__init__(self, env, *args, **kwargs)
        self._formosa_base = env.unwrapped

    def __str__(self: Any) -> str:  # as PettingZoo's: the base env's name
        return str(self.env) if hasattr(self, "metadata") else repr(self)

    namespace.update(__init__=__init__, __str__=__str__, __module__=__name__,
                     __doc__=f"PettingZoo's ``{wrapper.__name__}`` with direct reads of the "
                             "base env's bookkeeping (see the module docstring).")
    return type(wrapper.__name__, (wrapper,), namespace)


TerminateIllegalWrapper = _direct_class(wrappers.TerminateIllegalWrapper)
AssertOutOfBoundsWrapper = _direct_class(wrappers.AssertOutOfBoundsWrapper)
OrderEnforcingWrapper = _direct_class(wrappers.OrderEnforcingWrapper, guard=True)


def standard_wrappers(env: AECEnv, illegal_reward: float = -1) -> AECEnv:
    """``env`` in the three standard wrappers, in PettingZoo's order."""
    wrapped = TerminateIllegalWrapper(env, illegal_reward=illegal_reward)
    return OrderEnforcingWrapper(AssertOutOfBoundsWrapper(wrapped))
