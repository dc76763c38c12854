package jobs

import (
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/server"
	"github.com/gozie/gozie/workflow"
)

// FuzzGenerateProxySqoop checks that any (trimmed) sqoop command becomes a sqoop action
// the workflow parser loads with one <arg> per line of the command, each line intact (as
// the parser trims it), or is refused with a 400.
func FuzzGenerateProxySqoop(f *testing.F) {
	f.Add("import\n--connect\njdbc:postgresql://db/x\n--query\nSELECT * FROM t WHERE $CONDITIONS", "-Dq=etl")
	f.Add("list-tables\n\n--verbose <&>", "-D")
	f.Add("\x00\r\n${x}", "-v")
	f.Fuzz(func(t *testing.T, command, opt string) {
		props := conf.NewProperties(PropSqoopCommand, command, PropSqoopOptions+".size", "1", PropSqoopOptions+".0", opt).Trimmed()
		app, err := generateProxyApp(ProxySqoop, props, "rm:8032", "hdfs://nn:8020")
		if err != nil {
			var se *server.Error
			if !errors.As(err, &se) || se.Status != http.StatusBadRequest {
				t.Fatalf("error %v is not a 400", err)
			}
			return
		}
		parsed, err := workflow.Load(app.Definition, workflow.Options{})
		if err != nil {
			t.Fatalf("does not load: %v\n%s", err, app.Definition)
		}
		node := parsed.Node("sqoop1")
		if node == nil || node.Action == nil {
			t.Fatal("no action sqoop1")
		}
		sq, ok := node.Action.Body.(*workflow.Sqoop)
		if !ok {
			t.Fatalf("body %T, want a sqoop action", node.Action.Body)
		}
		lines := strings.Split(props.Value(PropSqoopCommand), "\n")
		if len(sq.Args) != len(lines) {
			t.Fatalf("%d args %q for %d lines %q", len(sq.Args), sq.Args, len(lines), lines)
		}
		for i, l := range lines {
			if want := strings.TrimSpace(xmlClean(l)); sq.Args[i] != want {
				t.Errorf("arg %d %q, want %q", i, sq.Args[i], want)
			}
		}
	})
}
