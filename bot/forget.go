package bot

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"hearth/heart"
	"hearth/store"
)

// forgetCommand runs /forget N|all on u, reloaded afterwards, and gives
// seed 003 §2.3's feedback signal when a memory was deleted.
func (h *Handler) forgetCommand(ctx context.Context, u *store.User, args string) (string, []heart.RelationshipSignal, error) {
	all := strings.EqualFold(args, "all")
	text, deleted, err := h.forget(ctx, *u, args)
	if err != nil {
		return "", nil, err
	}
	if *u, err = h.reloadAfterForget(ctx, u.ID, all && deleted); err != nil {
		return "", nil, err
	}
	switch {
	case deleted && all:
		// Seed 003 §1.1: deleting every memory is a circuit breaker.
		return text, []heart.RelationshipSignal{heart.FeedbackSignal(heart.SignalMemoryDeletedAll)}, nil
	case deleted:
		return text, []heart.RelationshipSignal{heart.FeedbackSignal(heart.SignalMemoryDeleted)}, nil
	}
	return text, nil, nil
}

// reloadAfterForget reads the user again: forgetting also cut the text out
// of inner_state and scratch, and the answer must commit on top of that,
// not on the copy loaded before. After forgetting everything (all), the
// emptied inner_state starts again from the persona's seed, as for a user
// she has just met.
func (h *Handler) reloadAfterForget(ctx context.Context, userID string, all bool) (store.User, error) {
	u, _, err := h.cfg.Store.User(ctx, userID)
	if err != nil {
		return store.User{}, fmt.Errorf("forget for %s: reload: %w", userID, err)
	}
	if all && u.InnerState == "" {
		u.InnerState = seedInnerState(h.cfg.Persona, u.Name)
	}
	return u, nil
}

// forget deletes one memory or all of them for real (seed 003 §8.1
// 绝对删除). /forget N deletes the memory and, through its needles
// (memoryNeedles), every stored message, reply, episode, follow-up and
// note that said what it was about (store.ForgetMemory). /forget all
// deletes every memory and leaves nothing said before in reach of any
// prompt (store.ForgetAll).
func (h *Handler) forget(ctx context.Context, u store.User, args string) (string, bool, error) {
	lang := h.cfg.Persona.Language
	if strings.EqualFold(args, "all") {
		return h.forgetAll(ctx, u)
	}
	slot, err := strconv.Atoi(args)
	if err != nil {
		return text0(lang, msgForgetUsage), false, nil
	}
	mems, err := h.cfg.Store.Memories(ctx, u.ID)
	if err != nil {
		return "", false, fmt.Errorf("forget for %s: %w", u.ID, err)
	}
	i := slices.IndexFunc(mems, func(m store.Memory) bool { return m.Slot == slot })
	if i < 0 {
		return text0(lang, msgForgotNone), false, nil
	}
	needles := memoryNeedles(mems[i].Content, u.Name, h.cfg.Persona.Name)
	if _, err := h.cfg.Store.ForgetMemory(ctx, u.ID, slot, needles); err != nil {
		return "", false, fmt.Errorf("forget %d of %s: %w", slot, u.ID, err)
	}
	return text0(lang, msgForgotOne, slot), true, nil
}

// forgetAll runs store.ForgetAll for u and says what went: the memories,
// and everything said before. It reports whether anything was forgotten.
func (h *Handler) forgetAll(ctx context.Context, u store.User) (string, bool, error) {
	lang := h.cfg.Persona.Language
	mems, said, err := h.cfg.Store.ForgetAll(ctx, u.ID)
	if err != nil {
		return "", false, fmt.Errorf("forget all of %s: %w", u.ID, err)
	}
	switch {
	case mems == 0 && said == 0:
		return text0(lang, msgForgotNone), false, nil
	case mems == 0:
		return text0(lang, msgForgotAllSaid), true, nil
	}
	return textN(lang, msgForgotAllOne, msgForgotAll, mems), true, nil
}

// forgetByWords handles "forget what I said about X" in any of the three
// languages (seed 003 §8.1 绝对删除): memories mentioning X, and the user's
// stored messages and episodes mentioning it, are deleted for real. "Forget
// everything" is /forget all.
func (h *Handler) forgetByWords(ctx context.Context, in store.Inbound, u store.User, needle string, all bool, now time.Time) error {
	lang := h.cfg.Persona.Language
	all = all || needle == ""
	var (
		text    string
		deleted bool
		signal  = heart.SignalMemoryDeleted
	)
	if all {
		var err error
		if text, deleted, err = h.forgetAll(ctx, u); err != nil {
			return err
		}
		signal = heart.SignalMemoryDeletedAll
	} else {
		n, err := h.cfg.Store.ForgetText(ctx, u.ID, bareNeedle(needle))
		if err != nil {
			return fmt.Errorf("forget for %s: %w", u.ID, err)
		}
		text, deleted = textN(lang, msgForgotWordsOne, msgForgotWords, n), n > 0
		if n == 0 {
			text = text0(lang, msgForgotNone)
		}
	}
	u, err := h.reloadAfterForget(ctx, u.ID, all && deleted)
	if err != nil {
		return err
	}
	var signals []heart.RelationshipSignal
	if deleted {
		signals = append(signals, heart.FeedbackSignal(signal))
	}
	return h.commitAnswer(ctx, in, u, signals, "command", Outgoing{Text: text}, now)
}

// bareNeedle is an English needle without its article or possessive:
// "forget what I said about the exam" means every "exam" ("I have an exam
// on Friday", and its follow-up). A bare word shorter than three letters
// keeps its article ("my ex" is not every "ex").
func bareNeedle(needle string) string {
	for _, det := range []string{"the ", "my ", "a ", "an ", "our ", "your "} {
		if rest := strings.TrimSpace(strings.TrimPrefix(strings.ToLower(needle), det)); rest != strings.ToLower(needle) && utf8.RuneCountInString(rest) >= 3 {
			return rest
		}
	}
	return needle
}

// Bounds of memoryNeedles (hearth's choices). A label is short ("Pets",
// "Lives in", "身近な人"); a needle of one letter or one Chinese or
// Japanese character would match nearly every message (CJK needles match
// anywhere, store.ForgetText).
const (
	memoryLabelMaxRunes  = 16
	memoryNeedleMinRunes = 2
)

// memoryNeedles are what /forget N looks for to forget what a memory was
// about, not just its slot: its whole content (a /remember in the user's
// own words finds the message that said it), and
//   - for a fact written as "Label: value; value" (facts.yaml, in any of the
//     three languages: "Pets: Biscuit (dog)", "宠物：旺财（狗）", "住まい：東京"),
//     each value without its qualifier: "Biscuit", "旺财", "東京";
//   - for a memory in free words ("Ann's dog is called Biscuit", the model's
//     or /remember's), each capitalised word that does not start a
//     sentence, except skip (the user's and the persona's names, which are
//     in nearly every reply), a weekday, a month and "I".
//
// store.ForgetText matches them as whole words, so "Biscuit" finds "My dog
// is called Biscuit" and "How is Biscuit?", never "Biscuitville"; and
// every other memory that names Biscuit goes too: forgetting a pet is
// forgetting what was said about it.
func memoryNeedles(content string, skip ...string) []string {
	content = strings.TrimSpace(content)
	if content == "" {
		return nil
	}
	out := []string{content}
	add := func(s string) {
		s = strings.TrimSpace(s)
		if utf8.RuneCountInString(s) >= memoryNeedleMinRunes && !slices.ContainsFunc(out, func(o string) bool { return strings.EqualFold(o, s) }) {
			out = append(out, s)
		}
	}
	if values, ok := memoryValues(content); ok {
		// The offline brain joins a multi-valued fact with "; ", "；" or
		// "、" (bot/brain/offline_facts.go factSep).
		for _, v := range strings.FieldsFunc(values, func(r rune) bool { return strings.ContainsRune(";；、", r) }) {
			add(unqualified(v))
		}
		return out
	}
	for _, w := range properNames(content) {
		if !slices.ContainsFunc(skip, func(s string) bool { return strings.EqualFold(strings.TrimSpace(s), w) }) {
			add(w)
		}
	}
	return out
}

// memoryValues is what follows a short label and a colon, half- or
// full-width ("Pets: " → "Biscuit (dog)"); ok is false for a memory
// without one.
func memoryValues(content string) (string, bool) {
	i := strings.IndexAny(content, ":：")
	if i <= 0 || utf8.RuneCountInString(content[:i]) > memoryLabelMaxRunes || strings.ContainsAny(content[:i], ".!?。！？") {
		return "", false
	}
	_, size := utf8.DecodeRuneInString(content[i:])
	rest := strings.TrimSpace(content[i+size:])
	return rest, rest != ""
}

// unqualified is a value without its trailing qualifier in half- or
// full-width brackets: the kind in "Biscuit (dog)", the age in "小雨（三岁）".
func unqualified(v string) string {
	v = strings.TrimSpace(v)
	if strings.HasSuffix(v, ")") || strings.HasSuffix(v, "）") {
		if i := strings.LastIndexAny(v, "(（"); i > 0 {
			v = v[:i]
		}
	}
	return strings.TrimSpace(v)
}

// notName reports whether a capitalised English word names no one in
// particular: the pronoun, a weekday or a month (a /remember of "my exam
// is on Friday" must not forget every Friday).
func notName(w string) bool {
	switch w {
	case "I", "I'm", "I've", "I'll", "I'd", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday",
		"Saturday", "Sunday", "January", "February", "March", "April", "May", "June", "July", "August",
		"September", "October", "November", "December":
		return true
	}
	return false
}

// properNames are the capitalised Latin words of text that do not start a
// sentence, with a possessive's "'s" cut ("Biscuit's" → "Biscuit").
func properNames(text string) []string {
	var out []string
	start := true // the next word starts a sentence
	for _, w := range strings.FieldsFunc(text, unicode.IsSpace) {
		word := strings.TrimFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
		word = strings.TrimSuffix(strings.TrimSuffix(word, "'s"), "’s")
		r, _ := utf8.DecodeRuneInString(word)
		if !start && r < unicode.MaxLatin1 && unicode.IsUpper(r) && !notName(word) {
			out = append(out, word)
		}
		last, _ := utf8.DecodeLastRuneInString(w)
		start = strings.ContainsRune(".!?:", last)
	}
	return out
}
