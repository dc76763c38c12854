package oozieapi

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

var updateGolden = flag.Bool("update", false, "rewrite testdata/documents.golden with the current encoding")

// tricky holds strings that exercise every escape of a JSON string.
var tricky = []string{"", "plain", "a<b>&c \"quoted\" \\back\\", "tab\tnl\ncr\rbs\bff\f\x00\x01\x1f\x7f",
	"héllo ✓ 𝄞", "bad \xff\xfe utf8 \xc3", "line\u2028para\u2029end", "<configuration><property/></configuration>"}

// documents returns one value of every document type of the package, with tricky strings,
// zero and set dates, nil and empty lists.
func documents() map[string]any {
	at := NewDate(time.Date(2026, 3, 8, 9, 30, 0, 0, time.UTC), GMT)
	wa := func(i int) WorkflowAction {
		s := tricky[i%len(tricky)]
		return WorkflowAction{ID: "0000001-x-W@" + s, Name: s, Type: "shell", Conf: tricky[(i+1)%len(tricky)],
			Status: "OK", Retries: i, StartTime: at, ErrorMessage: s, UserRetryMax: 3, ToString: WorkflowActionString(s, "OK")}
	}
	ca := func(i int) CoordinatorAction {
		s := tricky[i%len(tricky)]
		return CoordinatorAction{ID: "0000002-x-C@1", JobID: "0000002-x-C", ActionNumber: i, CreatedConf: s,
			CreatedTime: at, NominalTime: at, RunConf: tricky[(i+2)%len(tricky)], MissingDependencies: s,
			ToString: CoordinatorActionString("0000002-x-C@1", "WAITING")}
	}
	var was []WorkflowAction
	var cas []CoordinatorAction
	for i := range len(tricky) {
		was, cas = append(was, wa(i)), append(cas, ca(i))
	}
	wf := WorkflowJob{ID: "0000001-x-W", AppName: tricky[2], Conf: tricky[3], Status: "RUNNING", Run: 1,
		CreatedTime: at, Actions: was, ToString: WorkflowJobString("0000001-x-W", "RUNNING")}
	coord := CoordinatorJob{ID: "0000002-x-C", AppName: tricky[4], Conf: tricky[5], Frequency: "60", Concurrency: 1,
		Timeout: -1, StartTime: at, ErrorMessage: tricky[6], Actions: cas, Total: 7}
	bundle := BundleJob{ID: "0000003-x-B", AppName: tricky[7], Conf: tricky[2], KickoffTime: at,
		Coordinators: []CoordinatorJob{coord, {}}}
	refused := []Refusal{{ID: "0000001-x-W", ErrorCode: "E0508", ErrorMessage: tricky[2]}}
	return map[string]any{
		"workflow action":        wa(3),
		"workflow job":           wf,
		"workflow job, no acts":  WorkflowJob{},
		"workflow list":          WorkflowList{Workflows: []WorkflowJob{wf, {}}, Total: 2, Offset: 1, Len: 50, Refused: refused},
		"workflow list, empty":   WorkflowList{},
		"coordinator action":     ca(2),
		"coordinator job":        coord,
		"coordinator job, empty": CoordinatorJob{},
		"coordinator actions":    CoordinatorActions{Actions: cas},
		"coordinator actions, 0": CoordinatorActions{},
		"coordinator list":       CoordinatorList{Jobs: []CoordinatorJob{coord}, Total: 1, Len: 50},
		"coordinator list, 0":    CoordinatorList{},
		"bundle job":             bundle,
		"bundle job, empty":      BundleJob{},
		"bundle list":            BundleList{Jobs: []BundleJob{bundle}, Total: 1, Refused: refused},
		"bundle list, empty":     BundleList{},
		"bulk list":              BulkList{Responses: []BulkResponse{{Bundle: bundle, Coordinator: coord, Action: ca(5)}}},
		"bulk list, empty":       BulkList{},
		"date":                   at,
		"zero date":              Date{},
		"pointer to a job":       &wf,
		"plain map":              map[string]any{"a": tricky[2], "jobs": []CoordinatorJob{coord}},
		"plain struct":           struct{ Job WorkflowJob }{wf},
	}
}

// encodeWithJSON is what server.WriteJSON wrote before AppendJSON: encoding/json with HTML
// escaping off, without the trailing newline.
func encodeWithJSON(t *testing.T, v any) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// TestAppendJSONMatchesTheRecordedDocuments checks every document against the bytes the
// encoding before AppendJSON (encoding/json calling each document's MarshalJSON) wrote,
// recorded in testdata/documents.golden, and against encoding/json today.
func TestAppendJSONMatchesTheRecordedDocuments(t *testing.T) {
	t.Parallel()
	docs := documents()
	got := map[string]json.RawMessage{}
	for name, v := range docs {
		b, err := AppendJSON(nil, v)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if want := encodeWithJSON(t, v); !bytes.Equal(b, want) {
			t.Errorf("%s: AppendJSON differs from encoding/json:\n got %s\nwant %s", name, b, want)
		}
		got[name] = b
	}
	path := filepath.Join("testdata", "documents.golden")
	if *updateGolden {
		var out bytes.Buffer
		for name := range docs {
			out.WriteString(name + "\t")
			out.Write(encodeWithJSON(t, docs[name]))
			out.WriteByte('\n')
		}
		if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	golden, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for line := range bytes.Lines(golden) {
		name, want, ok := bytes.Cut(bytes.TrimSuffix(line, []byte("\n")), []byte("\t"))
		if !ok {
			t.Fatalf("%s: bad line %q", path, line)
		}
		seen++
		if b, ok := got[string(name)]; !ok {
			t.Errorf("%s: no document %q", path, name)
		} else if !bytes.Equal(b, want) {
			t.Errorf("%s: differs from the recorded encoding:\n got %s\nwant %s", name, b, want)
		}
	}
	if seen != len(docs) {
		t.Errorf("%s holds %d documents, want %d (run with -update)", path, seen, len(docs))
	}
}

func TestAppendStringMatchesEncodingJSON(t *testing.T) {
	t.Parallel()
	for _, s := range tricky {
		checkAppendString(t, s)
	}
	for b := range 256 {
		checkAppendString(t, string([]byte{byte(b)}))
		checkAppendString(t, "x"+string([]byte{byte(b)})+"y")
		// At every place of the 8-byte steps of the fast scan, and after them.
		for at := range 19 {
			s := []byte("abcdefghijklmnopqrs")
			s[at] = byte(b)
			checkAppendString(t, string(s))
		}
	}
}

// TestAppendDateLayoutMatchesAppendFormat: the hand-written DateLayout is
// time.Format's, in named, unnamed and daylight-saving zones, over years
// and every month and weekday.
func TestAppendDateLayoutMatchesAppendFormat(t *testing.T) {
	t.Parallel()
	var zones []*time.Location
	for _, name := range []string{"UTC", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe", "Europe/London"} {
		loc, err := time.LoadLocation(name)
		if err != nil {
			t.Fatal(err)
		}
		zones = append(zones, loc)
	}
	zones = append(zones, GMT, time.FixedZone("", 5400), time.FixedZone("ZZ", -3600))
	for _, loc := range zones {
		for _, at := range []time.Time{time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(999, 12, 31, 23, 59, 59, 0, time.UTC),
			time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(1000, 1, 1, 0, 0, 0, 0, time.UTC)} {
			checkDateLayout(t, at.In(loc))
		}
		for at := time.Date(1969, 1, 1, 0, 0, 0, 0, time.UTC); at.Year() < 2040; at = at.Add(97*time.Hour + 13*time.Minute + 7*time.Second) {
			checkDateLayout(t, at.In(loc))
		}
	}
}

func checkDateLayout(t *testing.T, at time.Time) {
	t.Helper()
	if got, want := string(appendDateLayout([]byte("x"), at)), string(at.AppendFormat([]byte("x"), DateLayout)); got != want {
		t.Fatalf("%v: %q, want %q", at, got, want)
	}
}

func FuzzAppendString(f *testing.F) {
	for _, s := range tricky {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkAppendString(t, s) })
}

func checkAppendString(t *testing.T, s string) {
	t.Helper()
	got := appendString([]byte("prefix"), s)
	if want := append([]byte("prefix"), encodeWithJSON(t, s)...); !bytes.Equal(got, want) {
		t.Errorf("appendString(%q) = %s, want %s", s, got, want)
	}
	if !utf8.Valid(got) {
		t.Errorf("appendString(%q) is not UTF-8", s)
	}
}

func BenchmarkAppendCoordinatorInfo(b *testing.B) {
	at := NewDate(time.Date(2026, 3, 8, 9, 30, 0, 0, time.UTC), GMT)
	conf := "<configuration>" + string(bytes.Repeat([]byte("<property><name>a.b.c</name><value>x/y/z</value></property>"), 14)) + "</configuration>"
	job := CoordinatorJob{ID: "0000002-x-C", AppName: "hourly", Conf: conf, Status: "RUNNING", Frequency: "60"}
	for i := range 50 {
		job.Actions = append(job.Actions, CoordinatorAction{ID: "0000002-x-C@1", JobID: job.ID, ActionNumber: i + 1,
			CreatedConf: conf, CreatedTime: at, NominalTime: at, Status: "SUCCEEDED", LastModifiedTime: at,
			ExternalID: "0000009-x-W", ToString: CoordinatorActionString("0000002-x-C@1", "SUCCEEDED")})
	}
	b.ReportAllocs()
	var buf []byte
	for b.Loop() {
		var err error
		if buf, err = AppendJSON(buf[:0], job); err != nil {
			b.Fatal(err)
		}
	}
}

func TestAppendJSONDateMatchesMarshalJSON(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 3, 8, 9, 30, 0, 0, time.UTC)
	for _, loc := range []*time.Location{GMT, time.UTC, time.FixedZone("Zü\"rich\\", 3600), time.FixedZone("", -7200)} {
		d := NewDate(at, loc)
		got, err := AppendJSON([]byte("x"), d)
		if err != nil {
			t.Fatal(err)
		}
		want, err := d.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != "x"+string(want) {
			t.Errorf("%v: AppendJSON = %s, want x%s", loc, got, want)
		}
	}
}

// ptrMarshaler has its MarshalJSON on the pointer, which encoding/json calls on the
// elements of a list (they are addressable) and not on a value.
type ptrMarshaler struct{ N int }

func (p *ptrMarshaler) MarshalJSON() ([]byte, error) { return []byte(`"by pointer"`), nil }

func TestAppendJSONCallsPointerMarshalersAsEncodingJSONDoes(t *testing.T) {
	t.Parallel()
	for name, v := range map[string]any{
		"list":           []ptrMarshaler{{1}, {2}},
		"value":          ptrMarshaler{3},
		"list in a list": [][]ptrMarshaler{{{4}}},
	} {
		got, err := AppendJSON(nil, v)
		if err != nil {
			t.Fatal(err)
		}
		if want := encodeWithJSON(t, v); !bytes.Equal(got, want) {
			t.Errorf("%s: AppendJSON = %s, want %s", name, got, want)
		}
	}
}

// TestAppendJSONCopiesRepeatedStrings: long strings met again in a document (the
// same configuration in every action of a page, two alternating, three taking
// turns in two places, equal lengths with other bytes, escapes) are written as
// encoding/json writes them, also after a prefix already in dst.
func TestAppendJSONCopiesRepeatedStrings(t *testing.T) {
	t.Parallel()
	long := func(fill string) string {
		return "<configuration>" + strings.Repeat(fill, repeatMin/len(fill)+1) + "</configuration>"
	}
	a, b, c := long(`<p>"a"\tq</p>`+"\n"), long("<p>bbbbbbbbbb</p>"), long("<p>ccccccccccc</p>")
	sameLength := []byte(b)
	sameLength[len(sameLength)/2] = 'X'
	// Pairs of (created, run) configurations, in the order they are written.
	confs := [][2]string{{a, a}, {a, b}, {a, b}, {c, a}, {b, c}, {b, string(sameLength)}, {b, "short"},
		{string([]byte(a)), a}, {c, c}}
	job := CoordinatorJob{ID: "0000002-x-C", Conf: a}
	for i, cf := range confs {
		job.Actions = append(job.Actions, CoordinatorAction{ID: fmt.Sprint("0000002-x-C@", i+1), ActionNumber: i + 1,
			CreatedConf: cf[0], RunConf: cf[1]})
	}
	// encoding/json calls the job's MarshalJSON, which is AppendJSON: the
	// strings are checked by decoding them instead.
	type action struct{ CreatedConf, RunConf string }
	var decoded struct {
		Actions []action
		Conf    string
	}
	for _, prefix := range []string{"", "[1,"} {
		got, err := AppendJSON([]byte(prefix), job)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(got, []byte(prefix)) {
			t.Fatalf("AppendJSON lost the prefix %q: %.20s", prefix, got)
		}
		if err := json.Unmarshal(got[len(prefix):], &decoded); err != nil {
			t.Fatalf("after %q: %v in %s", prefix, err, got)
		}
		if decoded.Conf != a || len(decoded.Actions) != len(confs) {
			t.Fatalf("after %q: decoded conf %.30q and %d actions, want %d", prefix, decoded.Conf, len(decoded.Actions), len(confs))
		}
		for i, cf := range confs {
			if got := decoded.Actions[i]; got != (action{cf[0], cf[1]}) {
				t.Errorf("after %q: action %d decodes to\n%q\nwant\n%q", prefix, i+1, got, cf)
			}
		}
	}
}
