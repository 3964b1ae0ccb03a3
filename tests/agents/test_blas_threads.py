"""Network agents decide with numpy's BLAS on one thread, and leave the setting as it was
(agents/threads.py: waking BLAS threads for a one-observation forward pass costs more
than it saves, ten times more when the cores are busy)."""

from __future__ import annotations

from typing import Any

import pytest
from formosa_envs.agents import make_agent
from formosa_envs.agents.network import Network
from formosa_envs.agents.policy import PolicyAgent
from formosa_envs.agents.threads import one_blas_thread
from threadpoolctl import threadpool_info, threadpool_limits

from formosa_envs.games import make_game
from formosa_envs.tools.simulate import play_game


def blas_threads() -> list[int]:
    """The thread count of every BLAS library loaded in this process."""
    return [lib["num_threads"] for lib in threadpool_info() if lib["user_api"] == "blas"]


@pytest.fixture
def two_blas_threads() -> Any:
    """BLAS on two threads around the test (so that one thread inside is a change)."""
    if not blas_threads():
        pytest.fail("numpy's BLAS is not visible to threadpoolctl")
    with threadpool_limits(limits=2, user_api="blas"):
        assert set(blas_threads()) == {2}
        yield


def test_the_decorator_limits_and_restores(two_blas_threads: None) -> None:
    seen: list[list[int]] = []

    @one_blas_thread
    def decide(fail: bool) -> None:
        seen.append(blas_threads())
        if fail:
            raise RuntimeError("boom")

    decide(False)
    with pytest.raises(RuntimeError, match="boom"):
        decide(True)
    assert seen == [[1] * len(seen[0])] * 2
    assert set(blas_threads()) == {2}


def recording(cls: type, name: str, seen: list[list[int]], monkeypatch: pytest.MonkeyPatch
              ) -> None:
    """Record the BLAS thread counts whenever ``cls.name`` (a forward pass) runs."""
    original = getattr(cls, name)

    def wrapped(self: Any, *args: Any, **kwargs: Any) -> Any:
        seen.append(blas_threads())
        return original(self, *args, **kwargs)
    monkeypatch.setattr(cls, name, wrapped)


@pytest.mark.parametrize(("spec", "cls", "method"), [
    ("pretrained:net", PolicyAgent, "logits"),
    ("pretrained:az:4", Network, "logits"),
])
def test_network_agents_think_on_one_thread(spec: str, cls: type, method: str,
                                            two_blas_threads: None,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[list[int]] = []
    recording(cls, method, seen, monkeypatch)
    game = make_game("flowers", num_players=2)
    play_game(game, [make_agent(spec, "flowers", 1), make_agent("random", "flowers", 2)], 5)
    assert seen and all(set(threads) == {1} for threads in seen)
    assert set(blas_threads()) == {2}


def test_the_afterstate_agent_scores_on_one_thread(two_blas_threads: None,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    from formosa_envs.agents.afterstate_scoring import CandidateScorer
    seen: list[list[int]] = []
    recording(CandidateScorer, "scores", seen, monkeypatch)
    game = make_game("tea", num_players=2)
    play_game(game, [make_agent("pretrained", "tea", 1), make_agent("random", "tea", 2)], 5)
    assert seen and all(set(threads) == {1} for threads in seen)
    assert set(blas_threads()) == {2}
