package admin_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"hearth/bot/admin"
)

// FuzzGiftBody feeds arbitrary bodies to the gift endpoint: it never
// panics, always answers JSON, and only a well-formed request reaches Core.
func FuzzGiftBody(f *testing.F) {
	for _, s := range []string{
		`{"user":"u1","item":"rose","transaction_id":"t"}`, `{"user":`, `[]`, `null`, ``,
		`{"user":"u1","item":"","transaction_id":"t"}`, `{"user":"ghost","item":"a","transaction_id":"b"}`,
	} {
		f.Add([]byte(s))
	}
	core := newFakeCore("u1")
	s, err := admin.New(admin.Config{Addr: "127.0.0.1:0", Token: testToken, Core: core})
	if err != nil {
		f.Fatal(err)
	}
	h := s.Handler()
	f.Fuzz(func(t *testing.T, body []byte) {
		core.mu.Lock()
		before := core.giftCalls
		core.mu.Unlock()
		rec := httptest.NewRecorder()
		req := httptest.NewRequest(http.MethodPost, "/api/gift/send", bytes.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+testToken)
		h.ServeHTTP(rec, req)
		if ct := rec.Header().Get("Content-Type"); ct != "application/json" {
			t.Fatalf("content type %q", ct)
		}
		if !json.Valid(rec.Body.Bytes()) {
			t.Fatalf("invalid JSON answer %q", rec.Body.Bytes())
		}
		core.mu.Lock()
		reached := core.giftCalls > before
		core.mu.Unlock()
		switch rec.Code {
		case http.StatusOK, http.StatusNotFound:
			if !reached {
				t.Fatalf("status %d without reaching Core", rec.Code)
			}
		case http.StatusBadRequest, http.StatusRequestEntityTooLarge:
			if reached {
				t.Fatalf("status %d but Core was called", rec.Code)
			}
		default:
			t.Fatalf("status %d for %q", rec.Code, body)
		}
	})
}

// FuzzOverrideBody feeds arbitrary bodies to PUT /api/otome_kairo: it never
// panics, answers JSON, and an override reaching Core is always in range.
func FuzzOverrideBody(f *testing.F) {
	for _, s := range []string{
		`{"active":true,"joy":0.5,"sadness":0,"anger":1,"fear":0}`, `{"active":false}`, `{"joy":2}`,
		`{"anger":-0}`, `{"fear":1e-320}`, `{`, `null`, `{}`, `{"active":false,"joy":0.5}`,
	} {
		f.Add([]byte(s))
	}
	core := newFakeCore("u1")
	s, err := admin.New(admin.Config{Addr: "127.0.0.1:0", Token: testToken, Core: core})
	if err != nil {
		f.Fatal(err)
	}
	h := s.Handler()
	f.Fuzz(func(t *testing.T, body []byte) {
		before, had := core.override("u1")
		rec := httptest.NewRecorder()
		req := httptest.NewRequest(http.MethodPut, "/api/otome_kairo?user=u1", bytes.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+testToken)
		h.ServeHTTP(rec, req)
		if rec.Header().Get("Content-Type") != "application/json" || !json.Valid(rec.Body.Bytes()) {
			t.Fatalf("answer %q %q", rec.Header().Get("Content-Type"), rec.Body.Bytes())
		}
		if rec.Code != http.StatusOK && rec.Code != http.StatusBadRequest && rec.Code != http.StatusRequestEntityTooLarge {
			t.Fatalf("status %d for %q", rec.Code, body)
		}
		if rec.Code != http.StatusOK {
			if after, has := core.override("u1"); has != had || after != before {
				t.Fatalf("rejected body %q changed the override: %+v → %+v", body, before, after)
			}
		}
		if ov, ok := core.override("u1"); ok {
			for _, v := range []float64{ov.Joy, ov.Sadness, ov.Anger, ov.Fear} {
				if !(v >= 0 && v <= 1) {
					t.Fatalf("out-of-range override reached Core: %+v", ov)
				}
			}
			if !ov.Active {
				t.Fatalf("inactive override stored instead of cleared: %+v", ov)
			}
		}
	})
}
