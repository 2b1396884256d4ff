package bot

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"hearth/heart"
	"hearth/store"
)

// WhyEpisodes is how many episodes /why names as the causes of the
// lingering emotion (hearth's choice: enough to explain, short to read).
const WhyEpisodes = 3

var whyLabels = map[string][3]string{
	"mood":    {"My mood toward you is %.1f (from -100 to 100).", "我对你的心情值是 %.1f（-100 到 100）。", "あなたへの気分は %.1f（-100〜100）。"},
	"intents": {"Recent things you did that moved it: %s.", "最近影响它的是你的这些表达：%s。", "最近それを動かしたあなたの言葉：%s。"},
	"linger":  {"What still lingers in me: %s (%.2f).", "我心里还留着的情绪：%s（%.2f）。", "まだ心に残っている気持ち：%s（%.2f）。"},
	"calm":    {"Nothing strong lingers in me right now; I feel calm.", "我现在心里没有强烈的余韵，很平静。", "いまは強く残っている気持ちはなくて、落ち着いているよ。"},
	"because": {"Mostly because of:", "主要是因为：", "おもにこのせい："},
	"refuse":  {"I'm upset enough that I might say no to things right now.", "我现在有点生气，可能会拒绝一些请求。", "いまは少し怒っていて、断ることもあるかも。"},
	"rel":     {"Our relationship: %s, affinity %.1f of 100.", "我们的关系：%s，好感度 %.1f/100。", "わたしたちの関係：%s、好感度 %.1f/100。"},
	"signals": {"This week it noticed: %s.", "这周我注意到：%s。", "今週気づいたこと：%s。"},
	"watch":   {"I'm also keeping a gentle eye on how you're doing, and a person on the team will check in.", "我也在温柔地关注你的状况，团队里会有人来看看。", "あなたの様子をそっと見守っていて、チームの人も確認するよ。"},
	"ago":     {"%s ago", "%s前", "%s前"},
}

func whyLabel(lang, key string, args ...any) string {
	s := whyLabels[key][langIndex(lang)]
	if len(args) == 0 {
		return s
	}
	return fmt.Sprintf(s, args...)
}

func explainWhy(lang string, u store.User, ling heart.Lingering, rel heart.Relationship, eps []store.Episode, sigs []store.Signal, now time.Time) string {
	var b strings.Builder
	b.WriteString(whyLabel(lang, "mood", u.Mood) + "\n")
	if n := len(u.LastIntents); n > 0 {
		recent := u.LastIntents[max(0, n-5):]
		b.WriteString(whyLabel(lang, "intents", strings.Join(recent, ", ")) + "\n")
	}
	if ling.Label == heart.LabelNeutral {
		b.WriteString(whyLabel(lang, "calm") + "\n")
	} else {
		b.WriteString(whyLabel(lang, "linger", ling.Label, ling.Intensity) + "\n")
		causes := episodeCauses(eps, ling.Label, now)
		if len(causes) > 0 {
			b.WriteString(whyLabel(lang, "because") + "\n")
			for _, c := range causes {
				fmt.Fprintf(&b, "  • %q (%s)\n", clip(c.UserText, 60), whyLabel(lang, "ago", now.Sub(c.At).Round(time.Minute)))
			}
		}
		if ling.RefusalAllowed {
			b.WriteString(whyLabel(lang, "refuse") + "\n")
		}
	}
	b.WriteString(whyLabel(lang, "rel", stateNames[rel.State][langIndex(lang)], rel.Score) + "\n")
	if len(sigs) > 0 {
		tags := map[string]bool{}
		var names []string
		for _, s := range sigs {
			if !tags[s.Tag] {
				tags[s.Tag] = true
				names = append(names, s.Tag)
			}
		}
		sort.Strings(names)
		b.WriteString(whyLabel(lang, "signals", strings.Join(names, ", ")) + "\n")
	}
	if rel.Watch {
		b.WriteString(whyLabel(lang, "watch") + "\n")
	}
	return strings.TrimSpace(b.String())
}

// episodeCauses are the episodes of label with the largest present impact
// (heart.Impact, seed 002's formula at now).
func episodeCauses(eps []store.Episode, label heart.Label, now time.Time) []store.Episode {
	type scored struct {
		e store.Episode
		v float64
	}
	var s []scored
	for _, e := range eps {
		if !e.HasValues || heart.Label(e.Label) != label {
			continue
		}
		v := heart.Impact(heart.EpisodeValues{At: e.At, Label: heart.Label(e.Label), Intensity: e.Intensity, Salience: e.Salience, Confidence: e.Confidence}, now)
		s = append(s, scored{e, v})
	}
	sort.SliceStable(s, func(i, j int) bool { return s[i].v > s[j].v })
	out := make([]store.Episode, 0, WhyEpisodes)
	for i := 0; i < len(s) && i < WhyEpisodes; i++ {
		out = append(out, s[i].e)
	}
	return out
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
