package store

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package if a DB's checkpointer (or any pool goroutine)
// outlives Close, and removes the fixtures the recall benchmarks built.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(cleanupM{m})
}

// cleanupM runs the tests, then removes shared fixtures.
type cleanupM struct{ *testing.M }

func (c cleanupM) Run() int {
	code := c.M.Run()
	removeBenchFixtures()
	return code
}
