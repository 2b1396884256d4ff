// Package lifeloop is hearth's proactive life loop (DESIGN §7, seed 004,
// seed 003 §6-7): on a cron schedule from the persona it walks every user
// with a private chat, asks a deterministic gate whether the bot may reach
// out at all, and only for users the gate lets through makes one LLM call
// whose motivation is care, not a timer. The model may answer
// {"speak": false}; silence is a valid outcome.
//
// Tick(ctx, now) is one pass and is what tests and `hearth simulate` drive;
// Run(ctx) only wires Tick and the daily jobs to cron and stops with ctx.
package lifeloop
