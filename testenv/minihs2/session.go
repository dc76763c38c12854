package minihs2

import (
	"maps"
	"strings"
	"sync"

	"github.com/beltran/gohive/hiveserver"
)

// session is one client session: its user, current database, hiveconf
// settings and hivevars.
type session struct {
	id     string // hex of the handle's GUID
	handle *hiveserver.TSessionHandle
	user   string // whom the session acts for
	// realUser is who authenticated (a Kerberos principal, or the PLAIN
	// user); it differs from user for a proxy session.
	realUser string
	conn     *connState // the binary connection that opened it; nil over HTTP

	mu   sync.Mutex
	db   string
	conf map[string]string
	vars map[string]string
}

// snapshot returns the current database and a copy of the configuration.
func (s *session) snapshot() (string, map[string]string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.db, maps.Clone(s.conf)
}

func (s *session) setDatabase(db string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.db = db
}

// set applies SET key=value: "hivevar:" keys are variables, "hiveconf:"
// and bare keys configuration; "system:" and "env:" keys are accepted and
// ignored (MiniHS2 has no JVM properties to set).
func (s *session) set(key, value string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case strings.HasPrefix(key, "hivevar:"):
		s.vars[strings.TrimPrefix(key, "hivevar:")] = value
	case strings.HasPrefix(key, "hiveconf:"):
		s.conf[strings.TrimPrefix(key, "hiveconf:")] = value
	case strings.HasPrefix(key, "system:"), strings.HasPrefix(key, "env:"):
	default:
		s.conf[key] = value
	}
}

// get reads a setting for SET key.
func (s *session) get(key string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if k, ok := strings.CutPrefix(key, "hivevar:"); ok {
		v, ok := s.vars[k]
		return v, ok
	}
	v, ok := s.conf[strings.TrimPrefix(key, "hiveconf:")]
	return v, ok
}

// setting reads one configuration value ("" when unset).
func (s *session) setting(key string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.conf[key]
}

// configure applies OpenSession's configuration the way HiveServer2 does:
// "use:database" picks the database, "set:hiveconf:k" and "set:hivevar:k"
// set configuration and variables (the JDBC driver's spelling), and other
// keys are configuration.
func (s *session) configure(conf map[string]string) (db string) {
	for k, v := range conf {
		switch {
		case k == "use:database":
			db = v
		case strings.HasPrefix(k, "set:"):
			s.set(strings.TrimPrefix(k, "set:"), v)
		default:
			s.set(k, v)
		}
	}
	return db
}
