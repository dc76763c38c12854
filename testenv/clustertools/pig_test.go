package clustertools_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeLocal writes a file into dir and returns its path.
func writeLocal(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestPigRunsScript: pig runs LOAD, FILTER, FOREACH ... GENERATE and STORE
// of a script with its parameters (-param, -param_file, %default) and
// properties (-propertyFile, SET) as one map-only MapReduce application
// tagged from the properties, and the output is what the statements
// compute.
func TestPigRunsScript(t *testing.T) {
	t.Parallel()
	e := setup(t)
	e.put(t, "/user/alice/people/p.txt", "1:alice:30\n2:bob:17\n3:carol:45\n4:dave:x\n")
	dir := t.TempDir()
	script := writeLocal(t, dir, "adults.pig", `-- adults, one year older
%default MIN 18
A = LOAD '$IN' USING PigStorage(':') AS (id:int, name:chararray, age:int);
B = FILTER A BY age >= $MIN AND name != 'bob';  /* dave's age is no int: null */
C = FOREACH B GENERATE UPPER(name) AS who, age + 1 AS next;
SET mapreduce.job.queuename 'default';
STORE C INTO '${OUT}' USING PigStorage(',');
`)
	params := writeLocal(t, dir, "params.txt", "# parameters\nOUT=out/adults\n")
	props := writeLocal(t, dir, "pig.properties", "mapreduce.job.tags=tag-pig\n")
	r := e.run(t, ctxT(t), "pig", "-propertyFile", props, "-file", script, "-param", "IN=/user/alice/people", "-param_file", params)
	if r.code != 0 {
		t.Fatalf("pig exited %d:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	rep := e.waitApp(t, submittedApp(t, r.stderr))
	if !rep.Succeeded() || !rep.HasTag("tag-pig") || rep.Name != "PigLatin:adults.pig" || rep.ApplicationType != "MAPREDUCE" {
		t.Errorf("pig job %+v", rep)
	}
	if !strings.Contains(r.stderr, "HadoopJobId: job_") || !strings.Contains(r.stdout, "Success!") {
		t.Errorf("pig output lacks the job id or success:\n%s\n%s", r.stdout, r.stderr)
	}
	if got, want := e.read(t, "/user/alice/out/adults/part-m-00000"), "ALICE,31\nCAROL,46\n"; got != want {
		t.Errorf("stored %q, want %q", got, want)
	}
	if got := e.read(t, "/user/alice/out/adults/_SUCCESS"); got != "" {
		t.Errorf("_SUCCESS holds %q", got)
	}
	// Oozie's id.pig: positional fields without a schema.
	e.put(t, "/user/alice/text/data.txt", "a:b\nc:d\n")
	id := writeLocal(t, dir, "id.pig", "A = load '$INPUT' using PigStorage(':');\nB = foreach A generate $0 as id;\nstore B into '$OUTPUT' USING PigStorage();\n")
	r = e.run(t, ctxT(t), "pig", "-file", id, "-param", "INPUT=/user/alice/text", "-param", "OUTPUT=/user/alice/out/id")
	if r.code != 0 {
		t.Fatalf("id.pig exited %d:\n%s", r.code, r.stderr)
	}
	if got := e.read(t, "/user/alice/out/id/part-m-00000"); got != "a\nc\n" {
		t.Errorf("id.pig stored %q", got)
	}
}

// TestPigRefuses: what the stand-in does not implement, and what Pig
// refuses before launching (undefined parameters, aliases and fields,
// missing inputs, existing outputs, unknown options), ends pig with Pig's
// error and exit code and starts no job.
func TestPigRefuses(t *testing.T) {
	t.Parallel()
	e := setup(t)
	e.put(t, "/user/alice/in/a.txt", "1\n")
	e.put(t, "/user/alice/done/part-m-00000", "1\n")
	dir := t.TempDir()
	tests := []struct {
		name, script string
		args         []string
		code         int
		msg          string
	}{
		{"group", "A = LOAD '/user/alice/in';\nB = GROUP A BY $0;\nSTORE B INTO '/user/alice/o';\n", nil, 7,
			"ERROR 1200: <line 2, column 4> GROUP is not implemented by gozie's pig stand-in"},
		{"dump", "A = LOAD '/user/alice/in';\nDUMP A;\n", nil, 7, "DUMP is not implemented"},
		{"register", "REGISTER my.jar;\n", nil, 7, "REGISTER is not implemented"},
		{"undefined parameter", "A = LOAD '$NOPE';\n", nil, 6, "Undefined parameter : NOPE"},
		{"undefined alias", "STORE Z INTO '/user/alice/o';\n", nil, 7, "Undefined alias: Z"},
		{"unknown field", "A = LOAD '/user/alice/in' AS (n:int);\nB = FOREACH A GENERATE m;\nSTORE B INTO '/user/alice/o';\n", nil, 7,
			"ERROR 1025: <line 2, column 23> Invalid field projection. Projected field [m] does not exist"},
		{"unknown function", "A = LOAD '/user/alice/in';\nB = FOREACH A GENERATE MyUDF($0);\nSTORE B INTO '/user/alice/o';\n", nil, 7,
			"ERROR 1070"},
		{"syntax", "A = LOAD '/user/alice/in'\nB = FILTER A BY $0 > 1;\n", nil, 7, "ERROR 1200: <line 2, column 0> Syntax error, unexpected symbol at or near 'B'"},
		{"missing input", "A = LOAD '/user/alice/none';\nSTORE A INTO '/user/alice/o';\n", nil, 2, "ERROR 2118: Input path does not exist"},
		{"existing output", "A = LOAD '/user/alice/in';\nSTORE A INTO '/user/alice/done';\n", nil, 6, "ERROR 6000"},
		{"unknown option", "A = LOAD '/user/alice/in';\n", []string{"-nope"}, 4, "Found unknown option (-nope)"},
	}
	before := len(e.c.YARN.Apps())
	for i, tt := range tests {
		script := writeLocal(t, dir, "s"+string(rune('a'+i))+".pig", tt.script)
		r := e.run(t, ctxT(t), append(append([]string{"pig"}, tt.args...), "-file", script)...)
		if r.code != tt.code || !strings.Contains(r.stderr, tt.msg) {
			t.Errorf("%s: exit %d, want %d with %q:\n%s", tt.name, r.code, tt.code, tt.msg, r.stderr)
		}
	}
	if n := len(e.c.YARN.Apps()); n != before {
		t.Errorf("%d applications submitted by refused scripts", n-before)
	}
}

// TestPigFailingStreamFailsTheJob: a STREAM command that fails fails the
// job's task; the job FAILS with Pig's ERROR 2055 in its diagnostics and
// pig exits 2 naming the job.
func TestPigFailingStreamFailsTheJob(t *testing.T) {
	t.Parallel()
	e := setup(t)
	e.put(t, "/user/alice/in/a.txt", "x\n")
	script := writeLocal(t, t.TempDir(), "fail.pig", "A = LOAD '/user/alice/in';\nB = STREAM A THROUGH `false`;\nSTORE B INTO '/user/alice/o';\n")
	r := e.run(t, ctxT(t), "pig", "-file", script)
	if r.code != 2 || !strings.Contains(r.stderr, "ERROR 2244: Job job_") {
		t.Fatalf("pig exited %d, want 2 with ERROR 2244:\n%s", r.code, r.stderr)
	}
	rep := e.waitApp(t, submittedApp(t, r.stderr))
	if rep.Succeeded() || !strings.Contains(rep.Diagnostics, "ERROR 2055") {
		t.Errorf("job %s/%s, diagnostics %q", rep.State, rep.FinalStatus, rep.Diagnostics)
	}
}
