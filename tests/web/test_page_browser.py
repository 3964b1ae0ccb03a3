"""The play page in headless Chromium (marker ``browser``): a layout
from a phone to a wide screen, the lobby in words with the heuristic as the default
opponent, the terminal's question and log, and the end of a game (scores with their
breakdown, every hand, the replay link, a rematch with the same seats)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser_support import headless_chrome

from .conftest import Served
from .test_browser import click_and_wait, start_from_lobby, wait_ready, wait_settled

pytestmark = pytest.mark.browser
BOARD_WIDTH = ("const r = document.querySelector('#board svg').getBoundingClientRect();"
               "return [r.width, r.height, document.documentElement.clientWidth];")


@pytest.mark.parametrize(("width", "share"), [(500, 0.9), (1600, 0.6)])
def test_the_table_fills_a_sensible_share_of_the_screen(served: Served, width: int,
                                                        share: float) -> None:
    with headless_chrome(width, 900) as chrome:
        start_from_lobby(chrome, served, "tea", ["human", "heuristic"], seed=5, options={})
        board_w, board_h, viewport = chrome.execute_script(BOARD_WIDTH)
        assert board_w >= share * viewport and board_h > 0.3 * board_w, \
            (board_w, board_h, viewport)
        scroll = chrome.execute_script("return document.documentElement.scrollWidth;")
        assert scroll <= viewport + 1  # nothing sticks out sideways
        if width < 900:  # the moves come below the picture, as wide as the screen
            side = chrome.execute_script(
                "return document.getElementById('side').getBoundingClientRect().width;")
            assert side >= 0.9 * viewport


def test_the_lobby_names_options_in_words_and_defaults_to_the_heuristic(
        chrome: Any, served: Served) -> None:
    from selenium.webdriver.support.ui import Select
    chrome.get(served.url + "/")
    wait_ready(chrome)
    Select(chrome.find_element("id", "game-name")).select_by_value("dadaocheng")
    options = chrome.find_element("id", "options").text
    assert "Events in year order" in options and "chronological_events" not in options
    assert chrome.find_element("id", "seat-1").get_attribute("value") == "heuristic"


def test_the_question_and_the_log_read_as_the_terminal(chrome: Any, served: Served) -> None:
    state = start_from_lobby(chrome, served, "dadaocheng", ["human"], seed=2, options={})
    status = chrome.find_element("id", "status").text
    assert status.startswith("Your decision - Player 0, planning: flip one disc")
    log = [row.text for row in chrome.find_elements("css selector", "#log li")]
    assert any("ships turned up" in row for row in log)
    assert not any(" -> " in row for row in log), log
    swap = next(b for b in chrome.find_elements("css selector", "#moves button")
                if b.text.startswith("swap cell"))
    state = click_and_wait(chrome, swap)
    second = chrome.find_elements("css selector", "#moves button")[0].text
    assert " with cell " in second
    click_and_wait(chrome, chrome.find_elements("css selector", "#moves button")[0])
    mine = [row.text for row in chrome.find_elements("css selector", "#log li")
            if row.text.startswith("Player 0")]
    assert mine == [f"Player 0 (human): {second}"]
    assert int(state["version"]) > 0


def test_the_end_shows_the_breakdown_and_offers_a_replay_and_a_rematch(
        chrome: Any, served: Served) -> None:
    state = start_from_lobby(chrome, served, "flowers", ["human", "heuristic"], seed=3,
                             options={"target_vp": "5"})
    for _ in range(300):
        if state["status"] != "playing":
            break
        state = click_and_wait(chrome, chrome.find_element("css selector", "#moves button"))
    assert state["status"] == "finished"
    table = chrome.find_element("id", "scores")
    assert "VP banked by cashing out" in table.text and "total" in table.text
    board = chrome.find_element("id", "board").get_attribute("innerHTML")
    assert "card-back" not in board  # every hand is shown once the game is over
    replay = chrome.find_element("id", "replay-link")
    game_id = chrome.current_url.rstrip("/").split("/")[-1]
    assert replay.is_displayed() and replay.get_attribute("href").endswith(
        f"/api/games/{game_id}/replay")
    assert not chrome.find_element("id", "controls").is_displayed()
    chrome.find_element("id", "rematch").click()
    from selenium.webdriver.support.ui import WebDriverWait
    WebDriverWait(chrome, 20).until(lambda d: game_id not in d.current_url)
    again = wait_settled(chrome)
    assert again["status"] == "playing"
    assert "P1 heuristic" in chrome.find_element("id", "seat-list").text
    chrome.get(served.url + f"/api/games/{game_id}/replay")  # its script runs under its CSP
    WebDriverWait(chrome, 20).until(
        lambda d: d.find_element("id", "counter").text not in ("", "loading..."))
    assert chrome.find_element("id", "board").get_attribute("innerHTML").startswith("<svg")
