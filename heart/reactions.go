package heart

import (
	_ "embed"
	"fmt"
	"strings"
	"sync"
)

// reactionData is the table of reactions that count as seed 003 §2.3's
// like (data/reactions.txt says which and why).
//
//go:embed data/reactions.txt
var reactionData string

// reactionTable is reactionData compiled once: emoji → is a like. A
// malformed file is a build defect (TestReactionTable), so it panics.
var reactionTable = sync.OnceValue(func() map[string]bool {
	t, err := parseReactions(reactionData)
	if err != nil {
		panic(fmt.Sprintf("heart: data/reactions.txt: %v", err))
	}
	return t
})

func parseReactions(data string) (map[string]bool, error) {
	t := map[string]bool{}
	for n, line := range strings.Split(data, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		kind, list, ok := strings.Cut(line, ":")
		if !ok || (kind != "like" && kind != "not") {
			return nil, fmt.Errorf("line %d: want like: or not:", n+1)
		}
		for _, e := range strings.Fields(list) {
			e = normalReaction(e)
			if _, dup := t[e]; dup {
				return nil, fmt.Errorf("line %d: %q listed twice", n+1, e)
			}
			t[e] = kind == "like"
		}
	}
	return t, nil
}

// normalReaction drops what does not change an emoji's meaning: the
// variation selector (U+FE0F, "❤️" is "❤") and skin-tone modifiers.
func normalReaction(e string) string {
	return strings.Map(func(r rune) rune {
		if r == '\uFE0F' || (r >= 0x1F3FB && r <= 0x1F3FF) {
			return -1
		}
		return r
	}, strings.TrimSpace(e))
}

// ReactionIsLike reports whether a reaction is a like (seed 003 §2.3
// 点赞): approval only. 👎, 😢, 🤔, custom emoji and anything unknown are
// not, so a reaction never earns affinity it does not express.
func ReactionIsLike(emoji string) bool {
	return reactionTable()[normalReaction(emoji)]
}
