-- Migration 1: the base schema.
--
-- The action log is the truth: a game is its row in `games` (variant, options, seed, seats) plus
-- its actions in order. `snapshots` is a cache of the state after the last action; `games.seq`,
-- `games.status` and `games.waiting` are kept in step with the log in the same transaction so
-- that lists ("your games", "whose turn") need no replay.
-- Times are Unix seconds (REAL). JSON columns hold canonical JSON text.

CREATE TABLE games (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id      INTEGER NOT NULL,
    channel_id    INTEGER NOT NULL,
    thread_id     INTEGER,
    host_user_id  INTEGER NOT NULL,
    variant       TEXT    NOT NULL,
    options       TEXT    NOT NULL DEFAULT '{}',
    seats_wanted  INTEGER NOT NULL CHECK (seats_wanted >= 1),
    turn_hours    REAL,
    -- NULL until the game starts; secret (it fixes the deck order).
    seed          INTEGER,
    rules_version INTEGER,
    status        TEXT    NOT NULL DEFAULT 'lobby'
                  CHECK (status IN ('lobby', 'cancelled', 'setup', 'playing', 'over', 'broken')),
    -- The seq of the last action in the log (0: the start itself).
    seq           INTEGER NOT NULL DEFAULT 0,
    -- JSON list of the seats the game is waiting for.
    waiting       TEXT    NOT NULL DEFAULT '[]',
    broken_reason TEXT,
    created_at    REAL    NOT NULL,
    updated_at    REAL    NOT NULL
);
CREATE INDEX games_by_channel ON games (guild_id, channel_id, status);
-- A host has at most one open lobby per channel (so a double click cannot open two).
CREATE UNIQUE INDEX games_one_open_lobby ON games (guild_id, channel_id, host_user_id) WHERE status = 'lobby';

CREATE TABLE players (
    game_id   INTEGER NOT NULL REFERENCES games (id),
    seat      INTEGER NOT NULL CHECK (seat >= 0),
    user_id   INTEGER,
    is_ai     INTEGER NOT NULL CHECK (is_ai IN (0, 1)),
    ai_level  TEXT,
    name      TEXT    NOT NULL,
    joined_at REAL    NOT NULL,
    PRIMARY KEY (game_id, seat),
    CHECK ((is_ai = 1 AND user_id IS NULL AND ai_level IS NOT NULL) OR (is_ai = 0 AND user_id IS NOT NULL))
) WITHOUT ROWID;
-- A person sits at most once at a table.
CREATE UNIQUE INDEX players_one_seat_per_user ON players (game_id, user_id) WHERE user_id IS NOT NULL;
CREATE INDEX players_by_user ON players (user_id) WHERE user_id IS NOT NULL;

-- Append-only: seq 0 is the start (its events are the deal), seq n the n-th action.
-- `events` keeps every event, private and hidden ones included: it is the server's record.
CREATE TABLE actions (
    game_id    INTEGER NOT NULL REFERENCES games (id),
    seq        INTEGER NOT NULL CHECK (seq >= 0),
    actor      INTEGER,
    user_id    INTEGER,
    action     TEXT    NOT NULL,
    events     TEXT    NOT NULL,
    created_at REAL    NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;

CREATE TRIGGER actions_are_never_updated BEFORE UPDATE ON actions
BEGIN
    SELECT RAISE(ABORT, 'the action log is append-only');
END;

CREATE TRIGGER actions_are_never_deleted BEFORE DELETE ON actions
BEGIN
    SELECT RAISE(ABORT, 'the action log is append-only');
END;

-- A cache of the state after action `seq`: the log is the truth.
CREATE TABLE snapshots (
    game_id       INTEGER PRIMARY KEY REFERENCES games (id),
    seq           INTEGER NOT NULL,
    rules_version INTEGER NOT NULL,
    state         TEXT    NOT NULL,
    created_at    REAL    NOT NULL
);

-- Reminders and turn limits. A timer with `for_seq` only matters while the game is still at
-- that seq: the move that moves the game on cancels it in the same transaction.
CREATE TABLE timers (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id      INTEGER NOT NULL REFERENCES games (id),
    kind         TEXT    NOT NULL,
    seat         INTEGER,
    for_seq      INTEGER,
    due_at       REAL    NOT NULL,
    payload      TEXT    NOT NULL DEFAULT '{}',
    created_at   REAL    NOT NULL,
    fired_at     REAL,
    cancelled_at REAL
);
CREATE INDEX timers_pending_by_due ON timers (due_at) WHERE fired_at IS NULL AND cancelled_at IS NULL;
CREATE INDEX timers_pending_by_game ON timers (game_id) WHERE fired_at IS NULL AND cancelled_at IS NULL;
-- At most one pending timer of a kind per game and seat (scheduling again replaces it).
CREATE UNIQUE INDEX timers_one_pending ON timers (game_id, kind, coalesce(seat, -1))
    WHERE fired_at IS NULL AND cancelled_at IS NULL;
