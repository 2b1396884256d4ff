// Package chart draws small line charts as PNG images: evenly spaced slots
// (days) across, one value axis up the side, a few series with gaps where a
// slot has no value, and the legend in a column of its own beside the plot.
//
// It is built on the standard library's image packages and
// golang.org/x/image (an anti-aliasing rasterizer and the Go fonts), and
// does nothing at start: LoadFonts parses the fonts when a chart is to be
// drawn, so a daemon that draws none never holds them.
package chart

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"strconv"
)

// Marker is the shape drawn at each value of a series.
type Marker int

// The markers, one per series so the series tell apart without colour.
const (
	Circle Marker = iota
	Triangle
	Square
)

// Series is one line of the chart.
type Series struct {
	Label  string
	Note   string // shown muted after the label in the legend: the latest value, say
	Color  color.RGBA
	Dashes []float64 // on, off, … lengths in points; nil for a solid line
	Marker Marker
	// Values holds one value per slot; NaN where there is none, which
	// leaves a gap (no line across it).
	Values []float64
}

// Chart is what to draw.
type Chart struct {
	Title          string // "" leaves the space to the plot
	XLabel, YLabel string
	// XTicks labels the slots, one entry per slot: "" is a slot with a
	// small tick and no label.
	XTicks            []string
	YMin, YMax, YStep float64 // the value axis and its gridlines
	Series            []Series
}

// Geometry, in points (1/72 inch); the image has scale pixels per point.
// hearth's choice: 600×300 points at 2 px a point is 1200×600 pixels, sharp
// on a phone and small as a PNG; the legend gets a column of its own.
const (
	scale        = 2
	width        = 600
	height       = 300
	marginLeft   = 40 // room for the value labels
	yLabelWidth  = 20 // added to marginLeft for the axis label
	marginRight  = 12
	marginBottom = 28 // the slots' labels
	xLabelHeight = 16 // added to marginBottom for the axis label
	marginTop    = 14
	titleHeight  = 30 // added to marginTop for the title
	legendGap    = 18 // between the plot and the legend's column

	titleSize  = 15
	labelSize  = 11.5
	tickSize   = 10.5
	legendSize = 12

	lineWidth    = 2   // a series' line
	markerRadius = 3.4 // a series' marker
	ringWidth    = 1   // the white ring around a marker
	// triangleSize and squareSize are their corners' distance from the
	// centre, in marker radii: each shape then looks as heavy as the
	// circle; triangleDrop moves the triangle down to balance on its value.
	triangleSize = 1.35
	triangleDrop = 0.2
	squareSize   = 1.25
	gridWidth    = 0.75 // gridlines and ticks
	tickLength   = 3    // a slot's tick below the plot; labelled slots twice as long

	maxGridlines = 40 // more would be a grey wash, not a grid

	labelGap = 6 // between a value label and the plot
	edgeGap  = 8 // between an axis label and the image's edge
	// centreDrop puts a text's baseline this share of its ascent below
	// the line it is centred on (the middle of a digit or lowercase letter).
	centreDrop = 0.36

	legendTop    = 8  // from the plot's top to the first legend entry
	legendRow    = 24 // from one legend entry to the next
	legendSample = 30 // the stretch of line beside each legend label
	legendPad    = 8  // between that line and the label
	noteGap      = 14 // between the longest label and the notes' column
)

// Colours of everything but the series.
var (
	textColor  = color.RGBA{0x33, 0x33, 0x33, 0xff}
	mutedColor = color.RGBA{0x77, 0x77, 0x77, 0xff}
	gridColor  = color.RGBA{0xe8, 0xe8, 0xe8, 0xff}
	zeroColor  = color.RGBA{0xbb, 0xbb, 0xbb, 0xff}
	axisColor  = color.RGBA{0x99, 0x99, 0x99, 0xff}
	white      = color.RGBA{0xff, 0xff, 0xff, 0xff}
)

// canvas is one chart being drawn: the painter, the faces, where the
// plot is, and the texts drawn so far.
type canvas struct {
	p                          *painter
	title, label, tick, legend *Face
	plot                       box
	texts                      []Text
}

// px turns points into pixels.
func px(v float64) float64 { return v * scale }

// Draw renders c as a PNG image and returns it with every text it drew.
// Every text must be one the fonts cover (see Covers): Draw fails rather
// than draw an empty box.
func (fs *Fonts) Draw(c Chart) ([]byte, []Text, error) {
	img, texts, err := fs.render(c)
	if err != nil {
		return nil, texts, err
	}
	// BestSpeed: half the time of the default level for a file 7% larger.
	var buf bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&buf, img); err != nil {
		return nil, texts, fmt.Errorf("chart encode: %w", err)
	}
	return buf.Bytes(), texts, nil
}

// render is Draw before the PNG encoding.
func (fs *Fonts) render(c Chart) (*image.RGBA, []Text, error) {
	if err := c.check(); err != nil {
		return nil, nil, err
	}
	cv := &canvas{
		p:      newPainter(width*scale, height*scale),
		title:  fs.face("Go Bold", fs.bold, px(titleSize)),
		label:  fs.face("Go Regular", fs.regular, px(labelSize)),
		tick:   fs.face("Go Regular", fs.regular, px(tickSize)),
		legend: fs.face("Go Regular", fs.regular, px(legendSize)),
	}
	cv.plot = c.plotBox(cv.legend)
	if cv.plot.right-cv.plot.left < px(width)/2 {
		return nil, nil, errors.New("chart legend labels too long for the image")
	}
	cv.text(cv.title, c.Title, cv.plot.left, px(marginTop)+cv.title.ascent(), start, textColor)
	cv.axes(c)
	// The series, the first on top.
	for s := len(c.Series) - 1; s >= 0; s-- {
		cv.series(c, c.Series[s])
	}
	cv.legendColumn(c)

	for _, t := range cv.texts {
		if !t.Face.Covers(t.S) {
			return nil, cv.texts, fmt.Errorf("chart text %q cannot be drawn with %s", t.S, t.Face.Name())
		}
	}
	return cv.p.img, cv.texts, nil
}

// axes draws the gridlines, ticks and labels of both axes.
func (cv *canvas) axes(c Chart) {
	plot, hw := cv.plot, px(gridWidth)/2
	// Value gridlines and labels; zero, where the axis has it, darker.
	for v := c.YMin; v <= c.YMax+c.YStep/1e6; v += c.YStep {
		y := math.Round(plot.y(c, v))
		cv.p.rect(plot.left, y-hw, plot.right, y+hw)
		cv.p.fill(gridColor)
		cv.text(cv.tick, strconv.FormatFloat(v, 'f', -1, 64), plot.left-px(labelGap), y+cv.tick.ascent()*centreDrop, end, mutedColor)
	}
	if c.YMin < 0 && c.YMax > 0 {
		y := math.Round(plot.y(c, 0))
		cv.p.rect(plot.left, y-hw, plot.right, y+hw)
		cv.p.fill(zeroColor)
	}
	// The slots: a tick each; labelled ones longer, with a faint gridline.
	for i, l := range c.XTicks {
		x, long := math.Round(plot.x(c, float64(i))), 1.0
		if l != "" {
			long = 2
			cv.p.rect(x-hw, plot.top, x+hw, plot.bottom)
			cv.p.fill(gridColor)
			cv.text(cv.tick, l, x, plot.bottom+px(tickLength*long+labelGap/2)+cv.tick.ascent(), middle, mutedColor)
		}
		cv.p.rect(x-hw, plot.bottom, x+hw, plot.bottom+px(tickLength*long))
		cv.p.fill(axisColor)
	}
	cv.p.rect(plot.left, plot.bottom-hw, plot.right, plot.bottom+hw)
	cv.p.fill(axisColor)
	cv.text(cv.label, c.XLabel, (plot.left+plot.right)/2, px(height-edgeGap), middle, textColor)
	cv.textUp(cv.label, c.YLabel, px(edgeGap+labelSize/2), (plot.top+plot.bottom)/2, textColor)
}

// series draws one series: its runs of consecutive values as lines, and a
// marker on every value, so a lone day between gaps still shows.
func (cv *canvas) series(c Chart, sr Series) {
	var runs [][]pt
	var run []pt
	for i, v := range sr.Values {
		if math.IsNaN(v) {
			if run != nil {
				runs, run = append(runs, run), nil
			}
			continue
		}
		run = append(run, pt{cv.plot.x(c, float64(i)), cv.plot.y(c, v)})
	}
	if run != nil {
		runs = append(runs, run)
	}
	for _, r := range runs {
		if len(r) > 1 {
			cv.line(r, sr)
		}
	}
	for _, r := range runs {
		for _, p := range r {
			cv.marker(p, sr)
		}
	}
}

// legendColumn draws the legend in its own column right of the plot: for
// each series a stretch of its line with its marker, its label, and its
// note lined up at the column's right.
func (cv *canvas) legendColumn(c Chart) {
	x0 := cv.plot.right + px(legendGap)
	labels, notes := c.legendWidths(cv.legend)
	for s, sr := range c.Series {
		y := cv.plot.top + px(legendTop+legendRow*float64(s))
		cv.line([]pt{{x0, y}, {x0 + px(legendSample), y}}, sr)
		cv.marker(pt{x0 + px(legendSample/2), y}, sr)
		baseline := y + cv.legend.ascent()*centreDrop
		cv.text(cv.legend, sr.Label, x0+px(legendSample+legendPad), baseline, start, textColor)
		cv.text(cv.legend, sr.Note, x0+px(legendSample+legendPad+noteGap)+labels+notes, baseline, end, mutedColor)
	}
}

// legendWidths are the widths of the legend's longest label and longest
// note, in pixels.
func (c Chart) legendWidths(legend *Face) (labels, notes float64) {
	for _, sr := range c.Series {
		labels, notes = max(labels, legend.Width(sr.Label)), max(notes, legend.Width(sr.Note))
	}
	return labels, notes
}

// box is a rectangle in pixels.
type box struct{ left, top, right, bottom float64 }

// x is where slot i's values go across the plot; fractions fall between
// slots.
func (b box) x(c Chart, i float64) float64 {
	return b.left + (i+0.5)*(b.right-b.left)/float64(len(c.XTicks))
}

// y is where value v goes up the plot, held to the value axis.
func (b box) y(c Chart, v float64) float64 {
	v = min(max(v, c.YMin), c.YMax)
	return b.bottom - (v-c.YMin)/(c.YMax-c.YMin)*(b.bottom-b.top)
}

// plotBox is where the plot goes: what the texts leave of the image. The
// legend's column right of it is as wide as its longest label and note
// (drawn with legend), and a missing title or axis label gives its room to
// the plot.
func (c Chart) plotBox(legend *Face) box {
	labels, notes := c.legendWidths(legend)
	if notes > 0 {
		labels += px(noteGap) + notes
	}
	plot := box{left: px(marginLeft), top: px(marginTop), right: px(width-marginRight-legendGap-legendSample-legendPad) - labels, bottom: px(height - marginBottom)}
	if c.Title != "" {
		plot.top += px(titleHeight)
	}
	if c.YLabel != "" {
		plot.left += px(yLabelWidth)
	}
	if c.XLabel != "" {
		plot.bottom -= px(xLabelHeight)
	}
	return plot
}

// line strokes a run of a series in its colour and dash pattern.
func (cv *canvas) line(run []pt, s Series) {
	dashes := make([]float64, len(s.Dashes))
	for i, d := range s.Dashes {
		dashes[i] = px(d)
	}
	for _, piece := range dashed(run, dashes) {
		cv.p.stroke(piece, px(lineWidth))
	}
	cv.p.fill(s.Color)
}

// marker draws a series' shape at p, ringed in white so it stands out
// from the lines it sits on.
func (cv *canvas) marker(p pt, s Series) {
	shape := func(r float64) {
		switch s.Marker {
		case Triangle:
			// Pointing up, its centroid lowered to sit on the value.
			cv.p.regular(pt{p.x, p.y + r*triangleDrop}, r*triangleSize, 3, -math.Pi/2)
		case Square:
			cv.p.regular(p, r*squareSize, 4, math.Pi/4)
		default:
			cv.p.disc(p, r)
		}
	}
	shape(px(markerRadius + ringWidth))
	cv.p.fill(white)
	shape(px(markerRadius))
	cv.p.fill(s.Color)
}

// check says what makes c impossible to draw.
func (c Chart) check() error {
	if len(c.XTicks) == 0 {
		return errors.New("chart has no slots")
	}
	if !(c.YMax > c.YMin) || !(c.YStep > 0) || (c.YMax-c.YMin)/c.YStep > maxGridlines {
		return fmt.Errorf("chart value axis %v..%v step %v", c.YMin, c.YMax, c.YStep)
	}
	for _, s := range c.Series {
		if len(s.Values) != len(c.XTicks) {
			return fmt.Errorf("chart series %q has %d values for %d slots", s.Label, len(s.Values), len(c.XTicks))
		}
		sum, negative := 0.0, false
		for _, d := range s.Dashes {
			sum, negative = sum+d, negative || d < 0
		}
		if len(s.Dashes)%2 != 0 || negative || len(s.Dashes) > 0 && sum <= 0 {
			return fmt.Errorf("chart series %q dash pattern %v", s.Label, s.Dashes)
		}
	}
	return nil
}
