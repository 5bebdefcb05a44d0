"""A person against a bot in the browser: a small HTTP server on 127.0.0.1 (standard library only).

Why the standard library: the server answers a handful of JSON requests from one page on the same
machine; ``http.server``'s threading server does that in a page of code, with nothing to install.

The API (JSON in, JSON out; every request is checked, and a bad one gets a 4xx that touches no
other game):

* ``GET /`` the page; ``GET /api/state?game=ID`` a game's state.
* ``POST /api/new`` ``{"seat": 0 | 1}``: a new game, the person in that seat (the bot moves first
  when the person is seat 1).
* ``POST /api/move`` ``{"game": ID, "action": COLUMN | -2}``: the person's move (-2 is STEAL), then
  the bot's answer under the referee's limits.

Only the page may call it.  Any website the person visits meanwhile can send requests to
127.0.0.1 too: a cross-site form or a plain ``fetch`` is refused because a POST must say
``Content-Type: application/json`` (which a browser sends cross-site only after a preflight,
answered here by none), and a website that rebinds its own name to 127.0.0.1 is refused because
the ``Host`` (and any ``Origin``) must name this server: otherwise such a website could fill the
server with games, each a bot process.

The bot runs under the CodinGame protocol (:func:`~gridfall.connect4.protocol.turn_input`) with the
referee's limits: a timeout, a crash or an illegal answer loses it the game.  A bot is killed
when its game ends and when the server stops; each finished game is stored in the run database
as an arena game is (replay it with ``gridfall view``).
"""

from __future__ import annotations

import secrets
import sys
import threading
from dataclasses import dataclass, field
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

from gridfall import json_text
from gridfall.arena.database import GameRow, RunDatabaseError, stored_output
from gridfall.arena.limits import Limits
from gridfall.arena.process import BotFailure, BotProcess, MachineCannotStartBot
from gridfall.connect4.codingame import LIMITS, ask_turn
from gridfall.connect4.match import bot_command
from gridfall.connect4.rules import STEAL, Game, action_text
from gridfall.internal_error import internal_error_line, show_tracebacks

MAX_BODY = 1024  # bytes of a request body
MAX_GAMES = 64  # games a server keeps at once; the oldest finished ones go first
REQUEST_SECONDS = 30.0  # how long a request may take to arrive in whole, and its answer to be taken


class Refused(Exception):
    """A request the server will not serve: ``status`` and a message for the page."""

    def __init__(self, status: HTTPStatus, message: str):
        super().__init__(message)
        self.status = status


@dataclass
class PlayedGame:
    id: str
    person: int  # the person's seat
    opponent: str  # the bot as given (a built-in name or a command)
    seed: int  # the bot's (--seed, or GRIDFALL_SEED for a command): a line that beat it once may not again
    game: Game = field(default_factory=lambda: Game(steal=True))
    bot: BotProcess | None = None
    bot_first_turn: bool = True
    moves: list[int] = field(default_factory=list)
    times: list[float] = field(default_factory=list)  # the bot's turns
    messages: list[str] = field(default_factory=list)
    outputs: list[str] = field(default_factory=list)  # the bot's stderr, turn by turn
    result: str = ""
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def over(self) -> bool:
        return bool(self.result)

    def state(self) -> dict:
        g = self.game
        return {"game": self.id, "person": self.person, "cells": "".join(g.position.rows_text()),
                "width": g.width, "height": g.height, "turn": g.turn, "to_move": None if self.over else g.current_player(),
                "legal": [] if self.over or g.current_player() != self.person else g.legal_actions(),
                "moves": [action_text(m) for m in self.moves], "winner": g.winner, "result": self.result,
                "bot_message": self.messages[-1] if self.messages else "",
                "bot_output": self.outputs[-1] if self.outputs else "", "opponent": self.opponent}


class PlayServer:
    """The games of one server, and what the handler calls."""

    def __init__(self, opponent: str, limits: Limits = LIMITS, database=None, seed: int | None = None):
        self.opponent = opponent
        self.limits = limits
        self.database = database
        self.seed = seed  # every game's bot seed; None: each game draws its own
        self.games: dict[str, PlayedGame] = {}
        self.lock = threading.Lock()

    # -- the API ----------------------------------------------------------------

    def new(self, body: dict) -> dict:
        seat = body.get("seat")
        if type(seat) is not int or seat not in (0, 1):  # JSON's 1.0 and true are no seat, as 3.0 is no action
            raise Refused(HTTPStatus.BAD_REQUEST, "seat must be 0 (move first) or 1 (move second)")
        seed = secrets.randbelow(2**31) if self.seed is None else self.seed
        played = PlayedGame(secrets.token_hex(8), seat, self.opponent, seed)
        with self.lock:
            self._make_room()
            self.games[played.id] = played
        with played.lock:
            self._bot_moves(played)
            return played.state()

    def state(self, game_id: str | None) -> dict:
        played = self._find(game_id)
        with played.lock:
            return played.state()

    def move(self, body: dict) -> dict:
        played = self._find(body.get("game"))
        action = body.get("action")
        if not isinstance(action, int) or isinstance(action, bool):
            raise Refused(HTTPStatus.BAD_REQUEST, "action must be a column number, or -2 for STEAL")
        with played.lock:
            if played.over:
                raise Refused(HTTPStatus.CONFLICT, f"the game is over: {played.result}")
            if played.game.current_player() != played.person:
                raise Refused(HTTPStatus.CONFLICT, "it is the bot's turn")
            if action not in played.game.legal_actions():
                legal = ", ".join(action_text(a) for a in played.game.legal_actions())
                raise Refused(HTTPStatus.BAD_REQUEST, f"{action_text(action) if action == STEAL else action} is not "
                                                      f"a legal move here (legal: {legal})")
            self._apply(played, action)
            self._bot_moves(played)
            return played.state()

    def close(self) -> None:
        with self.lock:
            games = list(self.games.values())
        for played in games:
            if played.bot is not None:
                played.bot.close()

    # -- the games ----------------------------------------------------------------

    def _find(self, game_id) -> PlayedGame:
        if not isinstance(game_id, str) or game_id not in self.games:
            raise Refused(HTTPStatus.NOT_FOUND, "no such game")
        return self.games[game_id]

    def _make_room(self) -> None:
        if len(self.games) < MAX_GAMES:
            return
        finished = [g for g in self.games.values() if g.over]
        if not finished:
            raise Refused(HTTPStatus.TOO_MANY_REQUESTS, f"{MAX_GAMES} games are under way; finish one first")
        del self.games[finished[0].id]

    def _apply(self, played: PlayedGame, action: int) -> None:
        played.game.apply_action(action)
        played.moves.append(action)
        if played.game.is_terminal():
            names = ["you", "the bot"] if played.person == 0 else ["the bot", "you"]
            winner = played.game.winner
            self._finish(played, "draw (board full)" if winner is None else f"{names[winner]} won (four in a row)")

    def _bot_moves(self, played: PlayedGame) -> None:
        """The bot's turn, if it is one: ask it under the referee's limits."""
        game = played.game
        if played.over or game.current_player() == played.person:
            return
        if played.bot is None:
            try:
                played.bot = BotProcess(bot_command(self.opponent, played.seed, self.limits), seed=played.seed)
            except BotFailure as e:
                self._finish(played, f"you won: the bot could not start ({e.detail})")
                return
            except MachineCannotStartBot as e:  # no one's loss: the game ends unplayed and unstored
                played.result = f"stopped: this machine could not start the bot ({e})"
                print(f"gridfall: game {played.id}: {e}", file=sys.stderr, flush=True)
                return
        limit = self.limits.first_turn if played.bot_first_turn else self.limits.turn
        previous = played.moves[-1] if played.moves else -1
        turn = ask_turn(played.bot, game, game.current_player(), played.bot_first_turn, previous, limit)
        played.bot_first_turn = False
        if turn.answered:
            played.times.append(round(turn.seconds, 4))
            played.messages.append(turn.message)
        played.outputs.append(turn.output)  # a turn it lost too: the page shows why
        if turn.fault:
            self._finish(played, f"you won, by the bot's fault: {turn.fault}")  # "timeout (...)", "bot crashed (...)"
            return
        assert turn.action is not None  # a turn without a fault holds a legal action
        self._apply(played, turn.action)

    def _finish(self, played: PlayedGame, result: str) -> None:
        played.result = result
        if played.bot is not None:
            played.bot.close()
        if self.database is not None:
            names = ["you", self.opponent]
            seats = names if played.person == 0 else names[::-1]
            winner = played.game.winner
            commands = ["(the browser)", self.opponent] if played.person == 0 else [self.opponent, "(the browser)"]
            try:
                with self.lock:
                    self.database.add(GameRow(
                        job=f"game {played.id}", game="connect4", commands=commands, seats=seats,
                        moves=played.moves,
                        result={"winner": winner, "opening": 0, "seed": played.seed,
                                **stored_output(_by_turn(played, played.outputs, ""))},
                        reason=result,
                        times=_bot_times_by_turn(played), messages=_bot_messages_by_turn(played)))
            except RunDatabaseError as e:  # a full disk: the game ends as played, and the page says so
                played.result += "; not stored (the terminal says why)"
                print(f"gridfall: game {played.id}: {e}", file=sys.stderr, flush=True)


def _bot_times_by_turn(played: PlayedGame) -> list[float]:
    """Each turn's time (the person's turns are not timed: 0)."""
    return _by_turn(played, played.times, 0.0)


def _bot_messages_by_turn(played: PlayedGame) -> list[str]:
    return _by_turn(played, played.messages, "")


def _by_turn(played: PlayedGame, bot_values: list, person_value) -> list:
    out, bot = [], iter(bot_values)
    game = Game(steal=True)
    for action in played.moves:
        out.append(person_value if game.current_player() == played.person else next(bot, person_value))
        game.apply_action(action)
    return out


def make_handler(server: PlayServer, page: str):
    class Handler(BaseHTTPRequestHandler):
        server: ThreadingHTTPServer  # the one serve() makes
        timeout = REQUEST_SECONDS  # a client that stops sending mid-request frees its thread

        def log_message(self, format, *args):  # quiet: the command prints what matters
            pass

        def _from_the_page(self) -> bool:
            """True if the request names this server (Host, and Origin if sent); else a 403 is sent."""
            port = self.server.server_port
            hosts = {f"127.0.0.1:{port}", f"localhost:{port}"}
            origin = self.headers.get("Origin")
            if self.headers.get("Host") in hosts and (origin is None or origin in {f"http://{h}" for h in hosts}):
                return True
            self._json(HTTPStatus.FORBIDDEN, {"error": f"this server answers only its own page, at http://127.0.0.1:{port}/"})
            return False

        def _send(self, status: int, body: bytes, content_type: str) -> None:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(body)

        def _json(self, status: int, data: dict) -> None:
            self._send(status, json_text.dumps(data).encode(), "application/json")

        def _answer(self, call) -> None:
            try:
                self._json(HTTPStatus.OK, call())
            except Refused as e:
                self._json(e.status, {"error": str(e)})

        def do_GET(self):  # noqa: N802 - the http.server name
            if not self._from_the_page():
                return
            url = urlparse(self.path)
            if url.path == "/":
                self._send(HTTPStatus.OK, page.encode(), "text/html; charset=utf-8")
            elif url.path == "/favicon.ico":  # browsers ask; there is none
                self._send(HTTPStatus.NO_CONTENT, b"", "image/x-icon")
            elif url.path == "/api/state":
                game_id = parse_qs(url.query).get("game", [None])[0]
                self._answer(lambda: server.state(game_id))
            else:
                self._json(HTTPStatus.NOT_FOUND, {"error": "no such page"})

        def do_POST(self):  # noqa: N802
            if not self._from_the_page():
                return
            url = urlparse(self.path)
            calls = {"/api/new": server.new, "/api/move": server.move}
            if url.path not in calls:
                self._json(HTTPStatus.NOT_FOUND, {"error": "no such page"})
                return
            if self.headers.get("Content-Type", "").split(";")[0].strip().lower() != "application/json":
                self._json(HTTPStatus.UNSUPPORTED_MEDIA_TYPE, {"error": "a request sends JSON (Content-Type: application/json)"})
                return
            if "Transfer-Encoding" in self.headers:  # http.server does not read a chunked body: it was taken for none
                self._json(HTTPStatus.LENGTH_REQUIRED, {"error": "a request sends its body with a Content-Length"})
                return
            try:
                length = int(self.headers.get("Content-Length", "0"))
            except ValueError:
                self._json(HTTPStatus.BAD_REQUEST, {"error": "a bad Content-Length"})
                return
            if length < 0 or length > MAX_BODY:
                self._json(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, {"error": f"a body is at most {MAX_BODY} bytes"})
                return
            try:
                body = json_text.loads(self.rfile.read(length) or b"{}")
                if not isinstance(body, dict):
                    raise ValueError("not an object")
            except ValueError:
                self._json(HTTPStatus.BAD_REQUEST, {"error": "the body must be a JSON object"})
                return
            self._answer(lambda: calls[url.path](body))

    return Handler


class QuietServer(ThreadingHTTPServer):
    """socketserver prints a traceback for any error of a request's thread.  A page closed while
    its request was answered (a tab closed as the bot thinks) or a client that went silent is no
    fault: nothing is said.  Anything else is gridfall's fault, said in one line as the CLI says an
    internal error; the server goes on serving."""

    daemon_threads = True

    def handle_error(self, request, client_address) -> None:
        error = sys.exc_info()[1]
        if error is None or isinstance(error, (ConnectionError, TimeoutError)):  # BrokenPipeError, ConnectionResetError
            return
        if show_tracebacks():
            super().handle_error(request, client_address)
            return
        print(internal_error_line(error, "answering a request"), file=sys.stderr, flush=True)


def serve(server: PlayServer, page: str, port: int = 0) -> ThreadingHTTPServer:
    """An HTTP server on 127.0.0.1 (``port`` 0: a free one), not yet serving."""
    return QuietServer(("127.0.0.1", port), make_handler(server, page))
