"""The browser front end: ``zerosum serve`` (needs the ``web`` extra)."""
