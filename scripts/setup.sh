#!/usr/bin/env bash
# Install zerosum for a user: a virtual environment in ./.venv with the
# package and the extras a player wants by default (the browser app, the
# compiled search, the store's data directory). Then `.venv/bin/zerosum ...`,
# or `. .venv/bin/activate` and `zerosum ...`. Used by the README's first line.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/venv.sh
make_venv .venv
.venv/bin/python -m pip install --quiet --disable-pip-version-check ".[web,fast]"
echo "scripts/setup.sh: installed zerosum in $(pwd)/.venv (run .venv/bin/zerosum, or . .venv/bin/activate first)" >&2
