"""A play server for one test: on a free loopback port, answering from a thread, with a run
database of its own; stopped, its bots killed and the database closed (its lock let go) after."""

import contextlib
import threading

from gridfall.arena.database import RunDatabase
from gridfall.arena.limits import Limits
from gridfall.connect4.play_server import PlayServer, serve

RELAXED = Limits(5.0, 2.0)


@contextlib.contextmanager
def serving(folder, opponent: str, limits: Limits = RELAXED, page: str = "<html>page</html>"):
    """(port, PlayServer, RunDatabase) while the server runs."""
    with RunDatabase(folder / "play.sqlite", "connect4 play", {}) as run:
        play = PlayServer(opponent, limits, database=run)
        httpd = serve(play, page)
        threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
        try:
            yield httpd.server_address[1], play, run
        finally:
            httpd.shutdown()
            httpd.server_close()
            play.close()
