"""The play page in headless Chromium against a real ``formosa serve`` (marker ``browser``).

A whole 2-player Flowers game against ``random``, started from the lobby's form and
played by clicking the cards on the picture; a hot-seat Tea game up to an out-of-turn
decision (a Tea Master moved during the other player's turn), which the page hands
to the right seat behind a curtain; a reload in the middle of a game, which resumes it.
"""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import Served

pytestmark = pytest.mark.browser
SETTLED = ("const d = document.body.dataset; return d.ready === '1' && d.busy !== '1' && "
           "d.version !== arguments[0] && (d.status !== 'playing' || d.toMove === d.viewer "
           "|| d.curtain !== '');")


def wait_settled(chrome: Any, old_version: str = "", timeout: float = 20) -> dict[str, str]:
    """Wait until the page shows a new version at a person's decision (or the end)."""
    from selenium.webdriver.support.ui import WebDriverWait
    WebDriverWait(chrome, timeout, poll_frequency=0.02).until(
        lambda d: d.execute_script(SETTLED, old_version))
    assert chrome.find_element("id", "error").text == ""
    return chrome.execute_script("return Object.assign({}, document.body.dataset);")


def click_and_wait(chrome: Any, element: Any) -> dict[str, str]:
    """Click ``element`` (a target or a button) and wait for the next decision."""
    version = chrome.execute_script("return document.body.dataset.version;")
    element.click()
    return wait_settled(chrome, version)


def reveal_and_wait(chrome: Any, reveal: Any, seat: str) -> dict[str, str]:
    """Call ``seat`` to the screen (the version stays) and wait for its view."""
    from selenium.webdriver.support.ui import WebDriverWait
    reveal.click()
    WebDriverWait(chrome, 20, poll_frequency=0.02).until(lambda d: d.execute_script(
        "const d = document.body.dataset; return d.curtain === '' && d.viewer === arguments[0];",
        seat))
    return chrome.execute_script("return Object.assign({}, document.body.dataset);")


def start_from_lobby(chrome: Any, served: Served, game: str, seats: list[str], seed: int,
                     options: dict[str, str]) -> dict[str, str]:
    """Fill the lobby's form and start the game; the page moves to its table."""
    from selenium.webdriver.support.ui import Select
    chrome.get(served.url + "/")
    wait_ready(chrome)
    Select(chrome.find_element("id", "game-name")).select_by_value(game)
    fill(chrome, "players", str(len(seats)))  # the seats follow as it is typed
    for seat, spec in enumerate(seats):
        fill(chrome, f"seat-{seat}", spec)
    for name, value in {**options, "seed": str(seed)}.items():
        fill(chrome, "seed" if name == "seed" else f"option-{name}", value)
    chrome.find_element("id", "start").click()
    from selenium.webdriver.support.ui import WebDriverWait
    WebDriverWait(chrome, 20).until(lambda d: "/play/" in d.current_url)
    return wait_settled(chrome)


def wait_ready(chrome: Any) -> None:
    from selenium.webdriver.support.ui import WebDriverWait
    WebDriverWait(chrome, 20).until(
        lambda d: d.execute_script("return document.body.dataset.ready === '1';"))


def fill(chrome: Any, element_id: str, value: str) -> None:
    field = chrome.find_element("id", element_id)
    field.clear()
    field.send_keys(value)


def test_a_whole_flowers_game_by_clicking_the_cards(chrome: Any, served: Served) -> None:
    state = start_from_lobby(chrome, served, "flowers", ["human", "random"], seed=2,
                             options={"target_vp": "25"})
    clicks = buttons = 0
    while state["status"] == "playing":
        targets = chrome.find_elements("css selector", "#board .target")
        if targets:  # a card of the hand or the field (single-move targets in Flowers)
            assert chrome.find_elements("css selector", "#board .target[data-legal]")
            state = click_and_wait(chrome, targets[0])
            clicks += 1
        else:  # keep playing or cash out: no drawn counterpart
            state = click_and_wait(chrome, chrome.find_element("css selector", "#moves button"))
            buttons += 1
        assert clicks + buttons < 400
    assert state["status"] == "finished" and clicks >= 10
    assert chrome.find_element("id", "result").text.startswith("Game over - final scores")
    assert chrome.find_element("id", "record-link").is_displayed()
    assert chrome.find_element("id", "undo").get_attribute("disabled") is not None
    log = chrome.find_elements("css selector", "#log li")
    assert len(log) > clicks and any("Player 1 (random)" in row.text for row in log)


def test_hot_seat_tea_through_an_out_of_turn_decision(chrome: Any, served: Served) -> None:
    """Two people at one screen (seed found by always taking the last move offered):
    each decision is shown only after its seat is called to the screen."""
    state = start_from_lobby(chrome, served, "tea", ["human", "human"], seed=7, options={})
    curtains = 0
    while True:
        if state["curtain"] != "":
            assert not chrome.find_element("id", "board").is_displayed()
            reveal = chrome.find_element("id", "reveal")
            assert reveal.text == f"Show Player {state['curtain']}'s view"
            state = reveal_and_wait(chrome, reveal, state["curtain"])
            curtains += 1
            continue
        status = chrome.find_element("id", "status").text
        if "out of turn" in status:
            break
        state = click_and_wait(chrome, chrome.find_elements("css selector", "#moves button")[-1])
        assert curtains < 40
    assert state["viewer"] == state["toMove"] == "1" and curtains >= 2
    assert "out of turn: it is player 0's turn" in status and "Tea Master" in status
    assert "P1 human (you)" in chrome.find_element("id", "seat-list").text
    moves = chrome.find_elements("css selector", "#moves button")
    assert any("(A)" in m.text for m in moves) and any("(B)" in m.text for m in moves)
    after = click_and_wait(chrome, moves[0])
    assert int(after["version"]) > int(state["version"])


def test_a_reload_in_the_middle_of_a_game_resumes_it(chrome: Any, served: Served) -> None:
    state = start_from_lobby(chrome, served, "flowers", ["human", "heuristic"], seed=9,
                             options={})
    for _ in range(3):
        state = click_and_wait(chrome, chrome.find_elements("css selector",
                                                            "#board .target")[0])
    board = chrome.find_element("id", "board").get_attribute("innerHTML")
    log = [row.text for row in chrome.find_elements("css selector", "#log li")]
    url = chrome.current_url
    chrome.refresh()
    wait_ready(chrome)
    resumed = wait_settled(chrome)
    assert chrome.current_url == url and resumed["version"] == state["version"]
    assert chrome.find_element("id", "board").get_attribute("innerHTML") == board
    assert [row.text for row in chrome.find_elements("css selector", "#log li")] == log
    undo = chrome.find_element("id", "undo")
    assert undo.is_enabled()
    after = click_and_wait(chrome, undo)
    assert int(after["version"]) > int(resumed["version"])
    assert len(chrome.find_elements("css selector", "#log li")) < len(log)


def test_a_piece_standing_for_several_moves_asks_which(chrome: Any, served: Served) -> None:
    """Dadaocheng: a disc may be flipped or picked for a swap; the page asks which."""
    import httpx2
    body = {"game": "dadaocheng", "num_players": 1, "seats": ["human"], "seed": 1}
    game = httpx2.post(f"{served.url}/api/games", json=body, timeout=30).json()
    chrome.get(f"{served.url}/play/{game['id']}")
    state = wait_settled(chrome)
    cell = next(t for t in chrome.find_elements("css selector", "#board .target")
                if len(t.get_attribute("data-legal").split()) == 2)
    cell.click()
    chooser = chrome.find_element("id", "chooser")
    labels = [b.text for b in chooser.find_elements("tag name", "button")]
    assert chooser.is_displayed() and labels[-1] == "cancel"
    assert labels[0].startswith("flip cell") and labels[1].startswith("swap cell")
    after = click_and_wait(chrome, chooser.find_elements("tag name", "button")[0])
    assert int(after["version"]) > int(state["version"]) and not chooser.is_displayed()
    assert chrome.find_elements("css selector", "#log li")[-1].text.endswith(labels[0])
