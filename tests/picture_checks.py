"""Checks shared by the per-game SVG picture tests (one copy, used by every game).

Pictures are read with :mod:`xml.etree.ElementTree`; shapes are found by CSS class
(the ``class`` attribute split on spaces), words by the ``<text>`` and ``<title>``
elements.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Iterator
from typing import Any

import numpy as np

from formosa_envs.core.engine import CHANCE

NS = "{http://www.w3.org/2000/svg}"
"""The SVG namespace, as ElementTree prefixes tag names with it."""


def parse(svg: str) -> ET.Element:
    """The root element of an SVG document."""
    return ET.fromstring(svg)


def assert_svg(root: ET.Element, max_width: float | None = None) -> ET.Element:
    """Check that ``root`` is an ``<svg>`` of positive size (and at most ``max_width``
    wide when given); return it."""
    assert root.tag == NS + "svg"
    width, height = float(root.get("width")), float(root.get("height"))
    assert width > 0 and height > 0
    assert max_width is None or width <= max_width
    return root


def with_class(root: ET.Element, cls: str) -> list[ET.Element]:
    """Every element under ``root`` (itself included) whose class list holds ``cls``."""
    return [e for e in root.iter() if cls in (e.get("class") or "").split()]


def count(root: ET.Element, cls: str) -> int:
    """How many elements under ``root`` carry the class ``cls``."""
    return len(with_class(root, cls))


def class_counts(root: ET.Element) -> Counter:
    """How many elements under ``root`` carry each class token."""
    return Counter(token for e in root.iter() for token in (e.get("class") or "").split())


def texts(root: ET.Element) -> list[str]:
    """The text of every ``<text>`` and ``<title>`` element under ``root``, in order."""
    return [e.text or "" for e in root.iter() if e.tag in (NS + "text", NS + "title")]


def caption(root: ET.Element) -> str:
    """The text of the caption band (there must be exactly one)."""
    found = with_class(root, "caption")
    assert len(found) == 1
    return found[0].text or ""


def sampled_states(game: Any, seed: int, every: int = 10) -> Iterator[tuple[int, Any]]:
    """Play a whole random game; yield ``(step, state)`` at every ``every``-th step and
    at the end (the final state once, even on a multiple of ``every``).

    One generator, ``numpy.random.default_rng(seed)``, draws both chance
    (``game.sample_chance``) and the players' moves (a uniform legal action); every
    applied action is one step. The state is changed in place: use it before asking
    for the next item.
    """
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    step = 0
    while True:
        terminal = game.is_terminal(state)
        if step % every == 0 or terminal:
            yield step, state
        if terminal:
            return
        if game.current_player(state) == CHANCE:
            game.apply_action(state, game.sample_chance(state, rng))
        else:
            game.apply_action(state, int(rng.choice(game.legal_actions(state))))
        step += 1


def assert_rasterises(game: Any, state: Any, viewer: int | None = None,
                      min_colours: int = 8) -> None:
    """The picture rasterises to a ``uint8`` ``(height, width, 3)`` image of the SVG's
    size with at least ``min_colours`` distinct colours (the dev extra brings the
    ``[render]`` rasteriser; without it this fails, naming the extra)."""
    from formosa_envs.tools.picture import picture

    pic = picture(game, state, viewer)
    root = parse(pic.svg)
    image = pic.to_array()
    assert image.dtype == np.uint8
    assert image.shape == (round(float(root.get("height"))), round(float(root.get("width"))), 3)
    packed = image.reshape(-1, 3).astype(np.uint32) @ np.array([1 << 16, 1 << 8, 1], np.uint32)
    assert len(np.unique(packed)) >= min_colours      # one int per colour: fast to count
