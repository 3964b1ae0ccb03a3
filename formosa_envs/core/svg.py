"""A small SVG writer shared by the four games' pictures (stdlib only).

Pictures are built from a handful of shapes; every shape may carry a CSS
``cls`` (the ``class`` attribute) that names what it stands for (``card``,
``cube``, ``disc``...), so tests can count components in a picture and the
replay page can style them. Example::

    svg = Svg(320, 120, title="Formosa Flowers")
    with svg.group(cls="hand", transform="translate(10 10)"):
        svg.rect(0, 0, 40, 60, fill="#f4e1c1", cls="card", rx=4)
        svg.text(20, 35, "Jan", size=11, anchor="middle")
    svg.caption("player 0: choose a card to play")
    text = svg.to_string()

Numbers are written with at most two decimals; text is XML-escaped.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Sequence
from contextlib import contextmanager
from xml.sax.saxutils import escape, quoteattr

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
CAPTION_HEIGHT = 30
FRAGMENT_LIMIT = 50_000  # pieces kept by Svg.reuse (a bound on memory)
_FRAGMENTS: dict[tuple[object, ...], str] = {}


def _num(value: float) -> str:
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("", "-0") else text


def _attrs(values: dict[str, object]) -> str:
    parts = []
    for key, value in values.items():
        if value is None or value is False:
            continue
        name = "class" if key == "cls" else key.rstrip("_").replace("_", "-")
        shown = _num(value) if isinstance(value, float) else str(value)
        parts.append(f" {name}={quoteattr(shown)}")
    return "".join(parts)


class Svg:
    """An SVG document under construction: shapes are appended in drawing order."""

    def __init__(self, width: float, height: float, title: str | None = None,
                 background: str = "#fbfaf6") -> None:
        self.width, self.height = float(width), float(height)
        self.parts: list[str] = []
        self.title = title
        self.background = background
        self._open_groups = 0

    # ----- shapes ---------------------------------------------------------------
    def rect(self, x: float, y: float, w: float, h: float, fill: str = "none",
             stroke: str | None = "#333", cls: str | None = None, rx: float = 0,
             **attrs: object) -> None:
        """A rectangle (``rx`` rounds its corners)."""
        self._shape("rect", x=float(x), y=float(y), width=float(w), height=float(h),
                    rx=float(rx) or None, fill=fill, stroke=stroke, cls=cls, **attrs)

    def circle(self, cx: float, cy: float, r: float, fill: str = "none",
               stroke: str | None = "#333", cls: str | None = None, **attrs: object) -> None:
        """A circle."""
        self._shape("circle", cx=float(cx), cy=float(cy), r=float(r), fill=fill,
                    stroke=stroke, cls=cls, **attrs)

    def line(self, x1: float, y1: float, x2: float, y2: float, stroke: str = "#333",
             cls: str | None = None, **attrs: object) -> None:
        """A straight line."""
        self._shape("line", x1=float(x1), y1=float(y1), x2=float(x2), y2=float(y2),
                    stroke=stroke, cls=cls, **attrs)

    def polygon(self, points: Sequence[tuple[float, float]], fill: str = "none",
                stroke: str | None = "#333", cls: str | None = None,
                **attrs: object) -> None:
        """A closed polygon through ``points``."""
        path = " ".join(f"{_num(float(x))},{_num(float(y))}" for x, y in points)
        self._shape("polygon", points=path, fill=fill, stroke=stroke, cls=cls, **attrs)

    def text(self, x: float, y: float, content: object, size: float = 12,
             anchor: str = "start", fill: str = "#222", weight: str | None = None,
             cls: str | None = None, **attrs: object) -> None:
        """Text with its baseline at ``y`` (``anchor``: start, middle or end)."""
        attributes = _attrs({"x": float(x), "y": float(y), "font-size": float(size),
                             "text-anchor": anchor if anchor != "start" else None,
                             "fill": fill, "font-weight": weight, "cls": cls, **attrs})
        self.parts.append(f"<text{attributes}>{escape(str(content))}</text>")

    def tooltip(self, content: str) -> None:
        """A ``<title>`` for the enclosing group (shown on hover)."""
        self.parts.append(f"<title>{escape(content)}</title>")

    @contextmanager
    def group(self, cls: str | None = None, transform: str | None = None,
              **attrs: object) -> Iterator[None]:
        """Shapes drawn inside the ``with`` block form one ``<g>``."""
        self.parts.append(f"<g{_attrs({'cls': cls, 'transform': transform, **attrs})}>")
        self._open_groups += 1
        try:
            yield
        finally:
            self._open_groups -= 1
            self.parts.append("</g>")

    def reuse(self, draw: Callable[..., object], *args: object,
              key: Hashable | None = None) -> None:
        """Append ``draw(svg, *args)``'s shapes, drawn once per ``key`` and then reused.

        Pictures repeat the same pieces (a card face, a marker, a board frame), and a
        replay draws thousands of states: the SVG text of each piece is kept, keyed by
        ``(draw, *args)`` (hashable) unless ``key`` is given. Pieces are drawn at
        their own coordinates; place them with a ``group(transform=...)``.
        """
        cache_key = (draw, *args) if key is None else (draw, key)
        text = _FRAGMENTS.get(cache_key)
        if text is None:
            scratch = Svg(1, 1)
            draw(scratch, *args)
            text = "".join(scratch.parts)
            if len(_FRAGMENTS) < FRAGMENT_LIMIT:
                _FRAGMENTS[cache_key] = text
        self.parts.append(text)

    def caption(self, content: str, size: float = 13) -> None:
        """A band under the picture naming the pending decision (grows the height)."""
        top = self.height
        self.height += CAPTION_HEIGHT
        self.rect(0, top, self.width, CAPTION_HEIGHT, fill="#2f3b45", stroke=None,
                  cls="caption-band")
        self.text(10, top + CAPTION_HEIGHT / 2 + size / 3, _clip(content, self.width, size),
                  size=size, fill="#ffffff", cls="caption")

    def _shape(self, tag: str, **attrs: object) -> None:
        self.parts.append(f"<{tag}{_attrs(attrs)}/>")

    # ----- output ---------------------------------------------------------------
    def to_string(self) -> str:
        """The finished document (every group closed)."""
        if self._open_groups:
            raise RuntimeError("to_string() inside an open group")
        w, h = _num(self.width), _num(self.height)
        head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
                f'viewBox="0 0 {w} {h}" font-family="{FONT}">')
        title = f"<title>{escape(self.title)}</title>" if self.title else ""
        back = f'<rect width="{w}" height="{h}" fill="{self.background}"/>'
        return "".join([head, title, back, *self.parts, "</svg>"])


def _clip(text: str, width: float, size: float) -> str:
    """``text`` shortened with an ellipsis to fit about ``width`` pixels."""
    room = max(int((width - 20) / (size * 0.55)), 8)
    return text if len(text) <= room else text[:room - 1] + "\u2026"


def final_caption(scores: Sequence[float], unit: str,
                  winners: Sequence[int] | None = None) -> str:
    """``Game over - final scores: P0 50 VP, P1 66 VP - won by P1``.

    Pass ``winners=game.winners(state)``: the game's own ordering with its tie-breaks
    (``Game.ranking_keys``), the same seats the envs' rewards and the tournament count
    as winners; ``()`` leaves the verdict out (a solo game's objective missed, or not
    to be shown). Without ``winners``, every top score is named (no tie-break).
    """
    shown = ", ".join(f"P{p} {_num(float(v))} {unit}" for p, v in enumerate(scores))
    if winners is None:
        winners = top_seats(scores)
    verdict = " - won by " + " and ".join(f"P{p}" for p in winners) if winners else ""
    return f"Game over - final scores: {shown}{verdict}"


def top_seats(values: Sequence[float]) -> list[int]:
    """The seats holding the largest value (several on a tie)."""
    best = max(values)
    return [p for p, v in enumerate(values) if v == best]


def text_width(text: str, size: float) -> float:
    """An estimate of the drawn width of ``text`` (DejaVu Sans, about 0.6 em a glyph)."""
    return len(text) * size * 0.6
