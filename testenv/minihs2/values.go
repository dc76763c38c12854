package minihs2

import (
	"math"
	"strconv"
	"strings"

	"github.com/beltran/gohive/hiveserver"
)

// Values in rows are nil (NULL), int64 (every integer type), float64
// (FLOAT, DOUBLE), bool (BOOLEAN) or string (everything else, including
// DECIMAL, DATE, TIMESTAMP and complex types, kept as their text).

// Text-file defaults of Hive's LazySimpleSerDe.
const (
	defaultFieldDelim = "\x01"
	defaultNullFormat = `\N`
)

// baseType returns a column type without its parameters, in lower case:
// "varchar(10)" → "varchar", "array<int>" → "array".
func baseType(t string) string {
	if i := strings.IndexAny(t, "(<"); i >= 0 {
		t = t[:i]
	}
	return strings.ToLower(strings.TrimSpace(t))
}

// knownType reports whether MiniHS2 can store a column of type t.
func knownType(t string) bool {
	switch baseType(t) {
	case "tinyint", "smallint", "int", "integer", "bigint", "float", "double", "boolean", "string", "varchar",
		"char", "decimal", "numeric", "date", "timestamp", "binary", "array", "map", "struct", "uniontype":
		return true
	}
	return false
}

// typeID is the Thrift type of a column type, as result set metadata
// reports it.
func typeID(t string) hiveserver.TTypeId {
	switch baseType(t) {
	case "tinyint":
		return hiveserver.TTypeId_TINYINT_TYPE
	case "smallint":
		return hiveserver.TTypeId_SMALLINT_TYPE
	case "int", "integer":
		return hiveserver.TTypeId_INT_TYPE
	case "bigint":
		return hiveserver.TTypeId_BIGINT_TYPE
	case "float":
		return hiveserver.TTypeId_FLOAT_TYPE
	case "double":
		return hiveserver.TTypeId_DOUBLE_TYPE
	case "boolean":
		return hiveserver.TTypeId_BOOLEAN_TYPE
	case "varchar":
		return hiveserver.TTypeId_VARCHAR_TYPE
	case "char":
		return hiveserver.TTypeId_CHAR_TYPE
	case "decimal", "numeric":
		return hiveserver.TTypeId_DECIMAL_TYPE
	case "date":
		return hiveserver.TTypeId_DATE_TYPE
	case "timestamp":
		return hiveserver.TTypeId_TIMESTAMP_TYPE
	case "binary":
		return hiveserver.TTypeId_BINARY_TYPE
	case "array":
		return hiveserver.TTypeId_ARRAY_TYPE
	case "map":
		return hiveserver.TTypeId_MAP_TYPE
	case "struct":
		return hiveserver.TTypeId_STRUCT_TYPE
	case "uniontype":
		return hiveserver.TTypeId_UNION_TYPE
	}
	return hiveserver.TTypeId_STRING_TYPE
}

// intRange returns the bounds of an integer column type.
func intRange(t string) (lo, hi int64, ok bool) {
	switch baseType(t) {
	case "tinyint":
		return math.MinInt8, math.MaxInt8, true
	case "smallint":
		return math.MinInt16, math.MaxInt16, true
	case "int", "integer":
		return math.MinInt32, math.MaxInt32, true
	case "bigint":
		return math.MinInt64, math.MaxInt64, true
	}
	return 0, 0, false
}

// parseField reads one text field as a value of type t. Like Hive's
// LazySimpleSerDe it yields NULL for the null marker and for text that does
// not parse as the column's type.
func parseField(s, t, nullFormat string) any {
	if s == nullFormat {
		return nil
	}
	if lo, hi, ok := intRange(t); ok {
		n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
		if err != nil || n < lo || n > hi {
			return nil
		}
		return n
	}
	switch baseType(t) {
	case "float", "double":
		f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil {
			return nil
		}
		return f
	case "boolean":
		switch strings.ToLower(s) {
		case "true":
			return true
		case "false":
			return false
		}
		return nil
	}
	return s
}

// coerce converts a computed value to column type t for storing (INSERT
// into a table): the same rules as reading its text back.
func coerce(v any, t string) any {
	if v == nil {
		return nil
	}
	return parseField(formatValue(v, "\x00\x00"), t, "\x00\x00")
}

// formatValue renders a value as Hive writes it to a text file.
func formatValue(v any, nullFormat string) string {
	switch x := v.(type) {
	case nil:
		return nullFormat
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return javaDouble(x)
	case bool:
		return strconv.FormatBool(x)
	case string:
		return x
	}
	return nullFormat
}

// javaDouble formats like Java's Double.toString, which Hive uses for
// DOUBLE text: "1.0", "0.5", "1.0E7", "1.0E-4", "NaN", "Infinity".
func javaDouble(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case f == 0:
		if math.Signbit(f) {
			return "-0.0"
		}
		return "0.0"
	}
	if a := math.Abs(f); a >= 1e-3 && a < 1e7 {
		s := strconv.FormatFloat(f, 'f', -1, 64)
		if !strings.Contains(s, ".") {
			s += ".0"
		}
		return s
	}
	s := strconv.FormatFloat(f, 'E', -1, 64) // 1E+07, 1.5E-04
	mant, exp, _ := strings.Cut(s, "E")
	if !strings.Contains(mant, ".") {
		mant += ".0"
	}
	e, _ := strconv.Atoi(exp)
	return mant + "E" + strconv.Itoa(e)
}

// literalType is the column type of a constant in a select list.
func literalType(v any) string {
	switch x := v.(type) {
	case int64:
		if x >= math.MinInt32 && x <= math.MaxInt32 {
			return "int"
		}
		return "bigint"
	case float64:
		return "double"
	case bool:
		return "boolean"
	}
	return "string"
}

// buildColumns turns rows into the column-based row set of protocol V6+:
// one typed column per result column, with a null bitmap (bit i of byte
// i/8 set for a NULL in row i). An empty row set still has every column,
// with no values, which is how clients see the end of the data.
func buildColumns(types []string, rows [][]any) []*hiveserver.TColumn {
	cols := make([]*hiveserver.TColumn, len(types))
	for c, t := range types {
		nulls := make([]byte, (len(rows)+7)/8)
		isNull := func(r int) bool {
			if rows[r][c] == nil {
				nulls[r/8] |= 1 << (r % 8)
				return true
			}
			return false
		}
		col := &hiveserver.TColumn{}
		switch typeID(t) {
		case hiveserver.TTypeId_TINYINT_TYPE:
			vals := make([]int8, len(rows))
			for r := range rows {
				if !isNull(r) {
					vals[r] = int8(asInt(rows[r][c]))
				}
			}
			col.ByteVal = &hiveserver.TByteColumn{Values: vals, Nulls: nulls}
		case hiveserver.TTypeId_SMALLINT_TYPE:
			vals := make([]int16, len(rows))
			for r := range rows {
				if !isNull(r) {
					vals[r] = int16(asInt(rows[r][c]))
				}
			}
			col.I16Val = &hiveserver.TI16Column{Values: vals, Nulls: nulls}
		case hiveserver.TTypeId_INT_TYPE:
			vals := make([]int32, len(rows))
			for r := range rows {
				if !isNull(r) {
					vals[r] = int32(asInt(rows[r][c]))
				}
			}
			col.I32Val = &hiveserver.TI32Column{Values: vals, Nulls: nulls}
		case hiveserver.TTypeId_BIGINT_TYPE:
			vals := make([]int64, len(rows))
			for r := range rows {
				if !isNull(r) {
					vals[r] = asInt(rows[r][c])
				}
			}
			col.I64Val = &hiveserver.TI64Column{Values: vals, Nulls: nulls}
		case hiveserver.TTypeId_FLOAT_TYPE, hiveserver.TTypeId_DOUBLE_TYPE:
			vals := make([]float64, len(rows))
			for r := range rows {
				if !isNull(r) {
					vals[r], _ = rows[r][c].(float64)
				}
			}
			col.DoubleVal = &hiveserver.TDoubleColumn{Values: vals, Nulls: nulls}
		case hiveserver.TTypeId_BOOLEAN_TYPE:
			vals := make([]bool, len(rows))
			for r := range rows {
				if !isNull(r) {
					vals[r], _ = rows[r][c].(bool)
				}
			}
			col.BoolVal = &hiveserver.TBoolColumn{Values: vals, Nulls: nulls}
		case hiveserver.TTypeId_BINARY_TYPE:
			vals := make([][]byte, len(rows))
			for r := range rows {
				if !isNull(r) {
					vals[r] = []byte(formatValue(rows[r][c], ""))
				}
			}
			col.BinaryVal = &hiveserver.TBinaryColumn{Values: vals, Nulls: nulls}
		default:
			vals := make([]string, len(rows))
			for r := range rows {
				if !isNull(r) {
					vals[r] = formatValue(rows[r][c], "")
				}
			}
			col.StringVal = &hiveserver.TStringColumn{Values: vals, Nulls: nulls}
		}
		cols[c] = col
	}
	return cols
}

func asInt(v any) int64 {
	switch x := v.(type) {
	case int64:
		return x
	case float64:
		return int64(x)
	case bool:
		if x {
			return 1
		}
	}
	return 0
}
