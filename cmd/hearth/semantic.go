package main

import (
	"log/slog"
	"strings"
	"time"

	"hearth/bot"
	"hearth/bot/brain"
	"hearth/bot/semantic"
	"hearth/store"
)

var _ semantic.Store = (*store.DB)(nil)

// recallByMeaning builds recall by meaning from HEARTH_EMBED_MODEL, on the
// brain's server with its key (DESIGN §9). It is nil, said once in the
// log, when the variable is unset or no model server is configured; the
// full-text index recalls alone then.
func recallByMeaning(env Env, cfg brain.OpenAIConfig, online bool, db *store.DB, p bot.Persona, now func() time.Time, log *slog.Logger) (*semantic.Index, error) {
	model := strings.TrimSpace(env.Getenv("HEARTH_EMBED_MODEL"))
	switch {
	case model == "":
		log.Info("recall by meaning off (HEARTH_EMBED_MODEL unset): recall uses the full-text index alone")
		return nil, nil
	case !online:
		log.Warn("HEARTH_EMBED_MODEL ignored: no model server (set OPENAI_BASE_URL or OPENAI_API_KEY); recall uses the full-text index alone")
		return nil, nil
	}
	base := cfg.BaseURL
	if base == "" {
		base = brain.DefaultBaseURL
	}
	idx, err := semantic.New(semantic.Config{
		BaseURL: base, APIKey: cfg.APIKey, Model: model, Store: db, Now: now,
		DailyTokens: p.Budget.DailyTokens, Location: p.Timezone, Logger: log.With("part", "semantic"),
	})
	if err != nil {
		return nil, usageError{err}
	}
	log.Info("recall by meaning: embeddings from the brain's server", "base_url", base, "embed_model", model)
	return idx, nil
}
