#!/usr/bin/env python3
"""Write the Binder badges of README.md and of every lesson notebook from pyproject's [project.urls].

The repository's GitHub address is set in ONE place, ``[project.urls] Repository`` in pyproject.toml.
This script writes from it:

* README.md: the lessons badge (opens lesson 01 in JupyterLab) and the class-play badge (Voilà);
* each lesson notebook (``notebooks/<lang>/NN_*.ipynb``): a badge in its title cell that opens that
  notebook on Binder.

``python scripts/badges.py`` rewrites the files; ``--check`` only reports which would change (exit 1).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]
BADGE_IMAGE = "https://mybinder.org/badge_logo.svg"
FIRST_LESSON = "notebooks/en/01_compass_rolls.ipynb"
DASHBOARD = "notebooks/dashboard.ipynb"
MARK = "<!-- binder badge: written by scripts/badges.py -->"
LABEL = {"en": "Open this lesson on Binder", "zh-TW": "在 Binder 上開啟這一課"}


def repository_slug(root: Path = ROOT) -> str:
    """``owner/name`` from ``[project.urls] Repository`` (a https://github.com/owner/name address)."""
    with open(root / "pyproject.toml", "rb") as fh:
        urls = tomllib.load(fh).get("project", {}).get("urls", {})
    url = urls.get("Repository", "")
    m = re.fullmatch(r"https://github\.com/([A-Za-z0-9_.-]+)/([A-Za-z0-9_.-]+?)(?:\.git)?/?", url)
    if not m:
        raise SystemExit(f"pyproject.toml: [project.urls] Repository should be https://github.com/OWNER/NAME, found {url!r}")
    if "OWNER" in (m.group(1).upper(), m.group(2).upper()):
        raise SystemExit(f"pyproject.toml: [project.urls] Repository still holds the placeholder OWNER: {url!r}")
    return f"{m.group(1)}/{m.group(2)}"


def binder_url(slug: str, urlpath: str) -> str:
    return f"https://mybinder.org/v2/gh/{slug}/HEAD?urlpath={urlpath}"


def readme_badges(slug: str) -> list[str]:
    return [f"[![Lessons on Binder]({BADGE_IMAGE})]({binder_url(slug, 'lab/tree/' + FIRST_LESSON)})",
            f"[![Class play on Binder (Voilà)]({BADGE_IMAGE})]({binder_url(slug, 'voila/render/' + DASHBOARD)})"]


def lesson_notebooks(root: Path = ROOT) -> list[Path]:
    return sorted(p for lang in ("en", "zh-TW") for p in (root / "notebooks" / lang).glob("[0-9][0-9]_*.ipynb"))


def new_readme(text: str, slug: str) -> str:
    lines = text.split("\n")
    kept = [line for line in lines if "mybinder.org/v2/gh/" not in line]
    # the badges sit right under the title
    return "\n".join([kept[0], "", *readme_badges(slug), *kept[1:]]).replace("\n\n\n", "\n\n", 1)


def notebook_badge(slug: str, rel: str, lang: str) -> str:
    # HTML, not a Markdown image: Voilà 0.5's preview in JupyterLab ("Render with Voilà", voila/render/<lesson>) inlines
    # every Markdown image through the server's contents manager, which JupyterLab's server makes asynchronous, and
    # failed on the badge with "'coroutine' object is not subscriptable": the page never loaded
    return (f"{MARK}\n<a href=\"{binder_url(slug, 'lab/tree/' + rel)}\"><img src=\"{BADGE_IMAGE}\" "
            f"alt=\"{LABEL[lang]}\"></a>")


def new_notebook(text: str, slug: str, rel: str, lang: str) -> str:
    nb = json.loads(text)
    # the title cell: the first one after the how-to-run cell (scripts/run_hint.py)
    first = next(c for c in nb["cells"] if c.get("id") != "how-to-run")
    source = "".join(first["source"])
    source = re.sub(rf"\n*{re.escape(MARK)}\n[^\n]*", "", source).rstrip("\n")
    source = f"{source}\n\n{notebook_badge(slug, rel, lang)}"
    lines = source.split("\n")
    first["source"] = [line + "\n" for line in lines[:-1]] + [lines[-1]]
    return json.dumps(nb, ensure_ascii=False, indent=1, sort_keys=True) + "\n"  # as nbformat writes it


def planned(root: Path = ROOT) -> dict[Path, str]:
    """Every file this script writes, with its new text."""
    slug = repository_slug(root)
    out = {root / "README.md": new_readme((root / "README.md").read_text(encoding="utf-8"), slug)}
    for p in lesson_notebooks(root):
        rel = p.relative_to(root).as_posix()
        out[p] = new_notebook(p.read_text(encoding="utf-8"), slug, rel, p.parent.name)
    return out


def _same(path: Path, text: str) -> bool:
    old = path.read_text(encoding="utf-8")
    if path.suffix == ".ipynb":  # the same notebook, whatever the key order or indentation
        return json.loads(old) == json.loads(text)
    return old == text


def main(argv: list[str]) -> int:
    changed = [p for p, text in planned().items() if not _same(p, text)]
    if "--check" in argv:
        for p in changed:
            sys.stdout.write(f"out of date: {p.relative_to(ROOT)}\n")
        return 1 if changed else 0
    for p, text in planned().items():
        if p in changed:
            p.write_text(text, encoding="utf-8")
            sys.stdout.write(f"wrote {p.relative_to(ROOT)}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
