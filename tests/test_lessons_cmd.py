"""``typhoon-edu lessons``: the person's own copy (kept, restored, a newer version beside it), its index
page, the errors, and JupyterLab and Voilà serving the copy (on 127.0.0.1 only)."""

from __future__ import annotations

import hashlib
import html
import io
import json
import shutil
import sys
from pathlib import Path

import pytest
from package_helpers import CommandRun, free_port
from serve_helpers import http_request, port_is_free, wait_until

from typhoon_edu import lessonbook
from typhoon_edu.cli import main as cli_main
from typhoon_edu.lessonbook import LessonsError, prepare_copy, shipped_lessons


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _fake_package(tmp_path: Path) -> Path:
    """A package folder whose notebooks/ holds a copy of the real lessons (so a test may change them)."""
    package = tmp_path / "pkg" / "typhoon_edu"
    for lang in lessonbook.LESSON_LANGS:
        (package / "notebooks" / lang).mkdir(parents=True)
        for p in shipped_lessons(lang):
            shutil.copyfile(p, package / "notebooks" / lang / p.name)
    return package


def test_the_first_run_copies_every_lesson_and_writes_an_index(tmp_path):
    copy = prepare_copy("zh-TW", tmp_path)
    originals = shipped_lessons("zh-TW")
    assert copy.created and copy.folder == tmp_path / "zh-TW" and copy.newer is None
    assert sorted(p.name for p in copy.folder.glob("[0-9][0-9]_*.ipynb")) == [lessonbook.INDEX_NAME] + [p.name for p in originals]
    for p in originals:  # the original, with this computer's Python in metadata.language_info
        assert lessonbook.same_lesson(copy.folder / p.name, p)
    index = json.loads(copy.index.read_text(encoding="utf-8"))
    text = "\n".join("".join(c["source"]) for c in index["cells"])
    for p in originals:  # every lesson linked, by its own title
        assert f"[{lessonbook.lesson_title(p)}]({p.name})" in text
    assert "Run ▸ Run All Cells" in text and "第 01 課" in text
    assert all(c["cell_type"] == "markdown" for c in index["cells"])


def test_a_students_edits_are_kept_and_never_reach_the_package(tmp_path):
    before = {p.name: _sha(p) for p in shipped_lessons("en")}
    copy = prepare_copy("en", tmp_path)
    edited = copy.folder / "01_compass_rolls.ipynb"
    edited.write_text(edited.read_text(encoding="utf-8").replace("Compass rolls", "My compass notes"), encoding="utf-8")
    (copy.folder / "03_typhoon_intensity.ipynb").unlink()  # deleted by mistake
    again = prepare_copy("en", tmp_path)
    assert not again.created and again.newer is None
    assert "My compass notes" in edited.read_text(encoding="utf-8")
    assert again.restored == ["03_typhoon_intensity.ipynb"]
    assert (copy.folder / "03_typhoon_intensity.ipynb").is_file()
    assert {p.name: _sha(p) for p in shipped_lessons("en")} == before


def test_a_newer_version_goes_beside_the_kept_copy(tmp_path):
    package = _fake_package(tmp_path)
    base = tmp_path / "lessons"
    first = prepare_copy("en", base, package_dir=package)
    mine = first.folder / "02_grid_pathing.ipynb"
    mine.write_text(mine.read_text(encoding="utf-8").replace("Grid pathing", "Grid pathing (my notes)"), encoding="utf-8")
    # the package is updated: one lesson changes
    shipped = package / "notebooks" / "en" / "05_which_coast_is_most_at_risk.ipynb"
    shipped.write_text(shipped.read_text(encoding="utf-8").replace("most at risk", "most at risk (new)"), encoding="utf-8")
    again = prepare_copy("en", base, package_dir=package)
    assert again.newer is not None and again.newer.parent == base and again.newer.name.startswith("en-")
    assert "(my notes)" in mine.read_text(encoding="utf-8")  # kept
    assert "most at risk (new)" not in (first.folder / shipped.name).read_text(encoding="utf-8")
    assert "most at risk (new)" in (again.newer / shipped.name).read_text(encoding="utf-8")
    assert (again.newer / lessonbook.INDEX_NAME).is_file()
    third = prepare_copy("en", base, package_dir=package)  # the same newer folder, not another one
    assert third.newer == again.newer
    assert sorted(p.name for p in base.iterdir()) == sorted(["en", again.newer.name])


def test_a_file_where_the_copy_should_go_is_refused_by_name(tmp_path):
    (tmp_path / "en").write_text("not a folder")
    with pytest.raises(LessonsError) as err:
        prepare_copy("en", tmp_path)
    assert err.value.key == "not_folder" and str(tmp_path / "en") in err.value.text("zh-TW")


def test_a_copy_that_cannot_be_made_says_why_in_the_persons_language(tmp_path):
    """The system's reason (here: part of the path is a file) is told in zh-TW too, not in the OS's English."""
    (tmp_path / "file").write_text("a file where a folder should be")
    with pytest.raises(LessonsError) as err:
        prepare_copy("zh-TW", tmp_path / "file")
    assert err.value.key == "copy"
    zh = err.value.text("zh-TW")
    assert "路徑中有一段是檔案" in zh and "Not a directory" not in zh, zh
    assert "part of the path is a file" in err.value.text("en")


@pytest.mark.parametrize(("argv", "expected"), [
    (["lessons", "--lang", "fr", "--no-browser"], "there are no lessons in 'fr'"),
    (["lessons", "--lang", "en", "--port", "0", "--no-browser"], "--port: give a port from 1 to 65535, not 0"),
    (["lessons", "--lang", "zh-TW", "--port", "70000", "--no-browser"], "--port：請給 1 到 65535 之間的連接埠"),
])
def test_bad_options_get_a_clear_error_and_nothing_is_copied(argv, expected, tmp_path, capsys):
    code = cli_main([*argv, "--dir", str(tmp_path / "copy")], out=io.StringIO())
    assert code == 2
    assert expected in capsys.readouterr().err
    assert not (tmp_path / "copy").exists()


def _lessons_run(tmp_path: Path, *extra: str) -> CommandRun:
    port = free_port()
    run = CommandRun([sys.executable, "-m", "typhoon_edu.lessons_cmd", "--no-browser", "--dir", str(tmp_path),
                      "--port", str(port), *extra]).start()
    return run


@pytest.mark.slow
def test_lessons_open_in_jupyterlab_on_the_index_page_and_stop_on_sigterm(tmp_path):
    run = _lessons_run(tmp_path, "--lang", "en")
    try:
        run.wait_for(r"Copied the lessons into", 60)
        url = run.wait_for(r"Lessons in JupyterLab: (http://localhost:(\d+)/lab/tree/en/00_index\.ipynb\?token=(\S+))",
                           180)
        port, token = int(url.group(2)), url.group(3)
        run.wait_for(r"Ctrl\+C", 10)
        status, _, body = http_request(port, f"/api/contents/en/00_index.ipynb?token={token}", timeout=60)
        assert status == 200 and "01_compass_rolls.ipynb" in body
        status, _, _ = http_request(port, "/api/contents/en", timeout=60)
        assert status == 403  # without the token, nothing
        status, _, page = http_request(port, f"/lab/tree/en/00_index.ipynb?token={token}", timeout=60)
        assert status == 200 and "JupyterLab" in page
        assert run.terminate(60) == 0
        wait_until(lambda: port_is_free(port), 30, what="JupyterLab's port freed")
        assert run.processes() == []
    finally:
        run.stop()


@pytest.mark.slow
def test_lessons_voila_shows_the_copy_read_only_with_code_and_links(tmp_path):
    run = _lessons_run(tmp_path, "--lang", "zh-TW", "--voila")
    try:
        found = run.wait_for(r"Voilà 唯讀顯示的課程：(http://localhost:(\d+)/voila/render/00_index\.ipynb)", 180)
        port = int(found.group(2))
        status, _, index = http_request(port, "/voila/render/00_index.ipynb", timeout=120)
        index = html.unescape(index)
        assert status == 200 and 'href="01_compass_rolls.ipynb"' in index and "第 01 課" in index
        status, _, lesson = http_request(port, "/voila/render/01_compass_rolls.ipynb", timeout=240)
        lesson = html.unescape(lesson)  # nbconvert writes headings' CJK text as character references
        assert status == 200 and "第 01 課" in lesson
        assert "typhoon_edu" in lesson  # the code is shown (read-only), as lesson 06 asks its readers to read it
        # served by the class-play machinery: a request for another machine's name is refused
        status, _, _ = http_request(port, "/voila/render/00_index.ipynb", host="attacker.example", timeout=30)
        assert status == 403
        assert run.terminate(60) == 0
    finally:
        run.stop()


def test_the_index_notebook_opens_as_valid_nbformat(tmp_path):
    import nbformat

    copy = prepare_copy("en", tmp_path)
    nbformat.validate(nbformat.read(copy.index, as_version=4))


def test_lesson_04_is_the_persons_own_game_in_the_lessons_voila(tmp_path, monkeypatch):
    """`typhoon-edu lessons --voila` serves one person's lessons on this computer: lesson 04's game there is theirs, as
    in JupyterLab. Its projector said "this is the teacher's page, this browser has no teacher's key" and pointed to a
    join page that server does not have (a QA pass, zh-TW). The server's kernels are told they serve the lessons, and a
    page there (a Voilà kernel, the server's public address set, no key in the query) belongs to the local teacher."""
    import typhoon_edu.server.serve as serve_module
    from typhoon_edu.classroom.store import RoomStore
    from typhoon_edu.lessons_cmd import lessons
    from typhoon_edu.ui.classplay.projector import page_teacher
    from typhoon_edu.ui.query import LESSONS_SERVER_ENV_VAR

    made: list[dict] = []

    class Started(Exception):
        pass

    class FakeVoila:
        def __init__(self, **kwargs):
            made.append(kwargs)
            raise Started

    monkeypatch.setattr(serve_module, "VoilaProcess", FakeVoila)
    with pytest.raises(Started):
        lessons("en", folder=tmp_path, voila=True, open_browser=False, out=io.StringIO())
    env = made[0]["env"]
    assert env[LESSONS_SERVER_ENV_VAR] == "1"
    env = serve_module.build_voila_env("en", base=env, public_url="http://localhost:8871/")
    env["QUERY_STRING"] = ""  # a page Voilà serves, with no teacher's key in its query
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    teacher = page_teacher(RoomStore("sqlite://"))
    assert teacher is not None and teacher.is_local
    monkeypatch.delenv(LESSONS_SERVER_ENV_VAR)  # the class server's page without the key: no teacher
    assert page_teacher(RoomStore("sqlite://")) is None
