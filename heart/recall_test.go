package heart

import (
	"math"
	"strings"
	"testing"
	"time"
)

var recallNow = time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)

func ep(id int64, ago time.Duration, match float64, text string) RecallCandidate {
	return RecallCandidate{Key: RecallKey{RecallEpisode, id}, At: recallNow.Add(-ago), Text: text,
		HasValues: true, Salience: 0.3, Disclosure: DisclosureNone, Match: match}
}

func keys(rs []Recollection) []RecallKey {
	out := make([]RecallKey, len(rs))
	for i, r := range rs {
		out[i] = r.Key
	}
	return out
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestFuseRecallListsByReciprocalRank(t *testing.T) {
	a, b, c := ep(1, 0, 9, "a"), ep(2, 0, 8, "b"), ep(3, 0, 7, "c")
	k := float64(RecallRRFK)
	t.Run("one list: the first ranks 1, the next 1/(k+2) of (k+1)", func(t *testing.T) {
		fused, order := FuseRecallLists([][]RecallCandidate{{b, a, c}}) // unsorted input is sorted by Match
		if !near(fused[a.Key], 1) || !near(fused[b.Key], (k+1)/(k+2)) || !near(fused[c.Key], (k+1)/(k+3)) {
			t.Fatalf("fused = %v", fused)
		}
		if len(order) != 3 {
			t.Fatalf("order = %v", order)
		}
	})
	t.Run("a candidate both lists agree on beats one first in a single list", func(t *testing.T) {
		vec := []RecallCandidate{{Key: c.Key, Match: 0.9}, {Key: b.Key, Match: 0.8}}
		fused, _ := FuseRecallLists([][]RecallCandidate{{a, b, c}, vec})
		if !(fused[b.Key] > fused[a.Key]) || !(fused[c.Key] > fused[a.Key]) {
			t.Fatalf("fused = %v", fused)
		}
		if fused[b.Key] > 1 || fused[c.Key] > 1 {
			t.Fatalf("relevance above 1: %v", fused)
		}
	})
	t.Run("first in every list is relevance 1", func(t *testing.T) {
		fused, _ := FuseRecallLists([][]RecallCandidate{{a, b}, {a, c}})
		if !near(fused[a.Key], 1) {
			t.Fatalf("fused = %v", fused)
		}
	})
	t.Run("an empty second list (no embeddings) changes nothing", func(t *testing.T) {
		one, _ := FuseRecallLists([][]RecallCandidate{{a, b, c}})
		two, _ := FuseRecallLists([][]RecallCandidate{{a, b, c}, nil})
		for key, v := range one {
			if !near(two[key], v) {
				t.Fatalf("%v: %v vs %v", key, two[key], v)
			}
		}
	})
	t.Run("weak matches give way when a strong one exists", func(t *testing.T) {
		weak := ep(4, 0, 9*RecallMatchFloor-0.01, "weak")
		fused, order := FuseRecallLists([][]RecallCandidate{{a, weak}})
		if _, ok := fused[weak.Key]; ok || len(order) != 1 {
			t.Fatalf("weak match kept: %v", fused)
		}
	})
	t.Run("NaN and infinite matches are ignored", func(t *testing.T) {
		bad := []RecallCandidate{ep(5, 0, math.NaN(), "nan"), ep(6, 0, math.Inf(1), "inf"), a}
		fused, _ := FuseRecallLists([][]RecallCandidate{bad})
		if len(fused) != 1 || !near(fused[a.Key], 1) {
			t.Fatalf("fused = %v", fused)
		}
	})
}

func TestRecallRecency(t *testing.T) {
	day := math.Pow(RecallRecencyPerHour, 24)
	for _, c := range []struct {
		name string
		ago  time.Duration
		want float64
	}{
		{"just now weighs fully", 0, 1},
		{"a day ago: Generative Agents' 0.995 per hour above the floor", 24 * time.Hour, RecallRecencyFloor + (1-RecallRecencyFloor)*day},
		{"a year ago keeps the floor: age never erases a memory", 365 * 24 * time.Hour, RecallRecencyFloor},
		{"the future (clock skew) counts as now", -time.Hour, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := RecallRecency(recallNow.Add(-c.ago), recallNow); math.Abs(got-c.want) > 1e-6 {
				t.Fatalf("RecallRecency = %v, want %v", got, c.want)
			}
		})
	}
}

func TestRecallImportance(t *testing.T) {
	talk := ep(1, 0, 1, "")
	noValues := talk
	noValues.HasValues, noValues.Salience = false, 0.95
	deep, light := talk, talk
	deep.Disclosure, light.Disclosure = DisclosureDeep, DisclosureLight
	salient := talk
	salient.Salience = 0.95
	mem := func(r Retention) RecallCandidate {
		return RecallCandidate{Key: RecallKey{RecallMemory, 3}, Retention: r}
	}
	imp := func(x float64) float64 { return RecallImportanceFloor + (1-RecallImportanceFloor)*x }
	for _, c := range []struct {
		name string
		c    RecallCandidate
		want float64
	}{
		{"small talk weighs by its trailer salience", talk, imp(0.3)},
		{"a lost trailer counts as ordinary talk", noValues, imp(RecallDefaultSalience)},
		{"a deep disclosure weighs at least RecallDeepImportance (seed 003 §8.1)", deep, imp(RecallDeepImportance)},
		{"a light disclosure weighs at least RecallLightImportance", light, imp(RecallLightImportance)},
		{"a salient episode keeps its higher salience", salient, imp(0.95)},
		{"a permanent memory weighs most", mem(RetentionPermanent), imp(RecallPermanentImportance)},
		{"a conditional memory weighs like a light disclosure", mem(RetentionConditional), imp(RecallConditionalImportance)},
		{"an ephemeral memory weighs little", mem(RetentionEphemeral), imp(RecallEphemeralImportance)},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := RecallImportance(c.c); !near(got, c.want) {
				t.Fatalf("RecallImportance = %v, want %v", got, c.want)
			}
		})
	}
}

func TestRankRecall(t *testing.T) {
	const day = 24 * time.Hour
	budget := 1000
	deep := ep(3, 30*day, 10, "my father passed away last spring")
	deep.Disclosure = DisclosureDeep
	permanent := RecallCandidate{Key: RecallKey{RecallMemory, 2}, At: recallNow.Add(-200 * day), Text: "cat: Biscuit, 12 years old",
		Retention: RetentionPermanent, Match: 10}
	long := ep(9, day, 10, strings.Repeat("a long story about the trip ", 40))
	for _, c := range []struct {
		name   string
		lists  [][]RecallCandidate
		params RecallParams
		want   []RecallKey
	}{
		{
			name: "a rare match a year old beats common words from yesterday",
			lists: [][]RecallCandidate{{
				ep(1, 365*day, 11.5, "my cat Biscuit turned twelve"),
				ep(2, day, 3.1, "I could not sleep last night"),
			}},
			want: []RecallKey{{RecallEpisode, 1}},
		},
		{
			name: "among equally relevant, the recent one comes first",
			lists: [][]RecallCandidate{{
				ep(1, 60*day, 5, "we went hiking in the alps"),
				ep(2, 2*day, 5, "hiking again next weekend"),
			}},
			want: []RecallKey{{RecallEpisode, 2}, {RecallEpisode, 1}},
		},
		{
			name: "a deep disclosure outranks small talk of the same age and relevance",
			lists: [][]RecallCandidate{{
				ep(4, 30*day, 10, "spring is my favourite season"),
				deep,
			}},
			want: []RecallKey{deep.Key, {RecallEpisode, 4}},
		},
		{
			name: "a permanent memory outranks the episode it came from",
			lists: [][]RecallCandidate{{
				ep(5, 200*day, 10, "my cat Biscuit is twelve now, can you believe it"),
				permanent,
			}},
			want: []RecallKey{permanent.Key, {RecallEpisode, 5}},
		},
		{
			name: "what the history window holds is not recalled again",
			lists: [][]RecallCandidate{{
				ep(6, time.Hour, 10, "Biscuit was sick all night"),
				ep(1, 365*day, 9, "my cat Biscuit turned twelve"),
			}},
			params: RecallParams{Exclude: []RecallKey{{RecallEpisode, 6}}},
			want:   []RecallKey{{RecallEpisode, 1}},
		},
		{
			name: "the same fact said many times is recalled once",
			lists: [][]RecallCandidate{{
				ep(7, 10*day, 10, "我上个月在杭州被公司裁员了"),
				ep(8, 9*day, 10, "我上个月被公司裁员了"),
				ep(10, 8*day, 10, "裁员以后我开始学画画"),
			}},
			want: []RecallKey{{RecallEpisode, 10}, {RecallEpisode, 8}},
		},
		{
			name: "different feelings in the same words are not duplicates",
			lists: [][]RecallCandidate{{
				ep(11, 3*day, 10, "I feel sad today"),
				ep(12, 2*day, 10, "I feel happy today"),
			}},
			want: []RecallKey{{RecallEpisode, 12}, {RecallEpisode, 11}},
		},
		{
			name: "a long recollection that does not fit gives way to a shorter one",
			lists: [][]RecallCandidate{{
				long,
				ep(13, 5*day, 9, "the trip to Kyoto was lovely"),
			}},
			params: RecallParams{BudgetTokens: EstimateTokens(long.Text) / 2},
			want:   []RecallKey{{RecallEpisode, 13}},
		},
		{
			name:   "no budget, no recollections",
			lists:  [][]RecallCandidate{{ep(1, day, 10, "Biscuit")}},
			params: RecallParams{BudgetTokens: -1},
			want:   nil,
		},
		{
			name: "at most MaxItems",
			lists: [][]RecallCandidate{{
				ep(1, 1*day, 10, "one apple"), ep(2, 2*day, 10, "two pears"), ep(3, 3*day, 10, "three plums"),
			}},
			params: RecallParams{MaxItems: 2},
			want:   []RecallKey{{RecallEpisode, 1}, {RecallEpisode, 2}},
		},
		{
			name:  "nothing found, nothing recalled",
			lists: [][]RecallCandidate{nil, nil},
			want:  nil,
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := c.params
			p.Now = recallNow
			if p.BudgetTokens == 0 {
				p.BudgetTokens = budget
			}
			got := RankRecall(c.lists, p)
			if len(got) != len(c.want) {
				t.Fatalf("got %v, want %v", keys(got), c.want)
			}
			for i := range got {
				if got[i].Key != c.want[i] {
					t.Fatalf("got %v, want %v", keys(got), c.want)
				}
				r := got[i]
				if !near(r.Score, r.Relevance*r.Recency*r.Importance) || r.Score <= 0 || r.Score > 1 {
					t.Fatalf("score parts of %v: %+v", r.Key, r)
				}
			}
		})
	}
}

// The budget is spent exactly as EstimateTokens counts it.
func TestRankRecallStaysWithinBudget(t *testing.T) {
	var list []RecallCandidate
	for i := range 40 {
		c := ep(int64(i+1), time.Duration(i)*time.Hour, float64(100-i), strings.Repeat("word", i%7+1)+" and a different tail "+string(rune('a'+i%26)))
		c.Reply = "a reply " + strings.Repeat("x", i)
		list = append(list, c)
	}
	for _, budget := range []int{0, 20, 50, 120, 400} {
		got := RankRecall([][]RecallCandidate{list}, RecallParams{Now: recallNow, BudgetTokens: budget, MaxItems: 40})
		spent := 0
		for _, r := range got {
			spent += EstimateTokens(r.Text) + EstimateTokens(r.Reply) + RecallItemOverheadTokens
		}
		if spent > budget {
			t.Errorf("budget %d: spent %d", budget, spent)
		}
		if budget >= 120 && len(got) == 0 {
			t.Errorf("budget %d: nothing recalled", budget)
		}
	}
}
