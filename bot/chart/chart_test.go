package chart

import (
	"image"
	"image/color"
	"math"
	"strings"
	"testing"
)

var blue = color.RGBA{0x1f, 0x77, 0xb4, 0xff}

// flat is a chart of one solid series at 25 (between gridlines) on the
// slots where has says so.
func flat(has string) Chart {
	c := Chart{Title: "Last 30 days", XLabel: "date", YLabel: "value", YMin: -100, YMax: 100, YStep: 50}
	s := Series{Label: "series", Color: blue, Marker: Circle}
	for i, h := range has {
		c.XTicks = append(c.XTicks, map[bool]string{true: "03-0" + string(rune('1'+i))}[i%7 == 0])
		s.Values = append(s.Values, map[rune]float64{'x': 25, '.': math.NaN()}[h])
	}
	c.Series = []Series{s}
	return c
}

func render(t *testing.T, c Chart) (*image.RGBA, []Text) {
	t.Helper()
	fs, err := LoadFonts()
	if err != nil {
		t.Fatal(err)
	}
	img, texts, err := fs.render(c)
	if err != nil {
		t.Fatal(err)
	}
	return img, texts
}

func isBlue(c color.RGBA) bool {
	return c.R < 0x40 && c.G > 0x60 && c.G < 0x90 && c.B > 0xa0
}

// TestGapsAreGaps: a day without a value breaks the line (seed 003 §9: each
// day a point; no line drawn across days nobody talked), and a lone day is
// still drawn as a point.
func TestGapsAreGaps(t *testing.T) {
	fs, err := LoadFonts()
	if err != nil {
		t.Fatal(err)
	}
	for _, has := range []string{"xxxxxxxxxx", "xxxx..xxxx", "xx.xx.xx.x", ".........x"} {
		c := flat(has)
		img, _ := render(t, c)
		plot := c.plotBox(fs.face("", fs.regular, px(legendSize)))
		y := int(plot.y(c, 25))
		for i := range len(has) - 1 {
			// Halfway between two days: line only if both have a value.
			x := int(plot.x(c, float64(i)+0.5))
			if line, want := isBlue(img.RGBAAt(x, y)), has[i] == 'x' && has[i+1] == 'x'; line != want {
				t.Errorf("%s: between days %d and %d line %v, want %v", has, i, i+1, line, want)
			}
		}
		for i := range len(has) {
			if dot := isBlue(img.RGBAAt(int(plot.x(c, float64(i))), y)); dot != (has[i] == 'x') {
				t.Errorf("%s: day %d point %v", has, i, dot)
			}
		}
	}
}

// TestAntialiased: the line's edges blend into the background: pixels
// between white and the series' colour, not only the two.
func TestAntialiased(t *testing.T) {
	img, _ := render(t, flat("xxxxxxxxxx"))
	blended := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			c := img.RGBAAt(x, y)
			if c.R > 0x40 && c.R < 0xe0 && c.B > c.R+0x20 && c.G > c.R {
				blended++
			}
		}
	}
	if blended < 50 {
		t.Errorf("%d blended pixels: the line is not anti-aliased", blended)
	}
}

// TestLegendBesideThePlot: the legend's column starts right of the plot
// and fits in the image with its notes, however long its labels (within
// reason): a longer label narrows the plot, never overlaps it.
func TestLegendBesideThePlot(t *testing.T) {
	fs, err := LoadFonts()
	if err != nil {
		t.Fatal(err)
	}
	legend := fs.face("", fs.regular, px(legendSize))
	var rights []float64
	for _, l := range []string{"1", "your feelings", "a rather longer label"} {
		c := flat("xxxxxxxxxx")
		c.Series[0].Label, c.Series[0].Note = l, "-42"
		plot := c.plotBox(legend)
		end := plot.right + px(legendGap+legendSample+legendPad+noteGap) + legend.Width(l) + legend.Width("-42")
		if end > px(width-marginRight)+0.5 {
			t.Errorf("%q: the legend ends at %.0f px, past the image's margin %.0f", l, end, px(width-marginRight))
		}
		rights = append(rights, plot.right)
		_, texts := render(t, c)
		if got := texts[len(texts)-2].S + "|" + texts[len(texts)-1].S; got != l+"|-42" {
			t.Errorf("%q: the last texts drawn are %q, not the legend's label and note", l, got)
		}
	}
	if !(rights[0] > rights[1] && rights[1] > rights[2]) {
		t.Errorf("plot right edges %v: a longer legend label should narrow the plot", rights)
	}
}

// TestTextsAndMissingLabels: every text drawn is covered by its face and
// has a width; an empty title or axis label gives its room to the plot.
func TestTextsAndMissingLabels(t *testing.T) {
	fs, err := LoadFonts()
	if err != nil {
		t.Fatal(err)
	}
	c := flat("xxxxxxxxxx")
	_, texts := render(t, c)
	var all []string
	for _, tx := range texts {
		all = append(all, tx.S)
		if !tx.Face.Covers(tx.S) || tx.Face.Width(tx.S) <= 0 {
			t.Errorf("%q with %s: not covered or no width", tx.S, tx.Face.Name())
		}
	}
	for _, want := range []string{"Last 30 days", "date", "value", "series", "-100", "0", "100", "03-01", "03-08"} {
		if !strings.Contains("|"+strings.Join(all, "|")+"|", "|"+want+"|") {
			t.Errorf("%q not drawn (drew %q)", want, all)
		}
	}
	legend := fs.face("", fs.regular, px(legendSize))
	full := c.plotBox(legend)
	c.Title, c.XLabel, c.YLabel = "", "", ""
	bare := c.plotBox(legend)
	if !(bare.top < full.top && bare.left < full.left && bare.bottom > full.bottom) {
		t.Errorf("without title and axis labels the plot is %+v, with them %+v", bare, full)
	}
}

// TestDrawRefuses: texts the fonts cannot draw (Chinese: the Go fonts have
// no CJK) and charts that make no sense are errors, not images.
func TestDrawRefuses(t *testing.T) {
	fs, err := LoadFonts()
	if err != nil {
		t.Fatal(err)
	}
	if fs.Covers("最近30天") || !fs.Covers("Last 30 days") {
		t.Error("Covers: the Go fonts have Latin and no CJK")
	}
	bad := map[string]func(c *Chart){
		"uncovered title": func(c *Chart) { c.Title = "最近30天" },
		"no slots":        func(c *Chart) { c.XTicks, c.Series = nil, nil },
		"short series":    func(c *Chart) { c.Series[0].Values = c.Series[0].Values[1:] },
		"empty axis":      func(c *Chart) { c.YMax = c.YMin },
		"zero step":       func(c *Chart) { c.YStep = 0 },
		"tiny step":       func(c *Chart) { c.YStep = 1e-9 },
		"odd dashes":      func(c *Chart) { c.Series[0].Dashes = []float64{3} },
		"zero dashes":     func(c *Chart) { c.Series[0].Dashes = []float64{0, 0} },
		"negative dashes": func(c *Chart) { c.Series[0].Dashes = []float64{5, -3} },
	}
	for name, breakIt := range bad {
		c := flat("xxxx")
		breakIt(&c)
		if _, _, err := fs.Draw(c); err == nil {
			t.Errorf("%s: drawn", name)
		}
	}
}

// TestDashed: a dash pattern splits a line into its drawn pieces and runs
// on across corners.
func TestDashed(t *testing.T) {
	got := dashed([]pt{{0, 0}, {10, 0}, {10, 10}}, []float64{4, 3})
	want := [][]pt{
		{{0, 0}, {4, 0}},
		{{7, 0}, {10, 0}, {10, 1}}, // the second dash turns the corner
		{{10, 4}, {10, 8}},
	}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if len(got[i]) != len(want[i]) {
			t.Fatalf("piece %d: got %v, want %v", i, got[i], want[i])
		}
		for j := range want[i] {
			if math.Abs(got[i][j].x-want[i][j].x) > 1e-9 || math.Abs(got[i][j].y-want[i][j].y) > 1e-9 {
				t.Errorf("piece %d: got %v, want %v", i, got[i], want[i])
			}
		}
	}
	if whole := dashed([]pt{{0, 0}, {5, 5}}, nil); len(whole) != 1 || len(whole[0]) != 2 {
		t.Errorf("no pattern: %v", whole)
	}
}
