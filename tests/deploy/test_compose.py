"""docker-compose.yml and the Dockerfile (issue 16), checked by Debian's `docker-compose
config` (no Docker daemon needed): PostgreSQL, Redis, two `midway serve` processes, nginx
as the one entry point, health checks, a named volume for the database, every setting
from the environment and documented in the README. tests/deploy/test_topology.py runs
the same topology without containers."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from typing import Any

import pytest
import yaml
from live import ROOT
from server.conftest import unavailable

from app.settings import Settings

APP_SETTING_ENV = {  # Settings fields read from variables without the MIDWAY_ prefix
    "database_url": "DATABASE_URL",
    "host": "HOST",
    "port": "PORT",
}
NOT_FOR_DEPLOYMENT = {"bench", "rules_module", "test_clock"}  # bench and test seams


def env_name(field: str) -> str:
    return APP_SETTING_ENV.get(field, f"MIDWAY_{field.upper()}")


def compose_config(**env: str) -> dict[str, Any]:
    binary = shutil.which("docker-compose")
    if binary is None:
        unavailable("docker-compose is not installed (tools/test-setup.sh installs Debian's)")
    assert binary is not None
    clean = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("MIDWAY_", "POSTGRES_")) and k not in APP_SETTING_ENV.values()
    }
    done = subprocess.run(
        [binary, "-f", str(ROOT / "docker-compose.yml"), "config"],
        capture_output=True,
        text=True,
        env={**clean, **env},
        cwd=ROOT,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    config: dict[str, Any] = yaml.safe_load(done.stdout)
    return config


def test_compose_file_runs_postgres_redis_two_servers_and_nginx_in_front() -> None:
    """The services, their health checks and dependencies, the one published port."""
    config = compose_config()
    services = config["services"]
    apps = [name for name, s in services.items() if s.get("command") == ["midway", "serve"]]
    assert len(apps) >= 2, services.keys()
    assert {"postgres", "redis", "nginx"} <= services.keys()
    for name, service in services.items():
        assert service.get("healthcheck", {}).get("test"), f"{name} has no health check"
    published = [name for name, s in services.items() if s.get("ports")]
    assert published == ["nginx"], "nginx is the one entry point"
    assert services["nginx"]["ports"] in (["8080:80"], [{"published": 8080, "target": 80}])
    for app in apps:
        service = services[app]
        assert service["build"]["context"] == str(ROOT)
        assert "/readyz" in " ".join(service["healthcheck"]["test"])
        assert service["depends_on"]["postgres"]["condition"] == "service_healthy"
        assert service["depends_on"]["redis"]["condition"] == "service_healthy"
        env = service["environment"]
        assert (
            env["DATABASE_URL"].startswith("postgresql://")
            and "@postgres:5432/" in env["DATABASE_URL"]
        )
        assert env["MIDWAY_BROKER"] == "redis" and env["MIDWAY_REDIS_URL"].startswith(
            "redis://redis:"
        )
        assert env["HOST"] == "0.0.0.0"
    nginx = services["nginx"]
    assert {nginx["depends_on"][app]["condition"] for app in apps} == {"service_healthy"}
    upstreams = {nginx["environment"]["MIDWAY_APP_1"], nginx["environment"]["MIDWAY_APP_2"]}
    assert upstreams == {f"{app}:8000" for app in apps[:2]}
    mounts = " ".join(str(v) for v in nginx["volumes"])
    assert "deploy/nginx/midway.conf.template" in mounts and "/etc/nginx/templates/" in mounts


def test_compose_database_lives_in_a_named_volume() -> None:
    config = compose_config()
    volumes = config["services"]["postgres"]["volumes"]
    named = [v for v in volumes if isinstance(v, dict) and v.get("type") == "volume"] or [
        v for v in volumes if isinstance(v, str) and not v.startswith((".", "/"))
    ]
    assert named, volumes
    source = named[0]["source"] if isinstance(named[0], dict) else named[0].split(":")[0]
    assert source in config["volumes"], config.get("volumes")
    target = named[0]["target"] if isinstance(named[0], dict) else named[0].split(":")[1]
    assert target == "/var/lib/postgresql/data"


def test_compose_every_setting_comes_from_the_environment() -> None:
    """Every server setting is passed to the app processes, and the environment changes
    what they get (the database password, the published port, a MIDWAY_ knob)."""
    defaults = compose_config()["services"]
    deployed = {env_name(f) for f in Settings.model_fields if f not in NOT_FOR_DEPLOYMENT}
    for name, service in defaults.items():
        if service.get("command") == ["midway", "serve"]:
            missing = deployed - set(service["environment"])
            assert not missing, f"{name} does not pass {sorted(missing)}"
    changed = compose_config(
        POSTGRES_PASSWORD="s3cret", MIDWAY_HTTP_PORT="9090", MIDWAY_SNAPSHOT_EVERY="7"
    )["services"]
    assert changed["postgres"]["environment"]["POSTGRES_PASSWORD"] == "s3cret"
    assert ":s3cret@postgres:" in changed["app1"]["environment"]["DATABASE_URL"]
    assert changed["app2"]["environment"]["MIDWAY_SNAPSHOT_EVERY"] == "7"
    assert "9090" in str(changed["nginx"]["ports"][0])


def test_readme_says_how_to_start_it_and_what_each_variable_does() -> None:
    readme = (ROOT / "README.md").read_text()
    assert "docker-compose up" in readme
    compose = (ROOT / "docker-compose.yml").read_text()
    variables = set(re.findall(r"\$\{([A-Z0-9_]+)", compose))
    variables |= {env_name(f) for f in Settings.model_fields}
    for variable in sorted(variables):
        assert re.search(rf"`{variable}`[^\n]*\|[^|\n]*\w", readme), f"{variable} not explained"


def test_dockerfile_serves_with_midway_serve_and_checks_readiness() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert re.search(r'^CMD \["midway", "serve"\]$', dockerfile, re.M)
    assert re.search(r"^HEALTHCHECK .*\n?.*/readyz", dockerfile, re.M)
    assert re.search(r"^USER (?!root)\w+", dockerfile, re.M), "not as root"
    for needed in ("app", "migrations", "scenarios", "alembic.ini"):
        assert re.search(rf"^COPY .*\b{needed}\b", dockerfile, re.M), needed


@pytest.mark.parametrize("header", ["Upgrade $http_upgrade", "Connection $midway_connection"])
def test_nginx_template_proxies_websockets(header: str) -> None:
    template = (ROOT / "deploy" / "nginx" / "midway.conf.template").read_text()
    assert "proxy_http_version 1.1;" in template
    assert f"proxy_set_header {header};" in template


def test_compose_servers_believe_only_nginx_for_the_client_address() -> None:
    """Issue 31, item 2: the servers take X-Forwarded-For from nginx's fixed address only
    (never `*`, where any client picked its own address and with it its own quotas)."""
    services = compose_config()["services"]
    nginx = services["nginx"]["networks"]["midway"]["ipv4_address"]
    for name, service in services.items():
        if service.get("command") == ["midway", "serve"]:
            allowed = service["environment"]["FORWARDED_ALLOW_IPS"]
            assert allowed == nginx, f"{name} believes X-Forwarded-For from {allowed!r}"
            assert "midway" in service["networks"]
    moved = compose_config(MIDWAY_NGINX_ADDRESS="10.9.0.5", MIDWAY_SUBNET="10.9.0.0/24")
    assert moved["services"]["app1"]["environment"]["FORWARDED_ALLOW_IPS"] == "10.9.0.5"
    assert moved["services"]["nginx"]["networks"]["midway"]["ipv4_address"] == "10.9.0.5"


def test_nginx_sets_rather_than_appends_x_forwarded_for() -> None:
    """Issue 31, item 2: nginx sends the address it was reached from, never the client's
    own X-Forwarded-For with it appended ($proxy_add_x_forwarded_for)."""
    template = (ROOT / "deploy" / "nginx" / "midway.conf.template").read_text()
    assert "proxy_set_header X-Forwarded-For $remote_addr;" in template
    assert "$proxy_add_x_forwarded_for" not in template
