package el

import (
	"math"
	"strconv"
	"strings"
)

// formatJavaDouble formats f the way Java's Double.toString (bitSize 64) or Float.toString
// (bitSize 32) does: the shortest digits that round-trip (at least two), in plain notation with at least one
// fractional digit when 10^-3 <= |f| < 10^7 ("0.001", "2.0", "1234567.0"), otherwise in
// computerized scientific notation ("1.0E7", "1.0E-4"); "NaN", "Infinity", "-Infinity",
// "0.0" and "-0.0" for the special values.
func formatJavaDouble(f float64, bitSize int) string {
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
	s := strconv.FormatFloat(f, 'e', -1, bitSize) // [-]d[.ddd]e±dd
	if s[1] == 'e' || (s[0] == '-' && s[2] == 'e') {
		// Java prints at least two significant digits and then picks the two-digit decimal
		// closest to f (Double.MIN_VALUE is 4.9E-324, not 5.0E-324).
		if s2 := strconv.FormatFloat(f, 'e', 1, bitSize); parsesTo(s2, f, bitSize) {
			s = s2
		}
	}
	neg := s[0] == '-'
	if neg {
		s = s[1:]
	}
	e := strings.IndexByte(s, 'e')
	exp, _ := strconv.Atoi(s[e+1:])
	digits := strings.TrimRight(strings.Replace(s[:e], ".", "", 1), "0")
	if digits == "" {
		digits = "0"
	}

	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	if exp >= -3 && exp < 7 {
		point := exp + 1 // digits before the decimal point
		switch {
		case point <= 0:
			b.WriteString("0.")
			b.WriteString(strings.Repeat("0", -point))
			b.WriteString(digits)
		case point >= len(digits):
			b.WriteString(digits)
			b.WriteString(strings.Repeat("0", point-len(digits)))
			b.WriteString(".0")
		default:
			b.WriteString(digits[:point])
			b.WriteByte('.')
			b.WriteString(digits[point:])
		}
		return b.String()
	}
	b.WriteByte(digits[0])
	b.WriteByte('.')
	if len(digits) > 1 {
		b.WriteString(digits[1:])
	} else {
		b.WriteByte('0')
	}
	b.WriteByte('E')
	b.WriteString(strconv.Itoa(exp))
	return b.String()
}

func parsesTo(s string, f float64, bitSize int) bool {
	g, err := strconv.ParseFloat(s, bitSize)
	return err == nil && g == f
}

// javaLong converts f to int64 like a Java (long) cast: truncation toward zero, saturation at
// the int64 bounds, NaN to 0.
func javaLong(f float64) int64 {
	switch {
	case math.IsNaN(f):
		return 0
	case f >= 9.223372036854775807e18:
		return math.MaxInt64
	case f <= -9.223372036854775808e18:
		return math.MinInt64
	}
	return int64(f)
}

// javaInt converts f to int32 like a Java (int) cast.
func javaInt(f float64) int32 {
	switch {
	case math.IsNaN(f):
		return 0
	case f >= math.MaxInt32:
		return math.MaxInt32
	case f <= math.MinInt32:
		return math.MinInt32
	}
	return int32(f)
}

// parseJavaDouble parses s with the syntax of Java's Double.valueOf: leading and trailing
// characters <= ' ' are ignored; then an optional sign and either "NaN", "Infinity", a
// decimal number (digits with an optional fraction and exponent, at least one digit) or a
// hexadecimal number with a binary exponent ("0x1.8p3"), optionally followed by one of
// f F d D.
func parseJavaDouble(s string) (float64, bool) {
	s = javaTrim(s)
	body := s
	if body != "" && (body[0] == '+' || body[0] == '-') {
		body = body[1:]
	}
	switch body {
	case "NaN":
		return math.NaN(), true
	case "Infinity":
		if s[0] == '-' {
			return math.Inf(-1), true
		}
		return math.Inf(1), true
	}
	if n := len(body); n > 0 && strings.IndexByte("fFdD", body[n-1]) >= 0 {
		body = body[:n-1]
		s = s[:len(s)-1]
	}
	var ok bool
	if len(body) > 2 && body[0] == '0' && (body[1] == 'x' || body[1] == 'X') {
		ok = validHexFloat(body[2:])
	} else {
		ok = validDecimalFloat(body)
	}
	if !ok {
		return 0, false
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		if ne, isNum := err.(*strconv.NumError); !isNum || ne.Err != strconv.ErrRange {
			return 0, false
		}
	}
	return f, true
}

// validDecimalFloat checks digits [. digits] [eE [+-] digits] with at least one mantissa digit.
func validDecimalFloat(s string) bool {
	i, mant := 0, 0
	for i < len(s) && isDigit(s[i]) {
		i, mant = i+1, mant+1
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && isDigit(s[i]) {
			i, mant = i+1, mant+1
		}
	}
	if mant == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		k := exponentEnd(s, i)
		if k == i {
			return false
		}
		i = k
	}
	return i == len(s)
}

// validHexFloat checks hexdigits [. hexdigits] [pP] [+-] digits after "0x", with at least one
// mantissa digit; the binary exponent is mandatory, as in Java.
func validHexFloat(s string) bool {
	i, mant := 0, 0
	for i < len(s) && isHex(s[i]) {
		i, mant = i+1, mant+1
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && isHex(s[i]) {
			i, mant = i+1, mant+1
		}
	}
	if mant == 0 || i >= len(s) || (s[i] != 'p' && s[i] != 'P') {
		return false
	}
	i++
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	if i >= len(s) {
		return false
	}
	for i < len(s) {
		if !isDigit(s[i]) {
			return false
		}
		i++
	}
	return true
}

func isHex(c byte) bool {
	return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

// javaTrim removes leading and trailing characters <= ' ', like Java's String.trim.
func javaTrim(s string) string {
	i, j := 0, len(s)
	for i < j && s[i] <= ' ' {
		i++
	}
	for j > i && s[j-1] <= ' ' {
		j--
	}
	return s[i:j]
}
