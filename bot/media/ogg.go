package media

import (
	"bytes"
	"encoding/binary"
	"io"
	"time"
)

// Ogg framing (RFC 3533 §6): every page starts with "OggS", version 0, a
// header-type byte, the 64-bit granule position at offset 6 and the number
// of segments at offset 26, followed by that many lacing values.
const (
	oggMagic        = "OggS"
	oggHeaderLen    = 27
	oggGranuleAt    = 6
	oggSegmentsAt   = 26
	oggMaxPageBytes = oggHeaderLen + 255 + 255*255 // RFC 3533: at most 255 segments of 255 bytes
	// opusRate is the granule rate of Ogg/Opus: 48 kHz samples whatever the
	// input rate (RFC 7845 §4).
	opusRate = 48000
	// opusPreSkipAt is where OpusHead keeps its pre-skip (RFC 7845 §5.1).
	opusPreSkipAt = 10
	// vorbisRateAt is where the sample rate sits in a Vorbis identification
	// header ("\x01vorbis", version, channels, rate: Vorbis I spec §4.2.2).
	vorbisRateAt = 12
	// waveformSamples is the most loudness samples a waveform has (Discord
	// voice messages accept up to 256 one-byte samples).
	waveformSamples = 256
	// maxOggLength caps what a granule position can claim (hearth's choice:
	// far beyond any limit, so a corrupt stream is simply "too long").
	maxOggLength = 24 * time.Hour
)

// oggPage is one page header: where it starts, its granule position and
// the sizes of the packets ending on it.
type oggPage struct {
	granule int64
	body    []byte
	lacing  []byte
}

// nextPage parses the page at the start of b; ok is false when b does not
// start with a whole page.
func nextPage(b []byte) (p oggPage, size int, ok bool) {
	if len(b) < oggHeaderLen || string(b[:4]) != oggMagic || b[4] != 0 {
		return p, 0, false
	}
	n := int(b[oggSegmentsAt])
	if len(b) < oggHeaderLen+n {
		return p, 0, false
	}
	p.lacing = b[oggHeaderLen : oggHeaderLen+n]
	bodyLen := 0
	for _, l := range p.lacing {
		bodyLen += int(l)
	}
	size = oggHeaderLen + n + bodyLen
	if len(b) < size {
		return p, 0, false
	}
	p.granule = int64(binary.LittleEndian.Uint64(b[oggGranuleAt:]))
	p.body = b[oggHeaderLen+n : size]
	return p, size, true
}

// oggFormat reads the first page of a stream: the granule rate (48 kHz for
// Opus, the header's rate for Vorbis, 0 when unknown) and the samples to
// skip at the start (Opus's pre-skip, RFC 7845 §5.1, which the granule
// positions include).
func oggFormat(head []byte) (rate, skip int64) {
	p, _, ok := nextPage(head)
	switch {
	case !ok:
		return 0, 0
	case bytes.HasPrefix(p.body, []byte("OpusHead")) && len(p.body) >= opusPreSkipAt+2:
		return opusRate, int64(binary.LittleEndian.Uint16(p.body[opusPreSkipAt:]))
	case bytes.HasPrefix(p.body, []byte("\x01vorbis")) && len(p.body) >= vorbisRateAt+4:
		return int64(binary.LittleEndian.Uint32(p.body[vorbisRateAt:])), 0
	}
	return 0, 0
}

// length converts a final granule position into a duration, at most
// maxOggLength (a corrupt granule must not overflow).
func length(granule, rate, skip int64) time.Duration {
	secs := float64(max(granule-skip, 0)) / float64(rate)
	if secs >= maxOggLength.Seconds() {
		return maxOggLength
	}
	return time.Duration(secs * float64(time.Second))
}

// oggDuration reads the length of the Ogg stream in r (size bytes) from its
// first page (the codec's rate) and its last page (the granule position),
// without reading what lies between: a long voice note is measured before
// it is uploaded. ok is false for anything that is not Ogg/Opus or Vorbis.
func oggDuration(r io.ReaderAt, size int64) (time.Duration, bool) {
	head := make([]byte, min(size, oggMaxPageBytes))
	if _, err := r.ReadAt(head, 0); err != nil && err != io.EOF {
		return 0, false
	}
	rate, skip := oggFormat(head)
	if rate <= 0 {
		return 0, false
	}
	tail := make([]byte, min(size, 2*oggMaxPageBytes))
	if _, err := r.ReadAt(tail, size-int64(len(tail))); err != nil && err != io.EOF {
		return 0, false
	}
	for i := bytes.LastIndex(tail, []byte(oggMagic)); i >= 0; i = bytes.LastIndex(tail[:i], []byte(oggMagic)) {
		if p, n, ok := nextPage(tail[i:]); ok && i+n == len(tail) && p.granule > 0 {
			return length(p.granule, rate, skip), true
		}
	}
	return 0, false
}

// oggVoice describes Ogg/Opus audio in memory: its length and a coarse
// waveform. Opus is variable-bitrate, so the size of each packet follows how
// much is going on in the sound; the waveform is those sizes, bucketed into
// at most waveformSamples and scaled to 0-255. ok is false when data is not
// an Ogg stream.
func oggVoice(data []byte) (d time.Duration, waveform []byte, ok bool) {
	rate, skip := oggFormat(data)
	if rate <= 0 {
		return 0, nil, false
	}
	var (
		packets []int
		granule int64
		cur     int
	)
	for b := data; len(b) > 0; {
		p, n, ok := nextPage(b)
		if !ok {
			break
		}
		if p.granule != 0 { // audio pages; the header pages have granule 0, continued ones -1
			granule = max(granule, p.granule)
			for _, l := range p.lacing {
				cur += int(l)
				if l < 255 {
					packets = append(packets, cur)
					cur = 0
				}
			}
		}
		b = b[n:]
	}
	if granule <= 0 {
		return 0, nil, false
	}
	return length(granule, rate, skip), waveform256(packets), true
}

// waveform256 buckets packet sizes into at most waveformSamples loudness
// values, the loudest bucket at 255.
func waveform256(packets []int) []byte {
	if len(packets) == 0 {
		return nil
	}
	n := min(len(packets), waveformSamples)
	peaks := make([]int, n)
	top := 1
	for i, p := range packets {
		b := i * n / len(packets)
		peaks[b] = max(peaks[b], p)
		top = max(top, p)
	}
	out := make([]byte, n)
	for i, p := range peaks {
		out[i] = byte(p * 255 / top)
	}
	return out
}
