package minihs2

import (
	"fmt"
	"strconv"
	"strings"
)

// SELECT and the expressions of WHERE, select lists and VALUES.

func (p *parser) selectStmt() (*selectStmt, error) {
	if err := p.expect("select"); err != nil {
		return nil, err
	}
	p.accept("all")
	st := &selectStmt{limit: -1}
	for {
		it, err := p.selectItem()
		if err != nil {
			return nil, err
		}
		st.items = append(st.items, it)
		if !p.acceptOp(",") {
			break
		}
	}
	if p.accept("from") {
		name, err := p.tableName()
		if err != nil {
			return nil, err
		}
		st.from = &name
		if p.accept("as") {
			if st.alias, _, err = p.ident(); err != nil {
				return nil, err
			}
		} else if t := p.peek(); t.kind == tokQuoted || t.kind == tokIdent && !reserved[strings.ToLower(t.text)] {
			st.alias, _, _ = p.ident()
		}
	}
	if p.accept("where") {
		var err error
		if st.where, err = p.expr(); err != nil {
			return nil, err
		}
	}
	if p.accept("limit") {
		t := p.peek()
		n, err := strconv.Atoi(t.text)
		if t.kind != tokNumber || err != nil || n < 0 {
			return nil, p.fail()
		}
		p.pos++
		st.limit = n
	}
	return st, nil
}

func (p *parser) selectItem() (selectItem, error) {
	t := p.peek()
	it := selectItem{tok: t}
	switch {
	case t.op("*"):
		p.pos++
		it.star = true
		return it, nil
	case (t.kind == tokIdent || t.kind == tokQuoted) && p.peekAt(1).op(".") && p.peekAt(2).op("*"):
		p.pos += 3
		it.star, it.qual = true, t.text
		return it, nil
	case t.is("count") && p.peekAt(1).op("(") && p.peekAt(2).op("*") && p.peekAt(3).op(")"):
		p.pos += 4
		it.count = true
	default:
		e, err := p.expr()
		if err != nil {
			return it, err
		}
		it.expr = e
	}
	var err error
	if p.accept("as") {
		it.alias, _, err = p.ident()
	} else if n := p.peek(); n.kind == tokQuoted || n.kind == tokIdent && !reserved[strings.ToLower(n.text)] {
		it.alias, _, err = p.ident()
	}
	return it, err
}

// expr parses OR / AND / NOT over predicates.
func (p *parser) expr() (expr, error) {
	l, err := p.andExpr()
	if err != nil {
		return nil, err
	}
	for p.accept("or") {
		r, err := p.andExpr()
		if err != nil {
			return nil, err
		}
		l = &binaryExpr{op: "or", l: l, r: r}
	}
	return l, nil
}

func (p *parser) andExpr() (expr, error) {
	l, err := p.notExpr()
	if err != nil {
		return nil, err
	}
	for p.accept("and") {
		r, err := p.notExpr()
		if err != nil {
			return nil, err
		}
		l = &binaryExpr{op: "and", l: l, r: r}
	}
	return l, nil
}

func (p *parser) notExpr() (expr, error) {
	if p.accept("not") {
		e, err := p.notExpr()
		if err != nil {
			return nil, err
		}
		return &notExpr{e: e}, nil
	}
	return p.predicate()
}

var comparisons = map[string]bool{"=": true, "==": true, "!=": true, "<>": true, "<": true, "<=": true, ">": true, ">=": true, "<=>": true}

func (p *parser) predicate() (expr, error) {
	l, err := p.primary()
	if err != nil {
		return nil, err
	}
	t := p.peek()
	switch {
	case t.kind == tokOp && comparisons[t.text]:
		p.pos++
		r, err := p.primary()
		if err != nil {
			return nil, err
		}
		return &binaryExpr{op: t.text, l: l, r: r}, nil
	case t.is("is"):
		p.pos++
		not := p.accept("not")
		if err := p.expect("null"); err != nil {
			return nil, err
		}
		return &isNullExpr{e: l, not: not}, nil
	case t.is("in"), t.is("not") && p.peekAt(1).is("in"):
		not := p.accept("not")
		p.pos++
		if err := p.expectOp("("); err != nil {
			return nil, err
		}
		in := &inExpr{e: l, not: not}
		for {
			e, err := p.primary()
			if err != nil {
				return nil, err
			}
			in.list = append(in.list, e)
			if p.acceptOp(")") {
				return in, nil
			}
			if err := p.expectOp(","); err != nil {
				return nil, err
			}
		}
	}
	return l, nil
}

func (p *parser) primary() (expr, error) {
	t := p.peek()
	switch {
	case t.kind == tokNumber:
		p.pos++
		v, err := numberValue(t.text)
		if err != nil {
			return nil, parseErrorAt(t.line, t.col, fmt.Sprintf("invalid number '%s'", t.text))
		}
		return &literal{v: v}, nil
	case t.kind == tokString:
		p.pos++
		return &literal{v: t.text}, nil
	case t.is("true"), t.is("false"):
		p.pos++
		return &literal{v: t.is("true")}, nil
	case t.is("null"):
		p.pos++
		return &literal{}, nil
	case t.op("("):
		p.pos++
		e, err := p.expr()
		if err != nil {
			return nil, err
		}
		return e, p.expectOp(")")
	case t.op("-"):
		p.pos++
		e, err := p.primary()
		if err != nil {
			return nil, err
		}
		return &negExpr{e: e}, nil
	case t.kind == tokIdent || t.kind == tokQuoted:
		name, tok, err := p.ident()
		if err != nil {
			return nil, err
		}
		if p.peek().op(".") && (p.peekAt(1).kind == tokIdent || p.peekAt(1).kind == tokQuoted) {
			p.pos++
			col, _, err := p.ident()
			if err != nil {
				return nil, err
			}
			return &colRef{qual: name, name: col, tok: tok}, nil
		}
		return &colRef{name: name, tok: tok}, nil
	}
	return nil, p.fail()
}

// numberValue converts a numeric literal: integers (with Hive's L, S, Y
// suffixes) to int64, the others (fractions, exponents, BD decimals) to
// float64.
func numberValue(s string) (any, error) {
	u := strings.ToUpper(s)
	switch {
	case strings.HasSuffix(u, "BD"):
		return strconv.ParseFloat(s[:len(s)-2], 64)
	case strings.HasSuffix(u, "L"), strings.HasSuffix(u, "S"), strings.HasSuffix(u, "Y"):
		return strconv.ParseInt(s[:len(s)-1], 10, 64)
	case strings.ContainsAny(s, ".eE"):
		return strconv.ParseFloat(s, 64)
	}
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return n, nil
	}
	return strconv.ParseFloat(s, 64)
}
