"""A short glossary per lesson: the harder words, in the lesson's language with the other language beside them.

The words live in ``data/i18n/<lang>.glossary.toml`` (``glossary.<lesson>.t<n>.word`` / ``.meaning``).
``python -m typhoon_edu.ui.lessons.glossaries > docs/glossary.md`` writes the teachers' copy; a test
checks that it is current.

>>> [w for w, _, _ in terms("real", "en")][:2]
['best track', 'central pressure']
>>> "最佳路徑" in glossary("real", "en")._repr_html_()
True
"""

from __future__ import annotations

import re
from html import escape

from ... import i18n
from .common import Rendered, keep_units, lt

#: Lessons in notebook order, as the glossary names them.
LESSONS = ("compass", "pathing", "intensity", "game", "risk", "real", "forecast")
NOTEBOOKS = {"compass": "01_compass_rolls", "pathing": "02_grid_pathing", "intensity": "03_typhoon_intensity",
             "game": "04_full_game", "risk": "05_which_coast_is_most_at_risk", "real": "06_real_typhoons",
             "forecast": "07_forecast_challenge"}


def terms(lesson: str, lang: str = "en") -> list[tuple[str, str, str]]:
    """``(word, meaning, the word in the other language)`` for each glossary entry of ``lesson``."""
    if lesson not in LESSONS:
        raise ValueError(f"no glossary for {lesson!r}; the lessons are {', '.join(LESSONS)}")
    lang = i18n.normalize_lang(lang)
    other = "en" if lang == "zh-TW" else "zh-TW"
    cat = i18n.catalog(lang)
    numbers = sorted({int(m.group(1)) for k in cat if (m := re.match(rf"glossary\.{lesson}\.t(\d+)\.word$", k))})
    return [(i18n.t(f"glossary.{lesson}.t{n}.word", lang), i18n.t(f"glossary.{lesson}.t{n}.meaning", lang),
             i18n.t(f"glossary.{lesson}.t{n}.word", other)) for n in numbers]


def glossary(lesson: str, lang: str = "en") -> Rendered:
    """The lesson's glossary as a small table (static HTML: it reads the same on GitHub); each number in it stays on
    the line of its unit (:func:`~typhoon_edu.ui.lessons.common.keep_units`).

    >>> "1013\u00a0hPa" in glossary("real", "en")._repr_html_()
    True
    """
    # text-align is set on every cell: JupyterLab's and Voilà's table styles would right-align them
    # the word's column is at most a third of a phone's width: kept on one line it left the meaning a few
    # pixels, one letter a line
    rows = "".join(f"<tr><td style='padding:.2em .6em;vertical-align:top;text-align:left;width:33%'><b>{escape(keep_units(w))}</b> "
                   f"<span style='color:#475569'>({escape(keep_units(o))})</span></td>"
                   f"<td style='padding:.2em .6em;text-align:left'>{escape(keep_units(m))}</td></tr>"
                   for w, m, o in terms(lesson, lang))
    return Rendered(f"<details open class='glossary'><summary style='font-weight:bold;font-size:1.1em'>"
                    f"{escape(lt('common.glossary', lang))}</summary>"
                    f"<table style='border-collapse:collapse;font-size:1.02em'>{rows}</table></details>")


def glossary_markdown() -> str:
    """docs/glossary.md: every lesson's words, English and Traditional Chinese side by side."""
    out = ["# Glossary · 重要詞彙", "",
           "Written from `typhoon_edu/data/i18n/*.glossary.toml` by `python -m typhoon_edu.ui.lessons.glossaries`.", ""]
    for k, lesson in enumerate(LESSONS, start=1):
        out += [f"## {k:02d} · `{NOTEBOOKS[lesson]}`", "", "| English | meaning | 中文 | 意思 |", "|---|---|---|---|"]
        for (w, m, _), (wz, mz, _) in zip(terms(lesson, "en"), terms(lesson, "zh-TW"), strict=True):
            out.append(f"| **{w}** | {m} | **{wz}** | {mz} |")
        out.append("")
    return "\n".join(out)


if __name__ == "__main__":  # pragma: no cover
    import sys

    sys.stdout.write(glossary_markdown())

__all__ = ["LESSONS", "NOTEBOOKS", "glossary", "glossary_markdown", "terms"]
