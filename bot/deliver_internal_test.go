package bot

import (
	"testing"
	"time"

	"hearth/store"
)

// TestStatusReadBeforeDelivery: a deliverer re-reads an entry's status
// unless it committed the entry itself less than RetryMinAge ago, the only
// case no retry pass can have listed and delivered it.
func TestStatusReadBeforeDelivery(t *testing.T) {
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		name string
		age  time.Duration
		from origin
		want bool
	}{
		{"own fresh entry", time.Second, committed, false},
		{"own entry just under the retry age", RetryMinAge - time.Millisecond, committed, false},
		{"own entry a slow turn committed late", RetryMinAge, committed, true},
		{"listed fresh entry", time.Second, listed, true},
		{"listed old entry", time.Hour, listed, true},
	} {
		o := store.Outbound{CreatedAt: now.Add(-c.age)}
		if got := mayBeDelivered(o, c.from, now); got != c.want {
			t.Errorf("%s: mayBeDelivered = %v, want %v", c.name, got, c.want)
		}
	}
}
