package brain

import "testing"

// TestPlainReadsTextSpeak: text-speak is read as its words, whole words
// only; an initial, a list's letter and an address stay what they are,
// and restore gives back what the user wrote.
func TestPlainReadsTextSpeak(t *testing.T) {
	k := NewOffline().loaded()
	for _, tt := range []struct{ raw, want string }{
		{"r u a bot", "are you a bot"},
		{"whats ur favorite game", "what's your favorite game"},
		{"ur so sweet", "you're so sweet"},
		{"gn luna", "good night luna"},
		{"idk tbh", "I don't know to be honest"},
		{"my best friends name is jo", "my best friend's name is jo"},
		{"今天好累rn", "今天好累right now"},
		{"R said he'd come", "R said he'd come"},
		{"my friends are A, B and U", "my friends are A, B and U"},
		{"I moved to the u.s. last year", "I moved to the u.s. last year"},
		{"your hour is up", "your hour is up"},
		{"see @ur_name", "see @ur_name"},
	} {
		if got := k.plain(tt.raw).text; got != tt.want {
			t.Errorf("plain(%q) = %q, want %q", tt.raw, got, tt.want)
		}
	}
	sp := k.plain("I'm scared of losing ppl rn")
	if got := sp.restore("losing people"); got != "losing ppl" {
		t.Errorf("restore = %q, want %q", got, "losing ppl")
	}
	if got := sp.restore("scared"); got != "scared" {
		t.Errorf("restore = %q, want %q", got, "scared")
	}
}
