"""The Binder badges: one place names the repository (pyproject's [project.urls]); every badge agrees with it."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BADGE = re.compile(r"https://mybinder\.org/v2/gh/([^/\s)\"]+)/([^/\s)\"]+)/([^?\s)\"]+)\?urlpath=([^\s)\"]+)")


def _script():
    spec = importlib.util.spec_from_file_location("badges", ROOT / "scripts" / "badges.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _badges() -> list[tuple[str, tuple[str, str, str, str]]]:
    found = [("README.md", m.groups()) for m in BADGE.finditer((ROOT / "README.md").read_text(encoding="utf-8"))]
    for p in sorted((ROOT / "notebooks").rglob("*.ipynb")):
        text = "".join("".join(c["source"]) for c in json.loads(p.read_text(encoding="utf-8"))["cells"] if c["cell_type"] == "markdown")
        found += [(p.relative_to(ROOT).as_posix(), m.groups()) for m in BADGE.finditer(text)]
    return found


def test_the_slug_is_set_in_pyproject_and_is_no_placeholder():
    slug = _script().repository_slug(ROOT)
    assert slug == "typhoon-edu/typhoon-edu"
    assert "OWNER" not in slug.upper()


def test_every_badge_agrees_with_the_one_place_and_holds_no_placeholder():
    slug = _script().repository_slug(ROOT)
    badges = _badges()
    assert len(badges) >= 2 + 12  # README's two and one per lesson notebook
    for where, (owner, name, ref, _path) in badges:
        assert "OWNER" not in owner.upper() and "OWNER" not in name.upper(), where
        assert f"{owner}/{name}" == slug, where
        assert ref == "HEAD", where


def test_the_lessons_badge_opens_lesson_01_and_each_notebook_opens_itself():
    readme = [g for w, g in _badges() if w == "README.md"]
    assert ("lab/tree/notebooks/en/01_compass_rolls.ipynb") in [g[3] for g in readme]
    assert "voila/render/notebooks/dashboard.ipynb" in [g[3] for g in readme]
    for where, groups in _badges():
        if where.endswith(".ipynb"):
            assert groups[3] == f"lab/tree/{where}", where
            assert (ROOT / where).is_file()


def test_the_script_has_nothing_left_to_write():
    module = _script()
    stale = [p for p, text in module.planned(ROOT).items() if not module._same(p, text)]
    assert stale == [], "run python scripts/badges.py"


def test_a_placeholder_or_a_bad_address_is_refused(tmp_path: Path):
    module = _script()
    (tmp_path / "pyproject.toml").write_text('[project.urls]\nRepository = "https://example.org/OWNER"\n')
    with pytest.raises(SystemExit, match="https://github.com/OWNER/NAME"):
        module.repository_slug(tmp_path)
    (tmp_path / "pyproject.toml").write_text('[project.urls]\nRepository = "https://github.com/OWNER/typhoon-edu"\n')
    with pytest.raises(SystemExit, match="placeholder"):
        module.repository_slug(tmp_path)


def test_no_lesson_has_a_markdown_image():
    """Voilà 0.5's preview inside JupyterLab ("Render with Voilà", voila/render/<lesson> on the Lab server, as on
    Binder) inlines each Markdown image through the server's contents manager without awaiting it (JupyterLab's is
    asynchronous): the lesson's page never loaded ("'coroutine' object is not subscriptable"). Pictures in the lessons'
    Markdown are HTML <img> tags, which it leaves alone."""
    image = re.compile(r"!\[[^\]]*\]\(")
    found = []
    for p in sorted((ROOT / "notebooks").rglob("*.ipynb")):
        cells = json.loads(p.read_text(encoding="utf-8"))["cells"]
        found += [p.name for c in cells if c["cell_type"] == "markdown" and image.search("".join(c["source"]))]
    assert found == []
