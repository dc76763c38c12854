package clustertools

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// A Pig value: nil (null), string (chararray or bytearray), int64 (int,
// long), float64 (float, double) or bool.
type pigValue = any

// pigTuple is one record.
type pigTuple []pigValue

// pigExpr is an expression over a tuple. resolve binds field names to
// positions against the input's schema (nil when unknown) before eval.
type pigExpr interface {
	resolve(schema []pigField) error
	eval(t pigTuple) (pigValue, error)
}

type pigLit struct{ v pigValue }

func (l *pigLit) resolve([]pigField) error          { return nil }
func (l *pigLit) eval(pigTuple) (pigValue, error)   { return l.v, nil }
func (l *pigLit) String() string                    { return fmt.Sprint(l.v) }
func (r *pigRef) eval(t pigTuple) (pigValue, error) { return fieldAt(t, r.pos), nil }
func (r *pigRef) fieldName(s []pigField) (string, string) {
	if r.pos < len(s) {
		return s[r.pos].name, s[r.pos].typ
	}
	return "", ""
}

// pigRef is $n or a field name.
type pigRef struct {
	name      string
	pos       int
	line, col int
}

func (r *pigRef) resolve(schema []pigField) error {
	if r.name == "" {
		return nil
	}
	for i, f := range schema {
		if f.name == r.name {
			r.pos = i
			return nil
		}
	}
	return &pigError{code: pigErrProjection, line: r.line, col: r.col,
		msg: fmt.Sprintf("Invalid field projection. Projected field [%s] does not exist in schema: %s.", r.name, schemaString(schema))}
}

func fieldAt(t pigTuple, i int) pigValue {
	if i < 0 || i >= len(t) {
		return nil
	}
	return t[i]
}

// pigBinary is a binary operator.
type pigBinary struct {
	op   string
	l, r pigExpr
	re   *regexp.Regexp // MATCHES with a literal pattern
}

func (b *pigBinary) resolve(s []pigField) error {
	if err := b.l.resolve(s); err != nil {
		return err
	}
	return b.r.resolve(s)
}

func (b *pigBinary) eval(t pigTuple) (pigValue, error) {
	lv, err := b.l.eval(t)
	if err != nil {
		return nil, err
	}
	switch b.op {
	case "AND", "OR":
		lb, lok := lv.(bool)
		if b.op == "AND" && lok && !lb || b.op == "OR" && lok && lb {
			return lb, nil
		}
		rv, err := b.r.eval(t)
		if err != nil {
			return nil, err
		}
		rb, rok := rv.(bool)
		if !lok || !rok {
			if b.op == "AND" && rok && !rb || b.op == "OR" && rok && rb {
				return rb, nil
			}
			return nil, nil
		}
		return rb, nil
	}
	rv, err := b.r.eval(t)
	if err != nil {
		return nil, err
	}
	if lv == nil || rv == nil {
		return nil, nil
	}
	switch b.op {
	case "MATCHES":
		re := b.re
		if re == nil {
			if re, err = regexp.Compile("^(?:" + toString(rv) + ")$"); err != nil {
				return nil, fmt.Errorf("MATCHES pattern %q: %w", toString(rv), err)
			}
		}
		return re.MatchString(toString(lv)), nil
	case "==", "!=", "<", ">", "<=", ">=":
		c, ok := compare(lv, rv)
		if !ok {
			return nil, nil
		}
		switch b.op {
		case "==":
			return c == 0, nil
		case "!=":
			return c != 0, nil
		case "<":
			return c < 0, nil
		case ">":
			return c > 0, nil
		case "<=":
			return c <= 0, nil
		}
		return c >= 0, nil
	}
	return arith(b.op, lv, rv), nil
}

// compare orders two non-null values as Pig does: a bytearray compared
// with a number is cast to a number first, and one that does not cast is
// null (ok false); strings compare as strings.
func compare(a, b pigValue) (int, bool) {
	as, aStr := a.(string)
	bs, bStr := b.(string)
	if aStr && bStr {
		return strings.Compare(as, bs), true
	}
	x, y := toFloat(a), toFloat(b)
	switch {
	case x == nil || y == nil:
		return 0, false
	case *x < *y:
		return -1, true
	case *x > *y:
		return 1, true
	}
	return 0, true
}

// arith applies + - * / %: integers stay integers (Java's division),
// anything else is a double; division by zero is null.
func arith(op string, a, b pigValue) pigValue {
	ai, aInt := a.(int64)
	bi, bInt := b.(int64)
	if aInt && bInt {
		switch op {
		case "+":
			return ai + bi
		case "-":
			return ai - bi
		case "*":
			return ai * bi
		case "/", "%":
			if bi == 0 {
				return nil
			}
			if op == "/" {
				return ai / bi
			}
			return ai % bi
		}
	}
	x, y := toFloat(a), toFloat(b)
	if x == nil || y == nil {
		return nil
	}
	switch op {
	case "+":
		return *x + *y
	case "-":
		return *x - *y
	case "*":
		return *x * *y
	case "/":
		if *y == 0 {
			return nil
		}
		return *x / *y
	}
	if *y == 0 {
		return nil
	}
	return math.Mod(*x, *y)
}

// pigUnary is NOT, unary minus and IS [NOT] NULL.
type pigUnary struct {
	op string
	e  pigExpr
}

func (u *pigUnary) resolve(s []pigField) error { return u.e.resolve(s) }

func (u *pigUnary) eval(t pigTuple) (pigValue, error) {
	v, err := u.e.eval(t)
	if err != nil {
		return nil, err
	}
	switch u.op {
	case "IS NULL":
		return v == nil, nil
	case "IS NOT NULL":
		return v != nil, nil
	}
	if v == nil {
		return nil, nil
	}
	if u.op == "NOT" {
		b, ok := v.(bool)
		if !ok {
			return nil, nil
		}
		return !b, nil
	}
	return arith("-", int64(0), v), nil
}

// pigCall is a builtin function call.
type pigCall struct {
	name string
	args []pigExpr
}

// pigBuiltins are the functions the stand-in implements, by Pig's names.
var pigBuiltins = map[string]func(args []pigValue) pigValue{
	"CONCAT": func(args []pigValue) pigValue {
		var b strings.Builder
		for _, a := range args {
			if a == nil {
				return nil
			}
			b.WriteString(toString(a))
		}
		return b.String()
	},
	"UPPER": strFunc(strings.ToUpper),
	"LOWER": strFunc(strings.ToLower),
	"TRIM":  strFunc(strings.TrimSpace),
	"SIZE": func(args []pigValue) pigValue {
		if len(args) != 1 || args[0] == nil {
			return nil
		}
		return int64(len([]rune(toString(args[0]))))
	},
}

func strFunc(f func(string) string) func([]pigValue) pigValue {
	return func(args []pigValue) pigValue {
		if len(args) != 1 || args[0] == nil {
			return nil
		}
		return f(toString(args[0]))
	}
}

func (c *pigCall) resolve(s []pigField) error {
	for _, a := range c.args {
		if err := a.resolve(s); err != nil {
			return err
		}
	}
	return nil
}

func (c *pigCall) eval(t pigTuple) (pigValue, error) {
	vals := make([]pigValue, len(c.args))
	for i, a := range c.args {
		v, err := a.eval(t)
		if err != nil {
			return nil, err
		}
		vals[i] = v
	}
	return pigBuiltins[c.name](vals), nil
}

// expr parses an expression: OR < AND < NOT < comparison < + - < * / % <
// unary minus < primary.
func (p *pigParser) expr() (pigExpr, error) { return p.binary(0) }

var pigLevels = [][]string{{"OR"}, {"AND"}, nil, {"==", "!=", "<", ">", "<=", ">=", "MATCHES"}, {"+", "-"}, {"*", "/", "%"}}

func (p *pigParser) binary(level int) (pigExpr, error) {
	if level == len(pigLevels) {
		return p.unary()
	}
	if pigLevels[level] == nil { // NOT
		if p.is("NOT") {
			p.next()
			e, err := p.binary(level)
			return &pigUnary{op: "NOT", e: e}, err
		}
		return p.binary(level + 1)
	}
	l, err := p.binary(level + 1)
	if err != nil {
		return nil, err
	}
	for {
		op := ""
		for _, o := range pigLevels[level] {
			if p.is(o) {
				op = strings.ToUpper(o)
			}
		}
		if op == "" && level == 3 && p.is("IS") {
			p.next()
			op = "IS NULL"
			if p.is("NOT") {
				p.next()
				op = "IS NOT NULL"
			}
			if err := p.expect("NULL"); err != nil {
				return nil, err
			}
			l = &pigUnary{op: op, e: l}
			continue
		}
		if op == "" {
			return l, nil
		}
		p.next()
		r, err := p.binary(level + 1)
		if err != nil {
			return nil, err
		}
		b := &pigBinary{op: op, l: l, r: r}
		if lit, ok := r.(*pigLit); ok && op == "MATCHES" {
			if b.re, err = regexp.Compile("^(?:" + toString(lit.v) + ")$"); err != nil {
				return nil, p.errAt(p.toks[p.i-1], "MATCHES pattern %q: %v", toString(lit.v), err)
			}
		}
		l = b
	}
}

func (p *pigParser) unary() (pigExpr, error) {
	if p.is("-") {
		p.next()
		e, err := p.unary()
		return &pigUnary{op: "-", e: e}, err
	}
	t := p.next()
	switch t.kind {
	case 'n':
		return &pigLit{v: parseNumber(t.text)}, nil
	case 's':
		return &pigLit{v: t.text}, nil
	case '$':
		n, _ := strconv.Atoi(t.text)
		return &pigRef{pos: n, line: t.line, col: t.col}, nil
	case 'p':
		if t.text == "(" {
			e, err := p.expr()
			if err != nil {
				return nil, err
			}
			return e, p.expect(")")
		}
	case 'i':
		if strings.EqualFold(t.text, "null") {
			return &pigLit{}, nil
		}
		if strings.EqualFold(t.text, "true") || strings.EqualFold(t.text, "false") {
			return &pigLit{v: strings.EqualFold(t.text, "true")}, nil
		}
		if p.is("(") {
			return p.call(t)
		}
		return &pigRef{name: t.text, line: t.line, col: t.col}, nil
	}
	p.i--
	return nil, p.unexpected()
}

func (p *pigParser) call(name pigToken) (pigExpr, error) {
	fn := strings.ToUpper(name.text)
	if _, ok := pigBuiltins[fn]; !ok {
		return nil, &pigError{code: pigErrFunction, line: name.line, col: name.col, msg: "Could not resolve " + name.text +
			" using imports: [, java.lang., org.apache.pig.builtin., org.apache.pig.impl.builtin.]"}
	}
	p.next() // (
	c := &pigCall{name: fn}
	for !p.is(")") {
		a, err := p.expr()
		if err != nil {
			return nil, err
		}
		c.args = append(c.args, a)
		if !p.is(",") {
			break
		}
		p.next()
	}
	return c, p.expect(")")
}

// parseNumber reads a Pig number literal: 1 and 1L are integers, 1.5 and
// 1.5f doubles.
func parseNumber(s string) pigValue {
	t := strings.TrimRight(s, "lLfF")
	if n, err := strconv.ParseInt(t, 10, 64); err == nil && !strings.ContainsAny(s, "fF") {
		return n
	}
	f, _ := strconv.ParseFloat(t, 64)
	return f
}

// cast converts a loaded field to a declared type; a value that does not
// convert is null, as Pig's casts are (with a warning).
func cast(v pigValue, typ string) pigValue {
	if v == nil {
		return nil
	}
	s := toString(v)
	switch typ {
	case "int", "long":
		if n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64); err == nil {
			return n
		}
		if f := toFloat(v); f != nil && typ != "" {
			return int64(*f)
		}
		return nil
	case "float", "double":
		if f := toFloat(v); f != nil {
			return *f
		}
		return nil
	case "boolean":
		switch strings.ToLower(strings.TrimSpace(s)) {
		case "true":
			return true
		case "false":
			return false
		}
		return nil
	}
	return s
}

func toFloat(v pigValue) *float64 {
	var f float64
	switch x := v.(type) {
	case int64:
		f = float64(x)
	case float64:
		f = x
	case string:
		var err error
		if f, err = strconv.ParseFloat(strings.TrimSpace(x), 64); err != nil {
			return nil
		}
	default:
		return nil
	}
	return &f
}

// toString writes a value as PigStorage does: null is empty, doubles as
// Java prints them (1.0, not 1).
func toString(v pigValue) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1e7 {
			return strconv.FormatFloat(x, 'f', 1, 64)
		}
		return strconv.FormatFloat(x, 'g', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	}
	return fmt.Sprint(v)
}

// schemaString writes a schema as Pig does in messages: {id: int,name: bytearray}.
func schemaString(s []pigField) string {
	parts := make([]string, len(s))
	for i, f := range s {
		parts[i] = f.name + ": " + f.typ
	}
	return "{" + strings.Join(parts, ",") + "}"
}
