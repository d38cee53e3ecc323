"""Errors a person can meet (damaged saves, undo refused) are told in the interface's language."""

from __future__ import annotations

import json

import pytest

from typhoon_edu import Game, IllegalActionError, SaveFileError
from typhoon_edu.engine.savefile import game_from_json, game_to_json
from typhoon_edu.i18n import error_text
from typhoon_edu.ui.classplay.session import ClassSession, Seat


def _saved() -> dict:
    g = Game.new(["Taiwan", "Japan", "Korea"], seed=3)
    g.apply("place 8,8")
    return json.loads(game_to_json(g))


@pytest.mark.parametrize("mutate, kind", [
    (lambda d: "not json at all", "not_json"),
    (lambda d: {**d, "format": "chess"}, "foreign"),
    (lambda d: {**d, "version": 99}, "version"),
    (lambda d: {**d, "rules_digest": "0000"}, "rules"),
    (lambda d: {**d, "actions": ["place 0,0"]}, "replay"),
    (lambda d: {**d, "state_digest": "0" * 16}, "tampered"),
    (lambda d: {**d, "seed": "seven"}, "damaged"),
])
def test_each_bad_save_file_has_a_kind_with_text_in_both_languages(mutate, kind):
    data = mutate(_saved())
    text = data if isinstance(data, str) else json.dumps(data)
    with pytest.raises(SaveFileError) as info:
        game_from_json(text)
    assert info.value.kind == kind
    en, zh = error_text(info.value, "en"), error_text(info.value, "zh-TW")
    assert en != zh and en and zh
    assert any("\u4e00" <= ch <= "\u9fff" for ch in zh)


def test_undo_refusals_are_translated():
    g = Game.new(["Taiwan", "Japan", "Korea"], seed=3, dice="manual")
    with pytest.raises(IllegalActionError) as info:
        g.undo()
    assert info.value.kind == "undo_none"
    assert error_text(info.value, "zh-TW") == "目前還沒有可以收回的決定。"
    assert error_text(IllegalActionError("plain"), "zh-TW") == "plain"  # no kind: the engine's text


def test_damaged_saves_are_listed_with_a_kind(tmp_path):
    s = ClassSession.start([Seat("Taiwan", "greedy"), Seat("Japan", "greedy"), Seat("Korea", "greedy")],
                           seed=1, save_dir=tmp_path)
    (tmp_path / "broken.json").write_text("{nope", encoding="utf-8")
    (tmp_path / "other.json").write_text(json.dumps({"format": "x"}), encoding="utf-8")
    infos = {i.path.name: i for i in ClassSession.list_saves(tmp_path)}
    assert infos[s.save_path.name].ok
    assert (infos["broken.json"].ok, infos["broken.json"].kind) == (False, "not_json")
    assert (infos["other.json"].ok, infos["other.json"].kind) == (False, "foreign")
