-- hearth schema v1. Times are INTEGER unix nanoseconds UTC, 0 = unset.
-- Lists and opaque state are JSON text. Tables are STRICT so a wrong Go type
-- fails loudly instead of being stored as something else.

-- Instance configuration: the persona (raw YAML/JSON bytes) and friends.
CREATE TABLE config (
	key        TEXT PRIMARY KEY,
	value      BLOB NOT NULL,
	updated_at INTEGER NOT NULL
) STRICT;

CREATE TABLE users (
	id                TEXT PRIMARY KEY CHECK (id != ''),
	platform          TEXT NOT NULL,
	name              TEXT NOT NULL DEFAULT '',
	private_chat_id   TEXT NOT NULL DEFAULT '',
	created_at        INTEGER NOT NULL DEFAULT 0,
	last_user_at      INTEGER NOT NULL DEFAULT 0,
	last_bot_at       INTEGER NOT NULL DEFAULT 0,
	messages          INTEGER NOT NULL DEFAULT 0 CHECK (messages >= 0),
	reflections       INTEGER NOT NULL DEFAULT 0 CHECK (reflections >= 0),
	mood              REAL NOT NULL DEFAULT 0,
	last_intents      TEXT NOT NULL DEFAULT 'null',
	last_emotion      TEXT NOT NULL DEFAULT '',
	emotion_history   TEXT NOT NULL DEFAULT 'null',
	inner_state       TEXT NOT NULL DEFAULT '',
	scratch           TEXT NOT NULL DEFAULT '',
	relationship      TEXT,
	proactive         INTEGER NOT NULL DEFAULT 1,
	quiet_until       INTEGER NOT NULL DEFAULT 0,
	unreachable       INTEGER NOT NULL DEFAULT 0,
	emergency_contact TEXT NOT NULL DEFAULT '',
	emergency_consent INTEGER NOT NULL DEFAULT 0
) STRICT;
CREATE INDEX users_private_chat ON users (id) WHERE private_chat_id != '';

-- Chats seen, for operators and history; filled by InsertInbound.
CREATE TABLE chats (
	platform TEXT NOT NULL,
	chat_id  TEXT NOT NULL,
	kind     TEXT NOT NULL DEFAULT '',
	first_at INTEGER NOT NULL,
	last_at  INTEGER NOT NULL,
	PRIMARY KEY (platform, chat_id)
) STRICT, WITHOUT ROWID;

-- Inbound messages, stored before any LLM call (DESIGN §3 step 1).
-- message_id NULL (transport gave none) never deduplicates.
CREATE TABLE inbound (
	id         INTEGER PRIMARY KEY AUTOINCREMENT,
	platform   TEXT NOT NULL CHECK (platform != ''),
	chat_id    TEXT NOT NULL,
	chat_kind  TEXT NOT NULL DEFAULT '',
	message_id TEXT,
	user_id    TEXT NOT NULL,
	user_name  TEXT NOT NULL DEFAULT '',
	text       TEXT NOT NULL,
	modality   TEXT NOT NULL DEFAULT '',
	addressed  INTEGER NOT NULL DEFAULT 0,
	at         INTEGER NOT NULL,
	status     TEXT NOT NULL CHECK (status IN ('received', 'answered', 'skipped')),
	UNIQUE (platform, chat_id, message_id)
) STRICT;
CREATE INDEX inbound_received ON inbound (id) WHERE status = 'received';
CREATE INDEX inbound_user ON inbound (user_id, id);

-- The outbound ledger: pending until the platform accepted the message.
CREATE TABLE outbound (
	id           INTEGER PRIMARY KEY AUTOINCREMENT,
	platform     TEXT NOT NULL CHECK (platform != ''),
	chat_id      TEXT NOT NULL CHECK (chat_id != ''),
	chat_kind    TEXT NOT NULL DEFAULT '',
	user_id      TEXT NOT NULL DEFAULT '',
	kind         TEXT NOT NULL DEFAULT '',
	inbound_id   INTEGER,
	text         TEXT NOT NULL,
	attachment   BLOB,
	status       TEXT NOT NULL CHECK (status IN ('pending', 'sent', 'failed')),
	platform_ids TEXT NOT NULL DEFAULT 'null',
	created_at   INTEGER NOT NULL,
	sent_at      INTEGER NOT NULL DEFAULT 0
) STRICT;
CREATE INDEX outbound_pending ON outbound (id) WHERE status = 'pending';
CREATE INDEX outbound_user ON outbound (user_id, id);

-- Platform message ids of sent outbound rows, for reactions (DESIGN §8).
CREATE TABLE outbound_msgs (
	platform        TEXT NOT NULL,
	chat_id         TEXT NOT NULL,
	platform_msg_id TEXT NOT NULL,
	outbound_id     INTEGER NOT NULL REFERENCES outbound (id) ON DELETE CASCADE,
	PRIMARY KEY (platform, chat_id, platform_msg_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX outbound_msgs_outbound ON outbound_msgs (outbound_id);

-- Episodes: a bot answer with the reflection values of that moment (seed 002).
CREATE TABLE episodes (
	id         INTEGER PRIMARY KEY AUTOINCREMENT,
	user_id    TEXT NOT NULL,
	platform   TEXT NOT NULL,
	chat_id    TEXT NOT NULL,
	inbound_id INTEGER,
	user_text  TEXT NOT NULL,
	reply_text TEXT NOT NULL,
	at         INTEGER NOT NULL,
	has_values INTEGER NOT NULL DEFAULT 0,
	label      TEXT NOT NULL DEFAULT '',
	intensity  REAL NOT NULL DEFAULT 0,
	salience   REAL NOT NULL DEFAULT 0,
	confidence REAL NOT NULL DEFAULT 0,
	topic_tags TEXT NOT NULL DEFAULT 'null',
	intent     TEXT NOT NULL DEFAULT '',
	sentiment  REAL NOT NULL DEFAULT 0
) STRICT;
CREATE INDEX episodes_chat ON episodes (platform, chat_id, id);
CREATE INDEX episodes_user_at ON episodes (user_id, at);

-- Memory slots per user: DESIGN §5, slots 0-99; retention from seed 003 §8.
CREATE TABLE memories (
	user_id    TEXT NOT NULL,
	slot       INTEGER NOT NULL CHECK (slot BETWEEN 0 AND 99),
	content    TEXT NOT NULL,
	retention  TEXT NOT NULL CHECK (retention IN ('permanent', 'conditional', 'ephemeral')),
	created_at INTEGER NOT NULL,
	updated_at INTEGER NOT NULL,
	PRIMARY KEY (user_id, slot)
) STRICT, WITHOUT ROWID;

-- Transport cursors (e.g. Telegram update offset).
CREATE TABLE cursors (
	name  TEXT PRIMARY KEY,
	value TEXT NOT NULL
) STRICT, WITHOUT ROWID;

-- Verified gifts (seed 001 §5.4), idempotent on transaction_id.
CREATE TABLE gifts (
	transaction_id TEXT PRIMARY KEY CHECK (transaction_id != ''),
	user_id        TEXT NOT NULL,
	item           TEXT NOT NULL,
	at             INTEGER NOT NULL,
	mood_before    REAL NOT NULL,
	mood_after     REAL NOT NULL,
	result         TEXT
) STRICT;
CREATE INDEX gifts_user ON gifts (user_id, at);

-- Life-loop decisions with their reasons.
CREATE TABLE proactive_log (
	id      INTEGER PRIMARY KEY,
	user_id TEXT NOT NULL,
	at      INTEGER NOT NULL,
	outcome TEXT NOT NULL,
	reason  TEXT NOT NULL DEFAULT '',
	text    TEXT NOT NULL DEFAULT ''
) STRICT;
CREATE INDEX proactive_log_user_at ON proactive_log (user_id, at);

-- Token usage per LLM call, for the daily budget (DESIGN §8).
CREATE TABLE token_usage (
	id         INTEGER PRIMARY KEY,
	at         INTEGER NOT NULL,
	kind       TEXT NOT NULL DEFAULT '',
	user_id    TEXT NOT NULL DEFAULT '',
	prompt     INTEGER NOT NULL DEFAULT 0,
	completion INTEGER NOT NULL DEFAULT 0,
	offline    INTEGER NOT NULL DEFAULT 0
) STRICT;
CREATE INDEX token_usage_at ON token_usage (at) WHERE offline = 0;
CREATE INDEX token_usage_user_at ON token_usage (user_id, at);

-- Relationship signals kept for rolling windows (seed 003 §2).
CREATE TABLE signals (
	id       INTEGER PRIMARY KEY,
	user_id  TEXT NOT NULL,
	at       INTEGER NOT NULL,
	tag      TEXT NOT NULL,
	points   REAL NOT NULL DEFAULT 0,
	weight   REAL NOT NULL DEFAULT 0,
	modality TEXT NOT NULL DEFAULT ''
) STRICT;
CREATE INDEX signals_user_at ON signals (user_id, at);

-- Mood and affinity per user per day (the /me chart, seed 003 §9).
CREATE TABLE daily_points (
	user_id  TEXT NOT NULL,
	day      TEXT NOT NULL CHECK (length(day) = 10),
	mood     REAL NOT NULL,
	affinity REAL NOT NULL,
	PRIMARY KEY (user_id, day)
) STRICT, WITHOUT ROWID;
