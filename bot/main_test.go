package bot_test

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package if any goroutine a Handler started (chat
// workers, typing indicators, reflections) outlives the tests.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
