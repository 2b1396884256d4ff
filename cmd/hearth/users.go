package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"hearth/store"
)

// Close matches offered for an unknown user id (hearth's choices).
const (
	// maxSuggestions bounds the ids an error offers.
	maxSuggestions = 3
	// maxTypos is the edit distance still counted as a typo of a name of
	// more than shortName letters; shorter names allow one.
	maxTypos  = 2
	shortName = 4
)

// userDirectory is what checkUser reads; *store.DB implements it.
type userDirectory interface {
	User(ctx context.Context, id string) (store.User, bool, error)
	Users(ctx context.Context) ([]store.User, error)
}

// checkUser returns nil when id is a stored user. Otherwise its error says
// what user ids look like and offers the stored ids closest to what was
// typed: "Sam" finds console:sam.
func checkUser(ctx context.Context, db userDirectory, id string) error {
	if _, ok, err := db.User(ctx, id); err != nil {
		return err
	} else if ok {
		return nil
	}
	example := "console:NAME"
	if !strings.Contains(id, ":") && id != "" {
		example = "console:" + id
	}
	msg := fmt.Sprintf("no user %q: ids look like %s, telegram:42 or discord:42", id, example)
	users, err := db.Users(ctx)
	if err != nil {
		return errors.New(msg)
	}
	if near := closeUsers(users, id); len(near) > 0 {
		return fmt.Errorf("%s; did you mean %s?", msg, strings.Join(near, ", "))
	}
	return fmt.Errorf("%s ('hearth state --db FILE' lists every user)", msg)
}

// closeUsers lists the stored ids nearest to typed: the same id or name in
// another case or without its platform first, then small typos.
func closeUsers(users []store.User, typed string) []string {
	_, want := splitID(strings.ToLower(typed))
	type match struct {
		id   string
		dist int
	}
	var found []match
	for _, u := range users {
		_, name := splitID(strings.ToLower(u.ID))
		d := editDistance(name, want)
		if strings.EqualFold(u.Name, typed) {
			d = 0
		}
		limit := maxTypos
		if len([]rune(want)) <= shortName {
			limit = 1
		}
		if d <= limit {
			found = append(found, match{u.ID, d})
		}
	}
	slices.SortFunc(found, func(a, b match) int { return cmp.Or(cmp.Compare(a.dist, b.dist), cmp.Compare(a.id, b.id)) })
	out := make([]string, 0, min(len(found), maxSuggestions))
	for _, m := range found[:min(len(found), maxSuggestions)] {
		out = append(out, m.id)
	}
	return out
}

// splitID splits "telegram:42" into its platform and id; a bare id has no
// platform.
func splitID(id string) (platform, rest string) {
	if p, r, ok := strings.Cut(id, ":"); ok {
		return p, r
	}
	return "", id
}

// editDistance counts the typos between a and b, in runes: insertions,
// deletions, substitutions and swaps of two neighbours ("sma" is one typo
// of "sam"; optimal string alignment distance).
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}
