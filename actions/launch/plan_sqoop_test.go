package launch

import (
	"errors"
	"slices"
	"testing"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/yarn/launcher"
)

// TestSplitOnSpaces: Oozie's default splitting of a sqoop <command> cuts on
// the space character only, as StringTokenizer(command, " ") does.
func TestSplitOnSpaces(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want []string
	}{
		{"import --table TT -m 1", []string{"import", "--table", "TT", "-m", "1"}},
		{"  import   --table  TT ", []string{"import", "--table", "TT"}},
		{`--query "select * from t"`, []string{"--query", `"select`, "*", "from", `t"`}},
		{"import\t--table\nTT", []string{"import\t--table\nTT"}},
		{"", nil},
	}
	for _, tt := range tests {
		if got := SplitOnSpaces(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("SplitOnSpaces(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestShellSplit: the shell splitter (oozie.action.sqoop.shellsplitter)
// keeps quoted words together and follows Oozie's ShellSplitter in its
// corner cases.
func TestShellSplit(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in      string
		want    []string
		wantErr bool
	}{
		{`--query "select * from employee"`, []string{"--query", "select * from employee"}, false},
		{`--query 'select * from t where $CONDITIONS'`, []string{"--query", "select * from t where $CONDITIONS"}, false},
		{"a\tb\nc", []string{"a", "b", "c"}, false},
		{`a\ b`, []string{"a b"}, false},
		{`'a\b'`, []string{`a\b`}, false},
		{`"a\"b"`, []string{`a"b`}, false},
		{`"it's"`, []string{"it's"}, false},
		{`x"y z"w`, []string{"xy zw"}, false},
		{`--password "" -m 1`, []string{"--password", "", "-m", "1"}, false},
		// A quoted empty word at the very end is dropped, as Oozie drops it.
		{`--password ""`, []string{"--password"}, false},
		{`"open`, nil, true},
		{`'open`, nil, true},
		{`trailing\`, nil, true},
	}
	for _, tt := range tests {
		got, err := ShellSplit(tt.in)
		if (err != nil) != tt.wantErr {
			t.Errorf("ShellSplit(%q) error %v, want error %v", tt.in, err, tt.wantErr)
			continue
		}
		if !tt.wantErr && !slices.Equal(got, tt.want) {
			t.Errorf("ShellSplit(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestPlanSqoop: a sqoop action's arguments come from <command> (split on
// spaces, or as a shell splits it when the configuration asks) or from
// the <arg> entries as written; a redundant leading "sqoop" goes; the job
// configuration carries the child tag; an unparsable command is SQOOP002.
func TestPlanSqoop(t *testing.T) {
	t.Parallel()
	head := `<sqoop xmlns="uri:oozie:sqoop-action:1.0"><resource-manager>rm:8032</resource-manager><name-node>file:///</name-node>`
	shell := `<configuration><property><name>oozie.action.sqoop.shellsplitter</name><value>true</value></property></configuration>`
	tests := []struct {
		name, body string
		want       []string
		code       string // an error's code; "" = no error
	}{
		{"command", head + `<command>import --connect jdbc:postgresql://db/x --table TT -m 1</command></sqoop>`,
			[]string{"import", "--connect", "jdbc:postgresql://db/x", "--table", "TT", "-m", "1"}, ""},
		{"command split on spaces keeps quotes", head + `<command>import --query "select 1"</command></sqoop>`,
			[]string{"import", "--query", `"select`, `1"`}, ""},
		{"command with the shell splitter", head + shell + `<command>import --query "select a, b from t where $CONDITIONS"</command></sqoop>`,
			[]string{"import", "--query", "select a, b from t where $CONDITIONS"}, ""},
		{"redundant sqoop dropped", head + `<command>sqoop import --table TT</command></sqoop>`,
			[]string{"import", "--table", "TT"}, ""},
		{"sqoop before an option kept", head + `<command>sqoop --help</command></sqoop>`,
			[]string{"sqoop", "--help"}, ""},
		{"args as written", head + `<arg>import</arg><arg>--query</arg><arg>select a, b from t where $CONDITIONS</arg><arg>--password</arg><arg></arg></sqoop>`,
			[]string{"import", "--query", "select a, b from t where $CONDITIONS", "--password", ""}, ""},
		{"0.2 with job-tracker", `<sqoop xmlns="uri:oozie:sqoop-action:0.2"><job-tracker>rm:8032</job-tracker><name-node>file:///</name-node><arg>version</arg></sqoop>`,
			[]string{"version"}, ""},
		{"unbalanced quote", head + shell + `<command>import --query "select</command></sqoop>`, nil, codeSqoopCommand},
		{"empty command", head + `<command>  </command></sqoop>`, nil, codeSqoopCommand},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p, err := planFor(t, launcher.TypeSqoop, tt.body, nil)
			if tt.code != "" {
				var ee *actions.ExecError
				if !errors.As(err, &ee) || ee.Code != tt.code || ee.Kind != actions.ActionError {
					t.Fatalf("error %v, want an ERROR with code %s", err, tt.code)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := p.spec.Sqoop.Args; !slices.Equal(got, tt.want) {
				t.Errorf("args %q, want %q", got, tt.want)
			}
			if tag := p.spec.Conf["mapreduce.job.tags"]; tag != p.spec.ChildTag || tag == "" {
				t.Errorf("mapreduce.job.tags %q, want the child tag %q", tag, p.spec.ChildTag)
			}
			if err := p.spec.Validate(); err != nil {
				t.Errorf("spec: %v", err)
			}
		})
	}
}
