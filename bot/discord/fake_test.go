package discord

import (
	"crypto/tls"
	"crypto/x509"
	"testing"

	"hearth/bot/discord/discordtest"
)

// The fake Discord lives in discordtest; these are the names this
// package's tests use for it.

const (
	fakeToken     = "test-token"
	fakeBotID     = discordtest.BotID
	fakeAppID     = discordtest.AppID
	fakeSessionID = discordtest.SessionID
)

func newFakeDiscord(t testing.TB) *discordtest.Server { return discordtest.NewServer(t, fakeToken) }

// newFakeDiscordTLS serves REST over https and the gateway over wss, as
// Discord does.
func newFakeDiscordTLS(t testing.TB) *discordtest.Server {
	return discordtest.NewTLSServer(t, fakeToken)
}

// trust makes tr accept the fake's TLS certificate, for REST and gateway.
func trust(f *discordtest.Server, tr *Transport) {
	if f.HTTP.TLS == nil {
		return
	}
	pool := x509.NewCertPool()
	pool.AddCert(f.HTTP.Certificate())
	cfg := &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
	tr.conns.tls = cfg
	tr.http.TLSClientConfig = cfg
}
