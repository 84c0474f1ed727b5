"""Table options: every option the engine accepts is offered at `/ttr new`, checked in words
(an option that does not apply to the table, a value that is not one of its own), and reaches
the game through the table's options — the host's first player included, which is an engine
option so that a replay deals the same game. The service tests run on SQLite and PostgreSQL.

The Discord side (the command's choices, the lobby post, refusals as a user sees them) is in
tests/bot_app/test_bot_options.py."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from app import GameService, Limits, LobbyError
from bot_app.presentation import table_options as T
from bot_app.presentation.answers import Refusal
from engine.core import GameStarted
from engine.errors import IllegalAction
from engine.game import new_game, replay
from engine.rules.dice.tokens import DiceTokens
from engine.rules.dice.tunnels import DiceTunnels
from engine.rules.stations import Stations
from engine.ruleset import RuleSet
from engine.rulesets import available_variants, build_ruleset, ruleset_for

HOST, BOB = 100, 101


def _module(rules: RuleSet, kind: type) -> Any:
    return next(m for m in rules.modules if isinstance(m, kind))


# Each option a host may choose: the table, the option as /ttr new takes it, how the lobby post
# shows it, and what it changes in the rules the game is played by.
ACCEPTED: list[tuple[str, bool, str, object, str, Callable[[RuleSet], bool]]] = [
    ("alsace", False, "stations", True, "stations: with stations, as in Europe",
     lambda r: r.stations == 3 and any(isinstance(m, Stations) for m in r.modules)),
    ("alsace", False, "stations", False, "stations: no stations",
     lambda r: r.stations == 0 and not any(isinstance(m, Stations) for m in r.modules)),
    ("ussr", False, "controller_tunnel", "as_locomotive_reveal", "a Controller in a tunnel check: like a revealed "
     "locomotive", lambda r: r.payment.tunnel_match_as_loco == ("controller",) and not r.payment.tunnel_loco_only),
    ("ussr", False, "controller_tunnel", "locomotive_only", "a Controller in a tunnel check: one more locomotive",
     lambda r: r.payment.tunnel_loco_only == ("controller",)),
    ("europe", True, "dice_tokens", 2, "tokens: up to 2 tokens per turn",
     lambda r: _module(r, DiceTokens).exchanges == 2),
    ("alsace", True, "dice_tokens", 1, "tokens: 1 token per turn", lambda r: _module(r, DiceTokens).exchanges == 1),
    ("ussr", True, "tunnel_dice", 4, "tunnel dice: 4 tunnel faces of 6",
     lambda r: _module(r, DiceTunnels).tunnel_die_faces == 4),
    ("europe", True, "tunnel_dice", 0, "tunnel dice: 0 tunnel faces of 6",
     lambda r: _module(r, DiceTunnels).tunnel_die_faces == 0),
    ("nordic", True, "nine_route", "disabled", "the 9-space route: cannot be claimed",
     lambda r: r.length(r.game_map.routes["murmansk-lieksa"]) == 9),
    ("nordic", True, "nine_route", "as_8", "the 9-space route: counts as an 8-space route",
     lambda r: r.length(r.game_map.routes["murmansk-lieksa"]) == 8),
]

# Each refusal, with its sentence.
REFUSED: list[tuple[str, bool, str, object, str]] = [
    ("europe", False, "stations", True, "`stations` is an option of Alsace only, not of Europe."),
    ("usa", False, "stations", False, "`stations` is an option of Alsace only, not of USA."),
    ("alsace", False, "controller_tunnel", "as_locomotive_reveal",
     "`controller_tunnel` is an option of USSR only, not of Alsace."),
    ("europe", False, "dice_tokens", 2,
     "`dice_tokens` is an option of the Dice Expansion: add `dice: True`, or leave `dice_tokens` out."),
    ("nordic", False, "nine_route", "as_8",
     "`nine_route` is an option of the Dice Expansion: add `dice: True`, or leave `nine_route` out."),
    ("germany", True, "tunnel_dice", 3, "`tunnel_dice` is for maps with tunnels; Germany has none."),
    ("usa", True, "tunnel_dice", 3, "`tunnel_dice` is for maps with tunnels; USA has none."),
    ("europe", True, "nine_route", "as_8", "`nine_route` is for a map with a route longer than 8 spaces; Europe has "
     "none."),
    ("ussr", False, "controller_tunnel", "always", "`controller_tunnel` is one of `locomotive_only` (one more "
     "locomotive), `as_locomotive_reveal` (like a revealed locomotive), not “always”."),
    ("europe", True, "dice_tokens", 3, "`dice_tokens` is one of `1` (1 token per turn), `2` (up to 2 tokens per "
     "turn), not “3”."),
    ("europe", True, "dice_tokens", "2", "`dice_tokens` is one of `1` (1 token per turn), `2` (up to 2 tokens per "
     "turn), not “2”."),
    ("europe", True, "tunnel_dice", 7, "`tunnel_dice` is one of `0` (0 tunnel faces of 6), `1` (1 tunnel face of 6), "
     "`2` (2 tunnel faces of 6), `3` (3 tunnel faces of 6), `4` (4 tunnel faces of 6), `5` (5 tunnel faces of 6), "
     "`6` (6 tunnel faces of 6), not “7”."),
    ("nordic", True, "nine_route", "as_9", "`nine_route` is one of `as_8` (counts as an 8-space route), `disabled` "
     "(cannot be claimed), not “as_9”."),
    ("alsace", False, "stations", "yes", "`stations` is one of `false` (no stations), `true` (with stations, as in "
     "Europe), not “yes”."),
]


# --- the catalogue ---------------------------------------------------------------------------


def test_every_option_the_engine_accepts_is_offered_at_new():
    # (`tutorial` is set by /ttr rules lesson:, which opens the table itself)
    offered = {o.key for o in T.OPTIONS} | {"dice", T.FIRST_PLAYER, T.UNDO, T.STAND_IN, T.PLANS_AHEAD,
                                            T.LANGUAGE_OPTION, T.HINTS, T.TUTORIAL}
    assert offered == T.engine_options()
    for option in T.OPTIONS:
        assert len(option.describe) <= 100  # Discord's limit for a description
        assert option.default in [v for v, _ in option.values]  # the engine's default is a choice
        assert any(T.applies(option, v, dice=d) for v in available_variants() for d in (False, True))


@pytest.mark.parametrize(("variant", "dice", "name", "value", "words", "rules"), ACCEPTED,
                         ids=[f"{a[0]}-{a[2]}-{a[3]}" for a in ACCEPTED])
def test_an_option_that_applies_is_accepted_and_changes_the_rules(variant, dice, name, value, words, rules):
    seats = 2
    options = T.table_options(variant, dice, seats, {name: value})
    key = T.BY_NAME[name].key
    assert options == ({"dice": True} if dice else {}) | {key: value}
    assert rules(build_ruleset(variant, seats, options))
    assert words in T.option_lines(options)


@pytest.mark.parametrize(("variant", "dice", "name", "value", "sentence"), REFUSED,
                         ids=[f"{r[0]}-{r[2]}-{r[3]}" for r in REFUSED])
def test_an_option_that_does_not_apply_or_a_bad_value_is_refused_in_words(variant, dice, name, value, sentence):
    with pytest.raises(Refusal) as refused:
        T.table_options(variant, dice, 3, {name: value})
    assert refused.value.message == sentence


def test_options_left_out_are_the_engine_defaults():
    assert T.table_options("ussr", False, 4, {o.name: None for o in T.OPTIONS}) == {}
    assert T.table_options("europe", True, 4, {}) == {"dice": True}
    assert T.option_lines({}) == ["first player: drawn at random"]


def test_the_host_chooses_the_first_player_by_seat_or_leaves_it_to_chance():
    assert T.table_options("usa", False, 3, {}, "random") == {}
    assert T.table_options("usa", False, 3, {}, None) == {}
    assert T.table_options("usa", False, 3, {}, "1") == {"first_player": 0}  # seat 1: the host
    assert T.table_options("usa", False, 3, {}, "3") == {"first_player": 2}
    assert T.option_lines({"first_player": 1}, ["Host", "Bob"]) == ["first player: seat 2 (Bob)"]
    assert T.option_lines({"first_player": 2}, ["Host", "Bob"]) == ["first player: seat 3"]
    with pytest.raises(Refusal, match=r"^Seat 4 cannot play first at a table of 3 seats; choose a seat from 1 to 3, "
                                      r"or random\.$"):
        T.table_options("usa", False, 3, {}, "4")
    for bad in ("0", "9", "first", "", "-1", "²", 2):
        with pytest.raises(Refusal, match=r"^`first` is `random` or a seat number from 1 to 3 \(seat 1 is you, "):
            T.table_options("usa", False, 3, {}, bad)


def test_the_choices_offered_mark_the_engine_defaults():
    offered = T.choices()
    assert set(offered) == {"first", "controller_tunnel", "dice_tokens", "tunnel_dice", "nine_route"}
    assert [c.value for c in offered["first"]] == ["random", "1", "2", "3", "4", "5"]
    defaults = {name: [c.value for c in cs if c.name.endswith("(default)")] for name, cs in offered.items()}
    assert defaults == {"first": ["random"], "controller_tunnel": ["locomotive_only"], "dice_tokens": [1],
                        "tunnel_dice": [2], "nine_route": ["as_8"]}


# --- the engine: the host's first player --------------------------------------------------------


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_the_first_player_the_host_chose_begins_whatever_the_seed(seat):
    for seed in range(1, 6):
        state, events = new_game("usa", 3, seed, {"first_player": seat})
        assert state.first_player == seat == state.current
        assert isinstance(events[0].payload, GameStarted) and events[0].payload.first_player == seat
        # A replay of the seed and the options deals the same game.
        again = replay("usa", 3, seed, [], {"first_player": seat})
        assert again.to_canonical() == state.to_canonical()


def test_without_a_choice_the_first_player_is_drawn_by_the_seed():
    firsts = {new_game("usa", 3, seed)[0].first_player for seed in range(1, 40)}
    assert firsts == {0, 1, 2}


@pytest.mark.parametrize(("value", "shown"), [(3, "seat 4"), (-1, "seat 0"), (True, "True"), ("1", "'1'"),
                                              (1.0, "1.0")])
def test_a_first_player_outside_the_table_is_refused_by_the_engine(value, shown):
    with pytest.raises(IllegalAction) as refused:
        new_game("usa", 3, 1, {"first_player": value})
    assert refused.value.message == f"The first player must be one of seats 1 to 3, not {shown}."


# --- through the service (SQLite and PostgreSQL) --------------------------------------------------


async def _started(service: GameService, variant: str, options: dict[str, Any], seats: int = 2,
                   channel: int = 1) -> int:
    lobby = await service.tables.create_lobby(1, channel, HOST, "Host", variant, options, seats_wanted=seats)
    lobby = await service.tables.join(lobby.game_id, BOB, "Bob")
    for _ in range(seats - 2):
        lobby = await service.tables.add_ai(lobby.game_id, HOST, "random", len(lobby.seats))
    await service.tables.start(lobby.game_id, HOST)
    return lobby.game_id


async def test_every_option_reaches_the_game_and_its_rules(service):
    for channel, (variant, dice, name, value, _, rules) in enumerate(ACCEPTED, start=1):
        options = T.table_options(variant, dice, 2, {name: value})
        lobby = await service.tables.create_lobby(1, channel, HOST, "Host", variant, options, seats_wanted=2)
        options = {"undo": True, **options}  # the service opens every table with take-backs on
        assert dict(lobby.options) == options  # stored with the table
        await service.tables.join(lobby.game_id, BOB, "Bob")
        await service.tables.start(lobby.game_id, HOST)
        loaded = await service.loader.load(lobby.game_id)
        assert loaded.state.options == options
        assert rules(ruleset_for(loaded.state)), (variant, name, value)
        assert (await service.reads.view(lobby.game_id, None)).options == options


async def test_the_host_chosen_first_player_begins_and_survives_a_reload(database):
    service = await GameService.open(database.target, limits=Limits.unlimited())
    try:
        game_id = await _started(service, "usa", T.table_options("usa", False, 3, {}, "3"), seats=3)
        view = await service.reads.view(game_id, None)
        assert view.first_player == 2 and view.current == 2
        # Loading the game again replays it from its seed and options: the same first player.
        service.loader.forget(game_id)
        assert (await service.reads.view(game_id, None)).first_player == 2
    finally:
        await service.close()  # one process per SQLite file: the restart comes after
    reopened = await GameService.open(database.target, limits=Limits.unlimited())
    try:
        assert (await reopened.reads.view(game_id, None)).first_player == 2
    finally:
        await reopened.close()


async def test_a_first_seat_nobody_sits_in_stops_the_start_and_changes_nothing(service):
    lobby = await service.tables.create_lobby(1, 1, HOST, "Host", "usa", {"first_player": 2}, seats_wanted=3)
    await service.tables.join(lobby.game_id, BOB, "Bob")
    with pytest.raises(LobbyError) as refused:
        await service.tables.start(lobby.game_id, HOST)
    assert refused.value.message == ("Seat 3 was chosen to play first, but only 2 players sit at the table; fill seat "
                                     "3 (Add AI) before you start.")
    after = await service.tables.lobby(lobby.game_id)
    assert after.status == "lobby" and len(after.seats) == 2
    await service.tables.add_ai(lobby.game_id, HOST, "random", 2)
    await service.tables.start(lobby.game_id, HOST)
    assert (await service.reads.view(lobby.game_id, None)).first_player == 2


@pytest.mark.parametrize(("variant", "options", "sentence"), [
    ("europe", {"dice": True, "dice_token_exchanges_per_turn": 3}, "dice_token_exchanges_per_turn must be 1 or 2."),
    ("europe", {"tunnel_die_faces": 2}, "The option 'tunnel_die_faces' needs the Dice Expansion (dice: true)."),
    ("usa", {"alsace_stations": True}, "The usa rules have no option 'alsace_stations'."),
    ("ussr", {"ussr_controller_tunnel_payment": "sometimes"},
     "The option ussr_controller_tunnel_payment is 'locomotive_only' or 'as_locomotive_reveal', not 'sometimes'."),
    ("usa", {"first_player": 4}, "The first player must be one of seats 1 to 4, not seat 5."),
])
async def test_an_option_the_engine_refuses_opens_no_table(service, database, variant, options, sentence):
    with pytest.raises(IllegalAction) as refused:
        await service.tables.create_lobby(1, 1, HOST, "Host", variant, options, seats_wanted=4)
    assert refused.value.message == sentence
    assert database.fetch("SELECT count(*) FROM games") == [(0,)]


def test_taking_back_moves_is_on_unless_the_host_turns_it_off():
    assert T.UNDO not in T.table_options("usa", False, 3, {})
    off = T.table_options("usa", False, 3, {}, undo=False)
    assert off == {"undo": False}
    assert "no taking back moves" in T.option_lines(off)
    assert "no taking back moves" not in T.option_lines({})


def test_a_table_may_allow_a_second_turn_s_plan():
    assert T.table_options("usa", False, 4, {}, plan_ahead=True)[T.PLANS_AHEAD] == 2
    assert T.PLANS_AHEAD not in T.table_options("usa", False, 4, {})
    assert "plans two turns ahead" in T.option_lines({T.PLANS_AHEAD: 2})
