// Package baseurl reads the base URL of an OpenAI-compatible server
// (OPENAI_BASE_URL, HEARTH_AUDIO_BASE_URL) the way an operator means it:
// a query string stays a query string (Azure's "?api-version=" is a real
// use) instead of becoming part of the path, and what the URL holds in
// secret (a userinfo password, query values such as "?api-key=") never
// reaches a log line or an error (DESIGN §9: "Secrets never appear in
// logs").
package baseurl

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// Mark replaces a secret in text.
const Mark = "[REDACTED]"

// URL is a parsed base URL.
type URL struct {
	base    string     // scheme://[user[:pass]@]host/path, no trailing "/" and no query
	query   url.Values // sent with every request
	secrets []string   // the URL's secrets as they may appear in text
	shown   string     // the URL with its secrets replaced, for logs
}

// Parse reads raw, which must be an http:// or https:// URL. Its error
// shows the URL with its secrets redacted.
func Parse(raw string) (URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return URL{}, fmt.Errorf("base url %s: not a URL", Redact(raw))
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return URL{}, fmt.Errorf("base url %q: want http:// or https://", Redact(raw))
	}
	if u.Fragment != "" {
		return URL{}, fmt.Errorf("base url %q: a fragment (#...) is never sent to a server", Redact(raw))
	}
	q := u.Query()
	out := URL{query: q, secrets: Secrets(raw), shown: Redact(raw)}
	u.RawQuery, u.ForceQuery = "", false
	out.base = strings.TrimRight(u.String(), "/")
	return out, nil
}

// Base is the URL without its query, for clients that append an endpoint's
// path to it; pair it with Transport so the query still goes out.
func (u URL) Base() string { return u.base }

// Endpoint is the URL of path (e.g. "/audio/speech") on the server, with
// the base URL's query.
func (u URL) Endpoint(path string) string {
	if len(u.query) == 0 {
		return u.base + path
	}
	return u.base + path + "?" + u.query.Encode()
}

// String is the URL with its secrets redacted: safe to log.
func (u URL) String() string { return u.shown }

// Secrets lists the text forms of the URL's secrets (see the package
// function Secrets).
func (u URL) Secrets() []string { return u.secrets }

// Transport sends the base URL's query with every request rt sends (a
// client such as go-openai builds request URLs by appending a path to
// Base). Parameters a request sets itself win.
func (u URL) Transport(rt http.RoundTripper) http.RoundTripper {
	if len(u.query) == 0 {
		return rt
	}
	if rt == nil {
		rt = http.DefaultTransport
	}
	return queryTransport{next: rt, query: u.query}
}

type queryTransport struct {
	next  http.RoundTripper
	query url.Values
}

func (t queryTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	r := req.Clone(req.Context()) // a RoundTripper must not change its request
	q := r.URL.Query()
	for k, vs := range t.query {
		if _, set := q[k]; !set {
			q[k] = vs
		}
	}
	r.URL.RawQuery = q.Encode()
	return t.next.RoundTrip(r)
}

// Redact returns raw with its userinfo password and every query value
// replaced by Mark. Text that does not parse as a URL is hidden whole: it
// may still hold a secret.
func Redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return Mark
	}
	if _, ok := u.User.Password(); ok {
		u.User = url.UserPassword(u.User.Username(), Mark)
	}
	if u.RawQuery != "" {
		q := u.Query()
		for k, vs := range q {
			for i := range vs {
				vs[i] = Mark
			}
			q[k] = vs
		}
		u.RawQuery = q.Encode()
	}
	// url.URL.String escapes the mark's brackets; show it as written.
	return strings.NewReplacer(url.QueryEscape(Mark), Mark, url.PathEscape(Mark), Mark).Replace(u.String())
}

// Secrets lists the text forms in which raw's secrets show up in errors and
// logs: "user:password@" and each "name=value" of the query, as written
// and as Go's URL encoding writes them. Whole forms, not bare values, so a
// short value never blanks out ordinary words.
func Secrets(raw string) []string {
	u, err := url.Parse(raw)
	if err != nil {
		return nil
	}
	var out []string
	add := func(s string) {
		for _, have := range out {
			if have == s {
				return
			}
		}
		out = append(out, s)
	}
	if p, ok := u.User.Password(); ok && p != "" {
		name := u.User.Username()
		add(name + ":" + p + "@")
		add(strings.TrimSuffix(u.User.String(), "@") + "@")
	}
	for _, pair := range strings.Split(u.RawQuery, "&") {
		if k, v, ok := strings.Cut(pair, "="); ok && v != "" {
			add(pair)
			if dk, err := url.QueryUnescape(k); err == nil {
				if dv, err := url.QueryUnescape(v); err == nil {
					add(url.QueryEscape(dk) + "=" + url.QueryEscape(dv))
					add(dk + "=" + dv)
				}
			}
		}
	}
	return out
}
