package bot

import (
	"sync"

	"hearth/heart"
)

// systemCacheSize bounds the static system prompts kept (hearth's choice:
// one is about 6 KB, so the cache stays under 2 MB; a daemon with more
// active users than this rebuilds some, which costs what every turn cost
// before the cache).
const systemCacheSize = 256

// systemKey is everything a reply's static system prompt depends on
// besides the persona, which is fixed for a Handler: the user's name
// (persona text and lore mention it), the chat kind and the relationship
// state (its rules). staticInput reads nothing else.
type systemKey struct {
	user  string
	group bool
	state heart.RelationshipState
}

// system is a built static system prompt and the system message it makes.
type system struct {
	heart.System
	// message is the reply request's system message: the marker line and
	// the prompt (replyMessages).
	message string
}

// systemCache keeps built static system prompts: they are the same on
// every turn of a chat until the user's name or relationship state
// changes, and building one was a fifth of a turn's allocations.
type systemCache struct {
	mu sync.Mutex
	m  map[systemKey]*system
}

// get returns the system prompt of k, building it with build when absent.
func (c *systemCache) get(k systemKey, build func() heart.System) *system {
	c.mu.Lock()
	s := c.m[k]
	c.mu.Unlock()
	if s != nil {
		return s
	}
	s = newSystem(build())
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = make(map[systemKey]*system)
	}
	if len(c.m) >= systemCacheSize {
		for old := range c.m { // any one: a rebuild is cheap
			delete(c.m, old)
			break
		}
	}
	c.m[k] = s
	return s
}

// newSystem wraps a built prompt with its system message.
func newSystem(s heart.System) *system {
	return &system{System: s, message: KindReply.Marker() + "\n" + s.Text}
}

// systemOf is the static system prompt for the user called name, in a
// group or a private chat, in relationship state st.
func (h *Handler) systemOf(name string, group bool, st heart.RelationshipState) *system {
	return h.systems.get(systemKey{user: name, group: group, state: st}, func() heart.System {
		return heart.BuildSystem(h.staticInput(name, group, st))
	})
}

// staticInput is the part of a reply's PromptInput that the static system
// prompt is built from; everything it reads is in systemKey or the persona.
func (h *Handler) staticInput(name string, group bool, st heart.RelationshipState) heart.PromptInput {
	p := h.cfg.Persona
	return heart.PromptInput{
		PersonaName: p.Name, PersonaText: personaText(p, name), Language: p.Language, UserName: name,
		GroupChat: group, RelationshipState: string(st), RelationshipRules: heart.RelationshipRules(st, p.Language),
		Rules: standingRules(p), Lore: withUserAll(constantLore(p), name),
	}
}
