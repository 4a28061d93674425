"""Where a webhook may go (issue 31, item 1: blind SSRF), app.games.webhooks on its own:
loopback in every spelling, private, link-local, unique-local, unspecified, IPv4-mapped
and metadata addresses refused when a seat opts in and again at the send, for literal
addresses and for names that resolve to them (a resolver the test chooses); the send
connects to the address it checked, with the URL's host in the Host header and no second
lookup; no redirect is followed; one deadline covers the whole send. Every listener here
is on 127.0.0.1: those the policy refuses must receive nothing."""

from __future__ import annotations

import ipaddress
import re
import shutil
import ssl
import subprocess
import threading
import time
from collections.abc import Callable, Sequence
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path
from typing import Any

import pytest
from server.listeners import listening

from app.games.errors import BadRequest
from app.games.notices import check_opt_in
from app.games.webhooks import Refused, SendFailed, WebhookPolicy, parse_webhook

LOOPBACK = (ipaddress.ip_network("127.0.0.0/8"),)
BODY = b'{"text": "It is your move"}'


def resolver(*answers: Sequence[str]) -> tuple[Callable[[str, int], Sequence[str]], list[str]]:
    """A resolver giving these answers, one a lookup (the last again after them), and
    the names it was asked for."""
    asked: list[str] = []

    def resolve(host: str, port: int) -> Sequence[str]:
        asked.append(host)
        return answers[min(len(asked), len(answers)) - 1]

    return resolve, asked


def no_lookup(host: str, port: int) -> Sequence[str]:
    raise AssertionError(f"{host} was looked up")


# The loopback listener's port goes where {port} is.
REFUSED_URLS = [
    ("http://127.0.0.1:{port}/hook", "127.0.0.1 is a loopback address"),
    ("http://127.1:{port}/hook", "four decimal numbers"),
    ("http://2130706433:{port}/hook", "four decimal numbers"),
    ("http://0x7f000001:{port}/hook", "four decimal numbers"),
    ("http://0177.0.0.1:{port}/hook", "four decimal numbers"),
    ("http://127.0.0.1.:{port}/hook", "four decimal numbers"),
    ("http://[::1]:{port}/hook", "::1 is a loopback address"),
    ("http://0.0.0.0:{port}/hook", "0.0.0.0 is an unspecified"),
    ("http://[::]:{port}/hook", ":: is an unspecified address"),
    ("http://[::ffff:127.0.0.1]:{port}/hook", "is an IPv4-mapped address"),
    ("http://[::ffff:7f00:1]:{port}/hook", "is an IPv4-mapped address"),
    ("http://169.254.169.254/latest/meta-data/", "the cloud metadata address"),
    ("http://[fd00:ec2::254]/latest/meta-data/", "the cloud metadata address"),
    ("http://10.1.2.3/hook", "a private address"),
    ("http://172.16.0.1/hook", "a private address"),
    ("http://192.168.1.1/hook", "a private address"),
    ("http://100.64.0.1/hook", "a shared (carrier-grade NAT) address"),
    ("http://169.254.1.1/hook", "a link-local address"),
    ("http://[fe80::1]/hook", "a link-local address"),
    ("http://[fc00::1]/hook", "a unique-local address"),
    ("http://[fd12:3456::1]/hook", "a unique-local address"),
    ("http://224.0.0.1/hook", "a multicast address"),
    ("http://[64:ff9b::7f00:1]/hook", "a NAT64 (IPv4-embedding) address"),
    ("http://[2002:7f00:1::]/hook", "a 6to4 (IPv4-embedding) address"),
]


@pytest.mark.parametrize(("url", "why"), REFUSED_URLS)
def test_issue_31_1_refused_addresses_at_opt_in_and_at_send(url: str, why: str) -> None:
    """Refused at the opt-in (a 4xx naming the problem) and at the send (not tried
    again), with no lookup for a literal address; the listener receives nothing."""
    with listening() as listener:
        hook = url.format(port=listener.port)
        policy = WebhookPolicy(resolver=no_lookup)
        with pytest.raises(BadRequest, match=re.escape(why)):
            check_opt_in(None, hook, None, policy)
        with pytest.raises(SendFailed) as failed:
            policy.post(hook, BODY, 2.0)
        assert not failed.value.retry
        assert failed.value.logged.startswith("refused")  # never the address, in the log
        time.sleep(0.1)
    assert listener.got == []


@pytest.mark.parametrize(
    ("answer", "why"),
    [
        (["127.0.0.1"], "hooks.example resolves to 127.0.0.1, a loopback address"),
        (["::1"], "hooks.example resolves to ::1, a loopback address"),
        (["93.184.216.34", "10.0.0.7"], "hooks.example resolves to 10.0.0.7, a private address"),
        (["169.254.169.254"], "the cloud metadata address"),
        (["::ffff:127.0.0.1"], "an IPv4-mapped address"),
    ],
)
def test_issue_31_1_a_name_that_resolves_to_a_refused_address(answer: list[str], why: str) -> None:
    """Every address the name resolves to must be public, at the opt-in and at the send."""
    resolve, asked = resolver(answer)
    policy = WebhookPolicy(resolver=resolve)
    with pytest.raises(Refused, match=re.escape(why)):
        policy.check("https://hooks.example/hook")
    with pytest.raises(SendFailed) as failed:
        policy.post("https://hooks.example/hook", BODY, 2.0)
    assert not failed.value.retry
    assert asked == ["hooks.example", "hooks.example"]


def test_issue_31_1_localhost_is_refused_with_the_system_resolver() -> None:
    with listening() as listener:
        with pytest.raises(Refused, match=r"localhost resolves to .* a loopback address"):
            WebhookPolicy().check(f"http://localhost:{listener.port}/hook")
        with pytest.raises(SendFailed):
            WebhookPolicy().post(f"http://localhost:{listener.port}/hook", BODY, 2.0)
    assert listener.got == []


def test_issue_31_1_a_name_that_turns_to_loopback_after_the_opt_in_is_refused_at_send() -> None:
    """DNS rebinding: public when the seat opted in, loopback at the send: nothing sent."""
    resolve, asked = resolver(["93.184.216.34"], ["127.0.0.1"])
    policy = WebhookPolicy(resolver=resolve)
    with listening() as listener:
        hook = f"http://hooks.example:{listener.port}/hook"
        policy.check(hook)
        why = re.escape("resolves to 127.0.0.1, a loopback address")
        with pytest.raises(SendFailed, match=why):
            policy.post(hook, BODY, 2.0)
    assert listener.got == [] and len(asked) == 2


def test_issue_31_1_the_send_connects_to_the_address_it_checked() -> None:
    """One lookup a send, its address connected to, the URL's host and port in the Host
    header: `hooks.example` resolves nowhere but through this resolver."""
    resolve, asked = resolver(["127.0.0.1"])
    policy = WebhookPolicy(LOOPBACK, resolve)
    with listening() as listener:
        assert policy.post(f"http://hooks.example:{listener.port}/h?a=1", BODY, 2.0) == 204
    assert asked == ["hooks.example"]
    [got] = listener.got
    assert (got.path, got.host) == ("/h?a=1", f"hooks.example:{listener.port}")
    assert got.body == {"text": "It is your move"}


def test_issue_31_1_no_redirect_is_followed() -> None:
    """A 301/302/303/307/308 is a failure, not tried again; where it points gets nothing."""
    policy = WebhookPolicy(LOOPBACK, no_lookup)
    with listening() as elsewhere:
        for status in (301, 302, 303, 307, 308):
            with listening(answers=[status], location=elsewhere.url + "/x") as hook:
                with pytest.raises(SendFailed, match=f"answered {status}: redirects") as failed:
                    policy.post(hook.url + "/hook", BODY, 2.0)
                assert not failed.value.retry and len(hook.got) == 1
    assert elsewhere.got == []


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("http://user:pw@hooks.example/hook", "user name or password"),
        ("http://user@hooks.example/hook", "user name or password"),
        ("http://hooks.example/\x00", "no spaces or control characters"),
        ("http://hooks.example/a\r\nX-Evil: 1", "no spaces or control characters"),
        ("http://hooks.example/a b", "no spaces or control characters"),
        ("http://hooks.exämple/", "printable ASCII"),
        ("ftp://hooks.example/", "http:// or https://"),
        ("http:hooks.example/", "http:// or https://"),
        ("http://hooks.example:0/", "port"),
        ("http://hooks.example:99999/", "port"),
        ("http:///hook", "names a host"),
        ("http://hooks%2eexample/", "not a host name"),
        ("http://hooks.example:8o/", "port"),
    ],
)
def test_issue_31_8_malformed_webhook_urls_are_refused(url: str, why: str) -> None:
    with pytest.raises(Refused, match=re.escape(why)):
        parse_webhook(url)
    with pytest.raises(BadRequest, match=re.escape(why)):
        check_opt_in(None, url, None, WebhookPolicy(resolver=no_lookup))


def test_issue_31_8_one_email_address_per_field() -> None:
    """Commas, semicolons, group syntax, angle brackets and line breaks would name other
    recipients: refused, with the reason."""
    for address in (
        "a,b@players.example",
        "a@players.example,b@evil.example",
        "a;b@players.example",
        "friends:a@players.example;",
        "friends: a@players.example, b@evil.example;",
        "Yamamoto <a@players.example>",
        '"a,b"@players.example',
        "a@players.example\r\nBcc: b@evil.example",
        "a@players.example\n",
    ):
        with pytest.raises(BadRequest, match="one email address only"):
            check_opt_in(address, None, None)
    for address in ("a@@players.example", "a@players", "a..b@players.example", "a%b@x.example"):
        with pytest.raises(BadRequest, match="not an email address"):
            check_opt_in(address, None, None)
    check_opt_in("o'brien+midway@players.example", None, None)


def test_issue_31_4_one_deadline_for_the_whole_send() -> None:
    """A webhook that answers its status line a byte a second is given up at the
    deadline (and tried again later), not after each byte's own timeout."""
    policy = WebhookPolicy(LOOPBACK, no_lookup)
    with listening(dribble=0.5) as slow:
        start = time.monotonic()
        with pytest.raises(SendFailed, match=re.escape("no answer within 1.5 s")) as failed:
            policy.post(slow.url + "/hook", BODY, 1.5)
        took = time.monotonic() - start
    assert failed.value.retry and 1.4 < took < 2.5 and len(slow.got) == 1


def test_issue_31_4_a_server_error_and_a_refused_connection_are_tried_again() -> None:
    policy = WebhookPolicy(LOOPBACK, no_lookup)
    with listening(answers=[500, 404]) as hook:
        with pytest.raises(SendFailed, match="answered 500") as failed:
            policy.post(hook.url, BODY, 2.0)
        assert failed.value.retry
        with pytest.raises(SendFailed, match="answered 404") as failed:
            policy.post(hook.url, BODY, 2.0)
        assert not failed.value.retry
        port = hook.port
    with pytest.raises(SendFailed, match="could not connect") as failed:
        policy.post(f"http://127.0.0.1:{port}/", BODY, 2.0)
    assert failed.value.retry


# -- https: the pinned address, the name kept for SNI and the certificate ------------------


@pytest.fixture
def certificate(tmp_path: Path) -> tuple[Path, Path]:
    if shutil.which("openssl") is None:
        pytest.skip("openssl is not installed")
    key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
    subprocess.run(
        [
            *("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1"),
            *("-keyout", str(key), "-out", str(cert), "-subj", "/CN=hooks.example"),
            *("-addext", "subjectAltName=DNS:hooks.example"),
        ],
        check=True,
        capture_output=True,
    )
    return key, cert


def test_issue_31_1_https_keeps_the_name_for_sni_and_the_certificate(
    certificate: tuple[Path, Path],
) -> None:
    """https://hooks.example, resolved (once) to 127.0.0.1: the TLS handshake names
    hooks.example (SNI) and its certificate is checked against that name."""
    key, cert = certificate
    names: list[str | None] = []
    got: list[str] = []

    class Hook(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers["content-length"]))
            got.append(self.headers["host"])
            self.send_response(204)
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    context.sni_callback = lambda _sock, name, _ctx: names.append(name)  # type: ignore[assignment,func-returns-value]
    server = HTTPServer(("127.0.0.1", 0), Hook)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        port = server.server_address[1]
        resolve, asked = resolver(["127.0.0.1"])
        client = ssl.create_default_context(cafile=str(cert))
        policy = WebhookPolicy(LOOPBACK, resolve, client)
        assert policy.post(f"https://hooks.example:{port}/hook", BODY, 5.0) == 204
        assert names == ["hooks.example"] and got == [f"hooks.example:{port}"]
        assert asked == ["hooks.example"]
        other, _ = resolver(["127.0.0.1"])
        with pytest.raises(SendFailed):  # the certificate is not other.example's
            WebhookPolicy(LOOPBACK, other, client).post(f"https://other.example:{port}/", BODY, 5.0)
    finally:
        server.shutdown()
        server.server_close()
