"""Reading the command line's standard input: numbered lines, a bad byte
costing one line (``--batch`` inputs, book positions)."""

from __future__ import annotations

import sys
from collections.abc import Iterator

from ..i18n import _


def input_lines() -> Iterator[tuple[int, str | None]]:
    """Standard input's lines, numbered from 1, without their line ends;
    None for a line that is not valid in the input's encoding (so that a
    bad byte costs one line, not the run)."""
    raw = getattr(sys.stdin, "buffer", None)
    if raw is None:  # a replaced sys.stdin (tests): already text
        for number, line in enumerate(sys.stdin, 1):
            yield number, line.rstrip("\r\n")
        return
    encoding = sys.stdin.encoding or "utf-8"
    for number, data in enumerate(raw, 1):
        try:
            yield number, data.decode(encoding).rstrip("\r\n")
        except UnicodeDecodeError:
            yield number, None


def undecodable_line() -> str:
    return _("the line is not valid text in the input's encoding ({encoding})").format(
        encoding=sys.stdin.encoding or "utf-8"
    )
