// Package admin is the operator's HTTP surface of DESIGN §9: /healthz,
// /metrics (Prometheus, on a private registry) and the bearer-protected
// /api/* endpoints (verified gifts of seed 001 §5.3-5.4 and the in-memory
// lingering-emotion override of seed 002). It owns no state that matters:
// the turn engine (Core) decides, stores and stays idempotent; admin only
// authenticates, validates and translates to JSON.
package admin
