-- The recall index (DESIGN §12, issue 11): every episode and memory slot is
-- searchable with FTS5 inside the instance file. After this file runs, the
-- Go step "recall" (store/recall_index.go) indexes the rows that already
-- exist, in the same transaction.
--
-- Who writes what:
--   * Text enters the index only from Go (indexEpisode, indexMemory), because
--     the CJK n-grams are computed in Go; no custom SQL function is needed, so
--     the sqlite3 CLI can still write every table.
--   * Text leaves the index by the triggers below, whoever deletes or edits
--     an episode or a memory (a forget path, the daily cleanup, an operator
--     in the sqlite3 CLI): nothing forgotten stays searchable.

-- Where an episode was said: 'private' or 'group' (bot.ChatKind), so recall
-- in a group never returns what was said in private. Backfilled from the
-- inbound message, else from the chat; unknown stays '' and counts as
-- private (never recalled in a group).
ALTER TABLE episodes ADD COLUMN chat_kind TEXT NOT NULL DEFAULT '';
-- The perception's disclosure of the turn ('none', 'light', 'deep'; '' for
-- episodes older than this column): deep disclosures weigh more in recall.
ALTER TABLE episodes ADD COLUMN disclosure TEXT NOT NULL DEFAULT '';
UPDATE episodes SET chat_kind = coalesce(
	(SELECT i.chat_kind FROM inbound i WHERE i.id = episodes.inbound_id AND i.chat_kind != ''),
	(SELECT c.kind FROM chats c WHERE c.platform = episodes.platform AND c.chat_id = episodes.chat_id),
	'');

-- A shelf is one owner's part of the index: the user's whole shelf (chat
-- '') holds everything they said anywhere, their memories and the bot's
-- replies to them; a group shelf (chat 'platform chat_id') holds only their
-- own words said in that group. A search reads one shelf, so it cannot
-- return another user's rows, nor private words in a group.
CREATE TABLE recall_shelves (
	id      INTEGER PRIMARY KEY CHECK (id BETWEEN 1 AND 1073741823),
	user_id TEXT NOT NULL,
	chat    TEXT NOT NULL DEFAULT '',
	UNIQUE (user_id, chat)
) STRICT;

-- One row per searchable document: an episode (episode_id) or a memory slot
-- (slot) on one shelf. id = shelf << 32 | n, so a shelf's documents are one
-- range of ids, and of rowids in recall_fts, where a document has the rowid
-- id << 1 for the user's words (or a memory's content) and id << 1 | 1 for
-- the bot's. A search reads each term's postings only inside its shelf's
-- range. An episode said in a group has a document on the user's shelf and
-- one on the group's. Salience, retention and the texts are read from
-- episodes and memories for the few documents a search returns.
-- A future embeddings table keys on recall_docs(id) ON DELETE CASCADE, so
-- forgetting a document drops its vector too.
CREATE TABLE recall_docs (
	id         INTEGER PRIMARY KEY,
	user_id    TEXT NOT NULL,
	episode_id INTEGER,
	slot       INTEGER,
	CHECK ((episode_id IS NULL) != (slot IS NULL))
) STRICT;
CREATE INDEX recall_docs_episode ON recall_docs (episode_id) WHERE episode_id IS NOT NULL;
CREATE UNIQUE INDEX recall_docs_memory ON recall_docs (user_id, slot) WHERE slot IS NOT NULL;

-- The full-text index: one column of text prepared in Go, NFKC-folded,
-- each run of Han and kana replaced by its bigrams and its Han unigrams, so
-- 1- and 2-character Chinese and Japanese words are single tokens. porter
-- over unicode61 stems English ("sailing" finds "sail") and leaves the CJK
-- n-grams as they are. The content is stored in the table itself, so a
-- delete can find every token of the row, and forget paths can 'rebuild'
-- the index from it so no segment keeps a forgotten word.
CREATE VIRTUAL TABLE recall_fts USING fts5(text, tokenize = 'porter unicode61 remove_diacritics 2');

CREATE TRIGGER recall_docs_delete AFTER DELETE ON recall_docs BEGIN
	DELETE FROM recall_fts WHERE rowid IN (old.id << 1, (old.id << 1) | 1);
END;
CREATE TRIGGER episodes_recall_delete AFTER DELETE ON episodes BEGIN
	DELETE FROM recall_docs WHERE episode_id = old.id;
END;
-- An edited episode leaves the index: today's only edit is ForgetText
-- blanking both texts, which must not be found again; an edited owner or
-- chat (the sqlite3 CLI) must not leave a document on the old shelf.
CREATE TRIGGER episodes_recall_edit AFTER UPDATE OF user_text, reply_text, user_id, platform, chat_id, chat_kind ON episodes
	WHEN old.user_text IS NOT new.user_text OR old.reply_text IS NOT new.reply_text OR old.user_id IS NOT new.user_id
		OR old.platform IS NOT new.platform OR old.chat_id IS NOT new.chat_id OR old.chat_kind IS NOT new.chat_kind BEGIN
	DELETE FROM recall_docs WHERE episode_id = old.id;
END;
CREATE TRIGGER memories_recall_delete AFTER DELETE ON memories BEGIN
	DELETE FROM recall_docs WHERE user_id = old.user_id AND slot = old.slot;
END;
-- PutMemory re-indexes the new content in Go after this.
CREATE TRIGGER memories_recall_edit AFTER UPDATE OF content, user_id, slot ON memories
	WHEN old.content IS NOT new.content OR old.user_id IS NOT new.user_id OR old.slot IS NOT new.slot BEGIN
	DELETE FROM recall_docs WHERE user_id = old.user_id AND slot = old.slot;
END;
