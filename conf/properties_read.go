package conf

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// ReadProperties parses a Java properties file (such as job.properties) with the syntax of
// java.util.Properties.load:
//
//   - a line whose first non-blank character is '#' or '!' is a comment, as is a blank line;
//   - the key ends at the first unescaped '=', ':' or blank (space, tab, form feed); blanks
//     around the separator are skipped and "key value", "key=value" and "key : value" are the
//     same; a key alone has the empty value;
//   - a line ending in an odd number of backslashes continues on the next line, whose
//     leading blanks are dropped (a comment line never continues);
//   - escapes \t \n \r \f and \uXXXX are decoded, any other escaped character stands for
//     itself (so "\=", "\:", "\ ", "\#" and "\\" are literal).
//
// Lines end with "\n", "\r\n" or "\r". The text is read as UTF-8; input that is not valid
// UTF-8 is read as ISO-8859-1, the encoding Java uses for properties streams. A leading
// byte-order mark is ignored. A \uXXXX surrogate pair becomes one character, a lone
// surrogate becomes U+FFFD. When a key repeats, the last value wins and the first position
// is kept. Errors are *Error values naming name and the line, e.g.
// `job.properties:3: malformed \uxxxx escape "\u12G4"`.
func ReadProperties(r io.Reader, name string) (*Properties, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", name, err)
	}
	return parseProperties(decodePropertiesText(data), name, false)
}

// ParseOutputProperties reads the captured output of an action (wf:actionData) with the
// syntax of ReadProperties, but never fails: a malformed \uXXXX escape is kept as written,
// which is how the output of a script is best shown. The text is taken as it is, as
// Properties.load(Reader) takes it: a leading byte-order mark is part of the first key.
func ParseOutputProperties(text string) *Properties {
	props, _ := parseProperties([]rune(text), "", true)
	return props
}

// parseProperties reads properties text; lenient keeps malformed escapes instead of
// failing on them.
func parseProperties(text []rune, name string, lenient bool) (*Properties, error) {
	props := &Properties{}
	lr := lineReader{src: text, line: 1}
	for {
		ll, ok := lr.next()
		if !ok {
			return props, nil
		}
		ll.lenient = lenient
		key, value, err := ll.split()
		if err != nil {
			var le *lineError
			line := ll.start
			if errors.As(err, &le) {
				line = le.line
				err = le.err
			}
			return nil, &Error{Source: name, Line: line, Err: err}
		}
		props.Put(Property{Name: key, Value: value, Line: ll.start})
	}
}

// decodePropertiesText returns the runes of data: UTF-8 when valid, ISO-8859-1 otherwise,
// without a leading byte-order mark.
func decodePropertiesText(data []byte) []rune {
	var text []rune
	if utf8.Valid(data) {
		text = []rune(string(data))
	} else {
		text = make([]rune, len(data))
		for i, b := range data {
			text[i] = rune(b)
		}
	}
	if len(text) > 0 && text[0] == '\uFEFF' {
		text = text[1:]
	}
	return text
}

// isPropertiesBlank reports the characters java.util.Properties treats as white space.
func isPropertiesBlank(c rune) bool { return c == ' ' || c == '\t' || c == '\f' }

// logicalLine is one key/value line after joining continuations. breaks holds the offsets
// in text at which a following natural line begins, to report errors on the right line.
type logicalLine struct {
	text    []rune
	start   int
	breaks  []int
	lenient bool // keep a malformed \uXXXX escape as written instead of failing
}

// lineAt returns the natural line number of the rune at offset i.
func (ll *logicalLine) lineAt(i int) int {
	n := ll.start
	for _, b := range ll.breaks {
		if b <= i {
			n++
		}
	}
	return n
}

// lineReader splits text into logical lines the way java.util.Properties does.
type lineReader struct {
	src  []rune
	pos  int
	line int // natural line number of src[pos]
}

// next returns the next logical line that is neither blank nor a comment. It follows the
// line reader of java.util.Properties (JDK 9 and later) to the letter, quirks included: a
// '#' or '!' opens a comment whenever the logical line is still empty, even after a
// continuation, and a line that ends in a backslash right before the end of the input is a
// line of its own (so a last line "\" defines the empty key).
func (lr *lineReader) next() (logicalLine, bool) {
	var ll logicalLine
	var buf []rune
	skipBlank := true  // skipping blanks at the start of a natural line
	continued := false // the natural line being read continues a logical line
	started := false   // ll.start is set
	precedingBackslash := false
	for lr.pos < len(lr.src) {
		c := lr.src[lr.pos]
		lr.pos++
		if skipBlank {
			if isPropertiesBlank(c) {
				continue
			}
			if !continued && (c == '\n' || c == '\r') {
				lr.endOfLine(c)
				continue
			}
			skipBlank = false
			continued = false
		}
		if len(buf) == 0 && (c == '#' || c == '!') {
			lr.skipComment()
			skipBlank = true
			continue
		}
		if c != '\n' && c != '\r' {
			if !started {
				ll.start, started = lr.line, true
			}
			buf = append(buf, c)
			precedingBackslash = c == '\\' && !precedingBackslash
			continue
		}
		// A line terminator.
		if len(buf) == 0 {
			// Only a continuation backslash so far: start afresh.
			lr.endOfLine(c)
			skipBlank = true
			started = false
			ll.breaks = ll.breaks[:0]
			continue
		}
		if lr.pos >= len(lr.src) {
			// The input ends right after this terminator: Java ends the line here.
			lr.line++
			break
		}
		lr.endOfLine(c)
		if !precedingBackslash {
			ll.text = buf
			return ll, true
		}
		buf = buf[:len(buf)-1]
		precedingBackslash = false
		skipBlank = true
		continued = true
		ll.breaks = append(ll.breaks, len(buf))
	}
	if len(buf) == 0 {
		return logicalLine{}, false
	}
	if precedingBackslash {
		buf = buf[:len(buf)-1]
	}
	ll.text = buf
	return ll, true
}

// endOfLine counts a natural line ending in c and swallows the "\n" of a "\r\n" pair.
func (lr *lineReader) endOfLine(c rune) {
	if c == '\r' && lr.pos < len(lr.src) && lr.src[lr.pos] == '\n' {
		lr.pos++
	}
	lr.line++
}

// skipComment consumes the rest of a comment line including its terminator.
func (lr *lineReader) skipComment() {
	for lr.pos < len(lr.src) {
		c := lr.src[lr.pos]
		lr.pos++
		if c == '\n' || c == '\r' {
			lr.endOfLine(c)
			return
		}
	}
}

// lineError carries the natural line of an escape error out of unescape.
type lineError struct {
	line int
	err  error
}

// Error returns the reason without the line.
func (e *lineError) Error() string { return e.err.Error() }

// split separates the key from the value and decodes the escapes of both.
func (ll *logicalLine) split() (key, value string, err error) {
	text := ll.text
	keyEnd, valueStart := len(text), len(text)
	hasSep := false
	precedingBackslash := false
	for i, c := range text {
		if (c == '=' || c == ':') && !precedingBackslash {
			keyEnd, valueStart, hasSep = i, i+1, true
			break
		}
		if isPropertiesBlank(c) && !precedingBackslash {
			keyEnd, valueStart = i, i+1
			break
		}
		precedingBackslash = c == '\\' && !precedingBackslash
	}
	for valueStart < len(text) {
		c := text[valueStart]
		if !isPropertiesBlank(c) {
			if hasSep || (c != '=' && c != ':') {
				break
			}
			hasSep = true
		}
		valueStart++
	}
	key, err = ll.unescape(0, keyEnd)
	if err != nil {
		return "", "", err
	}
	value, err = ll.unescape(valueStart, len(text))
	if err != nil {
		return "", "", err
	}
	return key, value, nil
}

// unescape decodes the escapes in text[from:to].
func (ll *logicalLine) unescape(from, to int) (string, error) {
	text := ll.text[:to]
	var b strings.Builder
	var pendingHigh rune = -1 // a high surrogate waiting for its low half
	flushHigh := func() {
		if pendingHigh >= 0 {
			b.WriteRune(utf8.RuneError)
			pendingHigh = -1
		}
	}
	for i := from; i < len(text); i++ {
		c := text[i]
		if c != '\\' {
			flushHigh()
			b.WriteRune(c)
			continue
		}
		i++
		if i >= len(text) {
			// A lone trailing backslash cannot come out of the line reader; drop it.
			break
		}
		c = text[i]
		switch c {
		case 't':
			c = '\t'
		case 'n':
			c = '\n'
		case 'r':
			c = '\r'
		case 'f':
			c = '\f'
		case 'u':
			u, ok := hex4(text[i+1:])
			if !ok && ll.lenient {
				flushHigh()
				b.WriteString(`\u`)
				continue
			}
			if !ok {
				end := min(i+5, len(text))
				return "", &lineError{
					line: ll.lineAt(i - 1),
					err:  fmt.Errorf(`malformed \uxxxx escape "%s"`, string(text[i-1:end])),
				}
			}
			i += 4
			switch {
			case utf16.IsSurrogate(u) && u < 0xDC00:
				flushHigh()
				pendingHigh = u
				continue
			case utf16.IsSurrogate(u) && pendingHigh >= 0:
				b.WriteRune(utf16.DecodeRune(pendingHigh, u))
				pendingHigh = -1
				continue
			case utf16.IsSurrogate(u):
				u = utf8.RuneError
			}
			c = u
		}
		flushHigh()
		b.WriteRune(c)
	}
	flushHigh()
	return b.String(), nil
}

// hex4 decodes exactly four hexadecimal digits at the start of s.
func hex4(s []rune) (rune, bool) {
	if len(s) < 4 {
		return 0, false
	}
	var v rune
	for _, c := range s[:4] {
		var d rune
		switch {
		case c >= '0' && c <= '9':
			d = c - '0'
		case c >= 'a' && c <= 'f':
			d = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			d = c - 'A' + 10
		default:
			return 0, false
		}
		v = v<<4 | d
	}
	return v, true
}
