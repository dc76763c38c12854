package minihs2

import (
	"fmt"
	"strconv"
	"strings"
)

// tokenKind classifies a HiveQL token.
type tokenKind int

const (
	tokEOF    tokenKind = iota
	tokIdent            // a bare word: keyword or identifier
	tokQuoted           // a `backquoted` identifier
	tokString           // a '...' or "..." literal, unescaped
	tokNumber           // 12, 1.5, 2e3
	tokOp               // punctuation and operators
)

// token is one lexical unit with its position (line from 1, column from 0,
// as Hive's messages count them).
type token struct {
	kind tokenKind
	text string
	line int
	col  int
}

// is reports whether t is the bare word w (keywords are case-insensitive).
func (t token) is(w string) bool { return t.kind == tokIdent && strings.EqualFold(t.text, w) }

// op reports whether t is the operator o.
func (t token) op(o string) bool { return t.kind == tokOp && t.text == o }

// quote renders t as Hive's parser errors show a token.
func (t token) quote() string {
	if t.kind == tokEOF {
		return "'<EOF>'"
	}
	if t.kind == tokString {
		return "''" + t.text + "''"
	}
	return "'" + t.text + "'"
}

// lex splits a statement into tokens. "--" comments run to the end of the
// line. Errors are parse errors at the offending position.
func lex(src string) ([]token, error) {
	var toks []token
	line, col := 1, 0
	i := 0
	advance := func(n int) {
		for k := 0; k < n && i < len(src); k++ {
			if src[i] == '\n' {
				line++
				col = 0
			} else {
				col++
			}
			i++
		}
	}
	for i < len(src) {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f':
			advance(1)
		case c == '-' && i+1 < len(src) && src[i+1] == '-':
			for i < len(src) && src[i] != '\n' {
				advance(1)
			}
		case isIdentStart(c):
			j := i
			for j < len(src) && isIdentPart(src[j]) {
				j++
			}
			toks = append(toks, token{kind: tokIdent, text: src[i:j], line: line, col: col})
			advance(j - i)
		case c >= '0' && c <= '9' || c == '.' && i+1 < len(src) && src[i+1] >= '0' && src[i+1] <= '9':
			j := scanNumber(src, i)
			toks = append(toks, token{kind: tokNumber, text: src[i:j], line: line, col: col})
			advance(j - i)
		case c == '`':
			j := strings.IndexByte(src[i+1:], '`')
			if j < 0 {
				return nil, parseErrorAt(line, col, "character '`' not supported here")
			}
			toks = append(toks, token{kind: tokQuoted, text: src[i+1 : i+1+j], line: line, col: col})
			advance(j + 2)
		case c == '\'' || c == '"':
			s, n, ok := scanString(src[i:])
			if !ok {
				return nil, parseErrorAt(line, col, fmt.Sprintf("character '%c' not supported here", c))
			}
			toks = append(toks, token{kind: tokString, text: s, line: line, col: col})
			advance(n)
		default:
			op := scanOp(src[i:])
			if op == "" {
				return nil, parseErrorAt(line, col, fmt.Sprintf("character '%c' not supported here", c))
			}
			toks = append(toks, token{kind: tokOp, text: op, line: line, col: col})
			advance(len(op))
		}
	}
	return append(toks, token{kind: tokEOF, line: line, col: col}), nil
}

func isIdentStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '$'
}

func isIdentPart(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' }

// scanNumber returns the end of the number starting at i: digits, an
// optional fraction and exponent, and Hive's type suffixes (L, S, Y, BD).
func scanNumber(src string, i int) int {
	j := i
	digits := func() {
		for j < len(src) && src[j] >= '0' && src[j] <= '9' {
			j++
		}
	}
	digits()
	if j < len(src) && src[j] == '.' {
		j++
		digits()
	}
	if j < len(src) && (src[j] == 'e' || src[j] == 'E') {
		k := j + 1
		if k < len(src) && (src[k] == '+' || src[k] == '-') {
			k++
		}
		if k < len(src) && src[k] >= '0' && src[k] <= '9' {
			j = k
			digits()
		}
	}
	switch {
	case strings.HasPrefix(strings.ToUpper(src[j:min(j+2, len(src))]), "BD"):
		j += 2
	case j < len(src) && strings.ContainsRune("LlSsYy", rune(src[j])):
		j++
	}
	return j
}

// scanString reads a quoted literal at the start of s with Hive's escapes
// (\n \t \r \b \0 \Z \\ \' \" \%, \_, three octal digits \001, \uXXXX) and
// returns its value and length in s.
func scanString(s string) (string, int, bool) {
	q := s[0]
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch {
		case c == q:
			return b.String(), i + 1, true
		case c == '\\' && i+1 < len(s):
			i++
			e := s[i]
			switch {
			case e >= '0' && e <= '7' && i+2 < len(s) && isOctal(s[i+1]) && isOctal(s[i+2]):
				b.WriteByte((e-'0')<<6 | (s[i+1]-'0')<<3 | (s[i+2] - '0'))
				i += 2
			case e == 'u' && i+4 < len(s) && isHex(s[i+1:i+5]):
				r, _ := strconv.ParseUint(s[i+1:i+5], 16, 32)
				b.WriteRune(rune(r))
				i += 4
			default:
				b.WriteString(unescapeChar(e))
			}
		default:
			b.WriteByte(c)
		}
	}
	return "", 0, false
}

func unescapeChar(e byte) string {
	switch e {
	case 'n':
		return "\n"
	case 't':
		return "\t"
	case 'r':
		return "\r"
	case 'b':
		return "\b"
	case '0':
		return "\x00"
	case 'Z':
		return "\x1a"
	case '%', '_':
		return "\\" + string(e) // kept escaped, as Hive does for LIKE patterns
	}
	return string(e)
}

func isOctal(c byte) bool { return c >= '0' && c <= '7' }

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

// ops lists operators longest first so that "<=" wins over "<".
var ops = []string{"<=>", "<>", "!=", "<=", ">=", "==", "=", "<", ">", "(", ")", ",", ";", ".", "*", "+", "-", "/", "%", ":", "[", "]"}

func scanOp(s string) string {
	for _, o := range ops {
		if strings.HasPrefix(s, o) {
			return o
		}
	}
	return ""
}
