package discord

import (
	"bytes"
	"encoding/binary"
	"testing"
)

// frame builds one server-to-client WebSocket frame (RFC 6455 §5.2).
func frame(opcode byte, payload []byte) []byte {
	b := []byte{0x80 | opcode}
	switch n := len(payload); {
	case n < len16:
		b = append(b, byte(n))
	case n <= 0xffff:
		b = append(b, len16, 0, 0)
		binary.BigEndian.PutUint16(b[2:], uint16(n))
	default:
		b = append(b, len64, 0, 0, 0, 0, 0, 0, 0, 0)
		binary.BigEndian.PutUint64(b[2:], uint64(n))
	}
	return append(b, payload...)
}

func closePayload(code uint16, reason string) []byte {
	return append(binary.BigEndian.AppendUint16(nil, code), reason...)
}

func TestCloseSniffer(t *testing.T) {
	upgrade := []byte("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n")
	// A text frame whose payload looks like a close frame must not count.
	decoy := frame(0x1, append([]byte{0x88, 0x02, 0x0f, 0xae}, bytes.Repeat([]byte("x"), 300)...))
	big := frame(0x2, bytes.Repeat([]byte{0x88}, 70000))
	stream := bytes.Join([][]byte{upgrade, frame(0x1, []byte(`{"op":10}`)), decoy, big, frame(0x9, nil), frame(opClose, closePayload(4014, "Disallowed intent(s)."))}, nil)

	for _, chunk := range []int{1, 2, 3, 7, 64, 4096, len(stream)} {
		var s closeSniffer
		for i := 0; i < len(stream); i += chunk {
			s.feed(stream[i:min(i+chunk, len(stream))])
			if s.code != 0 && i+chunk < len(stream) {
				t.Fatalf("chunk %d: code %d before the close frame", chunk, s.code)
			}
		}
		if s.code != 4014 {
			t.Errorf("chunk %d: code = %d, want 4014", chunk, s.code)
		}
	}

	var s closeSniffer
	s.feed(append(append([]byte(nil), upgrade...), frame(opClose, nil)...))
	if s.code != closeNoStatus {
		t.Errorf("empty close: code = %d, want %d", s.code, closeNoStatus)
	}

	// A refused upgrade has a body, not frames.
	var refused closeSniffer
	refused.feed([]byte("HTTP/1.1 400 Bad Request\r\nContent-Length: 6\r\n\r\n\x88\x02\x0f\xae!!"))
	if refused.code != 0 {
		t.Errorf("refused upgrade: code = %d, want 0", refused.code)
	}
}

func FuzzCloseSniffer(f *testing.F) {
	f.Add([]byte("HTTP/1.1 101 OK\r\n\r\n\x88\x02\x0f\xae"), 3)
	f.Add([]byte("HTTP/1.1 101 Switching\r\n\r\n\x81\x7e\x00\x05hello\x88\x00"), 1)
	f.Fuzz(func(t *testing.T, data []byte, chunk int) {
		chunk = chunk%16 + 1
		if chunk < 1 {
			chunk = 1
		}
		var whole, parts closeSniffer
		whole.feed(data)
		for i := 0; i < len(data); i += chunk {
			parts.feed(data[i:min(i+chunk, len(data))])
		}
		if whole.code != parts.code {
			t.Fatalf("code %d whole, %d in chunks of %d", whole.code, parts.code, chunk)
		}
		if whole.code < 0 || whole.code > 0xffff {
			t.Fatalf("code %d out of range", whole.code)
		}
	})
}
