//go:build darwin || freebsd || netbsd || openbsd || dragonfly

package main

import "golang.org/x/sys/unix"

// ioctlReadTermios is the request that reads a terminal's settings; it
// fails with ENOTTY on anything that is not a terminal (/dev/null, a pipe).
const ioctlReadTermios = unix.TIOCGETA
