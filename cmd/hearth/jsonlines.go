package main

import (
	"encoding/json"
	"io"
	"sync"
)

// jsonLines writes one JSON object per line and keeps the first error.
type jsonLines struct {
	mu  sync.Mutex
	enc *json.Encoder
	err error
}

func newJSONLines(w io.Writer) *jsonLines {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return &jsonLines{enc: enc}
}

func (j *jsonLines) write(v any) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.err == nil {
		j.err = j.enc.Encode(v)
	}
}
