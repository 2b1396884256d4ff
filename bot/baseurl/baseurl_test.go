package baseurl

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestEndpointKeepsTheQueryAQuery(t *testing.T) {
	for _, tc := range []struct{ raw, path, want string }{
		{"http://127.0.0.1:8080/v1", "/chat/completions", "http://127.0.0.1:8080/v1/chat/completions"},
		{"http://127.0.0.1:8080/v1/", "/audio/speech", "http://127.0.0.1:8080/v1/audio/speech"},
		// Azure OpenAI: the version is a query parameter of every call.
		{"https://x.openai.azure.com/openai/deployments/d?api-version=2024-02-01", "/chat/completions",
			"https://x.openai.azure.com/openai/deployments/d/chat/completions?api-version=2024-02-01"},
		{"http://127.0.0.1:9/v1/?api-key=QSECRET555", "/chat/completions", "http://127.0.0.1:9/v1/chat/completions?api-key=QSECRET555"},
	} {
		u, err := Parse(tc.raw)
		if err != nil {
			t.Fatalf("Parse(%q): %v", tc.raw, err)
		}
		if got := u.Endpoint(tc.path); got != tc.want {
			t.Errorf("Parse(%q).Endpoint(%q) = %q, want %q", tc.raw, tc.path, got, tc.want)
		}
	}
}

func TestRedactHidesPasswordsAndQueryValues(t *testing.T) {
	for _, tc := range []struct{ raw, want string }{
		{"http://bob:PWSECRET999@127.0.0.1:9/v1?api-key=QSECRET555", "http://bob:[REDACTED]@127.0.0.1:9/v1?api-key=[REDACTED]"},
		{"http://127.0.0.1:8/v1?token=AUDQSECRET", "http://127.0.0.1:8/v1?token=[REDACTED]"},
		{"http://bob@127.0.0.1:8/v1", "http://bob@127.0.0.1:8/v1"}, // a user name alone is no secret
		{"https://api.openai.com/v1", "https://api.openai.com/v1"},
		{"http://[::1]:namedport\x7f?k=SECRET", Mark}, // unparseable: hidden whole
	} {
		if got := Redact(tc.raw); got != tc.want {
			t.Errorf("Redact(%q) = %q, want %q", tc.raw, got, tc.want)
		}
	}
}

func TestParseErrorsShowNoSecret(t *testing.T) {
	for _, raw := range []string{"ftp://bob:PWSECRET999@host/v1?api-key=QSECRET555", "localhost:11434?api-key=QSECRET555", "http://h/v1?api-key=QSECRET555#frag"} {
		_, err := Parse(raw)
		if err == nil {
			t.Fatalf("Parse(%q) accepted", raw)
		}
		if strings.Contains(err.Error(), "SECRET") {
			t.Errorf("Parse(%q) error shows a secret: %v", raw, err)
		}
	}
}

func TestSecretsAreWholeForms(t *testing.T) {
	got := Secrets("http://bob:p%40ss@h/v1?api-key=a%2Fb&v=1")
	for _, want := range []string{"bob:p%40ss@", "bob:p@ss@", "api-key=a%2Fb", "api-key=a/b", "v=1"} {
		found := false
		for _, g := range got {
			found = found || g == want
		}
		if !found {
			t.Errorf("Secrets lacks %q: %q", want, got)
		}
	}
}

func TestTransportAddsTheQuery(t *testing.T) {
	var seen []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen = append(seen, r.URL.Path+"?"+r.URL.RawQuery)
	}))
	defer srv.Close()
	u, err := Parse(srv.URL + "/v1?api-version=2024-02-01")
	if err != nil {
		t.Fatal(err)
	}
	c := &http.Client{Transport: u.Transport(nil)}
	for _, path := range []string{"/models", "/models?limit=5&api-version=mine"} {
		resp, err := c.Get(u.Base() + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	want := []string{"/v1/models?api-version=2024-02-01", "/v1/models?api-version=mine&limit=5"}
	if strings.Join(seen, " ") != strings.Join(want, " ") {
		t.Errorf("server saw %q, want %q", seen, want)
	}
}
