package jobs

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"net/http"
	"testing"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/server"
	"github.com/gozie/gozie/workflow"
)

// FuzzGenerateProxyApp checks that any (trimmed) proxy configuration either generates a
// workflow the workflow parser loads, with the values carried over intact, or is refused
// with a 400.
func FuzzGenerateProxyApp(f *testing.F) {
	f.Add(true, "mapred.input.dir", "/in & <out>", "2", "-Dq=etl", "-v", "A=1", "/a.txt,/b.jar#b", "SELECT 1;")
	f.Add(false, "k", "${x}", "1", "-D", "", "", ",,", "")
	f.Add(true, "", "v", "-3", "--x", "-Da=b=c", "P", "hdfs://nn/dir/", "\x00")
	f.Fuzz(func(t *testing.T, hive bool, key, value, size, opt0, opt1, param, files, script string) {
		props := conf.NewProperties(key, value, PropHiveScript, script, PropFiles, files,
			PropHiveOptions+".size", size, PropHiveOptions+".0", opt0, PropHiveOptions+".1", opt1,
			PropHiveScriptParams+".size", "1", PropHiveScriptParams+".0", param).Trimmed() // as submit trims them
		first := props.Entries()[0]
		key, value = first.Name, props.Value(first.Name)
		jobType := ProxyMapReduce
		if hive {
			jobType = ProxyHive
		}
		app, err := generateProxyApp(jobType, props, "rm:8032", "hdfs://nn:8020")
		if err != nil {
			var se *server.Error
			if !errors.As(err, &se) || se.Status != http.StatusBadRequest {
				t.Fatalf("error %v is not a 400", err)
			}
			return
		}
		d := xml.NewDecoder(bytes.NewReader(app.Definition))
		for {
			if _, err := d.Token(); err == io.EOF {
				break
			} else if err != nil {
				t.Fatalf("not well-formed: %v\n%s", err, app.Definition)
			}
		}
		parsed, err := workflow.Load(app.Definition, workflow.Options{})
		if err != nil {
			t.Fatalf("does not load: %v\n%s", err, app.Definition)
		}
		node := parsed.Node(jobType + "1")
		if node == nil || node.Action == nil {
			t.Fatalf("no action %s1", jobType)
		}
		if mr, ok := node.Action.Body.(*workflow.MapReduce); ok && !proxySkipped[key] {
			if got, _ := mr.Configuration.Get(xmlClean(key)); got != xmlClean(value) {
				t.Fatalf("configuration %q = %q, want %q", key, got, value)
			}
		}
	})
}

// xmlClean is s as it reads back from XML: characters XML cannot hold become U+FFFD, and
// a carriage return, written escaped, comes back as is.
func xmlClean(s string) string {
	var b bytes.Buffer
	escape(&b, s)
	var out string
	if err := xml.Unmarshal([]byte("<v>"+b.String()+"</v>"), &out); err != nil {
		return s
	}
	return out
}
