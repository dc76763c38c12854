package bundle

import (
	"strings"
	"testing"

	"github.com/gozie/gozie/oozieerr"
)

const doc02 = `<bundle-app name="${bundleName}" xmlns="uri:oozie:bundle:0.2">
  <parameters>
    <property><name>bundleName</name><value>nightly</value></property>
    <property><name>queue</name><description>no default</description></property>
  </parameters>
  <controls>
    <kick-off-time>${kickOff}</kick-off-time>
  </controls>
  <coordinator name="load" critical="true">
    <app-path>${nameNode}/apps/load</app-path>
    <configuration>
      <property><name>start</name><value> ${start} </value><description>d</description></property>
    </configuration>
  </coordinator>
  <coordinator name="agg-${suffix}" enabled="${aggEnabled}">
    <app-path>${nameNode}/apps/agg/coordinator.xml</app-path>
  </coordinator>
</bundle-app>`

func TestParse(t *testing.T) {
	t.Parallel()
	app, err := Parse([]byte(doc02))
	if err != nil {
		t.Fatal(err)
	}
	if app.Version != "0.2" || app.Name != "${bundleName}" || app.KickOffTime != "${kickOff}" {
		t.Fatalf("app = %+v", app)
	}
	if len(app.Parameters) != 2 || app.Parameters[0] != (Parameter{Name: "bundleName", Value: "nightly", HasValue: true}) ||
		app.Parameters[1].HasValue {
		t.Fatalf("parameters = %+v", app.Parameters)
	}
	if len(app.Coordinators) != 2 {
		t.Fatalf("coordinators = %+v", app.Coordinators)
	}
	load, agg := app.Coordinators[0], app.Coordinators[1]
	if load.Name != "load" || !load.HasCritical || load.Critical != "true" || load.HasEnabled ||
		load.AppPath != "${nameNode}/apps/load" || len(load.Configuration) != 1 || load.Configuration[0].Value != "${start}" {
		t.Errorf("load = %+v", load)
	}
	if agg.Name != "agg-${suffix}" || !agg.HasEnabled || agg.Enabled != "${aggEnabled}" || agg.Configuration != nil || agg.Line != 15 {
		t.Errorf("agg = %+v", agg)
	}
}

func TestParseErrors(t *testing.T) {
	t.Parallel()
	const ns1, ns2 = `xmlns="uri:oozie:bundle:0.1"`, `xmlns="uri:oozie:bundle:0.2"`
	coord := `<coordinator name="c"><app-path>/a</app-path></coordinator>`
	tests := []struct {
		name, doc  string
		code       oozieerr.Code
		where, msg string
	}{
		{"not XML", `<bundle-app`, oozieerr.E0700, "", "malformed"},
		{"empty", ``, oozieerr.E0700, "", "empty document"},
		{"doctype", `<!DOCTYPE x [<!ENTITY a "b">]><bundle-app ` + ns2 + ` name="b">` + coord + `</bundle-app>`, oozieerr.E0700, "line 1", "DOCTYPE"},
		{"wrong root", `<coordinator-app xmlns="uri:oozie:coordinator:0.2"/>`, oozieerr.E0701, "<coordinator-app>", "must be <bundle-app>"},
		{"unknown version", `<bundle-app xmlns="uri:oozie:bundle:0.3" name="b">` + coord + `</bundle-app>`, oozieerr.E0701, "<bundle-app>", "0.1 or 0.2"},
		{"no namespace", `<bundle-app name="b">` + coord + `</bundle-app>`, oozieerr.E0701, "<bundle-app>", "namespace"},
		{"no name", `<bundle-app ` + ns2 + `>` + coord + `</bundle-app>`, oozieerr.E0701, "<bundle-app>", `"name" is required`},
		{"unknown attribute", `<bundle-app ` + ns2 + ` name="b" when="x">` + coord + `</bundle-app>`, oozieerr.E0701, "<bundle-app>", `"when" is not allowed`},
		{"no coordinator", `<bundle-app ` + ns2 + ` name="b"><controls/></bundle-app>`, oozieerr.E0701, "<bundle-app>", "<coordinator> is missing"},
		{"controls after coordinator", `<bundle-app ` + ns2 + ` name="b">` + coord + `<controls/></bundle-app>`, oozieerr.E0701, "line 1 <controls>", "not allowed here"},
		{"parameters in 0.1", `<bundle-app ` + ns1 + ` name="b"><parameters><property><name>a</name></property></parameters>` + coord + `</bundle-app>`,
			oozieerr.E0701, "<parameters>", "unexpected element <parameters> in <bundle-app>, expected <controls> or <coordinator>"},
		{"enabled in 0.1", `<bundle-app ` + ns1 + ` name="b"><coordinator name="c" enabled="false"><app-path>/a</app-path></coordinator></bundle-app>`,
			oozieerr.E0701, "<coordinator>", `"enabled" is not allowed`},
		{"0.1 name not an identifier", `<bundle-app ` + ns1 + ` name="b"><coordinator name="${c}"><app-path>/a</app-path></coordinator></bundle-app>`,
			oozieerr.E0701, "<coordinator>", "not an identifier"},
		{"coordinator without name", `<bundle-app ` + ns2 + ` name="b"><coordinator><app-path>/a</app-path></coordinator></bundle-app>`,
			oozieerr.E0701, "<coordinator>", `"name" is required`},
		{"no app-path", `<bundle-app ` + ns2 + ` name="b"><coordinator name="c"/></bundle-app>`, oozieerr.E0701, "<coordinator>", "<app-path> is missing"},
		{"two app-paths", `<bundle-app ` + ns2 + ` name="b"><coordinator name="c"><app-path>/a</app-path><app-path>/b</app-path></coordinator></bundle-app>`,
			oozieerr.E0701, "<app-path>", "too many <app-path>"},
		{"property without value", `<bundle-app ` + ns2 + ` name="b"><coordinator name="c"><app-path>/a</app-path><configuration><property><name>x</name></property></configuration></coordinator></bundle-app>`,
			oozieerr.E0701, "<property>", "<value> is missing"},
		{"empty configuration", `<bundle-app ` + ns2 + ` name="b"><coordinator name="c"><app-path>/a</app-path><configuration/></coordinator></bundle-app>`,
			oozieerr.E0701, "<configuration>", "<property> is missing"},
		{"element in app-path", `<bundle-app ` + ns2 + ` name="b"><coordinator name="c"><app-path><x/></app-path></coordinator></bundle-app>`,
			oozieerr.E0701, "<x>", "no element is allowed"},
		{"text in bundle-app", `<bundle-app ` + ns2 + ` name="b">hello` + coord + `</bundle-app>`, oozieerr.E0701, "<bundle-app>", "text is not allowed"},
		{"foreign element", `<bundle-app ` + ns2 + ` name="b"><x:controls xmlns:x="urn:x"/>` + coord + `</bundle-app>`, oozieerr.E0701, "<controls>", "namespace"},
		{"misspelled coordinator", `<bundle-app ` + ns2 + ` name="b"><coordinatr name="c"><app-path>/a</app-path></coordinatr></bundle-app>`,
			oozieerr.E0701, "line 1 <coordinatr>", "unexpected element <coordinatr> in <bundle-app>, expected <parameters>, <controls> or <coordinator>"},
		{"misspelled app-path", `<bundle-app ` + ns2 + ` name="b"><coordinator name="c"><app-pth>/a</app-pth></coordinator></bundle-app>`,
			oozieerr.E0701, "line 1 <app-pth>", "unexpected element <app-pth> in <coordinator>, expected <app-path>"},
		{"attribute in another namespace", `<bundle-app ` + ns2 + ` xmlns:x="uri:x" name="b"><coordinator name="c" x:when="now"><app-path>/a</app-path></coordinator></bundle-app>`,
			oozieerr.E0701, "line 1 <coordinator>", `attribute "when" in namespace "uri:x" is not allowed`},
		{"two kick-off times", `<bundle-app ` + ns2 + ` name="b"><controls><kick-off-time>a</kick-off-time><kick-off-time>b</kick-off-time></controls>` + coord + `</bundle-app>`,
			oozieerr.E0701, "<kick-off-time>", "too many"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := Parse([]byte(tc.doc))
			if err == nil {
				t.Fatal("no error")
			}
			e, ok := err.(*Error)
			if !ok {
				t.Fatalf("error %T %v, want *Error", err, err)
			}
			if e.Code != tc.code || !strings.Contains(e.Where, tc.where) || !strings.Contains(e.Error(), tc.msg) {
				t.Errorf("error = %v (code %s, where %q); want code %s, where containing %q, message containing %q",
					err, e.Code, e.Where, tc.code, tc.where, tc.msg)
			}
		})
	}
}

func TestParseSchema01(t *testing.T) {
	t.Parallel()
	app, err := Parse([]byte(`<bundle-app name='b' xmlns:xsi='http://www.w3.org/2001/XMLSchema-instance' xmlns='uri:oozie:bundle:0.1'>
  <controls><kick-off-time>2010-01-01T00:00Z</kick-off-time></controls>
  <coordinator name='coord-1' critical='false'><app-path>/apps/c</app-path></coordinator>
</bundle-app>`))
	if err != nil {
		t.Fatal(err)
	}
	if app.Version != "0.1" || app.KickOffTime != "2010-01-01T00:00Z" || app.Coordinators[0].Name != "coord-1" ||
		app.Coordinators[0].Critical != "false" {
		t.Fatalf("app = %+v", app)
	}
}

// TestParseSchemaInstanceAttributes: xsi: attributes are accepted on any element, as
// Oozie's XSD validation accepts them.
func TestParseSchemaInstanceAttributes(t *testing.T) {
	t.Parallel()
	const loc = ` xsi:schemaLocation="uri:oozie:bundle:0.2 bundle.xsd"`
	doc := `<bundle-app xmlns="uri:oozie:bundle:0.2" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" name="b"` + loc + `>
  <controls` + loc + `><kick-off-time` + loc + `>2025-01-01T00:00Z</kick-off-time></controls>
  <coordinator name="c" critical="true"` + loc + `><app-path xsi:nil="false">/a</app-path>
    <configuration` + loc + `><property` + loc + `><name>k</name><value` + loc + `>v</value></property></configuration>
  </coordinator>
</bundle-app>`
	app, err := Parse([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	if len(app.Coordinators) != 1 || app.Coordinators[0].AppPath != "/a" || app.Coordinators[0].Critical != "true" {
		t.Errorf("coordinators %+v", app.Coordinators)
	}
}
