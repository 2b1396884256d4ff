package main

import (
	"encoding/base64"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"hearth/heart"
)

// TestCharacterCardLoreImport: a card's character_book becomes the
// persona's lore (SillyTavern World Info fields), from a .json card and
// from the same card embedded in a .png, and survives the round trip
// through the YAML stored in the instance file. post_history_instructions
// comes along with {{char}}/{{user}} filled.
func TestCharacterCardLoreImport(t *testing.T) {
	card, err := os.ReadFile(filepath.Join("testdata", "card_lore.json"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	jsonPath := filepath.Join(dir, "mika.json")
	pngPath := filepath.Join(dir, "mika.png")
	if err := os.WriteFile(jsonPath, card, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(pngPath, pngWithChara(t, base64.StdEncoding.EncodeToString(card)), 0o600); err != nil {
		t.Fatal(err)
	}
	want := heart.LoreBook{ScanDepth: 3, BudgetTokens: 400, Entries: []heart.LoreEntry{
		{Name: "Biscuit", Keys: []string{"Biscuit"}, Order: 10, Content: "Mika's cat Biscuit is twelve and sleeps on the returns desk."},
		{Name: "library at night", Keys: []string{"library"}, SecondaryKeys: []string{"night", "closing"}, Selective: true,
			Logic: heart.LoreAndAll, Order: 5, Content: "After closing, the library's lamps are left on for stray readers."},
		{Constant: true, Order: 1, Content: "The town is called Hollowmere; it rains most evenings."},
		{Keys: []string{"secret"}, Disabled: true, Content: "A disabled entry."},
		{Keys: []string{"杭州"}, CaseSensitive: true, Order: 2, Content: "Mika grew up in Hangzhou."},
	}}
	for _, path := range []string{jsonPath, pngPath} {
		p, raw, err := readPersonaFile(path, nil)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if !reflect.DeepEqual(p.Lore, want) {
			t.Errorf("%s: lore\n%+v\nwant\n%+v", path, p.Lore, want)
		}
		if p.PostHistory != "Mika never speaks for {{user}}." { // filled with each user's name at use
			t.Errorf("%s: post_history_instructions %q", path, p.PostHistory)
		}
		stored, err := parsePersona("stored", raw)
		if err != nil || !reflect.DeepEqual(stored.Lore, p.Lore) || stored.PostHistory != p.PostHistory {
			t.Errorf("%s: the stored YAML does not give the same lore back: %v\n%s", path, err, raw)
		}
		constant, matched := heart.SelectLore(p.Lore, []string{"is the library open at night?", "we are closing soon"})
		if !slices.Equal(constant, []string{"The town is called Hollowmere; it rains most evenings."}) ||
			!slices.Equal(matched, []string{"After closing, the library's lamps are left on for stray readers."}) {
			t.Errorf("%s: constant %q matched %q", path, constant, matched)
		}
	}
}

// TestPersonaLoreYAML: hearth's own persona declares lore and
// post-history instructions; mistakes name their key.
func TestPersonaLoreYAML(t *testing.T) {
	base := "name: Luna\nlanguage: zh\npersona: hi\n"
	p, err := parsePersona("p.yaml", []byte(base+`post_history_instructions: "Stay gentle."
lore:
  scan_depth: 2
  entries:
    - keys: [小雨]
      content: 小雨是用户的狗。
      insertion_order: 3
    - constant: true
      enabled: false
      content: off
`))
	if err != nil {
		t.Fatal(err)
	}
	if p.PostHistory != "Stay gentle." || p.Lore.ScanDepth != 2 || len(p.Lore.Entries) != 2 ||
		p.Lore.Entries[0].Order != 3 || !p.Lore.Entries[1].Disabled || !p.Lore.Entries[1].Constant {
		t.Fatalf("persona lore %+v post %q", p.Lore, p.PostHistory)
	}
	if _, err := parsePersona("p.yaml", []byte(base+"lore:\n")); err != nil {
		t.Errorf("an empty lore key is refused: %v", err)
	}
	cases := []struct{ name, yaml, key string }{
		{"entry without content", "lore:\n  entries:\n    - keys: [a]\n", "lore.entries[0].content"},
		{"entry without keys", "lore:\n  entries:\n    - content: x\n", "lore.entries[0].keys"},
		{"unknown logic", "lore:\n  entries:\n    - {keys: [a], content: x, logic: maybe}\n", "lore.entries[0].logic"},
		{"unknown entry key", "lore:\n  entries:\n    - content: x\n      keyz: [a]\n", "lore.entries[0].keyz"},
		{"entries not a list", "lore:\n  entries: x\n", "lore.entries"},
		{"bad scan depth", "lore:\n  scan_depth: 0\n", "lore.scan_depth"},
		{"bad token budget", "lore:\n  token_budget: -5\n", "lore.token_budget"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := parsePersona("p.yaml", []byte(base+c.yaml))
			var pe *PersonaError
			if !errors.As(err, &pe) || pe.Key != c.key || !strings.HasPrefix(err.Error(), "p.yaml") {
				t.Fatalf("err = %v, want one naming key %s", err, c.key)
			}
		})
	}
}

// TestCardWithBadCharacterBook: a character_book of the wrong shape is an
// error that names the file and the field.
func TestCardWithBadCharacterBook(t *testing.T) {
	_, err := cardToYAML("bad.json", []byte(`{"spec":"chara_card_v2","data":{"name":"A","description":"x","character_book":{"entries":"nope"}}}`))
	if err == nil || !strings.Contains(err.Error(), "bad.json") || !strings.Contains(err.Error(), "character_book") {
		t.Fatalf("err = %v", err)
	}
}
