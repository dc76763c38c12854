package clustertools

import (
	"fmt"
	"strings"
	"unicode"
)

// The part of Pig Latin the pig stand-in runs, parsed as Pig's
// QueryParser does (keywords in any case, aliases and field names as
// written):
//
//	alias = LOAD 'path' [USING PigStorage(['delim'])] [AS (name[:type], ...)];
//	alias = FILTER alias BY condition;
//	alias = FOREACH alias GENERATE expr [AS name[:type]], ... | *;
//	alias = STREAM alias THROUGH `command` [AS (schema)];
//	STORE alias INTO 'path' [USING PigStorage(['delim'])];
//	SET key 'value';
//
// Expressions: $n and field names, numbers, 'strings', null, + - * / %,
// == != < > <= >=, MATCHES, IS [NOT] NULL, AND, OR, NOT, parentheses, and
// the builtins CONCAT, UPPER, LOWER, TRIM and SIZE. Any other statement
// is refused with ERROR 1200 naming it (pigUnsupported), so that a script
// never half runs.

// pigToken is one token of a script.
type pigToken struct {
	kind      byte // 'i' identifier, 'n' number, 's' string, 'c' command, '$' positional, 'p' punctuation, 0 end
	text      string
	line, col int
}

// pigError is a Pig error with its code, as Grunt prints it.
type pigError struct {
	code      int
	line, col int
	msg       string
}

func (e *pigError) Error() string {
	if e.line > 0 {
		return fmt.Sprintf("ERROR %d: <line %d, column %d> %s", e.code, e.line, e.col, e.msg)
	}
	return fmt.Sprintf("ERROR %d: %s", e.code, e.msg)
}

// Pig's error codes the stand-in gives.
const (
	pigErrParse       = 1200 // syntax errors and unknown statements
	pigErrProjection  = 1025 // a field the schema does not have
	pigErrUndefined   = 1005 // an alias nobody defined (Pig: "No plan for X to describe/store")
	pigErrFunction    = 1070 // a function Pig cannot resolve
	pigErrInput       = 2118 // a LOAD path that does not exist
	pigErrOutput      = 6000 // a STORE path that exists
	pigErrStream      = 2055 // a STREAM command that failed
	pigErrParam       = 2999 // an undefined $parameter
	pigErrBackendFail = 2244 // a job that failed
)

// pigUnsupported are Pig Latin's statements and operators the stand-in
// does not implement.
var pigUnsupported = []string{"GROUP", "COGROUP", "JOIN", "ORDER", "DISTINCT", "LIMIT", "UNION", "SPLIT", "CROSS",
	"SAMPLE", "RANK", "CUBE", "DUMP", "DESCRIBE", "EXPLAIN", "ILLUSTRATE", "REGISTER", "DEFINE", "IMPORT",
	"MAPREDUCE", "NATIVE", "ASSERT", "FS", "SH", "RUN", "EXEC", "CALL"}

// lexPig splits a script into tokens; comments (-- and /* */) are dropped.
func lexPig(src string) ([]pigToken, error) {
	var toks []pigToken
	line, col := 1, 0 // Pig counts columns from 0
	rs := []rune(src)
	adv := func(n int) {
		for k := 0; k < n; k++ {
			if rs[0] == '\n' {
				line, col = line+1, 0
			} else {
				col++
			}
			rs = rs[1:]
		}
	}
	for len(rs) > 0 {
		c := rs[0]
		l, cl := line, col
		switch {
		case unicode.IsSpace(c):
			adv(1)
		case c == '-' && len(rs) > 1 && rs[1] == '-':
			for len(rs) > 0 && rs[0] != '\n' {
				adv(1)
			}
		case c == '/' && len(rs) > 1 && rs[1] == '*':
			end := strings.Index(string(rs[2:]), "*/")
			if end < 0 {
				return nil, &pigError{code: pigErrParse, line: l, col: cl, msg: "unterminated comment"}
			}
			adv(2 + len([]rune(string(rs[2:])[:end])) + 2)
		case c == '\'' || c == '`':
			var b strings.Builder
			n := 1
			for ; n < len(rs) && rs[n] != c; n++ {
				if rs[n] == '\\' && n+1 < len(rs) && c == '\'' {
					n++
					switch rs[n] {
					case 't':
						b.WriteRune('\t')
					case 'n':
						b.WriteRune('\n')
					default:
						b.WriteRune(rs[n])
					}
					continue
				}
				b.WriteRune(rs[n])
			}
			if n >= len(rs) {
				return nil, &pigError{code: pigErrParse, line: l, col: cl, msg: "unterminated quoted string"}
			}
			kind := byte('s')
			if c == '`' {
				kind = 'c'
			}
			toks = append(toks, pigToken{kind: kind, text: b.String(), line: l, col: cl})
			adv(n + 1)
		case c == '$' && len(rs) > 1 && unicode.IsDigit(rs[1]):
			n := 1
			for n < len(rs) && unicode.IsDigit(rs[n]) {
				n++
			}
			toks = append(toks, pigToken{kind: '$', text: string(rs[1:n]), line: l, col: cl})
			adv(n)
		case unicode.IsDigit(c) || c == '.' && len(rs) > 1 && unicode.IsDigit(rs[1]):
			n := 0
			for n < len(rs) && (unicode.IsDigit(rs[n]) || rs[n] == '.' || rs[n] == 'e' || rs[n] == 'E') {
				n++
			}
			if n < len(rs) && strings.ContainsRune("lLfF", rs[n]) {
				n++
			}
			toks = append(toks, pigToken{kind: 'n', text: string(rs[:n]), line: l, col: cl})
			adv(n)
		case unicode.IsLetter(c) || c == '_':
			n := 0
			for n < len(rs) && (unicode.IsLetter(rs[n]) || unicode.IsDigit(rs[n]) || rs[n] == '_') {
				n++
			}
			toks = append(toks, pigToken{kind: 'i', text: string(rs[:n]), line: l, col: cl})
			adv(n)
		default:
			p := string(c)
			if len(rs) > 1 && strings.Contains("== != <= >= ::", string(rs[:2])) && rs[1] != ' ' {
				p = string(rs[:2])
			}
			if !strings.Contains("=;,():*<>+-/%.!{}[]#", string(c)) {
				return nil, &pigError{code: pigErrParse, line: l, col: cl, msg: fmt.Sprintf("Syntax error, unexpected symbol at or near '%c'", c)}
			}
			toks = append(toks, pigToken{kind: 'p', text: p, line: l, col: cl})
			adv(len([]rune(p)))
		}
	}
	return append(toks, pigToken{line: line, col: col}), nil
}

// pigField is one field of a schema.
type pigField struct{ name, typ string }

// pigGen is one item of FOREACH ... GENERATE.
type pigGen struct {
	expr      pigExpr
	star      bool
	name, typ string
}

// pigStmt is one statement.
type pigStmt struct {
	line, col int
	op        string // LOAD, FILTER, FOREACH, STREAM, STORE, SET
	alias     string // the relation the statement defines
	input     string // the relation it reads
	path      string // LOAD and STORE
	delim     string // PigStorage's delimiter
	schema    []pigField
	cond      pigExpr
	gens      []pigGen
	command   string // STREAM
	key, val  string // SET
}

// pigParser reads statements from tokens.
type pigParser struct {
	toks []pigToken
	i    int
}

func (p *pigParser) peek() pigToken { return p.toks[p.i] }
func (p *pigParser) next() pigToken {
	t := p.toks[p.i]
	if t.kind != 0 {
		p.i++
	}
	return t
}

// is reports whether the next token is the keyword or punctuation s.
func (p *pigParser) is(s string) bool {
	t := p.peek()
	return (t.kind == 'i' || t.kind == 'p') && strings.EqualFold(t.text, s)
}

func (p *pigParser) errAt(t pigToken, format string, args ...any) error {
	return &pigError{code: pigErrParse, line: t.line, col: t.col, msg: fmt.Sprintf(format, args...)}
}

func (p *pigParser) unexpected() error {
	t := p.peek()
	if t.kind == 0 {
		return p.errAt(t, "Syntax error, unexpected end of script")
	}
	return p.errAt(t, "Syntax error, unexpected symbol at or near '%s'", t.text)
}

func (p *pigParser) expect(s string) error {
	if !p.is(s) {
		return p.unexpected()
	}
	p.next()
	return nil
}

func (p *pigParser) ident() (string, error) {
	if p.peek().kind != 'i' {
		return "", p.unexpected()
	}
	return p.next().text, nil
}

// parsePig parses a whole script (parameters already substituted).
func parsePig(src string) ([]*pigStmt, error) {
	toks, err := lexPig(src)
	if err != nil {
		return nil, err
	}
	p := &pigParser{toks: toks}
	var out []*pigStmt
	for p.peek().kind != 0 {
		if p.is(";") {
			p.next()
			continue
		}
		s, err := p.statement()
		if err != nil {
			return nil, err
		}
		if err := p.expect(";"); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// statement parses one statement up to its semicolon.
func (p *pigParser) statement() (*pigStmt, error) {
	start := p.peek()
	s := &pigStmt{line: start.line, col: start.col}
	if start.kind != 'i' {
		return nil, p.unexpected()
	}
	word := strings.ToUpper(start.text)
	switch word {
	case "STORE":
		p.next()
		return s, p.store(s)
	case "SET":
		p.next()
		s.op = "SET"
		key := p.next()
		if key.kind != 'i' && key.kind != 's' {
			return nil, p.errAt(key, "Syntax error, SET needs a key and a value")
		}
		s.key = key.text
		for p.is(".") { // dotted keys: pig.tmpfilecompression
			p.next()
			part := p.next()
			if part.kind != 'i' {
				return nil, p.errAt(part, "Syntax error, unexpected symbol at or near '%s'", part.text)
			}
			s.key += "." + part.text
		}
		val := p.next()
		if val.kind != 's' && val.kind != 'n' && val.kind != 'i' {
			return nil, p.errAt(val, "Syntax error, SET needs a key and a value")
		}
		s.val = val.text
		return s, nil
	}
	if unsupported(word) {
		return nil, notImplemented(start, word)
	}
	alias, _ := p.ident()
	s.alias = alias
	if err := p.expect("="); err != nil {
		return nil, err
	}
	opTok := p.next()
	s.op, s.line, s.col = strings.ToUpper(opTok.text), opTok.line, opTok.col
	switch s.op {
	case "LOAD":
		return s, p.load(s)
	case "FILTER":
		return s, p.filter(s)
	case "FOREACH":
		return s, p.foreach(s)
	case "STREAM":
		return s, p.streamOp(s)
	}
	if opTok.kind == 'i' && unsupported(s.op) {
		return nil, notImplemented(opTok, s.op)
	}
	return nil, p.errAt(opTok, "Syntax error, unexpected symbol at or near '%s'", opTok.text)
}

func unsupported(word string) bool {
	for _, w := range pigUnsupported {
		if w == word {
			return true
		}
	}
	return false
}

func notImplemented(t pigToken, word string) error {
	return &pigError{code: pigErrParse, line: t.line, col: t.col, msg: word +
		" is not implemented by gozie's pig stand-in (it runs LOAD, FILTER, FOREACH ... GENERATE, STREAM, STORE and SET)"}
}

func (p *pigParser) load(s *pigStmt) error {
	t := p.next()
	if t.kind != 's' {
		return p.errAt(t, "Syntax error, unexpected symbol at or near '%s'", t.text)
	}
	s.path = t.text
	var err error
	if s.delim, err = p.using(); err != nil {
		return err
	}
	if p.is("AS") {
		p.next()
		s.schema, err = p.schema()
	}
	return err
}

// using parses [USING PigStorage(['delim'])] and returns the delimiter.
func (p *pigParser) using() (string, error) {
	if !p.is("USING") {
		return "\t", nil
	}
	p.next()
	fn := p.next()
	if fn.kind != 'i' {
		return "", p.errAt(fn, "Syntax error, unexpected symbol at or near '%s'", fn.text)
	}
	if fn.text != "PigStorage" && fn.text != "org.apache.pig.builtin.PigStorage" {
		return "", &pigError{code: pigErrFunction, line: fn.line, col: fn.col, msg: "Could not resolve " + fn.text +
			" using imports: [, java.lang., org.apache.pig.builtin., org.apache.pig.impl.builtin.] (gozie's pig stand-in loads and stores with PigStorage only)"}
	}
	delim := "\t"
	if p.is("(") {
		p.next()
		if p.peek().kind == 's' {
			delim = p.next().text
		}
		if err := p.expect(")"); err != nil {
			return "", err
		}
	}
	if delim == "" {
		delim = "\t"
	}
	return delim, nil
}

// schema parses (name[:type], ...).
func (p *pigParser) schema() ([]pigField, error) {
	if err := p.expect("("); err != nil {
		return nil, err
	}
	var out []pigField
	for {
		name, err := p.ident()
		if err != nil {
			return nil, err
		}
		f := pigField{name: name, typ: "bytearray"}
		if p.is(":") {
			p.next()
			typ, err := p.ident()
			if err != nil {
				return nil, err
			}
			f.typ = strings.ToLower(typ)
			if !knownType(f.typ) {
				return nil, p.errAt(p.toks[p.i-1], "type %s is not implemented by gozie's pig stand-in", typ)
			}
		}
		out = append(out, f)
		if !p.is(",") {
			break
		}
		p.next()
	}
	return out, p.expect(")")
}

func knownType(t string) bool {
	switch t {
	case "int", "long", "float", "double", "chararray", "bytearray", "boolean":
		return true
	}
	return false
}

func (p *pigParser) filter(s *pigStmt) error {
	var err error
	if s.input, err = p.ident(); err != nil {
		return err
	}
	if err := p.expect("BY"); err != nil {
		return err
	}
	s.cond, err = p.expr()
	return err
}

func (p *pigParser) foreach(s *pigStmt) error {
	var err error
	if s.input, err = p.ident(); err != nil {
		return err
	}
	if p.is("{") {
		return notImplemented(p.peek(), "nested FOREACH")
	}
	if err := p.expect("GENERATE"); err != nil {
		return err
	}
	for {
		var g pigGen
		if p.is("*") {
			p.next()
			g.star = true
		} else {
			if g.expr, err = p.expr(); err != nil {
				return err
			}
			if p.is("AS") {
				p.next()
				if g.name, err = p.ident(); err != nil {
					return err
				}
				if p.is(":") {
					p.next()
					if g.typ, err = p.ident(); err != nil {
						return err
					}
					g.typ = strings.ToLower(g.typ)
				}
			}
		}
		s.gens = append(s.gens, g)
		if !p.is(",") {
			return nil
		}
		p.next()
	}
}

func (p *pigParser) streamOp(s *pigStmt) error {
	var err error
	if s.input, err = p.ident(); err != nil {
		return err
	}
	if err := p.expect("THROUGH"); err != nil {
		return err
	}
	t := p.next()
	if t.kind != 'c' {
		return p.errAt(t, "STREAM ... THROUGH needs a `command` (a DEFINEd alias is not implemented by gozie's pig stand-in)")
	}
	s.command = t.text
	if p.is("AS") {
		p.next()
		s.schema, err = p.schema()
	}
	return err
}

func (p *pigParser) store(s *pigStmt) error {
	s.op = "STORE"
	var err error
	if s.input, err = p.ident(); err != nil {
		return err
	}
	if err := p.expect("INTO"); err != nil {
		return err
	}
	t := p.next()
	if t.kind != 's' {
		return p.errAt(t, "Syntax error, unexpected symbol at or near '%s'", t.text)
	}
	s.path = t.text
	s.delim, err = p.using()
	return err
}
