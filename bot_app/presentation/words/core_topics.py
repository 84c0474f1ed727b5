"""The /ttr rules topics the core writes from the whole rule set: the overview, your first turn,
what a turn is, double and triple routes, the scoring table and the timers. Every fact comes
from the rule set and its map (players, trains, parallel tracks, the route points the board
uses, the modules' own words); every sentence is a catalogue entry (`rules.…`), in the
reader's language."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot_app.lang import ENGLISH
from bot_app.presentation.words.base import Ctx, joined
from bot_app.presentation.words.bonuses import BonusWords
from render.words import slug

if TYPE_CHECKING:
    from bot_app.presentation.words.wording import Wording


def topics(w: Wording, c: Ctx, merged: dict[str, list[str]], undo: bool | None = None) -> dict[str, list[str]]:
    return {
        "overview": overview(w, c, merged),
        "first-turn": first_turn(w, c),
        "turn": [*turn(w, c), *taking_back(w, c, undo)],
        "claiming": [*merged.get("claiming", []), *parallel_tracks(c)],
        "scoring": scoring(w, c, merged.get("scoring", [])),
        "timers": timers(c),
        "plans": plans(c),
    }


def named(c: Ctx, key: str, english: str) -> str:
    """A name the rule set gives in English (a tie-break, a score line), in the reader's
    language where a catalogue has it."""
    return c.t(key) if c.lang.has(key) else english


def either(c: Ctx, parts: list[str]) -> str:
    """"a, b or c" with the language's "or"."""
    return joined(parts, c.t("rules.word.or"))


def board_name(c: Ctx) -> str:
    """The board's name: as the map prints it in English, else the game's and the board's names
    as that language's edition prints them ("Zug um Zug: UdSSR")."""
    key = f"ruleset.{c.rules.name}.title"
    if c.lang.code == ENGLISH or not c.lang.has(key):
        return c.gmap.name
    return c.t("rules.overview.board", game=c.t("command.ttr.description"), title=c.t(key))


def overview(w: Wording, c: Ctx, merged: dict[str, list[str]]) -> list[str]:
    r = c.rules
    extras = [x for part in w.parts for x in part.overview(c)]
    ferries = sum(1 for route in c.gmap.routes.values() if route.is_ferry)
    if ferries:
        extras.append(c.n("rules.overview.ferries", ferries))
    bonuses = [part.bonus_name(c) for part in w.parts if isinstance(part, BonusWords)]
    text = [c.t("rules.overview.head", map=board_name(c), least=r.min_players, most=r.max_players, trains=r.trains),
            c.t("rules.overview.goal")]
    if extras:
        text.append(c.t("rules.overview.has", what=c.joined(extras)))
    if bonuses:
        text.append(c.t("rules.overview.bonuses", bonuses=c.joined(bonuses)))
    text.append(c.t("rules.overview.new"))
    return text


def first_turn(w: Wording, c: Ctx) -> list[str]:
    tickets = [t for t in w.all if "tickets" in t.topics(c)]
    deal = tickets[0].topics(c)["tickets"][0] if tickets else ""
    steps = [c.t("rules.first.tickets", deal=deal), c.t("rules.first.buttons"), c.t("rules.first.hand"),
             c.t("rules.first.claim")]
    intro = next((t for part in w.parts if (t := part.turn_intro(c))), None)
    if intro:
        steps.insert(2, c.t("rules.first.dice"))
    return steps


def turn(w: Wording, c: Ctx) -> list[str]:
    intro = next((t for part in w.parts if (t := part.turn_intro(c))), None)
    options = [o for part in w.parts for o in part.turn_options(c)]
    head = intro or c.t("rules.turn.head")
    return [head, *(f"• {o}" for o in options), c.t("rules.turn.buttons")]


def taking_back(w: Wording, c: Ctx, undo: bool | None) -> list[str]:
    """Which moves the Undo button takes back (the rule set's moves that say `UNDOABLE`, by
    their buttons) and when (engine/undo.py), as the table's `undo` option has it (None: no
    table in particular; the bot opens tables with it unless the host says not)."""
    if undo is False:
        return [c.t("rules.undo.off")]
    kinds = [cls.TYPE for module in c.rules.modules for classes in module.actions.values() for cls in classes
             if cls.UNDOABLE and not (cls.TYPE == "build_station" and not c.rules.stations)]
    buttons = [next(part.actions[kind].button_in(c) for part in w.all if kind in part.actions)
               for kind in dict.fromkeys(kinds)]
    if not buttons:
        return []
    moves = either(c, [f"**{b}**" for b in buttons])
    text = c.t("rules.undo.dice" if c.dice else "rules.undo.cards", moves=moves)
    if undo is None:
        text += " " + c.t("rules.undo.tables")
    return [text]


def parallel_tracks(c: Ctx) -> list[str]:
    """Double (and triple) routes: nobody owns two tracks of one connection, and below the rule
    set's player count for doubles the other tracks close once one is claimed (the base game,
    [N:17-18] Nordic, [U:51-52] USSR, [G:125-127] Germany)."""
    gmap = c.gmap
    groups: dict[str, list[str]] = {}
    for route in gmap.routes.values():
        if route.parallel_group:
            groups.setdefault(route.parallel_group, []).append(route.id)
    if not groups:
        return []
    widest = max(len(ids) for ids in groups.values())

    def name(ids: list[str]) -> str:
        first = gmap.routes[ids[0]]
        return f"{gmap.city_label(first.a)} – {gmap.city_label(first.b)}"

    triples = sorted(name(ids) for ids in groups.values() if len(ids) > 2)
    text = (c.t("rules.parallel.triple", triples=c.joined(triples)) if widest > 2
            else c.t("rules.parallel.double"))
    rules = c.rules
    closed_below = rules.doubles_from_players
    if closed_below > rules.min_players:
        counts = list(range(rules.min_players, min(closed_below, rules.max_players + 1)))
        games = (c.n("rules.parallel.games_of", counts[0]) if len(counts) == 1
                 else c.t("rules.parallel.games_of_several", counts=either(c, [c.lang.number(n) for n in counts])))
        text += " " + c.t("rules.parallel.closed", games=games)
        if closed_below < rules.max_players:
            text += c.n("rules.parallel.open_from", closed_below)
        elif closed_below == rules.max_players:
            text += c.n("rules.parallel.open_with", closed_below)
        else:
            text += "."
    odd = sorted(name(ids) for ids in groups.values()
                 if len({(gmap.routes[i].length, gmap.routes[i].tunnel, gmap.routes[i].ferry_locos) for i in ids}) > 1)
    if odd:
        text += " " + c.t("rules.parallel.odd", routes=c.joined(odd))
    return [text]


def scoring(w: Wording, c: Ctx, bonuses: list[str]) -> list[str]:
    """The scoring table, then the modules' own paragraphs of the topic (the bonuses)."""
    lengths = sorted({c.rules.length(r) for r in c.gmap.routes.values()})
    table = ", ".join(f"{c.lang.number(n)} → {c.lang.number(c.gmap.points_for(n))}" for n in lengths)
    names = [named(c, f"score.{key}", name) for key, name in w.line_names.items() if key != "routes"]
    text = [c.t("rules.scoring.table", table=table), c.t("rules.scoring.sheet", lines=c.joined(names))]
    text += bonuses
    if any(isinstance(part, BonusWords) for part in w.parts):
        text.append(c.t("rules.scoring.bonus_ties"))
    ties = [named(c, f"picture.tie.{slug(t.label)}", t.label) for t in c.rules.tie_breaks]
    if ties:
        text.append(c.t("rules.scoring.ties", ties=", ".join(ties)))
    else:
        text.append(c.t("rules.scoring.shared"))
    return text


def timers(c: Ctx) -> list[str]:
    return [c.t("rules.timers.limit"), c.t("rules.timers.admin")]


def plans(c: Ctx) -> list[str]:
    """Planned moves (issue 29; app/plans): what a plan may say on this rule set's board."""
    r = c.rules
    ahead = r.options.get("plans_ahead") == 2
    text = [c.t("rules.plans.what"), c.t("rules.plans.conditions")]
    if c.dice:
        moves = [c.t("rules.plans.move.dice_claim"), c.t("rules.plans.move.dice_tickets"),
                 c.t("rules.plans.move.pass")]
    else:
        moves = [c.t("rules.plans.move.draw_blind"), c.t("rules.plans.move.draw_red"),
                 c.t("rules.plans.move.tickets"), c.t("rules.plans.move.claim")]
    if any(route.tunnel for route in c.gmap.routes.values()) and not c.dice:
        moves.append(c.t("rules.plans.move.pay"))
    if "stations" in {m.name for m in r.modules}:
        moves.append(c.t("rules.plans.move.station"))
    moves.append(c.t("rules.plans.move.other"))
    text.append(c.t("rules.plans.moves", moves=", ".join(moves)))
    text.append(c.t("rules.plans.ahead" if ahead else "rules.plans.next"))
    return text
