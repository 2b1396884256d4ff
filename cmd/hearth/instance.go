package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"

	"hearth/bot"
	"hearth/bot/baseurl"
	"hearth/bot/brain"
	"hearth/bot/semantic"
	"hearth/store"
)

// instance is one opened instance file with its persona and brains.
type instance struct {
	db      *store.DB
	persona bot.Persona
	brain   bot.Brain
	offline bot.Brain
	online  bool
	log     *slog.Logger
	media   bot.Media // nil: no hearing or speaking (DESIGN §12)
	vision  bool
	// meaning is recall by meaning (HEARTH_EMBED_MODEL); nil: full text
	// alone.
	meaning *semantic.Index
}

// openInstance opens dbPath for writing. A persona file, when given, is
// read and validated before the database is touched, so bad input leaves
// FILE untouched; it then replaces the stored persona. A new FILE needs one.
func openInstance(ctx context.Context, dbPath, personaPath string, env Env, log *slog.Logger) (*instance, error) {
	if dbPath == "" {
		return nil, usageError{errors.New("--db FILE is required")}
	}
	var (
		persona bot.Persona
		raw     []byte
		err     error
	)
	if personaPath != "" {
		if persona, raw, err = readPersonaFile(personaPath, log); err != nil {
			return nil, err
		}
	} else if _, err := os.Stat(dbPath); errors.Is(err, fs.ErrNotExist) {
		return nil, usageError{fmt.Errorf("%s does not exist; a new instance needs --persona YAML", dbPath)}
	}
	sensed, vision, err := senses(env, log)
	if err != nil {
		return nil, err
	}
	cfg, err := brainConfig(env, log)
	if err != nil {
		return nil, err
	}
	db, err := store.Open(ctx, dbPath, store.Options{Logger: log})
	if err != nil {
		return nil, err
	}
	if raw != nil {
		if err := db.SetPersona(ctx, raw, nowUTC()); err != nil {
			db.Close()
			return nil, fmt.Errorf("store persona: %w", err)
		}
	} else if persona, err = storedPersona(ctx, db, dbPath); err != nil {
		db.Close()
		return nil, err
	}
	inst := &instance{db: db, persona: persona, log: log, offline: brain.NewOffline()}
	inst.brain, inst.online = brain.New(cfg, log)
	if inst.online {
		// Log what the brain uses, defaults filled in, not what was set.
		base, model := env.Getenv("OPENAI_BASE_URL"), env.Getenv("HEARTH_MODEL")
		if base == "" {
			base = brain.DefaultBaseURL
		}
		if model == "" {
			model = brain.DefaultModel
		}
		log.Info("brain: OpenAI-compatible", "base_url", baseurl.Redact(base), "model", model)
	} else {
		inst.brain = inst.offline
		log.Warn("brain: OFFLINE (rule-based, deterministic); set OPENAI_BASE_URL or OPENAI_API_KEY for an LLM")
	}
	inst.media, inst.vision = sensed, vision && inst.online
	if vm := env.Getenv("HEARTH_VISION_MODEL"); inst.online && vm != "" {
		log.Info("vision", "on", inst.vision, "vision_model", vm)
	} else if inst.online {
		log.Info("vision", "on", inst.vision) // photos go to the brain's model
	}
	if inst.meaning, err = recallByMeaning(env, cfg, inst.online, db, persona, nil, log); err != nil {
		db.Close()
		return nil, err
	}
	return inst, nil
}

// brainConfig reads the brain's environment: OPENAI_BASE_URL,
// OPENAI_API_KEY, HEARTH_MODEL, HEARTH_VISION_MODEL and HEARTH_PROMPT_CACHE.
func brainConfig(env Env, log *slog.Logger) (brain.OpenAIConfig, error) {
	cache, err := brain.ParsePromptCache(env.Getenv("HEARTH_PROMPT_CACHE"))
	if err != nil {
		return brain.OpenAIConfig{}, usageError{fmt.Errorf("HEARTH_PROMPT_CACHE: %w", err)}
	}
	return brain.OpenAIConfig{
		BaseURL: env.Getenv("OPENAI_BASE_URL"), APIKey: env.Getenv("OPENAI_API_KEY"),
		Model: env.Getenv("HEARTH_MODEL"), VisionModel: env.Getenv("HEARTH_VISION_MODEL"),
		PromptCache: cache, Logger: log,
	}, nil
}

// modelWatch is what the OpenAI-compatible brain adds to bot.Brain, and
// the audio server's senses to bot.Media: a background probe of a server
// found down, and its health.
type modelWatch interface {
	Run(ctx context.Context)
	Health(ctx context.Context) error
}

// storedPersona reads the persona kept in an instance file.
func storedPersona(ctx context.Context, db interface {
	Persona(context.Context) ([]byte, error)
}, dbPath string) (bot.Persona, error) {
	raw, err := db.Persona(ctx)
	if err != nil {
		return bot.Persona{}, fmt.Errorf("read persona: %w", err)
	}
	if raw == nil {
		return bot.Persona{}, usageError{fmt.Errorf("%s has no persona; pass --persona YAML", dbPath)}
	}
	return parsePersona(dbPath+" (stored persona)", raw)
}

func (i *instance) Close() error { return i.db.Close() }
