package store

import (
	"encoding/binary"
	"testing"
)

// FuzzParseHeader feeds arbitrary file beginnings to the header check that
// runs before SQLite touches an operator's file: it must never panic, must
// accept only full SQLite headers, and must read user_version exactly.
func FuzzParseHeader(f *testing.F) {
	hdr := make([]byte, sqliteHeaderSize)
	copy(hdr, sqliteMagic)
	hdr[userVersionOffset+3] = 7
	f.Add(hdr)
	f.Add([]byte{})
	f.Add([]byte("name: Luna\n"))
	f.Add([]byte(sqliteMagic))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > sqliteHeaderSize {
			data = data[:sqliteHeaderSize] // peekUserVersion never reads more
		}
		v, exists, err := parseHeader(data)
		isSQLite := len(data) == sqliteHeaderSize && string(data[:len(sqliteMagic)]) == sqliteMagic
		switch {
		case len(data) == 0:
			if err != nil || exists {
				t.Fatalf("empty file: %v %v", exists, err)
			}
		case isSQLite:
			want := int(int32(binary.BigEndian.Uint32(data[userVersionOffset:])))
			if err != nil || !exists || v != want {
				t.Fatalf("valid header: v=%d exists=%v err=%v, want %d", v, exists, err, want)
			}
		default:
			if err == nil {
				t.Fatalf("non-SQLite data accepted: %q", data)
			}
		}
	})
}
