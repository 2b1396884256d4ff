package media

import (
	"bytes"
	"testing"
)

// FuzzOgg feeds the Ogg readers what users and speech servers might send:
// they must never panic, and what they report must stay in range.
func FuzzOgg(f *testing.F) {
	page := func(body string, granule byte) []byte {
		b := []byte("OggS\x00\x00")
		b = append(b, granule, 0, 0, 0, 0, 0, 0, 0)
		b = append(b, make([]byte, 12)...)
		b = append(b, 1, byte(len(body)))
		return append(b, body...)
	}
	opusHead := "OpusHead\x01\x01\x38\x01\x80\xbb\x00\x00\x00\x00\x00"
	f.Add(page(opusHead, 0))
	f.Add(append(page(opusHead, 0), page("audio-packet", 200)...))
	f.Add(append(page("\x01vorbis\x00\x00\x00\x00\x01\x44\xac\x00\x00", 0), page("x", 90)...))
	huge := page("audio", 0xff) // a granule far past any real length must not overflow
	copy(huge[6:14], bytes.Repeat([]byte{0x7f}, 8))
	f.Add(append(page(opusHead, 0), huge...))
	f.Add([]byte("OggS"))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		d, wave, ok := oggVoice(data)
		if ok && (d < 0 || len(wave) > waveformSamples) {
			t.Fatalf("oggVoice = %v, %d samples", d, len(wave))
		}
		if d, ok := oggDuration(bytes.NewReader(data), int64(len(data))); ok && d < 0 {
			t.Fatalf("oggDuration = %v", d)
		}
	})
}
