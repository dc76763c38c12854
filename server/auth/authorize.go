package auth

import (
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/gozie/gozie/ids"
	"github.com/gozie/gozie/oozieerr"
)

// Permission is what a REST route needs of its caller. Every route declares one when it is
// registered (server.Server.Handle); Decide is the one function that judges it.
type Permission int

// The permissions, from the most open to the most guarded. The zero value is no
// permission at all, which the server refuses to register.
const (
	// PermNone is the zero value: a route that has not declared its permission.
	PermNone Permission = iota
	// PermOpen needs no identity at all: the action callback and /metrics, which are
	// also left out of authentication.
	PermOpen
	// PermRead reads what is not one job's: listings, versions, the system mode, the
	// dashboard. Anonymous callers may read when authentication lets them in.
	PermRead
	// PermReadJob reads one job (info, definition, log, graph). It is PermRead unless
	// Policy.ReadRequiresACL, when it is PermModifyJob's rule.
	PermReadJob
	// PermSubmit creates work of the caller's own: submitting a job, a bulk command
	// (which then acts only on the jobs the caller may modify), a dataset notification.
	// Anonymous callers may not.
	PermSubmit
	// PermModifyJob changes one job: every PUT job/<id> action. Allowed to the job's owner,
	// the users and groups of its ACL, and admins.
	PermModifyJob
	// PermSystemInfo reads the server's configuration, environment and system
	// properties: allowed to everyone when Policy.SystemInfoUsers is empty, else only
	// to those users and admins.
	PermSystemInfo
	// PermAdmin changes the server (system mode, purge, share-library update): admins only.
	PermAdmin
)

// String returns the permission's name, as tests and logs show it.
func (p Permission) String() string {
	switch p {
	case PermOpen:
		return "open"
	case PermRead:
		return "read"
	case PermReadJob:
		return "read-job"
	case PermSubmit:
		return "submit"
	case PermModifyJob:
		return "modify-job"
	case PermSystemInfo:
		return "system-info"
	case PermAdmin:
		return "admin"
	}
	return fmt.Sprintf("Permission(%d)", int(p))
}

// JobScoped reports whether deciding p needs the job the request names.
func (p Permission) JobScoped() bool { return p == PermReadJob || p == PermModifyJob }

// Policy is the authorization configuration.
type Policy struct {
	// Disabled turns authorization off: every authenticated (or anonymous) caller may do
	// everything, as Oozie with its authorization service off.
	Disabled bool
	// ReadRequiresACL makes reading a job need the same rights as modifying it.
	ReadRequiresACL bool
	// AdminUsers and AdminGroups are the administrators.
	AdminUsers, AdminGroups []string
	// SystemInfoUsers, when not empty, are the only users besides admins who may read the
	// server's configuration and environment.
	SystemInfoUsers []string
	// Groups returns the groups of a user; nil means the operating system's (os/user).
	Groups func(user string) ([]string, error)
}

// Job is what deciding about one job needs of it.
type Job struct {
	// ID is the job's id, which names its kind (-W, -C, -B).
	ID string
	// Owner is the user the job runs as.
	Owner string
	// ACL is the job's oozie.job.acl (or group.name): users and groups, separated by
	// commas, allowed to modify it; "*" allows everyone.
	ACL string
}

// Decide reports whether user (empty: anonymous) may do what perm says, on job when perm
// is job-scoped (job must then be non-nil). A refusal is an *Error with Oozie's code.
func (p *Policy) Decide(user string, perm Permission, job *Job) error {
	switch perm {
	case PermNone:
		return &Error{Status: http.StatusInternalServerError, Code: oozieerr.E0501,
			Msg: oozieerr.E0501 + ": Could not perform authorization operation, the route declares no permission"}
	case PermOpen:
		return nil
	}
	if p == nil || p.Disabled {
		return nil
	}
	switch perm {
	case PermRead:
		return nil
	case PermReadJob:
		if !p.ReadRequiresACL {
			return nil
		}
		return p.decideJob(user, job)
	case PermSubmit:
		if user == "" {
			return anonymous()
		}
		return nil
	case PermModifyJob:
		return p.decideJob(user, job)
	case PermSystemInfo:
		if len(p.SystemInfoUsers) == 0 || slices.Contains(p.SystemInfoUsers, user) {
			return nil
		}
		fallthrough
	case PermAdmin:
		if user == "" {
			return anonymous()
		}
		if p.IsAdmin(user) {
			return nil
		}
		return &Error{Status: http.StatusUnauthorized, Code: oozieerr.E0503,
			Msg: fmt.Sprintf("%s: User [%s] does not have admin privileges", oozieerr.E0503, user)}
	}
	return fmt.Errorf("auth: unknown permission %v", perm)
}

// decideJob is the rule of modifying a job: its owner, a user or group of its ACL, or an
// admin; never an anonymous caller.
func (p *Policy) decideJob(user string, job *Job) error {
	if job == nil {
		return fmt.Errorf("auth: deciding a job permission without the job")
	}
	if user == "" {
		return anonymous()
	}
	if user == job.Owner || p.inACL(user, job.ACL) || p.IsAdmin(user) {
		return nil
	}
	code, kind := oozieerr.E0508, "WF"
	if ids.EndsWithKind(job.ID, ids.Coordinator) || ids.EndsWithKind(job.ID, ids.Bundle) {
		code, kind = oozieerr.E0509, "Coord"
	}
	return &Error{Status: http.StatusUnauthorized, Code: code,
		Msg: fmt.Sprintf("%s: User [%s] not authorized for %s job [%s]", code, user, kind, job.ID)}
}

// IsAdmin reports whether user is an administrator, by name or by group.
func (p *Policy) IsAdmin(user string) bool {
	if user == "" || p == nil {
		return false
	}
	if slices.Contains(p.AdminUsers, user) {
		return true
	}
	return len(p.AdminGroups) > 0 && p.inGroups(user, p.AdminGroups)
}

// inACL reports whether user is named in acl, or is a member of a group it names.
func (p *Policy) inACL(user, acl string) bool {
	var entries []string
	for _, e := range strings.Split(acl, ",") {
		if e = strings.TrimSpace(e); e != "" {
			entries = append(entries, e)
		}
	}
	if len(entries) == 0 {
		return false
	}
	if slices.Contains(entries, "*") || slices.Contains(entries, user) {
		return true
	}
	return p.inGroups(user, entries)
}

// inGroups reports whether one of user's groups is in groups; a failed lookup means no.
func (p *Policy) inGroups(user string, groups []string) bool {
	lookup := p.Groups
	if lookup == nil {
		lookup = osGroups
	}
	mine, err := lookup(user)
	if err != nil {
		return false
	}
	for _, g := range mine {
		if slices.Contains(groups, g) {
			return true
		}
	}
	return false
}

func anonymous() *Error {
	return &Error{Status: http.StatusUnauthorized, Code: oozieerr.E0501,
		Msg: oozieerr.E0501 + ": Could not perform authorization operation, anonymous requests may only read; " +
			"authenticate (user.name or Kerberos)"}
}
