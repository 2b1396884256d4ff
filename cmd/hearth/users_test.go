package main

import "testing"

func TestEditDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"sam", "sam", 0}, {"sam", "sma", 1}, {"sam", "sa", 1}, {"sam", "samuel", 3},
		{"", "ann", 3}, {"小明", "小朋", 1}, {"kai", "kia", 1}, {"abc", "ca", 3},
	} {
		if got := editDistance(c.a, c.b); got != c.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}
