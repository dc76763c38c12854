package minihs2

import (
	"fmt"
	"strconv"
	"strings"
)

// scope is what column references of a query can see: one table's
// columns under its name and alias.
type scope struct {
	table string // the table's name, lower case
	alias string // lower case; empty when none
	cols  []columnDef
}

// resolve returns the index of a referenced column, or Hive's semantic
// error for an unknown column or qualifier.
func (s *scope) resolve(c *colRef) (int, error) {
	if s == nil {
		return -1, semanticError(CodeInvalidColumnRef, c.tok, fmt.Sprintf("Invalid table alias or column reference '%s'", c.name))
	}
	if q := strings.ToLower(c.qual); q != "" && q != s.table && q != s.alias {
		return -1, semanticError(CodeInvalidColumnRef, c.tok, fmt.Sprintf("Invalid table alias or column reference '%s'", c.qual))
	}
	for i, col := range s.cols {
		if strings.EqualFold(col.name, c.name) {
			return i, nil
		}
	}
	names := make([]string, len(s.cols))
	for i, col := range s.cols {
		names[i] = strings.ToLower(col.name)
	}
	return -1, semanticError(CodeInvalidColumnRef, c.tok, fmt.Sprintf("Invalid table alias or column reference '%s': (possible column names are: %s)",
		c.name, strings.Join(names, ", ")))
}

// check verifies every column reference of e at compile time.
func (s *scope) check(e expr) error {
	switch x := e.(type) {
	case *colRef:
		_, err := s.resolve(x)
		return err
	case *binaryExpr:
		if err := s.check(x.l); err != nil {
			return err
		}
		return s.check(x.r)
	case *notExpr:
		return s.check(x.e)
	case *negExpr:
		return s.check(x.e)
	case *isNullExpr:
		return s.check(x.e)
	case *inExpr:
		if err := s.check(x.e); err != nil {
			return err
		}
		for _, v := range x.list {
			if err := s.check(v); err != nil {
				return err
			}
		}
	}
	return nil
}

// exprType is the column type an expression yields in a select list.
func (s *scope) exprType(e expr) string {
	switch x := e.(type) {
	case *colRef:
		if i, err := s.resolve(x); err == nil {
			return s.cols[i].typ
		}
	case *literal:
		return literalType(x.v)
	case *negExpr:
		return s.exprType(x.e)
	case *binaryExpr, *notExpr, *isNullExpr, *inExpr:
		return "boolean"
	}
	return "string"
}

// eval computes e over one row with SQL's three-valued logic: comparisons
// with NULL yield NULL (nil), which WHERE treats as false.
func (s *scope) eval(e expr, row []any) any {
	switch x := e.(type) {
	case *literal:
		return x.v
	case *colRef:
		i, err := s.resolve(x)
		if err != nil || i >= len(row) {
			return nil
		}
		return row[i]
	case *negExpr:
		switch v := s.eval(x.e, row).(type) {
		case int64:
			return -v
		case float64:
			return -v
		}
		return nil
	case *notExpr:
		if b, ok := s.eval(x.e, row).(bool); ok {
			return !b
		}
		return nil
	case *isNullExpr:
		return (s.eval(x.e, row) == nil) != x.not
	case *inExpr:
		v := s.eval(x.e, row)
		if v == nil {
			return nil
		}
		sawNull := false
		for _, item := range x.list {
			w := s.eval(item, row)
			if c, ok := compare(v, w); ok && c == 0 {
				return !x.not
			}
			sawNull = sawNull || w == nil
		}
		if sawNull {
			return nil
		}
		return x.not
	case *binaryExpr:
		return s.evalBinary(x, row)
	}
	return nil
}

func (s *scope) evalBinary(x *binaryExpr, row []any) any {
	l, r := s.eval(x.l, row), s.eval(x.r, row)
	switch x.op {
	case "and":
		lb, lok := l.(bool)
		rb, rok := r.(bool)
		switch {
		case lok && !lb, rok && !rb:
			return false
		case lok && rok:
			return true
		}
		return nil
	case "or":
		lb, lok := l.(bool)
		rb, rok := r.(bool)
		switch {
		case lok && lb, rok && rb:
			return true
		case lok && rok:
			return false
		}
		return nil
	case "<=>":
		if l == nil || r == nil {
			return l == nil && r == nil
		}
	}
	c, ok := compare(l, r)
	if !ok {
		return nil
	}
	switch x.op {
	case "=", "==", "<=>":
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
	return nil
}

// compare orders two non-NULL values the way Hive's comparison operators
// do: numbers numerically (a string compared with a number is read as a
// double), strings lexically, booleans false < true. ok is false when
// either side is NULL or the values cannot be compared.
func compare(a, b any) (int, bool) {
	if a == nil || b == nil {
		return 0, false
	}
	if ai, ok := a.(int64); ok {
		if bi, ok := b.(int64); ok {
			return cmp3(ai < bi, ai > bi), true
		}
	}
	_, aStr := a.(string)
	_, bStr := b.(string)
	if aStr && bStr {
		return strings.Compare(a.(string), b.(string)), true
	}
	ab, aBool := a.(bool)
	bb, bBool := b.(bool)
	if aBool || bBool {
		if aBool && bBool {
			return cmp3(!ab && bb, ab && !bb), true
		}
		return 0, false
	}
	af, ok1 := asFloat(a)
	bf, ok2 := asFloat(b)
	if !ok1 || !ok2 {
		return 0, false
	}
	return cmp3(af < bf, af > bf), true
}

func cmp3(less, greater bool) int {
	switch {
	case less:
		return -1
	case greater:
		return 1
	}
	return 0
}

func asFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case int64:
		return float64(x), true
	case float64:
		return x, true
	case string:
		f, err := strconv.ParseFloat(strings.TrimSpace(x), 64)
		return f, err == nil
	}
	return 0, false
}

// truthy reports whether a WHERE result keeps the row (NULL does not).
func truthy(v any) bool {
	b, ok := v.(bool)
	return ok && b
}
