package el

import (
	"errors"
	"regexp"
	"regexp/syntax"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"
)

// Regular expressions of replaceAll and appendAll are Java regular expressions in Oozie. Go's
// RE2 syntax agrees on the constructs used in practice (classes, quantifiers, groups, anchors,
// \d \s \w, \Q...\E, named groups); Java-only constructs (look-around, back-references,
// possessive quantifiers) are rejected with an error instead of being misread.

const regexpCacheLimit = 1024

// maxMatches bounds the matches replaceAll and appendAll process, so that an expression that
// matches everywhere in a huge value fails instead of exhausting memory.
const maxMatches = 1 << 20

var errTooManyMatches = errors.New("regular expression matches too many times")

var (
	regexpCache sync.Map // string -> *regexp.Regexp
	regexpCount atomic.Int64
)

// compileRegexp compiles expr, caching compiled expressions (bounded like the template cache).
func compileRegexp(expr string) (*regexp.Regexp, error) {
	if v, ok := regexpCache.Load(expr); ok {
		return v.(*regexp.Regexp), nil
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		// Go's reason without its "error parsing regexp: " lead: the code and the expression.
		reason := err.Error()
		var se *syntax.Error
		if errors.As(err, &se) {
			reason = se.Code.String() + ": `" + se.Expr + "`"
		}
		return nil, errors.New("invalid regular expression " + strconv.Quote(expr) + ": " + reason)
	}
	if regexpCount.Add(1) > regexpCacheLimit {
		regexpCache.Clear()
		regexpCount.Store(1)
	}
	regexpCache.Store(expr, re)
	return re, nil
}

// javaReplaceAll replaces every match of re in src with repl, where repl follows Java's
// Matcher rules: "\x" is a literal x, "$n" is group n (further digits are taken while they
// form an existing group number), "${name}" is a named group, a group that did not take part
// in the match adds nothing. As in Java, a malformed repl is only an error when there is a
// match. More than limit matches is an error.
func javaReplaceAll(re *regexp.Regexp, src, repl string, limit int) (string, error) {
	matches := re.FindAllStringSubmatchIndex(src, limit+1)
	if matches == nil {
		return src, nil
	}
	if len(matches) > limit {
		return "", errTooManyMatches
	}
	var b strings.Builder
	last := 0
	for _, m := range matches {
		b.WriteString(src[last:m[0]])
		if err := expandJavaReplacement(&b, re, src, m, repl); err != nil {
			return "", err
		}
		if b.Len() > maxResultLen {
			return "", errResultTooLong
		}
		last = m[1]
	}
	b.WriteString(src[last:])
	return b.String(), nil
}

func expandJavaReplacement(b *strings.Builder, re *regexp.Regexp, src string, m []int, repl string) error {
	groups := re.NumSubexp()
	writeGroup := func(g int) {
		if m[2*g] >= 0 {
			b.WriteString(src[m[2*g]:m[2*g+1]])
		}
	}
	for i := 0; i < len(repl); {
		c := repl[i]
		switch c {
		case '\\':
			if i+1 >= len(repl) {
				return errors.New("character to be escaped is missing in replacement " + strconv.Quote(repl))
			}
			_, size := utf8.DecodeRuneInString(repl[i+1:])
			b.WriteString(repl[i+1 : i+1+size])
			i += 1 + size
		case '$':
			i++
			if i >= len(repl) {
				return errors.New("illegal group reference: group index is missing in replacement " + strconv.Quote(repl))
			}
			if repl[i] == '{' {
				end := strings.IndexByte(repl[i:], '}')
				if end < 0 {
					return errors.New("named capturing group is missing trailing '}' in replacement " + strconv.Quote(repl))
				}
				name := repl[i+1 : i+end]
				if name == "" {
					return errors.New("named capturing group has 0 length name in replacement " + strconv.Quote(repl))
				}
				g := re.SubexpIndex(name)
				if g < 0 {
					return errors.New("no group with name {" + name + "}")
				}
				writeGroup(g)
				i += end + 1
				continue
			}
			if !isDigit(repl[i]) {
				return errors.New("illegal group reference in replacement " + strconv.Quote(repl))
			}
			ref := int(repl[i] - '0')
			i++
			for i < len(repl) && isDigit(repl[i]) {
				next := ref*10 + int(repl[i]-'0')
				if next > groups {
					break
				}
				ref = next
				i++
			}
			if ref > groups {
				return errors.New("no group " + strconv.Itoa(ref))
			}
			writeGroup(ref)
		default:
			b.WriteByte(c)
			i++
		}
	}
	return nil
}

// javaSplit splits s around the matches of re like Java's String.split(regex): a zero-width
// match at the start yields no leading empty piece, trailing empty pieces are dropped, and
// without any match the result is s itself. More than limit matches is an error.
func javaSplit(re *regexp.Regexp, s string, limit int) ([]string, error) {
	matches := re.FindAllStringIndex(s, limit+1)
	if len(matches) > limit {
		return nil, errTooManyMatches
	}
	var pieces []string
	index := 0
	for _, m := range matches {
		if index == 0 && m[0] == 0 && m[1] == 0 {
			continue
		}
		pieces = append(pieces, s[index:m[0]])
		index = m[1]
	}
	if index == 0 {
		return []string{s}, nil
	}
	pieces = append(pieces, s[index:])
	n := len(pieces)
	for n > 0 && pieces[n-1] == "" {
		n--
	}
	return pieces[:n], nil
}
