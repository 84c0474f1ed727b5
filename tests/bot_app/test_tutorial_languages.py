"""The tutorial lessons in every language (issue 28): each lesson's words are one more TOML file
beside it (`usa.de.toml`); every step has its words in every language, with the same
placeholders; a lesson without a language's file reads in English; a tutorial is played in the
language of its table (the player's, when they opened it)."""

from __future__ import annotations

import shutil
import string
import tomllib

from app import tutorial
from bot_app import lang
from bot_app.presentation.tutorial import step_text
from tests.english_leftovers import english_leftovers

FIELDS = ("intro", "finale")


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_lesson_step_has_its_words_in_every_language_with_the_same_placeholders():
    for lesson_id, english in tutorial.lessons().items():
        files = tutorial.translations(lesson_id)
        assert set(files) == set(lang.codes()) - {lang.ENGLISH}, lesson_id
        for code, path in files.items():
            data = tomllib.loads(path.read_text(encoding="utf-8"))
            assert set(data["steps"]) == {s.id for s in english.steps}, (lesson_id, code)  # no step unknown
            for field in FIELDS:
                assert data[field].strip() and _fields(data[field]) == _fields(getattr(english, field))
            for step in english.steps:
                own = data["steps"][step.id]
                for field in tutorial.TEXT_FIELDS:
                    words = getattr(step, field)
                    if words:  # what English says, the language says, with the same placeholders
                        assert own.get(field, "").strip(), (lesson_id, code, step.id, field)
                        assert _fields(own[field]) == _fields(words), (lesson_id, code, step.id, field)
                        assert own[field].strip() != words, (lesson_id, code, step.id, field)  # translated


def test_no_lesson_text_leaves_an_english_word():
    for lesson_id, english in tutorial.lessons().items():
        for code in set(lang.codes()) - {lang.ENGLISH}:
            lesson = tutorial.lessons(code)[lesson_id]
            texts = [lesson.intro, lesson.finale, *(getattr(s, f) for s in lesson.steps for f in tutorial.TEXT_FIELDS)]
            for text in filter(None, texts):
                assert not english_leftovers(text, code, english.variant), (lesson_id, code, text)


def test_a_lesson_is_read_in_its_tables_language():
    german = tutorial.lesson_of({"tutorial": "usa", "language": "de"})
    assert german is not None and german.language == "de"
    assert german.steps[1].say.startswith("**Zieh Wagenkarten.**")
    assert [s.expect for s in german.steps] == [s.expect for s in tutorial.lessons()["usa"].steps]
    text = step_text(german, 1)
    assert text.startswith("📘 **Lernspiel · Schritt 2 von 6** — **Zieh Wagenkarten.**") and "*Warum:*" in text
    assert tutorial.lesson_of({"tutorial": "usa"}).language == "en"  # a table from before languages


def test_a_lesson_without_a_languages_file_reads_in_english_and_a_missing_field_too(tmp_path, monkeypatch):
    for name in ("usa.toml", "usa.de.toml"):
        shutil.copy(tutorial.LESSON_DIRS[0] / name, tmp_path / name)
    data = (tmp_path / "usa.de.toml").read_text(encoding="utf-8")
    start = data.index("[steps.draw]")
    (tmp_path / "usa.de.toml").write_text(data[:start] + data[data.index("[steps.claim]"):], encoding="utf-8")
    monkeypatch.setattr(tutorial, "LESSON_DIRS", [tmp_path])
    english = tutorial.lessons()["usa"]
    assert tutorial.lessons("fr")["usa"] == english  # no French file: all English
    german = tutorial.lessons("de")["usa"]
    assert german.steps[1] == english.steps[1]  # the draw step's words left out: English
    assert german.steps[0].say.startswith("**Wähle deine Zielkarten.**")
    assert step_text(tutorial.lessons("fr")["usa"], 0).startswith("Welcome to Ticket to Ride!")


def test_a_move_off_the_step_is_refused_in_the_lessons_language():
    from engine.actions import DrawCard, DrawTickets
    from engine.maps import load_map

    french = tutorial.lesson_of({"tutorial": "usa", "language": "fr"})
    assert french is not None
    said = tutorial.wrong_move(french, 1, DrawTickets(0), [DrawCard(0), DrawTickets(0)], load_map("usa"))
    assert said == "Pas encore : cette étape consiste à piocher une carte Wagon — appuyez sur **Piocher** ou " \
                   "utilisez `/ttr piocher`."
