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

// A location, contact, poll or dice sent alone gets an answer to what was
// shared, in the persona's language: the venue or contact by name, a pick
// among the poll's options, what the dice rolled; never the bracketed
// description echoed, a placeholder left unfilled or small talk about
// "[attachment]".
func TestOfflineAnswersSharedThings(t *testing.T) {
	o := NewOffline()
	for _, tc := range []struct {
		kind string
		what bot.Shared
		text string
		want []string // one of each group must appear
	}{
		{"location", bot.Shared{Lat: 52.52, Lon: 13.4}, "[location: 52.52, 13.40]", nil},
		{"location", bot.Shared{Name: "Café Einstein", Address: "Kurfürstenstraße 58", Lat: 52.5, Lon: 13.35},
			"[location: Café Einstein, Kurfürstenstraße 58 (52.50, 13.35)]", []string{"Café Einstein"}},
		{"contact", bot.Shared{Name: "Mia Chen"}, "[contact: Mia Chen]", []string{"Mia Chen"}},
		{"poll", bot.Shared{Name: "Pizza or sushi?", Options: []string{"pizza", "sushi"}}, "[poll: Pizza or sushi? — pizza / sushi]",
			[]string{"Pizza or sushi?"}},
		{"dice", bot.Shared{Name: "🎲", Value: 5}, "[dice: 🎲 5]", []string{"5"}},
		{"dice", bot.Shared{Name: "🎯", Value: 6}, "[dice: 🎯 6]", []string{"🎯", "6"}},
	} {
		for _, lang := range []string{langEN, langZH, langJA} {
			for turn := range 3 {
				h := bot.Hints{Language: lang, Text: tc.text, Wordless: true, Turn: turn, Intent: "SMALL_TALK", MaxLength: 300,
					Shared: tc.kind, SharedWhat: tc.what}
				got := reply(t, o, h).Text
				if strings.Contains(got, "{") || strings.Contains(got, "[") || got == "" {
					t.Errorf("%s %s: %q", lang, tc.text, got)
				}
				for _, w := range tc.want {
					if !strings.Contains(got, w) {
						t.Errorf("%s %s: %q, want %q in it", lang, tc.text, got, w)
					}
				}
				if tc.kind == "poll" && !strings.Contains(got, "pizza") && !strings.Contains(got, "sushi") {
					t.Errorf("%s %s: %q, want her pick of the options", lang, tc.text, got)
				}
				if tc.kind == "location" && tc.what.Name == "" {
					if want := o.loaded().book["shared.location"][lang][0]; !strings.Contains(got, want) {
						t.Errorf("%s %s: %q, want %q", lang, tc.text, got, want)
					}
				}
			}
		}
	}
}
