"""Screenshots of the play page of every game for the documentation (docs/images/play_*.png).

Runs the web app (``formosa serve``'s app, uvicorn in a thread, games in a temporary
folder), starts one game per game with a person at seat 0 against the heuristic,
plays some moves for the person (the heuristic chooses them) so that the table is in
mid-game, then photographs the page in headless Chromium (``make browser``); then the
Tea table at a phone's width (``play_phone.png``) and a finished Flowers game with its
score table (``play_end.png``). Needs the ``[web]`` extra and selenium (the dev extra)::

    .venv/bin/python scripts/web_screenshots.py [--out docs/images]
"""

from __future__ import annotations

import argparse
import shutil
import socket
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import uvicorn
from formosa_envs.agents import make_agent
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait

from formosa_envs.web.app import create_app
from formosa_envs.web.newgame import GameSpec

# (game, seats, seed, options, moves the person makes before the picture)
TABLES = [
    ("flowers", ("human", "heuristic"), 4, {}, 3),
    ("taiwan", ("human", "heuristic"), 2, {}, 30),
    ("tea", ("human", "heuristic", "heuristic"), 5, {}, 14),
    ("dadaocheng", ("human", "heuristic"), 3, {}, 12),
]
WIDTH, HEIGHT = 1500, 1000
PHONE_WIDTH = 500
END_GAME = ("flowers", ("human", "heuristic"), 3, {"target_vp": 5}, 400)


def main() -> None:
    """Write ``play_<game>.png`` for every game into ``--out``."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default="docs/images", help="folder of the pictures")
    out = Path(parser.parse_args().out)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(folder)
        server, url = start_server(app)
        driver = chromium()
        try:
            shots = [(table, f"play_{table[0]}.png", WIDTH) for table in TABLES]
            shots += [(TABLES[2], "play_phone.png", PHONE_WIDTH), (END_GAME, "play_end.png", WIDTH)]
            for (game, seats, seed, options, moves), name, width in shots:
                session = app.state.store.create(GameSpec(game, len(seats), options, seats,
                                                          seed))
                play_for_the_person(session, moves)
                path = photograph(driver, f"{url}/play/{session.id}", out / name, width)
                print(f"wrote {path}")
        finally:
            driver.quit()
            server.should_exit = True


def start_server(app: Any) -> tuple[uvicorn.Server, str]:
    """Serve ``app`` on a free local port in a thread; its server and URL."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    return server, f"http://127.0.0.1:{port}"


def play_for_the_person(session: Any, moves: int) -> None:
    """Make ``moves`` decisions for seat 0 with the heuristic (agents answer between)."""
    helper = make_agent("heuristic", session.spec.game, seed=0)
    for _ in range(moves):
        assert session.wait_idle(60)
        if session.status != "playing":
            return
        action = helper.act_on_state(session.game, session.game.clone(session.state))
        session.play(action, session.version)
    assert session.wait_idle(60)


def chromium() -> Any:
    """Headless Chromium at the pictures' window size."""
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--disable-background-networking", "--hide-scrollbars",
                 f"--window-size={WIDTH},{HEIGHT}"):
        options.add_argument(flag)
    return webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)


def photograph(driver: Any, url: str, path: Path, width: int = WIDTH) -> Path:
    """Open the table at ``width``, fit the window to the page and save a PNG."""
    driver.set_window_size(width, HEIGHT)
    driver.get(url)
    WebDriverWait(driver, 30).until(lambda d: d.execute_script(
        "return document.body.dataset.ready === '1' && document.body.dataset.busy !== '1';"))
    height, frame = driver.execute_script(
        "return [document.documentElement.scrollHeight, window.outerHeight - window.innerHeight];")
    driver.set_window_size(width, max(HEIGHT, height + frame + 10))
    time.sleep(0.3)
    driver.save_screenshot(str(path))
    return path


if __name__ == "__main__":
    main()
