package discord

// StandardCommands is the slash-command list of DESIGN §8, for
// Config.Commands, so the commands Discord users see are the ones every
// transport understands. Descriptions are English: Discord shows them in
// the command picker, before the persona has said anything.
func StandardCommands() []Command {
	return []Command{
		{Name: "start", Description: "Say hello and begin"},
		{Name: "help", Description: "What I can do"},
		{Name: "me", Description: "Our relationship card and your mood chart"},
		{Name: "why", Description: "Why I feel and act the way I do now"},
		{Name: "memories", Description: "What I remember about you"},
		{Name: "remember", Description: "Ask me to remember something", Option: "text"},
		{Name: "forget", Description: "Forget memory N, or all of them", Option: "n"},
		{Name: "export", Description: "All your data, as a JSON file"},
		{Name: "quiet", Description: "No messages from me first, for a while or until off", Option: "duration"},
		{Name: "report", Description: "Report a problem with my answers"},
	}
}
