"""UI strings and event narration in English and Traditional Chinese (zh-TW).

Strings live in ``typhoon_edu/data/i18n/``, several files per language: ``<lang>.toml`` holds the common strings
(dice, board, events, errors of the engine) and ``<lang>.<part>.toml`` one part each (``en.lessons.toml``,
``zh-TW.classplay.toml``, ``en.cli.toml`` …), so each part can be owned separately. :func:`catalog` reads
``<lang>.toml`` and then every ``<lang>.*.toml`` in that folder (a new part file is found by its name alone) and
merges them; a key may be defined in one file only. The same part has the same name in every language, and
:func:`catalog_file` says which file a key is in. Nested tables are read as dotted keys (``[die] invalid = ...`` is
``"die.invalid"``). Names of regions, levels, directions, cards and abilities come from the edition's
:class:`~typhoon_edu.engine.rules.Rules`, so a teacher who renames a card in ``cards.toml`` sees the new name
everywhere.

>>> t("die.roll"), t("die.roll", "zh-TW")
('Roll the die', '擲骰子')
>>> t("die.result", "en", face=4)
'The die shows 4.'

A text with ``{placeholders}`` is always filled in: without its values :func:`t` says which are missing (a student
never sees ``{face}``); :func:`template` is the text as written, for code that fills it in later.

>>> t("die.result", "en")
Traceback (most recent call last):
...
typhoon_edu.i18n.MissingValuesError: the text 'die.result' in language 'en' needs a value for {face}, and t() was given none; pass it as t('die.result', lang, face=...), or use template('die.result', lang) for the text unfilled
>>> template("die.result", "en")
'The die shows {face}.'
>>> t("no.such.key", "zh-TW")
Traceback (most recent call last):
...
KeyError: "no text for 'no.such.key' in language 'zh-TW'; no catalog file of zh-TW has a section 'no' (the files are zh-TW.toml and zh-TW.<part>.toml in typhoon_edu/data/i18n)"
"""

from __future__ import annotations

import re
import string
import sys
from collections.abc import Iterable, Mapping
from dataclasses import fields
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

if TYPE_CHECKING:
    from .engine.events import Event
    from .engine.rules import Rules

LANGS: tuple[str, ...] = ("en", "zh-TW")
CATALOG_DIR = Path(__file__).resolve().parent / "data" / "i18n"
_ALIASES = {"en": "en", "english": "en", "zh-tw": "zh-TW", "zh_tw": "zh-TW", "zh": "zh-TW", "zh-hant": "zh-TW"}


def normalize_lang(lang: str) -> str:
    """The canonical language code for ``lang`` (``"zh"``, ``"zh_TW"`` → ``"zh-TW"``).

    >>> normalize_lang("zh_tw"), normalize_lang("EN")
    ('zh-TW', 'en')
    >>> normalize_lang("fr")
    Traceback (most recent call last):
    ...
    ValueError: unknown language 'fr'; the languages are en, zh-TW
    """
    code = _ALIASES.get(str(lang).strip().lower())
    if code is None:
        raise ValueError(f"unknown language {lang!r}; the languages are {', '.join(LANGS)}")
    return code


def _flatten(table: Mapping[str, Any], prefix: str = "") -> dict[str, str]:
    out: dict[str, str] = {}
    for key, value in table.items():
        name = f"{prefix}{key}"
        if isinstance(value, Mapping):
            out.update(_flatten(value, f"{name}."))
        else:
            out[name] = str(value)
    return out


class CatalogError(ValueError):
    """A catalog file that cannot be read, or a key defined in two catalog files; the message names the files."""


class MissingValuesError(ValueError):
    """A text asked for without the values of its ``{placeholders}``."""

    def __init__(self, key: str, lang: str, missing: Iterable[str], given: Iterable[str] = ()) -> None:
        self.key, self.lang, self.missing, self.given = key, lang, tuple(sorted(missing)), tuple(sorted(given))
        names = ", ".join("{" + n + "}" for n in self.missing)
        got = f"only {', '.join(self.given)}" if self.given else "none"
        example = ", ".join(f"{n}=..." for n in self.missing)
        super().__init__(
            f"the text {key!r} in language {lang!r} needs a value for {names}, and t() was given {got}; pass it as "
            f"t({key!r}, lang, {example}), or use template({key!r}, lang) for the text unfilled"
        )


class Catalog(NamedTuple):
    """One language's texts (``{dotted.key: text}``) and the catalog file each key is written in."""

    texts: dict[str, str]
    files: dict[str, str]


def read_catalog(folder: Path, lang: str) -> Catalog:
    """The texts of ``lang`` read from ``folder`` (``<lang>.toml``, then every ``<lang>.*.toml``), with their files.

    >>> c = read_catalog(CATALOG_DIR, "zh-TW")
    >>> c.texts["board.sea"], c.files["board.sea"], c.files["lesson.quiz.compass.first_roll.why"]
    ('海洋', 'zh-TW.toml', 'zh-TW.lessons.toml')
    """
    code = normalize_lang(lang)
    texts: dict[str, str] = {}
    files: dict[str, str] = {}
    # The main catalog, then the parts (``en.lessons.toml`` …), so each part can be owned separately.
    for path in [folder / f"{code}.toml", *sorted(folder.glob(f"{code}.*.toml"))]:
        try:
            with path.open("rb") as fh:
                part = _flatten(tomllib.load(fh))
        except OSError as exc:
            raise CatalogError(f"{path}: the catalog file cannot be read ({exc.strerror})") from exc
        except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            raise CatalogError(f"{path}: the catalog file is not valid UTF-8 TOML ({exc})") from exc
        twice = sorted(set(part) & set(texts))
        if twice:
            where = sorted({files[k] for k in twice})
            raise CatalogError(
                f"{path.name}: the keys {', '.join(twice[:5])}{' …' if len(twice) > 5 else ''} are already defined in "
                f"{' and '.join(where)} (in {folder}); a key is written in one catalog file only: remove one of them"
            )
        texts.update(part)
        files.update(dict.fromkeys(part, path.name))
    return Catalog(texts, files)


@cache
def _loaded(code: str) -> Catalog:
    return read_catalog(CATALOG_DIR, code)


def catalog(lang: str = "en") -> Mapping[str, str]:
    """All strings of one language as a flat ``{dotted.key: text}`` mapping.

    >>> catalog("zh-TW")["board.sea"]
    '海洋'
    """
    return _loaded(normalize_lang(lang)).texts


def catalog_file(key: str, lang: str = "en") -> str | None:
    """The name of the catalog file that holds ``key`` in ``lang`` (``None``: no file does).

    >>> catalog_file("lesson.quiz.compass.first_roll.why", "zh-TW"), catalog_file("no.such.key")
    ('zh-TW.lessons.toml', None)
    """
    return _loaded(normalize_lang(lang)).files.get(key)


def _no_text(key: str, code: str) -> str:
    """Why ``key`` has no text in ``code``, and the catalog file to add it to."""
    head = f"no text for {key!r} in language {code!r}"
    for other in LANGS:
        there = catalog_file(key, other) if other != code else None
        if there is not None:
            return f"{head}; {other} has it in {there}: add it to {code}{there[len(other):]}"
    files = _loaded(code).files
    parts = key.split(".")
    for n in range(len(parts) - 1, 0, -1):
        section = ".".join(parts[:n])
        found = sorted({f for k, f in files.items() if k.startswith(section + ".")})
        if found:
            return f"{head}; its section {section!r} is in {' and '.join(found)}"
    return (f"{head}; no catalog file of {code} has a section {parts[0]!r} (the files are {code}.toml and "
            f"{code}.<part>.toml in typhoon_edu/data/i18n)")


def has(key: str, lang: str = "en") -> bool:
    """Whether ``key`` has a text in ``lang``.

    >>> has("die.roll"), has("die.nothing")
    (True, False)
    """
    return key in catalog(lang)


def template(key: str, lang: str = "en") -> str:
    """The text for ``key`` in ``lang`` as the catalog writes it, ``{placeholders}`` unfilled: for code that fills
    them in later (a count the browser ticks down, a pattern to find the text in). Everything else uses :func:`t`.

    >>> template("hp.value", "zh-TW")
    '{hp} / {max}'
    >>> template("lesson.quiz.compass.nope", "zh-TW")
    Traceback (most recent call last):
    ...
    KeyError: "no text for 'lesson.quiz.compass.nope' in language 'zh-TW'; its section 'lesson.quiz.compass' is in zh-TW.lessons.toml"
    """
    code = normalize_lang(lang)
    try:
        return catalog(code)[key]
    except KeyError:
        raise KeyError(_no_text(key, code)) from None


def t(key: str, lang: str = "en", /, **fmt: Any) -> str:
    """The text for ``key`` in ``lang``, with ``{placeholders}`` filled from ``fmt``; every placeholder needs a value
    (:class:`MissingValuesError` names the ones missing).

    >>> t("hp.value", "zh-TW", hp=12, max=30)
    '12 / 30'
    >>> t("hp.value", "zh-TW", hp=12)
    Traceback (most recent call last):
    ...
    typhoon_edu.i18n.MissingValuesError: the text 'hp.value' in language 'zh-TW' needs a value for {max}, and t() was given only hp; pass it as t('hp.value', lang, max=...), or use template('hp.value', lang) for the text unfilled

    In Chinese a space that set a filled-in Latin name apart goes when the name ends in a full-width mark:

    >>> t("classplay.banner.on_device", "zh-TW", player="Mei（臺灣）")
    'Mei（臺灣）在自己的裝置上做決定。'
    """
    code = normalize_lang(lang)
    text = template(key, code)
    missing = _placeholders(text) - fmt.keys()
    if missing:
        raise MissingValuesError(key, code, missing, fmt)
    if not fmt:
        return text
    if code == "en" and "}'s" in text:
        text = possessive(text, fmt)
    return tidy_spaces(text.format(**fmt), code)


def possessive(text: str, fmt: Mapping[str, Any]) -> str:
    """``text`` with ``{name}'s`` written ``{name}'`` where the name filled in ends in *s* (English).

    >>> possessive("It is {player}'s turn.", {"player": "Philippines"})
    "It is {player}' turn."
    >>> t("dash.status", "en", round=1, rounds=3, player="Philippines", variant="standard rules", deck=9)
    "Round 1 of 3 · Philippines' turn · standard rules · 9 cards in the draw pile"
    >>> t("dash.status", "en", round=1, rounds=3, player="Japan", variant="standard rules", deck=9)
    "Round 1 of 3 · Japan's turn · standard rules · 9 cards in the draw pile"
    """
    return _POSSESSIVE.sub(lambda m: "{" + m[1] + "}'" if str(fmt.get(m[1], "")).endswith(("s", "S")) else m[0], text)


#: A placeholder followed by the English possessive ("{player}'s").
_POSSESSIVE = re.compile(r"\{(\w+)\}'s\b")


def tidy_spaces(text: str, lang: str) -> str:
    """``text`` put together from pieces, without a space beside a full-width mark in Chinese (no change in English).

    >>> tidy_spaces("輪到你了！ Mei（臺灣）：擲骰子", "zh-TW"), tidy_spaces("Your turn! Mei", "en")
    ('輪到你了！Mei（臺灣）：擲骰子', 'Your turn! Mei')
    """
    return _SPACE_BY_FULL_WIDTH.sub("", text) if normalize_lang(lang) == "zh-TW" else text


#: Spaces after a full-width closing mark or before a full-width mark ("Mei（臺灣） 在" reads "Mei（臺灣）在").
_SPACE_BY_FULL_WIDTH = re.compile(r"(?<=[）」』】〕，。：；！？、]) +| +(?=[（）「」『』【】〔〕，。：；！？、])")


def join_sentences(*parts: str, lang: str) -> str:
    """Sentences of feedback run together: a space between them in English, none after a full-width mark in Chinese
    (a screen reader and the page both read "答對了！數停點。", not "答對了！ 數停點。").

    >>> join_sentences("✔ Right!", "", "Count the stops.", lang="en"), join_sentences("✔ 答對了！", "數停點。", lang="zh-TW")
    ('✔ Right! Count the stops.', '✔ 答對了！數停點。')
    """
    return tidy_spaces(" ".join(p for p in parts if p), lang)


def sentence_gap(before: str, lang: str) -> str:
    """The space that follows the sentence ``before`` when another comes after it: none after a full-width mark in
    Chinese.

    >>> sentence_gap("Not quite.", "en"), sentence_gap("還差一點。", "zh-TW")
    (' ', '')
    """
    return " " if tidy_spaces(before + " ", lang).endswith(" ") else ""


#: Events a game log leaves out: the next sentence tells the same in plainer words.
LOG_QUIET = frozenset({"TurnEnded", "DieRolled", "RegionHit"})
#: Removals already told by the event just before them (landfall, weakening, merging).
_TOLD_BEFORE = frozenset({"landfall", "weakened", "merged"})


def in_log(event: Event) -> bool:
    """Whether a narrated game log should show ``event`` (no repeats, no dice noise).

    >>> from typhoon_edu.engine import events as ev
    >>> in_log(ev.Landfall(1, 1, 0)), in_log(ev.TyphoonRemoved(1, "landfall", (6, 6)))
    (True, False)
    >>> in_log(ev.TyphoonRemoved(1, "edge", (15, 0)))
    True
    """
    if event.kind in LOG_QUIET:
        return False
    return not (event.kind == "TyphoonRemoved" and getattr(event, "reason", "") in _TOLD_BEFORE)


def error_text(exc: BaseException, lang: str = "en") -> str:
    """A translated sentence for an engine error that has a ``kind`` (save files, undo, bad input); otherwise its text.

    The catalog key is ``error.<group>.<kind>``: the group is the exception's ``catalog_group``
    (``input`` for :class:`~typhoon_edu.engine.rules.GameInputError`), else ``save`` for a
    ``SaveFileError`` and ``action`` for the rest; the exception's ``fields`` fill the placeholders.

    >>> from typhoon_edu.engine.rules import GameInputError, SaveFileError
    >>> error_text(SaveFileError("x", kind="not_json"), "zh-TW")
    '這個存檔不是有效的 JSON 檔，可能已經損壞。'
    >>> error_text(GameInputError("x", kind="player_count", count=2), "zh-TW")
    '「颱風不要來」要 3 到 5 位玩家；這裡有 2 位。'
    """
    kind = getattr(exc, "kind", "")
    group = getattr(exc, "catalog_group", "") or ("save" if type(exc).__name__ == "SaveFileError" else "action")
    key = f"error.{group}.{kind}"
    if not (kind and has(key, lang)):
        return str(exc)
    fields = getattr(exc, "fields", None)
    if not (isinstance(fields, Mapping) and fields):
        return t(key, lang)
    values = dict(fields)
    if "region" in values or "card" in values:
        from .engine.rules import load_rules

        rules = load_rules()
        if "region" in values:
            values["region"] = region_name(rules, str(values["region"]), lang)
        if "card" in values:
            values["card"] = card_name(rules, str(values["card"]), lang)
    return t(key, lang, **values)


def placeholders(text: str) -> frozenset[str]:
    """The ``{names}`` a catalog text expects.

    >>> sorted(placeholders("{player} drew {count} cards."))
    ['count', 'player']
    """
    return _placeholders(text)


@cache
def _placeholders(text: str) -> frozenset[str]:
    return frozenset(name for _, name, _, _ in string.Formatter().parse(text) if name)


def join_names(names: Iterable[str], lang: str = "en") -> str:
    """Join names as a sentence does: ``A, B and C`` / ``A、B和C``.

    >>> join_names(["Taiwan", "Japan", "Korea"])
    'Taiwan, Japan and Korea'
    >>> join_names(["臺灣", "日本"], "zh-TW")
    '臺灣和日本'
    """
    items = list(names)
    if len(items) <= 1:
        return "".join(items)
    return t("lang.list_sep", lang).join(items[:-1]) + t("lang.list_last", lang) + items[-1]


# --- names from the edition's data ------------------------------------------------------------


def _zh(lang: str) -> bool:
    return normalize_lang(lang) == "zh-TW"


def region_name(rules: Rules, key: str, lang: str = "en") -> str:
    """A region's name; unknown keys are returned unchanged.

    >>> from typhoon_edu.engine.rules import load_rules
    >>> region_name(load_rules(), "Central China"), region_name(load_rules(), "Central China", "zh-TW")
    ('Central China', '中國華中')
    """
    region = rules.regions.get(key)
    if region is None:
        return str(key)
    return region.name_zh if _zh(lang) else region.name


def level_name(rules: Rules, level: int, lang: str = "en") -> str:
    """The name of an intensity level 1–5.

    >>> from typhoon_edu.engine.rules import load_rules
    >>> level_name(load_rules(), 5), level_name(load_rules(), 5, "zh-TW")
    ('super typhoon', '超級強颱')
    """
    if not 1 <= int(level) <= len(rules.levels):
        return t("board.level_short", lang, level=level)
    lv = rules.level(int(level))
    return lv.name_zh if _zh(lang) else lv.name_en


def direction_name(rules: Rules, key: str, lang: str = "en") -> str:
    """A compass point's name (``NNW`` → ``north-northwest`` / ``北北西``).

    >>> from typhoon_edu.engine.rules import load_rules
    >>> direction_name(load_rules(), "NNW"), direction_name(load_rules(), "NNW", "zh-TW")
    ('north-northwest', '北北西')
    """
    point = rules.points.get(key)
    if point is None:
        return str(key)
    return point.name_zh if _zh(lang) else point.name_en


def card_name(rules: Rules, key: str, lang: str = "en") -> str:
    """A function card's name; an ability key gives the ability's name.

    >>> from typhoon_edu.engine.rules import load_rules
    >>> card_name(load_rules(), "warm_ocean", "zh-TW"), card_name(load_rules(), "westerlies")
    ('暖洋加溫', 'Westerlies')
    """
    card = rules.cards.get(key)
    if card is not None:
        return card.name_zh if _zh(lang) else card.name_en
    return ability_name(rules, key, lang)


def ability_name(rules: Rules, key: str, lang: str = "en") -> str:
    """A region ability's name, by ability key or region key.

    >>> from typhoon_edu.engine.rules import load_rules
    >>> ability_name(load_rules(), "Taiwan", "zh-TW")
    '中央山脈'
    """
    for region in rules.regions.values():
        if key in (region.ability.key, region.key):
            return region.ability.name_zh if _zh(lang) else region.ability.name_en
    return str(key)


def cause_name(rules: Rules, cause: str, lang: str = "en") -> str:
    """Why something changed: a card, an ability, or one of the game's own causes.

    >>> from typhoon_edu.engine.rules import load_rules
    >>> cause_name(load_rules(), "landfall", "zh-TW"), cause_name(load_rules(), "recurve")
    ('登陸', 'Recurve')
    """
    if has(f"cause.{cause}", lang):
        return t(f"cause.{cause}", lang)
    return card_name(rules, cause, lang)


def typhoon_label(typhoon: int | None, lang: str = "en") -> str:
    """How a typhoon is named on the board and in sentences.

    >>> typhoon_label(2), typhoon_label(None, "zh-TW")
    ('T2', '颱風')
    """
    if typhoon is None:
        return t("common.the_typhoon", lang)
    return t("common.typhoon", lang, id=typhoon)


def cell_label(cell: Any, lang: str = "en") -> str:
    """A cell as ``(x, y)``; ``None`` is off the map.

    >>> cell_label((8, 9)), cell_label(None, "zh-TW")
    ('(8, 9)', '地圖外')
    """
    if cell is None:
        return t("board.off_map", lang)
    x, y = cell
    return t("common.cell", lang, x=x, y=y)


# --- narration ---------------------------------------------------------------------------------


def _pick(base: str, count: int, lang: str) -> str:
    """``base_one`` when ``count`` is 1 and such a key exists, else ``base``."""
    return f"{base}_one" if count == 1 and has(f"{base}_one", lang) else base


def narrate(event: Event, lang: str = "en", rules: Rules | None = None) -> str:
    """One or two short sentences telling what ``event`` means, in ``lang``.

    >>> from typhoon_edu.engine import events as ev
    >>> narrate(ev.DirectionRolled(typhoon=1, start="N", face=3, stop="E"))
    'The compass indicator moves 3 stops clockwise, from north to east, so T1 heads east.'
    >>> narrate(ev.Landfall(typhoon=2, old=3, new=2), "zh-TW")
    'T2登陸了，從中度颱風減弱為輕度颱風。'
    >>> narrate(ev.DamageDealt("Taiwan", 1, hits=2, amount=11, bonus=1, hp=19))
    'T1 hit Taiwan 2 times: Taiwan loses 11 HP and now has 19. That includes +1 because the storm ended its move on Taiwan.'
    """
    if rules is None:
        from .engine.rules import load_rules

        rules = load_rules()
    lang = normalize_lang(lang)
    kind = type(event).__name__
    values = {f.name: getattr(event, f.name) for f in fields(event)}  # type: ignore[arg-type]
    handler = _HANDLERS.get(kind)
    if handler is None:
        # Events without special wording: the catalog sentence gets the generic names.
        return t(f"event.{kind}", lang, **_generic(rules, values, lang))
    return handler(rules, values, lang)


def _generic(rules: Rules, v: Mapping[str, Any], lang: str) -> dict[str, Any]:
    """Field values turned into names: players → region names, typhoons → T2, cells → (x, y)."""
    out: dict[str, Any] = dict(v)
    for name in ("player", "by", "start_player"):
        if name in v and isinstance(v[name], str):
            out[name] = region_name(rules, v[name], lang)
    for name in ("typhoon", "survivor", "absorbed"):
        if name in v:
            out[name] = typhoon_label(v[name], lang)
    for name in ("cell", "frm", "to"):
        if name in v:
            out[name] = cell_label(v[name], lang)
    for name in ("level",):
        if name in v and isinstance(v[name], int):
            out[name] = level_name(rules, v[name], lang)
    for name in ("direction",):
        if name in v and isinstance(v[name], str):
            out[name] = direction_name(rules, v[name], lang)
    if "card" in v and isinstance(v["card"], str):
        out["card"] = card_name(rules, v["card"], lang)
    if "cause" in v and isinstance(v["cause"], str):
        out["cause"] = cause_name(rules, v["cause"], lang)
    return out


def _sentences(*parts: str, lang: str) -> str:
    """A narrated event's sentences, each ending in its own mark (none between them in Chinese); feedback made of
    pieces uses :func:`join_sentences`."""
    joiner = "" if lang == "zh-TW" else " "
    return joiner.join(p for p in parts if p)


def _game_started(rules: Rules, v: Mapping[str, Any], lang: str) -> str:
    variant = t(f"variant.{v['variant']}", lang) if has(f"variant.{v['variant']}", lang) else str(v["variant"])
    players = join_names((region_name(rules, p, lang) for p in v["players"]), lang)
    return t("event.GameStarted", lang, variant=variant, players=players, start=region_name(rules, v["start"], lang))


def _deck_reshuffled(rules: Rules, v: Mapping[str, Any], lang: str) -> str:
    return t("event.DeckReshuffled_under" if v["under"] else "event.DeckReshuffled_new", lang, cards=v["cards"])


def _cards_drawn(rules: Rules, v: Mapping[str, Any], lang: str) -> str:
    g = _generic(rules, v, lang)
    main = t(_pick("event.CardsDrawn", v["count"], lang), lang, player=g["player"], count=v["count"])
    lost = t(_pick("event.CardsDrawn_lost", v["lost"], lang), lang, lost=v["lost"]) if v.get("lost") else ""
    return _sentences(main, lost, lang=lang)


def _die_rolled(rules: Rules, v: Mapping[str, Any], lang: str) -> str:
    typhoon = typhoon_label(v.get("typhoon"), lang)
    key = f"purpose.{v['purpose']}"
    purpose = t(key, lang, typhoon=typhoon) if has(key, lang) else str(v["purpose"])
    return t("event.DieRolled", lang, face=v["face"], purpose=purpose)


def _direction_rolled(rules: Rules, v: Mapping[str, Any], lang: str) -> str:
    return t(
        _pick("event.DirectionRolled", v["face"], lang), lang, face=v["face"], typhoon=typhoon_label(v["typhoon"], lang),
        start=direction_name(rules, v["start"], lang), stop=direction_name(rules, v["stop"], lang),
    )


def _card_played(rules: Rules, v: Mapping[str, Any], lang: str) -> str:
    g = _generic(rules, v, lang)
    if v.get("counter"):
        key = "event.CardPlayed_counter"
    elif v.get("typhoon") is not None:
        key = "event.CardPlayed_typhoon"
    elif v.get("cell") is not None:
        key = "event.CardPlayed_cell"
    else:
        key = "event.CardPlayed"
    parts = [t(key, lang, player=g["player"], card=g["card"], typhoon=g["typhoon"], cell=g["cell"])]
    if v.get("direction"):  # a counter card's event names no typhoon: it turns the one moving
        key = "event.CardPlayed_direction" if v.get("typhoon") is not None else "event.CardPlayed_direction_moving"
        parts.append(t(key, lang, typhoon=g["typhoon"], direction=g["direction"]))
    if v.get("restricted"):
        parts.append(t("event.CardPlayed_restricted", lang, player=g["player"]))
    return _sentences(*parts, lang=lang)


def _ability_used(rules: Rules, v: Mapping[str, Any], lang: str) -> str:
    g = _generic(rules, v, lang)
    key = "event.AbilityUsed_typhoon" if v.get("typhoon") is not None else "event.AbilityUsed"
    return t(key, lang, player=g["player"], typhoon=g["typhoon"], ability=ability_name(rules, v["ability"], lang))


def _passed(rules: Rules, v: Mapping[str, Any], lang: str) -> str:
    return t("event.Passed_counter" if v.get("counter") else "event.Passed", lang, player=region_name(rules, v["player"], lang))


def _level_changed(rules: Rules, v: Mapping[str, Any], lang: str) -> str:
    g = _generic(rules, v, lang)
    old, new = v["old"], v["new"]
    key = "event.LevelChanged_gone" if new < 1 else ("event.LevelChanged_up" if new > old else "event.LevelChanged_down")
    return t(key, lang, typhoon=g["typhoon"], old=level_name(rules, old, lang), new=level_name(rules, max(new, 1), lang), cause=g["cause"])


def _direction_changed(rules: Rules, v: Mapping[str, Any], lang: str) -> str:
    g = _generic(rules, v, lang)
    return t(
        "event.DirectionChanged", lang, typhoon=g["typhoon"], cause=g["cause"],
        old=direction_name(rules, v["old"], lang), new=direction_name(rules, v["new"], lang),
    )


def _roll_modified(rules: Rules, v: Mapping[str, Any], lang: str) -> str:
    delta = t("common.signed", lang, sign="+" if v["delta"] >= 0 else "−", value=abs(v["delta"]))
    main = t("event.RollModified", lang, typhoon=typhoon_label(v["typhoon"], lang), delta=delta)
    return _sentences(main, t("event.RollModified_replaced", lang) if v.get("replaced") else "", lang=lang)


def _shield_name(rules: Rules, player: str, shield: str, lang: str) -> str:
    """A shield is named by the ability that raised it; the engine may give its effect kind."""
    region = rules.regions.get(player)
    if region is not None and shield in (region.ability.key, region.ability.effect.kind):
        return ability_name(rules, region.ability.key, lang)
    for other in rules.regions.values():
        if shield == other.ability.effect.kind:
            return ability_name(rules, other.ability.key, lang)
    return card_name(rules, shield, lang)


def _shield_raised(rules: Rules, v: Mapping[str, Any], lang: str) -> str:
    return t("event.ShieldRaised", lang, player=region_name(rules, v["player"], lang),
             shield=_shield_name(rules, v["player"], v["shield"], lang))


def _typhoon_pushed(rules: Rules, v: Mapping[str, Any], lang: str) -> str:
    g = _generic(rules, v, lang)
    key = "event.TyphoonPushed" if v["to"] is not None else "event.TyphoonPushed_off"
    return t(key, lang, typhoon=g["typhoon"], frm=g["frm"], to=g["to"])


def _move_started(rules: Rules, v: Mapping[str, Any], lang: str) -> str:
    typhoon = typhoon_label(v["typhoon"], lang)
    if v.get("held"):
        return t("event.MoveStarted_held", lang, typhoon=typhoon)
    return t(_pick("event.MoveStarted", v["steps"], lang), lang, typhoon=typhoon, steps=v["steps"], face=v["face"])


def _typhoon_stepped(rules: Rules, v: Mapping[str, Any], lang: str) -> str:
    g = _generic(rules, v, lang)
    letter = t(f"letter.{v['letter']}", lang) if has(f"letter.{v['letter']}", lang) else str(v["letter"])
    key = "event.TyphoonStepped" if v["to"] is not None else "event.TyphoonStepped_off"
    return t(key, lang, step=v["step"], typhoon=g["typhoon"], letter=letter, to=g["to"])


def _region_hit(rules: Rules, v: Mapping[str, Any], lang: str) -> str:
    g = _generic(rules, v, lang)
    return t(_pick("event.RegionHit", v["hits"], lang), lang, typhoon=g["typhoon"], level=g["level"], hits=v["hits"], player=g["player"])


def _damage_dealt(rules: Rules, v: Mapping[str, Any], lang: str) -> str:
    g = _generic(rules, v, lang)
    parts = [
        t(_pick("event.DamageDealt", v["hits"], lang), lang, typhoon=g["typhoon"], player=g["player"],
          hits=v["hits"], amount=v["amount"], hp=v["hp"])
    ]
    if v.get("bonus"):
        parts.append(t("event.DamageDealt_bonus", lang, bonus=v["bonus"], player=g["player"]))
    modifier = v.get("modifier")
    if modifier in ("cancelled", "halved"):
        parts.append(t(f"event.DamageDealt_{modifier}", lang))
    elif modifier:
        parts.append(t("event.DamageDealt_shield", lang, shield=_shield_name(rules, v["player"], modifier, lang)))
    return _sentences(*parts, lang=lang)


def _landfall(rules: Rules, v: Mapping[str, Any], lang: str) -> str:
    typhoon = typhoon_label(v["typhoon"], lang)
    if v["new"] < 1:
        return t("event.Landfall_gone", lang, typhoon=typhoon)
    return t("event.Landfall", lang, typhoon=typhoon, old=level_name(rules, v["old"], lang), new=level_name(rules, v["new"], lang))


def _merged(rules: Rules, v: Mapping[str, Any], lang: str) -> str:
    g = _generic(rules, v, lang)
    return t("event.Merged", lang, absorbed=g["absorbed"], survivor=g["survivor"], level=g["level"], direction=g["direction"])


def _typhoon_removed(rules: Rules, v: Mapping[str, Any], lang: str) -> str:
    key = f"event.TyphoonRemoved_{v['reason']}"
    return t(key if has(key, lang) else "event.TyphoonRemoved", lang, typhoon=typhoon_label(v["typhoon"], lang))


def _game_over(rules: Rules, v: Mapping[str, Any], lang: str) -> str:
    winners = list(v["winners"])
    names = join_names((region_name(rules, w, lang) for w in winners), lang)
    reason = v["reason"]
    if reason == "rounds":
        key = _pick("event.GameOver_rounds", len(winners), lang)
    elif reason == "last_standing":
        key = "event.GameOver_last_standing" if len(winners) == 1 else "event.GameOver_last_standing_many"
    elif reason == "all_out":
        key = "event.GameOver_all_out"
    else:
        key = "event.GameOver"
    return t(key, lang, winners=names)


_HANDLERS = {
    "GameStarted": _game_started,
    "DeckReshuffled": _deck_reshuffled,
    "CardsDrawn": _cards_drawn,
    "DieRolled": _die_rolled,
    "DirectionRolled": _direction_rolled,
    "CardPlayed": _card_played,
    "AbilityUsed": _ability_used,
    "Passed": _passed,
    "LevelChanged": _level_changed,
    "DirectionChanged": _direction_changed,
    "RollModified": _roll_modified,
    "ShieldRaised": _shield_raised,
    "TyphoonPushed": _typhoon_pushed,
    "MoveStarted": _move_started,
    "TyphoonStepped": _typhoon_stepped,
    "RegionHit": _region_hit,
    "DamageDealt": _damage_dealt,
    "Landfall": _landfall,
    "Merged": _merged,
    "TyphoonRemoved": _typhoon_removed,
    "GameOver": _game_over,
}
