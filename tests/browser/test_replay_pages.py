"""Replay pages in a real browser: step to the end and read the page's board and score, which must
be the record's; the keys step and play; the console stays free of errors."""

import json
from pathlib import Path

from gridfall import palette
from gridfall.connect4.replay import replay_game as connect4_replay
from gridfall.match3.codeabbey import play_challenge
from gridfall.match3.replay import replay_run
from gridfall.samegame.boards import load_board
from gridfall.samegame.line import Line
from gridfall.samegame.replay import replay_game as samegame_replay
from gridfall.samegame.rules import play_sequence
from gridfall.viewer import page

RESULTS = Path(__file__).resolve().parents[2] / "results" / "samegame-standard.txt"


def _open(browser, path: Path):
    from selenium.webdriver.common.by import By

    browser.get_log("browser")  # the log of earlier pages (one browser serves every test)
    browser.get(path.as_uri())
    return browser.find_element(By.TAG_NAME, "body")


def _key(browser, key: str) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(browser).send_keys(key).perform()


def _text(browser, element_id: str) -> str:
    from selenium.webdriver.common.by import By

    return browser.find_element(By.ID, element_id).text


def _count(browser, css: str) -> int:
    from selenium.webdriver.common.by import By

    return len(browser.find_elements(By.CSS_SELECTOR, css))


def _no_errors(browser) -> None:
    errors = [e for e in browser.get_log("browser") if e.get("level") == "SEVERE"]
    assert not errors, errors


def test_samegame_replay_of_the_best_standard_line(browser, screenshot, tmp_path):
    from selenium.webdriver.common.keys import Keys

    row = next(line for line in RESULTS.read_text().splitlines() if line.startswith("1\t"))
    score, moves = int(row.split("\t")[1]), row.split("\t")[2]
    board = load_board("standard:1")
    line = list(Line.from_text(moves))
    final, replayed = play_sequence(board, line)
    path = tmp_path / "samegame.html"
    page.write(path, "samegame", "standard:1", [samegame_replay(board, line, f"standard:1: {score}")])
    body = _open(browser, path)
    assert _count(browser, "rect.cell") == 225 and _count(browser, "rect.group") >= 2
    fills = {e.get_attribute("fill") for e in browser.find_elements("css selector", "rect.cell")}
    assert fills == set(palette.SAMEGAME)
    screenshot("samegame-start")
    _key(browser, Keys.ARROW_RIGHT)
    assert body.get_attribute("data-frame") == "1"
    _key(browser, Keys.END)
    assert body.get_attribute("data-frame") == str(len(line))
    assert int(_text(browser, "score")) == score == replayed
    assert _count(browser, "rect.cell") == final.cell_count()
    screenshot("samegame-end")
    _no_errors(browser)


def test_a_samegame_bot_s_refused_click_ends_its_replay(browser, tmp_path):
    from selenium.webdriver.common.keys import Keys

    board = load_board("standard:1")
    first = board.groups()[0]
    second = board.play(first.x, first.y)[0].groups()[0]
    line = [(first.x, first.y), (second.x, second.y)]
    game = samegame_replay(board, line, "a bot on standard:1", times=[0.5, 0.012, 0.03],
                           messages=["<b>not markup</b>", "", "last"], output=["", "", "<i>why</i>"],
                           result="turn 3: Region of size 1 (x=4, y=0)")
    path = tmp_path / "samegame-bot.html"
    page.write(path, "samegame", "a bot", [game])
    body = _open(browser, path)
    info = browser.find_element("id", "info").text
    assert "500 ms" in info and "<b>not markup</b>" in info
    _key(browser, Keys.END)
    assert body.get_attribute("data-frame") == "2"
    assert _text(browser, "result") == "turn 3: Region of size 1 (x=4, y=0)"
    info = browser.find_element("id", "info").text
    assert "30 ms" in info and "last" in info and "<i>why</i>" in info
    _no_errors(browser)


def test_connect4_replay_shows_the_winning_four(browser, screenshot, tmp_path):
    from selenium.webdriver.common.keys import Keys

    moves = [4, -2, 3, 5, 3, 5, 3, 5, 3]
    replay = connect4_replay(moves, ["gridfall", "mcts"], "t", times=[0.05] * 9,
                             messages=["<b>not markup</b>"] * 9, output=[f"depth {k}\n<i>nor this</i>" for k in range(9)],
                             reason="four in a row")
    path = tmp_path / "connect4.html"
    page.write(path, "connect4", "a game", [replay])
    body = _open(browser, path)
    _key(browser, Keys.END)
    assert body.get_attribute("data-frame") == str(len(moves))
    assert _text(browser, "result") == "gridfall wins (four in a row)"
    assert _count(browser, "circle.win") == 4
    assert _count(browser, "circle.chip0") == 4 and _count(browser, "circle.chip1") == 4  # the stolen chip is 1's
    fills = {kind: {e.get_attribute("fill") for e in browser.find_elements("css selector", f"circle.{kind}")}
             for kind in ("chip0", "chip1", "hole")}  # the colours the rgb_array images use too
    assert fills == {"chip0": {palette.CONNECT4["0"]}, "chip1": {palette.CONNECT4["1"]}, "hole": {palette.CONNECT4["hole"]}}
    assert "<b>not markup</b>" in browser.find_element("id", "info").text
    assert browser.find_element("css selector", "#info td.output").text == "depth 8\n<i>nor this</i>"  # its stderr
    screenshot("connect4-end")
    _key(browser, Keys.HOME)
    assert body.get_attribute("data-frame") == "0" and _count(browser, "circle.hole") == 63
    _no_errors(browser)


def test_match3_replay_totals_the_run(browser, screenshot, tmp_path):
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select

    def ask(board, board_no, move_no, elapsed):
        from gridfall.match3.rules import Board

        return (Board(tuple(board)).legal_moves()[0] if move_no <= 8 else (1, 1, "Q")), 0.0

    report = play_challenge(ask, seed=3, time_limit=None)
    games = replay_run(3, [g.actions for g in report.games], "first legal move",
                       times=[[0.002] * len(g.actions) for g in report.games], ends=[g.end for g in report.games])
    path = tmp_path / "match3.html"
    page.write(path, "match3", "a run", games)
    _open(browser, path)
    Select(browser.find_element("id", "game")).select_by_index(3)
    _key(browser, Keys.ARROW_RIGHT)  # the first swap: its call's time
    assert "2 ms" in browser.find_element("id", "info").text
    _key(browser, Keys.END)
    assert int(_text(browser, "total")) == report.total
    assert _text(browser, "result") == report.games[3].end == "quit"
    screenshot("match3-end")
    data = json.loads(browser.find_element("id", "replay-data").get_attribute("textContent"))
    assert len(data["games"]) == 4
    _no_errors(browser)


def test_space_plays_to_the_end(browser, tmp_path):
    import time

    from selenium.webdriver.common.keys import Keys

    replay = connect4_replay([4, 4, 3, 3], ["a", "b"], "t")
    path = tmp_path / "short.html"
    page.write(path, "connect4", "short", [replay])
    body = _open(browser, path)
    _key(browser, Keys.SPACE)
    deadline = time.monotonic() + 10
    while body.get_attribute("data-frame") != "4" and time.monotonic() < deadline:
        time.sleep(0.1)
    assert body.get_attribute("data-frame") == "4"


def test_a_game_played_through_the_interface_on_another_board_size(browser, tmp_path):
    # save_replay makes the page from a state alone; a 7x6 board without STEAL draws as 7x6
    from selenium.webdriver.common.keys import Keys

    import gridfall
    from gridfall.viewer.states import save_replay

    state = gridfall.load_game("connect4", width=7, height=6, steal=False).new_initial_state()
    for action in (3, 3, 2, 2, 1, 1, 0):  # the first player's four along the bottom row
        state.apply_action(action)
    path = tmp_path / "state.html"
    save_replay(path, state, names=["mine", "<i>theirs</i>"])
    body = _open(browser, path)
    assert _count(browser, "circle.hole") == 42
    _key(browser, Keys.END)
    assert body.get_attribute("data-frame") == "7" and _count(browser, "circle.win") == 4
    assert _text(browser, "result") == "mine wins"
    _no_errors(browser)
