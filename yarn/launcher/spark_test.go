package launcher

import (
	"strings"
	"testing"
)

// TestSparkSpec: a spark spec needs spark-submit's arguments.
func TestSparkSpec(t *testing.T) {
	t.Parallel()
	const dir = `"actionDir":"hdfs://nn:8020/user/alice/x"`
	for json, wantErr := range map[string]string{
		`{"version":1,"type":"spark",` + dir + `,"spark":{"args":["--master","yarn","app.py"]}}`: "",
		`{"version":1,"type":"spark",` + dir + `,"spark":{"args":[]}}`:                           "spark.args",
		`{"version":1,"type":"spark",` + dir + `}`:                                               "spark.args",
	} {
		_, err := ParseSpec([]byte(json))
		if (wantErr == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), wantErr) {
			t.Errorf("%s: %v, want %q", json, err, wantErr)
		}
	}
}

// TestSparkError: a failed spark-submit is worded by its last error line,
// not by the usage hint printed after it.
func TestSparkError(t *testing.T) {
	t.Parallel()
	tests := []struct {
		stderr, want string
	}{
		{"Error: Deploy mode must be either client or cluster\nRun with --help for usage help or --verbose for debug output\n",
			"Error: Deploy mode must be either client or cluster"},
		{"INFO yarn.Client: Submitted application application_1_0001\n" +
			"Exception in thread \"main\" org.apache.spark.SparkException: Application application_1_0001 finished with failed status\n\tat x\n",
			`Exception in thread "main" org.apache.spark.SparkException: Application application_1_0001 finished with failed status`},
		{"something else went wrong\n", "something else went wrong"},
		{"", "Main Class [spark-submit], exit code [3]"},
	}
	for _, tt := range tests {
		sc := &outputScanner{}
		w := sc.stream(true)
		_, _ = w.Write([]byte(tt.stderr))
		w.flush()
		if got := sparkError(sc, exit{code: 3, stderrTail: tt.stderr}); got != tt.want {
			t.Errorf("sparkError(%q) = %q, want %q", tt.stderr, got, tt.want)
		}
	}
}
