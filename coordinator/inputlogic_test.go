package coordinator

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/oozietime"
	"github.com/gozie/gozie/store"
)

// logicJobXML is a 0.5 coordinator with two 20-minute datasets, data-ins input-1 and input-2
// (current(-2)..current(0)) and the given input-logic.
func logicJobXML(dir, logic string) string {
	ds := func(name, sub string) string {
		return fmt.Sprintf(`<dataset name="%s" frequency="${coord:minutes(20)}" initial-instance="2010-01-01T00:00Z" timezone="UTC">
      <uri-template>file://%s/%s/${YEAR}/${MONTH}/${DAY}/${HOUR}/${MINUTE}</uri-template></dataset>`, name, filepath.ToSlash(dir), sub)
	}
	in := func(name, set string) string {
		return `<data-in name="` + name + `" dataset="` + set + `"><start-instance>${coord:current(-2)}</start-instance>` +
			`<end-instance>${coord:current(0)}</end-instance></data-in>`
	}
	return `<coordinator-app xmlns="uri:oozie:coordinator:0.5" name="logic" frequency="${coord:hours(1)}"
  start="2010-01-01T01:00Z" end="2010-01-01T02:00Z" timezone="UTC">
  <datasets>` + ds("data-1", "a") + ds("data-2", "b") + `</datasets>
  <input-events>` + in("input-1", "data-1") + in("input-2", "data-2") + `</input-events>
  <input-logic>` + logic + `</input-logic>
  <action><workflow><app-path>hdfs:///wf</app-path><configuration>
    <property><name>inputData</name><value>${coord:dataIn('input')}</value></property>
  </configuration></workflow></action>
</coordinator-app>`
}

func TestInputLogic(t *testing.T) {
	t.Parallel()
	// Instances of the action at 01:00Z: 01:00, 00:40, 00:20.
	all := []string{"2010/01/01/01/00/_SUCCESS", "2010/01/01/00/40/_SUCCESS", "2010/01/01/00/20/_SUCCESS"}
	under := func(sub string, paths ...string) []string {
		out := make([]string, len(paths))
		for i, p := range paths {
			out[i] = sub + "/" + p
		}
		return out
	}
	tests := []struct {
		id      string
		logic   string
		present []string
		after   time.Duration // time since the nominal time
		want    store.CoordActionStatus
		input   string // coord:dataIn('input') once READY, with "D" for the directory
	}{
		{"or takes the first satisfied", `<or name="input"><data-in dataset="input-1"/><data-in dataset="input-2"/></or>`,
			under("b", all...), 0, store.CoordActionReady, "D/b/2010/01/01/01/00,D/b/2010/01/01/00/40,D/b/2010/01/01/00/20"},
		{"or prefers the first", `<or name="input"><data-in dataset="input-1"/><data-in dataset="input-2"/></or>`,
			append(under("a", all...), under("b", all...)...), 0, store.CoordActionReady,
			"D/a/2010/01/01/01/00,D/a/2010/01/01/00/40,D/a/2010/01/01/00/20"},
		{"or waits for the first child", `<or name="input"><data-in dataset="input-1" wait="10"/><data-in dataset="input-2"/></or>`,
			under("b", all...), 5 * time.Minute, store.CoordActionWaiting, ""},
		{"or falls through after the wait", `<or name="input"><data-in dataset="input-1" wait="10"/><data-in dataset="input-2"/></or>`,
			under("b", all...), 11 * time.Minute, store.CoordActionReady, "D/b/2010/01/01/01/00,D/b/2010/01/01/00/40,D/b/2010/01/01/00/20"},
		{"and needs both", `<and name="input"><data-in dataset="input-1"/><data-in dataset="input-2"/></and>`,
			under("a", all...), 0, store.CoordActionWaiting, ""},
		{"and with min", `<and name="input" min="2"><data-in dataset="input-1"/><data-in dataset="input-2"/></and>`,
			append(under("a", all[:2]...), under("b", all[1:]...)...), 0, store.CoordActionReady,
			"D/b/2010/01/01/00/40,D/b/2010/01/01/00/20,D/a/2010/01/01/01/00,D/a/2010/01/01/00/40"},
		{"min 0 is always satisfied", `<data-in name="input" dataset="input-1" min="0"/>`, nil, 0, store.CoordActionReady, ""},
		{"combine fills holes", `<combine name="input"><data-in dataset="input-1"/><data-in dataset="input-2"/></combine>`,
			append(under("a", all[0], all[2]), under("b", all[1])...), 0, store.CoordActionReady,
			"D/a/2010/01/01/01/00,D/b/2010/01/01/00/40,D/a/2010/01/01/00/20"},
		{"combine with a hole in both", `<combine name="input"><data-in dataset="input-1"/><data-in dataset="input-2"/></combine>`,
			under("a", all[0], all[2]), 0, store.CoordActionWaiting, ""},
	}
	for _, tc := range tests {
		t.Run(tc.id, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			job := submitXML(t, logicJobXML(dir, tc.logic))
			nominal := utc(t, "2010-01-01T01:00Z")
			row, na := firstAction(t, job, nominal)
			mkdirs(t, dir, tc.present...)
			res := check(t, job, row, na.Row, nominal.Add(tc.after), DefaultSettings())
			if res.Status != tc.want {
				t.Fatalf("status %s (%v), want %s; missing %s", res.Status, res.Err, tc.want, res.MissingDependencies)
			}
			if tc.want != store.CoordActionReady {
				if res.MissingDependencies == "" {
					t.Fatal("waiting without missing dependencies")
				}
				return
			}
			doc, err := ParseActionXML(res.ActionXML, job.Conf, oozietime.UTC)
			if err != nil {
				t.Fatal(err)
			}
			want := strings.ReplaceAll(tc.input, "D/", "file://"+filepath.ToSlash(dir)+"/")
			if got := doc.Job.Configuration[0].Value; got != want {
				t.Fatalf("dataIn('input')\n got %s\nwant %s", got, want)
			}
		})
	}
	// Input-logic data-ins must name data-ins of input-events.
	_, err := Parse([]byte(logicJobXML(t.TempDir(), `<data-in dataset="nope"/>`)))
	if err != nil {
		t.Fatal(err)
	}
	app, _ := Parse([]byte(logicJobXML(t.TempDir(), `<data-in dataset="nope"/>`)))
	if _, err := Submit(app, SubmitRequest{Conf: conf.NewProperties("user.name", "u")}); ErrorCode(err) != oozieerr.E1028 {
		t.Fatalf("unknown logic data-in: %v", err)
	}
}
