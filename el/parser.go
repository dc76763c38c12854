package el

import (
	"strconv"
	"strings"
)

// maxDepth bounds the depth of the syntax tree (nested parentheses, calls, indexes,
// conditionals, chained operators), so that hostile input cannot exhaust the stack when the
// tree is parsed or evaluated. Real expressions stay far below it.
const maxDepth = 1000

// Template is a parsed text: literal pieces and ${...} expressions. It is immutable and safe
// for concurrent use; parse once, evaluate many times.
type Template struct {
	text  string
	parts []part
}

// part is either a literal piece of text (expr == nil) or one expression.
type part struct {
	lit  string
	expr node
}

// Parse pre-compiles text for repeated evaluation. Every "${" starts an expression that runs
// to its matching "}"; everything else is literal text (see the package documentation for how
// to write a literal "${"). A syntax error is an *Error wrapping ErrSyntax.
func Parse(text string) (*Template, error) {
	t := &Template{text: text}
	lit := 0 // start of the pending literal
	i := 0
	for {
		k := strings.Index(text[i:], "${")
		if k < 0 {
			break
		}
		open := i + k
		toks, next, err := lexExpr(text, open+2, open)
		if err != nil {
			return nil, err
		}
		p := parser{text: text, toks: toks}
		expr, err := p.parseTop(open)
		if err != nil {
			return nil, err
		}
		if open > lit {
			t.parts = append(t.parts, part{lit: text[lit:open]})
		}
		t.parts = append(t.parts, part{expr: expr})
		i, lit = next, next
	}
	if lit < len(text) {
		t.parts = append(t.parts, part{lit: text[lit:]})
	}
	return t, nil
}

// String returns the text the template was parsed from.
func (t *Template) String() string { return t.text }

// IsLiteral reports whether the template has no expression, i.e. evaluates to its text.
func (t *Template) IsLiteral() bool {
	for _, p := range t.parts {
		if p.expr != nil {
			return false
		}
	}
	return true
}

// parser is a recursive-descent parser over the tokens of one expression. The grammar and
// precedence are those of JSP EL 2.0, loosest first:
//
//	expr    = or [ "?" expr ":" expr ]
//	or      = and { ("||" | "or") and }
//	and     = eq { ("&&" | "and") eq }
//	eq      = rel { ("==" | "eq" | "!=" | "ne") rel }
//	rel     = add { ("<" | "lt" | ">" | "gt" | "<=" | "le" | ">=" | "ge") add }
//	add     = mul { ("+" | "-") mul }
//	mul     = unary { ("*" | "/" | "div" | "%" | "mod") unary }
//	unary   = { "!" | "not" | "-" | "empty" } value
//	value   = prefix { "." identifier | "[" expr "]" }
//	prefix  = literal | "(" expr ")" | [ identifier ":" ] identifier "(" [ expr { "," expr } ] ")" | identifier
type parser struct {
	text  string
	toks  []token
	i     int
	depth int
}

func (p *parser) peek() *token { return &p.toks[p.i] }

func (p *parser) next() *token {
	t := &p.toks[p.i]
	if t.kind != tEnd {
		p.i++
	}
	return t
}

// parseTop parses the whole body of one ${...}; open is the offset of its "${".
func (p *parser) parseTop(open int) (node, error) {
	if p.peek().kind == tEnd {
		return nil, syntaxError(p.text, open, "empty expression")
	}
	n, err := p.parseExpr()
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != tEnd {
		return nil, p.unexpected(t)
	}
	return n, nil
}

func (p *parser) unexpected(t *token) error {
	if t.kind == tEnd {
		return syntaxError(p.text, t.pos, "unexpected end of expression")
	}
	return syntaxError(p.text, t.pos, "unexpected "+strconv.Quote(p.text[t.pos:t.end]))
}

func (p *parser) expect(k tokKind, what string) error {
	t := p.peek()
	if t.kind != k {
		if t.kind == tEnd {
			return syntaxError(p.text, t.pos, "unexpected end of expression, expected "+what)
		}
		return syntaxError(p.text, t.pos, "expected "+what+", found "+strconv.Quote(p.text[t.pos:t.end]))
	}
	p.next()
	return nil
}

func (p *parser) enter(pos int) error {
	p.depth++
	if p.depth > maxDepth {
		return syntaxError(p.text, pos, "expression nested too deeply")
	}
	return nil
}

func (p *parser) parseExpr() (node, error) {
	if err := p.enter(p.peek().pos); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	cond, err := p.parseBinary(0)
	if err != nil {
		return nil, err
	}
	t := p.peek()
	if t.kind != tQuestion {
		return cond, nil
	}
	p.next()
	yes, err := p.parseExpr()
	if err != nil {
		return nil, err
	}
	if err := p.expect(tColon, `":"`); err != nil {
		return nil, err
	}
	no, err := p.parseExpr()
	if err != nil {
		return nil, err
	}
	return &condNode{pos: t.pos, cond: cond, yes: yes, no: no}, nil
}

// levels lists the binary operators by precedence, loosest first. All are left-associative.
var levels = [][]tokKind{
	{tOr},
	{tAnd},
	{tEq, tNe},
	{tLt, tGt, tLe, tGe},
	{tPlus, tMinus},
	{tMul, tDiv, tMod},
}

var binaryOps = map[tokKind]opKind{
	tOr: opOr, tAnd: opAnd, tEq: opEq, tNe: opNe, tLt: opLt, tGt: opGt, tLe: opLe, tGe: opGe,
	tPlus: opAdd, tMinus: opSub, tMul: opMul, tDiv: opDiv, tMod: opMod,
}

func (p *parser) parseBinary(level int) (node, error) {
	if level == len(levels) {
		return p.parseUnary()
	}
	left, err := p.parseBinary(level + 1)
	if err != nil {
		return nil, err
	}
	// Each operator deepens the left-leaning tree by one.
	chain := 0
	defer func() { p.depth -= chain }()
	for {
		t := p.peek()
		if !hasKind(levels[level], t.kind) {
			return left, nil
		}
		if err := p.enter(t.pos); err != nil {
			return nil, err
		}
		chain++
		p.next()
		right, err := p.parseBinary(level + 1)
		if err != nil {
			return nil, err
		}
		op := binaryOps[t.kind]
		if op == opAnd || op == opOr {
			left = &logicNode{pos: t.pos, and: op == opAnd, l: left, r: right}
		} else {
			left = &binaryNode{pos: t.pos, op: op, l: left, r: right}
		}
	}
}

func hasKind(ks []tokKind, k tokKind) bool {
	for _, x := range ks {
		if x == k {
			return true
		}
	}
	return false
}

func (p *parser) parseUnary() (node, error) {
	var ops []*token
	for {
		t := p.peek()
		if t.kind != tNot && t.kind != tMinus && t.kind != tEmpty {
			break
		}
		if err := p.enter(t.pos); err != nil {
			return nil, err
		}
		ops = append(ops, p.next())
	}
	defer func() { p.depth -= len(ops) }()
	n, err := p.parseValue()
	if err != nil {
		return nil, err
	}
	for i := len(ops) - 1; i >= 0; i-- {
		op := opNot
		switch ops[i].kind {
		case tMinus:
			op = opNeg
		case tEmpty:
			op = opEmpty
		}
		n = &unaryNode{pos: ops[i].pos, op: op, x: n}
	}
	return n, nil
}

func (p *parser) parseValue() (node, error) {
	n, err := p.parsePrefix()
	if err != nil {
		return nil, err
	}
	chain := 0
	defer func() { p.depth -= chain }()
	for {
		t := p.peek()
		if t.kind == tDot || t.kind == tLBracket {
			if err := p.enter(t.pos); err != nil {
				return nil, err
			}
			chain++
		}
		switch t.kind {
		case tDot:
			p.next()
			id := p.peek()
			if id.kind != tIdent {
				if id.kind == tEnd {
					return nil, syntaxError(p.text, id.pos, `unexpected end of expression, expected a property name after "."`)
				}
				return nil, syntaxError(p.text, id.pos, `expected a property name after ".", found `+strconv.Quote(p.text[id.pos:id.end]))
			}
			p.next()
			n = &indexNode{pos: t.pos, x: n, key: &litNode{v: id.str}}
		case tLBracket:
			p.next()
			key, err := p.parseExpr()
			if err != nil {
				return nil, err
			}
			if err := p.expect(tRBracket, `"]"`); err != nil {
				return nil, err
			}
			n = &indexNode{pos: t.pos, x: n, key: key}
		default:
			return n, nil
		}
	}
}

func (p *parser) parsePrefix() (node, error) {
	t := p.next()
	switch t.kind {
	case tInt:
		return &litNode{v: t.num}, nil
	case tFloat:
		return &litNode{v: t.flt}, nil
	case tString:
		return &litNode{v: t.str}, nil
	case tTrue:
		return &litNode{v: true}, nil
	case tFalse:
		return &litNode{v: false}, nil
	case tNull:
		return &litNode{v: nil}, nil
	case tLParen:
		n, err := p.parseExpr()
		if err != nil {
			return nil, err
		}
		if err := p.expect(tRParen, `")"`); err != nil {
			return nil, err
		}
		return n, nil
	case tIdent:
		// A call is name "(" or prefix ":" name "("; anything else is a variable, so that
		// "c ? a : b" keeps working.
		if p.peek().kind == tLParen {
			return p.parseCall(t, t.str)
		}
		if p.peek().kind == tColon && p.i+2 < len(p.toks) &&
			p.toks[p.i+1].kind == tIdent && p.toks[p.i+2].kind == tLParen {
			p.next()
			name := p.next()
			return p.parseCall(t, t.str+":"+name.str)
		}
		return &varNode{pos: t.pos, name: t.str}, nil
	}
	if t.kind == tEnd {
		return nil, syntaxError(p.text, t.pos, "unexpected end of expression")
	}
	return nil, p.unexpected(t)
}

// parseCall parses the argument list of a call whose name starts at token first; the
// current token is the "(".
func (p *parser) parseCall(first *token, name string) (node, error) {
	if err := p.enter(first.pos); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	p.next() // "("
	call := &callNode{pos: first.pos, name: name}
	if p.peek().kind == tRParen {
		p.next()
		return call, nil
	}
	for {
		arg, err := p.parseExpr()
		if err != nil {
			return nil, err
		}
		call.args = append(call.args, arg)
		if p.peek().kind == tComma {
			p.next()
			continue
		}
		if err := p.expect(tRParen, `"," or ")"`); err != nil {
			return nil, err
		}
		return call, nil
	}
}
