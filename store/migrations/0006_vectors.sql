-- Semantic recall, optional (issue 11 item 2, DESIGN §12): vectors of the
-- recall documents from the model server's /v1/embeddings, written by a
-- background worker (bot/semantic) when HEARTH_EMBED_MODEL is set. Nothing
-- here is written while it is unset: the queue starts filling once a model
-- was first used in this file.

-- A model tag: an embedding model's name and the dimension it answered
-- with. One tag is active, the one the worker embeds with; vectors of the
-- others are ignored by searches and replaced as the worker re-embeds.
CREATE TABLE recall_models (
	id     INTEGER PRIMARY KEY,
	name   TEXT NOT NULL,
	dim    INTEGER NOT NULL CHECK (dim > 0),
	active INTEGER NOT NULL DEFAULT 0 CHECK (active IN (0, 1)),
	UNIQUE (name, dim)
) STRICT;

-- One vector per recall document, keyed on the document: forgetting a
-- document (the recall index's triggers, /forget, "forget what I said
-- about X") drops its vector in the same statement. vec is the unit-length
-- vector as little-endian float32; code is its sign bits as little-endian
-- 64-bit words, which a search scans (through the covering index below,
-- a few pages per thousand vectors) before it reads the few vectors it
-- ranks exactly.
CREATE TABLE recall_vectors (
	doc_id INTEGER PRIMARY KEY REFERENCES recall_docs (id) ON DELETE CASCADE,
	model  INTEGER NOT NULL,
	code   BLOB NOT NULL,
	vec    BLOB NOT NULL
) STRICT;
CREATE INDEX recall_vectors_scan ON recall_vectors (model, doc_id, code);

-- Documents waiting for a vector of the active model, newest (highest seq)
-- first. Store code queues each new document once a model tag exists;
-- activating a tag queues every document without its vector.
CREATE TABLE recall_vector_queue (
	seq    INTEGER PRIMARY KEY,
	doc_id INTEGER NOT NULL UNIQUE REFERENCES recall_docs (id) ON DELETE CASCADE
) STRICT;

-- The same for connections without foreign keys (the sqlite3 CLI): a
-- deleted document never leaves a vector behind, whoever deleted it.
CREATE TRIGGER recall_docs_vectors_delete AFTER DELETE ON recall_docs BEGIN
	DELETE FROM recall_vectors WHERE doc_id = old.id;
	DELETE FROM recall_vector_queue WHERE doc_id = old.id;
END;
