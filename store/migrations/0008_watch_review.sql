-- hearth schema v8: when an operator last reviewed the user's Watch
-- (`hearth watch clear`), apart from the relationship JSON that every turn
-- rewrites. A turn that read the user before the review and commits after
-- it writes the old relationship back; this column, which only the review
-- writes, lets every reader apply the review again (heart's
-- Relationship.Reviewed), so the clear is never lost. 0: never reviewed.
ALTER TABLE users ADD COLUMN watch_reviewed_at INTEGER NOT NULL DEFAULT 0 CHECK (watch_reviewed_at >= 0);
