package jobs_test

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// pigApp is a workflow whose one action is of a custom type (a flume action) that
// gozie does not run.
const pigApp = `<workflow-app xmlns="uri:oozie:workflow:0.5" name="pig-wf">
    <start to="p"/>
    <action name="p">
        <flume xmlns="uri:custom:flume-action:0.1"/>
        <ok to="end"/><error to="end"/>
    </action>
    <end name="end"/>
</workflow-app>
`

// subWorkflowApp is a workflow whose one action runs the sub-workflow at appPath, with
// extra elements inside <sub-workflow> after <app-path>.
func subWorkflowApp(node, appPath, extra string) string {
	return `<workflow-app xmlns="uri:oozie:workflow:1.0" name="parent-wf">
    <start to="` + node + `"/>
    <action name="` + node + `">
        <sub-workflow><app-path>` + appPath + `</app-path>` + extra + `</sub-workflow>
        <ok to="end"/><error to="end"/>
    </action>
    <end name="end"/>
</workflow-app>
`
}

// postJobs submits a configuration of name/value pairs (user joe) to path.
func (f *fixture) postJobs(t *testing.T, path string, pairs ...string) response {
	t.Helper()
	return f.call(t, http.MethodPost, path, "application/xml", configXML(t, append([]string{"user.name", "joe"}, pairs...)...))
}

// TestSubmitRefusesUnsupportedActionType: a workflow with an action type gozie does not
// run is refused at submission with E0723, saying that gozie does not support it.
func TestSubmitRefusesUnsupportedActionType(t *testing.T) {
	t.Parallel()
	f := setup(t)
	app := f.WriteApp(t, "pig", pigApp)
	checkError(t, f.postJobs(t, "/oozie/v1/jobs", "oozie.wf.application.path", app), http.StatusBadRequest, "E0723",
		"E0723: Unsupported action type, node [p] type [flume]: gozie does not support flume (uri:custom:flume-action:0.1) actions (line 3)")
}

// TestSubmitFindsUnsupportedActionsInSubWorkflows: a sub-workflow whose app-path is known
// at submission (written out, or EL the job's configuration resolves) is read then, and
// through it its own static sub-workflows; an action type gozie does not run there refuses
// the parent's submission (and dry run) with E0723 naming the sub-workflow actions, the
// child paths and the type, and nothing is stored. Children whose path depends on the run
// are judged when they run, as before.
func TestSubmitFindsUnsupportedActionsInSubWorkflows(t *testing.T) {
	t.Parallel()
	f := setup(t)
	pig := f.WriteApp(t, "pig", pigApp)
	f.WriteApp(t, "joe-pig", pigApp)
	fs := f.appPath(appFS)
	pigFile := strings.TrimPrefix(pig, "file://")
	if err := os.WriteFile(filepath.Join(pigFile, "config-default.xml"), []byte(configXML(t, "queue", "default")), 0o644); err != nil {
		t.Fatal(err)
	}
	refusal := func(hops string) string {
		return "E0723: " + hops + ", where: Unsupported action type, node [p] type [flume]: gozie does not support flume (uri:custom:flume-action:0.1) actions (line 3)"
	}
	tests := []struct {
		name  string
		app   string   // the parent's workflow.xml
		extra []string // job properties
		msg   string   // "" = accepted
	}{
		{"written out", subWorkflowApp("run-child", pig, ""), nil,
			refusal("Sub-workflow action [run-child] runs [" + pig + "]")},
		{"the definition file itself", subWorkflowApp("run-child", pig+"/workflow.xml", ""), nil,
			refusal("Sub-workflow action [run-child] runs [" + pig + "/workflow.xml]")},
		{"EL from the job configuration", subWorkflowApp("run-child", "${appsRoot}/${wf:conf('child')}", ""),
			[]string{"appsRoot", "file://" + f.Apps, "child", "pig"},
			refusal("Sub-workflow action [run-child] runs [" + pig + "]")},
		{"EL with the user and the parent's path", subWorkflowApp("run-child", "${replaceAll(wf:appPath(), 'parent$', '')}${wf:user()}-pig", ""),
			nil, refusal("Sub-workflow action [run-child] runs [file://" + f.Apps + "/joe-pig]")},
		{"an absolute path on the parent's filesystem", subWorkflowApp("run-child", pigFile, ""), nil,
			refusal("Sub-workflow action [run-child] runs [file://" + pigFile + "]")},
		{"two levels down", subWorkflowApp("outer", "${appsRoot}/middle", ""), []string{"appsRoot", "file://" + f.Apps},
			refusal("Sub-workflow action [outer] runs [file://" + f.Apps + "/middle], whose sub-workflow action [inner] runs [" + pig + "]")},
		{"a supported child", subWorkflowApp("run-child", fs, ""), nil, ""},
		{"a path known only at run time", subWorkflowApp("run-child", "${wf:actionData('pick')['path']}", ""), nil, ""},
		{"a path with an undefined variable", subWorkflowApp("run-child", "${nowhere}/pig", ""), nil, ""},
		{"a child that calls itself", subWorkflowApp("again", "${wf:appPath()}", ""), nil, ""},
	}
	// middle runs pig at a path its own config-default.xml gives.
	f.WriteApp(t, "middle", strings.Replace(subWorkflowApp("inner", "${childRoot}/pig", ""), "parent-wf", "middle-wf", 1))
	if err := os.WriteFile(filepath.Join(f.Apps, "middle", "config-default.xml"),
		[]byte(configXML(t, "childRoot", "file://"+f.Apps)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// One parent app at a time: parent/workflow.xml is rewritten for each case.
			app := f.WriteApp(t, "parent", tt.app)
			props := append([]string{"oozie.wf.application.path", app}, tt.extra...)
			for _, path := range []string{"/oozie/v1/jobs", "/oozie/v2/jobs?action=start", "/oozie/v2/jobs?action=dryrun"} {
				r := f.postJobs(t, path, props...)
				if tt.msg == "" {
					if r.status != http.StatusCreated {
						t.Errorf("%s: %d %s", path, r.status, r.header.Get("oozie-error-message"))
					}
					continue
				}
				checkError(t, r, http.StatusBadRequest, "E0723", tt.msg)
			}
		})
	}
	// Only the accepted submissions (two of each accepted case: the dry runs store
	// nothing) were stored.
	var list struct{ Total int }
	decode(t, f.call(t, http.MethodGet, "/oozie/v2/jobs?jobtype=wf", "", "").body, &list)
	accepted := 0
	for _, tt := range tests {
		if tt.msg == "" {
			accepted += 2
		}
	}
	if list.Total != accepted {
		t.Errorf("%d jobs stored, want %d", list.Total, accepted)
	}
}

// TestSubmitSubWorkflowCheckNeedsThePropagatedConfiguration: a grandchild's path resolved
// from the configuration the parent propagates is followed; without propagation the
// variable is undefined in the child, the path is dynamic and the parent is accepted.
func TestSubmitSubWorkflowCheckNeedsThePropagatedConfiguration(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.WriteApp(t, "pig", pigApp)
	f.WriteApp(t, "middle", strings.Replace(subWorkflowApp("inner", "${appsRoot}/pig", ""), "parent-wf", "middle-wf", 1))
	propagating := f.WriteApp(t, "propagating", subWorkflowApp("outer", "${appsRoot}/middle", "<propagate-configuration/>"))
	passing := f.WriteApp(t, "passing", subWorkflowApp("outer", "${appsRoot}/middle",
		"<configuration><property><name>appsRoot</name><value>${appsRoot}</value></property></configuration>"))
	closed := f.WriteApp(t, "closed", subWorkflowApp("outer", "${appsRoot}/middle", ""))
	root := "file://" + f.Apps
	for _, app := range []string{propagating, passing} {
		checkError(t, f.postJobs(t, "/oozie/v1/jobs", "oozie.wf.application.path", app, "appsRoot", root), http.StatusBadRequest, "E0723",
			"E0723: Sub-workflow action [outer] runs ["+root+"/middle], whose sub-workflow action [inner] runs ["+root+"/pig], "+
				"where: Unsupported action type, node [p] type [flume]: gozie does not support flume (uri:custom:flume-action:0.1) actions (line 3)")
	}
	if r := f.postJobs(t, "/oozie/v1/jobs", "oozie.wf.application.path", closed, "appsRoot", root); r.status != http.StatusCreated {
		t.Errorf("closed configuration: %d %s", r.status, r.header.Get("oozie-error-message"))
	}
}
