package workflow

import (
	"strings"
	"testing"
	"time"

	"github.com/gozie/gozie/internal/testapps"
	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/store"
)

// linear is start → a → b → end, errors to kill k.
func linear(t *testing.T, aAttrs string) *App {
	return mustLoad(t, wf(`<start to="a"/>`+shell("a", "b", "k", aAttrs)+shell("b", "end", "k", "")+killNode("k")+`<end name="end"/>`))
}

func TestStart(t *testing.T) {
	t.Parallel()
	s := newSim(t, linear(t, ""), map[string]string{"x": "1"})
	st := s.do(Event{Kind: EventStart})
	if s.job.Status != store.WorkflowRunning || !s.job.StartTime.Equal(t0) {
		t.Fatalf("job = %s start %v", s.job.Status, s.job.StartTime)
	}
	if got := s.nodes(); !equalStrings(got, []string{":start:", "a"}) {
		t.Fatalf("rows = %v", got)
	}
	start := s.row(":start:")
	if start.Type != TypeStart || start.Status != store.ActionOK || start.Transition != "a" || start.ID != s.job.ID+"@:start:" {
		t.Errorf("start row = %+v", start)
	}
	a := s.row("a")
	if a.Type != "shell" || a.Status != store.ActionPrep || a.JobID != s.job.ID {
		t.Errorf("a = %+v", a)
	}
	if !equalStrings(s.startedNodes(), []string{"a"}) || len(st.Kill) != 0 || len(st.Retry) != 0 {
		t.Errorf("step = %+v", st)
	}
	again, err := s.decide(Event{Kind: EventStart})
	if err != nil || !again.Empty() || again.Ignored == nil || again.Ignored.Code != oozieerr.E0719 {
		t.Errorf("second start = %+v, %v", again, err)
	}
}

func TestLinearSuccess(t *testing.T) {
	t.Parallel()
	s := newSim(t, linear(t, ""), nil)
	s.do(Event{Kind: EventStart})
	s.launchStarted()
	s.end("a", OutcomeOK, "")
	if a := s.row("a"); a.Status != store.ActionOK || a.Transition != "b" || !a.EndTime.Equal(t0) {
		t.Fatalf("a = %+v", a)
	}
	if !equalStrings(s.startedNodes(), []string{"b"}) {
		t.Fatalf("started %v", s.startedNodes())
	}
	s.launchStarted()
	s.now = t0.Add(time.Minute)
	s.end("b", OutcomeOK, "")
	if s.job.Status != store.WorkflowSucceeded || !s.job.EndTime.Equal(s.now) || s.job.ErrorCode != "" {
		t.Fatalf("job = %s end %v code %s", s.job.Status, s.job.EndTime, s.job.ErrorCode)
	}
	if end := s.row("end"); end.Type != TypeEnd || end.Status != store.ActionOK {
		t.Errorf("end row = %+v", end)
	}
	if got := s.nodes(); !equalStrings(got, []string{":start:", "a", "b", "end"}) {
		t.Errorf("rows = %v", got)
	}
}

func TestErrorGoesToKill(t *testing.T) {
	t.Parallel()
	s := newSim(t, linear(t, ""), nil)
	s.do(Event{Kind: EventStart})
	s.launchStarted()
	st := s.end("a", OutcomeError, "1")
	a := s.row("a")
	if a.Status != store.ActionError || a.Transition != "k" || a.ErrorCode != "1" || a.UserRetryCount != 0 {
		t.Fatalf("a = %+v", a)
	}
	if s.job.Status != store.WorkflowKilled || s.job.ErrorCode != oozieerr.E0729 {
		t.Fatalf("job = %s %s", s.job.Status, s.job.ErrorCode)
	}
	k := s.row("k")
	if k.Type != TypeKill || k.ErrorCode != oozieerr.E0729 || k.ErrorMessage != "failed at [a]: exit code [1]" {
		t.Errorf("kill row = %+v", k)
	}
	if s.job.ErrorMessage != k.ErrorMessage || len(st.Start) != 0 || len(st.Retry) != 0 {
		t.Errorf("job message %q, step %+v", s.job.ErrorMessage, st)
	}
}

func TestUserRetry(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		attrs  string
		opts   Options
		code   string
		delays []time.Duration // one per retry; then the error transition
		warn   bool
	}{
		{name: "not retryable code", attrs: ` retry-max="3"`, code: "1"},
		{name: "no retry-max", code: "JA018"},
		{name: "periodic", attrs: ` retry-max="2" retry-interval="5"`, code: "JA018",
			delays: []time.Duration{5 * time.Minute, 5 * time.Minute}},
		{name: "exponential", attrs: ` retry-max="3" retry-interval="2" retry-policy="exponential"`, code: "FS009",
			delays: []time.Duration{2 * time.Minute, 4 * time.Minute, 8 * time.Minute}},
		{name: "capped at 3", attrs: ` retry-max="10" retry-interval="1"`, code: "JA009",
			delays: []time.Duration{time.Minute, time.Minute, time.Minute}, warn: true},
		{name: "default interval", attrs: ` retry-max="1"`, code: "JA017", delays: []time.Duration{10 * time.Minute}},
		{name: "EL attributes", attrs: ` retry-max="${retries}" retry-interval="${1 + 1}"`, code: "JA018",
			delays: []time.Duration{2 * time.Minute, 2 * time.Minute}},
		{name: "ALL codes", attrs: ` retry-max="1" retry-interval="1"`, code: "255",
			opts: Options{UserRetryErrorCodesExt: []string{"ALL"}}, delays: []time.Duration{time.Minute}},
		{name: "server default retries", code: "JA018", opts: Options{UserRetryDefault: 1, UserRetryInterval: 3 * time.Minute},
			delays: []time.Duration{3 * time.Minute}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := newSim(t, linear(t, tt.attrs), map[string]string{"retries": "2"})
			s.opts = tt.opts
			st := s.do(Event{Kind: EventStart})
			if tt.warn != (len(st.Warnings) == 1 && st.Warnings[0].Code == oozieerr.E0820) {
				t.Errorf("warnings = %v, want E0820: %v", st.Warnings, tt.warn)
			}
			s.launchStarted()
			for i, d := range tt.delays {
				st := s.end("a", OutcomeError, tt.code)
				a := s.row("a")
				if a.Status != store.ActionUserRetry || a.UserRetryCount != i+1 {
					t.Fatalf("retry %d: a = %s count %d", i, a.Status, a.UserRetryCount)
				}
				if len(st.Retry) != 1 || !st.Retry[0].At.Equal(s.now.Add(d)) || st.Retry[0].ActionID != a.ID {
					t.Fatalf("retry %d: %+v, want at %v", i, st.Retry, s.now.Add(d))
				}
				early, err := s.decide(Event{Kind: EventActionEnd, Node: "a", Outcome: OutcomeOK})
				if err != nil || early.Ignored == nil || !early.Empty() {
					t.Fatalf("end while waiting for retry: %+v %v", early, err)
				}
				s.now = st.Retry[0].At
				s.do(Event{Kind: EventRetryDue, Node: "a"})
				if !equalStrings(s.startedNodes(), []string{"a"}) {
					t.Fatalf("retry %d: started %v", i, s.startedNodes())
				}
				s.launchStarted()
			}
			s.end("a", OutcomeError, tt.code)
			if a := s.row("a"); a.Status != store.ActionError || a.UserRetryCount != len(tt.delays) {
				t.Fatalf("final a = %s count %d", a.Status, a.UserRetryCount)
			}
			if s.job.Status != store.WorkflowKilled {
				t.Errorf("job = %s", s.job.Status)
			}
		})
	}
}

func TestRetryThenSuccess(t *testing.T) {
	t.Parallel()
	s := newSim(t, linear(t, ` retry-max="2" retry-interval="1"`), nil)
	s.do(Event{Kind: EventStart})
	s.launchStarted()
	st := s.end("a", OutcomeError, "JA018")
	s.now = st.Retry[0].At
	s.do(Event{Kind: EventRetryDue, Node: "a"})
	s.launchStarted()
	s.end("a", OutcomeOK, "")
	if a := s.row("a"); a.Status != store.ActionOK || a.UserRetryCount != 1 || a.ErrorCode != "" || a.ErrorMessage != "" {
		t.Errorf("a = %s count %d error %q %q", a.Status, a.UserRetryCount, a.ErrorCode, a.ErrorMessage)
	}
	if !equalStrings(s.startedNodes(), []string{"b"}) {
		t.Errorf("started %v", s.startedNodes())
	}
}

func TestFailedActionFailsJob(t *testing.T) {
	t.Parallel()
	app := mustLoad(t, wf(`<start to="f"/>`+fork("f", "a", "b")+shell("a", "j", "k", "")+shell("b", "j", "k", "")+
		join("j", "end")+killNode("k")+`<end name="end"/>`))
	s := newSim(t, app, nil)
	s.do(Event{Kind: EventStart})
	s.launchStarted()
	st := s.do(Event{Kind: EventActionEnd, Node: "a", Outcome: OutcomeFailed, ErrorCode: "JA020", ErrorMessage: "no credentials"})
	if s.job.Status != store.WorkflowFailed || s.job.ErrorCode != "JA020" || s.job.ErrorMessage != "no credentials" {
		t.Fatalf("job = %s %s %s", s.job.Status, s.job.ErrorCode, s.job.ErrorMessage)
	}
	if a := s.row("a"); a.Status != store.ActionFailed {
		t.Errorf("a = %s", a.Status)
	}
	if b := s.row("b"); b.Status != store.ActionKilled || !equalStrings(st.Kill, []string{b.ID}) {
		t.Errorf("b = %s, kill %v", b.Status, st.Kill)
	}
}

func TestForkJoin(t *testing.T) {
	t.Parallel()
	app := mustLoad(t, wf(`<start to="f"/>`+fork("f", "a", "g")+shell("a", "j", "k", "")+fork("g", "b", "c")+
		shell("b", "jg", "k", "")+shell("c", "jg", "k", "")+join("jg", "j")+join("j", "d")+shell("d", "end", "k", "")+
		killNode("k")+`<end name="end"/>`))
	s := newSim(t, app, nil)
	s.do(Event{Kind: EventStart})
	if got := s.startedNodes(); !equalStrings(got, []string{"a", "b", "c"}) {
		t.Fatalf("started %v, want all three branches", got)
	}
	if f := s.row("f"); f.Type != TypeFork || f.Transition != "a,g" {
		t.Errorf("fork row = %+v", f)
	}
	s.launchStarted()
	s.end("b", OutcomeOK, "")
	if s.hasRow("jg") || len(s.last.Start) != 0 {
		t.Fatalf("inner join fired after one path: %v", s.nodes())
	}
	s.end("a", OutcomeOK, "")
	if s.hasRow("j") {
		t.Fatal("outer join fired before the inner one")
	}
	s.end("c", OutcomeOK, "")
	if jg, j := s.row("jg"), s.row("j"); jg.Type != TypeJoin || jg.Transition != "j" || j.Transition != "d" {
		t.Fatalf("joins = %+v %+v", jg, j)
	}
	if !equalStrings(s.startedNodes(), []string{"d"}) {
		t.Fatalf("started %v", s.startedNodes())
	}
	in, err := DecodeInstance(s.job.Instance)
	if err != nil {
		t.Fatal(err)
	}
	if in.Forks["f"] != 2 || len(in.Joined["f"]) != 2 || in.Forks["f.1/g"] != 2 || len(in.Joined["f.1/g"]) != 2 ||
		in.Paths["d"] != "" || in.Paths["b"] != "f.1/g.0/" {
		t.Errorf("instance = %+v", in)
	}
	s.launchStarted()
	s.end("d", OutcomeOK, "")
	if s.job.Status != store.WorkflowSucceeded {
		t.Errorf("job = %s", s.job.Status)
	}
}

func TestDecision(t *testing.T) {
	t.Parallel()
	def := wf(`<start to="d"/>
  <decision name="d"><switch>
    <case to="a">${wf:conf('route') eq 'a'}</case>
    <case to="b">
        ${route eq 'b'}
    </case>
    <default to="end"/>
  </switch></decision>` + shell("a", "end", "k", "") + shell("b", "end", "k", "") + killNode("k") + `<end name="end"/>`)
	tests := []struct {
		route  string
		target string
		status store.WorkflowStatus
	}{
		{"a", "a", store.WorkflowRunning},
		{"b", "b", store.WorkflowRunning},
		{"z", "end", store.WorkflowSucceeded},
	}
	for _, tt := range tests {
		s := newSim(t, mustLoad(t, def), map[string]string{"route": tt.route})
		s.do(Event{Kind: EventStart})
		d := s.row("d")
		if d.Type != TypeDecision || d.Status != store.ActionOK || d.Transition != tt.target || s.job.Status != tt.status {
			t.Errorf("route %s: decision %+v, job %s", tt.route, d, s.job.Status)
		}
	}
}

func TestDecisionELErrorFailsJob(t *testing.T) {
	t.Parallel()
	app := mustLoad(t, wf(`<start to="d"/><decision name="d"><switch><case to="end">${undefinedVar eq 1}</case>`+
		`<default to="end"/></switch></decision><end name="end"/>`))
	s := newSim(t, app, nil)
	s.do(Event{Kind: EventStart})
	d := s.row("d")
	if s.job.Status != store.WorkflowFailed || s.job.ErrorCode != oozieerr.ELError || d.Status != store.ActionFailed ||
		d.ErrorCode != oozieerr.ELError || !strings.Contains(d.ErrorMessage, "undefinedVar") {
		t.Errorf("job %s %s, decision %+v", s.job.Status, s.job.ErrorCode, d)
	}
}

// shellFlow is what TestShellExampleFlow feeds one source's shell example
// and expects back: the shell node, the job properties it needs, output
// that passes its decision and output that does not, the kill node that
// then ends the job and its message.
type shellFlow struct {
	node       string
	conf       map[string]string
	good, bad  string
	kill, msg  string
	confValues []string // what the resolved action configuration must hold
}

var shellFlows = map[string]shellFlow{
	testapps.Gozie: {node: "report",
		conf: map[string]string{"resourceManager": "rm", "nameNode": "hdfs://nn", "queueName": "q", "examplesRoot": "ex",
			"greeting": "Hello from gozie"},
		good: "argc=2\nuser=alice\nroot=ex\ngreeting=Hello from gozie\n",
		bad:  "argc=2\nuser=alice\nroot=ex\ngreeting=Bye\n",
		kill: "wrong-report", msg: "report.sh saw 2 arguments, user [alice] and greeting [Bye]",
		confValues: []string{"<argument>alice</argument>", "<argument>ex</argument>", "<env-var>GREETING=Hello from gozie</env-var>"}},
	testapps.Oozie: {node: "shell-node",
		conf: map[string]string{"resourceManager": "rm", "nameNode": "hdfs://nn", "queueName": "q"},
		good: "my_output=Hello Oozie\n", bad: "my_output=Bye\n",
		kill: "fail-output", msg: "Incorrect output, expected [Hello Oozie] but was [Bye]"},
}

// TestShellExampleFlow runs each source's shell example: the decision reads
// the captured output of the shell action.
func TestShellExampleFlow(t *testing.T) {
	t.Parallel()
	testapps.Each(t, func(t *testing.T, apps string) {
		t.Parallel()
		flow := shellFlows[testapps.Source(apps)]
		def := readExample(t, apps, "shell")
		for _, tt := range []struct {
			data   string
			status store.WorkflowStatus
			last   string
		}{
			{flow.good, store.WorkflowSucceeded, "end"},
			{flow.bad, store.WorkflowKilled, flow.kill},
		} {
			s := newSim(t, mustLoad(t, def), flow.conf)
			s.do(Event{Kind: EventStart})
			conf := s.row(flow.node).Conf
			if !strings.Contains(conf, "<value>q</value>") || !strings.Contains(conf, "<name-node>hdfs://nn</name-node>") {
				t.Errorf("resolved conf = %s", conf)
			}
			for _, v := range flow.confValues {
				if !strings.Contains(conf, v) {
					t.Errorf("resolved conf lacks %s: %s", v, conf)
				}
			}
			s.launchStarted()
			s.do(Event{Kind: EventActionEnd, Node: flow.node, Outcome: OutcomeOK, Data: tt.data})
			if s.job.Status != tt.status || !s.hasRow(tt.last) {
				t.Errorf("data %q: job %s rows %v", tt.data, s.job.Status, s.nodes())
			}
			if tt.status == store.WorkflowKilled && s.row(flow.kill).ErrorMessage != flow.msg {
				t.Errorf("kill message = %q, want %q", s.row(flow.kill).ErrorMessage, flow.msg)
			}
		}
	})
}

func TestActionConfigurationResolved(t *testing.T) {
	t.Parallel()
	app := mustLoad(t, wf(`<global><name-node>${nameNode}</name-node><configuration>
    <property><name>q</name><value>${queue}</value></property></configuration></global>
  <start to="a"/>
  <action name="a"><java><resource-manager>rm</resource-manager><main-class>M</main-class>
    <arg>${wf:id()}</arg><arg>${wf:callback('$STATUS')}</arg><arg>a &lt; b &amp; ${amp}</arg></java>
    <ok to="end"/><error to="end"/></action><end name="end"/>`))
	s := newSim(t, app, map[string]string{"nameNode": "hdfs://nn", "queue": "etl", "amp": "x&y"})
	s.do(Event{Kind: EventStart})
	conf := s.row("a").Conf
	j := mustParseBody(t, conf).(*Java)
	if j.NameNode != "hdfs://nn" || !equalStrings(j.Args, []string{s.job.ID, "http://gozie/callback?id=" + s.job.ID + "@a&status=$STATUS", "a < b & x&y"}) {
		t.Errorf("java = %+v\n%s", j, conf)
	}
	if v, _ := j.Configuration.Get("q"); v != "etl" {
		t.Errorf("configuration = %+v", j.Configuration)
	}
}

func TestActionELErrorFailsJob(t *testing.T) {
	t.Parallel()
	s := newSim(t, mustLoad(t, wf(`<start to="a"/>`+shell("a", "end", "end", ` retry-max="${nope}"`)+`<end name="end"/>`)), nil)
	s.do(Event{Kind: EventStart})
	if a := s.row("a"); a.Status != store.ActionFailed || a.ErrorCode != oozieerr.ELError || s.job.Status != store.WorkflowFailed ||
		len(s.last.Start) != 0 {
		t.Errorf("a = %+v, job %s", a, s.job.Status)
	}
	s2 := newSim(t, mustLoad(t, wf(`<start to="a"/><action name="a"><fs><mkdir path="${undefinedPath}"/></fs><ok to="end"/><error to="end"/></action><end name="end"/>`)), nil)
	s2.do(Event{Kind: EventStart})
	if a := s2.row("a"); a.Status != store.ActionFailed || !strings.Contains(a.ErrorMessage, "undefinedPath") ||
		s2.job.ErrorCode != oozieerr.ELError {
		t.Errorf("a = %+v, job %s", a, s2.job.Status)
	}
}

func TestKillMessageELError(t *testing.T) {
	t.Parallel()
	s := newSim(t, mustLoad(t, wf(`<start to="k"/><kill name="k"><message>${bad(}</message></kill><end name="end"/>`)), nil)
	s.do(Event{Kind: EventStart})
	if k := s.row("k"); k.ErrorCode != oozieerr.E0756 || s.job.Status != store.WorkflowKilled {
		t.Errorf("kill = %+v job %s", k, s.job.Status)
	}
}

func TestUserKill(t *testing.T) {
	t.Parallel()
	app := mustLoad(t, wf(`<start to="f"/>`+fork("f", "a", "b")+shell("a", "j", "k", ` retry-max="1" retry-interval="1"`)+shell("b", "j", "k", "")+
		join("j", "end")+killNode("k")+`<end name="end"/>`))
	s := newSim(t, app, nil)
	s.do(Event{Kind: EventStart})
	s.launchStarted()
	s.end("a", OutcomeError, "JA018") // a waits for a retry
	st := s.do(Event{Kind: EventKill})
	if s.job.Status != store.WorkflowKilled || !s.job.EndTime.Equal(t0) {
		t.Fatalf("job = %s", s.job.Status)
	}
	if a, b := s.row("a"), s.row("b"); a.Status != store.ActionKilled || b.Status != store.ActionKilled {
		t.Errorf("a = %s, b = %s", a.Status, b.Status)
	}
	if !equalStrings(st.Kill, []string{s.row("b").ID}) {
		t.Errorf("kill = %v (only the running b has external work)", st.Kill)
	}
	in, _ := DecodeInstance(s.job.Instance)
	if len(in.RetryAt) != 0 {
		t.Errorf("retry left after kill: %v", in.RetryAt)
	}
	again, err := s.decide(Event{Kind: EventKill})
	if err != nil || !again.Empty() || again.Ignored.Code != oozieerr.E0725 {
		t.Errorf("second kill = %+v %v", again, err)
	}
	late, err := s.decide(Event{Kind: EventActionEnd, Node: "b", Outcome: OutcomeOK})
	if err != nil || !late.Empty() || late.Ignored == nil {
		t.Errorf("late end = %+v %v", late, err)
	}
}

func TestKillPrepJob(t *testing.T) {
	t.Parallel()
	s := newSim(t, linear(t, ""), nil)
	st := s.do(Event{Kind: EventKill})
	if s.job.Status != store.WorkflowKilled || len(st.Create) != 0 {
		t.Errorf("job = %s step %+v", s.job.Status, st)
	}
}

func TestSuspendResume(t *testing.T) {
	t.Parallel()
	s := newSim(t, linear(t, ""), nil)
	s.do(Event{Kind: EventStart})
	s.launchStarted()
	s.do(Event{Kind: EventSuspend})
	if s.job.Status != store.WorkflowSuspended {
		t.Fatalf("job = %s", s.job.Status)
	}
	if st, _ := s.decide(Event{Kind: EventSuspend}); st.Ignored == nil || st.Ignored.Code != oozieerr.E0727 {
		t.Errorf("second suspend = %+v", st)
	}
	s.do(Event{Kind: EventActionEnd, Node: "a", Outcome: OutcomeOK, ExternalStatus: "SUCCEEDED"})
	if a := s.row("a"); a.Status != store.ActionDone || a.ExternalStatus != "SUCCEEDED" || s.hasRow("b") {
		t.Fatalf("a = %+v, rows %v", a, s.nodes())
	}
	s.do(Event{Kind: EventResume})
	if s.job.Status != store.WorkflowRunning || s.row("a").Status != store.ActionOK || !equalStrings(s.startedNodes(), []string{"b"}) {
		t.Fatalf("after resume: job %s a %s started %v", s.job.Status, s.row("a").Status, s.startedNodes())
	}
	if st, _ := s.decide(Event{Kind: EventResume}); st.Ignored == nil || st.Ignored.Code != oozieerr.E0717 {
		t.Errorf("second resume = %+v", st)
	}
}

func TestSuspendDuringRetry(t *testing.T) {
	t.Parallel()
	s := newSim(t, linear(t, ` retry-max="2" retry-interval="10"`), nil)
	s.do(Event{Kind: EventStart})
	s.launchStarted()
	st := s.end("a", OutcomeError, "JA018")
	due := st.Retry[0].At
	s.do(Event{Kind: EventSuspend})
	s.now = due
	if wait, _ := s.decide(Event{Kind: EventRetryDue, Node: "a"}); !wait.Empty() || wait.Ignored == nil {
		t.Fatalf("retry while suspended = %+v", wait)
	}
	s.now = due.Add(-5 * time.Minute)
	st = s.do(Event{Kind: EventResume})
	if len(st.Start) != 0 || len(st.Retry) != 1 || !st.Retry[0].At.Equal(due) {
		t.Fatalf("early resume = %+v", st)
	}
	s.do(Event{Kind: EventSuspend})
	s.now = due.Add(time.Minute)
	s.do(Event{Kind: EventResume})
	if !equalStrings(s.startedNodes(), []string{"a"}) {
		t.Errorf("late resume started %v", s.startedNodes())
	}
}

func TestSuspendOnNodes(t *testing.T) {
	t.Parallel()
	s := newSim(t, linear(t, ""), map[string]string{PropSuspendOnNodes: "x, b"})
	s.do(Event{Kind: EventStart})
	s.launchStarted()
	s.end("a", OutcomeOK, "")
	if s.job.Status != store.WorkflowSuspended || s.row("b").Status != store.ActionPrep || len(s.last.Start) != 0 {
		t.Fatalf("job %s b %s start %v", s.job.Status, s.row("b").Status, s.last.Start)
	}
	s.do(Event{Kind: EventResume})
	if !equalStrings(s.startedNodes(), []string{"b"}) || s.job.Status != store.WorkflowRunning {
		t.Errorf("resume started %v job %s", s.startedNodes(), s.job.Status)
	}
	all := newSim(t, linear(t, ""), map[string]string{PropSuspendOnNodes: "*"})
	all.do(Event{Kind: EventStart})
	if all.job.Status != store.WorkflowSuspended {
		t.Errorf("'*' did not suspend: %s", all.job.Status)
	}
}

func TestStaleAndUnknownEvents(t *testing.T) {
	t.Parallel()
	s := newSim(t, linear(t, ""), nil)
	s.do(Event{Kind: EventStart})
	s.launchStarted()
	s.end("a", OutcomeOK, "")
	st, err := s.decide(Event{Kind: EventActionEnd, Node: "a", Outcome: OutcomeError})
	if err != nil || !st.Empty() || st.Ignored == nil || st.Ignored.Code != oozieerr.E0800 {
		t.Errorf("stale end = %+v %v", st, err)
	}
	_, err = s.decide(Event{Kind: EventActionEnd, Node: "zzz", Outcome: OutcomeOK})
	wantCode(t, err, oozieerr.E0605)
	_, err = s.decide(Event{Kind: EventActionEnd, Node: ":start:", Outcome: OutcomeOK})
	wantCode(t, err, oozieerr.E0605)
	if _, err := s.decide(Event{Kind: EventActionEnd, Node: "b", Outcome: "MAYBE"}); err == nil {
		t.Error("unknown outcome accepted")
	}
	if _, err := s.decide(Event{Kind: "explode"}); err == nil {
		t.Error("unknown event accepted")
	}
	st, err = s.decide(Event{Kind: EventRetryDue, Node: "b"})
	if err != nil || !st.Empty() || st.Ignored == nil {
		t.Errorf("retry of a PREP action = %+v %v", st, err)
	}
	in := s.input()
	in.Job.Instance = []byte(`{"v":99}`)
	if _, err := Decide(in, Event{Kind: EventKill}); err == nil {
		t.Error("unknown instance version accepted")
	}
}

func TestRerun(t *testing.T) {
	t.Parallel()
	app := mustLoad(t, wf(`<start to="a"/>`+shell("a", "d", "k", "")+
		`<decision name="d"><switch><case to="b">${wf:conf('go') eq 'b'}</case><default to="end"/></switch></decision>`+
		shell("b", "c", "k", "")+shell("c", "end", "k", "")+killNode("k")+`<end name="end"/>`))
	run := func(t *testing.T) *sim {
		s := newSim(t, app, map[string]string{"go": "b"})
		s.do(Event{Kind: EventStart})
		s.launchStarted()
		s.end("a", OutcomeOK, "")
		s.launchStarted()
		s.end("b", OutcomeOK, "")
		s.launchStarted()
		s.end("c", OutcomeError, "1")
		if s.job.Status != store.WorkflowKilled {
			t.Fatalf("first run: %s", s.job.Status)
		}
		return s
	}

	t.Run("preconditions", func(t *testing.T) {
		t.Parallel()
		s := newSim(t, app, nil)
		s.do(Event{Kind: EventStart})
		_, err := s.decide(Event{Kind: EventRerun})
		wantCode(t, err, oozieerr.E0805)
		done := run(t)
		_, err = done.decide(Event{Kind: EventRerun, SkipNodes: []string{"a", "zz", "yy"}})
		if we := wantCode(t, err, oozieerr.E0807); !strings.Contains(we.Msg, "[yy,zz]") {
			t.Errorf("message %q", we.Msg)
		}
		done.rows[done.job.ID+"@a"] = func() store.WorkflowAction { a := done.row("a"); a.Status = store.ActionKilled; return a }()
		_, err = done.decide(Event{Kind: EventRerun, SkipNodes: []string{"a"}})
		wantCode(t, err, oozieerr.E0806)
	})

	t.Run("failnodes", func(t *testing.T) {
		t.Parallel()
		s := run(t)
		st := s.do(Event{Kind: EventRerun, FailNodes: true, Conf: "<configuration/>"})
		if s.job.Status != store.WorkflowPrep || s.job.Run != 1 || !s.job.EndTime.IsZero() || s.job.ErrorCode != "" ||
			s.job.Conf != "<configuration/>" {
			t.Fatalf("job after rerun = %+v", s.job)
		}
		if got := s.nodes(); !equalStrings(got, []string{"a", "d", "b"}) {
			t.Fatalf("kept rows %v (deleted %v)", got, st.Delete)
		}
		s.now = t0.Add(time.Hour)
		s.do(Event{Kind: EventStart})
		if got := s.startedNodes(); !equalStrings(got, []string{"c"}) {
			t.Fatalf("rerun started %v, want only c", got)
		}
		if a := s.row("a"); !a.EndTime.Equal(t0) {
			t.Errorf("skipped a was touched: %+v", a)
		}
		s.launchStarted()
		s.end("c", OutcomeOK, "")
		if s.job.Status != store.WorkflowSucceeded {
			t.Errorf("job = %s", s.job.Status)
		}
	})

	t.Run("skip nodes", func(t *testing.T) {
		t.Parallel()
		s := run(t)
		s.do(Event{Kind: EventRerun, SkipNodes: []string{"a"}})
		s.do(Event{Kind: EventStart})
		if got := s.startedNodes(); !equalStrings(got, []string{"b"}) {
			t.Fatalf("started %v, want b (d is re-evaluated)", got)
		}
	})

	t.Run("everything", func(t *testing.T) {
		t.Parallel()
		s := run(t)
		st := s.do(Event{Kind: EventRerun})
		if len(s.rows) != 0 || len(st.Delete) != 6 {
			t.Fatalf("rows left %v, deleted %v", s.nodes(), st.Delete)
		}
		s.do(Event{Kind: EventStart})
		if got := s.startedNodes(); !equalStrings(got, []string{"a"}) || s.job.Run != 1 {
			t.Errorf("started %v run %d", got, s.job.Run)
		}
	})

	t.Run("skipped error replays the error transition", func(t *testing.T) {
		t.Parallel()
		s := run(t)
		s.do(Event{Kind: EventRerun, SkipNodes: []string{"a", "b", "c"}})
		s.do(Event{Kind: EventStart})
		if s.job.Status != store.WorkflowKilled || s.row("k").ErrorMessage != "failed at [c]: exit code [1]" {
			t.Errorf("job %s kill %+v", s.job.Status, s.row("k"))
		}
	})
}

// TestRuntimeForkErrors: with fork/join validation off, Oozie's runtime
// checks still hold.
func TestRuntimeForkErrors(t *testing.T) {
	t.Parallel()
	opts := Options{SkipForkJoinValidation: true}
	load := func(body string) *App {
		app, err := Load([]byte(wf(body)), opts)
		if err != nil {
			t.Fatal(err)
		}
		return app
	}
	// A join reached outside any fork.
	s := newSim(t, load(`<start to="a"/>`+shell("a", "j", "j", "")+join("j", "end")+`<end name="end"/>`), nil)
	s.do(Event{Kind: EventStart})
	s.launchStarted()
	s.end("a", OutcomeOK, "")
	if s.job.Status != store.WorkflowFailed || s.job.ErrorCode != oozieerr.E0720 {
		t.Errorf("join outside fork: %s %s", s.job.Status, s.job.ErrorCode)
	}
	// An end inside a fork path: the job succeeds and the other path dies.
	s = newSim(t, load(`<start to="f"/>`+fork("f", "a", "b")+shell("a", "end", "end", "")+shell("b", "j", "j", "")+
		join("j", "end")+`<end name="end"/>`), nil)
	s.do(Event{Kind: EventStart})
	s.launchStarted()
	st := s.end("a", OutcomeOK, "")
	if s.job.Status != store.WorkflowSucceeded || s.row("b").Status != store.ActionKilled || len(st.Kill) != 1 {
		t.Errorf("end in fork: job %s b %s kill %v", s.job.Status, s.row("b").Status, st.Kill)
	}
	// Two fork paths reaching the same action.
	s = newSim(t, load(`<start to="f"/>`+fork("f", "a", "b")+shell("a", "c", "c", "")+shell("b", "c", "c", "")+
		shell("c", "j", "j", "")+join("j", "end")+`<end name="end"/>`), nil)
	s.do(Event{Kind: EventStart})
	s.launchStarted()
	s.end("a", OutcomeOK, "")
	s.end("b", OutcomeOK, "")
	if s.job.Status != store.WorkflowFailed || s.job.ErrorCode != oozieerr.E0709 {
		t.Errorf("node reached twice: %s %s", s.job.Status, s.job.ErrorCode)
	}
}

func TestDecideNoApp(t *testing.T) {
	t.Parallel()
	if _, err := Decide(Input{}, Event{Kind: EventStart}); err == nil || false {
		t.Error("Decide without an app succeeded")
	}
}
