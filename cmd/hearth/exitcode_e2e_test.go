package main

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hearth/store"
)

// TestConfigErrorsExit2: what only the operator can fix exits 2, which
// contrib/systemd/hearth@.service does not restart (RestartPreventExitStatus=2),
// and leaves a new FILE uncreated; what may pass on its own (another
// process holding FILE) exits 1 and is restarted.
func TestConfigErrorsExit2(t *testing.T) {
	dir := t.TempDir()
	ok := filepath.Join(dir, "ok.yaml")
	writeFile(t, ok, "name: Luna\nlanguage: en\npersona: hi\n")
	nan := filepath.Join(dir, "nan.yaml")
	writeFile(t, nan, "name: Luna\nlanguage: en\npersona: hi\ndependency: .nan\n")

	future := filepath.Join(dir, "future.db")
	raw, err := sql.Open("sqlite", future)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec("CREATE TABLE t (x); PRAGMA user_version = 999"); err != nil {
		t.Fatal(err)
	}
	raw.Close()

	held := filepath.Join(dir, "held.db")
	holder, err := store.Open(context.Background(), held, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()

	for _, c := range []struct {
		name, db, persona string
		env               []string
		code              int
		want              string
	}{
		{"persona NaN", "new1.db", nan, []string{"DISCORD_BOT_TOKEN=x"}, 2, "key dependency"},
		{"telegram endpoint without scheme", "new2.db", ok, []string{"TELEGRAM_BOT_TOKEN=1:x", "TELEGRAM_API_ENDPOINT=127.0.0.1:9/bot%s/%s"}, 2, "TELEGRAM_API_ENDPOINT"},
		{"telegram endpoint without %s", "new3.db", ok, []string{"TELEGRAM_BOT_TOKEN=1:x", "TELEGRAM_API_ENDPOINT=http://127.0.0.1:9/bot"}, 2, "TELEGRAM_API_ENDPOINT"},
		{"admin port out of range", "new5.db", ok, []string{"DISCORD_BOT_TOKEN=x", "HEARTH_HTTP_ADDR=127.0.0.1:99999"}, 2, "HEARTH_HTTP_ADDR"},
		{"discord base without scheme", "new4.db", ok, []string{"DISCORD_BOT_TOKEN=x", "DISCORD_API_BASE=127.0.0.1:7"}, 2, "DISCORD_API_BASE"},
		{"newer schema", "future.db", "", []string{"DISCORD_BOT_TOKEN=x"}, 2, "newer than this hearth"},
		{"not a database", "ok.yaml", "", []string{"DISCORD_BOT_TOKEN=x"}, 2, "not a SQLite database"},
		{"held by another process", "held.db", ok, []string{"DISCORD_BOT_TOKEN=x"}, 1, "in use by"},
	} {
		t.Run(c.name, func(t *testing.T) {
			db := filepath.Join(dir, c.db)
			_, statErr := os.Stat(db)
			args := []string{"run", "--db", db}
			if c.persona != "" {
				args = append(args, "--persona", c.persona)
			}
			r := runHearth(t, "", c.env, args...)
			if r.code != c.code || !strings.Contains(r.stderr, c.want) {
				t.Fatalf("exit %d, want %d with %q; stderr:\n%s", r.code, c.code, c.want, r.stderr)
			}
			if _, err := os.Stat(db); os.IsNotExist(statErr) && err == nil {
				t.Errorf("a refused start created %s", c.db)
			}
		})
	}
}
