package telegramtest

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// file is one file the fake holds for getFile and downloads.
type file struct {
	path string // file_path: relative, or absolute in local mode
	data []byte
	size int64 // what getFile reports
}

// AddFile makes fileID downloadable with data, as Telegram holds a voice
// note or photo a user sent; it returns the file_path getFile reports.
func (s *Server) AddFile(fileID string, data []byte) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.files == nil {
		s.files = map[string]file{}
	}
	path := fmt.Sprintf("media/file_%d", len(s.files))
	s.files[fileID] = file{path: path, data: data, size: int64(len(data))}
	return path
}

// ReportSize makes getFile report size for fileID instead of its real one
// (a file too large to download).
func (s *Server) ReportSize(fileID string, size int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f := s.files[fileID]
	f.size = size
	s.files[fileID] = f
}

// LocalMode makes getFile answer absolute paths, as a Bot API server
// started with --local does; the files are written under dir.
func (s *Server) LocalMode(t testing.TB, dir string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.localMode = true
	for id, f := range s.files {
		abs := filepath.Join(dir, filepath.Base(f.path))
		if err := os.WriteFile(abs, f.data, 0o600); err != nil {
			t.Fatal(err)
		}
		f.path = abs
		s.files[id] = f
	}
}

// Downloads returns the file paths downloaded over HTTP, in order.
func (s *Server) Downloads() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.downloads...)
}

// getFile answers the Bot API File object of fileID.
func (s *Server) getFile(w http.ResponseWriter, fileID string) {
	s.mu.Lock()
	f, ok := s.files[fileID]
	s.mu.Unlock()
	if !ok {
		writeJSON(w, http.StatusBadRequest, `{"ok":false,"error_code":400,"description":"Bad Request: invalid file_id"}`)
		return
	}
	writeJSON(w, http.StatusOK, fmt.Sprintf(`{"ok":true,"result":{"file_id":%q,"file_unique_id":"u%s","file_size":%d,"file_path":%q}}`,
		fileID, fileID, f.size, f.path))
}

// download serves /file/bot<token>/<file_path>, as api.telegram.org does.
func (s *Server) download(w http.ResponseWriter, r *http.Request) {
	token, path, ok := strings.Cut(strings.TrimPrefix(r.URL.Path, "/file/bot"), "/")
	if !ok || token != s.token {
		http.Error(w, "Unauthorized", http.StatusUnauthorized)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, f := range s.files {
		if f.path == path && !s.localMode {
			s.downloads = append(s.downloads, path)
			w.Header().Set("Content-Type", "application/octet-stream")
			_, _ = w.Write(f.data)
			return
		}
	}
	http.NotFound(w, r)
}
