package el

import (
	"errors"
	"strings"
	"testing"
)

func TestParseSyntaxErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		text string
		pos  int
		msg  string
	}{
		{"${", 0, `unterminated expression: missing "}"`},
		{"abc ${1 + 2", 4, `unterminated expression: missing "}"`},
		{"${}", 0, "empty expression"},
		{"x${   }", 1, "empty expression"},
		{"${a +}", 5, "unexpected end of expression"},
		{"${1 + * 2}", 6, `unexpected "*"`},
		{"${a b}", 4, `unexpected "b"`},
		{"${a:b}", 3, `unexpected ":"`},
		{"${(1}", 4, `unexpected end of expression, expected ")"`},
		{"${(1 2)}", 5, `expected ")", found "2"`},
		{"${f(1,)}", 6, `unexpected ")"`},
		{"${f(1 2)}", 6, `expected "," or ")", found "2"`},
		{"${a ? b}", 7, `unexpected end of expression, expected ":"`},
		{"${a ? b c}", 8, `expected ":", found "c"`},
		{"${m[1}", 5, `unexpected end of expression, expected "]"`},
		{"${a.}", 4, `unexpected end of expression, expected a property name after "."`},
		{"${a.true}", 4, `expected a property name after ".", found "true"`},
		{"${a.5}", 3, `unexpected ".5"`},
		{"${1e}", 3, `unexpected "e"`},
		{"${a = b}", 4, `illegal character "=" (use "==" or eq)`},
		{"${a & b}", 4, `illegal character "&"`},
		{"${a | b}", 4, `illegal character "|"`},
		{"${a ^ b}", 4, `illegal character '^'`},
		{"${€}", 2, `illegal character '€'`},
		{"${'abc}", 2, "unterminated string literal"},
		{`${'abc\`, 2, "unterminated string literal"},
		{`${"a\n"}`, 4, `badly escaped string literal: only \" and \\ are escapes`},
		{`${'a\"'}`, 4, `badly escaped string literal: only \' and \\ are escapes`},
		{"${99999999999999999999}", 2, "integer literal 99999999999999999999 out of range"},
		{"${empty}", 7, "unexpected end of expression"},
		{"${not}", 5, "unexpected end of expression"},
		{"${)}", 2, `unexpected ")"`},
		{"${(1)(2)}", 5, `unexpected "("`},
		// As in commons-el, "ns : f(" is a prefixed call even with blanks, so this ternary lacks its ":".
		{"${x ? ns : f()}", 14, `unexpected end of expression, expected ":"`},
		{"ok ${1} then ${1 +}", 18, "unexpected end of expression"},
		{"${" + strings.Repeat("(", maxDepth+1) + "1" + strings.Repeat(")", maxDepth+1) + "}", 1002, "expression nested too deeply"},
		{"${" + strings.Repeat("-", maxDepth+1) + "1}", 1001, "expression nested too deeply"},
		{"${1" + strings.Repeat("+1", maxDepth+1) + "}", 2001, "expression nested too deeply"},
	}
	for _, tc := range tests {
		_, err := Parse(tc.text)
		var elErr *Error
		if !errors.As(err, &elErr) {
			t.Errorf("Parse(%.40q) error = %v, want an *Error", tc.text, err)
			continue
		}
		if !errors.Is(err, ErrSyntax) || elErr.Pos != tc.pos || elErr.Msg != tc.msg || elErr.Text != tc.text {
			t.Errorf("Parse(%.40q) = pos %d msg %q, want pos %d msg %q", tc.text, elErr.Pos, elErr.Msg, tc.pos, tc.msg)
		}
	}
}

func TestParseAccepts(t *testing.T) {
	t.Parallel()
	valid := []string{
		"",
		"plain text",
		"${a ? b : c}",
		"${a ? b:c}",
		"${x ? ns:f() : y}",
		"${ns:f()}",
		"${ns : f ( 1 , 2 ) }",
		"${$dollar_ident1 + _under}",
		"${#implicit}",
		"${Ångström + 数据}",
		"${a.b.c[d][0].e}",
		"${f()[0].x}",
		"${'a'['b']}",
	}
	for _, text := range valid {
		if _, err := Parse(text); err != nil {
			t.Errorf("Parse(%q): %v", text, err)
		}
	}
}

// TestDollarHandling pins down how literal "$" and "${" behave, which the package documents:
// every "${" opens an expression, other "$" are plain text, and a backslash is not an escape.
func TestDollarHandling(t *testing.T) {
	t.Parallel()
	env := &Env{Vars: MapVars(map[string]string{"x": "X", "PATH": "/bin"})}
	tests := []struct{ text, want string }{
		{"$PATH:/usr/bin", "$PATH:/usr/bin"},
		{"${PATH}:/usr/bin", "/bin:/usr/bin"},
		{"$", "$"},
		{"a$", "a$"},
		{"$$", "$$"},
		{"$${x}", "$X"},
		{"$$${x}", "$$X"},
		{`\${x}`, `\X`},
		{"${'${'}x}", "${x}"},
		{"${'$'}{x}", "${x}"},
		{"$ {x}", "$ {x}"},
		{"}{", "}{"},
		{"a}b${x}}", "a}bX}"},
		{"${x}${x}", "XX"},
		{"{${x}}", "{X}"},
	}
	for _, tc := range tests {
		got, err := env.EvalString(tc.text)
		if err != nil {
			t.Errorf("EvalString(%q): %v", tc.text, err)
			continue
		}
		if got != tc.want {
			t.Errorf("EvalString(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}

func TestTemplate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		text    string
		literal bool
		want    any
	}{
		{"", true, ""},
		{"abc", true, "abc"},
		{"${1}", false, int64(1)},
		{"${1}${2}", false, "12"},
		{" ${1}", false, " 1"},
		{"${1 / 2} and ${true}", false, "0.5 and true"},
		{"${null}", false, nil},
		{"[${null}]", false, "[]"},
		{"${1e7}", false, 1e7},
		{"v=${1e7}", false, "v=1.0E7"},
	}
	for _, tc := range tests {
		tmpl, err := Parse(tc.text)
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.text, err)
			continue
		}
		if tmpl.String() != tc.text || tmpl.IsLiteral() != tc.literal {
			t.Errorf("Parse(%q): String() = %q, IsLiteral() = %v", tc.text, tmpl.String(), tmpl.IsLiteral())
		}
		got, err := tmpl.Eval(nil)
		if err != nil || !sameValue(got, tc.want) {
			t.Errorf("Parse(%q).Eval = %#v, %v, want %#v", tc.text, got, err, tc.want)
		}
	}
}
