package chart

import (
	"image"
	"image/color"
	"image/draw"
	"math"

	"golang.org/x/image/vector"
)

// pt is a point in pixels, y down.
type pt struct{ x, y float64 }

// circleSides is how many sides a round shape has: at the chart's radii
// (under 12 px) a polygon this fine is indistinguishable from a circle once
// anti-aliased. hearth's choice.
const circleSides = 24

// painter fills shapes on an RGBA image, anti-aliased, one colour at a
// time: polygons are collected until fill rasterizes them over their
// bounding box only.
type painter struct {
	img    *image.RGBA
	z      vector.Rasterizer
	shapes [][]pt
}

func newPainter(w, h int) *painter {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(img, img.Bounds(), image.White, image.Point{}, draw.Src)
	return &painter{img: img}
}

// polygon adds a closed polygon to the shape being built.
func (p *painter) polygon(ps []pt) {
	if len(ps) >= 3 {
		p.shapes = append(p.shapes, ps)
	}
}

// fill paints the shape built since the last fill in c.
func (p *painter) fill(c color.Color) {
	if len(p.shapes) == 0 {
		return
	}
	lo, hi := pt{math.Inf(1), math.Inf(1)}, pt{math.Inf(-1), math.Inf(-1)}
	for _, ps := range p.shapes {
		for _, q := range ps {
			lo, hi = pt{min(lo.x, q.x), min(lo.y, q.y)}, pt{max(hi.x, q.x), max(hi.y, q.y)}
		}
	}
	r := image.Rect(int(math.Floor(lo.x)), int(math.Floor(lo.y)), int(math.Ceil(hi.x)), int(math.Ceil(hi.y))).Intersect(p.img.Bounds())
	if r.Empty() {
		p.shapes = p.shapes[:0]
		return
	}
	p.z.Reset(r.Dx(), r.Dy())
	for _, ps := range p.shapes {
		p.trace(ps, pt{float64(r.Min.X), float64(r.Min.Y)})
	}
	p.z.Draw(p.img, r, image.NewUniform(c), image.Point{})
	p.shapes = p.shapes[:0]
}

// trace hands one polygon, moved by -o, to the rasterizer. The rasterizer
// adds signed coverage, so two overlapping polygons wound in opposite
// directions would cancel out: every polygon goes in wound the same way.
func (p *painter) trace(ps []pt, o pt) {
	area := 0.0
	for i, a := range ps {
		b := ps[(i+1)%len(ps)]
		area += a.x*b.y - b.x*a.y
	}
	at := func(i int) pt { return ps[i] }
	if area < 0 {
		at = func(i int) pt { return ps[len(ps)-1-i] }
	}
	p.z.MoveTo(float32(at(0).x-o.x), float32(at(0).y-o.y))
	for i := 1; i < len(ps); i++ {
		p.z.LineTo(float32(at(i).x-o.x), float32(at(i).y-o.y))
	}
	p.z.ClosePath()
}

// rect adds an axis-aligned rectangle.
func (p *painter) rect(x0, y0, x1, y1 float64) {
	p.polygon([]pt{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}})
}

// regular adds a regular polygon of n sides around c with circumradius r,
// the first corner at angle a0 (radians, y down).
func (p *painter) regular(c pt, r float64, n int, a0 float64) {
	ps := make([]pt, n)
	for i := range ps {
		a := a0 + 2*math.Pi*float64(i)/float64(n)
		ps[i] = pt{c.x + r*math.Cos(a), c.y + r*math.Sin(a)}
	}
	p.polygon(ps)
}

// disc adds a filled circle.
func (p *painter) disc(c pt, r float64) { p.regular(c, r, circleSides, 0) }

// stroke adds a polyline of width w with round joins and caps.
func (p *painter) stroke(line []pt, w float64) {
	for i, a := range line {
		p.disc(a, w/2)
		if i == 0 {
			continue
		}
		b := line[i-1]
		dx, dy := a.x-b.x, a.y-b.y
		l := math.Hypot(dx, dy)
		if l == 0 {
			continue
		}
		nx, ny := -dy/l*w/2, dx/l*w/2
		p.polygon([]pt{{b.x + nx, b.y + ny}, {a.x + nx, a.y + ny}, {a.x - nx, a.y - ny}, {b.x - nx, b.y - ny}})
	}
}

// dashed splits a polyline into the pieces a dash pattern (lengths on, off,
// on, off… in pixels) leaves drawn; the pattern runs on across corners.
// An empty pattern leaves the line whole.
func dashed(line []pt, pattern []float64) [][]pt {
	if len(pattern) == 0 || len(line) < 2 {
		return [][]pt{line}
	}
	var out [][]pt
	var cur []pt
	k, left := 0, pattern[0] // the pattern's current entry and what remains of it
	on := func() bool { return k%2 == 0 }
	if on() {
		cur = []pt{line[0]}
	}
	for i := 1; i < len(line); i++ {
		a, b := line[i-1], line[i]
		seg := math.Hypot(b.x-a.x, b.y-a.y)
		pos := 0.0
		for seg-pos > left {
			pos += left
			t := pos / seg
			q := pt{a.x + (b.x-a.x)*t, a.y + (b.y-a.y)*t}
			if on() {
				out, cur = append(out, append(cur, q)), nil
			} else {
				cur = []pt{q}
			}
			k = (k + 1) % len(pattern)
			left = pattern[k]
		}
		left -= seg - pos
		if on() {
			cur = append(cur, b)
		}
	}
	if on() && len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}
