package store

import (
	"context"
	"fmt"
	"strings"
)

// ForgetMemory is /forget N (seed 003 §8.1 绝对删除), in one transaction:
// the memory in slot goes, and so does everything that said what it was
// about: each of needles is forgotten as ForgetText forgets it (whole
// words, from the memories, messages, replies, episodes, follow-ups,
// inner_state and scratch of the user). The caller derives the needles
// from the memory; its bare formatted content ("Pets: Biscuit (dog)")
// matches no message. Then the index is rebuilt and the file purged,
// once. It returns the number of rows changed (0: the slot was empty and
// no needle matched); blank needles are skipped.
func (db *DB) ForgetMemory(ctx context.Context, userID string, slot int, needles []string) (int, error) {
	var n int
	err := db.write(ctx, "forget memory", func(tx querier) error {
		res, err := tx.ExecContext(ctx, "DELETE FROM memories WHERE user_id = ? AND slot = ?", userID, slot)
		if err != nil {
			return err
		}
		deleted, err := res.RowsAffected()
		if err != nil {
			return err
		}
		n = int(deleted)
		for _, needle := range needles {
			if strings.TrimSpace(needle) == "" {
				continue
			}
			k, err := forgetText(ctx, tx, userID, needleRegexp(needle))
			if err != nil {
				return err
			}
			n += k
		}
		if n == 0 {
			return nil
		}
		return rebuildRecall(ctx, tx)
	})
	if err != nil {
		return 0, fmt.Errorf("forget memory %s/%d: %w", userID, slot, err)
	}
	if n > 0 {
		db.vectors.clear()
		if err := db.purge(ctx); err != nil {
			return n, err
		}
	}
	return n, nil
}

// ForgetAll is /forget all (seed 003 §8.1 绝对删除), in one transaction:
// afterwards she knows nothing the user said before. Every memory of the
// user is deleted; every episode keeps its row and its emotion values, so
// the mood chart, lingering emotion and the wellbeing checks keep their
// shape, but loses both texts and its topic tags, as ForgetText blanks an
// episode; the texts of their answered messages, of her delivered replies
// and of the life loop's messages to them are blanked (a message still
// waiting in a queue keeps its text: it comes after); inner_state and
// scratch, written about what was said, are emptied; every follow-up and
// every recall document of the user goes, with its vector. Then the index
// is rebuilt and the file purged, once. It returns how many memories were
// deleted and how many episodes (turns of conversation) were blanked; both
// 0 means there was nothing to forget (a command and its answer are no
// turn). What the user says afterwards is stored and recalled again.
func (db *DB) ForgetAll(ctx context.Context, userID string) (memories, episodes int, err error) {
	err = db.write(ctx, "forget all", func(tx querier) error {
		res, err := tx.ExecContext(ctx, "DELETE FROM memories WHERE user_id = ?", userID)
		if err != nil {
			return err
		}
		m, err := res.RowsAffected()
		if err != nil {
			return err
		}
		memories = int(m)
		// The index first: unindexed, the blanked episodes leave nothing
		// for the episodes_recall_edit trigger to find row by row.
		if err := unindexUser(ctx, tx, userID); err != nil {
			return err
		}
		for i, blank := range []string{
			`UPDATE episodes SET user_text = '', reply_text = '', topic_tags = 'null'
				WHERE user_id = ? AND (user_text != '' OR reply_text != '' OR topic_tags NOT IN ('null', '[]'))`,
			`UPDATE inbound SET text = '' WHERE user_id = ? AND status != 'received' AND text != ''`,
			`UPDATE outbound SET text = '' WHERE user_id = ? AND status != 'pending' AND text != ''`,
			`UPDATE proactive_log SET text = '' WHERE user_id = ? AND text != ''`,
		} {
			res, err := tx.ExecContext(ctx, blank, userID)
			if err != nil {
				return fmt.Errorf("blank: %w", err)
			}
			k, err := res.RowsAffected()
			if err != nil {
				return fmt.Errorf("blank: %w", err)
			}
			if i == 0 {
				episodes = int(k)
			}
		}
		// inner_state and scratch are her notes about what was said; the
		// caller seeds inner_state afresh. They do not count as texts: a
		// new user has a seeded inner_state and has said nothing.
		if _, err := tx.ExecContext(ctx, "UPDATE users SET inner_state = '', scratch = '' WHERE id = ?", userID); err != nil {
			return fmt.Errorf("blank: %w", err)
		}
		if err := deleteFollowUps(ctx, tx, userID); err != nil {
			return err
		}
		return rebuildRecall(ctx, tx)
	})
	if err != nil {
		return 0, 0, fmt.Errorf("forget all of %s: %w", userID, err)
	}
	db.vectors.clear()
	return memories, episodes, db.purge(ctx)
}
