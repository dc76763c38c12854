package oozietime

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/robfig/cron/v3"
)

func TestCronNext(t *testing.T) {
	t.Parallel()
	tests := []struct {
		id    string
		cron  string
		after string
		want  []string // successive fire times
	}{
		{"Q1", "10,20 * * * *", "2013-07-18T00:15Z", []string{"2013-07-18T00:20Z"}},
		{"Q3 dom or dow", "20-30 * 20 5-7 4,5", "2013-07-18T00:20Z", []string{"2013-07-18T00:21Z"}},
		{"Q5 weekdays from Saturday", "0 9-16 * * 2-6", "2013-07-20T00:20Z", []string{"2013-07-22T09:00Z", "2013-07-22T10:00Z"}},
		{"Q7 names", "20-30 10 * * MON,WED", "2013-07-18T00:20Z", []string{"2013-07-22T10:20Z"}},
		{"strictly after a fire time", "0 * * * *", "2013-03-10T08:00Z", []string{"2013-03-10T09:00Z"}},
		{"seconds are ignored", "0 * * * *", "2013-03-10T07:59Z", []string{"2013-03-10T08:00Z"}},
		{"step from value", "20/15 * * * *", "2013-07-18T00:00Z", []string{"2013-07-18T00:20Z", "2013-07-18T00:35Z", "2013-07-18T00:50Z", "2013-07-18T01:20Z"}},
		{"month step without wrap", "0 0 1 7/6 *", "2013-07-18T00:00Z", []string{"2014-07-01T00:00Z"}},
		{"last day of month", "0 0 L * ?", "2013-02-01T00:00Z", []string{"2013-02-28T00:00Z", "2013-03-31T00:00Z"}},
		{"L-3", "0 0 L-3 * ?", "2013-02-01T00:00Z", []string{"2013-02-25T00:00Z"}},
		{"last weekday", "0 0 LW * ?", "2013-08-01T00:00Z", []string{"2013-08-30T00:00Z"}},
		{"nearest weekday to a Saturday", "0 0 15W * ?", "2013-06-01T00:00Z", []string{"2013-06-14T00:00Z"}},
		{"1W on a Saturday stays in the month", "0 0 1W * ?", "2013-05-31T00:00Z", []string{"2013-06-03T00:00Z"}},
		{"last Friday", "0 0 ? * 6L", "2013-07-01T00:00Z", []string{"2013-07-26T00:00Z"}},
		{"third Friday", "0 0 ? * 6#3", "2013-07-01T00:00Z", []string{"2013-07-19T00:00Z"}},
		{"L alone is Saturday", "0 0 ? * L", "2013-07-18T00:00Z", []string{"2013-07-20T00:00Z", "2013-07-27T00:00Z"}},
		{"wrapping day range", "0 0 ? * FRI-MON", "2013-07-18T00:00Z", []string{"2013-07-19T00:00Z", "2013-07-20T00:00Z", "2013-07-21T00:00Z", "2013-07-22T00:00Z", "2013-07-26T00:00Z"}},
		{"lower case names", "0 0 ? jul sun", "2013-07-18T00:00Z", []string{"2013-07-21T00:00Z"}},
		{"Feb 29", "0 0 29 2 *", "2013-01-01T00:00Z", []string{"2016-02-29T00:00Z"}},
	}
	for _, tc := range tests {
		t.Run(tc.id, func(t *testing.T) {
			t.Parallel()
			c, err := ParseCron(tc.cron)
			if err != nil {
				t.Fatalf("ParseCron(%q): %v", tc.cron, err)
			}
			at := utc(t, tc.after)
			for _, w := range tc.want {
				next, ok := c.Next(at, time.UTC)
				if !ok {
					t.Fatalf("%q: no fire time after %s", tc.cron, UTC.Format(at))
				}
				if s := UTC.Format(next); s != w {
					t.Fatalf("%q after %s = %s, want %s", tc.cron, UTC.Format(at), s, w)
				}
				at = next
			}
		})
	}
}

func TestCronNeverFires(t *testing.T) {
	t.Parallel()
	c, err := ParseCron("0 10 30 2 *")
	if err != nil {
		t.Fatal(err)
	}
	if next, ok := c.Next(utc(t, "2013-01-01T00:00Z"), time.UTC); ok {
		t.Fatalf("February 30 fires at %v", next)
	}
}

func TestParseCronErrors(t *testing.T) {
	t.Parallel()
	// S6: ParamChecker.checkFrequency accepts these.
	for _, ok := range []string{"20,30 * * 10 *", "0/10 10-12 3 5 MON,FRI", "0/10 1/2 * * *", "* * * * *"} {
		if _, err := ParseCron(ok); err != nil {
			t.Errorf("S6: ParseCron(%q): %v", ok, err)
		}
	}
	for _, bad := range []string{
		"", "* * * *", "* * * * * *", "0  * * * *", "60 * * * *", "* 24 * * *", "* * 0 * *",
		"* * * 13 *", "* * * * 0", "* * * * 8", "* * ? * ?", "*/0 * * * *", "a * * * *",
		"* * L,3 * ?", "* * 1-5W * ?", "* * ? * 1#6", "* * ? * W", "1-2-3 * * * *", "* * * JANUARY *",
	} {
		if _, err := ParseCron(bad); err == nil {
			t.Errorf("ParseCron(%q) accepted", bad)
		}
	}
}

// TestCronMatchesRobfig compares Next with github.com/robfig/cron/v3 on random expressions of
// the syntax both understand (robfig numbers days of week 0-6 from Sunday, Quartz 1-7).
func TestCronMatchesRobfig(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	parser := cron.NewParser(cron.Minute | cron.Hour | cron.Dom | cron.Month | cron.Dow)
	field := func(min, max int) (quartz, robfig string) {
		switch rng.IntN(5) {
		case 0:
			return "*", "*"
		case 1:
			v := min + rng.IntN(max-min+1)
			return strconv.Itoa(v), strconv.Itoa(v)
		case 2:
			a := min + rng.IntN(max-min+1)
			b := a + rng.IntN(max-a+1)
			s := strconv.Itoa(a) + "-" + strconv.Itoa(b)
			return s, s
		case 3:
			a := min + rng.IntN(max-min+1)
			s := strconv.Itoa(a) + "/" + strconv.Itoa(1+rng.IntN(max/2+1))
			return s, s
		}
		a, b := min+rng.IntN(max-min+1), min+rng.IntN(max-min+1)
		s := strconv.Itoa(a) + "," + strconv.Itoa(b)
		return s, s
	}
	shift := func(s string) string { // Quartz 1-7 → robfig 0-6
		if s == "*" {
			return s
		}
		var b strings.Builder
		num := ""
		flush := func() {
			if num != "" {
				n, _ := strconv.Atoi(num)
				b.WriteString(strconv.Itoa(n - 1))
				num = ""
			}
		}
		for i, r := range s {
			if r >= '0' && r <= '9' {
				num += string(r)
				continue
			}
			flush()
			if r == '/' { // the step is not a day number
				b.WriteString(s[i:])
				return b.String()
			}
			b.WriteRune(r)
		}
		flush()
		return b.String()
	}
	start := utc(t, "2013-07-18T00:00Z")
	for i := 0; i < 300; i++ {
		var q, r [5]string
		q[0], r[0] = field(0, 59)
		q[1], r[1] = field(0, 23)
		q[2], r[2] = field(1, 28)
		q[3], r[3] = field(1, 12)
		q[4], _ = field(1, 7)
		r[4] = shift(q[4])
		qs, rs := strings.Join(q[:], " "), strings.Join(r[:], " ")
		c, err := ParseCron(qs)
		if err != nil {
			t.Fatalf("ParseCron(%q): %v", qs, err)
		}
		sched, err := parser.Parse(rs)
		if err != nil {
			t.Fatalf("robfig Parse(%q): %v", rs, err)
		}
		at := start
		for j := 0; j < 5; j++ {
			want := sched.Next(at)
			got, ok := c.Next(at, time.UTC)
			if !ok || !got.Equal(want) {
				t.Fatalf("%q (robfig %q) after %s: got %s %v, robfig %s", qs, rs, UTC.Format(at),
					UTC.Format(got), ok, UTC.Format(want))
			}
			at = got
		}
	}
}
