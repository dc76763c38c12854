package minihs2

import (
	"strings"
)

// parseStatement parses one HiveQL statement (no trailing semicolon, as
// HiveServer2 receives it). Failures are *hiveError parse errors with code
// 40000.
func parseStatement(src string) (statement, error) {
	if st, ok := parseSet(src); ok {
		return st, nil
	}
	toks, err := lex(src)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks}
	st, err := p.statement()
	if err != nil {
		return nil, err
	}
	if p.peek().kind != tokEOF {
		return nil, p.fail()
	}
	return st, nil
}

// parseSet recognises SET statements from the raw text, since keys and
// values are free text that the lexer need not accept.
func parseSet(src string) (*setStmt, bool) {
	s := strings.TrimSpace(stripComments(src))
	if len(s) < 3 || !strings.EqualFold(s[:3], "set") || len(s) > 3 && !isSpace(s[3]) {
		return nil, false
	}
	rest := strings.TrimSpace(s[3:])
	if rest == "" {
		return &setStmt{}, true
	}
	k, v, ok := strings.Cut(rest, "=")
	return &setStmt{key: strings.TrimSpace(k), value: strings.TrimSpace(v), hasValue: ok}, true
}

// stripComments drops "--" comment lines (whole lines only, so that "--"
// inside a SET value survives).
func stripComments(src string) string {
	lines := strings.Split(src, "\n")
	out := lines[:0]
	for _, l := range lines {
		if !strings.HasPrefix(strings.TrimSpace(l), "--") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' }

type parser struct {
	toks []token
	pos  int
}

func (p *parser) peek() token { return p.toks[p.pos] }

func (p *parser) peekAt(n int) token {
	if p.pos+n < len(p.toks) {
		return p.toks[p.pos+n]
	}
	return p.toks[len(p.toks)-1]
}

func (p *parser) next() token {
	t := p.toks[p.pos]
	if t.kind != tokEOF {
		p.pos++
	}
	return t
}

// accept consumes the keyword w if it is next.
func (p *parser) accept(w string) bool {
	if p.peek().is(w) {
		p.pos++
		return true
	}
	return false
}

// acceptOp consumes the operator o if it is next.
func (p *parser) acceptOp(o string) bool {
	if p.peek().op(o) {
		p.pos++
		return true
	}
	return false
}

func (p *parser) expect(words ...string) error {
	for _, w := range words {
		if !p.accept(w) {
			return p.fail()
		}
	}
	return nil
}

func (p *parser) expectOp(o string) error {
	if !p.acceptOp(o) {
		return p.fail()
	}
	return nil
}

// fail is Hive's generic parse error at the current token.
func (p *parser) fail() error {
	t := p.peek()
	near := make([]string, 0, 3)
	for i := 0; i < 3; i++ {
		near = append(near, p.peekAt(i).quote())
	}
	return parseErrorAt(t.line, t.col, "cannot recognize input near "+strings.Join(near, " "))
}

// reserved words cannot be bare identifiers (a subset of Hive's list that
// matters for telling aliases from clauses).
var reserved = map[string]bool{
	"select": true, "from": true, "where": true, "limit": true, "group": true, "order": true, "by": true,
	"union": true, "and": true, "or": true, "not": true, "in": true, "is": true, "null": true, "as": true,
	"table": true, "insert": true, "overwrite": true, "into": true, "values": true, "create": true,
	"drop": true, "having": true, "join": true, "on": true, "true": true, "false": true, "distinct": true,
	"sort": true, "cluster": true, "distribute": true, "lateral": true, "location": true, "row": true,
}

func (p *parser) ident() (string, token, error) {
	t := p.peek()
	switch {
	case t.kind == tokQuoted:
		p.pos++
		return t.text, t, nil
	case t.kind == tokIdent && !reserved[strings.ToLower(t.text)]:
		p.pos++
		return t.text, t, nil
	}
	return "", t, p.fail()
}

func (p *parser) str() (string, error) {
	t := p.peek()
	if t.kind != tokString {
		return "", p.fail()
	}
	p.pos++
	return t.text, nil
}

func (p *parser) tableName() (tableName, error) {
	name, tok, err := p.ident()
	if err != nil {
		return tableName{}, err
	}
	if p.acceptOp(".") {
		tbl, _, err := p.ident()
		if err != nil {
			return tableName{}, err
		}
		return tableName{db: name, table: tbl, tok: tok}, nil
	}
	return tableName{table: name, tok: tok}, nil
}

func (p *parser) statement() (statement, error) {
	switch t := p.peek(); {
	case t.is("create"):
		p.next()
		return p.create()
	case t.is("drop"):
		p.next()
		return p.drop()
	case t.is("use"):
		p.next()
		db, tok, err := p.ident()
		return &useStmt{db: db, tok: tok}, err
	case t.is("show"):
		p.next()
		switch {
		case p.accept("tables"):
			return &showStmt{what: "tables"}, nil
		case p.accept("databases"), p.accept("schemas"):
			return &showStmt{what: "databases"}, nil
		}
		return nil, p.fail()
	case t.is("select"):
		return p.selectStmt()
	case t.is("insert"):
		p.next()
		return p.insert()
	case t.is("alter"):
		p.next()
		return p.alter() // partitions.go
	}
	return nil, p.fail()
}

func (p *parser) create() (statement, error) {
	if p.accept("database") || p.accept("schema") {
		st := &createDatabaseStmt{}
		if p.accept("if") {
			if err := p.expect("not", "exists"); err != nil {
				return nil, err
			}
			st.ifNotExists = true
		}
		var err error
		if st.name, _, err = p.ident(); err != nil {
			return nil, err
		}
		if p.accept("comment") {
			if _, err := p.str(); err != nil {
				return nil, err
			}
		}
		if p.accept("location") {
			if st.location, err = p.str(); err != nil {
				return nil, err
			}
		}
		return st, nil
	}
	st := &createTableStmt{}
	st.temporary = p.accept("temporary")
	st.external = p.accept("external")
	if err := p.expect("table"); err != nil {
		return nil, err
	}
	if p.accept("if") {
		if err := p.expect("not", "exists"); err != nil {
			return nil, err
		}
		st.ifNotExists = true
	}
	var err error
	if st.name, err = p.tableName(); err != nil {
		return nil, err
	}
	if st.cols, err = p.columnDefs(); err != nil {
		return nil, err
	}
	if p.accept("comment") {
		if _, err := p.str(); err != nil {
			return nil, err
		}
	}
	if p.peek().is("partitioned") {
		st.partitioned, st.partitionTok = true, p.next()
		if err := p.expect("by"); err != nil {
			return nil, err
		}
		if st.partCols, err = p.columnDefs(); err != nil {
			return nil, err
		}
	}
	if p.accept("row") {
		if st.format, err = p.rowFormat(); err != nil {
			return nil, err
		}
	}
	if p.accept("stored") {
		if err := p.expect("as"); err != nil {
			return nil, err
		}
		if st.storedAs, _, err = p.ident(); err != nil {
			return nil, err
		}
	}
	if p.accept("location") {
		if st.location, err = p.str(); err != nil {
			return nil, err
		}
	}
	if p.accept("tblproperties") {
		if err := p.properties(); err != nil {
			return nil, err
		}
	}
	return st, nil
}

func (p *parser) columnDefs() ([]columnDef, error) {
	if err := p.expectOp("("); err != nil {
		return nil, err
	}
	var cols []columnDef
	for {
		name, _, err := p.ident()
		if err != nil {
			return nil, err
		}
		typ, err := p.typeName()
		if err != nil {
			return nil, err
		}
		if p.accept("comment") {
			if _, err := p.str(); err != nil {
				return nil, err
			}
		}
		cols = append(cols, columnDef{name: name, typ: typ})
		if p.acceptOp(")") {
			return cols, nil
		}
		if err := p.expectOp(","); err != nil {
			return nil, err
		}
	}
}

// typeName reads a column type: a name with optional (p[,s]) or a complex
// type's <...> part, kept as lower-case text.
func (p *parser) typeName() (string, error) {
	t := p.peek()
	if t.kind != tokIdent {
		return "", p.fail()
	}
	p.pos++
	var b strings.Builder
	b.WriteString(strings.ToLower(t.text))
	switch {
	case p.peek().op("("):
		for {
			tok := p.next()
			b.WriteString(tok.text)
			if tok.op(")") {
				break
			}
			if tok.kind == tokEOF {
				return "", p.fail()
			}
		}
	case p.peek().op("<"):
		depth := 0
		for {
			tok := p.next()
			switch {
			case tok.kind == tokEOF:
				return "", p.fail()
			case tok.op("<"):
				depth++
			case tok.op(">"):
				depth--
			}
			b.WriteString(strings.ToLower(tok.text))
			if depth == 0 {
				break
			}
		}
	}
	return b.String(), nil
}

// rowFormat parses what follows ROW: FORMAT DELIMITED and its clauses.
func (p *parser) rowFormat() (rowFormat, error) {
	f := rowFormat{set: true}
	if err := p.expect("format", "delimited"); err != nil {
		return f, err
	}
	var err error
	for {
		switch {
		case p.accept("fields"):
			if err := p.expect("terminated", "by"); err != nil {
				return f, err
			}
			if f.fieldDelim, err = p.str(); err != nil {
				return f, err
			}
			if p.accept("escaped") {
				if err := p.expect("by"); err != nil {
					return f, err
				}
				if _, err := p.str(); err != nil {
					return f, err
				}
			}
		case p.accept("collection"):
			if err := p.expect("items", "terminated", "by"); err != nil {
				return f, err
			}
			if _, err := p.str(); err != nil {
				return f, err
			}
		case p.accept("map"):
			if err := p.expect("keys", "terminated", "by"); err != nil {
				return f, err
			}
			if _, err := p.str(); err != nil {
				return f, err
			}
		case p.accept("lines"):
			if err := p.expect("terminated", "by"); err != nil {
				return f, err
			}
			tok := p.peek()
			lines, err := p.str()
			if err != nil {
				return f, err
			}
			if lines != "\n" {
				return f, semanticError(10064, tok, "LINES TERMINATED BY only supports newline '\\n' right now")
			}
		case p.peek().is("null") && p.peekAt(1).is("defined"):
			p.pos += 2
			if err := p.expect("as"); err != nil {
				return f, err
			}
			if f.nullFormat, err = p.str(); err != nil {
				return f, err
			}
		default:
			return f, nil
		}
	}
}

func (p *parser) properties() error {
	if err := p.expectOp("("); err != nil {
		return err
	}
	for {
		if _, err := p.str(); err != nil {
			return err
		}
		if err := p.expectOp("="); err != nil {
			return err
		}
		if _, err := p.str(); err != nil {
			return err
		}
		if p.acceptOp(")") {
			return nil
		}
		if err := p.expectOp(","); err != nil {
			return err
		}
	}
}

func (p *parser) drop() (statement, error) {
	switch {
	case p.accept("table"):
		st := &dropTableStmt{}
		if p.accept("if") {
			if err := p.expect("exists"); err != nil {
				return nil, err
			}
			st.ifExists = true
		}
		var err error
		if st.name, err = p.tableName(); err != nil {
			return nil, err
		}
		p.accept("purge")
		return st, nil
	case p.accept("database"), p.accept("schema"):
		st := &dropDatabaseStmt{}
		if p.accept("if") {
			if err := p.expect("exists"); err != nil {
				return nil, err
			}
			st.ifExists = true
		}
		var err error
		if st.name, st.tok, err = p.ident(); err != nil {
			return nil, err
		}
		switch {
		case p.accept("cascade"):
			st.cascade = true
		case p.accept("restrict"):
		}
		return st, nil
	}
	return nil, p.fail()
}

func (p *parser) insert() (statement, error) {
	switch {
	case p.accept("overwrite"):
		if p.accept("table") {
			return p.insertTable(true)
		}
		st := &insertDirStmt{local: p.accept("local")}
		if err := p.expect("directory"); err != nil {
			return nil, err
		}
		var err error
		if st.dir, err = p.str(); err != nil {
			return nil, err
		}
		if p.accept("row") {
			if st.format, err = p.rowFormat(); err != nil {
				return nil, err
			}
		}
		if p.accept("stored") {
			if err := p.expect("as"); err != nil {
				return nil, err
			}
			if _, _, err := p.ident(); err != nil {
				return nil, err
			}
		}
		if !p.peek().is("select") {
			return nil, p.fail()
		}
		if st.query, err = p.selectStmt(); err != nil {
			return nil, err
		}
		return st, nil
	case p.accept("into"):
		p.accept("table")
		return p.insertTable(false)
	}
	return nil, p.fail()
}

func (p *parser) insertTable(overwrite bool) (statement, error) {
	st := &insertTableStmt{overwrite: overwrite}
	var err error
	if st.table, err = p.tableName(); err != nil {
		return nil, err
	}
	if p.peek().is("partition") {
		spec, err := p.partitionSpec()
		if err != nil {
			return nil, err
		}
		st.partition = &spec
	}
	if p.peek().is("select") {
		st.query, err = p.selectStmt()
		return st, err
	}
	if overwrite || !p.accept("values") {
		return nil, p.fail()
	}
	for {
		if err := p.expectOp("("); err != nil {
			return nil, err
		}
		var row []expr
		for {
			e, err := p.expr()
			if err != nil {
				return nil, err
			}
			row = append(row, e)
			if p.acceptOp(")") {
				break
			}
			if err := p.expectOp(","); err != nil {
				return nil, err
			}
		}
		st.values = append(st.values, row)
		if !p.acceptOp(",") {
			return st, nil
		}
	}
}
