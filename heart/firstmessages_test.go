package heart

import "testing"

// TestAskingHerNotToWriteFirst: a person who says in their own words that
// she should not write first (or that she may again) is understood in
// English, Chinese and Japanese; talk about messages that asks nothing of
// her is not.
func TestAskingHerNotToWriteFirst(t *testing.T) {
	if _, err := parseFirstMessages(firstMessageData); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		text string
		want FirstMessages
	}{
		{"please don't message me first, I'll come to you when I want to talk", FirstMessagesOff},
		{"Please don't text me first.", FirstMessagesOff},
		{"can you stop checking in on me", FirstMessagesOff},
		{"以后别主动给我发消息了，我想聊会来找你", FirstMessagesOff},
		{"你不要主动找我，好吗", FirstMessagesOff},
		{"そっちから連絡してこないで。話したいときはこっちから行くから", FirstMessagesOff},
		{"自分から話しかけないでほしい", FirstMessagesOff},
		{"ugh stop texting me every day", FirstMessagesOff},
		{"please don't stop messaging me, I like it", FirstMessagesUnsaid},
		{"你别老给我发消息了", FirstMessagesOff},
		{"もう連絡してこないで", FirstMessagesOff},
		{"actually you can message me first again, I miss it", FirstMessagesOn},
		{"现在可以主动找我了", FirstMessagesOn},
		{"また話しかけてもいいよ", FirstMessagesOn},
		{"my boss told me not to message him first", FirstMessagesUnsaid},
		{"I didn't message my sister first", FirstMessagesUnsaid},
		{"don't worry, I'm fine", FirstMessagesUnsaid},
		{"我朋友总是主动给我发消息", FirstMessagesUnsaid},
		{"我以后别再主动联系前任了", FirstMessagesUnsaid},
		{"友達から連絡が来た", FirstMessagesUnsaid},
	} {
		if got := ReadFirstMessages(tt.text); got != tt.want {
			t.Errorf("ReadFirstMessages(%q) = %d, want %d", tt.text, got, tt.want)
		}
	}
}
