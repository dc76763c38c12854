package jobs

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
)

// errorLogLevels are the levels show=errorlog keeps, those Oozie's error log
// receives.
var errorLogLevels = []string{"WARN", "ERROR", "FATAL"}

// logLines writes the lines of a log show that a logfilter keeps, in the
// order they are given: the debug line first when the filter asks for it,
// then each line inside the window, of a level both the show and the filter
// admit, containing the filter's text, until the filter's limit.
type logLines struct {
	bw       *bufio.Writer
	f        logFilter
	from, to time.Time // inclusive; zero does not bound
	levels   []string  // the levels the show admits; nil admits every level
	n        int       // lines written
}

// newLogLines starts writing to w the lines f keeps in the window from–to
// (see logFilter.window) among those of levels (nil: any level); times of
// the debug line are shown in loc.
func newLogLines(w io.Writer, f logFilter, from, to time.Time, levels []string, loc *time.Location) *logLines {
	l := &logLines{bw: bufio.NewWriter(w), f: f, from: from, to: to, levels: levels}
	if f.debug {
		fmt.Fprintln(l.bw, f.describe(from, to, loc))
	}
	return l
}

// keeps reports whether the filter keeps a line written at at, of level.
func (l *logLines) keeps(at time.Time, level, line string) bool {
	if (!l.from.IsZero() && at.Before(l.from)) || (!l.to.IsZero() && at.After(l.to)) {
		return false
	}
	if l.levels != nil && !slices.Contains(l.levels, level) {
		return false
	}
	return l.f.showsLevel(level) && strings.Contains(line, l.f.text)
}

// add writes line if the filter keeps it and reports whether more lines may
// follow: false once the limit is reached.
func (l *logLines) add(at time.Time, level, line string) bool {
	if l.full() {
		return false
	}
	if l.keeps(at, level, line) {
		l.bw.WriteString(line)
		l.bw.WriteByte('\n')
		l.n++
	}
	return !l.full()
}

// full reports whether the limit is reached.
func (l *logLines) full() bool { return l.f.limit > 0 && l.n >= l.f.limit }

// flush writes out what is buffered.
func (l *logLines) flush() error { return l.bw.Flush() }
