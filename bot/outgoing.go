package bot

import (
	"encoding/json"
	"fmt"

	"hearth/store"
)

// attachment is the part of an Outgoing that is not text, as stored in the
// outbound ledger so a restart resends exactly what was decided. A spoken
// reply's audio is kept in the ledger's voice column, its description here.
type attachment struct {
	Document *File      `json:"document,omitempty"`
	Photo    *File      `json:"photo,omitempty"`
	Buttons  [][]Button `json:"buttons,omitempty"`
	Voice    *Voice     `json:"voice,omitempty"`
}

func encodeOutgoing(out Outgoing) (store.Outbound, error) {
	o := store.Outbound{Text: out.Text}
	if out.Document == nil && out.Photo == nil && len(out.Buttons) == 0 && out.Voice == nil {
		return o, nil
	}
	if out.Voice != nil {
		o.Voice = out.Voice.Data
	}
	raw, err := json.Marshal(attachment{Document: out.Document, Photo: out.Photo, Buttons: out.Buttons, Voice: out.Voice})
	if err != nil {
		return o, fmt.Errorf("encode attachment: %w", err)
	}
	o.Attachment = raw
	return o, nil
}

func decodeOutgoing(o store.Outbound) (Outgoing, error) {
	out := Outgoing{Text: o.Text}
	if len(o.Attachment) == 0 {
		return out, nil
	}
	var a attachment
	if err := json.Unmarshal(o.Attachment, &a); err != nil {
		return out, fmt.Errorf("decode attachment: %w", err)
	}
	out.Document, out.Photo, out.Buttons = a.Document, a.Photo, a.Buttons
	if a.Voice != nil && len(o.Voice) > 0 {
		a.Voice.Data = o.Voice
		out.Voice = a.Voice
	}
	return out, nil
}
