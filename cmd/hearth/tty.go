package main

import (
	"io"
	"os"

	"golang.org/x/sys/unix"
)

// isTerminal reports whether r is a real terminal. Being a character
// device is not enough: /dev/null is one too, and it is the stdin a service
// manager gives a daemon. Only a terminal answers the request for its
// settings (what isatty(3) asks).
func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	_, err := unix.IoctlGetTermios(int(f.Fd()), ioctlReadTermios)
	return err == nil
}
