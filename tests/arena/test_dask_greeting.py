"""What answers at a --cluster address is asked to greet as a Dask scheduler before Dask's client
connects: the client trusted any first 8 bytes as a length (numpy then asked for exbibytes) and
waited for ever on a server that said nothing."""

import socket
import struct
import threading
import time

import pytest

from gridfall.arena.dask_greeting import NotAScheduler, check_greeting

pytestmark = pytest.mark.parallel_safe  # loopback servers that answer at once or never


def _server(reply):
    """A loopback server whose every connection gets ``reply(connection)``; its port."""
    listener = socket.create_server(("127.0.0.1", 0))

    def serve():
        while True:
            try:
                connection, _ = listener.accept()
            except OSError:
                return
            threading.Thread(target=reply, args=(connection,), daemon=True).start()

    threading.Thread(target=serve, daemon=True).start()
    return listener, listener.getsockname()[1]


def _then_wait(data: bytes):
    def reply(connection):
        connection.sendall(data)
        time.sleep(30)
        connection.close()
    return reply


def _greeting(body: bytes) -> bytes:
    return struct.pack("<Q", len(body)) + body


@pytest.mark.parametrize("reply, said", [
    (_then_wait(b""), "did not send a greeting within 0.5 s"),  # silent, as a web server waiting to be asked
    (_then_wait(b"SSH-2.0-OpenSSH_9.2\r\n"), r"it began with b'SSH-2.0-', not the length of a Dask message"),
    (_then_wait(b"HTTP/1.1 400 Bad Request\r\n\r\n"), r"it began with b'HTTP/1.1', not the length"),
    (_then_wait(struct.pack("<Q", 0)), "not the length of a Dask message"),
    (_then_wait(b"\x10\x00\x00"), "did not send a greeting within 0.5 s"),  # part of a length, then silence
    (_then_wait(_greeting(b"x" * 40)[:20]), "did not send the 40 bytes of its greeting within 0.5 s"),
    (lambda connection: connection.close(), "it closed the connection before sending a greeting"),
    (lambda connection: (connection.sendall(b"\x28\x00"), connection.close()),
     r"closed the connection before sending a greeting after b'\(\\x00'"),
])
def test_a_server_that_does_not_greet_as_a_scheduler_is_named_within_the_deadline(reply, said):
    listener, port = _server(reply)
    with listener:
        start = time.monotonic()
        with pytest.raises(NotAScheduler, match=said):
            check_greeting("127.0.0.1", port, seconds=0.5)
        assert time.monotonic() - start < 5


def test_a_whole_greeting_passes_and_a_refused_connection_is_left_to_dasks_client():
    listener, port = _server(_then_wait(_greeting(b"\x81\xa6python\x93\x03\x0b\x07")))
    with listener:
        check_greeting("127.0.0.1", port, seconds=5)
    check_greeting("127.0.0.1", port, seconds=5)  # closed now: Dask's client retries, and says so
