package bot

// senseTexts answer a voice note that could not be heard (DESIGN §12 "every
// failure still yields an honest text answer"), per reason, in en, zh and
// ja. They say what happened in the companion's voice and never guess at
// what was said.
var senseTexts = map[unheard][3]string{
	unheardUnclear: {
		"I'm sorry, I couldn't make out your voice note. Could you say it again, or write it to me?",
		"抱歉，我没能听清你的语音。可以再说一遍，或者打字告诉我吗？",
		"ごめんね、ボイスメッセージがうまく聞き取れなかったの。もう一度送るか、文字で教えてくれる？",
	},
	unheardTooLong: {
		"That voice note is longer than I can listen to in one go. Could you send a shorter one, or write me the gist?",
		"这条语音太长了，我一次听不完。可以发一条短一点的，或者打字告诉我大概吗？",
		"そのボイスメッセージは長すぎて、一度に聞けないの。短めに送るか、要点を文字で教えてくれる？",
	},
	unheardTooLarge: {
		"That recording is too large for me to open. Could you send a shorter voice note, or write it to me?",
		"这段录音太大了，我打不开。可以发一条短一点的语音，或者打字告诉我吗？",
		"その録音は大きすぎて開けないの。短めのボイスメッセージか、文字で教えてくれる？",
	},
	unheardFormat: {
		"I can't open that kind of audio file, I'm sorry. Could you send it as a voice note, or write it to me?",
		"抱歉，这种格式的音频我打不开。可以发一条语音，或者打字告诉我吗？",
		"ごめんね、その形式の音声ファイルは開けないの。ボイスメッセージで送るか、文字で教えてくれる？",
	},
	unheardOff: {
		"I can't listen to voice notes right now, I'm sorry. Could you write it to me instead?",
		"抱歉，我现在没办法听语音。可以打字告诉我吗？",
		"ごめんね、いまはボイスメッセージを聞けないの。文字で教えてくれる？",
	},
}

// senseText is the answer to an unheard voice note in lang.
func senseText(lang string, why unheard) string {
	t, ok := senseTexts[why]
	if !ok {
		t = senseTexts[unheardUnclear]
	}
	return t[langIndex(lang)]
}
