package e2e

import "strings"

// The shapes of the apps the end-to-end tests write, each in one place.

// shellApp is a workflow app named name with one action, node: a shell
// action on the cluster's YARN that runs exec with args (XML-escaped), and
// goes to the kill node (message killMsg) on error.
func shellApp(name, node, killMsg, exec string, args ...string) string {
	var argXML strings.Builder
	for _, a := range args {
		argXML.WriteString("<argument>" + a + "</argument>")
	}
	return `<workflow-app xmlns="uri:oozie:workflow:1.0" name="` + name + `">
  <start to="` + node + `"/>
  <action name="` + node + `">
    <shell xmlns="uri:oozie:shell-action:1.0">
      <resource-manager>${resourceManager}</resource-manager><name-node>${nameNode}</name-node>
      <exec>` + exec + `</exec>` + argXML.String() + `
    </shell>
    <ok to="end"/><error to="fail"/>
  </action>
  <kill name="fail"><message>` + killMsg + `</message></kill>
  <end name="end"/>
</workflow-app>`
}

// hourlyInputCoordinator is an hourly coordinator app named name, from
// ${start} to ${end} in UTC, whose actions each wait for the current
// hour's instance of the dataset "hourly" (instances at uriTemplate, below
// the user's home) and run the workflow app examples/apps/<appDir>;
// controls are the children of its <controls> ("" for none).
func hourlyInputCoordinator(name, controls, uriTemplate, appDir string) string {
	if controls != "" {
		controls = "\n  <controls>" + controls + "</controls>"
	}
	return `<coordinator-app name="` + name + `" frequency="${coord:hours(1)}" start="${start}" end="${end}"
    timezone="UTC" xmlns="uri:oozie:coordinator:0.4">` + controls + `
  <datasets>
    <dataset name="hourly" frequency="${coord:hours(1)}" initial-instance="2010-01-01T00:00Z" timezone="UTC">
      <uri-template>${nameNode}/user/${coord:user()}/` + uriTemplate + `</uri-template>
    </dataset>
  </datasets>
  <input-events>
    <data-in name="input" dataset="hourly">
      <instance>${coord:current(0)}</instance>
    </data-in>
  </input-events>
  <action>
    <workflow>
      <app-path>${nameNode}/user/${coord:user()}/examples/apps/` + appDir + `</app-path>
    </workflow>
  </action>
</coordinator-app>`
}
