#!/usr/bin/env bash
# Install what the tests need and run them all: pytest (unit, CLI, doctests,
# README examples), mypy --strict and ruff. Used by the README and by .ci/run.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m pip install --quiet --disable-pip-version-check -e ".[test]"
python3 -m pytest -q
python3 -m mypy
python3 -m ruff check .
