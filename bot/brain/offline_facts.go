package brain

import (
	"regexp"
	"strings"
	"unicode/utf8"
)

// topic is a theme the offline brain recognises in any of the three
// languages and names in the persona's language.
type topic struct {
	tag      string            // topic_tags value in the trailer
	keywords []string          // lower-case, any language
	name     map[string]string // display word per language
}

// maxTopicTags bounds the trailer's topic_tags (our choice: a few keywords).
const maxTopicTags = 3

// newTopics is the built-in topic lexicon, in a fixed order so matching is
// deterministic.
func newTopics() []topic {
	return []topic{
		{"work", []string{"work", "job", "boss", "office", "meeting", "工作", "上班", "老板", "加班", "仕事", "会社", "上司", "残業"}, map[string]string{langEN: "work", langZH: "工作", langJA: "仕事"}},
		{"study", []string{"school", "exam", "study", "homework", "class", "学习", "考试", "作业", "学校", "勉強", "試験", "宿題"}, map[string]string{langEN: "school", langZH: "学习", langJA: "勉強"}},
		{"sleep", []string{"sleep", "tired", "insomnia", "睡", "失眠", "困", "眠", "寝"}, map[string]string{langEN: "sleep", langZH: "睡眠", langJA: "睡眠"}},
		{"food", []string{"food", "eat", "dinner", "lunch", "cook", "吃", "饭", "做菜", "食べ", "ご飯", "料理"}, map[string]string{langEN: "food", langZH: "吃饭", langJA: "ご飯"}},
		{"weather", []string{"weather", "rain", "snow", "sunny", "天气", "下雨", "下雪", "天気", "雨", "雪"}, map[string]string{langEN: "the weather", langZH: "天气", langJA: "天気"}},
		{"music", []string{"music", "song", "concert", "音乐", "歌", "演唱会", "音楽", "ライブ"}, map[string]string{langEN: "music", langZH: "音乐", langJA: "音楽"}},
		{"games", []string{"game", "gaming", "游戏", "ゲーム"}, map[string]string{langEN: "games", langZH: "游戏", langJA: "ゲーム"}},
		{"movies", []string{"movie", "film", "series", "电影", "剧", "映画", "ドラマ"}, map[string]string{langEN: "movies", langZH: "电影", langJA: "映画"}},
		{"family", []string{"family", "mom", "dad", "mother", "father", "sister", "brother", "家人", "妈妈", "爸爸", "家里", "家族", "母", "父"}, map[string]string{langEN: "family", langZH: "家人", langJA: "家族"}},
		{"friends", []string{"friend", "朋友", "友達", "友だち"}, map[string]string{langEN: "friends", langZH: "朋友", langJA: "友だち"}},
		{"travel", []string{"travel", "trip", "vacation", "旅行", "旅游", "出差", "旅"}, map[string]string{langEN: "travel", langZH: "旅行", langJA: "旅行"}},
		{"pets", []string{"cat", "dog", "pet", "猫", "狗", "宠物", "犬", "ペット"}, map[string]string{langEN: "pets", langZH: "宠物", langJA: "ペット"}},
		{"health", []string{"sick", "doctor", "hospital", "headache", "生病", "医院", "头疼", "病院", "風邪"}, map[string]string{langEN: "health", langZH: "身体", langJA: "体調"}},
	}
}

// findTopics returns the topics mentioned in text, in lexicon order, at most
// maxTopicTags.
func findTopics(topics []topic, text string) []topic {
	lower := strings.ToLower(text)
	var out []topic
	for _, t := range topics {
		for _, k := range t.keywords {
			if containsKeyword(lower, k) {
				out = append(out, t)
				break
			}
		}
		if len(out) == maxTopicTags {
			break
		}
	}
	return out
}

// containsKeyword matches ASCII keywords at a word start ("cat" not in
// "education") and other keywords anywhere (CJK has no spaces).
func containsKeyword(lower, k string) bool {
	if k == "" {
		return false
	}
	if k[0] >= utf8.RuneSelf {
		return strings.Contains(lower, k)
	}
	for i := 0; ; {
		j := strings.Index(lower[i:], k)
		if j < 0 {
			return false
		}
		j += i
		if j == 0 || !isASCIILetter(lower[j-1]) {
			return true
		}
		i = j + 1
	}
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// Memory slots for facts the offline brain recognises (DESIGN §5: 0-9 are
// facts).
const (
	slotName     = 0
	slotHome     = 1
	slotBirthday = 2
)

// factPattern recognises a clearly stated fact and the slot it belongs in.
type factPattern struct {
	slot  int
	label map[string]string // memory prefix per language
	re    *regexp.Regexp    // first group is the value
}

// maxFactRunes bounds a remembered value so a run-on sentence is not stored
// as a name (our choice).
const maxFactRunes = 24

// newFactPatterns compiles the fact patterns once per Offline.
func newFactPatterns() []factPattern {
	name := map[string]string{langEN: "Name: ", langZH: "名字：", langJA: "名前："}
	home := map[string]string{langEN: "Lives in: ", langZH: "住在：", langJA: "住まい："}
	bday := map[string]string{langEN: "Birthday: ", langZH: "生日：", langJA: "誕生日："}
	return []factPattern{
		{slotName, name, regexp.MustCompile(`(?i)\bmy name is ([\p{L}][\p{L}'-]*)`)},
		{slotName, name, regexp.MustCompile(`(?i)\bcall me ([\p{L}][\p{L}'-]*)`)},
		{slotName, name, regexp.MustCompile(`我(?:叫|的名字是|的名字叫)\s*(\p{Han}{1,4}|[A-Za-z][A-Za-z'-]*)`)},
		{slotName, name, regexp.MustCompile(`(?:私|僕|俺|わたし|ぼく)の名前は\s*([^\s。、！？!?,.]{1,12}?)(?:です|だよ|だ|と申します|[。、！？!?,.]|$)`)},
		{slotHome, home, regexp.MustCompile(`\b[Ii] (?:live|LIVE) in ([\p{Lu}][\p{L}-]*(?: [\p{Lu}][\p{L}-]*){0,2})`)},
		{slotHome, home, regexp.MustCompile(`我住在\s*(\p{Han}{1,6}?)(?:[，。！？,.!?]|了|呢|$)`)},
		{slotHome, home, regexp.MustCompile(`(\p{Han}{1,6}|[\p{Katakana}ー]{1,10})に住んでい`)},
		{slotBirthday, bday, regexp.MustCompile(`(?i)\bmy birthday is ([^.,!?;\n]{1,20})`)},
		{slotBirthday, bday, regexp.MustCompile(`我的生日是\s*([^，。！？,.!?\n]{1,12})`)},
		{slotBirthday, bday, regexp.MustCompile(`誕生日は\s*([^、。！？,.!?\n]{1,12}?)(?:です|だよ|だ|[。、！？!?,.]|$)`)},
	}
}

// rememberItem is one entry of the trailer's "remember" list (DESIGN §3 step 8).
type rememberItem struct {
	Slot    int    `json:"slot"`
	Content string `json:"content"`
}

// findFacts returns the facts clearly stated in text, one per slot, labelled
// in the persona's language.
func findFacts(patterns []factPattern, text, lang string) []rememberItem {
	out := []rememberItem{}
	seen := map[int]bool{}
	for _, p := range patterns {
		if seen[p.slot] {
			continue
		}
		m := p.re.FindStringSubmatch(text)
		if m == nil {
			continue
		}
		v := strings.TrimSpace(m[1])
		if v == "" || utf8.RuneCountInString(v) > maxFactRunes {
			continue
		}
		seen[p.slot] = true
		out = append(out, rememberItem{Slot: p.slot, Content: p.label[lang] + v})
	}
	return out
}
