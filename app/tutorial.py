"""Guided first games (`/ttr rules lesson:`): the lessons, and where a player stands in one.

A lesson is a data file in `app/tutorials/` (one per board or variant; adding a lesson is
adding a file): the rule set it is played on, the seed that deals it (so its situations —
a tunnel, a station — come up), the computer opponent's level, and its steps. Each step says
what to do and why, and names the kinds of move that complete it (`expect`).

A tutorial is a real stored game whose table option `tutorial` names its lesson. Where the
player stands is never kept in memory: it is folded from the game's log (the player's own
moves, in order), so a restart or a week's pause resumes at the same step. A move that does
not fit the step is refused in one kind sentence before it is applied — but only while a move
that fits is legal: when the player cannot claim yet, drawing cards is what they should do.

A lesson's words in another language are one more file beside it, `<lesson>.<code>.toml`
(`usa.de.toml`): its `title`, `intro`, `finale` and, per step id, `[steps.<id>]` `say`, `why`
and `wrong` — words only; the moves, seed and order stay in the English file. A field (or a
file) a translation lacks reads in English. A tutorial is played in its table's `language`
option (the reader's language when it was opened): `lesson_of` gives the lesson in it.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import Any

from engine.actions import Action, BuildStation, ClaimRoute
from engine.maps import GameMap

TUTORIAL = "tutorial"  # the table option: the lesson's id (not a rule; no rule reads it)
HINTS = "hints"  # the table option: a player may ask what the normal AI would do
NOTICE_KIND = "notice"  # app.owed's NOTICE: told in the game's thread
NOTICE = "tutorial"  # the notice's payload["notice"]
FINALE = "finale"  # the key of the notice at the game's end
LESSON_DIRS: list[Path] = [Path(__file__).with_name("tutorials")]
# Move kinds a step may expect beyond the engine's action types.
TUNNEL, ROUTE, STATION = "tunnel", "route", "station"
LANGUAGE = "language"  # the table option holding the game's language (engine/rulesets COMMON_OPTIONS)
ENGLISH = "en"
TEXT_FIELDS = ("say", "why", "wrong")  # a step's words (what a translation may give)


@dataclass(frozen=True)
class Step:
    """One step of a lesson: what to do (`say`), why it matters (`why`), the move kinds that
    complete it (`expect`; empty: the step is read, not played), and the sentence for a move
    that does not fit (`wrong`)."""

    id: str
    say: str
    why: str = ""
    expect: tuple[str, ...] = ()
    wrong: str = ""


@dataclass(frozen=True)
class Lesson:
    """A lesson file, read."""

    id: str
    variant: str
    title: str
    seed: int
    opponent: str
    options: Mapping[str, Any]
    intro: str
    steps: tuple[Step, ...]
    finale: str
    language: str = ENGLISH

    def step(self, index: int) -> Step | None:
        """The step at `index` (None: the lesson is done, the game plays on)."""
        return self.steps[index] if 0 <= index < len(self.steps) else None


def _lesson(path: Path) -> Lesson:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    steps = tuple(Step(id=str(s["id"]), say=str(s["say"]).strip(), why=str(s.get("why", "")).strip(),
                       expect=tuple(str(k) for k in s.get("expect", ())), wrong=str(s.get("wrong", "")).strip())
                  for s in data.get("steps", ()))
    return Lesson(id=path.stem, variant=str(data["variant"]), title=str(data.get("title", path.stem)),
                  seed=int(data["seed"]), opponent=str(data.get("opponent", "normal")),
                  options=dict(data.get("options", {})), intro=str(data.get("intro", "")).strip(), steps=steps,
                  finale=str(data.get("finale", "")).strip())


def _translated(lesson: Lesson, path: Path) -> Lesson:
    """`lesson` with the words of the translation file at `path` (a field it lacks: English)."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    own = data.get("steps", {})

    def word(values: Mapping[str, Any], key: str, english: str) -> str:
        text = str(values.get(key, "")).strip()
        return text or english

    steps = tuple(Step(id=s.id, expect=s.expect,
                       **{f: word(own.get(s.id, {}), f, getattr(s, f)) for f in TEXT_FIELDS})
                  for s in lesson.steps)
    return replace(lesson, title=word(data, "title", lesson.title), intro=word(data, "intro", lesson.intro),
                   finale=word(data, "finale", lesson.finale), steps=steps, language=path.stem.split(".", 1)[1])


def lessons(language: str = ENGLISH) -> dict[str, Lesson]:
    """Every lesson, by id (its file's name), in the order of their files' names; in
    `language` where a translation file has its words."""
    return dict(_lessons(tuple(LESSON_DIRS), language))


def translations(lesson_id: str) -> dict[str, Path]:
    """The translation files of a lesson, by language code."""
    return {p.stem.split(".", 1)[1]: p for d in LESSON_DIRS if d.is_dir()
            for p in sorted(d.glob(f"{lesson_id}.*.toml"))}


@cache
def _lessons(dirs: tuple[Path, ...], language: str) -> tuple[tuple[str, Lesson], ...]:
    # A file named with a dot (`usa.de.toml`) is a translation, not a lesson.
    found = sorted((p for d in dirs if d.is_dir() for p in d.glob("*.toml") if "." not in p.stem),
                   key=lambda p: p.stem)
    out = []
    for p in found:
        lesson = _lesson(p)
        translation = p.with_name(f"{p.stem}.{language}.toml")
        if language != ENGLISH and translation.is_file():
            lesson = _translated(lesson, translation)
        out.append((p.stem, lesson))
    return tuple(out)


def lesson_of(options: Mapping[str, Any]) -> Lesson | None:
    """The lesson a table teaches, in the table's language (None: not a tutorial, or a lesson
    no longer on disk)."""
    name = options.get(TUTORIAL)
    code = options.get(LANGUAGE)
    return lessons(code if isinstance(code, str) else ENGLISH).get(name) if isinstance(name, str) else None


def kinds_of(action: Action, game_map: GameMap) -> set[str]:
    """The move kinds an action counts as: its engine type, and for a claim whether the route
    is a tunnel or an ordinary route, for a station `station`."""
    kinds = {action.TYPE}
    if isinstance(action, ClaimRoute):
        route = game_map.routes.get(action.route)
        kinds.add(TUNNEL if route is not None and route.tunnel else ROUTE)
    if isinstance(action, BuildStation):
        kinds.add(STATION)
    return kinds


def fits(step: Step, action: Action, game_map: GameMap) -> bool:
    """Whether `action` completes `step`."""
    return bool(set(step.expect) & kinds_of(action, game_map))


def progress(lesson: Lesson, moves: Iterable[Action], game_map: GameMap) -> int:
    """The index of the step the player is at, after their own `moves` in order."""
    index = 0
    for action in moves:
        step = lesson.step(index)
        if step is None:
            break
        if fits(step, action, game_map):
            index += 1
    while (step := lesson.step(index)) is not None and not step.expect:
        index += 1  # a step to read only is done once it is shown (its notice went with the last)
    return index


def wrong_move(lesson: Lesson, index: int, action: Action, legal: Sequence[Action], game_map: GameMap) -> str | None:
    """The kind sentence refusing `action` at step `index`, or None when it may be played:
    it fits the step, or nothing that fits is legal now (then whatever the rules allow),
    or the lesson is done. Taking back a move is always allowed."""
    step = lesson.step(index)
    if step is None or action.TYPE == "undo" or fits(step, action, game_map):
        return None
    if not any(fits(step, a, game_map) for a in legal):
        return None
    return step.wrong or f"Not that yet — {step.say.splitlines()[0]}"


def notes_between(lesson: Lesson, before: int, after: int, over: bool) -> list[tuple[str, dict[str, Any]]]:
    """The thread notices a commit owes a tutorial: the step reached (and any steps to read
    only that it passed), then, at the game's end, the finale. Each is (key, payload)."""
    out: list[tuple[str, dict[str, Any]]] = []
    if after > before:
        shown = [i for i in range(before + 1, min(after, len(lesson.steps) - 1) + 1)
                 if i == after or not lesson.steps[i].expect]
        for i in shown:
            out.append((f"tutorial:{i}", {"notice": NOTICE, "lesson": lesson.id, "step": i}))
    if over:
        out.append((f"tutorial:{FINALE}", {"notice": NOTICE, "lesson": lesson.id, "step": FINALE}))
    return out
