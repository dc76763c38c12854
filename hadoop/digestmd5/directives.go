package digestmd5

import (
	"errors"
	"fmt"
	"strings"
)

// errSyntax reports a challenge or response that does not follow the
// RFC 2831 directive grammar.
var errSyntax = errors.New("digest-md5: malformed directive list")

// directives is a parsed list of name=value pairs. Names are lower-cased;
// a name may repeat (realm does in challenges), so values are kept in order.
type directives map[string][]string

// get returns the single value of name, or "" when it is absent.
func (d directives) get(name string) string {
	if v := d[name]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// has reports whether name appeared at all.
func (d directives) has(name string) bool {
	_, ok := d[name]
	return ok
}

// once returns the value of a directive that must appear at most once.
func (d directives) once(name string) (string, error) {
	if len(d[name]) > 1 {
		return "", fmt.Errorf("digest-md5: directive %q repeated", name)
	}
	return d.get(name), nil
}

// parseDirectives parses `name=value, name="quoted value", ...`. Empty
// elements (",,") are allowed as in the RFC's #rule; anything else that is
// not a name=value pair is an error.
func parseDirectives(s string) (directives, error) {
	d := directives{}
	i := 0
	for {
		i = skipSpace(s, i)
		for i < len(s) && s[i] == ',' {
			i = skipSpace(s, i+1)
		}
		if i >= len(s) {
			return d, nil
		}
		start := i
		for i < len(s) && isTokenChar(s[i]) {
			i++
		}
		if i == start {
			return nil, fmt.Errorf("%w: expected a name at offset %d", errSyntax, start)
		}
		name := strings.ToLower(s[start:i])
		i = skipSpace(s, i)
		if i >= len(s) || s[i] != '=' {
			return nil, fmt.Errorf("%w: expected '=' after %q", errSyntax, name)
		}
		i = skipSpace(s, i+1)
		var value string
		if i < len(s) && s[i] == '"' {
			var err error
			value, i, err = readQuoted(s, i+1)
			if err != nil {
				return nil, fmt.Errorf("%w: value of %q: %v", errSyntax, name, err)
			}
		} else {
			start := i
			for i < len(s) && isTokenChar(s[i]) {
				i++
			}
			value = s[start:i]
		}
		d[name] = append(d[name], value)
		i = skipSpace(s, i)
		if i < len(s) && s[i] != ',' {
			return nil, fmt.Errorf("%w: unexpected %q after %q", errSyntax, s[i], name)
		}
	}
}

// readQuoted reads a quoted-string body starting after the opening quote
// and returns the unescaped value and the index after the closing quote.
func readQuoted(s string, i int) (string, int, error) {
	var b strings.Builder
	for i < len(s) {
		switch c := s[i]; c {
		case '"':
			return b.String(), i + 1, nil
		case '\\':
			if i+1 >= len(s) {
				return "", i, errors.New("dangling escape")
			}
			b.WriteByte(s[i+1])
			i += 2
		default:
			b.WriteByte(c)
			i++
		}
	}
	return "", i, errors.New("unterminated quoted string")
}

func skipSpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n') {
		i++
	}
	return i
}

// isTokenChar reports whether c may appear in an RFC 2616 token.
func isTokenChar(c byte) bool {
	if c <= ' ' || c >= 0x7f {
		return false
	}
	return !strings.ContainsRune("()<>@,;:\\\"/[]?={}", rune(c))
}

// quote renders v as a quoted-string.
func quote(v string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(v); i++ {
		if v[i] == '"' || v[i] == '\\' {
			b.WriteByte('\\')
		}
		b.WriteByte(v[i])
	}
	b.WriteByte('"')
	return b.String()
}

// splitList splits a comma-separated option list such as qop="auth,auth-int".
func splitList(v string) []string {
	var out []string
	for _, p := range strings.Split(v, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}
