package telegram

import (
	"strconv"
	"testing"
	"time"

	"hearth/bot"
)

func FuzzDecodeUpdate(f *testing.F) {
	for _, s := range []string{
		`{"update_id":1,"message":{"message_id":5,"from":{"id":42,"first_name":"Ann"},"chat":{"id":42,"type":"private"},"date":1700000000,"text":"hi"}}`,
		`{"update_id":2,"message":{"message_id":6,"from":{"id":42,"first_name":"Ann"},"chat":{"id":-100,"type":"supergroup"},"date":1,"text":"/me@LunaBot x","entities":[{"type":"bot_command","offset":0,"length":11}]}}`,
		`{"update_id":3,"message":{"message_id":7,"from":{"id":42},"chat":{"id":-100,"type":"group"},"date":1,"text":"😀 @LunaBot","entities":[{"type":"mention","offset":3,"length":8}],"reply_to_message":{"message_id":1,"from":{"id":777,"is_bot":true},"chat":{"id":-100}}}}`,
		`{"update_id":4,"message_reaction":{"chat":{"id":42,"type":"private"},"message_id":1001,"user":{"id":42,"first_name":"Ann"},"date":1,"new_reaction":[{"type":"emoji","emoji":"👍"}],"old_reaction":[]}}`,
		`{"update_id":5,"callback_query":{"id":"c1","from":{"id":42,"first_name":"Ann"},"data":"/memories","message":{"message_id":9,"chat":{"id":42,"type":"private"},"date":1}}}`,
		`{"update_id":6,"edited_message":{"message_id":5,"from":{"id":42},"chat":{"id":42,"type":"private"},"date":1,"caption":"cat","photo":[{"file_id":"x"}]}}`,
		`{"update_id":7,"message":{"message_id":"bad"}}`,
		`{"update_id":8,"message_reaction":{"chat":{"id":1},"message_id":1,"new_reaction":[{"type":"custom_emoji","custom_emoji_id":"123"}],"user":{"id":3}}}`,
		`{"message":{"entities":[{"type":"mention","offset":-1,"length":99}],"text":"@x","from":{"id":1},"chat":{"id":1}}}`,
		`[]`, `null`, `{}`,
		// Media (issue 14): voice, audio, video notes, photo sizes, odd sizes.
		`{"update_id":9,"message":{"message_id":8,"from":{"id":42},"chat":{"id":-5,"type":"group"},"date":1,"voice":{"file_id":"V","duration":-3,"file_size":-1}}}`,
		`{"update_id":10,"message":{"message_id":9,"from":{"id":42},"chat":{"id":42,"type":"private"},"date":1,"photo":[{"file_id":"a","width":90,"height":90,"file_size":9999999999},{"file_id":"","width":9000,"height":9000},{"file_id":"b","width":-1,"height":5}]}}`,
		`{"update_id":11,"message":{"message_id":10,"from":{"id":42},"chat":{"id":42,"type":"private"},"date":1,"video_note":{"file_id":"N","length":240,"duration":59},"audio":{"file_id":""}}}`,
		`{"update_id":12,"message":{"message_id":11,"from":{"id":42},"chat":{"id":42,"type":"private"},"date":1,"audio":{"file_id":"A","file_name":"x\"y.mp3","mime_type":"audio/mpeg"},"voice":null}}`,
	} {
		f.Add([]byte(s))
	}
	me := self{ID: 777, Username: "LunaBot"}
	now := time.Unix(1700000000, 0)
	f.Fuzz(func(t *testing.T, data []byte) {
		u := decodeUpdate(data)
		if u.Err != nil {
			return
		}
		ev := me.convert(u.Update, now)
		if m := ev.Message; m != nil {
			if m.Platform != bot.PlatformTelegram || m.MessageID == "" || m.ChatID == "" {
				t.Fatalf("incomplete message %+v", m)
			}
			if m.ChatKind != bot.ChatPrivate && m.ChatKind != bot.ChatGroup {
				t.Fatalf("chat kind %q", m.ChatKind)
			}
			if _, err := strconv.ParseInt(m.UserID, 10, 64); err != nil {
				t.Fatalf("user id %q", m.UserID)
			}
			if m.ChatKind == bot.ChatPrivate && !m.Addressed {
				t.Fatal("private message not addressed")
			}
			if r := m.Media; r != nil {
				if r.ID == "" || r.Size < 0 || r.Seconds < 0 || r.Name == "" || r.MIME == "" {
					t.Fatalf("media %+v", r)
				}
				if r.Kind != m.Modality || (r.Kind != bot.ModalityVoice && r.Kind != bot.ModalityPhoto) {
					t.Fatalf("media kind %q in a %q message", r.Kind, m.Modality)
				}
			}
		}
		if r := ev.Reaction; r != nil && (r.Emoji == "" || r.MessageID == "") {
			t.Fatalf("incomplete reaction %+v", r)
		}
		if ev.Message != nil && ev.Reaction != nil {
			t.Fatal("one update became two events")
		}
	})
}

func TestDecodeUpdatesBatch(t *testing.T) {
	us, err := decodeUpdates([]byte(`[{"update_id":1},{"update_id":2,"message":5},{"nope":1},7]`))
	if err != nil {
		t.Fatal(err)
	}
	if len(us) != 4 {
		t.Fatalf("%d updates", len(us))
	}
	if us[0].Err != nil || !us[0].HasID || us[0].ID != 1 {
		t.Errorf("update 0 = %+v", us[0])
	}
	if us[1].Err == nil || !us[1].HasID || us[1].ID != 2 {
		t.Errorf("bad update with an id should keep it: %+v", us[1])
	}
	if us[2].HasID && us[2].ID != 0 || us[3].HasID {
		t.Errorf("updates without ids: %+v %+v", us[2], us[3])
	}
	if _, err := decodeUpdates([]byte(`{"not":"a list"}`)); err == nil {
		t.Error("decodeUpdates accepted a non-array result")
	}
}

func TestEntityTextCountsUTF16(t *testing.T) {
	// "😀 " is three UTF-16 units, so the mention starts at offset 3.
	if got := entityText("😀 @LunaBot", wireEntity{Offset: 3, Length: 8}); got != "@LunaBot" {
		t.Fatalf("entityText = %q", got)
	}
	if got := entityText("short", wireEntity{Offset: 3, Length: 80}); got != "" {
		t.Fatalf("out of range entity = %q", got)
	}
}
