package main

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"unicode"

	"go.yaml.in/yaml/v3"

	"hearth/bot"
)

// cardV2 is a Character Card V2 (spec "chara_card_v2"), the format
// companion-bot users already have. Only the fields hearth maps are read.
type cardV2 struct {
	Spec       string     `json:"spec"`
	Data       cardFields `json:"data"`
	cardFields            // V1 cards keep the fields at the top level
}

type cardFields struct {
	Name               string   `json:"name"`
	Description        string   `json:"description"`
	Personality        string   `json:"personality"`
	Scenario           string   `json:"scenario"`
	FirstMes           string   `json:"first_mes"`
	MesExample         string   `json:"mes_example"`
	SystemPrompt       string   `json:"system_prompt"`
	AlternateGreetings []string `json:"alternate_greetings"`
	cardBookFields
}

// pngSignature starts every PNG file.
var pngSignature = []byte{0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'}

// cardToYAML converts a Character Card (.json, or .png with the card as
// base64 JSON in its "chara" tEXt chunk) into hearth persona YAML:
//
//	name          → name
//	system_prompt, description, personality, scenario → persona (in that order)
//	first_mes     → first_message
//	alternate_greetings → alternate_greetings (with first_mes, /start rotates them)
//	mes_example   → examples
//	post_history_instructions, character_book → see cardExtrasOf
//	language      → guessed from the card's script (zh, ja, else en)
//
// {{char}} becomes the persona's name; {{user}} stays, and is filled with
// the user's display name wherever the text is used (bot.WithUser).
func cardToYAML(path string, raw []byte) ([]byte, error) {
	bad := func(err error) error { return &PersonaError{Source: path, Err: fmt.Errorf("character card: %w", err)} }
	if bytes.HasPrefix(raw, pngSignature) {
		text, err := pngChara(raw)
		if err != nil {
			return nil, bad(err)
		}
		if raw, err = base64.StdEncoding.DecodeString(strings.TrimSpace(text)); err != nil {
			return nil, bad(fmt.Errorf("chara chunk is not base64: %w", err))
		}
	}
	var card cardV2
	if err := json.Unmarshal(raw, &card); err != nil {
		return nil, bad(fmt.Errorf("not JSON: %w", err))
	}
	f := card.Data
	switch card.Spec {
	case "chara_card_v2":
	case "":
		f = card.cardFields
	default:
		return nil, bad(fmt.Errorf("spec %q is not chara_card_v2", card.Spec))
	}
	name := strings.TrimSpace(f.Name)
	if name == "" {
		return nil, bad(errors.New("data.name is empty"))
	}
	fill := cardMacros(name)
	var persona []string
	for _, part := range []struct{ label, text string }{
		{"", f.SystemPrompt}, {"Description: ", f.Description},
		{"Personality: ", f.Personality}, {"Scenario: ", f.Scenario},
	} {
		if t := strings.TrimSpace(fill.Replace(part.text)); t != "" {
			persona = append(persona, part.label+t)
		}
	}
	if len(persona) == 0 {
		return nil, bad(errors.New("card has no description, personality, scenario or system_prompt"))
	}
	extras, err := cardExtrasOf(f.cardBookFields, fill)
	if err != nil {
		return nil, bad(err)
	}
	lang := guessLanguage(strings.Join(persona, " ") + f.FirstMes)
	out := struct {
		Name           string   `yaml:"name"`
		Language       string   `yaml:"language"`
		Persona        string   `yaml:"persona"`
		InnerStateSeed string   `yaml:"inner_state_seed"`
		FirstMessage   string   `yaml:"first_message,omitempty"`
		Greetings      []string `yaml:"alternate_greetings,omitempty"`
		Examples       string   `yaml:"examples,omitempty"`
		cardExtras     `yaml:",inline"`
	}{
		Name: name, Language: lang, Persona: strings.Join(persona, "\n\n"),
		InnerStateSeed: cardSeed[lang],
		FirstMessage:   strings.TrimSpace(fill.Replace(f.FirstMes)),
		Greetings:      fillAll(fill, f.AlternateGreetings),
		Examples:       strings.TrimSpace(fill.Replace(f.MesExample)),
		cardExtras:     extras,
	}
	y, err := yaml.Marshal(out)
	if err != nil {
		return nil, bad(err)
	}
	return y, nil
}

// cardMacros fills a card's macros at load: {{char}} and <BOT> are the
// persona's name; <USER>, the old spelling, becomes {{user}}, which hearth
// keeps in the stored persona and fills with each user's display name where
// the text is used (bot.WithUser), as SillyTavern does, instead of baking
// in "the user".
func cardMacros(name string) *strings.Replacer {
	return strings.NewReplacer("{{char}}", name, "<BOT>", name, "<USER>", bot.UserMacro)
}

// cardUsedFields are the card fields cardToYAML maps; every other field
// with content is reported once at load (cardUnusedFields).
var cardUsedFields = map[string]bool{
	"name": true, "description": true, "personality": true, "scenario": true,
	"first_mes": true, "mes_example": true, "system_prompt": true, "alternate_greetings": true,
	"post_history_instructions": true, "character_book": true, // cardExtrasOf
}

// cardUnusedFields lists, sorted, the fields of a card (.json, or .png with
// the card embedded) that carry content hearth does not use, so an
// operator knows what of their card is left out. A card that cannot be
// read has none: cardToYAML reports it.
func cardUnusedFields(raw []byte) []string {
	if bytes.HasPrefix(raw, pngSignature) {
		text, err := pngChara(raw)
		if err != nil {
			return nil
		}
		if raw, err = base64.StdEncoding.DecodeString(strings.TrimSpace(text)); err != nil {
			return nil
		}
	}
	var top map[string]json.RawMessage
	if json.Unmarshal(raw, &top) != nil {
		return nil
	}
	fields := top
	if data, ok := top["data"]; ok {
		fields = nil
		if json.Unmarshal(data, &fields) != nil {
			return nil
		}
	}
	var out []string
	for k, v := range fields {
		if cardUsedFields[k] || k == "spec" || k == "spec_version" {
			continue
		}
		switch strings.TrimSpace(string(v)) {
		case "", `""`, "null", "[]", "{}":
			continue
		}
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// cardSeed is the inner_state seed of an imported card, which has none.
var cardSeed = map[string]string{
	"en": "I am {name}. {user} just found me. I want to listen first and learn what makes their day lighter.",
	"zh": "我是{name}。{user}刚刚来到我身边。我想先好好听，慢慢了解什么能让他轻松一点。",
	"ja": "わたしは{name}。{user}がわたしを見つけてくれた。まずはよく聞いて、何がこの人の一日を軽くするのか知りたい。",
}

// guessLanguage picks ja when kana appear, zh when Han characters do, else en.
func guessLanguage(s string) string {
	han := 0
	for _, r := range s {
		switch {
		case unicode.In(r, unicode.Hiragana, unicode.Katakana):
			return "ja"
		case unicode.Is(unicode.Han, r):
			han++
		}
	}
	if han > 0 {
		return "zh"
	}
	return "en"
}

// pngChara returns the text of the PNG's "chara" tEXt chunk.
func pngChara(raw []byte) (string, error) {
	b := raw[len(pngSignature):]
	for len(b) >= 12 {
		n := binary.BigEndian.Uint32(b[:4])
		typ := string(b[4:8])
		if uint64(n)+12 > uint64(len(b)) {
			return "", errors.New("truncated PNG chunk")
		}
		data := b[8 : 8+n]
		if typ == "tEXt" {
			if k, v, ok := bytes.Cut(data, []byte{0}); ok && string(k) == "chara" {
				return string(v), nil
			}
		}
		if typ == "IEND" {
			break
		}
		b = b[12+n:]
	}
	return "", errors.New(`PNG has no "chara" tEXt chunk`)
}
