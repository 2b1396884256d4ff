package main

import (
	"fmt"
	"strings"

	"hearth/heart"
)

// loreYAML is the persona's `lore:` key, SillyTavern World Info in hearth's
// YAML; a Character Card's character_book is converted into it
// (cardLore). persona.example.yaml documents every key.
type loreYAML struct {
	ScanDepth   *int            `yaml:"scan_depth,omitempty"`
	TokenBudget *int            `yaml:"token_budget,omitempty"`
	Entries     []loreEntryYAML `yaml:"entries"`
}

// loreEntryYAML is one entry of lore.entries.
type loreEntryYAML struct {
	Name           string   `yaml:"name,omitempty"`
	Keys           []string `yaml:"keys,omitempty"`
	SecondaryKeys  []string `yaml:"secondary_keys,omitempty"`
	Selective      bool     `yaml:"selective,omitempty"`
	Logic          string   `yaml:"logic,omitempty"`
	Constant       bool     `yaml:"constant,omitempty"`
	Enabled        *bool    `yaml:"enabled,omitempty"`
	CaseSensitive  bool     `yaml:"case_sensitive,omitempty"`
	InsertionOrder int      `yaml:"insertion_order,omitempty"`
	Content        string   `yaml:"content"`
}

// loreKeys is the key tree of loreYAML for checkKeys.
var loreKeys = map[string]any{
	"scan_depth": nil, "token_budget": nil,
	"entries": listOf{
		"name": nil, "keys": nil, "secondary_keys": nil, "selective": nil, "logic": nil, "constant": nil,
		"enabled": nil, "case_sensitive": nil, "insertion_order": nil, "content": nil,
	},
}

// book validates the lore and converts it; errors name the key.
func (l *loreYAML) book(src string) (heart.LoreBook, error) {
	var b heart.LoreBook
	if l == nil {
		return b, nil
	}
	bad := func(key, format string, args ...any) (heart.LoreBook, error) {
		return heart.LoreBook{}, &PersonaError{Source: src, Key: "lore." + key, Err: fmt.Errorf(format, args...)}
	}
	if l.ScanDepth != nil {
		if *l.ScanDepth < 1 || *l.ScanDepth > heart.MaxLoreScanDepth {
			return bad("scan_depth", "%d is outside [1, %d] (messages scanned: 1 is the user's message alone)", *l.ScanDepth, heart.MaxLoreScanDepth)
		}
		b.ScanDepth = *l.ScanDepth
	}
	if l.TokenBudget != nil {
		if *l.TokenBudget < 1 {
			return bad("token_budget", "must be at least 1")
		}
		b.BudgetTokens = *l.TokenBudget
	}
	for i, e := range l.Entries {
		key := func(k string) string { return fmt.Sprintf("entries[%d].%s", i, k) }
		entry := heart.LoreEntry{
			Name: strings.TrimSpace(e.Name), Keys: trimmed(e.Keys), SecondaryKeys: trimmed(e.SecondaryKeys),
			Selective: e.Selective, Logic: heart.LoreLogic(e.Logic), Constant: e.Constant,
			Disabled: e.Enabled != nil && !*e.Enabled, CaseSensitive: e.CaseSensitive,
			Order: e.InsertionOrder, Content: strings.TrimSpace(e.Content),
		}
		switch {
		case entry.Content == "":
			return bad(key("content"), "is required: what the entry tells the model")
		case len(entry.Keys) == 0 && !entry.Constant:
			return bad(key("keys"), "is required unless the entry is constant")
		case !entry.Logic.Known():
			return bad(key("logic"), "%q is not and_any, and_all, not_any or not_all", e.Logic)
		}
		b.Entries = append(b.Entries, entry)
	}
	return b, nil
}

// trimmed drops blank strings and trims the others.
func trimmed(ss []string) []string {
	var out []string
	for _, s := range ss {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}
