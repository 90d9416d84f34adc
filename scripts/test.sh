#!/usr/bin/env bash
# The project's test command (README quick start, and what .ci/run calls).
# Idempotent: installs what the tests need on a fresh Debian machine, then runs every check.
set -euo pipefail
cd "$(dirname "$0")/.."

# Real Chromium for the browser tests (Debian's package; browser downloads don't work here).
if ! command -v chromium >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ]; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq chromium >/dev/null
  else
    sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  fi
fi

# A throwaway PostgreSQL cluster: the web tests run on SQLite and on PostgreSQL (issue 10). An
# existing cluster may be named instead with GINRUMMY_TEST_POSTGRES_URL (postgresql+psycopg://).
if [ -z "${GINRUMMY_TEST_POSTGRES_URL:-}" ]; then
  # shellcheck source=scripts/test_postgres.sh
  source scripts/test_postgres.sh
  start_test_postgres
  trap stop_test_postgres EXIT
fi
export GINRUMMY_TEST_REQUIRE_POSTGRES=1  # the PostgreSQL tests fail rather than skip

PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
# distributed and rllib: the Ray tournament and RLlib training tests. torch==2.13.0 is the CPU
# build this kind of machine keeps on disk (183 MB wheel, ~750 MB installed); an unpinned torch
# resolves to a CUDA build with 2.8 GB of wheels (docs/research.md, measured 2026-12-02).
.venv/bin/python -m pip install -q --disable-pip-version-check \
  -e '.[test,reference,postgres,distributed,rllib]' 'torch==2.13.0'

echo "== ruff"
.venv/bin/ruff check src tests benchmarks
echo "== mypy (strict for the engine)"
.venv/bin/mypy
if command -v node >/dev/null 2>&1 && [ -d tests/js ]; then
  echo "== node --test (front-end helpers)"
  node --test tests/js/
fi
echo "== pytest"
.venv/bin/python -m pytest -q -p no:cacheprovider "$@"
