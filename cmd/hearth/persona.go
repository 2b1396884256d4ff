package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"hearth/bot"
	"hearth/heart"
	"hearth/lifeloop"
)

// Persona defaults (hearth's choices unless a seed is named).
const (
	// DefaultDependency is seed 001 §3.3's standard type (Luna 1.0).
	DefaultDependency = 1.0
	// DefaultPride makes APOLOGY worth max(5, 20-10*0.5) = 15 at negative mood,
	// the low end of seed 001 §5.2's "+15 ~ +20".
	DefaultPride = 10.0
	// DefaultPowerRequests is the per-user daily allowance of REQUEST_NSFW and
	// INVITATION requests (DESIGN §3 step 4 "consume Power").
	DefaultPowerRequests = 3
	// MaxPersonaBytes bounds a persona file; real ones are a few KiB.
	MaxPersonaBytes = 1 << 20
	// MaxDependency bounds seed 001 §3.3's sensitivity at over three times
	// its most sensitive type (Nana 1.5): there a single INSULT already
	// moves the mood by 5 × 50 = 250, past its whole ±100 range.
	MaxDependency = 5.0
	// MaxPride bounds seed 001 §5.2's pride: at 30 the apology bonus is
	// already the floor of 5; 100 leaves room without inviting nonsense.
	MaxPride = 100.0
)

// personaYAML is hearth's persona file. persona.example.yaml documents every
// key; unknown keys are errors.
type personaYAML struct {
	Name            string              `yaml:"name"`
	Language        string              `yaml:"language"`
	Persona         string              `yaml:"persona"`
	InnerStateSeed  string              `yaml:"inner_state_seed"`
	FirstMessage    string              `yaml:"first_message"`
	Greetings       []string            `yaml:"alternate_greetings"`
	Examples        string              `yaml:"examples"`
	PostHistory     string              `yaml:"post_history_instructions"`
	Lore            *loreYAML           `yaml:"lore"`
	Dependency      *float64            `yaml:"dependency"`
	Pride           *float64            `yaml:"pride"`
	Perception      string              `yaml:"perception"`
	Lexicon         map[string][]string `yaml:"lexicon"`
	CrisisResources string              `yaml:"crisis_resources"`
	Content         struct {
		AllowExplicit bool `yaml:"allow_explicit"`
		DailyRequests *int `yaml:"daily_requests"`
	} `yaml:"content"`
	Budget struct {
		DailyTokens int     `yaml:"daily_tokens"`
		UserShare   float64 `yaml:"user_share"`
	} `yaml:"budget"`
	Timezone string `yaml:"timezone"`
	LifeLoop struct {
		Schedule   *string `yaml:"schedule"`
		QuietHours string  `yaml:"quiet_hours"`
		MinSilence string  `yaml:"min_silence"`
		MinState   string  `yaml:"min_state"`
		DailyCap   *int    `yaml:"daily_cap"`
	} `yaml:"lifeloop"`
	Voice struct {
		Name    string `yaml:"name"`
		Replies string `yaml:"replies"`
	} `yaml:"voice"`
}

// PersonaError names the persona source and, where it applies, the key.
type PersonaError struct {
	Source string
	Line   int
	Key    string
	Err    error
}

func (e *PersonaError) Error() string {
	where := e.Source
	if e.Line > 0 {
		where += ":" + strconv.Itoa(e.Line)
	}
	if e.Key != "" {
		return fmt.Sprintf("%s: key %s: %v", where, e.Key, e.Err)
	}
	return fmt.Sprintf("%s: %v", where, e.Err)
}

func (e *PersonaError) Unwrap() error { return e.Err }

// readPersonaFile loads a persona from path: hearth YAML, or a Character
// Card V2 (.json, or .png with the card embedded). It returns the persona
// and the canonical YAML to store in the instance file. A card's fields
// hearth does not use are reported on log, once, in one line.
func readPersonaFile(path string, log *slog.Logger) (bot.Persona, []byte, error) {
	raw, err := readLimited(path)
	if err != nil {
		return bot.Persona{}, nil, &PersonaError{Source: path, Err: err}
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".json", ".png":
		y, err := cardToYAML(path, raw)
		if err != nil {
			return bot.Persona{}, nil, err
		}
		if unused := cardUnusedFields(raw); len(unused) > 0 && log != nil {
			log.Info("character card: fields hearth does not use", "file", path, "fields", strings.Join(unused, ", "))
		}
		raw = y
	}
	p, err := parsePersona(path, raw)
	return p, raw, err
}

func readLimited(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	raw, err := io.ReadAll(io.LimitReader(f, MaxPersonaBytes+1))
	if err != nil {
		return nil, err
	}
	if len(raw) > MaxPersonaBytes {
		return nil, fmt.Errorf("larger than %d bytes", MaxPersonaBytes)
	}
	return raw, nil
}

// parsePersona parses and validates hearth YAML. source names the file in
// errors.
func parsePersona(source string, raw []byte) (bot.Persona, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(raw, &root); err != nil {
		p := explainYAML(nil, err)
		return bot.Persona{}, &PersonaError{Source: source, Line: p.Line, Err: errors.New("not valid YAML: " + p.What)}
	}
	if len(root.Content) == 0 {
		return bot.Persona{}, &PersonaError{Source: source, Err: errors.New("empty persona")}
	}
	if err := checkKeys(source, root.Content[0], "", personaKeys); err != nil {
		return bot.Persona{}, err
	}
	var y personaYAML
	dec := yaml.NewDecoder(bytes.NewReader(raw))
	dec.KnownFields(true)
	if err := dec.Decode(&y); err != nil {
		p := explainYAML(&root, err)
		return bot.Persona{}, &PersonaError{Source: source, Line: p.Line, Key: p.Key, Err: errors.New(p.What)}
	}
	// A persona is one document: what follows a "---" would be silently
	// ignored, so a pasted second persona (or half of one) is refused where
	// it begins.
	var next yaml.Node
	if err := dec.Decode(&next); !errors.Is(err, io.EOF) {
		line := next.Line
		if err != nil {
			line = explainYAML(nil, err).Line
		}
		return bot.Persona{}, &PersonaError{Source: source, Line: line,
			Err: errors.New("a second YAML document begins here (---): a persona is one document, and the rest would be ignored")}
	}
	persona, err := y.validate(source)
	var pe *PersonaError
	if errors.As(err, &pe) && pe.Line == 0 {
		pe.Line = lineOfKey(root.Content[0], pe.Key)
	}
	return persona, err
}

// lineOfKey is the line of a dotted key ("lifeloop.schedule",
// "lore.entries[0].content") in a mapping, or 0 when it is not there (a
// required key left out).
func lineOfKey(n *yaml.Node, dotted string) int {
	first, rest, nested := strings.Cut(dotted, ".")
	name, index, indexed := strings.Cut(strings.TrimSuffix(first, "]"), "[")
	for i := 0; n != nil && n.Kind == yaml.MappingNode && i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Value != name {
			continue
		}
		if indexed {
			j, err := strconv.Atoi(index)
			if err != nil || v.Kind != yaml.SequenceNode || j < 0 || j >= len(v.Content) {
				return k.Line
			}
			k, v = v.Content[j], v.Content[j]
		}
		if nested {
			if line := lineOfKey(v, rest); line > 0 {
				return line
			}
		}
		return k.Line
	}
	return 0
}

// personaKeys is the key tree of personaYAML, for errors that name the key
// and its line (yaml's own errors name the Go type instead).
var personaKeys = map[string]any{
	"name": nil, "language": nil, "persona": nil, "inner_state_seed": nil,
	"first_message": nil, "alternate_greetings": nil, "examples": nil, "post_history_instructions": nil, "lore": loreKeys,
	"dependency": nil, "pride": nil,
	"perception": nil, "lexicon": "any", "crisis_resources": nil, "timezone": nil,
	"content": map[string]any{"allow_explicit": nil, "daily_requests": nil},
	"budget":  map[string]any{"daily_tokens": nil, "user_share": nil},
	"lifeloop": map[string]any{
		"schedule": nil, "quiet_hours": nil, "min_silence": nil, "min_state": nil, "daily_cap": nil,
	},
	"voice": map[string]any{"name": nil, "replies": nil},
}

// listOf marks a key whose value is a list of mappings with these keys.
type listOf map[string]any

func checkKeys(source string, n *yaml.Node, prefix string, allowed map[string]any) error {
	if n.Kind != yaml.MappingNode {
		return &PersonaError{Source: source, Line: n.Line, Key: strings.TrimSuffix(prefix, "."), Err: errors.New("must be a mapping")}
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		sub, ok := allowed[k.Value]
		if !ok {
			return &PersonaError{Source: source, Line: k.Line, Key: prefix + k.Value, Err: errors.New("unknown key (persona.example.yaml lists every key)")}
		}
		if v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
			continue // an empty key means its default
		}
		switch sub := sub.(type) {
		case map[string]any:
			if err := checkKeys(source, v, prefix+k.Value+".", sub); err != nil {
				return err
			}
		case listOf:
			if v.Kind != yaml.SequenceNode {
				return &PersonaError{Source: source, Line: v.Line, Key: prefix + k.Value, Err: errors.New("must be a list")}
			}
			for i, item := range v.Content {
				if err := checkKeys(source, item, fmt.Sprintf("%s%s[%d].", prefix, k.Value, i), sub); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// validate turns a decoded persona file into a Persona with every default
// filled in. Its stages run in the order of persona.example.yaml; the first
// value one rejects is the error, naming src and the key.
func (y personaYAML) validate(src string) (bot.Persona, error) {
	p := bot.Persona{
		Name: strings.TrimSpace(y.Name), Language: y.Language, Text: strings.TrimSpace(y.Persona),
		InnerStateSeed: strings.TrimSpace(y.InnerStateSeed), FirstMessage: strings.TrimSpace(y.FirstMessage),
		AlternateGreetings: trimmed(y.Greetings),
		Examples:           strings.TrimSpace(y.Examples), PostHistory: strings.TrimSpace(y.PostHistory),
		Dependency: DefaultDependency, Pride: DefaultPride,
		Perception: y.Perception, Lexicon: y.Lexicon, CrisisResources: strings.TrimSpace(y.CrisisResources),
		AllowExplicit: y.Content.AllowExplicit, DailyPowerRequests: DefaultPowerRequests,
		Budget: bot.Budget{DailyTokens: y.Budget.DailyTokens, UserShare: y.Budget.UserShare},
	}
	for _, stage := range []func(string, *bot.Persona) error{y.identity, y.mind, y.limits, y.timezone, y.lifeLoop, y.voice} {
		if err := stage(src, &p); err != nil {
			return bot.Persona{}, err
		}
	}
	return p, nil
}

// keyError is the error about one key of the persona file src.
func keyError(src, key, format string, args ...any) error {
	return &PersonaError{Source: src, Key: key, Err: fmt.Errorf(format, args...)}
}

// identity checks what every persona must say: its name, language and who
// it is.
func (y personaYAML) identity(src string, p *bot.Persona) error {
	if p.Name == "" {
		return keyError(src, "name", "is required")
	}
	switch p.Language {
	case "zh", "en", "ja":
	case "":
		return keyError(src, "language", "is required (zh, en or ja)")
	default:
		return keyError(src, "language", "%q is not one of zh, en, ja", p.Language)
	}
	if p.Text == "" {
		return keyError(src, "persona", "is required: who the companion is")
	}
	return nil
}

// mind reads how the companion feels and reads the user: the mood model's
// dependency and pride (seed 001), the perception mode, the lore book and
// the emotion lexicon.
func (y personaYAML) mind(src string, p *bot.Persona) error {
	if y.Dependency != nil {
		// NaN (".nan") compares false with everything, so it is named.
		if math.IsNaN(*y.Dependency) || *y.Dependency <= 0 || *y.Dependency > MaxDependency {
			return keyError(src, "dependency", "%v is outside (0, %v] (seed 001 §3.3: Nana 1.5, Luna 1.0, Vesper 0.5)", *y.Dependency, MaxDependency)
		}
		p.Dependency = *y.Dependency
	}
	if y.Pride != nil {
		if math.IsNaN(*y.Pride) || *y.Pride < 0 || *y.Pride > MaxPride {
			return keyError(src, "pride", "%v is outside [0, %v]", *y.Pride, MaxPride)
		}
		p.Pride = *y.Pride
	}
	switch p.Perception {
	case "":
		p.Perception = "llm"
	case "llm", "heuristic":
	default:
		return keyError(src, "perception", "%q is not llm or heuristic", p.Perception)
	}
	lore, err := y.Lore.book(src)
	if err != nil {
		return err
	}
	p.Lore = lore
	if _, err := heart.NewLexicon(p.Lexicon); err != nil {
		return keyError(src, "lexicon", "%v", err)
	}
	return nil
}

// limits checks the allowances: content requests per day and the token
// budget.
func (y personaYAML) limits(src string, p *bot.Persona) error {
	if y.Content.DailyRequests != nil {
		if *y.Content.DailyRequests < 0 {
			return keyError(src, "content.daily_requests", "must not be negative")
		}
		p.DailyPowerRequests = *y.Content.DailyRequests
	}
	if p.Budget.DailyTokens < 0 {
		return keyError(src, "budget.daily_tokens", "must not be negative")
	}
	if math.IsNaN(p.Budget.UserShare) || p.Budget.UserShare < 0 || p.Budget.UserShare > 1 {
		return keyError(src, "budget.user_share", "%v is outside [0, 1]", p.Budget.UserShare)
	}
	return nil
}

// timezone sets the persona's time zone, UTC when none is given; the life
// loop's schedule is read in it.
func (y personaYAML) timezone(src string, p *bot.Persona) error {
	p.Timezone = time.UTC
	if y.Timezone != "" {
		loc, err := time.LoadLocation(y.Timezone)
		if err != nil {
			return keyError(src, "timezone", "%q is not an IANA time zone", y.Timezone)
		}
		p.Timezone = loc
	}
	return nil
}

// lifeLoop reads the lifeloop keys over the life loop's defaults.
func (y personaYAML) lifeLoop(src string, p *bot.Persona) error {
	ll := lifeloop.EffectiveSettings(bot.LifeLoop{Schedule: lifeloop.DefaultSchedule})
	if y.LifeLoop.Schedule != nil {
		ll.Schedule = strings.TrimSpace(*y.LifeLoop.Schedule)
	}
	if _, err := lifeloop.ParseSchedule(ll.Schedule, p.Timezone); err != nil {
		return keyError(src, "lifeloop.schedule", "%v", err)
	}
	if y.LifeLoop.QuietHours != "" {
		start, end, err := parseQuietHours(y.LifeLoop.QuietHours)
		if err != nil {
			return keyError(src, "lifeloop.quiet_hours", "%v", err)
		}
		ll.QuietStart, ll.QuietEnd = start, end
	}
	if y.LifeLoop.MinSilence != "" {
		d, err := bot.ParseDuration(y.LifeLoop.MinSilence)
		if err != nil || d <= 0 {
			return keyError(src, "lifeloop.min_silence", "%q is not a positive duration like 6h or 1d", y.LifeLoop.MinSilence)
		}
		ll.MinSilence = d
	}
	if y.LifeLoop.MinState != "" {
		switch y.LifeLoop.MinState {
		case "stranger", "acquaintance", "friend", "close":
			ll.MinState = y.LifeLoop.MinState
		default:
			return keyError(src, "lifeloop.min_state", "%q is not stranger, acquaintance, friend or close", y.LifeLoop.MinState)
		}
	}
	if y.LifeLoop.DailyCap != nil {
		if *y.LifeLoop.DailyCap < 1 {
			return keyError(src, "lifeloop.daily_cap", "must be at least 1 (schedule: off turns proactive messages off)")
		}
		ll.DailyCap = *y.LifeLoop.DailyCap
	}
	p.LifeLoop = ll
	return nil
}

// voice reads the voice keys: the speaking voice and when replies are
// spoken (DESIGN §12).
func (y personaYAML) voice(src string, p *bot.Persona) error {
	p.Voice = bot.VoiceSettings{Name: strings.TrimSpace(y.Voice.Name), Replies: strings.TrimSpace(y.Voice.Replies)}
	if p.Voice.Name == "" {
		p.Voice.Name = bot.DefaultVoice
	}
	switch p.Voice.Replies {
	case "":
		p.Voice.Replies = bot.VoiceMirror
	case bot.VoiceMirror, bot.VoiceAlways, bot.VoiceNever:
	default:
		return keyError(src, "voice.replies", "%q is not mirror, always or never", p.Voice.Replies)
	}
	return nil
}

// parseQuietHours parses "23:00-08:00" into offsets from midnight.
func parseQuietHours(s string) (time.Duration, time.Duration, error) {
	a, b, ok := strings.Cut(strings.TrimSpace(s), "-")
	if !ok {
		return 0, 0, fmt.Errorf("%q is not HH:MM-HH:MM", s)
	}
	start, err1 := clock(a)
	end, err2 := clock(b)
	if err := errors.Join(err1, err2); err != nil {
		return 0, 0, fmt.Errorf("%q is not HH:MM-HH:MM: %w", s, err)
	}
	return start, end, nil
}

func clock(s string) (time.Duration, error) {
	t, err := time.Parse("15:04", strings.TrimSpace(s))
	if err != nil {
		return 0, err
	}
	return time.Duration(t.Hour())*time.Hour + time.Duration(t.Minute())*time.Minute, nil
}
