// Package bot is hearth's turn engine and the seam every transport and brain
// plugs into. It owns the transport-neutral message types (Message, Reaction,
// Outgoing), the interfaces transports implement (Transport, Sender), the
// interface brains implement (Brain), and the Handler that runs one turn of
// DESIGN §3 for each inbound message.
//
// Transports (bot/telegram, bot/discord, bot/console) and brains (bot/brain)
// import this package; this package imports none of them.
package bot
