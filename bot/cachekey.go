package bot

import (
	"crypto/sha256"
	"encoding/hex"
)

// cacheKeyBytes is how much of the hash a cache key keeps: 64 bits tell a
// persona's users apart, and the key stays short (hearth's choice).
const cacheKeyBytes = 8

// CacheKey is the Request.CacheKey of calls of kind about userID under the
// persona: a hash, so the model server never sees a user id; stable across
// turns and restarts; and independent of how the prompt is ordered. An
// empty userID gives the persona's shared key (perception: every user's
// prompt starts the same).
func CacheKey(persona string, kind Kind, userID string) string {
	sum := sha256.Sum256([]byte(persona + "\x00" + string(kind) + "\x00" + userID))
	return "hearth-" + hex.EncodeToString(sum[:cacheKeyBytes])
}
