"""The deployment tests use the API tests' live servers and databases."""

from server.conftest import (  # noqa: F401  (fixtures)
    database_url,
    fresh_pg_database,
    make_server,
    pg_database,
    redis_url,
    sqlite_database,
)
