"""nginx from Debian in front of live servers, with the deployment's own configuration
(deploy/nginx/midway.conf.template) filled in for free ports: the docker-compose topology
without containers. nginx runs as the test's user, in the foreground, with every file it
writes under one temporary directory."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from string import Template

import httpx
from live import ROOT, free_port

TEMPLATE = ROOT / "deploy" / "nginx" / "midway.conf.template"

MAIN = """\
daemon off;
worker_processes 1;
pid $dir/nginx.pid;
error_log $dir/error.log info;
events { worker_connections 256; }
http {
    client_body_temp_path $dir/body;
    proxy_temp_path $dir/proxy;
    fastcgi_temp_path $dir/fastcgi;
    uwsgi_temp_path $dir/uwsgi;
    scgi_temp_path $dir/scgi;
    include $dir/midway.conf;
}
"""


def find_nginx() -> str | None:
    return shutil.which("nginx") or next(
        (p for p in ("/usr/sbin/nginx", "/usr/local/sbin/nginx") if os.path.exists(p)), None
    )


@dataclass
class Nginx:
    binary: str
    upstreams: list[str]
    port: int = field(default_factory=free_port)
    dir: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="midway-nginx-")))
    proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def render(self) -> str:
        """The deployment's template, as the nginx image's envsubst fills it."""
        values = {
            "MIDWAY_APP_1": self.upstreams[0],
            "MIDWAY_APP_2": self.upstreams[1],
            "MIDWAY_LISTEN": f"127.0.0.1:{self.port}",
            "MIDWAY_ACCESS_LOG": str(self.dir / "access.log"),
            "MIDWAY_ERROR_LOG": str(self.dir / "error.log"),
        }
        return Template(TEMPLATE.read_text()).safe_substitute(values)

    def start(self) -> Nginx:
        # Workers run as `nobody` when the test runs as root: they must reach their files.
        self.dir.chmod(0o755)
        (self.dir / "midway.conf").write_text(self.render())
        (self.dir / "nginx.conf").write_text(Template(MAIN).substitute(dir=self.dir))
        conf = str(self.dir / "nginx.conf")
        check = subprocess.run(
            [self.binary, "-t", "-p", str(self.dir), "-e", str(self.dir / "error.log"), "-c", conf],
            capture_output=True,
            text=True,
        )
        assert check.returncode == 0, check.stderr
        self.proc = subprocess.Popen(
            [self.binary, "-p", str(self.dir), "-e", str(self.dir / "error.log"), "-c", conf],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 20
        with httpx.Client(timeout=2) as http:  # one client, one SSL context (tests/live.py)
            while time.monotonic() < deadline:
                assert self.proc.poll() is None, self.logs()
                with contextlib.suppress(httpx.HTTPError):
                    if http.get(self.url + "/healthz").status_code == 200:
                        return self
                time.sleep(0.1)
        raise RuntimeError(f"nginx not answering:\n{self.logs()}")

    def logs(self) -> str:
        return "".join(
            (self.dir / name).read_text(errors="replace")
            for name in ("error.log", "access.log")
            if (self.dir / name).exists()
        )

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None

    def remove(self) -> None:
        shutil.rmtree(self.dir, ignore_errors=True)
