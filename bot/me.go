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
	"state":    {"👥 Where we are: %s %s", "👥 关系状态：%s %s", "👥 関係：%s %s"},
	"today":    {"📅 We met today", "📅 我们今天刚认识", "📅 今日出会ったばかり"},
	"day":      {"📅 We've known each other for 1 day", "📅 我们认识：1天", "📅 知り合って：1日"},
	"days":     {"📅 We've known each other for %d days", "📅 我们认识：%d天", "📅 知り合って：%d日"},
	"memory":   {"🧠 Things I remember: 1 → /memories", "🧠 我记住的关键信息：共1条 → /memories", "🧠 覚えていること：1件 → /memories"},
	"memories": {"🧠 Things I remember: %d → /memories", "🧠 我记住的关键信息：共%d条 → /memories", "🧠 覚えていること：%d件 → /memories"},
	"topics":   {"💬 What we talk about most:", "💬 我们最常聊的话题：", "💬 よく話す話題："},
	"likes":    {"💙 Your likes: %d", "💙 你给我的点赞：%d次", "💙 いいね：%d回"},
	"health":   {"⚠️ A gentle reminder:", "⚠️ 健康提醒：", "⚠️ 健康のために："},
	"nochart":  {"📈 Your 30-day chart appears after our first conversation.", "📈 聊过一次之后，这里会有30天的图。", "📈 一度お話ししたら、ここに30日間のグラフが出るよ。"},
	"b_mem":    {"Manage my memories", "管理我的记忆", "記憶を管理"},
	"b_priv":   {"Privacy settings", "隐私设置", "プライバシー設定"},
	"b_exp":    {"Export my data", "导出数据", "データを書き出す"},
}

var stateNames = map[heart.RelationshipState][3]string{
	heart.Stranger:     {"just met", "陌生人", "はじめまして"},
	heart.Acquaintance: {"getting to know each other", "熟人", "知り合い"},
	heart.Friend:       {"friends", "朋友", "友だち"},
	heart.Close:        {"close friends", "亲密", "親友"},
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
// PNG, and buttons for memories, privacy and export. The card speaks of the
// chart only when one is attached.
func (h *Handler) meCard(ctx context.Context, u store.User, now time.Time) (Outgoing, error) {
	lang := h.cfg.Persona.Language
	rel := RelationshipOf(u, now, h.loc)
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
	since := now.Add(-MeWindow).In(h.loc).Format(time.DateOnly)
	points, err := h.cfg.Store.DailyPoints(ctx, u.ID, since)
	if err != nil {
		return Outgoing{}, fmt.Errorf("/me points: %w", err)
	}
	likes := 0
	for _, s := range sigs {
		if s.Tag == string(heart.SignalLike) {
			likes++
		}
	}
	first, days := chartData(points, eps, now, h.loc)
	png, caption, chartErr := moodChart(lang, first, days)

	var b strings.Builder
	line := func(s string) { b.WriteString(s + "\n") }
	line(label(lang, "title", h.cfg.Persona.Name))
	line(label(lang, "state", stateNames[rel.State][langIndex(lang)], stateHearts[rel.State]))
	switch d := int(now.Sub(u.CreatedAt).Hours() / 24); d {
	case 0:
		line(label(lang, "today"))
	case 1:
		line(label(lang, "day"))
	default:
		line(label(lang, "days", d))
	}
	if len(mems) == 1 {
		line(label(lang, "memory"))
	} else {
		line(label(lang, "memories", len(mems)))
	}
	if topics := topTopics(eps, 3); len(topics) > 0 {
		line(label(lang, "topics"))
		for i, t := range topics {
			line(fmt.Sprintf("   %s %s (%d%%)", []string{"🥇", "🥈", "🥉"}[i], topicName(t.name, lang), t.percent))
		}
	}
	if chartErr == nil {
		line(caption)
	} else {
		line(label(lang, "nochart"))
	}
	line(label(lang, "likes", likes))
	if health := healthLines(rel, lang); len(health) > 0 {
		line(label(lang, "health"))
		for _, l := range health {
			line("   " + l)
		}
	}
	out := Outgoing{Text: strings.TrimSpace(b.String())}
	out.Buttons = [][]Button{{{Label: label(lang, "b_mem"), Data: "/memories"}, {Label: label(lang, "b_priv"), Data: "/privacy"}, {Label: label(lang, "b_exp"), Data: "/export"}}}
	if chartErr != nil {
		h.log.Debug("no /me chart", "user", u.ID, "err", chartErr)
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
// mood and what moved it, the lingering emotion and the moment behind it,
// the relationship, and what it noticed lately, in plain words.
func (h *Handler) why(ctx context.Context, u store.User, now time.Time) (string, error) {
	ling, err := h.lingering(ctx, u.ID, now)
	if err != nil {
		return "", err
	}
	eps, err := h.cfg.Store.UserEpisodes(ctx, u.ID, now.Add(-WhySignalsWindow), DailyEpisodeScan)
	if err != nil {
		return "", fmt.Errorf("/why episodes: %w", err)
	}
	sigs, err := h.cfg.Store.Signals(ctx, u.ID, now.Add(-WhySignalsWindow))
	if err != nil {
		return "", fmt.Errorf("/why signals: %w", err)
	}
	rel := RelationshipOf(u, now, h.loc)
	why := explainWhy(h.cfg.Persona.Language, u, ling, rel, eps, sigs, now)
	recalled, err := h.whyRecalled(ctx, u, now)
	if err != nil {
		return "", err
	}
	if recalled != "" {
		why += "\n" + recalled
	}
	return why, nil
}
