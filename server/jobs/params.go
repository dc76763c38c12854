package jobs

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/ids"
	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/oozietime"
	"github.com/gozie/gozie/server"
	"github.com/gozie/gozie/server/oozieapi"
)

// Query parameters, as Oozie names them.
const (
	paramAction   = "action"
	paramShow     = "show"
	paramJobType  = "jobtype"
	paramFilter   = "filter"
	paramOffset   = "offset"
	paramLen      = "len"
	paramTimezone = "timezone"
	paramID       = "id"
	paramStatus   = "status"
	paramFile     = "file"
	paramUser     = "user"
)

// Content types of request and response bodies, and the bound on a configuration body.
const (
	xmlContentType     = "application/xml"
	textContentType    = "text/plain;charset=UTF-8"
	xmlResponseType    = "application/xml;charset=UTF-8"
	maxConfigBodyBytes = 16 << 20
)

// requireXML refuses a request body that is not application/xml (parameters such as
// charset aside), with Oozie's 400 E0300 naming the type sent.
func requireXML(r *http.Request) error {
	ct := r.Header.Get("Content-Type")
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil || mt != xmlContentType {
		shown := strings.ToLower(strings.TrimSpace(strings.SplitN(ct, ";", 2)[0]))
		if shown == "" {
			shown = "null"
		}
		return server.ErrInvalidContentType(shown)
	}
	return nil
}

// readBody reads a request body of at most limit bytes.
func readBody(r *http.Request, limit int64) ([]byte, error) {
	b, err := io.ReadAll(http.MaxBytesReader(nil, r.Body, limit))
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return nil, server.NewError(http.StatusRequestEntityTooLarge, oozieerr.E0303,
			"Invalid parameter value, [body] = [larger than %d bytes]", limit)
	}
	if err != nil {
		return nil, fmt.Errorf("reading request body: %w", err)
	}
	return b, nil
}

// readConfiguration reads an XML job configuration from the request body: 400 E0300 unless
// the body is application/xml, 400 E0700 when it is not a valid configuration document.
func readConfiguration(r *http.Request) (*conf.Properties, error) {
	if err := requireXML(r); err != nil {
		return nil, err
	}
	body, err := readBody(r, maxConfigBodyBytes)
	if err != nil {
		return nil, err
	}
	props, err := conf.ReadConfigurationXML(bytes.NewReader(body), "configuration")
	if err != nil {
		return nil, server.NewError(http.StatusBadRequest, oozieerr.E0700, "XML error, %s", err)
	}
	return props, nil
}

// intParam reads an optional integer parameter; absent or empty means def.
func intParam(q url.Values, name string, def int) (int, error) {
	s := strings.TrimSpace(q.Get(name))
	if s == "" {
		return def, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, server.ErrInvalidParamValue(name, q.Get(name))
	}
	return n, nil
}

// pageParams reads Oozie's 1-based offset (default 1; 0 means 1) and len (default defLen;
// 0 means defLen). Negative values are refused with 400 E0303, where Oozie reads them as
// the defaults: a client sending one has a bug worth seeing.
func pageParams(q url.Values, defLen int) (offset, length int, err error) {
	if offset, err = offsetParam(q); err != nil {
		return 0, 0, err
	}
	if length, err = intParam(q, paramLen, defLen); err != nil {
		return 0, 0, err
	}
	if length < 0 {
		return 0, 0, server.ErrInvalidParamValue(paramLen, q.Get(paramLen))
	}
	return offset, orDefault(length, defLen), nil
}

// offsetParam reads the 1-based offset: default 1, 0 means 1, negative is 400 E0303.
func offsetParam(q url.Values) (int, error) {
	offset, err := intParam(q, paramOffset, 1)
	if err != nil {
		return 0, err
	}
	if offset < 0 {
		return 0, server.ErrInvalidParamValue(paramOffset, q.Get(paramOffset))
	}
	return max(offset, 1), nil
}

// orDefault returns n, or def when n is below 1.
func orDefault(n, def int) int {
	if n < 1 {
		return def
	}
	return n
}

// zoneParam returns the zone dates are written in: the timezone parameter resolved with
// Java's rules, GMT when absent. An id Java rejects is 400 E0303.
func zoneParam(q url.Values) (*time.Location, error) {
	id := q.Get(paramTimezone)
	if id == "" {
		return oozieapi.GMT, nil
	}
	loc, err := oozietime.LoadZone(id)
	if err != nil {
		return nil, server.ErrInvalidParamValue(paramTimezone, id)
	}
	return loc, nil
}

// errNotSupported answers a request for something Oozie offers and gozie does not serve
// yet, the way Oozie itself refuses unsupported operations (E0302 "Invalid parameter [...]").
func errNotSupported(what string) *server.Error {
	return server.NewError(http.StatusBadRequest, oozieerr.E0302, "Invalid parameter [%s is not supported yet]", what)
}

// errJobNotFound is 404 E0604 for an id that names no job.
func errJobNotFound(id string) *server.Error {
	return server.NewError(http.StatusNotFound, oozieerr.E0604, "Job does not exist [%s]", id)
}

// errActionNotFound is 404 E0605 for an id that names no action.
func errActionNotFound(id string) *server.Error {
	return server.NewError(http.StatusNotFound, oozieerr.E0605, "Action does not exist [%s]", id)
}

// idKind is what a job or action id names, told by its suffix as Oozie does.
type idKind int

const (
	idUnknown        idKind = iota
	idWorkflow              // <seq>-<start>-<system>-W
	idWorkflowAction        // ...-W@<node>
	idCoordinator           // ...-C
	idCoordAction           // ...-C@<n>
	idBundle                // ...-B
)

// kindOfID classifies an id by its text, as Oozie does (ids.HasActionOf, ids.EndsWithKind).
func kindOfID(id string) idKind {
	switch {
	case ids.HasActionOf(id, ids.Workflow):
		return idWorkflowAction
	case ids.HasActionOf(id, ids.Coordinator):
		return idCoordAction
	case ids.EndsWithKind(id, ids.Workflow):
		return idWorkflow
	case ids.EndsWithKind(id, ids.Coordinator):
		return idCoordinator
	case ids.EndsWithKind(id, ids.Bundle):
		return idBundle
	}
	return idUnknown
}

// notSupportedKind answers a coordinator or bundle id, or reports false for other ids.
func notSupportedKind(k idKind) (*server.Error, bool) {
	switch k {
	case idCoordinator, idCoordAction:
		return errNotSupported("coordinator jobs"), true
	case idBundle:
		return errNotSupported("bundle jobs"), true
	case idUnknown, idWorkflow, idWorkflowAction:
		return nil, false
	}
	return nil, false
}
