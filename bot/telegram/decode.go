package telegram

import (
	"encoding/json"
	"fmt"
)

// The wire types below mirror the parts of Bot API objects hearth reads.
// They are decoded here rather than with the library's types because
// tgbotapi v5.5.1 predates Bot API 7.0 and has no message_reaction update.

// wireUpdate is one element of getUpdates' result.
type wireUpdate struct {
	UpdateID        int64         `json:"update_id"`
	Message         *wireMessage  `json:"message"`
	EditedMessage   *wireMessage  `json:"edited_message"`
	CallbackQuery   *wireCallback `json:"callback_query"`
	MessageReaction *wireReaction `json:"message_reaction"`
}

// wireUser is a Bot API User.
type wireUser struct {
	ID        int64  `json:"id"`
	IsBot     bool   `json:"is_bot"`
	FirstName string `json:"first_name"`
	Username  string `json:"username"`
}

// wireChat is a Bot API Chat; Type is "private", "group", "supergroup" or
// "channel".
type wireChat struct {
	ID   int64  `json:"id"`
	Type string `json:"type"`
}

// wireEntity is a Bot API MessageEntity. Offset and Length count UTF-16 code
// units.
type wireEntity struct {
	Type   string    `json:"type"`
	Offset int       `json:"offset"`
	Length int       `json:"length"`
	User   *wireUser `json:"user"`
}

// wireSticker is the part of a Bot API Sticker hearth reads.
type wireSticker struct {
	Emoji string `json:"emoji"`
}

// wireFile is the part of a Bot API Voice, Audio, VideoNote or PhotoSize
// hearth reads: enough to fetch it (getFile) and to refuse it early.
type wireFile struct {
	FileID   string `json:"file_id"`
	FileSize int64  `json:"file_size"`
	Duration int    `json:"duration"` // seconds; voice, audio, video notes
	MimeType string `json:"mime_type"`
	FileName string `json:"file_name"` // audio files, documents, videos
	Width    int    `json:"width"`     // photo sizes
	Height   int    `json:"height"`
}

// wireMessage is a Bot API Message.
type wireMessage struct {
	MessageID       int64         `json:"message_id"`
	From            *wireUser     `json:"from"`
	Chat            wireChat      `json:"chat"`
	Date            int64         `json:"date"`
	Text            string        `json:"text"`
	Caption         string        `json:"caption"`
	Entities        []wireEntity  `json:"entities"`
	CaptionEntities []wireEntity  `json:"caption_entities"`
	Photo           []wireFile    `json:"photo"`
	Voice           *wireFile     `json:"voice"`
	Audio           *wireFile     `json:"audio"`
	VideoNote       *wireFile     `json:"video_note"`
	Document        *wireFile     `json:"document"`
	Video           *wireFile     `json:"video"`
	Animation       *wireFile     `json:"animation"`
	Sticker         *wireSticker  `json:"sticker"`
	ReplyToMessage  *wireMessage  `json:"reply_to_message"`
	Location        *wireLocation `json:"location"`
	Venue           *wireVenue    `json:"venue"`
	Contact         *wireContact  `json:"contact"`
	Poll            *wirePoll     `json:"poll"`
	Dice            *wireDice     `json:"dice"`
}

// wireLocation is a Bot API Location.
type wireLocation struct {
	Latitude  float64 `json:"latitude"`
	Longitude float64 `json:"longitude"`
}

// wireVenue is a Bot API Venue: a location with a name (a venue message
// carries its location in the message's location field too).
type wireVenue struct {
	Location wireLocation `json:"location"`
	Title    string       `json:"title"`
	Address  string       `json:"address"`
}

// wireContact is the part of a Bot API Contact hearth reads: the name,
// never the phone number.
type wireContact struct {
	FirstName string `json:"first_name"`
	LastName  string `json:"last_name"`
}

// wirePoll is the part of a Bot API Poll hearth reads.
type wirePoll struct {
	Question string `json:"question"`
	Options  []struct {
		Text string `json:"text"`
	} `json:"options"`
}

// wireDice is a Bot API Dice: an animated emoji with a random value.
type wireDice struct {
	Emoji string `json:"emoji"`
	Value int    `json:"value"`
}

// wireCallback is a Bot API CallbackQuery (an inline button press).
type wireCallback struct {
	ID      string       `json:"id"`
	From    wireUser     `json:"from"`
	Message *wireMessage `json:"message"`
	Data    string       `json:"data"`
}

// wireReaction is a Bot API 7.0 MessageReactionUpdated. User is absent for
// anonymous reactions.
type wireReaction struct {
	Chat        wireChat           `json:"chat"`
	MessageID   int64              `json:"message_id"`
	User        *wireUser          `json:"user"`
	Date        int64              `json:"date"`
	NewReaction []wireReactionType `json:"new_reaction"`
}

// wireReactionType is a Bot API ReactionType: "emoji", "custom_emoji" or
// "paid".
type wireReactionType struct {
	Type          string `json:"type"`
	Emoji         string `json:"emoji"`
	CustomEmojiID string `json:"custom_emoji_id"`
}

// rawUpdate is one update as received: its id, when it could be read, and
// either the decoded update or why it could not be decoded.
type rawUpdate struct {
	ID     int64
	HasID  bool
	Update wireUpdate
	Err    error
}

// decodeUpdates splits getUpdates' result into updates. A malformed element
// does not fail the batch: it is returned with Err set (and its id when one
// could be read) so the poll loop can skip it instead of stalling on it.
func decodeUpdates(result json.RawMessage) ([]rawUpdate, error) {
	var elems []json.RawMessage
	if err := json.Unmarshal(result, &elems); err != nil {
		return nil, fmt.Errorf("decode updates: %w", err)
	}
	out := make([]rawUpdate, 0, len(elems))
	for _, e := range elems {
		out = append(out, decodeUpdate(e))
	}
	return out, nil
}

// decodeUpdate decodes one update object.
func decodeUpdate(raw []byte) rawUpdate {
	var u wireUpdate
	if err := json.Unmarshal(raw, &u); err != nil {
		var idOnly struct {
			UpdateID *int64 `json:"update_id"`
		}
		r := rawUpdate{Err: fmt.Errorf("decode update: %w", err)}
		if json.Unmarshal(raw, &idOnly) == nil && idOnly.UpdateID != nil {
			r.ID, r.HasID = *idOnly.UpdateID, true
		}
		return r
	}
	return rawUpdate{ID: u.UpdateID, HasID: true, Update: u}
}
