"""The play server over HTTP: a whole game against greedy, every kind of bad request refused with
a 4xx that leaves the other games alone, the game stored, the bot killed at the end."""

import http.client
import json
import sys
import textwrap

import pytest

from gridfall.arena.database import RunDatabase
from gridfall.connect4.play_server import PlayServer

from ..processes import live_commands
from .serving import RELAXED, serving


@pytest.fixture
def server(tmp_path):
    with serving(tmp_path, "greedy") as served:
        yield served


def request(port, method, path, body=None, raw=None, headers=None):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    connection.request(method, path, body=data, headers=headers or {"Content-Type": "application/json"})
    response = connection.getresponse()
    payload = response.read()
    connection.close()
    return response.status, (json.loads(payload) if payload.startswith(b"{") else payload)


def test_a_whole_game_against_greedy_is_played_and_stored(server):
    port, play, run = server
    assert request(port, "GET", "/")[0] == 200
    status, state = request(port, "POST", "/api/new", {"seat": 1})  # greedy moves first
    assert status == 200 and len(state["moves"]) == 1 and -2 in state["legal"]
    status, state = request(port, "POST", "/api/move", {"game": state["game"], "action": -2})  # STEAL
    assert status == 200 and state["moves"][1] == "STEAL"
    while not state["result"]:
        status, state = request(port, "POST", "/api/move", {"game": state["game"], "action": state["legal"][0]})
        assert status == 200
    assert "won" in state["result"] or "draw" in state["result"]
    rows = run.rows()
    assert len(rows) == 1 and rows[0].seats[1] == "you" and len(rows[0].moves) == len(state["moves"])
    assert play.games[state["game"]].bot.proc.poll() is not None  # the bot was killed with its game


def test_the_bots_stderr_of_its_last_turn_is_on_the_page_and_every_turns_in_the_stored_game(tmp_path):
    from tests.arena.arena_cli import pick

    with serving(tmp_path, pick("first")) as (port, play, run):
        status, state = request(port, "POST", "/api/new", {"seat": 1})  # the bot moves first
        assert status == 200 and state["bot_output"] == "first at turn 0: <b>0</b>\n"
        while not state["result"]:
            _, state = request(port, "POST", "/api/move", {"game": state["game"], "action": state["legal"][-1]})
        [row] = run.rows()
        bot_turns = [o for o, seat in zip(row.result["output"], _seats(row.moves)) if seat == 0]
        assert bot_turns and all(o.startswith("first at turn ") for o in bot_turns)
        assert all(o == "" for o, seat in zip(row.result["output"], _seats(row.moves)) if seat == 1)  # the person's


def _seats(moves):
    from gridfall.connect4.rules import Game

    game, seats = Game(steal=True), []
    for action in moves:
        seats.append(game.current_player())
        game.apply_action(action)
    return seats


def test_bad_requests_are_refused_and_leave_the_other_game_alone(server):
    port, play, run = server
    _, other = request(port, "POST", "/api/new", {"seat": 0})
    _, mine = request(port, "POST", "/api/new", {"seat": 0})
    cases = [
        ("POST", "/api/new", {"seat": 2}, 400), ("POST", "/api/new", {"seat": True}, 400),
        ("POST", "/api/new", {"seat": 1.0}, 400),  # was a game whose state said "person": 1.0
        ("POST", "/api/move", {"game": "nope", "action": 3}, 404),
        ("POST", "/api/move", {"game": mine["game"], "action": 99}, 400),
        ("POST", "/api/move", {"game": mine["game"], "action": "3"}, 400),
        ("POST", "/api/move", {"game": mine["game"], "action": -2}, 400),  # no STEAL for the first player
        ("GET", "/api/state?game=../../etc/passwd", None, 404), ("GET", "/nothing", None, 404),
        ("POST", "/api/elsewhere", {}, 404),
    ]
    for method, path, body, expected in cases:
        status, answer = request(port, method, path, body)
        assert status == expected, (path, body, answer)
        assert "error" in answer
    assert request(port, "POST", "/api/move", raw=b"{not json")[0] == 400
    assert request(port, "POST", "/api/move", raw=b"[1, 2]")[0] == 400
    assert request(port, "POST", "/api/move", raw=b"[" * 1000)[0] == 400  # was a traceback (RecursionError)
    assert request(port, "POST", "/api/move", raw=b"x" * 5000)[0] == 413
    chunked = {"Content-Type": "application/json", "Transfer-Encoding": "chunked"}
    status, answer = request(port, "POST", "/api/new", raw=b'a\r\n{"seat":0}\r\n0\r\n\r\n', headers=chunked)
    assert status == 411 and "Content-Length" in answer["error"]  # was "seat must be 0 or 1": the body went unread
    _, after = request(port, "GET", f"/api/state?game={other['game']}")
    assert after == other  # untouched
    # a move out of turn: play one, then ask again before... the bot has answered already, so
    # the game is the person's again; a finished game refuses moves
    play.games[mine["game"]].result = "stopped for the test"
    status, answer = request(port, "POST", "/api/move", {"game": mine["game"], "action": 0})
    assert status == 409 and "over" in answer["error"]


def test_a_client_that_hangs_up_or_goes_silent_costs_no_traceback_and_a_fault_is_one_line(tmp_path, monkeypatch,
                                                                                            capsys):
    """A tab closed while its request is answered (the connection reset) and a client that stops
    mid-body are nobody's fault: socketserver printed a traceback for each.  A fault of the server
    is one line; the server answers on."""
    import socket
    import struct
    import time

    from gridfall.connect4 import play_server

    monkeypatch.setattr(play_server, "REQUEST_SECONDS", 0.5)
    with serving(tmp_path, "greedy") as (port, play, run):
        head = (f"POST /api/new HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
                "Content-Length: {}\r\n\r\n")
        for _ in range(5):  # sent whole, then reset (SO_LINGER 0) before the answer is read
            client = socket.create_connection(("127.0.0.1", port))
            client.sendall((head.format(10) + '{"seat":0}').encode())
            client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            client.close()
        silent = socket.create_connection(("127.0.0.1", port), timeout=10)
        silent.sendall((head.format(50) + "{").encode())  # 49 bytes short, then nothing
        time.sleep(1.5)  # past the server's 0.5 s for the rest
        assert silent.recv(100) == b""  # the server gave up on it and closed
        silent.close()

        def broken(body):
            raise ZeroDivisionError("a bug")

        monkeypatch.setattr(play, "new", broken)
        with pytest.raises((http.client.RemoteDisconnected, ConnectionError)):
            request(port, "POST", "/api/new", {"seat": 0})
        monkeypatch.undo()
        assert request(port, "POST", "/api/new", {"seat": 0})[0] == 200  # still serving
    err = capsys.readouterr().err
    assert "Traceback" not in err and "----" not in err, err
    assert err.strip() == ("gridfall: internal error answering a request: ZeroDivisionError: a bug "
                           "(GRIDFALL_DEBUG=1 shows where)"), err


def test_other_websites_cannot_start_games_or_read_them(server):
    """A page elsewhere that the person visits meanwhile: a cross-site form posts text/plain (no
    preflight), and a website that rebinds its name to 127.0.0.1 sends its own Host and Origin."""
    port, play, run = server
    _, mine = request(port, "POST", "/api/new", {"seat": 0})
    for content_type in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"):
        status, answer = request(port, "POST", "/api/new", {"seat": 1}, headers={"Content-Type": content_type})
        assert status == 415 and "application/json" in answer["error"]
    status, answer = request(port, "POST", "/api/new", {"seat": 1}, headers={"Content-Type": "application/json",
                                                                               "Origin": "http://evil.example"})
    assert status == 403 and f"http://127.0.0.1:{port}/" in answer["error"]
    for method, path, body in [("POST", "/api/new", {"seat": 1}), ("GET", f"/api/state?game={mine['game']}", None),
                               ("GET", "/", None)]:
        status, answer = request(port, method, path, body, headers={"Content-Type": "application/json",
                                                                     "Host": f"evil.example:{port}"})
        assert status == 403, (method, path)
    assert list(play.games) == [mine["game"]]  # no game started but the page's own
    same_page = {"Content-Type": "application/json; charset=utf-8", "Origin": f"http://localhost:{port}",
                 "Host": f"localhost:{port}"}
    assert request(port, "POST", "/api/new", {"seat": 0}, headers=same_page)[0] == 200


def test_a_finished_game_replays_from_the_play_database(server):
    from gridfall.viewer import records

    port, play, run = server
    _, state = request(port, "POST", "/api/new", {"seat": 0})
    while not state["result"]:
        _, state = request(port, "POST", "/api/move", {"game": state["game"], "action": state["legal"][-1]})
    kind, games, _ = records.run_games(run.path, ())
    assert kind == "connect4" and games[0]["turns"] == len(state["moves"])


def test_the_play_command_serves_on_loopback_and_stops_on_sigterm(tmp_path):
    import re
    import signal
    import subprocess
    import sys
    import time

    process = subprocess.Popen([sys.executable, "-m", "gridfall", "connect4", "play", "--opponent", "greedy",
                                "--no-browser", "--db", str(tmp_path / "play.sqlite")],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = process.stderr.readline()
        address = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert address, line
        port = int(address.group(1))
        status, state = request(port, "POST", "/api/new", {"seat": 1})
        assert status == 200 and len(state["moves"]) == 1
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=20) == 128 + signal.SIGTERM
    finally:
        process.kill()
        process.communicate()  # reaped, its pipes closed
    time.sleep(0.2)
    assert not live_commands("connect4 bot --agent greedy")


def test_a_port_in_use_is_a_usage_error_that_leaves_no_database_it_made(tmp_path):
    """The database is opened before the server listens: one made for a server that never served
    is deleted, one that was there is kept."""
    import socket
    import subprocess
    import sys

    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]

        def play(db):
            return subprocess.run([sys.executable, "-m", "gridfall", "connect4", "play", "--opponent", "greedy",
                                   "--no-browser", "--port", str(port), "--db", str(db)],
                                  capture_output=True, text=True, timeout=120)

        done = play(tmp_path / "new.sqlite")
        assert done.returncode == 2 and f"cannot listen on 127.0.0.1:{port}" in done.stderr, done.stderr
        assert list(tmp_path.iterdir()) == []  # was an empty run, listed by `gridfall runs`
        RunDatabase(tmp_path / "old.sqlite", "connect4 play", {}).close()
        assert play(tmp_path / "old.sqlite").returncode == 2
        assert [p.name for p in tmp_path.iterdir()] == ["old.sqlite"]


def test_a_game_the_full_database_cannot_take_still_ends_on_the_page(server, capsys):
    # it ended in a traceback on the terminal, and the page's last move got no answer
    from gridfall.arena.database import GameRow, RunDatabaseError

    port, play, run = server
    pages = run.connection.execute("PRAGMA page_count").fetchone()[0]
    run.connection.execute(f"PRAGMA max_page_count = {pages}")  # SQLite's own "database or disk is full"
    with pytest.raises(RunDatabaseError):
        for k in range(1000):  # fill the last page
            run.add(GameRow(job=f"filler {k}", game="connect4", commands=[], seats=[], moves=[], result={},
                            reason="", times=[], messages=[]))
    _, state = request(port, "POST", "/api/new", {"seat": 0})
    while not state["result"]:
        status, state = request(port, "POST", "/api/move", {"game": state["game"], "action": state["legal"][0]})
        assert status == 200
    assert "won" in state["result"] and state["result"].endswith("; not stored (the terminal says why)")
    assert f"game {state['game']}: " in capsys.readouterr().err
    assert play.games[state["game"]].bot.proc.poll() is not None


def test_a_machine_that_cannot_start_the_bot_ends_the_game_unscored_on_the_page(server, monkeypatch, capsys):
    # the request died in a traceback (no answer to the page); a BotFailure would have given the
    # person a win the bot never conceded
    import errno
    import os

    from gridfall.arena import process

    def out_of_files(*args, **kwargs):
        raise OSError(errno.EMFILE, os.strerror(errno.EMFILE))

    port, play, run = server
    monkeypatch.setattr(process.subprocess, "Popen", out_of_files)
    status, state = request(port, "POST", "/api/new", {"seat": 1})  # the bot moves first
    assert status == 200
    assert state["result"].startswith("stopped: this machine could not start the bot") and "Too many open files" in state["result"]
    assert state["legal"] == [] and state["winner"] is None
    assert run.connection.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 0
    assert f"game {state['game']}: cannot start" in capsys.readouterr().err


def test_a_bot_that_crashes_loses_and_the_page_says_why(tmp_path):
    """A command that is not there crashes at its first turn: the person wins, by the bot's fault."""
    with serving(tmp_path, "no-such-bot-here") as (port, play, run):
        status, state = request(port, "POST", "/api/new", {"seat": 1})  # the bot moves first
        assert status == 200 and state["moves"] == []
        assert state["result"].startswith("you won, by the bot's fault: bot crashed (exited with code 127")
        assert "no-such-bot-here" in state["result"] and len(run.rows()) == 1


def test_each_game_draws_the_bots_seed_and_stores_it(tmp_path):
    """Without --seed every game's bot gets a seed of its own (a built-in bot as --seed, a command
    as GRIDFALL_SEED), so a line that beat it once need not win again; the game keeps it."""
    bot = tmp_path / "says.py"
    bot.write_text(textwrap.dedent('''
        import os, sys
        sys.stdin.readline()
        while True:
            if not sys.stdin.readline():
                break
            rows = [sys.stdin.readline() for _ in range(7)]
            valid = [int(sys.stdin.readline()) for _ in range(int(sys.stdin.readline()))]
            sys.stdin.readline()
            print(valid[0], os.environ["GRIDFALL_SEED"], flush=True)
    '''))
    with RunDatabase(tmp_path / "play.sqlite", "connect4 play", {}) as run:
        for fixed in (None, 5):
            play = PlayServer(f"{sys.executable} {bot}", RELAXED, database=run, seed=fixed)
            try:
                seeds = []
                for _ in range(2):
                    state = play.new({"seat": 1})  # the bot moves first
                    assert state["bot_message"] == str(play.games[state["game"]].seed)
                    seeds.append(play.games[state["game"]].seed)
                    while not state["result"]:
                        state = play.move({"game": state["game"], "action": state["legal"][-1]})
                assert seeds == [5, 5] if fixed == 5 else seeds[0] != seeds[1]
            finally:
                play.close()
        assert [row.result["seed"] for row in run.rows()][-2:] == [5, 5]
        assert len({row.result["seed"] for row in run.rows()}) == 3


def test_standings_of_the_browsers_games_give_your_score_against_each_bot_by_seat(server):
    import subprocess

    port, play, run = server
    before = subprocess.run([sys.executable, "-m", "gridfall", "standings", str(run.path)], capture_output=True,
                            text=True, timeout=120)
    assert before.returncode == 0 and "none finished yet" in before.stdout, before.stderr  # was an empty table
    for seat in (0, 1):
        _, state = request(port, "POST", "/api/new", {"seat": seat})
        while not state["result"]:
            _, state = request(port, "POST", "/api/move", {"game": state["game"], "action": state["legal"][0]})
    points = {}
    for row in run.rows():
        you = row.seats.index("you")
        winner = row.result["winner"]
        points[you] = 0.5 if winner is None else float(winner == you)
    done = subprocess.run([sys.executable, "-m", "gridfall", "standings", str(run.path), "--json"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    (greedy,) = json.loads(done.stdout)["opponents"]
    assert greedy["opponent"] == "greedy" and greedy["games"] == 2
    assert greedy["first"] == [points[0], 1] and greedy["second"] == [points[1], 1]
    assert greedy["won"] + greedy["drawn"] + greedy["lost"] == 2 and greedy["won"] == sum(p == 1 for p in points.values())
    text = subprocess.run([sys.executable, "-m", "gridfall", "standings", str(run.path)], capture_output=True,
                          text=True, timeout=120)
    assert text.returncode == 0 and "your games in the browser" in text.stdout and "greedy" in text.stdout
