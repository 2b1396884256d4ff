package bot

import (
	"context"
	"errors"
	"fmt"
	"time"

	"hearth/heart"
	"hearth/store"
)

// StateStore is what the state document reads: one snapshot of the file
// (store.DB.View), so a turn committing meanwhile is in the document whole
// or not at all. It works on a read-only store, so `hearth state` is safe
// while the daemon runs.
type StateStore interface {
	View(ctx context.Context, fn func(s *store.Snapshot) error) error
}

// stateReader is what BuildState reads inside the snapshot.
type stateReader interface {
	Users(ctx context.Context) ([]store.User, error)
	User(ctx context.Context, id string) (store.User, bool, error)
	UserEpisodeValues(ctx context.Context, userID string, since time.Time, limit int) ([]store.Episode, error)
	Memories(ctx context.Context, userID string) ([]store.Memory, error)
	TokenTotalsSince(ctx context.Context, since time.Time, userID string) (store.TokenTotals, error)
	UnitsSince(ctx context.Context, since time.Time) (map[string]int, error)
}

var _ stateReader = (*store.Snapshot)(nil)

// StateDoc is the `hearth state` JSON document (DESIGN §9).
type StateDoc struct {
	Persona string      `json:"persona"`
	Tokens  *TokenState `json:"tokens,omitempty"`
	Users   []UserState `json:"users"`
}

// TokenState is today's LLM token usage against the persona's budget.
// Today includes the token equivalents of the senses (DESIGN §12), whose
// own units are shown beside it.
type TokenState struct {
	Today int `json:"today"`
	// Cached is the part of today's prompt tokens the model server read
	// from its prefix cache (where it reports it).
	Cached int  `json:"cached"`
	Budget int  `json:"budget"` // 0: unlimited
	Spent  bool `json:"spent"`  // past the budget: the offline brain answers
	// Today's media: seconds of voice transcribed, characters spoken, photos
	// shown to the model.
	TranscribedSeconds int `json:"transcribed_seconds"`
	SpokenCharacters   int `json:"spoken_characters"`
	ImageInputs        int `json:"image_inputs"`
}

// UserState is one user of the state document.
type UserState struct {
	ID             string                `json:"id"`
	Name           string                `json:"name"`
	Messages       int                   `json:"messages"`
	Reflections    int                   `json:"reflections"`
	Mood           float64               `json:"mood"`
	LastIntents    []string              `json:"last_intents"`
	LastEmotion    string                `json:"last_emotion"`
	EmotionHistory []store.EmotionRecord `json:"emotion_history"`
	Lingering      heart.Lingering       `json:"lingering"`
	Affinity       AffinityState         `json:"affinity"`
	Proactive      bool                  `json:"proactive"`
	InnerState     string                `json:"inner_state"`
	Memories       []MemoryState         `json:"memories"`
}

// AffinityState is the relationship part of a user's state (seed 003).
// WatchReason ("crisis" or "loneliness"), WatchDetail (the crisis floor's
// category, e.g. "ideation", or "model" when only perception saw it) and
// WatchSince tell the reviewer why and since when the user is in Watch.
type AffinityState struct {
	Score           float64   `json:"score"`
	State           string    `json:"state"`
	Watch           bool      `json:"watch"`
	WatchReason     string    `json:"watch_reason,omitempty"`
	WatchDetail     string    `json:"watch_detail,omitempty"`
	WatchSince      time.Time `json:"watch_since,omitzero"`
	Loneliness      float64   `json:"loneliness"`
	DependencyLevel int       `json:"dependency_level"`
}

// MemoryState is one memory slot of a user.
type MemoryState struct {
	Slot      int    `json:"slot"`
	Content   string `json:"content"`
	Retention string `json:"retention"`
}

// StateOptions select what BuildState shows.
type StateOptions struct {
	Persona Persona
	UserID  string // "": every user
	Now     time.Time
	// Lingering, when set, post-processes each user's lingering emotion (the
	// admin API's in-memory debug override).
	Lingering func(userID string, l heart.Lingering) heart.Lingering
}

// BuildState builds the state document at opts.Now from one snapshot of
// the file: lingering emotion and affinity decay are computed for that
// moment, exactly as a turn would.
func BuildState(ctx context.Context, st StateStore, opts StateOptions) (StateDoc, error) {
	var (
		doc   StateDoc
		inner error // the document's own error, said as it was
	)
	err := st.View(ctx, func(s *store.Snapshot) error {
		doc, inner = buildState(ctx, s, opts)
		return inner
	})
	switch {
	case inner != nil:
		return doc, inner
	case err != nil:
		return doc, fmt.Errorf("state: %w", err)
	}
	return doc, nil
}

func buildState(ctx context.Context, st stateReader, opts StateOptions) (StateDoc, error) {
	doc := StateDoc{Persona: opts.Persona.Name, Users: []UserState{}}
	var users []store.User
	if opts.UserID != "" {
		u, ok, err := st.User(ctx, opts.UserID)
		if err != nil {
			return doc, fmt.Errorf("state of %s: %w", opts.UserID, err)
		}
		if !ok {
			return doc, fmt.Errorf("state: no user %q", opts.UserID)
		}
		users = []store.User{u}
	} else {
		var err error
		if users, err = st.Users(ctx); err != nil {
			return doc, fmt.Errorf("state: %w", err)
		}
	}
	loc := opts.Persona.Timezone
	if loc == nil {
		loc = time.UTC
	}
	day := StartOfDay(opts.Now, loc)
	if t, err := st.TokenTotalsSince(ctx, day, ""); err == nil {
		b, used := opts.Persona.Budget.DailyTokens, t.Prompt+t.Completion
		doc.Tokens = &TokenState{Today: used, Cached: t.Cached, Budget: b, Spent: b > 0 && used >= b}
		if units, err := st.UnitsSince(ctx, day); err == nil {
			doc.Tokens.TranscribedSeconds = units[UsageTranscription]
			doc.Tokens.SpokenCharacters = units[UsageSpeech]
			doc.Tokens.ImageInputs = units[UsageImage]
		}
	}
	for _, u := range users {
		us, err := userState(ctx, st, u, opts, loc)
		if err != nil {
			return doc, err
		}
		doc.Users = append(doc.Users, us)
	}
	return doc, nil
}

func userState(ctx context.Context, st stateReader, u store.User, opts StateOptions, loc *time.Location) (UserState, error) {
	eps, err := st.UserEpisodeValues(ctx, u.ID, opts.Now.Add(-heart.LingeringWindow), 0)
	if err != nil {
		return UserState{}, fmt.Errorf("state of %s: %w", u.ID, err)
	}
	ling := heart.ComputeLingering(episodeValues(eps), opts.Now)
	if opts.Lingering != nil {
		ling = opts.Lingering(u.ID, ling)
	}
	mems, err := st.Memories(ctx, u.ID)
	if err != nil {
		return UserState{}, fmt.Errorf("state of %s: %w", u.ID, err)
	}
	rel := RelationshipOf(u, opts.Now, opts.Persona.Timezone)
	us := UserState{
		ID: u.ID, Name: u.Name, Messages: u.Messages, Reflections: u.Reflections,
		Mood: u.Mood, LastIntents: nonNil(u.LastIntents), LastEmotion: u.LastEmotion,
		EmotionHistory: u.EmotionHistory, Lingering: ling,
		Affinity: AffinityState{
			Score: rel.Score, State: string(rel.State), Watch: rel.Watch,
			WatchReason: rel.WatchReason, WatchDetail: rel.WatchDetail, WatchSince: rel.WatchSince,
			Loneliness: rel.Loneliness, DependencyLevel: rel.DependencyLevel,
		},
		Proactive:  u.Proactive && !u.QuietUntil.After(opts.Now),
		InnerState: u.InnerState, Memories: []MemoryState{},
	}
	if us.EmotionHistory == nil {
		us.EmotionHistory = []store.EmotionRecord{}
	}
	if us.LastEmotion == "" {
		us.LastEmotion = string(heart.Neutral)
	}
	for _, m := range mems {
		us.Memories = append(us.Memories, MemoryState{Slot: m.Slot, Content: m.Content, Retention: m.Retention})
	}
	return us, nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// WatchStore is what clearing Watch needs: the review as one write
// transaction (store.DB.ReviewWatch).
type WatchStore interface {
	ReviewWatch(ctx context.Context, userID string, at time.Time, update func(store.User) (store.User, bool)) (bool, error)
}

// ClearWatch ends userID's Watch overlay: the operator's action after a
// person reviewed (seed 003 §3). It reports whether the user was in Watch.
// It runs beside the daemon: the user is read and written in one
// transaction, so no turn committed meanwhile is lost, and the review is
// kept apart from the relationship, so a turn that read the user before it
// and commits after it cannot undo it (decodeRelationship).
func ClearWatch(ctx context.Context, st WatchStore, userID string, now time.Time) (bool, error) {
	cleared, err := st.ReviewWatch(ctx, userID, now, func(u store.User) (store.User, bool) {
		rel := decodeRelationship(u)
		if !rel.Watch {
			return u, false
		}
		u.Relationship = encodeRelationship(rel.ClearWatch(now))
		return u, true
	})
	if errors.Is(err, store.ErrNotFound) {
		return false, fmt.Errorf("clear watch: no user %q", userID)
	}
	if err != nil {
		return false, fmt.Errorf("clear watch of %s: %w", userID, err)
	}
	return cleared, nil
}

// RelationshipOf is u's relationship (seed 003) as of now, with §4's lazy
// decay applied as a turn at now would (days counted in loc, the persona's
// time zone; nil means UTC). Views use it; turns decay as part of the turn.
func RelationshipOf(u store.User, now time.Time, loc *time.Location) heart.Relationship {
	r, _ := decodeRelationship(u).Apply(now, loc, nil, false)
	return r
}

// wellbeing is the prompt's and /me's health guidance: seed 003 §5.2 by
// loneliness and §6.2 by dependency level.
func wellbeing(r heart.Relationship, lang string) []string {
	return append(heart.LonelinessGuidance(r.Loneliness, lang), heart.DependencyGuidance(r.DependencyLevel, lang)...)
}
