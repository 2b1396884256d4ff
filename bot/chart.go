package bot

import (
	"errors"
	"fmt"
	"image/color"
	"math"
	"strconv"
	"strings"
	"time"

	"hearth/bot/chart"
	"hearth/store"
)

const (
	chartDays = 30 // seed 003 §9 最近30天
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

// seriesStyles: the user's feelings, the persona's mood, closeness; the
// caption's words for them (chartWords "c_*") name these colours and dashes.
var seriesStyles = [3]struct {
	color  color.RGBA
	dashes []float64
	marker chart.Marker
}{
	{color.RGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff}, nil, chart.Circle},
	{color.RGBA{R: 0xff, G: 0x7f, B: 0x0e, A: 0xff}, []float64{5, 3}, chart.Triangle},
	{color.RGBA{R: 0x55, G: 0x55, B: 0x55, A: 0xff}, []float64{0, 4}, chart.Square},
}

// The value axis: mood and closeness run -100..100 (seed 001), gridlines
// every 50 (hearth's choice).
const (
	chartMin, chartMax, chartStep = -100, 100, 50
	// chartTickEvery labels every seventh day, counted back from today.
	chartTickEvery = 7
)

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
func drawChart(lang string, first time.Time, days []chartDay) ([]byte, string, []chart.Text, error) {
	some := false
	for _, d := range days {
		some = some || d.hasYou || d.hasMood || d.hasCloseness
	}
	if !some {
		return nil, "", nil, errors.New("no data yet")
	}
	fonts, err := chart.LoadFonts()
	if err != nil {
		return nil, "", nil, fmt.Errorf("chart: %w", err)
	}
	numbered := false
	label := func(key string, n int) string {
		if w := chartWord(lang, key); fonts.Covers(w) {
			return w
		}
		if n > 0 {
			numbered = true
			return fmt.Sprint(n)
		}
		return ""
	}
	c := chart.Chart{
		Title:  label("title", 0),
		XLabel: label("x", 0),
		YLabel: label("y", 0),
		YMin:   chartMin, YMax: chartMax, YStep: chartStep,
	}
	for i := range days {
		tick := ""
		if (len(days)-1-i)%chartTickEvery == 0 {
			tick = first.AddDate(0, 0, i).Format("01-02")
		}
		c.XTicks = append(c.XTicks, tick)
	}
	for s, key := range []string{"you", "mood", "close"} {
		st := seriesStyles[s]
		values, latest := make([]float64, len(days)), ""
		for i, d := range days {
			v, ok := [3]float64{d.you, d.mood, d.closeness}[s], [3]bool{d.hasYou, d.hasMood, d.hasCloseness}[s]
			if !ok {
				v = math.NaN()
			} else {
				latest = strconv.Itoa(int(math.Round(v)))
			}
			values[i] = v
		}
		// The latest value beside the label: a first day's three points
		// may sit on one another.
		c.Series = append(c.Series, chart.Series{Label: label(key, s+1), Note: latest, Color: st.color, Dashes: st.dashes, Marker: st.marker, Values: values})
	}
	img, drawn, err := fonts.Draw(c)
	if err != nil {
		return nil, "", drawn, err
	}
	return img, chartCaption(lang, numbered, c.YLabel == ""), drawn, nil
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
