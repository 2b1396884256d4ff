package discord

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"hearth/bot"
)

var testNow = time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)

func TestModality(t *testing.T) {
	tests := []struct {
		name string
		edit func(m *discordgo.Message)
		want bot.Modality
	}{
		{"text", func(m *discordgo.Message) {}, bot.ModalityText},
		{"photo", func(m *discordgo.Message) {
			m.Attachments = []*discordgo.MessageAttachment{{ID: "a", ContentType: "image/png"}}
		}, bot.ModalityPhoto},
		{"audio file", func(m *discordgo.Message) {
			m.Attachments = []*discordgo.MessageAttachment{{ID: "a", ContentType: "audio/ogg"}}
		}, bot.ModalityVoice},
		{"voice message", func(m *discordgo.Message) {
			m.Flags = discordgo.MessageFlagsIsVoiceMessage
			m.Attachments = []*discordgo.MessageAttachment{{ID: "a", ContentType: "application/octet-stream"}}
		}, bot.ModalityVoice},
		{"sticker", func(m *discordgo.Message) {
			m.StickerItems = []*discordgo.StickerItem{{ID: "s", Name: "wave"}}
		}, bot.ModalitySticker},
		{"pdf is still text", func(m *discordgo.Message) {
			m.Attachments = []*discordgo.MessageAttachment{{ID: "a", ContentType: "application/pdf"}}
		}, bot.ModalityText},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := &discordgo.Message{ID: "1", ChannelID: "c", Content: "look", Author: &discordgo.User{ID: "42", Username: "ann"}}
			tt.edit(m)
			got, ok := messageFromEvent(m, fakeBotID, testNow)
			if !ok || got.Modality != tt.want {
				t.Errorf("modality = %q (ok %v), want %q", got.Modality, ok, tt.want)
			}
		})
	}
}

func TestMessageIgnored(t *testing.T) {
	base := func() *discordgo.Message {
		return &discordgo.Message{ID: "1", ChannelID: "c", Content: "hi", Author: &discordgo.User{ID: "42", Username: "ann"}}
	}
	tests := map[string]func(m *discordgo.Message){
		"no author":      func(m *discordgo.Message) { m.Author = nil },
		"a bot":          func(m *discordgo.Message) { m.Author.Bot = true },
		"itself":         func(m *discordgo.Message) { m.Author.ID = fakeBotID },
		"system message": func(m *discordgo.Message) { m.Type = discordgo.MessageTypeGuildMemberJoin },
		"only a mention": func(m *discordgo.Message) { m.Content = " <@" + fakeBotID + "> " },
		"empty":          func(m *discordgo.Message) { m.Content = "" },
	}
	for name, edit := range tests {
		t.Run(name, func(t *testing.T) {
			m := base()
			edit(m)
			if got, ok := messageFromEvent(m, fakeBotID, testNow); ok {
				t.Errorf("delivered %+v, want ignored", got)
			}
		})
	}
	if _, ok := messageFromEvent(base(), fakeBotID, testNow); !ok {
		t.Fatal("the base message itself must be delivered")
	}
	m, _ := messageFromEvent(base(), fakeBotID, testNow)
	if !m.At.Equal(testNow) || m.UserName != "ann" {
		t.Errorf("At %v name %q: want now and the username when no global name", m.At, m.UserName)
	}
}

func TestInteractionIgnored(t *testing.T) {
	if _, ok := messageFromInteraction(&discordgo.Interaction{ID: "1", ChannelID: "c", Token: "t", Type: discordgo.InteractionPing, User: &discordgo.User{ID: "42"}}, testNow); ok {
		t.Error("ping delivered")
	}
	if _, ok := messageFromInteraction(&discordgo.Interaction{ID: "1", ChannelID: "c", Token: "t", Type: discordgo.InteractionMessageComponent,
		Data: discordgo.MessageComponentInteractionData{CustomID: "/me"}, User: &discordgo.User{ID: "7", Bot: true}}, testNow); ok {
		t.Error("a bot's click delivered")
	}
	m, ok := messageFromInteraction(&discordgo.Interaction{ID: "1", ChannelID: "c", Token: "t", Type: discordgo.InteractionApplicationCommand,
		Data: discordgo.ApplicationCommandInteractionData{Name: "forget", Options: []*discordgo.ApplicationCommandInteractionDataOption{
			{Name: "n", Type: discordgo.ApplicationCommandOptionInteger, Value: float64(3)}}},
		User: &discordgo.User{ID: "42", Username: "ann"}}, testNow)
	if !ok || m.Text != "/forget 3" {
		t.Errorf("numeric option: %q (ok %v), want \"/forget 3\"", m.Text, ok)
	}
}

// FuzzMessageFromEvent decodes raw MESSAGE_CREATE payloads, as the gateway
// delivers them, into discordgo types and then into bot.Message.
func FuzzMessageFromEvent(f *testing.F) {
	seeds := []string{
		`{"id":"1","channel_id":"c","content":"<@100> hi","author":{"id":"42","username":"a"},"mentions":[{"id":"100"}]}`,
		`{"id":"2","channel_id":"c","guild_id":"g","type":19,"content":"yes","author":{"id":"42"},"message_reference":{"message_id":"9"},"referenced_message":{"id":"9","author":{"id":"100","bot":true}}}`,
		`{"id":"3","channel_id":"c","content":"","flags":8192,"author":{"id":"42"},"attachments":[{"id":"a","content_type":"audio/ogg"}]}`,
		`{"id":"4","channel_id":"c","content":"x","author":null,"referenced_message":{"author":null}}`,
		`{"id":"5","channel_id":"c","content":"<@!100><@100> <@<@100>100>","author":{"id":"42","global_name":"Ann"},"sticker_items":[{"id":"s"}]}`,
		`{"timestamp":"not a time","id":"6"}`,
		// Attachments (issue 14): voice messages, audio, images, odd URLs and sizes.
		`{"id":"7","channel_id":"c","flags":8192,"author":{"id":"42"},"attachments":[{"id":"a","filename":"voice-message.ogg","url":"https://cdn.discordapp.com/a/voice-message.ogg","size":9000,"duration_secs":3.2,"waveform":"AAA="}]}`,
		`{"id":"8","channel_id":"c","guild_id":"g","author":{"id":"42"},"attachments":[{"url":"file:///etc/passwd","content_type":"image/png"},{"url":"https://cdn.discordapp.com/b.png","content_type":"IMAGE/PNG","size":-5}]}`,
		`{"id":"9","channel_id":"c","flags":8192,"author":{"id":"42"},"attachments":[{"url":"http://h/x.jpg","content_type":"image/jpeg"},{"url":"https://h/y","content_type":"","duration_secs":-1}]}`,
		`{"id":"10","channel_id":"c","content":"song","author":{"id":"42"},"attachments":[null,{"url":"https://h/s.mp3","content_type":"audio/mpeg","filename":""}]}`,
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		var ev discordgo.MessageCreate
		if err := json.Unmarshal(raw, &ev); err != nil {
			return
		}
		m, ok := messageFromEvent(ev.Message, fakeBotID, testNow)
		if !ok {
			return
		}
		if m.Platform != bot.PlatformDiscord || m.ChatID != ev.ChannelID || m.MessageID != ev.ID || m.UserID == "" {
			t.Fatalf("bad identity: %+v", m)
		}
		if strings.Contains(m.Text, "<@"+fakeBotID+">") || strings.Contains(m.Text, "<@!"+fakeBotID+">") {
			t.Fatalf("mention left in %q", m.Text)
		}
		if r := m.Media; r != nil {
			if !fetchable(r.ID) || r.Size < 0 || r.Seconds < 0 || r.Kind != m.Modality ||
				(r.Kind != bot.ModalityVoice && r.Kind != bot.ModalityPhoto) {
				t.Fatalf("media %+v in a %q message", r, m.Modality)
			}
		}
		if m.Text != strings.TrimSpace(m.Text) {
			t.Fatalf("text not trimmed: %q", m.Text)
		}
		if m.ChatKind == bot.ChatPrivate && !m.Addressed {
			t.Fatal("a DM must be addressed")
		}
		if m.At.IsZero() {
			t.Fatal("no time")
		}
	})
}

// FuzzInteraction decodes raw INTERACTION_CREATE payloads into bot.Message.
func FuzzInteraction(f *testing.F) {
	f.Add([]byte(`{"id":"1","type":2,"token":"t","channel_id":"c","guild_id":"g","member":{"user":{"id":"42"}},"data":{"name":"remember","options":[{"name":"text","type":3,"value":"tea"}]}}`))
	f.Add([]byte(`{"id":"2","type":3,"token":"t","channel_id":"c","user":{"id":"42"},"data":{"custom_id":"/why","component_type":2}}`))
	f.Add([]byte(`{"id":"3","type":2,"token":"t","channel_id":"c","member":{"user":null},"data":{"name":"me","options":[null,{"value":null}]}}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		var ev discordgo.InteractionCreate
		if err := json.Unmarshal(raw, &ev); err != nil {
			return
		}
		m, ok := messageFromInteraction(ev.Interaction, testNow)
		if !ok {
			return
		}
		if !m.Addressed || m.MessageID != interactionPrefix+ev.ID || m.Text == "" || m.UserID == "" {
			t.Fatalf("bad command message: %+v", m)
		}
	})
}
