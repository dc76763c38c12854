package hive2

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
)

// opLog is a run's operation log, kept in memory and written to LogFile:
// gozie's own lines (which statement runs, resumptions, outcomes) and
// HiveServer2's operation log lines as fetched. When it grows past its
// limit the oldest part is dropped, so the file keeps the latest lines.
type opLog struct {
	mu      sync.Mutex
	buf     []byte
	max     int
	dropped int
	dirty   bool
	apps    []string // YARN application ids seen in the lines
}

// childPatterns find YARN applications in HiveServer2's operation log, as
// Oozie's Hive2 action does: Tez, MapReduce's submission, and MapReduce
// job ids (whose application id has the same numbers).
var childPatterns = []*regexp.Regexp{
	regexp.MustCompile(`Executing on YARN cluster with App id (application_[0-9]+_[0-9]+)`),
	regexp.MustCompile(`Submitted application (application_[0-9]+_[0-9]+)`),
	regexp.MustCompile(`Ended Job = job_([0-9]+_[0-9]+)`),
}

func newOpLog(prior []byte, max int) *opLog {
	l := &opLog{max: max}
	l.append(prior)
	l.dirty = false
	for _, line := range strings.Split(string(prior), "\n") {
		l.scan(line)
	}
	return l
}

func (l *opLog) append(b []byte) {
	l.buf = append(l.buf, b...)
	if over := len(l.buf) - l.max; over > 0 {
		if i := slices.Index(l.buf[over:], '\n'); i >= 0 {
			over += i + 1
		}
		l.buf = append(l.buf[:0], l.buf[over:]...)
		l.dropped += over
	}
	l.dirty = true
}

// printf adds one of gozie's lines, stamped with now.
func (l *opLog) printf(now time.Time, format string, args ...any) {
	line := fmt.Sprintf("%s hive2: %s\n", now.UTC().Format("2006-01-02 15:04:05,000"), fmt.Sprintf(format, args...))
	l.mu.Lock()
	defer l.mu.Unlock()
	l.append([]byte(line))
}

// server adds HiveServer2's operation log lines.
func (l *opLog) server(lines []string) {
	if len(lines) == 0 {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, line := range lines {
		l.append([]byte(line + "\n"))
		l.scan(line)
	}
}

func (l *opLog) scan(line string) {
	for _, p := range childPatterns {
		if m := p.FindStringSubmatch(line); m != nil {
			id := m[1]
			if !strings.HasPrefix(id, "application_") {
				id = "application_" + id
			}
			if !slices.Contains(l.apps, id) {
				l.apps = append(l.apps, id)
			}
		}
	}
}

// snapshot returns the content to write when it changed since the last
// call.
func (l *opLog) snapshot() (content []byte, changed bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.dirty {
		return nil, false
	}
	l.dirty = false
	content = slices.Clone(l.buf)
	if l.dropped > 0 {
		content = append([]byte(fmt.Sprintf("[... %d earlier bytes dropped ...]\n", l.dropped)), content...)
	}
	return content, true
}

// childApps returns the YARN application ids seen so far.
func (l *opLog) childApps() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.apps)
}

// markDirty makes the next snapshot write again (after a failed write).
func (l *opLog) markDirty() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.dirty = true
}
