// Package semantictest is a fake OpenAI-compatible embeddings server on
// 127.0.0.1 (POST /v1/embeddings) for tests of recall by meaning. Its
// vectors are deterministic: a hashed bag of words (Chinese and Japanese
// as character bigrams, a few synonyms as one concept), so texts that
// share words or concepts are near and others nearly orthogonal, and
// another model gives other vectors. It records
// every request and lets a test fail, hold or refuse calls.
package semantictest

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"unicode"
)

// Call is one request the fake received.
type Call struct {
	Model  string
	Inputs []string
	Status int // what the fake answered
}

// Server is the fake.
type Server struct {
	HTTP *httptest.Server

	mu     sync.Mutex
	dims   map[string]int // the models it serves, by dimension
	fail   []int          // statuses for the next calls
	hold   chan struct{}  // non-nil: calls wait until it is closed
	refuse string         // an input containing it is refused (400)
	calls  []Call
}

// New starts a fake serving models (name → dimension), closed with the
// test.
func New(t testing.TB, models map[string]int) *Server {
	s := &Server{dims: map[string]int{}}
	for m, d := range models {
		s.dims[m] = d
	}
	s.HTTP = httptest.NewServer(s)
	t.Cleanup(s.HTTP.Close)
	return s
}

// URL is the base URL a client is given ("http://127.0.0.1:port/v1").
func (s *Server) URL() string { return s.HTTP.URL + "/v1" }

// Calls returns the requests so far.
func (s *Server) Calls() []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Call(nil), s.calls...)
}

// Inputs is the number of texts embedded so far (answered 200).
func (s *Server) Inputs() int {
	n := 0
	for _, c := range s.Calls() {
		if c.Status == http.StatusOK {
			n += len(c.Inputs)
		}
	}
	return n
}

// SetModel serves model with dim dimensions; dim 0 removes it.
func (s *Server) SetModel(model string, dim int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if dim == 0 {
		delete(s.dims, model)
		return
	}
	s.dims[model] = dim
}

// Fail answers the next calls with these statuses, one each.
func (s *Server) Fail(statuses ...int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fail = append(s.fail, statuses...)
}

// Hold makes calls wait until release is called.
func (s *Server) Hold() (release func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	h := make(chan struct{})
	s.hold = h
	var once sync.Once
	return func() {
		once.Do(func() {
			s.mu.Lock()
			s.hold = nil
			s.mu.Unlock()
			close(h)
		})
	}
}

// Refuse answers 400 to a request with an input containing substr.
func (s *Server) Refuse(substr string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.refuse = substr
}

// ServeHTTP answers POST /v1/embeddings (any path ending in
// /embeddings), so a test may mount the fake in a fake brain's server.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/embeddings") {
		writeError(w, http.StatusNotFound, "no such endpoint", "")
		return
	}
	var req struct {
		Model string          `json:"model"`
		Input json.RawMessage `json:"input"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		writeError(w, http.StatusBadRequest, "bad json: "+err.Error(), "")
		return
	}
	var inputs []string
	if err := json.Unmarshal(req.Input, &inputs); err != nil {
		var one string
		if err := json.Unmarshal(req.Input, &one); err != nil {
			writeError(w, http.StatusBadRequest, "input: want a string or strings", "")
			return
		}
		inputs = []string{one}
	}
	s.mu.Lock()
	hold := s.hold
	s.mu.Unlock()
	if hold != nil {
		select {
		case <-hold:
		case <-r.Context().Done():
			return
		}
	}
	s.mu.Lock()
	status, dim := http.StatusOK, s.dims[req.Model]
	switch {
	case len(s.fail) > 0:
		status, s.fail = s.fail[0], s.fail[1:]
	case dim == 0:
		status = http.StatusNotFound
	case s.refuse != "" && anyContains(inputs, s.refuse):
		status = http.StatusBadRequest
	}
	s.calls = append(s.calls, Call{Model: req.Model, Inputs: inputs, Status: status})
	s.mu.Unlock()
	switch status {
	case http.StatusOK:
	case http.StatusNotFound:
		writeError(w, status, fmt.Sprintf("The model `%s` does not exist or you do not have access to it.", req.Model), "model_not_found")
		return
	default:
		writeError(w, status, "injected failure", "")
		return
	}
	type datum struct {
		Object    string    `json:"object"`
		Embedding []float32 `json:"embedding"`
		Index     int       `json:"index"`
	}
	resp := struct {
		Object string  `json:"object"`
		Data   []datum `json:"data"`
		Model  string  `json:"model"`
		Usage  struct {
			PromptTokens int `json:"prompt_tokens"`
			TotalTokens  int `json:"total_tokens"`
		} `json:"usage"`
	}{Object: "list", Model: req.Model}
	for i, in := range inputs {
		resp.Data = append(resp.Data, datum{Object: "embedding", Embedding: Vector(req.Model, in, dim), Index: i})
		resp.Usage.PromptTokens += len(Tokens(in))
	}
	resp.Usage.TotalTokens = resp.Usage.PromptTokens
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(resp)
}

func writeError(w http.ResponseWriter, status int, msg, code string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"message": msg, "type": "invalid_request_error", "code": code}})
}

func anyContains(texts []string, sub string) bool {
	for _, t := range texts {
		if strings.Contains(t, sub) {
			return true
		}
	}
	return false
}

// Vector is the fake's embedding of text by model: every token adds ±1 to
// one of dim components, both picked by a hash of model and token. It is
// not unit length (clients normalise); a text without tokens gets a
// vector of its own.
func Vector(model, text string, dim int) []float32 {
	v := make([]float32, dim)
	toks := Tokens(text)
	if len(toks) == 0 {
		toks = []string{"\x00empty"}
	}
	for _, t := range toks {
		h := fnv.New64a()
		h.Write([]byte(model))
		h.Write([]byte{0})
		h.Write([]byte(t))
		x := h.Sum64()
		if x>>63 == 1 {
			v[x%uint64(dim)]--
		} else {
			v[x%uint64(dim)]++
		}
	}
	return v
}

// concept is the fake's idea of meaning: a few words it embeds as one.
func concept(w string) string {
	switch w {
	case "cats", "kitty", "kitten":
		return "cat"
	case "ill", "unwell":
		return "sick"
	}
	return w
}

// Tokens are the words of text, lowercased, synonyms as their concept;
// runs of Han and kana give their character bigrams (a lone character
// itself).
func Tokens(text string) []string {
	var out []string
	var run []rune
	flush := func(cjk bool) {
		switch {
		case len(run) == 0:
		case !cjk || len(run) == 1:
			out = append(out, concept(string(run)))
		default:
			for i := 0; i+1 < len(run); i++ {
				out = append(out, string(run[i:i+2]))
			}
		}
		run = run[:0]
	}
	cjkRun := false
	for _, r := range strings.ToLower(text) {
		cjk := unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana)
		word := cjk || unicode.IsLetter(r) || unicode.IsDigit(r)
		if !word || cjk != cjkRun {
			flush(cjkRun)
		}
		if word {
			run = append(run, r)
			cjkRun = cjk
		}
	}
	flush(cjkRun)
	return out
}
