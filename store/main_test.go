package store

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package if a DB's checkpointer (or any pool goroutine)
// outlives Close.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
