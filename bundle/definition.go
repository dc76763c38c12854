package bundle

import (
	"encoding/xml"
	"fmt"
	"strings"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/oozietime"
)

// DefinitionXML renders the resolved bundle as a bundle document of its namespace, with
// every EL expression replaced by its value: what the engine stores, reads back at kick-off
// (LoadJob) and what a dry run shows. The kick-off time is written in the processing time
// zone's format; parameters are left out, their defaults being in the configuration.
func (j *Job) DefinitionXML(format oozietime.Format) string {
	var b strings.Builder
	fmt.Fprintf(&b, "<bundle-app xmlns=\"%s\" name=\"%s\">\n", escape(j.Namespace), escape(j.Name))
	if !j.KickoffTime.IsZero() {
		fmt.Fprintf(&b, "  <controls>\n    <kick-off-time>%s</kick-off-time>\n  </controls>\n", escape(format.Format(j.KickoffTime)))
	}
	for _, c := range j.Coordinators {
		fmt.Fprintf(&b, "  <coordinator name=\"%s\"", escape(c.Name))
		if c.Critical {
			b.WriteString(` critical="true"`)
		}
		if !c.Enabled {
			b.WriteString(` enabled="false"`)
		}
		fmt.Fprintf(&b, ">\n    <app-path>%s</app-path>\n", escape(c.AppPath))
		if c.Conf.Len() > 0 {
			b.WriteString("    <configuration>\n")
			for k, v := range c.Conf.All() {
				fmt.Fprintf(&b, "      <property>\n        <name>%s</name>\n        <value>%s</value>\n      </property>\n",
					escape(k), escape(v))
			}
			b.WriteString("    </configuration>\n")
		}
		b.WriteString("  </coordinator>\n")
	}
	b.WriteString("</bundle-app>\n")
	return b.String()
}

// escape escapes text for an XML attribute or element.
func escape(s string) string {
	var b strings.Builder
	_ = xml.EscapeText(&b, []byte(s))
	return b.String()
}

// LoadJob reads back a definition written by DefinitionXML: the values are taken as they
// are, with no EL evaluated again, and props is the stored job configuration.
func LoadJob(definition string, props *conf.Properties, format oozietime.Format) (*Job, error) {
	app, err := Parse([]byte(definition))
	if err != nil {
		return nil, fmt.Errorf("reading a stored bundle definition: %w", err)
	}
	job := &Job{Namespace: app.Namespace, Name: strings.TrimSpace(app.Name), Conf: props}
	if k := strings.TrimSpace(app.KickOffTime); k != "" {
		if job.KickoffTime, err = format.Parse(k); err != nil {
			return nil, fmt.Errorf("reading a stored bundle definition: kick-off-time %q: %w", k, err)
		}
	}
	for _, def := range app.Coordinators {
		c := Coordinator{Name: def.Name, AppPath: def.AppPath, Critical: def.HasCritical && def.Critical == "true",
			Enabled: !def.HasEnabled || def.Enabled == "true", Conf: &conf.Properties{}}
		for _, p := range def.Configuration {
			c.Conf.Set(p.Name, p.Value)
		}
		job.Coordinators = append(job.Coordinators, c)
	}
	return job, nil
}
