package chart

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"unicode"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
)

// Face is one font at one size, as the chart draws text with it.
type Face struct {
	name string
	font *sfnt.Font
	face font.Face
}

// Name is the font's name, for messages.
func (f *Face) Name() string { return f.name }

// Covers reports whether the font has a glyph for every rune of s (spaces
// aside): a rune it lacks would come out as an empty box.
func (f *Face) Covers(s string) bool { return covers(f.font, s) }

func covers(f *sfnt.Font, s string) bool {
	var buf sfnt.Buffer
	for _, r := range s {
		if unicode.IsSpace(r) {
			continue
		}
		if i, err := f.GlyphIndex(&buf, r); err != nil || i == 0 {
			return false
		}
	}
	return true
}

// Width is how far s advances, in pixels.
func (f *Face) Width(s string) float64 {
	return fixedFloat(font.MeasureString(f.face, s))
}

// ascent and descent are the face's extent above and below the baseline,
// in pixels.
func (f *Face) ascent() float64  { return fixedFloat(f.face.Metrics().Ascent) }
func (f *Face) descent() float64 { return fixedFloat(f.face.Metrics().Descent) }

func fixedFloat(v fixed.Int26_6) float64 { return float64(v) / 64 }

// Fonts are the faces a chart draws with: the Go fonts (regular for
// labels, bold for the title), parsed by LoadFonts when a chart is drawn,
// never at start. They cover Latin, Greek and Cyrillic, not Chinese or
// Japanese; callers ask Covers and say elsewhere what a chart cannot.
type Fonts struct {
	regular, bold *sfnt.Font
}

// LoadFonts parses the embedded Go fonts.
func LoadFonts() (*Fonts, error) {
	regular, err := opentype.Parse(goregular.TTF)
	if err != nil {
		return nil, fmt.Errorf("parse Go Regular: %w", err)
	}
	bold, err := opentype.Parse(gobold.TTF)
	if err != nil {
		return nil, fmt.Errorf("parse Go Bold: %w", err)
	}
	return &Fonts{regular: regular, bold: bold}, nil
}

// Covers reports whether every face a chart uses can draw s.
func (fs *Fonts) Covers(s string) bool {
	return covers(fs.regular, s) && covers(fs.bold, s)
}

// face makes a face of f at size pixels per em.
func (fs *Fonts) face(name string, f *sfnt.Font, size float64) *Face {
	// opentype.NewFace only scales the font: it has no error to report.
	ff, _ := opentype.NewFace(f, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingFull})
	return &Face{name: name, font: f, face: ff}
}

// Text is one text a chart drew and the face that drew it.
type Text struct {
	S    string
	Face *Face
}

// anchor says where a text's position is: at its start, centre or end.
type anchor int

const (
	start anchor = iota
	middle
	end
)

// text draws s with its baseline at y, anchored at x, and records it.
func (cv *canvas) text(f *Face, s string, x, y float64, a anchor, col color.Color) {
	if s == "" {
		return
	}
	cv.texts = append(cv.texts, Text{S: s, Face: f})
	x -= float64(a) / 2 * f.Width(s)
	d := font.Drawer{Dst: cv.p.img, Src: image.NewUniform(col), Face: f.face, Dot: fixed.Point26_6{X: fixed.Int26_6(x * 64), Y: fixed.Int26_6(y * 64)}}
	d.DrawString(s)
}

// textUp draws s reading bottom to top, centred on (x, y), its baseline to
// the right: an axis label up the side.
func (cv *canvas) textUp(f *Face, s string, x, y float64, col color.Color) {
	if s == "" {
		return
	}
	cv.texts = append(cv.texts, Text{S: s, Face: f})
	// Drawn flat first, with a pixel of margin for the anti-aliased edges,
	// then turned a quarter left.
	w, asc, desc := f.Width(s), f.ascent(), f.descent()
	flat := image.NewAlpha(image.Rect(0, 0, int(w)+2, int(asc+desc)+2))
	d := font.Drawer{Dst: flat, Src: image.Opaque, Face: f.face, Dot: fixed.Point26_6{X: 64, Y: fixed.Int26_6((asc + 1) * 64)}}
	d.DrawString(s)
	fw, fh := flat.Rect.Dx(), flat.Rect.Dy()
	up := image.NewAlpha(image.Rect(0, 0, fh, fw))
	for fy := 0; fy < fh; fy++ {
		for fx := 0; fx < fw; fx++ {
			up.SetAlpha(fy, fw-1-fx, flat.AlphaAt(fx, fy))
		}
	}
	at := image.Pt(int(x)-fh/2, int(y)-fw/2)
	draw.DrawMask(cv.p.img, up.Rect.Add(at), image.NewUniform(col), image.Point{}, up, image.Point{}, draw.Over)
}
