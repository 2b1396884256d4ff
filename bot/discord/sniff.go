package discord

// closeSniffer watches the bytes the gateway sends and remembers the code
// of the last close frame. discordgo reads close frames on its own reader
// goroutine and only logs them, so without this a close such as 4014 that
// arrives after Open returned (a re-IDENTIFY after INVALID_SESSION) would
// look like an ordinary drop and be retried forever.
//
// It follows RFC 6455 framing from the end of the HTTP upgrade response.
// The gateway connection negotiates no extensions, so frames are plain.
type closeSniffer struct {
	status   []byte // the start of the upgrade response's status line
	off      bool   // not an upgrade (no 101): there are no frames to watch
	inFrames bool   // past the upgrade response's blank line
	tail     uint32 // the last four header bytes, to find "\r\n\r\n"
	hdr      []byte // the frame header collected so far
	opcode   byte
	need     uint64 // payload bytes left in the current frame
	payload  []byte // the first two payload bytes of a close frame
	code     int    // the last close code seen; 0 before any
}

// WebSocket framing constants (RFC 6455 §5.2, §7.4.1).
const (
	opClose        = 0x8
	crlfcrlf       = 0x0d0a0d0a
	len16          = 126  // 7-bit length value meaning "16-bit length follows"
	len64          = 127  // 7-bit length value meaning "64-bit length follows"
	maskKeyLen     = 4    // bytes of masking key when the mask bit is set
	closeNoStatus  = 1005 // close frame without a status code
	maxFrameHeader = 14   // 2 + 8 length bytes + 4 mask bytes
)

// switching is how a successful upgrade response begins (RFC 6455 §4.2.2).
const switching = "HTTP/1.1 101"

// feed consumes bytes read from the gateway connection.
func (s *closeSniffer) feed(b []byte) {
	for len(b) > 0 && !s.off {
		switch {
		case len(s.status) < len(switching):
			s.status = append(s.status, b[0])
			s.off = s.status[len(s.status)-1] != switching[len(s.status)-1]
			s.tail = s.tail<<8 | uint32(b[0])
			b = b[1:]
		case !s.inFrames:
			s.tail = s.tail<<8 | uint32(b[0])
			b = b[1:]
			s.inFrames = s.tail == crlfcrlf
		case s.need > 0:
			n := uint64(len(b))
			if n > s.need {
				n = s.need
			}
			if s.opcode == opClose {
				for _, c := range b[:n] {
					if len(s.payload) == 2 {
						break
					}
					s.payload = append(s.payload, c)
				}
			}
			b = b[n:]
			s.need -= n
			if s.need == 0 && s.opcode == opClose {
				s.closeFrame()
			}
		default:
			s.hdr = append(s.hdr, b[0])
			b = b[1:]
			length, ok := frameLength(s.hdr)
			if !ok {
				if len(s.hdr) >= maxFrameHeader { // cannot happen with valid framing
					s.hdr = s.hdr[:0]
				}
				continue
			}
			s.opcode = s.hdr[0] & 0x0f
			s.hdr = s.hdr[:0]
			s.payload = s.payload[:0]
			s.need = length
			if length == 0 && s.opcode == opClose {
				s.closeFrame()
			}
		}
	}
}

// closeFrame records the code of a complete close frame.
func (s *closeSniffer) closeFrame() {
	if len(s.payload) < 2 {
		s.code = closeNoStatus
		return
	}
	s.code = int(s.payload[0])<<8 | int(s.payload[1])
}

// frameLength decodes a frame header's payload length, reporting false
// while the header is incomplete.
func frameLength(h []byte) (uint64, bool) {
	if len(h) < 2 {
		return 0, false
	}
	need := 2
	l := uint64(h[1] & 0x7f)
	switch l {
	case len16:
		need += 2
	case len64:
		need += 8
	}
	if h[1]&0x80 != 0 {
		need += maskKeyLen
	}
	if len(h) < need {
		return 0, false
	}
	switch l {
	case len16:
		l = uint64(h[2])<<8 | uint64(h[3])
	case len64:
		l = 0
		for _, c := range h[2:10] {
			l = l<<8 | uint64(c)
		}
	}
	return l, true
}
