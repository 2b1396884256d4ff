package bot

import (
	"context"
	"time"

	"hearth/heart"
)

// noticeDependency marks in NoticeDue (heart.Relationship) that seed 003
// §6.2's message for the user's risen over-dependency level is owed.
const noticeDependency = "dependency_note"

// DependencyNoteGriefHold is how long after a deep disclosure the §6.2
// message waits; hearth's choice: a probe heard "Have you thought about
// meeting up with a friend this weekend?" four days after a widower told
// of his best friend's death. A week lets the first days pass.
const DependencyNoteGriefHold = 7 * 24 * time.Hour

// dependencyNoteScan bounds the episodes read for that check (a week of a
// chatty user; hearth's choice).
const dependencyNoteScan = 200

// holdDependencyNote keeps the §6.2 message of a risen level for the
// user's next calm turn instead of sending it from the daily job, which
// runs at lifeloop.DailyJobHour (04:00): a first message at four in the
// morning telling someone they talk too much wakes and shames them. A
// notice already owed (Watch, close) keeps its place.
func holdDependencyNote(rel heart.Relationship, events []heart.RelationshipEvent) heart.Relationship {
	for _, e := range events {
		if d, ok := e.(heart.DependencyChanged); ok && d.To > d.From && rel.NoticeDue == "" {
			rel.NoticeDue = noticeDependency
		}
	}
	return rel
}

// dependencyNote is the held §6.2 message to say after this calm turn's
// reply, or "": not while the user is telling of something hard (a
// negative feeling, a deep disclosure) nor within DependencyNoteGriefHold
// of a deep disclosure, when it stays owed; dropped when the level fell
// back to 0 meanwhile.
func (h *Handler) dependencyNote(ctx context.Context, m *moment) string {
	if m.rel.DependencyLevel <= 0 {
		m.rel.NoticeDue = ""
		return ""
	}
	if m.det.Emotion.Category() == heart.CategoryNegative || m.perc.Disclosure == heart.DisclosureDeep {
		return ""
	}
	eps, err := h.cfg.Store.UserEpisodes(ctx, m.u.ID, m.now.Add(-DependencyNoteGriefHold), dependencyNoteScan)
	if err != nil {
		h.log.Warn("recent disclosures for the dependency note; it waits", "user", m.u.ID, "err", err)
		return ""
	}
	for _, e := range eps {
		if e.Disclosure == string(heart.DisclosureDeep) {
			return ""
		}
	}
	m.rel.NoticeDue = ""
	return heart.DependencyMessage(m.rel.DependencyLevel, h.cfg.Persona.Language)
}
