"""The log's "The last decision was taken back." follows a language switch, on the projector and on the phones.

The log is rebuilt from the room's events at every language switch; the undo's line is no event, and it went with
the rebuild (the log no longer said a decision had been taken back). It is now kept as a place in the room's events
and written in the page's language each time the log is drawn.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_classplay_teacher_drawer import _mei_places_a_storm_and_the_teacher_takes_it_back

from typhoon_edu import i18n
from typhoon_edu.ui.classplay.undoline import UNDONE_KIND
from typhoon_edu.ui.classplay.viewdata import d


def _other(lang: str) -> str:
    return "zh-TW" if lang == "en" else "en"


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_the_undo_line_follows_a_language_switch(tmp_path: Path, lang: str) -> None:
    app, phones = _mei_places_a_storm_and_the_teacher_takes_it_back(tmp_path, lang)
    mei, ken = phones["Taiwan"], phones["Japan"]
    mei.sync()
    ken.sync()
    for view in (app.game.stage, mei.stage, ken.stage):
        assert view.log_texts()[0] == d("game.undone", lang)
    new = _other(lang)
    app.set_lang(new)
    mei.set_lang(new)
    assert app.game.stage.log_texts()[0] == d("game.undone", new), app.game.stage.log_texts()[:2]
    assert mei.stage.log_texts()[0] == d("game.undone", new), mei.stage.log_texts()[:2]
    assert d("game.undone", new) in app.game.log.body.value  # drawn, not only kept
    assert ken.stage.log_texts()[0] == d("game.undone", lang)  # a phone left in its language keeps it
    # the next move: its lines come above the undo's, which stays where it was and follows the next switch back
    assert mei.decide(mei.decisions.cell_action(mei.decisions.highlight_cells()[0]))
    app.advance()
    mei.sync()
    for view, now in ((app.game.stage, new), (mei.stage, new)):
        texts = view.log_texts()
        assert texts[0] != d("game.undone", now) and texts.count(d("game.undone", now)) == 1, texts[:4]
    before = [kind for kind, _text in app.game.stage.lines]
    app.set_lang(lang)
    mei.set_lang(lang)
    assert [kind for kind, _text in app.game.stage.lines] == before, "the undo's line moved in the rebuilt log"
    for view in (app.game.stage, mei.stage):
        assert [t for k, t in view.lines if k == UNDONE_KIND] == [d("game.undone", lang)]
