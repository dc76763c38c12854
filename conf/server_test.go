package conf

import (
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// loadSetup returns Sources with an empty config directory, no environment, and fixed host
// and user names; site is written as gozie-site.xml when not empty.
func loadSetup(t *testing.T, site string, env map[string]string) Sources {
	t.Helper()
	dir := t.TempDir()
	if site != "" {
		if err := os.WriteFile(filepath.Join(dir, SiteFile), []byte(site), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return Sources{
		ConfigDir: dir,
		LookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok },
		Hostname:  "gozie1.example.com",
		UserName:  "joe",
	}
}

func TestLoadDefaults(t *testing.T) {
	t.Parallel()
	s, err := Load(loadSetup(t, "", nil))
	if err != nil {
		t.Fatal(err)
	}
	// Every effective value is the table default with its references resolved.
	resolve := map[string]string{
		"${gozie.base.url}": "http://gozie1.example.com:11000/oozie",
		"${gozie.data.dir}": "./gozie-data",
		"${user.name}":      "joe",
	}
	eff := s.Effective()
	if len(eff) != len(Settings()) {
		t.Fatalf("%d effective values for %d settings", len(eff), len(Settings()))
	}
	for i, e := range eff {
		st := Settings()[i]
		want := st.Default
		for ref, v := range resolve {
			want = strings.ReplaceAll(want, ref, v)
		}
		source := SourceDefault
		if st.Key == "gozie.base.url" {
			want, source = resolve["${gozie.base.url}"], SourceDerived
		}
		if e.Key != st.Key || e.Value != want || e.Source != source {
			t.Errorf("effective %+v, want %s=%q from %s", e, st.Key, want, source)
		}
	}
	// Typed fields come from the same table.
	if s.HTTP.Address != ":11000" || s.Engine.Lease != 30*time.Second || s.Purge.WorkflowOlderThan != 30*24*time.Hour ||
		s.Purge.CoordOlderThan != 7*24*time.Hour || s.ProcessingTimezone != "UTC" || s.SystemID != "gozie-joe" ||
		s.DB.URL != "sqlite:./gozie-data/gozie.db" || s.CallbackBaseURL != "http://gozie1.example.com:11000/oozie/callback" ||
		s.Coord.CheckMaximumFrequency || s.SubstituteDepth != DefaultSubstituteDepth || s.UserName != "joe" {
		t.Errorf("typed defaults wrong: %+v", s)
	}
}

func TestLoadLayers(t *testing.T) {
	t.Parallel()
	site := `<configuration>
  <property><name>gozie.engine.lease</name><value>45s</value></property>
  <property><name>gozie.engine.workers</name><value>4</value></property>
  <property><name>gozie.data.dir</name><value>/var/lib/gozie</value></property>
  <property><name>gozie.http.address</name><value>127.0.0.1:12000</value></property>
</configuration>`
	src := loadSetup(t, site, map[string]string{
		"GOZIE_ENGINE_LEASE":   "50s",
		"GOZIE_ENGINE_WORKERS": "6",
		"GOZIE_LOG_LEVEL":      "DEBUG",
	})
	src.Flags = map[string]string{"gozie.engine.lease": "1m"}
	s, err := Load(src)
	if err != nil {
		t.Fatal(err)
	}
	if s.Engine.Lease != time.Minute || s.Engine.Workers != 6 || s.DataDir != "/var/lib/gozie" {
		t.Errorf("layers not applied: lease %v workers %d data %q", s.Engine.Lease, s.Engine.Workers, s.DataDir)
	}
	if s.DB.URL != "sqlite:/var/lib/gozie/gozie.db" {
		t.Errorf("db url does not follow the data dir: %q", s.DB.URL)
	}
	if s.BaseURL != "http://gozie1.example.com:12000/oozie" {
		t.Errorf("derived base URL = %q", s.BaseURL)
	}
	if s.Log.Level.String() != "DEBUG" {
		t.Errorf("log level = %v", s.Log.Level)
	}
	sources := map[string]string{}
	for _, e := range s.Effective() {
		sources[e.Key] = e.Source
	}
	want := map[string]string{
		"gozie.engine.lease":   "flag -engine.lease",
		"gozie.engine.workers": "env GOZIE_ENGINE_WORKERS",
		"gozie.data.dir":       filepath.Join(src.ConfigDir, SiteFile),
		"gozie.db.url":         SourceDefault,
	}
	for k, v := range want {
		if sources[k] != v {
			t.Errorf("source of %s = %q, want %q", k, sources[k], v)
		}
	}
}

func TestLoadErrors(t *testing.T) {
	t.Parallel()
	prop := func(k, v string) string {
		return "<configuration>\n<property><name>" + k + "</name><value>" + v + "</value></property>\n</configuration>"
	}
	tests := []struct {
		name  string
		site  string
		env   map[string]string
		flags map[string]string
		want  string // full message, with FILE standing for the site file path
	}{
		{"bad duration in site", prop("gozie.engine.lease", "x"), nil, nil, `FILE:2: gozie.engine.lease: invalid duration "x"`},
		{"bad duration in env", "", map[string]string{"GOZIE_ENGINE_LEASE": "x"}, nil, `env GOZIE_ENGINE_LEASE: gozie.engine.lease: invalid duration "x"`},
		{"bad duration in flag", "", nil, map[string]string{"gozie.engine.lease": "-1s"}, `flag -engine.lease: gozie.engine.lease: invalid duration "-1s"`},
		{"zero duration", "", map[string]string{"GOZIE_ENGINE_LEASE": "0s"}, nil, `env GOZIE_ENGINE_LEASE: gozie.engine.lease: invalid duration "0s" (must be positive)`},
		{"bad int", prop("gozie.engine.workers", "many"), nil, nil, `FILE:2: gozie.engine.workers: invalid integer "many"`},
		{"int too small", "", map[string]string{"GOZIE_ENGINE_WORKERS": "0"}, nil, `env GOZIE_ENGINE_WORKERS: gozie.engine.workers: must be at least 1, got 0`},
		{"bad bool", prop("gozie.coord.check.maximum-frequency", "yes"), nil, nil, `FILE:2: gozie.coord.check.maximum-frequency: invalid boolean "yes" (want true or false)`},
		{"bad time zone", "", map[string]string{"GOZIE_PROCESSING_TIMEZONE": "PST"}, nil, `env GOZIE_PROCESSING_TIMEZONE: gozie.processing.timezone: invalid processing time zone "PST" (want UTC or GMT+HHMM / GMT-HHMM)`},
		{"short GMT offset", "", map[string]string{"GOZIE_PROCESSING_TIMEZONE": "GMT+05"}, nil, `invalid processing time zone "GMT+05"`},
		{"unknown site key", prop("gozie.engine.leas", "30s"), nil, nil, `FILE:2: gozie.engine.leas: unknown configuration key`},
		{"unknown flag key", "", nil, map[string]string{"gozie.nope": "1"}, `flag -nope: gozie.nope: unknown configuration key`},
		{"bad address", "", map[string]string{"GOZIE_HTTP_ADDRESS": "11000"}, nil, `gozie.http.address: invalid address "11000" (want host:port)`},
		{"bad db url", "", map[string]string{"GOZIE_DB_URL": "mysql://u:secret@h/db"}, nil, `gozie.db.url: invalid database URL "mysql://u:xxxxx@h/db"`},
		{"bad base url", "", map[string]string{"GOZIE_BASE_URL": "gozie:11000"}, nil, `gozie.base.url: invalid URL "gozie:11000"`},
		{"bad log level", "", map[string]string{"GOZIE_LOG_LEVEL": "loud"}, nil, `gozie.log.level: invalid log level "loud"`},
		{"bad sla events", "", map[string]string{"GOZIE_SLA_DEFAULT_ALERT_EVENTS": "END_MISS,LATE"}, nil, `invalid SLA alert event "LATE"`},
		{"cycle", prop("gozie.data.dir", "${gozie.db.url}"), nil, nil, `variable substitution depth too large`},
		{"min above max", "", map[string]string{"GOZIE_COORD_INPUT_CHECK_MIN_INTERVAL": "2m"}, nil, `gozie.coord.input-check.min-interval: must not exceed gozie.coord.input-check.max-interval (1m0s)`},
		{"bad site xml", "<configuration>\n<x/>", nil, nil, `FILE:2: element <x> is not <property>`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			src := loadSetup(t, tt.site, tt.env)
			src.Flags = tt.flags
			_, err := Load(src)
			if err == nil {
				t.Fatal("no error")
			}
			var ce *Error
			if !errors.As(err, &ce) {
				t.Errorf("error %v is not a *conf.Error", err)
			}
			want := strings.ReplaceAll(tt.want, "FILE", filepath.Join(src.ConfigDir, SiteFile))
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error %q does not contain %q", err, want)
			}
		})
	}
}

func TestLoadAcceptedValues(t *testing.T) {
	t.Parallel()
	tests := []struct {
		env   string
		value string
		check func(*Server) bool
	}{
		{"GOZIE_PROCESSING_TIMEZONE", "GMT+0530", func(s *Server) bool { return s.ProcessingTimezone == "GMT+0530" }},
		{"GOZIE_PROCESSING_TIMEZONE", "GMT-0800", func(s *Server) bool { return s.ProcessingTimezone == "GMT-0800" }},
		{"GOZIE_PURGE_WORKFLOW_OLDER_THAN", "1d12h", func(s *Server) bool { return s.Purge.WorkflowOlderThan == 36*time.Hour }},
		{"GOZIE_COORD_CHECK_MAXIMUM_FREQUENCY", " TRUE ", func(s *Server) bool { return s.Coord.CheckMaximumFrequency }},
		{"GOZIE_DB_URL", "postgres://gozie:pw@db:5432/gozie?sslmode=disable", func(s *Server) bool { return strings.HasPrefix(s.DB.URL, "postgres://") }},
		{"GOZIE_BASE_URL", "https://oozie.example.com/oozie", func(s *Server) bool {
			return s.CallbackBaseURL == "https://oozie.example.com/oozie/callback"
		}},
		{"GOZIE_SYSTEM_ID", "prod-${user.name}", func(s *Server) bool { return s.SystemID == "prod-joe" }},
	}
	for _, tt := range tests {
		t.Run(tt.env+"="+tt.value, func(t *testing.T) {
			t.Parallel()
			s, err := Load(loadSetup(t, "", map[string]string{tt.env: tt.value}))
			if err != nil {
				t.Fatal(err)
			}
			if !tt.check(s) {
				t.Errorf("%s=%q not applied: %+v", tt.env, tt.value, s)
			}
		})
	}
}

func TestLoadConfigDir(t *testing.T) {
	t.Parallel()
	// The default ./conf does not exist in the package directory: defaults, no error.
	def := loadSetup(t, "", nil)
	def.ConfigDir = ""
	if s, err := Load(def); err != nil || s.HTTP.Address != ":11000" {
		t.Errorf("Load with the default config dir: %v", err)
	}
	missing := loadSetup(t, "", nil)
	missing.ConfigDir = filepath.Join(missing.ConfigDir, "nope")
	if _, err := Load(missing); err == nil {
		t.Error("a missing explicit config dir is not an error")
	}
}

func TestDumpRedactsSecrets(t *testing.T) {
	t.Parallel()
	s, err := Load(loadSetup(t, "", map[string]string{"GOZIE_DB_URL": "postgres://gozie:hunter2@db/gozie"}))
	if err != nil {
		t.Fatal(err)
	}
	d := s.Dump()
	if len(d) != len(Settings()) {
		t.Errorf("Dump has %d keys, want %d", len(d), len(Settings()))
	}
	if got := d["gozie.db.url"]; strings.Contains(got, "hunter2") || !strings.Contains(got, "gozie:xxxxx@db") {
		t.Errorf("db url not redacted: %q", got)
	}
	if d["gozie.http.address"] != ":11000" {
		t.Errorf("Dump http address = %q", d["gozie.http.address"])
	}
}

func TestRedactPassword(t *testing.T) {
	t.Parallel()
	tests := map[string]string{
		"postgres://u:p@h/db":                 "postgres://u:xxxxx@h/db",
		"postgres://u@h/db":                   "postgres://u@h/db",
		"sqlite:./gozie-data/gozie.db":        "sqlite:./gozie-data/gozie.db",
		"host=db user=u password=p sslmode=x": "host=db user=u password=xxxxx sslmode=x",
	}
	for in, want := range tests {
		if got := RedactPassword(in); got != want {
			t.Errorf("RedactPassword(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSettingsTable(t *testing.T) {
	t.Parallel()
	envs, flags := map[string]string{}, map[string]string{}
	for _, st := range Settings() {
		if !strings.HasPrefix(st.Key, "gozie.") || st.Doc == "" || st.apply == nil {
			t.Errorf("setting %q lacks the gozie. prefix, a doc or a parser", st.Key)
		}
		switch st.Type {
		case "string", "duration", "int", "bool":
		default:
			t.Errorf("setting %q has type %q", st.Key, st.Type)
		}
		if other, ok := envs[EnvName(st.Key)]; ok {
			t.Errorf("%s and %s share the environment variable %s", st.Key, other, EnvName(st.Key))
		}
		envs[EnvName(st.Key)] = st.Key
		if other, ok := flags[FlagName(st.Key)]; ok {
			t.Errorf("%s and %s share the flag %s", st.Key, other, FlagName(st.Key))
		}
		flags[FlagName(st.Key)] = st.Key
	}
	if EnvName("gozie.http.address") != "GOZIE_HTTP_ADDRESS" || EnvName("gozie.engine.max-sleep") != "GOZIE_ENGINE_MAX_SLEEP" {
		t.Error("EnvName does not follow GOZIE_<KEY>")
	}
}

func TestRegisterFlags(t *testing.T) {
	t.Parallel()
	fs := flag.NewFlagSet("server", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	f := RegisterFlags(fs)
	if err := fs.Parse([]string{"-engine.lease=2m", "-config-dir", "/etc/gozie", "-http.address", "127.0.0.1:0"}); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"gozie.engine.lease": "2m", "gozie.http.address": "127.0.0.1:0"}
	if got := f.Values(); !reflect.DeepEqual(got, want) {
		t.Errorf("Values = %v, want %v", got, want)
	}
	if src := f.Sources(); src.ConfigDir != "/etc/gozie" || !reflect.DeepEqual(src.Flags, want) {
		t.Errorf("Sources = %+v", src)
	}
	unset := RegisterFlags(flag.NewFlagSet("x", flag.ContinueOnError))
	if unset.ConfigDir != "" || len(unset.Values()) != 0 {
		t.Error("flags report values that were not given")
	}
}

func TestParseDuration(t *testing.T) {
	t.Parallel()
	good := map[string]time.Duration{"30s": 30 * time.Second, "7d": 7 * 24 * time.Hour, "1d1h": 25 * time.Hour, " 120m ": 2 * time.Hour, "0s": 0}
	for in, want := range good {
		if got, err := ParseDuration(in); err != nil || got != want {
			t.Errorf("ParseDuration(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "x", "30", "d", "-1s", "1.5d", "1dd", "99999999d"} {
		if _, err := ParseDuration(in); err == nil {
			t.Errorf("ParseDuration(%q): no error", in)
		}
	}
}
