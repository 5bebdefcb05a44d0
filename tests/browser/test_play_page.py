"""A whole Connect Four game played in the page against greedy, by clicking columns."""

import time

from gridfall import palette
from gridfall.viewer.page import build_play
from tests.viewer.serving import serving


def _wait(body, states, seconds=30):
    deadline = time.monotonic() + seconds
    while body.get_attribute("data-state") not in states and time.monotonic() < deadline:
        time.sleep(0.05)
    return body.get_attribute("data-state")


def test_a_person_plays_a_whole_game_by_clicking_columns(browser, screenshot, tmp_path):
    from selenium.webdriver.common.by import By

    with serving(tmp_path, "greedy", page=build_play("Connect Four against greedy")) as (port, play, run):
        browser.get(f"http://127.0.0.1:{port}/")
        body = browser.find_element(By.TAG_NAME, "body")
        browser.find_element(By.ID, "new-first").click()
        clicks = 0
        while _wait(body, ("yours", "over")) == "yours":
            legal = browser.execute_script("return window.gridfallPlay.state().legal")
            column = legal[(clicks * 5) % len(legal)]  # wander over the columns
            moves_before = int(body.get_attribute("data-moves"))
            browser.find_element(By.CSS_SELECTOR, f'rect.column[data-column="{column}"]').click()
            deadline = time.monotonic() + 30
            while int(body.get_attribute("data-moves")) == moves_before and time.monotonic() < deadline:
                time.sleep(0.05)
            clicks += 1
        assert body.get_attribute("data-state") == "over"
        screenshot("connect4-play")
        state = browser.execute_script("return window.gridfallPlay.state()")
        assert browser.find_element(By.ID, "status").text == state["result"]
        rows = run.rows()
        assert len(rows) == 1 and len(rows[0].moves) == len(state["moves"]) and clicks >= 4
        chips = len(browser.find_elements(By.CSS_SELECTOR, "circle.chip"))
        assert chips == len(state["moves"])
        for seat in "01":  # the palette's colours, as on the replay pages
            fills = {e.get_attribute("fill") for e in browser.find_elements(By.CSS_SELECTOR, f"circle.chip{seat}")}
            assert fills == {palette.CONNECT4[seat]}
