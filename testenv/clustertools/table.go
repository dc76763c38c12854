package clustertools

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// printTable prints rows under a header in Beeline's table format:
//
//	+------+-------+
//	| t.a  | t.b   |
//	+------+-------+
//	| 1    | x     |
//	+------+-------+
func printTable(w io.Writer, header []string, rows [][]string) {
	widths := make([]int, len(header))
	for i, h := range header {
		widths[i] = utf8.RuneCountInString(h)
	}
	for _, r := range rows {
		for i, c := range r {
			if i < len(widths) {
				widths[i] = max(widths[i], utf8.RuneCountInString(c))
			}
		}
	}
	var sep strings.Builder
	sep.WriteString("+")
	for _, n := range widths {
		sep.WriteString(strings.Repeat("-", n+2) + "+")
	}
	line := func(cells []string) {
		var b strings.Builder
		b.WriteString("|")
		for i, n := range widths {
			c := ""
			if i < len(cells) {
				c = cells[i]
			}
			b.WriteString(" " + c + strings.Repeat(" ", n-utf8.RuneCountInString(c)) + " |")
		}
		fmt.Fprintln(w, b.String())
	}
	fmt.Fprintln(w, sep.String())
	line(header)
	fmt.Fprintln(w, sep.String())
	for _, r := range rows {
		line(r)
	}
	fmt.Fprintln(w, sep.String())
}
