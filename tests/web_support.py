"""Helpers shared by the web tests (not tests themselves): a session driven
directly, waiting on what it sent, and the next settled state of a socket."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

from zerosum.web.session import Session

Message = dict[str, Any]


def settled_state(ws: Any) -> Message:
    """The next state with no search running (skipping the rest)."""
    while True:
        message: Message = ws.receive_json()
        if message["type"] == "state" and message["searching"] is None:
            return message


async def open_session(lang: str = "en", **new: Any) -> tuple[Session, list[Message]]:
    """A session (and the list of what it sends) after a ``new`` message,
    which must have been accepted (a refused one would make a test prove
    nothing)."""
    sent: list[Message] = []
    session = Session(sent.append, lang)
    await session.start()
    await session.handle(json.dumps({"type": "new", **new}))
    assert not [m for m in sent if m["type"] == "error"], sent[-1]
    return session, sent


async def wait_for(sent: list[Message], test: Any, timeout: float = 30.0) -> Message:
    """The first message sent that passes ``test``, waiting for it."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for message in sent:
            if test(message):
                return message
        await asyncio.sleep(0.01)
    raise AssertionError("timed out; got " + json.dumps(sent[-3:])[:600])
