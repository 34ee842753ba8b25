#!/usr/bin/env bash
# Install what the tests need and run them all: pytest (unit, CLI, web,
# browser, doctests, README examples), mypy --strict and ruff. Used by the
# README and by .ci/run.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m pip install --quiet --disable-pip-version-check -e ".[test]"
# The browser tests drive Debian's Chromium (never a browser a test tool
# downloads): install the package when it is missing. Without it the browser
# tests are skipped, and fail under CI=true.
if ! command -v chromium >/dev/null 2>&1; then
  sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  echo "scripts/test.sh: installing Debian's chromium for the browser tests" >&2
  { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null; } \
    || echo "scripts/test.sh: could not install chromium; the browser tests will not run" >&2
fi
python3 -m pytest -q
python3 -m mypy
python3 -m ruff check .
