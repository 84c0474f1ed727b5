-- Migration 7: each player's own preferences, per Discord user and for every game they play
-- (`/ttr settings`): colour-blind marks on the pictures they receive (and on a table's public
-- board while anyone seated there has them on), and whether their hand comes with its picture.
-- A user without a row has the defaults (no marks, the picture on). Whether the bot may DM
-- them stays on their seats (`players.dm_closed`, migration 4), where Discord's refusals land.
-- The same text serves both back ends (PostgreSQL reads INTEGER as BIGINT, REAL as DOUBLE
-- PRECISION: migrations.py).

CREATE TABLE user_settings (
    user_id      INTEGER PRIMARY KEY,
    colorblind   INTEGER NOT NULL DEFAULT 0 CHECK (colorblind IN (0, 1)),
    hand_picture INTEGER NOT NULL DEFAULT 1 CHECK (hand_picture IN (0, 1)),
    updated_at   REAL    NOT NULL
);
