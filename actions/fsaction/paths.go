package fsaction

import (
	"path"
	"strings"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/hadoop"
)

// uri is a path as Hadoop's Path reads it: an optional scheme, an optional
// authority (after "//"), and the path.
type uri struct {
	scheme    string
	authority string
	path      string
}

// parseURI splits s without decoding it: glob characters and '%' stay part
// of the path.
func parseURI(s string) uri {
	var u uri
	if i := strings.IndexByte(s, ':'); i > 0 && hadoop.ValidScheme(s[:i]) {
		u.scheme, s = strings.ToLower(s[:i]), s[i+1:]
		if rest, ok := strings.CutPrefix(s, "//"); ok {
			u.authority, s = rest, ""
			if j := strings.IndexByte(rest, '/'); j >= 0 {
				u.authority, s = rest[:j], rest[j:]
			}
		}
	}
	u.path = s
	return u
}

func (u uri) absolute() bool { return strings.HasPrefix(u.path, "/") }

// root is scheme://authority.
func (u uri) root() string { return u.scheme + "://" + u.authority }

// String renders the URI back.
func (u uri) String() string {
	if u.scheme == "" {
		return u.path
	}
	if u.scheme == "file" && u.authority == "" {
		return "file://" + u.path
	}
	return u.root() + u.path
}

// resolver applies Oozie's path rules to the paths of one fs action.
type resolver struct {
	nameNode *uri // the action's <name-node>, nil when it names none
	// checkScheme judges a scheme (hadoop.CheckScheme on the executor's
	// filesystem).
	checkScheme func(uri string) error
}

// validate is Oozie's check of a path that must be fully qualified: a
// scheme (FS001) that the server supports (E0904, judged by the filesystem).
func (r *resolver) validate(raw string, u uri) error {
	if u.scheme == "" {
		return actions.Errorf(actions.ActionError, codeMissingScheme, "Missing scheme in path [%s]", raw)
	}
	if err := r.checkScheme(raw); err != nil {
		if ee := actions.SchemeRefused(err); ee != nil {
			return ee
		}
		return actions.Errorf(actions.ActionError, codeException, "path [%s]: %w", raw, err)
	}
	return nil
}

// full resolves a path of the action to a full URI. Without a <name-node>
// the path must be fully qualified. With one, a path lacking a scheme or an
// authority is put on the name node if it is absolute and refused if it is
// relative (FS011); a path on another filesystem is validated as is. One
// deviation from Oozie: a file: URI stays on the local filesystem (Oozie
// would move a file:///p without authority onto the name node).
func (r *resolver) full(raw string) (uri, error) {
	raw = strings.TrimSpace(raw)
	u := parseURI(raw)
	if r.nameNode == nil || u.scheme == "file" {
		if err := r.validate(raw, u); err != nil {
			return uri{}, err
		}
		return u, nil
	}
	if u.scheme == "" || u.authority == "" {
		if !u.absolute() {
			return uri{}, actions.Errorf(actions.ActionError, codeRelative, "Path [%s] cannot be relative", raw)
		}
		return uri{scheme: r.nameNode.scheme, authority: r.nameNode.authority, path: u.path}, nil
	}
	if u.scheme != r.nameNode.scheme || u.authority != r.nameNode.authority {
		if err := r.validate(raw, u); err != nil {
			return uri{}, err
		}
	}
	return u, nil
}

// moveTarget resolves a move's target against its (full) source. The
// target may leave out the filesystem, but may not name another one (FS007,
// Oozie's check on the target resolved against the source). A relative
// target is, as Hadoop's rename takes it, relative to the user's home
// directory on the source's filesystem.
func moveTarget(src uri, raw, user string) (uri, error) {
	raw = strings.TrimSpace(raw)
	t := parseURI(raw)
	if t.scheme != "" && (t.scheme != src.scheme || t.authority != src.authority) {
		return uri{}, actions.Errorf(actions.ActionError, codeOtherNN, "move, target NN URI different from that of source")
	}
	if t.path == "" {
		return uri{}, actions.Errorf(actions.ActionError, codeRelative, "Path [%s] cannot be relative", raw)
	}
	p := t.path
	if !strings.HasPrefix(p, "/") {
		if src.scheme == "file" {
			return uri{}, actions.Errorf(actions.ActionError, codeRelative, "Path [%s] cannot be relative", raw)
		}
		p = path.Join("/user", user, p)
	}
	return uri{scheme: src.scheme, authority: src.authority, path: path.Clean(p)}, nil
}
