package heart

import "testing"

// TestReactionTable: seed 003 §2.3 "点赞" counts approval only; the table
// parses, and the variation selector and skin tones change nothing.
func TestReactionTable(t *testing.T) {
	if _, err := parseReactions(reactionData); err != nil {
		t.Fatal(err)
	}
	for _, e := range []string{"👍", "❤", "❤️", "👍🏽", "🔥", "🥰", "🎉", "😂", "paid"} {
		if !ReactionIsLike(e) {
			t.Errorf("%s §2.3: %q is a like", seed003, e)
		}
	}
	for _, e := range []string{"👎", "👎🏻", "😢", "🤬", "💩", "🤔", "😐", "custom:5368324170671202286", "party:123456", "", "like"} {
		if ReactionIsLike(e) {
			t.Errorf("%s §2.3: %q is no like", seed003, e)
		}
	}
	if _, err := parseReactions("like: 👍\nnot: 👍🏻\n"); err == nil {
		t.Error("a reaction listed both ways was accepted")
	}
}
