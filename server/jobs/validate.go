package jobs

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/gozie/gozie/bundle"
	"github.com/gozie/gozie/coordinator"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/server"
	"github.com/gozie/gozie/server/auth"
	"github.com/gozie/gozie/server/oozieapi"
	"github.com/gozie/gozie/workflow"
)

// maxDocumentBytes bounds a document sent to validate.
const maxDocumentBytes = 4 << 20

// validate serves POST v2/validate?file=<path>&user=<user>: the body is the document (for a
// local file) or empty (for a file on a remote filesystem, read through Deps.FS). A workflow,
// coordinator or bundle document that follows its schema is {"validate":"Valid
// workflow-app"}; any failure is 400 E0701 "XML schema error, <file>, <reason>", as in Oozie.
// Workflows are checked by their schema only, like Oozie's validate; submission checks more
// (the graph, parameters). One thing more is said of a valid workflow: when it has actions
// of types gozie does not run, the answer is a warning naming them (see unsupportedWarning)
// instead of "Valid", since a submission would be refused with E0723.
func (a *api) validate(w http.ResponseWriter, r *http.Request) error {
	if err := requireXML(r); err != nil {
		return err
	}
	q := r.URL.Query()
	file := q.Get(paramFile)
	if file == "" {
		return server.ErrMissingParam(paramFile)
	}
	if q.Get(paramUser) == "" {
		return server.ErrMissingParam(paramUser)
	}
	var doc []byte
	var err error
	if isRemote(file) {
		doc, err = a.readRemote(r, file)
	} else {
		doc, err = readBody(r, maxDocumentBytes)
	}
	if err != nil {
		return err
	}
	unsupported, err := a.validateDocument(doc)
	if err != nil {
		return server.NewError(http.StatusBadRequest, oozieerr.E0701, "XML schema error, %s, %s", file, withoutCode(err))
	}
	verdict := oozieapi.ValidMessage
	if len(unsupported) > 0 {
		verdict = unsupportedWarning(unsupported)
	}
	return server.WriteJSON(w, http.StatusOK, oozieapi.Validation{Validate: verdict})
}

// unsupportedWarning is the validate answer for a workflow that follows its schema but
// has actions gozie does not run: "Warning: " and each action's E0723 message, so that any
// client printing the answer (Oozie's CLI as gozie's) shows it in place of "Valid".
func unsupportedWarning(unsupported []*workflow.Error) string {
	msgs := make([]string, len(unsupported))
	for i, e := range unsupported {
		msgs[i] = e.Error()
	}
	return "Warning: the workflow-app follows its schema, but a submission would be refused: " + strings.Join(msgs, "; ")
}

// isRemote reports whether a validate file names a remote filesystem (hdfs://...), whose
// document the server reads itself; a local file (file://, in any case) is sent by the client.
func isRemote(file string) bool {
	return strings.Contains(file, "://") && hadoop.Scheme(file) != "file"
}

// readRemote reads a document from the server's filesystem; any failure is Oozie's 400
// E0505 "App definition [File does not exist, <file>] does not exist".
func (a *api) readRemote(r *http.Request, file string) ([]byte, error) {
	if a.FS == nil {
		return nil, errors.New("validating remote files needs a filesystem (jobs.Deps.FS)")
	}
	if err := hadoop.CheckScheme(a.FS, file); err != nil {
		return nil, err // E0904: a filesystem the server refuses
	}
	// Read as the caller: a document the caller may not read is not validated.
	f, err := a.FS.Open(hadoop.AsUser(r.Context(), auth.User(r)), file)
	if err != nil {
		a.Logger.Warn("validate: reading document", "file", file, "error", err)
		return nil, server.NewError(http.StatusBadRequest, oozieerr.E0505, "App definition [File does not exist, %s] does not exist", file)
	}
	defer f.Close()
	doc, err := io.ReadAll(io.LimitReader(f, maxDocumentBytes+1))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", file, err)
	}
	if len(doc) > maxDocumentBytes {
		return nil, server.NewError(http.StatusBadRequest, oozieerr.E0701, "XML schema error, %s, larger than %d bytes", file, maxDocumentBytes)
	}
	return doc, nil
}

// validateDocument checks a document against the schema its root element names. For a
// valid workflow it also returns the actions gozie does not run (E0723 errors), by the
// server's executors (Deps.WorkflowOptions). SLA documents cannot be checked yet and are
// reported as such.
func (a *api) validateDocument(doc []byte) ([]*workflow.Error, error) {
	root, err := rootElement(doc)
	if err != nil {
		return nil, err
	}
	switch {
	case root.Local == "workflow-app" && strings.HasPrefix(root.Space, "uri:oozie:workflow:"):
		app, err := workflow.Parse(doc)
		if err != nil {
			return nil, err
		}
		return app.UnsupportedActions(a.WorkflowOptions), nil
	case root.Local == "coordinator-app" && strings.HasPrefix(root.Space, "uri:oozie:coordinator:"):
		_, err := coordinator.Parse(doc)
		return nil, err
	case root.Local == "bundle-app" && strings.HasPrefix(root.Space, bundle.NamespacePrefix):
		_, err := bundle.Parse(doc)
		return nil, err
	case root.Local == "sla-info" || root.Local == "event":
		return nil, fmt.Errorf("validating %s documents is not supported yet", root.Local)
	}
	// Oozie reports the workflow schema's complaint for a document no schema declares.
	_, err = workflow.Parse(doc)
	if err == nil {
		err = fmt.Errorf("element <%s> in namespace [%s] is not a workflow, coordinator or bundle application", root.Local, root.Space)
	}
	return nil, err
}

// rootElement returns the name of a document's first element.
func rootElement(doc []byte) (xml.Name, error) {
	d := xml.NewDecoder(bytes.NewReader(doc))
	for {
		tok, err := d.Token()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return xml.Name{}, errors.New("the document has no root element")
			}
			return xml.Name{}, fmt.Errorf("the document is not well-formed XML: %w", err)
		}
		if se, ok := tok.(xml.StartElement); ok {
			return se.Name, nil
		}
	}
}

// withoutCode is a parser error's text without its Oozie code and without the "XML schema
// error, " a workflow schema error's message starts with (workflow.Detail), for embedding in
// the E0701 answer; any other error's whole text.
func withoutCode(err error) string { return workflow.Detail(err) }
