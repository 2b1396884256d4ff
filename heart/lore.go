package heart

import (
	"cmp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Lore is background knowledge a persona carries: a Character Card V2
// `character_book`, or the `lore:` key of hearth's persona YAML. Entries
// follow SillyTavern's World Info: an entry is inserted when one of its keys
// appears in the recent messages (and, when selective, its secondary keys
// pass their logic); constant entries are always inserted; everything within
// one token budget.

// Lore defaults and bounds; hearth's choices unless noted.
const (
	// DefaultLoreScanDepth is how many recent messages are scanned for keys
	// when the book names no scan_depth: the user's message, the reply
	// before it and the turn before that. SillyTavern's default is 2; a
	// companion's messages are short, so a topic keeps its lore a little
	// longer.
	DefaultLoreScanDepth = 4
	// MaxLoreScanDepth bounds a book's scan_depth: the reply prompt never
	// shows more than about 30 turns anyway.
	MaxLoreScanDepth = 20
	// DefaultLoreBudgetTokens bounds the inserted lore (constant and matched
	// together) when the book names no token_budget.
	DefaultLoreBudgetTokens = 800
	// MaxLoreBudgetTokens caps a book's token_budget at a quarter of the
	// default reply budget (SillyTavern's default World Info budget is 25 %
	// of the context), so lore never crowds out the conversation.
	MaxLoreBudgetTokens = DefaultReplyBudgetTokens / 4
)

// LoreLogic is how an entry's secondary keys combine with its primary ones
// when it is selective (SillyTavern's "Optional Filter" logic).
type LoreLogic string

// The four selective logics of SillyTavern's World Info; the Character Card
// V2 spec's `selective` alone means AndAny.
const (
	LoreAndAny LoreLogic = "and_any" // a primary key and any secondary key
	LoreAndAll LoreLogic = "and_all" // a primary key and every secondary key
	LoreNotAny LoreLogic = "not_any" // a primary key and no secondary key
	LoreNotAll LoreLogic = "not_all" // a primary key, unless every secondary key is there too
)

// Known reports whether l is one of the four logics ("" counts as AndAny).
func (l LoreLogic) Known() bool {
	switch l {
	case "", LoreAndAny, LoreAndAll, LoreNotAny, LoreNotAll:
		return true
	}
	return false
}

// LoreEntry is one World Info entry.
type LoreEntry struct {
	// Name labels the entry for people (a card's name or comment); it never
	// enters the prompt.
	Name string
	// Keys trigger the entry; SecondaryKeys filter it by Logic when
	// Selective (ignored otherwise, and when empty).
	Keys, SecondaryKeys []string
	Selective           bool
	Logic               LoreLogic
	// Constant entries are inserted on every turn, keys or not.
	Constant bool
	// Disabled entries are never inserted (a card's `enabled: false`).
	Disabled bool
	// CaseSensitive keys match only with the same letter case; otherwise
	// keys and text are case- and width-folded (Fold).
	CaseSensitive bool
	// Order is the card's insertion_order: within the budget higher orders
	// win, and in the prompt lower orders come first (higher ones sit
	// closer to the end, where they weigh more).
	Order   int
	Content string
}

// LoreBook is a persona's lore: its entries, how many recent messages are
// scanned for keys, and the token budget of what is inserted.
type LoreBook struct {
	Entries []LoreEntry
	// ScanDepth counts messages: 1 is the user's message alone, 2 adds the
	// reply before it, and so on. ≤ 0 means DefaultLoreScanDepth.
	ScanDepth int
	// BudgetTokens bounds the inserted entries (EstimateTokens of their
	// contents). ≤ 0 means DefaultLoreBudgetTokens; at most
	// MaxLoreBudgetTokens.
	BudgetTokens int
}

// Depth is the effective scan depth.
func (b LoreBook) Depth() int {
	switch {
	case b.ScanDepth <= 0:
		return DefaultLoreScanDepth
	case b.ScanDepth > MaxLoreScanDepth:
		return MaxLoreScanDepth
	}
	return b.ScanDepth
}

// Budget is the effective token budget.
func (b LoreBook) Budget() int {
	if b.BudgetTokens <= 0 {
		return DefaultLoreBudgetTokens
	}
	return min(b.BudgetTokens, MaxLoreBudgetTokens)
}

// SelectLore picks the lore of one turn. recent holds the scanned messages,
// newest first (the user's message, then the reply before it, ...); only
// the first Depth() are read. It returns the contents of the constant
// entries (the same on every turn: they belong to the static prompt) and of
// the entries whose keys matched, each list ordered by Order (stable for
// equal orders). The budget is spent as SillyTavern spends it: constant
// entries first, then matched ones by descending Order, stopping at the
// first entry that does not fit.
func SelectLore(b LoreBook, recent []string) (constant, matched []string) {
	if len(b.Entries) == 0 {
		return nil, nil
	}
	scan := newLoreScan(recent[:min(len(recent), b.Depth())])
	var consts, hits []LoreEntry
	for _, e := range b.Entries {
		switch {
		case e.Disabled || strings.TrimSpace(e.Content) == "":
		case e.Constant:
			consts = append(consts, e)
		case scan.matches(e):
			hits = append(hits, e)
		}
	}
	left := b.Budget()
	consts, left = fitLore(consts, left)
	hits, _ = fitLore(hits, left)
	return loreContents(consts), loreContents(hits)
}

// fitLore keeps the entries that fit in budget, highest Order first,
// stopping at the first that does not fit; it returns them by ascending
// Order and the budget left.
func fitLore(es []LoreEntry, budget int) ([]LoreEntry, int) {
	byPriority := slices.Clone(es)
	slices.SortStableFunc(byPriority, func(a, b LoreEntry) int { return cmp.Compare(b.Order, a.Order) })
	var kept []LoreEntry
	for _, e := range byPriority {
		t := EstimateTokens(strings.TrimSpace(e.Content))
		if t > budget {
			break
		}
		budget -= t
		kept = append(kept, e)
	}
	slices.SortStableFunc(kept, func(a, b LoreEntry) int { return cmp.Compare(a.Order, b.Order) })
	return kept, budget
}

func loreContents(es []LoreEntry) []string {
	if len(es) == 0 {
		return nil
	}
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = strings.TrimSpace(e.Content)
	}
	return out
}

// loreScan is the scanned text, as written and folded.
type loreScan struct{ raw, folded string }

func newLoreScan(msgs []string) loreScan {
	raw := strings.ToValidUTF8(strings.Join(msgs, "\n"), "\uFFFD")
	return loreScan{raw: raw, folded: Fold(raw)}
}

// matches applies an entry's primary keys and, when selective, its
// secondary keys under its logic.
func (s loreScan) matches(e LoreEntry) bool {
	if !slices.ContainsFunc(e.Keys, func(k string) bool { return s.has(k, e.CaseSensitive) }) {
		return false
	}
	if !e.Selective || len(e.SecondaryKeys) == 0 {
		return true
	}
	n := 0
	for _, k := range e.SecondaryKeys {
		if s.has(k, e.CaseSensitive) {
			n++
		}
	}
	switch e.Logic {
	case LoreAndAll:
		return n == len(e.SecondaryKeys)
	case LoreNotAny:
		return n == 0
	case LoreNotAll:
		return n < len(e.SecondaryKeys)
	default:
		return n > 0
	}
}

// has reports whether key occurs in the scanned text. A single-word key
// without CJK letters matches whole words only ("king" is not in
// "liking"), as SillyTavern's default "match whole words"; keys with
// Chinese, Japanese or Korean letters, and keys of several words, match as
// substrings (those scripts write words without spaces).
func (s loreScan) has(key string, caseSensitive bool) bool {
	key = strings.ToValidUTF8(strings.TrimSpace(key), "\uFFFD")
	text := s.raw
	if !caseSensitive {
		key, text = Fold(key), s.folded
	}
	if key == "" {
		return false
	}
	if strings.ContainsFunc(key, unicode.IsSpace) || strings.ContainsFunc(key, isCJK) {
		return strings.Contains(text, key)
	}
	return containsWord(text, key, loreWordRune)
}

// containsWord reports whether k occurs in t with no word rune (as isWord
// decides) right before or after it.
func containsWord(t, k string, isWord func(rune) bool) bool {
	for off := 0; off <= len(t); {
		i := strings.Index(t[off:], k)
		if i < 0 {
			return false
		}
		s, e := off+i, off+i+len(k)
		before, _ := utf8.DecodeLastRuneInString(t[:s])
		after, _ := utf8.DecodeRuneInString(t[e:])
		if (s == 0 || !isWord(before)) && (e == len(t) || !isWord(after)) {
			return true
		}
		off = s + 1
	}
	return false
}

// loreWordRune reports whether r continues a word for whole-word keys:
// letters, digits and '_' do; CJK letters do not (a name written next to
// Chinese text, as in "我的猫Miso", is still a whole word), nor does the
// apostrophe ("Biscuit's" holds "Biscuit").
func loreWordRune(r rune) bool {
	return !isCJK(r) && (r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r))
}
