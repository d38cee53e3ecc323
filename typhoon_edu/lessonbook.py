"""The lessons a person opens on their own computer: where the package keeps them, and their own copy.

The lesson notebooks ship inside the package (``typhoon_edu/notebooks/<lang>/NN_*.ipynb``, put
there by the build; in a source checkout the repository's ``notebooks/<lang>/`` is read instead).
``typhoon-edu lessons`` never opens those originals: :func:`prepare_copy` copies one language's
lessons into a folder of the person's (by default ``~/Documents/typhoon-edu-lessons/<lang>``), with
an index notebook (``00_index.ipynb``), so a student's edits never touch the package. Run again:

* the copy is kept as it is (edits included); a lesson deleted from it is copied back;
* when the installed package holds *different* lessons (a newer version), they are copied
  *beside* the copy, into ``<lang>-<version>``, and the person is told; nothing is overwritten.

What was copied is recorded in ``.typhoon-edu-lessons.json`` inside the copy (the version and a
SHA-256 of every original), which is how a newer version is recognised.

The copies (and the index) store this computer's Python in ``metadata.language_info``
(:func:`kernel_language_info`), the value JupyterLab writes there when the notebook's kernel starts: a
lesson that stores another Python's (the one the lessons were run with, 3.11.7) would open already marked
as modified. Only that field differs from the original; the record keeps the originals' SHA-256, and a
copy that differs from its original only there counts as unchanged (:func:`same_lesson`).

>>> [p.name for p in shipped_lessons("en")][:2]
['01_compass_rolls.ipynb', '02_grid_pathing.ipynb']
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import sys
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

from .fileio import os_reason
from .i18n import normalize_lang, t

__all__ = [
    "INDEX_NAME",
    "LESSON_LANGS",
    "MANIFEST_NAME",
    "RUN_HINT_ID",
    "LessonCopy",
    "LessonsError",
    "default_folder",
    "index_notebook",
    "kernel_language_info",
    "lesson_title",
    "package_version",
    "prepare_copy",
    "run_hint_cell",
    "same_lesson",
    "shipped_lessons",
    "shipped_lessons_dir",
]

#: Languages the lessons exist in.
LESSON_LANGS: tuple[str, ...] = ("en", "zh-TW")
#: The index notebook written into every copy.
INDEX_NAME = "00_index.ipynb"
#: What was copied, and from which version, inside a copy.
MANIFEST_NAME = ".typhoon-edu-lessons.json"
#: The cell id of every lesson's first cell, the one that says how to run it.
RUN_HINT_ID = "how-to-run"

_PACKAGE_DIR = Path(__file__).resolve().parent
_LESSON_GLOB = "[0-9][0-9]_*.ipynb"


class LessonsError(ValueError):
    """A lessons problem told in the person's language: a catalog key (``lessonbook.err.*``) and its fields.

    >>> LessonsError("lang", value="fr").text("en")
    "--lang: there are no lessons in 'fr'; the lessons are in en and zh-TW"
    """

    def __init__(self, key: str, **fields: object) -> None:
        self.key = key
        self.fields = fields
        super().__init__(self.text("en"))

    def text(self, lang: str) -> str:
        """The message in ``lang``; a system's refusal among the fields is said in ``lang`` too.

        >>> LessonsError("copy", path="/x", reason=PermissionError(13, "Permission denied")).text("zh-TW")
        '無法把課程複製到 /x（這個使用者沒有權限讀寫它）；請用 --dir 指定別的資料夾'
        """
        fields = {k: os_reason(v, lang) if isinstance(v, OSError) else v for k, v in self.fields.items()}
        return t(f"lessonbook.err.{self.key}", lang, **fields)


def check_lang(lang: str) -> str:
    """The canonical code of a lesson language, or :class:`LessonsError` naming the ones there are.

    >>> check_lang("zh_tw")
    'zh-TW'
    """
    try:
        code = normalize_lang(lang)
    except ValueError:
        raise LessonsError("lang", value=lang) from None
    if code not in LESSON_LANGS:  # pragma: no cover - every language the catalogs know has lessons
        raise LessonsError("lang", value=lang)
    return code


def shipped_lessons_dir(lang: str, package_dir: Path = _PACKAGE_DIR) -> Path:
    """The folder holding the original lessons of ``lang``: the package's, else the checkout's.

    An installed wheel has ``typhoon_edu/notebooks/<lang>``; an editable install or a checkout
    on ``PYTHONPATH`` has the repository's ``notebooks/<lang>`` next to the package.

    >>> shipped_lessons_dir("zh-TW").name
    'zh-TW'
    """
    code = check_lang(lang)
    for base in (package_dir / "notebooks", package_dir.parent / "notebooks"):
        if any((base / code).glob(_LESSON_GLOB)):
            return base / code
    raise LessonsError("missing", path=package_dir / "notebooks" / code)


def shipped_lessons(lang: str, package_dir: Path = _PACKAGE_DIR) -> list[Path]:
    """The original lesson notebooks of ``lang``, in lesson order."""
    return sorted(shipped_lessons_dir(lang, package_dir).glob(_LESSON_GLOB))


def package_version() -> str:
    """The installed typhoon-edu's version (``0+unknown`` when the package is not installed)."""
    try:
        return metadata.version("typhoon-edu")
    except metadata.PackageNotFoundError:
        return "0+unknown"


def default_folder() -> Path:
    """Where the lessons are copied unless ``--dir`` says otherwise: ``typhoon-edu-lessons`` in the Documents folder.

    >>> default_folder().name
    'typhoon-edu-lessons'
    """
    from platformdirs import user_documents_dir

    return Path(user_documents_dir()) / "typhoon-edu-lessons"


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def lesson_title(path: Path) -> str:
    """The lesson's title: the text of its one level-1 heading (the file name if it has none)."""
    try:
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    except (OSError, ValueError, KeyError):
        return path.stem
    for cell in cells:
        if cell.get("cell_type") != "markdown":
            continue
        for line in "".join(cell.get("source", "")).split("\n"):
            if line.startswith("# "):
                return line[2:].strip()
    return path.stem


def _markdown_cell(cell_id: str, text: str) -> dict[str, object]:
    lines = text.split("\n")
    return {"cell_type": "markdown", "id": cell_id, "metadata": {},
            "source": [line + "\n" for line in lines[:-1]] + [lines[-1]]}


def run_hint_cell(lang: str) -> dict[str, object]:
    """Every lesson's first cell: how to run it (Run ▸ Run All Cells), in the lesson's language.

    ``scripts/run_hint.py`` writes it into the notebooks from the catalogs (``lessonbook.run_hint``).

    >>> "Run All Cells" in "".join(run_hint_cell("zh-TW")["source"])
    True
    """
    cell = _markdown_cell(RUN_HINT_ID, t("lessonbook.run_hint", check_lang(lang)))
    cell["metadata"] = {"tags": [RUN_HINT_ID]}
    return cell


def kernel_language_info() -> dict[str, object]:
    """The ``language_info`` the lessons' kernel reports for this Python, as JupyterLab writes it into a notebook.

    The same fields and values as ipykernel's ``kernel_info`` reply (``IPythonKernel.language_info``); the
    kernel is this Python's, the one ``typhoon-edu lessons`` starts JupyterLab with.

    >>> info = kernel_language_info()
    >>> info["name"], info["version"] == sys.version.split()[0], info["codemirror_mode"]
    ('python', True, {'name': 'ipython', 'version': 3})
    """
    return {
        "codemirror_mode": {"name": "ipython", "version": sys.version_info[0]},
        "file_extension": ".py",
        "mimetype": "text/x-python",
        "name": "python",
        "nbconvert_exporter": "python",
        "pygments_lexer": f"ipython{sys.version_info[0]}",
        "version": sys.version.split()[0],
    }


def _notebook_text(nb: dict[str, object]) -> str:
    """A notebook as nbformat writes it (the shipped lessons are in this form)."""
    return json.dumps(nb, ensure_ascii=False, indent=1, sort_keys=True) + "\n"


def _load_notebook(path: Path) -> dict[str, Any] | None:
    try:
        nb = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None
    return nb if isinstance(nb, dict) and isinstance(nb.get("metadata"), dict) else None


def _without_language_info(nb: dict[str, Any]) -> dict[str, Any]:
    return {**nb, "metadata": {k: v for k, v in nb["metadata"].items() if k != "language_info"}}


def same_lesson(copy: Path, original: Path) -> bool:
    """Whether ``copy`` is ``original`` unchanged but for ``metadata.language_info`` (which :func:`prepare_copy`
    sets to this computer's Python, and JupyterLab to the kernel's).

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     copy = prepare_copy("en", Path(tmp))
    ...     lesson = copy.folder / "04_full_game.ipynb"
    ...     unchanged = same_lesson(lesson, shipped_lessons_dir("en") / lesson.name)
    ...     _ = lesson.write_text(lesson.read_text(encoding="utf-8").replace("Run All Cells", "Run it all"), encoding="utf-8")
    ...     (unchanged, same_lesson(lesson, shipped_lessons_dir("en") / lesson.name))
    (True, False)
    """
    if copy.read_bytes() == original.read_bytes():
        return True
    mine, theirs = _load_notebook(copy), _load_notebook(original)
    return mine is not None and theirs is not None and _without_language_info(mine) == _without_language_info(theirs)


def _copy_lesson(src: Path, dest: Path) -> None:
    """Copy the lesson ``src`` to ``dest`` with this computer's ``language_info`` (only that changed)."""
    nb = _load_notebook(src)
    info = kernel_language_info()
    if nb is None or nb["metadata"].get("language_info") == info:
        shutil.copyfile(src, dest)
        return
    nb["metadata"]["language_info"] = info
    dest.write_text(_notebook_text(nb), encoding="utf-8")


def index_notebook(lang: str, lessons: list[Path]) -> dict[str, object]:
    """The index notebook of a copy: how to use the lessons and a link to each (only Markdown cells).

    Its ``kernelspec`` and ``language_info`` are the ones JupyterLab writes when its kernel starts (this Python's,
    :func:`kernel_language_info`), so that it opens unmodified.

    >>> nb = index_notebook("en", shipped_lessons("en"))
    >>> "](01_compass_rolls.ipynb)" in "".join(nb["cells"][1]["source"])
    True
    >>> nb["metadata"]["language_info"] == kernel_language_info()
    True
    """
    code = check_lang(lang)
    links = "\n".join(f"{i}. [{lesson_title(p)}]({p.name})" for i, p in enumerate(lessons, 1))
    cells = [
        _markdown_cell("index-title", t("lessonbook.index.title", code) + "\n\n" + t("lessonbook.index.how", code)),
        _markdown_cell("index-lessons", t("lessonbook.index.list", code) + "\n\n" + links),
        _markdown_cell("index-more", t("lessonbook.index.more", code)),
    ]
    return {"cells": cells, "nbformat": 4, "nbformat_minor": 5,
            "metadata": {"kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"},
                         "language_info": kernel_language_info()}}


@dataclass
class LessonCopy:
    """What :func:`prepare_copy` did: the folder to open and what it copied."""

    folder: Path
    lang: str
    created: bool = False
    restored: list[str] = field(default_factory=list)
    newer: Path | None = None

    @property
    def index(self) -> Path:
        """The index notebook of the copy."""
        return self.folder / INDEX_NAME


def _read_manifest(folder: Path) -> dict[str, str]:
    try:
        data = json.loads((folder / MANIFEST_NAME).read_text(encoding="utf-8"))
        files = data["files"]
    except (OSError, ValueError, KeyError, TypeError):
        return {}
    return {str(k): str(v) for k, v in files.items()} if isinstance(files, dict) else {}


def _write_manifest(folder: Path, lang: str, originals: dict[str, str]) -> None:
    data = {"lang": lang, "version": package_version(), "files": originals}
    (folder / MANIFEST_NAME).write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")


def _write_index(folder: Path, lang: str, lessons: list[Path]) -> None:
    (folder / INDEX_NAME).write_text(_notebook_text(index_notebook(lang, lessons)), encoding="utf-8")


def _fresh_copy(folder: Path, lang: str, lessons: list[Path], originals: dict[str, str]) -> None:
    folder.mkdir(parents=True, exist_ok=False)
    for src in lessons:
        _copy_lesson(src, folder / src.name)
    _write_index(folder, lang, [folder / p.name for p in lessons])
    _write_manifest(folder, lang, originals)


def _version_folder(base: Path, lang: str, originals: dict[str, str]) -> tuple[Path, bool]:
    """The folder for the installed version beside a kept copy, and whether it must still be made."""
    name = re.sub(r"[^0-9A-Za-z.+-]", "_", f"{lang}-{package_version()}")
    candidate = base / name
    if candidate.exists() and _read_manifest(candidate) != originals:
        # The same version number with other lessons (a development build): name it by content too.
        candidate = base / f"{name}-{hashlib.sha256(json.dumps(originals, sort_keys=True).encode()).hexdigest()[:8]}"
    return candidate, not candidate.exists()


def prepare_copy(lang: str, base: Path | None = None, *, package_dir: Path = _PACKAGE_DIR) -> LessonCopy:
    """Make or check the person's copy of ``lang``'s lessons in ``base/<lang>`` (see the module's docstring).

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     first = prepare_copy("en", Path(tmp))
    ...     again = prepare_copy("en", Path(tmp))
    ...     (first.created, again.created, again.newer, first.index.is_file())
    (True, False, None, True)
    """
    code = check_lang(lang)
    base = Path(base) if base is not None else default_folder()
    lessons = shipped_lessons(code, package_dir)
    originals = {p.name: _digest(p) for p in lessons}
    folder = base / code
    if folder.exists() and not folder.is_dir():
        raise LessonsError("not_folder", path=folder)
    try:
        if not folder.exists():
            _fresh_copy(folder, code, lessons, originals)
            return LessonCopy(folder, code, created=True)
        copy = LessonCopy(folder, code)
        recorded = _read_manifest(folder)
        for src in lessons:
            if not (folder / src.name).exists():
                _copy_lesson(src, folder / src.name)
                copy.restored.append(src.name)
        if not copy.index.exists():
            _write_index(folder, code, [folder / p.name for p in lessons])
        if not recorded:
            # A copy without its record (made by hand, or the record deleted): what it holds now is
            # what it was copied from, unless a file differs from the installed lesson (its language_info aside:
            # the copy has this computer's Python there).
            recorded = {p.name: originals[p.name] if same_lesson(folder / p.name, p) else _digest(folder / p.name)
                        for p in lessons}
            _write_manifest(folder, code, recorded)
        if recorded != originals:
            newer, missing = _version_folder(base, code, originals)
            if missing:
                _fresh_copy(newer, code, lessons, originals)
            copy.newer = newer
        return copy
    except OSError as err:
        raise LessonsError("copy", path=folder, reason=err) from None
