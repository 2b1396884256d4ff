package store

import (
	"bufio"
	"embed"
	"strings"
	"sync"
)

// Stop words of the recall query builder, one list per language. Only
// queries drop them: the index keeps every word, and BM25 already gives
// common ones little weight; dropping them keeps a query short and fast.
//
//go:embed data/recall_stopwords_*.txt
var stopwordFS embed.FS

// recallMaxTerms caps the terms of one query. hearth's choice: a long
// message would otherwise OR together dozens of n-grams, each a doclist to
// read; 32 keeps every word of an ordinary message (a sentence has far
// fewer content words) and bounds the slowest query.
const recallMaxTerms = 32

// stopwords is the union of the embedded lists, read once. It is never
// written after loading.
var stopwords = sync.OnceValue(func() map[string]bool {
	set := make(map[string]bool)
	files, err := stopwordFS.ReadDir("data")
	if err != nil {
		panic("store: embedded stop words: " + err.Error()) // a build defect, caught by every test
	}
	for _, f := range files {
		body, err := stopwordFS.ReadFile("data/" + f.Name())
		if err != nil {
			panic("store: embedded stop words: " + err.Error())
		}
		sc := bufio.NewScanner(strings.NewReader(string(body)))
		for sc.Scan() {
			line, _, _ := strings.Cut(sc.Text(), "#")
			if w := strings.TrimSpace(line); w != "" {
				set[w] = true
			}
		}
	}
	return set
})

// recallTerms is what a query searches for in text: content words and
// n-grams (textTerms) without stop words, at most recallMaxTerms.
func recallTerms(text string) []string {
	stop := stopwords()
	terms := textTerms(text, func(t string) bool { return stop[t] })
	return terms[:min(len(terms), recallMaxTerms)]
}

// recallTermMatch is the FTS5 MATCH expression for one term: a
// double-quoted string, a quote inside doubled. A string is always data to
// FTS5, so quotes, *, ^, :, NEAR, AND, OR, NOT, column names and brackets
// typed by a user can never become syntax.
func recallTermMatch(term string) string {
	return `"` + strings.ReplaceAll(term, `"`, `""`) + `"`
}
