#!/usr/bin/env python3
"""Write every lesson's first cell: how to run it (Run ▸ Run All Cells), in the lesson's language.

Opened without having run, a lesson shows its maps and widgets as a line of text; this cell, first in
every ``notebooks/<lang>/NN_*.ipynb``, tells the reader what to do. Its text is the catalog's
``lessonbook.run_hint`` (``typhoon_edu/data/i18n/<lang>.lessonbook.toml``) and its cell id is
``how-to-run``; the script replaces that one cell and touches nothing else (the notebooks keep the
format nbformat writes, so the change is one inserted block).

``python scripts/run_hint.py`` rewrites the notebooks; ``--check`` only lists those out of date (exit 1).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from typhoon_edu.lessonbook import LESSON_LANGS, RUN_HINT_ID, run_hint_cell  # noqa: E402


def lesson_notebooks(root: Path = ROOT) -> list[Path]:
    return sorted(p for lang in LESSON_LANGS for p in (root / "notebooks" / lang).glob("[0-9][0-9]_*.ipynb"))


def with_hint(text: str, lang: str) -> str:
    """The notebook ``text`` with its ``how-to-run`` cell first (and only there)."""
    nb = json.loads(text)
    nb["cells"] = [run_hint_cell(lang)] + [c for c in nb["cells"] if c.get("id") != RUN_HINT_ID]
    return json.dumps(nb, ensure_ascii=False, indent=1, sort_keys=True) + "\n"  # as nbformat writes it


def main(argv: list[str]) -> int:
    stale = []
    for path in lesson_notebooks():
        old = path.read_text(encoding="utf-8")
        new = with_hint(old, path.parent.name)
        if json.loads(new) != json.loads(old):
            stale.append(path)
            if "--check" not in argv:
                path.write_text(new, encoding="utf-8")
        label = "out of date" if "--check" in argv else "wrote"
        if path in stale:
            sys.stdout.write(f"{label}: {path.relative_to(ROOT)}\n")
    return 1 if stale and "--check" in argv else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
