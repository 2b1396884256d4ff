package heart

// builtinJa returns the built-in Japanese keywords of seed 000
// (000_c7e9a00696ccb7ec.txt). Adjectives are listed by stem ("嬉し",
// "悲し") so that both "嬉しい" and the negated "嬉しくない" are seen; the
// negated forms that mean the opposite feeling are sad keywords of their own.
// Half-width katakana in user text is folded before matching (see Fold).
func builtinJa() map[Emotion][]string {
	return map[Emotion][]string{
		// 辛い is also からい (spicy): a taste of food is no sorrow ("辛いの好き？"
		// is a question about curry, not pain). The longer hit wins.
		Neutral:           {"なんです", "なんですが", "なんですけど", "まあまあ", "普通", "了解", "うん", "辛いの好き", "辛いのが好き", "辛いの苦手", "辛いのが苦手", "辛いの食べ", "辛いもの好き", "辛いもの食べ", "辛いもの苦手", "辛い物", "辛い料理", "辛いラーメン", "辛いカレー", "辛口", "激辛"},
		Happy:             {"嬉し", "うれし", "楽し", "たのし", "幸せ", "やった", "最高", "わーい", "よかった", "昇進", "合格", "受かった", "内定", "いい知らせ"},
		Excited:           {"ワクワク", "わくわく", "ドキドキ", "楽しみ", "興奮", "テンション上が", "すごい"},
		Grateful:          {"ありがとう", "感謝", "おかげ", "助かった", "サンキュー"},
		Curious:           {"気になる", "なんで", "どうして", "知りたい", "不思議", "面白そう", "興味"},
		HelpSeeking:       {"助けて", "たすけて", "手伝って", "どうしよう", "困って", "相談"},
		InfoSeeking:       {"教えて", "何ですか", "どうやって", "どこで", "どこに", "いつですか", "方法", "知ってる"},
		ValidationSeeking: {"合ってる", "大丈夫かな", "変かな", "どう思う", "私でいい", "間違ってない", "ダメかな"},
		Sad:               {"悲し", "かなし", "辛い", "つらい", "泣", "落ち込", "嬉しくない", "楽しくない", "切ない", "失恋", "別れた", "振られた", "亡くなった", "しんどい", "怒られた", "きつかった", "きつい"},
		Anxious:           {"不安", "心配", "怖", "こわい", "緊張", "焦", "眠れない", "ストレス"},
		Angry:             {"怒", "ムカつ", "むかつ", "イライラ", "腹立", "ふざけるな", "許さない", "うざい"},
		Lonely:            {"寂し", "さびし", "孤独", "ひとりぼっち", "一人ぼっち", "会いたい"},
		Frustrated:        {"もういや", "嫌だ", "うまくいかない", "疲れた", "面倒", "めんどくさい", "最悪", "うんざり", "やってられない"},
	}
}

// jaNegators follow a Japanese keyword to negate it ("嬉しくない",
// "心配ない", "怖くなかった"). Checked as prefixes of the text after the
// keyword.
func jaNegators() []string {
	return []string{"くない", "くなかった", "くなく", "じゃない", "じゃなかった", "ではない", "ではなかった", "ない", "なかった", "ません", "しない", "してない", "しないで"}
}
