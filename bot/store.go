package bot

import (
	"context"
	"time"

	"hearth/store"
)

// TurnStore is what the turn engine needs from storage. *store.DB implements
// it; the interface lists only the methods used here.
type TurnStore interface {
	InsertInbounds(ctx context.Context, ms []store.Inbound) ([]int64, []bool, error)
	PendingInbound(ctx context.Context) ([]store.Inbound, error)
	SetInboundStatus(ctx context.Context, id int64, status string) error
	SetInboundHeard(ctx context.Context, id int64, text string, addressed bool, media string, usage []store.Usage) error

	User(ctx context.Context, id string) (store.User, bool, error)
	EnsureUser(ctx context.Context, u store.User) (store.User, error)
	UpdateUser(ctx context.Context, u store.User) error
	SetUnreachable(ctx context.Context, userID string, unreachable bool) error
	Users(ctx context.Context) ([]store.User, error)

	CommitTurn(ctx context.Context, t store.Turn) ([]int64, error)
	ChatHistory(ctx context.Context, platform, chatID string, limit int) ([]store.Episode, error)
	UserEpisodes(ctx context.Context, userID string, since time.Time, limit int) ([]store.Episode, error)
	UserEpisodeValues(ctx context.Context, userID string, since time.Time, limit int) ([]store.Episode, error)
	UpdateEpisodeValues(ctx context.Context, e store.Episode) error

	EnqueueOutbound(ctx context.Context, o store.Outbound) (int64, error)
	PendingOutbound(ctx context.Context) ([]store.Outbound, error)
	MarkOutbound(ctx context.Context, id int64, status string, platformIDs []string, at time.Time) error
	MarkOutboundAsync(ctx context.Context, o store.Outbound, status string, platformIDs []string, at time.Time, then func(error))
	// Flush commits the writes queued without a waiter (MarkOutboundAsync).
	Flush(ctx context.Context) error
	OutboundStatus(ctx context.Context, id int64) (string, error)
	OutboundByPlatformID(ctx context.Context, platform, chatID, platformMsgID string) (store.Outbound, bool, error)

	Memories(ctx context.Context, userID string) ([]store.Memory, error)
	PutMemory(ctx context.Context, m store.Memory) error
	ExpireMemory(ctx context.Context, userID string, slot int) (bool, error)
	ForgetMemory(ctx context.Context, userID string, slot int, needles []string) (int, error)
	ForgetAll(ctx context.Context, userID string) (memories, episodes int, err error)
	ForgetText(ctx context.Context, userID, needle string) (int, error)
	Scrub(ctx context.Context) error

	AddSignals(ctx context.Context, s ...store.Signal) error
	Signals(ctx context.Context, userID string, since time.Time) ([]store.Signal, error)
	AddUsage(ctx context.Context, u ...store.Usage) error
	TokensSince(ctx context.Context, since time.Time, userID string) (int, error)
	DailyPoints(ctx context.Context, userID, sinceDay string) ([]store.DailyPoint, error)
	ProactiveLog(ctx context.Context, userID string, since time.Time) ([]store.Proactive, error)
	Export(ctx context.Context, userID string) (store.UserExport, error)

	Recall(ctx context.Context, q store.RecallQuery) ([]store.RecallHit, error)
	LastRecall(ctx context.Context, userID string) ([]store.RecallRef, time.Time, error)
	EpisodesByID(ctx context.Context, userID string, ids []int64) ([]store.Episode, error)
	SalientEpisodes(ctx context.Context, userID string, since, until time.Time, minSalience float64, limit int) ([]store.Episode, error)
	OpenFollowUps(ctx context.Context, userID, since, before string, limit int) ([]store.FollowUp, error)
	ResolveFollowUps(ctx context.Context, ids []int64) error

	Gift(ctx context.Context, txID string) (store.Gift, bool, error)
	CommitGift(ctx context.Context, g store.Gift, u store.User, out *store.Outbound) (store.Gift, bool, error)
}
