package bot

import (
	"bytes"
	"errors"
	"fmt"
	"image/color"
	"strings"
	"time"

	"golang.org/x/image/font/sfnt"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"hearth/store"
)

// Chart geometry in points: 6×3 inches reads well on a phone; the legend
// sits in its own column right of the axes, never over the data or the
// frame.
const (
	chartWidth   = 6 * vg.Inch
	chartHeight  = 3 * vg.Inch
	legendColumn = 1.4 * vg.Inch
	legendTop    = 0.3 * vg.Inch
	chartDays    = 30 // seed 003 §9 最近30天
	// sentimentScale puts perception's sentiment (-1..1) on the mood axis
	// (-100..100, seed 001).
	sentimentScale = 100
)

// chartWords are the chart's texts in en, zh, ja: title, the three series
// and how they look, the axes, and the caption's shape.
var chartWords = map[string][3]string{
	"title":   {"Last 30 days", "最近30天", "最近30日"},
	"you":     {"your feelings", "你的感受", "あなたの気持ち"},
	"mood":    {"my mood", "我的心情", "わたしの気分"},
	"close":   {"closeness", "亲近度", "親しさ"},
	"c_you":   {"blue", "蓝色实线", "青い線"},
	"c_mood":  {"orange, dashed", "橙色虚线", "オレンジの破線"},
	"c_close": {"grey, dotted", "灰色点线", "灰色の点線"},
	"x":       {"date", "日期", "日付"},
	"y":       {"-100 to 100", "-100 到 100", "-100〜100"},
	"caption": {"📈 %s (chart below): %s", "📈 %s（见下图）：%s", "📈 %s（下のグラフ）：%s"},
	"item":    {"%s (%s)", "%s（%s）", "%s（%s）"},
	"axes":    {"dates across, %s up the side", "横轴是日期，纵轴是 %s", "横が日付、縦が %s"},
	"sep":     {"; ", "；", "、"},
}

func chartWord(lang, key string) string { return chartWords[key][langIndex(lang)] }

// chartDay is one local day of the chart; a series without data that day
// shows a gap.
type chartDay struct {
	you, mood, closeness          float64
	hasYou, hasMood, hasCloseness bool
}

// chartData lays the last chartDays local days ending on now's day out from
// the daily points (the persona's mood and affinity, written by every
// turn) and the user's episodes (perception's sentiment of what they said:
// their own feelings, seed 003 §9 "情绪趋势").
func chartData(points []store.DailyPoint, eps []store.Episode, now time.Time, loc *time.Location) (first time.Time, days []chartDay) {
	first = StartOfDay(now, loc).AddDate(0, 0, -(chartDays - 1))
	days = make([]chartDay, chartDays)
	index := func(t time.Time) int {
		y, m, d := t.In(loc).Date()
		fy, fm, fd := first.Date()
		return int(time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Sub(time.Date(fy, fm, fd, 0, 0, 0, 0, time.UTC)).Hours() / 24)
	}
	for _, p := range points {
		day, err := time.ParseInLocation(time.DateOnly, p.Day, loc)
		if i := index(day); err == nil && i >= 0 && i < chartDays {
			days[i].mood, days[i].hasMood = p.Mood, true
			days[i].closeness, days[i].hasCloseness = p.Affinity, true
		}
	}
	sum, n := make([]float64, chartDays), make([]int, chartDays)
	for _, e := range eps {
		if i := index(e.At); i >= 0 && i < chartDays {
			sum[i] += e.Sentiment
			n[i]++
		}
	}
	for i := range days {
		if n[i] > 0 {
			days[i].you, days[i].hasYou = sentimentScale*sum[i]/float64(n[i]), true
		}
	}
	return first, days
}

// drawnText is one text the chart drew, with the face it used.
type drawnText struct {
	face font.Face
	text string
}

// textRecorder is a canvas that remembers every text drawn on it.
type textRecorder struct {
	*vgimg.Canvas
	drawn *[]drawnText
}

func (r textRecorder) FillString(f font.Face, pt vg.Point, s string) {
	*r.drawn = append(*r.drawn, drawnText{f, s})
	r.Canvas.FillString(f, pt, s)
}

// covered reports whether face has a glyph for every rune of s: hearth
// embeds no CJK font (gonum's Liberation fonts only), so a text that is not
// covered would come out as boxes and goes to the caption instead.
func covered(face font.Face, s string) bool {
	var buf sfnt.Buffer
	for _, r := range s {
		if r == ' ' {
			continue
		}
		if i, err := face.Face.GlyphIndex(&buf, r); err != nil || i == 0 {
			return false
		}
	}
	return true
}

// series styles: the user's feelings, the persona's mood, closeness.
var seriesStyles = [3]struct {
	color  color.RGBA
	dashes []vg.Length
	shape  draw.GlyphDrawer
}{
	{color.RGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff}, nil, draw.CircleGlyph{}},
	{color.RGBA{R: 0xff, G: 0x7f, B: 0x0e, A: 0xff}, []vg.Length{vg.Points(5), vg.Points(3)}, draw.TriangleGlyph{}},
	{color.RGBA{R: 0x55, G: 0x55, B: 0x55, A: 0xff}, []vg.Length{vg.Points(1.5), vg.Points(2.5)}, draw.SquareGlyph{}},
}

// moodChart draws /me's chart (seed 003 §9 最近30天情绪趋势): the user's
// own feelings beside the persona's mood and their closeness, over the
// last 30 days, each day a point and days without data a gap. Texts are in
// the persona's language where the embedded fonts have every glyph; the
// others (Chinese and Japanese) are left out of the image — the legend
// shows numbers — and the returned caption carries them.
func moodChart(lang string, first time.Time, days []chartDay) (png []byte, caption string, err error) {
	png, caption, _, err = drawChart(lang, first, days)
	return png, caption, err
}

// drawChart is moodChart, also returning every text it drew (tests check
// the glyphs).
func drawChart(lang string, first time.Time, days []chartDay) ([]byte, string, []drawnText, error) {
	some := false
	for _, d := range days {
		some = some || d.hasYou || d.hasMood || d.hasCloseness
	}
	if !some {
		return nil, "", nil, errors.New("no data yet")
	}
	p := plot.New()
	face := func(sty font.Font) font.Face { return plot.DefaultTextHandler.Cache().Lookup(sty, sty.Size) }
	fits := func(s string) bool { return covered(face(p.Title.TextStyle.Font), s) }
	numbered := false
	label := func(key string, n int) string {
		w := chartWord(lang, key)
		if fits(w) {
			return w
		}
		if n > 0 {
			numbered = true
			return fmt.Sprint(n)
		}
		return ""
	}
	title := chartWord(lang, "title")
	if fits(title) {
		p.Title.Text = title
	}
	p.X.Label.Text, p.Y.Label.Text = label("x", 0), label("y", 0)
	p.Y.Min, p.Y.Max = -100, 100
	// Half a day either side, so the first and last days' points sit
	// inside the frame, not on it.
	p.X.Min = float64(first.Add(-12 * time.Hour).Unix())
	p.X.Max = float64(first.AddDate(0, 0, chartDays-1).Add(12 * time.Hour).Unix())
	p.X.Tick.Marker = dateTicks{first: first}
	p.Add(plotter.NewGrid())

	leg := plot.NewLegend()
	leg.Left, leg.Top = true, true
	for s, key := range []string{"you", "mood", "close"} {
		st := seriesStyles[s]
		var runs []plotter.XYs
		var run plotter.XYs
		for i, d := range days {
			v, ok := [3]float64{d.you, d.mood, d.closeness}[s], [3]bool{d.hasYou, d.hasMood, d.hasCloseness}[s]
			if !ok {
				if len(run) > 0 {
					runs, run = append(runs, run), nil
				}
				continue
			}
			run = append(run, plotter.XY{X: float64(first.AddDate(0, 0, i).Unix()), Y: v})
		}
		if len(run) > 0 {
			runs = append(runs, run)
		}
		var thumb []plot.Thumbnailer
		for _, r := range runs {
			line, pts, err := plotter.NewLinePoints(r)
			if err != nil {
				return nil, "", nil, fmt.Errorf("chart %s: %w", key, err)
			}
			line.Color, line.Dashes, line.Width = st.color, st.dashes, vg.Points(1.5)
			pts.Color, pts.Shape, pts.Radius = st.color, st.shape, vg.Points(2.5)
			p.Add(line, pts)
			thumb = []plot.Thumbnailer{line, pts}
		}
		if thumb == nil {
			l, pt, _ := plotter.NewLinePoints(plotter.XYs{{}})
			l.Color, l.Dashes, pt.Color, pt.Shape = st.color, st.dashes, st.color, st.shape
			thumb = []plot.Thumbnailer{l, pt}
		}
		leg.Add(label(key, s+1), thumb...)
	}

	var drawn []drawnText
	img := vgimg.New(chartWidth, chartHeight)
	c := draw.New(textRecorder{img, &drawn})
	p.Draw(draw.Crop(c, 0, -legendColumn, 0, 0))
	leg.Draw(draw.Crop(c, chartWidth-legendColumn+vg.Points(8), 0, 0, -legendTop))
	for _, d := range drawn {
		if !covered(d.face, d.text) || d.face.Width(d.text) <= 0 {
			return nil, "", drawn, fmt.Errorf("chart text %q cannot be drawn with %s", d.text, d.face.Name())
		}
	}
	var buf bytes.Buffer
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(&buf); err != nil {
		return nil, "", drawn, fmt.Errorf("chart encode: %w", err)
	}
	return buf.Bytes(), chartCaption(lang, numbered, p.Y.Label.Text == ""), drawn, nil
}

// chartCaption is the card's line about the chart, in the persona's
// language: the title, each series with how it looks (numbered when the
// image's legend shows numbers), and the axes when the image could not
// label them.
func chartCaption(lang string, numbered, axes bool) string {
	var items []string
	for i, key := range []string{"you", "mood", "close"} {
		item := fmt.Sprintf(chartWord(lang, "item"), chartWord(lang, key), chartWord(lang, "c_"+key))
		if numbered {
			item = fmt.Sprintf("%d %s", i+1, item)
		}
		items = append(items, item)
	}
	if axes {
		items = append(items, fmt.Sprintf(chartWord(lang, "axes"), chartWord(lang, "y")))
	}
	return fmt.Sprintf(chartWord(lang, "caption"), chartWord(lang, "title"), strings.Join(items, chartWord(lang, "sep")))
}

// dateTicks labels the 30-day axis with a date every week and a minor
// tick every day.
type dateTicks struct{ first time.Time }

func (d dateTicks) Ticks(min, max float64) []plot.Tick {
	var ts []plot.Tick
	for i := 0; i < chartDays; i++ {
		day := d.first.AddDate(0, 0, i)
		t := plot.Tick{Value: float64(day.Unix())}
		if (chartDays-1-i)%7 == 0 {
			t.Label = day.Format("01-02")
		}
		ts = append(ts, t)
	}
	return ts
}
