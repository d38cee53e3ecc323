"""Taiwan's ability note gives the Central Mountain Range's height as lesson 03 does (Xiuguluan, about 3,825 m).

The range is not 'nearly 4,000 m high': that is Yushan (3,952 m), in the Yushan Range beside it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from typhoon_edu import load_rules

ROOT = Path(__file__).resolve().parent.parent
#: (language, the note's field, lesson 03 in that language, the peak's name, wrong heights)
CASES = [
    ("en", "basis_en", "notebooks/en/03_typhoon_intensity.ipynb", "Xiuguluan", ("4,000", "4000")),
    ("zh-TW", "basis_zh", "notebooks/zh-TW/03_typhoon_intensity.ipynb", "秀姑巒山", ("4,000", "4000", "將近")),
]


@pytest.mark.parametrize(("lang", "field", "lesson", "peak", "wrong"), CASES, ids=[c[0] for c in CASES])
def test_the_taiwan_note_gives_the_central_range_the_height_lesson_03_gives(lang, field, lesson, peak, wrong):
    note = getattr(load_rules().regions["Taiwan"].ability, field)
    lesson_text = "".join("".join(cell["source"]) for cell in json.loads((ROOT / lesson).read_text(encoding="utf-8"))["cells"])
    assert peak in lesson_text and "3,825" in lesson_text, "lesson 03 no longer says it: the test needs updating"
    assert peak in note and "3,825" in note, note
    assert not any(w in note for w in wrong), note
    cards = (ROOT / "docs" / "cards.md").read_text(encoding="utf-8")
    assert note in cards, "docs/cards.md is not written from the data: python -m typhoon_edu.reference > docs/cards.md"
