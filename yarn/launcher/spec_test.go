package launcher

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestParseSpec(t *testing.T) {
	t.Parallel()
	const dir = `"actionDir":"hdfs://nn:8020/user/alice/x"`
	tests := []struct {
		name    string
		json    string
		wantErr string // substring; "" means valid
	}{
		{"shell", `{"version":1,"type":"shell",` + dir + `,"shell":{"exec":"run.sh","args":["a"],"envVars":["A=1","B="]}}`, ""},
		{"java", `{"version":1,"type":"java",` + dir + `,"java":{"mainClass":"a.B"}}`, ""},
		{"durations as strings and millis", `{"version":1,"type":"java",` + dir + `,"heartbeat":"250ms","killGrace":100,"java":{"mainClass":"a.B"}}`, ""},
		{"unknown fields are ignored", `{"version":1,"type":"java",` + dir + `,"future":{"x":1},"java":{"mainClass":"a.B"}}`, ""},
		{"not JSON", `{"version":`, "invalid launch spec"},
		{"wrong version", `{"version":2,"type":"shell",` + dir + `,"shell":{"exec":"x"}}`, "version 2"},
		{"unknown type", `{"version":1,"type":"flume",` + dir + `}`, `unknown action type "flume"`},
		{"shell without exec", `{"version":1,"type":"shell",` + dir + `,"shell":{"exec":"  "}}`, "shell.exec"},
		{"shell without body", `{"version":1,"type":"shell",` + dir + `}`, "shell.exec"},
		{"java without main", `{"version":1,"type":"java",` + dir + `,"java":{}}`, "mainClass"},
		{"env var without =", `{"version":1,"type":"shell",` + dir + `,"shell":{"exec":"x","envVars":["NOEQ"]}}`, `"NOEQ"`},
		{"bare action dir", `{"version":1,"type":"shell","actionDir":"/user/x","shell":{"exec":"x"}}`, "not a full URI"},
		{"missing action dir", `{"version":1,"type":"shell","shell":{"exec":"x"}}`, "not a full URI"},
		{"negative output limit", `{"version":1,"type":"shell",` + dir + `,"maxOutputData":-1,"shell":{"exec":"x"}}`, "negative"},
		{"absolute resource", `{"version":1,"type":"shell",` + dir + `,"resources":["/etc/passwd"],"shell":{"exec":"x"}}`, "relative name"},
		{"escaping resource", `{"version":1,"type":"shell",` + dir + `,"resources":["../x"],"shell":{"exec":"x"}}`, "relative name"},
		{"bad duration", `{"version":1,"type":"shell",` + dir + `,"heartbeat":"soon","shell":{"exec":"x"}}`, "soon"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s, err := ParseSpec([]byte(tt.json))
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("ParseSpec: %v", err)
				}
				if s.Version != SpecVersion {
					t.Errorf("version %d", s.Version)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !errors.Is(err, ErrBadSpec) {
				t.Fatalf("ParseSpec error = %v, want ErrBadSpec containing %q", err, tt.wantErr)
			}
		})
	}
}

func TestSpecRoundTrip(t *testing.T) {
	t.Parallel()
	in := &Spec{
		Version: SpecVersion, Type: TypeShell, ActionID: "0000001-x-W@a", User: "alice",
		NameNode: "hdfs://nn:8020", ActionDir: "hdfs://nn:8020/user/alice/x", CallbackURL: "http://s/cb?status=",
		Heartbeat: Duration(250 * time.Millisecond), KillGrace: Duration(time.Second), CaptureOutput: true,
		MaxOutputData: 100, ChildTag: "t-child", Prepare: &Prepare{Delete: []string{"/a/*"}, Mkdir: []string{"/b"}},
		Resources: []string{"run.sh"}, Env: map[string]string{"A": "1"}, Conf: map[string]string{"k": "v"},
		Shell: &ShellSpec{Exec: "run.sh", Args: []string{"a b"}, EnvVars: []string{"X=$PATH"}},
	}
	b, err := in.Encode()
	if err != nil {
		t.Fatal(err)
	}
	out, err := ParseSpec(b)
	if err != nil {
		t.Fatal(err)
	}
	again, err := out.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if string(again) != string(b) {
		t.Errorf("round trip changed the spec:\n%s\n%s", b, again)
	}
	if out.Heartbeat.or(DefaultHeartbeat) != 250*time.Millisecond || Duration(0).or(DefaultHeartbeat) != DefaultHeartbeat {
		t.Errorf("durations: %v", out.Heartbeat)
	}
}

func TestParseResult(t *testing.T) {
	t.Parallel()
	code := 3
	in := &Result{Version: ResultVersion, ApplicationID: "application_1_0001", FinalStatus: StatusFailed, ExitCode: &code,
		ErrorCode: "3", ErrorMessage: "Main Class [a.B], exit code [3]", ExternalChildIDs: []string{"application_1_0002"},
		Started: time.UnixMilli(1000).UTC(), Finished: time.UnixMilli(2000).UTC()}
	b, err := in.Encode()
	if err != nil {
		t.Fatal(err)
	}
	out, err := ParseResult(b)
	if err != nil {
		t.Fatal(err)
	}
	if out.Succeeded() || *out.ExitCode != 3 || out.ErrorCode != "3" || !out.Finished.Equal(in.Finished) || out.ExternalChildIDs[0] != "application_1_0002" {
		t.Errorf("round trip: %+v", out)
	}
	for _, bad := range []string{`{`, `{"version":0,"finalStatus":"SUCCEEDED"}`, `{"version":1,"finalStatus":"KILLED"}`, `{"version":1}`} {
		if _, err := ParseResult([]byte(bad)); !errors.Is(err, ErrBadResult) {
			t.Errorf("ParseResult(%s) = %v, want ErrBadResult", bad, err)
		}
	}
}
