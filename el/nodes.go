package el

import "strconv"

// node is one node of a parsed expression.
type node interface {
	eval(c *evalCtx) (any, error)
}

// evalCtx carries what one evaluation needs.
type evalCtx struct {
	env   *Env
	funcs *Registry
	text  string
}

// fail turns an operation's error into a positioned *Error.
func (c *evalCtx) fail(pos int, err error) error {
	return &Error{Text: c.text, Pos: pos, Msg: err.Error(), Err: err}
}

type litNode struct{ v any }

func (n *litNode) eval(*evalCtx) (any, error) { return n.v, nil }

type varNode struct {
	pos  int
	name string
}

func (n *varNode) eval(c *evalCtx) (any, error) {
	if c.env.Vars != nil {
		if v, ok := c.env.Vars(n.name); ok {
			return v, nil
		}
	}
	return nil, &Error{Text: c.text, Pos: n.pos, Msg: "variable [" + n.name + "] cannot be resolved", Err: ErrUnknownVariable}
}

type callNode struct {
	pos  int
	name string
	args []node
}

func (n *callNode) eval(c *evalCtx) (any, error) {
	e, ok := c.funcs.lookup(n.name)
	if !ok {
		return nil, &Error{Text: c.text, Pos: n.pos, Msg: "no function is mapped to the name " + strconv.Quote(n.name), Err: ErrUnknownFunction}
	}
	// Like commons-el, check the argument count before evaluating the arguments.
	if e.arity >= 0 && e.arity != len(n.args) {
		return nil, c.fail(n.pos, &argCountError{name: n.name, want: e.arity, got: len(n.args)})
	}
	var args []any
	if len(n.args) > 0 {
		args = make([]any, len(n.args))
		for i, a := range n.args {
			v, err := a.eval(c)
			if err != nil {
				return nil, err
			}
			args[i] = v
		}
	}
	v, err := e.fn(c.env, args)
	if err != nil {
		return nil, &Error{Text: c.text, Pos: n.pos, Msg: n.name + ": " + err.Error(), Err: err}
	}
	return v, nil
}

type unaryNode struct {
	pos int
	op  opKind
	x   node
}

func (n *unaryNode) eval(c *evalCtx) (any, error) {
	v, err := n.x.eval(c)
	if err != nil {
		return nil, err
	}
	switch n.op {
	case opEmpty:
		return isEmpty(v), nil
	case opNot:
		b, err := ToBool(v)
		if err != nil {
			return nil, c.fail(n.pos, err)
		}
		return !b, nil
	default:
		r, err := negate(v)
		if err != nil {
			return nil, c.fail(n.pos, err)
		}
		return r, nil
	}
}

type binaryNode struct {
	pos  int
	op   opKind
	l, r node
}

func (n *binaryNode) eval(c *evalCtx) (any, error) {
	l, err := n.l.eval(c)
	if err != nil {
		return nil, err
	}
	r, err := n.r.eval(c)
	if err != nil {
		return nil, err
	}
	var v any
	switch n.op {
	case opEq, opNe:
		var eq bool
		eq, err = equal(l, r)
		v = eq == (n.op == opEq)
	case opLt, opGt, opLe, opGe:
		v, err = compare(n.op, l, r)
	default:
		v, err = arithmetic(n.op, l, r)
	}
	if err != nil {
		return nil, c.fail(n.pos, err)
	}
	return v, nil
}

// logicNode is "and" or "or": both sides are coerced to booleans and the right side is only
// evaluated when it decides the result.
type logicNode struct {
	pos  int
	and  bool
	l, r node
}

func (n *logicNode) eval(c *evalCtx) (any, error) {
	lv, err := n.l.eval(c)
	if err != nil {
		return nil, err
	}
	l, err := ToBool(lv)
	if err != nil {
		return nil, c.fail(n.pos, err)
	}
	if l != n.and {
		return l, nil // false && x, true || x
	}
	rv, err := n.r.eval(c)
	if err != nil {
		return nil, err
	}
	r, err := ToBool(rv)
	if err != nil {
		return nil, c.fail(n.pos, err)
	}
	return r, nil
}

type condNode struct {
	pos           int
	cond, yes, no node
}

func (n *condNode) eval(c *evalCtx) (any, error) {
	v, err := n.cond.eval(c)
	if err != nil {
		return nil, err
	}
	b, err := ToBool(v)
	if err != nil {
		return nil, c.fail(n.pos, err)
	}
	if b {
		return n.yes.eval(c)
	}
	return n.no.eval(c)
}

type indexNode struct {
	pos    int
	x, key node
}

func (n *indexNode) eval(c *evalCtx) (any, error) {
	base, err := n.x.eval(c)
	if err != nil {
		return nil, err
	}
	if base == nil {
		return nil, nil // commons-el does not even evaluate the key
	}
	key, err := n.key.eval(c)
	if err != nil {
		return nil, err
	}
	v, err := index(base, key)
	if err != nil {
		return nil, c.fail(n.pos, err)
	}
	return v, nil
}
