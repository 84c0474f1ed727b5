"""The short text a player types for a plan (`/ttr plan set`), read into a PlanBook.

    if free Denver - Omaha: claim Denver - Omaha red4; if shown loco: draw loco; else: draw blind, draw blind

A turn's plan is its steps separated by ";", each "if <condition>: <moves>", the fallback
"else: <moves>"; a second turn's plan (where the table allows it) follows "||". Moves are
separated by ",". Conditions:

    free <route> · taken <route> · shown <colour> [N] · cards [<colour>] >=N / <=N / =N
    tickets >=N · trains >=N · anyone trains <=N

Moves: `draw blind`, `draw <colour>` (face-up), `tickets` (dice: `tickets station1`), `claim <route> <payment>`,
`station <city> <payment>`, `pay <payment>` (a tunnel's extra), `give up` (a tunnel), `pass`,
and any other move of the rule set by its name with `name=value` fields (`burn_five
payment=red2.blue3`). A payment is a code such as `red3.loco1` (dice: `single2.wild1`). Route
and city names are read as everywhere else (bot_app/presentation/names.py). Anything that cannot be read
is refused with one sentence naming the part.
"""

from __future__ import annotations

import re
from typing import Any

from app.plans import MAX_PLANS, MAX_STEPS, Condition, Plan, PlanBook, PlanMove, Step
from bot_app.presentation import names
from bot_app.presentation.answers import Refusal
from bot_app.presentation.inputs import excerpt
from bot_app.presentation.moves_text import parse_payment
from engine.maps import GameMap

MAX_TYPED = 1500  # characters: far above five steps of two moves with long route names
_COMPARE = re.compile(r"^(?:(>=|<=|=|>|<)\s*)?(\d{1,3})$")
_PAYMENT = re.compile(r"^(?:[a-z]{1,12}[0-9]{1,2})(?:\.[a-z]{1,12}[0-9]{1,2})*$")
_FIELD = re.compile(r"^([a-z_]{1,20})=(\S{1,100})$")


def parse(typed: str, gmap: GameMap) -> PlanBook:
    """The plans a player typed, on this board; Refusal, in one sentence, for what cannot be read."""
    typed = (typed or "").strip()
    if not typed:
        raise Refusal("Write the plan, for example `if free Denver - Omaha: claim Denver - Omaha red4; "
                      "else: draw blind, draw blind`.", "plan.refusal.empty")
    if len(typed) > MAX_TYPED:
        raise Refusal(f"A plan is at most {MAX_TYPED} characters.", "plan.refusal.too_long", most=MAX_TYPED)
    turns = [t.strip() for t in typed.split("||")]
    if len(turns) > MAX_PLANS:
        raise Refusal(f"At most {MAX_PLANS} turns can be planned ahead (separated by `||`).", "plan.refusal.turns",
                      most=MAX_PLANS)
    return PlanBook(tuple(_turn(t, gmap) for t in turns))


def _turn(typed: str, gmap: GameMap) -> Plan:
    steps: list[Step] = []
    fallback: tuple[PlanMove, ...] = ()
    parts = [p.strip() for p in typed.split(";") if p.strip()]
    if not parts:
        raise Refusal("A turn's plan needs at least one step or an `else:`.", "plan.refusal.no_step")
    for i, part in enumerate(parts):
        low = part.lower()
        if low.startswith("if "):
            head, colon, rest = part[3:].partition(":")
            if not colon:
                raise Refusal(f"Put a `:` between the condition and the moves in “{excerpt(part, 40)}”.",
                              "plan.refusal.colon", typed=excerpt(part, 40))
            steps.append(Step(_condition(head.strip(), gmap), _moves(rest, gmap)))
        elif low.startswith("else"):
            if i != len(parts) - 1:
                raise Refusal("`else:` comes last in a turn's plan.", "plan.refusal.else_last")
            fallback = _moves(part[4:].lstrip().removeprefix(":"), gmap)
        elif i == len(parts) - 1:
            fallback = _moves(part, gmap)  # plain moves at the end: the fallback
        else:
            raise Refusal(f"Start each step with `if` (or the last with `else:`): “{excerpt(part, 40)}”.",
                          "plan.refusal.if", typed=excerpt(part, 40))
    if len(steps) > MAX_STEPS:
        raise Refusal(f"A plan has at most {MAX_STEPS} steps (and an `else:`).", "plan.refusal.steps", most=MAX_STEPS)
    return Plan(tuple(steps), fallback)


def _condition(typed: str, gmap: GameMap) -> Condition:
    words = typed.split()
    if not words:
        raise Refusal("A step's condition is empty.", "plan.refusal.no_condition")
    head, rest = words[0].lower(), " ".join(words[1:])
    if head in ("free", "taken"):
        return Condition("route_free", route=_route(rest, gmap), negate=head == "taken")
    if head == "shown":
        parts = rest.lower().split()
        if not parts:
            raise Refusal("Say which face-up colour: `shown red`.", "plan.refusal.shown")
        colour = _colour(parts[0])
        if len(parts) > 1:
            low, high = _bound(" ".join(parts[1:]), "shown")
            return Condition("face_up", colour=colour, at_least=low, at_most=high)
        return Condition("face_up", colour=colour)
    if head == "cards":
        parts = rest.lower().split()
        colour = ""
        if parts and parts[0][0] not in "<>=0123456789":
            colour = "" if parts[0] in ("all", "any") else _colour(parts[0])
            parts = parts[1:]
        low, high = _bound(" ".join(parts), "cards")
        return Condition("cards", colour=colour, at_least=low, at_most=high)
    if head == "tickets":
        low, high = _bound(rest, "tickets")
        return Condition("tickets_left", at_least=low, at_most=high)
    if head == "trains":
        low, high = _bound(rest, "trains")
        return Condition("trains_left", at_least=low, at_most=high)
    if head == "anyone" and len(words) > 1 and words[1].lower() == "trains":
        low, high = _bound(" ".join(words[2:]), "anyone trains")
        return Condition("trains_left", whose="anyone", at_least=low, at_most=high)
    raise Refusal(f"I can't read the condition “{excerpt(typed, 40)}”: use free, taken, shown, cards, tickets, "
                  "trains or anyone trains.", "plan.refusal.condition", typed=excerpt(typed, 40))


def _bound(typed: str, what: str) -> tuple[int | None, int | None]:
    match = _COMPARE.match(typed.replace(" ", ""))
    if match is None:
        raise Refusal(f"After `{what}` write a count such as `>=3`, `<=5` or `=2`.", "plan.refusal.count", what=what)
    sign, n = match.group(1) or ">=", int(match.group(2))
    if sign == ">":
        return n + 1, None
    if sign == "<":
        if n == 0:
            raise Refusal(f"`{what} <0` can never hold.", "plan.refusal.never", what=what)
        return None, n - 1
    return {">=": (n, None), "<=": (None, n), "=": (n, n)}[sign]


def _moves(typed: str, gmap: GameMap) -> tuple[PlanMove, ...]:
    parts = [p.strip() for p in typed.split(",") if p.strip()]
    if not parts:
        raise Refusal("A step needs at least one move after its `:`.", "plan.refusal.no_move")
    if len(parts) > 4:
        raise Refusal("A step has at most 4 moves.", "plan.refusal.moves", most=4)
    return tuple(_move(p, gmap) for p in parts)


def _move(typed: str, gmap: GameMap) -> PlanMove:
    words = typed.split()
    head, rest = words[0].lower(), words[1:]
    if head == "draw":
        what = (rest[0].lower() if rest else "blind")
        if what in ("blind", "deck"):
            return PlanMove({"type": "draw_card"})
        return PlanMove({"type": "draw_card", "colour": _colour(what)})
    if head == "tickets":
        if rest:  # the Dice Expansion: tickets paid with station faces
            return PlanMove({"type": "draw_tickets_dice", "payment": _payment(" ".join(rest))})
        return PlanMove({"type": "draw_tickets"})
    if head == "pass":
        return PlanMove({"type": "pass"})
    if head == "give" and [w.lower() for w in rest] == ["up"]:
        return PlanMove({"type": "give_up_tunnel"})
    if head == "pay":
        return PlanMove({"type": "pay_tunnel", "payment": _payment(" ".join(rest))})
    if head in ("claim", "station"):
        if len(rest) < 2 or not _PAYMENT.match(rest[-1].lower()):
            key = "plan.refusal.claim" if head == "claim" else "plan.refusal.station"
            raise Refusal(f"Write `{head} <{'route' if head == 'claim' else 'city'}> <payment>`, the payment as "
                          "a code such as `red3.loco1`.", key)
        place, payment = " ".join(rest[:-1]), _payment(rest[-1])
        if head == "claim":
            return PlanMove({"type": "claim_route", "route": _route(place, gmap), "payment": payment})
        city = names.find_city(gmap, place)
        if city is None:
            raise Refusal(names.unknown_city(gmap, place))
        return PlanMove({"type": "build_station", "city": city.id, "payment": payment})
    return _other(head, rest)


def _other(kind: str, fields: list[str]) -> PlanMove:
    """Any other move of the rule set, by its engine name with `name=value` fields."""
    if not re.fullmatch(r"[a-z_]{1,30}", kind):
        raise Refusal(f"I can't read the move “{excerpt(kind, 30)}”.", "plan.refusal.move", typed=excerpt(kind, 30))
    data: dict[str, Any] = {"type": kind}
    for f in fields:
        match = _FIELD.match(f.lower())
        if match is None:
            raise Refusal(f"Write the fields of `{kind}` as `name=value`, not “{excerpt(f, 30)}”.",
                          "plan.refusal.fields", kind=kind, typed=excerpt(f, 30))
        name, value = match.groups()
        if name in ("payment", "keep_cards") or _PAYMENT.match(value) and name != "colour":
            data[name] = _payment(value)
        elif value.isdigit():
            data[name] = int(value)
        else:
            data[name] = value
    return PlanMove(data)


def _payment(code: str) -> dict[str, int]:
    paid = parse_payment(code.strip().lower())
    if paid is None or "?" in paid:
        raise Refusal(f"I can't read the payment “{excerpt(code, 30)}”: write it like `red3.loco1`.",
                      "plan.refusal.payment", typed=excerpt(code, 30))
    return paid


def _route(typed: str, gmap: GameMap) -> str:
    if typed in gmap.routes:
        return typed
    route = names.find_route(gmap, typed)
    if route is None:
        raise Refusal(names.unknown_route(gmap, typed))
    return route.id


def _colour(word: str) -> str:
    word = word.lower()
    if word.startswith("loc"):
        return "loco"
    if word in ("red", "orange", "yellow", "green", "blue", "pink", "white", "black"):
        return word
    raise Refusal(f"There is no card colour “{excerpt(word, 20)}”.", "plan.refusal.colour", typed=excerpt(word, 20))


def typed(book: PlanBook, gmap: GameMap) -> str:
    """A book back into the short text (for the text box's first suggestion)."""
    return " || ".join(_typed_turn(p, gmap) for p in book.plans)


def _typed_turn(plan: Plan, gmap: GameMap) -> str:
    parts = [f"if {_typed_condition(s.condition, gmap)}: {_typed_moves(s.moves, gmap)}" for s in plan.steps]
    if plan.fallback:
        parts.append(f"else: {_typed_moves(plan.fallback, gmap)}")
    return "; ".join(parts)


def _typed_condition(c: Condition, gmap: GameMap) -> str:
    bound = _typed_bound(c)
    if c.kind == "route_free":
        return f"{'taken' if c.negate else 'free'} {gmap.route_label(c.route) if c.route in gmap.routes else c.route}"
    if c.kind == "face_up":
        return f"shown {c.colour}" + (f" {bound}" if c.at_least is not None or c.at_most is not None else "")
    if c.kind == "cards":
        return f"cards {c.colour or 'all'} {bound}"
    if c.kind == "tickets_left":
        return f"tickets {bound}"
    if c.kind == "trains_left":
        return f"{'anyone ' if c.whose == 'anyone' else ''}trains {bound}"
    return c.kind


def _typed_bound(c: Condition) -> str:
    if c.at_least is not None and c.at_most is not None and c.at_least == c.at_most:
        return f"={c.at_least}"
    if c.at_most is not None:
        return f"<={c.at_most}"
    return f">={c.at_least if c.at_least is not None else 1}"


def _typed_moves(moves: tuple[PlanMove, ...], gmap: GameMap) -> str:
    return ", ".join(_typed_move(m, gmap) for m in moves)


def _code(payment: Any) -> str:
    return ".".join(f"{k}{v}" for k, v in sorted(dict(payment).items()))


def _typed_move(m: PlanMove, gmap: GameMap) -> str:
    a = m.action
    kind = m.type
    if kind == "draw_card":
        return f"draw {a.get('colour', 'blind')}"
    if kind == "draw_tickets" and len(a) == 1:
        return "tickets"
    if kind == "draw_tickets_dice" and set(a) == {"type", "payment"}:
        return f"tickets {_code(a['payment'])}"
    if kind == "pass":
        return "pass"
    if kind == "give_up_tunnel":
        return "give up"
    if kind == "pay_tunnel":
        return f"pay {_code(a.get('payment', {}))}"
    if kind == "claim_route":
        route = str(a.get("route", ""))
        return f"claim {gmap.route_label(route) if route in gmap.routes else route} {_code(a.get('payment', {}))}"
    if kind == "build_station":
        city = str(a.get("city", ""))
        return f"station {gmap.city_label(city) if city in gmap.cities else city} {_code(a.get('payment', {}))}"
    fields = " ".join(f"{k}={_code(v) if isinstance(v, dict) else v}" for k, v in a.items() if k != "type")
    return f"{kind} {fields}".strip()
