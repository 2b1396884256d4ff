-- hearth schema v3: senses (DESIGN §12). Voice notes are transcribed, replies
-- may be spoken, photos reach the model.

-- What a transport reported about a message's voice note or photo (JSON the
-- store keeps opaque): enough to fetch it again after a restart. A voice
-- note's is cleared once its transcript is stored as the message's text.
ALTER TABLE inbound ADD COLUMN media TEXT NOT NULL DEFAULT '';

-- How the user spoke in the turn of an episode: text, voice, photo...
-- (seed 003 §1.1 weighs the effort of each).
ALTER TABLE episodes ADD COLUMN modality TEXT NOT NULL DEFAULT '';

-- A spoken reply's audio, kept only while its ledger entry is pending: one
-- entry is the voice note and its text, sent exactly once.
ALTER TABLE outbound ADD COLUMN voice BLOB;

-- What a media call consumed: seconds transcribed, characters spoken or
-- images shown, by kind; prompt holds its token equivalent for the budget.
ALTER TABLE token_usage ADD COLUMN units INTEGER NOT NULL DEFAULT 0;
