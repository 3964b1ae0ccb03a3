"""The shared SVG writer (formosa_envs/core/svg.py)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from formosa_envs.core.svg import CAPTION_HEIGHT, Svg

NS = "{http://www.w3.org/2000/svg}"


def test_document_shapes_classes_and_escaping() -> None:
    svg = Svg(200, 100, title="A & B")
    with svg.group(cls="hand", transform="translate(5 5)"):
        svg.rect(0, 0, 40.125, 60, fill="#fff", cls="card", rx=3)
        svg.circle(10, 10, 4, fill="red", cls="token")
        svg.text(20, 30, "<Jan & Feb>", anchor="middle", cls="label")
    svg.polygon([(0, 0), (10, 0), (5, 8)], fill="blue", cls="tri")
    svg.line(0, 0, 1, 1, stroke_width=2)
    root = ET.fromstring(svg.to_string())
    assert root.tag == f"{NS}svg" and root.get("width") == "200"
    assert root.find(f"{NS}title").text == "A & B"
    group = root.find(f"{NS}g")
    assert group.get("class") == "hand" and group.get("transform") == "translate(5 5)"
    card = group.find(f"{NS}rect")
    assert (card.get("class"), card.get("width"), card.get("rx")) == ("card", "40.12", "3")
    label = group.find(f"{NS}text")
    assert label.text == "<Jan & Feb>" and label.get("text-anchor") == "middle"
    assert root.find(f"{NS}line").get("stroke-width") == "2"
    assert root.find(f"{NS}polygon").get("points") == "0,0 10,0 5,8"


def test_caption_grows_the_picture_and_clips_long_text() -> None:
    svg = Svg(120, 50)
    svg.caption("player 0: choose one of the many, many legal moves on offer right now")
    root = ET.fromstring(svg.to_string())
    assert float(root.get("height")) == 50 + CAPTION_HEIGHT
    caption = next(t for t in root.iter(f"{NS}text") if t.get("class") == "caption")
    assert caption.text.endswith("\u2026") and len(caption.text) < 40


def test_unclosed_group_is_an_error() -> None:
    svg = Svg(10, 10)
    with pytest.raises(RuntimeError, match="open group"), svg.group(cls="x"):
        svg.to_string()


def test_final_caption_names_scores_and_winners() -> None:
    from formosa_envs.core.svg import final_caption
    assert final_caption([50, 66.0, 12], "VP") == \
        "Game over - final scores: P0 50 VP, P1 66 VP, P2 12 VP - won by P1"
    assert final_caption([7, 7], "PP").endswith("won by P0 and P1")
    assert final_caption([7, 7], "VP", winners=[1]).endswith("won by P1")
    assert final_caption([55], "PP", winners=()) == "Game over - final scores: P0 55 PP"


def test_reuse_draws_a_piece_once_and_repeats_its_text() -> None:
    calls: list[tuple] = []

    def piece(svg: Svg, colour: str) -> None:
        calls.append((colour,))
        svg.rect(0, 0, 5, 5, fill=colour, cls="piece")

    direct = Svg(10, 10)
    piece(direct, "red")
    calls.clear()
    reused = Svg(10, 10)
    for colour in ("red", "red", "blue", "red"):
        reused.reuse(piece, colour)
    assert calls == [("red",), ("blue",)]
    assert reused.parts.count(direct.parts[0]) == 3
    keyed = Svg(10, 10)
    keyed.reuse(piece, "green", key="board")
    keyed.reuse(piece, "yellow", key="board")  # same key: the first drawing again
    assert keyed.parts[0] == keyed.parts[1] and "green" in keyed.parts[1]
