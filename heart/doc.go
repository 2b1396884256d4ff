// Package heart is hearth's emotion logic, and nothing else: arithmetic over
// state that callers pass in. It has no I/O, reads no clock (callers pass
// now), starts no goroutine and imports only the standard library.
//
// The five seed documents are its specification; every number here carries
// the file name of the seed it comes from.
package heart
