package heart

import (
	"cmp"
	"math"
	"slices"
	"time"
	"unicode"
	"unicode/utf8"
)

// Recall ranking (DESIGN §12: relevance x recency x salience). Retrieval
// methods (the full-text index today, embeddings later) each return a
// ranked list of candidates; RankRecall fuses the lists by reciprocal rank,
// weighs each candidate by how recent and how important it is, drops what
// the prompt already holds and near-duplicates, and keeps what fits a token
// budget. Seed 003 §8.2 sets the spirit: 记住 ≠ 时刻提起; 保留记忆 =
// 在需要时能调用 — relevance decides what may come back, and age only ever
// lowers a memory's weight, never erases it.

// RecallKind tells an episode from a memory slot.
type RecallKind string

// Recall kinds; the values are store.RecallEpisode and store.RecallMemory.
const (
	RecallEpisode RecallKind = "episode"
	RecallMemory  RecallKind = "memory"
)

// RecallKey names one recallable thing: an episode by id, a memory by slot.
type RecallKey struct {
	Kind RecallKind
	ID   int64
}

// RecallCandidate is one thing a retrieval method found for the current
// message. Text and Reply stay apart: Text is what the user said (a
// memory's content), Reply what the bot answered, so a recollection never
// credits the bot's words to the user.
type RecallCandidate struct {
	Key        RecallKey
	At         time.Time // when it was said; a memory's last update
	Text       string
	Reply      string
	Salience   float64 // seed 002 trailer salience, 0..1
	HasValues  bool    // false: the trailer was lost, Salience means nothing
	Disclosure Disclosure
	Retention  Retention // memories only
	// Match is the retrieval method's relevance, higher is better (BM25
	// for the full-text index, cosine for vectors). Only its order within
	// one list and its ratio to the list's best are used.
	Match float64
}

// Recollection is a chosen candidate and why: Score = Relevance × Recency
// × Importance, each factor in (0, 1].
type Recollection struct {
	RecallCandidate
	Score      float64
	Relevance  float64
	Recency    float64
	Importance float64
}

// RecallParams is what ranking needs besides the candidates.
type RecallParams struct {
	Now time.Time
	// Exclude lists what the prompt already holds: the episodes of the
	// recent history window and the memory slots it shows. Recall must not
	// crowd out or repeat the last few turns.
	Exclude []RecallKey
	// Said is the message recall answers: what repeats it (a
	// near-duplicate, RecallDuplicateJaccard) tells the model nothing it
	// is not reading already, so it is not recalled.
	Said string
	// BudgetTokens bounds the recollections' share of the prompt (by
	// EstimateTokens of Text and Reply plus RecallItemOverheadTokens each).
	BudgetTokens int
	// MaxItems bounds their number; 0 means RecallMaxItems.
	MaxItems int
}

// Constants of recall ranking.
const (
	// RecallRRFK is reciprocal rank fusion's k: a list contributes
	// 1/(k + rank). Cormack, Clarke and Büttcher (SIGIR 2009) found k = 60
	// robust across collections; it keeps one list's top ranks from
	// drowning a candidate that both lists agree on.
	RecallRRFK = 60
	// RecallMatchFloor drops, within one list, candidates whose Match is
	// below this share of the list's best. hearth's choice: when one
	// message matches a rare word ("Biscuit"), documents that share only a
	// common word ("night") are noise that recency must not promote; when
	// nothing matches strongly, the weak matches all stay.
	RecallMatchFloor = 0.4
	// RecallRecencyPerHour is Generative Agents' recency decay (Park et
	// al. 2023: 0.995 per hour): what was said in the last days stands out
	// (a day: 0.89, a week: 0.43).
	RecallRecencyPerHour = 0.995
	// RecallRecencyFloor is the least recency weight, reached after about
	// three weeks. hearth's choice, after seed 003 §8.2 (保留记忆 =
	// 在需要时能调用): a relationship's memory spans months, so age at most
	// halves a recollection's weight. Generative Agents' agents lived two
	// days; seed 002's τ (120 s to 6 h) is the lingering of a feeling, far
	// too short for remembering facts.
	RecallRecencyFloor = 0.5
	// RecallImportanceFloor is the importance weight of the least
	// important candidate (salience 0). hearth's choice: importance orders
	// equally relevant recollections; it never hides a relevant one.
	RecallImportanceFloor = 0.5
	// RecallDefaultSalience stands in for an episode whose trailer was
	// lost (seed 002 fallback). hearth's choice: ordinary small talk.
	RecallDefaultSalience = 0.3
	// RecallDeepImportance and RecallLightImportance are the least
	// importance of an episode with a deep or light disclosure: seed 003
	// §8.1 keeps deep self-disclosure (失恋, 家庭矛盾, 心理创伤) forever.
	RecallDeepImportance  = 0.9
	RecallLightImportance = 0.5
	// Importance of memories by seed 003 §8.1 retention class. A memory is
	// what the bot chose to keep: permanent ones (deep disclosure, core
	// preferences, dates, "remember this") weigh most; conditional ones
	// like a light disclosure; ephemeral ones a little more than talk.
	RecallPermanentImportance   = 1.0
	RecallConditionalImportance = 0.6
	RecallEphemeralImportance   = 0.4
	// RecallDuplicateJaccard is the word/bigram overlap (Jaccard) above
	// which two candidates say the same thing; the lower-scored one goes
	// (seed 003 §8.1: 重复信息, the same thing mentioned many times).
	// hearth's choice: 0.6 joins "我上个月在杭州被公司裁员了" and
	// "我上个月被公司裁员了" and keeps "I feel sad today" apart from
	// "I feel happy today".
	RecallDuplicateJaccard = 0.6
	// RecallItemOverheadTokens is the cost of presenting one recollection
	// beyond its text (a dated lead such as "about three weeks ago they
	// said:"). hearth's choice, by EstimateTokens of such leads in en/zh/ja.
	RecallItemOverheadTokens = 12
	// RecallMaxItems is how many recollections a turn gets at most.
	// hearth's choice: a few dated memories inform a reply; many crowd out
	// the conversation.
	RecallMaxItems = 5
)

// RankRecall chooses what to recall from the ranked lists of the
// retrieval methods (each list best first by Match; a candidate may appear
// in several, keyed by Key). It returns the chosen recollections best
// first. Pure: same input, same output.
func RankRecall(lists [][]RecallCandidate, p RecallParams) []Recollection {
	excluded := make(map[RecallKey]bool, len(p.Exclude))
	for _, k := range p.Exclude {
		excluded[k] = true
	}
	fused, order := FuseRecallLists(lists)
	scored := make([]Recollection, 0, len(order))
	for _, c := range order {
		if excluded[c.Key] {
			continue
		}
		r := Recollection{RecallCandidate: c, Relevance: fused[c.Key], Recency: RecallRecency(c.At, p.Now), Importance: RecallImportance(c)}
		r.Score = r.Relevance * r.Recency * r.Importance
		scored = append(scored, r)
	}
	slices.SortStableFunc(scored, func(a, b Recollection) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return b.At.Compare(a.At)
	})
	maxItems := p.MaxItems
	if maxItems <= 0 {
		maxItems = RecallMaxItems
	}
	var (
		out    []Recollection
		kept   []map[string]bool
		budget = p.BudgetTokens
	)
	if said := recallShingles(p.Said); len(said) > 0 {
		kept = append(kept, said)
	}
	for _, r := range scored {
		if len(out) == maxItems {
			break
		}
		sh := recallShingles(r.Text)
		if slices.ContainsFunc(kept, func(k map[string]bool) bool { return jaccard(sh, k) >= RecallDuplicateJaccard }) {
			continue
		}
		cost := EstimateTokens(r.Text) + EstimateTokens(r.Reply) + RecallItemOverheadTokens
		if cost > budget {
			continue // a shorter one further down may still fit
		}
		budget -= cost
		out = append(out, r)
		kept = append(kept, sh)
	}
	return out
}

// FuseRecallLists fuses ranked lists by reciprocal rank (RecallRRFK). In
// each list, candidates below RecallMatchFloor of its best Match are
// dropped first; the rest rank by Match, best first. A candidate's
// relevance is the sum of 1/(k + rank) over the lists it is in, divided by
// the sum a candidate first in every non-empty list would get, so it lies in
// (0, 1]. It returns the relevances and the distinct candidates in order of
// first appearance (the first list's data wins for a candidate in several).
func FuseRecallLists(lists [][]RecallCandidate) (map[RecallKey]float64, []RecallCandidate) {
	fused := make(map[RecallKey]float64)
	var order []RecallCandidate
	best := 0.0
	for _, list := range lists {
		ranked := floorMatches(list)
		if len(ranked) == 0 {
			continue
		}
		best += 1.0 / (RecallRRFK + 1)
		for i, c := range ranked {
			if _, seen := fused[c.Key]; !seen {
				order = append(order, c)
			}
			fused[c.Key] += 1.0 / float64(RecallRRFK+i+1)
		}
	}
	for k := range fused {
		fused[k] /= best
	}
	return fused, order
}

// floorMatches returns list's candidates with a finite Match of at least
// RecallMatchFloor of the best, best first, each key once.
func floorMatches(list []RecallCandidate) []RecallCandidate {
	top := math.Inf(-1)
	for _, c := range list {
		if !math.IsNaN(c.Match) && !math.IsInf(c.Match, 0) {
			top = max(top, c.Match)
		}
	}
	seen := make(map[RecallKey]bool, len(list))
	out := make([]RecallCandidate, 0, len(list))
	for _, c := range list {
		if seen[c.Key] || math.IsNaN(c.Match) || math.IsInf(c.Match, 0) || (top > 0 && c.Match < RecallMatchFloor*top) {
			continue
		}
		seen[c.Key] = true
		out = append(out, c)
	}
	slices.SortStableFunc(out, func(a, b RecallCandidate) int { return cmp.Compare(b.Match, a.Match) })
	return out
}

// RecallRecency is the recency weight of something said at `at`, seen at
// now: RecallRecencyFloor + (1 - floor) × 0.995^hours. The future (a clock
// skew) counts as now.
func RecallRecency(at, now time.Time) float64 {
	hours := max(now.Sub(at).Hours(), 0)
	return RecallRecencyFloor + (1-RecallRecencyFloor)*math.Pow(RecallRecencyPerHour, hours)
}

// RecallImportance is the importance weight of a candidate:
// RecallImportanceFloor + (1 - floor) × importance, where importance is
// the trailer's salience (RecallDefaultSalience without one), raised to
// the disclosure's least importance, or a memory's retention class.
func RecallImportance(c RecallCandidate) float64 {
	var imp float64
	if c.Key.Kind == RecallMemory {
		switch c.Retention {
		case RetentionPermanent:
			imp = RecallPermanentImportance
		case RetentionEphemeral:
			imp = RecallEphemeralImportance
		default:
			imp = RecallConditionalImportance
		}
	} else {
		imp = RecallDefaultSalience
		if c.HasValues && !math.IsNaN(c.Salience) {
			imp = min(max(c.Salience, 0), 1)
		}
		switch c.Disclosure {
		case DisclosureDeep:
			imp = max(imp, RecallDeepImportance)
		case DisclosureLight:
			imp = max(imp, RecallLightImportance)
		}
	}
	return RecallImportanceFloor + (1-RecallImportanceFloor)*imp
}

// recallShingles is what near-duplicate detection compares: the folded
// words of two or more characters and the bigrams of CJK runs (a lone CJK
// character counts as itself).
func recallShingles(text string) map[string]bool {
	s := Fold(text)
	out := make(map[string]bool)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if !isCJK(r) && !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			i += size
			continue
		}
		cjk := isCJK(r)
		var run []rune
		for i < len(s) {
			r, size := utf8.DecodeRuneInString(s[i:])
			if isCJK(r) != cjk || (!cjk && !unicode.IsLetter(r) && !unicode.IsDigit(r)) {
				break
			}
			run = append(run, r)
			i += size
		}
		switch {
		case !cjk && len(run) >= 2:
			out[string(run)] = true
		case cjk && len(run) == 1:
			out[string(run)] = true
		case cjk:
			for k := 0; k+1 < len(run); k++ {
				out[string(run[k:k+2])] = true
			}
		}
	}
	return out
}

// jaccard is |a ∩ b| / |a ∪ b|; two empty sets are not alike.
func jaccard(a, b map[string]bool) float64 {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	both := 0
	for k := range a {
		if b[k] {
			both++
		}
	}
	return float64(both) / float64(len(a)+len(b)-both)
}
