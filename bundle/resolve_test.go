package bundle

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/internal/testapps"
	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/oozietime"
)

// TestResolveBundleExample resolves the bundle example (gozie's, and Oozie's when
// GOZIE_OOZIE_EXAMPLES names it) with its job.properties: each coordinator's name, app path,
// criticality and configuration come out as Oozie resolves them (bundleExamples).
func TestResolveBundleExample(t *testing.T) {
	t.Parallel()
	testapps.Each(t, func(t *testing.T, apps string) {
		want := bundleExamples[testapps.Source(apps)]
		dir := filepath.Join(apps, "bundle")
		app := mustParseFile(t, filepath.Join(dir, "bundle.xml"))
		job, err := Resolve(app, Request{Conf: readProps(t, filepath.Join(dir, "job.properties"))})
		if err != nil {
			t.Fatal(err)
		}
		if job.Name != want.name || !job.KickoffTime.IsZero() || len(job.Coordinators) != len(want.entries) {
			t.Fatalf("job = %+v, want %s with %d coordinators and no kick-off time", job, want.name, len(want.entries))
		}
		for i, w := range want.entries {
			c := job.Coordinators[i]
			if c.Name != w.name || c.AppPath != w.appPath || !c.Enabled || c.Critical != w.critical {
				t.Errorf("coordinator %d = %+v, want %+v", i, c, w)
			}
			if !slices.Equal(c.Conf.Entries(), props(w.conf...).Entries()) {
				t.Errorf("coordinator %s configuration = %+v, want %v", c.Name, c.Conf, w.conf)
			}
		}
	})
}

func TestResolve(t *testing.T) {
	t.Parallel()
	app, err := Parse([]byte(doc02))
	if err != nil {
		t.Fatal(err)
	}
	gmt, err := oozietime.NewFormat("GMT+0530")
	if err != nil {
		t.Fatal(err)
	}
	base := []string{"user.name", "joe", "nameNode", "hdfs://nn:8020", "kickOff", "2025-01-01T05:30Z", "start", "2025-01-01T00:00Z",
		"suffix", "daily", "aggEnabled", "TRUE", "queue", "q1"}
	tests := []struct {
		name   string
		conf   []string
		format oozietime.Format
		check  func(t *testing.T, j *Job)
		code   oozieerr.Code
		where  string
	}{
		{name: "all values", conf: base, check: func(t *testing.T, j *Job) {
			if j.Name != "nightly" || !j.KickoffTime.Equal(time.Date(2025, 1, 1, 5, 30, 0, 0, time.UTC)) {
				t.Errorf("name %q, kick-off %v", j.Name, j.KickoffTime)
			}
			if v := j.Conf.Value("bundleName"); v != "nightly" {
				t.Errorf("parameter default not in the configuration: %q", v)
			}
			load, agg := j.Coordinators[0], j.Coordinators[1]
			if load.Name != "load" || load.AppPath != "hdfs://nn:8020/apps/load" || !load.Critical || !load.Enabled ||
				load.Conf.Value("start") != "2025-01-01T00:00Z" {
				t.Errorf("load = %+v", load)
			}
			if agg.Name != "agg-daily" || !agg.Enabled || agg.Critical {
				t.Errorf("agg = %+v", agg)
			}
		}},
		{name: "kick-off time in the processing zone", conf: replace(base, "kickOff", "2025-01-01T05:30+0530"), format: gmt,
			check: func(t *testing.T, j *Job) {
				if !j.KickoffTime.Equal(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)) {
					t.Errorf("kick-off %v", j.KickoffTime)
				}
			}},
		{name: "empty kick-off time is at once", conf: replace(base, "kickOff", " "), check: func(t *testing.T, j *Job) {
			if !j.KickoffTime.IsZero() {
				t.Errorf("kick-off %v", j.KickoffTime)
			}
		}},
		{name: "disabled unless true", conf: replace(base, "aggEnabled", "yes"), check: func(t *testing.T, j *Job) {
			if j.Coordinators[1].Enabled || len(j.Enabled()) != 1 || j.Enabled()[0].Name != "load" {
				t.Errorf("coordinators %+v", j.Coordinators)
			}
		}},
		{name: "job conf wins over the parameter default", conf: append(slices.Clone(base), "bundleName", "other"),
			check: func(t *testing.T, j *Job) {
				if j.Name != "other" {
					t.Errorf("name %q", j.Name)
				}
			}},
		{name: "missing parameter", conf: remove(base, "queue"), code: oozieerr.E0738, where: "parameters"},
		{name: "undefined variable", conf: remove(base, "suffix"), code: oozieerr.E1004, where: "line 15 <coordinator>/@name"},
		{name: "bad kick-off time", conf: replace(base, "kickOff", "2025-01-01T24:00Z"), code: oozieerr.E1303, where: "controls/kick-off-time"},
		{name: "kick-off time in another zone", conf: replace(base, "kickOff", "2025-01-01T05:30Z"), format: gmt, code: oozieerr.E1303},
		{name: "no user", conf: remove(base, "user.name"), code: "E0401"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			job, err := Resolve(app, Request{Conf: props(tc.conf...), Format: tc.format})
			if tc.code != "" {
				if ErrorCode(err) != tc.code || (tc.where != "" && !strings.Contains(err.Error(), tc.where)) {
					t.Fatalf("error %v; want code %s at %q", err, tc.code, tc.where)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tc.check(t, job)
		})
	}
}

func TestResolveCoordinatorNames(t *testing.T) {
	t.Parallel()
	doc := func(names ...string) *App {
		var b strings.Builder
		b.WriteString(`<bundle-app name="b" xmlns="uri:oozie:bundle:0.2">`)
		for _, n := range names {
			b.WriteString(`<coordinator name="` + n + `"><app-path>/a</app-path></coordinator>`)
		}
		b.WriteString(`</bundle-app>`)
		app, err := Parse([]byte(b.String()))
		if err != nil {
			t.Fatal(err)
		}
		return app
	}
	conf := props("user.name", "joe", "x", "same", "blank", " ")
	tests := []struct {
		name  string
		names []string
		code  oozieerr.Code
	}{
		{"distinct", []string{"a", "b"}, ""},
		{"same after EL", []string{"same", "${x}"}, oozieerr.E1304},
		{"empty after EL", []string{"a", "${blank}"}, oozieerr.E1305},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := Resolve(doc(tc.names...), Request{Conf: conf})
			if ErrorCode(err) != tc.code {
				t.Fatalf("error %v, want code %q", err, tc.code)
			}
		})
	}
}

func TestResolveConfiguration(t *testing.T) {
	t.Parallel()
	app, err := Parse([]byte(`<bundle-app name="b" xmlns="uri:oozie:bundle:0.2">
  <coordinator name="c">
    <app-path>${bundle:conf('app.root')}/c</app-path>
    <configuration>
      <property><name>${key}</name><value>${concat(bundle:conf('app.root'), '/x')}</value></property>
      <property><name>user.name</name><value>${who}</value></property>
    </configuration>
  </coordinator>
</bundle-app>`))
	if err != nil {
		t.Fatal(err)
	}
	job, err := Resolve(app, Request{Conf: props("user.name", "joe", "app.root", "/apps", "key", "out", "who", "joe")})
	if err != nil {
		t.Fatal(err)
	}
	c := job.Coordinators[0]
	if c.AppPath != "/apps/c" || c.Conf.Value("out") != "/apps/x" {
		t.Errorf("coordinator %+v", c)
	}
	_, err = Resolve(app, Request{Conf: props("user.name", "joe", "app.root", "/apps", "key", "out", "who", "mallory")})
	if ErrorCode(err) != oozieerr.E1303 || !strings.Contains(err.Error(), "coordinator[c]/configuration") {
		t.Errorf("another user: %v, want E1303 naming the coordinator", err)
	}
}

func TestCheckConf(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		conf     *conf.Properties
		defaults bool
		code     oozieerr.Code
	}{
		{"plain job conf", props("user.name", "joe", "a", "b"), false, ""},
		{"reserved name", props("user.name", "joe", "HOUR", "1"), false, oozieerr.E0808},
		{"user in defaults", props("user.name", "joe"), true, oozieerr.E0808},
		{"defaults", props("queue", "q"), true, ""},
	}
	for _, tc := range tests {
		if got := ErrorCode(CheckConf(tc.conf, tc.defaults)); got != tc.code {
			t.Errorf("%s: code %q, want %q", tc.name, got, tc.code)
		}
	}
}

// TestDefinitionRoundTrip writes a resolved bundle and reads it back unchanged, EL-looking
// values and characters XML must escape included.
func TestDefinitionRoundTrip(t *testing.T) {
	t.Parallel()
	job := &Job{Namespace: "uri:oozie:bundle:0.2", Name: `a "b" & <c>`, KickoffTime: time.Date(2025, 3, 1, 4, 5, 0, 0, time.UTC),
		Conf: props("user.name", "joe"),
		Coordinators: []Coordinator{
			{Name: "x", AppPath: "hdfs://nn/apps/x", Conf: props("v", "${not.evaluated}", "w", "1<2"), Critical: true, Enabled: true},
			{Name: "y", AppPath: "/y", Enabled: false},
		}}
	back, err := LoadJob(job.DefinitionXML(testFormat), job.Conf, testFormat)
	if err != nil {
		t.Fatal(err)
	}
	if back.Name != job.Name || !back.KickoffTime.Equal(job.KickoffTime) || len(back.Coordinators) != 2 {
		t.Fatalf("read back %+v", back)
	}
	for i := range job.Coordinators {
		w, g := job.Coordinators[i], back.Coordinators[i]
		if g.Name != w.Name || g.AppPath != w.AppPath || g.Critical != w.Critical || g.Enabled != w.Enabled || !slices.Equal(g.Conf.Entries(), w.Conf.Entries()) {
			t.Errorf("coordinator %d read back %+v, want %+v", i, g, w)
		}
	}
}

func mustParseFile(t *testing.T, path string) *App {
	t.Helper()
	b := readFile(t, path)
	app, err := Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	return app
}

// replace returns kv with name's value replaced.
func replace(kv []string, name, value string) []string {
	out := slices.Clone(kv)
	for i := 0; i+1 < len(out); i += 2 {
		if out[i] == name {
			out[i+1] = value
		}
	}
	return out
}

// remove returns kv without name.
func remove(kv []string, name string) []string {
	var out []string
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i] != name {
			out = append(out, kv[i], kv[i+1])
		}
	}
	return out
}
