"""The person's copy of the lessons opens unmodified in JupyterLab on their computer's Python.

JupyterLab writes the kernel's ``language_info`` into a notebook when its kernel starts and marks the tab as
modified when it differs from the file's: the index stored only ``{"name": "python"}`` and the lessons the Python
they were run with (3.11.7), so on another Python every lesson opened as modified. The copy now stores this
Python's; the record of what was copied, the "kept as it is" run and the newer-lessons check are unchanged by it.
"""

from __future__ import annotations

import functools
import io
import json
import sys
from pathlib import Path

import pytest

import typhoon_edu.lessons_cmd as lessons_cmd
from typhoon_edu import lessonbook
from typhoon_edu.lessonbook import kernel_language_info, prepare_copy, same_lesson, shipped_lessons

#: The language_info of a Python that is not this one (the lessons are shipped from another machine).
OTHER_PYTHON = {"codemirror_mode": {"name": "ipython", "version": 3}, "file_extension": ".py",
                "mimetype": "text/x-python", "name": "python", "nbconvert_exporter": "python",
                "pygments_lexer": "ipython3", "version": "3.9.1"}


def _metadata(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))["metadata"]


def _without_language_info(path: Path) -> dict:
    nb = json.loads(path.read_text(encoding="utf-8"))
    nb["metadata"].pop("language_info", None)
    return nb


def _package_from_another_python(tmp_path: Path) -> Path:
    """A package folder whose en lessons store another Python's language_info, written as nbformat writes them."""
    package = tmp_path / "pkg" / "typhoon_edu"
    (package / "notebooks" / "en").mkdir(parents=True)
    for p in shipped_lessons("en"):
        nb = json.loads(p.read_text(encoding="utf-8"))
        nb["metadata"]["language_info"] = OTHER_PYTHON
        (package / "notebooks" / "en" / p.name).write_text(
            json.dumps(nb, ensure_ascii=False, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return package


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def test_language_info_is_what_the_kernel_reports_in_its_kernel_info_reply():
    """Measured: a python3 kernel started as JupyterLab starts it, asked for its kernel_info."""
    from jupyter_client.manager import start_new_kernel

    manager, client = start_new_kernel(kernel_name="python3")
    try:
        reply = client.kernel_info(reply=True, timeout=60)
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)
    assert kernel_language_info() == reply["content"]["language_info"]


def test_the_index_stores_the_kernels_language_info(tmp_path):
    copy = prepare_copy("en", tmp_path)
    assert _metadata(copy.index)["language_info"] == kernel_language_info()
    assert _metadata(copy.index)["kernelspec"]["display_name"] == "Python 3 (ipykernel)"


def test_lessons_from_another_python_are_copied_with_this_pythons_language_info(tmp_path):
    package = _package_from_another_python(tmp_path)
    copy = prepare_copy("en", tmp_path / "lessons", package_dir=package)
    originals = sorted((package / "notebooks" / "en").glob("[0-9][0-9]_*.ipynb"))
    for src in originals:
        mine = copy.folder / src.name
        assert _metadata(mine)["language_info"] == kernel_language_info(), src.name
        assert _without_language_info(mine) == _without_language_info(src), src.name  # nothing else changed
        assert same_lesson(mine, src)
    # the record still holds the originals' SHA-256 (how a newer version is recognised), not the copies'
    recorded = json.loads((copy.folder / lessonbook.MANIFEST_NAME).read_text(encoding="utf-8"))["files"]
    assert recorded == {p.name: lessonbook._digest(p) for p in originals}


def test_a_lesson_deleted_from_the_copy_comes_back_with_this_pythons_language_info(tmp_path):
    package = _package_from_another_python(tmp_path)
    copy = prepare_copy("en", tmp_path / "lessons", package_dir=package)
    (copy.folder / "03_typhoon_intensity.ipynb").unlink()
    again = prepare_copy("en", tmp_path / "lessons", package_dir=package)
    assert again.restored == ["03_typhoon_intensity.ipynb"]
    assert _metadata(copy.folder / "03_typhoon_intensity.ipynb")["language_info"] == kernel_language_info()


def _run_command(folder: Path, monkeypatch) -> str:
    """`typhoon-edu lessons --lang en --dir folder` up to the moment JupyterLab would start; what it said."""

    class Started(Exception):
        pass

    def no_lab(**kwargs):
        raise Started

    monkeypatch.setattr(lessons_cmd, "JupyterLabProcess", no_lab)
    out = io.StringIO()
    with pytest.raises(Started):
        lessons_cmd.lessons("en", folder=folder, open_browser=False, out=out)
    return out.getvalue()


def test_run_again_with_the_same_package_the_copy_is_kept_as_it_is(tmp_path, monkeypatch):
    package = _package_from_another_python(tmp_path)
    monkeypatch.setattr(lessons_cmd, "prepare_copy", functools.partial(prepare_copy, package_dir=package))
    base = tmp_path / "lessons"
    assert "Copied the lessons into" in _run_command(base, monkeypatch)
    before = _snapshot(base / "en")
    said = _run_command(base, monkeypatch)
    assert "(kept as it is)" in said and "newer lessons" not in said, said
    assert _snapshot(base / "en") == before
    assert sorted(p.name for p in base.iterdir()) == ["en"]  # no newer-version folder beside it


def test_a_copy_without_its_record_is_recognised_as_the_installed_lessons(tmp_path):
    """The record deleted: a copy that differs from the originals only by this Python's language_info is theirs
    (no newer version beside it); a lesson the teacher edited still counts as changed."""
    package = _package_from_another_python(tmp_path)
    base = tmp_path / "lessons"
    copy = prepare_copy("en", base, package_dir=package)
    (copy.folder / lessonbook.MANIFEST_NAME).unlink()
    again = prepare_copy("en", base, package_dir=package)
    assert again.newer is None and sorted(p.name for p in base.iterdir()) == ["en"]

    (copy.folder / lessonbook.MANIFEST_NAME).unlink()
    mine = copy.folder / "02_grid_pathing.ipynb"
    mine.write_text(mine.read_text(encoding="utf-8").replace("Run All Cells", "Run All Cells (my note)"),
                    encoding="utf-8")
    assert not same_lesson(mine, package / "notebooks" / "en" / mine.name)
    third = prepare_copy("en", base, package_dir=package)
    assert third.newer is not None  # the edited copy is not taken for the installed lessons
    assert "(my note)" in mine.read_text(encoding="utf-8")  # and it is kept


def test_a_teachers_edit_is_kept_and_newer_lessons_are_still_found(tmp_path):
    package = _package_from_another_python(tmp_path)
    base = tmp_path / "lessons"
    first = prepare_copy("en", base, package_dir=package)
    mine = first.folder / "01_compass_rolls.ipynb"
    mine.write_text(mine.read_text(encoding="utf-8").replace("Run All Cells", "Run All Cells (my note)"),
                    encoding="utf-8")
    edited = mine.read_bytes()
    again = prepare_copy("en", base, package_dir=package)
    assert again.newer is None and mine.read_bytes() == edited
    shipped = package / "notebooks" / "en" / "05_which_coast_is_most_at_risk.ipynb"  # the package is updated
    shipped.write_text(shipped.read_text(encoding="utf-8").replace("Run All Cells", "Run All Cells (new)"),
                       encoding="utf-8")
    third = prepare_copy("en", base, package_dir=package)
    assert third.newer is not None and mine.read_bytes() == edited
    assert _metadata(third.newer / shipped.name)["language_info"] == kernel_language_info()
    assert "(new)" in (third.newer / shipped.name).read_text(encoding="utf-8")
    assert prepare_copy("en", base, package_dir=package).newer == third.newer  # found once, not again and again


def test_the_lab_keeps_its_tabs_inside_the_copy(tmp_path, monkeypatch):
    made: list[dict] = []

    class Started(Exception):
        pass

    def fake_lab(**kwargs):
        made.append(kwargs)
        raise Started

    monkeypatch.setattr(lessons_cmd, "JupyterLabProcess", fake_lab)
    with pytest.raises(Started):
        lessons_cmd.lessons("en", folder=tmp_path, open_browser=False, out=io.StringIO())
    workspaces = made[0]["workspaces"]
    assert workspaces == tmp_path / "en" / lessons_cmd.WORKSPACES_NAME
    cmd = lessons_cmd.build_lab_command(tmp_path, port=8871, token="x", python=sys.executable, as_root=False,
                                        workspaces=workspaces)
    assert f"--LabApp.workspaces_dir={workspaces}" in cmd
