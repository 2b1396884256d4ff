package heart

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// TrailerDelimiter separates the user-visible reply from the reflection JSON
// (DESIGN §3 step 8; seed 002's "<<<COCORO_GHOST_OTOME_KAIRO_JSON_v1>>>"
// renamed for hearth).
const TrailerDelimiter = "<<<HEARTH_KAIRO_JSON_v1>>>"

// Bounds of one trailer; the model is a stranger's text generator, so every
// list and string is capped. Our choices (seeds 002 and 004 set no sizes).
const (
	TrailerMaxTopicTags  = 8   // topic tags kept
	TrailerMaxTagRunes   = 40  // runes per tag
	TrailerMaxRemember   = 5   // memory writes per reply
	TrailerMaxContent    = 500 // runes per memory content
	TrailerMaxScratch    = 500 // runes of scratch
	MemorySlotMin        = 0   // DESIGN §5: slots 0-99
	MemorySlotMax        = 99  // DESIGN §5: slots 0-99
	trailerInstructSlots = "slots 0-9 facts about the user, 10-19 shared moments, 20-29 how to treat them (an allergy or health condition of theirs or their family's goes here, to mind at meals and outings), 30-39 your own growth as a companion, 40-99 anything else"
)

// MemoryWrite is one `remember` entry of the trailer: write Content into the
// user's memory slot Slot (DESIGN §5 slot ranges).
type MemoryWrite struct {
	Slot    int    `json:"slot"`
	Content string `json:"content"`
}

// Reflection is the validated trailer of one reply (DESIGN §3 step 8): the
// episode's seed 002 values plus memory and scratch writes (seed 004).
type Reflection struct {
	Label      Label         `json:"emotion_label"`
	Intensity  float64       `json:"emotion_intensity"`
	Salience   float64       `json:"salience"`
	Confidence float64       `json:"confidence"`
	TopicTags  []string      `json:"topic_tags"`
	Remember   []MemoryWrite `json:"remember"`
	Scratch    string        `json:"scratch"`
	// FollowUps are the dated things the user mentioned that the
	// companion may ask about after their day (issue 11 item 5).
	FollowUps []FollowUp `json:"follow_ups"`
	// HasScratch tells "scratch": "" (clear the note) from no scratch key
	// (keep the note).
	HasScratch bool `json:"-"`
	// HasValues is true when the trailer named a valid emotion_label; when
	// false the caller stores the episode without seed 002 values (DESIGN
	// §3 step 8) instead of as neutral zeros.
	HasValues bool `json:"-"`
}

// Episode returns the seed 002 values of r at time at.
func (r Reflection) Episode(at time.Time) EpisodeValues {
	return EpisodeValues{At: at, Label: r.Label, Intensity: r.Intensity, Salience: r.Salience, Confidence: r.Confidence}
}

// ParseTrailer reads and validates the trailer JSON (the text after the
// delimiter; code fences and text around one object are tolerated). Label:
// one of the five, case-insensitive (HasValues), otherwise neutral. Numbers: clamped to
// [0, 1], NaN or missing 0. Topic tags: trimmed, blank and duplicate ones
// dropped, at most TrailerMaxTopicTags of at most TrailerMaxTagRunes.
// Remember: entries with a slot outside 0..99 or blank content dropped,
// content trimmed to TrailerMaxContent runes, at most TrailerMaxRemember
// (later writes to the same slot replace earlier ones). Scratch: trimmed to
// TrailerMaxScratch runes. Follow-ups: entries with a blank about or a due
// that is not a YYYY-MM-DD date dropped, about cut to
// FollowUpMaxAboutRunes, at most FollowUpMaxPerTurn, each once (whether
// the date is near enough is the caller's FollowUpInRange). The only error is that raw holds no JSON object;
// the caller then stores the episode without values (DESIGN §3 step 8).
func ParseTrailer(raw []byte) (Reflection, error) {
	m := new(trailerWire)
	if !findJSONObject(raw, m) {
		return Reflection{}, fmt.Errorf("parse trailer: no JSON object in %d bytes", len(raw))
	}
	r := Reflection{Label: LabelNeutral}
	if s, ok := jsonString(m.EmotionLabel); ok {
		if l := Label(strings.ToLower(strings.TrimSpace(s))); l.Known() {
			r.Label, r.HasValues = l, true
		}
	}
	num := func(v json.RawMessage) float64 {
		f, _ := jsonNumber(v)
		return clampUnit(f, 0)
	}
	r.Intensity, r.Salience, r.Confidence = num(m.EmotionIntensity), num(m.Salience), num(m.Confidence)
	var tags []any
	if present(m.TopicTags) && json.Unmarshal(m.TopicTags, &tags) == nil {
		for _, t := range tags {
			s, ok := t.(string)
			if !ok {
				continue
			}
			s = truncateRunes(strings.TrimSpace(s), TrailerMaxTagRunes)
			if s == "" || containsString(r.TopicTags, s) {
				continue
			}
			if len(r.TopicTags) == TrailerMaxTopicTags {
				break
			}
			r.TopicTags = append(r.TopicTags, s)
		}
	}
	var rem []any
	if present(m.Remember) && json.Unmarshal(m.Remember, &rem) == nil {
		for _, x := range rem {
			e, ok := x.(map[string]any)
			if !ok {
				continue
			}
			w, ok := memoryWrite(e)
			if !ok {
				continue
			}
			if i := slotIndex(r.Remember, w.Slot); i >= 0 {
				r.Remember[i] = w
				continue
			}
			if len(r.Remember) == TrailerMaxRemember {
				break
			}
			r.Remember = append(r.Remember, w)
		}
	}
	if s, ok := jsonString(m.Scratch); ok {
		r.Scratch, r.HasScratch = truncateRunes(strings.TrimSpace(s), TrailerMaxScratch), true
	}
	r.FollowUps = followUpWrites(m.FollowUps)
	return r, nil
}

// followUpWrites validates the trailer's follow_ups list.
func followUpWrites(raw json.RawMessage) []FollowUp {
	var list []any
	if !present(raw) || json.Unmarshal(raw, &list) != nil {
		return nil
	}
	var out []FollowUp
	for _, x := range list {
		e, ok := x.(map[string]any)
		if !ok {
			continue
		}
		about, _ := e["about"].(string)
		due, _ := e["due"].(string)
		f := FollowUp{About: FollowUpAbout(about), Due: strings.TrimSpace(due)}
		if _, err := time.Parse(time.DateOnly, f.Due); err != nil || f.About == "" || slices.Contains(out, f) {
			continue
		}
		if len(out) == FollowUpMaxPerTurn {
			break
		}
		out = append(out, f)
	}
	return out
}

// memoryWrite validates one remember entry.
func memoryWrite(e map[string]any) (MemoryWrite, bool) {
	slot, ok := e["slot"].(float64)
	if !ok || slot < MemorySlotMin || slot > MemorySlotMax || slot != float64(int(slot)) {
		return MemoryWrite{}, false
	}
	content, ok := e["content"].(string)
	content = truncateRunes(strings.TrimSpace(content), TrailerMaxContent)
	if !ok || content == "" {
		return MemoryWrite{}, false
	}
	return MemoryWrite{Slot: int(slot), Content: content}, true
}

// slotIndex is the index of the write to slot in ws, or -1.
func slotIndex(ws []MemoryWrite, slot int) int {
	for i, w := range ws {
		if w.Slot == slot {
			return i
		}
	}
	return -1
}

// containsString reports whether list holds s.
func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// truncateRunes cuts s to at most n runes, never inside a rune; invalid
// UTF-8 is replaced so stored text is always valid.
func truncateRunes(s string, n int) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i := 0
	for pos := range s {
		if i == n {
			return s[:pos]
		}
		i++
	}
	return s
}

// TrailerInstructions is the system prompt section that asks the reply
// model for the trailer (DESIGN §3 step 8). language names the reply's
// language; the JSON stays in English keys.
func TrailerInstructions(language string) string {
	return "After your reply, write one line containing exactly " + TrailerDelimiter +
		" and then one JSON object on the next line, nothing after it. The user never sees this part; never mention it " +
		"and never write the delimiter anywhere else. Schema:\n" +
		`{"emotion_label": "joy|sadness|anger|fear|neutral", "emotion_intensity": 0.0, "salience": 0.0, "confidence": 0.0, ` +
		`"topic_tags": ["..."], "remember": [{"slot": 0, "content": "..."}], "scratch": "...", ` +
		`"follow_ups": [{"about": "...", "due": "YYYY-MM-DD"}]}` + "\n" +
		"- emotion_label and emotion_intensity (0..1): how YOU feel after this exchange.\n" +
		"- salience (0..1): how important this moment is; everyday chat is low, big events are high.\n" +
		"- confidence (0..1): how sure you are of these values.\n" +
		fmt.Sprintf("- topic_tags: up to %d short tags of what was talked about.\n", TrailerMaxTopicTags) +
		fmt.Sprintf("- remember: at most %d memories worth keeping (%s); an empty list when nothing is new.\n", TrailerMaxRemember, trailerInstructSlots) +
		"- scratch: a short note of what you are in the middle of with this user (not facts); omit the key to keep the current note.\n" +
		fmt.Sprintf("- follow_ups: at most %d dated things the user just mentioned that you could ask about afterwards "+
			"(an exam on Friday, an interview tomorrow, a birthday next week): about is a few words naming it, due the date "+
			"it happens (YYYY-MM-DD, from the time in the context note); an empty list when none.\n", FollowUpMaxPerTurn) +
		"Memory contents, scratch and follow-up abouts are written in " + LanguageName(language) + "."
}

// trailerWire is the trailer JSON as raw fields, validated one by one.
type trailerWire struct {
	EmotionLabel     json.RawMessage `json:"emotion_label"`
	EmotionIntensity json.RawMessage `json:"emotion_intensity"`
	Salience         json.RawMessage `json:"salience"`
	Confidence       json.RawMessage `json:"confidence"`
	TopicTags        json.RawMessage `json:"topic_tags"`
	Remember         json.RawMessage `json:"remember"`
	Scratch          json.RawMessage `json:"scratch"`
	FollowUps        json.RawMessage `json:"follow_ups"`
}

func (w *trailerWire) fields() []rawField {
	return []rawField{{"emotion_label", &w.EmotionLabel}, {"emotion_intensity", &w.EmotionIntensity},
		{"salience", &w.Salience}, {"confidence", &w.Confidence}, {"topic_tags", &w.TopicTags},
		{"remember", &w.Remember}, {"scratch", &w.Scratch}, {"follow_ups", &w.FollowUps}}
}
