package bot

import (
	"bytes"
	"errors"
	"fmt"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"hearth/store"
)

// Chart size in points; 6×3 inches reads well on a phone.
const (
	chartWidth  = 6 * vg.Inch
	chartHeight = 3 * vg.Inch
)

// moodChart draws the /me chart: daily mood (-100..100) and affinity
// (0..100) over the last 30 days (seed 003 §9 最近30天情绪趋势).
func moodChart(points []store.DailyPoint, title string) ([]byte, error) {
	if len(points) == 0 {
		return nil, errors.New("no daily points yet")
	}
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "day"
	p.Y.Min, p.Y.Max = -100, 100
	p.X.Tick.Marker = plot.TimeTicks{Format: "01-02"}
	mood := make(plotter.XYs, 0, len(points))
	aff := make(plotter.XYs, 0, len(points))
	for _, pt := range points {
		day, err := time.Parse(time.DateOnly, pt.Day)
		if err != nil {
			return nil, fmt.Errorf("chart day %q: %w", pt.Day, err)
		}
		x := float64(day.Unix())
		mood = append(mood, plotter.XY{X: x, Y: pt.Mood})
		aff = append(aff, plotter.XY{X: x, Y: pt.Affinity})
	}
	ml, mp, err := plotter.NewLinePoints(mood)
	if err != nil {
		return nil, fmt.Errorf("chart mood: %w", err)
	}
	al, ap, err := plotter.NewLinePoints(aff)
	if err != nil {
		return nil, fmt.Errorf("chart affinity: %w", err)
	}
	al.Dashes = []vg.Length{vg.Points(4), vg.Points(2)}
	p.Add(plotter.NewGrid(), ml, mp, al, ap)
	p.Legend.Add("mood", ml)
	p.Legend.Add("affinity", al)
	p.Legend.Top = true
	w, err := p.WriterTo(chartWidth, chartHeight, "png")
	if err != nil {
		return nil, fmt.Errorf("chart render: %w", err)
	}
	var buf bytes.Buffer
	if _, err := w.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("chart encode: %w", err)
	}
	return buf.Bytes(), nil
}
