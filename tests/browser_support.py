"""Headless Chromium for the browser tests (marker ``browser``): Debian's chromium and
chromium-driver (``make browser`` installs them), started offline-safe and as root."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

FLAGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
         "--disable-background-networking", "--disable-component-update",
         "--disable-default-apps", "--disable-sync", "--no-first-run")
"""No sandbox (root), and nothing that reaches for the network (there is none here)."""


@contextmanager
def headless_chrome(width: int, height: int) -> Iterator[Any]:
    """A Chromium session of that window size (fails, naming the fix, when missing)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    binary, driver_path = shutil.which("chromium"), shutil.which("chromedriver")
    if not binary or not driver_path:
        pytest.fail("the browser tests need Debian's chromium and chromium-driver: make browser "
                    "(apt-get install chromium chromium-driver)")
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for flag in (*FLAGS, f"--window-size={width},{height}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    try:
        yield driver
    finally:
        driver.quit()
