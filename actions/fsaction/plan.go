package fsaction

import (
	"io/fs"
	"strconv"
	"strings"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/workflow"
)

// op is one validated operation of an fs action.
type op struct {
	kind      string // delete, mkdir, move, chmod, touchz, chgrp, setrep
	path      uri    // the path (the source of a move); may be a glob
	raw       string // the path as written
	target    uri    // move only
	perm      fs.FileMode
	dirFiles  bool
	recursive bool
	skipTrash bool
	group     string
	replicas  int
}

// plan checks every operation's paths and arguments before any of them
// runs, so that a bad path fails the action with nothing done (the order of
// work Oozie's documentation promises; its code checks as it goes).
// checkScheme judges a fully qualified path's scheme (hadoop.CheckScheme).
func plan(body *workflow.FS, checkScheme func(uri string) error, user string) ([]op, error) {
	r := &resolver{checkScheme: checkScheme}
	if nn := strings.TrimSpace(body.NameNode); nn != "" {
		u := parseURI(nn)
		if err := r.validate(nn, u); err != nil {
			return nil, err
		}
		r.nameNode = &u
	}
	var ops []op
	for _, o := range body.Ops {
		p := op{kind: o.Op, raw: strings.TrimSpace(o.Path)}
		var err error
		switch o.Op {
		case "mkdir", "touchz":
			p.path, err = r.full(o.Path)
		case "delete":
			p.path, err = r.full(o.Path)
			p.skipTrash = strings.TrimSpace(o.SkipTrash) != "false"
		case "move":
			p.raw = strings.TrimSpace(o.Source)
			if p.path, err = r.full(o.Source); err == nil {
				p.target, err = moveTarget(p.path, o.Target, user)
			}
		case "chmod", "chgrp":
			p.path, err = r.full(o.Path)
			p.dirFiles = o.DirFiles == "" || strings.EqualFold(strings.TrimSpace(o.DirFiles), "true")
			p.recursive = o.Recursive
			if err == nil && o.Op == "chmod" {
				var ok bool
				if p.perm, ok = parsePermissions(strings.TrimSpace(o.Permissions)); !ok {
					err = actions.Errorf(actions.ActionError, codeBadMask, "chmod, path [%s] invalid permissions mask [%s]", p.raw, o.Permissions)
				}
			}
			if err == nil && o.Op == "chgrp" {
				if p.group = strings.TrimSpace(o.Group); p.group == "" {
					err = actions.Errorf(actions.ActionError, codeException, "chgrp, path [%s]: no group", p.raw)
				}
			}
		case "setrep":
			if strings.TrimSpace(o.ReplicationFactor) == "" {
				continue // Oozie does nothing without a factor
			}
			// Oozie checks setrep paths without the name node.
			p.path, err = (&resolver{checkScheme: checkScheme}).full(o.Path)
			if err == nil {
				n, perr := strconv.ParseInt(strings.TrimSpace(o.ReplicationFactor), 10, 16)
				if perr != nil || n <= 0 {
					err = actions.Errorf(actions.ActionError, codeBadNumber, "setrep, path [%s]: For input string: %q", p.raw, o.ReplicationFactor)
				}
				p.replicas = int(n)
			}
		default:
			continue // Oozie skips operations it does not know
		}
		if err != nil {
			return nil, err
		}
		ops = append(ops, p)
	}
	return ops, nil
}
