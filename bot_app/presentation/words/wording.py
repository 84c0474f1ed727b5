"""A game's words: the words of each rule module of its rule set, looped over in the rule set's
order the way engine/game.py loops over the rules' hooks — the first module that has words for
an event, an action or a decision says it, and the core's words come last. Nothing here knows
a variant by name.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from bot_app.lang import Language, reader, table_language
from bot_app.presentation.words.base import Ctx, Doing, Said, Words, joined, signed, words_class
from bot_app.presentation.words.core import CoreWords
from engine.actions import Action
from engine.decisions import kind_of
from engine.events import HIDDEN, PRIVATE, PUBLIC, Event
from engine.ruleset import RuleSet
from engine.rulesets import build_ruleset
from engine.scoring import score_line_names
from engine.view import View

# /ttr rules topics, in the order they are listed; a game lists those its rules have words for.
TOPIC_ORDER = ("overview", "first-turn", "turn", "dice", "cards", "claiming", "ferries", "tunnels", "tickets",
               "tourist", "stations", "passengers", "controller", "scoring", "end", "timers", "plans")


class Wording:
    """Everything a rule set's games say, from its modules' words."""

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self.parts: list[Words] = [words_class(type(m))(m) for m in rules.modules]
        # A rule module's own words, to ask the module that handles a decision.
        self._of = {id(m): w for m, w in zip(rules.modules, self.parts, strict=True)}
        self.parts.append(words_class(type(rules.payment))(rules.payment))
        self.core = CoreWords(None)
        self.all: list[Words] = [*self.parts, self.core]
        self.line_names = score_line_names(rules.modules)

    def ctx(self, view: View | None = None, lang: Language | None = None) -> Ctx:
        """The context of a line: `lang`, else the reader being answered, else the table's
        language (a DM, a turn post)."""
        return Ctx(self.rules, view, lang or reader(table_language(view.options if view is not None else None)))

    # --- events -----------------------------------------------------------------------------

    def said(self, kind: str) -> Said | None:
        """How `kind` reads in this game (None: no module has words for it)."""
        for words in self.all:
            said = words.events.get(kind)
            if said is not None and not said.deferred:
                return said
        return None

    def _chain(self, ahead: list[Event], c: Ctx, who: str) -> tuple[str, int] | None:
        """A sentence for the longest run of events starting here that some words chain."""
        kinds = tuple(e.kind for e in ahead)
        for n in range(len(kinds), 2, -1):
            for words in self.all:
                chain = words.chains.get(kinds[:n])
                if chain is not None:
                    text = chain(ahead[:n], c, who)
                    if text:
                        return text, n
        return None

    def _fold(self, first: Event, second: Event, c: Ctx, who: str) -> str | None:
        key = (first.kind, second.kind)
        for words in self.all:
            if key in words.folds:
                return words.folds[key](first, second, c, who)
        return None

    def lines(self, events: Iterable[Event], c: Ctx, audience: str = PUBLIC, seat: int | None = None,
              mine: bool = False) -> list[str]:
        """The events of one audience in words: public ones with each player's name, or the
        private ones of `seat` with "You" — or, with `mine`, everything `seat`'s own move did,
        public and private, told to them ("You claimed …"). Two events that read better together are folded
        into one sentence; bookkeeping nobody needs to read is left out."""
        shown: list[tuple[Event, Any]] = []
        for e in events:
            if mine:
                if not (e.visibility == PUBLIC and e.payload.actor() == seat
                        or e.visibility == PRIVATE and e.seat == seat):
                    continue
            elif e.visibility != audience or (audience == PRIVATE and e.seat != seat):
                continue
            said = self.said(e.kind)
            if said is None or said.line is None or said.audience == HIDDEN:
                continue
            shown.append((e, said.line))
        out: list[str] = []
        i = 0
        while i < len(shown):
            e, line = shown[i]
            who = "You" if audience == PRIVATE or mine else c.name(e.payload.actor())
            chained = self._chain([x for x, _ in shown[i:i + 4]], c, who)
            if chained is not None:
                out.append(_sentence(chained[0]))
                i += chained[1]
                continue
            if i + 1 < len(shown):
                folded = self._fold(e, shown[i + 1][0], c, who)
                if folded:
                    out.append(_sentence(folded))
                    i += 2
                    continue
            text = line(e, c, who)
            if text:
                out.append(_sentence(text))
            i += 1
        return out

    # --- actions ----------------------------------------------------------------------------

    def doing(self, action: Action, c: Ctx) -> Doing:
        """How this action is offered: by the module that handles it now, else the first that
        has words for its kind, else the core's."""
        kind = kind_of(c.view.pending.decision) if c.view is not None else None
        module = self.rules.handler(kind, action) if kind else None
        if module is not None:
            words = self._of[id(module)]
            if action.TYPE in words.actions:
                return words.actions[action.TYPE]
        for w in self.all:
            if action.TYPE in w.actions:
                return w.actions[action.TYPE]
        raise LookupError(f"no words for the action {action.TYPE!r}")

    def label(self, action: Action, c: Ctx) -> str:
        return self.doing(action, c).label(action, c)

    # --- the table ----------------------------------------------------------------------------

    def waiting_line(self, c: Ctx, waiting: Sequence[int], mentions: Mapping[int, str]) -> str:
        """Whose decision the game waits for, and what it is."""
        if not waiting:
            return ""
        who = c.joined(mentions.get(s) or f"**{c.name(s)}**" for s in waiting)
        kind = kind_of(c.v.pending.decision) or "turn"
        handlers = [self._of[id(m)] for m in self.rules.modules_for(kind)]
        for words in [*handlers, *self.all]:
            said = words.waiting.get(kind)
            if said is not None:
                return said(c, who) if callable(said) else said.format(who=who)
        return c.t("waiting.move", who=who)

    def player_status(self, c: Ctx, seat: int) -> str:
        bits = [b for w in [self.core, *self.parts] for b in w.status(c, seat)]
        return f"**{c.name(seat)}** — " + " · ".join(bits)

    def status_block(self, c: Ctx) -> str:
        """Every player's public numbers and the table (never a hand)."""
        lines = [self.player_status(c, s) for s in range(len(c.v.players))]
        lines += [t for w in self.all for t in w.table(c)]
        if c.v.final_turns_left is not None and c.v.status == "playing":
            lines.append(c.n("status.final_round", c.v.final_turns_left))
        return "\n".join(lines)

    def hand_lines(self, c: Ctx) -> list[str]:
        """A player's own hand and tickets (their view), every module's part."""
        return [line for w in [*self.parts, self.core] for line in w.hand(c)]

    def at_hand(self, c: Ctx) -> list[str]:
        """What a player pays with, shown above their private choices (their view)."""
        return [line for w in self.parts for line in w.at_hand(c)]

    # --- the end ------------------------------------------------------------------------------

    def score_lines(self, sheet: Mapping[str, Any]) -> list[tuple[str, int]]:
        """A sheet's lines as (name, points), in scoring order; old stored sheets without
        `lines` are read from their older fields."""
        lines = sheet.get("lines")
        if not isinstance(lines, Mapping):
            lines = _old_lines(sheet)
        order = [k for k in self.line_names if k in lines] + [k for k in lines if k not in self.line_names]
        return [(self.line_names.get(k, str(k).replace("_", " ").capitalize()), int(lines[k])) for k in order]

    def final_blocks(self, c: Ctx) -> list[str]:
        """The final scores, one block per player, best first: every line of the sheet adding up
        to the total, then the revealed tickets and cards."""
        result = c.v.result or {}
        winners = set(result.get("winners", []))
        sheets = sorted(result.get("sheets", []), key=lambda s: (-s.get("total", 0), s.get("seat", 0)))
        blocks = []
        medals = ("🥇", "🥈", "🥉")
        for place, sheet in enumerate(sheets):
            total = int(sheet.get("total", 0))
            crown = " 👑" if sheet.get("seat") in winners else ""
            mark = medals[place] if place < len(medals) else f"{place + 1}."
            name = sheet.get("name") or c.name(sheet.get("seat"))
            shown = [(self._line_name(c, n), p) for n, p in self.score_lines(sheet)
                     if p or n == self.line_names["routes"]]
            parts = [f"{n} {p}" if i == 0 else f"{n} {signed(p)}" for i, (n, p) in enumerate(shown)]
            block = [f"{mark} **{name}** — {c.n('final.points', total)}{crown}",
                     "   " + " · ".join(parts) + f" = {total}"]
            block += ["   " + line for w in self.parts for line in w.sheet(c, sheet)]
            blocks.append("\n".join(block))
        ties = result.get("tie_break") or []
        if isinstance(ties, str):
            ties = [ties]
        if ties:
            blocks.append(c.t("final.tie_broken", how=joined(ties, c.t("word.then"))))
        elif len(winners) > 1:
            blocks.append(c.t("final.shared"))
        return blocks

    def _line_name(self, c: Ctx, name: str) -> str:
        """A score line's name in the reader's language, where its catalogue has it."""
        key = next((f"score.{k}" for k, v in self.line_names.items() if v == name), None)
        return c.t(key) if key is not None and c.lang.has(key) else name

    # --- the rules ------------------------------------------------------------------------------

    def topics(self, undo: bool | None = None) -> dict[str, str]:
        """/ttr rules for this rule set: topic → text, only the topics it has. `undo`: whether
        the table lets a mover take a move back (a table option, not a rule: None when no table
        is meant — the bot's tables allow it unless the host says not)."""
        c = self.ctx()
        merged: dict[str, list[str]] = {}
        for w in self.all:
            for topic, paragraphs in w.topics(c).items():
                merged.setdefault(topic, []).extend(paragraphs)
        from bot_app.presentation.words import core_topics

        merged.update(core_topics.topics(self, c, merged, undo))
        return {t: "\n".join(merged[t]) for t in TOPIC_ORDER if merged.get(t)} | {
            t: "\n".join(p) for t, p in merged.items() if t not in TOPIC_ORDER and p}


def _sentence(text: str) -> str:
    text = text.strip()
    return text[:1].upper() + text[1:] if text else text


def _old_lines(sheet: Mapping[str, Any]) -> dict[str, int]:
    """The named lines of a sheet stored before sheets had them."""
    out: dict[str, int] = {"routes": int(sheet.get("routes", 0))}
    for key in ("tickets_won", "tickets_lost", "stations", "tourist_won", "tourist_lost"):
        if isinstance(sheet.get(key), int):
            out[key] = int(sheet[key])
    for label, points in (sheet.get("bonuses") or {}).items():
        out[label] = int(points)
    return out


_CACHE: dict[tuple[str, int, str], Wording] = {}


def wording_of(variant: str, players: int, options: Mapping[str, Any] | None = None) -> Wording:
    """The words of a table (built once per rule set)."""
    opts = dict(options or {})
    key = (variant, players, json.dumps(opts, sort_keys=True, default=str))
    found = _CACHE.get(key)
    if found is None:
        found = _CACHE[key] = Wording(build_ruleset(variant, players, opts))
    return found


def wording(view: View) -> Wording:
    """The words of the game this view shows."""
    return wording_of(view.variant, len(view.players), view.options)
