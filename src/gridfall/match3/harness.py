"""Runs a CodeAbbey-style suggest file (Python, or Lua through lupa) for the referee, in its own process.

    python harness.py PLAYER.py REQUEST_FD ANSWER_FD

Standard library only and Python 3.6 syntax, so that it runs under any interpreter the referee
is told to use (``--python python3.6``, ``pypy3``) without gridfall installed there.

The protocol runs over two pipes of its own, not stdin and stdout: the referee writes one JSON
request a line on REQUEST_FD (board, boardNo, move, elapsed); the harness calls the player's
``suggest`` with one or four arguments, as its signature asks, and answers one JSON line on
ANSWER_FD: ``{"result": ...}`` or ``{"error": ...}``.  The player's stdin is /dev/null and its
stdout and stderr (its prints, and those of any command it runs) go to the referee's log, so
nothing the player prints can reach the protocol.  The referee times each call itself: nothing
in this process is trusted with the clock.

With GRIDFALL_SEED set (the referee sets it to the challenge's seed), the player's random numbers
are seeded with it before its file runs: Python's ``random`` module, or Lua's ``math.random``.
A player that draws then plays the same run again, as the challenge's boards do.
"""

import importlib.util
import inspect
import json
import os
import random
import reprlib
import sys

MAX_RESULT_TEXT = 200  # characters of a returned value that is not a short list, shown in the verdict
SHOWN_ITEMS = 20  # items of a returned list (or tuple, dict, set) that is no move, shown in the verdict


def _answer(stream, payload):
    stream.write(json.dumps(payload) + "\n")
    stream.flush()


def _result(value):
    """What suggest returned, as JSON the referee reads: a short list or tuple of plain values as
    it is, anything else (a huge list, an object) as a cut repr for the verdict."""
    if isinstance(value, (list, tuple)) and len(value) <= 3 and all(
            isinstance(v, (int, str, float, bool)) or v is None for v in value):
        if all(not isinstance(v, str) or len(v) <= MAX_RESULT_TEXT for v in value):
            return {"result": list(value)}
    if isinstance(value, str) and len(value) <= MAX_RESULT_TEXT:
        return {"result": value}
    return {"result_repr": _shown(value)}


def _shown(value):
    """A cut repr of a value that is no move, made without a repr of all of it: the referee's
    clock runs until the answer is sent, and a full repr of a million-item list takes 0.15 s, so
    four such answers spent most of a whole run's second on the harness's printing."""
    cut = reprlib.Repr()
    cut.maxlevel = 3
    cut.maxlist = cut.maxtuple = cut.maxset = cut.maxfrozenset = cut.maxdict = SHOWN_ITEMS
    cut.maxstring = cut.maxother = cut.maxlong = MAX_RESULT_TEXT
    try:
        text = cut.repr(value)
    except Exception as e:  # noqa: BLE001 - an int past str()'s digit limit, a player's __repr__ that fails
        return "<%s that cannot be shown: %s>" % (type(value).__name__, type(e).__name__)
    if len(text) > MAX_RESULT_TEXT:  # twenty items can each be twenty items long
        text = text[:MAX_RESULT_TEXT] + "..."
    if isinstance(value, str) and len(value) > MAX_RESULT_TEXT:
        return "%s (%s characters)" % (text, format(len(value), ","))
    if isinstance(value, (list, tuple, dict, set, frozenset)) and len(value) > SHOWN_ITEMS:
        return "%s (%s items)" % (text, format(len(value), ","))
    return text


def _seed():
    """GRIDFALL_SEED as a whole number, or None."""
    try:
        return int(os.environ["GRIDFALL_SEED"])
    except (KeyError, ValueError):
        return None


def _load_python(path):
    spec = importlib.util.spec_from_file_location("player", path)
    if spec is None or spec.loader is None:
        raise ImportError("not a Python file")
    module = importlib.util.module_from_spec(spec)
    seed = _seed()
    if seed is not None:
        random.seed(seed)
    spec.loader.exec_module(module)
    suggest = getattr(module, "suggest", None)
    if not callable(suggest):
        raise AttributeError("the file defines no function suggest(board)")
    parameters = inspect.signature(suggest).parameters.values()
    if any(p.kind == p.VAR_POSITIONAL for p in parameters):  # suggest(board, *rest) takes all four
        return suggest, 4
    return suggest, len(parameters)


def _load_lua(path):
    """A Lua file's suggest (CodeAbbey asks for Lua first), through lupa's Lua 5.4: the board goes
    in as a Lua table of strings, and its multiple return values come back as (col, row, dir)."""
    try:
        from lupa import lua54 as lupa
    except ImportError:
        raise ImportError("running a Lua file needs lupa (pip install gridfall[lua])") from None
    runtime = lupa.LuaRuntime(unpack_returned_tuples=True)
    with open(path, encoding="utf-8") as f:
        source = f.read()
    # Lua's own load, with the chunk named "@FILE", so that its errors say "player.lua:3: ..."
    # (lupa's execute names every chunk "<python>"); "t": source text only, no precompiled chunk
    chunk = runtime.globals().load(source, "@" + os.path.basename(path), "t")
    if isinstance(chunk, tuple):  # nil and the message: two values come back only on a failure
        raise SyntaxError(chunk[1])
    seed = _seed()
    if seed is not None:
        runtime.globals().math.randomseed(seed)
    chunk()
    suggest = runtime.globals().suggest
    if lupa.lua_type(suggest) != "function":
        raise AttributeError("the file defines no function suggest(board)")
    count = runtime.eval("debug.getinfo")(suggest, "u").nparams

    def call(board, *rest):
        return suggest(runtime.table_from(board), *rest)

    return call, count


def _player_fault():
    """gridfall/player_fault.py, loaded by its path: this process may have no gridfall to import."""
    where = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "player_fault.py")
    spec = importlib.util.spec_from_file_location("gridfall_player_fault", where)
    assert spec is not None and spec.loader is not None, where  # a .py path always has a spec and a loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _fault(e, path):
    """What went wrong in a call of suggest, in one line.  A Lua error's message already says
    where ("player.lua:3: ...", and a stack traceback below, left out); Python's last frame
    would be lupa's own.  A Python error gets the player's line it came through (the innermost
    frame neither Python's nor gridfall's: not the line of json's decoder that it called):
    "at line 4" in the file itself, "at helpers.py:4 in gain" in a module of the player's, beside
    the file or carried in an exported one."""
    if type(e).__name__ == "LuaError":
        return "LuaError: %s" % (str(e).splitlines() or [""])[0][:MAX_RESULT_TEXT]
    frame = PLAYER_FAULT.players_frame(e)
    if frame is not None and os.path.abspath(frame.filename) == os.path.abspath(path):
        where = " at line %s" % frame.lineno
    else:
        where = PLAYER_FAULT.place(e)
    return PLAYER_FAULT.what(e)[:MAX_RESULT_TEXT] + where


PLAYER_FAULT = _player_fault()


def main(path, request_fd, answer_fd):
    requests = os.fdopen(request_fd, "r", encoding="utf-8")
    answers = os.fdopen(answer_fd, "w", encoding="utf-8")
    for fd in (request_fd, answer_fd):  # commands the player runs must not inherit the protocol
        os.set_inheritable(fd, False)
    try:
        suggest, count = (_load_lua if path.endswith(".lua") else _load_python)(path)
        if count not in (1, 4):
            raise TypeError("suggest must take 1 argument (board) or 4 (board, boardNo, move, elapsed); "
                            "it takes %d" % count)
    except BaseException as e:  # noqa: BLE001 - anything the player's file does is reported
        _answer(answers, {"fatal": "cannot load %s: %s: %s" % (path, type(e).__name__, e)})
        return
    _answer(answers, {"ready": True, "arguments": count})
    for line in requests:
        request = json.loads(line)
        args = (request["board"],) if count == 1 else (
            request["board"], request["boardNo"], request["move"], request["elapsed"])
        try:
            payload = _result(suggest(*args))
        except BaseException as e:  # noqa: BLE001
            payload = {"error": _fault(e, path)}
        _answer(answers, payload)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
