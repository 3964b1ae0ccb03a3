"""``formosa bench flowers|dadaocheng --backend jax``: the JAX benchmarks from the command
line."""

from __future__ import annotations

import pytest

from formosa_envs.cli import main


def test_the_jax_benchmark_prints_its_table(capsys) -> None:
    assert main(["bench", "flowers", "--backend", "jax", "--batch", "4"]) == 0
    out = capsys.readouterr().out
    assert "flowers dec/s" in out and "compile s" in out
    row = next(line for line in out.splitlines() if line.split()[:1] == ["4"])
    assert float(row.split()[1].replace(",", "")) > 0


def test_only_flowers_and_dadaocheng_have_jax_engines(capsys) -> None:
    assert main(["bench", "tea", "--backend", "jax"]) == 2
    assert "flowers and dadaocheng have JAX engines" in capsys.readouterr().err


@pytest.mark.slow  # compiles the Dadaocheng vec env and two PGX games: minutes
def test_the_dadaocheng_benchmark_prints_its_table(capsys) -> None:
    assert main(["bench", "dadaocheng", "--backend", "jax", "--batch", "2"]) == 0
    out = capsys.readouterr().out
    assert "dadaocheng dec/s" in out and "sparrow mahjong dec/s" in out
    row = next(line for line in out.splitlines() if line.split()[:1] == ["2"])
    assert float(row.split()[1].replace(",", "")) > 0


@pytest.mark.parametrize("batch", ["0", "x"])
def test_a_bad_batch_is_one_line(batch, capsys) -> None:
    assert main(["bench", "flowers", "--backend", "jax", "--batch", batch]) == 2
    assert "--batch" in capsys.readouterr().err
