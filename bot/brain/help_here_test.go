package brain

import (
	"strings"
	"testing"
)

// TestSomeoneWhoseMotherCameIsNotThankedForCalling: help there is a call,
// a crew or a person who came; after 母が来た or "my roommate is here" the
// relief (safety.safe) once thanked them for calling (電話してくれてありがとう).
// No variant in any language speaks of a call.
func TestSomeoneWhoseMotherCameIsNotThankedForCalling(t *testing.T) {
	k := NewOffline().loaded()
	call := map[string][]string{"en": {"calling", "call"}, "zh": {"打了电话", "打电话"}, "ja": {"電話"}}
	for lang, words := range call {
		for _, v := range k.book["safety.safe"][lang] {
			for _, w := range words {
				if strings.Contains(v, w) {
					t.Errorf("%s safety.safe %q speaks of a call (%q)", lang, v, w)
				}
			}
		}
	}
}
