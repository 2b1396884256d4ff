package brain

import (
	"strings"
	"testing"

	"hearth/bot"
)

// Issue 14 item 4: with the offline brain she says honestly that she cannot
// listen or look right now, in the persona's language, and never describes
// a photo; without media she says no such thing.
func TestOfflineSaysWhatItCannotPerceive(t *testing.T) {
	o := NewOffline()
	for _, lang := range []string{langEN, langZH, langJA} {
		for _, sense := range []string{"voice", "photo", "other"} {
			want := o.loaded().book["unsensed."+sense][lang][0]
			for i, text := range append(userTexts[lang], "[photo]") {
				h := bot.Hints{Language: lang, Text: text, Turn: i, Intent: "SMALL_TALK", Unsensed: sense, MaxLength: 300}
				got := reply(t, o, h).Text
				if !strings.HasPrefix(got, want) {
					t.Errorf("%s %s %q: reply %q does not start with %q", lang, sense, text, got, want)
				}
				h.Unsensed = ""
				if got := reply(t, o, h).Text; strings.Contains(got, want) {
					t.Errorf("%s %q without media: %q", lang, text, got)
				}
			}
		}
	}
}

// A photo, voice note or file sent alone that she could not take in is
// answered with what she could not do and nothing else: no greeting or
// small talk about the placeholder that stands in for the user's words
// ("Hello again! What would you like to talk about today? Ah, okay.").
func TestOfflineAnswersWordlessMediaWithTheSenseAlone(t *testing.T) {
	o := NewOffline()
	for _, lang := range []string{langEN, langZH, langJA} {
		for sense, text := range map[string]string{"voice": "[voice message]", "photo": "[photo]", "other": "[attachment]"} {
			want := o.loaded().book["unsensed."+sense][lang][0]
			for turn := range 5 {
				h := bot.Hints{Language: lang, Text: text, Wordless: true, Turn: turn, Intent: "SMALL_TALK", Unsensed: sense, MaxLength: 300}
				if got := reply(t, o, h).Text; strings.TrimSpace(got) != want {
					t.Errorf("%s %s turn %d: %q, want %q alone", lang, sense, turn, got, want)
				}
			}
		}
	}
}

// A photo too large to look at is said to be too large, with the limit,
// in the persona's language, not "I can't look at photos right now".
func TestOfflineSaysAPhotoWasTooLarge(t *testing.T) {
	o := NewOffline()
	for _, lang := range []string{langEN, langZH, langJA} {
		h := bot.Hints{Language: lang, Text: "[photo]", Wordless: true, Intent: "SMALL_TALK", Unsensed: bot.UnsensedPhotoTooLarge, MaxLength: 300}
		got := reply(t, o, h).Text
		if !strings.Contains(got, bot.PhotoLimit()) || strings.Contains(got, "{limit}") || strings.Contains(got, o.loaded().book["unsensed.photo"][lang][0]) {
			t.Errorf("%s: %q, want the photo said too large, with %s", lang, got, bot.PhotoLimit())
		}
	}
}
