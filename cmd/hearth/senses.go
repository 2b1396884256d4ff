package main

import (
	"fmt"
	"log/slog"
	"strings"

	"hearth/bot"
	"hearth/bot/baseurl"
	"hearth/bot/brain"
	"hearth/bot/media"
)

// Defaults of the senses (DESIGN §9): OpenAI's own model names, which
// compatible servers (speaches, LocalAI) accept or map.
const (
	DefaultSTTModel = "whisper-1"
	DefaultTTSModel = "tts-1"
)

// senses builds hearing and speaking from HEARTH_AUDIO_BASE_URL and
// HEARTH_AUDIO_API_KEY (default: the brain's server and key), HEARTH_STT_MODEL
// and HEARTH_TTS_MODEL ("off" switches one off), and reads HEARTH_VISION
// ("on", the default, or "off"; photos reach only an OpenAI-compatible
// brain). Media is nil when there is no audio server or both senses are
// off. Bad values are errors before the instance file is touched.
func senses(env Env, log *slog.Logger) (m bot.Media, vision bool, err error) {
	vision = true
	switch v := strings.ToLower(strings.TrimSpace(env.Getenv("HEARTH_VISION"))); v {
	case "", "on":
	case "off":
		vision = false
	default:
		return nil, false, usageError{fmt.Errorf("HEARTH_VISION=%q: want on or off", v)}
	}
	base, key := env.Getenv("HEARTH_AUDIO_BASE_URL"), env.Getenv("HEARTH_AUDIO_API_KEY")
	if base == "" {
		base = env.Getenv("OPENAI_BASE_URL")
	}
	if key == "" {
		key = env.Getenv("OPENAI_API_KEY")
	}
	if base == "" && key != "" {
		base = brain.DefaultBaseURL
	}
	stt, tts := orDefault(env.Getenv("HEARTH_STT_MODEL"), DefaultSTTModel), orDefault(env.Getenv("HEARTH_TTS_MODEL"), DefaultTTSModel)
	if base == "" || (strings.EqualFold(stt, media.Off) && strings.EqualFold(tts, media.Off)) {
		log.Info("senses: voice notes unheard and replies unspoken (no audio server)")
		return nil, vision, nil
	}
	s, err := media.New(media.Config{BaseURL: base, APIKey: key, STTModel: stt, TTSModel: tts, Logger: log.With("part", "media")})
	if err != nil {
		return nil, false, usageError{fmt.Errorf("HEARTH_AUDIO_BASE_URL: %w", err)}
	}
	log.Info("senses", "audio_base_url", baseurl.Redact(base), "stt_model", stt, "tts_model", tts)
	return s, vision, nil
}

func orDefault(v, def string) string {
	if v = strings.TrimSpace(v); v == "" {
		return def
	}
	return v
}
