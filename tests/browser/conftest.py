"""Headless Chromium for the browser tests: Debian's chromium and chromedriver, driven by Selenium.

Skipped on a machine without them, a failure under CI=true (.ci/run installs both).  Nothing is
downloaded: the driver's path is given, so Selenium Manager is never asked for one.  Screenshots
go to test-output/screenshots/ at the top of the repository.
"""

import os
import shutil
from pathlib import Path

import pytest

from tests.adapters.extras import need

SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-output" / "screenshots"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")


@pytest.fixture(scope="session")
def browser():
    webdriver = need("selenium.webdriver", "browser")
    if not (CHROMIUM and CHROMEDRIVER):
        message = "Debian's chromium and chromium-driver are not installed (apt-get install chromium chromium-driver)"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI=true and {message}: .ci/run installs them", pytrace=False)
        pytest.skip(message)
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1000,720"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    yield driver
    driver.quit()


@pytest.fixture
def screenshot(browser):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    def take(name: str) -> Path:
        path = SCREENSHOTS / f"{name}.png"
        browser.save_screenshot(str(path))
        return path

    return take
