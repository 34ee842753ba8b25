"""Where the store of proven results lives by default.

>>> import os
>>> os.environ["ZEROSUM_STORE"] = "/tmp/mine.sqlite"
>>> str(default_store_path())
'/tmp/mine.sqlite'
>>> del os.environ["ZEROSUM_STORE"]
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

#: The environment variable that names the store file.
ENV_VAR = "ZEROSUM_STORE"
#: The store's file name inside the user data directory.
FILE_NAME = "store.sqlite"
#: Set (to anything but ``""`` or ``0``): the front ends use no store, or no
#: opening book, unless told otherwise (``--store PATH``); for test suites
#: and scripts that must not depend on what was kept before.
NO_STORE_VAR = "ZEROSUM_NO_STORE"
NO_BOOK_VAR = "ZEROSUM_NO_BOOK"


def _set(name: str) -> bool:
    return os.environ.get(name, "") not in ("", "0")


def store_off_by_default() -> bool:
    """True when ``$ZEROSUM_NO_STORE`` turns the default store off."""
    return _set(NO_STORE_VAR)


def books_off_by_default() -> bool:
    """True when ``$ZEROSUM_NO_BOOK`` turns opening books off."""
    return _set(NO_BOOK_VAR)


def user_data_dir() -> Path:
    """The per-user data directory of zerosum: ``platformdirs``' answer when
    it is installed (the ``store`` extra), else the XDG rule
    (``$XDG_DATA_HOME/zerosum``, or ``~/.local/share/zerosum``; on Windows
    ``%LOCALAPPDATA%\\zerosum``, on macOS ``~/Library/Application Support``)."""
    try:
        import platformdirs  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        pass
    else:
        return Path(platformdirs.user_data_dir("zerosum", appauthor=False))
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or str(Path.home() / "AppData" / "Local")
        return Path(base) / "zerosum"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / "zerosum"
    base = os.environ.get("XDG_DATA_HOME", "")
    # The XDG rule: a relative or empty value is ignored.
    root = Path(base) if base and Path(base).is_absolute() else Path.home() / ".local" / "share"
    return root / "zerosum"


def default_store_path() -> Path:
    """The store file used when none is given: ``$ZEROSUM_STORE`` when set
    (and not empty), else ``store.sqlite`` in :func:`user_data_dir`."""
    given = os.environ.get(ENV_VAR, "")
    if given:
        return Path(given).expanduser()
    return user_data_dir() / FILE_NAME
