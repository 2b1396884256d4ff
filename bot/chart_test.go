package bot

import (
	"bytes"
	"image/png"
	"os"
	"strings"
	"testing"
	"time"

	"hearth/store"
)

// chartFixture is one day or thirty days of a user's data, with gaps.
func chartFixture(days int, now time.Time) ([]store.DailyPoint, []store.Episode) {
	var pts []store.DailyPoint
	var eps []store.Episode
	for i := 0; i < days; i++ {
		if days > 1 && (i%9 == 4 || i%9 == 5) {
			continue // days without a conversation: gaps
		}
		d := now.AddDate(0, 0, -(days - 1 - i))
		pts = append(pts, store.DailyPoint{Day: d.Format(time.DateOnly), Mood: float64(i*5 - 60), Affinity: float64(10 + i*2)})
		eps = append(eps, store.Episode{At: d, Sentiment: float64(i%5-2) / 4}, store.Episode{At: d.Add(time.Minute), Sentiment: float64(i%3-1) / 3})
	}
	return pts, eps
}

// TestChartRendersEveryGlyph draws /me's chart in en, zh and ja with one and
// thirty days of data: every text drawn is covered by its font (no .notdef
// boxes), has a width, and what the image cannot say in the persona's
// language is in the caption.
func TestChartRendersEveryGlyph(t *testing.T) {
	now := time.Date(2026, 3, 30, 21, 0, 0, 0, time.UTC)
	for _, lang := range []string{"en", "zh", "ja"} {
		for _, n := range []int{1, 30} {
			pts, eps := chartFixture(n, now)
			first, days := chartData(pts, eps, now, time.UTC)
			img, caption, drawn, err := drawChart(lang, first, days)
			if err != nil {
				t.Fatalf("%s %d days: %v", lang, n, err)
			}
			if _, err := png.Decode(bytes.NewReader(img)); err != nil {
				t.Fatalf("%s %d days: not a PNG: %v", lang, n, err)
			}
			if dir := os.Getenv("HEARTH_CHART_DIR"); dir != "" {
				os.WriteFile(dir+"/chart-"+lang+"-"+time.Duration(n).String()+".png", img, 0o644)
			}
			var texts []string
			for _, d := range drawn {
				texts = append(texts, d.S)
				if !d.Face.Covers(d.S) || d.Face.Width(d.S) <= 0 {
					t.Errorf("%s %d days: %q drawn with %s lacks glyphs", lang, n, d.S, d.Face.Name())
				}
			}
			all := strings.Join(texts, "|")
			for _, want := range []string{"03-30", "100", "-100"} {
				if !strings.Contains(all, want) {
					t.Errorf("%s %d days: the image has no %q (texts %q)", lang, n, want, all)
				}
			}
			for _, key := range []string{"you", "mood", "close", "title"} {
				w := chartWord(lang, key)
				if !strings.Contains(all, w) && !strings.Contains(caption, w) {
					t.Errorf("%s: %q is neither drawn nor in the caption %q", lang, w, caption)
				}
			}
			// The legend notes each series' latest value: a first day's
			// points may hide one another.
			for _, want := range []string{"|-42|", "|-60|", "|10|"} {
				if n == 1 && !strings.Contains("|"+all+"|", want) {
					t.Errorf("%s: the legend does not note %s (texts %q)", lang, want, all)
				}
			}
			if lang == "en" && !strings.Contains(all, "date") {
				t.Errorf("en: axes unlabelled: %q", all)
			}
		}
	}
	if _, _, _, err := drawChart("en", now, make([]chartDay, chartDays)); err == nil {
		t.Error("a chart without data was drawn")
	}
}
