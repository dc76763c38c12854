package el

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// tokKind is the kind of a token inside ${...}.
type tokKind uint8

const (
	tEnd tokKind = iota // the closing "}"
	tInt
	tFloat
	tString
	tIdent
	tTrue
	tFalse
	tNull
	tDot
	tLParen
	tRParen
	tComma
	tColon
	tLBracket
	tRBracket
	tQuestion
	tPlus
	tMinus
	tMul
	tDiv // "/" or "div"
	tMod // "%" or "mod"
	tEq  // "==" or "eq"
	tNe  // "!=" or "ne"
	tLt  // "<" or "lt"
	tGt  // ">" or "gt"
	tLe  // "<=" or "le"
	tGe  // ">=" or "ge"
	tAnd // "&&" or "and"
	tOr  // "||" or "or"
	tNot // "!" or "not"
	tEmpty
)

// keywords are the reserved words of JSP EL 2.0; they can never be identifiers.
var keywords = map[string]tokKind{
	"true": tTrue, "false": tFalse, "null": tNull,
	"div": tDiv, "mod": tMod,
	"eq": tEq, "ne": tNe, "lt": tLt, "gt": tGt, "le": tLe, "ge": tGe,
	"and": tAnd, "or": tOr, "not": tNot, "empty": tEmpty,
}

// token is one lexeme of an expression. pos and end are byte offsets in the whole text.
type token struct {
	kind tokKind
	pos  int
	end  int
	str  string // identifier name or decoded string literal
	num  int64
	flt  float64
}

// lexExpr scans the tokens of the expression whose body starts at offset start (just after
// "${") up to and including the closing "}", which becomes the final tEnd token. open is the
// offset of the "${" for the error about a missing "}". It returns the tokens and the offset
// just after the "}".
func lexExpr(text string, start, open int) ([]token, int, error) {
	toks := make([]token, 0, 8)
	i := start
	for {
		for i < len(text) && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r') {
			i++
		}
		if i >= len(text) {
			return nil, 0, syntaxError(text, open, `unterminated expression: missing "}"`)
		}
		c := text[i]
		tok := token{pos: i, end: i + 1}
		switch {
		case c == '}':
			tok.kind = tEnd
			return append(toks, tok), i + 1, nil
		case c >= '0' && c <= '9', c == '.' && i+1 < len(text) && isDigit(text[i+1]):
			var err error
			tok, err = lexNumber(text, i)
			if err != nil {
				return nil, 0, err
			}
		case c == '"' || c == '\'':
			var err error
			tok, err = lexString(text, i)
			if err != nil {
				return nil, 0, err
			}
		case c < utf8.RuneSelf && punct[c] != 0:
			tok.kind = punct[c]
		case c == '=' || c == '!' || c == '<' || c == '>':
			two := i+1 < len(text) && text[i+1] == '='
			switch {
			case c == '=' && !two:
				return nil, 0, syntaxError(text, i, `illegal character "=" (use "==" or eq)`)
			case c == '=':
				tok.kind = tEq
			case c == '!' && two:
				tok.kind = tNe
			case c == '!':
				tok.kind = tNot
			case c == '<' && two:
				tok.kind = tLe
			case c == '<':
				tok.kind = tLt
			case c == '>' && two:
				tok.kind = tGe
			default:
				tok.kind = tGt
			}
			if two {
				tok.end = i + 2
			}
		case c == '&' || c == '|':
			if i+1 >= len(text) || text[i+1] != c {
				return nil, 0, syntaxError(text, i, "illegal character "+strconv.Quote(string(c)))
			}
			tok.kind = tAnd
			if c == '|' {
				tok.kind = tOr
			}
			tok.end = i + 2
		default:
			r, size := utf8.DecodeRuneInString(text[i:])
			if r != '#' && !isLetter(r) {
				return nil, 0, syntaxError(text, i, "illegal character "+strconv.QuoteRune(r))
			}
			j := i + size
			for j < len(text) {
				r, size = utf8.DecodeRuneInString(text[j:])
				if !isLetter(r) && !(r >= '0' && r <= '9') {
					break
				}
				j += size
			}
			tok.end = j
			tok.str = text[i:j]
			if k, ok := keywords[tok.str]; ok {
				tok.kind = k
			} else {
				tok.kind = tIdent
			}
		}
		toks = append(toks, tok)
		i = tok.end
	}
}

// punct maps the single-character tokens that need no lookahead.
var punct = [utf8.RuneSelf]tokKind{
	'.': tDot, '(': tLParen, ')': tRParen, ',': tComma, ':': tColon, '[': tLBracket, ']': tRBracket,
	'?': tQuestion, '+': tPlus, '-': tMinus, '*': tMul, '/': tDiv, '%': tMod,
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// isLetter reports whether r may start an EL identifier: the LETTER class of the JSP 2.0 EL
// grammar ("$", "_", ASCII letters and a set of Latin, CJK and other ranges). Digits may
// follow the first letter. Characters outside the Basic Multilingual Plane are never letters.
func isLetter(r rune) bool {
	switch {
	case r == '$' || r == '_' || (r >= 'A' && r <= 'Z') || (r >= 'a' && r <= 'z'):
		return true
	case r < 0xc0:
		return false
	case r <= 0xd6, r >= 0xd8 && r <= 0xf6, r >= 0xf8 && r <= 0x1fff:
		return true
	case r >= 0x3040 && r <= 0x318f, r >= 0x3300 && r <= 0x337f, r >= 0x3400 && r <= 0x3d2d,
		r >= 0x4e00 && r <= 0x9fff, r >= 0xf900 && r <= 0xfaff:
		return true
	}
	return false
}

// lexNumber scans an integer or floating-point literal starting at i. As in the EL grammar a
// floating literal is digits "." digits? exponent?, "." digits exponent?, or digits exponent;
// "1e" is the integer 1 followed by the identifier e.
func lexNumber(text string, i int) (token, error) {
	j := i
	for j < len(text) && isDigit(text[j]) {
		j++
	}
	float := false
	if j < len(text) && text[j] == '.' {
		float = true
		j++
		for j < len(text) && isDigit(text[j]) {
			j++
		}
	}
	if k := exponentEnd(text, j); k > j {
		float = true
		j = k
	}
	tok := token{pos: i, end: j}
	lit := text[i:j]
	if !float {
		n, err := strconv.ParseInt(lit, 10, 64)
		if err != nil {
			return tok, syntaxError(text, i, "integer literal "+lit+" out of range")
		}
		tok.kind, tok.num = tInt, n
		return tok, nil
	}
	// A syntactically valid literal only fails with ErrRange; like Java we keep the
	// infinity or zero it rounds to.
	f, _ := strconv.ParseFloat(lit, 64)
	tok.kind, tok.flt = tFloat, f
	return tok, nil
}

// exponentEnd returns the end of an exponent [eE][+-]?digits starting at j, or j if there is
// none.
func exponentEnd(text string, j int) int {
	if j >= len(text) || (text[j] != 'e' && text[j] != 'E') {
		return j
	}
	k := j + 1
	if k < len(text) && (text[k] == '+' || text[k] == '-') {
		k++
	}
	if k >= len(text) || !isDigit(text[k]) {
		return j
	}
	for k < len(text) && isDigit(text[k]) {
		k++
	}
	return k
}

// lexString scans a quoted string literal. Inside single quotes only \' and \\ are escapes,
// inside double quotes only \" and \\; any other backslash sequence is an error, as in the
// EL grammar.
func lexString(text string, i int) (token, error) {
	q := text[i]
	j := i + 1
	var b strings.Builder
	escaped := false
	for {
		if j >= len(text) {
			return token{}, syntaxError(text, i, "unterminated string literal")
		}
		c := text[j]
		if c == q {
			break
		}
		if c == '\\' {
			if j+1 >= len(text) {
				return token{}, syntaxError(text, i, "unterminated string literal")
			}
			n := text[j+1]
			if n != q && n != '\\' {
				return token{}, syntaxError(text, j, `badly escaped string literal: only \`+string(q)+` and \\ are escapes`)
			}
			if !escaped {
				escaped = true
				b.WriteString(text[i+1 : j])
			}
			b.WriteByte(n)
			j += 2
			continue
		}
		if escaped {
			b.WriteByte(c)
		}
		j++
	}
	tok := token{kind: tString, pos: i, end: j + 1, str: text[i+1 : j]}
	if escaped {
		tok.str = b.String()
	}
	return tok, nil
}

func syntaxError(text string, pos int, msg string) *Error {
	return &Error{Text: text, Pos: pos, Msg: msg, Err: ErrSyntax}
}
