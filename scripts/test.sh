#!/usr/bin/env bash
# Install what the tests need and run them all: pytest (unit, CLI, web,
# browser, doctests, README examples), mypy --strict and ruff. Used by the
# README and by .ci/run.
#
# The tests get a virtual environment of their own (./.venv-test, the package
# installed editable with its test tools), so a run never touches the .venv a
# player's `zerosum` is running from. Every step runs even when an earlier one
# fails; each step's verdict and time are printed at the end, and the exit
# status is non-zero when any step failed.
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/venv.sh
. scripts/steps.sh
make_venv .venv-test || exit 2
py=.venv-test/bin/python
if ! $py -m pip install --quiet --disable-pip-version-check -e ".[test]"; then
  echo "scripts/test.sh: installing the package and its test tools failed" >&2
  exit 2
fi
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

# Compile every game's native search once, as an install would, so no test
# pays a first compile inside a server or engine it waits on (scripts/warm_native.py).
$py scripts/warm_native.py || echo "scripts/test.sh: compiling the native search failed" >&2
step pytest $py -m pytest -q
step mypy $py -m mypy
step ruff $py -m ruff check .
report "scripts/test.sh"
