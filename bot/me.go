package bot

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"hearth/heart"
	"hearth/store"
)

// MeWindow is the period of the /me card and chart (seed 003 §9 最近30天).
const MeWindow = 30 * 24 * time.Hour

// WhySignalsWindow is how far back /why lists relationship signals
// (hearth's choice: a week reads as "lately").
const WhySignalsWindow = 7 * 24 * time.Hour

// meLabels are the /me card's labels (seed 003 §9 用户仪表盘), en, zh, ja.
var meLabels = map[string][3]string{
	"title":    {"Me and %s", "我和%s的关系", "わたしと%s"},
	"state":    {"👥 Relationship: %s %s", "👥 关系状态：%s %s", "👥 関係：%s %s"},
	"days":     {"📅 We've known each other: %d days", "📅 我们认识：%d天", "📅 知り合って：%d日"},
	"memories": {"🧠 Things I remember: %d → /memories", "🧠 我记住的关键信息：共%d条 → /memories", "🧠 覚えていること：%d件 → /memories"},
	"topics":   {"💬 What we talk about most:", "💬 我们最常聊的话题：", "💬 よく話す話題："},
	"likes":    {"💙 Your likes: %d", "💙 你给我的点赞：%d次", "💙 いいね：%d回"},
	"health":   {"⚠️ Health reminder:", "⚠️ 健康提醒：", "⚠️ 健康のために："},
	"mood":     {"😊 Mood over 30 days: see the chart", "😊 最近30天情绪趋势：见图", "😊 30日間の気分：グラフを見てね"},
	"b_mem":    {"Manage my memories", "管理我的记忆", "記憶を管理"},
	"b_priv":   {"Privacy settings", "隐私设置", "プライバシー設定"},
	"b_exp":    {"Export my data", "导出数据", "データを書き出す"},
}

var stateNames = map[heart.RelationshipState][3]string{
	heart.Stranger:     {"stranger", "陌生人", "はじめまして"},
	heart.Acquaintance: {"acquaintance", "熟人", "知り合い"},
	heart.Friend:       {"friend", "朋友", "友だち"},
	heart.Close:        {"close friend", "亲密", "親友"},
}

var stateHearts = map[heart.RelationshipState]string{
	heart.Stranger:     "🤍🤍🤍",
	heart.Acquaintance: "❤️🤍🤍",
	heart.Friend:       "❤️❤️🤍",
	heart.Close:        "❤️❤️❤️",
}

func label(lang, key string, args ...any) string {
	s := meLabels[key][langIndex(lang)]
	if len(args) == 0 {
		return s
	}
	return fmt.Sprintf(s, args...)
}

// meCard builds /me: seed 003 §9's dashboard as text, the 30-day chart as a
// PNG, and buttons for memories, privacy and export.
func (h *Handler) meCard(ctx context.Context, u store.User, now time.Time) (Outgoing, error) {
	lang := h.cfg.Persona.Language
	rel := RelationshipOf(u, now)
	mems, err := h.cfg.Store.Memories(ctx, u.ID)
	if err != nil {
		return Outgoing{}, fmt.Errorf("/me memories: %w", err)
	}
	eps, err := h.cfg.Store.UserEpisodes(ctx, u.ID, now.Add(-MeWindow), DailyEpisodeScan)
	if err != nil {
		return Outgoing{}, fmt.Errorf("/me episodes: %w", err)
	}
	sigs, err := h.cfg.Store.Signals(ctx, u.ID, time.Time{})
	if err != nil {
		return Outgoing{}, fmt.Errorf("/me signals: %w", err)
	}
	likes := 0
	for _, s := range sigs {
		if s.Tag == string(heart.SignalLike) {
			likes++
		}
	}
	var b strings.Builder
	b.WriteString(label(lang, "title", h.cfg.Persona.Name) + "\n")
	b.WriteString(label(lang, "state", stateNames[rel.State][langIndex(lang)], stateHearts[rel.State]) + "\n")
	b.WriteString(label(lang, "days", int(now.Sub(u.CreatedAt).Hours()/24)) + "\n")
	b.WriteString(label(lang, "memories", len(mems)) + "\n")
	if topics := topTopics(eps, 3); len(topics) > 0 {
		b.WriteString(label(lang, "topics") + "\n")
		for i, t := range topics {
			fmt.Fprintf(&b, "   %s %s (%d%%)\n", []string{"🥇", "🥈", "🥉"}[i], t.name, t.percent)
		}
	}
	b.WriteString(label(lang, "mood") + "\n")
	b.WriteString(label(lang, "likes", likes) + "\n")
	if health := wellbeing(rel, lang); len(health) > 0 {
		b.WriteString(label(lang, "health") + "\n")
		for _, line := range health {
			b.WriteString("   " + line + "\n")
		}
	}
	out := Outgoing{Text: strings.TrimSpace(b.String())}
	out.Buttons = [][]Button{{{Label: label(lang, "b_mem"), Data: "/memories"}, {Label: label(lang, "b_priv"), Data: "/privacy"}, {Label: label(lang, "b_exp"), Data: "/export"}}}
	since := now.Add(-MeWindow).In(h.loc).Format(time.DateOnly)
	points, err := h.cfg.Store.DailyPoints(ctx, u.ID, since)
	if err != nil {
		return Outgoing{}, fmt.Errorf("/me points: %w", err)
	}
	png, err := moodChart(points, text0(lang, msgChart))
	if err != nil {
		h.log.Warn("draw /me chart", "err", err)
		return out, nil
	}
	out.Photo = &File{Name: "mood-30d.png", MIME: "image/png", Data: png}
	return out, nil
}

type topic struct {
	name    string
	percent int
}

// topTopics ranks the trailer topic tags of eps by frequency.
func topTopics(eps []store.Episode, n int) []topic {
	counts := map[string]int{}
	total := 0
	for _, e := range eps {
		for _, t := range e.TopicTags {
			counts[t]++
			total++
		}
	}
	out := make([]topic, 0, len(counts))
	for k, c := range counts {
		out = append(out, topic{name: k, percent: int(math.Round(100 * float64(c) / float64(total)))})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].percent != out[j].percent {
			return out[i].percent > out[j].percent
		}
		return out[i].name < out[j].name
	})
	if len(out) > n {
		out = out[:n]
	}
	return out
}

// why explains the bot's present state to the user (DESIGN §8 /why): the
// mood and the intents that moved it, the lingering emotion and the
// episodes behind it, and the relationship state with its recent signals.
func (h *Handler) why(ctx context.Context, u store.User, now time.Time) (string, error) {
	ling, err := h.lingering(ctx, u.ID, now)
	if err != nil {
		return "", err
	}
	eps, err := h.cfg.Store.UserEpisodes(ctx, u.ID, now.Add(-heart.LingeringWindow), heart.LingeringMaxEpisodes)
	if err != nil {
		return "", fmt.Errorf("/why episodes: %w", err)
	}
	sigs, err := h.cfg.Store.Signals(ctx, u.ID, now.Add(-WhySignalsWindow))
	if err != nil {
		return "", fmt.Errorf("/why signals: %w", err)
	}
	rel := RelationshipOf(u, now)
	return explainWhy(h.cfg.Persona.Language, u, ling, rel, eps, sigs, now), nil
}
