package bot

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"hearth/heart"
	"hearth/store"
)

// WhyEpisodes is how many episodes /why names as the causes of the
// lingering emotion (hearth's choice: enough to explain, short to read).
const WhyEpisodes = 1

// WhyIntents is how many of the user's latest intents /why tells (seed 001
// keeps ten; the last few are what moved the mood now).
const WhyIntents = 5

// WhyTopicTurns is how often a theme must come up in a week, with the same
// kind of feeling, before /why calls it a pattern (hearth's choice).
const WhyTopicTurns = 2

// whyQuote bounds a quoted message in /why, in runes (hearth's choice:
// about a line on a phone, enough to recognise what was said).
const whyQuote = 60

var whyWords = map[string][3]string{
	"moved":   {"What moved me lately: %s.", "最近让我心情变化的是：%s。", "最近わたしの気持ちを動かしたこと：%s。"},
	"linger":  {"Something still stays with me: %s, from when you said “%s” (%s).", "我心里还留着%s，因为你说过“%s”（%s）。", "まだ心に%sが残っているよ。「%s」と言っていたから（%s）。"},
	"lingerq": {"Something still stays with me: %s.", "我心里还留着%s。", "まだ心に%sが残っているよ。"},
	"calm":    {"Nothing heavy is lingering in me; I feel settled.", "我心里没有什么放不下的，很平静。", "心に残っている重たいものはなくて、落ち着いているよ。"},
	"refuse":  {"I'm upset enough that I might say no to some things right now.", "我现在有点生气，可能会拒绝一些请求。", "いまは少し怒っていて、断ることもあるかも。"},
	"lately":  {"Lately I've noticed: %s.", "最近我注意到：%s。", "最近気づいたこと：%s。"},
	"recall":  {"For my last reply I remembered %s.", "回复你上一条消息时，我想起了%s。", "さっきの返事では、%sを思い出していたよ。"},
	"item":    {"“%s” (%s)", "“%s”（%s）", "「%s」（%s）"},
	"watch":   {"I'm also keeping a gentle eye on how you're doing, and a person on the team will check in.", "我也在温柔地关注你的状况，团队里会有人来看看。", "あなたの様子をそっと見守っていて、チームの人も確認するよ。"},
	"and":     {" and ", "和", "、"},
	"comma":   {", ", "、", "、"},
}

func whyWord(lang, key string) string { return whyWords[key][langIndex(lang)] }

// whyRecalled says what the recall stage brought back for the user's last
// reply (issue 11 item 6), from the ids its episode recorded: what they
// said and what is kept about them, each with when, in plain words.
// Something forgotten since is simply gone; crisis words are not quoted
// back. "" when nothing was.
func (h *Handler) whyRecalled(ctx context.Context, u store.User, now time.Time) (string, error) {
	refs, at, err := h.cfg.Store.LastRecall(ctx, u.ID)
	if err != nil || at.IsZero() {
		return "", err
	}
	var ids []int64
	for _, r := range refs {
		if r.Kind == store.RecallEpisode {
			ids = append(ids, r.ID)
		}
	}
	eps, err := h.cfg.Store.EpisodesByID(ctx, u.ID, ids)
	if err != nil {
		return "", fmt.Errorf("/why recalled episodes: %w", err)
	}
	mems, err := h.cfg.Store.Memories(ctx, u.ID)
	if err != nil {
		return "", fmt.Errorf("/why recalled memories: %w", err)
	}
	lang := h.cfg.Persona.Language
	local := now.In(h.loc)
	var items []string
	for _, r := range refs {
		text, when := "", time.Time{}
		switch r.Kind {
		case store.RecallEpisode:
			if i := slices.IndexFunc(eps, func(e store.Episode) bool { return e.ID == r.ID }); i >= 0 {
				text, when = eps[i].UserText, eps[i].At
			}
		case store.RecallMemory:
			if i := slices.IndexFunc(mems, func(m store.Memory) bool { return int64(m.Slot) == r.ID }); i >= 0 {
				text, when = mems[i].Content, mems[i].UpdatedAt
			}
		}
		if strings.TrimSpace(text) == "" || heart.CrisisText(text) {
			continue
		}
		items = append(items, fmt.Sprintf(whyWord(lang, "item"), heart.ClipRunes(text, whyQuote+1), heart.RecallWhen(when, local, lang)))
	}
	if len(items) == 0 {
		return "", nil
	}
	return fmt.Sprintf(whyWord(lang, "recall"), joinList(items, lang)), nil
}

// explainWhy tells the user, in plain words in the persona's language, why
// the persona feels and acts as it does now (DESIGN §8 /why): its mood and
// what moved it, what still lingers and the moment behind it, where the
// relationship stands, and what it noticed lately. eps are the user's
// episodes of the last WhySignalsWindow, oldest first.
func explainWhy(lang string, u store.User, ling heart.Lingering, rel heart.Relationship, eps []store.Episode, sigs []store.Signal, now time.Time) string {
	lines := []string{moodSentence(u.Mood, lang)}
	if did := intentPhrases(u.LastIntents, lang); len(did) > 0 {
		lines = append(lines, fmt.Sprintf(whyWord(lang, "moved"), joinList(did, lang)))
	}
	if name := lingerName(ling.Label, ling.Intensity, lang); ling.Label == heart.LabelNeutral || name == "" {
		lines = append(lines, whyWord(lang, "calm"))
	} else {
		recent := eps[:0:0]
		for _, e := range eps {
			if now.Sub(e.At) <= heart.LingeringWindow {
				recent = append(recent, e)
			}
		}
		if causes := episodeCauses(recent, ling.Label, now); len(causes) > 0 && causes[0].UserText != "" && !heart.CrisisText(causes[0].UserText) {
			// Words of self-harm are not quoted back at the user, and
			// forgotten words (blanked) are not quoted at all.
			c := causes[0]
			lines = append(lines, fmt.Sprintf(whyWord(lang, "linger"), name, heart.ClipRunes(c.UserText, whyQuote+1), ago(now.Sub(c.At), lang)))
		} else {
			lines = append(lines, fmt.Sprintf(whyWord(lang, "lingerq"), name))
		}
		if ling.RefusalAllowed {
			lines = append(lines, whyWord(lang, "refuse"))
		}
	}
	if s, ok := stateWords[rel.State]; ok {
		lines = append(lines, s[langIndex(lang)])
	}
	if lately := append(topicsLately(eps, lang), signalsLately(sigs, lang)...); len(lately) > 0 {
		lines = append(lines, fmt.Sprintf(whyWord(lang, "lately"), joinList(lately, lang)))
	}
	if rel.Watch {
		lines = append(lines, whyWord(lang, "watch"))
	}
	return strings.Join(lines, "\n")
}

// intentPhrases says what the user's latest intents were, newest first,
// each once; small talk says nothing.
func intentPhrases(intents []string, lang string) []string {
	var out []string
	seen := map[string]bool{}
	for i := len(intents) - 1; i >= 0 && i >= len(intents)-WhyIntents; i-- {
		w, ok := intentWords[heart.Intent(intents[i])]
		if !ok || seen[intents[i]] {
			continue
		}
		seen[intents[i]] = true
		out = append(out, w[langIndex(lang)])
	}
	return out
}

// topicsLately finds the themes that came up at least WhyTopicTurns times
// with the same kind of feeling ("you've been under a lot of pressure at
// work lately"), most frequent first.
func topicsLately(eps []store.Episode, lang string) []string {
	type key struct {
		tag  string
		hard bool
	}
	counts := map[key]int{}
	for _, e := range eps {
		if !e.HasValues || heart.Label(e.Label) == heart.LabelNeutral {
			continue
		}
		hard := heart.Label(e.Label) != heart.LabelJoy
		for _, t := range e.TopicTags {
			counts[key{t, hard}]++
		}
	}
	var keys []key
	for k, n := range counts {
		if n >= WhyTopicTurns && counts[key{k.tag, !k.hard}] <= n {
			keys = append(keys, k)
		}
	}
	sort.Slice(keys, func(i, j int) bool {
		if counts[keys[i]] != counts[keys[j]] {
			return counts[keys[i]] > counts[keys[j]]
		}
		return keys[i].tag < keys[j].tag
	})
	var out []string
	for _, k := range keys {
		if w, ok := topicLately[k.tag]; ok {
			out = append(out, w[k.hard][langIndex(lang)])
			continue
		}
		out = append(out, fmt.Sprintf(topicLately[""][k.hard][langIndex(lang)], topicName(k.tag, lang)))
	}
	return out
}

// signalsLately says what the persona noticed, in a fixed order; tags
// without words are left out.
func signalsLately(sigs []store.Signal, lang string) []string {
	seen := map[string]bool{}
	var tags []string
	for _, s := range sigs {
		if _, ok := signalWords[s.Tag]; ok && !seen[s.Tag] {
			seen[s.Tag] = true
			tags = append(tags, s.Tag)
		}
	}
	sort.Strings(tags)
	out := make([]string, 0, len(tags))
	for _, t := range tags {
		out = append(out, signalWords[t][langIndex(lang)])
	}
	return out
}

// joinList joins phrases the way lang lists them ("a, b and c", "a、b和c").
func joinList(items []string, lang string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return strings.Join(items[:len(items)-1], whyWord(lang, "comma")) + whyWord(lang, "and") + items[len(items)-1]
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
