-- Migration 2: final results, one row per seat, for statistics.
--
-- Games that finished before this migration get their rows from the final snapshot (the state
-- of a finished game holds its score sheets under $.result).

CREATE TABLE results (
    game_id           INTEGER NOT NULL REFERENCES games (id),
    seat              INTEGER NOT NULL,
    user_id           INTEGER,
    is_ai             INTEGER NOT NULL,
    ai_level          TEXT,
    name              TEXT    NOT NULL,
    guild_id          INTEGER NOT NULL,
    variant           TEXT    NOT NULL,
    score             INTEGER NOT NULL,
    -- 1 + the number of seats that scored more (ties share a place); `won` also counts tie-breaks.
    place             INTEGER NOT NULL,
    won               INTEGER NOT NULL CHECK (won IN (0, 1)),
    tickets_completed INTEGER NOT NULL DEFAULT 0,
    tickets_failed    INTEGER NOT NULL DEFAULT 0,
    finished_at       REAL    NOT NULL,
    PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;
CREATE INDEX results_by_user ON results (user_id, guild_id) WHERE user_id IS NOT NULL;
CREATE INDEX results_by_guild ON results (guild_id, finished_at);

-- MATERIALIZED: filter out unreadable snapshots before json_each ever sees them.
WITH finished AS MATERIALIZED (
    SELECT g.id, g.guild_id, g.variant, g.updated_at, s.state
      FROM games AS g
      JOIN snapshots AS s ON s.game_id = g.id
     WHERE g.status = 'over' AND json_valid(s.state) AND json_type(s.state, '$.result.sheets') = 'array'
)
INSERT INTO results (game_id, seat, user_id, is_ai, ai_level, name, guild_id, variant, score, place, won,
                     tickets_completed, tickets_failed, finished_at)
SELECT f.id,
       p.seat,
       p.user_id,
       p.is_ai,
       p.ai_level,
       p.name,
       f.guild_id,
       f.variant,
       json_extract(sheet.value, '$.total'),
       (SELECT 1 + count(*) FROM json_each(f.state, '$.result.sheets') AS other
         WHERE json_extract(other.value, '$.total') > json_extract(sheet.value, '$.total')),
       EXISTS (SELECT 1 FROM json_each(f.state, '$.result.winners') AS w WHERE w.value = p.seat),
       (SELECT count(*) FROM json_each(sheet.value, '$.tickets') AS t WHERE json_extract(t.value, '$.completed')),
       (SELECT count(*) FROM json_each(sheet.value, '$.tickets') AS t WHERE NOT json_extract(t.value, '$.completed')),
       f.updated_at
  FROM finished AS f
  JOIN json_each(f.state, '$.result.sheets') AS sheet
  JOIN players AS p ON p.game_id = f.id AND p.seat = json_extract(sheet.value, '$.seat');
