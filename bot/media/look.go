package media

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"strings"

	"hearth/bot"
)

// Picture fetches a photo, at most bot.MaxPhotoBytes, and returns it as a
// data: URL: the model gets the image itself, never a link (which could
// carry a platform token). Only image types models read are accepted.
func (s *Senses) Picture(ctx context.Context, ref bot.MediaRef, fetch bot.MediaFetcher) (string, error) {
	if ref.Size > bot.MaxPhotoBytes {
		return "", fmt.Errorf("picture: %d bytes: %w", ref.Size, bot.ErrMediaTooLarge)
	}
	ctx, cancel := context.WithTimeout(ctx, PictureTimeout)
	defer cancel()
	rc, err := fetch.FetchMedia(ctx, ref)
	if err != nil {
		return "", fmt.Errorf("picture: fetch: %w", err)
	}
	defer rc.Close()
	var buf bytes.Buffer
	if ref.Size > 0 {
		buf.Grow(int(ref.Size) + bytes.MinRead)
	}
	if _, err := buf.ReadFrom(io.LimitReader(rc, bot.MaxPhotoBytes+1)); err != nil {
		return "", fmt.Errorf("picture: download: %w", err)
	}
	if buf.Len() > bot.MaxPhotoBytes {
		return "", fmt.Errorf("picture: more than %d bytes: %w", bot.MaxPhotoBytes, bot.ErrMediaTooLarge)
	}
	mime := http.DetectContentType(buf.Bytes())
	switch mime {
	case "image/jpeg", "image/png", "image/gif", "image/webp":
	default:
		return "", fmt.Errorf("picture: %s is not an image a model reads", strings.SplitN(mime, ";", 2)[0])
	}
	return "data:" + mime + ";base64," + base64.StdEncoding.EncodeToString(buf.Bytes()), nil
}
