//go:build !race

package main

// raceEnabled: without -race (benchmarks) the binary is the release build.
const raceEnabled = false
