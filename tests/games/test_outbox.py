"""The notices' senders (issue 31, item 4): an email's send, like a webhook's, has one
deadline for all of it, so a mail server that answers a byte at a time holds up its own
notice and no other for longer than that; and it goes to the one address given, whatever
the To header would be read as."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from app.games.outbox import Notice, Outbox
from app.games.webhooks import SendFailed

NOTICE = Notice("your move", "g1", "usa", "Scenario One", "")


@contextmanager
def dribbling_smtp(every: float) -> Iterator[int]:
    """A mail server whose greeting comes a byte every `every` seconds."""
    server = socket.create_server(("127.0.0.1", 0))
    stop = threading.Event()

    def serve() -> None:
        conn, _ = server.accept()
        with conn:
            for byte in b"220 mail.example ESMTP\r\n":
                if stop.wait(every):
                    return
                try:
                    conn.sendall(bytes([byte]))
                except OSError:
                    return

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield server.getsockname()[1]
    finally:
        stop.set()
        thread.join(5)
        server.close()


def test_issue_31_4_an_email_send_has_one_deadline() -> None:
    with dribbling_smtp(0.25) as port:
        outbox = Outbox("127.0.0.1", port, "midway@localhost", seconds=1.0)
        start = time.monotonic()
        with pytest.raises(SendFailed) as failed:
            outbox.email("usa@players.example", NOTICE)
        took = time.monotonic() - start
    assert failed.value.retry and 0.9 < took < 2.0, took


def test_issue_31_8_an_email_goes_to_the_one_address_given() -> None:
    """The envelope's one recipient is the address given (checked beforehand to be one
    address: app.games.notices.check_email)."""
    rcpt: list[bytes] = []
    server = socket.create_server(("127.0.0.1", 0))

    def serve() -> None:
        conn, _ = server.accept()
        with conn, conn.makefile("rb") as lines:
            conn.sendall(b"220 mail.example ESMTP\r\n")
            data = False
            for line in lines:
                command = line.strip().upper()
                if data:
                    if command == b".":
                        data = False
                        conn.sendall(b"250 queued\r\n")
                elif command.startswith(b"RCPT TO"):
                    rcpt.append(line.strip())
                    conn.sendall(b"250 ok\r\n")
                elif command == b"DATA":
                    data = True
                    conn.sendall(b"354 go on\r\n")
                elif command == b"QUIT":
                    conn.sendall(b"221 bye\r\n")
                    return
                else:  # EHLO, MAIL FROM
                    conn.sendall(b"250 ok\r\n")

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        Outbox("127.0.0.1", server.getsockname()[1], "midway@localhost").email(
            "usa@players.example", NOTICE
        )
        thread.join(5)
    finally:
        server.close()
    # SMTP verbs are case-blind (RFC 5321 2.4): smtplib writes "rcpt TO:" before Python
    # 3.13, "rcpt to:" from it; the address is the one given, whole
    assert [r.upper() for r in rcpt] == [b"RCPT TO:<USA@PLAYERS.EXAMPLE>"]
    assert [r.split(b":", 1)[1] for r in rcpt] == [b"<usa@players.example>"]
