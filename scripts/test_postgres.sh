# A throwaway PostgreSQL cluster for the tests: sourced by scripts/test.sh (or by hand:
#   source scripts/test_postgres.sh && start_test_postgres && ... && stop_test_postgres).
#
# start_test_postgres: installs Debian's `postgresql` if it is missing (apt-get as root, sudo
# otherwise), creates a cluster in a new temporary directory (initdb; as the `postgres` user
# when run as root, since PostgreSQL refuses to run as root), starts it on a free loopback port
# (its socket in the same directory: no system service is used or needed), creates the
# database `ginrummy_test` and exports GINRUMMY_TEST_POSTGRES_URL
# (postgresql+psycopg://postgres@127.0.0.1:PORT/ginrummy_test). The tests create a database of
# their own beside it for each test (tests/web/conftest.py).
# stop_test_postgres: stops the cluster and removes its directory.
#
# The cluster is for tests only: trust authentication on loopback, fsync off.

_pg_bindir() {
  local d
  if command -v pg_config >/dev/null 2>&1 && [ -x "$(pg_config --bindir)/initdb" ]; then
    pg_config --bindir
    return
  fi
  for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
    if [ -x "$d/initdb" ]; then
      echo "$d"
      return
    fi
  done
}

_pg_as() {  # run a command as the cluster's owner
  if [ "$(id -u)" = 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

start_test_postgres() {
  local bin port
  bin=$(_pg_bindir)
  if [ -z "$bin" ]; then
    echo "== installing Debian's postgresql (for the PostgreSQL tests)"
    if [ "$(id -u)" = 0 ]; then
      DEBIAN_FRONTEND=noninteractive apt-get update -qq
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
    else
      sudo apt-get update -qq
      sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
    fi
    bin=$(_pg_bindir)
  fi
  if [ -z "$bin" ]; then
    echo "PostgreSQL's initdb not found after installing postgresql" >&2
    return 1
  fi
  TEST_PG_DIR=$(mktemp -d "${TMPDIR:-/tmp}/ginrummy-pg.XXXXXX")
  if [ "$(id -u)" = 0 ]; then
    chown postgres: "$TEST_PG_DIR"
  fi
  chmod 700 "$TEST_PG_DIR"
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  _pg_as "$bin/initdb" -D "$TEST_PG_DIR/data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 \
    >"$TEST_PG_DIR/initdb.log" 2>&1 || { cat "$TEST_PG_DIR/initdb.log" >&2; return 1; }
  _pg_as "$bin/pg_ctl" -D "$TEST_PG_DIR/data" -l "$TEST_PG_DIR/server.log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -p $port -c unix_socket_directories=$TEST_PG_DIR \
        -c max_connections=300 -c fsync=off -c full_page_writes=off" start >/dev/null \
    || { cat "$TEST_PG_DIR/server.log" >&2; return 1; }
  TEST_PG_BIN=$bin
  "$bin/psql" -q -h 127.0.0.1 -p "$port" -U postgres -d postgres \
    -c "CREATE DATABASE ginrummy_test" >/dev/null
  export GINRUMMY_TEST_POSTGRES_URL="postgresql+psycopg://postgres@127.0.0.1:$port/ginrummy_test"
  echo "== PostgreSQL $("$bin/postgres" --version | awk '{print $3}') for the tests at 127.0.0.1:$port"
}

stop_test_postgres() {
  if [ -n "${TEST_PG_DIR:-}" ] && [ -d "$TEST_PG_DIR/data" ]; then
    _pg_as "$TEST_PG_BIN/pg_ctl" -D "$TEST_PG_DIR/data" -m immediate -w stop >/dev/null 2>&1 || true
  fi
  if [ -n "${TEST_PG_DIR:-}" ]; then
    rm -rf "$TEST_PG_DIR"
  fi
  TEST_PG_DIR=
}
