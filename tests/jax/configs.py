"""A tiny ``[jax]`` training config written to disk, shared by the JAX trainer tests."""

from __future__ import annotations

from pathlib import Path


def write_jax_config(path: Path, settings: dict[str, object]) -> Path:
    """Write ``settings`` as the ``[jax]`` table of a TOML file at ``path`` (strings,
    numbers, booleans and lists of strings, as the trainer's configs hold) and return
    the path."""
    def value(v: object) -> str:
        if isinstance(v, list):
            return "[" + ", ".join(value(x) for x in v) + "]"
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, str):
            return f'"{v}"'
        return repr(v)
    path.write_text("[jax]\n" + "".join(f"{k} = {value(v)}\n" for k, v in settings.items()))
    return path
