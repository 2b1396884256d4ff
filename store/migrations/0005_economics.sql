-- hearth schema v5: prompt tokens the model server read from its prefix
-- cache (usage.prompt_tokens_details.cached_tokens), part of `prompt`.
ALTER TABLE token_usage ADD COLUMN cached INTEGER NOT NULL DEFAULT 0 CHECK (cached >= 0);
