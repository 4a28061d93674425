"""Where a webhook may go, and how it is posted to (issue 31).

A webhook URL is the player's: left alone, the server would POST wherever it points,
its own loopback and the networks behind it included (a blind request forgery). So a
webhook's host is resolved and every address it names must be public: loopback,
private, shared, link-local (with the cloud metadata address 169.254.169.254),
unique-local, unspecified, multicast, reserved, documentation and IPv4-mapped or
-embedding addresses are refused, when the seat opts in and again at every send. The
send connects to the address it checked (no second lookup that could answer something
else), keeps the URL's host name in the Host header and, for https, in the TLS server
name and certificate check, follows no redirect, and has one deadline for all of it:
resolving, connecting, the TLS handshake, the request, and the answer's status line.

`WebhookPolicy.allowed` lists networks let through all the same: empty in production
(`MIDWAY_WEBHOOK_ALLOW_NETWORKS`); the tests name 127.0.0.0/8 to reach their listeners.
"""

from __future__ import annotations

import contextlib
import ipaddress
import re
import socket
import ssl
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass, field
from urllib.parse import urlsplit

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network
Resolver = Callable[[str, int], Sequence[str]]  # (host, port) -> its addresses

MAX_URL = 2000
RESOLVE_SECONDS = 5.0
STATUS_LINE_BYTES = 1024

# What each refused network is, in the words of the refusal; the first that holds wins.
REFUSED: tuple[tuple[str, str], ...] = (
    ("169.254.169.254/32", "the cloud metadata address"),
    ("fd00:ec2::254/128", "the cloud metadata address"),
    ("100.100.100.200/32", "the cloud metadata address"),
    ("0.0.0.0/8", "an unspecified ('this network')"),
    ("127.0.0.0/8", "a loopback"),
    ("10.0.0.0/8", "a private"),
    ("172.16.0.0/12", "a private"),
    ("192.168.0.0/16", "a private"),
    ("100.64.0.0/10", "a shared (carrier-grade NAT)"),
    ("169.254.0.0/16", "a link-local"),
    ("192.0.0.0/24", "a protocol-assignment"),
    ("192.0.2.0/24", "a documentation"),
    ("198.51.100.0/24", "a documentation"),
    ("203.0.113.0/24", "a documentation"),
    ("198.18.0.0/15", "a benchmarking"),
    ("224.0.0.0/4", "a multicast"),
    ("240.0.0.0/4", "a reserved"),
    ("::/128", "an unspecified"),
    ("::1/128", "a loopback"),
    ("::ffff:0:0/96", "an IPv4-mapped"),
    ("::/96", "an IPv4-compatible"),
    ("64:ff9b::/96", "a NAT64 (IPv4-embedding)"),
    ("64:ff9b:1::/48", "a NAT64 (IPv4-embedding)"),
    ("100::/64", "a discard"),
    ("2001::/32", "a Teredo (IPv4-embedding)"),
    ("2001:db8::/32", "a documentation"),
    ("2002::/16", "a 6to4 (IPv4-embedding)"),
    ("fc00::/7", "a unique-local"),
    ("fe80::/10", "a link-local"),
    ("fec0::/10", "a site-local"),
    ("ff00::/8", "a multicast"),
)
_REFUSED = tuple((ipaddress.ip_network(net), what) for net, what in REFUSED)
_NAME = re.compile(r"[a-z0-9_]([a-z0-9_-]{0,62})(\.[a-z0-9_]([a-z0-9_-]{0,62}))*\.?")
_NUMERIC_LABEL = re.compile(r"(0x[0-9a-f]*|[0-9]+)")


class Refused(ValueError):
    """The URL or its address is not one a webhook may go to: the message says why."""


class SendFailed(Exception):
    """A send that did not deliver; `retry` when trying again later may (a 5xx, a
    timeout, a refused connection), not when it cannot (a 4xx, a redirect, a refusal).
    `logged` is what the log may say of it: never a host or an address."""

    def __init__(self, why: str, retry: bool, logged: str | None = None) -> None:
        super().__init__(why)
        self.retry = retry
        self.logged = why if logged is None else logged


@dataclass(frozen=True)
class WebhookUrl:
    scheme: str
    host: str  # lower case, IPv6 without its brackets
    port: int
    target: str  # path and query, as sent in the request line

    @property
    def host_header(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        default = 443 if self.scheme == "https" else 80
        return host if self.port == default else f"{host}:{self.port}"


def parse_webhook(url: str) -> WebhookUrl:
    """The parts of a webhook URL the send needs; Refused, saying why, for one that is
    not an http(s) URL of printable ASCII with a host and no user name or password."""
    if len(url) > MAX_URL:
        raise Refused(f"a webhook URL is at most {MAX_URL} characters")
    if any(not "!" <= c <= "~" for c in url):
        raise Refused(
            "a webhook URL is printable ASCII, with no spaces or control characters "
            "(percent-encode the rest)"
        )
    try:
        parts = urlsplit(url)
    except ValueError:  # an unclosed or bad IPv6 literal
        raise Refused("a webhook URL's host is a name, an IPv4 address or [IPv6]") from None
    if parts.scheme not in ("http", "https") or not url.startswith(parts.scheme + "://"):
        raise Refused("a webhook is an http:// or https:// URL")
    if "@" in parts.netloc:
        raise Refused(
            "a webhook URL may not hold a user name or password (user:password@): "
            "nothing would be sent with them"
        )
    try:
        port = parts.port
    except ValueError:
        raise Refused("a webhook URL's port is a number from 1 to 65535") from None
    host = parts.hostname or ""
    if not host:
        raise Refused("a webhook URL names a host")
    if port == 0:
        raise Refused("a webhook URL's port is a number from 1 to 65535")
    literal = _ip(host)
    if literal is None:
        if not _NAME.fullmatch(host):
            raise Refused(f"{host} is not a host name")
        if _NUMERIC_LABEL.fullmatch(host.rstrip(".").rsplit(".", 1)[-1]):
            raise Refused(
                f"{host} is not a host name, nor an IP address written as four decimal "
                "numbers (a.b.c.d) or in brackets for IPv6"
            )
    target = parts.path or "/"
    if parts.query:
        target += "?" + parts.query
    return WebhookUrl(parts.scheme, host, port or (443 if parts.scheme == "https" else 80), target)


def _ip(host: str) -> IPAddress | None:
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        return None


def parse_networks(text: str) -> tuple[IPNetwork, ...]:
    """`MIDWAY_WEBHOOK_ALLOW_NETWORKS`: networks in CIDR form, separated by commas."""
    return tuple(ipaddress.ip_network(n.strip()) for n in text.split(",") if n.strip())


def system_resolver(host: str, port: int) -> list[str]:
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return [str(info[4][0]) for info in infos]


_LOOKUPS = ThreadPoolExecutor(max_workers=4, thread_name_prefix="webhook-dns")


@dataclass(frozen=True)
class WebhookPolicy:
    """Which addresses a webhook may reach, how its host is resolved (a resolver the
    tests may replace), and the TLS context of https webhooks."""

    allowed: tuple[IPNetwork, ...] = ()
    resolver: Resolver = system_resolver
    tls: ssl.SSLContext = field(default_factory=ssl.create_default_context)

    def refusal(self, address: IPAddress) -> str | None:
        """What is wrong with sending to `address` (None: nothing)."""
        if any(address in net for net in self.allowed if net.version == address.version):
            return None
        for net, what in _REFUSED:
            if net.version == address.version and address in net:
                return what
        if not address.is_global or address.is_multicast:
            return "a non-public"
        return None

    def addresses(self, url: WebhookUrl, seconds: float = RESOLVE_SECONDS) -> list[str]:
        """The host's addresses, each of them allowed, or Refused naming the first that
        is not; SendFailed (retry) when the host does not resolve in `seconds`."""
        literal = _ip(url.host)
        if literal is not None:
            found: Sequence[str] = [str(literal)]
        else:
            lookup = _LOOKUPS.submit(self.resolver, url.host, url.port)
            try:
                found = lookup.result(timeout=max(seconds, 0.001))
            except FutureTimeout:
                why = f"{url.host} did not resolve in {seconds:g} s"
                raise SendFailed(why, True, "no address in time") from None
            except OSError:
                raise SendFailed(f"{url.host} does not resolve", True, "no address") from None
        if not found:
            raise SendFailed(f"{url.host} does not resolve", True, "no address")
        out = []
        for text in found:
            address = ipaddress.ip_address(text.split("%", 1)[0])
            what = self.refusal(address)
            if what is not None:
                said = (
                    f"{address} is {what} address"
                    if literal is not None
                    else f"{url.host} resolves to {address}, {what} address"
                )
                raise Refused(f"a webhook goes to public addresses only: {said}")
            out.append(str(address))
        return out

    def check(self, url: str) -> None:
        """At opting in: the URL is well formed and its host resolves to allowed
        addresses only (Refused, with the reason, if not)."""
        parsed = parse_webhook(url)
        try:
            self.addresses(parsed)
        except SendFailed as exc:
            raise Refused(f"the webhook's host {exc}") from None

    def post(self, url: str, body: bytes, seconds: float) -> int:
        """POST `body` (JSON) to the webhook, all of it within `seconds`; its status
        (2xx), or SendFailed. No redirect is followed: a 3xx is a failure."""
        deadline = time.monotonic() + seconds
        try:
            parsed = parse_webhook(url)
            addresses = self.addresses(parsed, seconds)
        except Refused as exc:
            raise SendFailed(str(exc), False, "refused: not a public address or URL") from None
        open_ = [_connect(addresses, parsed.port, deadline)]  # the socket, then its TLS
        watchdog = threading.Timer(max(deadline - time.monotonic(), 0), _shut, (open_,))
        watchdog.daemon = True
        watchdog.start()
        try:
            if parsed.scheme == "https":
                tls = self.tls.wrap_socket(
                    open_[0], server_hostname=parsed.host, do_handshake_on_connect=False
                )
                open_.append(tls)
                tls.settimeout(_left(deadline))
                tls.do_handshake()
            conn = open_[-1]
            head = (
                f"POST {parsed.target} HTTP/1.1\r\n"
                f"Host: {parsed.host_header}\r\n"
                "User-Agent: Midway-Online\r\n"
                "Content-Type: application/json\r\n"
                f"Content-Length: {len(body)}\r\n"
                "Connection: close\r\n\r\n"
            )
            conn.settimeout(_left(deadline))
            conn.sendall(head.encode("ascii") + body)
            status = _status(conn, deadline)
        except SendFailed:
            raise
        except (OSError, ValueError) as exc:
            late = time.monotonic() >= deadline
            why = f"no answer within {seconds:g} s" if late else type(exc).__name__
            raise SendFailed(why, True) from None
        finally:
            watchdog.cancel()
            for sock in reversed(open_):
                sock.close()
        if 200 <= status < 300:
            return status
        if 300 <= status < 400:
            raise SendFailed(f"answered {status}: redirects are not followed", False)
        raise SendFailed(f"answered {status}", status >= 500 or status in (408, 425, 429))


def _left(deadline: float) -> float:
    left = deadline - time.monotonic()
    if left <= 0:
        raise TimeoutError
    return left


def _shut(open_: list[socket.socket]) -> None:
    """The deadline: whatever the send is waiting for ends now."""
    with contextlib.suppress(OSError):
        open_[-1].shutdown(socket.SHUT_RDWR)


def _connect(addresses: Sequence[str], port: int, deadline: float) -> socket.socket:
    error: OSError | None = None
    for address in addresses:
        try:
            return socket.create_connection((address, port), timeout=_left(deadline))
        except TimeoutError:
            raise SendFailed("no connection before the deadline", True) from None
        except OSError as exc:
            error = exc
    raise SendFailed(f"could not connect ({type(error).__name__})", True)


def _status(conn: socket.socket, deadline: float) -> int:
    """The status of the answer's status line, read before the deadline; the rest of
    the answer (headers, body) is not waited for."""
    seen = b""
    while b"\r\n" not in seen and b"\n" not in seen and len(seen) < STATUS_LINE_BYTES:
        conn.settimeout(_left(deadline))
        got = conn.recv(STATUS_LINE_BYTES - len(seen))
        if not got:
            _left(deadline)  # the watchdog shut it: the deadline passed
            break
        seen += got
    found = re.match(rb"HTTP/1\.[01] ([1-5][0-9][0-9])[ \r\n]", seen)
    if found is None:
        raise SendFailed("the answer is not HTTP/1.x", True)
    return int(found.group(1))
