"""The command line's own error, below every command module (so a command
module and the parser that registers it never import each other)."""

from __future__ import annotations

from ..game import ZerosumError


class UsageError(ZerosumError):
    """A command-line mistake (bad option or value)."""
