package daemon_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/daemon"
)

// idle is an executor that is registered but never asked to run anything here.
type idle struct{}

func (idle) Start(context.Context, *actions.Attempt) (actions.Status, error) {
	return actions.Status{}, errors.New("idle executor")
}
func (idle) Check(context.Context, *actions.Attempt) (actions.Status, error) {
	return actions.Status{}, errors.New("idle executor")
}
func (idle) Kill(context.Context, *actions.Attempt) error { return nil }

// serveExecutors is serve with the daemon's action executors given.
func serveExecutors(t *testing.T, reg actions.Registry) *served {
	t.Helper()
	return serveWith(t, nil, daemon.Options{Executors: reg})
}

// emailApp is a workflow whose one action sends an email.
const emailApp = `<workflow-app xmlns="uri:oozie:workflow:1.0" name="mail">
  <start to="m"/>
  <action name="m">
    <email xmlns="uri:oozie:email-action:0.2"><to>ops@example.com</to><subject>s</subject><body>b</body></email>
    <ok to="end"/><error to="end"/>
  </action>
  <end name="end"/>
</workflow-app>`

// TestActionTypesComeFromTheExecutors: which action types the server accepts is what its
// executor registry holds. A server without an email executor refuses an email workflow at
// submission with E0723 saying gozie does not support it, and its validate warns instead
// of answering "Valid"; a server with one accepts the same workflow.
func TestActionTypesComeFromTheExecutors(t *testing.T) {
	without := serveExecutors(t, actions.Registry{"fs": idle{}, "shell": idle{}})
	with := serveExecutors(t, actions.Registry{"fs": idle{}, "email": idle{}})
	for _, s := range []*served{without, with} {
		s.write(t, "mail/workflow.xml", emailApp)
	}
	var body strings.Builder
	if err := conf.WriteConfigurationXML(&body, conf.NewProperties("user.name", "joe",
		"oozie.wf.application.path", "file://"+without.apps+"/mail")); err != nil {
		t.Fatal(err)
	}
	status, code, out := without.call(t, http.MethodPost, "/v2/jobs", "joe", body.String())
	if status != http.StatusBadRequest || code != "E0723" ||
		!strings.Contains(out, "Unsupported action type, node [m] type [email]: gozie does not support email actions") {
		t.Errorf("submission without an email executor: %d %s %s", status, code, out)
	}
	status, _, out = without.call(t, http.MethodPost, "/v2/validate?file=wf.xml&user=joe", "", emailApp)
	if status != http.StatusOK || !strings.Contains(out, `"validate":"Warning: `) || !strings.Contains(out, "type [email]") {
		t.Errorf("validate without an email executor: %d %s", status, out)
	}

	with.submit(t, "joe", "oozie.wf.application.path", "file://"+with.apps+"/mail")
	status, _, out = with.call(t, http.MethodPost, "/v2/validate?file=wf.xml&user=joe", "", emailApp)
	if status != http.StatusOK || !strings.Contains(out, `"validate":"Valid workflow-app"`) {
		t.Errorf("validate with an email executor: %d %s", status, out)
	}
}
