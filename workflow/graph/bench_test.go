package graph

import (
	"io"
	"testing"
)

// BenchmarkLayout lays out a workflow of about 500 nodes with its kill
// node, whose error edges are the long ones.
func BenchmarkLayout(b *testing.B) {
	app := load(b, chainApp(400))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Layout(app, nil, Options{Kill: KillAll}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRender draws a 40-action workflow in each format.
func BenchmarkRender(b *testing.B) {
	g := layout(b, load(b, chainApp(40)), nil, Options{Kill: KillAll})
	for name, render := range map[string]func(io.Writer, *Graph) error{"svg": SVG, "png": PNG, "dot": DOT} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := render(io.Discard, g); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
