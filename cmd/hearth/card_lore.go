package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"hearth/heart"
)

// cardBookFields are the card fields beyond the persona text that hearth
// maps: post_history_instructions and character_book.
type cardBookFields struct {
	PostHistory   string          `json:"post_history_instructions"`
	CharacterBook json.RawMessage `json:"character_book"`
}

// cardExtras is what cardBookFields become in the persona YAML.
type cardExtras struct {
	PostHistory string    `yaml:"post_history_instructions,omitempty"`
	Lore        *loreYAML `yaml:"lore,omitempty"`
}

// cardExtrasOf converts a card's post_history_instructions and
// character_book, with {{char}} and {{user}} filled as in its other text.
func cardExtrasOf(f cardBookFields, fill *strings.Replacer) (cardExtras, error) {
	lore, err := cardLore(f.CharacterBook, fill)
	if err != nil {
		return cardExtras{}, err
	}
	return cardExtras{PostHistory: cardPostHistory(f.PostHistory, fill), Lore: lore}, nil
}

// cardBook is a Character Card V2 character_book: the fields hearth maps to
// the persona's lore (SillyTavern World Info semantics).
type cardBook struct {
	ScanDepth   *float64        `json:"scan_depth"`
	TokenBudget *float64        `json:"token_budget"`
	Entries     []cardBookEntry `json:"entries"`
}

type cardBookEntry struct {
	Keys           []string `json:"keys"`
	SecondaryKeys  []string `json:"secondary_keys"`
	Content        string   `json:"content"`
	Enabled        *bool    `json:"enabled"`
	InsertionOrder float64  `json:"insertion_order"`
	CaseSensitive  *bool    `json:"case_sensitive"`
	Name           string   `json:"name"`
	Comment        string   `json:"comment"`
	Selective      bool     `json:"selective"`
	Constant       bool     `json:"constant"`
	Extensions     struct {
		// SelectiveLogic is SillyTavern's optional-filter logic, which its
		// exports keep here: 0 AND ANY, 1 NOT ALL, 2 NOT ANY, 3 AND ALL.
		SelectiveLogic *float64 `json:"selectiveLogic"`
	} `json:"extensions"`
}

// cardSelectiveLogic maps SillyTavern's selectiveLogic numbers.
var cardSelectiveLogic = map[float64]heart.LoreLogic{
	0: heart.LoreAndAny, 1: heart.LoreNotAll, 2: heart.LoreNotAny, 3: heart.LoreAndAll,
}

// cardLore converts a card's character_book into the persona's lore.
// Entries that
// can never be inserted (no content, or neither keys nor constant) are
// left out; the book's scan_depth is capped at heart.MaxLoreScanDepth. No
// book, or one without usable entries, is nil.
func cardLore(raw json.RawMessage, fill *strings.Replacer) (*loreYAML, error) {
	if len(bytes.TrimSpace(raw)) == 0 || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return nil, nil
	}
	var book cardBook
	if err := json.Unmarshal(raw, &book); err != nil {
		return nil, fmt.Errorf("data.character_book: %w", err)
	}
	var out loreYAML
	for _, e := range book.Entries {
		entry := loreEntryYAML{
			Name: strings.TrimSpace(e.Name), Keys: fillAll(fill, e.Keys), SecondaryKeys: fillAll(fill, e.SecondaryKeys),
			Selective: e.Selective, Constant: e.Constant, CaseSensitive: e.CaseSensitive != nil && *e.CaseSensitive,
			InsertionOrder: int(math.Round(e.InsertionOrder)), Content: strings.TrimSpace(fill.Replace(e.Content)),
		}
		if entry.Name == "" {
			entry.Name = strings.TrimSpace(e.Comment)
		}
		if e.Enabled != nil && !*e.Enabled {
			entry.Enabled = e.Enabled
		}
		if l := e.Extensions.SelectiveLogic; l != nil && entry.Selective {
			entry.Logic = string(cardSelectiveLogic[*l])
		}
		if entry.Content == "" || (len(entry.Keys) == 0 && !entry.Constant) {
			continue
		}
		out.Entries = append(out.Entries, entry)
	}
	if len(out.Entries) == 0 {
		return nil, nil
	}
	if d := book.ScanDepth; d != nil && *d >= 1 {
		n := int(min(math.Round(*d), heart.MaxLoreScanDepth))
		out.ScanDepth = &n
	}
	if b := book.TokenBudget; b != nil && *b >= 1 {
		n := int(min(math.Round(*b), math.MaxInt32))
		out.TokenBudget = &n
	}
	return &out, nil
}

// fillAll fills the placeholders of each non-blank string.
func fillAll(fill *strings.Replacer, ss []string) []string {
	var out []string
	for _, s := range ss {
		if s = strings.TrimSpace(fill.Replace(s)); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// cardPostHistory is a card's post_history_instructions with {{char}} and
// {{user}} filled. SillyTavern's {{original}} (its own global post-history
// prompt) stands for nothing here.
func cardPostHistory(text string, fill *strings.Replacer) string {
	return strings.TrimSpace(fill.Replace(strings.ReplaceAll(text, "{{original}}", "")))
}
