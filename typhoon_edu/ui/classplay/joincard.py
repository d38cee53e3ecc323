"""Join cards: a QR code, a link and the room code for each person seat, on the projector.

A phone's camera opens the seat's own link (its device token in the query string); a device
without a camera types the short address and the room code, then picks its seat. Every link is
an ``<a class="typhoon-join-link" data-region="…">`` so that tests (and people) can follow it.

>>> card = join_card_html(region="Taiwan", label="Mei · Taiwan", url="http://127.0.0.1:8866/?seat=abc",
...                       short_url="127.0.0.1:8866/join", code="K7Q2M", lang="en", joined=False)
>>> 'class="typhoon-join-link"' in card and 'data-region="Taiwan"' in card and "<svg" in card
True
>>> '<div class="typhoon-join-card-address">127.0.0.1:8866/<wbr>join</div>' in card
True
>>> qr_svg("http://x/?seat=1").startswith("<svg")
True
"""

from __future__ import annotations

from functools import lru_cache
from html import escape

from ... import i18n
from .theme import PHONE_MEDIA


@lru_cache(maxsize=64)
def qr_svg(url: str, scale: int = 4) -> str:
    """An inline SVG QR code for ``url`` (segno; error correction M, so a projected code still scans)."""
    import segno

    return segno.make(url, error="m", micro=False).svg_inline(scale=scale, border=2, dark="#0f172a", light="#ffffff",
                                                                   omitsize=True)


#: The lobby's own styles, all of them (the cards' boxes and type): the room code and the typed address are read
#: from the back row (the room code at least 64 px at 1920×1080; the address and code on every card in large type),
#: and on a projector every team's card shares one row, each QR code as large as the row's width and the window's height
#: that is left allow.
JOIN_CSS = """<style>
.typhoon-join-grid .widget-html-content { display: flex; flex-wrap: wrap; gap: .8rem; }
.typhoon-join-card { border: 4px solid #0ea5e9; border-radius: 12px; padding: .5rem .7rem; width: 16.5rem; background: #fff;
  box-shadow: 0 0 0 1px #64748b; }  /* the ring shows a card whose region colour is pale (Japan) */
.typhoon-join-card.typhoon-joined { opacity: .7; border-style: dashed; }
.typhoon-join-card .typhoon-join-away { color: #991b1b; font-weight: bold; white-space: normal; }
.typhoon-join-card.typhoon-joined:has(.typhoon-join-away) { opacity: 1; }  /* a team gone quiet stands out */
.typhoon-join-head { font-size: 1.1rem; margin-bottom: .2rem; }
.typhoon-join-qr svg { width: 100%; height: auto; display: block; }
.typhoon-join-card .typhoon-join-head, .typhoon-join-card a, .typhoon-join-typed { line-height: 1.3; }
.typhoon-join-link { font-weight: bold; }
.typhoon-lobby-head .typhoon-room-chip { font-size: max(64px, 4.6rem); line-height: 1.05; letter-spacing: .08em;
  padding: .05em .3em; display: inline-block; vertical-align: middle; }
.typhoon-lobby-head div { line-height: 1.35; }
.typhoon-join-typed { font-size: 1rem; color: #334155; margin-top: .3rem; }
.typhoon-join-head span { white-space: nowrap; }  /* "scan to join" (掃描加入) is never split */
.typhoon-join-card-address, .typhoon-join-card-code { font-weight: 800; color: #0f172a; line-height: 1.15;
  overflow-wrap: anywhere; }
.typhoon-join-card-address { font-size: 1.55rem; }
.typhoon-join-card-code { font-size: 2.2rem; letter-spacing: .08em; }
""" + PHONE_MEDIA + """ {
  .typhoon-join-card { width: 100%; }  /* a phone: one card a row, as wide as the screen (its address on one line) */
}
@media (min-width: 901px) {
  /* a projector, whatever its size: every team's card on one row above the button (five teams at 1366 or 1024
     px wide wrapped onto a second row, below the window), each card as wide as the row allows, up to 26rem; the
     row takes the window's height that is left, and each QR code as much of it as its card's width allows (to be
     scanned from a seat), never less than 9rem. The code's box counts as 9rem tall in a card's smallest height (its
     own height is 0 plus what it is given), so the row is never lower than its cards' words and a 9rem code: in a
     short window the lobby scrolls, and no card's words run under the button */
  .typhoon-lobby > .typhoon-join-grid { flex: 1 1 auto !important; display: flex; }
  .typhoon-join-grid .widget-html-content { flex-wrap: nowrap; height: 100%; align-items: stretch; }
  .typhoon-join-grid .typhoon-join-card { width: auto; flex: 1 1 0; min-width: 0; max-width: 26rem; display: flex;
    flex-direction: column; }
  .typhoon-join-grid .typhoon-join-qr { flex: 1 1 0; height: 0; min-height: 9rem; overflow: hidden; display: flex;
    justify-content: center; }
  .typhoon-join-qr svg { height: 100%; width: auto; max-width: 100%; }
}
@media (min-width: 1700px) {
  /* the back row reads the small print too; the cards may be wider (two teams' QR codes ~510 px at 1920x1080) */
  .typhoon-join-grid .typhoon-join-card { max-width: 34rem; }
  .typhoon-lobby-head div { font-size: 1.4rem; }
  .typhoon-join-grid .widget-html-content { gap: 1.2rem; }
  .typhoon-join-head { font-size: 1.4rem; }
  .typhoon-join-typed { font-size: 1.3rem; }
}
</style>"""


def join_card_html(*, region: str, label: str, url: str, short_url: str, code: str, lang: str,
                   joined: bool, colour: str = "#0ea5e9", qr: bool = True, no_link: bool = False,
                   away: str = "") -> str:
    """One seat's join card: its QR code, its link, and how to join by typing (the short address
    ``…/join`` and the room code, both in large type). ``no_link``: the seat's link cannot be shown
    (made on another computer, or joined by code and then freed): the teacher makes a new one.
    ``away``: a joined seat whose device has not been seen for a while, in words ("not seen for 2 min").

    >>> html = join_card_html(region="Japan", label="Ken", url="?seat=x", short_url="h/join", code="ABCDE", lang="en",
    ...                       joined=True, away="not seen for 2 min")
    >>> "device joined · not seen for 2 min" in html, "typhoon-join-away" in html
    (True, True)
    """
    state = i18n.t("classplay.join.joined" if joined else "classplay.join.waiting", lang)
    away_class = ""
    if joined and away:
        state = f"{i18n.t('classplay.teacher.joined', lang)} · {away}"
        away_class = ' class="typhoon-join-away"'
    if no_link and not joined:
        state, qr, url = i18n.t("classplay.join.no_link", lang), False, ""
    typed = i18n.t("classplay.join.typed", lang, address=short_url, code=code)
    code_svg = qr_svg(url) if qr and not joined else ""
    return (f'<div class="typhoon-join-card{" typhoon-joined" if joined else ""}" data-region="{escape(region)}" '
            f'style="border-color:{escape(colour)}">'
            f'<div class="typhoon-join-head"><b>{escape(label)}</b> · '
            f'<span{away_class}>{escape(state)}</span></div>'
            f'<div class="typhoon-join-qr">{code_svg}</div>'
            + (f'<a class="typhoon-join-link" data-region="{escape(region)}" href="{escape(url)}" target="_blank" '
               f'rel="noopener" aria-label="{escape(i18n.t("classplay.join.open_named", lang, team=label))}">'
               f'{escape(i18n.t("classplay.join.open", lang))}</a>' if url else "")
            + f'<div class="typhoon-join-by-code" title="{escape(typed)}">'
            f'<div class="typhoon-join-typed">{escape(i18n.t("classplay.join.no_camera", lang))}</div>'
            f'<div class="typhoon-join-card-address">{escape(short_url).replace("/", "/<wbr>")}</div>'
            f'<div class="typhoon-join-typed">{escape(i18n.t("classplay.join.and_type", lang))}</div>'
            f'<div class="typhoon-join-card-code">{escape(code)}</div></div></div>')
