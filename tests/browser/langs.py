"""Which languages a browser test runs in.

Every screen is checked in both languages by the tests whose result depends on the text: the
class-play screens at five sizes (``test_classroom_screens.py``), the back row's type sizes
(``test_classroom_backrow.py``), every lesson (``test_lessons_browser.py``, ``test_lesson07_browser.py``,
``test_risk_browser.py``) and axe on every lesson (``test_a11y_axe.py``, lessons 01-06 there in one
language and in the other on the pages the Tab walk of ``test_a11y_keyboard.py`` opens); the catalogs
are checked complete in ``tests/test_i18n.py``.

A *flow* (phones placing storms by touch, the turn timer running out, Tab through a lesson) does the
same thing in either language and costs a whole class's page loads, so by default each flow runs in
one language, the two languages taking turns across the flows (and across the lessons of a Tab walk),
which keeps CI near its time budget. ``TYPHOON_EDU_ALL_LANGS=1`` runs every flow in both languages:

    TYPHOON_EDU_ALL_LANGS=1 bash scripts/test.sh tests/browser

>>> flow_langs("zh-TW", every=False)
['zh-TW']
>>> flow_langs("en", every=True)
['en', 'zh-TW']
>>> lesson_cases(["01", "02", "03"], every=False)
[('01', 'en'), ('02', 'zh-TW'), ('03', 'en')]
>>> lesson_cases(["01", "02"], first="zh-TW", every=False)
[('01', 'zh-TW'), ('02', 'en')]
>>> len(lesson_cases(["01", "02"], every=True))
4
"""

from __future__ import annotations

import os
from collections.abc import Iterable

LANGS = ("en", "zh-TW")

#: Set to ``1`` to run every browser flow in both languages.
ALL_LANGS_ENV = "TYPHOON_EDU_ALL_LANGS"


def every_language() -> bool:
    """True when ``TYPHOON_EDU_ALL_LANGS=1`` asks for every flow in both languages."""
    return os.environ.get(ALL_LANGS_ENV, "") == "1"


def flow_langs(lang: str, *, every: bool | None = None) -> list[str]:
    """The languages a flow runs in: ``lang`` alone, or both with ``TYPHOON_EDU_ALL_LANGS=1``."""
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}: choose from {', '.join(LANGS)}")
    return list(LANGS) if (every_language() if every is None else every) else [lang]


def lesson_cases(lessons: Iterable[str], *, first: str = "en", every: bool | None = None) -> list[tuple[str, str]]:
    """``(lesson, lang)`` cases: each lesson in both languages, or the languages taking turns from ``first``
    (two walks over the same lessons starting from different languages cover every lesson in both)."""
    names = list(lessons)
    if every_language() if every is None else every:
        return [(lesson, lang) for lang in LANGS for lesson in names]
    start = LANGS.index(first)
    return [(lesson, LANGS[(start + i) % 2]) for i, lesson in enumerate(names)]
