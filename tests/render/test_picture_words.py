"""The words inside the pictures, in the five languages (issue 28; docs/languages.md).

* Each picture kind — the board's legend and key, the hand, the ticket offer, the final score
  sheet, the stats card, the tickets map — drawn in every language lays out every text inside
  the picture (the legend's inside the legend) without one text overlapping another, and no
  word of it is left in English.
* Every word a picture asks for is a `picture.` entry of the catalogues, and every letter of
  every catalogue's picture words has a glyph in the fonts render/ ships.
* A table's pictures are drawn in the table's language, a private picture in its reader's; an
  English picture is drawn from no catalogue at all (the English goldens stay as they are).
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterator, Mapping
from functools import cache

import pytest
from PIL import Image, ImageDraw

from bot_app import lang
from bot_app.lang.pictures import PREFIX, picture_words
from bot_app.presentation.render_hooks import _reader, _table
from render.board import render_board
from render.hand import render_hand
from render.offer import render_offer
from render.scores import render_scores
from render.stats import StatsCard, render_stats
from render.text import FONT_FILES, TextItem, font
from render.tickets import render_tickets
from render.words import ENGLISH, PictureWords, tr_n, use
from tools.samples import sample_offer, sample_view

LANGUAGES = lang.codes()
# one map per language, as the goldens pair them (English: a dice table, the most words)
BOARD_OF = {"en": "europe", "de": "germany", "fr": "alsace", "ru": "ussr", "sv": "nordic"}


class _Asked(Mapping[str, str]):
    """A language's entries that remember every key a picture asked for."""

    def __init__(self, entries: Mapping[str, object]) -> None:
        self.entries = entries
        self.asked: set[str] = set()

    def __getitem__(self, key: str):  # type: ignore[override]
        self.asked.add(key)
        return self.entries[key]

    def get(self, key: str, default: object = None):  # type: ignore[override]
        self.asked.add(key)
        return self.entries.get(key, default)

    def __iter__(self) -> Iterator[str]:
        return iter(self.entries)

    def __len__(self) -> int:
        return len(self.entries)


@cache
def _english_keys() -> frozenset[str]:
    return frozenset(k for k in _catalogue_keys() if k.startswith(PREFIX))


def _catalogue_keys() -> list[str]:
    from bot_app.lang import _compiled

    return [k[0] if isinstance(k, tuple) else k for k in _compiled("en")._catalog]


def _english_words() -> set[str]:
    """Every English picture word with nothing filled in ("Final scores", "tunnel")."""
    en = lang.english()
    return {en.raw(key) for key in _english_keys() if not lang.placeholders(en.raw(key))}


def _words(code: str) -> tuple[PictureWords, _Asked]:
    resolved = picture_words(code)
    asked, plurals = _Asked(resolved.entries), _Asked(resolved.plurals)  # type: ignore[arg-type]
    plurals.asked = asked.asked  # one record of the keys asked for
    return PictureWords(resolved.code, asked, plurals, resolved.forms), asked  # type: ignore[arg-type]


def _fits(texts: tuple[TextItem, ...] | list[TextItem], box: tuple[int, int, int, int], where: set[str]) -> None:
    """Each text of these parts inside `box`, none overlapping another."""
    mine = [t for t in texts if t.where in where]
    assert mine
    x0, y0, x1, y1 = box
    for t in mine:
        assert x0 <= t.box[0] and t.box[2] <= x1 and y0 <= t.box[1] and t.box[3] <= y1, f"{t.text!r} is cut: {t}"
    for a, b in itertools.combinations(mine, 2):
        overlap = a.box[0] < b.box[2] and b.box[0] < a.box[2] and a.box[1] < b.box[3] and b.box[1] < a.box[3]
        assert not overlap, f"{a.text!r} overlaps {b.text!r}"


def _translated(code: str, texts: tuple[TextItem, ...] | list[TextItem], asked: _Asked) -> None:
    """No English picture word left in a picture of another language, and every word asked
    for is a catalogue entry."""
    keys = set(asked.asked)
    assert keys and keys <= _english_keys(), sorted(keys - _english_keys())
    words = set(picture_words(code).entries.values()) | _english_words()
    cut = sorted(t.text for t in texts if t.text.endswith("…") and any(w.startswith(t.text[:-1]) for w in words))
    assert cut == [], f"picture words cut short in {code}: {cut}"
    if code == "en":
        return
    own = {v for v in picture_words(code).entries.values()}
    english = _english_words() - own  # words the same in both ("Total", "Globetrotter") are fine
    left = sorted({t.text for t in texts} & english)
    assert left == [], f"English words in a {code} picture: {left}"


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_board_legend_and_key_fit_in_every_language(code: str) -> None:
    map_id = BOARD_OF.get(code, "europe")
    v = sample_view(map_id, players=5 if map_id != "nordic" else 3, seed=3, dice=map_id == "europe")
    words, asked = _words(code)
    with use(words):
        pic = render_board(v, width=800)
    _fits(pic.texts, pic.base.layout.legend_box, {"legend", "key"})
    _translated(code, pic.texts, asked)


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_hand_fits_in_every_language(code: str) -> None:
    words, asked = _words(code)
    texts: list[TextItem] = []
    for map_id, dice in (("alsace", False), ("europe", True)):  # tourist cards; dice and tokens
        with use(words):
            pic = render_hand(sample_view(map_id, players=3, seed=21, seat=1, dice=dice, claimed_share=0.3))
        _fits(pic.texts, (0, 0, pic.image.width, pic.image.height), {"hand"})
        texts += pic.texts
    _translated(code, texts, asked)


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_ticket_offer_fits_in_every_language(code: str) -> None:
    words, asked = _words(code)
    with use(words):
        pic = render_offer(sample_offer("germany", players=3, seed=4, seat=1, cards=4))
    _fits(pic.texts, (0, 0, pic.image.width, pic.image.height), {"offer"})
    _translated(code, pic.texts, asked)


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_final_sheet_fits_in_every_language(code: str) -> None:
    words, asked = _words(code)
    texts: list[TextItem] = []
    for map_id in ("alsace", "ussr"):  # Alsace's bonus list; the USSR's long bonus names as columns
        with use(words):
            pic = render_scores(sample_view(map_id, players=5, seed=5, over=True))
        _fits(pic.texts, (0, 0, pic.image.width, pic.image.height), {"sheet"})
        texts += pic.texts
    _translated(code, texts, asked)


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_stats_card_and_the_tickets_map_fit_in_every_language(code: str) -> None:
    words, asked = _words(code)
    card = StatsCard("Ada", 12, 5, 88.5, 131, 30, 9, routes=(("Berlin – Wien", 4),), cities=(),
                     variants=(("Europe", 8, 4), ("Germany", 4, 1)), where="here")
    with use(words):
        stats = render_stats(card, width=800)
        tickets = render_tickets(sample_view("nordic", players=3, seed=5, over=True), width=1000)
    _fits(stats.texts, (0, 0, stats.image.width, stats.image.height), {"stats"})
    _fits(tickets.texts, (0, 0, tickets.image.width, tickets.image.height), {"tickets"})
    _translated(code, [*stats.texts, *tickets.texts], asked)


def test_every_letter_of_the_picture_words_has_a_glyph() -> None:
    letters = {ch for code in LANGUAGES for text in picture_words(code).entries.values() for ch in text}
    letters |= {ch for key in _english_keys() for ch in lang.english().raw(key)}
    for weight in FONT_FILES:
        fnt = font(20, weight)
        missing = _drawn("\ue000", fnt)  # a private-use letter: the font's empty box
        lost = sorted(ch for ch in letters - {" "} if _drawn(ch, fnt) == missing)
        assert lost == [], f"{weight}: no glyph for {lost}"


def _drawn(ch: str, fnt) -> bytes:
    img = Image.new("L", (40, 40), 0)
    ImageDraw.Draw(img).text((5, 5), ch, font=fnt, fill=255)
    return img.tobytes()


def test_a_tables_pictures_are_in_its_language_and_a_hand_in_its_readers() -> None:
    german_table = dataclasses.replace(sample_view("germany", players=3, seed=3), options={"language": "de"})
    assert _table(german_table).code == "de"
    assert _reader(german_table).code == "de"  # a DM with no choice of its own: the table's
    with lang.reading(lang.language("sv")):
        assert _reader(german_table).code == "sv"  # answering a Swedish reader
        assert _table(german_table).code == "de"  # the thread stays German
    assert picture_words("en") is ENGLISH and ENGLISH.entries == {}


def test_a_count_reads_in_its_languages_plural_form_however_large() -> None:
    with use(picture_words("ru")):
        said = [tr_n("picture.hand.trains", n, "{n} trains", "{n} trains") for n in (1, 3, 5, 21, 45, 111, 122)]
    assert said == ["1 вагон", "3 вагона", "5 вагонов", "21 вагон", "45 вагонов", "111 вагонов", "122 вагона"]
    with use(picture_words("fr")):
        assert tr_n("picture.badge.tickets", 0, "{n} ticket", "{n} tickets") == "0 billet"  # French: 0 is singular
    assert tr_n("picture.badge.tickets", 0, "{n} ticket", "{n} tickets") == "0 tickets"


def test_the_renderer_sends_the_words_with_the_job() -> None:
    """Through the real renderer and its pool: a Swedish table's board is the board drawn in
    Swedish, not the English one; a hand asked for by a German reader is drawn in German."""
    import asyncio

    from bot_app.presentation.render_hooks import Renderer
    from render.pool import RenderPool

    table = dataclasses.replace(sample_view("nordic", players=3, seed=3), options={"language": "sv"})
    mine = dataclasses.replace(sample_view("nordic", players=3, seed=3, seat=1), options={"language": "sv"})
    renderer = Renderer(RenderPool(1, processes=False, prepare=()))

    async def draw() -> tuple[bytes, bytes]:
        board = await renderer.board(table)
        with lang.reading(lang.language("de")):
            hand = await renderer.hand(mine)
        return board, hand

    try:
        board, hand = asyncio.run(draw())
    finally:
        renderer.pool.close()  # type: ignore[union-attr]
    with use(picture_words("sv")):
        assert board == render_board(table).png
    assert board != render_board(table).png  # English
    with use(picture_words("de")):
        assert hand == render_hand(mine).png
