package conf

import (
	"bufio"
	"fmt"
	"io"
	"unicode/utf16"
)

// WriteProperties writes props in Java properties syntax, one "key=value" line per entry in
// order, so that ReadProperties (and java.util.Properties.load) read back the same keys and
// values. Separators, comment characters, backslashes, blanks in keys and a value's leading
// blank are escaped; characters outside printable ASCII are written as \uXXXX escapes
// (surrogate pairs above U+FFFF), which keeps the output readable by Java whatever encoding it
// assumes. No header comment or timestamp is written. Invalid UTF-8 in a key or value is
// written as U+FFFD.
func WriteProperties(w io.Writer, props *Properties) error {
	bw := bufio.NewWriter(w)
	for _, e := range props.Entries() {
		writePropertiesText(bw, e.Name, true)
		bw.WriteByte('=')
		writePropertiesText(bw, e.Value, false)
		bw.WriteByte('\n')
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writing properties: %w", err)
	}
	return nil
}

// writePropertiesText escapes s for a key (every blank escaped) or a value (only a leading
// blank escaped).
func writePropertiesText(w *bufio.Writer, s string, isKey bool) {
	first := true
	for _, r := range s {
		switch r {
		case ' ':
			if isKey || first {
				w.WriteByte('\\')
			}
			w.WriteByte(' ')
		case '\t':
			w.WriteString(`\t`)
		case '\n':
			w.WriteString(`\n`)
		case '\r':
			w.WriteString(`\r`)
		case '\f':
			w.WriteString(`\f`)
		case '=', ':', '#', '!', '\\':
			w.WriteByte('\\')
			w.WriteRune(r)
		default:
			switch {
			case r < 0x20 || r > 0x7e && r <= 0xFFFF:
				fmt.Fprintf(w, `\u%04X`, r)
			case r > 0xFFFF:
				hi, lo := utf16.EncodeRune(r)
				fmt.Fprintf(w, `\u%04X\u%04X`, hi, lo)
			default:
				w.WriteRune(r)
			}
		}
		first = false
	}
}
