"""The game service over a real database — each test runs on a new SQLite file and on a new
PostgreSQL database (tests/conftest.py) — moves are applied once and survive restarts, stale
clicks change nothing, secrets stay with their seat, and a damaged game breaks alone."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
import traceback
from collections.abc import Iterator

import pytest

from ai.levels import make_ai
from app import Actor, GameBroken, GameService, Limits, LobbyError, NotAPlayer, ServiceError, StaleAction, SubmitResult
from engine.errors import IllegalAction
from engine.events import HIDDEN, PRIVATE, PUBLIC
from engine.game import replay
from engine.state import RULES_VERSION, GameState, canonical_json
from tests.clock import Clock
from tests.databases import POSTGRES_ONLY, SQLITE_ONLY, Database

UNLIMITED = Limits.unlimited()  # these tests open many tables quickly; test_limits.py tests the caps

HOST, BOB, CAROL, DAN = 100, 101, 102, 103
HOUR = 3600.0


async def table(service: GameService, humans: int = 2, ais: int = 0, variant: str = "usa",
                channel: int = 1) -> SubmitResult:
    """A started game: HOST, then BOB, CAROL, DAN as needed, then random AIs."""
    lobby = await service.tables.create_lobby(guild_id=1, channel_id=channel, host_user_id=HOST, host_name="Host",
                                       variant=variant, seats_wanted=humans + ais)
    for user in (BOB, CAROL, DAN)[: humans - 1]:
        lobby = await service.tables.join(lobby.game_id, user, f"user{user}")
    for _ in range(ais):
        lobby = await service.tables.add_ai(lobby.game_id, HOST, "random", len(lobby.seats))
    return await service.tables.start(lobby.game_id, HOST)


async def step(service: GameService, game_id: int, seed: int = 0) -> SubmitResult:
    """Whoever the game waits for makes a (random but legal) move."""
    summary = await service.reads.game(game_id)
    seat = summary.seats[summary.waiting_for[0]]
    if seat.is_ai:
        done = await service.moves.play_ai(game_id, summary.seq)
        assert done is not None
        return done
    assert seat.user_id is not None
    legal = await service.reads.legal_actions(game_id, seat.user_id)
    seen = await service.reads.view(game_id, seat.user_id)
    action = make_ai("random", seed * 7919 + summary.seq).choose(seen, legal)
    return await service.moves.submit(game_id, Actor.user(seat.user_id), action, summary.seq)


async def steps(service: GameService, game_id: int, n: int) -> SubmitResult:
    done = None
    for i in range(n):
        done = await step(service, game_id, i)
    assert done is not None
    return done


async def load_and_check(service: GameService, game_id: int) -> None:
    """Load a game after a restart, and wait for the background check of its snapshot against
    a full replay of its log: damage in the entries after the snapshot is found by the load
    itself, damage before it by the check."""
    with contextlib.suppress(GameBroken):
        await service.reads.view(game_id, HOST)
    await service.loader.checks_done()


def tamper_log(database: Database, sql: str, params: tuple = ()) -> None:
    """Change the append-only log from outside, as a disk fault or a bad hand edit would."""
    database.execute((sql, params), log_writable=True)


def replayed_state(database: Database, game_id: int) -> GameState:
    """The state the log gives, computed here without the service."""
    row = database.fetchone("SELECT variant, seed, options FROM games WHERE id = ?", game_id)
    assert row is not None
    variant, seed, options = row
    names = [r[0] for r in database.fetch("SELECT name FROM players WHERE game_id = ? ORDER BY seat", game_id)]
    actions = [json.loads(r[0]) for r in
               database.fetch("SELECT action FROM actions WHERE game_id = ? AND seq > 0 ORDER BY seq", game_id)]
    return replay(variant, len(names), seed, actions, json.loads(options), names=names)


# --- moves ------------------------------------------------------------------------------


async def test_starting_a_game_stores_its_deal_as_entry_0_and_its_first_snapshot(
        service: GameService, database: Database) -> None:
    started = await table(service, humans=3)
    assert started.seq == 0 and started.status == "setup" and started.waiting_for == (0, 1, 2)
    assert database.fetch("SELECT seq, actor, action FROM actions WHERE game_id = ?", started.game_id) \
        == [(0, None, '{"type":"start"}')]
    seq, state = database.fetchone("SELECT seq, state FROM snapshots WHERE game_id = ?", started.game_id) or ()
    status, seed, rules = database.fetchone("SELECT status, seed, rules_version FROM games WHERE id = ?",
                                            started.game_id) or ()
    assert (seq, status, rules) == (0, "setup", RULES_VERSION)
    assert state == replayed_state(database, started.game_id).to_canonical()
    assert 0 <= seed < 2**63


async def test_a_move_is_written_with_its_events_in_one_go_and_a_snapshot_every_few_moves(
        service: GameService, database: Database) -> None:
    service.loader.snapshot_every = 3
    started = await table(service)
    done = await step(service, started.game_id)
    assert done.seq == 1
    rows = database.fetch("SELECT seq, actor, user_id, events FROM actions WHERE game_id = ? ORDER BY seq",
                          started.game_id)
    game_seq, waiting = database.fetchone("SELECT seq, waiting FROM games WHERE id = ?", started.game_id) or ()
    assert [r[0] for r in rows] == [0, 1]
    assert rows[1][1] == done.actor and rows[1][2] in (HOST, BOB)
    assert len(json.loads(rows[1][3])) == len(done.public_events) + sum(map(len, done.private_events.values()))
    assert game_seq == 1 and json.loads(waiting) == list(done.waiting_for)
    # The snapshot stays at the start until three moves have been made, then moves with them.
    assert database.fetchone("SELECT seq FROM snapshots WHERE game_id = ?", started.game_id) == (0,)
    await steps(service, started.game_id, 2)
    snapshot_seq, state = database.fetchone("SELECT seq, state FROM snapshots WHERE game_id = ?",
                                            started.game_id) or ()
    assert snapshot_seq == 3
    assert state == replayed_state(database, started.game_id).to_canonical()


async def test_a_double_click_applies_once_and_the_other_click_hears_it_already_happened(
        service: GameService, database: Database) -> None:
    started = await table(service)
    legal = await service.reads.legal_actions(started.game_id, HOST)
    outcomes = await asyncio.gather(
        service.moves.submit(started.game_id, Actor.user(HOST), legal[0], 0),
        service.moves.submit(started.game_id, Actor.user(HOST), legal[0], 0),
        return_exceptions=True,
    )
    applied = [o for o in outcomes if isinstance(o, SubmitResult)]
    stale = [o for o in outcomes if isinstance(o, StaleAction)]
    assert len(applied) == 1 and len(stale) == 1
    assert "already happened" in stale[0].message and stale[0].current_seq == 1
    assert database.fetch("SELECT seq FROM actions WHERE game_id = ? ORDER BY seq", started.game_id) == [(0,), (1,)]


async def test_an_old_button_gets_that_already_happened_and_changes_nothing(service: GameService) -> None:
    started = await table(service)
    await steps(service, started.game_id, 4)
    before = await service.reads.view(started.game_id, HOST)
    legal = await service.reads.legal_actions(started.game_id, HOST) or [{"type": "draw_card", "slot": None}]
    with pytest.raises(StaleAction, match="already happened"):
        await service.moves.submit(started.game_id, Actor.user(HOST), legal[0], 2)
    assert await service.reads.view(started.game_id, HOST) == before


@POSTGRES_ONLY
async def test_two_bot_processes_racing_on_one_game_apply_the_move_once(database: Database, clock: Clock) -> None:
    first = await GameService.open(database.target, clock=clock, limits=UNLIMITED)
    second = await GameService.open(database.target, clock=clock, limits=UNLIMITED)
    try:
        started = await table(first)
        await second.reads.view(started.game_id, HOST)  # both now hold the game in their caches
        legal = await first.reads.legal_actions(started.game_id, HOST)
        outcomes = await asyncio.gather(
            first.moves.submit(started.game_id, Actor.user(HOST), legal[0], 0),
            second.moves.submit(started.game_id, Actor.user(HOST), legal[-1], 0),
            return_exceptions=True,
        )
        assert sorted(type(o).__name__ for o in outcomes) == ["StaleAction", "SubmitResult"]
        # The loser reloads and carries on from the winner's move.
        assert (await second.reads.view(started.game_id, HOST)).seq == 1
        assert database.fetchone("SELECT count(*) FROM actions WHERE game_id = ?", started.game_id) == (2,)
    finally:
        await first.close()
        await second.close()


async def test_an_illegal_move_is_refused_in_a_sentence_and_changes_nothing(service: GameService) -> None:
    started = await table(service)
    with pytest.raises(IllegalAction) as refused:
        await service.moves.submit(started.game_id, Actor.user(HOST), {"type": "keep_tickets", "keep": ["nowhere"]}, 0)
    assert refused.value.message.endswith(".")
    with pytest.raises(IllegalAction, match="form the game understands"):
        await service.moves.submit(started.game_id, Actor.user(HOST), {"type": 3}, 0)
    assert (await service.reads.game(started.game_id)).seq == 0


async def test_only_players_move_and_only_for_their_own_seat(service: GameService) -> None:
    started = await table(service, humans=2, ais=1)
    legal_bob = await service.reads.legal_actions(started.game_id, BOB)
    with pytest.raises(NotAPlayer):
        await service.moves.submit(started.game_id, Actor.user(DAN), legal_bob[0], 0)
    with pytest.raises(IllegalAction, match="your own seat"):
        await service.moves.submit(started.game_id, Actor.user(HOST), legal_bob[0], 0)
    with pytest.raises(ServiceError, match="computer players") as refused:
        await service.moves.submit(started.game_id, Actor.bot(1), legal_bob[0], 0)
    assert refused.value.code == "not_ai"
    assert (await service.reads.game(started.game_id)).seq == 0


async def test_private_events_reach_only_their_own_seat(service: GameService) -> None:
    started = await table(service, humans=3)
    assert all(e.visibility == PUBLIC for e in started.public_events)
    assert set(started.private_events) == {0, 1, 2}
    for seat, events in started.private_events.items():
        assert events and all(e.visibility == PRIVATE and e.seat == seat for e in events)
    mine = await service.reads.recent_log(started.game_id, user_id=BOB)
    seen = [e for entry in mine for e in entry.events]
    assert any(e.visibility == PRIVATE for e in seen)
    assert all(e.visibility == PUBLIC or e.seat == 1 for e in seen)
    public = await service.reads.recent_log(started.game_id)
    assert all(e.visibility == PUBLIC for entry in public for e in entry.events)
    everything = [e for r in [started, *[await step(service, started.game_id, i) for i in range(6)]]
                  for e in (*r.public_events, *(e for evs in r.private_events.values() for e in evs))]
    assert all(e.visibility != HIDDEN for e in everything)
    bob = await service.reads.view(started.game_id, BOB)
    assert isinstance(bob.players[1].hand, dict) and bob.players[0].hand is None
    outsider = await service.reads.view(started.game_id, DAN)
    assert outsider.you is None and all(p.hand is None and p.tickets is None for p in outsider.players)
    assert not {f.name for f in dataclasses.fields(outsider)} & {"seed", "rng", "secret"}


async def test_log_lines_carry_no_hands_tickets_or_seed(service: GameService, database: Database,
                                                        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    started = await table(service, humans=2, ais=1)
    await steps(service, started.game_id, 30)
    tamper_log(database, "UPDATE snapshots SET state = '{}' WHERE game_id = ?", (started.game_id,))
    service.loader.forget(started.game_id)  # as if evicted from the cache
    await service.reads.view(started.game_id, HOST)
    assert "the log wins" in caplog.text
    seed, state = database.fetchone("SELECT g.seed, s.state FROM games g JOIN snapshots s ON s.game_id = g.id"
                                    " WHERE g.id = ?", started.game_id) or ()
    state = json.loads(state)
    secrets_ = {str(seed), str(state["rng"])}
    for p in state["players"]:
        secrets_.update(p["tickets"])
    secrets_.update(t for deck in state["ticket_decks"].values() for t in deck)
    assert not [s for s in secrets_ if s in caplog.text]


# --- restarts and recovery --------------------------------------------------------------


async def test_a_restart_resumes_every_game_exactly_where_it_was(database: Database, clock: Clock) -> None:
    service = await GameService.open(database.target, clock=clock, limits=UNLIMITED)
    games = [(await table(service, channel=c)).game_id for c in (1, 2, 3)]
    for i, game_id in enumerate(games):
        await steps(service, game_id, 5 + 7 * i)
    before = {g: await service.reads.view(g, HOST) for g in games}
    await service.close()

    service = await GameService.open(database.target, clock=clock, limits=UNLIMITED)
    try:
        assert {g: await service.reads.view(g, HOST) for g in games} == before
        assert sorted(await service.reads.active_game_ids()) == games
        done = await step(service, games[0])
        assert done.seq == before[games[0]].seq + 1
    finally:
        await service.close()


async def test_a_snapshot_that_disagrees_with_the_log_is_logged_and_the_log_wins(
        database: Database, clock: Clock, caplog: pytest.LogCaptureFixture) -> None:
    service = await GameService.open(database.target, clock=clock, limits=UNLIMITED)
    a = (await table(service, channel=1)).game_id
    b = (await table(service, channel=2)).game_id
    await steps(service, a, 12)
    await steps(service, b, 12)
    truth_a = await service.reads.view(a, HOST)
    truth_b = await service.reads.view(b, HOST)
    await service.close()
    early = json.loads((database.fetchone("SELECT state FROM snapshots WHERE game_id = ?", a) or ("",))[0])
    early["turn"] += 5  # valid JSON, wrong state
    database.execute(("UPDATE snapshots SET state = ? WHERE game_id = ?", (json.dumps(early), a)),
                     ("UPDATE snapshots SET state = 'not json at all' WHERE game_id = ?", (b,)))

    caplog.set_level(logging.WARNING)
    service = await GameService.open(database.target, clock=clock, limits=UNLIMITED)
    try:
        assert await service.reads.view(a, HOST) == truth_a
        assert await service.reads.view(b, HOST) == truth_b
        assert f"game {a}: the snapshot at seq 12 differed from a replay of the log; the log wins" in caplog.text
        assert f"game {b}: the snapshot at seq 12 differed" in caplog.text
        for g in (a, b):
            state = (database.fetchone("SELECT state FROM snapshots WHERE game_id = ?", g) or ("",))[0]
            assert state == replayed_state(database, g).to_canonical()
    finally:
        await service.close()


@pytest.mark.parametrize(
    ("damage", "reason"),
    [
        ("UPDATE actions SET action = '{\"type\": \"claim_ro' WHERE game_id = ? AND seq = 3",
         "action 3 of its log is not valid JSON."),
        ("UPDATE actions SET action = '{\"type\": \"teleport\", \"player\": 0}' WHERE game_id = ? AND seq = 3",
         "action 3 of its log is not an action the game understands."),
        ({"sqlite": "UPDATE actions SET action = json_set(action, '$.keep', json('[\"nowhere\"]'))"
                    " WHERE game_id = ? AND seq = 1",
          "postgres": "UPDATE actions SET action = jsonb_set(action::jsonb, '{keep}', '[\"nowhere\"]')::text"
                      " WHERE game_id = ? AND seq = 1"},
         "action 1 of its log is refused by the rules on replay (bad_tickets)."),
        ("UPDATE actions SET events = '[{\"kind\": ' WHERE game_id = ? AND seq = 2",
         "the events of entry 2 of its log are not valid JSON."),
        ("DELETE FROM actions WHERE game_id = ? AND seq = 2", "entry 2 of its log is missing."),
    ],
    ids=["action-not-json", "unknown-action", "illegal-action", "events-not-json", "missing-entry"],
)
async def test_a_corrupted_log_row_breaks_only_its_own_game_with_a_clear_message(
        database: Database, clock: Clock, damage: str | dict[str, str], reason: str) -> None:
    service = await GameService.open(database.target, clock=clock, limits=UNLIMITED)
    damaged = (await table(service, channel=1)).game_id
    healthy = (await table(service, channel=2)).game_id
    await steps(service, damaged, 6)
    await steps(service, healthy, 6)
    await service.close()
    sql = damage[database.kind] if isinstance(damage, dict) else damage
    tamper_log(database, sql, (damaged,))

    service = await GameService.open(database.target, clock=clock, limits=UNLIMITED)
    try:
        await load_and_check(service, damaged)
        with pytest.raises(GameBroken) as broken:
            await service.reads.view(damaged, HOST)
        assert broken.value.reason == reason
        assert broken.value.message == (
            f"Game #{damaged} cannot be loaded and has been set aside: {reason} "
            "Other games are not affected; an administrator can restore it from a backup."
        )
        # Every other game keeps working.
        assert (await step(service, healthy)).seq == 7
        listed = {g.game_id: g for g in await service.reads.games_of(HOST, include_finished=True)}
        assert listed[damaged].status == "broken" and listed[damaged].broken_reason == reason
        assert listed[healthy].status in ("setup", "playing")
        assert damaged not in await service.reads.active_game_ids()
        with pytest.raises(GameBroken, match="set aside"):
            await service.moves.submit(damaged, Actor.user(HOST), {"type": "draw_card"}, 6)
    finally:
        await service.close()
    # Still broken after a restart, without another replay.
    service = await GameService.open(database.target, clock=clock, limits=UNLIMITED)
    try:
        with pytest.raises(GameBroken) as again:
            await service.reads.view(damaged, HOST)
        assert again.value.reason == reason
    finally:
        await service.close()


class AllLogs(logging.Handler):
    """Every record of every logger at every level, formatted as a log file would hold it
    (message, traceback, stack)."""

    def __init__(self) -> None:
        super().__init__(logging.NOTSET)
        self.lines: list[str] = []
        self.setFormatter(logging.Formatter("%(name)s %(levelname)s %(message)s"))

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))


@pytest.fixture
def all_logs() -> Iterator[AllLogs]:
    handler = AllLogs()
    root = logging.getLogger()
    level = root.level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    try:
        yield handler
    finally:
        root.removeHandler(handler)
        root.setLevel(level)


def secrets_of(database: Database, game_id: int) -> set[str]:
    """What must never reach a log: the seed, the random state, every hand, every ticket in a
    hand or a ticket deck, and the deck's order (as runs of three card names)."""
    (seed,) = database.fetchone("SELECT seed FROM games WHERE id = ?", game_id) or ()
    state = json.loads(replayed_state(database, game_id).to_canonical())
    found = {str(seed), str(state["seed"]), str(state["rng"])}
    for p in state["players"]:
        found.update(p["tickets"])
        found.add(canonical_json(p["hand"]))
    found.update(t for deck in state["ticket_decks"].values() for t in deck)
    deck = state["deck"]
    found.update(",".join(json.dumps(c) for c in deck[i:i + 3]) for i in range(len(deck) - 2))
    assert len(deck) > 20 and all(p["tickets"] for p in state["players"])
    return found


def plant_bad_utf8(database: Database, table_: str, column: str, where: str, params: tuple) -> None:
    """Put a byte that is not UTF-8 into the middle of a stored text value (as a disk fault
    would), keeping the rest of the text, secrets included. (SQLite only: PostgreSQL refuses
    text that is not UTF-8 on the way in.)"""
    (text,) = database.fetchone(f"SELECT {column} FROM {table_} WHERE {where}", *params) or ()
    data = text.encode()
    middle = len(data) // 2
    damaged = data[:middle] + b"\xff\xfe" + data[middle:]
    tamper_log(database, f"UPDATE {table_} SET {column} = CAST(? AS TEXT) WHERE {where}", (damaged, *params))
    assert database.fetchone(f"SELECT typeof({column}) FROM {table_} WHERE {where}", *params) == ("text",)


@pytest.mark.parametrize(
    ("table_", "column", "where", "reason"),
    [
        ("actions", "events", "game_id = ? AND seq = 0", "the events of entry 0 of its log are not valid UTF-8."),
        ("actions", "action", "game_id = ? AND seq = 3", "action 3 of its log is not valid UTF-8."),
        ("games", "options", "id = ?", "its game row holds text that is not valid UTF-8 (options)."),
        ("players", "name", "game_id = ? AND seat = 1",
         "the row of seat 1 holds text that is not valid UTF-8 (name)."),
        ("snapshots", "state", "game_id = ?", None),
    ],
    ids=["events", "action", "options", "player-name", "snapshot"],
)
@SQLITE_ONLY
async def test_text_that_is_not_utf8_breaks_its_game_without_a_secret_reaching_any_log(
        database: Database, clock: Clock, all_logs: AllLogs, table_: str, column: str, where: str,
        reason: str | None) -> None:
    service = await GameService.open(database.target, clock=clock, limits=UNLIMITED)
    damaged = (await table(service, humans=2, ais=1, channel=1)).game_id
    healthy = (await table(service, channel=2)).game_id
    await steps(service, damaged, 8)
    await steps(service, healthy, 6)
    before = await service.reads.view(damaged, HOST)
    await service.close()
    secret = secrets_of(database, damaged)
    plant_bad_utf8(database, table_, column, where, (damaged,))

    service = await GameService.open(database.target, clock=clock, limits=UNLIMITED)
    raised: list[str] = []
    try:
        if reason is None:
            # The snapshot is a cache: the log is replayed and wins, as for any bad snapshot.
            assert await service.reads.view(damaged, HOST) == before
            assert any(f"game {damaged}: the snapshot at seq 8 was not valid UTF-8; the log wins" in line
                       for line in all_logs.lines)
            assert (await step(service, damaged)).seq == 9
        else:
            await load_and_check(service, damaged)
            with pytest.raises(GameBroken) as broken:
                await service.reads.view(damaged, HOST)
            raised.append("".join(traceback.format_exception(broken.value)))
            assert broken.value.reason == reason
            listed = {g.game_id: g for g in await service.reads.games_of(HOST, include_finished=True)}
            assert listed[damaged].status == "broken" and listed[damaged].broken_reason == reason
            with pytest.raises(GameBroken) as again:
                await service.moves.submit(damaged, Actor.user(HOST), {"type": "draw_card"}, 8)
            raised.append("".join(traceback.format_exception(again.value)))
        # Every other game keeps working.
        assert (await step(service, healthy)).seq == 7
    finally:
        await service.close()
    assert all_logs.lines, "the test captured nothing; it proves nothing"
    leaked = sorted(s for s in secret for text in all_logs.lines + raised if s in text)
    assert leaked == []


async def test_a_game_from_older_rules_continues_from_its_snapshot(database: Database, clock: Clock,
                                                                   caplog: pytest.LogCaptureFixture) -> None:
    service = await GameService.open(database.target, clock=clock, limits=UNLIMITED)
    game_id = (await table(service)).game_id
    await steps(service, game_id, 5)
    before = await service.reads.view(game_id, HOST)
    await service.close()
    database.execute(("UPDATE games SET rules_version = ? WHERE id = ?", (RULES_VERSION - 1, game_id)))
    caplog.set_level(logging.INFO)
    service = await GameService.open(database.target, clock=clock, limits=UNLIMITED)
    try:
        assert await service.reads.view(game_id, HOST) == before
        assert "without a replay check" in caplog.text
        assert (await step(service, game_id)).seq == 6
    finally:
        await service.close()


async def test_the_cache_is_bounded_and_an_evicted_game_reloads(database: Database, clock: Clock) -> None:
    service = await GameService.open(database.target, clock=clock, cache_size=2, limits=UNLIMITED)
    try:
        games = [(await table(service, channel=c)).game_id for c in (1, 2, 3)]
        for game_id in games * 2:
            await step(service, game_id)
        assert service.cached_games == 2
        assert [(await service.reads.game(g)).seq for g in games] == [2, 2, 2]
    finally:
        await service.close()


async def test_a_finished_game_records_results_for_stats(service: GameService) -> None:
    started = await table(service, humans=1, ais=1)
    done = started
    for i in range(3000):
        done = await step(service, started.game_id, i)
        if done.ended:
            break
    assert done.ended and done.status == "over" and done.waiting_for == ()
    assert done.result is not None and len(done.result["sheets"]) == 2
    rows = await service.reads.results(started.game_id)
    assert [(r.seat, r.user_id, r.is_ai) for r in rows] == [(0, HOST, False), (1, None, True)]
    by_seat = {s["seat"]: s for s in done.result["sheets"]}
    assert [r.score for r in rows] == [by_seat[0]["total"], by_seat[1]["total"]]
    assert {r.seat for r in rows if r.won} == set(done.result["winners"])
    stats = await service.reads.player_stats(HOST)
    assert stats.games == 1 and stats.wins == int(0 in done.result["winners"])
    assert stats.best_score == by_seat[0]["total"]
    assert await service.reads.games_of(HOST) == []
    assert [g.status for g in await service.reads.games_of(HOST, include_finished=True)] == ["over"]
    with pytest.raises(IllegalAction, match="over"):
        await service.moves.submit(started.game_id, Actor.user(HOST), {"type": "draw_card"}, done.seq)


# --- lobbies ----------------------------------------------------------------------------


async def test_lobby_double_clicks_are_harmless(service: GameService) -> None:
    first = await service.tables.create_lobby(1, 1, HOST, "Host", "europe", seats_wanted=4)
    again = await service.tables.create_lobby(1, 1, HOST, "Host", "europe", seats_wanted=4)
    assert again.game_id == first.game_id and not again.changed
    joined = await asyncio.gather(service.tables.join(first.game_id, BOB, "Bob"), service.tables.join(first.game_id,
                                                                                                      BOB, "Bob"))
    assert sorted(j.changed for j in joined) == [False, True]
    assert [s.user_id for s in joined[1].seats] == [HOST, BOB]
    added = await service.tables.add_ai(first.game_id, HOST, "greedy", expected_seats=2)
    with pytest.raises(StaleAction, match="already happened"):
        await service.tables.add_ai(first.game_id, HOST, "greedy", expected_seats=2)
    assert len(added.seats) == 3
    left = await service.tables.leave(first.game_id, BOB)
    assert left.changed and [s.seat for s in left.seats] == [0, 2]
    assert not (await service.tables.leave(first.game_id, BOB)).changed
    starts = await asyncio.gather(service.tables.start(first.game_id, HOST), service.tables.start(first.game_id, HOST),
                                  return_exceptions=True)
    assert sorted(type(s).__name__ for s in starts) == ["StaleAction", "SubmitResult"]
    started = next(s for s in starts if isinstance(s, SubmitResult))
    # Seats are renumbered 0, 1 at the start.
    assert [(s.seat, s.user_id, s.is_ai) for s in (await service.reads.game(first.game_id)).seats] == \
        [(0, HOST, False), (1, None, True)]
    assert started.waiting_for == (0, 1)
    with pytest.raises(LobbyError, match="already started"):
        await service.tables.join(first.game_id, CAROL, "Carol")


async def test_lobby_rules_are_explained_in_a_sentence(service: GameService) -> None:
    with pytest.raises(IllegalAction, match="no variant called 'narnia'"):
        await service.tables.create_lobby(1, 1, HOST, "Host", "narnia")
    with pytest.raises(IllegalAction, match="2 to 5 players, not 9"):
        await service.tables.create_lobby(1, 1, HOST, "Host", "usa", seats_wanted=9)
    lobby = await service.tables.create_lobby(1, 1, HOST, "Host", "usa", seats_wanted=2)
    with pytest.raises(IllegalAction, match="2 to 5 players, not 1"):
        await service.tables.start(lobby.game_id, HOST)
    await service.tables.join(lobby.game_id, BOB, "Bob")
    with pytest.raises(LobbyError, match="full") as full:
        await service.tables.join(lobby.game_id, CAROL, "Carol")
    assert full.value.code == "lobby_full"
    with pytest.raises(LobbyError, match="Only the host"):
        await service.tables.start(lobby.game_id, BOB)
    closed = await service.tables.leave(lobby.game_id, HOST)
    assert closed.status == "cancelled"
    with pytest.raises(LobbyError, match="closed"):
        await service.tables.join(lobby.game_id, CAROL, "Carol")


async def test_games_of_a_user_say_whose_turn_it_is(service: GameService) -> None:
    a = await table(service, humans=2, channel=1)
    b = await table(service, humans=3, channel=2)
    await service.tables.set_thread(a.game_id, 555)
    # In game a, the host chooses tickets; the game then waits only for Bob.
    legal = await service.reads.legal_actions(a.game_id, HOST)
    await service.moves.submit(a.game_id, Actor.user(HOST), legal[0], 0)
    mine = {g.game_id: g for g in await service.reads.games_of(HOST)}
    assert set(mine) == {a.game_id, b.game_id}
    assert mine[a.game_id].thread_id == 555
    assert mine[a.game_id].waiting_for == (1,) and not mine[a.game_id].your_turn
    assert mine[a.game_id].waiting_users == (BOB,)
    assert mine[b.game_id].your_turn and set(mine[b.game_id].waiting_users) == {HOST, BOB, CAROL}
    assert [g.game_id for g in await service.reads.games_of(CAROL)] == [b.game_id]


# --- timers -----------------------------------------------------------------------------


async def test_a_timer_fires_exactly_once_even_across_restarts(database: Database, clock: Clock) -> None:
    service = await GameService.open(database.target, clock=clock, limits=UNLIMITED)
    started = await table(service)
    timer = await service.clocks.schedule_timer(started.game_id, "reminder", clock.now + HOUR, seat=1, for_seq=0,
                                         payload={"text": "your turn"})
    assert await service.clocks.due_timers() == []
    assert await service.clocks.next_timer_due() == clock.now + HOUR
    clock.now += 2 * HOUR
    due = await service.clocks.due_timers()
    assert [(t.id, t.kind, t.seat, t.payload) for t in due] == [(timer.id, "reminder", 1, {"text": "your turn"})]
    claims = await asyncio.gather(service.clocks.mark_timer_fired(timer.id), service.clocks.mark_timer_fired(timer.id))
    assert sorted(claims) == [False, True]
    await service.close()

    service = await GameService.open(database.target, clock=clock, limits=UNLIMITED)
    try:
        assert await service.clocks.due_timers() == []
        assert await service.clocks.mark_timer_fired(timer.id) is False
    finally:
        await service.close()


async def test_a_move_cancels_the_timers_set_for_the_turn_before(service: GameService, clock: Clock) -> None:
    started = await table(service)
    async def ours() -> list:  # leaving out the game's own reminders and turn limits
        return [t for t in await service.clocks.pending_timers(started.game_id) if t.kind in ("turn_limit",
                                                                                              "inactivity")]

    await service.clocks.schedule_timer(started.game_id, "turn_limit", clock.now + HOUR, seat=0, for_seq=0)
    await service.clocks.schedule_timer(started.game_id, "inactivity", clock.now + 48 * HOUR)  # not tied to a turn
    assert len(await ours()) == 2
    await step(service, started.game_id)
    assert [t.kind for t in await ours()] == ["inactivity"]
    with pytest.raises(StaleAction):
        await service.clocks.schedule_timer(started.game_id, "turn_limit", clock.now + HOUR, seat=0, for_seq=0)
    # Scheduling again replaces the pending timer of that kind.
    await service.clocks.schedule_timer(started.game_id, "inactivity", clock.now + 72 * HOUR)
    assert [t.due_at for t in await ours()] == [clock.now + 72 * HOUR]


async def test_a_turn_limit_move_and_its_timer_are_one_transaction(service: GameService, clock: Clock) -> None:
    started = await table(service)
    limits = [t for t in await service.clocks.pending_timers(started.game_id) if t.kind == "limit" and t.seat == 1]
    assert len(limits) == 1  # the start set each player's turn limit
    clock.now += 49 * HOUR
    # Fired twice at once (two timer loops, a restart): the AI plays the turn exactly once.
    outcomes = await asyncio.gather(service.clocks.fire_timer(limits[0]), service.clocks.fire_timer(limits[0]))
    assert sorted(outcomes) == ["played", "stale"]
    assert await service.clocks.mark_timer_fired(limits[0].id) is False
    summary = await service.reads.game(started.game_id)
    assert 1 not in summary.waiting_for and summary.seats[1].absent_turns == 1
    entries = await service.store.log.actions(started.game_id)
    assert [e.actor for e in entries[1:]] == [1]  # one move, for seat 1, in the timer's transaction


async def test_the_result_of_a_move_shows_the_same_game_as_the_service(service: GameService) -> None:
    started = await table(service, humans=2)
    done = await step(service, started.game_id)
    for user, seat in ((HOST, 0), (BOB, 1), (None, None)):
        seen = await service.reads.view(started.game_id, user)
        assert (seen.seq, seen.game_id) == (1, started.game_id)
        assert seen == done.view(seat).at(1, started.game_id)


async def test_a_move_cancelled_while_it_is_written_is_either_kept_or_gone_never_half(
        service: GameService, database: Database) -> None:
    started = await table(service)
    for delay in (0, 1, 2, 3, 5, 8):
        summary = await service.reads.game(started.game_id)
        seat = summary.seats[summary.waiting_for[0]]
        assert seat.user_id is not None
        legal = await service.reads.legal_actions(started.game_id, seat.user_id)
        task = asyncio.create_task(service.moves.submit(started.game_id, Actor.user(seat.user_id), legal[0],
                                                        summary.seq))
        for _ in range(delay):
            await asyncio.sleep(0)
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        for _ in range(100):  # let a write that had already begun finish (a busy machine: a while)
            await asyncio.sleep(0.05)
            seen = await service.reads.view(started.game_id, HOST)
            seq, = database.fetchone("SELECT seq FROM games WHERE id = ?", started.game_id) or ()
            logged, = database.fetchone("SELECT max(seq) FROM actions WHERE game_id = ?", started.game_id) or ()
            assert seq == logged  # never half: the game row and the log move together
            if seen.seq == seq:
                break
        assert seen.seq == seq == logged
        assert (await step(service, started.game_id)).seq == seq + 1
