package jobsbench

import (
	"fmt"
	"strings"
	"time"

	"github.com/gozie/gozie/oozietime"
)

// The text columns of the fixture: what a coordinator of an hourly HDFS dataset and its
// workflow would store, so that rows have the sizes of real ones.

const (
	nameNode = "hdfs://nn.example.com:8020"
	rmAddr   = "rm.example.com:8032"
)

// property appends one Hadoop configuration property.
func property(b *strings.Builder, name, value string) {
	fmt.Fprintf(b, "<property><name>%s</name><value>%s</value></property>", name, value)
}

// appName is the coordinator's name; its workflow is appName + "-wf".
func appName(i int) string { return fmt.Sprintf("bench-coord-%04d", i) }

// coordAppPath is where coordinator i's application lives.
func (s Spec) coordAppPath(i int) string {
	return fmt.Sprintf("%s/user/%s/apps/%s", nameNode, s.User(i), appName(i))
}

// datasetTemplate is the URI template of coordinator i's input dataset.
func datasetTemplate(i int) string {
	return fmt.Sprintf("%s/data/bench/%04d/events/${YEAR}/${MONTH}/${DAY}/${HOUR}", nameNode, i)
}

// coordDefinition is the coordinator XML of coordinator i (about 1 KB).
func (s Spec) coordDefinition(i int) string {
	start := coordStart(i)
	return fmt.Sprintf(`<coordinator-app xmlns="uri:oozie:coordinator:0.4" name="%s" frequency="${coord:hours(1)}" start="%s" end="%s" timezone="UTC">
  <controls><timeout>120</timeout><concurrency>1</concurrency><execution>FIFO</execution><throttle>12</throttle></controls>
  <datasets>
    <dataset name="events" frequency="${coord:hours(1)}" initial-instance="2023-01-01T00:00Z" timezone="UTC">
      <uri-template>%s</uri-template>
      <done-flag>_SUCCESS</done-flag>
    </dataset>
  </datasets>
  <input-events><data-in name="input" dataset="events"><instance>${coord:current(0)}</instance></data-in></input-events>
  <action>
    <workflow>
      <app-path>%s-wf</app-path>
      <configuration>
        <property><name>inputDir</name><value>${coord:dataIn('input')}</value></property>
        <property><name>nominalTime</name><value>${coord:nominalTime()}</value></property>
      </configuration>
    </workflow>
  </action>
</coordinator-app>`, appName(i), start.Format(oozietime.Layout), start.AddDate(2, 0, 0).Format(oozietime.Layout), datasetTemplate(i), s.coordAppPath(i))
}

// coordConf is the job configuration of coordinator i (about 800 bytes).
func (s Spec) coordConf(i int) string {
	var b strings.Builder
	b.WriteString("<configuration>")
	property(&b, "user.name", s.User(i))
	property(&b, "oozie.coord.application.path", s.coordAppPath(i))
	property(&b, "nameNode", nameNode)
	property(&b, "jobTracker", rmAddr)
	property(&b, "queueName", fmt.Sprintf("etl-%d", i%4))
	property(&b, "oozie.use.system.libpath", "true")
	property(&b, "oozie.libpath", nameNode+"/user/share/lib/etl")
	property(&b, "outputRoot", fmt.Sprintf("%s/warehouse/bench/%04d", nameNode, i))
	property(&b, "mail.to", fmt.Sprintf("team-%d@example.com", i%7))
	b.WriteString("</configuration>")
	return b.String()
}

// actionXML is the materialized XML of action n of coordinator i: the coordinator with
// the action's instance resolved (1.2–1.9 KB, longer for some actions).
func (s Spec) actionXML(i, n int, nominal time.Time) string {
	var b strings.Builder
	b.Grow(2048)
	start := coordStart(i)
	fmt.Fprintf(&b, `<coordinator-app xmlns="uri:oozie:coordinator:0.4" name="%s" frequency="60" start="%s" end="%s" timezone="UTC" freq_timeunit="MINUTE" end_of_duration="NONE" instance-number="%d" action-nominal-time="%s" action-actual-time="%s">`,
		appName(i), start.Format(oozietime.Layout), start.AddDate(2, 0, 0).Format(oozietime.Layout), n, nominal.Format(oozietime.Layout),
		nominal.Add(3*time.Minute).Format(oozietime.Layout))
	b.WriteString(`<controls><timeout>120</timeout><concurrency>1</concurrency><execution>FIFO</execution><throttle>12</throttle></controls>`)
	dir := fmt.Sprintf("%s/data/bench/%04d/events/%s", nameNode, i, nominal.Format("2006/01/02/15"))
	fmt.Fprintf(&b, `<input-events><data-in name="input" dataset="events"><uris>%s</uris><dataset name="events" frequency="60" initial-instance="2023-01-01T00:00Z" timezone="UTC" freq_timeunit="MINUTE" end_of_duration="NONE"><uri-template>%s</uri-template><done-flag>_SUCCESS</done-flag></dataset></data-in></input-events>`,
		dir, datasetTemplate(i))
	fmt.Fprintf(&b, `<action><workflow><app-path>%s-wf</app-path><configuration>`, s.coordAppPath(i))
	property(&b, "inputDir", dir)
	property(&b, "nominalTime", nominal.Format(oozietime.Layout))
	property(&b, "outputDir", fmt.Sprintf("%s/warehouse/bench/%04d/%s", nameNode, i, nominal.Format("2006010215")))
	// Some actions carry more configuration, so row sizes vary as in real coordinators.
	for k := range n % 8 {
		property(&b, fmt.Sprintf("bench.partition.%d", k), fmt.Sprintf("dt=%s/part=%02d", nominal.Format("2006-01-02-15"), k))
	}
	b.WriteString(`</configuration></workflow></action></coordinator-app>`)
	return b.String()
}

// workflowConf is the configuration of the workflow an action started: its
// coordinator's with the action's own properties (about 900 bytes).
func (s Spec) workflowConf(i int, nominal time.Time) string {
	c := s.coordConf(i)
	return strings.TrimSuffix(c, "</configuration>") +
		fmt.Sprintf("<property><name>nominalTime</name><value>%s</value></property></configuration>", nominal.Format(oozietime.Layout))
}

// workflowDefinition is the workflow XML of coordinator i's workflow (about 900 bytes).
func workflowDefinition(i int) string {
	return fmt.Sprintf(`<workflow-app xmlns="uri:oozie:workflow:1.0" name="%s-wf">
  <start to="load"/>
  <action name="load">
    <hive2 xmlns="uri:oozie:hive2-action:1.0">
      <jdbc-url>jdbc:hive2://hs2.example.com:10000/default</jdbc-url>
      <script>load.sql</script>
      <param>INPUT=${inputDir}</param>
      <param>OUTPUT=${outputDir}</param>
    </hive2>
    <ok to="publish"/>
    <error to="fail"/>
  </action>
  <action name="publish">
    <fs><touchz path="${outputDir}/_SUCCESS"/></fs>
    <ok to="end"/>
    <error to="fail"/>
  </action>
  <kill name="fail"><message>failed at [${wf:errorMessage(wf:lastErrorNode())}]</message></kill>
  <end name="end"/>
</workflow-app>`, appName(i))
}
