"""The HTML replay page in a real browser: headless Chromium (Debian's chromium and
chromium-driver, installed by ``make test``) driven by Selenium.

Marker ``browser`` (``pytest -m browser``): the page loads offline from a file,
unpacks its frames, steps forward on a click, jumps to the end on a key and shows
the record's final scores there.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from formosa_envs.agents import make_agent

from formosa_envs.tools.record import record_game, save_record
from formosa_envs.tools.replay import write_replay
from tests.browser_support import headless_chrome

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def chrome() -> Iterator[Any]:
    """A headless Chromium session (fails, naming the fix, when it is not installed)."""
    with headless_chrome(1400, 1000) as driver:
        yield driver


def open_replay(chrome: Any, tmp_path: Path, game: str, specs: list[str], seed: int) -> dict:
    """Record a game, write its page, open it and wait until the frames are unpacked."""
    from selenium.webdriver.support.ui import WebDriverWait
    agents = [make_agent(spec, game, seed=seed + i) for i, spec in enumerate(specs)]
    record = record_game(game, agents, seed, names=specs)
    page = write_replay(save_record(record, tmp_path / f"{game}.json"))
    chrome.get(page.resolve().as_uri())
    WebDriverWait(chrome, 30).until(
        lambda d: d.execute_script("return document.body.dataset.ready === '1' || "
                                   "document.getElementById('error').textContent !== ''"))
    assert chrome.find_element("id", "error").text == ""
    return record


def text(chrome: Any, element_id: str) -> str:
    """The visible text of one element."""
    return chrome.find_element("id", element_id).text


@pytest.mark.parametrize(("game", "specs"), [("flowers", ["heuristic", "random"]),
                                             ("tea", ["heuristic", "random", "random"])])
def test_replay_page_steps_through_a_game(chrome: Any, tmp_path: Path, game: str,
                                         specs: list[str]) -> None:
    from selenium.webdriver.common.keys import Keys
    record = open_replay(chrome, tmp_path, game, specs, seed=3)
    total = int(text(chrome, "counter").split("/")[1])
    assert text(chrome, "counter") == f"0 / {total}" and total > 10
    assert text(chrome, "label") == "start of the game"
    assert len(chrome.find_elements("css selector", "#board svg")) == 1
    chrome.find_element("id", "next").click()
    assert text(chrome, "counter") == f"1 / {total}"
    assert text(chrome, "label") not in ("", "start of the game")
    assert not chrome.find_element("id", "final").is_displayed()
    chrome.find_element("tag name", "body").send_keys(Keys.END)
    assert text(chrome, "counter") == f"{total} / {total}"
    final = text(chrome, "final")
    shown = [float(x) for x in final.split(":", 1)[1].split(",")]
    assert final.startswith("Final scores") and shown == record["scores"]
    seat_scores = [float(e.text.split(": ")[1])
                   for e in chrome.find_elements("css selector", "#scores .score")]
    assert seat_scores == record["scores"]
    chrome.find_element("id", "prev").click()
    assert text(chrome, "counter") == f"{total - 1} / {total}"
    assert not chrome.find_element("id", "final").is_displayed()
