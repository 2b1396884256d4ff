package brain

import (
	"fmt"
	"strings"
	"testing"

	"hearth/bot"
)

// TestOfflineKeepsAFactToldAsAnAnswer: a fact told as the answer to her
// question (facts.yaml answers) is kept like any other: "her name is
// Mochi" after "What's their name?" about a new kitten is a pet called
// Mochi, a cat; a new baby's name a person who is a baby. The same words
// after no such question, a bare name after a question that did not ask
// for one, and a question back keep nothing.
func TestOfflineKeepsAFactToldAsAnAnswer(t *testing.T) {
	o := NewOffline()
	tests := []struct {
		lang, before, asked, text string
		mems                      []string
		want                      []rememberItem
	}{
		{"en", "we got a kitten!", "Oh, how lovely! What's their name?", "her name is Mochi", nil, []rememberItem{{3, "Pets: Mochi (cat)"}}},
		{"en", "we got a kitten!", "Oh, how lovely! What's their name?", "Mochi!", nil, []rememberItem{{3, "Pets: Mochi (cat)"}}},
		{"en", "I adopted a puppy", "Congratulations on the new family member! How's the first day going?", "chaotic lol, he's called Biscuit", []string{"Pets: Miso (cat)"}, []rememberItem{{3, "Pets: Miso (cat); Biscuit (dog)"}}},
		{"zh", "我们家新养了一只小猫！", "哇，好可爱的消息！它叫什么名字？", "它叫咪咪", nil, []rememberItem{{3, "宠物：咪咪（猫）"}}},
		{"zh", "我们家新养了一只小猫！", "哇，好可爱的消息！它叫什么名字？", "咪咪～", nil, []rememberItem{{3, "宠物：咪咪（猫）"}}},
		{"ja", "子猫を飼い始めたんだ！", "わあ、素敵！名前はなんていうの？", "名前はモカ", nil, []rememberItem{{3, "ペット：モカ（猫）"}}},
		{"ja", "子犬を迎えたよ", "わあ、素敵！名前はなんていうの？", "コタロウっていうの", nil, []rememberItem{{3, "ペット：コタロウ（犬）"}}},
		{"en", "my sister had her baby today!", "A new baby! Oh, that's wonderful news. What's the baby's name?", "her name is Lily", nil, []rememberItem{{5, "People: Lily (niece)"}}},
		{"zh", "我姐姐生了个女儿！", "有小宝宝啦！真是天大的好消息。宝宝叫什么名字？", "叫乐乐", []string{"身边的人：小美（姐姐）"}, []rememberItem{{5, "身边的人：小美（姐姐）；乐乐（家里的小宝宝）"}}},
		{"ja", "姉に赤ちゃんが生まれたよ！", "赤ちゃん！本当におめでとう。赤ちゃんの名前は？", "名前はハナだよ", nil, []rememberItem{{5, "身近な人：ハナ（赤ちゃん）"}}},
		// No question of hers to answer, or not one asking for a name.
		{"en", "I had a long day", "That sounds tiring. What happened?", "her name is Mochi", nil, nil},
		{"en", "we got a kitten!", "Oh, how lovely! How's the first day going?", "Chaos!", nil, nil},
		{"zh", "我们家新养了一只小猫！", "哇，好可爱的消息！它是什么性格？", "很乖", nil, nil},
		{"en", "we got a kitten!", "Oh, how lovely! What's their name?", "what would you call her?", nil, nil},
	}
	for _, tt := range tests {
		h := bot.Hints{Language: tt.lang, Text: tt.text, Turn: 2, Memories: tt.mems, Recent: []bot.ChatMessage{
			{Role: "user", Content: tt.before}, {Role: "assistant", Content: tt.asked},
		}}
		resp := reply(t, o, h)
		got, b := remembered(t, resp)
		if fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("%q after %q: remember = %s, want %v (reply %q)", tt.text, tt.asked, b, tt.want, resp.Text)
		}
	}
}

// TestOfflineCorrectsAName: a name put right ("my sister's name is Ana,
// not Anna") replaces the one kept, its other fields kept, and is said
// back as put right; a correction of a name never told corrects nothing.
func TestOfflineCorrectsAName(t *testing.T) {
	o := NewOffline()
	tests := []struct {
		lang, text string
		mems       []string
		want       []rememberItem
		says       string
	}{
		{"en", "actually my sister's name is Ana, not Anna", []string{"People: Anna (sister); Tom (ex)"}, []rememberItem{{5, "People: Tom (ex); Ana (sister)"}}, "not Anna"},
		{"en", "sorry, it's Pepa, not Pepper", []string{"Pets: Pepper (dog)"}, []rememberItem{{3, "Pets: Pepa (dog)"}}, "Pepa"},
		{"zh", "其实我妹妹叫小玉，不是小雨", []string{"身边的人：小雨（妹妹）"}, []rememberItem{{5, "身边的人：小玉（妹妹）"}}, "不是小雨"},
		{"ja", "実は妹の名前はミカじゃなくてミキなんだ", []string{"身近な人：ミカ（妹）"}, []rememberItem{{5, "身近な人：ミキ（妹）"}}, "ミキ"},
		{"en", "it's Ana, not Anna", []string{"People: Tom (ex)"}, nil, ""},
	}
	for _, tt := range tests {
		resp := reply(t, o, bot.Hints{Language: tt.lang, Text: tt.text, Turn: 1, Memories: tt.mems})
		got, b := remembered(t, resp)
		if fmt.Sprint(got) != fmt.Sprint(tt.want) || !strings.Contains(resp.Text, tt.says) {
			t.Errorf("%q: remember = %s, want %v; reply %q, want %q in it", tt.text, b, tt.want, resp.Text, tt.says)
		}
	}
}
