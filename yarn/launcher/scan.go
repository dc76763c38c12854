package launcher

import (
	"bytes"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// Lines of the cluster tools' output that the launcher reads, as Oozie's
// Hive2Main and MapReduceMain do: the YARN applications a query or job
// started, the id of a submitted MapReduce job, and Beeline's error line.
var (
	childAppPatterns = []*regexp.Regexp{
		regexp.MustCompile(`Executing on YARN cluster with App id (application_[0-9]+_[0-9]+)`),
		regexp.MustCompile(`Submitted application (application_[0-9]+_[0-9]+)`),
		regexp.MustCompile(`Running with YARN Application = (application_[0-9]+_[0-9]+)`),
		regexp.MustCompile(`Ended Job = job_([0-9]+_[0-9]+)`),
		// Pig's job summary and DistCp's end line (PigMain's and
		// DistcpMain's patterns).
		regexp.MustCompile(`HadoopJobId: job_([0-9]+_[0-9]+)`),
		regexp.MustCompile(`Job job_([0-9]+_[0-9]+) completed successfully`),
	}
	createdJobPattern = regexp.MustCompile(`Created job job_([0-9]+_[0-9]+)`)
	// beelineError is the line Beeline prints for a failed statement:
	// "Error: <message> (state=<SQL state>,code=<Hive error code>)".
	beelineError = regexp.MustCompile(`^Error: (.*) \(state=([^,)]*),code=(-?[0-9]+)\)\s*$`)
)

// maxScanLine bounds one line the scanner keeps; longer lines are cut.
const maxScanLine = 64 << 10

// outputScanner reads a command's stdout and stderr line by line as they
// are written and keeps what the launcher reports.
type outputScanner struct {
	mu        sync.Mutex
	apps      []string // YARN applications the command started, in order
	createdID string   // application id of "Created job job_..." (map-reduce)
	errCode   string   // Hive error code of Beeline's last error line
	errMsg    string
	lastLine  string // the last non-empty line of stderr
}

// stream returns a writer for one of the command's output streams; each
// keeps its own partial line. stderr marks the error stream.
func (s *outputScanner) stream(stderr bool) *scanStream {
	return &scanStream{s: s, stderr: stderr}
}

// scanStream splits one stream into lines for its scanner.
type scanStream struct {
	s       *outputScanner
	stderr  bool
	partial []byte
}

func (w *scanStream) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			if room := maxScanLine - len(w.partial); room > 0 {
				w.partial = append(w.partial, p[:min(room, len(p))]...)
			}
			break
		}
		line := append(w.partial, p[:i]...)
		w.s.line(strings.TrimRight(string(line), "\r"), w.stderr)
		w.partial = w.partial[:0]
		p = p[i+1:]
	}
	return n, nil
}

// flush hands over a last line without a newline.
func (w *scanStream) flush() {
	if len(w.partial) > 0 {
		w.s.line(string(w.partial), w.stderr)
		w.partial = w.partial[:0]
	}
}

func (s *outputScanner) line(line string, stderr bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, p := range childAppPatterns {
		if m := p.FindStringSubmatch(line); m != nil {
			s.addApp(m[1])
		}
	}
	if m := createdJobPattern.FindStringSubmatch(line); m != nil {
		s.createdID = "application_" + m[1]
		s.addApp(s.createdID)
	}
	if m := beelineError.FindStringSubmatch(line); m != nil {
		s.errMsg, s.errCode = strings.TrimSpace(m[1]), m[3]
	}
	if t := strings.TrimSpace(line); stderr && t != "" {
		s.lastLine = t
	}
}

func (s *outputScanner) addApp(id string) {
	if !strings.HasPrefix(id, "application_") {
		id = "application_" + id
	}
	if !slices.Contains(s.apps, id) {
		s.apps = append(s.apps, id)
	}
}

// childApps returns the applications seen, in order.
func (s *outputScanner) childApps() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.apps)
}

// newID returns the application id of the submitted MapReduce job: the
// "Created job" line, else the first submitted application.
func (s *outputScanner) newID() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.createdID != "" {
		return s.createdID
	}
	if len(s.apps) > 0 {
		return s.apps[0]
	}
	return ""
}

// hiveError returns Hive's error code and message from Beeline's last
// error line; ok is false when there was none.
func (s *outputScanner) hiveError() (code, msg string, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.errCode, s.errMsg, s.errCode != ""
}

// lastError returns the last non-empty line of stderr.
func (s *outputScanner) lastError() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lastLine
}
