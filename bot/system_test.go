package bot

import (
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"hearth/heart"
	"hearth/store"
)

// TestSystemPromptFollowsItsKey: a kept static system prompt is exactly
// the one built afresh from the whole input, is kept per user name, chat
// kind and relationship state, and a change of any of them gets its own.
func TestSystemPromptFollowsItsKey(t *testing.T) {
	h := &Handler{cfg: Config{Persona: Persona{
		Name: "Luna", Language: "en", Text: "A kind companion who calls {{user}} by name.",
		Examples: "{{user}}: hi\n{{char}}: hello, {{user}}!", Dependency: 1,
		Lore: heart.LoreBook{Entries: []heart.LoreEntry{{Constant: true, Content: "{{user}} lives by the sea."}}},
	}}}
	fresh := func(name string, group bool, st heart.RelationshipState) string {
		p := h.cfg.Persona
		return heart.BuildReplyPrompt(heart.PromptInput{
			PersonaName: p.Name, PersonaText: personaText(p, name), Language: p.Language, UserName: name,
			GroupChat: group, RelationshipState: string(st), RelationshipRules: heart.RelationshipRules(st, p.Language),
			Rules: standingRules(p), Lore: withUserAll(constantLore(p), name),
		}).System
	}
	seen := map[string]bool{}
	for _, name := range []string{"Ann", "Bob"} {
		for _, group := range []bool{false, true} {
			for _, st := range []heart.RelationshipState{heart.Stranger, heart.Friend} {
				s := h.systemOf(name, group, st)
				if want := fresh(name, group, st); s.Text != want {
					t.Fatalf("%s/%v/%s: kept prompt differs from a fresh build:\n%s\n---\n%s", name, group, st, s.Text, want)
				}
				if s.Tokens != heart.EstimateTokens(s.Text) {
					t.Errorf("%s/%v/%s: tokens %d, want %d", name, group, st, s.Tokens, heart.EstimateTokens(s.Text))
				}
				if !strings.HasPrefix(s.message, KindReply.Marker()+"\n") || !strings.HasSuffix(s.message, s.Text) {
					t.Errorf("%s/%v/%s: system message %.60q… is not the marker line and the prompt", name, group, st, s.message)
				}
				if !strings.Contains(s.Text, name+" lives by the sea") {
					t.Errorf("%s/%v/%s: the lore does not name the user", name, group, st)
				}
				if again := h.systemOf(name, group, st); again != s {
					t.Errorf("%s/%v/%s: built again instead of kept", name, group, st)
				}
				seen[s.Text] = true
			}
		}
	}
	// A group chat's static prompt has no relationship section (it moves
	// to the context note), so its two states share one text: 2 names ×
	// (2 private states + 1 group).
	if len(seen) != 6 {
		t.Errorf("%d distinct prompts, want 6", len(seen))
	}
}

// TestSystemCacheIsBounded: more users than systemCacheSize never keep
// more prompts than that.
func TestSystemCacheIsBounded(t *testing.T) {
	var c systemCache
	for i := range systemCacheSize + 50 {
		name := "user" + strconv.Itoa(i)
		if s := c.get(systemKey{user: name}, func() heart.System { return heart.System{Text: name} }); s.Text != name {
			t.Fatalf("got %q for %s", s.Text, name)
		}
	}
	if n := len(c.m); n > systemCacheSize {
		t.Errorf("%d prompts kept, want at most %d", n, systemCacheSize)
	}
}

// TestSeedInnerStateFillsPlaceholdersOnce: seed 004's placeholders are
// filled as one strings.Replacer pass would, braces that are not
// placeholders stay, and a filled-in name is not filled again.
func TestSeedInnerStateFillsPlaceholdersOnce(t *testing.T) {
	for _, c := range []struct{ seed, name, user string }{
		{"I am {name}; {user} just arrived.", "Luna", "Ann"},
		{"{user}{user} {name}", "Luna", "Bob"},
		{"braces {like this} and {name", "Luna", "Ann"},
		{"{name} meets {user}", "{user}", "Ann"},
		{"", "Luna", "Ann"},
		{"末尾 {", "月", "安"},
	} {
		want := strings.NewReplacer("{name}", c.name, "{user}", c.user).Replace(c.seed)
		if got := seedInnerState(Persona{Name: c.name, InnerStateSeed: c.seed}, c.user); got != want {
			t.Errorf("seedInnerState(%q) = %q, want %q", c.seed, got, want)
		}
	}
}

// TestFreshRelationshipNeedsNoDecoding: think starts a first contact from
// heart.NewRelationship(CreatedAt) instead of decoding what userOf
// encoded; the two are the same.
func TestFreshRelationshipNeedsNoDecoding(t *testing.T) {
	at := time.Date(2026, 11, 24, 21, 7, 3, 123456789, time.FixedZone("JST", 9*3600)).UTC()
	fresh := heart.NewRelationship(at)
	if got := decodeRelationship(store.User{Relationship: encodeRelationship(fresh), CreatedAt: at}); !reflect.DeepEqual(got, fresh) {
		t.Errorf("decoded %+v, want %+v", got, fresh)
	}
}
