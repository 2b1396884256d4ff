package lifeloop

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"hearth/bot"
	"hearth/store"
)

func TestParseSpeak(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		speak   bool
		message string
		err     bool
	}{
		{"plain true", `{"speak": true, "message": "早安"}`, true, "早安", false},
		{"plain false", `{"speak": false, "message": ""}`, false, "", false},
		{"false with a message stays silent", `{"speak": false, "message": "hi"}`, false, "hi", false},
		{"code fence and chatter", "Sure!\n```json\n{\"speak\": true, \"message\": \"hey\"}\n```\nDone.", true, "hey", false},
		{"speak as string", `{"speak": "true", "message": "hey"}`, true, "hey", false},
		{"speak as string false", `{"speak": "no", "message": "hey"}`, false, "hey", false},
		{"missing speak, message present", `{"message": "hey"}`, true, "hey", false},
		{"missing speak, no message", `{}`, false, "", false},
		{"message not a string", `{"speak": true, "message": 42}`, true, "", false},
		{"message trimmed", `{"speak": true, "message": "  hey \n"}`, true, "hey", false},
		{"first object wins", `{"speak": false} {"speak": true, "message": "x"}`, false, "", false},
		{"broken brace before object", `{oops {"speak": true, "message": "x"}`, true, "x", false},
		{"nested braces in message", `{"speak": true, "message": "a {b} c"}`, true, "a {b} c", false},
		{"no JSON", "I'd rather not.", false, "", true},
		{"empty", "", false, "", true},
		{"array is not an object", `[true, "x"]`, false, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			speak, msg, err := ParseSpeak(tt.in)
			if (err != nil) != tt.err || speak != tt.speak || msg != tt.message {
				t.Fatalf("ParseSpeak(%q) = %v, %q, %v; want %v, %q, err %v", tt.in, speak, msg, err, tt.speak, tt.message, tt.err)
			}
		})
	}
}

func FuzzParseSpeak(f *testing.F) {
	for _, s := range []string{
		`{"speak": true, "message": "早安"}`, `{"speak": "true"}`, "```json\n{\"speak\":false}\n```",
		`{{{{{{{{{{{{`, `{"message": "\ud800"}`, "", `{"speak": true, "message": "` + strings.Repeat("长", 600) + `"}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		speak, msg, err := ParseSpeak(in)
		if err != nil && (speak || msg != "") {
			t.Fatalf("error with a result: %v %q", speak, msg)
		}
		if msg != strings.TrimSpace(msg) {
			t.Fatalf("message not trimmed: %q", msg)
		}
		out := trimMessage(msg)
		if utf8.RuneCountInString(out) > MaxMessageRunes {
			t.Fatalf("trimMessage left %d runes", utf8.RuneCountInString(out))
		}
		if utf8.ValidString(msg) && !utf8.ValidString(out) {
			t.Fatalf("trimMessage broke UTF-8: %q", out)
		}
	})
}

func TestBuildPromptLanguages(t *testing.T) {
	u := store.User{ID: "console:ann", Name: "Ann", InnerState: "inner words", Scratch: "planning a picnic", LastEmotion: "happy", Mood: 12}
	sit := Situation{User: u, Assessment: Assessment{State: StateClose, Greeting: "greet!"},
		Now: time.Date(2026, 3, 4, 21, 15, 0, 0, time.UTC), Silence: 50 * time.Hour}
	tests := []struct {
		lang string
		want []string
	}{
		{"zh", []string{"你不是因为 timer 到了才说话。\n你是因为在乎用户，所以想知道他怎么样。\n如果你觉得现在不该打扰他，就什么都不说。\n主动沉默也是一种关心。", "亲密", "2天 2小时", "21:15（晚上）", "我等了你好久"}},
		{"en", []string{"You don't speak because a timer went off.", "Choosing to stay silent is also a way of caring.", "close friend", "2d 2h", "21:15 (evening)", "I waited for you so long"}},
		{"ja", []string{"タイマーが鳴ったから話すのではない。", "親しい友達", "2日 2時間", "21:15（夜）", "ずっと待ってた"}},
		{"fr", []string{"You don't speak because a timer went off."}},
	}
	for _, tt := range tests {
		t.Run(tt.lang, func(t *testing.T) {
			msgs := BuildPrompt(bot.Persona{Name: "Luna", Language: tt.lang, Text: "persona text"}, sit)
			if len(msgs) != 2 || msgs[0].Role != "system" || msgs[1].Role != "user" {
				t.Fatalf("messages %+v", msgs)
			}
			sys := msgs[0].Content
			first, _, _ := strings.Cut(sys, "\n")
			if first != "[[hearth:lifeloop]]" {
				t.Fatalf("first line %q, want the marker alone", first)
			}
			all := sys + "\n" + msgs[1].Content
			for _, w := range append(tt.want, "persona text", "Ann", "greet!", "inner words", "planning a picnic", "happy", `"speak"`) {
				if !strings.Contains(all, w) {
					t.Errorf("prompt lacks %q:\n%s", w, all)
				}
			}
			// Static first (DESIGN §12): nothing about this user or this
			// moment in the system message, which every tick shares.
			for _, w := range []string{"Ann", "greet!", "inner words", "planning a picnic", "happy", "21:15"} {
				if strings.Contains(sys, w) {
					t.Errorf("system message carries per-user %q:\n%s", w, sys)
				}
			}
			other := sit
			other.User.Name, other.Now, other.Silence = "Bob", sit.Now.Add(3*time.Hour), time.Hour
			if BuildPrompt(bot.Persona{Name: "Luna", Language: tt.lang, Text: "persona text"}, other)[0].Content != sys {
				t.Error("the system message changed with the user and the moment")
			}
		})
	}
}

func TestEnsureMarker(t *testing.T) {
	m := bot.KindLifeLoop.Marker()
	ok := []bot.ChatMessage{{Role: "system", Content: m + "\nx"}}
	if got := ensureMarker(ok, "en"); got[0].Content != m+"\nx" || len(got) != 1 {
		t.Fatalf("kept prompt changed: %+v", got)
	}
	noSys := []bot.ChatMessage{{Role: "user", Content: "hi"}}
	got := ensureMarker(noSys, "en")
	if len(got) != 2 || got[0].Role != "system" || !strings.HasPrefix(got[0].Content, m+"\n") {
		t.Fatalf("no system message: %+v", got)
	}
	// A marker not alone on its line is not the marker line.
	glued := []bot.ChatMessage{{Role: "system", Content: m + " extra"}}
	if got := ensureMarker(glued, "en"); !strings.HasPrefix(got[0].Content, m+"\n") {
		t.Fatalf("glued marker kept: %q", got[0].Content)
	}
	if glued[0].Content != m+" extra" {
		t.Fatal("ensureMarker modified its input")
	}
}

func TestHumanDuration(t *testing.T) {
	w := vocabulary("en")
	for d, want := range map[time.Duration]string{
		0: "0m", 59 * time.Minute: "59m", time.Hour: "1h", 25 * time.Hour: "1d 1h", 48 * time.Hour: "2d", -time.Hour: "0m",
	} {
		if got := humanDuration(w, d); got != want {
			t.Errorf("humanDuration(%v) = %q, want %q", d, got, want)
		}
	}
}
