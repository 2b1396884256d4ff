// Package console is hearth's terminal transport: one input line is one
// message from one user; everything the bot says is printed. `hearth chat`
// and `hearth run --console` use it, and it works with piped stdin.
package console

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"hearth/bot"
)

// MaxLine bounds one input line (1 MiB); longer lines are cut there.
const MaxLine = 1 << 20

// Config wires a console transport.
type Config struct {
	In   io.Reader
	Out  io.Writer
	User string // the user's id; the chat id is the same
	// Name is how the companion calls the user; "" means User.
	Name    string
	Persona string // printed before each reply
	// FileDir receives attachments (the /me chart, /export) as files whose
	// paths are printed, and keeps them. "" means a private directory made
	// in the OS temp dir on first use and removed by Close, so a user's
	// data (an /export holds all of it) never piles up in /tmp.
	FileDir string
	Now     func() time.Time
}

// Transport reads lines from In and writes replies to Out.
type Transport struct {
	cfg   Config
	runID int64
	inSeq int // touched by Run only

	mu      sync.Mutex // serialises writes to Out; guards the fields below
	outSeq  int
	tempDir string // made by writeFile when FileDir is ""; removed by Close
	closed  bool
}

var _ bot.Transport = (*Transport)(nil)

// New returns a console transport.
func New(cfg Config) *Transport {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.User == "" {
		cfg.User = "you"
	}
	if cfg.Name == "" {
		cfg.Name = cfg.User
	}
	// Message ids must stay unique across restarts of the same instance
	// file (they are deduplicated), so they start with this run's clock.
	return &Transport{cfg: cfg, runID: time.Now().UnixNano()}
}

// Name is "console".
func (t *Transport) Name() string { return bot.PlatformConsole }

// Chat is the console user's private chat.
func (t *Transport) Chat() bot.ChatRef {
	return bot.ChatRef{Platform: bot.PlatformConsole, ChatID: t.cfg.User, Kind: bot.ChatPrivate}
}

// Run delivers each non-empty input line as a message and returns nil at the
// end of input or when ctx ends. A read blocked on a terminal cannot be
// interrupted; the process exits around it.
func (t *Transport) Run(ctx context.Context, in bot.Inbound) error {
	lines := make(chan string)
	errc := make(chan error, 1)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(t.cfg.In)
		sc.Buffer(make([]byte, 0, 64*1024), MaxLine)
		for sc.Scan() {
			select {
			case lines <- sc.Text():
			case <-ctx.Done():
				return
			}
		}
		errc <- sc.Err()
	}()
	for {
		select {
		case <-ctx.Done():
			return nil
		case line, ok := <-lines:
			if !ok {
				if err := <-errc; err != nil {
					return fmt.Errorf("console input: %w", err)
				}
				return nil
			}
			line = strings.TrimSpace(line)
			if line == "" {
				continue
			}
			t.inSeq++
			m := bot.Message{
				Platform: bot.PlatformConsole, ChatID: t.cfg.User, ChatKind: bot.ChatPrivate,
				MessageID: strconv.FormatInt(t.runID, 36) + "-" + strconv.Itoa(t.inSeq),
				UserID:    t.cfg.User, UserName: t.cfg.Name, Text: line, Modality: bot.ModalityText,
				At: t.cfg.Now(), Addressed: true,
			}
			if err := in.HandleMessage(ctx, m); err != nil {
				return fmt.Errorf("console message: %w", err)
			}
		}
	}
}

// Send prints out. Attachments are written to files whose paths are printed.
func (t *Transport) Send(_ context.Context, chat bot.ChatRef, out bot.Outgoing) (bot.Sent, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	var b strings.Builder
	if out.Text != "" {
		b.WriteString(t.cfg.Persona + ": " + out.Text + "\n")
	}
	for _, f := range []*bot.File{out.Photo, out.Document} {
		if f == nil {
			continue
		}
		path, err := t.writeFile(f)
		if err != nil {
			return bot.Sent{}, err
		}
		b.WriteString("[" + f.Name + ": " + path + "]\n")
	}
	for _, row := range out.Buttons {
		var cmds []string
		for _, btn := range row {
			cmds = append(cmds, btn.Label+" → "+btn.Data)
		}
		b.WriteString("[" + strings.Join(cmds, " | ") + "]\n")
	}
	if _, err := io.WriteString(t.cfg.Out, b.String()); err != nil {
		return bot.Sent{}, fmt.Errorf("console write: %w", err)
	}
	t.outSeq++
	return bot.Sent{MessageIDs: []string{strconv.FormatInt(t.runID, 36) + "-out-" + strconv.Itoa(t.outSeq)}}, nil
}

// writeFile writes one attachment; t.mu is held.
func (t *Transport) writeFile(f *bot.File) (string, error) {
	if t.closed {
		return "", errors.New("console attachment: transport closed")
	}
	dir := t.cfg.FileDir
	if dir == "" {
		if t.tempDir == "" {
			d, err := os.MkdirTemp("", "hearth-console-")
			if err != nil {
				return "", fmt.Errorf("console attachment: %w", err)
			}
			t.tempDir = d
		}
		dir = t.tempDir
	}
	ext := filepath.Ext(f.Name)
	base := strings.TrimSuffix(f.Name, ext)
	fh, err := os.CreateTemp(dir, base+"-*"+ext)
	if err != nil {
		return "", fmt.Errorf("console attachment: %w", err)
	}
	if _, err := fh.Write(f.Data); err != nil {
		fh.Close()
		return "", fmt.Errorf("console attachment: %w", err)
	}
	if err := fh.Close(); err != nil {
		return "", fmt.Errorf("console attachment: %w", err)
	}
	return fh.Name(), nil
}

// Close removes the private directory of attachments, if one was made;
// files in a configured FileDir stay. Call it once nothing is sent any
// more (after the Handler drained).
func (t *Transport) Close() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.closed = true
	if t.tempDir == "" {
		return nil
	}
	if err := os.RemoveAll(t.tempDir); err != nil {
		return fmt.Errorf("console: remove attachments: %w", err)
	}
	return nil
}

// Typing does nothing on a terminal.
func (t *Transport) Typing(context.Context, bot.ChatRef) error { return nil }
