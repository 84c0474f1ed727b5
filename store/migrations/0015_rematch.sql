-- Rematches (issue 27): each human player's press of Rematch under a finished game's final
-- post, and the link from a finished game to its rematch (at most one: the button works once).
-- `rematch_votes`: one row per player who pressed (pressing twice is refused before it is
-- written). `rematches`: the new table opened for the game; its primary key refuses a second.
CREATE TABLE rematch_votes (
    game_id    INTEGER NOT NULL REFERENCES games (id),
    user_id    INTEGER NOT NULL,
    created_at REAL    NOT NULL,
    PRIMARY KEY (game_id, user_id)
);

CREATE TABLE rematches (
    game_id     INTEGER NOT NULL PRIMARY KEY REFERENCES games (id),
    new_game_id INTEGER NOT NULL,
    created_at  REAL    NOT NULL
);
