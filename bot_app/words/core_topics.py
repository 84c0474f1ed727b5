"""The /ttr rules topics the core writes from the whole rule set: the overview, your first turn,
what a turn is, double and triple routes, the scoring table and the timers. Every fact comes
from the rule set and its map (players, trains, parallel tracks, the route points the board
uses, the modules' own words)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot_app.words.base import Ctx, joined, plural
from bot_app.words.bonuses import BonusWords

if TYPE_CHECKING:
    from bot_app.words.wording import Wording


def topics(w: Wording, c: Ctx, merged: dict[str, list[str]], undo: bool | None = None) -> dict[str, list[str]]:
    return {
        "overview": overview(w, c, merged),
        "first-turn": first_turn(w, c),
        "turn": [*turn(w, c), *taking_back(w, c, undo)],
        "claiming": [*merged.get("claiming", []), *parallel_tracks(c)],
        "scoring": scoring(w, c, merged.get("scoring", [])),
        "timers": timers(),
        "plans": plans(c),
    }


def overview(w: Wording, c: Ctx, merged: dict[str, list[str]]) -> list[str]:
    r = c.rules
    extras = [x for part in w.parts for x in part.overview(c)]
    ferries = sum(1 for route in c.gmap.routes.values() if route.is_ferry)
    if ferries:
        extras.append(plural(ferries, "ferry", "ferries"))
    bonuses = [part.bonus_name() for part in w.parts if isinstance(part, BonusWords)]
    text = [f"**{c.gmap.name}** — {r.min_players}–{r.max_players} players, {r.trains} trains each.",
            "Connect the cities on your destination tickets with your trains: claim routes between neighbouring "
            "cities, score each route as you claim it, then at the end score every ticket you completed and lose "
            "the ones you did not."]
    if extras:
        text.append(f"This game has {joined(extras)}.")
    if bonuses:
        text.append(f"Bonuses at the end: {joined(bonuses)} (see scoring).")
    text.append("New here? `/ttr rules topic:first-turn`.")
    return text


def first_turn(w: Wording, c: Ctx) -> list[str]:
    tickets = [t for t in w.all if "tickets" in t.topics(c)]
    deal = tickets[0].topics(c)["tickets"][0] if tickets else ""
    steps = [
        f"1. When the game starts, everyone chooses tickets at once: press **Choose tickets** under the post in the "
        f"game's thread; only you see the choice. {deal}",
        "2. When the thread says it's your turn, the buttons under the turn post are your moves (`/ttr rules "
        "topic:turn` lists them). Each asks you privately, and anything that cannot be undone asks you to confirm.",
        "3. Your hand comes by direct message at the start of each of your turns; **My hand** or `/ttr hand` shows "
        "it any time, only to you.",
        "4. Claim the routes that join the cities on your tickets before someone else takes them.",
    ]
    intro = next((t for part in w.parts if (t := part.turn_intro(c))), None)
    if intro:
        steps.insert(2, "   Your dice are rolled for you when your turn starts; the turn post shows them.")
    return steps


def turn(w: Wording, c: Ctx) -> list[str]:
    intro = next((t for part in w.parts if (t := part.turn_intro(c))), None)
    options = [o for part in w.parts for o in part.turn_options(c)]
    head = intro or "On your turn do exactly one of these:"
    return [head, *(f"• {o}" for o in options),
            "The buttons under the turn post show what you can do now; `/ttr move` lists every move in words."]


def taking_back(w: Wording, c: Ctx, undo: bool | None) -> list[str]:
    """Which moves the Undo button takes back (the rule set's moves that say `UNDOABLE`, by
    their buttons) and when (engine/undo.py), as the table's `undo` option has it (None: no
    table in particular; the bot opens tables with it unless the host says not)."""
    if undo is False:
        return ["At this table a move cannot be taken back (it was opened with `undo: False`)."]
    kinds = [cls.TYPE for module in c.rules.modules for classes in module.actions.values() for cls in classes
             if cls.UNDOABLE and not (cls.TYPE == "build_station" and not c.rules.stations)]
    buttons = [next(part.actions[kind].button for part in w.all if kind in part.actions)
               for kind in dict.fromkeys(kinds)]
    if not buttons:
        return []
    hidden = "rolled dice or turned cards over" if c.dice else "turned cards over"
    moves = joined((f"**{b}**" for b in buttons), "or")
    text = (f"**Undo** (the button, or /ttr turn undo) takes back your last {moves} move until the next player acts "
            f"and before your turn's time limit runs out — not once it {hidden} (a tunnel does) or ended the game.")
    if undo is None:
        text += " A table opened with `undo: False` has no taking back."
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
    kinds = "Double and triple routes" if widest > 2 else "Double routes"

    def name(ids: list[str]) -> str:
        first = gmap.routes[ids[0]]
        return f"{gmap.city_label(first.a)} – {gmap.city_label(first.b)}"

    triples = sorted(name(ids) for ids in groups.values() if len(ids) > 2)
    tracks = "two or three tracks" if widest > 2 else "two tracks"
    where = f" (triple: {joined(triples)})" if triples else ""
    text = (f"**{kinds}** — {tracks} side by side between the same two cities{where}: nobody may own more than "
            "one of them.")
    rules = c.rules
    closed_below = rules.doubles_from_players
    if closed_below > rules.min_players:
        counts = list(range(rules.min_players, min(closed_below, rules.max_players + 1)))
        games = (f"{counts[0]}-player games" if len(counts) == 1
                 else f"games of {joined((str(n) for n in counts), 'or')} players")
        text += f" In {games}, once one track is claimed the others are closed to everyone"
        if closed_below < rules.max_players:
            text += f"; with {closed_below} players or more, each may be claimed, by different players."
        elif closed_below == rules.max_players:
            text += f"; with {closed_below} players, each may be claimed, by different players."
        else:
            text += "."
    odd = sorted(name(ids) for ids in groups.values()
                 if len({(gmap.routes[i].length, gmap.routes[i].tunnel, gmap.routes[i].ferry_locos) for i in ids}) > 1)
    if odd:
        text += (f" Tracks of different lengths or kinds between the same two cities ({joined(odd)}) count as a "
                 "double route too.")
    return [text]


def scoring(w: Wording, c: Ctx, bonuses: list[str]) -> list[str]:
    """The scoring table, then the modules' own paragraphs of the topic (the bonuses)."""
    lengths = sorted({c.rules.length(r) for r in c.gmap.routes.values()})
    table = ", ".join(f"{n} → {c.gmap.points_for(n)}" for n in lengths)
    names = [name for key, name in w.line_names.items() if key != "routes"]
    text = [f"Routes score as you claim them (spaces → points): {table}.",
            f"At the end your score sheet adds: {joined(names)} — each on its own line, and the lines add up to "
            "your total."]
    text += bonuses
    if any(isinstance(part, BonusWords) for part in w.parts):
        text.append("Players tied for a bonus all score it; a count of 0 never wins one.")
    ties = [t.label for t in c.rules.tie_breaks]
    if ties:
        text.append(f"Equal totals are decided by, in order: {', '.join(ties)}; if still equal, the win is shared.")
    else:
        text.append("Equal totals share the win.")
    return text


def timers() -> list[str]:
    return [
        "Each turn has a time limit (set with /ttr new). Half-way you get a reminder; at the limit the AI plays that "
        "turn for you; after 3 in a row it keeps your seat until you use any game command.",
        "The host or a server manager can /ttr admin pause and /ttr admin resume the clocks, and /ttr admin kick "
        "hands a seat to the AI."]


def plans(c: Ctx) -> list[str]:
    """Planned moves (issue 29; app/plans): what a plan may say on this rule set's board."""
    r = c.rules
    ahead = r.options.get("plans_ahead") == 2
    text = [
        "Not your turn yet? **Plan my next turn** under the turn post (or `/ttr plan`) lets you say now what you "
        "will do, privately: up to 5 steps *if <condition>: <moves>* and an *else:*. When your turn comes, the "
        "first step whose condition holds and whose first move is legal then is played for you, before anyone is "
        "pinged, and a direct message tells you which step ran. If none applies, the plan is dropped and you are "
        "asked as usual; the AI standing in for an absent player plays only after a plan.",
        "Conditions are what you can see: a route still free (`free Denver - Omaha`, or `taken …`), a face-up card "
        "(`shown red`), your cards (`cards red >=3`, `cards all <=4`), tickets left (`tickets >=3`), trains left "
        "(`trains >=10`, or `anyone trains <=5`: the fewest anyone has).",
    ]
    if c.dice:
        moves = ["`claim <route> <faces>` (faces such as `single2.wild1`; the dice are rolled when your turn "
                 "comes, so a claim runs only if the faces it states were rolled)",
                 "`tickets station1` (tickets paid with station faces)", "`pass` (also to answer the token question)"]
    else:
        moves = ["`draw blind`", "`draw red` (face-up)", "`tickets` (which to keep is still asked)",
                 "`claim <route> <payment>` (a payment such as `red3.loco1`)"]
    if any(route.tunnel for route in c.gmap.routes.values()) and not c.dice:
        moves.append("`pay <payment>` for a tunnel's extra — without it, a tunnel's reveal asks you as usual")
    if "stations" in {m.name for m in r.modules}:
        moves.append("`station <city> <payment>`")
    moves.append("any other move by its name with `name=value` fields")
    text.append(f"Moves, separated by commas: {', '.join(moves)}. A plan never guesses: a move that is not possible "
                "when it comes leaves the rest of the turn to you.")
    text.append("A second turn's plan (after `||`) is allowed at this table." if ahead else
                "A plan is for your next turn; the host may open a table that allows a second one (after `||`).")
    return text

