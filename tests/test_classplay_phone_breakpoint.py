"""Class play and the lessons share one phone breakpoint: :data:`typhoon_edu.ui.touch.PHONE_MAX_PX`."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

import typhoon_edu.ui.touch as touch

CLASSPLAY = Path(touch.__file__).resolve().parent / "classplay"


def test_no_class_play_file_writes_the_phone_width_itself() -> None:
    for path in sorted(CLASSPLAY.glob("*.py")):
        text = path.read_text(encoding="utf-8")
        assert not re.search(rf"max-width:\s*{touch.PHONE_MAX_PX}px", text), path.name


def test_the_phone_rules_of_class_play_follow_touch_phone_max_px(monkeypatch: pytest.MonkeyPatch) -> None:
    """Moved in touch.py, the breakpoint moves in the class-play style sheets too (theme and join cards)."""
    from typhoon_edu.ui.classplay import joincard, theme

    before = theme.CSS.count(f"@media (max-width: {touch.PHONE_MAX_PX}px)"), \
        joincard.JOIN_CSS.count(f"@media (max-width: {touch.PHONE_MAX_PX}px)")
    assert before == (2, 1)
    monkeypatch.setattr(touch, "PHONE_MAX_PX", 560)
    try:
        importlib.reload(theme)
        importlib.reload(joincard)
        assert theme.CSS.count("@media (max-width: 560px)") == 2 and "600px" not in theme.CSS
        assert joincard.JOIN_CSS.count("@media (max-width: 560px)") == 1 and "600px" not in joincard.JOIN_CSS
    finally:
        monkeypatch.undo()
        importlib.reload(theme)
        importlib.reload(joincard)
    assert theme.CSS.count(f"@media (max-width: {touch.PHONE_MAX_PX}px)") == 2
