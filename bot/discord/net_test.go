package discord

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"hearth/bot"
)

// roundTripFunc records what the rewriter passes on.
type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func TestRewriter(t *testing.T) {
	tests := []struct {
		base, in, want string
	}{
		{"http://127.0.0.1:5555/", "https://discord.com/api/v9/gateway", "http://127.0.0.1:5555/api/v9/gateway"},
		{"https://proxy.example/discord/", "https://discord.com/api/v9/channels/1/messages?x=1", "https://proxy.example/discord/api/v9/channels/1/messages?x=1"},
		{"http://127.0.0.1:5555/", "https://cdn.discordapp.com/a.png", "https://cdn.discordapp.com/a.png"},
		{"", "https://discord.com/api/v9/gateway", "https://discord.com/api/v9/gateway"},
	}
	for _, tt := range tests {
		var base *url.URL
		if tt.base != "" {
			base, _ = url.Parse(tt.base)
		}
		var got string
		rw := rewriter{base: base, next: roundTripFunc(func(r *http.Request) (*http.Response, error) {
			got = r.URL.String()
			return &http.Response{StatusCode: 204, Body: http.NoBody}, nil
		})}
		req, _ := http.NewRequest("GET", tt.in, nil)
		if _, err := rw.RoundTrip(req); err != nil {
			t.Fatal(err)
		}
		if got != tt.want {
			t.Errorf("base %q: %s → %s, want %s", tt.base, tt.in, got, tt.want)
		}
		if req.URL.String() != tt.in {
			t.Errorf("caller's request changed to %s", req.URL)
		}
	}
}

func TestNewValidates(t *testing.T) {
	tests := map[string]struct {
		cfg  Config
		want string
	}{
		"no token":        {Config{Token: " Bot "}, "token is empty"},
		"negative shards": {Config{Token: "x", ShardCount: -2}, "-2 shards"},
		"bad base":        {Config{Token: "x", APIBase: "127.0.0.1:5555"}, "api base"},
		"command no desc": {Config{Token: "x", Commands: []Command{{Name: "me"}}}, `command "me"`},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			_, err := New(tt.cfg)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("New = %v, want an error with %q", err, tt.want)
			}
		})
	}
	tr, err := New(Config{Token: "Bot abc"})
	if err != nil {
		t.Fatal(err)
	}
	if tr.s.Token != "Bot abc" || tr.Name() != "discord" || tr.cfg.OpenTimeout != DefaultOpenTimeout || tr.s.ShardCount != 1 {
		t.Errorf("token %q name %q timeout %v shards %d", tr.s.Token, tr.Name(), tr.cfg.OpenTimeout, tr.s.ShardCount)
	}
}

// TestHearthCommandsAreValidSlashCommands: the user commands of DESIGN §8,
// in every persona language, register as Discord slash commands.
func TestHearthCommandsAreValidSlashCommands(t *testing.T) {
	for _, lang := range []string{"en", "zh", "ja"} {
		var cmds []Command
		seen := map[string]bool{}
		for _, c := range bot.Commands(lang) {
			cmds = append(cmds, Command{Name: c.Name, Description: c.Description, Option: c.Arg})
			// Discord API docs, "Application Command Object": names are 1-32
			// lowercase characters, descriptions 1-100 characters.
			if len(c.Name) > 32 || strings.ToLower(c.Name) != c.Name || len([]rune(c.Description)) > 100 || seen[c.Name] {
				t.Errorf("%s: command %+v is not valid for Discord", lang, c)
			}
			seen[c.Name] = true
		}
		if _, err := New(Config{Token: "x", Commands: cmds}); err != nil {
			t.Fatalf("%s: %v", lang, err)
		}
		for _, want := range []string{"start", "help", "me", "why", "memories", "remember", "forget", "export", "quiet", "report"} {
			if !seen[want] {
				t.Errorf("%s: DESIGN §8 command /%s missing", lang, want)
			}
		}
	}
}
