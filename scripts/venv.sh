#!/usr/bin/env bash
# make_venv DIR: create the virtual environment DIR with pip in it, unless it
# is already there. A virtual environment of its own, because Debian's and
# Ubuntu's own python3 refuse `pip install` outside one (PEP 668,
# "externally-managed-environment"). Where `python3 -m venv` fails for want of
# Debian's python3-venv package (ensurepip missing), that package is installed
# with apt-get (as root, or through sudo) and the venv made again.
# Sourced by scripts/setup.sh and scripts/test.sh.

make_venv() {
  local dir=$1 python=${PYTHON:-python3}
  if [ -x "$dir/bin/python" ] && "$dir/bin/python" -m pip --version >/dev/null 2>&1; then
    return 0
  fi
  if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    echo "zerosum needs Python 3.11 or newer; '$python' is $("$python" --version 2>&1 || echo missing)" >&2
    return 2
  fi
  rm -rf "$dir"
  if ! "$python" -m venv "$dir" >/dev/null 2>&1; then
    rm -rf "$dir"
    local sudo=""
    [ "$(id -u)" = 0 ] || sudo="sudo"
    echo "scripts: python3 -m venv needs Debian's python3-venv; installing it with apt-get" >&2
    { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq python3-venv >/dev/null; } \
      || { echo "scripts: could not install python3-venv; install it, then run this again" >&2; return 2; }
    "$python" -m venv "$dir"
  fi
}
