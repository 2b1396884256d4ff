package bot

import (
	"context"

	"hearth/store"
)

// SemanticRecall finds a user's past by meaning (embeddings from the
// model server's /v1/embeddings, DESIGN §12 "Recall"). It is optional:
// without it, or when it fails, recall is the full-text index alone. It
// returns hits in the same scope rules as store.DB.Recall (never another
// user's, never a private one in a group scope), best first; Score is the
// similarity. It must return quickly: one query embedding on the reply
// path, with a short deadline of its own.
type SemanticRecall interface {
	Recall(ctx context.Context, q store.RecallQuery) ([]store.RecallHit, error)
}
