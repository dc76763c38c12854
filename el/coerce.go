package el

import (
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// EL values are Go values: nil (EL null), bool, int64 (EL Long; other Go integer types are
// accepted from functions and variables and treated alike), float64 (EL Double; float32 is
// accepted), string, and maps and slices for indexing. The helpers below implement the JSP EL
// 2.0 coercion rules so that function authors convert arguments exactly as Oozie does.

// numClass classifies a value for the arithmetic and comparison rules.
type numClass uint8

const (
	notNumber numClass = iota
	intNumber
	floatNumber
)

func classify(v any) numClass {
	switch v.(type) {
	case int64, int, int32, int16, int8, uint, uint64, uint32, uint16, uint8, uintptr:
		return intNumber
	case float64, float32:
		return floatNumber
	}
	return notNumber
}

// isFloatString reports whether v is a string that EL treats as floating point in arithmetic:
// one containing ".", "e" or "E".
func isFloatString(v any) bool {
	s, ok := v.(string)
	return ok && strings.ContainsAny(s, ".eE")
}

// intValue returns the value of an integer-class number as int64 (unsigned values wrap, like
// a Java long).
func intValue(v any) int64 {
	switch x := v.(type) {
	case int64:
		return x
	case int:
		return int64(x)
	case int32:
		return int64(x)
	case int16:
		return int64(x)
	case int8:
		return int64(x)
	case uint:
		return int64(x)
	case uint64:
		return int64(x)
	case uint32:
		return int64(x)
	case uint16:
		return int64(x)
	case uint8:
		return int64(x)
	case uintptr:
		return int64(x)
	}
	return 0
}

// ToString converts v as EL does in a string context: nil is "", numbers print as Java prints
// them (1.0E10, 0.5, 2.0), maps print as {k=v, k2=v2} (keys sorted) and lists as [a, b].
func ToString(v any) string { return toString(v, 0) }

// maxPrintDepth bounds the nesting ToString follows into maps and lists (a map that contains
// itself would otherwise recurse forever); deeper values print as "...".
const maxPrintDepth = 100

func toString(v any, depth int) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case bool:
		if x {
			return "true"
		}
		return "false"
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return formatJavaDouble(x, 64)
	case float32:
		return formatJavaDouble(float64(x), 32)
	case int, int32, int16, int8, uint, uint64, uint32, uint16, uint8, uintptr:
		return strconv.FormatInt(intValue(x), 10)
	case map[string]string:
		keys := sortedKeys(x)
		var b strings.Builder
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(k)
			b.WriteByte('=')
			b.WriteString(x[k])
		}
		b.WriteByte('}')
		return b.String()
	case fmt.Stringer:
		return x.String()
	case error:
		return x.Error()
	}
	return reflectString(reflect.ValueOf(v), depth)
}

// elementString renders a value nested in a collection: like ToString, but null is "null"
// as in Java's collection toString.
func elementString(v any, depth int) string {
	if v == nil {
		return "null"
	}
	if depth > maxPrintDepth {
		return "..."
	}
	return toString(v, depth)
}

func reflectString(rv reflect.Value, depth int) string {
	switch rv.Kind() {
	case reflect.Map:
		keys := rv.MapKeys()
		strs := make([]string, len(keys))
		for i, k := range keys {
			strs[i] = elementString(k.Interface(), depth+1)
		}
		order := make([]int, len(keys))
		for i := range order {
			order[i] = i
		}
		sort.SliceStable(order, func(a, b int) bool { return strs[order[a]] < strs[order[b]] })
		var b strings.Builder
		b.WriteByte('{')
		for i, idx := range order {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(strs[idx])
			b.WriteByte('=')
			b.WriteString(elementString(rv.MapIndex(keys[idx]).Interface(), depth+1))
		}
		b.WriteByte('}')
		return b.String()
	case reflect.Slice, reflect.Array:
		var b strings.Builder
		b.WriteByte('[')
		for i := 0; i < rv.Len(); i++ {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(elementString(rv.Index(i).Interface(), depth+1))
		}
		b.WriteByte(']')
		return b.String()
	case reflect.String:
		return rv.String()
	case reflect.Bool:
		return ToString(rv.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(rv.Int(), 10)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return strconv.FormatInt(int64(rv.Uint()), 10)
	case reflect.Float32:
		return formatJavaDouble(rv.Float(), 32)
	case reflect.Float64:
		return formatJavaDouble(rv.Float(), 64)
	}
	return fmt.Sprint(rv.Interface())
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// ToInt converts v to an integer as EL coerces to Long: nil and "" are 0, integers are
// themselves, floating values are truncated (saturating, NaN is 0, like a Java cast), strings
// must be a decimal integer with an optional sign ("1.5" is an error, not 1), and booleans and
// other types are errors wrapping ErrCoercion.
func ToInt(v any) (int64, error) {
	switch x := v.(type) {
	case nil:
		return 0, nil
	case int64:
		return x, nil
	case float64:
		return javaLong(x), nil
	case float32:
		return javaLong(float64(x)), nil
	case string:
		if x == "" {
			return 0, nil
		}
		n, err := strconv.ParseInt(x, 10, 64)
		if err != nil {
			return 0, &coercionError{"cannot convert " + strconv.Quote(x) + " to an integer"}
		}
		return n, nil
	}
	if classify(v) == intNumber {
		return intValue(v), nil
	}
	return 0, &coercionError{"cannot convert " + describe(v) + " to an integer"}
}

// ToFloat converts v to a floating-point number as EL coerces to Double: nil and "" are 0,
// numbers convert, strings are parsed with Java's Double.valueOf syntax (surrounding blanks,
// "1e3", "1.5f", "NaN", "Infinity", hexadecimal), and booleans and other types are errors
// wrapping ErrCoercion.
func ToFloat(v any) (float64, error) {
	switch x := v.(type) {
	case nil:
		return 0, nil
	case float64:
		return x, nil
	case int64:
		return float64(x), nil
	case float32:
		return float64(x), nil
	case string:
		if x == "" {
			return 0, nil
		}
		f, ok := parseJavaDouble(x)
		if !ok {
			return 0, &coercionError{"cannot convert " + strconv.Quote(x) + " to a number"}
		}
		return f, nil
	}
	if classify(v) == intNumber {
		return float64(intValue(v)), nil
	}
	return 0, &coercionError{"cannot convert " + describe(v) + " to a number"}
}

// ToBool converts v as EL coerces to Boolean: nil and "" are false, a string is true exactly
// when it equals "true" ignoring case (so "yes" is false), and numbers, maps and other types
// are errors wrapping ErrCoercion.
func ToBool(v any) (bool, error) {
	switch x := v.(type) {
	case bool:
		return x, nil
	case nil:
		return false, nil
	case string:
		return strings.EqualFold(x, "true"), nil
	}
	return false, &coercionError{"cannot convert " + describe(v) + " to a boolean"}
}

// describe names a value for error messages: its EL type and, for short scalars, the value.
func describe(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean " + ToString(x)
	case string:
		if len(x) > 40 {
			x = x[:40] + "..."
		}
		return "string " + strconv.Quote(x)
	}
	switch classify(v) {
	case intNumber:
		return "integer " + ToString(v)
	case floatNumber:
		return "number " + ToString(v)
	}
	switch reflect.ValueOf(v).Kind() {
	case reflect.Map:
		return "map"
	case reflect.Slice, reflect.Array:
		return "list"
	}
	return fmt.Sprintf("value of type %T", v)
}
