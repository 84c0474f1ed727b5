-- Migration 4: what a move owes the players is stored with the move, and nothing a restart
-- needs lives only in the bot's memory.
--
-- `deliveries` is the outbox: the transaction that stores a move also stores each post, edit
-- and direct message the move owes. A dispatcher delivers them with retries; once a message is
-- sent its id is stored, so a retry edits instead of posting twice. `key` is unique per game,
-- so owing the same thing twice stores it once. Payloads hold no secret text: a direct message
-- is rendered from the player's own view when it is sent.
--
-- The game and its seats gain the state the bot used to keep in memory or in timers that never
-- fired: the current turn post, whether (and why) the clocks are stopped, and per seat whether
-- their DMs are closed, how many turns in a row the AI has played for them, and which AI level
-- holds the seat while they are away.

CREATE TABLE deliveries (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id     INTEGER NOT NULL REFERENCES games (id),
    seq         INTEGER NOT NULL,
    kind        TEXT    NOT NULL,
    key         TEXT    NOT NULL,
    user_id     INTEGER,
    payload     TEXT    NOT NULL DEFAULT '{}',
    status      TEXT    NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'dropped', 'failed')),
    attempts    INTEGER NOT NULL DEFAULT 0,
    due_at      REAL    NOT NULL,
    message_id  INTEGER,
    last_error  TEXT,
    created_at  REAL    NOT NULL,
    done_at     REAL,
    UNIQUE (game_id, key)
);
CREATE INDEX deliveries_pending_by_due ON deliveries (due_at) WHERE status = 'pending';
CREATE INDEX deliveries_by_game ON deliveries (game_id, status);

ALTER TABLE games ADD COLUMN paused_reason TEXT;
ALTER TABLE games ADD COLUMN turn_post_id INTEGER;
ALTER TABLE games ADD COLUMN turn_post_seq INTEGER;

ALTER TABLE players ADD COLUMN dm_closed INTEGER NOT NULL DEFAULT 0 CHECK (dm_closed IN (0, 1));
ALTER TABLE players ADD COLUMN absent_turns INTEGER NOT NULL DEFAULT 0 CHECK (absent_turns >= 0);
ALTER TABLE players ADD COLUMN stand_in TEXT;

-- The marker "timers" that earlier versions used for these (due in 2096, never fired) become
-- the columns above, and are cancelled.
UPDATE games SET paused_reason = 'paused by the host'
 WHERE id IN (SELECT game_id FROM timers WHERE kind = 'paused' AND fired_at IS NULL AND cancelled_at IS NULL);
UPDATE players SET absent_turns = coalesce((
    SELECT CASE WHEN json_valid(t.payload) THEN max(0, CAST(json_extract(t.payload, '$.misses') AS INTEGER)) END
      FROM timers AS t
     WHERE t.game_id = players.game_id AND t.seat = players.seat AND t.kind = 'absent'
       AND t.fired_at IS NULL AND t.cancelled_at IS NULL), 0)
 WHERE user_id IS NOT NULL;
UPDATE players SET stand_in = 'greedy' WHERE absent_turns >= 3;
UPDATE timers SET cancelled_at = created_at
 WHERE kind IN ('paused', 'absent', 'stand_in') AND fired_at IS NULL AND cancelled_at IS NULL;

-- Small facts about the bot itself (for example a digest of the slash commands last synced
-- with Discord, so they are synced again only when they change).
CREATE TABLE bot_state (
    key        TEXT PRIMARY KEY,
    value      TEXT NOT NULL,
    changed_at REAL NOT NULL
);
