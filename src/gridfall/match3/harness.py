"""Runs a CodeAbbey-style suggest file for the referee, in its own process.

Standard library only, so it starts in milliseconds.  Reads one JSON request
per line (board, boardNo, move, elapsed), calls the player's ``suggest`` with
one or four arguments as its signature asks, and answers one JSON line:
``{"result": ..., "took": seconds}`` or ``{"error": ..., "took": seconds}``.
The player's own prints go to stderr so they cannot corrupt the protocol.

    python -m gridfall.match3.harness PLAYER.py
"""

import importlib.util
import inspect
import json
import sys
import time
import traceback


def _answer(stream, payload):
    stream.write(json.dumps(payload) + "\n")
    stream.flush()


def main(path):
    protocol = sys.stdout
    sys.stdout = sys.stderr  # the player's prints must not reach the referee
    try:
        spec = importlib.util.spec_from_file_location("player", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        suggest = module.suggest
        count = len(inspect.signature(suggest).parameters)
        if count not in (1, 4):
            raise TypeError("suggest must take 1 argument (board) or 4 (board, boardNo, move, elapsed); "
                            "it takes %d" % count)
    except BaseException as e:  # noqa: BLE001 - anything the player's file does is reported
        _answer(protocol, {"fatal": "cannot load %s: %s: %s" % (path, type(e).__name__, e)})
        return
    _answer(protocol, {"ready": True, "arguments": count})
    for line in sys.stdin:
        request = json.loads(line)
        args = (request["board"],) if count == 1 else (
            request["board"], request["boardNo"], request["move"], request["elapsed"])
        start = time.perf_counter()
        try:
            result = suggest(*args)
            took = time.perf_counter() - start
            try:
                payload = {"result": json.loads(json.dumps(result)), "took": took}
            except (TypeError, ValueError):
                payload = {"result": repr(result), "took": took}
        except BaseException as e:  # noqa: BLE001
            took = time.perf_counter() - start
            tb = traceback.extract_tb(e.__traceback__)
            where = " at line %d" % tb[-1].lineno if tb else ""
            payload = {"error": "%s: %s%s" % (type(e).__name__, e, where), "took": took}
        _answer(protocol, payload)


if __name__ == "__main__":
    main(sys.argv[1])
