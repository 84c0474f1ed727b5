-- Migration 17: each player's own language (issue 28, `/ttr settings language:`), for their
-- private answers and DMs in every game; NULL: their Discord client's language when they are
-- answered, and a game's DMs in its table's language. A catalogue code (`de`, `sv`, …), as
-- bot_app/lang lists them; the store does not check it.
ALTER TABLE user_settings ADD COLUMN language TEXT;
