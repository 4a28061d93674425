# Midway Online: one `midway serve` process per container (docker-compose.yml runs two
# behind nginx). Every setting comes from the environment (README.md, "Run it with
# docker-compose"). The code runs from /srv/midway: migrations/ and scenarios/ are read
# from beside app/.
FROM python:3.11-slim-bookworm

ENV PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    HOST=0.0.0.0 \
    PORT=8000

WORKDIR /srv/midway
COPY pyproject.toml README.md alembic.ini ./
COPY app ./app
COPY migrations ./migrations
COPY scenarios ./scenarios
RUN pip install -e . \
    && useradd --system --uid 10001 --home-dir /srv/midway midway \
    && mkdir -p data && chown midway data

USER midway
EXPOSE 8000
# Ready: the database and the broker answer (GET /readyz); see also /healthz.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
    CMD python -c "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/readyz' % os.environ.get('PORT', '8000'), timeout=2)"
# SIGTERM: stop taking connections, close every websocket with 1012 (service restart) so
# that its client reconnects to another process, finish requests in flight
# (MIDWAY_SHUTDOWN_SECONDS), exit.
STOPSIGNAL SIGTERM
CMD ["midway", "serve"]
