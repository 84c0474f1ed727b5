-- Snapshots are written every few moves, and a game is loaded from its snapshot plus the log
-- entries after it (app/loader.py). Each snapshot carries a digest of its text (BLAKE2b,
-- 16 bytes, as hex), so that a damaged one is noticed when it is read and never used: the game
-- is then rebuilt from its log. NULL: a snapshot written before this migration (its game is
-- replayed from the seed once, and gets a snapshot with a digest).
ALTER TABLE snapshots ADD COLUMN digest TEXT;
