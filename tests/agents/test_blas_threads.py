"""Agents with a large network decide with numpy's BLAS on one thread and leave the setting
as it was; smaller networks keep the caller's threads (agents/threads.py: on busy cores,
waking BLAS threads made the Taiwan Formosa network 6-11 times slower)."""

from __future__ import annotations

from typing import Any

import pytest
from formosa_envs.agents import make_agent
from formosa_envs.agents.afterstate_scoring import CandidateScorer
from formosa_envs.agents.network import Network
from formosa_envs.agents.policy import PolicyAgent
from formosa_envs.agents.threads import large, one_blas_thread
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

    class Agent:
        single_blas_thread = True

        @one_blas_thread
        def decide(self, fail: bool) -> None:
            seen.append(blas_threads())
            if fail:
                raise RuntimeError("boom")

    Agent().decide(False)
    with pytest.raises(RuntimeError, match="boom"):
        Agent().decide(True)
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


def threads_during_a_game(game_name: str, players: int, spec: str, cls: type, method: str,
                          monkeypatch: pytest.MonkeyPatch) -> list[list[int]]:
    """The BLAS thread counts seen by every call of ``cls.method`` while ``spec`` plays."""
    seen: list[list[int]] = []
    recording(cls, method, seen, monkeypatch)
    game = make_game(game_name, num_players=players)
    agents = [make_agent(spec, game_name, 1)] + [make_agent("random", game_name, 2 + i)
                                                 for i in range(players - 1)]
    play_game(game, agents, 5)
    assert seen, f"{spec} never called {cls.__name__}.{method}"
    return seen


@pytest.mark.parametrize(("spec", "cls", "method"), [
    ("pretrained:net", PolicyAgent, "logits"),
    ("pretrained:az:2", Network, "logits"),
])
def test_a_large_network_decides_on_one_thread(spec: str, cls: type, method: str,
                                               two_blas_threads: None,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """The Taiwan Formosa network (831,488 weights in its first layer) is large."""
    assert large(make_agent("pretrained:net", "taiwan", 0).layers)
    seen = threads_during_a_game("taiwan", 2, spec, cls, method, monkeypatch)
    assert all(set(threads) == {1} for threads in seen)
    assert set(blas_threads()) == {2}


@pytest.mark.parametrize(("game_name", "spec", "cls", "method"), [
    ("flowers", "pretrained:net", PolicyAgent, "logits"),
    ("flowers", "pretrained:az:4", Network, "logits"),
    ("tea", "pretrained", CandidateScorer, "scores"),
])
def test_small_networks_keep_the_callers_threads(game_name: str, spec: str, cls: type,
                                                 method: str, two_blas_threads: None,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Smaller networks gain a little from the threads and lose nothing to them."""
    seen = threads_during_a_game(game_name, 2, spec, cls, method, monkeypatch)
    assert all(set(threads) == {2} for threads in seen)
