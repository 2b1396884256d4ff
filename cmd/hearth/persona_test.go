package main

import (
	"bytes"
	"cmp"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"hearth/bot"
	"hearth/heart"
)

func TestExamplePersonaLoads(t *testing.T) {
	p, raw, err := readPersonaFile(examplePersona(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	if p.Name != "Luna" || p.Language != "en" || p.Dependency != 1.0 || p.Pride != 10 || p.Perception != "llm" {
		t.Errorf("persona = %+v", p)
	}
	if p.Voice != (bot.VoiceSettings{Name: "alloy", Replies: "mirror"}) {
		t.Errorf("voice = %+v", p.Voice)
	}
	if len(raw) == 0 {
		t.Error("raw persona not returned for storage")
	}
	if len(p.Lore.Entries) != 1 || p.Lore.ScanDepth != 4 || p.Lore.Entries[0].Content == "" {
		t.Errorf("lore = %+v", p.Lore)
	}
}

func TestPersonaErrorsNameTheKey(t *testing.T) {
	base := "name: Luna\nlanguage: en\npersona: hi\n"
	cases := []struct {
		name, yaml, key string
	}{
		{"unknown top-level key", base + "colour: blue\n", "colour"},
		{"unknown nested key", base + "lifeloop:\n  every: 1h\n", "lifeloop.every"},
		{"missing name", "language: en\npersona: hi\n", "name"},
		{"bad language", "name: Luna\nlanguage: fr\npersona: hi\n", "language"},
		{"bad dependency", base + "dependency: -1\n", "dependency"},
		{"bad perception", base + "perception: magic\n", "perception"},
		{"bad timezone", base + "timezone: Mars/Olympus\n", "timezone"},
		{"bad schedule", base + "lifeloop:\n  schedule: \"CRON_TZ=UTC\"\n", "lifeloop.schedule"},
		{"negative every", base + "lifeloop:\n  schedule: \"@every -5m\"\n", "lifeloop.schedule"},
		{"zero every", base + "lifeloop:\n  schedule: \"@every 0s\"\n", "lifeloop.schedule"},
		{"millisecond every", base + "lifeloop:\n  schedule: \"@every 1ms\"\n", "lifeloop.schedule"},
		{"seconds cron", base + "lifeloop:\n  schedule: \"*/10 * * * * *\"\n", "lifeloop.schedule"},
		{"bad quiet hours", base + "lifeloop:\n  quiet_hours: \"late\"\n", "lifeloop.quiet_hours"},
		{"bad min_state", base + "lifeloop:\n  min_state: lover\n", "lifeloop.min_state"},
		{"bad lexicon label", base + "lexicon:\n  ecstatic: [wow]\n", "lexicon"},
		{"bad budget share", base + "budget:\n  user_share: 2\n", "budget.user_share"},
		{"bad voice replies", base + "voice:\n  replies: sometimes\n", "voice.replies"},
		{"unknown voice key", base + "voice:\n  pitch: high\n", "voice.pitch"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := parsePersona("p.yaml", []byte(c.yaml))
			var pe *PersonaError
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v, want a PersonaError", err)
			}
			if pe.Key != c.key || !strings.HasPrefix(err.Error(), "p.yaml") {
				t.Errorf("error %q names key %q, want %q", err, pe.Key, c.key)
			}
		})
	}
}

func TestCharacterCardImport(t *testing.T) {
	card := `{"spec":"chara_card_v2","spec_version":"2.0","data":{"name":"Mika","description":"{{char}} is a cheerful librarian who knows {{user}} by name.","personality":"kind, curious","scenario":"A quiet library.","first_mes":"Hi {{user}}! Looking for a book?","alternate_greetings":["Oh, <USER>, welcome back to the stacks.","  ","{{char}} waves at {{user}}."],"mes_example":"<START>\n{{user}}: hi\n{{char}}: hello!","system_prompt":"","creator_notes":"made for fun","tags":["library"],"character_book":{"entries":[{"keys":["book"],"content":"x"}]},"extensions":{},"creator":""}}`
	dir := t.TempDir()
	jsonPath := filepath.Join(dir, "mika.json")
	os.WriteFile(jsonPath, []byte(card), 0o600)
	pngPath := filepath.Join(dir, "mika.png")
	os.WriteFile(pngPath, pngWithChara(t, base64.StdEncoding.EncodeToString([]byte(card))), 0o600)

	for _, path := range []string{jsonPath, pngPath} {
		var logs bytes.Buffer
		p, _, err := readPersonaFile(path, slog.New(slog.NewTextHandler(&logs, nil)))
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		// Unused fields are reported once, in one line, naming each.
		if n := strings.Count(logs.String(), "\n"); n != 1 || !strings.Contains(logs.String(), `fields="creator_notes, tags"`) {
			t.Errorf("%s: unused fields report %q", path, logs.String())
		}
		if p.AlternateGreetings == nil || len(p.AlternateGreetings) != 2 || p.AlternateGreetings[0] != "Oh, {{user}}, welcome back to the stacks." || p.AlternateGreetings[1] != "Mika waves at {{user}}." {
			t.Errorf("%s: alternate greetings %q", path, p.AlternateGreetings)
		}
		if !strings.Contains(p.Text, "knows {{user}} by name") {
			t.Errorf("%s: {{user}} baked in at load: %q", path, p.Text)
		}
		if p.Name != "Mika" || p.Language != "en" {
			t.Errorf("%s: name %q language %q", path, p.Name, p.Language)
		}
		if !strings.Contains(p.Text, "Mika is a cheerful librarian") || !strings.Contains(p.Text, "Personality: kind, curious") || !strings.Contains(p.Text, "Scenario: A quiet library.") {
			t.Errorf("%s: persona text %q", path, p.Text)
		}
		if p.FirstMessage != "Hi {{user}}! Looking for a book?" || !strings.Contains(p.Examples, "Mika: hello!") {
			t.Errorf("%s: first %q examples %q", path, p.FirstMessage, p.Examples)
		}
	}
}

func TestMalformedCardsAreRejected(t *testing.T) {
	dir := t.TempDir()
	cases := map[string][]byte{
		"notjson.json":   []byte("{nope"),
		"noname.json":    []byte(`{"spec":"chara_card_v2","data":{"description":"x"}}`),
		"wrongspec.json": []byte(`{"spec":"chara_card_v9","data":{"name":"A","description":"x"}}`),
		"empty.json":     []byte(`{"spec":"chara_card_v2","data":{"name":"A"}}`),
		"nochunk.png":    pngWithChara(t, ""),
		"badb64.png":     pngWithChara(t, "%%%"),
	}
	for name, data := range cases {
		path := filepath.Join(dir, name)
		os.WriteFile(path, data, 0o600)
		if _, _, err := readPersonaFile(path, nil); err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("%s: err = %v, want an error naming the file", name, err)
		}
	}
}

// pngWithChara builds a minimal PNG (header chunk, optional chara tEXt, IEND).
func pngWithChara(t *testing.T, chara string) []byte {
	t.Helper()
	var b bytes.Buffer
	b.Write(pngSignature)
	chunk := func(typ string, data []byte) {
		binary.Write(&b, binary.BigEndian, uint32(len(data)))
		b.WriteString(typ)
		b.Write(data)
		crc := crc32.NewIEEE()
		crc.Write([]byte(typ))
		crc.Write(data)
		binary.Write(&b, binary.BigEndian, crc.Sum32())
	}
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], 1)
	binary.BigEndian.PutUint32(ihdr[4:], 1)
	ihdr[8], ihdr[9] = 8, 0
	chunk("IHDR", ihdr)
	if chara != "" {
		chunk("tEXt", append([]byte("chara\x00"), chara...))
	}
	chunk("IEND", nil)
	return b.Bytes()
}

func FuzzParsePersona(f *testing.F) {
	raw, _ := os.ReadFile(filepath.Join("..", "..", "persona.example.yaml"))
	f.Add(raw)
	f.Add([]byte("name: A\nlanguage: zh\npersona: x\nlifeloop:\n  schedule: '@every 1h'\n"))
	f.Add([]byte("{]"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := parsePersona("fuzz.yaml", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.yaml") {
				t.Fatalf("error does not name the source: %v", err)
			}
			return
		}
		if p.Name == "" || p.Dependency <= 0 || p.Timezone == nil {
			t.Fatalf("accepted an invalid persona: %+v", p)
		}
	})
}

func FuzzCharacterCard(f *testing.F) {
	f.Add([]byte(`{"spec":"chara_card_v2","data":{"name":"A","description":"B"}}`))
	f.Add(append(append([]byte{}, pngSignature...), 0, 0, 0, 1))
	if raw, err := os.ReadFile(filepath.Join("testdata", "card_lore.json")); err == nil {
		f.Add(raw) // a character_book
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		cardUnusedFields(data) // reads any bytes without panicking
		y, err := cardToYAML("card.json", data)
		if err != nil {
			return
		}
		if _, err := parsePersona("card.json", y); err != nil {
			t.Fatalf("a card that converted does not parse: %v\n%s", err, y)
		}
	})
}

// TestExamplePersonaShowsTheDefaults: persona.example.yaml says every
// optional key is set to its default. Parsed, it must equal a persona that
// sets only the required keys, apart from who the persona is.
func TestExamplePersonaShowsTheDefaults(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "persona.example.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	example, err := parsePersona("persona.example.yaml", raw)
	if err != nil {
		t.Fatal(err)
	}
	minimal, err := parsePersona("minimal.yaml", []byte("name: Luna\nlanguage: en\npersona: x\n"))
	if err != nil {
		t.Fatal(err)
	}
	// Who the persona is and what it knows (one example lore entry), not
	// settings with defaults.
	example.Text, example.InnerStateSeed = minimal.Text, minimal.InnerStateSeed
	example.Lore.Entries = minimal.Lore.Entries
	if len(example.Lexicon) == 0 && len(minimal.Lexicon) == 0 {
		example.Lexicon = minimal.Lexicon // {} and absent say the same
	}
	// Lore settings left out mean heart's defaults.
	for _, l := range []*heart.LoreBook{&example.Lore, &minimal.Lore} {
		l.ScanDepth = cmp.Or(l.ScanDepth, heart.DefaultLoreScanDepth)
		l.BudgetTokens = cmp.Or(l.BudgetTokens, heart.DefaultLoreBudgetTokens)
	}
	if !reflect.DeepEqual(example, minimal) {
		t.Errorf("persona.example.yaml differs from the defaults:\nexample  %+v\ndefaults %+v", example, minimal)
	}
}

// TestPersonaErrorsNameTheLine: a bad value is reported on its own line,
// nested keys and list entries included.
func TestPersonaErrorsNameTheLine(t *testing.T) {
	base := "name: Luna\nlanguage: en\npersona: hi\n"
	for _, c := range []struct {
		yaml string
		line int
	}{
		{base + "lifeloop:\n  quiet_hours: ''\n  schedule: '@every 1s'\n", 6},
		{base + "dependency: high\n", 4},
		{base + "lore:\n  entries:\n    - keys: [a]\n      content: x\n    - keys: [b]\n      content: ''\n", 9},
		{base + "language2: en\n", 4},
	} {
		_, err := parsePersona("p.yaml", []byte(c.yaml))
		var pe *PersonaError
		if !errors.As(err, &pe) || pe.Line != c.line {
			t.Errorf("%q: %v, want line %d", c.yaml, err, c.line)
		}
	}
}

// TestPersonaRejectsNaNAndSecondDocuments: ".nan" compares false with every
// bound, so a range check alone let it through into the mood model; and a
// second YAML document after "---" was silently ignored.
func TestPersonaRejectsNaNAndSecondDocuments(t *testing.T) {
	base := "name: Luna\nlanguage: en\npersona: hi\n"
	for _, c := range []struct {
		yaml, key string
		line      int
	}{
		{base + "dependency: .nan\n", "dependency", 4},
		{base + "pride: .NaN\n", "pride", 4},
		{base + "budget:\n  user_share: .nan\n", "budget.user_share", 5},
		{base + "dependency: .inf\n", "dependency", 4},
		{base + "---\nname: Nana\ndependency: 1.5\n", "", 4},
		{base + "\n---\n", "", 5},
	} {
		_, err := parsePersona("p.yaml", []byte(c.yaml))
		var pe *PersonaError
		if !errors.As(err, &pe) || pe.Key != c.key || pe.Line != c.line {
			t.Errorf("%q: %v, want an error at p.yaml:%d naming key %q", c.yaml, err, c.line, c.key)
		}
	}
	// A leading "---" and a closing "..." are one document.
	for _, one := range []string{"---\n" + base, base + "...\n"} {
		if _, err := parsePersona("p.yaml", []byte(one)); err != nil {
			t.Errorf("%q: %v", one, err)
		}
	}
}
