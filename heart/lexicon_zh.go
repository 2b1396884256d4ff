package heart

// builtinZh returns the built-in Chinese keywords of seed 000
// (000_c7e9a00696ccb7ec.txt, "heuristic detection"). Chinese matches by
// substring, so forms that contain a shorter keyword ("不开心" ⊃ "开心") are
// listed on purpose: the longer match wins (see Detect). It is a function,
// not a table variable, so the package holds no mutable state.
func builtinZh() map[Emotion][]string {
	return map[Emotion][]string{
		Neutral:           {"嗯", "好的", "还行", "知道了", "一般般"},
		Happy:             {"开心", "高兴", "快乐", "幸福", "太好了", "哈哈", "愉快", "真棒", "美滋滋", "升职", "加薪", "考上了", "录取", "好消息", "通过了", "考上"},
		Excited:           {"激动", "兴奋", "太棒了", "期待", "迫不及待", "终于"},
		Grateful:          {"谢谢", "感谢", "多谢", "感激", "谢了", "辛苦了", "多亏"},
		Curious:           {"好奇", "为什么", "想知道", "有意思", "有趣", "神奇"},
		HelpSeeking:       {"帮帮我", "帮我", "救命", "怎么办", "求助", "需要帮助", "拜托"},
		InfoSeeking:       {"请问", "怎么", "如何", "哪里", "多少", "告诉我", "是什么", "什么时候", "查一下"},
		ValidationSeeking: {"对吗", "对不对", "你觉得呢", "我是不是", "我做得好吗", "我够好吗", "会不会讨厌我"},
		Sad:               {"难过", "伤心", "不开心", "不高兴", "哭", "失落", "低落", "沮丧", "心痛", "难受", "郁闷", "悲伤", "失恋", "分手", "被甩", "去世", "好累", "被骂", "骂了我"},
		Anxious:           {"焦虑", "担心", "紧张", "不安", "害怕", "慌", "压力大", "压力好大", "睡不着", "压力"},
		Angry:             {"生气", "气死", "愤怒", "火大", "讨厌", "烦死了", "恼火", "可恶"},
		Lonely:            {"孤独", "寂寞", "孤单", "一个人", "没人陪", "没人理我", "想有人陪", "想她", "想他", "舍不得"},
		Frustrated:        {"烦", "无语", "受不了", "崩溃", "累死了", "搞不定", "又失败", "心累"},
	}
}

// zhNegators precede a Chinese keyword to negate it ("不开心" is handled as
// its own sad keyword; "不担心" and "没有难过" are negated). Checked as
// suffixes of the text before the keyword, longest first is unnecessary
// because any hit negates.
func zhNegators() []string {
	return []string{"不", "没", "没有", "别", "未", "不太", "不是很", "不怎么", "没那么", "不那么", "不很", "並不", "無"}
}

// zhNegationExceptions end in a negator character but negate nothing
// ("特别开心" is very happy): a negator hit preceded by one of them is ignored.
func zhNegationExceptions() []string {
	return []string{"特别", "分别", "区别", "性别", "级别", "类别", "告别", "离别", "个别", "差别", "识别", "鉴别", "派别", "出没", "淹没", "埋没"}
}
