-- hearth schema v2: wellbeing (issue 12).

-- The crisis floor's category of the user's message of an episode
-- ('' for none; heart.CrisisCategory), so a crisis turn is recorded as what
-- it is and the daily checks see it.
ALTER TABLE episodes ADD COLUMN crisis TEXT NOT NULL DEFAULT '';

-- Seed 003 §2.3 "点赞": one like per user and bot message, however often
-- the user reacts, unreacts and reacts again.
CREATE TABLE likes (
	user_id     TEXT NOT NULL,
	outbound_id INTEGER NOT NULL,
	at          INTEGER NOT NULL,
	emoji       TEXT NOT NULL DEFAULT '',
	PRIMARY KEY (user_id, outbound_id)
) STRICT, WITHOUT ROWID;
