"""``python -m typhoon_edu …`` is ``typhoon-edu …`` (for a Python whose scripts folder is not on the PATH)."""

from __future__ import annotations

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
