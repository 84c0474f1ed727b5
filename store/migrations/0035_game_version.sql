-- Migration 35: a game's version (`games.version`), what a process that shares the database
-- compares at every use of a game it holds in memory instead of reading the whole row and its
-- seats again (app/loader.py, PostgreSQL only). SQLite is read and written by one process, so
-- nothing here moves it: the column is kept so that both back ends have the same rows and a
-- copy (store/copy.py) carries it either way. PostgreSQL's 0035_game_version.postgres.sql adds
-- the triggers that move it.

ALTER TABLE games ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
