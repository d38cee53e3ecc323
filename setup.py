"""Build step that puts the lessons into the package; everything else is in pyproject.toml.

The lesson notebooks live in the repository's ``notebooks/`` folder (where Binder, nbval and the
people editing them find them). A wheel must carry them too, so ``typhoon-edu lessons`` and
``typhoon-edu serve`` work from ``pip install typhoon-edu`` alone: ``build_py`` copies
``notebooks/dashboard.ipynb`` and ``notebooks/<lang>/NN_*.ipynb`` (en, zh-TW) into
``typhoon_edu/notebooks/`` of the build. An editable install (``pip install -e .``) copies
nothing: there ``typhoon_edu.lessonbook`` reads the checkout's ``notebooks/`` folder directly.
``MANIFEST.in`` puts the same files into the sdist, so a wheel built from the sdist has them.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
LESSON_LANGS = ("en", "zh-TW")


def shipped_notebooks(root: Path = HERE) -> list[Path]:
    """The notebooks a wheel carries, relative to ``root/notebooks``."""
    base = root / "notebooks"
    found = [Path("dashboard.ipynb")] if (base / "dashboard.ipynb").is_file() else []
    for lang in LESSON_LANGS:
        found += sorted(p.relative_to(base) for p in (base / lang).glob("[0-9][0-9]_*.ipynb"))
    return found


class BuildPyWithLessons(build_py):
    """``build_py`` that also copies the lesson notebooks into ``typhoon_edu/notebooks/``."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        notebooks = shipped_notebooks()
        lessons = [p for p in notebooks if p.parent.name in LESSON_LANGS]
        if len(lessons) < 2 * 6:
            raise SystemExit(f"setup.py: expected the 6 lessons in {', '.join(LESSON_LANGS)} under notebooks/, "
                             f"found {len(lessons)}: is this a complete checkout or sdist?")
        target = Path(self.build_lib) / "typhoon_edu" / "notebooks"
        for rel in notebooks:
            dest = target / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(HERE / "notebooks" / rel, dest)


setup(cmdclass={"build_py": BuildPyWithLessons})
