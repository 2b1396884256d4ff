// Package brain implements bot.Brain twice: OpenAI, which talks to any
// OpenAI-compatible chat completions server, and Offline, a deterministic
// rule-based brain for running without a model or past the token budget
// (DESIGN §8, §9). Both cut replies at the trailer Delimiter with the same
// Splitter, so no trailer text ever reaches a user.
package brain

import (
	"log/slog"

	"hearth/bot"
)

// New picks the brain DESIGN §9 asks for: the OpenAI-compatible one when an
// API key or a base URL is configured, else the offline one. online reports
// which, so cmd/hearth can announce the offline brain at start. A bad
// configuration is logged and falls back to offline, so the daemon still
// answers.
func New(cfg OpenAIConfig, logger *slog.Logger) (b bot.Brain, online bool) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	if cfg.BaseURL == "" && cfg.APIKey == "" {
		return NewOffline(), false
	}
	if cfg.Logger == nil {
		cfg.Logger = logger
	}
	o, err := NewOpenAI(cfg)
	if err != nil {
		logger.Error("openai brain unusable: using the offline brain", "err", err)
		return NewOffline(), false
	}
	return o, true
}
