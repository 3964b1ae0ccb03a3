"""Pictures of game states: SVG from the engine, PNG and RGB arrays from the SVG.

Every game draws itself as SVG (``game.render_svg(state, viewer)``, stdlib
only). Rasterising needs the ``[render]`` extra: `resvg-py
<https://pypi.org/project/resvg-py/>`_ (the resvg renderer, a self-contained
wheel) and Pillow to decode its PNG. Example::

    from formosa_envs.tools.picture import picture
    pic = picture(game, state, viewer=0)   # shows in Jupyter (_repr_svg_)
    pic.save("table.png")                  # or .svg
    frame = pic.to_array()                 # (height, width, 3) uint8
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from formosa_envs.core.errors import FormosaError

RENDER_HINT = "rasterising pictures needs the [render] extra: pip install -e '.[render]'"


@dataclass(frozen=True)
class Picture:
    """One rendered state: the SVG text, with PNG and array conversions."""

    svg: str

    def _repr_svg_(self) -> str:
        """Jupyter shows the SVG inline."""
        return self.svg

    def to_png(self, scale: float = 1.0) -> bytes:
        """PNG bytes (``scale`` 2.0 doubles the resolution)."""
        return svg_to_png(self.svg, scale)

    def to_array(self, scale: float = 1.0) -> np.ndarray:
        """An RGB image, ``(height, width, 3)`` uint8, on a white background."""
        return svg_to_rgb(self.svg, scale)

    def save(self, path: str | Path, scale: float = 1.0) -> Path:
        """Write ``.svg`` or ``.png`` (by the file's suffix)."""
        target = Path(path)
        if target.suffix.lower() == ".svg":
            target.write_text(self.svg, encoding="utf-8")
        elif target.suffix.lower() == ".png":
            target.write_bytes(self.to_png(scale))
        else:
            raise FormosaError(f"save a picture as .svg or .png, not {target.name!r}")
        return target


def picture(game: Any, state: Any, viewer: int | None = None) -> Picture:
    """The picture of ``state`` as ``viewer`` sees it (``None``: everything shown)."""
    return Picture(game.render_svg(state, viewer))


def svg_to_png(svg: str, scale: float = 1.0) -> bytes:
    """Rasterise SVG text to PNG bytes with resvg."""
    try:
        import resvg_py
    except ImportError:
        raise FormosaError(RENDER_HINT) from None
    if scale <= 0:
        raise FormosaError(f"scale must be positive, got {scale}")
    return bytes(resvg_py.svg_to_bytes(svg_string=svg, zoom=float(scale)
                                       if scale != 1.0 else None, background="white"))


def svg_to_rgb(svg: str, scale: float = 1.0) -> np.ndarray:
    """Rasterise SVG text to an RGB ``uint8`` array of shape ``(height, width, 3)``."""
    try:
        from PIL import Image
    except ImportError:
        raise FormosaError(RENDER_HINT) from None
    with Image.open(io.BytesIO(svg_to_png(svg, scale))) as image:
        return np.asarray(image.convert("RGB"), dtype=np.uint8).copy()
