"""A text's ``{placeholders}`` never reach a student unfilled, and a broken catalog says which file to fix.

i18n.t() fills every placeholder or fails naming the key, the language and the missing names; i18n.template() is the
one way to get the text unfilled. The catalog's errors name the files: a line TOML cannot read, a key written in two
files, a key missing in one language (and the file to add it to)."""

from __future__ import annotations

import ast
import re
import shutil
from pathlib import Path

import pytest

from typhoon_edu import i18n

PACKAGE = Path(i18n.__file__).resolve().parent


# --- t() fills in, or says what is missing -------------------------------------------------------------------------


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_a_text_with_placeholders_asked_for_without_values_fails_naming_what_is_missing(lang):
    key = "lesson.quiz.pathing.hours.why"
    names = i18n.placeholders(i18n.catalog(lang)[key])
    assert names  # the raw text has braces; before, t() returned it as it is
    with pytest.raises(i18n.MissingValuesError) as caught:
        i18n.t(key, lang)
    message = str(caught.value)
    assert key in message and repr(lang) in message and "template(" in message
    assert all("{" + n + "}" in message for n in names)
    assert set(caught.value.missing) == names


def test_only_the_missing_values_are_named():
    with pytest.raises(i18n.MissingValuesError, match=r"needs a value for \{max\}, and t\(\) was given only hp"):
        i18n.t("hp.value", "en", hp=3)
    assert i18n.t("hp.value", "en", hp=3, max=30, extra="kept out") == "3 / 30"  # values it does not use are fine


def test_template_is_the_text_unfilled_and_t_without_placeholders_is_unchanged():
    assert i18n.template("hp.value", "zh-TW") == "{hp} / {max}"
    assert i18n.t("die.roll", "zh-TW") == i18n.catalog("zh-TW")["die.roll"]


def _t_calls_without_values() -> list[tuple[str, int, str]]:
    """Every ``t("literal.key", lang)`` / ``i18n.t(...)`` call in the package that passes no values."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and node.args and not node.keywords):
                continue
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            first = node.args[0]
            if name == "t" and isinstance(first, ast.Constant) and isinstance(first.value, str):
                found.append((str(path.relative_to(PACKAGE.parent)), node.lineno, first.value))
    return found


def test_no_call_in_the_package_asks_for_a_text_with_placeholders_without_its_values():
    """Also the calls no test runs: a literal key without values must be a text without placeholders."""
    calls = _t_calls_without_values()
    assert len(calls) > 100  # the scan finds the calls
    wrong = [f"{path}:{line}: t({key!r}) needs {sorted(i18n.placeholders(i18n.catalog(lang)[key]))} in {lang}"
             for path, line, key in calls for lang in i18n.LANGS
             if i18n.has(key, lang) and i18n.placeholders(i18n.catalog(lang)[key])]
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_every_placeholder_of_the_catalogs_is_a_plain_name(lang):
    """``{name}`` only: a literal brace (CSS, JSON) or ``{0}`` would need template() and its own formatting."""
    import string

    odd = [(key, name) for key, text in i18n.catalog(lang).items()
           for _, name, _, _ in string.Formatter().parse(text) if name is not None and not name.isidentifier()]
    assert not odd


# --- the catalog's errors name the files -----------------------------------------------------------------------------


@pytest.fixture
def folder(tmp_path):
    """A copy of the catalog files to break."""
    for path in i18n.CATALOG_DIR.glob("*.toml"):
        shutil.copy(path, tmp_path / path.name)
    return tmp_path


def test_a_line_toml_cannot_read_names_its_file(folder):
    path = folder / "zh-TW.lessons.toml"
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    at = next(k for k, line in enumerate(lines) if line.startswith("why = ") or " = \"" in line)
    lines[at] = lines[at].rstrip("\n").rstrip('"') + "\n"  # an unterminated string
    path.write_text("".join(lines), encoding="utf-8")
    with pytest.raises(i18n.CatalogError, match=r"zh-TW\.lessons\.toml: the catalog file is not valid UTF-8 TOML") as e:
        i18n.read_catalog(folder, "zh-TW")
    assert f"line {at + 1}" in str(e.value)


def test_a_key_in_two_files_names_both(folder):
    with (folder / "zh-TW.risk.toml").open("a", encoding="utf-8") as fh:
        fh.write('\n[lesson.quiz.compass.first_roll]\nwhy = "twice"\n')
    with pytest.raises(i18n.CatalogError) as e:
        i18n.read_catalog(folder, "zh-TW")
    assert re.match(r"zh-TW\.risk\.toml: the keys lesson\.quiz\.compass\.first_roll\.why are already defined in "
                    r"zh-TW\.lessons\.toml ", str(e.value)), str(e.value)


@pytest.mark.parametrize("lang, other", [("zh-TW", "en"), ("en", "zh-TW")])
def test_a_text_missing_in_one_language_says_where_to_add_it(monkeypatch, lang, other):
    key = "lesson.quiz.compass.first_roll.why"
    texts = dict(i18n.catalog(lang))
    del texts[key]
    files = dict(i18n._loaded(lang).files)
    del files[key]
    monkeypatch.setattr(i18n, "_loaded", lambda code: i18n.Catalog(texts, files) if code == lang else
                        i18n.read_catalog(i18n.CATALOG_DIR, code))
    with pytest.raises(KeyError) as e:
        i18n.t(key, lang)
    assert e.value.args[0] == (f"no text for {key!r} in language {lang!r}; {other} has it in {other}.lessons.toml: "
                               f"add it to {lang}.lessons.toml")


def test_a_key_no_language_has_names_the_file_of_its_section():
    with pytest.raises(KeyError, match=r"its section 'lesson\.quiz\.compass' is in zh-TW\.lessons\.toml"):
        i18n.t("lesson.quiz.compass.nothing.why", "zh-TW")


def test_every_part_file_has_the_same_name_in_every_language():
    """The module docstring's promise: ``<lang>.toml`` and ``<lang>.<part>.toml``, the same parts in each language."""
    parts = {lang: sorted(p.name[len(lang):] for p in i18n.CATALOG_DIR.glob(f"{lang}.*toml")) for lang in i18n.LANGS}
    assert parts["en"] == parts["zh-TW"] and ".toml" in parts["en"] and len(parts["en"]) > 10
    assert "<lang>.<part>.toml" in (i18n.__doc__ or "")
