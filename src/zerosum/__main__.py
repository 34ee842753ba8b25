"""``python -m zerosum``: the command line."""

from .cli import main

raise SystemExit(main())
