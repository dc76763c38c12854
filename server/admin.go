package server

import (
	"maps"
	"net/http"
	"regexp"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/server/auth"
)

// adminPath is the admin servlet of API versions 1 and 2.
const adminPath = "/v{version:[12]}/admin"

// systemModeParam is the query parameter of PUT admin/status.
const systemModeParam = "systemmode"

// registerAdmin registers /versions and the admin endpoints. Admin endpoints stay fully
// usable in every system mode, so that the mode can always be changed back.
func (s *Server) registerAdmin() {
	s.Handle(http.MethodGet, "/versions", auth.PermRead, s.versions)
	admin := AllowInSafeMode()
	s.Handle(http.MethodGet, adminPath+"/status", auth.PermRead, s.getStatus, admin)
	s.Handle(http.MethodPut, adminPath+"/status", auth.PermAdmin, s.putStatus, admin)
	s.Handle(http.MethodGet, adminPath+"/build-version", auth.PermRead, s.buildVersion, admin)
	s.Handle(http.MethodGet, adminPath+"/configuration", auth.PermSystemInfo, s.configuration, admin)
	s.Handle(http.MethodGet, adminPath+"/available-timezones", auth.PermRead, s.availableTimezones, admin)
}

// ErrNotSupportedInV1 is Oozie's answer to a request that only API version 2 serves
// (admin/metrics, available-oozie-servers, an ignore, an action's retries...): 400
// "E0302: Invalid parameter [Not supported in v1]", in V1AdminServlet's and V1JobServlet's
// words.
func ErrNotSupportedInV1() *Error {
	return ErrInvalidParam("Not supported in v1")
}

// versions serves GET /versions: the REST API versions, as Oozie lists them.
func (s *Server) versions(w http.ResponseWriter, _ *http.Request) error {
	return WriteJSON(w, http.StatusOK, []int{0, 1, 2})
}

// getStatus serves GET admin/status. The systemmode parameter belongs to PUT only, and Oozie
// rejects it on GET with E0302.
func (s *Server) getStatus(w http.ResponseWriter, r *http.Request) error {
	if r.URL.Query().Has(systemModeParam) {
		return ErrInvalidParam(systemModeParam)
	}
	return WriteJSON(w, http.StatusOK, map[string]string{"systemMode": string(s.SystemMode())})
}

// putStatus serves PUT admin/status?systemmode=NORMAL|NOWEBSERVICE|SAFEMODE.
func (s *Server) putStatus(w http.ResponseWriter, r *http.Request) error {
	values, ok := r.URL.Query()[systemModeParam]
	if !ok {
		return ErrMissingParam(systemModeParam)
	}
	mode, ok := ParseSystemMode(values[0])
	if !ok {
		return ErrInvalidParamValue(systemModeParam, values[0])
	}
	if err := s.SetSystemMode(mode); err != nil {
		return err
	}
	w.WriteHeader(http.StatusOK)
	return nil
}

// buildVersion serves GET admin/build-version.
func (s *Server) buildVersion(w http.ResponseWriter, _ *http.Request) error {
	return WriteJSON(w, http.StatusOK, s.cfg.Build.json())
}

// configuration serves GET admin/configuration with secrets masked.
func (s *Server) configuration(w http.ResponseWriter, _ *http.Request) error {
	var cfg map[string]string
	if s.cfg.Configuration != nil {
		cfg = s.cfg.Configuration()
	}
	return WriteJSON(w, http.StatusOK, MaskSecrets(cfg))
}

// secretKeyPattern matches configuration keys whose values must never be shown.
var secretKeyPattern = regexp.MustCompile(`(?i)pass(word|wd)?|secret|token|credential|private[._-]?key`)

// Masked replaces the value of a secret configuration key.
const Masked = "*****"

// MaskSecrets returns a copy of cfg fit for display: values of keys that name a password,
// secret, token, credential or private key become Masked, and passwords embedded in other
// values (such as a database URL) are redacted.
func MaskSecrets(cfg map[string]string) map[string]string {
	out := maps.Clone(cfg)
	if out == nil {
		out = map[string]string{}
	}
	for k, v := range out {
		if secretKeyPattern.MatchString(k) {
			out[k] = Masked
			continue
		}
		out[k] = conf.RedactPassword(v)
	}
	return out
}
