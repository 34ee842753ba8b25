"""The error types everything else uses (the bottom layer, with
:mod:`zerosum.i18n`): a user's bad input is a :class:`ZerosumError` of one
line. :mod:`zerosum.game` re-exports them, where users import them from."""

from __future__ import annotations

__all__ = ["MoveError", "PositionError", "ZerosumError"]


class ZerosumError(ValueError):
    """Any bad input from a user: the message is one line saying what is wrong
    and what is expected. Front ends show it as it is (the CLI exits with 2)."""


class MoveError(ZerosumError):
    """A move that cannot be parsed or is not legal in the position."""


class PositionError(ZerosumError):
    """A position text that cannot be parsed."""
