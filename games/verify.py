"""`python -m games.verify EXPORT.json [--head HASH] [--talk HASH]`: check a game's export with
no database.

The documented entry point (docs/management-commands.md) of `games.record.verify`, which holds the
checks; this module only keeps the command's name.
"""

from __future__ import annotations

import sys

from games.record.verify import (
    EXIT_FAILED,
    EXIT_NOT_FULLY_CHECKED,
    EXIT_OK,
    EXIT_UNREADABLE,
    FORMAT,
    ExportCheck,
    main,
    verify_export,
)

__all__ = [
    "EXIT_FAILED",
    "EXIT_NOT_FULLY_CHECKED",
    "EXIT_OK",
    "EXIT_UNREADABLE",
    "FORMAT",
    "ExportCheck",
    "main",
    "verify_export",
]

if __name__ == "__main__":
    sys.exit(main())
