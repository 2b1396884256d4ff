package bot

import "time"

// Observer receives the turn engine's measurements. bot/admin implements it
// with Prometheus metrics; the default discards them.
type Observer interface {
	Turn(d time.Duration)
	Stage(stage string, d time.Duration)
	LLM(kind Kind, u Usage, offline bool, err error)
	Error(kind string)
	Sent(kind string)
	Reflection(err error)
	Proactive(outcome string)
	BudgetExhausted(exhausted bool)
	// Media records one media call (UsageTranscription, UsageSpeech,
	// UsageImage) and what it consumed in its units.
	Media(kind string, units int, err error)
}

type nopObserver struct{}

func (nopObserver) Turn(time.Duration)           {}
func (nopObserver) Stage(string, time.Duration)  {}
func (nopObserver) LLM(Kind, Usage, bool, error) {}
func (nopObserver) Error(string)                 {}
func (nopObserver) Sent(string)                  {}
func (nopObserver) Reflection(error)             {}
func (nopObserver) Proactive(string)             {}
func (nopObserver) BudgetExhausted(bool)         {}
func (nopObserver) Media(string, int, error)     {}
