package heart

// builtinEn returns the built-in English keywords of seed 000
// (000_c7e9a00696ccb7ec.txt). English matches whole words only, so
// inflections are listed ("worry", "worried"). Multi-word phrases that
// reverse a feeling ("not happy", "not okay") are keywords of their own.
func builtinEn() map[Emotion][]string {
	return map[Emotion][]string{
		Neutral:           {"ok", "okay", "alright", "fine", "i see", "got it"},
		Happy:             {"happy", "glad", "joy", "joyful", "yay", "delighted", "cheerful", "wonderful", "awesome", "great", "promoted", "promotion", "got the job", "good news", "passed my", "got engaged", "beautiful", "lovely", "so pretty", "amazing"},
		Excited:           {"excited", "exciting", "thrilled", "can't wait", "cant wait", "pumped", "hyped", "woohoo", "stoked", "omg"},
		Grateful:          {"thank you", "thanks", "thank", "thx", "grateful", "appreciate", "appreciated", "thankful"},
		Curious:           {"curious", "wonder", "wondering", "why", "interesting", "fascinating", "what if"},
		HelpSeeking:       {"help", "help me", "please help", "need help", "what should i do", "stuck", "advice", "sos"},
		InfoSeeking:       {"how do", "how to", "what is", "what's", "where", "when", "which", "explain", "tell me", "how many", "how much"},
		ValidationSeeking: {"am i right", "is that ok", "is it okay", "do you think", "am i wrong", "was i wrong", "is it normal", "am i enough", "do you like me", "was that stupid"},
		Sad:               {"sad", "unhappy", "not happy", "not okay", "not ok", "not fine", "depressed", "crying", "cry", "cried", "heartbroken", "miserable", "upset", "tears", "hurt", "broke up", "break up", "breakup", "dumped", "passed away", "so tired of", "tired of all", "exhausted", "worn out", "awful", "terrible", "heartbreak", "yelled at me", "need a hug", "i'll miss", "miss her", "miss him", "miss them", "sadness", "grief", "grieving", "heavy heart"},
		Anxious:           {"anxious", "anxiety", "worried", "worry", "nervous", "scared", "afraid", "panic", "stressed", "stress", "overwhelmed", "can't sleep", "freaking out"},
		Angry:             {"angry", "mad", "furious", "pissed", "hate", "rage", "outraged", "livid"},
		Lonely:            {"lonely", "alone", "lonesome", "isolated", "no one", "nobody", "miss you", "no friends"},
		Frustrated:        {"frustrated", "frustrating", "annoyed", "annoying", "ugh", "argh", "fed up", "give up", "tired of", "sick of", "doesn't work", "not working"},
	}
}

// enNegators are the words that negate an English keyword when one of them
// is among the enNegationWindow words before it in the same clause.
func enNegators() []string {
	return []string{"not", "no", "never", "don't", "dont", "doesn't", "didn't", "isn't", "wasn't", "aren't", "weren't", "can't", "cannot", "won't", "hardly", "barely", "nor", "without", "neither", "ain't"}
}
