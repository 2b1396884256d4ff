package bot

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"hearth/heart"
)

// Things people share that are neither words nor files (Telegram
// locations, venues, contacts, polls and dice; Discord polls). They reach
// the model and the offline brain described in words, never as a bare
// "[attachment]": the transport reports them as a MediaRef of one of these
// kinds carrying Shared, stored with the message like any media.
const (
	ModalityLocation Modality = "location" // a point on a map, or a venue with its name
	ModalityContact  Modality = "contact"  // a contact card
	ModalityPoll     Modality = "poll"     // a poll: its question and options
	ModalityDice     Modality = "dice"     // an animated dice (🎲, 🎯, 🏀, ⚽, 🎳, 🎰) and what it rolled
)

// Shared is what a shared location, contact, poll or dice says. Only
// what a person would see in the chat is kept: never a contact's phone
// number.
type Shared struct {
	// Name is a venue's title, a contact's name, a poll's question or a
	// dice's emoji.
	Name    string   `json:"name,omitempty"`
	Address string   `json:"address,omitempty"` // a venue's address
	Lat     float64  `json:"lat,omitempty"`
	Lon     float64  `json:"lon,omitempty"`
	Options []string `json:"options,omitempty"` // a poll's options, in order
	Value   int      `json:"value,omitempty"`   // what a dice rolled
}

// maxSharedRunes bounds each field a description shows (hearth's choice:
// a Telegram poll question may run to 300 characters and each of up to
// 10 options to 100; a venue's title and address are shorter).
const maxSharedRunes = 300

// shared reports whether kind is one of the shared kinds above.
func shared(kind Modality) bool {
	switch kind {
	case ModalityLocation, ModalityContact, ModalityPoll, ModalityDice:
		return true
	}
	return false
}

// clean is s as the model and the offline brain may read it: markers a
// user could type neutralised, white space folded, each field bounded.
func (s Shared) clean() Shared {
	fold := func(v string) string {
		v = strings.Join(strings.Fields(heart.NeutraliseMarkers(v)), " ")
		if utf8.RuneCountInString(v) > maxSharedRunes {
			v = string([]rune(v)[:maxSharedRunes]) + "…"
		}
		return v
	}
	out := Shared{Name: fold(s.Name), Address: fold(s.Address), Lat: s.Lat, Lon: s.Lon, Value: s.Value}
	for _, o := range s.Options {
		if o = fold(o); o != "" {
			out.Options = append(out.Options, o)
		}
	}
	return out
}

// Coords is a location's latitude and longitude to two decimals (about a
// kilometre: where someone is, not their door).
func (s Shared) Coords() string { return fmt.Sprintf("%.2f, %.2f", s.Lat, s.Lon) }

// describeShared is what the model reads for a shared thing of kind (s
// cleaned), in brackets like the placeholders of other media: "[location:
// 52.52, 13.40]", "[location: Café Einstein, Kurfürstenstraße 58 (52.50,
// 13.35)]", "[contact: Mia Chen]", "[poll: Pizza or sushi? — pizza /
// sushi]", "[dice: 🎲 5]".
func describeShared(kind Modality, s Shared) string {
	switch kind {
	case ModalityLocation:
		var name []string
		for _, v := range []string{s.Name, s.Address} {
			if v != "" {
				name = append(name, v)
			}
		}
		if len(name) == 0 {
			return "[location: " + s.Coords() + "]"
		}
		return "[location: " + strings.Join(name, ", ") + " (" + s.Coords() + ")]"
	case ModalityContact:
		return "[contact: " + s.Name + "]"
	case ModalityPoll:
		return "[poll: " + s.Name + " — " + strings.Join(s.Options, " / ") + "]"
	case ModalityDice:
		return fmt.Sprintf("[dice: %s %d]", s.Name, s.Value)
	}
	return "[attachment]"
}

// describeShared puts what the user shared (a location, contact, poll or
// dice) into the turn's text, in words the model and the offline brain
// can answer and the history keeps, instead of a bare "[attachment]".
func (m *moment) describeShared() {
	ref, ok := decodeMedia(m.in.Media)
	if !ok || ref.Shared == nil || !shared(ref.Kind) {
		return
	}
	what := ref.Shared.clean()
	m.shared, m.sharedKind = &what, ref.Kind
	if desc := describeShared(ref.Kind, what); m.text == "" {
		m.text, m.wordless = desc, true
	} else {
		m.text = desc + "\n" + m.text
	}
}
