-- hearth schema v7: follow-ups and what each reply recalled (issue 11
-- items 5 and 6).

-- A dated thing a user mentioned (an exam on Friday, 下周五的生日, 来月の試験)
-- that the life loop may ask about after its day, once. due is that day in
-- the persona's time zone (YYYY-MM-DD); episode_id the episode that
-- mentioned it. asked_at is when the life loop asked (0: not yet);
-- resolved is set when the user told how it went before being asked.
CREATE TABLE follow_ups (
	id         INTEGER PRIMARY KEY,
	user_id    TEXT NOT NULL,
	about      TEXT NOT NULL CHECK (about != ''),
	due        TEXT NOT NULL CHECK (due GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
	episode_id INTEGER,
	created_at INTEGER NOT NULL,
	asked_at   INTEGER NOT NULL DEFAULT 0,
	resolved   INTEGER NOT NULL DEFAULT 0 CHECK (resolved IN (0, 1)),
	UNIQUE (user_id, about, due)
) STRICT;
CREATE INDEX follow_ups_open ON follow_ups (user_id, due) WHERE asked_at = 0 AND resolved = 0;
CREATE INDEX follow_ups_episode ON follow_ups (episode_id) WHERE episode_id IS NOT NULL;

-- Forgetting the episode that mentioned a follow-up forgets the follow-up
-- (seed 003 §8.1 绝对删除), whoever deletes or blanks it.
CREATE TRIGGER follow_ups_episode_delete AFTER DELETE ON episodes BEGIN
	DELETE FROM follow_ups WHERE episode_id = old.id;
END;
CREATE TRIGGER follow_ups_episode_forget AFTER UPDATE OF user_text ON episodes
	WHEN new.user_text = '' AND old.user_text != '' BEGIN
	DELETE FROM follow_ups WHERE episode_id = old.id;
END;

-- What the recall stage put in this episode's reply prompt, for /why: a
-- JSON list of {"kind": "episode" or "memory", "id": episode id or memory
-- slot}, '' for nothing. Ids only, never text: what was forgotten since
-- is simply not found.
ALTER TABLE episodes ADD COLUMN recalled TEXT NOT NULL DEFAULT '';
