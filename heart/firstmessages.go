package heart

import (
	_ "embed"
	"fmt"
	"strings"
	"sync"
)

// FirstMessages is what a message says about the companion writing first.
type FirstMessages int

const (
	// FirstMessagesUnsaid: the message says nothing about it.
	FirstMessagesUnsaid FirstMessages = iota
	// FirstMessagesOff: "please don't message me first", what /quiet says.
	FirstMessagesOff
	// FirstMessagesOn: "you can message me first again", what /quiet off says.
	FirstMessagesOn
)

// firstMessageData lists the phrases (data/first_messages.txt says why).
//
//go:embed data/first_messages.txt
var firstMessageData string

// firstMessageTable is the phrase set and what each phrase means,
// compiled once; a malformed file is a build defect (the test reads it),
// so it panics.
type firstMessageTable struct {
	set   *PhraseSet
	means []FirstMessages
}

var firstMessages = sync.OnceValue(func() firstMessageTable {
	t, err := parseFirstMessages(firstMessageData)
	if err != nil {
		panic(fmt.Sprintf("heart: data/first_messages.txt: %v", err))
	}
	return t
})

func parseFirstMessages(data string) (firstMessageTable, error) {
	var phrases []string
	var means []FirstMessages
	seen := map[string]bool{}
	for n, line := range strings.Split(data, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		kind, list, ok := strings.Cut(line, ":")
		var m FirstMessages
		switch {
		case ok && kind == "off":
			m = FirstMessagesOff
		case ok && kind == "on":
			m = FirstMessagesOn
		default:
			return firstMessageTable{}, fmt.Errorf("line %d: want off: or on:", n+1)
		}
		for _, p := range strings.Split(list, "|") {
			p = strings.TrimSpace(p)
			if p == "" {
				return firstMessageTable{}, fmt.Errorf("line %d: empty phrase", n+1)
			}
			if seen[Fold(p)] {
				return firstMessageTable{}, fmt.Errorf("line %d: %q listed twice", n+1, p)
			}
			seen[Fold(p)] = true
			phrases, means = append(phrases, p), append(means, m)
		}
	}
	return firstMessageTable{set: NewPhraseSet(phrases), means: means}, nil
}

// ReadFirstMessages reads whether text asks the companion not to write
// first, or lets her again; the last such request in the text wins, and a
// negated one counts for nothing.
func ReadFirstMessages(text string) FirstMessages {
	t := firstMessages()
	got := FirstMessagesUnsaid
	for _, h := range t.set.Find(text) {
		if !h.Negated {
			got = t.means[h.Index]
		}
	}
	return got
}
