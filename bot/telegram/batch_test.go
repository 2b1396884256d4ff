package telegram

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"

	"hearth/bot"
	"hearth/bot/telegram/telegramtest"
)

// batchInbound is a bot.BatchInbound that records each batch and can fail
// the first ones, like a busy store.
type batchInbound struct {
	recInbound
	bmu      sync.Mutex
	batches  [][]string // message ids per accepted batch
	failures int
	seen     []string // the saved offset at each HandleMessages call
}

func (b *batchInbound) HandleMessages(_ context.Context, ms []bot.Message) error {
	b.bmu.Lock()
	defer b.bmu.Unlock()
	b.seen = append(b.seen, b.cursors.get(offsetCursor))
	if b.failures > 0 {
		b.failures--
		return fmt.Errorf("store busy")
	}
	var ids []string
	for _, m := range ms {
		ids = append(ids, m.MessageID)
		b.recInbound.mu.Lock()
		b.msgs = append(b.msgs, m)
		b.recInbound.mu.Unlock()
	}
	b.batches = append(b.batches, ids)
	return nil
}

// A poll's messages reach a BatchInbound in one call per run of messages
// (a reaction between them keeps its place), the offset is saved only once
// the batch is stored, and a failed batch is retried whole.
func TestPollBatchStoredInOneCall(t *testing.T) {
	f := telegramtest.NewServer(t, testToken)
	cursors := newMemCursors()
	tr := newTransport(t, f, cursors, nil)
	chat, ann := telegramtest.PrivateChat(42), telegramtest.User(42, "Ann")
	f.Push("message", telegramtest.TextMessage(1, chat, ann, "one"))
	f.Push("message", telegramtest.TextMessage(2, chat, ann, "two"))
	f.Push("message_reaction", telegramtest.Reaction(chat, 1001, ann, "👍", 1700000003))
	f.Push("message", telegramtest.TextMessage(3, chat, ann, "three"))
	last := f.Push("message", telegramtest.TextMessage(4, chat, ann, "four"))
	in := &batchInbound{recInbound: recInbound{cursors: cursors}, failures: 2}
	run(t, tr, in)
	waitFor(t, "every message", func() bool { return len(in.messages()) == 4 })
	waitFor(t, "the offset", func() bool { return cursors.get(offsetCursor) == fmt.Sprint(last+1) })

	in.bmu.Lock()
	defer in.bmu.Unlock()
	if !slices.EqualFunc(in.batches, [][]string{{"1", "2"}, {"3", "4"}}, slices.Equal) {
		t.Errorf("batches = %v, want [[1 2] [3 4]]", in.batches)
	}
	for i, off := range in.seen {
		if off != "" {
			t.Errorf("batch call %d saw offset %q saved before the poll was stored", i, off)
		}
	}
	if len(in.seen) != 4 {
		t.Errorf("%d batch calls, want 2 failures and 2 stored batches", len(in.seen))
	}
	if r := in.reactionList(); len(r) != 1 {
		t.Errorf("reactions = %v, want the one between the batches", r)
	}
	var ids []string
	for _, m := range in.messages() {
		ids = append(ids, m.MessageID)
	}
	if !slices.Equal(ids, []string{"1", "2", "3", "4"}) {
		t.Errorf("messages in order %v", ids)
	}
}
