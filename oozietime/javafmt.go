package oozietime

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// FormatJava formats t (already in the wanted zone) with a java.text.SimpleDateFormat
// pattern in the en-US locale, as coord:formatTime does. Supported letters: G y Y M L d D E u
// a H k K h m s S z Z X w W F; text in single quotes is literal and two single quotes
// stand for one. Other ASCII
// letters are an error, as in Java ("Illegal pattern character").
func FormatJava(t time.Time, pattern string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(pattern); {
		c := pattern[i]
		switch {
		case c == '\'':
			j := i + 1
			if j < len(pattern) && pattern[j] == '\'' {
				b.WriteByte('\'')
				i += 2
				continue
			}
			for j < len(pattern) {
				if pattern[j] == '\'' {
					if j+1 < len(pattern) && pattern[j+1] == '\'' {
						b.WriteByte('\'')
						j += 2
						continue
					}
					break
				}
				b.WriteByte(pattern[j])
				j++
			}
			if j >= len(pattern) {
				return "", fmt.Errorf("unterminated quote in date pattern %q", pattern)
			}
			i = j + 1
		case (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'):
			n := 1
			for i+n < len(pattern) && pattern[i+n] == c {
				n++
			}
			if err := formatJavaField(&b, t, c, n); err != nil {
				return "", fmt.Errorf("date pattern %q: %w", pattern, err)
			}
			i += n
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String(), nil
}

// formatJavaField writes one pattern field of n letters c.
func formatJavaField(b *strings.Builder, t time.Time, c byte, n int) error {
	num := func(v int) {
		s := strconv.Itoa(v)
		for i := len(s); i < n; i++ {
			b.WriteByte('0')
		}
		b.WriteString(s)
	}
	text := func(full string) {
		if n >= 4 {
			b.WriteString(full)
		} else {
			b.WriteString(full[:3])
		}
	}
	switch c {
	case 'G':
		if t.Year() > 0 {
			b.WriteString("AD")
		} else {
			b.WriteString("BC")
		}
	case 'y', 'Y':
		y := t.Year()
		if c == 'Y' {
			y, _ = t.ISOWeek()
		}
		if n == 2 {
			s := strconv.Itoa(y % 100)
			if len(s) < 2 {
				b.WriteByte('0')
			}
			b.WriteString(s)
			return nil
		}
		num(y)
	case 'M', 'L':
		if n >= 3 {
			text(t.Month().String())
		} else {
			num(int(t.Month()))
		}
	case 'd':
		num(t.Day())
	case 'D':
		num(t.YearDay())
	case 'F':
		num((t.Day()-1)/7 + 1)
	case 'E':
		text(t.Weekday().String())
	case 'u':
		wd := int(t.Weekday())
		if wd == 0 {
			wd = 7
		}
		num(wd)
	case 'a':
		if t.Hour() < 12 {
			b.WriteString("AM")
		} else {
			b.WriteString("PM")
		}
	case 'H':
		num(t.Hour())
	case 'k':
		h := t.Hour()
		if h == 0 {
			h = 24
		}
		num(h)
	case 'K':
		num(t.Hour() % 12)
	case 'h':
		h := t.Hour() % 12
		if h == 0 {
			h = 12
		}
		num(h)
	case 'm':
		num(t.Minute())
	case 's':
		num(t.Second())
	case 'S':
		num(t.Nanosecond() / int(time.Millisecond))
	case 'w':
		_, w := t.ISOWeek()
		num(w)
	case 'W':
		first := time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, t.Location()).Weekday()
		num((t.Day()+int(first)-1)/7 + 1)
	case 'z':
		name, off := t.Zone()
		if n >= 4 || name == "" || name[0] == '+' || name[0] == '-' {
			b.WriteString(gmtOffset(off, true))
		} else {
			b.WriteString(name)
		}
	case 'Z':
		_, off := t.Zone()
		b.WriteString(gmtOffset(off, false)[3:])
	case 'X':
		_, off := t.Zone()
		if off == 0 {
			b.WriteByte('Z')
			return nil
		}
		s := gmtOffset(off, n == 3)[3:]
		if n == 1 {
			s = s[:3]
		}
		b.WriteString(s)
	default:
		return fmt.Errorf("illegal pattern character '%c'", c)
	}
	return nil
}

// gmtOffset renders an offset in seconds as GMT+hh:mm (colon) or GMT+hhmm.
func gmtOffset(off int, colon bool) string {
	sign := byte('+')
	if off < 0 {
		sign = '-'
		off = -off
	}
	hh, mm := off/3600, off%3600/60
	sep := ""
	if colon {
		sep = ":"
	}
	return fmt.Sprintf("GMT%c%02d%s%02d", sign, hh, sep, mm)
}
