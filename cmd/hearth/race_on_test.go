//go:build race

package main

// raceEnabled: the tests run under -race, so the binary they drive is built
// with -race too. It reuses the packages the test build already compiled
// (no second compile of every dependency) and race-checks the daemon.
const raceEnabled = true
