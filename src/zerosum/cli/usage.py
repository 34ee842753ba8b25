"""The command line's own error, below every command module (so a command
module and the parser that registers it never import each other)."""

from __future__ import annotations

from ..game import ZerosumError
from ..i18n import _

#: The exit status of a command given bad input.
EXIT_USAGE = 2


class UsageError(ZerosumError):
    """A command-line mistake (bad option or value)."""


def one_line(message: str) -> str:
    """``message`` on one line: a line break or other control character that
    came in with the user's input is shown escaped.

    >>> one_line("no module named '0\\n'")
    "no module named '0\\\\n'"
    """
    if message.isprintable():
        return message
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in message)


def error_line(message: str) -> str:
    """The line a command prints on stderr for bad input:
    ``zerosum: error: ...`` (translated), on one line."""
    return _("zerosum: error: {message}").format(message=one_line(message))
