package minihs2

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// A partition filter of get_partitions_by_filter (Hive's Filter.g):
// comparisons of a partition key with a string ("..." or '...') or integer
// constant, either way round, joined by AND and OR (any case) with
// parentheses.
//
//	ds="2010-01-01" and (region='us' OR region = "eu")

// partFilter is a parsed filter node.
type partFilter interface {
	check(t table) error
	match(t table, values []string) bool
}

type filterLeaf struct {
	key, op, value string
	numeric        bool // the constant was an integer
	reversed       bool // constant op key
}

type filterNode struct {
	and  bool
	l, r partFilter
}

func (n *filterNode) check(t table) error {
	if err := n.l.check(t); err != nil {
		return err
	}
	return n.r.check(t)
}

func (n *filterNode) match(t table, values []string) bool {
	if n.and {
		return n.l.match(t, values) && n.r.match(t, values)
	}
	return n.l.match(t, values) || n.r.match(t, values)
}

func (f *filterLeaf) index(t table) int {
	for i, c := range t.partCols {
		if strings.EqualFold(c.name, f.key) {
			return i
		}
	}
	return -1
}

// check refuses a key that is not a partition key, as
// ExpressionTree.LeafNode.getPartColIndexForFilter does.
func (f *filterLeaf) check(t table) error {
	if f.index(t) < 0 {
		return metaError(fmt.Sprintf("Specified key <%s> is not a partitioning key for the table", f.key))
	}
	return nil
}

func (f *filterLeaf) match(t table, values []string) bool {
	v := values[f.index(t)]
	c := strings.Compare(v, f.value)
	if f.numeric {
		a, err1 := strconv.ParseInt(v, 10, 64)
		b, err2 := strconv.ParseInt(f.value, 10, 64)
		if err1 == nil && err2 == nil {
			c = cmp3(a < b, a > b)
		}
	}
	if f.reversed {
		c = -c
	}
	switch f.op {
	case "=":
		return c == 0
	case "!=", "<>":
		return c != 0
	case "<":
		return c < 0
	case "<=":
		return c <= 0
	case ">":
		return c > 0
	case ">=":
		return c >= 0
	}
	return false
}

// filterParser is a recursive-descent parser over the filter's tokens.
type filterParser struct {
	toks []string
	pos  int
}

// parsePartitionFilter parses a filter; an error is the MetaException
// Hive gives (PartFilterExprUtil.getFilterParser).
func parsePartitionFilter(s string) (partFilter, error) {
	toks, err := lexFilter(s)
	if err == nil {
		p := &filterParser{toks: toks}
		var f partFilter
		if f, err = p.or(); err == nil {
			if p.pos == len(p.toks) {
				return f, nil
			}
			err = fmt.Errorf("unexpected %q", p.toks[p.pos])
		}
	}
	return nil, metaError(fmt.Sprintf("Error parsing partition filter; lexer error: null; exception %v", err))
}

// metaError is a MetaException's message, verbatim.
type metaError string

func (e metaError) Error() string { return string(e) }

func (p *filterParser) peek() string {
	if p.pos < len(p.toks) {
		return p.toks[p.pos]
	}
	return ""
}

func (p *filterParser) or() (partFilter, error) {
	l, err := p.and()
	for err == nil && strings.EqualFold(p.peek(), "or") {
		p.pos++
		var r partFilter
		if r, err = p.and(); err == nil {
			l = &filterNode{l: l, r: r}
		}
	}
	return l, err
}

func (p *filterParser) and() (partFilter, error) {
	l, err := p.atom()
	for err == nil && strings.EqualFold(p.peek(), "and") {
		p.pos++
		var r partFilter
		if r, err = p.atom(); err == nil {
			l = &filterNode{and: true, l: l, r: r}
		}
	}
	return l, err
}

func (p *filterParser) atom() (partFilter, error) {
	if p.peek() == "(" {
		p.pos++
		f, err := p.or()
		if err != nil {
			return nil, err
		}
		if p.peek() != ")" {
			return nil, errors.New("missing ')'")
		}
		p.pos++
		return f, nil
	}
	if p.pos+3 > len(p.toks) {
		return nil, errors.New("incomplete comparison")
	}
	a, op, b := p.toks[p.pos], p.toks[p.pos+1], p.toks[p.pos+2]
	p.pos += 3
	if !isFilterOp(op) {
		return nil, fmt.Errorf("unexpected %q", op)
	}
	if op == "==" {
		op = "="
	}
	leaf := &filterLeaf{op: op}
	switch {
	case isIdent(a) && !isIdent(b):
		leaf.key, leaf.value, leaf.numeric = a, unquote(b), !isQuoted(b)
	case isIdent(b) && !isIdent(a):
		leaf.key, leaf.value, leaf.numeric, leaf.reversed = b, unquote(a), !isQuoted(a), true
	default:
		return nil, fmt.Errorf("a comparison needs a key and a constant, got %s %s %s", a, op, b)
	}
	return leaf, nil
}

func isFilterOp(s string) bool {
	switch s {
	case "=", "==", "!=", "<>", "<", "<=", ">", ">=":
		return true
	}
	return false
}

func isQuoted(s string) bool { return s != "" && (s[0] == '"' || s[0] == '\'') }

func isIdent(s string) bool {
	if s == "" || isQuoted(s) || unicode.IsDigit(rune(s[0])) || s[0] == '-' {
		return false
	}
	return !strings.EqualFold(s, "and") && !strings.EqualFold(s, "or") && s != "(" && s != ")" && !isFilterOp(s)
}

func unquote(s string) string {
	if isQuoted(s) {
		return strings.ReplaceAll(s[1:len(s)-1], `\`+s[:1], s[:1])
	}
	return s
}

// lexFilter splits a filter into identifiers, constants (quotes kept),
// operators and parentheses.
func lexFilter(s string) ([]string, error) {
	var toks []string
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '(' || c == ')':
			toks = append(toks, string(c))
			i++
		case c == '"' || c == '\'':
			j := i + 1
			for j < len(s) && s[j] != c {
				if s[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(s) {
				return nil, errors.New("unterminated string")
			}
			toks = append(toks, s[i:j+1])
			i = j + 1
		case strings.ContainsRune("=!<>", rune(c)):
			j := i + 1
			for j < len(s) && strings.ContainsRune("=<>", rune(s[j])) {
				j++
			}
			toks = append(toks, s[i:j])
			i = j
		default:
			j := i
			for j < len(s) && (s[j] == '_' || s[j] == '-' || s[j] == '.' || unicode.IsLetter(rune(s[j])) || unicode.IsDigit(rune(s[j]))) {
				j++
			}
			if j == i {
				return nil, fmt.Errorf("unexpected character %q", c)
			}
			toks = append(toks, s[i:j])
			i = j
		}
	}
	return toks, nil
}
