package auth_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/gozie/gozie/oozieerr"
	"github.com/gozie/gozie/server/auth"
)

// TestDecide is the table of who may do what: callers (owner, ACL user, ACL group member,
// other user, anonymous, admin by name, admin by group) against every permission, on a
// workflow, a coordinator and a bundle.
func TestDecide(t *testing.T) {
	t.Parallel()
	groups := map[string][]string{
		"erin":  {"etl", "users"},
		"frank": {"ops"},
		"bob":   {"users"},
	}
	lookup := func(u string) ([]string, error) {
		if g, ok := groups[u]; ok {
			return g, nil
		}
		return nil, fmt.Errorf("no such user %s", u)
	}
	policy := &auth.Policy{AdminUsers: []string{"root"}, AdminGroups: []string{"ops"}, Groups: lookup}
	strict := &auth.Policy{AdminUsers: []string{"root"}, ReadRequiresACL: true, SystemInfoUsers: []string{"monitor"}, Groups: lookup}
	off := &auth.Policy{Disabled: true}
	wf := &auth.Job{ID: "0000001-261127000000000-gozie-alice-W", Owner: "alice", ACL: "carol, etl"}
	coord := &auth.Job{ID: "0000002-261127000000000-gozie-alice-C", Owner: "alice", ACL: "carol"}
	bundle := &auth.Job{ID: "0000003-261127000000000-gozie-alice-B", Owner: "alice"}
	open := &auth.Job{ID: "0000004-261127000000000-gozie-alice-W", Owner: "alice", ACL: "*"}

	const ok = ""
	tests := []struct {
		policy *auth.Policy
		user   string
		perm   auth.Permission
		job    *auth.Job
		want   string // "" or the refusal's Oozie code
	}{
		// Open and read routes: everyone, anonymous included.
		{policy, "", auth.PermOpen, nil, ok},
		{policy, "", auth.PermRead, nil, ok},
		{policy, "", auth.PermReadJob, wf, ok},
		{policy, "bob", auth.PermReadJob, wf, ok},
		// Submitting needs a user.
		{policy, "", auth.PermSubmit, nil, oozieerr.E0501},
		{policy, "bob", auth.PermSubmit, nil, ok},
		// Modifying a job: owner, ACL user, ACL group member, admin by name and by group.
		{policy, "alice", auth.PermModifyJob, wf, ok},
		{policy, "carol", auth.PermModifyJob, wf, ok},
		{policy, "erin", auth.PermModifyJob, wf, ok},
		{policy, "root", auth.PermModifyJob, wf, ok},
		{policy, "frank", auth.PermModifyJob, wf, ok},
		{policy, "bob", auth.PermModifyJob, wf, oozieerr.E0508},
		{policy, "", auth.PermModifyJob, wf, oozieerr.E0501},
		{policy, "nobody", auth.PermModifyJob, wf, oozieerr.E0508}, // no groups known
		{policy, "bob", auth.PermModifyJob, open, ok},
		// Coordinators and bundles answer E0509.
		{policy, "carol", auth.PermModifyJob, coord, ok},
		{policy, "erin", auth.PermModifyJob, coord, oozieerr.E0509},
		{policy, "bob", auth.PermModifyJob, bundle, oozieerr.E0509},
		{policy, "alice", auth.PermModifyJob, bundle, ok},
		// Admin operations.
		{policy, "root", auth.PermAdmin, nil, ok},
		{policy, "frank", auth.PermAdmin, nil, ok},
		{policy, "alice", auth.PermAdmin, nil, oozieerr.E0503},
		{policy, "", auth.PermAdmin, nil, oozieerr.E0501},
		// System information: open unless a list of users is set.
		{policy, "bob", auth.PermSystemInfo, nil, ok},
		{strict, "bob", auth.PermSystemInfo, nil, oozieerr.E0503},
		{strict, "monitor", auth.PermSystemInfo, nil, ok},
		{strict, "root", auth.PermSystemInfo, nil, ok},
		{strict, "", auth.PermSystemInfo, nil, oozieerr.E0501},
		// Reads that need the ACL.
		{strict, "bob", auth.PermReadJob, wf, oozieerr.E0508},
		{strict, "carol", auth.PermReadJob, wf, ok},
		{strict, "", auth.PermReadJob, wf, oozieerr.E0501},
		{strict, "", auth.PermRead, nil, ok},
		// Authorization off: everything goes, but a route without a permission never does.
		{off, "", auth.PermAdmin, nil, ok},
		{off, "bob", auth.PermModifyJob, wf, ok},
		{nil, "", auth.PermModifyJob, wf, ok},
		{off, "root", auth.PermNone, nil, oozieerr.E0501},
		{policy, "root", auth.PermNone, nil, oozieerr.E0501},
	}
	for _, tt := range tests {
		name := fmt.Sprintf("%s/%q/%v", policyName(tt.policy, policy, strict), tt.user, tt.perm)
		if tt.job != nil {
			name += "/" + tt.job.ID[len(tt.job.ID)-1:] + "/" + tt.job.ACL
		}
		err := tt.policy.Decide(tt.user, tt.perm, tt.job)
		var ae *auth.Error
		switch {
		case tt.want == ok && err != nil:
			t.Errorf("%s: refused: %v", name, err)
		case tt.want != ok && !errors.As(err, &ae):
			t.Errorf("%s: %v, want a refusal %s", name, err, tt.want)
		case tt.want != ok && ae.Code != tt.want:
			t.Errorf("%s: code %s (%s), want %s", name, ae.Code, ae.Msg, tt.want)
		case tt.want != ok && tt.perm != auth.PermNone && ae.Status != 401:
			t.Errorf("%s: status %d, want 401", name, ae.Status)
		}
	}
}

func policyName(p, policy, strict *auth.Policy) string {
	switch p {
	case policy:
		return "default"
	case strict:
		return "strict"
	case nil:
		return "nil"
	}
	return "off"
}

// TestDecideMessages checks Oozie's messages of the refusals.
func TestDecideMessages(t *testing.T) {
	t.Parallel()
	p := &auth.Policy{Groups: func(string) ([]string, error) { return nil, nil }}
	for _, tt := range []struct {
		user string
		perm auth.Permission
		job  *auth.Job
		want string
	}{
		{"bob", auth.PermModifyJob, &auth.Job{ID: "1-W", Owner: "alice"}, "E0508: User [bob] not authorized for WF job [1-W]"},
		{"bob", auth.PermModifyJob, &auth.Job{ID: "1-C", Owner: "alice"}, "E0509: User [bob] not authorized for Coord job [1-C]"},
		{"bob", auth.PermAdmin, nil, "E0503: User [bob] does not have admin privileges"},
	} {
		if err := p.Decide(tt.user, tt.perm, tt.job); err == nil || err.Error() != tt.want {
			t.Errorf("Decide(%s, %v) = %v, want %q", tt.user, tt.perm, err, tt.want)
		}
	}
}
