package brain

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package if any test leaves a goroutine behind: every
// stream, retry timer and HTTP connection of the brain must be released.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
