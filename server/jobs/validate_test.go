package jobs_test

import (
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gozie/gozie/internal/testapps"
)

// validateCall posts a document to v2/validate as Oozie's client does for a local file.
func (f *fixture) validateCall(t *testing.T, file, doc string) response {
	t.Helper()
	return f.call(t, http.MethodPost, "/oozie/v2/validate?file="+url.QueryEscape(file)+"&user=joe", "application/xml", doc)
}

// TestValidateExamples validates every workflow and coordinator document of the example apps
// (gozie's own, and Oozie's when GOZIE_OOZIE_EXAMPLES names them).
func TestValidateExamples(t *testing.T) {
	t.Parallel()
	f := setup(t)
	testapps.Each(t, func(t *testing.T, root string) { f.validateExamples(t, root) })
}

func (f *fixture) validateExamples(t *testing.T, root string) {
	var files []string
	for _, pattern := range []string{"*/workflow*.xml", "*/coordinator*.xml"} {
		m, err := filepath.Glob(filepath.Join(root, pattern))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < 10 {
		t.Fatalf("only %d example documents under %s", len(files), root)
	}
	for _, file := range files {
		t.Run(strings.TrimPrefix(file, root), func(t *testing.T) {
			doc, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			r := f.validateCall(t, file, string(doc))
			if r.status != http.StatusOK || strings.TrimSpace(r.body) != `{"validate":"Valid workflow-app"}` {
				t.Errorf("%d %s %s", r.status, r.header.Get("oozie-error-message"), r.body)
			}
		})
	}
}

func TestValidateErrors(t *testing.T) {
	t.Parallel()
	f := setup(t)
	broken, err := os.ReadFile(filepath.Join(f.Apps, appBroken, "workflow.xml"))
	if err != nil {
		t.Fatal(err)
	}
	const file = "/home/joe/app/workflow.xml"
	tests := []struct {
		name        string
		path        string
		contentType string
		body        string
		status      int
		code, msg   string
	}{
		{"schema error", "/oozie/v2/validate?file=" + file + "&user=joe", "application/xml", string(broken), 400, "E0701",
			"E0701: XML schema error, " + file + ", element <end> is required in <workflow-app>, found <bogus> (line 3)"},
		{"not well-formed", "/oozie/v2/validate?file=" + file + "&user=joe", "application/xml", "<workflow-app", 400, "E0701",
			"E0701: XML schema error, " + file + ", the document is not well-formed XML: XML syntax error on line 1: unexpected EOF"},
		{"empty", "/oozie/v2/validate?file=" + file + "&user=joe", "application/xml", "", 400, "E0701",
			"E0701: XML schema error, " + file + ", the document has no root element"},
		{"bundles cannot be checked yet", "/oozie/v2/validate?file=b.xml&user=joe", "application/xml",
			`<bundle-app xmlns="uri:oozie:bundle:0.2" name="b"><coordinator name="c"><app-path>/c</app-path></coordinator></bundle-app>`,
			400, "E0701", "E0701: XML schema error, b.xml, validating bundle-app documents is not supported yet"},
		{"remote file that cannot be read", "/oozie/v2/validate?file=hdfs://127.0.0.1:1/wf.xml&user=joe", "application/xml", "", 400, "E0505",
			"E0505: App definition [File does not exist, hdfs://127.0.0.1:1/wf.xml] does not exist"},
		{"remote file on a filesystem the server does not reach", "/oozie/v2/validate?file=webhdfs://nn/wf.xml&user=joe", "application/xml", "", 400, "E0904",
			"E0904: Scheme [webhdfs] not supported in uri [webhdfs://nn/wf.xml]"},
		{"a local file in capitals is the client's to send", "/oozie/v2/validate?file=FILE:///etc/passwd&user=joe", "application/xml", "", 400, "E0701",
			"E0701: XML schema error, FILE:///etc/passwd, the document has no root element"},
		{"no file", "/oozie/v2/validate?user=joe", "application/xml", "<a/>", 400, "E0305", "E0305: Missing parameter [file]"},
		{"no user", "/oozie/v2/validate?file=x.xml", "application/xml", "<a/>", 400, "E0305", "E0305: Missing parameter [user]"},
		{"not XML", "/oozie/v2/validate?file=x.xml&user=joe", "text/xml", "<a/>", 400, "E0300", "E0300: Invalid content-type [text/xml]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkError(t, f.call(t, http.MethodPost, tt.path, tt.contentType, tt.body), tt.status, tt.code, tt.msg)
		})
	}
}

func TestValidateUnknownDocument(t *testing.T) {
	t.Parallel()
	f := setup(t)
	r := f.validateCall(t, "x.xml", `<configuration><property><name>a</name><value>b</value></property></configuration>`)
	if r.status != http.StatusBadRequest || r.header.Get("oozie-error-code") != "E0701" ||
		!strings.HasPrefix(r.header.Get("oozie-error-message"), "E0701: XML schema error, x.xml, ") {
		t.Errorf("%d %q", r.status, r.header.Get("oozie-error-message"))
	}
}
