package el

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"
)

func TestToString(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   any
		want string
	}{
		{nil, ""},
		{"s", "s"},
		{true, "true"},
		{false, "false"},
		{int64(-12), "-12"},
		{7, "7"},
		{uint8(200), "200"},
		{int32(-3), "-3"},
		{1.0, "1.0"},
		{0.5, "0.5"},
		{2.5e-3, "0.0025"},
		{float32(1.1), "1.1"},
		{float64(float32(1.1)), "1.100000023841858"},
		{map[string]string{"b": "2", "a": "1"}, "{a=1, b=2}"},
		{map[string]string{}, "{}"},
		{map[string]any{"x": nil, "n": int64(3)}, "{n=3, x=null}"},
		{[]string{"a", "b"}, "[a, b]"},
		{[]any{nil, 1.5}, "[null, 1.5]"},
		{[2]int{1, 2}, "[1, 2]"},
		{time.Duration(90) * time.Second, "1m30s"},
		{errors.New("e"), "e"},
	}
	for _, tc := range tests {
		if got := ToString(tc.in); got != tc.want {
			t.Errorf("ToString(%#v) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestFormatJavaDouble checks the output of Java's Double.toString and Float.toString.
func TestToStringCycle(t *testing.T) {
	t.Parallel()
	m := map[string]any{"a": int64(1)}
	m["self"] = m
	s := ToString(m)
	if !strings.HasPrefix(s, "{a=1, self={a=1, self={") || !strings.Contains(s, "...") {
		t.Errorf("ToString of a map containing itself = %.60q...", s)
	}
}

func TestFormatJavaDouble(t *testing.T) {
	t.Parallel()
	tests := []struct {
		f    float64
		bits int
		want string
	}{
		{0, 64, "0.0"},
		{math.Copysign(0, -1), 64, "-0.0"},
		{math.NaN(), 64, "NaN"},
		{math.Inf(1), 64, "Infinity"},
		{math.Inf(-1), 64, "-Infinity"},
		{1, 64, "1.0"},
		{-1.5, 64, "-1.5"},
		{100, 64, "100.0"},
		{0.1, 64, "0.1"},
		{0.001, 64, "0.001"},
		{0.0001, 64, "1.0E-4"},
		{1234567, 64, "1234567.0"},
		{9999999, 64, "9999999.0"},
		{1e7, 64, "1.0E7"},
		{12345678, 64, "1.2345678E7"},
		{123456789, 64, "1.23456789E8"},
		{1e21, 64, "1.0E21"},
		{1e23, 64, "1.0E23"},
		{2e-3, 64, "0.002"},
		{1.0 / 3, 64, "0.3333333333333333"},
		{math.MaxFloat64, 64, "1.7976931348623157E308"},
		{5e-324, 64, "4.9E-324"},
		{-2.5e-5, 64, "-2.5E-5"},
		{123.456, 64, "123.456"},
		{float64(float32(0.1)), 32, "0.1"},
		{float64(float32(1e10)), 32, "1.0E10"},
		{float64(float32(3.4028235e38)), 32, "3.4028235E38"},
	}
	for _, tc := range tests {
		if got := formatJavaDouble(tc.f, tc.bits); got != tc.want {
			t.Errorf("formatJavaDouble(%v, %d) = %q, want %q", tc.f, tc.bits, got, tc.want)
		}
	}
}

func TestToInt(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   any
		want int64
		err  bool
	}{
		{nil, 0, false},
		{"", 0, false},
		{"42", 42, false},
		{"+42", 42, false},
		{"-42", -42, false},
		{"007", 7, false},
		{int64(9), 9, false},
		{int16(-9), -9, false},
		{uint64(math.MaxUint64), -1, false},
		{3.99, 3, false},
		{-3.99, -3, false},
		{math.NaN(), 0, false},
		{1e300, math.MaxInt64, false},
		{-1e300, math.MinInt64, false},
		{float32(2.5), 2, false},
		{"1.5", 0, true},
		{" 1", 0, true},
		{"1_000", 0, true},
		{"0x10", 0, true},
		{"9223372036854775808", 0, true},
		{"abc", 0, true},
		{true, 0, true},
		{map[string]string{}, 0, true},
	}
	for _, tc := range tests {
		got, err := ToInt(tc.in)
		if tc.err {
			if !errors.Is(err, ErrCoercion) {
				t.Errorf("ToInt(%#v) error = %v, want ErrCoercion", tc.in, err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("ToInt(%#v) = %d, %v, want %d", tc.in, got, err, tc.want)
		}
	}
}

func TestToFloat(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   any
		want float64
		err  bool
	}{
		{nil, 0, false},
		{"", 0, false},
		{"1.5", 1.5, false},
		{" 1.5\t", 1.5, false},
		{"1", 1, false},
		{"1.", 1, false},
		{".5", 0.5, false},
		{"-.5e1", -5, false},
		{"1e3", 1000, false},
		{"1.5f", 1.5, false},
		{"2D", 2, false},
		{"NaN", math.NaN(), false},
		{"Infinity", math.Inf(1), false},
		{"-Infinity", math.Inf(-1), false},
		{"0x1.8p1", 3, false},
		{"1e999", math.Inf(1), false},
		{int64(3), 3, false},
		{7, 7, false},
		{float32(0.5), 0.5, false},
		{".", 0, true},
		{"e5", 0, true},
		{"1e", 0, true},
		{"inf", 0, true},
		{"nan", 0, true},
		{"1_0", 0, true},
		{"0x1.8", 0, true},
		{"1.5ff", 0, true},
		{"abc", 0, true},
		{false, 0, true},
		{[]string{}, 0, true},
	}
	for _, tc := range tests {
		got, err := ToFloat(tc.in)
		if tc.err {
			if !errors.Is(err, ErrCoercion) {
				t.Errorf("ToFloat(%#v) error = %v, want ErrCoercion", tc.in, err)
			}
			continue
		}
		if err != nil || !sameValue(got, tc.want) {
			t.Errorf("ToFloat(%#v) = %v, %v, want %v", tc.in, got, err, tc.want)
		}
	}
}

func TestToBool(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   any
		want bool
		err  bool
	}{
		{nil, false, false},
		{"", false, false},
		{true, true, false},
		{false, false, false},
		{"true", true, false},
		{"TrUe", true, false},
		{"false", false, false},
		{"yes", false, false},
		{" true", false, false},
		{int64(1), false, true},
		{1.0, false, true},
		{map[string]string{}, false, true},
	}
	for _, tc := range tests {
		got, err := ToBool(tc.in)
		if tc.err {
			if !errors.Is(err, ErrCoercion) {
				t.Errorf("ToBool(%#v) error = %v, want ErrCoercion", tc.in, err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("ToBool(%#v) = %v, %v, want %v", tc.in, got, err, tc.want)
		}
	}
}

func TestCompareUTF16Order(t *testing.T) {
	t.Parallel()
	// U+FF61 sorts after U+1F600 in UTF-8 byte order but before it in UTF-16 (Java) order,
	// where the supplementary character starts with the surrogate 0xD83D.
	if c := compareUTF16("\uff61", "\U0001F600"); c <= 0 {
		t.Errorf(`compareUTF16("\uff61", "\U0001F600") = %d, want > 0 (Java order)`, c)
	}
	if c := compareUTF16("a\xff", "a\xfe"); c <= 0 {
		t.Errorf("invalid UTF-8 compares by bytes, got %d", c)
	}
	if c := compareUTF16("ab", "abc"); c >= 0 {
		t.Errorf(`compareUTF16("ab", "abc") = %d`, c)
	}
}
