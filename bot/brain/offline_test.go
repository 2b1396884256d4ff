package brain

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"hearth/bot"
	"hearth/heart"
)

var (
	allIntents  = []string{"", "GREETING", "SMALL_TALK", "CLOSING", "COMPLIMENT", "FLIRT", "LOVE_CONFESSION", "COMFORT", "CRITICISM", "INSULT", "IGNORE", "APOLOGY", "GIFT_SEND", "REQUEST_NSFW", "INVITATION", "NONSENSE"}
	allEmotions = []string{"", "neutral", "happy", "excited", "grateful", "curious", "help_seeking", "info_seeking", "validation_seeking", "sad", "anxious", "angry", "lonely", "frustrated", "bogus"}
	userTexts   = map[string][]string{
		"en": {"my boss kept me late at work again today", "I watched a movie with my sister", "hello", "I can't sleep and I feel awful about the exam"},
		"zh": {"今天工作好累，老板又让我加班", "我和朋友去旅行了", "你好", "我失眠了，明天还要考试"},
		"ja": {"今日も仕事で残業だった", "友だちと映画を見たよ", "こんにちは", "眠れなくて試験が不安"},
	}
	names = map[string][2]string{"en": {"Luna", "Ann"}, "zh": {"露娜", "小明"}, "ja": {"ルナ", "さくら"}}
)

// hintGrid yields a wide spread of reply hints for one language: every
// intent with every emotion and text, a third of the combinations (staggered
// so each pair still meets), to keep the race-enabled run short.
func hintGrid(lang string) []bot.Hints {
	var out []bot.Hints
	turn := 0
	for i, intent := range allIntents {
		for j, emo := range allEmotions {
			for k, text := range userTexts[lang] {
				if (i+j+k)%3 != 0 {
					continue
				}
				turn++
				h := bot.Hints{
					Language: lang, Persona: names[lang][0], User: names[lang][1], Text: text, Turn: turn,
					Intent: intent, Emotion: emo, Sentiment: float64(turn%21-10) / 10,
					EmojiAllowed: turn%2 == 0, ProactiveQuestion: turn%3 == 0,
					Relationship: []string{"stranger", "acquaintance", "friend", "close"}[turn%4],
					Lingering:    []string{"", "anger", "joy"}[turn%3], RefusalAllowed: turn%5 == 0,
				}
				switch turn % 11 {
				case 0:
					h.Crisis = true
				case 1:
					h.Decline = true
				case 2:
					h.Gift = map[string]string{"en": "flowers", "zh": "花", "ja": "花束"}[lang]
				case 3:
					h.User, h.Persona = "", ""
				}
				out = append(out, h)
			}
		}
	}
	return out
}

func reply(t testing.TB, o *Offline, h bot.Hints) bot.Response {
	t.Helper()
	resp, err := o.Complete(context.Background(), bot.Request{Kind: bot.KindReply, Hints: h})
	if err != nil {
		t.Fatalf("reply %+v: %v", h, err)
	}
	return resp
}

// loaded is o's knowledge, read now if no call has read it yet.
func (o *Offline) loaded() *knowledge {
	k, err := o.know()
	if err != nil {
		panic(err)
	}
	return k
}

// TestOfflineReadsItsDataAtFirstCall: making the brain reads nothing (a
// daemon with a model may never need it; README "Footprint"), the first
// call reads the data, and concurrent first calls share one reading.
func TestOfflineReadsItsDataAtFirstCall(t *testing.T) {
	o := NewOffline()
	if o.k != nil {
		t.Fatal("NewOffline read the data")
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			if _, err := o.Complete(context.Background(), bot.Request{Kind: bot.KindReply, Hints: bot.Hints{Language: "en", Text: "hello", Turn: 1}}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	k := o.k
	if k == nil || len(k.book) == 0 {
		t.Fatal("a call did not read the data")
	}
	reply(t, o, bot.Hints{Language: "en", Text: "hi again", Turn: 2})
	if o.k != k {
		t.Error("a later call read the data again")
	}
}

func hasHan(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return unicode.Is(unicode.Han, r) }) >= 0
}
func hasKana(s string) bool { return strings.IndexFunc(s, isKana) >= 0 }
func isKana(r rune) bool {
	return unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r)
}

func isEmoji(r rune) bool { return r >= 0x2600 && r <= 0x27BF || r >= 0x1F000 }

func TestOfflineLanguageScripts(t *testing.T) {
	o := NewOffline()
	for _, lang := range []string{"en", "zh", "ja"} {
		for _, h := range hintGrid(lang) {
			text := reply(t, o, h).Text
			if text == "" {
				t.Fatalf("%s: empty reply for %+v", lang, h)
			}
			switch lang {
			case "zh":
				if !hasHan(text) || hasKana(text) {
					t.Fatalf("zh reply not Chinese: %q", text)
				}
			case "ja":
				if !hasKana(text) {
					t.Fatalf("ja reply has no kana: %q", text)
				}
			case "en":
				for _, r := range text {
					if r >= utf8.RuneSelf && !isEmoji(r) && r != '’' {
						t.Fatalf("en reply has non-ASCII %q: %q", r, text)
					}
				}
			}
		}
	}
}

func TestOfflineDeterministicAndVaried(t *testing.T) {
	o, other := NewOffline(), NewOffline()
	for _, lang := range []string{"en", "zh", "ja"} {
		for _, intent := range []string{"GREETING", "SMALL_TALK", "COMPLIMENT", "CLOSING"} {
			seen := map[string]bool{}
			for turn := 1; turn <= 12; turn++ {
				h := bot.Hints{Language: lang, Persona: "P", User: "U", Text: userTexts[lang][0], Turn: turn, Intent: intent, ProactiveQuestion: true}
				a, b := reply(t, o, h), reply(t, other, h)
				if a.Text != b.Text || a.Trailer != b.Trailer {
					t.Fatalf("same input, different output: %q vs %q", a.Text, b.Text)
				}
				seen[a.Text] = true
			}
			if len(seen) < 3 {
				t.Errorf("%s %s: only %d distinct replies over 12 turns: %v", lang, intent, len(seen), seen)
			}
		}
	}
}

// trailerShape checks a trailer against DESIGN §3 step 8.
func trailerShape(t *testing.T, raw string) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal([]byte(raw), &v); err != nil {
		t.Fatalf("trailer %q: %v", raw, err)
	}
	for _, k := range []string{"emotion_label", "emotion_intensity", "salience", "confidence", "topic_tags", "remember", "scratch"} {
		if _, ok := v[k]; !ok {
			t.Fatalf("trailer %s lacks %q", raw, k)
		}
	}
	switch v["emotion_label"] {
	case "joy", "sadness", "anger", "fear", "neutral":
	default:
		t.Fatalf("emotion_label %v", v["emotion_label"])
	}
	for _, k := range []string{"emotion_intensity", "salience", "confidence"} {
		if x, ok := v[k].(float64); !ok || x < 0 || x > 1 {
			t.Fatalf("%s = %v, want 0..1", k, v[k])
		}
	}
	if _, ok := v["topic_tags"].([]any); !ok {
		t.Fatalf("topic_tags = %v, want a list", v["topic_tags"])
	}
	rem, ok := v["remember"].([]any)
	if !ok {
		t.Fatalf("remember = %v, want a list", v["remember"])
	}
	for _, r := range rem {
		m := r.(map[string]any)
		if s := m["slot"].(float64); (s < 0 || s > slotFactsLast) && (s < slotCareFirst || s > slotCareLast) || m["content"] == "" {
			t.Fatalf("remember item %v: want a fact slot 0-9 or a care slot 20-29 with content", m)
		}
	}
	if s, _ := v["scratch"].(string); utf8.RuneCountInString(s) > maxScratchRunes {
		t.Fatalf("scratch too long: %q", s)
	}
	return v
}

func TestOfflineReplyShape(t *testing.T) {
	o := NewOffline()
	for _, lang := range []string{"en", "zh", "ja"} {
		for _, h := range hintGrid(lang) {
			var streamed strings.Builder
			resp, err := o.Complete(context.Background(), bot.Request{Kind: bot.KindReply, Hints: h, Stream: func(s string) { streamed.WriteString(s) }})
			if err != nil {
				t.Fatal(err)
			}
			if !resp.Offline || resp.Usage.PromptTokens <= 0 || resp.Usage.CompletionTokens <= 0 {
				t.Fatalf("resp %+v: want Offline and an estimated usage", resp)
			}
			if streamed.String() != resp.Text {
				t.Fatalf("streamed %q, Text %q", streamed.String(), resp.Text)
			}
			if strings.Contains(resp.Text, "<<<") || strings.Contains(resp.Text, "{") || strings.Contains(resp.Text, "emotion_label") {
				t.Fatalf("trailer leaked into %q", resp.Text)
			}
			trailerShape(t, resp.Trailer)
			if h.Crisis {
				if strings.ContainsAny(resp.Text, "?？") || strings.IndexFunc(resp.Text, isEmoji) >= 0 {
					t.Fatalf("crisis reply asks or jokes: %q", resp.Text)
				}
			}
			if h.Decline && strings.ContainsAny(resp.Text, "?？") && !h.Crisis {
				t.Fatalf("decline reply asks a question: %q", resp.Text)
			}
			if !h.EmojiAllowed && strings.IndexFunc(resp.Text, isEmoji) >= 0 {
				t.Fatalf("emoji without permission: %q", resp.Text)
			}
			if h.Gift != "" && !h.Crisis && !h.Decline && !strings.Contains(strings.ToLower(resp.Text), strings.ToLower(h.Gift)) {
				t.Fatalf("gift %q not thanked for: %q", h.Gift, resp.Text)
			}
		}
	}
}

func TestOfflineMaxLength(t *testing.T) {
	o := NewOffline()
	for _, lang := range []string{"en", "zh", "ja"} {
		for _, limit := range []int{8, 15, 30, 60, 120} {
			for i, h := range hintGrid(lang) {
				if i%7 != 0 {
					continue
				}
				h.MaxLength = limit
				if h.Crisis { // kept whole up to crisisMinLength: TestOfflineCrisisKind
					continue
				}
				if text := reply(t, o, h).Text; utf8.RuneCountInString(text) > limit || text == "" {
					t.Fatalf("%s MaxLength %d: %d runes %q", lang, limit, utf8.RuneCountInString(text), text)
				}
			}
		}
	}
	long := reply(t, o, bot.Hints{Language: "en", Intent: "GREETING", Emotion: "happy", ProactiveQuestion: true, Text: "hi there friend", Turn: 3})
	if n := utf8.RuneCountInString(long.Text); n > defaultMaxLength {
		t.Errorf("default limit: %d runes", n)
	}
}

func TestOfflineNeverEchoes(t *testing.T) {
	o := NewOffline()
	for _, lang := range []string{"en", "zh", "ja"} {
		for _, h := range hintGrid(lang) {
			text := reply(t, o, h).Text
			if u := strings.TrimSpace(h.Text); utf8.RuneCountInString(u) >= minEchoRunes && strings.Contains(strings.ToLower(text), strings.ToLower(u)) {
				t.Fatalf("reply echoes the user: %q in %q", u, text)
			}
		}
	}
}

func TestOfflineNeverForbidden(t *testing.T) {
	o := NewOffline()
	check := func(s string) {
		t.Helper()
		if heart.ContainsForbidden(s) {
			t.Fatalf("seed 003 §7.2 phrase in %q", s)
		}
	}
	for _, lang := range []string{"en", "zh", "ja"} {
		for _, h := range hintGrid(lang) {
			check(reply(t, o, h).Text)
			if h.Turn%5 != 0 {
				continue
			}
			for _, k := range []bot.Kind{bot.KindLifeLoop, bot.KindReflect} {
				for _, silence := range []time.Duration{0, 23 * time.Hour, 24 * time.Hour, 30 * 24 * time.Hour} {
					h.Silence = silence
					resp, err := o.Complete(context.Background(), bot.Request{Kind: k, Hints: h})
					if err != nil {
						t.Fatal(err)
					}
					check(resp.Text)
				}
			}
		}
	}
	// The guard itself works: a forbidden line never gets out.
	if got := sanitize("ok 我等了你好久", langZH); strings.Contains(got, "我等了你好久") {
		t.Errorf("sanitize let %q through", got)
	}
}

func TestOfflineFacts(t *testing.T) {
	o := NewOffline()
	tests := []struct {
		lang, text string
		mems       []string
		want       []rememberItem
	}{
		{"en", "hi, my name is Ann! nice to meet you", nil, []rememberItem{{0, "Name: Ann"}}},
		{"en", "Just call me Bo.", nil, []rememberItem{{0, "Name: Bo"}}},
		{"en", "I live in New York and my birthday is May 3", nil, []rememberItem{{1, "Lives in: New York"}, {2, "Birthday: May 3"}}},
		{"en", "I have a dog named Rex", []string{"Pets: Miso (cat)"}, []rememberItem{{3, "Pets: Miso (cat); Rex (dog)"}}},
		{"en", "My cat Miso knocked my mug over", []string{"Pets: Miso (cat)"}, nil},
		{"en", "I work as a nurse at the clinic", nil, []rememberItem{{4, "Work: nurse"}}},
		{"zh", "我叫小明，你呢？", nil, []rememberItem{{0, "名字：小明"}}},
		{"zh", "我住在上海。我的生日是五月三日", nil, []rememberItem{{1, "住在：上海"}, {2, "生日：五月三日"}}},
		{"zh", "我养了一只狗，叫旺财", nil, []rememberItem{{3, "宠物：旺财（狗）"}}},
		{"ja", "私の名前はさくらです。東京に住んでいます", nil, []rememberItem{{0, "名前：さくら"}, {1, "住まい：東京"}}},
		{"ja", "誕生日は三月三日だよ", nil, []rememberItem{{2, "誕生日：三月三日"}}},
		{"en", "what is my name?", nil, nil},
		{"en", "do you remember my cat's name?", nil, nil},
		{"zh", "你还记得我家猫叫什么吗", nil, nil},
		{"zh", "今天天气不错", nil, nil},
		// A breakup changes only a partner it names, points at or the
		// newest; a capital after a comma is no pet's name.
		{"en", "Mia dumped me for her new friends", []string{"People: Mia (sister)"}, nil},
		{"en", "my mom left me a voicemail", []string{"People: Emma (girlfriend)"}, nil},
		{"en", "I broke up with him", []string{"People: Mia (sister); Tom (boyfriend)"}, []rememberItem{{5, "People: Mia (sister); Tom (ex)"}}},
		{"zh", "我们分手了", []string{"身边的人：阿杰（男朋友）"}, []rememberItem{{5, "身边的人：阿杰（前任）"}}},
		{"ja", "ユキと別れた後、家に帰った", []string{"身近な人：ユキ（友だち）"}, nil},
		{"en", "I saw a dog, I think it was lost", nil, nil},
		{"en", "what's my favourite food?", nil, nil},
	}
	for _, tt := range tests {
		resp := reply(t, o, bot.Hints{Language: tt.lang, Text: tt.text, Turn: 1, Memories: tt.mems})
		got, b := remembered(t, resp)
		if fmt.Sprint(got) != fmt.Sprint(tt.want) || string(b) == "null" {
			t.Errorf("%q: remember = %s, want %v", tt.text, b, tt.want)
		}
	}
}

// TestOfflineTrailerIsHonest: the trailer says what the user felt (seed
// 002 values follow the moment): a breakup is a strong, salient sadness, a
// hello a light joy, an insult anger, a named feeling outweighs a cheerful
// situation.
func TestOfflineTrailerIsHonest(t *testing.T) {
	o := NewOffline()
	tests := []struct {
		h     bot.Hints
		label string
		tags  string
	}{
		{bot.Hints{Felt: "sad", Text: "work was hard", Sentiment: -0.4}, "sadness", `["work"]`},
		{bot.Hints{Felt: "anxious", Text: "exam tomorrow"}, "fear", `["study"]`},
		{bot.Hints{Felt: "happy", Text: "I cooked dinner for my mom"}, "joy", `["food","family"]`},
		{bot.Hints{Intent: "INSULT", Text: "you suck"}, "anger", `[]`},
		{bot.Hints{Text: "education matters"}, "neutral", `[]`}, // "cat" inside a word is no pet
		{bot.Hints{Text: "my girlfriend and I broke up after four years", Disclosure: "deep"}, "sadness", `["love"]`},
		{bot.Hints{Text: "I got promoted but I'm scared", Felt: "anxious"}, "fear", `["work"]`},
		{bot.Hints{Text: "我和女朋友分手了"}, "sadness", `["love"]`},
	}
	for _, tt := range tests {
		tt.h.Language = "en"
		v := trailerShape(t, reply(t, o, tt.h).Trailer)
		tags, _ := json.Marshal(v["topic_tags"])
		if v["emotion_label"] != tt.label || string(tags) != tt.tags {
			t.Errorf("%q: label %v tags %s, want %s %s", tt.h.Text, v["emotion_label"], tags, tt.label, tt.tags)
		}
	}
	impact := func(h bot.Hints) float64 {
		v := trailerShape(t, reply(t, o, h).Trailer)
		return v["emotion_intensity"].(float64) * v["salience"].(float64) * v["confidence"].(float64)
	}
	breakup := impact(bot.Hints{Language: "en", Text: "my girlfriend and I broke up", Felt: "sad", Disclosure: "deep"})
	hello := impact(bot.Hints{Language: "en", Text: "hi", Intent: "GREETING"})
	if breakup < 4*hello {
		t.Errorf("a breakup (%.3f) weighs barely more than a hello (%.3f)", breakup, hello)
	}
	crisis := trailerShape(t, reply(t, o, bot.Hints{Language: "en", Crisis: true, Text: "x"}).Trailer)
	if crisis["salience"].(float64) < crisisSalience {
		t.Errorf("crisis salience %v", crisis["salience"])
	}
}

func TestOfflineRelationshipReserve(t *testing.T) {
	o := NewOffline()
	for _, lang := range []string{"en", "zh", "ja"} {
		for _, intent := range []string{"FLIRT", "LOVE_CONFESSION"} {
			key := map[string]string{"FLIRT": "sit.flirt", "LOVE_CONFESSION": "sit.confession"}[intent]
			for turn := range 6 {
				h := bot.Hints{Language: lang, Intent: intent, Text: "you are cute", Turn: turn}
				h.Relationship = "stranger"
				young := reply(t, o, h).Text
				h.Relationship = "close"
				old := reply(t, o, h).Text
				if !slices.Contains(o.loaded().book[key+".young"][lang], young) {
					t.Errorf("%s %s stranger: %q is not a reserved answer", lang, intent, young)
				}
				if slices.Contains(o.loaded().book[key+".young"][lang], old) {
					t.Errorf("%s %s close: %q is a reserved answer", lang, intent, old)
				}
			}
		}
	}
}

func TestOfflinePersonaName(t *testing.T) {
	o := NewOffline()
	for _, lang := range []string{"en", "zh", "ja"} {
		got := reply(t, o, bot.Hints{Language: lang, Persona: names[lang][0], Text: map[string]string{"en": "who are you?", "zh": "你是谁", "ja": "あなたは誰？"}[lang]}).Text
		if !strings.Contains(got, names[lang][0]) {
			t.Errorf("%s: %q does not say the persona's name", lang, got)
		}
	}
}

func TestOfflinePerception(t *testing.T) {
	o := NewOffline()
	tests := []struct {
		h    bot.Hints
		want string
	}{
		{bot.Hints{}, `{"crisis":false,"disclosure":"none","intent_category":"SMALL_TALK","sentiment":0}`},
		{bot.Hints{Intent: "compliment", Sentiment: 0.5}, `{"crisis":false,"disclosure":"none","intent_category":"COMPLIMENT","sentiment":0.5}`},
		{bot.Hints{Intent: "GIFT_SEND"}, `{"crisis":false,"disclosure":"none","intent_category":"FLIRT","sentiment":0}`},
		{bot.Hints{Intent: "DANCE", Sentiment: -3, Crisis: true}, `{"crisis":true,"disclosure":"none","intent_category":"SMALL_TALK","sentiment":-1}`},
	}
	for _, tt := range tests {
		resp, err := o.Complete(context.Background(), bot.Request{Kind: bot.KindPerception, JSON: true, Hints: tt.h})
		if err != nil {
			t.Fatal(err)
		}
		if resp.Text != tt.want || !resp.Offline || resp.Trailer != "" {
			t.Errorf("%+v: %q, want %q", tt.h, resp.Text, tt.want)
		}
	}
}

func TestOfflineReflect(t *testing.T) {
	o := NewOffline()
	recent := []bot.ChatMessage{{Role: "user", Content: "my cat is sick"}, {Role: "assistant", Content: "oh no, work is hard"}}
	for _, tt := range []struct {
		lang, topic string
		script      func(string) bool
	}{{"en", "your pets", func(s string) bool { return strings.Contains(s, "I ") }}, {"zh", "宠物", hasHan}, {"ja", "ペット", hasKana}} {
		for _, mood := range []float64{-60, 0, 60} {
			resp, err := o.Complete(context.Background(), bot.Request{Kind: bot.KindReflect, JSON: true, Hints: bot.Hints{Language: tt.lang, User: "Ann", Relationship: "friend", Mood: mood, Recent: recent}})
			if err != nil {
				t.Fatal(err)
			}
			var v struct {
				InnerState string `json:"inner_state"`
			}
			if err := json.Unmarshal([]byte(resp.Text), &v); err != nil {
				t.Fatalf("%q: %v", resp.Text, err)
			}
			if !tt.script(v.InnerState) || !strings.Contains(v.InnerState, tt.topic) || !strings.Contains(v.InnerState, "Ann") {
				t.Errorf("%s mood %v: inner_state %q: want first person, the user's theme %q and their name", tt.lang, mood, v.InnerState, tt.topic)
			}
			if strings.Contains(v.InnerState, "work") || strings.Contains(v.InnerState, "工作") {
				t.Errorf("reflection took a theme from the bot's own words: %q", v.InnerState)
			}
		}
	}
}

func TestOfflineErrors(t *testing.T) {
	o := NewOffline()
	if _, err := o.Complete(context.Background(), bot.Request{Kind: "poem"}); err == nil {
		t.Error("unknown kind accepted")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := o.Complete(ctx, bot.Request{Kind: bot.KindReply}); err == nil {
		t.Error("cancelled context accepted")
	}
	// An unknown language falls back to English rather than failing.
	if r := reply(t, o, bot.Hints{Language: "fr", Text: "bonjour"}); r.Text == "" || hasHan(r.Text) {
		t.Errorf("fallback reply %q", r.Text)
	}
}

func TestNew(t *testing.T) {
	if b, online := New(OpenAIConfig{}, nil); online {
		t.Error("online without key or base URL")
	} else if _, ok := b.(*Offline); !ok {
		t.Errorf("got %T, want *Offline", b)
	}
	for _, cfg := range []OpenAIConfig{{APIKey: testKey}, {BaseURL: "http://127.0.0.1:1/v1"}} {
		if b, online := New(cfg, nil); !online {
			t.Errorf("%+v: offline", cfg.BaseURL)
		} else if _, ok := b.(*OpenAI); !ok {
			t.Errorf("got %T, want *OpenAI", b)
		}
	}
	if _, online := New(OpenAIConfig{BaseURL: "ftp://x"}, nil); online {
		t.Error("bad base URL gave an online brain")
	}
}

func BenchmarkOfflineReply(b *testing.B) {
	benchmarkReply(b, bot.Hints{Language: "zh", Persona: "露娜", User: "小明", Text: "今天工作好累，我叫小明", Intent: "SMALL_TALK", Emotion: "sad", ProactiveQuestion: true, MaxLength: 200})
}

// BenchmarkOfflineReplyHistory: a reply with a full prompt history
// (bot.HistoryTurns turns) and memories, all of which the offline brain
// reads for facts, names, hard talks and losses on every reply.
func BenchmarkOfflineReplyHistory(b *testing.B) {
	var recent []bot.ChatMessage
	for range bot.HistoryTurns {
		recent = append(recent,
			bot.ChatMessage{Role: "user", Content: "my cat Miso is sick and I had a long day at work with my boss"},
			bot.ChatMessage{Role: "assistant", Content: "I'm sorry. I hope Miso feels better soon. How are you holding up?"})
	}
	benchmarkReply(b, bot.Hints{Language: "en", Persona: "Luna", User: "Ann", Text: "the vet said he needs rest", Emotion: "sad", ProactiveQuestion: true,
		MaxLength: 200, Recent: recent, Memories: []string{"Pets: Miso (cat)", "People: Mia (sister)"}, Now: time.Date(2026, 3, 10, 20, 0, 0, 0, time.UTC)})
}

// BenchmarkOfflineReplyLong: a 1 KB message with a history of such
// messages (TestDiskFullIsAClearErrorWithoutCorruption's turns): every
// reply reads the history again, which took about 28 ms a reply before
// readCache kept what each text tells and (?i) patterns got a prefilter.
func BenchmarkOfflineReplyLong(b *testing.B) {
	long := "message 3 " + strings.Repeat("a long day, so much to say ", 40)
	var recent []bot.ChatMessage
	for range bot.HistoryTurns {
		recent = append(recent, bot.ChatMessage{Role: "user", Content: long}, bot.ChatMessage{Role: "assistant", Content: "Long days can be a lot."})
	}
	benchmarkReply(b, bot.Hints{Language: "en", Persona: "Luna", User: "Ann", Text: long, Emotion: "sad", ProactiveQuestion: true,
		MaxLength: 200, Recent: recent, Now: time.Date(2026, 3, 10, 20, 0, 0, 0, time.UTC)})
}

// benchmarkReply measures the offline brain's reply to h, a new turn each
// time.
func benchmarkReply(b *testing.B, h bot.Hints) {
	o := NewOffline()
	req := bot.Request{Kind: bot.KindReply, Hints: h, Stream: func(string) {}}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		req.Hints.Turn = i
		if _, err := o.Complete(context.Background(), req); err != nil {
			b.Fatal(err)
		}
	}
}

func ExampleSplitter() {
	sp := NewSplitter(func(s string) { fmt.Printf("user sees %q\n", s) })
	sp.Write("Nice to see you! <<<HEARTH_KAI")
	sp.Write("RO_JSON_v1>>>\n{\"emotion_label\":\"joy\"}")
	visible, trailer := sp.Close()
	fmt.Println(visible)
	fmt.Println(trailer)
	// Output:
	// user sees "Nice to see you!"
	// Nice to see you!
	// {"emotion_label":"joy"}
}

func TestOfflineEchoGuard(t *testing.T) {
	if !echoes("You said: I had a long day at work.", "I had a long day at work") {
		t.Error("a parroted message was not caught")
	}
	if echoes("Hi there!", "hi") {
		t.Error("a short greeting counted as an echo")
	}
}

// TestOfflineGrammar: articles and plurals come out right in English.
func TestOfflineGrammar(t *testing.T) {
	for _, tt := range []struct{ item, indef, def string }{
		{"a bouquet of roses", "a bouquet of roses", "the bouquet of roses"},
		{"flowers", "flowers", "the flowers"},
		{"umbrella", "an umbrella", "the umbrella"},
		{"cake", "a cake", "the cake"},
		{"the moon", "the moon", "the moon"},
		{"glass of water", "a glass of water", "the glass of water"},
	} {
		if i, d := giftForms(tt.item, langEN); i != tt.indef || d != tt.def {
			t.Errorf("giftForms(%q) = %q, %q; want %q, %q", tt.item, i, d, tt.indef, tt.def)
		}
	}
	o := NewOffline()
	for turn := range 12 {
		got := reply(t, o, bot.Hints{Language: "en", Gift: "a bouquet of roses", Turn: turn, User: "Ann"}).Text
		if doubled(got) {
			t.Errorf("gift thanks %q", got)
		}
	}
	if got := capitalise("the weather, huh? i'm curious. ok", langEN); got != "The weather, huh? I'm curious. Ok" {
		t.Errorf("capitalise: %q", got)
	}
}

// TestOfflineAnswersFromRecollections: "do you remember…" is answered from
// Hints.Recalled (the recall stage's findings, DESIGN §12) as well as from
// memories: a recalled memory slot gives the fact, a recalled episode the
// user's own words and when they said them.
func TestOfflineAnswersFromRecollections(t *testing.T) {
	o := NewOffline()
	now := time.Date(2026, 3, 10, 20, 0, 0, 0, time.UTC)
	h := bot.Hints{Language: "en", Now: now, Text: "do you remember what I said about Tokyo?", Recalled: []bot.Recollection{
		{Kind: "episode", At: now.AddDate(0, 0, -3), Text: "I'm flying to Tokyo next month for work"},
	}}
	if got := reply(t, o, h).Text; !strings.Contains(got, "Tokyo next month") || !strings.Contains(got, "three days ago") {
		t.Errorf("from a recalled episode: %q", got)
	}
	// Months later she says when, as the reply prompt does (it was "a
	// while ago" for anything past two weeks).
	h.Recalled[0].At = now.AddDate(0, -4, 0)
	if got := reply(t, o, h).Text; !strings.Contains(got, "November") {
		t.Errorf("from an episode four months old: %q", got)
	}
	h = bot.Hints{Language: "zh", Now: now, Text: "你还记得我家猫叫什么吗", Recalled: []bot.Recollection{
		{Kind: "memory", Slot: 3, At: now.AddDate(0, 0, -20), Text: "宠物：咪咪（猫）"},
	}}
	if got := reply(t, o, h).Text; !strings.Contains(got, "咪咪") {
		t.Errorf("from a recalled memory: %q", got)
	}
}

// TestOfflineNamesANewcomerOnce: a hello that tells the user's name is
// answered with the name once, in the acknowledgement, at any hour and in
// every language ("Hi! Nice to meet you, Ann.", not "Hi Ann! Nice to meet
// you, Ann.").
func TestOfflineNamesANewcomerOnce(t *testing.T) {
	o := NewOffline()
	tests := []struct{ lang, user, text string }{
		{"en", "Ann", "hi, I am Ann"},
		{"en", "Ann", "hello! my name is Ann"},
		{"zh", "小明", "你好，我叫小明"},
		{"ja", "さくら", "こんにちは、私の名前はさくらです"},
	}
	for _, tt := range tests {
		for hour := 0; hour < 24; hour += 3 {
			for turn := 1; turn <= 4; turn++ {
				now := time.Date(2026, 11, 24, hour, 30, 0, 0, time.UTC)
				resp := reply(t, o, bot.Hints{Language: tt.lang, User: tt.user, Text: tt.text, Turn: turn, Now: now})
				if n := strings.Count(resp.Text, tt.user); n != 1 {
					t.Errorf("%s %q at %02d:30, turn %d: %q names %s %d times, want once", tt.lang, tt.text, hour, turn, resp.Text, tt.user, n)
				}
			}
		}
	}
}

// TestOfflineAdviceQuestionsAreHelped: "what do you think I should
// bring?" matches seed 000's validation-seeking words ("do you think"),
// but it asks what to do: the reply thinks it through and turns the
// question back, and never reassures about something done ("I don't think
// that was wrong of you"). A plea for reassurance still gets reassurance.
func TestOfflineAdviceQuestionsAreHelped(t *testing.T) {
	o := NewOffline()
	k := o.loaded()
	reassure := map[string][]string{}
	for _, lang := range []string{"en", "zh", "ja"} {
		reassure[lang] = k.book["emo.validation"][lang]
	}
	tests := []struct {
		lang, text, felt string
		wantHelp         bool
	}{
		{"en", "what do you think I should bring on my first day?", "validation_seeking", true},
		{"en", "do you think I should call her?", "validation_seeking", true},
		{"zh", "你觉得我第一天上班应该带什么？", "validation_seeking", true},
		{"ja", "初日に何を持っていけばいいと思う？", "validation_seeking", true},
		{"en", "am I wrong to feel this way?", "validation_seeking", false},
	}
	for _, tt := range tests {
		for turn := 1; turn <= 6; turn++ {
			got := reply(t, o, bot.Hints{Language: tt.lang, Text: tt.text, Felt: tt.felt, Turn: turn}).Text
			said := slices.ContainsFunc(reassure[tt.lang], func(r string) bool { return strings.Contains(got, r) })
			bare := strings.TrimRightFunc(got, func(r rune) bool { return unicode.IsSpace(r) || isEmoji(r) })
			if tt.wantHelp && (said || !endsAsking(bare)) {
				t.Errorf("%s %q turn %d: %q, want help thinking it through, ending in a question", tt.lang, tt.text, turn, got)
			}
			if !tt.wantHelp && !said {
				t.Errorf("%s %q turn %d: %q, want reassurance", tt.lang, tt.text, turn, got)
			}
		}
	}
}

// TestQuoteOfAnswersAndCutsAtAWord: a long earlier message is quoted from
// the sentence that answers, as many whole sentences as fit, and a
// sentence too long is cut at a word, never mid-word ("Bisc…").
func TestQuoteOfAnswersAndCutsAtAWord(t *testing.T) {
	has := func(w string) func(string) bool { return func(s string) bool { return strings.Contains(s, w) } }
	for _, tt := range []struct{ text, word, want string }{
		{"I just adopted a puppy.", "puppy", "I just adopted a puppy."},
		{"Work has been a lot lately, meetings all day and no lunch. I'm flying to Tokyo next month, finally.", "Tokyo", "I'm flying to Tokyo next month, finally."},
		{"I just adopted a puppy, a golden retriever and the sweetest boy. His name is Biscuit.", "puppy", "I just adopted a puppy, a golden retriever and the sweetest…"},
		{"I have a job interview at Stripe next Tuesday and I'm so nervous about it all.", "Stripe", "I have a job interview at Stripe next Tuesday and I'm so…"},
		{"我刚领养了一只小狗，是金毛。它叫豆豆，每天都要出去散步，回来就睡觉，真的特别特别可爱，我超级喜欢它，家里人也都很喜欢它，每天都抢着陪它玩。", "豆豆", "它叫豆豆，每天都要出去散步，回来就睡觉，真的特别特别可爱，我超级喜欢它，家里人也都很喜欢它，每天都抢着陪它玩。"},
	} {
		got := quoteOf(tt.text, has(tt.word))
		if got != tt.want {
			t.Errorf("quoteOf(%q) = %q, want %q", tt.text, got, tt.want)
		}
		if n := utf8.RuneCountInString(strings.TrimSuffix(got, "…")); n > maxQuoteRunes {
			t.Errorf("quoteOf(%q) = %q: %d runes", tt.text, got, n)
		}
	}
}

// A crisis turn's reply adds what the floor's category asks for: for a
// means or a plan, to put the means out of reach; for self-harm, care of
// the wound; never cut for a short max_length, never a question. A talk
// that already had a crisis reply gets another wording.
func TestOfflineCrisisKind(t *testing.T) {
	o := NewOffline()
	for _, c := range []struct {
		lang, kind, want string
	}{
		{"en", "plan", "out of reach"},
		{"en", "preparation", "out of reach"},
		{"en", "self_harm", "look after the wound"},
		{"zh", "method", "拿不到的地方"},
		{"zh", "self_harm", "处理好伤口"},
		{"ja", "intent", "手の届かない場所"},
		{"ja", "self_harm", "手当て"},
	} {
		h := bot.Hints{Language: c.lang, Crisis: true, CrisisKind: c.kind, Watch: true, MaxLength: 200, Text: "x"}
		got := reply(t, o, h).Text
		if !strings.Contains(got, c.want) || strings.ContainsAny(got, "?？") || utf8.RuneCountInString(got) > crisisMinLength {
			t.Errorf("%s %s: %q, want %q whole, no question", c.lang, c.kind, got, c.want)
		}
		h.CrisisKind = "wish_dead"
		if plain := reply(t, o, h).Text; strings.Contains(plain, c.want) {
			t.Errorf("%s wish_dead: %q has the %s line", c.lang, plain, c.kind)
		}
		h.CrisisKind = c.kind
		h.Recent = []bot.ChatMessage{{Role: "user", Content: "y"}, {Role: "assistant", Content: got}}
		if again := reply(t, o, h).Text; again == got || !strings.Contains(again, c.want) {
			t.Errorf("%s %s again: %q, want another wording with %q", c.lang, c.kind, again, c.want)
		}
	}
}

// remembered is the trailer's "remember" list of resp, with its JSON.
func remembered(t *testing.T, resp bot.Response) ([]rememberItem, []byte) {
	t.Helper()
	v := trailerShape(t, resp.Trailer)
	var got []rememberItem
	b, _ := json.Marshal(v["remember"])
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	return got, b
}

// TestOfflineAttemptIsAnEmergency: an attempt made or under way
// (heart.CrisisAttempt; round9.md finding 1, where "took the whole bottle
// of my moms sleeping pills lol" was met with "What a nice little
// moment.") is answered as an emergency in every language: the number to
// call first, a person nearby, what to tell the responders and that she
// stays; no question, no emoji, never the calm paragraph of a wish.
// Told again in the same talk, it is worded anew and still an emergency.
func TestOfflineAttemptIsAnEmergency(t *testing.T) {
	o := NewOffline()
	for _, c := range []struct {
		lang   string
		first  []string // the opening names one of these
		stays  string
		nearby []string
	}{
		{"en", []string{"911"}, "right here", []string{"near", "nearest"}},
		{"zh", []string{"120"}, "陪着你", []string{"身边", "最近的人"}},
		{"ja", []string{"119"}, "ここにいる", []string{"近く", "近くにいる人"}},
	} {
		h := bot.Hints{Language: c.lang, Crisis: true, CrisisKind: string(heart.CrisisAttempt), Watch: true, MaxLength: 120, EmojiAllowed: true, Text: "took the whole bottle"}
		var prev string
		for i := range 2 {
			got := reply(t, o, h).Text
			first := sentences(got)[0]
			if !slices.ContainsFunc(c.first, func(w string) bool { return strings.Contains(first, w) }) ||
				!slices.ContainsFunc(c.nearby, func(w string) bool { return strings.Contains(got, w) }) ||
				strings.ContainsAny(got, "?？") || strings.ContainsFunc(got, isEmoji) || utf8.RuneCountInString(got) > crisisMinLength {
				t.Errorf("%s, reply %d: %q; want the emergency number first, a person nearby, no question or emoji", c.lang, i+1, got)
			}
			if i == 1 && (got == prev || !strings.Contains(got, c.stays)) && !strings.Contains(prev, c.stays) {
				t.Errorf("%s again: %q after %q; want another wording, and her staying said", c.lang, got, prev)
			}
			prev = got
			h.Recent = append(h.Recent, bot.ChatMessage{Role: "user", Content: "y"}, bot.ChatMessage{Role: "assistant", Content: got})
		}
		h.CrisisKind, h.Recent = string(heart.CrisisWishDead), nil
		if calm := reply(t, o, h).Text; slices.ContainsFunc(c.first, func(w string) bool { return strings.Contains(calm, w) }) {
			t.Errorf("%s wish_dead: %q carries the emergency number", c.lang, calm)
		}
	}
}

// TestOfflineRiskIsMetWithCare: round 9 (round9.md finding 2) found the
// offline brain cheering or agreeing where the floor read nothing: "笑" in
// 樹海でも行こうかな笑 was a small joy ("素敵だね！"), 笑えない in "いや笑えないわ
// 本気で考えてる" one too ("それ、いいなあ。"), "I'm with you." after "no sense
// keeping this old engine running", "嗯，我陪着你。" after 我已经决定了, and
// 幸福 in "the baby would be happier with another mum" a happy feeling.
// With a warning sign in the message or its talk (Hints.Risk) every one is
// met with care (phrases safety.risk, or safety.talk.other when the
// message says nothing a crisis talk answers in its own way), no cheer,
// no agreement, no emoji;
// and 笑えない is no laugh even without one.
func TestOfflineRiskIsMetWithCare(t *testing.T) {
	o := NewOffline()
	k := o.loaded()
	cheer := []string{"素敵だね", "いいなあ", "I'm with you", "我陪着你", "开心", "lovely", "love that", "nice little moment", "うれしい", "幸せ"}
	for _, c := range []struct{ lang, text, felt string }{
		{"ja", "樹海でも行こうかな笑", ""},
		{"ja", "いや笑えないわ 本気で考えてる", ""},
		{"en", "stopped taking them a fortnight ago. no sense keeping this old engine running", ""},
		{"zh", "我已经决定了", ""},
		{"zh", "有时候觉得宝宝跟着别的妈妈会更幸福", "happy"},
	} {
		h := bot.Hints{Language: c.lang, Text: c.text, Felt: c.felt, Emotion: c.felt, Risk: true, EmojiAllowed: true, MaxLength: 200, Turn: 4,
			Recent: []bot.ChatMessage{{Role: "user", Content: "…"}, {Role: "assistant", Content: "…"}}}
		got := reply(t, o, h).Text
		care := slices.Concat(k.book["safety.risk"][c.lang], k.book["safety.talk.other"][c.lang])
		if !slices.Contains(care, got) || slices.ContainsFunc(cheer, func(w string) bool { return strings.Contains(got, w) }) || strings.ContainsFunc(got, isEmoji) {
			t.Errorf("%s %q with a warning sign: %q, want care (safety.talk.other)", c.lang, c.text, got)
		}
	}
	h := bot.Hints{Language: "ja", Text: "いや笑えないわ 本気で考えてる", EmojiAllowed: true, MaxLength: 200, Turn: 5}
	if got := reply(t, o, h).Text; slices.ContainsFunc(k.book["sit.smalljoy"]["ja"], func(v string) bool { return strings.Contains(got, v) }) {
		t.Errorf("笑えない read as a laugh: %q", got)
	}
}
