package jobs_test

import (
	"net/http"
	"strings"
	"testing"
)

// TestSubmitWithSchemaInstanceAttributes: workflows, coordinators and bundles whose
// elements carry xsi: attributes (common in generated XML) are accepted at submission,
// as Oozie accepts them.
func TestSubmitWithSchemaInstanceAttributes(t *testing.T) {
	t.Parallel()
	f := setup(t)
	const xsi = `xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"`
	const loc = ` xsi:schemaLocation="uri:x x.xsd"`
	wf := f.WriteApp(t, "xsi-wf", `<workflow-app xmlns="uri:oozie:workflow:1.0" `+xsi+` name="xsi-wf"`+loc+`>
    <start to="mkdir"`+loc+`/>
    <action name="mkdir"`+loc+`>
        <fs`+loc+`><mkdir path="file://`+f.Apps+`/out"`+loc+`/></fs>
        <ok to="end"/><error to="fail"/>
    </action>
    <kill name="fail"`+loc+`><message`+loc+`>failed</message></kill>
    <end name="end"`+loc+`/>
</workflow-app>
`)
	coord := f.WriteCoordApp(t, "xsi-coord", strings.Replace(strings.Replace(
		`<coordinator-app xmlns="uri:oozie:coordinator:0.4" name="xsi-coord" frequency="${coord:hours(1)}"
    start="2025-01-27T00:00Z" end="2025-01-27T02:00Z" timezone="UTC">
    <action><workflow><app-path>`+wf+`</app-path></workflow></action>
</coordinator-app>`, `timezone="UTC">`, `timezone="UTC" `+xsi+loc+`>`, 1), "<action>", "<action"+loc+">", 1))
	bundle := f.WriteBundleApp(t, "xsi-bundle", `<bundle-app xmlns="uri:oozie:bundle:0.2" `+xsi+` name="xsi-bundle"`+loc+`>
    <coordinator name="c"`+loc+`><app-path>`+coord+`</app-path></coordinator>
</bundle-app>`)
	for _, props := range [][]string{
		{"oozie.wf.application.path", wf},
		{"oozie.coord.application.path", coord},
		{"oozie.bundle.application.path", bundle},
	} {
		if r := f.postJobs(t, "/oozie/v2/jobs?action=start", props...); r.status != http.StatusCreated {
			t.Errorf("%s: %d %s", props[0], r.status, r.header.Get("oozie-error-message"))
		}
	}
}
