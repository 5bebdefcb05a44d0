"""Is what answers at ``--cluster tcp://HOST:PORT`` a Dask scheduler?  Asked before Dask's client
connects, because the client cannot tell.

A Dask scheduler speaks first: on a new TCP connection it sends its handshake, one message framed
as every message of Dask's TCP comm is, behind 8 bytes giving its length (little-endian).  Dask's
client reads that frame without a deadline and trusts its length, so something else at the
address, such as the scheduler's own dashboard (port 8787 beside the scheduler's 8786) or any
HTTP or SSH server, made a run fail with numpy asking for exbibytes (the length read from
``HTTP/1.1``), and a server that accepts and stays silent made it wait for ever.

So this module reads the greeting itself, within a deadline: its length must be a plausible one,
and the whole frame must come.  It looks at nothing inside the frame, which Dask's versions
serialise differently.  A connection that fails is left to Dask's client, which retries it while a
scheduler starts and says so in its own words.  The scheduler logs the probe at INFO level, as a
"connection closed before handshake completed".
"""

from __future__ import annotations

import socket
import struct
import time

GREETING_SECONDS = 10.0  # how long the greeting may take to come in whole
LONGEST_GREETING = 1 << 20  # bytes; a scheduler's handshake is under a hundred


class NotAScheduler(Exception):
    """What answered at the address did not greet as a Dask scheduler does; says what it did."""


def check_greeting(host: str, port: int, seconds: float = GREETING_SECONDS) -> None:
    """Return if the server at ``host:port`` greets as a Dask scheduler, or cannot be reached at
    all (Dask's client then retries and names the fault); NotAScheduler otherwise."""
    give_up = time.monotonic() + seconds
    try:
        connection = socket.create_connection((host, port), timeout=seconds)
    except OSError:
        return
    with connection:
        length_bytes = _read(connection, 8, give_up, seconds, "a greeting")  # a web server waits to be asked
        (length,) = struct.unpack("<Q", length_bytes)
        if not 0 < length <= LONGEST_GREETING:
            raise NotAScheduler(f"it began with {length_bytes!r}, not the length of a Dask message")
        _read(connection, length, give_up, seconds, f"the {length} bytes of its greeting")


def _read(connection: socket.socket, count: int, give_up: float, seconds: float, what: str) -> bytes:
    """``count`` bytes from ``connection`` before ``give_up`` (``seconds`` after the start);
    NotAScheduler naming ``what`` did not come (the server closed the connection, or was silent)."""
    data = b""
    while len(data) < count:
        connection.settimeout(max(0.001, give_up - time.monotonic()))
        try:
            chunk = connection.recv(count - len(data))
        except TimeoutError:
            chunk = None
        except OSError as e:
            raise NotAScheduler(f"the connection failed while waiting for {what} ({e})") from None
        if chunk is None or time.monotonic() > give_up:
            raise NotAScheduler(f"it accepted the connection but did not send {what} within {seconds:g} s")
        if not chunk:
            shown = f" after {data[:16]!r}" if data else ""
            raise NotAScheduler(f"it closed the connection before sending {what}{shown}")
        data += chunk
    return data
