package el

import (
	"math"
	"reflect"
	"unicode/utf16"
	"unicode/utf8"
)

// opKind is an EL operator.
type opKind uint8

const (
	opAdd opKind = iota
	opSub
	opMul
	opDiv
	opMod
	opEq
	opNe
	opLt
	opGt
	opLe
	opGe
	opAnd
	opOr
	opNot
	opNeg
	opEmpty
)

// arithmetic applies + - * / % with the JSP EL rules:
//   - null op null is 0;
//   - "/" always works on doubles (1/2 is 0.5, 4/2 is 2.0, x/0 is Infinity or NaN);
//   - otherwise, if either side is a float or a string containing ".", "e" or "E", both sides
//     become doubles; else both become longs (overflow wraps like Java's long);
//   - "+" is numeric only: "1" + "2" is 3, and "a" + 1 is an error;
//   - a long remainder by zero is an error (ErrArithmetic).
func arithmetic(op opKind, l, r any) (any, error) {
	if l == nil && r == nil {
		return int64(0), nil
	}
	if op == opDiv || classify(l) == floatNumber || classify(r) == floatNumber || isFloatString(l) || isFloatString(r) {
		a, err := ToFloat(l)
		if err != nil {
			return nil, err
		}
		b, err := ToFloat(r)
		if err != nil {
			return nil, err
		}
		switch op {
		case opAdd:
			return a + b, nil
		case opSub:
			return a - b, nil
		case opMul:
			return a * b, nil
		case opDiv:
			return a / b, nil
		default:
			return math.Mod(a, b), nil
		}
	}
	a, err := ToInt(l)
	if err != nil {
		return nil, err
	}
	b, err := ToInt(r)
	if err != nil {
		return nil, err
	}
	switch op {
	case opAdd:
		return a + b, nil
	case opSub:
		return a - b, nil
	case opMul:
		return a * b, nil
	default:
		if b == 0 {
			return nil, &arithmeticError{"integer remainder by zero"}
		}
		return a % b, nil
	}
}

// compare applies < > <= >=: null with null is true for <= and >= and false otherwise, null
// with anything else is false; then floats compare as doubles, integers as longs (a string
// operand is parsed, so "10" > 9 is true and "abc" > 9 is an error), strings
// lexicographically by UTF-16 code unit as in Java, and booleans false < true.
func compare(op opKind, l, r any) (bool, error) {
	if l == nil && r == nil {
		return op == opLe || op == opGe, nil
	}
	if l == nil || r == nil {
		return false, nil
	}
	var c int
	lc, rc := classify(l), classify(r)
	switch {
	case lc == floatNumber || rc == floatNumber:
		a, err := ToFloat(l)
		if err != nil {
			return false, err
		}
		b, err := ToFloat(r)
		if err != nil {
			return false, err
		}
		switch op {
		case opLt:
			return a < b, nil
		case opGt:
			return a > b, nil
		case opLe:
			return a <= b, nil
		default:
			return a >= b, nil
		}
	case lc == intNumber || rc == intNumber:
		a, err := ToInt(l)
		if err != nil {
			return false, err
		}
		b, err := ToInt(r)
		if err != nil {
			return false, err
		}
		c = cmpInt(a, b)
	default:
		ls, lok := l.(string)
		rs, rok := r.(string)
		lb, lbok := l.(bool)
		rb, rbok := r.(bool)
		switch {
		case lok || rok:
			if !lok {
				ls = ToString(l)
			}
			if !rok {
				rs = ToString(r)
			}
			c = compareUTF16(ls, rs)
		case lbok && rbok:
			c = cmpInt(b2i(lb), b2i(rb))
		default:
			return false, &coercionError{"cannot compare " + describe(l) + " with " + describe(r)}
		}
	}
	switch op {
	case opLt:
		return c < 0, nil
	case opGt:
		return c > 0, nil
	case opLe:
		return c <= 0, nil
	default:
		return c >= 0, nil
	}
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// compareUTF16 compares strings like Java's String.compareTo: by UTF-16 code units, which
// differs from Go's byte order only for characters above U+FFFF against U+E000..U+FFFF.
func compareUTF16(a, b string) int {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	if i == len(a) || i == len(b) {
		return cmpInt(int64(len(a)), int64(len(b)))
	}
	j := i
	// Back up to the start of the differing runes.
	for i > 0 && !utf8.RuneStart(a[i]) {
		i--
	}
	ra, _ := utf8.DecodeRuneInString(a[i:])
	rb, _ := utf8.DecodeRuneInString(b[i:])
	if c := cmpInt(utf16Key(ra), utf16Key(rb)); c != 0 {
		return c
	}
	// Only invalid UTF-8 gets here (both decode to U+FFFD); fall back to bytes.
	return cmpInt(int64(a[j]), int64(b[j]))
}

// utf16Key maps a rune to the value of its first UTF-16 code unit (scaled so that the second
// unit breaks ties), which orders runes as Java orders their UTF-16 encodings.
func utf16Key(r rune) int64 {
	if r < 0x10000 {
		return int64(r) << 16
	}
	hi, lo := utf16.EncodeRune(r)
	return int64(hi)<<16 | int64(lo)
}

// equal applies == with the JSP EL rules: null equals only null; if either side is a float
// both compare as doubles, else if either is an integer as longs (so 1 == "1" is true and
// 1 == "a" is an error); else if either is a boolean both are coerced to boolean ("TRUE" ==
// true); else if either is a string both compare as strings; other values compare deeply.
func equal(l, r any) (bool, error) {
	if l == nil || r == nil {
		return l == nil && r == nil, nil
	}
	lc, rc := classify(l), classify(r)
	switch {
	case lc == floatNumber || rc == floatNumber:
		a, err := ToFloat(l)
		if err != nil {
			return false, err
		}
		b, err := ToFloat(r)
		if err != nil {
			return false, err
		}
		return a == b, nil
	case lc == intNumber || rc == intNumber:
		a, err := ToInt(l)
		if err != nil {
			return false, err
		}
		b, err := ToInt(r)
		if err != nil {
			return false, err
		}
		return a == b, nil
	}
	_, lb := l.(bool)
	_, rb := r.(bool)
	if lb || rb {
		a, err := ToBool(l)
		if err != nil {
			return false, err
		}
		b, err := ToBool(r)
		if err != nil {
			return false, err
		}
		return a == b, nil
	}
	ls, lok := l.(string)
	rs, rok := r.(string)
	if lok && rok {
		return ls == rs, nil
	}
	if lok || rok {
		return ToString(l) == ToString(r), nil
	}
	return reflect.DeepEqual(l, r), nil
}

// negate applies unary minus: null is 0, a string is parsed (as a double when it contains
// ".", "e" or "E"), numbers keep their type, anything else is an error.
func negate(v any) (any, error) {
	switch x := v.(type) {
	case nil:
		return int64(0), nil
	case int64:
		return -x, nil
	case float64:
		return -x, nil
	case string:
		if isFloatString(x) {
			f, err := ToFloat(x)
			return -f, err
		}
		n, err := ToInt(x)
		return -n, err
	case int:
		return -x, nil
	case int32:
		return -x, nil
	case int16:
		return -x, nil
	case int8:
		return -x, nil
	case float32:
		return -x, nil
	}
	if classify(v) == intNumber {
		return -intValue(v), nil
	}
	return nil, &coercionError{"cannot negate " + describe(v)}
}

// isEmpty applies the empty operator: true for null, "", and empty maps, slices and arrays.
func isEmpty(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case string:
		return x == ""
	case map[string]string:
		return len(x) == 0
	case map[string]any:
		return len(x) == 0
	case []string:
		return len(x) == 0
	case []any:
		return len(x) == 0
	case bool, int64, float64:
		return false
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Map, reflect.Slice, reflect.Array:
		return rv.Len() == 0
	}
	return false
}
